//! `bar.warp.sync` (`__syncwarp`) in diverged code. Since sm_70 the lanes of a warp that run
//! different paths synchronise with each other at *any* `bar.warp.sync` of their mask: lanes
//! 0-15 at the `__syncwarp()` of an `if` and lanes 16-31 at the one of its `else` meet there, and
//! so do the three or more lane groups of an `if` / `else if` / `else` chain. The SIMT stack runs
//! one path to its reconvergence point before the next, which would put one path's accesses after
//! the synchronisation before another path's accesses before it.
//!
//! So a path whose lanes reach a `bar.warp.sync` while other live lanes of its member mask wait in
//! paths not yet run *parks*: its frame stays at the instruction and moves under them, and they
//! run. The paths waiting are the frames below the top with the same reconvergence point whose
//! lanes are not the top's (the sibling of a branch, and the other branches of an else-if chain,
//! whose nested branches reconverge where the outer one does), skipping the frames that only mark
//! a reconvergence there (a frame already at its reconvergence point, which pops at once). When
//! the last path waited for reaches a `bar.warp.sync` with the same member mask, the paths parked
//! and it execute it as one synchronisation (one barrier event, the lanes of all of them as its
//! active lanes) and the parked frames continue after their own. A path that reaches its
//! reconvergence point or exits without one is not waited for any longer: when only parked paths
//! are left, the one on top runs its `bar.warp.sync` again (not counted again: `run_warp`) and
//! synchronises with the other parked ones (lanes that exited stay unordered).

use super::{Frame, Warp};

/// What a `bar.warp.sync` does.
pub(super) enum Join {
    /// The frame parked under the paths it waits for: reload the top frame, send nothing.
    Park,
    /// One synchronisation of these lanes (the executing ones, and the parked ones it joins).
    Sync(u32),
}

/// Whether frame `f` is parked at a `bar.warp.sync` (in `parked`), and its entry's index.
fn parked_at(parked: &[(u32, u32, u32)], f: &Frame) -> Option<usize> {
    parked
        .iter()
        .position(|&(lanes, ppc, _)| f.pc == ppc && f.mask & lanes == lanes)
}

/// Lanes `active` of the top frame of `w` execute the `bar.warp.sync` at `pc` with member mask
/// `member`.
pub(super) fn warp_sync(w: &mut Warp, pc: u32, active: u32, member: u32) -> Join {
    let n = w.stack.len();
    if n == 0 {
        return Join::Sync(active);
    }
    // (the running frame's pc already points after the instruction)
    let top = w.stack[n - 1];
    if let Some(i) = w
        .wpark
        .iter()
        .position(|&(lanes, ppc, _)| ppc == pc && top.pc == pc + 1 && top.mask & lanes == lanes)
    {
        // a parked frame runs again: the paths it waited for finished without a synchronisation
        w.wpark.swap_remove(i);
    }
    if w.wpark.is_empty() && n < 2 {
        return Join::Sync(active);
    }
    if active != top.mask & !w.exited {
        // part of the frame's lanes (a guard): no parking
        return Join::Sync(active);
    }
    // the frames of the paths that reconverge where the top does, below it
    let mut lo = n - 1;
    let mut joined = active;
    let mut waiting = 0u32;
    let mut parked_here = Vec::new();
    for i in (0..n - 1).rev() {
        let f = w.stack[i];
        if f.rpc != top.rpc {
            break;
        }
        if f.pc == f.rpc {
            // a reconvergence mark of a nested branch: pops when on top
            lo = i;
            continue;
        }
        if f.mask & top.mask != 0 {
            break;
        }
        lo = i;
        match parked_at(&w.wpark, &f) {
            Some(k) if w.wpark[k].2 == member => {
                joined |= w.wpark[k].0 & !w.exited;
                parked_here.push(i);
            }
            Some(_) => {}
            None => waiting |= member & !w.exited & f.mask,
        }
    }
    waiting &= !joined;
    if waiting != 0 {
        // the frame runs the instruction again when it is back on top
        let f = w.stack.remove(n - 1);
        w.stack.insert(lo, Frame { pc, ..f });
        w.wpark.push((active, pc, member));
        return Join::Park;
    }
    // one synchronisation: the parked frames go on after their own
    for i in parked_here {
        let f = &mut w.stack[i];
        if let Some(k) = parked_at(&w.wpark, f) {
            f.pc = w.wpark[k].1 + 1;
            w.wpark.swap_remove(k);
        }
    }
    Join::Sync(joined)
}
