//! calibration/wmma: `wmma.load.a/.b` (f16) and `wmma.load.c` / `wmma.store.d` (f32) of one warp
//! from and to shared memory, 320 rows over layouts, leading dimensions and offsets, emulated from
//! the checked-in PTX with the launch's arguments; the LDSM instructions and wavefronts and the
//! shared load/store instructions and wavefronts must equal what the H100 counted (measured.tsv).
//! The alternatives the rule replaces must each break measured rows.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::banks::{self, MatrixKind, Request, Side};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::tensor::{a_elem, b_elem, c_elem};
use warpscope_emu::{Launch, Limits};
use warpscope_ptx::inst::{MmaShape, Ty};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/wmma")
}

#[test]
fn wmma_shared_counters_equal_the_h100() {
    let text = std::fs::read_to_string(dir().join("measured.tsv")).expect("measured.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let rows: Vec<HashMap<&str, &str>> = lines
        .map(|l| head.iter().copied().zip(l.split('\t')).collect())
        .collect();
    assert_eq!(rows.len(), 320, "rows of measured.tsv");
    let ptx = std::fs::read_to_string(dir().join("wmma_calib.ptx")).expect("wmma_calib.ptx");
    let program = warpscope_ptx::compile(&ptx).expect("wmma_calib.ptx compiles");
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let mut wrong = Vec::new();
    for r in &rows {
        let b = |k: &str| if r[k] == "r" { 1 } else { 0 };
        let kernel = format!("_Z7wmma_lsILb{}ELb{}ELb{}EEvPfiiiiii", b("la"), b("lb"), b("lc"));
        let args = format!(
            "buf:4096:zero i32:{} i32:{} i32:{} i32:{} i32:{} i32:{}",
            r["lda"], r["offa"], r["ldb"], r["offb"], r["ldc"], r["offc"]
        );
        let mut launch = Launch::new([1, 1, 1], [32, 1, 1], parse_args(&args).unwrap());
        launch.dyn_smem = 49152;
        let run = banks::run(
            &program,
            &kernel,
            &launch,
            &Limits::default(),
            h100,
            Arc::new(Reconciliation::ptx_level()),
        )
        .unwrap_or_else(|e| panic!("row {}: {e}", r["id"]));
        assert!(run.faults.is_empty(), "row {}: {:?}", r["id"], run.faults);
        assert_eq!(run.report.unmodelled, 0, "row {}", r["id"]);
        let ldsm = run.report.matrix_total(MatrixKind::Ldsm);
        let (ld, st) = (run.report.total(Side::Load), run.report.total(Side::Store));
        let got = [
            ldsm.instructions,
            ldsm.wavefronts,
            ld.instructions,
            st.instructions,
            ld.wavefronts,
            st.wavefronts,
        ];
        let keys = ["ldsm_inst", "ldsm_wf", "ld_inst", "st_inst", "ld_wf", "st_wf"];
        let want: Vec<u64> = keys.iter().map(|k| r[k].parse().unwrap()).collect();
        if got[..] != want[..] {
            wrong.push(format!(
                "row {}: predicted {got:?}, measured {want:?} ({keys:?})",
                r["id"]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} rows differ:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );

    // Alternatives, rows broken: (1) the four matrices of an A/B load pooled into one request;
    // (2) A and B read as the PTX semantics reads them (eight 2-byte loads per fragment), counted
    // by the bank model; (3) a row-major C read as eight 4-byte loads instead of four 8-byte.
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let sm = MmaShape::M16n16k16;
    let cost = |width: u8, addrs: &[u64; 32]| {
        let req = Request {
            width,
            mask: u32::MAX,
            addrs,
        };
        u64::from(banks::cost(h100, Side::Load, &req).expect("modelled").0)
    };
    let (mut pooled, mut elements, mut c4) = (0, 0, 0);
    for r in &rows {
        let n = |k: &str| r[k].parse::<u64>().unwrap();
        let want = |k: &str| r[k].parse::<u64>().unwrap();
        // (1)
        let pool = |ld: u64, off: u64, base: u64| {
            let mut groups: HashMap<u64, Vec<u64>> = HashMap::new();
            for row in 0..16 {
                for h in 0..2 {
                    let a = base + 2 * (off + row * ld + 8 * h);
                    groups.entry((a / 16) % 8).or_default().push(a);
                }
            }
            groups.values().map(|v| v.len() as u64).max().unwrap()
        };
        if pool(n("lda"), n("offa"), 0) + pool(n("ldb"), n("offb"), 16384) != want("ldsm_wf") {
            pooled += 1;
        }
        // (2)
        let mut wf = 0;
        for i in 0..8 {
            let a: [u64; 32] = std::array::from_fn(|l| {
                let (m, k) = a_elem(sm, Ty::F16, l, i);
                let idx = if r["la"] == "r" {
                    m as u64 * n("lda") + k as u64
                } else {
                    k as u64 * n("lda") + m as u64
                };
                2 * (n("offa") + idx)
            });
            let b: [u64; 32] = std::array::from_fn(|l| {
                let (k, c) = b_elem(sm, Ty::F16, l, i);
                let idx = if r["lb"] == "r" {
                    k as u64 * n("ldb") + c as u64
                } else {
                    c as u64 * n("ldb") + k as u64
                };
                16384 + 2 * (n("offb") + idx)
            });
            wf += cost(2, &a) + cost(2, &b);
        }
        if wf != want("ldsm_wf") {
            elements += 1;
        }
        // (3)
        if r["lc"] == "r" {
            let c = (0..8)
                .map(|i| {
                    cost(
                        4,
                        &std::array::from_fn(|l| {
                            let (m, c) = c_elem(sm, l, i);
                            32768 + 4 * (n("offc") + m as u64 * n("ldc") + c as u64)
                        }),
                    )
                })
                .sum::<u64>();
            if c != want("ld_wf") - want("ldsm_wf") {
                c4 += 1;
            }
        }
    }
    eprintln!(
        "alternatives, rows broken of {}: pooled {pooled}, elements {elements}, row-major C as 4-byte {c4}",
        rows.len()
    );
    assert!(
        pooled > 0 && elements > 0 && c4 > 0,
        "pooled {pooled}, elements {elements}, c4 {c4}"
    );
}
