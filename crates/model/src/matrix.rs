//! Shared-memory wavefronts of the matrix and asynchronous-copy instructions: `ldmatrix` (SASS
//! `LDSM`), `stmatrix` (`STSM`) and `cp.async` (`LDGSTS`), as Nsight Compute counts them on an H100.
//!
//! Each function takes one warp instruction as the emulator sees it: the lanes that supply an address
//! (`mask`) and their byte offsets in the block's shared window (`addrs`; for `cp.async` also the
//! global source of each lane). They are pure and allocate nothing.
//!
//! # The rules (measured: calibration/ldsm/)
//!
//! **LDSM / STSM** (`.x1`, `.x2`, `.x4`, with or without `.trans`): matrix `m` (0..n) takes its eight
//! 16-byte row addresses from lanes `8m..8m+7`. A 16-byte row fills one group of four banks, group
//! `(addr / 16) % 8`; each matrix is served on its own and takes as many wavefronts as the most
//! distinct rows any one group must deliver (equal row addresses are read once); the costs of the
//! matrices add. Identical matrices of one instruction are not merged (an `.x4` whose 32 lanes give
//! one address takes 4). Counted in `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld` /
//! `_op_st` and in `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm` / `_stsm`, but not in
//! `smsp__sass_inst_executed_op_shared_ld` / `_st` (the instructions count in
//! `smsp__sass_inst_executed_op_ldsm` / `_shared_stsm`). `.trans` costs the same as the plain form.
//! When only part of the warp executes the instruction (undefined for `.aligned`, measured anyway) the
//! instrumented `..._op_ldsm` still follows the rule over the active address lanes, but the hardware's
//! `_op_ld` / `_op_st` count nothing for it: see [`counted_in_lsu_op`].
//!
//! **LDGSTS** through L1 (`cp.async.ca` 4, 8 or 16 bytes; `LDGSTS.E`, `.E.64`, `.E.128`), and
//! `cp.async.cg` with a source size of 0 (all zero-fill): lanes are served in phases as stores are
//! (32 lanes for 4 bytes, 16 for 8, 8 for 16). In a phase each bank takes one (lane, 4-byte word)
//! pair per wavefront, **with no multicast**, on the shared side (the destination word's bank) and on
//! the source side (bank `(source address / 4) % 32` of the source word); the phase takes the larger
//! of the two maxima and the phases add. Counted in
//! `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts` only, neither in `_op_ld` nor in
//! `_op_st`. A zero-filled copy reads no source, so only the destination counts. Exact wherever no
//! phase has conflicts on both sides (434 measured rows); when one does, the H100 takes more than the
//! larger side and no rule is known: [`MatrixError::NoRule`].
//!
//! **LDGSTS.BYPASS** (`cp.async.cg`, 16 bytes) follows no bank rule. Measured and modelled: all lanes
//! writing one destination cost 1; otherwise each 128-byte source line whose lanes all land in one
//! shared 128-byte row, each 16-byte chunk at its source chunk index XOR one constant (contiguous
//! copies, XOR swizzles of 128-byte rows), costs 1 and the lines add. Every other layout (a padded
//! row pitch, say) is [`MatrixError::NoRule`]: calibration/ldsm/README.md lists what was measured.
//!
//! Architectures: measured on CC 9.0; the rules are applied from the CC where the instruction exists
//! (`ldmatrix` 7.5, `cp.async` 8.0, `stmatrix` 9.0) on the assumption that the LSU did not change.

use std::fmt;

use crate::arch::Arch;
use crate::bank::Counts;

/// `ldmatrix` or `stmatrix`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatrixOp {
    /// `ldmatrix` (SASS `LDSM`).
    Load,
    /// `stmatrix` (SASS `STSM`).
    Store,
}

/// A request the model cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatrixError {
    /// The instruction does not exist on this architecture.
    Unsupported {
        /// `ldmatrix`, `stmatrix` or `cp.async`.
        instruction: &'static str,
        /// The architecture's name.
        arch: &'static str,
        /// The first CC (as `major * 10 + minor`) that has it.
        since: u32,
    },
    /// Not 1, 2 or 4 matrices.
    BadMatrixCount(u8),
    /// A `cp.async` copy size other than 4, 8 or 16 bytes.
    BadCopySize(u8),
    /// Outside the domain where the measured rule is exact (calibration/ldsm/README.md).
    NoRule {
        /// What the request does that no measured rule covers.
        what: &'static str,
    },
    /// A lane's address is not aligned to what the instruction moves.
    Misaligned {
        /// The lane.
        lane: u8,
        /// Its byte offset (shared) or address (global source).
        addr: u64,
        /// The required alignment in bytes.
        align: u8,
        /// `"row address"`, `"destination"` or `"source"`.
        what: &'static str,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixError::Unsupported {
                instruction,
                arch,
                since,
            } => write!(
                f,
                "{instruction} does not exist on {arch} (it needs compute capability {}.{} or later)",
                since / 10,
                since % 10
            ),
            MatrixError::BadMatrixCount(n) => {
                write!(f, "{n} matrices per instruction (expected 1, 2 or 4)")
            }
            MatrixError::BadCopySize(n) => {
                write!(f, "cp.async copy of {n} bytes (expected 4, 8 or 16)")
            }
            MatrixError::NoRule { what } => write!(
                f,
                "no measured rule for this request: {what} (see calibration/ldsm/README.md)"
            ),
            MatrixError::Misaligned {
                lane,
                addr,
                align,
                what,
            } => write!(f, "lane {lane}: {what} {addr} is not aligned to {align} bytes"),
        }
    }
}

impl std::error::Error for MatrixError {}

fn require(arch: &Arch, instruction: &'static str, since: u32) -> Result<(), MatrixError> {
    if arch.cc() < since {
        return Err(MatrixError::Unsupported {
            instruction,
            arch: arch.name,
            since,
        });
    }
    Ok(())
}

/// The lanes that supply row addresses for `matrices` matrices (lanes `0..8 * matrices`).
pub fn address_lanes(matrices: u8) -> u32 {
    match matrices {
        4 => u32::MAX,
        n => (1u32 << (8 * u32::from(n))) - 1,
    }
}

/// Whether the hardware counters `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld` / `_op_st`
/// include an LDSM / STSM executed by the lanes `warp_active`: only when the whole warp executes it.
/// Measured: 144 rows of calibration/ldsm/ with one or more lanes predicated off read 0 there (and
/// 2 in `l1tex__data_pipe_lsu_wavefronts_mem_shared` whatever the addresses), while the instrumented
/// `sm__sass_..._op_ldsm` / `_stsm` follow [`matrix_wavefronts`] over the active lanes.
pub fn counted_in_lsu_op(warp_active: u32) -> bool {
    warp_active == u32::MAX
}

/// Wavefronts of one `ldmatrix` / `stmatrix` of `matrices` (1, 2 or 4) 8x8 matrices of 16-bit
/// elements: `mask` has a bit for every lane that executes it, `addrs[l]` is lane `l`'s row address
/// (only lanes `0..8 * matrices` in `mask` matter). `ideal` is one per matrix with an active row,
/// `conflict_ways` the most any one matrix takes.
pub fn matrix_wavefronts(
    arch: &Arch,
    op: MatrixOp,
    matrices: u8,
    mask: u32,
    addrs: &[u32; 32],
) -> Result<Counts, MatrixError> {
    match op {
        MatrixOp::Load => require(arch, "ldmatrix", 75)?,
        MatrixOp::Store => require(arch, "stmatrix", 90)?,
    }
    if !matches!(matrices, 1 | 2 | 4) {
        return Err(MatrixError::BadMatrixCount(matrices));
    }
    let mask = mask & address_lanes(matrices);
    let mut bad = 0u32;
    for (lane, &a) in addrs.iter().enumerate() {
        bad |= u32::from(a % 16 != 0) << lane;
    }
    bad &= mask;
    if bad != 0 {
        let lane = bad.trailing_zeros();
        return Err(MatrixError::Misaligned {
            lane: lane as u8,
            addr: u64::from(addrs[lane as usize]),
            align: 16,
            what: "row address",
        });
    }
    let mut c = Counts::default();
    for m in 0..u32::from(matrices) {
        let rows = (mask >> (8 * m)) & 0xff;
        if rows == 0 {
            continue;
        }
        let mut chunks = [0u32; 8];
        let mut n = 0;
        for r in 0..8 {
            if rows >> r & 1 == 1 {
                let chunk = addrs[(8 * m + r) as usize] / 16;
                if !chunks[..n].contains(&chunk) {
                    chunks[n] = chunk;
                    n += 1;
                }
            }
        }
        let mut per_group = [0u32; 8];
        for &chunk in &chunks[..n] {
            per_group[(chunk % 8) as usize] += 1;
        }
        let cost = per_group.iter().copied().max().unwrap_or(0);
        c.wavefronts += cost;
        c.ideal += 1;
        c.conflict_ways = c.conflict_ways.max(cost);
    }
    Ok(c)
}

/// Which path a `cp.async` takes and how much of it reads the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CopyKind {
    /// `cp.async.ca` (through L1): `LDGSTS.E`, `.E.64`, `.E.128`.
    CacheAll,
    /// `cp.async.cg` (bypassing L1, 16 bytes only): `LDGSTS.E.BYPASS.128`.
    CacheGlobal,
    /// `cp.async.cg` with a source size of 0: nothing read, all zero-fill.
    CacheGlobalZeroFill,
}

/// Largest per-bank count of (lane, 4-byte word) pairs of the lanes `phase` (no multicast).
#[inline]
fn word_load(phase: u32, width: u32, addr: impl Fn(usize) -> u64) -> u32 {
    let mut per_bank = [0u32; 32];
    let words = width / 4;
    let mut m = phase;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let w0 = addr(lane) / 4;
        for k in 0..u64::from(words) {
            per_bank[((w0 + k) % 32) as usize] += 1;
        }
    }
    per_bank.iter().copied().max().unwrap_or(0)
}

/// Shared-side wavefronts of one `cp.async` (`LDGSTS`) of `width` bytes per lane: `mask` has a bit
/// for every lane that copies, `dst[l]` is lane `l`'s shared destination, `src[l]` its global source
/// address. `ideal` is one per phase with an active lane.
pub fn ldgsts_wavefronts(
    arch: &Arch,
    kind: CopyKind,
    width: u8,
    mask: u32,
    dst: &[u32; 32],
    src: &[u64; 32],
) -> Result<Counts, MatrixError> {
    require(arch, "cp.async", 80)?;
    let ok = match kind {
        CopyKind::CacheAll => matches!(width, 4 | 8 | 16),
        CopyKind::CacheGlobal | CopyKind::CacheGlobalZeroFill => width == 16,
    };
    if !ok {
        return Err(MatrixError::BadCopySize(width));
    }
    for lane in 0..32 {
        if mask >> lane & 1 == 0 {
            continue;
        }
        let (d, s) = (dst[lane], src[lane]);
        if d % u32::from(width) != 0 {
            return Err(MatrixError::Misaligned {
                lane: lane as u8,
                addr: u64::from(d),
                align: width,
                what: "destination",
            });
        }
        if s % u64::from(width) != 0 {
            return Err(MatrixError::Misaligned {
                lane: lane as u8,
                addr: s,
                align: width,
                what: "source",
            });
        }
    }
    if kind == CopyKind::CacheGlobal {
        return bypass_wavefronts(mask, dst, src);
    }
    let w = u32::from(width);
    let phase_lanes = 128 / w;
    let phase_mask = if phase_lanes == 32 {
        u32::MAX
    } else {
        (1u32 << phase_lanes) - 1
    };
    let mut c = Counts::default();
    for p in 0..32 / phase_lanes {
        let phase = mask & (phase_mask << (p * phase_lanes));
        if phase == 0 {
            continue;
        }
        let d = word_load(phase, w, |l| u64::from(dst[l]));
        let cost = if kind == CopyKind::CacheAll {
            let s = word_load(phase, w, |l| src[l]);
            if d > 1 && s > 1 {
                return Err(MatrixError::NoRule {
                    what: "cp.async.ca with bank conflicts on both the shared and the source side of one phase",
                });
            }
            d.max(s)
        } else {
            d
        };
        c.wavefronts += cost;
        c.ideal += 1;
        c.conflict_ways = c.conflict_ways.max(cost);
    }
    Ok(c)
}

/// `cp.async.cg` of 16 bytes (`LDGSTS.E.BYPASS.128`) inside the measured rule's domain.
fn bypass_wavefronts(mask: u32, dst: &[u32; 32], src: &[u64; 32]) -> Result<Counts, MatrixError> {
    let mut c = Counts::default();
    if mask == 0 {
        return Ok(c);
    }
    let first = dst[mask.trailing_zeros() as usize];
    let mut m = mask;
    let mut single = true;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        single &= dst[lane] == first;
    }
    if single {
        return Ok(Counts {
            wavefronts: 1,
            ideal: 1,
            conflict_ways: 1,
        });
    }
    // One wavefront per source line whose lanes all land in one shared 128-byte row, each chunk at
    // its source chunk index XOR one constant.
    let mut left = mask;
    while left != 0 {
        let lead = left.trailing_zeros() as usize;
        let line = src[lead] / 128;
        let row = dst[lead] / 128;
        let xor = (u64::from(dst[lead] / 16) ^ (src[lead] / 16)) % 8;
        let mut m = left;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            if src[lane] / 128 != line {
                continue;
            }
            left &= !(1u32 << lane);
            let x = (u64::from(dst[lane] / 16) ^ (src[lane] / 16)) % 8;
            if dst[lane] / 128 != row || x != xor {
                return Err(MatrixError::NoRule {
                    what: "cp.async.cg (16 bytes) whose source line is not copied into one shared row under one XOR of the 16-byte chunk index",
                });
            }
        }
        c.wavefronts += 1;
    }
    c.ideal = c.wavefronts;
    c.conflict_ways = 1;
    Ok(c)
}
