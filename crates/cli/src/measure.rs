//! `analyze --measure`: the analysed launch run once more on the local GPU, with the same argument
//! bytes, its counters measured by Nsight Compute in a child run of this program
//! (`--measure-child`), predicted and measured counters side by side with every difference
//! flagged, and every output buffer compared bit for bit with the emulator's.
//!
//! `--measured FILE` replays a recorded measurement (the JSON of an earlier `--measure` run, with
//! ncu's own CSV inside) through the same comparison, with no GPU: this is how the recorded H100
//! runs under `calibration/measure/` are checked.
//!
//! The GPU side is `warpscope_gpu::measure`, the comparison `warpscope_measure::launch`; this module
//! defines the flags, turns the analysis into predictions and renders the comparison.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;
use warpscope_analysis::banks::MatrixKind;
use warpscope_measure::launch::{
    BranchPredicted, Input, MatrixPredicted, Measurement, Options, Predicted, Prediction, SharedPredicted,
};

use crate::launch::measure_error;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};
use crate::render::analysis::{Analysis, MatrixTotals};

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

    /// Where and how to measure, as the comparison takes it.
    fn options(&self) -> Options {
        Options {
            measured: self.measured.clone(),
            device: self.device,
            ncu: self.ncu.clone(),
            no_ncu: self.no_ncu,
        }
    }
}

/// The predictions of an analysis, in the order of `warpscope_measure::launch::METRICS`, with their claims
/// (`warpscope_measure::launch::predictions`).
pub fn predictions(a: &Analysis) -> Vec<Prediction> {
    let matrix = |t: &MatrixTotals| MatrixPredicted {
        instructions: t.instructions,
        unmodelled: t.unmodelled,
        wavefronts: t.wavefronts,
    };
    // Without the banks section there are no shared-memory predictions to compare.
    let banks = a.sections.is_empty() || a.sections.iter().any(|s| s == "banks");
    warpscope_measure::launch::predictions(&Predicted {
        extrapolated: a.extrapolated,
        shared: banks.then(|| SharedPredicted {
            load: (a.shared.load.instructions, a.shared.load.wavefronts),
            store: (a.shared.store.instructions, a.shared.store.wavefronts),
            matrix: [
                (MatrixKind::Ldsm, &a.shared.ldsm),
                (MatrixKind::Stsm, &a.shared.stsm),
                (MatrixKind::Ldgsts, &a.shared.ldgsts),
            ]
            .into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(k, t)| (k, matrix(t)))
            .collect(),
        }),
        branches: a.divergence.as_ref().map(|d| BranchPredicted {
            ptx: (d.report.totals.targets, d.report.totals.divergent),
            machine: d.machine,
        }),
    })
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
        warpscope_measure::launch::child(m.device, &input).map_err(measure_error)?;
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
    let measurement = warpscope_measure::launch::run(
        &m.options(),
        input,
        &predictions(analysis),
        analysis.extrapolated,
        emulated,
        child_args(),
    )
    .map_err(measure_error)?;
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
