//! The race tracker's fast path (word cells, memoised barrier bookkeeping, one-step bounds check)
//! against its reference path (`HazardSink::reference`: byte by byte, every look-up made) on the
//! same inputs: every finding, count and example, and the needed and redundant barriers, must be
//! equal. Inputs: the planted-bug suite, the calibration suites (seeds and classics), the tiled
//! matmul of the emulator's tests, and random event sequences that mix byte, half-word, word and
//! wider accesses, aligned and not, so words are split and merged again.

use std::path::PathBuf;
use std::sync::Arc;

use warpscope_analysis::hazards::{
    AccessKind, Finding, HazardConfig, HazardReport, HazardSink, Loc, SharedRegion, StoreBytes,
};
use warpscope_analysis::launchspec::parse_args;
use warpscope_emu::{Arg, Launch, Limits, Program};

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

fn triple(s: &str) -> [u32; 3] {
    let v: Vec<u32> = s.split(',').map(|x| x.parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

fn loc(pc: u32) -> Loc {
    Loc {
        line: Some(pc),
        label: format!("pc {pc}"),
    }
}

/// Everything a report says, for comparison.
#[derive(Debug, PartialEq)]
struct Outcome {
    findings: Vec<Finding>,
    needed: Vec<u32>,
    redundant: Vec<u32>,
}

fn outcome(rep: &HazardReport) -> Outcome {
    Outcome {
        findings: rep.findings(&loc),
        needed: rep.needed_barriers(),
        redundant: rep.redundant_barriers(),
    }
}

/// Emulates the launch once per path and returns both outcomes.
fn both(program: &Program, kernel: &str, launch: &Launch) -> (Outcome, Outcome) {
    let k = program.kernel(kernel).unwrap();
    let cfg = Arc::new(HazardConfig::for_kernel(k, launch.block, launch.dyn_smem));
    let run = |reference: bool| {
        let res = warpscope_emu::run(program, kernel, launch, &Limits::default(), |b| {
            if reference {
                HazardSink::reference(Arc::clone(&cfg), b)
            } else {
                HazardSink::new(Arc::clone(&cfg), b)
            }
        })
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        let mut rep = HazardReport::new(Arc::clone(&cfg));
        for s in res.sinks {
            rep.merge(s);
        }
        for f in &res.faults {
            rep.push_fault(f);
        }
        outcome(&rep)
    };
    (run(false), run(true))
}

#[test]
fn fast_path_equals_reference_on_the_planted_bug_suite() {
    let manifest = std::fs::read_to_string(repo("calibration/bugs/manifest.tsv")).unwrap();
    let mut n = 0;
    let mut with_findings = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kernel, dyn_smem, len) = (f[0], f[3].parse().unwrap(), f[4].parse::<usize>().unwrap());
        let src = std::fs::read_to_string(repo(&format!("calibration/bugs/ptx/{kernel}.ptx"))).unwrap();
        let program = warpscope_ptx::compile(&src).unwrap();
        let input: Vec<u8> = (0..len).flat_map(|i| ((i % 17) as f32).to_le_bytes()).collect();
        let mut launch = Launch::new(
            triple(f[1]),
            triple(f[2]),
            vec![
                Arg::Buffer(vec![0; 4 * len]),
                Arg::Buffer(input),
                Arg::I32(len as i32),
            ],
        );
        launch.dyn_smem = dyn_smem;
        let (fast, reference) = both(&program, kernel, &launch);
        assert_eq!(fast, reference, "{kernel}");
        n += 1;
        with_findings += usize::from(!reference.findings.is_empty());
    }
    assert!(
        n >= 23 && with_findings >= 16,
        "{n} kernels, {with_findings} with findings"
    );
}

#[test]
fn fast_path_equals_reference_on_the_calibration_suites() {
    let manifest = std::fs::read_to_string(repo("calibration/kernels/manifest.tsv")).unwrap();
    let mut n = 0;
    for line in manifest.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (suite, name, kernel) = (f[0], f[1], f[3]);
        let src = std::fs::read_to_string(repo(&format!("crates/cli/fixtures/{suite}/{name}.ptx"))).unwrap();
        let program = warpscope_ptx::compile(&src).unwrap();
        let mut launch = Launch::new(triple(f[4]), triple(f[5]), parse_args(f[7]).unwrap());
        launch.dyn_smem = f[6].parse().unwrap();
        let (fast, reference) = both(&program, kernel, &launch);
        assert_eq!(fast, reference, "{name}");
        n += 1;
    }
    assert!(n >= 34, "{n} kernels");
}

#[test]
fn fast_path_equals_reference_on_the_tiled_matmul() {
    let src = std::fs::read_to_string(repo("crates/emu/tests/data/kernels.ptx")).unwrap();
    let program = warpscope_ptx::compile(&src).unwrap();
    let n = 64usize;
    let a: Vec<u8> = (0..n * n).flat_map(|i| ((i % 7) as f32).to_le_bytes()).collect();
    let g = (n / 16) as u32;
    let launch = Launch::new(
        [g, g, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(a.clone()),
            Arg::Buffer(a),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
        ],
    );
    let (fast, reference) = both(&program, "matmul", &launch);
    assert_eq!(fast, reference);
    // Both barriers order the tiles: the first the reads after the stores, the second the next
    // tile's stores after the reads.
    assert_eq!(reference.needed.len(), 2, "{reference:#?}");
}

/// Random event sequences on 3 warps x 4 lanes over a 24-byte window of two variables (so
/// accesses also straddle them and leave the window): mixed widths (1, 2, 4, 8, 16) at aligned
/// and unaligned addresses, reads, writes (some with their bytes known: same-value writes) and
/// atomics, barriers, `__syncwarp()`, warps exiting.
#[test]
fn fast_path_equals_reference_on_random_event_sequences() {
    let cfg = Arc::new(HazardConfig {
        block_dim: [96, 1, 1],
        shared_size: 22,
        regions: vec![
            SharedRegion {
                name: "a".into(),
                offset: 0,
                size: 16,
            },
            SharedRegion {
                name: "b".into(),
                offset: 16,
                size: 6,
            },
        ],
        cluster_peers: false,
    });
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut kinds_seen = std::collections::BTreeSet::new();
    for case in 0..4000 {
        let mut fast = HazardSink::new(Arc::clone(&cfg), 0);
        let mut reference = HazardSink::reference(Arc::clone(&cfg), 0);
        let mut trace = Vec::new();
        for _ in 0..(2 + next(24)) {
            match next(12) {
                0 => {
                    let pc = 90 + next(2) as u32;
                    for w in 0..3 {
                        fast.barrier(w, pc, u32::MAX, true);
                        reference.barrier(w, pc, u32::MAX, true);
                    }
                    fast.barrier_release(pc);
                    reference.barrier_release(pc);
                    trace.push(format!("bar {pc}"));
                }
                1 => {
                    let w = next(3) as u32;
                    fast.barrier(w, 80, u32::MAX, false);
                    reference.barrier(w, 80, u32::MAX, false);
                    trace.push(format!("syncwarp {w}"));
                }
                _ => {
                    let w = next(3) as u32;
                    let mask = 1 + next(15) as u32;
                    let kind = [AccessKind::Read, AccessKind::Write, AccessKind::Atomic][next(3) as usize];
                    let width = [1u8, 2, 4, 4, 4, 8, 16][next(7) as usize];
                    let pc = next(6) as u32;
                    let addrs: [u64; 32] = std::array::from_fn(|_| {
                        if next(4) == 0 {
                            next(24)
                        } else {
                            next(24) & !u64::from(width.min(4) - 1)
                        }
                    });
                    if kind == AccessKind::Write && next(2) == 0 {
                        // a store whose bytes are known, from two values so that some lanes
                        // rewrite what is there (same-value writes) and some do not
                        let bytes: StoreBytes = std::array::from_fn(|_| [next(2) as u8; 16]);
                        fast.shared_store(w, pc, width, mask, &addrs, &bytes);
                        reference.shared_store(w, pc, width, mask, &addrs, &bytes);
                        trace.push(format!(
                            "w{w} pc{pc} store x{width} m{mask:b} {:?} {:?}",
                            &addrs[..4],
                            bytes[..4].iter().map(|b| b[0]).collect::<Vec<_>>()
                        ));
                    } else {
                        fast.shared_access(w, pc, kind, width, mask, &addrs);
                        reference.shared_access(w, pc, kind, width, mask, &addrs);
                        trace.push(format!(
                            "w{w} pc{pc} {kind:?} x{width} m{mask:b} {:?}",
                            &addrs[..4]
                        ));
                    }
                }
            }
        }
        let (a, b) = (report(fast, &cfg), report(reference, &cfg));
        assert_eq!(a, b, "case {case}: {trace:#?}");
        for f in &b.findings {
            kinds_seen.insert(f.kind);
        }
    }
    assert_eq!(kinds_seen.len(), 5, "the sequences reach {kinds_seen:?}");
}

fn report(sink: HazardSink, cfg: &Arc<HazardConfig>) -> Outcome {
    let mut rep = HazardReport::new(Arc::clone(cfg));
    rep.merge(sink);
    outcome(&rep)
}
