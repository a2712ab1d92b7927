//! A launch's global footprint: which bytes of global memory it read, wrote and accessed with
//! atomics, per instruction, as coalesced byte intervals. The runtime of `warpscope run --check`
//! keeps a launch's footprint while the launch is outstanding (a later launch on another stream
//! may run at the same time on a GPU) and compares it with the footprints of launches nothing
//! orders after it (`stream_race` findings); once the host has waited for the launch it is dropped.
//!
//! Memory is bounded by the number of disjoint intervals, not by the bytes touched: a warp's
//! contiguous lanes make one interval, a kernel sweeping a buffer one per instruction. Past
//! [`MAX_INTERVALS`] a footprint stops growing and says so ([`Footprint::partial`]).
//!
//! Cost: a warp access only appends its intervals to a buffer; every [`PENDING`] intervals (and
//! when a block's footprint is merged) the buffer is sorted, runs of one instruction that overlap
//! or touch are joined, and what is left goes into the per-instruction interval maps, where an
//! interval inside one already there changes nothing. A warp re-reading what its block read
//! before so costs a push, not a map update.

use std::collections::BTreeMap;

/// Where a footprint puts the bytes of the constant bank: a kernel's `ld.const` of offset `o` is
/// a read of `CONST_BASE + o` (no global address is that high). The runtime gives each module's
/// bank a span of its own ([`const_address`]), where a copy to a `__constant__` variable writes.
pub const CONST_BASE: u64 = 0xc000_0000_0000_0000;

/// The footprint address of byte `offset` of module `module`'s constant bank.
pub fn const_address(module: usize, offset: u64) -> u64 {
    CONST_BASE + ((module as u64) << 32) + offset
}

/// The most intervals one launch's footprint keeps (about 48 MB at its worst).
pub const MAX_INTERVALS: usize = 1 << 20;
/// Intervals a footprint buffers before it sorts and joins them into its maps.
pub const PENDING: usize = 4096;

/// How an instruction used its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Use {
    /// A plain load (or a `cp.async` source).
    Read,
    /// A plain store.
    Write,
    /// An atomic (a read-modify-write or a reduction): it races with plain accesses, never with
    /// another atomic.
    Atomic,
}

impl Use {
    /// Whether an access of this use and one of `other`, from two launches nothing orders, race:
    /// at least one writes, and not both are atomics.
    pub fn conflicts(self, other: Use) -> bool {
        !matches!((self, other), (Use::Read, Use::Read) | (Use::Atomic, Use::Atomic))
    }

    /// `reads`, `writes`, `updates atomically`.
    pub fn verb(self) -> &'static str {
        match self {
            Use::Read => "reads",
            Use::Write => "writes",
            Use::Atomic => "updates atomically",
        }
    }
}

/// A set of bytes as disjoint, non-adjacent half-open intervals (start → end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(BTreeMap<u64, u64>);

impl Ranges {
    /// Adds `[lo, hi)`; returns how the number of intervals changed.
    pub fn insert(&mut self, mut lo: u64, mut hi: u64) -> isize {
        if lo >= hi {
            return 0;
        }
        // inside an interval already there: nothing changes
        if let Some((_, &b)) = self.0.range(..=lo).next_back()
            && b >= hi
        {
            return 0;
        }
        let mut removed = 0isize;
        // intervals starting at or before `hi` that reach `lo` touch the new one
        while let Some((&a, &b)) = self.0.range(..=hi).next_back() {
            if b < lo {
                break;
            }
            lo = lo.min(a);
            hi = hi.max(b);
            self.0.remove(&a);
            removed += 1;
        }
        self.0.insert(lo, hi);
        1 - removed
    }

    /// The intervals, by start.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.0.iter().map(|(&a, &b)| (a, b))
    }

    /// Number of intervals.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no byte is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first byte both sets hold.
    pub fn first_common(&self, other: &Ranges) -> Option<u64> {
        let mut a = self.iter().peekable();
        let mut b = other.iter().peekable();
        while let (Some(&(alo, ahi)), Some(&(blo, bhi))) = (a.peek(), b.peek()) {
            let lo = alo.max(blo);
            if lo < ahi.min(bhi) {
                return Some(lo);
            }
            if ahi <= bhi {
                a.next();
            } else {
                b.next();
            }
        }
        None
    }
}

/// The bytes a launch (or a block of it) accessed, per use and instruction (pc).
///
/// What [`Footprint::add`] and [`Footprint::add_lanes`] add is buffered: the readers
/// ([`Footprint::sets`], [`Footprint::intervals`], [`Footprint::partial`], ...) see it after
/// [`Footprint::flush`] ([`Footprint::merge`] flushes both sides).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    sets: BTreeMap<(Use, u32), Ranges>,
    intervals: usize,
    partial: bool,
    /// Intervals added since the last flush.
    pending: Vec<(Use, u32, u64, u64)>,
}

impl Footprint {
    /// Adds `[lo, hi)` accessed by instruction `pc` as `u`.
    pub fn add(&mut self, u: Use, pc: u32, lo: u64, hi: u64) {
        if lo >= hi {
            return;
        }
        self.pending.push((u, pc, lo, hi));
        if self.pending.len() >= PENDING {
            self.flush();
        }
    }

    /// Moves the buffered intervals into the maps: sorted, each instruction's overlapping or
    /// touching ones joined first. Past [`MAX_INTERVALS`] the rest are left out and the footprint
    /// is partial.
    pub fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_unstable();
        let mut run: Option<(Use, u32, u64, u64)> = None;
        for (u, pc, lo, hi) in pending.drain(..) {
            run = match run {
                Some((ru, rpc, rlo, rhi)) if ru == u && rpc == pc && lo <= rhi => {
                    Some((ru, rpc, rlo, rhi.max(hi)))
                }
                Some((ru, rpc, rlo, rhi)) => {
                    self.insert(ru, rpc, rlo, rhi);
                    Some((u, pc, lo, hi))
                }
                None => Some((u, pc, lo, hi)),
            };
        }
        if let Some((u, pc, lo, hi)) = run {
            self.insert(u, pc, lo, hi);
        }
        // the buffer's allocation is kept for the next intervals
        self.pending = pending;
    }

    fn insert(&mut self, u: Use, pc: u32, lo: u64, hi: u64) {
        if self.intervals >= MAX_INTERVALS {
            self.partial = true;
            return;
        }
        let d = self.sets.entry((u, pc)).or_default().insert(lo, hi);
        self.intervals = self.intervals.saturating_add_signed(d);
    }

    /// Adds one warp access: `width` bytes at each active lane's address.
    pub fn add_lanes(&mut self, u: Use, pc: u32, width: u8, mask: u32, addrs: &[u64; 32]) {
        let w = u64::from(width.max(1));
        let mut run: Option<(u64, u64)> = None;
        for (lane, &a) in addrs.iter().enumerate() {
            if mask >> lane & 1 == 0 {
                continue;
            }
            let hi = a.saturating_add(w);
            run = match run {
                // consecutive lanes at consecutive addresses grow one interval
                Some((lo, h)) if a >= lo && a <= h => Some((lo, h.max(hi))),
                Some((lo, h)) => {
                    self.add(u, pc, lo, h);
                    Some((a, hi))
                }
                None => Some((a, hi)),
            };
        }
        if let Some((lo, h)) = run {
            self.add(u, pc, lo, h);
        }
    }

    /// Folds another footprint in (a later block's); both are flushed.
    pub fn merge(&mut self, mut other: Footprint) {
        self.flush();
        other.flush();
        self.partial |= other.partial;
        for ((u, pc), r) in other.sets {
            for (lo, hi) in r.iter() {
                self.insert(u, pc, lo, hi);
            }
        }
    }

    /// Whether intervals were left out ([`MAX_INTERVALS`]).
    pub fn partial(&self) -> bool {
        self.partial
    }

    /// Whether no access was recorded.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty() && self.pending.is_empty()
    }

    /// Number of intervals kept.
    pub fn intervals(&self) -> usize {
        self.intervals
    }

    /// The sets, per (use, pc).
    pub fn sets(&self) -> impl Iterator<Item = (Use, u32, &Ranges)> + '_ {
        self.sets.iter().map(|(&(u, pc), r)| (u, pc, r))
    }

    /// The sets regrouped under a key of the caller's (a source line for a pc): sets of one use
    /// and one key are joined.
    pub fn regroup<K: Ord + Clone>(&self, key: impl Fn(u32) -> K) -> BTreeMap<(Use, K), Ranges> {
        let mut out: BTreeMap<(Use, K), Ranges> = BTreeMap::new();
        for (&(u, pc), r) in &self.sets {
            let set = out.entry((u, key(pc))).or_default();
            for (lo, hi) in r.iter() {
                set.insert(lo, hi);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_coalesce_overlapping_and_adjacent_intervals() {
        let mut r = Ranges::default();
        assert_eq!(r.insert(0, 4), 1);
        assert_eq!(r.insert(8, 12), 1);
        // adjacent on both sides: the three become one
        assert_eq!(r.insert(4, 8), -1);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(0, 12)]);
        assert_eq!(r.insert(20, 24), 1);
        assert_eq!(r.insert(2, 22), -1);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(0, 24)]);
        assert_eq!(r.insert(5, 5), 0);
    }

    #[test]
    fn first_common_byte_of_two_sets() {
        let mut a = Ranges::default();
        let mut b = Ranges::default();
        a.insert(0, 128);
        a.insert(256, 384);
        b.insert(128, 256);
        assert_eq!(a.first_common(&b), None);
        b.insert(380, 400);
        assert_eq!(a.first_common(&b), Some(380));
        assert_eq!(b.first_common(&a), Some(380));
    }

    #[test]
    fn a_warp_of_contiguous_lanes_is_one_interval_and_strided_lanes_are_many() {
        let mut f = Footprint::default();
        let addrs: [u64; 32] = std::array::from_fn(|i| 0x1000 + 4 * i as u64);
        f.add_lanes(Use::Write, 3, 4, u32::MAX, &addrs);
        f.flush();
        assert_eq!(f.intervals(), 1);
        let strided: [u64; 32] = std::array::from_fn(|i| 0x4000 + 8 * i as u64);
        f.add_lanes(Use::Read, 4, 4, 0xF, &strided);
        f.flush();
        assert_eq!(f.intervals(), 5);
        let sets: Vec<_> = f.sets().map(|(u, pc, r)| (u, pc, r.len())).collect();
        assert_eq!(sets, [(Use::Read, 4, 4), (Use::Write, 3, 1)]);
    }

    #[test]
    fn atomics_race_with_plain_accesses_only() {
        assert!(!Use::Atomic.conflicts(Use::Atomic));
        assert!(!Use::Read.conflicts(Use::Read));
        assert!(Use::Atomic.conflicts(Use::Read) && Use::Read.conflicts(Use::Atomic));
        assert!(Use::Write.conflicts(Use::Read) && Use::Write.conflicts(Use::Write));
    }

    #[test]
    fn merge_joins_blocks_and_regroup_joins_pcs_of_one_key() {
        let mut a = Footprint::default();
        a.add(Use::Write, 1, 0, 64);
        let mut b = Footprint::default();
        b.add(Use::Write, 1, 64, 128);
        b.add(Use::Write, 2, 128, 132);
        a.merge(b);
        assert_eq!(a.intervals(), 2);
        let g = a.regroup(|_| 7u32);
        assert_eq!(g[&(Use::Write, 7)].iter().collect::<Vec<_>>(), [(0, 132)]);
    }

    #[test]
    fn buffered_intervals_join_per_instruction_and_stop_at_the_cap() {
        let mut f = Footprint::default();
        // out of order, overlapping, touching and contained: one interval per instruction
        f.add(Use::Read, 1, 64, 128);
        f.add(Use::Read, 1, 0, 64);
        f.add(Use::Read, 1, 16, 32);
        f.add(Use::Read, 2, 100, 104);
        f.add(Use::Read, 1, 120, 130);
        assert!(!f.is_empty());
        f.flush();
        let sets: Vec<_> = f
            .sets()
            .map(|(u, pc, r)| (u, pc, r.iter().collect::<Vec<_>>()))
            .collect();
        assert_eq!(
            sets,
            [(Use::Read, 1, vec![(0, 130)]), (Use::Read, 2, vec![(100, 104)])]
        );
        // an interval inside one already kept changes nothing
        f.add(Use::Read, 1, 8, 12);
        f.flush();
        assert_eq!(f.intervals(), 2);
        // the cap: disjoint intervals past MAX_INTERVALS are left out, and the footprint says so
        let mut f = Footprint::default();
        for i in 0..(MAX_INTERVALS as u64 + 5) {
            f.add(Use::Write, 0, 8 * i, 8 * i + 4);
        }
        f.flush();
        assert_eq!(f.intervals(), MAX_INTERVALS);
        assert!(f.partial());
        // the first ones are kept
        assert_eq!(f.sets().next().unwrap().2.iter().next(), Some((0, 4)));
    }
}
