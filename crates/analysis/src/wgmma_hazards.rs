//! `wgmma` accumulators in flight: a `wgmma.mma_async`'s accumulator registers are undefined
//! until a `wgmma.wait_group` of the issuing warp retires its group (PTX ISA, "Asynchronous
//! Warpgroup Level Matrix Multiply-Accumulate"); an instruction of that warp that reads or writes
//! one of them before is a finding (`FindingKind::WgmmaAccumulator`). Another `wgmma.mma_async`
//! reusing the accumulators (a chain over K) is allowed. ptxas makes such a program work by
//! waiting for the whole pipeline before the access (its C7517 advisory "wgmma.wait_group is
//! injected"), which serialises the warpgroup's wgmma; the PTX semantics leave it undefined.

use std::collections::HashMap;

use warpscope_ptx::inst::{Inst, Op, R, WgmmaSyncOp};

/// What an instruction does to the tracking.
#[derive(Clone, Debug, PartialEq, Eq)]
enum WgOp {
    /// A `wgmma.mma_async`: its accumulator registers go in flight.
    Mma(Vec<R>),
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
                Inst::Wgmma { form, d, .. } => {
                    // the lowering copies D back to the program's registers right after
                    let n = form.d_regs() as usize;
                    let regs = ops[pc + 1..(pc + 1 + n).min(ops.len())]
                        .iter()
                        .filter_map(|o: &Op| match o.inst {
                            Inst::Un { d: r, a, .. } if a >= d && a < d + n as R => Some(r),
                            _ => None,
                        })
                        .collect();
                    WgOp::Mma(regs)
                }
                Inst::WgmmaSync {
                    op: WgmmaSyncOp::Commit,
                } => WgOp::Commit,
                Inst::WgmmaSync {
                    op: WgmmaSyncOp::Wait(n),
                } => WgOp::Wait(n),
                Inst::WgmmaSync { .. } => continue,
                _ if text.trim_start().starts_with("wgmma.mma_async") => WgOp::Part,
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

/// One warp's groups: the open (uncommitted) one and the committed ones, oldest first, each as
/// (the `wgmma.mma_async` pcs, their accumulator registers).
#[derive(Clone, Debug, Default)]
struct WarpGroups {
    open: Vec<(u32, R)>,
    committed: std::collections::VecDeque<Vec<(u32, R)>>,
}

/// The accumulators in flight of one block's warps.
#[derive(Clone, Debug, Default)]
pub(crate) struct WgmmaTrack {
    pub(crate) ops: std::sync::Arc<WgmmaOps>,
    warps: HashMap<u32, WarpGroups>,
}

impl WgmmaTrack {
    /// A tracker over the program's instructions.
    pub(crate) fn new(ops: std::sync::Arc<WgmmaOps>) -> WgmmaTrack {
        WgmmaTrack {
            ops,
            warps: HashMap::new(),
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
            WgOp::Mma(regs) => {
                let g = self.warps.entry(warp).or_default();
                g.open.extend(regs.iter().map(|&r| (pc, r)));
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
                    g.committed.pop_front();
                }
                None
            }
            WgOp::Other(rows) => {
                let g = self.warps.get(&warp)?;
                g.open
                    .iter()
                    .chain(g.committed.iter().flatten())
                    .find(|(_, r)| rows.contains(r))
                    .map(|&(mma, _)| mma)
            }
        }
    }
}
