//! `warpscope lab`: experiments on a real GPU, predictions beside measurements.
//!
//! [`Lab::open`] checks for the driver, a device and NVRTC (typed errors when absent), then each
//! [`Lab::run`] compiles its kernels with NVRTC for the device's own `sm_XY` (a CUBIN, so no PTX JIT
//! is involved), draws random inputs, poisons outputs, times with CUDA events (warm-up, median of
//! [`LabConfig::reps`] runs), verifies every output against a CPU reference and returns an
//! [`ExperimentReport`]. Counters come from Nsight Compute when it is present: the lab re-runs the
//! program given as [`LabConfig::self_exe`] under `ncu --csv` with `lab --profile-child NAME` and
//! parses the CSV ([`ncu`]); [`profile_child`] is what that child runs.
//!
//! Predictions come in through [`Predictor`] so that this crate does not depend on the emulator;
//! [`GroundTruth`] supplies earlier H100 measurements, labelled as such.

mod experiments;
pub mod kernels;
pub mod ncu;
pub mod reference;
pub mod stats;
pub mod timeline;

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, sys};
use serde::Serialize;

use crate::device::{self, DeviceInfo};
use crate::error::DriverCtx;
use crate::nvrtc::{CompileOptions, Compiled, Nvrtc};
use crate::{Error, Result};
use stats::Stats;

/// The experiments, in the order `warpscope lab` runs them, with one line each.
pub const EXPERIMENTS: &[(&str, &str)] = &[
    ("device", "device query of the GPU used"),
    (
        "smem",
        "seed 000's 12 shared-memory tile kernels: time, ncu wavefronts vs expected",
    ),
    (
        "divergence",
        "seed 002's mathKernel1/2 with -G and -O3: branch efficiency (ncu) vs expected, time",
    ),
    (
        "adjdiff",
        "seeds 003/004 adjacent difference: host, global, shared, 2 barriers, dynamic, vec4 vs copy",
    ),
    (
        "streams",
        "seed 001 copy/compute overlap with 1-16 streams, pinned vs pageable, SVG timeline",
    ),
    (
        "hostmem",
        "pageable, pinned, portable, mapped memory: H2D/D2H bandwidth by size, zero-copy kernel",
    ),
    (
        "regs",
        "-maxrregcount sweep: registers, spills, predicted occupancy, time",
    ),
    (
        "transpose",
        "transpose: naive, shared, padded, 64-wide padded vs copy bandwidth",
    ),
    (
        "occupancy",
        "driver occupancy vs warpscope's calculator; achieved occupancy from ncu",
    ),
];

/// Checks experiment names; an unknown one is an input error listing the known ones.
pub fn validate_names(names: &[String]) -> Result<Vec<&'static str>> {
    if names.is_empty() {
        return Ok(EXPERIMENTS.iter().map(|e| e.0).collect());
    }
    names
        .iter()
        .map(|n| {
            EXPERIMENTS.iter().find(|e| e.0 == n).map(|e| e.0).ok_or_else(|| {
                Error::Input(format!(
                    "unknown experiment `{n}`; known: {}",
                    EXPERIMENTS.iter().map(|e| e.0).collect::<Vec<_>>().join(", ")
                ))
            })
        })
        .collect()
}

/// Settings of a lab run.
#[derive(Clone, Debug)]
pub struct LabConfig {
    /// Device ordinal.
    pub device: usize,
    /// NVRTC library or directory (`--nvrtc`).
    pub nvrtc: Option<PathBuf>,
    /// Nsight Compute (`--ncu`); when `None`, looked for on `PATH` and in the usual places.
    pub ncu: Option<PathBuf>,
    /// Turn ncu off.
    pub no_ncu: bool,
    /// This program, re-run under ncu with `lab --profile-child NAME`.
    pub self_exe: Option<PathBuf>,
    /// Timed repetitions (median of these; at least 20).
    pub reps: usize,
    /// Seed of the random inputs.
    pub seed: u64,
}

/// Where expected values come from. The CLI implements it with `warpscope analyze`; until then,
/// [`GroundTruth`] gives measured H100 values and says so in [`Predictor::label`].
pub trait Predictor {
    /// What the expectations are ("prediction (warpscope analyze)", "H100 ground truth", ...).
    fn label(&self) -> String;
    /// Expected shared-memory (load, store) wavefronts of one block of `kernel` from `src`, launched
    /// with `block` threads and `dyn_smem` bytes of dynamic shared memory.
    fn smem_wavefronts(
        &self,
        kernel: &str,
        src: &str,
        block: (u32, u32),
        dyn_smem: u32,
    ) -> Option<(u64, u64)>;
    /// Expected branch efficiency (percent of uniform branch targets) of `kernel`, built with `-G`
    /// when `debug`, launched as `grid` x `block` threads.
    fn branch_efficiency(&self, kernel: &str, src: &str, debug: bool, grid: u32, block: u32) -> Option<f64>;
}

/// Ground-truth counts measured with ncu on an H100 (CC 9.0, driver 580, CUDA 13.0): not predictions.
#[derive(Clone, Copy, Debug, Default)]
pub struct GroundTruth;

/// (kernel, load wavefronts, store wavefronts) for one 32x32 or 32x16 block (H100 ncu).
pub const GROUND_TRUTH_SMEM: &[(&str, u64, u64)] = &[
    ("sqRowRow", 32, 32),
    ("sqColCol", 1024, 1024),
    ("sqRowCol", 1024, 32),
    ("sqRowColDyn", 1024, 32),
    ("sqRowColPad", 32, 32),
    ("sqRowColDynPad", 32, 32),
    ("rectRowRow", 16, 16),
    ("rectColCol", 256, 256),
    ("rectRowCol", 256, 16),
    ("rectRowColDyn", 256, 16),
    ("rectRowColPad", 16, 16),
    ("rectRowColDynPad", 16, 16),
];

impl Predictor for GroundTruth {
    fn label(&self) -> String {
        "H100 ground truth (ncu, earlier run; not a prediction)".into()
    }
    fn smem_wavefronts(&self, kernel: &str, _: &str, _: (u32, u32), _: u32) -> Option<(u64, u64)> {
        GROUND_TRUTH_SMEM
            .iter()
            .find(|g| g.0 == kernel)
            .map(|g| (g.1, g.2))
    }
    fn branch_efficiency(&self, kernel: &str, _: &str, debug: bool, grid: u32, block: u32) -> Option<f64> {
        if (grid, block) != (64, 64) {
            return None;
        }
        match (kernel, debug) {
            ("mathKernel1", true) => Some(80.0),
            ("mathKernel2", true) | (_, false) => Some(100.0),
            _ => None,
        }
    }
}

/// Progress of an experiment (the CLI draws a bar on stderr).
pub trait Progress {
    /// An experiment starts with about `steps` steps.
    fn begin(&self, experiment: &str, steps: u64);
    /// One step done.
    fn step(&self, what: &str);
    /// The experiment ended.
    fn end(&self);
}

/// A [`Progress`] that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _: &str, _: u64) {}
    fn step(&self, _: &str) {}
    fn end(&self) {}
}

/// An acceptance check of an experiment.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// What is checked.
    pub what: String,
    /// The measured value.
    pub value: f64,
    /// The bound it must reach.
    pub target: f64,
    /// Whether it did.
    pub pass: bool,
}

impl Check {
    /// `value >= target`.
    pub fn at_least(what: impl Into<String>, value: f64, target: f64) -> Self {
        Check {
            what: what.into(),
            value,
            target,
            pass: value >= target,
        }
    }
}

/// The result of one experiment: a table for people and `data` for machines.
#[derive(Clone, Debug, Serialize)]
pub struct ExperimentReport {
    /// Experiment name.
    pub name: String,
    /// The GPU.
    pub device: String,
    /// Table header.
    pub headers: Vec<String>,
    /// Table rows.
    pub rows: Vec<Vec<String>>,
    /// Acceptance checks.
    pub checks: Vec<Check>,
    /// Notes (what the expected values are, missing tools, ...).
    pub notes: Vec<String>,
    /// All numbers, structured.
    pub data: serde_json::Value,
    /// SVG drawings (file stem, document); not in the JSON.
    #[serde(skip)]
    pub svgs: Vec<(String, String)>,
}

/// An open GPU: context, a stream, NVRTC and the device's properties.
pub struct Lab {
    cfg: LabConfig,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    nvrtc: Nvrtc,
    info: DeviceInfo,
    copy_gbs: Cell<Option<f64>>,
}

impl Lab {
    /// Opens the device and NVRTC (typed "unavailable" errors when absent).
    pub fn open(cfg: LabConfig) -> Result<Lab> {
        let info = device::query(cfg.device)?;
        let nvrtc = Nvrtc::load(cfg.nvrtc.as_deref())?;
        let ctx = CudaContext::new(cfg.device).ctx("cuCtxCreate (primary context)")?;
        // SAFETY: no CudaSlice is shared between streams while tracking is off: every experiment
        // synchronises its streams before reusing or reading a buffer.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().ctx("cuStreamCreate")?;
        Ok(Lab {
            cfg,
            ctx,
            stream,
            nvrtc,
            info,
            copy_gbs: Cell::new(None),
        })
    }

    /// The device's properties.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// NVRTC in use.
    pub fn nvrtc(&self) -> &Nvrtc {
        &self.nvrtc
    }

    fn cc(&self) -> u32 {
        self.info.cc_major * 10 + self.info.cc_minor
    }

    /// Compiles `src` for this device (CUBIN) and loads it.
    fn module(
        &self,
        src: &str,
        name: &str,
        f: impl FnOnce(&mut CompileOptions),
    ) -> Result<(Arc<CudaModule>, Compiled)> {
        let mut opts = CompileOptions::for_cc(self.cc());
        opts.extra.push("--ptxas-options=-v".into());
        f(&mut opts);
        let c = self.nvrtc.compile(src, name, &opts)?;
        let bin = c
            .cubin
            .clone()
            .ok_or_else(|| Error::Input(format!("{name}: no CUBIN produced")))?;
        let m = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(bin))
            .ctx(&format!("cuModuleLoadData({name})"))?;
        Ok((m, c))
    }

    fn function(m: &Arc<CudaModule>, name: &str) -> Result<CudaFunction> {
        m.load_function(name).ctx(&format!("cuModuleGetFunction({name})"))
    }

    /// Times `f` (which enqueues work on `stream`) with events: `warmup` untimed runs, then the
    /// configured number of timed runs; the median is what the tables show.
    fn time(&self, warmup: usize, mut f: impl FnMut() -> Result<()>) -> Result<Stats> {
        for _ in 0..warmup {
            f()?;
        }
        self.stream.synchronize().ctx("cuStreamSynchronize (warm-up)")?;
        let start = self
            .ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .ctx("cuEventCreate")?;
        let end = self
            .ctx
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
            .ctx("cuEventCreate")?;
        let mut ms = Vec::with_capacity(self.cfg.reps);
        for _ in 0..self.cfg.reps.max(20) {
            start.record(&self.stream).ctx("cuEventRecord")?;
            f()?;
            end.record(&self.stream).ctx("cuEventRecord")?;
            ms.push(f64::from(start.elapsed_ms(&end).ctx("cuEventElapsedTime")?));
        }
        Stats::of(&ms).ok_or_else(|| Error::Input("no finite timings".into()))
    }

    /// Runs one experiment.
    pub fn run(
        &self,
        name: &str,
        predictor: &dyn Predictor,
        progress: &dyn Progress,
    ) -> Result<ExperimentReport> {
        let r = match name {
            "device" => experiments::device(self),
            "smem" => experiments::smem(self, predictor, progress),
            "divergence" => experiments::divergence(self, predictor, progress),
            "adjdiff" => experiments::adjdiff(self, progress),
            "streams" => experiments::streams(self, progress),
            "hostmem" => experiments::hostmem(self, progress),
            "regs" => experiments::regs(self, progress),
            "transpose" => experiments::transpose(self, progress),
            "occupancy" => experiments::occupancy_exp(self, progress),
            other => Err(Error::Input(format!("unknown experiment `{other}`"))),
        };
        progress.end();
        r
    }

    /// Runs the experiment's kernels under ncu (re-running this program) and returns the rows, or a
    /// note saying why there are none.
    fn ncu_rows(&self, experiment: &str, metrics: &[&str]) -> std::result::Result<Vec<ncu::NcuRow>, String> {
        if self.cfg.no_ncu {
            return Err("ncu turned off (--no-ncu)".into());
        }
        let Some(ncu_path) = ncu::find_ncu(self.cfg.ncu.as_deref()) else {
            return Err("ncu not found (pass --ncu PATH); counters not measured".into());
        };
        let Some(exe) = &self.cfg.self_exe else {
            return Err("no program to re-run under ncu".into());
        };
        let mut cmd = std::process::Command::new(&ncu_path);
        cmd.args([
            "--csv",
            "--clock-control",
            "none",
            "--target-processes",
            "all",
            "--metrics",
        ])
        .arg(metrics.join(","))
        .arg(exe)
        .args(["lab", "--profile-child", experiment, "--device"])
        .arg(self.cfg.device.to_string());
        if let Some(n) = &self.cfg.nvrtc {
            cmd.arg("--nvrtc").arg(n);
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", ncu_path.display()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "ncu exited with {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .chain(text.lines())
                    .take(8)
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
        }
        ncu::parse_csv(&text).map_err(|e| e.to_string())
    }
}

/// What `warpscope lab --profile-child NAME` runs under ncu: each profiled launch of the experiment
/// once, in the order its parent expects. Returns the launch labels.
pub fn profile_child(cfg: LabConfig, experiment: &str) -> Result<Vec<String>> {
    let lab = Lab::open(cfg)?;
    experiments::profile_launches(&lab, experiment)
}
