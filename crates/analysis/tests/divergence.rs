//! Divergence counters: synthetic events, and seed 002's kernels (PTX built with -G, checked in under
//! calibration/bugs/divergence/) emulated and compared with Nsight Compute on an H100.

use std::path::PathBuf;
use std::sync::Arc;

use warpscope_analysis::divergence::{BranchModel, DivergenceReport, DivergenceSink, is_debug_ptx};
use warpscope_emu::{Arg, Launch, Limits};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bugs")
        .join(rel)
}

#[test]
fn synthetic_branches_count_once_per_execution() {
    let model = Arc::new(BranchModel {
        unconditional: vec![false, true, false],
        int_div_rem: vec![],
    });
    let mut s = DivergenceSink::new(Arc::clone(&model));
    s.inst(0, u32::MAX);
    s.branch(0, u32::MAX, 0x5555_5555); // divergent
    s.inst(1, 0xAAAA_AAAA); // unconditional, half the lanes
    s.inst(1, 0x5555_5555);
    s.branch(0, 0xFFFF, 0xFFFF); // uniform (all taken)
    s.branch(0, 0xFFFF, 0); // uniform (none taken)
    s.inst(2, 0xF);
    let mut r = DivergenceReport::new();
    r.merge(&s);
    let t = &r.totals;
    assert_eq!(
        (t.branch_executions, t.targets, t.divergent, t.uniform_targets),
        (5, 5, 1, 4)
    );
    assert_eq!(t.branch_efficiency_pct, 80.0);
    assert_eq!(t.inst_executions, 4);
    assert_eq!(t.active_lanes, 32 + 16 + 16 + 4);
    assert_eq!(t.debug_machine_estimate, None);
    assert_eq!(r.branches.len(), 2);
    assert_eq!((r.branches[0].executions, r.branches[0].divergent), (3, 1));
    let lines = r.by_line(&|pc| Some(10 + pc / 2));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].line, Some(10));
    assert_eq!(lines[0].branch_efficiency_pct, Some(80.0));
    assert_eq!(lines[1].line, Some(11));
    assert_eq!(lines[1].branch_efficiency_pct, None);
    assert_eq!(lines[1].utilisation_pct, 12.5);
}

fn compile(file: &str, src: &str) -> warpscope_emu::Program {
    warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{file}: {e:?}"))
}

/// PTX-level figures (worked out by hand from the -G PTX, docs/divergence.md) per kernel.
const PTX_LEVEL: &[(&str, u64, u64)] = &[
    ("_Z11mathKernel1Pf", 512, 128),
    ("_Z11mathKernel2Pf", 320, 0),
    ("_Z14straightKernelPf", 0, 0),
    ("_Z15parityAndKernelPf", 512, 128),
    ("_Z12ifOnlyKernelPf", 384, 128),
    ("_Z10loopKernelPf", 1792, 384),
];

#[test]
fn seed_002_kernels_built_with_g_match_nsight_compute_on_h100() {
    let table = std::fs::read_to_string(data("divergence/ncu_h100.tsv")).unwrap();
    let mut checked = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kernel, targets, divergent): (&str, u64, u64) =
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
        let file = if kernel.contains("mathKernel") {
            "simpleDivergence_G.ptx"
        } else {
            "shapes_G.ptx"
        };
        let src = std::fs::read_to_string(data(&format!("divergence/{file}"))).unwrap();
        assert!(is_debug_ptx(&src), "{file} is a -G build");
        let program = compile(file, &src);
        let model = Arc::new(BranchModel::from_program(&program, true));
        let launch = Launch::new([64, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 64 * 64 * 4])]);
        let res = warpscope_emu::run(&program, kernel, &launch, &Limits::default(), |_| {
            DivergenceSink::new(Arc::clone(&model))
        })
        .unwrap();
        assert!(res.faults.is_empty(), "{kernel}: {:?}", res.faults);
        let mut rep = DivergenceReport::new();
        for s in &res.sinks {
            rep.merge(s);
        }
        let est = rep.totals.debug_machine_estimate.clone().unwrap();
        assert_eq!(
            (est.targets, est.divergent),
            (targets, divergent),
            "{kernel}: -G machine estimate vs ncu"
        );
        let &(_, pt, pd) = PTX_LEVEL.iter().find(|p| p.0 == kernel).unwrap();
        assert_eq!(
            (rep.totals.targets, rep.totals.divergent),
            (pt, pd),
            "{kernel}: PTX level"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn debug_flag_is_read_from_the_target_line() {
    assert!(is_debug_ptx(".version 9.5\n.target sm_90, debug\n"));
    assert!(!is_debug_ptx(".version 9.5\n.target sm_90\n// debug\n"));
}
