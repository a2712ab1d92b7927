//! `bar.warp.sync` (`__syncwarp`) in diverged code. Since sm_70 the lanes of a warp that run
//! different paths synchronise with each other at *any* `bar.warp.sync` of their mask: lanes
//! 0-15 at the `__syncwarp()` of an `if` and lanes 16-31 at the one of its `else` meet there. The
//! SIMT stack runs one path to its reconvergence point before the other, which would put one
//! path's accesses after the synchronisation before the other path's accesses before it.
//!
//! So a warp whose lanes reach a `bar.warp.sync` while other live lanes of its member mask wait in
//! the sibling path (the frame just below on the stack, with the same reconvergence point)
//! *parks*: the frame stays at the instruction, moves under its sibling, and the sibling runs.
//! When the sibling reaches a `bar.warp.sync` with the same member mask, both execute it as one
//! synchronisation (one barrier event, the lanes of both as its active lanes) and the parked
//! frame continues after its own. When the sibling reaches its reconvergence point or exits
//! without one, the parked frame runs its `bar.warp.sync` alone. One parked frame per warp
//! (nested divergence synchronises each path alone).

use super::{Frame, Warp};

/// What a `bar.warp.sync` does.
pub(super) enum Join {
    /// The frame parked under its sibling: reload the top frame, send nothing.
    Park,
    /// One synchronisation of these lanes (the executing ones, and the parked ones it joins).
    Sync(u32),
}

/// Lanes `active` of the top frame of `w` execute the `bar.warp.sync` at `pc` with member mask
/// `member`.
pub(super) fn warp_sync(w: &mut Warp, pc: u32, active: u32, member: u32) -> Join {
    let n = w.stack.len();
    if let Some((lanes, ppc, pmember)) = w.wpark {
        if n >= 2 && w.stack[n - 2].pc == ppc && w.stack[n - 2].mask & lanes == lanes && pmember == member {
            // the sibling arrived: one synchronisation of both; the parked frame goes on after it
            w.stack[n - 2].pc = ppc + 1;
            w.wpark = None;
            return Join::Sync(active | (lanes & !w.exited));
        }
        // (the running frame's pc already points after the instruction)
        if n >= 1 && w.stack[n - 1].pc == ppc + 1 && w.stack[n - 1].mask & lanes == lanes {
            // the parked frame runs again: its sibling finished without a synchronisation
            w.wpark = None;
            return Join::Sync(active);
        }
        return Join::Sync(active);
    }
    if n < 2 {
        return Join::Sync(active);
    }
    let (top, sib) = (w.stack[n - 1], w.stack[n - 2]);
    let waiting = member & !w.exited & sib.mask;
    let sibling = sib.mask & top.mask == 0 && sib.rpc == top.rpc && sib.pc != sib.rpc;
    if !sibling || waiting == 0 || active != top.mask & !w.exited {
        return Join::Sync(active);
    }
    // the frame runs the instruction again when it is back on top
    w.stack[n - 1] = sib;
    w.stack[n - 2] = Frame { pc, ..top };
    w.wpark = Some((active, pc, member));
    Join::Park
}
