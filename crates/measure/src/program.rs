//! `warpscope run --measure` / `--measured`'s comparison: a whole program's launches, predicted by the emulator,
//! beside what Nsight Compute counts for the same program on a GPU.
//!
//! `--measure` runs the program a second time, natively (NVIDIA's runtime, not warpscope's), under
//! `ncu --csv --page raw` with the counters the `run` table predicts; `--measured FILE` reads an ncu
//! CSV recorded earlier (either page ncu writes) and needs no GPU. Launches are paired by ncu's
//! launch ID, which is the program's launch index (ncu profiles every launch). The program's output
//! on the GPU (run once more without ncu, which serialises kernels and so reorders device `printf`
//! lines) is compared with its output under the emulator.
//!
//! Each counter carries the claim the prediction makes: `exact` (shared-memory instructions and
//! wavefronts, launch configuration, registers, theoretical occupancy; branch counters when every
//! source line's branches matched the machine code; global requests and sectors when every source
//! line's global loads and stores matched the machine code's or the machine code's own were counted
//! on the launch, device `printf`'s own traffic included where its measured rule applies) or
//! `estimate` (counters labelled so: `warpscope__*_counters_exact` = 0). The unit-level shared wavefronts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`
//! / `_st`) are a `floor`: the requests' own wavefronts, to which the GPU adds wavefronts from
//! contention with other L1 traffic, differently at each launch; the instruction-attributed
//! `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld` / `_st` are exact. A differing exact
//! counter is a difference, and so is a floor above the measured value; a differing estimate, or a
//! measured value above a floor, is shown, not counted.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use warpscope_analysis::banks::MatrixKind;
use warpscope_cudart::LaunchRecord;
use warpscope_gpu::lab::ncu::NcuRow;

use crate::error::{Context, Result};
use crate::launch::{CounterRow, Prediction};

/// The counters compared, with Nsight Compute's names (what `calibration/run/ncu.sh` measures).
pub const METRICS: &[&str] = &[
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_branch_targets_threads_uniform.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "launch__registers_per_thread",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__grid_size",
    "launch__block_size",
    "launch__shared_mem_per_block_dynamic",
    MatrixKind::Ldsm.ncu_instructions(),
    MatrixKind::Ldsm.ncu_wavefronts(),
    MatrixKind::Stsm.ncu_instructions(),
    MatrixKind::Stsm.ncu_wavefronts(),
    MatrixKind::Ldgsts.ncu_instructions(),
    MatrixKind::Ldgsts.ncu_wavefronts(),
];

/// One launch, predicted beside measured.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LaunchComparison {
    /// Launch index in the program (ncu's ID).
    pub id: u64,
    /// The kernel as warpscope names it (as ncu prints it).
    pub kernel: String,
    /// The kernel as ncu printed it for this launch, when it differs (a wrong pairing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured_kernel: Option<String>,
    /// Counters side by side.
    pub counters: Vec<CounterRow>,
}

/// The program's output under the emulator beside its output on the GPU.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OutputComparison {
    /// Byte for byte equal.
    pub equal: bool,
    /// The first line that differs: `line N: emulator "...", GPU "..."`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<String>,
    /// The same lines in another order, accepted because the program's kernels call device
    /// `printf`: blocks that run at once print in no fixed order on a GPU (two runs of one program
    /// on the H100 printed `checkIndex`'s blocks in either order).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reordered: bool,
}

/// What `--measure`/`--measured` adds to `run`'s export (field `measurement`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunMeasurement {
    /// Where the figures come from: the GPU and versions, or the recorded file.
    pub measured_on: String,
    /// Launches compared.
    pub launches: Vec<LaunchComparison>,
    /// The program's output, when both sides were at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputComparison>,
    /// The program's exit status on the GPU, when it was run there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_exit_status: Option<i32>,
    /// Exact counters that differ, plus launches ncu did not profile or named otherwise, plus a
    /// differing output.
    pub differences: usize,
    /// What was not compared, and why.
    pub notes: Vec<String>,
}

/// Whether a measured counter contradicts its claim: an exact one that differs, a floor above the
/// measured value.
pub fn contradicts(c: &CounterRow) -> bool {
    match (c.claim.as_str(), c.measured) {
        ("exact", _) => c.equal == Some(false),
        ("floor", Some(m)) => m < c.predicted,
        _ => false,
    }
}

/// The claim of each compared counter of a launch.
fn claim(rec: &LaunchRecord, metric: &str) -> &'static str {
    let m = &rec.analysis.metrics;
    if metric.starts_with("smsp__sass_branch_targets")
        && m.get("warpscope__branch_counters_exact")
            .is_some_and(|v| *v == 0.0)
    {
        return "estimate";
    }
    let matrix = ["_op_ldsm.sum", "_op_stsm.sum", "_op_ldgsts.sum"];
    if matrix.iter().any(|s| metric.ends_with(s))
        && m.get("warpscope__matrix_counters_exact")
            .is_some_and(|v| *v == 0.0)
    {
        return "estimate";
    }
    if (metric.contains("op_shared_ld")
        || metric.contains("op_shared_st")
        || metric.contains("mem_shared_op_ld")
        || metric.contains("mem_shared_op_st"))
        && m.get("warpscope__shared_counters_exact")
            .is_some_and(|v| *v == 0.0)
    {
        return "estimate";
    }
    if metric.starts_with("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_")
        && m.get("warpscope__l1tex_shared_wavefronts_floor")
            .is_some_and(|v| *v == 1.0)
    {
        return "floor";
    }
    // device printf's stores differ between the H100 and the H200, its loads do not
    // (`warpscope_analysis::global::printf_traffic`): a printing launch's loads alone exact
    if metric.contains("_mem_global_op_ld")
        && m.get("warpscope__global_load_counters_exact")
            .is_some_and(|v| *v == 1.0)
    {
        return "exact";
    }
    if metric.contains("_mem_global_")
        && m.get("warpscope__global_counters_exact")
            .is_some_and(|v| *v == 0.0)
    {
        return "estimate";
    }
    "exact"
}

/// The claim for counter `m` of a host launch summed over its tree `t`: shared counters are exact
/// when every grid's are (the device runtime makes no shared load or store); the others count the
/// device runtime's own work on the GPU, which is not modelled: estimates.
fn tree_claim(rec: &LaunchRecord, m: &str, t: &warpscope_cudart::devlaunch::Tree) -> &'static str {
    match claim(rec, m) {
        "exact" if m.contains("shared") && t.shared_exact => "exact",
        "floor" => "floor",
        _ => "estimate",
    }
}

/// Pairs the recorded launches with ncu's rows and compares every counter of [`METRICS`] the
/// launch predicts.
pub fn compare(recs: &[LaunchRecord], rows: &[NcuRow], measured_on: String) -> RunMeasurement {
    let mut by_id: BTreeMap<u64, (String, Vec<&NcuRow>)> = BTreeMap::new();
    for r in rows {
        by_id
            .entry(u64::from(r.id))
            .or_insert_with(|| (r.kernel.clone(), Vec::new()))
            .1
            .push(r);
    }
    let mut notes = Vec::new();
    let mut differences = 0;
    let mut launches = Vec::new();
    // kernels launched by kernels: ncu profiles only the host's launches (its IDs count those), and
    // counts in each the grids it launched (warpscope_cudart::devlaunch::trees)
    let trees = warpscope_cudart::devlaunch::trees(recs);
    let device_launched = recs.iter().filter(|r| r.parent.is_some()).count();
    if device_launched > 0 {
        notes.push(format!(
            "{device_launched} launches were made by kernels: ncu does not profile them as launches of their own and counts their work, with the device runtime's own, in the row of the host launch they descend from; that row is compared with the sums over the host launch's grids"
        ));
    }
    for rec in recs.iter().filter(|r| r.parent.is_none()) {
        let id = rec.host_launch.unwrap_or(rec.index);
        let Some((kernel, rows)) = by_id.get(&id) else {
            notes.push(format!(
                "launch {} ({}): ncu did not profile it",
                rec.index, rec.kernel
            ));
            differences += 1;
            continue;
        };
        let measured_kernel = (*kernel != rec.kernel).then(|| kernel.clone());
        if measured_kernel.is_some() {
            differences += 1;
        }
        let tree = trees.get(&rec.index);
        let preds: Vec<Prediction> = METRICS
            .iter()
            .filter_map(|&m| {
                let own = *rec.analysis.metrics.get(m)?;
                Some(match tree {
                    Some(t) if m.ends_with(".sum") => {
                        (m, t.metrics.get(m).copied().unwrap_or(own), tree_claim(rec, m, t))
                    }
                    _ => (m, own, claim(rec, m)),
                })
            })
            .collect();
        let owned: Vec<NcuRow> = rows.iter().map(|r| (*r).clone()).collect();
        let counters = crate::launch::compare_counters(&preds, Some(&owned));
        differences += counters.iter().filter(|c| contradicts(c)).count();
        launches.push(LaunchComparison {
            id: rec.index,
            kernel: rec.kernel.clone(),
            measured_kernel,
            counters,
        });
    }
    let recorded: Vec<u64> = recs
        .iter()
        .filter(|r| r.parent.is_none())
        .map(|r| r.host_launch.unwrap_or(r.index))
        .collect();
    let extra: Vec<String> = by_id
        .iter()
        .filter(|(id, _)| !recorded.contains(id))
        .map(|(id, (k, _))| format!("{id} ({k})"))
        .collect();
    if !extra.is_empty() && recs.len() < by_id.len() {
        notes.push(format!(
            "ncu profiled launches warpscope did not record (launch filters): {}",
            extra.join(", ")
        ));
    }
    RunMeasurement {
        measured_on,
        launches,
        output: None,
        gpu_exit_status: None,
        differences,
        notes,
    }
}

/// Compares the program's output under the emulator with its output on the GPU.
pub fn compare_output(emulated: &[u8], gpu: &[u8], device_printf: bool) -> OutputComparison {
    if emulated == gpu {
        return OutputComparison {
            equal: true,
            first_difference: None,
            reordered: false,
        };
    }
    let e: Vec<&[u8]> = emulated.split(|&b| b == b'\n').collect();
    let g: Vec<&[u8]> = gpu.split(|&b| b == b'\n').collect();
    if device_printf {
        let (mut se, mut sg) = (e.clone(), g.clone());
        se.sort_unstable();
        sg.sort_unstable();
        if se == sg {
            return OutputComparison {
                equal: true,
                first_difference: None,
                reordered: true,
            };
        }
    }
    let i = (0..e.len().max(g.len()))
        .find(|&i| e.get(i) != g.get(i))
        .unwrap_or(0);
    let show = |l: Option<&&[u8]>| match l {
        Some(l) => format!("{:?}", String::from_utf8_lossy(l)),
        None => "end of output".to_string(),
    };
    OutputComparison {
        equal: false,
        reordered: false,
        first_difference: Some(format!(
            "line {}: emulator {}, GPU {}",
            i + 1,
            show(e.get(i)),
            show(g.get(i))
        )),
    }
}

/// Whether any recorded launch called device `printf`.
pub fn calls_printf(recs: &[LaunchRecord]) -> bool {
    recs.iter().any(|r| {
        r.analysis
            .metrics
            .get("warpscope__device_printf_calls")
            .is_some_and(|v| *v > 0.0)
    })
}

/// Reads a recorded ncu CSV (`--measured`): rows, and where they come from.
pub fn read_recorded(path: &Path) -> Result<(Vec<NcuRow>, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows = warpscope_gpu::measure::parse_any_csv(&text)
        .with_context(|| format!("{}: not an ncu CSV (ncu --csv, either page)", path.display()))?;
    let device = text
        .lines()
        .find(|l| l.starts_with("# measured on:"))
        .map(|l| l.trim_start_matches("# measured on:").trim().to_string());
    let on = match device {
        Some(d) => format!("{d} (recorded in {}, no GPU used)", path.display()),
        None => format!("recorded in {} (no GPU used)", path.display()),
    };
    Ok((rows, on))
}

/// The program's recorded GPU output (`--measured-output`), ncu's own lines removed.
pub fn read_recorded_output(path: &Path) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(warpscope_gpu::measure::strip_ncu_messages(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(claim: &str, predicted: f64, measured: f64) -> CounterRow {
        CounterRow {
            metric: "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum".into(),
            predicted,
            measured: Some(measured),
            equal: Some(predicted == measured),
            claim: claim.into(),
        }
    }

    #[test]
    fn a_floor_is_contradicted_only_by_a_lower_measurement() {
        // the L1 unit added contention wavefronts (globalToShmemAsyncCopy: 786871 for 786432)
        assert!(!contradicts(&row("floor", 786432.0, 786871.0)));
        assert!(!contradicts(&row("floor", 786432.0, 786432.0)));
        // fewer than the requests' own wavefronts: the prediction is wrong
        assert!(contradicts(&row("floor", 786432.0, 786000.0)));
        // an exact claim is contradicted by any difference, an estimate by none
        assert!(contradicts(&row("exact", 7.0, 8.0)));
        assert!(!contradicts(&row("exact", 7.0, 7.0)));
        assert!(!contradicts(&row("estimate", 7.0, 8.0)));
    }

    #[test]
    fn output_differences_name_the_first_line() {
        assert!(compare_output(b"a\nb\n", b"a\nb\n", false).equal);
        let d = compare_output(b"a\nsum 3\n", b"a\nsum 4\n", false);
        assert!(!d.equal);
        assert_eq!(
            d.first_difference.unwrap(),
            "line 2: emulator \"sum 3\", GPU \"sum 4\""
        );
        // device printf from concurrent blocks: the same lines in another order are the same output
        let r = compare_output(b"x\nblock 0\nblock 1\n", b"x\nblock 1\nblock 0\n", true);
        assert!(r.equal && r.reordered && r.first_difference.is_none());
        let r = compare_output(b"x\nblock 0\nblock 1\n", b"x\nblock 1\nblock 0\n", false);
        assert!(!r.equal && !r.reordered);
        let r = compare_output(b"block 0\nblock 1\n", b"block 1\nblock 2\n", true);
        assert!(!r.equal);
        let short = compare_output(b"a\n", b"a\nb\n", false);
        assert_eq!(
            short.first_difference.unwrap(),
            "line 2: emulator \"\", GPU \"b\""
        );
    }
}
