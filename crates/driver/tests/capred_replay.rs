//! The launches of calibration/capred/pca.cu (its PTX and cubin from nvcc 13 for sm_90, checked in
//! beside it), each emulated as the H200 ran it, against the per-instruction shared wavefronts
//! Nsight Compute's source page gave (calibration/capred/measured.tsv): `cp.async.ca` copies of 4,
//! 8 and 16 bytes whose src-size is a `selp` of the size and 0 or that have an `ignore-src`
//! predicate, `cp.async.cg` copies with `ignore-src` (ptxas: `LDGSTS... [d], [s], P` with the
//! predicate in P0-P6, plain or negated), and each launch's plain copy; one and four warps, lanes
//! branching around the copies. The emulator's `cp.async` events, the machine code's predicate
//! operands (the `.cg` copies) and the model give every count.

use std::path::Path;

use warpscope_analysis::banks::MatrixKind;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch_in};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, Launch};

/// pca<W, K, NEG>'s symbol.
fn symbol(w: u32, k: u32, neg: usize) -> String {
    format!("_Z3pcaILi{w}ELi{k}ELi{neg}EEvPiPKcPKi")
}

/// Per launch, per copy (code order): the measured wavefronts.
fn measured(dir: &Path) -> Vec<Vec<u64>> {
    let text = std::fs::read_to_string(dir.join("measured.tsv")).unwrap();
    let mut out: Vec<Vec<u64>> = Vec::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        let launch: usize = f[0].parse().unwrap();
        let copy: usize = f[2].parse().unwrap();
        if out.len() == launch {
            out.push(Vec::new());
        }
        assert_eq!(out[launch].len(), copy, "measured.tsv: copies in order");
        out[launch].push(f[8].parse().unwrap());
    }
    out
}

/// The LDGSTS counters of one launch: (pc, wavefronts, instructions, unmodelled), by pc.
fn run(
    program: &warpscope_ptx::Program,
    kernel: &str,
    widths: &Widths,
    warps: u32,
    tab: &[i64],
) -> Vec<(u32, u64, u64, u64)> {
    let arch = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let (out, input, table) = (0x10_0000u64, 0x20_0000u64, 0x40_0000u64);
    let tab_bytes: Vec<u8> = tab.iter().flat_map(|&v| (v as i32).to_le_bytes()).collect();
    let global = Global::new(vec![
        (out, vec![0; 512]),
        (input, vec![1; 1 << 20]),
        (table, tab_bytes),
    ]);
    let launch = Launch::new(
        [1, 1, 1],
        [32 * warps, 1, 1],
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
        &RunOptions::default(),
    )
    .unwrap();
    let mut v: Vec<(u32, u64, u64, u64)> = r
        .banks
        .as_ref()
        .unwrap()
        .report
        .matrix
        .values()
        .filter(|s| s.kind == MatrixKind::Ldgsts)
        .map(|s| (s.pc, s.counts.wavefronts, s.counts.instructions, s.unmodelled))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn every_predicated_copy_counts_as_the_h200_measured() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/capred");
    let ptx = std::fs::read_to_string(dir.join("pca.ptx")).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap();
    let root = warpscope_toolchain::locate::find_root().unwrap();
    let sass = warpscope_toolchain::sass::disassemble(&root.bin("nvdisasm"), &dir.join("pca.cubin")).unwrap();
    let layouts: Vec<(String, Vec<i64>)> = std::fs::read_to_string(dir.join("layouts.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut f = l.split_whitespace();
            let name = f.next().unwrap().to_string();
            (name, f.map(|x| x.parse().unwrap()).collect())
        })
        .collect();
    let rows = measured(&dir);
    assert_eq!(rows.len(), 212);
    let mut widths = std::collections::HashMap::new();
    let mut bad = Vec::new();
    for (launch, want) in rows.iter().enumerate() {
        let (name, v) = &layouts[launch / 2];
        let (w, k, warps) = (v[0] as u32, v[1] as u32, v[2] as u32);
        let sym = symbol(w, k, launch % 2);
        let wd = widths
            .entry(sym.clone())
            .or_insert_with(|| Widths::from_sass(&program, &sym, &sass, "pca.cubin").unwrap());
        // the `.cg` kernels' copies need the machine code's predicate operands
        if k == 1 {
            assert_eq!(
                wd.recon.copy_predicates.len(),
                7,
                "{sym}: one predicate per ignore-src copy"
            );
        }
        let got = run(&program, &sym, wd, warps, &v[3..]);
        assert_eq!(got.len(), 8, "{sym}");
        let counts: Vec<u64> = got.iter().map(|g| g.1).collect();
        let executed = v[3 + 96..].iter().any(|&e| e != 0);
        if got
            .iter()
            .any(|g| g.3 != 0 || g.2 != u64::from(warps) * u64::from(executed))
            || &counts != want
        {
            bad.push(format!("launch {launch} {name}: {got:?}, the H200 {want:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of 212 launches differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // PTX-level widths (no machine code): the .ca copies need no predicate operand and count as
    // with it; the .cg ignore-src copies are outside the rules
    let ptx_level = Widths::ptx_level("PTX-level");
    let first = |prefix: &str| layouts.iter().position(|(n, _)| n.starts_with(prefix)).unwrap();
    let ca = first("ca4_kmajor");
    let got = run(&program, &symbol(4, 0, 0), &ptx_level, 1, &layouts[ca].1[3..]);
    let counts: Vec<u64> = got.iter().map(|g| g.1).collect();
    assert_eq!(counts, rows[2 * ca], "PTX-level .ca copies");
    assert!(got.iter().all(|g| g.3 == 0));
    let cg = first("cg16_contig");
    let got = run(&program, &symbol(16, 1, 0), &ptx_level, 1, &layouts[cg].1[3..]);
    assert!(got[..7].iter().all(|g| g.1 == 0 && g.3 == 1), "{got:?}");
    assert_eq!((got[7].1, got[7].3), (rows[2 * cg][7], 0), "the plain copy");
}
