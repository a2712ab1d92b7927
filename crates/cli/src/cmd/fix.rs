//! `warpscope fix`: emulates one launch, finds for every conflicting shared array the cheapest padding
//! or XOR swizzle that removes its bank conflicts (evaluated on the recorded accesses with the bank
//! model), and shows the source change, the extra shared memory and the occupancy effect. With
//! `--arch LIST|all` it also compares the original layout and the changes under other
//! architectures' bank rules (the work is `warpscope_analysis::fix`).
//!
//! Launch flags are the shared ones of `crate::launch`; the driver runs the launch once with the
//! `fix` section (the machine-code reconciliation uses `--sass FILE`, or ptxas + nvdisasm when a CUDA
//! toolkit is found, else widths are PTX-level and the output says so).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;
use warpscope_analysis::fix::{self, Advice, Target, WhatIf};
use warpscope_driver::{FixRequest, Sections};
use warpscope_emu::Program;

use crate::launch::LaunchArgs;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// Flags of `warpscope fix`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    /// The `.cu` source, for the source edits (default: the `.cu` given, or the PTX's `.file` when
    /// it exists).
    #[arg(long, value_name = "FILE")]
    source: Option<PathBuf>,
    /// The architecture the suggestions are for (Kepler's 8-byte bank mode: `sm_35:8B`); also the
    /// one a `.cu` is compiled for.
    #[arg(long, default_value = "sm_90")]
    target: String,
    /// What-if: compare under these architectures' bank rules (`sm_20,sm_35:8B,sm_90` or `all`).
    #[arg(long, value_name = "LIST|all")]
    arch: Option<String>,
    /// Registers per thread for the occupancy (default: ptxas's count, else 32 assumed).
    #[arg(long, value_name = "N")]
    registers: Option<u32>,
    /// Output format (JSON: `{ kernel, target, arrays, suggestions: [{array, kind, change,
    /// wavefronts_before, wavefronts_after, extra_shared_bytes, ...}], what_if, notes }`).
    #[command(flatten)]
    output: OutputArgs,
}

/// The result of `warpscope fix` (its JSON).
#[derive(Serialize)]
pub struct Output {
    kernel: String,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
    widths: String,
    /// Whether the target preset's bank and occupancy rules are measured, assumed or documented.
    rules_basis: serde_json::Value,
    #[serde(skip)]
    rules_line: String,
    source_file: Option<String>,
    #[serde(flatten)]
    advice: Advice,
    what_if: Option<WhatIf>,
    faults: Vec<String>,
}

/// The fix advisor's output for a run (`widths`: the run's widths note).
pub fn output(a: &warpscope_driver::Analyzed) -> anyhow::Result<Output> {
    let r = &a.results;
    let f = r.fix.as_ref().context("the fix advisor did not run")?;
    let advice = f.advice.clone().map_err(|e| anyhow::anyhow!("{e}"))?;
    let what_if = match &f.what_if {
        Some(w) => Some(w.clone().map_err(|e| anyhow::anyhow!("--arch: {e}"))?),
        None => None,
    };
    let note = &r.widths.note;
    Ok(Output {
        kernel: r.kernel.clone(),
        grid: r.grid,
        block: r.block,
        dyn_smem: r.dyn_smem,
        widths: note.strip_prefix("widths are ").unwrap_or(note).to_string(),
        rules_basis: warpscope_measure::basis::json(r.arch),
        rules_line: warpscope_measure::basis::line(r.arch),
        source_file: a.source.as_ref().map(|s| s.0.clone()),
        advice,
        what_if,
        faults: f.trace.faults.clone(),
    })
}

/// Runs `warpscope fix`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate the cheap things first.
    let target = Target::parse(&args.target).context("--target")?;
    let what_if = match &args.arch {
        Some(list) => Some(Target::parse_list(list).context("--arch")?),
        None => None,
    };
    let sections = Sections {
        fix: true,
        ..Sections::NONE
    };
    let mut req = args.launch.request(target.arch, sections)?;
    req.fix = Some(FixRequest {
        target: Some(target),
        registers: args.registers,
        source: args.source.clone(),
        what_if,
    });
    let a = crate::launch::analyze(&req)?;
    let out = output(&a)?;
    let mut w = std::io::stdout().lock();
    emit_blocks(
        &mut w,
        args.output.format,
        args.output.color(),
        &out,
        &blocks(&out, &a.module.program),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn table(title: &str, columns: &[(&str, &str)]) -> Tabular {
    Tabular::new(title, columns.iter().map(|(t, c)| Column::new(*t, *c)).collect())
}

fn occ_text(o: Option<fix::OccupancyAt>) -> String {
    o.map_or("-".into(), |o| {
        format!("{} blocks/SM ({:.0}%)", o.blocks_per_sm, o.occupancy * 100.0)
    })
}

/// The output for people and for CSV (arrays, suggestions, what-if: one CSV table each).
pub fn blocks(o: &Output, program: &Program) -> Vec<Block> {
    let a = &o.advice;
    let mut blocks = vec![Block::Text(format!(
        "kernel {}  grid {:?}  block {:?}  dyn smem {} B  target {}  registers {} ({})\nwidths: {}",
        warpscope_driver::kernel::KernelName::new(&o.kernel).display(),
        o.grid,
        o.block,
        o.dyn_smem,
        a.target,
        a.resources.registers,
        a.resources.registers_from,
        o.widths
    ))];
    blocks.push(Block::Text(o.rules_line.clone()));
    let mut t = table(
        "",
        &[
            ("array", "array"),
            ("offset", "offset"),
            ("bytes", "bytes"),
            ("access bytes", "access_bytes"),
            ("wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
            ("ideal", "ideal_wavefronts"),
            ("conflicts", "conflicts"),
        ],
    );
    for r in &a.arrays {
        t.toned_row(vec![
            (
                format!(
                    "{}{}",
                    r.info.name,
                    if r.info.dynamic { " (dynamic)" } else { "" }
                ),
                Tone::Plain,
            ),
            (r.info.offset.to_string(), Tone::Plain),
            (r.info.size.to_string(), Tone::Plain),
            (r.access_bytes.to_string(), Tone::Plain),
            (r.cost.wavefronts.to_string(), Tone::Plain),
            (r.cost.ideal.to_string(), Tone::Plain),
            if r.conflicts {
                ("yes".into(), Tone::Bad)
            } else {
                ("no".into(), Tone::Good)
            },
        ]);
    }
    blocks.push(Block::Table(t));
    let mut t = table(
        &format!("suggestions on {}", a.target),
        &[
            ("array", "array"),
            ("", "rank"),
            ("kind", "kind"),
            ("change", "change"),
            ("wavefronts", "wavefronts_before_after"),
            ("ideal", "ideal_wavefronts"),
            ("extra smem", "extra_shared_bytes"),
            ("occupancy", "occupancy_before_after"),
        ],
    );
    for s in &a.suggestions {
        t.toned_row(vec![
            (s.array.clone(), Tone::Plain),
            if s.recommended {
                ("best".into(), Tone::Good)
            } else {
                ("alt".into(), Tone::Plain)
            },
            (s.kind.clone(), Tone::Plain),
            (s.change.clone(), Tone::Plain),
            (
                format!("{} -> {}", s.wavefronts_before, s.wavefronts_after),
                Tone::Plain,
            ),
            (s.ideal.to_string(), Tone::Plain),
            (format!("+{} B", s.extra_shared_bytes), Tone::Plain),
            (
                format!(
                    "{} -> {}",
                    occ_text(s.occupancy_before),
                    occ_text(s.occupancy_after)
                ),
                Tone::Plain,
            ),
        ]);
    }
    if a.suggestions.is_empty() && a.hopper.is_empty() {
        blocks.push(Block::Text(if a.arrays.iter().any(|r| r.conflicts) {
            format!("no layout change to suggest on {} (the notes say why)", a.target)
        } else {
            format!("no bank conflicts on {}: nothing to fix", a.target)
        }));
        blocks.push(Block::CsvTable(t));
    } else if a.suggestions.is_empty() {
        blocks.push(Block::CsvTable(t));
    } else {
        blocks.push(Block::Text(String::new()));
        blocks.push(Block::Table(t));
        for s in &a.suggestions {
            let Some(e) = &s.source else { continue };
            let mut text = format!(
                "\n{} ({}, {}):\n",
                s.array,
                s.kind,
                if s.recommended { "best" } else { "alternative" }
            );
            match (&e.line, &e.before) {
                (Some(l), Some(b)) if !e.after.contains(" for every ") && !e.after.contains(" where row") => {
                    text += &format!("  line {l}: {}\n       -> {}", b.trim(), e.after.trim());
                }
                _ if s.kind == "permute" => {
                    let (table, index) = e.after.split_once('\n').unwrap_or((&e.after, ""));
                    text += &format!("  add:   {table}\n  index: {index}");
                }
                _ if s.kind == "swizzle" => {
                    let (index, cute) = e.after.split_once('\n').unwrap_or((&e.after, ""));
                    text += &format!("  index: {index}");
                    if let Some(c) = cute.strip_prefix("CuTe: ") {
                        text += &format!("\n  CuTe:  {c}");
                    }
                }
                _ => text += &format!("  index: {}", e.after),
            }
            if !e.index_lines.is_empty() && matches!(s.kind.as_str(), "swizzle" | "permute")
                || e.after.contains(" where row")
            {
                text += &format!("\n  apply at every access: lines {:?}", e.index_lines);
            }
            blocks.push(Block::Code(text));
        }
    }
    if !a.hopper.is_empty() {
        blocks.push(Block::Text(String::new()));
        blocks.extend(hopper_blocks(&a.hopper));
    }
    blocks.push(Block::Notes(a.notes.clone()));
    if let Some(wi) = &o.what_if {
        let mut cols: Vec<Column> = vec![Column::new("array", "array"), Column::new("layout", "layout")];
        cols.extend(wi.columns.iter().map(|c| Column::new(c.clone(), c.clone())));
        let mut t = Tabular::new(
            "what-if: wavefronts/ideal per architecture (! = conflicts remain)",
            cols,
        );
        for r in &wi.rows {
            let mut row = vec![(r.array.clone(), Tone::Plain), (r.layout.clone(), Tone::Plain)];
            row.extend(r.cells.iter().map(|c| {
                if c.wavefronts > c.ideal {
                    (format!("{}/{} !", c.wavefronts, c.ideal), Tone::Bad)
                } else {
                    (format!("{}/{}", c.wavefronts, c.ideal), Tone::Good)
                }
            }));
            t.toned_row(row);
        }
        blocks.push(Block::Text(String::new()));
        blocks.push(Block::Table(t));
        let mut remarks = Vec::new();
        for r in &wi.remarks {
            let info = program.inst_info(r.pc);
            let src = info
                .loc
                .map(|l| {
                    let f = program.file_name(l.file).unwrap_or("?");
                    format!("{}:{}", f.rsplit('/').next().unwrap_or(f), l.line)
                })
                .unwrap_or_else(|| format!("ptx:{}", info.ptx_line));
            remarks.push(format!(
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
            ));
        }
        if !remarks.is_empty() {
            blocks.push(Block::Text(remarks.join("\n")));
        }
    }
    if !o.faults.is_empty() {
        let mut f = vec![String::new(), "emulator faults:".to_string()];
        f.extend(o.faults.iter().map(|x| format!("  {x}")));
        blocks.push(Block::Text(f.join("\n")));
    }
    blocks
}

/// The wgmma-descriptor and TMA swizzle proposals: a table, then each one's changes.
fn hopper_blocks(list: &[fix::hopper::HopperSuggestion]) -> Vec<Block> {
    let mut t = table(
        "swizzle modes of wgmma operand tiles and TMA boxes",
        &[
            ("array", "array"),
            ("tile", "tile"),
            ("mode", "mode_before_after"),
            ("wavefronts", "wavefronts_before_after"),
            ("ideal", "ideal_wavefronts"),
            ("per mode", "wavefronts_per_mode"),
            ("extra smem", "extra_shared_bytes"),
        ],
    );
    let mut out = Vec::new();
    for s in list {
        t.toned_row(vec![
            (s.array.clone(), Tone::Plain),
            (s.tile.clone(), Tone::Plain),
            (format!("{} -> {}", s.current, s.proposed), Tone::Good),
            (
                format!("{} -> {}", s.wavefronts_before, s.wavefronts_after),
                Tone::Plain,
            ),
            (s.ideal.to_string(), Tone::Plain),
            (
                s.modes
                    .iter()
                    .map(|m| format!("{} {}", m.mode, m.wavefronts))
                    .collect::<Vec<_>>()
                    .join(", "),
                Tone::Plain,
            ),
            (format!("+{} B", s.extra_shared_bytes), Tone::Plain),
        ]);
    }
    out.push(Block::Table(t));
    for s in list {
        let mut text = format!("\n{} ({}, pcs {:?}):\n", s.array, s.tile, s.pcs);
        if let Some(d) = &s.descriptor {
            text += &format!("  descriptor: {d}\n");
        }
        if let Some(m) = &s.tensor_map {
            text += &format!("  tensor map: {m}\n");
        }
        text += &format!(
            "  addresses:  {}\n  CuTe:       {}\n  {}",
            s.access_change, s.cute, s.basis
        );
        out.push(Block::Code(text));
    }
    out
}
