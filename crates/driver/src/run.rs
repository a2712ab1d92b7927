//! One emulation of one launch with every requested analysis attached, and its one results value.
//!
//! [`analyze_launch`] is the entry point for callers that already hold a lowered [`Program`] and a
//! prepared [`Launch`] (no files, no command line): it attaches the sinks the [`Sections`] ask for
//! (bank counters, divergence counters, the race tracker, the fix advisor's recorder) to a single
//! [`Multi`] sink per block, runs the emulator once, and gathers [`Results`]. [`analyze_launch_in`]
//! does the same against a persistent global space the caller owns (a CUDA runtime's device
//! memory: `warpscope run`), where the launch's side effects stay.

pub use crate::locate::{is_toolkit_header, locate, user_frame};
use std::sync::Arc;

use warpscope_analysis::banks::{BankReport, BankRun, BankSink, MatrixForms};
use warpscope_analysis::cluster_races::{
    ClusterOps, ClusterRaceReport, ClusterRaceSink, ClusterRaces, ClusterShape,
};
use warpscope_analysis::divergence::{BranchModel, DivergenceReport, DivergenceSink};
use warpscope_analysis::fix::{self, Advice, AdviseConfig, ArrayInfo, Target, Trace, TraceSink, WhatIf};
use warpscope_analysis::global_init::{GlobalInitReport, GlobalInitSink, InitMap};
use warpscope_analysis::global_races::{GlobalRaceReport, GlobalRaceSink, GlobalShared, SyncOps};
use warpscope_analysis::hazards::{AsyncOps, Finding, HazardConfig, HazardReport, HazardSink};
use warpscope_emu::mem::Global;
use warpscope_emu::{
    AccessOp, BarrierEvent, BranchEvent, EmuError, EmuFault, LaneMask, Launch, Limits, MemEvent, Program,
    Sink, Space,
};
use warpscope_model::arch::Arch;

use crate::error::{Error, Result};
use crate::group::{Group, group};
use crate::machine::{Resources, Widths};

static EMULATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many emulations this process has run through the driver (the invariant "one emulation per
/// request, whatever the sections" is tested with it).
pub fn emulations() -> u64 {
    EMULATIONS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The analyses one run answers, as Nsight Compute's sections: `banks`, `divergence`, `hazards`,
/// `fix`, `occupancy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sections {
    /// Shared-memory wavefronts per instruction, line and launch.
    pub banks: bool,
    /// Branch divergence and lane utilisation.
    pub divergence: bool,
    /// Races, barriers, uninitialised and out-of-bounds accesses.
    pub hazards: bool,
    /// Padding / swizzle / permutation suggestions (records the shared accesses).
    pub fix: bool,
    /// ptxas's registers and the occupancy calculator (no emulation).
    pub occupancy: bool,
}

impl Sections {
    /// The section names, in order.
    pub const NAMES: [&'static str; 5] = ["banks", "divergence", "hazards", "fix", "occupancy"];

    /// Every section.
    pub const ALL: Sections = Sections {
        banks: true,
        divergence: true,
        hazards: true,
        fix: true,
        occupancy: true,
    };

    /// No section.
    pub const NONE: Sections = Sections {
        banks: false,
        divergence: false,
        hazards: false,
        fix: false,
        occupancy: false,
    };

    /// Parses `banks,divergence,...` (or `all`).
    pub fn parse(list: &str) -> Result<Sections> {
        let mut s = Sections::NONE;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "all" => s = Sections::ALL,
                "banks" => s.banks = true,
                "divergence" => s.divergence = true,
                "hazards" => s.hazards = true,
                "fix" => s.fix = true,
                "occupancy" => s.occupancy = true,
                other => {
                    return Err(Error::input(format!(
                        "--section: unknown section `{other}` (sections: {}, all)",
                        Sections::NAMES.join(", ")
                    )));
                }
            }
        }
        if s == Sections::NONE {
            return Err(Error::input("--section: name at least one section"));
        }
        Ok(s)
    }

    /// The names of the sections asked for.
    pub fn names(&self) -> Vec<&'static str> {
        let on = [
            self.banks,
            self.divergence,
            self.hazards,
            self.fix,
            self.occupancy,
        ];
        Sections::NAMES
            .iter()
            .zip(on)
            .filter(|(_, o)| *o)
            .map(|(n, _)| *n)
            .collect()
    }

    /// Whether any asked-for section needs the emulator.
    pub fn emulates(&self) -> bool {
        self.banks || self.divergence || self.hazards || self.fix
    }
}

/// What the fix advisor needs beside the launch.
#[derive(Clone, Debug)]
pub struct FixOptions {
    /// The architecture the suggestions are for.
    pub target: Target,
    /// Registers per thread, when known.
    pub registers: Option<u32>,
    /// Where `registers` comes from (`ptxas`, `--registers`).
    pub registers_from: String,
    /// The CUDA source text, for source edits.
    pub source: Option<String>,
    /// Architectures to compare the layouts under (`fix --arch`), if any.
    pub what_if: Option<Vec<Target>>,
}

/// Whether kernel `k`'s machine code has a `YIELD` inside a loop (ptxas's mark of a loop over
/// volatile loads or one that may wait on other threads): on the H200 the lanes leaving such a loop
/// on different iterations run the code after it apart, each group alone, up to a warp sync or the
/// end (calibration/yield/README.md), where the PTX emulation joins them at the loop's
/// post-dominator, so the machine code's own control flow is followed on every launch. A `YIELD`
/// at the start of a function ptxas kept apart holds no lanes apart.
pub fn yield_loops(k: &warpscope_toolchain::sass::SassKernel) -> bool {
    let loops = k.loops();
    k.insts.iter().any(|i| {
        i.opcode.split('.').next() == Some("YIELD")
            && loops.iter().any(|&(a, z)| (a..=z).contains(&i.code_offset))
    })
}

/// When the machine code's control flow is followed (`WARPSCOPE_MACHINE_FLOW`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowMode {
    /// Where the PTX's branches do not match the machine code's line for line (the default).
    Unmatched,
    /// On every launch (`always`: the tests' differential check against the line matching).
    Always,
    /// Never (`off`: the PTX-level count alone, labelled an estimate where lines differ).
    Off,
}

impl FlowMode {
    /// The mode `WARPSCOPE_MACHINE_FLOW` asks for.
    pub fn from_env() -> FlowMode {
        match std::env::var("WARPSCOPE_MACHINE_FLOW").as_deref() {
            Ok("always") => FlowMode::Always,
            Ok("off") => FlowMode::Off,
            _ => FlowMode::Unmatched,
        }
    }

    /// Whether a launch whose branches match as `m` says is followed.
    pub fn follows(self, m: &warpscope_analysis::divergence::MachineMatch) -> bool {
        match self {
            FlowMode::Unmatched => !m.exact(),
            FlowMode::Always => true,
            FlowMode::Off => false,
        }
    }
}

/// Runs the machine code's control flow just before the launch's blocks, on the memory the launch
/// starts from, and checks afterwards that what a memory-dependent decision read is unchanged.
/// Where that run stops and a decision may depend on shared memory, the launch's starting memory
/// is kept, the emulation's blocks record their shared memory
/// ([`warpscope_analysis::machine_flow::FlowShared`]), and the flow runs again after the launch
/// on both.
struct FlowObserver<'f> {
    flow: &'f warpscope_analysis::machine_flow::MachineFlow,
    grid: [u32; 3],
    block: [u32; 3],
    cluster: [u32; 3],
    /// The module's global variables' addresses (constant bank 4) and its functions' (indirect
    /// calls).
    symbols: Vec<(String, u64)>,
    /// The module's `__constant__` variables' bytes as the launch starts (constant bank 3).
    constants: Vec<(String, Vec<u8>)>,
    /// The blocks' shared-memory records, asked for when the first run needs them.
    shared: Arc<warpscope_analysis::machine_flow::FlowShared>,
    /// The launch's starting memory and parameters, kept for the run after the launch.
    again: Option<(warpscope_emu::mem::Global, Vec<u8>)>,
    /// The run after the launch is on the emulation's shared record (else the starting memory is
    /// kept only for a run given [`warpscope_analysis::machine_flow::FlowLate`]).
    rerun: bool,
    run: Option<
        Result<
            (
                warpscope_analysis::machine_flow::FlowCounts,
                warpscope_analysis::machine_flow::FlowReads,
            ),
            String,
        >,
    >,
    verdict: Option<Result<warpscope_analysis::machine_flow::FlowCounts, String>>,
    /// The counts of a run that went through on values the launch itself changed
    /// ([`Results::machine_flow_unheld`]).
    unheld: Option<warpscope_analysis::machine_flow::FlowCounts>,
}

/// The most bytes of global memory kept for the flow's run after a launch.
const FLOW_SNAPSHOT_BYTES: u64 = 1 << 30;

/// The most runs given the words a launch's blocks stored before their barriers
/// ([`warpscope_analysis::machine_flow::FlowLate`]).
const FLOW_LATE_RUNS: usize = 3;

impl warpscope_emu::LaunchObserver for FlowObserver<'_> {
    fn before(&mut self, params: &[u8], global: &warpscope_emu::mem::Global) {
        let run = self.flow.run(
            &warpscope_analysis::machine_flow::FlowLaunch {
                global: Some(global),
                grid: self.grid,
                block: self.block,
                params,
                symbols: &self.symbols,
                constants: &self.constants,
                cluster: self.cluster,
                shared: None,
            },
            1 << 32,
        );
        // a run that stopped, or gave its shared or global counts up (an access under a guard
        // or at an address from shared memory), is run again on the emulation's shared record
        let incomplete = match &run {
            Err(_) => true,
            Ok((c, _)) => c.shared_why.is_some() || c.global_why.is_some(),
        };
        let again = incomplete && self.flow.reads_shared();
        // a run that read words its block had stored before a barrier it passed may run again
        // with them as the launch leaves them (FlowReads::late)
        let late = run.as_ref().is_ok_and(|(_, r)| r.reads_earlier_stores());
        if (again || late) && global.regions().map(|(_, len)| len).sum::<u64>() <= FLOW_SNAPSHOT_BYTES {
            let copy = global
                .regions()
                .filter_map(|(base, _)| Some((base, global.contents(base)?)))
                .collect();
            self.again = Some((warpscope_emu::mem::Global::new(copy), params.to_vec()));
            self.rerun = again;
            if again {
                self.shared.ask();
            }
        }
        self.run = Some(run);
    }

    fn after(&mut self, global: &warpscope_emu::mem::Global) {
        let kept = self.again.take();
        let blocks = self.shared.asked().then(|| self.shared.take());
        if let (Some((start, params)), Some(blocks)) = (kept.as_ref().filter(|_| self.rerun), blocks.as_ref())
        {
            let again = self.flow.run(
                &warpscope_analysis::machine_flow::FlowLaunch {
                    global: Some(start),
                    grid: self.grid,
                    block: self.block,
                    params,
                    symbols: &self.symbols,
                    constants: &self.constants,
                    cluster: self.cluster,
                    shared: Some(blocks),
                },
                1 << 32,
            );
            // a first run that went through keeps its counts where the second stops
            if again.is_ok() || !self.run.as_ref().is_some_and(Result::is_ok) {
                self.run = Some(again);
            }
        }
        // reads of words the reader's block stored before a barrier the reader passed were
        // answered from the starting memory: run again with those words as the launch left them
        // (a path that goes elsewhere on the right values may read words the run before did not:
        // a few more runs, each given the words its predecessor's warps stored)
        for _ in 0..FLOW_LATE_RUNS {
            let Some((start, params)) = &kept else { break };
            let Some(Ok((_, reads))) = &self.run else { break };
            if reads.hold(global) {
                break;
            }
            let Some(late) = reads.late(global) else { break };
            let again = self.flow.run_late(
                &warpscope_analysis::machine_flow::FlowLaunch {
                    global: Some(start),
                    grid: self.grid,
                    block: self.block,
                    params,
                    symbols: &self.symbols,
                    constants: &self.constants,
                    cluster: self.cluster,
                    shared: blocks.as_ref(),
                },
                Some(&late),
                1 << 32,
            );
            if again.is_err() {
                break;
            }
            self.run = Some(again);
        }
        let mut unheld = None;
        self.verdict = self.run.take().map(|r| {
            r.and_then(|(counts, reads)| {
                // Shared loads are answered from the emulation's record of the launch
                // (machine_flow/shared.rs), which every STS the flow computes is checked against:
                // lud's pivot follows the H200 instruction for instruction on it. The places where
                // two cohorts stand at one instruction while their group waits on a shared load
                // (`counts.may_join`, machine_flow/join.rs) need no label: the H200 ran them apart
                // unless ncu instrumented the shared loads by address
                // (calibration/run/bench2/README.md, "pivot's extra target").
                if reads.hold(global) {
                    Ok(counts)
                } else {
                    unheld = Some(counts);
                    Err("a branch depends on global memory that the launch itself changes".to_string())
                }
            })
        });
        self.unheld = unheld;
    }
}

/// Options of one run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The emulator's limits.
    pub limits: Limits,
    /// The PTX was built with `-G` (see `warpscope_analysis::divergence::is_debug_ptx`).
    pub debug_build: bool,
    /// The fix advisor's options (the `fix` section; `None`: the target is the run's architecture,
    /// registers unknown).
    pub fix: Option<FixOptions>,
    /// ptxas's resources, for the `occupancy` section and the fix advisor's occupancy figures.
    pub resources: Option<Resources>,
    /// Count global-memory requests and sectors ([`Results::global`]).
    pub global_sectors: bool,
    /// The kernel's branch model, when the caller keeps one across launches (else built from the
    /// program and `debug_build`).
    pub branches: Option<Arc<BranchModel>>,
    /// The program's LDSM / STSM / LDGSTS forms, when the caller keeps them across launches.
    pub forms: Option<Arc<MatrixForms>>,
    /// Follow this machine code's control flow on the launch for the branch counters
    /// ([`Results::machine_flow`]), when the caller keeps it across launches. Without it, the
    /// `divergence` section follows `Widths::sass` where its branches do not match the PTX's line
    /// for line (`WARPSCOPE_MACHINE_FLOW`: `always` on every launch, `off` never).
    pub machine_flow: Option<Arc<warpscope_analysis::machine_flow::MachineFlow>>,
    /// The kernel's parameter names in the source, for messages (empty: unknown).
    pub param_names: Vec<String>,
    /// Report same-value writes (two threads writing the same bytes to one shared address
    /// unordered) as findings; by default they are counted in [`Hazards::same_value_hidden`].
    pub same_value_writes: bool,
    /// Leave global memory out of the hazard checker (see `warpscope_analysis::global_races`);
    /// by default `hazards` checks global races too.
    pub no_global_races: bool,
    /// With `hazards`: which bytes of the program's device allocations were written before this
    /// launch; reads of others are `uninitialized_global_read` findings, and
    /// [`Results::global_written`] gives the map after the launch (see
    /// `warpscope_analysis::global_init`). `None`: global reads are not checked so.
    pub global_init: Option<Arc<InitMap>>,
    /// Counts the blocks done as they end (see `warpscope_emu::Watch::done`), for a caller that
    /// shows a long launch's progress.
    pub progress: Option<&'static std::sync::atomic::AtomicU64>,
    /// No block starts after this instant (see `warpscope_emu::Watch::deadline`): a launch that
    /// reaches it runs only its first blocks, and [`Results::stopped`] says so.
    pub deadline: Option<std::time::Instant>,
}

pub use warpscope_analysis::global::GlobalCounts;

/// The sink of one block: every requested analysis side by side, each fed every event.
pub struct Multi<'f> {
    banks: Option<BankSink>,
    divergence: Option<DivergenceSink>,
    // the checker's and the advisor's sinks are large and rare: boxed, so that the default
    // counters' sink stays small to create and move per block
    hazards: Option<Box<HazardSink>>,
    global_races: Option<Box<GlobalRaceSink>>,
    global_init: Option<Box<GlobalInitSink>>,
    cluster: Option<Box<ClusterRaceSink>>,
    trace: Option<Box<TraceSink>>,
    global: Option<GlobalCounts>,
    /// The program's copy forms, with `global` (`.cg` copies count their sectors apart).
    copy_forms: Option<&'f MatrixForms>,
    /// The lanes of the next `cp.async` event that read a source (`Sink::copy_sources`).
    sources: Option<(u32, u32, u32)>,
    /// The block's shared memory for the machine code's flow, when it asks.
    flow_shared: Option<warpscope_analysis::machine_flow::SharedRecorder>,
    /// A sink other than the divergence counts takes instruction events ([`Multi::insts_rest`]):
    /// set once the sinks are in place ([`Multi::with_rest`]), tested per run of instructions.
    rest: bool,
    /// The blocks counted (more than one where it went on to the next blocks of its part:
    /// [`Sink::next_block`]).
    blocks: u32,
}

impl<'f> Multi<'f> {
    /// The sink with `rest` set from its sinks.
    fn with_rest(mut self) -> Multi<'f> {
        self.rest = self.banks.as_ref().is_some_and(BankSink::counts_insts)
            || self.hazards.is_some()
            || self.global_races.is_some()
            || self.cluster.is_some();
        self
    }

    /// [`Sink::insts`] for the sinks other than the divergence counts.
    #[inline(never)]
    fn insts_rest(&mut self, warp: u32, pc: u32, n: u32, active: LaneMask) {
        if let Some(s) = &mut self.banks {
            Sink::insts(s, warp, pc, n, active);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::insts(s, warp, pc, n, active);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::insts(s, warp, pc, n, active);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::insts(s, warp, pc, n, active);
        }
    }
}

impl<'f> Multi<'f> {
    /// [`Sink::mem`]; `run`: the event is a whole warp's global run ([`Sink::mem_run`]).
    #[inline(always)]
    fn mem_at(&mut self, e: &MemEvent<'_>, run: bool) {
        if let Some(s) = &mut self.flow_shared {
            s.mem(e);
        }
        // lanes of a zero-fill `cp.async` whose source size is 0 read no global memory (H200:
        // no request and no sector, calibration/cpasync/zfill_h100.tsv)
        let narrowed;
        let e = match (e.op, self.sources.take()) {
            (AccessOp::CpAsync, Some((w, pc, s))) if w == e.warp && pc == e.pc => {
                if let Some(b) = &mut self.banks {
                    b.mem(e);
                }
                if let Some(t) = self.trace.as_deref_mut() {
                    t.mem(e);
                }
                if let Some(h) = self.hazards.as_deref_mut() {
                    h.mem(e);
                }
                narrowed = MemEvent {
                    mask: e.mask & s,
                    ..*e
                };
                if let Some(g) = &mut self.global
                    && let Some(src) = narrowed.src
                {
                    let bypass = self.copy_forms.as_ref().is_some_and(|f| f.is_bypass_copy(e.pc));
                    g.record_copy(narrowed.width, narrowed.mask, narrowed.addrs, src, bypass);
                }
                if let Some(s) = self.global_races.as_deref_mut() {
                    s.mem(&narrowed);
                }
                if let Some(s) = self.global_init.as_deref_mut() {
                    Sink::mem(s, &narrowed);
                }
                return;
            }
            _ => e,
        };
        if let Some(g) = &mut self.global {
            if run {
                g.record_run(e.op, e.width, e.addrs);
            } else if e.space == Space::Global {
                g.record(e.op, e.width, e.mask, e.addrs);
            }
            // cp.async reads its sources through the LSU: ncu counts them as global load requests
            // and sectors (H100, calibration/run/h100/tensor: one request per LDGSTS)
            if let (AccessOp::CpAsync, Some(src)) = (e.op, e.src) {
                let bypass = self.copy_forms.as_ref().is_some_and(|f| f.is_bypass_copy(e.pc));
                g.record_copy(e.width, e.mask, e.addrs, src, bypass);
            }
        }
        if let Some(s) = &mut self.banks {
            s.mem(e);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            s.mem(e);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            s.mem(e);
        }
        if let Some(s) = self.global_init.as_deref_mut() {
            Sink::mem(s, e);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            s.mem(e);
        }
        if let Some(s) = self.trace.as_deref_mut() {
            s.mem(e);
        }
    }
}

impl Sink for Multi<'_> {
    /// The bank counts, the global sector counts and the machine flow's shared recorder look at
    /// shared and global accesses only; the other sinks are asked nothing and take every load.
    fn param_loads(&self) -> bool {
        self.hazards.is_some()
            || self.global_races.is_some()
            || self.global_init.is_some()
            || self.cluster.is_some()
            || self.trace.is_some()
    }

    fn copy_sources(&mut self, warp: u32, pc: u32, sources: u32) {
        self.sources = Some((warp, pc, sources));
        if let Some(s) = &mut self.banks {
            Sink::copy_sources(s, warp, pc, sources);
        }
    }

    fn mem(&mut self, e: &MemEvent<'_>) {
        self.mem_at(e, false);
    }

    /// A whole warp's global run: its sectors from the first lane's address
    /// (`GlobalCounts::record_run`), the rest as [`Sink::mem`].
    fn mem_run(&mut self, e: &MemEvent<'_>) {
        self.mem_at(e, true);
    }

    fn remote_shared(&mut self, e: &warpscope_emu::RemoteEvent<'_>) {
        if let Some(s) = self.cluster.as_deref_mut() {
            s.remote_shared(e);
        }
    }

    fn mbar_arrive(&mut self, warp: u32, pc: u32, lane: u32, rank: u32, addr: u64, completed: Option<u8>) {
        if let Some(s) = self.hazards.as_deref_mut() {
            s.mbar_arrive(warp, pc, lane, rank, addr, completed);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::mbar_arrive(s, warp, pc, lane, rank, addr, completed);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            s.mbar_arrive(warp, pc, lane, rank, addr, completed);
        }
    }

    fn cluster_copy(&mut self, e: &warpscope_emu::ClusterCopy) {
        if let Some(s) = self.cluster.as_deref_mut() {
            s.cluster_copy(e);
        }
    }

    fn atomic_values(
        &mut self,
        warp: u32,
        pc: u32,
        op: warpscope_ptx::inst::AtomOp,
        ty: warpscope_ptx::inst::Ty,
        mask: u32,
        values: &[u64; 32],
    ) {
        if let Some(s) = &mut self.flow_shared {
            Sink::atomic_values(s, warp, pc, op, ty, mask, values);
        }
    }

    fn async_write(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::async_write(s, warp, pc, lo, hi);
        }
        if let Some(s) = &mut self.flow_shared {
            Sink::async_write(s, warp, pc, lo, hi);
        }
    }

    fn async_read(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::async_read(s, warp, pc, lo, hi);
        }
    }

    fn mbarrier(&mut self, e: &warpscope_emu::MbarEvent) {
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::mbarrier(s, e);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::mbarrier(s, e);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::mbarrier(s, e);
        }
        if let Some(s) = &mut self.flow_shared {
            Sink::mbarrier(s, e);
        }
    }

    fn tma_load(&mut self, warp: u32, pc: u32, dst: u64, swizzle: u8, row_bytes: u64, rows: u64) {
        if let Some(s) = self.trace.as_deref_mut() {
            Sink::tma_load(s, warp, pc, dst, swizzle, row_bytes, rows);
        }
    }

    fn wgmma_desc(
        &mut self,
        warp: u32,
        pc: u32,
        form: warpscope_ptx::inst::WgmmaForm,
        a: Option<u64>,
        b: u64,
    ) {
        if let Some(s) = self.trace.as_deref_mut() {
            Sink::wgmma_desc(s, warp, pc, form, a, b);
        }
    }

    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        if let Some(s) = &mut self.flow_shared {
            Sink::store_values(s, warp, pc, elem, rows);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::store_values(s, warp, pc, elem, rows);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::store_values(s, warp, pc, elem, rows);
        }
    }

    fn branch(&mut self, e: &BranchEvent) {
        if let Some(s) = &mut self.divergence {
            Sink::branch(s, e);
        }
    }

    fn match_groups(&mut self, warp: u32, pc: u32, groups: u32) {
        if let Some(s) = &mut self.divergence {
            Sink::match_groups(s, warp, pc, groups);
        }
    }

    fn barrier(&mut self, e: &BarrierEvent) {
        if let Some(s) = &mut self.flow_shared {
            Sink::barrier(s, e);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::barrier(s, e);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::barrier(s, e);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::barrier(s, e);
        }
    }

    fn barrier_partial(&mut self, block: u32, id: u32, arrived: u32, waited: u32) {
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::barrier_partial(s, block, id, arrived, waited);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::barrier_partial(s, block, id, arrived, waited);
        }
    }

    fn barrier_release(&mut self, block: u32, pc: u32, generation: u32) {
        if let Some(s) = &mut self.flow_shared {
            Sink::barrier_release(s, block, pc, generation);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::barrier_release(s, block, pc, generation);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::barrier_release(s, block, pc, generation);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::barrier_release(s, block, pc, generation);
        }
    }

    fn inst(&mut self, warp: u32, pc: u32, active: LaneMask) {
        if let Some(s) = &mut self.banks {
            Sink::inst(s, warp, pc, active);
        }
        if let Some(s) = &mut self.divergence {
            Sink::inst(s, warp, pc, active);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::inst(s, warp, pc, active);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::inst(s, warp, pc, active);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::inst(s, warp, pc, active);
        }
    }

    #[inline(always)]
    fn insts(&mut self, warp: u32, pc: u32, n: u32, active: LaneMask) {
        // each sink keeps its own counts: the divergence counts (`run`'s default) first, the
        // others, rare, out of line
        if let Some(s) = &mut self.divergence {
            Sink::insts(s, warp, pc, n, active);
        }
        if self.rest {
            self.insts_rest(warp, pc, n, active);
        }
    }

    fn warp_exit(&mut self, warp: u32) {
        if let Some(s) = &mut self.flow_shared {
            Sink::warp_exit(s, warp);
        }
        if let Some(s) = self.hazards.as_deref_mut() {
            Sink::warp_exit(s, warp);
        }
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::warp_exit(s, warp);
        }
        if let Some(s) = self.cluster.as_deref_mut() {
            Sink::warp_exit(s, warp);
        }
    }

    fn block_order(&mut self, in_order: bool) {
        if let Some(s) = self.global_races.as_deref_mut() {
            Sink::block_order(s, in_order);
        }
    }

    /// With `run`'s counters alone (the bank, divergence and global sector counts: sums per pc,
    /// and the bank's first worst request, which a sink counting blocks in order keeps as the
    /// in-order merge does), the sink counts the part's next block too. The checker's and the
    /// advisor's sinks and the machine flow's shared record are per block: a sink of its own.
    fn next_block(&mut self, block: u32) -> bool {
        if self.flow_shared.is_some()
            || self.trace.is_some()
            || self.hazards.is_some()
            || self.global_races.is_some()
            || self.global_init.is_some()
            || self.cluster.is_some()
        {
            return false;
        }
        if let Some(s) = &mut self.banks {
            s.next_block(block);
        }
        self.sources = None;
        self.blocks += 1;
        true
    }

    /// With `run`'s counters alone, each counts the iteration `times` over (what replaying its
    /// events to them adds: the global sectors of its global accesses, the divergence counts of
    /// its instructions and branch, the bank sink nothing for global accesses); with the checker,
    /// the advisor or the flow's shared record, every sink hears the events again.
    fn repeat(&mut self, it: &warpscope_emu::Iteration, times: u64) {
        let others = self.hazards.is_some()
            || self.global_races.is_some()
            || self.global_init.is_some()
            || self.cluster.is_some()
            || self.trace.is_some()
            || self.flow_shared.is_some()
            || self.sources.is_some();
        if others {
            it.replay_times(self, times);
            return;
        }
        if let Some(g) = &mut self.global {
            let mut once = GlobalCounts::default();
            for e in &it.events {
                if let warpscope_emu::IterEvent::Mem {
                    space: Space::Global,
                    op,
                    width,
                    mask,
                    addrs,
                    ..
                } = *e
                {
                    once.record(op, width, mask, &it.lanes[addrs as usize]);
                }
            }
            g.add_times(&once, times);
        }
        if let Some(s) = &mut self.banks {
            Sink::repeat(s, it, times);
        }
        if let Some(s) = &mut self.divergence {
            Sink::repeat(s, it, times);
        }
    }
}

/// The hazard checker's results.
#[derive(Debug)]
pub struct Hazards {
    /// The launch as the checker saw it (shared regions, block shape).
    pub config: Arc<HazardConfig>,
    /// Every finding, errors first, then by line.
    pub findings: Vec<Finding>,
    /// The findings grouped for people (see [`crate::group`]).
    pub groups: Vec<Group>,
    /// Faults that are not findings (the instruction limit): later accesses of those blocks were
    /// not checked; one line each.
    pub unchecked: Vec<String>,
    /// Of those, what dynamic parallelism left unpaired: grids launched by the launched grids,
    /// or launched grids that could not be run (see [`crate::devgrids`]).
    pub device_grid_notes: Vec<String>,
    /// Same-value writes not reported (without [`RunOptions::same_value_writes`]): instruction
    /// pairs and byte accesses.
    pub same_value_hidden: (usize, u64),
    /// Global memory checked for races (`None`: left out, [`RunOptions::no_global_races`]): the
    /// most shadow bytes held at once, and whether the budget
    /// (`warpscope_analysis::global_races::GLOBAL_SHADOW_BUDGET_BYTES`) stopped tracking new words.
    pub global_shadow: Option<(u64, bool)>,
}

/// The fix advisor's results.
#[derive(Debug)]
pub struct FixResults {
    /// The recorded shared accesses.
    pub trace: Trace,
    /// The kernel's shared arrays.
    pub arrays: Vec<ArrayInfo>,
    /// The advice, or why there is none.
    pub advice: std::result::Result<Advice, String>,
    /// The what-if comparison when asked for, or why it failed.
    pub what_if: Option<std::result::Result<WhatIf, String>>,
}

/// Everything one run found.
#[derive(Debug)]
pub struct Results {
    /// Kernel (`.entry` name).
    pub kernel: String,
    /// Grid, in blocks.
    pub grid: [u32; 3],
    /// Block, in threads.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// The architecture.
    pub arch: &'static Arch,
    /// How shared accesses were counted.
    pub widths: Widths,
    /// The sections this run answers.
    pub sections: Sections,
    /// Blocks emulated (0 when nothing was emulated).
    pub blocks_emulated: u32,
    /// Blocks in the grid.
    pub blocks_in_grid: u64,
    /// Warp instructions executed.
    pub warp_insts: u64,
    /// Thread instructions executed (each warp instruction's active lanes, summed).
    pub thread_insts: u64,
    /// What the TMA instructions did (instructions, global sectors).
    pub tma: warpscope_emu::tma::TmaCounts,
    /// The lowest pc of a local load that read bytes its thread never stored in the launch
    /// ([`warpscope_emu::Counters::undefined_local_read`]).
    pub undefined_local_read: Option<u32>,
    /// A plain launch in which this block waited on other blocks, so that it and the later ones
    /// ran interleaved ([`warpscope_emu::Counters::waited`]).
    pub waited: Option<u32>,
    /// [`RunOptions::deadline`] passed before every block had started: only the first
    /// `blocks_emulated` blocks ran (the counters are theirs, the bank counters scaled to the grid).
    pub stopped: bool,
    /// The emulator's faults.
    pub faults: Vec<EmuFault>,
    /// Each fault in words (see [`crate::fault::describe`]), in the order of `faults`.
    pub fault_messages: Vec<String>,
    /// Bank counters (`banks`), scaled to the grid when blocks were sampled.
    pub banks: Option<BankRun>,
    /// Divergence counters (`divergence`).
    pub divergence: Option<DivergenceReport>,
    /// The PTX branches the machine code keeps (`divergence`, when the machine code was read and
    /// the build is not `-G`): Nsight Compute's branch counters are
    /// [`MachineMatch::totals`](warpscope_analysis::divergence::MachineMatch::totals) of
    /// `divergence`.
    pub machine_branches: Option<warpscope_analysis::divergence::MachineMatch>,
    /// The branch counters of the machine code followed on the launch's values, or why it could
    /// not be followed (`None`: not tried). They replace [`MachineMatch::totals`] where lines do not
    /// match.
    pub machine_flow: Option<Result<warpscope_analysis::machine_flow::FlowCounts, String>>,
    /// Whether the machine code has a `YIELD` loop ([`yield_loops`]; then the branch counters are
    /// the flow's, on every launch), and why its counts of what follows may not be the H200's
    /// ([`MachineFlow::yield_doubt`](warpscope_analysis::machine_flow::MachineFlow::yield_doubt)):
    /// `None` without one, `Some(None)` where the flow's counts are the GPU's.
    pub yield_loops: Option<Option<&'static str>>,
    /// Where [`Results::machine_flow`] is an error because the flow went through on values the
    /// launch itself changed (another thread's store to a word it read): the counts of that run,
    /// on the words as the launch started (or as its blocks left them before a barrier). Not the
    /// GPU's, whose reads see some of those stores, but the machine code's own flow on the
    /// launch's data: an estimate, where the PTX's count misses what ptxas's code does (lanes
    /// leaving a `YIELD` loop run apart).
    pub machine_flow_unheld: Option<warpscope_analysis::machine_flow::FlowCounts>,
    /// Hazards (`hazards`).
    pub hazards: Option<Hazards>,
    /// With [`RunOptions::global_init`]: which bytes of those allocations were written once the
    /// launch ended (before it, or by it).
    pub global_written: Option<InitMap>,
    /// With [`RunOptions::global_init`]: the bytes of global memory the launch read, wrote and
    /// updated atomically, per instruction (`warpscope_analysis::footprint`).
    pub global_footprint: Option<warpscope_analysis::footprint::Footprint>,
    /// The fix advisor (`fix`).
    pub fix: Option<FixResults>,
    /// ptxas's resources (`occupancy`, when given).
    pub resources: Option<Resources>,
    /// Global-memory requests and sectors (when [`RunOptions::global_sectors`]).
    pub global: Option<GlobalCounts>,
    /// Device `printf`s the launch executed, in the order a GPU prints them.
    pub printf: Vec<warpscope_emu::printf::Printed>,
    /// Kernels the grid's threads launched (dynamic parallelism), in block order, then launch
    /// order; the caller runs them ([`warpscope_emu::devlaunch`]).
    pub launches: Vec<warpscope_emu::devlaunch::DeviceLaunch>,
    /// Failing device `assert`s (each thread that executed `__assertfail` before the grid trapped),
    /// in block order; the launch's faults then include [`warpscope_emu::FaultKind::Assert`].
    pub asserts: Vec<warpscope_emu::AssertFailure>,
    /// Each argument's final bytes (`None`: not a buffer), as the one emulation left them; empty
    /// when the launch ran against a caller-owned global space (which then holds them).
    pub buffers: Vec<Option<Vec<u8>>>,
}

/// Analyses one launch of `kernel` in `program`: one emulation with the sinks `sections` asks for,
/// counting shared accesses as `widths` says, on `arch`. The entry point for callers that hold a
/// lowered program and a prepared launch (no files); [`crate::analyze`] is the file-based layer
/// over it.
///
/// ```
/// use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
/// let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 4 .b8 s[128];\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tst.shared.u32 [%r2], %r1;\n\tret;\n}\n";
/// let program = warpscope_ptx::compile(ptx).unwrap();
/// let launch = warpscope_emu::Launch::new([1, 1, 1], [32, 1, 1], vec![]);
/// let arch = warpscope_model::arch::Arch::parse("sm_90").unwrap();
/// let r = analyze_launch(&program, "k", &launch, &Sections::ALL, arch,
///     &Widths::ptx_level("PTX-level"), &RunOptions::default()).unwrap();
/// assert_eq!(r.banks.unwrap().report.total(warpscope_analysis::banks::Side::Store).wavefronts, 1);
/// assert!(r.hazards.unwrap().findings.is_empty());
/// ```
pub fn analyze_launch(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    sections: &Sections,
    arch: &'static Arch,
    widths: &Widths,
    opts: &RunOptions,
) -> Result<Results> {
    if program.kernel(kernel).is_none() {
        return Err(Error::input(format!("no kernel `{kernel}` in the program")));
    }
    Ok(emulate(
        program, kernel, launch, None, sections, arch, widths, opts,
    )?)
}

/// [`analyze_launch`] against `global`, a persistent global space the caller owns (device
/// allocations live across launches; pointers are plain addresses, see `warpscope_emu::run_in`):
/// the one emulation, with the same sinks, leaves its side effects in `global`. The emulator's
/// errors come back as they are, for a runtime to turn into its error codes. The launch runs even
/// with no section asked for (its side effects are the caller's).
///
/// ```
/// use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch_in};
/// use warpscope_emu::{Arg, Launch, mem::Global};
/// let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";
/// let program = warpscope_ptx::compile(ptx).unwrap();
/// let global = Global::new(vec![(0x1000, vec![0; 128])]);
/// let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::U64(0x1000)]);
/// let arch = warpscope_model::arch::Arch::parse("sm_90").unwrap();
/// let opts = RunOptions { global_sectors: true, ..RunOptions::default() };
/// let r = analyze_launch_in(&program, "k", &launch, &global, &Sections::ALL, arch,
///     &Widths::ptx_level("PTX-level"), &opts).unwrap();
/// let g = r.global.unwrap();
/// assert_eq!((g.st_requests, g.st_sectors), (1, 4));
/// let mut last = [0u8; 4];
/// global.read_range(0x1000 + 4 * 31, &mut last).unwrap();
/// assert_eq!(last, 31u32.to_le_bytes());
/// ```
#[allow(clippy::too_many_arguments)]
pub fn analyze_launch_in(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    global: &Global,
    sections: &Sections,
    arch: &'static Arch,
    widths: &Widths,
    opts: &RunOptions,
) -> std::result::Result<Results, EmuError> {
    emulate(
        program,
        kernel,
        launch,
        Some(global),
        sections,
        arch,
        widths,
        opts,
    )
}

/// The one emulation behind [`analyze_launch`] and [`analyze_launch_in`].
#[allow(clippy::too_many_arguments)]
fn emulate(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    global: Option<&Global>,
    sections: &Sections,
    arch: &'static Arch,
    widths: &Widths,
    opts: &RunOptions,
) -> std::result::Result<Results, EmuError> {
    let k = program
        .kernel(kernel)
        .ok_or_else(|| EmuError::NoKernel(kernel.into(), String::new()))?;
    let blocks_in_grid: u64 = launch.grid.iter().map(|&g| u64::from(g)).product();
    let mut results = Results {
        kernel: kernel.to_string(),
        grid: launch.grid,
        block: launch.block,
        dyn_smem: launch.dyn_smem,
        arch,
        widths: widths.clone(),
        sections: *sections,
        blocks_emulated: 0,
        blocks_in_grid,
        warp_insts: 0,
        thread_insts: 0,
        tma: Default::default(),
        undefined_local_read: None,
        waited: None,
        stopped: false,
        faults: Vec::new(),
        fault_messages: Vec::new(),
        banks: None,
        divergence: None,
        machine_branches: None,
        machine_flow: None,
        machine_flow_unheld: None,
        yield_loops: None,
        hazards: None,
        global_written: None,
        global_footprint: None,
        fix: None,
        resources: opts.resources.clone(),
        global: None,
        printf: Vec::new(),
        launches: Vec::new(),
        asserts: Vec::new(),
        buffers: Vec::new(),
    };
    // Against a caller's persistent space the launch always runs: its side effects are the
    // caller's, whatever the sections.
    if global.is_none() && !sections.emulates() && !opts.global_sectors {
        return Ok(results);
    }
    let model = sections.divergence.then(|| match &opts.branches {
        Some(m) => Arc::clone(m),
        None => Arc::new(BranchModel::from_program(program, opts.debug_build)),
    });
    let hazard_cfg = sections.hazards.then(|| {
        let mut c = HazardConfig::for_kernel(k, launch.block, launch.dyn_smem);
        // the cluster's other blocks may write this block's shared memory
        c.cluster_peers =
            warpscope_emu::cluster_dims(k, launch.grid, launch.cluster, launch.cluster_nonportable)
                .is_ok_and(|(d, _)| d.iter().product::<u32>() > 1);
        Arc::new(c)
    });
    // distributed shared memory: one checker per cluster, shared by its blocks' sinks
    let cluster_races = hazard_cfg
        .as_ref()
        .and_then(|_| {
            warpscope_emu::cluster_dims(k, launch.grid, launch.cluster, launch.cluster_nonportable).ok()
        })
        .filter(|(d, _)| d.iter().product::<u32>() > 1)
        .map(|(d, _)| {
            ClusterRaces::new(
                ClusterShape {
                    grid: launch.grid,
                    cluster: d,
                    threads: launch.block.iter().product(),
                },
                Arc::new(ClusterOps::of_range(program, k.entry, k.end)),
            )
        });
    let global_ops = hazard_cfg.as_ref().filter(|_| !opts.no_global_races).map(|_| {
        // in clusters of more than one block: the cluster's blocks checked together
        let clusters =
            warpscope_emu::cluster_dims(k, launch.grid, launch.cluster, launch.cluster_nonportable)
                .ok()
                .filter(|(d, _)| d.iter().product::<u32>() > 1)
                .map(|(d, _)| {
                    warpscope_analysis::global_races::GlobalClusters::new(ClusterShape {
                        grid: launch.grid,
                        cluster: d,
                        threads: launch.block.iter().product(),
                    })
                });
        (
            Arc::new(SyncOps::of_range(program, k.entry, k.end)),
            GlobalShared::new(),
            clusters,
        )
    });
    // strong accesses, fences, release and acquire within a block, for kernels that have them
    let sync_ops = hazard_cfg
        .as_ref()
        .map(|_| match &global_ops {
            Some((o, _, _)) => Arc::clone(o),
            None => Arc::new(SyncOps::of_range(program, k.entry, k.end)),
        })
        .filter(|o| o.orders_within_block());
    let init_map = hazard_cfg.as_ref().and(opts.global_init.as_ref());
    let async_ops = hazard_cfg
        .as_ref()
        .map(|_| AsyncOps::of(program))
        .filter(|o| !o.is_empty())
        .map(Arc::new);
    let wgmma_ops = hazard_cfg
        .as_ref()
        .map(|_| warpscope_analysis::wgmma_hazards::WgmmaOps::of(program))
        .filter(|o| !o.is_empty())
        .map(Arc::new);
    let warp_sync_ops = hazard_cfg
        .as_ref()
        .map(|_| warpscope_analysis::warp_sync::WarpCollectives::of_range(program, k.entry, k.end))
        .filter(|o| !o.is_empty())
        .map(Arc::new);
    let proxy_ops = hazard_cfg
        .as_ref()
        .map(|_| warpscope_analysis::async_proxy::ProxyOps::of(program))
        .filter(|o| !o.is_empty())
        .map(Arc::new);
    let recon = &widths.recon;
    let forms = (sections.banks || sections.fix).then(|| match &opts.forms {
        Some(f) => Arc::clone(f),
        None => Arc::new(MatrixForms::of(program)),
    });
    let copy_forms = opts.global_sectors.then(|| match &forms {
        Some(f) => Arc::clone(f),
        None => Arc::new(MatrixForms::of(program)),
    });
    EMULATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let flow_shared = Arc::new(warpscope_analysis::machine_flow::FlowShared::new(
        launch.block.iter().product(),
    ));
    // merged blocks' bank and divergence sinks, emptied for the next blocks (their buffers and
    // the bank sink's pattern cache kept)
    let bank_pool = crate::pool::Pool::<BankSink>::new();
    let div_pool = crate::pool::Pool::<DivergenceSink>::new();
    let sinks = |b| {
        Multi {
            flow_shared: flow_shared.recorder(b),
            banks: forms
                .as_ref()
                .filter(|_| sections.banks)
                .map(|f| match bank_pool.pop() {
                    Some(mut s) => {
                        s.for_block(b);
                        s
                    }
                    None => BankSink::new(b, arch, Arc::clone(recon)).with_forms(Arc::clone(f)),
                }),
            divergence: model.as_ref().map(|m| {
                div_pool
                    .pop()
                    .unwrap_or_else(|| DivergenceSink::new(Arc::clone(m)))
            }),
            hazards: hazard_cfg.as_ref().map(|c| {
                let s = HazardSink::new(Arc::clone(c), b);
                let s = match &async_ops {
                    Some(o) => s.with_async_ops(Arc::clone(o)),
                    None => s,
                };
                let s = match &proxy_ops {
                    Some(o) => s.with_proxy_ops(Arc::clone(o)),
                    None => s,
                };
                let s = match &warp_sync_ops {
                    Some(o) => s.with_warp_sync(Arc::clone(o)),
                    None => s,
                };
                let s = match &sync_ops {
                    Some(o) => s.with_sync_ops(Arc::clone(o)),
                    None => s,
                };
                Box::new(match &wgmma_ops {
                    Some(o) => s.with_wgmma_ops(Arc::clone(o)),
                    None => s,
                })
            }),
            global_races: global_ops.as_ref().map(|(ops, shared, clusters)| {
                let s = GlobalRaceSink::new(
                    b,
                    launch.block.iter().product(),
                    Arc::clone(ops),
                    Arc::clone(shared),
                );
                Box::new(match clusters {
                    Some(c) => s.with_cluster(c),
                    None => s,
                })
            }),
            global_init: init_map
                .as_ref()
                .map(|m| Box::new(GlobalInitSink::new(b, Arc::clone(m)))),
            cluster: cluster_races.as_ref().map(|c| Box::new(c.sink(b))),
            sources: None,
            trace: forms
                .as_ref()
                .filter(|_| sections.fix)
                .map(|f| Box::new(TraceSink::new(Arc::clone(recon)).with_forms(Arc::clone(f)))),
            global: opts.global_sectors.then(GlobalCounts::default),
            copy_forms: copy_forms.as_deref(),
            rest: false,
            blocks: 1,
        }
        .with_rest()
    };
    // The machine code's branches matched to the PTX's line by line; where they do not match, the
    // machine code's control flow is followed on the launch, reading the memory it starts from.
    let machine_match = match (sections.divergence, opts.debug_build, &widths.sass) {
        (true, false, Some(sass)) => {
            let exits = warpscope_analysis::divergence::exit_branches(program, kernel);
            warpscope_analysis::divergence::match_machine(program, kernel, &exits, sass)
        }
        _ => None,
    };
    // (and where it has a YIELD loop, always: the lanes leaving it apart run what follows apart,
    // where the PTX emulation joins them, as `run` counts them)
    let yields = sections.divergence
        && !opts.debug_build
        && machine_match.is_some()
        && widths.sass.as_deref().is_some_and(yield_loops);
    let flow = match (&opts.machine_flow, &widths.sass) {
        (Some(f), _) => Some(Arc::clone(f)),
        (None, Some(sass))
            if sections.divergence
                && !opts.debug_build
                && (yields
                    || machine_match
                        .as_ref()
                        .is_some_and(|m| FlowMode::from_env().follows(m))) =>
        {
            Some(Arc::new(warpscope_analysis::machine_flow::MachineFlow::new(sass)))
        }
        _ => None,
    };
    let yield_doubt = yields.then(|| flow.as_ref().and_then(|f| f.yield_doubt()));
    let mut observer = flow.as_ref().map(|f| FlowObserver {
        flow: f,
        grid: launch.grid,
        block: launch.block,
        cluster: warpscope_emu::cluster_dims(k, launch.grid, launch.cluster, launch.cluster_nonportable)
            .map(|(d, _)| d)
            .unwrap_or([1, 1, 1]),
        shared: Arc::clone(&flow_shared),
        again: None,
        rerun: false,
        // global variables (constant bank 4) and functions (the emulation's function pointers,
        // for indirect calls)
        symbols: program
            .vars
            .iter()
            .filter(|v| !v.is_const)
            .map(|v| (v.name.clone(), v.addr))
            .chain(program.functions.iter().cloned())
            .collect(),
        constants: program
            .vars
            .iter()
            .filter(|v| v.is_const)
            .filter_map(|v| {
                let (a, n) = (usize::try_from(v.addr).ok()?, usize::try_from(v.size).ok()?);
                // bytes past the bank's end were never written: zero, as the bank starts
                let mut b = program.const_bank.get(a..).unwrap_or_default().to_vec();
                b.resize(n, 0);
                Some((v.name.clone(), b))
            })
            .collect(),
        run: None,
        verdict: None,
        unheld: None,
    });
    let watch = warpscope_emu::Watch {
        done: opts.progress,
        deadline: opts.deadline,
    };
    // the blocks' sinks merged in block order as they finish (a bounded window of them alive)
    let init = || Merged {
        glob: opts.global_sectors.then(GlobalCounts::default),
        bank: sections.banks.then(BankReport::default),
        div: sections.divergence.then(DivergenceReport::new),
        haz: hazard_cfg
            .as_ref()
            .map(|c| HazardReport::new(Arc::clone(c)).with_loops(loops(program, k))),
        global_races: global_ops.as_ref().map(|_| GlobalRaceReport::default()),
        global_init: init_map.map(|m| GlobalInitReport::new(Arc::clone(m))),
        cluster: cluster_races.as_ref().map(|_| ClusterRaceReport::default()),
        traces: Vec::new(),
        blocks: 0,
        flow: Vec::new(),
    };
    // Without the checker's reports, everything merged is a sum or an in-order rule that merged
    // parts keep (the bank report's first worst request, the traces' order): the blocks are
    // folded in parts on the threads that ran them, the parts combined in block order.
    // (the global race, initialisation and cluster reports come with the checker's)
    let parts = hazard_cfg.is_none();
    let add = |m: &mut Merged, mut s: Multi<'_>| {
        m.blocks += s.blocks;
        if let Some(r) = s.flow_shared.take() {
            // kept in block order: in a part, when the part is combined
            if parts {
                m.flow.push(r);
            } else {
                flow_shared.keep(r);
            }
        }
        if let (Some(r), Some(s)) = (&mut m.glob, &s.global) {
            r.add(s);
        }
        if let (Some(r), Some(mut s)) = (&mut m.bank, s.banks) {
            s.merge_into(r);
            bank_pool.push(s);
        }
        if let (Some(r), Some(mut s)) = (&mut m.div, s.divergence) {
            r.add_clear(&mut s);
            div_pool.push(s);
        }
        if let (Some(r), Some(s)) = (&mut m.haz, s.hazards) {
            r.merge(*s);
        }
        if let (Some(r), Some(s)) = (&mut m.global_races, s.global_races) {
            r.merge(*s);
        }
        if let (Some(r), Some(s)) = (&mut m.global_init, s.global_init) {
            r.merge(*s);
        }
        if let (Some(r), Some(s)) = (&mut m.cluster, s.cluster) {
            r.merge(*s);
        }
        if let Some(t) = s.trace {
            m.traces.push(*t);
        }
    };
    let combine = |m: &mut Merged, mut p: Merged| {
        for r in std::mem::take(&mut p.flow) {
            flow_shared.keep(r);
        }
        m.combine(p);
    };
    // dynamic parallelism against a caller's space (`warpscope run --check`): the grids run again,
    // after this one, on a copy of the memory as it is before the launch (see `devgrids`)
    let before = global
        .filter(|_| global_ops.is_some() && crate::devgrids::launches_grids(program, kernel))
        .map(crate::devgrids::snapshot);
    let observing = observer
        .as_mut()
        .map(|o| o as &mut dyn warpscope_emu::LaunchObserver);
    let res = if parts {
        warpscope_emu::run_folded_parts(
            program,
            kernel,
            launch,
            &opts.limits,
            global,
            sinks,
            observing,
            watch,
            &init,
            &add,
            &combine,
        )?
    } else {
        warpscope_emu::run_folded(
            program,
            kernel,
            launch,
            &opts.limits,
            global,
            sinks,
            observing,
            watch,
            &init,
            &add,
        )?
    };
    let (verdict, unheld) = observer.map_or((None, None), |o| (o.verdict, o.unheld));
    results.machine_flow = verdict;
    results.machine_flow_unheld = unheld;
    results.yield_loops = yield_doubt;
    let blocks_emulated = res.acc.blocks;
    let buffers = if global.is_none() {
        crate::fault::launch_buffers(&launch.args)
    } else {
        Vec::new()
    };
    let words = crate::fault::LaunchContext {
        program,
        kernel: k,
        grid: launch.grid,
        block: launch.block,
        buffers: &buffers,
        param_names: &opts.param_names,
        asserts: &res.asserts,
        max_instructions: opts.limits.max_warp_insts_per_block,
        cooperative: launch.cooperative,
    };
    let fault_text: Vec<String> = res
        .faults
        .iter()
        .map(|f| crate::fault::describe(&words, f))
        .collect();
    // global addresses in race messages (no assert is named there)
    let place_ctx = crate::fault::LaunchContext {
        program,
        kernel: k,
        grid: launch.grid,
        block: launch.block,
        buffers: &buffers,
        param_names: &opts.param_names,
        asserts: &[],
        max_instructions: 0,
        cooperative: launch.cooperative,
    };
    let Merged {
        glob,
        bank,
        div,
        haz,
        global_races,
        mut global_init,
        cluster,
        traces,
        ..
    } = res.acc;
    results.global_written = global_init.as_ref().map(|g| g.written());
    results.global_footprint = global_init.as_mut().map(GlobalInitReport::take_footprint);
    results.global = glob;
    results.blocks_emulated = blocks_emulated;
    results.warp_insts = res.counters.warp_insts;
    results.thread_insts = res.counters.thread_insts;
    results.tma = res.counters.tma;
    results.undefined_local_read = res.counters.undefined_local_read;
    results.waited = res.counters.waited;
    results.stopped = res.stopped;
    results.printf = res.printf;
    results.launches = res.launches;
    results.asserts = res.asserts;
    results.buffers = res.buffers;
    if let Some(mut report) = bank {
        if u64::from(blocks_emulated) < blocks_in_grid && blocks_emulated > 0 {
            report.scale(blocks_in_grid, u64::from(blocks_emulated));
        }
        results.banks = Some(BankRun {
            report,
            blocks_emulated,
            blocks_in_grid,
            warp_insts: res.counters.warp_insts,
            faults: fault_text.clone(),
        });
    }
    results.divergence = div.map(|mut d| {
        d.finish();
        d
    });
    results.machine_branches = machine_match;
    if let (Some(mut report), Some(config)) = (haz, hazard_cfg) {
        if let Some(g) = &global_races {
            report.global_needs(g.needed_barriers());
        }
        if let Some(c) = &cluster {
            report.global_needs(c.needed_barriers());
        }
        let mut unchecked = Vec::new();
        let mut device_grid_notes = Vec::new();
        // dynamic parallelism: the grids the launch's threads launch, against it and each other
        let device_grids = if global_ops.is_some() && !results.launches.is_empty() {
            let checked = match &before {
                Some(copy) => crate::devgrids::check_in(program, kernel, launch, &opts.limits, copy),
                None if global.is_none() => crate::devgrids::check(program, kernel, launch, &opts.limits),
                None => Ok(None),
            };
            match checked {
                Ok(g) => g,
                Err(note) => {
                    device_grid_notes.push(note);
                    None
                }
            }
        } else {
            None
        };
        if let Some(d) = &device_grids {
            report.global_needs(d.races.needed_barriers.iter().map(|&pc| (pc, (pc, pc))));
        }
        for (f, text) in res.faults.iter().zip(&fault_text) {
            if !report.push_fault_described(f, Some(text.clone())) {
                unchecked.push(format!("{text}; later accesses of that block were not checked"));
            }
        }
        let mut findings = report.findings(&|pc| locate(program, pc).0);
        if let Some(g) = &global_races {
            let who = |b: u32, t: u32| {
                let [x, y, z] = crate::fault::xyz(u64::from(b), launch.grid);
                let [tx, ty, tz] = config.thread_xyz(t);
                format!("block ({x},{y},{z}) thread ({tx},{ty},{tz})")
            };
            let place = |a: u64| crate::fault::global_byte(&place_ctx, a);
            findings.extend(g.findings(&|pc| locate(program, pc).0, &who, &place));
        }
        if let Some(d) = &device_grids {
            findings.extend(device_grid_findings(program, launch, &config, &place_ctx, d));
            if d.deeper > 0 {
                let names = d
                    .deeper_kernels
                    .iter()
                    .map(|k| crate::group::demangle_quoted(&format!("`{k}`")))
                    .collect::<Vec<_>>()
                    .join(", ");
                device_grid_notes.push(if global.is_some() {
                    format!(
                        "{} grids launched by the launched grids ({names}) are paired with the grid that launched them when its launch is checked, not with this grid's accesses",
                        d.deeper
                    )
                } else {
                    format!(
                        "{} grids launched by the launched grids ({names}) were not run (one level of dynamic parallelism is checked)",
                        d.deeper
                    )
                });
            }
        }
        if let Some(g) = &global_init {
            let who = |b: u32, t: u32| {
                let [x, y, z] = crate::fault::xyz(u64::from(b), launch.grid);
                let [tx, ty, tz] = config.thread_xyz(t);
                format!("block ({x},{y},{z}) thread ({tx},{ty},{tz})")
            };
            let place = |a: u64| crate::fault::global_byte(&place_ctx, a);
            findings.extend(g.findings(&|pc| locate(program, pc).0, &who, &place));
        }
        if let Some(c) = &cluster {
            let who = |b: u32, t: u32| {
                let [x, y, z] = crate::fault::xyz(u64::from(b), launch.grid);
                let [tx, ty, tz] = config.thread_xyz(t);
                format!("block ({x},{y},{z}) thread ({tx},{ty},{tz})")
            };
            findings.extend(c.findings(&|pc| locate(program, pc).0, &who));
        }
        if let Some(note) = cluster_races.as_ref().and_then(|c| c.note()) {
            unchecked.push(note);
        }
        if global_races.is_some() || global_init.is_some() || cluster.is_some() {
            findings.sort_by_key(|f| (f.severity, f.line, f.kind, f.pcs.clone()));
        }
        // a barrier inside a CUDA library routine (grid.sync(), a tile's sync: two or more header
        // frames under the user's line) is no barrier the user can remove
        findings.retain(|f| {
            f.kind != warpscope_analysis::hazards::FindingKind::RedundantBarrier
                || f.pcs
                    .first()
                    .is_none_or(|&pc| user_frame(program, pc).unwrap_or(0) < 2)
        });
        let mut same_value_hidden = (0, 0);
        if !opts.same_value_writes {
            findings.retain(|f| {
                let same = f.kind == warpscope_analysis::hazards::FindingKind::SameValueWrite;
                if same {
                    same_value_hidden.0 += 1;
                    same_value_hidden.1 += f.count;
                }
                !same
            });
        }
        let groups = group(&findings, &|pc| locate(program, pc).1);
        unchecked.extend(device_grid_notes.iter().cloned());
        results.hazards = Some(Hazards {
            config,
            findings,
            groups,
            unchecked,
            device_grid_notes,
            same_value_hidden,
            global_shadow: global_ops.as_ref().map(|(_, shared, _)| shared.usage()),
        });
    }
    if sections.fix {
        let mut trace = Trace::from_sinks(traces, fault_text.clone());
        // the user's line of each data-addressed access (a histogram's `atomicAdd(&bins[key], 1)`)
        trace.data_pcs = fix::data::data_addressed_pcs(program, k)
            .into_iter()
            .map(|pc| (pc, locate(program, pc).0.label))
            .collect();
        let arrays = fix::arrays(k, launch.dyn_smem);
        let fo = opts.fix.clone().unwrap_or_else(|| FixOptions {
            target: Target::new(arch),
            registers: opts.resources.as_ref().map(|r| r.registers),
            registers_from: "ptxas".into(),
            source: None,
            what_if: None,
        });
        let cfg = AdviseConfig {
            target: fo.target,
            threads: launch.block.iter().product(),
            registers: fo.registers,
            registers_from: fo.registers_from,
            source: fo.source,
        };
        let mut advice = fix::advise(&trace, &arrays, &cfg).map_err(|e| e.to_string());
        // re-emulate the wgmma / TMA swizzle proposals (a launch on its own memory only: a
        // program's persistent memory has moved on)
        if let (Ok(a), None) = (&mut advice, global)
            && let Err(e) = fix::hopper::verify(program, kernel, launch, &opts.limits, &mut a.hopper)
        {
            a.notes
                .push(format!("the swizzle proposals could not be re-emulated: {e}"));
        }
        let what_if = fo
            .what_if
            .as_ref()
            .map(|t| fix::what_if(&trace, &arrays, t).map_err(|e| e.to_string()));
        results.fix = Some(FixResults {
            trace,
            arrays,
            advice,
            what_if,
        });
    }
    results.faults = res.faults;
    results.fault_messages = fault_text;
    Ok(results)
}

/// The blocks' sinks of one emulation merged in block order.
struct Merged {
    glob: Option<GlobalCounts>,
    bank: Option<BankReport>,
    div: Option<DivergenceReport>,
    haz: Option<HazardReport>,
    global_races: Option<GlobalRaceReport>,
    global_init: Option<GlobalInitReport>,
    cluster: Option<ClusterRaceReport>,
    traces: Vec<TraceSink>,
    blocks: u32,
    /// A part's blocks' shared-memory records for the machine flow, kept as the part is combined.
    flow: Vec<warpscope_analysis::machine_flow::SharedRecorder>,
}

impl Merged {
    /// Folds the merge of later blocks in, as if they were added one by one (see `run_folded_parts`):
    /// sums, the bank report's merge (the first worst request stays the earlier one) and the
    /// traces in order. Not for the checker's reports (not combined: their launches fold block
    /// by block).
    fn combine(&mut self, p: Merged) {
        self.blocks += p.blocks;
        if let (Some(r), Some(s)) = (&mut self.glob, &p.glob) {
            r.add(s);
        }
        if let (Some(r), Some(s)) = (&mut self.bank, p.bank) {
            r.merge(s);
        }
        if let (Some(r), Some(s)) = (&mut self.div, &p.div) {
            r.combine(s);
        }
        self.traces.extend(p.traces);
    }
}

/// The loops of kernel `k`: `[target, pc]` of each backward branch.
fn loops(program: &Program, k: &warpscope_emu::Kernel) -> Vec<[u32; 2]> {
    (k.entry..k.end)
        .filter_map(|pc| match program.ops[pc as usize].inst {
            warpscope_ptx::inst::Inst::Bra { target, .. } if target <= pc => Some([target, pc]),
            _ => None,
        })
        .collect()
}

/// The races between a grid and the grids it launched as findings (see [`crate::devgrids`]).
fn device_grid_findings(
    program: &Program,
    launch: &Launch,
    config: &HazardConfig,
    place_ctx: &crate::fault::LaunchContext<'_>,
    d: &crate::devgrids::DeviceGrids,
) -> Vec<Finding> {
    use warpscope_analysis::hazards::{Example, FindingKind, Severity};
    let thread = |t: u32, dims: [u32; 3]| {
        let [x, y, z] = crate::fault::xyz(u64::from(t), dims);
        format!("({x},{y},{z})")
    };
    let grid_of = |g: Option<usize>| match g {
        None => "the parent grid".to_string(),
        Some(i) => {
            let l = &d.launches[i];
            // the launch call is the device runtime's code: name the user's line before it
            let at = (l.pc.saturating_sub(64)..=l.pc)
                .rev()
                .map(|pc| locate(program, pc).0)
                .find(|loc| loc.line.is_some() && !loc.label.contains("builtin"))
                .unwrap_or_else(|| locate(program, l.pc).0);
            format!(
                "the child grid `{}` (launched at {} by block {} thread {})",
                crate::group::demangle_quoted(&format!("`{}`", l.kernel)).trim_matches('`'),
                at.label,
                thread(l.block, launch.grid),
                thread(l.thread, launch.block)
            )
        }
    };
    let dims = |g: Option<usize>| match g {
        None => (launch.grid, launch.block),
        Some(i) => (d.launches[i].grid, d.launches[i].block_dim),
    };
    let _ = config;
    d.races
        .races
        .iter()
        .map(|r| {
            let (a, b) = (&r.first, &r.second);
            let word = |x: &warpscope_analysis::device_grids::GridAccess| match (x.write, x.atomic) {
                (_, true) => "ATOMIC",
                (true, false) => "WRITE",
                (false, false) => "READ",
            };
            let (la, lb) = (locate(program, a.pc).0, locate(program, b.pc).0);
            let (ga, ta) = dims(r.first_grid);
            let (gb, tb) = dims(Some(r.second_grid));
            let why = if r.first_grid.is_none() {
                "a launch orders only what the launching thread did before it (and its block's accesses before a __syncthreads() it passed); the parent cannot wait for its child (no device-side cudaDeviceSynchronize since CUDA 12): read a child's results in a tail launch (cudaStreamTailLaunch) or a later kernel"
            } else {
                "children of different blocks or streams run in any order"
            };
            let message = format!(
                "{}-{} global race on {}: {} block {} thread {} at {} and {} block {} thread {} at {}, not ordered: {why}",
                word(a),
                word(b),
                crate::fault::global_byte(place_ctx, b.addr.max(a.addr)),
                grid_of(r.first_grid),
                thread(a.block, ga),
                thread(a.tid, ta),
                la.label,
                grid_of(Some(r.second_grid)),
                thread(b.block, gb),
                thread(b.tid, tb),
                lb.label,
            );
            Finding {
                kind: FindingKind::GlobalRace,
                severity: Severity::Error,
                line: lb.line,
                lines: la.line.into_iter().chain(lb.line).collect(),
                pcs: vec![a.pc, b.pc],
                message,
                count: r.count,
                example: Example {
                    block: a.block,
                    threads: vec![a.tid],
                    address: Some(b.addr),
                },
            }
        })
        .collect()
}
