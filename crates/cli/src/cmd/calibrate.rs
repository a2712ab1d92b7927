//! `warpscope calibrate [--quick]`: the project's calibration batteries on the present GPU, and
//! whether warpscope's model for its architecture holds.
//!
//! Batteries: the bank battery (`calibration/bank/`: one warp request per row, counted by Nsight
//! Compute in a child run of this program; `--quick` takes a representative subset, every row of
//! which is a row of the checked-in tables), occupancy against the driver
//! (`cuOccupancyMaxActiveBlocksPerMultiprocessor` for the lab's kernels vs the calculator), and the
//! latency pointer chases (`calibration/latency/chase.cu`). The measured tables are written with
//! `--out DIR` in the calibration formats, with the device, driver and ncu versions in their
//! header; `--from DIR` reads such a directory back and judges it again with no GPU.
//!
//! The verdicts: per rule (clause of the bank rule, occupancy, latency) `holds` or `breaks (N
//! rows)` with the first breaking rows, and for each battery whether its rows equal the
//! checked-in H100 tables.

//! The tables, their pairing with ncu's launches and the verdicts are `warpscope_measure::calibrate`'s;
//! this module defines the flags, runs the batteries on the GPU (the bank and matrix batteries in
//! child runs of this program under ncu) and renders the report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use warpscope_gpu::calibrate::{BANK_METRICS, BankPattern};
use warpscope_measure::calibrate::{self as cal, Report, Tables, matrix};
use warpscope_model::arch::Arch;

use super::device::gpu_error;
use crate::launch::measure_error;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// Flags of `warpscope calibrate`.
#[derive(clap::Args)]
pub struct Args {
    /// A representative subset of the bank battery (every clause of the rule, every width and op;
    /// under two minutes on an H100) instead of all 3710 rows.
    #[arg(long)]
    quick: bool,
    /// Leave out the ldmatrix / stmatrix / cp.async battery.
    #[arg(long)]
    no_matrix: bool,
    /// Device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Nsight Compute executable (default: found on PATH, /usr/local/cuda/bin, /opt/nvidia).
    #[arg(long, value_name = "PATH")]
    ncu: Option<PathBuf>,
    /// NVRTC library file or directory.
    #[arg(long, value_name = "PATH")]
    nvrtc: Option<PathBuf>,
    /// Write the measured tables here (bank/, occupancy/, latency/, calibrate.json).
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    out: Option<PathBuf>,
    /// Judge tables written earlier by `--out` (no GPU needed).
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    /// Internal: launch the bank patterns of FILE (what runs under ncu).
    #[arg(long, hide = true, value_name = "FILE")]
    bank_child: Option<PathBuf>,
    /// Internal: launch the ldmatrix / stmatrix / cp.async patterns of FILE (what runs under ncu).
    #[arg(long, hide = true, value_name = "FILE")]
    matrix_child: Option<PathBuf>,
}

fn blocks(r: &Report) -> Vec<Block> {
    let mut out = vec![Block::Heading(format!(
        "calibration{} on {} ({})",
        if r.quick { " (--quick)" } else { "" },
        r.measured_on,
        r.arch
    ))];
    let cols = ["battery", "rule", "verdict", "evidence (first breaking rows)"];
    let mut t = Tabular::new("", cols.map(|c| Column::new(c, c)).to_vec());
    let mut csv = Tabular::new(
        "",
        ["battery", "rule", "status", "rows", "breaking", "evidence"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for v in &r.verdicts {
        let tone = match v.status.as_str() {
            "holds" => Tone::Good,
            "breaks" => Tone::Bad,
            _ => Tone::Warn,
        };
        t.toned_row(vec![
            (v.battery.clone(), Tone::Plain),
            (v.rule.clone(), Tone::Plain),
            (v.shown_status(), tone),
            (v.evidence.join("\n"), Tone::Plain),
        ]);
        csv.row([
            v.battery.clone(),
            v.rule.clone(),
            v.status.clone(),
            v.rows.to_string(),
            v.breaking.to_string(),
            v.evidence.join("; "),
        ]);
    }
    out.push(Block::ShownTable(t));
    out.push(Block::CsvTable(csv));
    let mut c = Tabular::new(
        "rows equal to the checked-in H100 tables",
        ["battery", "table", "equal", "rows"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for x in &r.checked_in {
        c.row([
            x.battery.clone(),
            x.table.clone(),
            x.equal.to_string(),
            x.rows.to_string(),
        ]);
    }
    out.push(Block::Table(c));
    let mut notes: Vec<String> = r
        .checked_in
        .iter()
        .flat_map(|x| {
            x.differing
                .iter()
                .map(move |d| format!("{}: differs from the checked-in table: {d}", x.battery))
        })
        .collect();
    notes.push(format!(
        "latency (cycles): {}",
        r.latency_cycles
            .iter()
            .map(|(k, v)| format!("{k} {v:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if let Ok(a) = Arch::parse(&r.arch) {
        notes.push(warpscope_measure::basis::line(a));
        if a.provenance().bank.status() != "measured" && r.verdicts.iter().all(|v| v.status != "breaks") {
            notes.push(format!(
                "every rule holds: with these tables checked in under calibration/, {}'s bank rule can be marked measured (Arch::provenance in crates/model/src/arch.rs)",
                a.name
            ));
        }
    }
    if let Some(s) = r.seconds {
        notes.push(format!("took {s:.1} s"));
    }
    out.push(Block::Notes(notes));
    out
}

fn exit_for(r: &Report) -> ExitCode {
    if r.breaks() {
        ExitCode::from(crate::exit::FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `warpscope calibrate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(file) = &args.bank_child {
        let text = warpscope_driver::limits::read_source(file).map_err(crate::launch::driver_error)?;
        let rows =
            cal::parse_bank(&text, &file.display().to_string(), "measured", false).map_err(measure_error)?;
        let patterns: Vec<BankPattern> = rows.into_iter().map(|r| r.pattern).collect();
        warpscope_gpu::calibrate::bank_launches(args.device, args.nvrtc.as_deref(), &patterns)
            .map_err(gpu_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(file) = &args.matrix_child {
        let text = warpscope_driver::limits::read_source(file).map_err(crate::launch::driver_error)?;
        let rows =
            matrix::parse(&text, &file.display().to_string(), "measured", false).map_err(measure_error)?;
        let patterns: Vec<_> = rows.into_iter().map(|r| r.pattern).collect();
        warpscope_gpu::calibrate::matrix_launches(args.device, args.nvrtc.as_deref(), &patterns)
            .map_err(gpu_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.from {
        let t = cal::read_tables(dir).map_err(measure_error)?;
        let r = cal::judge(&t, None).map_err(measure_error)?;
        emit_blocks(
            &mut std::io::stdout().lock(),
            args.output.format,
            args.output.color(),
            &r,
            &blocks(&r),
        )?;
        return Ok(exit_for(&r));
    }
    let start = std::time::Instant::now();
    warpscope_gpu::ensure_driver().map_err(gpu_error)?;
    let info = warpscope_gpu::device::query(args.device).map_err(gpu_error)?;
    let cc = info.cc_major * 10 + info.cc_minor;
    let ncu = warpscope_gpu::measure::find_ncu(args.ncu.as_deref()).ok_or_else(|| {
        anyhow::Error::new(crate::exit::Unavailable(
            "calibrate needs Nsight Compute (ncu) for the bank battery: not found on PATH, /usr/local/cuda/bin or /opt/nvidia (pass --ncu PATH)".into(),
        ))
    })?;
    let versions = warpscope_gpu::measure::versions(args.device, Some(&ncu)).map_err(gpu_error)?;
    // Bank battery under ncu, in a child run of this program.
    let patterns = cal::checked_in_bank(args.quick).map_err(measure_error)?;
    let tmp = std::env::temp_dir().join(format!("warpscope-calibrate-{}.tsv", std::process::id()));
    std::fs::write(&tmp, cal::patterns_text(&patterns))
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    let exe = std::env::current_exe().context("the path of this program (to re-run under ncu)")?;
    let mut child = vec![
        "calibrate".to_string(),
        "--bank-child".into(),
        tmp.display().to_string(),
    ];
    child.extend(["--device".into(), args.device.to_string()]);
    if let Some(n) = &args.nvrtc {
        child.extend(["--nvrtc".into(), n.display().to_string()]);
    }
    let profiled = warpscope_gpu::measure::profile(&ncu, &exe, &child, &BANK_METRICS, Some("bank_"));
    let _ = std::fs::remove_file(&tmp);
    let (ncu_rows, _) = profiled.map_err(gpu_error)?;
    let bank = cal::bank_rows_measured(patterns, &ncu_rows).map_err(measure_error)?;
    // Matrix battery (ldmatrix / stmatrix / cp.async) under ncu, in a child run of this program. The
    // harness has stmatrix, which needs CC 9.0.
    let mut mat = Vec::new();
    if cc >= 90 && !args.no_matrix {
        let patterns = matrix::checked_in(args.quick).map_err(measure_error)?;
        let tmp = std::env::temp_dir().join(format!("warpscope-calibrate-m{}.tsv", std::process::id()));
        std::fs::write(&tmp, matrix::patterns_text(&patterns))
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        let mut child = vec![
            "calibrate".to_string(),
            "--matrix-child".into(),
            tmp.display().to_string(),
        ];
        child.extend(["--device".into(), args.device.to_string()]);
        if let Some(n) = &args.nvrtc {
            child.extend(["--nvrtc".into(), n.display().to_string()]);
        }
        let metrics: Vec<&str> = warpscope_gpu::calibrate::MATRIX_METRICS
            .iter()
            .map(|(_, m)| *m)
            .collect();
        let profiled =
            warpscope_gpu::measure::profile(&ncu, &exe, &child, &metrics, Some("(ldsm|stsm|ldgsts)_"));
        let _ = std::fs::remove_file(&tmp);
        let (ncu_rows, _) = profiled.map_err(gpu_error)?;
        mat = matrix::rows_measured(patterns, &ncu_rows).map_err(measure_error)?;
    }
    // Occupancy against the driver: the lab's experiment (no ncu, no timing involved).
    let lab = warpscope_gpu::lab::Lab::open(warpscope_gpu::lab::LabConfig {
        device: args.device,
        nvrtc: args.nvrtc.clone(),
        ncu: None,
        no_ncu: true,
        self_exe: None,
        reps: 20,
        seed: 1,
    })
    .map_err(gpu_error)?;
    let occ_report = lab
        .run(
            "occupancy",
            &warpscope_gpu::lab::GroundTruth,
            &warpscope_gpu::lab::NoProgress,
        )
        .map_err(gpu_error)?;
    let occ = cal::occ_rows(&occ_report.data).map_err(measure_error)?;
    drop(lab);
    let lat = warpscope_gpu::calibrate::latency(args.device, args.nvrtc.as_deref()).map_err(gpu_error)?;
    let latency = cal::latency_rows(&lat);
    let t = Tables {
        header: versions.header(),
        cc,
        quick: args.quick,
        bank,
        occ,
        latency,
        matrix: mat,
    };
    let r = cal::judge(&t, Some(start.elapsed().as_secs_f64())).map_err(measure_error)?;
    if let Some(dir) = &args.out {
        cal::write_tables(dir, &t, &r).map_err(measure_error)?;
    }
    emit_blocks(
        &mut std::io::stdout().lock(),
        args.output.format,
        args.output.color(),
        &r,
        &blocks(&r),
    )?;
    Ok(exit_for(&r))
}
