//! Warp-wide matrix operations as pure functions: the register fragments of `mma.sync` (the PTX
//! ISA's layouts), `ldmatrix` / `stmatrix` element placement, and the tensor cores' arithmetic.
//!
//! Floating-point products (f16, bf16, tf32 operands into f32, and f16 accumulation) follow
//! [`BlockFma`]: the rule measured on an H100 (calibration/equivalence/features/README.md), with
//! its parameters public so that a test can show the measurements rule out the alternatives.

use warpscope_ptx::inst::{MmaShape, Ty};

use crate::arith;

/// Lane `l`'s group (`l / 4`) and thread in group (`l % 4`).
#[inline]
fn gt(l: usize) -> (usize, usize) {
    (l / 4, l % 4)
}

/// Where element `i` of lane `l`'s A fragment sits: (row, k). Elements are numbered in register
/// order, low bits first (two halves per 32-bit register for f16/bf16, four bytes for s8/u8, one
/// value for tf32/f64).
pub fn a_elem(shape: MmaShape, aty: Ty, l: usize, i: usize) -> (usize, usize) {
    let (g, t) = gt(l);
    match (shape, aty) {
        (MmaShape::M16n8k16 | MmaShape::M16n16k16, Ty::F16 | Ty::BF16) => {
            let i = i % 8;
            let row = g + 8 * ((i / 2) % 2);
            let col = t * 2 + (i % 2) + 8 * (i / 4);
            (row, col)
        }
        // wmma m32n8k16: two m16 blocks of rows, eight elements each
        (MmaShape::M32n8k16, _) => {
            let (r, c) = a_elem(MmaShape::M16n16k16, aty, l, i % 8);
            (r + 16 * ((i / 8) % 2), c)
        }
        // wmma m8n32k16: eight rows, four elements a lane
        (MmaShape::M8n32k16, Ty::F16 | Ty::BF16) => (g, t * 2 + (i % 2) + 8 * ((i / 2) % 2)),
        (MmaShape::M8n32k16, _) => (g, t * 4 + (i % 4)),
        // wmma m16n16k8 (tf32): the m16n8k8 A
        (MmaShape::M16n16k8, _) => a_elem(MmaShape::M16n8k8, Ty::F32, l, i),
        (MmaShape::M16n8k8, Ty::F16 | Ty::BF16) => (g + 8 * (i / 2), t * 2 + (i % 2)),
        (MmaShape::M16n8k8, _) => (g + 8 * (i % 2), t + 4 * (i / 2)), // tf32
        (MmaShape::M8n8k4, _) => (g, t),
        (MmaShape::M16n8k32, _) => (g + 8 * ((i / 4) % 2), t * 4 + (i % 4) + 16 * (i / 8)),
        (MmaShape::M16n8k16 | MmaShape::M16n16k16, _) => (g + 8 * (i / 4), t * 4 + (i % 4)), // s8/u8
    }
}

/// Where element `i` of lane `l`'s B fragment sits: (k, col).
pub fn b_elem(shape: MmaShape, bty: Ty, l: usize, i: usize) -> (usize, usize) {
    let (g, t) = gt(l);
    match (shape, bty) {
        (MmaShape::M16n16k16, _) => {
            // two n8 blocks: elements 0-3 for columns 0-7, 4-7 for columns 8-15
            let (k, c) = b_elem(MmaShape::M16n8k16, bty, l, i % 4);
            (k, c + 8 * ((i / 4) % 2))
        }
        // wmma m32n8k16: one k16 x n8 block
        (MmaShape::M32n8k16, _) => b_elem(MmaShape::M16n8k16, bty, l, i % 4),
        // wmma m8n32k16: four n8 blocks of four elements
        (MmaShape::M8n32k16, _) => {
            let (k, c) = b_elem(MmaShape::M16n8k16, bty, l, i % 4);
            (k, c + 8 * ((i / 4) % 4))
        }
        // wmma m16n16k8 (tf32): two m16n8k8 B blocks of two elements
        (MmaShape::M16n16k8, _) => {
            let (k, c) = b_elem(MmaShape::M16n8k8, Ty::F32, l, i % 2);
            (k, c + 8 * ((i / 2) % 2))
        }
        (MmaShape::M16n8k16, Ty::F16 | Ty::BF16) => (t * 2 + (i % 2) + 8 * (i / 2), g),
        (MmaShape::M16n8k8, Ty::F16 | Ty::BF16) => (t * 2 + i, g),
        (MmaShape::M16n8k8, _) => (t + 4 * i, g), // tf32
        (MmaShape::M8n8k4, _) => (t, g),
        (MmaShape::M16n8k32, _) => (t * 4 + (i % 4) + 16 * (i / 4), g),
        (MmaShape::M16n8k16, _) => (t * 4 + i, g), // s8/u8
    }
}

/// Where element `i` of lane `l`'s C/D fragment sits: (row, col).
pub fn c_elem(shape: MmaShape, l: usize, i: usize) -> (usize, usize) {
    let (g, t) = gt(l);
    match shape {
        MmaShape::M8n8k4 => (g, t * 2 + i),
        MmaShape::M16n16k16 | MmaShape::M16n16k8 => {
            let (r, c) = c_elem(MmaShape::M16n8k16, l, i % 4);
            (r, c + 8 * ((i / 4) % 2))
        }
        MmaShape::M32n8k16 => {
            let (r, c) = c_elem(MmaShape::M16n8k16, l, i % 4);
            (r + 16 * ((i / 4) % 2), c)
        }
        MmaShape::M8n32k16 => (g, t * 2 + (i % 2) + 8 * ((i / 2) % 4)),
        _ => (g + 8 * (i / 2), t * 2 + (i % 2)),
    }
}

/// (M, N, K) of a shape.
pub fn dims(shape: MmaShape) -> (usize, usize, usize) {
    let (m, n, k) = shape.dims();
    (m as usize, n as usize, k as usize)
}

/// Bits per element of an operand type (`F32` = tf32 in a 32-bit register).
fn ebits(t: Ty) -> usize {
    match t {
        Ty::S8 | Ty::U8 => 8,
        Ty::F16 | Ty::BF16 => 16,
        Ty::F64 => 64,
        _ => 32,
    }
}

/// Elements per register of an operand or accumulator type.
fn per_reg(t: Ty) -> usize {
    match t {
        Ty::F64 => 1,
        t => 32 / ebits(t),
    }
}

/// The tensor cores' floating-point accumulation: `d = c + sum of a[k] * b[k]` computed in blocks
/// of `block` products (in k order). Within a block the products are exact; they and the running
/// sum are aligned to the largest exponent among them (a product's exponent is the sum of its
/// operands' exponents when `product_top`, else its leading bit), every term keeps only the bits
/// down to `2^(emax - 23 - extra_bits)` (the rest is dropped as `align` says), the kept bits are
/// summed exactly, and the sum is rounded to f32 as `round` says; 2^128 or more is infinite. The
/// result of a block is the running sum of the next. Special values: a NaN operand, inf * 0 or
/// infinities of both signs give the canonical NaN 0x7fffffff; other infinities pass through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockFma {
    /// Products summed together in one step.
    pub block: usize,
    /// Bits kept below the f32 significand of the largest term when aligning.
    pub extra_bits: u32,
    /// How the aligned terms lose their low bits.
    pub align: Rounding,
    /// How the block's sum is rounded to f32.
    pub round: Rounding,
    /// Align to the operands' exponent sum of a product (`true`) or to its leading bit.
    pub product_top: bool,
}

/// A rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Toward zero (truncating the magnitude).
    TowardZero,
    /// Toward minus infinity (truncating a two's complement value).
    Down,
    /// To nearest, ties to even.
    Nearest,
}

/// The rule measured on an H100 for f16 / bf16 / tf32 products into f32: all (up to 16) products
/// and C in one block, aligned to the largest exponent sum with 2 bits below the f32 significand,
/// truncated toward zero, the sum truncated toward zero (calibration/equivalence/features/README.md;
/// crates/emu/tests/mma_rule.rs shows the measurements rule out the neighbouring rules).
pub const H100_FMA: BlockFma = BlockFma {
    block: 16,
    extra_bits: 2,
    align: Rounding::TowardZero,
    round: Rounding::TowardZero,
    product_top: true,
};

/// A finite binary value `mant * 2^exp` (`mant` signed, exact).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exact {
    pub(crate) mant: i128,
    pub(crate) exp: i32,
    /// The exponent the alignment uses: the leading bit for a number, the sum of the operands'
    /// exponents for a product (whose significand may carry into one more bit).
    pub(crate) top: i32,
}

/// Decodes a finite float into an exact value; `None` for infinities and NaNs.
pub(crate) fn exact(bits: u64, ebits_: u32, mbits: u32) -> Option<Exact> {
    let sign = (bits >> (ebits_ + mbits)) & 1;
    let e = ((bits >> mbits) & ((1 << ebits_) - 1)) as i32;
    let m = bits & ((1u64 << mbits) - 1);
    let bias = (1i32 << (ebits_ - 1)) - 1;
    if e == (1 << ebits_) - 1 {
        return None;
    }
    let (mant, exp) = if e == 0 {
        (m as i128, 1 - bias - mbits as i32)
    } else {
        ((m | 1 << mbits) as i128, e - bias - mbits as i32)
    };
    let mut x = Exact {
        mant: if sign == 1 { -mant } else { mant },
        exp,
        top: 0,
    };
    x.top = if mant == 0 { 0 } else { lead(&x) };
    Some(x)
}

/// Operand decoding: (exponent bits, mantissa bits, bits to drop from a 32-bit tf32 register).
fn fmt(t: Ty) -> (u32, u32) {
    match t {
        Ty::F16 => (5, 10),
        Ty::BF16 => (8, 7),
        _ => (8, 23), // f32 / tf32 (tf32 operands are truncated to 10 mantissa bits first)
    }
}

/// The value of an operand element's bits; tf32 keeps the top 19 bits of the register.
fn operand(t: Ty, bits: u64) -> u64 {
    if t == Ty::F32 { bits & 0xffff_e000 } else { bits }
}

/// Classifies a float: NaN, +-inf, or finite.
enum Class {
    Nan,
    Inf(bool),
    Fin(Exact),
}

fn class(t: Ty, bits: u64) -> Class {
    let (e, m) = fmt(t);
    let width = 1 + e + m;
    let bits = bits & ((1u64 << width) - 1);
    match exact(bits, e, m) {
        Some(x) => Class::Fin(x),
        None => {
            if bits & ((1u64 << m) - 1) != 0 {
                Class::Nan
            } else {
                Class::Inf(bits >> (width - 1) == 1)
            }
        }
    }
}

/// Position of the leading bit of |mant| * 2^exp (floor(log2)), for a nonzero value.
pub(crate) fn lead(x: &Exact) -> i32 {
    127 - x.mant.unsigned_abs().leading_zeros() as i32 + x.exp
}

/// Rounds an exact value to an f32's bits (toward zero or to nearest even), overflow to infinity
/// (or the largest finite value when truncating), subnormals kept.
pub(crate) fn to_f32(x: Exact, rnd: Rounding) -> u32 {
    let nearest = rnd == Rounding::Nearest;
    if x.mant == 0 {
        return 0;
    }
    let neg = x.mant < 0;
    let mag = x.mant.unsigned_abs();
    let l = lead(&x);
    // the f32 quantum at this magnitude: 2^(l-23), or 2^-149 for subnormals
    let q = (l - 23).max(-149);
    let shift = q - x.exp;
    let (mut m, rest, half) = if shift <= 0 {
        (mag << (-shift) as u32, 0u128, false)
    } else if shift >= 127 {
        (0, mag, false)
    } else {
        let m = mag >> shift as u32;
        let rest = mag & ((1u128 << shift as u32) - 1);
        let half = 1u128 << (shift as u32 - 1);
        (m, rest, rest >= half)
    };
    if rnd == Rounding::Down && neg && rest != 0 {
        m += 1;
    }
    if nearest && rest != 0 {
        let halfway = shift > 0 && shift < 127 && rest == 1u128 << (shift as u32 - 1);
        if (half && !halfway) || (halfway && m & 1 == 1) {
            m += 1;
        }
    }
    // m * 2^q: normalise
    let mut q = q;
    if m >= 1 << 24 {
        m >>= 1;
        q += 1;
    }
    let sign = if neg { 0x8000_0000u32 } else { 0 };
    if m == 0 {
        return sign;
    }
    let e = q + 23 + 127; // biased exponent if m has its leading bit at 2^23
    let bits = if m < 1 << 23 {
        // subnormal (q == -149)
        m as u32
    } else if e >= 255 {
        // a sum of 2^128 or more is infinite whatever the rounding (measured)
        0x7f80_0000
    } else {
        ((e as u32) << 23) | (m as u32 & 0x7f_ffff)
    };
    sign | bits
}

impl BlockFma {
    /// `c + sum(a[k] * b[k])` for operands of type `t` (f16, bf16 or tf32 as `F32`) into an f32
    /// accumulator `c` (bits).
    pub fn dot(&self, t: Ty, a: &[u64], b: &[u64], c: u32) -> u32 {
        // special values first: NaN in, inf * 0, or infinities of both signs give NaN
        let mut inf: Option<bool> = None;
        let mut nan = false;
        let add_inf = |s: bool, inf: &mut Option<bool>, nan: &mut bool| match *inf {
            Some(x) if x != s => *nan = true,
            _ => *inf = Some(s),
        };
        // no allocation: at most 32 products (k <= 32), extra ones are ignored
        let mut prod_buf = [Exact {
            mant: 0,
            exp: 0,
            top: 0,
        }; 32];
        let mut n_prods = 0usize;
        let mut zero_signs = [false; 32];
        for (&x, &y) in a.iter().zip(b).take(32) {
            let (x, y) = (operand(t, x), operand(t, y));
            match (class(t, x), class(t, y)) {
                (Class::Nan, _) | (_, Class::Nan) => nan = true,
                (Class::Inf(s), Class::Inf(u)) => add_inf(s != u, &mut inf, &mut nan),
                (Class::Inf(s), Class::Fin(f)) | (Class::Fin(f), Class::Inf(s)) => {
                    if f.mant == 0 {
                        nan = true
                    } else {
                        add_inf(s != (f.mant < 0), &mut inf, &mut nan)
                    }
                }
                (Class::Fin(p), Class::Fin(q)) => {
                    let (w, m) = fmt(t);
                    let width = 1 + w + m;
                    zero_signs[n_prods] = ((x >> (width - 1)) ^ (y >> (width - 1))) & 1 == 1;
                    let mut e = Exact {
                        mant: p.mant * q.mant,
                        exp: p.exp + q.exp,
                        top: p.top + q.top,
                    };
                    if !self.product_top && e.mant != 0 {
                        e.top = lead(&e);
                    }
                    prod_buf[n_prods] = e;
                    n_prods += 1;
                }
            }
        }
        match class(Ty::F32, c as u64) {
            Class::Nan => nan = true,
            Class::Inf(s) => add_inf(s, &mut inf, &mut nan),
            Class::Fin(_) => {}
        }
        if nan {
            return 0x7fff_ffff;
        }
        if let Some(s) = inf {
            return if s { 0xff80_0000 } else { 0x7f80_0000 };
        }
        let prods = &prod_buf[..n_prods];
        if prods.iter().all(|p| p.mant == 0) && c & 0x7fff_ffff == 0 {
            // an exact zero: negative only if C and every product are negative zeros
            let neg = c != 0 && zero_signs[..n_prods].iter().all(|&s| s);
            return if neg { 0x8000_0000 } else { 0 };
        }
        let mut acc = c;
        for chunk in prods.chunks(self.block.max(1)) {
            acc = self.step(acc, chunk);
            if acc & 0x7f80_0000 == 0x7f80_0000 {
                return acc;
            }
        }
        acc
    }

    /// One block: `acc + sum(products)` aligned, truncated and rounded.
    fn step(&self, acc: u32, prods: &[Exact]) -> u32 {
        let Class::Fin(c) = class(Ty::F32, acc as u64) else {
            return acc;
        };
        let terms = std::iter::once(c)
            .chain(prods.iter().copied())
            .filter(|x| x.mant != 0);
        let Some(emax) = terms.clone().map(|x| x.top).max() else {
            // every term is zero: the running sum keeps its sign
            return acc;
        };
        let floor = emax - 23 - self.extra_bits as i32;
        // sum in units of 2^floor, each term truncated toward zero to that unit
        let mut sum: i128 = 0;
        for x in terms {
            let sh = x.exp - floor;
            let v = if sh >= 0 {
                x.mant << sh.min(100) as u32
            } else if sh <= -127 {
                if self.align == Rounding::Down && x.mant < 0 {
                    -1
                } else {
                    0
                }
            } else if self.align == Rounding::Down {
                x.mant >> (-sh) as u32
            } else {
                let m = x.mant.unsigned_abs() >> (-sh) as u32;
                if x.mant < 0 { -(m as i128) } else { m as i128 }
            };
            sum += v;
        }
        to_f32(
            Exact {
                mant: sum,
                exp: floor,
                top: 0,
            },
            self.round,
        )
    }
}

/// Unpacks element `i` of a row value holding elements of type `t`.
fn elem(t: Ty, reg: u64, i: usize) -> u64 {
    let w = ebits(t);
    if w >= 64 {
        return reg;
    }
    (reg >> (w * (i % per_reg(t)))) & ((1u64 << w) - 1)
}

/// Executes one warp-wide matrix product. `rows(k)` gives row `base + k` of the warp's registers
/// (D, then A, then B, then C, as `warpscope_ptx::inst::Inst::Mma` lays them out); the result D
/// is written into the first rows for the lanes of `mask`.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
pub fn mma(
    shape: MmaShape,
    aty: Ty,
    bty: Ty,
    cty: Ty,
    sat: bool,
    regs: &mut [[u64; 32]],
    base: usize,
    mask: u32,
) {
    let Some((na, nb, nc, nd)) = shape.regs(aty, cty) else {
        return;
    };
    let (na, nb, nc, nd) = (na as usize, nb as usize, nc as usize, nd as usize);
    let (m, n, k) = dims(shape);
    let a0 = base + nd;
    let b0 = a0 + na;
    let c0 = b0 + nb;
    // gather A (m x k), B (k x n), C (m x n) as element bits
    let mut am = [[0u64; 32]; 32];
    let mut bm = [[0u64; 32]; 32];
    let mut cm = [[0u64; 32]; 32];
    let (pa, pb) = (per_reg(aty), per_reg(bty));
    // a lane's elements of each matrix; wmma's f16 A and B fragments repeat theirs in the
    // registers after them (m16n16k16's A: the second four registers repeat the first)
    let (a_elems, b_elems, c_elems) = (m * k / 32, k * n / 32, m * n / 32);
    debug_assert!(a_elems <= na * pa && b_elems <= nb * pb && c_elems <= nc * per_reg(cty));
    for l in 0..32 {
        for i in 0..a_elems {
            let (r, c) = a_elem(shape, aty, l, i);
            am[r][c] = elem(aty, regs[a0 + i / pa][l], i);
        }
        for i in 0..b_elems {
            let (r, c) = b_elem(shape, bty, l, i);
            if r < k && c < n {
                bm[r][c] = elem(bty, regs[b0 + i / pb][l], i);
            }
        }
        let pc = per_reg(cty);
        for i in 0..c_elems {
            let (r, c) = c_elem(shape, l, i);
            cm[r][c] = elem(cty, regs[c0 + i / pc][l], i);
        }
    }
    let mut dm = [[0u64; 32]; 32];
    for (r, drow) in dm.iter_mut().enumerate().take(m) {
        for (c, dv) in drow.iter_mut().enumerate().take(n) {
            let av = &am[r][..k];
            let mut bcol = [0u64; 32];
            for (kk, x) in bcol.iter_mut().enumerate().take(k) {
                *x = bm[kk][c];
            }
            let bv = &bcol[..k];
            *dv = match aty {
                Ty::S8 | Ty::U8 => {
                    let sx = |t: Ty, v: u64| {
                        if t == Ty::S8 {
                            v as u8 as i8 as i64
                        } else {
                            v as u8 as i64
                        }
                    };
                    let s: i64 = av.iter().zip(bv).map(|(&x, &y)| sx(aty, x) * sx(bty, y)).sum();
                    let s = s + cm[r][c] as u32 as i32 as i64;
                    let v = if sat {
                        s.clamp(i32::MIN as i64, i32::MAX as i64)
                    } else {
                        s as i32 as i64
                    };
                    v as u32 as u64
                }
                Ty::F64 => {
                    let mut acc = f64::from_bits(cm[r][c]);
                    for (&x, &y) in av.iter().zip(bv) {
                        acc = f64::from_bits(x).mul_add(f64::from_bits(y), acc);
                    }
                    arith::canon64(acc)
                }
                _ => {
                    if cty == Ty::F16 {
                        let c32 = arith::cvt(
                            Ty::F32,
                            Ty::F16,
                            warpscope_ptx::inst::Rnd::Default,
                            false,
                            cm[r][c],
                        );
                        let s = H100_FMA.dot(aty, av, bv, c32 as u32);
                        arith::cvt(Ty::F16, Ty::F32, warpscope_ptx::inst::Rnd::Rn, false, s as u64)
                    } else {
                        H100_FMA.dot(aty, av, bv, cm[r][c] as u32) as u64
                    }
                }
            };
        }
    }
    let pd = per_reg(cty);
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        for j in 0..nd {
            let mut v = 0u64;
            for e in 0..pd {
                let i = j * pd + e;
                let (r, c) = c_elem(shape, l, i);
                let w = ebits(cty);
                let keep = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
                v |= (dm[r][c] & keep) << (w * e);
            }
            regs[base + j][l] = v;
        }
    }
}

/// `ldmatrix` / `stmatrix` placement: lane `l`'s register for one 8x8 matrix holds the two 16-bit
/// elements at (row, col) and (row, col + 1) of the matrix (`trans`: at (col, row) and
/// (col + 1, row)), where row = l / 4 and col = 2 (l % 4). Returns the two (row, column) pairs.
pub fn matrix_elems(l: usize, trans: bool) -> [(usize, usize); 2] {
    let (g, t) = gt(l);
    if trans {
        [(2 * t, g), (2 * t + 1, g)]
    } else {
        [(g, 2 * t), (g, 2 * t + 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_cover_each_matrix_once() {
        for (shape, aty, cty) in [
            (MmaShape::M16n8k16, Ty::F16, Ty::F32),
            (MmaShape::M16n8k8, Ty::F16, Ty::F32),
            (MmaShape::M16n8k8, Ty::F32, Ty::F32),
            (MmaShape::M8n8k4, Ty::F64, Ty::F64),
            (MmaShape::M16n8k32, Ty::S8, Ty::S32),
            (MmaShape::M16n8k16, Ty::S8, Ty::S32),
            // wmma's shapes: a lane's elements (f16 A and B repeat theirs in the registers after)
            (MmaShape::M16n16k16, Ty::F16, Ty::F16),
            (MmaShape::M16n16k16, Ty::BF16, Ty::F32),
            (MmaShape::M16n16k16, Ty::S8, Ty::S32),
            (MmaShape::M32n8k16, Ty::F16, Ty::F32),
            (MmaShape::M32n8k16, Ty::BF16, Ty::F32),
            (MmaShape::M32n8k16, Ty::U8, Ty::S32),
            (MmaShape::M8n32k16, Ty::F16, Ty::F16),
            (MmaShape::M8n32k16, Ty::BF16, Ty::F32),
            (MmaShape::M8n32k16, Ty::S8, Ty::S32),
            (MmaShape::M16n16k8, Ty::F32, Ty::F32),
        ] {
            let (na, nb, nc, _) = shape.regs(aty, cty).unwrap();
            let (m, n, k) = dims(shape);
            let (pa, pc) = (per_reg(aty), per_reg(cty));
            assert!(
                m * k / 32 <= na as usize * pa && k * n / 32 <= nb as usize * pa,
                "{shape:?}"
            );
            assert_eq!(m * n / 32, nc as usize * pc, "{shape:?} C");
            let (na, nb) = (m * k / 32 / pa, k * n / 32 / pa);
            let mut seen = vec![0; m * k];
            for l in 0..32 {
                for i in 0..na * pa {
                    let (r, c) = a_elem(shape, aty, l, i);
                    seen[r * k + c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "{shape:?} A");
            let mut seen = vec![0; k * n];
            for l in 0..32 {
                for i in 0..nb * pa {
                    let (r, c) = b_elem(shape, aty, l, i);
                    seen[r * n + c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "{shape:?} B");
            let mut seen = vec![0; m * n];
            for l in 0..32 {
                for i in 0..nc as usize * pc {
                    let (r, c) = c_elem(shape, l, i);
                    seen[r * n + c] += 1;
                }
            }
            assert!(seen.iter().all(|&x| x == 1), "{shape:?} C");
        }
    }

    #[test]
    fn block_fma_exact_cases() {
        let one = 0x3c00u64; // f16 1.0
        let two = 0x4000u64;
        let m = H100_FMA;
        // 1*1 + 2*2 + 1.5 = 6.5
        assert_eq!(
            m.dot(Ty::F16, &[one, two], &[one, two], 1.5f32.to_bits()),
            6.5f32.to_bits()
        );
        // NaN in, inf * 0, inf - inf
        assert_eq!(m.dot(Ty::F16, &[0x7e00], &[one], 0), 0x7fff_ffff);
        assert_eq!(m.dot(Ty::F16, &[0x7c00], &[0], 0), 0x7fff_ffff);
        assert_eq!(m.dot(Ty::F16, &[0x7c00, 0xfc00], &[one, one], 0), 0x7fff_ffff);
        assert_eq!(m.dot(Ty::F16, &[0x7c00], &[one], 0), 0x7f80_0000);
        // truncation: 1 + 2^-30 stays 1 toward zero
        let tiny = 0x0400u64; // f16 2^-14
        assert_eq!(
            m.dot(Ty::F16, &[tiny], &[tiny], 1.0f32.to_bits()),
            1.0f32.to_bits()
        );
        // rounding to f32 toward zero vs to nearest
        let x = Exact {
            mant: (1 << 25) - 1,
            exp: -25,
            top: -1,
        }; // 1 - 2^-25
        assert_eq!(to_f32(x, Rounding::TowardZero), 0x3f7f_ffff);
        assert_eq!(to_f32(x, Rounding::Nearest), 0x3f80_0000);
        let y = Exact {
            mant: -((1 << 25) - 1),
            exp: -25,
            top: -1,
        };
        assert_eq!(to_f32(y, Rounding::Down), 0xbf80_0000);
    }

    #[test]
    fn matrix_elems_transpose() {
        assert_eq!(matrix_elems(5, false), [(1, 2), (1, 3)]);
        assert_eq!(matrix_elems(5, true), [(2, 1), (3, 1)]);
    }
}
