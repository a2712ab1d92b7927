//! What one launch's blocks did to global memory, kept while they run in parallel: a word that one
//! block wrote and another read or wrote (an atomic counts as a write) makes the result depend on
//! the host's thread schedule. The launch then runs again with its blocks one after another in
//! block order from the memory it started with ([`Shadow::undo`] puts back every word written),
//! so its results are the same bytes whatever the number of threads.
//!
//! How, without an atomic per word on the hot path:
//! - Each unit (a block, a part of consecutive blocks that one host thread runs one after another
//!   in block order, or a cluster) marks the words it reads and writes in a table of its host
//!   thread ([`Shadow::begin`] .. [`Shadow::finish`]): plain stores, 64 words to an entry, a
//!   warp's contiguous lanes (or a 16-wide block's two rows) one or two ranges.
//! - When the unit ends, its host thread publishes its entries in two bitmaps of the launch
//!   (read, written; 2 bits a word, in chunks made on first use), 64 words per atomic operation,
//!   checking them against the units that published before ([`Shadow::finish`]); the table's
//!   memory stays with the thread for its next unit.
//! - A word's value before the launch's first write to it is kept for [`Shadow::undo`]: one
//!   `fetch_or` per 64 words claims them (the claimer keeps the values), a warp's 32 contiguous
//!   words one claim, words already claimed a plain load. A region that was all zeros keeps no
//!   values: `undo` zeroes the words of the written bitmap.
//!
//! A word conflicts when one unit wrote it and another read or wrote it, whatever the order they
//! did it in: checked pairwise in block order, that is the same decision as over the whole launch.
//! Within a unit nothing conflicts: its blocks touched the word one after another in block order,
//! as the serial run does, and no other unit touched it.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::Ordering::{AcqRel, Relaxed, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicU64};

use rayon::prelude::*;

use super::{Global, Region, Words};
use crate::timing;

/// Words per chunk of kept values (made at the chunk's first write).
const CHUNK_WORDS: usize = 1024;
/// Words per chunk of the finished blocks' bitmaps.
const BITS_WORDS: usize = 1 << 16;
/// Blocks beyond this many are not told apart (grids that large are not tracked).
pub const SHADOW_MAX_BLOCKS: u64 = (1 << 30) - 2;

/// See the module's documentation.
pub struct Shadow {
    regions: Vec<ShadowRegion>,
    conflict: AtomicBool,
    /// The finished units' words, per region.
    bits: Vec<Bits>,
    /// Units published, ranges marked, entries published (counted under `WARPSCOPE_TIMING`).
    stats: [AtomicU64; 3],
}

struct ShadowRegion {
    base: u64,
    len: u64,
    chunks: Box<[OnceLock<Chunk>]>,
    /// The region was all zeros when the launch began: the values before its writes are zeros,
    /// not kept (`undo` zeroes the words the finished blocks wrote).
    zero: bool,
    /// A word of it was written.
    written: AtomicBool,
}

/// The kept values of `CHUNK_WORDS` words: which are kept (one bit a word) and the values. On cache
/// lines of its own: the chunks of a region lie side by side, and neighbouring chunks are often
/// written by blocks on different threads (a part of 64 blocks 16 words wide covers one chunk of
/// each row it writes, so the parts of two threads meet at every chunk), whose claims would
/// otherwise take one line from each other at every warp's store.
#[repr(align(64))]
struct Chunk {
    saved: [AtomicU64; CHUNK_WORDS / 64],
    old: Words,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            saved: std::array::from_fn(|_| AtomicU64::new(0)),
            old: Words::zeroed(CHUNK_WORDS),
        }
    }
}

/// Two bits per word of a region (read by a finished block, written by one), in chunks of
/// `BITS_WORDS` words made on first use: `BITS_WORDS / 64` read words then as many written ones,
/// in lines of their own ([`BitLine`]).
struct Bits {
    chunks: Box<[OnceLock<Box<[BitLine]>>]>,
}

/// 16 bitmap words (1,024 words of a region) on cache lines of their own: the bitmap words of
/// the blocks two threads run side by side do not share a line (an allocation of plain words
/// starts anywhere in a line).
#[repr(align(128))]
struct BitLine([AtomicU64; 16]);

impl BitLine {
    fn new() -> BitLine {
        BitLine(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// The bitmap word `k` of a chunk.
#[inline(always)]
fn bit_word(chunk: &[BitLine], k: usize) -> &AtomicU64 {
    &chunk[k / 16].0[k % 16]
}

const READ: usize = 0;
const WRITTEN: usize = 1;

impl Bits {
    fn new(words: usize) -> Bits {
        Bits {
            chunks: (0..words.div_ceil(BITS_WORDS)).map(|_| OnceLock::new()).collect(),
        }
    }

    fn clear(&mut self) {
        self.chunks.par_iter_mut().for_each(|c| {
            if let Some(c) = c.get_mut() {
                for w in c.iter_mut().flat_map(|l| l.0.iter_mut()) {
                    *w.get_mut() = 0;
                }
            }
        });
    }

    /// Calls `f` with every word that has a bit of kind `kind`.
    fn each_set(&self, kind: usize, mut f: impl FnMut(usize)) {
        for (c, chunk) in self.chunks.iter().enumerate() {
            let Some(chunk) = chunk.get() else { continue };
            let off = kind * BITS_WORDS / 64;
            for k in 0..BITS_WORDS / 64 {
                let mut set = bit_word(chunk, off + k).load(Relaxed);
                while set != 0 {
                    let b = set.trailing_zeros() as usize;
                    set &= set - 1;
                    f(c * BITS_WORDS + k * 64 + b);
                }
            }
        }
    }
}

/// The words a unit (a block, a part of consecutive blocks run on one thread, or a cluster) read
/// and wrote, as bitmap words: per (region, 64-word group) the read and the written words of the
/// group, in an open-addressed table, so that an access adds its words where they belong without
/// a log to sort, and the unit's end publishes one entry per 64 words it touched.
struct Marks {
    /// Slots: the key + 1 (0: empty); a key is `region << KEY_SHIFT | group`.
    keys: Vec<u64>,
    /// The read and written words of the slot's group.
    vals: Vec<[u64; 2]>,
    /// The slots in use, in the order they were taken.
    used: Vec<u32>,
    /// The regions of the last accesses, most recent first: tried before a search (a kernel's
    /// warps take turns among a few buffers: two inputs and an output).
    hints: [u32; 4],
    /// Ranges marked and units published since the counters were last read (`WARPSCOPE_TIMING`).
    ranges: u64,
}

const KEY_SHIFT: u32 = 40;
/// Slots of an empty table's first allocation, and the most a table keeps between units.
const MARKS_MIN: usize = 1 << 10;
const MARKS_KEEP: usize = 1 << 16;

impl Marks {
    const fn new() -> Marks {
        Marks {
            keys: Vec::new(),
            vals: Vec::new(),
            used: Vec::new(),
            hints: [0; 4],
            ranges: 0,
        }
    }

    #[inline(always)]
    fn slot_of(key: u64, mask: usize) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
    }

    /// The entry of `key`, made empty where missing.
    #[inline(always)]
    fn entry(&mut self, key: u64) -> &mut [u64; 2] {
        if 2 * (self.used.len() + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = Self::slot_of(key, mask);
        loop {
            let k = self.keys[i];
            if k == key + 1 {
                return &mut self.vals[i];
            }
            if k == 0 {
                self.keys[i] = key + 1;
                self.vals[i] = [0, 0];
                self.used.push(i as u32);
                return &mut self.vals[i];
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let cap = (2 * self.keys.len()).max(MARKS_MIN);
        let (keys, vals, used) = (
            std::mem::replace(&mut self.keys, vec![0; cap]),
            std::mem::replace(&mut self.vals, vec![[0, 0]; cap]),
            std::mem::take(&mut self.used),
        );
        self.used.reserve(cap / 2);
        for i in used {
            let (key, val) = (keys[i as usize] - 1, vals[i as usize]);
            *self.entry(key) = val;
        }
    }

    /// Words `first..=last` of region `r` read (`kind` READ) or written (WRITTEN).
    #[inline(always)]
    fn mark(&mut self, kind: usize, r: usize, first: usize, last: usize) {
        self.ranges += 1;
        let (g0, g1) = (first / 64, last / 64);
        for g in g0..=g1 {
            let from = if g == g0 { first % 64 } else { 0 };
            let to = if g == g1 { last % 64 } else { 63 };
            let m = (u64::MAX >> (63 - to)) & (u64::MAX << from);
            self.entry((r as u64) << KEY_SHIFT | g as u64)[kind] |= m;
        }
    }

    /// Empties the table for the next unit (a table grown large is given back).
    fn clear(&mut self) {
        if self.keys.len() > MARKS_KEEP {
            *self = Marks {
                ranges: self.ranges,
                ..Marks::new()
            };
            return;
        }
        for &i in &self.used {
            self.keys[i as usize] = 0;
        }
        self.used.clear();
    }

    /// The entries as (region, group, [read, written]).
    fn entries(&self) -> impl Iterator<Item = (usize, usize, [u64; 2])> + '_ {
        self.used.iter().map(|&i| {
            let key = self.keys[i as usize] - 1;
            (
                (key >> KEY_SHIFT) as usize,
                (key & ((1 << KEY_SHIFT) - 1)) as usize,
                self.vals[i as usize],
            )
        })
    }
}

/// The first addresses of a whole warp's two halves when each half's lanes are dense (lane `l`
/// of a half at its first address + `w l`) and neither half wraps: a 16-wide 2-D block's warp,
/// two rows.
#[inline(always)]
fn dense_halves(addrs: &[u64; 32], w: u64) -> Option<(u64, u64)> {
    let (a0, a16) = (addrs[0], addrs[16]);
    let mut dense = true;
    for l in 0..16 {
        dense &= addrs[l] == a0.wrapping_add(l as u64 * w);
        dense &= addrs[16 + l] == a16.wrapping_add(l as u64 * w);
    }
    (dense && a0.checked_add(16 * w).is_some() && a16.checked_add(16 * w).is_some()).then_some((a0, a16))
}

/// Calls `f(lo, hi)` for the runs of a warp's lanes (`mask`, `w` bytes at `addrs`) whose bytes
/// continue or overlap the run's, in lane order: together the lanes' bytes.
#[inline(always)]
fn lane_runs(addrs: &[u64; 32], mask: u32, w: u64, mut f: impl FnMut(u64, u64)) {
    if mask == u32::MAX {
        let a0 = addrs[0];
        let mut dense = true;
        for (l, &a) in addrs.iter().enumerate() {
            dense &= a == a0.wrapping_add(l as u64 * w);
        }
        if dense && let Some(end) = a0.checked_add(32 * w) {
            return f(a0, end);
        }
        if let Some((a0, a16)) = dense_halves(addrs, w) {
            f(a0, a0 + 16 * w);
            return f(a16, a16 + 16 * w);
        }
    }
    let mut m = mask;
    let mut run: Option<(u64, u64)> = None;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let (a, e) = (addrs[l], addrs[l].saturating_add(w));
        run = match run {
            Some((lo, hi)) if a <= hi && e >= lo => Some((lo.min(a), hi.max(e))),
            Some((lo, hi)) => {
                f(lo, hi);
                Some((a, e))
            }
            None => Some((a, e)),
        };
    }
    if let Some((lo, hi)) = run {
        f(lo, hi);
    }
}

thread_local! {
    /// The words of the unit this host thread runs (between `Shadow::begin` and `Shadow::finish`).
    static MARKS: RefCell<Marks> = const { RefCell::new(Marks::new()) };
}

impl ShadowRegion {
    fn new(r: &Region) -> ShadowRegion {
        ShadowRegion {
            base: r.base,
            len: r.len,
            chunks: (0..r.words.len().div_ceil(CHUNK_WORDS))
                .map(|_| OnceLock::new())
                .collect(),
            zero: r.zero.load(Relaxed),
            written: AtomicBool::new(false),
        }
    }
}

impl Shadow {
    /// An empty shadow of `g`'s regions that reuses the memory of `old` for the regions that are
    /// still there (cleared).
    pub fn renew(old: Option<Shadow>, g: &Global) -> Shadow {
        let Some(old) = old else {
            return Shadow::new(g);
        };
        let mut kept: Vec<(ShadowRegion, Bits)> = old.regions.into_iter().zip(old.bits).collect();
        let (regions, bits) =
            g.regions
                .iter()
                .map(|r| {
                    match kept.iter().position(|(o, _)| {
                        o.base == r.base && o.len == r.len && o.zero == r.zero.load(Relaxed)
                    }) {
                        Some(p) => {
                            let (mut o, mut bits) = kept.swap_remove(p);
                            *o.written.get_mut() = false;
                            o.chunks.par_iter_mut().for_each(|c| {
                                if let Some(c) = c.get_mut() {
                                    for s in &mut c.saved {
                                        *s.get_mut() = 0;
                                    }
                                }
                            });
                            bits.clear();
                            (o, bits)
                        }
                        None => (ShadowRegion::new(r), Bits::new(r.words.len())),
                    }
                })
                .unzip();
        Shadow {
            regions,
            conflict: AtomicBool::new(false),
            bits,
            stats: Default::default(),
        }
    }

    /// An empty shadow of `g`'s regions.
    pub fn new(g: &Global) -> Shadow {
        Shadow {
            regions: g.regions.iter().map(ShadowRegion::new).collect(),
            conflict: AtomicBool::new(false),
            bits: g.regions.iter().map(|r| Bits::new(r.words.len())).collect(),
            stats: Default::default(),
        }
    }

    /// Whether two blocks touched a word that one of them wrote (among the blocks finished so
    /// far).
    pub fn conflict(&self) -> bool {
        self.conflict.load(Relaxed)
    }

    /// Starts the unit (a block, a part of consecutive blocks run on this thread in block order,
    /// or a cluster) this host thread runs: its accesses until [`Shadow::finish`] are its.
    pub fn begin(&self) {
        MARKS.with_borrow_mut(Marks::clear);
    }

    /// Ends the unit this host thread ran since [`Shadow::begin`] and checks it against the units
    /// finished before (on this thread or another), then publishes it.
    ///
    /// The unit's words are set in the bitmaps 64 at a time, an entry of its table each: its
    /// written words with one `fetch_or` on the written bits (a bit already set: another unit
    /// wrote the word) and a load of the read bits; its read words it did not write with one
    /// `fetch_or` on the read bits and a load of the written bits. With the operations
    /// sequentially consistent, of two units that touch a word one of them writes, the later one
    /// sees the other's bit whichever thread and time they publish on: the same decision as a
    /// check per access. Within a unit nothing is checked: its blocks ran one after another in
    /// block order on one thread, as they would in the serial run.
    pub fn finish(&self) {
        MARKS.with_borrow_mut(|m| {
            let mut clash = false;
            let mut wrote = usize::MAX;
            for (r, g, [rd_m, wr_m]) in m.entries() {
                let word = g * 64;
                let chunk = self.bits[r].chunks[word / BITS_WORDS]
                    .get_or_init(|| (0..2 * BITS_WORDS / 64 / 16).map(|_| BitLine::new()).collect());
                let k = (word % BITS_WORDS) / 64;
                let (rd, wr) = (
                    bit_word(chunk, READ * BITS_WORDS / 64 + k),
                    bit_word(chunk, WRITTEN * BITS_WORDS / 64 + k),
                );
                if wr_m != 0 {
                    // looked at first: a store from every thread at every unit's end would move
                    // the flag's cache line between the cores each time
                    if wrote != r && !self.regions[r].written.load(Relaxed) {
                        self.regions[r].written.store(true, Relaxed);
                    }
                    wrote = r;
                    clash |= wr.fetch_or(wr_m, SeqCst) & wr_m != 0 || rd.load(SeqCst) & wr_m != 0;
                }
                let only_read = rd_m & !wr_m;
                if only_read != 0 && !clash {
                    rd.fetch_or(only_read, SeqCst);
                    clash |= wr.load(SeqCst) & only_read != 0;
                }
            }
            if timing::enabled() {
                self.stats[0].fetch_add(1, Relaxed);
                self.stats[1].fetch_add(std::mem::take(&mut m.ranges), Relaxed);
                self.stats[2].fetch_add(m.used.len() as u64, Relaxed);
            }
            m.clear();
            if clash {
                self.flag();
            }
        });
    }

    /// The shadow's counts so far (`WARPSCOPE_TIMING`): units published, ranges of words marked,
    /// entries (64-word groups) published.
    pub fn stats(&self) -> [u64; 3] {
        std::array::from_fn(|i| self.stats[i].load(Relaxed))
    }

    /// Marks the bytes `[lo, hi)` read or written by the current unit: their words in one of the
    /// regions of the last accesses when they lie in it, in each region they touch otherwise.
    #[inline(always)]
    fn mark(&self, m: &mut Marks, kind: usize, lo: u64, hi: u64) {
        for k in 0..m.hints.len() {
            let h = m.hints[k] as usize;
            if let Some(r) = self.regions.get(h)
                && lo >= r.base
                && hi <= r.base + r.len
                && lo < hi
            {
                if k > 0 {
                    m.hints.copy_within(0..k, 1);
                    m.hints[0] = h as u32;
                }
                let (f, l) = ((lo - r.base) / 4, (hi - 1 - r.base) / 4);
                return m.mark(kind, h, f as usize, l as usize);
            }
        }
        for (r, f, l) in self.words_of(lo, hi) {
            m.hints.copy_within(0..3, 1);
            m.hints[0] = r as u32;
            m.mark(kind, r, f, l);
        }
    }

    /// The regions the bytes `[lo, hi)` touch: each with the first and last word, where an access
    /// starting in the region touches it (an access that starts outside every region touches
    /// none: it faults).
    fn words_of(&self, lo: u64, hi: u64) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let start = self.regions.partition_point(|r| r.base <= lo).saturating_sub(1);
        self.regions[start..]
            .iter()
            .enumerate()
            .take_while(move |(_, r)| r.base < hi)
            .filter_map(move |(k, r)| {
                let from = lo.max(r.base);
                let to = hi.min(r.base.saturating_add(r.len));
                (from < to).then(|| {
                    let (f, l) = ((from - r.base) / 4, (to - 1 - r.base) / 4);
                    (start + k, f as usize, l as usize)
                })
            })
    }

    /// Whether the launch wrote a word of region `k` (of the space the shadow was made for).
    pub fn wrote(&self, k: usize) -> bool {
        self.regions.get(k).is_none_or(|r| r.written.load(Relaxed))
    }

    #[inline(always)]
    fn flag(&self) {
        self.conflict.store(true, Relaxed);
    }

    /// The region's index and the first and last word of `[addr, addr + w)` in it.
    #[inline(always)]
    fn words(&self, addr: u64, w: u64) -> Option<(usize, usize, usize)> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        let r = self.regions.get(i.checked_sub(1)?)?;
        let off = addr - r.base;
        if off >= r.len {
            return None;
        }
        let first = (off / 4) as usize;
        let last = ((off + w.max(1) - 1).min(r.len - 1) / 4) as usize;
        Some((i - 1, first, last))
    }

    /// The current block reads `w` bytes at `addr`.
    #[inline(always)]
    pub fn read(&self, _block: u32, addr: u64, w: u64) {
        MARKS.with_borrow_mut(|m| self.mark(m, READ, addr, addr.saturating_add(w.max(1))));
    }

    /// A warp's loads of `w` bytes at `addrs` (lanes `mask`) by the current block.
    #[inline]
    pub fn read_lanes(&self, _block: u32, addrs: &[u64; 32], mask: u32, w: u64) {
        MARKS.with_borrow_mut(|m| lane_runs(addrs, mask, w, |lo, hi| self.mark(m, READ, lo, hi)));
    }

    /// [`Shadow::read_lanes`] of a whole warp whose lane `l` reads `w` bytes at `addrs[0] + w l`
    /// (the caller has checked it): one range, without looking at the lanes again.
    #[inline]
    pub fn read_run(&self, block: u32, addrs: &[u64; 32], w: u64) {
        match addrs[0].checked_add(32 * w) {
            Some(end) => MARKS.with_borrow_mut(|m| self.mark(m, READ, addrs[0], end)),
            None => self.read_lanes(block, addrs, u32::MAX, w),
        }
    }

    /// [`Shadow::read_lanes`] of a whole warp whose lanes 0-15 read `w` bytes each at `a0 + w l`
    /// and lanes 16-31 at `a16 + w (l - 16)` (the caller has checked it, and that neither half
    /// wraps): two ranges, without looking at the lanes again.
    #[inline]
    pub fn read_halves(&self, _block: u32, a0: u64, a16: u64, w: u64) {
        MARKS.with_borrow_mut(|m| {
            self.mark(m, READ, a0, a0 + 16 * w);
            self.mark(m, READ, a16, a16 + 16 * w);
        });
    }

    /// [`Shadow::write_lanes`] of a whole warp whose lane `l` writes `w` bytes at `addrs[0] + w l`
    /// (the caller has checked it): one range marked and its words kept at once, without looking
    /// at the lanes again (the lanes' own path where the range leaves a region or wraps).
    #[inline]
    pub fn write_run(&self, g: &Global, block: u32, addrs: &[u64; 32], w: u64) {
        let lo = addrs[0];
        let Some(end) = lo.checked_add(32 * w) else {
            return self.write_lanes(g, block, addrs, u32::MAX, w);
        };
        MARKS.with_borrow_mut(|m| self.mark(m, WRITTEN, lo, end));
        if let Some((r, first, last)) = self.words(lo, end - lo)
            && self.regions[r].base + self.regions[r].len >= end
        {
            self.keep(g, r, first, last);
        } else {
            self.keep_lanes(g, addrs, u32::MAX, w);
        }
    }

    /// [`Shadow::write_lanes`] of a whole warp in two dense halves (lanes 0-15 at `a0 + w l`,
    /// lanes 16-31 at `a16 + w (l - 16)`, neither wrapping; the caller has checked it): each
    /// half one range, marked and kept at once, without looking at the lanes again.
    #[inline]
    pub fn write_halves(&self, g: &Global, _block: u32, addrs: &[u64; 32], w: u64) {
        let (a0, a16) = (addrs[0], addrs[16]);
        MARKS.with_borrow_mut(|m| {
            self.mark(m, WRITTEN, a0, a0 + 16 * w);
            self.mark(m, WRITTEN, a16, a16 + 16 * w);
        });
        self.keep_run(g, addrs, w, (a0, a0 + 16 * w, 0xffff));
        self.keep_run(g, addrs, w, (a16, a16 + 16 * w, 0xffff_0000));
    }

    /// The current block is about to write `w` bytes at `addr` of `g` (or update them
    /// atomically): called before the write, so the words' values before the launch are kept.
    #[inline(always)]
    pub fn write(&self, g: &Global, _block: u32, addr: u64, w: u64) {
        MARKS.with_borrow_mut(|m| self.mark(m, WRITTEN, addr, addr.saturating_add(w.max(1))));
        if let Some((r, first, last)) = self.words(addr, w) {
            self.keep(g, r, first, last);
        }
    }

    /// A warp's stores (or atomic updates) of `w` bytes at `addrs` (lanes `mask`) by the
    /// current block, called before the writes.
    #[inline]
    pub fn write_lanes(&self, g: &Global, block: u32, addrs: &[u64; 32], mask: u32, w: u64) {
        // a whole warp in two dense halves (a 16-wide block's two rows): each half one run, as
        // the runs below make them, without a pass over the lanes
        if mask == u32::MAX && dense_halves(addrs, w).is_some() {
            return self.write_halves(g, block, addrs, w);
        }
        let (lo, hi) = if mask == u32::MAX {
            // every lane: a fold without a branch per lane
            addrs
                .iter()
                .fold((u64::MAX, 0u64), |(lo, hi), &a| (lo.min(a), hi.max(a)))
        } else {
            let (mut lo, mut hi) = (u64::MAX, 0u64);
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                lo = lo.min(addrs[l]);
                hi = hi.max(addrs[l]);
            }
            (lo, hi)
        };
        MARKS.with_borrow_mut(|m| lane_runs(addrs, mask, w, |lo, hi| self.mark(m, WRITTEN, lo, hi)));
        // lanes within one region and a span of at most twice the bytes they write (or 64 words):
        // the span's values kept at once (a word kept that no block writes is put back as it
        // was, so keeping more than the written words is harmless); run by run otherwise
        if mask != 0
            && let Some(end) = hi.checked_add(w)
            && let Some((r, first, last)) = self.words(lo, end - lo)
            && self.regions[r].base + self.regions[r].len >= end
            && ((last - first) < 64 || (last - first + 1) as u64 * 4 <= 2 * w * u64::from(mask.count_ones()))
        {
            self.keep(g, r, first, last);
            return;
        }
        // runs of lanes whose bytes continue or overlap the run's, in lane order (a 2D block's
        // rows): a run's words are its lanes' words, kept at once
        let mut m = mask;
        let mut run: Option<(u64, u64, u32)> = None;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let (a, e) = (addrs[l], addrs[l].saturating_add(w));
            run = match run {
                Some((lo, hi, lanes)) if a <= hi && e >= lo => Some((lo.min(a), hi.max(e), lanes | 1 << l)),
                Some(done) => {
                    self.keep_run(g, addrs, w, done);
                    Some((a, e, 1 << l))
                }
                None => Some((a, e, 1 << l)),
            };
        }
        if let Some(done) = run {
            self.keep_run(g, addrs, w, done);
        }
    }

    /// Keeps the words of a run of lanes (their bytes `[lo, hi)`, one range): at once when the run
    /// lies in one region, lane by lane otherwise ([`Shadow::keep_lanes`]).
    #[inline]
    fn keep_run(&self, g: &Global, addrs: &[u64; 32], w: u64, (lo, hi, lanes): (u64, u64, u32)) {
        if let Some((r, first, last)) = self.words(lo, hi - lo)
            && self.regions[r].base + self.regions[r].len >= hi
        {
            self.keep(g, r, first, last);
        } else {
            self.keep_lanes(g, addrs, lanes, w);
        }
    }

    /// Keeps each lane's words apart (the reference of [`Shadow::write_lanes`]'s spans and runs).
    fn keep_lanes(&self, g: &Global, addrs: &[u64; 32], mask: u32, w: u64) {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some((r, first, last)) = self.words(addrs[l], w) {
                self.keep(g, r, first, last);
            }
        }
    }

    /// Keeps the values of words `first..=last` of region `r` that no write of the launch
    /// changed yet.
    #[inline]
    fn keep(&self, g: &Global, r: usize, first: usize, last: usize) {
        let words = &g.regions[r].words;
        let sr = &self.regions[r];
        if sr.zero {
            // zeros before the launch: the finished blocks' written words say what to put back
            return;
        }
        let mut i = first;
        while i <= last {
            let c = i / CHUNK_WORDS;
            let chunk = sr.chunks[c].get_or_init(|| {
                sr.written.store(true, Relaxed);
                Chunk::new()
            });
            let end = last.min((c + 1) * CHUNK_WORDS - 1);
            let (lo, hi) = (i - c * CHUNK_WORDS, end - c * CHUNK_WORDS);
            for k in lo / 64..=hi / 64 {
                let from = if k == lo / 64 { lo % 64 } else { 0 };
                let to = if k == hi / 64 { hi % 64 } else { 63 };
                let mask = (u64::MAX >> (63 - to)) & (u64::MAX << from);
                let saved = &chunk.saved[k];
                if saved.load(Relaxed) & mask == mask {
                    continue;
                }
                // the values are read before the claim: a block that writes one of these words
                // claims it first, after this claim if this one gets it (acquire-release on the
                // bitmap word), so the values read are the ones before its write
                let old = &chunk.old;
                let at = c * CHUNK_WORDS + k * 64;
                let mut vals = [0u32; 64];
                for b in from..=to {
                    vals[b] = words[at + b].load(Relaxed);
                }
                let mut got = mask & !saved.fetch_or(mask, AcqRel);
                while got != 0 {
                    let b = got.trailing_zeros() as usize;
                    got &= got - 1;
                    old[k * 64 + b].store(vals[b], Relaxed);
                }
            }
            i = end + 1;
        }
    }

    /// Puts back the value every written word had before the launch (once every block that ran
    /// has finished).
    pub fn undo(&self, g: &Global) {
        for ((sr, gr), b) in self.regions.iter().zip(&g.regions).zip(&self.bits) {
            debug_assert_eq!((sr.base, sr.len), (gr.base, gr.len));
            if sr.zero {
                b.each_set(WRITTEN, |i| gr.words[i].store(0, Relaxed));
                continue;
            }
            for (c, chunk) in sr.chunks.iter().enumerate() {
                let Some(chunk) = chunk.get() else {
                    continue;
                };
                for (k, saved) in chunk.saved.iter().enumerate() {
                    let mut bits = saved.load(Relaxed);
                    while bits != 0 {
                        let b = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let i = k * 64 + b;
                        gr.words[c * CHUNK_WORDS + i].store(chunk.old[i].load(Relaxed), Relaxed);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> Global {
        Global::new(vec![(0x1000, (0..64u8).collect()), (0x2000, vec![7; 8192])])
    }

    /// A unit's table holds, per region and 64-word group, the union of the words marked, through
    /// its growth and after it is emptied for the next unit: checked against a plain map on
    /// random ranges, short and long, in three regions.
    #[test]
    fn marks_hold_the_words_marked_through_growth_and_clearing() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut m = Marks::new();
        for unit in 0..6 {
            m.clear();
            let mut want = std::collections::BTreeMap::<(usize, usize), [u64; 2]>::new();
            let n = [10, 3000, 1, 40_000, 0, 500][unit];
            for _ in 0..n {
                let (r, kind) = ((next() % 3) as usize, (next() % 2) as usize);
                let first = (next() % 2_000_000) as usize;
                let last = first
                    + if next() % 8 == 0 {
                        (next() % 300) as usize
                    } else {
                        (next() % 20) as usize
                    };
                m.mark(kind, r, first, last);
                for w in first..=last {
                    want.entry((r, w / 64)).or_default()[kind] |= 1 << (w % 64);
                }
            }
            let mut got: Vec<((usize, usize), [u64; 2])> = m.entries().map(|(r, g, v)| ((r, g), v)).collect();
            got.sort_unstable();
            assert_eq!(got, want.into_iter().collect::<Vec<_>>(), "unit {unit}");
        }
        // a table grown past what is kept between units is given back
        assert!(m.keys.len() <= MARKS_KEEP);
    }

    /// Runs `f` as one block's accesses and publishes them.
    fn block(sh: &Shadow, f: impl FnOnce()) {
        sh.begin();
        f();
        sh.finish();
    }

    #[test]
    fn blocks_that_share_only_reads_or_keep_to_their_words_do_not_conflict() {
        let g = space();
        let sh = Shadow::new(&g);
        for b in 0..4 {
            block(&sh, || {
                sh.read(b, 0x1000, 4); // every block reads one input word
                sh.write(&g, b, 0x2000 + 4 * u64::from(b), 4); // and writes its own
                sh.read(b, 0x2000 + 4 * u64::from(b), 4); // and reads it back
            });
        }
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = 0x1000 + 4 * (l as u64 % 16);
        }
        block(&sh, || sh.read_lanes(5, &addrs, u32::MAX, 4));
        // a block that writes the words between the ones every other block reads
        let odd: [u64; 32] = std::array::from_fn(|l| 0x2000 + 4096 + 8 * l as u64 + 4);
        block(&sh, || sh.write_lanes(&g, 6, &odd, u32::MAX, 4));
        let even: [u64; 32] = std::array::from_fn(|l| 0x2000 + 4096 + 8 * l as u64);
        block(&sh, || sh.read_lanes(7, &even, u32::MAX, 4));
        assert!(!sh.conflict());
    }

    #[test]
    fn a_word_one_block_wrote_and_another_touched_is_a_conflict_in_either_order() {
        for order in 0..6 {
            let g = space();
            let sh = Shadow::new(&g);
            match order {
                0 => {
                    block(&sh, || sh.write(&g, 0, 0x1008, 4));
                    block(&sh, || sh.read(1, 0x1008, 4));
                }
                1 => {
                    block(&sh, || sh.read(1, 0x1008, 4));
                    block(&sh, || sh.write(&g, 0, 0x1008, 4));
                }
                2 => {
                    block(&sh, || sh.write(&g, 0, 0x1008, 1));
                    block(&sh, || sh.write(&g, 1, 0x100a, 2)); // another byte of the same word
                }
                3 => {
                    let addrs = [0x1008u64; 32];
                    block(&sh, || sh.write(&g, 3, 0x1008, 4));
                    block(&sh, || sh.read_lanes(2, &addrs, 0b101, 4));
                }
                4 => {
                    // read by two blocks, then written by one of them
                    block(&sh, || sh.read(0, 0x1010, 4));
                    block(&sh, || {
                        sh.read(1, 0x1010, 4);
                        sh.write(&g, 1, 0x1010, 4);
                    });
                }
                _ => {
                    // a block that marked many words before the clash
                    block(&sh, || {
                        for k in 0..3 * 4096u64 {
                            sh.read(0, 0x2000 + 8 * (k % 1000), 4);
                        }
                    });
                    block(&sh, || sh.write(&g, 1, 0x2000 + 8 * 999, 4));
                }
            }
            assert!(sh.conflict(), "order {order}");
        }
    }

    #[test]
    fn a_warps_stores_are_tracked_as_its_lanes_one_by_one() {
        // lanes of block 1 store to consecutive words, in one chunk or across two, in one region
        // or across both; another block then reads one of them (a conflict) or a word none wrote
        let spreads: [&dyn Fn(usize) -> u64; 3] = [
            &|l| 0x2000 + 4 * l as u64,
            &|l| 0x2000 + 4 * 1000 + 4 * l as u64, // words 1000..1031: two chunks
            &|l| {
                if l < 16 {
                    0x1000 + 4 * l as u64
                } else {
                    0x2000 + 4 * l as u64
                }
            },
        ];
        for (k, spread) in spreads.iter().enumerate() {
            let addrs: [u64; 32] = std::array::from_fn(spread);
            for (probe, want) in [(addrs[7], true), (addrs[8], false), (0x2000 + 4 * 2047, false)] {
                let g = space();
                let before: Vec<u64> = (0..32).map(|l| g.read(addrs[l], 4).unwrap()).collect();
                let sh = Shadow::new(&g);
                // lane 8 is inactive
                block(&sh, || {
                    sh.write_lanes(&g, 1, &addrs, !(1 << 8), 4);
                    for (l, &a) in addrs.iter().enumerate() {
                        if l != 8 {
                            g.write(a, 4, 0xdead_beef);
                        }
                    }
                });
                block(&sh, || sh.read(2, probe, 4));
                assert_eq!(sh.conflict(), want, "spread {k}, probe {probe:#x}");
                sh.undo(&g);
                for l in 0..32 {
                    assert_eq!(g.read(addrs[l], 4).unwrap(), before[l], "spread {k}, lane {l}");
                }
            }
        }
    }

    /// The words whose values a shadow kept, as (region, word).
    fn kept(sh: &Shadow) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (r, sr) in sh.regions.iter().enumerate() {
            for (c, chunk) in sr.chunks.iter().enumerate() {
                let Some(chunk) = chunk.get() else { continue };
                for (k, saved) in chunk.saved.iter().enumerate() {
                    let bits = saved.load(Relaxed);
                    v.extend(
                        (0..64)
                            .filter(|b| bits >> b & 1 != 0)
                            .map(|b| (r, c * CHUNK_WORDS + k * 64 + b)),
                    );
                }
            }
        }
        v
    }

    /// A warp's stores kept by spans and runs of lanes keep every word the lanes keep one by one
    /// (`keep_lanes`), and exactly those when the lanes are not one span: rows of a 2D block (runs
    /// of 2 to 16 lanes, forwards and backwards), lanes straddling words, runs across the two
    /// regions' boundary and lanes outside both, every mask; the launch's writes undone give back
    /// the memory before it.
    #[test]
    fn stores_kept_by_runs_keep_the_words_kept_lane_by_lane() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut apart = 0;
        for case in 0..3000u64 {
            // regions 0x1000..0x1100 and 0x1100..0x3100: adjacent, so runs may cross
            let g = Global::new(vec![
                (0x1000, (0..=255u8).collect()),
                (0x1100, (0..8192u32).map(|i| (i * 7) as u8).collect()),
            ]);
            let w = [1u64, 2, 4, 8][(case % 4) as usize];
            let run = [2u64, 4, 8, 16][((case / 4) % 4) as usize];
            let pitch = 4 * (1 + next() % 600);
            let base = 0x1000 + next() % 0x300;
            let addrs: [u64; 32] = std::array::from_fn(|l| {
                let l = l as u64;
                let a = match (case / 20) % 4 {
                    0 => base + (l / run) * pitch + (l % run) * w,
                    1 => base + ((31 - l) / run) * pitch + (l % run) * w,
                    2 => 0x10f0 + l * w,           // across the regions' boundary
                    _ => 0x0f00 + next() % 0x2400, // some below and above both regions
                };
                a / w * w
            });
            let mask = match case % 3 {
                0 => u32::MAX,
                1 => next() as u32,
                _ => 0xffff,
            };
            let (a, b) = (Shadow::new(&g), Shadow::new(&g));
            let before: Vec<Option<u64>> = addrs.iter().map(|&x| g.read(x, w)).collect();
            block(&a, || a.write_lanes(&g, 0, &addrs, mask, w));
            b.keep_lanes(&g, &addrs, mask, w);
            let (ka, kb) = (kept(&a), kept(&b));
            assert!(
                kb.iter().all(|x| ka.contains(x)),
                "case {case}: a lane's word not kept"
            );
            let (lo, hi) = (0..32)
                .filter(|l| mask >> l & 1 != 0)
                .fold((u64::MAX, 0), |(lo, hi), l| {
                    (lo.min(addrs[l]), hi.max(addrs[l] + w))
                });
            let one_span = a.words(lo, hi.saturating_sub(lo)).is_some_and(|(r, f, l)| {
                a.regions[r].base + a.regions[r].len >= hi
                    && ((l - f) < 64 || (l - f + 1) as u64 * 4 <= 2 * w * u64::from(mask.count_ones()))
            });
            if mask != 0 && !one_span {
                apart += 1;
                assert_eq!(ka, kb, "case {case}: more kept than the lanes' words");
            }
            for l in (0..32).filter(|l| mask >> l & 1 != 0) {
                if g.read(addrs[l], w).is_some() {
                    g.write(addrs[l], w, next());
                }
            }
            a.undo(&g);
            for l in 0..32 {
                assert_eq!(g.read(addrs[l], w), before[l], "case {case}, lane {l}");
            }
        }
        assert!(apart > 1000, "{apart} warps not one span");
    }

    #[test]
    fn a_kept_shadow_comes_back_empty_for_the_next_launch() {
        let mut g = space();
        let sh = g.take_shadow();
        block(&sh, || {
            sh.write(&g, 0, 0x1008, 4);
            g.write(0x1008, 4, 1);
        });
        block(&sh, || {
            sh.read(1, 0x1008, 4);
            sh.write(&g, 1, 0x2000, 4);
        });
        assert!(sh.conflict());
        g.keep_shadow(sh);
        // the next launch: a region added, the old ones' states cleared
        g.insert(0x9000, &[0; 64]).unwrap();
        let sh = g.take_shadow();
        assert!(!sh.conflict());
        block(&sh, || sh.read(5, 0x1008, 4));
        block(&sh, || sh.read(6, 0x1008, 4));
        block(&sh, || {
            sh.write(&g, 7, 0x2000, 4);
            sh.write(&g, 7, 0x9004, 4);
            g.write(0x2000, 4, 9);
        });
        assert!(!sh.conflict(), "words the last launch touched are fresh");
        // undo puts back this launch's old values only (0x1008 keeps the 1 the last launch wrote)
        sh.undo(&g);
        assert_eq!(g.read(0x1008, 4), Some(1));
        assert_eq!(g.read(0x2000, 4), Some(0x0707_0707));
        block(&sh, || sh.write(&g, 8, 0x9004, 4));
        assert!(sh.conflict(), "the new region is tracked");
    }

    #[test]
    fn undo_puts_back_what_the_launch_wrote() {
        let g = space();
        let before = g.contents(0x1000).unwrap();
        let sh = Shadow::new(&g);
        block(&sh, || {
            sh.write(&g, 0, 0x1004, 8);
            g.write(0x1004, 8, u64::MAX);
        });
        block(&sh, || {
            sh.write(&g, 1, 0x1021, 1);
            g.write(0x1021, 1, 0xee);
            sh.write(&g, 1, 0x2000 + 5000, 4);
            g.write(0x2000 + 5000, 4, 1);
        });
        // a second write of a word keeps the value from before the first
        block(&sh, || {
            sh.write(&g, 2, 0x1004, 4);
            g.write(0x1004, 4, 5);
        });
        assert_ne!(g.contents(0x1000).unwrap(), before);
        sh.undo(&g);
        assert_eq!(g.contents(0x1000).unwrap(), before);
        assert_eq!(g.read(0x2000 + 5000, 4), Some(0x0707_0707));
    }

    #[test]
    fn blocks_running_on_several_threads_keep_the_values_from_before_the_launch() {
        // 8 blocks on 4 threads each write every word of the first 4096 bytes of 0x2000 (a
        // conflict): undo gives back the 7s whichever thread claimed a word first
        let g = space();
        let sh = Shadow::new(&g);
        (0..8u32).into_par_iter().for_each(|b| {
            sh.begin();
            for k in 0..32u64 {
                let addrs: [u64; 32] = std::array::from_fn(|l| 0x2000 + 128 * k + 4 * l as u64);
                sh.write_lanes(&g, b, &addrs, u32::MAX, 4);
                for &a in &addrs {
                    g.write(a, 4, u64::from(b));
                }
            }
            sh.finish();
        });
        assert!(sh.conflict());
        sh.undo(&g);
        assert_eq!(g.contents(0x2000).unwrap(), vec![7; 8192]);
    }

    #[test]
    fn a_zeroed_region_is_put_back_to_zeros_without_kept_values_until_written() {
        let mut g = Global::empty();
        g.insert_zeroed(0x1000, 4096).unwrap();
        g.insert(0x4000, &[9; 64]).unwrap();
        let sh = g.take_shadow();
        let addrs: [u64; 32] = std::array::from_fn(|l| 0x1000 + 4 * l as u64);
        for b in 0..2u32 {
            block(&sh, || {
                sh.write_lanes(&g, b, &addrs, u32::MAX, 4);
                for &a in &addrs {
                    g.write(a, 4, u64::from(b) + 1);
                }
                sh.write(&g, b, 0x4000, 4);
                g.write(0x4000, 4, 5);
            });
        }
        assert!(sh.conflict());
        // no values were kept for the zeroed region
        assert!(sh.regions[0].chunks.iter().all(|c| c.get().is_none()));
        sh.undo(&g);
        assert_eq!(g.contents(0x1000).unwrap(), vec![0; 4096]);
        assert_eq!(g.contents(0x4000).unwrap(), vec![9; 64]);
        g.launched(Some(&sh));
        g.keep_shadow(sh);
        // after a launch that wrote it (here: one with a conflict), the region keeps values
        let sh = g.take_shadow();
        assert!(!sh.regions[0].zero);
        g.write(0x1000, 4, 3);
        block(&sh, || {
            sh.write(&g, 0, 0x1000, 4);
            g.write(0x1000, 4, 4);
        });
        sh.undo(&g);
        assert_eq!(g.read(0x1000, 4), Some(3));
        // a launch without a conflict that wrote only the other region leaves a zeroed one zero
        let mut g = Global::empty();
        g.insert_zeroed(0x1000, 64).unwrap();
        g.insert(0x4000, &[9; 64]).unwrap();
        let sh = g.take_shadow();
        block(&sh, || sh.write(&g, 0, 0x4000, 4));
        g.launched(Some(&sh));
        g.keep_shadow(sh);
        assert!(g.take_shadow().regions[0].zero);
        // a host copy into it makes it not zero
        g.write_range(0x1000, &[1]).unwrap();
        assert!(!g.take_shadow().regions[0].zero);
    }

    #[test]
    fn warp_runs_log_and_keep_what_their_lanes_do() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // the unit's marks, emptied
        let logs = || {
            MARKS.with_borrow_mut(|m| {
                let mut v: Vec<(usize, usize, [u64; 2])> = m.entries().collect();
                v.sort_unstable();
                m.clear();
                v
            })
        };
        let mut cut = 0;
        for case in 0..2000u64 {
            // regions 0x1000..0x1100 (non-zero) and 0x1100..0x3100 (zero): adjacent, so runs may
            // cross; some runs start below, end above or wrap around the address space
            let g = Global::new(vec![(0x1000, (0..=255u8).collect()), (0x1100, vec![0u8; 8192])]);
            let w = [1u64, 2, 4, 8][(case % 4) as usize];
            let base = match (case / 4) % 5 {
                0 => 0x1000 + next() % 0x100,
                1 => 0x10f0 - 4 * (next() % 8),
                2 => 0x3100 - 32 * w + 4 * (next() % 8),
                3 => 0x0f80 + next() % 0x80,
                _ => u64::MAX - 32 * w + 1 + next() % (16 * w),
            } / w
                * w;
            let addrs: [u64; 32] = std::array::from_fn(|l| base.wrapping_add(l as u64 * w));
            let (a, b) = (Shadow::new(&g), Shadow::new(&g));
            a.begin();
            a.write_run(&g, 0, &addrs, w);
            a.read_run(0, &addrs, w);
            let la = logs();
            b.begin();
            b.write_lanes(&g, 0, &addrs, u32::MAX, w);
            b.read_lanes(0, &addrs, u32::MAX, w);
            let lb = logs();
            assert_eq!(la, lb, "case {case}: marks");
            assert_eq!(kept(&a), kept(&b), "case {case}: kept words");
            // lane by lane, one access each: the same words
            let c = Shadow::new(&g);
            c.begin();
            for &x in &addrs {
                c.write(&g, 0, x, w);
                c.read(0, x, w);
            }
            assert_eq!(logs(), lb, "case {case}: marks lane by lane");
            cut += usize::from(base.checked_add(32 * w).is_none() || base < 0x1000 || base + 32 * w > 0x3100);
        }
        assert!(cut > 500, "{cut} runs leave the regions or wrap");
    }

    /// A 16-wide block's warp told as two halves (`read_halves`, `write_halves`) marks and keeps
    /// what its lanes do one by one: rows anywhere in two adjacent regions, across their
    /// boundary, outside both.
    #[test]
    fn warp_halves_mark_and_keep_what_their_lanes_do() {
        let mut seed = 0x6a09_e667_f3bc_c909u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let marks = || {
            MARKS.with_borrow_mut(|m| {
                let mut v: Vec<(usize, usize, [u64; 2])> = m.entries().collect();
                v.sort_unstable();
                m.clear();
                v
            })
        };
        for case in 0..2000u64 {
            let g = Global::new(vec![(0x1000, (0..=255u8).collect()), (0x1100, vec![0u8; 8192])]);
            let w = [1u64, 2, 4, 8][(case % 4) as usize];
            let mut at = |k: u64| (0x0f00 + (k + next()) % 0x2300) / w * w;
            let (a0, a16) = (at(0), at(case));
            let addrs: [u64; 32] = std::array::from_fn(|l| {
                if l < 16 {
                    a0 + l as u64 * w
                } else {
                    a16 + (l as u64 - 16) * w
                }
            });
            let (a, b) = (Shadow::new(&g), Shadow::new(&g));
            a.begin();
            a.write_halves(&g, 0, &addrs, w);
            a.read_halves(0, a0, a16, w);
            let ma = marks();
            b.begin();
            for &x in &addrs {
                b.write(&g, 0, x, w);
                b.read(0, x, w);
            }
            assert_eq!(ma, marks(), "case {case}: marks");
            assert_eq!(kept(&a), kept(&b), "case {case}: kept words");
        }
    }
}
