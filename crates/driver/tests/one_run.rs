//! One emulation serves every section: a run with every section attached gives, section by section,
//! exactly what a run with that section alone gives (bank counters, divergence counters, hazard
//! findings, the fix advisor's trace and advice), on kernels of the classic, seed and planted-bug
//! suites. And the file-based layer (`analyze`) equals `analyze_launch` on the same launch.

use std::path::PathBuf;

use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::{Arg, Launch};
use warpscope_model::arch::Arch;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

struct Case {
    ptx: &'static str,
    sass: Option<&'static str>,
    kernel: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    args: Vec<Arg>,
}

fn cases() -> Vec<Case> {
    let buf = |n: usize| Arg::Buffer((0..n).map(|i| (i * 7) as u8).collect());
    vec![
        Case {
            ptx: "crates/cli/fixtures/classic/matmulTiled.ptx",
            sass: Some("crates/cli/fixtures/classic/matmulTiled.sass"),
            kernel: "matmulTiled",
            grid: [4, 4, 1],
            block: [16, 16, 1],
            args: vec![buf(16384), buf(16384), buf(16384)],
        },
        Case {
            ptx: "crates/cli/fixtures/seeds/rectRowCol.ptx",
            sass: Some("crates/cli/fixtures/seeds/rectRowCol.sass"),
            kernel: "rectRowCol",
            grid: [1, 1, 1],
            block: [32, 16, 1],
            args: vec![buf(2048)],
        },
        Case {
            ptx: "calibration/bugs/ptx/race_raw_nosync.ptx",
            sass: None,
            kernel: "race_raw_nosync",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            args: vec![buf(512), buf(512), Arg::I32(128)],
        },
        Case {
            ptx: "calibration/bugs/ptx/divergent_barrier_odd.ptx",
            sass: None,
            kernel: "divergent_barrier_odd",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            args: vec![buf(512), buf(512), Arg::I32(128)],
        },
    ]
}

#[test]
fn every_section_at_once_equals_each_section_alone() {
    let arch = Arch::parse("sm_90").unwrap();
    for c in cases() {
        let text = std::fs::read_to_string(repo(c.ptx)).unwrap();
        let program = warpscope_ptx::compile(&text).unwrap();
        let widths = match c.sass {
            Some(s) => {
                let sass = std::fs::read_to_string(repo(s)).unwrap();
                Widths::from_sass(&program, c.kernel, &sass, s).unwrap()
            }
            None => Widths::ptx_level("PTX-level"),
        };
        let launch = Launch::new(c.grid, c.block, c.args.clone());
        let opts = RunOptions::default();
        let run =
            |s: Sections| analyze_launch(&program, c.kernel, &launch, &s, arch, &widths, &opts).unwrap();
        let all = run(Sections::ALL);
        let only = |f: fn(&mut Sections)| {
            let mut s = Sections::NONE;
            f(&mut s);
            run(s)
        };
        let banks = only(|s| s.banks = true);
        let div = only(|s| s.divergence = true);
        let haz = only(|s| s.hazards = true);
        let fix = only(|s| s.fix = true);
        assert_eq!(
            all.banks.as_ref().unwrap().report,
            banks.banks.as_ref().unwrap().report,
            "{}",
            c.kernel
        );
        if c.sass.is_some() {
            let loads = all
                .banks
                .as_ref()
                .unwrap()
                .report
                .total(warpscope_analysis::banks::Side::Load);
            assert!(loads.instructions > 0, "{}", c.kernel);
        }
        assert_eq!(all.divergence, div.divergence, "{}", c.kernel);
        let (h1, h2) = (all.hazards.as_ref().unwrap(), haz.hazards.as_ref().unwrap());
        assert_eq!(h1.findings, h2.findings, "{}", c.kernel);
        assert_eq!(h1.groups, h2.groups, "{}", c.kernel);
        let (f1, f2) = (all.fix.as_ref().unwrap(), fix.fix.as_ref().unwrap());
        assert_eq!(f1.trace.accesses, f2.trace.accesses, "{}", c.kernel);
        assert_eq!(f1.advice, f2.advice, "{}", c.kernel);
        assert_eq!(
            all.warp_insts, banks.warp_insts,
            "{}: one run executes what one section's run does",
            c.kernel
        );
        assert!(banks.hazards.is_none() && banks.divergence.is_none() && banks.fix.is_none());
    }
}

#[test]
fn the_planted_races_are_found_through_every_section() {
    let arch = Arch::parse("sm_90").unwrap();
    let text = std::fs::read_to_string(repo("calibration/bugs/ptx/race_raw_nosync.ptx")).unwrap();
    let program = warpscope_ptx::compile(&text).unwrap();
    let launch = Launch::new(
        [2, 1, 1],
        [64, 1, 1],
        vec![
            Arg::Buffer(vec![0; 512]),
            Arg::Buffer(vec![1; 512]),
            Arg::I32(128),
        ],
    );
    let r = analyze_launch(
        &program,
        "race_raw_nosync",
        &launch,
        &Sections::ALL,
        arch,
        &Widths::ptx_level("PTX-level"),
        &RunOptions::default(),
    )
    .unwrap();
    let h = r.hazards.unwrap();
    let races = h
        .findings
        .iter()
        .filter(|f| f.kind == warpscope_analysis::hazards::FindingKind::Race)
        .count();
    assert_eq!(races, 3, "{:#?}", h.findings);
    assert_eq!(
        h.groups.len(),
        4,
        "three races (two lines orders, one within a warp) and a read"
    );
}
