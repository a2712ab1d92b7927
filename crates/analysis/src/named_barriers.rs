//! Named barriers that order part of a block: `bar.sync id, count` / `bar.arrive id, count` /
//! `bar.red` with a thread count, as warp-specialised kernels use them (a producer warp group
//! arrives, a consumer group waits). The PTX ISA: a barrier orders the memory accesses the
//! participating threads made before their arrival before the accesses the waiting threads make
//! after it; `bar.arrive` does not wait, so the arriving warp's later accesses are ordered by
//! nothing. Threads that do not take part are not ordered.
//!
//! A block-wide release (every live warp waited) starts a new *epoch* in the checkers; a partial
//! one ([`warpscope_emu::Sink::barrier_partial`]) does not, and is kept here as a vector clock per
//! warp over the warps of the block. Positions in a warp are its synchronisation counts (the
//! `__syncwarp` count the checkers keep per warp, which a barrier arrival advances as well): an
//! access of warp `a` at count `c` happens before warp `b`'s current point when `c <
//! known[b][a]`. An arrival at barrier `id` adds the arriving warp's count and what it knew to
//! the barrier's join; the release gives the join to the warps that waited.

/// The most warps of a block (1024 threads).
const WARPS: usize = 32;

/// The partial-barrier order of one block (see the module notes).
#[derive(Clone, Debug, Default)]
pub struct BarrierOrder {
    /// Per warp: for every warp `v`, the count of `v` below which `v`'s accesses happen before
    /// this warp's current point (0: none). Empty until a partial barrier released.
    known: Vec<[u32; WARPS]>,
    /// Per warp, what it knew and its count at its arrivals since the barrier's last release,
    /// joined, per barrier id (16).
    join: Vec<[u32; WARPS]>,
    /// Whether any partial barrier released (else nothing is ordered here).
    any: bool,
}

impl BarrierOrder {
    /// Order for a block of `warps` warps.
    pub fn new(warps: usize) -> BarrierOrder {
        BarrierOrder {
            known: vec![[0; WARPS]; warps.min(WARPS)],
            join: vec![[0; WARPS]; 16],
            any: false,
        }
    }

    /// Warp `warp` arrived at barrier `id` (its synchronisation count now `count`: its accesses
    /// before the arrival have lower counts).
    pub fn arrive(&mut self, warp: u32, id: u32, count: u32) {
        let (w, i) = (warp as usize, id as usize);
        let (Some(k), Some(j)) = (self.known.get(w), self.join.get_mut(i)) else {
            return;
        };
        for (d, s) in j.iter_mut().zip(k) {
            *d = (*d).max(*s);
        }
        j[w] = j[w].max(count);
    }

    /// Barrier `id` released; `waited`: the warps that waited at it (bit per warp) now know every
    /// arrival's accesses before it. `partial`: it ordered part of the block (else the checkers'
    /// epochs order everything before it, and only the join is dropped).
    pub fn release(&mut self, id: u32, waited: u32, partial: bool) {
        let Some(j) = self.join.get_mut(id as usize) else {
            return;
        };
        let j = std::mem::replace(j, [0; WARPS]);
        if !partial {
            return;
        }
        self.any = true;
        for (w, k) in self.known.iter_mut().enumerate() {
            if waited & (1 << w) != 0 {
                for (d, s) in k.iter_mut().zip(&j) {
                    *d = (*d).max(*s);
                }
            }
        }
    }

    /// Whether an access of warp `a` at count `count` happens before the current point of warp
    /// `b` through partial barriers.
    #[inline]
    pub fn ordered(&self, a: u32, count: u32, b: u32) -> bool {
        self.any
            && self
                .known
                .get(b as usize)
                .and_then(|k| k.get(a as usize))
                .is_some_and(|&c| count < c)
    }

    /// Whether any partial barrier released.
    pub fn any(&self) -> bool {
        self.any
    }

    /// What warp `b` knows now, when a partial barrier taught it anything: per warp `a`, the
    /// count of `a` below which `a`'s accesses happen before `b`'s current point (0: none). A
    /// release made now carries it (cumulativity: accesses of other warps a partial barrier
    /// ordered before the releasing thread are released with its own).
    pub fn known_of(&self, b: u32) -> Option<[u32; WARPS]> {
        let k = self.known.get(b as usize)?;
        (self.any && k.iter().any(|&c| c > 0)).then_some(*k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_barrier_orders_its_warps_only_and_chains_order_transitively() {
        let mut o = BarrierOrder::new(4);
        // warps 0 and 1 at barrier 1 (counts 1), warps 2 and 3 at barrier 2
        o.arrive(0, 1, 1);
        o.arrive(1, 1, 1);
        o.release(1, 0b0011, true);
        assert!(o.ordered(0, 0, 1) && o.ordered(1, 0, 0));
        assert!(!o.ordered(2, 0, 0), "warp 2 took no part in barrier 1");
        assert!(!o.ordered(0, 1, 1), "warp 0's accesses after its arrival");
        o.arrive(2, 2, 1);
        o.arrive(3, 2, 1);
        o.release(2, 0b1100, true);
        assert!(o.ordered(2, 0, 3) && !o.ordered(0, 0, 3));
        // warp 1 then meets warp 2 at barrier 3: warp 0's accesses before barrier 1 reach warp 2
        o.arrive(1, 3, 2);
        o.arrive(2, 3, 2);
        o.release(3, 0b0110, true);
        assert!(o.ordered(0, 0, 2), "0 -> 1 at barrier 1, 1 -> 2 at barrier 3");
        assert!(!o.ordered(0, 1, 2));
        assert!(!o.ordered(0, 0, 3), "warp 3 was not at barrier 3");
    }

    #[test]
    fn what_a_warp_knows_is_what_its_waits_taught_it() {
        let mut o = BarrierOrder::new(3);
        assert_eq!(o.known_of(1), None, "no partial barrier yet");
        o.arrive(0, 1, 3);
        o.arrive(1, 1, 2);
        o.release(1, 0b10, true);
        let k = o.known_of(1).unwrap();
        assert_eq!((k[0], k[1], k[2]), (3, 2, 0));
        assert_eq!(o.known_of(0), None, "warp 0 only arrived");
        assert_eq!(o.known_of(2), None, "warp 2 took no part");
    }

    #[test]
    fn an_arriving_warp_that_does_not_wait_learns_nothing() {
        let mut o = BarrierOrder::new(2);
        // producer warp 0 arrives (bar.arrive), consumer warp 1 waits
        o.arrive(0, 1, 1);
        o.arrive(1, 1, 1);
        o.release(1, 0b10, true);
        assert!(o.ordered(0, 0, 1));
        assert!(
            !o.ordered(1, 0, 0),
            "the consumer's accesses are not ordered before the producer's"
        );
        // a block-wide release drops the join and orders nothing here (the epochs do)
        o.arrive(0, 0, 2);
        o.release(0, 0b11, false);
        assert!(!o.ordered(0, 1, 1));
    }
}
