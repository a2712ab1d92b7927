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
//! (16-bit types, imm-trans): element (mn, k) is at
//! `start + 2 (mn % 8) + (mn / 8) SBO + (k % 8) 16 + (k / 8) LBO` without swizzle, and with a
//! swizzle of S bytes at `start + 2 (mn % (S/2)) + (mn / (S/2)) LBO + (k % 8) S + (k / 8) SBO`.
//! A swizzle of S bytes then XORs address bits 4.. with bits 7.. (`log2(S / 16)` bits of each)
//! of the shared address; a nonzero base offset `b` makes the row bits `(address >> 7) - b`.
//!
//! Sparse forms (`.sp`, calibration/wgmma-sp): A stores K/2 columns as a dense A does; B's K-major
//! rows hold 64 bytes (past a 32-byte swizzle atom: the next atom LBO bytes on); the metadata
//! ([`sparse_k`]) picks each stored element's place in its chunk of K, and the stored products
//! follow the dense rule.

use warpscope_ptx::inst::{Rnd, Ty, WgTy, WgmmaForm};

use crate::arith;
use crate::tensor::{self, BlockFma, H100_FMA, Rounding};

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
        } else if kb >= sw {
            // a sparse form's B rows hold 64 bytes of K: past a 32-byte swizzle atom
            match rule().wide_k {
                WideK::Lbo => d.start + (mn / 8) * d.sbo + (kb / sw) * d.lbo + (mn % 8) * sw + kb % sw,
                WideK::Sbo => d.start + (mn / 8) * d.sbo + (kb / sw) * 8 * sw + (mn % 8) * sw + kb % sw,
                WideK::Linear => d.start + (mn / 8) * d.sbo + (mn % 8) * sw + kb,
            }
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
    if d.base_offset != 0 && sw != 0 {
        // the base offset moves the swizzle's row phase back (measured with 128-byte swizzles)
        let mask = sw / 16 - 1;
        let r = a >> 7;
        let phase = match rule().base_offset {
            BaseOffset::Subtract => r.wrapping_sub(d.base_offset),
            BaseOffset::Add => r.wrapping_add(d.base_offset),
            BaseOffset::Xor => r ^ d.base_offset,
            BaseOffset::Ignore => r,
        } & mask;
        return a ^ (phase << 4);
    }
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

/// The tensor core's rule for fp8 products (calibration/wgmma): `block` products at a time, each
/// block's products and the running sum aligned to the largest exponent among them (a product's:
/// its operands' exponent sum) and truncated toward zero to `kept` bits below it, summed exactly,
/// the sum made f32 (`round`) and its fraction truncated to `out_bits` bits: about 14 significant
/// bits survive a k32 step, against 25 for f16 operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fp8Fma {
    /// Products summed together in one step.
    pub block: usize,
    /// Bits kept below the largest term's leading bit (its exponent sum for a product).
    pub kept: i32,
    /// The running sum joins the block's alignment (`true`) or is added after at f32 precision.
    pub c_in_block: bool,
    /// How a block's sum becomes f32.
    pub round: Rounding,
    /// Align to a product's exponent sum (`true`) or its leading bit.
    pub product_top: bool,
    /// Fraction bits a block's f32 result keeps (the rest truncated toward zero).
    pub out_bits: u32,
}

/// The fp8 rule measured on an H100-class GPU (calibration/wgmma/README.md): one block of all 32
/// products and the running sum, 13 bits kept below the largest exponent, truncated; the f32
/// result keeps 13 fraction bits (an f16 D is rounded from the unshortened f32).
pub const FP8_FMA: Fp8Fma = Fp8Fma {
    block: 32,
    kept: 13,
    c_in_block: true,
    round: Rounding::TowardZero,
    product_top: true,
    out_bits: 13,
};

/// How the descriptor's base offset enters the swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseOffset {
    /// The row phase is `(address >> 7) - base offset` (measured).
    Subtract,
    /// `(address >> 7) + base offset`.
    Add,
    /// `(address >> 7) ^ base offset`.
    Xor,
    /// Not used.
    Ignore,
}

/// Every choice of the model that the calibration pins down (`WGMMA_RULE` is the measured one);
/// public so that a test can show the measurements rule out the alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgmmaRule {
    /// f16 / bf16 / tf32 products.
    pub fma: BlockFma,
    /// An f16 D of f16 products: rounded to f16 from the block's sum (`true`) or from its f32.
    pub f16_direct: bool,
    /// fp8 products.
    pub fp8: Fp8Fma,
    /// Fraction bits an fp8 block keeps when D is f16.
    pub fp8_f16_out_bits: u32,
    /// The base offset.
    pub base_offset: BaseOffset,
    /// Where a sparse form's metadata sits in the warp's registers: 16-bit and tf32 operands
    /// (`[0]`), 8-bit ones (`[1]`).
    pub meta: [MetaLayout; 2],
    /// How a sparse form's products are grouped into blocks.
    pub sparse_blocks: SparseBlocks,
    /// A K-major row wider than its swizzle atom (sparse B, 32-byte swizzle).
    pub wide_k: WideK,
}

/// Where the 4-bit metadata field of chunk `c` (4 elements of K; tf32: 2) of the warp's row `r`
/// (0..16) sits: (lane, bit), with `g = r % 8`, `h = r / 8` and `i` the sparsity selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetaLayout {
    /// Lane `4 g + 2 i + c / 4`, bits `16 h + 4 (c % 4)`: each lane of the selected pair holds four
    /// chunks of row g (low half) and of row g + 8 (high half); 8-bit types' 16 chunks use all
    /// four lanes of the quad.
    Halves,
    /// Lane `4 g + 2 i + h` (8-bit: `4 g + 2 (c / 8) + h`), bits `4 (c % 8)`: a lane per row.
    Rows,
}

/// How the compressed products of a sparse form are summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SparseBlocks {
    /// The stored products in the blocks of the dense rule (f16/bf16: all 16 in one block, tf32:
    /// all 8, fp8: all 32).
    Stored,
    /// Per block of the dense K (f16/bf16: 8 stored products, tf32: 4, fp8: 16).
    Logical,
}

/// Where byte `kb >= S` of a K-major row lies with a swizzle of S bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideK {
    /// In the atom `kb / S` LBO bytes on.
    Lbo,
    /// In the next atom (8 S bytes on).
    Sbo,
    /// Straight on in the row (the swizzle row is longer than S).
    Linear,
}

/// The rule measured on an H100-class GPU (calibration/wgmma/README.md).
pub const WGMMA_RULE: WgmmaRule = WgmmaRule {
    fma: H100_FMA,
    f16_direct: true,
    fp8: FP8_FMA,
    fp8_f16_out_bits: 23,
    base_offset: BaseOffset::Subtract,
    meta: [MetaLayout::Halves, MetaLayout::Rows],
    sparse_blocks: SparseBlocks::Stored,
    wide_k: WideK::Lbo,
};

static RULE: std::sync::RwLock<WgmmaRule> = std::sync::RwLock::new(WGMMA_RULE);

/// Replaces the rule for the whole process (for calibration tests that count what alternatives
/// break; everything else uses [`WGMMA_RULE`]).
pub fn set_rule(r: WgmmaRule) {
    *RULE.write().unwrap_or_else(|e| e.into_inner()) = r;
}

fn rule() -> WgmmaRule {
    *RULE.read().unwrap_or_else(|e| e.into_inner())
}

impl Fp8Fma {
    /// `c + sum a[k] b[k]` for f16-encoded fp8 operands into an f32 accumulator (bits).
    pub fn dot(&self, a: &[u64], b: &[u64], c: u32) -> u32 {
        // special values as the f16 rule treats them
        let full = H100_FMA.dot(Ty::F16, a, b, c);
        if full & 0x7f80_0000 == 0x7f80_0000 {
            return full;
        }
        let mut acc = c;
        for (ca, cb) in a.chunks(self.block.max(1)).zip(b.chunks(self.block.max(1))) {
            acc = self.step(acc, ca, cb);
        }
        acc
    }

    fn step(&self, acc: u32, a: &[u64], b: &[u64]) -> u32 {
        let Some(c) = tensor::exact(u64::from(acc), 8, 23) else {
            return acc;
        };
        let mut prods = Vec::with_capacity(a.len() + 1);
        for (&x, &y) in a.iter().zip(b) {
            let (Some(p), Some(q)) = (tensor::exact(x, 5, 10), tensor::exact(y, 5, 10)) else {
                continue;
            };
            let mut e = tensor::Exact {
                mant: p.mant * q.mant,
                exp: p.exp + q.exp,
                top: p.top + q.top,
            };
            if e.mant == 0 {
                continue;
            }
            if !self.product_top {
                e.top = tensor::lead(&e);
            }
            prods.push(e);
        }
        if self.c_in_block && c.mant != 0 {
            prods.push(c);
        }
        let Some(emax) = prods.iter().map(|x| x.top).max() else {
            return acc;
        };
        let floor = emax - self.kept;
        let mut sum: i128 = 0;
        for x in &prods {
            let sh = x.exp - floor;
            sum += if sh >= 0 {
                x.mant << sh.min(100) as u32
            } else if sh <= -127 {
                0
            } else {
                let m = x.mant.unsigned_abs() >> (-sh) as u32;
                if x.mant < 0 { -(m as i128) } else { m as i128 }
            };
        }
        let s = tensor::Exact {
            mant: sum,
            exp: floor,
            top: 0,
        };
        if self.c_in_block {
            return self.narrow(tensor::to_f32(s, self.round));
        }
        let s = tensor::to_f32(s, self.round);
        let r = f32::from_bits(acc) + f32::from_bits(s);
        self.narrow(if r == 0.0 && sum == 0 { acc } else { r.to_bits() })
    }

    /// Truncates an f32's fraction to `out_bits` bits.
    fn narrow(&self, x: u32) -> u32 {
        if x & 0x7f80_0000 == 0x7f80_0000 || self.out_bits >= 23 {
            return x;
        }
        x & !((1u32 << (23 - self.out_bits)) - 1)
    }
}

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
    let (kb, sub) = if mn_major {
        (k, 0)
    } else {
        (k * bits / 8, k * bits % 8)
    };
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
    // B's K; A holds `ka` columns (half of K when sparse)
    let k = form.k() as usize;
    let ka = form.aty.k() as usize;
    let (abits, bbits) = (form.aty.bits(), form.bty.bits());
    // B: K x N
    let bd = Desc::decode(regs[b][l0]);
    let mut bm = vec![0u64; k * n];
    for nn in 0..n {
        for kk in 0..k {
            bm[kk * n + nn] = smem_elem(
                read,
                &bd,
                form.has(WgmmaForm::TRANS_B),
                bbits,
                nn as u32,
                kk as u32,
            )?;
        }
    }
    // A: the warp's 16 rows x ka
    let mut am = vec![0u64; 16 * ka];
    if form.a_regs() {
        let per = (32 / abits) as usize;
        for l in 0..32 {
            for e in 0..4 * per {
                let (r, c) = a_reg_elem(form.aty, l, e);
                let reg = regs[a + e / per][l];
                let w = abits as usize;
                am[r * ka + c] = (reg >> (w * (e % per))) & ((1u64 << w) - 1);
            }
        }
    } else {
        let ad = Desc::decode(regs[a][l0]);
        for r in 0..16 {
            for kk in 0..ka {
                let m = 16 * wg_warp + r as u32;
                am[r * ka + kk] = smem_elem(read, &ad, form.has(WgmmaForm::TRANS_A), abits, m, kk as u32)?;
            }
        }
    }
    // sparse: the K index of each stored element of A, from the metadata (row b + 1)
    let kidx: Vec<usize> = if form.sparse() {
        let meta = regs[b + 1];
        (0..16 * ka)
            .map(|i| sparse_k(form, &meta, i / ka, i % ka))
            .collect()
    } else {
        (0..16 * ka).map(|i| i % ka).collect()
    };
    let r0 = rule();
    let r = if form.sparse() && r0.sparse_blocks == SparseBlocks::Logical {
        // the dense K's blocks over the stored products
        let mut r = r0;
        r.fma.block = if form.aty == WgTy::TF32 { 4 } else { 8 };
        r.fp8.block = 16;
        r
    } else {
        r0
    };
    let rule = r;
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
                for kk in 0..ka {
                    arow[kk] = am[r * ka + kk];
                    bcol[kk] = bm[kidx[r * ka + kk] * n + c];
                }
                let v = dot_with(
                    rule,
                    form,
                    &arow[..ka],
                    &bcol[..ka],
                    if use_c { Some(old) } else { None },
                );
                out |= v << (32 / per_d * h);
            }
            regs[d + j][l] = out;
        }
    }
    Ok(())
}

/// The K index of stored column `j` of the warp's row `r` of a sparse A, from the warp's
/// metadata registers (`meta[lane]`): 16-bit and 8-bit types keep 2 of each 4 elements (a 4-bit
/// field of two 2-bit indices per chunk, the first for stored column 2c, the second for 2c + 1),
/// tf32 1 of each 2 (field 0b0100: the first, 0b1110: the second; as pairs of 16-bit halves).
pub fn sparse_k(form: WgmmaForm, meta: &[u64; 32], r: usize, j: usize) -> usize {
    let tf32 = form.aty == WgTy::TF32;
    let c = if tf32 { j } else { j / 2 };
    let sel = usize::from(form.has(WgmmaForm::SP_SEL1));
    let (g, h) = (r % 8, r / 8);
    let eight = form.aty.bits() == 8;
    let (lane, bit) = match rule().meta[usize::from(eight)] {
        MetaLayout::Halves => (4 * g + 2 * sel + c / 4, 16 * h + 4 * (c % 4)),
        MetaLayout::Rows => {
            let pair = if eight { c / 8 } else { sel };
            (4 * g + 2 * pair + h, 4 * (c % 8))
        }
    };
    let field = (meta[lane] >> bit) as usize & 15;
    if tf32 {
        2 * c + ((field & 3) >> 1)
    } else {
        4 * c + ((field >> (2 * (j % 2))) & 3)
    }
}

/// One element of D: `c + sum a[k] b[k]` (`c` absent when scale-d is false) in D's type, bits.
pub fn dot(form: WgmmaForm, a: &[u64], b: &[u64], c: Option<u64>) -> u64 {
    dot_with(rule(), form, a, b, c)
}

fn dot_with(rule: WgmmaRule, form: WgmmaForm, a: &[u64], b: &[u64], c: Option<u64>) -> u64 {
    match form.aty {
        WgTy::S8 | WgTy::U8 => {
            let sx = |t: WgTy, v: u64| {
                if t == WgTy::S8 {
                    v as u8 as i8 as i64
                } else {
                    v as u8 as i64
                }
            };
            let s: i64 = a
                .iter()
                .zip(b)
                .map(|(&x, &y)| sx(form.aty, x) * sx(form.bty, y))
                .sum();
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
                Some(c) if form.dty == WgTy::F16 => {
                    arith::cvt(Ty::F32, Ty::F16, Rnd::Default, false, c) as u32
                }
                Some(c) => c as u32,
            };
            if matches!(form.aty, WgTy::E4M3 | WgTy::E5M2) {
                let r = rule;
                let mut fp8 = r.fp8;
                if form.dty == WgTy::F16 {
                    fp8.out_bits = r.fp8_f16_out_bits;
                }
                let acc = fp8.dot(&av[..kk], &bv[..kk], c32);
                return if form.dty == WgTy::F16 {
                    arith::cvt(Ty::F16, Ty::F32, Rnd::Rn, false, u64::from(acc))
                } else {
                    u64::from(acc)
                };
            }
            let r = rule;
            let fma = r.fma;
            if form.dty == WgTy::F16 && kk <= fma.block && r.f16_direct {
                return f16_dot(fma, &av[..kk], &bv[..kk], c32);
            }
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

/// An f16 D of f16 operands: the block sum of `fma` (every term truncated to 2 bits below
/// the f32 significand of the largest) rounded to f16 to nearest once, with no f32 step between
/// (measured: rounding the f32 first breaks a row whose sum lies just past an f16 tie).
fn f16_dot(fma: BlockFma, a: &[u64], b: &[u64], c32: u32) -> u64 {
    let full = fma.dot(Ty::F16, a, b, c32);
    let via_f32 = arith::cvt(Ty::F16, Ty::F32, Rnd::Rn, false, u64::from(full));
    if full & 0x7f80_0000 == 0x7f80_0000 || full & 0x7fff_ffff == 0 {
        return via_f32;
    }
    let mut terms = Vec::with_capacity(a.len() + 1);
    if let Some(c) = tensor::exact(u64::from(c32), 8, 23).filter(|c| c.mant != 0) {
        terms.push(c);
    }
    for (&x, &y) in a.iter().zip(b) {
        if let (Some(p), Some(q)) = (tensor::exact(x, 5, 10), tensor::exact(y, 5, 10))
            && p.mant != 0
            && q.mant != 0
        {
            terms.push(tensor::Exact {
                mant: p.mant * q.mant,
                exp: p.exp + q.exp,
                top: p.top + q.top,
            });
        }
    }
    let Some(emax) = terms.iter().map(|x| x.top).max() else {
        return via_f32;
    };
    let floor = emax - 23 - fma.extra_bits as i32;
    let sum: i128 = terms
        .iter()
        .map(|x| {
            let sh = x.exp - floor;
            if sh >= 0 {
                x.mant << sh.min(100) as u32
            } else if sh <= -127 {
                0
            } else {
                let m = x.mant.unsigned_abs() >> (-sh) as u32;
                if x.mant < 0 { -(m as i128) } else { m as i128 }
            }
        })
        .sum();
    if sum == 0 || sum.unsigned_abs() >= 1 << 53 {
        return via_f32;
    }
    let v = (sum as f64) * 2f64.powi(floor);
    arith::cvt(Ty::F16, Ty::F64, Rnd::Rn, false, v.to_bits())
}

/// The 16-byte chunks of shared memory one warp's part of a `wgmma.mma_async` stands for, as
/// chunk start addresses (swizzle applied): the warp's 16 rows of A (when A comes from a
/// descriptor: two chunks per K-major row; MN-major, one chunk per 8 rows per k), then every
/// fourth chunk of B from the warp's place in its warpgroup on (B is read once for the warpgroup;
/// the four warps' shares make it whole). Their bytes are what Nsight Compute counts in
/// `sm__sass_data_bytes_mem_shared_op_gmma` (calibration/wgmma).
pub fn chunks(form: WgmmaForm, a_desc: Option<u64>, b_desc: u64, wg_warp: u32) -> Vec<u32> {
    // k: the operand's K (a sparse A stores half of B's); K-major rows of k * bits / 8 bytes
    let operand = |d: &Desc, trans: bool, first: u32, rows: u32, k: u32, bits: u32| {
        let mut out = Vec::new();
        if trans {
            for kk in 0..k {
                for j in (first..first + rows).step_by(8) {
                    out.push(operand_addr(d, true, j, kk));
                }
            }
        } else {
            for mn in first..first + rows {
                for c in 0..(k * bits / 128).max(2) {
                    out.push(operand_addr(d, false, mn, 16 * c));
                }
            }
        }
        out
    };
    let mut out = match a_desc {
        Some(a) => operand(
            &Desc::decode(a),
            form.has(WgmmaForm::TRANS_A),
            16 * wg_warp,
            16,
            form.aty.k(),
            form.aty.bits(),
        ),
        None => Vec::new(),
    };
    let b = operand(
        &Desc::decode(b_desc),
        form.has(WgmmaForm::TRANS_B),
        0,
        u32::from(form.n),
        form.k(),
        form.bty.bits(),
    );
    out.extend(b.into_iter().skip(wg_warp as usize % 4).step_by(4));
    out
}
