//! The warp collectives that synchronise their lanes: `shfl.sync`, `vote.sync`, `match.sync`,
//! `redux.sync` (CUDA's `__shfl_*_sync`, `__ballot_sync`/`__all_sync`/`__any_sync`,
//! `__match_*_sync`, `__reduce_*_sync`).
//!
//! The PTX ISA says each of them makes the executing thread wait until every non-exited thread of
//! its `membermask` has executed it (with the same mask); it states memory ordering in so many
//! words only for `bar.warp.sync` (`__syncwarp()`). The checkers take these collectives as ordering
//! the lanes that execute them as a `__syncwarp()` of those lanes does: a lane's accesses before
//! one happen before another lane's after it. This is the assumption the labelled kernels
//! `calibration/races/kernels/*shfl*`, `*ballot*` rely on; no device run can confirm it (a race's
//! outcome is timing-dependent).
//!
//! A *partial* member mask orders only the lanes it names: `__syncwarp(0x0000ffff)` orders lanes
//! 0-15 among themselves and nothing for lanes 16-31, and `__shfl_sync(0xff, ...)` only lanes
//! 0-7. The mask is read off the instruction when it is an immediate (`bar.warp.sync 65535;`,
//! `shfl.sync.idx.b32 ..., 255;`) or a register the kernel sets once, with `mov` of an immediate;
//! any other mask (computed at run time) is taken as the whole warp, as before. [`WarpOrder`]
//! keeps a block's partial synchronisations and answers whether one lane's access is ordered
//! before another's of the same warp, through chains of partial synchronisations too (lane 3 and
//! lane 9 synchronise, then lane 9 and lane 20: lane 3's earlier accesses come before lane 20's
//! later ones).
//!
//! Used by the shared-memory checker ([`crate::hazards::HazardSink::with_warp_sync`]), the
//! distributed-shared-memory checker ([`crate::cluster_races`]) and the global one
//! ([`crate::global_races`], which reads the same instructions itself).

/// Whether the instruction text `text` is a synchronising warp collective.
pub fn is_warp_collective(text: &str) -> bool {
    let (head, mods) = crate::ptx_text::opcode(text);
    matches!(head, "shfl" | "vote" | "match" | "redux") && mods.contains(&"sync")
}

/// Whether the instruction text `text` is `bar.warp.sync` (`__syncwarp`).
fn is_bar_warp_sync(text: &str) -> bool {
    let (head, mods) = crate::ptx_text::opcode(text);
    matches!(head, "bar" | "barrier") && mods.contains(&"warp") && mods.contains(&"sync")
}

/// A PTX integer immediate (`-1`, `65535`, `0x0000ffff`, `0xffffU`) as 32 bits.
fn immediate(op: &str) -> Option<u32> {
    let op = op.trim_end_matches(['U', 'u']);
    let (neg, digits) = match op.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, op),
    };
    let v = if let Some(h) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if digits.len() > 1
        && let Some(o) = digits.strip_prefix('0')
    {
        i64::from_str_radix(o, 8).ok()?
    } else {
        digits.parse::<i64>().ok()?
    };
    Some((if neg { v.wrapping_neg() } else { v }) as u32)
}

/// The member mask operand of a warp synchronisation `text` (the last operand of a collective, the
/// only one of `bar.warp.sync`), as written.
fn mask_operand(text: &str) -> Option<&str> {
    crate::ptx_text::operands(text).last().copied()
}

/// The synchronising warp collectives of a kernel, by pc, and the member masks of every warp
/// synchronisation (collectives and `bar.warp.sync`) whose mask is known.
#[derive(Clone, Debug, Default)]
pub struct WarpCollectives {
    base: u32,
    at: Vec<bool>,
    /// Per instruction: the member mask of a warp synchronisation when it is known, else
    /// `u32::MAX` (the whole warp).
    masks: Vec<u32>,
}

impl WarpCollectives {
    /// Those among the instructions `start..end` of `program` (one kernel's).
    pub fn of_range(program: &warpscope_ptx::Program, start: u32, end: u32) -> WarpCollectives {
        let end = (end as usize).min(program.info.len());
        let start = (start as usize).min(end);
        let texts: Vec<&str> = program.info[start..end].iter().map(|i| i.text.as_str()).collect();
        WarpCollectives::of_texts(start as u32, &texts)
    }

    /// Those among the instruction texts `texts` (one kernel's, the first at pc `base`).
    pub fn of_texts(base: u32, texts: &[&str]) -> WarpCollectives {
        let at: Vec<bool> = texts.iter().map(|t| is_warp_collective(t)).collect();
        // registers the kernel sets once, with `mov` of an immediate: their values
        let mut defs: std::collections::HashMap<&str, (u32, Option<u32>)> = Default::default();
        for t in texts {
            let ops = crate::ptx_text::operands(t);
            let Some(&d) = ops.first() else { continue };
            if !d.starts_with('%') {
                continue;
            }
            let (head, _) = crate::ptx_text::opcode(t);
            let val = (head == "mov" && ops.len() == 2)
                .then(|| immediate(ops[1]))
                .flatten();
            let e = defs.entry(d).or_insert((0, None));
            e.0 += 1;
            e.1 = val;
        }
        let masks = texts
            .iter()
            .zip(&at)
            .map(|(t, &coll)| {
                if !coll && !is_bar_warp_sync(t) {
                    return u32::MAX;
                }
                let Some(op) = mask_operand(t) else {
                    return u32::MAX;
                };
                immediate(op)
                    .or_else(|| match defs.get(op) {
                        Some(&(1, v)) => v,
                        _ => None,
                    })
                    .unwrap_or(u32::MAX)
            })
            .collect();
        WarpCollectives { base, at, masks }
    }

    /// The member mask of the warp synchronisation at `pc` (a collective or `bar.warp.sync`), or
    /// `u32::MAX` (the whole warp) when it is not known or `pc` is none.
    pub fn mask(&self, pc: u32) -> u32 {
        pc.checked_sub(self.base)
            .and_then(|i| self.masks.get(i as usize))
            .copied()
            .unwrap_or(u32::MAX)
    }

    /// Whether the instruction at `pc` is one.
    pub fn at(&self, pc: u32) -> bool {
        pc.checked_sub(self.base)
            .and_then(|i| self.at.get(i as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Whether the kernel has none, and no `__syncwarp` with a known partial mask either.
    pub fn is_empty(&self) -> bool {
        !self.at.iter().any(|&b| b) && self.masks.iter().all(|&m| m == u32::MAX)
    }
}

/// The warp synchronisations of one block that named only part of their warp (see the module
/// notes): each warp counts its synchronisations (full and partial alike; an access records the
/// count its warp had reached), and keeps the partial ones, by count, with their masks.
#[derive(Clone, Debug, Default)]
pub struct WarpOrder {
    /// Per warp: (count after it, member mask) of each partial synchronisation, in order.
    partial: Vec<Vec<(u32, u32)>>,
}

/// Partial synchronisations a warp keeps at most; older ones are forgotten (an access older than
/// the oldest kept one is then taken as ordered by the full synchronisations between).
const MAX_PARTIAL: usize = 1 << 16;

impl WarpOrder {
    /// No partial synchronisation.
    pub const EMPTY: WarpOrder = WarpOrder { partial: Vec::new() };

    /// Whether some warp of the block synchronised part of its lanes (else [`Self::ordered`] is
    /// a comparison of counts).
    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.partial.is_empty()
    }

    /// The warp's synchronisation that brought its count to `count` named lanes `mask` of its
    /// lanes `lanes` (those the block gives it): kept when it leaves some of them out.
    pub fn sync(&mut self, warp: u32, count: u32, mask: u32, lanes: u32) {
        if mask & lanes == lanes {
            return;
        }
        let w = warp as usize;
        if self.partial.len() <= w {
            self.partial.resize(w + 1, Vec::new());
        }
        let log = &mut self.partial[w];
        if log.len() >= MAX_PARTIAL {
            log.drain(..MAX_PARTIAL / 2);
        }
        log.push((count, mask & lanes));
    }

    /// Whether an access of lane `la` made at count `ca` of its warp happens before one of lane
    /// `lb` of the same warp at count `cb` (`ca <= cb`) through the warp's synchronisations.
    #[inline(always)]
    pub fn ordered(&self, warp: u32, la: u32, ca: u32, lb: u32, cb: u32) -> bool {
        if ca == cb {
            return false;
        }
        let Some(log) = self.partial.get(warp as usize) else {
            return true;
        };
        self.ordered_slow(log, la, ca, lb, cb)
    }

    fn ordered_slow(&self, log: &[(u32, u32)], la: u32, ca: u32, lb: u32, cb: u32) -> bool {
        let lo = log.partition_point(|e| e.0 <= ca);
        let hi = log.partition_point(|e| e.0 <= cb);
        if ((hi - lo) as u32) < cb.wrapping_sub(ca) {
            // a synchronisation of the whole warp lies between
            return true;
        }
        let mut seen = 1u32 << (la % 32);
        for &(_, m) in &log[lo..hi] {
            if m & seen != 0 {
                seen |= m;
            }
        }
        seen & (1 << (lb % 32)) != 0
    }

    /// The lanes of `lanes` whose accesses at count `ca` of warp `warp` happen before an access of
    /// lane `lb` at count `cb`.
    pub fn lanes_before(&self, warp: u32, lanes: u32, ca: u32, lb: u32, cb: u32) -> u32 {
        if ca == cb {
            return 0;
        }
        if self.partial.get(warp as usize).is_none() {
            return lanes;
        }
        let mut out = 0;
        let mut m = lanes;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            if self.ordered(warp, l, ca, lb, cb) {
                out |= 1 << l;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_read_from_immediates_and_registers_set_once() {
        let w = WarpCollectives::of_texts(
            10,
            &[
                "mov.u32 %r1, 255;",
                "mov.u32 %r2, 1;",
                "add.s32 %r2, %r2, 1;",
                "bar.warp.sync 65535;",
                "shfl.sync.idx.b32 %r3, %r4, 0, 31, %r1;",
                "shfl.sync.idx.b32 %r3, %r4, 0, 31, %r2;",
                "@%p1 vote.sync.ballot.b32 %r5, %p2, 0x0000ffff;",
                "bar.warp.sync -1;",
                "ld.shared.u32 %r7, [%r2];",
                "bar.warp.sync %r9;",
            ],
        );
        let masks: Vec<u32> = (10..20).map(|pc| w.mask(pc)).collect();
        assert_eq!(
            masks,
            [
                u32::MAX,
                u32::MAX,
                u32::MAX,
                0xffff,
                0xff,
                u32::MAX, // %r2 is set twice
                0xffff,
                u32::MAX,
                u32::MAX,
                u32::MAX // %r9 is never set by a mov
            ]
        );
        assert!(w.at(14) && w.at(16) && !w.at(13));
    }

    #[test]
    fn a_partial_sync_orders_only_its_lanes_and_chains_of_them_order_transitively() {
        let mut o = WarpOrder::default();
        // warp 0: sync 1 names lanes 0-15, sync 2 the whole warp, sync 3 lanes 9 and 20
        o.sync(0, 1, 0xffff, u32::MAX);
        o.sync(0, 2, u32::MAX, u32::MAX);
        o.sync(0, 3, (1 << 9) | (1 << 20), u32::MAX);
        assert!(o.any());
        assert!(o.ordered(0, 3, 0, 12, 1), "lanes 3 and 12 are both in sync 1");
        assert!(!o.ordered(0, 3, 0, 20, 1), "lane 20 is not in sync 1");
        assert!(o.ordered(0, 3, 0, 20, 2), "sync 2 names every lane");
        assert!(!o.ordered(0, 3, 2, 20, 3), "sync 3 leaves lane 3 out");
        assert!(o.ordered(0, 9, 2, 20, 3));
        assert!(!o.ordered(0, 3, 1, 3, 1), "no sync between");
        // another warp's syncs are all whole
        assert!(o.ordered(1, 3, 0, 20, 1));
        assert_eq!(o.lanes_before(0, 0b1111 | (1 << 20), 0, 12, 1), 0b1111);
        // lanes 0-15 and 16-19 in sync 4, then 16-31: lane 3 reaches lane 30
        o.sync(0, 4, 0x000f_ffff, u32::MAX);
        o.sync(0, 5, 0xffff_0000, u32::MAX);
        assert!(o.ordered(0, 3, 3, 30, 5));
        assert!(!o.ordered(0, 3, 4, 30, 5));
        // a warp of 16 lanes: a mask of those 16 is the whole warp
        let mut p = WarpOrder::default();
        p.sync(0, 1, 0xffff, 0xffff);
        assert!(!p.any());
    }

    #[test]
    fn the_sync_collectives_are_recognised() {
        assert!(is_warp_collective("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;"));
        assert!(is_warp_collective("@%p1 vote.sync.ballot.b32 %r1, %p2, -1;"));
        assert!(is_warp_collective("match.any.sync.b32 %r1, %r2, -1;"));
        assert!(is_warp_collective("redux.sync.add.s32 %r1, %r2, -1;"));
        assert!(!is_warp_collective("shfl.bfly.b32 %r1, %r2, 1, 31;"));
        assert!(!is_warp_collective("vote.ballot.b32 %r1, %p2;"));
        assert!(!is_warp_collective("bar.warp.sync -1;"));
        assert!(!is_warp_collective("ld.shared.u32 %r1, [%r2];"));
    }
}
