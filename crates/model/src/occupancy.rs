//! The occupancy calculator: how many blocks of a kernel fit on one SM, and what stops more.
//!
//! Two parts:
//!
//! * [`Limits`]: the per-SM resource limits of an architecture (threads, warps, blocks, registers and
//!   their allocation unit, shared memory with its carveout steps, opt-in maximum and per-block
//!   reservation, barriers, sub-partitions). [`Limits::for_arch`] gives the preset for every
//!   compute capability from 5.0 to 12.1; a real device's limits can be filled in by hand.
//! * [`occupancy`]: the calculation for one [`Launch`] (block size, registers per thread, static and
//!   dynamic shared memory, carveout, barriers), giving an [`Occupancy`]: blocks per SM, warps per SM,
//!   the occupancy ratio, every per-resource block limit and the limiting factors.
//!
//! Sources. The numbers in the table are those of the CUDA C++ Programming Guide, "Technical
//! Specifications per Compute Capability" (threads, blocks and warps per SM, 64 K registers per SM, 32 K
//! registers per block on 5.3 and 6.2, shared memory per SM, 48 KB per block by default, the opt-in
//! maximum, and 1 KB reserved per block from 8.0). The allocation rules (registers allocated per warp in
//! units of 256 and per sub-partition, shared memory in units of 256 bytes before 8.0 and 128 bytes from
//! 8.0, the carveout steps, and the barrier rule from 9.0) are those of NVIDIA's occupancy calculator
//! (`cuda_occupancy.h`). The tests compare [`occupancy`] with that header, compiled with g++ at test
//! time and fed the same [`Limits`]: the comparison checks the calculation and its granularities; the
//! table itself is checked against the guide (see the tests of this module).
//!
//! ```
//! use warpscope_model::arch::Arch;
//! use warpscope_model::occupancy::{occupancy, Launch, Limiter, Limits};
//!
//! let limits = Limits::for_arch(Arch::parse("sm_90").unwrap()).unwrap();
//! let occ = occupancy(&limits, &Launch::new(256, 64)).unwrap();
//! assert_eq!(occ.blocks_per_sm, 4); // 64 regs x 256 threads = 16 K registers, 64 K per SM
//! assert_eq!(occ.limiters, vec![Limiter::Registers]);
//! assert_eq!(occ.occupancy(), 0.5);
//! ```

use std::fmt;

use crate::arch::Arch;

/// Bytes in a kilobyte, as the guide counts them.
pub const KB: u32 = 1024;

/// Per-SM resource limits of one architecture (or one real device).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Compute capability as `major * 10 + minor`, e.g. 90. It selects the rules below that the
    /// numbers alone do not say (carveout steps, barrier sharing, the Pascal GP100 register check).
    pub cc: u32,
    /// Threads per warp (32).
    pub warp_size: u32,
    /// Largest block (1024).
    pub max_threads_per_block: u32,
    /// Resident threads per SM.
    pub max_threads_per_sm: u32,
    /// Resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// 32-bit registers per SM.
    pub regs_per_sm: u32,
    /// 32-bit registers one block may use.
    pub regs_per_block: u32,
    /// Registers are allocated per warp, in units of this many (256).
    pub reg_alloc_unit: u32,
    /// Most registers one thread may use (255).
    pub max_regs_per_thread: u32,
    /// Warp-scheduler sub-partitions per SM; the register file is split among them.
    pub sub_partitions: u32,
    /// Largest shared memory per SM (the largest carveout), bytes.
    pub smem_per_sm: u32,
    /// Shared memory a block may use without opting in (48 KB), bytes.
    pub smem_per_block: u32,
    /// Shared memory a block may use after opting in (`cudaFuncAttributeMaxDynamicSharedMemorySize`),
    /// bytes. Equal to `smem_per_block` where there is no opt-in (before 7.0).
    pub smem_per_block_optin: u32,
    /// Shared memory the driver reserves for each block (1 KB from 8.0), bytes.
    pub smem_reserved_per_block: u32,
    /// Shared memory is allocated per block in units of this many bytes.
    pub smem_alloc_unit: u32,
    /// The shared-memory sizes per SM that the L1/shared split can take, bytes, ascending. Empty where
    /// shared memory is not carved out of L1 (Maxwell, Pascal): then `smem_per_sm` is all there is.
    pub carveout_steps: &'static [u32],
    /// From 9.0, hardware barriers per SM are this many times the block limit (1 or 2); `None` before
    /// 9.0, where barriers never limit occupancy.
    pub barriers_per_block_slot: Option<u32>,
    /// SMs on the preset's example GPU (for grid sizes and per-device figures), or a real device's count.
    pub sm_count: u32,
}

const VOLTA_STEPS: &[u32] = &[0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 96 * KB];
const TURING_STEPS: &[u32] = &[32 * KB, 64 * KB];
const GA100_STEPS: &[u32] = &[0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB];
const GA10X_STEPS: &[u32] = &[0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB];
const GH100_STEPS: &[u32] = &[
    0,
    8 * KB,
    16 * KB,
    32 * KB,
    64 * KB,
    100 * KB,
    132 * KB,
    164 * KB,
    196 * KB,
    228 * KB,
];

/// One row of the guide's table, before the common values are filled in.
struct Row {
    cc: u32,
    threads_per_sm: u32,
    blocks_per_sm: u32,
    regs_per_block: u32,
    smem_per_sm_kb: u32,
    optin_kb: u32,
    steps: &'static [u32],
    barrier_factor: Option<u32>,
    sm_count: u32,
}

#[allow(clippy::too_many_arguments)]
const fn row(
    cc: u32,
    threads_per_sm: u32,
    blocks_per_sm: u32,
    regs_per_block: u32,
    smem_per_sm_kb: u32,
    optin_kb: u32,
    steps: &'static [u32],
    barrier_factor: Option<u32>,
    sm_count: u32,
) -> Row {
    Row {
        cc,
        threads_per_sm,
        blocks_per_sm,
        regs_per_block,
        smem_per_sm_kb,
        optin_kb,
        steps,
        barrier_factor,
        sm_count,
    }
}

const K64: u32 = 65536;
const K32: u32 = 32768;

/// The table. Columns: cc, threads/SM, blocks/SM, registers/block, shared memory per SM (KB), largest
/// block after opt-in (KB), carveout steps, barrier factor (9.0+), SMs of the preset's example GPU.
static TABLE: &[Row] = &[
    row(50, 2048, 32, K64, 64, 48, &[], None, 5),
    row(52, 2048, 32, K64, 96, 48, &[], None, 16),
    row(53, 2048, 32, K32, 64, 48, &[], None, 2),
    row(60, 2048, 32, K64, 64, 48, &[], None, 56),
    row(61, 2048, 32, K64, 96, 48, &[], None, 20),
    row(62, 2048, 32, K32, 64, 48, &[], None, 2),
    row(70, 2048, 32, K64, 96, 96, VOLTA_STEPS, None, 80),
    row(72, 2048, 32, K64, 96, 96, VOLTA_STEPS, None, 8),
    row(75, 1024, 16, K64, 64, 64, TURING_STEPS, None, 46),
    row(80, 2048, 32, K64, 164, 163, GA100_STEPS, None, 108),
    row(86, 1536, 16, K64, 100, 99, GA10X_STEPS, None, 82),
    row(87, 1536, 16, K64, 164, 163, GA100_STEPS, None, 16),
    row(89, 1536, 24, K64, 100, 99, GA10X_STEPS, None, 128),
    row(90, 2048, 32, K64, 228, 227, GH100_STEPS, Some(2), 132),
    row(100, 2048, 32, K64, 228, 227, GH100_STEPS, Some(2), 148),
    row(103, 2048, 32, K64, 228, 227, GH100_STEPS, Some(1), 148),
    row(110, 1536, 24, K64, 228, 227, GH100_STEPS, Some(1), 20),
    row(120, 1536, 24, K64, 100, 99, GA10X_STEPS, Some(1), 170),
    row(121, 1536, 24, K64, 100, 99, GA10X_STEPS, Some(1), 48),
];

impl Limits {
    /// The preset limits of an architecture (compute capability 5.0 to 12.1).
    pub fn for_arch(arch: &Arch) -> Result<Limits, OccupancyError> {
        Self::for_cc(arch.cc()).ok_or(OccupancyError::UnsupportedArch(arch.name))
    }

    /// The preset limits of compute capability `cc` (`major * 10 + minor`), if the table has it.
    pub fn for_cc(cc: u32) -> Option<Limits> {
        let r = TABLE.iter().find(|r| r.cc == cc)?;
        Some(Limits {
            cc,
            warp_size: 32,
            max_threads_per_block: 1024,
            max_threads_per_sm: r.threads_per_sm,
            max_blocks_per_sm: r.blocks_per_sm,
            regs_per_sm: K64,
            regs_per_block: r.regs_per_block,
            reg_alloc_unit: 256,
            max_regs_per_thread: 255,
            sub_partitions: if cc == 60 { 2 } else { 4 },
            smem_per_sm: r.smem_per_sm_kb * KB,
            smem_per_block: 48 * KB,
            smem_per_block_optin: r.optin_kb * KB,
            smem_reserved_per_block: if cc >= 80 { KB } else { 0 },
            smem_alloc_unit: if cc >= 80 { 128 } else { 256 },
            carveout_steps: r.steps,
            barriers_per_block_slot: r.barrier_factor,
            sm_count: r.sm_count,
        })
    }

    /// Compute capabilities that have presets, oldest first.
    pub fn supported_ccs() -> impl Iterator<Item = u32> {
        TABLE.iter().map(|r| r.cc)
    }

    /// Resident warps per SM.
    pub fn max_warps_per_sm(&self) -> u32 {
        self.max_threads_per_sm / self.warp_size
    }

    /// Hardware barriers available per SM from 9.0 (`None` before, where they do not limit).
    pub fn barriers_per_sm(&self) -> Option<u32> {
        self.barriers_per_block_slot.map(|f| f * self.max_blocks_per_sm)
    }

    /// Registers one warp is allocated when each thread uses `regs`.
    pub fn regs_per_warp(&self, regs: u32) -> u32 {
        round_up(regs * self.warp_size, self.reg_alloc_unit)
    }

    /// The shared memory per SM that the L1/shared split gives for `bytes` wanted: the smallest
    /// carveout step that holds it. `None` if no step does (or for a fixed split).
    pub fn carveout_at_least(&self, bytes: u32) -> Option<u32> {
        self.carveout_steps.iter().copied().find(|&s| s >= bytes)
    }
}

fn round_up(x: u32, unit: u32) -> u32 {
    x.div_ceil(unit) * unit
}

/// What a kernel launch asks of one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Threads per block (1 to 1024).
    pub threads: u32,
    /// Registers per thread (0 to 255), as ptxas reports them.
    pub regs_per_thread: u32,
    /// Static shared memory per block, bytes (at most 48 KB).
    pub static_smem: u32,
    /// Dynamic shared memory per block, bytes. Above the default 48 KB per block the kernel is taken to
    /// have opted in (`cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...)`)
    /// up to the architecture's maximum; above that maximum no block fits.
    pub dyn_smem: u32,
    /// Preferred shared-memory carveout in percent of the largest (0 to 100; `None` = driver default,
    /// which is the largest). Applies from 7.0; earlier architectures have a fixed split.
    pub carveout_percent: Option<u32>,
    /// Block barriers the kernel uses (1 = `__syncthreads` only, which is what the runtime assumes).
    pub barriers: u32,
}

impl Launch {
    /// A launch with `threads` per block and `regs_per_thread`, no shared memory, default carveout and
    /// one barrier.
    pub fn new(threads: u32, regs_per_thread: u32) -> Launch {
        Launch {
            threads,
            regs_per_thread,
            static_smem: 0,
            dyn_smem: 0,
            carveout_percent: None,
            barriers: 1,
        }
    }

    /// Shared memory the block uses before the driver's reservation and rounding.
    pub fn smem(&self) -> u64 {
        u64::from(self.static_smem) + u64::from(self.dyn_smem)
    }
}

/// One of the resources that can limit the number of resident blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limiter {
    /// Resident warps (threads) per SM.
    Warps,
    /// The register file.
    Registers,
    /// Shared memory.
    SharedMemory,
    /// Resident blocks per SM.
    Blocks,
    /// Hardware barriers (from 9.0).
    Barriers,
}

impl Limiter {
    /// The name used in JSON and CSV output (`warps`, `registers`, `shared_memory`, `blocks`,
    /// `barriers`).
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared_memory",
            Limiter::Blocks => "blocks",
            Limiter::Barriers => "barriers",
        }
    }

    /// Every limiter, in output order.
    pub const ALL: [Limiter; 5] = [
        Limiter::Warps,
        Limiter::Registers,
        Limiter::SharedMemory,
        Limiter::Blocks,
        Limiter::Barriers,
    ];
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result for one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// Resident blocks per SM (0: the launch cannot run).
    pub blocks_per_sm: u32,
    /// Resident warps per SM.
    pub warps_per_sm: u32,
    /// Most warps an SM can hold.
    pub max_warps_per_sm: u32,
    /// The resources whose own limit equals `blocks_per_sm`.
    pub limiters: Vec<Limiter>,
    /// Blocks allowed by the warp limit alone.
    pub limit_warps: u32,
    /// Blocks allowed by registers alone (`None`: the kernel uses no registers, no limit).
    pub limit_registers: Option<u32>,
    /// Blocks allowed by shared memory alone (`None`: no shared memory, no limit).
    pub limit_shared_memory: Option<u32>,
    /// Blocks allowed by the block-slot limit.
    pub limit_blocks: u32,
    /// Blocks allowed by barriers (`None` before 9.0 or with no barriers).
    pub limit_barriers: Option<u32>,
    /// Warps per block.
    pub warps_per_block: u32,
    /// Registers allocated per block (per-warp allocation unit applied).
    pub regs_per_block: u32,
    /// Shared memory allocated per block, reservation and allocation unit applied.
    pub smem_per_block: u32,
    /// Shared memory per SM under the carveout used for this launch.
    pub smem_per_sm: u32,
    /// The kernel needs the opt-in (more than the default 48 KB per block).
    pub opted_in: bool,
    /// The block needs more shared memory than the architecture allows per block.
    pub smem_over_max: bool,
}

impl Occupancy {
    /// Resident warps over the most an SM can hold (0.0 to 1.0).
    pub fn occupancy(&self) -> f64 {
        f64::from(self.warps_per_sm) / f64::from(self.max_warps_per_sm)
    }
}

/// Bad input to the calculator.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OccupancyError {
    /// The architecture has no occupancy preset (before 5.0).
    UnsupportedArch(&'static str),
    /// Threads per block outside 1..=max.
    Threads {
        /// The value given.
        threads: u32,
        /// The largest block.
        max: u32,
    },
    /// Registers per thread above the maximum.
    Regs {
        /// The value given.
        regs: u32,
        /// The most a thread may use.
        max: u32,
    },
    /// Static shared memory above the 48 KB a compiler allows.
    StaticSmem {
        /// The value given.
        bytes: u32,
        /// The limit.
        max: u32,
    },
    /// Carveout above 100 percent.
    Carveout(u32),
}

impl fmt::Display for OccupancyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OccupancyError::UnsupportedArch(name) => write!(
                f,
                "no occupancy limits for `{name}`: the calculator covers sm_50 to sm_121"
            ),
            OccupancyError::Threads { threads, max } => {
                write!(f, "threads per block must be 1 to {max}, got {threads}")
            }
            OccupancyError::Regs { regs, max } => {
                write!(f, "registers per thread must be 0 to {max}, got {regs}")
            }
            OccupancyError::StaticSmem { bytes, max } => write!(
                f,
                "static shared memory is at most {max} bytes per block, got {bytes} (use dynamic shared memory above that)"
            ),
            OccupancyError::Carveout(p) => {
                write!(f, "the carveout is a percentage 0 to 100, got {p}")
            }
        }
    }
}

impl std::error::Error for OccupancyError {}

/// Checks a launch against the hard input limits (not the occupancy limits).
pub fn validate(limits: &Limits, launch: &Launch) -> Result<(), OccupancyError> {
    if launch.threads == 0 || launch.threads > limits.max_threads_per_block {
        return Err(OccupancyError::Threads {
            threads: launch.threads,
            max: limits.max_threads_per_block,
        });
    }
    if launch.regs_per_thread > limits.max_regs_per_thread {
        return Err(OccupancyError::Regs {
            regs: launch.regs_per_thread,
            max: limits.max_regs_per_thread,
        });
    }
    if launch.static_smem > limits.smem_per_block {
        return Err(OccupancyError::StaticSmem {
            bytes: launch.static_smem,
            max: limits.smem_per_block,
        });
    }
    if let Some(p) = launch.carveout_percent.filter(|&p| p > 100) {
        return Err(OccupancyError::Carveout(p));
    }
    Ok(())
}

/// Blocks that fit by registers alone, for `sub_partitions` register-file slices; 0 when one block
/// exceeds the per-block limit. `None` when the kernel uses no registers.
fn register_limit(limits: &Limits, sub_partitions: u32, regs: u32, warps: u32) -> Option<u32> {
    let per_warp = limits.regs_per_warp(regs);
    // The launch check assumes the block's warps are spread evenly over all sub-partitions, so it
    // counts the warps rounded up to a multiple of the sub-partition count.
    let checked = per_warp * round_up(warps, sub_partitions);
    if checked > limits.regs_per_block || per_warp * warps > limits.regs_per_block {
        return Some(0);
    }
    if per_warp == 0 {
        return None;
    }
    let warps_per_slice = limits.regs_per_sm / sub_partitions / per_warp;
    Some(warps_per_slice * sub_partitions / warps)
}

/// The shared-memory part: (blocks that fit or `None` for no shared memory, allocated bytes per block,
/// shared memory per SM used, opted in, over the maximum).
fn smem_limit(limits: &Limits, launch: &Launch) -> (Option<u32>, u32, u32, bool, bool) {
    let reserved = u64::from(limits.smem_reserved_per_block);
    let wanted = launch.smem();
    let allocated = round_up_u64(wanted + reserved, u64::from(limits.smem_alloc_unit));
    let opted_in = wanted > u64::from(limits.smem_per_block);
    let per_block_max = u64::from(if opted_in && limits.cc >= 70 {
        limits.smem_per_block_optin
    } else {
        limits.smem_per_block
    }) + reserved;
    let over = wanted > u64::from(limits.smem_per_block_optin) || allocated > per_block_max;
    let allocated32 = u32::try_from(allocated).unwrap_or(u32::MAX);

    // The shared memory per SM the carveout preference gives.
    let preferred = if limits.carveout_steps.is_empty() {
        limits.smem_per_sm
    } else {
        let want = match launch.carveout_percent {
            None => limits.smem_per_sm,
            Some(p) => p * limits.smem_per_sm / 100,
        };
        limits.carveout_at_least(want).unwrap_or(limits.smem_per_sm)
    };
    if over {
        return (Some(0), allocated32, preferred, opted_in, true);
    }
    // A preference too small for one block is overridden: the driver takes the smallest step that
    // holds one block.
    let per_sm = if u64::from(preferred) >= allocated || limits.carveout_steps.is_empty() {
        if limits.carveout_steps.is_empty() {
            limits.smem_per_sm
        } else {
            preferred
        }
    } else {
        limits
            .carveout_at_least(allocated32)
            .unwrap_or(limits.smem_per_sm)
    };
    let blocks = u64::from(per_sm)
        .checked_div(allocated)
        .map(|b| u32::try_from(b).unwrap_or(u32::MAX));
    (blocks, allocated32, per_sm, opted_in, false)
}

fn round_up_u64(x: u64, unit: u64) -> u64 {
    x.div_ceil(unit) * unit
}

/// The occupancy of one launch on an SM with these limits.
pub fn occupancy(limits: &Limits, launch: &Launch) -> Result<Occupancy, OccupancyError> {
    validate(limits, launch)?;
    let warps = launch.threads.div_ceil(limits.warp_size);
    let max_warps = limits.max_warps_per_sm();

    let mut limit_registers = register_limit(limits, limits.sub_partitions, launch.regs_per_thread, warps);
    // GP100 (6.0) has two register-file slices where the rest of Pascal has four; a kernel that
    // cannot run on four slices is not allowed on 6.0 either, so that a binary runs on all of Pascal.
    if limits.cc == 60
        && limit_registers != Some(0)
        && register_limit(limits, 4, launch.regs_per_thread, warps) == Some(0)
    {
        limit_registers = Some(0);
    }
    let limit_warps = max_warps / warps;
    let limit_blocks = limits.max_blocks_per_sm;
    let (limit_shared_memory, smem_per_block, smem_per_sm, opted_in, smem_over_max) =
        smem_limit(limits, launch);

    let mut blocks = limit_warps.min(limit_blocks);
    for l in [limit_registers, limit_shared_memory].into_iter().flatten() {
        blocks = blocks.min(l);
    }
    let mut limiters = Vec::new();
    if blocks == limit_warps {
        limiters.push(Limiter::Warps);
    }
    if limit_registers == Some(blocks) {
        limiters.push(Limiter::Registers);
    }
    if limit_shared_memory == Some(blocks) {
        limiters.push(Limiter::SharedMemory);
    }
    if blocks == limit_blocks {
        limiters.push(Limiter::Blocks);
    }
    let limit_barriers = match limits.barriers_per_block_slot {
        Some(factor) if launch.barriers > 0 => Some(factor * limit_blocks / launch.barriers),
        _ => None,
    };
    if let Some(b) = limit_barriers {
        // cuda_occupancy.h keeps the earlier factors even when barriers cut the count further; here
        // only the resources that actually set the final count are named (the two agree whenever the
        // kernel uses one barrier, since then barriers never go below the block limit).
        if b < blocks {
            limiters.clear();
        }
        blocks = blocks.min(b);
        if blocks == b {
            limiters.push(Limiter::Barriers);
        }
    }
    Ok(Occupancy {
        blocks_per_sm: blocks,
        warps_per_sm: blocks * warps,
        max_warps_per_sm: max_warps,
        limiters,
        limit_warps,
        limit_registers,
        limit_shared_memory,
        limit_blocks,
        limit_barriers,
        warps_per_block: warps,
        regs_per_block: limits.regs_per_warp(launch.regs_per_thread) * warps,
        smem_per_block,
        smem_per_sm,
        opted_in,
        smem_over_max,
    })
}

/// SMs per GPC as cluster placement sees them on the H100-class GPU warpscope models (132 SMs),
/// measured through `cudaOccupancyMaxActiveClusters` on an H200 (`calibration/cluster/
/// occupancy.cu`, 534 answers): clusters of three or more blocks are placed within these groups
/// (124 SMs; the other 8 take clusters of one or two blocks only).
pub const SM90_CLUSTER_GPCS: [u32; 8] = [18, 18, 16, 16, 16, 16, 16, 8];

/// The most blocks of one kernel a cluster launch keeps on an SM (measured: a kernel of which 10,
/// 16 or 32 blocks fit on an SM gives the answers of 8).
pub const CLUSTER_BLOCKS_PER_SM: u32 = 8;

/// How many clusters of `cluster_blocks` blocks can be resident at once on the whole GPU when
/// `blocks_per_sm` blocks of the kernel fit on an SM (what `cudaOccupancyMaxActiveClusters`
/// answers). With `b = min(blocks_per_sm, 8)`: clusters of one or two blocks fill every SM
/// (`sm_count * b / size`); larger ones are placed within a GPC, `floor(b * sms / size)` per GPC
/// of at least `size` SMs ([`SM90_CLUSTER_GPCS`]). A GPU of another SM count, whose GPCs are not
/// known here: `sm_count * b / size` for every size.
pub fn max_active_clusters(limits: &Limits, blocks_per_sm: u32, cluster_blocks: u32) -> u32 {
    let b = blocks_per_sm.min(CLUSTER_BLOCKS_PER_SM);
    if b == 0 || cluster_blocks == 0 {
        return 0;
    }
    if cluster_blocks <= 2 || limits.sm_count != SM90_CLUSTER_GPCS.iter().sum::<u32>() + 8 {
        return limits.sm_count * b / cluster_blocks;
    }
    SM90_CLUSTER_GPCS
        .iter()
        .filter(|&&sms| sms >= cluster_blocks)
        .map(|&sms| b * sms / cluster_blocks)
        .sum()
}

/// The block size that gives the most resident threads (what `cudaOccupancyMaxPotentialBlockSize`
/// answers): block sizes are tried from the largest multiple of the warp size down, and the first one
/// reaching the best thread count wins, so ties go to the larger block.
#[derive(Clone, Debug, PartialEq)]
pub struct BestBlock {
    /// The suggested block size (0: nothing fits).
    pub threads: u32,
    /// Resident blocks per SM at that size.
    pub blocks_per_sm: u32,
    /// Smallest grid that fills the device (`blocks_per_sm * sm_count`).
    pub min_grid: u32,
    /// The occupancy reached.
    pub occupancy: f64,
}

/// Finds the best block size for a kernel; `launch.threads` is ignored (`dyn_smem` is taken as
/// constant over block sizes).
pub fn best_block_size(limits: &Limits, launch: &Launch) -> Result<BestBlock, OccupancyError> {
    let mut probe = launch.clone();
    probe.threads = 1;
    validate(limits, &probe)?;
    let mut best = (0u32, 0u32, 0u32); // threads, blocks, resident threads
    let mut size = round_up(limits.max_threads_per_block, limits.warp_size);
    while size > 0 {
        probe.threads = size.min(limits.max_threads_per_block);
        let occ = occupancy(limits, &probe)?;
        let resident = occ.blocks_per_sm * probe.threads;
        if resident > best.2 {
            best = (probe.threads, occ.blocks_per_sm, resident);
        }
        if resident == limits.max_threads_per_sm {
            break;
        }
        size -= limits.warp_size;
    }
    let occupancy = if best.0 == 0 {
        0.0
    } else {
        f64::from(best.1 * best.0.div_ceil(limits.warp_size)) / f64::from(limits.max_warps_per_sm())
    };
    Ok(BestBlock {
        threads: best.0,
        blocks_per_sm: best.1,
        min_grid: best.1 * limits.sm_count,
        occupancy,
    })
}

/// A brute-force reference: places blocks on an empty SM one at a time, each taking its warps, block
/// slot, registers (warp by warp into the emptiest register-file slice) and shared memory, until the
/// next one does not fit. It shares no code with [`occupancy`]; the tests run both on the same inputs.
/// Barriers and the GP100 rule are not modelled here (the tests leave those cases to the oracle).
pub fn place_blocks(limits: &Limits, launch: &Launch) -> u32 {
    let warps = launch.threads.div_ceil(limits.warp_size);
    let per_warp = (launch.regs_per_thread * 32).div_ceil(limits.reg_alloc_unit) * limits.reg_alloc_unit;
    let n = limits.sub_partitions as usize;
    let slice = limits.regs_per_sm / limits.sub_partitions;
    let per_block_reg_check = per_warp * warps.div_ceil(limits.sub_partitions) * limits.sub_partitions;
    if per_block_reg_check > limits.regs_per_block {
        return 0;
    }
    let r = launch;
    let res = u64::from(limits.smem_reserved_per_block);
    let unit = u64::from(limits.smem_alloc_unit);
    let smem = (r.smem() + res).div_ceil(unit) * unit;
    let cap = if r.smem() > u64::from(limits.smem_per_block) && limits.cc >= 70 {
        u64::from(limits.smem_per_block_optin)
    } else {
        u64::from(limits.smem_per_block)
    };
    if r.smem() > u64::from(limits.smem_per_block_optin) || smem > cap + res {
        return 0;
    }
    let mut smem_pool = if limits.carveout_steps.is_empty() {
        u64::from(limits.smem_per_sm)
    } else {
        let want = r
            .carveout_percent
            .map_or(limits.smem_per_sm, |p| p * limits.smem_per_sm / 100);
        let pref = limits
            .carveout_steps
            .iter()
            .copied()
            .find(|&s| s >= want)
            .unwrap_or(limits.smem_per_sm);
        let pref = u64::from(pref);
        if pref >= smem {
            pref
        } else {
            u64::from(
                limits
                    .carveout_steps
                    .iter()
                    .copied()
                    .find(|&s| u64::from(s) >= smem)
                    .unwrap_or(0),
            )
        }
    };
    let mut slices = vec![slice; n];
    let mut warp_slots = limits.max_warps_per_sm();
    let mut block_slots = limits.max_blocks_per_sm;
    let mut placed = 0;
    loop {
        if block_slots == 0 || warp_slots < warps || smem_pool < smem {
            return placed;
        }
        let mut trial = slices.clone();
        for _ in 0..warps {
            let (i, most) = trial
                .iter()
                .copied()
                .enumerate()
                .max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))
                .unwrap_or((0, 0));
            if most < per_warp {
                return placed;
            }
            trial[i] -= per_warp;
        }
        slices = trial;
        warp_slots -= warps;
        block_slots -= 1;
        smem_pool -= smem;
        placed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(name: &str) -> Limits {
        Limits::for_arch(Arch::parse(name).unwrap()).unwrap()
    }

    /// Spot values of the Programming Guide's table (Technical Specifications per Compute Capability),
    /// written out independently of TABLE: (arch, max warps/SM, max blocks/SM, smem/SM KB, max smem
    /// per block KB).
    #[test]
    fn table_matches_the_programming_guide() {
        let guide = [
            ("sm_50", 64, 32, 64, 48),
            ("sm_52", 64, 32, 96, 48),
            ("sm_53", 64, 32, 64, 48),
            ("sm_60", 64, 32, 64, 48),
            ("sm_61", 64, 32, 96, 48),
            ("sm_62", 64, 32, 64, 48),
            ("sm_70", 64, 32, 96, 96),
            ("sm_72", 64, 32, 96, 96),
            ("sm_75", 32, 16, 64, 64),
            ("sm_80", 64, 32, 164, 163),
            ("sm_86", 48, 16, 100, 99),
            ("sm_87", 48, 16, 164, 163),
            ("sm_89", 48, 24, 100, 99),
            ("sm_90", 64, 32, 228, 227),
            ("sm_100", 64, 32, 228, 227),
            ("sm_103", 64, 32, 228, 227),
            ("sm_110", 48, 24, 228, 227),
            ("sm_120", 48, 24, 100, 99),
            ("sm_121", 48, 24, 100, 99),
        ];
        for (name, warps, blocks, smem_kb, block_kb) in guide {
            let l = lim(name);
            assert_eq!(l.max_warps_per_sm(), warps, "{name} warps");
            assert_eq!(l.max_blocks_per_sm, blocks, "{name} blocks");
            assert_eq!(l.smem_per_sm, smem_kb * KB, "{name} smem/SM");
            assert_eq!(l.smem_per_block_optin, block_kb * KB, "{name} smem/block");
            assert_eq!(l.regs_per_sm, 65536, "{name} regs/SM");
            assert_eq!(l.max_regs_per_thread, 255, "{name} regs/thread");
            let reg_block = if matches!(name, "sm_53" | "sm_62") {
                32768
            } else {
                65536
            };
            assert_eq!(l.regs_per_block, reg_block, "{name} regs/block");
            let reserved = if l.cc >= 80 { 1024 } else { 0 };
            assert_eq!(l.smem_reserved_per_block, reserved, "{name} reserved");
            if let Some(&top) = l.carveout_steps.last() {
                assert_eq!(
                    top, l.smem_per_sm,
                    "{name}: largest carveout is the SM's shared memory"
                );
            }
        }
        let covered: Vec<u32> = Limits::supported_ccs().collect();
        let presets: Vec<u32> = Arch::all().iter().map(Arch::cc).filter(|&c| c >= 50).collect();
        assert_eq!(covered, presets, "every preset from sm_50 has limits");
        assert!(Limits::for_arch(Arch::parse("sm_35").unwrap()).is_err());
    }

    #[test]
    fn hand_worked_cases() {
        // H100, 1024 threads, 10 regs, 4224 B static: 2 blocks, warp-limited (64 warps / 32).
        let l = lim("sm_90");
        let mut launch = Launch::new(1024, 10);
        launch.static_smem = 4224;
        let o = occupancy(&l, &launch).unwrap();
        assert_eq!(o.blocks_per_sm, 2);
        assert_eq!(o.limiters, vec![Limiter::Warps]);
        // 4224 + 1024 reserved = 5248 -> 41 units of 128 = 5248.
        assert_eq!(o.smem_per_block, 5248);
        // 32 regs -> 1024 per warp; 1024 threads = 32 warps -> 32 K registers per block.
        let o = occupancy(&l, &Launch::new(1024, 32)).unwrap();
        assert_eq!((o.blocks_per_sm, o.regs_per_block), (2, 32768));
        // 33 regs -> 1056, rounded to 1280 per warp; 16 K regs per slice / 1280 = 12 warps per slice.
        let o = occupancy(&l, &Launch::new(128, 33)).unwrap();
        assert_eq!(o.blocks_per_sm, 12);
        assert_eq!(o.limiters, vec![Limiter::Registers]);
        // 32 threads: 32 blocks, limited by block slots and (9.0) barriers: 2 x 32 / 1 = 64, not.
        let o = occupancy(&l, &Launch::new(32, 0)).unwrap();
        assert_eq!((o.blocks_per_sm, o.limiters.clone()), (32, vec![Limiter::Blocks]));
        // sm_120 barrier factor 1: blocks and barriers limit together.
        let o = occupancy(&lim("sm_120"), &Launch::new(32, 0)).unwrap();
        assert_eq!(o.limiters, vec![Limiter::Blocks, Limiter::Barriers]);
        // 100 KB dynamic on H100: opted in; 101 KB + 1 KB = 102 KB per block, carveout 228 -> 2 blocks.
        let mut big = Launch::new(256, 32);
        big.dyn_smem = 100 * KB;
        let o = occupancy(&l, &big).unwrap();
        assert!(o.opted_in);
        assert_eq!((o.blocks_per_sm, o.smem_per_block), (2, 101 * KB));
        // Above 227 KB: nothing fits, limited by shared memory.
        big.dyn_smem = 227 * KB + 1;
        let o = occupancy(&l, &big).unwrap();
        assert!(o.smem_over_max);
        assert_eq!(o.blocks_per_sm, 0);
        assert!(o.limiters.contains(&Limiter::SharedMemory));
        // Exactly 227 KB fits once.
        big.dyn_smem = 227 * KB;
        assert_eq!(occupancy(&l, &big).unwrap().blocks_per_sm, 1);
    }

    #[test]
    fn carveout_picks_a_step() {
        let l = lim("sm_90");
        let mut launch = Launch::new(128, 16);
        launch.static_smem = 10 * KB; // 11 KB with the reservation
        launch.carveout_percent = Some(50); // 114 KB -> 132 KB step
        let o = occupancy(&l, &launch).unwrap();
        assert_eq!(o.smem_per_sm, 132 * KB);
        assert_eq!(o.blocks_per_sm, 12);
        launch.carveout_percent = Some(0); // 0 KB: too small for one block -> 16 KB step, one block
        let o = occupancy(&l, &launch).unwrap();
        assert_eq!((o.smem_per_sm, o.blocks_per_sm), (16 * KB, 1));
    }

    #[test]
    fn bad_input_is_an_error() {
        let l = lim("sm_80");
        assert!(matches!(
            occupancy(&l, &Launch::new(0, 1)),
            Err(OccupancyError::Threads { .. })
        ));
        assert!(matches!(
            occupancy(&l, &Launch::new(1025, 1)),
            Err(OccupancyError::Threads { .. })
        ));
        assert!(matches!(
            occupancy(&l, &Launch::new(32, 256)),
            Err(OccupancyError::Regs { .. })
        ));
        let mut c = Launch::new(32, 1);
        c.carveout_percent = Some(101);
        assert!(occupancy(&l, &c).is_err());
    }

    #[test]
    fn best_block_size_prefers_full_occupancy() {
        let l = lim("sm_90");
        let b = best_block_size(&l, &Launch::new(0, 32)).unwrap();
        assert_eq!((b.threads, b.blocks_per_sm, b.min_grid), (1024, 2, 264));
        // 128 regs: 4 K per warp -> 16 warps per SM; best is 512 threads, 1 block... no: 16 warps of
        // any size; the largest block reaching 512 resident threads is 512.
        let b = best_block_size(&l, &Launch::new(0, 128)).unwrap();
        assert_eq!((b.threads, b.blocks_per_sm), (512, 1));
        assert_eq!(b.occupancy, 0.25);
    }

    /// The brute-force placement agrees with the closed form wherever barriers and GP100 do not apply.
    #[test]
    fn placement_reference_agrees() {
        for cc in Limits::supported_ccs().filter(|&c| c != 60) {
            let l = Limits::for_cc(cc).unwrap();
            for threads in (1..=1024).step_by(37).chain([32, 64, 96, 1024]) {
                for regs in (0..=255).step_by(17) {
                    for smem in [0, 1000, 20 * KB, 48 * KB, 70 * KB] {
                        let mut launch = Launch::new(threads, regs);
                        launch.dyn_smem = smem;
                        launch.barriers = 0;
                        let fast = occupancy(&l, &launch).unwrap().blocks_per_sm;
                        let slow = place_blocks(&l, &launch);
                        assert_eq!(fast, slow, "cc {cc} threads {threads} regs {regs} smem {smem}");
                    }
                }
            }
        }
    }
}
