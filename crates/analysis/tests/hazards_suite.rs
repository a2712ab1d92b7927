//! The planted-bug suite (calibration/bugs): every kernel's checked-in PTX is emulated with its launch
//! from manifest.tsv; every planted bug must be found, and the correct kernels must give no finding.

use std::path::PathBuf;
use std::sync::Arc;

use warpscope_analysis::hazards::{Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc};
use warpscope_emu::{Arg, Launch, Limits};

fn bugs(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bugs")
        .join(rel)
}

fn triple(s: &str) -> [u32; 3] {
    let v: Vec<u32> = s.split(',').map(|x| x.parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

struct Case {
    kernel: String,
    expected: String,
    findings: Vec<Finding>,
}

fn run_suite() -> Vec<Case> {
    let manifest = std::fs::read_to_string(bugs("manifest.tsv")).unwrap();
    let mut cases = Vec::new();
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kernel, grid, block, dyn_smem, n) = (
            f[0],
            triple(f[1]),
            triple(f[2]),
            f[3].parse::<u32>().unwrap(),
            f[4].parse::<usize>().unwrap(),
        );
        let src = std::fs::read_to_string(bugs(&format!("ptx/{kernel}.ptx"))).unwrap();
        let program = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
        let k = program.kernel(kernel).unwrap();
        let cfg = Arc::new(HazardConfig::for_kernel(k, block, dyn_smem));
        let input: Vec<u8> = (0..n).flat_map(|i| ((i % 17) as f32).to_le_bytes()).collect();
        let mut launch = Launch::new(
            grid,
            block,
            vec![
                Arg::Buffer(vec![0; 4 * n]),
                Arg::Buffer(input),
                Arg::I32(n as i32),
            ],
        );
        launch.dyn_smem = dyn_smem;
        let res = warpscope_emu::run(&program, kernel, &launch, &Limits::default(), |b| {
            HazardSink::new(Arc::clone(&cfg), b)
        })
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        let mut rep = HazardReport::new(Arc::clone(&cfg));
        for s in res.sinks {
            rep.merge(s);
        }
        for fault in &res.faults {
            assert!(rep.push_fault(fault), "{kernel}: unexpected fault {fault}");
        }
        let loc = |pc: u32| {
            let line = program.inst_info(pc).loc.map(|l| l.line);
            Loc {
                line,
                label: line.map_or(format!("pc {pc}"), |l| format!("line {l}")),
            }
        };
        cases.push(Case {
            kernel: kernel.into(),
            expected: f[5].into(),
            findings: rep.findings(&loc),
        });
    }
    cases
}

fn kind(name: &str) -> FindingKind {
    match name {
        "race" => FindingKind::Race,
        "divergent_barrier" => FindingKind::DivergentBarrier,
        "uninitialized_read" => FindingKind::UninitializedRead,
        "out_of_bounds" => FindingKind::OutOfBounds,
        "redundant_barrier" => FindingKind::RedundantBarrier,
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn every_planted_bug_is_found_and_the_controls_are_clean() {
    let cases = run_suite();
    assert!(cases.len() >= 23, "suite has {} kernels", cases.len());
    let mut kinds_covered = std::collections::BTreeSet::new();
    for c in &cases {
        let summary: Vec<String> = c
            .findings
            .iter()
            .map(|f| format!("{:?} {}", f.kind, f.message))
            .collect();
        if c.expected == "none" {
            assert!(
                c.findings.is_empty(),
                "{}: control has findings: {summary:#?}",
                c.kernel
            );
        } else {
            let want = kind(&c.expected);
            assert!(
                c.findings.iter().any(|f| f.kind == want),
                "{}: no {want:?}: {summary:#?}",
                c.kernel
            );
            kinds_covered.insert(want);
        }
    }
    assert_eq!(kinds_covered.len(), 5, "every kind is planted: {kinds_covered:?}");
}

#[test]
fn seed_004_trailing_barrier_is_redundant_and_the_first_is_not() {
    let cases = run_suite();
    let c = cases
        .iter()
        .find(|c| c.kernel == "adjdiff_trailing_sync")
        .unwrap();
    let redundant: Vec<Option<u32>> = c
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::RedundantBarrier)
        .map(|f| f.line)
        .collect();
    // adjdiff_trailing_sync.cu: line 11 is the first __syncthreads(), line 19 the trailing one.
    assert_eq!(redundant, vec![Some(19)], "{:#?}", c.findings);
    assert_eq!(c.findings.len(), 1, "{:#?}", c.findings);
    let ok = cases.iter().find(|c| c.kernel == "ok_adjdiff").unwrap();
    assert!(ok.findings.is_empty());
}

#[test]
fn the_warp_synchronous_reduction_is_reported_as_an_intra_warp_race() {
    let cases = run_suite();
    let c = cases
        .iter()
        .find(|c| c.kernel == "race_warp_sync_reduce")
        .unwrap();
    assert!(
        c.findings
            .iter()
            .any(|f| f.kind == FindingKind::Race && f.message.contains("__syncwarp"))
    );
}
