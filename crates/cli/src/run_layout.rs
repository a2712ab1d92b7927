//! `warpscope run`'s launches and kernels tables fitted to the terminal (the table format only):
//! as they are when they fit; else the launches table keeps the counters that fit, most telling
//! first ([`PRIORITY`]), and each kernel becomes a section of metric / value lines, as Nsight
//! Compute prints a launch, with every counter. CSV, Markdown, JSON and `--export` keep every
//! column, and `--metrics` picks the columns itself.

use crate::output::{Block, Column, Tabular, natural_width};

/// The counters the narrow launches table keeps first, by CSV (ncu) name: shared wavefronts and
/// their conflicts, branch efficiency, global sectors, occupancy, registers.
pub const PRIORITY: &[&str] = &[
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "warpscope__shared_ld_excess_wavefronts.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "warpscope__shared_st_excess_wavefronts.sum",
    "branch_efficiency",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__registers_per_thread",
];

/// Leading columns of the launches table (id, kernel, grid, block; then, where kernels launched
/// kernels, the launching grid) and of the kernels table (kernel, launches).
const LAUNCH_KEYS: usize = 4;
const KERNEL_KEYS: usize = 2;

/// A kernel column wider than this is wrapped by the table, so it counts as this wide when
/// choosing the counters.
const KERNEL_WIDTH: usize = 30;

/// The blocks that show `launches` and `kernels` within `width` columns, and the note that says
/// what moved where (`None` when both fit as they are).
pub fn fit(launches: &Tabular, kernels: &Tabular, width: u16) -> (Vec<Block>, Option<String>) {
    let w = usize::from(width);
    if natural_width(launches) <= w && natural_width(kernels) <= w {
        return (
            vec![Block::Table(launches.clone()), Block::Table(kernels.clone())],
            None,
        );
    }
    // kernels launched by kernels add the launching grid's column, kept as a key
    let keys = LAUNCH_KEYS
        + usize::from(
            launches
                .columns
                .get(LAUNCH_KEYS)
                .is_some_and(|c| c.csv == "parent"),
        );
    let metrics = launches.columns.len().saturating_sub(keys);
    // the counters in priority order, then the others in table order
    let mut order: Vec<usize> = PRIORITY
        .iter()
        .filter_map(|k| launches.columns.iter().position(|c| c.csv == *k))
        .filter(|i| *i >= keys)
        .collect();
    let rest: Vec<usize> = (keys..launches.columns.len())
        .filter(|i| !order.contains(i))
        .collect();
    order.extend(rest);
    let mut kept: Vec<usize> = (0..keys.min(launches.columns.len())).collect();
    for i in order {
        let mut with = kept.clone();
        with.push(i);
        with.sort_unstable();
        if natural_width(&narrow(launches, &with)) > w {
            break;
        }
        kept = with;
    }
    let mut table = narrow(launches, &kept);
    // long kernel names wrap within the width, whether or not the output is fitted as a whole
    table.max_width = Some(width);
    for r in &mut table.rows {
        // the kernel's name without its parameters (its section below has them)
        if let Some(k) = r.get_mut(1) {
            k.0 = k.0.split('(').next().unwrap_or(&k.0).trim().to_string();
        }
    }
    let mut blocks = vec![Block::Table(table), Block::Text(kernels.title.clone())];
    blocks.extend(sections(kernels));
    let shown = kept.len().saturating_sub(keys);
    let note = format!(
        "to fit {width} columns the launches table shows {shown} of its {metrics} counters and each kernel's counters are listed one a line; every column: a wider terminal (or COLUMNS), --metrics NAME,..., --format csv or json, or --export"
    );
    (blocks, Some(note))
}

/// `t` with only the columns `keep` (indices, in order); titles of two or more words on two lines.
fn narrow(t: &Tabular, keep: &[usize]) -> Tabular {
    let columns = keep
        .iter()
        .map(|&i| {
            let c = &t.columns[i];
            let title = if i >= LAUNCH_KEYS {
                c.title.replacen(' ', "\n", 1)
            } else {
                c.title.clone()
            };
            Column::new(title, c.csv.clone())
        })
        .collect();
    let mut out = Tabular::new(t.title.clone(), columns);
    out.max_width = t.max_width;
    for r in &t.rows {
        out.toned_row(
            keep.iter()
                .map(|&i| {
                    let mut cell = r.get(i).cloned().unwrap_or_default();
                    if i == 1 && cell.0.chars().count() > KERNEL_WIDTH {
                        // counted as wrapped: the table wraps it at the width it is given
                        cell.0 = cell.0.chars().take(KERNEL_WIDTH).collect();
                    }
                    cell
                })
                .collect(),
        );
    }
    out
}

/// One block per kernel of the kernels table: its name and launches, then a `metric  value` line
/// per counter.
fn sections(kernels: &Tabular) -> Vec<Block> {
    let titles: Vec<&str> = kernels
        .columns
        .iter()
        .skip(KERNEL_KEYS)
        .map(|c| c.title.as_str())
        .collect();
    let name_w = titles.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    kernels
        .rows
        .iter()
        .map(|r| {
            let cell = |i: usize| r.get(i).map_or("", |c| c.0.as_str());
            let launches = cell(1);
            let mut lines = vec![format!(
                "  {} ({launches} launch{})",
                warpscope_cudart::names::brief(cell(0)),
                if launches == "1" { "" } else { "es" }
            )];
            let value_w = (KERNEL_KEYS..r.len())
                .map(|i| cell(i).chars().count())
                .max()
                .unwrap_or(0);
            for (j, t) in titles.iter().enumerate() {
                lines.push(format!("    {t:<name_w$}  {:>value_w$}", cell(j + KERNEL_KEYS)));
            }
            Block::Text(lines.join("\n"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(kernel: &str) -> (Tabular, Tabular) {
        let metrics: Vec<(String, String)> = (0..17)
            .map(|i| {
                let csv = PRIORITY
                    .get(i)
                    .map_or(format!("metric_{i}.sum"), |s| s.to_string());
                (format!("counter number {i}"), csv)
            })
            .collect();
        let cols = |lead: &[&str]| -> Vec<Column> {
            lead.iter()
                .map(|c| Column::new(*c, *c))
                .chain(metrics.iter().map(|(t, c)| Column::new(t.clone(), c.clone())))
                .collect()
        };
        let mut l = Tabular::new("launches", cols(&["id", "kernel", "grid", "block"]));
        let mut k = Tabular::new("kernels", cols(&["kernel", "launches"]));
        for id in 0..3 {
            l.row(
                [
                    id.to_string(),
                    kernel.into(),
                    "(1,1,1)".into(),
                    "(32,32,1)".into(),
                ]
                .into_iter()
                .chain((0..17).map(|i| (i * 1000).to_string())),
            );
        }
        k.row(
            [kernel.to_string(), "3".into()]
                .into_iter()
                .chain((0..17).map(|i| (i * 3000).to_string())),
        );
        (l, k)
    }

    fn render(blocks: &[Block], width: u16) -> String {
        let mut out = Vec::new();
        crate::output::emit_blocks_fitted(
            &mut out,
            crate::output::Format::Table,
            false,
            &(),
            blocks,
            Some(width),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn wide_tables_become_a_narrow_table_and_sections() {
        for kernel in [
            "tr(int *)",
            "void gemmTiledWithAVeryLongTemplateName<128, 64, 8>(float const *, float *)",
        ] {
            for width in [80u16, 120] {
                let (l, k) = tables(kernel);
                let (blocks, note) = fit(&l, &k, width);
                let text = render(&blocks, width);
                let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
                assert!(widest <= usize::from(width), "{width}: {widest}\n{text}");
                // the most telling counters first
                assert!(text.contains("counter"), "{text}");
                let note = note.unwrap();
                assert!(note.contains(&format!("fit {width} columns")), "{note}");
                // every counter of the kernel, with its value
                for i in 0..17 {
                    assert!(
                        text.lines().any(|line| line
                            .trim_start()
                            .starts_with(&format!("counter number {i} "))
                            && line.trim_end().ends_with(&format!(" {}", i * 3000))),
                        "counter {i}:\n{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn tables_that_fit_stay_as_they_are() {
        let mut l = Tabular::new(
            "launches",
            ["id", "kernel", "grid", "block", "regs"]
                .map(|c| Column::new(c, c))
                .to_vec(),
        );
        l.row(["0", "k", "(1,1,1)", "(1,1,1)", "8"]);
        let mut k = Tabular::new(
            "kernels",
            ["kernel", "launches", "regs"].map(|c| Column::new(c, c)).to_vec(),
        );
        k.row(["k", "1", "8"]);
        let (blocks, note) = fit(&l, &k, 80);
        assert!(note.is_none());
        assert_eq!(blocks, vec![Block::Table(l), Block::Table(k)]);
    }
}
