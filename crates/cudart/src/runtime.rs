//! The runtime's state and its operations, in safe Rust (the C entry points in `api.rs` only
//! convert arguments and call these).
//!
//! Memory model: device allocations are regions of one persistent emulated global address space
//! ([`warpscope_emu::mem::Global`]) at [`DEVICE_BASE`] and up. Host memory a kernel may touch
//! (pinned, mapped, managed, registered) is ordinary host memory *mirrored* in that space at the
//! same address (unified addressing: the device pointer equals the host pointer); mirrors are
//! copied in before and out after every launch, so the host copy is the one that counts between
//! launches. A module's `__device__` variables live at `GLOBAL_VAR_BASE` while that module is
//! resident; `__constant__` variables live in the module's constant bank.
//!
//! Streams and events run in program order: every call completes before it returns. Event times
//! come from a stated model ([`Clock`]), not from a measurement.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warpscope_analysis::global_init::{InitMap, InitRegion};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, EmuError, Launch, Limits, Program};
use warpscope_model::arch::Arch;
use warpscope_ptx::lower::GLOBAL_VAR_BASE;

use crate::analysis::{KernelAnalysis, LaunchAnalysis, LaunchWatch, analyse_launch};
use crate::device::DeviceInfo;
use crate::fatbin::{self, Entry, Kind};

/// First device address given by `cudaMalloc` (the first 2 MiB chunk; see [`crate::layout`]).
pub const DEVICE_BASE: u64 = 0x3000_0000_0000;
/// Alignment of device allocations (what `cudaMalloc` guarantees; the driver's is 512).
pub const DEVICE_ALIGN: u64 = 256;
/// Where a cooperative launch's grid workspace lives while the launch runs (below the first
/// `cudaMalloc` address, so allocations keep the addresses they have without cooperative launches).
pub const GRID_WORKSPACE: u64 = DEVICE_BASE - 0x1000;
/// Pitch alignment of `cudaMallocPitch`.
pub const PITCH_ALIGN: usize = 512;

pub use crate::err_codes as err;
pub use crate::launch::LaunchRequest;

/// Whether an error code is sticky (the context is unusable after it, as on a GPU).
pub fn is_sticky(code: u32) -> bool {
    matches!(code, 700 | 702 | 710 | 714..=720)
}

/// What `warpscope run` asks of the runtime (the environment variable `WARPSCOPE_RUN_CONFIG`
/// holds it as JSON).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Architecture preset (`sm_90`).
    pub arch: String,
    /// Attach the hazard checker to every recorded launch.
    pub check: bool,
    /// The fix advisor, once per kernel (its first recorded launch that touches shared memory).
    pub fix: bool,
    /// Warp instructions one block may execute.
    pub max_instructions: u64,
    /// Record only kernels whose demangled or mangled name contains this (`regex:` not supported).
    pub kernel_name: Option<String>,
    /// Launches (matching `kernel_name`) not recorded first.
    pub launch_skip: u64,
    /// Launches recorded at most.
    pub launch_count: Option<u64>,
    /// Where to append one JSON line per recorded launch.
    pub records: Option<PathBuf>,
    /// The progress page `warpscope run` maps ([`crate::progress`]): the launch being emulated and
    /// its blocks done.
    pub progress: Option<PathBuf>,
    /// Where to append one JSON line per [`Notice`] (launches cut short, and the program's reads
    /// of the memory they left incomplete).
    pub notices: Option<PathBuf>,
    /// Seconds a launch may run: after that no block of it starts (the blocks that ran are the
    /// first in block order), and the launch is labelled incomplete.
    pub budget_s: Option<f64>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            arch: "sm_90".into(),
            check: false,
            fix: false,
            max_instructions: 1 << 28,
            kernel_name: None,
            launch_skip: 0,
            launch_count: None,
            records: None,
            progress: None,
            notices: None,
            budget_s: None,
        }
    }
}

/// What the runtime tells `warpscope run` besides the launch records (a line of the notices
/// file): launches whose blocks did not all run, and where their missing results were used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// A launch whose blocks did not all run (`--budget`).
    LaunchCut {
        /// The launch's index.
        launch: u64,
        /// `kernel<<<(grid),(block)>>>`.
        label: String,
        /// Blocks that ran (the first in block order).
        blocks_run: u64,
        /// Blocks in the grid.
        blocks: u64,
        /// Seconds the launch ran.
        seconds: f64,
        /// Whether the launch is among the recorded ones.
        recorded: bool,
    },
    /// A launch read memory that a cut launch left incomplete: its results are incomplete too.
    IncompleteInput {
        /// The launch reading it.
        launch: u64,
        /// Its `kernel<<<(grid),(block)>>>`.
        label: String,
        /// The cut launch.
        from_launch: u64,
    },
    /// Device memory the program allocated (`cudaMalloc` and the like) and had not freed when it
    /// reset the device or ended (`--check`; compute-sanitizer's `memcheck --leak-check full`).
    Leak {
        /// The allocation's address.
        address: u64,
        /// Its size in bytes.
        bytes: u64,
        /// When it was found: `cudaDeviceReset` or `exit`.
        at: String,
    },
    /// A CUDA runtime call returned an error (`--check`; compute-sanitizer's memcheck reports
    /// each as "Program hit cudaErrorX on CUDA API call to Y").
    ApiError {
        /// The call.
        call: String,
        /// The error code it returned.
        code: u32,
    },
    /// A copy from device memory to the host read bytes nothing wrote (`--check`;
    /// compute-sanitizer's initcheck reports one "Host API uninitialized memory access" per
    /// 32-byte segment of the allocation holding such bytes).
    UninitializedCopy {
        /// The source address of the copy.
        address: u64,
        /// Bytes copied.
        bytes: u64,
        /// The first byte nothing wrote.
        first: u64,
        /// How many of the copied bytes nothing wrote.
        unwritten: u64,
        /// The 32-byte segments (from the allocation's start) holding such bytes.
        segments: u64,
    },
    /// The program read memory that a cut launch (or a launch that read such memory) left
    /// incomplete.
    IncompleteRead {
        /// The call that read it.
        call: String,
        /// The first address read.
        address: u64,
        /// Bytes read.
        bytes: u64,
        /// The cut launch the incomplete results come from.
        from_launch: u64,
        /// That launch's `kernel<<<(grid),(block)>>>`.
        label: String,
    },
    /// A copy or memset that nothing orders against outstanding device work touching the same
    /// bytes, one of them writing (`--check`; a launch's own are findings of its record).
    StreamRace {
        /// The later work's source line (none for a copy).
        line: Option<u32>,
        /// The finding's text.
        message: String,
    },
    /// Device work the check of unordered work left out (`--check`): the oldest outstanding work
    /// dropped unchecked past `streams::MAX_OUTSTANDING`.
    StreamUnchecked {
        /// The note's text.
        message: String,
    },
}

/// A device region whose contents a cut launch left incomplete.
#[derive(Clone, Debug)]
struct Taint {
    base: u64,
    len: u64,
    /// The cut launch.
    origin: u64,
    /// Its label.
    label: String,
}

/// One recorded launch (a line of the records file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaunchRecord {
    /// Launch number in the program, from 0 (every launch counts, recorded or not).
    pub index: u64,
    /// Demangled as Nsight Compute prints it.
    pub kernel: String,
    /// The PTX entry name.
    pub mangled: String,
    /// Grid.
    pub grid: [u32; 3],
    /// Block.
    pub block: [u32; 3],
    /// Dynamic shared memory, bytes.
    pub dyn_smem: u32,
    /// Stream handle (0: the default stream).
    pub stream: u64,
    /// The analyses.
    #[serde(flatten)]
    pub analysis: LaunchAnalysis,
    /// How machine-code widths were found, or why they are PTX-level.
    pub widths: String,
    /// For a kernel a grid launched (dynamic parallelism): which launch, block and thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<crate::devtree::ParentRecord>,
    /// For a host launch after kernels launched kernels: its number among the host's launches,
    /// which is Nsight Compute's launch ID (ncu profiles no device-launched grid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_launch: Option<u64>,
}

/// The modelled clock behind event times: a kernel takes `warp instructions / (SMs × 4 issue
/// slots)` cycles at 1.755 GHz; a copy takes its bytes at 25 GB/s between host and device and
/// 1.5 TB/s within the device. These are a model, labelled as such, never a measurement.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    /// Milliseconds since the program started.
    pub ms: f64,
}

impl Clock {
    /// Advances for a kernel.
    pub fn kernel(&mut self, warp_insts: u64, sms: i32) {
        let cycles = warp_insts as f64 / (f64::from(sms.max(1)) * 4.0);
        self.ms += cycles / 1.755e6 + 0.002;
    }
    /// Advances for a copy.
    pub fn copy(&mut self, bytes: usize, on_device: bool) {
        let bw = if on_device { 1.5e12 } else { 25e9 };
        self.ms += bytes as f64 / bw * 1e3 + 0.001;
    }
}

/// A registered kernel.
#[derive(Clone, Debug)]
pub struct Function {
    /// Module index.
    pub module: usize,
    /// PTX entry name.
    pub name: String,
}

/// A registered `__device__` / `__constant__` variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Module index.
    pub module: usize,
    /// PTX name.
    pub name: String,
    /// Size in bytes as registered.
    pub size: usize,
    /// `__constant__`
    pub constant: bool,
    /// `__managed__`: the host memory the program's pointer was set to (see [`Runtime::sync_managed`]).
    pub managed: Option<Managed>,
}

/// A `__managed__` variable's host side: nvcc's host code reads and writes it through a pointer the
/// runtime sets at registration. The bytes the device sees live in the module's variable window;
/// they are copied to the host memory after every launch of the module and back before the next
/// (managed memory's rule: the host sees the device's writes after synchronising).
#[derive(Clone, Debug)]
pub struct Managed {
    /// Host address of the variable's storage.
    pub host: usize,
    /// The device's initial value was copied in.
    pub initialised: bool,
}

/// A registered module (one fatbin).
pub struct Module {
    entries: Vec<Entry>,
    /// Why the fatbin could not be read.
    error: Option<String>,
    program: Option<Result<Program, String>>,
    ptx: String,
    /// Global variables' bytes while the module is not resident.
    globals: Vec<u8>,
    analyses: HashMap<String, KernelAnalysis>,
    widths: HashMap<String, String>,
    sass: Option<Result<Vec<warpscope_toolchain::sass::SassKernel>, String>>,
    /// The file that holds the fatbin, when it carries no PTX (relocatable device code keeps its
    /// PTX beside it: `relfatbin`).
    object: Option<std::path::PathBuf>,
}

impl Module {
    /// A module from its decoded fatbin (or the reason it could not be decoded).
    pub fn new(entries: Result<Vec<Entry>, String>) -> Module {
        let (entries, error) = match entries {
            Ok(e) => (e, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        Module {
            entries,
            error,
            program: None,
            ptx: String::new(),
            globals: Vec::new(),
            analyses: HashMap::new(),
            widths: HashMap::new(),
            sass: None,
            object: None,
        }
    }

    fn cubin(&self, cc: u32) -> Option<&[u8]> {
        self.entries
            .iter()
            .find(|e| e.kind == Kind::Elf && e.sm == cc)
            .map(|e| e.data.as_slice())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Backing {
    Device,
    /// Host memory mirrored at the same address; `owned`: allocated by the runtime (mmap).
    Mirror {
        owned: bool,
    },
}

#[derive(Clone, Copy, Debug)]
struct Alloc {
    len: u64,
    backing: Backing,
}

/// Where a pointer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    /// Device memory (a region of the emulated space).
    Device,
    /// Host memory.
    Host,
}

/// The runtime.
pub struct Runtime {
    /// Configuration.
    pub cfg: Config,
    /// The architecture.
    pub arch: &'static Arch,
    /// The device's figures.
    pub device: DeviceInfo,
    /// Modules, by handle index.
    pub modules: Vec<Module>,
    /// Kernels by host function pointer.
    pub functions: HashMap<usize, Function>,
    /// Kernels allowed clusters of up to 16 blocks
    /// (`cudaFuncAttributeNonPortableClusterSizeAllowed`).
    pub nonportable_cluster: std::collections::HashSet<usize>,
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize` set on a kernel (bytes).
    pub max_dyn_smem: std::collections::HashMap<usize, usize>,
    /// Variables by host shadow address.
    pub vars: HashMap<usize, Var>,
    global: Global,
    allocs: BTreeMap<u64, Alloc>,
    /// Under `--check`: which bytes of each device allocation were written (by a copy, a memset
    /// or a launch), for the uninitialised global reads (`warpscope_analysis::global_init`).
    init: std::sync::Mutex<BTreeMap<u64, InitRegion>>,
    /// Allocations already reported as leaks ([`Runtime::report_leaks`]).
    leaks_reported: std::collections::BTreeSet<u64>,
    /// Where allocations go and which device pages are mapped (the H200 driver's layout).
    layout: crate::layout::Layout,
    resident: Option<usize>,
    /// The sticky error, once one happened.
    pub sticky: Option<u32>,
    /// The error of a launch the emulator refused (a kernel it cannot run): returned by the launch
    /// and, as a GPU returns a failed kernel's error, by the next synchronising call, once. Not
    /// sticky: later work runs.
    pub deferred: Option<u32>,
    /// The modelled clock.
    pub clock: Clock,
    /// Events: handle → modelled time when recorded.
    pub events: HashMap<usize, Option<f64>>,
    /// Streams created: their flags.
    pub streams: HashMap<usize, u32>,
    /// The happens-before order of the device work issued so far, and the footprints of the
    /// work still outstanding (`--check`: `stream_race` findings).
    pub order: crate::streams::StreamOrder,
    /// Whether the note that outstanding work was dropped unchecked was given.
    dropped_noted: bool,
    /// Streams created with a priority: the priority, clamped to the device's range.
    pub stream_priorities: HashMap<usize, i32>,
    /// Stream-ordered memory pools.
    pub pools: crate::pools::Pools,
    /// CUDA graphs and stream capture.
    pub graphs: crate::graph::Graphs,
    /// CUDA arrays by handle (their texels live in the global space at the handle's address):
    /// (texels per row, rows, channels, channel format kind, bits per channel, slices: 1 but for
    /// `cudaMalloc3DArray`'s 3-D arrays).
    pub arrays: HashMap<u64, (usize, usize, u8, i32, u8, usize)>,
    next_handle: usize,
    launches: u64,
    matched: u64,
    records: Option<std::fs::File>,
    /// The progress page, when `warpscope run` maps one.
    page: Option<&'static crate::progress::Page>,
    notices: Option<std::fs::File>,
    /// Regions left incomplete by cut launches.
    taints: Vec<Taint>,
    /// Device regions whose contents depend on the order in which the GPU ran some launch's
    /// atomics (`origin`: the launch whose stores took an atomic's result); a launch that reads
    /// one sees other data on the GPU than in the emulation.
    order_taints: Vec<Taint>,
    /// Regions holding floating-point sums whose rounding depends on the order the GPU ran the
    /// atomics that made them (`warpscope_analysis::float_order`), each with the launch whose
    /// atomics did.
    float_sums: Vec<Taint>,
    /// Cut launches whose incomplete memory the program was already told it read.
    told_reads: BTreeSet<u64>,
    /// Cut launches whose incomplete memory later launches were already told they read.
    told_inputs: BTreeSet<u64>,
    /// Device flags (`cudaSetDeviceFlags`).
    pub device_flags: u32,
    /// The flags `cudaHostAlloc` was given, by allocation.
    pub host_flags: HashMap<u64, u32>,
    /// Device `printf` output not flushed yet (see [`crate::printf`]).
    printf_pending: Vec<u8>,
    /// Device `printf` output of the launch tree being run (a host launch and the kernels it
    /// launched): (time, launch number, text), ordered when the tree is done (`devlaunch`).
    pub(crate) tree_printf: Vec<(u64, u64, Vec<u8>)>,
    /// Grids launched by kernels so far (they take launch numbers too).
    pub(crate) device_grids: u64,
    /// The GPU's lines for failing device `assert`s not flushed yet (written to `stderr` where
    /// `printf` output is written to `stdout`).
    assert_pending: Vec<String>,
}

fn demangle(name: &str) -> String {
    crate::names::ncu_name(name)
}

impl Runtime {
    /// A runtime with a configuration.
    pub fn new(cfg: Config) -> Runtime {
        let arch = Arch::parse(&cfg.arch).unwrap_or_else(|_| Arch::parse("sm_90").expect("sm_90 preset"));
        let records = cfg.records.as_ref().and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| eprintln!("warpscope: cannot write {}: {e}", p.display()))
                .ok()
        });
        let page = cfg.progress.as_ref().and_then(|p| {
            crate::progress::Mapped::open(p)
                .map(crate::progress::Mapped::leak)
                .map_err(|e| eprintln!("warpscope: cannot map {}: {e}", p.display()))
                .ok()
        });
        let notices = cfg.notices.as_ref().and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| eprintln!("warpscope: cannot write {}: {e}", p.display()))
                .ok()
        });
        Runtime {
            page,
            notices,
            taints: Vec::new(),
            order_taints: Vec::new(),
            float_sums: Vec::new(),
            told_reads: BTreeSet::new(),
            told_inputs: BTreeSet::new(),
            device: DeviceInfo::for_arch(arch),
            arch,
            cfg,
            modules: Vec::new(),
            functions: HashMap::new(),
            nonportable_cluster: Default::default(),
            max_dyn_smem: Default::default(),
            vars: HashMap::new(),
            global: Global::empty(),
            allocs: BTreeMap::new(),
            init: std::sync::Mutex::new(BTreeMap::new()),
            leaks_reported: Default::default(),
            layout: crate::layout::Layout::new(DEVICE_BASE),
            resident: None,
            sticky: None,
            deferred: None,
            clock: Clock::default(),
            events: HashMap::new(),
            streams: HashMap::new(),
            order: Default::default(),
            dropped_noted: false,
            next_handle: 0x1000,
            launches: 0,
            matched: 0,
            records,
            device_flags: 0,
            host_flags: HashMap::new(),
            arrays: HashMap::new(),
            stream_priorities: HashMap::new(),
            pools: Default::default(),
            graphs: Default::default(),
            printf_pending: Vec::new(),
            tree_printf: Vec::new(),
            device_grids: 0,
            assert_pending: Vec::new(),
        }
    }

    /// Registers texture object `handle` with the global space the kernels read.
    pub fn insert_texture(&mut self, handle: u64, t: warpscope_emu::tex::Texture) {
        self.global.insert_texture(handle, t);
    }

    /// Forgets texture object `handle`; whether it existed.
    pub fn remove_texture(&mut self, handle: u64) -> bool {
        self.global.remove_texture(handle)
    }

    /// A fresh opaque handle (streams, events).
    pub fn handle(&mut self) -> usize {
        self.next_handle += 16;
        self.next_handle
    }

    /// Registers a module from its fatbin blob bytes; returns its index.
    pub fn register_module(&mut self, blob: Result<&[u8], String>) -> usize {
        let object = blob.as_ref().ok().map(|b| b.as_ptr());
        let entries = blob.and_then(|b| fatbin::parse(b).map_err(|e| e.0));
        let mut module = Module::new(entries);
        if !module.entries.iter().any(|e| e.kind == Kind::Ptx) {
            module.object = object.and_then(crate::relfatbin::object_file);
        }
        self.modules.push(module);
        self.modules.len() - 1
    }

    // ---------------------------------------------------------------- memory

    /// `cudaMalloc`: a device region.
    pub fn malloc(&mut self, size: usize) -> Result<u64, u32> {
        let limit = self.device.total_mem as u64;
        let used: u64 = self
            .allocs
            .values()
            .filter(|a| a.backing == Backing::Device)
            .map(|a| a.len)
            .sum();
        if used.saturating_add(size as u64) > limit {
            return Err(err::MEMORY_ALLOCATION);
        }
        let base = self.layout.alloc(size as u64).ok_or(err::MEMORY_ALLOCATION)?;
        // a new allocation starts from its own zeros, whatever an overrun wrote there before
        if let Some((lo, hi)) = self.layout.extent(base) {
            self.global.clear_slack(lo, hi);
        }
        if self.global.insert_zeroed(base, size).is_err() {
            self.layout.free(base);
            return Err(err::MEMORY_ALLOCATION);
        }
        self.global.set_mapped(self.layout.mapped());
        self.allocs.insert(
            base,
            Alloc {
                len: size as u64,
                backing: Backing::Device,
            },
        );
        if self.cfg.check {
            self.init_regions()
                .insert(base, InitRegion::fresh(base, size as u64));
        }
        Ok(base)
    }

    /// Where `addr` lies against the nearest device allocation: `1 bytes after the 400-byte
    /// allocation at 0x..` for the byte at its end (or before its start), as compute-sanitizer
    /// counts.
    pub fn nearest_allocation(&self, addr: u64) -> String {
        let dist = |(&b, a): (&u64, &Alloc)| {
            if addr < b {
                b - addr
            } else {
                addr.saturating_sub(b + a.len)
            }
        };
        let below = self.allocs.range(..=addr).next_back();
        let above = self.allocs.range(addr + 1..).next();
        let near = match (below, above) {
            (Some(x), Some(y)) => Some(if dist(y) < dist(x) { y } else { x }),
            (x, y) => x.or(y),
        };
        match near {
            Some((&b, a)) if addr < b => format!(
                "{} bytes before the {}-byte allocation at {b:#x}",
                b - addr,
                a.len
            ),
            // compute-sanitizer's count: the byte at the end is 1 byte after
            Some((&b, a)) => format!(
                "{} bytes after the {}-byte allocation at {b:#x}",
                addr.saturating_sub(b + a.len) + 1,
                a.len
            ),
            None => "no allocation near".to_string(),
        }
    }

    /// Registers host memory `[addr, addr + len)` as mirrored (pinned, mapped, managed, registered).
    pub fn add_mirror(&mut self, addr: u64, len: usize, owned: bool) -> Result<(), u32> {
        self.global
            .insert_zeroed(addr, len)
            .map_err(|_| err::HOST_MEMORY_ALREADY_REGISTERED)?;
        self.allocs.insert(
            addr,
            Alloc {
                len: len as u64,
                backing: Backing::Mirror { owned },
            },
        );
        Ok(())
    }

    /// `cudaFree` and friends: removes the allocation starting at `addr`; returns whether it was
    /// host memory the runtime allocated (the caller unmaps it).
    pub fn free(&mut self, addr: u64) -> Result<Option<(u64, u64)>, u32> {
        if addr == 0 {
            return Ok(None);
        }
        let a = self.allocs.remove(&addr).ok_or(err::INVALID_VALUE)?;
        self.global.discard(addr);
        // what a launch left in the allocation goes with it: a later allocation the layout puts
        // at the same address starts clean (calibration/run/gridspin's relaxed launch reuses the
        // slots of the atomic one before it)
        self.taints.retain(|t| t.base != addr);
        self.order_taints.retain(|t| t.base != addr);
        self.float_sums.retain(|t| t.base != addr);
        if a.backing == Backing::Device && self.layout.free(addr) {
            self.global.set_mapped(self.layout.mapped());
        }
        self.init_regions().remove(&addr);
        Ok(match a.backing {
            Backing::Mirror { owned: true } => Some((addr, a.len)),
            _ => None,
        })
    }

    /// Whether `addr` starts a mirrored host allocation.
    pub fn is_mirror(&self, addr: u64) -> bool {
        matches!(self.allocs.get(&addr), Some(a) if matches!(a.backing, Backing::Mirror { .. }))
    }

    /// The mirrored allocation holding `addr`: its base.
    pub fn mirror_of(&self, addr: u64) -> Option<u64> {
        let (&b, a) = self.allocs.range(..=addr).next_back()?;
        (matches!(a.backing, Backing::Mirror { .. }) && addr < b + a.len.max(1)).then_some(b)
    }

    /// Where `[addr, addr + len)` lies: device memory when inside one region of the emulated space
    /// that is not a host mirror (allocations, and the resident module's `__device__` variables).
    pub fn classify(&self, addr: u64, len: usize) -> Where {
        match self.global.region_of(addr) {
            Some((b, l)) if addr + len as u64 <= b + l && !self.is_mirror(b) => Where::Device,
            _ => Where::Host,
        }
    }

    /// Whether `addr` is inside some device region (of any length).
    pub fn is_device_ptr(&self, addr: u64) -> bool {
        matches!(self.global.region_of(addr), Some((b, _)) if !self.is_mirror(b))
    }

    /// Reads device bytes.
    pub fn read_device(&self, addr: u64, out: &mut [u8]) -> Result<(), u32> {
        self.global.read_range(addr, out).ok_or(err::INVALID_VALUE)
    }

    /// Writes device bytes.
    pub fn write_device(&self, addr: u64, data: &[u8]) -> Result<(), u32> {
        self.global.write_range(addr, data).ok_or(err::INVALID_VALUE)?;
        self.mark_written(addr, data.len() as u64);
        Ok(())
    }

    fn init_regions(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, InitRegion>> {
        self.init
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Under `--check`: `[addr, addr + len)` of a device allocation now holds what the program
    /// put there.
    fn mark_written(&self, addr: u64, len: u64) {
        let mut init = self.init_regions();
        if let Some((_, r)) = init.range_mut(..=addr).next_back()
            && addr - r.base < r.len
        {
            let off = addr - r.base;
            r.mark(off, len);
        }
    }

    /// Under `--check`: which device bytes were written before a launch (`None` otherwise).
    fn init_map(&self) -> Option<Arc<InitMap>> {
        self.cfg.check.then(|| {
            let regions: Vec<(u64, u64)> = self.global.regions().collect();
            let map = InitMap::new(self.init_regions().values().cloned().collect())
                .with_space(&regions, self.global.mapped_spans());
            Arc::new(map)
        })
    }

    /// After a launch under `--check`: what it wrote (`written`), or, when the launch was not
    /// checked so (not recorded, refused, cut short), every region it could write counts as
    /// written, so no later read of its results is taken for uninitialised.
    fn after_launch_init(&self, written: Option<InitMap>, reach: &[(u64, u64)]) {
        if !self.cfg.check {
            return;
        }
        let mut init = self.init_regions();
        match written {
            Some(m) => {
                for r in m.regions() {
                    if let Some(x) = init.get_mut(&r.base) {
                        x.bits = Arc::clone(&r.bits);
                    }
                }
            }
            None => {
                for &(b, l) in reach {
                    if let Some(x) = init.get_mut(&b) {
                        x.mark(0, l);
                    }
                }
            }
        }
    }

    /// Sets device bytes.
    pub fn memset_device(&self, addr: u64, value: u8, len: usize) -> Result<(), u32> {
        self.global.fill(addr, len, value).ok_or(err::INVALID_VALUE)?;
        self.mark_written(addr, len as u64);
        Ok(())
    }

    /// Under `--check`: a notice for each device allocation still live at `at` (`cudaDeviceReset`
    /// or `exit`), once per allocation.
    /// After a sticky error `cudaFree` fails, and what the program could not free is reported
    /// as compute-sanitizer's memcheck reports it then (measured on an H200: every allocation
    /// live at the end, after an illegal address, a misaligned access or a failed assert).
    pub fn report_leaks(&mut self, at: &str) {
        if !self.cfg.check {
            return;
        }
        let live: Vec<(u64, u64)> = self
            .allocs
            .iter()
            .filter(|(a, x)| x.backing == Backing::Device && !self.leaks_reported.contains(a))
            .map(|(&a, x)| (a, x.len))
            .collect();
        for (address, bytes) in live {
            self.leaks_reported.insert(address);
            self.notice(&Notice::Leak {
                address,
                bytes,
                at: at.to_string(),
            });
        }
    }

    /// Under `--check`: a notice of a CUDA runtime call that returned the error `code`.
    pub fn api_error(&mut self, call: &str, code: u32) {
        if self.cfg.check {
            self.notice(&Notice::ApiError {
                call: call.to_string(),
                code,
            });
        }
    }

    /// Under `--check`: a notice when a copy of `len` bytes from device memory at `src` to the
    /// host reads bytes of a `cudaMalloc` allocation nothing wrote (initcheck's host-side kind).
    pub fn note_uninit_copy(&mut self, src: u64, len: usize) {
        if !self.cfg.check || len == 0 {
            return;
        }
        let found = {
            let init = self.init_regions();
            init.range(..=src).next_back().and_then(|(_, r)| {
                let off = src.checked_sub(r.base)?;
                let end = off.saturating_add(len as u64).min(r.len);
                let mut first = None;
                let (mut unwritten, mut segments, mut last_seg) = (0u64, 0u64, u64::MAX);
                for i in off..end {
                    if !r.all_written(i, 1) {
                        first.get_or_insert(r.base + i);
                        unwritten += 1;
                        if i / 32 != last_seg {
                            last_seg = i / 32;
                            segments += 1;
                        }
                    }
                }
                first.map(|f| (f, unwritten, segments))
            })
        };
        if let Some((first, unwritten, segments)) = found {
            self.notice(&Notice::UninitializedCopy {
                address: src,
                bytes: len as u64,
                first,
                unwritten,
                segments,
            });
        }
    }

    // ------------------------------------------------- results of launches cut short (--budget)

    fn notice(&mut self, n: &Notice) {
        if let Some(file) = &mut self.notices
            && let Ok(line) = serde_json::to_string(n)
        {
            let _ = writeln!(file, "{line}");
            let _ = file.flush();
        }
    }

    /// The device regions a launch can write: each region an 8-byte word of its parameters
    /// points into (pointers, and pointers inside structs passed by value), and the resident
    /// module's `__device__` variables. Pointers the kernel loads from memory are not followed.
    fn reach(&self, params: &[Vec<u8>]) -> Vec<(u64, u64)> {
        let mut v = BTreeSet::new();
        for p in params {
            for w in p.chunks_exact(8) {
                let a = u64::from_le_bytes(w.try_into().unwrap_or_default());
                if a == 0 {
                    continue;
                }
                if let Some((b, l)) = self.global.region_of(a)
                    && b != GRID_WORKSPACE
                    && !self.is_mirror(b)
                {
                    v.insert((b, l));
                }
            }
        }
        if let Some(r) = self.global.region_of(GLOBAL_VAR_BASE) {
            v.insert(r);
        }
        v.into_iter().collect()
    }

    /// The regions of `reach` a launch of `kernel` (in `module`) reads or writes through the
    /// parameter words `words` tells (`global_read_params` or `global_write_params`); all of
    /// `reach` where it cannot tell.
    fn reached(
        &self,
        params: &[Vec<u8>],
        reach: &[(u64, u64)],
        words: impl Fn(&warpscope_ptx::Program, &str) -> Option<BTreeSet<(usize, u32)>>,
        module: usize,
        kernel: &str,
    ) -> Vec<(u64, u64)> {
        let Some(Some(Ok(program))) = self.modules.get(module).map(|m| m.program.as_ref()) else {
            return reach.to_vec();
        };
        let Some(words) = words(program, kernel) else {
            return reach.to_vec();
        };
        let mut v = BTreeSet::new();
        for (i, off) in words {
            let w = params
                .get(i)
                .and_then(|p| p.get(off as usize..off as usize + 8))
                .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()));
            if let Some(r) = w.and_then(|a| self.global.region_of(a)) {
                v.insert(r);
            }
        }
        v.into_iter().collect()
    }

    /// The cut launch whose incomplete results `[addr, addr + len)` holds, if any.
    fn incomplete_at(&self, addr: u64, len: u64) -> Option<&Taint> {
        self.taints
            .iter()
            .find(|t| addr < t.base + t.len && t.base < addr.saturating_add(len.max(1)))
    }

    /// The launch whose atomics' order decided what `[addr, addr + len)` holds, if any.
    fn order_dependent_at(&self, addr: u64, len: u64) -> Option<&Taint> {
        self.order_taints
            .iter()
            .find(|t| addr < t.base + t.len && t.base < addr.saturating_add(len.max(1)))
    }

    /// The launch whose float atomics' order rounded what `[addr, addr + len)` holds, if any.
    fn float_sums_at(&self, addr: u64, len: u64) -> Option<&Taint> {
        self.float_sums
            .iter()
            .find(|t| addr < t.base + t.len && t.base < addr.saturating_add(len.max(1)))
    }

    fn taint(&mut self, regions: &[(u64, u64)], origin: u64, label: &str) {
        for &(base, len) in regions {
            if !self.taints.iter().any(|t| t.base == base) {
                self.taints.push(Taint {
                    base,
                    len,
                    origin,
                    label: label.to_string(),
                });
            }
        }
    }

    /// The program reads `[addr, addr + len)` of device memory (a copy to the host): a read of
    /// results a cut launch left incomplete is a notice, and said on `stderr` once per launch.
    pub fn note_read(&mut self, call: &str, addr: u64, len: usize) {
        let Some(t) = self.incomplete_at(addr, len as u64).cloned() else {
            return;
        };
        if self.told_reads.insert(t.origin) {
            eprintln!(
                "warpscope: the program reads memory that launch {} {} left incomplete (not all its blocks ran: --budget): what it computes from it is incomplete",
                t.origin, t.label
            );
        }
        self.notice(&Notice::IncompleteRead {
            call: call.to_string(),
            address: addr,
            bytes: len as u64,
            from_launch: t.origin,
            label: t.label,
        });
    }

    /// A device-to-device copy of `len` bytes from `src` to `dst`: incomplete results stay so.
    pub fn note_copy(&mut self, dst: u64, src: u64, len: usize) {
        if let Some(t) = self.float_sums_at(src, len as u64).cloned()
            && let Some((b, l)) = self.global.region_of(dst)
            && !self.float_sums.iter().any(|o| o.base == b)
        {
            self.float_sums.push(Taint {
                base: b,
                len: l,
                origin: t.origin,
                label: t.label,
            });
        }
        if let Some(t) = self.order_dependent_at(src, len as u64).cloned()
            && let Some((b, l)) = self.global.region_of(dst)
            && !self.order_taints.iter().any(|o| o.base == b)
        {
            self.order_taints.push(Taint {
                base: b,
                len: l,
                origin: t.origin,
                label: t.label,
            });
        }
        if let Some(t) = self.incomplete_at(src, len as u64).cloned()
            && let Some(r) = self.global.region_of(dst)
        {
            self.taint(&[r], t.origin, &t.label);
        }
    }

    /// The program overwrote `[addr, addr + len)` from the host: a region it covers whole is no
    /// longer incomplete.
    pub fn note_overwrite(&mut self, addr: u64, len: usize) {
        let end = addr.saturating_add(len as u64);
        self.taints.retain(|t| !(addr <= t.base && t.base + t.len <= end));
        self.order_taints
            .retain(|t| !(addr <= t.base && t.base + t.len <= end));
        self.float_sums
            .retain(|t| !(addr <= t.base && t.base + t.len <= end));
    }

    /// Copies the program's mapped host memory into the emulated global space before a launch and
    /// returns what was copied, for [`Runtime::sync_mirrors_out`].
    fn sync_mirrors_in(&self) -> Vec<(u64, Vec<u8>)> {
        let mut copied = Vec::new();
        for (&b, a) in &self.allocs {
            if matches!(a.backing, Backing::Mirror { .. }) && a.len > 0 {
                // SAFETY: a mirror is host memory the program registered or the runtime mapped,
                // `len` bytes long, alive until freed (which removes the mirror).
                let host = unsafe { std::slice::from_raw_parts(b as usize as *const u8, a.len as usize) };
                let before = host.to_vec();
                let _ = self.global.write_range(b, &before);
                copied.push((b, before));
            }
        }
        copied
    }

    /// Writes back to the program's mapped host memory the bytes the launch changed, and only
    /// those: the program's other host threads may write the same buffers meanwhile (simpleCallback
    /// fills one thread's pinned buffer while another thread's kernel runs), and copying whole
    /// buffers back would undo their writes.
    fn sync_mirrors_out(&self, copied: Vec<(u64, Vec<u8>)>) {
        for (b, before) in copied {
            if !self.allocs.contains_key(&b) {
                continue;
            }
            let mut after = vec![0u8; before.len()];
            if self.global.read_range(b, &mut after).is_none() {
                continue;
            }
            let host = b as usize as *mut u8;
            let mut i = 0;
            while i < after.len() {
                if after[i] == before[i] {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < after.len() && after[i] != before[i] {
                    i += 1;
                }
                // SAFETY: as in `sync_mirrors_in`; `start..i` lies inside the `len` bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(after[start..i].as_ptr(), host.add(start), i - start)
                };
            }
        }
    }

    // ---------------------------------------------------------------- modules

    /// Parses and lowers module `m` once; the error says why it cannot be emulated.
    pub fn program(&mut self, m: usize) -> Result<&Program, String> {
        let module = self.modules.get_mut(m).ok_or("no such module")?;
        if module.program.is_none() {
            let r = if let Some(e) = &module.error {
                Err(e.clone())
            } else {
                let ptx = module
                    .entries
                    .iter()
                    .filter(|e| e.kind == Kind::Ptx)
                    // the newest target; of one target's PTX, the architecture-specific one
                    // (`sm_90a`: a fatbin built with -arch=sm_90a also carries a compute_90 PTX in
                    // which sm_90a-only paths, wgmma for one, are compiled to a trap)
                    .max_by_key(|e| (e.sm, fatbin::arch_specific(&e.data)))
                    .map(|e| Ok(fatbin::ptx_text(e)))
                    .or_else(|| {
                        // relocatable device code (-rdc=true): the PTX is in the file's own
                        // section, one text per translation unit, linked into one
                        let texts = crate::relfatbin::relocatable_ptx(module.object.as_deref()?).ok()?;
                        let kernels: Vec<&str> = self
                            .functions
                            .values()
                            .filter(|f| f.module == m)
                            .map(|f| f.name.as_str())
                            .collect();
                        crate::relfatbin::linked_ptx(&texts, &kernels)
                    });
                match ptx {
                    None => Err(
                        "the fatbin has no PTX (build with -arch=sm_XX, which embeds compute_XX PTX)"
                            .to_string(),
                    ),
                    Some(Err(e)) => Err(e),
                    Some(Ok(text)) => {
                        let r = warpscope_ptx::compile(&text).map_err(|errs| {
                            errs.iter()
                                .take(3)
                                .map(|e| e.to_string())
                                .collect::<Vec<_>>()
                                .join("; ")
                        });
                        module.ptx = text;
                        r
                    }
                }
            };
            if let Ok(p) = &r {
                module.globals = p.global_init.clone();
            }
            module.program = Some(r);
        }
        match module.program.as_ref() {
            Some(Ok(p)) => Ok(p),
            Some(Err(e)) => Err(e.clone()),
            None => Err("not lowered".into()),
        }
    }

    /// Copies module `m`'s `__managed__` variables between their host memory and the window:
    /// `to_device` before a launch or a symbol access, the other way after. A variable whose
    /// initial value was never read takes it from the module first.
    pub fn sync_managed(&mut self, m: usize, to_device: bool) {
        let keys: Vec<(usize, String, usize)> = self
            .vars
            .iter()
            .filter(|(_, v)| v.module == m && v.managed.is_some())
            .map(|(&k, v)| (k, v.name.clone(), v.size))
            .collect();
        if keys.is_empty() {
            return;
        }
        let addrs: Vec<(usize, u64, usize)> = {
            let Ok(p) = self.program(m) else { return };
            keys.iter()
                .filter_map(|(k, name, size)| {
                    p.vars
                        .iter()
                        .find(|x| &x.name == name && !x.is_const)
                        .map(|x| (*k, x.addr, (*size).min(x.size as usize)))
                })
                .collect()
        };
        self.make_resident(m);
        for (k, addr, size) in addrs {
            let Some(mg) = self.vars.get(&k).and_then(|v| v.managed.clone()) else {
                continue;
            };
            // SAFETY: `host` is the runtime's own allocation of at least `size` bytes, never freed.
            let host = unsafe { std::slice::from_raw_parts_mut(mg.host as *mut u8, size) };
            if to_device && mg.initialised {
                let _ = self.write_device(addr, host);
            } else {
                let _ = self.read_device(addr, host);
            }
            if let Some(Some(x)) = self.vars.get_mut(&k).map(|v| v.managed.as_mut()) {
                x.initialised = true;
            }
        }
    }

    /// Puts module `m`'s `__device__` variables at `GLOBAL_VAR_BASE` (saving the previous module's).
    fn make_resident(&mut self, m: usize) {
        if self.resident == Some(m) {
            return;
        }
        if let Some(r) = self.resident.take()
            && let Some(bytes) = self.global.remove(GLOBAL_VAR_BASE)
        {
            self.modules[r].globals = bytes;
        }
        let bytes = std::mem::take(&mut self.modules[m].globals);
        if !bytes.is_empty() {
            if self.global.insert(GLOBAL_VAR_BASE, &bytes).is_ok() {
                self.resident = Some(m);
            } else {
                self.modules[m].globals = bytes;
            }
        } else {
            self.resident = Some(m);
        }
    }

    /// A registered variable's location: (`true` for the constant bank, address or offset, size).
    pub fn symbol(&mut self, host: usize) -> Result<(bool, u64, usize), u32> {
        let v = self.vars.get(&host).cloned().ok_or(err::INVALID_SYMBOL)?;
        let prog = self.program(v.module).map_err(|e| {
            eprintln!("warpscope: module of `{}` cannot be loaded: {e}", v.name);
            err::INVALID_SYMBOL
        })?;
        let mv = prog
            .vars
            .iter()
            .find(|x| x.name == v.name)
            .ok_or(err::INVALID_SYMBOL)?;
        let (c, addr, size) = (mv.is_const, mv.addr, mv.size as usize);
        if !c {
            self.make_resident(v.module);
        }
        Ok((c, addr, size.max(v.size)))
    }

    /// `cudaMemcpyToSymbol`
    pub fn write_symbol(&mut self, host: usize, offset: usize, data: &[u8]) -> Result<(), u32> {
        let managed = self
            .vars
            .get(&host)
            .filter(|v| v.managed.is_some())
            .map(|v| v.module);
        if let Some(m) = managed {
            self.sync_managed(m, true);
        }
        let r = self.write_symbol_inner(host, offset, data);
        if let Some(m) = managed {
            self.sync_managed(m, false);
        }
        r
    }

    fn write_symbol_inner(&mut self, host: usize, offset: usize, data: &[u8]) -> Result<(), u32> {
        let (c, addr, size) = self.symbol(host)?;
        if offset + data.len() > size {
            return Err(err::INVALID_VALUE);
        }
        if c {
            let m = self.vars[&host].module;
            if let Some(Some(Ok(p))) = self.modules.get_mut(m).map(|x| x.program.as_mut()) {
                let o = addr as usize + offset;
                let bank = &mut p.const_bank;
                if bank.len() < o + data.len() {
                    bank.resize(o + data.len(), 0);
                }
                bank[o..o + data.len()].copy_from_slice(data);
                return Ok(());
            }
            return Err(err::INVALID_SYMBOL);
        }
        self.write_device(addr + offset as u64, data)
    }

    /// `cudaMemcpyFromSymbol`
    pub fn read_symbol(&mut self, host: usize, offset: usize, out: &mut [u8]) -> Result<(), u32> {
        if let Some(m) = self
            .vars
            .get(&host)
            .filter(|v| v.managed.is_some())
            .map(|v| v.module)
        {
            self.sync_managed(m, true);
        }
        let (c, addr, size) = self.symbol(host)?;
        if offset + out.len() > size {
            return Err(err::INVALID_VALUE);
        }
        if c {
            let m = self.vars[&host].module;
            let p = self.program(m).map_err(|_| err::INVALID_SYMBOL)?;
            let o = addr as usize + offset;
            for (k, b) in out.iter_mut().enumerate() {
                *b = p.const_bank.get(o + k).copied().unwrap_or(0);
            }
            return Ok(());
        }
        self.read_device(addr + offset as u64, out)?;
        self.note_read("cudaMemcpyFromSymbol", addr + offset as u64, out.len());
        Ok(())
    }

    // ---------------------------------------------------------------- kernels

    /// The parameter sizes of a kernel, to read `void **args`.
    pub fn param_sizes(&mut self, func: usize) -> Result<Vec<usize>, u32> {
        let f = self
            .functions
            .get(&func)
            .cloned()
            .ok_or(err::INVALID_DEVICE_FUNCTION)?;
        let why = match self.program(f.module) {
            Ok(p) => match (p.kernel(&f.name), p.kernel_error(&f.name)) {
                (Some(k), _) => return Ok(k.params.iter().map(|p| p.size as usize).collect()),
                // an instruction the lowering cannot model (a texture fetch, ...)
                (None, Some(errs)) => errs
                    .iter()
                    .take(3)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                (None, None) => return Err(err::INVALID_DEVICE_FUNCTION),
            },
            Err(e) => e,
        };
        Err(self.refuse(&f.name, &why, err::INVALID_PTX))
    }

    /// The stack frame ptxas gave `func` (bytes per thread), from its module's cubin.
    pub fn frame_size(&self, func: usize) -> Option<u32> {
        let f = self.functions.get(&func)?;
        let cubin = self.modules.get(f.module)?.cubin(self.arch.cc())?;
        fatbin::cubin_frame_sizes(cubin)
            .into_iter()
            .find(|(n, _)| *n == f.name)
            .map(|(_, r)| r)
    }

    /// Registers per thread of a kernel (from the module's cubin for the architecture).
    pub fn registers(&self, func: usize) -> Option<u32> {
        let f = self.functions.get(&func)?;
        let cubin = self.modules.get(f.module)?.cubin(self.arch.cc())?;
        fatbin::cubin_registers(cubin)
            .into_iter()
            .find(|(n, _)| *n == f.name)
            .map(|(_, r)| r)
    }

    fn kernel_analysis(&mut self, m: usize, name: &str) -> KernelAnalysis {
        if let Some(a) = self.modules[m].analyses.get(name) {
            return a.clone();
        }
        let cc = self.arch.cc();
        let arch = self.arch;
        if self.modules[m].sass.is_none() {
            let sass = match self.modules[m].cubin(cc) {
                Some(c) => disassemble(c),
                None => Err(format!("the program has no sm_{cc} machine code")),
            };
            self.modules[m].sass = Some(sass);
        }
        let registers = self.modules[m]
            .cubin(cc)
            .and_then(|c| fatbin::cubin_registers(c).into_iter().find(|(n, _)| n == name))
            .map(|(_, r)| r);
        let module = &self.modules[m];
        let Some(Ok(program)) = module.program.as_ref() else {
            unreachable!("kernel_analysis after a successful lowering")
        };
        let sass = module.sass.as_ref().expect("disassembled above");
        let (mut ka, widths) =
            crate::analysis::kernel_analysis(program, &module.ptx, name, sass, registers, arch);
        ka.barriers = module
            .cubin(cc)
            .and_then(|c| fatbin::cubin_barriers(c).into_iter().find(|(n, _)| n == name))
            .map(|(_, b)| b);
        let module = &mut self.modules[m];
        module.analyses.insert(name.to_string(), ka.clone());
        module.widths.insert(name.to_string(), widths);
        ka
    }

    fn recorded(&mut self, kernel: &str, mangled: &str) -> bool {
        if let Some(f) = &self.cfg.kernel_name
            && !kernel.contains(f.as_str())
            && !mangled.contains(f.as_str())
        {
            return false;
        }
        let n = self.matched;
        self.matched += 1;
        n >= self.cfg.launch_skip && self.cfg.launch_count.is_none_or(|c| n < self.cfg.launch_skip + c)
    }

    /// Writes the device `printf` output of earlier launches (a flush point of the CUDA runtime).
    pub fn flush_printf(&mut self) {
        crate::printf::write_stdout(&std::mem::take(&mut self.printf_pending));
        if !self.assert_pending.is_empty() {
            let mut text = std::mem::take(&mut self.assert_pending).join("\n");
            text.push('\n');
            let mut e = std::io::stderr().lock();
            let _ = e.write_all(text.as_bytes());
            let _ = e.flush();
        }
    }

    /// A launch the emulator cannot run: says why on `stderr` and returns `code`, which the next
    /// synchronising call returns too ([`Runtime::deferred`]).
    fn refuse(&mut self, name: &str, why: &str, code: u32) -> u32 {
        eprintln!(
            "warpscope: kernel `{}` cannot be emulated: {why}",
            crate::names::brief(&demangle(name))
        );
        self.deferred = Some(code);
        code
    }

    /// Adds device `printf` output to what the next flush point writes.
    pub(crate) fn queue_printf(&mut self, text: &[u8]) {
        self.printf_pending.extend_from_slice(text);
    }

    /// Device output never flushed, in bytes (a GPU would not print it).
    pub fn unflushed_printf(&self) -> usize {
        self.printf_pending.len()
    }

    /// Emulates one grid: a host launch (`parent` `None`) or a kernel a grid launched
    /// (`devlaunch`). Errors are the runtime's codes (the caller records them); the grid's
    /// own launches come back for the caller to run.
    pub(crate) fn launch_grid(
        &mut self,
        req: LaunchRequest,
        parent: Option<&crate::devtree::Parent>,
    ) -> Result<crate::devtree::GridDone, u32> {
        if parent.is_none() {
            self.flush_printf();
        }
        let f = self
            .functions
            .get(&req.func)
            .cloned()
            .ok_or(err::INVALID_DEVICE_FUNCTION)?;
        let threads: u64 = req.block.iter().map(|&b| u64::from(b)).product();
        // An H100 with CUDA 13 answers `<<<1, 2048>>>` with cudaErrorInvalidValue
        // (calibration/run/h100/api.stdout).
        if threads > 1024 || req.block[0] > 1024 || req.block[1] > 1024 || req.block[2] > 64 {
            return Err(err::INVALID_VALUE);
        }
        if threads == 0
            || req.grid.contains(&0)
            || req.grid[1] > 65535
            || req.grid[2] > 65535
            || req.grid[0] > i32::MAX as u32
        {
            return Err(err::INVALID_CONFIGURATION);
        }
        let shown = demangle(&f.name);
        // a kernel the emulator cannot run is refused here (`param_sizes` says why)
        self.param_sizes(req.func)?;
        let nonportable = self.nonportable_cluster.contains(&req.func);
        let (static_smem, n_params, clustered) = {
            let p = self.program(f.module).map_err(|_| err::INVALID_PTX)?;
            let k = p.kernel(&f.name).ok_or(err::INVALID_DEVICE_FUNCTION)?;
            // cluster dimensions that do not divide the grid, too large a cluster, or other
            // dimensions than the kernel's `__cluster_dims__`: the GPU's launch fails so
            let (dims, _) = warpscope_emu::cluster_dims(k, req.grid, req.cluster, nonportable)
                .map_err(|_| err::INVALID_CLUSTER_SIZE)?;
            (
                k.static_smem as usize,
                k.params.len(),
                dims.iter().product::<u32>() > 1,
            )
        };
        if clustered && req.cooperative {
            return Err(err::NOT_SUPPORTED);
        }
        if static_smem + req.dyn_smem > self.device.smem_per_block_optin {
            return Err(err::INVALID_VALUE);
        }
        // more dynamic shared memory than the kernel allows: 48 KB with the static, or what
        // cudaFuncAttributeMaxDynamicSharedMemorySize set (calibration/occupancy/dynlimit.cu)
        if req.dyn_smem > self.dyn_smem_limit(req.func, static_smem) {
            return Err(err::INVALID_VALUE);
        }
        if req.params.len() != n_params {
            return Err(err::INVALID_VALUE);
        }
        if req.cooperative {
            // every block must be resident at once: at most the occupancy calculator's blocks per
            // SM on every SM, as the runtime checks
            let per_sm = self.max_active_blocks(req.func, threads as u32, req.dyn_smem)?;
            let blocks: u64 = req.grid.iter().map(|&g| u64::from(g)).product();
            if blocks > u64::from(per_sm) * u64::try_from(self.device.sms).unwrap_or(0) {
                return Err(err::COOPERATIVE_LAUNCH_TOO_LARGE);
            }
        }
        let index = self.launches;
        self.launches += 1;
        let host_launch = match parent {
            Some(_) => {
                self.device_grids += 1;
                None
            }
            None => (self.device_grids > 0).then(|| index - self.device_grids),
        };
        let blocks: u64 = req.grid.iter().map(|&g| u64::from(g)).product();
        let label = format!(
            "{}<<<({},{},{}),({},{},{})>>>",
            shown.split('(').next().unwrap_or(&shown).trim(),
            req.grid[0],
            req.grid[1],
            req.grid[2],
            req.block[0],
            req.block[1],
            req.block[2]
        );
        // on the progress page from here (the kernel's analysis may take a while the first time)
        // until the emulation ends, or an early return
        let began = std::time::Instant::now();
        let showing = self.page.map(|p| p.show(index, &label, blocks));
        let record = self.recorded(&shown, &f.name);
        let ka = record.then(|| self.kernel_analysis(f.module, &f.name));
        self.sync_managed(f.module, true);
        self.make_resident(f.module);
        let mirrored = self.sync_mirrors_in();
        // what the launch can write, and whether it reads results a cut launch left incomplete
        let reach = self.reach(&req.params);
        let incomplete_input = reach
            .iter()
            .find_map(|&(b, l)| self.incomplete_at(b, l))
            .map(|t| (t.origin, t.label.clone()));
        // whether it reads data whose layout a launch's atomics decided, and whether its own
        // stores take an atomic's result (`order_taints`)
        let order_input = self
            .reached(
                &req.params,
                &reach,
                warpscope_analysis::reconcile::global_read_params,
                f.module,
                &f.name,
            )
            .iter()
            .find_map(|&(b, l)| self.order_dependent_at(b, l))
            .map(|t| (t.origin, t.label.clone()));
        let launch_params = req.params.clone();
        let mut launch = Launch::new(
            req.grid,
            req.block,
            req.params.into_iter().map(Arg::Bytes).collect(),
        );
        launch.dyn_smem = req.dyn_smem as u32;
        let limits = Limits {
            max_warp_insts_per_block: self.cfg.max_instructions,
            ..Limits::default()
        };
        // blocks resident per SM (whether a polling grid fits on the device at once, below)
        let per_sm = self
            .max_active_blocks(req.func, threads as u32, req.dyn_smem)
            .unwrap_or(0);
        let Some(Some(Ok(program))) = self.modules.get(f.module).map(|m| m.program.as_ref()) else {
            return Err(err::INVALID_PTX);
        };
        let order_output = warpscope_analysis::reconcile::global_stores_from_atomics(program, &f.name);
        // what it does with float sums an earlier launch's atomics (or its own) rounded in the
        // GPU's order: which launch made those it reads, and where a value of them decides
        let word_region = |(i, off): (usize, u32)| {
            launch_params
                .get(i)
                .and_then(|p| p.get(off as usize..off as usize + 8))
                .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
                .and_then(|a| self.global.region_of(a))
        };
        let float_input = |(b, l): (u64, u64)| self.float_sums_at(b, l).map(|t| (t.origin, t.label.clone()));
        let float_order = warpscope_analysis::float_order::float_order(
            program,
            &f.name,
            |w| word_region(w).and_then(float_input).is_some(),
            reach.iter().any(|&r| float_input(r).is_some()),
        )
        .unwrap_or_default();
        let float_from = reach.iter().find_map(|&r| float_input(r));
        let float_sum_order = float_order.decision.map(|pc| {
            let at = format!(
                "{} (`{}`)",
                crate::analysis::loc_of(program, pc).label,
                program.inst_info(pc).text.trim()
            );
            match &float_from {
                Some((o, l)) => (
                    *o,
                    format!("{at} decides on float sums launch {o} {l} made with atomics"),
                ),
                None => (index, format!("{at} decides on float sums its own atomics make")),
            }
        });
        let float_regions: Option<Vec<(u64, u64)>> = float_order
            .sums
            .as_ref()
            .map(|words| words.iter().filter_map(|&w| word_region(w)).collect());
        // a 3-D texture fetch with linear filtering: the trilinear weights' rounding is the H200's
        // on most samples only, so the filtered values and what they decide may differ
        let trilinear_at = program
            .kernel(&f.name)
            .and_then(|k| (k.entry..k.end).find(|&pc| program.inst_info(pc).text.contains("tex.3d")))
            .filter(|_| self.global.textures().any(|t| t.linear && t.size[2] > 1))
            .map(|pc| crate::analysis::loc_of(program, pc).label);
        let shared_used = program
            .kernel(&f.name)
            .is_some_and(|k| (k.entry..k.end).any(|pc| program.inst_info(pc).text.contains(".shared")));
        // the regions its global writes can reach (all it can reach where the PTX does not tell)
        let written_reach = self.reached(
            &launch_params,
            &reach,
            warpscope_analysis::reconcile::global_write_params,
            f.module,
            &f.name,
        );
        // the driver's grid workspace (cooperative groups' `grid_workspace { wsSize, barrier }`),
        // which CUDA 13 gives every launch; a plain launch of a kernel that polls global memory
        // runs its blocks in turns as a cooperative one does when the grid fits on the device at
        // once (a GPU then runs a `grid.sync()` in it through)
        let (env, polls) = {
            use warpscope_ptx::inst::{Inst, MemSpace, RowInit, Special};
            let k = program.kernel(&f.name).ok_or(err::INVALID_DEVICE_FUNCTION)?;
            let env = k
                .row_init
                .iter()
                .any(|(_, i)| matches!(i, RowInit::Special(Special::EnvReg(_))));
            let polls = program.ops[k.entry as usize..k.end as usize]
                .iter()
                .any(|o| matches!(o.inst, Inst::Ld { sync: true, space, .. } if space != MemSpace::Shared));
            (env, polls)
        };
        launch.device_runtime = self.device_runtime(program, &f.name, parent);
        launch.cooperative = req.cooperative;
        launch.cluster = req.cluster;
        launch.cluster_nonportable = nonportable;
        // how many blocks of a plain launch can wait on each other (a grid barrier made by hand)
        launch.resident = Some((per_sm, u32::try_from(self.device.sms).unwrap_or(u32::MAX)));
        let env = env || req.cooperative;
        if env {
            launch.grid_workspace = GRID_WORKSPACE;
            if !req.cooperative && !clustered && polls {
                let blocks: u64 = req.grid.iter().map(|&g| u64::from(g)).product();
                launch.cooperative =
                    blocks <= u64::from(per_sm) * u64::try_from(self.device.sms).unwrap_or(0);
            }
            let mut ws = [0u8; 16];
            ws[..4].copy_from_slice(&16u32.to_le_bytes());
            if self.global.insert(GRID_WORKSPACE, &ws).is_err() {
                return Err(self.refuse(
                    &f.name,
                    "the grid workspace's address is taken",
                    err::LAUNCH_FAILURE,
                ));
            }
        }
        let started = std::time::Instant::now();
        let watch = LaunchWatch {
            progress: self.page.map(|p| &p.done),
            deadline: self
                .cfg
                .budget_s
                .map(|s| started + std::time::Duration::from_secs_f64(s.max(0.0))),
            budget_s: self.cfg.budget_s,
        };
        let result: Result<LaunchAnalysis, EmuError> = match &ka {
            Some(ka) => analyse_launch(
                program,
                &f.name,
                &launch,
                &limits,
                &self.global,
                ka,
                self.cfg.check,
                self.init_map(),
                self.cfg.fix.then_some(index),
                watch,
            ),
            None => crate::analysis::run_unrecorded(
                program,
                &f.name,
                &launch,
                &limits,
                &self.global,
                self.arch,
                watch,
            ),
        };
        // what the launch touched, by source line, while it may overlap later work
        let mut result = result;
        let in_graph = self.order.graph_label();
        let module = f.module;
        let work = result.as_mut().ok().and_then(|a| {
            a.global_footprint.take().map(|f| crate::streams::Work {
                what: match &in_graph {
                    Some(n) => format!("launch {index} `{}` ({n})", crate::names::brief(&shown)),
                    None => format!("launch {index} `{}`", crate::names::brief(&shown)),
                },
                sets: const_bank_of(f.regroup(|pc| crate::analysis::loc_of(program, pc).line), module),
                partial: f.partial(),
            })
        });
        if self.cfg.check
            && parent.is_none()
            && let (Some(w), Ok(a)) = (&work, result.as_mut())
            && w.partial
        {
            a.findings.push(crate::analysis::Finding {
                severity: "note".into(),
                kind: "stream_footprint_cut".into(),
                line: None,
                message: format!(
                    "the launch's global footprint was cut at {} byte intervals: the check of work on other streams against it covers only the accesses before the cut",
                    warpscope_analysis::footprint::MAX_INTERVALS
                ),
            });
        }
        drop(showing);
        let seconds = began.elapsed().as_secs_f64();
        if env {
            self.global.discard(GRID_WORKSPACE);
        }
        self.sync_mirrors_out(mirrored);
        self.sync_managed(f.module, false);
        let analysis = match result {
            Ok(mut a) => {
                let written = a.global_written.take().filter(|_| a.sampling.is_none());
                self.after_launch_init(written, &reach);
                a
            }
            Err(e) => {
                self.after_launch_init(None, &reach);
                let code = match e {
                    EmuError::Limit(_) => err::LAUNCH_OUT_OF_RESOURCES,
                    EmuError::BadLaunch(_) => err::INVALID_CONFIGURATION,
                    _ => err::INVALID_VALUE,
                };
                return Err(self.refuse(&f.name, &e.to_string(), code));
            }
        };
        // the grid's printf lines with their times in the launch tree (`devlaunch`)
        let t0 = parent.map_or(0, |p| p.printf_time);
        for p in &analysis.printf {
            self.tree_printf
                .push((t0 + u64::from(p.seq), index, crate::printf::format(p)));
        }
        let mut analysis = analysis;
        let device_launches = std::mem::take(&mut analysis.device_launches);
        if let Some(s) = &analysis.sampling {
            eprintln!(
                "warpscope: launch {index} {label} stopped after {seconds:.1} s ({}): {} of {} blocks ran (the first in block order); its counters are estimates, and what the other {} blocks would have written is missing, so the program's results from this launch are incomplete",
                s.reason,
                s.blocks_run,
                s.blocks,
                s.blocks - s.blocks_run
            );
            self.taint(&reach, index, &label);
            let n = Notice::LaunchCut {
                launch: index,
                label: label.clone(),
                blocks_run: s.blocks_run,
                blocks: s.blocks,
                seconds,
                recorded: record,
            };
            self.notice(&n);
        } else if seconds >= crate::progress::LONG_LAUNCH_S {
            eprintln!("warpscope: launch {index} {label} {seconds:.1} s, {blocks} blocks");
        }
        // accesses outside every allocation that hit mapped memory: no fault on the GPU either
        // (calibration/oob); `--check` names each one's line and thread
        let (outside, first) = self.global.take_outside();
        if let Some(o) = first.filter(|_| !self.cfg.check) {
            let times = if outside > 1 {
                format!(" ({outside} such accesses in the launch)")
            } else {
                String::new()
            };
            eprintln!(
                "warpscope: note: launch {index} {label}: a {}-byte {} at {:#x}, {}, is outside every allocation but in mapped memory, so the GPU does not stop it{times}; `warpscope run --check` names the line and thread",
                o.width,
                if o.write { "write" } else { "read" },
                o.addr,
                self.nearest_allocation(o.addr)
            );
        }
        // the regions its global writes reach hold order-dependent data from now on (a `__device__`
        // variable's region is left out: every launch reaches it)
        let order_origin = order_input
            .clone()
            .or_else(|| order_output.then(|| (index, label.clone())));
        if let Some((origin, from)) = order_origin {
            let globals = self.global.region_of(GLOBAL_VAR_BASE);
            for &(base, len) in &written_reach {
                if Some((base, len)) != globals && !self.order_taints.iter().any(|t| t.base == base) {
                    self.order_taints.push(Taint {
                        base,
                        len,
                        origin,
                        label: from.clone(),
                    });
                }
            }
        }
        // its blocks waited on each other: from the block that waited on, they ran interleaved,
        // and how often a spin loop polls is the GPU's timing
        if let Some(b) = analysis.waited
            && analysis.fault_kind.as_deref() != Some("not_resident")
        {
            let why = format!(
                "block {b} waited on other blocks through global memory (a spin loop on a volatile, relaxed or atomic load: a grid barrier made by hand); the blocks before it ran one after another, it and the {} after it interleaved, in turns as a cooperative launch's (the grid fits on the GPU at once, so the GPU runs it through too); the branch and global counters are estimates: the spin loops run as often as the GPU's timing makes them",
                blocks.saturating_sub(u64::from(b) + 1)
            );
            eprintln!("warpscope: launch {index} {label}: {why}");
            analysis
                .metrics
                .insert("warpscope__blocks_interleaved".into(), 1.0);
            // the shared counters stay as the spin loops' analysis labels them: exact where no
            // spin loop can touch shared memory, as in a cooperative launch
            for k in [
                "warpscope__branch_counters_exact",
                "warpscope__global_counters_exact",
                "warpscope__global_load_counters_exact",
            ] {
                if let Some(v) = analysis.metrics.get_mut(k) {
                    *v = 0.0;
                }
            }
            analysis.blocks_interleaved = Some(why);
        }
        // the float sums it leaves (its own atomics', or stored from those it read)
        let globals = self.global.region_of(GLOBAL_VAR_BASE);
        let sums_origin = float_from.as_ref().map_or(index, |(o, _)| *o);
        let sums_label = float_from.as_ref().map_or(label.clone(), |(_, l)| l.clone());
        for &(base, len) in float_regions.as_ref().unwrap_or(&written_reach) {
            let named = float_order.sums.is_some();
            if (named || Some((base, len)) != globals) && !self.float_sums.iter().any(|t| t.base == base) {
                self.float_sums.push(Taint {
                    base,
                    len,
                    origin: sums_origin,
                    label: sums_label.clone(),
                });
            }
        }
        // a value of such sums decides a branch, an address or an integer: which way it goes on
        // the GPU depends on bits the GPU rounds otherwise, so the counters that follow it are
        // estimates
        if let Some((origin, why)) = float_sum_order {
            analysis
                .metrics
                .insert("warpscope__float_sum_order".into(), origin as f64);
            let mut keys = vec![
                "warpscope__branch_counters_exact",
                "warpscope__global_counters_exact",
                "warpscope__global_load_counters_exact",
            ];
            if shared_used {
                keys.push("warpscope__shared_counters_exact");
            }
            for k in keys {
                if let Some(v) = analysis.metrics.get_mut(k) {
                    *v = 0.0;
                }
            }
            analysis.float_sum_order = Some(why);
        }
        // its 3-D linear-filtered fetches may differ from the GPU's in their last bits
        if let Some(at) = trilinear_at {
            analysis
                .metrics
                .insert("warpscope__trilinear_filtering".into(), 1.0);
            for k in [
                "warpscope__branch_counters_exact",
                "warpscope__global_counters_exact",
                "warpscope__global_load_counters_exact",
            ] {
                if let Some(v) = analysis.metrics.get_mut(k) {
                    *v = 0.0;
                }
            }
            analysis.trilinear_filtering = Some(format!(
                "{at} fetches from a 3-D texture with linear filtering (the emulation's trilinear weights and filtered values equal the H200's on all 8,192 samples measured, on one 2x2x2 array under clamp addressing, other sizes and address modes not measured; the branches that follow the filtered values are counted on them)"
            ));
        }
        // what it read differs on the GPU: every counter that follows the data is an estimate
        if let Some((origin, _)) = order_input {
            analysis
                .metrics
                .insert("warpscope__order_dependent_input".into(), origin as f64);
            for k in [
                "warpscope__branch_counters_exact",
                "warpscope__shared_counters_exact",
                "warpscope__global_counters_exact",
                "warpscope__global_load_counters_exact",
            ] {
                if let Some(v) = analysis.metrics.get_mut(k) {
                    *v = 0.0;
                }
            }
        }
        if let Some((origin, from)) = incomplete_input {
            if self.told_inputs.insert(origin) {
                eprintln!(
                    "warpscope: launch {index} {label} reads memory that launch {origin} {from} left incomplete (--budget): its results are incomplete too"
                );
            }
            self.taint(&reach, origin, &from);
            analysis.incomplete_input = Some(origin);
            self.notice(&Notice::IncompleteInput {
                launch: index,
                label: label.clone(),
                from_launch: origin,
            });
        }
        if !analysis.printf.is_empty() {
            analysis.metrics.insert(
                "warpscope__device_printf_calls".into(),
                analysis.printf.len() as f64,
            );
            // ncu counts the printf implementation's own loads and stores in the global counters
            // (`warpscope_analysis::global::printf_traffic`, measured in calibration/printf/);
            // gld/gst_efficiency stay the kernel's own accesses'
            let traffic = warpscope_analysis::global::printf_traffic(&analysis.printf);
            let t = traffic.counts;
            for (k, v) in [
                ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", t.ld_requests),
                ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", t.ld_sectors),
                ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", t.st_requests),
                ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", t.st_sectors),
            ] {
                *analysis.metrics.entry(k.into()).or_insert(0.0) += v as f64;
            }
            analysis.metrics.insert(
                "warpscope__device_printf_warp_calls".into(),
                traffic.warp_calls as f64,
            );
            // the stores are the H100's, which counts 3 per warp-level call more than the H200:
            // the global group is an estimate; its loads stay exact where the kernel's own
            // accesses and the calls are (`warpscope__global_load_counters_exact`)
            if let Some(g) = analysis.metrics.get_mut("warpscope__global_counters_exact") {
                let loads = *g == 1.0 && traffic.exact;
                if !traffic.exact_stores() {
                    *g = 0.0;
                }
                analysis.metrics.insert(
                    "warpscope__global_load_counters_exact".into(),
                    if loads { 1.0 } else { 0.0 },
                );
            }
        }
        self.clock.kernel(analysis.warp_instructions, self.device.sms);
        let fault = analysis.fault.clone();
        let code = match (&fault, analysis.fault_kind.as_deref()) {
            (None, _) => err::SUCCESS,
            (_, Some("instruction_limit")) => err::LAUNCH_TIMEOUT,
            // blocks that wait on blocks the GPU cannot start: it hangs (a watchdog ends it)
            (_, Some("not_resident")) => err::LAUNCH_TIMEOUT,
            // a failing device assert: the GPU prints each failing thread's line and the context
            // is left with the sticky cudaErrorAssert
            (_, Some("assert")) => err::ASSERT,
            (_, Some("misaligned")) => err::MISALIGNED_ADDRESS,
            (_, Some("out_of_bounds")) => err::ILLEGAL_ADDRESS,
            // a call through a pointer that is no function's (calibration/indirect/h200/badcall.txt)
            (_, Some("bad_call")) => err::INVALID_PC,
            _ => err::LAUNCH_FAILURE,
        };
        self.assert_pending
            .extend(analysis.asserts.iter().map(crate::analysis::assert_line));
        if let Some(text) = &fault
            && code != err::ASSERT
        {
            eprintln!("warpscope: kernel `{}`: {text}", crate::names::brief(&shown));
        }
        // launches the host issued take their place in the streams' order, and are checked against
        // outstanding work nothing orders before them (`--check`)
        if parent.is_none() {
            let key = crate::streams::StreamOrder::key(req.stream, crate::streams::ptsz());
            let (races, _) = self.order.issue(key, work);
            if self.cfg.check {
                analysis
                    .findings
                    .extend(races.iter().map(|r| self.stream_race_finding(r)));
                self.note_dropped();
            }
        } else if let Some(w) = work {
            // a grid launched from the device is part of its host launch in the streams' order
            let races = self.order.descendant(w);
            if self.cfg.check {
                analysis
                    .findings
                    .extend(races.iter().map(|r| self.stream_race_finding(r)));
                self.note_dropped();
            }
        }
        if record {
            let widths = self.modules[f.module]
                .widths
                .get(&f.name)
                .cloned()
                .unwrap_or_default();
            let rec = LaunchRecord {
                index,
                kernel: shown,
                mangled: f.name.clone(),
                grid: req.grid,
                block: req.block,
                dyn_smem: req.dyn_smem as u32,
                stream: req.stream as u64,
                analysis,
                widths,
                parent: parent.map(|p| p.record.clone()),
                host_launch,
            };
            if let Some(file) = &mut self.records
                && let Ok(line) = serde_json::to_string(&rec)
            {
                let _ = writeln!(file, "{line}");
                let _ = file.flush();
            }
        }
        if code != err::SUCCESS {
            self.sticky = Some(code);
            return Err(code);
        }
        Ok(crate::devtree::GridDone {
            index,
            printf_time: t0,
            module: f.module,
            grid: req.grid,
            block: req.block,
            launches: device_launches,
        })
    }

    /// Issues a copy (`src` 0: a memset) of `n` bytes on stream `key` in the streams' order:
    /// it writes `dst` and reads `src` where they are device memory. `sync`: a synchronous
    /// `cudaMemcpy`, which the host waits for unless it copies device to device. Under `--check`
    /// each race with outstanding work is a notice.
    pub fn issue_copy(&mut self, call: &str, key: usize, dst: u64, src: u64, n: usize, sync: bool) {
        let rows = [(dst, src, n)];
        self.issue_rows(&format!("{call} of {n} bytes"), key, &rows, sync, false);
    }

    /// Issues a copy or set of rows (destination, source or 0 for a set, bytes) on stream `key`
    /// (or as the current node of a graph launch), named `what`: its footprint is the rows' bytes
    /// in device memory exactly (a pitched copy's padding is not in it). `sync` as for
    /// [`Runtime::issue_copy`]: the host waits for it unless every row is device to device.
    /// `device`: it is device work even where no row is in device memory (a copy to or from a
    /// `__constant__` variable, whose bytes are in no footprint).
    pub fn issue_rows(
        &mut self,
        what: &str,
        key: usize,
        rows: &[(u64, u64, usize)],
        sync: bool,
        device: bool,
    ) {
        use warpscope_analysis::footprint::{Ranges, Use};
        let mut writes = Ranges::default();
        let mut reads = Ranges::default();
        let (mut host_side, mut any) = (false, false);
        for &(dst, src, n) in rows {
            if n == 0 {
                continue;
            }
            any = true;
            // a `__constant__` variable's bytes are device memory (its module's bank)
            let cbank = |a: u64| a >= warpscope_analysis::footprint::CONST_BASE;
            let d_dev = cbank(dst) || self.classify(dst, n) == Where::Device;
            let s_dev = src != 0 && (cbank(src) || self.classify(src, n) == Where::Device);
            host_side |= !d_dev || (src != 0 && !s_dev);
            if d_dev {
                writes.insert(dst, dst.saturating_add(n as u64));
            }
            if s_dev {
                reads.insert(src, src.saturating_add(n as u64));
            }
        }
        if !any {
            return;
        }
        let mut sets = BTreeMap::new();
        if !writes.is_empty() {
            sets.insert((Use::Write, None), writes);
        }
        if !reads.is_empty() {
            sets.insert((Use::Read, None), reads);
        }
        if sets.is_empty() && !device {
            // host to host: no device work
            return;
        }
        let work = crate::streams::Work {
            what: match self.order.graph_label() {
                Some(n) => format!("{what} ({n})"),
                None => what.to_string(),
            },
            sets,
            partial: false,
        };
        let (races, clock) = self.order.issue(key, Some(work));
        if self.cfg.check {
            for r in &races {
                let f = self.stream_race_finding(r);
                self.notice(&Notice::StreamRace {
                    line: f.line,
                    message: f.message,
                });
            }
            self.note_dropped();
        }
        if sync && host_side {
            self.order.host_waits_for(&clock);
        }
    }

    /// Work with no footprint on stream `key`: a host function, which waits for the stream's
    /// earlier work and its later work waits for (what it does to device memory is not tracked).
    pub fn issue_host_fn(&mut self, key: usize) {
        self.order.issue(key, None);
    }

    /// Says once that outstanding work was dropped unchecked (`--check`).
    fn note_dropped(&mut self) {
        if self.order.dropped == 1 && !self.dropped_noted {
            self.dropped_noted = true;
            let message = format!(
                "more than {} pieces of device work were outstanding at once (issued after the host last waited for them): the oldest are dropped and not checked against later work on other streams",
                crate::streams::MAX_OUTSTANDING
            );
            self.notice(&Notice::StreamUnchecked { message });
        }
    }

    /// A `stream_race` finding: both pieces of work, their streams, the byte against its
    /// allocation and the lines.
    pub fn stream_race_finding(&self, r: &crate::streams::StreamRace) -> crate::analysis::Finding {
        let at = match self.allocs.range(..=r.address).next_back() {
            Some((&b, a)) if r.address - b < a.len => format!(
                "byte {} of the {}-byte allocation at {b:#x}",
                r.address - b,
                a.len
            ),
            _ if r.address >= warpscope_analysis::footprint::CONST_BASE => {
                // a module's constant bank (see `footprint::const_address`)
                let rel = r.address - warpscope_analysis::footprint::CONST_BASE;
                let (module, off) = ((rel >> 32) as usize, rel & 0xffff_ffff);
                let var = self
                    .modules
                    .get(module)
                    .and_then(|m| m.program.as_ref()?.as_ref().ok())
                    .and_then(|p| {
                        p.vars
                            .iter()
                            .find(|v| v.is_const && off >= v.addr && off - v.addr < v.size)
                    });
                match var {
                    Some(v) => format!(
                        "byte {} of the __constant__ variable `{}`",
                        off - v.addr,
                        crate::names::brief(&crate::names::ncu_name(&v.name))
                    ),
                    None => format!("byte {off:#x} of the constant bank"),
                }
            }
            _ => {
                // a module's `__device__` variable (a symbol copy's side)
                let var = self
                    .modules
                    .iter()
                    .filter_map(|m| m.program.as_ref()?.as_ref().ok())
                    .flat_map(|p| p.vars.iter())
                    .find(|v| !v.is_const && r.address >= v.addr && r.address - v.addr < v.size);
                match var {
                    Some(v) => format!(
                        "byte {} of the __device__ variable `{}`",
                        r.address - v.addr,
                        crate::names::brief(&crate::names::ncu_name(&v.name))
                    ),
                    None => format!("global address {:#x}", r.address),
                }
            }
        };
        let line = |l: Option<u32>| l.map(|l| format!(" (line {l})")).unwrap_or_default();
        let (w1, s1, u1, l1) = &r.first;
        let (w2, s2, u2, l2) = &r.second;
        let why = match &r.graph {
            Some(g) => format!("and no path of {g}'s edges leads from one node to the other"),
            None => "and nothing orders the two (no event recorded after the first and waited for on the second's stream, no synchronisation between)".into(),
        };
        let cut = |w: &str| {
            format!(
                "; {w}'s footprint was cut at {} byte intervals, so races in its later accesses are not reported",
                warpscope_analysis::footprint::MAX_INTERVALS
            )
        };
        let mut cuts = String::new();
        if r.partial.0 {
            cuts += &cut(w1);
        }
        if r.partial.1 {
            cuts += &cut(w2);
        }
        crate::analysis::Finding {
            severity: "error".into(),
            kind: "stream_race".into(),
            line: *l2,
            message: format!(
                "{w2} on {s2} {} {at}{}, which {w1} on {s1} {}{}, {why}: on a GPU they may run at the same time{cuts}",
                u2.verb(),
                line(*l2),
                u1.verb(),
                line(*l1),
            ),
        }
    }

    /// `cudaOccupancyMaxActiveBlocksPerMultiprocessor`
    pub fn max_active_blocks(&mut self, func: usize, block: u32, dyn_smem: usize) -> Result<u32, u32> {
        let regs = self.registers(func).unwrap_or(32);
        let static_smem = self.static_smem(func)? as u32;
        // more dynamic shared memory than the kernel may launch with (48 KB less its static
        // shared memory until cudaFuncAttributeMaxDynamicSharedMemorySize raises it): no block
        // fits (the H200 answered 0 for 98,304 bytes before the kernel opted in, 2 after,
        // calibration/run/bench13/h200/bigsmem.stdout)
        if dyn_smem > self.dyn_smem_limit(func, static_smem as usize) {
            return Ok(0);
        }
        let limits =
            warpscope_model::occupancy::Limits::for_arch(self.arch).map_err(|_| err::INVALID_DEVICE)?;
        let mut l = warpscope_model::occupancy::Launch::new(block, regs);
        l.static_smem = static_smem;
        l.dyn_smem = dyn_smem as u32;
        match warpscope_model::occupancy::occupancy(&limits, &l) {
            Ok(o) => Ok(o.blocks_per_sm),
            // a block over the largest: none fits (the H200 answers cudaSuccess and 0,
            // calibration/cluster/occupancy.cu)
            Err(warpscope_model::occupancy::OccupancyError::Threads { .. }) => Ok(0),
            Err(_) => Err(err::INVALID_VALUE),
        }
    }
}

impl Runtime {
    /// The most dynamic shared memory a launch of `func` may ask for: what
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize` set, else 48 KB less the static shared memory.
    pub fn dyn_smem_limit(&self, func: usize, static_smem: usize) -> usize {
        self.max_dyn_smem
            .get(&func)
            .copied()
            .unwrap_or_else(|| (48 * 1024usize).saturating_sub(static_smem))
    }

    /// A kernel's static shared memory, its module's program loaded if it was not yet (0 where
    /// the emulator cannot load it).
    pub fn static_smem(&mut self, func: usize) -> Result<usize, u32> {
        let f = self
            .functions
            .get(&func)
            .cloned()
            .ok_or(err::INVALID_DEVICE_FUNCTION)?;
        Ok(match self.program(f.module) {
            Ok(p) => p.kernel(&f.name).map(|k| k.static_smem as usize).unwrap_or(0),
            Err(_) => 0,
        })
    }

    /// `cudaOccupancyAvailableDynamicSMemPerBlock`: the dynamic shared memory each of `blocks`
    /// blocks of `threads` threads may use so that all of them fit on an SM, as the H200 answered
    /// in 342 measured cases (calibration/occupancy/dynsmem.cu): the SM's shared memory divided by
    /// `blocks`, rounded down to 128 bytes, less the kernel's static shared memory, at most the
    /// kernel's dynamic limit (48 KB less the static, or what
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize` set); `cudaErrorInvalidValue` where nothing
    /// is left, or `blocks` is not 1 to what the threads, registers and the block limit allow.
    pub fn available_dyn_smem(&mut self, func: usize, blocks: i32, threads: i32) -> Result<usize, u32> {
        let static_smem = self.static_smem(func)?;
        if blocks <= 0 || threads <= 0 {
            return Err(err::INVALID_VALUE);
        }
        let regs = self.registers(func).unwrap_or(32);
        let limits =
            warpscope_model::occupancy::Limits::for_arch(self.arch).map_err(|_| err::INVALID_DEVICE)?;
        // the blocks that fit by threads, registers and the block limit (no shared memory)
        let l = warpscope_model::occupancy::Launch::new(threads as u32, regs);
        let fit = warpscope_model::occupancy::occupancy(&limits, &l)
            .map(|o| o.blocks_per_sm)
            .map_err(|_| err::INVALID_VALUE)?;
        if blocks as u32 > fit {
            return Err(err::INVALID_VALUE);
        }
        let cap = self.dyn_smem_limit(func, static_smem);
        let per = (self.device.smem_per_sm / blocks as usize) / 128 * 128;
        per.checked_sub(static_smem)
            .map(|p| p.min(cap))
            .ok_or(err::INVALID_VALUE)
    }
}

fn disassemble(cubin: &[u8]) -> Result<Vec<warpscope_toolchain::sass::SassKernel>, String> {
    let root = warpscope_toolchain::locate::find_root().map_err(|e| e.to_string())?;
    let nvdisasm = root.bin("nvdisasm");
    if !nvdisasm.exists() {
        return Err(format!("no nvdisasm in {}", root.root.display()));
    }
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("warpscope-cudart-{}-{seq}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join("module.cubin");
    let r = std::fs::write(&path, cubin)
        .map_err(|e| e.to_string())
        .and_then(|_| warpscope_toolchain::sass::disassemble(&nvdisasm, &path).map_err(|e| e.to_string()))
        .and_then(|text| warpscope_toolchain::sass::parse_disassembly(&text).map_err(|e| e.to_string()));
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// A launch's footprint sets with its constant-bank reads (at `footprint::CONST_BASE` + offset)
/// moved to its module's span ([`warpscope_analysis::footprint::const_address`]), where copies to
/// that module's `__constant__` variables write.
fn const_bank_of<K: Ord>(
    sets: BTreeMap<(warpscope_analysis::footprint::Use, K), warpscope_analysis::footprint::Ranges>,
    module: usize,
) -> BTreeMap<(warpscope_analysis::footprint::Use, K), warpscope_analysis::footprint::Ranges> {
    use warpscope_analysis::footprint::{CONST_BASE, Ranges, const_address};
    if module == 0 {
        return sets;
    }
    sets.into_iter()
        .map(|(k, r)| {
            if r.iter().all(|(_, hi)| hi <= CONST_BASE) {
                return (k, r);
            }
            let mut moved = Ranges::default();
            for (lo, hi) in r.iter() {
                if lo >= CONST_BASE {
                    moved.insert(
                        const_address(module, lo - CONST_BASE),
                        const_address(module, hi - CONST_BASE),
                    );
                } else {
                    moved.insert(lo, hi);
                }
            }
            (k, moved)
        })
        .collect()
}
