//! `warpscope run [OPTIONS] -- ./app ARGS...`: runs a whole, unmodified CUDA program (built with
//! `nvcc -cudart shared`) on the emulator and reports every kernel launch as Nsight Compute would
//! on the chosen architecture.
//!
//! How: a temporary directory holds `libcudart.so.13`, a link to warpscope's runtime
//! (`libwarpscope_cudart.so`, the `warpscope-cudart` crate, found next to this executable), first
//! on `LD_LIBRARY_PATH`; the runtime in the program's process emulates each launch and appends one
//! JSON line per recorded launch to a file; after the program exits this process renders the
//! table, the per-kernel summary, `--export` and the exit status. `warpscope run app.cu -- ARGS`
//! first builds the program with the toolkit's nvcc.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};
use serde::Serialize;
use warpscope_cudart::program::Linkage;
use warpscope_cudart::{Config, LaunchRecord};

use crate::exit::{self, Unavailable};
use crate::output::{Block, Column, Format, OutputArgs, Tabular, emit_blocks_fitted};

/// Flags of `warpscope run`.
#[derive(clap::Args)]
pub struct Args {
    /// Architecture preset the device answers for and the counters are predicted for.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// Columns of the per-launch table: Nsight Compute metric names, or the nvprof names
    /// `shared_load_transactions_per_request`, `shared_store_transactions_per_request`,
    /// `branch_efficiency`, `divergent_branch`, `gld_efficiency`, `gst_efficiency`,
    /// `achieved_occupancy` (theoretical here); comma-separated.
    #[arg(long, value_delimiter = ',')]
    metrics: Vec<String>,
    /// Write every recorded launch as JSON.
    #[arg(long, value_name = "FILE.json")]
    export: Option<PathBuf>,
    /// Attach the hazard checker to every recorded launch; a compute-sanitizer tool name
    /// (`racecheck`, `memcheck`, `synccheck`, `initcheck`) keeps only its kind of finding.
    #[arg(long, num_args = 0..=1, default_missing_value = "all", value_name = "TOOL",
          value_parser = ["all", "racecheck", "memcheck", "synccheck", "initcheck"])]
    check: Option<String>,
    /// The fix advisor: padding, swizzle or bank permutation per conflicting shared array, once
    /// per kernel (recorded on its first launch that touches shared memory); in the table, the
    /// export and the report.
    #[arg(long)]
    fix: bool,
    /// Record only kernels whose (demangled or mangled) name contains this text.
    #[arg(long, short = 'k')]
    kernel_name: Option<String>,
    /// Launches (of the kernels `--kernel-name` selects) not recorded first.
    #[arg(long, short = 's', default_value_t = 0)]
    launch_skip: u64,
    /// Launches recorded at most.
    #[arg(long, short = 'c')]
    launch_count: Option<u64>,
    /// Warp instructions one block may execute (guards runaway kernels).
    #[arg(long, default_value_t = 1 << 28)]
    max_instructions: u64,
    /// Seconds each launch may run: after that no further block of it starts. Such a launch is
    /// labelled incomplete on stderr and in the export: its counters are estimates scaled from the
    /// blocks that ran (the first in block order), and the program's later reads of the memory it
    /// could write are reported.
    #[arg(long, value_name = "SECONDS", value_parser = parse_budget,
          conflicts_with_all = ["measure", "measured"])]
    budget: Option<f64>,
    /// Write a self-contained HTML report: a section per kernel with its launches and findings.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
    /// Include directory for building a `.cu` program (repeatable; as analyze's `-I`).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// Macro for building a `.cu` program: NAME or NAME=VALUE (repeatable; as analyze's `-D`).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Run the program a second time on the local GPU (NVIDIA's runtime) under Nsight Compute and
    /// put the measured counters beside the predicted ones, launch by launch, with the program's
    /// output compared; exit status 1 when a counter claimed exact or the output differs.
    #[arg(long, conflicts_with = "measured")]
    measure: bool,
    /// Compare with an ncu CSV recorded earlier instead (`ncu --csv [--page raw] --metrics ...
    /// ./app`, every launch profiled); needs no GPU.
    #[arg(long, value_name = "FILE.csv")]
    measured: Option<PathBuf>,
    /// With --measured: the program's output recorded on the GPU, compared with its output here.
    #[arg(long, value_name = "FILE", requires = "measured")]
    measured_output: Option<PathBuf>,
    /// Nsight Compute executable for --measure (default: found on PATH, /usr/local/cuda/bin,
    /// /opt/nvidia).
    #[arg(long, value_name = "PATH")]
    ncu: Option<PathBuf>,
    /// warpscope's CUDA runtime library (default: `libwarpscope_cudart.so` next to this program,
    /// in `../lib/warpscope/`, or where `warpscope setup` put it).
    #[arg(long, value_name = "PATH")]
    cudart: Option<PathBuf>,
    #[command(flatten)]
    output: OutputArgs,
    /// The program and its arguments (after `--`); a `.cu` file is built first with nvcc.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "PROGRAM"
    )]
    command: Vec<String>,
}

fn parse_budget(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number of seconds above 0")),
    }
}

/// The program was stopped by a signal sent to warpscope or typed on the terminal (Ctrl-C).
#[derive(Serialize)]
struct Interrupted {
    /// The first such signal (2: SIGINT).
    signal: i32,
}

/// The launch the runtime was emulating when the program ended (it has no record).
#[derive(Serialize)]
struct UnfinishedLaunch {
    launch: u64,
    kernel: String,
    blocks_done: u64,
    blocks: u64,
    seconds: f64,
}

/// Launches whose blocks did not all run (`--budget`), and where their missing results were used.
#[derive(Serialize)]
struct Incomplete {
    /// Launches cut short.
    launches_cut: Vec<serde_json::Value>,
    /// Later launches that read memory a cut launch left incomplete.
    launches_on_incomplete_input: Vec<serde_json::Value>,
    /// The program's reads of such memory (copies to the host, `cudaMemcpyFromSymbol`).
    reads: Vec<serde_json::Value>,
}

/// The `--export` document.
#[derive(Serialize)]
struct Export<'a> {
    program: String,
    args: &'a [String],
    exit_status: Option<i32>,
    /// The signal that ended the program, when one did.
    signal: Option<i32>,
    /// Set when the run was interrupted (Ctrl-C, or a signal sent to warpscope).
    interrupted: Option<Interrupted>,
    /// The launch being emulated when the program ended, when it ended inside one.
    unfinished_launch: Option<UnfinishedLaunch>,
    /// `--budget`, seconds per launch.
    budget_s: Option<f64>,
    /// Set when some launch did not run all its blocks.
    incomplete: Option<Incomplete>,
    /// Findings of the whole program rather than of one launch (`--check`: device memory never
    /// freed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    program_findings: Vec<warpscope_cudart::Finding>,
    arch: &'a str,
    /// Whether the preset's rules (bank, occupancy, ldmatrix/stmatrix/cp.async) are measured or assumed.
    rules_basis: serde_json::Value,
    launches: Vec<LaunchOut<'a>>,
    kernels: Vec<KernelSummary>,
    notes: Vec<String>,
    /// Predicted beside measured (`--measure`, `--measured`).
    #[serde(skip_serializing_if = "Option::is_none")]
    measurement: Option<warpscope_measure::program::RunMeasurement>,
}

#[derive(Serialize)]
struct LaunchOut<'a> {
    id: u64,
    kernel: &'a str,
    mangled: &'a str,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
    stream: u64,
    metrics: &'a BTreeMap<String, f64>,
    findings: Vec<&'a warpscope_cudart::Finding>,
    warp_instructions: u64,
    /// PTX thread instructions executed (each warp instruction's active lanes).
    thread_instructions: u64,
    widths: &'a str,
    /// Set when not every block ran (`--budget`): which ran, and how the counters were made.
    #[serde(skip_serializing_if = "Option::is_none")]
    sampling: Option<&'a warpscope_cudart::analysis::Sampling>,
    /// The launch read memory that this earlier launch, cut short, left incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete_input: Option<u64>,
    /// Shared-memory counters per source line.
    shared_lines: &'a [warpscope_cudart::analysis::SharedLine],
    /// The fix advisor's answer for the kernel (`--fix`, on one launch per kernel).
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<&'a warpscope_cudart::analysis::FixAdvice>,
    /// Why the machine code's control flow could not be followed for the branch counters (they
    /// are then the PTX's, labelled estimates).
    #[serde(skip_serializing_if = "Option::is_none")]
    machine_flow_stop: Option<&'a str>,
    /// Why the machine code's own global accesses could not be counted (the global counters are
    /// then the PTX's, labelled estimates).
    #[serde(skip_serializing_if = "Option::is_none")]
    global_flow_stop: Option<&'a str>,
}

#[derive(Serialize)]
struct KernelSummary {
    kernel: String,
    launches: u64,
    /// Sums over the kernel's launches (averages for percentages and ratios).
    metrics: BTreeMap<String, f64>,
}

/// nvprof names, and ncu ratios, as they are stored in the records.
fn metric_key(name: &str) -> &str {
    match name {
        "smsp__sass_average_branch_targets_threads_uniform.pct" => "branch_efficiency",
        "sm__warps_active.avg.pct_of_peak_sustained_active" => "sm__maximum_warps_per_active_cycle_pct",
        other => other,
    }
}

fn is_average(key: &str) -> bool {
    key.ends_with("_per_request")
        || key.ends_with("efficiency")
        || key.ends_with("pct")
        || key == "achieved_occupancy"
        || key.starts_with("launch__")
}

const DEFAULT_COLUMNS: &[(&str, &str)] = &[
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared ld inst"),
    (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "ld wavefronts",
    ),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared st inst"),
    (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "st wavefronts",
    ),
    ("warpscope__shared_ld_excess_wavefronts.sum", "ld conflicts"),
    ("warpscope__shared_st_excess_wavefronts.sum", "st conflicts"),
    ("shared_load_transactions_per_request", "ld trans/req"),
    ("shared_store_transactions_per_request", "st trans/req"),
    ("smsp__sass_branch_targets.sum", "branch targets"),
    ("smsp__sass_branch_targets_threads_divergent.sum", "divergent"),
    ("branch_efficiency", "branch eff %"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gld req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "gst req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst sectors"),
    ("sm__maximum_warps_per_active_cycle_pct", "theor. occupancy %"),
    ("launch__registers_per_thread", "regs"),
];

fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

fn dims(d: [u32; 3]) -> String {
    format!("({},{},{})", d[0], d[1], d[2])
}

/// Builds `app.cu` with the toolkit's nvcc as the field notes do, linked against warpscope's
/// runtime (`-cudart shared`).
fn build_cu(src: &Path, dir: &Path, arch: &str, args: &Args) -> anyhow::Result<PathBuf> {
    let root = warpscope_toolchain::locate::find_root()
        .map_err(|e| anyhow::Error::new(Unavailable(format!("cannot build {}: {e}", src.display()))))?;
    let nvcc = root.bin("nvcc");
    let out = dir.join(src.file_stem().unwrap_or_default());
    let mut cmd = Command::new(&nvcc);
    cmd.args(["-O2", &format!("-arch={arch}"), "-lineinfo", "-cudart", "shared"])
        .arg(format!("-L{}", dir.display()))
        .args(args.include_dirs.iter().map(|d| format!("-I{}", d.display())))
        .args(args.defines.iter().map(|d| format!("-D{d}")))
        .arg("-o")
        .arg(&out)
        .arg(src);
    let cccl = root.root.join("include").join("cccl");
    if cccl.is_dir() {
        cmd.arg(format!("-I{}", cccl.display()));
    }
    let o = crate::child::output(&mut cmd, std::process::Stdio::piped())
        .with_context(|| format!("cannot run {}", nvcc.display()))?;
    if !o.status.success() {
        bail!(
            "{}: nvcc failed:\n{}",
            src.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    Ok(out)
}

fn tool_keeps(tool: &str, kind: &str) -> bool {
    // a failing device assert stops the kernel on a GPU too: every tool reports it
    if kind == "assert" {
        return true;
    }
    match tool {
        "racecheck" => kind.contains("race"),
        "memcheck" => {
            kind.contains("bounds") || kind.contains("misaligned") || kind == "fault" || kind == "leak"
        }
        "synccheck" => kind.contains("barrier"),
        "initcheck" => kind.contains("uninit"),
        _ => true,
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let arch = warpscope_model::arch::Arch::parse(&args.arch)?;
    let lib = crate::runtime_lib::find(args.cudart.as_deref())?;
    let lib = lib
        .canonicalize()
        .with_context(|| format!("cannot read {}", lib.display()))?;
    let dir = std::env::temp_dir().join(format!("warpscope-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let result = run_in(&args, arch, &lib, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(
    args: &Args,
    arch: &warpscope_model::arch::Arch,
    lib: &Path,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    for name in ["libcudart.so.13", "libcudart.so"] {
        std::os::unix::fs::symlink(lib, dir.join(name))
            .with_context(|| format!("cannot link {} into {}", lib.display(), dir.display()))?;
    }
    let first = PathBuf::from(&args.command[0]);
    let is_cu = first.extension().is_some_and(|e| e == "cu");
    // `warpscope run app.cu -- ARGS`: the `--` that separates the source from the program's
    // arguments is not one of them.
    let prog_args: &[String] = match args.command.get(1) {
        Some(sep) if is_cu && sep == "--" => &args.command[2..],
        _ => &args.command[1..],
    };
    let program = if is_cu {
        build_cu(&first, dir, arch.name, args)?
    } else {
        first.clone()
    };
    match warpscope_cudart::program::linkage(&program).map_err(anyhow::Error::msg)? {
        Linkage::Shared(_) => {}
        Linkage::Static => bail!(
            "{} is linked with the static CUDA runtime (nvcc's default): rebuild it with `-cudart shared` (for example `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o app app.cu`)",
            program.display()
        ),
        Linkage::None => bail!(
            "{} does not use the CUDA runtime (no libcudart)",
            program.display()
        ),
    }
    let ncu = if args.measure {
        Some(crate::run_measure::preflight(args.ncu.as_deref())?)
    } else {
        None
    };
    let records = dir.join("launches.jsonl");
    let notices = dir.join("notices.jsonl");
    let page_path = dir.join("progress");
    let page = match warpscope_cudart::progress::Mapped::create(&page_path) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("warpscope: no progress bar ({}: {e})", page_path.display());
            None
        }
    };
    let cfg = Config {
        arch: arch.name.to_string(),
        check: args.check.is_some(),
        fix: args.fix,
        max_instructions: args.max_instructions,
        kernel_name: args.kernel_name.clone(),
        launch_skip: args.launch_skip,
        launch_count: args.launch_count,
        records: Some(records.clone()),
        notices: Some(notices.clone()),
        progress: page.is_some().then(|| page_path.clone()),
        budget_s: args.budget,
    };
    let ld = match std::env::var_os("LD_LIBRARY_PATH") {
        Some(old) if !old.is_empty() => {
            let mut v = dir.as_os_str().to_owned();
            v.push(":");
            v.push(old);
            v
        }
        _ => dir.as_os_str().to_owned(),
    };
    let exe = if program.components().count() == 1 {
        Path::new(".").join(&program)
    } else {
        program.clone()
    };
    let mut cmd = Command::new(&exe);
    cmd.args(prog_args)
        .env("LD_LIBRARY_PATH", ld)
        .env(warpscope_cudart::CONFIG_ENV, serde_json::to_string(&cfg)?);
    let watcher = page.map(crate::progress::watch);
    // Measuring compares the program's output with the GPU's: keep a copy as it passes through.
    let ran = if args.measure || args.measured_output.is_some() {
        run_teeing(&mut cmd)
    } else {
        crate::child::status(&mut cmd).map(|s| (s, Vec::new()))
    };
    let last = watcher.and_then(crate::progress::Watcher::finish);
    let (status, emulated_output) = ran.with_context(|| format!("cannot run {}", exe.display()))?;
    let unfinished = last
        .filter(|s| s.state == warpscope_cudart::progress::RUNNING)
        .map(|s| UnfinishedLaunch {
            launch: s.launch,
            kernel: s.label,
            blocks_done: s.done,
            blocks: s.blocks,
            seconds: warpscope_cudart::progress::now_ns().saturating_sub(s.started_ns) as f64 / 1e9,
        });
    let notices: Vec<warpscope_cudart::Notice> = std::fs::read_to_string(&notices)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let mut text = std::fs::read_to_string(&records).unwrap_or_default();
    // a program ended by a signal may have been writing a record: a line without its newline
    let cut_off = !text.is_empty() && !text.ends_with('\n');
    if cut_off {
        text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
    }
    let mut recs: Vec<LaunchRecord> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        recs.push(serde_json::from_str(line).with_context(|| {
            format!(
                "{}: line {}: a launch record does not read",
                records.display(),
                i + 1
            )
        })?);
    }
    let tool = args.check.as_deref().unwrap_or("all");
    for r in &mut recs {
        r.analysis.findings.retain(|f| tool_keeps(tool, &f.kind));
    }
    // the program's reads of memory a launch cut short left incomplete: findings of that launch,
    // one per call that read it
    let mut reads: BTreeMap<(u64, &str), (u64, u64, u64)> = BTreeMap::new();
    for n in &notices {
        if let warpscope_cudart::Notice::IncompleteRead {
            call,
            address,
            bytes,
            from_launch,
            ..
        } = n
        {
            let e = reads
                .entry((*from_launch, call.as_str()))
                .or_insert((0, 0, *address));
            e.0 += 1;
            e.1 += bytes;
        }
    }
    for ((from, call), (count, bytes, first)) in &reads {
        if let Some(r) = recs.iter_mut().find(|r| r.index == *from) {
            r.analysis.findings.push(warpscope_cudart::Finding {
                severity: "error".into(),
                kind: "incomplete_read".into(),
                line: None,
                message: format!(
                    "the program read memory this launch left incomplete (not all its blocks ran: --budget): {count} × {call}, {bytes} bytes, the first at {first:#x}"
                ),
            });
        }
    }
    // device memory the program never freed: findings of the program (memcheck's leak check)
    let program_findings: Vec<warpscope_cudart::Finding> = notices
        .iter()
        .filter_map(|n| match n {
            warpscope_cudart::Notice::Leak { address, bytes, at } if tool_keeps(tool, "leak") => {
                // a warning: many programs end without freeing, and compute-sanitizer reports
                // leaks only when asked (`--leak-check full`)
                Some(warpscope_cudart::Finding {
                    severity: "warning".into(),
                    kind: "leak".into(),
                    line: None,
                    message: format!(
                        "{bytes} bytes of device memory at {address:#x} were still allocated at {}: never freed (cudaFree)",
                        if at == "exit" { "the program's end" } else { at.as_str() }
                    ),
                })
            }
            _ => None,
        })
        .collect();
    // stopped by a signal (Ctrl-C): not run again, twice, on the GPU
    let measure_skipped = ncu.is_some() && crate::child::interrupted();
    let measurement = if measure_skipped {
        None
    } else if let Some(ncu) = &ncu {
        Some(crate::run_measure::measure(
            ncu,
            &exe,
            prog_args,
            &recs,
            &emulated_output,
        )?)
    } else if let Some(path) = &args.measured {
        let (rows, on) =
            warpscope_measure::program::read_recorded(path).map_err(crate::launch::measure_error)?;
        let mut m = warpscope_measure::program::compare(&recs, &rows, on);
        if let Some(out) = &args.measured_output {
            let gpu = warpscope_measure::program::read_recorded_output(out)
                .map_err(crate::launch::measure_error)?;
            let o = warpscope_measure::program::compare_output(
                &emulated_output,
                &gpu,
                warpscope_measure::program::calls_printf(&recs),
            );
            if !o.equal {
                m.differences += 1;
            }
            m.output = Some(o);
        }
        Some(m)
    } else {
        None
    };
    let mut notes = Vec::new();
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => notes.push(format!("{} exited with status {c}", program.display())),
        (None, Some(s)) => notes.push(format!("{} was ended by signal {s}", program.display())),
        _ => {}
    }
    if measure_skipped {
        notes.push(
            "the run was interrupted by a signal: the program was not run on the GPU (--measure)".into(),
        );
    }
    if cut_off {
        notes.push("the last launch record was cut off as the program ended, and is left out".into());
    }
    let interrupted = crate::child::interrupt_signal().map(|signal| Interrupted { signal });
    let mut said = Vec::new();
    if let Some(i) = &interrupted {
        said.push(format!(
            "the run was interrupted by signal {} (Ctrl-C, or a signal sent to warpscope): what follows are the {} launches recorded before it",
            i.signal,
            recs.len()
        ));
    }
    if let Some(u) = &unfinished {
        said.push(format!(
            "the program ended during launch {} {} ({} of {} blocks done after {:.1} s): that launch has no record",
            u.launch, u.kernel, u.blocks_done, u.blocks, u.seconds
        ));
    }
    let cut: Vec<(u64, &str, u64, u64)> = notices
        .iter()
        .filter_map(|n| match n {
            warpscope_cudart::Notice::LaunchCut {
                launch,
                label,
                blocks_run,
                blocks,
                ..
            } => Some((*launch, label.as_str(), *blocks_run, *blocks)),
            _ => None,
        })
        .collect();
    if !cut.is_empty() {
        const LISTED: usize = 8;
        let mut list: Vec<String> = cut
            .iter()
            .take(LISTED)
            .map(|(l, k, r, b)| format!("launch {l} {k} ran {r} of {b} blocks"))
            .collect();
        if cut.len() > LISTED {
            list.push(format!("{} more", cut.len() - LISTED));
        }
        let (n, them) = match cut.len() {
            1 => ("1 launch".to_string(), "its"),
            n => (format!("{n} launches"), "their"),
        };
        said.push(format!(
            "{n} did not run all {them} blocks (--budget {} s: no block starts after that): {}; {them} counters are estimates scaled from the blocks that ran (the first in block order), and the program's results from {} are incomplete",
            args.budget.unwrap_or_default(),
            list.join(", "),
            if cut.len() == 1 { "it" } else { "them" }
        ));
    }
    if !reads.is_empty() {
        let mut from: Vec<u64> = reads.keys().map(|(l, _)| *l).collect();
        from.dedup();
        let count = reads.values().map(|v| v.0).sum::<u64>();
        said.push(format!(
            "the program read memory that launch{} {} left incomplete ({count} read{}): its results are incomplete (findings `incomplete_read`)",
            if from.len() == 1 { "" } else { "es" },
            from.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            if count == 1 { "" } else { "s" }
        ));
    }
    for line in &said {
        eprintln!("warpscope: {line}");
    }
    notes.extend(said);
    if recs.iter().any(|r| r.widths.starts_with("widths are PTX-level")) {
        notes.push("some kernels' shared-memory widths are PTX-level (no nvdisasm or no machine code): fused accesses may differ".into());
    }
    notes.push(format!(
        "counters are predicted for {} by emulation; achieved_occupancy and sm__maximum_warps_per_active_cycle_pct are the theoretical occupancy; event times are modelled",
        arch.name
    ));
    notes.push(warpscope_measure::basis::line(arch));
    // the kernels (sorted, once each) of the launches whose metric `key` satisfies `pred`
    let kernels_where = |key: &str, pred: fn(f64) -> bool| -> Vec<&str> {
        let mut v: Vec<&str> = recs
            .iter()
            .filter(|r| r.analysis.metrics.get(key).is_some_and(|x| pred(*x)))
            .map(|r| r.kernel.as_str())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let printing = kernels_where("warpscope__device_printf_calls", |_| true);
    if !printing.is_empty() {
        notes.push(format!(
            "{} call device printf: the global columns include the printf implementation's own loads and stores, which ncu counts, by the rule measured on the H100 (calibration/printf/; lanes that differ in their argument count or in the record's 256-byte steps make them estimates)",
            printing.join(", ")
        ));
    }
    let spinning = kernels_where("warpscope__spin_loop", |v| v == 1.0);
    if !spinning.is_empty() {
        notes.push(format!(
            "{} wait in a loop on an ld.acquire/ld.relaxed for another thread's store (a grid barrier, a flag) or on a clock: the GPU's timing decides how often that loop runs, so their branch and global counters are estimates (the shared counters too where the loop may touch shared memory)",
            spinning.join(", ")
        ));
    }
    // kernels whose `key` label is 0, the spinning ones left out (their own note covers them), and
    // launches cut short too (the note on `--budget` covers them)
    let labelled_estimate = |key: &str| -> Vec<&str> {
        let mut v: Vec<&str> = recs
            .iter()
            .filter(|r| r.analysis.sampling.is_none())
            .filter(|r| r.analysis.metrics.get(key) == Some(&0.0))
            .map(|r| r.kernel.as_str())
            .filter(|k| !spinning.contains(k))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let estimated = labelled_estimate("warpscope__branch_counters_exact");
    if !estimated.is_empty() {
        // each kernel with the first reason its machine code's control flow could not be followed
        let why: Vec<String> = estimated
            .iter()
            .map(|k| {
                match recs
                    .iter()
                    .filter(|r| r.kernel == *k)
                    .find_map(|r| r.analysis.machine_flow_stop.as_deref())
                {
                    Some(w) => format!("{k} (machine code not followed at {w})"),
                    None => k.to_string(),
                }
            })
            .collect();
        notes.push(format!(
            "branch counters are estimates for {}: their machine code has branches that do not match the PTX's line for line, and following the machine code's own control flow on the launch stopped at a value it cannot know (shared memory, an atomic's result, a float it does not compute), or there was no machine code to read, so those lines are counted on the PTX",
            why.join(", ")
        ));
    }

    let global_estimated: Vec<String> = labelled_estimate("warpscope__global_counters_exact")
        .into_iter()
        .map(|k| {
            match recs
                .iter()
                .filter(|r| r.kernel == k)
                .find_map(|r| r.analysis.global_flow_stop.as_deref())
            {
                Some(w) => format!("{k} (machine code's accesses not counted: {w})"),
                None => k.to_string(),
            }
        })
        .collect();
    if !global_estimated.is_empty() {
        notes.push(format!(
            "global-memory counters are estimates for {}: ptxas moved, merged or removed some of their global loads or stores (or copies them asynchronously) and the machine code's own accesses could not be followed on the launch, so the PTX's accesses are counted; or a device printf call is outside its measured rule",
            global_estimated.join(", ")
        ));
    }

    let shared_estimated = labelled_estimate("warpscope__shared_counters_exact");
    if !shared_estimated.is_empty() {
        notes.push(format!(
            "shared-memory counters are estimates for {}: a source line's shared loads or stores do not match the machine code's (ptxas removed, merged or added accesses there), so that line is counted as the PTX has it",
            shared_estimated.join(", ")
        ));
    }

    // Per-kernel summary.
    let mut sums: BTreeMap<String, KernelSummary> = BTreeMap::new();
    for r in &recs {
        let s = sums.entry(r.kernel.clone()).or_insert_with(|| KernelSummary {
            kernel: r.kernel.clone(),
            launches: 0,
            metrics: BTreeMap::new(),
        });
        s.launches += 1;
        for (k, v) in &r.analysis.metrics {
            *s.metrics.entry(k.clone()).or_insert(0.0) += v;
        }
    }
    let kernels: Vec<KernelSummary> = sums
        .into_values()
        .map(|mut s| {
            let n = s.launches as f64;
            for (k, v) in s.metrics.iter_mut() {
                if is_average(k) {
                    *v /= n;
                }
            }
            s
        })
        .collect();

    let columns: Vec<(String, String)> = if args.metrics.is_empty() {
        // the matrix columns of the kinds some launch has, after the shared-memory ones
        let has = |k: &str| recs.iter().any(|r| r.analysis.metrics.contains_key(k));
        let matrix = warpscope_analysis::banks::MatrixKind::ALL
            .into_iter()
            .filter(|k| has(k.ncu_instructions()))
            .flat_map(|k| {
                let name = format!("{k:?}").to_lowercase();
                [
                    (k.ncu_instructions().to_string(), format!("{name} inst")),
                    (k.ncu_wavefronts().to_string(), format!("{name} wavefronts")),
                ]
            });
        let plain = |c: &[(&str, &str)]| -> Vec<(String, String)> {
            c.iter().map(|(k, t)| (k.to_string(), t.to_string())).collect()
        };
        plain(&DEFAULT_COLUMNS[..8])
            .into_iter()
            .chain(matrix)
            .chain(plain(&DEFAULT_COLUMNS[8..]))
            .collect()
    } else {
        // every metric some launch has (LDSM / STSM / LDGSTS only where a kernel uses them)
        let known: Vec<&String> = recs
            .iter()
            .flat_map(|r| r.analysis.metrics.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for m in &args.metrics {
            let k = metric_key(m);
            if !recs.is_empty() && !known.iter().any(|x| x.as_str() == k) {
                bail!(
                    "--metrics: `{m}` is not a metric warpscope predicts (known: {})",
                    known.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                );
            }
        }
        args.metrics
            .iter()
            .map(|m| {
                let title = if m == "achieved_occupancy" {
                    "achieved_occupancy (theoretical)".to_string()
                } else {
                    m.clone()
                };
                (metric_key(m).to_string(), title)
            })
            .collect()
    };
    let mut launches = Tabular::new(
        "launches",
        [
            Column::new("id", "id"),
            Column::new("kernel", "kernel"),
            Column::new("grid", "launch__grid_dim"),
            Column::new("block", "launch__block_dim"),
        ]
        .into_iter()
        .chain(columns.iter().map(|(k, t)| Column::new(t.clone(), k.clone())))
        .collect(),
    );
    for r in &recs {
        let mut row = vec![r.index.to_string(), r.kernel.clone(), dims(r.grid), dims(r.block)];
        for (k, _) in &columns {
            row.push(
                r.analysis
                    .metrics
                    .get(k)
                    .map(|v| fmt_value(*v))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        launches.row(row);
    }
    let mut summary = Tabular::new(
        "kernels (sums over launches; ratios and percentages averaged)",
        [
            Column::new("kernel", "kernel"),
            Column::new("launches", "launches"),
        ]
        .into_iter()
        .chain(columns.iter().map(|(k, t)| Column::new(t.clone(), k.clone())))
        .collect(),
    );
    for s in &kernels {
        let mut row = vec![s.kernel.clone(), s.launches.to_string()];
        for (k, _) in &columns {
            row.push(
                s.metrics
                    .get(k)
                    .map(|v| fmt_value(*v))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        summary.row(row);
    }
    let mut findings = Tabular::new(
        "findings",
        vec![
            Column::new("id", "id"),
            Column::new("kernel", "kernel"),
            Column::new("severity", "severity"),
            Column::new("kind", "kind"),
            Column::new("line", "line"),
            Column::new("finding", "message"),
        ],
    );
    // as `check`'s: fits an 80-column terminal, the messages wrapped
    findings.max_width = Some(crate::findings::TABLE_WIDTH);
    let mut errors = 0;
    // without `--check`, the table lists only failing device asserts (a GPU reports those too)
    let mut asserts = 0;
    for r in &recs {
        for f in &r.analysis.findings {
            // failing device asserts and reads of incomplete results are shown in any case
            let always = f.kind == "assert" || f.kind == "incomplete_read";
            if args.check.is_none() && !always {
                continue;
            }
            asserts += usize::from(always);
            if f.severity == "error" {
                errors += 1;
            }
            findings.row([
                r.index.to_string(),
                // the name without its parameters (the launches table has them)
                r.kernel.split('(').next().unwrap_or(&r.kernel).trim().to_string(),
                f.severity.clone(),
                f.kind.clone(),
                f.line.map(|l| l.to_string()).unwrap_or_default(),
                f.message.clone(),
            ]);
        }
    }
    if args.check.is_some() {
        for f in &program_findings {
            errors += usize::from(f.severity == "error");
            findings.row([
                "-".into(),
                "(program)".into(),
                f.severity.clone(),
                f.kind.clone(),
                String::new(),
                f.message.clone(),
            ]);
        }
    }
    let mut fixes = Tabular::new(
        "fix",
        vec![
            Column::new("kernel", "kernel"),
            Column::new("launch", "launch"),
            Column::new("array", "array"),
            Column::new("change", "change"),
            Column::new("before", "wavefronts_before"),
            Column::new("after", "wavefronts_after"),
            Column::new("ideal", "ideal"),
            Column::new("extra smem", "extra_shared_bytes"),
        ],
    );
    let mut fix_notes = Vec::new();
    for r in &recs {
        let Some(f) = &r.analysis.fix else { continue };
        if f.suggestions.is_empty() {
            fix_notes.push(format!(
                "fix: {}: no shared array has a bank conflict to fix",
                r.kernel
            ));
        }
        for n in &f.notes {
            fix_notes.push(format!("fix: {}: {n}", r.kernel));
        }
        for s in f.suggestions.iter().filter(|s| s.recommended) {
            fixes.row([
                r.kernel.clone(),
                r.index.to_string(),
                s.array.clone(),
                s.change.clone(),
                s.wavefronts_before.to_string(),
                s.wavefronts_after.to_string(),
                s.ideal.to_string(),
                s.extra_shared_bytes.to_string(),
            ]);
        }
    }
    let export = Export {
        program: program.display().to_string(),
        args: prog_args,
        exit_status: status.code(),
        signal: {
            use std::os::unix::process::ExitStatusExt;
            status.signal()
        },
        interrupted,
        unfinished_launch: unfinished,
        budget_s: args.budget,
        program_findings: program_findings.clone(),
        incomplete: notices
            .iter()
            .any(|n| !matches!(n, warpscope_cudart::Notice::Leak { .. }))
            .then(|| {
                let of = |kind: &str| -> Vec<serde_json::Value> {
                    notices
                        .iter()
                        .filter_map(|n| serde_json::to_value(n).ok())
                        .filter(|v| v["kind"] == kind)
                        .collect()
                };
                Incomplete {
                    launches_cut: of("launch_cut"),
                    launches_on_incomplete_input: of("incomplete_input"),
                    reads: of("incomplete_read"),
                }
            }),
        arch: arch.name,
        rules_basis: warpscope_measure::basis::json(arch),
        launches: recs
            .iter()
            .map(|r| LaunchOut {
                id: r.index,
                kernel: &r.kernel,
                mangled: &r.mangled,
                grid: r.grid,
                block: r.block,
                dyn_smem: r.dyn_smem,
                stream: r.stream,
                metrics: &r.analysis.metrics,
                findings: r.analysis.findings.iter().collect(),
                warp_instructions: r.analysis.warp_instructions,
                thread_instructions: r.analysis.thread_instructions,
                widths: &r.widths,
                sampling: r.analysis.sampling.as_ref(),
                incomplete_input: r.analysis.incomplete_input,
                shared_lines: &r.analysis.shared_lines,
                fix: r.analysis.fix.as_ref(),
                machine_flow_stop: r.analysis.machine_flow_stop.as_deref(),
                global_flow_stop: r.analysis.global_flow_stop.as_deref(),
            })
            .collect(),
        kernels,
        notes: notes.clone(),
        measurement,
    };
    if let Some(path) = &args.export {
        let text = serde_json::to_string_pretty(&export)?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.report {
        let html = html_report(&export, &columns);
        std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let mut blocks = vec![Block::Heading(format!(
        "warpscope run: {} ({} launches recorded)",
        program.display(),
        recs.len()
    ))];
    // the table format's tables fit the terminal (120 columns when its width is unknown: piped,
    // no COLUMNS); `--metrics` names its own columns. Notes and headings wrap only at a known width.
    let table_format = args.output.format == Format::Table;
    let width = table_format.then(crate::output::fit_width);
    match width {
        Some(w) if args.metrics.is_empty() => {
            let (fitted, note) = crate::run_layout::fit(&launches, &summary, w);
            blocks.extend(fitted);
            notes.extend(note);
        }
        _ => blocks.extend([Block::Table(launches), Block::Table(summary)]),
    }
    if args.check.is_none() && asserts > 0 {
        blocks.push(Block::Table(findings));
    } else if args.check.is_some() {
        if findings.rows.is_empty() {
            blocks.push(Block::Text("check: no findings".into()));
            blocks.push(Block::CsvTable(findings));
        } else {
            blocks.push(Block::Table(findings));
        }
    }
    if args.fix {
        if !fixes.rows.is_empty() {
            blocks.push(Block::Table(fixes));
        }
        blocks.push(Block::Notes(fix_notes));
    }
    blocks.push(Block::Notes(notes));
    if let Some(m) = &export.measurement {
        blocks.push(Block::Table(crate::run_measure::table(m)));
        blocks.push(Block::Notes(crate::run_measure::summary(m)));
    }
    let mut out = std::io::stdout().lock();
    emit_blocks_fitted(
        &mut out,
        args.output.format,
        args.output.color(),
        &export,
        &blocks,
        crate::output::known_width().filter(|_| table_format),
    )?;
    let measured_differences = export.measurement.as_ref().is_some_and(|m| m.differences > 0);
    Ok(match status.code() {
        Some(0) if errors > 0 && args.check.is_some() => ExitCode::from(exit::FINDINGS),
        Some(0) if measured_differences => ExitCode::from(exit::FINDINGS),
        Some(0) => ExitCode::SUCCESS,
        // the program's status as a shell reports it: 128 + the signal that ended it
        _ => ExitCode::from(crate::child::shell_status(status)),
    })
}

/// Runs `cmd` with its standard output passed through to ours and kept: the status and the bytes.
fn run_teeing(cmd: &mut Command) -> std::io::Result<(std::process::ExitStatus, Vec<u8>)> {
    use std::io::{Read, Write};
    let mut child = crate::child::spawn(cmd.stdout(std::process::Stdio::piped()))?;
    let mut pipe = child.take_stdout().expect("stdout is piped");
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut out = std::io::stdout();
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        kept.extend_from_slice(&buf[..n]);
        // our stdout closing must not stop the program: keep reading its output
        let _ = out.write_all(&buf[..n]).and_then(|()| out.flush());
    }
    Ok((child.wait()?, kept))
}

fn line_headers() -> Vec<String> {
    ["line", "side", "requests", "wavefronts", "ideal", "excess"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// A kernel's shared-memory line table, summed over its launches: lines with a conflict first
/// (most excess wavefronts first), then the rest in line order.
fn shared_lines(e: &Export<'_>, kernel: &str) -> Vec<Vec<String>> {
    let mut sums: BTreeMap<(String, u32, String), [u64; 3]> = BTreeMap::new();
    for l in e.launches.iter().filter(|l| l.kernel == kernel) {
        for s in l.shared_lines {
            let c = sums.entry((s.file.clone(), s.line, s.side.clone())).or_default();
            c[0] += s.instructions;
            c[1] += s.wavefronts;
            c[2] += s.ideal_wavefronts;
        }
    }
    let mut rows: Vec<_> = sums.into_iter().collect();
    rows.sort_by_key(|(_, c)| std::cmp::Reverse(c[1] - c[2].min(c[1])));
    rows.into_iter()
        .map(|((file, line, side), c)| {
            let at = if file.is_empty() {
                format!("PTX line {line}")
            } else {
                format!("{file}:{line}")
            };
            vec![
                at,
                side,
                c[0].to_string(),
                c[1].to_string(),
                c[2].to_string(),
                (c[1] - c[2].min(c[1])).to_string(),
            ]
        })
        .collect()
}

fn fix_headers() -> Vec<String> {
    [
        "array",
        "change",
        "wavefronts before",
        "after",
        "ideal",
        "extra shared bytes",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn fix_rows(f: &warpscope_cudart::analysis::FixAdvice) -> Vec<Vec<String>> {
    f.suggestions
        .iter()
        .map(|s| {
            vec![
                s.array.clone(),
                s.change.clone(),
                s.wavefronts_before.to_string(),
                s.wavefronts_after.to_string(),
                s.ideal.to_string(),
                s.extra_shared_bytes.to_string(),
                if s.recommended {
                    "recommended"
                } else {
                    "alternative"
                }
                .into(),
            ]
        })
        .collect()
}

/// The `--report` page: the program, then one section per kernel (its launches' counters and
/// findings), then the notes.
fn html_report(e: &Export<'_>, columns: &[(String, String)]) -> String {
    use maud::html;
    let mut kernels: Vec<&str> = e.launches.iter().map(|l| l.kernel).collect();
    kernels.dedup();
    let mut seen = std::collections::BTreeSet::new();
    kernels.retain(|k| seen.insert(*k));
    let headers: Vec<String> = ["id", "grid", "block", "dyn smem"]
        .iter()
        .map(|s| s.to_string())
        .chain(columns.iter().map(|(_, t)| t.clone()))
        .collect();
    let body = html! {
        p { "Program " code { (e.program) } " " (e.args.join(" ")) ", exit status "
            (e.exit_status.map(|c| c.to_string()).unwrap_or_else(|| "none (signal)".into()))
            ", predicted for " (e.arch) "." }
        @for k in &kernels {
            h2 { (k) }
            @let rows: Vec<Vec<String>> = e.launches.iter().filter(|l| l.kernel == *k).map(|l| {
                [l.id.to_string(), dims(l.grid), dims(l.block), l.dyn_smem.to_string()]
                    .into_iter()
                    .chain(columns.iter().map(|(c, _)| l.metrics.get(c).map(|v| fmt_value(*v)).unwrap_or_else(|| "-".into())))
                    .collect()
            }).collect();
            (warpscope_report::html::table(&headers, &rows))
            @let lines = shared_lines(e, k);
            @if !lines.is_empty() {
                h3 { "Shared memory per source line (sums over launches)" }
                (warpscope_report::html::table(&line_headers(), &lines))
            }
            @for (id, fix) in e.launches.iter().filter(|l| l.kernel == *k).filter_map(|l| l.fix.map(|f| (l.id, f))) {
                h3 { "Fix advice (recorded on launch " (id) ")" }
                @if fix.suggestions.is_empty() { p { "No shared array has a bank conflict to fix." } }
                @else {
                    (warpscope_report::html::table(&fix_headers(), &fix_rows(fix)))
                }
                @if !fix.notes.is_empty() { ul { @for n in &fix.notes { li { (n) } } } }
            }
            @if let Some(m) = &e.measurement {
                @let rows = measured_rows(m, k);
                @if !rows.is_empty() {
                    h3 { "Predicted beside measured (" (m.measured_on) ")" }
                    (warpscope_report::html::table(&measured_headers(), &rows))
                }
            }
            @let found: Vec<(u64, &warpscope_cudart::Finding)> = e.launches.iter().filter(|l| l.kernel == *k)
                .flat_map(|l| l.findings.iter().map(move |f| (l.id, *f))).collect();
            @if !found.is_empty() {
                h3 { "Findings" }
                ul { @for (id, f) in &found {
                    li { "launch " (id) ", " (f.severity) " " (f.kind)
                        @if let Some(line) = f.line { ", line " (line) } ": " (f.message) }
                } }
            }
        }
        h2 { "Notes" }
        ul {
            @for n in &e.notes { li { (n) } }
            @if let Some(m) = &e.measurement {
                @for n in crate::run_measure::summary(m) { li { (n) } }
            }
        }
    };
    warpscope_report::html::page("warpscope run", body)
}

fn measured_headers() -> Vec<String> {
    ["launch", "metric", "predicted", "measured", "equal", "claim"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The counters of `kernel`'s launches, predicted beside measured (one row per launch and counter).
fn measured_rows(m: &warpscope_measure::program::RunMeasurement, kernel: &str) -> Vec<Vec<String>> {
    m.launches
        .iter()
        .filter(|l| l.kernel == kernel)
        .flat_map(|l| {
            l.counters.iter().map(move |c| {
                vec![
                    l.id.to_string(),
                    c.metric.clone(),
                    fmt_value(c.predicted),
                    c.measured.map(fmt_value).unwrap_or_else(|| "-".into()),
                    match c.equal {
                        Some(true) => "yes".into(),
                        // the L1 unit's shared wavefronts: contention the GPU added
                        Some(false) if c.claim == "floor" && c.measured.is_some_and(|v| v > c.predicted) => {
                            "above the floor".into()
                        }
                        Some(false) => "NO".into(),
                        None => "-".into(),
                    },
                    c.claim.clone(),
                ]
            })
        })
        .collect()
}
