//! The HTML page of one launch (`warpscope report`): the driver's results of one run (every
//! section) gathered in [`KernelResults`] (serialisable, so `report --save-json` / `--from`
//! round-trip), and the conversion of those results into the report crate's document. Rendering
//! only: the pipeline is the driver's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use warpscope_analysis::banks;
use warpscope_analysis::fix;
use warpscope_analysis::hazards::Severity;
use warpscope_driver::{Analyzed, Request};
use warpscope_model::arch::Arch;
use warpscope_model::bank::{self, Op, Request as BankRequest};
use warpscope_report::kernel::{
    ArchRow, Conflict, FindingRow, FixView, KernelReport, LineCost, OccupancyInput, SourceLine, SourceView,
};

use crate::output::relative;
use crate::render::analysis as analyze;

pub use warpscope_driver::Resources;

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

/// The worst request of an array, before and after a suggested change (lane byte offsets in the
/// block's shared window; null = inactive lane).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FixRequest {
    /// Program pc of the instruction.
    pub pc: u32,
    /// Source line and PTX text of the instruction.
    pub what: String,
    /// Bytes per lane.
    pub width: u8,
    /// `load` or `store`.
    pub side: String,
    /// Lane offsets as the kernel is written.
    pub before: Vec<Option<u32>>,
    /// Lane offsets after the change.
    pub after: Vec<Option<u32>>,
}

/// One suggestion of the fix advisor (`warpscope fix`), with its worst request.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FixOut {
    /// Array (source name).
    pub array: String,
    /// `pad` or `swizzle`.
    pub kind: String,
    /// The change in words.
    pub change: String,
    /// The advisor's choice for the array.
    pub recommended: bool,
    /// Wavefronts of the array's accesses over the launch, before.
    pub wavefronts_before: u64,
    /// After.
    pub wavefronts_after: u64,
    /// Conflict-free wavefronts.
    pub ideal: u64,
    /// Extra shared memory per block.
    pub extra_shared_bytes: u32,
    /// The source edit, as text.
    pub edit: Option<String>,
    /// The array's worst request before and after (`None`: no access recorded).
    pub request: Option<FixRequest>,
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
    /// Fix suggestions for the conflicting arrays (`None`: not run).
    #[serde(default)]
    pub fixes: Option<Vec<FixOut>>,
    /// What is missing and why.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// The fix advisor's suggestions of a run, with the worst request of each suggestion's array
/// before and after the change.
fn fix_suggestions(a: &Analyzed) -> anyhow::Result<Vec<FixOut>> {
    let program = &a.module.program;
    let arch = a.results.arch;
    let f = a.results.fix.as_ref().context("the fix advisor did not run")?;
    let advice = f.advice.clone().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = Vec::new();
    for s in &advice.suggestions {
        let Some(i) = f.arrays.iter().position(|a| a.name == s.array) else {
            continue;
        };
        let worst = fix::picture::worst_pair(arch, &f.trace, &f.arrays, i, &s.transform);
        let request = worst.map(|w| {
            let info = program.inst_info(w.pc);
            let place = info
                .loc
                .map(|l| {
                    format!(
                        "{}:{}",
                        base_name(program.file_name(l.file).unwrap_or("?")),
                        l.line
                    )
                })
                .unwrap_or_else(|| format!("PTX line {}", info.ptx_line));
            FixRequest {
                pc: w.pc,
                what: format!("{place} {}", info.text.trim()),
                width: w.width,
                side: if w.side == banks::Side::Store {
                    "store"
                } else {
                    "load"
                }
                .into(),
                before: w.before.to_vec(),
                after: w.after.to_vec(),
            }
        });
        let edit = fix::picture::edit_text(s);
        out.push(FixOut {
            array: s.array.clone(),
            kind: s.kind.clone(),
            change: s.change.clone(),
            recommended: s.recommended,
            wavefronts_before: s.wavefronts_before,
            wavefronts_after: s.wavefronts_after,
            ideal: s.ideal,
            extra_shared_bytes: s.extra_shared_bytes,
            edit,
            request,
        });
    }
    Ok(out)
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

/// Runs the analyses of one launch (one emulation, every section) and gathers what the page
/// shows; `source` is the CUDA source to show (default: the `.cu` given, or the PTX's `.file`).
pub fn analyse(req: &Request, source: Option<&Path>) -> anyhow::Result<KernelResults> {
    let bar = crate::output::progress_bar(2, "report");
    bar.set_message("one emulation: banks, divergence, hazards, fix");
    let a = crate::launch::analyze(req)?;
    bar.inc(1);
    let program = &a.module.program;
    let mut notes = Vec::new();
    let analysis = serde_json::to_value(analyze::build(program, &a.results, &a.note))?;

    // Source to show.
    let shown = if let Some(p) = source {
        let t = std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
        Some((p.to_path_buf(), t))
    } else if let Some(t) = &a.module.cuda_source {
        Some((a.module.path.clone(), t.clone()))
    } else {
        source_from_ptx(program, &a.module.path)
    };
    let ptx_view = shown.is_none();
    if ptx_view {
        notes.push("the CUDA source named by the PTX's .file directive was not found: showing the PTX (pass --source FILE.cu)".into());
    }
    let source = Some(match shown {
        Some((p, t)) => SourceText {
            name: p.display().to_string(),
            language: "cuda".into(),
            text: t,
        },
        None => SourceText {
            name: a.module.path.display().to_string(),
            language: "ptx".into(),
            text: a.module.ptx.clone(),
        },
    });

    // Divergence per line (PTX lines when the PTX is shown).
    let divergence = a.results.divergence.as_ref().map(|rep| {
        let line_of = |pc: u32| {
            let info = program.inst_info(pc);
            if ptx_view {
                Some(info.ptx_line)
            } else {
                info.loc.map(|l| l.line)
            }
        };
        rep.by_line(&line_of)
            .into_iter()
            .filter_map(|l| {
                Some(LineDivergence {
                    line: l.line?,
                    branch_efficiency_pct: l.branch_efficiency_pct,
                    utilisation_pct: l.utilisation_pct,
                })
            })
            .collect()
    });

    // Hazards, grouped as `check` shows them.
    let findings = a.results.hazards.as_ref().map(|h| {
        h.groups
            .iter()
            .map(|g| FindingOut {
                severity: match g.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "note",
                }
                .into(),
                kind: g.kind.name().into(),
                lines: g.lines.clone(),
                count: g.count,
                message: g.message.clone(),
            })
            .collect()
    });

    let resources = match &a.resources {
        Some(Ok(r)) => Some(r.clone()),
        Some(Err(why)) => {
            notes.push(format!("no occupancy curves: registers unknown ({why})"));
            None
        }
        None => None,
    };
    let fixes = match fix_suggestions(&a) {
        Ok(f) => Some(f),
        Err(e) => {
            notes.push(format!("no fix suggestions: {e:#}"));
            None
        }
    };
    bar.inc(1);
    bar.finish_and_clear();
    Ok(KernelResults {
        analysis,
        source,
        resources,
        findings,
        divergence,
        fixes,
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
        let req = BankRequest::new(i.width, op, &lanes);
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
            title: relative(&format!(
                "{place}: {} ({} B per lane, {})",
                i.ptx, i.width, i.side
            )),
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
    let fixes = r.fixes.as_ref().map(|fs| {
        let mut views = Vec::new();
        for f in fs {
            let Some(q) = &f.request else { continue };
            let op = if q.side == "store" { Op::Store } else { Op::Load };
            let req = |lanes: &[Option<u32>]| {
                let l: [Option<u32>; 32] = std::array::from_fn(|i| lanes.get(i).copied().flatten());
                bank::breakdown(arch, &bank::Config::default(), &BankRequest::new(q.width, op, &l))
            };
            match (req(&q.before), req(&q.after)) {
                (Ok(before), Ok(after)) => views.push(FixView {
                    title: format!(
                        "{}: {}{}",
                        f.array,
                        f.kind,
                        if f.recommended { " (recommended)" } else { " (alternative)" }
                    ),
                    summary: format!(
                        "{}: the array's accesses take {} wavefronts instead of {} (ideal {}), for {} more bytes of shared memory per block.",
                        f.change, f.wavefronts_after, f.wavefronts_before, f.ideal, f.extra_shared_bytes
                    ),
                    edit: f.edit.clone(),
                    request: relative(&q.what),
                    before,
                    after,
                }),
                (Err(e), _) | (_, Err(e)) => {
                    notes.push(format!("{} {}: no before/after picture ({e})", f.array, f.kind))
                }
            }
        }
        views
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
            name: relative(&name),
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
        fixes,
        notes: notes.iter().map(|n| relative(n)).collect(),
    })
}

/// Reads saved results: `report --save-json` output, or a bare `analyze --format json`.
pub fn load_kernel_results(v: Value) -> KernelResults {
    if v.get("analysis").is_some()
        && let Ok(r) = serde_json::from_value::<KernelResults>(v.clone())
    {
        return r;
    }
    KernelResults {
        analysis: v,
        source: None,
        resources: None,
        findings: None,
        divergence: None,
        fixes: None,
        notes: vec![],
    }
}
