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

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, bail};
use warpscope_cudart::Config;
use warpscope_cudart::program::Linkage;
use warpscope_cudart::records::tool_keeps;

use crate::exit;
use crate::output::{Block, Format, OutputArgs, emit_blocks_fitted};
use crate::run_export::{self, Interrupted, UnfinishedLaunch};

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
    /// (`--check=racecheck`, `memcheck`, `synccheck`, `initcheck`) keeps only its kind of finding.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "all", value_name = "TOOL",
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
    /// With `--check`: write the findings as SARIF 2.1.0 (code-scanning annotations), one result
    /// per finding of a launch or of the program.
    #[arg(long, value_name = "FILE.sarif", requires = "check")]
    sarif: Option<PathBuf>,
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

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let arch = warpscope_model::arch::Arch::parse(&args.arch)?;
    let lib = crate::runtime_lib::find(args.cudart.as_deref())?;
    let lib = lib
        .canonicalize()
        .with_context(|| format!("cannot read {}", lib.display()))?;
    // A fresh folder of its own for every run: a folder left by a killed run (whose process id
    // may come back) is never reused.
    let tmp = std::env::temp_dir();
    let dir = tempfile::Builder::new()
        .prefix("warpscope-run-")
        .tempdir_in(&tmp)
        .with_context(|| format!("cannot create a folder in {}", tmp.display()))?;
    let result = run_in(&args, arch, &lib, dir.path());
    if let Err(e) = dir.close() {
        eprintln!("warpscope: cannot remove its temporary folder: {e}");
    }
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
        crate::run_build::build_cu(
            &first,
            dir,
            arch.name,
            &crate::run_build::Flags {
                include_dirs: &args.include_dirs,
                defines: &args.defines,
            },
        )?
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
    let gpu_libs = warpscope_cudart::program::gpu_libraries(&program).map_err(anyhow::Error::msg)?;
    if let Some(driver) = &gpu_libs.driver {
        bail!(
            "{} loads the CUDA driver ({driver}) itself and calls the driver API, which warpscope does not emulate: only programs that use the CUDA runtime API (`cuda*` calls, `<<<...>>>` launches) run under `warpscope run`",
            program.display()
        );
    }
    for lib in &gpu_libs.kernels {
        eprintln!(
            "warpscope: {} loads {lib}, an NVIDIA library whose kernels are machine code inside it: warpscope runs the kernels the program carries itself, and that library's calls that need a GPU fail as on a machine without one",
            program.display()
        );
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
    if let Some(root) = crate::runtime_lib::toolkit_for_program() {
        cmd.env("WARPSCOPE_CUDA_ROOT", root);
    }
    let watcher = page.map(crate::progress::watch);
    // Measuring compares the program's output with the GPU's: keep a copy as it passes through.
    let ran = if args.measure || args.measured_output.is_some() {
        crate::child::status_teeing(&mut cmd)
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
    let notices = warpscope_cudart::records::read_notices(&notices);
    let (mut recs, cut_off) =
        warpscope_cudart::records::read_launches(&records).map_err(anyhow::Error::msg)?;
    let tool = args.check.as_deref().unwrap_or("all");
    for r in &mut recs {
        r.analysis.findings.retain(|f| tool_keeps(tool, &f.kind));
    }
    // the program's reads of memory a launch cut short left incomplete: findings of that launch,
    // one per call that read it
    let reads = warpscope_cudart::records::incomplete_reads(&notices);
    warpscope_cudart::records::add_read_findings(&mut recs, &reads);
    // device memory the program never freed (memcheck's leak check), CUDA calls that failed
    // (memcheck), copies of unwritten device bytes to the host (initcheck): findings of the
    // program
    let program_findings = warpscope_cudart::records::program_findings(&notices, tool);
    // stopped by a signal (Ctrl-C): not run again, twice, on the GPU
    let measure_skipped = ncu.is_some() && crate::child::interrupted();
    let measurement = crate::run_measure::for_run(
        ncu.as_deref(),
        measure_skipped,
        args.measured.as_deref(),
        args.measured_output.as_deref(),
        &exe,
        prog_args,
        &recs,
        &emulated_output,
    )?;
    let interrupted = crate::child::interrupt_signal().map(|signal| Interrupted { signal });
    let mut notes = crate::run_notes::notes(&crate::run_notes::RunFacts {
        program: &program,
        status,
        measure_skipped,
        cut_off,
        interrupted: interrupted.as_ref(),
        unfinished: unfinished.as_ref(),
        notices: &notices,
        reads: &reads,
        budget: args.budget,
        recs: &recs,
        arch,
    });
    let kernels = run_export::kernel_summaries(&recs);
    let columns = run_export::columns(&args.metrics, &recs)?;
    let (launches, summary) = run_export::launch_tables(&recs, &kernels, &columns);
    let (findings, errors, asserts) =
        run_export::findings_table(&recs, &program_findings, args.check.is_some());
    let (fixes, fix_notes) = run_export::fixes_table(&recs);
    let export = run_export::export(
        &program,
        prog_args,
        status,
        interrupted,
        unfinished,
        args.budget,
        program_findings,
        &notices,
        arch,
        &recs,
        kernels,
        notes.clone(),
        measurement,
    );
    if let Some(path) = &args.export {
        let text = serde_json::to_string_pretty(&export)?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.sarif {
        let doc =
            crate::findings::run_sarif(&recs, &export.program_findings, is_cu.then_some(first.as_path()));
        let text = serde_json::to_string_pretty(&doc)?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.report {
        // the sources the page annotates: the `.cu` built, and files of the same names beside it
        // or in the current directory
        let mut dirs = vec![PathBuf::from(".")];
        if is_cu {
            dirs.push(first.parent().map(Path::to_path_buf).unwrap_or_default());
        }
        let html = crate::run_html::html_report(&export, &columns, &dirs);
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
