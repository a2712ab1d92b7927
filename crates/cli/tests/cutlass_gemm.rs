//! `warpscope run` on a CUTLASS 3 warp-specialised GEMM built as a whole program
//! (calibration/cutlass/gemm_ws.cu, built here with the wheels' nvcc and the nvidia-cutlass
//! wheel's headers by calibration/cutlass/build.sh): TMA loads with multicast over a 2x1x1
//! cluster, wgmma, mbarrier pipelines with remote arrivals, elected producer lanes, `setmaxnreg`
//! and a TMA-store epilogue, in its cooperative and ping-pong schedules. The program checks its
//! result against a host reference (exact: quarter-integer products summed in fp32) and prints
//! `Passed`; the TMA traffic is derived by hand from the problem's shapes.

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::cuda_root;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn cutlass_warp_specialised_gemms_pass_their_own_check() {
    let dir = std::env::temp_dir().join(format!("warpscope-cutlass-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/cutlass/build.sh"))
        .arg(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // M = N = 256, K = 128 (the program's default): 2x2 tiles of 128x128 (cooperative) or 4x2
    // of 64x128 (ping-pong), clusters of 2 blocks along M sharing B by multicast
    // (schedule, blocks, TMA loads, bytes they read, TMA stores)
    for (schedule, blocks, loads, read, stores) in [
        // per block: 2 k-tiles x (A, B) + 4 C subtiles of 128x32 = 8 loads, 4 D subtiles;
        // A (64 KiB) read once per N tile column = 128 KiB; B (64 KiB) multicast to both blocks
        // of a cluster, counted once per block reached = 128 KiB; C (128 KiB) once
        ("cooperative", 4.0, 32.0, 393216.0, 16.0),
        // per block: 2 k-tiles x (A, B) + 4 C subtiles of 64x32 = 8 loads, 4 D subtiles;
        // A 128 KiB as above; B reaches the 4 blocks of an N tile column = 256 KiB; C 128 KiB
        ("pingpong", 8.0, 64.0, 524288.0, 32.0),
    ] {
        let export = dir.join(format!("{schedule}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args([
                "run",
                "--export",
                export.to_str().unwrap(),
                "--",
                "./gemm_ws",
                schedule,
            ])
            .current_dir(&dir)
            .env("WARPSCOPE_CUDA_ROOT", cuda_root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{schedule}: {}\n{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        // the H200 printed this line for both schedules (calibration/cutlass/h200/run.txt)
        let gpu = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../calibration/cutlass/h200/run.txt"),
        )
        .unwrap();
        let want = gpu
            .lines()
            .find(|l| l.starts_with("M=256 N=256 K=128: 0 wrong, hash "))
            .expect("the GPU's result line");
        assert!(
            stdout.starts_with(&format!("gemm {schedule}\n{want}\n")),
            "{schedule}: {stdout}"
        );
        assert!(stdout.contains("\nPassed\n"), "{schedule}: {stdout}");
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
        let launches = v["launches"].as_array().unwrap();
        assert_eq!(launches.len(), 1, "{schedule}");
        let l = &launches[0];
        assert!(
            l["findings"].as_array().unwrap().is_empty(),
            "{schedule}: {}",
            l["findings"]
        );
        let m = |k: &str| l["metrics"][k].as_f64().unwrap_or(f64::NAN);
        assert_eq!(m("launch__grid_size"), blocks, "{schedule}");
        assert_eq!(m("smsp__sass_inst_executed_op_tma_ld.sum"), loads, "{schedule}");
        assert_eq!(
            m("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"),
            read,
            "{schedule}"
        );
        // the epilogue's one warp issues each store once (the instruction takes uniform
        // registers); D (128 KiB) is written once, in 32-byte sectors
        assert_eq!(m("smsp__sass_inst_executed_op_tma_st.sum"), stores, "{schedule}");
        assert_eq!(
            m("l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"),
            4096.0,
            "{schedule}"
        );
        // wgmma's shared reads as the H200 counted them (h200/*.matrix.csv): ptxas folds every
        // commit into an HGMMA of the program's, so none is added
        for (k, want) in [
            ("smsp__sass_inst_executed_op_shared_gmma.sum", 256.0),
            ("sm__sass_data_bytes_mem_shared_op_gmma.sum", 393216.0),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", 3072.0),
        ] {
            assert_eq!(m(k), want, "{schedule} {k}");
        }
    }
}
