//! `warpscope occupancy`: the occupancy calculator (blocks per SM, warps, occupancy, limiting factors),
//! over sweeps of block size, registers and dynamic shared memory, for presets, a real kernel
//! (`--kernel`, through ptxas) or a real device (`--device`), with the best block size and the
//! spreadsheet's three curves (`--curves`, `--plot FILE.svg`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde_json::Value;
use warpscope_model::arch::Arch;
use warpscope_model::occupancy::{Launch, Limits, best_block_size, occupancy};
use warpscope_report::chart::render_svg;
use warpscope_report::curves::occupancy_charts;

use crate::occupancy_out::{Row, csv_table, kib, row_json, shown_table};
use crate::output::{self, Block, emit_blocks};

/// Output format: the shared ones plus JSON Lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table (and notes) for people.
    Table,
    /// One JSON array of rows.
    Json,
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header line (the JSON names, then the same figures under
    /// Nsight Compute's metric names).
    Csv,
    /// A GitHub-flavoured Markdown table and the notes.
    Markdown,
}

/// Flags of `warpscope occupancy`.
#[derive(clap::Args)]
pub struct Args {
    /// Architecture(s): `sm_90`, a list `sm_80,sm_90`, or `all` (sm_50 to sm_121).
    #[arg(long, default_value = "sm_90", conflicts_with = "device")]
    arch: String,
    /// Threads per block: a value, a list `a,b,c`, or a range `start..=end:step`.
    #[arg(long, default_value = "256")]
    threads: String,
    /// Registers per thread: a value, a list, or a range (ignored with --kernel).
    #[arg(long, default_value = "32", conflicts_with = "kernel")]
    regs: String,
    /// Static shared memory per block, bytes (ignored with --kernel).
    #[arg(long, default_value_t = 0, conflicts_with = "kernel")]
    static_smem: u32,
    /// Dynamic shared memory per block, bytes: a value, a list, or a range. Above 48 KB the kernel is
    /// taken as opted in up to the architecture's maximum.
    #[arg(long, default_value = "0")]
    dyn_smem: String,
    /// Preferred shared-memory carveout, percent of the largest (default: the driver's, the largest).
    #[arg(long)]
    carveout: Option<u32>,
    /// Block barriers the kernel uses (1 = __syncthreads).
    #[arg(long, default_value_t = 1)]
    barriers: u32,
    /// SMs of the device (default: the preset's example GPU) for the minimum grid size.
    #[arg(long)]
    sms: Option<u32>,
    /// Take registers, static shared memory and barriers from this kernel (.cu or .ptx), compiled
    /// with ptxas from the CUDA toolkit (see WARPSCOPE_CUDA_ROOT).
    #[arg(long, requires = "name")]
    kernel: Option<PathBuf>,
    /// The kernel's name in --kernel (plain or mangled).
    #[arg(long)]
    name: Option<String>,
    /// Use the limits of GPU N (CUDA driver needed).
    #[arg(long)]
    device: Option<usize>,
    /// Add the best block size (what cudaOccupancyMaxPotentialBlockSize answers) to each row.
    #[arg(long)]
    best: bool,
    /// Print the three curves (occupancy vs block size, registers, shared memory) for the first row.
    #[arg(long)]
    curves: bool,
    /// Write the three curves as an SVG picture.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// No colour, even on a terminal (the `NO_COLOR` environment variable does the same).
    #[arg(long)]
    no_color: bool,
}

/// Parses `a`, `a,b,c` or `start..=end:step` (or `start..=end`, step 1).
pub fn parse_values(flag: &str, text: &str) -> anyhow::Result<Vec<u32>> {
    let num = |s: &str| -> anyhow::Result<u32> {
        let s = s.trim();
        let (digits, mult) = match s.strip_suffix(['k', 'K']) {
            Some(d) => (d, 1024),
            None => (s, 1),
        };
        digits
            .parse::<u32>()
            .ok()
            .and_then(|v| v.checked_mul(mult))
            .with_context(|| format!("--{flag}: `{s}` is not a non-negative integer"))
    };
    let text = text.trim();
    if let Some((start, rest)) = text.split_once("..=") {
        let (end, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let (start, end, step) = (num(start)?, num(end)?, num(step)?);
        if step == 0 || end < start {
            bail!("--{flag}: range `{text}` needs start <= end and a step above 0");
        }
        let n = (end - start) / step + 1;
        if n > 1_000_000 {
            bail!("--{flag}: range `{text}` has {n} values; at most 1000000");
        }
        return Ok((start..=end).step_by(step as usize).collect());
    }
    text.split(',').map(num).collect()
}

/// The architectures (with their limits) to compute for.
fn targets(args: &Args) -> anyhow::Result<Vec<(String, Limits)>> {
    if let Some(ordinal) = args.device {
        let d = warpscope_gpu::device::device_limits(ordinal).map_err(super::device::gpu_error)?;
        let mut l = Limits::for_cc(d.cc).with_context(|| {
            format!(
                "device {ordinal} has compute capability {}.{}, which has no occupancy rules here",
                d.cc / 10,
                d.cc % 10
            )
        })?;
        l.warp_size = d.warp_size;
        l.max_threads_per_block = d.max_threads_per_block;
        l.max_threads_per_sm = d.max_threads_per_sm;
        l.max_blocks_per_sm = d.max_blocks_per_sm;
        l.regs_per_sm = d.registers_per_sm;
        l.regs_per_block = d.registers_per_block;
        l.smem_per_sm = d.shared_mem_per_sm;
        l.smem_per_block_optin = d.shared_mem_per_block_optin;
        l.smem_reserved_per_block = d.reserved_shared_mem_per_block;
        l.sm_count = d.multiprocessors;
        return Ok(vec![(format!("device {ordinal} (sm_{})", d.cc), l)]);
    }
    let names: Vec<String> = if args.arch.trim() == "all" {
        Limits::supported_ccs()
            .filter_map(|cc| Arch::all().iter().find(|a| a.cc() == cc))
            .map(|a| a.name.to_string())
            .collect()
    } else {
        args.arch.split(',').map(|s| s.trim().to_string()).collect()
    };
    names
        .iter()
        .map(|n| {
            let arch = Arch::parse(n)?;
            Ok((arch.name.to_string(), Limits::for_arch(arch)?))
        })
        .collect()
}

/// Runs `warpscope occupancy`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate everything before any expensive step.
    let threads = parse_values("threads", &args.threads)?;
    let mut regs = parse_values("regs", &args.regs)?;
    let dyns = parse_values("dyn-smem", &args.dyn_smem)?;
    if args.name.is_some() && args.kernel.is_none() {
        bail!("--name needs --kernel FILE");
    }
    let mut targets = targets(&args)?;
    if let Some(n) = args.sms {
        for (_, l) in &mut targets {
            l.sm_count = n;
        }
    }
    let mut static_smem = args.static_smem;
    let mut barriers = args.barriers;
    let mut notes = Vec::new();
    if let (Some(file), Some(name)) = (&args.kernel, &args.name) {
        if targets.len() != 1 {
            bail!("--kernel needs a single --arch (it is compiled for that architecture)");
        }
        let root = warpscope_toolchain::locate::find_root()
            .map_err(|e| anyhow::Error::new(crate::exit::Unavailable(e.to_string())))?;
        let cc = targets[0].1.cc;
        let kernels = warpscope_toolchain::resources::resource_usage(&root, file, cc)?;
        let k = warpscope_toolchain::resources::select(&kernels, name, file)?;
        regs = vec![k.registers];
        static_smem = k.smem;
        barriers = k.barriers.max(1);
        notes.push(format!(
            "kernel {} ({}): {} registers, {} B static shared memory, {} barriers, {} B stack, {} B spill stores, {} B spill loads{}",
            k.name,
            k.arch,
            k.registers,
            k.smem,
            k.barriers,
            k.stack,
            k.spill_stores,
            k.spill_loads,
            k.cmem.iter().map(|(b, n)| format!(", {n} B cmem[{b}]")).collect::<String>()
        ));
    }

    let mut rows = Vec::new();
    for (name, limits) in &targets {
        for &t in &threads {
            for &r in &regs {
                for &d in &dyns {
                    let launch = Launch {
                        threads: t,
                        regs_per_thread: r,
                        static_smem,
                        dyn_smem: d,
                        carveout_percent: args.carveout,
                        barriers,
                    };
                    let occ = occupancy(limits, &launch).with_context(|| name.clone())?;
                    let best = if args.best {
                        Some(best_block_size(limits, &launch)?)
                    } else {
                        None
                    };
                    rows.push(Row {
                        arch: name.clone(),
                        launch,
                        occ,
                        best,
                    });
                }
            }
        }
    }
    for (name, l) in &targets {
        if rows
            .iter()
            .any(|r| &r.arch == name && r.occ.opted_in && !r.occ.smem_over_max)
        {
            notes.push(format!(
                "{name}: dynamic shared memory above {} per block is taken as opted in \
                 (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)), up to {}",
                kib(l.smem_per_block),
                kib(l.smem_per_block_optin)
            ));
        }
        if rows.iter().any(|r| &r.arch == name && r.occ.smem_over_max) {
            notes.push(format!(
                "{name}: a block may use at most {} of shared memory; rows above it get 0 blocks (limited by shared memory)",
                kib(l.smem_per_block_optin)
            ));
        }
        if args.carveout.is_some() && l.carveout_steps.is_empty() {
            notes.push(format!(
                "{name}: shared memory is not carved out of L1 here; --carveout has no effect"
            ));
        }
    }

    for (name, _) in &targets {
        if let Ok(a) = Arch::parse(name) {
            notes.push(format!(
                "{name}: occupancy limits {}",
                a.provenance().occupancy.describe()
            ));
        }
    }
    let mut out = std::io::stdout().lock();
    let all: Vec<Value> = rows.iter().map(row_json).collect();
    let shared = match args.format {
        Format::Jsonl => {
            for v in &all {
                writeln!(out, "{v}")?;
            }
            None
        }
        Format::Table => Some(output::Format::Table),
        Format::Json => Some(output::Format::Json),
        Format::Csv => Some(output::Format::Csv),
        Format::Markdown => Some(output::Format::Markdown),
    };
    if let Some(format) = shared {
        let color = output::use_color(
            args.no_color,
            std::env::var_os("NO_COLOR"),
            std::io::IsTerminal::is_terminal(&std::io::stdout()),
        );
        let blocks = vec![
            Block::ShownTable(shown_table(&rows, args.best)),
            Block::CsvTable(csv_table(&all, args.best)),
            Block::Notes(notes.clone()),
        ];
        emit_blocks(&mut out, format, color, &all, &blocks)?;
    }

    if args.curves || args.plot.is_some() {
        let Some(first) = rows.first() else {
            bail!("no rows to draw curves for");
        };
        let limits = &targets
            .iter()
            .find(|(n, _)| *n == first.arch)
            .expect("row arch")
            .1;
        let charts =
            occupancy_charts(limits, &first.launch, &first.arch).with_context(|| first.arch.clone())?;
        if args.curves {
            for c in &charts {
                let s = &c.series[0];
                let line: Vec<String> = s.points.iter().map(|(x, y)| format!("{x}:{y:.1}")).collect();
                writeln!(
                    out,
                    "{} ({} : occupancy %): {}",
                    c.title,
                    c.x_label,
                    line.join(" ")
                )?;
            }
        }
        if let Some(path) = &args.plot {
            let svg = render_svg(&charts, 520, 380)?;
            std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::parse_values;

    #[test]
    fn value_specs() {
        assert_eq!(parse_values("t", "256").unwrap(), vec![256]);
        assert_eq!(parse_values("t", "32, 64,128").unwrap(), vec![32, 64, 128]);
        assert_eq!(parse_values("t", "32..=128:32").unwrap(), vec![32, 64, 96, 128]);
        assert_eq!(parse_values("t", "1..=3").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_values("t", "48k").unwrap(), vec![49152]);
        assert!(parse_values("t", "10..=1:1").is_err());
        assert!(parse_values("t", "1..=10:0").is_err());
        let e = parse_values("threads", "abc").unwrap_err().to_string();
        assert!(e.contains("--threads") && e.contains("abc"), "{e}");
    }
}
