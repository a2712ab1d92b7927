//! `warpscope run --report FILE.html`: the run as a self-contained page: the program's picture
//! (every launch's wavefronts against the ideal, branch efficiency and modelled time) and a
//! per-kernel summary, then per kernel its launches, its source annotated with wavefronts,
//! divergence and findings per line, the bank picture of each conflicting line's worst request,
//! the fix's before/after (with `--fix`) and the measured comparison.

use std::collections::BTreeMap;
use std::path::PathBuf;

use warpscope_report::chart::{LineChart, Series, render_svg};
use warpscope_report::kernel::{LineCost, SourceLine, SourceView, source_html};

use crate::run_export::{Export, dims, fmt_value};
use crate::run_html_kernel as pictures;

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
/// efficiency and modelled time (SVG; `None` with fewer than two launches or when drawing fails).
fn launches_chart(e: &Export<'_>) -> Option<String> {
    if e.launches.len() < 2 {
        return None;
    }
    let mut waves = Vec::new();
    let mut ideal = Vec::new();
    let mut branch = Vec::new();
    let mut time = Vec::new();
    for l in &e.launches {
        let x = l.id as f64;
        let w = pictures::shared_wavefronts(l);
        time.push((x, pictures::modelled(l).total_us));
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
            .series(Series::new("wavefronts", waves).with_markers())
            .series(Series::new("ideal (no bank conflict)", ideal).with_markers()),
    ];
    if !branch.is_empty() {
        charts.push(
            LineChart::new("Branch efficiency per launch", "launch", "%")
                .series(Series::new("branch efficiency", branch).with_markers())
                .y_range(0.0, 105.0),
        );
    }
    charts.push(
        LineChart::new(
            "Modelled time per launch (a model, H100 rates)",
            "launch",
            "µs (modelled)",
        )
        .series(Series::new("modelled time", time).with_markers()),
    );
    // side by side, each 440 x 300
    render_svg(&charts, 440, 300).ok()
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
    // divergence: the lowest of the launches' (each launch records only what got worse)
    for l in e.launches.iter().filter(|l| l.kernel == kernel) {
        for d in l.divergence_lines {
            let c = per_file
                .entry(d.file.clone())
                .or_default()
                .entry(d.line)
                .or_default();
            if let Some(b) = d.branch_efficiency_pct {
                c.branch_efficiency_pct = Some(c.branch_efficiency_pct.map_or(b, |h| h.min(b)));
            }
            c.utilisation_pct = Some(
                c.utilisation_pct
                    .map_or(d.utilisation_pct, |h| h.min(d.utilisation_pct)),
            );
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

/// A kernel's anchor on the page: its name up to the parameters, letters, digits and `_` only
/// (`setColReadCol(int *)`: `#setColReadCol`).
fn anchor(kernel: &str) -> String {
    kernel
        .split('(')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The `--report` page: the program, its per-kernel summary and its picture (every launch's shared
/// wavefronts against the ideal, branch efficiency and modelled time), then one section per kernel
/// (its launches' counters and modelled time, its source annotated with wavefronts, divergence and
/// findings per line, the bank picture of each conflicting line's worst request, fix advice with
/// its before/after, findings), then the notes. Sources are looked for by name in `dirs`.
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
        .chain(["modelled µs".to_string(), "bound".to_string()])
        .collect();
    let mut notes: Vec<String> = Vec::new();
    let (summary_headers, summary) = pictures::summary_rows(e, &kernels);
    let body = html! {
        p { "Program " code { (e.program) } " " (e.args.join(" ")) ", exit status "
            (e.exit_status.map(|c| c.to_string()).unwrap_or_else(|| "none (signal)".into()))
            ", predicted for " (e.arch) "." }
        @if !summary.is_empty() {
            h2 { "Kernels" }
            (warpscope_report::html::table(&summary_headers, &summary))
        }
        @if let Some(svg) = launches_chart(e) {
            (warpscope_report::html::figure(&svg, "Every launch: shared-memory wavefronts against the conflict-free ideal, branch efficiency, and modelled time"))
        }
        p.note { (pictures::TIME_NOTE) }
        @for k in &kernels {
            h2 id=(anchor(k)) { (k) }
            @let rows: Vec<Vec<String>> = e.launches.iter().filter(|l| l.kernel == *k).map(|l| {
                let t = pictures::modelled(l);
                // a kernel a kernel launched: the launching grid, block and thread after its id
                [l.parent.map_or_else(|| l.id.to_string(), |p| format!("{} ← {}", l.id, crate::run_export::parent_label(p))), dims(l.grid), dims(l.block), l.dyn_smem.to_string()]
                    .into_iter()
                    .chain(columns.iter().map(|(c, _)| l.metrics.get(c).map(|v| fmt_value(*v)).unwrap_or_else(|| "-".into())))
                    .chain([format!("{:.2}", t.total_us), t.bound.to_string()])
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
                p.note { "Sums over the kernel's launches; branch efficiency (PTX branches) and lanes active: the lowest of its launches, blank where the line never diverged." }
                (source_html(&view))
            }
            @let conflicts = pictures::conflicts(e, k, 4, &mut notes);
            @if !conflicts.is_empty() {
                h3 { "Bank picture of each conflicting line's worst request" }
                @match warpscope_report::kernel::conflicts_html(&conflicts) {
                    Ok(m) => { (m) }
                    Err(err) => { p.note { "no bank picture: " (err.0) } }
                }
            }
            @for l in e.launches.iter().filter(|l| l.kernel == *k) {
                @if let Some(fix) = l.fix {
                    h3 { "Fix advice (recorded on launch " (l.id) ")" }
                    @if fix.suggestions.is_empty() { p { "No shared array has a bank conflict to fix." } }
                    @else {
                        (warpscope_report::html::table(&fix_headers(), &fix_rows(fix)))
                        @let views = pictures::fix_views(e, l, &fix.suggestions, &mut notes);
                        @if !views.is_empty() {
                            @match warpscope_report::kernel::fixes_html(&views) {
                                Ok(m) => { (m) }
                                Err(err) => { p.note { "no before/after picture: " (err.0) } }
                            }
                        }
                    }
                    @if !fix.notes.is_empty() { ul { @for n in &fix.notes { li { (n) } } } }
                }
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
            @for n in &notes { li { (n) } }
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
