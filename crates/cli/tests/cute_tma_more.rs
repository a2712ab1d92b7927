//! `warpscope run` on calibration/cutlass/cute_tma_more.cu, a whole program of own CuTe GEMMs
//! (built here by calibration/cutlass/build_more.sh): TMA + wgmma with 64-byte (fp16, wgmma
//! 64x128x16) and 32-byte (bf16, wgmma 64x256x16) swizzles, two mbarrier stages and a TMA-store
//! epilogue, and a 2x1x1 cluster (`__cluster_dims__`) sharing B by multicast. The program checks
//! its results against a host reference (exact) and prints `Passed`; the outputs' hashes and
//! every counter below are the H200's (calibration/cutlass/h200_more/: cute_run.txt and Nsight
//! Compute's cute_ncu_a.csv / cute_ncu_b.csv).

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::cuda_root;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn cute_tma_store_and_multicast_gemms_equal_the_h200() {
    let dir = std::env::temp_dir().join(format!("warpscope-cute-more-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/cutlass/build_more.sh"))
        .arg(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build_more.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let export = dir.join("more.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            "--",
            "./cute_tma_more",
        ])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    // the program's own lines equal the H200's: hashes of C, `equal`, `Passed`
    let gpu = std::fs::read_to_string(repo().join("calibration/cutlass/h200_more/cute_run.txt")).unwrap();
    let want: String = gpu.lines().take(4).map(|l| format!("{l}\n")).collect();
    assert!(want.ends_with("Passed\n"), "{want}");
    assert!(stdout.starts_with(&want), "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 3);
    // per launch, as the H200 counted: (registers, wgmma instructions, their shared bytes and
    // wavefronts, TMA loads, stores, bytes loaded, sectors stored, global store requests, sectors)
    let h200 = [
        (
            "sw64_store",
            [
                90.0, 128.0, 196608.0, 1536.0, 32.0, 4.0, 196608.0, 2048.0, 0.0, 0.0,
            ],
        ),
        (
            "sw32_store",
            [
                154.0, 64.0, 163840.0, 1280.0, 32.0, 2.0, 163840.0, 2048.0, 0.0, 0.0,
            ],
        ),
        (
            "mcast",
            [
                58.0, 256.0, 262144.0, 2048.0, 32.0, 0.0, 262144.0, 0.0, 512.0, 4096.0,
            ],
        ),
    ];
    let keys = [
        "launch__registers_per_thread",
        "smsp__sass_inst_executed_op_shared_gmma.sum",
        "sm__sass_data_bytes_mem_shared_op_gmma.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
        "smsp__sass_inst_executed_op_tma_ld.sum",
        "smsp__sass_inst_executed_op_tma_st.sum",
        "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
        "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    ];
    for (l, (name, want)) in launches.iter().zip(h200) {
        assert!(
            l["findings"].as_array().unwrap().is_empty(),
            "{name}: {}",
            l["findings"]
        );
        let m = |k: &str| l["metrics"][k].as_f64().unwrap_or(f64::NAN);
        for (k, w) in keys.iter().zip(want) {
            assert_eq!(m(k), w, "{name} {k}");
        }
        assert_eq!(m("warpscope__global_counters_exact"), 1.0, "{name}");
        // the epilogue's 16-bit shared stores, paired by ptxas into 32-bit `STS` (the program is
        // built without line info: the PTX's stores and the machine code's are matched over the
        // whole kernel): 512 instructions and 4,096 wavefronts, as the H200 counted
        assert_eq!(m("warpscope__shared_counters_exact"), 1.0, "{name}");
        let (st, wavefronts) = if name == "mcast" {
            (0.0, 0.0)
        } else {
            (512.0, 4096.0)
        };
        assert_eq!(m("smsp__sass_inst_executed_op_shared_st.sum"), st, "{name}");
        assert_eq!(
            m("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
            wavefronts,
            "{name}"
        );
        // branch targets / divergent targets: the machine code followed past the mbarrier waits
        // (each completed by the block's own TMA loads: one try each, as on the H200), exact
        // and the H200's; mcast's waits are completed by the other block's multicast copy too,
        // so its counts stay labelled estimates (240 / 20 against the H200's 224 / 16)
        match name {
            "sw64_store" | "sw32_store" => {
                let want = if name == "sw64_store" {
                    (260.0, 12.0)
                } else {
                    (210.0, 14.0)
                };
                assert_eq!(m("warpscope__branch_counters_exact"), 1.0, "{name}");
                assert_eq!(m("smsp__sass_branch_targets.sum"), want.0, "{name}");
                assert_eq!(
                    m("smsp__sass_branch_targets_threads_divergent.sum"),
                    want.1,
                    "{name}"
                );
            }
            _ => assert_eq!(m("warpscope__branch_counters_exact"), 0.0, "{name}"),
        }
    }
}
