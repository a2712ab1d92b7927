//! A small line-chart API over plotters, writing SVG: one or more series of (x, y) points per chart,
//! optional marked x positions, and a row of charts side by side in one picture (the occupancy
//! calculator's three curves). HTML reports embed the SVG text as is.
//!
//! ```
//! use warpscope_report::chart::{LineChart, Series, render_svg};
//!
//! let chart = LineChart::new("occupancy vs block size", "threads per block", "occupancy (%)")
//!     .series(Series::new("sm_90", vec![(32.0, 50.0), (64.0, 100.0)]))
//!     .y_range(0.0, 100.0);
//! let svg = render_svg(&[chart], 640, 400).unwrap();
//! assert!(svg.starts_with("<svg"));
//! ```

use plotters::prelude::*;

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points, in x order.
    pub points: Vec<(f64, f64)>,
    /// Draw a dot at each point too (a series of one point is otherwise invisible).
    pub markers: bool,
}

impl Series {
    /// A series from its name and points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            markers: false,
        }
    }

    /// The same series with a dot at each point.
    pub fn with_markers(mut self) -> Series {
        self.markers = true;
        self
    }
}

/// One chart: title, axis labels, series, and optional fixed ranges and marks.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LineChart {
    /// Caption.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// Fixed y range (else from the data).
    pub y_range: Option<(f64, f64)>,
    /// Vertical marks: (x, label), e.g. the current configuration.
    pub marks: Vec<(f64, String)>,
}

impl LineChart {
    /// An empty chart.
    pub fn new(title: impl Into<String>, x_label: impl Into<String>, y_label: impl Into<String>) -> Self {
        LineChart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..Default::default()
        }
    }

    /// Adds a series.
    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Fixes the y range.
    pub fn y_range(mut self, lo: f64, hi: f64) -> Self {
        self.y_range = Some((lo, hi));
        self
    }

    /// Adds a vertical mark at `x`.
    pub fn mark(mut self, x: f64, label: impl Into<String>) -> Self {
        self.marks.push((x, label.into()));
        self
    }

    fn x_range(&self) -> (f64, f64) {
        let xs = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        range(xs.chain(self.marks.iter().map(|m| m.0)))
    }

    fn y_range_of(&self) -> (f64, f64) {
        self.y_range
            .unwrap_or_else(|| range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.1))))
    }
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi <= lo {
        hi = lo + 1.0;
    }
    (lo, hi)
}

/// Drawing failed (plotters' error, as text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot draw the chart: {}", self.0)
    }
}

impl std::error::Error for ChartError {}

fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    ChartError(format!("{e:?}"))
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// Draws `charts` side by side, each `width` x `height` pixels, into one SVG document.
pub fn render_svg(charts: &[LineChart], width: u32, height: u32) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let n = u32::try_from(charts.len().max(1)).unwrap_or(1);
        let root = SVGBackend::with_string(&mut svg, (width * n, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let areas = root.split_evenly((1, charts.len().max(1)));
        for (chart, area) in charts.iter().zip(areas.iter()) {
            draw(chart, area)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn draw<DB: DrawingBackend>(
    chart: &LineChart,
    area: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), ChartError>
where
    DB::ErrorType: 'static,
{
    let (x0, x1) = chart.x_range();
    let (y0, y1) = chart.y_range_of();
    let mut ctx = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    ctx.configure_mesh()
        .x_labels(6)
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .draw()
        .map_err(err)?;
    for (i, s) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        ctx.draw_series(LineSeries::new(s.points.iter().copied(), color.stroke_width(2)))
            .map_err(err)?
            .label(s.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
        if s.markers {
            ctx.draw_series(s.points.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(err)?;
        }
    }
    for (x, label) in &chart.marks {
        let grey = RGBColor(120, 120, 120);
        ctx.draw_series(LineSeries::new(vec![(*x, y0), (*x, y1)], grey.stroke_width(1)))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(lx, ly)| PathElement::new(vec![(lx, ly), (lx + 16, ly)], grey));
    }
    if !chart.series.is_empty() {
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerLeft)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// A bar chart: one bar per label (bandwidth by kernel version, ...).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BarChart {
    /// Caption.
    pub title: String,
    /// Y axis label.
    pub y_label: String,
    /// (label, value) per bar, drawn left to right.
    pub bars: Vec<(String, f64)>,
}

/// Draws a bar chart `width` x `height` pixels as an SVG document; each bar carries its value.
pub fn render_bars_svg(chart: &BarChart, width: u32, height: u32) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let n = chart.bars.len().max(1) as u32;
        let top = chart
            .bars
            .iter()
            .map(|b| b.1)
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let top = if top > 0.0 { top * 1.15 } else { 1.0 };
        let labels: Vec<String> = chart.bars.iter().map(|b| b.0.clone()).collect();
        let mut ctx = ChartBuilder::on(&root)
            .caption(&chart.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(60)
            .y_label_area_size(60)
            .build_cartesian_2d(0u32..n, 0.0..top)
            .map_err(err)?;
        ctx.configure_mesh()
            .disable_x_mesh()
            .x_labels(n as usize)
            .x_label_formatter(&|i| labels.get(*i as usize).cloned().unwrap_or_default())
            .y_desc(chart.y_label.as_str())
            .draw()
            .map_err(err)?;
        ctx.draw_series(chart.bars.iter().enumerate().map(|(i, (_, v))| {
            let i = i as u32;
            let color = PALETTE[i as usize % PALETTE.len()];
            let mut r = Rectangle::new([(i, 0.0), (i + 1, v.max(0.0))], color.mix(0.8).filled());
            r.set_margin(0, 0, 8, 8);
            r
        }))
        .map_err(err)?;
        ctx.draw_series(chart.bars.iter().enumerate().map(|(i, (_, v))| {
            Text::new(
                format!("{v:.1}"),
                (i as u32, v.max(0.0) + top * 0.02),
                ("sans-serif", 12),
            )
        }))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// What a timeline segment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum SegmentKind {
    /// Host to device copy.
    H2D,
    /// Kernel.
    Kernel,
    /// Device to host copy.
    D2H,
}

/// One operation on one stream (times in ms from the start of the run), as `warpscope lab` writes it.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Segment {
    /// Stream index.
    pub stream: usize,
    /// Kind.
    pub kind: SegmentKind,
    /// Start, ms.
    pub start_ms: f64,
    /// End, ms.
    pub end_ms: f64,
}

/// Draws a stream timeline: one row per stream, one box per operation, coloured by kind.
pub fn render_timeline_svg(title: &str, segments: &[Segment], width: u32) -> Result<String, ChartError> {
    let streams = segments.iter().map(|s| s.stream + 1).max().unwrap_or(1);
    let end = segments.iter().map(|s| s.end_ms).fold(0.0f64, f64::max).max(1e-3);
    let mut svg = String::new();
    {
        let height = 150 + 30 * streams as u32;
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut ctx = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..end * 1.02, 0.0..streams as f64)
            .map_err(err)?;
        ctx.configure_mesh()
            .disable_y_mesh()
            .x_desc("time (ms)")
            .y_desc("stream")
            .y_labels(streams.min(16))
            .y_label_formatter(&|y| format!("{}", y.floor() as i64))
            .draw()
            .map_err(err)?;
        for (kind, color) in [
            (SegmentKind::H2D, RGBColor(31, 119, 180)),
            (SegmentKind::Kernel, RGBColor(44, 160, 44)),
            (SegmentKind::D2H, RGBColor(255, 127, 14)),
        ] {
            ctx.draw_series(segments.iter().filter(|s| s.kind == kind).map(|s| {
                let y = s.stream as f64;
                Rectangle::new([(s.start_ms, y + 0.15), (s.end_ms, y + 0.85)], color.filled())
            }))
            .map_err(err)?
            .label(format!("{kind:?}"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
        }
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_series_titles_and_marks() {
        let a = LineChart::new("vs block size", "threads", "occupancy (%)")
            .series(Series::new(
                "sm_90",
                vec![(0.0, 0.0), (512.0, 100.0), (1024.0, 50.0)],
            ))
            .mark(256.0, "current")
            .y_range(0.0, 100.0);
        let b = LineChart::new("vs registers", "regs", "occupancy (%)")
            .series(Series::new("sm_80", vec![(0.0, 100.0), (255.0, 12.5)]));
        let svg = render_svg(&[a, b], 400, 300).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("width=\"800\""), "two charts side by side");
        for text in [
            "vs block size",
            "vs registers",
            "sm_90",
            "sm_80",
            "current",
            "threads",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        assert!(svg.matches("<polyline").count() >= 3, "two series and a mark");
    }

    #[test]
    fn empty_and_flat_data_do_not_fail() {
        let flat = LineChart::new("flat", "x", "y").series(Series::new("s", vec![(1.0, 5.0)]));
        assert!(render_svg(&[flat, LineChart::new("empty", "x", "y")], 200, 200).is_ok());
        assert!(render_svg(&[], 200, 200).is_ok());
    }

    #[test]
    fn bars_and_timelines_draw_one_box_each() {
        let bars = BarChart {
            title: "bandwidth".into(),
            y_label: "GB/s".into(),
            bars: vec![("copy".into(), 3000.0), ("naive".into(), 900.5)],
        };
        let svg = render_bars_svg(&bars, 500, 300).unwrap();
        assert!(svg.contains("copy") && svg.contains("900.5"));
        let segs = vec![
            Segment {
                stream: 0,
                kind: SegmentKind::H2D,
                start_ms: 0.0,
                end_ms: 1.0,
            },
            Segment {
                stream: 1,
                kind: SegmentKind::Kernel,
                start_ms: 0.5,
                end_ms: 2.0,
            },
            Segment {
                stream: 1,
                kind: SegmentKind::D2H,
                start_ms: 2.0,
                end_ms: 2.5,
            },
        ];
        let svg = render_timeline_svg("pipeline", &segs, 800).unwrap();
        assert!(svg.contains("Kernel") && svg.contains("time (ms)"));
        // background, legend swatches and plot boxes
        assert!(svg.matches("<rect").count() >= 3 + 3, "{svg}");
    }
}
