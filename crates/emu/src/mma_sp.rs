//! Warp-level sparse matrix multiply-accumulate (`mma.sp{::ordered_metadata}.sync.aligned
//! .m16n8kK.row.col`) as a pure function: the register fragments of the compressed A, of B and of
//! C/D, the metadata word and the sparsity selector, and the product (measured on an H200 in
//! calibration/wgmma-sp, the `m_` kernels).
//!
//! A is 16 x K, 2:4 sparse (tf32: 1:2), stored compressed as 16 x K/2 elements in the registers
//! of the dense A of K/2 (f16/bf16 k16: m16n8k8's A, k32: m16n8k16's; tf32 k8: a 16 x 4 A of one
//! element per lane and row half, k16: m16n8k8's; s8/u8/fp8 k32: m16n8k16's, k64: m16n8k32's); B
//! is the dense K x 8 B extended along K (16-bit: rows `2 t + i % 2 + 8 (i / 2)`, tf32: `t + 4 i`,
//! 8-bit: `4 t + i % 4 + 16 (i / 4)`), C and D are m16n8's. Each chunk of K (4 elements; tf32: 2)
//! of a row has a 4-bit metadata field of two 2-bit indices, the first for stored column 2c, the
//! second for 2c + 1 (tf32: 0b0100 the first element, 0b1110 the second). Where a row's fields
//! lie in the warp's metadata registers: [`MMA_SP_RULE`]. The stored products are summed as a
//! sparse `wgmma` sums them ([`crate::wgmma::dot`]).

use warpscope_ptx::inst::{WgTy, WgmmaForm};

use crate::wgmma;

/// Where the field of chunk `c` of row `r` (`g = r % 8`, `h = r / 8`) sits, `f` being the fields
/// of a row (K/4; tf32: K/2) and `i` the selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpMeta {
    /// Lane `4 g + (f / 4) i + c / 4`, bits `16 h + 4 (c % 4)`: a lane holds four chunks of row
    /// g (low half) and the same four of row g + 8 (high half).
    Halves,
    /// Lane `4 g + 2 (i + c / 8) + h`, bits `4 (c % 8)`: a lane per row (and per eight chunks).
    Rows,
}

/// The metadata layouts of 16-bit and tf32 operands (`[0]`), of s8/u8 (`[1]`) and of e4m3/e5m2
/// (`[2]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MmaSpRule {
    /// The layouts.
    pub meta: [SpMeta; 3],
    /// How e4m3/e5m2 products are summed.
    pub fp8: Fp8Sum,
}

/// The arithmetic of fp8 operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8Sum {
    /// Converted to f16 (as ptxas compiles it for sm_90a): the stored columns `j % 4 < 2` (each
    /// A register's bytes 0 and 1) summed from zero as one block of the f16 rule, the other
    /// sixteen added as a second block, and C added to that by an f32 add to nearest.
    F16PairsThenAdd,
    /// As [`Fp8Sum::F16PairsThenAdd`] with C in the first block (no f32 add).
    F16PairsCFirst,
    /// Converted to f16 and summed as two blocks of the f16 rule in K order (stored columns
    /// 0..16, then 16..32), C first.
    F16Halves,
    /// All 32 stored products in one block of the sparse fp8 `wgmma` rule.
    Fp8Block,
}

/// The rule measured on an H200 (calibration/wgmma-sp/README.md): the sparse wgmma's layouts.
pub const MMA_SP_RULE: MmaSpRule = MmaSpRule {
    meta: [SpMeta::Halves, SpMeta::Rows, SpMeta::Rows],
    fp8: Fp8Sum::F16PairsThenAdd,
};

static RULE: std::sync::RwLock<MmaSpRule> = std::sync::RwLock::new(MMA_SP_RULE);

/// Replaces the rule for the whole process (for calibration tests that count what alternatives
/// break; everything else uses [`MMA_SP_RULE`]).
pub fn set_rule(r: MmaSpRule) {
    *RULE.write().unwrap_or_else(|e| e.into_inner()) = r;
}

fn rule() -> MmaSpRule {
    *RULE.read().unwrap_or_else(|e| e.into_inner())
}

/// Where element `e` (register order, low bits first) of lane `l`'s compressed A sits: (row,
/// stored column), for K `k`.
pub fn a_elem(aty: WgTy, k: usize, l: usize, e: usize) -> (usize, usize) {
    let (g, t) = (l / 4, l % 4);
    match (aty.bits(), k / 2) {
        (16, 8) => (g + 8 * (e / 2), 2 * t + e % 2),
        (16, _) => (g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)),
        (32, 4) => (g + 8 * e, t),
        (32, _) => (g + 8 * (e % 2), t + 4 * (e / 2)),
        (_, 16) => (g + 8 * (e / 4), 4 * t + e % 4),
        _ => (g + 8 * ((e / 4) % 2), 4 * t + e % 4 + 16 * (e / 8)),
    }
}

/// Where element `e` of lane `l`'s B sits: (k, column).
pub fn b_elem(bty: WgTy, l: usize, e: usize) -> (usize, usize) {
    let (g, t) = (l / 4, l % 4);
    let kk = match bty.bits() {
        16 => 2 * t + e % 2 + 8 * (e / 2),
        32 => t + 4 * e,
        _ => 4 * t + e % 4 + 16 * (e / 4),
    };
    (kk, g)
}

/// Where element `e` of lane `l`'s C/D sits: (row, column).
pub fn c_elem(l: usize, e: usize) -> (usize, usize) {
    (l / 4 + 8 * (e / 2), 2 * (l % 4) + e % 2)
}

/// The K index of stored column `j` of row `r`, from the warp's metadata words.
pub fn sparse_k(aty: WgTy, k: usize, sel: usize, meta: &[u64; 32], r: usize, j: usize) -> usize {
    let tf32 = aty == WgTy::TF32;
    let c = if tf32 { j } else { j / 2 };
    let f = if tf32 { k / 2 } else { k / 4 };
    let (g, h) = (r % 8, r / 8);
    let which = match aty {
        WgTy::S8 | WgTy::U8 => 1,
        WgTy::E4M3 | WgTy::E5M2 => 2,
        _ => 0,
    };
    let (lane, bit) = match rule().meta[which] {
        SpMeta::Halves => (4 * g + (f / 4).max(1) * sel + c / 4, 16 * h + 4 * (c % 4)),
        SpMeta::Rows => (4 * g + 2 * (sel + c / 8) + h, 4 * (c % 8)),
    };
    let field = (meta[lane % 32] >> bit) as usize & 15;
    if tf32 {
        2 * c + ((field & 3) >> 1)
    } else {
        4 * c + ((field >> (2 * (j % 2))) & 3)
    }
}

/// Executes one warp-wide `mma.sp`: `regs` rows `base..` hold D, A, B, C and the metadata word
/// ([`WgmmaForm::mma_sp_regs`]); D is written into the first rows for the lanes of `mask`.
#[allow(clippy::needless_range_loop)]
pub fn exec(form: WgmmaForm, k: u32, sel: u32, regs: &mut [[u64; 32]], base: usize, mask: u32) {
    let [nd, na, nb, _] = form.mma_sp_regs(k).map(usize::from);
    let k = k as usize;
    let ka = k / 2;
    let (a0, b0) = (base + nd, base + nd + na);
    let c0 = b0 + nb;
    let meta_row = c0 + nd;
    let bits = form.aty.bits() as usize;
    let per = 32 / bits;
    let elem = |reg: u64, e: usize| (reg >> (bits * (e % per))) & ((1u64 << bits) - 1);
    let mut am = [[0u64; 32]; 16];
    let mut bm = [[0u64; 8]; 64];
    for l in 0..32 {
        for e in 0..na * per {
            let (r, c) = a_elem(form.aty, k, l, e);
            am[r][c] = elem(regs[a0 + e / per][l], e);
        }
        for e in 0..nb * per {
            let (kk, c) = b_elem(form.bty, l, e);
            bm[kk][c] = elem(regs[b0 + e / per][l], e);
        }
    }
    let meta = regs[meta_row];
    let f16 = form.dty == WgTy::F16;
    let fp8 = matches!(form.aty, WgTy::E4M3 | WgTy::E5M2);
    let fp8_rule = rule().fp8;
    let f16_form = WgmmaForm {
        aty: WgTy::F16,
        bty: WgTy::F16,
        ..form
    };
    let mut dm = [[0u64; 8]; 16];
    let mut bcol = [0u64; 32];
    for l in 0..32 {
        for e in 0..4 {
            let (r, c) = c_elem(l, e);
            let old = if f16 {
                (regs[c0 + e / 2][l] >> (16 * (e % 2))) & 0xffff
            } else {
                regs[c0 + e][l] & 0xffff_ffff
            };
            for j in 0..ka {
                bcol[j] = bm[sparse_k(form.aty, k, sel as usize, &meta, r, j)][c];
            }
            dm[r][c] = if fp8 && fp8_rule != Fp8Sum::Fp8Block {
                // ptxas: each A register's bytes 0-1 (stored columns j % 4 < 2) into one f16
                // HMMA.SP from zero, bytes 2-3 into a second accumulating the first, then C added
                // by an FADD (or the stored products in K order, C first)
                let split = fp8_rule != Fp8Sum::F16Halves;
                let c_last = fp8_rule == Fp8Sum::F16PairsThenAdd;
                let mut acc = if c_last { 0 } else { old };
                for h in 0..2 {
                    let mut a16 = [0u64; 16];
                    let mut b16 = [0u64; 16];
                    for i in 0..16 {
                        let j = if split {
                            4 * (i / 2) + 2 * h + i % 2
                        } else {
                            16 * h + i
                        };
                        a16[i] = u64::from(wgmma::fp8_to_f16(form.aty, am[r][j] as u8));
                        b16[i] = u64::from(wgmma::fp8_to_f16(form.bty, bcol[j] as u8));
                    }
                    acc = wgmma::dot(f16_form, &a16, &b16, Some(acc));
                }
                if c_last {
                    let sum = f32::from_bits(old as u32) + f32::from_bits(acc as u32);
                    crate::arith::canon32(sum)
                } else {
                    acc
                }
            } else {
                wgmma::dot(form, &am[r][..ka], &bcol[..ka], Some(old))
            };
        }
    }
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        for j in 0..nd {
            regs[base + j][l] = if f16 {
                let (r0, c0_) = c_elem(l, 2 * j);
                let (r1, c1) = c_elem(l, 2 * j + 1);
                dm[r0][c0_] | dm[r1][c1] << 16
            } else {
                let (r, c) = c_elem(l, j);
                dm[r][c]
            };
        }
    }
}
