//! Pure per-lane arithmetic: the reference semantics of every ALU instruction. Values are 64-bit
//! rows; a value of a narrower type lives zero-extended in the low bits (f32 as its bits).
//! The executor calls these (or fast paths checked against them by tests) inside 32-lane loops.

use warpscope_ptx::inst::{AtomOp, BinOp, Cmp, FRoundOp, Rnd, TernOp, TestP, Ty, UnOp};

use crate::softfloat;

/// Truncates to the type's width (zero-extended).
#[inline(always)]
pub fn trunc(ty: Ty, v: u64) -> u64 {
    match ty.bytes() {
        1 => v & 0xff,
        2 => v & 0xffff,
        4 => v & 0xffff_ffff,
        _ => v,
    }
}

/// Sign-extends from the type's width to i64 (for signed types), or zero-extends.
#[inline(always)]
pub fn sext(ty: Ty, v: u64) -> i64 {
    match ty {
        Ty::S8 => v as i8 as i64,
        Ty::S16 => v as i16 as i64,
        Ty::S32 => v as i32 as i64,
        Ty::S64 => v as i64,
        _ => trunc(ty, v) as i64,
    }
}

#[inline(always)]
fn f32v(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
fn f32b(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
fn f64v(v: u64) -> f64 {
    f64::from_bits(v)
}

/// f32 result bits with NaN made canonical (`0x7fffffff`, as the GPU returns for arithmetic),
/// so results do not depend on which NaN operand the host CPU propagates.
#[inline(always)]
pub fn canon32(x: f32) -> u64 {
    if x.is_nan() {
        0x7fff_ffff
    } else {
        x.to_bits() as u64
    }
}

/// The NaN an H100 writes for `.f64` arithmetic that the operands did not bring:
/// `0xfff8000000000000` (`inf - inf`, `0 * inf`; calibration/equivalence/features/f64Nan.cu).
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// The quiet form of an f64 NaN: sign and payload kept, the quiet bit set.
#[inline(always)]
fn quiet64(x: f64) -> u64 {
    x.to_bits() | 0x0008_0000_0000_0000
}

/// `.f64` add/sub/mul/min/max result bits as the H100 gives them: unlike `.f32`, a NaN is not made
/// canonical. A NaN result is the last NaN operand in PTX order (`y` before `x`), quieted, with its
/// sign and payload; a NaN the operation made itself is [`F64_DEFAULT_NAN`]
/// (calibration/equivalence/features/f64Nan.cu: 64 NaN rows per operation on the H100).
#[inline(always)]
pub fn nan64_2(r: f64, x: f64, y: f64) -> u64 {
    if !r.is_nan() {
        r.to_bits()
    } else if y.is_nan() {
        quiet64(y)
    } else if x.is_nan() {
        quiet64(x)
    } else {
        F64_DEFAULT_NAN
    }
}

/// `fma.f64` result bits as the H100 gives them: a NaN result is the last NaN operand (`c`, then
/// `b`, then `a`), quieted; otherwise [`F64_DEFAULT_NAN`]. (Measured: `b` over `a` and `c` over
/// `a`.) The PTX does not fix which NaN wins of `b` and `c`: the machine code's `DFMA` takes its
/// `b` over its `c` ([`dfma_nan`]), and ptxas may swap an fma's factors, so no PTX-level order
/// holds for every build (calibration/mathlib: this order leaves the -O2 table's `j0`, `j1`,
/// `y0`, `y1` of a NaN equal to the H200 and the -G build's listed; `b` first reverses both).
#[inline(always)]
pub fn nan64_3(r: f64, x: f64, y: f64, z: f64) -> u64 {
    if !r.is_nan() {
        r.to_bits()
    } else if z.is_nan() {
        quiet64(z)
    } else {
        nan64_2(r, x, y)
    }
}

/// A machine-code `DFMA a, b, c`'s result bits, in the machine code's operand order: a NaN result
/// is a NaN operand quieted, `b` first, then `c`, then `a`; otherwise [`F64_DEFAULT_NAN`]
/// (the H200's 64 of 64 rows of `DFMA R12, R8, R4, R12` with three NaNs, calibration/fmanan/;
/// `b` over `a` and `c` over `a` as the H100's calibration/equivalence/features/f64Nan.cu).
#[inline(always)]
pub fn dfma_nan(r: f64, a: f64, b: f64, c: f64) -> u64 {
    if !r.is_nan() {
        r.to_bits()
    } else if b.is_nan() {
        quiet64(b)
    } else {
        nan64_3(r, a, b, c)
    }
}

/// f64 result bits with NaN made canonical (`0x7fffffffffffffff`).
#[inline(always)]
pub fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        0x7fff_ffff_ffff_ffff
    } else {
        x.to_bits()
    }
}

fn bits(ty: Ty) -> u32 {
    ty.bytes() * 8
}

/// Value of a half-precision (`F16`/`BF16`) bit pattern (exact).
pub fn half_to_f64(ty: Ty, h: u64) -> f64 {
    let h = h as u16;
    if ty == Ty::BF16 {
        return f32::from_bits((h as u32) << 16) as f64;
    }
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// Rounds `x` to a binary format with `ebits` exponent and `mbits` fraction bits (one rounding,
/// directed modes honoured; NaN becomes the canonical `0x7fff`). Returns the bit pattern.
pub fn narrow_f64(x: f64, ebits: u32, mbits: u32, rnd: Rnd) -> u64 {
    let bias = (1i64 << (ebits - 1)) - 1;
    let sign = (x.is_sign_negative() as u64) << (ebits + mbits);
    let inf = ((1u64 << ebits) - 1) << mbits;
    let max_finite = inf - 1;
    if x.is_nan() {
        return (1u64 << (ebits + mbits)) - 1;
    }
    let up_away = |neg: bool| match rnd {
        Rnd::Rz | Rnd::Rzi => false,
        Rnd::Rm | Rnd::Rmi => neg,
        Rnd::Rp | Rnd::Rpi => !neg,
        _ => true,
    };
    let neg = sign != 0;
    if x.is_infinite() {
        return sign | inf;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let b = a.to_bits();
    let (m, e) = if b >> 52 == 0 {
        (b & ((1 << 52) - 1), -1074i64)
    } else {
        ((b & ((1 << 52) - 1)) | (1 << 52), (b >> 52) as i64 - 1075)
    };
    // a = m * 2^e; the quantum of the result around a
    let lead = 63 - m.leading_zeros() as i64 + e;
    let mut q = lead.max(1 - bias) - mbits as i64;
    let sh = q - e;
    let mut r = if sh <= 0 {
        m << (-sh) as u32
    } else if sh >= 64 {
        u64::from(match rnd {
            Rnd::Rz | Rnd::Rzi => false,
            Rnd::Rm | Rnd::Rmi | Rnd::Rp | Rnd::Rpi => up_away(neg),
            _ => false,
        })
    } else {
        let keep = m >> sh;
        let rem = m & ((1u64 << sh) - 1);
        let half = 1u64 << (sh - 1);
        let inc = if rem == 0 {
            false
        } else {
            match rnd {
                Rnd::Rz | Rnd::Rzi | Rnd::Rm | Rnd::Rmi | Rnd::Rp | Rnd::Rpi => up_away(neg),
                _ => rem > half || (rem == half && keep & 1 == 1),
            }
        };
        keep + u64::from(inc)
    };
    if r >> (mbits + 1) != 0 {
        r >>= 1;
        q += 1;
    }
    if r < (1u64 << mbits) {
        return sign | r; // subnormal (or zero)
    }
    let ef = q + mbits as i64 + bias;
    if ef >= (1i64 << ebits) - 1 {
        return sign | if up_away(neg) { inf } else { max_finite };
    }
    sign | (ef as u64) << mbits | (r & ((1u64 << mbits) - 1))
}

/// Rounds to a half type (`F16`: 5/10 bits, `BF16`: 8/7 bits).
pub fn to_half(ty: Ty, x: f64, rnd: Rnd) -> u64 {
    if ty == Ty::BF16 {
        narrow_f64(x, 8, 7, rnd)
    } else {
        narrow_f64(x, 5, 10, rnd)
    }
}

/// `a * b + c` rounded to odd in f64 (the product of two half values is exact in f64), so that a
/// second rounding to a half type is correct.
fn fma_round_odd(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return s;
    }
    // TwoSum: p + c == s + err exactly
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    if err == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    let toward_up = (err > 0.0) == (s > 0.0) || s == 0.0;
    let bits = s.to_bits();
    f64::from_bits(if toward_up && s != 0.0 {
        bits + 1
    } else if s != 0.0 {
        bits - 1
    } else {
        bits
    })
}

/// `.sat` on a float: clamps to [+0.0, 1.0], NaN and -0.0 to +0.0 (as PTX says and the H100
/// does: calibration/equivalence/features/half2Ops.cu).
pub fn sat01(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        0.0
    } else if x >= 1.0 {
        1.0
    } else {
        x
    }
}

/// Whether half bits `h` (`.f16` or `.bf16`) are a NaN.
fn half_is_nan(ty: Ty, h: u64) -> bool {
    let h = h as u16;
    if ty == Ty::BF16 {
        h & 0x7f80 == 0x7f80 && h & 0x7f != 0
    } else {
        h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
    }
}

/// `.ftz` on an `.f32` value (PTX ISA, "Subnormal numbers"): a subnormal becomes the zero of
/// its sign; any other value, NaNs included, is kept.
pub fn ftz32(v: u64) -> u64 {
    let v = v as u32;
    if v & 0x7f80_0000 == 0 {
        u64::from(v & 0x8000_0000)
    } else {
        u64::from(v)
    }
}

/// Binary operation.
pub fn bin(op: BinOp, ty: Ty, a: u64, b: u64) -> u64 {
    if matches!(ty, Ty::F16 | Ty::BF16) {
        let (x, y) = (half_to_f64(ty, a), half_to_f64(ty, b));
        let r = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::MulLo => x * y,
            BinOp::AddSat => sat01(x + y),
            BinOp::SubSat => sat01(x - y),
            BinOp::Min => fmin(x, y),
            BinOp::Max => fmax(x, y),
            // H200 (`__hmul_sat`, `__hmin_nan`, `__hmax_nan`): products clamped, NaN to +0; a
            // NaN operand of min/max.NaN gives the canonical NaN
            BinOp::MulSat => sat01(x * y),
            BinOp::MinNaN | BinOp::MaxNaN if x.is_nan() || y.is_nan() => return 0x7fff,
            BinOp::MinNaN => fmin(x, y),
            BinOp::MaxNaN => fmax(x, y),
            _ => return trunc(ty, a),
        };
        // exact in f64 for F16; for BF16 one f64 rounding then one narrow rounding is innocuous
        // for +, -, * (53 >= 2 * 8 + 2)
        return to_half(ty, r, Rnd::Rn);
    }
    if ty == Ty::F32 {
        if let Some(base) = op.without_ftz() {
            return ftz32(bin(base, ty, ftz32(a), ftz32(b)));
        }
        let (a32, b32) = (a as u32, b as u32);
        match op {
            BinOp::DivFull => return crate::mufu::div_full(a32, b32, false) as u64,
            BinOp::DivFullFtz => return crate::mufu::div_full(a32, b32, true) as u64,
            BinOp::DivApprox => return crate::mufu::div_approx(a32, b32, false) as u64,
            BinOp::DivApproxFtz => return crate::mufu::div_approx(a32, b32, true) as u64,
            _ => {}
        }
        let (x, y) = (f32v(a), f32v(b));
        return canon32(match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::MulLo | BinOp::MulWide | BinOp::MulHi | BinOp::Mul24Lo => x * y,
            BinOp::Div => x / y,
            BinOp::Min => fmin(x as f64, y as f64) as f32,
            BinOp::Max => fmax(x as f64, y as f64) as f32,
            // a bit operation: a NaN magnitude keeps its payload (H200, copysignf of NaN rows)
            BinOp::CopySign => return (b & 0x7fff_ffff) | (a & 0x8000_0000),
            BinOp::AddSat => sat01(f64::from(x + y)) as f32,
            BinOp::SubSat => sat01(f64::from(x - y)) as f32,
            BinOp::MulSat => sat01(f64::from(x * y)) as f32,
            BinOp::MinNaN | BinOp::MaxNaN if x.is_nan() || y.is_nan() => f32::NAN,
            BinOp::MinNaN => fmin(x as f64, y as f64) as f32,
            BinOp::MaxNaN => fmax(x as f64, y as f64) as f32,
            _ => return a,
        });
    }
    if ty == Ty::F64 {
        let (x, y) = (f64v(a), f64v(b));
        return match op {
            BinOp::Add => nan64_2(x + y, x, y),
            BinOp::Sub => nan64_2(x - y, x, y),
            BinOp::MulLo | BinOp::MulWide | BinOp::MulHi | BinOp::Mul24Lo => nan64_2(x * y, x, y),
            BinOp::Min => nan64_2(fmin(x, y), x, y),
            BinOp::Max => nan64_2(fmax(x, y), x, y),
            // `div.rn.f64` (a subroutine in SASS) writes NaNs as the other arithmetic does:
            // 0/0 and inf/inf give the default NaN, a NaN operand comes back (H200 `__ddiv_rn`)
            BinOp::Div => nan64_2(x / y, x, y),
            BinOp::CopySign => (b & !(1 << 63)) | (a & 1 << 63),
            _ => canon64(match op {
                BinOp::AddSat | BinOp::SubSat => x,
                _ => return a,
            }),
        };
    }
    let n = bits(ty);
    let s = ty.signed();
    let (sa, sb) = (sext(ty, a), sext(ty, b));
    let (ua, ub) = (trunc(ty, a), trunc(ty, b));
    let r: u64 = match op {
        BinOp::Add => ua.wrapping_add(ub),
        BinOp::Sub => ua.wrapping_sub(ub),
        BinOp::AddSat => (sa as i32).saturating_add(sb as i32) as u32 as u64,
        BinOp::SubSat => (sa as i32).saturating_sub(sb as i32) as u32 as u64,
        BinOp::MulLo => ua.wrapping_mul(ub),
        BinOp::MulHi => {
            if s {
                ((sa as i128 * sb as i128) >> n) as u64
            } else {
                ((ua as u128 * ub as u128) >> n) as u64
            }
        }
        BinOp::MulWide => {
            // result is twice the width: do not truncate to `ty`
            return if s {
                (sa as i128 * sb as i128) as u64 & wide_mask(n)
            } else {
                (ua as u128 * ub as u128) as u64 & wide_mask(n)
            };
        }
        BinOp::Mul24Lo => {
            let x = (sa << 40) >> 40;
            let y = (sb << 40) >> 40;
            if s {
                x.wrapping_mul(y) as u64
            } else {
                (ua & 0xff_ffff).wrapping_mul(ub & 0xff_ffff)
            }
        }
        BinOp::Div => {
            if ub == 0 {
                u64::MAX
            } else if s {
                sa.wrapping_div(sb) as u64
            } else {
                ua / ub
            }
        }
        BinOp::Rem => {
            if ub == 0 {
                ua
            } else if s {
                sa.wrapping_rem(sb) as u64
            } else {
                ua % ub
            }
        }
        BinOp::Min => {
            if s {
                sa.min(sb) as u64
            } else {
                ua.min(ub)
            }
        }
        BinOp::Max => {
            if s {
                sa.max(sb) as u64
            } else {
                ua.max(ub)
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            let sh = b as u32;
            if sh >= n { 0 } else { ua << sh }
        }
        BinOp::Shr => {
            let sh = (b as u32).min(n - 1 + u32::from(!s));
            if s {
                if sh >= n {
                    (sa >> (n - 1)) as u64
                } else {
                    (sa >> sh) as u64
                }
            } else if sh >= n {
                0
            } else {
                ua >> sh
            }
        }
        BinOp::CopySign | BinOp::MulSat | BinOp::MinNaN | BinOp::MaxNaN => a,
        BinOp::DivFull | BinOp::DivFullFtz | BinOp::DivApprox | BinOp::DivApproxFtz => a,
        // `.ftz` forms are `.f32` alone (the lowering makes them for `.f32` only)
        BinOp::AddFtz
        | BinOp::AddSatFtz
        | BinOp::SubFtz
        | BinOp::SubSatFtz
        | BinOp::MulFtz
        | BinOp::MulSatFtz
        | BinOp::MinFtz
        | BinOp::MaxFtz
        | BinOp::MinNaNFtz
        | BinOp::MaxNaNFtz => a,
        BinOp::BmskClamp | BinOp::BmskWrap => {
            let (pos, width) = if op == BinOp::BmskClamp {
                ((ua as u32).min(32), (ub as u32).min(32))
            } else {
                (ua as u32 & 31, ub as u32 & 31)
            };
            // ones from bit `pos` up to (not including) bit `pos + width`, within 32 bits
            let low = |k: u32| if k >= 32 { 0xffff_ffffu64 } else { (1u64 << k) - 1 };
            low(pos + width) & !low(pos)
        }
    };
    trunc(ty, r)
}

fn wide_mask(n: u32) -> u64 {
    if n >= 32 { u64::MAX } else { (1u64 << (2 * n)) - 1 }
}

/// PTX min/max: if one operand is NaN, the other is returned; `-0.0` is below `+0.0` (H200:
/// `fminf(+0, -0) = -0`, `fmaxf(-0, +0) = +0`, and the same for `.f64`).
fn fmin(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else if x == y {
        if x.is_sign_negative() { x } else { y }
    } else {
        x.min(y)
    }
}
fn fmax(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else if x == y {
        if x.is_sign_negative() { y } else { x }
    } else {
        x.max(y)
    }
}

/// A float operation rounded in direction `rnd` ([`FRoundOp`]; `b`, `c` unused by the unary
/// ones), with the NaN the GPU writes: `.f32` the canonical `0x7fffffff` (H200: `__fadd_rz`,
/// `__fdiv_rd`, `__fsqrt_ru`, ... of NaNs), `.f64` as its round-to-nearest twin ([`nan64_2`],
/// [`nan64_3`]; `sqrt`/`rcp` return a NaN operand quieted, else the default NaN).
pub fn fround(op: FRoundOp, ty: Ty, rnd: Rnd, a: u64, b: u64, c: u64) -> u64 {
    let (f, a, b, c) = if ty == Ty::F32 {
        (softfloat::F32, a & 0xffff_ffff, b & 0xffff_ffff, c & 0xffff_ffff)
    } else {
        (softfloat::F64, a, b, c)
    };
    let r = match op {
        FRoundOp::Add => softfloat::add(f, a, b, rnd),
        FRoundOp::Sub => softfloat::sub(f, a, b, rnd),
        FRoundOp::Mul => softfloat::mul(f, a, b, rnd),
        FRoundOp::Fma => softfloat::fma(f, a, b, c, rnd),
        FRoundOp::Div => softfloat::div(f, a, b, rnd),
        FRoundOp::Rcp => softfloat::rcp(f, a, rnd),
        FRoundOp::Sqrt => softfloat::sqrt(f, a, rnd),
    };
    if !f.is_nan(r) {
        return r;
    }
    if ty == Ty::F32 {
        return 0x7fff_ffff;
    }
    let nan = f64::NAN;
    let (x, y, z) = (f64v(a), f64v(b), f64v(c));
    match op {
        FRoundOp::Fma => nan64_3(nan, x, y, z),
        FRoundOp::Rcp | FRoundOp::Sqrt => nan64_1(nan, x),
        _ => nan64_2(nan, x, y),
    }
}

/// A one-operand `.f64` result's bits: a NaN operand quieted, or the default NaN for a NaN the
/// operation made (H200: `__dsqrt_rn(-1)` and `sqrt(-inf)` give `0xfff8000000000000`).
#[inline(always)]
pub fn nan64_1(r: f64, x: f64) -> u64 {
    if !r.is_nan() {
        r.to_bits()
    } else if x.is_nan() {
        quiet64(x)
    } else {
        F64_DEFAULT_NAN
    }
}

/// Unary operation.
pub fn un(op: UnOp, ty: Ty, a: u64) -> u64 {
    match op {
        UnOp::F32ToE4m3 => return u64::from(f32_to_fp8(f32v(a), FP8_E4M3)),
        UnOp::F32ToE5m2 => return u64::from(f32_to_fp8(f32v(a), FP8_E5M2)),
        UnOp::E4m3ToF16 => return fp8_to_f16(a as u8, FP8_E4M3),
        UnOp::E5m2ToF16 => return fp8_to_f16(a as u8, FP8_E5M2),
        UnOp::NegFtz if ty == Ty::F32 => return un(UnOp::Neg, ty, ftz32(a)),
        UnOp::AbsFtz if ty == Ty::F32 => return un(UnOp::Abs, ty, ftz32(a)),
        _ => {}
    }
    if matches!(ty, Ty::F16 | Ty::BF16) {
        // The H100 returns the canonical NaN 0x7fff for neg and abs of a NaN.
        return match op {
            // MUFU.TANH.F16/.BF16, MUFU.EX2.F16/.BF16 (the H200's tables, crate::mufu)
            UnOp::Tanh | UnOp::Ex2 => crate::mufu::half(op == UnOp::Ex2, ty == Ty::BF16, a as u16) as u64,
            UnOp::Neg | UnOp::Abs if half_is_nan(ty, a) => 0x7fff,
            UnOp::Neg => (a ^ 0x8000) & 0xffff,
            UnOp::Abs => a & 0x7fff,
            _ => a & 0xffff,
        };
    }
    if ty == Ty::F64 {
        match op {
            UnOp::RcpSeed64 => return rcp_seed64(a),
            UnOp::RsqrtSeed64 => return rsqrt_seed64(a),
            UnOp::Rsqrt => return rsqrt_approx64(a),
            _ => {}
        }
    }
    if ty == Ty::F32 {
        match op {
            UnOp::RcpApproxFtz => return crate::mufu::rcp(a as u32) as u64,
            UnOp::RcpApprox => return crate::mufu::rcp_approx(a as u32) as u64,
            UnOp::RsqrtFtz
            | UnOp::Rsqrt
            | UnOp::SqrtApproxFtz
            | UnOp::SqrtApprox
            | UnOp::Ex2Ftz
            | UnOp::Ex2
            | UnOp::Lg2Ftz
            | UnOp::Lg2
            | UnOp::Sin
            | UnOp::Cos
            | UnOp::Tanh => {
                return crate::mufu::approx(op, a as u32) as u64;
            }
            _ => {}
        }
    }
    if ty.float() {
        let x = if ty == Ty::F32 { f32v(a) as f64 } else { f64v(a) };
        let r = match op {
            // a value of a narrow type lives zero-extended (the executor always truncated)
            UnOp::Mov => return trunc(ty, a),
            UnOp::Neg => -x,
            UnOp::Abs => x.abs(),
            UnOp::Rcp => 1.0 / x,
            UnOp::Sqrt => x.sqrt(),
            UnOp::Rsqrt => 1.0 / x.sqrt(),
            UnOp::Ex2 => x.exp2(),
            UnOp::Lg2 => x.log2(),
            UnOp::Sin => x.sin(),
            UnOp::Cos => x.cos(),
            UnOp::Tanh => x.tanh(),
            _ => return a,
        };
        return if ty == Ty::F32 {
            // single-precision ops round once to f32 (exact for neg/abs/sqrt/rcp)
            f32b(match op {
                // neg and abs of a NaN give the canonical NaN on the H100 (nanRules.cu)
                UnOp::Neg => f32::from_bits(canon32(-f32v(a)) as u32),
                UnOp::Abs => f32::from_bits(canon32(f32v(a).abs()) as u32),
                // every other `.f32` NaN is the canonical one (H200: sqrtf, __frcp_rn, __sinf,
                // __log2f of NaN or of values outside the domain)
                UnOp::Sqrt => f32::from_bits(canon32(f32v(a).sqrt()) as u32),
                UnOp::Rcp => f32::from_bits(canon32(1.0 / f32v(a)) as u32),
                _ => f32::from_bits(canon32(r as f32) as u32),
            })
        } else if matches!(op, UnOp::Neg | UnOp::Abs) && x.is_nan() {
            // neg and abs of an f64 NaN return it quieted, sign and payload kept (H100, nanRules.cu)
            a | 1 << 51
        } else {
            nan64_1(r, x)
        };
    }
    let n = bits(ty);
    let u = trunc(ty, a);
    let r = match op {
        UnOp::Mov => u,
        UnOp::Neg => u.wrapping_neg(),
        UnOp::Abs => sext(ty, a).unsigned_abs(),
        UnOp::Not => !u,
        UnOp::Cnot => u64::from(u == 0),
        UnOp::Popc => u.count_ones() as u64,
        UnOp::Clz => (u.leading_zeros() - (64 - n)) as u64,
        UnOp::Brev => u.reverse_bits() >> (64 - n),
        UnOp::Bfind | UnOp::BfindShift => {
            let v = if ty.signed() && sext(ty, a) < 0 {
                !u & trunc(ty, u64::MAX)
            } else {
                u
            };
            if v == 0 {
                0xffff_ffff
            } else if op == UnOp::BfindShift {
                // the position counted from the top of the `n`-bit type
                u64::from(v.leading_zeros() - (64 - n))
            } else {
                (63 - v.leading_zeros()) as u64
            }
        }
        _ => u,
    };
    if matches!(op, UnOp::Popc | UnOp::Clz | UnOp::Bfind | UnOp::BfindShift) {
        r & 0xffff_ffff
    } else {
        trunc(ty, r)
    }
}

/// An fp8 format: exponent bias, mantissa bits, the largest finite value and its code.
#[derive(Clone, Copy)]
struct Fp8 {
    bias: i32,
    mbits: i32,
    max: f64,
    max_code: u8,
}

/// e4m3: no infinities, `0x7f` NaN, largest 448 (`0x7e`).
const FP8_E4M3: Fp8 = Fp8 {
    bias: 7,
    mbits: 3,
    max: 448.0,
    max_code: 0x7e,
};
/// e5m2: IEEE-like (`0x7c` infinity), largest finite 57344 (`0x7b`).
const FP8_E5M2: Fp8 = Fp8 {
    bias: 15,
    mbits: 2,
    max: 57344.0,
    max_code: 0x7b,
};

/// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`, one value: rounded to nearest even on the format's grid
/// (subnormals included), anything beyond the largest finite value (infinities too) saturated
/// to it with its sign, a NaN the NaN `0x7f` (PTX ISA: `.satfinite` keeps NaN a NaN).
fn f32_to_fp8(x: f32, f: Fp8) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
    let ax = f64::from(x.abs());
    if ax == 0.0 {
        return sign;
    }
    let emin = 1 - f.bias;
    // the spacing of the grid at ax: 2^(max(exponent, emin) - mbits); dividing by it is exact
    if ax.is_infinite() {
        return sign | f.max_code;
    }
    // the exponent of a normal f64 (every f32 is one), read off its bits
    let exp = |v: f64| ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let e = exp(ax).max(emin);
    let step = 2f64.powi(e - f.mbits);
    let n = (ax / step).round_ties_even();
    let v = n * step;
    if v > f.max {
        return sign | f.max_code;
    }
    if v < 2f64.powi(emin) {
        // subnormal (or the smallest normal when n reached 2^mbits: the same code)
        return sign | n as u8;
    }
    let e2 = exp(v);
    let mant = (v / 2f64.powi(e2 - f.mbits)) as i32 - (1 << f.mbits);
    sign | (((e2 + f.bias) << f.mbits) | mant) as u8
}

/// `cvt.rn.f16x2.{e4m3x2,e5m2x2}`, one value: every fp8 value is an `.f16` (e5m2 is `.f16`'s
/// top byte); a NaN of either format, of either sign, gives the canonical `0x7fff` (an H200,
/// calibration/fp8: e5m2 0x7d..0x7f and 0xfd..0xff, e4m3 0x7f and 0xff).
fn fp8_to_f16(b: u8, f: Fp8) -> u64 {
    if f.mbits == 2 {
        return if b & 0x7f > 0x7c {
            0x7fff
        } else {
            u64::from(b) << 8
        };
    }
    let sign = u64::from(b & 0x80) << 8;
    let (e, m) = (i32::from((b >> 3) & 0xf), i32::from(b & 7));
    if e == 0xf && m == 7 {
        return 0x7fff;
    }
    let v = if e == 0 {
        f64::from(m) * 2f64.powi(1 - f.bias - f.mbits)
    } else {
        f64::from(8 + m) * 2f64.powi(e - f.bias - f.mbits)
    };
    sign | to_half(Ty::F16, v, Rnd::Rn)
}

/// `rcp.approx.ftz.f64` (one MUFU.RCP64H, the low word zero): the H200's unit on the operand's
/// high word ([`crate::mufu::rcp64h`]).
pub fn rcp_seed64(a: u64) -> u64 {
    u64::from(crate::mufu::rcp64h((a >> 32) as u32)) << 32
}

/// `rsqrt.approx.ftz.f64` (one MUFU.RSQ64H, the low word zero): the H200's unit on the operand's
/// high word ([`crate::mufu::rsq64h`]).
pub fn rsqrt_seed64(a: u64) -> u64 {
    u64::from(crate::mufu::rsq64h((a >> 32) as u32)) << 32
}

/// `rsqrt.approx.f64` as ptxas expands it for sm_90: the MUFU.RSQ64H seed `y` ([`rsqrt_seed64`]),
/// then `e = fma(x, -(y*y), 1)`, `y + (e*(3/8) + 1/2) * (y*e)` in round-to-nearest steps; a
/// subnormal `x` is scaled by 2^54 first (and the result by 2^27); `+-0` gives `+-inf`, `+inf`
/// gives `+0`, a negative `x` the default NaN, a NaN `x + x` (read from the SASS of cuobjdump).
pub fn rsqrt_approx64(a: u64) -> u64 {
    let x = f64v(a);
    if x.is_nan() {
        return quiet64(x);
    }
    if x == 0.0 {
        return (a & 1 << 63) | 0x7ff0_0000_0000_0000;
    }
    if x < 0.0 {
        return F64_DEFAULT_NAN;
    }
    if x.is_infinite() {
        return 0;
    }
    let step = |x: f64| {
        let y = f64v(rsqrt_seed64(x.to_bits()));
        let e = x.mul_add(-(y * y), 1.0);
        let c = e.mul_add(0.375, 0.5);
        c.mul_add(y * e, y)
    };
    if x.is_subnormal() || a >> 52 == 0 {
        (step(x * 2f64.powi(54)) * 2f64.powi(27)).to_bits()
    } else {
        step(x).to_bits()
    }
}

/// Byte `k` of `v`'s low word, sign-extended when `signed` (the SIMD video instructions).
fn simd_byte(v: u64, k: u32, signed: bool) -> i64 {
    let b = (v >> (8 * k)) & 0xff;
    if signed { b as u8 as i8 as i64 } else { b as i64 }
}

/// `fns.b32`: the PTX ISA's definition (a base above 31 is undefined there; here it finds no bit).
fn fns(mask: u32, base: u32, offset: i32) -> u64 {
    let set = |pos: u32| pos < 32 && (mask >> pos) & 1 == 1;
    if offset == 0 {
        return if set(base) { u64::from(base) } else { 0xffff_ffff };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = i64::from(base);
    while (0..32).contains(&pos) {
        if set(pos as u32) {
            if count == 0 {
                return pos as u64;
            }
            count -= 1;
        }
        pos += if offset > 0 { 1 } else { -1 };
    }
    0xffff_ffff
}

/// Ternary operation.
pub fn tern(op: TernOp, ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    if let Some(base) = op.without_ftz() {
        return ftz32(tern(base, ty, ftz32(a), ftz32(b), ftz32(c)));
    }
    match op {
        TernOp::Fma if matches!(ty, Ty::F16 | Ty::BF16) => to_half(
            ty,
            fma_round_odd(half_to_f64(ty, a), half_to_f64(ty, b), half_to_f64(ty, c)),
            Rnd::Rn,
        ),
        TernOp::FmaSat | TernOp::FmaRelu if matches!(ty, Ty::F16 | Ty::BF16) => {
            let r = fma_round_odd(half_to_f64(ty, a), half_to_f64(ty, b), half_to_f64(ty, c));
            if op == TernOp::FmaSat {
                to_half(ty, sat01(r), Rnd::Rn)
            } else if r.is_nan() {
                0x7fff
            } else {
                to_half(ty, r.max(0.0), Rnd::Rn)
            }
        }
        // handled above, before the match
        TernOp::FmaFtz | TernOp::FmaSatFtz | TernOp::FmaSubCFtz | TernOp::FmaNegABFtz => a,
        TernOp::FmaSat | TernOp::FmaRelu => {
            if ty == Ty::F32 {
                f32b(sat01(f64::from(f32v(a).mul_add(f32v(b), f32v(c)))) as f32)
            } else {
                sat01(f64v(a).mul_add(f64v(b), f64v(c))).to_bits()
            }
        }
        // ptxas's contraction of `mul` and `sub`: FFMA/DFMA with a negated operand (the sign bit
        // flipped, as the hardware's operand negation does, NaN payloads included)
        TernOp::FmaSubC => {
            let neg = if ty == Ty::F32 { 1 << 31 } else { 1 << 63 };
            tern(TernOp::Fma, ty, a, b, c ^ neg)
        }
        TernOp::FmaNegAB => {
            let neg = if ty == Ty::F32 { 1 << 31 } else { 1 << 63 };
            tern(TernOp::Fma, ty, a ^ neg, b, c)
        }
        TernOp::DivFullAdd => u64::from(crate::mufu::div_full_add(a as u32, b as u32, c as u32)),
        TernOp::Fma => {
            if ty == Ty::F32 {
                canon32(f32v(a).mul_add(f32v(b), f32v(c)))
            } else {
                let (x, y, z) = (f64v(a), f64v(b), f64v(c));
                nan64_3(x.mul_add(y, z), x, y, z)
            }
        }
        TernOp::MadLo => trunc(ty, bin(BinOp::MulLo, ty, a, b).wrapping_add(trunc(ty, c))),
        TernOp::MadHi => trunc(ty, bin(BinOp::MulHi, ty, a, b).wrapping_add(trunc(ty, c))),
        TernOp::MadWide => bin(BinOp::MulWide, ty, a, b).wrapping_add(c) & wide_mask(bits(ty)),
        TernOp::Mad24Lo => trunc(ty, bin(BinOp::Mul24Lo, ty, a, b).wrapping_add(trunc(ty, c))),
        TernOp::Bfe => {
            let n = bits(ty);
            let pos = (b & 0xff) as u32;
            let len = (c & 0xff) as u32;
            let u = trunc(ty, a);
            let sbit = if ty.signed() {
                if len == 0 {
                    false
                } else {
                    let p = (pos + len - 1).min(n - 1);
                    (u >> p) & 1 == 1
                }
            } else {
                false
            };
            let mut d = 0u64;
            for i in 0..n {
                let bit = if i < len && pos + i < n {
                    (u >> (pos + i)) & 1
                } else {
                    u64::from(sbit)
                };
                d |= bit << i;
            }
            trunc(ty, d)
        }
        TernOp::Fns => fns(a as u32, b as u32, c as u32 as i32),
        TernOp::ShfL | TernOp::ShfLClamp | TernOp::ShfR | TernOp::ShfRClamp => {
            let x = (a as u32 as u64) | ((b as u32 as u64) << 32);
            let n = if matches!(op, TernOp::ShfL | TernOp::ShfR) {
                c as u32 & 31
            } else {
                (c as u32).min(32)
            };
            if matches!(op, TernOp::ShfL | TernOp::ShfLClamp) {
                (x << n) >> 32
            } else {
                (x >> n) & 0xffff_ffff
            }
        }
        TernOp::Sad => {
            let d = if ty.signed() {
                (sext(ty, a) - sext(ty, b)).unsigned_abs()
            } else {
                trunc(ty, a).abs_diff(trunc(ty, b))
            };
            trunc(ty, d.wrapping_add(c))
        }
        TernOp::Prmt => {
            let x = (a as u32 as u64) | ((b as u32 as u64) << 32);
            let sel = c as u32;
            let mut d = 0u32;
            for i in 0..4 {
                let s = (sel >> (4 * i)) & 0xf;
                let byte = ((x >> (8 * (s & 7))) & 0xff) as u32;
                let byte = if s & 8 != 0 {
                    if byte & 0x80 != 0 { 0xff } else { 0 }
                } else {
                    byte
                };
                d |= byte << (8 * i);
            }
            d as u64
        }
        TernOp::PrmtF4e
        | TernOp::PrmtB4e
        | TernOp::PrmtRc8
        | TernOp::PrmtEcl
        | TernOp::PrmtEcr
        | TernOp::PrmtRc16 => {
            let x = (a as u32 as u64) | ((b as u32 as u64) << 32);
            let c = (c & 3) as usize;
            // source byte of d.b0..d.b3 (PTX ISA prmt table)
            let sel: [usize; 4] = match op {
                TernOp::PrmtF4e => [c, c + 1, c + 2, c + 3],
                TernOp::PrmtB4e => [c, (c + 7) % 8, (c + 6) % 8, (c + 5) % 8],
                TernOp::PrmtRc8 => [c; 4],
                TernOp::PrmtEcl => [c, c.max(1), c.max(2), 3],
                TernOp::PrmtEcr => [0, c.min(1), c.min(2), c],
                _ => {
                    let h = 2 * (c & 1);
                    [h, h + 1, h, h + 1]
                }
            };
            sel.iter()
                .enumerate()
                .fold(0u64, |d, (i, &s)| d | ((x >> (8 * s)) & 0xff) << (8 * i))
        }
        TernOp::Dp4a { sa, sb } => {
            let acc = (0..4).fold(c as u32 as i64, |acc, k| {
                acc + simd_byte(a, k, sa) * simd_byte(b, k, sb)
            });
            acc as u32 as u64
        }
        TernOp::Dp2a { hi, sa, sb } => {
            let half = |k: u32| {
                let h = (a >> (16 * k)) & 0xffff;
                if sa { h as u16 as i16 as i64 } else { h as i64 }
            };
            let base = if hi { 2 } else { 0 };
            let acc =
                c as u32 as i64 + half(0) * simd_byte(b, base, sb) + half(1) * simd_byte(b, base + 1, sb);
            acc as u32 as u64
        }
        TernOp::VAbsDiff4 { sa, sb, sd, sat, add } => {
            let diff = |k: u32| {
                let r = (simd_byte(a, k, sa) - simd_byte(b, k, sb)).abs();
                if sat { r.min(if sd { 127 } else { 255 }) } else { r }
            };
            if add {
                let sum = (0..4).fold(c as u32 as i64, |acc, k| acc + diff(k));
                sum as u32 as u64
            } else {
                (0..4).fold(0u64, |d, k| d | ((diff(k) as u64 & 0xff) << (8 * k)))
            }
        }
        TernOp::Slct => {
            if (c as u32 as i32) >= 0 {
                a
            } else {
                b
            }
        }
    }
}

/// `bfi`: insert `len` bits of `a` into `b` at `pos`.
pub fn bfi(ty: Ty, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let n = bits(ty);
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let mut f = trunc(ty, b);
    for i in 0..len {
        if pos + i >= n {
            break;
        }
        let bit = (a >> i) & 1;
        f = (f & !(1 << (pos + i))) | (bit << (pos + i));
    }
    f
}

/// `lop3.b32`
pub fn lop3(a: u64, b: u64, c: u64, lut: u8) -> u64 {
    let mut d = 0u64;
    for i in 0..32 {
        let idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        d |= (((lut >> idx) & 1) as u64) << i;
    }
    d
}

/// Comparison.
pub fn cmp(c: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    if ty.float() {
        let (x, y) = (to_f64(ty, a), to_f64(ty, b));
        let nan = x.is_nan() || y.is_nan();
        return match c {
            Cmp::Eq => x == y,
            Cmp::Ne => !nan && x != y,
            Cmp::Lt | Cmp::Lo => x < y,
            Cmp::Le | Cmp::Ls => x <= y,
            Cmp::Gt | Cmp::Hi => x > y,
            Cmp::Ge | Cmp::Hs => x >= y,
            Cmp::Equ => nan || x == y,
            Cmp::Neu => nan || x != y,
            Cmp::Ltu => nan || x < y,
            Cmp::Leu => nan || x <= y,
            Cmp::Gtu => nan || x > y,
            Cmp::Geu => nan || x >= y,
            Cmp::Num => !nan,
            Cmp::Nan => nan,
        };
    }
    let (sa, sb) = (sext(ty, a), sext(ty, b));
    let (ua, ub) = (trunc(ty, a), trunc(ty, b));
    let s = ty.signed();
    match c {
        Cmp::Eq | Cmp::Equ => ua == ub,
        Cmp::Ne | Cmp::Neu => ua != ub,
        Cmp::Lt | Cmp::Ltu => {
            if s {
                sa < sb
            } else {
                ua < ub
            }
        }
        Cmp::Le | Cmp::Leu => {
            if s {
                sa <= sb
            } else {
                ua <= ub
            }
        }
        Cmp::Gt | Cmp::Gtu => {
            if s {
                sa > sb
            } else {
                ua > ub
            }
        }
        Cmp::Ge | Cmp::Geu => {
            if s {
                sa >= sb
            } else {
                ua >= ub
            }
        }
        Cmp::Lo => ua < ub,
        Cmp::Ls => ua <= ub,
        Cmp::Hi => ua > ub,
        Cmp::Hs => ua >= ub,
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

fn round_f64(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rni | Rnd::Rn => x.round_ties_even(),
        Rnd::Rzi | Rnd::Rz => x.trunc(),
        Rnd::Rmi | Rnd::Rm => x.floor(),
        Rnd::Rpi | Rnd::Rp => x.ceil(),
        Rnd::Default => x,
    }
}

/// The value of a float register of type `ty` (exact).
fn to_f64(ty: Ty, a: u64) -> f64 {
    match ty {
        Ty::F32 => f32v(a) as f64,
        Ty::F16 | Ty::BF16 => half_to_f64(ty, a),
        _ => f64v(a),
    }
}

/// `cvt` with rounding and saturation. Float→int conversions saturate (NaN → 0) as in PTX.
pub fn cvt(dty: Ty, sty: Ty, rnd: Rnd, sat: bool, a: u64) -> u64 {
    let df = dty.float();
    let sf = sty.float();
    match (df, sf) {
        (false, false) => {
            let v = sext(sty, a) as i128;
            let v = if sat {
                let (lo, hi): (i128, i128) = if dty.signed() {
                    let n = bits(dty);
                    (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
                } else {
                    (0, (1i128 << bits(dty)) - 1)
                };
                v.clamp(lo, hi)
            } else {
                v
            };
            let r = v as u64;
            // the destination holds the value sign/zero-extended to its width, stored zero-extended
            trunc(dty, r)
        }
        (false, true) => {
            let x = to_f64(sty, a);
            if x.is_nan() && dty.signed() && (sty == Ty::F64 || dty.bytes() == 8) {
                // the most negative integer from `.f64` or into 64 bits (H200: lrint, lrintf,
                // llrintf, lround of NaN; `(int)NaN` of a double through ldexp, scalbn, jn, yn);
                // `.f32` into 32 bits gives 0 (H200: `(int)NaN` of a float through ldexpf,
                // scalbnf, jnf, ynf)
                return trunc(dty, 1 << (bits(dty) - 1));
            }
            let x = round_f64(x, if rnd == Rnd::Default { Rnd::Rzi } else { rnd });
            let r: u64 = match dty {
                Ty::S8 => x as i8 as u64,
                Ty::S16 => x as i16 as u64,
                Ty::S32 => x as i32 as u64,
                Ty::S64 => x as i64 as u64,
                Ty::U8 => x as u8 as u64,
                Ty::U16 => x as u16 as u64,
                Ty::U32 => x as u32 as u64,
                _ => x as u64,
            };
            trunc(dty, r)
        }
        (true, false) => {
            let v = sext(sty, a);
            let x = if sty.signed() {
                v as i128
            } else {
                trunc(sty, a) as i128
            };
            if matches!(dty, Ty::F16 | Ty::BF16) {
                // |x| < 2^53 converts exactly; beyond that the value overflows F16 and BF16 keeps
                // 8 bits, so the extra f64 rounding is innocuous except at exact ties (rare)
                to_half(dty, x as f64, rnd)
            } else if dty == Ty::F32 {
                int_to_f32(x, rnd)
            } else {
                f64b_from_int(x, rnd)
            }
        }
        (true, true) => {
            let x = to_f64(sty, a);
            let x = if matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi) {
                round_f64(x, rnd)
            } else {
                x
            };
            let x = if sat { sat01(x) } else { x };
            if matches!(dty, Ty::F16 | Ty::BF16) {
                let r = if matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi) {
                    Rnd::Rn
                } else {
                    rnd
                };
                to_half(dty, x, r)
            } else if dty == Ty::F32 && sty == Ty::F32 && x.is_nan() {
                0x7fff_ffff // H200: ceilf, floorf, rintf, truncf of NaN
            } else if dty == Ty::F32 {
                f32b(f64_to_f32(x, rnd))
            } else if sty == Ty::F64 && x.is_nan() {
                quiet64(f64v(a)) // H200: ceil, floor, rint, trunc of NaN
            } else {
                x.to_bits()
            }
        }
    }
}

fn next_up32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}
fn next_up64(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

fn f64_to_f32(x: f64, rnd: Rnd) -> f32 {
    let r = x as f32; // round to nearest even
    if !r.is_finite() || r as f64 == x {
        return r;
    }
    match rnd {
        Rnd::Rz if (r as f64).abs() > x.abs() => r.next_toward_zero(),
        Rnd::Rm if (r as f64) > x => next_down32(r),
        Rnd::Rp if (r as f64) < x => next_up32(r),
        _ => r,
    }
}

trait NextTowardZero {
    fn next_toward_zero(self) -> Self;
}
impl NextTowardZero for f32 {
    fn next_toward_zero(self) -> f32 {
        if self > 0.0 {
            next_down32(self)
        } else {
            next_up32(self)
        }
    }
}

fn int_to_f32(v: i128, rnd: Rnd) -> u64 {
    let r = v as f64; // exact for |v| < 2^53
    let r = if (r as i128) == v {
        f64_to_f32(r, rnd)
    } else {
        v as f32
    };
    f32b(r)
}

fn f64b_from_int(v: i128, rnd: Rnd) -> u64 {
    let r = v as f64;
    let r = if r as i128 == v || rnd == Rnd::Default || rnd == Rnd::Rn {
        r
    } else {
        match rnd {
            Rnd::Rz if r.abs() > (v as f64).abs() => next_down64(r),
            Rnd::Rm if (r as i128) > v => next_down64(r),
            Rnd::Rp if (r as i128) < v => next_up64(r),
            _ => r,
        }
    };
    r.to_bits()
}

/// `testp`
pub fn testp(p: TestP, ty: Ty, a: u64) -> bool {
    let x = if ty == Ty::F32 { f32v(a) as f64 } else { f64v(a) };
    let sub = if ty == Ty::F32 {
        f32v(a).is_subnormal()
    } else {
        x.is_subnormal()
    };
    match p {
        TestP::Finite => x.is_finite(),
        TestP::Infinite => x.is_infinite(),
        TestP::Number => !x.is_nan(),
        TestP::NotANumber => x.is_nan(),
        TestP::Normal => x.is_normal() && !sub,
        TestP::Subnormal => sub,
    }
}

/// New memory value of an atomic operation given the old value (`c` is the CAS new value).
pub fn atom(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let r = match op {
        AtomOp::Add => return bin(BinOp::Add, ty, old, b),
        AtomOp::Min => return bin(BinOp::Min, ty, old, b),
        AtomOp::Max => return bin(BinOp::Max, ty, old, b),
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if trunc(ty, old) == trunc(ty, b) {
                c
            } else {
                old
            }
        }
        AtomOp::Inc => {
            let (o, b) = (trunc(ty, old), trunc(ty, b));
            if o >= b { 0 } else { o + 1 }
        }
        AtomOp::Dec => {
            let (o, b) = (trunc(ty, old), trunc(ty, b));
            if o == 0 || o > b { b } else { o - 1 }
        }
    };
    trunc(ty, r)
}

/// `redux.sync`: the reduction of the 32-bit values of the lanes of `mask` (`ty`: `U32` or `S32`
/// for `min`/`max`; `add` wraps).
pub fn redux(op: warpscope_ptx::inst::ReduxOp, ty: Ty, vals: &[u64; 32], mask: u32) -> u64 {
    use warpscope_ptx::inst::ReduxOp;
    let signed = ty.signed();
    let mut acc: Option<u32> = None;
    for (l, &v) in vals.iter().enumerate() {
        if mask >> l & 1 == 0 {
            continue;
        }
        let v = v as u32;
        acc = Some(match acc {
            None => v,
            Some(a) => match op {
                ReduxOp::Add => a.wrapping_add(v),
                ReduxOp::And => a & v,
                ReduxOp::Or => a | v,
                ReduxOp::Xor => a ^ v,
                ReduxOp::Min if signed => (a as i32).min(v as i32) as u32,
                ReduxOp::Max if signed => (a as i32).max(v as i32) as u32,
                ReduxOp::Min => a.min(v),
                ReduxOp::Max => a.max(v),
            },
        });
    }
    u64::from(acc.unwrap_or(0))
}

/// One step of the carry chain (`Inst::Carry`): `(d, carry out)` of `a op b [+ c] + cin` on the
/// type's width; `Sub` computes `a - (b + cin)` with the borrow as the carry out, as PTX defines
/// `sub.cc`/`subc`. `MadHi` of a signed type takes the high half of the signed product.
pub fn carry(op: warpscope_ptx::inst::CarryOp, ty: Ty, a: u64, b: u64, c: u64, cin: u64) -> (u64, u64) {
    use warpscope_ptx::inst::CarryOp;
    let wide = ty.bytes() == 8;
    let m: u128 = if wide { u64::MAX as u128 } else { u32::MAX as u128 };
    let (a, b, c, cin) = (a as u128 & m, b as u128 & m, c as u128 & m, cin as u128 & 1);
    match op {
        CarryOp::Add => {
            let s = a + b + cin;
            ((s & m) as u64, (s >> if wide { 64 } else { 32 }) as u64 & 1)
        }
        CarryOp::Sub => {
            let sub = b + cin;
            ((a.wrapping_sub(sub) & m) as u64, u64::from(a < sub))
        }
        CarryOp::MadLo | CarryOp::MadHi => {
            let p = if op == CarryOp::MadLo {
                bin(BinOp::MulLo, ty, a as u64, b as u64)
            } else {
                bin(BinOp::MulHi, ty, a as u64, b as u64)
            } as u128
                & m;
            let s = p + c + cin;
            ((s & m) as u64, (s >> if wide { 64 } else { 32 }) as u64 & 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.f64` NaNs as the H100 writes them (calibration/equivalence/features/f64Nan.cu): the last NaN
    /// operand quieted with sign and payload, the default NaN 0xfff8000000000000 for a NaN the
    /// operation made; `.f32` keeps its canonical 0x7fffffff.
    #[test]
    fn f64_nans_propagate_the_last_nan_operand() {
        let n = f64::from_bits(0xfff3_6c91_2dc6_be3f); // signalling, negative
        let m = f64::from_bits(0x7ff5_54eb_5577_eaa9); // signalling, positive
        let y = 3.5f64.to_bits();
        let nb = n.to_bits();
        let mb = m.to_bits();
        assert_eq!(bin(BinOp::Add, Ty::F64, nb, y), 0xfffb_6c91_2dc6_be3f);
        assert_eq!(bin(BinOp::Sub, Ty::F64, y, nb), 0xfffb_6c91_2dc6_be3f);
        assert_eq!(bin(BinOp::MulLo, Ty::F64, nb, mb), 0x7ffd_54eb_5577_eaa9);
        assert_eq!(bin(BinOp::Min, Ty::F64, nb, mb), 0x7ffd_54eb_5577_eaa9);
        assert_eq!(bin(BinOp::Max, Ty::F64, nb, y), y);
        let inf = f64::INFINITY.to_bits();
        assert_eq!(bin(BinOp::Sub, Ty::F64, inf, inf), F64_DEFAULT_NAN);
        assert_eq!(tern(TernOp::Fma, Ty::F64, nb, y, mb), 0x7ffd_54eb_5577_eaa9);
        assert_eq!(tern(TernOp::Fma, Ty::F64, y, y, nb), 0xfffb_6c91_2dc6_be3f);
        // the machine code's `DFMA`: `b` over `c` (and `a`), the H200's 64 of 64 rows of
        // `DFMA R12, R8, R4, R12` (calibration/fmanan/); the PTX-level `fma` keeps `c` over `b`
        let p = 0x7ffc_87ea_d28a_b0e1u64;
        let f = f64::from_bits;
        assert_eq!(dfma_nan(f64::NAN, f(nb), f(mb), f(p)), 0x7ffd_54eb_5577_eaa9);
        assert_eq!(dfma_nan(f64::NAN, f(y), f(mb), f(nb)), 0x7ffd_54eb_5577_eaa9);
        assert_eq!(dfma_nan(f64::NAN, f(nb), f(y), f(p)), 0x7ffc_87ea_d28a_b0e1);
        assert_eq!(tern(TernOp::Fma, Ty::F64, nb, mb, p), 0x7ffc_87ea_d28a_b0e1);
        let fnan = 0xff80_0001u64;
        assert_eq!(bin(BinOp::Add, Ty::F32, fnan, 0x3f80_0000), 0x7fff_ffff);
    }

    #[test]
    fn redux_over_the_lanes_of_the_mask() {
        use warpscope_ptx::inst::ReduxOp;
        let mut v = [0u64; 32];
        for (l, x) in v.iter_mut().enumerate() {
            *x = (l as u64 * 0x1234_5679) & 0xffff_ffff;
        }
        v[3] = 0xffff_fff0; // -16 as s32, the largest as u32
        let m = 0b1010_1010u32;
        let lanes = [1usize, 3, 5, 7];
        let sum = lanes.iter().fold(0u32, |a, &l| a.wrapping_add(v[l] as u32));
        assert_eq!(redux(ReduxOp::Add, Ty::U32, &v, m), u64::from(sum));
        assert_eq!(redux(ReduxOp::Max, Ty::U32, &v, m), 0xffff_fff0);
        assert_eq!(redux(ReduxOp::Min, Ty::S32, &v, m), 0xffff_fff0);
        let umin = lanes.iter().map(|&l| v[l] as u32).min().unwrap();
        assert_eq!(redux(ReduxOp::Min, Ty::U32, &v, m), u64::from(umin));
        let and = lanes.iter().fold(u32::MAX, |a, &l| a & v[l] as u32);
        let or = lanes.iter().fold(0, |a, &l| a | v[l] as u32);
        let xor = lanes.iter().fold(0, |a, &l| a ^ v[l] as u32);
        assert_eq!(redux(ReduxOp::And, Ty::U32, &v, m), u64::from(and));
        assert_eq!(redux(ReduxOp::Or, Ty::U32, &v, m), u64::from(or));
        assert_eq!(redux(ReduxOp::Xor, Ty::U32, &v, m), u64::from(xor));
    }

    #[test]
    fn integer_basics() {
        assert_eq!(bin(BinOp::Add, Ty::U32, 0xffff_ffff, 1), 0);
        assert_eq!(bin(BinOp::Sub, Ty::S32, 0, 1), 0xffff_ffff);
        assert_eq!(bin(BinOp::MulHi, Ty::U32, 0x8000_0000, 4), 2);
        assert_eq!(bin(BinOp::MulHi, Ty::S32, (-2i32) as u32 as u64, 0x8000_0000), 1);
        assert_eq!(
            bin(BinOp::MulWide, Ty::S32, (-3i32) as u32 as u64, 5),
            (-15i64) as u64
        );
        assert_eq!(bin(BinOp::MulWide, Ty::U32, 0xffff_ffff, 2), 0x1_ffff_fffe);
        assert_eq!(
            bin(BinOp::Div, Ty::S32, (-7i32) as u32 as u64, 2),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            bin(BinOp::Rem, Ty::S32, (-7i32) as u32 as u64, 2),
            (-1i32) as u32 as u64
        );
        assert_eq!(bin(BinOp::Shr, Ty::S32, 0x8000_0000, 31), 0xffff_ffff);
        assert_eq!(bin(BinOp::Shr, Ty::S32, 0x8000_0000, 40), 0xffff_ffff);
        assert_eq!(bin(BinOp::Shr, Ty::U32, 0x8000_0000, 32), 0);
        assert_eq!(bin(BinOp::Shl, Ty::U32, 1, 33), 0);
        // bmsk: `b` ones from bit `a`; clamp limits both to 32, wrap takes them modulo 32
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 4, 8), 0xff0);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 0, 32), 0xffff_ffff);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 0, 40), 0xffff_ffff);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 28, 8), 0xf000_0000);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 32, 8), 0);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 40, 8), 0);
        assert_eq!(bin(BinOp::BmskClamp, Ty::U32, 5, 0), 0);
        assert_eq!(bin(BinOp::BmskWrap, Ty::U32, 4, 8), 0xff0);
        assert_eq!(bin(BinOp::BmskWrap, Ty::U32, 36, 40), 0xff0);
        assert_eq!(bin(BinOp::BmskWrap, Ty::U32, 0, 32), 0);
        assert_eq!(bin(BinOp::BmskWrap, Ty::U32, 28, 8), 0xf000_0000);
        assert_eq!(bin(BinOp::Min, Ty::S32, (-1i32) as u32 as u64, 3), 0xffff_ffff);
        assert_eq!(bin(BinOp::Min, Ty::U32, (-1i32) as u32 as u64, 3), 3);
        assert_eq!(bin(BinOp::AddSat, Ty::S32, i32::MAX as u64, 5), i32::MAX as u64);
    }

    #[test]
    fn unary_and_bits() {
        assert_eq!(un(UnOp::Clz, Ty::U32, 1), 31);
        assert_eq!(un(UnOp::Clz, Ty::U64, 1), 63);
        assert_eq!(un(UnOp::Popc, Ty::U32, 0xf0f0), 8);
        assert_eq!(un(UnOp::Brev, Ty::U32, 1), 0x8000_0000);
        assert_eq!(un(UnOp::Neg, Ty::S32, 1), 0xffff_ffff);
        assert_eq!(un(UnOp::Abs, Ty::S32, 0xffff_fffb), 5);
        assert_eq!(un(UnOp::Cnot, Ty::U32, 0), 1);
        assert_eq!(un(UnOp::Bfind, Ty::U32, 0x10), 4);
        assert_eq!(un(UnOp::Bfind, Ty::U32, 0), 0xffff_ffff);
        // .shiftamt: 31 - 4 for 0x10; brev then shiftamt finds the lowest set bit (lane 5 here)
        assert_eq!(un(UnOp::BfindShift, Ty::U32, 0x10), 27);
        assert_eq!(un(UnOp::BfindShift, Ty::U32, 0x8000_0000), 0);
        assert_eq!(un(UnOp::BfindShift, Ty::U32, 0), 0xffff_ffff);
        assert_eq!(
            un(UnOp::BfindShift, Ty::U32, un(UnOp::Brev, Ty::U32, 0b10_0000)),
            5
        );
        assert_eq!(un(UnOp::BfindShift, Ty::U64, 1), 63);
        assert_eq!(un(UnOp::BfindShift, Ty::S32, 0xffff_fff0), 28);
        assert_eq!(tern(TernOp::Bfe, Ty::U32, 0xabcd, 4, 8), 0xbc);
        assert_eq!(tern(TernOp::Bfe, Ty::S32, 0x80, 4, 4), 0xffff_fff8);
        assert_eq!(bfi(Ty::U32, 0xf, 0, 4, 2), 0x30);
        assert_eq!(
            tern(TernOp::Prmt, Ty::U32, 0x33221100, 0x77665544, 0x4210),
            0x44221100
        );
        assert_eq!(tern(TernOp::Sad, Ty::U32, 3, 10, 1), 8);
        assert_eq!(lop3(0b1100, 0b1010, 0b1111, 0x80), 0b1000);
    }

    #[test]
    fn float_ops() {
        let one = 1.0f32.to_bits() as u64;
        let two = 2.0f32.to_bits() as u64;
        assert_eq!(bin(BinOp::Add, Ty::F32, one, two), 3.0f32.to_bits() as u64);
        assert_eq!(un(UnOp::Sqrt, Ty::F32, 4.0f32.to_bits() as u64), two);
        let nan = f32::NAN.to_bits() as u64;
        assert_eq!(bin(BinOp::Min, Ty::F32, nan, two), two);
        assert!(cmp(Cmp::Neu, Ty::F32, nan, two));
        assert!(!cmp(Cmp::Ne, Ty::F32, nan, two));
        assert!(cmp(Cmp::Nan, Ty::F32, nan, two));
        assert_eq!(
            tern(
                TernOp::Fma,
                Ty::F64,
                2f64.to_bits(),
                3f64.to_bits(),
                1f64.to_bits()
            ),
            7f64.to_bits()
        );
        assert!(testp(TestP::Infinite, Ty::F32, f32::INFINITY.to_bits() as u64));
    }

    #[test]
    fn conversions() {
        assert_eq!(cvt(Ty::S64, Ty::S32, Rnd::Default, false, 0xffff_ffff), u64::MAX);
        assert_eq!(
            cvt(Ty::U64, Ty::U32, Rnd::Default, false, 0xffff_ffff),
            0xffff_ffff
        );
        assert_eq!(cvt(Ty::U8, Ty::S32, Rnd::Default, true, 300), 255);
        assert_eq!(
            cvt(Ty::S8, Ty::S32, Rnd::Default, true, (-300i32) as u32 as u64),
            0x80
        );
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(
            cvt(Ty::S32, Ty::F32, Rnd::Rzi, false, f(-2.7)),
            (-2i32) as u32 as u64
        );
        assert_eq!(cvt(Ty::S32, Ty::F32, Rnd::Rni, false, f(2.5)), 2);
        assert_eq!(
            cvt(Ty::S32, Ty::F32, Rnd::Rmi, false, f(-2.5)),
            (-3i32) as u32 as u64
        );
        assert_eq!(cvt(Ty::U32, Ty::F32, Rnd::Rzi, false, f(-5.0)), 0);
        assert_eq!(cvt(Ty::S32, Ty::F32, Rnd::Rzi, false, f(f32::NAN)), 0);
        assert_eq!(
            cvt(Ty::F32, Ty::S32, Rnd::Rn, false, (-3i32) as u32 as u64),
            f(-3.0)
        );
        assert_eq!(cvt(Ty::F32, Ty::U32, Rnd::Rz, false, 16_777_217), f(16_777_216.0));
        assert_eq!(cvt(Ty::F32, Ty::U32, Rnd::Rp, false, 16_777_217), f(16_777_218.0));
        assert_eq!(
            cvt(Ty::F64, Ty::F32, Rnd::Default, false, f(1.5)),
            1.5f64.to_bits()
        );
        assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Rni, false, f(1.5)), f(2.0));
        assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Default, true, f(1.5)), f(1.0));
    }

    #[test]
    fn atomics() {
        assert_eq!(atom(AtomOp::Inc, Ty::U32, 5, 5, 0), 0);
        assert_eq!(atom(AtomOp::Inc, Ty::U32, 4, 5, 0), 5);
        assert_eq!(atom(AtomOp::Dec, Ty::U32, 0, 5, 0), 5);
        assert_eq!(atom(AtomOp::Cas, Ty::U32, 3, 3, 9), 9);
        assert_eq!(atom(AtomOp::Cas, Ty::U32, 4, 3, 9), 4);
        assert_eq!(atom(AtomOp::Max, Ty::S32, 0xffff_ffff, 1, 0), 1);
    }

    #[test]
    fn half_precision_conversions_round_once() {
        let h = |x: f64| to_half(Ty::F16, x, Rnd::Rn);
        assert_eq!(h(1.0), 0x3c00);
        assert_eq!(h(-2.0), 0xc000);
        assert_eq!(h(65504.0), 0x7bff);
        assert_eq!(h(65520.0), 0x7c00); // tie at the top rounds to infinity
        assert_eq!(to_half(Ty::F16, 65520.0, Rnd::Rz), 0x7bff);
        assert_eq!(h(1.0 / 3.0), 0x3555);
        assert_eq!(h(2f64.powi(-24)), 1);
        assert_eq!(h(2f64.powi(-25)), 0); // tie to even
        assert_eq!(h(3.0 * 2f64.powi(-26)), 1);
        assert_eq!(h(f64::NAN), 0x7fff);
        let b = |x: f64| to_half(Ty::BF16, x, Rnd::Rn);
        assert_eq!(b(1.0), 0x3f80);
        assert_eq!(b(1.0 + 2f64.powi(-8)), 0x3f80); // tie to even
        assert_eq!(b(1.005859375), 0x3f81);
        assert_eq!(b(-3.0e38), 0xff62);
        // every finite pattern survives a round trip through f64
        for ty in [Ty::F16, Ty::BF16] {
            for p in 0..=0xffffu64 {
                let x = half_to_f64(ty, p);
                if x.is_nan() {
                    continue;
                }
                assert_eq!(to_half(ty, x, Rnd::Rn), p, "{ty:?} {p:#x}");
            }
        }
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(cvt(Ty::F16, Ty::F32, Rnd::Rn, false, f(1.0)), 0x3c00);
        assert_eq!(cvt(Ty::F32, Ty::F16, Rnd::Default, false, 0x3c00), f(1.0));
        assert_eq!(cvt(Ty::BF16, Ty::F32, Rnd::Rn, false, f(-2.5)), 0xc020);
        assert_eq!(cvt(Ty::F32, Ty::BF16, Rnd::Default, false, 0xc020), f(-2.5));
        assert_eq!(
            cvt(Ty::S32, Ty::F16, Rnd::Rzi, false, 0xc700),
            (-7i32) as u32 as u64
        );
        assert_eq!(cvt(Ty::F16, Ty::S32, Rnd::Rn, false, 2049), 0x6800); // 2049 -> 2048 (tie, even)
    }

    #[test]
    fn half_precision_arithmetic() {
        assert_eq!(bin(BinOp::Add, Ty::F16, 0x3c00, 0x3c00), 0x4000);
        assert_eq!(bin(BinOp::MulLo, Ty::F16, 0x4000, 0x4200), 0x4600); // 2 * 3
        assert_eq!(bin(BinOp::Sub, Ty::BF16, 0x3f80, 0x4000), 0xbf80); // 1 - 2
        assert_eq!(tern(TernOp::Fma, Ty::F16, 0x4000, 0x4200, 0x3c00), 0x4700); // 2 * 3 + 1
        // 1 + 2^-11 is a tie in f16; the tiny addend must break it upwards (single rounding)
        let tiny = to_half(Ty::F16, 2f64.powi(-24), Rnd::Rn);
        let eps = to_half(Ty::F16, 2f64.powi(-11), Rnd::Rn);
        assert_eq!(tern(TernOp::Fma, Ty::F16, eps, 0x3c00, 0x3c00), 0x3c00); // tie to even
        assert_eq!(
            tern(
                TernOp::Fma,
                Ty::F16,
                tiny,
                0x3c00,
                bin(BinOp::Add, Ty::F16, 0x3c00, 0)
            ),
            0x3c00
        );
        assert_eq!(un(UnOp::Neg, Ty::F16, 0x3c00), 0xbc00);
        // Measured on the H100 (calibration/equivalence/features/half2Ops.cu): neg and abs of a NaN
        // give the canonical NaN; .sat sends NaN and -0.0 to +0.0.
        assert_eq!(un(UnOp::Neg, Ty::F16, 0xfd6e), 0x7fff);
        assert_eq!(un(UnOp::Abs, Ty::F16, 0x7f1a), 0x7fff);
        assert_eq!(un(UnOp::Neg, Ty::BF16, 0xffe0), 0x7fff);
        assert_eq!(un(UnOp::Neg, Ty::F16, 0x7c00), 0xfc00, "infinity is not a NaN");
        assert_eq!(un(UnOp::Neg, Ty::F32, 0xffe0_c6a9), 0x7fff_ffff);
        assert_eq!(un(UnOp::Abs, Ty::F32, 0xff80_0001), 0x7fff_ffff);
        // f64: the NaN comes back quieted with its sign (nanRules.cu)
        assert_eq!(
            un(UnOp::Neg, Ty::F64, 0xfff0_0000_0000_0001),
            0xfff8_0000_0000_0001
        );
        assert_eq!(
            un(UnOp::Abs, Ty::F64, 0xfff4_0000_0000_0000),
            0xfffc_0000_0000_0000
        );
        assert_eq!(un(UnOp::Neg, Ty::F64, 1.5f64.to_bits()), (-1.5f64).to_bits());
        assert_eq!(bin(BinOp::AddSat, Ty::F16, 0x7e00, 0x3c00), 0);
        assert_eq!(bin(BinOp::AddSat, Ty::F32, f32b(f32::NAN), 0), 0);
        assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Default, true, f32b(-0.0)), 0);
        assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Default, true, f32b(f32::NAN)), 0);
        assert_eq!(cvt(Ty::F32, Ty::F32, Rnd::Default, true, f32b(7.5)), f32b(1.0));
        assert!(cmp(Cmp::Lt, Ty::F16, 0xbc00, 0x3c00));
    }

    #[test]
    fn prmt_modes_follow_the_ptx_table() {
        let (a, b) = (0x3322_1100, 0x7766_5544);
        let p = |op, c| tern(op, Ty::U32, a, b, c);
        assert_eq!(p(TernOp::PrmtF4e, 1), 0x4433_2211);
        assert_eq!(p(TernOp::PrmtB4e, 0), 0x5566_7700);
        assert_eq!(p(TernOp::PrmtB4e, 3), 0x0011_2233);
        assert_eq!(p(TernOp::PrmtRc8, 2), 0x2222_2222);
        assert_eq!(p(TernOp::PrmtEcl, 1), 0x3322_1111);
        assert_eq!(p(TernOp::PrmtEcr, 2), 0x2222_1100);
        assert_eq!(p(TernOp::PrmtRc16, 1), 0x3322_3322);
        assert_eq!(p(TernOp::PrmtRc16, 2), 0x1100_1100);
    }
}
