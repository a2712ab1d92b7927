//! `warpscope analyze`: emulates a kernel on the CPU, once, and reports what the sections ask for
//! (`--section banks,divergence,hazards,fix,occupancy`, default all): shared-memory wavefronts per
//! source line and per instruction with the bank picture of each instruction's worst request,
//! divergence and lane utilisation, the hazard checker's findings, the fix advisor's suggestions and
//! the occupancy. The driver (`warpscope_driver`) does the work; this module defines the flags and
//! renders the results.

use std::process::ExitCode;

use serde::Serialize;
use warpscope_analysis::banks::{self, BankRun, Counts, MatrixKind, Side, WorstRequest};
use warpscope_analysis::divergence::{DivergenceReport, LineStat};
use warpscope_analysis::reconcile::Role;
use warpscope_driver::{Analyzed, Results, Sections};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

use crate::findings::{self, HazardsOut};
use crate::launch::LaunchArgs;
use crate::output::{Block, Column, Format, OutputArgs, Tabular, Tone, emit_blocks_fitted};

/// Flags of `warpscope analyze`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    launch: LaunchArgs,
    /// Target architecture (for compiling, the machine code and the bank rules).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// The sections to answer, as Nsight Compute's: banks, divergence, hazards, fix, occupancy, or
    /// all (the default). One emulation answers every section.
    #[arg(long, value_name = "LIST", default_value = "all")]
    section: String,
    /// Report same-value writes as hazard findings (see `warpscope check --help`).
    #[arg(long)]
    report_same_value_writes: bool,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    measure: crate::measure::MeasureArgs,
}

/// The JSON result (also what the table shows).
#[derive(Serialize)]
pub struct Analysis {
    /// Kernel name.
    pub kernel: String,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dyn_smem: u32,
    /// Target architecture.
    pub arch: String,
    /// Whether the preset's bank and occupancy rules are measured, assumed or documented.
    pub rules_basis: serde_json::Value,
    /// Blocks emulated.
    pub blocks_emulated: u32,
    /// Blocks in the grid.
    pub blocks_in_grid: u64,
    /// True when only some blocks were emulated and totals are scaled to the grid.
    pub extrapolated: bool,
    /// Where access widths come from: `machine code` or `PTX-level`.
    pub widths: String,
    /// Why the widths are what they are (which tool, or why none).
    pub widths_note: String,
    /// Groups of PTX accesses that ptxas fused into one wider access.
    pub fused_groups: u32,
    /// Source lines whose PTX and machine accesses could not be matched (counted as in PTX).
    pub unmatched_lines: Vec<u32>,
    /// Launch totals, loads and stores apart.
    pub shared: SharedTotals,
    /// Per source line.
    pub lines: Vec<LineRow>,
    /// Per instruction.
    pub instructions: Vec<InstRow>,
    /// Per `ldmatrix` / `stmatrix` / `cp.async` instruction (absent when the launch has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matrix_instructions: Vec<MatrixRow>,
    /// Emulator faults (out of bounds, divergent barriers...).
    pub faults: Vec<String>,
    /// Requests the bank model could not take (misaligned), left out of the counts.
    pub unmodelled_requests: u64,
    /// Branch divergence and active-lane utilisation (the `divergence` section).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergence: Option<DivergenceJson>,
    /// The sections answered (absent in the tour's analyses).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    /// The hazard checker's findings (the `hazards` section; what `warpscope check` reports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazards: Option<HazardsOut>,
    /// The fix advisor (the `fix` section; what `warpscope fix` reports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<crate::cmd::fix::Output>,
    /// ptxas's resources and the occupancy of the launch's block size (the `occupancy` section).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<OccupancyJson>,
    /// Why an asked-for section has no result (a missing tool, a failed advice).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub section_notes: Vec<String>,
}

/// The occupancy section: ptxas's resources and the calculator's answer for the launch's block.
#[derive(Serialize)]
pub struct OccupancyJson {
    /// Registers per thread (ptxas).
    pub registers: u32,
    /// Static shared memory per block (ptxas), bytes.
    pub static_smem: u32,
    /// Dynamic shared memory per block, bytes.
    pub dyn_smem: u32,
    /// Threads per block.
    pub threads: u32,
    /// Resident blocks per SM.
    pub blocks_per_sm: u32,
    /// Resident warps per SM.
    pub warps_per_sm: u32,
    /// Achievable warps per SM.
    pub max_warps_per_sm: u32,
    /// Theoretical occupancy, 0..1 (ncu `sm__maximum_warps_per_active_cycle_pct` / 100).
    pub occupancy: f64,
    /// What limits the blocks per SM.
    pub limiters: Vec<String>,
    /// The kernel's warp-specialised register reallocation (`setmaxnreg.inc` / `.dec`): each
    /// count its warps move to, `{op: "inc"|"dec", registers}`, in program order; absent when it
    /// has none. Blocks are placed by `registers` (the launch's allocation) all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub setmaxnreg: Vec<RegRealloc>,
}

/// One `setmaxnreg` of a kernel.
#[derive(Debug, Clone, Serialize)]
pub struct RegRealloc {
    /// `inc` or `dec`.
    pub op: &'static str,
    /// The registers per thread the warp holds after it.
    pub registers: u32,
}

/// Divergence of the launch: branch targets, divergent targets and branch efficiency as Nsight
/// Compute counts them (`smsp__sass_branch_targets.sum`,
/// `smsp__sass_branch_targets_threads_divergent.sum`,
/// `smsp__sass_average_branch_targets_threads_uniform.pct`), and active lanes per warp instruction,
/// per instruction (`branches`, `instructions`), per source line (`lines`) and in total (`totals`).
/// The figures are PTX-level; docs/divergence.md explains how they relate to machine code.
#[derive(Serialize)]
pub struct DivergenceJson {
    /// Per instruction and totals.
    #[serde(flatten)]
    pub report: DivergenceReport,
    /// Per source line (instructions without line information under `line: null`).
    pub lines: Vec<LineStat>,
    /// The machine code's branch counters (targets, divergent, whether every line matched), when
    /// the machine code was read: what `--measure` compares with Nsight Compute.
    #[serde(skip)]
    pub machine: Option<(u64, u64, bool)>,
    /// Where the machine code's branches do not match the PTX's line for line: whether its control
    /// flow was followed on the launch (the machine counters above are then its), or why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_flow: Option<Result<(), String>>,
}

/// Launch totals.
#[derive(Serialize)]
pub struct SharedTotals {
    /// Loads (ncu `..._op_ld.sum`): LDS instructions, and the wavefronts of LDS and LDSM.
    pub load: Counts,
    /// Stores (ncu `..._op_st.sum`): STS instructions, and the wavefronts of STS and STSM.
    pub store: Counts,
    /// `ldmatrix` (ncu `smsp__sass_inst_executed_op_ldsm`, `sm__sass_..._op_ldsm`); absent when none.
    #[serde(skip_serializing_if = "MatrixTotals::is_empty")]
    pub ldsm: MatrixTotals,
    /// `stmatrix` (`..._op_shared_stsm`, `..._op_stsm`); absent when none.
    #[serde(skip_serializing_if = "MatrixTotals::is_empty")]
    pub stsm: MatrixTotals,
    /// `cp.async` (`smsp__inst_executed_op_ldgsts`, `sm__sass_..._op_ldgsts`); absent when none.
    #[serde(skip_serializing_if = "MatrixTotals::is_empty")]
    pub ldgsts: MatrixTotals,
    /// `wgmma.mma_async`'s shared-memory reads (HGMMA: `smsp__sass_inst_executed_op_shared_gmma`,
    /// `sm__sass_data_bytes_mem_shared_op_gmma`, `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma`
    /// as `instructions`, `bytes`, `wavefronts`); absent when none.
    #[serde(skip_serializing_if = "GmmaTotals::is_empty")]
    pub gmma: GmmaTotals,
}

/// Launch totals of `wgmma.mma_async` (see `warpscope_analysis::banks::GmmaCounts`).
#[derive(Serialize, Default)]
pub struct GmmaTotals {
    /// Warp instructions.
    pub instructions: u64,
    /// Shared-memory bytes read.
    pub bytes: u64,
    /// Wavefronts (128 bytes each).
    pub wavefronts: u64,
}

impl GmmaTotals {
    /// No `wgmma.mma_async` ran.
    pub fn is_empty(&self) -> bool {
        self.instructions == 0 && self.bytes == 0
    }
}

/// Launch totals of one of LDSM, STSM, LDGSTS.
#[derive(Serialize, Default)]
pub struct MatrixTotals {
    /// Warp instructions the model counts.
    pub instructions: u64,
    /// Their wavefronts.
    pub wavefronts: u64,
    /// Their wavefronts with no conflict.
    pub ideal_wavefronts: u64,
    /// Warp instructions outside the measured rules (left out of the three counts above).
    pub unmodelled: u64,
}

impl MatrixTotals {
    fn of(report: &banks::BankReport, kind: MatrixKind) -> MatrixTotals {
        let c = report.matrix_total(kind);
        MatrixTotals {
            instructions: c.instructions,
            wavefronts: c.wavefronts,
            ideal_wavefronts: c.ideal_wavefronts,
            unmodelled: report.matrix_unmodelled(kind),
        }
    }

    /// No instruction of this kind ran.
    pub fn is_empty(&self) -> bool {
        self.instructions == 0 && self.unmodelled == 0
    }
}

/// One source line.
#[derive(Serialize)]
pub struct LineRow {
    /// Source file.
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `load` or `store`.
    pub side: Side,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// Largest wavefronts / ideal of any request on the line.
    pub worst_n_way: f64,
}

/// One instruction.
#[derive(Serialize)]
pub struct InstRow {
    /// Program pc.
    pub pc: u32,
    /// Line in the PTX file.
    pub ptx_line: u32,
    /// PTX text.
    pub ptx: String,
    /// True when ptxas fused this access with its neighbours into one `width`-byte access (this row
    /// counts the fused access; the others of the group are not listed).
    pub fused: bool,
    /// Source file and line (`.loc`), when known.
    pub source: Option<String>,
    /// `load` or `store`.
    pub side: Side,
    /// Bytes per lane as counted.
    pub width: u8,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// Wavefronts / ideal of the worst request.
    pub worst_n_way: f64,
    /// The worst request.
    pub worst: Option<WorstJson>,
}

/// One `ldmatrix` / `stmatrix` / `cp.async` instruction.
#[derive(Serialize)]
pub struct MatrixRow {
    /// Program pc.
    pub pc: u32,
    /// Line in the PTX file.
    pub ptx_line: u32,
    /// PTX text.
    pub ptx: String,
    /// Source file and line (`.loc`), when known.
    pub source: Option<String>,
    /// `ldsm`, `stsm` or `ldgsts`.
    pub kind: MatrixKind,
    /// Bytes per row (16) or per copy.
    pub width: u8,
    /// Counters of the requests inside the measured rules.
    #[serde(flatten)]
    pub counts: Counts,
    /// Requests outside them (not counted).
    pub unmodelled: u64,
    /// The worst request: which lane supplies which row address (LDSM / STSM: lanes 8m..8m+7 give
    /// matrix m's rows) or destination (LDGSTS), and the 16-byte bank group (0-7) it falls in.
    pub worst: Option<MatrixWorstJson>,
}

/// The worst request of a matrix or copy instruction.
#[derive(Serialize)]
pub struct MatrixWorstJson {
    /// Block.
    pub block: u32,
    /// Warp.
    pub warp: u32,
    /// Wavefronts.
    pub wavefronts: u32,
    /// Conflict-free wavefronts.
    pub ideal_wavefronts: u32,
    /// Per lane: its row address or destination (shared offset), null when the lane supplies none.
    pub lane_offsets: Vec<Option<u64>>,
    /// Per lane: the bank group `(offset / 16) % 8` of that offset.
    pub lane_groups: Vec<Option<u8>>,
}

/// The worst request of an instruction with its bank picture.
#[derive(Serialize)]
pub struct WorstJson {
    /// Block.
    pub block: u32,
    /// Warp.
    pub warp: u32,
    /// Wavefronts.
    pub wavefronts: u32,
    /// Conflict-free wavefronts.
    pub ideal_wavefronts: u32,
    /// Distinct bank words each bank must deliver in the request's busiest phase (32 entries; the
    /// phase is the whole warp for accesses of up to 4 bytes, a half or quarter warp for wider ones).
    pub bank_words: Vec<usize>,
    /// The same as one character per bank: `.` idle, `1`-`9`, then `A` = 10 ... `W` = 32.
    pub banks: String,
    /// Per-lane byte offsets in the block's shared window (inactive lanes are null).
    pub lane_offsets: Vec<Option<u64>>,
    /// The bank model's breakdown: for each wavefront, the lanes it serves.
    pub wavefront_lanes: Vec<Vec<u8>>,
}

/// One character per bank: the number of distinct words it delivers in the busiest phase of the
/// request (by the bank model's breakdown; the whole request when there is none).
pub fn bank_strip(arch: &Arch, side: Side, w: &WorstRequest) -> (Vec<usize>, String) {
    let counts: Vec<usize> = match banks::picture(arch, side, w) {
        Some(b) => {
            let mut phases: std::collections::BTreeMap<u8, Vec<Vec<u32>>> = Default::default();
            for wf in &b.wavefronts {
                let banks = phases
                    .entry(wf.phase_lane0)
                    .or_insert_with(|| vec![Vec::new(); 32]);
                for slot in &wf.slots {
                    let words = &mut banks[usize::from(slot.bank) % 32];
                    if !words.contains(&slot.word_addr) {
                        words.push(slot.word_addr);
                    }
                }
            }
            let busiest = phases
                .values()
                .max_by_key(|p| p.iter().map(Vec::len).max().unwrap_or(0));
            busiest.map_or_else(|| vec![0; 32], |p| p.iter().map(Vec::len).collect())
        }
        None => w.bank_words().iter().map(Vec::len).collect(),
    };
    let s = counts
        .iter()
        .map(|&c| match c {
            0 => '.',
            1..=9 => char::from(b'0' + c as u8),
            10..=35 => char::from(b'A' + (c - 10) as u8),
            _ => '#',
        })
        .collect();
    (counts, s)
}

/// The bank model's breakdown of a request: for each wavefront, the lanes it serves.
fn wavefront_lanes(arch: &Arch, side: Side, w: &WorstRequest) -> Vec<Vec<u8>> {
    let Some(b) = banks::picture(arch, side, w) else {
        return Vec::new();
    };
    b.wavefronts
        .iter()
        .map(|wf| {
            let mut lanes: Vec<u8> = wf.slots.iter().map(|sl| sl.lane).collect();
            lanes.dedup();
            lanes
        })
        .collect()
}

fn n_way(w: &Option<WorstRequest>) -> f64 {
    w.as_ref().map_or(0.0, |w| {
        if w.ideal_wavefronts == 0 {
            0.0
        } else {
            w.wavefronts as f64 / w.ideal_wavefronts as f64
        }
    })
}

/// The bank section of a finished run as the JSON result (the other sections empty): what the
/// tour shows.
pub fn build(program: &Program, r: &Results, note: &str) -> Analysis {
    let empty = BankRun {
        report: Default::default(),
        blocks_emulated: r.blocks_emulated,
        blocks_in_grid: r.blocks_in_grid,
        warp_insts: r.warp_insts,
        faults: Vec::new(),
    };
    let run = r.banks.as_ref().unwrap_or(&empty);
    let recon = &r.widths.recon;
    let arch = r.arch;
    let lines = run
        .report
        .lines(program)
        .into_iter()
        .map(|l| {
            let worst = &run.report.insts[&(l.worst_pc, l.side)].worst;
            LineRow {
                file: l.file,
                line: l.line,
                side: l.side,
                counts: l.counts,
                worst_n_way: n_way(worst),
            }
        })
        .collect();
    let instructions = run
        .report
        .insts
        .values()
        .map(|s| {
            let info = program.inst_info(s.pc);
            let source = info
                .loc
                .map(|l| format!("{}:{}", program.file_name(l.file).unwrap_or("?"), l.line));
            let worst = s.worst.as_ref().map(|w| {
                let (bank_words, banks) = bank_strip(arch, s.side, w);
                WorstJson {
                    block: w.block,
                    warp: w.warp,
                    wavefronts: w.wavefronts,
                    ideal_wavefronts: w.ideal_wavefronts,
                    bank_words,
                    banks,
                    lane_offsets: (0..32)
                        .map(|l| (w.mask & (1 << l) != 0).then(|| w.addrs[l]))
                        .collect(),
                    wavefront_lanes: wavefront_lanes(arch, s.side, w),
                }
            });
            InstRow {
                pc: s.pc,
                ptx_line: info.ptx_line,
                ptx: info.text.trim().to_string(),
                fused: matches!(recon.role(s.pc), Role::Leader { .. }),
                source,
                side: s.side,
                width: s.width,
                counts: s.counts.clone(),
                worst_n_way: n_way(&s.worst),
                worst,
            }
        })
        .collect();
    let matrix_instructions = run
        .report
        .matrix
        .values()
        .map(|s| {
            let info = program.inst_info(s.pc);
            MatrixRow {
                pc: s.pc,
                ptx_line: info.ptx_line,
                ptx: info.text.trim().to_string(),
                source: info
                    .loc
                    .map(|l| format!("{}:{}", program.file_name(l.file).unwrap_or("?"), l.line)),
                kind: s.kind,
                width: s.width,
                counts: s.counts.clone(),
                unmodelled: s.unmodelled,
                worst: s.worst.as_ref().map(|w| {
                    let on = |l: usize| w.mask & (1 << l) != 0;
                    MatrixWorstJson {
                        block: w.block,
                        warp: w.warp,
                        wavefronts: w.wavefronts,
                        ideal_wavefronts: w.ideal_wavefronts,
                        lane_offsets: (0..32).map(|l| on(l).then(|| w.addrs[l])).collect(),
                        lane_groups: (0..32)
                            .map(|l| on(l).then(|| (w.addrs[l] / 16 % 8) as u8))
                            .collect(),
                    }
                }),
            }
        })
        .collect();
    Analysis {
        kernel: r.kernel.clone(),
        grid: r.grid,
        block: r.block,
        dyn_smem: r.dyn_smem,
        arch: arch.name.to_string(),
        rules_basis: crate::basis::json(arch),
        unmodelled_requests: run.report.unmodelled,
        blocks_emulated: r.blocks_emulated,
        blocks_in_grid: r.blocks_in_grid,
        extrapolated: r.blocks_emulated > 0 && u64::from(r.blocks_emulated) < r.blocks_in_grid,
        widths: if recon.machine_code {
            "machine code".into()
        } else {
            "PTX-level".into()
        },
        widths_note: note.to_string(),
        fused_groups: recon.fused_groups,
        unmatched_lines: recon.unmatched_lines.iter().copied().collect(),
        shared: SharedTotals {
            load: run.report.total(Side::Load),
            store: run.report.total(Side::Store),
            ldsm: MatrixTotals::of(&run.report, MatrixKind::Ldsm),
            stsm: MatrixTotals::of(&run.report, MatrixKind::Stsm),
            ldgsts: MatrixTotals::of(&run.report, MatrixKind::Ldgsts),
            gmma: GmmaTotals {
                instructions: run.report.gmma.instructions,
                bytes: run.report.gmma.bytes,
                wavefronts: run.report.gmma.wavefronts(),
            },
        },
        lines,
        instructions,
        matrix_instructions,
        faults: r.fault_messages.clone(),
        divergence: None,
        sections: Vec::new(),
        hazards: None,
        fix: None,
        occupancy: None,
        section_notes: Vec::new(),
    }
}

/// The divergence counters grouped by source line.
pub fn divergence_json(program: &Program, report: &DivergenceReport) -> DivergenceJson {
    let lines = report.by_line(&|pc| program.inst_info(pc).loc.map(|l| l.line));
    DivergenceJson {
        report: report.clone(),
        lines,
        machine: None,
        machine_flow: None,
    }
}

/// The occupancy section from ptxas's resources.
fn occupancy_json(a: &Analyzed, notes: &mut Vec<String>) -> Option<OccupancyJson> {
    let r = &a.results;
    let res = match &a.resources {
        Some(Ok(res)) => res,
        Some(Err(why)) => {
            notes.push(format!("occupancy: registers unknown ({why})"));
            return None;
        }
        None => return None,
    };
    let limits = match warpscope_model::occupancy::Limits::for_arch(r.arch) {
        Ok(l) => l,
        Err(e) => {
            notes.push(format!("occupancy: {e}"));
            return None;
        }
    };
    let threads: u32 = r.block.iter().product();
    let mut l = warpscope_model::occupancy::Launch::new(threads, res.registers);
    l.static_smem = res.static_smem;
    l.dyn_smem = r.dyn_smem;
    l.barriers = res.barriers.max(1);
    let realloc: Vec<RegRealloc> = a
        .module
        .program
        .kernel(&a.name.mangled)
        .map(|k| {
            k.setmaxnreg
                .iter()
                .map(|&(inc, n)| RegRealloc {
                    op: if inc { "inc" } else { "dec" },
                    registers: n,
                })
                .collect()
        })
        .unwrap_or_default();
    if !realloc.is_empty() {
        let list: Vec<String> = realloc
            .iter()
            .map(|r| format!("{} to {}", r.op, r.registers))
            .collect();
        notes.push(format!(
            "occupancy: the kernel reallocates registers per warp (setmaxnreg: {}); blocks are placed by the launch's {} registers per thread",
            list.join(", "),
            res.registers
        ));
    }
    match warpscope_model::occupancy::occupancy(&limits, &l) {
        Ok(o) => Some(OccupancyJson {
            registers: res.registers,
            static_smem: res.static_smem,
            dyn_smem: r.dyn_smem,
            threads,
            blocks_per_sm: o.blocks_per_sm,
            warps_per_sm: o.warps_per_sm,
            max_warps_per_sm: o.max_warps_per_sm,
            occupancy: o.occupancy(),
            limiters: o.limiters.iter().map(|x| x.name().to_string()).collect(),
            setmaxnreg: realloc,
        }),
        Err(e) => {
            notes.push(format!("occupancy: {e}"));
            None
        }
    }
}

/// The whole JSON result of a run: every section it answered.
pub fn analysis(a: &Analyzed) -> anyhow::Result<Analysis> {
    let r = &a.results;
    let program = &a.module.program;
    let mut out = build(program, r, &a.note);
    out.sections = r.sections.names().iter().map(|s| s.to_string()).collect();
    out.divergence = r.divergence.as_ref().map(|d| {
        let mut j = divergence_json(program, d);
        j.machine = r.machine_branches.as_ref().map(|m| {
            let (t, dv) = m.totals(d);
            let exact = m.exact_for(d);
            // lines that do not match: the machine code's own control flow, when it was followed
            match (&r.machine_flow, exact) {
                (Some(Ok(c)), false) => (c.targets, c.divergent, true),
                _ => (t, dv, exact),
            }
        });
        j.machine_flow = r
            .machine_flow
            .as_ref()
            .map(|f| f.as_ref().map(|_| ()).map_err(Clone::clone));
        j
    });
    out.hazards = r.hazards.as_ref().map(|h| findings::hazards_out(program, h));
    let mut notes = Vec::new();
    if r.sections.fix {
        match crate::cmd::fix::output(a) {
            Ok(f) => out.fix = Some(f),
            Err(e) => notes.push(format!("fix: {e:#}")),
        }
    }
    if r.sections.occupancy {
        out.occupancy = occupancy_json(a, &mut notes);
    }
    out.section_notes = notes;
    Ok(out)
}

/// Runs `warpscope analyze`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Validate everything cheap first.
    let arch = Arch::parse(&args.arch)?;
    let sections = Sections::parse(&args.section).map_err(crate::launch::driver_error)?;
    let mut req = args.launch.request(arch, sections)?;
    req.same_value_writes = args.report_same_value_writes;
    if args.measure.wanted() || args.measure.measure_child {
        return crate::measure::analyze_and_measure(&args.measure, &req, &args.output, |a| {
            let an = analysis(a)?;
            let b = all_blocks(&an, a);
            Ok((an, b))
        });
    }
    let a = crate::launch::analyze(&req)?;
    let analysis = analysis(&a)?;
    let mut out = std::io::stdout().lock();
    // on a terminal (or with COLUMNS) the tables for people fit its width
    let width = crate::output::known_width().filter(|_| args.output.format == Format::Table);
    let mut blocks = all_blocks(&analysis, &a);
    if let Some(w) = width {
        blocks = fit_instructions(blocks, usize::from(w));
    }
    emit_blocks_fitted(
        &mut out,
        args.output.format,
        args.output.color(),
        &analysis,
        &blocks,
        width,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The per-instruction table, when wider than `width`: the table without its banks picture (the
/// source as `file:line` without folders), then the pictures in a table of their own, each row
/// named by its pc. The CSV table beside it keeps every column.
fn fit_instructions(blocks: Vec<Block>, width: usize) -> Vec<Block> {
    blocks
        .into_iter()
        .flat_map(|b| match b {
            Block::ShownTable(t)
                if t.columns.first().is_some_and(|c| c.title == "pc")
                    && t.columns.last().is_some_and(|c| c.title.starts_with("banks"))
                    && crate::output::natural_width(&t) > width =>
            {
                let last = t.columns.len() - 1;
                let (title, legend) = t.title.split_once('(').unwrap_or((&t.title, ""));
                let mut main = Tabular::new(title.trim_end(), t.columns[..last].to_vec());
                let mut banks = Tabular::new(
                    format!("banks 0..31 of each instruction's worst request ({legend}"),
                    vec![
                        t.columns[0].clone(),
                        t.columns[1].clone(),
                        Column::new("banks 0..31", t.columns[last].csv.clone()),
                    ],
                );
                for r in &t.rows {
                    let mut cells = r[..last.min(r.len())].to_vec();
                    if let Some(src) = cells.get_mut(1)
                        && let Some((file, line)) = src.0.rsplit_once(':')
                    {
                        let name = file.rsplit('/').next().unwrap_or(file);
                        src.0 = format!("{name}:{line}");
                    }
                    banks.toned_row(vec![
                        cells[0].clone(),
                        cells.get(1).cloned().unwrap_or_default(),
                        r.get(last).cloned().unwrap_or_default(),
                    ]);
                    main.toned_row(cells);
                }
                vec![
                    Block::ShownTable(main),
                    Block::Text(String::new()),
                    Block::ShownTable(banks),
                ]
            }
            other => vec![other],
        })
        .collect()
}

/// The output of every section: the bank tables (when asked), divergence, hazards, fix, occupancy.
fn all_blocks(an: &Analysis, a: &Analyzed) -> Vec<Block> {
    let s = &a.results.sections;
    let mut out = if s.banks {
        blocks(an)
    } else {
        let mut b = vec![Block::Text(head(an).join("\n"))];
        if let Some(d) = &an.divergence {
            b.extend(divergence_blocks(d));
        }
        b
    };
    if let Some(h) = &an.hazards {
        out.push(Block::Heading("hazards".into()));
        out.extend(findings::blocks(a.name.display(), h));
    }
    if let Some(f) = &an.fix {
        out.push(Block::Heading("fix".into()));
        out.extend(crate::cmd::fix::blocks(f, &a.module.program));
    }
    if let Some(o) = &an.occupancy {
        out.push(Block::Heading("occupancy".into()));
        let mut t = Tabular::new(
            "",
            [
                ("registers", "registers"),
                ("static smem", "static_smem"),
                ("dyn smem", "dyn_smem"),
                ("threads", "threads"),
                ("blocks/SM", "blocks_per_sm"),
                ("warps/SM", "warps_per_sm"),
                ("occupancy", "sm__maximum_warps_per_active_cycle_pct"),
                ("limited by", "limiters"),
            ]
            .map(|(t, c)| Column::new(t, c))
            .to_vec(),
        );
        t.row([
            o.registers.to_string(),
            o.static_smem.to_string(),
            o.dyn_smem.to_string(),
            o.threads.to_string(),
            o.blocks_per_sm.to_string(),
            format!("{} of {}", o.warps_per_sm, o.max_warps_per_sm),
            format!("{:.1}", o.occupancy * 100.0),
            o.limiters.join(", "),
        ]);
        out.push(Block::Table(t));
    }
    if !an.section_notes.is_empty() {
        out.push(Block::Notes(an.section_notes.clone()));
    }
    out
}

fn fmt_dims(d: [u32; 3]) -> String {
    format!("{}x{}x{}", d[0], d[1], d[2])
}

fn fmt_nway(x: f64) -> String {
    if x == 0.0 {
        "-".into()
    } else if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// The Nsight Compute metrics of the shared-memory counters, loads then stores:
/// (instructions, wavefronts).
pub const NCU_SHARED: [(&str, &str); 2] = [
    (
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ),
    (
        "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ),
];

/// CSV columns of the counters split by side: for each of load and store, the ncu instruction and
/// wavefront metrics and the ideal wavefronts (`ideal_wavefronts_ld` / `_st`).
fn side_columns() -> Vec<Column> {
    let mut cols = Vec::new();
    for ((inst, wf), side) in NCU_SHARED.iter().zip(["ld", "st"]) {
        cols.push(Column::new(*inst, *inst));
        cols.push(Column::new(*wf, *wf));
        let ideal = format!("ideal_wavefronts_{side}");
        cols.push(Column::new(ideal.clone(), ideal));
    }
    cols
}

/// The counters in the [`side_columns`] layout: the other side's cells are empty.
fn side_cells(side: Side, c: &Counts) -> Vec<String> {
    let these = [
        c.instructions.to_string(),
        c.wavefronts.to_string(),
        c.ideal_wavefronts.to_string(),
    ];
    let empty = [String::new(), String::new(), String::new()];
    match side {
        Side::Load => these.into_iter().chain(empty).collect(),
        Side::Store => empty.into_iter().chain(these).collect(),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Load => "load",
        Side::Store => "store",
    }
}

fn excess_tone(c: &Counts) -> Tone {
    if c.wavefronts > c.ideal_wavefronts {
        Tone::Bad
    } else {
        Tone::Good
    }
}

/// The output of an analysis for people and for CSV: the summary, the totals, the per-line table and
/// the per-instruction table. CSV columns are the Nsight Compute metric names, one table per level
/// (totals, lines, instructions).
pub fn blocks(a: &Analysis) -> Vec<Block> {
    let mut blocks = vec![Block::Text(head(a).join("\n"))];
    blocks.extend(bank_blocks(a));
    if let Some(d) = &a.divergence {
        blocks.extend(divergence_blocks(d));
    }
    if !a.faults.is_empty() {
        let mut f = vec![String::new(), "emulator faults:".to_string()];
        f.extend(a.faults.iter().map(|x| format!("  {x}")));
        blocks.push(Block::Text(f.join("\n")));
    }
    blocks
}

/// The summary lines: the launch, what was emulated, where widths come from.
fn head(a: &Analysis) -> Vec<String> {
    let mut head = vec![format!(
        "kernel {}  grid {}  block {}  dyn smem {} B  arch {}",
        warpscope_driver::kernel::KernelName::new(&a.kernel).display(),
        fmt_dims(a.grid),
        fmt_dims(a.block),
        a.dyn_smem,
        a.arch
    )];
    if let Some(arch) = crate::basis::arch_named(&a.arch) {
        head.push(crate::basis::line(arch));
    }
    if a.blocks_emulated == 0 {
        head.push("nothing emulated: the sections asked for need no emulation".to_string());
    } else if a.extrapolated {
        head.push(format!(
            "{} of {} blocks emulated; totals are extrapolated to the grid",
            a.blocks_emulated, a.blocks_in_grid
        ));
    } else {
        head.push(format!(
            "all {} blocks emulated; totals are exact for this model",
            a.blocks_in_grid
        ));
    }
    head.push(format!("widths: {} ({})", a.widths, a.widths_note));
    if a.fused_groups > 0 {
        head.push(format!(
            "ptxas fused {} groups of PTX accesses into wider ones; each counts once",
            a.fused_groups
        ));
    }
    if !a.unmatched_lines.is_empty() {
        head.push(format!(
            "warning: lines {:?}: PTX and machine accesses could not be matched; counted as in PTX",
            a.unmatched_lines
        ));
    }
    head
}

/// The totals, per-line and per-instruction tables.
fn bank_blocks(a: &Analysis) -> Vec<Block> {
    let mut blocks = Vec::new();

    let mut totals = Tabular::new(
        "",
        ["", "instructions", "wavefronts", "ideal", "excess"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    for (name, c) in [
        ("shared loads", &a.shared.load),
        ("shared stores", &a.shared.store),
    ] {
        totals.toned_row(vec![
            (name.to_string(), Tone::Plain),
            (c.instructions.to_string(), Tone::Plain),
            (c.wavefronts.to_string(), Tone::Plain),
            (c.ideal_wavefronts.to_string(), Tone::Plain),
            (format!("{:.2}x", c.conflict_factor()), excess_tone(c)),
        ]);
    }
    for (name, m) in [
        ("of which ldmatrix (LDSM)", &a.shared.ldsm),
        ("of which stmatrix (STSM)", &a.shared.stsm),
        ("cp.async (LDGSTS)", &a.shared.ldgsts),
    ] {
        if m.is_empty() {
            continue;
        }
        let c = Counts {
            instructions: m.instructions,
            wavefronts: m.wavefronts,
            ideal_wavefronts: m.ideal_wavefronts,
        };
        totals.toned_row(vec![
            (name.to_string(), Tone::Plain),
            (c.instructions.to_string(), Tone::Plain),
            (c.wavefronts.to_string(), Tone::Plain),
            (c.ideal_wavefronts.to_string(), Tone::Plain),
            (format!("{:.2}x", c.conflict_factor()), excess_tone(&c)),
        ]);
    }
    blocks.push(Block::ShownTable(totals));
    let unmodelled: u64 = [&a.shared.ldsm, &a.shared.stsm, &a.shared.ldgsts]
        .iter()
        .map(|m| m.unmodelled)
        .sum();
    if unmodelled > 0 {
        blocks.push(Block::Text(format!(
            "{unmodelled} ldmatrix/stmatrix/cp.async warp instructions are outside the rules measured on the H100 \
             (calibration/ldsm/README.md) and are not counted"
        )));
    }
    if !a.matrix_instructions.is_empty() {
        let mut t = Tabular::new(
            "ldmatrix / stmatrix / cp.async (groups: the 16-byte bank group 0-7 of each lane's row \
             address or destination in the worst request, lanes 0..31; . = no address)",
            [
                "pc",
                "kind",
                "PTX",
                "executions",
                "wavefronts",
                "ideal",
                "unmodelled",
                "groups",
            ]
            .map(|c| Column::new(c, c))
            .to_vec(),
        );
        for m in &a.matrix_instructions {
            let groups: String = m.worst.as_ref().map_or(String::new(), |w| {
                w.lane_groups
                    .iter()
                    .map(|g| g.map_or('.', |g| char::from(b'0' + g)))
                    .collect()
            });
            t.row(vec![
                m.pc.to_string(),
                format!("{:?}", m.kind).to_lowercase(),
                m.ptx.clone(),
                m.counts.instructions.to_string(),
                m.counts.wavefronts.to_string(),
                m.counts.ideal_wavefronts.to_string(),
                m.unmodelled.to_string(),
                groups,
            ]);
        }
        blocks.push(Block::ShownTable(t));
    }
    let mut cols = vec![Column::new("kernel", "kernel")];
    cols.extend(side_columns());
    let mut totals_csv = Tabular::new("", cols);
    let mut cells = vec![a.kernel.clone()];
    for c in [&a.shared.load, &a.shared.store] {
        cells.extend([
            c.instructions.to_string(),
            c.wavefronts.to_string(),
            c.ideal_wavefronts.to_string(),
        ]);
    }
    totals_csv.row(cells);
    blocks.push(Block::CsvTable(totals_csv));

    let mut lines = Tabular::new(
        "per source line",
        ["line", "", "executions", "wavefronts", "ideal", "worst n-way"]
            .map(|c| Column::new(c, c))
            .to_vec(),
    );
    let mut cols = vec![Column::new("file", "file"), Column::new("line", "line")];
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    let mut lines_csv = Tabular::new("", cols);
    for l in &a.lines {
        lines.toned_row(vec![
            (format!("{}:{}", l.file, l.line), Tone::Plain),
            (side_name(l.side).into(), Tone::Plain),
            (l.counts.instructions.to_string(), Tone::Plain),
            (l.counts.wavefronts.to_string(), excess_tone(&l.counts)),
            (l.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(l.worst_n_way), Tone::Plain),
        ]);
        let mut cells = vec![l.file.clone(), l.line.to_string()];
        cells.extend(side_cells(l.side, &l.counts));
        cells.push(l.worst_n_way.to_string());
        lines_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(lines));
    blocks.push(Block::CsvTable(lines_csv));

    let mut insts = Tabular::new(
        "per instruction (banks: distinct words each bank delivers in the busiest phase of the worst request;\n\
         . idle, A = 10, W = 32; 8- and 16-byte accesses are served a half or quarter warp per phase)",
        [
            "pc",
            "source",
            "PTX",
            "bytes",
            "executions",
            "wavefronts",
            "ideal",
            "worst n-way",
            "banks 0..31 of the worst request",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    let mut cols = ["pc", "ptx_line", "source", "ptx", "fused", "width"]
        .map(|c| Column::new(c, c))
        .to_vec();
    cols.extend(side_columns());
    cols.push(Column::new("worst n-way", "worst_n_way"));
    cols.push(Column::new("banks", "worst_banks"));
    let mut insts_csv = Tabular::new("", cols);
    for i in &a.instructions {
        let banks = i.worst.as_ref().map_or(String::new(), |w| w.banks.clone());
        insts.toned_row(vec![
            (i.pc.to_string(), Tone::Plain),
            (
                i.source.clone().unwrap_or_else(|| format!("ptx:{}", i.ptx_line)),
                Tone::Plain,
            ),
            (
                if i.fused {
                    format!("{} (fused by ptxas)", i.ptx)
                } else {
                    i.ptx.clone()
                },
                Tone::Plain,
            ),
            (i.width.to_string(), Tone::Plain),
            (i.counts.instructions.to_string(), Tone::Plain),
            (i.counts.wavefronts.to_string(), excess_tone(&i.counts)),
            (i.counts.ideal_wavefronts.to_string(), Tone::Plain),
            (fmt_nway(i.worst_n_way), Tone::Plain),
            (banks.clone(), Tone::Plain),
        ]);
        let mut cells = vec![
            i.pc.to_string(),
            i.ptx_line.to_string(),
            i.source.clone().unwrap_or_default(),
            i.ptx.clone(),
            i.fused.to_string(),
            i.width.to_string(),
        ];
        cells.extend(side_cells(i.side, &i.counts));
        cells.push(i.worst_n_way.to_string());
        cells.push(banks);
        insts_csv.row(cells);
    }
    blocks.push(Block::Text(String::new()));
    blocks.push(Block::ShownTable(insts));
    blocks.push(Block::CsvTable(insts_csv));
    blocks
}

/// The divergence part of the output: a summary line and, per source line with branches or idle
/// lanes, branch executions, divergent ones, branch efficiency and lane utilisation.
fn divergence_blocks(d: &DivergenceJson) -> Vec<Block> {
    let t = &d.report.totals;
    let branches = if t.targets == 0 {
        "no branches executed (Nsight Compute prints 0% branch efficiency for 0 of 0)".to_string()
    } else {
        format!(
            "{} targets, {} divergent, branch efficiency {:.1}%",
            t.targets, t.divergent, t.branch_efficiency_pct
        )
    };
    let mut head = format!(
        "\nbranches: {branches}; active lanes {:.1}% of {} warp instructions (PTX-level)",
        t.utilisation_pct, t.inst_executions
    );
    if let Some(m) = &t.debug_machine_estimate {
        head.push_str(&format!(
            "\n-G machine code estimate: {} targets, {} divergent, branch efficiency {:.1}%",
            m.targets, m.divergent, m.branch_efficiency_pct
        ));
    }
    let columns = [
        ("line", "line"),
        ("branch executions", "branch_executions"),
        ("divergent", "smsp__sass_branch_targets_threads_divergent.sum"),
        ("targets", "smsp__sass_branch_targets.sum"),
        (
            "branch efficiency",
            "smsp__sass_average_branch_targets_threads_uniform.pct",
        ),
        ("warp instructions", "smsp__inst_executed.sum"),
        ("active lanes", "active_lanes_pct"),
    ];
    let mut shown = Tabular::new(
        "divergence per source line",
        columns.iter().map(|(t, _)| Column::new(*t, *t)).collect(),
    );
    let mut csv = Tabular::new("", columns.iter().map(|(t, c)| Column::new(*t, *c)).collect());
    let mut shown_rows = 0;
    // People see the lines with branches or idle lanes; CSV has every line.
    for l in &d.lines {
        let line = l.line.map_or_else(|| "-".to_string(), |x| x.to_string());
        let eff = l.branch_efficiency_pct.map(|e| format!("{e:.1}"));
        csv.row([
            line.clone(),
            l.branch_executions.to_string(),
            l.divergent.to_string(),
            l.targets.to_string(),
            eff.clone().unwrap_or_default(),
            l.inst_executions.to_string(),
            format!("{:.2}", l.utilisation_pct),
        ]);
        if l.targets == 0 && l.utilisation_pct >= 100.0 {
            continue;
        }
        let tone = match l.branch_efficiency_pct {
            Some(e) if e < 100.0 => Tone::Warn,
            _ => Tone::Plain,
        };
        shown_rows += 1;
        shown.toned_row(vec![
            (line.clone(), Tone::Plain),
            (l.branch_executions.to_string(), Tone::Plain),
            (l.divergent.to_string(), Tone::Plain),
            (l.targets.to_string(), Tone::Plain),
            (eff.clone().map_or_else(|| "-".into(), |e| format!("{e}%")), tone),
            (l.inst_executions.to_string(), Tone::Plain),
            (format!("{:.1}%", l.utilisation_pct), Tone::Plain),
        ]);
    }
    let mut blocks = vec![Block::Text(head)];
    if shown_rows > 0 {
        blocks.push(Block::ShownTable(shown));
    }
    blocks.push(Block::CsvTable(csv));
    blocks
}
