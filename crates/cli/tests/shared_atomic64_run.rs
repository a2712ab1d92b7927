//! A 64-bit `atomicAdd` on shared memory under `warpscope run`: ptxas turns it into a loop on
//! `ATOMS.CAST.SPIN.64` (a compare-and-swap that writes its success) that one lane of each warp
//! runs until it succeeds. The machine code's flow kept the value it had computed for the swap's
//! destination registers, so the loop's exit test never held there and the flow ran on (the
//! program never finished). An atomic's result is unknown to the flow: it stops at the loop's
//! branch, and the launch's branch counters are estimates that say so.

mod support;
use support::run_exported;

#[test]
fn a_shared_64_bit_atomic_add_runs_to_the_end() {
    let ran = run_exported("shared-atomic64", "crates/cli/tests/data/sharedAtomic64.cu");
    assert!(
        ran.stdout.lines().any(|l| l == "counts 256 256"),
        "{}",
        ran.stdout
    );
    let launches = ran.export["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 1);
    let m = &launches[0]["metrics"];
    assert_eq!(m["warpscope__branch_counters_exact"], 0.0);
    let said = ran.said();
    assert!(said.contains("branch on an unknown value"), "{said}");
    // the loop runs as often as the warps' contention makes it: the shared counters are estimates
    // too, naming the atomic's line
    assert_eq!(m["warpscope__shared_counters_exact"], 0.0);
    assert_eq!(
        launches[0]["shared_retry_loop"],
        "device_atomic_functions.hpp:226"
    );
    assert!(said.contains("a compare-and-swap retry loop"), "{said}");
}
