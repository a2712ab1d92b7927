//! `warpscope device` on a machine without a GPU (this one and CI): a clear message, status 1.
//! On a machine with a GPU the test checks the JSON instead.

use std::process::Command;

#[test]
fn device_without_gpu_exits_1_with_a_message_or_lists_gpus() {
    let driver_here = warpscope_gpu::driver_present();
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["device", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if driver_here && out.status.success() {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v.as_array().is_some_and(|a| !a.is_empty()), "{v}");
        assert!(v[0]["multiprocessors"].as_u64().unwrap() > 0);
    } else {
        assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
        assert!(stderr.starts_with("warpscope: "), "{stderr}");
        assert!(
            stderr.contains("no CUDA driver") || stderr.contains("no GPU"),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn device_rejects_an_unknown_format_with_status_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["device", "--format", "xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
