//! Executes [`Inst::Tma`]: the tensor copies, reductions and prefetches, and the tensor map edits,
//! lane by lane, complete when issued (as the 1-D bulk copies are); the layouts come from
//! [`crate::tma`]. The copies emit no shared- or global-memory events: the TMA unit moves the data,
//! not the SM's load/store pipeline that those counters count (a bulk copy's are the same).

use super::*;
use crate::tma::{self as t, Layout, TensorMap, TmaFault};

fn fault(why: TmaFault, pc: u32, l: usize, a: u64) -> Stop {
    Stop::Fault(FaultKind::TensorMap { why }, pc, Some(l as u32), Some(a))
}

/// The 128 bytes at generic address `a` (parameter, constant or global memory).
fn read_map(ctx: &Ctx<'_>, a: u64) -> Option<[u8; t::MAP_BYTES]> {
    let mut b = [0u8; t::MAP_BYTES];
    let (r, o) = resolve(MemSpace::Generic, a);
    let src: &[u8] = match r {
        Res::KParam => ctx.params,
        Res::Const => &ctx.prog.const_bank,
        Res::Global => {
            ctx.global.read_range(o, &mut b)?;
            return Some(b);
        }
        _ => return None,
    };
    let o = usize::try_from(o).ok()?;
    b.copy_from_slice(src.get(o..o.checked_add(t::MAP_BYTES)?)?);
    Some(b)
}

/// Reads the 128 shared bytes at window offset `o`.
fn sh_bytes(ctx: &Ctx<'_>, bm: &BlockMem<'_>, o: u64) -> Option<[u8; t::MAP_BYTES]> {
    let mut b = [0u8; t::MAP_BYTES];
    for (k, c) in b.chunks_exact_mut(8).enumerate() {
        c.copy_from_slice(&sh_read(ctx, bm, o + 8 * k as u64, 8)?.to_le_bytes());
    }
    Some(b)
}

fn sh_put(ctx: &Ctx<'_>, bm: &mut BlockMem<'_>, o: u64, b: &[u8; t::MAP_BYTES]) -> Option<()> {
    for (k, c) in b.chunks_exact(8).enumerate() {
        sh_write(
            ctx,
            bm,
            o + 8 * k as u64,
            8,
            u64::from_le_bytes(c.try_into().ok()?),
        )?;
    }
    Some(())
}

/// One [`Inst::Tma`] for every lane of `mask`. Returns whether an mbarrier phase of this block
/// completed (the warp then yields, as after a bulk copy).
#[allow(clippy::too_many_arguments)]
pub(super) fn execute<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    op: TmaOp,
    base: R,
) -> Result<bool, Stop> {
    let mut completed = false;
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        let row = |k: u32| w.regs[base as usize + k as usize][l];
        match op.kind {
            TmaKind::Replace { field, shared } => {
                let a = row(0);
                let (ord, v) = (row(1) as usize, row(2));
                let mut b = if shared {
                    let o = own_offset(bm, shared_offset(a));
                    sh_bytes(ctx, bm, o).ok_or_else(|| oob(pc, l, a))?
                } else {
                    read_map(ctx, a).ok_or_else(|| fault(TmaFault::NotAMap, pc, l, a))?
                };
                t::replace(&mut b, field, ord, v).map_err(|_| fault(TmaFault::NotAMap, pc, l, a))?;
                if shared {
                    let o = own_offset(bm, shared_offset(a));
                    sh_put(ctx, bm, o, &b).ok_or_else(|| oob(pc, l, a))?;
                } else {
                    let (r, g) = resolve(MemSpace::Generic, a);
                    if r != Res::Global {
                        return Err(fault(TmaFault::NotAMap, pc, l, a));
                    }
                    track_write(ctx, block, g, t::MAP_BYTES as u64);
                    ctx.global.write_range(g, &b).ok_or_else(|| {
                        access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, a)
                    })?;
                }
            }
            TmaKind::CopyMap => {
                let (d, s) = (row(0), row(1));
                let b = sh_bytes(ctx, bm, own_offset(bm, shared_offset(s))).ok_or_else(|| oob(pc, l, s))?;
                let (r, g) = resolve(MemSpace::Generic, d);
                if r != Res::Global {
                    return Err(access_fault(
                        FaultKind::OutOfBounds { space: Space::Global },
                        pc,
                        l,
                        d,
                    ));
                }
                track_write(ctx, block, g, t::MAP_BYTES as u64);
                ctx.global
                    .write_range(g, &b)
                    .ok_or_else(|| access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, d))?;
            }
            _ => {
                // the GPU runs a copy once per distinct set of operands among the active lanes
                // (the SASS instruction takes uniform registers: a warp whose lanes all hold the
                // same operands, as CUTLASS's one-warp TMA stores, issues it once)
                let same = |k: usize| {
                    (0..TMA_ROWS as usize)
                        .all(|r| w.regs[base as usize + r][k] == w.regs[base as usize + r][l])
                };
                if (0..l).any(|k| mask >> k & 1 == 1 && same(k)) {
                    continue;
                }
                completed |= copy(ctx, block, (wi, &mut *sink), w, bm, pc, l, op, base)?
            }
        }
    }
    Ok(completed)
}

/// A tensor copy, reduction or prefetch of lane `l`.
#[allow(clippy::too_many_arguments)]
fn copy<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    (wi, sink): (u32, &mut S),
    w: &Warp,
    bm: &mut BlockMem<'_>,
    pc: u32,
    l: usize,
    op: TmaOp,
    base: R,
) -> Result<bool, Stop> {
    let row = |k: u32| w.regs[base as usize + k as usize][l];
    let ma = row(1);
    let mut map = read_map(ctx, ma)
        .and_then(|b| TensorMap::from_bytes(&b).ok())
        .ok_or_else(|| fault(TmaFault::NotAMap, pc, l, ma))?;
    // a changed swizzle (the fix advisor's re-emulation) writes the changed window
    let raw = op.kind == TmaKind::Load && map.layout == Layout::Tiled && {
        match ctx.smap.tma_swizzle(own_offset(bm, shared_offset(row(0)))) {
            Some(sw) => {
                map.swizzle = sw;
                true
            }
            None => false,
        }
    };
    if map.rank != op.rank {
        return Err(fault(TmaFault::Rank, pc, l, ma));
    }
    if (map.layout == Layout::Im2col) != op.im2col {
        return Err(fault(TmaFault::Layout, pc, l, ma));
    }
    if map.interleave != 0 {
        return Err(fault(TmaFault::Interleave, pc, l, ma));
    }
    if op.kind == TmaKind::Prefetch {
        bm.tma.prefetches += 1;
        return Ok(false);
    }
    let r = usize::from(map.rank);
    let coords: Vec<i64> = (0..r)
        .map(|k| i64::from(row(3 + k as u32) as u32 as i32))
        .collect();
    let offsets: Vec<i64> = (0..3).map(|k| i64::from(row(8 + k) as u16)).collect();
    let mut elems = Vec::new();
    let walked = match map.layout {
        Layout::Tiled => t::tiled_elems(&map, &coords, |e| {
            elems.push(e);
            Ok(())
        }),
        Layout::Im2col => t::im2col_elems(&map, &coords, &offsets, |e| {
            elems.push(e);
            Ok(())
        }),
    };
    walked.map_err(|_| fault(TmaFault::NotAMap, pc, l, ma))?;
    let esz = map.elem_bytes();
    let run = match map.layout {
        Layout::Tiled => map.box_count(0) as usize,
        Layout::Im2col => usize::from(map.channels),
    };
    match op.kind {
        TmaKind::Load => {
            bm.tma.loads += 1;
            // a multicast load's sectors count once per block they reach (calibration/tma: a
            // 2-block multicast of 64 sectors reads 128 on the H200)
            let reach = if op.multicast {
                let m = row(11) & 0xffff;
                (0..ctx.csize.min(16)).filter(|r| m >> r & 1 == 1).count() as u64
            } else {
                1
            };
            bm.tma.ld_sectors += t::sectors(&elems, run, esz, true) * reach;
        }
        TmaKind::Store => {
            bm.tma.stores += 1;
            bm.tma.st_sectors += t::sectors(&elems, run, esz, false);
        }
        _ => {
            bm.tma.reductions += 1;
            bm.tma.red_sectors += t::sectors(&elems, run, esz, false);
        }
    }
    let sa = row(0);
    let so = own_offset(bm, shared_offset(sa));
    if !(so & mem::CLUSTER_OFFSET).is_multiple_of(128) {
        return Err(fault(TmaFault::SharedAlign, pc, l, sa));
    }
    let gfault = |a: u64| access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, a);
    // the shared byte of element offset `off` in the block whose window offset of the box is `at`
    let place = |at: u64, off: u64| -> u64 {
        let plain = at & mem::CLUSTER_OFFSET;
        let s = t::swizzle(map.swizzle, plain + off);
        (at & !mem::CLUSTER_OFFSET) | s
    };
    match op.kind {
        TmaKind::Load => {
            // the blocks written: the CTA mask's ranks (multicast), else the one the address names
            let targets: Vec<u64> = if op.multicast {
                let m = row(11) & 0xffff;
                (0..ctx.csize.min(16))
                    .filter(|r| m >> r & 1 == 1)
                    .map(|r| {
                        if r == bm.rank {
                            so & mem::CLUSTER_OFFSET
                        } else {
                            mem::cluster_address(r, so)
                        }
                    })
                    .collect()
            } else {
                vec![so]
            };
            if map.layout == Layout::Tiled && mem::cluster_rank(so).is_none() {
                let row_bytes = map.box_count(0) * esz;
                let rows: u64 = (1..r).map(|i| map.box_count(i)).product();
                sink.tma_load(wi, pc, so, map.swizzle, row_bytes, rows);
            }
            let fill = t::oob_value(&map);
            for e in &elems {
                let v = match e.global {
                    Some(g) => {
                        track_read(ctx, block, g, esz);
                        ctx.global.read(g, esz).ok_or_else(|| gfault(g))?
                    }
                    None => fill,
                };
                for &at in &targets {
                    let o = place(at, e.offset);
                    if raw {
                        sh_write_raw(ctx, bm, o, esz, v).ok_or_else(|| oob(pc, l, o))?;
                    } else {
                        sh_write(ctx, bm, o, esz, v).ok_or_else(|| oob(pc, l, o))?;
                    }
                }
            }
            // the block's own bytes written, for the checkers (the lowest to the highest)
            if let Some(&own) = targets.iter().find(|&&at| mem::cluster_rank(at).is_none()) {
                let span = elems.iter().map(|e| place(own, e.offset));
                let (lo, hi) = span.fold((u64::MAX, 0), |(lo, hi), o| (lo.min(o), hi.max(o + esz)));
                if lo < hi {
                    sink.async_write(wi, pc, lo, hi);
                }
            }
            let bytes = map.box_bytes();
            let mut completed = false;
            let mb = own_offset(bm, shared_offset(row(2)));
            for &at in &targets {
                let a = (at & !mem::CLUSTER_OFFSET) | (mb & mem::CLUSTER_OFFSET);
                let a = own_offset(bm, a);
                if !a.is_multiple_of(8) {
                    return Err(access_fault(
                        FaultKind::Misaligned { space: Space::Shared },
                        pc,
                        l,
                        a,
                    ));
                }
                let st = sh_read(ctx, bm, a, 8).ok_or_else(|| oob(pc, l, a))?;
                let new = mbar_state::complete_tx(st, bytes);
                sh_write(ctx, bm, a, 8, new).ok_or_else(|| oob(pc, l, a))?;
                let own = mem::cluster_rank(a).is_none();
                if ctx.csize > 1 {
                    // the bytes written into this block, for the cluster's checker
                    let (lo, hi) = elems
                        .iter()
                        .map(|e| place(at, e.offset) & mem::CLUSTER_OFFSET)
                        .fold((u64::MAX, 0), |(lo, hi), o| (lo.min(o), hi.max(o + esz)));
                    if lo < hi {
                        let flipped = mbar_state::phase(new) != mbar_state::phase(st);
                        sink.cluster_copy(&crate::ClusterCopy {
                            warp: wi,
                            pc,
                            lane: l as u32,
                            rank: mem::cluster_rank(a).unwrap_or(bm.rank),
                            lo,
                            hi,
                            mbar: a & mem::CLUSTER_OFFSET,
                            completed: (flipped && !own).then_some(mbar_state::phase(st) as u8),
                        });
                    }
                }
                let ev = |what| crate::MbarEvent {
                    warp: wi,
                    pc,
                    lane: l as u32,
                    addr: a,
                    what,
                };
                if own {
                    sink.mbarrier(&ev(crate::MbarWhat::CopyTx {
                        parity: mbar_state::phase(st) as u8,
                    }));
                }
                if mbar_state::phase(new) != mbar_state::phase(st) && own {
                    bm.mbar.completed(a, mbar_state::phase(st));
                    completed = true;
                    sink.mbarrier(&ev(crate::MbarWhat::Completed {
                        parity: mbar_state::phase(st) as u8,
                    }));
                }
            }
            Ok(completed)
        }
        TmaKind::Store | TmaKind::Reduce(_) => {
            // the block's bytes the copy engine reads, for the checkers
            if mem::cluster_rank(so).is_none() {
                let span = elems
                    .iter()
                    .filter(|e| e.global.is_some())
                    .map(|e| place(so, e.offset));
                let (lo, hi) = span.fold((u64::MAX, 0), |(lo, hi), o| (lo.min(o), hi.max(o + esz)));
                if lo < hi {
                    sink.async_read(wi, pc, lo, hi);
                }
            }
            for e in &elems {
                let Some(g) = e.global else { continue };
                let o = place(so, e.offset);
                let v = sh_read(ctx, bm, o, esz).ok_or_else(|| oob(pc, l, o))?;
                track_write(ctx, block, g, esz);
                bm.gwrites += 1;
                match op.kind {
                    TmaKind::Reduce(red) => {
                        if t::reduce(red, map.dtype, 0, 0).is_none() {
                            return Err(fault(TmaFault::ReduceType, pc, l, ma));
                        }
                        let f = |old: u64| t::reduce(red, map.dtype, old, v).unwrap_or(old);
                        if esz >= 4 {
                            ctx.global.rmw(g, esz, f).ok_or_else(|| gfault(g))?;
                        } else {
                            // a 1- or 2-byte element: the word that holds it
                            let (wa, sh) = (g & !3, (g & 3) * 8);
                            let m = (1u64 << (8 * esz)) - 1;
                            ctx.global
                                .rmw(wa, 4, |word| {
                                    let old = (word >> sh) & m;
                                    (word & !(m << sh)) | ((f(old) & m) << sh)
                                })
                                .ok_or_else(|| gfault(g))?;
                        }
                    }
                    _ => ctx.global.write(g, esz, v).ok_or_else(|| gfault(g))?,
                }
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}
