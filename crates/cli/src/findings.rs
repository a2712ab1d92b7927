//! Rendering of the hazard checker's results (`check`, and `analyze --section hazards`): the JSON
//! (every finding, and the groups), the table for people (one row per group, fitting 80 columns),
//! CSV (every finding) and SARIF 2.1.0 for CI annotations.

use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};
use warpscope_analysis::global_races::{GLOBAL_SHADOW_BUDGET_BYTES, GLOBAL_SHADOW_BYTES_PER_WORD};
use warpscope_analysis::hazards::{Finding, FindingKind, SHADOW_BYTES_PER_SHARED_BYTE, Severity};
use warpscope_driver::group::Group;
use warpscope_driver::run::{Hazards, locate, user_frame};
use warpscope_emu::Program;

use crate::output::{Block, Column, Tabular, Tone};

/// One finding with its place and example threads as (x, y, z).
#[derive(Serialize)]
pub struct FindingOut {
    /// The finding.
    #[serde(flatten)]
    pub finding: Finding,
    /// Source file of `line`, when known.
    pub file: Option<String>,
    /// Example threads as (x, y, z) in their block.
    pub threads_xyz: Vec<[u32; 3]>,
}

/// One group with its example threads as (x, y, z).
#[derive(Serialize)]
pub struct GroupOut {
    /// The group.
    #[serde(flatten)]
    pub group: Group,
    /// Example threads as (x, y, z) in their block.
    pub threads_xyz: Vec<[u32; 3]>,
}

/// The hazard results as JSON and for the tables.
#[derive(Serialize)]
pub struct HazardsOut {
    /// Every finding, errors first, then by line.
    pub findings: Vec<FindingOut>,
    /// The findings grouped by kind, source lines and warp (the table's rows).
    pub groups: Vec<GroupOut>,
    /// Findings of error severity.
    pub errors: usize,
    /// Findings of warning severity.
    pub warnings: usize,
    /// Findings of note severity (advice true of this launch only).
    pub note_findings: usize,
    /// What the check does not cover, and blocks it could not finish.
    pub notes: Vec<String>,
}

/// The JSON of a run's hazards.
pub fn hazards_out(program: &Program, h: &Hazards) -> HazardsOut {
    let errors = h
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let mut notes = vec![format!(
        "race tracking keeps {SHADOW_BYTES_PER_SHARED_BYTE} bytes per shared byte per block in flight ({} bytes of shared memory per block)",
        h.config.shared_size
    )];
    notes.push(match h.global_shadow {
        Some((_, over)) => {
            let mut n = format!(
                "global memory checked too: races within a block (barriers, __syncwarp, warp collectives) and between blocks (ordered only by a .gpu release and an acquire: fences, release/acquire operations, atomics; grid.sync() in cooperative launches); launches are ordered by the stream; the global shadow keeps about {GLOBAL_SHADOW_BYTES_PER_WORD} bytes per 4-byte word touched, at most {}",
                warpscope_driver::limits::mib(GLOBAL_SHADOW_BUDGET_BYTES)
            );
            if over {
                n.push_str("; the budget was reached, so words touched after that were not checked");
            }
            n
        }
        None => "shared memory only (--no-global-races): ordering of global memory between threads and blocks is not checked".to_string(),
    });
    notes.extend(h.unchecked.iter().cloned());
    let (pairs, bytes) = h.same_value_hidden;
    if pairs > 0 {
        notes.push(format!(
            "{pairs} same-value write(s) not reported ({bytes} byte accesses where threads wrote the bytes another thread had written, unordered): --report-same-value-writes lists them"
        ));
    }
    HazardsOut {
        findings: h
            .findings
            .iter()
            .map(|f| FindingOut {
                finding: f.clone(),
                file: f.pcs.last().and_then(|&pc| locate(program, pc).1),
                threads_xyz: f
                    .example
                    .threads
                    .iter()
                    .map(|&t| h.config.thread_xyz(t))
                    .collect(),
            })
            .collect(),
        groups: h
            .groups
            .iter()
            .map(|g| GroupOut {
                group: g.clone(),
                threads_xyz: g
                    .example
                    .threads
                    .iter()
                    .map(|&t| h.config.thread_xyz(t))
                    .collect(),
            })
            .collect(),
        errors,
        warnings: h
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count(),
        note_findings: h.findings.iter().filter(|f| f.severity == Severity::Note).count(),
        notes,
    }
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The width the findings table keeps to.
pub const TABLE_WIDTH: u16 = 80;

/// The blocks of the hazard results: for people one row per group (80 columns, messages wrapped),
/// for CSV one row per finding; the summary and the notes.
pub fn blocks(kernel: &str, h: &HazardsOut) -> Vec<Block> {
    let columns = vec![
        Column::new("severity", "severity"),
        Column::new("kind", "kind"),
        Column::new("line", "lines"),
        Column::new("count", "count"),
        Column::new("finding", "message"),
    ];
    let mut shown = Tabular::new("", columns.clone());
    shown.max_width = Some(TABLE_WIDTH);
    for g in &h.groups {
        let g = &g.group;
        let tone = match g.severity {
            Severity::Error => Tone::Bad,
            Severity::Warning => Tone::Warn,
            Severity::Note => Tone::Plain,
        };
        let lines: Vec<String> = g.lines.iter().map(u32::to_string).collect();
        let mut message = g.message.clone();
        if g.findings > 1 {
            let what = if matches!(
                g.kind,
                FindingKind::Race | FindingKind::GlobalRace | FindingKind::SameValueWrite
            ) {
                "instruction pairs"
            } else {
                "instructions"
            };
            message.push_str(&format!(" [{} {what} like this]", g.findings));
        }
        shown.toned_row(vec![
            (severity_name(g.severity).to_string(), tone),
            (g.kind.name().to_string(), Tone::Plain),
            (lines.join(","), Tone::Plain),
            (g.count.to_string(), Tone::Plain),
            (message, Tone::Plain),
        ]);
    }
    let mut csv = Tabular::new("", columns);
    for f in &h.findings {
        let f = &f.finding;
        let lines: Vec<String> = f.lines.iter().map(u32::to_string).collect();
        csv.row([
            severity_name(f.severity).to_string(),
            f.kind.name().to_string(),
            lines.join(","),
            f.count.to_string(),
            f.message.clone(),
        ]);
    }
    let mut blocks = Vec::new();
    if h.findings.is_empty() {
        blocks.push(Block::Text(format!("{kernel}: no findings")));
    } else {
        blocks.push(Block::ShownTable(shown));
        let grouped = if h.groups.len() < h.findings.len() {
            format!(
                " in {} rows ({} findings; --format json or csv lists each)",
                h.groups.len(),
                h.findings.len()
            )
        } else {
            String::new()
        };
        let notes = if h.note_findings > 0 {
            format!(", {} note(s)", h.note_findings)
        } else {
            String::new()
        };
        blocks.push(Block::Text(format!(
            "{kernel}: {} error(s), {} warning(s){notes}{grouped}",
            h.errors, h.warnings
        )));
    }
    // CSV readers get the header line even with no findings.
    blocks.push(Block::CsvTable(csv));
    blocks.push(Block::Notes(h.notes.clone()));
    blocks
}

/// The SARIF rule of a finding kind: (id, short description).
fn rule(kind: FindingKind) -> (&'static str, &'static str) {
    match kind {
        FindingKind::Race => (
            "race",
            "Two accesses to one shared-memory byte from different threads, at least one a write, not ordered by a barrier",
        ),
        FindingKind::GlobalRace => (
            "global_race",
            "Two accesses to one global-memory byte from different threads, at least one a write, not ordered by a barrier or by release/acquire synchronisation",
        ),
        FindingKind::DivergentBarrier => ("divergent_barrier", "A barrier reached by only part of the block"),
        FindingKind::UninitializedRead => (
            "uninitialized_read",
            "A shared-memory read of bytes never written in the launch",
        ),
        FindingKind::UninitializedGlobalRead => (
            "uninitialized_global_read",
            "A global-memory read of bytes nothing wrote (no copy, memset or store before it)",
        ),
        FindingKind::OutOfBounds => (
            "out_of_bounds",
            "A shared or global access outside its allocation",
        ),
        FindingKind::RedundantBarrier => (
            "redundant_barrier",
            "A barrier whose removal makes no race in the emulated launch",
        ),
        FindingKind::SameValueWrite => (
            "same_value_write",
            "Two threads write the same bytes to one shared- or global-memory address, unordered",
        ),
        FindingKind::Fault => (
            "fault",
            "The launch stops on a GPU: a trap, an illegal instruction, a store to read-only memory",
        ),
        FindingKind::Assert => ("assert", "A failing device-side assert: the launch stops"),
        FindingKind::WgmmaAccumulator => (
            "wgmma_accumulator",
            "A wgmma accumulator register used before wgmma.wait_group retired its group",
        ),
        FindingKind::MissingWgmmaFence => (
            "missing_wgmma_fence",
            "A wgmma.mma_async with no wgmma.fence before it, or after another access to its accumulator or A registers",
        ),
        FindingKind::MissingProxyFence => (
            "missing_proxy_fence",
            "Shared bytes written through the generic proxy read by the asynchronous proxy (wgmma, TMA store) with no fence.proxy.async between",
        ),
        FindingKind::ExitBeforeRemoteAccess => (
            "exit_before_remote_access",
            "An access to another block's shared memory in a thread-block cluster that nothing orders before that block's exit",
        ),
        FindingKind::StreamRace => (
            "stream_race",
            "Two launches or copies on streams that no event or synchronisation orders touch one global-memory byte, at least one writing it",
        ),
    }
}

const KINDS: [FindingKind; 15] = [
    FindingKind::Race,
    FindingKind::GlobalRace,
    FindingKind::DivergentBarrier,
    FindingKind::UninitializedRead,
    FindingKind::UninitializedGlobalRead,
    FindingKind::OutOfBounds,
    FindingKind::RedundantBarrier,
    FindingKind::SameValueWrite,
    FindingKind::Fault,
    FindingKind::Assert,
    FindingKind::WgmmaAccumulator,
    FindingKind::MissingWgmmaFence,
    FindingKind::MissingProxyFence,
    FindingKind::ExitBeforeRemoteAccess,
    FindingKind::StreamRace,
];

/// SARIF 2.1.0 of `warpscope run --check`: one result per finding of a launch (its kernel and
/// launch number in `properties`) and of the program; `source`: the `.cu` file the lines are in,
/// when the run built it (a built binary's findings carry their line in the message only).
pub fn run_sarif(
    recs: &[warpscope_cudart::LaunchRecord],
    program_findings: &[warpscope_cudart::analysis::Finding],
    source: Option<&Path>,
) -> Value {
    let mut kinds: Vec<&str> = Vec::new();
    let all = recs
        .iter()
        .flat_map(|r| r.analysis.findings.iter().map(move |f| (Some(r), f)))
        .chain(program_findings.iter().map(|f| (None, f)));
    let mut results = Vec::new();
    for (r, f) in all {
        let index = match kinds.iter().position(|k| *k == f.kind) {
            Some(i) => i,
            None => {
                kinds.push(&f.kind);
                kinds.len() - 1
            }
        };
        let who = r.map_or_else(
            || "(program)".to_string(),
            |r| r.kernel.split('(').next().unwrap_or(&r.kernel).trim().to_string(),
        );
        let mut res = json!({
            "ruleId": f.kind,
            "ruleIndex": index,
            "level": f.severity,
            "message": { "text": format!("{who}: {}", f.message) },
        });
        if let (Some(src), Some(line)) = (source, f.line) {
            res["locations"] = json!([{
                "physicalLocation": {
                    "artifactLocation": { "uri": crate::output::relative(&src.display().to_string()) },
                    "region": { "startLine": line },
                }
            }]);
        }
        if let Some(r) = r {
            res["properties"] = json!({ "kernel": r.kernel, "launch": r.index });
        }
        results.push(res);
    }
    let rules: Vec<Value> = kinds
        .iter()
        .map(|&k| {
            let text = KINDS.iter().find(|x| x.name() == k).map_or_else(
                || format!("`{k}`, as `warpscope run --check` reports it"),
                |&x| rule(x).1.to_string(),
            );
            json!({ "id": k, "name": k, "shortDescription": { "text": text } })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "warpscope",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "results": results,
        }],
    })
}

/// The path a SARIF result names for a source file the PTX calls `name`: relative to the current
/// directory when under it; the input's path when the PTX names only its base name (NVRTC).
fn artifact(name: &str, input: &Path) -> String {
    let input_base = input.file_name().and_then(|n| n.to_str());
    let path = if !name.contains('/') && input_base == Some(name) {
        input.display().to_string()
    } else {
        name.to_string()
    };
    crate::output::relative(&path)
}

/// SARIF 2.1.0: one result per group of findings (the table's rows), with the rule id, level, the
/// message, the source file and line of the last access, the other lines as related locations, and
/// the counts as properties.
pub fn sarif(program: &Program, input: &Path, kernel: &str, h: &Hazards) -> Value {
    let rules: Vec<Value> = KINDS
        .iter()
        .map(|&k| {
            let (id, text) = rule(k);
            json!({
                "id": id,
                "name": id,
                "shortDescription": { "text": text },
                "defaultConfiguration": { "level": if matches!(k, FindingKind::RedundantBarrier | FindingKind::SameValueWrite) { "warning" } else { "error" } },
            })
        })
        .collect();
    let place = |l: warpscope_emu::SrcLoc| -> Option<Value> {
        let file = program.file_name(l.file)?;
        Some(json!({
            "physicalLocation": {
                "artifactLocation": { "uri": artifact(file, input) },
                "region": { "startLine": l.line },
            }
        }))
    };
    // the user's line (the caller of an inlined CUDA header's code), as the findings name it
    let location = |pc: u32| -> Option<Value> {
        let i = user_frame(program, pc)?;
        place(program.frames(pc)[i])
    };
    // the inlined header lines under the user's line, innermost first
    let header_lines = |pc: u32| -> Vec<Value> {
        let i = user_frame(program, pc).unwrap_or(0);
        program.frames(pc)[..i].iter().filter_map(|&l| place(l)).collect()
    };
    let ptx_location = |pc: u32| -> Value {
        json!({
            "physicalLocation": {
                "artifactLocation": { "uri": crate::output::relative(&input.display().to_string()) },
                "region": { "startLine": program.inst_info(pc).ptx_line },
            }
        })
    };
    let results: Vec<Value> = h
        .groups
        .iter()
        .map(|g| {
            let first = &h.findings[g.members[0]];
            let main_pc = first.pcs.last().copied().unwrap_or(0);
            let main = location(main_pc).unwrap_or_else(|| ptx_location(main_pc));
            let mut related: Vec<Value> = header_lines(main_pc);
            related.extend(first.pcs.iter().rev().skip(1).filter_map(|&pc| location(pc)));
            let (id, _) = rule(g.kind);
            let level = severity_name(g.severity);
            let mut text = format!("{kernel}: {}", g.message);
            if g.findings > 1 {
                text.push_str(&format!(
                    " ({} instruction pairs, {} occurrences)",
                    g.findings, g.count
                ));
            }
            let mut r = json!({
                "ruleId": id,
                "ruleIndex": KINDS.iter().position(|&k| k == g.kind).unwrap_or(0),
                "level": level,
                "message": { "text": text },
                "locations": [main],
                "properties": {
                    "kernel": kernel,
                    "count": g.count,
                    "findings": g.findings,
                    "sameWarp": g.same_warp,
                },
            });
            if !related.is_empty() {
                r["relatedLocations"] = Value::Array(related);
            }
            r
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "warpscope",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": env!("CARGO_PKG_REPOSITORY"),
                    "rules": rules,
                }
            },
            "results": results,
        }]
    })
}
