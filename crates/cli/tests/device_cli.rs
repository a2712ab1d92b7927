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

/// The CSV's `device__attribute_*` columns are Nsight Compute metrics, with ncu's values: the H100's
/// saved `warpscope device` JSON printed as CSV beside ncu's raw page of the same machine
/// (calibration/device/).
#[test]
fn csv_columns_are_ncu_metrics_with_ncu_values() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/device");
    let ncu: std::collections::HashMap<String, String> =
        std::fs::read_to_string(dir.join("ncu_raw_h100.tsv"))
            .unwrap()
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[2].replace(',', ""))
            })
            .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["device", "--format", "csv", "--from"])
        .arg(dir.join("warpscope_device_h100.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(head.len(), row.len(), "{text}");
    let mut checked = 0;
    for (name, value) in head.iter().zip(&row) {
        if !name.starts_with("device__") {
            continue;
        }
        let want = ncu
            .get(*name)
            .unwrap_or_else(|| panic!("{name} is not an ncu metric"));
        assert_eq!(value, want, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 33);
}
