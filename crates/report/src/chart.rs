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
}

impl Series {
    /// A series from its name and points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
        }
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
}
