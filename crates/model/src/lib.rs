//! Architecture facts and the models built on them, with no dependencies.
//!
//! * [`arch`]: presets for every compute capability from 1.0 to 12.0.
//! * [`bank`]: the warp-request shared-memory bank model (wavefronts, conflicts, the bank picture).
//! * [`matrix`]: wavefronts of `ldmatrix`, `stmatrix` and `cp.async` (LDSM, STSM, LDGSTS).
//! * [`occupancy`]: the occupancy calculator.
//! * [`latency`]: latency hiding by Little's law, with the seed's Fermi example and a measured H100 preset.
//! * [`time`]: modelled time of a launch from its counters (throughputs, one memory latency).
//! * [`index`]: global thread-ID formulas for the nine grid x block shapes, and a uniqueness check.
//!
//! Invariant: this crate does no I/O and depends on nothing; every function is deterministic.
#![deny(missing_docs)]

pub mod arch;
pub mod bank;
pub mod index;
pub mod latency;
pub mod matrix;
pub mod occupancy;
pub mod time;
