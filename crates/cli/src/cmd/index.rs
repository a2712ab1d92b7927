//! `warpscope index`: the global thread-ID formula (CUDA C) for each grid x block shape, and `--check`
//! to enumerate a launch and prove the IDs unique and dense.

use std::process::ExitCode;

use anyhow::anyhow;
use serde::Serialize;
use warpscope_model::index::{Dim3, Shape, check};

use crate::output::{Block, Column, Format, OutputArgs, Tabular, emit_blocks};

/// Flags of `warpscope index`.
#[derive(clap::Args)]
pub struct Args {
    /// Shape `1D_1D` ... `3D_3D` (grid_block); default: all nine, or the launch's with --grid/--block.
    #[arg(long)]
    shape: Option<String>,
    /// Grid extent `x[,y[,z]]` (with --check).
    #[arg(long, default_value = "1")]
    grid: String,
    /// Block extent `x[,y[,z]]` (with --check).
    #[arg(long, default_value = "32")]
    block: String,
    /// Enumerate the launch and check that the IDs are unique and exactly 0..threads-1.
    #[arg(long)]
    check: bool,
    /// The same as `--format json` (kept for scripts written before `--format`).
    #[arg(long, hide = true)]
    json: bool,
    #[command(flatten)]
    output: OutputArgs,
}

/// One shape's formulas (`warpscope index --format json` without `--check`: an array of these).
#[derive(Serialize)]
pub struct ShapeFormulas {
    /// `1D_1D` ... `3D_3D` (grid_block).
    pub shape: String,
    /// The block's linear index in the grid.
    pub block_id: String,
    /// Threads per block.
    pub block_size: String,
    /// The thread's linear index in its block.
    pub thread_in_block: String,
    /// The whole CUDA C device function.
    pub function: String,
}

/// The result of `--check` (`warpscope index --check --format json`).
#[derive(Serialize)]
pub struct IndexCheck {
    /// Shape used.
    pub shape: String,
    /// Grid extent.
    pub grid: [u32; 3],
    /// Block extent.
    pub block: [u32; 3],
    /// Threads in the launch.
    pub threads: u64,
    /// Distinct IDs seen.
    pub distinct: u64,
    /// IDs given to more than one thread.
    pub duplicated: u64,
    /// IDs outside 0..threads.
    pub out_of_range: u64,
    /// True when the IDs are exactly 0..threads-1, once each.
    pub unique_and_dense: bool,
    /// The first collision, in words (null when none).
    pub first_collision: Option<String>,
}

fn dims(d: Dim3) -> [u32; 3] {
    [d.x, d.y, d.z]
}

/// The blocks of the formula listing (table, Markdown and CSV formats).
pub fn formula_blocks(shapes: &[ShapeFormulas]) -> Vec<Block> {
    let mut t = Tabular::new(
        "global thread ID = block_id * block_size + thread_in_block",
        vec![
            Column::new("shape", "shape"),
            Column::new("block_id", "block_id"),
            Column::new("block_size", "block_size"),
            Column::new("thread_in_block", "thread_in_block"),
        ],
    );
    for s in shapes {
        t.row([&s.shape, &s.block_id, &s.block_size, &s.thread_in_block]);
    }
    let code: Vec<String> = shapes
        .iter()
        .map(|s| {
            let (g, b) = s.shape.split_once('_').unwrap_or((&s.shape, ""));
            format!("// {g} grid of {b} blocks\n{}", s.function.trim_end())
        })
        .collect();
    vec![Block::Table(t), Block::Code(code.join("\n"))]
}

/// The blocks of a `--check` result (table, Markdown and CSV formats).
pub fn check_blocks(r: &IndexCheck, function: &str) -> Vec<Block> {
    let mut t = Tabular::new(
        "",
        [
            "shape",
            "grid",
            "block",
            "threads",
            "distinct",
            "duplicated",
            "out_of_range",
            "unique_and_dense",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    let d = |x: [u32; 3]| format!("{}x{}x{}", x[0], x[1], x[2]);
    t.row([
        r.shape.clone(),
        d(r.grid),
        d(r.block),
        r.threads.to_string(),
        r.distinct.to_string(),
        r.duplicated.to_string(),
        r.out_of_range.to_string(),
        r.unique_and_dense.to_string(),
    ]);
    let mut blocks = vec![Block::Code(function.trim_end().to_string()), Block::Table(t)];
    if let Some(c) = &r.first_collision {
        blocks.push(Block::Text(format!("first collision: {c}")));
    }
    blocks.push(Block::Text(
        if r.unique_and_dense {
            "OK: unique and dense"
        } else {
            "NOT unique and dense"
        }
        .into(),
    ));
    blocks
}

/// Runs `warpscope index`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shape = args
        .shape
        .as_deref()
        .map(Shape::parse)
        .transpose()
        .map_err(|e| anyhow!("--shape {e}"))?;
    let format = if args.json {
        Format::Json
    } else {
        args.output.format
    };
    let color = args.output.color();
    let mut out = std::io::stdout().lock();
    if !args.check {
        let shapes: Vec<ShapeFormulas> = shape
            .map_or_else(Shape::all, |s| vec![s])
            .iter()
            .map(|s| ShapeFormulas {
                shape: s.name(),
                block_id: s.block_id_expr().into(),
                block_size: s.block_size_expr().into(),
                thread_in_block: s.thread_in_block_expr().into(),
                function: s.cuda_function(),
            })
            .collect();
        emit_blocks(&mut out, format, color, &shapes, &formula_blocks(&shapes))?;
        return Ok(ExitCode::SUCCESS);
    }
    let grid = Dim3::parse(&args.grid).map_err(|e| anyhow!("--grid {e}"))?;
    let block = Dim3::parse(&args.block).map_err(|e| anyhow!("--block {e}"))?;
    if block.volume() > 1024 {
        anyhow::bail!(
            "--block {}: {} threads per block; at most 1024",
            args.block,
            block.volume()
        );
    }
    let shape = shape.unwrap_or_else(|| Shape::for_launch(grid, block));
    let r = check(shape, grid, block).map_err(|e| anyhow!(e))?;
    let result = IndexCheck {
        shape: shape.name(),
        grid: dims(grid),
        block: dims(block),
        threads: r.threads,
        distinct: r.distinct,
        duplicated: r.duplicated,
        out_of_range: r.out_of_range,
        unique_and_dense: r.is_unique_and_dense(),
        first_collision: r.first_collision.map(|(id, (b1, t1), (b2, t2))| {
            format!("ID {id} for blockIdx {b1} threadIdx {t1} and blockIdx {b2} threadIdx {t2}")
        }),
    };
    emit_blocks(
        &mut out,
        format,
        color,
        &result,
        &check_blocks(&result, &shape.cuda_function()),
    )?;
    Ok(if result.unique_and_dense {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::FINDINGS)
    })
}
