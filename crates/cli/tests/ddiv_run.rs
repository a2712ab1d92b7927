//! calibration/ddiv/ddiv_branch.cu under `warpscope run`: 361 launches, one double division per
//! warp, pairs around every edge of ptxas's fast-path test. Every launch's branch counters are
//! labelled exact and equal what an H200 counted (calibration/ddiv/h200_branch_ncu.csv): the flow
//! follows the Newton sequence from the H200's own `MUFU.RCP64H` seed (calibration/rcp64h/), the
//! fast-path test and the slow-path subroutine's branches on `DFMA`/`DMUL` results.

use std::collections::HashMap;

mod support;
use support::{repo, run_exported};

#[test]
fn double_division_branch_counters_labelled_exact_equal_the_h200() {
    let ran = run_exported("ddiv", "calibration/ddiv/ddiv_branch.cu");
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
    let v = &ran.export;
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
