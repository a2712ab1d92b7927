//! `warpscope index`: the global thread-ID formula (CUDA C) for each grid x block shape, and `--check`
//! to enumerate a launch and prove the IDs unique and dense.

use std::io::Write;
use std::process::ExitCode;

use anyhow::anyhow;
use serde_json::json;
use warpscope_model::index::{Dim3, Shape, check};

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
    /// JSON output.
    #[arg(long)]
    json: bool,
}

/// Runs `warpscope index`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shape = args
        .shape
        .as_deref()
        .map(Shape::parse)
        .transpose()
        .map_err(|e| anyhow!("--shape {e}"))?;
    let mut out = std::io::stdout().lock();
    if !args.check {
        let shapes = shape.map_or_else(Shape::all, |s| vec![s]);
        if args.json {
            let v: Vec<_> = shapes
                .iter()
                .map(|s| json!({"shape": s.name(), "block_id": s.block_id_expr(), "block_size": s.block_size_expr(),
                    "thread_in_block": s.thread_in_block_expr(), "function": s.cuda_function()}))
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        } else {
            for s in shapes {
                writeln!(
                    out,
                    "// {}D grid of {}D blocks\n{}",
                    s.grid,
                    s.block,
                    s.cuda_function()
                )?;
            }
        }
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
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json!({
                "shape": shape.name(), "grid": [grid.x, grid.y, grid.z], "block": [block.x, block.y, block.z],
                "threads": r.threads, "distinct": r.distinct, "duplicated": r.duplicated,
                "out_of_range": r.out_of_range, "unique_and_dense": r.is_unique_and_dense(),
            }))?
        )?;
    } else {
        writeln!(out, "{}", shape.cuda_function())?;
        writeln!(
            out,
            "grid {grid} x block {block}: {} threads, {} distinct IDs, {} duplicated, {} out of range",
            r.threads, r.distinct, r.duplicated, r.out_of_range
        )?;
        if let Some((id, (b1, t1), (b2, t2))) = r.first_collision {
            writeln!(
                out,
                "first collision: ID {id} for blockIdx {b1} threadIdx {t1} and blockIdx {b2} threadIdx {t2}"
            )?;
        }
        writeln!(
            out,
            "{}",
            if r.is_unique_and_dense() {
                "OK: unique and dense"
            } else {
                "NOT unique and dense"
            }
        )?;
    }
    Ok(if r.is_unique_and_dense() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::FINDINGS)
    })
}
