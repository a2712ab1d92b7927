//! The block engine: warps with lane-vectorised register rows, a SIMT reconvergence stack, and
//! round-robin scheduling between barriers. The loop only dispatches; semantics live in
//! [`crate::arith`] (reference) and [`crate::fast`] (row kernels tested against it); analyses
//! only see events through the `Sink`.
//!
//! Hot-loop shape: a warp runs straight-line code from its top stack frame with the pc, the
//! reconvergence pc and the active mask in locals; only control instructions (branches, exits,
//! barriers) touch the stack. ALU instructions with a fast path are one indirect call to a
//! monomorphised 32-lane loop working in place on the register rows.

use warpscope_ptx::inst::*;
use warpscope_ptx::{Kernel, Program};

use crate::arith;
use crate::event::{AccessOp, BarrierEvent, BarrierKind, BranchEvent, MemEvent, Sink, Space};
use crate::fast::{FULL, Row, X, XOp, cmp_bits, map1, map2, map3};
use crate::mem::{self, Global};
use crate::remap::SmemMap;
use crate::{EmuFault, FaultKind, Limits};

pub(crate) mod known;
pub(crate) mod loops;
pub(crate) mod spin;
mod tma;
mod warp_join;
use warpscope_ptx::inst::{MbarOp, MmaShape};

/// Everything a block needs, shared by all blocks of a run.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub prog: &'a Program,
    pub kernel: &'a Kernel,
    /// Decoded instructions of the kernel (index `pc - kernel.entry`).
    pub xops: &'a [XOp],
    /// `fast::alu_runs(xops)`: the ALU instructions in a row from each instruction.
    pub alu_runs: &'a [u32],
    /// The table of the kernel's [`X::Known`] loads ([`known::known_loads`]).
    pub known: &'a [known::Known],
    /// The rows a warp starts with whose value differs by lane and not by block (the kernel's
    /// `row_init` of `%tid`, `%laneid`, `%lanemask_*`, in that list's order), for every warp of
    /// a block: warp `w`'s are `lane_rows[w * n..(w + 1) * n]` ([`lane_rows`]).
    pub lane_rows: &'a [Row],
    /// The rows a warp starts with at zero (`zero_rows`): the others are written before read.
    pub zero_rows: &'a [warpscope_ptx::inst::R],
    /// This launch's number, unique in the process (from 1): a pooled register file remembers the
    /// launch and warp index it was last set up for ([`BlockRun::new`]).
    pub launch_id: u64,
    /// Per entry of the kernel's `row_init`: whether a register file last set up for the same
    /// launch and warp index still holds the entry's row ([`fixed_init`]); all `false` on the
    /// reference paths.
    pub fixed_init: &'a [bool],
    pub global: &'a Global,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of the shared window in the kernel's own layout (with its reserved bytes, if any).
    pub smem_size: u32,
    /// Bytes of the kernel's own shared memory (static and dynamic); its reserved shared memory
    /// (`Kernel::reserved_smem`) starts at the next multiple of 16.
    pub user_smem: u32,
    pub dyn_smem: u32,
    /// Shared layout remap (identity when the launch has none).
    pub smap: &'a SmemMap,
    pub limits: &'a Limits,
    /// A cooperative launch: blocks run in turns and strong global loads pause the block.
    pub cooperative: bool,
    /// Address of the grid workspace (`%envreg1:%envreg2`); 0 outside cooperative launches.
    pub grid_workspace: u64,
    /// What the blocks running in parallel do to global memory (`None`: not tracked).
    pub track: Option<&'a mem::Shadow>,
    /// The cluster dimensions (1, 1, 1 for a plain launch).
    pub cluster: [u32; 3],
    /// CTAs per cluster.
    pub csize: u32,
    /// The launch or the kernel names its clusters (`%is_explicit_cluster`).
    pub explicit_cluster: bool,
    /// The launch's device runtime (dynamic parallelism).
    pub devrt: &'a crate::devlaunch::DevRtEnv,
    /// The kernel's loops whose clean iterations are repeated at once ([`loops`]).
    pub loops: &'a [loops::Loop],
    /// The kernel's spin branches ([`spin`]).
    pub spins: &'a spin::SpinBranches,
    /// A plain launch whose blocks may wait on each other: a warp stalled in a spin loop that
    /// polls global memory stops as a grid barrier's poll does ([`Stop::Poll`]), and the launch
    /// runs its blocks with [`BlockRun::run_alone`].
    pub plain_waits: bool,
    /// The program has a counted block barrier (`bar.sync id, count`, `bar.arrive`, `bar.red`
    /// with a count): without one, a barrier completes only when every live warp waits (after a
    /// warp stops, [`release`] has nothing to do).
    pub counted_bars: bool,
}

impl Ctx<'_> {
    /// The block's coordinates in the grid.
    pub(crate) fn cta(&self, block_lin: u32) -> [u32; 3] {
        [
            block_lin % self.grid[0],
            (block_lin / self.grid[0]) % self.grid[1],
            block_lin / (self.grid[0] * self.grid[1]),
        ]
    }
    /// The block's rank in its cluster (x fastest).
    pub(crate) fn rank(&self, block_lin: u32) -> u32 {
        let c = self.cta(block_lin);
        let [x, y, z] = self.cluster;
        c[0] % x + (c[1] % y) * x + (c[2] % z) * x * y
    }
    /// The linear index of the block's cluster (x fastest).
    pub(crate) fn cluster_index(&self, block_lin: u32) -> u32 {
        let c = self.cta(block_lin);
        let [x, y, z] = self.cluster;
        let (nx, ny) = (self.grid[0] / x, self.grid[1] / y);
        c[0] / x + (c[1] / y) * nx + (c[2] / z) * nx * ny
    }
    /// The linear block ids of cluster `c`, in rank order.
    pub(crate) fn cluster_blocks(&self, c: u32) -> Vec<u32> {
        let [x, y, z] = self.cluster;
        let (nx, ny) = (self.grid[0] / x, self.grid[1] / y);
        let k = [c % nx, (c / nx) % ny, c / (nx * ny)];
        let mut v = Vec::with_capacity(self.csize as usize);
        for cz in 0..z {
            for cy in 0..y {
                for cx in 0..x {
                    let b = [k[0] * x + cx, k[1] * y + cy, k[2] * z + cz];
                    v.push(b[0] + b[1] * self.grid[0] + b[2] * self.grid[0] * self.grid[1]);
                }
            }
        }
        v
    }
    /// Who owns block `block`'s global accesses in the parallel blocks' shadow: the block, or in a
    /// cluster launch its cluster (whose blocks run in turns on one thread, in a fixed order).
    #[inline(always)]
    fn owner(&self, block: u32) -> u32 {
        if self.csize > 1 {
            self.cluster_index(block)
        } else {
            block
        }
    }
}

/// Block `block` reads `w` global bytes at `a` (for the parallel blocks' shadow).
#[inline(always)]
fn track_read(ctx: &Ctx<'_>, block: u32, a: u64, w: u64) {
    if let Some(t) = ctx.track {
        t.read(ctx.owner(block), a, w);
    }
}

/// Block `block` is about to write (or atomically update) `w` global bytes at `a`.
#[inline(always)]
fn track_write(ctx: &Ctx<'_>, block: u32, a: u64, w: u64) {
    if let Some(t) = ctx.track {
        t.write(ctx.global, ctx.owner(block), a, w);
    }
}

/// What a block of a cluster sees of the others while it runs: their shared memories (its own
/// slot is empty: the block's own is in `BlockRun::shared`), its rank, the cluster barrier's
/// completed phases, and a count of its writes to the others' shared memory (the cluster's
/// progress, as global writes are a cooperative grid's).
pub(crate) struct ClusterLink<'c> {
    pub peers: &'c mut [Vec<u8>],
    pub phase: u32,
    pub writes: u64,
}

impl ClusterLink<'_> {
    /// A block alone in its cluster.
    pub(crate) fn alone() -> ClusterLink<'static> {
        ClusterLink {
            peers: &mut [],
            phase: 0,
            writes: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    pc: u32,
    rpc: u32,
    mask: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    /// Waiting at named barrier `id` (reached at `pc`).
    AtBarrier {
        id: u32,
    },
    /// Polled global memory with a strong load in a cooperative launch (a grid barrier's wait):
    /// runs again after the grid's other blocks have had their turn.
    Polling,
    /// Waits at `barrier.cluster.wait` for the cluster barrier's phase to complete.
    ClusterWait,
    Done,
}

struct Warp {
    regs: Vec<Row>,
    preds: Vec<u32>,
    stack: Vec<Frame>,
    exited: u32,
    state: State,
    insts: u64,
    /// Instructions' worth of time the warp spent waiting at barriers: `%clock`, `%clock64` and
    /// `%globaltimer` read `(insts + waited) * 4`, one clock for the block, so that a warp leaving
    /// a barrier reads no earlier a time than any warp that arrived there.
    waited: u64,
    /// The `bar.red` this warp waits in: its op, destination register / predicate and lanes.
    red: Option<(RedOp, R, P, u32)>,
    /// The mbarrier wait that last failed: (address, parity, log generation then).
    mwait: Option<(u64, u64, u64)>,
    /// Device `printf` calls this warp executed so far.
    printfs: u32,
    /// Lanes that arrived at the cluster barrier's current phase.
    carrived: u32,
    /// The cluster barrier phase the warp last arrived at (`u32::MAX`: none).
    cphase: u32,
    /// The qualifying loop the warp is in ([`loops`]).
    lp: loops::LoopRun,
    /// The frames parked at a `bar.warp.sync` under the paths they wait for: their lanes, the
    /// instruction and the member mask ([`warp_join`]).
    wpark: Vec<(u32, u32, u32)>,
    /// The spin branch the warp took last and a hash of what its loop computed ([`spin`]).
    spin: Option<(u32, u64)>,
    /// The activations of recursive functions' out-of-line bodies the warp is in, innermost last
    /// ([`Inst::Call`]).
    calls: Vec<CallRec>,
}

/// An activation of a recursive function's out-of-line body: what the call saved.
struct CallRec {
    /// The index in [`Warp::stack`] of the body's first frame (its reconvergence point is
    /// [`CALL_RPC`]): when it pops, every lane that entered has returned or exited.
    base: usize,
    /// [`warpscope_ptx::Program::calls`]' index.
    site: u32,
    /// The lanes that entered.
    mask: u32,
    /// The body's register rows and predicates before the call.
    rows: Vec<Row>,
    preds: Vec<u32>,
    /// The body's local bytes of each entering lane before the call, lane by lane.
    local: Vec<u8>,
}

/// The reconvergence point of a call's first frame: no pc (the frame pops when its lanes have
/// all left the body).
const CALL_RPC: u32 = u32::MAX - 1;

/// Calls of out-of-line bodies a warp may nest; a deeper call faults
/// ([`FaultKind::StackOverflow`]).
pub const MAX_CALL_DEPTH: usize = 4096;

/// One of the 16 named barriers of a block.
#[derive(Clone, Copy, Debug, Default)]
struct Barrier {
    /// Warps arrived (`bar.sync` and `bar.arrive`) since the last release.
    warps: u32,
    /// Expected thread count (`bar.sync id, count`); `None`: every live thread of the block.
    expected: Option<u32>,
    /// Lowest pc of an arrival since the last release (reported with the release).
    pc: u32,
    /// `bar.red` over the arrivals: threads with a true predicate, and whether one was false.
    popc: u32,
    any_false: bool,
    /// Warps arrived since the last release (bit per warp), and those of them that wait
    /// (`bar.sync`, `bar.red`; not `bar.arrive`).
    members: u32,
    waiters: u32,
}

/// Outcome of one block.
#[derive(Default)]
pub(crate) struct BlockOut {
    pub warp_insts: u64,
    pub thread_insts: u64,
    pub fault: Option<EmuFault>,
    pub printf: Vec<crate::printf::Printed>,
    /// Kernels the block's threads launched, in the order they did.
    pub launches: Vec<crate::devlaunch::DeviceLaunch>,
    /// Failing device `assert`s (the lanes of the one warp that executed `__assertfail`).
    pub asserts: Vec<crate::AssertFailure>,
    /// What the block's TMA instructions did.
    pub tma: crate::tma::TmaCounts,
    /// The lowest pc of a local load that read a byte its thread had not stored in the launch.
    pub undefined_local_read: Option<u32>,
}

enum Stop {
    Barrier,
    /// The warp waits at the cluster barrier.
    ClusterWait,
    /// The warp waits on an mbarrier phase: let the other warps run first.
    Yield,
    /// The warp polled global memory in a cooperative launch: let the other blocks run first.
    Poll,
    Exit,
    Fault(FaultKind, u32, Option<u32>, Option<u64>),
}

/// What a general instruction did to control flow.
enum Flow {
    /// Continue with the next instruction.
    Next,
    /// The stack or the exited mask changed: reload the top frame.
    Reload,
    /// The warp stops (barrier, exit, fault).
    Stop(Stop),
}

#[inline(always)]
fn wr(d: &mut Row, v: &Row, mask: u32) {
    if mask == FULL {
        *d = *v;
    } else {
        for l in 0..32 {
            if (mask >> l) & 1 != 0 {
                d[l] = v[l];
            }
        }
    }
}

#[inline(always)]
fn pval(preds: &[u32], p: PSrc) -> u32 {
    let v = if p.idx == PRED_TRUE {
        FULL
    } else {
        preds[p.idx as usize]
    };
    if p.neg { !v } else { v }
}

#[inline(always)]
fn pwrite(preds: &mut [u32], p: P, v: u32, mask: u32) {
    if p != PRED_TRUE {
        let x = &mut preds[p as usize];
        *x = (*x & !mask) | (v & mask);
    }
}

/// Runs one block to completion (or its first fault), sending events to `sink`.
pub(crate) fn run_block<S: Sink>(ctx: &Ctx<'_>, block_lin: u32, sink: &mut S) -> BlockOut {
    let mut b = BlockRun::new(ctx, block_lin);
    let mut link = ClusterLink::alone();
    // outside a cooperative or cluster launch no warp polls the grid: the block pauses only when
    // every live warp waits at the cluster barrier (of its 1x1x1 cluster)
    while !b.resume(ctx, sink, &mut link) {
        if !release_cluster(
            std::slice::from_mut(&mut b),
            std::slice::from_mut(sink),
            &mut link.phase,
        ) {
            b.stuck();
            break;
        }
    }
    std::mem::take(&mut b.out)
}

thread_local! {
    /// Register files of finished warps, kept for the next block this thread runs: a block's
    /// registers are allocated once per thread, not once per block (whose frees and refaults of
    /// fresh pages cost as much as a short kernel's instructions).
    static REG_POOL: std::cell::RefCell<Vec<Pooled>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A finished warp's register rows, predicates and stack, kept for a warp of a later block, with
/// the launch ([`Ctx::launch_id`]) and warp index its rows were set up for (0: none).
type Pooled = (Vec<Row>, Vec<u32>, Vec<Frame>, (u64, u32));

/// Register files the pool keeps per thread at most (the warps of the largest block).
const REG_POOL_MAX: usize = 32;

thread_local! {
    /// The emptied warp lists of finished blocks, kept for the next block this thread runs: a
    /// list is larger than the allocator's per-thread cache takes (152 bytes a warp), so one
    /// allocated and freed per block took the allocator's arena lock twice per block, which
    /// blocks contend for on many threads.
    static WARP_LISTS: std::cell::RefCell<Vec<Vec<Warp>>> = const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    /// Shared and local memory of finished blocks, kept for the next block this thread runs.
    static BYTE_POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `n` zero bytes, in a buffer a finished block of this thread left if there is one.
fn zeroed_bytes(n: usize) -> Vec<u8> {
    let mut v = BYTE_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    v.clear();
    v.resize(n, 0);
    v
}

impl Drop for BlockRun {
    fn drop(&mut self) {
        REG_POOL.with(|p| {
            let mut p = p.borrow_mut();
            // the last warp first: the next block of this thread takes warp 0's file for its
            // warp 0 (the pool is a stack), whose fixed rows it then keeps
            for (i, w) in self.warps.drain(..).enumerate().rev() {
                if p.len() >= REG_POOL_MAX {
                    break;
                }
                p.push((w.regs, w.preds, w.stack, (self.launch_id, i as u32)));
            }
        });
        let list = std::mem::take(&mut self.warps);
        if list.capacity() > 0 {
            WARP_LISTS.with(|p| {
                let mut p = p.borrow_mut();
                if p.len() < 2 {
                    p.push(list);
                }
            });
        }
        BYTE_POOL.with(|p| {
            let mut p = p.borrow_mut();
            for b in [std::mem::take(&mut self.shared), std::mem::take(&mut self.local)] {
                if p.len() < 2 && b.capacity() > 0 {
                    p.push(b);
                }
            }
        });
    }
}

/// Completes the cluster barrier's phase when every non-exited thread of the cluster's blocks has
/// arrived (and one has): the waiting warps go on. Returns whether it completed.
pub(crate) fn release_cluster<S: Sink>(blocks: &mut [BlockRun], sinks: &mut [S], phase: &mut u32) -> bool {
    let all = blocks.iter().all(|b| {
        b.finished
            || b.warps
                .iter()
                .all(|w| w.state == State::Done || (w.carrived | w.exited) == FULL)
    });
    let any = blocks.iter().any(|b| b.warps.iter().any(|w| w.carrived != 0));
    if !(all && any) {
        return false;
    }
    *phase = phase.wrapping_add(1);
    for (b, s) in blocks.iter_mut().zip(sinks.iter_mut()) {
        if b.finished {
            continue;
        }
        // for the block's own shared memory the cluster barrier orders as a block barrier does
        b.generation += 1;
        s.barrier_release(b.block_lin, b.cpc, b.generation);
        b.cpc = u32::MAX;
        for w in b.warps.iter_mut() {
            w.carrived = 0;
            if w.state == State::ClusterWait {
                w.state = State::Ready;
            }
        }
    }
    true
}

/// Runs the blocks of one cluster (`blocks`, in rank order) together: in turns on this thread,
/// each until every live warp of it waits (at the cluster barrier, on an mbarrier or a strong
/// load, or at a block barrier), the cluster barrier completed between turns. Their shared
/// memories are each other's (`mapa`). A cluster whose unfinished blocks all wait for
/// [`crate::GRID_IDLE_TURNS`] turns with no global write, no write to another block's shared
/// memory and no cluster barrier completed is stopped ([`FaultKind::ClusterDeadlock`]); a fault
/// stops the whole cluster. Returns each block's id, sink and outcome, in rank order.
pub(crate) fn run_cluster<S: Sink>(
    ctx: &Ctx<'_>,
    blocks: &[u32],
    make: &(dyn Fn(u32) -> S + Sync),
    done: Option<&std::sync::atomic::AtomicU64>,
) -> Vec<(u32, S, BlockOut)> {
    let mut runs: Vec<BlockRun> = blocks.iter().map(|&b| BlockRun::new(ctx, b)).collect();
    let mut sinks: Vec<S> = blocks.iter().map(|&b| make(b)).collect();
    let mut smems: Vec<Vec<u8>> = runs.iter_mut().map(|r| std::mem::take(&mut r.shared)).collect();
    let mut phase = 0u32;
    let mut idle = 0u32;
    let progress = |runs: &[BlockRun], cw: u64| runs.iter().map(|b| b.gwrites).sum::<u64>() + cw;
    let mut cwrites = 0u64;
    let mut before = progress(&runs, cwrites);
    'turns: loop {
        let mut finished = false;
        for r in 0..runs.len() {
            if runs[r].finished {
                continue;
            }
            std::mem::swap(&mut runs[r].shared, &mut smems[r]);
            let mut link = ClusterLink {
                peers: &mut smems,
                phase,
                writes: 0,
            };
            let fin = runs[r].resume(ctx, &mut sinks[r], &mut link);
            cwrites += link.writes;
            std::mem::swap(&mut runs[r].shared, &mut smems[r]);
            if fin {
                finished = true;
                if let Some(d) = done {
                    d.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                if runs[r].out.fault.is_some() {
                    // a fault stops the cluster (the GPU's launch fails)
                    break 'turns;
                }
            }
        }
        if runs.iter().all(|b| b.finished) {
            break;
        }
        let released = release_cluster(&mut runs, &mut sinks, &mut phase);
        let now = progress(&runs, cwrites);
        idle = if finished || released || now != before {
            0
        } else {
            idle + 1
        };
        before = now;
        if idle >= crate::GRID_IDLE_TURNS {
            if let Some(r) = runs.iter().position(|b| !b.finished) {
                let b = &mut runs[r];
                b.deadlock();
                let mbar = b.out.fault.and_then(|f| b.warps.get(f.warp as usize)?.mwait);
                if let Some(f) = &mut b.out.fault {
                    f.kind = FaultKind::ClusterDeadlock;
                    // the mbarrier the warp waits on, read from its block's shared memory
                    f.mbar = mbar.and_then(|(a, parity, _)| {
                        let st = mem::read_bytes(&smems[r], a & mem::CLUSTER_OFFSET, 8)?;
                        Some(mbar_state::snapshot(a, parity, st))
                    });
                }
            }
            break;
        }
    }
    runs.into_iter()
        .zip(sinks)
        .zip(blocks)
        .map(|((mut b, s), &id)| (id, s, std::mem::take(&mut b.out)))
        .collect()
}

/// Turns in a row of a block run alone ([`BlockRun::run_alone`]) that change nothing but
/// registers, after which its polling warps wait on another block. With memory unchanged a
/// polling warp repeats the same iteration from its second turn on; the margin lets warps whose
/// lanes the spin loop let past it ([`spin::let_other_lanes_run`]) reach their own waits.
pub(crate) const PLAIN_IDLE_TURNS: u32 = 16;

/// One block's state between the times it runs: a cooperative launch runs its blocks in turns,
/// each until every live warp waits on the grid ([`State::Polling`]) or at a block barrier.
pub(crate) struct BlockRun {
    block_lin: u32,
    shared: Vec<u8>,
    local: Vec<u8>,
    /// One bit per byte of `local`: stored by its thread in this launch.
    local_stored: Vec<u64>,
    warps: Vec<Warp>,
    pub out: BlockOut,
    bars: [Barrier; 16],
    mbar_log: MbarLog,
    generation: u32,
    budget: u64,
    finished: bool,
    /// Writes to global memory since the block started.
    pub gwrites: u64,
    /// The block's rank in its cluster.
    rank: u32,
    /// The lowest pc of a cluster barrier arrival since the last release.
    cpc: u32,
    /// [`Ctx::launch_id`].
    launch_id: u64,
}

impl BlockRun {
    pub(crate) fn new(ctx: &Ctx<'_>, block_lin: u32) -> BlockRun {
        let k = ctx.kernel;
        let [bx, by, bz] = ctx.block;
        let nthreads = bx * by * bz;
        let nwarps = nthreads.div_ceil(32);
        let cta = ctx.cta(block_lin);
        // the list a finished block of this thread left, if there is one
        let mut list = WARP_LISTS.with(|p| p.borrow_mut().pop()).unwrap_or_default();
        list.clear();
        list.reserve(nwarps as usize);
        let warps: Vec<Warp> = (0..nwarps)
            .map(|w| {
                let (mut regs, mut preds, mut stack, set_up) =
                    REG_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
                // a file this launch set up for this warp index holds the fixed rows already
                let same = set_up == (ctx.launch_id, w) && ctx.launch_id != 0;
                // of the rows kept from the last block, zero those a thread may read before it
                // writes them (`zero_rows`); the missing ones are added at zero
                regs.truncate(k.n_rows as usize);
                for &r in ctx.zero_rows {
                    if let Some(row) = regs.get_mut(r as usize) {
                        *row = [0u64; 32];
                    }
                }
                regs.resize(k.n_rows as usize, [0u64; 32]);
                preds.clear();
                preds.resize(k.n_preds as usize, 0);
                stack.clear();
                // the warp's first thread
                let t0 = w * 32;
                let tid0 = [t0 % bx, (t0 / bx) % by, t0 / (bx * by)];
                // the rows that differ by lane, the same in every block: computed once a launch
                let per_warp = ctx.lane_rows.len() / nwarps as usize;
                let mut lane = ctx.lane_rows[w as usize * per_warp..].iter();
                for (i, &(r, init)) in k.row_init.iter().enumerate() {
                    let row = &mut regs[r as usize];
                    let kept = same && ctx.fixed_init.get(i) == Some(&true);
                    match init {
                        RowInit::Special(s) if by_lane(s) => {
                            let v = lane.next();
                            if !kept && let Some(v) = v {
                                *row = *v;
                            }
                        }
                        _ if kept => {}
                        RowInit::Const(c) => *row = [c; 32],
                        // the same in every lane
                        RowInit::Special(s) => *row = [special(s, tid0, ctx, cta, w, nwarps, 0); 32],
                    }
                }
                let valid = if (w + 1) * 32 <= nthreads {
                    FULL
                } else {
                    (1u32 << (nthreads - w * 32)) - 1
                };
                stack.push(Frame {
                    pc: k.entry,
                    rpc: u32::MAX,
                    mask: valid,
                });
                Warp {
                    regs,
                    preds,
                    stack,
                    exited: !valid,
                    state: State::Ready,
                    insts: 0,
                    waited: 0,
                    red: None,
                    mwait: None,
                    printfs: 0,
                    carrived: 0,
                    cphase: u32::MAX,
                    calls: Vec::new(),
                    lp: loops::LoopRun::default(),
                    wpark: Vec::new(),
                    spin: None,
                }
            })
            .fold(list, |mut list, w| {
                list.push(w);
                list
            });
        BlockRun {
            block_lin,
            shared: zeroed_bytes(ctx.smap.size as usize),
            local: zeroed_bytes(k.local_size as usize * nthreads as usize),
            local_stored: vec![0; (k.local_size as usize * nthreads as usize).div_ceil(64)],
            warps,
            out: BlockOut {
                warp_insts: 0,
                thread_insts: 0,
                fault: None,
                printf: Vec::new(),
                launches: Vec::new(),
                asserts: Vec::new(),
                tma: Default::default(),
                undefined_local_read: None,
            },
            bars: [Barrier::default(); 16],
            mbar_log: MbarLog::new(),
            generation: 0,
            budget: ctx.limits.max_warp_insts_per_block,
            finished: false,
            gwrites: 0,
            rank: ctx.rank(block_lin),
            cpc: u32::MAX,
            launch_id: ctx.launch_id,
        }
    }

    /// Stops a block whose warps all wait at a cluster barrier that cannot complete (a warp that
    /// waits without having arrived, or a block barrier some warp never reaches).
    pub(crate) fn stuck(&mut self) {
        let (wi, pc) = self
            .warps
            .iter()
            .enumerate()
            .find(|(_, w)| w.state != State::Done)
            .map(|(i, w)| (i, w.stack.last().map(|f| f.pc.saturating_sub(1)).unwrap_or(0)))
            .unwrap_or((0, 0));
        self.out.fault = Some(EmuFault {
            block: self.block_lin,
            warp: wi as u32,
            pc,
            lane: None,
            addr: None,
            kind: FaultKind::DivergentBarrier,
            mbar: None,
        });
        self.finished = true;
    }

    /// Whether the block has finished (every warp exited, or a fault).
    pub(crate) fn finished(&self) -> bool {
        self.finished
    }

    /// Stops a waiting block of a grid that cannot go on ([`FaultKind::GridDeadlock`]), at the
    /// first warp that polls (or waits at a barrier).
    pub(crate) fn deadlock(&mut self) {
        let (wi, w) = self
            .warps
            .iter()
            .enumerate()
            .find(|(_, w)| w.state == State::Polling)
            .or_else(|| {
                self.warps
                    .iter()
                    .enumerate()
                    .find(|(_, w)| w.state != State::Done)
            })
            .unwrap_or((0, &self.warps[0]));
        let pc = w.stack.last().map(|f| f.pc).unwrap_or(0);
        self.out.fault = Some(EmuFault {
            block: self.block_lin,
            warp: wi as u32,
            pc,
            lane: None,
            addr: None,
            kind: FaultKind::GridDeadlock,
            mbar: None,
        });
        self.finished = true;
    }

    /// Runs a block of a plain launch whose blocks may wait on each other ([`Ctx::plain_waits`])
    /// alone, as [`run_block`] does, until it finishes (`true`) or it waits on another block
    /// (`false`): every live warp polls global memory in a spin loop or waits at a block barrier,
    /// and [`PLAIN_IDLE_TURNS`] turns in a row wrote no global or shared memory, completed no
    /// barrier and ended no warp, so nothing of the block will change what the polls read.
    /// `phase`: the block's cluster barrier's completed phases (of its 1x1x1 cluster).
    pub(crate) fn run_alone<S: Sink>(&mut self, ctx: &Ctx<'_>, sink: &mut S, phase: &mut u32) -> bool {
        let mut idle = 0u32;
        let mut last = None;
        loop {
            let mut link = ClusterLink::alone();
            link.phase = *phase;
            let done = self.resume(ctx, sink, &mut link);
            *phase = link.phase;
            if done {
                return true;
            }
            if release_cluster(std::slice::from_mut(self), std::slice::from_mut(sink), phase) {
                last = None;
                idle = 0;
                continue;
            }
            if !self.warps.iter().any(|w| w.state == State::Polling) {
                self.stuck();
                return true;
            }
            let now = self.mark();
            idle = if last == Some(now) { idle + 1 } else { 0 };
            if idle >= PLAIN_IDLE_TURNS {
                return false;
            }
            last = Some(now);
        }
    }

    /// What a turn of the block changes besides registers: global writes, completed barriers,
    /// finished warps and a hash of its shared memory.
    fn mark(&self) -> (u64, u32, usize, u64) {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.shared.hash(&mut h);
        (
            self.gwrites,
            self.generation,
            self.warps.iter().filter(|w| w.state == State::Done).count(),
            h.finish(),
        )
    }

    /// Stops a block that waits on other blocks ([`BlockRun::run_alone`]) in a launch whose grid
    /// the GPU cannot hold at once ([`FaultKind::NotResident`]), at its first polling warp.
    pub(crate) fn not_resident(&mut self, per_sm: u32, sms: u32) {
        self.deadlock();
        if let Some(f) = self.out.fault.as_mut() {
            f.kind = FaultKind::NotResident { per_sm, sms };
        }
    }

    /// Runs the block until it finishes (returns `true`) or every live warp waits on the grid
    /// (returns `false`; the waiting warps poll again at the next call).
    pub(crate) fn resume<S: Sink>(
        &mut self,
        ctx: &Ctx<'_>,
        sink: &mut S,
        link: &mut ClusterLink<'_>,
    ) -> bool {
        if self.finished {
            return true;
        }
        for w in self.warps.iter_mut() {
            if w.state == State::Polling {
                w.state = State::Ready;
            }
        }
        let block_lin = self.block_lin;
        let k = ctx.kernel;
        let fault = |out: &mut BlockOut, warp: u32, pc: u32, lane, addr, kind| {
            out.fault = Some(EmuFault {
                block: block_lin,
                warp,
                pc,
                lane,
                addr,
                kind,
                mbar: None,
            });
        };
        let BlockRun {
            shared,
            local,
            local_stored,
            warps,
            out,
            bars,
            mbar_log,
            generation,
            budget,
            gwrites,
            rank,
            cpc,
            ..
        } = self;
        // one view of the block's memory for all the warps' turns (built once per call, not per
        // turn); what the turns add to the block's counts is taken out when the call returns
        let mut bm = BlockMem {
            shared,
            local,
            local_stored,
            undefined_local_read: None,
            local_size: k.local_size as u64,
            mbar: mbar_log,
            gwrites: 0,
            peers: &mut *link.peers,
            rank: *rank,
            cphase: link.phase,
            cwrites: 0,
            cpc: *cpc,
            tma: Default::default(),
            ghint: [0usize; GHINTS],
            gstride: [0usize; GHINTS],
        };
        // the tap that records nothing, made once for all the turns (not per turn)
        let mut plain = loops::Tap::<S, false>::new(sink, ctx.global);
        let done = 'turns: loop {
            for wi in 0..warps.len() {
                if warps[wi].state != State::Ready {
                    continue;
                }
                let w = &mut warps[wi];
                let stop = run_warp(
                    ctx, block_lin, wi as u32, w, &mut bm, &mut plain, budget, out, bars,
                );
                match stop {
                    Stop::Barrier | Stop::Yield => {}
                    Stop::ClusterWait => w.state = State::ClusterWait,
                    Stop::Poll => w.state = State::Polling,
                    Stop::Exit => {
                        w.state = State::Done;
                        plain.sink.warp_exit(wi as u32);
                    }
                    Stop::Fault(kind, pc, lane, addr) => {
                        fault(out, wi as u32, pc, lane, addr, kind);
                        break 'turns true;
                    }
                }
                // the warp's arrivals may complete a counted barrier
                if ctx.counted_bars {
                    release(warps, bars, generation, block_lin, plain.sink, false);
                }
            }
            if warps.iter().all(|w| w.state == State::Done) {
                break 'turns true;
            }
            if warps.iter().any(|w| w.state == State::Ready) {
                continue;
            }
            if warps
                .iter()
                .any(|w| matches!(w.state, State::Polling | State::ClusterWait))
            {
                // the grid's (or the cluster's) other blocks run before these warps poll again
                break 'turns false;
            }
            // every live warp waits at a barrier: complete those that can complete
            if !release(warps, bars, generation, block_lin, plain.sink, true) {
                // deadlock: no warp can run and no barrier can complete
                let (wi, id) = warps
                    .iter()
                    .enumerate()
                    .find_map(|(i, w)| match w.state {
                        State::AtBarrier { id } => Some((i, id)),
                        _ => None,
                    })
                    .unwrap_or((0, 0));
                fault(
                    out,
                    wi as u32,
                    bars[id as usize].pc,
                    None,
                    None,
                    FaultKind::DivergentBarrier,
                );
                break 'turns true;
            }
        };
        *gwrites += bm.gwrites;
        out.tma.add(&bm.tma);
        out.undefined_local_read = min_pc(out.undefined_local_read, bm.undefined_local_read);
        link.writes += bm.cwrites;
        *cpc = bm.cpc;
        if done {
            self.finished = true;
        }
        done
    }
}

/// Completes barriers. A counted barrier completes when its arrivals reach the count; an uncounted
/// one (`bar.sync 0`, `__syncthreads`) when every live warp waits at it (`all_waiting`: no warp of
/// the block can run). Returns whether any barrier completed.
fn release<S: Sink>(
    warps: &mut [Warp],
    bars: &mut [Barrier; 16],
    generation: &mut u32,
    block: u32,
    sink: &mut S,
    all_waiting: bool,
) -> bool {
    let mut any = false;
    // the live warps, counted once a barrier needs them (most calls find no arrival at all)
    let mut live = None;
    for (id, bar) in bars.iter_mut().enumerate() {
        let b = *bar;
        if b.warps == 0 {
            continue;
        }
        let done = match b.expected {
            Some(c) => b.warps * 32 >= c,
            None => {
                all_waiting
                    && b.warps
                        >= *live.get_or_insert_with(|| {
                            warps.iter().filter(|w| w.state != State::Done).count() as u32
                        })
            }
        };
        if !done {
            continue;
        }
        any = true;
        *generation += 1;
        // a counted barrier that some warp of the block does not take part in (exited or not),
        // or that a warp reached with `bar.arrive`, orders only part of the block; an uncounted
        // one orders the warps that exited before it too (they count as arrived)
        let all = if warps.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << warps.len()) - 1
        };
        let takes_part = match b.expected {
            Some(_) => all,
            None => warps
                .iter()
                .enumerate()
                .filter(|(_, w)| w.state != State::Done)
                .fold(0u32, |m, (i, _)| if i < 32 { m | (1 << i) } else { m }),
        };
        if b.waiters != b.members || takes_part & !b.members != 0 {
            sink.barrier_partial(block, id as u32, b.members, b.waiters);
        }
        sink.barrier_release(block, b.pc, *generation);
        *bar = Barrier::default();
        // the block's one clock: the released warps leave at the latest arrival's time
        let at = warps
            .iter()
            .filter(|w| w.state == (State::AtBarrier { id: id as u32 }))
            .map(|w| w.insts + w.waited)
            .max()
            .unwrap_or(0);
        for w in warps.iter_mut() {
            if w.state == (State::AtBarrier { id: id as u32 }) {
                w.waited = at - w.insts;
            }
        }
        for w in warps.iter_mut() {
            if w.state == (State::AtBarrier { id: id as u32 }) {
                w.state = State::Ready;
                if let Some((op, d, p, mask)) = w.red.take() {
                    match op {
                        RedOp::Popc => wr(&mut w.regs[d as usize], &[u64::from(b.popc); 32], mask),
                        RedOp::And => pwrite(&mut w.preds, p, if b.any_false { 0 } else { FULL }, mask),
                        RedOp::Or => pwrite(&mut w.preds, p, if b.popc > 0 { FULL } else { 0 }, mask),
                    }
                }
            }
        }
    }
    any
}

/// A special register whose value differs by lane (and not by block): `%tid`, `%laneid`,
/// `%lanemask_*`.
fn by_lane(s: Special) -> bool {
    matches!(
        s,
        Special::Tid(_)
            | Special::LaneId
            | Special::LaneMaskEq
            | Special::LaneMaskLt
            | Special::LaneMaskLe
            | Special::LaneMaskGe
            | Special::LaneMaskGt
    )
}

/// Per entry of `kernel.row_init`, whether its row keeps its start value from one block to the
/// next of a launch for a given warp index ([`Ctx::fixed_init`]): a constant or a special register
/// that does not depend on the block (`%ctaid` and the cluster coordinates do), whose row no
/// instruction of `ops` (the kernel's) writes and that is not among `zero_rows`. A kernel with a
/// call keeps none (the called bodies' rows are not followed).
pub(crate) fn fixed_init(ops: &[Op], kernel: &Kernel, zero_rows: &[R]) -> Vec<bool> {
    let mut fixed: Vec<bool> = kernel
        .row_init
        .iter()
        .map(|&(r, init)| {
            !zero_rows.contains(&r)
                && !matches!(
                    init,
                    RowInit::Special(
                        Special::Ctaid(_)
                            | Special::ClusterCtaRank
                            | Special::ClusterCtaid(_)
                            | Special::ClusterId(_)
                    )
                )
        })
        .collect();
    for op in ops {
        if matches!(op.inst, Inst::Call { .. } | Inst::BadCall { .. }) {
            return vec![false; fixed.len()];
        }
        // the rows it writes; for an instruction whose effects are not listed, every row it names
        let writes =
            crate::zero_rows::effects(&op.inst).map_or_else(|| crate::fast::rows_of(&op.inst), |(_, w)| w);
        for r in writes {
            for (f, &(row, _)) in fixed.iter_mut().zip(&kernel.row_init) {
                *f &= row != r;
            }
        }
    }
    fixed
}

/// The rows of `kernel.row_init` whose value differs by lane ([`by_lane`]), in that list's
/// order, for each warp of a block of `block` threads ([`Ctx::lane_rows`]).
pub(crate) fn lane_rows(kernel: &Kernel, block: [u32; 3]) -> Vec<Row> {
    let [bx, by, bz] = block;
    let nthreads = bx * by * bz;
    let nwarps = nthreads.div_ceil(32);
    let mut rows = Vec::new();
    for w in 0..nwarps {
        // the lanes' thread indices, counted up from the warp's first thread (no division per
        // lane and row)
        let mut tids = [[0u32; 3]; 32];
        let t0 = w * 32;
        let mut tid = [t0 % bx, (t0 / bx) % by, t0 / (bx * by)];
        for t in tids.iter_mut() {
            *t = tid;
            tid[0] += 1;
            if tid[0] == bx {
                tid[0] = 0;
                tid[1] += 1;
                if tid[1] == by {
                    tid[1] = 0;
                    tid[2] += 1;
                }
            }
        }
        for &(_, init) in &kernel.row_init {
            let RowInit::Special(s) = init else { continue };
            if !by_lane(s) {
                continue;
            }
            let mut row = [0u64; 32];
            for (l, v) in row.iter_mut().enumerate() {
                *v = lane_special(s, tids[l], l as u32);
            }
            rows.push(row);
        }
    }
    rows
}

/// The value of a [`by_lane`] special register in lane `lane` (thread `tid`).
fn lane_special(s: Special, tid: [u32; 3], lane: u32) -> u64 {
    let lt = (1u64 << lane) - 1;
    (match s {
        Special::Tid(c) => tid[c as usize] as u64,
        Special::LaneId => lane as u64,
        Special::LaneMaskEq => 1u64 << lane,
        Special::LaneMaskLt => lt,
        Special::LaneMaskLe => lt | (1 << lane),
        Special::LaneMaskGe => !lt & 0xffff_ffff,
        Special::LaneMaskGt => !(lt | (1 << lane)) & 0xffff_ffff,
        _ => 0,
    }) & 0xffff_ffff
}

fn special(s: Special, tid: [u32; 3], ctx: &Ctx<'_>, cta: [u32; 3], w: u32, nwarps: u32, lane: u32) -> u64 {
    (match s {
        Special::Ntid(c) => ctx.block[c as usize] as u64,
        Special::Ctaid(c) => cta[c as usize] as u64,
        Special::Nctaid(c) => ctx.grid[c as usize] as u64,
        Special::WarpId => w as u64,
        Special::NWarpId => nwarps as u64,
        Special::SmId | Special::GridId => 0,
        Special::NSmId => 1,
        Special::Tid(_)
        | Special::LaneId
        | Special::LaneMaskEq
        | Special::LaneMaskLt
        | Special::LaneMaskLe
        | Special::LaneMaskGe
        | Special::LaneMaskGt => lane_special(s, tid, lane),
        Special::DynSmemSize => ctx.dyn_smem as u64,
        Special::TotalSmemSize => ctx.user_smem as u64,
        Special::EnvReg(1) => ctx.grid_workspace >> 32,
        Special::EnvReg(2) => ctx.grid_workspace & 0xffff_ffff,
        Special::EnvReg(_) => 0,
        Special::ClusterCtaRank => {
            let [x, y, _] = ctx.cluster;
            u64::from(cta[0] % x + (cta[1] % y) * x + (cta[2] % ctx.cluster[2]) * x * y)
        }
        Special::ClusterNCtaRank => u64::from(ctx.csize),
        Special::ClusterCtaid(c) => u64::from(cta[c as usize] % ctx.cluster[c as usize]),
        Special::ClusterNctaid(c) => u64::from(ctx.cluster[c as usize]),
        Special::ClusterId(c) => u64::from(cta[c as usize] / ctx.cluster[c as usize]),
        Special::NClusterId(c) => u64::from(ctx.grid[c as usize] / ctx.cluster[c as usize]),
        Special::IsExplicitCluster => u64::from(ctx.explicit_cluster),
        Special::ReservedSmem(i) => {
            let base = u64::from(ctx.user_smem).div_ceil(16) * 16;
            let size = u64::from(ctx.kernel.reserved_smem);
            match i {
                0 => base,
                1 => base + size,
                2 => size,
                n => base + 8 * u64::from(n - 3),
            }
        }
    }) & 0xffff_ffff
}

struct BlockMem<'b> {
    shared: &'b mut [u8],
    local: &'b mut [u8],
    /// One bit per byte of `local`: stored by its thread in this launch ([`mark_stored`]).
    local_stored: &'b mut [u64],
    /// The lowest pc of an `ld.local` (or a generic load into the local window) that read a byte
    /// its thread never stored: the emulator reads zero there, the GPU whatever the memory held.
    undefined_local_read: Option<u32>,
    local_size: u64,
    mbar: &'b mut MbarLog,
    /// Writes to global memory so far (a cooperative grid whose blocks all wait and wrote nothing
    /// in a whole turn can never go on).
    gwrites: u64,
    /// The shared memories of the cluster's other blocks (empty outside cluster launches; the
    /// slot of this block's rank is empty).
    peers: &'b mut [Vec<u8>],
    /// This block's rank in its cluster.
    rank: u32,
    /// The cluster barrier's completed phases.
    cphase: u32,
    /// Writes to other blocks' shared memory so far.
    cwrites: u64,
    /// The lowest pc of a cluster barrier arrival since the last release.
    cpc: u32,
    /// The TMA instructions' counts in this step.
    tma: crate::tma::TmaCounts,
    /// The global region each instruction (by `pc % GHINTS`) found last, tried first by its next
    /// whole-warp access (a hint: any region is looked up again when it misses).
    ghint: [usize; GHINTS],
    /// The host address of each instruction's (by `pc % GHINTS`) last whole-warp global run
    /// ([`prefetch_stride`]).
    gstride: [usize; GHINTS],
}

/// Prefetches the host words of an instruction's next whole-warp global run, one stride on from
/// `at` (the run's first word) by the stride from its last run (`last`, updated): a tile's rows
/// lie a matrix row apart, further than the host's own prefetchers look, so the next warp's words
/// are on their way while this one is emulated. A guess that changes no value (a prefetch of any
/// address is allowed; a wrong one costs a little bandwidth).
#[inline(always)]
fn prefetch_stride(last: &mut usize, at: *const std::sync::atomic::AtomicU32) {
    let p = at as usize;
    let d = p.wrapping_sub(*last);
    let known = *last != 0;
    *last = p;
    // runs within 256 bytes of each other are sequential: the host prefetches those itself
    if known && d.wrapping_add(256) > 512 {
        let next = p.wrapping_add(d);
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // the run's 128 bytes: its first, middle and last byte's lines
            for o in [0usize, 64, 124] {
                // SAFETY: a prefetch reads nothing into the program and never faults, whatever
                // the address
                unsafe { _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(o) as *const i8) };
            }
        }
    }
}

/// The instructions' slots in [`BlockMem::ghint`].
const GHINTS: usize = 8;

/// The last mbarrier phase completions of a block (a ring, allocated at the block's first
/// completion: most kernels have no mbarrier, and a block of theirs then neither fills nor moves
/// 1.5 KB of it): a warp that arrived on a phase, or whose wait for it failed, before the phase
/// completed sees it complete on its next try even when later phases have completed meanwhile
/// (on the hardware the waiting warps run concurrently and observe each completion).
struct MbarLog {
    tick: u64,
    ring: Option<Box<[(u64, u64, u64); 64]>>,
}

impl MbarLog {
    fn new() -> MbarLog {
        MbarLog { tick: 0, ring: None }
    }
    /// Records that the phase of parity `parity` of the barrier at `addr` completed.
    fn completed(&mut self, addr: u64, parity: u64) {
        self.tick += 1;
        let ring = self.ring.get_or_insert_with(|| Box::new([(u64::MAX, 0, 0); 64]));
        ring[(self.tick % 64) as usize] = (addr, parity, self.tick);
    }
    /// Whether a phase of parity `parity` of `addr` completed after generation `since`.
    fn completed_since(&self, addr: u64, parity: u64, since: u64) -> bool {
        self.ring.as_ref().is_some_and(|ring| {
            ring.iter()
                .any(|&(a, p, g)| a == addr && p == parity && g > since)
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    Shared,
    Global,
    Local,
    Const,
    KParam,
}

/// Marks bytes `at..at + n` of the block's local memory stored (out of range: nothing).
fn mark_stored(bits: &mut [u64], at: u64, n: u64) {
    for b in at..at + n {
        if let Some(w) = bits.get_mut((b / 64) as usize) {
            *w |= 1 << (b % 64);
        }
    }
}

/// Whether bytes `at..at + n` of the block's local memory have all been stored.
fn all_stored(bits: &[u64], at: u64, n: u64) -> bool {
    (at..at + n).all(|b| {
        bits.get((b / 64) as usize)
            .is_some_and(|w| w >> (b % 64) & 1 == 1)
    })
}

/// The lower of two optional pcs.
pub(crate) fn min_pc(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// Resolves a lane's address in `space` to a concrete space and offset.
#[inline(always)]
fn resolve(space: MemSpace, a: u64) -> (Res, u64) {
    match space {
        // the shared and local windows are 32 bits wide: the GPU reads the low 32 bits of a
        // state-space address (ptxas truncates a 64-bit one), so a sum past 2^32 wraps
        MemSpace::Shared => (Res::Shared, a & 0xffff_ffff),
        MemSpace::Global => (Res::Global, a),
        MemSpace::Local | MemSpace::CallParam => (Res::Local, a & 0xffff_ffff),
        MemSpace::Const => (Res::Const, a),
        MemSpace::KernelParam => (Res::KParam, a),
        MemSpace::Generic => {
            if (mem::SHARED_WINDOW..mem::SHARED_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Shared, a - mem::SHARED_WINDOW)
            } else if (mem::LOCAL_WINDOW..mem::LOCAL_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Local, a - mem::LOCAL_WINDOW)
            } else if (mem::CONST_WINDOW..mem::CONST_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Const, a - mem::CONST_WINDOW)
            } else if (mem::PARAM_WINDOW..mem::PARAM_WINDOW + mem::WINDOW).contains(&a) {
                (Res::KParam, a - mem::PARAM_WINDOW)
            } else {
                (Res::Global, a)
            }
        }
    }
}

/// The address a lane's `[addr + off]` names: a 32-bit address register's sum wraps at 32 bits,
/// as the GPU's 32-bit address arithmetic does (`[%r4+68]` with `%r4 = base - 64` is `base + 4`).
#[inline(always)]
fn lane_address(b: u64, addr32: bool, offv: u64) -> u64 {
    if addr32 {
        u64::from((b as u32).wrapping_add(offv as u32))
    } else {
        b.wrapping_add(offv)
    }
}

fn event_space(space: MemSpace, r: Res) -> Space {
    match (space, r) {
        (MemSpace::CallParam, _) | (_, Res::KParam) => Space::Param,
        (_, Res::Shared) => Space::Shared,
        (_, Res::Global) => Space::Global,
        (_, Res::Local) => Space::Local,
        (_, Res::Const) => Space::Const,
    }
}

fn fault_space(r: Res) -> Space {
    match r {
        Res::Shared => Space::Shared,
        Res::Global => Space::Global,
        Res::Local => Space::Local,
        Res::Const => Space::Const,
        Res::KParam => Space::Param,
    }
}

/// Runs warp `wi` until it stops (barrier, exit, yield, fault), its events going to `sink`
/// through a [`loops::Tap`] that records the iterations [`loops::after_branch`] may repeat.
#[allow(clippy::too_many_arguments)]
///
/// `plain` is the caller's tap that records nothing (it keeps no state from one turn to the next,
/// so one serves every turn of a [`BlockRun::resume`]); a kernel with qualifying loops gets a
/// recording tap per turn over its sink.
fn run_warp<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    plain: &mut loops::Tap<'_, S, false>,
    budget: &mut u64,
    out: &mut BlockOut,
    bars: &mut [Barrier; 16],
) -> Stop {
    if ctx.loops.is_empty() {
        run_warp_tapped(ctx, block, wi, w, bm, plain, budget, out, bars)
    } else {
        let mut tap = loops::Tap::<S, true>::new(&mut *plain.sink, ctx.global);
        run_warp_tapped(ctx, block, wi, w, bm, &mut tap, budget, out, bars)
    }
}

#[allow(clippy::too_many_arguments)]
fn run_warp_tapped<S: Sink, const REC: bool>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut loops::Tap<'_, S, REC>,
    budget: &mut u64,
    out: &mut BlockOut,
    bars: &mut [Barrier; 16],
) -> Stop {
    let xops = ctx.xops;
    let alu_runs = ctx.alu_runs;
    let entry = ctx.kernel.entry;
    'frame: loop {
        let Some(&top) = w.stack.last() else {
            return Stop::Exit;
        };
        let rpc = top.rpc;
        let active = top.mask & !w.exited;
        if active == 0 {
            w.stack.pop();
            if w.calls.last().is_some_and(|c| c.base == w.stack.len()) {
                return_from_call(ctx, wi, w, bm);
            }
            continue;
        }
        let nact = active.count_ones() as u64;
        let mut pc = top.pc;
        // the instructions `run..pc` executed and not yet counted nor sent to the sink: ALU
        // instructions (which send no other event) are sent as one run, before the next
        // instruction that may send events, and before the warp leaves this frame
        let mut run = pc;
        loop {
            if pc == rpc {
                send_run(sink, w, out, wi, run, pc, active, nact);
                w.stack.pop();
                continue 'frame;
            }
            let i = pc.wrapping_sub(entry) as usize;
            // a straight run of ALU instructions (no events, no jumps), up to the reconvergence
            // pc: run at once when the budget covers it all, without the bookkeeping below
            // (which counts them in `run` all the same: the sink sees the same runs)
            if let Some(&n) = alu_runs.get(i)
                && n > 1
            {
                let n = if rpc > pc { n.min(rpc - pc) } else { n };
                if *budget >= u64::from(n) {
                    *budget -= u64::from(n);
                    let end = pc + n;
                    for op in &xops[i..i + n as usize] {
                        let mask = active & pval(&w.preds, op.guard);
                        if !alu_step(w, &op.x, mask) {
                            // not in a run (`alu_runs`): the rest steps one by one
                            *budget += u64::from(end - pc);
                            break;
                        }
                        pc += 1;
                    }
                    continue;
                }
            }
            // the kernel's instructions are `xops`, from `entry` (one test for both ends); by
            // reference: a copy loaded every field of the widest variant for every instruction
            let Some(op) = xops.get(i) else {
                send_run(sink, w, out, wi, run, pc, active, nact);
                return Stop::Fault(FaultKind::FellOffEnd, pc, None, None);
            };
            if *budget == 0 {
                send_run(sink, w, out, wi, run, pc, active, nact);
                return Stop::Fault(FaultKind::InstructionLimit, pc, None, None);
            }
            *budget -= 1;
            let mask = active & pval(&w.preds, op.guard);
            if alu_step(w, &op.x, mask) {
                pc += 1;
                continue;
            }
            // an instruction that may send events: the run before it goes to the sink first. A
            // `bar.warp.sync` parked under its sibling path runs again alone when the sibling
            // ended without one: counted once, when it first ran (`warp_join`)
            let again = !w.wpark.is_empty() && w.wpark.iter().any(|&(l, p, _)| p == pc && active & l == l);
            send_run(sink, w, out, wi, run, pc + u32::from(!again), active, nact);
            run = pc + 1;
            match op.x {
                // executed above
                X::U2(..) | X::U3(..) | X::U1(..) | X::Setp(..) => {}
                X::Sh32 {
                    st,
                    addr32,
                    r,
                    addr,
                    off,
                } => {
                    if mask != 0
                        && let Err(s) =
                            shared32(ctx, block, wi, w, bm, sink, pc, mask, st, addr32, r, addr, off)
                    {
                        if let Some(t) = w.stack.last_mut() {
                            t.pc = pc + 1;
                        }
                        return s;
                    }
                }
                X::Ldst {
                    st,
                    space,
                    ty,
                    vec,
                    addr32,
                    r,
                    addr,
                    off,
                } => {
                    if mask != 0
                        && let Err(s) = ldst(
                            ctx, block, wi, w, bm, sink, pc, mask, st, space, ty, vec, addr32, r, addr, off,
                        )
                    {
                        if let Some(t) = w.stack.last_mut() {
                            t.pc = pc + 1;
                        }
                        return s;
                    }
                }
                X::Known(k) => {
                    if mask != 0 {
                        known::exec_known(ctx, block, wi, w, sink, pc, mask, &ctx.known[k as usize]);
                    }
                }
                X::Gen(Inst::Printf { fmt, args, ret }) => {
                    let seq = w.printfs;
                    w.printfs += u32::from(mask != 0);
                    let mut m = mask;
                    while m != 0 {
                        let l = m.trailing_zeros();
                        m &= m - 1;
                        let tid = wi * 32 + l;
                        match printf_lane(ctx, bm, tid, fmt, args) {
                            Some(call) => {
                                let n = call.args.len() as u64;
                                let at = u64::from(tid) * bm.local_size + u64::from(ret);
                                if mem::write_bytes(bm.local, at, 4, n).is_some() {
                                    mark_stored(bm.local_stored, at, 4);
                                }
                                out.printf.push(crate::printf::Printed { block, seq, ..call });
                            }
                            None => {
                                return Stop::Fault(
                                    FaultKind::OutOfBounds { space: Space::Local },
                                    pc,
                                    Some(l),
                                    None,
                                );
                            }
                        }
                    }
                }
                X::Gen(Inst::DevRt {
                    call,
                    args,
                    ret,
                    slot,
                }) => {
                    let c = crate::devlaunch::Call {
                        call,
                        args,
                        ret,
                        slot,
                    };
                    let mut m = mask;
                    while m != 0 {
                        let l = m.trailing_zeros();
                        m &= m - 1;
                        let tid = wi * 32 + l;
                        let mut lane = crate::devlaunch::Lane {
                            frame: u64::from(tid) * bm.local_size,
                            local_size: bm.local_size,
                            local: bm.local,
                            stored: bm.local_stored,
                            global: ctx.global,
                        };
                        let r = crate::devlaunch::exec_lane(
                            ctx.prog,
                            ctx.devrt,
                            &mut lane,
                            &c,
                            block,
                            tid,
                            pc,
                            w.printfs,
                            &mut out.launches,
                        );
                        if r.is_err() {
                            return Stop::Fault(
                                FaultKind::OutOfBounds { space: Space::Local },
                                pc,
                                Some(l),
                                None,
                            );
                        }
                    }
                }
                X::Gen(Inst::AssertFail {
                    msg,
                    file,
                    line,
                    func,
                }) => {
                    if mask != 0 {
                        let mut m = mask;
                        while m != 0 {
                            let l = m.trailing_zeros();
                            m &= m - 1;
                            let tid = wi * 32 + l;
                            match assert_lane(ctx, bm, block, tid, pc, [msg, file, line, func]) {
                                Some(a) => out.asserts.push(a),
                                None => {
                                    return Stop::Fault(
                                        FaultKind::OutOfBounds { space: Space::Local },
                                        pc,
                                        Some(l),
                                        None,
                                    );
                                }
                            }
                        }
                        // the GPU traps: this warp and its block go no further
                        return Stop::Fault(FaultKind::Assert, pc, Some(mask.trailing_zeros()), None);
                    }
                }
                X::Gen(Inst::Bra { target, reconv }) => {
                    if let Some(t) = w.stack.last_mut() {
                        t.pc = pc + 1;
                    }
                    let flow = branch(
                        ctx, block, wi, w, sink, op.guard, pc, active, mask, target, reconv,
                    );
                    if REC && op.guard != PSrc::TRUE {
                        loops::after_branch(
                            ctx,
                            block,
                            wi,
                            w,
                            sink,
                            budget,
                            out,
                            &mut bm.gwrites,
                            pc,
                            active,
                            mask,
                        );
                    }
                    match flow {
                        Flow::Next => {}
                        Flow::Reload => continue 'frame,
                        Flow::Stop(s) => return s,
                    }
                }
                X::Gen(inst @ (Inst::Bar { .. } | Inst::BarRed { .. })) => {
                    if let Some(t) = w.stack.last_mut() {
                        t.pc = pc + 1;
                    }
                    match bar(block, wi, w, sink, bars, inst, pc, mask) {
                        Flow::Next => {}
                        Flow::Reload => continue 'frame,
                        Flow::Stop(s) => return s,
                    }
                }
                X::Gen(inst) => {
                    if let Some(t) = w.stack.last_mut() {
                        t.pc = pc + 1;
                    }
                    let flow = general(
                        ctx, block, wi, w, bm, sink, bars, inst, op.guard, pc, active, mask,
                    );
                    if REC && op.guard != PSrc::TRUE && matches!(inst, Inst::Bra { .. }) {
                        loops::after_branch(
                            ctx,
                            block,
                            wi,
                            w,
                            sink,
                            budget,
                            out,
                            &mut bm.gwrites,
                            pc,
                            active,
                            mask,
                        );
                    }
                    match flow {
                        Flow::Next => {}
                        Flow::Reload => continue 'frame,
                        Flow::Stop(s) => return s,
                    }
                }
            }
            pc += 1;
        }
    }
}

/// Executes an ALU instruction ([`X::is_alu`]: a row kernel or a `setp`) of warp `w` in the lanes
/// `mask`; any other instruction is left alone and gives `false`. The one place both the straight
/// runs and the step-by-step loop of [`run_warp_tapped`] execute ALU instructions.
#[inline(always)]
fn alu_step(w: &mut Warp, x: &X, mask: u32) -> bool {
    // SAFETY (each kernel call): a decoded instruction's kernel, which `fast::decode` chose for
    // this CPU
    match *x {
        X::U2(f, d, a, b) => unsafe { f(&mut w.regs, d, a, b, mask) },
        X::U3(f, d, a, b, c) => unsafe { f(&mut w.regs, d, a, b, c, mask) },
        X::U1(f, d, a) => unsafe { f(&mut w.regs, d, a, mask) },
        X::Setp(f, p, q, a, b) => {
            let bits = unsafe { f(&w.regs[a as usize], &w.regs[b as usize]) };
            pwrite(&mut w.preds, p, bits, mask);
            pwrite(&mut w.preds, q, !bits, mask);
        }
        _ => return false,
    }
    true
}

/// How a warp stalled in the spin loop whose branch is at `pc` stops: as a strong load does
/// (`Inst::Ld`'s `sync`); in a plain launch whose blocks may wait on each other, a loop that polls
/// global memory as a grid barrier's poll does.
fn spin_stop(ctx: &Ctx<'_>, pc: u32) -> Stop {
    if ctx.cooperative || ctx.csize > 1 || (ctx.plain_waits && ctx.spins.global_at(pc)) {
        Stop::Poll
    } else {
        Stop::Yield
    }
}

/// Counts the instructions `from..to` of warp `wi`, executed one after another by `active`
/// (`nact` lanes), and sends them to the sink as one run ([`Sink::insts`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn send_run<S: Sink>(
    sink: &mut S,
    w: &mut Warp,
    out: &mut BlockOut,
    wi: u32,
    from: u32,
    to: u32,
    active: u32,
    nact: u64,
) {
    if to > from {
        let n = to - from;
        w.insts += u64::from(n);
        out.warp_insts += u64::from(n);
        out.thread_insts += u64::from(n) * nact;
        sink.insts(wi, from, n, active);
    }
}

/// A branch (`Inst::Bra`), called from the instruction loop (and [`general`]): jumps, or splits the
/// warp at a divergent conditional branch. The top frame's pc already points after it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn branch<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    sink: &mut S,
    guard: PSrc,
    pc: u32,
    active: u32,
    mask: u32,
    target: u32,
    reconv: u32,
) -> Flow {
    let top = w.stack.last_mut().expect("frame");
    if guard == PSrc::TRUE {
        top.pc = target;
        if target <= pc && ctx.spins.stalled(w, pc) {
            spin::let_other_lanes_run(w, &ctx.prog.ops);
            return Flow::Stop(spin_stop(ctx, pc));
        }
    } else {
        sink.branch(&BranchEvent {
            block,
            warp: wi,
            pc,
            active,
            taken: mask,
        });
        let nt = active & !mask;
        if mask == 0 {
            return Flow::Next;
        } else if nt == 0 {
            top.pc = target;
        } else {
            top.pc = reconv;
            let rpc = reconv;
            w.stack.push(Frame {
                pc: target,
                rpc,
                mask,
            });
            w.stack.push(Frame {
                pc: pc + 1,
                rpc,
                mask: nt,
            });
        }
        // a spin loop that changed nothing: let the others run (`spin`)
        if target <= pc && ctx.spins.stalled(w, pc) {
            spin::let_other_lanes_run(w, &ctx.prog.ops);
            return Flow::Stop(spin_stop(ctx, pc));
        }
    }
    Flow::Reload
}

/// Lanes `mask` call out-of-line body `site` ([`Inst::Call`]): the body's rows, predicates and
/// the lanes' local bytes are saved, the arguments copied into its parameters, and a frame for
/// the body pushed (the caller's frame already points after the call).
#[allow(clippy::too_many_arguments)]
fn call(ctx: &Ctx<'_>, wi: u32, w: &mut Warp, bm: &mut BlockMem<'_>, pc: u32, mask: u32, site: u32) -> Flow {
    let s = &ctx.prog.calls[site as usize];
    if w.calls.len() >= MAX_CALL_DEPTH {
        return Flow::Stop(Stop::Fault(
            FaultKind::StackOverflow,
            pc,
            Some(mask.trailing_zeros()),
            None,
        ));
    }
    let rows = w.regs[s.rows.start as usize..s.rows.end as usize].to_vec();
    let preds = w.preds[s.preds.start as usize..s.preds.end as usize].to_vec();
    let (lo, hi) = (s.local.start as usize, s.local.end as usize);
    let mut local = Vec::with_capacity((hi - lo) * mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let base = (wi * 32 + l) as usize * bm.local_size as usize;
        local.extend_from_slice(&bm.local[base + lo..base + hi]);
        for &(from, to, n) in &s.args {
            let (from, to) = (base + from as usize, base + to as usize);
            bm.local.copy_within(from..from + n as usize, to);
            mark_stored(bm.local_stored, to as u64, u64::from(n));
        }
    }
    w.stack.push(Frame {
        pc: s.entry,
        rpc: CALL_RPC,
        mask,
    });
    w.calls.push(CallRec {
        base: w.stack.len() - 1,
        site,
        mask,
        rows,
        preds,
        local,
    });
    Flow::Reload
}

/// Every lane of the innermost call has returned or exited (its first frame popped): the return
/// values are read, what the call saved is restored, and the values written to the caller's
/// slots.
fn return_from_call(ctx: &Ctx<'_>, wi: u32, w: &mut Warp, bm: &mut BlockMem<'_>) {
    let Some(c) = w.calls.pop() else {
        return;
    };
    let s = &ctx.prog.calls[c.site as usize];
    let live = c.mask & !w.exited;
    let lane_base = |l: u32| (wi * 32 + l) as usize * bm.local_size as usize;
    let mut vals = Vec::new();
    let mut m = live;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let b = lane_base(l);
        for &(from, _, n) in &s.rets {
            let from = b + from as usize;
            vals.extend_from_slice(&bm.local[from..from + n as usize]);
        }
    }
    w.regs[s.rows.start as usize..s.rows.end as usize].copy_from_slice(&c.rows);
    w.preds[s.preds.start as usize..s.preds.end as usize].copy_from_slice(&c.preds);
    let (lo, hi) = (s.local.start as usize, s.local.end as usize);
    if hi > lo {
        let mut saved = c.local.chunks_exact(hi - lo);
        let mut m = c.mask;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let b = lane_base(l);
            if let Some(chunk) = saved.next() {
                bm.local[b + lo..b + hi].copy_from_slice(chunk);
            }
        }
    }
    let mut vals = vals.iter();
    let mut m = live;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let b = lane_base(l);
        for &(_, to, n) in &s.rets {
            for k in 0..n as usize {
                if let Some(&v) = vals.next() {
                    bm.local[b + to as usize + k] = v;
                }
            }
            mark_stored(bm.local_stored, (b + to as usize) as u64, u64::from(n));
        }
    }
}

/// The lanes of `mask` grouped by the member mask each names in `row` (a `bar.warp.sync`'s mask
/// operand), when they do not all name the same one; `None` when they do (or no lane is active).
fn member_groups(row: &Row, mask: u32) -> Option<Vec<(u32, u32)>> {
    let first = *row.get(mask.trailing_zeros() as usize)? as u32;
    let lanes = || (0..32u32).filter(move |l| mask >> l & 1 == 1);
    if lanes().all(|l| row[l as usize] as u32 == first) {
        return None;
    }
    let mut groups: Vec<(u32, u32)> = Vec::new();
    for l in lanes() {
        let v = row[l as usize] as u32;
        match groups.iter_mut().find(|g| g.1 == v) {
            Some(g) => g.0 |= 1 << l,
            None => groups.push((1 << l, v)),
        }
    }
    Some(groups)
}

/// A block or warp barrier (`Inst::Bar`, `Inst::BarRed`), called from the instruction loop (and
/// [`general`]). The top frame's pc already points after it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn bar<S: Sink>(
    block: u32,
    wi: u32,
    w: &mut Warp,
    sink: &mut S,
    bars: &mut [Barrier; 16],
    inst: Inst,
    pc: u32,
    mask: u32,
) -> Flow {
    if mask == 0 {
        return Flow::Next;
    }
    let (kind, id, count, red) = match inst {
        Inst::Bar { kind, id, count } => (kind, id, count, None),
        Inst::BarRed {
            op,
            id,
            count,
            d,
            p,
            c,
        } => (BarKind::Sync, id, count, Some((op, d, p, c))),
        _ => unreachable!(),
    };
    let first = mask.trailing_zeros() as usize;
    let idv = w.regs[id as usize][first] as u32;
    let kind = match kind {
        BarKind::Sync => BarrierKind::Sync,
        BarKind::Warp => BarrierKind::Warp,
        BarKind::Arrive => BarrierKind::Arrive,
    };
    let mut mask = mask;
    if kind == BarrierKind::Warp
        && let Some(groups) = member_groups(&w.regs[id as usize], mask)
    {
        // lanes naming different member masks (a cooperative-groups tile's `sync()`: each tile
        // of 16 lanes names its own) synchronise apart: one synchronisation per mask, of the
        // lanes that name it
        for (lanes, member) in groups {
            sink.barrier(&BarrierEvent {
                block,
                warp: wi,
                pc,
                active: lanes,
                id: member,
                kind,
            });
        }
        return Flow::Next;
    }
    if kind == BarrierKind::Warp {
        // `idv` is the member mask: lanes of diverged paths synchronise together
        match warp_join::warp_sync(w, pc, mask, idv) {
            warp_join::Join::Park => return Flow::Reload,
            warp_join::Join::Sync(m) => mask = m,
        }
    }
    sink.barrier(&BarrierEvent {
        block,
        warp: wi,
        pc,
        active: mask,
        id: idv,
        kind,
    });
    if kind == BarrierKind::Warp {
        return Flow::Next;
    }
    let live = !w.exited;
    if mask != live || idv >= 16 {
        // a block barrier reached by part of the warp's live threads, or a bad id
        let lane = if idv >= 16 {
            first as u32
        } else {
            (live & !mask).trailing_zeros()
        };
        return Flow::Stop(Stop::Fault(FaultKind::DivergentBarrier, pc, Some(lane), None));
    }
    let b = &mut bars[idv as usize];
    let this = (count != NO_REG).then(|| w.regs[count as usize][first] as u32);
    if b.warps > 0 && b.expected != this {
        // the threads of one barrier phase must all give the same thread count
        return Flow::Stop(Stop::Fault(
            FaultKind::BarrierCount {
                first: b.expected,
                this,
            },
            pc,
            None,
            None,
        ));
    }
    b.pc = if b.warps == 0 { pc } else { b.pc.min(pc) };
    b.warps += 1;
    if wi < 32 {
        b.members |= 1 << wi;
        if kind == BarrierKind::Sync {
            b.waiters |= 1 << wi;
        }
    }
    b.expected = this;
    if let Some((op, d, p, c)) = red {
        let v = pval(&w.preds, c) & mask;
        b.popc += v.count_ones();
        b.any_false |= v != mask;
        w.red = Some((op, d, p, mask));
    }
    if kind == BarrierKind::Sync {
        w.state = State::AtBarrier { id: idv };
        return Flow::Stop(Stop::Barrier);
    }
    Flow::Next
}

/// Executes an instruction without a fast path. The top frame's pc already points after it.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn general<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    bars: &mut [Barrier; 16],
    inst: Inst,
    guard: PSrc,
    pc: u32,
    active: u32,
    mask: u32,
) -> Flow {
    let regs = &mut w.regs[..];
    match inst {
        Inst::Un { op: uo, ty, d, a } => map1(regs, d, a, mask, |x| arith::un(uo, ty, x)),
        Inst::Bin { op: bo, ty, d, a, b } => map2(regs, d, a, b, mask, |x, y| arith::bin(bo, ty, x, y)),
        Inst::Tern {
            op: to,
            ty,
            d,
            a,
            b,
            c,
        } => map3(regs, d, a, b, c, mask, |x, y, z| arith::tern(to, ty, x, y, z)),
        Inst::FRound {
            op,
            ty,
            rnd,
            d,
            a,
            b,
            c,
        } => map3(regs, d, a, b, c, mask, |x, y, z| {
            arith::fround(op, ty, rnd, x, y, z)
        }),
        Inst::Carry {
            op,
            ty,
            cin,
            cout,
            d,
            a,
            b,
            c,
            cc,
        } => {
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let carry_in = if cin { regs[cc as usize][l] } else { 0 };
                let (v, co) = arith::carry(
                    op,
                    ty,
                    regs[a as usize][l],
                    regs[b as usize][l],
                    regs[c as usize][l],
                    carry_in,
                );
                regs[d as usize][l] = v;
                if cout {
                    regs[cc as usize][l] = co;
                }
            }
        }
        Inst::Setp {
            cmp,
            ty,
            p,
            q,
            a,
            b,
            bop,
            c,
        } => {
            let bits = cmp_bits(&regs[a as usize], &regs[b as usize], |x, y| {
                arith::cmp(cmp, ty, x, y)
            });
            let cv = pval(&w.preds, c);
            let (pv, qv) = match bop {
                None => (bits, !bits),
                Some(BoolOp::And) => (bits & cv, !bits & cv),
                Some(BoolOp::Or) => (bits | cv, !bits | cv),
                Some(BoolOp::Xor) => (bits ^ cv, !bits ^ cv),
            };
            pwrite(&mut w.preds, p, pv, mask);
            pwrite(&mut w.preds, q, qv, mask);
        }
        Inst::Cvt {
            dty,
            sty,
            rnd,
            sat,
            d,
            a,
        } => map1(regs, d, a, mask, |x| arith::cvt(dty, sty, rnd, sat, x)),
        Inst::Bfi {
            ty,
            d,
            a,
            b,
            pos,
            len,
        } => {
            let (ra, rb, rp, rl) = (
                regs[a as usize],
                regs[b as usize],
                regs[pos as usize],
                regs[len as usize],
            );
            let mut t = [0u64; 32];
            for l in 0..32 {
                t[l] = arith::bfi(ty, ra[l], rb[l], rp[l], rl[l]);
            }
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::Lop3 { d, a, b, c, lut } => map3(regs, d, a, b, c, mask, |x, y, z| arith::lop3(x, y, z, lut)),
        Inst::Selp { ty, d, a, b, p } => {
            let pv = pval(&w.preds, p);
            let (ra, rb) = (regs[a as usize], regs[b as usize]);
            let mut t = [0u64; 32];
            for l in 0..32 {
                t[l] = arith::trunc(ty, if (pv >> l) & 1 != 0 { ra[l] } else { rb[l] });
            }
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::Set {
            cmp,
            dty,
            sty,
            d,
            a,
            b,
        } => {
            let one = match dty {
                Ty::F32 => 1.0f32.to_bits() as u64,
                // `set.eq.f16.f16` (hlog10's fix-ups of single inputs): 1.0 as a half
                Ty::F16 => 0x3c00,
                Ty::BF16 => 0x3f80,
                _ => 0xffff_ffff,
            };
            map2(regs, d, a, b, mask, |x, y| {
                if arith::cmp(cmp, sty, x, y) { one } else { 0 }
            })
        }
        Inst::PredOp { op: po, d, a, b } => {
            let (x, y) = (pval(&w.preds, a), pval(&w.preds, b));
            let v = match po {
                BoolOp::And => x & y,
                BoolOp::Or => x | y,
                BoolOp::Xor => x ^ y,
            };
            pwrite(&mut w.preds, d, v, mask);
        }
        Inst::PredToReg { d, p } => {
            let pv = pval(&w.preds, p);
            let mut t = [0u64; 32];
            for (l, v) in t.iter_mut().enumerate() {
                *v = ((pv >> l) & 1) as u64;
            }
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::RegToPred { d, a } => {
            let bits = cmp_bits(&regs[a as usize], &regs[a as usize], |x, _| x != 0);
            pwrite(&mut w.preds, d, bits, mask);
        }
        Inst::TestP { prop, ty, p, a } => {
            let bits = cmp_bits(&regs[a as usize], &regs[a as usize], |x, _| {
                arith::testp(prop, ty, x)
            });
            pwrite(&mut w.preds, p, bits, mask);
        }
        Inst::Cvta {
            space,
            to_generic,
            d,
            a,
        } => {
            let win = match space {
                MemSpace::Shared => mem::SHARED_WINDOW,
                MemSpace::Local | MemSpace::CallParam => mem::LOCAL_WINDOW,
                MemSpace::Const => mem::CONST_WINDOW,
                MemSpace::KernelParam => mem::PARAM_WINDOW,
                _ => 0,
            };
            if to_generic {
                map1(regs, d, a, mask, |x| x.wrapping_add(win))
            } else {
                map1(regs, d, a, mask, |x| x.wrapping_sub(win))
            }
        }
        Inst::Pack2 { bits, d, a, b } => {
            let m = (1u64 << bits) - 1;
            map2(regs, d, a, b, mask, |x, y| (x & m) | ((y & m) << bits))
        }
        Inst::Unpack2 { bits, d0, d1, a } => {
            let m = (1u64 << bits) - 1;
            let ra = regs[a as usize];
            let mut t0 = [0u64; 32];
            let mut t1 = [0u64; 32];
            for l in 0..32 {
                t0[l] = ra[l] & m;
                t1[l] = (ra[l] >> bits) & m;
            }
            wr(&mut regs[d0 as usize], &t0, mask);
            wr(&mut regs[d1 as usize], &t1, mask);
        }
        Inst::Ld {
            space,
            ty,
            vec,
            addr32,
            sync,
            d,
            addr,
            off,
        } => {
            if mask != 0 {
                if let Err(s) = ldst(
                    ctx, block, wi, w, bm, sink, pc, mask, false, space, ty, vec, addr32, d, addr, off,
                ) {
                    return Flow::Stop(s);
                }
                // a strong load may wait for another warp's store (a spin loop): let the others
                // run, or the loop spins until the instruction limit
                if sync {
                    return Flow::Stop(
                        if (ctx.cooperative && space != MemSpace::Shared) || ctx.csize > 1 {
                            Stop::Poll
                        } else {
                            Stop::Yield
                        },
                    );
                }
            }
        }
        Inst::St {
            space,
            ty,
            vec,
            addr32,
            a,
            addr,
            off,
        } => {
            if mask != 0
                && let Err(s) = ldst(
                    ctx, block, wi, w, bm, sink, pc, mask, true, space, ty, vec, addr32, a, addr, off,
                )
            {
                return Flow::Stop(s);
            }
        }
        Inst::Atom {
            space,
            op: ao,
            ty,
            addr32,
            d,
            addr,
            off,
            b,
            c,
        } => {
            if mask != 0
                && let Err(s) = atom(
                    ctx, block, wi, w, bm, sink, pc, mask, space, ao, ty, addr32, d, addr, off, b, c,
                )
            {
                return Flow::Stop(s);
            }
        }
        Inst::Bra { target, reconv } => {
            return branch(ctx, block, wi, w, sink, guard, pc, active, mask, target, reconv);
        }
        Inst::Exit => {
            if mask != 0 {
                w.exited |= mask;
                return Flow::Reload;
            }
        }
        Inst::Call { site } => {
            if mask != 0 {
                return call(ctx, wi, w, bm, pc, mask, site);
            }
        }
        Inst::Ret => {
            if mask != 0 {
                let base = w.calls.last().map_or(0, |c| c.base);
                for f in w.stack.iter_mut().skip(base) {
                    f.mask &= !mask;
                }
                return Flow::Reload;
            }
        }
        Inst::BadCall { addr } => {
            if mask != 0 {
                let lane = mask.trailing_zeros();
                return Flow::Stop(Stop::Fault(
                    FaultKind::BadCall,
                    pc,
                    Some(lane),
                    Some(regs[addr as usize][lane as usize]),
                ));
            }
        }
        Inst::Trap => {
            if mask != 0 {
                return Flow::Stop(Stop::Fault(
                    FaultKind::Trap,
                    pc,
                    Some(mask.trailing_zeros()),
                    None,
                ));
            }
        }
        Inst::Bar { .. } | Inst::BarRed { .. } => {
            return bar(block, wi, w, sink, bars, inst, pc, mask);
        }
        Inst::Shfl { mode, d, p, a, b, c } => {
            let (ra, rb, rc) = (regs[a as usize], regs[b as usize], regs[c as usize]);
            let mut t = [0u64; 32];
            let mut pv = 0u32;
            for l in 0..32u32 {
                let bval = rb[l as usize] as u32 & 0x1f;
                let cv = rc[l as usize] as u32;
                let cval = cv & 0x1f;
                let segmask = (cv >> 8) & 0x1f;
                let max_lane = (l & segmask) | (cval & !segmask);
                let min_lane = l & segmask;
                let (j, ok) = match mode {
                    ShflMode::Up => {
                        let j = l as i32 - bval as i32;
                        (j, j >= max_lane as i32)
                    }
                    ShflMode::Down => {
                        let j = l as i32 + bval as i32;
                        (j, j <= max_lane as i32)
                    }
                    ShflMode::Bfly => {
                        let j = (l ^ bval) as i32;
                        (j, j <= max_lane as i32)
                    }
                    ShflMode::Idx => {
                        let j = (min_lane | (bval & !segmask)) as i32;
                        (j, j <= max_lane as i32)
                    }
                };
                let j = if ok { j as usize } else { l as usize };
                t[l as usize] = ra[j] & 0xffff_ffff;
                pv |= (ok as u32) << l;
            }
            wr(&mut regs[d as usize], &t, mask);
            pwrite(&mut w.preds, p, pv, mask);
        }
        Inst::Vote { mode, d, p, a, m } => {
            // each lane votes with the lanes of its member mask (tiles of a warp running the
            // same `vote.sync` together each get their own tile's vote)
            let member = |l: usize| {
                if m == NO_REG {
                    mask
                } else {
                    regs[m as usize][l] as u32 & mask
                }
            };
            let pv = pval(&w.preds, a);
            let mut t = [0u64; 32];
            let mut out = 0u32;
            for (l, tl) in t.iter_mut().enumerate() {
                if mask >> l & 1 == 0 {
                    continue;
                }
                let mm = member(l);
                let av = pv & mm;
                *tl = u64::from(av);
                let r = match mode {
                    VoteMode::Ballot => false,
                    VoteMode::All => av == mm,
                    VoteMode::Any => av != 0,
                    VoteMode::Uni => av == 0 || av == mm,
                };
                out |= u32::from(r) << l;
            }
            if mode == VoteMode::Ballot {
                wr(&mut regs[d as usize], &t, mask);
            } else {
                pwrite(&mut w.preds, p, out, mask);
            }
        }
        Inst::ActiveMask { d } => {
            let t = [active as u64; 32];
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::Clock { d } => {
            let t = [(w.insts + w.waited) * 4; 32];
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::Match { all, ty, d, p, a, m } => {
            // each lane matches among the executing lanes of its member mask (tiles of a warp
            // running the same `match.sync` together each match within their own tile)
            let member = |l: usize| {
                if m == NO_REG {
                    mask
                } else {
                    regs[m as usize][l] as u32 & mask
                }
            };
            let ra = regs[a as usize];
            let mut t = [0u64; 32];
            let mut same = 0u32;
            for l in 0..32 {
                if (mask >> l) & 1 == 0 {
                    continue;
                }
                let mm = member(l);
                let mut eq = 0u32;
                for j in 0..32 {
                    if (mm >> j) & 1 != 0 && arith::trunc(ty, ra[j]) == arith::trunc(ty, ra[l]) {
                        eq |= 1 << j;
                    }
                }
                if all {
                    // `match.all`: the member mask when every member holds the lane's value
                    if eq == mm {
                        same |= 1 << l;
                        t[l] = u64::from(mm);
                    }
                } else {
                    t[l] = u64::from(eq);
                }
            }
            if all {
                pwrite(&mut w.preds, p, same, mask);
            } else if mask != 0 {
                // a lane is its set's first when no lower lane shares its value
                let groups = (0..32)
                    .filter(|&l| mask >> l & 1 == 1 && (t[l] as u32) & ((1u32 << l) - 1) == 0)
                    .count() as u32;
                sink.match_groups(wi, pc, groups);
            }
            wr(&mut regs[d as usize], &t, mask);
        }
        Inst::Redux { op: ro, ty, d, a, m } => {
            // one reduction per distinct membermask among the executing lanes, over the
            // executing lanes it names
            let ra = &regs[a as usize];
            let rm = &regs[m as usize];
            let mut out = [0u64; 32];
            let mut left = mask;
            while left != 0 {
                let m0 = rm[left.trailing_zeros() as usize] as u32;
                let mut group = 0u32;
                for (l, &ml) in rm.iter().enumerate() {
                    if left >> l & 1 == 1 && ml as u32 == m0 {
                        group |= 1 << l;
                    }
                }
                let v = arith::redux(ro, ty, ra, m0 & mask);
                for (l, o) in out.iter_mut().enumerate() {
                    if group >> l & 1 == 1 {
                        *o = v;
                    }
                }
                left &= !group;
            }
            wr(&mut regs[d as usize], &out, mask);
        }
        Inst::Elect { d, p, m } => {
            if mask != 0 {
                // the lowest executing lane, whatever `membermask` says: measured on the H100
                // for a membermask that leaves out executing lanes (undefined in the PTX ISA;
                // calibration/equivalence/features/README.md)
                let _ = m;
                let leader = mask.trailing_zeros();
                wr(&mut regs[d as usize], &[u64::from(leader); 32], mask);
                pwrite(&mut w.preds, p, 1u32 << leader, mask);
            }
        }
        Inst::Tex {
            dims,
            int_coords,
            gather,
            d,
            tex,
            c,
        } => {
            // each active lane samples its texture object (the handle in `tex`) at its coordinates
            let mut out = [[0u64; 32]; 4];
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let h = regs[tex as usize][l];
                let mut co = [0f32; 3];
                for k in 0..dims as usize {
                    let v = regs[c[k] as usize][l] as u32;
                    co[k] = if int_coords {
                        v as i32 as f32
                    } else {
                        f32::from_bits(v)
                    };
                }
                let texel = ctx.global.texture(h).and_then(|t| match gather {
                    0 => t.fetch(ctx.global, dims as usize, co),
                    g => t.gather(ctx.global, usize::from(g - 1), co),
                });
                let Some(v) = texel else {
                    return Flow::Stop(Stop::Fault(
                        FaultKind::OutOfBounds { space: Space::Global },
                        pc,
                        Some(l as u32),
                        Some(h),
                    ));
                };
                for ch in 0..4 {
                    out[ch][l] = u64::from(v[ch]);
                }
            }
            for ch in 0..4 {
                wr(&mut regs[d[ch] as usize], &out[ch], mask);
            }
        }
        Inst::Suld { shape, d, surf, c } | Inst::Sust { shape, a: d, surf, c } => {
            let (dims, vec, bytes, mode) = (shape.dims(), shape.vec(), shape.bytes(), shape.mode());
            let st = matches!(inst, Inst::Sust { .. });
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let coord = |k: usize| -> i64 {
                    if k < dims as usize {
                        i64::from(regs[c[k] as usize][l] as u32 as i32)
                    } else {
                        0
                    }
                };
                let h = regs[surf as usize][l];
                let at = ctx.global.texture(h).and_then(|t| {
                    crate::tex::surface_address(
                        t,
                        [coord(0), coord(1), coord(2)],
                        u64::from(vec) * u64::from(bytes),
                        mode,
                    )
                });
                let fault = |kind| Flow::Stop(Stop::Fault(kind, pc, Some(l as u32), Some(h)));
                let at = match at {
                    None => return fault(FaultKind::OutOfBounds { space: Space::Global }),
                    Some(Err(())) => return fault(FaultKind::Misaligned { space: Space::Global }),
                    Some(Ok(at)) => at,
                };
                let es = u64::from(bytes);
                for k in 0..vec as usize {
                    let ok = match (st, at) {
                        // outside a zero-mode surface: reads 0, writes nothing
                        (false, None) => {
                            regs[d[k] as usize][l] = 0;
                            Some(())
                        }
                        (true, None) => Some(()),
                        (false, Some(a)) => {
                            track_read(ctx, block, a + k as u64 * es, es);
                            ctx.global
                                .read(a + k as u64 * es, es)
                                .map(|v| regs[d[k] as usize][l] = v)
                        }
                        (true, Some(a)) => {
                            bm.gwrites += 1;
                            track_write(ctx, block, a + k as u64 * es, es);
                            ctx.global.write(a + k as u64 * es, es, regs[d[k] as usize][l])
                        }
                    };
                    if ok.is_none() {
                        return fault(FaultKind::OutOfBounds { space: Space::Global });
                    }
                }
            }
        }
        Inst::MovMatrix { d, a } => {
            // element (r, c) of the result is element (c, r) of the source: lane 4 c + r / 2,
            // half r % 2
            let ra = &regs[a as usize];
            let mut out = [0u64; 32];
            for (l, o) in out.iter_mut().enumerate() {
                let r = l / 4;
                let mut v = 0u64;
                for j in 0..2 {
                    let c = 2 * (l % 4) + j;
                    let e = (ra[c * 4 + r / 2] >> (16 * (r % 2))) & 0xffff;
                    v |= e << (16 * j);
                }
                *o = v;
            }
            wr(&mut regs[d as usize], &out, mask);
        }
        Inst::LdMatrix { .. } | Inst::StMatrix { .. } => {
            if mask != 0
                && let Err(s) = matrix_ls(ctx, block, wi, w, bm, sink, pc, mask, inst)
            {
                return Flow::Stop(s);
            }
        }
        Inst::CpAsync {
            size,
            dst,
            src,
            src_size,
            ..
        } => {
            if mask != 0
                && let Err(s) = cp_async(ctx, block, wi, w, bm, sink, pc, mask, size, dst, src, src_size)
            {
                return Flow::Stop(s);
            }
        }
        Inst::BulkCopy {
            to_shared,
            dst,
            src,
            size,
            mbar,
        } => {
            if mask != 0 {
                match bulk_copy(
                    ctx,
                    block,
                    (wi, &mut *sink),
                    w,
                    bm,
                    pc,
                    mask,
                    to_shared,
                    dst,
                    src,
                    size,
                    mbar,
                ) {
                    Ok(false) => {}
                    Ok(true) => return Flow::Stop(Stop::Yield),
                    Err(s) => return Flow::Stop(s),
                }
            }
        }
        Inst::Tma { op, base } => {
            if mask != 0 {
                match tma::execute(ctx, block, wi, w, bm, sink, pc, mask, op, base) {
                    Ok(false) => {}
                    Ok(true) => return Flow::Stop(Stop::Yield),
                    Err(s) => return Flow::Stop(s),
                }
            }
        }
        Inst::Mbar {
            op: mo,
            d,
            p,
            addr,
            b,
        } => {
            if mask != 0 {
                match mbarrier(ctx, (wi, &mut *sink), w, bm, pc, mask, mo, d, p, addr, b) {
                    Ok(true) => {}
                    // in a cluster the other blocks run too (a remote arrival may complete it)
                    Ok(false) if ctx.csize > 1 => return Flow::Stop(Stop::Poll),
                    Ok(false) => return Flow::Stop(Stop::Yield),
                    Err(s) => return Flow::Stop(s),
                }
            }
        }
        Inst::Mma {
            shape,
            aty,
            bty,
            cty,
            sat,
            base,
            ..
        } => crate::tensor::mma(shape, aty, bty, cty, sat, regs, base as usize, mask),
        Inst::MmaSp { form, k, sel, base } => {
            crate::mma_sp::exec(form, u32::from(k), u32::from(sel), regs, base as usize, mask)
        }
        Inst::WmmaLoad { .. } | Inst::WmmaStore { .. } => {
            if mask != 0
                && let Err(s) = wmma_ls(ctx, block, wi, w, bm, sink, pc, mask, inst)
            {
                return Flow::Stop(s);
            }
        }
        Inst::Mapa { generic, d, a, rank } => map2(regs, d, a, rank, mask, |x, r| {
            let win = mem::SHARED_WINDOW..mem::SHARED_WINDOW + mem::WINDOW;
            if !generic {
                mem::cluster_address(r as u32, x) & 0xffff_ffff
            } else if win.contains(&x) {
                mem::SHARED_WINDOW + mem::cluster_address(r as u32, x - mem::SHARED_WINDOW)
            } else {
                // not a shared address: undefined in the PTX ISA; left as it is
                x
            }
        }),
        Inst::ClusterBar { wait } => {
            if mask != 0 {
                if !wait {
                    w.carrived |= mask;
                    w.cphase = bm.cphase;
                    bm.cpc = bm.cpc.min(pc);
                    // for the block's own shared memory an arrival orders as a block barrier's
                    sink.barrier(&BarrierEvent {
                        block,
                        warp: wi,
                        pc,
                        active: mask,
                        id: 0,
                        kind: BarrierKind::Cluster,
                    });
                } else if w.cphase == bm.cphase {
                    // the phase the warp arrived at has not completed
                    return Flow::Stop(Stop::ClusterWait);
                }
            }
        }
        Inst::Wgmma { form, d, a, b, scale } => {
            if mask != 0 {
                let sc = pval(&w.preds, scale);
                let l0 = mask.trailing_zeros() as usize;
                let a_desc = (!form.a_regs()).then(|| w.regs[a as usize][l0]);
                sink.wgmma_desc(wi, pc, form, a_desc, w.regs[b as usize][l0]);
                // a changed descriptor (the fix advisor's re-emulation) reads the changed window
                let rows = [(!form.a_regs()).then_some(a as usize), Some(b as usize)];
                let raw = rows
                    .iter()
                    .flatten()
                    .any(|&r| ctx.smap.desc(w.regs[r][l0]).is_some());
                let saved = raw.then(|| rows.map(|r| r.map(|r| w.regs[r])));
                if raw {
                    for &r in rows.iter().flatten() {
                        for v in w.regs[r].iter_mut() {
                            *v = ctx.smap.desc(*v).unwrap_or(*v);
                        }
                    }
                }
                let a_desc = (!form.a_regs()).then(|| w.regs[a as usize][l0]);
                let chunks = crate::wgmma::chunks(form, a_desc, w.regs[b as usize][l0], wi % 4);
                for part in chunks.chunks(32) {
                    let mut addrs = [0u64; 32];
                    for (x, &c) in addrs.iter_mut().zip(part) {
                        *x = u64::from(c);
                    }
                    let m = if part.len() == 32 {
                        FULL
                    } else {
                        (1u32 << part.len()) - 1
                    };
                    let ev = if raw { addrs } else { remapped(ctx, &addrs, m) };
                    sink.mem(&MemEvent {
                        block,
                        warp: wi,
                        pc,
                        space: Space::Shared,
                        op: AccessOp::Wgmma,
                        width: 16,
                        mask: m,
                        addrs: &ev,
                        src: None,
                    });
                }
                let mut rd = |o: u32, n: u32| {
                    if raw {
                        sh_read_raw(ctx, bm, u64::from(o), u64::from(n))
                    } else {
                        sh_read(ctx, bm, u64::from(o), u64::from(n))
                    }
                };
                let r = crate::wgmma::exec(
                    form,
                    &mut w.regs,
                    d as usize,
                    a as usize,
                    b as usize,
                    sc,
                    mask,
                    wi % 4,
                    &mut rd,
                );
                if let Some(saved) = saved {
                    for (r, v) in rows.iter().zip(saved) {
                        if let (Some(r), Some(v)) = (r, v) {
                            w.regs[*r] = v;
                        }
                    }
                }
                if let Err(at) = r {
                    return Flow::Stop(oob(pc, mask.trailing_zeros() as usize, u64::from(at)));
                }
            }
        }
        Inst::WgmmaSync { .. }
        | Inst::Nop
        | Inst::Printf { .. }
        | Inst::AssertFail { .. }
        | Inst::DevRt { .. } => {}
    }
    Flow::Next
}

/// A shared-window offset from an address that may be generic (inside the shared window).
#[inline]
fn shared_offset(a: u64) -> u64 {
    // a generic address in the window, or a state-space address whose low 32 bits the GPU reads
    // (the window starts at a multiple of 2^32, so both are the low 32 bits)
    a & 0xffff_ffff
}

/// The block's own shared offset of `o` when it names this block (a plain offset, or a
/// shared::cluster address of this block's rank); else `o` as it is (another block's).
#[inline]
fn own_offset(bm: &BlockMem<'_>, o: u64) -> u64 {
    match mem::cluster_rank(o) {
        Some(r) if r == bm.rank => o & mem::CLUSTER_OFFSET,
        _ => o,
    }
}

/// The shared memory a window offset names and the offset in it: the block's own for a plain
/// offset or one of its own rank, else the cluster's block of that rank (`None`: no such block).
#[inline]
fn sh_mem<'m>(bm: &'m BlockMem<'_>, o: u64) -> Option<(&'m [u8], u64)> {
    match mem::cluster_rank(o) {
        None => Some((&*bm.shared, o)),
        Some(r) if r == bm.rank => Some((&*bm.shared, o & mem::CLUSTER_OFFSET)),
        Some(r) => bm
            .peers
            .get(r as usize)
            .filter(|p| !p.is_empty())
            .map(|p| (p.as_slice(), o & mem::CLUSTER_OFFSET)),
    }
}

/// [`sh_mem`] to write; the flag says the memory is another block's.
#[inline]
fn sh_mem_mut<'m>(bm: &'m mut BlockMem<'_>, o: u64) -> Option<(&'m mut [u8], u64, bool)> {
    match mem::cluster_rank(o) {
        None => Some((&mut *bm.shared, o, false)),
        Some(r) if r == bm.rank => Some((&mut *bm.shared, o & mem::CLUSTER_OFFSET, false)),
        Some(r) => bm
            .peers
            .get_mut(r as usize)
            .filter(|p| !p.is_empty())
            .map(|p| (p.as_mut_slice(), o & mem::CLUSTER_OFFSET, true)),
    }
}

/// Reads `w` bytes of shared memory at window offset `o` (remapped; a shared::cluster address
/// reads the cluster's block it names), or `None` out of bounds.
fn sh_read(ctx: &Ctx<'_>, bm: &BlockMem<'_>, o: u64, w: u64) -> Option<u64> {
    let (m, o) = sh_mem(bm, o)?;
    shared_at(ctx, o, w).and_then(|at| mem::read_bytes(m, at, w))
}

/// [`sh_read`] at an offset of the changed window (not moved by the remap).
fn sh_read_raw(ctx: &Ctx<'_>, bm: &BlockMem<'_>, o: u64, w: u64) -> Option<u64> {
    let (m, o) = sh_mem(bm, o)?;
    (o.checked_add(w)? <= u64::from(ctx.smap.size))
        .then_some(())
        .and_then(|_| mem::read_bytes(m, o, w))
}

/// [`sh_write`] at an offset of the changed window (not moved by the remap).
fn sh_write_raw(ctx: &Ctx<'_>, bm: &mut BlockMem<'_>, o: u64, w: u64, v: u64) -> Option<()> {
    let (m, o, _) = sh_mem_mut(bm, o)?;
    if o.checked_add(w)? > u64::from(ctx.smap.size) {
        return None;
    }
    mem::write_bytes(m, o, w, v)
}

fn sh_write(ctx: &Ctx<'_>, bm: &mut BlockMem<'_>, o: u64, w: u64, v: u64) -> Option<()> {
    let (m, o, remote) = sh_mem_mut(bm, o)?;
    shared_at(ctx, o, w).and_then(|at| mem::write_bytes(m, at, w, v))?;
    bm.cwrites += u64::from(remote);
    Some(())
}

/// An atomic read-modify-write of `w` shared bytes at `o` (as [`sh_write`] finds them); the old
/// value.
fn sh_rmw(ctx: &Ctx<'_>, bm: &mut BlockMem<'_>, o: u64, w: u64, f: impl Fn(u64) -> u64) -> Option<u64> {
    let (m, o, remote) = sh_mem_mut(bm, o)?;
    let at = shared_at(ctx, o, w)?;
    let old = mem::read_bytes(m, at, w)?;
    mem::write_bytes(m, at, w, f(old))?;
    bm.cwrites += u64::from(remote);
    Some(old)
}

/// The shared lanes of `res_mask` whose offsets name another block of the cluster leave the
/// `mem` events (their accesses are the other block's shared memory) and are sent to
/// [`Sink::remote_shared`] instead; those naming this block's rank get their plain offsets.
#[cold]
#[allow(clippy::too_many_arguments)]
fn cluster_lanes<S: Sink>(
    bm: &BlockMem<'_>,
    sink: &mut S,
    wi: u32,
    pc: u32,
    op: AccessOp,
    width: u64,
    res_mask: &mut [u32; 5],
    offs: &mut [u64; 32],
) {
    let mut m = res_mask[Res::Shared as usize];
    let (mut remote, mut ranks, mut roffs) = (0u32, [0u32; 32], [0u64; 32]);
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = own_offset(bm, offs[l]);
        offs[l] = o;
        if let Some(r) = mem::cluster_rank(o) {
            res_mask[Res::Shared as usize] &= !(1 << l);
            remote |= 1 << l;
            ranks[l] = r;
            roffs[l] = o & mem::CLUSTER_OFFSET;
        }
    }
    if remote != 0 {
        sink.remote_shared(&crate::RemoteEvent {
            warp: wi,
            pc,
            op,
            width: width as u8,
            mask: remote,
            ranks: &ranks,
            offs: &roffs,
        });
    }
}

/// Whether a shared lane of `res_mask` has a shared::cluster address.
#[inline(always)]
fn any_cluster(res_mask: &[u32; 5], offs: &[u64; 32]) -> bool {
    let mut m = res_mask[Res::Shared as usize];
    let mut acc = 0;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        acc |= offs[l];
    }
    acc > mem::CLUSTER_OFFSET
}

/// The shared addresses of `mask`'s lanes as events report them: moved to the remapped layout when
/// the fix advisor changed it (`SharedRemap`).
fn remapped(ctx: &Ctx<'_>, addrs: &[u64; 32], mask: u32) -> [u64; 32] {
    let mut ev = *addrs;
    if !ctx.smap.is_identity() {
        for (l, e) in ev.iter_mut().enumerate() {
            if mask >> l & 1 == 1 {
                *e = ctx.smap.map(*e);
            }
        }
    }
    ev
}

fn oob(pc: u32, l: usize, a: u64) -> Stop {
    access_fault(FaultKind::OutOfBounds { space: Space::Shared }, pc, l, a)
}

/// `ldmatrix` / `stmatrix` (m8n8 .b16): one event for the row addresses, then the elements.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn matrix_ls<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    inst: Inst,
) -> Result<(), Stop> {
    let (is_st, num, trans, addr32, r, addr, off) = match inst {
        Inst::LdMatrix {
            num,
            trans,
            addr32,
            d,
            addr,
            off,
            ..
        } => (false, num, trans, addr32, d, addr, off),
        Inst::StMatrix {
            num,
            trans,
            addr32,
            a,
            addr,
            off,
            ..
        } => (true, num, trans, addr32, a, addr, off),
        _ => return Ok(()),
    };
    let regs = &mut w.regs[..];
    let suppliers = if num >= 4 { FULL } else { (1u32 << (8 * num)) - 1 } & mask;
    let mut rows = [0u64; 32];
    let base = &regs[addr as usize];
    for l in 0..32 {
        if suppliers >> l & 1 == 1 {
            let o = shared_offset(lane_address(base[l], addr32, off as i64 as u64));
            if !o.is_multiple_of(16) {
                return Err(access_fault(
                    FaultKind::Misaligned { space: Space::Shared },
                    pc,
                    l,
                    o,
                ));
            }
            if o + 16 > ctx.smem_size as u64 {
                return Err(oob(pc, l, o));
            }
            rows[l] = o;
        }
    }
    let ev = remapped(ctx, &rows, suppliers);
    sink.mem(&MemEvent {
        block,
        warp: wi,
        pc,
        space: Space::Shared,
        op: if is_st {
            AccessOp::StMatrix
        } else {
            AccessOp::LdMatrix
        },
        width: 16,
        mask: suppliers,
        addrs: &ev,
        src: None,
    });
    for m in 0..num as usize {
        for l in 0..32 {
            if mask >> l & 1 == 0 {
                continue;
            }
            let mut v = if is_st { regs[r[m] as usize][l] } else { 0 };
            for (h, (row, col)) in crate::tensor::matrix_elems(l, trans).into_iter().enumerate() {
                let sup = 8 * m + row;
                if suppliers >> sup & 1 == 0 {
                    continue;
                }
                let at = rows[sup] + 2 * col as u64;
                if is_st {
                    sh_write(ctx, bm, at, 2, (v >> (16 * h)) & 0xffff).ok_or_else(|| oob(pc, sup, at))?;
                } else {
                    let x = sh_read(ctx, bm, at, 2).ok_or_else(|| oob(pc, sup, at))?;
                    v |= x << (16 * h);
                }
            }
            if !is_st {
                regs[r[m] as usize][l] = v;
            }
        }
    }
    Ok(())
}

/// `cp.async` of `size` bytes per lane (the first `src_size` copied, the rest zero), complete
/// when issued; one `CpAsync` event with the global sources.
#[allow(clippy::too_many_arguments)]
fn cp_async<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    size: u8,
    dst: R,
    src: R,
    src_size: R,
) -> Result<(), Stop> {
    let regs = &w.regs[..];
    let size = u64::from(size);
    let mut dsts = [0u64; 32];
    let mut srcs = [0u64; 32];
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        let d = shared_offset(regs[dst as usize][l]);
        let s = regs[src as usize][l];
        if !d.is_multiple_of(size) || !s.is_multiple_of(size) {
            let (sp, a) = if !d.is_multiple_of(size) {
                (Space::Shared, d)
            } else {
                (Space::Global, s)
            };
            return Err(access_fault(FaultKind::Misaligned { space: sp }, pc, l, a));
        }
        if d + size > ctx.smem_size as u64 {
            return Err(oob(pc, l, d));
        }
        dsts[l] = d;
        srcs[l] = s;
    }
    let ev = remapped(ctx, &dsts, mask);
    if src_size != NO_REG {
        let mut sources = 0u32;
        for (l, &n) in regs[src_size as usize].iter().enumerate().take(32) {
            if mask >> l & 1 == 1 && n & 0xffff_ffff != 0 {
                sources |= 1 << l;
            }
        }
        sink.copy_sources(wi, pc, sources);
    }
    sink.mem(&MemEvent {
        block,
        warp: wi,
        pc,
        space: Space::Shared,
        op: AccessOp::CpAsync,
        width: size as u8,
        mask,
        addrs: &ev,
        src: Some(&srcs),
    });
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        let n = if src_size == NO_REG {
            size
        } else {
            (regs[src_size as usize][l] & 0xffff_ffff).min(size)
        };
        if n > 0 {
            track_read(ctx, block, srcs[l], n);
        }
        for k in 0..size {
            let v = if k < n {
                ctx.global.read(srcs[l] + k, 1).ok_or_else(|| {
                    access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, srcs[l])
                })?
            } else {
                0
            };
            sh_write(ctx, bm, dsts[l] + k, 1, v).ok_or_else(|| oob(pc, l, dsts[l]))?;
        }
    }
    Ok(())
}

/// The 1-D bulk copy, per issuing lane, complete when issued (then `complete_tx` on the mbarrier).
/// Returns whether an mbarrier phase completed.
#[allow(clippy::too_many_arguments)]
fn bulk_copy<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    (wi, sink): (u32, &mut S),
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    pc: u32,
    mask: u32,
    to_shared: bool,
    dst: R,
    src: R,
    size: R,
    mbar: R,
) -> Result<bool, Stop> {
    let mut completed = false;
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        let regs = &w.regs[..];
        let n = regs[size as usize][l] & 0xffff_ffff;
        let d = regs[dst as usize][l];
        let s = regs[src as usize][l];
        if !n.is_multiple_of(16) || !d.is_multiple_of(16) || !s.is_multiple_of(16) {
            return Err(access_fault(
                FaultKind::Misaligned { space: Space::Shared },
                pc,
                l,
                d,
            ));
        }
        // the shared side must fit the window (checked first: no byte loop over a huge size)
        let sh = shared_offset(if to_shared { d } else { s });
        if sh.saturating_add(n) > ctx.smem_size as u64 {
            return Err(oob(pc, l, sh));
        }
        if n > 0 {
            if to_shared {
                track_read(ctx, block, s, n);
                if mem::cluster_rank(own_offset(bm, sh)).is_none() {
                    let o = own_offset(bm, sh);
                    sink.async_write(wi, pc, o, o + n);
                }
            } else {
                track_write(ctx, block, d, n);
                let o = own_offset(bm, sh);
                if mem::cluster_rank(o).is_none() {
                    sink.async_read(wi, pc, o, o + n);
                }
            }
        }
        for k in 0..n {
            if to_shared {
                let v = ctx.global.read(s + k, 1).ok_or_else(|| {
                    access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, s + k)
                })?;
                sh_write(ctx, bm, shared_offset(d) + k, 1, v).ok_or_else(|| oob(pc, l, d + k))?;
            } else {
                let v = sh_read(ctx, bm, shared_offset(s) + k, 1).ok_or_else(|| oob(pc, l, s + k))?;
                bm.gwrites += 1;
                ctx.global.write(d + k, 1, v).ok_or_else(|| {
                    access_fault(FaultKind::OutOfBounds { space: Space::Global }, pc, l, d + k)
                })?;
            }
        }
        if to_shared && mbar != NO_REG {
            let a = shared_offset(regs[mbar as usize][l]);
            let st = sh_read(ctx, bm, a, 8).ok_or_else(|| oob(pc, l, a))?;
            let new = mbar_state::complete_tx(st, n);
            sh_write(ctx, bm, a, 8, new).ok_or_else(|| oob(pc, l, a))?;
            let ev = |what| crate::MbarEvent {
                warp: wi,
                pc,
                lane: l as u32,
                addr: a,
                what,
            };
            sink.mbarrier(&ev(crate::MbarWhat::CopyTx {
                parity: mbar_state::phase(st) as u8,
            }));
            if mbar_state::phase(new) != mbar_state::phase(st) {
                bm.mbar.completed(a, mbar_state::phase(st));
                completed = true;
                sink.mbarrier(&ev(crate::MbarWhat::Completed {
                    parity: mbar_state::phase(st) as u8,
                }));
            }
        }
    }
    Ok(completed)
}

/// An mbarrier operation, lane by lane. `Ok(false)`: the warp yields to the others: a wait found
/// its phase incomplete, or the operation completed a phase (so that warps waiting on it observe
/// the completion before this warp can start the next phase, as on the hardware, where waiting
/// warps run concurrently).
#[allow(clippy::too_many_arguments)]
fn mbarrier<S: Sink>(
    ctx: &Ctx<'_>,
    (wi, sink): (u32, &mut S),
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    pc: u32,
    mask: u32,
    op: MbarOp,
    d: R,
    p: P,
    addr: R,
    b: R,
) -> Result<bool, Stop> {
    use mbar_state as ms;
    let mut done = 0u32;
    let mut waits = false;
    let mut completed = false;
    for l in 0..32 {
        if mask >> l & 1 == 0 {
            continue;
        }
        let bv = if b == NO_REG { 1 } else { w.regs[b as usize][l] };
        if op == MbarOp::PendingCount {
            w.regs[d as usize][l] = ms::token_pending(bv);
            continue;
        }
        // a remote arrival (`.shared::cluster`) names another block's barrier
        let a = own_offset(bm, shared_offset(w.regs[addr as usize][l]));
        let remote = mem::cluster_rank(a).is_some();
        if !a.is_multiple_of(8) {
            return Err(access_fault(
                FaultKind::Misaligned { space: Space::Shared },
                pc,
                l,
                a,
            ));
        }
        let st = sh_read(ctx, bm, a, 8).ok_or_else(|| oob(pc, l, a))?;
        let (new, out) = match op {
            MbarOp::Init => (ms::init(bv), None),
            MbarOp::Inval => (0, None),
            MbarOp::Arrive | MbarOp::CpAsyncArrive => ms::arrive(st, if b == NO_REG { 1 } else { bv }, false),
            MbarOp::ArriveDrop => ms::arrive(st, if b == NO_REG { 1 } else { bv }, true),
            MbarOp::ArriveExpectTx => ms::arrive(ms::expect_tx(st, bv), 1, false),
            MbarOp::ExpectTx => (ms::expect_tx(st, bv), None),
            MbarOp::CompleteTx => (ms::complete_tx(st, bv), None),
            MbarOp::TestWait | MbarOp::TryWait | MbarOp::TestWaitParity | MbarOp::TryWaitParity => {
                waits = true;
                let parity = if matches!(op, MbarOp::TestWaitParity | MbarOp::TryWaitParity) {
                    bv & 1
                } else {
                    ms::token_phase(bv)
                };
                let seen = w.mwait.is_some_and(|(wa, wp, g)| {
                    wa == a && wp == parity && bm.mbar.completed_since(a, parity, g)
                });
                if ms::phase(st) != parity || seen {
                    done |= 1 << l;
                    if !remote {
                        sink.mbarrier(&crate::MbarEvent {
                            warp: wi,
                            pc,
                            lane: l as u32,
                            addr: a,
                            what: crate::MbarWhat::Waited { parity: parity as u8 },
                        });
                    }
                } else if w.mwait.is_none_or(|(wa, wp, _)| wa != a || wp != parity) {
                    w.mwait = Some((a, parity, bm.mbar.tick));
                }
                (st, None)
            }
            MbarOp::PendingCount => unreachable!(),
        };
        if !remote
            && matches!(
                op,
                MbarOp::Arrive | MbarOp::ArriveDrop | MbarOp::ArriveExpectTx | MbarOp::CpAsyncArrive
            )
        {
            // the warp will wait for the phase it arrived on
            w.mwait = Some((a, ms::phase(st), bm.mbar.tick));
        }
        if op == MbarOp::Init && !remote {
            sink.mbarrier(&crate::MbarEvent {
                warp: wi,
                pc,
                lane: l as u32,
                addr: a,
                what: crate::MbarWhat::Init,
            });
        }
        if matches!(
            op,
            MbarOp::Arrive | MbarOp::ArriveDrop | MbarOp::ArriveExpectTx | MbarOp::CpAsyncArrive
        ) {
            let done_parity = (ms::phase(new) != ms::phase(st)).then_some(ms::phase(st) as u8);
            let r = mem::cluster_rank(a).unwrap_or(bm.rank);
            sink.mbar_arrive(wi, pc, l as u32, r, a & mem::CLUSTER_OFFSET, done_parity);
        }
        if new != st {
            sh_write(ctx, bm, a, 8, new).ok_or_else(|| oob(pc, l, a))?;
            if ms::phase(new) != ms::phase(st) && op != MbarOp::Init && !remote {
                bm.mbar.completed(a, ms::phase(st));
                completed = true;
                sink.mbarrier(&crate::MbarEvent {
                    warp: wi,
                    pc,
                    lane: l as u32,
                    addr: a,
                    what: crate::MbarWhat::Completed {
                        parity: ms::phase(st) as u8,
                    },
                });
            }
        }
        if let (Some(t), true) = (out, d != NO_REG) {
            w.regs[d as usize][l] = t;
        }
    }
    if waits {
        pwrite(&mut w.preds, p, done, mask);
        if done & mask == mask {
            w.mwait = None;
        }
        return Ok(done & mask == mask);
    }
    // a completed phase lets the waiting warps run before this one goes on
    Ok(!completed)
}

/// The emulator's encoding of an mbarrier object (the PTX object is opaque, 8 bytes): bits 0-19
/// the arrivals still expected in the current phase, 20-39 the expected count of a phase, 40-62
/// the transaction count (signed, 23 bits), bit 63 the current phase's parity. A phase completes
/// when its arrivals and its transaction count both reach zero. A state token (the result of an
/// arrive) holds the parity of the phase arrived on in bit 0 and the arrivals then still
/// expected in bits 32-51.
pub(crate) mod mbar_state {
    const CNT: u64 = (1 << 20) - 1;
    const TX_BITS: u32 = 23;

    fn pending(s: u64) -> u64 {
        s & CNT
    }
    fn expected(s: u64) -> u64 {
        (s >> 20) & CNT
    }
    fn tx(s: u64) -> i64 {
        let raw = (s >> 40) & ((1 << TX_BITS) - 1);
        ((raw << (64 - TX_BITS)) as i64) >> (64 - TX_BITS)
    }
    /// The current phase's parity.
    pub fn phase(s: u64) -> u64 {
        s >> 63
    }
    fn pack(pending: u64, expected: u64, tx: i64, phase: u64) -> u64 {
        (pending & CNT)
            | (expected & CNT) << 20
            | ((tx as u64) & ((1 << TX_BITS) - 1)) << 40
            | (phase & 1) << 63
    }
    /// `mbarrier.init` with `count` expected arrivals.
    pub fn init(count: u64) -> u64 {
        pack(count, count, 0, 0)
    }
    /// Completes the phase when nothing is pending.
    fn settle(s: u64) -> u64 {
        if pending(s) == 0 && tx(s) == 0 {
            pack(expected(s), expected(s), 0, phase(s) ^ 1)
        } else {
            s
        }
    }
    /// `count` arrivals (`drop`: and the expected count of later phases falls by `count`);
    /// returns the new state and the token.
    pub fn arrive(s: u64, count: u64, drop: bool) -> (u64, Option<u64>) {
        let p = pending(s).saturating_sub(count);
        let e = if drop {
            expected(s).saturating_sub(count)
        } else {
            expected(s)
        };
        let token = phase(s) | p << 32;
        (settle(pack(p, e, tx(s), phase(s))), Some(token))
    }
    /// `expect_tx`: the transaction count rises by `n` bytes (completing the phase when that brings
    /// a count driven negative by early completions back to zero with no arrival pending).
    pub fn expect_tx(s: u64, n: u64) -> u64 {
        settle(pack(pending(s), expected(s), tx(s) + n as i64, phase(s)))
    }
    /// `complete_tx`: the transaction count falls by `n` bytes (the phase may complete).
    pub fn complete_tx(s: u64, n: u64) -> u64 {
        settle(pack(pending(s), expected(s), tx(s) - n as i64, phase(s)))
    }
    /// The state `s` of the barrier at `offset` that a warp waits on for the phase of `parity`.
    pub fn snapshot(offset: u64, parity: u64, s: u64) -> crate::MbarWait {
        crate::MbarWait {
            offset: (offset & crate::mem::CLUSTER_OFFSET) as u32,
            parity: parity as u8,
            phase: phase(s) as u8,
            pending: pending(s) as u32,
            expected: expected(s) as u32,
            tx: tx(s) as i32,
        }
    }
    /// The phase parity a token names.
    pub fn token_phase(t: u64) -> u64 {
        t & 1
    }
    /// The arrivals a token says were still expected.
    pub fn token_pending(t: u64) -> u64 {
        (t >> 32) & CNT
    }
}

/// `wmma.load` / `wmma.store` of an m16n16k16 fragment: one ordinary Load / Store event per
/// fragment element (the addresses the PTX semantics read), then the elements.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn wmma_ls<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    inst: Inst,
) -> Result<(), Stop> {
    use warpscope_ptx::inst::WmmaFrag;
    let (is_st, frag, shape, col, ty, space, base, addr, stride) = match inst {
        Inst::WmmaLoad {
            frag,
            shape,
            col,
            ty,
            space,
            base,
            addr,
            stride,
        } => (false, frag, shape, col, ty, space, base, addr, stride),
        Inst::WmmaStore {
            shape,
            col,
            ty,
            space,
            base,
            addr,
            stride,
        } => (true, WmmaFrag::C, shape, col, ty, space, base, addr, stride),
        _ => return Ok(()),
    };
    let es = u64::from(ty.bytes());
    let per = (4 / es).max(1) as usize; // elements per register
    let (mm, nn, kk) = crate::tensor::dims(shape);
    // a lane's elements of the fragment's matrix, and the registers that hold them; an f16 A or
    // B fragment repeats them in the registers after (`MmaShape::wmma_regs`)
    let n_elems = match frag {
        WmmaFrag::A => mm * kk / 32,
        WmmaFrag::B => kk * nn / 32,
        WmmaFrag::C => mm * nn / 32,
    };
    let n_real = n_elems.div_ceil(per);
    let n_regs = usize::from(shape.wmma_regs(frag, ty).unwrap_or(8)).max(n_real);
    let elem_mask = if es >= 8 { u64::MAX } else { (1u64 << (8 * es)) - 1 };
    let first = mask.trailing_zeros() as usize;
    let ld = w.regs[stride as usize][first] & 0xffff_ffff;
    // From shared memory ptxas turns an A or B load into one `LDSM.16.M88.4` (`.MT88.4` for the
    // transposed layouts) and a row-major C load / D store into four 8-byte `LDS.64` / `STS.64`
    // (calibration/wmma): the events say so. Matrix `m` of the LDSM takes its eight 16-byte rows
    // from lanes 8m..8m+7: memory rows (the `ld`-strided dimension) 8(m & 1)..+7, half m >> 1 (the
    // order of the four matrices is ptxas's business; the count does not depend on it).
    let shared = space == MemSpace::Shared;
    let mut ldsm = shared && !is_st && frag != WmmaFrag::C && shape == MmaShape::M16n16k16 && es == 2;
    if ldsm {
        let mut rows = [0u64; 32];
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let (r, h) = (((l / 8) & 1) * 8 + l % 8, (l / 16) as u64);
            let a = w.regs[addr as usize][l].wrapping_add((r as u64 * ld + 8 * h) * es);
            let (_, o) = resolve(space, a);
            if !o.is_multiple_of(16) || o + 16 > ctx.smem_size as u64 {
                // outside LDSM's reach: the element path below reports the fault
                ldsm = false;
                break;
            }
            rows[l] = o;
        }
        if ldsm {
            let ev = remapped(ctx, &rows, mask);
            sink.mem(&MemEvent {
                block,
                warp: wi,
                pc,
                space: Space::Shared,
                op: AccessOp::LdMatrix,
                width: 16,
                mask,
                addrs: &ev,
                src: None,
            });
        }
    }
    // a row-major f32 C load / D store: elements 2j, 2j+1 as one 8-byte access, in shared memory
    // (LDS.64 / STS.64, calibration/wmma) and in global memory (STG.E.64: the H100's requests and
    // sectors of calibration/run/tensor.cu's wmmaTile)
    let pairs = (shared || space == MemSpace::Global) && frag == WmmaFrag::C && !col && es == 4;
    let mut paired = false;
    for i in 0..n_elems {
        // A and B: the first 8 halves fill registers 0-3, copied into 4-7
        let mut addrs = [0u64; 32];
        let mut kinds = [Res::Global; 32];
        let mut offs = [0u64; 32];
        let mut lane_addr = [0u64; 32];
        for l in 0..32 {
            if mask >> l & 1 == 0 {
                continue;
            }
            let (row, cl) = match frag {
                WmmaFrag::A => crate::tensor::a_elem(shape, ty, l, i),
                WmmaFrag::B => crate::tensor::b_elem(shape, ty, l, i),
                WmmaFrag::C => crate::tensor::c_elem(shape, l, i),
            };
            // matrix element (row, cl): row-major at row * ld + cl, column-major at cl * ld + row
            let idx = if col {
                cl as u64 * ld + row as u64
            } else {
                row as u64 * ld + cl as u64
            };
            lane_addr[l] = w.regs[addr as usize][l].wrapping_add(idx * es);
        }
        // resolve through a scratch row: reuse the generic resolver on the computed addresses
        let mut m = mask;
        let mut res_mask = [0u32; 5];
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = lane_addr[l];
            addrs[l] = a;
            let (rk, o) = resolve(space, a);
            if !o.is_multiple_of(es) {
                return Err(access_fault(
                    FaultKind::Misaligned {
                        space: fault_space(rk),
                    },
                    pc,
                    l,
                    a,
                ));
            }
            kinds[l] = rk;
            offs[l] = o;
            res_mask[rk as usize] |= 1 << l;
        }
        if res_mask[2] | res_mask[3] | res_mask[4] != 0 {
            let l = (res_mask[2] | res_mask[3] | res_mask[4]).trailing_zeros() as usize;
            return Err(access_fault(
                FaultKind::Misaligned {
                    space: fault_space(kinds[l]),
                },
                pc,
                l,
                addrs[l],
            ));
        }
        let op = if is_st { AccessOp::Store } else { AccessOp::Load };
        if ldsm {
            // counted by the LdMatrix event above
        } else if pairs && i % 2 == 0 {
            // elements 2j and 2j+1 are neighbours in a row: one 8-byte access when aligned
            paired = offs_aligned(&offs, res_mask[0], 2 * es);
            let w2 = if paired { 2 * es } else { es };
            emit(ctx, sink, block, wi, pc, space, op, w2, &res_mask, &offs);
        } else if !(pairs && paired) {
            emit(ctx, sink, block, wi, pc, space, op, es, &res_mask, &offs);
        }
        let reg = base as usize + i / per;
        let sh = 8 * es as usize * (i % per);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let o = offs[l];
            if is_st {
                let v = (w.regs[reg][l] >> sh) & elem_mask;
                let ok = if kinds[l] == Res::Shared {
                    sh_write(ctx, bm, o, es, v)
                } else {
                    bm.gwrites += 1;
                    track_write(ctx, block, o, es);
                    ctx.global.write(o, es, v)
                };
                ok.ok_or_else(|| {
                    access_fault(
                        FaultKind::OutOfBounds {
                            space: fault_space(kinds[l]),
                        },
                        pc,
                        l,
                        addrs[l],
                    )
                })?;
            } else {
                let v = if kinds[l] == Res::Shared {
                    sh_read(ctx, bm, o, es)
                } else {
                    track_read(ctx, block, o, es);
                    ctx.global.read(o, es)
                }
                .ok_or_else(|| {
                    access_fault(
                        FaultKind::OutOfBounds {
                            space: fault_space(kinds[l]),
                        },
                        pc,
                        l,
                        addrs[l],
                    )
                })?;
                let keep = !(elem_mask << sh);
                let x = (w.regs[reg][l] & keep) | (v << sh);
                w.regs[reg][l] = x;
                let mut copy = reg + n_real;
                while copy < base as usize + n_regs {
                    w.regs[copy][l] = x;
                    copy += n_real;
                }
            }
        }
    }
    Ok(())
}

/// Whether every lane of `mask` has an offset that is a multiple of `n`.
fn offs_aligned(offs: &[u64; 32], mask: u32, n: u64) -> bool {
    (0..32).all(|l| mask >> l & 1 == 0 || offs[l].is_multiple_of(n))
}

/// All ones if lane `l` is in `mask`, else zero.
#[inline(always)]
fn lane_bits(mask: u32, l: usize) -> u64 {
    0u64.wrapping_sub((mask >> l & 1) as u64)
}

/// Runs `f` on the lanes of `mask` in ascending order; stops at the first lane where it fails
/// and returns that lane.
#[inline(always)]
fn lanes(mask: u32, mut f: impl FnMut(usize) -> Option<()>) -> Option<usize> {
    if mask == FULL {
        for l in 0..32 {
            if f(l).is_none() {
                return Some(l);
            }
        }
        return None;
    }
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        if f(l).is_none() {
            return Some(l);
        }
    }
    None
}

/// A fault of an access at lane `l`.
#[cold]
fn access_fault(kind: FaultKind, pc: u32, l: usize, addr: u64) -> Stop {
    Stop::Fault(kind, pc, Some(l as u32), Some(addr))
}

/// Resolves the lanes of `mask`: instruction addresses (for faults), concrete spaces and offsets,
/// with alignment to `align` checked. Returns the per-space lane masks.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn resolve_lanes(
    regs: &[Row],
    space: MemSpace,
    addr: R,
    addr32: bool,
    off: i32,
    mask: u32,
    align: u64,
    pc: u32,
    addrs: &mut [u64; 32],
    kinds: &mut [Res; 32],
    offs: &mut [u64; 32],
) -> Result<[u32; 5], Stop> {
    let base = &regs[addr as usize];
    let offv = off as i64 as u64;
    let mut res_mask = [0u32; 5];
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = lane_address(base[l], addr32, offv);
        addrs[l] = a;
        let (r, o) = resolve(space, a);
        if o % align != 0 {
            return Err(access_fault(
                FaultKind::Misaligned {
                    space: fault_space(r),
                },
                pc,
                l,
                a,
            ));
        }
        kinds[l] = r;
        offs[l] = o;
        res_mask[r as usize] |= 1 << l;
    }
    Ok(res_mask)
}

const RES: [Res; 5] = [Res::Shared, Res::Global, Res::Local, Res::Const, Res::KParam];

/// Sends one event per concrete space; shared addresses are reported remapped.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn emit<S: Sink>(
    ctx: &Ctx<'_>,
    sink: &mut S,
    block: u32,
    wi: u32,
    pc: u32,
    space: MemSpace,
    op: AccessOp,
    width: u64,
    res_mask: &[u32; 5],
    offs: &[u64; 32],
) {
    let remapped;
    let mut ev = offs;
    if res_mask[0] != 0 && !ctx.smap.is_identity() {
        let mut t = *offs;
        let mut m = res_mask[0];
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            t[l] = ctx.smap.map(t[l]);
        }
        remapped = t;
        ev = &remapped;
    }
    for (ri, &m) in res_mask.iter().enumerate() {
        if m == 0 {
            continue;
        }
        sink.mem(&MemEvent {
            block,
            warp: wi,
            pc,
            space: event_space(space, RES[ri]),
            op,
            width: width as u8,
            mask: m,
            addrs: ev,
            src: None,
        });
    }
}

/// Shared offset of an access of `w` bytes at original offset `o`, checked against the original
/// window (so faults do not depend on a remap), then moved by the remap.
#[inline(always)]
/// One byte at a generic address, as thread `tid` of the block sees it.
fn generic_byte(ctx: &Ctx<'_>, bm: &BlockMem<'_>, tid: u32, a: u64) -> Option<u8> {
    let (r, o) = resolve(MemSpace::Generic, a);
    let v = match r {
        Res::Shared => shared_at(ctx, o, 1).and_then(|at| mem::read_bytes(bm.shared, at, 1)),
        Res::Global => ctx.global.read(o, 1),
        Res::Local => {
            if o >= bm.local_size {
                None
            } else {
                mem::read_bytes(bm.local, u64::from(tid) * bm.local_size + o, 1)
            }
        }
        Res::Const => mem::read_bytes(&ctx.prog.const_bank, o, 1),
        Res::KParam => None,
    }?;
    Some(v as u8)
}

/// A NUL-terminated string at a generic address (at most 64 KiB).
fn generic_str(ctx: &Ctx<'_>, bm: &BlockMem<'_>, tid: u32, a: u64) -> Option<Vec<u8>> {
    if a == 0 {
        return None;
    }
    let mut s = Vec::new();
    for i in 0..65536u64 {
        match generic_byte(ctx, bm, tid, a.wrapping_add(i))? {
            0 => return Some(s),
            b => s.push(b),
        }
    }
    Some(s)
}

/// Reads one lane's `__assertfail` call: its strings (message, file, function) and line, from the
/// call parameters at local offsets `offs` (`[msg, file, line, func]`). `None` when a parameter is
/// outside the thread's local memory; an unreadable string is read as empty.
fn assert_lane(
    ctx: &Ctx<'_>,
    bm: &BlockMem<'_>,
    block_lin: u32,
    tid: u32,
    pc: u32,
    offs: [u32; 4],
) -> Option<crate::AssertFailure> {
    let local = |off: u32, size: u64| -> Option<u64> {
        if u64::from(off) + size > bm.local_size {
            return None;
        }
        mem::read_bytes(bm.local, u64::from(tid) * bm.local_size + u64::from(off), size)
    };
    let text = |off: u32| -> Option<Vec<u8>> {
        let a = local(off, 8)?;
        Some(generic_str(ctx, bm, tid, a).unwrap_or_default())
    };
    let [bx, by, _] = ctx.block;
    let [gx, gy, _] = ctx.grid;
    Some(crate::AssertFailure {
        block: [block_lin % gx, (block_lin / gx) % gy, block_lin / (gx * gy)],
        thread: [tid % bx, (tid / bx) % by, tid / (bx * by)],
        pc,
        message: text(offs[0])?,
        file: text(offs[1])?,
        line: local(offs[2], 4)? as u32,
        function: text(offs[3])?,
    })
}

/// Reads one lane's `vprintf` call: the format string and its arguments, the format's address and
/// each `%s` argument's (the block and the warp's call count left 0 for the caller). `None` when
/// the call's parameters are outside the thread's local memory or the format cannot be read.
fn printf_lane(
    ctx: &Ctx<'_>,
    bm: &BlockMem<'_>,
    tid: u32,
    fmt: u32,
    args: u32,
) -> Option<crate::printf::Printed> {
    use crate::printf::{ArgKind, PrintfArg};
    let local = |off: u32| -> Option<u64> {
        if u64::from(off) + 8 > bm.local_size {
            return None;
        }
        mem::read_bytes(bm.local, u64::from(tid) * bm.local_size + u64::from(off), 8)
    };
    let fmt_addr = local(fmt)?;
    let buf = local(args)?;
    let format = generic_str(ctx, bm, tid, fmt_addr)?;
    let mut vals = Vec::new();
    let mut strs = Vec::new();
    let mut off = 0u64;
    for kind in crate::printf::layout(&format) {
        let size = kind.size();
        off = off.div_ceil(size) * size;
        let mut bits = 0u64;
        for i in 0..size {
            let b = if buf == 0 {
                0
            } else {
                generic_byte(ctx, bm, tid, buf.wrapping_add(off + i)).unwrap_or(0)
            };
            bits |= u64::from(b) << (8 * i);
        }
        off += size;
        vals.push(match kind {
            ArgKind::Int4 => PrintfArg::Int { bits, size: 4 },
            ArgKind::Int8 => PrintfArg::Int { bits, size: 8 },
            ArgKind::Double => PrintfArg::Float(f64::from_bits(bits)),
            ArgKind::Str => {
                strs.push(bits);
                PrintfArg::Str(generic_str(ctx, bm, tid, bits))
            }
            ArgKind::Ptr => PrintfArg::Ptr(bits),
        });
    }
    Some(crate::printf::Printed {
        block: 0,
        thread: tid,
        seq: 0,
        format,
        args: vals,
        format_addr: fmt_addr,
        str_addrs: strs,
    })
}

fn shared_at(ctx: &Ctx<'_>, o: u64, w: u64) -> Option<u64> {
    if o.checked_add(w)? > ctx.smem_size as u64 {
        return None;
    }
    Some(if ctx.smap.is_identity() {
        o
    } else {
        ctx.smap.map(o)
    })
}

/// Whether every address of `addrs` (their bitwise or: `or`) is a word index below `words` once
/// divided by 4. No address exceeds the or of them all, so an or below the bound settles it at once
/// (the usual case: a power-of-two window); otherwise each address is compared.
#[inline(always)]
fn in_words(or: u64, addrs: &[u64; 32], words: usize) -> bool {
    ((or >> 2) as usize) < words || addrs.iter().all(|&a| ((a >> 2) as usize) < words)
}

/// A plain 4-byte shared load or store of one element per lane in the kernel's own shared layout
/// ([`X::Sh32`]): what [`ldst`]'s fast path does for it, without the general instruction's
/// dispatch. The same event, the same faults. The lines are ldst's own, written out again on
/// purpose: sharing them through helpers cost 17 % of the emulator's matmul time (243 against
/// 207 ms, best of 10), and `tests/shared_fast.rs` holds the two equal.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shared32<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    is_st: bool,
    _addr32: bool,
    r: R,
    addr: R,
    off: i32,
) -> Result<(), Stop> {
    let regs = &mut w.regs[..];
    let mut addrs = [0u64; 32];
    let base = &regs[addr as usize];
    let offv = off as i64 as u64;
    // a shared address is 32 bits wide whatever the register: the sum wraps (`lane_address`)
    let am = 0xffff_ffffu64;
    let mut acc = 0u64;
    // a whole warp's store to consecutive words (zero: lane l at the first lane's address + 4 l)
    let mut stray = 1u64;
    if mask == FULL && is_st {
        (addrs, (acc, stray)) = warp_addresses_body::<true, 4>(base, offv, am);
    } else if mask == FULL {
        (addrs, (acc, _)) = warp_addresses_body::<false, 4>(base, offv, am);
    } else {
        for l in 0..32 {
            let a = base[l].wrapping_add(offv) & am;
            addrs[l] = a;
            acc |= a & lane_bits(mask, l);
        }
    }
    if acc & 3 != 0 {
        let l = (0..32)
            .find(|&l| mask >> l & 1 != 0 && addrs[l] % 4 != 0)
            .unwrap_or(0);
        return Err(access_fault(
            FaultKind::Misaligned { space: Space::Shared },
            pc,
            l,
            addrs[l],
        ));
    }
    if acc > mem::CLUSTER_OFFSET {
        // a shared::cluster address: the general path finds the cluster's block
        return ldst(
            ctx,
            block,
            wi,
            w,
            bm,
            sink,
            pc,
            mask,
            is_st,
            MemSpace::Shared,
            Ty::U32,
            1,
            _addr32,
            [r, NO_REG, NO_REG, NO_REG],
            addr,
            off,
        );
    }
    let mut res_mask = [0u32; 5];
    res_mask[Res::Shared as usize] = mask;
    let op = if is_st { AccessOp::Store } else { AccessOp::Load };
    if is_st {
        sink.store_values(wi, pc, 4, &[&regs[r as usize]]);
    }
    emit(
        ctx,
        sink,
        block,
        wi,
        pc,
        MemSpace::Shared,
        op,
        4,
        &res_mask,
        &addrs,
    );
    let row = &mut regs[r as usize];
    let bad = if is_st {
        let (words, _) = bm.shared.as_chunks_mut::<4>();
        let at = (addrs[0] >> 2) as usize;
        if stray == 0 && at + 32 <= words.len() {
            // one run of 32 words (the lanes' words are distinct): a narrowing copy
            for (w, &v) in words[at..at + 32].iter_mut().zip(row.iter()) {
                *w = (v as u32).to_le_bytes();
            }
            None
        } else if mask == FULL && in_words(acc, &addrs, words.len()) {
            for (&v, &a) in row.iter().zip(&addrs) {
                // SAFETY: every lane's word is below `words.len()` (`in_words`)
                *unsafe { words.get_unchecked_mut((a >> 2) as usize) } = (v as u32).to_le_bytes();
            }
            None
        } else {
            lanes(mask, |l| {
                *words.get_mut((addrs[l] >> 2) as usize)? = (row[l] as u32).to_le_bytes();
                Some(())
            })
        }
    } else {
        let (words, _) = bm.shared.as_chunks::<4>();
        if mask == FULL && in_words(acc, &addrs, words.len()) {
            for (v, &a) in row.iter_mut().zip(&addrs) {
                // SAFETY: every lane's word is below `words.len()` (`in_words`)
                *v = u64::from(u32::from_le_bytes(*unsafe {
                    words.get_unchecked((a >> 2) as usize)
                }));
            }
            None
        } else {
            lanes(mask, |l| {
                row[l] = u64::from(u32::from_le_bytes(*words.get((addrs[l] >> 2) as usize)?));
                Some(())
            })
        }
    };
    if let Some(l) = bad {
        return Err(access_fault(
            FaultKind::OutOfBounds { space: Space::Shared },
            pc,
            l,
            addrs[l],
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn ldst<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    is_st: bool,
    space: MemSpace,
    ty: Ty,
    vec: u8,
    addr32: bool,
    r: [R; 4],
    addr: R,
    off: i32,
) -> Result<(), Stop> {
    let es = ty.bytes() as u64;
    if vec > 1
        && es == 4
        && mask == FULL
        && matches!(space, MemSpace::Shared | MemSpace::Global)
        && !ctx.limits.reference_paths
        && let Some(done) = ldst_vector(
            ctx, block, wi, w, bm, sink, pc, is_st, space, vec, addr32, r, addr, off,
        )
    {
        return done;
    }
    let width = es * vec as u64;
    let mut addrs = [0u64; 32];
    let op = if is_st { AccessOp::Store } else { AccessOp::Load };
    if matches!(space, MemSpace::Shared | MemSpace::Global) && vec == 1 && !(ty.signed() && es < 4) {
        // fast path: one concrete space, one element per lane, no sign extension
        let regs = &mut w.regs[..];
        let base = &regs[addr as usize];
        let offv = off as i64 as u64;
        // a 32-bit register's sum, and any shared address, wraps at 32 bits (`lane_address`)
        let am = if addr32 || space == MemSpace::Shared {
            0xffff_ffffu64
        } else {
            u64::MAX
        };
        let mut acc = 0u64;
        // a whole warp's 4-byte global access: lane l at the first lane's address + 4 l (zero:
        // the lanes' words one run, [`warp_span`])
        let mut stray = 1u64;
        if mask == FULL {
            // no lane to leave out of the alignment check: the addresses, their or and their
            // differences from a run in one pass, four lanes at a time in separate accumulators
            // (one lane at a time, the compiler kept the loop scalar: ~5 instructions a lane)
            let (a, r) = warp_addresses_body::<true, 4>(base, offv, am);
            addrs = a;
            acc = r.0;
            if es == 4 && space == MemSpace::Global {
                stray = r.1;
            }
        } else {
            for l in 0..32 {
                let a = base[l].wrapping_add(offv) & am;
                addrs[l] = a;
                acc |= a & lane_bits(mask, l);
            }
        }
        let (res, sp) = if space == MemSpace::Shared {
            (Res::Shared, Space::Shared)
        } else {
            (Res::Global, Space::Global)
        };
        if res == Res::Shared && acc > mem::CLUSTER_OFFSET {
            // a shared::cluster address: the general path below finds the cluster's block
            return ldst_general(
                ctx, block, wi, w, bm, sink, pc, mask, is_st, space, ty, vec, addr32, r, addr, off,
            );
        }
        if acc & (es - 1) != 0 {
            let l = (0..32)
                .find(|&l| mask >> l & 1 != 0 && addrs[l] % es != 0)
                .unwrap_or(0);
            return Err(access_fault(FaultKind::Misaligned { space: sp }, pc, l, addrs[l]));
        }
        let mut res_mask = [0u32; 5];
        res_mask[res as usize] = mask;
        if is_st {
            sink.store_values(wi, pc, es as u8, &[&regs[r[0] as usize]]);
        }
        if stray == 0 && !ctx.limits.reference_paths {
            // a whole warp's global run: the sinks told so, they need not check the lanes again
            sink.mem_run(&MemEvent {
                block,
                warp: wi,
                pc,
                space: Space::Global,
                op,
                width: width as u8,
                mask,
                addrs: &addrs,
                src: None,
            });
        } else {
            emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &addrs);
        }
        let row = &mut regs[r[0] as usize];
        let bad = match (res, is_st, ctx.smap.is_identity()) {
            // 4-byte words, every active address a multiple of 4 (checked above): the word index
            // is the address / 4, in bounds when below the window's whole words
            (Res::Shared, false, true) if es == 4 => {
                let (words, _) = bm.shared.as_chunks::<4>();
                if mask == FULL && in_words(acc, &addrs, words.len()) {
                    for (v, &a) in row.iter_mut().zip(&addrs) {
                        *v = u64::from(u32::from_le_bytes(words[(a >> 2) as usize]));
                    }
                    None
                } else {
                    lanes(mask, |l| {
                        row[l] = u64::from(u32::from_le_bytes(*words.get((addrs[l] >> 2) as usize)?));
                        Some(())
                    })
                }
            }
            (Res::Shared, true, true) if es == 4 => {
                let (words, _) = bm.shared.as_chunks_mut::<4>();
                if mask == FULL && in_words(acc, &addrs, words.len()) {
                    for (&v, &a) in row.iter().zip(&addrs) {
                        words[(a >> 2) as usize] = (v as u32).to_le_bytes();
                    }
                    None
                } else {
                    lanes(mask, |l| {
                        *words.get_mut((addrs[l] >> 2) as usize)? = (row[l] as u32).to_le_bytes();
                        Some(())
                    })
                }
            }
            (Res::Shared, false, true) => lanes(mask, |l| {
                mem::read_bytes(bm.shared, addrs[l], es).map(|v| row[l] = v)
            }),
            (Res::Shared, true, true) => lanes(mask, |l| mem::write_bytes(bm.shared, addrs[l], es, row[l])),
            (Res::Shared, false, false) => lanes(mask, |l| {
                shared_at(ctx, addrs[l], es)
                    .and_then(|at| mem::read_bytes(bm.shared, at, es))
                    .map(|v| row[l] = v)
            }),
            (Res::Shared, true, false) => lanes(mask, |l| {
                shared_at(ctx, addrs[l], es).and_then(|at| mem::write_bytes(bm.shared, at, es, row[l]))
            }),
            (_, false, _) => {
                // 4-byte loads of a whole warp from one buffer: the buffer found once
                let span = if es == 4 && mask == FULL {
                    warp_span(ctx, &mut bm.ghint[pc as usize % GHINTS], stray == 0, &addrs)
                } else {
                    None
                };
                if let Some(t) = ctx.track {
                    track_warp(t, ctx, block, None, &span, stray, &addrs, mask, es);
                }
                if let Some(WarpSpan::Run(words)) = span {
                    prefetch_stride(&mut bm.gstride[pc as usize % GHINTS], words.as_ptr());
                    for (v, w) in row.iter_mut().zip(words) {
                        *v = u64::from(w.load(std::sync::atomic::Ordering::Relaxed));
                    }
                    None
                } else if let Some(WarpSpan::Halves(lo, hi)) = span {
                    let (r0, r1) = row.split_at_mut(16);
                    for (v, w) in r0.iter_mut().zip(lo) {
                        *v = u64::from(w.load(std::sync::atomic::Ordering::Relaxed));
                    }
                    for (v, w) in r1.iter_mut().zip(hi) {
                        *v = u64::from(w.load(std::sync::atomic::Ordering::Relaxed));
                    }
                    None
                } else if let Some(WarpSpan::Buffer(words, base)) = span {
                    for (v, &a) in row.iter_mut().zip(&addrs) {
                        *v = u64::from(
                            words[((a - base) / 4) as usize].load(std::sync::atomic::Ordering::Relaxed),
                        );
                    }
                    None
                } else {
                    let mut hint = 0usize;
                    lanes(mask, |l| {
                        ctx.global.read_hint(&mut hint, addrs[l], es).map(|v| row[l] = v)
                    })
                }
            }
            (_, true, _) => {
                let mut hint = 0usize;
                bm.gwrites += 1;
                // 4-byte stores of a whole warp to one buffer: the buffer found once, the lanes
                // stored in lane order (a later lane's store to the same word wins, as below)
                let span = if es == 4 && mask == FULL {
                    warp_span(ctx, &mut bm.ghint[pc as usize % GHINTS], stray == 0, &addrs)
                } else {
                    None
                };
                if let Some(t) = ctx.track {
                    track_warp(t, ctx, block, Some(ctx.global), &span, stray, &addrs, mask, es);
                }
                if let Some(WarpSpan::Run(words)) = span {
                    prefetch_stride(&mut bm.gstride[pc as usize % GHINTS], words.as_ptr());
                    for (&v, w) in row.iter().zip(words) {
                        w.store(v as u32, std::sync::atomic::Ordering::Relaxed);
                    }
                    None
                } else if let Some(WarpSpan::Halves(lo, hi)) = span {
                    // lanes 0-15, then 16-31: a later lane's store to a word both halves hold wins
                    let (r0, r1) = row.split_at(16);
                    for (&v, w) in r0.iter().zip(lo) {
                        w.store(v as u32, std::sync::atomic::Ordering::Relaxed);
                    }
                    for (&v, w) in r1.iter().zip(hi) {
                        w.store(v as u32, std::sync::atomic::Ordering::Relaxed);
                    }
                    None
                } else if let Some(WarpSpan::Buffer(words, base)) = span {
                    for (&v, &a) in row.iter().zip(&addrs) {
                        words[((a - base) / 4) as usize]
                            .store(v as u32, std::sync::atomic::Ordering::Relaxed);
                    }
                    None
                } else {
                    lanes(mask, |l| ctx.global.write_hint(&mut hint, addrs[l], es, row[l]))
                }
            }
        };
        if let Some(l) = bad {
            return Err(access_fault(
                FaultKind::OutOfBounds { space: sp },
                pc,
                l,
                addrs[l],
            ));
        }
        return Ok(());
    }
    if !is_st && mask != 0 && matches!(space, MemSpace::KernelParam | MemSpace::Const) {
        // fast path: a parameter or constant every active lane reads at one address (a kernel's
        // `ld.param` of its arguments): read once, give every lane the value
        let regs = &mut w.regs[..];
        let base = &regs[addr as usize];
        let b0 = base[mask.trailing_zeros() as usize];
        // a whole warp: the lanes' differences from the first one's address or-ed, a loop the
        // compiler vectorises
        let same = if mask == FULL {
            base.iter().fold(0u64, |d, &b| d | (b ^ b0)) == 0
        } else {
            (0..32).all(|l| mask >> l & 1 == 0 || base[l] == b0)
        };
        if same {
            let a = lane_address(b0, addr32, off as i64 as u64);
            let (res, o) = resolve(space, a);
            let bytes: &[u8] = if res == Res::KParam {
                ctx.params
            } else {
                &ctx.prog.const_bank
            };
            let n = usize::from(vec).clamp(1, 4);
            let mut vals = [0u64; 4];
            let read = o % es == 0
                && (0..n).all(|e| {
                    mem::read_bytes(bytes, o.wrapping_add(e as u64 * es), es)
                        .map(|v| vals[e] = v)
                        .is_some()
                });
            if read {
                let mut offs = [o; 32];
                if mask != FULL {
                    for (l, x) in offs.iter_mut().enumerate() {
                        if mask >> l & 1 == 0 {
                            *x = 0;
                        }
                    }
                }
                let mut res_mask = [0u32; 5];
                res_mask[res as usize] = mask;
                emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &offs);
                let sext = ty.signed() && es < 4;
                for (e, &v) in vals[..n].iter().enumerate() {
                    let v = if sext {
                        arith::sext(ty, v) as u64 & 0xffff_ffff
                    } else {
                        v
                    };
                    wr(&mut regs[r[e] as usize], &[v; 32], mask);
                }
                return Ok(());
            }
        }
    }
    ldst_general(
        ctx, block, wi, w, bm, sink, pc, mask, is_st, space, ty, vec, addr32, r, addr, off,
    )
}

/// Every lane of `row` set to `v`: 32-byte stores where the CPU has AVX2 (16-byte ones else).
#[inline(always)]
fn fill_row(row: &mut Row, v: u64) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn wide(row: &mut Row, v: u64) {
            *row = [v; 32];
        }
        if crate::fast::avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { wide(row, v) };
        }
    }
    *row = [v; 32];
}

/// A whole warp's addresses (`base` + `off`, masked by `am`), their or (the alignment check's)
/// and their differences from a run of `W`-byte elements from the first lane's address, or-ed (zero
/// iff lane l is at the first lane's address + W l: [`off_run`]`::<W>` of the addresses; with `W`
/// 0, zero iff every lane has the first lane's address; 0 unless `RUN`). Four lanes a step, each
/// in its own accumulator: a loop of vector adds, ands, xors and ors, run by a copy compiled for
/// AVX2 where the CPU has it (the same Rust, so the same values; 4 lanes a vector instead of 2).
#[inline(always)]
fn full_warp_addresses<const RUN: bool, const W: u64>(
    base: &[u64; 32],
    off: u64,
    am: u64,
) -> ([u64; 32], (u64, u64)) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        unsafe fn wide<const RUN: bool, const W: u64>(
            base: &[u64; 32],
            off: u64,
            am: u64,
        ) -> ([u64; 32], (u64, u64)) {
            warp_addresses_body::<RUN, W>(base, off, am)
        }
        if crate::fast::avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { wide::<RUN, W>(base, off, am) };
        }
    }
    warp_addresses_body::<RUN, W>(base, off, am)
}

/// [`full_warp_addresses`]' loop, inlined as it is into `ldst`'s and `shared32`'s own loops
/// (there the call of the AVX2 copy and the return of its array cost more host instructions than
/// its vectors save: transpose 4096 +1.8 % under cachegrind; `ldst_vector` takes the copy).
#[inline(always)]
fn warp_addresses_body<const RUN: bool, const W: u64>(
    base: &[u64; 32],
    off: u64,
    am: u64,
) -> ([u64; 32], (u64, u64)) {
    const fn steps(w: u64) -> [u64; 32] {
        let mut s = [0u64; 32];
        let mut l = 0;
        while l < 32 {
            s[l] = w * l as u64;
            l += 1;
        }
        s
    }
    let step: [u64; 32] = const { steps(W) };
    let a0 = base[0].wrapping_add(off) & am;
    let mut addrs = [0u64; 32];
    let mut acc = [0u64; 4];
    let mut stray = [0u64; 4];
    for ((a, b), st) in addrs
        .chunks_exact_mut(4)
        .zip(base.chunks_exact(4))
        .zip(step.chunks_exact(4))
    {
        for j in 0..4 {
            let x = b[j].wrapping_add(off) & am;
            a[j] = x;
            acc[j] |= x;
            if RUN {
                stray[j] |= x ^ a0.wrapping_add(st[j]);
            }
        }
    }
    (
        addrs,
        (
            acc[0] | acc[1] | acc[2] | acc[3],
            stray[0] | stray[1] | stray[2] | stray[3],
        ),
    )
}

/// The lanes' differences from a run of `W`-byte elements from the first lane's address (lane l
/// at `addrs[0] + W l`, wrapping), or-ed: zero iff every lane is on it. A loop of adds, xors and
/// ors of constants (the reference of [`full_warp_addresses`]'s run check).
#[cfg(test)]
fn off_run<const W: u64>(addrs: &[u64; 32]) -> u64 {
    let a0 = addrs[0];
    let mut stray = 0u64;
    for (l, &a) in addrs.iter().enumerate() {
        stray |= a ^ a0.wrapping_add(l as u64 * W);
    }
    stray
}

/// Tells the determinism shadow a warp's global loads (`write`: `None`) or stores of `es` bytes
/// at `addrs` (lanes `mask`; `stray` zero: lane l at the first lane's address + `es` l), before
/// the stores: a run or two dense halves found by [`warp_span`] as whole ranges, other warps
/// lane by lane.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn track_warp(
    t: &mem::Shadow,
    ctx: &Ctx<'_>,
    block: u32,
    write: Option<&mem::Global>,
    span: &Option<WarpSpan<'_>>,
    stray: u64,
    addrs: &[u64; 32],
    mask: u32,
    es: u64,
) {
    let b = ctx.owner(block);
    let run = stray == 0 && !ctx.limits.reference_paths;
    match (write, span) {
        (None, Some(WarpSpan::Halves(..))) => t.read_halves(b, addrs[0], addrs[16], es),
        (Some(g), Some(WarpSpan::Halves(..))) => t.write_halves(g, b, addrs, es),
        (None, _) if run => t.read_run(b, addrs, es),
        (None, _) => t.read_lanes(b, addrs, mask, es),
        (Some(g), _) if run => t.write_run(g, b, addrs, es),
        (Some(g), _) => t.write_lanes(g, b, addrs, mask, es),
    }
}

/// Where a whole warp's 4-byte global accesses fall, found once for the warp.
enum WarpSpan<'g> {
    /// Lane l's word is the l-th (the lanes' addresses one run).
    Run(&'g [std::sync::atomic::AtomicU32; 32]),
    /// Lanes 0-15's words, then lanes 16-31's (each half's addresses one run: a 2D block 16
    /// threads wide).
    Halves(
        &'g [std::sync::atomic::AtomicU32; 16],
        &'g [std::sync::atomic::AtomicU32; 16],
    ),
    /// The words of the one buffer that holds every lane's, and its base address.
    Buffer(&'g [std::sync::atomic::AtomicU32], u64),
}

/// Whether lanes 0-15 are one run of 4-byte elements from lane 0's address and lanes 16-31 one from
/// lane 16's (wrapping; either half may lie anywhere): a loop of adds, xors and ors.
#[inline(always)]
fn halves_run(addrs: &[u64; 32]) -> bool {
    let (a0, a16) = (addrs[0], addrs[16]);
    let mut stray = 0u64;
    for l in 0..16 {
        let step = 4 * l as u64;
        stray |= (addrs[l] ^ a0.wrapping_add(step)) | (addrs[16 + l] ^ a16.wrapping_add(step));
    }
    stray == 0
}

/// The one global buffer that holds every lane's 4 bytes at `addrs` (`run`: lane l's address is
/// the first lane's + 4 l: its 32 words, through the instruction's last region `hint`; lanes 0-15
/// and 16-31 each one run: each half's 16 words, [`halves_run`]; the reference path finds the
/// buffer from the lanes' lowest and highest address). `None`: the lanes
/// are not in one buffer (or not all in any), the lanes' own path runs and reports any fault.
#[inline(always)]
fn warp_span<'g>(ctx: &Ctx<'g>, hint: &mut usize, run: bool, addrs: &[u64; 32]) -> Option<WarpSpan<'g>> {
    if run && !ctx.limits.reference_paths {
        let a0 = addrs[0];
        let (words, base) = ctx.global.span_hint(hint, a0, a0.checked_add(128)?)?;
        return words[((a0 - base) / 4) as usize..]
            .first_chunk()
            .map(WarpSpan::Run);
    }
    if !ctx.limits.reference_paths && halves_run(addrs) {
        // each half's 16 words through the instruction's last region (a half that is not inside
        // one buffer: the lanes' buffer below, or their own path)
        let mut half = |a: u64| {
            let (words, base) = ctx.global.span_hint(hint, a, a.checked_add(64)?)?;
            words[((a - base) / 4) as usize..].first_chunk::<16>()
        };
        if let (Some(lo), Some(hi)) = (half(addrs[0]), half(addrs[16])) {
            return Some(WarpSpan::Halves(lo, hi));
        }
    }
    let (lo, hi) = addrs
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    let (words, base) = hi.checked_add(4).and_then(|end| ctx.global.span(lo, end))?;
    Some(WarpSpan::Buffer(words, base))
}

/// A whole warp's `.v2` / `.v4` load or store of 4-byte elements in shared or global memory, every
/// lane's address a multiple of the vector's width and inside the block's own shared memory or one
/// global buffer: what [`ldst_general`] does for it (the same event, values and memory), without
/// its lookups per lane and element. `None`: not that case, the general path runs (and reports any
/// fault). The determinism shadow (`Ctx::track`) is told each lane's whole vector at once, as the
/// one-element fast path tells it each lane's element.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn ldst_vector<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    is_st: bool,
    space: MemSpace,
    vec: u8,
    addr32: bool,
    r: [R; 4],
    addr: R,
    off: i32,
) -> Option<Result<(), Stop>> {
    let n = usize::from(vec).min(4);
    let width = 4 * n as u64;
    let shared = space == MemSpace::Shared;
    let regs = &mut w.regs[..];
    // a 32-bit register's sum, and any shared address, wraps at 32 bits (`lane_address`, `resolve`)
    let am = if addr32 || shared {
        0xffff_ffffu64
    } else {
        u64::MAX
    };
    let offv = off as i64 as u64;
    // the lanes' addresses and their differences from the first lane's (zero: a broadcast)
    let (addrs, (_, apart)) = full_warp_addresses::<true, 0>(&regs[addr as usize], offv, am);
    let first = addrs[0];
    // one address for the whole warp (a broadcast) is its own or, lowest and highest; the 64-bit
    // minimum and maximum over the lanes cost more than the rest of the access on SSE2
    let (mut acc, mut lo, mut hi) = (first, first, first);
    if apart != 0 {
        (acc, lo, hi) = (0u64, u64::MAX, 0u64);
        for &a in &addrs {
            acc |= a;
            lo = lo.min(a);
            hi = hi.max(a);
        }
    }
    if acc & (width - 1) != 0 {
        return None;
    }
    let mut res_mask = [0u32; 5];
    let span = if shared {
        let limit = (ctx.smem_size as u64).min(bm.shared.len() as u64);
        if acc > mem::CLUSTER_OFFSET || !ctx.smap.is_identity() || hi.checked_add(width)? > limit {
            return None;
        }
        res_mask[Res::Shared as usize] = FULL;
        None
    } else {
        res_mask[Res::Global as usize] = FULL;
        Some(
            ctx.global
                .span_hint(&mut bm.ghint[pc as usize % GHINTS], lo, hi.checked_add(width)?)?,
        )
    };
    let op = if is_st { AccessOp::Store } else { AccessOp::Load };
    if is_st {
        let rows: [&Row; 4] = std::array::from_fn(|e| &regs[r[e.min(n - 1)] as usize]);
        sink.store_values(wi, pc, 4, &rows[..n]);
    }
    emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &addrs);
    match span {
        None if is_st => {
            let (words, _) = bm.shared.as_chunks_mut::<4>();
            for (l, &a) in addrs.iter().enumerate() {
                for e in 0..n {
                    words[(a >> 2) as usize + e] = (regs[r[e] as usize][l] as u32).to_le_bytes();
                }
            }
        }
        None if lo == hi => {
            // every lane reads the same words (a tile's element the whole warp uses): read once,
            // each row filled with it (the last of aliased destinations wins, as lane by lane)
            let (words, _) = bm.shared.as_chunks::<4>();
            let at = (lo >> 2) as usize;
            for e in 0..n {
                let v = u64::from(u32::from_le_bytes(words[at + e]));
                fill_row(&mut regs[r[e] as usize], v);
            }
        }
        None => {
            let (words, _) = bm.shared.as_chunks::<4>();
            for (l, &a) in addrs.iter().enumerate() {
                for e in 0..n {
                    regs[r[e] as usize][l] = u64::from(u32::from_le_bytes(words[(a >> 2) as usize + e]));
                }
            }
        }
        Some((words, base)) if is_st => {
            bm.gwrites += 1;
            if let Some(t) = ctx.track {
                t.write_lanes(ctx.global, ctx.owner(block), &addrs, FULL, width);
            }
            for (l, &a) in addrs.iter().enumerate() {
                for e in 0..n {
                    words[((a - base) / 4) as usize + e].store(
                        regs[r[e] as usize][l] as u32,
                        std::sync::atomic::Ordering::Relaxed,
                    );
                }
            }
        }
        Some((words, base)) => {
            if let Some(t) = ctx.track {
                t.read_lanes(ctx.owner(block), &addrs, FULL, width);
            }
            for (l, &a) in addrs.iter().enumerate() {
                for e in 0..n {
                    regs[r[e] as usize][l] = u64::from(
                        words[((a - base) / 4) as usize + e].load(std::sync::atomic::Ordering::Relaxed),
                    );
                }
            }
        }
    }
    Some(Ok(()))
}

/// [`ldst`] lane by lane, any space, vectors, sign extension, shared::cluster addresses.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn ldst_general<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    is_st: bool,
    space: MemSpace,
    ty: Ty,
    vec: u8,
    addr32: bool,
    r: [R; 4],
    addr: R,
    off: i32,
) -> Result<(), Stop> {
    let regs = &mut w.regs[..];
    let es = ty.bytes() as u64;
    let width = es * vec as u64;
    let mut addrs = [0u64; 32];
    let op = if is_st { AccessOp::Store } else { AccessOp::Load };
    let mut kinds = [Res::Global; 32];
    let mut offs = [0u64; 32];
    // a vector access is aligned to its whole width (`ld.v2.u32`: 8 bytes), as the GPU faults
    // a misaligned one
    let mut res_mask = resolve_lanes(
        regs, space, addr, addr32, off, mask, width, pc, &mut addrs, &mut kinds, &mut offs,
    )?;
    if any_cluster(&res_mask, &offs) {
        cluster_lanes(bm, sink, wi, pc, op, width, &mut res_mask, &mut offs);
    }
    if is_st {
        let n = usize::from(vec).clamp(1, 4);
        let rows: [&Row; 4] = std::array::from_fn(|e| &regs[r[e.min(n - 1)] as usize]);
        sink.store_values(wi, pc, es as u8, &rows[..n]);
    }
    emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &offs);
    let sext = ty.signed() && es < 4;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let (kind, o) = (kinds[l], offs[l]);
        let tid = wi as u64 * 32 + l as u64;
        for e in 0..vec as usize {
            let eo = o.wrapping_add(e as u64 * es);
            let ok = if is_st {
                let v = regs[r[e] as usize][l];
                match kind {
                    Res::Shared => sh_write(ctx, bm, eo, es, v),
                    Res::Global => {
                        bm.gwrites += 1;
                        track_write(ctx, block, eo, es);
                        ctx.global.write(eo, es, v)
                    }
                    Res::Local => {
                        if eo + es > bm.local_size {
                            None
                        } else {
                            mark_stored(bm.local_stored, tid * bm.local_size + eo, es);
                            mem::write_bytes(bm.local, tid * bm.local_size + eo, es, v)
                        }
                    }
                    Res::Const | Res::KParam => None,
                }
            } else {
                let v = match kind {
                    Res::Shared => sh_read(ctx, bm, eo, es),
                    Res::Global => {
                        track_read(ctx, block, eo, es);
                        ctx.global.read(eo, es)
                    }
                    Res::Local => {
                        if eo + es > bm.local_size {
                            None
                        } else {
                            let at = tid * bm.local_size + eo;
                            // call parameters are the emulator's own copies: only the
                            // program's local loads count
                            if space != MemSpace::CallParam && !all_stored(bm.local_stored, at, es) {
                                bm.undefined_local_read = min_pc(bm.undefined_local_read, Some(pc));
                            }
                            mem::read_bytes(bm.local, at, es)
                        }
                    }
                    Res::Const => mem::read_bytes(&ctx.prog.const_bank, eo, es),
                    Res::KParam => mem::read_bytes(ctx.params, eo, es),
                };
                v.map(|v| {
                    // sign-extend signed loads into their register width
                    let v = if sext {
                        arith::sext(ty, v) as u64 & 0xffff_ffff
                    } else {
                        v
                    };
                    regs[r[e] as usize][l] = v;
                })
            };
            if ok.is_none() {
                let kind = if is_st && matches!(kind, Res::Const | Res::KParam) {
                    FaultKind::ReadOnly {
                        space: fault_space(kind),
                    }
                } else {
                    FaultKind::OutOfBounds {
                        space: fault_space(kind),
                    }
                };
                return Err(access_fault(kind, pc, l, addrs[l]));
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn atom<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    space: MemSpace,
    ao: AtomOp,
    ty: Ty,
    addr32: bool,
    d: R,
    addr: R,
    off: i32,
    b: R,
    c: R,
) -> Result<(), Stop> {
    let regs = &mut w.regs[..];
    let es = ty.bytes() as u64;
    let mut addrs = [0u64; 32];
    let mut kinds = [Res::Global; 32];
    let mut offs = [0u64; 32];
    let mut res_mask = resolve_lanes(
        regs, space, addr, addr32, off, mask, es, pc, &mut addrs, &mut kinds, &mut offs,
    )?;
    if any_cluster(&res_mask, &offs) {
        cluster_lanes(bm, sink, wi, pc, AccessOp::Atomic, es, &mut res_mask, &mut offs);
    }
    if res_mask[2] | res_mask[3] | res_mask[4] != 0 {
        let l = (res_mask[2] | res_mask[3] | res_mask[4]).trailing_zeros() as usize;
        return Err(access_fault(
            FaultKind::Misaligned {
                space: fault_space(kinds[l]),
            },
            pc,
            l,
            addrs[l],
        ));
    }
    emit(
        ctx,
        sink,
        block,
        wi,
        pc,
        space,
        AccessOp::Atomic,
        es,
        &res_mask,
        &offs,
    );
    let mut post = [0u64; 32];
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = offs[l];
        let bv = regs[b as usize][l];
        let cv = if c == NO_REG { 0 } else { regs[c as usize][l] };
        let f = |old: u64| arith::atom(ao, ty, old, bv, cv);
        let old = if kinds[l] == Res::Shared {
            let old = sh_rmw(ctx, bm, o, es, f);
            if let Some(old) = old {
                post[l] = f(old);
            }
            old
        } else {
            track_write(ctx, block, o, es);
            let old = ctx.global.rmw(o, es, f);
            // an atomic that leaves the word as it was (`atomicOr(p, 0)`, a failed
            // compare-and-swap: a poll) writes nothing another block could wait for
            let bytes = if es >= 8 { u64::MAX } else { (1u64 << (8 * es)) - 1 };
            if old.is_some_and(|v| (f(v) ^ v) & bytes != 0) {
                bm.gwrites += 1;
            }
            old
        };
        let Some(old) = old else {
            return Err(access_fault(
                FaultKind::OutOfBounds {
                    space: fault_space(kinds[l]),
                },
                pc,
                l,
                addrs[l],
            ));
        };
        if d != NO_REG {
            regs[d as usize][l] = old;
        }
    }
    if res_mask[0] != 0 {
        sink.atomic_values(wi, pc, ao, ty, res_mask[0], &post);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::mbar_state as ms;

    #[test]
    fn mbarrier_phases_counts_and_transactions() {
        let s = ms::init(3);
        assert_eq!(ms::phase(s), 0);
        let (s, t) = ms::arrive(s, 1, false);
        assert_eq!(
            (
                ms::phase(s),
                ms::token_phase(t.unwrap()),
                ms::token_pending(t.unwrap())
            ),
            (0, 0, 2)
        );
        // a dropping arrival counts now and lowers the count of later phases
        let (s, _) = ms::arrive(s, 1, true);
        let s = ms::expect_tx(s, 64);
        let (s, _) = ms::arrive(s, 1, false);
        assert_eq!(ms::phase(s), 0, "bytes still expected");
        let s = ms::complete_tx(s, 64);
        assert_eq!(ms::phase(s), 1, "phase 0 complete");
        // phase 1 expects 2 arrivals
        let (s, _) = ms::arrive(s, 1, false);
        assert_eq!(ms::phase(s), 1);
        let (s, _) = ms::arrive(s, 1, false);
        assert_eq!(ms::phase(s), 0);
        // transactions may complete before they are expected (the count goes negative)
        let s = ms::complete_tx(ms::init(1), 16);
        let (s, _) = ms::arrive(s, 1, false);
        assert_eq!(ms::phase(s), 0);
        assert_eq!(ms::phase(ms::expect_tx(s, 16)), 1);
    }

    /// The one-pass addresses, or and run check of a whole warp against their lane-by-lane
    /// definitions: runs (from any start, wrapping at 32 and 64 bits), runs with one lane off by
    /// one bit, half-warp runs, equal addresses and random lanes.
    #[test]
    fn full_warp_addresses_are_the_lanes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            seed ^ seed >> 29
        };
        let mut runs = 0;
        for case in 0..6000u32 {
            let start = match case % 4 {
                0 => next(),
                1 => u64::MAX - (next() % 256),
                2 => 0xffff_ffff - (next() % 256),
                _ => next() % 4096,
            };
            let mut base = [0u64; 32];
            for (l, b) in base.iter_mut().enumerate() {
                *b = match case / 4 % 5 {
                    0 => start.wrapping_add(4 * l as u64),
                    1 => {
                        start.wrapping_add(4 * l as u64) ^ u64::from(l == (case as usize % 32)) << (case % 64)
                    }
                    2 => start.wrapping_add(4 * (l % 16) as u64 + (l / 16) as u64 * 8192),
                    3 => start,
                    _ => next(),
                };
            }
            let off = match case % 3 {
                0 => 0,
                1 => next() % 512,
                _ => (-(next() as i64 % 512)) as u64,
            };
            for am in [u64::MAX, 0xffff_ffff] {
                let (addrs, (acc, stray)) = super::full_warp_addresses::<true, 4>(&base, off, am);
                assert_eq!((addrs, acc), {
                    let (a, (o, s)) = super::full_warp_addresses::<false, 4>(&base, off, am);
                    assert_eq!(s, 0);
                    (a, o)
                });
                let want: Vec<u64> = base.iter().map(|&b| b.wrapping_add(off) & am).collect();
                assert_eq!(addrs.as_slice(), want.as_slice(), "case {case}");
                assert_eq!(acc, want.iter().fold(0, |o, &a| o | a), "case {case}");
                assert_eq!(stray, super::off_run::<4>(&addrs), "case {case}");
                // the copy for the host's vectors and the plain loop agree
                assert_eq!(
                    (addrs, (acc, stray)),
                    super::warp_addresses_body::<true, 4>(&base, off, am),
                    "case {case}"
                );
                // with W 0: zero iff every lane has the first lane's address (a broadcast)
                let (a0, (o0, apart)) = super::full_warp_addresses::<true, 0>(&base, off, am);
                assert_eq!((a0, o0), (addrs, acc), "case {case}");
                assert_eq!(apart, super::off_run::<0>(&addrs), "case {case}");
                assert_eq!(apart == 0, want.iter().all(|&a| a == want[0]), "case {case}");
                assert_eq!(
                    stray == 0,
                    (0..32).all(|l| addrs[l] == addrs[0].wrapping_add(4 * l as u64)),
                    "case {case}"
                );
                runs += usize::from(stray == 0);
            }
        }
        assert!(runs > 2000, "runs {runs}");
    }
}
