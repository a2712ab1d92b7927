//! The reads of a global word beyond the two its cell keeps: every read since the word's last
//! write that no later kept read is known to follow, so a write is checked against all of them.
//!
//! A cell ([`super::GCell`]) keeps two reads inline. A third read that neither of them happens
//! before goes here, into a list per cell (keyed by the cell's address: the word's, or the byte's
//! once the word is split), as *groups*: the lanes of one warp that read the word with the same
//! instruction in the same epoch, `__syncwarp` count, fence count and strength share one entry
//! (a lane mask). A new read drops what it is known to follow, looked for among the groups of its
//! own block at the list's end (a block's reads come together): groups of an earlier epoch, of
//! its warp before a `__syncwarp`, and its own thread's earlier read. Reads of other blocks are
//! kept even when the new one acquired them (they are few next to a block's, and dropping is only
//! a saving). A write takes the list: each group's lanes are checked as the inline reads are.
//!
//! When nothing in the kernel orders blocks (no fence, release or acquire: reads of different
//! blocks are never ordered) and blocks run one after another, the groups of blocks other than the
//! one reading now fold into one *summary* per instruction: how many reads, the blocks they came
//! from (lowest and highest) and one of them as the example. A write of a block outside that range
//! races with every one of them (unless both are strong), and is reported with their count; a
//! write of a block inside it (blocks that interleave: clusters, which do not fold) is taken as
//! racing too. So a read-shared input costs the shadow about one entry per instruction and word,
//! not one per block.
//!
//! Bounded: the groups count against the launch's shadow budget
//! ([`super::GLOBAL_SHADOW_BUDGET_BYTES`]); a read that finds no room is not kept, and the note
//! says the budget was reached.

use rustc_hash::FxHashMap;

use super::GAcc;

/// Lanes of one warp whose reads of one cell are alike but for the thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Group {
    /// The read of the warp's lane 0 (its `tid` is the warp's first thread); in a summary, the
    /// example read.
    pub(super) r: GAcc,
    pub(super) lanes: u32,
    /// A summary: how many reads it stands for (0: a group).
    pub(super) folded: u32,
    /// A summary's lowest and highest block.
    pub(super) lo: u32,
    pub(super) hi: u32,
}

impl Group {
    /// The group's reads, one per lane.
    pub(super) fn reads(&self) -> impl Iterator<Item = GAcc> + '_ {
        let mut m = self.lanes;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let l = m.trailing_zeros();
            m &= m - 1;
            Some(GAcc {
                tid: self.r.tid + l as u16,
                ..self.r
            })
        })
    }
}

/// Bytes one kept group takes (its entry, and a share of its list's).
pub(super) const GROUP_BYTES: u64 = std::mem::size_of::<Group>() as u64 + 8;

/// The lists of the cells that have more reads than they keep.
#[derive(Debug, Default)]
pub(super) struct Spill {
    lists: FxHashMap<u64, Vec<Group>>,
    groups: u64,
    /// A read was not kept for want of room.
    pub(super) dropped: bool,
}

impl Spill {
    /// Bytes held.
    pub(super) fn bytes(&self) -> u64 {
        self.groups * GROUP_BYTES + self.lists.len() as u64 * 48
    }

    pub(super) fn clear(&mut self) {
        self.lists.clear();
        self.groups = 0;
        self.dropped = false;
    }

    /// Keeps read `me` of the cell at `key` (`room`: the budget allows another group; `fold`: other
    /// blocks' groups may fold into summaries, see the module notes).
    pub(super) fn add(
        &mut self,
        key: u64,
        me: GAcc,
        room: bool,
        fold: bool,
        order: &crate::warp_sync::WarpOrder,
    ) {
        let list = self.lists.entry(key).or_default();
        if fold
            && list
                .last()
                .is_some_and(|g| g.folded == 0 && g.r.block != me.block)
        {
            let mut i = 0;
            while i < list.len() {
                let g = list[i];
                if g.folded > 0 || g.r.block == me.block {
                    i += 1;
                    continue;
                }
                let n = g.lanes.count_ones();
                let into = list
                    .iter()
                    .position(|s| s.folded > 0 && s.r.pc == g.r.pc && s.r.strong == g.r.strong);
                match into {
                    Some(j) => {
                        let s = &mut list[j];
                        s.folded += n;
                        s.lo = s.lo.min(g.r.block);
                        s.hi = s.hi.max(g.r.block);
                        list.remove(i);
                        self.groups -= 1;
                    }
                    None => {
                        let first = g.lanes.trailing_zeros() as u16;
                        list[i] = Group {
                            r: GAcc {
                                tid: g.r.tid + first,
                                ..g.r
                            },
                            lanes: 0,
                            folded: n,
                            lo: g.r.block,
                            hi: g.r.block,
                        };
                        i += 1;
                    }
                }
            }
        }
        let warp = me.tid / 32;
        let bit = 1u32 << (me.tid % 32);
        let mut merged = false;
        let mut i = list.len();
        while i > 0 {
            i -= 1;
            let g = &mut list[i];
            if g.folded > 0 || g.r.block != me.block {
                break;
            }
            let same_warp = g.r.tid / 32 == warp;
            // what the new read follows: an earlier epoch, the lanes of its warp before a
            // __syncwarp that names them and it
            if g.r.epoch < me.epoch {
                list.remove(i);
                self.groups -= 1;
                continue;
            }
            if !same_warp {
                continue;
            }
            if g.r.wsync != me.wsync {
                let lane = u32::from(me.tid % 32);
                g.lanes &= !order.lanes_before(u32::from(warp), g.lanes, g.r.wsync, lane, me.wsync);
            }
            // its own thread's earlier read
            g.lanes &= !bit;
            if g.r.pc == me.pc
                && g.r.fences == me.fences
                && g.r.strong == me.strong
                && g.r.epoch == me.epoch
                && g.r.wsync == me.wsync
            {
                g.lanes |= bit;
                merged = true;
            } else if g.lanes == 0 {
                list.remove(i);
                self.groups -= 1;
            }
        }
        if !merged {
            if room {
                list.push(Group {
                    r: GAcc { tid: warp * 32, ..me },
                    lanes: bit,
                    folded: 0,
                    lo: me.block,
                    hi: me.block,
                });
                self.groups += 1;
            } else {
                self.dropped = true;
            }
        }
        if list.is_empty() {
            self.lists.remove(&key);
        }
    }

    /// The cell's kept reads, taken (a write ends them).
    pub(super) fn take(&mut self, key: u64) -> Vec<Group> {
        let list = self.lists.remove(&key).unwrap_or_default();
        self.groups -= list.len() as u64;
        list
    }

    /// Whether thread `tid` of `block` has a read kept for the cell.
    pub(super) fn has_thread(&self, key: u64, block: u32, tid: u16) -> bool {
        self.lists.get(&key).is_some_and(|l| {
            l.iter().any(|g| {
                g.folded == 0
                    && g.r.block == block
                    && g.r.tid / 32 == tid / 32
                    && g.lanes & (1 << (tid % 32)) != 0
            })
        })
    }

    /// A word's cell split into byte cells: each byte keeps the word's reads.
    pub(super) fn split(&mut self, word_addr: u64) {
        let Some(list) = self.lists.get(&word_addr).cloned() else {
            return;
        };
        for i in 1..4 {
            self.groups += list.len() as u64;
            self.lists.insert(word_addr + i, list.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No partial warp synchronisations.
    const O: crate::warp_sync::WarpOrder = crate::warp_sync::WarpOrder::EMPTY;

    fn read(block: u32, tid: u16, epoch: u32, pc: u32) -> GAcc {
        GAcc {
            block,
            tid,
            kind: 1,
            epoch,
            pc,
            ..GAcc::EMPTY
        }
    }

    #[test]
    fn lanes_of_one_read_share_a_group_and_later_epochs_drop_earlier_ones() {
        let mut s = Spill::default();
        for t in [3u16, 4, 7] {
            s.add(64, read(0, t, 0, 10), true, false, &O);
        }
        // warp 1 of the same block, same epoch: its own group
        s.add(64, read(0, 40, 0, 10), true, false, &O);
        assert_eq!(s.groups, 2);
        assert!(s.has_thread(64, 0, 4) && !s.has_thread(64, 0, 5) && s.has_thread(64, 0, 40));
        // another block's read is kept beside them
        s.add(64, read(1, 3, 0, 10), true, false, &O);
        assert_eq!(s.groups, 3);
        // block 1 in its next epoch: its earlier read is dropped, block 0's stay
        s.add(64, read(1, 9, 1, 12), true, false, &O);
        assert_eq!(s.groups, 3);
        let all: Vec<(u32, u16)> = s
            .take(64)
            .iter()
            .flat_map(|g| g.reads())
            .map(|r| (r.block, r.tid))
            .collect();
        assert_eq!(all, [(0, 3), (0, 4), (0, 7), (0, 40), (1, 9)]);
        assert_eq!(s.groups, 0);
        assert_eq!(s.bytes(), 0);
    }

    #[test]
    fn a_threads_later_read_replaces_its_earlier_one_and_no_room_is_noted() {
        let mut s = Spill::default();
        s.add(8, read(0, 1, 0, 10), true, false, &O);
        s.add(8, read(0, 1, 0, 11), true, false, &O);
        let g = s.take(8);
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].r.pc, g[0].lanes), (11, 2));
        s.add(8, read(0, 1, 0, 10), false, false, &O);
        assert!(s.dropped && s.take(8).is_empty());
    }

    #[test]
    fn other_blocks_reads_fold_into_one_summary_per_instruction() {
        let mut s = Spill::default();
        // blocks 0..10 each read with two lanes of warp 0 at pc 10, block 4 also at pc 12
        for b in 0..10 {
            s.add(32, read(b, 1, 0, 10), true, true, &O);
            s.add(32, read(b, 2, 0, 10), true, true, &O);
            if b == 4 {
                s.add(32, read(b, 3, 0, 12), true, true, &O);
            }
        }
        let l = s.take(32);
        let shape: Vec<(u32, u32, u32, u32, u32)> = l
            .iter()
            .map(|g| (g.r.pc, g.folded, g.lo, g.hi, g.lanes))
            .collect();
        // pc 10: blocks 0..=8 folded (18 reads), block 4's pc 12 folded (1 read), block 9's group
        assert_eq!(shape, [(10, 18, 0, 8, 0), (12, 1, 4, 4, 0), (10, 0, 9, 9, 0b110)]);
        assert_eq!((l[0].r.block, l[0].r.tid), (0, 1));
        assert_eq!(s.groups, 0);
    }

    #[test]
    fn a_split_word_gives_each_byte_its_reads() {
        let mut s = Spill::default();
        s.add(16, read(2, 5, 0, 10), true, false, &O);
        s.split(16);
        for b in 16..20 {
            assert!(s.has_thread(b, 2, 5), "byte {b}");
        }
        assert_eq!(s.groups, 4);
    }
}
