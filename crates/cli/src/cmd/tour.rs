//! `warpscope tour`: the seed experiments' shared-memory kernels, bundled in the binary (their CUDA
//! source, the PTX and machine code that nvcc 13.5 made of them, and the H100's counters), emulated
//! on the CPU and shown as the findings the seeds describe: wavefronts per variant, what padding
//! does, square versus rectangular tiles, and struct / char / double elements; then a tensor-core
//! tile (crates/cli/fixtures/tensor): `ldmatrix.x4` on a 64x64 f16 tile as written and swizzled, with
//! the fix advisor's changes, counted by the LDSM rule calibrated on the H100. No GPU, no CUDA.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_analysis::banks::{MatrixKind, Side};
use warpscope_analysis::fix::Target;
use warpscope_analysis::launchspec::{parse_args, parse_dims};
use warpscope_driver::{FixOptions, RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::Launch;

use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};
use crate::render::analysis::{self as analyze, Analysis};
use crate::render::analysis_blocks::{self, NCU_SHARED};

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

/// One bundled kernel.
struct Bundled {
    name: &'static str,
    cu: &'static str,
    ptx: &'static str,
    sass: &'static str,
}

macro_rules! seed {
    ($n:literal) => {
        Bundled {
            name: $n,
            cu: include_str!(concat!("../../../../calibration/kernels/seeds/", $n, ".cu")),
            ptx: include_str!(concat!("../../fixtures/seeds/", $n, ".ptx")),
            sass: include_str!(concat!("../../fixtures/seeds/", $n, ".sass")),
        }
    };
}

static SEEDS: &[Bundled] = &[
    seed!("sqRowRow"),
    seed!("sqColCol"),
    seed!("sqRowCol"),
    seed!("sqRowColDyn"),
    seed!("sqRowColPad"),
    seed!("sqRowColDynPad"),
    seed!("rectRowRow"),
    seed!("rectColCol"),
    seed!("rectRowCol"),
    seed!("rectRowColDyn"),
    seed!("rectRowColPad"),
    seed!("rectRowColDynPad"),
    seed!("structF3"),
    seed!("structF2"),
    seed!("charTid"),
    seed!("char4Tid"),
    seed!("doubleTid"),
    seed!("col32"),
    seed!("col33"),
];

/// The tensor-core tile chapter's kernels (crates/cli/fixtures/tensor/README.md).
static TENSOR_CU: &str = include_str!("../../fixtures/tensor/ldsmTile.cu");
static TENSOR_PTX: &str = include_str!("../../fixtures/tensor/ldsmTile.ptx");
static TENSOR_SASS: &str = include_str!("../../fixtures/tensor/ldsmTile.sass");

static MANIFEST: &str = include_str!("../../../../calibration/kernels/manifest.tsv");
static H100: &str = include_str!("../../../../calibration/kernels/seeds_groundtruth_h100.tsv");

/// One kernel's emulated totals beside the H100's.
#[derive(Serialize)]
struct Row {
    kernel: String,
    what: String,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
    /// Emulated [ld wavefronts, st wavefronts, ld instructions, st instructions].
    emulated: [u64; 4],
    /// H100 (ncu) in the same order.
    h100: [u64; 4],
    /// Bank picture of the worst load request.
    worst_load_banks: String,
    #[serde(skip)]
    analysis: Analysis,
}

fn tsv_rows(text: &'static str) -> Vec<Vec<&'static str>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

fn analyse(b: &Bundled) -> anyhow::Result<Row> {
    let m = tsv_rows(MANIFEST)
        .into_iter()
        .find(|r| r[0] == "seeds" && r[1] == b.name)
        .with_context(|| format!("{} is not in the bundled manifest", b.name))?;
    let (kernel, what) = (m[3], m[8]);
    let path = Path::new(b.name).with_extension("ptx");
    let program = warpscope_driver::input::compile_ptx(b.ptx, &path).map_err(crate::launch::driver_error)?;
    let note = "bundled nvdisasm output (nvcc 13.5)";
    let widths = Widths::from_sass(&program, kernel, b.sass, note).map_err(crate::launch::driver_error)?;
    let mut launch = Launch::new(parse_dims(m[4])?, parse_dims(m[5])?, parse_args(m[7])?);
    launch.dyn_smem = m[6].parse()?;
    let h100 = warpscope_model::arch::Arch::parse("sm_90")?;
    let sections = Sections {
        banks: true,
        ..Sections::NONE
    };
    let run = analyze_launch(
        &program,
        kernel,
        &launch,
        &sections,
        h100,
        &widths,
        &RunOptions::default(),
    )
    .map_err(crate::launch::driver_error)?;
    if !run.faults.is_empty() {
        let faults = &run.fault_messages;
        bail!("{}: the emulator faulted: {}", b.name, faults.join("; "));
    }
    let a = analyze::build(&program, &run, note);
    let h = tsv_rows(H100)
        .into_iter()
        .find(|r| r[0] == kernel)
        .with_context(|| format!("no H100 row for {kernel}"))?;
    let measured = [h[5].parse()?, h[6].parse()?, h[7].parse()?, h[8].parse()?];
    let emulated = [
        a.shared.load.wavefronts,
        a.shared.store.wavefronts,
        a.shared.load.instructions,
        a.shared.store.instructions,
    ];
    let worst_load_banks = a
        .instructions
        .iter()
        .filter(|i| i.side == Side::Load)
        .max_by_key(|i| i.worst.as_ref().map_or(0, |w| w.wavefronts))
        .and_then(|i| i.worst.as_ref().map(|w| w.banks.clone()))
        .unwrap_or_default();
    Ok(Row {
        kernel: kernel.to_string(),
        what: what.to_string(),
        grid: launch.grid,
        block: launch.block,
        dyn_smem: launch.dyn_smem,
        emulated,
        h100: measured,
        worst_load_banks,
        analysis: a,
    })
}

/// One kernel of the tensor-core tile chapter.
#[derive(Serialize)]
struct TileRow {
    kernel: String,
    layout: String,
    /// `ldmatrix.x4` (LDSM) warp instructions, wavefronts and conflict-free wavefronts.
    ldsm: [u64; 3],
    /// The staging stores (STS.128): instructions, wavefronts, ideal.
    stores: [u64; 3],
    /// Row address (shared offset) each lane supplies in the first `ldmatrix` of warp 0.
    lane_offsets: Vec<Option<u64>>,
    /// Its 16-byte bank group, `(offset / 16) % 8`.
    lane_groups: Vec<Option<u8>>,
}

/// The advisor's suggestion for the conflicting tile.
#[derive(Serialize)]
struct TileFix {
    kind: String,
    change: String,
    source: String,
    wavefronts_before: u64,
    wavefronts_after: u64,
    ideal: u64,
    extra_shared_bytes: u32,
}

/// The tensor-core tile chapter (JSON `tensor_tile`).
#[derive(Serialize)]
struct TensorChapter {
    rows: Vec<TileRow>,
    advisor: Vec<TileFix>,
    /// Where the counts come from.
    basis: String,
}

const TENSOR_BASIS: &str = "LDSM wavefronts from the rule measured on the H100 (calibration/ldsm/: 1616 single-warp \
ldmatrix/stmatrix requests, 128-byte pitches and CuTe swizzles among them, all equal); both kernels measured \
on the H100 too (analyze --measure: 512 and 64 in ncu's shared op_ld wavefronts, calibration/measure/h100/analyze/)";

fn tensor_chapter() -> anyhow::Result<(TensorChapter, Vec<Block>)> {
    let path = Path::new("ldsmTile.ptx");
    let program =
        warpscope_driver::input::compile_ptx(TENSOR_PTX, path).map_err(crate::launch::driver_error)?;
    let note = "bundled nvdisasm output (nvcc 13.5)";
    let h100 = warpscope_model::arch::Arch::parse("sm_90")?;
    let launch = Launch::new([1, 1, 1], [128, 1, 1], parse_args("buf:8192 buf:8192:zero")?);
    let mut rows = Vec::new();
    let mut advisor = Vec::new();
    for (kernel, layout) in [
        ("ldsmTile", "tile[r][c], 128-byte rows"),
        ("ldsmTileSwizzled", "tile[r][c ^ ((r & 7) << 3)]"),
    ] {
        let widths =
            Widths::from_sass(&program, kernel, TENSOR_SASS, note).map_err(crate::launch::driver_error)?;
        let fix = kernel == "ldsmTile";
        let sections = Sections {
            banks: true,
            fix,
            ..Sections::NONE
        };
        let opts = RunOptions {
            fix: fix.then(|| FixOptions {
                target: Target::new(h100),
                registers: None,
                registers_from: String::new(),
                source: Some(TENSOR_CU.to_string()),
                what_if: None,
            }),
            ..RunOptions::default()
        };
        let run = analyze_launch(&program, kernel, &launch, &sections, h100, &widths, &opts)
            .map_err(crate::launch::driver_error)?;
        if !run.faults.is_empty() {
            let faults = &run.fault_messages;
            bail!("{kernel}: the emulator faulted: {}", faults.join("; "));
        }
        let a = analyze::build(&program, &run, note);
        let first = a
            .matrix_instructions
            .iter()
            .find(|m| m.kind == MatrixKind::Ldsm)
            .with_context(|| format!("{kernel}: no ldmatrix"))?;
        let worst = first.worst.as_ref().context("no ldmatrix request")?;
        let l = &a.shared.ldsm;
        rows.push(TileRow {
            kernel: kernel.to_string(),
            layout: layout.to_string(),
            ldsm: [l.instructions, l.wavefronts, l.ideal_wavefronts],
            stores: [
                a.shared.store.instructions,
                a.shared.store.wavefronts,
                a.shared.store.ideal_wavefronts,
            ],
            lane_offsets: worst.lane_offsets.clone(),
            lane_groups: worst.lane_groups.clone(),
        });
        if let Some(f) = &run.fix {
            let advice = f.advice.as_ref().map_err(|e| anyhow::anyhow!("{kernel}: {e}"))?;
            for s in &advice.suggestions {
                advisor.push(TileFix {
                    kind: s.kind.clone(),
                    change: s.change.clone(),
                    source: s.source.as_ref().map(|e| e.after.clone()).unwrap_or_default(),
                    wavefronts_before: s.wavefronts_before,
                    wavefronts_after: s.wavefronts_after,
                    ideal: s.ideal,
                    extra_shared_bytes: s.extra_shared_bytes,
                });
            }
        }
    }
    let mut blocks = vec![
        Block::Heading("Tensor-core tile: ldmatrix.x4 on a 64x64 f16 tile, block 128".to_string()),
        Block::Text(
            "A tensor-core GEMM reads its tiles with ldmatrix: in .x4, lanes 8m..8m+7 give the eight 16-byte\n\
             row addresses of matrix m. A 16-byte row fills a group of four banks, group (address / 16) % 8;\n\
             each matrix takes as many wavefronts as the most rows one group must deliver, so 1 per matrix is\n\
             ideal. In a tile of 128-byte rows the eight rows of a matrix are 128 bytes apart: one group, 8\n\
             wavefronts. XORing the 16-byte chunk index with the row (a CuTe swizzle) spreads them over all 8."
                .to_string(),
        ),
    ];
    let mut t = Tabular::new(
        "",
        [
            "kernel",
            "layout",
            "ldmatrix.x4: wavefronts (per instruction)",
            "ideal",
            "staging stores: wavefronts (ideal)",
            "groups of warp 0's first ldmatrix (lanes 0..31)",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    for r in &rows {
        let groups: String = r
            .lane_groups
            .iter()
            .map(|g| g.map_or('.', |g| char::from(b'0' + g)))
            .collect();
        t.row(vec![
            r.kernel.clone(),
            r.layout.clone(),
            format!("{} ({})", r.ldsm[1], per_request(r.ldsm[1], r.ldsm[0])),
            r.ldsm[2].to_string(),
            format!("{} ({})", r.stores[1], r.stores[2]),
            groups,
        ]);
    }
    blocks.push(Block::ShownTable(t));
    let mut lanes = Tabular::new(
        "matrix 0 of that ldmatrix: the row each lane supplies",
        [
            "lane",
            "row, column",
            "ldsmTile: offset",
            "group",
            "ldsmTileSwizzled: offset",
            "group",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    for lane in 0..8 {
        let mut cells = vec![lane.to_string(), format!("[{lane}][0]")];
        for r in &rows {
            cells.push(r.lane_offsets[lane].map_or("-".into(), |o| o.to_string()));
            cells.push(r.lane_groups[lane].map_or("-".into(), |g| g.to_string()));
        }
        lanes.row(cells);
    }
    blocks.push(Block::ShownTable(lanes));
    let mut fixes =
        String::from("`warpscope fix` on ldsmTile (the H100, its ldmatrix counted by the same rule):");
    for f in &advisor {
        fixes += &format!(
            "\n  {}: {}\n    {} -> {} wavefronts (ideal {}), {:+} B of shared memory\n    {}",
            f.kind,
            f.change,
            f.wavefronts_before,
            f.wavefronts_after,
            f.ideal,
            f.extra_shared_bytes,
            f.source.lines().map(str::trim).collect::<Vec<_>>().join("\n    ")
        );
    }
    blocks.push(Block::Code(fixes));
    blocks.push(Block::Text(format!(
        "The re-emulated kernel computes the same outputs with either layout \
         (crates/analysis/tests/fix_tensor.rs).\nCounts: {TENSOR_BASIS}."
    )));
    Ok((
        TensorChapter {
            rows,
            advisor,
            basis: TENSOR_BASIS.to_string(),
        },
        blocks,
    ))
}

fn per_request(wavefronts: u64, instructions: u64) -> String {
    if instructions == 0 {
        "-".into()
    } else {
        format!("{}", wavefronts as f64 / instructions as f64)
    }
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
