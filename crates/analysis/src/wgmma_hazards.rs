//! `wgmma` work in flight: a `wgmma.mma_async`'s accumulator registers are undefined until a
//! `wgmma.wait_group` of the issuing warp retires its group (PTX ISA, "Asynchronous Warpgroup
//! Level Matrix Multiply-Accumulate"); an instruction of that warp that reads or writes one of them
//! before is a finding (`FindingKind::WgmmaAccumulator`). Its shared-memory operands must not be
//! modified meanwhile either: a shared write by any thread of the block to a 16-byte chunk a
//! group in flight reads is a race finding (the emulator reads the operands at issue, so the
//! values it computes are the ones before the write). Another `wgmma.mma_async`
//! reusing the accumulators (a chain over K) is allowed. ptxas makes such a program work by
//! waiting for the whole pipeline before the access (its C7517 advisory "wgmma.wait_group is
//! injected"), which serialises the warpgroup's wgmma; the PTX semantics leave it undefined.
//!
//! `wgmma.fence` (PTX ISA): a warp must execute one before its first `wgmma.mma_async`, and
//! between any other access to a `wgmma.mma_async`'s accumulator or A-fragment registers and the
//! `wgmma.mma_async` (accumulator accesses by the `wgmma.mma_async` of a chain are exempt); one that
//! does not is a `FindingKind::MissingWgmmaFence` finding.

use std::collections::HashMap;

use warpscope_ptx::inst::{Inst, Op, R, WgmmaSyncOp};

/// What an instruction does to the tracking.
#[derive(Clone, Debug, PartialEq, Eq)]
enum WgOp {
    /// A `wgmma.mma_async`: its accumulator registers go in flight; the A-fragment registers
    /// (A from registers) after them.
    Mma(Vec<R>, Vec<R>),
    /// `wgmma.fence`
    Fence,
    /// `mov` of a register to a register (d, a): for `wgmma.fence` a rename, which ptxas
    /// coalesces (nvcc moves accumulator copies past a `wgmma.fence`); an access otherwise.
    Copy(R, R),
    /// Part of a `wgmma.mma_async` (its operand copies): not an access.
    Part,
    /// `wgmma.commit_group`
    Commit,
    /// `wgmma.wait_group N`
    Wait(u8),
    /// Any other instruction: the registers it names.
    Other(Vec<R>),
}

/// The `wgmma` tracking's view of a program: per pc what the instruction does.
#[derive(Clone, Debug, Default)]
pub struct WgmmaOps {
    ops: HashMap<u32, WgOp>,
}

impl WgmmaOps {
    /// The program's instructions, when it has a `wgmma.mma_async` (else empty).
    pub fn of(program: &warpscope_ptx::Program) -> WgmmaOps {
        let ops = &program.ops;
        if !ops.iter().any(|o| matches!(o.inst, Inst::Wgmma { .. })) {
            return WgmmaOps::default();
        }
        let mut out = HashMap::new();
        for (pc, op) in ops.iter().enumerate() {
            let text = program.info.get(pc).map_or("", |i| i.text.as_str());
            let w = match op.inst {
                Inst::Wgmma { form, d, a, .. } => {
                    // the lowering copies D back to the program's registers right after
                    let n = form.d_regs() as usize;
                    let regs = ops[pc + 1..(pc + 1 + n).min(ops.len())]
                        .iter()
                        .filter_map(|o: &Op| match o.inst {
                            Inst::Un { d: r, a, .. } if a >= d && a < d + n as R => Some(r),
                            _ => None,
                        })
                        .collect();
                    // and copies D and A (from registers) in right before
                    let a_regs = if form.a_regs() {
                        ops[pc.saturating_sub(n + 4)..pc]
                            .iter()
                            .filter_map(|o: &Op| match o.inst {
                                Inst::Un { d: r, a: src, .. } if r >= a && r < a + 4 => Some(src),
                                _ => None,
                            })
                            .collect()
                    } else {
                        Vec::new()
                    };
                    WgOp::Mma(regs, a_regs)
                }
                Inst::WgmmaSync {
                    op: WgmmaSyncOp::Fence,
                } => WgOp::Fence,
                Inst::WgmmaSync {
                    op: WgmmaSyncOp::Commit,
                } => WgOp::Commit,
                Inst::WgmmaSync {
                    op: WgmmaSyncOp::Wait(n),
                } => WgOp::Wait(n),
                _ if text.trim_start().starts_with("wgmma.mma_async") => WgOp::Part,
                Inst::Un {
                    op: warpscope_ptx::inst::UnOp::Mov,
                    d,
                    a,
                    ..
                } if text.split(',').nth(1).is_some_and(|src| {
                    src.trim().starts_with("%") && !src.contains("%tid") && !src.contains("%ctaid")
                }) =>
                {
                    WgOp::Copy(d, a)
                }
                ref i => WgOp::Other(warpscope_emu::inst_rows(i)),
            };
            out.insert(pc as u32, w);
        }
        WgmmaOps { ops: out }
    }

    /// Whether the program has any `wgmma.mma_async`.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// What one group holds in flight: (the `wgmma.mma_async` pc, an accumulator register) pairs
/// and (pc, first byte) of the 16-byte shared chunks its operands read.
#[derive(Clone, Debug, Default)]
struct Group {
    regs: Vec<(u32, R)>,
    chunks: Vec<(u32, u32)>,
}

/// One warp's groups: the open (uncommitted) one and the committed ones, oldest first.
#[derive(Clone, Debug, Default)]
struct WarpGroups {
    open: Group,
    committed: std::collections::VecDeque<Group>,
}

/// One warp's `wgmma.fence` state: whether it executed one, and the registers other instructions
/// accessed since (with the first such pc).
#[derive(Clone, Debug, Default)]
struct FenceState {
    fenced: bool,
    touched: HashMap<R, u32>,
}

/// The accumulators and shared operands in flight of one block's warps.
#[derive(Clone, Debug, Default)]
pub(crate) struct WgmmaTrack {
    pub(crate) ops: std::sync::Arc<WgmmaOps>,
    warps: HashMap<u32, WarpGroups>,
    /// Per 16-byte chunk of shared memory: how many chunk reads in flight cover it.
    chunks: HashMap<u32, u32>,
    fences: HashMap<u32, FenceState>,
}

impl WgmmaTrack {
    /// A tracker over the program's instructions.
    pub(crate) fn new(ops: std::sync::Arc<WgmmaOps>) -> WgmmaTrack {
        WgmmaTrack {
            ops,
            warps: HashMap::new(),
            chunks: HashMap::new(),
            fences: HashMap::new(),
        }
    }

    /// The `wgmma.fence` rule for warp `warp` executing the instruction at `pc`: a
    /// `wgmma.mma_async` with no `wgmma.fence` of the warp before it (`Some(None)`), or after
    /// which another instruction (`Some(Some(its pc))`) accessed one of its accumulator or A
    /// registers.
    pub(crate) fn fence_inst(&mut self, warp: u32, pc: u32, active: u32) -> Option<Option<u32>> {
        if active == 0 {
            return None;
        }
        let op = self.ops.ops.get(&pc)?;
        let f = self.fences.entry(warp).or_default();
        match op {
            WgOp::Fence => {
                f.fenced = true;
                f.touched.clear();
                None
            }
            WgOp::Mma(d, a) => {
                if !f.fenced {
                    // one finding per warp: the next ones follow from it
                    f.fenced = true;
                    f.touched.clear();
                    return Some(None);
                }
                let hit = d.iter().chain(a).filter_map(|r| f.touched.get(r)).min().copied();
                if hit.is_some() {
                    f.touched.clear();
                }
                hit.map(Some)
            }
            WgOp::Other(rows) => {
                for &r in rows {
                    f.touched.entry(r).or_insert(pc);
                }
                None
            }
            WgOp::Copy(d, a) => {
                // the copy carries its source's state
                if let Some(&at) = f.touched.get(a) {
                    f.touched.entry(*d).or_insert(at);
                }
                None
            }
            WgOp::Part | WgOp::Commit | WgOp::Wait(_) => None,
        }
    }

    /// Warp `warp`'s `wgmma.mma_async` at `pc` reads the 16-byte chunks at `addrs` (its `Wgmma`
    /// event): they stay in flight with its group.
    pub(crate) fn operand_reads(&mut self, warp: u32, pc: u32, mask: u32, addrs: &[u64; 32]) {
        let g = self.warps.entry(warp).or_default();
        for l in (0..32).filter(|l| mask >> l & 1 == 1) {
            let c = (addrs[l] / 16) as u32;
            g.open.chunks.push((pc, c));
            *self.chunks.entry(c).or_insert(0) += 1;
        }
    }

    /// A shared write of `width` bytes per lane at `addrs`: the `wgmma.mma_async` (pc) whose
    /// operand in flight it overwrites, with the lane and byte, if any.
    pub(crate) fn write(&self, mask: u32, width: u8, addrs: &[u64; 32]) -> Option<(u32, u32, u64)> {
        if self.chunks.is_empty() {
            return None;
        }
        for l in (0..32u32).filter(|l| mask >> l & 1 == 1) {
            let a = addrs[l as usize];
            let (first, last) = (a / 16, (a + u64::from(width.max(1)) - 1) / 16);
            for c in first..=last {
                if self.chunks.get(&(c as u32)).is_some_and(|&n| n > 0) {
                    let pc = self
                        .warps
                        .values()
                        .flat_map(|g| std::iter::once(&g.open).chain(&g.committed))
                        .flat_map(|g| &g.chunks)
                        .find(|(_, ch)| u64::from(*ch) == c)
                        .map_or(0, |&(pc, _)| pc);
                    return Some((pc, l, (c * 16).max(a)));
                }
            }
        }
        None
    }

    fn retire(chunks: &mut HashMap<u32, u32>, g: Group) {
        for (_, c) in g.chunks {
            if let Some(n) = chunks.get_mut(&c) {
                *n -= 1;
                if *n == 0 {
                    chunks.remove(&c);
                }
            }
        }
    }

    /// Warp `warp` executed the instruction at `pc` (some lanes active). Returns the
    /// `wgmma.mma_async` whose accumulator the instruction accesses before its group retired.
    pub(crate) fn inst(&mut self, warp: u32, pc: u32, active: u32) -> Option<u32> {
        if active == 0 {
            return None;
        }
        let op = self.ops.ops.get(&pc)?;
        match op {
            WgOp::Fence => None,
            WgOp::Mma(regs, _) => {
                let g = self.warps.entry(warp).or_default();
                g.open.regs.extend(regs.iter().map(|&r| (pc, r)));
                None
            }
            WgOp::Part => None,
            WgOp::Commit => {
                let g = self.warps.get_mut(&warp)?;
                let open = std::mem::take(&mut g.open);
                g.committed.push_back(open);
                None
            }
            WgOp::Wait(n) => {
                let g = self.warps.get_mut(&warp)?;
                while g.committed.len() > *n as usize {
                    if let Some(done) = g.committed.pop_front() {
                        Self::retire(&mut self.chunks, done);
                    }
                }
                None
            }
            WgOp::Other(rows) => {
                let g = self.warps.get(&warp)?;
                g.open
                    .regs
                    .iter()
                    .chain(g.committed.iter().flat_map(|g| &g.regs))
                    .find(|(_, r)| rows.contains(r))
                    .map(|&(mma, _)| mma)
            }
            WgOp::Copy(d, a) => {
                let g = self.warps.get(&warp)?;
                g.open
                    .regs
                    .iter()
                    .chain(g.committed.iter().flat_map(|g| &g.regs))
                    .find(|(_, r)| r == d || r == a)
                    .map(|&(mma, _)| mma)
            }
        }
    }
}
