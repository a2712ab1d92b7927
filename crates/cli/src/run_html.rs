//! `warpscope run --report FILE.html`: the run as a self-contained page (the report crate's lab
//! page): per kernel its launches, shared-memory lines, fix advice and the measured comparison.

use std::collections::BTreeMap;
use std::path::PathBuf;

use warpscope_report::chart::{LineChart, Series, render_svg};
use warpscope_report::kernel::{LineCost, SourceLine, SourceView, source_html};

use crate::run_export::{Export, dims, fmt_value};

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

fn metric(l: &crate::run_export::LaunchOut<'_>, name: &str) -> f64 {
    l.metrics.get(name).copied().unwrap_or(0.0)
}

/// The program's picture: per launch, shared wavefronts beside the conflict-free ideal, and branch
/// efficiency (SVG; `None` with fewer than one launch or when drawing fails).
fn launches_chart(e: &Export<'_>) -> Option<String> {
    if e.launches.is_empty() {
        return None;
    }
    let mut waves = Vec::new();
    let mut ideal = Vec::new();
    let mut branch = Vec::new();
    for l in &e.launches {
        let x = l.id as f64;
        let w = metric(l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
            + metric(l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
        let excess = metric(l, "warpscope__shared_ld_excess_wavefronts.sum")
            + metric(l, "warpscope__shared_st_excess_wavefronts.sum");
        waves.push((x, w));
        ideal.push((x, (w - excess).max(0.0)));
        if let Some(b) = l.metrics.get("branch_efficiency") {
            branch.push((x, *b));
        }
    }
    let mut charts = vec![
        LineChart::new("Shared-memory wavefronts per launch", "launch", "wavefronts")
            .series(Series::new("wavefronts", waves))
            .series(Series::new("ideal (no bank conflict)", ideal)),
    ];
    if !branch.is_empty() {
        charts.push(
            LineChart::new("Branch efficiency per launch", "launch", "%")
                .series(Series::new("branch efficiency", branch))
                .y_range(0.0, 105.0),
        );
    }
    let h = 260 * charts.len() as u32;
    render_svg(&charts, 900, h).ok()
}

/// The source file `name` (a base name, as the line tables give it) in one of `dirs`.
fn find_source(name: &str, dirs: &[PathBuf]) -> Option<(PathBuf, String)> {
    if name.is_empty() {
        return None;
    }
    dirs.iter()
        .map(|d| d.join(name))
        .find_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
}

/// A kernel's source files, annotated with its launches' shared-memory counts per line (sums) and
/// its findings on their lines; only lines within a few of a counted or flagged line are kept.
fn annotated_sources(e: &Export<'_>, kernel: &str, dirs: &[PathBuf]) -> Vec<SourceView> {
    let mut per_file: BTreeMap<String, BTreeMap<u32, LineCost>> = BTreeMap::new();
    for l in e.launches.iter().filter(|l| l.kernel == kernel) {
        for s in l.shared_lines {
            let c = per_file
                .entry(s.file.clone())
                .or_default()
                .entry(s.line)
                .or_default();
            c.executions += s.instructions;
            c.wavefronts += s.wavefronts;
            c.ideal += s.ideal_wavefronts;
            if s.ideal_wavefronts > 0 {
                c.worst_ways = c.worst_ways.max(s.wavefronts as f64 / s.ideal_wavefronts as f64);
            }
        }
    }
    // findings name a line, not a file: they go to the kernel's file with shared lines, else the
    // first file found
    let first_file = per_file.keys().next().cloned();
    let mut views = Vec::new();
    for (file, mut costs) in per_file {
        let Some((path, text)) = find_source(&file, dirs) else {
            continue;
        };
        if Some(&file) == first_file.as_ref() {
            for l in e.launches.iter().filter(|l| l.kernel == kernel) {
                for f in &l.findings {
                    if let Some(n) = f.line {
                        let c = costs.entry(n).or_default();
                        let text = format!("{} {}", f.severity, f.kind);
                        if !c.findings.contains(&text) {
                            c.findings.push(text);
                        }
                    }
                }
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        let keep = |n: u32| costs.keys().any(|&k| n + 3 >= k && n <= k + 3);
        views.push(SourceView {
            name: path.display().to_string(),
            language: "CUDA C++".into(),
            lines: lines
                .iter()
                .enumerate()
                .map(|(i, t)| (i as u32 + 1, *t))
                .filter(|(n, _)| keep(*n))
                .map(|(n, t)| SourceLine {
                    number: n,
                    text: t.to_string(),
                    cost: costs.get(&n).cloned().unwrap_or_default(),
                })
                .collect(),
        });
    }
    views
}

/// The `--report` page: the program and its picture (every launch's shared wavefronts against the
/// ideal, and branch efficiency), then one section per kernel (its launches' counters, its source
/// annotated with wavefronts and findings per line, fix advice, findings), then the notes. Sources
/// are looked for by name in `dirs`.
pub fn html_report(e: &Export<'_>, columns: &[(String, String)], dirs: &[PathBuf]) -> String {
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
        @if let Some(svg) = launches_chart(e) {
            (warpscope_report::html::figure(&svg, "Every launch: shared-memory wavefronts against the conflict-free ideal, and branch efficiency"))
        }
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
            @for view in annotated_sources(e, k, dirs) {
                h3 { "Source: " (view.name) }
                (source_html(&view))
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
