//! `.ftz` on `.f32` arithmetic survives the lowering (PTX ISA, "Floating Point Instructions":
//! `.ftz` flushes subnormal inputs and results to sign-preserving zero); `.f64` has no `.ftz`.

use warpscope_ptx::inst::{BinOp, Inst, TernOp};

/// The first operation the lowering makes of `body` that `want` accepts.
fn first_op(body: &str, want: fn(&Inst) -> bool) -> Inst {
    let src = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n\
         .reg .f32 %f<9>;\n{body}\nret;\n}}\n"
    );
    let p = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}"));
    p.ops
        .iter()
        .map(|o| o.inst)
        .find(want)
        .expect("an arithmetic instruction")
}

fn bin(body: &str) -> BinOp {
    match first_op(body, |i| matches!(i, Inst::Bin { .. })) {
        Inst::Bin { op, .. } => op,
        i => panic!("{body}: {i:?}"),
    }
}

fn tern(body: &str) -> TernOp {
    match first_op(body, |i| matches!(i, Inst::Tern { .. })) {
        Inst::Tern { op, .. } => op,
        i => panic!("{body}: {i:?}"),
    }
}

#[test]
fn binary_f32_forms_keep_ftz() {
    let cases = [
        ("add.ftz.f32", BinOp::AddFtz),
        ("add.rn.ftz.f32", BinOp::AddFtz),
        ("add.ftz.sat.f32", BinOp::AddSatFtz),
        ("sub.ftz.f32", BinOp::SubFtz),
        ("sub.rn.ftz.sat.f32", BinOp::SubSatFtz),
        ("mul.ftz.f32", BinOp::MulFtz),
        ("mul.rn.ftz.sat.f32", BinOp::MulSatFtz),
        ("min.ftz.f32", BinOp::MinFtz),
        ("max.ftz.f32", BinOp::MaxFtz),
        ("min.ftz.NaN.f32", BinOp::MinNaNFtz),
        ("max.ftz.NaN.f32", BinOp::MaxNaNFtz),
        ("add.f32", BinOp::Add),
        ("mul.f32", BinOp::MulLo),
        ("min.f32", BinOp::Min),
    ];
    for (op, want) in cases {
        assert_eq!(bin(&format!("{op} %f3, %f1, %f2;")), want, "{op}");
    }
}

#[test]
fn ternary_f32_forms_keep_ftz() {
    let cases = [
        ("fma.rn.ftz.f32", TernOp::FmaFtz),
        ("mad.ftz.f32", TernOp::FmaFtz),
        ("fma.rn.ftz.sat.f32", TernOp::FmaSatFtz),
        ("fma.rn.f32", TernOp::Fma),
    ];
    for (op, want) in cases {
        assert_eq!(tern(&format!("{op} %f4, %f1, %f2, %f3;")), want, "{op}");
    }
}

#[test]
fn contracted_ftz_pairs_stay_ftz() {
    // ptxas contracts a mul.ftz with an add.ftz / sub.ftz into FFMA.FTZ
    let add = tern("mul.ftz.f32 %f4, %f1, %f2;\nadd.ftz.f32 %f5, %f4, %f3;\nmov.b32 %f6, %f5;");
    assert_eq!(add, TernOp::FmaFtz);
    let sub = tern("mul.ftz.f32 %f4, %f1, %f2;\nsub.ftz.f32 %f5, %f4, %f3;\nmov.b32 %f6, %f5;");
    assert_eq!(sub, TernOp::FmaSubCFtz);
    let nab = tern("mul.ftz.f32 %f4, %f1, %f2;\nsub.ftz.f32 %f5, %f3, %f4;\nmov.b32 %f6, %f5;");
    assert_eq!(nab, TernOp::FmaNegABFtz);
}

#[test]
fn neg_abs_f32_keep_ftz() {
    use warpscope_ptx::inst::UnOp;
    let un = |body: &str| match first_op(body, |i| matches!(i, Inst::Un { .. })) {
        Inst::Un { op, .. } => op,
        i => panic!("{body}: {i:?}"),
    };
    assert_eq!(un("neg.ftz.f32 %f2, %f1;"), UnOp::NegFtz);
    assert_eq!(un("abs.ftz.f32 %f2, %f1;"), UnOp::AbsFtz);
    assert_eq!(un("neg.f32 %f2, %f1;"), UnOp::Neg);
    assert_eq!(un("abs.f32 %f2, %f1;"), UnOp::Abs);
}
