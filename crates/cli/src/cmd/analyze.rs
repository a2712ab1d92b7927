//! `warpscope analyze`: emulates a kernel on the CPU, once, and reports what the sections ask for
//! (`--section banks,divergence,hazards,fix,occupancy`, default all): shared-memory wavefronts per
//! source line and per instruction with the bank picture of each instruction's worst request,
//! divergence and lane utilisation, the hazard checker's findings, the fix advisor's suggestions and
//! the occupancy. The driver (`warpscope_driver`) does the work; this module defines the flags and
//! renders the results.

use std::process::ExitCode;

use warpscope_driver::{Analyzed, Sections};
use warpscope_model::arch::Arch;

use crate::findings;
use crate::launch::LaunchArgs;
use crate::output::{Block, Column, Format, OutputArgs, Tabular, emit_blocks_fitted};
use crate::render::analysis::{Analysis, analysis};
use crate::render::analysis_blocks::{blocks, divergence_blocks, head};

/// Flags of `warpscope analyze`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    /// Target architecture (for compiling, the machine code and the bank rules).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// The sections to answer, as Nsight Compute's: banks, divergence, hazards, fix, occupancy, or
    /// all (the default). One emulation answers every section.
    #[arg(long, value_name = "LIST", default_value = "all")]
    section: String,
    /// Report same-value writes as hazard findings (see `warpscope check --help`).
    #[arg(long)]
    report_same_value_writes: bool,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    measure: crate::measure::MeasureArgs,
}

/// Runs `warpscope analyze`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate everything cheap first.
    let arch = Arch::parse(&args.arch)?;
    let sections = Sections::parse(&args.section).map_err(crate::launch::driver_error)?;
    let mut req = args.launch.request(arch, sections)?;
    req.same_value_writes = args.report_same_value_writes;
    if args.measure.wanted() || args.measure.measure_child {
        return crate::measure::analyze_and_measure(&args.measure, &req, &args.output, |a| {
            let an = analysis(a)?;
            let b = all_blocks(&an, a);
            Ok((an, b))
        });
    }
    let a = crate::launch::analyze(&req)?;
    let analysis = analysis(&a)?;
    let mut out = std::io::stdout().lock();
    // on a terminal (or with COLUMNS) the tables for people fit its width
    let width = crate::output::known_width().filter(|_| args.output.format == Format::Table);
    let mut blocks = all_blocks(&analysis, &a);
    if let Some(w) = width {
        blocks = fit_instructions(blocks, usize::from(w));
    }
    emit_blocks_fitted(
        &mut out,
        args.output.format,
        args.output.color(),
        &analysis,
        &blocks,
        width,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The per-instruction table, when wider than `width`: the table without its banks picture (the
/// source as `file:line` without folders), then the pictures in a table of their own, each row
/// named by its pc. The CSV table beside it keeps every column.
fn fit_instructions(blocks: Vec<Block>, width: usize) -> Vec<Block> {
    blocks
        .into_iter()
        .flat_map(|b| match b {
            Block::ShownTable(t)
                if t.columns.first().is_some_and(|c| c.title == "pc")
                    && t.columns.last().is_some_and(|c| c.title.starts_with("banks"))
                    && crate::output::natural_width(&t) > width =>
            {
                let last = t.columns.len() - 1;
                let (title, legend) = t.title.split_once('(').unwrap_or((&t.title, ""));
                let mut main = Tabular::new(title.trim_end(), t.columns[..last].to_vec());
                let mut banks = Tabular::new(
                    format!("banks 0..31 of each instruction's worst request ({legend}"),
                    vec![
                        t.columns[0].clone(),
                        t.columns[1].clone(),
                        Column::new("banks 0..31", t.columns[last].csv.clone()),
                    ],
                );
                for r in &t.rows {
                    let mut cells = r[..last.min(r.len())].to_vec();
                    if let Some(src) = cells.get_mut(1)
                        && let Some((file, line)) = src.0.rsplit_once(':')
                    {
                        let name = file.rsplit('/').next().unwrap_or(file);
                        src.0 = format!("{name}:{line}");
                    }
                    banks.toned_row(vec![
                        cells[0].clone(),
                        cells.get(1).cloned().unwrap_or_default(),
                        r.get(last).cloned().unwrap_or_default(),
                    ]);
                    main.toned_row(cells);
                }
                vec![
                    Block::ShownTable(main),
                    Block::Text(String::new()),
                    Block::ShownTable(banks),
                ]
            }
            other => vec![other],
        })
        .collect()
}

/// The output of every section: the bank tables (when asked), divergence, hazards, fix, occupancy.
fn all_blocks(an: &Analysis, a: &Analyzed) -> Vec<Block> {
    let s = &a.results.sections;
    let mut out = if s.banks {
        blocks(an)
    } else {
        let mut b = vec![Block::Text(head(an).join("\n"))];
        if let Some(d) = &an.divergence {
            b.extend(divergence_blocks(d));
        }
        b
    };
    if let Some(h) = &an.hazards {
        out.push(Block::Heading("hazards".into()));
        out.extend(findings::blocks(a.name.display(), h));
    }
    if let Some(f) = &an.fix {
        out.push(Block::Heading("fix".into()));
        out.extend(crate::cmd::fix::blocks(f, &a.module.program));
    }
    if let Some(o) = &an.occupancy {
        out.push(Block::Heading("occupancy".into()));
        let mut t = Tabular::new(
            "",
            [
                ("registers", "registers"),
                ("static smem", "static_smem"),
                ("dyn smem", "dyn_smem"),
                ("threads", "threads"),
                ("blocks/SM", "blocks_per_sm"),
                ("warps/SM", "warps_per_sm"),
                ("occupancy", "sm__maximum_warps_per_active_cycle_pct"),
                ("limited by", "limiters"),
            ]
            .map(|(t, c)| Column::new(t, c))
            .to_vec(),
        );
        t.row([
            o.registers.to_string(),
            o.static_smem.to_string(),
            o.dyn_smem.to_string(),
            o.threads.to_string(),
            o.blocks_per_sm.to_string(),
            format!("{} of {}", o.warps_per_sm, o.max_warps_per_sm),
            format!("{:.1}", o.occupancy * 100.0),
            o.limiters.join(", "),
        ]);
        out.push(Block::Table(t));
    }
    if !an.section_notes.is_empty() {
        out.push(Block::Notes(an.section_notes.clone()));
    }
    out
}
