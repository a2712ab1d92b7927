//! The launches of calibration/srcpred/pz.cu (its PTX and cubin from nvcc 13 for sm_90, checked in
//! beside it), each emulated as the H200 ran it, against the per-instruction shared wavefronts
//! Nsight Compute's source page gave (calibration/srcpred/measured.tsv): eight `cp.async.cg` copies
//! per launch whose src-size is a `selp` of 16 and 0, which ptxas makes
//! `LDGSTS.E.BYPASS.128 [d], [s], P` with the predicate in P0-P6. The emulator's `cp.async` events,
//! the machine code's predicate operands (read off the cubin in code order) and the model give
//! every count; without the machine code the same copies are outside the rules. The launches'
//! global load requests and sectors (the raw page) are replayed too.

use std::path::Path;

use warpscope_analysis::banks::MatrixKind;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch_in};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, Launch};

const KERNELS: [&str; 2] = ["_Z2pzILi0EEvPiPKcPKi", "_Z2pzILi1EEvPiPKcPKi"];

/// Per launch: its layout line and, per copy (code order), the measured wavefronts.
fn measured(dir: &Path) -> Vec<(usize, Vec<u64>)> {
    let text = std::fs::read_to_string(dir.join("measured.tsv")).unwrap();
    let mut out: Vec<(usize, Vec<u64>)> = Vec::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        let launch: usize = f[0].parse().unwrap();
        let copy: usize = f[2].parse().unwrap();
        if out.len() == launch {
            out.push((launch, Vec::new()));
        }
        assert_eq!(out[launch].1.len(), copy, "measured.tsv: copies in order");
        out[launch].1.push(f[6].parse().unwrap());
    }
    out
}

/// Per launch: the raw page's global load requests and sectors (calibration/srcpred/
/// measured_global.tsv: the three table loads and the eight copies' sources).
fn measured_global(dir: &Path) -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(dir.join("measured_global.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<u64> = l.split('\t').map(|x| x.parse().unwrap()).collect();
            (f[1], f[2])
        })
        .collect()
}

/// The LDGSTS counters (pc, wavefronts, unmodelled) of one launch, and its global load requests,
/// sectors and unsure copies.
type Counted = (Vec<(u32, u64, u64)>, (u64, u64, u64));

fn run(program: &warpscope_ptx::Program, kernel: &str, widths: &Widths, tab: &[i32]) -> Counted {
    let arch = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let (out, input, table) = (0x10_0000u64, 0x20_0000u64, 0x40_0000u64);
    let tab_bytes: Vec<u8> = tab.iter().flat_map(|v| v.to_le_bytes()).collect();
    let global = Global::new(vec![
        (out, vec![0; 128]),
        (input, vec![1; 1 << 20]),
        (table, tab_bytes),
    ]);
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::U64(out), Arg::U64(input + 4096), Arg::U64(table)],
    );
    let sections = Sections {
        banks: true,
        ..Sections::NONE
    };
    let r = analyze_launch_in(
        program,
        kernel,
        &launch,
        &global,
        &sections,
        arch,
        widths,
        &RunOptions {
            global_sectors: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    let g = r.global.as_ref().unwrap();
    let global = (g.ld_requests, g.ld_sectors, g.copies_unsure);
    let mut v: Vec<(u32, u64, u64)> = r
        .banks
        .as_ref()
        .unwrap()
        .report
        .matrix
        .values()
        .filter(|s| s.kind == MatrixKind::Ldgsts)
        .map(|s| (s.pc, s.counts.wavefronts, s.unmodelled))
        .collect();
    v.sort_unstable();
    (v, global)
}

#[test]
fn every_source_predicate_copy_counts_as_the_h200_measured() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/srcpred");
    let ptx = std::fs::read_to_string(dir.join("pz.ptx")).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap();
    let root = warpscope_toolchain::locate::find_root().unwrap();
    let sass = warpscope_toolchain::sass::disassemble(&root.bin("nvdisasm"), &dir.join("pz.cubin")).unwrap();
    let widths: Vec<Widths> = KERNELS
        .iter()
        .map(|k| Widths::from_sass(&program, k, &sass, "pz.cubin").unwrap())
        .collect();
    for w in &widths {
        assert_eq!(w.recon.copy_predicates.len(), 8, "one predicate per copy");
    }
    let layouts: Vec<Vec<i32>> = std::fs::read_to_string(dir.join("layouts.txt"))
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect())
        .collect();
    let mut bad = Vec::new();
    let rows = measured(&dir);
    assert_eq!(rows.len(), 312);
    let global = measured_global(&dir);
    assert_eq!(global.len(), 312);
    for (launch, want) in &rows {
        let k = launch % 2;
        let (got, g) = run(&program, KERNELS[k], &widths[k], &layouts[launch / 2]);
        let counts: Vec<u64> = got.iter().map(|g| g.1).collect();
        if got.iter().any(|g| g.2 != 0) || &counts != want {
            bad.push(format!("launch {launch}: {counts:?}, the H200 {want:?}"));
        }
        // global load requests and sectors (global::bypass_copy_sectors), claimed (none unsure)
        if (g.0, g.1, g.2) != (global[*launch].0, global[*launch].1, 0) {
            bad.push(format!(
                "launch {launch}: global (requests, sectors, unsure) {g:?}, the H200 {:?}",
                global[*launch]
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of 312 launches differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // PTX-level widths (no machine code): no predicate operand, so every copy is outside the rules
    let (got, _) = run(&program, KERNELS[0], &Widths::ptx_level("PTX-level"), &layouts[0]);
    assert_eq!(got.len(), 8);
    assert!(got.iter().all(|g| g.1 == 0 && g.2 == 1), "{got:?}");
}
