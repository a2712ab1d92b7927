//! The pictures of `warpscope run --report` beyond the tables: per kernel the worst request of each
//! conflicting line (its bank heatmap), the fix's before/after, the divergence per line, and per
//! launch the modelled time (`warpscope_model::time`, H100 rates). Rendering only: the records
//! carry the requests (`warpscope_cudart::line_pictures`).

use std::collections::BTreeMap;

use warpscope_cudart::analysis::FixSuggestion;
use warpscope_cudart::line_pictures::SharedRequest;
use warpscope_model::arch::Arch;
use warpscope_model::bank::{self, Breakdown, Op, Request};
use warpscope_model::time::{Modelled, Rates, Work, launch_time};
use warpscope_report::kernel::{ArchRow, Conflict, FixView};

use crate::run_export::{Export, LaunchOut, fmt_value};

fn metric(l: &LaunchOut<'_>, name: &str) -> f64 {
    l.metrics.get(name).copied().unwrap_or(0.0)
}

/// Shared-memory wavefronts of a launch (loads and stores, LDSM/STSM included as ncu counts them).
pub fn shared_wavefronts(l: &LaunchOut<'_>) -> f64 {
    metric(l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
        + metric(l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
}

/// What the time model needs of a launch, with its shared wavefronts replaced by `shared` if given.
fn work(l: &LaunchOut<'_>, shared: Option<f64>) -> Work {
    let warps = l
        .metrics
        .get("warpscope__ptx_warp_instructions.sum")
        .copied()
        .unwrap_or(l.warp_instructions as f64);
    let sectors = metric(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
        + metric(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    Work {
        warp_instructions: warps as u64,
        shared_wavefronts: shared.unwrap_or_else(|| shared_wavefronts(l)) as u64,
        global_sectors: sectors as u64,
        blocks: l.grid.iter().map(|&g| u64::from(g)).product(),
    }
}

/// A launch's modelled time (H100 rates).
pub fn modelled(l: &LaunchOut<'_>) -> Modelled {
    launch_time(&Rates::h100(), &work(l, None))
}

/// How the modelled time is made, for the page's notes and captions.
pub const TIME_NOTE: &str = "Modelled time (not a measurement): 2 µs per launch plus the slowest of issuing its warp instructions (4 per SM per cycle) and its shared-memory wavefronts (1 per SM per cycle) on the SMs its blocks occupy, its global sectors at the measured copy bandwidth (2,945 GB/s) and one DRAM latency (689 cycles) when it touches global memory, on 132 SMs at 1.995 GHz (H100 SXM figures of calibration/latency). No caches, no overlap between launches.";

/// The per-kernel summary: launches, sums of the counters, branch efficiency, modelled time.
pub fn summary_rows(e: &Export<'_>, kernels: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let headers = [
        "kernel",
        "launches",
        "warp instructions",
        "shared wavefronts",
        "ideal",
        "excess",
        "branch eff. %",
        "global sectors",
        "modelled time µs (sum)",
        "bound (most launches)",
        "findings",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let rows = kernels
        .iter()
        .map(|k| {
            let ls: Vec<&LaunchOut<'_>> = e.launches.iter().filter(|l| l.kernel == *k).collect();
            let (mut w, mut waves, mut excess, mut sectors, mut us) = (0.0, 0.0, 0.0, 0.0, 0.0);
            let (mut targets, mut divergent) = (0.0, 0.0);
            let mut bounds: BTreeMap<&str, usize> = BTreeMap::new();
            let mut findings = 0;
            for l in &ls {
                let wk = work(l, None);
                w += wk.warp_instructions as f64;
                sectors += wk.global_sectors as f64;
                waves += shared_wavefronts(l);
                excess += metric(l, "warpscope__shared_ld_excess_wavefronts.sum")
                    + metric(l, "warpscope__shared_st_excess_wavefronts.sum");
                targets += metric(l, "smsp__sass_branch_targets.sum");
                divergent += metric(l, "smsp__sass_branch_targets_threads_divergent.sum");
                let t = launch_time(&Rates::h100(), &wk);
                us += t.total_us;
                *bounds.entry(t.bound).or_default() += 1;
                findings += l.findings.len();
            }
            let bound = bounds.iter().max_by_key(|(_, n)| **n).map_or("-", |(b, _)| *b);
            vec![
                k.to_string(),
                ls.len().to_string(),
                fmt_value(w),
                fmt_value(waves),
                fmt_value((waves - excess).max(0.0)),
                fmt_value(excess),
                if targets > 0.0 {
                    format!("{:.1}", 100.0 * (targets - divergent) / targets)
                } else {
                    "-".into()
                },
                fmt_value(sectors),
                format!("{us:.2}"),
                bound.to_string(),
                findings.to_string(),
            ]
        })
        .collect();
    (headers, rows)
}

fn op(side: &str) -> Op {
    if side == "store" { Op::Store } else { Op::Load }
}

fn lanes(v: &[Option<u32>]) -> [Option<u32>; 32] {
    std::array::from_fn(|i| v.get(i).copied().flatten())
}

/// The bank picture of a request; `None` (with a note) when the model refuses it.
fn picture(
    arch: &Arch,
    width: u8,
    side: &str,
    l: &[Option<u32>],
    notes: &mut Vec<String>,
    what: &str,
) -> Option<Breakdown> {
    match bank::breakdown(
        arch,
        &bank::Config::default(),
        &Request::new(width, op(side), &lanes(l)),
    ) {
        Ok(b) => Some(b),
        Err(e) => {
            notes.push(format!("{what}: no bank picture ({e})"));
            None
        }
    }
}

/// The worst request of each conflicting shared-memory line of `kernel` over its launches, worst
/// line first (at most `max`), as the kernel page's bank pictures.
pub fn conflicts(e: &Export<'_>, kernel: &str, max: usize, notes: &mut Vec<String>) -> Vec<Conflict> {
    let Ok(arch) = Arch::parse(e.arch) else {
        notes.push(format!("no bank pictures: unknown architecture {}", e.arch));
        return Vec::new();
    };
    // per (file, line, side): the sums and the worst request recorded
    type Entry<'a> = ([u64; 3], Option<&'a SharedRequest>);
    let mut lines: BTreeMap<(String, u32, String), Entry<'_>> = BTreeMap::new();
    for l in e.launches.iter().filter(|l| l.kernel == kernel) {
        for s in l.shared_lines {
            let en = lines
                .entry((s.file.clone(), s.line, s.side.clone()))
                .or_insert(([0; 3], None));
            en.0[0] += s.instructions;
            en.0[1] += s.wavefronts;
            en.0[2] += s.ideal_wavefronts;
            if let Some(w) = &s.worst
                && en.1.is_none_or(|had| w.wavefronts > had.wavefronts)
            {
                en.1 = Some(w);
            }
        }
    }
    let mut found: Vec<_> = lines
        .into_iter()
        .filter_map(|(k, (c, w))| w.map(|w| (k, c, w)))
        .collect();
    found.sort_by_key(|(k, c, _)| (std::cmp::Reverse(c[1] - c[2].min(c[1])), k.1));
    found
        .into_iter()
        .take(max)
        .filter_map(|((file, line, side), c, w)| {
            let place = if file.is_empty() {
                format!("PTX line {line}")
            } else {
                format!("{file}:{line}")
            };
            let b = picture(arch, w.width, &side, &w.lanes, notes, &place)?;
            let per_arch = crate::report_page::WHAT_IF_ARCHS
                .iter()
                .filter_map(|n| {
                    let ar = Arch::parse(n).ok()?;
                    let req = Request::new(w.width, op(&side), &lanes(&w.lanes));
                    let c = bank::wavefronts(ar, &bank::Config::default(), &req).ok()?;
                    Some(ArchRow {
                        arch: n.to_string(),
                        wavefronts: c.wavefronts,
                        ideal: c.ideal,
                    })
                })
                .collect();
            Some(Conflict {
                title: format!("{place}: {} ({} B per lane, {side})", w.ptx, w.width),
                executions: c[0],
                wavefronts: c[1],
                ideal: c[2],
                breakdown: b,
                per_arch,
            })
        })
        .collect()
}

/// The fix's suggestions with their worst request before and after, and the advised launch's
/// modelled time before and after each change.
pub fn fix_views(
    e: &Export<'_>,
    l: &LaunchOut<'_>,
    fixes: &[FixSuggestion],
    notes: &mut Vec<String>,
) -> Vec<FixView> {
    let Ok(arch) = Arch::parse(e.arch) else {
        return Vec::new();
    };
    let before_us = modelled(l).total_us;
    fixes
        .iter()
        .filter_map(|s| {
            let Some(q) = &s.request else {
                notes.push(format!("{} {}: no before/after picture (no plain ld/st of the array recorded)", s.array, s.kind));
                return None;
            };
            let what = format!("{} {}", s.array, s.kind);
            let before = picture(arch, q.width, &q.side, &q.before, notes, &what)?;
            let after = picture(arch, q.width, &q.side, &q.after, notes, &what)?;
            let shared = shared_wavefronts(l) - s.wavefronts_before as f64 + s.wavefronts_after as f64;
            let after_us = launch_time(&Rates::h100(), &work(l, Some(shared.max(0.0)))).total_us;
            Some(FixView {
                title: format!(
                    "{}: {}{}",
                    s.array,
                    s.kind,
                    if s.recommended { " (recommended)" } else { " (alternative)" }
                ),
                summary: format!(
                    "{}: the array's accesses take {} wavefronts instead of {} (ideal {}), for {} more bytes of shared memory per block. Modelled time of launch {}: {before_us:.2} µs before, {after_us:.2} µs after.",
                    s.change, s.wavefronts_after, s.wavefronts_before, s.ideal, s.extra_shared_bytes, l.id
                ),
                edit: s.edit.clone(),
                request: q.what.clone(),
                before,
                after,
            })
        })
        .collect()
}
