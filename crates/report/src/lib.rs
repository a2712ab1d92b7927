//! warpscope-report: pictures and self-contained HTML reports of warpscope's results.
//!
//! - [`chart`]: line charts, bar charts and stream timelines over plotters, as SVG text;
//! - [`heatmap`]: the bank heatmap of one shared-memory request (wavefronts × banks, lanes in cells);
//! - [`curves`]: the occupancy calculator's three curves around a launch;
//! - [`kernel`]: the report of one analysed launch ([`kernel::KernelReport`]): annotated source coloured
//!   by cost, heatmaps, occupancy, findings;
//! - [`lab`]: the report of saved `warpscope lab` results;
//! - [`html`]: the page shell (inline CSS, inline SVG, a Content-Security-Policy that forbids fetches).
//!
//! Invariants: the pages need nothing outside themselves (no scripts, fonts, images or style sheets
//! from anywhere); the crate does no I/O and does not depend on the emulator: callers fill the
//! document types.
//!
//! ```
//! use warpscope_report::kernel::KernelReport;
//!
//! let r = KernelReport { title: "empty".into(), ..Default::default() };
//! let html = r.to_html().unwrap();
//! assert!(html.contains("default-src 'none'"));
//! ```
#![deny(missing_docs)]

pub mod chart;
pub mod curves;
pub mod heatmap;
pub mod html;
pub mod kernel;
pub mod lab;
