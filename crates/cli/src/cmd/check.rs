//! `warpscope check`: emulates one launch and reports shared- and global-memory races, divergent and redundant
//! barriers, uninitialised reads, out-of-bounds accesses and what stops the launch on a GPU (traps,
//! asserts, stores to read-only memory); same-value writes with `--report-same-value-writes` (the
//! analysis is `warpscope_analysis::hazards`, run by the driver with the `hazards` section only).
//! Exit status 1 when an error-severity finding exists, else 0. `--format sarif` writes SARIF 2.1.0
//! for CI.

use std::process::ExitCode;

use serde::Serialize;
use warpscope_analysis::divergence::is_debug_ptx;
use warpscope_driver::{InputKind, Sections};
use warpscope_model::arch::Arch;

use crate::exit;
use crate::findings::{self, HazardsOut};
use crate::launch::LaunchArgs;
use crate::output::{self, Format, emit_blocks};

/// Output formats of `check`: the shared ones and SARIF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Tables for people: one row per group of findings, 80 columns.
    #[default]
    Table,
    /// JSON: every finding, and the groups.
    Json,
    /// CSV: one row per finding.
    Csv,
    /// Markdown tables.
    Markdown,
    /// SARIF 2.1.0 (code-scanning annotations): one result per group of findings.
    Sarif,
}

/// Flags of `warpscope check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    /// Target architecture (for compiling a `.cu`).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
    format: CheckFormat,
    /// No colour, even on a terminal (the `NO_COLOR` environment variable does the same).
    #[arg(long)]
    no_color: bool,
    /// Report same-value writes (threads writing the same bytes to one shared address, not
    /// ordered by a barrier: benign to most verifiers, a data race to the CUDA memory model) as
    /// warnings; by default they are only counted in a note.
    #[arg(long)]
    report_same_value_writes: bool,
    /// Check shared memory only: leave out global-memory races (within a block, and between
    /// blocks through fences, atomics and flags).
    #[arg(long)]
    no_global_races: bool,
}

#[derive(Serialize)]
struct LaunchOut {
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
}

#[derive(Serialize)]
struct Output {
    kernel: String,
    launch: LaunchOut,
    #[serde(flatten)]
    hazards: HazardsOut,
}

/// The note for a `.cu` compiled optimised: what the optimiser removes is not checked.
pub const AS_COMPILED: &str = "checked as compiled (optimised, no -G): stores that nothing reads afterwards are deleted by the compiler, so races in them are not seen; --nvrtc-option=-G checks the source as written";

/// Runs `warpscope check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let arch = Arch::parse(&args.arch)?;
    let sections = Sections {
        hazards: true,
        ..Sections::NONE
    };
    let mut req = args.launch.request(arch, sections)?;
    req.same_value_writes = args.report_same_value_writes;
    req.no_global_races = args.no_global_races;
    let a = crate::launch::analyze(&req)?;
    let r = &a.results;
    let Some(h) = &r.hazards else {
        anyhow::bail!("the hazard checker did not run");
    };
    let shown = a.name.display().to_string();
    let mut hazards = findings::hazards_out(&a.module.program, h);
    if a.module.kind == InputKind::Cuda && !is_debug_ptx(&a.module.ptx) {
        hazards.notes.push(AS_COMPILED.to_string());
    }
    let errors = hazards.errors;
    let mut out = std::io::stdout().lock();
    if args.format == CheckFormat::Sarif {
        let doc = findings::sarif(&a.module.program, &args.launch.file, &shown, h);
        serde_json::to_writer_pretty(&mut out, &doc)?;
        std::io::Write::write_all(&mut out, b"\n")?;
    } else {
        let format = match args.format {
            CheckFormat::Json => Format::Json,
            CheckFormat::Csv => Format::Csv,
            CheckFormat::Markdown => Format::Markdown,
            _ => Format::Table,
        };
        let blocks = findings::blocks(&shown, &hazards);
        let o = Output {
            kernel: r.kernel.clone(),
            launch: LaunchOut {
                grid: r.grid,
                block: r.block,
                dyn_smem: r.dyn_smem,
            },
            hazards,
        };
        let color = output::use_color(
            args.no_color,
            std::env::var_os("NO_COLOR"),
            std::io::IsTerminal::is_terminal(&std::io::stdout()),
        );
        emit_blocks(&mut out, format, color, &o, &blocks)?;
    }
    Ok(if errors > 0 {
        ExitCode::from(exit::FINDINGS)
    } else {
        ExitCode::SUCCESS
    })
}
