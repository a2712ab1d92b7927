//! Architecture facts and the models built on them, with no dependencies.
//!
//! * [`arch`]: presets for every compute capability from 1.0 to 12.0.
//! * [`bank`]: the warp-request shared-memory bank model (wavefronts, conflicts, the bank picture).
//! * [`occupancy`]: the occupancy calculator.
//!
//! Invariant: this crate does no I/O and depends on nothing; every function is deterministic.
#![deny(missing_docs)]

pub mod arch;
pub mod bank;
pub mod occupancy;
