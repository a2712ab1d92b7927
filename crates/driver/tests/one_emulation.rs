//! A request runs the emulator exactly once, whatever the sections it asks for (the driver counts
//! its emulations; this file holds one test so that no other test runs beside it in this process),
//! and so does a launch against a caller-owned persistent global space (`analyze_launch_in`, the
//! path of `warpscope run`'s runtime), with the same counts as the file-based path.

use std::path::PathBuf;

use warpscope_analysis::banks::Side;
use warpscope_driver::{
    Request, RunOptions, Sections, Widths, WidthsFrom, analyze, analyze_launch_in, run::emulations,
};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, Launch};
use warpscope_model::arch::Arch;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

#[test]
fn a_request_emulates_once_whatever_the_sections() {
    let arch = Arch::parse("sm_90").unwrap();
    let mut req = Request::new(
        repo("crates/cli/fixtures/classic/matmulTiled.ptx"),
        [4, 4, 1],
        [16, 16, 1],
        arch,
    );
    req.args = vec!["buf:16384".into(), "buf:16384".into(), "buf:16384".into()];
    req.widths = WidthsFrom::Sass {
        text: std::fs::read_to_string(repo("crates/cli/fixtures/classic/matmulTiled.sass")).unwrap(),
        from: "matmulTiled.sass".into(),
    };
    for sections in ["banks", "hazards", "fix", "banks,divergence,hazards,fix", "all"] {
        req.sections = Sections::parse(sections).unwrap();
        let before = emulations();
        let a = analyze(&req).unwrap();
        assert_eq!(emulations() - before, 1, "{sections}");
        assert_eq!(a.results.banks.is_some(), req.sections.banks, "{sections}");
        assert_eq!(
            a.results.divergence.is_some(),
            req.sections.divergence,
            "{sections}"
        );
        assert_eq!(a.results.hazards.is_some(), req.sections.hazards, "{sections}");
        assert_eq!(a.results.fix.is_some(), req.sections.fix, "{sections}");
    }
    // The same launch against a persistent global space (buffers at addresses the caller chose, the
    // same bytes as `buf:16384`): one emulation, every section, the same counts, and the product
    // left in the caller's memory.
    req.sections = Sections::ALL;
    let a = analyze(&req).unwrap();
    let program = &a.module.program;
    let bases = [0x10_0000u64, 0x20_0000, 0x30_0000];
    let inputs: Vec<Vec<u8>> = (0..3)
        .map(|i| warpscope_analysis::launchspec::random_bytes(16384, i))
        .collect();
    let global = Global::new(bases.iter().copied().zip(inputs.iter().cloned()).collect());
    let launch = Launch::new(
        [4, 4, 1],
        [16, 16, 1],
        bases.iter().map(|&b| Arg::U64(b)).collect(),
    );
    let widths = Widths {
        recon: a.results.widths.recon.clone(),
        note: String::new(),
        sass: None,
    };
    let opts = RunOptions {
        global_sectors: true,
        ..RunOptions::default()
    };
    let before = emulations();
    let r = analyze_launch_in(
        program,
        &a.results.kernel,
        &launch,
        &global,
        &Sections::ALL,
        arch,
        &widths,
        &opts,
    )
    .unwrap();
    assert_eq!(emulations() - before, 1);
    for side in [Side::Load, Side::Store] {
        assert_eq!(
            r.banks.as_ref().unwrap().report.total(side),
            a.results.banks.as_ref().unwrap().report.total(side),
            "{side:?}"
        );
    }
    assert_eq!(r.divergence, a.results.divergence);
    assert_eq!(
        r.hazards.as_ref().unwrap().findings.len(),
        a.results.hazards.as_ref().unwrap().findings.len()
    );
    assert!(r.fix.is_some());
    assert_eq!(r.warp_insts, a.results.warp_insts);
    // 64x64 matrices, 16x16 tiles: each thread loads 4 tiles of A and B (16 B of a 64 B row per
    // half-warp) and stores one element of C.
    let g = r.global.unwrap();
    assert_eq!(g.st_requests, 4 * 4 * 8);
    assert_eq!(g.ld_requests, 4 * 4 * 8 * 4 * 2);
    let mut out = vec![0u8; 16384];
    global.read_range(bases[0], &mut out).unwrap();
    assert!(
        out != inputs[0],
        "the launch wrote C (the first parameter) into the caller's memory"
    );
    global.read_range(bases[1], &mut out).unwrap();
    assert!(out == inputs[1], "A is only read");
    // A buffer argument has no place in a persistent space: the emulator's error comes back.
    let bad = Launch::new([1, 1, 1], [16, 16, 1], vec![Arg::Buffer(vec![0; 4]); 3]);
    assert!(
        analyze_launch_in(
            program,
            &a.results.kernel,
            &bad,
            &global,
            &Sections::ALL,
            arch,
            &widths,
            &opts
        )
        .is_err()
    );

    // The occupancy alone needs no emulation.
    req.sections = Sections::parse("occupancy").unwrap();
    let before = emulations();
    let a = analyze(&req).unwrap();
    assert_eq!(emulations(), before);
    assert_eq!(a.results.blocks_emulated, 0);
}
