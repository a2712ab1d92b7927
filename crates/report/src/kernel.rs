//! The report of one analysed kernel launch: annotated source, bank heatmaps of the conflicting
//! instructions, occupancy curves and the hazard findings. The CLI fills a [`KernelReport`] from an
//! analysis (or from saved JSON); [`KernelReport::to_html`] draws it.

use maud::{Markup, html};
use warpscope_model::bank::Breakdown;
use warpscope_model::occupancy::{Launch, Limits};

use crate::chart::{ChartError, render_svg};
use crate::curves::occupancy_charts;
use crate::heatmap::heatmap_svg;
use crate::html::{figure, heat, page};

/// Costs attached to one source line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineCost {
    /// Shared-memory requests (warp-level executions of shared loads and stores) on the line.
    pub executions: u64,
    /// Shared-memory wavefronts.
    pub wavefronts: u64,
    /// Wavefronts without bank conflicts.
    pub ideal: u64,
    /// Largest wavefronts / ideal of any request on the line (0: no shared access).
    pub worst_ways: f64,
    /// Branch efficiency of the line's branches, percent (`None`: no branch or not measured).
    pub branch_efficiency_pct: Option<f64>,
    /// Active lanes over 32 per executed instruction, percent (`None`: not measured).
    pub utilisation_pct: Option<f64>,
    /// Findings on the line, one line of text each.
    pub findings: Vec<String>,
}

/// One line of the source view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceLine {
    /// 1-based line number.
    pub number: u32,
    /// The text.
    pub text: String,
    /// Its costs.
    pub cost: LineCost,
}

/// The annotated source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceView {
    /// File name shown.
    pub name: String,
    /// `CUDA C++` or `PTX`.
    pub language: String,
    /// Every line, in order.
    pub lines: Vec<SourceLine>,
}

/// Wavefronts of the same request on another architecture.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchRow {
    /// Architecture (`sm_90`, `sm_35 (8-byte banks)`, ...).
    pub arch: String,
    /// Wavefronts.
    pub wavefronts: u32,
    /// Ideal wavefronts.
    pub ideal: u32,
}

/// A conflicting instruction and the bank picture of its worst request.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// What it is (source line and PTX text).
    pub title: String,
    /// Warp-level executions.
    pub executions: u64,
    /// Wavefronts over the launch.
    pub wavefronts: u64,
    /// Ideal wavefronts over the launch.
    pub ideal: u64,
    /// The worst request's breakdown.
    pub breakdown: Breakdown,
    /// The same request on other architectures.
    pub per_arch: Vec<ArchRow>,
}

/// What the occupancy curves are drawn for.
#[derive(Clone, Debug, PartialEq)]
pub struct OccupancyInput {
    /// Architecture name.
    pub arch: String,
    /// Its limits.
    pub limits: Limits,
    /// The kernel's launch (threads, registers from ptxas, shared memory).
    pub launch: Launch,
}

/// A hazard finding.
#[derive(Clone, Debug, PartialEq)]
pub struct FindingRow {
    /// `error` or `warning`.
    pub severity: String,
    /// Kind name.
    pub kind: String,
    /// Source lines.
    pub lines: Vec<u32>,
    /// How many times.
    pub count: u64,
    /// Explanation.
    pub message: String,
}

/// A suggested layout change of one shared array, with the worst request of the array before and
/// after it.
#[derive(Clone, Debug, PartialEq)]
pub struct FixView {
    /// Array, kind and whether it is the recommended change.
    pub title: String,
    /// The change in words and its effect over the launch (wavefronts, extra bytes, occupancy).
    pub summary: String,
    /// The source edit, as text (`line N: before -> after`, or the index expression).
    pub edit: Option<String>,
    /// What the request is (source line and PTX).
    pub request: String,
    /// The worst request before the change.
    pub before: Breakdown,
    /// The same request after the change.
    pub after: Breakdown,
}

/// Everything the kernel report shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelReport {
    /// Page title.
    pub title: String,
    /// Launch facts as (name, value).
    pub facts: Vec<(String, String)>,
    /// The annotated source.
    pub source: SourceView,
    /// Conflicting instructions, worst first.
    pub conflicts: Vec<Conflict>,
    /// Occupancy curves, when the kernel's resources are known.
    pub occupancy: Option<OccupancyInput>,
    /// Findings of the hazard checker (`None`: not run).
    pub findings: Option<Vec<FindingRow>>,
    /// Fix suggestions (`None`: the advisor did not run).
    pub fixes: Option<Vec<FixView>>,
    /// Notes (what is missing and why, where widths come from, ...).
    pub notes: Vec<String>,
}

fn fmt_pct(p: Option<f64>) -> String {
    p.map_or_else(String::new, |p| format!("{p:.0}%"))
}

fn fmt_ways(x: f64) -> String {
    if x == 0.0 {
        String::new()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The annotated source as a table (rows coloured by excess wavefronts), as the kernel page shows
/// it; for pages that show several kernels' sources.
pub fn source_html(source: &SourceView) -> Markup {
    KernelReport {
        title: String::new(),
        facts: Vec::new(),
        source: source.clone(),
        conflicts: Vec::new(),
        occupancy: None,
        findings: None,
        fixes: None,
        notes: Vec::new(),
    }
    .source_table()
}

/// The conflicting requests' bank pictures (with their what-if tables), as the kernel page draws
/// them; for pages that show several kernels.
pub fn conflicts_html(conflicts: &[Conflict]) -> Result<Markup, ChartError> {
    KernelReport {
        conflicts: conflicts.to_vec(),
        ..KernelReport::default()
    }
    .conflicts()
}

/// The fix suggestions with each one's worst request before and after the change, as the kernel
/// page draws them; for pages that show several kernels.
pub fn fixes_html(fixes: &[FixView]) -> Result<Markup, ChartError> {
    KernelReport {
        fixes: Some(fixes.to_vec()),
        ..KernelReport::default()
    }
    .fixes_section()
}

impl KernelReport {
    fn source_table(&self) -> Markup {
        let max_excess = self
            .source
            .lines
            .iter()
            .map(|l| l.cost.wavefronts.saturating_sub(l.cost.ideal))
            .max()
            .unwrap_or(0)
            .max(1);
        html! {
            p.legend {
                "Row colour: excess shared-memory wavefronts (wavefronts - ideal) of the line, relative to the worst line. "
                span style=(heat(0.0)) { "none" } span style=(heat(0.5)) { "half" } span style=(heat(1.0)) { "worst" }
            }
            div.scroll { table.src {
                thead { tr {
                    th { "line" } th.l { (self.source.language) " source" } th { "shared requests" }
                    th { "wavefronts" } th { "ideal" } th { "conflict ways" } th { "branch eff." }
                    th { "lanes active" } th.l { "findings" }
                } }
                tbody {
                    @for l in &self.source.lines {
                        @let c = &l.cost;
                        @let t = c.wavefronts.saturating_sub(c.ideal) as f64 / max_excess as f64;
                        tr style=(heat(t)) {
                            td.n { (l.number) }
                            td.code { (l.text) }
                            td { @if c.executions > 0 { (c.executions) } }
                            td { @if c.executions > 0 { (c.wavefronts) } }
                            td { @if c.executions > 0 { (c.ideal) } }
                            td { (fmt_ways(c.worst_ways)) }
                            td { (fmt_pct(c.branch_efficiency_pct)) }
                            td { (fmt_pct(c.utilisation_pct)) }
                            td.l { @for f in &c.findings { span.finding { (f) } br; } }
                        }
                    }
                }
            } }
        }
    }

    fn conflicts(&self) -> Result<Markup, ChartError> {
        let mut figures = Vec::new();
        for c in &self.conflicts {
            let svg = heatmap_svg(&c.title, &c.breakdown)?;
            figures.push((c, svg));
        }
        Ok(html! {
            @if figures.is_empty() { p { "No instruction has a bank conflict." } }
            @for (c, svg) in &figures {
                h3 { (c.title) }
                p {
                    (c.executions) " requests, " (c.wavefronts) " wavefronts (ideal " (c.ideal) "). Worst request: "
                    (c.breakdown.counts.wavefronts) " wavefronts, ideal " (c.breakdown.counts.ideal) ", "
                    (c.breakdown.counts.conflict_ways) "-way."
                }
                (figure(svg, "Rows: the request's wavefronts in order; columns: banks. A cell names the lane served (red), or the number of lanes sharing one word (green, broadcast)."))
                @if !c.per_arch.is_empty() {
                    table {
                        thead { tr { th.l { "what if: architecture" } th { "wavefronts" } th { "ideal" } } }
                        tbody { @for a in &c.per_arch { tr { td.l { (a.arch) } td { (a.wavefronts) } td { (a.ideal) } } } }
                    }
                }
            }
        })
    }

    fn fixes_section(&self) -> Result<Markup, ChartError> {
        let Some(fixes) = &self.fixes else {
            return Ok(html! { p.note { "The fix advisor did not run (see the notes)." } });
        };
        let mut drawn = Vec::new();
        for f in fixes {
            let before = heatmap_svg(&format!("before: {}", f.request), &f.before)?;
            let after = heatmap_svg(&format!("after: {}", f.request), &f.after)?;
            drawn.push((f, before, after));
        }
        Ok(html! {
            @if drawn.is_empty() { p { "No layout change to suggest: no array has bank conflicts that a padding, swizzle or bank permutation removes (the notes say why where it has some)." } }
            @for (f, before, after) in &drawn {
                h3 { (f.title) }
                p { (f.summary) }
                @if let Some(e) = &f.edit { pre.edit { (e) } }
                div.pair {
                    (figure(before, &format!("Before: the array's worst request, {} wavefronts (ideal {}).",
                        f.before.counts.wavefronts, f.before.counts.ideal)))
                    (figure(after, &format!("After: the same request, {} wavefronts (ideal {}).",
                        f.after.counts.wavefronts, f.after.counts.ideal)))
                }
            }
        })
    }

    fn occupancy_section(&self) -> Result<Markup, ChartError> {
        let Some(o) = &self.occupancy else {
            return Ok(
                html! { p.note { "No occupancy curves: the kernel's registers are not known (see the notes)." } },
            );
        };
        let charts =
            occupancy_charts(&o.limits, &o.launch, &o.arch).map_err(|e| ChartError(e.to_string()))?;
        let svg = render_svg(&charts, 460, 340)?;
        Ok(figure(
            &svg,
            &format!(
                "{}: {} threads per block, {} registers per thread, {} bytes of shared memory per block; the grey line marks this launch.",
                o.arch,
                o.launch.threads,
                o.launch.regs_per_thread,
                o.launch.smem()
            ),
        ))
    }

    /// The whole page.
    pub fn to_html(&self) -> Result<String, ChartError> {
        let conflicts = self.conflicts()?;
        let occupancy = self.occupancy_section()?;
        let fixes = self.fixes_section()?;
        let body = html! {
            dl.facts { @for (k, v) in &self.facts { dt { (k) } dd { (v) } } }
            @if !self.notes.is_empty() {
                ul.note { @for n in &self.notes { li { (n) } } }
            }
            h2 { "Source: " (self.source.name) }
            (self.source_table())
            h2 { "Bank conflicts" }
            (conflicts)
            h2 { "Fix suggestions" }
            (fixes)
            h2 { "Occupancy" }
            (occupancy)
            h2 { "Findings" }
            @match &self.findings {
                None => p.note { "The hazard checker did not run." },
                Some(f) if f.is_empty() => p { "No findings." },
                Some(f) => table {
                    thead { tr { th.l { "severity" } th.l { "kind" } th { "lines" } th { "count" } th.l { "finding" } } }
                    tbody { @for x in f { tr {
                        td.l.finding { (x.severity) } td.l { (x.kind) }
                        td { (x.lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")) }
                        td { (x.count) } td.l { (x.message) }
                    } } }
                },
            }
        };
        Ok(page(&self.title, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_model::arch::Arch;
    use warpscope_model::bank::{Config, Op, Request, breakdown};

    fn sample() -> KernelReport {
        let arch = Arch::parse("sm_90").unwrap();
        let b = breakdown(
            arch,
            &Config::default(),
            &Request::from_fn(4, Op::Load, |l| Some(128 * l)),
        )
        .unwrap();
        let padded = breakdown(
            arch,
            &Config::default(),
            &Request::from_fn(4, Op::Load, |l| Some(132 * l)),
        )
        .unwrap();
        let mut launch = Launch::new(1024, 16);
        launch.static_smem = 4096;
        KernelReport {
            title: "warpscope report: sqRowCol".into(),
            facts: vec![("grid".into(), "1x1x1".into())],
            source: SourceView {
                name: "k.cu".into(),
                language: "CUDA C++".into(),
                lines: vec![
                    SourceLine {
                        number: 1,
                        text: "tile[ty][tx] = x;".into(),
                        cost: LineCost {
                            executions: 32,
                            wavefronts: 32,
                            ideal: 32,
                            worst_ways: 1.0,
                            ..Default::default()
                        },
                    },
                    SourceLine {
                        number: 2,
                        text: "y = tile[tx][ty];".into(),
                        cost: LineCost {
                            executions: 32,
                            wavefronts: 1024,
                            ideal: 32,
                            worst_ways: 32.0,
                            findings: vec!["race".into()],
                            ..Default::default()
                        },
                    },
                ],
            },
            conflicts: vec![Conflict {
                title: "line 2".into(),
                executions: 32,
                wavefronts: 1024,
                ideal: 32,
                breakdown: b.clone(),
                per_arch: vec![ArchRow {
                    arch: "sm_50".into(),
                    wavefronts: 32,
                    ideal: 1,
                }],
            }],
            occupancy: Some(OccupancyInput {
                arch: "sm_90".into(),
                limits: Limits::for_arch(arch).unwrap(),
                launch,
            }),
            findings: Some(vec![]),
            fixes: Some(vec![FixView {
                title: "tile: pad (recommended)".into(),
                summary: "rows of 32 elements get 1 more".into(),
                edit: Some("line 1: int tile[32][32]; -> int tile[32][33];".into()),
                request: "k.cu:2 ld.shared.u32".into(),
                before: b.clone(),
                after: padded,
            }]),
            notes: vec!["widths are PTX-level".into()],
        }
    }

    #[test]
    fn page_has_every_section_and_colours_the_worst_line() {
        let html = sample().to_html().unwrap();
        for s in [
            "Source: k.cu",
            "Bank conflicts",
            "Occupancy",
            "No findings.",
            "widths are PTX-level",
            "what if: architecture",
            "sm_50",
            "Fix suggestions",
            "tile: pad (recommended)",
            "worst request, 32 wavefronts (ideal 1).",
            "After: the same request, 1 wavefronts (ideal 1).",
        ] {
            assert!(html.contains(s), "missing {s}");
        }
        // conflict heatmap + three curves in one svg + before/after heatmaps
        assert_eq!(html.matches("<svg").count(), 4);
        // worst line is fully red, the conflict-free one white
        assert!(html.contains(&format!("<tr style=\"{}\"><td class=\"n\">2", heat(1.0))));
        assert!(html.contains(&format!("<tr style=\"{}\"><td class=\"n\">1", heat(0.0))));
    }
}
