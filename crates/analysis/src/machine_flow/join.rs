//! Where the GPU may run two cohorts together without a convergence barrier.
//!
//! The flow runs the two sides of a divergent branch apart until a convergence barrier (`BSYNC`)
//! or warp sync joins them, even where they reach the same instruction ([`super::Warp`]'s
//! cohorts): the H100 ran the float division's slow path once per side of the branch before it
//! (calibration/fchk/), and the H200 runs lud's `pivot` that way on every instruction of its ten
//! launches (calibration/run/bench2/README.md, "pivot's extra target"). One standing is sensitive
//! to how the GPU is profiled: a group of lanes goes on at the fall-through of two divergent
//! branches in turn, the lanes each branch sent away stand at the same target, and the group then
//! waits on a shared load. Profiled with metrics that instrument shared loads by address (ncu's
//! `sm__sass_l1tex_..._mem_shared_*`, the source page), the H200 ran the two sent-away groups as
//! one (one warp instruction fewer at each instruction they run together, one branch target
//! fewer); with the branch counters alone, in 11 runs, apart, as the flow does. [`note`] counts
//! such places ([`super::FlowCounts::may_join`]: a group's shared load while two or more cohorts
//! that parted from its own cohort stand at one instruction; the trace prints them), the most by
//! which an instrumented count can be lower. The same standing while a group waited on local loads
//! (conv's `median3`), global loads (btree) or constant loads (rk4's `rk4d`) never lowered the
//! H200's count, so only shared loads are noted.

use super::{FlowCounts, Kind, Warp, lanes};

/// Whether a group running `kind` waits on a shared-memory load.
pub(super) fn waits_on_memory(kind: &Kind) -> bool {
    matches!(kind, Kind::Lds { .. } | Kind::AtomS { .. })
}

/// Cohort `c` parted from cohort `from`.
pub(super) fn parted(w: &mut Warp, c: u32, from: u32) {
    let c = c as usize;
    if w.parent.len() <= c {
        w.parent.resize(c + 1, u32::MAX);
    }
    w.parent[c] = from;
}

/// The lanes of `others` (runnable, not in the running group, whose cohort is `mine`) that parted
/// from `mine` and stand at one instruction with lanes of another cohort that parted from it.
pub(super) fn joinable(w: &Warp, mine: u32, others: u32) -> u32 {
    let child = |l: usize| w.parent.get(w.cohort[l] as usize) == Some(&mine);
    let mut m = 0u32;
    for l in lanes(others).filter(|&l| child(l)) {
        if lanes(others).any(|k| child(k) && w.pc[k] == w.pc[l] && w.cohort[k] != w.cohort[l]) {
            m |= 1 << l;
        }
    }
    m
}

/// Counts a place where the GPU may join lanes of `others` while `group` waits on a load
/// ([`FlowCounts::may_join`]), once per standing of the same lanes.
pub(super) fn note(w: &mut Warp, group: u32, others: u32, counts: &mut FlowCounts, trace: bool) {
    let Some(first) = lanes(group).next() else {
        return;
    };
    let m = joinable(w, w.cohort[first], others);
    if m != 0 && m != w.join_seen {
        counts.may_join += 1;
        if trace {
            let at: Vec<String> = lanes(m)
                .map(|l| format!("{}:{}:{}", l, w.pc[l], w.cohort[l]))
                .collect();
            eprintln!("flow: may join {m:08x} (lane:index:cohort {})", at.join(" "));
        }
    }
    w.join_seen = m;
}

/// Whether lanes of `others` (runnable, not in the running `group`) stand in `from..=pc`, the
/// straight-line block of a global access at `pc` before it, sent there by the same divergent
/// branch as the group's lanes on another of its executions (the lanes leaving a loop on
/// different iterations): they run the access apart from the group unless the GPU joins them
/// ([`FlowCounts::may_merge_global`]). Lanes that two different branches sent to the block
/// (mergep's `mergePass`: 5 launches) the H200 ran apart, as the flow does.
///
/// Lanes that left a loop through a `YIELD` ([`Warp::yielded`]) are not such lanes: the H200 ran
/// every group leaving such a loop apart from the others (calibration/yield/README.md).
pub(super) fn behind_in_block(w: &Warp, group: u32, others: u32, from: usize, pc: usize) -> bool {
    let Some(first) = lanes(group).next() else {
        return false;
    };
    let by = w.sent_by[first];
    let others = if w.yielded >> first & 1 != 0 {
        others & !w.yielded
    } else {
        others
    };
    by != 0 && lanes(others).any(|l| w.sent_by[l] == by && (from..=pc).contains(&(w.pc[l] as usize)))
}

/// Whether `group`, about to run the counted branch at `pc` as its first since a divergent
/// branch parted its lanes, finds lanes of its warp (another cohort) waiting at a convergence
/// barrier that ran this same branch first after their own parting
/// ([`FlowCounts::may_merge_exit`]): had the GPU run the other side of the parting branch first,
/// both groups would have stood at `pc` together and run it once. Marks the group's lanes as
/// having run their first counted branch.
pub(super) fn exit_merge(w: &mut Warp, group: u32, pc: usize) -> bool {
    let fresh = group & w.parted;
    if fresh == 0 {
        return false;
    }
    let at = pc as u32 + 1;
    let Some(first) = lanes(group).next() else {
        return false;
    };
    let mine = w.cohort[first];
    let merge = lanes(w.waiting & w.alive & !group).any(|l| w.first_counted[l] == at && w.cohort[l] != mine);
    for l in lanes(fresh) {
        w.first_counted[l] = at;
    }
    w.parted &= !group;
    merge
}
