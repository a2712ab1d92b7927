//! The JSON result of an analysis (`warpscope analyze`, the tour, the report page, `--measure`):
//! the driver's `Results` turned into per-line and per-instruction bank rows, divergence, hazards,
//! fix and occupancy sections. The tables for people are drawn from it by
//! [`analysis_blocks`](super::analysis_blocks).

use serde::Serialize;
use warpscope_analysis::banks::{self, BankRun, Counts, MatrixKind, Side, WorstRequest};
use warpscope_analysis::divergence::{DivergenceReport, LineStat};
use warpscope_analysis::reconcile::Role;
use warpscope_driver::{Analyzed, Results};
use warpscope_model::arch::Arch;
use warpscope_ptx::Program;

use crate::findings::{self, HazardsOut};

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
    /// [`DivergenceJson::machine`] as Nsight Compute names it, when the machine code was read:
    /// `smsp__sass_branch_targets.sum`, `smsp__sass_branch_targets_threads_divergent.sum` and
    /// `exact` (false: an estimate, the reason in `machine_flow`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_counters: Option<serde_json::Value>,
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
        rules_basis: warpscope_measure::basis::json(arch),
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
        machine_counters: None,
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

/// How the branch counters' note begins where lanes leaving a `YIELD` loop apart make them
/// estimates.
pub const YIELD_APART: &str = "groups of lanes leave a loop with a YIELD apart: ";

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
            match (&r.machine_flow, r.yield_loops) {
                // after a YIELD loop only the flow counts what the lanes leaving it apart branch
                // (as `run` counts them); where the H200 joined some groups by an order not
                // modelled, the PTX's count, an estimate
                (Some(Ok(c)), Some(None)) => (c.targets, c.divergent, c.overlapping_barriers == 0),
                (_, Some(_)) => (t, dv, false),
                // lines that do not match: the machine code's own control flow, when it was followed
                (Some(Ok(c)), None) if !exact => (c.targets, c.divergent, true),
                _ => (t, dv, exact),
            }
        });
        j.machine_flow = r
            .machine_flow
            .as_ref()
            .map(|f| f.as_ref().map(|_| ()).map_err(Clone::clone));
        j.machine_counters = j.machine.map(|(t, dv, exact)| {
            serde_json::json!({
                "smsp__sass_branch_targets.sum": t,
                "smsp__sass_branch_targets_threads_divergent.sum": dv,
                "exact": exact,
            })
        });
        if let (Some(Some(why)), Some(Ok(_))) = (r.yield_loops, &j.machine_flow) {
            j.machine_flow = Some(Err(format!("{YIELD_APART}{why}")));
        }
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
