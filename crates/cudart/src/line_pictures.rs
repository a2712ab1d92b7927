//! What `warpscope run --report` draws per kernel line besides the counters: the worst
//! shared-memory request of a conflicting line (its bank picture), the line's divergence, and with
//! `--fix` each suggestion's worst request before and after the change and its source edit.
//!
//! Bounded: a launch records a line's worst request (or its divergence) only when it is worse than
//! what an earlier launch of the same kernel in this process recorded for that line, so a kernel
//! launched many times the same way records it once; the worst over the kernel's launches is the
//! worst of what was recorded. Conflict-free and divergence-free lines record nothing.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use warpscope_analysis::banks::{BankReport, LineStats, Side};
use warpscope_analysis::divergence::DivergenceReport;
use warpscope_emu::Program;
use warpscope_model::arch::Arch;

/// One warp-level shared-memory request: enough to draw its bank picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedRequest {
    /// The instruction (PTX text).
    pub ptx: String,
    /// Bytes per lane as counted (the machine code's fused width where it fused accesses).
    pub width: u8,
    /// Wavefronts it took.
    pub wavefronts: u32,
    /// Wavefronts without a bank conflict.
    pub ideal: u32,
    /// Each lane's byte offset in the block's shared window (`null`: inactive lane).
    pub lanes: Vec<Option<u32>>,
}

/// Divergence of one source line in one launch (PTX branches and instructions, as `analyze`'s
/// page shows them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineDivergence {
    /// Source file (base name).
    pub file: String,
    /// Source line (the user's line for code inlined from a CUDA header).
    pub line: u32,
    /// Branch efficiency of the line's branches, percent (`None`: no branch).
    pub branch_efficiency_pct: Option<f64>,
    /// Active lanes over 32 per executed instruction, percent.
    pub utilisation_pct: f64,
}

/// A fix suggestion's worst request of its array, before and after the change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixRequest {
    /// Source line (`file:line`, or `PTX line N`) and PTX text of the instruction.
    pub what: String,
    /// Bytes per lane.
    pub width: u8,
    /// `load` or `store`.
    pub side: String,
    /// Lane offsets as the kernel is written (`null`: inactive lane).
    pub before: Vec<Option<u32>>,
    /// Lane offsets after the change.
    pub after: Vec<Option<u32>>,
}

type LineKey = (String, String, u32, &'static str);

/// Per (kernel, file, line, side): the wavefronts of the worst request recorded.
static WORST: Mutex<Option<HashMap<LineKey, u32>>> = Mutex::new(None);
/// Per (kernel, file, line): the lowest (branch efficiency, lanes active) recorded.
type Lowest = HashMap<(String, String, u32), (f64, f64)>;
static DIVERGED: Mutex<Option<Lowest>> = Mutex::new(None);

fn side_name(s: Side) -> &'static str {
    match s {
        Side::Load => "load",
        Side::Store => "store",
    }
}

fn base(p: &str) -> String {
    p.rsplit('/').next().unwrap_or("").to_string()
}

/// The worst request of `line` (from `report.lines`) when it conflicts and is worse than any
/// recorded before for this kernel line.
pub fn worst_request(
    program: &Program,
    kernel: &str,
    report: &BankReport,
    line: &LineStats,
) -> Option<SharedRequest> {
    let w = report.insts.get(&(line.worst_pc, line.side))?.worst.as_ref()?;
    if w.wavefronts <= w.ideal_wavefronts {
        return None;
    }
    let key = (
        kernel.to_string(),
        base(&line.file),
        line.line,
        side_name(line.side),
    );
    {
        let mut seen = WORST.lock().ok()?;
        let seen = seen.get_or_insert_with(HashMap::new);
        if seen.get(&key).is_some_and(|&had| had >= w.wavefronts) {
            return None;
        }
        seen.insert(key, w.wavefronts);
    }
    Some(SharedRequest {
        ptx: program.inst_info(line.worst_pc).text.trim().to_string(),
        width: w.width,
        wavefronts: w.wavefronts,
        ideal: w.ideal_wavefronts,
        lanes: (0..32)
            .map(|l| {
                (w.mask >> l & 1 == 1)
                    .then(|| u32::try_from(w.addrs[l]).ok())
                    .flatten()
            })
            .collect(),
    })
}

/// The lines of the launch that diverged (a divergent branch or an instruction with inactive
/// lanes) more than any earlier launch of `kernel` recorded.
pub fn divergence_lines(program: &Program, kernel: &str, div: &DivergenceReport) -> Vec<LineDivergence> {
    let t = &div.totals;
    if t.divergent == 0 && t.active_lanes >= 32 * t.inst_executions {
        return Vec::new();
    }
    // by_line groups by a number: number the (file, line) pairs of the instructions that ran
    // (file, line) of each number, and the number of each (file index, line)
    type Numbering = (Vec<(String, u32)>, HashMap<(u32, u32), u32>);
    let ids: std::cell::RefCell<Numbering> = Default::default();
    let line_of = |pc: u32| -> Option<u32> {
        let i = warpscope_driver::run::user_frame(program, pc)?;
        let f = program.frames(pc)[i];
        let mut ids = ids.borrow_mut();
        let (names, index) = &mut *ids;
        Some(*index.entry((f.file, f.line)).or_insert_with(|| {
            names.push((base(program.file_name(f.file).unwrap_or("")), f.line));
            names.len() as u32 - 1
        }))
    };
    let lines = div.by_line(&line_of);
    let ids = ids.into_inner().0;
    let Ok(mut seen) = DIVERGED.lock() else {
        return Vec::new();
    };
    let seen = seen.get_or_insert_with(HashMap::new);
    let mut out = Vec::new();
    for l in lines {
        let Some(id) = l.line else { continue };
        let eff = l.branch_efficiency_pct.unwrap_or(100.0);
        if eff >= 100.0 && l.utilisation_pct >= 100.0 {
            continue;
        }
        let (file, line) = ids[id as usize].clone();
        let key = (kernel.to_string(), file.clone(), line);
        let had = seen.get(&key).copied().unwrap_or((100.0, 100.0));
        if eff >= had.0 && l.utilisation_pct >= had.1 {
            continue;
        }
        seen.insert(key, (eff.min(had.0), l.utilisation_pct.min(had.1)));
        out.push(LineDivergence {
            file,
            line,
            branch_efficiency_pct: l.branch_efficiency_pct,
            utilisation_pct: l.utilisation_pct,
        });
    }
    out
}

/// A suggestion's worst request before and after its change.
pub fn fix_request(
    program: &Program,
    arch: &Arch,
    f: &warpscope_driver::run::FixResults,
    s: &warpscope_analysis::fix::Suggestion,
) -> Option<FixRequest> {
    let i = f.arrays.iter().position(|a| a.name == s.array)?;
    let w = warpscope_analysis::fix::picture::worst_pair(arch, &f.trace, &f.arrays, i, &s.transform)?;
    let info = program.inst_info(w.pc);
    let place = match info.loc {
        Some(l) => format!("{}:{}", base(program.file_name(l.file).unwrap_or("?")), l.line),
        None => format!("PTX line {}", info.ptx_line),
    };
    Some(FixRequest {
        what: format!("{place} {}", info.text.trim()),
        width: w.width,
        side: side_name(w.side).into(),
        before: w.before.to_vec(),
        after: w.after.to_vec(),
    })
}

/// The text of the CUDA file that most of `kernel`'s `.loc` lines name, when it can be read (for
/// the fix advisor's source edits), with every line outside the kernel's (from its first to its
/// last line in that file) blanked: another kernel's array of the same name is not the one to edit.
pub fn kernel_source(program: &Program, kernel: &str) -> Option<String> {
    let k = program.kernel(kernel)?;
    let mut uses: HashMap<u32, (usize, u32, u32)> = HashMap::new();
    for pc in k.entry..k.end {
        if let Some(l) = program.inst_info(pc).loc {
            let e = uses.entry(l.file).or_insert((0, l.line, l.line));
            e.0 += 1;
            e.1 = e.1.min(l.line);
            e.2 = e.2.max(l.line);
        }
    }
    let (&file, &(_, first, last)) = uses
        .iter()
        .max_by_key(|(f, (n, _, _))| (*n, std::cmp::Reverse(**f)))?;
    let text = std::fs::read_to_string(program.file_name(file)?).ok()?;
    Some(
        text.lines()
            .enumerate()
            .map(|(i, l)| {
                if (first..=last).contains(&(i as u32 + 1)) {
                    l
                } else {
                    ""
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    )
}
