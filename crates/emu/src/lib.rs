//! warpscope-emu: runs a lowered PTX kernel ([`warpscope_ptx::Program`]) warp by warp on the CPU
//! and sends what the warps do to analyses as events ([`Sink`]).
//!
//! What it owns: the SIMT execution model (32 consecutive linear thread ids per warp, x fastest; an
//! active mask and a reconvergence stack that reconverges at the immediate post-dominator computed
//! at lowering time; barriers that wait for every non-exited thread of the block, warps scheduled
//! round-robin between barriers), the memories (a shared window per block laid out as the
//! program says, global buffers from launch arguments, per-thread local memory, the constant bank,
//! kernel parameters, generic addressing through fixed windows), and the parallel run over blocks.
//!
//! Invariants:
//! - The emulator never panics on a kernel: out-of-bounds and misaligned accesses, traps, divergent
//!   barriers and runaway loops become an [`EmuFault`] (data) with block, warp, pc, lane, address.
//! - The hot loop contains no analysis code and no allocation per instruction; the sink is a
//!   generic parameter, so empty default methods cost nothing.
//! - Blocks run in parallel (rayon); sinks and faults come back in block order, so results are
//!   identical whatever the thread count (for kernels without inter-block races).
//!
//! ```
//! use warpscope_emu::{Arg, Launch, Limits, run};
//! let src = ".version 9.5\n.target sm_90\n.address_size 64\n\
//!   .visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<4>;\n\
//!   ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n\
//!   add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n ret;\n}\n";
//! let prog = warpscope_ptx::compile(src).unwrap();
//! let launch = Launch::new([1, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 256])]);
//! let res = run(&prog, "k", &launch, &Limits::default(), |_| ()).unwrap();
//! assert!(res.faults.is_empty());
//! let out = res.buffer(0).unwrap();
//! assert_eq!(&out[4 * 63..4 * 64], &63u32.to_le_bytes());
//! ```
#![deny(missing_docs)]

pub mod arith;
pub mod devlaunch;
mod disjoint;
pub mod event;
mod exec;
mod fast;
pub mod mem;
pub mod mma_sp;
pub mod mufu;
mod parts;
pub mod printf;
pub mod remap;
pub mod softfloat;
mod spill;
pub mod tensor;
pub mod tex;
mod timing;
pub mod tma;
pub mod wgmma;
mod window;
mod zero_rows;

pub use event::{
    AccessOp, BarrierEvent, BarrierKind, BranchEvent, ClusterCopy, IterEvent, Iteration, LaneMask, MbarEvent,
    MbarWhat, MemEvent, RemoteEvent, Sink, Space,
};
/// Every register row an instruction names (read or written).
pub use exec::MAX_CALL_DEPTH;
pub use fast::rows_of as inst_rows;
pub use remap::{AsyncLayout, SharedRemap};
pub use warpscope_ptx::{InstInfo, Kernel, Program, SharedVar, SrcLoc};

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// A kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A global buffer with its initial contents; the kernel gets its address.
    Buffer(Vec<u8>),
    /// `u32`
    U32(u32),
    /// `i32`
    I32(i32),
    /// `u64`
    U64(u64),
    /// `i64`
    I64(i64),
    /// `f32`
    F32(f32),
    /// `f64`
    F64(f64),
    /// Raw parameter bytes (a struct passed by value, or any parameter given as its bytes); the
    /// length must equal the parameter's size.
    Bytes(Vec<u8>),
}

/// Where a launch puts its [`Arg::Buffer`] arguments: each argument's base address (`None` for
/// the others) and the first address after them. Arguments after the kernel's parameters are
/// buffers that by-value struct arguments point to (their bytes hold these addresses). Buffers follow each other from
/// [`mem::BUFFER_BASE`], each starting 256 bytes past the previous one's end rounded up to 256
/// (a tensor map given as an argument names its buffer by this address).
pub fn buffer_layout(args: &[Arg]) -> (Vec<Option<u64>>, u64) {
    let mut next = mem::BUFFER_BASE;
    let bases = args
        .iter()
        .map(|a| match a {
            Arg::Buffer(b) => {
                let base = next;
                next = (next + b.len() as u64).div_ceil(256) * 256 + 256;
                Some(base)
            }
            _ => None,
        })
        .collect();
    (bases, next)
}

/// The device runtime of a launch that says nothing of it: a host launch on device 0.
static NO_DEVRT: devlaunch::DevRtEnv = devlaunch::DevRtEnv {
    depth: 0,
    device: 0,
    attributes: Vec::new(),
    max_smem: 0,
};

/// Turns of a cooperative grid in a row in which every unfinished block waited, none finished and
/// none wrote global memory, after which the grid is stopped as deadlocked
/// ([`FaultKind::GridDeadlock`]). One turn with no write already repeats the previous polls'
/// reads; the margin lets a poll loop that counts its own tries (a timeout) run out.
pub const GRID_IDLE_TURNS: u32 = 1000;

/// A launch configuration. `Launch::default()` is one block of one thread with no arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Grid dimensions in blocks.
    pub grid: [u32; 3],
    /// Block dimensions in threads.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// Arguments in parameter order.
    pub args: Vec<Arg>,
    /// Run only these linear block ids (sampling); `None` runs the whole grid.
    pub blocks: Option<Vec<u32>>,
    /// Shared-memory layout changes (empty: the kernel's own layout). Shared accesses are moved
    /// to the changed layout; events report the moved addresses; results are unchanged.
    pub remap: Vec<SharedRemap>,
    /// The tensor core's and the TMA's layout changes that go with `remap` (the fix advisor's
    /// re-emulation of a descriptor or tensor-map swizzle change); empty: none.
    pub async_layout: AsyncLayout,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`): every block of the grid is resident
    /// at once, so blocks may wait for each other (`grid.sync()`). The blocks run in turns, in
    /// block order, one thread: each until every live warp of it has polled global memory with a
    /// strong load (`ld.acquire`, `ld.relaxed`, `ld.volatile`) or waits at a block barrier.
    pub cooperative: bool,
    /// Address of the grid workspace (`%envreg1` high, `%envreg2` low 32 bits; cooperative
    /// groups keeps its grid barrier at byte 4, and `grid.is_valid()` is whether it is not 0): 8
    /// zero bytes that the caller of [`run_in`] provides. The CUDA 13 driver gives every launch
    /// one (an H100 says `is_valid()` in plain launches too: calibration/run/h100/cooperative.*).
    /// A cooperative launch with [`run`] and 0 here gets one in the launch's own space.
    pub grid_workspace: u64,
    /// Thread-block cluster dimensions (`cudaLaunchAttributeClusterDimension`, `--cluster`);
    /// `None`: the kernel's `.reqnctapercluster` if it has one, else clusters of one block. The
    /// blocks of a cluster run together (in turns on one thread, as a cooperative grid's do) and
    /// see each other's shared memory; clusters run in parallel.
    pub cluster: Option<[u32; 3]>,
    /// Clusters of up to [`MAX_CLUSTER_NONPORTABLE`] blocks are allowed
    /// (`cudaFuncAttributeNonPortableClusterSizeAllowed`), else up to [`MAX_CLUSTER`].
    pub cluster_nonportable: bool,
    /// What the device runtime tells a kernel that launches kernels (dynamic parallelism): its
    /// nesting depth, the device and its attributes; `None`: a host launch on device 0 with no
    /// attributes.
    pub device_runtime: Option<std::sync::Arc<devlaunch::DevRtEnv>>,
    /// Blocks of the kernel an SM holds at once and the GPU's SMs: how many blocks of a plain
    /// launch can wait on each other ([`FaultKind::NotResident`]); `None`: as many as the grid has.
    pub resident: Option<(u32, u32)>,
}

/// The most blocks of a cluster a launch may have (the portable cluster size).
pub const MAX_CLUSTER: u32 = 8;
/// The most blocks of a cluster on an H100 with the non-portable cluster size allowed.
pub const MAX_CLUSTER_NONPORTABLE: u32 = 16;

/// The cluster dimensions a launch of kernel `k` runs with, checked: the launch's, the kernel's
/// `.reqnctapercluster`, or 1x1x1; each dividing the grid's, at most [`MAX_CLUSTER`] blocks (or
/// [`MAX_CLUSTER_NONPORTABLE`] with `nonportable`). Whether they are explicit
/// (`%is_explicit_cluster`) is the second value.
pub fn cluster_dims(
    k: &Kernel,
    grid: [u32; 3],
    cluster: Option<[u32; 3]>,
    nonportable: bool,
) -> Result<([u32; 3], bool), EmuError> {
    let dims = match (cluster, k.reqnctapercluster) {
        (Some(c), Some(r)) if c != r => {
            return Err(EmuError::BadLaunch(format!(
                "kernel `{}` is compiled for clusters of {}x{}x{} blocks (__cluster_dims__), launched with {}x{}x{}",
                k.name, r[0], r[1], r[2], c[0], c[1], c[2]
            )));
        }
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => [1, 1, 1],
    };
    if dims.contains(&0) {
        return Err(EmuError::BadLaunch(format!(
            "cluster dimensions {}x{}x{}: each must be at least 1",
            dims[0], dims[1], dims[2]
        )));
    }
    let size = dims.iter().map(|&d| u64::from(d)).product::<u64>();
    let max = if nonportable {
        MAX_CLUSTER_NONPORTABLE
    } else {
        MAX_CLUSTER
    };
    if size > u64::from(max) {
        return Err(EmuError::BadLaunch(format!(
            "a cluster of {}x{}x{} = {size} blocks is over the {} the H100 allows{}",
            dims[0],
            dims[1],
            dims[2],
            max,
            if nonportable {
                ""
            } else {
                " (16 with the non-portable cluster size allowed)"
            }
        )));
    }
    if let Some(i) = (0..3).find(|&i| !grid[i].is_multiple_of(dims[i])) {
        return Err(EmuError::BadLaunch(format!(
            "grid {}x{}x{} is not a whole number of {}x{}x{} clusters (dimension {} is not a multiple of {})",
            grid[0],
            grid[1],
            grid[2],
            dims[0],
            dims[1],
            dims[2],
            ["x", "y", "z"][i],
            dims[i]
        )));
    }
    let explicit = cluster.is_some() || k.explicitcluster;
    if k.explicitcluster && k.reqnctapercluster.is_none() && cluster.is_none() {
        return Err(EmuError::BadLaunch(format!(
            "kernel `{}` is compiled for an explicit cluster (.explicitcluster): launch it with cluster dimensions",
            k.name
        )));
    }
    Ok((dims, explicit))
}

impl Default for Launch {
    fn default() -> Launch {
        Launch::new([1, 1, 1], [1, 1, 1], Vec::new())
    }
}

impl Launch {
    /// A launch with no dynamic shared memory that runs every block.
    pub fn new(grid: [u32; 3], block: [u32; 3], args: Vec<Arg>) -> Launch {
        Launch {
            grid,
            block,
            dyn_smem: 0,
            args,
            blocks: None,
            remap: Vec::new(),
            async_layout: AsyncLayout::default(),
            cooperative: false,
            grid_workspace: 0,
            cluster: None,
            cluster_nonportable: false,
            device_runtime: None,
            resident: None,
        }
    }
}

/// Resource limits of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Warp instructions one block may execute before it faults with
    /// [`FaultKind::InstructionLimit`] (stops runaway loops; default 2^28).
    pub max_warp_insts_per_block: u64,
    /// Total bytes of global buffers (default 4 GiB).
    pub max_global_bytes: u64,
    /// Shared memory per block, static plus dynamic (default 227 KiB, the H100 maximum).
    pub max_shared_bytes: u32,
    /// Local memory per block (all threads; default 256 MiB).
    pub max_local_bytes_per_block: u64,
    /// Run every shared load and store, and every whole-warp vector load and store, through the
    /// general instruction path instead of its fast path, and step every iteration of a loop that
    /// the emulator would repeat at once (`Sink::repeat`), and every ALU instruction of a straight
    /// run of them with the instruction loop's own bookkeeping (the reference the tests compare the
    /// fast paths with; default false).
    pub reference_paths: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_warp_insts_per_block: 1 << 28,
            max_global_bytes: 4 << 30,
            max_shared_bytes: 227 * 1024,
            max_local_bytes_per_block: 256 << 20,
            reference_paths: false,
        }
    }
}

/// What went wrong in a faulting block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultKind {
    /// Access outside every allocation of the space.
    OutOfBounds {
        /// The space.
        space: Space,
    },
    /// Address not aligned to the access size (or an atomic outside shared/global).
    Misaligned {
        /// The space.
        space: Space,
    },
    /// Store to a read-only space (const, kernel parameters).
    ReadOnly {
        /// The space.
        space: Space,
    },
    /// A `bar.sync` reached by only part of a warp's live threads, or a block whose warps can
    /// never all arrive: divergent barrier / deadlock.
    DivergentBarrier,
    /// Threads of one named barrier gave different thread counts in one phase (`bar.sync 1, 64`
    /// and `bar.sync 1, 96`; an uncounted arrival is `None`): every thread taking part must give
    /// the same count. `first`: the count of the phase's first arrival, `this`: the faulting one's.
    BarrierCount {
        /// The count the phase's first arrival gave.
        first: Option<u32>,
        /// The count the faulting warp gave.
        this: Option<u32>,
    },
    /// `trap`
    Trap,
    /// An indirect `call` through a register that holds no function's address (the fault's
    /// `addr` is the first such lane's value): a GPU stops the launch with `cudaErrorInvalidPc`.
    BadCall,
    /// A failing device `assert` (`__assertfail`): the lanes that reached it are in
    /// [`RunResult::asserts`]; the grid traps (see [`RunResult::asserts`]).
    Assert,
    /// The block executed more than `Limits::max_warp_insts_per_block` warp instructions.
    InstructionLimit,
    /// Execution ran past the kernel's last instruction.
    FellOffEnd,
    /// A warp's calls of recursive functions nested deeper than the emulator keeps
    /// ([`MAX_CALL_DEPTH`], 4,096): a GPU's call stack would overflow long before.
    StackOverflow,
    /// A cooperative launch where every unfinished block waits (polling global memory or at a
    /// block barrier) and [`GRID_IDLE_TURNS`] turns of the grid wrote no global memory: nothing
    /// can release them (a grid barrier some block never reaches). A GPU would hang; the grid stops, with
    /// this fault on the first waiting block.
    GridDeadlock,
    /// A block of a plain launch waits on other blocks (every live warp polls global memory in a
    /// spin loop that nothing of the block will end: a grid barrier made by hand) while the grid
    /// has more blocks than the GPU holds at once (`per_sm` per SM on `sms` SMs,
    /// [`Launch::resident`]): the blocks it waits for cannot start before it ends, so a GPU would
    /// hang. The launch stops with this fault on the waiting block.
    NotResident {
        /// Blocks of the kernel an SM holds at once.
        per_sm: u32,
        /// The GPU's SMs.
        sms: u32,
    },
    /// A cluster whose unfinished blocks all wait (at the cluster barrier, on an mbarrier, or
    /// polling memory) and for [`GRID_IDLE_TURNS`] turns none wrote global memory or another
    /// block's shared memory and the cluster barrier did not complete: nothing can release them.
    /// A GPU would hang; the cluster stops, with this fault on its first unfinished block.
    ClusterDeadlock,
    /// A tensor-memory-access instruction (`cp.async.bulk.tensor`, `tensormap.replace`, ...) that
    /// cannot run: see [`tma::TmaFault`].
    TensorMap {
        /// Why.
        why: tma::TmaFault,
    },
}

/// A fault, reported as data. The faulting block stops; other blocks run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmuFault {
    /// Linear block id.
    pub block: u32,
    /// Warp within the block.
    pub warp: u32,
    /// pc of the faulting instruction.
    pub pc: u32,
    /// First faulting lane, when one is known.
    pub lane: Option<u32>,
    /// The lane's address (as computed by the instruction), when an access faulted.
    pub addr: Option<u64>,
    /// What happened.
    pub kind: FaultKind,
    /// For a [`FaultKind::ClusterDeadlock`]: the mbarrier the reported warp waits on, as it
    /// stands when the cluster stops.
    pub mbar: Option<MbarWait>,
}

/// An mbarrier a warp of a stopped cluster waits on (`mbarrier.try_wait`/`test_wait`), as it
/// stands when the cluster stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MbarWait {
    /// The barrier's offset in its block's shared memory.
    pub offset: u32,
    /// The parity of the phase the warp waits to see complete.
    pub parity: u8,
    /// The parity of the barrier's current phase.
    pub phase: u8,
    /// Arrivals the current phase still expects.
    pub pending: u32,
    /// Arrivals a phase expects (the `mbarrier.init` count, less `arrive_drop`s).
    pub expected: u32,
    /// The current phase's transaction count: bytes expected (`expect_tx`) and not yet
    /// completed (`complete_tx`); negative when completions came first.
    pub tx: i32,
}

impl std::fmt::Display for EmuFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} at pc {} (block {}, warp {}",
            self.kind, self.pc, self.block, self.warp
        )?;
        if let Some(l) = self.lane {
            write!(f, ", lane {l}")?;
        }
        if let Some(a) = self.addr {
            write!(f, ", address {a:#x}")?;
        }
        write!(f, ")")
    }
}

/// Errors that prevent a run from starting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EmuError {
    /// No kernel of that name in the program.
    #[error("no kernel named `{0}` in the program (kernels: {1})")]
    NoKernel(String, String),
    /// The kernel is in the module but did not lower (an instruction that is not modelled, ...).
    #[error("kernel `{0}` could not be lowered: {1}")]
    NotLowered(String, String),
    /// Launch dimensions are invalid.
    #[error("bad launch: {0}")]
    BadLaunch(String),
    /// Arguments do not match the kernel's parameters.
    #[error("argument {index} does not match parameter `{param}`: {reason}")]
    BadArg {
        /// Argument index.
        index: usize,
        /// Parameter name.
        param: String,
        /// Why.
        reason: String,
    },
    /// A resource limit would be exceeded.
    #[error("limit exceeded: {0}")]
    Limit(String),
    /// The program is malformed (an instruction names a register the kernel does not have).
    #[error("malformed program: {0}")]
    BadProgram(String),
    /// A shared-memory remap does not fit the kernel's layout.
    #[error("bad shared-memory remap: {0}")]
    BadRemap(String),
}

/// Watches a run from other threads, and bounds it in time ([`run_watched`]).
///
/// Neither changes what a block computes: results stay identical whatever the thread count. A
/// deadline changes which blocks run, and [`RunResult::stopped`] says so.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch<'a> {
    /// Incremented (relaxed) once per block as the block ends, so that another thread can show
    /// the blocks done; set back to 0 when a launch whose blocks raced runs again in block order.
    pub done: Option<&'a AtomicU64>,
    /// No block starts at or after this instant (the first block always runs). With a deadline
    /// the blocks start in block order, each worker thread taking the next one, so the blocks run
    /// are the first K of the launch's order whatever the thread count and however long each took;
    /// [`RunResult::block_ids`] lists them. A cooperative launch ignores it (its blocks are resident
    /// together and wait for each other: the whole grid runs).
    pub deadline: Option<Instant>,
}

/// Counters of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Warp instructions executed (predicated-off ones included).
    pub warp_insts: u64,
    /// Sum over warp instructions of the active lanes.
    pub thread_insts: u64,
    /// Blocks run.
    pub blocks: u64,
    /// What the TMA instructions did.
    pub tma: tma::TmaCounts,
    /// The lowest pc of a local load (`ld.local`, or a generic load into the local window) that
    /// read a byte its thread had not stored in the launch: the emulator reads zero there, a GPU
    /// whatever the memory held, so what depends on the value may differ from the GPU's.
    pub undefined_local_read: Option<u32>,
    /// A plain launch in which this block waited on other blocks (a grid barrier made by hand):
    /// the blocks before it ran one after another, it and the later ones interleaved, in turns
    /// as a cooperative launch's ([`FaultKind::NotResident`] where the GPU cannot hold them all).
    pub waited: Option<u32>,
}

/// The result of a run.
#[derive(Debug)]
pub struct RunResult<S> {
    /// One sink per block run, in block order (ascending linear block id, or the sampling order).
    pub sinks: Vec<S>,
    /// The linear block id of each sink.
    pub block_ids: Vec<u32>,
    /// Final contents per argument: `Some` for [`Arg::Buffer`] arguments.
    pub buffers: Vec<Option<Vec<u8>>>,
    /// Counters.
    pub counters: Counters,
    /// Faults in block order (at most one per block).
    pub faults: Vec<EmuFault>,
    /// Device `printf`s, in block order and, within a block, in the order they executed.
    pub printf: Vec<printf::Printed>,
    /// Kernels the grid's threads launched (dynamic parallelism), in block order, then the order
    /// the block launched them; the caller runs them after this grid ([`devlaunch`]).
    pub launches: Vec<devlaunch::DeviceLaunch>,
    /// Failing device `assert`s, in block order, then lane order (one per thread that executed
    /// `__assertfail`). A failing assert traps the grid as a GPU does: the warp and its block stop
    /// there (earlier side effects stay), and blocks of a later wave ([`ASSERT_WAVE`]) do not run.
    pub asserts: Vec<AssertFailure>,
    /// The [`Watch::deadline`] passed before every block had started: only the first
    /// `block_ids.len()` blocks ran, and what the others would have stored is not in memory.
    pub stopped: bool,
}

/// One thread's failing device `assert`: what a GPU prints as
/// `FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `MESSAGE` failed.`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssertFailure {
    /// The block index (`blockIdx`).
    pub block: [u32; 3],
    /// The thread index in its block (`threadIdx`).
    pub thread: [u32; 3],
    /// The `__assertfail` instruction's pc.
    pub pc: u32,
    /// The asserted expression as nvcc wrote it (`__assertfail`'s message).
    pub message: Vec<u8>,
    /// The source file as nvcc was given it.
    pub file: Vec<u8>,
    /// The source line.
    pub line: u32,
    /// The function's signature (`__PRETTY_FUNCTION__`).
    pub function: Vec<u8>,
}

/// Blocks of a kernel that can fail a device `assert` run in waves of this many (in parallel within
/// a wave): once a block of a wave fails one, the later waves do not run. A GPU traps the whole grid
/// at a failing assert, so blocks it had not started never run while the blocks resident beside the
/// failing one may run on; a fixed wave (not the thread count) keeps the result deterministic. Kernels
/// without `__assertfail` run all their blocks at once as before.
pub const ASSERT_WAVE: usize = 128;

impl<S> RunResult<S> {
    /// Final contents of the buffer passed as argument `index`.
    pub fn buffer(&self, index: usize) -> Option<&[u8]> {
        self.buffers.get(index)?.as_deref()
    }
}

/// Runs `kernel` of `program` over the launch. `sink_factory(block_linear)` makes one sink per block.
pub fn run<S, F>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    sink_factory: F,
) -> Result<RunResult<S>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
{
    run_impl(
        program,
        kernel,
        launch,
        limits,
        None,
        sink_factory,
        None,
        Watch::default(),
    )
}

/// Sees a launch's memory just before its blocks run and just after (an analysis of the machine
/// code that reads the memory the launch starts from, and checks afterwards what the launch left).
pub trait LaunchObserver {
    /// The parameter buffer as the kernel's parameter layout places it, and global memory as the
    /// launch starts.
    fn before(&mut self, params: &[u8], global: &mem::Global);
    /// Global memory as the launch left it.
    fn after(&mut self, global: &mem::Global);
}

/// [`run`] (`outer` = `None`) or [`run_in`] (`outer` = the caller's global space) with an observer
/// of the launch's memory.
pub fn run_observed<S, F>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    observer: &mut dyn LaunchObserver,
) -> Result<RunResult<S>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
{
    run_impl(
        program,
        kernel,
        launch,
        limits,
        outer,
        sink_factory,
        Some(observer),
        Watch::default(),
    )
}

/// Runs `kernel` against a persistent global address space owned by the caller (a CUDA runtime:
/// allocations live across launches, device pointers are plain [`Arg::U64`] or [`Arg::Bytes`]
/// arguments). [`Arg::Buffer`] arguments are refused, and the module's `.global` variables are not
/// added: the caller keeps them in `global` at [`warpscope_ptx::lower::GLOBAL_VAR_BASE`]. An access
/// outside every region is a fault ([`FaultKind::OutOfBounds`]), as with [`run`].
pub fn run_in<S, F>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    global: &mem::Global,
    sink_factory: F,
) -> Result<RunResult<S>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
{
    run_impl(
        program,
        kernel,
        launch,
        limits,
        Some(global),
        sink_factory,
        None,
        Watch::default(),
    )
}

/// The most general entry point: [`run`] (`outer` = `None`) or [`run_in`] (`outer` = the caller's
/// global space), with an optional observer of the launch's memory ([`run_observed`]) and a
/// [`Watch`]: a counter of the blocks done and a deadline after which no block starts.
#[allow(clippy::too_many_arguments)]
pub fn run_watched<S, F>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    observer: Option<&mut dyn LaunchObserver>,
    watch: Watch<'_>,
) -> Result<RunResult<S>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
{
    run_impl(
        program,
        kernel,
        launch,
        limits,
        outer,
        sink_factory,
        observer,
        watch,
    )
}

/// Blocks a launch runs ahead of the oldest block whose results are not yet merged, per host thread
/// (or two batches, whichever is more: at most 32): the bound on the per-block results (sinks)
/// alive at once.
const WINDOW_PER_THREAD: usize = 16;

/// Consecutive ids a worker takes at once (without a deadline, and fewer in a small launch): the
/// blocks that run at the same moment on different threads are then this many apart, so that
/// they touch different host cache lines of the program's arrays and of the race check's bitmaps
/// (2 bits a word: one cache line covers 512 words) instead of contending for the same ones.
const BATCH: usize = 16;

/// Runs `f` on `ids` in parallel, each worker taking the next ids in order (a batch), none started at or after
/// `deadline` (the first always is), and hands the results to `add` in the order of `ids` as they
/// become contiguous, so that at most a window of them is alive at once. Returns how many ran: the
/// first K ids.
fn stream_in_order<T: Send, A: Send>(
    ids: &[u32],
    deadline: Option<Instant>,
    f: &(dyn Fn(u32) -> T + Sync),
    acc: &mut A,
    add: &(dyn Fn(&mut A, T) + Sync),
    timing: Option<&timing::Launch>,
) -> usize {
    let workers = rayon::current_num_threads().clamp(1, ids.len().max(1));
    let late = |started: bool| started && deadline.is_some_and(|d| Instant::now() >= d);
    if workers == 1 {
        let mut ran = 0;
        for &b in ids {
            if late(ran > 0) {
                break;
            }
            let r = f(b);
            let t0 = timing.map(|_| Instant::now());
            add(acc, r);
            if let (Some(t), Some(t0)) = (timing, t0) {
                t.merge_ns.fetch_add(timing::since(t0), Ordering::Relaxed);
            }
            ran += 1;
        }
        return ran;
    }
    // ids taken at once: every worker gets several batches; one at a time under a deadline, so
    // that no block starts after it
    let batch = if deadline.is_some() {
        1
    } else {
        BATCH.min(ids.len() / (workers * 4)).max(1)
    };
    let window = (WINDOW_PER_THREAD.max(2 * batch) * workers).max(64);
    let next = AtomicUsize::new(0);
    let timed_add = |acc: &mut A, r: T| {
        let t0 = timing.map(|_| Instant::now());
        add(acc, r);
        if let (Some(t), Some(t0)) = (timing, t0) {
            t.merge_ns.fetch_add(timing::since(t0), Ordering::Relaxed);
        }
    };
    let merge = window::InOrder::new(acc, ids.len(), window);
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                loop {
                    // checked before taking an id, so that every id taken runs: the ids run are
                    // those taken, a prefix
                    if late(next.load(Ordering::Relaxed) > 0) {
                        break;
                    }
                    let first = next.fetch_add(batch, Ordering::Relaxed);
                    if first >= ids.len() {
                        break;
                    }
                    for (i, &b) in ids.iter().enumerate().take(first + batch).skip(first) {
                        merge.wait_for_room(i, timing);
                        let r = f(b);
                        merge.put(i, r, &timed_add);
                    }
                }
            });
        }
    });
    merge.merged()
}

/// What a streamed run gathers besides the caller's accumulator.
struct Gathered<A, S> {
    acc: A,
    /// Folded in parts: the sink of the part's blocks so far, open for its next block
    /// ([`Sink::next_block`]), not yet given to `add`.
    open: Option<S>,
    counters: Counters,
    faults: Vec<EmuFault>,
    printed: Vec<printf::Printed>,
    launches: Vec<devlaunch::DeviceLaunch>,
    asserts: Vec<AssertFailure>,
}

#[allow(clippy::too_many_arguments)]
fn run_impl<S, F>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    observer: Option<&mut dyn LaunchObserver>,
    watch: Watch<'_>,
) -> Result<RunResult<S>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
{
    let r = run_folded(
        program,
        kernel,
        launch,
        limits,
        outer,
        sink_factory,
        observer,
        watch,
        &Vec::new,
        &|v: &mut Vec<S>, s| v.push(s),
    )?;
    Ok(RunResult {
        sinks: r.acc,
        block_ids: r.block_ids,
        buffers: r.buffers,
        counters: r.counters,
        faults: r.faults,
        printf: r.printf,
        launches: r.launches,
        asserts: r.asserts,
        stopped: r.stopped,
    })
}

/// The result of [`run_folded`]: as [`RunResult`], with the blocks' sinks folded into `acc`.
#[derive(Debug)]
pub struct FoldedRun<A> {
    /// What `add` made of the blocks' sinks, given in block order.
    pub acc: A,
    /// The linear block id of each block run, in the order their sinks were given.
    pub block_ids: Vec<u32>,
    /// As [`RunResult::buffers`].
    pub buffers: Vec<Option<Vec<u8>>>,
    /// As [`RunResult::counters`].
    pub counters: Counters,
    /// As [`RunResult::faults`].
    pub faults: Vec<EmuFault>,
    /// As [`RunResult::printf`].
    pub printf: Vec<printf::Printed>,
    /// As [`RunResult::launches`].
    pub launches: Vec<devlaunch::DeviceLaunch>,
    /// As [`RunResult::asserts`].
    pub asserts: Vec<AssertFailure>,
    /// As [`RunResult::stopped`].
    pub stopped: bool,
}

impl<A> FoldedRun<A> {
    /// Final contents of the buffer passed as argument `index`.
    pub fn buffer(&self, index: usize) -> Option<&[u8]> {
        self.buffers.get(index)?.as_deref()
    }
}

/// [`run_watched`] that does not keep one sink per block: each block's sink is handed to `add` in
/// block order as soon as the blocks before it are done, so a launch holds the sinks of a bounded
/// window of blocks (a few per host thread), whatever its grid. `init` makes the accumulator (again,
/// should the launch have to run a second time in block order). The result is the one
/// [`run_watched`] gives with its sinks folded in order by `add`.
#[allow(clippy::too_many_arguments)]
pub fn run_folded<S, F, A>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    observer: Option<&mut dyn LaunchObserver>,
    watch: Watch<'_>,
    init: &dyn Fn() -> A,
    add: &(dyn Fn(&mut A, S) + Sync),
) -> Result<FoldedRun<A>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
    A: Send,
{
    folded(
        program,
        kernel,
        launch,
        limits,
        outer,
        sink_factory,
        observer,
        watch,
        init,
        add,
        None,
    )
}

/// [`run_folded`] with the blocks folded in parts on the threads that ran them: each host thread
/// folds the sinks of a run of consecutive blocks with `add` into an accumulator of its own (made
/// by `init`), and `combine` folds these parts into the launch's accumulator (made by `init`) in
/// block order, so that the serial in-order work is per part rather than per block. The result is
/// [`run_folded`]'s when `combine` is associative with `add`: folding blocks `a..c` one by one into
/// `init()` equals combining their fold of `a..b` with their fold of `b..c`, whatever the split
/// (it depends on the number of threads). Every block, whatever the path (one thread, the rerun in
/// block order, a cluster or cooperative launch), reaches the launch's accumulator through
/// `combine`. A sink whose [`Sink::next_block`] takes the part's next block counts it too and
/// reaches `add` once for the blocks it counted (plain launches; a cluster or cooperative launch
/// gives each block its own).
#[allow(clippy::too_many_arguments)]
pub fn run_folded_parts<S, F, A>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    observer: Option<&mut dyn LaunchObserver>,
    watch: Watch<'_>,
    init: &(dyn Fn() -> A + Sync),
    add: &(dyn Fn(&mut A, S) + Sync),
    combine: &(dyn Fn(&mut A, A) + Sync),
) -> Result<FoldedRun<A>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
    A: Send,
{
    folded(
        program,
        kernel,
        launch,
        limits,
        outer,
        sink_factory,
        observer,
        watch,
        init,
        add,
        Some((init, combine)),
    )
}

/// A launch's `init` and `combine` when it is folded in parts ([`run_folded_parts`]).
type Parts<'a, A> = (&'a (dyn Fn() -> A + Sync), &'a (dyn Fn(&mut A, A) + Sync));

#[allow(clippy::too_many_arguments)]
fn folded<S, F, A>(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    outer: Option<&mem::Global>,
    sink_factory: F,
    mut observer: Option<&mut dyn LaunchObserver>,
    watch: Watch<'_>,
    init: &dyn Fn() -> A,
    add: &(dyn Fn(&mut A, S) + Sync),
    parts: Option<Parts<'_, A>>,
) -> Result<FoldedRun<A>, EmuError>
where
    S: Sink,
    F: Fn(u32) -> S + Sync,
    A: Send,
{
    let timing = timing::Launch::start();
    let timing = timing.as_ref();
    // a caller's persistent space takes addresses, not buffers of the launch's own
    if outer.is_some()
        && let Some(i) = launch.args.iter().position(|a| matches!(a, Arg::Buffer(_)))
    {
        return Err(EmuError::BadArg {
            index: i,
            param: program
                .kernel(kernel)
                .and_then(|k| k.params.get(i))
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            reason: "a buffer argument needs its own address space (use `run`); pass an address".into(),
        });
    }
    let Some(k) = program.kernel(kernel) else {
        if let Some(errs) = program.kernel_error(kernel) {
            let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            return Err(EmuError::NotLowered(kernel.to_string(), list.join("; ")));
        }
        let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
        return Err(EmuError::NoKernel(kernel.to_string(), names.join(", ")));
    };
    let nthreads = launch.block.iter().map(|&x| x as u64).product::<u64>();
    if nthreads == 0 || nthreads > 1024 {
        return Err(EmuError::BadLaunch(format!(
            "block {:?} has {nthreads} threads (1..=1024 allowed)",
            launch.block
        )));
    }
    if launch.block[2] > 64 {
        return Err(EmuError::BadLaunch("block z dimension over 64".into()));
    }
    let nblocks = launch.grid.iter().map(|&x| x as u64).product::<u64>();
    if nblocks == 0 || nblocks > u32::MAX as u64 {
        return Err(EmuError::BadLaunch(format!(
            "grid {:?} has {nblocks} blocks",
            launch.grid
        )));
    }
    let smem = k.dyn_smem_base as u64 + launch.dyn_smem as u64;
    let smem = if launch.dyn_smem == 0 {
        k.static_smem as u64
    } else {
        smem
    };
    if smem > limits.max_shared_bytes as u64 {
        return Err(EmuError::Limit(format!(
            "{smem} bytes of shared memory per block (limit {})",
            limits.max_shared_bytes
        )));
    }
    if k.local_size as u64 * nthreads > limits.max_local_bytes_per_block {
        return Err(EmuError::Limit(format!(
            "{} bytes of local memory per block",
            k.local_size as u64 * nthreads
        )));
    }
    // arguments past the parameters are buffers a by-value struct points to (`Arg::Buffer`
    // only: the struct's bytes hold their addresses, see `buffer_layout`)
    if launch.args.len() < k.params.len()
        || launch.args[k.params.len()..]
            .iter()
            .any(|a| !matches!(a, Arg::Buffer(_)))
    {
        return Err(EmuError::BadLaunch(format!(
            "kernel `{}` takes {} arguments, {} given",
            k.name,
            k.params.len(),
            launch.args.len()
        )));
    }
    let (cdims, explicit_cluster) = cluster_dims(k, launch.grid, launch.cluster, launch.cluster_nonportable)?;
    let csize = cdims.iter().product::<u32>();
    if csize > 1 && launch.cooperative {
        return Err(EmuError::BadLaunch(
            "a cooperative launch with clusters is not supported".into(),
        ));
    }
    if csize > 1 && launch.blocks.is_some() {
        return Err(EmuError::BadLaunch(
            "a cluster launch runs whole clusters (their blocks share memory): blocks cannot be sampled"
                .into(),
        ));
    }
    let mut params = vec![0u8; k.param_size as usize];
    let mut regions: Vec<(u64, Vec<u8>)> = Vec::new();
    if !program.global_init.is_empty() && outer.is_none() {
        regions.push((warpscope_ptx::lower::GLOBAL_VAR_BASE, program.global_init.clone()));
    }
    let (bases, next) = buffer_layout(&launch.args);
    let mut total = 0u64;
    let mut buf_bases = Vec::new();
    for (i, (a, p)) in launch.args.iter().zip(&k.params).enumerate() {
        let (bytes, size): (Vec<u8>, u32) = match a {
            Arg::Buffer(b) => {
                total += b.len() as u64;
                if total > limits.max_global_bytes {
                    return Err(EmuError::Limit(format!(
                        "{total} bytes of global buffers (limit {})",
                        limits.max_global_bytes
                    )));
                }
                let base = bases[i].unwrap_or(next);
                regions.push((base, b.clone()));
                buf_bases.push(Some(base));
                (base.to_le_bytes().to_vec(), 8)
            }
            Arg::U32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::I32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::F32(v) => (v.to_le_bytes().to_vec(), 4),
            Arg::U64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::I64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::F64(v) => (v.to_le_bytes().to_vec(), 8),
            Arg::Bytes(b) => (b.clone(), u32::try_from(b.len()).unwrap_or(u32::MAX)),
        };
        if !matches!(a, Arg::Buffer(_)) {
            buf_bases.push(None);
        }
        if size != p.size {
            return Err(EmuError::BadArg {
                index: i,
                param: p.name.clone(),
                reason: format!("parameter has {} bytes, argument {size}", p.size),
            });
        }
        params[p.offset as usize..(p.offset + size) as usize].copy_from_slice(&bytes);
    }
    for (i, a) in launch.args.iter().enumerate().skip(k.params.len()) {
        if let Arg::Buffer(b) = a {
            total += b.len() as u64;
            if total > limits.max_global_bytes {
                return Err(EmuError::Limit(format!(
                    "{total} bytes of global buffers (limit {})",
                    limits.max_global_bytes
                )));
            }
            let base = bases[i].unwrap_or(next);
            regions.push((base, b.clone()));
            buf_bases.push(Some(base));
        }
    }
    let mut grid_workspace = launch.grid_workspace;
    if launch.cooperative {
        if launch.blocks.is_some() {
            return Err(EmuError::BadLaunch(
                "a cooperative launch runs its whole grid (its blocks wait for each other)".into(),
            ));
        }
        if outer.is_none() && grid_workspace == 0 {
            grid_workspace = next;
            regions.push((next, vec![0u8; 8]));
        }
        if grid_workspace == 0 {
            return Err(EmuError::BadLaunch(
                "a cooperative launch in the caller's space needs a grid workspace address".into(),
            ));
        }
    }
    let own = mem::Global::new(regions);
    let global = outer.unwrap_or(&own);
    let mut xops = fast::decode(
        &program.ops[k.entry as usize..k.end as usize],
        k.entry,
        k.n_rows,
        k.n_preds,
        launch.remap.is_empty() && launch.async_layout.is_empty() && !limits.reference_paths,
    )
    .map_err(EmuError::BadProgram)?;
    // the reference paths step every instruction (the tests compare the two)
    let alu_runs = if limits.reference_paths {
        vec![0; xops.len()]
    } else {
        fast::alu_runs(&xops)
    };
    // the loads whose values are known before the launch (the reference paths load them)
    let known = if limits.reference_paths {
        Vec::new()
    } else {
        exec::known::known_loads(
            &program.ops[k.entry as usize..k.end as usize],
            &mut xops,
            k,
            &params,
            &program.const_bank,
        )
    };
    let lane_rows = exec::lane_rows(k, launch.block);
    mufu::prepare(&program.ops[k.entry as usize..k.end as usize]);
    // loops whose clean iterations are repeated at once (the reference paths step every one)
    let loops = if limits.reference_paths {
        Vec::new()
    } else {
        exec::loops::find(&program.ops[k.entry as usize..k.end as usize], k.entry)
    };
    let preset: Vec<warpscope_ptx::inst::R> = k.row_init.iter().map(|&(r, _)| r).collect();
    let zero_rows = zero_rows::rows_to_zero(
        &program.ops[k.entry as usize..k.end as usize],
        k.entry,
        k.n_rows,
        &preset,
    );
    // the rows a pooled register file keeps from block to block (the reference paths set every one)
    let fixed_init = if limits.reference_paths {
        vec![false; k.row_init.len()]
    } else {
        exec::fixed_init(&program.ops[k.entry as usize..k.end as usize], k, &zero_rows)
    };
    static LAUNCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let launch_id = LAUNCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let user_smem = smem;
    let smem = if k.reserved_smem > 0 {
        smem.div_ceil(16) * 16 + u64::from(k.reserved_smem)
    } else {
        smem
    };
    let mut smap = remap::SmemMap::new(&launch.remap, k, smem as u32).map_err(EmuError::BadRemap)?;
    smap.layout = launch.async_layout.clone();
    if smap.size as u64 > limits.max_shared_bytes as u64 && !launch.remap.is_empty() {
        return Err(EmuError::Limit(format!(
            "{} bytes of remapped shared memory per block (limit {})",
            smap.size, limits.max_shared_bytes
        )));
    }
    let spins = exec::spin::SpinBranches::of(program, k.entry, k.end, !launch.cooperative && csize == 1);
    // a plain launch of a kernel with a spin loop on global memory: its blocks may wait on each
    // other (a grid barrier made by hand), which the serial run below notices
    let plain_waits = !launch.cooperative && csize == 1 && spins.polls_global();
    // any counted block barrier in the program (the kernel's and the functions it calls)
    let counted_bars = program.ops.iter().any(|op| {
        matches!(
            op.inst,
            warpscope_ptx::inst::Inst::Bar { count, .. } | warpscope_ptx::inst::Inst::BarRed { count, .. }
                if count != warpscope_ptx::inst::NO_REG
        )
    });
    let ctx = exec::Ctx {
        prog: program,
        kernel: k,
        xops: &xops,
        alu_runs: &alu_runs,
        known: &known,
        lane_rows: &lane_rows,
        zero_rows: &zero_rows,
        launch_id,
        fixed_init: &fixed_init,
        global,
        params: &params,
        grid: launch.grid,
        block: launch.block,
        smem_size: smem as u32,
        user_smem: user_smem as u32,
        dyn_smem: launch.dyn_smem,
        smap: &smap,
        limits,
        cooperative: launch.cooperative,
        grid_workspace,
        track: None,
        cluster: cdims,
        csize,
        explicit_cluster,
        devrt: launch.device_runtime.as_deref().unwrap_or(&NO_DEVRT),
        loops: &loops,
        spins: &spins,
        plain_waits,
        counted_bars,
    };
    let ids: Vec<u32> = match &launch.blocks {
        Some(b) => {
            if let Some(&bad) = b.iter().find(|&&x| x as u64 >= nblocks) {
                return Err(EmuError::BadLaunch(format!(
                    "sampled block {bad} is outside the grid ({nblocks} blocks)"
                )));
            }
            b.clone()
        }
        None => (0..nblocks as u32).collect(),
    };
    // Blocks run in parallel, each against the one global space. Where one block writes a word
    // that another reads or writes, the result would depend on the host's thread schedule: the
    // shadow notices, the launch's writes are undone and its blocks run again one after another in
    // block order (what a single thread gives), so every thread count gives the same bytes.
    // A block that polls global memory with strong loads (`ld.relaxed`/`ld.acquire`: a
    // decoupled look-back, a flag another block sets) waits on other blocks. The GPU starts a
    // plain launch's blocks in block order, so the blocks such a launch waits on are the earlier
    // ones: it runs in block order from the start (in parallel, a block could spin until the
    // instruction limit on one that has not started, before the launch ran again in order).
    let polls_global = !launch.cooperative
        && csize == 1
        && program.ops[k.entry as usize..k.end as usize].iter().any(|op| {
            matches!(
                op.inst,
                warpscope_ptx::inst::Inst::Ld {
                    sync: true,
                    space: warpscope_ptx::inst::MemSpace::Global | warpscope_ptx::inst::MemSpace::Generic,
                    ..
                }
            )
        });
    let guarded = !launch.cooperative
        && !polls_global
        && !plain_waits
        && ids.len() > csize as usize
        && rayon::current_num_threads() > 1
        && nblocks <= mem::SHADOW_MAX_BLOCKS;
    // blocks proven never to touch a byte that another block writes need no shadow: any order
    // of them gives the same bytes (the reference paths keep the shadow: tests compare the two)
    let proved = (guarded && csize == 1 && !limits.reference_paths && disjoint::enabled()).then(|| {
        disjoint::prove(
            &program.ops[k.entry as usize..k.end as usize],
            &program.info[k.entry as usize..k.end as usize],
            k,
            &params,
            launch.grid,
            launch.block,
            &disjoint::unwritten_rows(
                &program.ops[k.entry as usize..k.end as usize],
                k.entry,
                k.n_rows,
                &preset,
            ),
            &global.spans(),
        )
    });
    let (proof, refusal) = match proved {
        Some(Ok(p)) => (Some(p), None),
        Some(Err(why)) => (None, Some(why)),
        None => (None, None),
    };
    let shadow = (guarded && proof.is_none()).then(|| global.take_shadow());
    let tracked = exec::Ctx {
        track: shadow.as_ref(),
        ..ctx
    };
    // a block's own results (the sink's apart)
    let gather_out = |g: &mut Gathered<A, S>, o: exec::BlockOut| {
        g.printed.extend(o.printf);
        g.launches.extend(o.launches);
        g.asserts.extend(o.asserts);
        g.counters.warp_insts += o.warp_insts;
        g.counters.thread_insts += o.thread_insts;
        g.counters.blocks += 1;
        g.counters.tma.add(&o.tma);
        g.counters.undefined_local_read =
            exec::min_pc(g.counters.undefined_local_read, o.undefined_local_read);
        if let Some(f) = o.fault {
            g.faults.push(f);
        }
    };
    let gather = |g: &mut Gathered<A, S>, (s, o): (S, exec::BlockOut)| {
        gather_out(g, o);
        add(&mut g.acc, s);
    };
    let fresh = || Gathered {
        acc: init(),
        open: None,
        counters: Counters::default(),
        faults: Vec::new(),
        printed: Vec::new(),
        launches: Vec::new(),
        asserts: Vec::new(),
    };
    // folded in parts: a part's accumulator, and a part combined into the launch's
    let part_init = parts.map(|(init, _)| {
        move || Gathered {
            acc: init(),
            open: None,
            counters: Counters::default(),
            faults: Vec::new(),
            printed: Vec::new(),
            launches: Vec::new(),
            asserts: Vec::new(),
        }
    });
    let combine_parts = parts.map(|(_, combine)| {
        move |g: &mut Gathered<A, S>, p: Gathered<A, S>| {
            g.printed.extend(p.printed);
            g.launches.extend(p.launches);
            g.asserts.extend(p.asserts);
            g.counters.warp_insts += p.counters.warp_insts;
            g.counters.thread_insts += p.counters.thread_insts;
            g.counters.blocks += p.counters.blocks;
            g.counters.tma.add(&p.counters.tma);
            g.counters.undefined_local_read =
                exec::min_pc(g.counters.undefined_local_read, p.counters.undefined_local_read);
            g.faults.extend(p.faults);
            combine(&mut g.acc, p.acc);
        }
    });
    // what a path that gathers its blocks itself (a cluster or cooperative launch) gathered: the
    // launch's accumulator, or with parts one part combined into it
    let whole = |g: Gathered<A, S>| match &combine_parts {
        Some(c) => {
            let mut all = fresh();
            c(&mut all, g);
            all
        }
        None => g,
    };
    // whether the blocks run one after another in block order: the serial run, or a parallel run
    // that is serial all the same (one block, one thread); otherwise the shadow stands guard
    let one_at_a_time = ids.len() <= 1 || rayon::current_num_threads() <= 1;
    let in_order = |serial: bool| serial || one_at_a_time;
    // the blocks `ids` folded into `g`: all of them, or with a deadline the first ones, those
    // started before it; how many ran
    let run_blocks = |ids: &[u32], serial: bool, g: &mut Gathered<A, S>| -> usize {
        // block `b` counted by the sink `s` (fresh, or open from the part's previous block)
        let one_in = |b: u32, mut s: S| {
            s.block_order(in_order(serial));
            if !serial && tracked.track.is_some_and(|t| t.conflict()) {
                // the launch runs again in block order: the rest of this attempt is moot
                return (s, exec::BlockOut::default());
            }
            let c = if serial { &ctx } else { &tracked };
            let t0 = timing.map(|_| Instant::now());
            // the block's global accesses checked against the blocks that ended before it (folded
            // in parts: the part's, at the part's ends, `stream_parts`)
            let unit = c.track.filter(|_| part_init.is_none());
            if let Some(t) = unit {
                t.begin();
            }
            let t1 = timing.map(|_| Instant::now());
            let o = exec::run_block(c, b, &mut s);
            let t2 = timing.map(|_| Instant::now());
            if let Some(t) = unit {
                t.finish();
            }
            if let (Some(t), Some(t0), Some(t1), Some(t2)) = (timing, t0, t1, t2) {
                let total = timing::since(t0);
                t.block(total, total - (t2 - t1).as_nanos() as u64);
            }
            // folded in parts, the blocks done are counted a part at a time (`stream_parts`):
            // one counter that every thread adds to per block moves between the cores
            if part_init.is_none()
                && let Some(d) = watch.done
            {
                d.fetch_add(1, Ordering::Relaxed);
            }
            (s, o)
        };
        let one = |b: u32| one_in(b, sink_factory(b));
        if let (Some(init), Some(combine)) = (&part_init, &combine_parts) {
            // the part's previous block's sink counts this one too when it can, else it is
            // folded in and the block gets its own
            let run = |g: &mut Gathered<A, S>, b: u32| {
                let s = match g.open.take() {
                    Some(mut s) => {
                        if s.next_block(b) {
                            s
                        } else {
                            add(&mut g.acc, s);
                            sink_factory(b)
                        }
                    }
                    None => sink_factory(b),
                };
                let (s, o) = one_in(b, s);
                gather_out(g, o);
                g.open = Some(s);
            };
            let close = |g: &mut Gathered<A, S>| {
                if let Some(s) = g.open.take() {
                    add(&mut g.acc, s);
                }
            };
            let fold = parts::PartFold {
                init,
                run: &run,
                close: &close,
                combine,
            };
            // a part's blocks run one after another in block order on one thread: one unit of the
            // shadow, checked against the other parts at its end
            let unit = tracked.track.filter(|_| !serial);
            return parts::stream_parts(ids, watch.deadline, serial, g, &fold, timing, watch.done, unit);
        }
        if serial {
            let mut ran = 0;
            for &b in ids {
                if ran > 0 && watch.deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                gather(g, one(b));
                ran += 1;
            }
            ran
        } else {
            stream_in_order(ids, watch.deadline, &one, g, &gather, timing)
        }
    };
    let can_assert = program.ops[k.entry as usize..k.end as usize]
        .iter()
        .any(|op| matches!(op.inst, warpscope_ptx::inst::Inst::AssertFail { .. }));
    // the blocks of a plain launch (with waves that stop at a failing `assert`): what they gave,
    // the ids that ran, and whether the deadline left some of them unrun
    let run_plain = |ids: Vec<u32>, serial: bool| -> (Gathered<A, S>, Vec<u32>, bool) {
        let mut ids = ids;
        let mut g = fresh();
        if !can_assert {
            let ran = run_blocks(&ids, serial, &mut g);
            let cut = ran < ids.len();
            ids.truncate(ran);
            return (g, ids, cut);
        }
        let mut ran = 0;
        let mut cut = false;
        for wave in ids.chunks(ASSERT_WAVE) {
            let failed_before = g.asserts.len();
            let done = run_blocks(wave, serial, &mut g);
            let failed = g.asserts.len() > failed_before;
            cut = done < wave.len();
            ran += done;
            if failed || cut {
                break;
            }
        }
        ids.truncate(ran);
        (g, ids, cut)
    };
    if let Some(t) = timing {
        t.phase(timing::Phase::Before);
    }
    if let Some(o) = observer.as_deref_mut() {
        o.before(&params, global);
    }
    if let Some(t) = timing {
        t.phase(timing::Phase::Blocks);
    }
    let (g, ids, stopped) = if launch.cooperative {
        // every block resident: the blocks take turns (in block order, so the run is repeatable)
        // until each has finished
        let mut runs: Vec<(S, exec::BlockRun)> = ids
            .iter()
            .map(|&b| {
                let mut s = sink_factory(b);
                s.block_order(true);
                (s, exec::BlockRun::new(&ctx, b))
            })
            .collect();
        // each block's 1x1x1 cluster: its cluster barrier's completed phases
        let mut phases = vec![0u32; runs.len()];
        take_turns(&ctx, &mut runs, &mut phases, watch.done);
        let mut g = fresh();
        for (s, mut b) in runs {
            gather(&mut g, (s, std::mem::take(&mut b.out)));
        }
        (whole(g), ids, false)
    } else if csize > 1 {
        // the blocks of a cluster together, the clusters in parallel (in cluster order when they
        // raced on global memory, as plain blocks do)
        let cids: Vec<u32> = (0..(nblocks / u64::from(csize)) as u32).collect();
        let one = |c: u32, serial: bool| -> Vec<(u32, S, exec::BlockOut)> {
            let members = ctx.cluster_blocks(c);
            if !serial && tracked.track.is_some_and(|t| t.conflict()) {
                return members
                    .into_iter()
                    .map(|b| (b, sink_factory(b), exec::BlockOut::default()))
                    .collect();
            }
            let c = if serial { &ctx } else { &tracked };
            let make = |b: u32| {
                let mut s = sink_factory(b);
                s.block_order(in_order(serial));
                s
            };
            // the cluster's global accesses checked against the clusters that ended before it
            if let Some(t) = c.track {
                t.begin();
            }
            let out = exec::run_cluster(c, &members, &make, watch.done);
            if let Some(t) = c.track {
                t.finish();
            }
            out
        };
        let run_all = |serial: bool| -> Vec<Vec<(u32, S, exec::BlockOut)>> {
            match (serial, watch.deadline) {
                (true, None) => cids.iter().map(|&c| one(c, true)).collect(),
                (true, Some(deadline)) => cids
                    .iter()
                    .enumerate()
                    .map_while(|(i, &c)| (i == 0 || Instant::now() < deadline).then(|| one(c, true)))
                    .collect(),
                (false, deadline) => {
                    let mut v = Vec::new();
                    let push = |v: &mut Vec<_>, t| v.push(t);
                    stream_in_order(&cids, deadline, &|c| one(c, false), &mut v, &push, timing);
                    v
                }
            }
        };
        let mut done = run_all(false);
        if let Some(sh) = &shadow
            && sh.conflict()
        {
            drop(done);
            if let Some(t) = timing {
                t.phase(timing::Phase::Rerun);
            }
            sh.undo(global);
            if let Some(d) = watch.done {
                d.store(0, Ordering::Relaxed);
            }
            done = run_all(true);
        }
        let cut = done.len() < cids.len();
        let mut all: Vec<(u32, S, exec::BlockOut)> = done.into_iter().flatten().collect();
        all.sort_by_key(|(b, _, _)| *b);
        let ids = all.iter().map(|(b, _, _)| *b).collect();
        let mut g = fresh();
        for (_, s, o) in all {
            gather(&mut g, (s, o));
        }
        (whole(g), ids, cut)
    } else if plain_waits {
        // the blocks one after another in block order, as for a kernel that polls global memory,
        // until one waits on another block ([`exec::BlockRun::run_alone`]); then it and the blocks
        // not yet started take turns as a cooperative grid's, on the memory as it is: the GPU may
        // run the earlier blocks to their end before the others start too, so this is a schedule
        // it can take (where the grid fits on the GPU at once; otherwise it hangs, and the
        // launch stops with `NotResident`)
        let mut g = fresh();
        let mut ran: Vec<u32> = Vec::with_capacity(ids.len());
        let mut cut = false;
        let mut waited = None;
        for (i, &b) in ids.iter().enumerate() {
            if i > 0 && watch.deadline.is_some_and(|d| Instant::now() >= d) {
                cut = true;
                break;
            }
            // a failing assert traps the grid: the blocks of later waves do not start
            if can_assert && i > 0 && i % ASSERT_WAVE == 0 && !g.asserts.is_empty() {
                break;
            }
            let mut s = sink_factory(b);
            s.block_order(true);
            let mut run = exec::BlockRun::new(&ctx, b);
            let mut phase = 0u32;
            if run.run_alone(&ctx, &mut s, &mut phase) {
                if let Some(d) = watch.done {
                    d.fetch_add(1, Ordering::Relaxed);
                }
                gather(&mut g, (s, std::mem::take(&mut run.out)));
                ran.push(b);
                continue;
            }
            waited = Some(i);
            let fits = launch
                .resident
                .is_none_or(|(per_sm, sms)| nblocks <= u64::from(per_sm) * u64::from(sms));
            let mut runs = vec![(s, run)];
            let mut phases = vec![phase];
            match launch.resident {
                Some((per_sm, sms)) if !fits => runs[0].1.not_resident(per_sm, sms),
                _ => {
                    for &c in &ids[i + 1..] {
                        let mut s = sink_factory(c);
                        s.block_order(true);
                        runs.push((s, exec::BlockRun::new(&ctx, c)));
                        phases.push(0);
                    }
                    take_turns(&ctx, &mut runs, &mut phases, watch.done);
                }
            }
            ran.extend(&ids[i..i + runs.len()]);
            for (s, mut b) in runs {
                gather(&mut g, (s, std::mem::take(&mut b.out)));
            }
            break;
        }
        let mut g = whole(g);
        g.counters.waited = waited.map(|i| ids[i]);
        (g, ran, cut)
    } else if polls_global {
        run_plain(ids, true)
    } else {
        let first = run_plain(ids.clone(), false);
        match &shadow {
            Some(sh) if sh.conflict() => {
                drop(first);
                if let Some(t) = timing {
                    t.phase(timing::Phase::Rerun);
                }
                sh.undo(global);
                // the blocks are done again
                if let Some(d) = watch.done {
                    d.store(0, Ordering::Relaxed);
                }
                run_plain(ids, true)
            }
            _ => first,
        }
    };
    if let Some(t) = timing {
        t.phase(timing::Phase::After);
    }
    if let Some(o) = observer {
        o.after(global);
    }
    if let Some(t) = timing {
        t.phase(timing::Phase::Finish);
    }
    match &proof {
        Some(p) => global.launched_writing(&p.written),
        None => global.launched(shadow.as_ref()),
    }
    let shadow_stats = timing.and(shadow.as_ref()).map(|s| (s.stats(), s.conflict()));
    if let Some(sh) = shadow {
        global.keep_shadow(sh);
    }
    let buffers = buf_bases
        .iter()
        .map(|b| b.and_then(|b| global.contents(b)))
        .collect();
    let Gathered {
        acc,
        open: _,
        counters,
        faults,
        mut printed,
        launches,
        asserts,
    } = g;
    // Blocks run concurrently on a GPU: the k-th printf of every warp comes before the (k+1)-th of
    // any (then block, warp and lane order), which is what a GPU shows for grids that fit on it at
    // once.
    printed.sort_by_key(|p| p.seq);
    if let Some(t) = timing {
        t.report(kernel, launch.grid, launch.block, rayon::current_num_threads());
        if proof.is_some() {
            eprintln!("warpscope shadow: none, the blocks are proven never to touch a byte another writes");
        }
        if let Some(why) = &refusal {
            eprintln!("warpscope proof: refused, {why}");
        }
        if let Some(([units, ranges, entries], conflict)) = shadow_stats {
            eprintln!(
                "warpscope shadow: {units} units published, {ranges} ranges marked, {entries} entries of 64 words published{}",
                if conflict {
                    ", a conflict: run again in block order"
                } else {
                    ""
                }
            );
        }
    }
    Ok(FoldedRun {
        acc,
        block_ids: ids,
        buffers,
        counters,
        faults,
        printf: printed,
        launches,
        asserts,
        stopped,
    })
}

/// The blocks `runs` of a grid resident at once take turns (in the order given, so the run is
/// repeatable) until each has finished: each runs until every live warp of it waits (polling
/// global memory or at a barrier); a grid whose unfinished blocks all wait for
/// [`GRID_IDLE_TURNS`] turns with no global write and no block finished stops with
/// [`FaultKind::GridDeadlock`] on its first unfinished block. `phases`: each block's cluster
/// barrier's completed phases (of its 1x1x1 cluster); `done` counts the finished blocks.
fn take_turns<S: Sink>(
    ctx: &exec::Ctx<'_>,
    runs: &mut [(S, exec::BlockRun)],
    phases: &mut [u32],
    done: Option<&std::sync::atomic::AtomicU64>,
) {
    let written = |runs: &[(S, exec::BlockRun)]| runs.iter().map(|(_, b)| b.gwrites).sum::<u64>();
    let mut before = written(runs);
    let mut idle = 0u32;
    loop {
        let mut waiting = false;
        let mut finished = false;
        for ((s, b), phase) in runs.iter_mut().zip(phases.iter_mut()) {
            if b.finished() {
                continue;
            }
            let mut link = exec::ClusterLink::alone();
            link.phase = *phase;
            if b.resume(ctx, s, &mut link) {
                finished = true;
                if let Some(d) = done {
                    d.fetch_add(1, Ordering::Relaxed);
                }
                if b.out.fault.is_some() {
                    // a fault stops the whole grid (the GPU's launch fails)
                    break;
                }
            } else {
                waiting = true;
                // a block whose warps wait at its cluster barrier releases it itself
                finished |= exec::release_cluster(std::slice::from_mut(b), std::slice::from_mut(s), phase);
            }
        }
        if runs.iter().any(|(_, b)| b.out.fault.is_some()) || !waiting {
            break;
        }
        let now = written(runs);
        idle = if !finished && now == before { idle + 1 } else { 0 };
        if idle >= GRID_IDLE_TURNS {
            if let Some((_, b)) = runs.iter_mut().find(|(_, b)| !b.finished()) {
                b.deadlock();
            }
            break;
        }
        before = now;
    }
}
