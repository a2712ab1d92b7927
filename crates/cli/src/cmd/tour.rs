//! `warpscope tour`: the seed experiments' shared-memory kernels, bundled in the binary (their CUDA
//! source, the PTX and machine code that nvcc 13.5 made of them, and the H100's counters), emulated
//! on the CPU and shown as the findings the seeds describe: wavefronts per variant, what padding
//! does, square versus rectangular tiles, and struct / char / double elements; then a tensor-core
//! tile (crates/cli/fixtures/tensor): `ldmatrix.x4` on a 64x64 f16 tile as written and swizzled, with
//! the fix advisor's changes, counted by the LDSM rule calibrated on the H100. No GPU, no CUDA.

use std::process::ExitCode;

use anyhow::bail;
use serde::Serialize;

use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};
use crate::render::analysis::Analysis;
use crate::render::analysis_blocks::{self, NCU_SHARED};
use crate::tour_seeds::{MANIFEST, Row, SEEDS, analyse, per_request, tsv_rows};
use crate::tour_tensor::tensor_chapter;

/// Flags of `warpscope tour`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    output: OutputArgs,
    /// Show one kernel in full: its CUDA source, then `warpscope analyze`'s tables for it.
    #[arg(long, value_name = "KERNEL")]
    show: Option<String>,
    /// List the bundled kernels with their launches and stop.
    #[arg(long)]
    list: bool,
}

fn mark(r: &Row) -> &'static str {
    if r.emulated == r.h100 { "equal" } else { "differs" }
}

fn section(title: &str, intro: &str, rows: &[&Row], note: &str) -> Vec<Block> {
    let mut t = Tabular::new(
        "",
        [
            "kernel",
            "what it does",
            "stores: wavefronts (per request)",
            "loads: wavefronts (per request)",
            "banks of the worst load (0..31)",
            "vs H100 (ncu)",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    for r in rows {
        let what = ["seed 000 ", "seed 001/004 ", "seed 001 ", "rectangular "]
            .iter()
            .fold(r.what.as_str(), |w, p| w.strip_prefix(p).unwrap_or(w));
        t.toned_row(vec![
            (r.kernel.clone(), Tone::Plain),
            (what.to_string(), Tone::Plain),
            (
                format!(
                    "{} ({})",
                    r.emulated[1],
                    per_request(r.emulated[1], r.emulated[3])
                ),
                Tone::Plain,
            ),
            (
                format!(
                    "{} ({})",
                    r.emulated[0],
                    per_request(r.emulated[0], r.emulated[2])
                ),
                Tone::Plain,
            ),
            (r.worst_load_banks.clone(), Tone::Plain),
            (
                mark(r).to_string(),
                if r.emulated == r.h100 {
                    Tone::Good
                } else {
                    Tone::Bad
                },
            ),
        ]);
    }
    let mut blocks = vec![
        Block::Heading(title.to_string()),
        Block::Text(intro.to_string()),
        Block::ShownTable(t),
    ];
    if !note.is_empty() {
        blocks.push(Block::Text(note.to_string()));
    }
    blocks
}

/// Every kernel in one CSV table: the emulated counters under their Nsight Compute names, then the
/// H100's under the same names prefixed `h100:`.
fn csv_table(rows: &[Row]) -> Tabular {
    let mut cols = ["kernel", "what", "grid", "block", "dyn_smem"]
        .map(|c| Column::new(c, c))
        .to_vec();
    let metrics = [NCU_SHARED[0].1, NCU_SHARED[1].1, NCU_SHARED[0].0, NCU_SHARED[1].0];
    cols.extend(metrics.iter().map(|m| Column::new(*m, *m)));
    cols.extend(
        metrics
            .iter()
            .map(|m| Column::new(format!("h100:{m}"), format!("h100:{m}"))),
    );
    cols.push(Column::new("equal", "equal"));
    cols.push(Column::new("worst_load_banks", "worst_load_banks"));
    let mut t = Tabular::new("", cols);
    let d = |x: [u32; 3]| format!("{}x{}x{}", x[0], x[1], x[2]);
    for r in rows {
        let mut cells = vec![
            r.kernel.clone(),
            r.what.clone(),
            d(r.grid),
            d(r.block),
            r.dyn_smem.to_string(),
        ];
        cells.extend(r.emulated.iter().map(u64::to_string));
        cells.extend(r.h100.iter().map(u64::to_string));
        cells.push((r.emulated == r.h100).to_string());
        cells.push(r.worst_load_banks.clone());
        t.row(cells);
    }
    t
}

/// `tour --list`, as JSON.
#[derive(Serialize)]
struct Listed {
    kernel: String,
    grid: String,
    block: String,
    dyn_smem: String,
    args: String,
    what: String,
}

/// `tour --show KERNEL`, as JSON: the kernel's totals beside the H100's, and its analysis.
#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    row: &'a Row,
    analysis: &'a Analysis,
}

/// Runs `warpscope tour`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (format, color) = (args.output.format, args.output.color());
    let mut out = std::io::stdout().lock();
    if args.list {
        let mut t = Tabular::new(
            "",
            [
                ("kernel", "kernel"),
                ("grid", "grid"),
                ("block", "block"),
                ("dyn smem", "dyn_smem"),
                ("args", "args"),
                ("what", "what"),
            ]
            .map(|(a, b)| Column::new(a, b))
            .to_vec(),
        );
        let mut listed = Vec::new();
        for r in tsv_rows(MANIFEST).into_iter().filter(|r| r[0] == "seeds") {
            t.row([r[3], r[4], r[5], r[6], r[7], r[8]]);
            listed.push(Listed {
                kernel: r[3].into(),
                grid: r[4].into(),
                block: r[5].into(),
                dyn_smem: r[6].into(),
                args: r[7].into(),
                what: r[8].into(),
            });
        }
        emit_blocks(&mut out, format, color, &listed, &[Block::Table(t)])?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(name) = &args.show {
        let Some(b) = SEEDS.iter().find(|b| b.name == name) else {
            let names: Vec<&str> = SEEDS.iter().map(|b| b.name).collect();
            bail!("no bundled kernel `{name}` (kernels: {})", names.join(", "));
        };
        let r = analyse(b)?;
        let mut blocks = vec![
            Block::Code(format!("// {}.cu (bundled)\n{}", b.name, b.cu.trim_end())),
            Block::Text(String::new()),
        ];
        blocks.extend(analysis_blocks::blocks(&r.analysis));
        blocks.push(Block::Text(format!(
            "\nH100 (ncu): loads {} wavefronts / {} instructions, stores {} / {}",
            r.h100[0], r.h100[2], r.h100[1], r.h100[3]
        )));
        let shown = Shown {
            row: &r,
            analysis: &r.analysis,
        };
        emit_blocks(&mut out, format, color, &shown, &blocks)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows: Vec<Row> = SEEDS.iter().map(analyse).collect::<anyhow::Result<_>>()?;
    let get = |n: &str| rows.iter().find(|r| r.kernel == n).expect("bundled");
    let mut blocks = vec![Block::Text(
        "warpscope tour: the seed experiments' shared-memory kernels, emulated on this CPU.\n\
         Shared memory has 32 banks of 4 bytes. A warp's request costs one wavefront per distinct\n\
         4-byte word the busiest bank must deliver (lanes reading the same word share it), so 1 is\n\
         ideal for 4-byte accesses and 32 is a full 32-way conflict. Counts are whole-launch sums, as\n\
         Nsight Compute reports them; the last column compares them with an H100's counters."
            .to_string(),
    )];
    blocks.extend(section(
        "Square tile: int tile[32][32], block 32x32 (seed 000)",
        "A warp is one threadIdx.y row. tile[threadIdx.y][threadIdx.x] walks a row: 32 banks, 1 wavefront.\n\
         tile[threadIdx.x][threadIdx.y] walks a column: 32 words 128 bytes apart, all in one bank.",
        &[
            "sqRowRow",
            "sqColCol",
            "sqRowCol",
            "sqRowColDyn",
            "sqRowColPad",
            "sqRowColDynPad",
        ]
        .map(get),
        "Padding each row by one int (tile[32][33], or IPAD = 1 in dynamic memory) shifts row r by r banks:\n\
         the column read becomes conflict-free. Dynamic shared memory changes nothing by itself.",
    ));
    blocks.extend(section(
        "Rectangular tile: int tile[16][32] / [32][16], block 32x16 (seed 000)",
        "Column-major on a 16-wide tile puts lane l at word 16 l: only banks 0 and 16 are used,\n\
         16 words each, so every request costs 16 wavefronts (the seed's older GPU reported 8).",
        &[
            "rectRowRow",
            "rectColCol",
            "rectRowCol",
            "rectRowColDyn",
            "rectRowColPad",
            "rectRowColDynPad",
        ]
        .map(get),
        "The transposed read puts lanes 0-15 and 16-31 on neighbouring words of a row pair: with one padding\n\
         int (33-word rows) the halves overlap, a 2-way conflict; IPAD = 2 (34-word rows) puts one half on\n\
         even banks and the other on odd banks: conflict-free.",
    ));
    blocks.extend(section(
        "Element types: struct, char, double (seeds 001 and 004)",
        "struct {float x,y,z}: three 32-bit accesses with stride 3 words (odd: no conflict), 1 wavefront each.\n\
         struct {float x,y}: ptxas fuses the two floats into one 64-bit access (LDS.64/STS.64);\n\
         256 bytes need 2 wavefronts, which is ideal, not a conflict. char[tid]: four lanes share a word\n\
         (multicast), 1 wavefront. double[tid]: 64-bit, 2 wavefronts, ideal.",
        &["structF3", "structF2", "charTid", "char4Tid", "doubleTid"].map(get),
        "",
    ));
    blocks.extend(section(
        "2-D array: float sData[32][32] vs [32][33], reading sData[tid][0] (seed 001)",
        "The 32 row-filling stores are conflict-free either way; the column read is a 32-way conflict\n\
         without padding and conflict-free with one padding column.",
        &["col32", "col33"].map(get),
        "",
    ));
    let (tensor, tensor_blocks) = tensor_chapter()?;
    blocks.extend(tensor_blocks);
    let same = rows.iter().filter(|r| r.emulated == r.h100).count();
    blocks.push(Block::Text(format!(
        "\n{same} of {} kernels match the H100's wavefront and instruction counters exactly.\n\
         More: `warpscope tour --show sqRowCol` (one kernel in full), `warpscope analyze FILE.cu --grid .. --block ..`.",
        rows.len()
    )));
    blocks.push(Block::CsvTable(csv_table(&rows)));
    emit_blocks(
        &mut out,
        format,
        color,
        &serde_json::json!({ "kernels": rows, "tensor_tile": tensor }),
        &blocks,
    )?;
    Ok(ExitCode::SUCCESS)
}
