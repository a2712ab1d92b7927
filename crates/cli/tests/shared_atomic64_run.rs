//! A 64-bit `atomicAdd` on shared memory under `warpscope run`: ptxas turns it into a loop on
//! `ATOMS.CAST.SPIN.64` (a compare-and-swap that writes its success) that one lane of each warp
//! runs until it succeeds. The machine code's flow kept the value it had computed for the swap's
//! destination registers, so the loop's exit test never held there and the flow ran on (the
//! program never finished). An atomic's result is unknown to the flow: it stops at the loop's
//! branch, and the launch's branch counters are estimates that say so.

use std::process::Command;

use serde_json::Value;

mod support;
use support::{cuda_root, repo, scratch};

#[test]
fn a_shared_64_bit_atomic_add_runs_to_the_end() {
    let dir = scratch("shared-atomic64");
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            "crates/cli/tests/data/sharedAtomic64.cu",
        ])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.lines().any(|l| l == "counts 256 256"), "{printed}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 1);
    let m = &launches[0]["metrics"];
    assert_eq!(m["warpscope__branch_counters_exact"], 0.0);
    let said = format!("{printed}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("branch on an unknown value"), "{said}");
}
