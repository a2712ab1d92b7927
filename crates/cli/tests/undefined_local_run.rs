//! A read of local memory the thread never stored, under `warpscope run`: the emulation reads
//! zero there, a GPU whatever the memory held, so a branch or address that follows the value may
//! go elsewhere on the GPU. tests/data/localUnstored.cu's `unstored` reads such a slot (lane 0
//! stores none of its array) and loops as often as the value says; ptxas keeps the array in
//! registers, so the machine code has no local load for its flow to notice, and the PTX
//! emulation's own record of the stored bytes makes the launch's branch, shared and global
//! counters estimates, the load named. `stored`, its twin that clears the array first, keeps its
//! exact labels.

mod support;
use support::run_exported;

#[test]
fn a_branch_on_a_never_stored_local_slot_makes_the_counters_estimates() {
    let ran = run_exported("undefined-local", "crates/cli/tests/data/localUnstored.cu");
    // the notes, wherever the run prints them
    let said = ran.said();
    assert!(
        said.contains("estimates for unstored") && said.contains("never stored"),
        "{said}"
    );
    let v = &ran.export;
    let launches = v["launches"].as_array().unwrap();
    let find = |name: &str| {
        launches
            .iter()
            .find(|l| l["kernel"].as_str().unwrap().starts_with(name))
            .unwrap_or_else(|| panic!("no launch of {name}"))
    };
    let keys = [
        "warpscope__branch_counters_exact",
        "warpscope__shared_counters_exact",
        "warpscope__global_counters_exact",
    ];
    let unstored = find("unstored(");
    for k in keys {
        assert_eq!(unstored["metrics"][k], 0.0, "unstored: {k}");
    }
    let why = unstored["undefined_local_read"].as_str().unwrap_or_default();
    assert!(
        why.contains("never stored") && why.contains("line 14") && why.contains("ld.local"),
        "unstored: `{why}`"
    );
    let stored = find("stored(");
    assert!(
        stored["undefined_local_read"].is_null(),
        "{}",
        stored["undefined_local_read"]
    );
    for k in keys {
        assert_eq!(stored["metrics"][k], 1.0, "stored: {k}");
    }
    // the two run the same loops on lanes 1..31, and lane 0 reads 0 in both
    for k in [
        "smsp__sass_branch_targets.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    ] {
        assert_eq!(unstored["metrics"][k], stored["metrics"][k], "{k}");
    }
}
