//! calibration/ddiv/ddiv_branch.cu under `warpscope run`: 361 launches, one double division per
//! warp, pairs around every edge of ptxas's fast-path test. Every launch's branch counters are
//! labelled exact and equal what an H200 counted (calibration/ddiv/h200_branch_ncu.csv): the flow
//! follows the Newton sequence from the H200's own `MUFU.RCP64H` seed (calibration/rcp64h/), the
//! fast-path test and the slow-path subroutine's branches on `DFMA`/`DMUL` results.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn double_division_branch_counters_labelled_exact_equal_the_h200() {
    let dir = std::env::temp_dir().join(format!("warpscope-ddiv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = dir.join("ddiv.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            "calibration/ddiv/ddiv_branch.cu",
        ])
        .current_dir(repo())
        .env(
            "WARPSCOPE_CUDA_ROOT",
            std::env::var("WARPSCOPE_CUDA_ROOT")
                .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)"),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(repo().join("calibration/ddiv/h200_branch_ncu.csv")).unwrap();
    let mut h200 = HashMap::new();
    for line in csv
        .lines()
        .filter(|l| l.starts_with('"') && l.contains("smsp__sass_branch_targets.sum"))
    {
        let f: Vec<&str> = line.split("\",\"").map(|x| x.trim_matches('"')).collect();
        h200.insert(
            f[0].parse::<u64>().unwrap(),
            f[f.len() - 1].parse::<f64>().unwrap(),
        );
    }
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 361);
    let mut exact = 0;
    for l in launches {
        let m = &l["metrics"];
        if m["warpscope__branch_counters_exact"] != 1.0 {
            continue;
        }
        exact += 1;
        let id = l["id"].as_u64().unwrap();
        assert_eq!(
            m["smsp__sass_branch_targets.sum"].as_f64().unwrap(),
            h200[&id],
            "launch {id}"
        );
    }
    assert_eq!(exact, 361, "launches with exact branch counters");
}
