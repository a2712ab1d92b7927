//! The reads of a shared byte beyond the two its cell keeps: every read of the current epoch that
//! no later kept read is known to follow, so a write is checked against all of them (the global
//! tracker's approach, [`crate::global_races`]'s `reads` module, for one block's shared memory).
//!
//! A cell ([`super::Cell`]) keeps two reads of the current epoch inline; a third read of another
//! thread goes here, into a list per cell (keyed by the cell's index in the shadow), and the
//! cell's second read is marked (`Acc::steady`, which reads never use otherwise) so that writes
//! look here only when there is something to see. Reads are kept as *groups*: the lanes of one
//! warp that read the byte with the same instruction at the same `__syncwarp` count share one
//! entry (a lane mask). A new read drops what it is known to follow: its own thread's earlier
//! read, and the reads of its warp that a `__syncwarp` (or a synchronising collective) naming
//! both lanes orders before it. The list holds one epoch's reads: a read of a later epoch empties
//! it (as it replaces the cell's inline reads), and a write of a later epoch ignores it (the
//! barriers between are the same for every read of an epoch, and the inline reads already record
//! them), then drops it.
//!
//! Bounded: the lists hold only bytes that more than two threads read in one epoch, at most
//! [`MAX_GROUPS`] groups per block; a read that finds no room is not kept, and the block's note
//! says so.
//!
//! Beside the reads, the same store keeps other threads' atomics of the current epoch that a
//! cell's two write slots no longer hold (a [`super::HIDDEN`] write and the last atomic took
//! them; the cell's `w2` is marked [`super::EXTRA`]): at most [`MAX_ATOMICS`] per cell, one per
//! thread (its latest: whatever is unordered with a thread's earlier atomic is with its later
//! one too).

use std::collections::HashMap;

use super::Acc;
use crate::warp_sync::WarpOrder;

/// Groups one block keeps at most (24 bytes each: 24 MiB).
pub(super) const MAX_GROUPS: usize = 1 << 20;

/// Atomics kept beside one cell at most (the oldest gives way).
pub(super) const MAX_ATOMICS: usize = 4;

/// Lanes of one warp whose reads of one byte are alike but for the thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Group {
    /// The read, with the warp's first thread as `tid`.
    pub(super) r: Acc,
    pub(super) lanes: u32,
}

impl Group {
    /// The group's reads, one per lane.
    pub(super) fn reads(&self) -> impl Iterator<Item = Acc> + '_ {
        let mut m = self.lanes;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let l = m.trailing_zeros();
            m &= m - 1;
            Some(Acc {
                tid: self.r.tid + l as u16,
                ..self.r
            })
        })
    }
}

/// The lists of the cells that have more reads than they keep.
#[derive(Debug, Default)]
pub(super) struct MoreReads {
    /// Per cell of the shadow (allocated at the first list): 0, or 1 + the index of its list.
    heads: Vec<u32>,
    /// The lists; those of `free` are empty and unused (kept with their memory for the next).
    lists: Vec<Vec<Group>>,
    free: Vec<u32>,
    /// Cells of the shadow.
    cells: usize,
    groups: usize,
    /// A read was not kept for want of room.
    pub(super) dropped: bool,
    /// Per cell index: other threads' atomics its slots no longer hold (see the module's text).
    atomics: HashMap<usize, Vec<Acc>>,
}

impl MoreReads {
    /// For a shadow of `cells` cells (nothing is allocated before the first list).
    pub(super) fn for_cells(cells: usize) -> MoreReads {
        MoreReads {
            cells,
            ..MoreReads::default()
        }
    }

    /// Keeps read `me` of the cell `idx` (whose inline reads are of `me`'s epoch and other
    /// threads); `order`: the block's partial warp synchronisations.
    pub(super) fn add(&mut self, idx: usize, me: Acc, order: &WarpOrder) {
        let Some(slot) = self.slot(idx) else {
            return;
        };
        let list = &mut self.lists[slot as usize];
        if list.first().is_some_and(|g| g.r.epoch != me.epoch) {
            self.groups -= list.len();
            list.clear();
        }
        let warp = me.tid / 32;
        let lane = u32::from(me.tid % 32);
        let bit = 1u32 << lane;
        if let Some(g) = list.last_mut()
            && g.r.tid / 32 == warp
            && g.r.pc == me.pc
            && g.r.wsync == me.wsync
        {
            // another lane of the read kept last (what its first lane followed is gone already)
            g.lanes |= bit;
            return;
        }
        let mut merged = false;
        let mut i = list.len();
        while i > 0 {
            i -= 1;
            let g = &mut list[i];
            if g.r.tid / 32 != warp {
                continue;
            }
            // the reads of its warp the new one follows, and its own thread's earlier one
            let before = if g.r.wsync == me.wsync {
                0
            } else {
                order.lanes_before(u32::from(warp), g.lanes, g.r.wsync, lane, me.wsync)
            };
            g.lanes &= !(before | bit);
            if g.r.pc == me.pc && g.r.wsync == me.wsync {
                g.lanes |= bit;
                merged = true;
            } else if g.lanes == 0 {
                list.remove(i);
                self.groups -= 1;
            }
        }
        if !merged {
            if self.groups < MAX_GROUPS {
                list.push(Group {
                    r: Acc {
                        tid: warp * 32,
                        steady: false,
                        ..me
                    },
                    lanes: bit,
                });
                self.groups += 1;
            } else {
                self.dropped = true;
            }
        }
        if list.is_empty() {
            self.heads[idx] = 0;
            self.free.push(slot);
        }
    }

    /// The index of cell `idx`'s list, made (empty) if it has none; `None` for a cell outside the
    /// shadow.
    fn slot(&mut self, idx: usize) -> Option<u32> {
        if self.heads.is_empty() {
            self.heads = vec![0; self.cells];
        }
        let head = *self.heads.get(idx)?;
        if head > 0 {
            return Some(head - 1);
        }
        let slot = self.free.pop().unwrap_or_else(|| {
            self.lists.push(Vec::new());
            self.lists.len() as u32 - 1
        });
        self.heads[idx] = slot + 1;
        Some(slot)
    }

    /// The cell's kept reads.
    pub(super) fn get(&self, idx: usize) -> &[Group] {
        match self.heads.get(idx) {
            Some(&h) if h > 0 => &self.lists[h as usize - 1],
            _ => &[],
        }
    }

    /// Whether thread `tid` has a read kept for the cell in epoch `epoch`.
    pub(super) fn has_thread(&self, idx: usize, tid: u16, epoch: u32) -> bool {
        self.get(idx)
            .iter()
            .any(|g| g.r.epoch == epoch && g.r.tid / 32 == tid / 32 && g.lanes & (1 << (tid % 32)) != 0)
    }

    /// Drops the cell's list (a write ended its reads, or a later epoch's read did).
    pub(super) fn remove(&mut self, idx: usize) {
        if let Some(h) = self.heads.get_mut(idx)
            && *h > 0
        {
            let slot = *h - 1;
            *h = 0;
            let l = &mut self.lists[slot as usize];
            self.groups -= l.len();
            l.clear();
            self.free.push(slot);
        }
    }

    /// Gives cell `to` the reads of cell `from` (a word's cell split into byte cells).
    pub(super) fn copy(&mut self, from: usize, to: usize) {
        let from_list = self.get(from).to_vec();
        self.remove(to);
        if from_list.is_empty() {
            return;
        }
        let Some(slot) = self.slot(to) else {
            return;
        };
        self.groups += from_list.len();
        self.lists[slot as usize] = from_list;
    }

    /// Whether cells `a` and `b` keep the same reads.
    pub(super) fn same(&self, a: usize, b: usize) -> bool {
        self.get(a) == self.get(b)
    }

    pub(super) fn clear(&mut self) {
        *self = MoreReads::default();
    }

    /// Keeps atomic `a` beside cell `idx`, in place of an earlier one of its thread and of any of
    /// an earlier epoch.
    pub(super) fn keep_atomic(&mut self, idx: usize, a: Acc) {
        let v = self.atomics.entry(idx).or_default();
        v.retain(|x| x.tid != a.tid && x.epoch == a.epoch);
        if v.len() == MAX_ATOMICS {
            v.remove(0);
        }
        v.push(Acc { steady: false, ..a });
    }

    /// The atomics kept beside cell `idx`.
    pub(super) fn atomics(&self, idx: usize) -> &[Acc] {
        self.atomics.get(&idx).map_or(&[], Vec::as_slice)
    }

    /// Drops the atomics kept beside cell `idx` that are not of epoch `epoch` (all: `None`);
    /// returns whether some are left.
    pub(super) fn retain_atomics(&mut self, idx: usize, epoch: Option<u32>) -> bool {
        let Some(v) = self.atomics.get_mut(&idx) else {
            return false;
        };
        v.retain(|x| Some(x.epoch) == epoch);
        if v.is_empty() {
            self.atomics.remove(&idx);
            return false;
        }
        true
    }

    /// Gives cell `to` the atomics kept beside cell `from` (a word's cell split into byte cells).
    pub(super) fn copy_atomics(&mut self, from: usize, to: usize) {
        match self.atomics.get(&from).cloned() {
            Some(v) => {
                self.atomics.insert(to, v);
            }
            None => {
                self.atomics.remove(&to);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(tid: u16, epoch: u32, wsync: u32, pc: u32) -> Acc {
        Acc {
            tid,
            flags: 0,
            steady: false,
            epoch,
            wsync,
            pc,
        }
    }

    fn all(m: &MoreReads, idx: usize) -> Vec<(u16, u32)> {
        m.get(idx)
            .iter()
            .flat_map(|g| g.reads())
            .map(|r| (r.tid, r.pc))
            .collect()
    }

    #[test]
    fn kept_atomics_one_per_thread_at_most_four_of_one_epoch() {
        let mut m = MoreReads::for_cells(64);
        let atom = |tid, epoch, pc| Acc {
            flags: super::super::ATOMIC,
            ..read(tid, epoch, 0, pc)
        };
        m.keep_atomic(3, atom(1, 0, 10));
        m.keep_atomic(3, atom(1, 0, 11));
        let pcs = |m: &MoreReads| m.atomics(3).iter().map(|a| (a.tid, a.pc)).collect::<Vec<_>>();
        assert_eq!(
            pcs(&m),
            [(1, 11)],
            "a thread's later atomic replaces its earlier one"
        );
        for t in 2..7 {
            m.keep_atomic(3, atom(t, 0, 20));
        }
        assert_eq!(
            pcs(&m),
            [(3, 20), (4, 20), (5, 20), (6, 20)],
            "the oldest gives way"
        );
        m.copy_atomics(3, 9);
        assert_eq!(m.atomics(9), m.atomics(3));
        m.keep_atomic(3, atom(8, 1, 30));
        assert_eq!(
            pcs(&m),
            [(8, 30)],
            "a later epoch's atomic ends the earlier epoch's"
        );
        assert!(!m.retain_atomics(3, Some(2)) && m.atomics(3).is_empty());
        assert!(m.retain_atomics(9, Some(0)) && !m.retain_atomics(9, None));
        assert!(m.atomics(9).is_empty() && m.atomics(4).is_empty());
    }

    #[test]
    fn lanes_of_one_read_share_a_group_and_a_later_epoch_empties_the_list() {
        let (mut m, o) = (MoreReads::for_cells(64), WarpOrder::default());
        for t in [3u16, 4, 7, 40] {
            m.add(5, read(t, 0, 0, 10), &o);
        }
        assert_eq!(m.groups, 2, "warp 0's three lanes, warp 1's one");
        assert!(m.has_thread(5, 4, 0) && !m.has_thread(5, 5, 0) && !m.has_thread(5, 4, 1));
        // another instruction of warp 1: its own group; thread 40's later read replaces its first
        m.add(5, read(40, 0, 0, 12), &o);
        m.add(5, read(41, 0, 0, 12), &o);
        assert_eq!(all(&m, 5), [(3, 10), (4, 10), (7, 10), (40, 12), (41, 12)]);
        m.add(5, read(9, 1, 0, 10), &o);
        assert_eq!(all(&m, 5), [(9, 10)]);
        m.remove(5);
        assert_eq!((m.groups, m.get(5).len()), (0, 0));
    }

    #[test]
    fn a_syncwarp_drops_the_reads_of_the_lanes_it_names_only() {
        let (mut m, mut o) = (MoreReads::for_cells(64), WarpOrder::default());
        for t in [1u16, 2, 20] {
            m.add(0, read(t, 0, 0, 10), &o);
        }
        // a read of another warp after warp 0's sync stays beside them
        m.add(0, read(33, 0, 0, 10), &o);
        // warp 0's sync 1 names lanes 0-15: lane 5's read after it follows lanes 1 and 2 only
        o.sync(0, 1, 0xffff, u32::MAX);
        m.add(0, read(5, 0, 1, 11), &o);
        assert_eq!(all(&m, 0), [(20, 10), (33, 10), (5, 11)]);
        // a whole-warp sync: lane 6's read follows every earlier read of warp 0
        m.add(0, read(6, 0, 2, 11), &o);
        assert_eq!(all(&m, 0), [(33, 10), (6, 11)]);
    }

    #[test]
    fn a_split_word_gives_each_byte_its_reads_and_no_room_is_noted() {
        let (mut m, o) = (MoreReads::for_cells(64), WarpOrder::default());
        m.add(8, read(2, 0, 0, 10), &o);
        for b in [20, 32, 44] {
            m.copy(8, b);
            assert!(m.same(8, b));
        }
        assert_eq!(m.groups, 4);
        m.groups = MAX_GROUPS;
        m.add(9, read(2, 0, 0, 10), &o);
        assert!(m.dropped && m.get(9).is_empty());
    }
}
