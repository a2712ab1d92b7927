//! Float sums made by `atomicAdd` (their last bits depend on the order the GPU ran the adds) under
//! `warpscope run` (crates/cli/tests/data/floatSums.cu): a launch where a value of them decides a
//! branch is labelled an estimate naming the line and the launch that made the sums; one that only
//! scales them into floats stays exact, and so do the sums' own launch and an integer sum's reader
//! (an integer sum is the same in any order); a launch deciding on floats computed from the sums
//! is an estimate too.

mod support;
use support::run_exported;

#[test]
fn decisions_on_float_sums_are_estimates_and_float_copies_are_not() {
    let ran = run_exported("float-sums", "crates/cli/tests/data/floatSums.cu");
    assert!(
        ran.stdout.lines().any(|l| l.starts_with("sums ")),
        "{}",
        ran.stdout
    );
    let launches = ran.export["launches"].as_array().unwrap();
    let kernels: Vec<&str> = launches
        .iter()
        .map(|l| l["kernel"].as_str().unwrap().split('(').next().unwrap())
        .collect();
    assert_eq!(
        kernels,
        ["sumF", "decideF", "scaleF", "decideD", "sumI", "decideI"]
    );
    for (l, k) in launches.iter().zip(&kernels) {
        let m = &l["metrics"];
        let deciding = matches!(*k, "decideF" | "decideD");
        let flags = [
            "warpscope__branch_counters_exact",
            "warpscope__global_counters_exact",
        ];
        for f in flags {
            assert_eq!(m[f], if deciding { 0.0 } else { 1.0 }, "{k} {f}");
        }
        // no shared memory: its counters cannot change
        assert_eq!(m["warpscope__shared_counters_exact"], 1.0, "{k}");
        if deciding {
            assert_eq!(m["warpscope__float_sum_order"], 0.0, "{k}");
            let why = l["float_sum_order"].as_str().unwrap();
            let line = if *k == "decideF" { "line 12" } else { "line 20" };
            assert!(why.starts_with(line), "{k}: {why}");
            assert!(why.contains("launch 0 sumF"), "{k}: {why}");
        } else {
            assert!(m.get("warpscope__float_sum_order").is_none(), "{k}");
            assert!(l.get("float_sum_order").is_none(), "{k}");
        }
    }
    let said = ran.said();
    assert!(
        said.contains("branch and global counters are estimates for decideD") && said.contains("atomicAdd"),
        "{said}"
    );
}

/// crates/cli/tests/data/floatBins.cu: a float sum picks a bin; the histogram counted there
/// (`atomicAdd(&hist[bin], 1)`) and the flags stored there hold values that follow the sums'
/// rounding, so the launches that branch on them are estimates with the reason the picking launch
/// had (the launch that made the sums); a launch that only scales the counts into floats, and one
/// that reads a histogram counted at bins no sum picked, stay exact.
#[test]
fn counts_at_a_bin_a_sum_picked_are_order_dependent() {
    let ran = run_exported("float-bins", "crates/cli/tests/data/floatBins.cu");
    assert!(
        ran.stdout.lines().any(|l| l.starts_with("bins ")),
        "{}",
        ran.stdout
    );
    let launches = ran.export["launches"].as_array().unwrap();
    let kernels: Vec<&str> = launches
        .iter()
        .map(|l| l["kernel"].as_str().unwrap().split('(').next().unwrap())
        .collect();
    assert_eq!(
        kernels,
        [
            "sumF", "pickBin", "markBin", "useHist", "useFlags", "copyHist", "usePlain"
        ]
    );
    for (l, k) in launches.iter().zip(&kernels) {
        let m = &l["metrics"];
        let line = match *k {
            "pickBin" => Some("line 16"),
            "markBin" => Some("line 21"),
            "useHist" => Some("line 25"),
            "useFlags" => Some("line 29"),
            _ => None,
        };
        for f in [
            "warpscope__branch_counters_exact",
            "warpscope__global_counters_exact",
        ] {
            assert_eq!(m[f], if line.is_some() { 0.0 } else { 1.0 }, "{k} {f}");
        }
        match line {
            Some(line) => {
                assert_eq!(m["warpscope__float_sum_order"], 0.0, "{k}");
                let why = l["float_sum_order"].as_str().unwrap();
                assert!(why.starts_with(line), "{k}: {why}");
                assert!(why.contains("launch 0 sumF"), "{k}: {why}");
            }
            None => {
                assert!(m.get("warpscope__float_sum_order").is_none(), "{k}");
                assert!(l.get("float_sum_order").is_none(), "{k}");
            }
        }
    }
}
