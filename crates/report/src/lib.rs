//! warpscope-report (to be written).
#![deny(missing_docs)]

pub mod chart;
