//! `warpscope tour`'s tensor-core chapter: `ldmatrix.x4` on a 64x64 f16 tile
//! (crates/cli/fixtures/tensor) as written and swizzled, with the fix advisor's changes, counted by
//! the LDSM rule calibrated on the H100.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_analysis::banks::MatrixKind;
use warpscope_analysis::fix::Target;
use warpscope_analysis::launchspec::parse_args;
use warpscope_driver::{FixOptions, RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::Launch;

use crate::output::{Block, Column, Tabular};
use crate::render::analysis::{self as analyze};
use crate::tour_seeds::per_request;

/// The tensor-core tile chapter's kernels (crates/cli/fixtures/tensor/README.md).
static TENSOR_CU: &str = include_str!("../fixtures/tensor/ldsmTile.cu");
static TENSOR_PTX: &str = include_str!("../fixtures/tensor/ldsmTile.ptx");
static TENSOR_SASS: &str = include_str!("../fixtures/tensor/ldsmTile.sass");

/// One kernel of the tensor-core tile chapter.
#[derive(Serialize)]
pub struct TileRow {
    pub kernel: String,
    pub layout: String,
    /// `ldmatrix.x4` (LDSM) warp instructions, wavefronts and conflict-free wavefronts.
    pub ldsm: [u64; 3],
    /// The staging stores (STS.128): instructions, wavefronts, ideal.
    pub stores: [u64; 3],
    /// Row address (shared offset) each lane supplies in the first `ldmatrix` of warp 0.
    pub lane_offsets: Vec<Option<u64>>,
    /// Its 16-byte bank group, `(offset / 16) % 8`.
    pub lane_groups: Vec<Option<u8>>,
}

/// The advisor's suggestion for the conflicting tile.
#[derive(Serialize)]
pub struct TileFix {
    pub kind: String,
    pub change: String,
    pub source: String,
    pub wavefronts_before: u64,
    pub wavefronts_after: u64,
    pub ideal: u64,
    pub extra_shared_bytes: u32,
}

/// The tensor-core tile chapter (JSON `tensor_tile`).
#[derive(Serialize)]
pub struct TensorChapter {
    pub rows: Vec<TileRow>,
    pub advisor: Vec<TileFix>,
    /// Where the counts come from.
    pub basis: String,
}

pub const TENSOR_BASIS: &str = "LDSM wavefronts from the rule measured on the H100 (calibration/ldsm/: 1616 single-warp \
ldmatrix/stmatrix requests, 128-byte pitches and CuTe swizzles among them, all equal); both kernels measured \
on the H100 too (analyze --measure: 512 and 64 in ncu's shared op_ld wavefronts, calibration/measure/h100/analyze/)";

pub fn tensor_chapter() -> anyhow::Result<(TensorChapter, Vec<Block>)> {
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
