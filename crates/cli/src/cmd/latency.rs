//! `warpscope latency`: warps (threads, bytes in flight) needed to hide arithmetic and memory latency,
//! per SM and per device, by Little's law, from a preset (`fermi`: the seed's worked example; `h100`:
//! measured) with any input overridden.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde_json::json;
use warpscope_model::latency::{LatencyInput, littles_law, preset, presets};

use crate::output::{Column, Format, OutputArgs, Tabular, emit};

/// Flags of `warpscope latency`.
#[derive(clap::Args)]
pub struct Args {
    /// Starting values: `fermi` (seed 002) or `h100` (measured, calibration/latency/).
    #[arg(long, default_value = "h100")]
    preset: String,
    /// Arithmetic latency, cycles.
    #[arg(long)]
    arith_latency: Option<f64>,
    /// Arithmetic throughput, operations per cycle per SM.
    #[arg(long)]
    ops_per_cycle: Option<f64>,
    /// Memory latency, cycles.
    #[arg(long)]
    mem_latency: Option<f64>,
    /// Memory bandwidth, GB/s.
    #[arg(long)]
    bandwidth: Option<f64>,
    /// The clock the memory latency is counted in, GHz.
    #[arg(long)]
    clock: Option<f64>,
    /// Bytes each thread loads.
    #[arg(long)]
    bytes_per_thread: Option<f64>,
    /// SMs on the device.
    #[arg(long)]
    sms: Option<u32>,
    #[command(flatten)]
    output: OutputArgs,
}

/// Runs `warpscope latency`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let p = preset(&args.preset).with_context(|| {
        format!(
            "unknown preset `{}`; known: {}",
            args.preset,
            presets().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
        )
    })?;
    let mut i: LatencyInput = p.input.clone();
    let overridden = args.mem_latency.is_some()
        || args.bandwidth.is_some()
        || args.clock.is_some()
        || args.bytes_per_thread.is_some()
        || args.sms.is_some();
    i.arith_latency = args.arith_latency.unwrap_or(i.arith_latency);
    i.arith_ops_per_cycle = args.ops_per_cycle.unwrap_or(i.arith_ops_per_cycle);
    i.mem_latency = args.mem_latency.unwrap_or(i.mem_latency);
    i.bandwidth_gbs = args.bandwidth.unwrap_or(i.bandwidth_gbs);
    i.clock_ghz = args.clock.unwrap_or(i.clock_ghz);
    i.bytes_per_thread = args.bytes_per_thread.unwrap_or(i.bytes_per_thread);
    i.sms = args.sms.unwrap_or(i.sms);
    if overridden {
        i.round_kb = false;
    }
    for (name, v) in [
        ("--arith-latency", i.arith_latency),
        ("--ops-per-cycle", i.arith_ops_per_cycle),
        ("--mem-latency", i.mem_latency),
        ("--bandwidth", i.bandwidth_gbs),
        ("--clock", i.clock_ghz),
        ("--bytes-per-thread", i.bytes_per_thread),
    ] {
        if !(v.is_finite() && v > 0.0) {
            bail!("{name} must be a positive number, got {v}");
        }
    }
    if i.sms == 0 {
        bail!("--sms must be at least 1");
    }
    let a = littles_law(&i);
    let mut out = std::io::stdout().lock();
    match args.output.format {
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json!({
                "preset": p.name,
                "source": p.source,
                "input": {
                    "arith_latency": i.arith_latency, "ops_per_cycle": i.arith_ops_per_cycle,
                    "mem_latency": i.mem_latency, "bandwidth_gbs": i.bandwidth_gbs, "clock_ghz": i.clock_ghz,
                    "bytes_per_thread": i.bytes_per_thread, "sms": i.sms, "round_kb": i.round_kb,
                },
                "arith_ops_in_flight_per_sm": a.arith_ops_in_flight,
                "arith_warps_per_sm": a.arith_warps_per_sm,
                "bytes_per_cycle": a.bytes_per_cycle,
                "bytes_in_flight": a.bytes_in_flight,
                "bytes_in_flight_per_sm": a.bytes_in_flight_per_sm,
                "mem_threads": a.mem_threads,
                "mem_warps_device": a.mem_warps_device,
                "mem_warps_per_sm": a.mem_warps_per_sm,
            }))?
        )?,
        Format::Table => {
            writeln!(out, "preset {}: {}", p.name, p.source)?;
            writeln!(
                out,
                "arithmetic: {} cycles x {} ops/cycle/SM = {} ops in flight per SM = {:.1} warps per SM",
                i.arith_latency, i.arith_ops_per_cycle, a.arith_ops_in_flight, a.arith_warps_per_sm
            )?;
            writeln!(
                out,
                "memory:     {} GB/s / {} GHz = {:.1} B/cycle; x {} cycles = {:.0} B in flight per device{}",
                i.bandwidth_gbs,
                i.clock_ghz,
                a.bytes_per_cycle,
                i.mem_latency,
                a.bytes_in_flight,
                if i.round_kb {
                    " (rounded to whole KB, as the seed does)"
                } else {
                    ""
                }
            )?;
            writeln!(
                out,
                "            {:.0} B / {} B per thread = {:.0} threads = {} warps per device; / {} SMs = {:.1} warps ({:.0} B) per SM",
                a.bytes_in_flight,
                i.bytes_per_thread,
                a.mem_threads,
                a.mem_warps_device,
                i.sms,
                a.mem_warps_per_sm,
                a.bytes_in_flight_per_sm
            )?;
        }
        Format::Csv | Format::Markdown => {
            let mut t = Tabular::new(
                format!("preset {}", p.name),
                vec![Column::new("quantity", "quantity"), Column::new("value", "value")],
            );
            for (k, v) in [
                ("arith_latency", i.arith_latency),
                ("ops_per_cycle", i.arith_ops_per_cycle),
                ("mem_latency", i.mem_latency),
                ("bandwidth_gbs", i.bandwidth_gbs),
                ("clock_ghz", i.clock_ghz),
                ("bytes_per_thread", i.bytes_per_thread),
                ("sms", f64::from(i.sms)),
                ("arith_ops_in_flight_per_sm", a.arith_ops_in_flight),
                ("arith_warps_per_sm", a.arith_warps_per_sm),
                ("bytes_per_cycle", a.bytes_per_cycle),
                ("bytes_in_flight", a.bytes_in_flight),
                ("bytes_in_flight_per_sm", a.bytes_in_flight_per_sm),
                ("mem_threads", a.mem_threads),
                ("mem_warps_device", a.mem_warps_device as f64),
                ("mem_warps_per_sm", a.mem_warps_per_sm),
            ] {
                t.row([k.to_string(), v.to_string()]);
            }
            emit(&mut out, args.output.format, args.output.color(), &(), &[t])?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
