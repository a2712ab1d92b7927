//! `warpscope run` on the cluster programs (calibration/cluster/*.cu, built here with the wheels'
//! nvcc by calibration/cluster/build.sh): thread-block clusters through `__cluster_dims__` and
//! `cudaLaunchKernelEx`, distributed shared memory, the cluster barrier, a remote mbarrier
//! arrival, `elect.sync`, `setmaxnreg`, `fence.proxy.async`, `prefetch.tensormap` and
//! programmatic dependent launch. Each program's output equals the H100's byte for byte
//! (calibration/cluster/h100/*.stdout), and every launch's shared-memory counters equal what
//! Nsight Compute counted there (calibration/cluster/h100/*.ncu.csv).

use std::process::Command;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

/// Shared instructions (loads, stores, atomics) and the load and store wavefronts ncu attributes
/// to them.
const SHARED: &[&str] = &[
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
];

#[test]
fn cluster_programs_print_what_the_h100_printed_and_count_its_shared_memory() {
    let dir = std::env::temp_dir().join(format!("warpscope-cluster-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/cluster/build.sh"))
        .arg(&dir)
        .args(["dims", "dsmem", "sm90a"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut launches = 0;
    let mut realloc = 0;
    for program in ["dims", "dsmem", "sm90a"] {
        let export = dir.join(format!("{program}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(["run", "--export", export.to_str().unwrap(), "--"])
            .arg(format!("./{program}"))
            .current_dir(&dir)
            .env("WARPSCOPE_CUDA_ROOT", cuda_root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{program}: {}\n{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        // the program's own output comes first, then warpscope's tables
        let want = std::fs::read_to_string(repo().join(format!("calibration/cluster/h100/{program}.stdout")))
            .unwrap();
        assert!(
            stdout.starts_with(&want),
            "{program}: output differs from the H100's\n--- warpscope run\n{stdout}\n--- H100\n{want}"
        );
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
        let recorded = v["launches"].as_array().unwrap();
        let hw = read_ncu_csv(&repo().join(format!("calibration/cluster/h100/{program}.ncu.csv")));
        assert_eq!(recorded.len(), hw.len(), "{program}: launches");
        for (i, l) in recorded.iter().enumerate() {
            let (name, m) = &hw[&(i as u64)];
            for &k in SHARED {
                let ours = l["metrics"][k].as_f64().unwrap_or(0.0);
                assert_eq!(Some(&ours), m.get(k), "{program} launch {i} ({name}): {k}");
            }
            if name.starts_with("realloc") {
                // setmaxnreg: ptxas allocates the largest count (the H100 reports 232), and the
                // counts the warps move to are reported beside it
                let regs = "launch__registers_per_thread";
                assert_eq!(l["metrics"][regs].as_f64(), m.get(regs).copied(), "{name}");
                assert_eq!(l["metrics"][regs].as_f64(), Some(232.0));
                assert_eq!(
                    l["metrics"]["warpscope__setmaxnreg_inc_registers"].as_f64(),
                    Some(232.0)
                );
                assert_eq!(
                    l["metrics"]["warpscope__setmaxnreg_dec_registers"].as_f64(),
                    Some(40.0)
                );
                realloc += 1;
            }
            launches += 1;
        }
    }
    assert_eq!(launches, 17);
    assert_eq!(realloc, 1);
    // `analyze` of the same binary's kernel: the occupancy section lists the reallocation, in
    // program order (nvcc places the `else` warpgroup's `setmaxnreg.inc` first)
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("analyze")
        .arg(dir.join("sm90a"))
        .args(["--kernel", "realloc", "--grid", "2", "--block", "256"])
        .args(["--arg", "buf:1024", "--arg", "buf:1024", "--format", "json"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let occ = &v["occupancy"];
    assert_eq!(occ["registers"], 232, "{v}");
    assert_eq!(
        occ["setmaxnreg"],
        serde_json::json!([{"op": "inc", "registers": 232}, {"op": "dec", "registers": 40}]),
        "{v}"
    );
}

/// `calibration/cluster/occupancy.cu` under `warpscope run`: 584 lines of
/// `cudaOccupancyMaxActiveClusters`, `cudaOccupancyMaxPotentialClusterSize` and
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` answers (block sizes, shared memory from 0 to
/// the opt-in limit, register-bound blocks, cluster shapes of 1 to 16 blocks, portable and not,
/// `__cluster_dims__`, bad configurations) equal what the H200 printed, after its first line (the
/// device's name and sizes).
#[test]
fn cluster_occupancy_queries_answer_what_the_h200_answered() {
    let dir = std::env::temp_dir().join(format!("warpscope-cluster-occupancy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/cluster/build.sh"))
        .arg(&dir)
        .arg("occupancy")
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--", "./occupancy"])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(!stderr.contains("not supported"), "{stderr}");
    let want = std::fs::read_to_string(repo().join("calibration/cluster/h200/occupancy.stdout")).unwrap();
    let want: Vec<&str> = want.lines().skip(1).collect();
    let got: Vec<&str> = stdout.lines().skip(1).take(want.len()).collect();
    assert_eq!(want.len(), 584);
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(g, w, "line {}", i + 2);
    }
    assert_eq!(got.len(), want.len());
    let _ = std::fs::remove_dir_all(&dir);
}
