//! `warpscope tour`'s seed kernels: bundled in the binary (their CUDA source, the PTX and machine
//! code that nvcc 13.5 made of them, the manifest of their launches and the H100's counters) and
//! emulated, each beside the H100's counters.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_analysis::banks::Side;
use warpscope_analysis::launchspec::{parse_args, parse_dims};
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::Launch;

use crate::render::analysis::{self as analyze, Analysis};

/// One bundled kernel.
pub struct Bundled {
    pub name: &'static str,
    pub cu: &'static str,
    pub ptx: &'static str,
    pub sass: &'static str,
}

macro_rules! seed {
    ($n:literal) => {
        Bundled {
            name: $n,
            cu: include_str!(concat!("../../../calibration/kernels/seeds/", $n, ".cu")),
            ptx: include_str!(concat!("../fixtures/seeds/", $n, ".ptx")),
            sass: include_str!(concat!("../fixtures/seeds/", $n, ".sass")),
        }
    };
}

pub static SEEDS: &[Bundled] = &[
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

pub static MANIFEST: &str = include_str!("../../../calibration/kernels/manifest.tsv");
pub static H100: &str = include_str!("../../../calibration/kernels/seeds_groundtruth_h100.tsv");

/// One kernel's emulated totals beside the H100's.
#[derive(Serialize)]
pub struct Row {
    pub kernel: String,
    pub what: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_smem: u32,
    /// Emulated [ld wavefronts, st wavefronts, ld instructions, st instructions].
    pub emulated: [u64; 4],
    /// H100 (ncu) in the same order.
    pub h100: [u64; 4],
    /// Bank picture of the worst load request.
    pub worst_load_banks: String,
    #[serde(skip)]
    pub analysis: Analysis,
}

pub fn tsv_rows(text: &'static str) -> Vec<Vec<&'static str>> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect()
}

pub fn analyse(b: &Bundled) -> anyhow::Result<Row> {
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

/// Wavefronts per request, as the tables show it.
pub fn per_request(wavefronts: u64, instructions: u64) -> String {
    if instructions == 0 {
        "-".into()
    } else {
        format!("{}", wavefronts as f64 / instructions as f64)
    }
}
