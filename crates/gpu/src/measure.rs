//! One kernel launch on the local GPU with given bytes, and its counters from Nsight Compute.
//!
//! [`launch`] loads a PTX or CUBIN image, uploads every buffer argument, passes every argument as
//! its raw bytes (a buffer as its device address), launches `grid` x `block` threads with the given
//! dynamic shared memory, and reads every buffer back. [`profile`] runs a program (normally this
//! one, with a hidden flag that makes it do only the launch) under `ncu --csv` and returns the
//! parsed rows, so that the parent never loads the profiler's injection into itself.
//!
//! Nothing here knows what the counters should be: `warpscope_measure::launch` compares them with
//! the predictions.

use std::ffi::{OsStr, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;

use cudarc::driver::{CudaContext, DevicePtr, sys};
use serde::Serialize;

use crate::device::{self, DeviceInfo};
use crate::error::DriverCtx;
use crate::lab::ncu::{self, NcuRow};
use crate::{Error, Result};

/// The code to load.
#[derive(Clone, Debug)]
pub enum Image {
    /// PTX text, compiled by the driver's JIT for the device.
    Ptx(String),
    /// A CUBIN for the device's architecture.
    Cubin(Vec<u8>),
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelArg {
    /// A parameter passed by value as these bytes (a scalar or a struct).
    Bytes(Vec<u8>),
    /// A global buffer with these initial bytes; the kernel receives its device address.
    Buffer(Vec<u8>),
}

/// A launch: the image, the kernel and its configuration.
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    /// The module.
    pub image: Image,
    /// The entry's name in the module (mangled where the source is C++).
    pub kernel: String,
    /// Grid dimensions in blocks.
    pub grid: [u32; 3],
    /// Block dimensions in threads.
    pub block: [u32; 3],
    /// Dynamic shared memory per block, bytes.
    pub dyn_smem: u32,
    /// The arguments in parameter order.
    pub args: Vec<KernelArg>,
}

/// What a launch left behind.
#[derive(Clone, Debug)]
pub struct LaunchResult {
    /// The GPU used.
    pub device: DeviceInfo,
    /// Final bytes of each argument: `Some` for buffers.
    pub buffers: Vec<Option<Vec<u8>>>,
    /// The `.version` the PTX was loaded with when the driver refused its own (see
    /// [`LOWER_PTX_VERSIONS`]).
    pub ptx_version: Option<String>,
}

/// Runs the launch once on device `ordinal` and reads every buffer back.
pub fn launch(ordinal: usize, spec: &LaunchSpec) -> Result<LaunchResult> {
    let info = device::query(ordinal)?;
    let ctx = CudaContext::new(ordinal).ctx("cuCtxCreate (primary context)")?;
    let stream = ctx.default_stream();
    let mut ptx_version = None;
    let module = match &spec.image {
        Image::Ptx(p) => {
            let mut r = ctx.load_module(cudarc::nvrtc::Ptx::from_src(p.clone()));
            // PTX from a newer toolkit than the driver: lower the `.version` line alone (no
            // instruction is changed) until the JIT takes it.
            for v in LOWER_PTX_VERSIONS {
                match &r {
                    Err(e) if e.0 == sys::cudaError_enum::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => {
                        if let Some(lowered) = with_ptx_version(p, v) {
                            r = ctx.load_module(cudarc::nvrtc::Ptx::from_src(lowered));
                            ptx_version = Some(v.to_string());
                        }
                    }
                    _ => break,
                }
            }
            r
        }
        Image::Cubin(b) => ctx.load_module(cudarc::nvrtc::Ptx::from_binary(b.clone())),
    }
    .ctx("cuModuleLoadData")?;
    let f = module
        .load_function(&spec.kernel)
        .ctx(&format!("cuModuleGetFunction({})", spec.kernel))?;
    if spec.dyn_smem > 48 * 1024 {
        f.set_attribute(
            sys::CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            spec.dyn_smem as i32,
        )
        .ctx("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")?;
    }
    let mut slices = Vec::new();
    for a in &spec.args {
        slices.push(match a {
            KernelArg::Buffer(bytes) if !bytes.is_empty() => {
                Some(stream.clone_htod(bytes).ctx("cuMemcpyHtoD")?)
            }
            KernelArg::Buffer(_) => Some(stream.alloc_zeros::<u8>(1).ctx("cuMemAlloc")?),
            KernelArg::Bytes(_) => None,
        });
    }
    // The parameter values: each argument's bytes, a buffer's as its 8-byte device address.
    let mut values: Vec<Vec<u8>> = Vec::with_capacity(spec.args.len());
    for (a, s) in spec.args.iter().zip(&slices) {
        values.push(match (a, s) {
            (KernelArg::Bytes(b), _) => {
                // Keep at least 8 bytes of storage so that every parameter pointer is aligned.
                let mut v = b.clone();
                v.resize(v.len().max(8).next_multiple_of(8), 0);
                v
            }
            (KernelArg::Buffer(_), Some(s)) => {
                let (ptr, _sync) = s.device_ptr(&stream);
                ptr.to_le_bytes().to_vec()
            }
            (KernelArg::Buffer(_), None) => unreachable!("every buffer has a slice"),
        });
    }
    // u64-aligned copies of the values (the driver reads each parameter through its pointer).
    let mut aligned: Vec<Vec<u64>> = values
        .iter()
        .map(|v| {
            v.chunks(8)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..c.len()].copy_from_slice(c);
                    u64::from_le_bytes(w)
                })
                .collect()
        })
        .collect();
    let mut params: Vec<*mut c_void> = aligned.iter_mut().map(|v| v.as_mut_ptr().cast()).collect();
    // SAFETY: `params` holds one pointer per kernel parameter, each to storage at least as large as
    // the parameter (argument counts and sizes were checked by the caller against the PTX); the
    // buffers outlive the launch, which is synchronised before they are read or dropped.
    unsafe {
        cudarc::driver::result::launch_kernel(
            f.cu_function(),
            (spec.grid[0], spec.grid[1], spec.grid[2]),
            (spec.block[0], spec.block[1], spec.block[2]),
            spec.dyn_smem,
            stream.cu_stream(),
            &mut params,
        )
    }
    .ctx(&format!("cuLaunchKernel({})", spec.kernel))?;
    stream
        .synchronize()
        .ctx("cuStreamSynchronize (after the launch)")?;
    let mut buffers = Vec::with_capacity(spec.args.len());
    for (a, s) in spec.args.iter().zip(&slices) {
        buffers.push(match (a, s) {
            (KernelArg::Buffer(b), Some(s)) if !b.is_empty() => {
                Some(stream.clone_dtoh(s).ctx("cuMemcpyDtoH")?)
            }
            (KernelArg::Buffer(_), _) => Some(Vec::new()),
            _ => None,
        });
    }
    Ok(LaunchResult {
        device: info,
        buffers,
        ptx_version,
    })
}

/// The PTX ISA versions tried, in order, when the driver's JIT refuses a module's own.
pub const LOWER_PTX_VERSIONS: [&str; 4] = ["9.0", "8.8", "8.5", "8.0"];

/// `ptx` with its `.version` directive replaced by `version` (`None` without one).
pub fn with_ptx_version(ptx: &str, version: &str) -> Option<String> {
    let start = ptx.find(".version ")?;
    let end = ptx[start..].find('\n').map_or(ptx.len(), |e| start + e);
    Some(format!("{}.version {version}{}", &ptx[..start], &ptx[end..]))
}

/// Versions of what measured: the device, the driver and Nsight Compute.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Versions {
    /// Device name.
    pub device: String,
    /// Compute capability, `X.Y`.
    pub cc: String,
    /// CUDA driver version (`13.0`).
    pub driver: String,
    /// `ncu --version`'s last line, when ncu was found.
    pub ncu: Option<String>,
}

impl Versions {
    /// The one-line header of a measured table: `device, CC X.Y, driver D | ncu V`.
    pub fn header(&self) -> String {
        format!(
            "{}, CC {}, CUDA driver {} | {}",
            self.device,
            self.cc,
            self.driver,
            self.ncu.as_deref().unwrap_or("ncu not used")
        )
    }
}

/// The versions of device `ordinal`, its driver and `ncu` (when given).
pub fn versions(ordinal: usize, ncu_path: Option<&Path>) -> Result<Versions> {
    let d = device::query(ordinal)?;
    let ncu = ncu_path.and_then(|p| {
        let out = Command::new(p).arg("--version").output().ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim().to_string())
    });
    Ok(Versions {
        device: d.name,
        cc: format!("{}.{}", d.cc_major, d.cc_minor),
        driver: d.driver_version,
        ncu,
    })
}

/// Where the counters come from, or why there are none.
pub fn find_ncu(explicit: Option<&Path>) -> Option<PathBuf> {
    ncu::find_ncu(explicit)
}

/// Runs `exe args...` under `ncu --csv` with `metrics`, profiling only kernels whose name matches
/// `kernel_regex` when given, and returns the rows in launch order with ncu's CSV as written. `--clock-control none` keeps
/// the clocks as found; `--cache-control none` keeps the caches (counts of shared memory do not
/// depend on either).
pub fn profile<I, S>(
    ncu_path: &Path,
    exe: &Path,
    args: I,
    metrics: &[&str],
    kernel_regex: Option<&str>,
) -> Result<(Vec<NcuRow>, String)>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let p = profile_program(ncu_path, exe, args, metrics, kernel_regex)?;
    if !p.ncu_succeeded {
        return Err(Error::Ncu(p.failure));
    }
    let rows = parse_raw_csv(&p.csv)?;
    Ok((rows, p.csv))
}

/// What one program run under ncu left: ncu's CSV, the program's own standard output (ncu's
/// `==PROF==` lines removed) and exit status.
#[derive(Clone, Debug)]
pub struct Profiled {
    /// ncu's CSV log, as written.
    pub csv: String,
    /// The program's standard output.
    pub stdout: Vec<u8>,
    /// The exit status ncu returned (the program's, unless ncu itself failed).
    pub status: Option<i32>,
    /// Whether ncu exited successfully.
    pub ncu_succeeded: bool,
    /// When it did not: its first messages.
    pub failure: String,
}

/// Runs `exe args...` under `ncu --csv --page raw` with `metrics` (see [`profile`]) and keeps the
/// program's output: a whole program measured as it runs on the GPU.
pub fn profile_program<I, S>(
    ncu_path: &Path,
    exe: &Path,
    args: I,
    metrics: &[&str],
    kernel_regex: Option<&str>,
) -> Result<Profiled>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    profile_program_with(ncu_path, exe, args, metrics, kernel_regex, |c| c.output())
}

/// [`profile_program`], with ncu run by `run` (which returns what [`Command::output`] does): for a
/// caller that supervises its children.
pub fn profile_program_with<I, S>(
    ncu_path: &Path,
    exe: &Path,
    args: I,
    metrics: &[&str],
    kernel_regex: Option<&str>,
    run: impl FnOnce(&mut Command) -> std::io::Result<std::process::Output>,
) -> Result<Profiled>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let log = std::env::temp_dir().join(format!(
        "warpscope-ncu-{}-{}.csv",
        std::process::id(),
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut cmd = Command::new(ncu_path);
    cmd.args([
        "--csv",
        "--page",
        "raw",
        "--clock-control",
        "none",
        "--cache-control",
        "none",
        "--target-processes",
        "all",
        "--log-file",
    ])
    .arg(&log)
    .arg("--metrics")
    .arg(metrics.join(","));
    if let Some(k) = kernel_regex {
        cmd.args(["-k", &format!("regex:{k}")]);
    }
    cmd.arg(exe).args(args);
    let out = run(&mut cmd).map_err(|e| Error::Ncu(format!("cannot run {}: {e}", ncu_path.display())))?;
    let csv = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    let failure = if out.status.success() {
        String::new()
    } else {
        format!(
            "{} exited with {}: {}",
            ncu_path.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .chain(String::from_utf8_lossy(&out.stdout).lines())
                .chain(csv.lines())
                .filter(|l| !l.trim().is_empty())
                .take(12)
                .collect::<Vec<_>>()
                .join(" | ")
        )
    };
    Ok(Profiled {
        csv,
        stdout: strip_ncu_messages(&out.stdout),
        status: out.status.code(),
        ncu_succeeded: out.status.success(),
        failure,
    })
}

/// A program's output with Nsight Compute's own lines (`==PROF==`, `==WARNING==`, `==ERROR==`)
/// removed.
pub fn strip_ncu_messages(out: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(out.len());
    for line in out.split_inclusive(|&b| b == b'\n') {
        let is_ncu = [b"==PROF==".as_slice(), b"==WARNING==", b"==ERROR=="]
            .iter()
            .any(|p| line.starts_with(p));
        if !is_ncu {
            v.extend_from_slice(line);
        }
    }
    v
}

/// Parses `ncu --csv --page raw` output: one row per launch, one column per metric (the second
/// line gives the units). Lines before the header (`==PROF==` messages) are skipped. Returned as
/// one [`NcuRow`] per launch and metric, launches numbered in order.
pub fn parse_raw_csv(text: &str) -> Result<Vec<NcuRow>> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| l.starts_with('"'));
    let Some((_, head)) = lines.next() else {
        return Err(Error::Ncu(
            "no CSV header in ncu's output (did the program launch a kernel?)".into(),
        ));
    };
    let header = ncu::split_csv_line(head);
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| Error::Ncu(format!("CSV header lacks the column \"{name}\"")))
    };
    let (c_id, c_kernel) = (col("ID")?, col("Kernel Name")?);
    let metric_cols: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| h.contains("__"))
        .map(|(i, _)| i)
        .collect();
    let mut rows = Vec::new();
    let mut units: Option<Vec<String>> = None;
    for (i, l) in lines {
        let f = ncu::split_csv_line(l);
        if f.len() != header.len() {
            return Err(Error::Ncu(format!(
                "line {}: {} fields where the header has {}",
                i + 1,
                f.len(),
                header.len()
            )));
        }
        // The units line has an empty ID.
        if f[c_id].is_empty() {
            units = Some(f);
            continue;
        }
        let id: u32 = f[c_id]
            .parse()
            .map_err(|_| Error::Ncu(format!("line {}: ID {:?} is not a number", i + 1, f[c_id])))?;
        for &c in &metric_cols {
            let v = f[c].replace(',', "");
            rows.push(NcuRow {
                id,
                kernel: f[c_kernel].clone(),
                metric: header[c].clone(),
                unit: units.as_ref().map(|u| u[c].clone()).unwrap_or_default(),
                value: v.trim().parse().ok(),
            });
        }
    }
    Ok(rows)
}

/// Parses either CSV page ncu writes with `--csv`: the raw page (`--page raw`: one row per launch,
/// one column per metric) or the details page (the default: one row per launch and metric, with
/// `Metric Name`/`Metric Value` columns). Lines before the header are skipped.
pub fn parse_any_csv(text: &str) -> Result<Vec<NcuRow>> {
    let header = text.lines().find(|l| l.starts_with("\"ID\""));
    match header {
        Some(h) if ncu::split_csv_line(h).iter().any(|c| c == "Metric Name") => ncu::parse_csv(text),
        _ => parse_raw_csv(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "==PROF== Connected to process 7 (/x/warpscope)\n\
\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"smsp__sass_inst_executed_op_shared_ld.sum\"\n\
\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\"\n\
\"0\",\"7\",\"warpscope\",\"h\",\"k\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"1,024\",\"32\"\n\
\"1\",\"7\",\"warpscope\",\"h\",\"k2\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"n/a\",\"0\"\n";

    #[test]
    fn raw_page_rows_per_launch_and_metric() {
        let rows = parse_raw_csv(RAW).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(
            ncu::metric(&rows, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            Some(1024.0)
        );
        assert_eq!(rows[1].unit, "inst");
        assert_eq!(rows[2].kernel, "k2");
        assert_eq!(rows[2].value, None);
        assert_eq!(ncu::launch_count(&rows), 2);
    }

    #[test]
    fn both_csv_pages_read_alike() {
        let details = "==PROF== Connected\nprogram output\n\
\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\
\"0\",\"7\",\"a\",\"h\",\"k\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\",\"1,024\"\n\
\"1\",\"7\",\"a\",\"h\",\"k2\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"0\"\n";
        let d = parse_any_csv(details).unwrap();
        assert_eq!(
            ncu::metric(&d, 0, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            Some(1024.0)
        );
        assert_eq!(d[1].kernel, "k2");
        let r = parse_any_csv(RAW).unwrap();
        assert_eq!(r, parse_raw_csv(RAW).unwrap());
        assert!(parse_any_csv("no csv").is_err());
    }

    #[test]
    fn ncu_lines_leave_the_program_output() {
        let out =
            b"==PROF== Connected to process 1\nTest PASSED\n==WARNING== note\nsum 3\n==PROF== Disconnected";
        assert_eq!(strip_ncu_messages(out), b"Test PASSED\nsum 3\n");
    }

    #[test]
    fn ptx_version_line_alone_is_replaced() {
        let ptx = "//\n.version 9.5\n.target sm_90\nld.shared.u32 %r1, [%r2];\n";
        assert_eq!(
            with_ptx_version(ptx, "9.0").unwrap(),
            "//\n.version 9.0\n.target sm_90\nld.shared.u32 %r1, [%r2];\n"
        );
        assert_eq!(with_ptx_version(".target sm_90\n", "9.0"), None);
    }

    #[test]
    fn raw_page_errors_name_the_line() {
        assert!(
            parse_raw_csv("nothing")
                .unwrap_err()
                .to_string()
                .contains("no CSV header")
        );
        let bad = "\"ID\",\"Kernel Name\",\"a__b\"\n\"x\",\"k\",\"1\"\n";
        assert!(parse_raw_csv(bad).unwrap_err().to_string().contains("line 2"));
        let short = "\"ID\",\"Kernel Name\",\"a__b\"\n\"0\",\"k\"\n";
        assert!(parse_raw_csv(short).unwrap_err().to_string().contains("2 fields"));
    }
}
