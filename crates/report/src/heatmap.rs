//! The bank heatmap of one shared-memory request: one row per wavefront, one column per bank; a
//! cell names the lane (or the number of lanes, for a broadcast) that the bank serves in that
//! wavefront. A conflict-free request is one row; an `n`-way conflict stacks `n` rows.
//!
//! ```
//! use warpscope_model::arch::Arch;
//! use warpscope_model::bank::{Config, Op, Request, breakdown};
//! use warpscope_report::heatmap::heatmap_svg;
//!
//! let arch = Arch::parse("sm_90").unwrap();
//! // Lane l reads word 32 * l: every lane hits bank 0, a 32-way conflict.
//! let req = Request::from_fn(4, Op::Load, |l| Some(128 * l));
//! let b = breakdown(arch, &Config::default(), &req).unwrap();
//! let svg = heatmap_svg("column read", &b).unwrap();
//! assert!(svg.contains("<rect"));
//! ```

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use warpscope_model::bank::Breakdown;

use crate::chart::ChartError;

/// What one cell of the heatmap holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Wavefront index (row).
    pub wavefront: usize,
    /// Bank (column).
    pub bank: u32,
    /// The lanes served, ascending.
    pub lanes: Vec<u8>,
}

/// The cells of a breakdown, row by row, bank by bank (only banks in use).
pub fn cells(b: &Breakdown) -> Vec<Cell> {
    let mut map: BTreeMap<(usize, u32), Vec<u8>> = BTreeMap::new();
    for (w, wf) in b.wavefronts.iter().enumerate() {
        for s in &wf.slots {
            let lanes = map.entry((w, u32::from(s.bank))).or_default();
            if !lanes.contains(&s.lane) {
                lanes.push(s.lane);
            }
        }
    }
    map.into_iter()
        .map(|((wavefront, bank), mut lanes)| {
            lanes.sort_unstable();
            Cell {
                wavefront,
                bank,
                lanes,
            }
        })
        .collect()
}

fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    ChartError(format!("{e:?}"))
}

const CELL_W: u32 = 26;
const CELL_H: u32 = 18;
/// Rows drawn at most; a taller picture is cut with a note in its caption.
pub const MAX_ROWS: usize = 64;

/// Draws the heatmap of `b` as an SVG document titled `title`.
pub fn heatmap_svg(title: &str, b: &Breakdown) -> Result<String, ChartError> {
    let banks = b.banks.max(1);
    let all_rows = b.wavefronts.len().max(1);
    let rows = all_rows.min(MAX_ROWS);
    let caption = if all_rows > rows {
        format!("{title} (first {rows} of {all_rows} wavefronts)")
    } else {
        title.to_string()
    };
    let width = 90 + CELL_W * banks;
    let height = 90 + CELL_H * rows as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(0u32..banks, 0u32..rows as u32)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .x_desc("bank")
            .y_desc("wavefront")
            .x_label_formatter(&|_| String::new())
            .y_label_formatter(&|_| String::new())
            .draw()
            .map_err(err)?;
        let top = rows as u32 - 1;
        // Idle cells first (light grey grid), then the served ones.
        chart
            .draw_series((0..rows as u32).flat_map(|r| {
                (0..banks).map(move |c| {
                    Rectangle::new([(c, r), (c + 1, r + 1)], RGBColor(235, 235, 235).stroke_width(1))
                })
            }))
            .map_err(err)?;
        let cells: Vec<Cell> = cells(b).into_iter().filter(|c| c.wavefront < rows).collect();
        chart
            .draw_series(cells.iter().map(|c| {
                let y = top - c.wavefront as u32;
                let color = if c.lanes.len() > 1 {
                    RGBColor(44, 160, 44) // broadcast: several lanes, one word
                } else {
                    RGBColor(214, 39, 40)
                };
                Rectangle::new([(c.bank, y), (c.bank + 1, y + 1)], color.mix(0.75).filled())
            }))
            .map_err(err)?;
        let style = TextStyle::from(("sans-serif", 13).into_font())
            .color(&WHITE)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let plot = chart.plotting_area();
        // Bank numbers under the columns, wavefront numbers beside the rows, centred on the cells.
        let axis = TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        for bank in 0..banks {
            let (x0, y0) = plot.map_coordinate(&(bank, 0));
            let (x1, _) = plot.map_coordinate(&(bank + 1, 0));
            root.draw(&Text::new(bank.to_string(), ((x0 + x1) / 2, y0 + 10), &axis))
                .map_err(err)?;
        }
        for w in 0..rows as u32 {
            let (x0, y0) = plot.map_coordinate(&(0, top - w));
            let (_, y1) = plot.map_coordinate(&(0, top - w + 1));
            root.draw(&Text::new(w.to_string(), (x0 - 14, (y0 + y1) / 2), &axis))
                .map_err(err)?;
        }
        for c in &cells {
            let y = top - c.wavefront as u32;
            let (x0, y0) = plot.map_coordinate(&(c.bank, y + 1));
            let (x1, y1) = plot.map_coordinate(&(c.bank + 1, y));
            let label = if c.lanes.len() == 1 {
                c.lanes[0].to_string()
            } else {
                format!("{}L", c.lanes.len())
            };
            root.draw(&Text::new(label, ((x0 + x1) / 2, (y0 + y1) / 2), &style))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_model::arch::Arch;
    use warpscope_model::bank::{Config, Op, Request, breakdown};

    fn bd(f: impl Fn(u32) -> Option<u32>) -> Breakdown {
        let arch = Arch::parse("sm_90").unwrap();
        breakdown(arch, &Config::default(), &Request::from_fn(4, Op::Load, f)).unwrap()
    }

    #[test]
    fn conflict_free_row_is_one_wavefront_of_32_cells() {
        let b = bd(|l| Some(4 * l));
        let c = cells(&b);
        assert_eq!(c.len(), 32);
        assert!(
            c.iter()
                .all(|c| c.wavefront == 0 && c.lanes == vec![c.bank as u8])
        );
        let svg = heatmap_svg("row", &b).unwrap();
        // 32x1 grid cells + 32 served cells (+ the background).
        assert!(
            svg.matches("<rect").count() >= 64,
            "{}",
            svg.matches("<rect").count()
        );
    }

    #[test]
    fn column_read_stacks_32_rows_on_bank_0() {
        let b = bd(|l| Some(128 * l));
        let c = cells(&b);
        assert_eq!(c.len(), 32);
        for (i, cell) in c.iter().enumerate() {
            assert_eq!(
                (cell.wavefront, cell.bank, cell.lanes.clone()),
                (i, 0, vec![i as u8])
            );
        }
        let svg = heatmap_svg("column", &b).unwrap();
        assert!(svg.contains("wavefront") && svg.contains("bank"));
        assert!(svg.contains("\n31\n</text>"), "lane 31 is labelled");
    }

    #[test]
    fn broadcast_is_one_cell_with_the_lane_count() {
        let b = bd(|_| Some(0));
        let c = cells(&b);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].lanes.len(), 32);
        assert!(heatmap_svg("bcast", &b).unwrap().contains("\n32L\n</text>"));
    }
}
