//! The events the emulator emits, and the [`Sink`] trait analyses implement (the contract in
//! the project notes; names here are stable).

/// Bit i = lane i.
pub type LaneMask = u32;

/// Memory space of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Block shared memory.
    Shared,
    /// Global memory.
    Global,
    /// Per-thread local memory.
    Local,
    /// Constant bank.
    Const,
    /// Kernel or call parameters.
    Param,
}

/// Kind of access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessOp {
    /// `ld`
    Load,
    /// `st`
    Store,
    /// `atom`/`red` (read-modify-write).
    Atomic,
    /// `ldmatrix`: one event per warp instruction. `width` is the bytes of one row (16 for the
    /// `.m8n8.b16` forms), `mask` the active lanes that supply a row address (`.x1`: lanes 0-7,
    /// `.x2`: 0-15, `.x4`: 0-31), `addrs` each such lane's row address (shared window offset).
    /// Every row is read whole; no separate `Load` event is sent.
    LdMatrix,
    /// `stmatrix`: as [`AccessOp::LdMatrix`], the rows are written. No separate `Store` event.
    StMatrix,
    /// `cp.async.{ca,cg}.shared.global`: one event per warp instruction with `space: Shared`,
    /// `width` = the copy size (4, 8 or 16 bytes), `addrs` = the shared destinations and
    /// [`MemEvent::src`] = the global sources. The destination bytes are written (the zero-filled
    /// part of a `src-size` copy included); no separate `Load`/`Store` event is sent.
    CpAsync,
    /// `wgmma.mma_async`'s shared-memory operands, read by the tensor core for the warpgroup:
    /// events of `width` 16, each lane's address one 16-byte chunk (a core-matrix row) of the
    /// operand as the descriptor lays it out (swizzle applied), 32 chunks per event: the issuing
    /// warp's 16 rows of A (when A comes from a descriptor), then every fourth chunk of B from the
    /// warp's place in its warpgroup on (the warpgroup's four warps share B's reads, as Nsight
    /// Compute counts them: `warpscope_emu::wgmma::chunks`). Not an LSU instruction.
    Wgmma,
}

/// One warp-level memory instruction execution.
///
/// How instructions map to events:
/// - `ld`/`st`/`atom`/`red`: one event per concrete space the lanes resolve to (`Load`, `Store`,
///   `Atomic`), `width` = bytes per lane (vectors included).
/// - `ldmatrix`/`stmatrix`: one `LdMatrix`/`StMatrix` event (see [`AccessOp::LdMatrix`]).
/// - `cp.async`: one `CpAsync` event with the sources in `src` (see [`AccessOp::CpAsync`]).
/// - `wgmma.mma_async`: `Wgmma` events of the operand chunks it reads (see [`AccessOp::Wgmma`]).
/// - `cp.async.bulk` (shared <-> global): no event (the copy engine moves the bytes).
/// - `mbarrier.*` and `cp.async.mbarrier.arrive`: no event (the barrier object is the
///   emulator's own 8-byte encoding in shared memory; its accesses are synchronisation).
/// - `wmma.load` / `wmma.store` from or to `.shared` as ptxas compiles them (calibration/wmma): an
///   A or B load is one `LdMatrix` event of four matrices (`LDSM.16.M88.4` / `.MT88.4`; lanes
///   `8m..8m+7` give matrix `m`'s rows: memory rows `8(m & 1)..` of the `ldm`-strided tile, half
///   `m >> 1`); a row-major C load / D store is four 8-byte `Load` / `Store` events (`LDS.64` /
///   `STS.64`), a column-major one eight 4-byte events. Through a generic address (or global):
///   ordinary per-element events, as the PTX semantics read them.
#[derive(Clone, Copy, Debug)]
pub struct MemEvent<'a> {
    /// Linear block id (x fastest) within the grid.
    pub block: u32,
    /// Warp index within the block (linear thread id / 32).
    pub warp: u32,
    /// Program-wide pc (see `Program::inst_info`).
    pub pc: u32,
    /// Space.
    pub space: Space,
    /// Load, store, atomic, or one of the matrix / asynchronous-copy forms.
    pub op: AccessOp,
    /// Bytes accessed per lane (1, 2, 4, 8, 16; `v2.f32` = 8, `v4.f32` = 16).
    pub width: u8,
    /// Lanes that perform the access (active and predicate true).
    pub mask: LaneMask,
    /// Per-lane byte address. Shared: offset within the block's shared window (static arrays at
    /// their offsets, then dynamic shared). Local: offset within the thread's local memory. Only
    /// lanes in `mask` are meaningful.
    pub addrs: &'a [u64; 32],
    /// Per-lane global source addresses of a [`AccessOp::CpAsync`] (only lanes in `mask` are
    /// meaningful); `None` for every other event.
    pub src: Option<&'a [u64; 32]>,
}

/// A conditional branch (`@p bra`): uniform iff `taken == active` or `taken == 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BranchEvent {
    /// Linear block id.
    pub block: u32,
    /// Warp within the block.
    pub warp: u32,
    /// pc of the branch.
    pub pc: u32,
    /// Active lanes.
    pub active: LaneMask,
    /// Lanes that take the branch.
    pub taken: LaneMask,
}

/// Barrier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierKind {
    /// `bar.sync` / `barrier.sync` / `__syncthreads`
    Sync,
    /// `bar.warp.sync` / `__syncwarp`
    Warp,
    /// `bar.arrive`
    Arrive,
    /// `barrier.cluster.arrive`: the cluster barrier, released (`Sink::barrier_release`, with the
    /// lowest arrival pc) when every non-exited thread of the cluster has arrived. For the block's
    /// own shared memory it orders as `Sync` does; it also orders the other blocks' accesses to
    /// this block's shared memory, which this block's sink does not see.
    Cluster,
}

/// A warp reaching a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrierEvent {
    /// Linear block id.
    pub block: u32,
    /// Warp within the block.
    pub warp: u32,
    /// pc of the barrier.
    pub pc: u32,
    /// Active lanes arriving.
    pub active: LaneMask,
    /// Barrier id (0 for `__syncthreads`); for [`BarrierKind::Warp`] the member mask. Lanes of one
    /// `bar.warp.sync` whose mask registers differ (a cooperative-groups tile's `sync()`) get one
    /// event per mask, `active` the lanes that name it.
    pub id: u32,
    /// Kind.
    pub kind: BarrierKind,
}

/// Receives events in program order per warp. Blocks may run on different threads: the emulator
/// asks a factory for one sink per block and hands the finished sinks back in block order.
/// Every method has an empty default, so a sink pays only for what it overrides.
pub trait Sink: Send {
    /// A warp-level memory instruction.
    fn mem(&mut self, _e: &MemEvent<'_>) {}
    /// [`Sink::mem`] of an access the emulator already found to be one run: every lane of the
    /// warp active, lane `l` at `addrs[0] + l * width` (wrapping), in global memory. The event is
    /// the same as `mem` would get; a sink that counts sectors may skip checking the lanes. The
    /// default passes it to [`Sink::mem`].
    #[inline]
    fn mem_run(&mut self, e: &MemEvent<'_>) {
        self.mem(e);
    }
    /// Whether [`Sink::mem`] looks at loads of kernel parameters and constants ([`Space::Param`],
    /// [`Space::Const`]). `false` lets the emulator leave out the events of those loads whose
    /// value it knew before the launch (a kernel's `ld.param` of its arguments); every other
    /// event is sent as always. Asked once a warp's turn; the default, `true`, sends them all.
    fn param_loads(&self) -> bool {
        true
    }
    /// The values a warp's `st` writes, sent just before its `Store` event(s): lane `l` writes, for
    /// each `e < rows.len()` in turn, the low `elem` bytes of `rows[e][l]` (little-endian) at the
    /// event's address, `elem * rows.len()` bytes in all. Sent for `st`, plain and vector, in every
    /// state space, with `elem` at most 8; not for `stmatrix`, `cp.async`, atomics, `wmma.store` or
    /// bulk copies, whose values a sink takes as unknown. Only the lanes active in the store's
    /// event are defined: an inactive lane's row entry is whatever its register buffer held (the
    /// buffers are pooled across blocks, so it depends on which blocks ran before on the thread).
    fn store_values(&mut self, _warp: u32, _pc: u32, _elem: u8, _rows: &[&[u64; 32]]) {}
    /// The values a shared-memory `atom` left in memory, sent just after its [`AccessOp::Atomic`]
    /// event: lane `l` of `mask` (the event's lanes in this block's window) left the low bytes of
    /// `values[l]` (the access's width) at its address; the lanes ran in increasing order, so
    /// where several lanes update one word the highest lane's value is what the word holds after
    /// the instruction. `op` and `ty` are the atomic's operation and type (a sink may know that
    /// integer `add`, `min`, `max`, `and`, `or` and `xor` leave the same final value in any order).
    fn atomic_values(
        &mut self,
        _warp: u32,
        _pc: u32,
        _op: warpscope_ptx::inst::AtomOp,
        _ty: warpscope_ptx::inst::Ty,
        _mask: LaneMask,
        _values: &[u64; 32],
    ) {
    }
    /// Sent just before the [`AccessOp::CpAsync`] event of a `cp.async` with a `src-size`
    /// operand (a register, or the `ignore-src` predicate): `sources` are the lanes whose source
    /// size is not 0, the others read no global memory (their bytes are all zero-fill). Without
    /// this call every lane of the event reads its source.
    fn copy_sources(&mut self, _warp: u32, _pc: u32, _sources: LaneMask) {}
    /// A conditional branch.
    fn branch(&mut self, _e: &BranchEvent) {}
    /// A warp arriving at a barrier.
    fn barrier(&mut self, _e: &BarrierEvent) {}
    /// A barrier of the block released (every non-exited warp arrived); `generation` counts
    /// releases from 1.
    fn barrier_release(&mut self, _block: u32, _pc: u32, _generation: u32) {}
    /// Sent just before [`Sink::barrier_release`] when the barrier released orders only part of
    /// the block: a counted named barrier (`bar.sync id, count`, `bar.arrive id, count`,
    /// `bar.red`) that some live warp did not reach, or that a warp reached with `bar.arrive`
    /// (which does not wait). `arrived`: the warps (bit per warp) that arrived since the last
    /// release, `waited`: those of them that waited. A sink that ignores it takes the release as
    /// ordering the whole block.
    fn barrier_partial(&mut self, _block: u32, _id: u32, _arrived: u32, _waited: u32) {}
    /// Every executed warp instruction (`active`: lanes active before the guard predicate).
    fn inst(&mut self, _warp: u32, _pc: u32, _active: LaneMask) {}
    /// `n` (at least 1) warp instructions `pc..pc + n` that the warp executed one after another
    /// with the same active lanes: [`Sink::inst`] of each in turn unless overridden. The emulator
    /// sends instructions that send no other event (arithmetic, `setp`) so, in the order they
    /// executed among the other events; a sink that counts instructions may count a run at once.
    #[inline]
    fn insts(&mut self, warp: u32, pc: u32, n: u32, active: LaneMask) {
        for k in 0..n {
            self.inst(warp, pc + k, active);
        }
    }
    /// The warp executes the loop iteration `it` (whose events this sink has just received, in
    /// that order, ending with the iteration's backward branch) `times` more times, each sending
    /// exactly the events of `it` again: the emulator found the iteration left every register it
    /// reads and every word of memory as it found them (see `Iteration`). The default replays the
    /// events `times` times; a sink that counts may multiply instead, as long as its results are
    /// those of the replay.
    fn repeat(&mut self, it: &Iteration, times: u64) {
        it.replay_times(self, times);
    }
    /// Every thread of the warp has exited.
    fn warp_exit(&mut self, _warp: u32) {}
    /// A `match.any.sync` at `pc` split the warp's executing lanes into `groups` sets of equal
    /// value (1: every lane holds the same). Cooperative groups build a `labeled_partition` from
    /// it, and the machine code synchronises each such set apart.
    fn match_groups(&mut self, _warp: u32, _pc: u32, _groups: u32) {}
    /// Sent once per block before its first event: `true` when the launch's blocks run one after
    /// another in block order on one thread (a one-block launch, a one-thread pool, the ordered
    /// run again after blocks communicated through global memory, or the turns of a cooperative
    /// launch), so sinks of different blocks may share state and see each other's accesses in the
    /// order the emulator made them; `false` when this block runs in parallel with others, which
    /// the emulator's shadow (`mem::Shadow`) guarantees touch no word this block writes, nor write
    /// one it touches (else the launch runs again in order), or which the static disjointness
    /// proof (`disjoint.rs`, no shadow) shows touch no byte this block writes, nor write one it
    /// touches.
    fn block_order(&mut self, _in_order: bool) {}
    /// Asked, where blocks are folded in parts ([`crate::run_folded_parts`]), when the sink's block
    /// has finished and `block`, the next one of the same part, is about to run on the same host
    /// thread: `true` when the sink takes it on top of what it counted (then it gets `block`'s
    /// events as those of a fresh sink of its own, [`Sink::block_order`] first, and the caller's
    /// `add` receives the sink once, for all the blocks it counted). The sink's result must then be
    /// what `add` of the blocks' own sinks one by one, in block order, would make of them. The
    /// default, `false`: every block gets a sink of its own.
    fn next_block(&mut self, _block: u32) -> bool {
        false
    }
    /// Shared bytes `lo..hi` of the block (window offsets) that the copy engine wrote for a
    /// `cp.async.bulk.tensor` or `cp.async.bulk` load issued by `warp` at `pc`: no thread's access
    /// (no memory event is sent for them), but the bytes hold data from then on.
    fn async_write(&mut self, _warp: u32, _pc: u32, _lo: u64, _hi: u64) {}
    /// Shared bytes `lo..hi` of the block that the copy engine reads for a `cp.async.bulk.tensor`
    /// store or reduction, or a `cp.async.bulk` shared-to-global copy, issued by `warp` at `pc`
    /// (the bytes the box covers, lowest to highest; no memory event is sent for them).
    fn async_read(&mut self, _warp: u32, _pc: u32, _lo: u64, _hi: u64) {}
    /// An mbarrier operation on one of the block's own barriers (see [`MbarEvent`]).
    fn mbarrier(&mut self, _e: &MbarEvent) {}
    /// A tiled `cp.async.bulk.tensor` load into the block's own shared memory at window offset
    /// `dst`: its map's swizzle (`CUtensorMapSwizzle`: 0 none, 1 32B, 2 64B, 3 128B), the bytes of
    /// a box row (dimension 0) and the number of rows (the other dimensions' box counts
    /// multiplied). Sent once per issuing lane, before its [`Sink::async_write`].
    fn tma_load(&mut self, _warp: u32, _pc: u32, _dst: u64, _swizzle: u8, _row_bytes: u64, _rows: u64) {}
    /// The lanes of an `ld`/`st`/`atom`/`red` whose `.shared::cluster` address names another block
    /// of the cluster (distributed shared memory, through `mapa`): they are left out of the
    /// [`Sink::mem`] events, which see the block's own shared memory only (see [`RemoteEvent`]).
    fn remote_shared(&mut self, _e: &RemoteEvent<'_>) {}
    /// In a launch in clusters of more than one block: what a `cp.async.bulk.tensor` load wrote
    /// into one block of the cluster (each block a `.multicast::cluster` load reaches, the issuing
    /// block's own included; the block the address names for any other load), with the mbarrier of
    /// that block its `complete_tx` counted in (see [`ClusterCopy`]). Sent before that mbarrier's
    /// own events.
    fn cluster_copy(&mut self, _e: &ClusterCopy) {}
    /// An `mbarrier.arrive` (any form) of one lane on the barrier at shared offset `addr` of the
    /// cluster's block of rank `rank` (this block's own rank for its own barriers; another's for a
    /// remote `.shared::cluster` arrival), sent after the arrival counted; `completed`: the parity
    /// of the phase the arrival completed.
    fn mbar_arrive(
        &mut self,
        _warp: u32,
        _pc: u32,
        _lane: u32,
        _rank: u32,
        _addr: u64,
        _completed: Option<u8>,
    ) {
    }
    /// A `wgmma.mma_async` of `warp` at `pc`: its form and its descriptors (A's `None` when A
    /// comes from registers), as the warp's lowest active lane holds them. Sent before the
    /// instruction's [`AccessOp::Wgmma`] events.
    fn wgmma_desc(
        &mut self,
        _warp: u32,
        _pc: u32,
        _form: warpscope_ptx::inst::WgmmaForm,
        _a: Option<u64>,
        _b: u64,
    ) {
    }
}

/// Accesses of a warp to the shared memory of other blocks of its cluster ([`Sink::remote_shared`]).
#[derive(Clone, Copy, Debug)]
pub struct RemoteEvent<'a> {
    /// Warp within the block.
    pub warp: u32,
    /// Program-wide pc.
    pub pc: u32,
    /// `Load`, `Store` or `Atomic`.
    pub op: AccessOp,
    /// Bytes accessed per lane.
    pub width: u8,
    /// The lanes whose address names another block.
    pub mask: LaneMask,
    /// Per lane: the rank of the block whose shared memory it accesses.
    pub ranks: &'a [u32; 32],
    /// Per lane: the offset in that block's shared window.
    pub offs: &'a [u64; 32],
}

/// The bytes a tensor copy wrote into one block of the cluster ([`Sink::cluster_copy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterCopy {
    /// The issuing warp (of the block whose sink gets the event).
    pub warp: u32,
    /// Program-wide pc.
    pub pc: u32,
    /// The issuing lane.
    pub lane: u32,
    /// The rank of the block written.
    pub rank: u32,
    /// Its shared window offsets written, lowest to highest: `lo..hi`.
    pub lo: u64,
    /// The end of those offsets (exclusive).
    pub hi: u64,
    /// The offset of its mbarrier the copy's `complete_tx` counted in.
    pub mbar: u64,
    /// The parity of the phase that `complete_tx` completed, for another block's mbarrier (the
    /// issuing block's own completion comes as [`MbarWhat::Completed`]).
    pub completed: Option<u8>,
}

/// What happened to an mbarrier ([`Sink::mbarrier`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarWhat {
    /// `mbarrier.init`: the barrier starts in its phase 0 (parity 0).
    Init,
    /// The phase of parity `parity` completed, by an arrival, an `expect_tx` or a copy's
    /// `complete_tx` of this instruction.
    Completed {
        /// The completed phase's parity.
        parity: u8,
    },
    /// The lane's `test_wait` / `try_wait` (parity or state-token form) returned true for the
    /// phase of parity `parity`.
    Waited {
        /// The phase waited for.
        parity: u8,
    },
    /// The bytes of the asynchronous copy that the last [`Sink::async_write`] of this warp and pc
    /// reported complete on this barrier (`complete_tx`) in its current phase, of parity `parity`
    /// (sent before the `Completed` event the copy may cause).
    CopyTx {
        /// The current phase's parity when the copy's bytes count on it.
        parity: u8,
    },
}

/// An mbarrier operation of one lane on a barrier in the block's own shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MbarEvent {
    /// Warp within the block.
    pub warp: u32,
    /// Program-wide pc.
    pub pc: u32,
    /// The lane.
    pub lane: u32,
    /// The barrier's shared window offset.
    pub addr: u64,
    /// What happened.
    pub what: MbarWhat,
}

/// The sink that ignores everything.
impl Sink for () {
    fn repeat(&mut self, _it: &Iteration, _times: u64) {}
}

/// One event of a recorded loop iteration ([`Iteration`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterEvent {
    /// [`Sink::insts`] of `n` instructions from `pc`.
    Insts {
        /// First pc of the run.
        pc: u32,
        /// Instructions in the run.
        n: u32,
        /// Active lanes.
        active: LaneMask,
    },
    /// [`Sink::mem`] (never a `cp.async`: no `src`); its lane addresses are
    /// [`Iteration::lanes`]`[addrs]`.
    Mem {
        /// pc of the access.
        pc: u32,
        /// Space.
        space: Space,
        /// Load or store.
        op: AccessOp,
        /// Bytes per lane.
        width: u8,
        /// Lanes that access.
        mask: LaneMask,
        /// Index of the addresses in [`Iteration::lanes`].
        addrs: u32,
    },
    /// [`Sink::store_values`]: the rows are [`Iteration::lanes`]`[first..first + rows]`.
    StoreValues {
        /// pc of the store.
        pc: u32,
        /// Bytes per element.
        elem: u8,
        /// Index of the first row in [`Iteration::lanes`].
        first: u32,
        /// Rows (vector elements).
        rows: u8,
    },
    /// [`Sink::branch`].
    Branch {
        /// pc of the branch.
        pc: u32,
        /// Active lanes.
        active: LaneMask,
        /// Lanes that jumped.
        taken: LaneMask,
    },
}

/// The events one warp sent for one iteration of a loop, in order: what [`Sink::repeat`] repeats.
///
/// The emulator repeats an iteration of a straight-line loop body (arithmetic, global loads and
/// stores, ended by its conditional backward branch, taken by every active lane) when the
/// iteration stored only values the memory already held, every register the body reads before it
/// writes it was unchanged (or is a counter that only the branch's compare reads), and the
/// counters' compare says the branch is taken again: every such iteration then sends exactly these
/// events again (the warp runs alone while it loops: no other warp of the block runs before it
/// stops, and other blocks that write what it reads make the launch run again in block order).
#[derive(Clone, Debug, Default)]
pub struct Iteration {
    /// Linear block id.
    pub block: u32,
    /// Warp within the block.
    pub warp: u32,
    /// The events, in the order they were sent.
    pub events: Vec<IterEvent>,
    /// Lane rows the events point into (addresses and stored values).
    pub lanes: Vec<[u64; 32]>,
}

impl Iteration {
    /// Sends the iteration's events to `sink` once, as the emulator sent them.
    pub fn replay<S: Sink + ?Sized>(&self, sink: &mut S) {
        for e in &self.events {
            match *e {
                IterEvent::Insts { pc, n, active } => sink.insts(self.warp, pc, n, active),
                IterEvent::Mem {
                    pc,
                    space,
                    op,
                    width,
                    mask,
                    addrs,
                } => sink.mem(&MemEvent {
                    block: self.block,
                    warp: self.warp,
                    pc,
                    space,
                    op,
                    width,
                    mask,
                    addrs: &self.lanes[addrs as usize],
                    src: None,
                }),
                IterEvent::StoreValues {
                    pc,
                    elem,
                    first,
                    rows,
                } => {
                    let rows = &self.lanes[first as usize..first as usize + rows as usize];
                    if rows.len() <= 4 {
                        let mut rs: [&[u64; 32]; 4] = [&rows[0]; 4];
                        for (r, row) in rs.iter_mut().zip(rows) {
                            *r = row;
                        }
                        sink.store_values(self.warp, pc, elem, &rs[..rows.len()]);
                    } else {
                        let rs: Vec<&[u64; 32]> = rows.iter().collect();
                        sink.store_values(self.warp, pc, elem, &rs);
                    }
                }
                IterEvent::Branch { pc, active, taken } => sink.branch(&BranchEvent {
                    block: self.block,
                    warp: self.warp,
                    pc,
                    active,
                    taken,
                }),
            }
        }
    }

    /// [`Iteration::replay`] `times` times (what [`Sink::repeat`] does by default).
    pub fn replay_times<S: Sink + ?Sized>(&self, sink: &mut S, times: u64) {
        for _ in 0..times {
            self.replay(sink);
        }
    }
}
