//! Stream timelines: the ideal overlap bound and an SVG drawing of per-stream operations.

use plotters::prelude::*;
use serde::Serialize;

/// What one timeline segment is.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum OpKind {
    /// Host to device copy.
    H2D,
    /// Kernel.
    Kernel,
    /// Device to host copy.
    D2H,
}

/// One operation on one stream, times in ms from the start of the run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Segment {
    /// Stream index.
    pub stream: usize,
    /// Kind.
    pub kind: OpKind,
    /// Start, ms.
    pub start_ms: f64,
    /// End, ms.
    pub end_ms: f64,
}

/// The ideal time of a copy-compute-copy pipeline with perfect overlap: its longest stage.
pub fn ideal_bound_ms(h2d_ms: f64, kernel_ms: f64, d2h_ms: f64) -> f64 {
    h2d_ms.max(kernel_ms).max(d2h_ms)
}

/// Overlap efficiency: the ideal bound over the measured time (1.0 = perfect).
pub fn overlap_efficiency(ideal_ms: f64, measured_ms: f64) -> f64 {
    if measured_ms <= 0.0 {
        0.0
    } else {
        ideal_ms / measured_ms
    }
}

/// Sum of the time during which at least two segments run at once (ms), a check on the drawing.
pub fn overlapped_ms(segments: &[Segment]) -> f64 {
    let mut ev: Vec<(f64, i32)> = segments
        .iter()
        .flat_map(|s| [(s.start_ms, 1), (s.end_ms, -1)])
        .collect();
    ev.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (mut depth, mut last, mut total) = (0, 0.0, 0.0);
    for (t, d) in ev {
        if depth >= 2 {
            total += t - last;
        }
        depth += d;
        last = t;
    }
    total
}

/// Draws the segments, one row per stream, as an SVG document.
pub fn svg(title: &str, segments: &[Segment]) -> String {
    let streams = segments.iter().map(|s| s.stream + 1).max().unwrap_or(1);
    let end = segments.iter().map(|s| s.end_ms).fold(0.0f64, f64::max).max(1e-3);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (1000, 120 + 28 * streams as u32)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..end * 1.02, 0.0..streams as f64);
        if let Ok(mut chart) = chart {
            let _ = chart
                .configure_mesh()
                .x_desc("time (ms)")
                .y_desc("stream")
                .y_labels(streams.min(16))
                .y_label_formatter(&|y| format!("{}", y.floor() as usize))
                .disable_y_mesh()
                .draw();
            for (kind, color, label) in [
                (OpKind::H2D, RGBColor(66, 133, 244), "H2D"),
                (OpKind::Kernel, RGBColor(52, 168, 83), "kernel"),
                (OpKind::D2H, RGBColor(234, 67, 53), "D2H"),
            ] {
                let rects = segments.iter().filter(|s| s.kind == kind).map(|s| {
                    let y = s.stream as f64;
                    Rectangle::new([(s.start_ms, y + 0.15), (s.end_ms, y + 0.85)], color.filled())
                });
                if let Ok(series) = chart.draw_series(rects) {
                    series
                        .label(label)
                        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
                }
            }
            let _ = chart
                .configure_series_labels()
                .border_style(BLACK)
                .background_style(WHITE)
                .draw();
        }
        let _ = root.present();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(stream: usize, kind: OpKind, a: f64, b: f64) -> Segment {
        Segment {
            stream,
            kind,
            start_ms: a,
            end_ms: b,
        }
    }

    #[test]
    fn bound_and_efficiency() {
        assert_eq!(ideal_bound_ms(3.0, 1.0, 2.5), 3.0);
        assert!((overlap_efficiency(3.0, 4.0) - 0.75).abs() < 1e-12);
        assert_eq!(overlap_efficiency(3.0, 0.0), 0.0);
    }

    #[test]
    fn overlap_is_measured_from_segments() {
        // Two streams: H2D of stream 1 runs under the kernel of stream 0 for 1 ms.
        let s = [
            seg(0, OpKind::H2D, 0.0, 1.0),
            seg(0, OpKind::Kernel, 1.0, 2.0),
            seg(1, OpKind::H2D, 1.0, 2.0),
            seg(1, OpKind::Kernel, 2.0, 3.0),
        ];
        assert!((overlapped_ms(&s) - 1.0).abs() < 1e-12);
        assert_eq!(overlapped_ms(&s[..2]), 0.0);
    }

    #[test]
    fn svg_has_one_rectangle_per_segment_and_a_legend() {
        let s = [
            seg(0, OpKind::H2D, 0.0, 1.0),
            seg(1, OpKind::Kernel, 0.5, 2.0),
            seg(1, OpKind::D2H, 2.0, 2.5),
        ];
        let svg = svg("streams", &s);
        assert!(svg.starts_with("<svg"), "{}", &svg[..50.min(svg.len())]);
        assert!(svg.contains("time (ms)"));
        assert!(
            svg.contains("H2D") && svg.contains("kernel") && svg.contains("D2H"),
            "{svg}"
        );
        // 3 segments + 3 legend swatches, plus the background fill rects.
        let n_rect = svg.matches("<rect").count();
        assert!(n_rect >= 6, "{n_rect}");
    }
}
