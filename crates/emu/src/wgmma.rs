//! Hopper's warpgroup matrix multiply-accumulate (`wgmma.mma_async`) as pure functions: the
//! shared-memory matrix descriptor, the canonical layouts with their swizzles, the register
//! fragments, and the product.
//!
//! A warpgroup is four consecutive warps (warps 4k..4k+3 of the block); the instruction computes
//! a 64xN D = A (64xK) * B (KxN) + D, warp `w % 4` holding rows 16 (w % 4) .. +16 of D (and of A
//! when A comes from registers). Each warp's slice depends only on its own registers, its 16 rows
//! of A and all of B, so the emulator executes the instruction warp by warp when the warp issues
//! it: the PTX ISA leaves the accumulators undefined until `wgmma.wait_group` retires the group
//! and forbids changing the shared operands meanwhile, so a program that keeps the rules cannot
//! tell the difference (one that does not is a `check` finding, see `warpscope_analysis`).
//!
//! Addressing (PTX ISA "Matrix Descriptor", CUTLASS's canonical GMMA layouts; measured on an H100
//! in calibration/wgmma): a descriptor holds the start address, the leading-dimension byte offset
//! (LBO) and the stride-dimension byte offset (SBO), all >> 4, a 3-bit base offset and the
//! swizzle mode. A core matrix is 8 rows of 16 bytes. K-major operands (every type): row `mn` of
//! the operand holds the instruction's 32 bytes of K; without swizzle, byte `kb` of row `mn` is at
//! `start + (mn / 8) SBO + (kb / 16) LBO + (mn % 8) 16 + kb % 16`; with a swizzle of S bytes
//! (32, 64, 128) at `start + (mn / 8) SBO + (mn % 8) S + kb`, LBO unused. MN-major operands
//! (16-bit types, imm-trans): element (mn, k) is at `start + 2 (mn % 8) + (mn / 8) SBO + (k % 8) 16
//! + (k / 8) LBO` without swizzle, and with a swizzle of S bytes at `start + 2 (mn % (S/2)) +
//! (mn / (S/2)) LBO + (k % 8) S + (k / 8) SBO`. A swizzle of S bytes then XORs address bits 4..
//! with bits 7.. (`log2(S / 16)` bits of each) of the shared address.

use warpscope_ptx::inst::{Rnd, Ty, WgTy, WgmmaForm};

use crate::arith;
use crate::tensor::{BlockFma, H100_FMA};

/// A decoded shared-memory matrix descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    /// Start address (a shared-window offset, bytes).
    pub start: u32,
    /// Leading-dimension byte offset.
    pub lbo: u32,
    /// Stride-dimension byte offset.
    pub sbo: u32,
    /// The base offset field (bits 49-51).
    pub base_offset: u32,
    /// Swizzle width in bytes: 0 (none), 32, 64 or 128.
    pub swizzle: u32,
}

impl Desc {
    /// Decodes the 64-bit descriptor.
    pub fn decode(d: u64) -> Desc {
        let f14 = |s: u32| (((d >> s) & 0x3fff) as u32) << 4;
        Desc {
            start: f14(0),
            lbo: f14(16),
            sbo: f14(32),
            base_offset: ((d >> 49) & 7) as u32,
            swizzle: match d >> 62 {
                0 => 0,
                1 => 128,
                2 => 64,
                _ => 32,
            },
        }
    }
}

/// Applies a swizzle of `sw` bytes (0, 32, 64, 128) to a shared address: bits 4.. ^= bits 7...
pub fn swizzle(addr: u32, sw: u32) -> u32 {
    if sw == 0 {
        return addr;
    }
    let mask = sw / 16 - 1;
    addr ^ (((addr >> 7) & mask) << 4)
}

/// The shared address of byte `kb` of K (K-major) or of the 16-bit element (mn, k) (MN-major,
/// `kb` = k) of an operand, swizzle applied.
pub fn operand_addr(d: &Desc, mn_major: bool, mn: u32, kb: u32) -> u32 {
    let sw = d.swizzle;
    let a = if !mn_major {
        if sw == 0 {
            d.start + (mn / 8) * d.sbo + (kb / 16) * d.lbo + (mn % 8) * 16 + kb % 16
        } else {
            d.start + (mn / 8) * d.sbo + (mn % 8) * sw + kb
        }
    } else {
        let k = kb;
        if sw == 0 {
            d.start + 2 * (mn % 8) + (mn / 8) * d.sbo + (k % 8) * 16 + (k / 8) * d.lbo
        } else {
            let per = sw / 2;
            d.start + 2 * (mn % per) + (mn / per) * d.lbo + (k % 8) * sw + (k / 8) * d.sbo
        }
    };
    swizzle(a, sw)
}

/// Where element `e` of lane `l`'s A registers sits in the warp's 16 x K slice: (row, k).
/// Elements are numbered in register order, low bits first.
pub fn a_reg_elem(aty: WgTy, l: usize, e: usize) -> (usize, usize) {
    let (g, t) = (l / 4, l % 4);
    match aty.bits() {
        16 => (g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)),
        32 => (g + 8 * (e % 2), t + 4 * (e / 2)),
        8 => (g + 8 * ((e / 4) % 2), 4 * t + e % 4 + 16 * (e / 8)),
        _ => (g + 8 * ((e / 32) % 2), 32 * t + e % 32 + 128 * (e / 64)),
    }
}

/// Where element `i` (in register order; two per register for an f16 D) of lane `l`'s
/// accumulators sits in the warp's 16 x N slice of D: (row, column).
pub fn d_elem(l: usize, i: usize) -> (usize, usize) {
    let (g, t) = (l / 4, l % 4);
    (g + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * t + i % 2)
}

/// The tensor core's floating-point rule for one wgmma: products of one k block summed exactly
/// and truncated as [`BlockFma`] says.
pub const WGMMA_FMA: BlockFma = H100_FMA;

/// Products summed together for fp8 operands (k32: two blocks of 16).
pub const FP8_BLOCK: usize = 16;

/// An fp8 value as the f16 of equal value (every e4m3 / e5m2 value is one); NaN stays NaN.
pub fn fp8_to_f16(t: WgTy, v: u8) -> u16 {
    let s = u16::from(v >> 7) << 15;
    match t {
        WgTy::E5M2 => u16::from(v) << 8,
        _ => {
            let e = (v >> 3) & 15;
            let m = u16::from(v & 7);
            if e == 15 && m == 7 {
                return s | 0x7e00;
            }
            if e == 0 {
                if m == 0 {
                    return s;
                }
                // subnormal: m * 2^-9 = normal in f16
                let lz = m.leading_zeros() - 13; // bits of m below its leading one: 2 - lz
                let shift = lz + 1; // normalise so the leading one reaches bit 3
                let mm = (m << shift) & 7;
                let ee = 1i32 - 7 - shift as i32 + 15; // f16 biased exponent
                return s | ((ee as u16) << 10) | (mm << 7);
            }
            s | ((u16::from(e) + 8) << 10) | (m << 7)
        }
    }
}

/// Reads a shared-memory byte range: `read(addr, bytes)` -> the little-endian value or `None`
/// out of bounds.
pub type Reader<'r> = &'r mut dyn FnMut(u32, u32) -> Option<u64>;

/// One operand element's bits from shared memory (`bits` per element; b1: one bit).
fn smem_elem(read: Reader<'_>, d: &Desc, mn_major: bool, bits: u32, mn: u32, k: u32) -> Result<u64, u32> {
    let (kb, sub) = if mn_major { (k, 0) } else { (k * bits / 8, k * bits % 8) };
    let at = operand_addr(d, mn_major, mn, kb);
    let nbytes = bits.div_ceil(8);
    let v = read(at, nbytes).ok_or(at)?;
    Ok(if bits == 1 { (v >> sub) & 1 } else { v })
}

/// Executes one warp's part of a `wgmma.mma_async`: `regs` are the warp's register rows, `d`
/// the first accumulator row, `a` the A descriptor row (or first A register row), `b` the B
/// descriptor row; `scale` the lanes whose scale-d is true (the warpgroup's value is lane
/// `mask`'s lowest); `wg_warp` the warp's place in its warpgroup. Descriptors are read from the
/// lowest lane of `mask`. `Err(addr)`: a shared address out of bounds.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
pub fn exec(
    form: WgmmaForm,
    regs: &mut [[u64; 32]],
    d: usize,
    a: usize,
    b: usize,
    scale: u32,
    mask: u32,
    wg_warp: u32,
    read: Reader<'_>,
) -> Result<(), u32> {
    if mask == 0 {
        return Ok(());
    }
    let l0 = mask.trailing_zeros() as usize;
    let n = form.n as usize;
    let k = form.k() as usize;
    let (abits, bbits) = (form.aty.bits(), form.bty.bits());
    // B: K x N
    let bd = Desc::decode(regs[b][l0]);
    let mut bm = vec![0u64; k * n];
    for nn in 0..n {
        for kk in 0..k {
            bm[kk * n + nn] = smem_elem(read, &bd, form.has(WgmmaForm::TRANS_B), bbits, nn as u32, kk as u32)?;
        }
    }
    // A: the warp's 16 rows x K
    let mut am = vec![0u64; 16 * k];
    if form.a_regs() {
        let per = (32 / abits) as usize;
        for l in 0..32 {
            for e in 0..4 * per {
                let (r, c) = a_reg_elem(form.aty, l, e);
                let reg = regs[a + e / per][l];
                let w = abits as usize;
                am[r * k + c] = (reg >> (w * (e % per))) & ((1u64 << w) - 1);
            }
        }
    } else {
        let ad = Desc::decode(regs[a][l0]);
        for r in 0..16 {
            for kk in 0..k {
                let m = 16 * wg_warp + r as u32;
                am[r * k + kk] = smem_elem(read, &ad, form.has(WgmmaForm::TRANS_A), abits, m, kk as u32)?;
            }
        }
    }
    let use_c = scale >> l0 & 1 == 1;
    let per_d = if form.dty == WgTy::F16 { 2 } else { 1 };
    let nregs = form.d_regs() as usize;
    let mut arow = [0u64; 256];
    let mut bcol = [0u64; 256];
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        for j in 0..nregs {
            let mut out = 0u64;
            for h in 0..per_d {
                let i = j * per_d + h;
                let (r, c) = d_elem(l, i);
                let old = if per_d == 2 {
                    (regs[d + j][l] >> (16 * h)) & 0xffff
                } else {
                    regs[d + j][l] & 0xffff_ffff
                };
                for kk in 0..k {
                    arow[kk] = am[r * k + kk];
                    bcol[kk] = bm[kk * n + c];
                }
                let v = dot(form, &arow[..k], &bcol[..k], if use_c { Some(old) } else { None });
                out |= v << (32 / per_d * h);
            }
            regs[d + j][l] = out;
        }
    }
    Ok(())
}

/// One element of D: `c + sum a[k] b[k]` (`c` absent when scale-d is false) in D's type, bits.
pub fn dot(form: WgmmaForm, a: &[u64], b: &[u64], c: Option<u64>) -> u64 {
    match form.aty {
        WgTy::S8 | WgTy::U8 => {
            let sx = |t: WgTy, v: u64| if t == WgTy::S8 { v as u8 as i8 as i64 } else { v as u8 as i64 };
            let s: i64 = a.iter().zip(b).map(|(&x, &y)| sx(form.aty, x) * sx(form.bty, y)).sum();
            let s = s + c.map_or(0, |c| c as u32 as i32 as i64);
            let v = if form.has(WgmmaForm::SATFINITE) {
                s.clamp(i32::MIN as i64, i32::MAX as i64)
            } else {
                s as i32 as i64
            };
            v as u32 as u64
        }
        WgTy::B1 => {
            let s: u32 = a.iter().zip(b).map(|(&x, &y)| (x & y & 1) as u32).sum();
            (c.unwrap_or(0) as u32).wrapping_add(s) as u64
        }
        _ => {
            // floating point: operands as f16 / bf16 / tf32 bits, negation on the sign bit
            let (t, sign) = match form.aty {
                WgTy::F16 | WgTy::E4M3 | WgTy::E5M2 => (Ty::F16, 15),
                WgTy::BF16 => (Ty::BF16, 15),
                _ => (Ty::F32, 31),
            };
            let conv = |ty: WgTy, v: u64, neg: bool| {
                let x = match ty {
                    WgTy::E4M3 | WgTy::E5M2 => u64::from(fp8_to_f16(ty, v as u8)),
                    _ => v,
                };
                if neg { x ^ 1 << sign } else { x }
            };
            let mut av = [0u64; 32];
            let mut bv = [0u64; 32];
            for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
                av[i] = conv(form.aty, x, form.has(WgmmaForm::NEG_A));
                bv[i] = conv(form.bty, y, form.has(WgmmaForm::NEG_B));
            }
            let kk = a.len();
            let c32 = match c {
                None => 0u32,
                Some(c) if form.dty == WgTy::F16 => arith::cvt(Ty::F32, Ty::F16, Rnd::Default, false, c) as u32,
                Some(c) => c as u32,
            };
            let fma = if matches!(form.aty, WgTy::E4M3 | WgTy::E5M2) {
                BlockFma { block: FP8_BLOCK, ..WGMMA_FMA }
            } else {
                WGMMA_FMA
            };
            let mut acc = c32;
            // BlockFma takes one block of products per call after C
            for (ca, cb) in av[..kk].chunks(fma.block).zip(bv[..kk].chunks(fma.block)) {
                acc = fma.dot(t, ca, cb, acc);
            }
            if form.dty == WgTy::F16 {
                arith::cvt(Ty::F16, Ty::F32, Rnd::Rn, false, u64::from(acc))
            } else {
                u64::from(acc)
            }
        }
    }
}
