//! Lanes the GPU may join without a convergence barrier.
//!
//! The flow runs the two sides of a divergent branch apart until a convergence barrier (`BSYNC`)
//! or warp sync joins them, even where they reach the same instruction ([`super::Warp`]'s
//! cohorts): the H100 ran the float division's slow path once per side of the branch before it
//! (calibration/fchk/), and the H200 ran lud's `pivot` (calibration/run/bench2/) that way on every
//! instruction of its ten launches but one. The exception: a group of lanes waits on a shared
//! load (`LDS`) while two groups that left it by two divergent branches stand at one instruction
//! (the `if` body's end); the H200 ran those two as one group in two profiled runs of the launch
//! (one warp instruction fewer there, one branch target fewer) and apart in a third, so which it
//! does depends on timing. The rule kept from those rows: a group's load (whose result it may
//! wait for, and the GPU then run another group of the warp) while lanes of two or more other
//! cohorts stand at one instruction is a place where the GPU's count may be lower than the flow's;
//! [`note`] counts such places ([`super::FlowCounts::may_join`]) and the caller labels the launch's
//! branch counters an estimate where there are any.

use super::{FlowCounts, Kind, Warp, lanes};

/// Whether a group running `kind` may wait for memory (a load, or an atomic's result).
pub(super) fn waits_on_memory(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Ldg { .. } | Kind::Ldl { .. } | Kind::Lds { .. } | Kind::AtomG { .. } | Kind::AtomS { .. }
    )
}

/// The lanes of `others` (runnable, not in the running group) that stand at one instruction with
/// lanes of another cohort.
pub(super) fn joinable(w: &Warp, others: u32) -> u32 {
    let mut m = 0u32;
    for l in lanes(others) {
        if lanes(others).any(|k| w.pc[k] == w.pc[l] && w.cohort[k] != w.cohort[l]) {
            m |= 1 << l;
        }
    }
    m
}

/// Counts a place where the GPU may join lanes of `others` ([`FlowCounts::may_join`]), once per
/// standing of the same lanes.
pub(super) fn note(w: &mut Warp, others: u32, counts: &mut FlowCounts) {
    let m = joinable(w, others);
    if m != 0 && m != w.join_seen {
        counts.may_join += 1;
    }
    w.join_seen = m;
}
