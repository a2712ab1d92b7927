//! Branch divergence and active-lane utilisation of an emulated launch.
//!
//! [`DivergenceSink`] watches one block: conditional branches (`@p bra`), the executions of
//! unconditional branches (`bra`, `bra.uni`, found by the caller in the program) and every executed
//! instruction with its active lanes. [`DivergenceReport`] sums blocks and groups by source line.
//!
//! # Branch efficiency, as Nsight Compute counts it
//! Every warp-level execution of a branch instruction (conditional `@p bra` or unconditional `bra`,
//! `bra.uni`; not `ret`/`exit`) is one *branch target* in Nsight Compute's
//! `smsp__sass_branch_targets`; an execution whose active lanes split between the two targets is
//! *divergent* (`smsp__sass_branch_targets_threads_divergent`). Branch efficiency is uniform targets
//! over all targets, `(targets - divergent) / targets`
//! (`smsp__sass_average_branch_targets_threads_uniform.pct`). This reading of the metrics was measured
//! on an H100 (docs/divergence.md): a divergent branch counts once, not once per target, and `EXIT`
//! counts nothing.
//!
//! PTX is not machine code: the compiler adds and removes branches. With `-G` (ptxas `-O0`) every
//! 32-bit integer `div`/`rem` becomes a routine with one (so far always uniform) branch; PTX built with
//! `-G` says so on its `.target ... debug` line, and [`BranchModel::int_div_rem`] lets the report add
//! those branches as [`Totals::debug_machine_estimate`]. With `-O3`, short branches become `selp` and
//! predication already in the PTX, and nothing needs adding.
//!
//! Lane utilisation is active lanes over 32 per executed warp instruction.

use std::sync::Arc;

use serde::Serialize;

/// Per-instruction counters of one block or a whole launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PcStat {
    insts: u64,
    lanes: u64,
    /// Executions of an integer div/rem (branches of `-G` machine code).
    div_rem: u64,
    branches: u64,
    divergent: u64,
    targets: u64,
    conditional: bool,
    /// A `match.any`'s executions split into groups: Σ max(1, k - 1) and Σ (k - 1) over them, k
    /// the groups of each (the targets and divergent targets of a `WARPSYNC.EXCLUSIVE` on its result).
    split_targets: u64,
    split_divergent: u64,
    /// Executions with an active lane (a block's sink counts these; its instruction's kind, from
    /// the [`BranchModel`], turns them into branches or div/rem executions when the block is
    /// added to the report).
    nonzero: u64,
}

/// Which instructions of the kernel are branches the emulator does not report as such, by `pc`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchModel {
    /// `unconditional[pc]`: instruction `pc` is an unconditional branch (`bra`, `bra.uni`).
    pub unconditional: Vec<bool>,
    /// `int_div_rem[pc]`: instruction `pc` is a 32-bit integer `div` or `rem`, which `-G` machine code
    /// turns into a routine with one branch. Leave empty for PTX not built with `-G`.
    pub int_div_rem: Vec<bool>,
}

/// Slots of a sink's table of pending runs (a power of two, at most 64: `used` is a `u64`).
const RUN_SLOTS: usize = 64;

/// Executions of one run of instructions (`Sink::insts`: `n` consecutive pcs from `pc`) not yet
/// added to the per-pc counters: `hits` executions with the lanes `active` (the mask of the run's
/// first execution: a run mostly executes with the same lanes, counted then by one add), and
/// `count` others, with their active lanes and those with an active lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PendingRun {
    pc: u32,
    n: u32,
    active: u32,
    hits: u64,
    count: u64,
    lanes: u64,
    nonzero: u64,
}

impl PendingRun {
    /// All its executions: how many, their active lanes, those with an active lane.
    fn totals(&self) -> (u64, u64, u64) {
        (
            self.count + self.hits,
            self.lanes + self.hits * u64::from(self.active.count_ones()),
            self.nonzero + self.hits * u64::from(self.active != 0),
        )
    }
}

/// The divergence counter for one block (a sink of that block's emulator events).
#[derive(Clone, Debug)]
pub struct DivergenceSink {
    model: Arc<BranchModel>,
    /// The counters of pcs `base..base + stats.len()` (the instructions the block executed lie in
    /// its kernel and the functions it calls, a small window of a program-wide pc range).
    base: u32,
    stats: Vec<PcStat>,
    /// Runs of instructions counted by run, not yet per pc: a warp executes the same runs again
    /// and again (a loop's body, the code between barriers), so each run's executions are summed
    /// in its slot (by its first pc) and spread over its pcs once, when the slot is taken by
    /// another run or the counts are read ([`DivergenceSink::flush`]). Sums: the per-pc counts
    /// and the window are the same as counting each execution at once.
    runs: Box<[PendingRun; RUN_SLOTS]>,
    /// The slots of `runs` holding a run.
    used: u64,
}

impl DivergenceSink {
    /// A counter for one block of a kernel whose branches `model` describes.
    pub fn new(model: Arc<BranchModel>) -> DivergenceSink {
        DivergenceSink {
            model,
            base: 0,
            stats: Vec::new(),
            runs: Box::new([PendingRun::default(); RUN_SLOTS]),
            used: 0,
        }
    }

    /// Empties the counts for another block, keeping the buffer and the window of pcs (zeroed):
    /// the next block of the kernel executes the same pcs, and its sink then need not grow the
    /// window from nothing again (a zero count adds nothing to a report). The pending runs stay
    /// in their slots with no executions: the next block runs them again and counts them there
    /// without taking a slot anew.
    pub fn clear(&mut self) {
        self.stats.fill(PcStat::default());
        self.zero_runs();
    }

    /// Adds the pending runs' executions to the per-pc counters. The runs keep their slots, with
    /// no executions (a run with none adds nothing).
    pub fn flush(&mut self) {
        let mut used = self.used;
        while used != 0 {
            let i = used.trailing_zeros() as usize;
            used &= used - 1;
            let r = self.runs[i];
            let (count, lanes, nonzero) = r.totals();
            if count > 0 {
                self.add_run(r.pc, r.n, count, lanes, nonzero);
                let r = &mut self.runs[i];
                r.hits = 0;
                r.count = 0;
                r.lanes = 0;
                r.nonzero = 0;
            }
        }
    }

    /// The pending runs' executions set to none (their slots kept).
    fn zero_runs(&mut self) {
        let mut used = self.used;
        while used != 0 {
            let i = used.trailing_zeros() as usize;
            used &= used - 1;
            let r = &mut self.runs[i];
            r.hits = 0;
            r.count = 0;
            r.lanes = 0;
            r.nonzero = 0;
        }
    }

    /// A run that is not the one pending in its slot: the slot's run is added to the per-pc
    /// counters and this one takes the slot (out of line: the same run again is the rule).
    #[inline(never)]
    fn new_run(&mut self, pc: u32, n: u32, active: u32) {
        if n == 0 {
            self.add_run(pc, n, 1, u64::from(active.count_ones()), u64::from(active != 0));
            return;
        }
        let slot = pc as usize % RUN_SLOTS;
        let bit = 1u64 << slot;
        let old = std::mem::replace(
            &mut self.runs[slot],
            PendingRun {
                pc,
                n,
                active,
                hits: 1,
                count: 0,
                lanes: 0,
                nonzero: 0,
            },
        );
        if self.used & bit != 0 {
            let (count, lanes, nonzero) = old.totals();
            if count > 0 {
                self.add_run(old.pc, old.n, count, lanes, nonzero);
            }
        }
        self.used |= bit;
    }

    /// `count` executions of the run of `n` pcs from `pc`, with `lanes` active lanes in all and
    /// `nonzero` of them with an active lane.
    fn add_run(&mut self, pc: u32, n: u32, count: u64, lanes: u64, nonzero: u64) {
        // the window holds the run's last pc, then its first: every pc between is in it
        self.at(pc + n - 1);
        self.at(pc);
        let i = (pc - self.base) as usize;
        for s in &mut self.stats[i..i + n as usize] {
            s.insts += count;
            s.lanes += lanes;
            s.nonzero += nonzero;
        }
    }

    #[inline(always)]
    fn at(&mut self, pc: u32) -> &mut PcStat {
        let i = pc.wrapping_sub(self.base) as usize;
        if i < self.stats.len() {
            return &mut self.stats[i];
        }
        self.widen(pc)
    }

    /// [`DivergenceSink::at`] for a pc outside the window: the window grows to hold it.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, pc: u32) -> &mut PcStat {
        if self.stats.is_empty() {
            self.base = pc;
            self.stats.reserve(128);
        } else if pc < self.base {
            let extra = (self.base - pc) as usize;
            self.stats
                .splice(0..0, std::iter::repeat_n(PcStat::default(), extra));
            self.base = pc;
        }
        let i = (pc - self.base) as usize;
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
        if active == 0 {
            return;
        }
        s.branches += 1;
        s.targets += 1;
        if split {
            s.divergent += 1;
        }
    }

    /// A `match.any` split the warp's lanes into `groups` sets.
    pub fn match_groups(&mut self, pc: u32, groups: u32) {
        let s = self.at(pc);
        let k = u64::from(groups.max(1));
        s.split_targets += (k - 1).max(1);
        s.split_divergent += k - 1;
    }

    /// An instruction executed by `active` lanes. An unconditional branch (or, with `-G`, an
    /// integer div/rem) with an active lane counts as a branch target (a div/rem execution):
    /// counted when the block is added to a report.
    #[inline]
    pub fn inst(&mut self, pc: u32, active: u32) {
        let s = self.at(pc);
        s.insts += 1;
        s.lanes += u64::from(active.count_ones());
        s.nonzero += u64::from(active != 0);
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
    /// Branch targets (one per execution, as Nsight Compute counts them).
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
    /// The figures `-G` machine code would give: the branches above plus one uniform branch per
    /// warp-level execution of an integer div/rem (only when [`BranchModel::int_div_rem`] is given).
    pub debug_machine_estimate: Option<MachineEstimate>,
}

/// Branch figures predicted for machine code.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MachineEstimate {
    /// Branch targets.
    pub targets: u64,
    /// Divergent ones.
    pub divergent: u64,
    /// Uniform over all, in percent.
    pub branch_efficiency_pct: f64,
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
    /// The counters of pcs `raw_base..raw_base + raw.len()`.
    #[serde(skip)]
    raw: Vec<PcStat>,
    #[serde(skip)]
    raw_base: usize,
    #[serde(skip)]
    model_has_div_rem: bool,
    /// Whether a block was added since the lists were last brought up to date.
    #[serde(skip)]
    stale: bool,
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
    pub fn merge(&mut self, sink: &mut DivergenceSink) {
        self.add(sink);
        self.rebuild();
    }

    /// [`DivergenceReport::merge`] without bringing the lists and totals up to date: a launch's
    /// blocks added one after another, then [`DivergenceReport::finish`] once.
    pub fn add(&mut self, sink: &mut DivergenceSink) {
        sink.flush();
        self.stale = true;
        self.model_has_div_rem |= !sink.model.int_div_rem.is_empty();
        let base = sink.base as usize;
        let end = base + sink.stats.len();
        if sink.stats.is_empty() {
            return;
        }
        self.widen(base, end);
        let model = &sink.model;
        let (from, to) = (base - self.raw_base, end - self.raw_base);
        for (pc, (r, s)) in (base..).zip(self.raw[from..to].iter_mut().zip(&sink.stats)) {
            let uncond = model.unconditional.get(pc).copied().unwrap_or(false);
            let div_rem = model.int_div_rem.get(pc).copied().unwrap_or(false);
            let branches = if uncond { s.nonzero } else { 0 };
            r.insts += s.insts;
            r.lanes += s.lanes;
            r.div_rem += s.div_rem + if div_rem { s.nonzero } else { 0 };
            r.branches += s.branches + branches;
            r.divergent += s.divergent;
            r.targets += s.targets + branches;
            r.conditional |= s.conditional;
            r.split_targets += s.split_targets;
            r.split_divergent += s.split_divergent;
        }
    }

    /// [`DivergenceReport::add`], then [`DivergenceSink::clear`] of the sink, in one pass over
    /// its window (each pc's counters read, added and zeroed while in the cache): what a
    /// launch's fold does per block before the sink counts the next.
    pub fn add_clear(&mut self, sink: &mut DivergenceSink) {
        // the pending runs' executions into the per-pc counters; the runs keep their slots, with
        // none (as `clear` leaves them)
        sink.flush();
        self.stale = true;
        self.model_has_div_rem |= !sink.model.int_div_rem.is_empty();
        if sink.stats.is_empty() {
            return;
        }
        let base = sink.base as usize;
        let end = base + sink.stats.len();
        self.widen(base, end);
        let model = &*sink.model;
        let uncond = model.unconditional.get(base..).unwrap_or_default();
        let div_rem = model.int_div_rem.get(base..).unwrap_or_default();
        let (from, to) = (base - self.raw_base, end - self.raw_base);
        for (k, (r, s)) in self.raw[from..to].iter_mut().zip(&mut sink.stats).enumerate() {
            let s = std::mem::take(s);
            let branches = if uncond.get(k).copied().unwrap_or(false) {
                s.nonzero
            } else {
                0
            };
            r.insts += s.insts;
            r.lanes += s.lanes;
            r.div_rem += s.div_rem
                + if div_rem.get(k).copied().unwrap_or(false) {
                    s.nonzero
                } else {
                    0
                };
            r.branches += s.branches + branches;
            r.divergent += s.divergent;
            r.targets += s.targets + branches;
            r.conditional |= s.conditional;
            r.split_targets += s.split_targets;
            r.split_divergent += s.split_divergent;
        }
    }

    /// The counters cover pcs `base..end` (and those they covered).
    fn widen(&mut self, base: usize, end: usize) {
        if self.raw.is_empty() {
            self.raw_base = base;
        } else if base < self.raw_base {
            let extra = self.raw_base - base;
            self.raw
                .splice(0..0, std::iter::repeat_n(PcStat::default(), extra));
            self.raw_base = base;
        }
        if end > self.raw_base + self.raw.len() {
            self.raw.resize(end - self.raw_base, PcStat::default());
        }
    }

    /// Adds the counts of a report of later blocks (any order: sums do not depend on it): the
    /// blocks of both added one by one give the same report.
    pub fn combine(&mut self, other: &DivergenceReport) {
        self.stale |= other.stale;
        self.model_has_div_rem |= other.model_has_div_rem;
        if other.raw.is_empty() {
            return;
        }
        self.widen(other.raw_base, other.raw_base + other.raw.len());
        let from = other.raw_base - self.raw_base;
        for (r, s) in self.raw[from..from + other.raw.len()].iter_mut().zip(&other.raw) {
            r.insts += s.insts;
            r.lanes += s.lanes;
            r.div_rem += s.div_rem;
            r.branches += s.branches;
            r.divergent += s.divergent;
            r.targets += s.targets;
            r.conditional |= s.conditional;
            r.split_targets += s.split_targets;
            r.split_divergent += s.split_divergent;
        }
    }

    /// Brings the lists and totals up to date with the blocks [`DivergenceReport::add`]ed.
    pub fn finish(&mut self) {
        if self.stale {
            self.rebuild();
        }
    }

    fn rebuild(&mut self) {
        self.stale = false;
        let mut t = Totals::default();
        let mut div_rem = 0;
        self.branches.clear();
        self.instructions.clear();
        for (pc, s) in (self.raw_base..).zip(&self.raw) {
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
            div_rem += s.div_rem;
        }
        t.uniform_targets = t.targets - t.divergent;
        t.branch_efficiency_pct = pct(t.uniform_targets, t.targets);
        t.utilisation_pct = pct(t.active_lanes, 32 * t.inst_executions);
        if self.model_has_div_rem {
            t.debug_machine_estimate = Some(MachineEstimate {
                targets: t.targets + div_rem,
                divergent: t.divergent,
                branch_efficiency_pct: pct(t.targets + div_rem - t.divergent, t.targets + div_rem),
            });
        }
        self.totals = t;
    }

    /// The targets and divergent targets a `WARPSYNC.EXCLUSIVE` on the result of the `match.any` at
    /// `pc` counts over the launch (see [`DivergenceSink::match_groups`]).
    pub fn match_split(&self, pc: u32) -> (u64, u64) {
        (pc as usize)
            .checked_sub(self.raw_base)
            .and_then(|i| self.raw.get(i))
            .map_or((0, 0), |s| (s.split_targets, s.split_divergent))
    }

    /// The figures grouped by source line (`line_of` maps an instruction to its line), in line order.
    pub fn by_line(&self, line_of: &dyn Fn(u32) -> Option<u32>) -> Vec<LineStat> {
        let mut acc: std::collections::BTreeMap<Option<u32>, PcStat> = std::collections::BTreeMap::new();
        for (pc, s) in (self.raw_base..).zip(&self.raw) {
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

/// Emulates a launch with a [`DivergenceSink`] per block and sums them: the divergence of the whole
/// launch. `debug_build`: the PTX was built with `-G` (see [`is_debug_ptx`]).
pub fn run(
    program: &warpscope_emu::Program,
    kernel: &str,
    launch: &warpscope_emu::Launch,
    limits: &warpscope_emu::Limits,
    debug_build: bool,
) -> Result<DivergenceReport, warpscope_emu::EmuError> {
    let model = Arc::new(BranchModel::from_program(program, debug_build));
    let res = warpscope_emu::run(program, kernel, launch, limits, |_| {
        DivergenceSink::new(Arc::clone(&model))
    })?;
    let mut rep = DivergenceReport::new();
    let mut sinks = res.sinks;
    for s in &mut sinks {
        rep.merge(s);
    }
    Ok(rep)
}

impl BranchModel {
    /// Classifies the instructions of `program` from their PTX text. `debug_build`: the PTX was built
    /// with `-G` (its `.target` line says `debug`), so integer div/rem count as machine branches.
    pub fn from_program(program: &warpscope_emu::Program, debug_build: bool) -> BranchModel {
        let n = program.info.len();
        let mut model = BranchModel {
            unconditional: vec![false; n],
            int_div_rem: if debug_build { vec![false; n] } else { Vec::new() },
        };
        for (pc, info) in program.info.iter().enumerate() {
            let text = info.text.trim_start();
            let op = text.split_whitespace().next().unwrap_or("");
            // a `call` left in the lowered program is one the machine code keeps as a `CALL`
            // (device `printf`'s `vprintf`): one uniform branch target per warp execution
            if op == "bra" || op.starts_with("bra.") || op == "call" || op.starts_with("call.") {
                model.unconditional[pc] = true;
            }
            if debug_build {
                let mut parts = op.split('.');
                let base = parts.next().unwrap_or("");
                let ty: Vec<&str> = parts.collect();
                if (base == "div" || base == "rem") && ty.iter().any(|t| matches!(*t, "s32" | "u32")) {
                    model.int_div_rem[pc] = true;
                }
            }
        }
        model
    }
}

/// Whether PTX text was built with `-G`: its `.target` directive lists `debug`.
pub fn is_debug_ptx(ptx: &str) -> bool {
    ptx.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(".target"))
        .is_some_and(|l| l.split([' ', '\t', ',']).any(|w| w == "debug"))
}

impl warpscope_emu::Sink for DivergenceSink {
    fn branch(&mut self, e: &warpscope_emu::BranchEvent) {
        DivergenceSink::branch(self, e.pc, e.active, e.taken);
    }

    #[inline]
    fn inst(&mut self, _warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        DivergenceSink::inst(self, pc, active);
    }

    #[inline]
    fn insts(&mut self, _warp: u32, pc: u32, n: u32, active: warpscope_emu::LaneMask) {
        let slot = pc as usize % RUN_SLOTS;
        let r = &mut self.runs[slot];
        if self.used >> slot & 1 != 0 && r.pc == pc && r.n == n && n != 0 {
            // the run again: with its first lanes one add, with others their sums
            if r.active == active {
                r.hits += 1;
            } else {
                r.count += 1;
                r.lanes += u64::from(active.count_ones());
                r.nonzero += u64::from(active != 0);
            }
            return;
        }
        self.new_run(pc, n, active);
    }

    fn match_groups(&mut self, _warp: u32, pc: u32, groups: u32) {
        DivergenceSink::match_groups(self, pc, groups);
    }

    /// The iteration's counts, `times` over: what replaying its events adds.
    fn repeat(&mut self, it: &warpscope_emu::Iteration, times: u64) {
        use warpscope_emu::IterEvent;
        if times == 0 {
            return;
        }
        for e in &it.events {
            match *e {
                IterEvent::Insts { pc, n, active } => {
                    self.at(pc + n - 1);
                    self.at(pc);
                    let i = (pc - self.base) as usize;
                    let lanes = u64::from(active.count_ones()) * times;
                    let nonzero = u64::from(active != 0) * times;
                    for s in &mut self.stats[i..i + n as usize] {
                        s.insts += times;
                        s.lanes += lanes;
                        s.nonzero += nonzero;
                    }
                }
                IterEvent::Branch { pc, active, taken } => {
                    let taken = taken & active;
                    let split = taken != 0 && taken != active;
                    let s = self.at(pc);
                    s.conditional = true;
                    if active != 0 {
                        s.branches += times;
                        s.targets += times;
                        if split {
                            s.divergent += times;
                        }
                    }
                }
                IterEvent::Mem { .. } | IterEvent::StoreValues { .. } => {}
            }
        }
    }
}

/// Which PTX branches optimised machine code keeps, matched source line by source line.
///
/// ptxas if-converts short branches into predicated instructions (the branch disappears) and keeps
/// the others; Nsight Compute counts the machine code's branches (`smsp__sass_branch_targets` equals
/// the warp-level executions of `BRA`/`BRX`/`JMP`/... , `smsp__sass_inst_executed_op_branch`, on every
/// launch of `calibration/branch/`). Two PTX idioms never reach the machine code as branches:
/// - a branch to a bare `ret` becomes `@P EXIT`, which is not counted (`exits`);
/// - an unconditional `bra` right after a conditional `@p bra`, that no branch jumps to, is the
///   other side of a two-way branch: the machine code inverts the condition and falls through, so
///   the pair is one conditional branch (*fused*; never counted).
///
/// On each source line (`.loc` in the PTX, the line table in the machine code) the remaining PTX
/// branches are compared with the machine code's counted branches (`BRA`, `BRX`, `JMP`, `CALL`; not
/// `EXIT`, `RET` or the unreachable self-loop after the last `EXIT`), conditional and unconditional
/// apart:
/// - as many of each on both sides: the PTX branches are the machine code's, counted as executed;
/// - none in the machine code: the line's branches were predicated, counted as nothing;
/// - otherwise (a loop ptxas unrolled, blocks it laid out in another order, a branch the line table
///   gives to another line): the line is *unmatched*; its PTX branches are still counted and the
///   totals are labelled an estimate.
///
/// A `call` the lowering keeps (device `printf`'s `vprintf`, `assert`'s `__assertfail`) is the
/// machine code's `CALL`. A device `assert(c)` is `@p bra` around `call.uni __assertfail` in the PTX
/// (both on the assert's line; when the branch only skips to a `ret`, ptxas makes it `@P EXIT`,
/// which `exits` drops) and `@P BRA` around `CALL.ABS.NOINC` in the machine code (sm_90, -O2; the
/// `BSSY`/`BSYNC` pair around it is no branch): the line matches one-for-one, every warp that
/// reaches a passing assert executes one uniform conditional target, and the `CALL` is never
/// executed (a failing one counts one target per warp that calls it, then the grid traps). A
/// `BRA.DIV` (the convergence check ptxas puts before warp collectives it cannot prove converged) has
/// no PTX branch: a converged warp executes it as one uniform target, so each warp-level execution
/// of the collective it guards (found by ordinal on the collective's line,
/// `convergence_check_at`) adds one; its slow path (`SassKernel::slow_paths`) runs only for a
/// diverged warp, so its branches are not matched, and a check that ran with fewer than 32 lanes
/// makes the totals an estimate ([`MachineMatch::exact_for`]). An `atom.cas` in a kernel with
/// counted branches makes them an estimate too (a retry loop's trip count depends on the GPU's
/// timing).
///
/// Measured on an H100 (`calibration/branch/`, `calibration/run/`): every launch whose lines all
/// match equals Nsight Compute; the PTX-level count (no matching), matching without the fused pairs
/// and matching that ignores whether a branch is conditional each break measured launches
/// (`crates/cli/tests/branch_calibration.rs` counts them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MachineMatch {
    /// `counted[pc]`: the branch at `pc` is counted (pcs are program-wide; absent = not counted).
    pub counted: Vec<bool>,
    /// Source lines (`None`: no line table) whose branches could not be matched one-to-one.
    pub unmatched: Vec<Option<u32>>,
    /// The PTX warp collectives each machine-code `BRA.DIV` convergence check runs before: every
    /// warp-level execution of one is one more (uniform) branch target.
    pub convergence_checks: Vec<u32>,
    /// Source lines of `BRA.DIV` convergence checks whose PTX collective's member mask is not the
    /// constant full warp (cooperative groups' tiles): the GPU takes the check's slow path, on a
    /// converged warp too, unless the lanes whose guard holds are exactly the check's mask
    /// operand's lanes (H200, `calibration/bradiv/`; cgtiles `tileSums<8>`/`<4>`: one more target
    /// a warp than the fast path). That depends on the lanes' member masks, which the PTX count
    /// does not see, so the branch counters are the machine flow's (which applies the rule) or an
    /// estimate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partial_mask_checks: Vec<Option<u32>>,
    /// The machine code's `WARPSYNC.EXCLUSIVE`s, which Nsight Compute counts as branches: each
    /// names the PTX instruction whose executions it follows (see [`ExclusiveSync`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclusive_syncs: Vec<ExclusiveSync>,
    /// Source lines where the machine code lets lanes leave a convergence region past its join
    /// ([`early_joins`]): the lanes that reach the join wait there for each other, earlier than the
    /// PTX's immediate post-dominator reconverges them, so the PTX emulation runs the code after
    /// the join once per side where the GPU runs it once. These lines are unmatched as well, and
    /// the launch's shared and global counts are the machine code's own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub early_joins: Vec<Option<u32>>,
    /// The same match under the alternative rules the calibration rows break (name, match), for
    /// `calibration/branch/`'s replay; empty for an alternative's own match.
    #[serde(skip)]
    pub alternatives: Vec<(&'static str, MachineMatch)>,
}

impl MachineMatch {
    /// Whether every line matched: the branch counters are those of the machine code.
    pub fn exact(&self) -> bool {
        self.unmatched.is_empty() && self.partial_mask_checks.is_empty()
    }

    /// Whether the branch at `pc` is counted.
    pub fn is_counted(&self, pc: u32) -> bool {
        self.counted.get(pc as usize).copied().unwrap_or(false)
    }

    /// Targets and divergent targets of `report` that the machine code executes as branches: the
    /// counted branches, plus one uniform target per execution of a `BRA.DIV` convergence check.
    pub fn totals(&self, report: &DivergenceReport) -> (u64, u64) {
        let (t, d) = report
            .branches
            .iter()
            .filter(|b| self.is_counted(b.pc))
            .fold((0, 0), |(t, d), b| (t + b.targets, d + b.divergent));
        let executions = |pc: u32| {
            report
                .instructions
                .iter()
                .filter(|i| i.pc == pc)
                .map(|i| i.executions)
                .sum::<u64>()
        };
        let checks: u64 = self.convergence_checks.iter().map(|&pc| executions(pc)).sum();
        let (mut st, mut sd) = (0, 0);
        for s in &self.exclusive_syncs {
            match *s {
                ExclusiveSync::Uniform { pc } => st += executions(pc),
                ExclusiveSync::Split { pc } => {
                    let (a, b) = report.match_split(pc);
                    st += a;
                    sd += b;
                }
            }
        }
        (t + checks + st, d + sd)
    }

    /// Whether [`MachineMatch::totals`] of `report` are the machine code's counts: every line
    /// matched, and every convergence check ran with all 32 lanes (a warp that reaches one
    /// diverged takes ptxas's slow path, whose branches are not modelled).
    pub fn exact_for(&self, report: &DivergenceReport) -> bool {
        self.exact()
            && report
                .instructions
                .iter()
                .filter(|i| self.convergence_checks.contains(&i.pc))
                .all(|i| i.active_lanes == 32 * i.executions)
    }
}

/// A machine-code `WARPSYNC.EXCLUSIVE R`: Nsight Compute counts it as a branch
/// (`smsp__sass_inst_executed_op_branch`) whose targets depend on how its mask register `R` splits
/// the warp (H100, `calibration/run/partition.cu`: per execution max(1, k - 1) targets, k - 1 of
/// them divergent, k the distinct masks among the lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ExclusiveSync {
    /// `R` comes from `VOTE.ANY R, PT, PT` (the active mask: one group): one uniform target per
    /// execution of the PTX collective it comes before.
    Uniform {
        /// The PTX collective.
        pc: u32,
    },
    /// `R` comes from `MATCH.ANY`: the groups of the PTX `match.any` at `pc`, per execution.
    Split {
        /// The PTX `match.any`.
        pc: u32,
    },
}

/// The PTX warp collective a `BRA.DIV` guards: the machine code's next collective is the k-th on
/// its source line (in code order); the k-th PTX collective of that line (in program order) is it.
/// ptxas keeps a line's collectives in program order on the fast path and puts the slow-path copies
/// after the function's exits, so they do not shift the ordinal of a check before them. `None` when
/// the PTX has no such collective.
fn convergence_check_at(
    program: &warpscope_emu::Program,
    k: &warpscope_emu::Kernel,
    sass: &warpscope_toolchain::sass::SassKernel,
    check: &warpscope_toolchain::sass::SassBranch,
) -> Option<u32> {
    let next = sass
        .collectives
        .iter()
        .find(|c| c.code_offset > check.code_offset)?;
    ptx_collective_of(program, k, sass, next)
}

/// Whether PTX warp collective `text` (`shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`: the
/// member mask is the last operand; without `.sync`, the whole warp) names the full warp as a
/// constant member mask.
pub fn full_warp_member_mask(text: &str) -> bool {
    let t = text.trim().trim_end_matches(';').trim();
    let op = t.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or("");
    if !op.split('.').any(|m| m == "sync") {
        return true;
    }
    let last = t.rsplit(',').next().unwrap_or("").trim();
    let v = if let Some(h) = last.strip_prefix("0x").or_else(|| last.strip_prefix("0X")) {
        u64::from_str_radix(h.trim_end_matches(['U', 'u']), 16).ok()
    } else {
        last.trim_end_matches(['U', 'u'])
            .parse::<i64>()
            .ok()
            .map(|v| v as u64)
    };
    v.is_some_and(|v| v as u32 == u32::MAX)
}

/// The PTX warp collective that machine-code collective `next` is: the k-th on its source line in
/// code order is the k-th PTX collective of that line in program order. `None` when the PTX has no
/// such collective.
fn ptx_collective_of(
    program: &warpscope_emu::Program,
    k: &warpscope_emu::Kernel,
    sass: &warpscope_toolchain::sass::SassKernel,
    next: &warpscope_toolchain::sass::SassInst,
) -> Option<u32> {
    use warpscope_ptx::inst::Inst;
    let key = |file: Option<&str>, line: Option<u32>| (file.map(base_name).map(str::to_string), line);
    let at = key(next.file.as_deref(), next.line);
    at.1?;
    let kth = sass
        .collectives
        .iter()
        .filter(|c| c.code_offset < next.code_offset && key(c.file.as_deref(), c.line) == at)
        .count();
    (k.entry..k.end)
        .filter(|&pc| {
            matches!(
                program.ops[pc as usize].inst,
                Inst::Shfl { .. } | Inst::Vote { .. } | Inst::Match { .. } | Inst::Redux { .. }
            )
        })
        .filter(|&pc| {
            let info = program.inst_info(pc);
            let l = info.loc.as_ref();
            key(l.and_then(|l| program.file_name(l.file)), l.map(|l| l.line)) == at
        })
        .nth(kth)
}

/// What a `WARPSYNC.EXCLUSIVE R` follows: the last `VOTE.ANY R, PT, PT` or `MATCH.ANY R, ...` before
/// it in code order. After the active mask it executes once per execution of the next collective
/// (which it comes before); after a `MATCH.ANY` it splits the warp as that match's groups do. `None`
/// (the line is then unmatched) for any other source of `R`.
fn exclusive_sync_at(
    program: &warpscope_emu::Program,
    k: &warpscope_emu::Kernel,
    sass: &warpscope_toolchain::sass::SassKernel,
    sync: &warpscope_toolchain::sass::SassBranch,
) -> Option<ExclusiveSync> {
    let reg = sync.operands.split(',').next()?.trim();
    let def = sass
        .collectives
        .iter()
        .rev()
        .find(|c| c.code_offset < sync.code_offset && c.first_operand() == reg)?;
    if def.opcode.starts_with("MATCH.ANY") {
        let pc = ptx_collective_of(program, k, sass, def)?;
        return matches!(
            program.ops[pc as usize].inst,
            warpscope_ptx::inst::Inst::Match { all: false, .. }
        )
        .then_some(ExclusiveSync::Split { pc });
    }
    let active_mask = def.opcode == "VOTE.ANY" && def.operands.split(',').skip(1).all(|o| o.trim() == "PT");
    if !active_mask {
        return None;
    }
    let next = sass
        .collectives
        .iter()
        .find(|c| c.code_offset > sync.code_offset)?;
    Some(ExclusiveSync::Uniform {
        pc: ptx_collective_of(program, k, sass, next)?,
    })
}

/// Whether the loops whose backward branch is on source line `key` run as many iterations in the
/// machine code as in the PTX: ptxas unrolls a loop by its own factor (lavamd-shaped
/// `for (j = 0; j < 50; ++j)`: the PTX's body does 2 iterations, the machine code's 6), which keeps
/// one conditional branch on the line in both, so the line's branches match while the machine code
/// executes that branch a third as often. Per iteration the loop body moves the same bytes of
/// shared and global memory in both only when the factors are equal (vector accesses count their
/// bytes); a line with one backward branch in each whose bodies move different bytes does not
/// match (a load ptxas hoists out of the loop makes a line unmatched that may have been equal:
/// the machine code's own flow, or an estimate, then counts it).
fn same_unrolling(
    program: &warpscope_emu::Program,
    sass: &warpscope_toolchain::sass::SassKernel,
    pcs: &[u32],
    key: &(Option<String>, Option<u32>),
) -> bool {
    use warpscope_ptx::inst::{Inst, MemSpace};
    let ptx_loops: Vec<(u32, u32)> = pcs
        .iter()
        .filter_map(|&pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } if target <= pc => Some((target, pc)),
            _ => None,
        })
        .collect();
    let on_line = |b: &warpscope_toolchain::sass::SassBranch| {
        (b.file.as_deref().map(base_name).map(str::to_string), b.line) == *key
    };
    let machine_loops: Vec<(u32, u32)> = sass
        .loops()
        .into_iter()
        .filter(|&(_, end)| sass.branches.iter().any(|b| b.code_offset == end && on_line(b)))
        .collect();
    let ([(pa, pz)], [(ma, mz)]) = (&ptx_loops[..], &machine_loops[..]) else {
        return true;
    };
    let ptx_bytes: u64 = (*pa..=*pz)
        .map(|pc| match program.ops[pc as usize].inst {
            Inst::Ld { space, ty, vec, .. } | Inst::St { space, ty, vec, .. }
                if matches!(space, MemSpace::Shared | MemSpace::Global | MemSpace::Generic) =>
            {
                u64::from(ty.bytes()) * u64::from(vec.max(1))
            }
            _ => 0,
        })
        .sum();
    let width = |opcode: &str| -> u64 {
        let parts: Vec<&str> = opcode.split('.').collect();
        if parts.contains(&"128") {
            16
        } else if parts.contains(&"64") {
            8
        } else if parts.iter().any(|p| matches!(*p, "U8" | "S8")) {
            1
        } else if parts.iter().any(|p| matches!(*p, "U16" | "S16")) {
            2
        } else {
            4
        }
    };
    let inside = |o: u32| (*ma..=*mz).contains(&o);
    let shared: u64 = sass
        .accesses
        .iter()
        .filter(|a| inside(a.code_offset))
        .filter(|a| a.opcode.starts_with("LDS") || a.opcode.starts_with("STS"))
        .map(|a| width(&a.opcode))
        .sum();
    let global: u64 = sass
        .globals
        .iter()
        .filter(|g| inside(g.code_offset))
        .filter(|g| ["LDG", "STG", "LD", "ST"].contains(&g.opcode.split('.').next().unwrap_or("")))
        .map(|g| width(&g.opcode))
        .sum();
    ptx_bytes == shared + global
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Matches the branches of `kernel`'s PTX with its machine code's (`sass`), line by line (see
/// [`MachineMatch`]). `exits`: PTX branches whose target only returns (they become `@P EXIT`).
pub fn match_machine(
    program: &warpscope_emu::Program,
    kernel: &str,
    exits: &std::collections::HashSet<u32>,
    sass: &warpscope_toolchain::sass::SassKernel,
) -> Option<MachineMatch> {
    let mut m = match_machine_with(program, kernel, exits, sass, MatchRule::default())?;
    for (name, rule) in [
        (
            "no_fused_pairs",
            MatchRule {
                fuse_pairs: false,
                by_kind: true,
            },
        ),
        (
            "any_kind",
            MatchRule {
                fuse_pairs: true,
                by_kind: false,
            },
        ),
    ] {
        if let Some(alt) = match_machine_with(program, kernel, exits, sass, rule) {
            m.alternatives.push((name, alt));
        }
    }
    Some(m)
}

/// Source lines of the machine code's `BREAK`s whose lanes then leave the convergence region past
/// its join: `BSSY B0, J` ... `@!P0 BREAK B0; @!P0 BRA K` with `K` not `J` (or `@!P0 EXIT`).
/// ptxas makes `if (t == 0 || d[t - 1] != v) s[v] = t;` one region joined at the store: the
/// lanes of `t == 0` wait at `BSYNC B0` for those of the second test that store too, while those
/// that do not break out, so the store runs once for the warp (an H200: calibration/run/bench9's
/// `radix`, `localSort`: 1024 store requests where a join at the immediate post-dominator, after
/// the store, makes 1088). A loop's `break` that jumps to the loop's own join is not one.
pub fn early_joins(sass: &warpscope_toolchain::sass::SassKernel) -> Vec<Option<u32>> {
    // `0x1040` or nvdisasm's `` `(.L_x_5) ``
    let at = |s: &str| -> Option<u32> {
        let s = s.trim().trim_start_matches('`').trim_start_matches('(');
        let s = s.trim_end_matches(';').trim().trim_end_matches(')').trim();
        match s.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => sass.labels.get(s).copied(),
        }
    };
    let base = |o: &str| o.split('.').next().unwrap_or("").to_string();
    let mut out = Vec::new();
    for (i, x) in sass.insts.iter().enumerate() {
        if base(&x.opcode) != "BREAK" {
            continue;
        }
        let bar = x.operands.split(',').next().unwrap_or("").trim();
        // the region the BREAK leaves: the nearest `BSSY` of its barrier before it
        let Some(join) = sass.insts[..i]
            .iter()
            .rev()
            .find(|y| base(&y.opcode) == "BSSY" && y.operands.split(',').next().map(str::trim) == Some(bar))
            .and_then(|y| at(y.operands.split(',').nth(1)?))
        else {
            continue;
        };
        // where the breaking lanes go: the first instruction after the BREAKs of the same guard
        let next = sass.insts[i + 1..]
            .iter()
            .find(|y| !(base(&y.opcode) == "BREAK" && y.predicate == x.predicate));
        let leaves = next.is_some_and(|y| {
            y.predicate == x.predicate
                && match base(&y.opcode).as_str() {
                    "BRA" => at(&y.operands).is_some_and(|k| k != join),
                    "EXIT" => true,
                    _ => false,
                }
        });
        if leaves && !out.contains(&x.line) {
            out.push(x.line);
        }
    }
    out
}

/// The branches of `kernel` whose target is a `ret`/`exit` (machine code makes them `@P EXIT`,
/// which Nsight Compute does not count as a branch).
pub fn exit_branches(program: &warpscope_emu::Program, kernel: &str) -> std::collections::HashSet<u32> {
    use warpscope_ptx::inst::Inst;
    let Some(k) = program.kernel(kernel) else {
        return Default::default();
    };
    (k.entry..k.end)
        .filter(|&pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } => program
                .ops
                .get(target as usize)
                .is_some_and(|op| matches!(op.inst, Inst::Exit)),
            _ => false,
        })
        .collect()
}

/// Variants of [`match_machine`]'s rule, for measuring what each part of it is worth: the default
/// is the rule; the others are the alternatives the calibration rows break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRule {
    /// Fuse `@p bra A; bra B` into one conditional branch.
    pub fuse_pairs: bool,
    /// Compare conditional and unconditional branches apart (else only their sum).
    pub by_kind: bool,
}

impl Default for MatchRule {
    fn default() -> Self {
        MatchRule {
            fuse_pairs: true,
            by_kind: true,
        }
    }
}

/// [`match_machine`] under a chosen rule.
pub fn match_machine_with(
    program: &warpscope_emu::Program,
    kernel: &str,
    exits: &std::collections::HashSet<u32>,
    sass: &warpscope_toolchain::sass::SassKernel,
    rule: MatchRule,
) -> Option<MachineMatch> {
    use std::collections::{BTreeMap, HashSet};
    use warpscope_ptx::inst::{Inst, PSrc};
    let k = program.kernel(kernel)?;
    let is_bra = |pc: u32| matches!(program.ops[pc as usize].inst, Inst::Bra { .. });
    // a `call` left in the lowered program (device `printf`, a failing `assert`'s `__assertfail`,
    // a device runtime call) is the machine code's `CALL`
    let is_branch = |pc: u32| {
        is_bra(pc)
            || matches!(
                program.ops[pc as usize].inst,
                Inst::Printf { .. } | Inst::AssertFail { .. } | Inst::DevRt { .. }
            )
    };
    let conditional = |pc: u32| program.ops[pc as usize].guard != PSrc::TRUE;
    let targets: HashSet<u32> = (k.entry..k.end)
        .filter_map(|pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } => Some(target),
            _ => None,
        })
        .collect();
    type Key = (Option<String>, Option<u32>);
    // (conditional, unconditional) branches per line.
    let mut ptx: BTreeMap<Key, (Vec<u32>, usize, usize)> = BTreeMap::new();
    // unconditional branches right before the block a fused pair falls through to in the machine
    // code, when that block is not the pair's next instruction (see `displaced` below)
    let mut displaced: HashSet<u32> = HashSet::new();
    for pc in k.entry..k.end {
        if !is_branch(pc) || exits.contains(&pc) {
            continue;
        }
        let fused = rule.fuse_pairs
            && !conditional(pc)
            && pc > k.entry
            && is_bra(pc - 1)
            && conditional(pc - 1)
            && !targets.contains(&pc);
        if fused {
            if let Inst::Bra { target, .. } = program.ops[pc as usize].inst
                && target != pc + 1
                && target > k.entry
                && is_bra(target - 1)
                && !conditional(target - 1)
            {
                displaced.insert(target - 1);
            }
            continue;
        }
        let info = program.inst_info(pc);
        let key = match &info.loc {
            Some(l) => (
                program.file_name(l.file).map(|f| base_name(f).to_string()),
                Some(l.line),
            ),
            None => (None, None),
        };
        let e = ptx.entry(key).or_default();
        e.0.push(pc);
        if conditional(pc) {
            e.1 += 1;
        } else {
            e.2 += 1;
        }
    }
    let mut machine: BTreeMap<Key, (usize, usize)> = BTreeMap::new();
    let mut convergence_checks = Vec::new();
    let mut exclusive = Vec::new();
    let slow = sass.slow_paths();
    for b in sass.branches.iter().filter(|b| b.counted()) {
        // a convergence check's slow path runs only for a diverged warp (`exact_for`)
        if slow.iter().any(|&(a, z)| (a..=z).contains(&b.code_offset)) {
            continue;
        }
        if b.opcode.starts_with("BRA.DIV") {
            convergence_checks.push(b);
            continue;
        }
        if b.opcode.starts_with("WARPSYNC.EXCLUSIVE") {
            exclusive.push(b);
            continue;
        }
        let key = match b.line {
            Some(line) => (b.file.as_deref().map(|f| base_name(f).to_string()), Some(line)),
            None => (None, None),
        };
        let e = machine.entry(key).or_default();
        if b.predicate.as_deref().is_some_and(|p| p != "PT") {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    let mut out = MachineMatch {
        counted: vec![false; program.info.len()],
        unmatched: Vec::new(),
        convergence_checks: Vec::new(),
        partial_mask_checks: Vec::new(),
        exclusive_syncs: Vec::new(),
        early_joins: early_joins(sass),
        alternatives: Vec::new(),
    };
    out.unmatched.extend(out.early_joins.iter().copied());
    // the kernel's own source file: that of its first instruction with a line
    let main_file: Option<String> = (k.entry..k.end).find_map(|pc| {
        let l = program.inst_info(pc).loc.as_ref()?;
        program.file_name(l.file).map(|f| base_name(f).to_string())
    });
    let mut lines: Vec<&Key> = ptx.keys().chain(machine.keys()).collect();
    lines.sort();
    lines.dedup();
    let none = (Vec::new(), 0, 0);
    for key in lines {
        let (pcs, pc_cond, pc_uncond) = ptx.get(key).unwrap_or(&none);
        let (m_cond, m_uncond) = machine.get(key).copied().unwrap_or((0, 0));
        if m_cond + m_uncond == 0 {
            continue;
        }
        let same = if rule.by_kind {
            (*pc_cond, *pc_uncond) == (m_cond, m_uncond)
        } else {
            pc_cond + pc_uncond == m_cond + m_uncond
        };
        // an unconditional branch on a line of another file (a header's function inlined at
        // several places: every `atomicAdd` is line 107 of its header) may be the machine code's
        // at another of those places: ptxas lays an `if`/`else` out with the other side falling
        // through (the H200 counts that jump for the warps that run the other side), and the
        // line's counts match by chance
        let elsewhere = key.0.is_some() && key.0 != main_file && (*pc_uncond > 0 || m_uncond > 0);
        // a fused pair `@p bra A; bra B` whose B is not its next instruction: ptxas moves B's block
        // up to fall through from the pair, so the unconditional `bra C` that ended the block
        // before B becomes a fall-through and B's block, which fell through to C, ends in a new
        // `BRA C`: the line keeps its counts of each kind but the jump runs for other warps
        // (`calibration/run/bench6`'s `bestOffset`: the PTX's `bra.uni` after the taken side's
        // stores ran 152 times, the machine code's `BRA` after the equal-keys test never; ncu
        // 2194 targets where these counts gave 2346)
        let moved = pcs.iter().any(|pc| displaced.contains(pc));
        if !same || elsewhere || moved || !same_unrolling(program, sass, pcs, key) {
            out.unmatched.push(key.1);
        }
        for &pc in pcs {
            out.counted[pc as usize] = true;
        }
    }
    for b in convergence_checks {
        match convergence_check_at(program, k, sass, b) {
            Some(pc) => {
                if !full_warp_member_mask(&program.inst_info(pc).text) {
                    out.partial_mask_checks.push(b.line);
                }
                out.convergence_checks.push(pc)
            }
            None => out.unmatched.push(b.line),
        }
    }
    for b in exclusive {
        match exclusive_sync_at(program, k, sass, b) {
            Some(s) => out.exclusive_syncs.push(s),
            None => out.unmatched.push(b.line),
        }
    }
    // A compare-and-swap retry loop runs as often as the GPU's warps collide on the word, which
    // depends on their timing (a book-style `atomicCAS` loop: 4576 targets on an H100 where the
    // emulator's serial warps take 496): its branch counters are an estimate.
    let cas = (k.entry..k.end).any(|pc| {
        matches!(
            program.ops[pc as usize].inst,
            Inst::Atom {
                op: warpscope_ptx::inst::AtomOp::Cas,
                ..
            }
        )
    });
    if cas && out.counted.iter().any(|&c| c) && out.unmatched.is_empty() {
        out.unmatched.push(None);
    }
    out.unmatched.dedup();
    Some(out)
}

#[cfg(test)]
mod repeat_tests {
    use super::*;
    use warpscope_emu::{IterEvent, Iteration, Sink};

    /// Counting an iteration `times` over gives the counts of replaying its events `times` times:
    /// instruction runs of full and partial warps, uniform, split and untaken branches, memory
    /// events the sink ignores.
    #[test]
    fn a_repeated_iteration_counts_as_its_replay() {
        let mut lanes = vec![[0u64; 32]];
        lanes[0][3] = 64;
        let it = Iteration {
            block: 2,
            warp: 1,
            events: vec![
                IterEvent::Insts {
                    pc: 10,
                    n: 3,
                    active: u32::MAX,
                },
                IterEvent::Mem {
                    pc: 13,
                    space: warpscope_emu::Space::Global,
                    op: warpscope_emu::AccessOp::Load,
                    width: 4,
                    mask: 0xff,
                    addrs: 0,
                },
                IterEvent::Insts {
                    pc: 13,
                    n: 1,
                    active: 0xff,
                },
                IterEvent::Insts {
                    pc: 7,
                    n: 2,
                    active: 0,
                },
                IterEvent::Branch {
                    pc: 14,
                    active: 0xff,
                    taken: 0xff,
                },
                IterEvent::Branch {
                    pc: 15,
                    active: 0xff,
                    taken: 0x0f,
                },
                IterEvent::Branch {
                    pc: 16,
                    active: 0xff,
                    taken: 0,
                },
                IterEvent::Branch {
                    pc: 17,
                    active: 0,
                    taken: 0,
                },
            ],
            lanes,
        };
        let model = Arc::new(BranchModel::default());
        for times in [0u64, 1, 2, 7, 1000] {
            let mut a = DivergenceSink::new(model.clone());
            let mut b = DivergenceSink::new(model.clone());
            // some counts before, as in a block
            a.insts(1, 12, 2, 0x3);
            b.insts(1, 12, 2, 0x3);
            Sink::repeat(&mut a, &it, times);
            it.replay_times(&mut b, times);
            a.flush();
            b.flush();
            assert_eq!((a.base, &a.stats), (b.base, &b.stats), "times {times}");
        }
    }
}

#[cfg(test)]
mod early_join_tests {
    use super::early_joins;

    fn kernel(body: &str) -> warpscope_toolchain::sass::SassKernel {
        let text = format!(".section\t.text.k,\"ax\",@progbits\n{body}");
        warpscope_toolchain::sass::parse_disassembly(&text)
            .unwrap()
            .remove(0)
    }

    /// `if (t == 0 || d[t - 1] != v) s[v] = t;` as ptxas lays it out (calibration/run/bench9's
    /// `radix`): the lanes whose second test fails break out of the region joined at the store
    /// and jump past it; a loop's `break` to its own join is no early join.
    #[test]
    fn a_break_past_the_join_is_an_early_join() {
        let radix = kernel(
            "//## File \"k.cu\", line 55\n\
             /*0000*/ BSSY B0, `(.L_x_1) ;\n\
             /*0010*/ @!P0 BRA `(.L_x_1) ;\n\
             /*0020*/ LDS.U8 R3, [R0+UR4+-0x1] ;\n\
             /*0030*/ ISETP.NE.AND P0, PT, R6, R3, PT ;\n\
             /*0040*/ @!P0 BREAK B0 ;\n\
             /*0050*/ @!P0 BRA `(.L_x_2) ;\n\
             .L_x_1:\n\
             /*0060*/ BSYNC B0 ;\n\
             /*0070*/ STG.E desc[UR10][R2.64], R0 ;\n\
             .L_x_2:\n\
             /*0080*/ EXIT ;\n",
        );
        assert_eq!(early_joins(&radix), vec![Some(55)]);
        let looped = kernel(
            "//## File \"k.cu\", line 7\n\
             /*0000*/ BSSY B0, `(.L_x_1) ;\n\
             .L_x_0:\n\
             /*0010*/ LDG.E R3, desc[UR4][R2.64] ;\n\
             /*0020*/ ISETP.NE.AND P0, PT, R3, RZ, PT ;\n\
             /*0030*/ @!P0 BREAK B0 ;\n\
             /*0040*/ @!P0 BRA `(.L_x_1) ;\n\
             /*0050*/ IADD3 R2, R2, 0x4, RZ ;\n\
             /*0060*/ BRA `(.L_x_0) ;\n\
             .L_x_1:\n\
             /*0070*/ BSYNC B0 ;\n\
             /*0080*/ EXIT ;\n",
        );
        assert_eq!(early_joins(&looped), Vec::<Option<u32>>::new());
    }
}

#[cfg(test)]
mod member_mask_tests {
    use super::full_warp_member_mask;

    /// A `BRA.DIV` before a tile's collective (member mask in a register, or a constant that is
    /// not the whole warp) is not modelled by the PTX count; one before a whole-warp collective is.
    #[test]
    fn only_a_constant_full_warp_mask_is_the_whole_warp() {
        assert!(full_warp_member_mask("shfl.sync.bfly.b32 %r5, %r4, 16, 31, -1;"));
        assert!(full_warp_member_mask(
            "@%p1 vote.sync.ballot.b32 %r2, %p3, 0xffffffff;"
        ));
        assert!(full_warp_member_mask("redux.sync.add.u32 %r1, %r2, 4294967295;"));
        assert!(full_warp_member_mask("vote.any.pred %p1, %p2;"));
        assert!(!full_warp_member_mask("vote.sync.ballot.b32 %r9, %p2, %r3;"));
        assert!(!full_warp_member_mask(
            "shfl.sync.down.b32 %r1, %r2, 1, 31, 65535;"
        ));
        assert!(!full_warp_member_mask("match.any.sync.b32 %r1, %r2, 0x0000ffff;"));
    }
}
