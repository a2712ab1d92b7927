//! `cudaOccupancyAvailableDynamicSMemPerBlock` under `warpscope run`: the 342 answers of
//! `calibration/occupancy/dynsmem.cu` (kernels with 0, 4 KB and 40 KB of static shared memory and a
//! register-bound one; 0 to 64 blocks of 32 to 2,048 threads; with and without
//! `cudaFuncAttributeMaxDynamicSharedMemorySize`) equal what an H200 printed; and the limits of
//! dynamic shared memory (`calibration/occupancy/dynlimit.cu`: launches over 48 KB with and without
//! the attribute, the attribute's bounds, `cudaFuncGetAttributes`), 30 lines equal to the H200's.

use std::process::Command;

mod support;
use support::{build_program, cuda_root, repo, scratch};

#[test]
fn available_dynamic_shared_memory_is_what_the_h200_answered() {
    let dir = scratch("dynsmem");
    build_program(
        dir.path(),
        "../../../../calibration/occupancy/dynsmem.cu",
        "dynsmem",
        &[],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--", "./dynsmem"])
        .current_dir(dir.path())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(!stderr.contains("not supported"), "{stderr}");
    let want = std::fs::read_to_string(repo().join("calibration/occupancy/h200/dynsmem.stdout")).unwrap();
    let want: Vec<&str> = want.lines().collect();
    assert_eq!(want.len(), 343);
    let got: Vec<&str> = stdout.lines().take(want.len()).collect();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(g, w, "line {}", i + 1);
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn dynamic_shared_memory_limits_are_the_h200s() {
    let dir = scratch("dynlimit");
    build_program(
        dir.path(),
        "../../../../calibration/occupancy/dynlimit.cu",
        "dynlimit",
        &[],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--", "./dynlimit"])
        .current_dir(dir.path())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read_to_string(repo().join("calibration/occupancy/h200/dynlimit.stdout")).unwrap();
    assert_eq!(want.lines().count(), 30);
    assert!(
        stdout.starts_with(&want),
        "--- warpscope run\n{stdout}\n--- H200\n{want}"
    );
}
