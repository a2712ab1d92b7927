//! Branch divergence and active-lane utilisation of an emulated launch.
//!
//! [`DivergenceSink`] watches one block: conditional branches (`@p bra`), the executions of
//! unconditional branches (`bra`, `bra.uni`, found by the caller in the program) and every executed
//! instruction with its active lanes. [`DivergenceReport`] sums blocks and groups by source line.
//!
//! # Branch efficiency, as Nsight Compute defines it
//! Each warp-level execution of a branch instruction contributes its *branch targets*: the number of
//! distinct targets its active lanes go to (1 when they agree, 2 when they split). A split execution is
//! *divergent*. Branch efficiency is uniform targets over all targets, `(targets - divergent) / targets`,
//! the definition of `smsp__sass_average_branch_targets_threads_uniform.pct`. Unconditional branches
//! count (one target each); `ret`/`exit` do not. On machine code the compiler adds and removes branches
//! (predication, division routines); docs/divergence.md measures how the PTX figure relates.
//!
//! Lane utilisation is active lanes over 32 per executed warp instruction.

use std::sync::Arc;

use serde::Serialize;

/// Per-instruction counters of one block or a whole launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PcStat {
    insts: u64,
    lanes: u64,
    branches: u64,
    divergent: u64,
    targets: u64,
    conditional: bool,
}

/// The divergence counter for one block (a sink of that block's emulator events).
#[derive(Clone, Debug)]
pub struct DivergenceSink {
    unconditional: Arc<Vec<bool>>,
    stats: Vec<PcStat>,
}

impl DivergenceSink {
    /// A counter; `unconditional[pc]` says whether instruction `pc` is an unconditional branch.
    pub fn new(unconditional: Arc<Vec<bool>>) -> DivergenceSink {
        DivergenceSink {
            unconditional,
            stats: Vec::new(),
        }
    }

    fn at(&mut self, pc: u32) -> &mut PcStat {
        let i = pc as usize;
        if i >= self.stats.len() {
            self.stats.resize(i + 1, PcStat::default());
        }
        &mut self.stats[i]
    }

    /// A conditional branch executed by `active` lanes, `taken` of which jumped.
    pub fn branch(&mut self, pc: u32, active: u32, taken: u32) {
        let taken = taken & active;
        let split = taken != 0 && taken != active;
        let s = self.at(pc);
        s.conditional = true;
        s.branches += 1;
        if split {
            s.divergent += 1;
            s.targets += 2;
        } else if active != 0 {
            s.targets += 1;
        }
    }

    /// An instruction executed by `active` lanes.
    pub fn inst(&mut self, pc: u32, active: u32) {
        let uncond = self.unconditional.get(pc as usize).copied().unwrap_or(false);
        let s = self.at(pc);
        s.insts += 1;
        s.lanes += u64::from(active.count_ones());
        if uncond && active != 0 {
            s.branches += 1;
            s.targets += 1;
        }
    }
}

/// Branch counters of one instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BranchStat {
    /// Instruction index.
    pub pc: u32,
    /// Whether it is a conditional branch.
    pub conditional: bool,
    /// Warp-level executions.
    pub executions: u64,
    /// Executions whose active lanes split between the two targets.
    pub divergent: u64,
    /// Branch targets (1 per uniform execution, 2 per divergent one).
    pub targets: u64,
}

/// Lane utilisation of one instruction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstStat {
    /// Instruction index.
    pub pc: u32,
    /// Warp-level executions.
    pub executions: u64,
    /// Active lanes summed over the executions.
    pub active_lanes: u64,
    /// `active_lanes / (32 * executions)`, in percent.
    pub utilisation_pct: f64,
}

/// Branch and utilisation figures of one source line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineStat {
    /// Source line (`None`: instructions without `.loc`).
    pub line: Option<u32>,
    /// Warp-level branch executions on this line.
    pub branch_executions: u64,
    /// Divergent branch executions.
    pub divergent: u64,
    /// Branch targets.
    pub targets: u64,
    /// `(targets - divergent) / targets` in percent; `None` without branches.
    pub branch_efficiency_pct: Option<f64>,
    /// Warp-level instruction executions.
    pub inst_executions: u64,
    /// Active lanes over 32 per execution, in percent.
    pub utilisation_pct: f64,
}

/// Launch totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Warp-level branch executions (conditional and unconditional).
    pub branch_executions: u64,
    /// Divergent executions.
    pub divergent: u64,
    /// Branch targets.
    pub targets: u64,
    /// Targets where all active lanes agreed (`targets - divergent`).
    pub uniform_targets: u64,
    /// `uniform_targets / targets` in percent (100 without branches).
    pub branch_efficiency_pct: f64,
    /// Warp-level instruction executions.
    pub inst_executions: u64,
    /// Active lanes summed over them.
    pub active_lanes: u64,
    /// `active_lanes / (32 * inst_executions)` in percent.
    pub utilisation_pct: f64,
}

/// Divergence of a whole launch (serialisable: this is the JSON shape).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DivergenceReport {
    /// Every branch instruction that executed, by `pc`.
    pub branches: Vec<BranchStat>,
    /// Every instruction that executed, by `pc`.
    pub instructions: Vec<InstStat>,
    /// Sums over the launch.
    pub totals: Totals,
    #[serde(skip)]
    raw: Vec<PcStat>,
}

fn pct(num: u64, den: u64) -> f64 {
    if den == 0 {
        100.0
    } else {
        100.0 * num as f64 / den as f64
    }
}

impl DivergenceReport {
    /// An empty report.
    pub fn new() -> DivergenceReport {
        DivergenceReport::default()
    }

    /// Adds one block's counts (any order: sums do not depend on it).
    pub fn merge(&mut self, sink: &DivergenceSink) {
        if sink.stats.len() > self.raw.len() {
            self.raw.resize(sink.stats.len(), PcStat::default());
        }
        for (r, s) in self.raw.iter_mut().zip(&sink.stats) {
            r.insts += s.insts;
            r.lanes += s.lanes;
            r.branches += s.branches;
            r.divergent += s.divergent;
            r.targets += s.targets;
            r.conditional |= s.conditional;
        }
        self.rebuild();
    }

    fn rebuild(&mut self) {
        let mut t = Totals::default();
        self.branches.clear();
        self.instructions.clear();
        for (pc, s) in self.raw.iter().enumerate() {
            let pc = pc as u32;
            if s.branches > 0 {
                self.branches.push(BranchStat {
                    pc,
                    conditional: s.conditional,
                    executions: s.branches,
                    divergent: s.divergent,
                    targets: s.targets,
                });
            }
            if s.insts > 0 {
                self.instructions.push(InstStat {
                    pc,
                    executions: s.insts,
                    active_lanes: s.lanes,
                    utilisation_pct: pct(s.lanes, 32 * s.insts),
                });
            }
            t.branch_executions += s.branches;
            t.divergent += s.divergent;
            t.targets += s.targets;
            t.inst_executions += s.insts;
            t.active_lanes += s.lanes;
        }
        t.uniform_targets = t.targets - t.divergent;
        t.branch_efficiency_pct = pct(t.uniform_targets, t.targets);
        t.utilisation_pct = pct(t.active_lanes, 32 * t.inst_executions);
        self.totals = t;
    }

    /// The figures grouped by source line (`line_of` maps an instruction to its line), in line order.
    pub fn by_line(&self, line_of: &dyn Fn(u32) -> Option<u32>) -> Vec<LineStat> {
        let mut acc: std::collections::BTreeMap<Option<u32>, PcStat> = std::collections::BTreeMap::new();
        for (pc, s) in self.raw.iter().enumerate() {
            if s.insts == 0 && s.branches == 0 {
                continue;
            }
            let e = acc.entry(line_of(pc as u32)).or_default();
            e.insts += s.insts;
            e.lanes += s.lanes;
            e.branches += s.branches;
            e.divergent += s.divergent;
            e.targets += s.targets;
        }
        acc.into_iter()
            .map(|(line, s)| LineStat {
                line,
                branch_executions: s.branches,
                divergent: s.divergent,
                targets: s.targets,
                branch_efficiency_pct: (s.targets > 0).then(|| pct(s.targets - s.divergent, s.targets)),
                inst_executions: s.insts,
                utilisation_pct: pct(s.lanes, 32 * s.insts),
            })
            .collect()
    }
}
