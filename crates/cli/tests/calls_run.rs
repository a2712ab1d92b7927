//! calibration/run/calls: own kernels calling functions ptxas keeps as real calls (a recursion
//! whose depth differs by lane, a callee with a divergent branch and loop, the same callee from
//! both sides of a branch, function pointers from a table), built three ways (`-O2 -rdc=true` over
//! two units, `-G -rdc=true`, `-G` as one unit), under `warpscope run` against what an H200
//! printed and counted (`h200/`, `run.sh`: the branch counters alone, three passes each, equal).
//! The machine-code flow follows every call into its callee: every launch's branch targets and
//! divergent targets equal the H200's, and every launch but `bothSides` (two groups inside one
//! convergence barrier at once: an estimate by the flow's own rule, equal here) is labelled exact.

mod support;

fn replay(program: &str) -> serde_json::Value {
    let bin = support::built("calibration/run/calls").join(program);
    let ran = support::run_exported(&format!("calls-{program}"), bin.to_str().unwrap());
    let h200 = support::repo().join("calibration/run/calls/h200");
    let gpu_out = std::fs::read_to_string(h200.join(format!("{program}.stdout"))).unwrap();
    let printed = &ran.stdout;
    let theirs: Vec<&str> = gpu_out.lines().collect();
    let mine: Vec<&str> = printed.lines().take(theirs.len()).collect();
    assert_eq!(mine, theirs, "{program}: the GPU's output");
    let ncu = support::read_ncu_csv(&h200.join(format!("{program}.branch1.csv")));
    let launches = ran.export["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 4, "{program}: launches");
    for l in launches {
        let id = l["id"].as_u64().unwrap();
        let kernel = l["kernel"].as_str().unwrap();
        let (name, hw) = &ncu[&id];
        assert_eq!(support::kernel_stem(kernel), support::kernel_stem(name));
        let m = &l["metrics"];
        for k in [
            "smsp__sass_branch_targets.sum",
            "smsp__sass_branch_targets_threads_divergent.sum",
        ] {
            assert_eq!(
                m[k].as_f64().unwrap(),
                hw[k],
                "{program} launch {id} ({kernel}): {k}"
            );
        }
        let exact = m["warpscope__branch_counters_exact"].as_f64().unwrap();
        assert_eq!(
            exact,
            if kernel.starts_with("bothSides") { 0.0 } else { 1.0 },
            "{program} launch {id} ({kernel}): branch counters labelled exact"
        );
    }
    ran.export
}

#[test]
fn rdc() {
    replay("calls_rdc");
}

#[test]
fn debug_rdc() {
    replay("calls_grdc");
}

#[test]
fn debug_one_unit() {
    replay("calls_g");
}

/// calibration/run/calls/switch.cu: dense switches inside functions ptxas keeps apart, whose jump
/// tables (`LDC` from constant bank 2, then `BRX`) the device linker (and ptxas for one unit)
/// places in each calling kernel's own bank 2, beside the kernel's own table (`mixed`) and behind
/// a function pointer (`pointers`). The flow reads the kernel's bank, follows each callee's `BRX`
/// to its lanes' cases, and every launch of the four builds is labelled exact and equals the
/// H200 (three identical ncu passes each, `h200/sw_*`).
fn replay_switch(program: &str) {
    let export = replay(program);
    for l in export["launches"].as_array().unwrap() {
        assert_eq!(
            l["metrics"]["warpscope__branch_counters_from_machine_flow"], 1.0,
            "{program} {}: branch counters from the machine-code flow",
            l["kernel"]
        );
    }
}

#[test]
fn switch_in_callees_one_unit() {
    replay_switch("sw_o2");
}

#[test]
fn switch_in_callees_rdc() {
    replay_switch("sw_rdc");
}

#[test]
fn switch_in_callees_debug() {
    replay_switch("sw_g");
}

#[test]
fn switch_in_callees_debug_rdc() {
    replay_switch("sw_grdc");
}
