//! calibration/run/bench21's programs (written for this project, in today's libcu++ and
//! cooperative-groups shapes the earlier sets lack: a cuda::pipeline partitioned into producer
//! and consumer warps, cuda::barrier arrive/wait tokens over block-wide and bulk
//! cuda::memcpy_async; cuda::atomic_ref wait/notify_all and a cuda::std::atomic ticket with
//! memory orders; fp8 e4m3/e5m2 quantization with half2 and bfloat162 math; mdspan, span and
//! complex; warp-level cg::memcpy_async with wait_prior, tile scans and partitions; `__device__`
//! lambdas through kernel templates with printf and assert; locks with `__nanosleep` back-off),
//! built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed
//! and counted (calibration/run/bench21/h200/, measured by `ncu.sh` on these binaries): each
//! program prints what the GPU printed; every launch's registers and theoretical occupancy equal
//! the H200's; every launch whose counters are labelled exact equals the H200's; and at least the
//! launches listed below are labelled exact.

mod support;
support::bench_programs!(built "calibration/run/bench21");

// every wait of the pipeline and the barriers is an mbarrier try-wait loop on a phase that warps'
// arrivals complete (its trip count is the GPU's timing); roles' shared counters, split's and
// bulk's global ones are exact
program!(stages, 3, [0, 2, 2]);
// wait() spins on the shared flag, lastblock's float maximum retries a compare-exchange and its
// ticket is an atomic's result: branch and global counters are estimates
program!(waitnote, 3, [0, 2, 0]);
// the block's absolute maximum folds through `VIMNMX3` (three-way max) before the scale's branch
program!(fp8q, 2, [2, 2, 2]);
program!(mdsp, 3, [3, 3, 3]);
// the labeled partition's key comes from shared memory that cg::memcpy_async filled (values
// the flow does not know): the branch and global counters are the PTX's
program!(cgasync, 1, [0, 1, 0]);
// talk's printf stores are the H100's rule (an H200 counts 3 fewer a warp-level call): estimates
program!(lambdas, 6, [6, 6, 5]);
// spin locks and a ticket lock: every count is the GPU's timing
program!(backoff, 2, [0, 1, 0]);

/// The machine code's flow forced on every launch (`WARPSCOPE_MACHINE_FLOW=always`) over a kernel
/// whose warps branch on what their own `cg::memcpy_async` wrote after a barrier left zeros there
/// (tests/data/own_copy.cu): the flow used to read the zeros (every lane leaving its loop at once:
/// 16 targets, none divergent, labelled exact); it must now give the copied values' counts or
/// stop, so the launch counts what the emulation's own run of the same values counts.
#[test]
fn the_flow_does_not_read_the_barrier_s_zeros_under_a_warp_s_own_copy() {
    let dir = support::scratch("own-copy");
    let prog = support::build_program(dir.path(), "own_copy.cu", "own_copy", &[]);
    let counts = |flow: &str| {
        let export = dir.path().join(format!("run{flow}.json"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(["run", "--export", export.to_str().unwrap(), "--"])
            .arg(&prog)
            .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
            .env("WARPSCOPE_MACHINE_FLOW", flow)
            .env("WARPSCOPE_NO_CACHE", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
        let m = &v["launches"][0]["metrics"];
        (
            m["smsp__sass_branch_targets.sum"].as_f64().unwrap(),
            m["smsp__sass_branch_targets_threads_divergent.sum"]
                .as_f64()
                .unwrap(),
        )
    };
    let lines = counts("");
    // lanes copy 0..=22 loop trips: the loop parts every warp
    assert!(lines.1 > 0.0, "{lines:?}");
    assert_eq!(counts("always"), lines);
}
