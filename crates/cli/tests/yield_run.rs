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
