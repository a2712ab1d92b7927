//! `warpscope check`: emulates one launch and reports shared-memory races, divergent and redundant
//! barriers, uninitialised reads and out-of-bounds accesses (the analysis lives in
//! `warpscope_analysis::hazards`). Exit status 1 when an error-severity finding exists, else 0.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use serde::Serialize;
use warpscope_analysis::hazards::{
    Finding, HazardConfig, HazardReport, HazardSink, Loc, SHADOW_BYTES_PER_SHARED_BYTE, Severity,
};
use warpscope_emu::Program;

use crate::exit;
use crate::launch::LaunchArgs;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// Flags of `warpscope check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Serialize)]
struct LaunchOut {
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
}

#[derive(Serialize)]
struct FindingOut<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    /// Source file of `line`, when known.
    file: Option<String>,
    /// Example threads as (x, y, z) in their block.
    threads_xyz: Vec<[u32; 3]>,
}

#[derive(Serialize)]
struct Output<'a> {
    kernel: &'a str,
    launch: LaunchOut,
    findings: Vec<FindingOut<'a>>,
    errors: usize,
    warnings: usize,
    notes: Vec<String>,
}

fn locate(program: &Program, pc: u32) -> (Loc, Option<String>) {
    let info = program.inst_info(pc);
    match info.loc {
        Some(l) => {
            let file = program
                .file_name(l.file)
                .map(|f| f.rsplit('/').next().unwrap_or(f).to_string());
            let label = match &file {
                Some(f) => format!("{f}:{}", l.line),
                None => format!("line {}", l.line),
            };
            (
                Loc {
                    line: Some(l.line),
                    label,
                },
                file,
            )
        }
        None => (
            Loc {
                line: None,
                label: format!("PTX line {}", info.ptx_line),
            },
            None,
        ),
    }
}

/// Runs `warpscope check`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let prepared = args.launch.prepare()?;
    let program = &prepared.program;
    let kernel = program.kernel(&prepared.kernel).context("kernel vanished")?;
    let launch = &prepared.launch;
    let cfg = Arc::new(HazardConfig::for_kernel(kernel, launch.block, launch.dyn_smem));
    let limits = crate::limits::emu_limits(launch, 1 << 28);
    let res = warpscope_emu::run(program, &prepared.kernel, launch, &limits, |b| {
        HazardSink::new(Arc::clone(&cfg), b)
    })
    .with_context(|| {
        format!(
            "{}: cannot emulate `{}`",
            args.launch.ptx.display(),
            prepared.kernel
        )
    })?;
    let mut report = HazardReport::new(Arc::clone(&cfg));
    for sink in res.sinks {
        report.merge(sink);
    }
    let mut notes = vec![
        format!(
            "race tracking keeps {SHADOW_BYTES_PER_SHARED_BYTE} bytes per shared byte per block in flight ({} bytes of shared memory per block)",
            cfg.shared_size
        ),
        "shared memory only: ordering of global memory between threads and blocks is not checked".to_string(),
    ];
    for fault in &res.faults {
        if !report.push_fault(fault) {
            let (loc, _) = locate(program, fault.pc);
            notes.push(format!(
                "block {} stopped at {}: {fault}; later accesses of that block were not checked",
                fault.block, loc.label
            ));
        }
    }
    let loc = |pc: u32| locate(program, pc).0;
    let findings = report.findings(&loc);
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = findings.len() - errors;

    let o = Output {
        kernel: &prepared.kernel,
        launch: LaunchOut {
            grid: launch.grid,
            block: launch.block,
            dyn_smem: launch.dyn_smem,
        },
        findings: findings
            .iter()
            .map(|f| FindingOut {
                finding: f,
                file: f.pcs.last().and_then(|&pc| locate(program, pc).1),
                threads_xyz: f.example.threads.iter().map(|&t| cfg.thread_xyz(t)).collect(),
            })
            .collect(),
        errors,
        warnings,
        notes,
    };
    let mut out = std::io::stdout().lock();
    emit_blocks(&mut out, args.output.format, args.output.color(), &o, &blocks(&o))?;
    Ok(if errors > 0 {
        ExitCode::from(exit::FINDINGS)
    } else {
        ExitCode::SUCCESS
    })
}

/// The findings table, the summary and the notes.
fn blocks(o: &Output<'_>) -> Vec<Block> {
    let mut t = Tabular::new(
        "",
        vec![
            Column::new("severity", "severity"),
            Column::new("kind", "kind"),
            Column::new("line", "lines"),
            Column::new("count", "count"),
            Column::new("finding", "message"),
        ],
    );
    for f in &o.findings {
        let f = f.finding;
        let (sev, tone) = match f.severity {
            Severity::Error => ("error", Tone::Bad),
            Severity::Warning => ("warning", Tone::Warn),
        };
        let lines: Vec<String> = f.lines.iter().map(u32::to_string).collect();
        t.toned_row(vec![
            (sev.to_string(), tone),
            (f.kind.name().to_string(), Tone::Plain),
            (lines.join(","), Tone::Plain),
            (f.count.to_string(), Tone::Plain),
            (f.message.clone(), Tone::Plain),
        ]);
    }
    let mut blocks = Vec::new();
    if o.findings.is_empty() {
        blocks.push(Block::Text(format!("{}: no findings", o.kernel)));
        // CSV readers still get the header line.
        blocks.push(Block::CsvTable(t));
    } else {
        blocks.push(Block::Table(t));
        blocks.push(Block::Text(format!(
            "{}: {} error(s), {} warning(s)",
            o.kernel, o.errors, o.warnings
        )));
    }
    blocks.push(Block::Notes(o.notes.clone()));
    blocks
}
