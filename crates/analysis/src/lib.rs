//! warpscope-analysis (to be written).
#![deny(missing_docs)]

pub mod divergence;
pub mod hazards;
pub mod launchspec;

pub mod banks;
pub mod reconcile;
