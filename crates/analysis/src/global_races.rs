//! Global-memory races within one launch: two accesses of different threads to one global byte, at
//! least one a write, that the PTX memory model does not order.
//!
//! [`GlobalRaceSink`] watches one block. Within a block, threads are ordered as for shared memory
//! (see [`crate::hazards`]): block-wide barrier releases number *epochs*, lanes of one warp are
//! ordered by `__syncwarp()` and by the warp collectives that synchronise (`shfl.sync`,
//! `vote.sync`, `match.sync`, `redux.sync`). Across blocks only the memory model's
//! synchronisation orders accesses:
//!
//! * a *release*: a fence at `.gpu`/`.sys` scope (`__threadfence()`, `fence.acq_rel.gpu`,
//!   `membar.gl`) or a release operation (`st.release.gpu`, `atom.release.gpu`, `red.release`),
//!   after which the thread writes (any write, atomic or not). The release covers the thread's
//!   earlier accesses and those its block made before a block barrier released before the fence
//!   (cumulativity). A block barrier before which every thread of the block that had accessed
//!   global memory made a sequentially consistent `.gpu` fence after its last access
//!   (`__threadfence(); __syncthreads();` then one thread's flag) covers the block's accesses
//!   before it for any later write of the block: the fences are `fence.sc`, in one total order
//!   with the reader's, and the reader's cannot come first, since the flag it read follows them;
//! * an *acquire*: a read that sees such a write, by an acquire operation (`ld.acquire.gpu`,
//!   `atom.acquire`/`acq_rel`), by a read-modify-write atomic at `.gpu` scope without a `.sem`
//!   (CUDA's `atomicAdd()`, `atomicInc()`: taken as acquiring, as the CUDA Programming Guide's
//!   `__threadfence()` example relies on it; an explicitly `.relaxed` or `.release` atomic, as
//!   `cuda::atomic_ref` with `memory_order_relaxed`/`release` emits, does not acquire, as the
//!   memory model says), or by any read followed by a `.gpu` fence of the reading thread. It covers the thread's later accesses, and
//!   its block's accesses after the next block barrier release;
//! * what a thread acquired travels on with its own later releases (transitivity), so chains of
//!   atomics (a counter every block increments, `grid.sync()` in a cooperative launch) order
//!   every block before the one that sees the end of the chain; a read-modify-write atomic
//!   continues the release sequence of the write it reads (when it acquires, as long as its thread
//!   has no fence of its own, whose release would carry what it acquired).
//!
//! `.cta`-scoped fences and operations order threads of one block only; `.cluster`-scoped ones the
//! blocks of one thread-block cluster, which the cluster barrier orders too (see `clusters`:
//! in a launch in clusters, [`GlobalRaceSink::with_cluster`]). Two accesses that are both
//! *strong* (atomics, `volatile`, `.relaxed`/`.acquire`/`.release` operations) at a scope that
//! holds both threads (`.cta` in one block, `.cluster` in one cluster, `.gpu`/`.sys` across blocks)
//! and of one element size (morally strong operations overlap completely) never race: atomics do
//! not race with atomics of their size, and a relaxed atomic races with a plain access. Strong loads and stores of
//! lanes of one warp are the exception, as in shared memory: without a `__syncwarp()` between them
//! they are warp-synchronous code relying on lock step, and race. Launches are ordered by the
//! stream: each launch is checked on its own.
//!
//! # Which write a read sees
//! Blocks run in parallel under the emulator only while no block writes a word another touches
//! (its shadow, `mem::Shadow`, guards that; else the launch runs again in block order). So a block
//! that runs in parallel ([`warpscope_emu::Sink::block_order`] false) can race only with itself:
//! its sink keeps its own shadow, dropped when the block ends. Blocks that run in order share one
//! shadow ([`GlobalShared`]), and a read sees the last write the emulator made to its byte.
//!
//! # The shadow
//! One cell per touched 4-byte word (per byte once a narrower access splits it): the last write and
//! two reads since it, each as (block, thread,
//! epoch, `__syncwarp` count, fences made, instruction, strength), and the word's last written
//! bytes (for same-value writes, see [`crate::hazards::FindingKind::SameValueWrite`]). A read that
//! a kept read happens before replaces it (a later write that races with the older read races
//! with the newer one too); a read neither kept read happens before goes to the cell's further
//! reads (`reads`: lanes of one warp's read one entry), so a write is checked against every
//! read since the last write that no kept read is known to follow, however many. A thread's plain
//! write that its own later strong write (the lock word it initialised, then took by an atomic)
//! hid is kept beside the cell too (`hidden`) and checked against other threads' atomic and
//! strong accesses, by the order they had before their own acquisition. Memory grows
//! with the words touched (and their unordered readers), not with the allocation, and stops
//! growing at [`GLOBAL_SHADOW_BUDGET_BYTES`] (the note says so). A write's release is a list of *points*
//! (block, thread, fence count, epoch), kept once per thread and fence.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::hazards::{AccessKind, Example, Finding, FindingKind, Loc, Severity, StoreBytes};

mod clusters;
mod hidden;
mod reads;

use clusters::ClusterLink;
pub use clusters::GlobalClusters;

/// The most shadow memory global race tracking keeps for one launch (cells and release points).
pub const GLOBAL_SHADOW_BUDGET_BYTES: u64 = 1 << 30;

pub use crate::sync_ops::SyncOps;
use crate::sync_ops::{CLUSTER, CTA, GPU};

/// A release: accesses of `block` before it are those of thread `tid` with fewer than `k` fences
/// (and its strong accesses after fence `k`: the flag the other side reads), and those of the
/// block's epochs before `epoch`. `k` 0: a *warp point*, what a partial named barrier ordered
/// before the releasing thread: the accesses of `tid`'s warp below `wsync` (see
/// [`crate::named_barriers`]). `scope`: the threads it orders (`CTA`: its block's, `CLUSTER`:
/// its cluster's, `GPU`: every block's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Point {
    block: u32,
    tid: u16,
    scope: u8,
    k: u32,
    epoch: u32,
    /// The barrier whose release began `epoch` (`u32::MAX`: none): what orders the block's other
    /// threads' accesses before the release.
    bar: u32,
    /// The `__syncwarp` count of `tid`'s warp at the fence (0: none counted): the warp's accesses
    /// at a lower count come before it (counted only while the block's warp synchronisations all
    /// name the whole warp).
    wsync: u32,
}

impl Point {
    #[cfg(test)]
    fn covers(&self, a: &GAcc, same_block: bool) -> bool {
        self.cover(a, same_block, false).is_some()
    }

    /// Whether the release covers `a`: `Some(true)` through the block's barrier before it,
    /// `Some(false)` through the releasing thread's own order.
    /// `same_block`, `same_cluster`: the acquiring thread is of `a`'s block, of its cluster.
    fn cover(&self, a: &GAcc, same_block: bool, same_cluster: bool) -> Option<bool> {
        if self.block != a.block
            || !(same_block || self.scope >= GPU || (same_cluster && self.scope >= CLUSTER))
        {
            return None;
        }
        if a.tid == self.tid
            && self.k > 0
            && (a.fences < self.k || (a.fences == self.k && a.strong >= self.scope.max(CLUSTER)))
        {
            Some(false)
        } else if a.epoch < self.epoch {
            Some(true)
        } else if a.wsync < self.wsync && a.tid / 32 == self.tid / 32 {
            // a lane of the releasing thread's warp, before a `__syncwarp` that precedes the fence
            Some(false)
        } else {
            None
        }
    }

    fn dominates(&self, o: &Point) -> bool {
        self.block == o.block
            && self.scope >= o.scope
            && (self.epoch > o.epoch
                || (self.epoch == o.epoch
                    && self.tid == o.tid
                    && (self.k == 0) == (o.k == 0)
                    && self.k >= o.k
                    && (o.k > 0 || self.wsync >= o.wsync)))
    }
}

/// Points grouped by block, each list without dominated points.
#[derive(Clone, Debug, Default)]
struct PointSet {
    by_block: FxHashMap<u32, Vec<Point>>,
    len: usize,
}

impl PointSet {
    fn insert(&mut self, p: Point) -> bool {
        let list = self.by_block.entry(p.block).or_default();
        if list.iter().any(|q| q.dominates(&p)) {
            return false;
        }
        let before = list.len();
        list.retain(|q| !p.dominates(q));
        self.len = self.len + list.len() - before;
        list.push(p);
        self.len += 1;
        true
    }

    #[cfg(test)]
    fn covers(&self, a: &GAcc, same_block: bool) -> bool {
        self.by_block
            .get(&a.block)
            .is_some_and(|l| l.iter().any(|p| p.covers(a, same_block)))
    }
}

/// [`GAcc::kind`]'s bit for a steady write.
const STEADY: u8 = 4;

/// [`GAcc::kind`]'s bits 3-5: log2 of the bytes of one element of the access, plus 1 (see
/// [`GAcc::elem`]).
const ELEM_SHIFT: u8 = 3;

/// The [`GAcc::kind`] bits of an access of `width` bytes per lane in `vec` elements (0: a scalar).
fn elem_bits(width: u8, vec: u8) -> u8 {
    let elem = width / vec.max(1);
    (elem.max(1).trailing_zeros() as u8 + 1).min(7) << ELEM_SHIFT
}

/// One access as the shadow keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GAcc {
    block: u32,
    tid: u16,
    /// Bits 0-1: 0 none, else [`AccessKind`] as 1 read, 2 write, 3 atomic ([`Self::code`]);
    /// bit 2 ([`STEADY`]): a plain write whose bytes are known, by a thread that had not read the
    /// word since the write before it (one byte with the kind keeps the access at 32 bytes);
    /// bits 3-5 ([`ELEM_SHIFT`]): the size of one element of the access ([`Self::elem`]).
    kind: u8,
    strong: u8,
    epoch: u32,
    wsync: u32,
    fences: u32,
    pc: u32,
    /// The release the write carries: index + 1 in [`Tracker::snaps`], 0 none.
    snap: u32,
    /// Cluster barrier arrivals the thread made before the access, and the phases it waited for
    /// (saturating at 65535).
    carr: u16,
    cwait: u16,
}

const _: () = assert!(std::mem::size_of::<GAcc>() == 32);

impl GAcc {
    const EMPTY: GAcc = GAcc {
        block: 0,
        tid: 0,
        kind: 0,
        strong: 0,
        epoch: 0,
        wsync: 0,
        fences: 0,
        pc: 0,
        snap: 0,
        carr: 0,
        cwait: 0,
    };

    fn is_some(&self) -> bool {
        self.code() != 0
    }

    /// The access kind's code (1 read, 2 write, 3 atomic; 0 none).
    fn code(&self) -> u8 {
        self.kind & 3
    }

    /// A steady write (see [`Self::kind`]).
    fn steady(&self) -> bool {
        self.kind & STEADY != 0
    }

    /// log2 of the bytes of one element of the access, plus 1 (0: not known). Two strong accesses
    /// are morally strong only when they overlap completely (PTX ISA, "Memory Consistency
    /// Model"): on aligned addresses, when their elements have one size.
    fn elem(&self) -> u8 {
        (self.kind >> ELEM_SHIFT) & 7
    }

    fn access_kind(&self) -> AccessKind {
        match self.code() {
            1 => AccessKind::Read,
            2 => AccessKind::Write,
            _ => AccessKind::Atomic,
        }
    }

    fn same_thread(&self, o: &GAcc) -> bool {
        self.block == o.block && self.tid == o.tid
    }
}

fn kind_code(k: AccessKind) -> u8 {
    match k {
        AccessKind::Read => 1,
        AccessKind::Write => 2,
        AccessKind::Atomic => 3,
    }
}

#[derive(Clone, Copy, Debug)]
struct GCell {
    w: GAcc,
    r1: GAcc,
    r2: GAcc,
    /// The bytes the last write stored (valid when `w.steady`).
    val: u32,
    /// The word is tracked byte by byte (in [`Tracker::bytes`]).
    split: bool,
    /// More reads are kept for the cell (in [`reads::Spill`]).
    spill: bool,
    /// A write its writer's later strong write hid is kept for the cell (in [`hidden::Hidden`]).
    hidden: bool,
}

// a cell is as large with the hidden write's flag as without it
const _: () = assert!(std::mem::size_of::<GCell>() == 104);

impl GCell {
    const EMPTY: GCell = GCell {
        w: GAcc::EMPTY,
        r1: GAcc::EMPTY,
        r2: GAcc::EMPTY,
        val: 0,
        split: false,
        spill: false,
        hidden: false,
    };
}

/// Words per shadow sector (one hash look-up per warp request and sector, not per lane).
const SECTOR_WORDS: usize = 8;

/// Shadow bytes per tracked 4-byte word (its cell, and its share of the sector's map slot).
pub const GLOBAL_SHADOW_BYTES_PER_WORD: usize = std::mem::size_of::<GCell>() + 2;

/// The shadow of the touched global words: sectors of [`SECTOR_WORDS`] word cells, and the cells
/// of split words' bytes.
#[derive(Debug, Default)]
struct Cells {
    /// Sector number -> its index in `arena`.
    sectors: FxHashMap<u64, u32>,
    arena: Vec<[GCell; SECTOR_WORDS]>,
    bytes: FxHashMap<u64, GCell>,
    /// The reads of cells beyond the two each keeps.
    more: reads::Spill,
    /// The writes that their writers' later strong writes hid.
    hidden: hidden::Hidden,
}

/// The releases writes carry.
#[derive(Debug, Default)]
struct Snaps {
    list: Vec<Vec<Point>>,
    points: u64,
}

/// The shadow of the touched global words, and the releases writes carry.
#[derive(Debug, Default)]
pub struct Tracker {
    cells: Cells,
    snaps: Snaps,
    /// Cells not made for want of budget.
    over_budget: bool,
    /// Most bytes held at once.
    peak_bytes: u64,
}

impl Tracker {
    fn bytes_held(&self) -> u64 {
        let cell = std::mem::size_of::<GCell>() as u64;
        self.cells.sectors.len() as u64 * (cell * SECTOR_WORDS as u64 + 16)
            + self.cells.bytes.len() as u64 * (cell + 16)
            + self.snaps.points * std::mem::size_of::<Point>() as u64
            + self.cells.more.bytes()
            + self.cells.hidden.bytes()
    }

    fn room(&mut self) -> bool {
        let b = self.bytes_held();
        if b >= GLOBAL_SHADOW_BUDGET_BYTES {
            self.over_budget = true;
            return false;
        }
        true
    }

    fn note_peak(&mut self) {
        self.peak_bytes = self.peak_bytes.max(self.bytes_held());
    }

    /// Empties the shadow, keeping its allocations (a block's shadow is reused by the next block
    /// the same worker thread runs).
    fn clear(&mut self) {
        self.cells.sectors.clear();
        self.cells.arena.clear();
        self.cells.bytes.clear();
        self.cells.more.clear();
        self.cells.hidden.clear();
        self.snaps.list.clear();
        self.snaps.points = 0;
        self.over_budget = false;
        self.peak_bytes = 0;
    }
}

thread_local! {
    /// The last finished block's shadow on this worker thread, kept for the next block.
    static SPARE: std::cell::RefCell<Option<Tracker>> = const { std::cell::RefCell::new(None) };
}

fn spare_tracker() -> Tracker {
    SPARE.with(|s| s.borrow_mut().take()).unwrap_or_default()
}

/// The shadow blocks that run in block order share (see the module notes), and what the launch's
/// tracking used.
#[derive(Debug, Default)]
pub struct GlobalShared {
    tracker: Mutex<Tracker>,
    /// Most bytes any block's own shadow held.
    peak_block_bytes: std::sync::atomic::AtomicU64,
    over_budget: std::sync::atomic::AtomicBool,
}

impl GlobalShared {
    /// A fresh shared shadow for one launch.
    pub fn new() -> Arc<GlobalShared> {
        Arc::new(GlobalShared::default())
    }

    /// The most shadow bytes held at once (the shared shadow's peak plus the largest block's) and
    /// whether the budget stopped tracking new words.
    pub fn usage(&self) -> (u64, bool) {
        let t = self
            .tracker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let block = self.peak_block_bytes.load(std::sync::atomic::Ordering::Relaxed);
        (
            t.peak_bytes.max(t.bytes_held()) + block,
            t.over_budget || self.over_budget.load(std::sync::atomic::Ordering::Relaxed),
        )
    }
}

/// Per-thread ordering state (made on the first fence or acquire of a kernel that has them).
#[derive(Clone, Debug, Default)]
struct ThreadSync {
    fences: u32,
    /// `(k, epoch, wsync)` of the last `.gpu` fence, of the last fence of `.cluster` scope or
    /// wider, and of the last fence of any scope (with its scope); `wsync` as [`Point::wsync`].
    last_gpu: Option<(u32, u32, u32)>,
    last_cluster: Option<(u32, u32, u32)>,
    last_any: Option<(u32, u32, u32)>,
    last_any_scope: u8,
    /// What partial named barriers had taught the thread's warp at each of those fences
    /// ([`crate::named_barriers::BarrierOrder::known_of`]; `None`: nothing).
    named_gpu: Option<Box<[u32; 32]>>,
    named_cluster: Option<Box<[u32; 32]>>,
    named_any: Option<Box<[u32; 32]>>,
    acquired: PointSet,
    /// Releases seen by reads not yet followed by a fence.
    pending: Vec<u32>,
    /// The release this thread's writes carry, while nothing changed: (snap, fences, acquired,
    /// block acquisitions, epoch).
    cached: Option<(u32, u32, usize, usize, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GKey {
    first_pc: u32,
    second_pc: u32,
    first: u8,
    second: u8,
    cross_block: bool,
    intra_warp: bool,
    same_inst: bool,
    same_value: bool,
}

#[derive(Clone, Debug)]
struct GAgg {
    count: u64,
    example: Example,
    first_block: u32,
}

/// The values of the warp's last store (`Sink::store_values`) until its global `Store` event.
#[derive(Clone, Debug)]
struct Stash {
    warp: u32,
    pc: u32,
    elem: u8,
    n: u8,
    rows: [[u64; 32]; 4],
}

/// The global race checker of one block (see the module notes).
#[derive(Debug)]
pub struct GlobalRaceSink {
    block: u32,
    warps: usize,
    ops: Arc<SyncOps>,
    shared: Arc<GlobalShared>,
    in_order: bool,
    own: Option<Tracker>,
    epoch: u32,
    wsync: Vec<u32>,
    /// The block's warp synchronisations that named part of their warp.
    order: crate::warp_sync::WarpOrder,
    /// Threads of the block.
    nthreads: u32,
    threads: Vec<ThreadSync>,
    /// Acquisitions of the block's threads, each with the epoch it was made in, the acquiring
    /// thread and its warp's count then: every thread of the block has them from the next epoch
    /// on, the lanes of its warp after a `__syncwarp()` naming both, and the threads of other
    /// warps that a partial named barrier ordered after the acquisition.
    block_acq: PointSet,
    block_acq_epochs: Vec<(u32, Point, u16, u32)>,
    exited: usize,
    finished: bool,
    found: BTreeMap<GKey, GAgg>,
    /// The instruction of each block-wide barrier release, in order (epoch `e` began with
    /// `release_pcs[e - 1]`).
    release_pcs: Vec<u32>,
    /// Barriers that order a conflicting pair of global accesses of the block, with one such pair.
    needed: BTreeMap<u32, (u32, u32)>,
    stash: Option<Box<Stash>>,
    /// Other blocks' reads may fold into summaries (blocks run one after another, not
    /// interleaved as a cluster's do; see [`reads`]).
    fold_reads: bool,
    /// The block's cluster, in a launch in clusters of more than one block.
    cluster: Option<ClusterLink>,
    /// Per thread (in a cluster launch): cluster barrier arrivals made, phases waited for.
    carr: Vec<u16>,
    cwait: Vec<u16>,
    /// Counted named barriers that ordered part of the block (see [`crate::named_barriers`]).
    named: crate::named_barriers::BarrierOrder,
    /// The barrier the next release is of, when it orders part of the block: `(id, waited)`.
    partial_next: Option<(u32, u32)>,
    /// Per thread, while the kernel has `.gpu` `fence.sc`s: whether it accessed global memory
    /// after its last one (empty: no such fence in the kernel, or none made yet), and how many do.
    unfenced: Vec<bool>,
    n_unfenced: usize,
    /// The last epoch begun by a barrier before which no thread had an access not followed by its
    /// own `.gpu` `fence.sc` (0: none; see the module notes).
    fenced_epoch: u32,
    /// Per mbarrier of the block (shared offset): the release of the current phase's arrivals
    /// and of the last completed phase of each parity (index + 1 into the tracker's lists; 0:
    /// none). An arrival releases at `.cta` scope, a wait that sees the phase complete acquires
    /// (`cuda::barrier`, `cuda::pipeline`); not followed in launches in clusters, where an
    /// arrival may be another block's.
    mbars: FxHashMap<u64, [u32; 3]>,
}

impl GlobalRaceSink {
    /// A checker for block `block` (linear id) of a launch whose blocks have `threads` threads.
    pub fn new(block: u32, threads: u32, ops: Arc<SyncOps>, shared: Arc<GlobalShared>) -> GlobalRaceSink {
        let warps = threads.div_ceil(32) as usize;
        GlobalRaceSink {
            block,
            warps,
            ops,
            shared,
            in_order: false,
            own: None,
            epoch: 0,
            wsync: vec![0; warps],
            order: Default::default(),
            named: crate::named_barriers::BarrierOrder::new(warps),
            partial_next: None,
            mbars: FxHashMap::default(),
            unfenced: Vec::new(),
            n_unfenced: 0,
            fenced_epoch: 0,
            nthreads: threads,
            threads: Vec::new(),
            block_acq: PointSet::default(),
            block_acq_epochs: Vec::new(),
            exited: 0,
            finished: false,
            found: BTreeMap::new(),
            release_pcs: Vec::new(),
            needed: BTreeMap::new(),
            stash: None,
            fold_reads: true,
            cluster: None,
            carr: Vec::new(),
            cwait: Vec::new(),
        }
    }

    /// Links the sink to its block's cluster (a launch in clusters of more than one block): the
    /// cluster's blocks share a shadow and the cluster barrier and `.cluster` scope order them
    /// (see [`GlobalClusters`]).
    pub fn with_cluster(mut self, clusters: &Arc<GlobalClusters>) -> Self {
        self.cluster = Some(clusters.link(self.block));
        self.fold_reads = false;
        self.carr = vec![0; self.warps * 32];
        self.cwait = vec![0; self.warps * 32];
        self
    }

    /// Whether block `b` is of this block's cluster (and not this block).
    fn same_cluster(&self, b: u32) -> bool {
        b != self.block
            && self
                .cluster
                .as_ref()
                .is_some_and(|c| c.clusters.shape.place(b).0 == c.idx)
    }

    fn thread(&mut self, tid: u16) -> &mut ThreadSync {
        if self.threads.is_empty() {
            self.threads = vec![ThreadSync::default(); self.warps * 32];
        }
        &mut self.threads[usize::from(tid)]
    }

    fn fences_of(&self, tid: u16) -> u32 {
        self.threads.get(usize::from(tid)).map_or(0, |t| t.fences)
    }

    /// A fence of `scope` by thread `tid`: what its reads saw is acquired, and its later writes
    /// release what came before.
    fn fence(&mut self, tid: u16, scope: u8, snaps: Option<&Snaps>) {
        let epoch = self.epoch;
        // the warp's `__syncwarp` count, while every warp synchronisation named the whole warp
        let ws = if self.order.any() {
            0
        } else {
            self.wsync.get(usize::from(tid) / 32).copied().unwrap_or(0)
        };
        let named = self.named.known_of(u32::from(tid / 32)).map(Box::new);
        let pending = {
            let t = self.thread(tid);
            t.fences += 1;
            let k = t.fences;
            t.last_any = Some((k, epoch, ws));
            t.last_any_scope = scope;
            if scope >= GPU {
                t.last_gpu = Some((k, epoch, ws));
                t.named_gpu.clone_from(&named);
            }
            if scope >= CLUSTER {
                t.last_cluster = Some((k, epoch, ws));
                t.named_cluster.clone_from(&named);
            }
            t.named_any = named;
            std::mem::take(&mut t.pending)
        };
        if let Some(sn) = snaps {
            for s in pending {
                self.acquire(tid, s, scope, sn);
            }
        }
    }

    /// Thread `tid` acquires release `snap` (index + 1) at `scope`.
    fn acquire(&mut self, tid: u16, snap: u32, scope: u8, snaps: &Snaps) {
        let Some(points) = snaps.list.get(snap as usize - 1) else {
            return;
        };
        let epoch = self.epoch;
        let ws = self.wsync.get(usize::from(tid / 32)).copied().unwrap_or(0);
        for p in points {
            let p = Point {
                scope: p.scope.min(scope),
                ..*p
            };
            if !self.thread(tid).acquired.insert(p) {
                continue;
            }
            // the first acquirer of the point in the block, or a later one that reaches threads
            // the earlier acquisitions do not: another warp (through its `__syncwarp()` and the
            // partial named barriers it arrives at), or a lane of one whose warp synchronised
            // only part of itself
            if self.block_acq.insert(p) || !self.acquisition_known(epoch, &p, tid, ws) {
                self.block_acq_epochs.push((epoch, p, tid, ws));
            }
        }
    }

    /// Whether an acquisition of `p` (or of a point that covers all it covers) by thread `tid`
    /// at `epoch` and warp count `ws` reaches no thread that the block's recorded acquisitions do
    /// not reach already: one of `tid`'s warp as early or earlier (while every warp
    /// synchronisation of the block named the whole warp, the lane does not matter).
    fn acquisition_known(&self, epoch: u32, p: &Point, tid: u16, ws: u32) -> bool {
        let whole_warps = !self.order.any();
        self.block_acq_epochs.iter().any(|(e, q, t, w)| {
            *e <= epoch
                && *w <= ws
                && t / 32 == tid / 32
                && (whole_warps || *t == tid)
                && (q == p || q.dominates(p))
        })
    }

    /// Whether thread `me` (of this block) has acquired a release that covers `a`. `record`:
    /// note the barriers the ordering goes through as needed.
    fn acquired_covers(&mut self, me: &GAcc, a: &GAcc, record: bool) -> bool {
        let same_block = a.block == self.block;
        let same_cluster = self.same_cluster(a.block);
        // the barriers the ordering goes through are needed: the producer's before its release,
        // the consumer's after its acquire
        let need = |needed: &mut BTreeMap<u32, (u32, u32)>, pc: u32| {
            if pc != u32::MAX && record {
                needed.entry(pc).or_insert((a.pc, me.pc));
            }
        };
        if let Some(t) = self.threads.get(usize::from(me.tid))
            && let Some(by_bar) = t.acquired.by_block.get(&a.block).and_then(|l| {
                l.iter()
                    .find_map(|p| p.cover(a, same_block, same_cluster).map(|b| (b, p.bar)))
            })
        {
            if by_bar.0 {
                need(&mut self.needed, by_bar.1);
            }
            return true;
        }
        // another thread's acquisition, before a block barrier, a `__syncwarp()` of its warp, or
        // a partial named barrier this thread's warp waited at
        let me_warp = u32::from(me.tid / 32);
        let found = self.block_acq_epochs.iter().find_map(|(e, p, t, ws)| {
            let by_epoch = *e < me.epoch;
            let w = u32::from(*t / 32);
            let by_warp = if w == me_warp {
                *ws < me.wsync
                    && self
                        .order
                        .ordered(w, u32::from(*t % 32), *ws, u32::from(me.tid % 32), me.wsync)
            } else {
                self.named.ordered(w, *ws, me_warp)
            };
            (by_epoch || by_warp)
                .then(|| {
                    p.cover(a, same_block, same_cluster)
                        .map(|b| (*e, b, p.bar, by_epoch))
                })
                .flatten()
        });
        let Some((e, by_bar, bar, by_epoch)) = found else {
            return false;
        };
        if by_bar {
            need(&mut self.needed, bar);
        }
        if by_epoch {
            let after = self.release_pcs.get(e as usize).copied().unwrap_or(u32::MAX);
            need(&mut self.needed, after);
        }
        true
    }

    /// Whether `a` (earlier) and `me` are ordered (or may not race).
    fn ordered(&mut self, a: &GAcc, me: &GAcc) -> bool {
        let same_block = a.block == me.block;
        let need = if same_block {
            CTA
        } else if self.same_cluster(a.block) {
            CLUSTER
        } else {
            GPU
        };
        // strong loads and stores of lanes of one warp are still unordered without a warp
        // synchronisation: warp-synchronous code relying on lock step (as in shared memory);
        // an atomic (or the load seeding a compare-and-swap loop) with a strong access does not
        let lockstep = same_block && a.tid / 32 == me.tid / 32 && a.code() != 3 && me.code() != 3;
        // an 8-byte and a 4-byte atomic on the same bytes overlap only partly: not morally strong
        let sizes = a.elem() == me.elem() || a.elem() == 0 || me.elem() == 0;
        if !a.same_thread(me) && a.strong >= need && me.strong >= need && !lockstep && sizes {
            return true;
        }
        self.happens_before(a, me, true)
    }

    /// Whether `a` (earlier) happens before `me`. `record`: note the barriers that order them as
    /// needed (only for conflicting pairs).
    fn happens_before(&mut self, a: &GAcc, me: &GAcc, record: bool) -> bool {
        if a.same_thread(me) {
            return true;
        }
        if a.block == me.block {
            if a.epoch < me.epoch {
                // the barrier released last before the second access is needed (as for shared)
                if record && let Some(&pc) = self.release_pcs.get(me.epoch as usize - 1) {
                    self.needed.entry(pc).or_insert((a.pc, me.pc));
                }
                return true;
            }
            if a.tid / 32 != me.tid / 32
                && self
                    .named
                    .ordered(u32::from(a.tid / 32), a.wsync, u32::from(me.tid / 32))
            {
                return true; // named barriers of part of the block
            }
            if a.tid / 32 == me.tid / 32
                && self.order.ordered(
                    u32::from(me.tid / 32),
                    u32::from(a.tid % 32),
                    a.wsync,
                    u32::from(me.tid % 32),
                    me.wsync,
                )
            {
                return true;
            }
        } else if let Some(c) = &self.cluster
            && c.clusters.shape.place(a.block).0 == c.idx
            && c.clusters.barrier_orders(a, me)
        {
            return true;
        }
        (!self.threads.is_empty() || !self.block_acq_epochs.is_empty()) && self.acquired_covers(me, a, record)
    }

    /// The release thread `tid`'s write carries now (index + 1, 0 for none), made once per change.
    fn release_of(&mut self, tid: u16, snaps: &mut Snaps, room: bool) -> u32 {
        let epoch = self.epoch;
        let block = self.block;
        let acq_len = self.block_acq_epochs.len();
        let fenced = self.fenced_epoch;
        let Some(t) = self.threads.get(usize::from(tid)) else {
            return 0;
        };
        if t.last_any.is_none() && fenced == 0 {
            return 0;
        }
        let (k, fe, fw) = t.last_any.unwrap_or((0, 0, 0));
        if let Some((s, f, a, b, e)) = t.cached
            && f == t.fences
            && a == t.acquired.len
            && b == acq_len
            && e == epoch
        {
            return s;
        }
        let bar_of = |e: u32| {
            e.checked_sub(1)
                .and_then(|i| self.release_pcs.get(i as usize))
                .copied()
                .unwrap_or(u32::MAX)
        };
        let mut points = Vec::new();
        // the accesses of other warps a partial named barrier ordered before the fence: a warp
        // point per warp (see `Point`)
        let warp_points = |points: &mut Vec<Point>, known: &Option<Box<[u32; 32]>>, scope: u8, e: u32| {
            for (v, &c) in known.iter().flat_map(|k| k.iter().enumerate()) {
                if c > 0 && v != usize::from(tid / 32) {
                    points.push(Point {
                        block,
                        tid: (v * 32) as u16,
                        scope,
                        k: 0,
                        epoch: e,
                        bar: u32::MAX,
                        wsync: c,
                    });
                }
            }
        };
        // the last fence of each wider scope, where it is not the last fence
        if let Some((kg, eg, wg)) = t.last_gpu
            && kg != k
        {
            points.push(Point {
                block,
                tid,
                scope: GPU,
                k: kg,
                epoch: eg,
                bar: bar_of(eg),
                wsync: wg,
            });
            warp_points(&mut points, &t.named_gpu, GPU, eg);
        }
        if let Some((kc, ec, wc)) = t.last_cluster
            && kc != k
            && t.last_gpu.is_none_or(|(kg, _, _)| kg != kc)
        {
            points.push(Point {
                block,
                tid,
                scope: CLUSTER,
                k: kc,
                epoch: ec,
                bar: bar_of(ec),
                wsync: wc,
            });
            warp_points(&mut points, &t.named_cluster, CLUSTER, ec);
        }
        if fenced > 0 {
            // the block's accesses before a barrier that every accessing thread's own `.gpu`
            // `fence.sc` preceded (see the module notes)
            points.push(Point {
                block,
                tid,
                scope: GPU,
                k: 0,
                epoch: fenced,
                bar: bar_of(fenced),
                wsync: 0,
            });
        }
        if t.last_any.is_none() {
            // no fence of its own: nothing it acquired travels on
            return self.push_release(tid, points, snaps, room, epoch, acq_len);
        }
        points.push(Point {
            block,
            tid,
            scope: t.last_any_scope,
            k,
            epoch: fe,
            bar: bar_of(fe),
            wsync: fw,
        });
        warp_points(&mut points, &t.named_any, t.last_any_scope, fe);
        let widest = if t.last_gpu.is_some() {
            GPU
        } else if t.last_cluster.is_some() {
            CLUSTER
        } else {
            CTA
        };
        for list in t.acquired.by_block.values() {
            points.extend(list.iter().map(|p| Point {
                scope: p.scope.min(widest),
                ..*p
            }));
        }
        for (e, p, at, ws) in &self.block_acq_epochs {
            // acquired before a block barrier before the fence, by a lane of the warp before a
            // `__syncwarp()` before it, or by a warp a partial named barrier ordered before it
            let by_warp = if at / 32 == tid / 32 {
                *ws < fw
            } else {
                t.named_any
                    .as_ref()
                    .and_then(|k| k.get(usize::from(at / 32)))
                    .is_some_and(|&c| *ws < c)
            };
            if *e < fe || by_warp {
                points.push(Point {
                    scope: p.scope.min(widest),
                    ..*p
                });
            }
        }
        self.push_release(tid, points, snaps, room, epoch, acq_len)
    }

    /// Keeps `points` as thread `tid`'s release (cached until it changes, see
    /// [`ThreadSync::cached`]): its index + 1, 0 without room.
    fn push_release(
        &mut self,
        tid: u16,
        points: Vec<Point>,
        snaps: &mut Snaps,
        room: bool,
        epoch: u32,
        acq_len: usize,
    ) -> u32 {
        let n = points.len() as u64;
        if !room {
            return 0;
        }
        snaps.list.push(points);
        snaps.points += n;
        let s = snaps.list.len() as u32;
        if let Some(t) = self.threads.get_mut(usize::from(tid)) {
            t.cached = Some((s, t.fences, t.acquired.len, acq_len, epoch));
        }
        s
    }

    /// Thread `tid` accessed global memory: not followed by a `.gpu` `fence.sc` of its own yet.
    fn note_unfenced(&mut self, tid: u16) {
        if self.unfenced.is_empty() {
            self.unfenced = vec![false; self.warps * 32];
        }
        if let Some(u) = self.unfenced.get_mut(usize::from(tid))
            && !*u
        {
            *u = true;
            self.n_unfenced += 1;
        }
    }

    /// Thread `tid` made a `.gpu` `fence.sc`: its accesses so far are before it.
    fn note_sc_fence(&mut self, tid: u16) {
        if self.unfenced.is_empty() {
            self.unfenced = vec![false; self.warps * 32];
        }
        if let Some(u) = self.unfenced.get_mut(usize::from(tid))
            && *u
        {
            *u = false;
            self.n_unfenced -= 1;
        }
    }

    fn record(&mut self, first: &GAcc, second: &GAcc, addr: u64, n: u64, same_value: bool) {
        let cross = first.block != second.block;
        let intra_warp = !cross && first.tid / 32 == second.tid / 32;
        let same_inst = intra_warp && first.pc == second.pc && first.code() == second.code();
        let key = GKey {
            first_pc: first.pc,
            second_pc: second.pc,
            first: first.code(),
            second: second.code(),
            cross_block: cross,
            intra_warp,
            same_inst,
            same_value,
        };
        match self.found.get_mut(&key) {
            Some(a) => a.count += n,
            None => {
                self.found.insert(
                    key,
                    GAgg {
                        count: n,
                        example: Example {
                            block: second.block,
                            threads: vec![u32::from(first.tid), u32::from(second.tid)],
                            address: Some(addr),
                        },
                        first_block: first.block,
                    },
                );
            }
        }
    }

    /// One access of one lane to one cell (a word, `n` = 4 bytes, or a byte). `val`: the bytes a
    /// plain store writes, when known (a word's four, or the byte's in the low bits). Returns the
    /// release (index + 1) of the write this access reads, 0 for none. `more`: the reads cells keep
    /// beyond two; `hid`: the hidden writes (an atomic is checked against them before, in
    /// [`Self::access_in`]); `room`: the budget allows keeping another.
    #[allow(clippy::too_many_arguments)]
    fn access_cell(
        &mut self,
        c: &mut GCell,
        more: &mut reads::Spill,
        hid: &mut hidden::Hidden,
        room: bool,
        me: GAcc,
        addr: u64,
        n: u64,
        val: Option<u32>,
    ) -> u32 {
        let kind = me.access_kind();
        let w = c.w;
        let read_us = |r: &GAcc| r.is_some() && r.same_thread(&me);
        let spilled = c.spill;
        let read_more = |more: &reads::Spill| spilled && more.has_thread(addr, me.block, me.tid);
        let mut seen = 0;
        // (an atomic's own write may carry other threads' releases: a release sequence)
        if kind != AccessKind::Write && w.snap != 0 && (!w.same_thread(&me) || w.code() == 3) {
            seen = w.snap;
        }
        if w.is_some() && !self.ordered(&w, &me) {
            let same = kind == AccessKind::Write
                && w.code() == 2
                && w.steady()
                && val.is_some_and(|v| v == c.val)
                && !read_us(&c.r1)
                && !read_us(&c.r2)
                && !read_more(more);
            self.record(&w, &me, addr, n, same);
        }
        if c.hidden && kind != AccessKind::Atomic && me.strong > 0 {
            self.check_hidden(hid, addr, &me, n);
        }
        let mut steady = val.is_some();
        if kind != AccessKind::Read {
            steady = steady && !read_us(&c.r1) && !read_us(&c.r2) && !read_more(more);
            for r in [c.r1, c.r2] {
                if r.is_some() && !self.ordered(&r, &me) {
                    self.record(&r, &me, addr, n, false);
                }
            }
            if c.spill {
                for g in more.take(addr) {
                    if g.folded > 0 {
                        // other blocks' reads, which nothing in the kernel orders with this one
                        // (see `reads`): unordered unless both are strong
                        if !(g.r.strong >= GPU && me.strong >= GPU && g.r.elem() == me.elem()) {
                            self.record(&g.r, &me, addr, n * u64::from(g.folded), false);
                        }
                        continue;
                    }
                    for r in g.reads() {
                        if !self.ordered(&r, &me) {
                            self.record(&r, &me, addr, n, false);
                        }
                    }
                }
                c.spill = false;
            }
        }
        if kind == AccessKind::Read {
            // a read that a kept read happens before replaces it (a write racing with that read
            // races with this one too); else it is kept beside them
            if !c.r1.is_some() || self.happens_before(&c.r1, &me, false) {
                c.r1 = me;
            } else if !c.r2.is_some() || self.happens_before(&c.r2, &me, false) {
                c.r2 = me;
            } else {
                more.add(
                    addr,
                    me,
                    room,
                    self.fold_reads && !self.ops.any_sync(),
                    &self.order,
                );
                c.spill = true;
            }
        } else {
            // the writer's plain write that its own strong write now hides is kept (see
            // `hidden`), past other threads' atomic and strong writes (a third thread's access
            // may be unordered with it though the first was not); a plain write drops it
            let strong_write = kind == AccessKind::Atomic || me.strong > 0;
            if w.is_some() && w.same_thread(&me) && strong_write {
                if w.code() == 2 && w.strong == 0 {
                    c.hidden = hid.set(addr, w, room);
                }
            } else if c.hidden && !strong_write {
                hid.remove(addr);
                c.hidden = false;
            }
            c.w = GAcc {
                kind: me.kind | if steady { STEADY } else { 0 },
                ..me
            };
            if let Some(v) = val {
                c.val = v;
            }
            c.r1 = GAcc::EMPTY;
            c.r2 = GAcc::EMPTY;
        }
        seen
    }

    /// Checks `me`, another thread's atomic or strong access of the cell at `key`, against the
    /// cell's hidden write (see [`hidden`]): a barrier between them is needed; with nothing
    /// ordering them they race. Called before `me`'s own acquisition.
    fn check_hidden(&mut self, hid: &hidden::Hidden, key: u64, me: &GAcc, n: u64) {
        if let Some(h) = hid.get(key)
            && !h.same_thread(me)
            && !self.ordered(&h, me)
        {
            self.record(&h, me, key, n, false);
        }
    }

    /// A warp-level global access: `mask` lanes each touch `width` bytes at `addrs[lane]`.
    /// `bytes`: what a plain store writes, per lane, when known.
    #[allow(clippy::too_many_arguments)]
    pub fn access(
        &mut self,
        warp: u32,
        pc: u32,
        kind: AccessKind,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
        bytes: Option<&StoreBytes>,
    ) {
        if mask == 0 || self.finished {
            return;
        }
        self.with_tracker(|this, tr| this.access_in(tr, warp, pc, kind, width, mask, addrs, bytes));
    }

    /// [`GlobalRaceSink::access`] on the shadow `tr` this block writes to.
    #[allow(clippy::too_many_arguments)]
    fn access_in(
        &mut self,
        tr: &mut Tracker,
        warp: u32,
        pc: u32,
        kind: AccessKind,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
        bytes: Option<&StoreBytes>,
    ) {
        let sync = self.ops.at(pc);
        let track_sc = self.ops.sc_gpu();
        let wsync = self.wsync.get(warp as usize).copied().unwrap_or(0);
        let room = tr.room();
        let Tracker { cells, snaps, .. } = &mut *tr;
        let Cells {
            sectors,
            arena,
            bytes: split,
            more,
            hidden: hid,
        } = cells;
        // the sector of the last word touched: lanes of a request mostly share sectors
        let mut cur: Option<(u64, &mut [GCell; SECTOR_WORDS])> = None;
        let mut bits = mask;
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            let tid = (warp * 32 + lane).min(u32::from(u16::MAX)) as u16;
            if sync.release > 0 {
                self.fence(tid, sync.release, Some(snaps));
            }
            if track_sc {
                self.note_unfenced(tid);
            }
            let mut me = GAcc {
                block: self.block,
                tid,
                kind: kind_code(kind) | elem_bits(width, sync.vec),
                strong: sync.strong,
                epoch: self.epoch,
                wsync,
                fences: self.fences_of(tid),
                pc,
                snap: 0,
                carr: self.carr.get(usize::from(tid)).copied().unwrap_or(0),
                cwait: self.cwait.get(usize::from(tid)).copied().unwrap_or(0),
            };
            let start = addrs[lane as usize];
            // a release whose sequence this atomic continues (see below)
            let mut carry = 0u32;
            // the same for an atomic that acquires it (kept when its thread releases nothing)
            let mut carry_acq = 0u32;
            if kind == AccessKind::Atomic {
                // the read half comes first: what it acquires travels on with its write
                cur = None;
                let end = start.saturating_add(u64::from(width));
                let mut a = start & !3;
                while a < end {
                    let word = a >> 2;
                    let cell = sectors
                        .get(&(word / SECTOR_WORDS as u64))
                        .map(|&i| arena[i as usize][(word % SECTOR_WORDS as u64) as usize]);
                    // the cell's hidden write, by the order before this atomic acquires anything
                    // through the cell itself (see `hidden`)
                    match cell {
                        Some(c) if c.split => {
                            for b in a.max(start)..(a + 4).min(end) {
                                if split.get(&b).is_some_and(|x| x.hidden) {
                                    self.check_hidden(hid, b, &me, 1);
                                }
                            }
                        }
                        Some(c) if c.hidden => self.check_hidden(hid, a, &me, 4),
                        _ => {}
                    }
                    let w = match cell {
                        Some(c) if c.split => split.get(&a.max(start)).map_or(GAcc::EMPTY, |b| b.w),
                        Some(c) => c.w,
                        None => GAcc::EMPTY,
                    };
                    if w.snap != 0 && !w.same_thread(&me) && sync.strong >= CLUSTER {
                        if sync.rmw_acquires {
                            let scope = sync.acquire.max(sync.strong);
                            self.acquire(tid, w.snap, scope, snaps);
                            // it continues the release sequence too: a thread without a fence of
                            // its own passes nothing it acquired on (see `release_of`), but a
                            // poll's `atomicAdd(flag, 0)` is a write another poll may read
                            carry_acq = w.snap;
                        } else {
                            // a read-modify-write that does not acquire still continues the
                            // release sequence of the write it reads: an acquire that reads
                            // its value synchronises with that release (grid.sync()'s
                            // atom.release arrivals)
                            carry = w.snap;
                        }
                    }
                    a += 4;
                }
            }
            if kind != AccessKind::Read {
                me.snap = self.release_of(tid, snaps, room);
                if me.snap == 0 {
                    me.snap = carry_acq;
                }
                if carry != 0 && carry != me.snap {
                    me.snap = if me.snap == 0 {
                        carry
                    } else if room {
                        let mut points = snaps.list[carry as usize - 1].clone();
                        points.extend_from_slice(&snaps.list[me.snap as usize - 1]);
                        snaps.points += points.len() as u64;
                        snaps.list.push(points);
                        snaps.list.len() as u32
                    } else {
                        me.snap
                    };
                }
            }
            let lane_bytes = bytes.map(|b| &b[lane as usize]);
            let mut seen = [0u32; 4];
            let mut n_seen = 0;
            let mut note = |s: u32| {
                if s != 0 && n_seen < seen.len() && !seen[..n_seen].contains(&s) {
                    seen[n_seen] = s;
                    n_seen += 1;
                }
            };
            let end = start.saturating_add(u64::from(width));
            let mut a = start;
            while a < end {
                let word = a >> 2;
                let whole = a & 3 == 0 && end - a >= 4;
                let k = (a - start) as usize;
                let sector = word / SECTOR_WORDS as u64;
                if cur.as_ref().is_none_or(|c| c.0 != sector) {
                    cur = None;
                    if !room && !sectors.contains_key(&sector) {
                        a = if whole { a + 4 } else { a + 1 };
                        continue;
                    }
                    let i = *sectors.entry(sector).or_insert_with(|| {
                        arena.push([GCell::EMPTY; SECTOR_WORDS]);
                        (arena.len() - 1) as u32
                    });
                    cur = Some((sector, &mut arena[i as usize]));
                }
                let Some((_, cells)) = cur.as_mut() else {
                    break;
                };
                let cell = &mut cells[(word % SECTOR_WORDS as u64) as usize];
                if whole && !cell.split {
                    let val = lane_bytes
                        .filter(|_| k + 4 <= 16)
                        .map(|b| u32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]));
                    note(self.access_cell(cell, more, hid, room, me, a, 4, val));
                    a += 4;
                    continue;
                }
                // a narrower access, or a word already split: byte by byte
                if !cell.split {
                    cell.split = true;
                    if cell.spill {
                        more.split(word << 2);
                    }
                    if cell.hidden {
                        hid.split(word << 2);
                    }
                    let lead = *cell;
                    for i in 0..4u64 {
                        let c = GCell {
                            split: false,
                            val: (lead.val >> (8 * i)) & 0xff,
                            ..lead
                        };
                        split.insert((word << 2) + i, c);
                    }
                }
                let stop = if whole { a + 4 } else { a + 1 };
                while a < stop {
                    let kb = (a - start) as usize;
                    let bval = lane_bytes.filter(|_| kb < 16).map(|b| u32::from(b[kb]));
                    let c = split.entry(a).or_insert(GCell::EMPTY);
                    note(self.access_cell(c, more, hid, room, me, a, 1, bval));
                    a += 1;
                }
            }
            if n_seen > 0 {
                let scope = if sync.acquire > 0 {
                    sync.acquire
                } else if kind == AccessKind::Atomic && sync.strong >= CLUSTER && sync.rmw_acquires {
                    // a read-modify-write atomic at .gpu (or .cluster) scope (see the module notes)
                    sync.strong
                } else {
                    0
                };
                for &s in &seen[..n_seen] {
                    if scope > 0 {
                        self.acquire(tid, s, scope, snaps);
                    } else if self.ops.any_sync() {
                        let t = self.thread(tid);
                        if !t.pending.contains(&s) && t.pending.len() < 16 {
                            t.pending.push(s);
                        }
                    }
                }
            }
        }
        tr.note_peak();
    }

    /// The shadow this block shares with its cluster's blocks while blocks run in parallel.
    fn cluster_tracker(&self) -> Option<Arc<Mutex<Tracker>>> {
        self.cluster.as_ref().map(|c| Arc::clone(&c.tracker))
    }

    /// Lanes `active` of `warp` executed the instruction at `pc`.
    pub fn inst(&mut self, warp: u32, pc: u32, active: u32) {
        let s = self.ops.at(pc);
        if s.warp_sync {
            self.warp_barrier(warp, pc, active);
        }
        if s.cwait && !self.carr.is_empty() {
            // the thread waits for the phase of its last arrival
            each_lane(active, |l| {
                let t = (warp * 32 + l) as usize;
                if let (Some(&a), Some(w)) = (self.carr.get(t), self.cwait.get_mut(t)) {
                    *w = a;
                }
            });
        }
        if s.fence == 0 || self.finished {
            return;
        }
        let shared = Arc::clone(&self.shared);
        let ctr = self.cluster_tracker();
        let guard = if self.in_order {
            Some(
                shared
                    .tracker
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            )
        } else {
            ctr.as_ref()
                .map(|t| t.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
        };
        let own = if guard.is_some() { None } else { self.own.take() };
        let tr: Option<&Snaps> = guard.as_deref().or(own.as_ref()).map(|t| &t.snaps);
        let mut bits = active;
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            let tid = (warp * 32 + lane).min(u32::from(u16::MAX)) as u16;
            self.fence(tid, s.fence, tr);
            if s.fence_sc && s.fence >= GPU {
                self.note_sc_fence(tid);
            }
        }
        if own.is_some() {
            self.own = own;
        }
    }

    /// Runs `f` with the release lists of the shadow this block writes to and whether it has
    /// room for more (as [`GlobalRaceSink::access`] takes them).
    fn with_snaps(&mut self, f: impl FnOnce(&mut Self, &mut Snaps, bool)) {
        self.with_tracker(|this, tr| {
            let room = tr.room();
            f(this, &mut tr.snaps, room);
        });
    }

    /// Runs `f` with the shadow this block writes to: the launch's when blocks run in order,
    /// the cluster's when the block is in one, else the block's own (kept for its next access).
    fn with_tracker<R>(&mut self, f: impl FnOnce(&mut Self, &mut Tracker) -> R) -> R {
        let shared = Arc::clone(&self.shared);
        let ctr = self.cluster_tracker();
        let lock: Option<&Mutex<Tracker>> = if self.in_order {
            Some(&shared.tracker)
        } else {
            ctr.as_deref()
        };
        if let Some(m) = lock {
            let mut guard = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            return f(self, &mut guard);
        }
        let mut own = self.own.take().unwrap_or_else(spare_tracker);
        let r = f(self, &mut own);
        self.own = Some(own);
        r
    }

    /// Lane `lane` of `warp` arrives on the block's mbarrier at shared offset `addr` (a release
    /// at `.cta` scope joining the phase's); `completed`: the parity of the phase it completed.
    pub fn mbar_arrive(&mut self, warp: u32, lane: u32, addr: u64, completed: Option<u8>) {
        if self.finished || self.cluster.is_some() {
            return;
        }
        let tid = (warp * 32 + lane).min(u32::from(u16::MAX)) as u16;
        self.with_snaps(|s, snaps, room| {
            s.fence(tid, CTA, Some(snaps));
            let own = s.release_of(tid, snaps, room);
            let cur = s.mbars.get(&addr).map_or(0, |m| m[0]);
            let joined = if cur == 0 || cur == own {
                own
            } else if own == 0 || !room {
                cur
            } else {
                let mut points = snaps.list[cur as usize - 1].clone();
                points.extend_from_slice(&snaps.list[own as usize - 1]);
                snaps.points += points.len() as u64;
                snaps.list.push(points);
                snaps.list.len() as u32
            };
            let m = s.mbars.entry(addr).or_default();
            m[0] = joined;
            if let Some(p) = completed {
                m[1 + usize::from(p & 1)] = joined;
                m[0] = 0;
            }
        });
    }

    /// An mbarrier event of the block (`mbarrier.init`, a phase completed without an arrival,
    /// a lane's wait that saw a phase complete: it acquires that phase's arrivals).
    pub fn mbar_event(&mut self, e: &warpscope_emu::MbarEvent) {
        use warpscope_emu::MbarWhat;
        if self.finished || self.cluster.is_some() {
            return;
        }
        match e.what {
            MbarWhat::Init => {
                self.mbars.remove(&e.addr);
            }
            MbarWhat::Completed { parity } => {
                if let Some(m) = self.mbars.get_mut(&e.addr)
                    && m[0] > 0
                {
                    m[1 + usize::from(parity & 1)] = m[0];
                    m[0] = 0;
                }
            }
            MbarWhat::Waited { parity } => {
                let snap = self
                    .mbars
                    .get(&e.addr)
                    .map_or(0, |m| m[1 + usize::from(parity & 1)]);
                if snap > 0 {
                    let tid = (e.warp * 32 + e.lane).min(u32::from(u16::MAX)) as u16;
                    self.with_snaps(|s, snaps, _| s.acquire(tid, snap, CTA, snaps));
                }
            }
            MbarWhat::CopyTx { .. } => {}
        }
    }

    /// A block-wide barrier released.
    pub fn barrier_release(&mut self, pc: u32) {
        self.epoch += 1;
        self.release_pcs.push(pc);
        if !self.unfenced.is_empty() && self.n_unfenced == 0 {
            self.fenced_epoch = self.epoch;
        }
    }

    /// Lanes `active` of `warp` arrived at the cluster barrier (instruction `pc`).
    pub fn cluster_arrive(&mut self, warp: u32, pc: u32, active: u32) {
        let relaxed = self.ops.at(pc).crelaxed;
        let block = self.block;
        let Some(c) = &self.cluster else {
            return;
        };
        let clusters = Arc::clone(&c.clusters);
        each_lane(active, |l| {
            let t = warp * 32 + l;
            if let Some(a) = self.carr.get_mut(t as usize) {
                *a = a.saturating_add(1);
                if relaxed {
                    clusters.relaxed_arrival(block, t as u16, *a);
                }
            }
        });
    }

    /// `__syncwarp()` (or a synchronising warp collective) by lanes `active` of `warp` at `pc`: a
    /// member mask known to leave lanes out orders only the lanes it names, and only those that
    /// execute it ([`crate::warp_sync::WarpOrder`]).
    pub fn warp_barrier(&mut self, warp: u32, pc: u32, active: u32) {
        if let Some(w) = self.wsync.get_mut(warp as usize) {
            *w += 1;
            let n = self.nthreads.saturating_sub(warp * 32).min(32);
            let lanes = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
            // the lanes that execute it (not those that exited before it) of its member mask
            self.order
                .sync(warp, *w, self.ops.masks().mask(pc) & active, lanes);
        }
    }

    /// Whether this block runs in block order with the launch's other blocks (see the module
    /// notes).
    pub fn set_block_order(&mut self, in_order: bool) {
        self.in_order = in_order;
    }

    /// A warp exited; after the last one the block's own shadow is dropped.
    pub fn warp_exit(&mut self) {
        self.exited += 1;
        if self.exited >= self.warps {
            self.finish();
        }
    }

    /// Drops the per-block state, keeping the findings. Idempotent.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if let Some(c) = &self.cluster {
            let t = c
                .tracker
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let held = t.peak_bytes.max(t.bytes_held());
            self.shared
                .peak_block_bytes
                .fetch_max(held, std::sync::atomic::Ordering::Relaxed);
            if t.over_budget {
                self.shared
                    .over_budget
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if let Some(mut t) = self.own.take() {
            self.shared
                .peak_block_bytes
                .fetch_max(t.peak_bytes, std::sync::atomic::Ordering::Relaxed);
            if t.over_budget {
                self.shared
                    .over_budget
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
            // a worker thread keeps one block's shadow for its next block, unless it grew large
            let kept = t.cells.arena.capacity() * std::mem::size_of::<[GCell; SECTOR_WORDS]>();
            if kept <= 64 << 20 {
                t.clear();
                SPARE.with(|s| *s.borrow_mut() = Some(t));
            }
        }
        self.threads = Vec::new();
        self.block_acq = PointSet::default();
        self.block_acq_epochs = Vec::new();
        self.stash = None;
    }

    fn take_stash(&mut self, e: &warpscope_emu::MemEvent<'_>) -> Option<StoreBytes> {
        let st = self.stash.take()?;
        if st.warp != e.warp || st.pc != e.pc || u32::from(st.elem) * u32::from(st.n) != u32::from(e.width) {
            return None;
        }
        let elem = usize::from(st.elem);
        let mut bytes: StoreBytes = [[0; 16]; 32];
        let mut m = e.mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            for (k, row) in st.rows[..usize::from(st.n)].iter().enumerate() {
                bytes[l][k * elem..(k + 1) * elem].copy_from_slice(&row[l].to_le_bytes()[..elem]);
            }
        }
        Some(bytes)
    }
}

impl warpscope_emu::Sink for GlobalRaceSink {
    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        use warpscope_emu::AccessOp;
        if let (AccessOp::CpAsync, Some(src)) = (e.op, e.src) {
            self.access(e.warp, e.pc, AccessKind::Read, e.width, e.mask, src, None);
            return;
        }
        if e.space != warpscope_emu::Space::Global {
            return;
        }
        let kind = match e.op {
            AccessOp::Load | AccessOp::LdMatrix | AccessOp::Wgmma => AccessKind::Read,
            AccessOp::Store | AccessOp::StMatrix | AccessOp::CpAsync => AccessKind::Write,
            AccessOp::Atomic => AccessKind::Atomic,
        };
        let bytes = if e.op == AccessOp::Store {
            self.take_stash(e)
        } else {
            None
        };
        self.access(e.warp, e.pc, kind, e.width, e.mask, e.addrs, bytes.as_ref());
    }

    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        self.stash = None;
        if self.finished || rows.is_empty() || rows.len() > 4 || elem == 0 || elem > 8 {
            return;
        }
        let mut st = Box::new(Stash {
            warp,
            pc,
            elem,
            n: rows.len() as u8,
            rows: [[0; 32]; 4],
        });
        for (d, r) in st.rows.iter_mut().zip(rows) {
            *d = **r;
        }
        self.stash = Some(st);
    }

    fn barrier(&mut self, e: &warpscope_emu::BarrierEvent) {
        match e.kind {
            warpscope_emu::BarrierKind::Warp => self.warp_barrier(e.warp, e.pc, e.active),
            warpscope_emu::BarrierKind::Cluster => self.cluster_arrive(e.warp, e.pc, e.active),
            warpscope_emu::BarrierKind::Sync | warpscope_emu::BarrierKind::Arrive => {
                // an arrival is a synchronisation of the whole warp (as in `hazards`)
                if let Some(s) = self.wsync.get_mut(e.warp as usize) {
                    *s += 1;
                    self.named.arrive(e.warp, e.id, *s);
                }
            }
        }
    }

    fn barrier_partial(&mut self, _block: u32, id: u32, _arrived: u32, waited: u32) {
        self.partial_next = Some((id, waited));
    }

    fn barrier_release(&mut self, _block: u32, pc: u32, _generation: u32) {
        if let Some((id, waited)) = self.partial_next.take() {
            // a named barrier of part of the block: no new epoch (see `named_barriers`)
            self.named.release(id, waited, true);
            return;
        }
        GlobalRaceSink::barrier_release(self, pc);
    }

    fn inst(&mut self, warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        GlobalRaceSink::inst(self, warp, pc, active);
    }

    fn warp_exit(&mut self, _warp: u32) {
        GlobalRaceSink::warp_exit(self);
    }

    fn block_order(&mut self, in_order: bool) {
        self.set_block_order(in_order);
    }

    fn mbarrier(&mut self, e: &warpscope_emu::MbarEvent) {
        self.mbar_event(e);
    }

    fn mbar_arrive(&mut self, warp: u32, _pc: u32, lane: u32, _rank: u32, addr: u64, completed: Option<u8>) {
        GlobalRaceSink::mbar_arrive(self, warp, lane, addr, completed);
    }
}

fn each_lane(mask: u32, mut f: impl FnMut(u32)) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        f(l);
    }
}

/// The global races of a whole launch: the blocks' findings merged in block order.
#[derive(Debug, Default)]
pub struct GlobalRaceReport {
    found: BTreeMap<GKey, GAgg>,
    needed: BTreeMap<u32, (u32, u32)>,
}

impl GlobalRaceReport {
    /// Folds in a finished block (call in block order for deterministic examples).
    pub fn merge(&mut self, mut sink: GlobalRaceSink) {
        sink.finish();
        for (pc, pair) in sink.needed {
            self.needed.entry(pc).or_insert(pair);
        }
        for (k, a) in sink.found {
            match self.found.get_mut(&k) {
                Some(x) => x.count += a.count,
                None => {
                    self.found.insert(k, a);
                }
            }
        }
    }

    /// Barriers that order conflicting global accesses of a block's threads, each with one such
    /// pair of instructions (first, second): no such barrier is redundant.
    pub fn needed_barriers(&self) -> impl Iterator<Item = (u32, (u32, u32))> + '_ {
        self.needed.iter().map(|(&pc, &pair)| (pc, pair))
    }

    /// The findings: `loc` names an instruction, `thread` a (block, thread) pair, `place` a global
    /// byte address against the launch's buffers.
    pub fn findings(
        &self,
        loc: &dyn Fn(u32) -> Loc,
        thread: &dyn Fn(u32, u32) -> String,
        place: &dyn Fn(u64) -> String,
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        for (k, a) in &self.found {
            let ex = &a.example;
            let (la, lb) = (loc(k.first_pc), loc(k.second_pc));
            let (t1, t2) = (ex.threads[0], ex.threads[1]);
            let who1 = thread(a.first_block, t1);
            let who2 = thread(ex.block, t2);
            let addr = place(ex.address.unwrap_or(0));
            let word = |c: u8| match c {
                1 => "read",
                2 => "write",
                _ => "atomic",
            };
            let (kind, severity, message) = if k.same_value {
                (
                    FindingKind::SameValueWrite,
                    Severity::Warning,
                    format!(
                        "{who1} at {} and {who2} at {} write the same value to global {addr}, unordered: a same-value write, whichever lands the byte holds the same",
                        la.label, lb.label
                    ),
                )
            } else if k.same_inst {
                (
                    FindingKind::GlobalRace,
                    Severity::Warning,
                    format!(
                        "lanes of one {} instruction at {} touch the same global {addr} ({who1} and {who2}); which value lands is undefined",
                        word(k.second),
                        lb.label
                    ),
                )
            } else {
                let why = if k.cross_block {
                    "different blocks, not ordered by a release (a .gpu fence or release operation before the write the other block reads) and an acquire (an acquire operation, an atomic, or a .gpu fence after that read)"
                } else if k.intra_warp {
                    "one warp: without __syncwarp() lanes are not ordered under independent thread scheduling (CC 7.0+)"
                } else {
                    "one block, not ordered by a barrier (__syncthreads())"
                };
                (
                    FindingKind::GlobalRace,
                    Severity::Error,
                    format!(
                        "{}-{} race on global {addr}: {who1} at {} and {who2} at {}; {why}",
                        word(k.first).to_uppercase(),
                        word(k.second).to_uppercase(),
                        la.label,
                        lb.label
                    ),
                )
            };
            let pcs = vec![k.first_pc, k.second_pc];
            let locs = [la, lb];
            out.push(Finding {
                kind,
                severity,
                line: locs[1].line,
                lines: locs.iter().filter_map(|l| l.line).collect(),
                pcs,
                message,
                count: a.count,
                example: ex.clone(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync_ops::{PcSync, classify};

    #[test]
    fn instructions_are_classified_by_their_text() {
        assert_eq!(classify("membar.gl;").fence, GPU);
        assert_eq!(classify("membar.cta;").fence, CTA);
        assert_eq!(classify("fence.acq_rel.gpu;").fence, GPU);
        assert_eq!(classify("fence.sc.cta;").fence, CTA);
        assert_eq!(classify("fence.proxy.async.shared::cta;").fence, 0);
        let l = classify("@%p1 ld.acquire.gpu.global.u32 %r1, [%rd1];");
        assert_eq!((l.acquire, l.strong), (GPU, GPU));
        assert_eq!(classify("ld.volatile.global.u32 %r1, [%rd1];").strong, GPU);
        assert_eq!(classify("ld.global.u32 %r1, [%rd1];"), PcSync::default());
        let s = classify("st.release.gpu.global.u32 [%rd1], %r1;");
        assert_eq!((s.release, s.strong), (GPU, GPU));
        let a = classify("atom.global.add.u32 %r1, [%rd1], 1;");
        assert_eq!(
            (a.strong, a.acquire, a.release, a.rmw_acquires),
            (GPU, 0, 0, true)
        );
        let r = classify("atom.add.relaxed.gpu.s32 %r1,[%rd1],%r8;");
        assert_eq!((r.strong, r.acquire, r.rmw_acquires), (GPU, 0, false));
        let q = classify("atom.add.acq_rel.gpu.s32 %r3,[%rd1],%r8;");
        assert_eq!((q.acquire, q.release, q.rmw_acquires), (GPU, GPU, true));
        assert!(!classify("atom.add.release.gpu.s32 %r7,[%rd1],%r8;").rmw_acquires);
        assert!(!classify("red.global.add.u32 [%rd1], 1;").rmw_acquires);
        let c = classify("atom.acq_rel.cta.global.add.u32 %r1, [%rd1], 1;");
        assert_eq!((c.strong, c.acquire, c.release), (CTA, CTA, CTA));
        assert!(classify("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;").warp_sync);
        assert!(!classify("add.s32 %r1, %r2, 1;").warp_sync);
    }

    fn sink(block: u32, shared: &Arc<GlobalShared>) -> GlobalRaceSink {
        let mut s = GlobalRaceSink::new(block, 64, Arc::new(SyncOps::default()), Arc::clone(shared));
        s.set_block_order(true);
        s
    }

    fn lane_access(s: &mut GlobalRaceSink, warp: u32, lane: u32, pc: u32, kind: AccessKind) {
        s.access(warp, pc, kind, 4, 1 << lane, &[0x1000; 32], None);
    }

    /// (first pc, second pc) -> count of the sink's findings.
    fn found(s: &GlobalRaceSink) -> Vec<(u32, u32, u64)> {
        s.found
            .iter()
            .map(|(k, a)| (k.first_pc, k.second_pc, a.count))
            .collect()
    }

    /// Instructions of the release/acquire tests: pcs 0 and 4-6 plain, 1 a release store, 2 an
    /// acquire load, 3 a plain load.
    fn flag_ops() -> Arc<SyncOps> {
        Arc::new(SyncOps::of_texts(&[
            "st.global.u32 [%rd1], %r1;",
            "st.release.gpu.global.u32 [%rd2], %r1;",
            "ld.acquire.gpu.global.u32 %r1, [%rd2];",
            "ld.global.u32 %r1, [%rd1];",
            "ld.global.u32 %r1, [%rd1];",
            "st.global.u32 [%rd1], %r1;",
            "ld.global.u32 %r1, [%rd1];",
        ]))
    }

    fn flag_sink(block: u32, shared: &Arc<GlobalShared>) -> GlobalRaceSink {
        let mut s = GlobalRaceSink::new(block, 96, flag_ops(), Arc::clone(shared));
        s.set_block_order(true);
        s
    }

    fn at(s: &mut GlobalRaceSink, warp: u32, lane: u32, pc: u32, kind: AccessKind, addr: u64) {
        s.access(warp, pc, kind, 4, 1 << lane, &[addr; 32], None);
    }

    /// Warps `arrived` arrive at named barrier 1, which releases the warps `waited` only.
    fn partial_barrier(s: &mut GlobalRaceSink, arrived: &[u32], waited: u32) {
        for &w in arrived {
            s.wsync[w as usize] += 1;
            s.named.arrive(w, 1, s.wsync[w as usize]);
        }
        s.named.release(1, waited, true);
    }

    #[test]
    fn an_acquisition_reaches_the_lanes_of_its_warp_after_a_syncwarp() {
        // block 0: lane 0 writes the data and releases the flag; block 1: lane 0 acquires it,
        // lane 1 reads the data before the warp's __syncwarp (a race), lane 2 after it (none)
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
        at(&mut b1, 0, 1, 3, AccessKind::Read, 0x1000);
        b1.warp_barrier(0, 9, u32::MAX);
        at(&mut b1, 0, 2, 4, AccessKind::Read, 0x1000);
        assert_eq!(found(&b1), [(0, 3, 4)]);
    }

    #[test]
    fn a_release_carries_what_a_partial_barrier_ordered_before_it() {
        // block 0: warp 1 writes word A, arrives at named barrier 1, where warp 0 waits; then
        // writes word B; warp 0's lane 0 releases the flag. Block 1 acquires the flag and reads
        // both: A is ordered, B (written after warp 1's arrival) is not
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 1, 0, 0, AccessKind::Write, 0x1000);
        partial_barrier(&mut b0, &[1, 0], 0b01);
        at(&mut b0, 1, 0, 5, AccessKind::Write, 0x1004);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
        at(&mut b1, 0, 0, 3, AccessKind::Read, 0x1000);
        at(&mut b1, 0, 0, 6, AccessKind::Read, 0x1004);
        assert_eq!(found(&b1), [(5, 6, 4)]);
        // the fence made before the barrier released nothing of warp 1's
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 1, 0, 0, AccessKind::Write, 0x1000);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        partial_barrier(&mut b0, &[1, 0], 0b01);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
        at(&mut b1, 0, 0, 3, AccessKind::Read, 0x1000);
        assert_eq!(found(&b1), [(0, 3, 4)]);
    }

    #[test]
    fn an_acquisition_reaches_the_warps_a_partial_barrier_releases_after_it() {
        // block 1: warp 0's lane 0 acquires the flag, then warp 0 arrives at named barrier 1 and
        // warp 1 waits there; warp 2 takes no part. Warp 1's read is ordered, warp 2's is not
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
        partial_barrier(&mut b1, &[0, 1], 0b10);
        at(&mut b1, 1, 0, 3, AccessKind::Read, 0x1000);
        at(&mut b1, 2, 0, 4, AccessKind::Read, 0x1000);
        assert_eq!(found(&b1), [(0, 4, 4)]);
    }

    #[test]
    fn a_write_racing_with_the_second_of_three_unordered_reads_is_found() {
        // warp 0 lane 0 reads, warp 1 lane 0 reads, warp 0 lane 1 reads; __syncwarp in warp 0,
        // then lane 1 writes: ordered after both warp-0 reads, not after warp 1's
        let shared = GlobalShared::new();
        let mut s = sink(0, &shared);
        lane_access(&mut s, 0, 0, 1, AccessKind::Read);
        lane_access(&mut s, 1, 0, 2, AccessKind::Read);
        lane_access(&mut s, 0, 1, 3, AccessKind::Read);
        s.warp_barrier(0, 0, u32::MAX);
        lane_access(&mut s, 0, 1, 4, AccessKind::Write);
        assert_eq!(found(&s), [(2, 4, 4)]);
    }

    #[test]
    fn a_write_is_checked_against_every_unordered_reader_of_many_blocks() {
        // blocks 1..=39 read the word (one thread each), then block 40 writes it with nothing
        // ordering them: 39 racing reads, 4 bytes each
        let shared = GlobalShared::new();
        for b in 1..=39 {
            let mut s = sink(b, &shared);
            lane_access(&mut s, b % 2, b % 32, 7, AccessKind::Read);
            s.finish();
        }
        let mut w = sink(40, &shared);
        lane_access(&mut w, 0, 0, 9, AccessKind::Write);
        assert_eq!(found(&w), [(7, 9, 39 * 4)]);
        // the write ended the reads: a second write races with the first write only
        lane_access(&mut w, 1, 0, 11, AccessKind::Write);
        assert_eq!(found(&w), [(7, 9, 39 * 4), (9, 11, 4)]);
        let t = shared.tracker.lock().unwrap();
        assert_eq!(t.cells.more.bytes(), 0);
    }

    #[test]
    fn a_warps_reads_after_a_barrier_replace_its_earlier_ones() {
        // 32 lanes of each of 2 warps read the word, a barrier, again: the kept reads do not
        // grow with the epochs, and a write of warp 0 after a barrier races with none
        let shared = GlobalShared::new();
        let mut s = sink(0, &shared);
        let mut most = 0;
        for e in 0..5 {
            for w in 0..2 {
                s.access(w, 20 + e, AccessKind::Read, 4, u32::MAX, &[0x1000; 32], None);
            }
            most = most.max(shared.tracker.lock().unwrap().cells.more.bytes());
            s.barrier_release(100);
        }
        assert!(most > 0 && most <= 2 * reads::GROUP_BYTES + 48, "{most}");
        lane_access(&mut s, 0, 3, 30, AccessKind::Write);
        assert!(found(&s).is_empty(), "{:?}", found(&s));
    }

    #[test]
    fn a_later_point_of_the_block_dominates() {
        let p = |tid, k, epoch| Point {
            block: 3,
            tid,
            scope: GPU,
            k,
            epoch,
            bar: u32::MAX,
            wsync: 0,
        };
        let mut s = PointSet::default();
        assert!(s.insert(p(0, 1, 0)));
        assert!(s.insert(p(1, 1, 0)));
        assert!(!s.insert(p(0, 1, 0)));
        assert!(s.insert(p(5, 1, 2)));
        assert_eq!(s.len, 1);
        let acc = GAcc {
            block: 3,
            tid: 9,
            epoch: 1,
            kind: 2,
            ..GAcc::EMPTY
        };
        assert!(s.covers(&acc, false));
        assert!(!s.covers(&GAcc { epoch: 2, ..acc }, false));
    }

    #[test]
    fn a_release_covers_its_warps_lanes_before_a_syncwarp() {
        // thread 0 fenced after its warp's second __syncwarp
        let p = Point {
            block: 3,
            tid: 0,
            scope: GPU,
            k: 1,
            epoch: 0,
            bar: u32::MAX,
            wsync: 2,
        };
        let acc = |tid, wsync| GAcc {
            block: 3,
            tid,
            kind: 2,
            wsync,
            ..GAcc::EMPTY
        };
        assert!(
            p.covers(&acc(7, 1), false),
            "lane 7 before the warp's second __syncwarp"
        );
        assert!(!p.covers(&acc(7, 2), false), "lane 7 after it");
        assert!(
            !p.covers(&acc(39, 1), false),
            "another warp's thread: no barrier between"
        );
        let none = Point { wsync: 0, ..p };
        assert!(!none.covers(&acc(7, 0), false), "no count kept");
    }

    #[test]
    fn a_second_acquirer_in_another_warp_reaches_its_lanes_after_a_syncwarp() {
        // block 0 writes the data and releases the flag. Block 1: warp 0's lane 0 acquires it
        // first, warp 1's lane 0 acquires it too; warp 1's lane 1 reads the data before its
        // warp's __syncwarp (a race), lane 2 after it (none); warp 2 has no synchronisation with
        // either acquirer (a race)
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
        at(&mut b1, 1, 0, 2, AccessKind::Read, 0x2000);
        at(&mut b1, 1, 1, 3, AccessKind::Read, 0x1000);
        b1.warp_barrier(1, 9, u32::MAX);
        at(&mut b1, 1, 2, 4, AccessKind::Read, 0x1000);
        assert_eq!(found(&b1), [(0, 3, 4)]);
        at(&mut b1, 2, 0, 6, AccessKind::Read, 0x1000);
        assert_eq!(found(&b1), [(0, 3, 4), (0, 6, 4)]);
    }

    #[test]
    fn a_second_acquirer_reaches_the_warps_a_partial_barrier_releases_after_it() {
        // block 1: warp 0 acquires the flag first, warp 1 second; warp 1 arrives at named
        // barrier 1 where warp 2 waits: warp 2's read is ordered. Without warp 1's acquisition
        // before the barrier, warp 2's read races
        for second in [true, false] {
            let shared = GlobalShared::new();
            let mut b0 = flag_sink(0, &shared);
            at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
            at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
            b0.finish();
            let mut b1 = flag_sink(1, &shared);
            at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
            if second {
                at(&mut b1, 1, 0, 2, AccessKind::Read, 0x2000);
            }
            partial_barrier(&mut b1, &[1, 2], 0b100);
            at(&mut b1, 2, 0, 4, AccessKind::Read, 0x1000);
            let want: &[(u32, u32, u64)] = if second { &[] } else { &[(0, 4, 4)] };
            assert_eq!(found(&b1), want, "second acquirer: {second}");
        }
    }

    #[test]
    fn a_release_after_a_syncwarp_carries_a_second_acquirers_acquisition() {
        // block 0 writes the data (pc 0) and releases flag A. Block 1: warp 0 acquires A, then
        // warp 1's lane 0 acquires A too; warp 1's lane 1 releases flag B after its warp's
        // __syncwarp (ordered: the data travels on) or before it (not ordered). Block 2 acquires
        // B and reads the data
        for synced in [true, false] {
            let shared = GlobalShared::new();
            let mut b0 = flag_sink(0, &shared);
            at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
            at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
            b0.finish();
            let mut b1 = flag_sink(1, &shared);
            at(&mut b1, 0, 0, 2, AccessKind::Read, 0x2000);
            at(&mut b1, 1, 0, 2, AccessKind::Read, 0x2000);
            if synced {
                b1.warp_barrier(1, 9, u32::MAX);
            }
            at(&mut b1, 1, 1, 1, AccessKind::Write, 0x3000);
            b1.finish();
            let mut b2 = flag_sink(2, &shared);
            at(&mut b2, 0, 0, 2, AccessKind::Read, 0x3000);
            at(&mut b2, 0, 0, 3, AccessKind::Read, 0x1000);
            let want: &[(u32, u32, u64)] = if synced { &[] } else { &[(0, 3, 4)] };
            assert_eq!(found(&b2), want, "__syncwarp before the release: {synced}");
        }
    }

    #[test]
    fn later_acquirers_of_one_warp_add_no_entries() {
        // every lane of warp 0 acquires the same release: one recorded acquisition reaches the
        // warp, the other 31 add nothing to scan
        let shared = GlobalShared::new();
        let mut b0 = flag_sink(0, &shared);
        at(&mut b0, 0, 0, 1, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = flag_sink(1, &shared);
        b1.access(0, 2, AccessKind::Read, 4, u32::MAX, &[0x2000; 32], None);
        assert_eq!(b1.block_acq_epochs.len(), 1);
        b1.access(1, 2, AccessKind::Read, 4, u32::MAX, &[0x2000; 32], None);
        assert_eq!(b1.block_acq_epochs.len(), 2, "another warp's lanes add one");
    }

    /// Two blocks' atomics (or strong accesses) at pcs 0 and 1 of `texts`, of `w0` and `w1` bytes
    /// at one address: the pairs found.
    fn strong_pair(texts: &[&str], w0: u8, w1: u8) -> Vec<(u32, u32, u64)> {
        let shared = GlobalShared::new();
        let ops = Arc::new(SyncOps::of_texts(texts));
        let kind = |t: &str| {
            if t.starts_with("atom") {
                AccessKind::Atomic
            } else if t.starts_with("st") {
                AccessKind::Write
            } else {
                AccessKind::Read
            }
        };
        let mut b0 = GlobalRaceSink::new(0, 32, Arc::clone(&ops), Arc::clone(&shared));
        b0.set_block_order(true);
        b0.access(0, 0, kind(texts[0]), w0, 1, &[0x1000; 32], None);
        b0.finish();
        let mut b1 = GlobalRaceSink::new(1, 32, ops, Arc::clone(&shared));
        b1.set_block_order(true);
        b1.access(0, 1, kind(texts[1]), w1, 1, &[0x1000; 32], None);
        found(&b1)
    }

    #[test]
    fn atomics_of_different_sizes_on_the_same_bytes_race() {
        // 64-bit and 32-bit atomicAdd on one counter: not morally strong (partial overlap)
        let a64 = "atom.global.add.u64 %rd2, [%rd1], %rd3;";
        let a32 = "atom.global.add.u32 %r2, [%rd1], %r3;";
        assert_eq!(strong_pair(&[a64, a32], 8, 4), [(0, 1, 4)]);
        assert_eq!(strong_pair(&[a32, a64], 4, 8), [(0, 1, 4)]);
        // the same size: no race
        assert_eq!(strong_pair(&[a64, a64], 8, 8), []);
        assert_eq!(strong_pair(&[a32, a32], 4, 4), []);
        // volatile accesses: an 8-byte store and a 4-byte load race, a 4-element vector load
        // and a 4-byte store are element by element the same size and do not
        let st64 = "st.volatile.global.u64 [%rd1], %rd2;";
        let ld32 = "ld.volatile.global.u32 %r1, [%rd1];";
        assert_eq!(strong_pair(&[st64, ld32], 8, 4), [(0, 1, 4)]);
        let ldv4 = "ld.volatile.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];";
        let st32 = "st.volatile.global.u32 [%rd1], %r1;";
        assert_eq!(strong_pair(&[st32, ldv4], 4, 16), []);
    }
    fn mbar(warp: u32, lane: u32, what: warpscope_emu::MbarWhat) -> warpscope_emu::MbarEvent {
        warpscope_emu::MbarEvent {
            warp,
            pc: 9,
            lane,
            addr: 0x40,
            what,
        }
    }

    #[test]
    fn an_mbarrier_phase_orders_its_arrivals_before_the_waits_that_see_it_complete() {
        // one block: thread 32 writes and arrives on the mbarrier at 0x40, thread 64 arrives
        // and completes phase 0; thread 0 reads after waiting for it (no race), thread 1 without
        // waiting (a race); thread 2 waits for parity 1, which no arrival completed (a race)
        let shared = GlobalShared::new();
        let mut b = flag_sink(0, &shared);
        b.mbar_event(&mbar(0, 0, warpscope_emu::MbarWhat::Init));
        at(&mut b, 1, 0, 0, AccessKind::Write, 0x1000);
        b.mbar_arrive(1, 0, 0x40, None);
        b.mbar_arrive(2, 0, 0x40, Some(0));
        b.mbar_event(&mbar(2, 0, warpscope_emu::MbarWhat::Completed { parity: 0 }));
        b.mbar_event(&mbar(0, 0, warpscope_emu::MbarWhat::Waited { parity: 0 }));
        at(&mut b, 0, 0, 3, AccessKind::Read, 0x1000);
        assert!(found(&b).is_empty(), "{:?}", found(&b));
        at(&mut b, 0, 1, 4, AccessKind::Read, 0x1000);
        let pcs = |b: &GlobalRaceSink| found(b).iter().map(|f| (f.0, f.1)).collect::<Vec<_>>();
        assert_eq!(pcs(&b), [(0, 4)]);
        b.mbar_event(&mbar(0, 2, warpscope_emu::MbarWhat::Waited { parity: 1 }));
        at(&mut b, 0, 2, 6, AccessKind::Read, 0x1000);
        assert_eq!(pcs(&b), [(0, 4), (0, 6)]);
    }

    /// Instructions of the fence-before-barrier tests: pc 0 a plain store, 1 `membar.gl`
    /// (`__threadfence()`), 2 a volatile flag store, 3 a volatile flag load, 4 a plain load,
    /// 5 `fence.acq_rel.gpu`.
    fn sc_ops() -> Arc<SyncOps> {
        Arc::new(SyncOps::of_texts(&[
            "st.global.u32 [%rd1], %r1;",
            "membar.gl;",
            "st.volatile.global.u32 [%rd2], %r1;",
            "ld.volatile.global.u32 %r1, [%rd2];",
            "ld.global.u32 %r1, [%rd1];",
            "fence.acq_rel.gpu;",
        ]))
    }

    /// Block 0: threads 0 and 33 write words A and B, each makes the fence at `fence_pc` (unless
    /// `skip_33`), a barrier, then thread 0 sets the flag; block 1: thread 0 reads the flag,
    /// fences, and after a barrier thread 40 reads A and B. The findings of block 1.
    fn fence_then_barrier(fence_pc: u32, skip_33: bool) -> Vec<(u32, u32, u64)> {
        let shared = GlobalShared::new();
        let mut b0 = GlobalRaceSink::new(0, 64, sc_ops(), Arc::clone(&shared));
        b0.set_block_order(true);
        at(&mut b0, 0, 0, 0, AccessKind::Write, 0x1000);
        at(&mut b0, 1, 1, 0, AccessKind::Write, 0x1004);
        b0.inst(0, fence_pc, 1);
        if !skip_33 {
            b0.inst(1, fence_pc, 1 << 1);
        }
        b0.barrier_release(7);
        at(&mut b0, 0, 0, 2, AccessKind::Write, 0x2000);
        b0.finish();
        let mut b1 = GlobalRaceSink::new(1, 64, sc_ops(), Arc::clone(&shared));
        b1.set_block_order(true);
        at(&mut b1, 0, 0, 3, AccessKind::Read, 0x2000);
        b1.inst(0, 1, 1);
        b1.barrier_release(8);
        at(&mut b1, 1, 8, 4, AccessKind::Read, 0x1000);
        at(&mut b1, 1, 8, 4, AccessKind::Read, 0x1004);
        found(&b1)
    }

    #[test]
    fn fence_sc_by_every_thread_before_a_barrier_orders_the_block_for_a_later_flag() {
        // thread 33's write is before its own __threadfence(), which is before the barrier and so
        // before thread 0's flag: ordered (Fence-SC order with the reader's fence)
        assert_eq!(fence_then_barrier(1, false), []);
        // thread 33 made no fence: its write races with the read; thread 0's is ordered as before
        assert_eq!(fence_then_barrier(1, true), [(0, 4, 4)]);
        // fence.acq_rel is not in the Fence-SC order: only thread 0's own write is released
        assert_eq!(fence_then_barrier(5, false), [(0, 4, 4)]);
        assert!(classify("membar.gl;").fence_sc && classify("fence.sc.gpu;").fence_sc);
        assert!(!classify("fence.acq_rel.gpu;").fence_sc);
    }

    /// Instructions of the lock tests: 0 a plain store, 1 `atomicCAS`, 2 `__threadfence()`,
    /// 3 `atomicExch`, 4 a plain load, 5 a `volatile` load.
    fn lock_ops() -> Arc<SyncOps> {
        Arc::new(SyncOps::of_texts(&[
            "st.global.u32 [%rd1], %r1;",
            "atom.global.cas.b32 %r1, [%rd1], 0, 1;",
            "membar.gl;",
            "atom.global.exch.b32 %r1, [%rd1], 0;",
            "ld.global.u32 %r1, [%rd1];",
            "ld.volatile.global.u32 %r1, [%rd1];",
        ]))
    }

    /// Thread 0 of block 0 stores the lock word at 0x1000 (then, with `barrier`, the block's
    /// barrier at pc 9 releases), takes it by `atomicCAS`, fences and gives it back by
    /// `atomicExch`; then thread 32 accesses the word with the instruction at `then_pc`. The
    /// findings and the barriers the block needs.
    fn lock_taken_after_init(barrier: bool, then_pc: u32) -> (Vec<(u32, u32, u64)>, Vec<u32>) {
        let shared = GlobalShared::new();
        let mut s = GlobalRaceSink::new(0, 64, lock_ops(), Arc::clone(&shared));
        s.set_block_order(true);
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1000);
        if barrier {
            s.barrier_release(9);
        }
        at(&mut s, 0, 0, 1, AccessKind::Atomic, 0x1000);
        s.inst(0, 2, 1);
        at(&mut s, 0, 0, 3, AccessKind::Atomic, 0x1000);
        let kind = if then_pc == 1 {
            AccessKind::Atomic
        } else {
            AccessKind::Read
        };
        at(&mut s, 1, 0, then_pc, kind, 0x1000);
        let f = found(&s);
        (f, s.needed.keys().copied().collect())
    }

    #[test]
    fn a_plain_store_hidden_by_its_threads_atomics_is_checked_against_other_threads_atomics() {
        // the lock's initialisation, a barrier, then the lock taken: the barrier orders the store
        // before the other warp's atomicCAS (which in another schedule comes before warp 0's):
        // needed, and no race
        assert_eq!(lock_taken_after_init(true, 1), (vec![], vec![9]));
        // without the barrier the store and that atomicCAS race, though in this schedule the
        // atomicCAS read what thread 0's fenced atomicExch gave back
        assert_eq!(lock_taken_after_init(false, 1), (vec![(0, 1, 4)], vec![]));
        // a strong load is checked against it too
        assert_eq!(lock_taken_after_init(false, 5), (vec![(0, 5, 4)], vec![]));
        // a plain load is not: it reads the atomicExch, and races with it (not with the store)
        assert_eq!(lock_taken_after_init(false, 4), (vec![(3, 4, 4)], vec![]));
    }

    #[test]
    fn a_hidden_store_ordered_by_a_flag_on_another_word_is_no_race() {
        // thread 0 stores the word, fences and sets a flag (0x2000); thread 32 polls the flag by an
        // atomic (acquiring) before it takes the word by atomicCAS, after thread 0's own atomicCAS
        let shared = GlobalShared::new();
        let mut s = GlobalRaceSink::new(0, 64, lock_ops(), Arc::clone(&shared));
        s.set_block_order(true);
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1000);
        s.inst(0, 2, 1);
        at(&mut s, 0, 0, 3, AccessKind::Atomic, 0x2000);
        at(&mut s, 0, 0, 1, AccessKind::Atomic, 0x1000);
        at(&mut s, 1, 0, 1, AccessKind::Atomic, 0x2000);
        at(&mut s, 1, 0, 1, AccessKind::Atomic, 0x1000);
        assert_eq!(found(&s), []);
        assert!(s.needed.is_empty());
    }

    #[test]
    fn another_threads_atomic_keeps_the_hidden_store_and_a_plain_write_drops_it() {
        let shared = GlobalShared::new();
        let mut s = GlobalRaceSink::new(0, 96, lock_ops(), Arc::clone(&shared));
        s.set_block_order(true);
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1000);
        at(&mut s, 0, 0, 1, AccessKind::Atomic, 0x1000);
        let held = || shared.tracker.lock().unwrap().cells.hidden.bytes();
        assert!(held() > 0);
        // thread 32's atomic races with the store (nothing orders them) and keeps it
        at(&mut s, 1, 0, 1, AccessKind::Atomic, 0x1000);
        assert_eq!(found(&s), [(0, 1, 4)]);
        assert!(held() > 0);
        // so thread 64's atomic, after the cell's last write became thread 32's, is checked too
        at(&mut s, 2, 0, 1, AccessKind::Atomic, 0x1000);
        assert_eq!(found(&s), [(0, 1, 8)]);
        // thread 33's plain write drops it (it races with thread 64's atomic, which the cell
        // holds)
        at(&mut s, 1, 1, 0, AccessKind::Write, 0x1000);
        assert_eq!(held(), 0);
        assert_eq!(found(&s), [(0, 1, 8), (1, 0, 4)]);
        // the writer's plain store then its atomic: kept again; its plain store drops it
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1004);
        at(&mut s, 0, 0, 1, AccessKind::Atomic, 0x1004);
        assert!(held() > 0);
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1004);
        assert_eq!(held(), 0);
    }

    #[test]
    fn a_hidden_store_is_kept_past_an_ordered_atomic_for_a_later_unordered_one() {
        // thread 0 stores the word and adds to it by an atomic; lane 1 adds after a
        // `__syncwarp()` (ordered after the store), then thread 32 of another warp adds with
        // nothing ordering it after the store: a race with the store (pc 0)
        for barrier in [false, true] {
            let shared = GlobalShared::new();
            let mut s = GlobalRaceSink::new(0, 64, lock_ops(), Arc::clone(&shared));
            s.set_block_order(true);
            at(&mut s, 0, 0, 0, AccessKind::Write, 0x1000);
            at(&mut s, 0, 0, 1, AccessKind::Atomic, 0x1000);
            s.warp_barrier(0, 9, u32::MAX);
            at(&mut s, 0, 1, 1, AccessKind::Atomic, 0x1000);
            assert_eq!(found(&s), []);
            if barrier {
                // a block barrier orders the store before thread 32's atomic: no race, and the
                // barrier is needed
                s.barrier_release(7);
            }
            at(&mut s, 1, 0, 1, AccessKind::Atomic, 0x1000);
            if barrier {
                assert_eq!(found(&s), []);
                assert_eq!(s.needed.keys().copied().collect::<Vec<_>>(), [7]);
            } else {
                assert_eq!(found(&s), [(0, 1, 4)]);
            }
        }
    }

    #[test]
    fn an_acquiring_atomic_of_a_thread_without_fences_continues_the_release_sequence() {
        // thread 0 stores the counter (0x1000), fences and sets the flag (0x2000) by atomicExch;
        // thread 32 polls the flag by an atomic (acquiring, no fence of its own), then thread 64
        // polls it, reading thread 32's write, and reads the counter: ordered through the
        // release sequence thread 32's read-modify-write continued
        let shared = GlobalShared::new();
        let mut s = GlobalRaceSink::new(0, 96, lock_ops(), Arc::clone(&shared));
        s.set_block_order(true);
        at(&mut s, 0, 0, 0, AccessKind::Write, 0x1000);
        s.inst(0, 2, 1);
        at(&mut s, 0, 0, 3, AccessKind::Atomic, 0x2000);
        at(&mut s, 1, 0, 1, AccessKind::Atomic, 0x2000);
        at(&mut s, 2, 0, 1, AccessKind::Atomic, 0x2000);
        at(&mut s, 2, 0, 4, AccessKind::Read, 0x1000);
        assert_eq!(found(&s), []);
        // a plain read of thread 32's without its acquire races (the poll is what orders it)
        at(&mut s, 1, 1, 4, AccessKind::Read, 0x1000);
        assert_eq!(found(&s), [(0, 4, 4)]);
    }
}
