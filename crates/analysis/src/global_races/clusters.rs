//! Global memory in a launch in thread-block clusters: the blocks of a cluster run together, in
//! turns, so their accesses are checked against each other in one shadow, and the cluster barrier
//! orders them.
//!
//! * While blocks run in parallel (see the parent module), each cluster's blocks share one shadow
//!   of their own (made at the first block's sink, dropped with the last one's), instead of one
//!   per block.
//! * The cluster barrier: `barrier.cluster.arrive` (release unless `.relaxed`) and
//!   `barrier.cluster.wait` (acquire). An access `a` of one block happens before an access `b` of
//!   another block of the cluster when `b`'s thread waited for a phase that `a`'s thread arrived
//!   at, with release, after `a`: each access keeps how many arrivals its thread had made and how
//!   many phases it had waited for (up to 65535 phases; beyond that the barrier orders
//!   nothing more). `.relaxed` arrivals are kept per thread and phase, and skipped.
//! * `.cluster`-scoped fences and release/acquire operations order the blocks of one cluster
//!   ([`super::CLUSTER`] scope).

use std::sync::{Arc, Mutex};

use rustc_hash::{FxHashMap, FxHashSet};

use super::{GAcc, Tracker};
use crate::cluster_races::ClusterShape;

/// A cluster's shared shadow.
type SharedTracker = Arc<Mutex<Tracker>>;

/// The clusters of one launch, for global race checking.
#[derive(Debug)]
pub struct GlobalClusters {
    pub(super) shape: ClusterShape,
    /// Clusters with sinks still to make: their shadow and how many sinks were made.
    live: Mutex<FxHashMap<u32, (SharedTracker, u32)>>,
    /// `.relaxed` cluster arrivals: (block, thread, phase).
    relaxed: Mutex<FxHashSet<(u32, u16, u16)>>,
    any_relaxed: std::sync::atomic::AtomicBool,
}

/// One block's link to its cluster.
#[derive(Debug)]
pub(super) struct ClusterLink {
    pub(super) idx: u32,
    pub(super) clusters: Arc<GlobalClusters>,
    /// The shadow the cluster's blocks share while blocks run in parallel.
    pub(super) tracker: SharedTracker,
}

impl GlobalClusters {
    /// The clusters of a launch in clusters of `shape` (more than one block each).
    pub fn new(shape: ClusterShape) -> Arc<GlobalClusters> {
        Arc::new(GlobalClusters {
            shape,
            live: Mutex::new(FxHashMap::default()),
            relaxed: Mutex::new(FxHashSet::default()),
            any_relaxed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Block `b`'s link (each block's sink takes one).
    pub(super) fn link(self: &Arc<Self>, b: u32) -> ClusterLink {
        let (idx, _) = self.shape.place(b);
        let mut live = self
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = live.entry(idx).or_insert_with(|| (Arc::default(), 0));
        let tracker = Arc::clone(&entry.0);
        entry.1 += 1;
        if entry.1 >= self.shape.size() {
            live.remove(&idx);
        }
        ClusterLink {
            idx,
            clusters: Arc::clone(self),
            tracker,
        }
    }

    /// Thread `tid` of block `block` arrived at phase `phase` with `.relaxed`.
    pub(super) fn relaxed_arrival(&self, block: u32, tid: u16, phase: u16) {
        self.any_relaxed.store(true, std::sync::atomic::Ordering::Relaxed);
        self.relaxed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((block, tid, phase));
    }

    /// Whether the cluster barrier orders `a` (of one block) before `b` (of another block of the
    /// cluster): `b`'s thread waited for a phase `a`'s thread arrived at with release after `a`.
    pub(super) fn barrier_orders(&self, a: &GAcc, b: &GAcc) -> bool {
        if a.carr == u16::MAX {
            return false;
        }
        let mut p = a.carr + 1;
        if self.any_relaxed.load(std::sync::atomic::Ordering::Relaxed) {
            let r = self
                .relaxed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            while p < u16::MAX && r.contains(&(a.block, a.tid, p)) {
                p += 1;
            }
        }
        b.cwait >= p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_orders_what_came_before_the_arrival_of_its_phase() {
        let c = GlobalClusters::new(ClusterShape {
            grid: [2, 1, 1],
            cluster: [2, 1, 1],
            threads: 32,
        });
        let acc = |block, carr, cwait| GAcc {
            block,
            tid: 3,
            kind: 2,
            carr,
            cwait,
            ..GAcc::EMPTY
        };
        // before the first arrival / after the first wait
        assert!(c.barrier_orders(&acc(0, 0, 0), &acc(1, 1, 1)));
        // between the arrival and the wait: not before the arrival
        assert!(!c.barrier_orders(&acc(0, 1, 0), &acc(1, 1, 1)));
        // the reader has not waited yet
        assert!(!c.barrier_orders(&acc(0, 0, 0), &acc(1, 1, 0)));
        // the writer's first arrival was relaxed: its second releases
        c.relaxed_arrival(0, 3, 1);
        assert!(!c.barrier_orders(&acc(0, 0, 0), &acc(1, 1, 1)));
        assert!(c.barrier_orders(&acc(0, 0, 0), &acc(1, 2, 2)));
        // phases past 255 still order (counted in 16 bits)
        assert!(c.barrier_orders(&acc(0, 300, 300), &acc(1, 301, 301)));
        assert!(!c.barrier_orders(&acc(0, 301, 300), &acc(1, 301, 301)));
        assert!(!c.barrier_orders(&acc(0, u16::MAX, u16::MAX), &acc(1, u16::MAX, u16::MAX)));
    }
}
