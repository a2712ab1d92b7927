//! The `wgmma` forms the lowering accepts (those ptxas accepts for sm_90a: PTX ISA, "wgmma.mma_async")
//! and the ones it refuses with a reason.

use warpscope_ptx::inst::{Inst, WgTy, WgmmaForm};

/// A kernel with one `wgmma.mma_async` of `form` over accumulators %f1.. / %r1.. (`nd` of them).
fn kernel(op: &str, nd: usize, acc: char, a: &str, tail: &str) -> String {
    let regs: Vec<String> = (1..=nd).map(|i| format!("%{acc}{i}")).collect();
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .pred p;\n.reg .f32 %f<300>;\n.reg .b32 %r<300>;\n.reg .b64 %rd<4>;\n\
         setp.eq.u32 p, 0, 0;\n\
         wgmma.fence.sync.aligned;\n\
         {op} {{{}}}, {a}, %rd2, p{tail};\n\
         wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nret;\n}}\n",
        regs.join(", ")
    )
}

/// A kernel with one sparse `wgmma.mma_async.sp.sync.aligned.SHAPE_TYPES` over four
/// accumulators (%r1.. for an s32 D, else %f1..), metadata %r8 and selector `sel`.
fn sp_kernel(shape_types: &str, a: &str, sel: &str, tail: &str) -> String {
    let acc = if shape_types.contains(".s32.") { 'r' } else { 'f' };
    let regs: Vec<String> = (1..=4).map(|i| format!("%{acc}{i}")).collect();
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .pred p;\n.reg .f32 %f<300>;\n.reg .b32 %r<300>;\n.reg .b64 %rd<4>;\n\
         setp.eq.u32 p, 0, 0;\n\
         wgmma.fence.sync.aligned;\n\
         wgmma.mma_async.sp.sync.aligned.{shape_types} {{{}}}, {a}, %rd2, %r8, {sel}, p{tail};\n\
         wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nret;\n}}\n",
        regs.join(", ")
    )
}

fn form(src: &str) -> Result<WgmmaForm, String> {
    let p = warpscope_ptx::compile(src).map_err(|e| e.join("\n"))?;
    p.ops
        .iter()
        .find_map(|o| match o.inst {
            Inst::Wgmma { form, .. } => Some(form),
            _ => None,
        })
        .ok_or_else(|| "no wgmma".to_string())
}

#[test]
fn every_n_of_the_float_forms_and_the_integer_set() {
    for n in (8..=256).step_by(8) {
        let f = form(&kernel(
            &format!("wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16"),
            n / 2,
            'f',
            "%rd1",
            ", 1, 1, 0, 0",
        ))
        .unwrap();
        assert_eq!(
            (f.n, f.dty, f.aty, f.d_regs()),
            (n as u16, WgTy::F32, WgTy::F16, n as u32 / 2)
        );
        let f = form(&kernel(
            &format!("wgmma.mma_async.sync.aligned.m64n{n}k32.f16.e4m3.e5m2"),
            n / 4,
            'r',
            "%rd1",
            ", 1, -1",
        ))
        .unwrap();
        assert_eq!(
            (f.aty, f.bty, f.has(WgmmaForm::NEG_B), f.has(WgmmaForm::NEG_A)),
            (WgTy::E4M3, WgTy::E5M2, true, false)
        );
        let int = form(&kernel(
            &format!("wgmma.mma_async.sync.aligned.m64n{n}k32.s32.s8.u8.satfinite"),
            n / 2,
            'r',
            "%rd1",
            "",
        ));
        let b1 = form(&kernel(
            &format!("wgmma.mma_async.sync.aligned.m64n{n}k256.s32.b1.b1.and.popc"),
            n / 2,
            'r',
            "%rd1",
            "",
        ));
        let int_n = n <= 32 || n % 16 == 0;
        assert_eq!(int.is_ok(), int_n, "s8 n{n}: {int:?}");
        assert_eq!(b1.is_ok(), int_n, "b1 n{n}: {b1:?}");
        if int_n {
            assert!(int.unwrap().has(WgmmaForm::SATFINITE));
        }
    }
}

#[test]
fn a_from_registers_and_transposes() {
    let f = form(&kernel(
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
        32,
        'f',
        "{%r1, %r2, %r3, %r4}",
        ", -1, 1, 1",
    ))
    .unwrap();
    assert!(f.a_regs() && f.has(WgmmaForm::NEG_A) && f.has(WgmmaForm::TRANS_B) && !f.has(WgmmaForm::TRANS_A));
    let f = form(&kernel(
        "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16",
        4,
        'r',
        "%rd1",
        ", 1, 1, 1, 0",
    ))
    .unwrap();
    assert!(!f.a_regs() && f.has(WgmmaForm::TRANS_A) && !f.has(WgmmaForm::TRANS_B));
    let f = form(&kernel(
        "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32",
        4,
        'f',
        "{%f9, %f10, %f11, %f12}",
        ", 1, 1",
    ))
    .unwrap();
    assert_eq!((f.aty, f.k()), (WgTy::TF32, 8));
}

#[test]
fn refusals_say_why() {
    let cases = [
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16",
                6,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "shape",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16",
                4,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "shape",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16",
                2,
                'r',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "types",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16",
                4,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "types",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8",
                20,
                'r',
                "%rd1",
                "",
            ),
            "shape",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
                3,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "4 accumulator",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
                4,
                'f',
                "%rd1",
                ", 1, 1, 2, 0",
            ),
            "imm-trans",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
                4,
                'f',
                "%rd1",
                ", 2, 1, 0, 0",
            ),
            "imm-scale",
        ),
        (
            kernel(
                "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3",
                4,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            "takes 6 operands",
        ),
        (
            kernel(
                "wgmma.mma_async.m64n8k16.f32.f16.f16",
                4,
                'f',
                "%rd1",
                ", 1, 1, 0, 0",
            ),
            ".sync.aligned",
        ),
        (
            sp_kernel("m64n8k64.f32.e4m3.e4m3", "%rd1", "1", ", 1, 1"),
            "sparsity selector must be the immediate 0",
        ),
        (
            sp_kernel("m64n8k32.f32.f16.f16", "%rd1", "2", ", 1, 1, 0, 0"),
            "sparsity selector must be the immediate 0 or 1",
        ),
        (
            sp_kernel("m64n8k32.f32.f16.f16", "%rd1", "%r9", ", 1, 1, 0, 0"),
            "sparsity selector",
        ),
        (
            sp_kernel("m64n8k16.f32.f16.f16", "%rd1", "0", ", 1, 1, 0, 0"),
            "shape",
        ),
        (
            sp_kernel("m64n8k512.s32.b1.b1.and.popc", "%rd1", "0", ""),
            "shape",
        ),
        (
            sp_kernel("m64n8k32.f32.f16.f16", "%rd1", "0", ", 1, 1, 0"),
            "takes 10 operands",
        ),
    ];
    for (src, why) in cases {
        let e = form(&src).unwrap_err();
        assert!(e.contains(why), "expected `{why}` in: {e}");
        assert!(e.contains("wgmma"), "{e}");
    }
}

#[test]
fn the_sparse_forms() {
    let sp = |st: &str, a: &str, sel: &str, tail: &str| form(&sp_kernel(st, a, sel, tail)).unwrap();
    let f = sp("m64n8k32.f32.f16.f16", "%rd1", "1", ", 1, -1, 1, 0");
    assert!(f.sparse() && f.has(WgmmaForm::SP_SEL1) && f.has(WgmmaForm::NEG_B));
    assert!(f.has(WgmmaForm::TRANS_A) && !f.has(WgmmaForm::TRANS_B));
    assert_eq!((f.k(), f.aty.k()), (32, 16), "K 32, A stores 16 columns");
    let f = sp("m64n8k32.f32.bf16.bf16", "{%r1, %r2, %r3, %r4}", "0", ", 1, 1, 1");
    assert!(f.a_regs() && f.has(WgmmaForm::TRANS_B) && !f.has(WgmmaForm::SP_SEL1));
    let f = sp("m64n8k16.f32.tf32.tf32", "%rd1", "1", ", 1, 1");
    assert_eq!((f.k(), f.has(WgmmaForm::SP_SEL1)), (16, true));
    let f = sp("m64n16k64.f16.e5m2.e4m3", "%rd1", "0", ", -1, 1");
    assert_eq!((f.k(), f.dty, f.has(WgmmaForm::NEG_A)), (64, WgTy::F16, true));
    let f = sp("m64n8k64.s32.u8.s8.satfinite", "%rd1", "0", "");
    assert!(f.sparse() && f.has(WgmmaForm::SATFINITE) && f.k() == 64);
    // the metadata is the register row after B's descriptor
    let p = warpscope_ptx::compile(&sp_kernel("m64n8k64.s32.s8.s8", "%rd1", "0", "")).unwrap();
    assert!(
        p.ops
            .iter()
            .any(|o| matches!(o.inst, Inst::Wgmma { form, .. } if form.sparse()))
    );
    // a dense form is not sparse and keeps its K
    let d = form(&kernel(
        "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16",
        4,
        'f',
        "%rd1",
        ", 1, 1, 0, 0",
    ))
    .unwrap();
    assert_eq!((d.sparse(), d.k()), (false, 16));
}

#[test]
fn warp_level_sparse_mma_forms_and_refusals() {
    let src = |op: &str, d: &str, ab: &str, sel: &str| {
        format!(
            ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{{\n\
             .reg .f32 %f<8>;\n.reg .b32 %r<8>;\n\
             {op} {d}, {ab}, {ab}, {d}, %r5, {sel};\n\
             ret;\n}}\n"
        )
    };
    let (f4, h2) = ("{%f1, %f2, %f3, %f4}", "{%r6, %r7}");
    let (r2, r4) = ("{%r1, %r2}", "{%r1, %r2, %r3, %r4}");
    // the forms calibration/wgmma-sp measures, both spellings, and the selectors the PTX ISA allows
    for (op, d, ab, sel) in [
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            f4,
            r2,
            "3",
        ),
        (
            "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            f4,
            r2,
            "0",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16",
            h2,
            r4,
            "1",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",
            f4,
            r4,
            "1",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            f4,
            r2,
            "2",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",
            f4,
            r4,
            "1",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32",
            f4,
            r2,
            "1",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32",
            f4,
            r4,
            "0",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32",
            f4,
            r4,
            "0",
        ),
    ] {
        let s = src(op, d, ab, sel);
        let p = warpscope_ptx::compile(&s).unwrap_or_else(|e| panic!("{op}: {e:?}"));
        assert_eq!(
            p.ops
                .iter()
                .filter(|o| matches!(o.inst, Inst::MmaSp { .. }))
                .count(),
            1,
            "{op}"
        );
    }
    for (op, d, ab, sel, why) in [
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
            f4,
            r4,
            "2",
            "selector",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32",
            f4,
            r4,
            "1",
            "selector",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            f4,
            r2,
            "%r1",
            "selector",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f16.e4m3.e4m3.f16",
            h2,
            r4,
            "0",
            "types",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.bf16.bf16.f16",
            h2,
            r4,
            "0",
            "types",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
            f4,
            r2,
            "0",
            "shape",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.tf32.tf32.f32",
            f4,
            r4,
            "0",
            "shape",
        ),
        (
            "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",
            f4,
            r2,
            "0",
            "registers",
        ),
    ] {
        let e = warpscope_ptx::compile(&src(op, d, ab, sel))
            .unwrap_err()
            .join("\n");
        assert!(e.contains(why), "{op}: {e}");
        assert!(e.starts_with("8:"), "names the line: {e}");
    }
}
