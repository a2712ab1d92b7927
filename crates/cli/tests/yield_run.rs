//! calibration/yield's program (written for this project): loops ptxas gives a `YIELD` (walks
//! through volatile loads of a table no thread of the launch writes, a lane's own volatile counter,
//! a root search in a device function, a spin on a flag another warp sets) in eighteen shapes,
//! built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what an H200 printed
//! and counted (calibration/yield/h200/, measured by `run-h200.sh` on this binary). On the H200
//! the lanes leaving such a loop on different iterations run the code after it apart, each group
//! alone, up to a warp sync or the end: the flow follows that, and the launches where it is the
//! rule are exact; the four the rule does not cover are estimates with the reason.

mod support;
support::bench_programs!(built "calibration/yield");

// 14 exact in branch and global counters; ySpin (the GPU's timing), yBreak (two exits), yTwo and
// yNested (a second YIELD loop) are estimates
program!(yloops, 18, [14, 18, 14]);

/// Which launches are exact, which estimates, and why.
#[test]
fn yield_shapes_the_rule_does_not_cover_are_estimates_with_the_reason() {
    let bin = support::built("calibration/yield").join("yloops");
    let ran = support::run_exported("yloops", bin.to_str().unwrap());
    let launches = ran.export["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 18, "{}", ran.said());
    let ncu = support::read_ncu_csv(&support::repo().join("calibration/yield/h200/yloops.ncu.csv"));
    for l in launches {
        let id = l["id"].as_u64().unwrap();
        let name = l["kernel"].as_str().unwrap();
        let m = &l["metrics"];
        let estimate = ["yBreak", "yTwo", "yNested", "ySpin"]
            .iter()
            .any(|k| name.starts_with(k));
        for flag in [
            "warpscope__branch_counters_exact",
            "warpscope__global_counters_exact",
        ] {
            assert_eq!(
                m[flag],
                if estimate { 0.0 } else { 1.0 },
                "launch {id} {name}: {flag}"
            );
        }
        let (_, hw) = &ncu[&id];
        for (flag, keys) in support::GROUPS {
            if m[flag] == 1.0 {
                for k in keys.iter() {
                    assert_eq!(
                        m[*k].as_f64().unwrap(),
                        hw[*k],
                        "launch {id} {name}: {k} labelled exact"
                    );
                }
            }
        }
        // the walks' trips are the program's (the flow read only words no other thread wrote):
        // no spin-loop label; ySpin waits for another warp's store
        assert_eq!(
            m.get("warpscope__spin_loop").is_some(),
            name.starts_with("ySpin"),
            "launch {id} {name}"
        );
    }
    let said = ran.said();
    assert!(said.contains("a YIELD loop with more than one exit"), "{said}");
    assert!(said.contains("more than one YIELD loop"), "{said}");
}

/// `analyze` counts a kernel with a YIELD loop as `run` does (the machine code's flow on every
/// launch, the same reasons for estimates): per kernel, the machine code's branch counters and
/// their label equal the export's for the same launch, on the table yloops' host code fills.
#[test]
fn analyze_counts_yield_loops_as_run_does() {
    let bin = support::built("calibration/yield").join("yloops");
    let ran = support::run_exported("yloops-analyze", bin.to_str().unwrap());
    let launches = ran.export["launches"].as_array().unwrap();
    // the host's table (yloops.cu's `main`: one draw for `next`, then those of the other tables)
    let mut s: u32 = 5;
    let mut rnd = || {
        s = s.wrapping_mul(1103515245).wrapping_add(12345);
        s >> 16
    };
    let mut next = Vec::new();
    for v in 0..16384u32 {
        let r = rnd() % 9;
        let n: i32 = if r == 0 || v < 3 {
            -1
        } else {
            (v - 1 - r % 3) as i32
        };
        next.extend_from_slice(&n.to_le_bytes());
        // parent (two draws unless the first is 0 mod 7 or v == 0), mark, tgt
        if rnd() % 7 != 0 && v != 0 {
            rnd();
        }
        rnd();
        rnd();
    }
    let dir = support::scratch("yloops-next");
    let table = dir.path().join("next.bin");
    std::fs::write(&table, &next).unwrap();
    let table_arg = format!("buf:@{}", table.display());
    let out = "buf:65536:zero";
    // (launch, kernel, its arguments after the table)
    let cases: [(u64, &str, &[&str]); 8] = [
        (0, "yWalk", &[out]),
        (1, "pWalk", &[out]),
        (2, "yBranch", &[out, out]),
        (6, "yInIf", &[out, out, "i32:3"]),
        (8, "yOneSide", &[out, out, "i32:2"]),
        (9, "ySkip", &[out]),
        (10, "yNested", &[out]),
        (12, "yTwo", &[out, out]),
    ];
    for (id, kernel, rest) in cases {
        let l = launches.iter().find(|l| l["id"] == id).unwrap();
        assert!(l["kernel"].as_str().unwrap().starts_with(kernel), "launch {id}");
        let mut args = vec![
            "analyze".to_string(),
            bin.to_str().unwrap().to_string(),
            "-k".into(),
            kernel.into(),
            "--grid".into(),
            "128".into(),
            "--block".into(),
            "128".into(),
            // (the banks section reads the machine code)
            "--section".into(),
            "banks,divergence".into(),
            "--format".into(),
            "json".into(),
            "--arg".into(),
            table_arg.clone(),
        ];
        for a in rest {
            args.extend(["--arg".to_string(), a.to_string()]);
        }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(&args)
            .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{kernel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let mc = &j["divergence"]["machine_counters"];
        let m = &l["metrics"];
        for k in [
            "smsp__sass_branch_targets.sum",
            "smsp__sass_branch_targets_threads_divergent.sum",
        ] {
            assert_eq!(mc[k].as_f64(), m[k].as_f64(), "{kernel}: {k}");
        }
        let exact = m["warpscope__branch_counters_exact"] == 1.0;
        assert_eq!(mc["exact"], exact, "{kernel}: label");
        // the walks the rule covers are exact; a second YIELD loop keeps the estimate
        assert_eq!(exact, !matches!(kernel, "yNested" | "yTwo"), "{kernel}");
        if !exact {
            let why = j["divergence"]["machine_flow"]["Err"]
                .as_str()
                .unwrap_or_default();
            assert!(why.contains("leave a loop with a YIELD apart"), "{kernel}: {j}");
        }
    }
}
