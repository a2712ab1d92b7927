//! The load or store side of a shared access: the bank counters keep the two apart, and the
//! reconciliation of PTX accesses with the machine code's matches them per side.

use serde::Serialize;

/// Load or store side of the counters. Atomics (read-modify-write) are counted on both sides, costed
/// as loads; no atomic kernel has been calibrated against ncu yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Shared loads.
    Load,
    /// Shared stores.
    Store,
}
