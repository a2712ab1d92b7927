//! The notes under `warpscope run`'s tables: how the program ended, what was cut short or
//! interrupted (those also said on stderr as they are found), and which kernels' counters are
//! estimates and why.

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;

use warpscope_cudart::names::brief;
use warpscope_cudart::{LaunchRecord, Notice};
use warpscope_model::arch::Arch;

use crate::run_export::{Interrupted, UnfinishedLaunch};

/// What the notes are about: the program's run and its records.
pub struct RunFacts<'a> {
    /// The program run.
    pub program: &'a Path,
    /// How it ended.
    pub status: ExitStatus,
    /// `--measure` was skipped because the run was interrupted.
    pub measure_skipped: bool,
    /// The last launch record was cut off as the program ended.
    pub cut_off: bool,
    /// The signal that interrupted the run, if one did.
    pub interrupted: Option<&'a Interrupted>,
    /// The launch being emulated when the program ended, if it ended inside one.
    pub unfinished: Option<&'a UnfinishedLaunch>,
    /// The runtime's notices.
    pub notices: &'a [Notice],
    /// The program's reads of memory launches cut short left incomplete.
    pub reads: &'a BTreeMap<(u64, &'a str), (u64, u64, u64)>,
    /// `--budget`, seconds per launch.
    pub budget: Option<f64>,
    /// The launch records.
    pub recs: &'a [LaunchRecord],
    /// The architecture predicted for.
    pub arch: &'a Arch,
}

/// The notes, in the order the table shows them; the lines about an interrupted or cut-short run
/// are printed on stderr as well.
pub fn notes(f: &RunFacts<'_>) -> Vec<String> {
    let RunFacts {
        program,
        status,
        measure_skipped,
        cut_off,
        interrupted,
        unfinished,
        notices,
        reads,
        budget,
        recs,
        arch,
    } = *f;
    let mut notes = Vec::new();
    match (status.code(), status.signal()) {
        (Some(c), _) => notes.push(format!("{} exited with status {c}", program.display())),
        (None, Some(s)) => notes.push(format!("{} was ended by signal {s}", program.display())),
        _ => {}
    }
    if measure_skipped {
        notes.push(
            "the run was interrupted by a signal: the program was not run on the GPU (--measure)".into(),
        );
    }
    if cut_off {
        notes.push("the last launch record was cut off as the program ended, and is left out".into());
    }
    let mut said = Vec::new();
    if let Some(i) = interrupted {
        said.push(format!(
            "the run was interrupted by signal {} (Ctrl-C, or a signal sent to warpscope): what follows are the {} launches recorded before it",
            i.signal,
            recs.len()
        ));
    }
    if let Some(u) = unfinished {
        said.push(format!(
            "the program ended during launch {} {} ({} of {} blocks done after {:.1} s): that launch has no record",
            u.launch, u.kernel, u.blocks_done, u.blocks, u.seconds
        ));
    }
    let cut = warpscope_cudart::records::launches_cut(notices);
    if !cut.is_empty() {
        const LISTED: usize = 8;
        let mut list: Vec<String> = cut
            .iter()
            .take(LISTED)
            .map(|(l, k, r, b)| format!("launch {l} {k} ran {r} of {b} blocks"))
            .collect();
        if cut.len() > LISTED {
            list.push(format!("{} more", cut.len() - LISTED));
        }
        let (n, them) = match cut.len() {
            1 => ("1 launch".to_string(), "its"),
            n => (format!("{n} launches"), "their"),
        };
        said.push(format!(
            "{n} did not run all {them} blocks (--budget {} s: no block starts after that): {}; {them} counters are estimates scaled from the blocks that ran (the first in block order), and the program's results from {} are incomplete",
            budget.unwrap_or_default(),
            list.join(", "),
            if cut.len() == 1 { "it" } else { "them" }
        ));
    }
    if !reads.is_empty() {
        let mut from: Vec<u64> = reads.keys().map(|(l, _)| *l).collect();
        from.dedup();
        let count = reads.values().map(|v| v.0).sum::<u64>();
        said.push(format!(
            "the program read memory that launch{} {} left incomplete ({count} read{}): its results are incomplete (findings `incomplete_read`)",
            if from.len() == 1 { "" } else { "es" },
            from.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            if count == 1 { "" } else { "s" }
        ));
    }
    for line in &said {
        eprintln!("warpscope: {line}");
    }
    notes.extend(said);
    if recs.iter().any(|r| r.widths.starts_with("widths are PTX-level")) {
        notes.push("some kernels' shared-memory widths are PTX-level (no nvdisasm or no machine code): fused accesses may differ".into());
    }
    notes.push(format!(
        "counters are predicted for {} by emulation; achieved_occupancy and sm__maximum_warps_per_active_cycle_pct are the theoretical occupancy; event times are modelled",
        arch.name
    ));
    notes.push(warpscope_measure::basis::line(arch));
    // the kernels (sorted, once each) of the launches whose metric `key` satisfies `pred`
    let kernels_where = |key: &str, pred: fn(f64) -> bool| -> Vec<&str> {
        let mut v: Vec<&str> = recs
            .iter()
            .filter(|r| r.analysis.metrics.get(key).is_some_and(|x| pred(*x)))
            .map(|r| r.kernel.as_str())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let printing = kernels_where("warpscope__device_printf_calls", |_| true);
    if !printing.is_empty() {
        notes.push(format!(
            "{} call device printf: the global columns include the printf implementation's own loads and stores, which ncu counts, by the rule measured on the H100 (calibration/printf/; lanes that differ in their argument count or in the record's 256-byte steps make them estimates); its stores are the H100's, an H200 counts 3 store requests and 3 sectors fewer per warp-level call (`warpscope__device_printf_warp_calls`), so they are estimates and the loads alone stay exact (`warpscope__global_load_counters_exact`)",
            printing.join(", ")
        ));
    }
    let spinning = kernels_where("warpscope__spin_loop", |v| v == 1.0);
    if !spinning.is_empty() {
        notes.push(format!(
            "{} wait in a loop on an ld.acquire/ld.relaxed for another thread's store (a grid barrier, a flag), on other threads' atomics (an atomicCAS retry) or on a clock: the GPU's timing decides how often that loop runs, so their branch and global counters are estimates (the shared counters too where the loop may touch shared memory)",
            spinning.iter().map(|k| brief(k)).collect::<Vec<_>>().join(", ")
        ));
    }
    let exchanging = kernels_where("warpscope__exchange_branches", |v| v == 1.0);
    if !exchanging.is_empty() {
        notes.push(format!(
            "{} branch on what a global atomicExch or atomicCAS handed back (an eviction chain, a claim): which thread finds which old value depends on the order in which the GPU ran the atomics, so their branch counters are estimates",
            exchanging.iter().map(|k| brief(k)).collect::<Vec<_>>().join(", ")
        ));
    }
    let ordered: Vec<&LaunchRecord> = recs
        .iter()
        .filter(|r| {
            r.analysis
                .metrics
                .contains_key("warpscope__order_dependent_input")
        })
        .collect();
    if !ordered.is_empty() {
        let mut from: Vec<String> = ordered
            .iter()
            .filter_map(|r| r.analysis.metrics.get("warpscope__order_dependent_input"))
            .map(|o| format!("launch {o}"))
            .collect();
        from.dedup();
        let mut kernels: Vec<String> = ordered.iter().map(|r| brief(&r.kernel)).collect();
        kernels.sort_unstable();
        kernels.dedup();
        notes.push(format!(
            "{} launches of {} read device memory whose contents depend on the order in which the GPU ran atomics ({} stored at slots or values an atomic handed out, as a bucket scatter does; `warpscope__order_dependent_input`): the GPU's data there differs from run to run and from the emulation's, so their branch, shared and global counters are estimates",
            ordered.len(),
            kernels.join(", "),
            from.join(", ")
        ));
    }
    let mut float_sums: Vec<String> = recs
        .iter()
        .filter_map(|r| {
            r.analysis
                .float_sum_order
                .as_deref()
                .map(|w| format!("{} ({w})", brief(&r.kernel)))
        })
        .collect();
    float_sums.sort_unstable();
    float_sums.dedup();
    if !float_sums.is_empty() {
        notes.push(format!(
            "branch and global counters are estimates for {}: a value computed from floating-point sums made by atomicAdd (their last bits depend on the order the GPU ran the adds, which no two runs repeat) decides a branch, an address or an integer there, so the GPU may go another way (`warpscope__float_sum_order`: the launch that made the sums)",
            float_sums.join(", ")
        ));
    }
    let mut trilinear: Vec<String> = recs
        .iter()
        .filter(|r| r.analysis.trilinear_filtering.is_some())
        .map(|r| brief(&r.kernel))
        .collect();
    trilinear.sort_unstable();
    trilinear.dedup();
    if !trilinear.is_empty() {
        notes.push(format!(
            "branch and global counters are estimates for {}: they fetch from a 3-D texture with linear filtering, whose trilinear weights the emulation rounds as the H200 does on all 8,192 samples measured on one 2x2x2 array under clamp addressing (calibration/run/bench15/tex3probe.cu), other sizes and address modes not measured (`warpscope__trilinear_filtering`; calibration/run/bench15/volray.cu, whose image equals the H200's bit for bit, counts the H200's branch targets)",
            trilinear.join(", ")
        ));
    }
    // kernels whose `key` label is 0, the spinning ones left out (their own note covers them), the
    // launches on order-dependent data (theirs too), and launches cut short (the note on
    // `--budget` covers them)
    let labelled_estimate = |key: &str| -> Vec<&str> {
        let mut v: Vec<&str> = recs
            .iter()
            .filter(|r| r.analysis.sampling.is_none())
            .filter(|r| {
                !r.analysis
                    .metrics
                    .contains_key("warpscope__order_dependent_input")
            })
            .filter(|r| r.analysis.float_sum_order.is_none())
            .filter(|r| r.analysis.trilinear_filtering.is_none())
            .filter(|r| r.analysis.metrics.get(key) == Some(&0.0))
            // the note on never-stored local memory says why its counters are estimates (the
            // branch note keeps the launches whose machine code was not followed)
            .filter(|r| {
                (key == "warpscope__branch_counters_exact" && r.analysis.machine_flow_stop.is_some())
                    || r.analysis.undefined_local_read.is_none()
            })
            .map(|r| r.kernel.as_str())
            .filter(|k| !spinning.contains(k))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let estimated = labelled_estimate("warpscope__branch_counters_exact");
    if !estimated.is_empty() {
        // each kernel with the first reason its machine code's control flow could not be followed
        let why: Vec<String> = estimated
            .iter()
            .map(|k| {
                match recs
                    .iter()
                    .filter(|r| r.kernel == *k)
                    .find_map(|r| r.analysis.machine_flow_stop.as_deref())
                {
                    Some(w) => format!("{} (machine code not followed at {w})", brief(k)),
                    None => brief(k),
                }
            })
            .collect();
        notes.push(format!(
            "branch counters are estimates for {}: their machine code has branches that do not match the PTX's line for line, and following the machine code's own control flow on the launch stopped at a value it cannot know (shared memory, an atomic's result, a float it does not compute), or there was no machine code to read, so those lines are counted on the PTX",
            why.join(", ")
        ));
    }

    let launched: Vec<&LaunchRecord> = recs.iter().filter(|r| r.parent.is_some()).collect();
    if !launched.is_empty() {
        notes.push(format!(
            "{} launches were made by kernels (dynamic parallelism; `launched by` names the grid, block and thread): each ran after the grid that launched it, as a launch of its own with its own counters; Nsight Compute profiles only the host's launches and counts in each the work of every grid it launched and the device runtime's own, so those launches' counters are predictions it cannot check, and a host launch's `with_children` sums in the export are what its row compares with (shared-memory sums equal on the H200; branch and global counters of kernels that launch are estimates: the device runtime's own branches, loads and stores are not modelled; calibration/run/h200/dp_*)",
            launched.len()
        ));
    }
    // kernels whose global counters are estimates for device printf's stores alone (the note on
    // printf says why) are not listed here
    let printf_stores_only = |k: &str| {
        recs.iter().filter(|r| r.kernel == k).all(|r| {
            let m = &r.analysis.metrics;
            m.get("warpscope__global_counters_exact") != Some(&0.0)
                || m.get("warpscope__global_load_counters_exact") == Some(&1.0)
        })
    };
    let global_estimated: Vec<String> = labelled_estimate("warpscope__global_counters_exact")
        .into_iter()
        .filter(|k| !printf_stores_only(k))
        .map(|k| {
            match recs
                .iter()
                .filter(|r| r.kernel == k)
                .find_map(|r| r.analysis.global_flow_stop.as_deref())
            {
                Some(w) => format!("{} (machine code's accesses not counted: {w})", brief(k)),
                None => brief(k),
            }
        })
        .collect();
    if !global_estimated.is_empty() {
        notes.push(format!(
            "global-memory counters are estimates for {}: ptxas moved, merged or removed some of their global loads or stores (or copies them asynchronously) and the machine code's own accesses could not be followed on the launch, so the PTX's accesses are counted; or a device printf call is outside its measured rule",
            global_estimated.join(", ")
        ));
    }

    // launches whose machine code stopped on local bytes the thread never stored
    let mut undefined: Vec<String> = recs
        .iter()
        .filter_map(|r| {
            r.analysis
                .undefined_local_read
                .as_deref()
                .map(|w| format!("{} (at {w})", brief(&r.kernel)))
        })
        .collect();
    undefined.dedup();
    if !undefined.is_empty() {
        notes.push(format!(
            "branch, shared- and global-memory counters are estimates for {}: a branch or address depends, or may depend, on local memory the thread read without having stored it, whose value on the GPU is whatever was left there; the counters follow the emulation's value (zero)",
            undefined.join(", ")
        ));
    }

    let mut retrying: Vec<String> = recs
        .iter()
        .filter_map(|r| {
            r.analysis
                .shared_retry_loop
                .as_deref()
                .map(|w| format!("{} (at {w})", brief(&r.kernel)))
        })
        .collect();
    retrying.sort_unstable();
    retrying.dedup();
    if !retrying.is_empty() {
        notes.push(format!(
            "shared-memory counters are estimates for {}: ptxas made a shared atomic there a compare-and-swap retry loop (sm_90's atomicAdd on a shared float or double, and the 64-bit shared atomics it emulates: a load, the new value, ATOMS.CAS or ATOMS.CAST.SPIN, a branch back while the swap failed), which runs once more each time another lane's update got in first, as often as contention on the GPU makes it; they count each atomic once",
            retrying.join(", ")
        ));
    }
    // kernels whose every shared estimate is a retry loop's have their note above
    let mut shared_estimated: Vec<_> = labelled_estimate("warpscope__shared_counters_exact")
        .into_iter()
        .filter(|k| {
            recs.iter().any(|r| {
                r.kernel == *k
                    && r.analysis.shared_retry_loop.is_none()
                    && r.analysis.metrics.get("warpscope__shared_counters_exact") == Some(&0.0)
            })
        })
        .collect();
    // a spinning kernel's shared label comes from its lines too where they did not match (its
    // own note speaks of the shared counters only where the loop may touch shared memory)
    for r in recs {
        if spinning.contains(&r.kernel.as_str())
            && r.analysis.shared_unmatched.is_some()
            && r.analysis.metrics.get("warpscope__shared_counters_exact") == Some(&0.0)
            && !shared_estimated.contains(&r.kernel.as_str())
        {
            shared_estimated.push(r.kernel.as_str());
        }
    }
    if !shared_estimated.is_empty() {
        // each kernel with the lines that did not match, where the analysis named them
        let named: Vec<String> = shared_estimated
            .iter()
            .map(|k| {
                match recs
                    .iter()
                    .find(|r| r.kernel == *k && r.analysis.shared_unmatched.is_some())
                    .and_then(|r| r.analysis.shared_unmatched.as_deref())
                {
                    Some(lines) => format!("{} ({lines})", brief(k)),
                    None => brief(k).to_string(),
                }
            })
            .collect();
        notes.push(format!(
            "shared-memory counters are estimates for {}: a source line's shared loads or stores do not match the machine code's (ptxas removed, merged or added accesses there), so that line is counted as the PTX has it",
            named.join(", ")
        ));
    }
    notes
}
