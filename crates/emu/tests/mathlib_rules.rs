//! Rules of the H200's float arithmetic that the math-library table (calibration/mathlib) found,
//! each checked on rows of that measurement (`calibration/mathlib/h200/dumps.tgz`, the -O2 build;
//! the comment names the function and the row): directed rounding, NaNs, signed zeros, and
//! conversions of NaN to integers.

use warpscope_emu::arith::{bin, cvt, fround, tern, un};
use warpscope_ptx::inst::{BinOp, FRoundOp, Rnd, TernOp, Ty, UnOp};

/// Every row of the directed intrinsics (`__fadd_rz` ... `__dsqrt_ru`) whose result differs from
/// the round-to-nearest twin's, the first three per function: `(op, type, rounding, operands
/// (unused ones repeat the first), H200 result)`.
#[rustfmt::skip]
const DIRECTED: &[(FRoundOp, Ty, Rnd, [u64; 3], u64)] = {
    use FRoundOp::*;
    use Ty::*;
    &[
        (Add, F32, Rnd::Rz, [0x3f800000, 0x3dcccccd, 0x3f800000], 0x3f8ccccc), // __fadd_rz[133]
        (Add, F32, Rnd::Rz, [0x3f800000, 0x3a83126f, 0x3f800000], 0x3f8020c4), // __fadd_rz[135]
        (Add, F32, Rnd::Rz, [0x3f800000, 0x33d6bf95, 0x3f800000], 0x3f800000), // __fadd_rz[136]
        (Add, F32, Rnd::Rm, [0x00000000, 0x80000000, 0x00000000], 0x80000000), // __fadd_rd[1]
        (Add, F32, Rnd::Rm, [0x80000000, 0x00000000, 0x80000000], 0x80000000), // __fadd_rd[24]
        (Add, F32, Rnd::Rm, [0x80000000, 0x00000000, 0x80000000], 0x80000000), // __fadd_rd[43]
        (Add, F32, Rnd::Rp, [0x3f800000, 0xbdcccccd, 0x3f800000], 0x3f666667), // __fadd_ru[134]
        (Add, F32, Rnd::Rp, [0x3f800000, 0x1e3ce508, 0x3f800000], 0x3f800001), // __fadd_ru[137]
        (Add, F32, Rnd::Rp, [0x3f800000, 0x000116c2, 0x3f800000], 0x3f800001), // __fadd_ru[138]
        (Sub, F32, Rnd::Rz, [0x3f800000, 0xbdcccccd, 0x3f800000], 0x3f8ccccc), // __fsub_rz[134]
        (Sub, F32, Rnd::Rz, [0x3f800000, 0x3a83126f, 0x3f800000], 0x3f7fbe76), // __fsub_rz[135]
        (Sub, F32, Rnd::Rz, [0x3f800000, 0x1e3ce508, 0x3f800000], 0x3f7fffff), // __fsub_rz[137]
        (Sub, F32, Rnd::Rm, [0x00000000, 0x00000000, 0x00000000], 0x80000000), // __fsub_rd[0]
        (Sub, F32, Rnd::Rm, [0x00000000, 0x00000000, 0x00000000], 0x80000000), // __fsub_rd[19]
        (Sub, F32, Rnd::Rm, [0x80000000, 0x80000000, 0x80000000], 0x80000000), // __fsub_rd[25]
        (Sub, F32, Rnd::Rp, [0x3f800000, 0x3dcccccd, 0x3f800000], 0x3f666667), // __fsub_ru[133]
        (Sub, F32, Rnd::Rp, [0x3f800000, 0x33d6bf95, 0x3f800000], 0x3f7fffff), // __fsub_ru[136]
        (Sub, F32, Rnd::Rp, [0x3f800000, 0x60ad78ec, 0x3f800000], 0xe0ad78eb), // __fsub_ru[140]
        (Mul, F32, Rnd::Rz, [0x40000000, 0x7f7fc99e, 0x40000000], 0x7f7fffff), // __fmul_rz[238]
        (Mul, F32, Rnd::Rz, [0xc0000000, 0x7f7fc99e, 0xc0000000], 0xff7fffff), // __fmul_rz[262]
        (Mul, F32, Rnd::Rz, [0x40400000, 0x3dcccccd, 0x40400000], 0x3e999999), // __fmul_rz[277]
        (Mul, F32, Rnd::Rm, [0x40000000, 0x7f7fc99e, 0x40000000], 0x7f7fffff), // __fmul_rd[238]
        (Mul, F32, Rnd::Rm, [0x40400000, 0x3dcccccd, 0x40400000], 0x3e999999), // __fmul_rd[277]
        (Mul, F32, Rnd::Rm, [0x40400000, 0x33d6bf95, 0x40400000], 0x34a10faf), // __fmul_rd[280]
        (Mul, F32, Rnd::Rp, [0xc0000000, 0x7f7fc99e, 0xc0000000], 0xff7fffff), // __fmul_ru[262]
        (Mul, F32, Rnd::Rp, [0x40400000, 0xbdcccccd, 0x40400000], 0xbe999999), // __fmul_ru[278]
        (Mul, F32, Rnd::Rp, [0x40400000, 0x3a83126f, 0x40400000], 0x3b449ba7), // __fmul_ru[279]
        (Div, F32, Rnd::Rz, [0x3f800000, 0x40400000, 0x3f800000], 0x3eaaaaaa), // __fdiv_rz[131]
        (Div, F32, Rnd::Rz, [0x3f800000, 0x41200000, 0x3f800000], 0x3dcccccc), // __fdiv_rz[132]
        (Div, F32, Rnd::Rz, [0x3f800000, 0x3dcccccd, 0x3f800000], 0x411fffff), // __fdiv_rz[133]
        (Div, F32, Rnd::Rm, [0x3f800000, 0x40400000, 0x3f800000], 0x3eaaaaaa), // __fdiv_rd[131]
        (Div, F32, Rnd::Rm, [0x3f800000, 0x41200000, 0x3f800000], 0x3dcccccc), // __fdiv_rd[132]
        (Div, F32, Rnd::Rm, [0x3f800000, 0x3dcccccd, 0x3f800000], 0x411fffff), // __fdiv_rd[133]
        (Div, F32, Rnd::Rp, [0x3f800000, 0xbdcccccd, 0x3f800000], 0xc11fffff), // __fdiv_ru[134]
        (Div, F32, Rnd::Rp, [0x3f800000, 0x3a83126f, 0x3f800000], 0x447a0000), // __fdiv_ru[135]
        (Div, F32, Rnd::Rp, [0x3f800000, 0x1e3ce508, 0x3f800000], 0x60ad78ed), // __fdiv_ru[137]
        (Fma, F32, Rnd::Rz, [0x3f800000, 0x3f800000, 0x3f12bc1f], 0x3fc95e0f), // __fmaf_rz[125]
        (Fma, F32, Rnd::Rz, [0x3f800000, 0x3f000000, 0xf636fc8f], 0xf636fc8e), // __fmaf_rz[127]
        (Fma, F32, Rnd::Rz, [0x3f800000, 0xbf000000, 0x2e2bc1bd], 0xbeffffff), // __fmaf_rz[128]
        (Fma, F32, Rnd::Rm, [0x3f800000, 0x3f800000, 0x3f12bc1f], 0x3fc95e0f), // __fmaf_rd[125]
        (Fma, F32, Rnd::Rm, [0x3f800000, 0xbf800000, 0xae8ade0f], 0xbf800001), // __fmaf_rd[126]
        (Fma, F32, Rnd::Rm, [0x3f800000, 0xc0000000, 0x9b453f16], 0xc0000001), // __fmaf_rd[130]
        (Fma, F32, Rnd::Rp, [0x3f800000, 0x3f000000, 0xf636fc8f], 0xf636fc8e), // __fmaf_ru[127]
        (Fma, F32, Rnd::Rp, [0x3f800000, 0xbf000000, 0x2e2bc1bd], 0xbeffffff), // __fmaf_ru[128]
        (Fma, F32, Rnd::Rp, [0x3f800000, 0x40400000, 0x520e3dce], 0x520e3dcf), // __fmaf_ru[131]
        (Rcp, F32, Rnd::Rz, [0x40400000, 0x40400000, 0x40400000], 0x3eaaaaaa), // __frcp_rz[11]
        (Rcp, F32, Rnd::Rz, [0x41200000, 0x41200000, 0x41200000], 0x3dcccccc), // __frcp_rz[12]
        (Rcp, F32, Rnd::Rz, [0x3dcccccd, 0x3dcccccd, 0x3dcccccd], 0x411fffff), // __frcp_rz[13]
        (Rcp, F32, Rnd::Rm, [0x40400000, 0x40400000, 0x40400000], 0x3eaaaaaa), // __frcp_rd[11]
        (Rcp, F32, Rnd::Rm, [0x41200000, 0x41200000, 0x41200000], 0x3dcccccc), // __frcp_rd[12]
        (Rcp, F32, Rnd::Rm, [0x3dcccccd, 0x3dcccccd, 0x3dcccccd], 0x411fffff), // __frcp_rd[13]
        (Rcp, F32, Rnd::Rp, [0xbdcccccd, 0xbdcccccd, 0xbdcccccd], 0xc11fffff), // __frcp_ru[14]
        (Rcp, F32, Rnd::Rp, [0x3a83126f, 0x3a83126f, 0x3a83126f], 0x447a0000), // __frcp_ru[15]
        (Rcp, F32, Rnd::Rp, [0x1e3ce508, 0x1e3ce508, 0x1e3ce508], 0x60ad78ed), // __frcp_ru[17]
        (Sqrt, F32, Rnd::Rz, [0x41200000, 0x41200000, 0x41200000], 0x404a62c1), // __fsqrt_rz[12]
        (Sqrt, F32, Rnd::Rz, [0x3a83126f, 0x3a83126f, 0x3a83126f], 0x3d0186e2), // __fsqrt_rz[15]
        (Sqrt, F32, Rnd::Rz, [0x1e3ce508, 0x1e3ce508, 0x1e3ce508], 0x2edbe6fe), // __fsqrt_rz[17]
        (Sqrt, F32, Rnd::Rm, [0x41200000, 0x41200000, 0x41200000], 0x404a62c1), // __fsqrt_rd[12]
        (Sqrt, F32, Rnd::Rm, [0x3a83126f, 0x3a83126f, 0x3a83126f], 0x3d0186e2), // __fsqrt_rd[15]
        (Sqrt, F32, Rnd::Rm, [0x1e3ce508, 0x1e3ce508, 0x1e3ce508], 0x2edbe6fe), // __fsqrt_rd[17]
        (Sqrt, F32, Rnd::Rp, [0x3f000000, 0x3f000000, 0x3f000000], 0x3f3504f4), // __fsqrt_ru[7]
        (Sqrt, F32, Rnd::Rp, [0x40000000, 0x40000000, 0x40000000], 0x3fb504f4), // __fsqrt_ru[9]
        (Sqrt, F32, Rnd::Rp, [0x40400000, 0x40400000, 0x40400000], 0x3fddb3d8), // __fsqrt_ru[11]
        (Add, F64, Rnd::Rz, [0x3ff0000000000000, 0x3fb999999999999a, 0x3ff0000000000000], 0x3ff1999999999999), // __dadd_rz[133]
        (Add, F64, Rnd::Rz, [0x3ff0000000000000, 0xbfb999999999999a, 0x3ff0000000000000], 0x3feccccccccccccc), // __dadd_rz[134]
        (Add, F64, Rnd::Rz, [0x3ff0000000000000, 0x3e7ad7f29abcaf48, 0x3ff0000000000000], 0x3ff000001ad7f29a), // __dadd_rz[136]
        (Add, F64, Rnd::Rm, [0x0000000000000000, 0x8000000000000000, 0x0000000000000000], 0x8000000000000000), // __dadd_rd[1]
        (Add, F64, Rnd::Rm, [0x8000000000000000, 0x0000000000000000, 0x8000000000000000], 0x8000000000000000), // __dadd_rd[24]
        (Add, F64, Rnd::Rm, [0x3ff0000000000000, 0xbff0000000000000, 0x3ff0000000000000], 0x8000000000000000), // __dadd_rd[126]
        (Add, F64, Rnd::Rp, [0x3ff0000000000000, 0x3f50624dd2f1a9fc, 0x3ff0000000000000], 0x3ff004189374bc6b), // __dadd_ru[135]
        (Add, F64, Rnd::Rp, [0x3ff0000000000000, 0x3bc79ca10c924223, 0x3ff0000000000000], 0x3ff0000000000001), // __dadd_ru[137]
        (Add, F64, Rnd::Rp, [0x3ff0000000000000, 0x37a16c262777579c, 0x3ff0000000000000], 0x3ff0000000000001), // __dadd_ru[138]
        (Sub, F64, Rnd::Rz, [0x3ff0000000000000, 0x3fb999999999999a, 0x3ff0000000000000], 0x3feccccccccccccc), // __dsub_rz[133]
        (Sub, F64, Rnd::Rz, [0x3ff0000000000000, 0xbfb999999999999a, 0x3ff0000000000000], 0x3ff1999999999999), // __dsub_rz[134]
        (Sub, F64, Rnd::Rz, [0x3ff0000000000000, 0x3e7ad7f29abcaf48, 0x3ff0000000000000], 0x3fefffffca501aca), // __dsub_rz[136]
        (Sub, F64, Rnd::Rm, [0x0000000000000000, 0x0000000000000000, 0x0000000000000000], 0x8000000000000000), // __dsub_rd[0]
        (Sub, F64, Rnd::Rm, [0x8000000000000000, 0x8000000000000000, 0x8000000000000000], 0x8000000000000000), // __dsub_rd[25]
        (Sub, F64, Rnd::Rm, [0x3ff0000000000000, 0x3ff0000000000000, 0x3ff0000000000000], 0x8000000000000000), // __dsub_rd[125]
        (Sub, F64, Rnd::Rp, [0x3ff0000000000000, 0x3f50624dd2f1a9fc, 0x3ff0000000000000], 0x3feff7ced916872c), // __dsub_ru[135]
        (Sub, F64, Rnd::Rp, [0x3ff0000000000000, 0x4415af1d78b58c40, 0x3ff0000000000000], 0xc415af1d78b58c3f), // __dsub_ru[140]
        (Sub, F64, Rnd::Rp, [0x3ff0000000000000, 0x47d2ced32a16a1b1, 0x3ff0000000000000], 0xc7d2ced32a16a1b0), // __dsub_ru[141]
        (Mul, F64, Rnd::Rz, [0x3fe0000000000000, 0x000012688b70e62b, 0x3fe0000000000000], 0x0000093445b87315), // __dmul_rz[187]
        (Mul, F64, Rnd::Rz, [0xbfe0000000000000, 0x000012688b70e62b, 0xbfe0000000000000], 0x8000093445b87315), // __dmul_rz[211]
        (Mul, F64, Rnd::Rz, [0x4008000000000000, 0x3fb999999999999a, 0x4008000000000000], 0x3fd3333333333333), // __dmul_rz[277]
        (Mul, F64, Rnd::Rm, [0x3fe0000000000000, 0x000012688b70e62b, 0x3fe0000000000000], 0x0000093445b87315), // __dmul_rd[187]
        (Mul, F64, Rnd::Rm, [0x4008000000000000, 0x3fb999999999999a, 0x4008000000000000], 0x3fd3333333333333), // __dmul_rd[277]
        (Mul, F64, Rnd::Rm, [0x4008000000000000, 0x47d2ced32a16a1b1, 0x4008000000000000], 0x47ec363cbf21f289), // __dmul_rd[285]
        (Mul, F64, Rnd::Rp, [0xbfe0000000000000, 0x000012688b70e62b, 0xbfe0000000000000], 0x8000093445b87315), // __dmul_ru[211]
        (Mul, F64, Rnd::Rp, [0x4008000000000000, 0xbfb999999999999a, 0x4008000000000000], 0xbfd3333333333333), // __dmul_ru[278]
        (Mul, F64, Rnd::Rp, [0x4008000000000000, 0x3bc79ca10c924223, 0x4008000000000000], 0x3be1b578c96db19b), // __dmul_ru[281]
        (Div, F64, Rnd::Rz, [0x3ff0000000000000, 0x4024000000000000, 0x3ff0000000000000], 0x3fb9999999999999), // __ddiv_rz[132]
        (Div, F64, Rnd::Rz, [0x3ff0000000000000, 0x3fb999999999999a, 0x3ff0000000000000], 0x4023ffffffffffff), // __ddiv_rz[133]
        (Div, F64, Rnd::Rz, [0x3ff0000000000000, 0xbfb999999999999a, 0x3ff0000000000000], 0xc023ffffffffffff), // __ddiv_rz[134]
        (Div, F64, Rnd::Rm, [0x3ff0000000000000, 0x4024000000000000, 0x3ff0000000000000], 0x3fb9999999999999), // __ddiv_rd[132]
        (Div, F64, Rnd::Rm, [0x3ff0000000000000, 0x3fb999999999999a, 0x3ff0000000000000], 0x4023ffffffffffff), // __ddiv_rd[133]
        (Div, F64, Rnd::Rm, [0x3ff0000000000000, 0x3f50624dd2f1a9fc, 0x3ff0000000000000], 0x408f3fffffffffff), // __ddiv_rd[135]
        (Div, F64, Rnd::Rp, [0x3ff0000000000000, 0x4008000000000000, 0x3ff0000000000000], 0x3fd5555555555556), // __ddiv_ru[131]
        (Div, F64, Rnd::Rp, [0x3ff0000000000000, 0xbfb999999999999a, 0x3ff0000000000000], 0xc023ffffffffffff), // __ddiv_ru[134]
        (Div, F64, Rnd::Rp, [0x3ff0000000000000, 0x3e7ad7f29abcaf48, 0x3ff0000000000000], 0x416312d000000001), // __ddiv_ru[136]
        (Fma, F64, Rnd::Rz, [0x3ff0000000000000, 0x3fe0000000000000, 0xa757c57972e44f9e], 0x3fdfffffffffffff), // __fma_rz[127]
        (Fma, F64, Rnd::Rz, [0x3ff0000000000000, 0x4000000000000000, 0xbe055bb220f20000], 0x3fffffffffd5489b), // __fma_rz[129]
        (Fma, F64, Rnd::Rz, [0x3ff0000000000000, 0xc000000000000000, 0x74be9039a39e31a5], 0x74be9039a39e31a4), // __fma_rz[130]
        (Fma, F64, Rnd::Rm, [0x3ff0000000000000, 0x3fe0000000000000, 0xa757c57972e44f9e], 0x3fdfffffffffffff), // __fma_rd[127]
        (Fma, F64, Rnd::Rm, [0x3ff0000000000000, 0x4000000000000000, 0xbe055bb220f20000], 0x3fffffffffd5489b), // __fma_rd[129]
        (Fma, F64, Rnd::Rm, [0x3ff0000000000000, 0xc000000000000000, 0x74be9039a39e31a5], 0x74be9039a39e31a4), // __fma_rd[130]
        (Fma, F64, Rnd::Rp, [0x3ff0000000000000, 0x3ff0000000000000, 0x3e04e250339e0000], 0x3ff000000029c4a1), // __fma_ru[125]
        (Fma, F64, Rnd::Rp, [0x3ff0000000000000, 0x4024000000000000, 0x3e7b6258f0d60000], 0x40240000036c4b1f), // __fma_ru[132]
        (Fma, F64, Rnd::Rp, [0x3ff0000000000000, 0x3fb999999999999a, 0x641cb33bc6bd52eb], 0x641cb33bc6bd52ec), // __fma_ru[133]
        (Rcp, F64, Rnd::Rz, [0x4024000000000000, 0x4024000000000000, 0x4024000000000000], 0x3fb9999999999999), // __drcp_rz[12]
        (Rcp, F64, Rnd::Rz, [0x3fb999999999999a, 0x3fb999999999999a, 0x3fb999999999999a], 0x4023ffffffffffff), // __drcp_rz[13]
        (Rcp, F64, Rnd::Rz, [0xbfb999999999999a, 0xbfb999999999999a, 0xbfb999999999999a], 0xc023ffffffffffff), // __drcp_rz[14]
        (Rcp, F64, Rnd::Rm, [0x4024000000000000, 0x4024000000000000, 0x4024000000000000], 0x3fb9999999999999), // __drcp_rd[12]
        (Rcp, F64, Rnd::Rm, [0x3fb999999999999a, 0x3fb999999999999a, 0x3fb999999999999a], 0x4023ffffffffffff), // __drcp_rd[13]
        (Rcp, F64, Rnd::Rm, [0x3f50624dd2f1a9fc, 0x3f50624dd2f1a9fc, 0x3f50624dd2f1a9fc], 0x408f3fffffffffff), // __drcp_rd[15]
        (Rcp, F64, Rnd::Rp, [0x4008000000000000, 0x4008000000000000, 0x4008000000000000], 0x3fd5555555555556), // __drcp_ru[11]
        (Rcp, F64, Rnd::Rp, [0xbfb999999999999a, 0xbfb999999999999a, 0xbfb999999999999a], 0xc023ffffffffffff), // __drcp_ru[14]
        (Rcp, F64, Rnd::Rp, [0x3e7ad7f29abcaf48, 0x3e7ad7f29abcaf48, 0x3e7ad7f29abcaf48], 0x416312d000000001), // __drcp_ru[16]
        (Sqrt, F64, Rnd::Rz, [0x3fe0000000000000, 0x3fe0000000000000, 0x3fe0000000000000], 0x3fe6a09e667f3bcc), // __dsqrt_rz[7]
        (Sqrt, F64, Rnd::Rz, [0x4000000000000000, 0x4000000000000000, 0x4000000000000000], 0x3ff6a09e667f3bcc), // __dsqrt_rz[9]
        (Sqrt, F64, Rnd::Rz, [0x4024000000000000, 0x4024000000000000, 0x4024000000000000], 0x40094c583ada5b52), // __dsqrt_rz[12]
        (Sqrt, F64, Rnd::Rm, [0x3fe0000000000000, 0x3fe0000000000000, 0x3fe0000000000000], 0x3fe6a09e667f3bcc), // __dsqrt_rd[7]
        (Sqrt, F64, Rnd::Rm, [0x4000000000000000, 0x4000000000000000, 0x4000000000000000], 0x3ff6a09e667f3bcc), // __dsqrt_rd[9]
        (Sqrt, F64, Rnd::Rm, [0x4024000000000000, 0x4024000000000000, 0x4024000000000000], 0x40094c583ada5b52), // __dsqrt_rd[12]
        (Sqrt, F64, Rnd::Rp, [0x4008000000000000, 0x4008000000000000, 0x4008000000000000], 0x3ffbb67ae8584cab), // __dsqrt_ru[11]
        (Sqrt, F64, Rnd::Rp, [0x3fb999999999999a, 0x3fb999999999999a, 0x3fb999999999999a], 0x3fd43d1362484910), // __dsqrt_ru[13]
        (Sqrt, F64, Rnd::Rp, [0x3f50624dd2f1a9fc, 0x3f50624dd2f1a9fc, 0x3f50624dd2f1a9fc], 0x3fa030dc4ea03a73), // __dsqrt_ru[15]
    ]
};

#[test]
fn directed_rounding_equals_the_h200() {
    for &(op, ty, rnd, [a, b, c], want) in DIRECTED {
        let got = fround(op, ty, rnd, a, b, c);
        assert_eq!(got, want, "{op:?} {ty:?} {rnd:?} {a:#x} {b:#x} {c:#x}: {got:#x}");
    }
}

#[test]
fn nan_to_integer() {
    const F32_NAN: u64 = 0x7fc0_0000;
    const F64_NAN: u64 = 0x7ff8_0000_0000_0000;
    // lrintf/llrintf (cvt.rni.s64.f32), lround (cvt.rzi.s64.f64), f_toint row 4 and d_toint row 4
    assert_eq!(cvt(Ty::S64, Ty::F32, Rnd::Rni, false, F32_NAN), 1 << 63);
    assert_eq!(cvt(Ty::S64, Ty::F32, Rnd::Rni, false, 0xffc5_2977), 1 << 63); // f_toint row 528
    assert_eq!(cvt(Ty::S64, Ty::F64, Rnd::Rzi, false, F64_NAN), 1 << 63);
    // `(int)x % 300` of a NaN double through ldexp (d_special rows 124..): 0x80000000 gives
    // exponent -248; of a NaN float through ldexpf (f_special row 124: ldexpf(1, .) = 1): 0
    assert_eq!(cvt(Ty::S32, Ty::F64, Rnd::Rzi, false, F64_NAN), 0x8000_0000);
    assert_eq!(cvt(Ty::S32, Ty::F32, Rnd::Rzi, false, F32_NAN), 0);
    // (long)NaN of a float through scalblnf (f_special row 124: 2^-8 from -2^63 % 300)
    assert_eq!(cvt(Ty::S64, Ty::F32, Rnd::Rzi, false, F32_NAN), 1 << 63);
}

#[test]
fn signed_zeros_in_min_and_max() {
    // fmaxf(-0, +0) = +0 (f_binary row 24), fminf(+0, -0) = -0 (row 1); fmax/fmin the same
    assert_eq!(bin(BinOp::Max, Ty::F32, 0x8000_0000, 0), 0);
    assert_eq!(bin(BinOp::Min, Ty::F32, 0, 0x8000_0000), 0x8000_0000);
    assert_eq!(bin(BinOp::Max, Ty::F64, 1 << 63, 0), 0);
    assert_eq!(bin(BinOp::Min, Ty::F64, 0, 1 << 63), 1 << 63);
    assert_eq!(bin(BinOp::Max, Ty::F32, 0, 0x8000_0000), 0);
    assert_eq!(bin(BinOp::Min, Ty::F32, 0x8000_0000, 0), 0x8000_0000);
}

#[test]
fn nans_the_h200_writes() {
    // .f32: the canonical NaN for every arithmetic result
    assert_eq!(un(UnOp::Sqrt, Ty::F32, 0xbf80_0000), 0x7fff_ffff); // sqrtf(-1), f_unary row 6
    assert_eq!(un(UnOp::Rcp, Ty::F32, 0x7fc0_0000), 0x7fff_ffff); // __frcp_rn(NaN), row 4
    assert_eq!(un(UnOp::Sin, Ty::F32, 0x7f80_0000), 0x7fff_ffff); // __sinf(inf), row 2
    assert_eq!(un(UnOp::Lg2, Ty::F32, 0xbf80_0000), 0x7fff_ffff); // __log2f(-1), row 6
    assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Rpi, false, 0x7fc0_0000), 0x7fff_ffff); // ceilf(NaN)
    // copysign is a bit operation: the NaN keeps its payload (copysignf(NaN, -0), f_binary row 97)
    assert_eq!(
        bin(BinOp::CopySign, Ty::F32, 0x8000_0000, 0x7fc0_0000),
        0xffc0_0000
    );
    assert_eq!(
        bin(BinOp::CopySign, Ty::F64, 1 << 63, 0x7ff8_0000_0000_0000),
        0xfff8_0000_0000_0000
    );
    // .f64: a NaN made by the operation is the default NaN, a NaN operand comes back
    let (z, inf, nan) = (0u64, 0x7ff0_0000_0000_0000u64, 0x7ff8_0000_0000_0000u64);
    assert_eq!(bin(BinOp::Div, Ty::F64, z, z), 0xfff8_0000_0000_0000); // __ddiv_rn row 0
    assert_eq!(bin(BinOp::Div, Ty::F64, inf, inf), 0xfff8_0000_0000_0000); // row 50
    assert_eq!(bin(BinOp::Div, Ty::F64, z, nan), nan); // row 4
    assert_eq!(
        un(UnOp::Sqrt, Ty::F64, 0xbff0_0000_0000_0000),
        0xfff8_0000_0000_0000
    ); // sqrt(-1)
    assert_eq!(un(UnOp::Sqrt, Ty::F64, nan), nan);
    assert_eq!(cvt(Ty::F64, Ty::F64, Rnd::Rpi, false, nan), nan); // ceil(NaN)
    assert_eq!(
        fround(FRoundOp::Sqrt, Ty::F64, Rnd::Rz, 0xfff0_0000_0000_0000, 0, 0),
        0xfff8_0000_0000_0000
    ); // __dsqrt_rz(-inf), row 3
    assert_eq!(
        fround(FRoundOp::Add, Ty::F32, Rnd::Rz, 0x7f80_0000, 0xff80_0000, 0),
        0x7fff_ffff
    ); // __fadd_rz(inf, -inf), f_binary row 51
    assert_eq!(
        tern(TernOp::Fma, Ty::F32, 0x7fc0_0000, 0x3f80_0000, 0),
        0x7fff_ffff
    );
}

/// `rsqrt.approx.f64` as the SASS runs it (seed, cubic refinement, slow path): rows of
/// `d_unary.rsqrt` where `1/sqrt(x)` rounded twice differs (127 of the table's rows), and the
/// special operands (rows 0-6).
#[test]
fn rsqrt_approx_f64_equals_the_h200() {
    let rows: &[(u64, u64)] = &[
        (0x3fe0_0000_0000_0000, 0x3ff6_a09e_667f_3bcd), // [7]
        (0x4000_0000_0000_0000, 0x3fe6_a09e_667f_3bcd), // [9]
        (0x4008_0000_0000_0000, 0x3fe2_79a7_4590_331c), // [11]
        (0x3f50_624d_d2f1_a9fc, 0x403f_9f6e_4990_f227), // [15]
        (0x3e7a_d7f2_9abc_af48, 0x40a8_b48e_2979_3d2f), // [16]
        (0x0000_1268_8b70_e62b, 0x601d_d557_45cb_b7fa), // [19], subnormal
        (0, 0x7ff0_0000_0000_0000),
        (1 << 63, 0xfff0_0000_0000_0000),
        (0x7ff0_0000_0000_0000, 0),
        (0xfff0_0000_0000_0000, 0xfff8_0000_0000_0000),
        (0x7ff8_0000_0000_0000, 0x7ff8_0000_0000_0000),
        (0x3ff0_0000_0000_0000, 0x3ff0_0000_0000_0000),
        (0xbff0_0000_0000_0000, 0xfff8_0000_0000_0000),
    ];
    for &(x, want) in rows {
        assert_eq!(un(UnOp::Rsqrt, Ty::F64, x), want, "{x:#x}");
    }
    // the seed alone (rsqrt.approx.ftz.f64, rcp.approx.ftz.f64): a NaN gives the NaN of
    // `d_special.jn[96]`; a value has its low word zero
    assert_eq!(
        un(UnOp::RsqrtSeed64, Ty::F64, 0x7ff8_0000_0000_0000),
        0x7fff_ffff_0000_0000
    );
    assert_eq!(
        un(UnOp::RcpSeed64, Ty::F64, 0x7ff8_0000_0000_0000),
        0x7fff_ffff_0000_0000
    );
    assert_eq!(
        un(UnOp::RcpSeed64, Ty::F64, 0x4008_0000_0000_0000) & 0xffff_ffff,
        0
    );
}

/// The half modifiers the half API uses: `mul.sat`, `fma.rn.sat`, `fma.rn.relu`, `min/max.NaN`
/// (rows 0, 1, 2, 4, 5, 6, 9, 28 of `h_binary.__hmul_sat`, `__hmin_nan`, `__hmax_nan`,
/// `h_ternary.__hfma_sat`, `__hfma_relu`).
#[test]
fn half_modifiers_equal_the_h200() {
    let b = |op, x, y| bin(op, Ty::F16, x, y);
    let pairs: [(u64, u64); 8] = [
        (0, 0),
        (0, 0x8000),
        (0, 0x7c00),
        (0, 0x7fff),
        (0, 0x3c00),
        (0, 0xbc00),
        (0, 0x4000),
        (0x8000, 0x7fff),
    ];
    let mul_sat = [0, 0, 0, 0, 0, 0, 0, 0];
    let min_nan = [0, 0x8000, 0, 0x7fff, 0, 0xbc00, 0, 0x7fff];
    let max_nan = [0, 0, 0x7c00, 0x7fff, 0x3c00, 0, 0x4000, 0x7fff];
    for (k, &(x, y)) in pairs.iter().enumerate() {
        assert_eq!(b(BinOp::MulSat, x, y), mul_sat[k], "mul.sat {x:#x} {y:#x}");
        assert_eq!(b(BinOp::MinNaN, x, y), min_nan[k], "min.NaN {x:#x} {y:#x}");
        assert_eq!(b(BinOp::MaxNaN, x, y), max_nan[k], "max.NaN {x:#x} {y:#x}");
    }
    let triples: [(u64, u64, u64); 8] = [
        (0, 0, 0xcb33),
        (0, 0x8000, 0x550e),
        (0, 0x7c00, 0xc2ac),
        (0, 0x7fff, 0x0982),
        (0, 0x3c00, 0xd83d),
        (0, 0xbc00, 0xa0db),
        (0, 0x4000, 0xa597),
        (0x8000, 0x7fff, 0xdc24),
    ];
    let sat = [0, 0x3c00, 0, 0, 0, 0, 0, 0];
    let relu = [0, 0x550e, 0x7fff, 0x7fff, 0, 0, 0, 0x7fff];
    for (k, &(x, y, z)) in triples.iter().enumerate() {
        assert_eq!(
            tern(TernOp::FmaSat, Ty::F16, x, y, z),
            sat[k],
            "fma.sat {x:#x} {y:#x} {z:#x}"
        );
        assert_eq!(
            tern(TernOp::FmaRelu, Ty::F16, x, y, z),
            relu[k],
            "fma.relu {x:#x} {y:#x} {z:#x}"
        );
    }
}
