//! calibration/run/bench2's programs (benchmark-shaped: stencils, BFS, LU with pivoting, image
//! filters, Needleman-Wunsch, a B+-tree search, RK4, k-means, a particle filter, a switch
//! interpreter) under `warpscope run`, against what an H200 printed and counted
//! (calibration/run/bench2/h200/, measured by `ncu.sh`): each program prints what the GPU printed;
//! every launch whose branch counters are labelled exact equals the H200's branch targets and
//! divergent targets; and at least the launches listed below are labelled exact (the flow
//! follows them), so a change that loses them fails.

use std::process::Command;

use serde_json::Value;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

const BRANCH: [&str; 2] = [
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
];

/// Runs `program`, checks its output and its exact branch counters; returns (launches, exact).
fn check(program: &str) -> (usize, usize) {
    let dir = std::env::temp_dir().join(format!("warpscope-bench2-{program}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = dir.join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            &format!("calibration/run/bench2/{program}.cu"),
        ])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let gpu_out =
        std::fs::read_to_string(repo().join(format!("calibration/run/bench2/h200/{program}.stdout")))
            .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    // the program's own lines (warpscope's table follows them)
    for line in gpu_out.lines().filter(|l| !l.starts_with("==")) {
        assert!(
            printed.lines().any(|p| p == line),
            "{program}: the GPU printed `{line}`"
        );
    }
    let h200 = read_ncu_csv(&repo().join(format!("calibration/run/bench2/h200/{program}.ncu.csv")));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), h200.len(), "{program}: launches");
    let mut exact = 0;
    for l in launches {
        let m = &l["metrics"];
        if m["warpscope__branch_counters_exact"] != 1.0 {
            continue;
        }
        exact += 1;
        let id = l["id"].as_u64().unwrap();
        for k in BRANCH {
            assert_eq!(
                m[k].as_f64().unwrap(),
                h200[&id].1[k],
                "{program} launch {id} ({}): {k}",
                l["kernel"]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (launches.len(), exact)
}

macro_rules! program {
    ($name:ident, $launches:expr, $exact:expr) => {
        #[test]
        fn $name() {
            let (n, exact) = check(stringify!($name));
            assert_eq!(n, $launches);
            assert!(
                exact >= $exact,
                "{} launches labelled exact, expected at least {}",
                exact,
                $exact
            );
        }
    };
}

program!(stencil, 8, 8);
program!(bfs, 16, 16);
program!(lud, 40, 30);
program!(conv, 4, 4);
program!(nw, 15, 15);
program!(btree, 2, 2);
program!(rk4, 2, 2);
program!(kmeans, 24, 24);
program!(pfilter, 15, 10);
program!(switch, 2, 1);
program!(switch2, 10, 10);
