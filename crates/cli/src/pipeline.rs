//! The analysis behind `warpscope report`: the same steps as `warpscope analyze` (through its
//! public functions), plus the hazard checker, the divergence counters and ptxas's resource report,
//! gathered in [`KernelResults`] (serialisable, so `report --save-json` / `--from` round-trip), and
//! the conversion of those results into the report crate's document.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use warpscope_analysis::banks;
use warpscope_analysis::divergence::{BranchModel, DivergenceReport, DivergenceSink, is_debug_ptx};
use warpscope_analysis::hazards::{HazardConfig, HazardReport, HazardSink, Loc, Severity};
use warpscope_analysis::launchspec::{parse_arg, parse_dims};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Launch, Limits};
use warpscope_model::arch::Arch;
use warpscope_model::bank::{self, Op, Request};
use warpscope_report::kernel::{
    ArchRow, Conflict, FindingRow, KernelReport, LineCost, OccupancyInput, SourceLine, SourceView,
};

use crate::cmd::analyze;

/// What to analyse: the same launch description as `warpscope analyze`.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// `.ptx` or `.cu` file.
    pub file: PathBuf,
    /// Kernel name.
    pub kernel: Option<String>,
    /// Grid, `X[,Y[,Z]]`.
    pub grid: String,
    /// Block, `X[,Y[,Z]]`.
    pub block: String,
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// Kernel arguments (launchspec syntax).
    pub args: Vec<String>,
    /// Emulate only this many blocks.
    pub blocks: Option<u32>,
    /// Architecture.
    pub arch: String,
    /// `nvdisasm -g -c` output to use as the machine code.
    pub sass: Option<PathBuf>,
    /// Count PTX widths (no machine code).
    pub ptx_widths: bool,
    /// The CUDA source to show (default: the `.cu` given, or the file named by the PTX's `.file`).
    pub source: Option<PathBuf>,
}

/// Source text shown in the report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SourceText {
    /// File name.
    pub name: String,
    /// `cuda` or `ptx`.
    pub language: String,
    /// The text.
    pub text: String,
}

/// Registers and shared memory from ptxas.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Static shared memory bytes.
    pub static_smem: u32,
    /// Named barriers.
    pub barriers: u32,
}

/// One finding of the hazard checker.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FindingOut {
    /// `error` or `warning`.
    pub severity: String,
    /// Kind name.
    pub kind: String,
    /// Source lines.
    pub lines: Vec<u32>,
    /// Occurrences.
    pub count: u64,
    /// Explanation.
    pub message: String,
}

/// Divergence figures of one line (source line, or PTX line when the source is PTX).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LineDivergence {
    /// Line.
    pub line: u32,
    /// Branch efficiency, percent (`None`: no branch).
    pub branch_efficiency_pct: Option<f64>,
    /// Active lanes per executed instruction, percent.
    pub utilisation_pct: f64,
}

/// Everything `warpscope report` shows for one launch.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KernelResults {
    /// `warpscope analyze --format json` of the launch.
    pub analysis: Value,
    /// The source shown.
    pub source: Option<SourceText>,
    /// ptxas's figures (`None`: no toolkit).
    pub resources: Option<Resources>,
    /// Hazard findings.
    pub findings: Option<Vec<FindingOut>>,
    /// Divergence per line.
    pub divergence: Option<Vec<LineDivergence>>,
    /// What is missing and why.
    #[serde(default)]
    pub notes: Vec<String>,
}

fn cuda_root() -> Result<warpscope_toolchain::locate::CudaRoot, String> {
    warpscope_toolchain::locate::find(&warpscope_toolchain::locate::SearchEnv::from_process())
        .map_err(|e| format!("no CUDA toolkit found ({e})"))
}

fn run_tool(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let out = cmd.output().with_context(|| format!("cannot run {what}"))?;
    if !out.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

fn scratch(tag: &str) -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("warpscope-report-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// `.cu` → PTX with the toolkit's nvcc (`-O3 -lineinfo`).
fn cu_to_ptx(file: &Path, arch: &Arch) -> anyhow::Result<String> {
    let root = cuda_root().map_err(|e| {
        anyhow::Error::new(crate::exit::Unavailable(format!(
            "cannot compile {}: {e}",
            file.display()
        )))
    })?;
    let dir = scratch("nvcc")?;
    let out = dir.join("k.ptx");
    let r = run_tool(
        Command::new(root.bin("nvcc"))
            .arg(format!("-arch={}", arch.name))
            .args(["-O3", "-lineinfo", "-ptx", "-o"])
            .arg(&out)
            .arg(file),
        "nvcc",
    )
    .and_then(|_| std::fs::read_to_string(&out).context("reading nvcc's PTX"));
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// ptxas + nvdisasm over the PTX, or why not.
fn machine_code(ptx: &str, arch: &Arch) -> Result<(String, String), String> {
    let root = cuda_root()?;
    let nvdisasm = root.bin("nvdisasm");
    if !nvdisasm.exists() {
        return Err(format!("no nvdisasm in {}", root.root.display()));
    }
    let dir = scratch("sass").map_err(|e| format!("{e:#}"))?;
    let r = (|| -> anyhow::Result<String> {
        let (p, c) = (dir.join("k.ptx"), dir.join("k.cubin"));
        std::fs::write(&p, ptx)?;
        run_tool(
            Command::new(root.bin("ptxas"))
                .arg(format!("-arch={}", arch.name))
                .args(["-O3", "-lineinfo", "-o"])
                .arg(&c)
                .arg(&p),
            "ptxas",
        )?;
        Ok(warpscope_toolchain::sass::disassemble(&nvdisasm, &c)?)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    r.map(|s| (s, format!("ptxas + nvdisasm from {}", root.root.display())))
        .map_err(|e| format!("{e:#}"))
}

/// ptxas's resource report of `kernel` in `ptx`.
fn resources(ptx: &str, kernel: &str, arch: &Arch) -> Result<Resources, String> {
    let root = cuda_root()?;
    let dir = scratch("res").map_err(|e| format!("{e:#}"))?;
    let p = dir.join("k.ptx");
    let r = std::fs::write(&p, ptx)
        .map_err(|e| e.to_string())
        .and_then(|_| {
            warpscope_toolchain::resources::resource_usage(&root, &p, arch.cc()).map_err(|e| e.to_string())
        })
        .and_then(|ks| {
            warpscope_toolchain::resources::select(&ks, kernel, &p)
                .map(|k| Resources {
                    registers: k.registers,
                    static_smem: k.smem,
                    barriers: k.barriers,
                })
                .map_err(|e| e.to_string())
        });
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// The CUDA file the PTX's `.loc` lines mostly point to, if it can be read.
fn source_from_ptx(program: &warpscope_ptx::Program, ptx_file: &Path) -> Option<(PathBuf, String)> {
    let mut uses: BTreeMap<u32, usize> = BTreeMap::new();
    for info in &program.info {
        if let Some(l) = info.loc {
            *uses.entry(l.file).or_default() += 1;
        }
    }
    let (&file, _) = uses.iter().max_by_key(|(_, n)| **n)?;
    let name = PathBuf::from(program.file_name(file)?);
    let candidates = [
        name.clone(),
        ptx_file
            .parent()
            .unwrap_or(Path::new("."))
            .join(name.file_name()?),
    ];
    candidates
        .into_iter()
        .find_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
}

fn base_name(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Runs the analyses of one launch.
pub fn analyse(inp: &Inputs) -> anyhow::Result<KernelResults> {
    let arch = Arch::parse(&inp.arch)?;
    let grid = parse_dims(&inp.grid).context("--grid")?;
    let block = parse_dims(&inp.block).context("--block")?;
    let kargs = inp
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| parse_arg(a, i))
        .collect::<Result<Vec<_>, _>>()
        .context("--arg")?;
    if inp.blocks == Some(0) {
        bail!("--blocks must be at least 1");
    }
    let text =
        std::fs::read_to_string(&inp.file).with_context(|| format!("cannot read {}", inp.file.display()))?;
    let is_cu = inp.file.extension().is_some_and(|e| e == "cu");
    let ptx = if is_cu {
        cu_to_ptx(&inp.file, arch)?
    } else {
        text.clone()
    };
    let program = analyze::compile_ptx(&ptx, &inp.file)?;
    let kernel = analyze::pick_kernel(&program, inp.kernel.as_deref(), &inp.file)?;
    let mut notes = Vec::new();
    let (recon, note) = if inp.ptx_widths {
        (
            Reconciliation::ptx_level(),
            "widths are PTX-level (--ptx-widths)".to_string(),
        )
    } else if let Some(path) = &inp.sass {
        let sass =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        (
            analyze::reconcile_from_sass(&program, &kernel, &sass)?,
            format!("machine code from {}", path.display()),
        )
    } else {
        match machine_code(&ptx, arch) {
            Ok((sass, how)) => (
                analyze::reconcile_from_sass(&program, &kernel, &sass)?,
                format!("machine code by {how}"),
            ),
            Err(why) => (
                Reconciliation::ptx_level(),
                format!("widths are PTX-level: {why}"),
            ),
        }
    };
    let total: u64 = grid.iter().map(|&g| u64::from(g)).product();
    let mut launch = Launch::new(grid, block, kargs);
    launch.dyn_smem = inp.dyn_smem;
    launch.blocks = inp.blocks.map(|n| analyze::sample_blocks(n, total));
    let limits = Limits::default();
    let bar = crate::output::progress_bar(3, "report");
    bar.set_message("shared-memory banks");
    let run = banks::run(&program, &kernel, &launch, &limits, arch, Arc::new(recon.clone()))?;
    let analysis = serde_json::to_value(analyze::build(
        &program, &kernel, &launch, arch, &recon, &note, run,
    ))?;
    bar.inc(1);

    // Source to show.
    let source = if let Some(p) = &inp.source {
        let t = std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        Some((p.clone(), t, "cuda"))
    } else if is_cu {
        Some((inp.file.clone(), text.clone(), "cuda"))
    } else {
        source_from_ptx(&program, &inp.file).map(|(p, t)| (p, t, "cuda"))
    };
    let ptx_view = source.is_none();
    if ptx_view {
        notes.push("the CUDA source named by the PTX's .file directive was not found: showing the PTX (pass --source FILE.cu)".into());
    }
    let source = Some(match source {
        Some((p, t, lang)) => SourceText {
            name: p.display().to_string(),
            language: lang.into(),
            text: t,
        },
        None => SourceText {
            name: inp.file.display().to_string(),
            language: "ptx".into(),
            text: ptx.clone(),
        },
    });

    // Divergence.
    bar.set_message("divergence");
    let model = Arc::new(BranchModel::from_program(&program, is_debug_ptx(&ptx)));
    let divergence = match warpscope_emu::run(&program, &kernel, &launch, &limits, |_| {
        DivergenceSink::new(Arc::clone(&model))
    }) {
        Ok(res) => {
            let mut rep = DivergenceReport::new();
            for s in &res.sinks {
                rep.merge(s);
            }
            let line_of = |pc: u32| -> Option<u32> {
                let info = program.inst_info(pc);
                if ptx_view {
                    Some(info.ptx_line)
                } else {
                    info.loc.map(|l| l.line)
                }
            };
            Some(
                rep.by_line(&line_of)
                    .into_iter()
                    .filter_map(|l| {
                        Some(LineDivergence {
                            line: l.line?,
                            branch_efficiency_pct: l.branch_efficiency_pct,
                            utilisation_pct: l.utilisation_pct,
                        })
                    })
                    .collect(),
            )
        }
        Err(e) => {
            notes.push(format!("divergence not measured: {e}"));
            None
        }
    };
    bar.inc(1);

    // Hazards.
    bar.set_message("hazards");
    let findings = match program.kernel(&kernel) {
        Some(k) => {
            let cfg = Arc::new(HazardConfig::for_kernel(k, launch.block, launch.dyn_smem));
            match warpscope_emu::run(&program, &kernel, &launch, &limits, |b| {
                HazardSink::new(Arc::clone(&cfg), b)
            }) {
                Ok(res) => {
                    let mut rep = HazardReport::new(Arc::clone(&cfg));
                    for s in res.sinks {
                        rep.merge(s);
                    }
                    for f in &res.faults {
                        rep.push_fault(f);
                    }
                    let loc = |pc: u32| {
                        let info = program.inst_info(pc);
                        Loc {
                            line: info.loc.map(|l| l.line),
                            label: match info.loc {
                                Some(l) => format!("line {}", l.line),
                                None => format!("PTX line {}", info.ptx_line),
                            },
                        }
                    };
                    Some(
                        rep.findings(&loc)
                            .into_iter()
                            .map(|f| FindingOut {
                                severity: if f.severity == Severity::Error {
                                    "error"
                                } else {
                                    "warning"
                                }
                                .into(),
                                kind: f.kind.name().into(),
                                lines: f.lines.clone(),
                                count: f.count,
                                message: f.message.clone(),
                            })
                            .collect(),
                    )
                }
                Err(e) => {
                    notes.push(format!("hazards not checked: {e}"));
                    None
                }
            }
        }
        None => None,
    };
    bar.inc(1);
    bar.finish_and_clear();

    let resources = match resources(&ptx, &kernel, arch) {
        Ok(r) => Some(r),
        Err(why) => {
            notes.push(format!("no occupancy curves: registers unknown ({why})"));
            None
        }
    };
    Ok(KernelResults {
        analysis,
        source,
        resources,
        findings,
        divergence,
        notes,
    })
}

/// The parts of `warpscope analyze`'s JSON the report reads.
#[derive(Deserialize)]
struct AnalysisIn {
    kernel: String,
    grid: [u32; 3],
    block: [u32; 3],
    dyn_smem: u32,
    arch: String,
    #[serde(default)]
    blocks_emulated: u64,
    #[serde(default)]
    blocks_in_grid: u64,
    #[serde(default)]
    widths: String,
    #[serde(default)]
    widths_note: String,
    lines: Vec<LineIn>,
    instructions: Vec<InstIn>,
    #[serde(default)]
    faults: Vec<String>,
}

#[derive(Deserialize)]
struct LineIn {
    file: String,
    line: u32,
    instructions: u64,
    wavefronts: u64,
    ideal_wavefronts: u64,
    worst_n_way: f64,
}

#[derive(Deserialize)]
struct InstIn {
    ptx_line: u32,
    ptx: String,
    source: Option<String>,
    side: String,
    width: u8,
    instructions: u64,
    wavefronts: u64,
    ideal_wavefronts: u64,
    worst_n_way: f64,
    worst: Option<WorstIn>,
}

#[derive(Deserialize)]
struct WorstIn {
    wavefronts: u32,
    lane_offsets: Vec<Option<u64>>,
}

/// Architectures of the what-if table.
pub const WHAT_IF_ARCHS: [&str; 6] = ["sm_20", "sm_35", "sm_50", "sm_70", "sm_90", "sm_120"];

fn fmt_dims(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}

/// Turns results (fresh or loaded from JSON) into the report document; `origin` names where the
/// JSON came from, for errors.
pub fn kernel_report(r: &KernelResults, origin: &str) -> anyhow::Result<KernelReport> {
    let a: AnalysisIn = serde_json::from_value(r.analysis.clone())
        .with_context(|| format!("{origin}: not the JSON of `warpscope analyze`"))?;
    let arch = Arch::parse(&a.arch).with_context(|| format!("{origin}: field `arch`"))?;
    let mut notes = vec![format!("widths: {} ({})", a.widths, a.widths_note)];
    notes.extend(r.notes.iter().cloned());
    notes.extend(a.faults.iter().map(|f| format!("emulator fault: {f}")));

    // Source lines with costs.
    let src = r.source.clone();
    let (name, language, text, ptx_view) = match &src {
        Some(s) => (
            s.name.clone(),
            s.language.clone(),
            s.text.clone(),
            s.language == "ptx",
        ),
        None => {
            notes
                .push("no source text in the results: lines show the PTX of the shared accesses only".into());
            let mut t = String::new();
            let mut by_line: BTreeMap<u32, &str> = BTreeMap::new();
            for i in &a.instructions {
                by_line.insert(i.ptx_line, &i.ptx);
            }
            let last = by_line.keys().last().copied().unwrap_or(0);
            for n in 1..=last {
                t.push_str(by_line.get(&n).copied().unwrap_or(""));
                t.push('\n');
            }
            ("PTX (shared accesses)".into(), "ptx".into(), t, true)
        }
    };
    let mut costs: BTreeMap<u32, LineCost> = BTreeMap::new();
    if ptx_view {
        for i in &a.instructions {
            let c = costs.entry(i.ptx_line).or_default();
            c.executions += i.instructions;
            c.wavefronts += i.wavefronts;
            c.ideal += i.ideal_wavefronts;
            c.worst_ways = c.worst_ways.max(i.worst_n_way);
        }
    } else {
        let shown = base_name(&name).to_string();
        for l in a.lines.iter().filter(|l| base_name(&l.file) == shown) {
            let c = costs.entry(l.line).or_default();
            c.executions += l.instructions;
            c.wavefronts += l.wavefronts;
            c.ideal += l.ideal_wavefronts;
            c.worst_ways = c.worst_ways.max(l.worst_n_way);
        }
    }
    for d in r.divergence.iter().flatten() {
        let c = costs.entry(d.line).or_default();
        c.branch_efficiency_pct = d.branch_efficiency_pct;
        c.utilisation_pct = Some(d.utilisation_pct);
    }
    if !ptx_view {
        for f in r.findings.iter().flatten() {
            for &l in &f.lines {
                costs
                    .entry(l)
                    .or_default()
                    .findings
                    .push(format!("{}: {}", f.severity, f.kind));
            }
        }
    }
    let lines = text
        .lines()
        .enumerate()
        .map(|(i, t)| {
            let number = i as u32 + 1;
            SourceLine {
                number,
                text: t.to_string(),
                cost: costs.remove(&number).unwrap_or_default(),
            }
        })
        .collect();

    // Conflicting instructions, worst first.
    let mut conflicting: Vec<&InstIn> = a
        .instructions
        .iter()
        .filter(|i| i.wavefronts > i.ideal_wavefronts && i.worst.is_some())
        .collect();
    conflicting.sort_by(|x, y| {
        (y.wavefronts - y.ideal_wavefronts)
            .cmp(&(x.wavefronts - x.ideal_wavefronts))
            .then(x.ptx_line.cmp(&y.ptx_line))
    });
    let mut conflicts = Vec::new();
    for i in conflicting {
        let Some(w) = &i.worst else { continue };
        let op = if i.side == "store" { Op::Store } else { Op::Load };
        let lanes: [Option<u32>; 32] = std::array::from_fn(|l| {
            w.lane_offsets
                .get(l)
                .copied()
                .flatten()
                .and_then(|o| u32::try_from(o).ok())
        });
        let req = Request::new(i.width, op, &lanes);
        let b = match bank::breakdown(arch, &bank::Config::default(), &req) {
            Ok(b) => b,
            Err(e) => {
                notes.push(format!("PTX line {}: no bank picture ({e})", i.ptx_line));
                continue;
            }
        };
        if b.counts.wavefronts != w.wavefronts {
            notes.push(format!(
                "PTX line {}: the bank model gives {} wavefronts for the worst request, the analysis {}",
                i.ptx_line, b.counts.wavefronts, w.wavefronts
            ));
        }
        let per_arch = WHAT_IF_ARCHS
            .iter()
            .filter_map(|n| {
                let ar = Arch::parse(n).ok()?;
                let c = bank::wavefronts(ar, &bank::Config::default(), &req).ok()?;
                Some(ArchRow {
                    arch: n.to_string(),
                    wavefronts: c.wavefronts,
                    ideal: c.ideal,
                })
            })
            .collect();
        let place = i
            .source
            .clone()
            .unwrap_or_else(|| format!("PTX line {}", i.ptx_line));
        conflicts.push(Conflict {
            title: format!("{place}: {} ({} B per lane, {})", i.ptx, i.width, i.side),
            executions: i.instructions,
            wavefronts: i.wavefronts,
            ideal: i.ideal_wavefronts,
            breakdown: b,
            per_arch,
        });
    }

    let threads = a.block.iter().product::<u32>();
    let occupancy = match &r.resources {
        Some(res) => {
            let limits = warpscope_model::occupancy::Limits::for_arch(arch)
                .with_context(|| format!("{origin}: no occupancy preset for {}", a.arch))?;
            let mut l = warpscope_model::occupancy::Launch::new(threads, res.registers);
            l.static_smem = res.static_smem;
            l.dyn_smem = a.dyn_smem;
            l.barriers = res.barriers.max(1);
            Some(OccupancyInput {
                arch: a.arch.clone(),
                limits,
                launch: l,
            })
        }
        None => {
            if r.notes.iter().all(|n| !n.starts_with("no occupancy")) {
                notes.push("no occupancy curves: the results carry no register count".into());
            }
            None
        }
    };
    let findings = r.findings.as_ref().map(|fs| {
        fs.iter()
            .map(|f| FindingRow {
                severity: f.severity.clone(),
                kind: f.kind.clone(),
                lines: f.lines.clone(),
                count: f.count,
                message: f.message.clone(),
            })
            .collect()
    });
    let mut facts = vec![
        ("kernel".to_string(), a.kernel.clone()),
        ("grid".into(), fmt_dims(a.grid)),
        ("block".into(), fmt_dims(a.block)),
        ("dynamic shared memory".into(), format!("{} B", a.dyn_smem)),
        ("architecture".into(), a.arch.clone()),
        (
            "blocks emulated".into(),
            format!("{} of {}", a.blocks_emulated, a.blocks_in_grid),
        ),
    ];
    if let Some(res) = &r.resources {
        facts.push((
            "ptxas".into(),
            format!(
                "{} registers, {} B static shared memory",
                res.registers, res.static_smem
            ),
        ));
    }
    Ok(KernelReport {
        title: format!("warpscope report: {}", a.kernel),
        facts,
        source: SourceView {
            name,
            language: if language == "ptx" {
                "PTX".into()
            } else {
                "CUDA C++".into()
            },
            lines,
        },
        conflicts,
        occupancy,
        findings,
        notes,
    })
}

/// Reads saved results: `report --save-json` output, or a bare `analyze --format json`.
pub fn load_kernel_results(v: Value) -> KernelResults {
    if v.get("analysis").is_some() {
        if let Ok(r) = serde_json::from_value::<KernelResults>(v.clone()) {
            return r;
        }
    }
    KernelResults {
        analysis: v,
        source: None,
        resources: None,
        findings: None,
        divergence: None,
        notes: vec![],
    }
}
