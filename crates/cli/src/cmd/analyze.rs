//! `warpscope analyze`: emulates a kernel on the CPU and reports shared-memory wavefronts per source
//! line and per instruction, with the bank picture of each instruction's worst request.
//!
//! Steps: read the `.ptx` (or compile the `.cu` with NVRTC, falling back to the toolkit's nvcc);
//! when ptxas and nvdisasm are available, build the machine code and reconcile PTX accesses with it
//! (fused accesses count once, wider); emulate every block (or `--blocks N` of them, extrapolated);
//! print a table or JSON.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_analysis::banks::{self, BankRun, Counts, Side, WorstRequest};
use warpscope_analysis::divergence::{self, DivergenceReport, LineStat, is_debug_ptx};
use warpscope_analysis::launchspec::{parse_arg, parse_dims};
use warpscope_analysis::reconcile::{Reconciliation, Role, machine_accesses};
use warpscope_emu::{Launch, Limits};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

use crate::exit::Unavailable;
use crate::output::{Block, Column, OutputArgs, Tabular, Tone, emit_blocks};

/// Flags of `warpscope analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The kernel source: a `.ptx` file, or a `.cu` file (compiled with NVRTC, `-lineinfo`).
    file: PathBuf,
    /// Kernel name (needed when the file holds more than one kernel).
    #[arg(long)]
    kernel: Option<String>,
    /// Grid dimensions in blocks: X[,Y[,Z]].
    #[arg(long)]
    grid: String,
    /// Block dimensions in threads: X[,Y[,Z]].
    #[arg(long)]
    block: String,
    /// Dynamic shared memory per block, bytes.
    #[arg(long, default_value_t = 0)]
    dyn_smem: u32,
    /// A kernel argument, in parameter order: `u32:V i32:V u64:V i64:V f32:V f64:V`, `buf:BYTES`
    /// (deterministic pseudo-random bytes), `buf:BYTES:zero`, `buf:@FILE`.
    #[arg(long = "arg", value_name = "SPEC")]
    args: Vec<String>,
    /// Emulate only N blocks spread over the grid and extrapolate the totals (default: every block,
    /// exact totals).
    #[arg(long, value_name = "N")]
    blocks: Option<u32>,
    /// Target architecture (for compiling and the machine code).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    #[command(flatten)]
    output: OutputArgs,
    /// Warp instructions one block may execute before the emulator stops it (runaway loops).
    #[arg(long, value_name = "N", default_value_t = 1 << 28)]
    max_instructions: u64,
    /// Path to libnvrtc (for `.cu` input) when it is not found by itself.
    #[arg(long, value_name = "PATH")]
    nvrtc: Option<PathBuf>,
    /// Use this `nvdisasm -g -c` output as the machine code instead of running ptxas and nvdisasm.
    #[arg(long, value_name = "FILE", conflicts_with = "ptx_widths")]
    sass: Option<PathBuf>,
    /// Count accesses as PTX writes them (skip the machine code even when a toolkit is present).
    #[arg(long)]
    ptx_widths: bool,
    #[command(flatten)]
    measure: crate::measure::MeasureArgs,
}

/// The JSON result (also what the table shows).
#[derive(Serialize)]
pub struct Analysis {
    /// Kernel name.
    pub kernel: String,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// Target architecture.
    pub arch: String,
    /// Blocks emulated.
    pub blocks_emulated: u32,
    /// Blocks in the grid.
    pub blocks_in_grid: u64,
    /// True when only some blocks were emulated and totals are scaled to the grid.
    pub extrapolated: bool,
    /// Where access widths come from: `machine code` or `PTX-level`.
    pub widths: String,
    /// Why the widths are what they are (which tool, or why none).
    pub widths_note: String,
    /// Groups of PTX accesses that ptxas fused into one wider access.
    pub fused_groups: u32,
    /// Source lines whose PTX and machine accesses could not be matched (counted as in PTX).
    pub unmatched_lines: Vec<u32>,
    /// Launch totals, loads and stores apart.
    pub shared: SharedTotals,
    /// Per source line.
    pub lines: Vec<LineRow>,
    /// Per instruction.
    pub instructions: Vec<InstRow>,
    /// Emulator faults (out of bounds, divergent barriers...).
    pub faults: Vec<String>,
    /// Requests the bank model could not take (misaligned), left out of the counts.
    pub unmodelled_requests: u64,
    /// Branch divergence and active-lane utilisation (`analyze` fills it; absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergence: Option<DivergenceJson>,
}

/// Divergence of the launch: branch targets, divergent targets and branch efficiency as Nsight
/// Compute counts them (`smsp__sass_branch_targets.sum`,
/// `smsp__sass_branch_targets_threads_divergent.sum`,
/// `smsp__sass_average_branch_targets_threads_uniform.pct`), and active lanes per warp instruction,
/// per instruction (`branches`, `instructions`), per source line (`lines`) and in total (`totals`).
/// The figures are PTX-level; docs/divergence.md explains how they relate to machine code.
#[derive(Serialize)]
pub struct DivergenceJson {
    /// Per instruction and totals.
    #[serde(flatten)]
    pub report: DivergenceReport,
    /// Per source line (instructions without line information under `line: null`).
    pub lines: Vec<LineStat>,
}

/// Launch totals.
#[derive(Serialize)]
pub struct SharedTotals {
    /// Loads (ncu `..._op_ld.sum`).
    pub load: Counts,
    /// Stores (ncu `..._op_st.sum`).
    pub store: Counts,
}

/// One source line.
#[derive(Serialize)]
pub struct LineRow {
    /// Source file.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `load` or `store`.
    pub side: Side,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// Largest wavefronts / ideal of any request on the line.
    pub worst_n_way: f64,
}

/// One instruction.
#[derive(Serialize)]
pub struct InstRow {
    /// Program pc.
    pub pc: u32,
    /// Line in the PTX file.
    pub ptx_line: u32,
    /// PTX text.
    pub ptx: String,
    /// True when ptxas fused this access with its neighbours into one `width`-byte access (this row
    /// counts the fused access; the others of the group are not listed).
    pub fused: bool,
    /// Source file and line (`.loc`), when known.
    pub source: Option<String>,
    /// `load` or `store`.
    pub side: Side,
    /// Bytes per lane as counted.
    pub width: u8,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// Wavefronts / ideal of the worst request.
    pub worst_n_way: f64,
    /// The worst request.
    pub worst: Option<WorstJson>,
}

/// The worst request of an instruction with its bank picture.
#[derive(Serialize)]
pub struct WorstJson {
    /// Block.
    pub block: u32,
    /// Warp.
    pub warp: u32,
    /// Wavefronts.
    pub wavefronts: u32,
    /// Conflict-free wavefronts.
    pub ideal_wavefronts: u32,
    /// Distinct bank words each bank must deliver in the request's busiest phase (32 entries; the
    /// phase is the whole warp for accesses of up to 4 bytes, a half or quarter warp for wider ones).
    pub bank_words: Vec<usize>,
    /// The same as one character per bank: `.` idle, `1`-`9`, then `A` = 10 ... `W` = 32.
    pub banks: String,
    /// Per-lane byte offsets in the block's shared window (inactive lanes are null).
    pub lane_offsets: Vec<Option<u64>>,
    /// The bank model's breakdown: for each wavefront, the lanes it serves.
    pub wavefront_lanes: Vec<Vec<u8>>,
}

/// One character per bank: the number of distinct words it delivers in the busiest phase of the
/// request (by the bank model's breakdown; the whole request when there is none).
pub fn bank_strip(arch: &Arch, side: Side, w: &WorstRequest) -> (Vec<usize>, String) {
    let counts: Vec<usize> = match banks::picture(arch, side, w) {
        Some(b) => {
            let mut phases: std::collections::BTreeMap<u8, Vec<Vec<u32>>> = Default::default();
            for wf in &b.wavefronts {
                let banks = phases
                    .entry(wf.phase_lane0)
                    .or_insert_with(|| vec![Vec::new(); 32]);
                for slot in &wf.slots {
                    let words = &mut banks[usize::from(slot.bank) % 32];
                    if !words.contains(&slot.word_addr) {
                        words.push(slot.word_addr);
                    }
                }
            }
            let busiest = phases
                .values()
                .max_by_key(|p| p.iter().map(Vec::len).max().unwrap_or(0));
            busiest.map_or_else(|| vec![0; 32], |p| p.iter().map(Vec::len).collect())
        }
        None => w.bank_words().iter().map(Vec::len).collect(),
    };
    let s = counts
        .iter()
        .map(|&c| match c {
            0 => '.',
            1..=9 => char::from(b'0' + c as u8),
            10..=35 => char::from(b'A' + (c - 10) as u8),
            _ => '#',
        })
        .collect();
    (counts, s)
}

/// The bank model's breakdown of a request: for each wavefront, the lanes it serves.
fn wavefront_lanes(arch: &Arch, side: Side, w: &WorstRequest) -> Vec<Vec<u8>> {
    let Some(b) = banks::picture(arch, side, w) else {
        return Vec::new();
    };
    b.wavefronts
        .iter()
        .map(|wf| {
            let mut lanes: Vec<u8> = wf.slots.iter().map(|sl| sl.lane).collect();
            lanes.dedup();
            lanes
        })
        .collect()
}

fn n_way(w: &Option<WorstRequest>) -> f64 {
    w.as_ref().map_or(0.0, |w| {
        if w.ideal_wavefronts == 0 {
            0.0
        } else {
            w.wavefronts as f64 / w.ideal_wavefronts as f64
        }
    })
}

/// Builds the result of a finished run.
pub fn build(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    arch: &Arch,
    recon: &Reconciliation,
    note: &str,
    run: BankRun,
) -> Analysis {
    let lines = run
        .report
        .lines(program)
        .into_iter()
        .map(|l| {
            let worst = &run.report.insts[&(l.worst_pc, l.side)].worst;
            LineRow {
                file: l.file,
                line: l.line,
                side: l.side,
                counts: l.counts,
                worst_n_way: n_way(worst),
            }
        })
        .collect();
    let instructions = run
        .report
        .insts
        .values()
        .map(|s| {
            let info = program.inst_info(s.pc);
            let source = info
                .loc
                .map(|l| format!("{}:{}", program.file_name(l.file).unwrap_or("?"), l.line));
            let worst = s.worst.as_ref().map(|w| {
                let (bank_words, banks) = bank_strip(arch, s.side, w);
                WorstJson {
                    block: w.block,
                    warp: w.warp,
                    wavefronts: w.wavefronts,
                    ideal_wavefronts: w.ideal_wavefronts,
                    bank_words,
                    banks,
                    lane_offsets: (0..32)
                        .map(|l| (w.mask & (1 << l) != 0).then(|| w.addrs[l]))
                        .collect(),
                    wavefront_lanes: wavefront_lanes(arch, s.side, w),
                }
            });
            InstRow {
                pc: s.pc,
                ptx_line: info.ptx_line,
                ptx: info.text.trim().to_string(),
                fused: matches!(recon.role(s.pc), Role::Leader { .. }),
                source,
                side: s.side,
                width: s.width,
                counts: s.counts.clone(),
                worst_n_way: n_way(&s.worst),
                worst,
            }
        })
        .collect();
    Analysis {
        kernel: kernel.to_string(),
        grid: launch.grid,
        block: launch.block,
        dyn_smem: launch.dyn_smem,
        arch: arch.name.to_string(),
        unmodelled_requests: run.report.unmodelled,
        blocks_emulated: run.blocks_emulated,
        blocks_in_grid: run.blocks_in_grid,
        extrapolated: u64::from(run.blocks_emulated) < run.blocks_in_grid,
        widths: if recon.machine_code {
            "machine code".into()
        } else {
            "PTX-level".into()
        },
        widths_note: note.to_string(),
        fused_groups: recon.fused_groups,
        unmatched_lines: recon.unmatched_lines.iter().copied().collect(),
        shared: SharedTotals {
            load: run.report.total(Side::Load),
            store: run.report.total(Side::Store),
        },
        lines,
        instructions,
        faults: run.faults,
        divergence: None,
    }
}

/// Emulates the launch once more with the divergence counters and groups them by source line.
pub fn divergence_of(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    ptx: &str,
) -> anyhow::Result<DivergenceJson> {
    let report = divergence::run(program, kernel, launch, limits, is_debug_ptx(ptx))?;
    let lines = report.by_line(&|pc| program.inst_info(pc).loc.map(|l| l.line));
    Ok(DivergenceJson { report, lines })
}

/// Whether `mangled` is the Itanium-mangled name of a function `plain` at namespace scope
/// (`_Z` + length + name + parameter types).
fn is_mangled_name_of(mangled: &str, plain: &str) -> bool {
    mangled
        .strip_prefix("_Z")
        .and_then(|rest| rest.strip_prefix(plain.len().to_string().as_str()))
        .is_some_and(|rest| rest.starts_with(plain))
}

/// Parses PTX, naming `file:line:column` and the text of every problem.
pub fn compile_ptx(ptx: &str, file: &Path) -> anyhow::Result<Program> {
    let (module, diags) = warpscope_ptx::parse(ptx);
    if !diags.is_empty() {
        let list: Vec<String> = diags.iter().map(|d| format!("{}:{d}", file.display())).collect();
        bail!("cannot parse PTX:\n{}", list.join("\n"));
    }
    warpscope_ptx::lower(&module).map_err(|errs| {
        let list: Vec<String> = errs.iter().map(|e| format!("{}:{e}", file.display())).collect();
        anyhow::anyhow!("cannot lower PTX:\n{}", list.join("\n"))
    })
}

/// Picks the kernel: the named one, or the only one.
pub fn pick_kernel(program: &Program, name: Option<&str>, file: &Path) -> anyhow::Result<String> {
    let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
    match name {
        Some(n) if names.contains(&n) => Ok(n.to_string()),
        // A C++ kernel by its plain name: `mathKernel1` for `_Z11mathKernel1Pf`.
        Some(n) if names.iter().filter(|k| is_mangled_name_of(k, n)).count() == 1 => Ok(names
            .iter()
            .find(|k| is_mangled_name_of(k, n))
            .unwrap()
            .to_string()),
        Some(n) => bail!(
            "{}: no kernel `{n}` (kernels: {})",
            file.display(),
            names.join(", ")
        ),
        None if names.len() == 1 => Ok(names[0].to_string()),
        None if names.is_empty() => bail!("{}: no kernel (.entry) in the file", file.display()),
        None => bail!(
            "{}: several kernels, choose one with --kernel: {}",
            file.display(),
            names.join(", ")
        ),
    }
}

/// Reconciliation from `nvdisasm -g -c` text (for `kernel`).
pub fn reconcile_from_sass(program: &Program, kernel: &str, sass: &str) -> anyhow::Result<Reconciliation> {
    let kernels = warpscope_toolchain::sass::parse_disassembly(sass)?;
    let Some(k) = kernels.iter().find(|k| k.name == kernel) else {
        bail!("the machine code has no kernel `{kernel}`")
    };
    Ok(Reconciliation::build(program, kernel, &machine_accesses(k)))
}

fn tool_output(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let out = cmd.output().with_context(|| format!("cannot run {what}"))?;
    if !out.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

/// Machine code through ptxas + nvdisasm (of `cubin` when given, else of `ptx` built for `arch`), and
/// how it was made; or the reason why there is none.
pub fn machine_code(ptx: &str, cubin: Option<&[u8]>, arch: &str) -> Result<(String, String), String> {
    let root = warpscope_toolchain::locate::find(&warpscope_toolchain::locate::SearchEnv::from_process())
        .map_err(|e| format!("no CUDA toolkit found ({e})"))?;
    let nvdisasm = root.bin("nvdisasm");
    if !nvdisasm.exists() {
        return Err(format!("no nvdisasm in {}", root.root.display()));
    }
    let dir = std::env::temp_dir().join(format!("warpscope-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let cubin_path = dir.join("k.cubin");
    let result = (|| -> anyhow::Result<String> {
        match cubin {
            Some(bytes) => std::fs::write(&cubin_path, bytes)?,
            None => {
                let ptx_path = dir.join("k.ptx");
                std::fs::write(&ptx_path, ptx)?;
                let ptxas = root.bin("ptxas");
                tool_output(
                    Command::new(&ptxas)
                        .arg(format!("-arch={arch}"))
                        .args(["-O3", "-lineinfo", "-o"])
                        .arg(&cubin_path)
                        .arg(&ptx_path),
                    "ptxas",
                )?;
            }
        }
        Ok(warpscope_toolchain::sass::disassemble(&nvdisasm, &cubin_path)?)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
        .map(|s| (s, format!("ptxas + nvdisasm from {}", root.root.display())))
        .map_err(|e| format!("{e:#}"))
}

/// `.cu` → (PTX, cubin?, how), through NVRTC or, failing that, the toolkit's nvcc.
pub fn compile_cu(
    src: &str,
    file: &Path,
    arch: &Arch,
    nvrtc: Option<&Path>,
) -> anyhow::Result<(String, Option<Vec<u8>>, String)> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("kernel.cu");
    let located = warpscope_toolchain::locate::find(&warpscope_toolchain::locate::SearchEnv::from_process());
    let loaded = match (warpscope_gpu::nvrtc::Nvrtc::load(nvrtc), nvrtc, &located) {
        // No NVRTC on the usual paths: try the CUDA root the toolchain search found (a toolkit's
        // lib64, or the PyPI wheels' lib).
        (Err(e), None, Ok(root)) => ["lib", "lib64"]
            .iter()
            .map(|d| root.root.join(d))
            .filter(|d| d.is_dir())
            .find_map(|d| warpscope_gpu::nvrtc::Nvrtc::load(Some(&d)).ok())
            .ok_or(e),
        (r, _, _) => r,
    };
    let nvrtc_err = match loaded {
        Ok(n) => {
            let opts = warpscope_gpu::nvrtc::CompileOptions::for_cc(arch.cc());
            let c = n
                .compile(src, name, &opts)
                .with_context(|| format!("{}: NVRTC compilation failed", file.display()))?;
            return Ok((c.ptx, c.cubin, "NVRTC".into()));
        }
        Err(e) => e,
    };
    let root = located.map_err(|e| {
        anyhow::Error::new(Unavailable(format!(
            "cannot compile {}: NVRTC unavailable ({nvrtc_err}) and no CUDA toolkit ({e})",
            file.display()
        )))
    })?;
    let nvcc = root.bin("nvcc");
    let dir = std::env::temp_dir().join(format!("warpscope-nvcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let ptx_path = dir.join("k.ptx");
    let r = tool_output(
        Command::new(&nvcc)
            .arg(format!("-arch={}", arch.name))
            .args(["-O3", "-lineinfo", "-ptx", "-o"])
            .arg(&ptx_path)
            .arg(file),
        "nvcc",
    )
    .and_then(|_| std::fs::read_to_string(&ptx_path).context("reading nvcc's PTX"));
    let _ = std::fs::remove_dir_all(&dir);
    Ok((
        r?,
        None,
        format!(
            "nvcc from {} (NVRTC unavailable: {nvrtc_err})",
            root.root.display()
        ),
    ))
}

/// Spreads `n` sampled blocks over `total` blocks.
pub fn sample_blocks(n: u32, total: u64) -> Vec<u32> {
    let n = u64::from(n).min(total).max(1);
    let mut v: Vec<u32> = (0..n).map(|i| (i * total / n) as u32).collect();
    v.dedup();
    v
}

/// Runs `warpscope analyze`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate everything cheap first.
    let arch = Arch::parse(&args.arch)?;
    let grid = parse_dims(&args.grid).context("--grid")?;
    let block = parse_dims(&args.block).context("--block")?;
    crate::limits::check_arg_specs(&args.args)?;
    let kargs = args
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| parse_arg(a, i))
        .collect::<Result<Vec<_>, _>>()
        .context("--arg")?;
    if args.blocks == Some(0) {
        bail!("--blocks must be at least 1");
    }
    crate::limits::check_grid(grid, block, args.blocks.map(u64::from))?;
    let text = crate::limits::read_source(&args.file)?;
    let is_cu = args.file.extension().is_some_and(|e| e == "cu");
    let (ptx, cubin, compiled_by) = if is_cu {
        let (p, c, how) = compile_cu(&text, &args.file, arch, args.nvrtc.as_deref())?;
        (p, c, Some(how))
    } else {
        (text, None, None)
    };
    let program = compile_ptx(&ptx, &args.file)?;
    let kernel = pick_kernel(&program, args.kernel.as_deref(), &args.file)?;
    let (recon, mut note) = if args.ptx_widths {
        (
            Reconciliation::ptx_level(),
            "widths are PTX-level (--ptx-widths)".to_string(),
        )
    } else if let Some(path) = &args.sass {
        let sass = crate::limits::read_source(path)?;
        (
            reconcile_from_sass(&program, &kernel, &sass)?,
            format!("machine code from {}", path.display()),
        )
    } else {
        match machine_code(&ptx, cubin.as_deref(), arch.name) {
            Ok((sass, how)) => (
                reconcile_from_sass(&program, &kernel, &sass)?,
                format!("machine code by {how}"),
            ),
            Err(why) => (
                Reconciliation::ptx_level(),
                format!("widths are PTX-level: {why}"),
            ),
        }
    };
    if let Some(how) = compiled_by {
        note = format!("compiled by {how}; {note}");
    }
    let total: u64 = grid.iter().map(|&g| u64::from(g)).product();
    let mut launch = Launch::new(grid, block, kargs);
    launch.dyn_smem = args.dyn_smem;
    launch.blocks = args.blocks.map(|n| sample_blocks(n, total));
    let measure_input = crate::measure::Input {
        ptx: &ptx,
        cubin: cubin.as_deref(),
        program: &program,
        kernel: &kernel,
        launch: &launch,
        arch,
    };
    if args.measure.measure_child {
        crate::measure::child(&args.measure, &measure_input)?;
        return Ok(ExitCode::SUCCESS);
    }
    let blocks_run = launch.blocks.as_ref().map_or(total, |b| b.len() as u64);
    let limits = Limits {
        max_warp_insts_per_block: crate::limits::per_block_insts(args.max_instructions, blocks_run),
        ..Limits::default()
    };
    let run = banks::run(&program, &kernel, &launch, &limits, arch, Arc::new(recon.clone()))?;
    let mut analysis = build(&program, &kernel, &launch, arch, &recon, &note, run);
    analysis.divergence = Some(divergence_of(&program, &kernel, &launch, &limits, &ptx)?);
    if args.measure.wanted() {
        let b = blocks(&analysis);
        return crate::measure::finish(&args.measure, &measure_input, &analysis, &args.output, b);
    }
    let mut out = std::io::stdout().lock();
    emit_blocks(
        &mut out,
        args.output.format,
        args.output.color(),
        &analysis,
        &blocks(&analysis),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn fmt_dims(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}

fn fmt_nway(x: f64) -> String {
    if x == 0.0 {
        "-".into()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The Nsight Compute metrics of the shared-memory counters, loads then stores:
/// (instructions, wavefronts).
pub const NCU_SHARED: [(&str, &str); 2] = [
    (
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ),
    (
        "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ),
];

/// CSV columns of the counters split by side: for each of load and store, the ncu instruction and
/// wavefront metrics and the ideal wavefronts (`ideal_wavefronts_ld` / `_st`).
fn side_columns() -> Vec<Column> {
    let mut cols = Vec::new();
    for ((inst, wf), side) in NCU_SHARED.iter().zip(["ld", "st"]) {
        cols.push(Column::new(*inst, *inst));
        cols.push(Column::new(*wf, *wf));
        let ideal = format!("ideal_wavefronts_{side}");
        cols.push(Column::new(ideal.clone(), ideal));
    }
    cols
}

/// The counters in the [`side_columns`] layout: the other side's cells are empty.
fn side_cells(side: Side, c: &Counts) -> Vec<String> {
    let these = [
        c.instructions.to_string(),
        c.wavefronts.to_string(),
        c.ideal_wavefronts.to_string(),
    ];
    let empty = [String::new(), String::new(), String::new()];
    match side {
        Side::Load => these.into_iter().chain(empty).collect(),
        Side::Store => empty.into_iter().chain(these).collect(),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Load => "load",
        Side::Store => "store",
    }
}

fn excess_tone(c: &Counts) -> Tone {
    if c.wavefronts > c.ideal_wavefronts {
        Tone::Bad
    } else {
        Tone::Good
    }
}

/// The output of an analysis for people and for CSV: the summary, the totals, the per-line table and
/// the per-instruction table. CSV columns are the Nsight Compute metric names, one table per level
/// (totals, lines, instructions).
pub fn blocks(a: &Analysis) -> Vec<Block> {
    let mut head = vec![format!(
        "kernel {}  grid {}  block {}  dyn smem {} B  arch {}",
        a.kernel,
        fmt_dims(a.grid),
        fmt_dims(a.block),
        a.dyn_smem,
        a.arch
    )];
    if a.extrapolated {
        head.push(format!(
            "{} of {} blocks emulated; totals are extrapolated to the grid",
            a.blocks_emulated, a.blocks_in_grid
        ));
    } else {
        head.push(format!(
            "all {} blocks emulated; totals are exact for this model",
            a.blocks_in_grid
        ));
    }
    head.push(format!("widths: {} ({})", a.widths, a.widths_note));
    if a.fused_groups > 0 {
        head.push(format!(
            "ptxas fused {} groups of PTX accesses into wider ones; each counts once",
            a.fused_groups
        ));
    }
    if !a.unmatched_lines.is_empty() {
        head.push(format!(
            "warning: lines {:?}: PTX and machine accesses could not be matched; counted as in PTX",
            a.unmatched_lines
        ));
    }
    let mut blocks = vec![Block::Text(head.join("\n"))];

    let mut totals = Tabular::new(
        "",
        ["", "instructions", "wavefronts", "ideal", "excess"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for (name, c) in [
        ("shared loads", &a.shared.load),
        ("shared stores", &a.shared.store),
    ] {
        totals.toned_row(vec![
            (name.to_string(), Tone::Plain),
            (c.instructions.to_string(), Tone::Plain),
            (c.wavefronts.to_string(), Tone::Plain),
            (c.ideal_wavefronts.to_string(), Tone::Plain),
            (format!("{:.2}x", c.conflict_factor()), excess_tone(c)),
        ]);
    }
    blocks.push(Block::ShownTable(totals));
    let mut cols = vec![Column::new("kernel", "kernel")];
    cols.extend(side_columns());
    let mut totals_csv = Tabular::new("", cols);
    let mut cells = vec![a.kernel.clone()];
    for c in [&a.shared.load, &a.shared.store] {
        cells.extend([
            c.instructions.to_string(),
            c.wavefronts.to_string(),
            c.ideal_wavefronts.to_string(),
        ]);
    }
    totals_csv.row(cells);
    blocks.push(Block::CsvTable(totals_csv));

    let mut lines = Tabular::new(
        "per source line",
        ["line", "", "executions", "wavefronts", "ideal", "worst n-way"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    let mut cols = vec![Column::new("file", "file"), Column::new("line", "line")];
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    let mut lines_csv = Tabular::new("", cols);
    for l in &a.lines {
        lines.toned_row(vec![
            (format!("{}:{}", l.file, l.line), Tone::Plain),
            (side_name(l.side).into(), Tone::Plain),
            (l.counts.instructions.to_string(), Tone::Plain),
            (l.counts.wavefronts.to_string(), excess_tone(&l.counts)),
            (l.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(l.worst_n_way), Tone::Plain),
        ]);
        let mut cells = vec![l.file.clone(), l.line.to_string()];
        cells.extend(side_cells(l.side, &l.counts));
        cells.push(l.worst_n_way.to_string());
        lines_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(lines));
    blocks.push(Block::CsvTable(lines_csv));

    let mut insts = Tabular::new(
        "per instruction (banks: distinct words each bank delivers in the busiest phase of the worst request;\n\
         . idle, A = 10, W = 32; 8- and 16-byte accesses are served a half or quarter warp per phase)",
        [
            "pc",
            "source",
            "PTX",
            "bytes",
            "executions",
            "wavefronts",
            "ideal",
            "worst n-way",
            "banks 0..31 of the worst request",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    let mut cols = ["pc", "ptx_line", "source", "ptx", "fused", "width"]
        .map(|c| Column::new(c, c))
        .to_vec();
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    cols.push(Column::new("banks", "worst_banks"));
    let mut insts_csv = Tabular::new("", cols);
    for i in &a.instructions {
        let banks = i.worst.as_ref().map_or(String::new(), |w| w.banks.clone());
        insts.toned_row(vec![
            (i.pc.to_string(), Tone::Plain),
            (
                i.source.clone().unwrap_or_else(|| format!("ptx:{}", i.ptx_line)),
                Tone::Plain,
            ),
            (
                if i.fused {
                    format!("{} (fused by ptxas)", i.ptx)
                } else {
                    i.ptx.clone()
                },
                Tone::Plain,
            ),
            (i.width.to_string(), Tone::Plain),
            (i.counts.instructions.to_string(), Tone::Plain),
            (i.counts.wavefronts.to_string(), excess_tone(&i.counts)),
            (i.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(i.worst_n_way), Tone::Plain),
            (banks.clone(), Tone::Plain),
        ]);
        let mut cells = vec![
            i.pc.to_string(),
            i.ptx_line.to_string(),
            i.source.clone().unwrap_or_default(),
            i.ptx.clone(),
            i.fused.to_string(),
            i.width.to_string(),
        ];
        cells.extend(side_cells(i.side, &i.counts));
        cells.push(i.worst_n_way.to_string());
        cells.push(banks);
        insts_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(insts));
    blocks.push(Block::CsvTable(insts_csv));
    if let Some(d) = &a.divergence {
        blocks.extend(divergence_blocks(d));
    }
    if !a.faults.is_empty() {
        let mut f = vec![String::new(), "emulator faults:".to_string()];
        f.extend(a.faults.iter().map(|x| format!("  {x}")));
        blocks.push(Block::Text(f.join("\n")));
    }
    blocks
}

/// The divergence part of the output: a summary line and, per source line with branches or idle
/// lanes, branch executions, divergent ones, branch efficiency and lane utilisation.
fn divergence_blocks(d: &DivergenceJson) -> Vec<Block> {
    let t = &d.report.totals;
    let branches = if t.targets == 0 {
        "no branches executed (Nsight Compute prints 0% branch efficiency for 0 of 0)".to_string()
    } else {
        format!(
            "{} targets, {} divergent, branch efficiency {:.1}%",
            t.targets, t.divergent, t.branch_efficiency_pct
        )
    };
    let mut head = format!(
        "\nbranches: {branches}; active lanes {:.1}% of {} warp instructions (PTX-level)",
        t.utilisation_pct, t.inst_executions
    );
    if let Some(m) = &t.debug_machine_estimate {
        head.push_str(&format!(
            "\n-G machine code estimate: {} targets, {} divergent, branch efficiency {:.1}%",
            m.targets, m.divergent, m.branch_efficiency_pct
        ));
    }
    let columns = [
        ("line", "line"),
        ("branch executions", "branch_executions"),
        ("divergent", "smsp__sass_branch_targets_threads_divergent.sum"),
        ("targets", "smsp__sass_branch_targets.sum"),
        (
            "branch efficiency",
            "smsp__sass_average_branch_targets_threads_uniform.pct",
        ),
        ("warp instructions", "smsp__inst_executed.sum"),
        ("active lanes", "active_lanes_pct"),
    ];
    let mut shown = Tabular::new(
        "divergence per source line",
        columns.iter().map(|(t, _)| Column::new(*t, *t)).collect(),
    );
    let mut csv = Tabular::new("", columns.iter().map(|(t, c)| Column::new(*t, *c)).collect());
    let mut shown_rows = 0;
    // People see the lines with branches or idle lanes; CSV has every line.
    for l in &d.lines {
        let line = l.line.map_or_else(|| "-".to_string(), |x| x.to_string());
        let eff = l.branch_efficiency_pct.map(|e| format!("{e:.1}"));
        csv.row([
            line.clone(),
            l.branch_executions.to_string(),
            l.divergent.to_string(),
            l.targets.to_string(),
            eff.clone().unwrap_or_default(),
            l.inst_executions.to_string(),
            format!("{:.2}", l.utilisation_pct),
        ]);
        if l.targets == 0 && l.utilisation_pct >= 100.0 {
            continue;
        }
        let tone = match l.branch_efficiency_pct {
            Some(e) if e < 100.0 => Tone::Warn,
            _ => Tone::Plain,
        };
        shown_rows += 1;
        shown.toned_row(vec![
            (line.clone(), Tone::Plain),
            (l.branch_executions.to_string(), Tone::Plain),
            (l.divergent.to_string(), Tone::Plain),
            (l.targets.to_string(), Tone::Plain),
            (eff.clone().map_or_else(|| "-".into(), |e| format!("{e}%")), tone),
            (l.inst_executions.to_string(), Tone::Plain),
            (format!("{:.1}%", l.utilisation_pct), Tone::Plain),
        ]);
    }
    let mut blocks = vec![Block::Text(head)];
    if shown_rows > 0 {
        blocks.push(Block::ShownTable(shown));
    }
    blocks.push(Block::CsvTable(csv));
    blocks
}
