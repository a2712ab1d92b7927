//! `.ftz` on `.f32` `add`/`sub`/`mul`/`min`/`max`/`fma` (PTX ISA, "Floating Point Instructions",
//! "Subnormal numbers": subnormal inputs and results are flushed to sign-preserving zero).
//! Expected values are worked out from that definition; the last test replays the H200's
//! `mul.ftz.f32` products of calibration/run/bench13/fastdump.cu (-use_fast_math).

use warpscope_emu::arith::{bin, ftz32, tern};
use warpscope_ptx::inst::{BinOp, TernOp, Ty};

const ONE: u64 = 0x3f80_0000;
const HALF: u64 = 0x3f00_0000;
const MIN_NORMAL: u64 = 0x0080_0000; // 2^-126
const TWO23: u64 = 0x4b00_0000; // 2^23
const NEG: u64 = 0x8000_0000;

fn b(op: BinOp, x: u64, y: u64) -> u64 {
    bin(op, Ty::F32, x, y)
}

fn t(op: TernOp, x: u64, y: u64, z: u64) -> u64 {
    tern(op, Ty::F32, x, y, z)
}

#[test]
fn flush_keeps_sign_and_leaves_normals_nans_and_infinities() {
    assert_eq!(ftz32(0x0000_0001), 0);
    assert_eq!(ftz32(0x007f_ffff), 0);
    assert_eq!(ftz32(0x8000_0001), NEG);
    assert_eq!(ftz32(0x807f_ffff), NEG);
    for v in [
        0,
        NEG,
        MIN_NORMAL,
        0x8080_0000,
        ONE,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
    ] {
        assert_eq!(ftz32(v), v, "{v:#x}");
    }
}

#[test]
fn add_ftz_flushes_inputs_and_result() {
    // 2^-127 + 2^-127 = 2^-126 (normal) unflushed; both inputs flush to +0
    assert_eq!(b(BinOp::Add, 0x0040_0000, 0x0040_0000), MIN_NORMAL);
    assert_eq!(b(BinOp::AddFtz, 0x0040_0000, 0x0040_0000), 0);
    // (2^-126 + 2^-149) - 2^-126 = 2^-149: a subnormal result flushes to +0
    assert_eq!(b(BinOp::Add, 0x0080_0001, 0x8080_0000), 0x0000_0001);
    assert_eq!(b(BinOp::AddFtz, 0x0080_0001, 0x8080_0000), 0);
    // negative subnormals flush to -0, and -0 + -0 = -0
    assert_eq!(b(BinOp::AddFtz, 0x8000_0005, 0x8000_0003), NEG);
    // normal operands are untouched
    assert_eq!(b(BinOp::AddFtz, ONE, ONE), 0x4000_0000);
}

#[test]
fn sub_ftz_flushes_inputs_and_result() {
    // 2^-127 - (-2^-127) = 2^-126 unflushed; +0 - (-0) = +0 flushed
    assert_eq!(b(BinOp::Sub, 0x0040_0000, 0x8040_0000), MIN_NORMAL);
    assert_eq!(b(BinOp::SubFtz, 0x0040_0000, 0x8040_0000), 0);
    // 2^-126 - (2^-126 + 2^-149) = -2^-149: flushed to -0
    assert_eq!(b(BinOp::Sub, MIN_NORMAL, 0x0080_0001), 0x8000_0001);
    assert_eq!(b(BinOp::SubFtz, MIN_NORMAL, 0x0080_0001), NEG);
    // -2^-126 - (-(2^-126 + 2^-149)) = +2^-149: flushed to +0
    assert_eq!(b(BinOp::SubFtz, 0x8080_0000, 0x8080_0001), 0);
}

#[test]
fn mul_ftz_flushes_inputs_and_result() {
    // 2^-149 * 2^23 = 2^-126 unflushed; the subnormal input flushes first
    assert_eq!(b(BinOp::MulLo, 0x0000_0001, TWO23), MIN_NORMAL);
    assert_eq!(b(BinOp::MulFtz, 0x0000_0001, TWO23), 0);
    assert_eq!(b(BinOp::MulFtz, 0x8000_0001, TWO23), NEG);
    // 2^-126 * 0.5 = 2^-127 (subnormal result)
    assert_eq!(b(BinOp::MulLo, MIN_NORMAL, HALF), 0x0040_0000);
    assert_eq!(b(BinOp::MulFtz, MIN_NORMAL, HALF), 0);
    assert_eq!(b(BinOp::MulFtz, MIN_NORMAL, HALF | NEG), NEG);
    assert_eq!(b(BinOp::MulFtz, ONE, HALF), HALF);
}

#[test]
fn sat_ftz_forms_flush_after_clamping() {
    // saturation keeps 2^-127 (it lies in [0, 1]); .ftz then makes it +0
    assert_eq!(b(BinOp::MulSat, MIN_NORMAL, HALF), 0x0040_0000);
    assert_eq!(b(BinOp::MulSatFtz, MIN_NORMAL, HALF), 0);
    assert_eq!(b(BinOp::AddSat, 0x0040_0000, 0x0040_0000), MIN_NORMAL);
    assert_eq!(b(BinOp::AddSatFtz, 0x0040_0000, 0x0040_0000), 0);
    assert_eq!(b(BinOp::SubSat, 0x0080_0001, MIN_NORMAL), 0x0000_0001);
    assert_eq!(b(BinOp::SubSatFtz, 0x0080_0001, MIN_NORMAL), 0);
    // a negative result clamps to +0 whether or not flushed
    assert_eq!(b(BinOp::SubSatFtz, 0x0000_0001, ONE), 0);
    assert_eq!(b(BinOp::AddSatFtz, ONE, ONE), ONE);
}

#[test]
fn min_max_ftz_compare_flushed_inputs() {
    assert_eq!(b(BinOp::Min, 0x0000_0005, 0x0000_0003), 0x0000_0003);
    assert_eq!(b(BinOp::MinFtz, 0x0000_0005, 0x0000_0003), 0);
    assert_eq!(b(BinOp::Max, 0x8000_0005, 0x8000_0003), 0x8000_0003);
    assert_eq!(b(BinOp::MaxFtz, 0x8000_0005, 0x8000_0003), NEG);
    assert_eq!(b(BinOp::MinFtz, 0x0000_0001, ONE), 0);
    assert_eq!(b(BinOp::MaxFtz, 0x0000_0007, ONE | NEG), 0);
    assert_eq!(b(BinOp::MaxFtz, 0x0000_0007, ONE), ONE);
    // min.NaN: a NaN operand still gives the canonical NaN; otherwise as min.ftz
    assert_eq!(b(BinOp::MinNaNFtz, 0x0000_0001, 0x7fc0_0000), 0x7fff_ffff);
    assert_eq!(b(BinOp::MinNaNFtz, 0x0000_0001, ONE), 0);
    assert_eq!(b(BinOp::MaxNaNFtz, 0x8000_0001, ONE | NEG), NEG);
}

#[test]
fn fma_ftz_flushes_all_three_inputs_and_the_result() {
    // 2^-149 * 2^23 + 0 = 2^-126 unflushed; a flushes to +0
    assert_eq!(t(TernOp::Fma, 0x0000_0001, TWO23, 0), MIN_NORMAL);
    assert_eq!(t(TernOp::FmaFtz, 0x0000_0001, TWO23, 0), 0);
    // 1 * 2^-126 + 2^-127: c flushes
    assert_eq!(t(TernOp::Fma, ONE, MIN_NORMAL, 0x0040_0000), 0x00c0_0000);
    assert_eq!(t(TernOp::FmaFtz, ONE, MIN_NORMAL, 0x0040_0000), MIN_NORMAL);
    // 0.5 * 2^-126 + 0 = 2^-127: the result flushes, keeping its sign
    assert_eq!(t(TernOp::FmaFtz, HALF, MIN_NORMAL, 0), 0);
    assert_eq!(t(TernOp::FmaFtz, HALF | NEG, MIN_NORMAL, NEG), NEG);
    // .sat keeps 2^-127, .ftz flushes it
    assert_eq!(t(TernOp::FmaSat, HALF, MIN_NORMAL, 0), 0x0040_0000);
    assert_eq!(t(TernOp::FmaSatFtz, HALF, MIN_NORMAL, 0), 0);
    // the contracted forms: a*b - c and c - a*b
    assert_eq!(t(TernOp::FmaSubC, ONE, MIN_NORMAL, 0x0040_0000), 0x0040_0000);
    assert_eq!(t(TernOp::FmaSubCFtz, ONE, MIN_NORMAL, 0x0040_0000), MIN_NORMAL);
    assert_eq!(t(TernOp::FmaNegAB, ONE, 0x0080_0001, MIN_NORMAL), 0x8000_0001);
    assert_eq!(t(TernOp::FmaNegABFtz, ONE, 0x0080_0001, MIN_NORMAL), NEG);
}

/// calibration/run/bench13/h200/fastdump.mul.csv: the H200's `mul.ftz.f32` products
/// y * cos x, y * sin x, y * rsqrt q (fastdump.cu), for all 676 elements of 65,536 whose y is
/// subnormal and every 1000th other one.
#[test]
fn h200_fastdump_products_replay() {
    let csv = include_str!("../../../calibration/run/bench13/h200/fastdump.mul.csv");
    let (mut rows, mut subnormal, mut unflushed_wrong) = (0, 0, 0);
    for line in csv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("index"))
    {
        let f: Vec<u64> = line
            .split(',')
            .skip(1)
            .map(|x| u64::from_str_radix(x, 16).unwrap())
            .collect();
        let [y, s, c, r, yc, ys, yr] = f[..] else {
            panic!("bad row {line}")
        };
        for (k, v, h200) in [(c, "c", yc), (s, "s", ys), (r, "r", yr)] {
            assert_eq!(b(BinOp::MulFtz, y, k), h200, "{line}: y*{v}");
            if b(BinOp::MulLo, y, k) != h200 {
                unflushed_wrong += 1;
            }
        }
        rows += 1;
        if y & 0x7f80_0000 == 0 && y & 0x7f_ffff != 0 {
            subnormal += 1;
        }
    }
    assert_eq!((rows, subnormal), (741, 676));
    // the rows break the unflushed alternative: every subnormal-y product differs
    assert_eq!(unflushed_wrong, 3 * 676);
}

#[test]
fn neg_abs_ftz_flush_the_operand_first() {
    use warpscope_emu::arith::un;
    use warpscope_ptx::inst::UnOp;
    let u = |op, x| un(op, Ty::F32, x);
    assert_eq!(u(UnOp::Neg, 0x0000_0001), 0x8000_0001);
    assert_eq!(u(UnOp::NegFtz, 0x0000_0001), NEG);
    assert_eq!(u(UnOp::NegFtz, 0x8000_0001), 0);
    assert_eq!(u(UnOp::Abs, 0x807f_ffff), 0x007f_ffff);
    assert_eq!(u(UnOp::AbsFtz, 0x807f_ffff), 0);
    assert_eq!(u(UnOp::AbsFtz, 0x0000_0003), 0);
    assert_eq!(u(UnOp::NegFtz, ONE), ONE | NEG);
    assert_eq!(u(UnOp::AbsFtz, MIN_NORMAL | NEG), MIN_NORMAL);
}
