//! Release and acquire within one block: flags in shared or global memory, fences, release and
//! acquire operations, as the PTX memory model orders them (the rules the global checker follows
//! between blocks, [`crate::global_races`], at block scope; its [`SyncOps`] say what each
//! instruction does).
//!
//! * A *release*: a fence of any scope (`membar.cta`, `__threadfence_block()`, `fence.acq_rel`,
//!   `fence.sc`, `__threadfence()`) or a release operation (`st.release`, `atom.release`,
//!   `atom.acq_rel`), then a strong write (`volatile`, `.relaxed`, `.release`, an atomic) that the
//!   other thread reads. It covers the releasing thread's accesses before the fence, and those
//!   of its warp's lanes before a `__syncwarp()` (or synchronising collective) naming both that
//!   precedes the fence; what the thread had acquired travels on with it (transitivity). A
//!   read-modify-write atomic on the flag continues the release sequence of the write it reads.
//! * An *acquire*: a strong read of such a write followed by a fence of the reading thread, or
//!   an acquire operation (`ld.acquire`, `atom.acquire`/`acq_rel`, or an atomic without a `.sem`,
//!   taken as acquiring as the global checker does). It covers the thread's later accesses and
//!   those of its warp's lanes after a `__syncwarp()` naming both.
//!
//! Across warps, a counted named barrier of part of the block (`bar.sync 1, 64`,
//! [`crate::named_barriers`]) carries both on: an acquisition made before a warp's arrival covers
//! the later accesses of the warps that waited there, and a release covers the accesses of other
//! warps that such barriers ordered before its fence (a *warp point*: a point with `k` 0, the
//! accesses of its warp below its count).
//!
//! An mbarrier (`cuda::barrier`, `cuda::pipeline`, a hand-written `mbarrier.arrive` /
//! `try_wait`) is such a flag too: an arrival (`mbarrier.arrive*`, `cp.async.mbarrier.arrive`)
//! is a release (the PTX ISA gives it `.release` semantics by default, and its `.cta` scope holds
//! the block), whose list joins those of the phase's earlier arrivals; a `test_wait` / `try_wait`
//! that sees a phase complete acquires the lists of that phase's arrivals (kept per barrier and
//! parity, the last completed phase of each).
//!
//! A plain read of the flag acquires nothing; a plain write of it ends what it carried. Every
//! scope holds the threads of one block, so `.cta` suffices. Barrier epochs order everything
//! across them already, so the state is per epoch: a block barrier's release drops it.
//!
//! Whether an access of a thread came before its release is told by the thread's *stamp*, the
//! number of releasing fences it had made: an access whose thread has made one keeps its stamp
//! in its instruction field (an index into the block's table of `(pc, stamp)` pairs, from
//! [`ID_BASE`] on), so the shadow's cells keep their size and kernels with no fence pay nothing.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::Acc;
use crate::named_barriers::BarrierOrder;
use crate::sync_ops::SyncOps;
use crate::warp_sync::WarpOrder;

/// Instruction fields from here on are `(pc, stamp)` pairs of the block's table.
pub(super) const ID_BASE: u32 = 1 << 31;

/// The most release points one block keeps (16 bytes each); beyond, releases carry nothing more.
const MAX_POINTS: usize = 1 << 22;

/// A release: the accesses of thread `tid` with a stamp below `k`, and those of its warp's lanes
/// before the warp's synchronisation count `wsync` (of epoch `epoch`); with `k` 0 (a warp point),
/// the accesses of `tid`'s warp below `wsync` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Point {
    tid: u16,
    k: u32,
    epoch: u32,
    wsync: u32,
}

/// An acquisition of the release list `snap` by thread `tid` at its warp's count `wsync`.
#[derive(Clone, Copy, Debug)]
struct Acq {
    tid: u16,
    wsync: u32,
    snap: u32,
}

/// The release/acquire state of one block (see the module notes).
#[derive(Debug)]
pub(super) struct BlockSync {
    pub(super) ops: Arc<SyncOps>,
    /// The kernel fences, releases or acquires (else only strength matters).
    pub(super) orders: bool,
    /// Per thread: releasing fences made (its stamp).
    stamps: Vec<u32>,
    /// Per thread: its last releasing fence in this epoch, `(stamp, wsync)`; `(0, 0)`: none.
    fenced: Vec<(u32, u32)>,
    /// Per thread: what partial named barriers had taught its warp at that fence, when anything
    /// ([`BarrierOrder::known_of`]).
    fenced_named: FxHashMap<u16, [u32; 32]>,
    /// Per thread: the release list its strong writes carry, while its fence and what it had
    /// acquired are unchanged: `(list + 1, stamp, acquisitions seen)`.
    carried: Vec<(u32, u32, usize)>,
    /// Per thread: release lists its strong reads saw since its last fence.
    pending: FxHashMap<u16, Vec<u32>>,
    /// This epoch's acquisitions, in order.
    acq: Vec<Acq>,
    /// The release lists (sorted by thread, one point per thread).
    lists: Vec<Vec<Point>>,
    points: usize,
    /// Shared bytes and global bytes whose last write carries a release list (index + 1).
    shared_flags: FxHashMap<u64, u32>,
    global_flags: FxHashMap<u64, u32>,
    /// Per mbarrier (shared offset): the release lists of the current phase's arrivals, and of
    /// the last completed phase of each parity (index + 1; 0: none).
    mbars: FxHashMap<u64, [u32; 3]>,
    /// The `(pc, stamp)` pairs, and their indices.
    ids: Vec<(u32, u32)>,
    id_of: FxHashMap<(u32, u32), u32>,
    epoch: u32,
}

impl BlockSync {
    pub(super) fn new(ops: Arc<SyncOps>, threads: usize) -> BlockSync {
        BlockSync {
            orders: ops.any_sync(),
            ops,
            stamps: vec![0; threads],
            fenced: vec![(0, 0); threads],
            fenced_named: FxHashMap::default(),
            carried: vec![(0, 0, 0); threads],
            pending: FxHashMap::default(),
            acq: Vec::new(),
            lists: Vec::new(),
            points: 0,
            shared_flags: FxHashMap::default(),
            global_flags: FxHashMap::default(),
            mbars: FxHashMap::default(),
            ids: Vec::new(),
            id_of: FxHashMap::default(),
            epoch: 0,
        }
    }

    /// The instruction field of an access at `pc` by thread `tid`: `pc` itself until the thread
    /// has made a releasing fence, then its `(pc, stamp)` pair's index.
    #[inline]
    pub(super) fn field(&mut self, pc: u32, tid: u16) -> u32 {
        let k = self.stamps.get(usize::from(tid)).copied().unwrap_or(0);
        if k == 0 || pc >= ID_BASE {
            return pc;
        }
        let next = ID_BASE + self.ids.len() as u32;
        let id = *self.id_of.entry((pc, k)).or_insert(next);
        if id == next {
            self.ids.push((pc, k));
        }
        id
    }

    /// Whether every lane of `mask` of `warp` has the same stamp.
    pub(super) fn uniform(&self, warp: u32, mask: u32) -> bool {
        let base = warp as usize * 32;
        let first = self
            .stamps
            .get(base + mask.trailing_zeros() as usize)
            .copied()
            .unwrap_or(0);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.stamps.get(base + l).copied().unwrap_or(0) != first {
                return false;
            }
        }
        true
    }

    /// The instruction an instruction field names.
    #[inline]
    pub(super) fn pc_of(&self, field: u32) -> u32 {
        if field >= ID_BASE {
            self.ids.get((field - ID_BASE) as usize).map_or(field, |e| e.0)
        } else {
            field
        }
    }

    /// The stamp of the access whose instruction field is `field`.
    fn stamp_of(&self, field: u32) -> u32 {
        if field >= ID_BASE {
            self.ids.get((field - ID_BASE) as usize).map_or(0, |e| e.1)
        } else {
            0
        }
    }

    /// A block barrier released: epoch `epoch` begins, and what orders within the last one is of
    /// no more use.
    pub(super) fn new_epoch(&mut self, epoch: u32) {
        self.epoch = epoch;
        self.fenced_named.clear();
        if self.acq.is_empty() && self.lists.is_empty() && self.pending.is_empty() {
            self.fenced.iter_mut().for_each(|f| *f = (0, 0));
            return;
        }
        self.fenced.iter_mut().for_each(|f| *f = (0, 0));
        self.carried.iter_mut().for_each(|c| *c = (0, 0, 0));
        self.pending.clear();
        self.acq.clear();
        self.lists.clear();
        self.points = 0;
        self.shared_flags.clear();
        self.global_flags.clear();
        self.mbars.clear();
    }

    /// `mbarrier.init` of the barrier at shared offset `addr`: no arrivals yet.
    pub(super) fn mbar_init(&mut self, addr: u64) {
        self.mbars.remove(&addr);
    }

    /// Thread `tid` (its warp at count `wsync`) arrives on the mbarrier at `addr`: a release
    /// whose list joins the phase's; `completed`: the parity of the phase the arrival completed.
    pub(super) fn mbar_arrive(
        &mut self,
        tid: u16,
        wsync: u32,
        addr: u64,
        completed: Option<u8>,
        order: &WarpOrder,
        named: &BarrierOrder,
    ) {
        if usize::from(tid) >= self.stamps.len() {
            return;
        }
        self.fence(tid, wsync, named);
        let own = self.carried(tid, order);
        let current = self.mbars.get(&addr).map_or(0, |m| m[0]);
        let joined = self.merge(current, own);
        let m = self.mbars.entry(addr).or_default();
        m[0] = joined;
        if let Some(p) = completed {
            m[1 + usize::from(p & 1)] = joined;
            m[0] = 0;
        }
    }

    /// The phase of parity `parity` of the mbarrier at `addr` completed by other means than an
    /// arrival (a transaction count reaching zero): its arrivals so far are that phase's.
    pub(super) fn mbar_completed(&mut self, addr: u64, parity: u8) {
        if let Some(m) = self.mbars.get_mut(&addr)
            && m[0] > 0
        {
            m[1 + usize::from(parity & 1)] = m[0];
            m[0] = 0;
        }
    }

    /// Thread `tid` (its warp at count `wsync`) saw the phase of parity `parity` of the mbarrier
    /// at `addr` complete (`test_wait` / `try_wait` returned true): it acquires that phase's
    /// arrivals.
    pub(super) fn mbar_wait(&mut self, tid: u16, wsync: u32, addr: u64, parity: u8) {
        let snap = self
            .mbars
            .get(&addr)
            .map_or(0, |m| m[1 + usize::from(parity & 1)]);
        if snap > 0 {
            self.acq.push(Acq { tid, wsync, snap });
        }
    }

    /// A fence of thread `tid` (its warp at count `wsync`): what its strong reads saw is
    /// acquired, and its later strong writes release what came before.
    pub(super) fn fence(&mut self, tid: u16, wsync: u32, named: &BarrierOrder) {
        let t = usize::from(tid);
        if t >= self.stamps.len() {
            return;
        }
        match named.known_of(u32::from(tid / 32)) {
            Some(k) => {
                self.fenced_named.insert(tid, k);
            }
            None => {
                self.fenced_named.remove(&tid);
            }
        }
        if let Some(seen) = self.pending.remove(&tid) {
            for snap in seen {
                self.acq.push(Acq { tid, wsync, snap });
            }
        }
        self.stamps[t] += 1;
        self.fenced[t] = (self.stamps[t], wsync);
    }

    /// Whether acquisition `a` happened before an access of thread `tid` at count `wsync` now:
    /// its own, a lane's of its warp before a synchronisation naming both, or another warp's
    /// that `known` (what partial named barriers taught `tid`'s warp) orders before it.
    fn before(order: &WarpOrder, known: Option<&[u32; 32]>, a: &Acq, tid: u16, wsync: u32) -> bool {
        if a.tid / 32 != tid / 32 {
            return known
                .and_then(|k| k.get(usize::from(a.tid / 32)))
                .is_some_and(|&c| a.wsync < c);
        }
        a.tid == tid
            || (a.tid / 32 == tid / 32
                && a.wsync < wsync
                && super::warp_ordered(
                    order,
                    &Acc {
                        tid: a.tid,
                        wsync: a.wsync,
                        ..Acc::EMPTY
                    },
                    &Acc {
                        tid,
                        wsync,
                        ..Acc::EMPTY
                    },
                ))
    }

    /// The release list a strong write of thread `tid` (its warp at `wsync`) carries now: its
    /// last fence's point and what it had acquired (index + 1; 0: none).
    fn carried(&mut self, tid: u16, order: &WarpOrder) -> u32 {
        let t = usize::from(tid);
        let (k, fws) = self.fenced.get(t).copied().unwrap_or((0, 0));
        if k == 0 {
            return 0;
        }
        let (snap, ck, seen) = self.carried[t];
        if snap > 0 && ck == k && seen == self.acq.len() {
            return snap;
        }
        let mut list = vec![Point {
            tid,
            k,
            epoch: self.epoch,
            wsync: fws,
        }];
        let known = self.fenced_named.get(&tid);
        for (v, &c) in known.iter().flat_map(|k| k.iter().enumerate()) {
            if c > 0 && v != usize::from(tid / 32) {
                list.push(Point {
                    tid: (v * 32) as u16,
                    k: 0,
                    epoch: self.epoch,
                    wsync: c,
                });
            }
        }
        for a in &self.acq {
            if Self::before(order, known, a, tid, fws)
                && let Some(l) = self.lists.get(a.snap as usize - 1)
            {
                list.extend_from_slice(l);
            }
        }
        let snap = self.push_list(list);
        self.carried[t] = (snap, k, self.acq.len());
        snap
    }

    /// Keeps `list` (one point per thread, the latest, and one warp point per warp, the
    /// latest) and returns its index + 1 (0 when the budget is spent).
    fn push_list(&mut self, mut list: Vec<Point>) -> u32 {
        list.sort_unstable_by(|a, b| {
            (a.tid, a.k == 0)
                .cmp(&(b.tid, b.k == 0))
                .then(b.k.cmp(&a.k))
                .then(b.wsync.cmp(&a.wsync))
        });
        list.dedup_by_key(|p| (p.tid, p.k == 0));
        if self.points + list.len() > MAX_POINTS {
            return 0;
        }
        self.points += list.len();
        self.lists.push(list);
        self.lists.len() as u32
    }

    /// The union of two release lists (index + 1 each, 0 none).
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == 0 || a == b {
            return b;
        }
        if b == 0 {
            return a;
        }
        let mut list = self.lists[a as usize - 1].clone();
        list.extend_from_slice(&self.lists[b as usize - 1]);
        self.push_list(list)
    }

    /// Lanes `mask` of `warp` (at count `wsync`) access `width` bytes at `addrs` with the
    /// instruction at `pc`, of kind `read` / `write` (an atomic both), in shared memory when
    /// `shared`, else global memory. Called before the access is checked.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn access(
        &mut self,
        warp: u32,
        wsync: u32,
        pc: u32,
        read: bool,
        write: bool,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
        shared: bool,
        order: &WarpOrder,
        named: &BarrierOrder,
    ) {
        let role = self.ops.at(pc);
        let strong = role.strong > 0 || (read && write);
        if !strong {
            // a plain write ends what the bytes carried
            let flags = if shared {
                &mut self.shared_flags
            } else {
                &mut self.global_flags
            };
            if write && !flags.is_empty() {
                for_bytes(mask, width, addrs, |b| {
                    flags.remove(&b);
                });
            }
            return;
        }
        let acquires = role.acquire > 0 || (read && write && role.rmw_acquires);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let tid = (warp * 32 + l) as u16;
            if role.release > 0 {
                self.fence(tid, wsync, named);
            }
            let a = addrs[l as usize];
            let flags = if shared {
                &self.shared_flags
            } else {
                &self.global_flags
            };
            let seen = flags.get(&a).copied().unwrap_or(0);
            if read && seen > 0 {
                if acquires {
                    self.acq.push(Acq {
                        tid,
                        wsync,
                        snap: seen,
                    });
                } else {
                    let p = self.pending.entry(tid).or_default();
                    if p.last() != Some(&seen) {
                        p.push(seen);
                    }
                }
            }
            if write {
                let own = self.carried(tid, order);
                // a read-modify-write continues the release sequence of the write it read
                let snap = if read { self.merge(seen, own) } else { own };
                let flags = if shared {
                    &mut self.shared_flags
                } else {
                    &mut self.global_flags
                };
                for k in 0..u64::from(width) {
                    let b = a.wrapping_add(k);
                    if snap > 0 {
                        flags.insert(b, snap);
                    } else {
                        flags.remove(&b);
                    }
                }
            }
        }
    }

    /// Whether `first` (an earlier access of the current epoch) happens before `me` (the access
    /// being checked, of the same epoch) through a release `me`'s thread, or a lane of its warp
    /// before a synchronisation, acquired.
    pub(super) fn ordered(&self, first: &Acc, me: &Acc, order: &WarpOrder, named: &BarrierOrder) -> bool {
        if self.acq.is_empty() || first.epoch != self.epoch {
            return false;
        }
        let stamp = self.stamp_of(first.pc);
        let known = named.known_of(u32::from(me.tid / 32));
        self.acq
            .iter()
            .filter(|a| Self::before(order, known.as_ref(), a, me.tid, me.wsync))
            .filter_map(|a| self.lists.get(a.snap as usize - 1))
            .flatten()
            .any(|p| covers(order, p, first, stamp))
    }
}

/// Whether release point `p` covers `first` (stamp `stamp`).
fn covers(order: &WarpOrder, p: &Point, first: &Acc, stamp: u32) -> bool {
    if first.epoch < p.epoch {
        return true;
    }
    if first.epoch > p.epoch {
        return false;
    }
    if p.k == 0 {
        // a warp point: what a partial named barrier ordered before the release
        return first.tid / 32 == p.tid / 32 && first.wsync < p.wsync;
    }
    if first.tid == p.tid {
        return stamp < p.k;
    }
    first.tid / 32 == p.tid / 32
        && first.wsync < p.wsync
        && super::warp_ordered(
            order,
            first,
            &Acc {
                tid: p.tid,
                wsync: p.wsync,
                epoch: p.epoch,
                ..Acc::EMPTY
            },
        )
}

/// Calls `f` with every byte lanes `mask` access (`width` bytes at `addrs`).
fn for_bytes(mask: u32, width: u8, addrs: &[u64; 32], mut f: impl FnMut(u64)) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        for k in 0..u64::from(width) {
            f(addrs[l as usize].wrapping_add(k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pc 0 a plain shared store, 1 a release store, 2 an acquire load.
    fn ops() -> Arc<SyncOps> {
        Arc::new(SyncOps::of_texts(&[
            "st.shared.u32 [%r1], %r2;",
            "st.release.cta.shared.u32 [%r3], %r2;",
            "ld.acquire.cta.shared.u32 %r2, [%r3];",
        ]))
    }

    fn acc(tid: u16, wsync: u32, pc: u32) -> Acc {
        Acc {
            tid,
            wsync,
            pc,
            ..Acc::EMPTY
        }
    }

    #[test]
    fn an_acquisition_before_a_partial_barrier_orders_the_warps_that_waited_there() {
        let mut s = BlockSync::new(ops(), 128);
        let order = WarpOrder::default();
        let mut named = BarrierOrder::new(4);
        // thread 0 writes the data (pc 0, before its fence: stamp 0) and releases the flag
        s.access(0, 0, 0, false, true, 4, 1, &[0; 32], true, &order, &named);
        s.access(0, 0, 1, false, true, 4, 1, &[0x40; 32], true, &order, &named);
        let write = acc(0, 0, 0);
        // thread 32 acquires it at its warp's count 0; warp 1 arrives at barrier 1 (count 1),
        // where warp 2 waits; warp 3 takes no part
        s.access(1, 0, 2, true, false, 4, 1, &[0x40; 32], true, &order, &named);
        assert!(s.ordered(&write, &acc(32, 0, 9), &order, &named));
        assert!(!s.ordered(&write, &acc(64, 0, 9), &order, &named));
        named.arrive(1, 1, 1);
        named.arrive(2, 1, 1);
        named.release(1, 0b0100, true);
        assert!(s.ordered(&write, &acc(64, 1, 9), &order, &named), "warp 2 waited");
        assert!(
            !s.ordered(&write, &acc(96, 1, 9), &order, &named),
            "warp 3 did not"
        );
    }

    #[test]
    fn a_release_carries_what_a_partial_barrier_ordered_before_its_fence() {
        let mut s = BlockSync::new(ops(), 128);
        let order = WarpOrder::default();
        let mut named = BarrierOrder::new(4);
        // warp 2 writes at count 0, arrives at barrier 1 where warp 1 waits (counts 1); warp 3
        // writes and takes no part; thread 32 then releases the flag, thread 0 acquires it
        s.access(2, 0, 0, false, true, 4, 1, &[0; 32], true, &order, &named);
        named.arrive(2, 1, 1);
        named.arrive(1, 1, 1);
        named.release(1, 0b0010, true);
        s.access(1, 1, 1, false, true, 4, 1, &[0x40; 32], true, &order, &named);
        s.access(0, 0, 2, true, false, 4, 1, &[0x40; 32], true, &order, &named);
        let me = acc(0, 0, 9);
        assert!(
            s.ordered(&acc(64, 0, 0), &me, &order, &named),
            "warp 2 before its arrival"
        );
        assert!(!s.ordered(&acc(64, 1, 0), &me, &order, &named), "warp 2 after it");
        assert!(!s.ordered(&acc(96, 0, 0), &me, &order, &named), "warp 3");
    }
    #[test]
    fn an_mbarrier_phase_orders_its_arrivals_before_the_waits_that_see_it_complete() {
        let mut s = BlockSync::new(ops(), 128);
        let order = WarpOrder::default();
        let named = BarrierOrder::new(4);
        s.mbar_init(0x100);
        // thread 32 writes (pc 0) and arrives; the phase is not complete yet
        s.access(1, 0, 0, false, true, 4, 1, &[0; 32], true, &order, &named);
        let write = acc(32, 0, 0);
        s.mbar_arrive(32, 0, 0x100, None, &order, &named);
        s.mbar_wait(0, 0, 0x100, 0);
        assert!(
            !s.ordered(&write, &acc(0, 0, 9), &order, &named),
            "phase 0 not complete"
        );
        // thread 32 writes again after its arrival; thread 64's arrival completes phase 0
        let late = acc(32, 0, s.field(0, 32));
        s.mbar_arrive(64, 0, 0x100, Some(0), &order, &named);
        s.mbar_wait(0, 0, 0x100, 0);
        assert!(
            s.ordered(&write, &acc(0, 0, 9), &order, &named),
            "waited for phase 0"
        );
        assert!(
            !s.ordered(&late, &acc(0, 0, 9), &order, &named),
            "written after the arrival"
        );
        // a wait for the other parity acquires nothing of phase 0
        s.mbar_wait(96, 0, 0x100, 1);
        assert!(!s.ordered(&write, &acc(96, 0, 9), &order, &named), "parity 1");
        // a phase completed by a transaction count: the arrivals before it are that phase's
        s.mbar_arrive(32, 0, 0x100, None, &order, &named);
        s.mbar_completed(0x100, 1);
        s.mbar_wait(96, 0, 0x100, 1);
        assert!(
            s.ordered(&late, &acc(96, 0, 9), &order, &named),
            "thread 32 arrived on phase 1"
        );
    }
}
