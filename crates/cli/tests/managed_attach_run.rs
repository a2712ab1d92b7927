//! `cudaStreamAttachMemAsync` (managed memory attached to a stream, as programs written for
//! devices without concurrent managed access do) was refused as not supported, failing the program
//! (calibration/run/bench14/managed.cu). It is accepted; unknown flags and a single attachment to
//! the legacy default stream are `cudaErrorInvalidValue` (own program data/attachMem.cu).

use std::process::Command;

mod support;
use support::{cuda_root, repo};

#[test]
fn attaching_managed_memory_to_a_stream_is_accepted() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "crates/cli/tests/data/attachMem.cu"])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{printed}{stderr}");
    assert!(
        printed
            .lines()
            .any(|l| l == "single 0 global 0 flag 1 legacy 1 wrong 0"),
        "{printed}"
    );
    assert!(printed.lines().any(|l| l == "PASS"), "{printed}");
    assert!(!stderr.contains("not supported"), "{stderr}");
}
