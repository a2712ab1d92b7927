//! Shared-memory hazards of one emulated launch: races, same-value writes, divergent and redundant
//! barriers, uninitialised reads and out-of-bounds accesses; and the emulator's faults as findings.
//!
//! [`HazardSink`] watches one block. The emulator feeds it that block's events (memory accesses,
//! barriers, barrier releases, executed instructions, warp exits); [`HazardReport::merge`] folds the
//! finished blocks together in block order, and [`HazardReport::findings`] turns the result into
//! [`Finding`]s once the caller says how to name an instruction (source line, PTX line).
//!
//! # The model
//! * Threads of a block are ordered only by block-wide barriers (`bar.sync`, `__syncthreads()`): an
//!   access belongs to the *epoch* numbered by the barrier releases the block has completed before it.
//!   Two accesses of different threads in one epoch are unordered.
//! * Independent thread scheduling (CC 7.0+): lanes of one warp are not ordered either, unless a
//!   `__syncwarp()` (`bar.warp.sync`) of that warp lies between the two accesses. The emulator runs a
//!   warp's lanes in lock step, so such races never show in its results; they are races all the same.
//!   With [`HazardSink::with_warp_sync`], the synchronising warp collectives (`shfl.sync`,
//!   `vote.sync`, `match.sync`, `redux.sync`) order the lanes as `__syncwarp()` does, and a member
//!   mask known to leave lanes out (an immediate, or a register set once from one) orders only the
//!   lanes it names ([`crate::warp_sync::WarpOrder`]); without it, or with a mask computed at run
//!   time, a `__syncwarp` orders the whole warp.
//! * Atomics do not race with atomics of their size (an 8-byte and a 4-byte atomic on one byte do:
//!   they overlap in part, which the memory model does not make morally strong); an atomic and a
//!   plain access of another thread in one epoch do.
//!   With [`HazardSink::with_sync_ops`] (kernels that have fences, release or acquire operations
//!   or strong accesses), two strong accesses (atomics, `volatile`, `.relaxed`/`.acquire`/
//!   `.release`) of different warps do not race either, and a release through a shared or global
//!   flag that another thread acquires orders the accesses before it before those after the
//!   acquire, as the global checker does between blocks (`hazards/flags.rs`). Strong loads and
//!   stores of lanes of one warp still race without `__syncwarp()` (warp-synchronous code that
//!   relies on lock step).
//! * A race is two accesses to one shared byte from different threads of a block, at least one a write,
//!   in one epoch. Lanes of one store instruction writing the same byte are reported as a warning.
//! * A *same-value write* is a write-write pair where both are plain stores whose bytes the emulator
//!   announced (`Sink::store_values`), the second rewriting over its whole access the bytes already
//!   there (its byte's last writer's), by a thread that did not read the byte or write other bytes
//!   to it earlier in the epoch ([`FindingKind::SameValueWrite`], not a race).
//! * A barrier (identified by its instruction) is *needed* when some conflicting pair of accesses of
//!   different threads is separated only by releases of that barrier; a pair separated by several
//!   different barriers needs only one of them, and the one released last before the second access is
//!   kept. Barriers that are not needed are reported redundant: removing one of them (alone) makes no
//!   race in this launch. Only shared memory is considered; ordering of global memory across threads
//!   (and blocks) by barriers is out of scope. A redundant barrier inside one of the kernel's loops
//!   ([`HazardReport::with_loops`]) released at most once per block is redundant only because of
//!   the launch's trip count: a note that says so.
//!
//! # Memory bound
//! Per block, per shared byte: the last writer (and a second atomic writer), two readers of the
//! current epoch (or one, and another thread's read of an earlier epoch), each as (thread, epoch,
//! `__syncwarp` count, instruction), and the byte the last writer stored — [`SHADOW_BYTES_PER_SHARED_BYTE`] bytes — plus one instruction index per barrier
//! release. The current epoch's reads of further threads are kept beside the cell, for the bytes
//! that have them only, as groups of lanes ([`readers`]; bounded per block), so a write is checked
//! against every read of its epoch that no later kept read follows. (While a 4-byte word's bytes have equal state, the word's
//! first cell stands for all four: word-sized accesses update one cell, not four.) The shadow is allocated at the first shared access and dropped
//! when the block's last warp exits, with the other per-warp state, so only blocks in flight hold it
//! (a finished block keeps its findings and barrier use); findings are aggregated per
//! instruction (pair), with one example each.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::warp_sync::WarpOrder;

mod flags;
mod readers;
use readers::MoreReads;

/// How much shadow state the race tracker keeps per byte of shared memory of a block in flight: a
/// cell, and the byte its last writer stored (for same-value writes).
pub const SHADOW_BYTES_PER_SHARED_BYTE: usize = std::mem::size_of::<Cell>() + 1;

/// Kinds of findings of `warpscope check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Two unordered accesses to one shared address from different threads, at least one a write.
    Race,
    /// Two accesses to one global byte from different threads (of one block or of two), at least
    /// one a write, not ordered by the memory model (see [`crate::global_races`]).
    GlobalRace,
    /// A barrier reached by only part of the block.
    DivergentBarrier,
    /// A shared read of bytes never written in this launch (by this block).
    UninitializedRead,
    /// A global read of bytes nothing wrote: not by the program's copies and memsets, nor by an
    /// earlier launch or an earlier block of this one (see [`crate::global_init`]).
    UninitializedGlobalRead,
    /// A shared or global access outside its allocation.
    OutOfBounds,
    /// A barrier whose removal makes no race in the emulated launch.
    RedundantBarrier,
    /// Two threads wrote the same bytes to one shared address, not ordered by a barrier (each
    /// wrote what the other did: which write lands does not matter). Off by default.
    SameValueWrite,
    /// The launch stops on a GPU: a `trap`, an illegal instruction, a store to read-only memory,
    /// execution past the kernel's end.
    Fault,
    /// A failing device `assert`: the launch stops with `cudaErrorAssert`.
    Assert,
    /// An access to a `wgmma.mma_async` accumulator register before `wgmma.wait_group` retired
    /// its group (see [`crate::wgmma_hazards`]).
    WgmmaAccumulator,
    /// A `wgmma.mma_async` with no `wgmma.fence` of its warp before it, or after another access
    /// to its accumulator or A registers (see [`crate::wgmma_hazards`]).
    MissingWgmmaFence,
    /// Shared bytes written through the generic proxy and read by the asynchronous proxy (a
    /// `wgmma.mma_async` operand, a TMA store) with no `fence.proxy.async` between (see
    /// [`crate::async_proxy`]).
    MissingProxyFence,
    /// An access to another block's shared memory (a thread-block cluster's distributed shared
    /// memory) that nothing orders before the owner block's exit (see [`crate::cluster_races`]).
    ExitBeforeRemoteAccess,
    /// Two launches (or a launch and a copy) on streams nothing orders that touch one global
    /// byte, one writing it (`warpscope run --check`: the CUDA runtime's `streams` order).
    StreamRace,
}

impl FindingKind {
    /// The name used in tables and JSON (`race`, `divergent_barrier`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Race => "race",
            FindingKind::GlobalRace => "global_race",
            FindingKind::DivergentBarrier => "divergent_barrier",
            FindingKind::UninitializedRead => "uninitialized_read",
            FindingKind::UninitializedGlobalRead => "uninitialized_global_read",
            FindingKind::OutOfBounds => "out_of_bounds",
            FindingKind::RedundantBarrier => "redundant_barrier",
            FindingKind::SameValueWrite => "same_value_write",
            FindingKind::Fault => "fault",
            FindingKind::Assert => "assert",
            FindingKind::WgmmaAccumulator => "wgmma_accumulator",
            FindingKind::MissingWgmmaFence => "missing_wgmma_fence",
            FindingKind::MissingProxyFence => "missing_proxy_fence",
            FindingKind::ExitBeforeRemoteAccess => "exit_before_remote_access",
            FindingKind::StreamRace => "stream_race",
        }
    }
}

/// How bad a finding is. `Error` findings make `warpscope check` exit with status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A bug: wrong results or undefined behaviour are possible.
    Error,
    /// Suspicious or wasteful, but not wrong by itself.
    Warning,
    /// Worth knowing, true of this launch only (advice that depends on the launch's shape or
    /// data); never fails a run.
    Note,
}

/// What a memory instruction does to the bytes it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A load.
    Read,
    /// A store.
    Write,
    /// An atomic read-modify-write (`atom`, `red`).
    Atomic,
}

impl AccessKind {
    fn word(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        }
    }
}

/// One shared variable of the kernel: where it lies in the block's shared window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedRegion {
    /// Variable name as the PTX declares it (or `dynamic` for `extern __shared__`).
    pub name: String,
    /// Byte offset in the block's shared window.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// What the hazard checker needs to know about the launch.
#[derive(Clone, Debug)]
pub struct HazardConfig {
    /// Block shape (threads in x, y, z).
    pub block_dim: [u32; 3],
    /// Size of the block's shared window in bytes (static variables plus dynamic shared memory).
    pub shared_size: u32,
    /// The shared variables, dynamic shared memory included, in any order.
    pub regions: Vec<SharedRegion>,
    /// The launch runs in clusters of more than one block, whose other blocks may write this
    /// block's shared memory (distributed shared memory, `mapa`): those writes are not this
    /// block's events, so a read of bytes the block never wrote is no uninitialised read.
    pub cluster_peers: bool,
}

impl HazardConfig {
    fn threads(&self) -> u32 {
        self.block_dim.iter().product()
    }

    fn warps(&self) -> u32 {
        self.threads().div_ceil(32)
    }

    /// The lanes that exist in `warp` (the last warp of a block may be partial).
    fn lanes_of(&self, warp: u32) -> u32 {
        let left = self.threads().saturating_sub(warp * 32);
        if left >= 32 { u32::MAX } else { (1u32 << left) - 1 }
    }

    fn region_of(&self, addr: u64) -> Option<usize> {
        self.regions
            .iter()
            .position(|r| addr >= u64::from(r.offset) && addr < u64::from(r.offset) + u64::from(r.size))
    }

    /// `(x, y, z)` of a linear thread id.
    pub fn thread_xyz(&self, tid: u32) -> [u32; 3] {
        let [bx, by, _] = self.block_dim;
        let bx = bx.max(1);
        let by = by.max(1);
        [tid % bx, (tid / bx) % by, tid / (bx * by)]
    }
}

const NONE: u16 = u16::MAX;

/// [`Acc::flags`]: an atomic (`atom`, `red`).
const ATOMIC: u8 = 1;
/// [`Acc::flags`]: a strong load or store (`volatile`, `.relaxed`, `.acquire`, `.release`).
const STRONG: u8 = 2;
/// [`Acc::flags`]' bits 2-4 of an atomic or strong access: log2 of the bytes of one element, plus
/// 1 (see [`Acc::exempt`]).
const SIZE_SHIFT: u8 = 2;
/// [`Acc::flags`], in [`Cell::w2`] only: a write of the cell's writer's own thread in an earlier
/// barrier interval, which that thread's later write (`Cell::w`) hides, or a plain write of its
/// thread that the thread's own atomic or strong write hid in the same interval. It conflicts only
/// with other threads' later atomic and strong accesses (see [`Acc::hides_from`]), and stays
/// past other threads' atomic and strong writes (until a plain write).
const HIDDEN: u8 = 1 << 7;
/// [`Acc::flags`], in [`Cell::w2`] only: other threads' atomics of this barrier interval that the
/// cell's slots no longer hold are kept beside it (`readers::MoreReads::keep_atomic`): every
/// access is checked against them too (a plain one races with each it is not ordered after). The
/// slots hold two writes; a thread's plain write that its own atomic hid, that atomic, and another
/// thread's atomic are three.
const EXTRA: u8 = 1 << 6;

/// The [`Acc::flags`] size bits of an access of `width` bytes per lane in `vec` elements (0: a
/// scalar).
fn elem_size_bits(width: u8, vec: u8) -> u8 {
    let elem = (width / vec.max(1)).max(1);
    ((elem.trailing_zeros() as u8 + 1).min(7)) << SIZE_SHIFT
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Acc {
    tid: u16,
    /// [`ATOMIC`], [`STRONG`] (0: a plain access).
    flags: u8,
    /// A plain write whose bytes are known (in `HazardSink::vals`), by a thread that neither read
    /// the byte nor wrote other bytes to it earlier in the epoch: a later write of the same bytes
    /// by another thread is a same-value write, not a race. On a cell's second read (`Cell::r2`):
    /// more reads of its epoch are kept beside the cell (see [`readers`]).
    steady: bool,
    epoch: u32,
    wsync: u32,
    pc: u32,
}

impl Acc {
    const EMPTY: Acc = Acc {
        tid: NONE,
        flags: 0,
        steady: false,
        epoch: 0,
        wsync: 0,
        pc: 0,
    };

    fn is_some(&self) -> bool {
        self.tid != NONE
    }

    /// An atomic.
    #[inline(always)]
    fn atomic(&self) -> bool {
        self.flags & ATOMIC != 0
    }

    /// A strong access (an atomic, or a strong load or store).
    #[inline(always)]
    fn strong(&self) -> bool {
        self.flags & (ATOMIC | STRONG) != 0
    }

    /// Whether `self` is a [`HIDDEN`] write that the access `me` is not checked against: a plain
    /// access. A thread that writes a location in one barrier interval and again in a later one,
    /// where another thread's access is ordered after its later write by a release and an
    /// acquire, is ordered after the earlier write too in every schedule when that access is a
    /// plain one (the acquire waited for a value written after both). An atomic or strong
    /// access of the location itself is different: it is how threads synchronise (the lock
    /// word a thread initialised before the barrier, then took and gave back; another thread's
    /// `atomicCAS` on it): in another schedule it comes before the later write, and then only
    /// the barrier orders it after the first, so the barriers between them stay needed.
    #[inline(always)]
    fn hides_from(&self, me: &Acc) -> bool {
        self.flags & HIDDEN != 0 && !me.strong()
    }

    /// Whether `self` and `o` (of different threads) are exempt from racing: two atomics, or two
    /// strong accesses of different warps (every scope holds the threads of one block). Strong
    /// loads and stores of lanes of one warp are not: that is warp-synchronous code relying on
    /// lock step (`volatile` and no `__syncwarp()`), whose results change under independent
    /// thread scheduling (compute-sanitizer's racecheck reports it too). Either way both must
    /// have one element size: an 8-byte and a 4-byte atomic on the same bytes overlap only in
    /// part, which the memory model does not make morally strong.
    #[inline(always)]
    fn exempt(&self, o: &Acc) -> bool {
        (self.flags & o.flags & ATOMIC != 0 || (self.strong() && o.strong() && self.tid / 32 != o.tid / 32))
            && self.flags >> SIZE_SHIFT == o.flags >> SIZE_SHIFT
    }
}

/// The shadow of one byte (or of a whole word's equal bytes): exactly one cache line, so looking a
/// cell up touches one line. A cell was written when `w` is set (only writes set it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Cell {
    w: Acc,
    /// Another thread's atomic in the same epoch as an atomic `w` (atomics of several threads), or a
    /// [`HIDDEN`] write.
    w2: Acc,
    r1: Acc,
    r2: Acc,
}

const _: () = assert!(std::mem::size_of::<Cell>() == 64);

impl Cell {
    const EMPTY: Cell = Cell {
        w: Acc::EMPTY,
        w2: Acc::EMPTY,
        r1: Acc::EMPTY,
        r2: Acc::EMPTY,
    };

    /// Whether the byte was ever written (read before that: uninitialised).
    #[inline(always)]
    fn ever_written(&self) -> bool {
        self.w.is_some()
    }
}

/// One example occurrence of a finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// Linear block id.
    pub block: u32,
    /// Linear thread ids within the block (one or two).
    pub threads: Vec<u32>,
    /// The byte address (shared: offset in the block's window).
    pub address: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Race {
        first_pc: u32,
        second_pc: u32,
        first: u8,
        second: u8,
        intra_warp: bool,
        same_inst: bool,
    },
    Uninit {
        pc: u32,
    },
    OobShared {
        pc: u32,
        outside: bool,
    },
    OobAcross {
        pc: u32,
    },
    Divergent {
        pc: u32,
        what: u8,
    },
    External {
        pc: u32,
        seq: u32,
    },
    DivergentFault {
        pc: u32,
        seq: u32,
    },
    /// Two threads wrote the same bytes (see [`FindingKind::SameValueWrite`]).
    SameValue {
        first_pc: u32,
        second_pc: u32,
        intra_warp: bool,
    },
    /// A fault of the emulator that stops the launch on a GPU (`what`: see [`FaultWhat`]).
    Fault {
        pc: u32,
        what: u8,
    },
    /// A shared access to bytes a `cp.async` has not completed yet (see [`AsyncOps`]).
    InFlight {
        copy_pc: u32,
        pc: u32,
        write: bool,
    },
    /// Accesses to a wgmma's accumulators in flight (see [`crate::wgmma_hazards`]); the first
    /// access's pc is the aggregate's note.
    WgmmaAccum {
        mma_pc: u32,
    },
    /// A shared write to an operand of a wgmma in flight.
    WgmmaOperand {
        mma_pc: u32,
        pc: u32,
    },
    /// A shared read of bytes a bulk or tensor copy writes, before the reader observed the
    /// copy's mbarrier phase (see [`crate::async_proxy`]).
    CopyInFlight {
        copy_pc: u32,
        pc: u32,
    },
    /// An async-proxy read of a generic write with no proxy fence between.
    ProxyFence {
        write_pc: u32,
        pc: u32,
    },
    /// A `wgmma.mma_async` with no `wgmma.fence` (`access_pc`: the register access after the
    /// last fence, or `u32::MAX`: none before the first).
    WgmmaFence {
        mma_pc: u32,
        access_pc: u32,
    },
}

#[derive(Clone, Debug)]
struct Agg {
    count: u64,
    example: Example,
    note: String,
    /// `note` is the whole message (a fault described by the caller, with its place).
    whole: bool,
}

/// What kind of fault a [`Key::Fault`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum FaultWhat {
    Trap = 0,
    ReadOnly = 1,
    FellOffEnd = 2,
    Assert = 3,
    GridDeadlock = 4,
    BadCall = 5,
    StackOverflow = 6,
}

/// The bytes each lane of a store writes: lane `l`'s `width` bytes are `bytes[l][..width]`.
pub type StoreBytes = [[u8; 16]; 32];

/// The values of the warp's last store as the emulator sent them (`Sink::store_values`), until its
/// shared `Store` event comes.
#[derive(Clone, Debug)]
struct StoreStash {
    warp: u32,
    pc: u32,
    elem: u8,
    n: u8,
    rows: [[u64; 32]; 4],
}

/// Barrier bookkeeping of one block, for the redundancy decision.
#[derive(Clone, Debug, Default)]
struct BarrierUse {
    /// Barrier instructions that completed at least one release.
    released: BTreeMap<u32, u64>,
    /// Barrier instructions some conflicting pair needs, with one such pair `(first pc, second pc)`.
    needed: BTreeMap<u32, (u32, u32)>,
    /// Most releases of each barrier instruction in one block.
    most_in_a_block: BTreeMap<u32, u64>,
    /// For barriers that also separate pairs another barrier separates: `(first, second, other)`.
    shared_with: BTreeMap<u32, (u32, u32, u32)>,
}

/// The hazard checker for one block (a sink of that block's emulator events).
///
/// The shadow is kept one cell per 4-byte word while the word's bytes have equal state (the common
/// case: word-sized accesses), and byte by byte once an access splits the word; a word-sized access
/// then merges the bytes back when they agree again. An access to a whole word is one step with
/// every count multiplied by four, which is what four byte steps on equal cells would give.
/// Barrier bookkeeping of pairs separated by barriers is remembered, so repeated pairs skip the map
/// look-ups (those insertions keep the first value, so skipping a repeat changes nothing).
/// [`HazardSink::reference`] turns all of this off: byte by byte, every look-up made; the tests run
/// both on the same launches and compare the findings.
#[derive(Debug)]
pub struct HazardSink {
    config: std::sync::Arc<HazardConfig>,
    block: u32,
    /// The reference path: byte-by-byte shadow, no memo, no fast bounds check.
    reference: bool,
    /// One cell per byte of the window, stored word-major: the cell of byte `b` is at
    /// [`Self::cell`]`(b)`, so the cells that stand for whole words (`b % 4 == 0`) lie next to
    /// each other and the three others of each word (used only while it is split) further on.
    shadow: Vec<Cell>,
    /// The window's size in bytes (the shadow's cells).
    shadow_bytes: usize,
    /// Words in the window (rounded up): the stride between a word's byte cells.
    shadow_words: usize,
    /// Per word: its bytes are tracked one by one (cells `cell(b)` of its four bytes). While false,
    /// the word's first cell stands for all four bytes (they are equal) and the other three are stale.
    split: Vec<bool>,
    epoch: u32,
    release_pc: Vec<u32>,
    run_start: Vec<u32>,
    /// `run_start` of the last release (0 before any).
    run_start_last: u32,
    /// Pairs whose first access is of this epoch or later (and earlier than the current one) need
    /// the barrier of the last release, which `barriers.needed` already holds; `u32::MAX` while it
    /// does not (and always on the reference path).
    needed_from: u32,
    /// Instruction pairs known to be in `weak_pairs` (direct-mapped).
    weak_seen: [Option<(u32, u32)>; WEAK_MEMO],
    wsync: Vec<u32>,
    exited: Vec<bool>,
    n_exited: u32,
    arrivals: Vec<(u32, u32, u32)>,
    /// Warps that arrived at a barrier without waiting (`bar.arrive`) since the last release.
    arrived_only: Vec<u32>,
    pending_lanes: Vec<Vec<(u32, u32)>>,
    weak_pairs: HashMap<(u32, u32), (u32, u32)>,
    barriers: BarrierUse,
    found: BTreeMap<Key, Agg>,
    /// The variable each shared instruction (pc) touched first, `usize::MAX` for none yet (for
    /// accesses that wander off it).
    pc_region: Vec<usize>,
    /// No two shared variables overlap (then an access whose lowest and highest bytes lie in one
    /// variable lies wholly in it).
    disjoint: bool,
    finished: bool,
    /// `cp.async` completion tracking; `None` when the program's group instructions are not known.
    async_copies: Option<InFlightCopies>,
    wgmma: Option<crate::wgmma_hazards::WgmmaTrack>,
    proxy: Option<crate::async_proxy::ProxyTrack>,
    /// Per byte of the window: the bytes its last writer stored, where that writer is `steady`.
    vals: Vec<u8>,
    /// The values of the last store the emulator announced.
    stash: Option<Box<StoreStash>>,
    /// Whether `stash` holds a store not yet matched with its event.
    stash_live: bool,
    /// Per byte of the window: the tensor memory accelerator wrote it (a read of it is no
    /// uninitialised read).
    async_filled: Vec<bool>,
    /// The kernel's synchronising warp collectives (see [`HazardSink::with_warp_sync`]).
    warp_sync: Option<std::sync::Arc<crate::warp_sync::WarpCollectives>>,
    /// Reads of a byte beyond the two its cell keeps (see [`readers`]).
    more: MoreReads,
    /// The block's warp synchronisations that named part of their warp.
    order: WarpOrder,
    /// Strong accesses, fences, release and acquire within the block (see
    /// [`HazardSink::with_sync_ops`]).
    sync: Option<Box<flags::BlockSync>>,
    /// Counted named barriers that ordered part of the block (see [`crate::named_barriers`]).
    named: crate::named_barriers::BarrierOrder,
    /// The barrier the next release is of, when it orders part of the block: `(id, arrived,
    /// waited)` ([`warpscope_emu::Sink::barrier_partial`]).
    partial_next: Option<(u32, u32, u32)>,
    /// Per mbarrier (shared offset): the thread, epoch and instruction of its `mbarrier.init`,
    /// whose block barrier before another thread's arrival or wait on it is needed.
    mbar_inits: HashMap<u64, (u16, u32, u32)>,
}

const WEAK_MEMO: usize = 64;

impl HazardSink {
    /// A checker for block `block` (linear id) of a launch described by `config`.
    pub fn new(config: std::sync::Arc<HazardConfig>, block: u32) -> HazardSink {
        let warps = config.warps() as usize;
        let r = &config.regions;
        let disjoint = (0..r.len()).all(|i| {
            (i + 1..r.len()).all(|j| {
                let (a0, a1) = (
                    u64::from(r[i].offset),
                    u64::from(r[i].offset) + u64::from(r[i].size),
                );
                let (b0, b1) = (
                    u64::from(r[j].offset),
                    u64::from(r[j].offset) + u64::from(r[j].size),
                );
                a0 == a1 || b0 == b1 || a1 <= b0 || b1 <= a0
            })
        });
        HazardSink {
            config,
            block,
            reference: false,
            shadow: Vec::new(),
            shadow_bytes: 0,
            shadow_words: 0,
            split: Vec::new(),
            epoch: 0,
            release_pc: Vec::new(),
            run_start: Vec::new(),
            run_start_last: 0,
            needed_from: u32::MAX,
            weak_seen: [None; WEAK_MEMO],
            wsync: vec![0; warps],
            exited: vec![false; warps],
            n_exited: 0,
            arrivals: Vec::new(),
            arrived_only: Vec::new(),
            pending_lanes: vec![Vec::new(); warps],
            weak_pairs: HashMap::new(),
            barriers: BarrierUse::default(),
            found: BTreeMap::new(),
            pc_region: Vec::new(),
            disjoint,
            finished: false,
            async_copies: None,
            wgmma: None,
            proxy: None,
            vals: Vec::new(),
            stash: None,
            stash_live: false,
            async_filled: Vec::new(),
            warp_sync: None,
            more: MoreReads::default(),
            order: WarpOrder::default(),
            sync: None,
            named: crate::named_barriers::BarrierOrder::new(warps),
            partial_next: None,
            mbar_inits: HashMap::new(),
        }
    }

    /// Follows strong accesses and release/acquire within the block (`ops`: what each
    /// instruction does, [`crate::sync_ops::SyncOps`]): two strong accesses (atomics,
    /// `volatile`, `.relaxed`, `.acquire`, `.release`) never race, and a release (a fence, or a
    /// release operation, then a strong write of a shared or global flag) acquired by another
    /// thread (a strong read of the flag then a fence, or an acquire operation) orders the
    /// accesses before the release before those after the acquire (see `hazards/flags.rs`).
    /// Attach it only to kernels that have such instructions
    /// ([`crate::sync_ops::SyncOps::orders_within_block`]): the others pay nothing.
    pub fn with_sync_ops(mut self, ops: std::sync::Arc<crate::sync_ops::SyncOps>) -> Self {
        let threads = self.config.warps() as usize * 32;
        self.sync = Some(Box::new(flags::BlockSync::new(ops, threads)));
        self
    }

    /// Takes the kernel's synchronising warp collectives (`shfl.sync`, `vote.sync`, `match.sync`,
    /// `redux.sync`) as ordering the warp's lanes, as `__syncwarp()` does (see
    /// [`crate::warp_sync`]).
    pub fn with_warp_sync(mut self, ops: std::sync::Arc<crate::warp_sync::WarpCollectives>) -> Self {
        self.warp_sync = Some(ops);
        self
    }

    /// Tracks `cp.async` copies as in flight from their issue until the issuing thread's
    /// `cp.async.wait_group` / `wait_all` covers them (`ops`: the program's group instructions): a
    /// shared access to their destination bytes before that is a race finding.
    pub fn with_async_ops(mut self, ops: std::sync::Arc<AsyncOps>) -> Self {
        self.async_copies = Some(InFlightCopies {
            ops,
            ..InFlightCopies::default()
        });
        self
    }

    /// Tracks `wgmma.mma_async` accumulators in flight until the warp's `wgmma.wait_group`
    /// (`ops`: the program's instructions, [`crate::wgmma_hazards::WgmmaOps`]).
    pub fn with_wgmma_ops(mut self, ops: std::sync::Arc<crate::wgmma_hazards::WgmmaOps>) -> Self {
        self.wgmma = Some(crate::wgmma_hazards::WgmmaTrack::new(ops));
        self
    }

    /// Tracks bulk and tensor copies until their mbarrier phase is observed, and generic shared
    /// writes until a `fence.proxy.async` (`ops`: [`crate::async_proxy::ProxyOps`]).
    pub fn with_proxy_ops(mut self, ops: std::sync::Arc<crate::async_proxy::ProxyOps>) -> Self {
        self.proxy = Some(crate::async_proxy::ProxyTrack::new(ops));
        self
    }

    fn proxy_hazard(&mut self, h: crate::async_proxy::Hazard) {
        use crate::async_proxy::Hazard;
        let block = self.block;
        match h {
            Hazard::CopyInFlight {
                copy_pc,
                pc,
                issuer,
                thread,
                byte,
            } => self.note(
                Key::CopyInFlight { copy_pc, pc },
                1,
                || Example {
                    block,
                    threads: vec![issuer, thread],
                    address: Some(byte),
                },
                String::new,
            ),
            Hazard::MissingProxyFence {
                write_pc,
                pc,
                writer,
                byte,
            } => self.note(
                Key::ProxyFence { write_pc, pc },
                1,
                || Example {
                    block,
                    threads: vec![writer],
                    address: Some(byte),
                },
                String::new,
            ),
        }
    }

    /// The same checker on its reference path: every byte tracked on its own, every map look-up
    /// made, every lane's bounds checked one by one. Slower; the tests compare it with [`Self::new`].
    pub fn reference(config: std::sync::Arc<HazardConfig>, block: u32) -> HazardSink {
        HazardSink {
            reference: true,
            ..HazardSink::new(config, block)
        }
    }

    fn note(&mut self, key: Key, n: u64, example: impl FnOnce() -> Example, note: impl FnOnce() -> String) {
        match self.found.get_mut(&key) {
            Some(agg) => agg.count += n,
            None => {
                self.found.insert(
                    key,
                    Agg {
                        count: n,
                        example: example(),
                        note: note(),
                        whole: false,
                    },
                );
            }
        }
    }

    fn alloc_shadow(&mut self) {
        let size = self.config.shared_size as usize;
        self.shadow_bytes = size;
        self.shadow_words = size.div_ceil(4);
        self.shadow = vec![Cell::EMPTY; 4 * self.shadow_words];
        self.more = MoreReads::for_cells(self.shadow.len());
        self.vals = vec![0; size];
        self.split = vec![self.reference; self.shadow_words];
        if !size.is_multiple_of(4) {
            // The last word is partial: its bytes are always tracked one by one.
            self.split[size >> 2] = true;
        }
    }

    /// Where the cell of byte `b` of the window is in `shadow` (word-major: byte `b % 4` of every
    /// word, then the next byte of every word).
    #[inline(always)]
    fn cell(&self, b: usize) -> usize {
        (b & 3) * self.shadow_words + (b >> 2)
    }

    /// Tracks the bytes of the word at `word` (a multiple of 4) one by one from now on.
    fn split_word(&mut self, word: usize) {
        let lead_idx = self.cell(word);
        let lead = self.shadow[lead_idx];
        let end = (word + 4).min(self.shadow_bytes);
        for b in word + 1..end {
            let i = self.cell(b);
            self.shadow[i] = lead;
            if lead.r2.steady {
                self.more.copy(lead_idx, i);
            }
            if lead.w2.flags & EXTRA != 0 {
                self.more.copy_atomics(lead_idx, i);
            }
        }
        self.split[word >> 2] = true;
    }

    /// A warp-level shared-memory access: `mask` lanes each touch `width` bytes at `addrs[lane]`
    /// (offsets in the block's shared window). Other spaces are not this checker's business. A
    /// write's bytes are not known here (see [`Self::shared_store`]), so it is never a same-value
    /// write.
    pub fn shared_access(
        &mut self,
        warp: u32,
        pc: u32,
        kind: AccessKind,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
    ) {
        self.access(warp, pc, kind, width, mask, addrs, None);
    }

    /// A plain shared-memory write whose bytes are known: lane `l` writes `bytes[l][..width]`
    /// (`width` at most 16). Where it meets another thread's unordered write of the same bytes,
    /// the pair is a same-value write ([`FindingKind::SameValueWrite`]), not a race.
    pub fn shared_store(
        &mut self,
        warp: u32,
        pc: u32,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
        bytes: &StoreBytes,
    ) {
        let data = (width <= 16).then_some(bytes);
        self.access(warp, pc, AccessKind::Write, width, mask, addrs, data);
    }

    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        warp: u32,
        pc: u32,
        kind: AccessKind,
        width: u8,
        mask: u32,
        addrs: &[u64; 32],
        data: Option<&StoreBytes>,
    ) {
        if mask == 0 || self.finished {
            return;
        }
        self.check_bounds(warp, pc, width, mask, addrs);
        if self.shadow.is_empty() {
            self.alloc_shadow();
        }
        let size = self.shadow_bytes as u64;
        let wsync = self.wsync.get(warp as usize).copied().unwrap_or(0);
        let data = data.filter(|_| kind == AccessKind::Write);
        let mut me = Acc {
            tid: 0,
            flags: if kind == AccessKind::Atomic {
                ATOMIC | elem_size_bits(width, 0)
            } else {
                0
            },
            steady: data.is_some(),
            epoch: self.epoch,
            wsync,
            pc,
        };
        // with release/acquire followed: whether the access is strong, and each lane's stamp in
        // its instruction field (one for the warp when its lanes' stamps agree)
        let mut per_lane = false;
        if let Some(s) = &mut self.sync {
            let op = s.ops.at(pc);
            if kind != AccessKind::Atomic && op.cas_seed {
                // a load that only seeds a compare-and-swap loop: as an atomic read (it races
                // with plain writes, not with atomics, in one warp too)
                me.flags = ATOMIC;
            } else if kind != AccessKind::Atomic && op.strong > 0 {
                me.flags = STRONG;
            }
            if me.flags != 0 {
                me.flags = (me.flags & (ATOMIC | STRONG)) | elem_size_bits(width, op.vec);
            }
            if s.orders {
                if s.uniform(warp, mask) {
                    me.pc = s.field(pc, (warp * 32 + mask.trailing_zeros()) as u16);
                } else {
                    per_lane = true;
                }
            }
        }
        let whole_words = width.is_multiple_of(4) && !self.reference;
        let mut bits = mask;
        if whole_words && !per_lane {
            bits = match kind {
                AccessKind::Read => self.quiet_lanes::<false>(warp, me, width, bits, addrs, None),
                AccessKind::Write => self.quiet_lanes::<true>(warp, me, width, bits, addrs, data),
                AccessKind::Atomic => bits,
            };
        }
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            let tid = warp * 32 + lane;
            me.tid = tid.min(u32::from(NONE) - 1) as u16;
            if per_lane && let Some(s) = &mut self.sync {
                me.pc = s.field(pc, me.tid);
            }
            let start = addrs[lane as usize];
            let lane_bytes = data.map(|d| &d[lane as usize]);
            // the lane writes, over its whole access, the bytes already there (what their last
            // writers wrote)
            let silent = lane_bytes.is_some_and(|b| self.silent(start, width, b));
            let mut uninit = false;
            if whole_words && start & 3 == 0 && start < size && size - start >= u64::from(width) {
                // Aligned whole words inside the window (the common case).
                let mut word = start as usize;
                let end = word + usize::from(width);
                while word < end {
                    uninit |= self.access_word(word, word as u64, me, kind, silent);
                    word += 4;
                }
            } else {
                let end = start.saturating_add(u64::from(width)).min(size);
                let mut b = start;
                while b < end {
                    let word = (b & !3) as usize;
                    if b & 3 == 0 && end - b >= 4 {
                        uninit |= self.access_word(word, b, me, kind, silent);
                        b += 4;
                    } else {
                        if !self.split[word >> 2] {
                            self.split_word(word);
                        }
                        uninit |= self.access_cell(b as usize, b, 1, me, kind, silent);
                        b += 1;
                    }
                }
            }
            if let Some(v) = lane_bytes {
                self.store_vals(start, width, v);
            }
            if uninit && !self.config.as_ref().cluster_peers && !self.filled(start, width) {
                let block = self.block;
                self.note(
                    Key::Uninit { pc },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: Some(start),
                    },
                    String::new,
                );
            }
        }
    }

    /// An access to the whole word at `word` (its first byte `addr`; `silent`: see
    /// [`Self::access_cell`]): one step on the word's cell while its bytes are tracked together,
    /// else byte by byte.
    #[inline(always)]
    fn access_word(&mut self, word: usize, addr: u64, me: Acc, kind: AccessKind, silent: bool) -> bool {
        if !self.split[word >> 2] {
            self.access_cell(word, addr, 4, me, kind, silent)
        } else {
            self.access_split_word(word, me, kind, silent)
        }
    }

    /// Whether every byte `start + k` of the access in the window holds `bytes[k]` already (what
    /// its last writer wrote).
    fn silent(&self, start: u64, width: u8, bytes: &[u8; 16]) -> bool {
        (0..usize::from(width.min(16))).all(|k| {
            let b = start.saturating_add(k as u64) as usize;
            b >= self.vals.len() || self.vals[b] == bytes[k]
        })
    }

    /// Records what a lane wrote.
    fn store_vals(&mut self, start: u64, width: u8, bytes: &[u8; 16]) {
        for (k, &v) in bytes.iter().enumerate().take(usize::from(width.min(16))) {
            if let Some(x) = self.vals.get_mut(start.saturating_add(k as u64) as usize) {
                *x = v;
            }
        }
    }

    /// The common case of [`Self::shared_access`] in one tight loop: a read (`WRITE` false) or a
    /// plain write of aligned whole words inside the window, none split, every lane's access quiet
    /// (see [`Self::quiet`]: no race, no new barrier need, no uninitialised read), so only the cells
    /// change. Goes through `bits` in lane order while that holds and returns the lanes left, from the
    /// first that does not: the lane-by-lane path goes on from there, as if it had done all of them.
    fn quiet_lanes<const WRITE: bool>(
        &mut self,
        warp: u32,
        mut me: Acc,
        width: u8,
        mut bits: u32,
        addrs: &[u64; 32],
        data: Option<&StoreBytes>,
    ) -> u32 {
        let kind = if WRITE {
            AccessKind::Write
        } else {
            AccessKind::Read
        };
        let memo = Memo {
            needed_from: self.needed_from,
            run_start_last: self.run_start_last,
            weak_seen: &self.weak_seen,
            order: &self.order,
        };
        let more = &mut self.more;
        let size = self.shadow_bytes as u64;
        // aligned bytes' cells are the first `shadow_words` ones: word `a / 4` at `a / 4`
        let shadow = &mut self.shadow[..self.shadow_words];
        let split = &self.split[..];
        let vals = &mut self.vals[..];
        let words = usize::from(width / 4);
        while bits != 0 {
            let lane = bits.trailing_zeros();
            let a = addrs[lane as usize];
            if a & 3 != 0 || a >= size || size - a < u64::from(width) {
                return bits;
            }
            me.tid = (warp * 32 + lane).min(u32::from(NONE) - 1) as u16;
            let first = (a >> 2) as usize;
            let bytes = data.map(|d| &d[lane as usize]);
            // the lane rewrites the bytes already there (see `Self::silent`)
            let n = usize::from(width);
            let silent = bytes.is_some_and(|b| vals[a as usize..a as usize + n] == b[..n]);
            if words == 1 {
                let c = &mut shadow[first];
                let quiet = !split[first]
                    && if WRITE {
                        memo.quiet(&c.w, &me)
                            && memo.quiet(&c.r1, &me)
                            && memo.quiet(&c.r2, &me)
                            && memo.quiet(&c.w2, &me)
                            && !more_now(c, &me)
                    } else {
                        c.ever_written() && memo.quiet(&c.w, &me) && memo.quiet(&c.w2, &me)
                    };
                if !quiet {
                    return bits;
                }
                update(c, more, first, memo.order, me, kind, silent);
                if let Some(b) = bytes {
                    vals[a as usize..a as usize + 4].copy_from_slice(&b[..4]);
                }
                bits &= bits - 1;
                continue;
            }
            for k in 0..words {
                let c = &shadow[first + k];
                let quiet = !split[first + k]
                    && if WRITE {
                        memo.quiet(&c.w, &me)
                            && memo.quiet(&c.r1, &me)
                            && memo.quiet(&c.r2, &me)
                            && memo.quiet(&c.w2, &me)
                            && !more_now(c, &me)
                    } else {
                        c.ever_written() && memo.quiet(&c.w, &me) && memo.quiet(&c.w2, &me)
                    };
                if !quiet {
                    return bits;
                }
            }
            for k in 0..words {
                update(
                    &mut shadow[first + k],
                    more,
                    first + k,
                    memo.order,
                    me,
                    kind,
                    silent,
                );
            }
            if let Some(b) = bytes {
                vals[a as usize..a as usize + n].copy_from_slice(&b[..n]);
            }
            bits &= bits - 1;
        }
        0
    }

    /// An access to all four bytes of the split word at `word`, byte by byte (`silent`: see
    /// [`Self::access_cell`]); the word is merged back when its bytes agree afterwards (not on the
    /// reference path).
    fn access_split_word(&mut self, word: usize, me: Acc, kind: AccessKind, silent: bool) -> bool {
        let mut uninit = false;
        for i in 0..4 {
            uninit |= self.access_cell(word + i, (word + i) as u64, 1, me, kind, silent);
        }
        if !self.reference {
            self.merge_word(word);
        }
        uninit
    }

    /// Tracks the split word at `word` as one cell again when its four bytes agree.
    fn merge_word(&mut self, word: usize) {
        let lead_idx = self.cell(word);
        let lead = self.shadow[lead_idx];
        if (1..4).all(|i| {
            let c = self.cell(word + i);
            self.shadow[c] == lead
                && (!lead.r2.steady || self.more.same(lead_idx, c))
                && (lead.w2.flags & EXTRA == 0 || self.more.atomics(lead_idx) == self.more.atomics(c))
        }) {
            self.split[word >> 2] = false;
            for i in 1..4 {
                let c = self.cell(word + i);
                if lead.r2.steady {
                    self.more.remove(c);
                }
                if lead.w2.flags & EXTRA != 0 {
                    self.more.retain_atomics(c, None);
                }
            }
        }
    }

    /// Updates one cell's shadow (of byte `byte`, or a whole word's equal bytes: `n` = 4, counted
    /// as four byte accesses); `addr` is its first byte; `silent`: a write whose every byte
    /// rewrites what is there (what each byte's last writer wrote). Returns whether a read saw a
    /// never-written byte.
    #[inline(always)]
    fn access_cell(
        &mut self,
        byte: usize,
        addr: u64,
        n: u64,
        me: Acc,
        kind: AccessKind,
        silent: bool,
    ) -> bool {
        let idx = self.cell(byte);
        // The common case first: no pair with an effect (no race, no barrier need not yet
        // recorded) and no uninitialised read; then only the cell changes.
        let c = &self.shadow[idx];
        let quiet = match kind {
            AccessKind::Read => c.ever_written() && self.quiet(&c.w, &me) && self.quiet(&c.w2, &me),
            AccessKind::Write => {
                self.quiet(&c.w, &me)
                    && self.quiet(&c.r1, &me)
                    && self.quiet(&c.r2, &me)
                    && self.quiet(&c.w2, &me)
                    && !more_now(c, &me)
            }
            AccessKind::Atomic => false,
        };
        if quiet {
            update(
                &mut self.shadow[idx],
                &mut self.more,
                idx,
                &self.order,
                me,
                kind,
                silent,
            );
            false
        } else {
            self.access_cell_slow(idx, addr, n, me, kind, silent)
        }
    }

    /// [`Self::access_cell`] when some pair may have an effect or the read may be uninitialised.
    #[inline(never)]
    fn access_cell_slow(
        &mut self,
        idx: usize,
        addr: u64,
        n: u64,
        me: Acc,
        kind: AccessKind,
        silent: bool,
    ) -> bool {
        let c = &self.shadow[idx];
        let uninit = match kind {
            AccessKind::Read | AccessKind::Atomic => !c.ever_written(),
            AccessKind::Write => false,
        };
        let (w, r1, r2, w2) = (c.w, c.r1, c.r2, c.w2);
        let w_kind = if w.atomic() {
            AccessKind::Atomic
        } else {
            AccessKind::Write
        };
        let more = kind != AccessKind::Read && more_now(c, &me);
        let mut me = me;
        if more && me.steady && self.more.has_thread(idx, me.tid, me.epoch) {
            // its thread read the byte earlier in the epoch (see `Acc::steady`)
            me.steady = false;
        }
        // Both plain writes of known bytes, the second rewriting the first's.
        let same = silent && w.steady && steady_after(c, me, kind, silent);
        // Earlier accesses this one conflicts with, in a fixed order: the writer, the readers (for a
        // write or an atomic: the cell's two, then the others kept beside it), the second atomic
        // writer.
        self.conflict(w, w_kind, me, kind, addr, n, same);
        if kind != AccessKind::Read {
            self.conflict(r1, AccessKind::Read, me, kind, addr, n, false);
            self.conflict(r2, AccessKind::Read, me, kind, addr, n, false);
            if more {
                let groups = self.more.get(idx).to_vec();
                for r in groups.iter().flat_map(|g| g.reads()) {
                    self.conflict(r, AccessKind::Read, me, kind, addr, n, false);
                }
            }
        }
        let w2_kind = if w2.atomic() {
            AccessKind::Atomic
        } else {
            AccessKind::Write
        };
        let extra = w2.flags & EXTRA != 0;
        let w2 = Acc {
            flags: w2.flags & !EXTRA,
            ..w2
        };
        self.conflict(w2, w2_kind, me, kind, addr, n, false);
        if extra {
            let kept = self.more.atomics(idx).to_vec();
            for a in kept {
                self.conflict(a, AccessKind::Atomic, me, kind, addr, n, false);
            }
        }
        update(
            &mut self.shadow[idx],
            &mut self.more,
            idx,
            &self.order,
            me,
            kind,
            silent,
        );
        uninit
    }

    /// `other` (an earlier access of the cell, when set) and `me` conflict unless one thread made
    /// both or they are exempt ([`Acc::exempt`]) in one epoch. Exempt accesses (atomics, strong
    /// accesses of two warps) of different epochs still make the barriers between them needed: they
    /// are no data race either way, but a barrier decides which value the later one sees (the
    /// `volatile` reduction step whose reads of another warp's sums wait for a barrier).
    #[allow(clippy::too_many_arguments)]
    fn conflict(
        &mut self,
        other: Acc,
        other_kind: AccessKind,
        me: Acc,
        kind: AccessKind,
        addr: u64,
        n: u64,
        same: bool,
    ) {
        if other.is_some()
            && other.tid != me.tid
            && (other.epoch != me.epoch || !other.exempt(&me))
            && !other.hides_from(&me)
        {
            self.pair(other, other_kind, me, kind, addr, n, same);
        }
    }

    /// Whether the earlier access `other` and `me` (an access of the current epoch) make no pair
    /// whose [`Self::pair`] would change anything (see [`Memo::quiet`]).
    #[inline(always)]
    fn quiet(&self, other: &Acc, me: &Acc) -> bool {
        Memo {
            needed_from: self.needed_from,
            run_start_last: self.run_start_last,
            weak_seen: &self.weak_seen,
            order: &self.order,
        }
        .quiet(other, me)
    }

    /// A conflicting pair of accesses from different threads (`n` byte accesses with the same
    /// outcome, the first at `addr`): a race (a same-value write when `same`: both plain writes
    /// of the same bytes), or a reason for barriers.
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &mut self,
        first: Acc,
        first_kind: AccessKind,
        second: Acc,
        second_kind: AccessKind,
        addr: u64,
        n: u64,
        same: bool,
    ) {
        let same_warp = u32::from(first.tid) / 32 == u32::from(second.tid) / 32;
        let (mut first, mut second) = (first, second);
        if let Some(s) = &self.sync {
            if first.epoch == second.epoch && s.ordered(&first, &second, &self.order, &self.named) {
                return; // ordered by a release and an acquire
            }
            // the instructions, not their stamps
            first.pc = s.pc_of(first.pc);
            second.pc = s.pc_of(second.pc);
        }
        if first.epoch == second.epoch {
            if same_warp && warp_ordered(&self.order, &first, &second) {
                return; // ordered by __syncwarp()
            }
            if !same_warp
                && self
                    .named
                    .ordered(u32::from(first.tid) / 32, first.wsync, u32::from(second.tid) / 32)
            {
                return; // ordered by named barriers of part of the block
            }
            let block = self.block;
            let (t1, t2) = (u32::from(first.tid), u32::from(second.tid));
            if same {
                self.note(
                    Key::SameValue {
                        first_pc: first.pc,
                        second_pc: second.pc,
                        intra_warp: same_warp,
                    },
                    n,
                    || Example {
                        block,
                        threads: vec![t1, t2],
                        address: Some(addr),
                    },
                    String::new,
                );
                return;
            }
            let same_inst = same_warp && first.pc == second.pc && first_kind == second_kind;
            let key = Key::Race {
                first_pc: first.pc,
                second_pc: second.pc,
                first: first_kind as u8,
                second: second_kind as u8,
                intra_warp: same_warp,
                same_inst,
            };
            self.note(
                key,
                n,
                || Example {
                    block,
                    threads: vec![t1, t2],
                    address: Some(addr),
                },
                || format!("{}-{}", first_kind.word(), second_kind.word()),
            );
            return;
        }
        // Separated by the releases first.epoch .. second.epoch - 1.
        let last = second.epoch as usize - 1;
        let Some(&last_pc) = self.release_pc.get(last) else {
            return;
        };
        if self.run_start[last] <= first.epoch {
            self.barriers
                .needed
                .entry(last_pc)
                .or_insert((first.pc, second.pc));
            if last + 1 == self.release_pc.len() && !self.reference {
                self.needed_from = self.run_start_last;
            }
        } else {
            let key = (first.pc, second.pc);
            self.weak_pairs.entry(key).or_insert((first.epoch, second.epoch));
            if !self.reference {
                self.weak_seen[weak_slot(key)] = Some(key);
            }
        }
    }

    fn check_bounds(&mut self, warp: u32, pc: u32, width: u8, mask: u32, addrs: &[u64; 32]) {
        if !self.reference && self.disjoint && self.bounds_fast(pc, width, mask, addrs) {
            return;
        }
        let cfg = std::sync::Arc::clone(&self.config);
        let lane0 = mask.trailing_zeros();
        if let Some(r) = cfg.region_of(addrs[lane0 as usize]) {
            let first = self.first_region(pc, r);
            if first != r {
                let block = self.block;
                let tid = warp * 32 + lane0;
                let addr = addrs[lane0 as usize];
                let note = format!(
                    "it touched `{}` before and now `{}` (an index past the end of `{}`, or one pointer used for both)",
                    cfg.regions[first].name, cfg.regions[r].name, cfg.regions[first].name
                );
                self.note(
                    Key::OobAcross { pc },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: Some(addr),
                    },
                    || note,
                );
            }
        }
        let mut regions = [usize::MAX; 2];
        let mut bits = mask;
        while bits != 0 {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            let first = addrs[lane as usize];
            let last = first + u64::from(width.max(1)) - 1;
            let tid = warp * 32 + lane;
            let block = self.block;
            if last >= u64::from(cfg.shared_size) {
                self.note(
                    Key::OobShared { pc, outside: true },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: Some(first),
                    },
                    || format!("the block has {} bytes of shared memory", cfg.shared_size),
                );
                continue;
            }
            let (a, b) = (cfg.region_of(first), cfg.region_of(last));
            let straddles = a != b || a.is_none();
            let r = a.unwrap_or(usize::MAX - 1);
            let mixed = if regions[0] == usize::MAX {
                regions[0] = r;
                false
            } else {
                regions[0] != r
            };
            if straddles || (mixed && regions[1] == usize::MAX) {
                if mixed {
                    regions[1] = r;
                }
                let name = |i: Option<usize>| {
                    i.map_or_else(
                        || "no variable".to_string(),
                        |i| format!("`{}`", cfg.regions[i].name),
                    )
                };
                let note = if straddles {
                    format!("the access spans {} and {}", name(a), name(b))
                } else {
                    format!(
                        "lanes of one instruction touch {} and {}",
                        name(Some(regions[0]).filter(|&i| i < cfg.regions.len())),
                        name(a)
                    )
                };
                self.note(
                    Key::OobShared { pc, outside: false },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: Some(first),
                    },
                    || note,
                );
            }
        }
    }

    /// The variable `pc` touched first, recording `r` when it had touched none.
    fn first_region(&mut self, pc: u32, r: usize) -> usize {
        let i = pc as usize;
        if i >= self.pc_region.len() {
            self.pc_region.resize(i + 1, usize::MAX);
        }
        if self.pc_region[i] == usize::MAX {
            self.pc_region[i] = r;
        }
        self.pc_region[i]
    }

    /// The common case of [`Self::check_bounds`] in one step: every lane's bytes lie in one variable,
    /// the one this instruction touched first (then the lane-by-lane check notes nothing). Returns
    /// false when the lane-by-lane check must decide.
    fn bounds_fast(&mut self, pc: u32, width: u8, mask: u32, addrs: &[u64; 32]) -> bool {
        let (lo, hi) = if mask == u32::MAX {
            // A full warp: no mask to walk; four independent chains.
            let (mut lo, mut hi) = ([u64::MAX; 4], [0u64; 4]);
            for q in addrs.chunks_exact(4) {
                for k in 0..4 {
                    lo[k] = lo[k].min(q[k]);
                    hi[k] = hi[k].max(q[k]);
                }
            }
            (
                lo[0].min(lo[1]).min(lo[2].min(lo[3])),
                hi[0].max(hi[1]).max(hi[2].max(hi[3])),
            )
        } else {
            let (mut lo, mut hi) = (u64::MAX, 0u64);
            let mut bits = mask;
            while bits != 0 {
                let a = addrs[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                lo = lo.min(a);
                hi = hi.max(a);
            }
            (lo, hi)
        };
        let Some(last) = hi.checked_add(u64::from(width.max(1)) - 1) else {
            return false;
        };
        let Some(r) = self.config.region_of(lo) else {
            return false;
        };
        let reg = &self.config.regions[r];
        if last >= u64::from(self.config.shared_size) || last >= u64::from(reg.offset) + u64::from(reg.size) {
            return false;
        }
        self.first_region(pc, r) == r
    }
    /// A warp arrived at a barrier. `block_wide` is true for `bar.sync`/`__syncthreads()`, false for
    /// `__syncwarp()`; `active` are the lanes that execute it.
    pub fn barrier(&mut self, warp: u32, pc: u32, active: u32, block_wide: bool) {
        let w = warp as usize;
        if !block_wide {
            if let Some(s) = self.wsync.get_mut(w) {
                *s += 1;
                // a member mask that leaves lanes out orders only those it names, and only the
                // lanes that execute it (not those that exited before it)
                let mask = self.warp_sync.as_ref().map_or(u32::MAX, |o| o.mask(pc));
                let lanes = self.config.lanes_of(warp);
                self.order.sync(warp, *s, mask & active, lanes);
            }
            return;
        }
        self.arrivals.push((warp, pc, active));
        let missing = self.config.lanes_of(warp) & !active;
        if missing != 0
            && let Some(p) = self.pending_lanes.get_mut(w)
        {
            match p.iter_mut().find(|(p, _)| *p == pc) {
                Some(entry) => entry.1 |= missing,
                None => p.push((pc, missing)),
            }
        }
    }

    /// Lanes `active` of `warp` executed an instruction (used to tell lanes that skipped a barrier and
    /// went on from lanes that had exited).
    pub fn inst(&mut self, warp: u32, active: u32) {
        let Some(pending) = self.pending_lanes.get_mut(warp as usize) else {
            return;
        };
        if pending.is_empty() {
            return;
        }
        let block = self.block;
        let mut hits = Vec::new();
        pending.retain(|&(pc, missing)| {
            let live = missing & active;
            if live != 0 {
                hits.push((pc, live));
                false
            } else {
                true
            }
        });
        for (pc, live) in hits {
            let tid = warp * 32 + live.trailing_zeros();
            self.note(
                Key::Divergent { pc, what: 0 },
                1,
                || Example {
                    block,
                    threads: vec![tid],
                    address: None,
                },
                || format!("lanes {} of warp {warp} skipped it and went on", lanes(live)),
            );
        }
    }

    /// A block-wide barrier released (every non-exited warp arrived).
    pub fn barrier_release(&mut self, pc: u32) {
        let g = self.release_pc.len() as u32;
        let start = if g > 0 && self.release_pc[g as usize - 1] == pc {
            self.run_start[g as usize - 1]
        } else {
            g
        };
        self.release_pc.push(pc);
        self.run_start.push(start);
        self.epoch += 1;
        if let Some(s) = &mut self.sync {
            s.new_epoch(self.epoch);
        }
        self.run_start_last = start;
        self.needed_from = if !self.reference && self.barriers.needed.contains_key(&pc) {
            start
        } else {
            u32::MAX
        };
        *self.barriers.released.entry(pc).or_insert(0) += 1;
        let arrivals = std::mem::take(&mut self.arrivals);
        let block = self.block;
        let mut arrived = vec![false; self.exited.len()];
        let only = std::mem::take(&mut self.arrived_only);
        for w in arrivals.iter().map(|a| a.0).chain(only) {
            if let Some(a) = arrived.get_mut(w as usize) {
                *a = true;
            }
        }
        let absent: Vec<u32> = (0..arrived.len() as u32)
            .filter(|&w| !arrived[w as usize] && self.exited[w as usize])
            .collect();
        let pcs: BTreeSet<u32> = arrivals.iter().map(|a| a.1).collect();
        for &(w, apc, _) in &arrivals {
            if !absent.is_empty() {
                let list = absent
                    .iter()
                    .map(|w| w.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                self.note(
                    Key::Divergent { pc: apc, what: 1 },
                    1,
                    || Example {
                        block,
                        threads: vec![w * 32],
                        address: None,
                    },
                    || format!("warp(s) {list} had exited and never reached it"),
                );
            }
            if pcs.len() > 1 {
                let others: Vec<u32> = pcs.iter().copied().filter(|&p| p != apc).collect();
                self.note(
                    Key::Divergent { pc: apc, what: 2 },
                    1,
                    || Example {
                        block,
                        threads: vec![w * 32],
                        address: None,
                    },
                    || format!("released together with warps waiting at other barrier(s) {others:?}"),
                );
            }
        }
    }

    /// `warp` exited. When the block's last warp exits the block is finished (see [`Self::finish`]).
    pub fn warp_exit(&mut self, warp: u32) {
        if let Some(e) = self.exited.get_mut(warp as usize)
            && !*e
        {
            *e = true;
            self.n_exited += 1;
        }
        if self.n_exited as usize == self.exited.len() {
            self.finish();
        }
    }

    /// Closes the block: resolves barrier needs, reports lanes that skipped barriers and exited, and
    /// frees the shadow memory. Idempotent; called by [`Self::warp_exit`] for the last warp.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        // Keep only what the merge needs: findings and barrier use.
        self.shadow = Vec::new();
        self.sync = None;
        self.more.clear();
        self.order = WarpOrder::default();
        self.vals = Vec::new();
        self.stash = None;
        self.wsync = Vec::new();
        self.exited = Vec::new();
        self.arrivals = Vec::new();
        self.arrived_only = Vec::new();
        self.pc_region = Vec::new();
        let block = self.block;
        let pending = std::mem::take(&mut self.pending_lanes);
        for (w, list) in pending.into_iter().enumerate() {
            for (pc, missing) in list {
                let tid = w as u32 * 32 + missing.trailing_zeros();
                self.note(
                    Key::Divergent { pc, what: 3 },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: None,
                    },
                    || {
                        format!(
                            "lanes {} of warp {w} had exited and never reached it",
                            lanes(missing)
                        )
                    },
                );
            }
        }
        let mut weak: Vec<((u32, u32), (u32, u32))> = self.weak_pairs.drain().collect();
        weak.sort_unstable();
        for ((pa, pb), (e1, e2)) in weak {
            let range = &self.release_pc[e1 as usize..e2 as usize];
            let keeper = range
                .iter()
                .rev()
                .copied()
                .find(|p| self.barriers.needed.contains_key(p));
            let keeper = keeper.unwrap_or(range[range.len() - 1]);
            self.barriers.needed.entry(keeper).or_insert((pa, pb));
            for &p in range {
                if p != keeper {
                    self.barriers.shared_with.entry(p).or_insert((pa, pb, keeper));
                }
            }
        }
        self.release_pc = Vec::new();
        self.run_start = Vec::new();
        self.weak_pairs = HashMap::new();
    }
}

/// What the race tracker remembers of the barrier bookkeeping, to tell quiet pairs without it.
struct Memo<'a> {
    needed_from: u32,
    run_start_last: u32,
    weak_seen: &'a [Option<(u32, u32)>; WEAK_MEMO],
    order: &'a WarpOrder,
}

impl Memo<'_> {
    /// Whether the earlier access `other` and `me` (an access of the current epoch) make no pair
    /// whose `HazardSink::pair` would change anything: no conflict, ordered by `__syncwarp()`, or
    /// separated by barriers whose bookkeeping already has this pair's entry.
    #[inline(always)]
    fn quiet(&self, other: &Acc, me: &Acc) -> bool {
        if other.flags & EXTRA != 0 {
            return false; // the atomics kept beside the cell are checked on the slow path
        }
        if other.tid == NONE || other.tid == me.tid || other.hides_from(me) {
            return true;
        }
        if other.epoch == me.epoch {
            return other.exempt(me)
                || (u32::from(other.tid) / 32 == u32::from(me.tid) / 32
                    && warp_ordered(self.order, other, me));
        }
        if other.epoch >= self.needed_from {
            return true;
        }
        let key = (other.pc, me.pc);
        other.epoch < self.run_start_last && self.weak_seen[weak_slot(key)] == Some(key)
    }
}

/// The direct-mapped slot of an instruction pair in `HazardSink::weak_seen`.
fn weak_slot((a, b): (u32, u32)) -> usize {
    (a.wrapping_mul(0x9E37_79B9) ^ b) as usize % WEAK_MEMO
}

/// Whether `me` (of kind `kind`; `silent`: see [`update`]) leaves the cell `c` with a steady writer
/// (see `Acc::steady`): a plain write of known bytes, unless its thread read the byte earlier in
/// the epoch or wrote other bytes (or bytes not known) to it earlier in the epoch.
#[inline(always)]
fn steady_after(c: &Cell, me: Acc, kind: AccessKind, silent: bool) -> bool {
    let mine = |a: &Acc| a.is_some() && a.tid == me.tid && a.epoch == me.epoch;
    kind == AccessKind::Write
        && me.steady
        && !mine(&c.r1)
        && !mine(&c.r2)
        && (!mine(&c.w) || (c.w.steady && silent))
}

/// Whether `a` (an earlier access of `b`'s warp and epoch) happens before `b` through the warp's
/// synchronisations (`__syncwarp`, synchronising collectives; see [`crate::warp_sync`]).
#[inline(always)]
fn warp_ordered(order: &WarpOrder, a: &Acc, b: &Acc) -> bool {
    if !order.any() {
        return a.wsync != b.wsync;
    }
    order.ordered(
        u32::from(b.tid) / 32,
        u32::from(a.tid) % 32,
        a.wsync,
        u32::from(b.tid) % 32,
        b.wsync,
    )
}

/// Whether `a` is a read of `b`'s warp, instruction, epoch and `__syncwarp` count (another lane
/// of the same read).
#[inline(always)]
fn alike(a: &Acc, b: &Acc) -> bool {
    a.tid / 32 == b.tid / 32 && a.pc == b.pc && a.epoch == b.epoch && a.wsync == b.wsync
}

/// Whether cell `c` keeps reads of `me`'s epoch beside it (in [`MoreReads`]), which a write
/// must be checked against.
#[inline(always)]
fn more_now(c: &Cell, me: &Acc) -> bool {
    c.r2.steady && c.r2.epoch == me.epoch
}

/// A cell's new state after `me` (of kind `kind`) accessed it (`idx`: its index, for the reads
/// kept beside it in `more`); `silent`: a write whose every byte rewrites what its last writer
/// wrote.
#[inline(always)]
fn update(
    c: &mut Cell,
    more: &mut MoreReads,
    idx: usize,
    order: &WarpOrder,
    me: Acc,
    kind: AccessKind,
    silent: bool,
) {
    match kind {
        AccessKind::Read => {
            if !c.r1.is_some() || c.r1.epoch != me.epoch {
                if c.r2.steady {
                    more.remove(idx);
                }
                // An earlier interval's read of another thread stays in `r2` until a second
                // thread reads in this one: a later write of `me`'s thread still conflicts with
                // it, and the barriers between them are needed (a thread that re-reads its own
                // element after a barrier, then writes it, while its neighbour read it before).
                let old = [c.r1, c.r2]
                    .into_iter()
                    .find(|a| a.is_some() && a.tid != me.tid && a.epoch != me.epoch);
                c.r1 = me;
                c.r2 = old.map_or(Acc::EMPTY, |a| Acc { steady: false, ..a });
            } else if c.r1.tid != me.tid && (!c.r2.is_some() || c.r2.tid == me.tid || c.r2.epoch != me.epoch)
            {
                c.r2 = Acc {
                    steady: c.r2.steady,
                    ..me
                };
            } else if c.r1.tid == me.tid {
                c.r1 = me;
            } else if order.any() || !alike(&c.r1, &me) || !alike(&c.r2, &me) {
                // a third thread's read: kept beside the cell, which says so
                more.add(idx, me, order);
                c.r2.steady = true;
            }
            // else: the cell's two reads are of `me`'s warp, instruction and `__syncwarp` count
            // (lanes of one read): a write that races with `me` races with one of them too, as
            // the same pair of instructions
        }
        AccessKind::Write | AccessKind::Atomic => {
            let old_w = c.w;
            let had_extra = c.w2.flags & EXTRA != 0;
            let old_w2 = Acc {
                flags: c.w2.flags & !EXTRA,
                ..c.w2
            };
            let steady = steady_after(c, me, kind, silent);
            let keep = kind == AccessKind::Atomic && c.w.is_some() && c.w.atomic() && c.w.epoch == me.epoch;
            // a hidden write stays past atomic and strong writes of any thread: a third thread's
            // strong access may be unordered with it though the first was not (only a plain
            // write, which the cell's writer checks, replaces it) -- except a hidden write of an
            // earlier interval where another thread's atomic of this interval would be lost: that
            // atomic still races with later plain accesses, while the earlier interval's write is
            // ordered before them by the barrier between
            let hidden_stays = old_w2.flags & HIDDEN != 0
                && me.strong()
                && !(keep && c.w.tid != me.tid && old_w2.epoch != me.epoch);
            let mut w2 = if me.strong() && old_w.is_some() && old_w.tid == me.tid && !old_w.strong() {
                // its own plain write (of this barrier interval or an earlier one), hidden by
                // this strong write: checked against other threads' atomic and strong accesses
                Acc {
                    flags: old_w.flags | HIDDEN,
                    steady: false,
                    ..old_w
                }
            } else if hidden_stays {
                old_w2
            } else if keep && c.w.tid != me.tid {
                c.w
            } else if keep {
                old_w2
            } else if old_w.is_some() && old_w.tid == me.tid && old_w.epoch != me.epoch {
                // its own write of an earlier barrier interval, hidden by this one
                Acc {
                    flags: old_w.flags | HIDDEN,
                    steady: false,
                    ..old_w
                }
            } else if old_w.is_some() && old_w.tid == me.tid && old_w2.flags & HIDDEN != 0 {
                old_w2
            } else {
                Acc::EMPTY
            };
            // Another thread's atomic of this interval that the slots would lose: a later plain
            // access not ordered after it races with it, whatever it is ordered after (the
            // atomic of a third thread, or this thread's own, which a HIDDEN write keeps company).
            // It takes an empty `w2`, or is kept beside the cell (`EXTRA`). A plain write ends the
            // kept ones (one it does not follow races with it, and what is not ordered after the
            // plain write is not after the others either); the atomic it replaces as the cell's
            // writer takes an empty `w2` (a later access it does not follow is named with it).
            let lost = |a: &Acc, w2: &Acc| {
                a.is_some()
                    && a.atomic()
                    && a.flags & HIDDEN == 0
                    && a.tid != me.tid
                    && a.epoch == me.epoch
                    && !(a.tid == w2.tid && a.pc == w2.pc && a.wsync == w2.wsync && a.epoch == w2.epoch)
            };
            let mut extra = false;
            if me.strong() {
                extra = had_extra && more.retain_atomics(idx, Some(me.epoch));
                for a in [old_w, old_w2] {
                    if !lost(&a, &w2) {
                        continue;
                    }
                    if w2.is_some() {
                        more.keep_atomic(idx, a);
                        extra = true;
                    } else {
                        w2 = Acc { steady: false, ..a };
                    }
                }
            } else {
                if had_extra {
                    more.retain_atomics(idx, None);
                }
                if !w2.is_some() && lost(&old_w, &w2) {
                    w2 = Acc {
                        steady: false,
                        ..old_w
                    };
                }
            }
            if extra {
                w2.flags |= EXTRA;
            }
            c.w2 = w2;
            c.w = me;
            c.w.steady = steady;
            // A write conflicts with whatever the earlier reads would; an atomic does not conflict
            // with later atomics, so the readers stay.
            if kind == AccessKind::Write {
                if c.r2.steady {
                    more.remove(idx);
                }
                c.r1 = Acc::EMPTY;
                c.r2 = Acc::EMPTY;
            }
        }
    }
}

/// A named barrier's thread count as a finding says it.
fn count_words(c: Option<u32>) -> String {
    match c {
        Some(c) => format!("a thread count of {c}"),
        None => "no thread count (every thread of the block)".to_string(),
    }
}

fn lanes(mask: u32) -> String {
    let v: Vec<String> = (0..32)
        .filter(|l| mask >> l & 1 == 1)
        .map(|l| l.to_string())
        .collect();
    if v.len() > 8 {
        format!("{} ({} lanes)", v[..4].join(",") + ",...", v.len())
    } else {
        v.join(",")
    }
}

/// Hazards of a whole launch: the blocks' results merged in block order.
#[derive(Debug, Default)]
pub struct HazardReport {
    config: Option<std::sync::Arc<HazardConfig>>,
    found: BTreeMap<Key, Agg>,
    barriers: BarrierUse,
    external: u32,
    /// The kernel's loops, `[first pc, last pc]` (see [`HazardReport::with_loops`]).
    loops: Vec<[u32; 2]>,
    /// Global memory was checked too (see [`HazardReport::global_needs`]).
    global: bool,
}

/// Names an instruction for messages: its source line (if known) and a label such as `line 12` or
/// `PTX line 40`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// Source line (from `.loc`), if any.
    pub line: Option<u32>,
    /// How messages name the instruction.
    pub label: String,
}

/// One finding of `warpscope check`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// How bad it is.
    pub severity: Severity,
    /// The main source line (the second access of a race), if known.
    pub line: Option<u32>,
    /// Every source line involved.
    pub lines: Vec<u32>,
    /// Instruction indices involved (`pc`), in the same order.
    pub pcs: Vec<u32>,
    /// One line of explanation.
    pub message: String,
    /// How many times it happened: byte accesses for races and reads, faulting blocks, barrier
    /// releases (redundant barriers: of the first unrolled copy reported), ...
    pub count: u64,
    /// One occurrence.
    pub example: Example,
}

impl HazardReport {
    /// An empty report for a launch.
    pub fn new(config: std::sync::Arc<HazardConfig>) -> HazardReport {
        HazardReport {
            config: Some(config),
            ..HazardReport::default()
        }
    }

    /// The kernel's loops as `[first pc, last pc]` (a backward branch and its target): a barrier
    /// inside one that only this launch's trip count makes removable is reported as a note that
    /// says so (see [`Self::findings`]).
    pub fn with_loops(mut self, loops: Vec<[u32; 2]>) -> HazardReport {
        self.loops = loops;
        self
    }

    /// Global memory was checked too: `needed` are the barriers that order conflicting global
    /// accesses of a block's threads (with one such pair of instructions), which are not redundant
    /// either (see [`crate::global_races`]).
    pub fn global_needs(&mut self, needed: impl IntoIterator<Item = (u32, (u32, u32))>) {
        self.global = true;
        for (pc, pair) in needed {
            self.barriers.needed.entry(pc).or_insert(pair);
        }
    }

    /// Folds in a finished block (call in block order for deterministic examples).
    pub fn merge(&mut self, mut sink: HazardSink) {
        sink.finish();
        if self.config.is_none() {
            self.config = Some(std::sync::Arc::clone(&sink.config));
        }
        for (k, agg) in sink.found {
            match self.found.get_mut(&k) {
                Some(a) => a.count += agg.count,
                None => {
                    self.found.insert(k, agg);
                }
            }
        }
        for (pc, n) in sink.barriers.released {
            *self.barriers.released.entry(pc).or_insert(0) += n;
            let most = self.barriers.most_in_a_block.entry(pc).or_insert(0);
            *most = (*most).max(n);
        }
        for (pc, pair) in sink.barriers.needed {
            self.barriers.needed.entry(pc).or_insert(pair);
        }
        for (pc, t) in sink.barriers.shared_with {
            self.barriers.shared_with.entry(pc).or_insert(t);
        }
    }

    /// Adds a fault the emulator reported as an out-of-bounds access (global or shared), e.g. from an
    /// `EmuFault`: `what` says which access and allocation (the message adds ` at PLACE`).
    pub fn push_out_of_bounds(&mut self, block: u32, thread: u32, pc: u32, address: u64, what: String) {
        self.push_external(
            Key::External { pc, seq: 0 },
            block,
            thread,
            Some(address),
            what,
            false,
        );
    }

    fn push_external(
        &mut self,
        key: Key,
        block: u32,
        thread: u32,
        address: Option<u64>,
        note: String,
        whole: bool,
    ) {
        self.external += 1;
        self.found.entry(key).and_modify(|a| a.count += 1).or_insert(Agg {
            count: 1,
            example: Example {
                block,
                threads: vec![thread],
                address,
            },
            note,
            whole,
        });
    }

    /// Takes a fault of the emulator that is a finding: out-of-bounds and misaligned accesses become
    /// `out_of_bounds`; a barrier the block could not complete, or a grid-wide barrier some block
    /// never reaches, `divergent_barrier`; a failing device `assert` an `assert`; a `trap`, a store
    /// to read-only memory or execution past the kernel's end a `fault` (each stops the launch on
    /// a GPU). Returns false for the instruction limit (the emulator's own bound, not the kernel's
    /// fault), which the caller reports itself. (A faulting block stops, so later accesses of that
    /// block are not checked.)
    pub fn push_fault(&mut self, f: &warpscope_emu::EmuFault) -> bool {
        self.push_fault_described(f, None)
    }

    /// [`Self::push_fault`] with the caller's sentence for the fault (`text`: the whole message,
    /// its place included), else this checker's own words.
    pub fn push_fault_described(&mut self, f: &warpscope_emu::EmuFault, text: Option<String>) -> bool {
        use warpscope_emu::FaultKind;
        let thread = f.warp * 32 + f.lane.unwrap_or(0);
        let space = |s: warpscope_emu::Space| format!("{s:?}").to_lowercase();
        let whole = text.is_some();
        let (key, own) = match f.kind {
            FaultKind::OutOfBounds { space: s } => (
                Key::External { pc: f.pc, seq: 0 },
                format!("{} access outside every {} allocation", space(s), space(s)),
            ),
            FaultKind::Misaligned { space: s } => (
                Key::External { pc: f.pc, seq: 0 },
                format!("misaligned {} access", space(s)),
            ),
            FaultKind::DivergentBarrier => (
                Key::DivergentFault { pc: f.pc, seq: 0 },
                format!(
                    "the block could not complete it (warp {} arrived with part of its live lanes, or other warps can never arrive); the emulator stops such a block",
                    f.warp
                ),
            ),
            FaultKind::BarrierCount { first, this } => (
                Key::DivergentFault { pc: f.pc, seq: 0 },
                format!(
                    "warp {} arrived giving {} where the barrier's earlier arrivals in this phase gave {}: every thread of a named barrier must give the same thread count; the emulator stops the block",
                    f.warp,
                    count_words(this),
                    count_words(first)
                ),
            ),
            FaultKind::ReadOnly { space: s } => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::ReadOnly as u8,
                },
                format!("store to read-only {} memory", space(s)),
            ),
            FaultKind::Trap => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::Trap as u8,
                },
                "trap: the launch stops".to_string(),
            ),
            FaultKind::BadCall => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::BadCall as u8,
                },
                format!(
                    "indirect call through {:#x}, which is no function's address: the launch stops",
                    f.addr.unwrap_or(0)
                ),
            ),
            FaultKind::FellOffEnd => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::FellOffEnd as u8,
                },
                "execution ran past the kernel's last instruction".to_string(),
            ),
            FaultKind::StackOverflow => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::StackOverflow as u8,
                },
                "recursive calls nested deeper than a call stack holds: the launch stops".to_string(),
            ),
            FaultKind::Assert => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::Assert as u8,
                },
                "device-side assert failed".to_string(),
            ),
            FaultKind::GridDeadlock => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::GridDeadlock as u8,
                },
                "grid-wide barrier some block never reaches: the grid can never pass it".to_string(),
            ),
            FaultKind::NotResident { .. } => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::GridDeadlock as u8,
                },
                "block waits on blocks that cannot be resident at once: the GPU would hang".to_string(),
            ),
            FaultKind::ClusterDeadlock => (
                Key::Fault {
                    pc: f.pc,
                    what: FaultWhat::GridDeadlock as u8,
                },
                "thread-block cluster whose blocks wait for each other forever".to_string(),
            ),
            _ => return false,
        };
        let address = match f.kind {
            FaultKind::OutOfBounds { .. } | FaultKind::Misaligned { .. } => Some(f.addr.unwrap_or(0)),
            _ => f.addr,
        };
        self.push_external(key, f.block, thread, address, text.unwrap_or(own), whole);
        true
    }

    /// Barrier instructions no conflicting pair needs (an unrolled copy of a needed source barrier may
    /// be among them; [`Self::findings`] reports source sites).
    pub fn redundant_barriers(&self) -> Vec<u32> {
        self.barriers
            .released
            .keys()
            .copied()
            .filter(|p| !self.barriers.needed.contains_key(p))
            .collect()
    }

    /// Barrier instructions some conflicting pair needs.
    pub fn needed_barriers(&self) -> Vec<u32> {
        self.barriers.needed.keys().copied().collect()
    }

    /// The findings, errors first, then by line. `loc` names instructions.
    pub fn findings(&self, loc: &dyn Fn(u32) -> Loc) -> Vec<Finding> {
        let xyz = |t: u32| {
            let [x, y, z] = self.config.as_ref().map_or([t, 0, 0], |c| c.thread_xyz(t));
            format!("({x},{y},{z})")
        };
        let mut out = Vec::new();
        for (key, agg) in &self.found {
            // The emulator's fault and this checker's own view of one event are one finding.
            match *key {
                Key::External { pc, .. }
                    if self.found.contains_key(&Key::OobShared { pc, outside: true }) =>
                {
                    continue;
                }
                Key::Divergent { pc, what: 1 | 3 }
                    if self.found.contains_key(&Key::DivergentFault { pc, seq: 0 }) =>
                {
                    continue;
                }
                _ => {}
            }
            let ex = &agg.example;
            let (kind, severity, pcs, message) = match *key {
                Key::Race {
                    first_pc,
                    second_pc,
                    intra_warp,
                    same_inst,
                    ..
                } => {
                    let (a, b) = (loc(first_pc), loc(second_pc));
                    let (t1, t2) = (ex.threads[0], ex.threads[1]);
                    let mut m = format!(
                        "{} race on shared byte {}: thread {} at {} and thread {} at {}, not ordered by a barrier",
                        agg.note.replace('-', "/").to_uppercase(),
                        ex.address.unwrap_or(0),
                        xyz(t1),
                        a.label,
                        xyz(t2),
                        b.label
                    );
                    let sev = if same_inst {
                        m = format!(
                            "lanes of one store instruction at {} write the same shared byte {} (threads {} and {}); which value lands is undefined",
                            b.label,
                            ex.address.unwrap_or(0),
                            xyz(t1),
                            xyz(t2)
                        );
                        Severity::Warning
                    } else {
                        if intra_warp {
                            m.push_str(
                                "; both in one warp: without __syncwarp() lanes are not ordered under independent thread scheduling (CC 7.0+)",
                            );
                        }
                        Severity::Error
                    };
                    (FindingKind::Race, sev, vec![first_pc, second_pc], m)
                }
                Key::InFlight { copy_pc, pc, write } => (
                    FindingKind::Race,
                    Severity::Error,
                    vec![copy_pc, pc],
                    format!(
                        "shared {} at {} of byte {}{} (thread {}) while the cp.async at {} (thread {}) that writes it is still in flight: the copy completes only at that thread's cp.async.wait_group / wait_all (then a barrier for other threads)",
                        if write { "write" } else { "read" },
                        loc(pc).label,
                        ex.address.unwrap_or(0),
                        self.region_name(ex.address),
                        xyz(ex.threads[1]),
                        loc(copy_pc).label,
                        xyz(ex.threads[0]),
                    ),
                ),
                Key::WgmmaOperand { mma_pc, pc } => (
                    FindingKind::Race,
                    Severity::Error,
                    vec![mma_pc, pc],
                    format!(
                        "shared write at {} of byte {}{} (thread {}) while the wgmma.mma_async at {} that reads it is in flight: its operands must stay unchanged until the issuing warps' wgmma.wait_group retires it (then a barrier for other threads)",
                        loc(pc).label,
                        ex.address.unwrap_or(0),
                        self.region_name(ex.address),
                        xyz(ex.threads[0]),
                        loc(mma_pc).label,
                    ),
                ),
                Key::CopyInFlight { copy_pc, pc } => (
                    FindingKind::Race,
                    Severity::Error,
                    vec![copy_pc, pc],
                    format!(
                        "shared read at {} of byte {}{} (thread {}) while the bulk/tensor copy at {} (thread {}) that writes it may still be in flight: the reader has not observed the completion of the copy's mbarrier phase (mbarrier.try_wait / test_wait returning true for it, or a barrier after a thread that did)",
                        loc(pc).label,
                        ex.address.unwrap_or(0),
                        self.region_name(ex.address),
                        xyz(ex.threads[1]),
                        loc(copy_pc).label,
                        xyz(ex.threads[0]),
                    ),
                ),
                Key::ProxyFence { write_pc, pc } => (
                    FindingKind::MissingProxyFence,
                    Severity::Error,
                    vec![write_pc, pc],
                    format!(
                        "the asynchronous proxy at {} reads shared byte {}{} that thread {} wrote at {} through the generic proxy with no fence.proxy.async between (the writer's, or one after a barrier that orders the write): it may read stale bytes",
                        loc(pc).label,
                        ex.address.unwrap_or(0),
                        self.region_name(ex.address),
                        xyz(ex.threads[0]),
                        loc(write_pc).label,
                    ),
                ),
                Key::WgmmaFence { mma_pc, access_pc } => {
                    let (pcs, m) = if access_pc == u32::MAX {
                        (
                            vec![mma_pc],
                            format!(
                                "wgmma.mma_async at {} (thread {}) with no wgmma.fence of its warp before it: a warpgroup must execute wgmma.fence before its first wgmma.mma_async",
                                loc(mma_pc).label,
                                xyz(ex.threads[0]),
                            ),
                        )
                    } else {
                        (
                            vec![access_pc, mma_pc],
                            format!(
                                "{} (thread {}) accesses a register that the wgmma.mma_async at {} uses as accumulator or A fragment, with no wgmma.fence between: the wgmma may not see the access in order",
                                loc(access_pc).label,
                                xyz(ex.threads[0]),
                                loc(mma_pc).label,
                            ),
                        )
                    };
                    (FindingKind::MissingWgmmaFence, Severity::Error, pcs, m)
                }
                Key::WgmmaAccum { mma_pc } => {
                    let pc: u32 = agg.note.parse().unwrap_or(mma_pc);
                    (
                        FindingKind::WgmmaAccumulator,
                        Severity::Error,
                        vec![mma_pc, pc],
                        format!(
                            "{} (thread {}) uses an accumulator register of the wgmma.mma_async at {} before a wgmma.wait_group retired its group (the first of {} such accesses by a warp): its value is undefined until then (ptxas waits for every wgmma in flight there, serialising them)",
                            loc(pc).label,
                            xyz(ex.threads[0]),
                            loc(mma_pc).label,
                            agg.count,
                        ),
                    )
                }
                Key::Uninit { pc } => (
                    FindingKind::UninitializedRead,
                    Severity::Error,
                    vec![pc],
                    format!(
                        "shared read at {} of bytes never written in this launch (thread {}, byte {}{})",
                        loc(pc).label,
                        xyz(ex.threads[0]),
                        ex.address.unwrap_or(0),
                        self.region_name(ex.address)
                    ),
                ),
                Key::OobShared { pc, outside } => {
                    let m = if outside {
                        format!(
                            "shared access at {} outside the block's shared memory: thread {} touches byte {} ({})",
                            loc(pc).label,
                            xyz(ex.threads[0]),
                            ex.address.unwrap_or(0),
                            agg.note
                        )
                    } else {
                        format!(
                            "shared access at {} runs out of its array: {} (thread {}, byte {})",
                            loc(pc).label,
                            agg.note,
                            xyz(ex.threads[0]),
                            ex.address.unwrap_or(0)
                        )
                    };
                    (FindingKind::OutOfBounds, Severity::Error, vec![pc], m)
                }
                Key::Divergent { pc, what } => {
                    let sev = if what == 3 || what == 1 {
                        Severity::Warning
                    } else {
                        Severity::Error
                    };
                    let m = format!(
                        "barrier at {} reached by only part of the block: {}",
                        loc(pc).label,
                        agg.note
                    );
                    (FindingKind::DivergentBarrier, sev, vec![pc], m)
                }
                Key::OobAcross { pc } => (
                    FindingKind::OutOfBounds,
                    Severity::Warning,
                    vec![pc],
                    format!(
                        "shared access at {} leaves its array: {} (thread {}, byte {})",
                        loc(pc).label,
                        agg.note,
                        xyz(ex.threads[0]),
                        ex.address.unwrap_or(0)
                    ),
                ),
                Key::DivergentFault { pc, .. } => (
                    FindingKind::DivergentBarrier,
                    Severity::Error,
                    vec![pc],
                    if agg.whole {
                        agg.note.clone()
                    } else {
                        format!(
                            "barrier at {} reached by only part of the block: {}",
                            loc(pc).label,
                            agg.note
                        )
                    },
                ),
                Key::External { pc, .. } => (
                    FindingKind::OutOfBounds,
                    Severity::Error,
                    vec![pc],
                    if agg.whole {
                        agg.note.clone()
                    } else {
                        format!("{} at {}", agg.note, loc(pc).label)
                    },
                ),
                Key::Fault { pc, what } => {
                    let kind = if what == FaultWhat::Assert as u8 {
                        FindingKind::Assert
                    } else if what == FaultWhat::GridDeadlock as u8 {
                        FindingKind::DivergentBarrier
                    } else {
                        FindingKind::Fault
                    };
                    let m = if agg.whole {
                        agg.note.clone()
                    } else {
                        format!("{} at {}", agg.note, loc(pc).label)
                    };
                    (kind, Severity::Error, vec![pc], m)
                }
                Key::SameValue {
                    first_pc,
                    second_pc,
                    intra_warp,
                } => {
                    let (a, b) = (loc(first_pc), loc(second_pc));
                    let (t1, t2) = (ex.threads[0], ex.threads[1]);
                    let m = if intra_warp && first_pc == second_pc {
                        format!(
                            "lanes of one store instruction at {} write the same value to shared byte {}{} (threads {} and {}): a same-value write, whichever lands the byte holds the same",
                            b.label,
                            ex.address.unwrap_or(0),
                            self.region_name(ex.address),
                            xyz(t1),
                            xyz(t2)
                        )
                    } else {
                        format!(
                            "thread {} at {} and thread {} at {} write the same value to shared byte {}{}, not ordered by a barrier: a same-value write, whichever lands the byte holds the same",
                            xyz(t1),
                            a.label,
                            xyz(t2),
                            b.label,
                            ex.address.unwrap_or(0),
                            self.region_name(ex.address)
                        )
                    };
                    (
                        FindingKind::SameValueWrite,
                        Severity::Warning,
                        vec![first_pc, second_pc],
                        m,
                    )
                }
            };
            let locs: Vec<Loc> = pcs.iter().map(|&p| loc(p)).collect();
            out.push(Finding {
                kind,
                severity,
                line: locs.last().and_then(|l| l.line),
                lines: locs.iter().filter_map(|l| l.line).collect(),
                pcs,
                message,
                count: agg.count,
                example: ex.clone(),
            });
        }
        // A barrier in source is one site however many copies unrolling made of it: a site is
        // redundant only when none of its instructions is needed.
        let needed_sites: BTreeSet<String> = self.barriers.needed.keys().map(|&p| loc(p).label).collect();
        let mut reported_sites = BTreeSet::new();
        for pc in self.redundant_barriers() {
            let site = loc(pc).label;
            if needed_sites.contains(&site) || !reported_sites.insert(site) {
                continue;
            }
            let why = match self.barriers.shared_with.get(&pc) {
                Some(&(a, b, keeper)) => format!(
                    "it separates the accesses at {} and {} only together with the barrier at {}, which is kept",
                    loc(a).label,
                    loc(b).label,
                    loc(keeper).label
                ),
                None => "it separates no conflicting accesses of different threads".to_string(),
            };
            let l = loc(pc);
            let (memory, memory_here) = if self.global {
                (
                    "shared and global memory",
                    "shared and global memory, this launch",
                )
            } else {
                (
                    "shared memory; ordering of global memory is not checked",
                    "shared memory, this launch; ordering of global memory is not checked",
                )
            };
            // Inside a loop whose every block ran one iteration: a barrier that orders one
            // iteration's accesses before the next one's had nothing to order in this launch.
            let once = self.barriers.most_in_a_block.get(&pc).copied().unwrap_or(0) <= 1;
            let around = self
                .loops
                .iter()
                .filter(|&&[first, last]| first <= pc && pc <= last)
                .min_by_key(|&&[first, last]| last - first);
            let (severity, message) = match around {
                Some(&[first, last]) if once => {
                    let body: Vec<u32> = (first..=last).filter_map(|p| loc(p).line).collect();
                    let lines = match (body.iter().min(), body.iter().max()) {
                        (Some(a), Some(b)) if a != b => format!(" (lines {a}..{b})"),
                        (Some(a), _) => format!(" (line {a})"),
                        _ => String::new(),
                    };
                    (
                        Severity::Note,
                        format!(
                            "barrier at {} is removable in this launch only: {why}; in this launch: every block runs one iteration of the loop around it{lines}, so it has no next iteration to order; launches that run more iterations may need it ({memory})",
                            l.label
                        ),
                    )
                }
                _ => (
                    Severity::Warning,
                    format!("barrier at {} is removable: {why} ({memory_here})", l.label),
                ),
            };
            out.push(Finding {
                kind: FindingKind::RedundantBarrier,
                severity,
                line: l.line,
                lines: l.line.into_iter().collect(),
                pcs: vec![pc],
                message,
                count: self.barriers.released.get(&pc).copied().unwrap_or(0),
                example: Example {
                    block: 0,
                    threads: Vec::new(),
                    address: None,
                },
            });
        }
        out.sort_by_key(|f| (f.severity, f.line, f.kind, f.pcs.clone()));
        out
    }

    fn region_name(&self, addr: Option<u64>) -> String {
        let Some(cfg) = &self.config else {
            return String::new();
        };
        addr.and_then(|a| cfg.region_of(a))
            .map_or_else(String::new, |i| format!(" of `{}`", cfg.regions[i].name))
    }
}

impl HazardConfig {
    /// The configuration for launching `kernel` with blocks of `block_dim` threads and `dyn_smem`
    /// bytes of dynamic shared memory (the emulator's layout: static variables at their offsets,
    /// dynamic shared memory at the kernel's dynamic base).
    pub fn for_kernel(kernel: &warpscope_emu::Kernel, block_dim: [u32; 3], dyn_smem: u32) -> HazardConfig {
        let shared_size = if dyn_smem == 0 {
            kernel.static_smem
        } else {
            kernel.dyn_smem_base + dyn_smem
        };
        let mut regions: Vec<SharedRegion> = kernel
            .shared
            .iter()
            .filter(|v| !v.dynamic)
            .map(|v| SharedRegion {
                name: v.name.clone(),
                offset: v.offset,
                size: v.size,
            })
            .collect();
        if dyn_smem > 0 {
            let name = kernel
                .shared
                .iter()
                .find(|v| v.dynamic)
                .map_or_else(|| "dynamic shared memory".to_string(), |v| display_name(&v.name));
            regions.push(SharedRegion {
                name,
                offset: kernel.dyn_smem_base,
                size: dyn_smem,
            });
        }
        HazardConfig {
            block_dim,
            shared_size,
            regions,
            cluster_peers: false,
        }
    }
}

/// `function::variable` for the mangled name of a function-local static (`_ZZ15race_raw_nosyncE1s`,
/// how nvcc names a `__shared__` array declared in a kernel); other names unchanged.
pub fn display_name(mangled: &str) -> String {
    fn take(s: &str) -> Option<(&str, &str)> {
        let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let n: usize = s[..digits].parse().ok()?;
        let rest = &s[digits..];
        (rest.len() >= n).then(|| (&rest[..n], &rest[n..]))
    }
    let parse = || -> Option<String> {
        let rest = mangled.strip_prefix("_ZZ")?;
        let (func, rest) = take(rest)?;
        let rest = &rest[rest.find('E')? + 1..];
        let (var, _) = take(rest)?;
        Some(format!("{func}::{var}"))
    };
    parse().unwrap_or_else(|| mangled.to_string())
}

impl HazardSink {
    /// The bytes of a shared `Store` event when the emulator announced them for it.
    fn take_stash(&mut self, e: &warpscope_emu::MemEvent<'_>) -> Option<StoreBytes> {
        let st = self.stash.as_deref().filter(|_| self.stash_live)?;
        if st.warp != e.warp || st.pc != e.pc || u32::from(st.elem) * u32::from(st.n) != u32::from(e.width) {
            return None;
        }
        self.stash_live = false;
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

impl HazardSink {
    /// Whether the copy engine wrote any of the `width` bytes at `start`.
    fn filled(&self, start: u64, width: u8) -> bool {
        let lo = (start as usize).min(self.async_filled.len());
        let hi = (start as usize)
            .saturating_add(usize::from(width))
            .min(self.async_filled.len());
        self.async_filled[lo..hi].iter().any(|&f| f)
    }
}

impl HazardSink {
    /// Thread `tid` arrives on or waits for the mbarrier at `addr` (instruction `pc`): a block
    /// barrier between another thread's `mbarrier.init` of it and this is needed (removing it
    /// lets the operation run on a barrier not yet initialised).
    fn mbar_use(&mut self, addr: u64, tid: u16, pc: u32) {
        let Some(&(itid, iepoch, ipc)) = self.mbar_inits.get(&addr) else {
            return;
        };
        if itid == tid || iepoch >= self.epoch {
            return;
        }
        let last = self.epoch as usize - 1;
        if let (Some(&bar), Some(&start)) = (self.release_pc.get(last), self.run_start.get(last))
            && start <= iepoch
        {
            self.barriers.needed.entry(bar).or_insert((ipc, pc));
        }
        self.mbar_inits.remove(&addr);
    }
}

impl warpscope_emu::Sink for HazardSink {
    fn async_write(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        if let Some(t) = &mut self.proxy {
            t.async_write(warp, pc, lo, hi);
        }
        let size = self.config.shared_size as usize;
        if self.async_filled.len() < size {
            self.async_filled.resize(size, false);
        }
        let (lo, hi) = ((lo as usize).min(size), (hi as usize).min(size));
        for f in &mut self.async_filled[lo..hi] {
            *f = true;
        }
    }

    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        if let Some(s) = &mut self.sync
            && s.orders
            && !self.finished
            && matches!(
                e.space,
                warpscope_emu::Space::Shared | warpscope_emu::Space::Global
            )
            && matches!(
                e.op,
                warpscope_emu::AccessOp::Load
                    | warpscope_emu::AccessOp::Store
                    | warpscope_emu::AccessOp::Atomic
            )
        {
            // flags, release and acquire operations (before the access is checked)
            let wsync = self.wsync.get(e.warp as usize).copied().unwrap_or(0);
            let (read, write) = match e.op {
                warpscope_emu::AccessOp::Load => (true, false),
                warpscope_emu::AccessOp::Store => (false, true),
                _ => (true, true),
            };
            s.access(
                e.warp,
                wsync,
                e.pc,
                read,
                write,
                e.width,
                e.mask,
                e.addrs,
                e.space == warpscope_emu::Space::Shared,
                &self.order,
                &self.named,
            );
        }
        if e.space != warpscope_emu::Space::Shared {
            return;
        }
        let kind = match e.op {
            warpscope_emu::AccessOp::Load
            | warpscope_emu::AccessOp::LdMatrix
            | warpscope_emu::AccessOp::Wgmma => AccessKind::Read,
            warpscope_emu::AccessOp::Store
            | warpscope_emu::AccessOp::StMatrix
            | warpscope_emu::AccessOp::CpAsync => AccessKind::Write,
            warpscope_emu::AccessOp::Atomic => AccessKind::Atomic,
        };
        if self.async_copies.is_some() && !self.finished {
            self.async_copy_event(e);
        }
        if let Some(t) = &mut self.proxy {
            let wgmma = e.op == warpscope_emu::AccessOp::Wgmma;
            let mut found = None;
            if kind == AccessKind::Read || kind == AccessKind::Atomic {
                found = t.read(e.warp, e.pc, e.mask, e.width, e.addrs, wgmma);
            }
            if wgmma {
                found = found.or_else(|| t.operand_reads(e.pc, e.mask, e.addrs));
            } else if kind != AccessKind::Read {
                t.generic_write(e.warp, e.pc, e.mask, e.width, e.addrs);
            }
            if let Some(h) = found {
                self.proxy_hazard(h);
            }
        }
        if let Some(t) = &mut self.wgmma {
            if e.op == warpscope_emu::AccessOp::Wgmma {
                t.operand_reads(e.warp, e.pc, e.mask, e.addrs);
            } else if kind != AccessKind::Read
                && let Some((mma_pc, lane, byte)) = t.write(e.mask, e.width, e.addrs)
            {
                let block = self.block;
                let tid = e.warp * 32 + lane;
                self.note(
                    Key::WgmmaOperand { mma_pc, pc: e.pc },
                    1,
                    || Example {
                        block,
                        threads: vec![tid],
                        address: Some(byte),
                    },
                    String::new,
                );
            }
        }
        if e.op == warpscope_emu::AccessOp::Store
            && let Some(bytes) = self.take_stash(e)
        {
            self.shared_store(e.warp, e.pc, e.width, e.mask, e.addrs, &bytes);
            return;
        }
        self.shared_access(e.warp, e.pc, kind, e.width, e.mask, e.addrs);
    }

    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        self.stash_live = false;
        if self.finished
            || self.config.shared_size == 0
            || rows.is_empty()
            || rows.len() > 4
            || elem == 0
            || elem > 8
        {
            return;
        }
        let st = self.stash.get_or_insert_with(|| {
            Box::new(StoreStash {
                warp: 0,
                pc: 0,
                elem: 0,
                n: 0,
                rows: [[0; 32]; 4],
            })
        });
        st.warp = warp;
        st.pc = pc;
        st.elem = elem;
        st.n = rows.len() as u8;
        for (d, r) in st.rows.iter_mut().zip(rows) {
            *d = **r;
        }
        self.stash_live = true;
    }

    fn barrier(&mut self, e: &warpscope_emu::BarrierEvent) {
        if matches!(
            e.kind,
            warpscope_emu::BarrierKind::Sync | warpscope_emu::BarrierKind::Arrive
        ) && let Some(s) = self.wsync.get_mut(e.warp as usize)
        {
            // an arrival is a synchronisation of the whole warp: its accesses before it have
            // lower counts than those after (what a partial barrier orders, `named_barriers`)
            *s += 1;
            self.named.arrive(e.warp, e.id, *s);
        }
        if let Some(t) = &mut self.proxy {
            match e.kind {
                warpscope_emu::BarrierKind::Sync | warpscope_emu::BarrierKind::Cluster => {
                    t.barrier(e.warp, e.pc, e.active, true)
                }
                warpscope_emu::BarrierKind::Warp => t.barrier(e.warp, e.pc, e.active, false),
                warpscope_emu::BarrierKind::Arrive => {}
            }
        }
        match e.kind {
            warpscope_emu::BarrierKind::Sync => HazardSink::barrier(self, e.warp, e.pc, e.active, true),
            warpscope_emu::BarrierKind::Warp => HazardSink::barrier(self, e.warp, e.pc, e.active, false),
            // `bar.arrive` (a producer's side of a named barrier): the warp reached the barrier
            // without waiting, so it is no warp that never reached it
            warpscope_emu::BarrierKind::Arrive => self.arrived_only.push(e.warp),
            warpscope_emu::BarrierKind::Cluster => {
                HazardSink::barrier(self, e.warp, e.pc, e.active, true);
                // it also orders the cluster's other blocks' accesses to this block's shared
                // memory, which this sink does not see: never redundant
                self.barriers.needed.entry(e.pc).or_insert((e.pc, e.pc));
            }
        }
    }

    fn barrier_partial(&mut self, _block: u32, id: u32, arrived: u32, waited: u32) {
        self.partial_next = Some((id, arrived, waited));
    }

    fn barrier_release(&mut self, _block: u32, pc: u32, _generation: u32) {
        if let Some(t) = &mut self.proxy {
            t.barrier_release(pc);
        }
        if let Some((id, arrived, waited)) = self.partial_next.take() {
            // a named barrier of part of the block: no new epoch; its warps are ordered by the
            // barrier's vector clock, and its arrivals are no block barrier's
            self.named.release(id, waited, true);
            self.arrivals.retain(|a| waited & (1 << (a.0 % 32)) == 0);
            let mut only = arrived & !waited;
            self.arrived_only.retain(|&w| {
                let bit = 1 << (w % 32);
                let keep = only & bit == 0;
                only &= !bit;
                keep
            });
            return;
        }
        HazardSink::barrier_release(self, pc);
    }

    fn async_read(&mut self, _warp: u32, pc: u32, lo: u64, hi: u64) {
        if let Some(h) = self.proxy.as_ref().and_then(|t| t.async_read(pc, lo, hi)) {
            self.proxy_hazard(h);
        }
    }

    fn mbarrier(&mut self, e: &warpscope_emu::MbarEvent) {
        if let Some(t) = &mut self.proxy {
            t.mbarrier(e);
        }
        let tid = (e.warp * 32 + e.lane).min(u32::from(NONE) - 1) as u16;
        match e.what {
            warpscope_emu::MbarWhat::Init if !self.finished => {
                self.mbar_inits.insert(e.addr, (tid, self.epoch, e.pc));
            }
            warpscope_emu::MbarWhat::Waited { .. } => self.mbar_use(e.addr, tid, e.pc),
            _ => {}
        }
        if let Some(s) = &mut self.sync
            && s.orders
            && !self.finished
        {
            // an mbarrier's phases release and acquire (see `hazards/flags.rs`)
            match e.what {
                warpscope_emu::MbarWhat::Init => s.mbar_init(e.addr),
                warpscope_emu::MbarWhat::Completed { parity } => s.mbar_completed(e.addr, parity),
                warpscope_emu::MbarWhat::Waited { parity } => {
                    let wsync = self.wsync.get(e.warp as usize).copied().unwrap_or(0);
                    let tid = (e.warp * 32 + e.lane).min(u32::from(NONE) - 1) as u16;
                    s.mbar_wait(tid, wsync, e.addr, parity);
                }
                warpscope_emu::MbarWhat::CopyTx { .. } => {}
            }
        }
    }

    fn mbar_arrive(&mut self, warp: u32, pc: u32, lane: u32, _rank: u32, addr: u64, completed: Option<u8>) {
        if !self.config.cluster_peers {
            self.mbar_use(addr, (warp * 32 + lane).min(u32::from(NONE) - 1) as u16, pc);
        }
        if let Some(s) = &mut self.sync
            && s.orders
            && !self.finished
            && !self.config.cluster_peers
        {
            // in a launch in clusters an arrival may be remote (another block's barrier at the
            // same offset) and the sink does not know its own rank: not followed there (below)
            let wsync = self.wsync.get(warp as usize).copied().unwrap_or(0);
            let tid = (warp * 32 + lane).min(u32::from(NONE) - 1) as u16;
            s.mbar_arrive(tid, wsync, addr, completed, &self.order, &self.named);
        }
    }

    fn inst(&mut self, warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        if let Some(s) = &mut self.sync
            && s.orders
            && s.ops.at(pc).fence > 0
            && !self.finished
        {
            let wsync = self.wsync.get(warp as usize).copied().unwrap_or(0);
            let mut m = active;
            while m != 0 {
                let l = m.trailing_zeros();
                m &= m - 1;
                s.fence((warp * 32 + l) as u16, wsync, &self.named);
            }
        }
        if self.warp_sync.as_ref().is_some_and(|w| w.at(pc)) {
            // a synchronising warp collective orders the warp's lanes as __syncwarp() does
            HazardSink::barrier(self, warp, pc, active, false);
        }
        if let Some(c) = &mut self.async_copies {
            c.group_inst(warp, pc, active);
        }
        if let Some(t) = &mut self.proxy {
            t.inst(warp, pc, active);
        }
        if let Some(access) = self.wgmma.as_mut().and_then(|t| t.fence_inst(warp, pc, active)) {
            let block = self.block;
            let tid = warp * 32 + active.trailing_zeros();
            self.note(
                Key::WgmmaFence {
                    mma_pc: pc,
                    access_pc: access.unwrap_or(u32::MAX),
                },
                1,
                || Example {
                    block,
                    threads: vec![tid],
                    address: None,
                },
                String::new,
            );
        }
        if let Some(mma_pc) = self.wgmma.as_mut().and_then(|t| t.inst(warp, pc, active)) {
            let block = self.block;
            let tid = warp * 32 + active.trailing_zeros();
            self.note(
                Key::WgmmaAccum { mma_pc },
                1,
                || Example {
                    block,
                    threads: vec![tid],
                    address: None,
                },
                || pc.to_string(),
            );
        }
        HazardSink::inst(self, warp, active);
    }

    fn warp_exit(&mut self, warp: u32) {
        HazardSink::warp_exit(self, warp);
    }
}

// ---- cp.async completion (kept apart from the race tracker's shadow) ----

/// What a `cp.async` group instruction does to the issuing thread's copies in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncOp {
    /// `cp.async.commit_group`: the thread's uncommitted copies form its newest group.
    Commit,
    /// `cp.async.wait_group N`: all but the newest `N` committed groups complete.
    Wait(u32),
    /// `cp.async.wait_all`: every copy of the thread completes.
    WaitAll,
    /// `cp.async.mbarrier.arrive`: the copies complete with the mbarrier's phase; mbarrier phases
    /// are not tracked, so they are taken as complete here (a missed finding, never a false one).
    MbarArrive,
}

/// The `cp.async` group instructions of a program, by pc (read off the PTX text, as the lowering
/// keeps no instruction for them).
#[derive(Clone, Debug, Default)]
pub struct AsyncOps {
    ops: HashMap<u32, AsyncOp>,
}

impl AsyncOps {
    /// The group instructions of `program`.
    pub fn of(program: &warpscope_ptx::Program) -> AsyncOps {
        let ops = program
            .info
            .iter()
            .enumerate()
            .filter_map(|(pc, info)| {
                let t = info.text.as_str();
                let op = if t.contains("cp.async.commit_group") {
                    AsyncOp::Commit
                } else if let Some(i) = t.find("cp.async.wait_group") {
                    let n: String = t[i + "cp.async.wait_group".len()..]
                        .trim_start()
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    AsyncOp::Wait(n.parse().unwrap_or(0))
                } else if t.contains("cp.async.wait_all") {
                    AsyncOp::WaitAll
                } else if t.contains("cp.async.mbarrier.arrive") {
                    AsyncOp::MbarArrive
                } else {
                    return None;
                };
                Some((pc as u32, op))
            })
            .collect();
        AsyncOps { ops }
    }

    /// Whether the program has any (then tracking is worth its cost).
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// One thread's copy in flight.
#[derive(Clone, Copy, Debug)]
struct CopyInFlight {
    tid: u32,
    /// The thread's group number once committed; `u32::MAX` before.
    group: u32,
    lo: u64,
    hi: u64,
    pc: u32,
}

/// The copies in flight of one block, and per shared byte how many of them write it.
#[derive(Clone, Debug, Default)]
struct InFlightCopies {
    ops: std::sync::Arc<AsyncOps>,
    copies: Vec<CopyInFlight>,
    /// Groups committed per thread.
    committed: HashMap<u32, u32>,
    bytes: Vec<u16>,
}

impl InFlightCopies {
    fn group_inst(&mut self, warp: u32, pc: u32, active: u32) {
        let Some(&op) = self.ops.ops.get(&pc) else {
            return;
        };
        for lane in (0..32).filter(|l| active >> l & 1 == 1) {
            let tid = warp * 32 + lane;
            let n = *self.committed.get(&tid).unwrap_or(&0);
            let done = |c: &CopyInFlight| match op {
                AsyncOp::Commit => false,
                AsyncOp::Wait(k) => c.group != u32::MAX && c.group + k < n,
                AsyncOp::WaitAll | AsyncOp::MbarArrive => true,
            };
            if op == AsyncOp::Commit {
                for c in self
                    .copies
                    .iter_mut()
                    .filter(|c| c.tid == tid && c.group == u32::MAX)
                {
                    c.group = n;
                }
                self.committed.insert(tid, n + 1);
                continue;
            }
            let bytes = &mut self.bytes;
            self.copies.retain(|c| {
                if c.tid == tid && done(c) {
                    for b in &mut bytes[c.lo as usize..c.hi as usize] {
                        *b -= 1;
                    }
                    false
                } else {
                    true
                }
            });
        }
    }

    /// The first copy in flight that writes byte `a`, if any.
    fn writer(&self, a: u64) -> Option<&CopyInFlight> {
        if self.bytes.get(a as usize).is_none_or(|&n| n == 0) {
            return None;
        }
        self.copies.iter().find(|c| c.lo <= a && a < c.hi)
    }
}

impl HazardSink {
    /// A shared event seen by the `cp.async` tracking: a copy goes in flight; any other access to
    /// bytes in flight is a finding.
    fn async_copy_event(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        let size = self.config.shared_size as usize;
        let Some(c) = &mut self.async_copies else {
            return;
        };
        let lanes = (0..32u32).filter(|l| e.mask >> l & 1 == 1);
        if e.op == warpscope_emu::AccessOp::CpAsync {
            if c.bytes.len() < size {
                c.bytes.resize(size, 0);
            }
            for l in lanes {
                let lo = e.addrs[l as usize];
                let hi = (lo + u64::from(e.width)).min(size as u64);
                if lo >= hi {
                    continue;
                }
                for b in &mut c.bytes[lo as usize..hi as usize] {
                    *b = b.saturating_add(1);
                }
                c.copies.push(CopyInFlight {
                    tid: e.warp * 32 + l,
                    group: u32::MAX,
                    lo,
                    hi,
                    pc: e.pc,
                });
            }
            return;
        }
        if c.copies.is_empty() {
            return;
        }
        let write = !matches!(
            e.op,
            warpscope_emu::AccessOp::Load
                | warpscope_emu::AccessOp::LdMatrix
                | warpscope_emu::AccessOp::Wgmma
        );
        let mut hit = None;
        for l in lanes {
            let a = e.addrs[l as usize];
            if let Some(w) = (a..a + u64::from(e.width)).find_map(|b| c.writer(b).map(|w| (*w, b))) {
                hit = Some((l, w));
                break;
            }
        }
        if let Some((l, (w, byte))) = hit {
            let key = Key::InFlight {
                copy_pc: w.pc,
                pc: e.pc,
                write,
            };
            let block = self.block;
            let tid = e.warp * 32 + l;
            self.note(
                key,
                1,
                || Example {
                    block,
                    threads: vec![w.tid, tid],
                    address: Some(byte),
                },
                String::new,
            );
        }
    }
}
