//! calibration/run/bench10's programs (written for this project in shapes the earlier sets lack:
//! BFS by frontier queues and atomics, a Blelloch scan with and without conflict-free padding, an
//! Aho-Corasick matcher with its table in shared memory, cyclic reduction of tridiagonal systems,
//! list ranking by pointer jumping, Monte Carlo with an own xorshift generator, CRC-32 through
//! shared tables, a segmented sieve by shared `atomicOr`, a segmented warp scan and run-length
//! encoding by ballots, and a ray caster), built with the wheels' nvcc (`build.sh`), under
//! `warpscope run`, against what an H200 printed and counted (calibration/run/bench10/h200/,
//! measured by `ncu.sh` on these binaries): each program prints what the GPU printed; every
//! launch's registers and theoretical occupancy equal the H200's; every launch whose branch,
//! shared-memory or global-memory counters are labelled exact equals the H200's; and at least the
//! launches listed below are labelled exact.

mod support;
support::bench_programs!(built "calibration/run/bench10");

// the frontier is the order in which the GPU's atomics handed out queue slots: estimates
program!(bfsq, 16, [0, 1, 0]);
program!(blelloch, 6, [6, 6, 6]);
program!(dfa, 2, [2, 2, 2]);
program!(cyclic, 3, [3, 3, 3]);
program!(listrank, 16, [16, 16, 16]);
program!(montec, 4, [4, 4, 4]);
program!(crc, 3, [3, 3, 3]);
program!(sieve, 2, [2, 2, 2]);
program!(segred, 3, [3, 3, 3]);
// `render`'s branch between the floor and the sphere cases has no convergence region of its own:
// both sides start the same barriers in shared code. Followed to the end (before: the flow
// stopped, "a convergence barrier that never completes", and the PTX's 91183 targets were
// given). Each group joins its own lanes at a BSYNC (calibration/run/bench10/README.md): the second
// frame equals the H200 (104863 / 1716), the first counts one group more where the H200 ran two
// standing at one instruction together (103378 against 103305): labelled estimates
program!(raytrace, 2, [0, 2, 2]);

#[test]
fn raytrace_is_followed_to_the_end_and_labelled_an_estimate() {
    let bin = support::built("calibration/run/bench10").join("raytrace");
    let dir = support::scratch("bench10-raytrace");
    let export = dir.path().join("run.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(&export)
        .arg("--")
        .arg(&bin)
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    // the H200's targets (h200/raytrace.ncu.csv)
    for (l, h200) in v["launches"]
        .as_array()
        .unwrap()
        .iter()
        .zip([103_305.0, 104_863.0])
    {
        let m = &l["metrics"];
        assert_eq!(m["warpscope__branch_counters_from_machine_flow"], 1.0, "{l}");
        assert_eq!(m["warpscope__branch_counters_exact"], 0.0);
        let t = m["smsp__sass_branch_targets.sum"].as_f64().unwrap();
        assert!((t - h200).abs() / h200 < 0.001, "{t} against {h200}");
        // the second frame: every instruction as the H200's source page, so both counters equal
        if h200 == 104_863.0 {
            assert_eq!(t, h200);
            assert_eq!(m["smsp__sass_branch_targets_threads_divergent.sum"], 1716.0);
        }
        assert!(
            l["machine_flow_stop"].as_str().unwrap().contains("two groups"),
            "{l}"
        );
    }
}
