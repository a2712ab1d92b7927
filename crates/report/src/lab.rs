//! The report of saved `warpscope lab --out DIR` results: for every experiment its table (which is
//! the prediction-vs-measurement table where the experiment has predictions), its acceptance
//! checks and notes, and charts drawn from its `data`: stream timelines and time per stream count
//! (`streams`), bandwidth by transfer size (`hostmem`), bandwidth by kernel version (`transpose`,
//! `adjdiff`).

use maud::html;
use serde::Deserialize;
use serde_json::Value;

use crate::chart::{
    BarChart, ChartError, LineChart, Segment, Series, render_bars_svg, render_svg, render_timeline_svg,
};
use crate::html::{figure, page, table};

/// An acceptance check, as the lab writes it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LabCheck {
    /// What is checked.
    pub what: String,
    /// Measured value.
    pub value: f64,
    /// Bound.
    pub target: f64,
    /// Whether it passed.
    pub pass: bool,
}

/// One experiment's saved result (the lab's `ExperimentReport` JSON).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LabResult {
    /// Experiment name.
    pub name: String,
    /// The GPU.
    pub device: String,
    /// Table header.
    pub headers: Vec<String>,
    /// Table rows.
    pub rows: Vec<Vec<String>>,
    /// Checks.
    #[serde(default)]
    pub checks: Vec<LabCheck>,
    /// Notes.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The structured numbers.
    #[serde(default)]
    pub data: Value,
    /// Seed of the random inputs.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A drawn chart with its caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// SVG document.
    pub svg: String,
    /// Caption.
    pub caption: String,
}

fn f(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.get("median").and_then(Value::as_f64))
}

fn s(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Timelines shown at most per experiment.
pub const MAX_TIMELINES: usize = 6;

fn streams_figures(data: &Value) -> Result<Vec<Figure>, ChartError> {
    let runs = data
        .get("runs")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut series: Vec<Series> = Vec::new();
    let mut timelines = Vec::new();
    for r in &runs {
        let (Some(k), Some(t)) = (
            r.get("streams").and_then(Value::as_f64),
            r.get("time_ms").and_then(f),
        ) else {
            continue;
        };
        let name = format!("{} FMA, {}", s(&r["iters"]), s(&r["memory"]));
        match series.iter_mut().find(|x| x.name == name) {
            Some(x) => x.points.push((k, t)),
            None => series.push(Series::new(name, vec![(k, t)])),
        }
        if timelines.len() < MAX_TIMELINES {
            let segs: Vec<Segment> = r
                .get("timeline")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .unwrap_or_default();
            if !segs.is_empty() {
                let title = format!(
                    "{} FMA/element, {} memory, {} stream(s): {t:.2} ms",
                    s(&r["iters"]),
                    s(&r["memory"]),
                    k
                );
                timelines.push(Figure {
                    svg: render_timeline_svg(&title, &segs, 900)?,
                    caption: "One row per stream: host-to-device copies, kernels, device-to-host copies."
                        .into(),
                });
            }
        }
    }
    let mut out = Vec::new();
    if !series.is_empty() {
        let mut chart = LineChart::new("pipeline time vs streams", "streams", "time (ms, median)");
        chart.series = series;
        out.push(Figure {
            svg: render_svg(&[chart], 700, 380)?,
            caption: "Copy-compute-copy pipeline: median time by number of streams.".into(),
        });
    }
    out.extend(timelines);
    Ok(out)
}

fn hostmem_figures(data: &Value) -> Result<Vec<Figure>, ChartError> {
    let copies = data
        .get("copies")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut charts = Vec::new();
    for (key, title) in [("h2d_gbs", "host to device"), ("d2h_gbs", "device to host")] {
        let mut chart = LineChart::new(title, "transfer size (log2 bytes)", "GB/s");
        for c in &copies {
            let (Some(bytes), Some(g)) = (c.get("bytes").and_then(Value::as_f64), c.get(key).and_then(f))
            else {
                continue;
            };
            let name = s(&c["memory"]);
            let p = (bytes.log2(), g);
            match chart.series.iter_mut().find(|x| x.name == name) {
                Some(x) => x.points.push(p),
                None => chart.series.push(Series::new(name, vec![p])),
            }
        }
        if !chart.series.is_empty() {
            charts.push(chart);
        }
    }
    if charts.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![Figure {
        svg: render_svg(&charts, 460, 340)?,
        caption: "Copy bandwidth by transfer size and host memory kind.".into(),
    }])
}

fn versions_figures(name: &str, data: &Value) -> Result<Vec<Figure>, ChartError> {
    let bars: Vec<(String, f64)> = data
        .get("versions")
        .and_then(Value::as_array)
        .map(|v| {
            v.iter()
                .filter_map(|x| Some((s(x.get("version")?), x.get("gbs").and_then(f)?)))
                .collect()
        })
        .unwrap_or_default();
    if bars.is_empty() {
        return Ok(Vec::new());
    }
    let width = (120 + 110 * bars.len() as u32).max(500);
    let chart = BarChart {
        title: format!("{name}: effective bandwidth"),
        y_label: "GB/s".into(),
        bars,
    };
    Ok(vec![Figure {
        svg: render_bars_svg(&chart, width, 380)?,
        caption: "Effective bandwidth (bytes read and written over the median time) by version.".into(),
    }])
}

impl LabResult {
    /// The charts drawn from this experiment's data.
    pub fn figures(&self) -> Result<Vec<Figure>, ChartError> {
        match self.name.as_str() {
            "streams" => streams_figures(&self.data),
            "hostmem" => hostmem_figures(&self.data),
            "transpose" | "adjdiff" => versions_figures(&self.name, &self.data),
            _ => Ok(Vec::new()),
        }
    }
}

/// A page of lab results.
pub fn lab_html(title: &str, results: &[LabResult]) -> Result<String, ChartError> {
    let mut parts = Vec::new();
    for r in results {
        parts.push((r, r.figures()?));
    }
    let body = html! {
        @for (r, figures) in &parts {
            h2 { (r.name) " on " (r.device) @if let Some(seed) = r.seed { " (seed " (seed) ")" } }
            (table(&r.headers, &r.rows))
            @if !r.checks.is_empty() {
                table {
                    thead { tr { th.l { "check" } th { "value" } th { "target" } th { "" } } }
                    tbody { @for c in &r.checks { tr {
                        td.l { (c.what) } td { (format!("{:.3}", c.value)) } td { (format!(">= {:.3}", c.target)) }
                        @if c.pass { td.pass { "PASS" } } @else { td.fail { "FAIL" } }
                    } } }
                }
            }
            @if !r.notes.is_empty() { ul.note { @for n in &r.notes { li { (n) } } } }
            @for fig in figures { (figure(&fig.svg, &fig.caption)) }
        }
    };
    Ok(page(title, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_result_gives_a_curve_and_timelines() {
        let r: LabResult = serde_json::from_value(serde_json::json!({
            "name": "streams", "device": "GPU", "headers": ["streams", "ms"], "rows": [["1", "2.0"]],
            "checks": [{"what": "eff", "value": 0.95, "target": 0.9, "pass": true}],
            "notes": [], "seed": 7,
            "data": {"runs": [
                {"iters": 64, "memory": "pinned", "streams": 1, "time_ms": {"median": 2.0},
                 "timeline": [{"stream": 0, "kind": "H2D", "start_ms": 0.0, "end_ms": 1.0}]},
                {"iters": 64, "memory": "pinned", "streams": 4, "time_ms": {"median": 1.2}, "timeline": []}
            ]}
        }))
        .unwrap();
        let figs = r.figures().unwrap();
        assert_eq!(figs.len(), 2, "one curve, one non-empty timeline");
        let html = lab_html("lab", &[r]).unwrap();
        assert!(html.contains("PASS") && html.contains("(seed 7)") && html.contains("64 FMA, pinned"));
    }

    #[test]
    fn unknown_experiment_has_a_table_and_no_chart() {
        let r: LabResult = serde_json::from_str(
            r#"{"name":"device","device":"GPU","headers":["a"],"rows":[["1"]],"checks":[],"notes":[],"data":{}}"#,
        )
        .unwrap();
        assert!(r.figures().unwrap().is_empty());
        assert!(!lab_html("lab", &[r]).unwrap().contains("<svg"));
    }
}
