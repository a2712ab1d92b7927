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
//! (32 lanes for 4 bytes, 16 for 8, 8 for 16). In a phase every (lane, 4-byte word) pair waits
//! behind the other words of its shared bank (the destination word's bank) and of its source bank
//! (`(source address / 4) % 32`), **with no multicast**: the phase takes as many wavefronts as the
//! largest such union, `|shared bank| + |source bank| - |both|`, over its words, and the phases add.
//! With conflicts on one side only that is the side's largest bank load; where one side's banks
//! split the other's, the larger load; where the two cross (CuTe's 4-byte copies of a K-major tile
//! into a swizzled tile: 4-way shared and 8-way source conflicts, 11 wavefronts) up to their sum
//! less one. Counted in `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts` only,
//! neither in `_op_ld` nor in `_op_st`. A zero-filled copy reads no source, so only the
//! destination counts. Exact on all 813 measured rows, 119 of them measured after their counts
//! were predicted (calibration/ldsm/README.md, rule 3).
//!
//! **LDGSTS.BYPASS** (`cp.async.cg`, 16 bytes) follows no bank rule but a sector-routing one. A lane
//! whose 16-byte destination a lower lane also writes is dropped. Each remaining lane moves a 16-byte
//! piece from a 32-byte sector `S` (0..4) of a 128-byte source line to sector `D` of a 128-byte shared
//! row, in a **round**: its rank, counted from the highest lane down, among the kept lanes that read
//! its 16-byte source chunk into its shared row and its destination half (a chunk reaches one
//! place per round). A destination sector filled from the two halves of one source sector in one
//! round moves whole, straight or swapped; every other piece moves alone and is classed by (source
//! half, destination half). One wavefront serves one class of one round of one (source line,
//! shared row) pair under one symmetry of the square of sectors: a shift `D = S + k` or a mirror
//! `D = k - S` (mod 4). The count is the fewest such maps, summed over pairs, classes and rounds; a
//! move admits exactly one shift and one mirror, so this is the largest matching between the
//! shifts and mirrors in use. Contiguous copies and XOR swizzles of 128-byte rows take one
//! wavefront per line; a destination shifted by `s` 16-byte chunks takes 1, 3, 2, 4, 2, 4, 2, 3 for
//! `s` = 0..7. Where no two kept lanes read one chunk into one row and destination half, every round
//! is the first: calibration/ldsm/README.md's rule 4, exact on the 528 H100 rows it was fitted on.
//! The rounds are calibration/cgcrowd's (question 1): exact on all 2,332 `.cg` copies and routing
//! parts measured there and in calibration/ldsm, among them 1,059 H200 copies and 216 H100 rows
//! where a source sector is read by three or more lanes, and the 11 H200 and 19 H100 copies that
//! read a chunk twice into a row another sector of its line fills, which rule 4 alone got wrong.
//! ncu counts none of these wavefronts as conflicts.
//!
//! **LDGSTS.BYPASS with a source predicate** (`cp.async.cg` whose src-size is 16 or 0, Triton's
//! masked copies; ptxas's `LDGSTS.E.BYPASS.128 [d], [s], P`): with every lane reading, the routing
//! rule above; with a lane zero-filling, the `.ZFILL` count (the routing of the reading lanes that
//! first write their destination, plus a per-phase union pass over every lane). Nsight Compute's
//! instrumentation reads the predicate register `P0` as false ([`instrumented_source_lanes`]).
//! Its bank conflicts are that pass beyond one per phase, over the lanes that truly read
//! ([`predicated_bank_conflicts`]: this counter reads `P0` as held).
//! Exact on all 2,496 copies measured on an H200 (calibration/srcpred/README.md). A `.cg` copy with
//! the PTX `ignore-src` predicate is the same instruction and counts the same (calibration/capred).
//!
//! **LDGSTS through L1 with a source predicate** (`cp.async.ca` whose src-size is its size or 0, or
//! with `ignore-src`; `LDGSTS.E{,.64,.128} [d], [s], P`): as [`CopyKind::CacheAll`] over the lanes
//! that truly read ([`ldgsts_wavefronts_with_sources`]); here the instrumentation reads `P0`
//! correctly. Exact on all 1,316 such copies measured on an H200 (calibration/capred/README.md).
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
    /// `cp.async.cg` with a `src-size` register (`LDGSTS.E.BYPASS.128.ZFILL`): the lanes whose
    /// source size is not 0 copy as [`CopyKind::CacheGlobal`] does, and then every lane's 16
    /// bytes pass as a 4/8-byte `.ca` phase does (the destination against the sources of the
    /// lanes that read one); a source size of 0 in every lane leaves the second pass alone.
    CacheGlobalZeroFill,
    /// `cp.async.cg` whose src-size is 16 or 0 (Triton's masked copies: a `selp` of the two), which
    /// ptxas makes `LDGSTS.E.BYPASS.128 [d], [s], P`, a per-lane source predicate: when every lane
    /// reads, as [`CopyKind::CacheGlobal`]; otherwise as [`CopyKind::CacheGlobalZeroFill`], the
    /// reading lanes that first write their destination routed and a per-phase pass over every
    /// lane (calibration/srcpred).
    CacheGlobalPredicated,
}

/// One phase of a `cp.async.ca` (`LDGSTS` through L1): every word a lane copies waits behind the
/// other words of its shared bank and of its source bank (`(source / 4) % 32`); the phase takes as
/// many wavefronts as the largest such union, `|shared bank| + |source bank| - |both|`, over the
/// phase's words (calibration/ldsm/README.md, rule 3). A lane of `phase` outside `sources` reads
/// nothing: its words wait behind their shared bank only. With conflicts on one side only this is
/// that side's largest bank load; when one side's banks split the other's, the larger load.
fn union_load(phase: u32, sources: u32, width: u32, dst: &[u32; 32], src: &[u64; 32]) -> u32 {
    let words = width / 4;
    let mut d_bank = [0u32; 32];
    let mut s_bank = [0u32; 32];
    // (shared bank, source bank) pairs: at most 32 words in a phase
    let mut pairs: [(u8, u8, u32); 32] = [(0, 0, 0); 32];
    let mut n_pairs = 0;
    let mut m = phase;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let reads = sources >> lane & 1 == 1;
        for k in 0..words {
            let db = ((dst[lane] / 4 + k) % 32) as u8;
            d_bank[db as usize] += 1;
            if reads {
                let sb = ((src[lane] / 4 + u64::from(k)) % 32) as u8;
                s_bank[sb as usize] += 1;
                match pairs[..n_pairs].iter_mut().find(|p| p.0 == db && p.1 == sb) {
                    Some(p) => p.2 += 1,
                    None => {
                        pairs[n_pairs] = (db, sb, 1);
                        n_pairs += 1;
                    }
                }
            }
        }
    }
    let shared_only = d_bank.iter().copied().max().unwrap_or(0);
    pairs[..n_pairs]
        .iter()
        .map(|&(db, sb, both)| d_bank[db as usize] + s_bank[sb as usize] - both)
        .fold(shared_only, u32::max)
}

/// Shared-side wavefronts of one `cp.async` (`LDGSTS`) of `width` bytes per lane: `mask` has a bit
/// for every lane that copies, `dst[l]` is lane `l`'s shared destination, `src[l]` its global source
/// address. `ideal` is one per phase with an active lane. Every lane reads its source, except
/// with [`CopyKind::CacheGlobalZeroFill`], where none does (a source size of 0; see
/// [`ldgsts_wavefronts_with_sources`]).
pub fn ldgsts_wavefronts(
    arch: &Arch,
    kind: CopyKind,
    width: u8,
    mask: u32,
    dst: &[u32; 32],
    src: &[u64; 32],
) -> Result<Counts, MatrixError> {
    // the zero-fill kind through this function: a source size of 0 in every lane
    let sources = if kind == CopyKind::CacheGlobalZeroFill {
        0
    } else {
        mask
    };
    ldgsts_wavefronts_with_sources(arch, kind, width, mask, sources, dst, src)
}

/// As [`ldgsts_wavefronts`], where only the lanes of `sources` read their source (a `src-size`
/// register that is 0 in the others: their bytes are all zero-fill). Measured on an H200
/// (calibration/cpasync/zfill_h100.tsv, 375 launches): a 4/8-byte `.ca` copy costs, per phase of
/// 128 bytes of lanes, the largest union of a word's shared bank and (for reading lanes) source
/// bank ([`union_load`]); a 16-byte `.cg` with a `src-size` register ([`CopyKind::CacheGlobalZeroFill`]) costs
/// the bypass rule of its reading lanes plus that per-phase cost over 8-lane phases.
pub fn ldgsts_wavefronts_with_sources(
    arch: &Arch,
    kind: CopyKind,
    width: u8,
    mask: u32,
    sources: u32,
    dst: &[u32; 32],
    src: &[u64; 32],
) -> Result<Counts, MatrixError> {
    let sources = sources & mask;
    require(arch, "cp.async", 80)?;
    let ok = match kind {
        CopyKind::CacheAll => matches!(width, 4 | 8 | 16),
        CopyKind::CacheGlobal | CopyKind::CacheGlobalZeroFill | CopyKind::CacheGlobalPredicated => {
            width == 16
        }
    };
    if !ok {
        return Err(MatrixError::BadCopySize(width));
    }
    for lane in 0..32 {
        if mask >> lane & 1 == 0 {
            continue;
        }
        let (d, s) = (dst[lane], src[lane]);
        // a lane that reads nothing has no source to be aligned
        let s = if sources >> lane & 1 == 1 { s } else { 0 };
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
        return Ok(bypass_wavefronts(mask, dst, src));
    }
    if kind == CopyKind::CacheGlobalPredicated {
        return predicated_wavefronts(mask, sources, dst, src);
    }
    let mut c = if kind == CopyKind::CacheGlobalZeroFill && sources != 0 {
        bypass_wavefronts(sources, dst, src)
    } else {
        Counts::default()
    };
    let w = u32::from(width);
    let phase_lanes = 128 / w;
    let phase_mask = if phase_lanes == 32 {
        u32::MAX
    } else {
        (1u32 << phase_lanes) - 1
    };
    // the per-phase pass, after the zero-fill form's copy (whose wavefronts ncu counts as no
    // conflict: its ideal is its count); the pass's ideal is one per phase
    let mut ideal = c.ideal;
    for p in 0..32 / phase_lanes {
        let phase = mask & (phase_mask << (p * phase_lanes));
        if phase == 0 {
            continue;
        }
        let cost = union_load(phase, sources, w, dst, src);
        c.wavefronts += cost;
        ideal += 1;
        c.conflict_ways = c.conflict_ways.max(cost);
    }
    c.ideal = ideal;
    Ok(c)
}

/// `cp.async.cg` of 16 bytes with a source predicate (`LDGSTS.E.BYPASS.128 [d], [s], P`), where
/// the lanes of `sources` read and the other lanes of `mask` zero-fill (calibration/srcpred,
/// 2,496 copies measured on an H200). When every lane reads, the sector routing of
/// [`bypass_wavefronts`]. Otherwise, as the `.ZFILL` form: the routing of the reading lanes that
/// are the lowest lane to write their 16-byte destination (a zero-filling lane below one takes its
/// place), plus one pass per 8-lane phase over every lane, the largest union of a word's shared
/// bank and, for those reading lanes, its source bank ([`union_load`]). The routing's wavefronts
/// are ideal; each phase adds one ideal wavefront.
fn predicated_wavefronts(
    mask: u32,
    sources: u32,
    dst: &[u32; 32],
    src: &[u64; 32],
) -> Result<Counts, MatrixError> {
    let sources = sources & mask;
    if sources == mask {
        return Ok(bypass_wavefronts(mask, dst, src));
    }
    // the lanes that are the lowest to write their 16-byte destination chunk
    let first = first_chunk_writers(mask, dst);
    let reading = sources & first;
    let mut c = if reading != 0 {
        bypass_wavefronts(reading, dst, src)
    } else {
        Counts::default()
    };
    let mut ideal = c.ideal;
    for p in 0..4 {
        let phase = mask & (0xffu32 << (p * 8));
        if phase == 0 {
            continue;
        }
        let cost = union_load(phase, reading, 16, dst, src);
        c.wavefronts += cost;
        ideal += 1;
        c.conflict_ways = c.conflict_ways.max(cost);
    }
    c.ideal = ideal;
    Ok(c)
}

/// Shared-memory bank conflicts Nsight Compute counts for one `cp.async.cg` of 16 bytes with a
/// source predicate (`LDGSTS.E.BYPASS.128 [d], [s], P`; the `sm__sass_l1tex_data_bank_conflicts_
/// pipe_lsu_mem_shared_op_ldgsts` counter), given the lanes of `mask` that truly `read`: with
/// every lane reading, none (the routing's wavefronts are ideal); otherwise the zero-fill pass of
/// [`CopyKind::CacheGlobalPredicated`] beyond one wavefront per 8-lane phase. Unlike the wavefronts,
/// this counter reads the predicate register `P0` as the lanes hold it (H200: all 432 copies of
/// calibration/cgcrowd with a source predicate or a src-size register, and all 24 `.cg` launches of
/// calibration/capred, whose copies in `P0` and `!P0` count the same conflicts).
pub fn predicated_bank_conflicts(mask: u32, reads: u32, dst: &[u32; 32], src: &[u64; 32]) -> u32 {
    let reads = reads & mask;
    if reads == mask {
        return 0;
    }
    let first = first_chunk_writers(mask, dst);
    let reading = reads & first;
    (0..4)
        .map(|p| mask & (0xffu32 << (p * 8)))
        .filter(|&phase| phase != 0)
        .map(|phase| union_load(phase, reading, 16, dst, src).saturating_sub(1))
        .sum()
}

/// Which lanes of a `cp.async.cg` with a source predicate (`LDGSTS.E.BYPASS.128 [d], [s], P`)
/// Nsight Compute's instrumented counter (`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts`)
/// takes as reading, given the lanes that read (`reads`, of `mask`) and the machine code's
/// predicate operand: register `P<reg>` (7 for `PT`), negated or not. The instrumentation reads
/// register `P0` as false in every lane: `P0` counts as no lane reading, `!P0` as every lane
/// reading, whatever the lanes do (measured on an H200: calibration/srcpred/README.md). Every other
/// operand counts the lanes that read.
pub fn instrumented_source_lanes(mask: u32, reads: u32, reg: u8, negated: bool) -> u32 {
    match (reg, negated) {
        (0, false) => 0,
        (0, true) => mask,
        _ => reads & mask,
    }
}

/// Fewest maps `D = S + k` (shifts) or `D = k - S` (mirrors), mod 4, that carry every sector move
/// `S -> D` of one class. `edges[k]` has bit `m` set when some move has shift `k` and mirror `m`: each
/// move admits exactly those two maps, so the answer is a minimum vertex cover of that bipartite
/// graph (equal to its largest matching).
#[inline]
fn fewest_sector_maps(edges: &[u8; 4]) -> u32 {
    let mut best = u32::MAX;
    for shifts in 0u32..16 {
        let mut mirrors = 0u8;
        for (k, &e) in edges.iter().enumerate() {
            if shifts >> k & 1 == 0 {
                mirrors |= e;
            }
        }
        best = best.min(shifts.count_ones() + mirrors.count_ones());
    }
    best
}

/// `cp.async.cg` of 16 bytes (`LDGSTS.E.BYPASS.128`).
///
/// A lane whose 16-byte destination a lower lane also writes is dropped. Every other lane moves a
/// piece from source line `src / 128`, sector `(src / 32) % 4`, half `(src / 16) % 2` to shared row
/// `dst / 128`, sector `(dst / 32) % 4`, half `(dst / 16) % 2`, in a round: its rank, from the
/// highest lane down, among the kept lanes that read its 16-byte source chunk into its shared row
/// and its destination half. A destination sector filled from the two halves of one source sector
/// in one round moves whole (class: whole, straight or swapped); every other piece moves alone
/// (class: its source half and destination half). A wavefront serves one class of one round of
/// one (source line, shared row) pair under one shift or mirror of the four sectors; the counts of
/// the pairs, classes and rounds add.
fn bypass_wavefronts(mask: u32, dst: &[u32; 32], src: &[u64; 32]) -> Counts {
    let mut c = Counts::default();
    // lanes that remain after dropping repeated destinations
    let kept = first_chunk_writers(mask, dst);
    let line = |l: usize| src[l] / 128;
    let s_sector = |l: usize| ((src[l] / 32) % 4) as u32;
    let s_half = |l: usize| ((src[l] / 16) % 2) as u32;
    let row = |l: usize| dst[l] / 128;
    let d_sector = |l: usize| (dst[l] / 32) % 4;
    let d_half = |l: usize| (dst[l] / 16) % 2;
    // each kept lane's round: 1 + the higher kept lanes reading its source chunk into its row and
    // its destination half (the kept lanes write distinct chunks, so these write distinct sectors)
    let mut round = [0u32; 32];
    let mut m = kept;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut k = m;
        let mut above = 0;
        while k != 0 {
            let other = k.trailing_zeros() as usize;
            k &= k - 1;
            above += u32::from(
                src[other] / 16 == src[lane] / 16 && row(other) == row(lane) && d_half(other) == d_half(lane),
            );
        }
        round[lane] = 1 + above;
    }
    // class of each kept lane: 0/1 whole sector straight/swapped, 2 + 2 * src half + dst half a lone
    // piece; 255 for the upper lane of a whole sector (counted with the lower one)
    let mut class = [255u8; 32];
    let mut m = kept;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        // the kept lane writing the other half of this lane's destination sector, if any
        let mut k = kept;
        let mut partner = None;
        while k != 0 {
            let other = k.trailing_zeros() as usize;
            k &= k - 1;
            if dst[other] / 16 == (dst[lane] / 16) ^ 1 {
                partner = Some(other);
            }
        }
        let whole = partner.filter(|&p| {
            src[p] / 32 == src[lane] / 32 && s_half(p) != s_half(lane) && round[p] == round[lane]
        });
        class[lane] = match whole {
            None => (2 + 2 * s_half(lane) + d_half(lane)) as u8,
            Some(p) if p < lane => 255,
            Some(_) => (s_half(lane) ^ d_half(lane)) as u8,
        };
    }
    let mut left = kept;
    for (lane, &k) in class.iter().enumerate() {
        if k == 255 {
            left &= !(1u32 << lane);
        }
    }
    while left != 0 {
        let lead = left.trailing_zeros() as usize;
        let (ln, rw, cl, rd) = (line(lead), row(lead), class[lead], round[lead]);
        let mut edges = [0u8; 4];
        let mut m = left;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            if line(lane) != ln || row(lane) != rw || class[lane] != cl || round[lane] != rd {
                continue;
            }
            left &= !(1u32 << lane);
            let (s, d) = (s_sector(lane), d_sector(lane));
            edges[((d + 4 - s) % 4) as usize] |= 1 << ((d + s) % 4);
        }
        c.wavefronts += fewest_sector_maps(&edges);
    }
    // ncu reports no bank conflicts for these: every wavefront counts as ideal
    c.ideal = c.wavefronts;
    c.conflict_ways = u32::from(c.wavefronts > 0);
    c
}

/// The lanes of `mask` that are the lowest to write their 16-byte destination chunk (`dst`: each
/// lane's destination byte address): a 16-byte copy whose destination a lower lane of the same
/// instruction also writes is dropped (calibration/ldsm, calibration/cgcrowd).
pub fn first_chunk_writers<T: Copy + Into<u64>>(mask: u32, dst: &[T; 32]) -> u32 {
    let chunk = |l: usize| dst[l].into() / 16;
    let mut first = 0u32;
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut k = first;
        let mut repeat = false;
        while k != 0 {
            let other = k.trailing_zeros() as usize;
            k &= k - 1;
            repeat |= chunk(other) == chunk(lane);
        }
        if !repeat {
            first |= 1 << lane;
        }
    }
    first
}
