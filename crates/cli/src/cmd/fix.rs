//! `warpscope fix`: emulates one launch, finds for every conflicting shared array the cheapest padding
//! or XOR swizzle that removes its bank conflicts (evaluated on the recorded accesses with the bank
//! model), and shows the source change, the extra shared memory and the occupancy effect. With
//! `--arch LIST|all` it also compares the original layout and the changes under other
//! architectures' bank rules (the work is `warpscope_analysis::fix`).
//!
//! Launch flags are the shared ones of `crate::launch` (as `warpscope check`); the machine-code
//! reconciliation uses `--sass FILE`, or ptxas + nvdisasm when a CUDA toolkit is found, else widths
//! are PTX-level and the output says so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;

use anyhow::Context;
use comfy_table::{ContentArrangement, Table};
use serde::Serialize;
use warpscope_analysis::fix::{self, Advice, AdviseConfig, Target, WhatIf};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Limits, Program};
use warpscope_toolchain::locate::{SearchEnv, find};

use crate::cmd::analyze::reconcile_from_sass;
use crate::launch::LaunchArgs;

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tables for people.
    Table,
    /// One JSON object: `{ kernel, target, arrays, suggestions: [{array, kind, change,
    /// wavefronts_before, wavefronts_after, extra_shared_bytes, ...}], what_if, notes }`.
    Json,
}

/// Flags of `warpscope fix`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    /// The `.cu` source, for the source edits (default: the PTX's `.file` when it exists).
    #[arg(long, value_name = "FILE")]
    source: Option<PathBuf>,
    /// The architecture the suggestions are for (Kepler's 8-byte bank mode: `sm_35:8B`).
    #[arg(long, default_value = "sm_90")]
    target: String,
    /// What-if: compare under these architectures' bank rules (`sm_20,sm_35:8B,sm_90` or `all`).
    #[arg(long, value_name = "LIST|all")]
    arch: Option<String>,
    /// Registers per thread for the occupancy (default: ptxas's count, else 32 assumed).
    #[arg(long, value_name = "N")]
    registers: Option<u32>,
    /// Use this `nvdisasm -g -c` output as the machine code instead of running ptxas and nvdisasm.
    #[arg(long, value_name = "FILE", conflicts_with = "ptx_widths")]
    sass: Option<PathBuf>,
    /// Count accesses as PTX writes them (skip the machine code).
    #[arg(long)]
    ptx_widths: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

#[derive(Serialize)]
struct Output {
    kernel: String,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
    widths: String,
    source_file: Option<String>,
    #[serde(flatten)]
    advice: Advice,
    what_if: Option<WhatIf>,
    faults: Vec<String>,
}

/// Machine code by ptxas + nvdisasm, or why there is none.
fn machine_code(ptx_path: &Path, arch: &str) -> Result<(String, String), String> {
    let root = find(&SearchEnv::from_process()).map_err(|e| format!("no CUDA toolkit found ({e})"))?;
    let dir = std::env::temp_dir().join(format!("warpscope-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let cubin = dir.join("k.cubin");
    let result = (|| -> Result<String, String> {
        let out = Command::new(root.bin("ptxas"))
            .arg(format!("-arch={arch}"))
            .args(["-O3", "-lineinfo", "-o"])
            .arg(&cubin)
            .arg(ptx_path)
            .output()
            .map_err(|e| format!("cannot run ptxas: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "ptxas failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        warpscope_toolchain::sass::disassemble(&root.bin("nvdisasm"), &cubin).map_err(|e| e.to_string())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|s| (s, format!("ptxas + nvdisasm from {}", root.root.display())))
}

/// Registers per thread from ptxas for the target, when a toolkit is there and supports it.
fn ptxas_registers(ptx_path: &Path, kernel: &str, cc: u32) -> Option<u32> {
    let root = find(&SearchEnv::from_process()).ok()?;
    let all = warpscope_toolchain::resources::resource_usage(&root, ptx_path, cc).ok()?;
    warpscope_toolchain::resources::select(&all, kernel, ptx_path)
        .ok()
        .map(|k| k.registers)
}

/// The source: `--source`, or the first `.file` of the PTX that exists.
fn source_text(args: &Args, program: &Program) -> anyhow::Result<Option<(String, String)>> {
    if let Some(p) = &args.source {
        let text = std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        return Ok(Some((p.display().to_string(), text)));
    }
    for (_, name) in &program.files {
        if name.ends_with(".cu")
            && let Ok(text) = std::fs::read_to_string(name)
        {
            return Ok(Some((name.clone(), text)));
        }
    }
    Ok(None)
}

/// Runs `warpscope fix`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate the cheap things first.
    let target = Target::parse(&args.target).context("--target")?;
    let targets = match &args.arch {
        Some(list) => Some(Target::parse_list(list).context("--arch")?),
        None => None,
    };
    let prepared = args.launch.prepare()?;
    let (program, kernel, launch) = (prepared.program, prepared.kernel, prepared.launch);
    let source = source_text(&args, &program)?;
    let ptx_path = &args.launch.ptx;
    let (recon, widths) = if args.ptx_widths {
        (
            Reconciliation::ptx_level(),
            "PTX-level (--ptx-widths)".to_string(),
        )
    } else if let Some(path) = &args.sass {
        let sass =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        (
            reconcile_from_sass(&program, &kernel, &sass)?,
            format!("machine code from {}", path.display()),
        )
    } else {
        match machine_code(ptx_path, target.arch.name) {
            Ok((sass, how)) => (
                reconcile_from_sass(&program, &kernel, &sass)?,
                format!("machine code by {how}"),
            ),
            Err(why) => (Reconciliation::ptx_level(), format!("PTX-level: {why}")),
        }
    };
    let trace = fix::record(&program, &kernel, &launch, &Limits::default(), Arc::new(recon))?;
    let k = program.kernel(&kernel).context("kernel")?;
    let arrays = fix::arrays(k, launch.dyn_smem);
    let (registers, registers_from) = match args.registers {
        Some(r) => (Some(r), "--registers".to_string()),
        None => (
            ptxas_registers(ptx_path, &kernel, target.arch.cc()),
            "ptxas".to_string(),
        ),
    };
    let cfg = AdviseConfig {
        target,
        threads: launch.block.iter().product(),
        registers,
        registers_from,
        source: source.as_ref().map(|s| s.1.clone()),
    };
    let advice = fix::advise(&trace, &arrays, &cfg)?;
    let what_if = match &targets {
        Some(t) => Some(fix::what_if(&trace, &arrays, t)?),
        None => None,
    };
    let out = Output {
        kernel,
        grid: launch.grid,
        block: launch.block,
        dyn_smem: launch.dyn_smem,
        widths,
        source_file: source.map(|s| s.0),
        advice,
        what_if,
        faults: trace.faults,
    };
    let mut w = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut w, &out)?;
            writeln!(w)?;
        }
        Format::Table => print(&mut w, &out, &program)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn table() -> Table {
    let mut t = Table::new();
    t.set_content_arrangement(ContentArrangement::Disabled);
    t
}

fn occ_text(o: Option<fix::OccupancyAt>) -> String {
    o.map_or("-".into(), |o| {
        format!("{} blocks/SM ({:.0}%)", o.blocks_per_sm, o.occupancy * 100.0)
    })
}

fn print(w: &mut impl Write, o: &Output, program: &Program) -> anyhow::Result<()> {
    let a = &o.advice;
    writeln!(
        w,
        "kernel {}  grid {:?}  block {:?}  dyn smem {} B  target {}  registers {} ({})",
        o.kernel, o.grid, o.block, o.dyn_smem, a.target, a.resources.registers, a.resources.registers_from
    )?;
    writeln!(w, "widths: {}", o.widths)?;
    let mut t = table();
    t.set_header([
        "array",
        "offset",
        "bytes",
        "access bytes",
        "wavefronts",
        "ideal",
        "conflicts",
    ]);
    for r in &a.arrays {
        t.add_row([
            format!(
                "{}{}",
                r.info.name,
                if r.info.dynamic { " (dynamic)" } else { "" }
            ),
            r.info.offset.to_string(),
            r.info.size.to_string(),
            r.access_bytes.to_string(),
            r.cost.wavefronts.to_string(),
            r.cost.ideal.to_string(),
            if r.conflicts { "yes".into() } else { "no".into() },
        ]);
    }
    writeln!(w, "{t}")?;
    if a.suggestions.is_empty() {
        writeln!(w, "no bank conflicts on {}: nothing to fix", a.target)?;
    } else {
        let mut t = table();
        t.set_header([
            "array",
            "",
            "kind",
            "change",
            "wavefronts",
            "ideal",
            "extra smem",
            "occupancy",
        ]);
        for s in &a.suggestions {
            t.add_row([
                s.array.clone(),
                if s.recommended {
                    "best".into()
                } else {
                    "alt".into()
                },
                s.kind.clone(),
                s.change.clone(),
                format!("{} -> {}", s.wavefronts_before, s.wavefronts_after),
                s.ideal.to_string(),
                format!("+{} B", s.extra_shared_bytes),
                format!(
                    "{} -> {}",
                    occ_text(s.occupancy_before),
                    occ_text(s.occupancy_after)
                ),
            ]);
        }
        writeln!(w, "\nsuggestions on {}\n{t}", a.target)?;
        for s in &a.suggestions {
            let Some(e) = &s.source else { continue };
            writeln!(
                w,
                "\n{} ({}, {}):",
                s.array,
                s.kind,
                if s.recommended { "best" } else { "alternative" }
            )?;
            match (&e.line, &e.before) {
                (Some(l), Some(b)) if !e.after.contains(" for every ") && !e.after.contains(" where row") => {
                    writeln!(w, "  line {l}: {}\n       -> {}", b.trim(), e.after.trim())?;
                }
                _ => writeln!(w, "  index: {}", e.after)?,
            }
            if !e.index_lines.is_empty() && s.kind == "swizzle"
                || s.source.as_ref().is_some_and(|e| e.after.contains(" where row"))
            {
                writeln!(w, "  apply at every access: lines {:?}", e.index_lines)?;
            }
        }
    }
    for n in &a.notes {
        writeln!(w, "note: {n}")?;
    }
    if let Some(wi) = &o.what_if {
        let mut t = table();
        let mut head = vec!["array".to_string(), "layout".to_string()];
        head.extend(wi.columns.iter().cloned());
        t.set_header(head);
        for r in &wi.rows {
            let mut row = vec![r.array.clone(), r.layout.clone()];
            row.extend(r.cells.iter().map(|c| {
                if c.wavefronts > c.ideal {
                    format!("{}/{} !", c.wavefronts, c.ideal)
                } else {
                    format!("{}/{}", c.wavefronts, c.ideal)
                }
            }));
            t.add_row(row);
        }
        writeln!(
            w,
            "\nwhat-if: wavefronts/ideal per architecture (! = conflicts remain)\n{t}"
        )?;
        for r in &wi.remarks {
            let info = program.inst_info(r.pc);
            let src = info
                .loc
                .map(|l| format!("{}:{}", program.file_name(l.file).unwrap_or("?"), l.line))
                .unwrap_or_else(|| format!("ptx:{}", info.ptx_line));
            writeln!(
                w,
                "{}: `{}` is enough on {} but not on {}: {} (`{}`) still takes {} wavefronts (ideal {}){}",
                r.array,
                r.layout,
                r.enough_on.join(", "),
                r.target,
                src,
                info.text.trim(),
                r.cost.wavefronts,
                r.cost.ideal,
                r.fix_there
                    .as_ref()
                    .map_or(String::new(), |f| format!("; there use `{f}`"))
            )?;
        }
    }
    if !o.faults.is_empty() {
        writeln!(w, "\nemulator faults:")?;
        for f in &o.faults {
            writeln!(w, "  {f}")?;
        }
    }
    Ok(())
}
