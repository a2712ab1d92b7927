//! The warp collectives that synchronise their lanes: `shfl.sync`, `vote.sync`, `match.sync`,
//! `redux.sync` (CUDA's `__shfl_*_sync`, `__ballot_sync`/`__all_sync`/`__any_sync`,
//! `__match_*_sync`, `__reduce_*_sync`).
//!
//! The PTX ISA says each of them makes the executing thread wait until every non-exited thread of
//! its `membermask` has executed it (with the same mask); it states memory ordering in so many
//! words only for `bar.warp.sync` (`__syncwarp()`). The checkers take these collectives as ordering
//! the lanes that execute them as a `__syncwarp()` of those lanes does: a lane's accesses before
//! one happen before another lane's after it. This is the assumption the labelled kernels
//! `calibration/races/kernels/*shfl*`, `*ballot*` rely on; no device run can confirm it (a race's
//! outcome is timing-dependent).
//!
//! Used by the shared-memory checker ([`crate::hazards::HazardSink::with_warp_sync`]), the
//! distributed-shared-memory checker ([`crate::cluster_races`]) and the global one
//! ([`crate::global_races`], which reads the same instructions itself).

/// Whether the instruction text `text` is a synchronising warp collective.
pub fn is_warp_collective(text: &str) -> bool {
    let (head, mods) = crate::ptx_text::opcode(text);
    matches!(head, "shfl" | "vote" | "match" | "redux") && mods.contains(&"sync")
}

/// The synchronising warp collectives of a kernel, by pc.
#[derive(Clone, Debug, Default)]
pub struct WarpCollectives {
    base: u32,
    at: Vec<bool>,
}

impl WarpCollectives {
    /// Those among the instructions `start..end` of `program` (one kernel's).
    pub fn of_range(program: &warpscope_ptx::Program, start: u32, end: u32) -> WarpCollectives {
        let end = (end as usize).min(program.info.len());
        let start = (start as usize).min(end);
        WarpCollectives {
            base: start as u32,
            at: program.info[start..end]
                .iter()
                .map(|i| is_warp_collective(&i.text))
                .collect(),
        }
    }

    /// Whether the instruction at `pc` is one.
    pub fn at(&self, pc: u32) -> bool {
        pc.checked_sub(self.base)
            .and_then(|i| self.at.get(i as usize))
            .copied()
            .unwrap_or(false)
    }

    /// Whether the kernel has none.
    pub fn is_empty(&self) -> bool {
        !self.at.iter().any(|&b| b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sync_collectives_are_recognised() {
        assert!(is_warp_collective("shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;"));
        assert!(is_warp_collective("@%p1 vote.sync.ballot.b32 %r1, %p2, -1;"));
        assert!(is_warp_collective("match.any.sync.b32 %r1, %r2, -1;"));
        assert!(is_warp_collective("redux.sync.add.s32 %r1, %r2, -1;"));
        assert!(!is_warp_collective("shfl.bfly.b32 %r1, %r2, 1, 31;"));
        assert!(!is_warp_collective("vote.ballot.b32 %r1, %p2;"));
        assert!(!is_warp_collective("bar.warp.sync -1;"));
        assert!(!is_warp_collective("ld.shared.u32 %r1, [%r2];"));
    }
}
