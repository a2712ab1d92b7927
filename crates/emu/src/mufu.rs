//! The GPU's multi-function unit (MUFU) bit for bit as the H200 computes it, and the instruction
//! sequences ptxas builds around it (read off ptxas 13's sm_90 machine code).
//!
//! Every function takes and returns the operand's bits (`u32` for f32, `u16` for the halves):
//! `rcp` (`MUFU.RCP`), `rsq`, `sqrt`, `ex2`, `lg2`, `sin`, `cos` (of an argument in periods, as
//! the unit takes it), `tanh`, and `half` (`MUFU.EX2`/`TANH` `.F16`/`.BF16`) are the unit's
//! instructions themselves; `rcp_approx`, `rsqrt_approx`, `sqrt_approx`, `ex2_approx`,
//! `lg2_approx`, `sin_approx`, `cos_approx`, `div_full`, `div_approx` are the PTX instructions
//! without `.ftz` (and `sin`/`cos` with ptxas's multiply by 1/(2 pi)). The unit's functions
//! other than `rcp` are in `mufu/unit.rs` (calibration/mufu/README.md says how each was measured).
//!
//! `MUFU.RCP` of 1 + k/2^23 (k < 2^23) was measured on an H200 for every k
//! (calibration/mufu/h200/rcp.delta.xz): it is the correctly rounded reciprocal, one unit in the
//! last place above it for 733,799 k and one below for 374,723. `data/rcp_plus.zst` and
//! `data/rcp_minus.zst` are those two sets as bitsets (bit k), made from the measured table by
//! `calibration/hopper/rcp_table.py`. Other binades scale by the exponent (the unit works on the
//! significand); zero and subnormal inputs give infinity, infinity gives zero, subnormal results
//! are flushed to zero, a NaN gives the canonical NaN.
//!
//! `rcp64h` (`MUFU.RCP64H`, the double-precision seed of a double's high word) is that table's
//! significand truncated to 20 fraction bits (calibration/rcp64h/README.md).

use std::sync::OnceLock;

mod table;
mod unit;

#[cfg(target_arch = "x86_64")]
pub use unit::rsq_lanes_avx2;
pub use unit::{
    cos, cos_approx, ex2, ex2_approx, half, lg2, lg2_approx, rsq, rsq_lanes, rsqrt_approx, sin, sin_approx,
    sqrt, sqrt_approx, tanh,
};

/// The `MUFU` models shipped fitted (`crates/emu/data/NAME.fit.zst`), fitted afresh from the
/// measured tables: (NAME, uncompressed bytes). For `examples/mufu_fit.rs`, which writes them.
#[doc(hidden)]
pub fn fitted_models() -> Vec<(&'static str, Vec<u8>)> {
    unit::fits()
}

/// The approximate `.f32` instructions other than `rcp` (`rsqrt`, `sqrt.approx`, `ex2`, `lg2`,
/// `sin`, `cos`, `tanh`, `.ftz` or not) as ptxas's machine code computes them.
pub fn approx(op: warpscope_ptx::inst::UnOp, x: u32) -> u32 {
    use warpscope_ptx::inst::UnOp;
    match op {
        UnOp::RsqrtFtz => rsq(x),
        UnOp::Rsqrt => rsqrt_approx(x),
        UnOp::SqrtApproxFtz => sqrt(x),
        UnOp::SqrtApprox => sqrt_approx(x),
        UnOp::Ex2Ftz => ex2(x),
        UnOp::Ex2 => ex2_approx(x),
        UnOp::Lg2Ftz => lg2(x),
        UnOp::Lg2 => lg2_approx(x),
        UnOp::Sin => sin_approx(x),
        UnOp::Cos => cos_approx(x),
        UnOp::Tanh => tanh(x),
        _ => unreachable!("{op:?} is not an approximate unit instruction"),
    }
}

const PLUS: &[u8] = include_bytes!("../data/rcp_plus.zst");
const MINUS: &[u8] = include_bytes!("../data/rcp_minus.zst");

struct Table {
    plus: Vec<u8>,
    minus: Vec<u8>,
}

fn unpack(z: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::with_capacity(1 << 20);
    let mut dec = ruzstd::decoding::StreamingDecoder::new(z).expect("the embedded MUFU.RCP table is zstd");
    dec.read_to_end(&mut out)
        .expect("the embedded MUFU.RCP table decodes");
    assert_eq!(out.len(), 1 << 20, "the MUFU.RCP table holds 2^23 bits");
    out
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| Table {
        plus: unpack(PLUS),
        minus: unpack(MINUS),
    })
}

const CANON_NAN: u32 = 0x7fff_ffff;

/// `MUFU.RCP` of the f32 `x` (bits in, bits out).
pub fn rcp(x: u32) -> u32 {
    let sign = x & 0x8000_0000;
    let e = (x >> 23) & 0xff;
    let k = x & 0x7f_ffff;
    if e == 0xff {
        return if k != 0 { CANON_NAN } else { sign };
    }
    if e == 0 {
        return sign | 0x7f80_0000;
    }
    // the reciprocal of the significand 1 + k/2^23, in (1/2, 1]
    let cr = (1.0f64 / (1.0 + k as f64 / 8_388_608.0)) as f32;
    let t = table();
    let (byte, bit) = ((k >> 3) as usize, k & 7);
    let mut r = cr.to_bits();
    if t.plus[byte] >> bit & 1 == 1 {
        r += 1;
    } else if t.minus[byte] >> bit & 1 == 1 {
        r -= 1;
    }
    // scale by 2^-(e - 127)
    let te = (r >> 23) as i32;
    let field = te + 127 - e as i32;
    if field <= 0 {
        return sign;
    }
    sign | (field as u32) << 23 | (r & 0x7f_ffff)
}

/// `MUFU.RCP64H` of a double's high word `hi` (bits in; the result's high word out, its low
/// word being zero): the `MUFU.RCP` table's reciprocal of the significand `1 + f/2^20` (`f` the
/// high word's 20 fraction bits, read as the f32 `1 + (f << 3)/2^23`) truncated to 20 fraction
/// bits, scaled by the exponent. Equal to the H200 for every `f` (calibration/rcp64h/h200/
/// rcp64h.delta) and on 4112 inputs of every exponent and special value (rcp64h.list). A zero or
/// subnormal input gives infinity, infinity gives zero, a subnormal result is flushed to zero, a
/// NaN gives `0x7fffffff`.
pub fn rcp64h(hi: u32) -> u32 {
    let sign = hi & 0x8000_0000;
    let e = (hi >> 20) & 0x7ff;
    let f = hi & 0xf_ffff;
    if e == 0x7ff {
        return if f != 0 { CANON_NAN } else { sign };
    }
    if e == 0 {
        return sign | 0x7ff0_0000;
    }
    // the significand's reciprocal in (1/2, 1] as the f32 unit gives it
    let r = rcp(0x3f80_0000 | f << 3);
    let field = 2046 - e as i32 + (r >> 23) as i32 - 127;
    if field <= 0 {
        return sign;
    }
    sign | (field as u32) << 20 | (r & 0x7f_ffff) >> 3
}

/// `MUFU.RSQ64H` of a double's high word `hi` (bits in; the result's high word out, its low word
/// being zero): the `MUFU.RSQ` table's `1/sqrt` of the significand over two binades (`1 + f/2^20`
/// or `2 + f/2^19` by the exponent's parity, read as the f32 with the high word's 20 fraction
/// bits at the top of its 23) truncated to 20 fraction bits, scaled by half the exponent, as
/// `MUFU.RCP64H` truncates `MUFU.RCP` (calibration/rsq64h/README.md). A zero or subnormal input
/// gives infinity of its sign, `+inf` zero, a negative input or NaN `0x7fffffff`.
pub fn rsq64h(hi: u32) -> u32 {
    let sign = hi & 0x8000_0000;
    let e = (hi >> 20) & 0x7ff;
    let f = hi & 0xf_ffff;
    if e == 0x7ff && f != 0 {
        return CANON_NAN;
    }
    if e == 0 {
        return sign | 0x7ff0_0000;
    }
    if sign != 0 {
        return CANON_NAN;
    }
    if e == 0x7ff {
        return 0;
    }
    // x = 2^(e - 1023) (1 + f/2^20) = 4^j m, m in [1, 4): the f32 2^(e odd ? 0 : 1) (1 + f/2^20)
    let ue = e as i32 - 1023;
    let odd = ue & 1 == 1;
    let m = if odd { 0x4000_0000 } else { 0x3f80_0000 } | f << 3;
    let j = (ue - i32::from(odd)) / 2;
    let r = rsq(m);
    let field = 1023 + (r >> 23) as i32 - 127 - j;
    if field <= 0 {
        return 0;
    }
    (field as u32) << 20 | (r & 0x7f_ffff) >> 3
}

fn ftz(x: f32) -> f32 {
    if x.is_subnormal() { 0.0f32.copysign(x) } else { x }
}

fn canon(x: f32) -> u32 {
    if x.is_nan() { CANON_NAN } else { x.to_bits() }
}

const HUGE: f32 = 8.507_059e37; // 2^126
const TINY: f32 = f32::MIN_POSITIVE; // 2^-126

/// `rcp.approx.f32` (not flushing): inputs below 2^-126 scaled by 2^24 and above 2^126 by 1/4
/// around `MUFU.RCP`, the result scaled back by one multiply.
pub fn rcp_approx(x: u32) -> u32 {
    let xf = f32::from_bits(x);
    let mut s = 1.0f32;
    if xf.abs() < TINY || xf.is_nan() {
        s = 16_777_216.0;
    }
    if xf.abs() > HUGE {
        s = 0.25;
    }
    canon(s * f32::from_bits(rcp((s * xf).to_bits())))
}

/// `div.full.f32 q, a, b` then `add.f32 d, q, c` as ptxas contracts them: the reciprocal of
/// the scaled `b` times the scaled `a` plus `c`, rounded once (rms_fwd and layernorm of
/// calibration/hopper: `MUFU.RCP R, b'` then `FFMA d, R, a', c`).
pub fn div_full_add(a: u32, b: u32, c: u32) -> u32 {
    let (x, r) = div_full_scaled(a, b, false);
    canon(r.mul_add(x, f32::from_bits(c)))
}

/// `div.full.f32` (`ftz`: `div.full.ftz.f32`).
pub fn div_full(a: u32, b: u32, flush: bool) -> u32 {
    let (x, r) = div_full_scaled(a, b, flush);
    canon(if flush { ftz(ftz(r) * ftz(x)) } else { r * x })
}

/// `div.full.f32`'s operands as the machine code takes them: the dividend scaled with the divisor
/// out of `MUFU.RCP`'s range (by 1/4 above it, by 2^24 below it or for a NaN, not when flushing),
/// and the reciprocal of the scaled divisor.
fn div_full_scaled(a: u32, b: u32, flush: bool) -> (f32, f32) {
    let (mut x, mut y) = (f32::from_bits(a), f32::from_bits(b));
    if flush {
        x = ftz(x);
        y = ftz(y);
    }
    let big = y.abs() > HUGE;
    let small = y.abs() < TINY || y.is_nan();
    if big {
        x *= 0.25;
        y *= 0.25;
    }
    if small && !flush {
        x *= 16_777_216.0;
        y *= 16_777_216.0;
    }
    (x, f32::from_bits(rcp(y.to_bits())))
}

/// `div.approx.f32` (`ftz`: `div.approx.ftz.f32`).
pub fn div_approx(a: u32, b: u32, flush: bool) -> u32 {
    let (mut x, mut y) = (f32::from_bits(a), f32::from_bits(b));
    if flush {
        let r = f32::from_bits(rcp(y.to_bits()));
        return canon(ftz(ftz(r) * ftz(x)));
    }
    if y.abs() < TINY || y.is_nan() {
        x *= 16_777_216.0;
        y *= 16_777_216.0;
    }
    canon(f32::from_bits(rcp(y.to_bits())) * x)
}

/// Decodes, before a launch's blocks start, the unit's tables that `ops` (a kernel's
/// instructions) may read: on every host thread then, instead of on the first block's thread
/// while the others wait for it.
pub fn prepare(ops: &[warpscope_ptx::inst::Op]) {
    use warpscope_ptx::inst::{Inst, Ty, UnOp};
    let mut seen = [false; 16];
    for op in ops {
        if let Inst::Un {
            op: u, ty: Ty::F32, ..
        } = op.inst
        {
            let k = match u {
                UnOp::RsqrtFtz | UnOp::Rsqrt => 0,
                UnOp::SqrtApproxFtz | UnOp::SqrtApprox => 1,
                UnOp::Ex2Ftz | UnOp::Ex2 => 2,
                UnOp::Lg2Ftz | UnOp::Lg2 => 3,
                UnOp::Sin | UnOp::Cos => 4,
                UnOp::Tanh => 5,
                _ => continue,
            };
            if !seen[k] {
                seen[k] = true;
                // 1.5 and 0.75 reach every table of the function (LG2's second one below 1)
                approx(u, 0x3fc0_0000);
                approx(u, 0x3f40_0000);
            }
        }
    }
}
