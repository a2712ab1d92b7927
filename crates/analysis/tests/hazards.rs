//! Hazard checker on synthetic event sequences (the emulator's events, written by hand).

use std::sync::Arc;

use warpscope_analysis::hazards::{
    AccessKind, Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc, Severity, SharedRegion,
};

const R: AccessKind = AccessKind::Read;
const W: AccessKind = AccessKind::Write;

fn config(threads: u32, regions: &[(&str, u32, u32)]) -> Arc<HazardConfig> {
    let shared_size = regions.iter().map(|r| r.1 + r.2).max().unwrap_or(0);
    Arc::new(HazardConfig {
        block_dim: [threads, 1, 1],
        shared_size,
        regions: regions
            .iter()
            .map(|&(name, offset, size)| SharedRegion {
                name: name.to_string(),
                offset,
                size,
            })
            .collect(),
        cluster_peers: false,
    })
}

/// Addresses `base + stride * lane` for every lane.
fn addrs(f: impl Fn(u64) -> u64) -> [u64; 32] {
    std::array::from_fn(|l| f(l as u64))
}

/// Line of a pc is pc + 100, so messages and lines are predictable.
fn loc(pc: u32) -> Loc {
    Loc {
        line: Some(pc + 100),
        label: format!("line {}", pc + 100),
    }
}

fn findings(sinks: Vec<HazardSink>, cfg: &Arc<HazardConfig>) -> Vec<Finding> {
    let mut rep = HazardReport::new(Arc::clone(cfg));
    for s in sinks {
        rep.merge(s);
    }
    rep.findings(&loc)
}

fn kinds(f: &[Finding]) -> Vec<(FindingKind, Severity, Vec<u32>)> {
    f.iter().map(|f| (f.kind, f.severity, f.pcs.clone())).collect()
}

const FULL: u32 = u32::MAX;

/// Two warps: s[t] = ..; [barrier at pc 1]; read s[(t + 1) % 64]; [barrier at pc 3].
fn neighbour(first_barrier: bool, trailing_barrier: bool) -> Vec<Finding> {
    let cfg = config(64, &[("s", 0, 256)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    for w in 0..2 {
        b.shared_access(w, 0, W, 4, FULL, &addrs(|l| 4 * (u64::from(w) * 32 + l)));
    }
    if first_barrier {
        b.barrier(0, 1, FULL, true);
        b.barrier(1, 1, FULL, true);
        b.barrier_release(1);
    }
    for w in 0..2 {
        b.shared_access(
            w,
            2,
            R,
            4,
            FULL,
            &addrs(|l| 4 * ((u64::from(w) * 32 + l + 1) % 64)),
        );
    }
    if trailing_barrier {
        b.barrier(0, 3, FULL, true);
        b.barrier(1, 3, FULL, true);
        b.barrier_release(3);
    }
    b.warp_exit(0);
    b.warp_exit(1);
    findings(vec![b], &cfg)
}

#[test]
fn missing_barrier_is_a_race_within_and_across_warps() {
    let f = neighbour(false, false);
    let races: Vec<&Finding> = f.iter().filter(|f| f.kind == FindingKind::Race).collect();
    assert_eq!(races.len(), 2, "{f:#?}");
    assert!(
        races
            .iter()
            .all(|r| r.severity == Severity::Error && r.pcs == vec![0, 2])
    );
    assert!(
        races.iter().any(|r| r.message.contains("__syncwarp")),
        "intra-warp race says so"
    );
    assert!(
        races.iter().any(|r| !r.message.contains("__syncwarp")),
        "inter-warp race"
    );
    assert!(
        races[0].message.starts_with("WRITE/READ race"),
        "{}",
        races[0].message
    );
    assert_eq!(races[0].line, Some(102));
    assert_eq!(races[0].lines, vec![100, 102]);
}

#[test]
fn adjacent_difference_first_barrier_needed_trailing_redundant() {
    let f = neighbour(true, true);
    assert_eq!(
        kinds(&f),
        vec![(FindingKind::RedundantBarrier, Severity::Warning, vec![3])],
        "{f:#?}"
    );
    assert!(f[0].message.contains("separates no conflicting accesses"));
    assert_eq!(f[0].line, Some(103));
}

#[test]
fn two_barriers_in_a_row_keep_the_later() {
    let cfg = config(64, &[("s", 0, 256)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    for w in 0..2 {
        b.shared_access(w, 0, W, 4, FULL, &addrs(|l| 4 * (u64::from(w) * 32 + l)));
    }
    for pc in [1, 2] {
        b.barrier(0, pc, FULL, true);
        b.barrier(1, pc, FULL, true);
        b.barrier_release(pc);
    }
    for w in 0..2 {
        b.shared_access(w, 3, R, 4, FULL, &addrs(|l| 4 * (63 - (u64::from(w) * 32 + l))));
    }
    b.warp_exit(0);
    b.warp_exit(1);
    let f = findings(vec![b], &cfg);
    assert_eq!(
        kinds(&f),
        vec![(FindingKind::RedundantBarrier, Severity::Warning, vec![1])],
        "{f:#?}"
    );
    assert!(
        f[0].message
            .contains("only together with the barrier at line 102"),
        "{}",
        f[0].message
    );
}

#[test]
fn syncwarp_orders_lanes_of_one_warp_only() {
    let cfg = config(32, &[("s", 0, 128)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, FULL, &addrs(|l| 4 * l));
    b.barrier(0, 1, FULL, false);
    b.shared_access(0, 2, R, 4, FULL, &addrs(|l| 4 * (l ^ 1)));
    b.warp_exit(0);
    assert!(findings(vec![b], &cfg).is_empty());
}

#[test]
fn write_after_read_in_one_epoch_races_and_across_a_barrier_needs_it() {
    let cfg = config(64, &[("s", 0, 256)]);
    // Warp 1 reads s[0..32), then warp 0 overwrites them: WAR in one epoch.
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, FULL, &addrs(|l| 4 * l));
    b.barrier(0, 1, FULL, true);
    b.barrier(1, 1, FULL, true);
    b.barrier_release(1);
    b.shared_access(1, 2, R, 4, FULL, &addrs(|l| 4 * l));
    b.shared_access(0, 3, W, 4, FULL, &addrs(|l| 4 * l));
    b.warp_exit(0);
    b.warp_exit(1);
    let f = findings(vec![b], &cfg);
    assert_eq!(
        kinds(&f),
        vec![(FindingKind::Race, Severity::Error, vec![2, 3])],
        "{f:#?}"
    );
    assert!(f[0].message.starts_with("READ/WRITE race"));
    assert_eq!(f[0].count, 128, "32 lanes x 4 bytes");
    assert_eq!(f[0].example.threads, vec![32, 0]);
}

#[test]
fn uninitialised_read_names_the_array() {
    let cfg = config(32, &[("a", 0, 128), ("b", 128, 128)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, FULL, &addrs(|l| 4 * l));
    b.shared_access(0, 1, R, 4, FULL, &addrs(|l| 128 + 4 * l));
    b.warp_exit(0);
    let f = findings(vec![b], &cfg);
    assert_eq!(
        kinds(&f),
        vec![(FindingKind::UninitializedRead, Severity::Error, vec![1])],
        "{f:#?}"
    );
    assert!(f[0].message.contains("of `b`"), "{}", f[0].message);
}

#[test]
fn out_of_bounds_outside_the_window_and_into_the_next_array() {
    let cfg = config(64, &[("a", 0, 128), ("b", 128, 128)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    // Warp 1 writes a[32..64) = b's bytes: lanes of one instruction stay in one array each, but the
    // instruction (pc 0) touches both arrays over the launch only through different warps; warp 0's
    // pc 1 has lanes in both arrays.
    b.shared_access(0, 1, W, 4, FULL, &addrs(|l| 64 + 4 * l));
    // pc 2: past the 256-byte window.
    b.shared_access(1, 2, W, 4, 1, &addrs(|_| 256));
    b.warp_exit(0);
    b.warp_exit(1);
    let f = findings(vec![b], &cfg);
    let oob: Vec<&Finding> = f.iter().filter(|f| f.kind == FindingKind::OutOfBounds).collect();
    assert_eq!(oob.len(), 2, "{f:#?}");
    assert!(
        oob.iter()
            .any(|f| f.pcs == vec![1] && f.message.contains("`a` and `b`")),
        "{oob:#?}"
    );
    assert!(
        oob.iter()
            .any(|f| f.pcs == vec![2] && f.message.contains("256 bytes of shared memory"))
    );
}

#[test]
fn barrier_skipped_by_live_lanes_is_an_error_by_exited_warps_a_warning() {
    let cfg = config(64, &[("s", 0, 256)]);
    let even = 0x5555_5555;
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.inst(0, FULL);
    b.barrier(0, 5, even, true);
    b.barrier(1, 5, FULL, true);
    b.barrier_release(5);
    b.inst(0, !even); // the odd lanes go on
    b.warp_exit(0);
    b.warp_exit(1);
    let f = findings(vec![b], &cfg);
    let div: Vec<_> = kinds(&f)
        .into_iter()
        .filter(|k| k.0 == FindingKind::DivergentBarrier)
        .collect();
    assert_eq!(
        div,
        vec![(FindingKind::DivergentBarrier, Severity::Error, vec![5])],
        "{f:#?}"
    );
    assert!(f.iter().any(|f| {
        f.message
            .contains("lanes 1,3,5,7,... (16 lanes) of warp 0 skipped it and went on")
    }));

    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.warp_exit(1);
    b.barrier(0, 7, FULL, true);
    b.barrier_release(7);
    b.warp_exit(0);
    let f = findings(vec![b], &cfg);
    let div: Vec<_> = kinds(&f)
        .into_iter()
        .filter(|k| k.0 == FindingKind::DivergentBarrier)
        .collect();
    assert_eq!(
        div,
        vec![(FindingKind::DivergentBarrier, Severity::Warning, vec![7])],
        "{f:#?}"
    );
    assert!(f.iter().any(|f| f.message.contains("warp(s) 1 had exited")));
}

#[test]
fn atomics_do_not_race_with_atomics_but_with_plain_reads() {
    let cfg = config(64, &[("count", 0, 4)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, 1, &addrs(|_| 0));
    b.barrier(0, 1, FULL, true);
    b.barrier(1, 1, FULL, true);
    b.barrier_release(1);
    b.shared_access(0, 2, AccessKind::Atomic, 4, FULL, &addrs(|_| 0));
    b.shared_access(1, 2, AccessKind::Atomic, 4, FULL, &addrs(|_| 0));
    let clean = findings(vec![b], &cfg);
    assert!(clean.iter().all(|f| f.kind != FindingKind::Race), "{clean:#?}");

    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, 1, &addrs(|_| 0));
    b.barrier(0, 1, FULL, true);
    b.barrier(1, 1, FULL, true);
    b.barrier_release(1);
    b.shared_access(0, 2, AccessKind::Atomic, 4, FULL, &addrs(|_| 0));
    b.shared_access(1, 3, R, 4, 1, &addrs(|_| 0));
    let f = findings(vec![b], &cfg);
    assert!(
        f.iter()
            .any(|f| f.kind == FindingKind::Race && f.pcs == vec![2, 3]),
        "{f:#?}"
    );
}

#[test]
fn lanes_of_one_store_writing_one_word_are_a_warning() {
    let cfg = config(32, &[("flag", 0, 4)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, 0b11, &addrs(|_| 0));
    b.warp_exit(0);
    let f = findings(vec![b], &cfg);
    assert_eq!(
        kinds(&f),
        vec![(FindingKind::Race, Severity::Warning, vec![0, 0])],
        "{f:#?}"
    );
}

#[test]
fn byte_granularity_no_race_on_neighbouring_chars() {
    let cfg = config(64, &[("c", 0, 64)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    for w in 0..2 {
        b.shared_access(w, 0, W, 1, FULL, &addrs(|l| u64::from(w) * 32 + l));
    }
    b.warp_exit(0);
    b.warp_exit(1);
    assert!(findings(vec![b], &cfg).is_empty());
}

#[test]
fn blocks_merge_counts_and_keep_the_first_example() {
    let cfg = config(32, &[("s", 0, 128)]);
    let mk = |block| {
        let mut b = HazardSink::new(Arc::clone(&cfg), block);
        b.shared_access(0, 0, R, 4, 1, &addrs(|_| 0));
        b.warp_exit(0);
        b
    };
    let f = findings(vec![mk(0), mk(1), mk(2)], &cfg);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].count, 3);
    assert_eq!(f[0].example.block, 0);
}

/// Reference path: a brute-force detector over every pair of byte accesses, against the bounded
/// shadow, on random programs of 3 warps x 2 lanes touching 4 bytes, with barriers and __syncwarp.
#[test]
fn bounded_shadow_agrees_with_brute_force_on_whether_a_race_exists() {
    #[derive(Clone, Copy)]
    struct Ev {
        tid: u32,
        epoch: u32,
        wsync: u32,
        kind: AccessKind,
        byte: u64,
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let cfg = config(96, &[("s", 0, 4)]);
    for case in 0..20000 {
        let mut sink = HazardSink::new(Arc::clone(&cfg), 0);
        let mut log: Vec<Ev> = Vec::new();
        let (mut epoch, mut wsync) = (0u32, [0u32; 3]);
        for _ in 0..(2 + next(8)) {
            match next(10) {
                0 => {
                    for w in 0..3 {
                        sink.barrier(w, 9, FULL, true);
                    }
                    sink.barrier_release(9);
                    epoch += 1;
                }
                1 => {
                    let w = next(3) as u32;
                    sink.barrier(w, 8, FULL, false);
                    wsync[w as usize] += 1;
                }
                _ => {
                    let w = next(3) as u32;
                    let lane = next(2) as u32;
                    let kind = [R, W, AccessKind::Atomic][next(3) as usize];
                    let byte = next(4);
                    sink.shared_access(w, 1, kind, 1, 1 << lane, &addrs(|_| byte));
                    log.push(Ev {
                        tid: w * 32 + lane,
                        epoch,
                        wsync: wsync[w as usize],
                        kind,
                        byte,
                    });
                }
            }
        }
        let brute = log.iter().enumerate().any(|(i, a)| {
            log[i + 1..].iter().any(|b| {
                a.byte == b.byte
                    && a.tid != b.tid
                    && a.epoch == b.epoch
                    && !(a.tid / 32 == b.tid / 32 && a.wsync != b.wsync)
                    && (a.kind != R || b.kind != R)
                    && !(a.kind == AccessKind::Atomic && b.kind == AccessKind::Atomic)
            })
        });
        let f = findings(vec![sink], &cfg);
        let shadow = f.iter().any(|f| f.kind == FindingKind::Race);
        let trace: Vec<String> = log
            .iter()
            .map(|e| format!("t{} e{} s{} {:?} b{}", e.tid, e.epoch, e.wsync, e.kind, e.byte))
            .collect();
        assert_eq!(shadow, brute, "case {case}: {trace:#?} {f:#?}");
    }
}

#[test]
fn local_static_names_are_shown_as_function_and_variable() {
    use warpscope_analysis::hazards::display_name;
    assert_eq!(display_name("_ZZ15race_raw_nosyncE1s"), "race_raw_nosync::s");
    assert_eq!(display_name("_ZZ4kernPfE4tile"), "kern::tile");
    assert_eq!(display_name("s_data"), "s_data");
    assert_eq!(display_name("_ZZ99x"), "_ZZ99x");
}

#[test]
fn warps_released_together_from_different_barriers_is_an_error() {
    let cfg = config(64, &[("s", 0, 256)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.barrier(0, 3, FULL, true);
    b.barrier(1, 6, FULL, true);
    b.barrier_release(6);
    b.warp_exit(0);
    b.warp_exit(1);
    let f = findings(vec![b], &cfg);
    let div: Vec<_> = kinds(&f)
        .into_iter()
        .filter(|k| k.0 == FindingKind::DivergentBarrier)
        .collect();
    assert_eq!(
        div,
        vec![
            (FindingKind::DivergentBarrier, Severity::Error, vec![3]),
            (FindingKind::DivergentBarrier, Severity::Error, vec![6])
        ],
        "{f:#?}"
    );
    assert!(f.iter().any(|f| f.message.contains("other barrier(s) [6]")));
}

#[test]
fn shadow_is_dropped_when_the_last_warp_exits_and_late_events_are_ignored() {
    let cfg = config(32, &[("s", 0, 128)]);
    let mut b = HazardSink::new(Arc::clone(&cfg), 0);
    b.shared_access(0, 0, W, 4, FULL, &addrs(|l| 4 * l));
    b.warp_exit(0);
    // After the block finished nothing more is recorded (no uninitialised read from a fresh shadow).
    b.shared_access(0, 1, R, 4, FULL, &addrs(|l| 4 * l));
    assert!(findings(vec![b], &cfg).is_empty());
}
