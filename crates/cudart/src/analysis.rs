//! One kernel launch, emulated once against the program's memory with every analysis attached
//! (the launch has side effects, so it cannot be run again per analysis): shared-memory banks,
//! branch divergence, global requests and sectors, and with `check` the hazard checker.
//!
//! [`analyse_launch`] is the one entry point; the runtime calls nothing else of the analyses. It
//! emulates through the driver's front door (`warpscope_driver::analyze_launch_in`, against the
//! program's persistent global space) and turns the results into Nsight Compute metrics.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warpscope_analysis::banks::{MatrixKind, Side};
use warpscope_analysis::divergence::BranchModel;
use warpscope_analysis::hazards::{FindingKind, Loc, Severity};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_driver::{RunOptions, Sections, Widths};
use warpscope_emu::mem::Global;
use warpscope_emu::{EmuError, FaultKind, Launch, Limits, Program};
use warpscope_model::arch::Arch;

/// What a kernel needs for its launches' analyses, built once per kernel.
#[derive(Clone)]
pub struct KernelAnalysis {
    /// The architecture counted for.
    pub arch: &'static Arch,
    /// PTX accesses vs the machine code's (fused widths).
    pub recon: Arc<Reconciliation>,
    /// Branches as Nsight Compute counts them.
    pub branches: Arc<BranchModel>,
    /// Registers per thread (from the cubin), when known.
    pub registers: Option<u32>,
    /// Hardware barriers ptxas reserved (from the cubin, `fatbin::cubin_barriers`), when known.
    pub barriers: Option<u32>,
    /// Branches (by pc) whose target only returns: optimised machine code makes them `EXIT`, which
    /// Nsight Compute does not count as a branch. Empty for `-G` builds (their machine code keeps
    /// the branch).
    pub exit_branches: Arc<std::collections::HashSet<u32>>,
    /// The PTX branches the optimised machine code keeps, when its machine code was read (not for
    /// `-G` builds, whose machine code keeps every branch).
    pub machine_branches: Option<Arc<warpscope_analysis::divergence::MachineMatch>>,
    /// The machine code decoded for following its control flow on a launch's values
    /// ([`warpscope_analysis::machine_flow`]): the branch counters where lines do not match.
    pub machine_flow: Option<Arc<warpscope_analysis::machine_flow::MachineFlow>>,
    /// Whether the machine code keeps the PTX's global loads and stores line for line, inside and
    /// outside loops (`reconcile::global_lines_unmatched`): the global counters are then exact.
    pub global_exact: bool,
    /// The machine code joins diverged lanes earlier than the PTX's immediate post-dominators
    /// (`divergence::early_joins`) and has shared accesses: the shared counters are the machine
    /// code's own, followed on the launch, or estimates (the global counters too, `global_exact`).
    pub early_join: bool,
    /// The machine code has a `YIELD` (ptxas's mark of a loop over volatile loads or one that may
    /// wait on other threads): on the H200 the lanes leaving such a loop on different iterations
    /// run the code after it apart, each group alone, up to a warp sync or the end
    /// (calibration/yield/README.md), where the PTX emulation joins them at the loop's
    /// post-dominator. The machine code's own branches, global and shared accesses are then
    /// followed on every launch, and the PTX's counts are estimates where the flow stops.
    pub yield_loops: bool,
    /// The kernel waits in a loop on an `ld.acquire`/`ld.relaxed` for another thread's store (a
    /// spin loop, as cooperative groups' multi-warp tiles do) or on a clock (`%clock`, `%clock64`,
    /// `%globaltimer`: cuda-samples' `clock_block`): the loop runs as long as the GPU's timing
    /// makes it, so every counter of its launches is an estimate.
    pub spin_loop: bool,
    /// A branch depends on what a global exchange or compare-and-swap handed back
    /// (`reconcile::branches_on_exchanges`): the branches taken depend on the order in which the
    /// GPU ran the atomics, so the branch counters are estimates.
    pub exchange_branches: bool,
    /// A spin loop may access shared memory (its run count moves the shared counters too).
    pub spin_shared: bool,
    /// Where `spin_loop` holds only because a loop's global loads may read what its global
    /// atomics write: the pairs of parameter words (index, byte offset) of those loads and atomics
    /// (`reconcile::spin_loop_unless_apart`). A launch whose arguments put each pair in different
    /// allocations has no spin loop ([`spin_loop_for`]).
    pub spin_unless_apart: Option<Arc<warpscope_analysis::reconcile::ApartPairs>>,
    /// Source lines (file base name, line) of the shared compare-and-swaps the machine code
    /// retries in a loop ([`warpscope_toolchain::sass::SassKernel::shared_cas_retry_loops`]:
    /// sm_90's `atomicAdd` on a shared float): each retry is one more `LDS` and `ATOMS`, as many as
    /// contention on the GPU makes (calibration/run/bench14 `kmeansf`), so the shared counters of
    /// a launch that runs one are estimates.
    pub shared_cas_retry: Arc<Vec<(String, u32)>>,
    /// A spin loop may load or store global memory (its run count moves the global requests and
    /// sectors too; an `atomicCAS` retry loop's atomics do not).
    pub spin_global: bool,
    /// The kernel calls the device runtime (dynamic parallelism): its `CALL`s run the runtime's
    /// own code, whose branches, loads and stores ncu counts in the launch (calibration/run/h200/
    /// dp_*.ncu.csv) and which is not modelled, so its branch and global counters are estimates.
    pub device_runtime: bool,
    /// The kernel's machine code calls functions ptxas kept apart, beyond the driver's own
    /// (`vprintf`, `__assertfail`, the device runtime): `(linked, any)`: `linked`, a `CALL.ABS`
    /// into a function of another translation unit that the device link put in (`-rdc=true`),
    /// which the machine-code flow steps over; `any`, a `CALL` of either kind, which a debug
    /// build's (`-G`) branch count does not follow. ncu counts the callees' branches in the
    /// launch ([`calls_beyond_driver`]).
    pub separate_calls: (bool, bool),
    /// Of the calls `separate_calls` names, the callees whose machine code the flow cannot follow
    /// into (not in the cubin, and not the driver's: `"?"` for a call without a named target);
    /// empty when the flow's code has every callee laid out after the kernel
    /// (`warpscope_toolchain::sass::with_callees`).
    pub calls_not_followed: Arc<Vec<String>>,
    /// The flow's code has the callees of the kernel's separate calls laid out after it and
    /// follows every one: its branch counters are the flow's, on every launch.
    pub follow_calls: bool,
    /// The kernel loads or stores wmma fragments in a form whose machine accesses are not
    /// measured (16-bit elements from global memory; `bf16` A/B from shared memory, which ptxas
    /// loads with `LDS`, not `LDSM`: the H100 counted half the accesses warpscope gives element by
    /// element): `(shared, global)` counters touched by them are estimates.
    pub unmeasured_wmma: (bool, bool),
    /// The `wgmma.commit_group`s (PTX pcs) to which ptxas gave an HGMMA of its own, read off the
    /// machine code ([`warpscope_analysis::reconcile::ptxas_commit_hgmma`]); `None` without machine
    /// code or when they cannot be told (then ncu's gmma instruction and byte counts are not given).
    pub ptxas_hgmma: Option<Arc<Vec<u32>>>,
}

/// Whether kernel `k`'s machine code calls functions beyond the `driver_calls` calls into code
/// the driver links in (one `CALL.ABS` per device printf, assert or device-runtime call of the
/// PTX): `(linked, any)`, a `CALL.ABS` beyond them (a function of another translation unit,
/// `-rdc=true`: calibration/run/bench13 `rdc`, whose `digits` launch the H200 counted 367,638
/// branch targets for against the kernel's own 8,192), and any `CALL` beyond them (`-G` keeps
/// every function apart: bench13 `dbg`'s `numbers`, 3,757,688 against 3,123,968 counted
/// without its callees; `blockScan`, no call, equal).
pub fn calls_beyond_driver(k: &warpscope_toolchain::sass::SassKernel, driver_calls: usize) -> (bool, bool) {
    let abs = k
        .branches
        .iter()
        .filter(|b| b.opcode.starts_with("CALL.ABS"))
        .count();
    let all = k.branches.iter().filter(|b| b.opcode.starts_with("CALL")).count();
    (abs > driver_calls, all > driver_calls)
}

/// Whether a callee missing from the cubin is code the driver links in (device printf, assert,
/// `malloc`/`free`, the device runtime's `cuda*` functions), which the flow steps over.
fn driver_function(name: &str) -> bool {
    matches!(name, "vprintf" | "__assertfail" | "malloc" | "free") || name.starts_with("cuda")
}

/// What a kernel's launches need, built once per kernel from its lowered `program`, its `ptx`
/// text and its machine code `sass` (nvdisasm's, or why there is none); `registers` from the
/// cubin. Also returns where the widths came from, in words.
pub fn kernel_analysis(
    program: &Program,
    ptx: &str,
    name: &str,
    sass: &Result<Vec<warpscope_toolchain::sass::SassKernel>, String>,
    registers: Option<u32>,
    arch: &'static Arch,
) -> (KernelAnalysis, String) {
    // A kernel that calls device printf: the driver links `vprintf` in and the launch uses at
    // least 32 registers per thread (H100: two kernels of 24 in the cubin launch with 32,
    // calibration/run/h100/book.ncu.csv).
    // A kernel with a device `assert` calls `__assertfail` the same way (`CALL.ABS.NOINC` into
    // code the driver links in; 24 registers in the cubin of calibration/run/assert.cu):
    // assumed to launch with at least 32 too, until an H100 run of it says otherwise.
    // A kernel that calls the device runtime (dynamic parallelism) too: 24 in the cubin, 32 under
    // ncu on an H200 (calibration/run/h200/dp_multi.ncu.csv).
    let calls_printf = program.kernel(name).is_some_and(|k| {
        program.ops[k.entry as usize..k.end as usize].iter().any(|op| {
            matches!(
                op.inst,
                warpscope_ptx::inst::Inst::Printf { .. }
                    | warpscope_ptx::inst::Inst::AssertFail { .. }
                    | warpscope_ptx::inst::Inst::DevRt { .. }
            )
        })
    });
    let registers = registers.map(|r| if calls_printf { r.max(32) } else { r });
    let (recon, widths) = match sass {
        Ok(ks) => match ks.iter().find(|k| k.name == name) {
            Some(k) => (
                warpscope_analysis::reconcile::Reconciliation::build(
                    program,
                    name,
                    &warpscope_analysis::reconcile::machine_accesses(k),
                )
                .with_atomic_forms(program, name, k)
                .with_sunk_loads(program, name, k)
                .with_copy_predicates(program, name, k),
                format!("machine code: the program's sm_{} cubin (nvdisasm)", arch.cc()),
            ),
            None => (
                warpscope_analysis::reconcile::Reconciliation::ptx_level(),
                "widths are PTX-level: the kernel is not in the machine code".into(),
            ),
        },
        Err(e) => (
            warpscope_analysis::reconcile::Reconciliation::ptx_level(),
            format!("widths are PTX-level: {e}"),
        ),
    };
    let debug = warpscope_analysis::divergence::is_debug_ptx(ptx);
    let exits = if debug {
        Default::default()
    } else {
        crate::analysis::exit_branches(program, ptx)
    };
    let machine_branches = match (sass, debug) {
        (Ok(ks), false) => ks
            .iter()
            .find(|k| k.name == name)
            .and_then(|k| warpscope_analysis::divergence::match_machine(program, name, &exits, k))
            .map(Arc::new),
        _ => None,
    };
    let global_unmatched = match sass {
        Ok(ks) => ks
            .iter()
            .find(|k| k.name == name)
            .and_then(|k| warpscope_analysis::reconcile::global_lines_unmatched(program, name, k)),
        _ => None,
    };
    // where ptxas moved, merged or removed global accesses, the machine code's own accesses
    // are followed on each launch and counted
    // and where a source line's shared loads or stores do not match the machine code's, the
    // machine code's own LDS and STS
    // and where ptxas joins lanes earlier than the PTX's immediate post-dominators
    // (`divergence::early_joins`), both: the PTX emulation repeats the code after such a join
    let early_join = machine_branches
        .as_ref()
        .is_some_and(|m| !m.early_joins.is_empty());
    // (shared accesses only where the machine code has some: a kernel without any counts none)
    let early_join_shared = early_join
        && sass
            .as_ref()
            .ok()
            .and_then(|ks| ks.iter().find(|k| k.name == name))
            .is_some_and(|k| !k.accesses.is_empty());
    // a YIELD: the lanes leaving its loop apart run what follows apart (`yield_loops`)
    let yield_loops = match sass {
        Ok(ks) => ks
            .iter()
            .find(|k| k.name == name)
            .is_some_and(warpscope_driver::yield_loops),
        Err(_) => false,
    };
    let yield_shared = yield_loops
        && sass
            .as_ref()
            .ok()
            .and_then(|ks| ks.iter().find(|k| k.name == name))
            .is_some_and(|k| !k.accesses.is_empty());
    // (the flow counts the shared accesses after a YIELD loop where it completes; where it stops,
    // the PTX's count keeps the label it had: a grid barrier's spin, cooperative groups'
    // `grid.sync()`, leaves no group apart)
    let shared_unmatched = !recon.unmatched_lines.is_empty() || early_join_shared || yield_shared;
    let driver_calls = program.kernel(name).map_or(0, |k| {
        program.ops[k.entry as usize..k.end as usize]
            .iter()
            .filter(|op| {
                matches!(
                    op.inst,
                    warpscope_ptx::inst::Inst::Printf { .. }
                        | warpscope_ptx::inst::Inst::AssertFail { .. }
                        | warpscope_ptx::inst::Inst::DevRt { .. }
                )
            })
            .count()
    });
    let separate_calls = match sass {
        Ok(ks) => ks
            .iter()
            .find(|k| k.name == name)
            .map_or((false, false), |k| calls_beyond_driver(k, driver_calls)),
        Err(_) => (false, false),
    };
    // a kernel calling functions ptxas kept apart: its machine code with theirs laid out after
    // it, which the flow follows into; the calls it cannot follow (a callee not in the cubin
    // and not the driver's)
    let linked = match sass {
        Ok(ks) if separate_calls.1 => warpscope_toolchain::sass::with_callees(ks, name),
        _ => None,
    };
    let calls_not_followed: Vec<String> = match &linked {
        Some(l) => l
            .unresolved
            .iter()
            .filter(|f| !driver_function(f))
            .cloned()
            .collect(),
        None if separate_calls.1 => vec!["?".into()],
        None => Vec::new(),
    };
    // the branch counters are the flow's: it follows every call into its callee (a debug
    // build's calls too, whose own branches are otherwise counted on the PTX)
    let follow_calls =
        calls_not_followed.is_empty() && linked.as_ref().is_some_and(|l| !l.callees.is_empty() || debug);
    let machine_flow = match (sass, debug) {
        (Ok(ks), false) => ks.iter().find(|k| k.name == name).map(|k| {
            Arc::new(warpscope_analysis::machine_flow::MachineFlow::counting(
                linked.as_ref().map_or(k, |l| &l.kernel),
                early_join || yield_loops || global_unmatched.as_ref().is_some_and(|u| !u.is_empty()),
                shared_unmatched.then_some(arch),
            ))
        }),
        // a debug build's branches are counted on the PTX, but its calls' only through the
        // machine code (the flow counts branches only: its memory counters stay the PTX's)
        (Ok(_), true) => linked
            .as_ref()
            .filter(|_| follow_calls)
            .map(|l| Arc::new(warpscope_analysis::machine_flow::MachineFlow::new(&l.kernel))),
        _ => None,
    };
    let ptxas_hgmma = match sass {
        Ok(ks) => ks
            .iter()
            .find(|k| k.name == name)
            .and_then(|k| warpscope_analysis::reconcile::ptxas_commit_hgmma(program, name, k))
            .map(Arc::new),
        _ => None,
    };
    let spin_loop = warpscope_analysis::reconcile::has_spin_loop(program, name);
    let device_runtime = program.kernel(name).is_some_and(|k| {
        program.ops[k.entry as usize..k.end as usize]
            .iter()
            .any(|op| matches!(op.inst, warpscope_ptx::inst::Inst::DevRt { .. }))
    });
    let shared_cas_retry: Vec<(String, u32)> = match sass {
        Ok(ks) => ks
            .iter()
            .find(|k| k.name == name)
            .map(|k| {
                k.shared_cas_retry_loops()
                    .iter()
                    .filter_map(|a| {
                        let file = a.file.as_deref().unwrap_or("");
                        Some((file.rsplit('/').next().unwrap_or("").to_string(), a.line?))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    };
    let ka = KernelAnalysis {
        shared_cas_retry: Arc::new(shared_cas_retry),
        follow_calls,
        calls_not_followed: Arc::new(calls_not_followed),
        ptxas_hgmma,
        spin_loop,
        exchange_branches: warpscope_analysis::reconcile::branches_on_exchanges(program, name),
        device_runtime,
        separate_calls,
        spin_shared: spin_loop && warpscope_analysis::reconcile::spin_loops_may_touch_shared(program, name),
        spin_unless_apart: warpscope_analysis::reconcile::spin_loop_unless_apart(program, name).map(Arc::new),
        spin_global: spin_loop && warpscope_analysis::reconcile::spin_loops_may_touch_global(program, name),
        unmeasured_wmma: warpscope_analysis::reconcile::unmeasured_wmma(program, name),
        early_join: early_join_shared,
        yield_loops,
        // (after a YIELD loop the flow's count replaces the PTX's where it completes; where it
        // stops, the PTX's keeps its label: a spin loop's `spin_global`, or a grid barrier's
        // acquire loop, calibration/run/bench5 `atom`, whose accesses the H200 counted as the PTX)
        global_exact: !early_join
            && global_unmatched.is_some_and(|u| u.is_empty())
            && !warpscope_analysis::reconcile::global_addresses_from_atomics(program, name)
            && !warpscope_analysis::reconcile::has_bypass_copies(program, name),
        machine_branches,
        machine_flow,
        exit_branches: Arc::new(exits),
        arch,
        recon: Arc::new(recon),
        branches: Arc::new(warpscope_analysis::divergence::BranchModel::from_program(
            program, debug,
        )),
        registers,
        barriers: None,
    };
    (ka, widths)
}

/// The branches of `program` whose target label is followed by `ret` or `exit` in `ptx`.
pub fn exit_branches(program: &Program, ptx: &str) -> std::collections::HashSet<u32> {
    let lines: Vec<&str> = ptx
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with(".loc") && !l.starts_with('}'))
        .collect();
    let mut labels = std::collections::HashSet::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(label) = l.strip_suffix(':')
            && lines
                .get(i + 1)
                .is_some_and(|n| n.starts_with("ret;") || n.starts_with("exit;"))
        {
            labels.insert(label.to_string());
        }
    }
    let mut out = std::collections::HashSet::new();
    for (pc, info) in program.info.iter().enumerate() {
        let words: Vec<&str> = info
            .text
            .split_whitespace()
            .filter(|w| !w.starts_with('@'))
            .collect();
        if words
            .first()
            .is_some_and(|w| *w == "bra" || w.starts_with("bra."))
            && let Some(target) = words.get(1)
            && labels.contains(target.trim_end_matches(';'))
        {
            out.insert(pc as u32);
        }
    }
    out
}

/// A finding of one launch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// `error` or `warning`.
    pub severity: String,
    /// `race`, `out_of_bounds`, `divergent_barrier`, ... (the hazard checker's kinds).
    pub kind: String,
    /// Source line, when known.
    pub line: Option<u32>,
    /// One line of explanation.
    pub message: String,
}

/// The result of one analysed launch.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LaunchAnalysis {
    /// Nsight Compute metric name (or nvprof name) → value.
    pub metrics: BTreeMap<String, f64>,
    /// Hazards and faults.
    pub findings: Vec<Finding>,
    /// The launch faulted (the runtime turns this into `cudaErrorIllegalAddress` & co).
    pub fault: Option<String>,
    /// The first fault's kind: `out_of_bounds`, `misaligned`, `instruction_limit`, `assert` or
    /// `other`.
    pub fault_kind: Option<String>,
    /// Warp instructions executed.
    pub warp_instructions: u64,
    /// Device `printf`s, in block order.
    #[serde(skip)]
    pub printf: Vec<warpscope_emu::printf::Printed>,
    /// Kernels the grid launched (dynamic parallelism), in the order the runtime runs them from.
    #[serde(skip)]
    pub device_launches: Vec<warpscope_emu::devlaunch::DeviceLaunch>,
    /// Failing device `assert`s, in block order (the runtime prints a GPU's line for each).
    #[serde(skip)]
    pub asserts: Vec<warpscope_emu::AssertFailure>,
    /// Shared-memory counters per source line (the `banks` section's line table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_lines: Vec<SharedLine>,
    /// Lines that diverged more here than in any earlier launch of the kernel
    /// ([`crate::line_pictures`]: bounded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divergence_lines: Vec<crate::line_pictures::LineDivergence>,
    /// The fix advisor's suggestions (with `warpscope run --fix`: on the kernel's first recorded
    /// launch that touches shared memory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixAdvice>,
    /// Why the machine code's control flow could not be followed on this launch (its branch
    /// counters are then the PTX's, labelled estimates), when it was tried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_flow_stop: Option<String>,
    /// Why the machine code's own global loads and stores could not be counted on this launch,
    /// when ptxas moved, merged or removed some of the PTX's (the global counters are then the
    /// PTX's, labelled estimates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_flow_stop: Option<String>,
    /// Where following the machine code stopped on a value read from local memory the thread
    /// never stored (`machine_flow::reads_undefined_local`): the GPU's value there is not
    /// defined, so the shared and global counters the PTX emulation made on its own (zero) are
    /// estimates too; or, the flow not stopping there, the PTX emulation's first local load of
    /// bytes the thread never stored (its line and PTX text), which makes the branch, shared and
    /// global counters estimates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undefined_local_read: Option<String>,
    /// The source line (`file:line`) of a shared compare-and-swap retry loop of the machine code
    /// ([`KernelAnalysis::shared_cas_retry`]) whose line ran shared accesses on this launch: the
    /// GPU runs the loop as often as contention makes it, so the shared counters are estimates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_retry_loop: Option<String>,
    /// The source lines (`file:line`) whose shared loads or stores did not match the machine
    /// code's (`Reconciliation::unmatched_lines`: ptxas removed, merged or added accesses there)
    /// when the machine code's own were not counted instead: they are counted as the PTX has
    /// them, so the shared counters are estimates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_unmatched: Option<String>,
    /// Where a value of floating-point sums made by atomics (this launch's or an earlier one's)
    /// decides a branch, an address or an integer, and which launch made them
    /// (`warpscope_analysis::float_order`): the GPU rounds those sums in the order it ran the
    /// atomics, so the branch and global counters (and shared, where the kernel uses shared
    /// memory) are estimates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_sum_order: Option<String>,
    /// Where the launch fetches from a 3-D texture with linear filtering
    /// (`warpscope_emu::tex`'s trilinear weights equal the H200's on all 8,192 measured samples of
    /// one 2x2x2 array under clamp addressing, calibration/run/bench15/tex3probe.cu; other sizes
    /// and address modes are not measured, and volray's branch counters still differ from the
    /// H200's with its image equal): its branch and global counters are estimates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trilinear_filtering: Option<String>,
    /// A plain launch whose blocks waited on each other through global memory (a grid barrier
    /// made by hand): which block waited first, and how the launch ran from there (interleaved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks_interleaved: Option<String>,
    /// The block that waited first ([`warpscope_emu::Counters::waited`]).
    #[serde(skip)]
    pub waited: Option<u32>,
    /// Thread instructions executed (each warp instruction's active lanes, summed; PTX
    /// instructions, in the blocks that ran).
    #[serde(default)]
    pub thread_instructions: u64,
    /// Set when not every block of the grid ran (`warpscope run --budget`): which ran, and how
    /// the counters were made from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
    /// The launch read memory that an earlier launch, cut short, left incomplete (that launch's
    /// index): its own results are incomplete too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete_input: Option<u64>,
    /// Under `--check`: which bytes of the program's device allocations were written once the
    /// launch ended (`warpscope_analysis::global_init`).
    #[serde(skip)]
    pub global_written: Option<warpscope_analysis::global_init::InitMap>,
    /// Under `--check`: the bytes of global memory the launch read, wrote and updated atomically
    /// (`warpscope_analysis::footprint`), for the check of launches on unordered streams.
    #[serde(skip)]
    pub global_footprint: Option<warpscope_analysis::footprint::Footprint>,
}

/// A launch whose blocks did not all run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// Blocks that ran: the first ones in block order.
    pub blocks_run: u64,
    /// Blocks in the grid.
    pub blocks: u64,
    /// Why the others did not run.
    pub reason: String,
    /// How the counters were made from the blocks that ran.
    pub counters: String,
}

/// How a launch is followed and bounded: the blocks done counted as they end (for a progress
/// bar), and the instant after which no block starts (`--budget`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LaunchWatch {
    /// The counter the emulator adds one to per block done.
    pub progress: Option<&'static std::sync::atomic::AtomicU64>,
    /// No block starts after this.
    pub deadline: Option<std::time::Instant>,
    /// The budget in seconds, for the labels.
    pub budget_s: Option<f64>,
}

impl LaunchWatch {
    fn reason(&self) -> String {
        match self.budget_s {
            Some(s) => format!("--budget {s} s: no block starts after that time"),
            None => "a deadline".into(),
        }
    }
}

/// Metrics that are sums over blocks (a cut launch's are scaled to the grid), by the kind of
/// counter they belong to. The shared-memory, LDSM/STSM/LDGSTS and atomic ones come scaled from the
/// driver's bank report.
const BRANCH_SUMS: &[&str] = &[
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_branch_targets_threads_uniform.sum",
    "divergent_branch",
];
const GLOBAL_SUMS: &[&str] = &[
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
];
const EXACT_FLAGS: &[&str] = &[
    "warpscope__branch_counters_exact",
    "warpscope__shared_counters_exact",
    "warpscope__global_counters_exact",
    "warpscope__global_load_counters_exact",
    "warpscope__matrix_counters_exact",
];

/// Shared-memory counters of one source line of one launch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedLine {
    /// Source file (base name), empty when the PTX has no line info (then `line` is the PTX line).
    pub file: String,
    /// Source line.
    pub line: u32,
    /// `load` or `store`.
    pub side: String,
    /// Warp-level requests (`smsp__sass_inst_executed_op_shared_*`).
    pub instructions: u64,
    /// Wavefronts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`).
    pub wavefronts: u64,
    /// Wavefronts the same requests need without bank conflicts.
    pub ideal_wavefronts: u64,
    /// The line's worst request, when it conflicts and is worse than any earlier launch of the
    /// kernel recorded for the line ([`crate::line_pictures`]: bounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst: Option<crate::line_pictures::SharedRequest>,
}

/// One suggestion of the fix advisor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixSuggestion {
    /// The shared array.
    pub array: String,
    /// `pad`, `swizzle` or `permute`.
    pub kind: String,
    /// What to change, in words.
    pub change: String,
    /// The array's wavefronts as written, and after the change.
    pub wavefronts_before: u64,
    /// After the change.
    pub wavefronts_after: u64,
    /// Conflict-free wavefronts of the same requests.
    pub ideal: u64,
    /// Extra shared memory per block, bytes.
    pub extra_shared_bytes: u32,
    /// The advisor's pick for this array.
    pub recommended: bool,
    /// The source edit, as text (`line N: before -> after`, or the index expression), when the
    /// program's CUDA source was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit: Option<String>,
    /// The array's worst request before and after the change (its bank pictures).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<crate::line_pictures::FixRequest>,
}

/// The fix advisor's answer for a kernel, or why there is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixAdvice {
    /// The launch (index in the program) the shared accesses were recorded on.
    pub launch: u64,
    /// Suggestions, the recommended one first per array; empty when no array conflicts.
    pub suggestions: Vec<FixSuggestion>,
    /// Notes, or why the advisor could not answer.
    pub notes: Vec<String>,
}

/// A shared array as the source names it: `_ZZ13setColReadColPiE4tile` is `tile`.
fn array_name(mangled: &str) -> String {
    cpp_demangle::Symbol::new(mangled)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .and_then(|d| d.rsplit("::").next().map(str::to_string))
        .unwrap_or_else(|| mangled.to_string())
}

/// Kernels (mangled names) that have had their fix advice: the advisor records one launch per
/// kernel, not every launch.
static ADVISED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Global-memory requests and sectors (counted by the driver's sink).
pub use warpscope_driver::GlobalCounts;

fn pct(num: u64, den: u64) -> f64 {
    if den == 0 {
        100.0
    } else {
        100.0 * num as f64 / den as f64
    }
}

fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 { 0.0 } else { num as f64 / den as f64 }
}

/// The source line of a pc, and a label for messages.
pub fn loc_of(program: &Program, pc: u32) -> Loc {
    // the user's line, for code inlined from a CUDA header (see `warpscope_driver::run::locate`)
    let line = warpscope_driver::run::user_frame(program, pc).map(|i| program.frames(pc)[i].line);
    Loc {
        line,
        label: match line {
            Some(l) => format!("line {l}"),
            None => format!("PTX line {}", program.inst_info(pc).ptx_line),
        },
    }
}

/// Whether a PTX instruction is a signed 32-bit `div` or `rem`.
fn signed_div_rem(text: &str) -> bool {
    let op = text
        .split_whitespace()
        .find(|w| !w.starts_with('@'))
        .unwrap_or("");
    let mut parts = op.split('.');
    matches!(parts.next(), Some("div" | "rem")) && parts.any(|p| p == "s32")
}

/// The name of a fault's kind in [`LaunchAnalysis::fault_kind`].
pub fn fault_kind(k: FaultKind) -> &'static str {
    match k {
        FaultKind::OutOfBounds { .. } => "out_of_bounds",
        FaultKind::Misaligned { .. } => "misaligned",
        FaultKind::InstructionLimit => "instruction_limit",
        FaultKind::Assert => "assert",
        FaultKind::BadCall => "bad_call",
        FaultKind::StackOverflow => "stack_overflow",
        FaultKind::NotResident { .. } => "not_resident",
        _ => "other",
    }
}

/// The line a GPU prints for a failing device `assert` (on the program's `stderr`):
/// `FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `MESSAGE` failed.`
pub fn assert_line(a: &warpscope_emu::AssertFailure) -> String {
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    format!(
        "{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.",
        s(&a.file),
        a.line,
        s(&a.function),
        a.block[0],
        a.block[1],
        a.block[2],
        a.thread[0],
        a.thread[1],
        a.thread[2],
        s(&a.message)
    )
}

fn block_linear(b: [u32; 3], grid: [u32; 3]) -> u32 {
    b[0] + grid[0] * (b[1] + grid[1] * b[2])
}

/// Emulates a launch that is not recorded (outside `--kernel-name`/`--launch-skip`/`--launch-count`)
/// for its side effects only: the driver's one emulation with no section attached.
pub fn run_unrecorded(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    global: &Global,
    arch: &'static Arch,
    watch: LaunchWatch,
) -> Result<LaunchAnalysis, EmuError> {
    let opts = RunOptions {
        limits: limits.clone(),
        progress: watch.progress,
        deadline: watch.deadline,
        ..RunOptions::default()
    };
    let widths = Widths {
        recon: Arc::new(Reconciliation::ptx_level()),
        note: String::new(),
        // the machine code's branches are matched once per kernel (`KernelAnalysis::machine_branches`)
        sass: None,
    };
    let r = warpscope_driver::analyze_launch_in(
        program,
        kernel,
        launch,
        global,
        &Sections::NONE,
        arch,
        &widths,
        &opts,
    )?;
    let mut a = LaunchAnalysis {
        warp_instructions: r.warp_insts,
        thread_instructions: r.thread_insts,
        printf: r.printf,
        device_launches: r.launches,
        asserts: r.asserts,
        waited: r.waited,
        sampling: r.stopped.then(|| Sampling {
            blocks_run: u64::from(r.blocks_emulated),
            blocks: r.blocks_in_grid,
            reason: watch.reason(),
            counters: "none: the launch was not recorded".into(),
        }),
        ..LaunchAnalysis::default()
    };
    if let Some(fl) = r.faults.first() {
        a.fault = Some(
            r.fault_messages
                .first()
                .cloned()
                .unwrap_or_else(|| fl.to_string()),
        );
        a.fault_kind = Some(fault_kind(fl.kind).into());
    }
    Ok(a)
}

/// Emulates one launch of `kernel` against `global` (the program's device memory) with the
/// analyses attached, and turns their counters into Nsight Compute metrics.
#[allow(clippy::too_many_arguments)]
pub fn analyse_launch(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    global: &Global,
    ka: &KernelAnalysis,
    check: bool,
    init: Option<Arc<warpscope_analysis::global_init::InitMap>>,
    fix: Option<u64>,
    watch: LaunchWatch,
) -> Result<LaunchAnalysis, EmuError> {
    let k = program
        .kernel(kernel)
        .ok_or_else(|| EmuError::NoKernel(kernel.into(), String::new()))?;
    // `fix`: the launch's index when the fix advisor is asked for; it records this launch unless
    // the kernel already has its advice.
    let advise = fix.filter(|_| !ADVISED.lock().is_ok_and(|a| a.contains(kernel)));
    let sections = Sections {
        banks: true,
        divergence: true,
        hazards: check,
        fix: advise.is_some(),
        ..Sections::NONE
    };
    // The machine code's control flow, where the PTX's branches do not match it line for line
    // (the driver runs it just before the blocks, on the memory the launch starts from).
    let mode = warpscope_driver::run::FlowMode::from_env();
    let always = mode == warpscope_driver::run::FlowMode::Always;
    let follow = match (&ka.machine_flow, &ka.machine_branches) {
        // calls into functions ptxas kept apart: only the flow counts the callees' branches
        (Some(flow), _) if ka.follow_calls && mode != warpscope_driver::run::FlowMode::Off => {
            Some(Arc::clone(flow))
        }
        (Some(flow), Some(m)) if mode.follows(m) => Some(Arc::clone(flow)),
        // the global counters come from the machine code's own accesses
        (Some(flow), _)
            if (flow.counts_globals() || flow.counts_shared())
                && mode != warpscope_driver::run::FlowMode::Off =>
        {
            Some(Arc::clone(flow))
        }
        _ => None,
    };
    let opts = RunOptions {
        limits: limits.clone(),
        global_sectors: true,
        branches: Some(Arc::clone(&ka.branches)),
        machine_flow: follow,
        fix: advise.map(|_| warpscope_driver::FixOptions {
            target: warpscope_analysis::fix::Target::new(ka.arch),
            registers: ka.registers,
            registers_from: "the program's cubin".into(),
            // for the suggestions' source edits
            source: crate::line_pictures::kernel_source(program, kernel),
            what_if: None,
        }),
        progress: watch.progress,
        deadline: watch.deadline,
        global_init: init,
        ..RunOptions::default()
    };
    let widths = Widths {
        recon: Arc::clone(&ka.recon),
        note: String::new(),
        // the machine code's branches are matched once per kernel (`KernelAnalysis::machine_branches`)
        sass: None,
    };
    let mut res = warpscope_driver::analyze_launch_in(
        program, kernel, launch, global, &sections, ka.arch, &widths, &opts,
    )?;
    // Both sections were asked for, so both are there.
    let banks = res.banks.take().map(|b| b.report).unwrap_or_default();
    let div = res.divergence.take().unwrap_or_default();
    let flow = res.machine_flow.take();
    // the machine code's own global accesses, where they were followed and counted
    let machine_global = match &flow {
        Some(Ok(c)) => c.global,
        _ => None,
    };
    // a kernel with a YIELD loop whose flow went through on words the launch itself changes
    // (another thread's stores): its counts, not the GPU's data but the machine code's flow (the
    // lanes leaving the loop apart, as the H200 runs them: calibration/yield/), are the estimate;
    // the PTX's joins those lanes at the loop's end (bench15 `compress`: 2,048 stores for the
    // H200's 14,077). The labels stay estimates.
    let unheld = res.machine_flow_unheld.take().filter(|_| ka.yield_loops);
    let glob = machine_global
        .or(unheld.as_ref().and_then(|c| c.global))
        .or(res.global)
        .unwrap_or_default();
    // the machine code's own shared loads and stores, where a line's did not match the PTX's
    let machine_shared = match &flow {
        Some(Ok(c)) => c.shared,
        _ => None,
    };
    // two groups of lanes inside one convergence barrier at once: each joins its own lanes, but
    // where they meet the GPU may run them together (calibration/run/bench10/README.md), so the
    // accesses the flow counts per group are estimates too
    let flow_overlap = matches!(&flow, Some(Ok(c)) if c.overlapping_barriers > 0);
    // lanes of one warp that reach a global access apart with no convergence barrier between
    // them: the GPU runs some together, which ones depending on how it is profiled
    // (calibration/run/repeat/README.md)
    let flow_merge = matches!(&flow, Some(Ok(c)) if c.may_merge_global > 0);
    // the flow followed every decision of the launch on values no other thread changed
    let flow_ok = matches!(&flow, Some(Ok(_)));
    // lanes leaving YIELD loops in a shape where the H200 joined some of their groups by an order
    // not modelled (a second YIELD loop, a loop with two exits): the flow's counts, each group
    // apart, are estimates
    let yield_doubt = if ka.yield_loops && flow_ok {
        ka.machine_flow.as_ref().and_then(|f| f.yield_doubt())
    } else {
        None
    };
    // a decision on local bytes the thread never stored: the PTX emulation's memory counters rest
    // on its own value for them (zero), not the GPU's
    let undefined_local = match &flow {
        Some(Err(why)) if warpscope_analysis::machine_flow::reads_undefined_local(why) => Some(why.clone()),
        _ => None,
    }
    // the PTX emulation read local bytes the thread never stored: the GPU's value there is not
    // the emulation's zero, and a branch or an address it steers may go elsewhere on the GPU
    // (conservative: whether the value reaches a decision is not followed)
    .or_else(|| {
        res.undefined_local_read.map(|pc| {
            format!(
                "a local load reads memory the thread never stored ({}: `{}`; the emulation reads zero there, the GPU whatever the memory held)",
                loc_of(program, pc).label,
                program.inst_info(pc).text.trim(),
            )
        })
    });
    let global_flow_stop = match (&ka.machine_flow, &flow) {
        (Some(f), Some(Ok(c))) if f.counts_globals() => c.global_why.map(str::to_string),
        (Some(f), Some(Err(why))) if f.counts_globals() => Some(why.clone()),
        (Some(f), None) if f.counts_globals() => Some("the machine code was not followed".into()),
        _ => None,
    }
    .or_else(|| {
        flow_merge.then(|| {
            "groups of lanes reach a global access apart with no convergence barrier between them (the GPU runs some of them together)".into()
        })
    })
    .or_else(|| yield_doubt.map(|why| format!("groups of lanes leave a loop with a YIELD apart: {why}")));
    let global_written = res.global_written.take();
    let global_footprint = res.global_footprint.take();
    let haz = res.hazards.as_ref();
    let mut out = LaunchAnalysis {
        warp_instructions: res.warp_insts,
        thread_instructions: res.thread_insts,
        printf: std::mem::take(&mut res.printf),
        device_launches: std::mem::take(&mut res.launches),
        asserts: std::mem::take(&mut res.asserts),
        shared_lines: banks
            .lines(program)
            .into_iter()
            .map(|l| SharedLine {
                worst: crate::line_pictures::worst_request(program, kernel, &banks, &l),
                file: l.file.rsplit('/').next().unwrap_or("").to_string(),
                line: l.line,
                side: match l.side {
                    Side::Load => "load",
                    Side::Store => "store",
                }
                .into(),
                instructions: l.counts.instructions,
                wavefronts: l.counts.wavefronts,
                ideal_wavefronts: l.counts.ideal_wavefronts,
            })
            .collect(),
        divergence_lines: crate::line_pictures::divergence_lines(program, kernel, &div),
        global_written,
        global_footprint,
        ..LaunchAnalysis::default()
    };
    if let (Some(index), Some(f)) = (advise, &res.fix)
        && !f.trace.accesses.is_empty()
    {
        if let Ok(mut a) = ADVISED.lock() {
            a.insert(kernel.to_string());
        }
        out.fix = Some(match &f.advice {
            Ok(a) => FixAdvice {
                launch: index,
                suggestions: a
                    .suggestions
                    .iter()
                    .map(|s| FixSuggestion {
                        array: array_name(&s.array),
                        kind: s.kind.clone(),
                        change: s.change.clone(),
                        wavefronts_before: s.wavefronts_before,
                        wavefronts_after: s.wavefronts_after,
                        ideal: s.ideal,
                        extra_shared_bytes: s.extra_shared_bytes,
                        recommended: s.recommended,
                        edit: warpscope_analysis::fix::picture::edit_text(s),
                        request: crate::line_pictures::fix_request(program, ka.arch, f, s),
                    })
                    .collect(),
                notes: a.notes.clone(),
            },
            Err(e) => FixAdvice {
                launch: index,
                suggestions: Vec::new(),
                notes: vec![e.clone()],
            },
        });
    }
    // a shared compare-and-swap retry loop of the machine code whose line ran shared accesses
    out.shared_retry_loop = ka.shared_cas_retry.iter().find_map(|(file, line)| {
        out.shared_lines
            .iter()
            .any(|l| l.line == *line && l.file == *file && l.instructions > 0)
            .then(|| format!("{file}:{line}"))
    });
    let retry_loop = out.shared_retry_loop.is_some();
    // the lines counted as the PTX has them where they did not match the machine code's
    let counted_from_machine_code = machine_shared.is_some() && !flow_overlap && yield_doubt.is_none();
    if !ka.recon.unmatched_lines.is_empty() && !counted_from_machine_code {
        let lines: Vec<String> = ka
            .recon
            .unmatched_lines
            .iter()
            .map(|&line| match out.shared_lines.iter().find(|l| l.line == line) {
                Some(l) if !l.file.is_empty() => format!("{}:{line}", l.file),
                _ => format!("line {line}"),
            })
            .collect();
        out.shared_unmatched = Some(lines.join(", "));
    }
    let m = &mut out.metrics;
    let mut ld = banks.total(Side::Load);
    let mut st = banks.total(Side::Store);
    let mut ld_requests = banks.request_total(Side::Load);
    let mut st_requests = banks.request_total(Side::Store);
    if let Some(c) = machine_shared {
        // no ldmatrix, stmatrix or cp.async in such code (`MachineFlow::counting`): the unit-level
        // and the instruction-attributed wavefronts are the same
        ld = warpscope_analysis::banks::Counts {
            instructions: c.ld_instructions,
            wavefronts: c.ld_wavefronts,
            ideal_wavefronts: c.ld_ideal,
            attributed_wavefronts: c.ld_attributed,
        };
        st = warpscope_analysis::banks::Counts {
            instructions: c.st_instructions,
            wavefronts: c.st_wavefronts,
            ideal_wavefronts: c.st_ideal,
            attributed_wavefronts: c.st_attributed,
        };
        ld_requests = ld.clone();
        st_requests = st.clone();
    }
    let mut put = |k: &str, v: f64| {
        m.insert(k.to_string(), v);
    };
    put(
        "smsp__sass_inst_executed_op_shared_ld.sum",
        ld.instructions as f64,
    );
    put(
        "smsp__sass_inst_executed_op_shared_st.sum",
        st.instructions as f64,
    );
    put(
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        ld.wavefronts as f64,
    );
    put(
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        st.wavefronts as f64,
    );
    // The shared load and store instructions' own wavefronts (LDSM/STSM left out) as ncu
    // attributes them to the instructions: the H100 repeats it at every launch. The unit-level
    // `l1tex__..._op_ld/_st` above is its floor: the H100 adds wavefronts where shared requests meet
    // other traffic in the L1 data banks, differently at each launch (calibration/variability).
    // The attribution counts 8-byte loads whose doubled phase conflicts in half-warps, where the
    // L1 keeps the doubled phase (calibration/lds64).
    put(
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        ld_requests.attributed_wavefronts as f64,
    );
    put(
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        st_requests.attributed_wavefronts as f64,
    );
    if ld.wavefronts + st.wavefronts > 0 {
        put("warpscope__l1tex_shared_wavefronts_floor", 1.0);
    }
    // wgmma's operand reads (HGMMA): 128 bytes a wavefront, in no LDS count (calibration/wgmma);
    // ncu's instruction and byte counts (and the `sm__sass_` wavefronts) also hold the HGMMAs ptxas
    // adds for commits it cannot attach: given when the machine code says which commits those are
    if !banks.gmma.is_empty() {
        put(
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
            banks.gmma.wavefronts() as f64,
        );
        if let Some(pcs) = &ka.ptxas_hgmma {
            let extra = banks.gmma.commit_executions(pcs);
            let bytes = banks.gmma.bytes + extra * warpscope_analysis::banks::PTXAS_HGMMA_BYTES_PER_WARP;
            put(
                "smsp__sass_inst_executed_op_shared_gmma.sum",
                (banks.gmma.instructions + extra) as f64,
            );
            put("sm__sass_data_bytes_mem_shared_op_gmma.sum", bytes as f64);
            put(
                "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
                (bytes / 128) as f64,
            );
        }
    }
    // shared atomics (ATOMS): not among the loads and stores above, as ncu counts them; their
    // wavefronts by the machine code's form of each (`reconcile::AtomicForm`: an add of 1 or an
    // aggregated atomic as a load, any other one lane per bank slot; H100, calibration/run/README.md),
    // reported only when every atomic's form was read off the machine code
    let atom = banks.atomic_total();
    if atom.instructions > 0 {
        put(
            "smsp__sass_inst_executed_op_shared_atom.sum",
            atom.instructions as f64,
        );
        if ka.recon.atomic_forms.is_some() {
            put(
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                atom.wavefronts as f64,
            );
            put(
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                atom.wavefronts.saturating_sub(atom.ideal_wavefronts) as f64,
            );
        }
    }
    // LDSM / STSM / LDGSTS (ldmatrix, stmatrix, cp.async; wmma loads from shared are LDSM): their
    // instructions and wavefronts under ncu's names, for launches that have them; the wavefronts
    // leave out requests outside the measured rules (`warpscope__matrix_counters_exact` = 0)
    let mut matrix_exact = true;
    let mut any_matrix = false;
    for kind in MatrixKind::ALL {
        let c = banks.matrix_total(kind);
        let unmodelled = banks.matrix_unmodelled(kind);
        if c.instructions + unmodelled == 0 {
            continue;
        }
        any_matrix = true;
        matrix_exact &= unmodelled == 0;
        put(kind.ncu_instructions(), (c.instructions + unmodelled) as f64);
        put(kind.ncu_wavefronts(), c.wavefronts as f64);
        // LDGSTS bank conflicts: the wavefronts beyond the ideal ones, one per phase of a `.ca`
        // copy, the routing of a `.cg` copy plus one per 8-lane phase of its zero-fill pass
        // (H200: all 632 copies of calibration/cgcrowd, 432 of them with a source predicate or a
        // src-size register, and the 188 `.ca` launches of calibration/capred)
        if kind == MatrixKind::Ldgsts {
            put(
                "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                c.wavefronts.saturating_sub(c.ideal_wavefronts) as f64,
            );
        }
    }
    if any_matrix {
        put(
            "warpscope__matrix_counters_exact",
            if matrix_exact { 1.0 } else { 0.0 },
        );
    }
    put(
        "warpscope__shared_ld_excess_wavefronts.sum",
        (ld.wavefronts - ld.ideal_wavefronts) as f64,
    );
    put(
        "warpscope__shared_st_excess_wavefronts.sum",
        (st.wavefronts - st.ideal_wavefronts) as f64,
    );
    put(
        "shared_load_transactions_per_request",
        ratio(ld.wavefronts, ld.instructions),
    );
    put(
        "shared_store_transactions_per_request",
        ratio(st.wavefronts, st.instructions),
    );
    let t = &div.totals;
    // A -G build: its machine code adds one uniform branch per execution of a *signed* 32-bit
    // div/rem (H100, calibration/run/h100/divergence_G: `tid % 2` and `(tid / warpSize) % 2` on
    // `int` add one each; the unsigned `tid % (2 * stride)` adds none).
    let (exit_targets, exit_divergent) = div
        .branches
        .iter()
        .filter(|b| ka.exit_branches.contains(&b.pc))
        .fold((0, 0), |(t, d), b| (t + b.targets, d + b.divergent));
    let mut exact = true;
    let mut flow_stop = None;
    let (targets, divergent) = if t.debug_machine_estimate.is_some() {
        let extra: u64 = div
            .instructions
            .iter()
            .filter(|i| signed_div_rem(&program.inst_info(i.pc).text))
            .map(|i| i.executions)
            .sum();
        match &flow {
            // the machine code followed into every callee
            Some(Ok(c)) if ka.follow_calls => {
                exact = c.overlapping_barriers == 0 && c.may_merge_branch == 0 && c.may_merge_exit == 0;
                if c.overlapping_barriers > 0 {
                    flow_stop = Some(
                        "two groups of lanes inside one convergence barrier at once (each joins its own lanes; where they meet, the GPU may run them together)"
                            .into(),
                    );
                } else if c.may_merge_exit > 0 {
                    // (calibration/run/bench19 heaptopk_G: 32 and 70 targets fewer on the H200)
                    flow_stop = Some(
                        "groups of lanes leaving a loop on different iterations run branches of their own on the way to its join (the GPU runs some of them together, as it runs the lanes staying in the loop first)"
                            .into(),
                    );
                } else if c.may_merge_branch > 0 {
                    flow_stop = Some(
                        "groups of lanes of a warp that no convergence barrier joins reach a branch apart (the GPU runs some together, which ones depending on how it is profiled)"
                            .into(),
                    );
                }
                put("warpscope__branch_counters_from_machine_flow", 1.0);
                (c.targets, c.divergent)
            }
            _ => {
                if ka.separate_calls.1 {
                    exact = false;
                    flow_stop = Some(match &flow {
                        Some(Err(why)) => format!(
                            "a debug build's (-G) calls of functions ptxas kept apart, followed in the machine code up to: {why}"
                        ),
                        _ => "a debug build's (-G) calls of functions ptxas kept apart: their branches are not counted"
                            .into(),
                    });
                }
                (t.targets + extra, t.divergent)
            }
        }
    } else if let Some(m) = &ka.machine_branches {
        // the kernel's own lines may match, but only the flow counts its callees' branches
        // (and after a YIELD loop the lanes run apart where the PTX joins them: only the flow
        // counts what they branch)
        exact = m.exact_for(&div) && !ka.follow_calls && !ka.yield_loops;
        let matched = m.totals(&div);
        match flow {
            // after YIELD loops in a shape where the H200 joined some groups (a second YIELD
            // loop, two exits), the flow's count, each group apart, is further off than the
            // PTX's (calibration/yield/: yNested 267,771 and 43,735 branch targets against the
            // H200's 68,317; yTwo 98,796 and 23,061 against 28,388): the PTX's, an estimate
            Some(Ok(_)) if yield_doubt.is_some() => {
                exact = false;
                flow_stop =
                    yield_doubt.map(|why| format!("groups of lanes leave a loop with a YIELD apart: {why}"));
                matched
            }
            Some(Ok(c)) if !exact || always => {
                // two groups inside one convergence barrier at once: each joins its own lanes,
                // but where they meet the GPU may run them together
                // (calibration/run/bench10/README.md), an estimate
                exact = c.overlapping_barriers == 0;
                if !exact {
                    flow_stop = Some(
                        "two groups of lanes inside one convergence barrier at once (each joins its own lanes; where they meet, the GPU may run them together)"
                            .into(),
                    );
                } else if ka.follow_calls && c.may_merge_branch > 0 {
                    // (the same for a flow into separately compiled callees, as for -G's)
                    exact = false;
                    flow_stop = Some(
                        "groups of lanes of a warp that no convergence barrier joins reach a branch apart (the GPU runs some together, which ones depending on how it is profiled)"
                            .into(),
                    );
                }
                put("warpscope__branch_counters_from_machine_flow", 1.0);
                (c.targets, c.divergent)
            }
            Some(Err(why)) if !exact || always => {
                flow_stop = Some(why);
                match &unheld {
                    Some(c) => (c.targets, c.divergent),
                    None => matched,
                }
            }
            _ => matched,
        }
    } else {
        exact = false;
        (t.targets - exit_targets, t.divergent - exit_divergent)
    };
    if !ka.calls_not_followed.is_empty() && exact {
        exact = false;
        flow_stop = Some(format!(
            "calls of functions whose machine code is not in the cubin ({}): their branches are not counted",
            ka.calls_not_followed.join(", ")
        ));
    }
    // A spin loop whose every decision the flow followed on values no other thread changed
    // during the launch (`FlowReads::hold`; a clock, an atomic's result or a value another thread
    // stores stops it or fails the check) runs as often on the GPU as the flow ran it: its
    // counters are the flow's, whatever the timing (calibration/yield/: volatile walks of data the
    // launch does not write, a lane's own volatile counter).
    // (a loop that may read what its own atomics write, where this launch's arguments put the two
    // in different allocations, waits on no one)
    let spin_loop = spin_loop_for(ka, launch, global);
    let spin_settled = spin_loop && flow_ok;
    let eff = pct(targets - divergent, targets);
    put("smsp__sass_branch_targets.sum", targets as f64);
    put(
        "smsp__sass_branch_targets_threads_divergent.sum",
        divergent as f64,
    );
    put(
        "smsp__sass_branch_targets_threads_uniform.sum",
        (targets - divergent) as f64,
    );
    put("branch_efficiency", eff);
    // 1: the branch counters are the machine code's (every source line's branches matched);
    // 0: some are counted on the PTX (an estimate).
    put(
        "warpscope__branch_counters_exact",
        if exact
            && (!spin_loop || spin_settled)
            && !ka.exchange_branches
            && !ka.device_runtime
            && undefined_local.is_none()
        {
            1.0
        } else {
            0.0
        },
    );
    // The alternatives to the counting rule that calibration/branch/ must break, on request.
    if std::env::var_os("WARPSCOPE_BRANCH_ALTERNATIVES").is_some() {
        put(
            "warpscope__alt_ptx_level__targets",
            (t.targets - exit_targets) as f64,
        );
        put(
            "warpscope__alt_ptx_level__divergent",
            (t.divergent - exit_divergent) as f64,
        );
        if let Some(m) = &ka.machine_branches {
            for (name, alt) in &m.alternatives {
                let (at, ad) = alt.totals(&div);
                put(&format!("warpscope__alt_{name}__targets"), at as f64);
                put(&format!("warpscope__alt_{name}__divergent"), ad as f64);
                put(
                    &format!("warpscope__alt_{name}__exact"),
                    if alt.exact_for(&div) { 1.0 } else { 0.0 },
                );
            }
        }
    }
    put("divergent_branch", divergent as f64);
    // 1: every source line's shared loads and stores matched the machine code's (fused widths
    // included); 0: a line did not (ptxas removed, merged or added accesses there), its PTX
    // accesses are counted as written and the shared counters are an estimate
    put(
        "warpscope__shared_counters_exact",
        if ((ka.recon.unmatched_lines.is_empty() && !ka.early_join)
            || (machine_shared.is_some() && !flow_overlap && yield_doubt.is_none()))
            && !(ka.spin_shared && spin_loop)
            && !retry_loop
            && !ka.unmeasured_wmma.0
            && undefined_local.is_none()
        {
            1.0
        } else {
            0.0
        },
    );
    if machine_shared.is_some() {
        put("warpscope__shared_counters_from_machine_code", 1.0);
    }
    if spin_loop && !spin_settled {
        put("warpscope__spin_loop", 1.0);
    }
    if ka.exchange_branches {
        put("warpscope__exchange_branches", 1.0);
    }
    if ka.device_runtime {
        put("warpscope__device_runtime_calls", 1.0);
    }
    // 1: global requests and sectors count the machine code's loads and stores; 0: an estimate
    // (a line whose accesses ptxas moved out of a loop or unrolled and whose machine code could not
    // be followed, no machine code; device printf outside its rule, `runtime.rs`)
    put(
        "warpscope__global_counters_exact",
        if (ka.global_exact || (machine_global.is_some() && !flow_overlap))
            && !flow_merge
            && yield_doubt.is_none()
            && undefined_local.is_none()
            && (!(ka.spin_global && spin_loop) || spin_settled)
            && !ka.device_runtime
            && !ka.unmeasured_wmma.1
            && glob.copies_unsure == 0
            && res.global.is_none_or(|g| g.copies_unsure == 0)
        {
            1.0
        } else {
            0.0
        },
    );
    if machine_global.is_some() {
        put("warpscope__global_counters_from_machine_code", 1.0);
    }
    put(
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        glob.ld_requests as f64,
    );
    put(
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        glob.ld_sectors as f64,
    );
    put(
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        glob.st_requests as f64,
    );
    put(
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        glob.st_sectors as f64,
    );
    put(
        "gld_efficiency",
        pct(glob.ld_bytes, glob.ld_sectors * 32).min(100.0),
    );
    put(
        "gst_efficiency",
        pct(glob.st_bytes, glob.st_sectors * 32).min(100.0),
    );
    put("warpscope__ptx_warp_instructions.sum", res.warp_insts as f64);
    crate::tma_metrics::put_tma(&res.tma, &mut put);
    let threads: u32 = launch.block.iter().product();
    put("launch__block_size", f64::from(threads));
    put(
        "launch__grid_size",
        launch.grid.iter().map(|&g| g as f64).product::<f64>(),
    );
    put("launch__shared_mem_per_block_dynamic", f64::from(launch.dyn_smem));
    put("launch__shared_mem_per_block_static", f64::from(k.static_smem));
    if let Some(regs) = ka.registers {
        put(
            "launch__registers_per_thread",
            f64::from(crate::fatbin::allocated_registers(regs)),
        );
        if let Ok(limits) = warpscope_model::occupancy::Limits::for_arch(ka.arch) {
            let mut ol = warpscope_model::occupancy::Launch::new(threads, regs);
            ol.static_smem = k.static_smem;
            ol.dyn_smem = launch.dyn_smem;
            if let Some(b) = ka.barriers {
                ol.barriers = b;
            }
            if let Ok(o) = warpscope_model::occupancy::occupancy(&limits, &ol) {
                let pct = 100.0 * o.occupancy();
                put("sm__maximum_warps_per_active_cycle_pct", pct);
                put("achieved_occupancy", pct / 100.0);
                put("launch__occupancy_limit_blocks", f64::from(o.limit_blocks));
                put("launch__occupancy_limit_warps", f64::from(o.limit_warps));
            }
        }
    }
    // warp-specialised register reallocation (`setmaxnreg`): the counts the warps move to (blocks
    // are placed by the launch's allocation all the same)
    if let Some(n) = k.setmaxnreg.iter().filter(|r| r.0).map(|r| r.1).max() {
        put("warpscope__setmaxnreg_inc_registers", f64::from(n));
    }
    if let Some(n) = k.setmaxnreg.iter().filter(|r| !r.0).map(|r| r.1).min() {
        put("warpscope__setmaxnreg_dec_registers", f64::from(n));
    }
    let loc = |pc: u32| loc_of(program, pc);
    for (i, f) in res.faults.iter().enumerate() {
        let l = loc(f.pc);
        let failed = out
            .asserts
            .iter()
            .find(|a| a.pc == f.pc && block_linear(a.block, launch.grid) == f.block);
        // the driver's sentence for the fault (what, where, which thread, what a GPU does); a
        // failing assert as the runtime has always put it
        let msg = match (f.kind, failed) {
            (FaultKind::Assert, Some(a)) => format!(
                "device-side assert `{}` failed at {} (block {}, thread {})",
                String::from_utf8_lossy(&a.message),
                l.label,
                f.block,
                f.lane
                    .map(|lane| (f.warp * 32 + lane).to_string())
                    .unwrap_or_else(|| "?".into()),
            ),
            _ => res
                .fault_messages
                .get(i)
                .cloned()
                .unwrap_or_else(|| f.to_string()),
        };
        if out.fault.is_none() {
            out.fault = Some(msg.clone());
            out.fault_kind = Some(fault_kind(f.kind).into());
        }
        // a failing assert is no hazard finding (`--check` or not): it is reported here
        if haz.is_none() || f.kind == FaultKind::Assert {
            out.findings.push(Finding {
                severity: "error".into(),
                kind: match f.kind {
                    FaultKind::OutOfBounds { .. } => "out_of_bounds",
                    FaultKind::Misaligned { .. } => "misaligned",
                    FaultKind::DivergentBarrier | FaultKind::BarrierCount { .. } => "divergent_barrier",
                    FaultKind::InstructionLimit => "instruction_limit",
                    FaultKind::Assert => "assert",
                    _ => "fault",
                }
                .into(),
                line: l.line,
                message: msg,
            });
        }
    }
    if let Some(h) = haz {
        // a failing assert is reported above, as the runtime puts it
        for f in h.findings.iter().filter(|f| f.kind != FindingKind::Assert) {
            out.findings.push(Finding {
                severity: match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "note",
                }
                .into(),
                kind: f.kind.name().into(),
                line: f.line,
                message: f.message.clone(),
            });
        }
        // what dynamic parallelism left unpaired, said where the launch's findings are
        for n in &h.device_grid_notes {
            out.findings.push(Finding {
                severity: "note".into(),
                kind: "device_grids_race_note".into(),
                line: None,
                message: n.clone(),
            });
        }
    }
    out.machine_flow_stop = flow_stop;
    out.global_flow_stop = global_flow_stop;
    out.undefined_local_read = undefined_local;
    out.waited = res.waited;
    if res.stopped {
        out.sampling = Some(scale_to_grid(
            &mut out.metrics,
            u64::from(res.blocks_emulated),
            res.blocks_in_grid,
            watch.reason(),
        ));
    }
    Ok(out)
}

/// Whether a launch of a kernel with `ka` has a spin loop: `ka.spin_loop`, unless the launch's
/// arguments put the loads and atomics of each pair of `ka.spin_unless_apart` in different
/// allocations (a parameter word's pointer: its region of `global`; a `__device__` variable: its
/// own bytes; a word the arguments do not give, or an address in no region, keeps the loop).
pub fn spin_loop_for(ka: &KernelAnalysis, launch: &Launch, global: &Global) -> bool {
    use warpscope_analysis::reconcile::AddressWord;
    if !ka.spin_loop {
        return false;
    }
    let Some(pairs) = &ka.spin_unless_apart else {
        return true;
    };
    let (buffers, _) = warpscope_emu::buffer_layout(&launch.args);
    let word = |i: usize, off: u32| -> Option<u64> {
        let bytes = |b: &[u8]| {
            b.get(off as usize..off as usize + 8)
                .and_then(|w| w.try_into().ok())
                .map(u64::from_le_bytes)
        };
        match launch.args.get(i)? {
            warpscope_emu::Arg::Bytes(b) => bytes(b),
            warpscope_emu::Arg::U64(v) => bytes(&v.to_le_bytes()),
            warpscope_emu::Arg::I64(v) => bytes(&v.to_le_bytes()),
            warpscope_emu::Arg::Buffer(_) if off == 0 => buffers.get(i).copied().flatten(),
            _ => None,
        }
    };
    // the bytes a word's accesses stay in: (start, length)
    let range = |w: AddressWord| match w {
        AddressWord::Param(i, off) => word(i, off).and_then(|a| global.region_of(a)),
        // (an unsized `extern` array tells no extent)
        AddressWord::Variable { addr, size } => (size > 0).then_some((addr, size)),
        AddressWord::Loaded => None,
    };
    !pairs.iter().all(|&(l, a)| match (range(l), range(a)) {
        (Some((x, xl)), Some((y, yl))) => x + xl <= y || y + yl <= x,
        _ => false,
    })
}

/// A launch cut short: its sums over blocks scaled from the `ran` blocks that ran to the grid's
/// `blocks`, every counter labelled an estimate. The bank report's counters come scaled already,
/// and counters taken from the machine code's control flow, which covers the whole grid, stay.
fn scale_to_grid(m: &mut BTreeMap<String, f64>, ran: u64, blocks: u64, reason: String) -> Sampling {
    let from_flow = |k: &str| m.get(k).is_some_and(|v| *v == 1.0);
    let branch_flow = from_flow("warpscope__branch_counters_from_machine_flow");
    let global_flow = from_flow("warpscope__global_counters_from_machine_code");
    let factor = blocks as f64 / ran.max(1) as f64;
    let mut keys: Vec<&str> = vec!["warpscope__ptx_warp_instructions.sum"];
    if !branch_flow {
        keys.extend(BRANCH_SUMS);
    }
    if !global_flow {
        keys.extend(GLOBAL_SUMS);
    }
    keys.extend(crate::tma_metrics::TMA_SUMS);
    for k in keys {
        if let Some(v) = m.get_mut(k) {
            *v = (*v * factor).round();
        }
    }
    for k in EXACT_FLAGS {
        if let Some(v) = m.get_mut(*k) {
            *v = 0.0;
        }
    }
    m.insert("warpscope__blocks_run".into(), ran as f64);
    let mut counters = format!(
        "estimates: the sums of the {ran} blocks that ran (the first in block order), scaled by {blocks}/{ran}; ratios and percentages are those of the blocks that ran"
    );
    if branch_flow || global_flow {
        counters.push_str(
            "; the counters taken from the machine code's control flow (which covers the whole grid) are not scaled",
        );
    }
    Sampling {
        blocks_run: ran,
        blocks,
        reason,
        counters,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn calls_beyond_the_drivers_are_separate_functions() {
        let branch = |opcode: &str| warpscope_toolchain::sass::SassBranch {
            code_offset: 0,
            opcode: opcode.into(),
            predicate: None,
            target: None,
            operands: String::new(),
            labels: Vec::new(),
            self_loop: false,
            file: None,
            line: None,
        };
        let kernel = |ops: &[&str]| warpscope_toolchain::sass::SassKernel {
            name: "k".into(),
            branches: ops.iter().map(|o| branch(o)).collect(),
            ..Default::default()
        };
        // one printf: its CALL.ABS is the driver's
        assert_eq!(
            super::calls_beyond_driver(&kernel(&["BRA", "CALL.ABS.NOINC", "EXIT"]), 1),
            (false, false)
        );
        // -rdc=true: three CALL.ABS into other units, no printf
        let rdc = kernel(&[
            "CALL.ABS.NOINC",
            "CALL.ABS.NOINC",
            "BRA",
            "CALL.ABS.NOINC",
            "EXIT",
        ]);
        assert_eq!(super::calls_beyond_driver(&rdc, 0), (true, true));
        // -G (or __noinline__): calls within the code, not the driver's
        assert_eq!(
            super::calls_beyond_driver(&kernel(&["CALL.REL.NOINC", "RET.ABS.NODEC", "EXIT"]), 0),
            (false, true)
        );
        assert_eq!(
            super::calls_beyond_driver(&kernel(&["BRA", "EXIT"]), 0),
            (false, false)
        );
    }

    use super::*;
    use warpscope_emu::AccessOp;

    #[test]
    fn global_sectors() {
        let mut g = GlobalCounts::default();
        let mut a = [0u64; 32];
        for (i, x) in a.iter_mut().enumerate() {
            *x = 0x1000 + 4 * i as u64;
        }
        g.record(AccessOp::Load, 4, u32::MAX, &a); // 128 contiguous bytes: 4 sectors
        for (i, x) in a.iter_mut().enumerate() {
            *x = 0x1000 + 128 * i as u64;
        }
        g.record(AccessOp::Store, 4, 0xffff, &a); // 16 lanes, one sector each
        g.record(AccessOp::Load, 4, 0, &a); // no active lane: no request
        assert_eq!((g.ld_requests, g.ld_sectors, g.ld_bytes), (1, 4, 128));
        assert_eq!((g.st_requests, g.st_sectors, g.st_bytes), (1, 16, 64));
    }
}
