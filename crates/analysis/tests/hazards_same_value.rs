//! Same-value writes (threads writing the bytes another thread wrote, unordered: a finding of its
//! own, not a race) and redundant-barrier advice that only the launch's trip count makes true (a
//! note that says so), on event sequences written by hand, on both paths of the tracker.

use std::sync::Arc;

use warpscope_analysis::hazards::{
    AccessKind, Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc, Severity, SharedRegion,
    StoreBytes,
};

const FULL: u32 = u32::MAX;

fn config(threads: u32, size: u32) -> Arc<HazardConfig> {
    Arc::new(HazardConfig {
        block_dim: [threads, 1, 1],
        shared_size: size,
        regions: vec![SharedRegion {
            name: "s".into(),
            offset: 0,
            size,
        }],
        cluster_peers: false,
    })
}

fn loc(pc: u32) -> Loc {
    Loc {
        line: Some(pc + 100),
        label: format!("line {}", pc + 100),
    }
}

/// Every lane stores `value(lane)` as 4 bytes.
fn words(value: impl Fn(u32) -> u32) -> StoreBytes {
    std::array::from_fn(|l| {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&value(l as u32).to_le_bytes());
        b
    })
}

/// The findings of one block's events, run once on the fast path and once on the reference path
/// (which must agree).
fn run(threads: u32, size: u32, events: impl Fn(&mut HazardSink)) -> Vec<Finding> {
    let cfg = config(threads, size);
    let mut out = Vec::new();
    for reference in [false, true] {
        let mut s = if reference {
            HazardSink::reference(Arc::clone(&cfg), 0)
        } else {
            HazardSink::new(Arc::clone(&cfg), 0)
        };
        events(&mut s);
        for w in 0..threads.div_ceil(32) {
            s.warp_exit(w);
        }
        let mut rep = HazardReport::new(Arc::clone(&cfg)).with_loops(vec![[0, 9]]);
        rep.merge(s);
        out.push(rep.findings(&loc));
    }
    assert_eq!(out[0], out[1], "fast path and reference path");
    out.pop().unwrap()
}

fn of(f: &[Finding], kind: FindingKind) -> Vec<&Finding> {
    f.iter().filter(|x| x.kind == kind).collect()
}

#[test]
fn a_warp_storing_identical_bits_to_one_word_is_a_same_value_write() {
    let f = run(32, 64, |s| {
        s.shared_store(0, 0, 4, FULL, &[8; 32], &words(|_| 1));
    });
    assert!(of(&f, FindingKind::Race).is_empty(), "{f:#?}");
    let same = of(&f, FindingKind::SameValueWrite);
    assert_eq!(same.len(), 1, "{f:#?}");
    assert_eq!(same[0].severity, Severity::Warning);
    assert_eq!(same[0].count, 31 * 4, "31 later lanes, 4 bytes each");
    assert!(
        same[0].message.contains("write the same value to shared byte 8"),
        "{}",
        same[0].message
    );
}

#[test]
fn different_values_stay_a_race_even_where_some_bytes_agree() {
    // threadIdx.x as 4 bytes: the upper three bytes agree, the word does not
    let f = run(32, 64, |s| {
        s.shared_store(0, 0, 4, FULL, &[0; 32], &words(|l| l));
    });
    assert!(of(&f, FindingKind::SameValueWrite).is_empty(), "{f:#?}");
    let races = of(&f, FindingKind::Race);
    assert_eq!(races.len(), 1, "{f:#?}");
    assert_eq!(races[0].count, 31 * 4, "every byte of every later lane");
}

#[test]
fn a_flag_every_thread_sets_across_warps_is_a_same_value_write() {
    // `if (flag) *done = 1;` by 64 threads after thread 0 cleared it before a barrier
    let f = run(64, 64, |s| {
        s.shared_store(0, 0, 4, 1, &[0; 32], &words(|_| 0));
        s.barrier(0, 1, FULL, true);
        s.barrier(1, 1, FULL, true);
        s.barrier_release(1);
        for w in 0..2 {
            s.shared_store(w, 2, 4, FULL, &[0; 32], &words(|_| 1));
        }
    });
    assert!(of(&f, FindingKind::Race).is_empty(), "{f:#?}");
    assert!(!of(&f, FindingKind::SameValueWrite).is_empty(), "{f:#?}");
}

#[test]
fn a_write_whose_bytes_are_unknown_is_never_same_value() {
    let f = run(32, 64, |s| {
        s.shared_access(0, 0, AccessKind::Write, 4, FULL, &[0; 32]);
    });
    assert!(of(&f, FindingKind::SameValueWrite).is_empty(), "{f:#?}");
    assert_eq!(of(&f, FindingKind::Race).len(), 1, "{f:#?}");
}

#[test]
fn a_thread_that_wrote_other_bytes_or_read_first_keeps_the_race() {
    // warp 0 lane 0 writes 2 then 1; warp 1 lane 0 writes 1: its write meets the 2 as well
    let rewrote = run(64, 64, |s| {
        s.shared_store(0, 0, 4, 1, &[0; 32], &words(|_| 2));
        s.shared_store(0, 1, 4, 1, &[0; 32], &words(|_| 1));
        s.shared_store(1, 2, 4, 1, &[0; 32], &words(|_| 1));
    });
    assert!(
        of(&rewrote, FindingKind::SameValueWrite).is_empty(),
        "{rewrote:#?}"
    );
    assert!(!of(&rewrote, FindingKind::Race).is_empty(), "{rewrote:#?}");
    // the same value twice by one thread stays steady
    let twice = run(64, 64, |s| {
        s.shared_store(0, 0, 4, 1, &[0; 32], &words(|_| 1));
        s.shared_store(0, 1, 4, 1, &[0; 32], &words(|_| 1));
        s.shared_store(1, 2, 4, 1, &[0; 32], &words(|_| 1));
    });
    assert!(of(&twice, FindingKind::Race).is_empty(), "{twice:#?}");
    assert_eq!(of(&twice, FindingKind::SameValueWrite).len(), 1, "{twice:#?}");
    // a thread that read the word before writing it could have read the other thread's write
    let read_first = run(64, 64, |s| {
        s.shared_store(0, 0, 4, 1, &[0; 32], &words(|_| 1));
        s.shared_access(1, 1, AccessKind::Read, 4, 2, &[0; 32]);
        s.shared_store(1, 2, 4, 2, &[0; 32], &words(|_| 1));
    });
    let races = of(&read_first, FindingKind::Race);
    assert!(races.iter().any(|r| r.pcs == [0, 2]), "{read_first:#?}");
}

#[test]
fn vector_and_byte_stores_compare_every_byte() {
    // 8-byte stores of equal bits by two lanes, then a byte store of the same byte by another
    let f = run(32, 64, |s| {
        let v: StoreBytes = std::array::from_fn(|_| {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&0x0102_0304_0506_0708u64.to_le_bytes());
            b
        });
        s.shared_store(0, 0, 8, 0b11, &[16; 32], &v);
        let byte: StoreBytes = std::array::from_fn(|_| [0x06; 16]);
        s.shared_store(0, 1, 1, 0b100, &[18; 32], &byte);
        let other: StoreBytes = std::array::from_fn(|_| [0x99; 16]);
        s.shared_store(0, 2, 1, 0b1000, &[19; 32], &other);
    });
    let same = of(&f, FindingKind::SameValueWrite);
    assert_eq!(
        same.iter().map(|f| f.pcs.clone()).collect::<Vec<_>>(),
        [vec![0, 0], vec![0, 1]],
        "{f:#?}"
    );
    let races = of(&f, FindingKind::Race);
    assert_eq!(races.len(), 1, "{f:#?}");
    assert_eq!(races[0].pcs, [0, 2]);
}

/// Two warps: s[t] = ..; barrier (pc 1); read s[63 - t]; barrier (pc 3) at the end of a loop body
/// (pcs 0..9) run `iterations` times.
fn loop_with_trailing_barrier(iterations: u32) -> Vec<Finding> {
    run(64, 256, |s| {
        let lanes = |w: u32, f: &dyn Fn(u64) -> u64| -> [u64; 32] {
            std::array::from_fn(|l| f(u64::from(w) * 32 + l as u64))
        };
        for _ in 0..iterations {
            for w in 0..2 {
                s.shared_access(w, 0, AccessKind::Write, 4, FULL, &lanes(w, &|t| 4 * t));
            }
            for w in 0..2 {
                s.barrier(w, 1, FULL, true);
            }
            s.barrier_release(1);
            for w in 0..2 {
                s.shared_access(w, 2, AccessKind::Read, 4, FULL, &lanes(w, &|t| 4 * (63 - t)));
            }
            for w in 0..2 {
                s.barrier(w, 3, FULL, true);
            }
            s.barrier_release(3);
        }
    })
}

#[test]
fn a_loop_barrier_redundant_only_for_one_iteration_is_a_note_that_says_so() {
    let once = loop_with_trailing_barrier(1);
    let r = of(&once, FindingKind::RedundantBarrier);
    assert_eq!(r.len(), 1, "{once:#?}");
    assert_eq!(r[0].severity, Severity::Note, "{once:#?}");
    assert_eq!(r[0].pcs, [3]);
    assert!(
        r[0].message
            .contains("in this launch: every block runs one iteration"),
        "{}",
        r[0].message
    );
    // with a second iteration the barrier orders the reads before the next writes: needed
    let twice = loop_with_trailing_barrier(2);
    assert!(of(&twice, FindingKind::RedundantBarrier).is_empty(), "{twice:#?}");
}

#[test]
fn a_barrier_outside_every_loop_stays_a_warning() {
    let f = run(64, 256, |s| {
        for w in 0..2 {
            s.barrier(w, 12, FULL, true);
        }
        s.barrier_release(12);
    });
    let r = of(&f, FindingKind::RedundantBarrier);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(r[0].severity, Severity::Warning);
    assert!(!r[0].message.contains("in this launch:"), "{}", r[0].message);
}
