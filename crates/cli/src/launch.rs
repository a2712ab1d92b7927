//! Launch flags shared by every command that emulates a kernel (`analyze`, `check`, `fix`,
//! `report`): the input file (`.cu`, `.ptx`, or a binary carrying PTX), how to compile it, the
//! kernel, grid and block shapes, dynamic shared memory, the kernel arguments, sampling, and where
//! access widths come from. They become a `warpscope_driver::Request`; the driver does the rest.

use std::path::PathBuf;

use warpscope_driver::{CompileOptions, Request, Sections, WidthsFrom};
use warpscope_model::arch::Arch;

/// Flags that describe one kernel launch.
#[derive(clap::Args, Debug, Clone)]
pub struct LaunchArgs {
    /// The kernel's file: CUDA source (`.cu`, compiled with NVRTC or nvcc, `-lineinfo`), PTX, or a
    /// binary that carries PTX (`.cubin`/fatbinary/object/executable; read with cuobjdump).
    pub file: PathBuf,
    /// Kernel: plain name (`blockSum`), with template arguments (`blockSum<256>`), full signature
    /// (`blockSum<256>(float const*, float*)`) or mangled; may be omitted when the file has one.
    #[arg(long, short = 'k')]
    pub kernel: Option<String>,
    /// Grid shape in blocks: X[,Y[,Z]].
    #[arg(long, value_parser = dims)]
    pub grid: [u32; 3],
    /// Block shape in threads: X[,Y[,Z]].
    #[arg(long, value_parser = dims)]
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    #[arg(long, default_value_t = 0)]
    pub dyn_smem: u32,
    /// A kernel argument, in parameter order: `u32:V i32:V u64:V i64:V f32:V f64:V`, `buf:BYTES`
    /// (deterministic pseudo-random bytes), `buf:BYTES:zero`, `buf:@FILE`, a struct by value
    /// `struct:FIELD,FIELD,...` in C layout, or raw bytes `bytes:HEX`. A field is `TYPE:V` (i8 u8 i16
    /// u16 i32 u32 i64 u64 f32 f64), an array `TYPE[N]:V1,...,VN`, a CUDA vector type with its
    /// vector_types.h alignment `float4:X,Y,Z,W` (char1..double4, also `[N]`), or a nested struct
    /// `{FIELDS}` (`{FIELDS}[N]`: N copies); e.g. `struct:i32:3,f32[3]:1,2,3,{u8:1,f64:2.5},float4:1,2,3,4`
    /// (48 bytes). A pointer field `ptr=buf:BYTES[:zero]` or `ptr=buf:@FILE` points to a buffer of its
    /// own (`struct:ptr=buf:4096,i64:64,ptr=buf:4096:zero`); `ptr:ADDRESS` is a raw pointer;
    /// `tensormap(field=1;type=f32;dims=64x64;box=32x8)` a tensor map over pointer field 1. The
    /// size is checked against the parameter's in the PTX.
    #[arg(long = "arg", short = 'a', value_name = "SPEC")]
    pub args: Vec<String>,
    /// Emulate only N blocks spread over the grid and extrapolate the totals (default: every block).
    #[arg(long, value_name = "N")]
    pub blocks: Option<u32>,
    /// Warp instructions one block may execute before the emulator stops it (runaway loops).
    #[arg(long, value_name = "N", default_value_t = 1 << 28)]
    pub max_instructions: u64,
    /// Include directory for a `.cu` (repeatable; the file's own directory is searched first).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Macro for a `.cu`: NAME or NAME=VALUE (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// C++ dialect for a `.cu`: c++17 or c++20.
    #[arg(long = "std", value_name = "c++17|c++20", value_parser = ["c++11", "c++14", "c++17", "c++20"])]
    pub std: Option<String>,
    /// An option passed as is to the compiler of a `.cu` (NVRTC, or nvcc when it compiles; repeatable).
    #[arg(long = "nvrtc-option", value_name = "OPT", allow_hyphen_values = true)]
    pub compiler_options: Vec<String>,
    /// Path to libnvrtc (for `.cu` input) when it is not found by itself.
    #[arg(long, value_name = "PATH")]
    pub nvrtc: Option<PathBuf>,
    /// Use this `nvdisasm -g -c` output as the machine code instead of running ptxas and nvdisasm.
    #[arg(long, value_name = "FILE", conflicts_with = "ptx_widths")]
    pub sass: Option<PathBuf>,
    /// Count accesses as PTX writes them (skip the machine code even when a toolkit is present).
    #[arg(long)]
    pub ptx_widths: bool,
    /// Launch as `cudaLaunchCooperativeKernel` does: every block resident at once, so blocks may
    /// wait for each other (cooperative groups' `grid.sync()`); a grid-wide barrier some block never
    /// reaches is then found. Runs the whole grid (not with --blocks).
    #[arg(long, conflicts_with = "blocks")]
    pub cooperative: bool,
    /// Thread-block cluster dimensions X[,Y[,Z]] (as `cudaLaunchKernelEx` with
    /// `cudaLaunchAttributeClusterDimension` gives them): each divides the grid's, at most 8
    /// blocks (16 with --cluster-nonportable); a kernel's `__cluster_dims__` apply without it.
    /// The blocks of a cluster run together and share their shared memory (`mapa`).
    #[arg(long, value_name = "X,Y,Z", value_parser = dims, conflicts_with = "blocks")]
    pub cluster: Option<[u32; 3]>,
    /// Allow clusters of up to 16 blocks (`cudaFuncAttributeNonPortableClusterSizeAllowed`).
    #[arg(long)]
    pub cluster_nonportable: bool,
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    warpscope_analysis::launchspec::parse_dims(s).map_err(|e| e.to_string())
}

impl LaunchArgs {
    /// The driver's request for these flags on `arch`, answering `sections`.
    pub fn request(&self, arch: &'static Arch, sections: Sections) -> anyhow::Result<Request> {
        let widths = if self.ptx_widths {
            WidthsFrom::PtxLevel
        } else if let Some(p) = &self.sass {
            WidthsFrom::Sass {
                text: warpscope_driver::limits::read_source(p)?,
                from: p.display().to_string(),
            }
        } else {
            WidthsFrom::Auto
        };
        let mut r = Request::new(self.file.clone(), self.grid, self.block, arch);
        r.compile = CompileOptions {
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            std: self.std.clone(),
            extra: self.compiler_options.clone(),
            debug: false,
            nvrtc: self.nvrtc.clone(),
        };
        r.kernel = self.kernel.clone();
        r.dyn_smem = self.dyn_smem;
        r.args = self.args.clone();
        r.blocks = self.blocks;
        r.max_instructions = self.max_instructions;
        r.widths = widths;
        r.sections = sections;
        r.cooperative = self.cooperative;
        r.cluster = self.cluster;
        r.cluster_nonportable = self.cluster_nonportable;
        Ok(r)
    }
}

/// Runs a request, turning a missing tool into exit status 1 ([`crate::exit::Unavailable`]).
pub fn analyze(req: &Request) -> anyhow::Result<warpscope_driver::Analyzed> {
    warpscope_driver::analyze(req).map_err(driver_error)
}

/// A driver error as the binary reports it: a missing tool is [`crate::exit::Unavailable`] (status
/// 1), anything else bad input (status 2).
pub fn driver_error(e: warpscope_driver::Error) -> anyhow::Error {
    match e.kind {
        warpscope_driver::ErrorKind::Unavailable => anyhow::Error::new(crate::exit::Unavailable(e.message)),
        _ => anyhow::Error::new(e),
    }
}

/// A `warpscope_measure` error as the command reports it: the driver's and the GPU's with their
/// exit statuses (a missing tool or GPU is 1), bad input otherwise.
pub fn measure_error(e: warpscope_measure::Error) -> anyhow::Error {
    match e {
        warpscope_measure::Error::Driver(e) => driver_error(e),
        warpscope_measure::Error::Gpu(e) => crate::cmd::device::gpu_error(e),
        e => anyhow::Error::new(e),
    }
}
