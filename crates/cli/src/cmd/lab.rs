//! `warpscope lab`: GPU experiments, predictions beside measurements (see `warpscope_gpu::lab`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use comfy_table::Table;
use indicatif::{ProgressBar, ProgressStyle};
use warpscope_gpu::lab::{self, ExperimentReport, Lab, LabConfig, Progress};

use super::device::gpu_error;

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

/// The table of one report.
pub fn table(r: &ExperimentReport) -> Table {
    let mut t = Table::new();
    t.set_header(r.headers.clone());
    for row in &r.rows {
        t.add_row(row.clone());
    }
    t
}

/// Runs `warpscope lab`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.list {
        for (name, what) in lab::EXPERIMENTS {
            println!("{name:<11} {what}");
        }
        return Ok(ExitCode::SUCCESS);
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
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = Bar(bar);
    let predictor = crate::predict::LabPredictor::for_lab(&lab, args.nvrtc.as_deref());
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
        if let Some(dir) = &args.out {
            let p = dir.join(format!("{name}.json"));
            let mut v = serde_json::to_value(&r)?;
            v["seed"] = seed.into();
            std::fs::write(&p, serde_json::to_string_pretty(&v)?)
                .with_context(|| format!("cannot write {}", p.display()))?;
            for (stem, svg) in &r.svgs {
                let p = dir.join(format!("{stem}.svg"));
                std::fs::write(&p, svg).with_context(|| format!("cannot write {}", p.display()))?;
            }
        }
        failed.extend(
            r.checks
                .iter()
                .filter(|c| !c.pass)
                .map(|c| format!("{name}: {}", c.what)),
        );
        reports.push(r);
    }
    progress.0.finish_and_clear();
    for r in &reports {
        println!("== {} on {} (seed {seed})", r.name, r.device);
        println!("{}", table(r));
        for n in &r.notes {
            println!("  note: {n}");
        }
        for c in &r.checks {
            println!(
                "  check: {}: {:.3} (target >= {:.3}) {}",
                c.what,
                c.value,
                c.target,
                if c.pass { "PASS" } else { "FAIL" }
            );
        }
        println!();
    }
    if !failed.is_empty() {
        eprintln!("warpscope: failed: {}", failed.join("; "));
        return Ok(ExitCode::from(crate::exit::FINDINGS));
    }
    Ok(ExitCode::SUCCESS)
}
