//! `analyze --measure`: the analysed launch run once more on the local GPU, with the same argument
//! bytes, its counters measured by Nsight Compute in a child run of this program
//! (`--measure-child`), predicted and measured counters side by side with every difference
//! flagged, and every output buffer compared bit for bit with the emulator's.
//!
//! `--measured FILE` replays a recorded measurement (the JSON of an earlier `--measure` run, with
//! ncu's own CSV inside) through the same comparison, with no GPU: this is how the recorded H100
//! runs under `calibration/measure/` are checked.
//!
//! The GPU side is `warpscope_gpu::measure`; this module turns the analysis into predictions and
//! renders the comparison.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use warpscope_analysis::banks::MatrixKind;
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_gpu::measure::{Image, KernelArg, LaunchSpec};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

use crate::cmd::device::gpu_error;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};
use crate::render::analysis::Analysis;

/// Flags of `--measure`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MeasureArgs {
    /// Run the same launch on the local GPU (under Nsight Compute when found) and put the measured
    /// counters beside the predicted ones; output buffers are compared bit for bit with the
    /// emulator's. Exit status 1 when a counter claimed exact or a buffer differs.
    #[arg(long, conflicts_with = "measured")]
    pub measure: bool,
    /// Compare with a recorded measurement instead (the JSON of an earlier `--measure
    /// --format json` run of the same launch); needs no GPU.
    #[arg(long, value_name = "FILE")]
    pub measured: Option<PathBuf>,
    /// Device ordinal for --measure.
    #[arg(long, default_value_t = 0)]
    pub device: usize,
    /// Nsight Compute executable (default: found on PATH, /usr/local/cuda/bin, /opt/nvidia).
    #[arg(long, value_name = "PATH")]
    pub ncu: Option<PathBuf>,
    /// Measure without ncu (buffers only, no counters).
    #[arg(long)]
    pub no_ncu: bool,
    /// Also write the comparison as a self-contained HTML page (with --measure or --measured).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Internal: only launch the kernel on the GPU (what runs under ncu).
    #[arg(long, hide = true)]
    pub measure_child: bool,
}

impl MeasureArgs {
    /// Whether anything is to be measured or replayed.
    pub fn wanted(&self) -> bool {
        self.measure || self.measured.is_some()
    }
}

/// The shared-memory and branch counters compared, with their Nsight Compute names; then the
/// instructions and wavefronts of LDSM, STSM and LDGSTS (`ldmatrix`, `stmatrix`, `cp.async`; the
/// names calibration/ldsm/ measured them with), compared for a kernel that has them.
pub const METRICS: [&str; 13] = [
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    MatrixKind::Ldsm.ncu_instructions(),
    MatrixKind::Ldsm.ncu_wavefronts(),
    MatrixKind::Stsm.ncu_instructions(),
    MatrixKind::Stsm.ncu_wavefronts(),
    MatrixKind::Ldgsts.ncu_instructions(),
    MatrixKind::Ldgsts.ncu_wavefronts(),
];

/// One counter, predicted beside measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterRow {
    /// Nsight Compute metric name.
    pub metric: String,
    /// warpscope's prediction.
    pub predicted: f64,
    /// ncu's value (`None` when not measured).
    pub measured: Option<f64>,
    /// Whether they are equal (`None` when not measured).
    pub equal: Option<bool>,
    /// `exact` (the model claims equality: shared-memory counters of a whole-grid emulation) or
    /// `estimate` (PTX-level branch figures, extrapolated totals).
    pub claim: String,
}

/// One buffer argument, emulator beside GPU.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BufferRow {
    /// Argument index (0-based).
    pub arg: usize,
    /// Bytes.
    pub bytes: usize,
    /// FNV-1a 64 of the emulator's final bytes (hex).
    pub emulator_fnv1a64: String,
    /// FNV-1a 64 of the GPU's final bytes (hex).
    pub gpu_fnv1a64: String,
    /// Bit for bit equal.
    pub equal: bool,
    /// 32-bit words that differ (when both sides' bytes were at hand).
    pub differing_words: Option<usize>,
    /// The first differing word: `word I: emulator 0x..., GPU 0x...`.
    pub first_difference: Option<String>,
}

/// The comparison: what `--measure` adds to the analysis (JSON field `measurement`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Measurement {
    /// The GPU, its CC, the driver and ncu versions.
    pub measured_on: String,
    /// How the GPU got the code: `CUBIN (NVRTC)` or `PTX (driver JIT)`.
    pub image: String,
    /// Counters side by side.
    pub counters: Vec<CounterRow>,
    /// Buffers side by side.
    pub buffers: Vec<BufferRow>,
    /// Counters claimed exact that differ, plus buffers that differ.
    pub differences: usize,
    /// Why something was not measured or compared.
    pub notes: Vec<String>,
    /// ncu's own output (`--csv --page raw`) of the launch, as recorded.
    pub ncu_csv: Option<String>,
}

/// FNV-1a 64.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The predictions of an analysis, in [`METRICS`] order, with their claims.
pub fn predictions(a: &Analysis) -> Vec<(&'static str, f64, &'static str)> {
    let shared = if a.extrapolated { "estimate" } else { "exact" };
    let mut v = Vec::new();
    // Without the banks section there are no shared-memory predictions to compare.
    if a.sections.is_empty() || a.sections.iter().any(|s| s == "banks") {
        v.extend([
            (METRICS[0], a.shared.load.instructions as f64, shared),
            (METRICS[1], a.shared.load.wavefronts as f64, shared),
            (METRICS[2], a.shared.store.instructions as f64, shared),
            (METRICS[3], a.shared.store.wavefronts as f64, shared),
        ]);
        // LDSM / STSM / LDGSTS of a kernel that has them: the instructions always, the wavefronts
        // exact when every request was inside the measured rules
        for (m, k) in [
            (&a.shared.ldsm, MatrixKind::Ldsm),
            (&a.shared.stsm, MatrixKind::Stsm),
            (&a.shared.ldgsts, MatrixKind::Ldgsts),
        ] {
            if m.is_empty() {
                continue;
            }
            let wf = if m.unmodelled == 0 { shared } else { "estimate" };
            v.push((
                k.ncu_instructions(),
                (m.instructions + m.unmodelled) as f64,
                shared,
            ));
            v.push((k.ncu_wavefronts(), m.wavefronts as f64, wf));
        }
    }
    if let Some(d) = &a.divergence {
        let t = &d.report.totals;
        // The machine code's branches when it was read and every line matched the PTX's
        // (calibration/branch/), else the PTX-level count: an estimate.
        let (targets, divergent, claim) = match d.machine {
            Some((t, dv, true)) => (t, dv, "exact"),
            Some((t, dv, false)) => (t, dv, "estimate"),
            None => (t.targets, t.divergent, "estimate"),
        };
        v.push((METRICS[4], targets as f64, claim));
        v.push((METRICS[5], divergent as f64, claim));
        // Nsight Compute prints 0 % for a launch with no branch target (0 of 0).
        let pct = if targets == 0 {
            0.0
        } else {
            100.0 * (targets - divergent) as f64 / targets as f64
        };
        v.push((METRICS[6], pct, claim));
    }
    v
}

/// Compares predictions with ncu's rows of one launch (`None`: not measured).
pub fn compare_counters(
    preds: &[(&'static str, f64, &'static str)],
    rows: Option<&[warpscope_gpu::lab::ncu::NcuRow]>,
) -> Vec<CounterRow> {
    preds
        .iter()
        .map(|&(metric, predicted, claim)| {
            let measured = rows.and_then(|r| r.iter().find(|x| x.metric == metric).and_then(|x| x.value));
            // Percentages are printed by ncu with two decimals.
            let equal = measured.map(|m| {
                if metric.ends_with(".pct") {
                    (m - predicted).abs() < 0.005 + 1e-9
                } else {
                    m == predicted
                }
            });
            CounterRow {
                metric: metric.to_string(),
                predicted,
                measured,
                equal,
                claim: claim.to_string(),
            }
        })
        .collect()
}

/// Compares final buffers (`gpu`: the bytes, or only a recorded hash).
pub fn compare_buffer(arg: usize, emu: &[u8], gpu: Result<&[u8], (usize, u64)>) -> BufferRow {
    let e = fnv1a64(emu);
    match gpu {
        Ok(g) => {
            let words = emu.len().max(g.len()).div_ceil(4);
            let word = |b: &[u8], i: usize| -> Option<u32> {
                let s = b.get(i * 4..(i * 4 + 4).min(b.len()))?;
                let mut w = [0u8; 4];
                w[..s.len()].copy_from_slice(s);
                Some(u32::from_le_bytes(w))
            };
            let diffs: Vec<usize> = (0..words).filter(|&i| word(emu, i) != word(g, i)).collect();
            BufferRow {
                arg,
                bytes: g.len(),
                emulator_fnv1a64: format!("{e:016x}"),
                gpu_fnv1a64: format!("{:016x}", fnv1a64(g)),
                equal: emu == g,
                differing_words: Some(diffs.len()),
                first_difference: diffs.first().map(|&i| {
                    let hex = |w: Option<u32>| w.map_or("none".into(), |w| format!("0x{w:08x}"));
                    format!(
                        "word {i}: emulator {}, GPU {}",
                        hex(word(emu, i)),
                        hex(word(g, i))
                    )
                }),
            }
        }
        Err((bytes, hash)) => BufferRow {
            arg,
            bytes,
            emulator_fnv1a64: format!("{e:016x}"),
            gpu_fnv1a64: format!("{hash:016x}"),
            equal: e == hash && emu.len() == bytes,
            differing_words: None,
            first_difference: None,
        },
    }
}

fn count_differences(counters: &[CounterRow], buffers: &[BufferRow]) -> usize {
    counters
        .iter()
        .filter(|c| c.claim == "exact" && c.equal == Some(false))
        .count()
        + buffers.iter().filter(|b| !b.equal).count()
}

/// What the comparison needs from the analysed launch.
pub struct Input<'a> {
    /// The analysed PTX text.
    pub ptx: &'a str,
    /// The CUBIN NVRTC built for `arch`, when the input was CUDA C++.
    pub cubin: Option<&'a [u8]>,
    /// The lowered program.
    pub program: &'a Program,
    /// The kernel.
    pub kernel: &'a str,
    /// The launch as emulated.
    pub launch: &'a Launch,
    /// The analysed architecture.
    pub arch: &'static Arch,
}

fn kernel_args(args: &[Arg]) -> Vec<KernelArg> {
    args.iter()
        .map(|a| match a {
            Arg::Buffer(b) => KernelArg::Buffer(b.clone()),
            Arg::U32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::I32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::U64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::I64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::F32(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::F64(v) => KernelArg::Bytes(v.to_le_bytes().to_vec()),
            Arg::Bytes(b) => KernelArg::Bytes(b.clone()),
        })
        .collect()
}

fn spec(input: &Input) -> LaunchSpec {
    LaunchSpec {
        image: match input.cubin {
            Some(c) => Image::Cubin(c.to_vec()),
            None => Image::Ptx(input.ptx.to_string()),
        },
        kernel: input.kernel.to_string(),
        grid: input.launch.grid,
        block: input.launch.block,
        dyn_smem: input.launch.dyn_smem,
        args: kernel_args(&input.launch.args),
    }
}

/// `--measure-child`: the launch alone, on the GPU (ncu counts it). Prints nothing.
pub fn child(m: &MeasureArgs, input: &Input) -> anyhow::Result<()> {
    warpscope_gpu::measure::launch(m.device, &spec(input)).map_err(gpu_error)?;
    Ok(())
}

/// The emulator's final buffers for the whole grid (`None` when the analysis sampled blocks).
/// The emulator's final buffers: those of the analysis's own emulation when it ran the whole grid
/// (one emulation serves the analysis and the comparison), else one run for the buffers alone (a
/// request whose sections emulate nothing); `None` when `--blocks` sampled the grid.
fn emulator_buffers(
    input: &Input,
    emulated: Option<Vec<Option<Vec<u8>>>>,
) -> anyhow::Result<Option<Vec<Option<Vec<u8>>>>> {
    if input.launch.blocks.is_some() {
        return Ok(None);
    }
    if let Some(b) = emulated {
        return Ok(Some(b));
    }
    let res = warpscope_emu::run(
        input.program,
        input.kernel,
        input.launch,
        &Limits::default(),
        |_| (),
    )?;
    Ok(Some(res.buffers))
}

/// The command line of the child: this one with `--measure` replaced by `--measure-child`.
fn child_args() -> Vec<OsString> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            if a == "--measure" {
                OsString::from("--measure-child")
            } else {
                a
            }
        })
        .collect()
}

/// Runs the measurement (or replays a recorded one) and compares it with the analysis.
pub fn run(
    m: &MeasureArgs,
    input: &Input,
    analysis: &Analysis,
    emulated: Option<Vec<Option<Vec<u8>>>>,
) -> anyhow::Result<Measurement> {
    let preds = predictions(analysis);
    let emu = emulator_buffers(input, emulated)?;
    let mut notes = Vec::new();
    if emu.is_none() {
        notes.push("--blocks sampled the grid: buffers are not compared".to_string());
    }
    if analysis.extrapolated {
        notes.push("totals are extrapolated from sampled blocks: counters are estimates".into());
    }
    if preds
        .iter()
        .any(|(m, _, c)| m.contains("branch_targets") && *c == "estimate")
    {
        notes.push(
            "branch counters are estimates (no machine code read, or its branches do not match the PTX's line for line; calibration/branch/): a difference there is shown, not counted"
                .into(),
        );
    }
    if let Some(path) = &m.measured {
        return replay(path, &preds, emu, notes);
    }
    warpscope_gpu::ensure_driver().map_err(gpu_error)?;
    let info = warpscope_gpu::device::query(m.device).map_err(gpu_error)?;
    let cc = info.cc_major * 10 + info.cc_minor;
    if cc != input.arch.cc() {
        bail!(
            "--measure: GPU {} is CC {}.{} but the launch was analysed for {}; pass --arch sm_{cc}",
            m.device,
            info.cc_major,
            info.cc_minor,
            input.arch.name
        );
    }
    let ncu_path = if m.no_ncu {
        notes.push("ncu turned off (--no-ncu): counters not measured".into());
        None
    } else {
        let p = warpscope_gpu::measure::find_ncu(m.ncu.as_deref());
        if p.is_none() {
            notes.push("ncu not found (pass --ncu PATH): counters not measured".into());
        }
        p
    };
    let versions = warpscope_gpu::measure::versions(m.device, ncu_path.as_deref()).map_err(gpu_error)?;
    let s = spec(input);
    let image = match s.image {
        Image::Cubin(_) => "CUBIN (NVRTC)",
        Image::Ptx(_) => "PTX (driver JIT)",
    };
    let gpu = warpscope_gpu::measure::launch(m.device, &s).map_err(gpu_error)?;
    let image = match &gpu.ptx_version {
        Some(v) => format!("{image}, .version lowered to {v} for this driver (no instruction changed)"),
        None => image.to_string(),
    };
    let mut ncu_csv = None;
    let rows = match &ncu_path {
        Some(ncu) => {
            let exe = std::env::current_exe().context("the path of this program (to re-run under ncu)")?;
            let (rows, text) = warpscope_gpu::measure::profile(ncu, &exe, child_args(), &METRICS, None)
                .map_err(gpu_error)?;
            let n = warpscope_gpu::lab::ncu::launch_count(&rows);
            if n != 1 {
                bail!("ncu profiled {n} launches of the child, expected 1");
            }
            ncu_csv = Some(text);
            Some(rows)
        }
        None => None,
    };
    let counters = compare_counters(&preds, rows.as_deref());
    let buffers: Vec<BufferRow> = match &emu {
        Some(emu) => emu
            .iter()
            .zip(&gpu.buffers)
            .enumerate()
            .filter_map(|(i, (e, g))| Some(compare_buffer(i, e.as_ref()?, Ok(g.as_ref()?))))
            .collect(),
        None => Vec::new(),
    };
    Ok(Measurement {
        measured_on: versions.header(),
        image,
        differences: count_differences(&counters, &buffers),
        counters,
        buffers,
        notes,
        ncu_csv,
    })
}

/// The recorded measurement of `path` (the `measurement` of an analysis JSON) against these
/// predictions: counters from the recorded ncu CSV, buffers by the recorded GPU hashes.
fn replay(
    path: &std::path::Path,
    preds: &[(&'static str, f64, &'static str)],
    emu: Option<Vec<Option<Vec<u8>>>>,
    mut notes: Vec<String>,
) -> anyhow::Result<Measurement> {
    let text = warpscope_driver::limits::read_source(path).map_err(crate::launch::driver_error)?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    let rec: Measurement =
        serde_json::from_value(v.get("measurement").cloned().unwrap_or(v)).with_context(|| {
            format!(
                "{}: not a recorded measurement (analyze --measure --format json)",
                path.display()
            )
        })?;
    let rows = match &rec.ncu_csv {
        Some(csv) => Some(
            warpscope_gpu::measure::parse_raw_csv(csv)
                .with_context(|| format!("{}: the recorded ncu CSV", path.display()))?,
        ),
        None => None,
    };
    let counters = compare_counters(preds, rows.as_deref());
    let mut buffers = Vec::new();
    if let Some(emu) = &emu {
        for b in &rec.buffers {
            let Some(Some(e)) = emu.get(b.arg) else {
                bail!(
                    "{}: argument {} is not a buffer of this launch",
                    path.display(),
                    b.arg
                );
            };
            let hash = u64::from_str_radix(&b.gpu_fnv1a64, 16)
                .with_context(|| format!("{}: argument {}: gpu_fnv1a64 is not hex", path.display(), b.arg))?;
            buffers.push(compare_buffer(b.arg, e, Err((b.bytes, hash))));
        }
    }
    notes.push(format!(
        "replayed from {} (recorded, no GPU used)",
        path.display()
    ));
    Ok(Measurement {
        measured_on: rec.measured_on,
        image: rec.image,
        differences: count_differences(&counters, &buffers),
        counters,
        buffers,
        notes,
        ncu_csv: rec.ncu_csv,
    })
}

/// The analysis JSON with the comparison added as `measurement`.
#[derive(Serialize)]
pub struct Measured<'a> {
    /// The analysis as `analyze` prints it.
    #[serde(flatten)]
    pub analysis: &'a Analysis,
    /// The comparison.
    pub measurement: &'a Measurement,
}

/// `analyze` with `--measure`, `--measured` or `--measure-child`: the driver prepares the launch once;
/// the child only runs it on the GPU; otherwise the launch is analysed (`render` makes the analysis
/// and its blocks) and measured or replayed.
pub fn analyze_and_measure(
    m: &MeasureArgs,
    req: &warpscope_driver::Request,
    output: &OutputArgs,
    render: impl FnOnce(&warpscope_driver::Analyzed) -> anyhow::Result<(Analysis, Vec<Block>)>,
) -> anyhow::Result<ExitCode> {
    let p = warpscope_driver::prepare(req).map_err(crate::launch::driver_error)?;
    let clustered = p.module.program.kernel(&p.name.mangled).is_some_and(|k| {
        warpscope_emu::cluster_dims(k, p.launch.grid, p.launch.cluster, p.launch.cluster_nonportable)
            .is_ok_and(|(d, _)| d.iter().product::<u32>() > 1)
    });
    if clustered {
        anyhow::bail!(
            "--measure does not launch thread-block clusters on the GPU yet: measure a cluster kernel in a whole program (`warpscope run --measure`)"
        );
    }
    let input = Input {
        ptx: &p.module.ptx,
        cubin: p.module.cubin.as_deref(),
        program: &p.module.program,
        kernel: &p.name.mangled,
        launch: &p.launch,
        arch: req.arch,
    };
    if m.measure_child {
        child(m, &input)?;
        return Ok(ExitCode::SUCCESS);
    }
    let a = warpscope_driver::request::run_prepared(req, p.clone()).map_err(crate::launch::driver_error)?;
    let (analysis, blocks) = render(&a)?;
    let r = a.results;
    let emulated =
        (r.blocks_emulated > 0 && u64::from(r.blocks_emulated) == r.blocks_in_grid).then_some(r.buffers);
    finish(m, &input, &analysis, output, blocks, emulated)
}

/// Measures (or replays), prints the analysis followed by the comparison, and returns exit status
/// 1 when an exact counter or a buffer differs.
pub fn finish(
    m: &MeasureArgs,
    input: &Input,
    analysis: &Analysis,
    output: &OutputArgs,
    mut analysis_blocks: Vec<Block>,
    emulated: Option<Vec<Option<Vec<u8>>>>,
) -> anyhow::Result<ExitCode> {
    let measurement = run(m, input, analysis, emulated)?;
    if let Some(path) = &m.html {
        let html = warpscope_report::lab::lab_html(
            &format!("warpscope analyze --measure: {}", analysis.kernel),
            &lab_results(&measurement, &analysis.kernel),
        )?;
        std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    analysis_blocks.extend(blocks(&measurement));
    let mut out = std::io::stdout().lock();
    emit_blocks(
        &mut out,
        output.format,
        output.color(),
        &Measured {
            analysis,
            measurement: &measurement,
        },
        &analysis_blocks,
    )?;
    Ok(if measurement.differences == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::FINDINGS)
    })
}

/// The comparison as two pages of the lab's HTML report: counters and buffers, with a check per
/// exact counter and per buffer.
pub fn lab_results(m: &Measurement, kernel: &str) -> Vec<warpscope_report::lab::LabResult> {
    use warpscope_report::lab::{LabCheck, LabResult};
    let check = |what: String, pass: bool| LabCheck {
        what,
        value: f64::from(u8::from(pass)),
        target: 1.0,
        pass,
    };
    let counters = LabResult {
        name: format!("{kernel}: counters, predicted beside measured"),
        device: m.measured_on.clone(),
        headers: ["metric", "predicted", "measured", "equal", "claim"]
            .map(String::from)
            .to_vec(),
        rows: m
            .counters
            .iter()
            .map(|c| {
                vec![
                    c.metric.clone(),
                    num(c.predicted),
                    c.measured.map_or("-".into(), num),
                    match c.equal {
                        None => "-".into(),
                        Some(true) => "yes".into(),
                        Some(false) if c.claim == "exact" => "DIFFERS".into(),
                        Some(false) => "differs".into(),
                    },
                    c.claim.clone(),
                ]
            })
            .collect(),
        checks: m
            .counters
            .iter()
            .filter(|c| c.claim == "exact" && c.equal.is_some())
            .map(|c| {
                check(
                    format!("{} predicted = measured", c.metric),
                    c.equal == Some(true),
                )
            })
            .collect(),
        notes: m
            .notes
            .iter()
            .cloned()
            .chain([format!("code loaded as {}", m.image)])
            .collect(),
        data: serde_json::Value::Null,
        seed: None,
    };
    let buffers = LabResult {
        name: format!("{kernel}: output buffers, emulator vs GPU"),
        device: m.measured_on.clone(),
        headers: [
            "argument",
            "bytes",
            "emulator FNV-1a",
            "GPU FNV-1a",
            "equal",
            "first difference",
        ]
        .map(String::from)
        .to_vec(),
        rows: m
            .buffers
            .iter()
            .map(|b| {
                vec![
                    b.arg.to_string(),
                    b.bytes.to_string(),
                    b.emulator_fnv1a64.clone(),
                    b.gpu_fnv1a64.clone(),
                    if b.equal {
                        "bit-exact".into()
                    } else {
                        "DIFFERS".into()
                    },
                    b.first_difference.clone().unwrap_or_default(),
                ]
            })
            .collect(),
        checks: m
            .buffers
            .iter()
            .map(|b| check(format!("argument {} bit for bit", b.arg), b.equal))
            .collect(),
        notes: Vec::new(),
        data: serde_json::Value::Null,
        seed: None,
    };
    vec![counters, buffers]
}

fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// The comparison for people and CSV (columns carry the ncu metric names).
pub fn blocks(m: &Measurement) -> Vec<Block> {
    let mut out = vec![Block::Heading(format!(
        "measured on {} ({})",
        m.measured_on, m.image
    ))];
    let cols = ["metric", "predicted", "measured", "equal", "claim"];
    let mut t = Tabular::new("", cols.map(|c| Column::new(c, c)).to_vec());
    for c in &m.counters {
        let (eq, tone) = match (c.equal, c.claim.as_str()) {
            (None, _) => ("-".to_string(), Tone::Plain),
            (Some(true), _) => ("yes".into(), Tone::Good),
            (Some(false), "exact") => ("DIFFERS".into(), Tone::Bad),
            (Some(false), _) => ("differs".into(), Tone::Warn),
        };
        t.toned_row(vec![
            (c.metric.clone(), Tone::Plain),
            (num(c.predicted), Tone::Plain),
            (c.measured.map_or("-".into(), num), Tone::Plain),
            (eq, tone),
            (c.claim.clone(), Tone::Plain),
        ]);
    }
    out.push(Block::Table(t));
    let cols = [
        "argument",
        "bytes",
        "emulator_fnv1a64",
        "gpu_fnv1a64",
        "equal",
        "differing_words",
        "first_difference",
    ];
    let mut b = Tabular::new(
        "output buffers, emulator vs GPU",
        cols.map(|c| Column::new(c, c)).to_vec(),
    );
    for r in &m.buffers {
        b.toned_row(vec![
            (r.arg.to_string(), Tone::Plain),
            (r.bytes.to_string(), Tone::Plain),
            (r.emulator_fnv1a64.clone(), Tone::Plain),
            (r.gpu_fnv1a64.clone(), Tone::Plain),
            if r.equal {
                ("bit-exact".into(), Tone::Good)
            } else {
                ("DIFFERS".into(), Tone::Bad)
            },
            (
                r.differing_words.map_or("-".into(), |d| d.to_string()),
                Tone::Plain,
            ),
            (r.first_difference.clone().unwrap_or_default(), Tone::Plain),
        ]);
    }
    out.push(Block::Table(b));
    let mut notes = m.notes.clone();
    notes.push(if m.differences == 0 {
        "every exact counter and every buffer equal".into()
    } else {
        format!("{} difference(s) in exact counters or buffers", m.differences)
    });
    out.push(Block::Notes(notes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_gpu::lab::ncu::NcuRow;

    /// The analysis's own emulation serves the comparison: with its buffers at hand nothing runs
    /// again (the kernel named here does not exist, so a second run would fail); without them
    /// (sections that emulate nothing) one run makes them; `--blocks` compares none.
    #[test]
    fn the_analysis_emulation_gives_the_buffers() {
        let ptx =
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n ret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![7; 16])]);
        let arch = Arch::parse("sm_90").unwrap();
        let input = |kernel| Input {
            ptx,
            cubin: None,
            program: &program,
            kernel,
            launch: &launch,
            arch,
        };
        let given = vec![Some(vec![1u8; 16])];
        let b = emulator_buffers(&input("no_such_kernel"), Some(given.clone())).unwrap();
        assert_eq!(b, Some(given));
        assert!(emulator_buffers(&input("no_such_kernel"), None).is_err());
        assert_eq!(
            emulator_buffers(&input("k"), None).unwrap(),
            Some(vec![Some(vec![7; 16])])
        );
    }

    fn row(metric: &str, value: Option<f64>) -> NcuRow {
        NcuRow {
            id: 0,
            kernel: "k".into(),
            metric: metric.into(),
            unit: String::new(),
            value,
        }
    }

    #[test]
    fn counters_equal_differ_or_unmeasured() {
        let preds = [
            (METRICS[1], 1024.0, "exact"),
            (METRICS[3], 32.0, "exact"),
            (METRICS[6], 80.0, "estimate"),
        ];
        let rows = [
            row(METRICS[1], Some(1024.0)),
            row(METRICS[3], Some(64.0)),
            row(METRICS[6], Some(80.004)),
        ];
        let c = compare_counters(&preds, Some(&rows));
        assert_eq!(
            c.iter().map(|r| r.equal).collect::<Vec<_>>(),
            [Some(true), Some(false), Some(true)]
        );
        assert_eq!(count_differences(&c, &[]), 1);
        let none = compare_counters(&preds, None);
        assert!(none.iter().all(|r| r.measured.is_none() && r.equal.is_none()));
        // An estimate that differs is shown but not counted.
        let rows = [row(METRICS[6], Some(75.0))];
        let c = compare_counters(&preds[2..], Some(&rows));
        assert_eq!((c[0].equal, count_differences(&c, &[])), (Some(false), 0));
    }

    #[test]
    fn buffers_bit_for_bit_with_the_first_differing_word() {
        let a = [1u8, 0, 0, 0, 2, 0, 0, 0];
        let mut b = a;
        let same = compare_buffer(0, &a, Ok(&b));
        assert!(same.equal && same.differing_words == Some(0) && same.first_difference.is_none());
        b[5] = 0x80;
        let d = compare_buffer(1, &a, Ok(&b));
        assert!(!d.equal);
        assert_eq!(d.differing_words, Some(1));
        assert_eq!(
            d.first_difference.as_deref(),
            Some("word 1: emulator 0x00000002, GPU 0x00008002")
        );
        let by_hash = compare_buffer(0, &a, Err((8, fnv1a64(&a))));
        assert!(by_hash.equal);
        assert!(!compare_buffer(0, &a, Err((8, fnv1a64(&b)))).equal);
    }

    #[test]
    fn scalar_arguments_are_their_little_endian_bytes() {
        let k = kernel_args(&[Arg::U32(0x0102_0304), Arg::F64(1.0), Arg::Buffer(vec![9; 3])]);
        assert_eq!(k[0], KernelArg::Bytes(vec![4, 3, 2, 1]));
        assert_eq!(k[1], KernelArg::Bytes(1.0f64.to_le_bytes().to_vec()));
        assert_eq!(k[2], KernelArg::Buffer(vec![9; 3]));
    }
}
