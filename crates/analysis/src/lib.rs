//! warpscope-analysis (to be written).
#![deny(missing_docs)]

pub mod divergence;
pub mod hazards;
