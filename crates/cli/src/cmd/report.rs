//! `warpscope report`: one self-contained HTML page (inline CSS and SVG, no scripts, no fetches) of
//! a kernel launch (annotated source, bank heatmaps, occupancy curves, findings) or of saved lab
//! results (tables, checks, timelines, bandwidth charts).
//!
//! Input: the launch flags of `warpscope analyze` (one run through the driver, every section), or
//! `--from FILE` (repeatable; a directory means
//! every `*.json` in it) holding `warpscope analyze --format json`, `report --save-json` or
//! `warpscope lab --out DIR` results.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde_json::Value;
use warpscope_driver::{FixRequest, Sections};
use warpscope_model::arch::Arch;
use warpscope_report::lab::{LabResult, lab_html};

use crate::launch::LaunchArgs;
use crate::report_page;

/// Flags of `warpscope report`.
#[derive(clap::Args)]
pub struct Args {
    /// The launch (the flags of `warpscope analyze`); absent with `--from`.
    #[command(flatten)]
    launch: Option<LaunchArgs>,
    /// Target architecture.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// The CUDA source to show beside the costs (default: the `.cu` given, or the PTX's `.file`).
    #[arg(long, value_name = "FILE.cu")]
    source: Option<PathBuf>,
    /// Saved results to draw instead of analysing: analyze/report JSON, or lab JSON files or a
    /// `lab --out` directory.
    #[arg(long, value_name = "FILE|DIR", conflicts_with_all = ["file", "grid", "block"])]
    from: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long, short = 'o', value_name = "FILE.html")]
    output: PathBuf,
    /// Also save the analysis results as JSON (readable again with `--from`).
    #[arg(long, value_name = "FILE.json")]
    save_json: Option<PathBuf>,
}

fn read_json(path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })
}

/// The files of `--from`: each file, and each directory's `*.json` (marked `true`: read from a
/// directory).
fn expand(from: &[PathBuf]) -> anyhow::Result<Vec<(PathBuf, bool)>> {
    let mut files = Vec::new();
    for p in from {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("cannot read {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "json"))
                .collect();
            if v.is_empty() {
                bail!("{}: no .json file in the directory", p.display());
            }
            v.sort();
            files.extend(v.into_iter().map(|f| (f, true)));
        } else {
            files.push((p.clone(), false));
        }
    }
    Ok(files)
}

fn is_lab(v: &Value) -> bool {
    v.get("headers").is_some() && v.get("rows").is_some()
}

/// Runs `warpscope report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let html = if args.from.is_empty() {
        let Some(launch) = &args.launch else {
            bail!("give a kernel file with --grid and --block, or --from FILE");
        };
        let arch = Arch::parse(&args.arch)?;
        let mut req = launch.request(arch, Sections::ALL)?;
        req.fix = Some(FixRequest {
            target: None,
            registers: None,
            source: args.source.clone(),
            what_if: None,
        });
        let results = report_page::analyse(&req, args.source.as_deref())?;
        let file = &launch.file;
        if let Some(p) = &args.save_json {
            std::fs::write(p, serde_json::to_string_pretty(&results)?)
                .with_context(|| format!("cannot write {}", p.display()))?;
        }
        let doc = report_page::kernel_report(&results, &file.display().to_string())?;
        doc.to_html()?
    } else {
        let files = expand(&args.from)?;
        let mut values: Vec<(PathBuf, bool, Value)> = files
            .into_iter()
            .map(|(f, in_dir)| read_json(&f).map(|v| (f, in_dir, v)))
            .collect::<anyhow::Result<_>>()?;
        // Lab results in a directory: other JSON there (a saved device list, say) is passed over.
        if values.iter().any(|(_, _, v)| is_lab(v)) {
            values.retain(|(f, in_dir, v)| {
                let keep = is_lab(v) || !in_dir;
                if !keep {
                    eprintln!("warpscope: {}: not a lab result, passed over", f.display());
                }
                keep
            });
        }
        let values: Vec<(PathBuf, Value)> = values.into_iter().map(|(f, _, v)| (f, v)).collect();
        let labs = values.iter().filter(|(_, v)| is_lab(v)).count();
        if labs == values.len() {
            let mut results = Vec::new();
            for (f, v) in values {
                let r: LabResult = serde_json::from_value(v)
                    .with_context(|| format!("{}: not a `warpscope lab` result", f.display()))?;
                results.push(r);
            }
            lab_html("warpscope lab results", &results)?
        } else if labs == 0 && values.len() == 1 {
            let (f, v) = values.into_iter().next().context("no input")?;
            let results = report_page::load_kernel_results(v);
            report_page::kernel_report(&results, &f.display().to_string())?.to_html()?
        } else {
            bail!(
                "--from takes lab results (any number) or one kernel analysis, not a mix or several analyses"
            );
        }
    };
    std::fs::write(&args.output, html).with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
}
