//! The fix advisor on a tensor-core tile (crates/cli/fixtures/tensor/ldsmTile.cu): a 64x64 f16 tile
//! in 128-byte rows, read with `ldmatrix.x4`, puts the eight row addresses of every 8x8 matrix in
//! one group of four banks (8 wavefronts per matrix, 32 per instruction). The advisor counts the
//! LDSM (and LDGSTS) requests with the H100-measured matrix rules, proposes CuTe's
//! `Swizzle<3,3,3>` (on 2-byte elements; `Swizzle<3,4,3>` on bytes) and the padding, each bringing
//! the LDSM wavefronts to the ideal; re-emulating the kernel with each layout gives the same
//! outputs, and the bank analysis of the re-emulated kernel counts the predicted wavefronts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::banks::{self, MatrixKind};
use warpscope_analysis::fix::{self, Advice, AdviseConfig, ArrayInfo, Form, Target, Trace, Transform};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits, Program};
use warpscope_model::arch::Arch;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/fixtures/tensor")
}

struct Case {
    program: Program,
    recon: Arc<Reconciliation>,
    launch: Launch,
    trace: Trace,
    arrays: Vec<ArrayInfo>,
    source: String,
}

fn load(kernel: &str) -> Case {
    let ptx = std::fs::read_to_string(dir().join("ldsmTile.ptx")).unwrap();
    let sass = std::fs::read_to_string(dir().join("ldsmTile.sass")).unwrap();
    let source = std::fs::read_to_string(dir().join("ldsmTile.cu")).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap();
    let machine = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
    let m = machine.iter().find(|k| k.name == kernel).expect("kernel in sass");
    let recon = Arc::new(Reconciliation::build(&program, kernel, &machine_accesses(m)));
    let launch = Launch::new(
        [1, 1, 1],
        [128, 1, 1],
        parse_args("buf:8192 buf:8192:zero").unwrap(),
    );
    let trace = fix::record(&program, kernel, &launch, &Limits::default(), recon.clone()).unwrap();
    assert!(trace.faults.is_empty(), "{:?}", trace.faults);
    let arrays = fix::arrays(program.kernel(kernel).unwrap(), 0);
    Case {
        program,
        recon,
        launch,
        trace,
        arrays,
        source,
    }
}

fn advise(c: &Case) -> Advice {
    let cfg = AdviseConfig {
        target: Target::parse("sm_90").unwrap(),
        threads: 128,
        registers: Some(32),
        registers_from: "test".into(),
        source: Some(c.source.clone()),
    };
    fix::advise(&c.trace, &c.arrays, &cfg).unwrap()
}

const CUTE: Transform = Transform::Swizzle {
    bits: 3,
    base_shift: 4,
    shift: 3,
};

/// What `out` must hold: lane l's register j of step k of warp w holds row l / 4 of matrix j, the
/// two halves at columns 2 (l % 4) and 2 (l % 4) + 1, where matrix j's row i is the row address of
/// lane 8j + i: tile[16w + (8j + i) % 16][16k + 8 ((8j + i) / 16)].
fn reference(input: &[u8]) -> Vec<u8> {
    let half = |r: usize, c: usize| -> [u8; 2] {
        let at = 2 * (r * 64 + c);
        [input[at], input[at + 1]]
    };
    let mut out = vec![0u8; 8192];
    for w in 0..4 {
        for k in 0..4 {
            for l in 0..32 {
                for j in 0..4 {
                    let supplier = 8 * j + l / 4;
                    let r = 16 * w + supplier % 16;
                    let c = 16 * k + 8 * (supplier / 16) + 2 * (l % 4);
                    let at = (((w * 4 + k) * 32 + l) * 4 + j) * 4;
                    out[at..at + 2].copy_from_slice(&half(r, c));
                    out[at + 2..at + 4].copy_from_slice(&half(r, c + 1));
                }
            }
        }
    }
    out
}

/// Runs the kernel with `remap` (none: as written), checks the outputs against the reference, and
/// returns the bank analysis's LDSM and LDGSTS wavefronts (with their ideals) of that run.
fn rerun(c: &Case, kernel: &str, t: Option<&Transform>) -> (u64, u64, u64, u64) {
    let mut l = c.launch.clone();
    if let Some(t) = t {
        l.remap = vec![t.remap(&c.arrays[0])];
    }
    let res = warpscope_emu::run(&c.program, kernel, &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{t:?}: {:?}", res.faults);
    let input = res.buffers[0].as_ref().unwrap();
    let out = res.buffers[1].as_ref().unwrap();
    assert_eq!(
        out,
        &reference(input),
        "{kernel} {t:?}: outputs differ from the reference"
    );
    let arch = Arch::parse("sm_90").unwrap();
    let run = banks::run(&c.program, kernel, &l, &Limits::default(), arch, c.recon.clone()).unwrap();
    let ldsm = run.report.matrix_total(MatrixKind::Ldsm);
    let ldgsts = run.report.matrix_total(MatrixKind::Ldgsts);
    assert_eq!(run.report.matrix_unmodelled(MatrixKind::Ldsm), 0);
    assert_eq!(run.report.matrix_unmodelled(MatrixKind::Ldgsts), 0);
    (
        ldsm.wavefronts,
        ldsm.ideal_wavefronts,
        ldgsts.wavefronts,
        ldgsts.ideal_wavefronts,
    )
}

#[test]
fn the_trace_holds_the_ldmatrix_requests() {
    let c = load("ldsmTile");
    let ldsm: Vec<_> = c
        .trace
        .accesses
        .iter()
        .filter(|(a, _)| a.form == Form::Matrix(4))
        .collect();
    // 4 ldmatrix.x4 per warp, 4 warps: 16 executions of 4 pcs.
    assert_eq!(ldsm.iter().map(|(_, n)| n).sum::<u64>(), 16);
    assert_eq!(
        ldsm.iter()
            .map(|(a, _)| a.pc)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        4
    );
    // Lane 1 of warp 0's first request: row 1, column 0 = byte 128.
    let (first, _) = ldsm.iter().find(|(a, _)| a.addrs[0] == 0).unwrap();
    assert_eq!((first.addrs[1], first.addrs[16], first.width), (128, 16, 16));
}

#[test]
fn ldmatrix_tile_gets_the_cute_swizzle_and_a_padding() {
    let c = load("ldsmTile");
    let a = advise(&c);
    assert_eq!(c.arrays.len(), 1);
    let tile = &a.arrays[0];
    assert_eq!(tile.info.name, "tile");
    assert_eq!(tile.access_bytes, 16);
    // 16 LDSM.x4 at 32 wavefronts (ideal 4) + 16 STS.128 at 4 (ideal 4).
    assert_eq!(
        (tile.cost.wavefronts, tile.cost.ideal),
        (16 * 32 + 16 * 4, 16 * 4 + 16 * 4)
    );
    assert!(tile.conflicts);
    let sw = a
        .suggestions
        .iter()
        .find(|s| s.kind == "swizzle")
        .expect("a swizzle");
    assert_eq!(sw.transform, CUTE);
    assert_eq!((sw.wavefronts_after, sw.ideal), (128, 128));
    assert_eq!(sw.extra_shared_bytes, 0);
    let edit = sw.source.as_ref().unwrap();
    assert!(
        edit.after
            .contains("tile[r][c ^ ((r & 7) << 3)] for every tile[r][c]"),
        "{}",
        edit.after
    );
    assert!(
        edit.after
            .contains("CuTe: composition(Swizzle<3,3,3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{})"),
        "{}",
        edit.after
    );
    let pad = a.suggestions.iter().find(|s| s.kind == "pad").expect("a padding");
    assert_eq!(
        pad.transform,
        Transform::Pad {
            row_bytes: 128,
            pad_bytes: 16
        }
    );
    assert_eq!((pad.wavefronts_after, pad.ideal), (128, 128));
    assert_eq!(pad.extra_shared_bytes, 64 * 16);
    assert!(
        pad.source
            .as_ref()
            .unwrap()
            .after
            .contains("tile[ROWS][COLS + 8]"),
        "{:?}",
        pad.source
    );
    assert!(a.suggestions.iter().all(|s| s.wavefronts_after == s.ideal));
}

/// The proof: the kernel re-emulated with each suggested layout computes the same outputs (equal to
/// a reference of ldmatrix's semantics), and the LDSM requests the emulator then issues cost what
/// the advisor predicted: 512 wavefronts as written, the ideal 64 with the change.
#[test]
fn ldmatrix_suggestions_keep_outputs_and_reach_the_ideal_when_re_emulated() {
    let c = load("ldsmTile");
    let a = advise(&c);
    assert_eq!(rerun(&c, "ldsmTile", None), (512, 64, 0, 0));
    assert!(a.suggestions.len() >= 2);
    for s in &a.suggestions {
        assert_eq!(
            rerun(&c, "ldsmTile", Some(&s.transform)),
            (64, 64, 0, 0),
            "{:?}",
            s.transform
        );
    }
}

/// Staged by `cp.async.cg` (LDGSTS.BYPASS, 16 bytes): the measured rule covers a source line copied
/// into one 128-byte shared row under one XOR of the 16-byte chunk, so the swizzle keeps the copies
/// at one wavefront per line while a padding (rows no longer 128-byte aligned) leaves the rule and is
/// not offered.
#[test]
fn cp_async_staged_tile_gets_the_swizzle_first() {
    let c = load("ldsmTileAsync");
    assert!(c.trace.accesses.iter().any(|(a, _)| matches!(
        a.form,
        Form::Copy(Some(warpscope_model::matrix::CopyKind::CacheGlobal))
    )));
    let a = advise(&c);
    // 16 LDSM.x4 at 32 + 16 LDGSTS of 4 lines at 4.
    assert_eq!((a.arrays[0].cost.wavefronts, a.arrays[0].cost.ideal), (576, 128));
    let sw = a.suggestions.iter().find(|s| s.recommended).unwrap();
    assert_eq!(sw.transform, CUTE);
    assert_eq!((sw.wavefronts_after, sw.ideal), (128, 128));
    // The padding is offered second: the reads become conflict-free (64) but each copied line now
    // lands one 16-byte chunk further per row, 168 LDGSTS wavefronts instead of 64.
    let pad = a.suggestions.iter().find(|s| s.kind == "pad").unwrap();
    assert!(!pad.recommended);
    assert_eq!(pad.wavefronts_after, 64 + 168);
    assert_eq!(rerun(&c, "ldsmTileAsync", None), (512, 64, 64, 64));
    assert_eq!(rerun(&c, "ldsmTileAsync", Some(&CUTE)), (64, 64, 64, 64));
}

/// What the padding costs the cp.async.cg staging (calibration/ldsm rule 4): 144-byte rows shift
/// row r's 128-byte source line by r 16-byte chunks; a line shifted by s costs 1, 3, 2, 4, 2, 4, 2, 3
/// for s = 0..7, so the 64 lines cost 8 x 21 = 168 wavefronts where the 128-byte rows (and the
/// swizzle) cost 64. The H100 measured 168 on the padded kernel (crates/cli/fixtures/tensor/
/// ldsmTilePadded.cu, calibration/measure/h100/analyze/tensor_ldsmTileAsyncPadded.json).
#[test]
fn padding_costs_the_bypass_copies_their_shifts() {
    let c = load("ldsmTileAsync");
    let target = Target::parse("sm_90").unwrap();
    let pad = Transform::Pad {
        row_bytes: 128,
        pad_bytes: 16,
    };
    let base = fix::evaluate(&c.trace, &c.arrays, &[], &target).unwrap();
    assert_eq!(base.unmodelled, vec![0]);
    assert_eq!(base.per_array[0].wavefronts, 512 + 64);
    let padded = fix::evaluate(&c.trace, &c.arrays, &[Some(pad)], &target).unwrap();
    assert_eq!(padded.unmodelled, vec![0]);
    assert_eq!(padded.per_array[0].wavefronts, 64 + 168);
    let swizzled = fix::evaluate(&c.trace, &c.arrays, &[Some(CUTE)], &target).unwrap();
    assert_eq!(swizzled.unmodelled, vec![0]);
    assert_eq!(
        (swizzled.per_array[0].wavefronts, swizzled.per_array[0].ideal),
        (128, 128)
    );
    // Before CC 7.5 there is no ldmatrix: every one of them is unmodelled there, whatever the layout.
    let old = fix::evaluate(&c.trace, &c.arrays, &[], &Target::parse("sm_70").unwrap()).unwrap();
    assert_eq!(old.unmodelled[0], 16 + 16);
}
