//! The asynchronous proxy's ordering rules (PTX ISA, "Asynchronous operations" and the memory
//! consistency model's proxies), which the emulator cannot show by itself because it completes
//! every bulk and tensor copy when it issues:
//!
//! * A `cp.async.bulk.tensor` / `cp.async.bulk` load into shared memory completes on an mbarrier
//!   (`mbarrier::complete_tx::bytes`): its bytes are the thread's to read only once the thread has
//!   observed the completion of the phase the copy's bytes count in (an `mbarrier.try_wait` /
//!   `test_wait`, parity or state-token form, returning true for it), directly or through a
//!   barrier (`bar.sync` / `barrier.sync` of the threads, `bar.warp.sync` of the warp) after a
//!   thread that did. A shared read (`ld`, `ldmatrix`, a `wgmma.mma_async` operand) of such bytes
//!   before is a race of the copy and the read ([`Hazard::CopyInFlight`]).
//! * Shared bytes written through the generic proxy (`st`, `atom`, `stmatrix`, `cp.async`) and read
//!   by the asynchronous proxy (a `wgmma.mma_async` operand, a TMA store or reduction, a bulk copy
//!   to global) need a `fence.proxy.async` between the write and the read: by the writing thread,
//!   or by any thread after a barrier that orders the write ([`Hazard::MissingProxyFence`]). A
//!   copy engine write of the bytes (an async-proxy write) makes them the async proxy's again.
//! * A `wgmma.mma_async`'s accumulator and A-fragment registers need a `wgmma.fence` of the warp
//!   between any other access to them and the `wgmma.mma_async`, and a warp needs one before its
//!   first `wgmma.mma_async` ([`Hazard::MissingWgmmaFence`]; accesses by other `wgmma.mma_async`
//!   of the chain are exempt). This part lives in [`crate::wgmma_hazards`].
//!
//! Barriers of the cluster and remote (`.shared::cluster`) arrivals are not followed: a block's
//! tracking sees its own threads only.

use std::collections::{HashMap, HashSet};

use warpscope_emu::{MbarEvent, MbarWhat};
use warpscope_ptx::inst::Inst;

/// The program's instructions that matter to the tracking.
#[derive(Clone, Debug, Default)]
pub struct ProxyOps {
    /// pcs of `fence.proxy.async` (every variant).
    fences: HashSet<u32>,
    /// The program has bulk or tensor copies or `wgmma.mma_async`.
    active: bool,
}

impl ProxyOps {
    /// The program's proxy fences, when it has a bulk copy, a tensor copy or a `wgmma.mma_async`.
    pub fn of(program: &warpscope_ptx::Program) -> ProxyOps {
        let active = program.ops.iter().any(|o| {
            matches!(
                o.inst,
                Inst::Tma { .. } | Inst::BulkCopy { .. } | Inst::Wgmma { .. }
            )
        });
        if !active {
            return ProxyOps::default();
        }
        let fences = program
            .info
            .iter()
            .enumerate()
            .filter(|(_, i)| {
                // past a guard (`@%p1 fence.proxy.async...`)
                let t = i.text.trim_start();
                let t = match t.strip_prefix('@') {
                    Some(rest) => rest
                        .split_once(char::is_whitespace)
                        .map_or("", |x| x.1)
                        .trim_start(),
                    None => t,
                };
                t.starts_with("fence.proxy.async")
            })
            .map(|(pc, _)| pc as u32)
            .collect();
        ProxyOps { fences, active }
    }

    /// Whether there is nothing to track.
    pub fn is_empty(&self) -> bool {
        !self.active
    }
}

/// A finding of the tracking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// A shared read at `pc` by `thread` of `byte`, which the copy at `copy_pc` (issued by
    /// `issuer`) writes, before the thread observed the completion of the copy's mbarrier phase.
    CopyInFlight {
        /// The copy.
        copy_pc: u32,
        /// The read.
        pc: u32,
        /// The copy's issuing thread.
        issuer: u32,
        /// The reading thread.
        thread: u32,
        /// The byte.
        byte: u64,
    },
    /// An async-proxy read at `pc` of `byte`, written through the generic proxy at `write_pc` by
    /// `writer` with no `fence.proxy.async` between.
    MissingProxyFence {
        /// The generic write.
        write_pc: u32,
        /// The async-proxy read (a `wgmma.mma_async` or a copy to global).
        pc: u32,
        /// The writing thread.
        writer: u32,
        /// The byte (the first of its 16-byte chunk the write touched).
        byte: u64,
    },
}

/// A copy's bytes in flight for the threads that have not observed its phase.
#[derive(Clone, Debug)]
struct Pending {
    lo: u64,
    hi: u64,
    pc: u32,
    issuer: u32,
    /// (mbarrier, phase index), once the copy's `CopyTx` arrived.
    phase: Option<(u64, u64)>,
}

/// One block's tracking.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxyTrack {
    ops: std::sync::Arc<ProxyOps>,
    /// Per mbarrier: completed phases.
    gens: HashMap<u64, u64>,
    /// Per (mbarrier, thread): phases observed complete (the highest observed phase index + 1).
    seen: HashMap<(u64, u32), u64>,
    pending: Vec<Pending>,
    /// Per 16-byte chunk: the generic write not yet fenced (writer thread, pc, barrier epoch).
    unfenced: HashMap<u64, (u32, u32, u64)>,
    /// Block-wide barrier releases so far.
    epoch: u64,
    /// Per barrier pc: the warps and lanes that arrived since its last release.
    arrivals: HashMap<u32, Vec<(u32, u32)>>,
}

impl ProxyTrack {
    pub(crate) fn new(ops: std::sync::Arc<ProxyOps>) -> ProxyTrack {
        ProxyTrack {
            ops,
            ..ProxyTrack::default()
        }
    }

    /// The copy engine writes `lo..hi` for the copy at `pc` of `warp`.
    pub(crate) fn async_write(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        // a later copy of the same bytes replaces the earlier one
        self.pending.retain(|p| !(p.lo >= lo && p.hi <= hi));
        self.pending.push(Pending {
            lo,
            hi,
            pc,
            issuer: warp * 32,
            phase: None,
        });
        // async-proxy bytes: no generic write left to fence
        for c in lo / 16..hi.div_ceil(16) {
            self.unfenced.remove(&c);
        }
    }

    pub(crate) fn mbarrier(&mut self, e: &MbarEvent) {
        let thread = e.warp * 32 + e.lane;
        match e.what {
            MbarWhat::Init => {
                self.gens.insert(e.addr, 0);
                self.seen.retain(|(a, _), _| *a != e.addr);
            }
            MbarWhat::Completed { parity } => {
                let g = self.gens.entry(e.addr).or_insert(0);
                // a completion this block did not see (a remote arrival) shows as a parity skip
                *g += if *g % 2 == u64::from(parity) { 1 } else { 2 };
            }
            MbarWhat::Waited { parity } => {
                let g = self.gens.get(&e.addr).copied().unwrap_or(0);
                // the newest completed phase of that parity: phase g - 1, or, when phase g has the
                // parity, phase g itself, which completed unseen here (another block's
                // `complete_tx`, a multicast copy's or a remote arrival)
                let last = if g % 2 == u64::from(parity) { g + 1 } else { g };
                let s = self.seen.entry((e.addr, thread)).or_insert(0);
                *s = (*s).max(last);
            }
            MbarWhat::CopyTx { parity } => {
                let g = self.gens.get(&e.addr).copied().unwrap_or(0);
                let phase = if g % 2 == u64::from(parity) { g } else { g + 1 };
                if let Some(p) = self
                    .pending
                    .iter_mut()
                    .rev()
                    .find(|p| p.pc == e.pc && p.issuer / 32 == e.warp && p.phase.is_none())
                {
                    p.issuer = thread;
                    p.phase = Some((e.addr, phase));
                }
            }
        }
    }

    /// Whether `thread` has observed phase `phase` of `mbar` complete.
    fn observed(&self, mbar: u64, phase: u64, thread: u32) -> bool {
        self.seen.get(&(mbar, thread)).is_some_and(|&s| s > phase)
    }

    /// A shared read by lanes `mask` of `warp` (`wgmma`: the warp's operand reads, each lane's
    /// address a 16-byte chunk, not a thread's access): the first read of bytes in flight.
    pub(crate) fn read(
        &self,
        warp: u32,
        pc: u32,
        mask: u32,
        width: u8,
        addrs: &[u64; 32],
        wgmma: bool,
    ) -> Option<Hazard> {
        if self.pending.is_empty() {
            return None;
        }
        for l in (0..32u32).filter(|l| mask >> l & 1 == 1) {
            let (a, end) = (addrs[l as usize], addrs[l as usize] + u64::from(width.max(1)));
            for p in &self.pending {
                if a >= p.hi || end <= p.lo {
                    continue;
                }
                let Some((mbar, phase)) = p.phase else { continue };
                // a wgmma reads for the warp: one of its threads' observation is the warp's
                let ok = if wgmma {
                    (0..32).any(|t| self.observed(mbar, phase, warp * 32 + t))
                } else {
                    self.observed(mbar, phase, warp * 32 + l)
                };
                if !ok {
                    return Some(Hazard::CopyInFlight {
                        copy_pc: p.pc,
                        pc,
                        issuer: p.issuer,
                        thread: warp * 32 + if wgmma { 0 } else { l },
                        byte: a.max(p.lo),
                    });
                }
            }
        }
        None
    }

    /// A generic-proxy shared write.
    pub(crate) fn generic_write(&mut self, warp: u32, pc: u32, mask: u32, width: u8, addrs: &[u64; 32]) {
        for l in (0..32u32).filter(|l| mask >> l & 1 == 1) {
            let a = addrs[l as usize];
            for c in a / 16..=(a + u64::from(width.max(1)) - 1) / 16 {
                self.unfenced.insert(c, (warp * 32 + l, pc, self.epoch));
            }
        }
    }

    /// An async-proxy read of chunks covering `lo..hi` at `pc`: the first generic write unfenced.
    pub(crate) fn async_read(&self, pc: u32, lo: u64, hi: u64) -> Option<Hazard> {
        if self.unfenced.is_empty() {
            return None;
        }
        (lo / 16..hi.div_ceil(16)).find_map(|c| {
            self.unfenced
                .get(&c)
                .map(|&(writer, write_pc, _)| Hazard::MissingProxyFence {
                    write_pc,
                    pc,
                    writer,
                    byte: c * 16,
                })
        })
    }

    /// A `wgmma.mma_async`'s operand chunks (its `Wgmma` event).
    pub(crate) fn operand_reads(&self, pc: u32, mask: u32, addrs: &[u64; 32]) -> Option<Hazard> {
        (0..32)
            .filter(|l| mask >> l & 1 == 1)
            .find_map(|l| self.async_read(pc, addrs[l], addrs[l] + 16))
    }

    /// Warp `warp` executed the instruction at `pc`.
    pub(crate) fn inst(&mut self, warp: u32, pc: u32, active: u32) {
        if active == 0 || !self.ops.fences.contains(&pc) {
            return;
        }
        // the warp's own writes, and every write a barrier ordered before this fence
        let epoch = self.epoch;
        self.unfenced
            .retain(|_, &mut (writer, _, e)| writer / 32 != warp && e >= epoch);
    }

    /// A warp reached a barrier (`block_wide`: `bar.sync`; else `bar.warp.sync`).
    pub(crate) fn barrier(&mut self, warp: u32, pc: u32, active: u32, block_wide: bool) {
        if block_wide {
            self.arrivals.entry(pc).or_default().push((warp, active));
            return;
        }
        // the warp's lanes share what any of them observed
        self.share(&[(warp, active)]);
    }

    /// The barrier at `pc` released its threads.
    pub(crate) fn barrier_release(&mut self, pc: u32) {
        self.epoch += 1;
        if let Some(who) = self.arrivals.remove(&pc) {
            self.share(&who);
        }
    }

    /// Every thread of `who` gets every observation of any of them.
    fn share(&mut self, who: &[(u32, u32)]) {
        let threads: Vec<u32> = who
            .iter()
            .flat_map(|&(w, m)| (0..32).filter(move |l| m >> l & 1 == 1).map(move |l| w * 32 + l))
            .collect();
        let set: HashSet<u32> = threads.iter().copied().collect();
        let mut best: HashMap<u64, u64> = HashMap::new();
        for (&(a, t), &s) in &self.seen {
            if set.contains(&t) {
                let b = best.entry(a).or_insert(0);
                *b = (*b).max(s);
            }
        }
        for (a, s) in best {
            for &t in &threads {
                let e = self.seen.entry((a, t)).or_insert(0);
                *e = (*e).max(s);
            }
        }
    }
}
