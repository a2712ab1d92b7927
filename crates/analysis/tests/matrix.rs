//! LDSM / STSM / LDGSTS through the bank analysis: a tile kernel (tests/data/matrix_tiles.cu, PTX from
//! nvcc 13 for sm_90) in three shared layouts, emulated; the first instruction of each kind makes
//! exactly the request of one row of calibration/ldsm/measured.tsv (checked lane by lane), and its
//! count must be that row's H100 measurement. The launch totals follow ncu's split: LDSM / STSM
//! wavefronts inside `shared.load` / `shared.store`, their instructions not; LDGSTS in neither.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use warpscope_analysis::banks::{self, MatrixKind, MatrixStats, Side};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Launch, Limits};

/// The H100 row of calibration/ldsm/measured.tsv: (shared addresses, global sources, wavefronts).
fn measured(kind: &str, form: &str, desc: &str) -> (Vec<u64>, Vec<u64>, u64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/ldsm/measured.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut head: Option<Vec<&str>> = None;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let c: Vec<&str> = line.split('\t').collect();
        let Some(h) = &head else {
            head = Some(c);
            continue;
        };
        if c[1] != kind || c[2] != form || c[3] != desc {
            continue;
        }
        let v: HashMap<&str, &str> = h.iter().copied().zip(c.iter().copied()).collect();
        let col = match kind {
            "ldsm" => "ld_wavefronts",
            "stsm" => "st_wavefronts",
            _ => "ldgsts_wavefronts",
        };
        let a = (0..32)
            .map(|l| v[format!("a{l}").as_str()].parse().unwrap())
            .collect();
        let g = (0..32)
            .map(|l| v[format!("g{l}").as_str()].parse().unwrap())
            .collect();
        return (a, g, v[col].parse().unwrap());
    }
    panic!("no row {kind} {form} {desc} in {}", path.display());
}

fn run(kernel: &str) -> banks::BankRun {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let ptx = std::fs::read_to_string(dir.join("matrix_tiles.ptx")).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap();
    let launch = Launch::new([1, 1, 1], [32, 1, 1], parse_args("buf:4096 buf:128").unwrap());
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    banks::run(
        &program,
        kernel,
        &launch,
        &Limits::default(),
        h100,
        Arc::new(Reconciliation::ptx_level()),
    )
    .unwrap()
}

fn first(run: &banks::BankRun, kind: MatrixKind) -> &MatrixStats {
    run.report
        .matrix
        .values()
        .find(|s| s.kind == kind)
        .expect("an instruction of the kind")
}

/// The first instruction of `kind` made the table row's request and costs what the H100 measured.
fn check_first(run: &banks::BankRun, kind: MatrixKind, row: (&str, &str, &str)) -> u64 {
    let (a, g, hw) = measured(row.0, row.1, row.2);
    let s = first(run, kind);
    assert_eq!(s.counts.instructions, 1, "{row:?}");
    let w = s.worst.as_ref().unwrap();
    assert_eq!(w.mask, u32::MAX);
    assert_eq!(w.addrs, a, "{row:?}: the emulated request is the table's");
    let _ = g; // the sources are checked through the rule's domain below
    assert_eq!(s.counts.wavefronts, hw, "{row:?}: H100 measurement");
    hw
}

#[test]
fn tile_kernels_count_as_the_h100() {
    for (kernel, ldsm_row, cp_row) in [
        ("tile128", "afrag_p128", Some("tile_p128_noswz_gp128")),
        ("tile144", "afrag_p144", Some("tile_p144_noswz_gp128")),
        (
            "tileSwizzled",
            "swz343_p128_afrag",
            Some("tile_p128_swz343_gp128"),
        ),
    ] {
        let r = run(kernel);
        assert!(r.faults.is_empty(), "{kernel}: {:?}", r.faults);
        let ld = check_first(&r, MatrixKind::Ldsm, ("ldsm", "x4", ldsm_row));
        let st = check_first(&r, MatrixKind::Stsm, ("stsm", "x4", ldsm_row));
        // four column blocks: the same rows 2k chunks further on, the same cost on every layout here
        let ldsm = r.report.matrix_total(MatrixKind::Ldsm);
        let stsm = r.report.matrix_total(MatrixKind::Stsm);
        assert_eq!((ldsm.instructions, ldsm.wavefronts), (4, 4 * ld), "{kernel}");
        assert_eq!((stsm.instructions, stsm.wavefronts), (4, 4 * st), "{kernel}");
        assert_eq!((ldsm.ideal_wavefronts, stsm.ideal_wavefronts), (16, 16));
        // ncu: LDSM/STSM wavefronts in op_ld/op_st, their instructions not in ..._op_shared_ld/_st
        let (load, store) = (r.report.total(Side::Load), r.report.total(Side::Store));
        assert_eq!((load.instructions, load.wavefronts), (0, ldsm.wavefronts));
        assert_eq!((store.instructions, store.wavefronts), (0, stsm.wavefronts));
        let cp = r.report.matrix_total(MatrixKind::Ldgsts);
        match cp_row {
            Some(row) => {
                let (a, g, hw) = measured("ldgsts", "cg16", row);
                let s = first(&r, MatrixKind::Ldgsts);
                let w = s.worst.as_ref().unwrap();
                assert_eq!(w.addrs, a, "{kernel}: destinations are the table's");
                assert_eq!(g, (0..32).map(|l| 16 * l).collect::<Vec<u64>>());
                assert_eq!(s.counts.wavefronts, hw, "{kernel}: H100 measurement");
                // 128-byte pitches: every instruction as the first. The 144-byte pitch shifts row r's
                // line by r chunks: rows 0-3 cost 1 + 3 + 2 + 4 = 10 (the measured row), rows 4-7
                // 2 + 4 + 2 + 3 = 11 (the measured one-line shifts of rule 4), and so on
                let total = if kernel == "tile144" {
                    10 + 11 + 10 + 11
                } else {
                    4 * hw
                };
                assert_eq!(
                    (cp.instructions, cp.wavefronts, cp.ideal_wavefronts),
                    (4, total, total),
                    "{kernel}"
                );
            }
            None => unreachable!("every layout here has its measured cp.async row"),
        }
    }
}
