//! `warpscope device`: the properties of every visible GPU, as a table or JSON.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use comfy_table::Table;
use warpscope_gpu::device::{self, DeviceInfo};

use crate::exit::Unavailable;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One table per GPU.
    Table,
    /// A JSON array, one object per GPU.
    Json,
}

/// Flags of `warpscope device`.
#[derive(clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

/// Maps a GPU-crate error to the CLI's error: "unavailable" errors exit with status 1.
pub fn gpu_error(e: warpscope_gpu::Error) -> anyhow::Error {
    if e.is_unavailable() {
        anyhow::Error::new(Unavailable(e.to_string()))
    } else {
        anyhow::Error::new(e)
    }
}

/// Runs `warpscope device`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let devices = device::query_all().map_err(gpu_error)?;
    let mut out = std::io::stdout().lock();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &devices).context("writing JSON")?;
            writeln!(out)?;
        }
        Format::Table => {
            for d in &devices {
                writeln!(out, "{}", table(d))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn kib(b: u32) -> String {
    format!("{} KiB ({b} B)", b / 1024)
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The rows shown for one device.
pub fn rows(d: &DeviceInfo) -> Vec<(&'static str, String)> {
    vec![
        ("Device", format!("{}: {}", d.ordinal, d.name)),
        ("Compute capability", format!("{}.{}", d.cc_major, d.cc_minor)),
        ("Multiprocessors (SMs)", d.multiprocessors.to_string()),
        ("Warp size", d.warp_size.to_string()),
        ("Max threads per block", d.max_threads_per_block.to_string()),
        ("Max threads per SM", d.max_threads_per_sm.to_string()),
        ("Max blocks per SM", d.max_blocks_per_sm.to_string()),
        (
            "Max block dimensions",
            format!(
                "{} x {} x {}",
                d.max_block_dim[0], d.max_block_dim[1], d.max_block_dim[2]
            ),
        ),
        (
            "Max grid dimensions",
            format!(
                "{} x {} x {}",
                d.max_grid_dim[0], d.max_grid_dim[1], d.max_grid_dim[2]
            ),
        ),
        ("Shared memory per block", kib(d.shared_mem_per_block)),
        (
            "Shared memory per block (opt-in)",
            kib(d.shared_mem_per_block_optin),
        ),
        ("Shared memory per SM", kib(d.shared_mem_per_sm)),
        (
            "Shared memory reserved per block",
            format!("{} B", d.reserved_shared_mem_per_block),
        ),
        ("Registers per block", d.registers_per_block.to_string()),
        ("Registers per SM", d.registers_per_sm.to_string()),
        ("Constant memory", kib(d.total_constant_memory)),
        ("SM clock", format!("{} MHz", d.clock_khz / 1000)),
        ("Memory clock", format!("{} MHz", d.memory_clock_khz / 1000)),
        ("Memory bus width", format!("{} bit", d.memory_bus_width_bits)),
        (
            "Peak memory bandwidth (estimate)",
            format!("{:.1} GB/s", d.peak_bandwidth_gbs),
        ),
        (
            "L2 cache",
            format!("{} MiB ({} B)", d.l2_cache_bytes / (1 << 20), d.l2_cache_bytes),
        ),
        (
            "Total memory",
            format!("{:.2} GiB", d.total_memory_bytes as f64 / (1u64 << 30) as f64),
        ),
        ("Async copy engines", d.async_engine_count.to_string()),
        ("Can map host memory", yes(d.can_map_host_memory).into()),
        ("Unified addressing", yes(d.unified_addressing).into()),
        ("Concurrent kernels", yes(d.concurrent_kernels).into()),
        ("Managed memory", yes(d.managed_memory).into()),
        ("ECC", yes(d.ecc_enabled).into()),
        ("Integrated", yes(d.integrated).into()),
        ("PCI bus", d.pci_bus_id.clone()),
        ("Driver version", d.driver_version.clone()),
    ]
}

/// The table for one device.
pub fn table(d: &DeviceInfo) -> Table {
    let mut t = Table::new();
    t.set_header(vec!["Property", "Value"]);
    for (k, v) in rows(d) {
        t.add_row(vec![k.to_string(), v]);
    }
    t
}
