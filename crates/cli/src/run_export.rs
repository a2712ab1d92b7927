//! `warpscope run`'s results as documents and tables: the `--export` JSON (`Export`), the per-kernel
//! sums, the columns of the launch tables, and the findings and fix tables.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitStatus;

use anyhow::bail;
use serde::Serialize;
use warpscope_cudart::{Finding, LaunchRecord, Notice};
use warpscope_measure::program::RunMeasurement;
use warpscope_model::arch::Arch;

use crate::output::{Column, Tabular};

/// The program was stopped by a signal sent to warpscope or typed on the terminal (Ctrl-C).
#[derive(Serialize)]
pub struct Interrupted {
    /// The first such signal (2: SIGINT).
    pub signal: i32,
}

/// The launch the runtime was emulating when the program ended (it has no record).
#[derive(Serialize)]
pub struct UnfinishedLaunch {
    pub launch: u64,
    pub kernel: String,
    pub blocks_done: u64,
    pub blocks: u64,
    pub seconds: f64,
}

/// Launches whose blocks did not all run (`--budget`), and where their missing results were used.
#[derive(Serialize)]
pub struct Incomplete {
    /// Launches cut short.
    pub launches_cut: Vec<serde_json::Value>,
    /// Later launches that read memory a cut launch left incomplete.
    pub launches_on_incomplete_input: Vec<serde_json::Value>,
    /// The program's reads of such memory (copies to the host, `cudaMemcpyFromSymbol`).
    pub reads: Vec<serde_json::Value>,
}

/// The `--export` document.
#[derive(Serialize)]
pub struct Export<'a> {
    pub program: String,
    pub args: &'a [String],
    pub exit_status: Option<i32>,
    /// The signal that ended the program, when one did.
    pub signal: Option<i32>,
    /// Set when the run was interrupted (Ctrl-C, or a signal sent to warpscope).
    pub interrupted: Option<Interrupted>,
    /// The launch being emulated when the program ended, when it ended inside one.
    pub unfinished_launch: Option<UnfinishedLaunch>,
    /// `--budget`, seconds per launch.
    pub budget_s: Option<f64>,
    /// Set when some launch did not run all its blocks.
    pub incomplete: Option<Incomplete>,
    /// Findings of the whole program rather than of one launch (`--check`: device memory never
    /// freed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub program_findings: Vec<warpscope_cudart::Finding>,
    pub arch: &'a str,
    /// Whether the preset's rules (bank, occupancy, ldmatrix/stmatrix/cp.async) are measured or assumed.
    pub rules_basis: serde_json::Value,
    pub launches: Vec<LaunchOut<'a>>,
    pub kernels: Vec<KernelSummary>,
    pub notes: Vec<String>,
    /// Predicted beside measured (`--measure`, `--measured`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measurement: Option<warpscope_measure::program::RunMeasurement>,
}

#[derive(Serialize)]
pub struct LaunchOut<'a> {
    pub id: u64,
    pub kernel: &'a str,
    pub mangled: &'a str,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_smem: u32,
    pub stream: u64,
    pub metrics: &'a BTreeMap<String, f64>,
    pub findings: Vec<&'a warpscope_cudart::Finding>,
    pub warp_instructions: u64,
    /// PTX thread instructions executed (each warp instruction's active lanes).
    pub thread_instructions: u64,
    pub widths: &'a str,
    /// Set when not every block ran (`--budget`): which ran, and how the counters were made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<&'a warpscope_cudart::analysis::Sampling>,
    /// The launch read memory that this earlier launch, cut short, left incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incomplete_input: Option<u64>,
    /// Shared-memory counters per source line.
    pub shared_lines: &'a [warpscope_cudart::analysis::SharedLine],
    /// Lines that diverged more than in any earlier launch of the kernel (bounded records).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub divergence_lines: &'a [warpscope_cudart::line_pictures::LineDivergence],
    /// The fix advisor's answer for the kernel (`--fix`, on one launch per kernel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<&'a warpscope_cudart::analysis::FixAdvice>,
    /// Why the machine code's control flow could not be followed for the branch counters (they
    /// are then the PTX's, labelled estimates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine_flow_stop: Option<&'a str>,
    /// Why the machine code's own global accesses could not be counted (the global counters are
    /// then the PTX's, labelled estimates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_flow_stop: Option<&'a str>,
    /// Where the machine code's flow stopped on a value read from local memory the thread never
    /// stored (the shared and global counters are then estimates too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undefined_local_read: Option<&'a str>,
    /// The source line of a shared compare-and-swap retry loop this launch ran (its shared
    /// counters are then estimates: the GPU retries as often as contention makes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_retry_loop: Option<&'a str>,
    /// Where a value of floating-point sums made by atomics decides a branch, an address or an
    /// integer, and which launch made the sums (its branch and global counters, and shared where
    /// the kernel uses shared memory, are then estimates: the GPU rounds the sums in the order it
    /// ran the atomics).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub float_sum_order: Option<&'a str>,
    /// Where the launch fetches from a 3-D texture with linear filtering (its branch and global
    /// counters are then estimates: the emulation's trilinear weights are the H200's on most
    /// measured samples, not all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trilinear_filtering: Option<&'a str>,
    /// A plain launch whose blocks waited on each other through global memory (a grid barrier
    /// made by hand): which block waited, how the blocks ran from there (interleaved), and why its
    /// branch and global counters are estimates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks_interleaved: Option<&'a str>,
    /// For a kernel a grid launched (dynamic parallelism): the launching grid's id, block, thread,
    /// this grid's nesting depth and the stream it went into.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<&'a warpscope_cudart::devlaunch::ParentRecord>,
    /// For a host launch whose kernels launched kernels: the sums over it and every grid it
    /// launched, recursively, which is what Nsight Compute's row for it counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_children: Option<warpscope_cudart::devlaunch::Tree>,
}

#[derive(Serialize)]
pub struct KernelSummary {
    pub kernel: String,
    pub launches: u64,
    /// Sums over the kernel's launches (averages for percentages and ratios).
    pub metrics: BTreeMap<String, f64>,
}

/// nvprof names, and ncu ratios, as they are stored in the records.
pub fn metric_key(name: &str) -> &str {
    match name {
        "smsp__sass_average_branch_targets_threads_uniform.pct" => "branch_efficiency",
        "sm__warps_active.avg.pct_of_peak_sustained_active" => "sm__maximum_warps_per_active_cycle_pct",
        other => other,
    }
}

fn is_average(key: &str) -> bool {
    key.ends_with("_per_request")
        || key.ends_with("efficiency")
        || key.ends_with("pct")
        || key == "achieved_occupancy"
        || key.starts_with("launch__")
}

/// The default columns of the tables: (metric, title).
const DEFAULT_COLUMNS: &[(&str, &str)] = &[
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared ld inst"),
    (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "ld wavefronts",
    ),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared st inst"),
    (
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "st wavefronts",
    ),
    ("warpscope__shared_ld_excess_wavefronts.sum", "ld conflicts"),
    ("warpscope__shared_st_excess_wavefronts.sum", "st conflicts"),
    ("shared_load_transactions_per_request", "ld trans/req"),
    ("shared_store_transactions_per_request", "st trans/req"),
    ("smsp__sass_branch_targets.sum", "branch targets"),
    ("smsp__sass_branch_targets_threads_divergent.sum", "divergent"),
    ("branch_efficiency", "branch eff %"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gld req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "gst req"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst sectors"),
    ("sm__maximum_warps_per_active_cycle_pct", "theor. occupancy %"),
    ("launch__registers_per_thread", "regs"),
];

pub fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

pub fn dims(d: [u32; 3]) -> String {
    format!("({},{},{})", d[0], d[1], d[2])
}

/// Per kernel: its launches, the sums of their metrics (averages for ratios and percentages).
pub fn kernel_summaries(recs: &[LaunchRecord]) -> Vec<KernelSummary> {
    let mut sums: BTreeMap<String, KernelSummary> = BTreeMap::new();
    for r in recs {
        let s = sums.entry(r.kernel.clone()).or_insert_with(|| KernelSummary {
            kernel: r.kernel.clone(),
            launches: 0,
            metrics: BTreeMap::new(),
        });
        s.launches += 1;
        for (k, v) in &r.analysis.metrics {
            *s.metrics.entry(k.clone()).or_insert(0.0) += v;
        }
    }
    sums.into_values()
        .map(|mut s| {
            let n = s.launches as f64;
            for (k, v) in s.metrics.iter_mut() {
                if is_average(k) {
                    *v /= n;
                }
            }
            s
        })
        .collect()
}

/// The tables' columns, (metric, title): the default ones (the matrix columns of the kinds some
/// launch has among them), or `--metrics`, each a metric some launch has.
pub fn columns(metrics: &[String], recs: &[LaunchRecord]) -> anyhow::Result<Vec<(String, String)>> {
    Ok(if metrics.is_empty() {
        // the matrix columns of the kinds some launch has, after the shared-memory ones
        let has = |k: &str| recs.iter().any(|r| r.analysis.metrics.contains_key(k));
        let matrix = warpscope_analysis::banks::MatrixKind::ALL
            .into_iter()
            .filter(|k| has(k.ncu_instructions()))
            .flat_map(|k| {
                let name = format!("{k:?}").to_lowercase();
                [
                    (k.ncu_instructions().to_string(), format!("{name} inst")),
                    (k.ncu_wavefronts().to_string(), format!("{name} wavefronts")),
                ]
            });
        let plain = |c: &[(&str, &str)]| -> Vec<(String, String)> {
            c.iter().map(|(k, t)| (k.to_string(), t.to_string())).collect()
        };
        plain(&DEFAULT_COLUMNS[..8])
            .into_iter()
            .chain(matrix)
            .chain(plain(&DEFAULT_COLUMNS[8..]))
            .collect()
    } else {
        // every metric some launch has (LDSM / STSM / LDGSTS only where a kernel uses them)
        let known: Vec<&String> = recs
            .iter()
            .flat_map(|r| r.analysis.metrics.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for m in metrics {
            let k = metric_key(m);
            if !recs.is_empty() && !known.iter().any(|x| x.as_str() == k) {
                bail!(
                    "--metrics: `{m}` is not a metric warpscope predicts (known: {})",
                    known.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                );
            }
        }
        metrics
            .iter()
            .map(|m| {
                let title = if m == "achieved_occupancy" {
                    "achieved_occupancy (theoretical)".to_string()
                } else {
                    m.clone()
                };
                (metric_key(m).to_string(), title)
            })
            .collect()
    })
}

/// The launches table and the per-kernel table.
pub fn launch_tables(
    recs: &[LaunchRecord],
    kernels: &[KernelSummary],
    columns: &[(String, String)],
) -> (Tabular, Tabular) {
    // kernels launched by kernels (dynamic parallelism): which launch, block and thread
    let nested = recs.iter().any(|r| r.parent.is_some());
    let mut launches = Tabular::new(
        "launches",
        [
            Column::new("id", "id"),
            Column::new("kernel", "kernel"),
            Column::new("grid", "launch__grid_dim"),
            Column::new("block", "launch__block_dim"),
        ]
        .into_iter()
        .chain(nested.then(|| Column::new("launched by", "parent")))
        .chain(columns.iter().map(|(k, t)| Column::new(t.clone(), k.clone())))
        .collect(),
    );
    for r in recs {
        let mut row = vec![r.index.to_string(), r.kernel.clone(), dims(r.grid), dims(r.block)];
        if nested {
            row.push(match &r.parent {
                Some(p) => parent_label(p),
                None => "host".into(),
            });
        }
        for (k, _) in columns {
            row.push(
                r.analysis
                    .metrics
                    .get(k)
                    .map(|v| fmt_value(*v))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        launches.row(row);
    }
    let mut summary = Tabular::new(
        "kernels (sums over launches; ratios and percentages averaged)",
        [
            Column::new("kernel", "kernel"),
            Column::new("launches", "launches"),
        ]
        .into_iter()
        .chain(columns.iter().map(|(k, t)| Column::new(t.clone(), k.clone())))
        .collect(),
    );
    for s in kernels {
        let mut row = vec![s.kernel.clone(), s.launches.to_string()];
        for (k, _) in columns {
            row.push(
                s.metrics
                    .get(k)
                    .map(|v| fmt_value(*v))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        summary.row(row);
    }
    (launches, summary)
}

/// The findings table (`check`: `--check` was given; without it only failing device asserts and
/// reads of incomplete results are listed), with the number of errors and of findings always shown.
pub fn findings_table(
    recs: &[LaunchRecord],
    program_findings: &[Finding],
    check: bool,
) -> (Tabular, usize, usize) {
    let mut findings = Tabular::new(
        "findings",
        vec![
            Column::new("id", "id"),
            Column::new("kernel", "kernel"),
            Column::new("severity", "severity"),
            Column::new("kind", "kind"),
            Column::new("line", "line"),
            Column::new("finding", "message"),
        ],
    );
    // as `check`'s: fits an 80-column terminal, the messages wrapped
    findings.max_width = Some(crate::findings::TABLE_WIDTH);
    let mut errors = 0;
    // without `--check`, the table lists only failing device asserts (a GPU reports those too)
    let mut asserts = 0;
    for r in recs {
        for f in &r.analysis.findings {
            // failing device asserts and reads of incomplete results are shown in any case
            let always = f.kind == "assert" || f.kind == "incomplete_read";
            if !check && !always {
                continue;
            }
            asserts += usize::from(always);
            if f.severity == "error" {
                errors += 1;
            }
            findings.row([
                r.index.to_string(),
                // the name without its parameters (the launches table has them)
                r.kernel.split('(').next().unwrap_or(&r.kernel).trim().to_string(),
                f.severity.clone(),
                f.kind.clone(),
                f.line.map(|l| l.to_string()).unwrap_or_default(),
                f.message.clone(),
            ]);
        }
    }
    if check {
        for f in program_findings {
            errors += usize::from(f.severity == "error");
            findings.row([
                "-".into(),
                "(program)".into(),
                f.severity.clone(),
                f.kind.clone(),
                String::new(),
                f.message.clone(),
            ]);
        }
    }
    (findings, errors, asserts)
}

/// The fix advisor's recommended changes per kernel, and its notes.
pub fn fixes_table(recs: &[LaunchRecord]) -> (Tabular, Vec<String>) {
    let mut fixes = Tabular::new(
        "fix",
        vec![
            Column::new("kernel", "kernel"),
            Column::new("launch", "launch"),
            Column::new("array", "array"),
            Column::new("change", "change"),
            Column::new("before", "wavefronts_before"),
            Column::new("after", "wavefronts_after"),
            Column::new("ideal", "ideal"),
            Column::new("extra smem", "extra_shared_bytes"),
        ],
    );
    let mut fix_notes = Vec::new();
    for r in recs {
        let Some(f) = &r.analysis.fix else { continue };
        if f.suggestions.is_empty() {
            fix_notes.push(format!(
                "fix: {}: no shared array has a bank conflict to fix",
                r.kernel
            ));
        }
        for n in &f.notes {
            fix_notes.push(format!("fix: {}: {n}", r.kernel));
        }
        for s in f.suggestions.iter().filter(|s| s.recommended) {
            fixes.row([
                r.kernel.clone(),
                r.index.to_string(),
                s.array.clone(),
                s.change.clone(),
                s.wavefronts_before.to_string(),
                s.wavefronts_after.to_string(),
                s.ideal.to_string(),
                s.extra_shared_bytes.to_string(),
            ]);
        }
    }
    (fixes, fix_notes)
}

/// The `--export` document.
#[allow(clippy::too_many_arguments)]
pub fn export<'a>(
    program: &Path,
    prog_args: &'a [String],
    status: ExitStatus,
    interrupted: Option<Interrupted>,
    unfinished: Option<UnfinishedLaunch>,
    budget: Option<f64>,
    program_findings: Vec<Finding>,
    notices: &[Notice],
    arch: &'a Arch,
    recs: &'a [LaunchRecord],
    kernels: Vec<KernelSummary>,
    notes: Vec<String>,
    measurement: Option<RunMeasurement>,
) -> Export<'a> {
    let mut trees = warpscope_cudart::devlaunch::trees(recs);
    Export {
        program: program.display().to_string(),
        args: prog_args,
        exit_status: status.code(),
        signal: {
            use std::os::unix::process::ExitStatusExt;
            status.signal()
        },
        interrupted,
        unfinished_launch: unfinished,
        budget_s: budget,
        program_findings,
        incomplete: notices
            .iter()
            .any(|n| {
                !matches!(
                    n,
                    warpscope_cudart::Notice::Leak { .. }
                        | warpscope_cudart::Notice::ApiError { .. }
                        | warpscope_cudart::Notice::UninitializedCopy { .. }
                        | warpscope_cudart::Notice::StreamRace { .. }
                        | warpscope_cudart::Notice::StreamUnchecked { .. }
                )
            })
            .then(|| {
                let of = |kind: &str| -> Vec<serde_json::Value> {
                    notices
                        .iter()
                        .filter_map(|n| serde_json::to_value(n).ok())
                        .filter(|v| v["kind"] == kind)
                        .collect()
                };
                Incomplete {
                    launches_cut: of("launch_cut"),
                    launches_on_incomplete_input: of("incomplete_input"),
                    reads: of("incomplete_read"),
                }
            }),
        arch: arch.name,
        rules_basis: warpscope_measure::basis::json(arch),
        launches: recs
            .iter()
            .map(|r| LaunchOut {
                id: r.index,
                kernel: &r.kernel,
                mangled: &r.mangled,
                grid: r.grid,
                block: r.block,
                dyn_smem: r.dyn_smem,
                stream: r.stream,
                metrics: &r.analysis.metrics,
                findings: r.analysis.findings.iter().collect(),
                warp_instructions: r.analysis.warp_instructions,
                thread_instructions: r.analysis.thread_instructions,
                widths: &r.widths,
                sampling: r.analysis.sampling.as_ref(),
                incomplete_input: r.analysis.incomplete_input,
                shared_lines: &r.analysis.shared_lines,
                divergence_lines: &r.analysis.divergence_lines,
                fix: r.analysis.fix.as_ref(),
                machine_flow_stop: r.analysis.machine_flow_stop.as_deref(),
                global_flow_stop: r.analysis.global_flow_stop.as_deref(),
                undefined_local_read: r.analysis.undefined_local_read.as_deref(),
                shared_retry_loop: r.analysis.shared_retry_loop.as_deref(),
                float_sum_order: r.analysis.float_sum_order.as_deref(),
                trilinear_filtering: r.analysis.trilinear_filtering.as_deref(),
                blocks_interleaved: r.analysis.blocks_interleaved.as_deref(),
                parent: r.parent.as_ref(),
                with_children: trees.remove(&r.index),
            })
            .collect(),
        kernels,
        notes,
        measurement,
    }
}

/// A device-launched grid's origin as the launches table shows it: the launching grid's id, block
/// and thread, and the stream unless it is the NULL stream.
pub fn parent_label(p: &warpscope_cudart::devlaunch::ParentRecord) -> String {
    let d = |v: [u32; 3]| format!("({},{},{})", v[0], v[1], v[2]);
    let stream = if p.stream == "null" {
        String::new()
    } else {
        format!(" {}", p.stream)
    };
    format!("{} b{} t{}{stream}", p.launch, d(p.block), d(p.thread))
}
