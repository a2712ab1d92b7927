//! `warpscope run --measure` / `--measured`: the program run natively on the GPU, under ncu and
//! without, and the comparison (`warpscope_measure::program`: launches paired by ncu's launch ID,
//! each counter with its claim) rendered as a table and a summary.

use std::path::{Path, PathBuf};

use anyhow::Context;
use warpscope_cudart::LaunchRecord;
use warpscope_measure::program::{
    METRICS, RunMeasurement, calls_printf, compare, compare_output, contradicts,
};

use crate::output::{Column, Tabular};

/// Checks before the emulated run that `--measure` can measure: a GPU with its driver, and ncu.
pub fn preflight(ncu: Option<&Path>) -> anyhow::Result<PathBuf> {
    warpscope_gpu::ensure_driver().map_err(crate::cmd::device::gpu_error)?;
    warpscope_gpu::measure::find_ncu(ncu).ok_or_else(|| {
        anyhow::Error::new(crate::exit::Unavailable(
            "--measure needs Nsight Compute (ncu): not found on PATH, in /usr/local/cuda/bin or /opt/nvidia (pass --ncu PATH)".into(),
        ))
    })
}

/// Runs `exe args` natively twice: once as it is (its output compared with the emulated run's:
/// under ncu the kernels are serialised and device `printf` is flushed after each, which changes
/// the order of lines), once under ncu (its launches compared).
pub fn measure(
    ncu: &Path,
    exe: &Path,
    args: &[String],
    recs: &[LaunchRecord],
    emulated_output: &[u8],
) -> anyhow::Result<RunMeasurement> {
    let plain = crate::child::output(
        std::process::Command::new(exe).args(args),
        std::process::Stdio::inherit(),
    )
    .with_context(|| format!("cannot run {} on the GPU", exe.display()))?;
    if crate::child::interrupted() {
        anyhow::bail!(
            "interrupted while {} ran on the GPU: not profiled under ncu",
            exe.display()
        );
    }
    let p = warpscope_gpu::measure::profile_program_with(ncu, exe, args, METRICS, None, |c| {
        crate::child::output(c, std::process::Stdio::piped())
    })
    .map_err(crate::cmd::device::gpu_error)?;
    let rows = match warpscope_gpu::measure::parse_raw_csv(&p.csv) {
        Ok(rows) => rows,
        Err(_) if !p.ncu_succeeded => anyhow::bail!("{}", p.failure),
        Err(e) => return Err(anyhow::Error::new(e).context("ncu's CSV")),
    };
    let versions = warpscope_gpu::measure::versions(0, Some(ncu))
        .map(|v| v.header())
        .unwrap_or_else(|_| "the local GPU".into());
    let mut m = compare(recs, &rows, versions);
    let out = compare_output(emulated_output, &plain.stdout, calls_printf(recs));
    if !out.equal {
        m.differences += 1;
    }
    m.output = Some(out);
    m.gpu_exit_status = plain.status.code();
    Ok(m)
}

/// `run`'s measurement: on the GPU (`ncu`, from [`preflight`]) unless the run was interrupted
/// (`skipped`), or replayed from a recorded ncu CSV (`measured`, with the program's recorded output
/// `measured_output`); `None` when neither was asked for.
#[allow(clippy::too_many_arguments)]
pub fn for_run(
    ncu: Option<&Path>,
    skipped: bool,
    measured: Option<&Path>,
    measured_output: Option<&Path>,
    exe: &Path,
    prog_args: &[String],
    recs: &[LaunchRecord],
    emulated_output: &[u8],
) -> anyhow::Result<Option<RunMeasurement>> {
    Ok(if skipped {
        None
    } else if let Some(ncu) = ncu {
        Some(measure(ncu, exe, prog_args, recs, emulated_output)?)
    } else if let Some(path) = measured {
        let (rows, on) =
            warpscope_measure::program::read_recorded(path).map_err(crate::launch::measure_error)?;
        let mut m = compare(recs, &rows, on);
        if let Some(out) = measured_output {
            let gpu = warpscope_measure::program::read_recorded_output(out)
                .map_err(crate::launch::measure_error)?;
            let o = compare_output(emulated_output, &gpu, calls_printf(recs));
            if !o.equal {
                m.differences += 1;
            }
            m.output = Some(o);
        }
        Some(m)
    } else {
        None
    })
}

fn num(v: Option<f64>) -> String {
    match v {
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{}", v as i64),
        Some(v) => format!("{v:.2}"),
        None => "-".into(),
    }
}

/// Short column names of the compared counters.
fn short(metric: &str) -> &str {
    match metric {
        "smsp__sass_inst_executed_op_shared_ld.sum" => "shared ld inst",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" => "ld wavefronts",
        "smsp__sass_inst_executed_op_shared_st.sum" => "shared st inst",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" => "st wavefronts",
        "smsp__sass_branch_targets.sum" => "branch targets",
        "smsp__sass_branch_targets_threads_divergent.sum" => "divergent",
        "smsp__sass_branch_targets_threads_uniform.sum" => "uniform",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" => "gld req",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" => "gld sectors",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum" => "gst req",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum" => "gst sectors",
        "launch__registers_per_thread" => "regs",
        "sm__maximum_warps_per_active_cycle_pct" => "theor. occupancy %",
        "launch__grid_size" => "grid size",
        "launch__block_size" => "block size",
        "launch__shared_mem_per_block_dynamic" => "dyn smem",
        other => other,
    }
}

/// The comparison as a table: one row per launch (counters equal / compared, and each differing
/// counter as `name predicted→measured`, estimates marked).
pub fn table(m: &RunMeasurement) -> Tabular {
    let mut t = Tabular::new(
        "measured: predicted beside ncu, per launch",
        vec![
            Column::new("id", "id"),
            Column::new("kernel", "kernel"),
            Column::new("equal", "equal"),
            Column::new("differences (predicted→measured)", "differences"),
        ],
    );
    for l in &m.launches {
        let compared = l.counters.iter().filter(|c| c.equal.is_some()).count();
        let equal = l.counters.iter().filter(|c| c.equal == Some(true)).count();
        let mut diffs: Vec<String> = l
            .counters
            .iter()
            .filter(|c| c.equal == Some(false))
            .map(|c| {
                format!(
                    "{} {}→{}{}",
                    short(&c.metric),
                    num(Some(c.predicted)),
                    num(c.measured),
                    match c.claim.as_str() {
                        "estimate" => " (estimate)",
                        "floor" if !contradicts(c) => " (floor: L1 contention)",
                        _ => "",
                    }
                )
            })
            .collect();
        if let Some(k) = &l.measured_kernel {
            diffs.insert(0, format!("ncu profiled {k} here"));
        }
        t.row([
            l.id.to_string(),
            l.kernel.clone(),
            format!("{equal}/{compared}"),
            if diffs.is_empty() {
                "-".to_string()
            } else {
                diffs.join("; ")
            },
        ]);
    }
    t
}

/// Lines under the table: where the figures come from, the totals, the output comparison.
pub fn summary(m: &RunMeasurement) -> Vec<String> {
    let compared: usize = m
        .launches
        .iter()
        .map(|l| l.counters.iter().filter(|c| c.equal.is_some()).count())
        .sum();
    let equal: usize = m
        .launches
        .iter()
        .map(|l| l.counters.iter().filter(|c| c.equal == Some(true)).count())
        .sum();
    let estimates: usize = m
        .launches
        .iter()
        .map(|l| {
            l.counters
                .iter()
                .filter(|c| c.claim == "estimate" && c.equal == Some(false))
                .count()
        })
        .sum();
    let floors: usize = m
        .launches
        .iter()
        .map(|l| {
            l.counters
                .iter()
                .filter(|c| c.claim == "floor" && c.equal == Some(false) && !contradicts(c))
                .count()
        })
        .sum();
    let mut uncounted = Vec::new();
    if estimates > 0 {
        uncounted.push(format!("{estimates} differing counters are labelled estimates"));
    }
    if floors > 0 {
        uncounted.push(format!(
            "{floors} unit-level shared wavefront counters are above warpscope's floor (L1 \
             contention the GPU adds and does not repeat; the instruction-attributed \
             sm__sass_..._mem_shared_op_ld/st are exact)"
        ));
    }
    let mut v = vec![
        format!("measured on: {}", m.measured_on),
        format!(
            "{} launches compared: {equal} of {compared} counters equal; {} differences{}",
            m.launches.len(),
            m.differences,
            if uncounted.is_empty() {
                String::new()
            } else {
                format!(" ({}; not counted)", uncounted.join("; "))
            }
        ),
    ];
    if let Some(o) = &m.output {
        v.push(match &o.first_difference {
            None if o.reordered => "program output: the same lines under the emulator and on the GPU, \
                                     in another order (device printf: blocks print in no fixed order on a GPU)"
                .into(),
            None => "program output: the same under the emulator and on the GPU".into(),
            Some(d) => format!("program output differs: {d}"),
        });
    }
    if let Some(s) = m.gpu_exit_status {
        v.push(format!("on the GPU the program exited with status {s}"));
    }
    v.extend(m.notes.iter().cloned());
    v
}
