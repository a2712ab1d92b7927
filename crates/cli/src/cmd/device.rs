//! `warpscope device`: the properties of every visible GPU, in any output format. `--from FILE`
//! prints a saved `device --format json` instead (no GPU needed), through the same rendering.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::Value;
use warpscope_gpu::device;

use crate::exit::Unavailable;
use crate::output::{Block, Column, OutputArgs, Tabular, emit_blocks};

/// Flags of `warpscope device`.
#[derive(clap::Args)]
pub struct Args {
    /// Print this saved `warpscope device --format json` output instead of querying the GPUs.
    #[arg(long, value_name = "FILE.json")]
    from: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
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
    let devices: Value = match &args.from {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{}:{}:{}: not valid JSON: {e}",
                    path.display(),
                    e.line(),
                    e.column()
                )
            })?
        }
        None => serde_json::to_value(device::query_all().map_err(gpu_error)?)?,
    };
    let mut devices = devices;
    if let Some(list) = devices.as_array_mut() {
        for d in list {
            let a = warpscope_measure::basis::arch_of(
                d["cc_major"].as_u64().unwrap_or(0),
                d["cc_minor"].as_u64().unwrap_or(0),
            );
            if let (Some(a), Some(o)) = (a, d.as_object_mut()) {
                o.insert("rules_basis".into(), warpscope_measure::basis::json(a));
            }
        }
    }
    let origin = args
        .from
        .as_ref()
        .map_or_else(|| "the device query".to_string(), |p| p.display().to_string());
    let blocks = blocks(&devices).with_context(|| format!("{origin}: not the JSON of `warpscope device`"))?;
    let mut out = std::io::stdout().lock();
    emit_blocks(
        &mut out,
        args.output.format,
        args.output.color(),
        &devices,
        &blocks,
    )?;
    Ok(ExitCode::SUCCESS)
}

fn kib(b: u64) -> String {
    format!("{} KiB ({b} B)", b / 1024)
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The CSV columns: (JSON field of `DeviceInfo`, element of a list field, CSV name). Nsight
/// Compute's `device__attribute_*` metric names where one exists (all 33 were checked against the
/// raw page of `ncu` on an H100: calibration/device/); booleans are written 1/0 as ncu writes them.
pub const CSV_COLUMNS: [(&str, Option<usize>, &str); 37] = [
    ("ordinal", None, "ordinal"),
    ("name", None, "device__attribute_display_name"),
    ("cc_major", None, "device__attribute_compute_capability_major"),
    ("cc_minor", None, "device__attribute_compute_capability_minor"),
    ("multiprocessors", None, "device__attribute_multiprocessor_count"),
    ("warp_size", None, "device__attribute_warp_size"),
    (
        "max_threads_per_block",
        None,
        "device__attribute_max_threads_per_block",
    ),
    (
        "max_threads_per_sm",
        None,
        "device__attribute_max_threads_per_multiprocessor",
    ),
    (
        "max_blocks_per_sm",
        None,
        "device__attribute_max_blocks_per_multiprocessor",
    ),
    ("max_block_dim", Some(0), "device__attribute_max_block_dim_x"),
    ("max_block_dim", Some(1), "device__attribute_max_block_dim_y"),
    ("max_block_dim", Some(2), "device__attribute_max_block_dim_z"),
    ("max_grid_dim", Some(0), "device__attribute_max_grid_dim_x"),
    ("max_grid_dim", Some(1), "device__attribute_max_grid_dim_y"),
    ("max_grid_dim", Some(2), "device__attribute_max_grid_dim_z"),
    (
        "shared_mem_per_block",
        None,
        "device__attribute_max_shared_memory_per_block",
    ),
    (
        "shared_mem_per_block_optin",
        None,
        "device__attribute_max_shared_memory_per_block_optin",
    ),
    (
        "shared_mem_per_sm",
        None,
        "device__attribute_max_shared_memory_per_multiprocessor",
    ),
    (
        "reserved_shared_mem_per_block",
        None,
        "device__attribute_reserved_shared_memory_per_block",
    ),
    (
        "registers_per_block",
        None,
        "device__attribute_max_registers_per_block",
    ),
    (
        "registers_per_sm",
        None,
        "device__attribute_max_registers_per_multiprocessor",
    ),
    (
        "total_constant_memory",
        None,
        "device__attribute_total_constant_memory",
    ),
    ("clock_khz", None, "device__attribute_clock_rate"),
    ("memory_clock_khz", None, "device__attribute_memory_clock_rate"),
    (
        "memory_bus_width_bits",
        None,
        "device__attribute_global_memory_bus_width",
    ),
    ("peak_bandwidth_gbs", None, "peak_bandwidth_gbs"),
    ("l2_cache_bytes", None, "device__attribute_l2_cache_size"),
    ("total_memory_bytes", None, "device__attribute_total_memory"),
    ("async_engine_count", None, "device__attribute_async_engine_count"),
    (
        "can_map_host_memory",
        None,
        "device__attribute_can_map_host_memory",
    ),
    ("unified_addressing", None, "device__attribute_unified_addressing"),
    ("concurrent_kernels", None, "device__attribute_concurrent_kernels"),
    ("managed_memory", None, "device__attribute_managed_memory"),
    ("ecc_enabled", None, "device__attribute_ecc_enabled"),
    ("integrated", None, "device__attribute_integrated"),
    ("pci_bus_id", None, "pci_bus_id"),
    ("driver_version", None, "driver_version"),
];

fn field<'a>(d: &'a Value, k: &str) -> anyhow::Result<&'a Value> {
    d.get(k).with_context(|| format!("no field `{k}`"))
}

fn num(d: &Value, k: &str) -> anyhow::Result<u64> {
    field(d, k)?
        .as_u64()
        .with_context(|| format!("field `{k}` is not a whole number"))
}

fn flag(d: &Value, k: &str) -> anyhow::Result<&'static str> {
    Ok(yes(field(d, k)?
        .as_bool()
        .with_context(|| format!("field `{k}` is not true/false"))?))
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join("x"),
        other => other.to_string(),
    }
}

/// One CSV cell: booleans as 1/0 (as ncu writes them), one element of a list field.
fn csv_cell(d: &Value, k: &str, at: Option<usize>) -> anyhow::Result<String> {
    let v = field(d, k)?;
    let v = match at {
        Some(i) => v
            .get(i)
            .with_context(|| format!("field `{k}` has no element {i}"))?,
        None => v,
    };
    Ok(match v {
        Value::Bool(b) => u8::from(*b).to_string(),
        other => text(other),
    })
}

fn dims(d: &Value, k: &str) -> anyhow::Result<String> {
    let a = field(d, k)?
        .as_array()
        .with_context(|| format!("field `{k}` is not a list"))?;
    Ok(a.iter().map(text).collect::<Vec<_>>().join(" x "))
}

/// The rows shown for one device (its `DeviceInfo` JSON).
pub fn rows(d: &Value) -> anyhow::Result<Vec<(&'static str, String)>> {
    let s = |k: &str| -> anyhow::Result<String> { Ok(text(field(d, k)?)) };
    Ok(vec![
        ("Device", format!("{}: {}", num(d, "ordinal")?, s("name")?)),
        (
            "Compute capability",
            format!("{}.{}", num(d, "cc_major")?, num(d, "cc_minor")?),
        ),
        ("Multiprocessors (SMs)", num(d, "multiprocessors")?.to_string()),
        ("Warp size", num(d, "warp_size")?.to_string()),
        (
            "Max threads per block",
            num(d, "max_threads_per_block")?.to_string(),
        ),
        ("Max threads per SM", num(d, "max_threads_per_sm")?.to_string()),
        ("Max blocks per SM", num(d, "max_blocks_per_sm")?.to_string()),
        ("Max block dimensions", dims(d, "max_block_dim")?),
        ("Max grid dimensions", dims(d, "max_grid_dim")?),
        ("Shared memory per block", kib(num(d, "shared_mem_per_block")?)),
        (
            "Shared memory per block (opt-in)",
            kib(num(d, "shared_mem_per_block_optin")?),
        ),
        ("Shared memory per SM", kib(num(d, "shared_mem_per_sm")?)),
        (
            "Shared memory reserved per block",
            format!("{} B", num(d, "reserved_shared_mem_per_block")?),
        ),
        ("Registers per block", num(d, "registers_per_block")?.to_string()),
        ("Registers per SM", num(d, "registers_per_sm")?.to_string()),
        ("Constant memory", kib(num(d, "total_constant_memory")?)),
        ("SM clock", format!("{} MHz", num(d, "clock_khz")? / 1000)),
        (
            "Memory clock",
            format!("{} MHz", num(d, "memory_clock_khz")? / 1000),
        ),
        (
            "Memory bus width",
            format!("{} bit", num(d, "memory_bus_width_bits")?),
        ),
        (
            "Peak memory bandwidth (estimate)",
            format!(
                "{:.1} GB/s",
                field(d, "peak_bandwidth_gbs")?
                    .as_f64()
                    .context("field `peak_bandwidth_gbs` is not a number")?
            ),
        ),
        ("L2 cache", {
            let b = num(d, "l2_cache_bytes")?;
            format!("{} MiB ({b} B)", b / (1 << 20))
        }),
        (
            "Total memory",
            format!(
                "{:.2} GiB",
                num(d, "total_memory_bytes")? as f64 / (1u64 << 30) as f64
            ),
        ),
        ("Async copy engines", num(d, "async_engine_count")?.to_string()),
        ("Can map host memory", flag(d, "can_map_host_memory")?.into()),
        ("Unified addressing", flag(d, "unified_addressing")?.into()),
        ("Concurrent kernels", flag(d, "concurrent_kernels")?.into()),
        ("Managed memory", flag(d, "managed_memory")?.into()),
        ("ECC", flag(d, "ecc_enabled")?.into()),
        ("Integrated", flag(d, "integrated")?.into()),
        ("PCI bus", s("pci_bus_id")?),
        ("Driver version", s("driver_version")?),
        ("warpscope bank rule", basis(d, |p| p.bank)),
        ("warpscope occupancy rules", basis(d, |p| p.occupancy)),
    ])
}

/// How warpscope's preset for the device's CC came about (measured, assumed or documented).
fn basis(d: &Value, pick: fn(warpscope_model::arch::Provenance) -> warpscope_model::arch::Basis) -> String {
    let (maj, min) = (
        d["cc_major"].as_u64().unwrap_or(0),
        d["cc_minor"].as_u64().unwrap_or(0),
    );
    match warpscope_measure::basis::arch_of(maj, min) {
        Some(a) => format!("{}: {}", a.name, pick(a.provenance()).describe()),
        None => format!("no preset for CC {maj}.{min}"),
    }
}

/// The output of a device list (the JSON array of `DeviceInfo`): one property table per GPU for
/// people, one CSV row per GPU.
pub fn blocks(devices: &Value) -> anyhow::Result<Vec<Block>> {
    let list = devices.as_array().context("expected a JSON array of devices")?;
    let mut blocks = Vec::new();
    let mut csv = Tabular::new(
        "",
        CSV_COLUMNS.iter().map(|(_, _, c)| Column::new(*c, *c)).collect(),
    );
    for (i, d) in list.iter().enumerate() {
        let rows = rows(d).with_context(|| format!("device {i}"))?;
        let mut t = Tabular::new(
            "",
            vec![Column::new("Property", "property"), Column::new("Value", "value")],
        );
        for (k, v) in rows {
            t.row([k.to_string(), v]);
        }
        blocks.push(Block::ShownTable(t));
        let cells: Vec<String> = CSV_COLUMNS
            .iter()
            .map(|&(k, at, _)| csv_cell(d, k, at))
            .collect::<anyhow::Result<_>>()
            .with_context(|| format!("device {i}"))?;
        csv.row(cells);
    }
    blocks.push(Block::CsvTable(csv));
    Ok(blocks)
}
