//! The second set of Triton kernels of calibration/hopper/ (gen_triton2.py: fp8, tf32, bf16 and
//! int8 dots, 4-stage TMA pipelines, split-K atomics, causal and warp-specialised kernels, a spin
//! lock, scans, sorts, histograms, inline assembly, libdevice functions), each emulated as `warpscope
//! run` analyses a launch (Triton's own cubin for the machine code) on the inputs
//! calibration/hopper/host/hopper_run2.cu gives them on the GPU. Both read one launch table,
//! calibration/hopper/triton2/launches.tsv. The outputs must equal the H200's byte for byte (FNV-1a
//! 64 hashes in calibration/hopper/h200_triton2/run.txt) and every counter labelled exact must
//! equal Nsight Compute's (h200_triton2/ncu_*.csv); what differs is listed below with its reason
//! and asserted as it is, so that a change is seen.

mod common;

use common::run2::{self, K, num};
use common::{Expect, base, disassemble, replay_against_h200, repo};
use std::collections::BTreeMap;

const DIR: &str = "calibration/hopper/triton2";
const H200: &str = "calibration/hopper/h200_triton2";

fn kernels() -> Vec<K> {
    run2::kernels(DIR)
}

fn emulate(k: &K) -> Result<common::Emulated, String> {
    run2::emulate(DIR, k)
}

#[test]
#[ignore = "exploration: prints every counter against the H200's (HOPPER_ONLY=name: one kernel)"]
fn print_triton2_counters_against_the_h200() {
    run2::print_counters(DIR, H200);
}

/// Kernels whose outputs are not bit-exact yet, and why.
const OUTPUTS_DIFFER: &[(&str, &str)] = &[];

/// Counters labelled exact that differ from the H200's, and why.
const COUNTERS_DIFFER: &[(&str, &str, &str)] = &[];

#[test]
fn every_second_set_triton_kernel_replays_the_h200() {
    let x = Expect {
        dir: H200,
        outputs_differ: OUTPUTS_DIFFER,
        counters_differ: COUNTERS_DIFFER,
        min_compared: 103,
    };
    let ks = kernels();
    replay_against_h200(&x, ks.iter().map(|k| (k.name.clone(), emulate(k))));
}

/// Triton's masked copies (`cp.async.cg [..], [..], 16, %r` with `%r` a `selp` of 16 and 0, which
/// ptxas makes `LDGSTS.E.BYPASS.128 [..], [..], P`): per instruction, the executions and shared
/// wavefronts the emulator counts equal Nsight Compute's source page
/// (calibration/srcpred/triton2_ldgsts.tsv, from h200_triton2/triton2.sass.csv.gz): the prologue
/// copies of mm_e4m3 (15 per execution: 144-byte rows of 64 bytes, every lane reading), its loop
/// copies (6.67: the K tail and the copies past it, zero-filled lanes as a src-size-0 copy), and
/// the copies whose predicate operand is `P0` or `!P0` (mm_tf32, mm_splitk: the instrumentation
/// takes `P0` as false). The PTX copies pair with the machine code's `LDGSTS`s in code order.
#[test]
fn masked_copies_count_per_instruction_as_the_source_page() {
    use warpscope_analysis::banks::MatrixKind;
    let page = std::fs::read_to_string(repo().join("calibration/srcpred/triton2_ldgsts.tsv")).unwrap();
    let rows: Vec<Vec<String>> = page
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    let arch = warpscope_model::arch::Arch::parse("sm_90a").unwrap();
    let mut checked = 0;
    for (i, k) in kernels().iter().enumerate() {
        let want: Vec<(u64, u64)> = rows
            .iter()
            .filter(|r| r[0] == i.to_string())
            .map(|r| (r[3].parse().unwrap(), r[4].parse().unwrap()))
            .collect();
        if want.is_empty() {
            continue;
        }
        let ptx = std::fs::read_to_string(repo().join(DIR).join(format!("{}.ptx", k.name))).unwrap();
        let program = warpscope_ptx::compile(&ptx).unwrap();
        let sass = disassemble(&repo().join(DIR).join(format!("{}.cubin", k.name))).unwrap();
        let sass = sass.into_iter().find(|s| s.name == k.symbol).unwrap();
        let recon = warpscope_analysis::reconcile::Reconciliation::build(
            &program,
            &k.symbol,
            &warpscope_analysis::reconcile::machine_accesses(&sass),
        )
        .with_copy_predicates(&program, &k.symbol, &sass);
        let widths = warpscope_driver::Widths {
            recon: std::sync::Arc::new(recon),
            note: "Triton's cubin".into(),
            sass: None,
        };
        assert!(
            !widths.recon.copy_predicates.is_empty(),
            "{}: no LDGSTS predicate read off the machine code",
            k.name
        );
        let global = warpscope_emu::mem::Global::new(
            k.bufs
                .iter()
                .enumerate()
                .map(|(i, b)| (base(i), b.0.clone()))
                .collect(),
        );
        let mut launch = warpscope_emu::Launch::new(k.grid, [k.block, 1, 1], k.args.clone());
        launch.dyn_smem = k.dyn_smem;
        let sections = warpscope_driver::Sections {
            banks: true,
            ..warpscope_driver::Sections::NONE
        };
        let r = warpscope_driver::analyze_launch_in(
            &program,
            &k.symbol,
            &launch,
            &global,
            &sections,
            arch,
            &widths,
            &warpscope_driver::RunOptions::default(),
        )
        .unwrap();
        let report = &r.banks.as_ref().unwrap().report;
        let mut got: Vec<(u32, u64, u64, u64)> = report
            .matrix
            .values()
            .filter(|s| s.kind == MatrixKind::Ldgsts)
            .map(|s| (s.pc, s.counts.instructions, s.counts.wavefronts, s.unmodelled))
            .collect();
        got.sort_unstable();
        let got: Vec<(u64, u64)> = got
            .iter()
            .map(|&(_, n, w, u)| {
                assert_eq!(u, 0, "{}: copies outside the rules", k.name);
                (n, w)
            })
            .collect();
        assert_eq!(got, want, "{}: (executions, wavefronts) per LDGSTS", k.name);
        checked += want.len();
    }
    // mm_e4m3, mm_i8, mm_tf32 (12, 12, 24), mm_splitk 12, attn_causal 24
    assert_eq!(checked, 84);
}

/// The five kernels with `cp.async.cg` pipelines repeated their global load requests and sectors,
/// LDGSTS wavefronts and LDGSTS bank conflicts exactly over five H200 runs, three with the metric
/// list and two with the source counters' sections too (calibration/cgcrowd/repeat.tsv), and the
/// emulation gives those counts (the global ones are labelled estimates for the H100's `.cg`
/// pipelines: docs/counters.md).
#[test]
fn bypass_pipelines_repeat_their_counts_and_equal_the_emulation() {
    let text = std::fs::read_to_string(repo().join("calibration/cgcrowd/repeat.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let cols = [
        (
            col("ld_requests"),
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        ),
        (
            col("ld_sectors"),
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        ),
        (
            col("ldgsts_wavefronts"),
            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        ),
        (
            col("ldgsts_conflicts"),
            "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
        ),
    ];
    let mut runs: BTreeMap<String, Vec<Vec<f64>>> = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        if !f[0].contains("triton") {
            continue;
        }
        runs.entry(f[2].to_string())
            .or_default()
            .push(cols.iter().map(|&(c, _)| num::<f64>(f[c])).collect());
    }
    assert_eq!(runs.len(), 5);
    let ks = kernels();
    for (name, v) in &runs {
        assert_eq!(v.len(), 5, "{name}: runs");
        assert!(v.iter().all(|r| r == &v[0]), "{name}: the runs differ: {v:?}");
        let k = ks.iter().find(|k| &k.name == name).unwrap();
        let e = emulate(k).unwrap();
        for (i, &(_, metric)) in cols.iter().enumerate() {
            assert_eq!(e.metrics.get(metric), Some(&v[0][i]), "{name}: {metric}");
        }
    }
}
