//! `warpscope occupancy`'s rows as JSON and tables: one row per configuration, the Nsight Compute
//! names of its figures, the table for people and the CSV.

use serde_json::{Value, json};
use warpscope_model::arch::Arch;
use warpscope_model::occupancy::{KB, Launch, Occupancy};

use crate::output::{Column, Tabular};

/// One output row.
pub struct Row {
    /// The preset or device.
    pub arch: String,
    /// The launch.
    pub launch: Launch,
    /// The calculator's answer.
    pub occ: Occupancy,
    /// The best block size, when asked.
    pub best: Option<warpscope_model::occupancy::BestBlock>,
}

/// A row as JSON (what `--format json` prints, and the CSV's fields).
pub fn row_json(r: &Row) -> Value {
    let o = &r.occ;
    let mut v = json!({
        "arch": r.arch,
        "threads": r.launch.threads,
        "regs": r.launch.regs_per_thread,
        "static_smem": r.launch.static_smem,
        "dyn_smem": r.launch.dyn_smem,
        "carveout": r.launch.carveout_percent,
        "barriers": r.launch.barriers,
        "blocks_per_sm": o.blocks_per_sm,
        "warps_per_sm": o.warps_per_sm,
        "max_warps_per_sm": o.max_warps_per_sm,
        "occupancy": o.occupancy(),
        "limiters": o.limiters.iter().map(|l| l.name()).collect::<Vec<_>>(),
        "limit_warps": o.limit_warps,
        "limit_registers": o.limit_registers,
        "limit_shared_memory": o.limit_shared_memory,
        "limit_blocks": o.limit_blocks,
        "limit_barriers": o.limit_barriers,
        "regs_per_block": o.regs_per_block,
        "smem_per_block": o.smem_per_block,
        "smem_per_sm": o.smem_per_sm,
        "opted_in": o.opted_in,
        "smem_over_max": o.smem_over_max,
    });
    if let Ok(a) = Arch::parse(&r.arch) {
        v["rules_basis"] = warpscope_measure::basis::json(a);
    }
    if let Some(b) = &r.best {
        v["best_block_size"] = json!(b.threads);
        v["best_blocks_per_sm"] = json!(b.blocks_per_sm);
        v["best_occupancy"] = json!(b.occupancy);
        v["min_grid"] = json!(b.min_grid);
    }
    v
}

/// The CSV's columns, fields of [`row_json`].
pub const CSV_COLUMNS: [&str; 17] = [
    "arch",
    "threads",
    "regs",
    "static_smem",
    "dyn_smem",
    "carveout",
    "barriers",
    "blocks_per_sm",
    "warps_per_sm",
    "max_warps_per_sm",
    "occupancy",
    "limiters",
    "regs_per_block",
    "smem_per_block",
    "smem_per_sm",
    "opted_in",
    "smem_over_max",
];

/// Nsight Compute metrics with the same figure as a JSON field: (metric, field, scale).
pub const NCU_COLUMNS: [(&str, &str, f64); 10] = [
    ("launch__block_size", "threads", 1.0),
    ("launch__registers_per_thread", "regs", 1.0),
    ("launch__shared_mem_per_block_static", "static_smem", 1.0),
    ("launch__shared_mem_per_block_dynamic", "dyn_smem", 1.0),
    ("launch__occupancy_limit_warps", "limit_warps", 1.0),
    ("launch__occupancy_limit_registers", "limit_registers", 1.0),
    ("launch__occupancy_limit_shared_mem", "limit_shared_memory", 1.0),
    ("launch__occupancy_limit_blocks", "limit_blocks", 1.0),
    ("launch__occupancy_limit_barriers", "limit_barriers", 1.0),
    ("sm__maximum_warps_per_active_cycle_pct", "occupancy", 100.0),
];

pub fn csv_cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(csv_cell).collect::<Vec<_>>().join("|"),
        other => other.to_string(),
    }
}

pub fn kib(bytes: u32) -> String {
    if bytes.is_multiple_of(KB) {
        format!("{} KB", bytes / KB)
    } else {
        format!("{bytes} B")
    }
}

/// The table for people (and Markdown).
pub fn shown_table(rows: &[Row], best: bool) -> Tabular {
    let mut header = vec![
        "arch",
        "threads",
        "regs",
        "smem (static+dyn)",
        "blocks/SM",
        "warps/SM",
        "occupancy",
        "limited by",
        "regs/block",
        "smem/block",
        "smem/SM",
    ];
    if best {
        header.extend(["best block", "min grid"]);
    }
    let mut t = Tabular::new("", header.iter().map(|h| Column::new(*h, *h)).collect());
    for r in rows {
        let o = &r.occ;
        let mut cells = vec![
            r.arch.clone(),
            r.launch.threads.to_string(),
            r.launch.regs_per_thread.to_string(),
            format!("{}+{}", r.launch.static_smem, r.launch.dyn_smem),
            o.blocks_per_sm.to_string(),
            format!("{}/{}", o.warps_per_sm, o.max_warps_per_sm),
            format!("{:.1}%", 100.0 * o.occupancy()),
            o.limiters.iter().map(|l| l.name()).collect::<Vec<_>>().join(", "),
            o.regs_per_block.to_string(),
            o.smem_per_block.to_string(),
            kib(o.smem_per_sm),
        ];
        if let Some(b) = &r.best {
            cells.push(format!("{} ({:.0}%)", b.threads, 100.0 * b.occupancy));
            cells.push(b.min_grid.to_string());
        }
        t.row(cells);
    }
    t
}

/// The CSV table: the JSON fields by their names, then the Nsight Compute metric columns.
pub fn csv_table(rows: &[Value], best: bool) -> Tabular {
    let mut cols: Vec<Column> = CSV_COLUMNS.iter().map(|c| Column::new(*c, *c)).collect();
    if best {
        for c in [
            "best_block_size",
            "best_blocks_per_sm",
            "best_occupancy",
            "min_grid",
        ] {
            cols.push(Column::new(c, c));
        }
    }
    let n_json = cols.len();
    cols.extend(NCU_COLUMNS.iter().map(|(m, _, _)| Column::new(*m, *m)));
    let mut t = Tabular::new("", cols);
    for v in rows {
        let mut cells: Vec<String> = t.columns[..n_json]
            .iter()
            .map(|c| csv_cell(&v[c.csv.as_str()]))
            .collect();
        for (_, field, scale) in NCU_COLUMNS {
            cells.push(match v[field].as_f64() {
                Some(x) if scale != 1.0 => (x * scale).to_string(),
                _ => csv_cell(&v[field]),
            });
        }
        t.row(cells);
    }
    t
}
