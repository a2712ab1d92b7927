//! The multi-function unit's other single-precision functions (`MUFU.RSQ`, `MUFU.SQRT`,
//! `MUFU.EX2`, `MUFU.LG2`, `MUFU.SIN`, `MUFU.COS`, `MUFU.TANH`) and its half-precision forms, bit
//! for bit as the H200 computes them, and the sequences ptxas 13 builds around them for the PTX
//! instructions (read off its sm_90 machine code). Every function is a measured table
//! (`super::table`, calibration/mufu/README.md) over the inputs the unit distinguishes, and a rule
//! for the rest that the measurements establish:
//!
//! - `RSQ`, `SQRT`: the significand over two binades ([1, 4)), scaled by the exponent's half.
//! - `EX2`: `x` as a fixed-point number with 23 fraction bits (lower bits are not used); a positive
//!   `x` is `n + f/2^23`, the result `T[f] * 2^n`; a negative one is `-(n + g/2^23)` (its magnitude
//!   truncated), the result `2^-n` if `g = 0`, else `T[2^23 - 1 - g] * 2^-(n+1)` (the fraction's
//!   one's complement, not its negation); below 2^-126 flushed to zero.
//! - `LG2`: an internal value `V(m)` of the significand `m` that is never exact (absolute error
//!   about 2^-23); `lg2(2^e m)` is `e + V` truncated toward zero. The results of `e = 0` give
//!   `V` truncated, which fixes every other exponent's result except `e = -1` with `m >= 1.375`,
//!   whose results are a second table.
//! - `SIN`, `COS`: the argument in periods as a fixed-point number with 25 fraction bits
//!   (the magnitude truncated; integer part dropped); one table over the first quarter period,
//!   reflected (one's complement: `2^23 - 1 - r`) in the second and fourth quarters, negated in
//!   the third and fourth; `cos(t)` is `sin(t + 1/4)`; `sin(-t) = -sin(t)`, `cos(-t) = cos(t)`.
//! - `TANH`: `x` itself below 2^-8, +-1 from 8 on; between, the significand's top 17 to 21 bits
//!   (by binade) index a table.

use super::table::Table;

pub(crate) const CANON_NAN: u32 = 0x7fff_ffff;
const TWO23: f64 = 8_388_608.0;
const INF: u32 = 0x7f80_0000;
const SIGN: u32 = 0x8000_0000;

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > INF
}

/// `r` (a positive normal f32's bits) times 2^s: infinity above the range, zero (flushed) below.
fn scale(r: u32, s: i32) -> u32 {
    let e = (r >> 23) as i32 + s;
    if e >= 0xff {
        INF
    } else if e <= 0 {
        0
    } else {
        (e as u32) << 23 | (r & 0x7f_ffff)
    }
}

// ---------------------------------------------------------------- RSQ, SQRT

/// The significand of `0x3f800000 + i` (i < 2^24), in [1, 4).
fn two_binades(i: usize) -> f64 {
    f(0x3f80_0000 + i as u32) as f64
}

static RSQ: Table = Table::deltas_fitted(
    "MUFU.RSQ",
    include_bytes!("../../data/mufu_rsq.zst"),
    include_bytes!("../../data/mufu_rsq.fit.zst"),
    1 << 24,
    |i| 1.0 / two_binades(i).sqrt(), // as in `rsq_lanes`
);
static SQRT: Table = Table::deltas_fitted(
    "MUFU.SQRT",
    include_bytes!("../../data/mufu_sqrt.zst"),
    include_bytes!("../../data/mufu_sqrt.fit.zst"),
    1 << 24,
    |i| two_binades(i).sqrt(),
);

/// The shipped models (`crates/emu/data/NAME.fit.zst`: RSQ and SQRT, whose exact values are
/// IEEE-rounded on every host) as the measured tables fit afresh, uncompressed: (NAME, bytes).
pub(crate) fn fits() -> Vec<(&'static str, Vec<u8>)> {
    [("mufu_rsq", &RSQ), ("mufu_sqrt", &SQRT)]
        .into_iter()
        .map(|(name, t)| (name, t.fit().expect("RSQ and SQRT decode to a model")))
        .collect()
}

/// A normal `x` as `4^j * m`, `m` in [1, 4): the table entry of `m` and `j`.
fn over_two_binades(x: u32) -> (usize, i32) {
    let e = ((x >> 23) & 0xff) as i32;
    let odd = e & 1 == 1; // 2^0, 2^2, ... have odd biased exponents
    let i = (x & 0x7f_ffff) | if odd { 0 } else { 1 << 23 };
    (i as usize, (e - 127 - i32::from(!odd)) / 2)
}

/// `MUFU.RSQ` (`rsqrt.approx.ftz.f32`), bits in and out.
pub fn rsq(x: u32) -> u32 {
    let e = (x >> 23) & 0xff;
    if is_nan(x) {
        return CANON_NAN;
    }
    if e == 0 {
        return (x & SIGN) | INF; // zero or flushed: infinity of its sign
    }
    if x & SIGN != 0 {
        return CANON_NAN;
    }
    if e == 0xff {
        return 0;
    }
    let (i, j) = over_two_binades(x);
    scale(RSQ.get(i), -j)
}

/// `MUFU.SQRT` (`sqrt.approx.ftz.f32`), bits in and out.
pub fn sqrt(x: u32) -> u32 {
    let e = (x >> 23) & 0xff;
    if is_nan(x) {
        return CANON_NAN;
    }
    if e == 0 {
        return x & SIGN; // zero or flushed: zero of its sign
    }
    if x & SIGN != 0 {
        return CANON_NAN;
    }
    if e == 0xff {
        return x;
    }
    let (i, j) = over_two_binades(x);
    scale(SQRT.get(i), j)
}

// ---------------------------------------------------------------- EX2

static EX2_POS: Table = Table::deltas(
    "MUFU.EX2",
    include_bytes!("../../data/mufu_ex2_pos.zst"),
    1 << 23,
    |i| (i as f64 / TWO23).exp2(),
);

/// `MUFU.EX2` (`ex2.approx.ftz.f32`), bits in and out.
pub fn ex2(x: u32) -> u32 {
    if is_nan(x) {
        return CANON_NAN;
    }
    if (x >> 23) & 0xff == 0 {
        return 0x3f80_0000; // zero or flushed: 1
    }
    let a = f(x & !SIGN) as f64;
    if a >= 256.0 {
        return if x & SIGN != 0 { 0 } else { INF };
    }
    // |x| * 2^23 truncated: exact in f64
    let q = (a * TWO23) as u64;
    let (n, frac) = ((q >> 23) as i32, (q & 0x7f_ffff) as usize);
    if x & SIGN == 0 {
        scale(EX2_POS.get(frac), n)
    } else if frac == 0 {
        scale(0x3f80_0000, -n)
    } else {
        // the fraction's one's complement: 2^-(n + g/2^23) as T[2^23 - 1 - g] * 2^-(n+1)
        scale(EX2_POS.get((1 << 23) - 1 - frac), -n - 1)
    }
}

/// `ex2.approx.f32`: below -126 the unit gets `x / 2` and the result is squared (`FMUL`, keeping
/// subnormal results the unit alone would flush).
pub fn ex2_approx(x: u32) -> u32 {
    if f(x) < -126.0 {
        let r = f(ex2((f(x) * 0.5).to_bits()));
        return (r * r).to_bits();
    }
    ex2(x)
}

// ---------------------------------------------------------------- LG2

/// Entries of the `e = -1` table start at this fraction (significand 1.375).
const LG2_HALF_FROM: usize = 3 << 20;

fn significand(k: usize) -> f64 {
    1.0 + k as f64 / TWO23
}

static LG2: Table = Table::deltas(
    "MUFU.LG2",
    include_bytes!("../../data/mufu_lg2.zst"),
    1 << 23,
    |k| significand(k).log2(),
);
static LG2_HALF: Table = Table::deltas(
    "MUFU.LG2",
    include_bytes!("../../data/mufu_lg2_half.zst"),
    (1 << 23) - LG2_HALF_FROM,
    |i| significand(i + LG2_HALF_FROM).log2() - 1.0,
);

/// `v` (exact) truncated toward zero to f32.
fn f32_rz(v: f64) -> f32 {
    let r = v as f32;
    if (r as f64).abs() > v.abs() {
        f32::from_bits(r.to_bits() - 1)
    } else {
        r
    }
}

/// `MUFU.LG2` (`lg2.approx.ftz.f32`), bits in and out.
pub fn lg2(x: u32) -> u32 {
    let e = ((x >> 23) & 0xff) as i32;
    if is_nan(x) {
        return CANON_NAN;
    }
    if e == 0 {
        return SIGN | INF; // zero or flushed
    }
    if x & SIGN != 0 {
        return CANON_NAN;
    }
    if e == 0xff {
        return INF;
    }
    let (e, k) = (e - 127, (x & 0x7f_ffff) as usize);
    if e == 0 {
        return LG2.get(k);
    }
    if e == -1 && k >= LG2_HALF_FROM {
        return LG2_HALF.get(k - LG2_HALF_FROM);
    }
    if e == -1 && k == 0 {
        return 0xbf7f_fffe; // V(1) lies between 2^-24 and 2^-23: 1 - V truncates to 1 - 2^-23
    }
    let v = f(LG2.get(k)) as f64; // V truncated
    if e > 0 {
        return f32_rz(e as f64 + v).to_bits();
    }
    // |e| - V lies strictly between |e| - v - (v's quantum) and |e| - v: the largest f32 below
    let y = -(e as f64) - v;
    let mut r = f32_rz(y);
    if r as f64 == y {
        r = f32::from_bits(r.to_bits() - 1);
    }
    SIGN | r.to_bits()
}

/// `|x| < 2^-126` or zero, compared as ptxas's `FSETP.GEU` does (a NaN is not small).
fn small(x: u32) -> bool {
    x & 0x7fff_ffff < 0x0080_0000
}

/// `lg2.approx.f32`: a subnormal (or zero) input is scaled by 2^24 before `MUFU.LG2`, and 24
/// subtracted after (`FADD`).
pub fn lg2_approx(x: u32) -> u32 {
    if small(x) {
        let r = lg2((f(x) * 16_777_216.0).to_bits());
        let s = f(r) + -24.0;
        return if s.is_nan() { CANON_NAN } else { s.to_bits() };
    }
    lg2(x)
}

/// `rsqrt.approx.f32`: a subnormal (or zero) input is scaled by 2^24 before `MUFU.RSQ`, the
/// result by 2^12 after (`FMUL`).
pub fn rsqrt_approx(x: u32) -> u32 {
    if small(x) {
        let r = rsq((f(x) * 16_777_216.0).to_bits());
        return (f(r) * 4096.0).to_bits();
    }
    rsq(x)
}

/// How far (in units in the last place of the f64 sum the model rounds) [`rsq_near`]'s value
/// may lead the model's prediction from the exact value's: within this of a halfway point
/// between two f32 values, a lane is predicted from the exact value instead. The bound is 2^9
/// (below); 2^12 leaves a margin, and sends about one lane in 2^16 to the exact value.
const RSQ_NEAR_ULPS: u64 = 1 << 12;

/// `1 / sqrt(m)` of the RSQ table's entry `i` (`m = two_binades(i)`, in [1, 4)) without the
/// f64 square root and division of the exact value (`RSQ`'s `exact`: the two took most of an
/// `rsqrt` row's time): the f32 reciprocal of the f32 square root (each correctly rounded, so
/// within 2^-23 of `1 / sqrt(m)` relative, and 8 lanes to a vector instead of 4), then one
/// Newton step in f64 (`y (3 - m y^2) / 2`: the error squared, times 3/2, plus a few f64
/// roundings: within 2^-45 relative of the exact value, 2^8 of its units in the last place in
/// (1/2, 1); the sum the model rounds moves by at most that plus its own rounding, doubled where
/// it falls into the binade below: 2^9). IEEE operations only, so the same bits on every host.
/// Entry 0 (`m = 1`) gives 1 exactly, as the exact value; every other entry's value lies in
/// (1/2 + 2^-27, 1 - 2^-26), where the exact value and this one share their exponent, so the
/// model's unit in the last place is the same for both.
#[inline(always)]
fn rsq_near(i: usize) -> f64 {
    let m = f(0x3f80_0000 + i as u32);
    let y0 = f64::from(1.0f32 / m.sqrt());
    let m = f64::from(m);
    y0 * (1.5 - 0.5 * m * y0 * y0)
}

/// `rsqrt_approx` (with `approx`, else `rsq`) of each of 32 lanes at once: the same bits as
/// lane by lane, with the table's exact values computed together (vectorised where the caller is
/// compiled for wide vectors) before the lookups.
#[inline(always)]
pub fn rsq_lanes(approx: bool, xs: &[u32; 32]) -> [u32; 32] {
    // plain loops over arrays (not `array::from_fn`, which the host compiler left out of line and
    // so without the caller's wide vectors), without a branch per lane: the lanes whose input is
    // a positive normal number (the common case) are an entry of the table times a power of two
    // whose result's exponent stays in range; the others (zero, subnormal, negative, infinite,
    // NaN) are looked up lane by lane at the end
    let (mut at, mut shift) = ([0usize; 32], [0u32; 32]);
    let mut common = 0u32;
    for l in 0..32 {
        let x = xs[l];
        let e = (x >> 23) & 0xff;
        common |= u32::from(e != 0 && e != 0xff && x & SIGN == 0) << l;
        // `over_two_binades`: x = 4^k m, m = two_binades(at) in [1, 4); the result's exponent
        // moves by -k (e - 127 - (1 if e is even) is even: the shift halves it exactly); for a
        // normal x, k lies in [-63, 63] and the table's result near [1/2, 1] (exponent 125 to
        // 127), so the exponent stays within [62, 190]: no overflow or flush, and an add to the
        // exponent field is what `scale` does
        let even = (e & 1) ^ 1;
        at[l] = ((x & 0x7f_ffff) | even << 23) as usize;
        let k = (e as i32 - 127 - even as i32) >> 1;
        shift[l] = (k.wrapping_neg() as u32) << 23;
    }
    let mut ys = [0f64; 32];
    for (y, &i) in ys.iter_mut().zip(&at) {
        *y = rsq_near(i);
    }
    // the model matched once, its 32 lookups together (inlined here: the lanes left out are
    // looked up too and not used); a lane whose near value could round otherwise than the exact
    // one gets the exact one
    let mut out = match RSQ.decoded_model() {
        Some(m) => m.get_near_lanes(&at, &ys, RSQ_NEAR_ULPS),
        None => std::array::from_fn(|l| RSQ.get(at[l])),
    };
    for l in 0..32 {
        out[l] = out[l].wrapping_add(shift[l]);
    }
    let mut other = !common;
    while other != 0 {
        let l = other.trailing_zeros() as usize;
        other &= other - 1;
        out[l] = if approx { rsqrt_approx(xs[l]) } else { rsq(xs[l]) };
    }
    out
}

/// [`rsq_lanes`] 8 lanes to a 256-bit vector: each group of 8 inputs split into the table entry,
/// the exponent's shift and the common-case test, the entries' near values (`rsq_near`: the f32
/// square root and reciprocal 8 lanes at a time, the Newton step in f64 four at a time, the same
/// operations in the same order), the model's lines and marks gathered and the predictions rounded
/// (`Model::near8`); the lanes close to a rounding point, with an exception, or outside the common
/// case as in `rsq_lanes`. The same bits as `rsq_lanes`.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn rsq_lanes_avx2(approx: bool, xs: &[u32; 32]) -> [u32; 32] {
    use std::arch::x86_64::*;
    let m = match RSQ.decoded_model() {
        Some(m) if m.covers(1 << 24) => m,
        _ => return rsq_lanes(approx, xs),
    };
    let (mut at, mut out, mut shift) = ([0u32; 32], [0u32; 32], [0u32; 32]);
    let (mut common, mut close, mut marked) = (0u32, 0u32, 0u32);
    for c in 0..4 {
        // SAFETY: lanes 8c..8c + 8 of the 32-lane arrays (unaligned loads and stores)
        let x = unsafe { _mm256_loadu_si256(xs.as_ptr().add(8 * c) as *const __m256i) };
        // a positive normal number: above the largest subnormal and below infinity (as i32)
        let normal = _mm256_and_si256(
            _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7f_ffff)),
            _mm256_cmpgt_epi32(_mm256_set1_epi32(INF as i32), x),
        );
        common |= (_mm256_movemask_ps(_mm256_castsi256_ps(normal)) as u32) << (8 * c);
        let e = _mm256_and_si256(_mm256_srli_epi32::<23>(x), _mm256_set1_epi32(0xff));
        let even = _mm256_xor_si256(_mm256_and_si256(e, _mm256_set1_epi32(1)), _mm256_set1_epi32(1));
        // below 2^24: every lane's segment is in the table
        let i = _mm256_or_si256(
            _mm256_and_si256(x, _mm256_set1_epi32(0x7f_ffff)),
            _mm256_slli_epi32::<23>(even),
        );
        let k = _mm256_srai_epi32::<1>(_mm256_sub_epi32(
            _mm256_sub_epi32(e, _mm256_set1_epi32(127)),
            even,
        ));
        let sh = _mm256_slli_epi32::<23>(_mm256_sub_epi32(_mm256_setzero_si256(), k));
        // `rsq_near` of the 8 entries
        let mf = _mm256_castsi256_ps(_mm256_add_epi32(i, _mm256_set1_epi32(0x3f80_0000)));
        let y0 = _mm256_div_ps(_mm256_set1_ps(1.0), _mm256_sqrt_ps(mf));
        let newton = |y0: __m128, m: __m128| {
            let (y0, m) = (_mm256_cvtps_pd(y0), _mm256_cvtps_pd(m));
            let e = _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), m), y0), y0);
            _mm256_mul_pd(y0, _mm256_sub_pd(_mm256_set1_pd(1.5), e))
        };
        let lo = newton(_mm256_castps256_ps128(y0), _mm256_castps256_ps128(mf));
        let hi = newton(_mm256_extractf128_ps::<1>(y0), _mm256_extractf128_ps::<1>(mf));
        // SAFETY: the CPU has AVX2; every entry is below 2^24, which the model covers
        let (r, cl, mk) = unsafe { m.near8(i, lo, hi, RSQ_NEAR_ULPS) };
        close |= cl << (8 * c);
        marked |= mk << (8 * c);
        // SAFETY: as the load above
        unsafe {
            _mm256_storeu_si256(at.as_mut_ptr().add(8 * c) as *mut __m256i, i);
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * c) as *mut __m256i, r);
            _mm256_storeu_si256(shift.as_mut_ptr().add(8 * c) as *mut __m256i, sh);
        }
    }
    m.fix_lanes(&at, &mut out, close, marked);
    for l in 0..32 {
        out[l] = out[l].wrapping_add(shift[l]);
    }
    let mut other = !common;
    while other != 0 {
        let l = other.trailing_zeros() as usize;
        other &= other - 1;
        out[l] = if approx { rsqrt_approx(xs[l]) } else { rsq(xs[l]) };
    }
    out
}

/// `sqrt.approx.f32`: a subnormal (or zero) input is scaled by 2^24 before `MUFU.SQRT`, the
/// result by 2^-12 after.
pub fn sqrt_approx(x: u32) -> u32 {
    if small(x) {
        let r = sqrt((f(x) * 16_777_216.0).to_bits());
        return (f(r) * (1.0 / 4096.0)).to_bits();
    }
    sqrt(x)
}

// ---------------------------------------------------------------- SIN, COS

const QUARTER: u32 = 1 << 23;

static SIN: Table = Table::deltas(
    "MUFU.SIN",
    include_bytes!("../../data/mufu_sin.zst"),
    1 << 23,
    |r| (std::f64::consts::TAU * r as f64 / 33_554_432.0).sin(),
);

/// `|t|` in periods as a fixed-point fraction with 25 bits (truncated, integer part dropped).
fn fraction25(t: u32) -> u32 {
    let e = ((t >> 23) & 0xff) as i32;
    if e == 0 {
        return 0;
    }
    let m = (t & 0x7f_ffff | 0x80_0000) as u128;
    // |t| * 2^25 = m * 2^(e - 127 - 23 + 25)
    let s = e - 125;
    let v = if s >= 0 {
        if s >= 64 { 0 } else { m << s }
    } else if s <= -24 {
        0
    } else {
        m >> -s
    };
    (v & 0x1ff_ffff) as u32
}

/// The unit's sine of `q / 2^25` periods.
fn sin_fixed(q: u32) -> u32 {
    let quadrant = q >> 23;
    let mut r = q & (QUARTER - 1);
    if quadrant & 1 == 1 {
        r = QUARTER - 1 - r;
    }
    let v = SIN.get(r as usize);
    if quadrant >= 2 { v ^ SIGN } else { v }
}

/// `MUFU.SIN` of `t` periods (the unit's operand; `sin.approx.f32` multiplies by 1/(2 pi) first).
pub fn sin(t: u32) -> u32 {
    if (t >> 23) & 0xff == 0xff {
        return CANON_NAN;
    }
    sin_fixed(fraction25(t)) ^ (t & SIGN)
}

/// `MUFU.COS` of `t` periods.
pub fn cos(t: u32) -> u32 {
    if (t >> 23) & 0xff == 0xff {
        return CANON_NAN;
    }
    sin_fixed((fraction25(t) + QUARTER) & 0x1ff_ffff)
}

/// ptxas's `FMUL.RZ` by 1/(2 pi) (`0x3e22f983`) in front of `MUFU.SIN` and `MUFU.COS`: the
/// argument in periods, rounded toward zero, subnormal products kept.
fn periods(x: u32) -> u32 {
    use crate::softfloat::{F32, mul};
    mul(F32, x as u64, 0x3e22_f983, warpscope_ptx::inst::Rnd::Rz) as u32
}

/// `sin.approx.f32` and `sin.approx.ftz.f32` (the same machine code).
pub fn sin_approx(x: u32) -> u32 {
    sin(periods(x))
}

/// `cos.approx.f32` and `cos.approx.ftz.f32` (the same machine code).
pub fn cos_approx(x: u32) -> u32 {
    cos(periods(x))
}

// ---------------------------------------------------------------- TANH

/// Per binade of `|x|` from 2^-8 to 2^2: the significand bits below this one are not used.
const TANH_LOW: [u32; 11] = [6, 6, 6, 5, 5, 4, 4, 4, 3, 2, 3];

/// The first entry of each binade, and the table's length.
const fn tanh_starts() -> [usize; 12] {
    let mut s = [0; 12];
    let mut b = 0;
    while b < 11 {
        s[b + 1] = s[b] + (1 << (23 - TANH_LOW[b]));
        b += 1;
    }
    s
}
const TANH_START: [usize; 12] = tanh_starts();

/// The input of table entry `i`.
fn tanh_input(i: usize) -> u32 {
    let b = TANH_START.partition_point(|&s| s <= i) - 1;
    (119 + b as u32) << 23 | ((i - TANH_START[b]) as u32) << TANH_LOW[b]
}

static TANH: Table = Table::deltas(
    "MUFU.TANH",
    include_bytes!("../../data/mufu_tanh.zst"),
    TANH_START[11],
    |i| (f(tanh_input(i)) as f64).tanh(),
);

/// `MUFU.TANH` (`tanh.approx.f32`), bits in and out.
pub fn tanh(x: u32) -> u32 {
    if is_nan(x) {
        return CANON_NAN;
    }
    let (sign, a) = (x & SIGN, x & !SIGN);
    if a < 0x3b80_0000 {
        return x; // below 2^-8 (subnormals too): x
    }
    if a >= 0x4100_0000 {
        return sign | 0x3f80_0000; // from 8 on: +-1
    }
    let b = ((a >> 23) - 119) as usize;
    let i = TANH_START[b] + ((a & 0x7f_ffff) >> TANH_LOW[b]) as usize;
    sign | TANH.get(i)
}

// ---------------------------------------------------------------- halves

fn half_ref(ex2: bool, bf16: bool, i: usize) -> u32 {
    use warpscope_ptx::inst::{Rnd, Ty};
    let ty = if bf16 { Ty::BF16 } else { Ty::F16 };
    let x = crate::arith::half_to_f64(ty, i as u64);
    crate::arith::to_half(ty, if ex2 { x.exp2() } else { x.tanh() }, Rnd::Rn) as u32
}

// every input of each: the result minus the correctly rounded one
static EX2_F16: Table = Table::corrections(
    "MUFU.EX2.F16",
    include_bytes!("../../data/mufu_ex2_f16.zst"),
    1 << 16,
    |i| half_ref(true, false, i),
);
static TANH_F16: Table = Table::corrections(
    "MUFU.TANH.F16",
    include_bytes!("../../data/mufu_tanh_f16.zst"),
    1 << 16,
    |i| half_ref(false, false, i),
);
static EX2_BF16: Table = Table::corrections(
    "MUFU.EX2.BF16",
    include_bytes!("../../data/mufu_ex2_bf16.zst"),
    1 << 16,
    |i| half_ref(true, true, i),
);
static TANH_BF16: Table = Table::corrections(
    "MUFU.TANH.BF16",
    include_bytes!("../../data/mufu_tanh_bf16.zst"),
    1 << 16,
    |i| half_ref(false, true, i),
);

/// `MUFU.EX2` (`ex2`) or `MUFU.TANH` of a half (`.F16`, or `.BF16` with `bf16`): `ex2.approx.f16`,
/// `ex2.approx.ftz.bf16`, `tanh.approx.f16`, `tanh.approx.bf16` (and each lane of their `x2`
/// forms), measured for every input.
pub fn half(ex2: bool, bf16: bool, h: u16) -> u16 {
    let t = match (ex2, bf16) {
        (true, false) => &EX2_F16,
        (false, false) => &TANH_F16,
        (true, true) => &EX2_BF16,
        (false, true) => &TANH_BF16,
    };
    t.get(h as usize) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of every measured table as the compact form gives it equals the embedded
    /// table's word, and the compact form is small enough for a core's L2.
    #[test]
    fn compact_tables_reproduce_every_measured_entry() {
        // (table, entries, whether it is one whose compact form fits a core's L2)
        let tables: [(&Table, usize, bool); 7] = [
            (&RSQ, 1 << 24, true),
            (&SQRT, 1 << 24, true),
            (&EX2_POS, 1 << 23, true),
            (&LG2, 1 << 23, false),
            (&LG2_HALF, (1 << 23) - LG2_HALF_FROM, false),
            (&SIN, 1 << 23, false),
            (&TANH, TANH_START[11], false),
        ];
        for (t, n, small) in tables {
            let want = t.results();
            assert_eq!(want.len(), n);
            for (i, &w) in want.iter().enumerate() {
                assert_eq!(t.get(i), w, "entry {i} of a {n}-entry table");
            }
            // never much more than the byte an entry (and the far entries) they took before
            let bytes = t.footprint();
            eprintln!("{n}-entry table: {bytes} bytes");
            assert!(bytes <= n + n / 8, "a {n}-entry table takes {bytes} bytes");
            assert!(!small || bytes < 1 << 20, "a {n}-entry table takes {bytes} bytes");
        }
        // the half tables stay one byte per input (after the shipped models' check below)
        for (t, (name, fresh)) in [&RSQ, &SQRT].into_iter().zip(fits()) {
            let shipped = t.shipped_fit().expect("shipped");
            assert!(
                shipped == fresh,
                "crates/emu/data/{name}.fit.zst is not the model the measured table fits to \
                 (cargo run --release -p warpscope-emu --example mufu_fit)"
            );
        }
        for t in [&EX2_F16, &TANH_F16, &EX2_BF16, &TANH_BF16] {
            assert_eq!(t.footprint(), 1 << 16);
        }
    }

    /// `rsq_near` stays within the bound `RSQ_NEAR_ULPS` assumes (2^9 units in the last place of
    /// the sum the model rounds) of the exact value's sum, and the row lookup from it gives the
    /// measured word, on every one of the 2^24 entries of the table (every input of the unit is
    /// one of them, scaled by a power of two).
    #[test]
    fn rsq_near_rows_give_every_measured_entry() {
        let want = RSQ.results();
        let m = RSQ.decoded_model().expect("RSQ decodes to a model");
        let exact = |i: usize| 1.0 / two_binades(i).sqrt();
        let mut worst = 0u64;
        for c in 0..(1usize << 24) / 32 {
            let at: [usize; 32] = std::array::from_fn(|l| c * 32 + l);
            let near: [f64; 32] = std::array::from_fn(|l| rsq_near(at[l]));
            for l in 0..32 {
                let (y, z) = (exact(at[l]), near[l]);
                assert_eq!(
                    y.to_bits() >> 52,
                    z.to_bits() >> 52,
                    "entry {}: the exponent",
                    at[l]
                );
                // the sum the model rounds moves by the values' difference (same exponent)
                worst = worst.max(y.to_bits().abs_diff(z.to_bits()));
            }
            let got = m.get_near_lanes(&at, &near, RSQ_NEAR_ULPS);
            for l in 0..32 {
                assert_eq!(got[l], want[at[l]], "entry {}", at[l]);
            }
        }
        eprintln!("rsq_near: at most {worst} units in the last place from the exact value");
        assert!(worst <= 1 << 8, "rsq_near is {worst} units in the last place off");
    }
}
