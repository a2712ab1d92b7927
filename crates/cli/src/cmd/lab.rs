//! `warpscope lab`: GPU experiments, predictions beside measurements (see `warpscope_gpu::lab`).
//! `--from DIR|FILE` prints saved results (`lab --out`) instead, through the same rendering, with
//! no GPU.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use indicatif::ProgressBar;
use serde_json::Value;
use warpscope_gpu::lab::{self, Lab, LabConfig, Progress};
use warpscope_report::lab::LabResult;

use super::device::gpu_error;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// Flags of `warpscope lab`.
#[derive(clap::Args)]
pub struct Args {
    /// Experiments to run (all when none is named; see --list).
    experiments: Vec<String>,
    /// Device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Nsight Compute executable (default: found on PATH, /usr/local/cuda/bin, /opt/nvidia).
    #[arg(long)]
    ncu: Option<PathBuf>,
    /// Do not run ncu (no counters).
    #[arg(long)]
    no_ncu: bool,
    /// NVRTC library file or directory.
    #[arg(long)]
    nvrtc: Option<PathBuf>,
    /// Write one JSON file per experiment (and SVG timelines) into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Timed repetitions per measurement (the median is reported; at least 20).
    #[arg(long, default_value_t = 30)]
    reps: usize,
    /// Seed of the random inputs (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// List the experiments and exit.
    #[arg(long)]
    list: bool,
    /// Print saved results instead of running: a `lab --out` directory or its JSON files.
    #[arg(long, value_name = "DIR|FILE", conflicts_with_all = ["experiments", "out", "list"])]
    from: Vec<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    /// Internal: run one experiment's profiled launches (what the lab runs under ncu).
    #[arg(long, hide = true)]
    profile_child: Option<String>,
}

struct Bar(ProgressBar);

impl Progress for Bar {
    fn begin(&self, experiment: &str, steps: u64) {
        self.0.reset();
        self.0.set_length(steps);
        self.0.set_prefix(experiment.to_string());
    }
    fn step(&self, what: &str) {
        self.0.set_message(what.to_string());
        self.0.inc(1);
    }
    fn end(&self) {
        self.0.set_message("done");
    }
}

/// The output of lab results (live or saved; `value` of each is its JSON): per experiment a
/// heading, its table, notes and checks for people; for CSV one table per experiment with an
/// `experiment` column first.
pub fn blocks(results: &[LabResult]) -> Vec<Block> {
    let mut blocks = Vec::new();
    for r in results {
        let seed = r.seed.map_or(String::new(), |s| format!(" (seed {s})"));
        blocks.push(Block::Heading(format!("{} on {}{seed}", r.name, r.device)));
        let mut shown = Tabular::new(
            "",
            r.headers
                .iter()
                .map(|h| Column::new(h.clone(), h.clone()))
                .collect(),
        );
        let mut csv_cols = vec![Column::new("experiment", "experiment")];
        csv_cols.extend(r.headers.iter().map(|h| Column::new(h.clone(), h.clone())));
        let mut csv = Tabular::new("", csv_cols);
        for row in &r.rows {
            shown.row(row.iter());
            csv.row(std::iter::once(&r.name).chain(row.iter()));
        }
        blocks.push(Block::ShownTable(shown));
        blocks.push(Block::CsvTable(csv));
        blocks.push(Block::Notes(r.notes.clone()));
        if !r.checks.is_empty() {
            let mut t = Tabular::new(
                "",
                ["check", "value", "target (at least)", "result"]
                    .map(|c| Column::new(c, c))
                    .to_vec(),
            );
            for c in &r.checks {
                t.toned_row(vec![
                    (c.what.clone(), Tone::Plain),
                    (format!("{:.3}", c.value), Tone::Plain),
                    (format!("{:.3}", c.target), Tone::Plain),
                    if c.pass {
                        ("PASS".into(), Tone::Good)
                    } else {
                        ("FAIL".into(), Tone::Bad)
                    },
                ]);
            }
            blocks.push(Block::ShownTable(t));
        }
    }
    blocks
}

fn read_saved(from: &[PathBuf]) -> anyhow::Result<Vec<(Value, LabResult)>> {
    let mut files = Vec::new();
    for p in from {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("cannot read {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "json"))
                .collect();
            if v.is_empty() {
                anyhow::bail!("{}: no .json file in the directory", p.display());
            }
            v.sort();
            // In a directory, other JSON (a saved `device --format json`, say) is passed over.
            for f in v {
                let value = read_value(&f)?;
                if value.get("headers").is_some() && value.get("rows").is_some() {
                    files.push((f, value));
                } else {
                    eprintln!("warpscope: {}: not a lab result, passed over", f.display());
                }
            }
        } else {
            let value = read_value(p)?;
            files.push((p.clone(), value));
        }
    }
    if files.is_empty() {
        anyhow::bail!("no lab result in {}", from[0].display());
    }
    files
        .into_iter()
        .map(|(f, v)| {
            let r: LabResult = serde_json::from_value(v.clone())
                .with_context(|| format!("{}: not a `warpscope lab` result", f.display()))?;
            Ok((v, r))
        })
        .collect()
}

fn read_value(path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    Ok(v)
}

/// Prints results in the chosen format; status 1 when a check failed or an experiment did.
fn print(args: &Args, results: &[(Value, LabResult)], mut failed: Vec<String>) -> anyhow::Result<ExitCode> {
    let values: Vec<&Value> = results.iter().map(|r| &r.0).collect();
    let labs: Vec<LabResult> = results.iter().map(|r| r.1.clone()).collect();
    let mut out = std::io::stdout().lock();
    emit_blocks(
        &mut out,
        args.output.format,
        args.output.color(),
        &values,
        &blocks(&labs),
    )?;
    for r in &labs {
        failed.extend(
            r.checks
                .iter()
                .filter(|c| !c.pass)
                .map(|c| format!("{}: {}", r.name, c.what)),
        );
    }
    if !failed.is_empty() {
        eprintln!("warpscope: failed: {}", failed.join("; "));
        return Ok(ExitCode::from(crate::exit::FINDINGS));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `warpscope lab`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.list {
        let mut out = std::io::stdout().lock();
        for (name, what) in lab::EXPERIMENTS {
            writeln!(out, "{name:<11} {what}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !args.from.is_empty() {
        let saved = read_saved(&args.from)?;
        return print(&args, &saved, Vec::new());
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let cfg = LabConfig {
        device: args.device,
        nvrtc: args.nvrtc.clone(),
        ncu: args.ncu.clone(),
        no_ncu: args.no_ncu,
        self_exe: std::env::current_exe().ok(),
        reps: args.reps.max(20),
        seed,
    };
    if let Some(exp) = &args.profile_child {
        let labels = lab::profile_child(cfg, exp).map_err(gpu_error)?;
        eprintln!("profiled launches: {}", labels.join(", "));
        return Ok(ExitCode::SUCCESS);
    }
    let names = lab::validate_names(&args.experiments).map_err(gpu_error)?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let lab = Lab::open(cfg).map_err(gpu_error)?;
    let progress = Bar(crate::output::progress_bar(1, "lab"));
    let predictor = warpscope_measure::predict::LabPredictor::for_lab(&lab, args.nvrtc.as_deref());
    let mut failed = Vec::new();
    let mut reports = Vec::new();
    for name in names {
        let r = match lab.run(name, &predictor, &progress) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("warpscope: lab {name}: {e}");
                failed.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut v = serde_json::to_value(&r)?;
        v["seed"] = seed.into();
        if let Some(dir) = &args.out {
            let p = dir.join(format!("{name}.json"));
            std::fs::write(&p, serde_json::to_string_pretty(&v)?)
                .with_context(|| format!("cannot write {}", p.display()))?;
            for (stem, svg) in &r.svgs {
                let p = dir.join(format!("{stem}.svg"));
                std::fs::write(&p, svg).with_context(|| format!("cannot write {}", p.display()))?;
            }
        }
        let parsed: LabResult = serde_json::from_value(v.clone()).context("lab result")?;
        reports.push((v, parsed));
    }
    progress.0.finish_and_clear();
    print(&args, &reports, failed)
}
