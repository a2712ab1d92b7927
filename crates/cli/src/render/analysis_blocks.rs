//! The tables of an analysis for people: the head, the bank tables per line and per instruction
//! with each instruction's worst request's bank picture, and the divergence tables.

use warpscope_analysis::banks::{Counts, Side};

use super::analysis::{Analysis, DivergenceJson};
use crate::output::{Block, Column, Tabular, Tone};

fn fmt_dims(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}

fn fmt_nway(x: f64) -> String {
    if x == 0.0 {
        "-".into()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The Nsight Compute metrics of the shared-memory counters, loads then stores:
/// (instructions, wavefronts).
pub const NCU_SHARED: [(&str, &str); 2] = [
    (
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ),
    (
        "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ),
];

/// CSV columns of the counters split by side: for each of load and store, the ncu instruction and
/// wavefront metrics and the ideal wavefronts (`ideal_wavefronts_ld` / `_st`).
fn side_columns() -> Vec<Column> {
    let mut cols = Vec::new();
    for ((inst, wf), side) in NCU_SHARED.iter().zip(["ld", "st"]) {
        cols.push(Column::new(*inst, *inst));
        cols.push(Column::new(*wf, *wf));
        let ideal = format!("ideal_wavefronts_{side}");
        cols.push(Column::new(ideal.clone(), ideal));
    }
    cols
}

/// The counters in the [`side_columns`] layout: the other side's cells are empty.
fn side_cells(side: Side, c: &Counts) -> Vec<String> {
    let these = [
        c.instructions.to_string(),
        c.wavefronts.to_string(),
        c.ideal_wavefronts.to_string(),
    ];
    let empty = [String::new(), String::new(), String::new()];
    match side {
        Side::Load => these.into_iter().chain(empty).collect(),
        Side::Store => empty.into_iter().chain(these).collect(),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Load => "load",
        Side::Store => "store",
    }
}

fn excess_tone(c: &Counts) -> Tone {
    if c.wavefronts > c.ideal_wavefronts {
        Tone::Bad
    } else {
        Tone::Good
    }
}

/// The output of an analysis for people and for CSV: the summary, the totals, the per-line table and
/// the per-instruction table. CSV columns are the Nsight Compute metric names, one table per level
/// (totals, lines, instructions).
pub fn blocks(a: &Analysis) -> Vec<Block> {
    let mut blocks = vec![Block::Text(head(a).join("\n"))];
    blocks.extend(bank_blocks(a));
    if let Some(d) = &a.divergence {
        blocks.extend(divergence_blocks(d));
    }
    if !a.faults.is_empty() {
        let mut f = vec![String::new(), "emulator faults:".to_string()];
        f.extend(a.faults.iter().map(|x| format!("  {x}")));
        blocks.push(Block::Text(f.join("\n")));
    }
    blocks
}

/// The summary lines: the launch, what was emulated, where widths come from.
pub fn head(a: &Analysis) -> Vec<String> {
    let mut head = vec![format!(
        "kernel {}  grid {}  block {}  dyn smem {} B  arch {}",
        warpscope_driver::kernel::KernelName::new(&a.kernel).display(),
        fmt_dims(a.grid),
        fmt_dims(a.block),
        a.dyn_smem,
        a.arch
    )];
    if let Some(arch) = warpscope_measure::basis::arch_named(&a.arch) {
        head.push(warpscope_measure::basis::line(arch));
    }
    if a.blocks_emulated == 0 {
        head.push("nothing emulated: the sections asked for need no emulation".to_string());
    } else if a.extrapolated {
        head.push(format!(
            "{} of {} blocks emulated; totals are extrapolated to the grid",
            a.blocks_emulated, a.blocks_in_grid
        ));
    } else {
        head.push(format!(
            "all {} blocks emulated; totals are exact for this model",
            a.blocks_in_grid
        ));
    }
    head.push(format!("widths: {} ({})", a.widths, a.widths_note));
    if a.fused_groups > 0 {
        head.push(format!(
            "ptxas fused {} groups of PTX accesses into wider ones; each counts once",
            a.fused_groups
        ));
    }
    if !a.unmatched_lines.is_empty() {
        head.push(format!(
            "warning: lines {:?}: PTX and machine accesses could not be matched; counted as in PTX",
            a.unmatched_lines
        ));
    }
    head
}

/// The totals, per-line and per-instruction tables.
fn bank_blocks(a: &Analysis) -> Vec<Block> {
    let mut blocks = Vec::new();

    let mut totals = Tabular::new(
        "",
        ["", "instructions", "wavefronts", "ideal", "excess"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for (name, c) in [
        ("shared loads", &a.shared.load),
        ("shared stores", &a.shared.store),
    ] {
        totals.toned_row(vec![
            (name.to_string(), Tone::Plain),
            (c.instructions.to_string(), Tone::Plain),
            (c.wavefronts.to_string(), Tone::Plain),
            (c.ideal_wavefronts.to_string(), Tone::Plain),
            (format!("{:.2}x", c.conflict_factor()), excess_tone(c)),
        ]);
    }
    for (name, m) in [
        ("of which ldmatrix (LDSM)", &a.shared.ldsm),
        ("of which stmatrix (STSM)", &a.shared.stsm),
        ("cp.async (LDGSTS)", &a.shared.ldgsts),
    ] {
        if m.is_empty() {
            continue;
        }
        let c = Counts {
            instructions: m.instructions,
            wavefronts: m.wavefronts,
            ideal_wavefronts: m.ideal_wavefronts,
            attributed_wavefronts: m.wavefronts,
        };
        totals.toned_row(vec![
            (name.to_string(), Tone::Plain),
            (c.instructions.to_string(), Tone::Plain),
            (c.wavefronts.to_string(), Tone::Plain),
            (c.ideal_wavefronts.to_string(), Tone::Plain),
            (format!("{:.2}x", c.conflict_factor()), excess_tone(&c)),
        ]);
    }
    blocks.push(Block::ShownTable(totals));
    let unmodelled: u64 = [&a.shared.ldsm, &a.shared.stsm, &a.shared.ldgsts]
        .iter()
        .map(|m| m.unmodelled)
        .sum();
    if unmodelled > 0 {
        blocks.push(Block::Text(format!(
            "{unmodelled} ldmatrix/stmatrix/cp.async warp instructions are outside the rules measured on the H100 \
             (calibration/ldsm/README.md) and are not counted"
        )));
    }
    if !a.matrix_instructions.is_empty() {
        let mut t = Tabular::new(
            "ldmatrix / stmatrix / cp.async (groups: the 16-byte bank group 0-7 of each lane's row \
             address or destination in the worst request, lanes 0..31; . = no address)",
            [
                "pc",
                "kind",
                "PTX",
                "executions",
                "wavefronts",
                "ideal",
                "unmodelled",
                "groups",
            ]
            .map(|c| Column::new(c, c))
            .to_vec(),
        );
        for m in &a.matrix_instructions {
            let groups: String = m.worst.as_ref().map_or(String::new(), |w| {
                w.lane_groups
                    .iter()
                    .map(|g| g.map_or('.', |g| char::from(b'0' + g)))
                    .collect()
            });
            t.row(vec![
                m.pc.to_string(),
                format!("{:?}", m.kind).to_lowercase(),
                m.ptx.clone(),
                m.counts.instructions.to_string(),
                m.counts.wavefronts.to_string(),
                m.counts.ideal_wavefronts.to_string(),
                m.unmodelled.to_string(),
                groups,
            ]);
        }
        blocks.push(Block::ShownTable(t));
    }
    let mut cols = vec![Column::new("kernel", "kernel")];
    cols.extend(side_columns());
    let mut totals_csv = Tabular::new("", cols);
    let mut cells = vec![a.kernel.clone()];
    for c in [&a.shared.load, &a.shared.store] {
        cells.extend([
            c.instructions.to_string(),
            c.wavefronts.to_string(),
            c.ideal_wavefronts.to_string(),
        ]);
    }
    totals_csv.row(cells);
    blocks.push(Block::CsvTable(totals_csv));

    let mut lines = Tabular::new(
        "per source line",
        ["line", "", "executions", "wavefronts", "ideal", "worst n-way"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    let mut cols = vec![Column::new("file", "file"), Column::new("line", "line")];
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    let mut lines_csv = Tabular::new("", cols);
    for l in &a.lines {
        lines.toned_row(vec![
            (format!("{}:{}", l.file, l.line), Tone::Plain),
            (side_name(l.side).into(), Tone::Plain),
            (l.counts.instructions.to_string(), Tone::Plain),
            (l.counts.wavefronts.to_string(), excess_tone(&l.counts)),
            (l.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(l.worst_n_way), Tone::Plain),
        ]);
        let mut cells = vec![l.file.clone(), l.line.to_string()];
        cells.extend(side_cells(l.side, &l.counts));
        cells.push(l.worst_n_way.to_string());
        lines_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(lines));
    blocks.push(Block::CsvTable(lines_csv));

    let mut insts = Tabular::new(
        "per instruction (banks: distinct words each bank delivers in the busiest phase of the worst request;\n\
         . idle, A = 10, W = 32; 8- and 16-byte accesses are served a half or quarter warp per phase)",
        [
            "pc",
            "source",
            "PTX",
            "bytes",
            "executions",
            "wavefronts",
            "ideal",
            "worst n-way",
            "banks 0..31 of the worst request",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    let mut cols = ["pc", "ptx_line", "source", "ptx", "fused", "width"]
        .map(|c| Column::new(c, c))
        .to_vec();
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    cols.push(Column::new("banks", "worst_banks"));
    let mut insts_csv = Tabular::new("", cols);
    for i in &a.instructions {
        let banks = i.worst.as_ref().map_or(String::new(), |w| w.banks.clone());
        insts.toned_row(vec![
            (i.pc.to_string(), Tone::Plain),
            (
                i.source.clone().unwrap_or_else(|| format!("ptx:{}", i.ptx_line)),
                Tone::Plain,
            ),
            (
                if i.fused {
                    format!("{} (fused by ptxas)", i.ptx)
                } else {
                    i.ptx.clone()
                },
                Tone::Plain,
            ),
            (i.width.to_string(), Tone::Plain),
            (i.counts.instructions.to_string(), Tone::Plain),
            (i.counts.wavefronts.to_string(), excess_tone(&i.counts)),
            (i.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(i.worst_n_way), Tone::Plain),
            (banks.clone(), Tone::Plain),
        ]);
        let mut cells = vec![
            i.pc.to_string(),
            i.ptx_line.to_string(),
            i.source.clone().unwrap_or_default(),
            i.ptx.clone(),
            i.fused.to_string(),
            i.width.to_string(),
        ];
        cells.extend(side_cells(i.side, &i.counts));
        cells.push(i.worst_n_way.to_string());
        cells.push(banks);
        insts_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(insts));
    blocks.push(Block::CsvTable(insts_csv));
    blocks
}

/// The divergence part of the output: a summary line and, per source line with branches or idle
/// lanes, branch executions, divergent ones, branch efficiency and lane utilisation.
pub fn divergence_blocks(d: &DivergenceJson) -> Vec<Block> {
    let t = &d.report.totals;
    let branches = if t.targets == 0 {
        "no branches executed (Nsight Compute prints 0% branch efficiency for 0 of 0)".to_string()
    } else {
        format!(
            "{} targets, {} divergent, branch efficiency {:.1}%",
            t.targets, t.divergent, t.branch_efficiency_pct
        )
    };
    let mut head = format!(
        "\nbranches: {branches}; active lanes {:.1}% of {} warp instructions (PTX-level)",
        t.utilisation_pct, t.inst_executions
    );
    if let (Some((_, _, false)), Some(Err(why))) = (&d.machine, &d.machine_flow) {
        if why.starts_with(crate::render::analysis::YIELD_APART) {
            head.push_str(&format!(
                "\nthe machine code's branch counters are estimates: {why}"
            ));
        } else {
            head.push_str(&format!(
                "\nthe machine code's branch counters are estimates: its control flow was not followed at {why}"
            ));
        }
    }
    if let Some(m) = &t.debug_machine_estimate {
        head.push_str(&format!(
            "\n-G machine code estimate: {} targets, {} divergent, branch efficiency {:.1}%",
            m.targets, m.divergent, m.branch_efficiency_pct
        ));
    }
    let columns = [
        ("line", "line"),
        ("branch executions", "branch_executions"),
        ("divergent", "smsp__sass_branch_targets_threads_divergent.sum"),
        ("targets", "smsp__sass_branch_targets.sum"),
        (
            "branch efficiency",
            "smsp__sass_average_branch_targets_threads_uniform.pct",
        ),
        ("warp instructions", "smsp__inst_executed.sum"),
        ("active lanes", "active_lanes_pct"),
    ];
    let mut shown = Tabular::new(
        "divergence per source line",
        columns.iter().map(|(t, _)| Column::new(*t, *t)).collect(),
    );
    let mut csv = Tabular::new("", columns.iter().map(|(t, c)| Column::new(*t, *c)).collect());
    let mut shown_rows = 0;
    // People see the lines with branches or idle lanes; CSV has every line.
    for l in &d.lines {
        let line = l.line.map_or_else(|| "-".to_string(), |x| x.to_string());
        let eff = l.branch_efficiency_pct.map(|e| format!("{e:.1}"));
        csv.row([
            line.clone(),
            l.branch_executions.to_string(),
            l.divergent.to_string(),
            l.targets.to_string(),
            eff.clone().unwrap_or_default(),
            l.inst_executions.to_string(),
            format!("{:.2}", l.utilisation_pct),
        ]);
        if l.targets == 0 && l.utilisation_pct >= 100.0 {
            continue;
        }
        let tone = match l.branch_efficiency_pct {
            Some(e) if e < 100.0 => Tone::Warn,
            _ => Tone::Plain,
        };
        shown_rows += 1;
        shown.toned_row(vec![
            (line.clone(), Tone::Plain),
            (l.branch_executions.to_string(), Tone::Plain),
            (l.divergent.to_string(), Tone::Plain),
            (l.targets.to_string(), Tone::Plain),
            (eff.clone().map_or_else(|| "-".into(), |e| format!("{e}%")), tone),
            (l.inst_executions.to_string(), Tone::Plain),
            (format!("{:.1}%", l.utilisation_pct), Tone::Plain),
        ]);
    }
    let mut blocks = vec![Block::Text(head)];
    if shown_rows > 0 {
        blocks.push(Block::ShownTable(shown));
    }
    blocks.push(Block::CsvTable(csv));
    blocks
}
