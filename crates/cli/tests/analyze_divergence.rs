//! `warpscope analyze` reports divergence: seed 002's kernels built with `-G`, checked against the
//! branch counts Nsight Compute measured on an H100 (docs/divergence.md,
//! calibration/bugs/divergence/ncu_h100.tsv): mathKernel1 640 targets / 128 divergent (80 %),
//! mathKernel2 576 / 0 (100 %), 64 blocks of 64 threads.

use std::process::Command;

fn analyze_json(kernel: &str) -> serde_json::Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(root)
        .args([
            "analyze",
            "calibration/bugs/divergence/simpleDivergence_G.ptx",
            "--kernel",
            kernel,
            "--grid",
            "64",
            "--block",
            "64",
            "--arg",
            "buf:16384",
            "--ptx-widths",
            "--format",
            "json",
        ])
        .output()
        .expect("run warpscope");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

#[test]
fn math_kernel1_is_80_percent_in_g_machine_code() {
    let j = analyze_json("mathKernel1");
    let t = &j["divergence"]["totals"];
    // PTX level: the `tid % 2` branch diverges in every warp.
    assert_eq!(t["divergent"], 128);
    assert_eq!(t["targets"], 512);
    let m = &t["debug_machine_estimate"];
    assert_eq!(m["targets"], 640);
    assert_eq!(m["divergent"], 128);
    assert_eq!(m["branch_efficiency_pct"], 80.0);
    // The divergent branch is on the `if` line; both arms run with half the lanes.
    let lines = j["divergence"]["lines"].as_array().unwrap();
    let divergent: Vec<_> = lines.iter().filter(|l| l["divergent"] != 0).collect();
    assert_eq!(divergent.len(), 1, "{lines:?}");
    assert_eq!(divergent[0]["branch_efficiency_pct"], 50.0);
    assert!(lines.iter().any(|l| l["utilisation_pct"] == 50.0));
}

#[test]
fn math_kernel2_is_uniform() {
    let j = analyze_json("mathKernel2");
    let t = &j["divergence"]["totals"];
    assert_eq!(t["divergent"], 0);
    assert_eq!(t["branch_efficiency_pct"], 100.0);
    assert_eq!(t["debug_machine_estimate"]["targets"], 576);
    assert_eq!(t["utilisation_pct"], 100.0);
}
