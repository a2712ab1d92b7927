//! Indirect calls under `warpscope run` and `analyze` (calibration/indirect/*.cu, built here with
//! the wheels' nvcc by calibration/indirect/build.sh): function-pointer tables selected by data
//! (one function per warp, and four in every warp), a function address taken in code, and virtual
//! methods of objects the device constructs. The program's output equals the H200's byte for byte
//! (calibration/indirect/h200/indirect.stdout, which the program's own host check also passes);
//! a call through a pointer that is no function's stops the launch with the H200's error; the
//! machine code's branch flow follows every indirect `CALL` to the function each lane's pointer
//! names, and every launch's branch counters are labelled exact and equal the H200's.

use std::path::PathBuf;
use std::process::Command;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

/// The H200's ncu CSV: per launch in order, (kernel name, targets, divergent).
fn h200_branches() -> Vec<(String, f64, f64)> {
    read_ncu_csv(&repo().join("calibration/indirect/h200/indirect.ncu.csv"))
        .into_values()
        .map(|(name, m)| {
            let get = |k: &str| m.get(k).copied().unwrap_or(0.0);
            (
                name,
                get("smsp__sass_branch_targets.sum"),
                get("smsp__sass_branch_targets_threads_divergent.sum"),
            )
        })
        .collect()
}

/// Builds the programs into a folder of the test's own (tests run in parallel).
fn build(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-indirect-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    support::build("calibration/indirect/build.sh", &dir);
    dir
}

#[test]
fn function_pointers_and_virtual_methods_run_as_on_the_h200() {
    let dir = build("run");
    let export = dir.join("indirect.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--", "./indirect"])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read_to_string(repo().join("calibration/indirect/h200/indirect.stdout")).unwrap();
    assert!(want.ends_with("PASSED (0 wrong)\n"), "the GPU's own check");
    assert!(
        stdout.starts_with(&want),
        "output differs from the H200's\n--- warpscope run\n{stdout}\n--- H200\n{want}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    let hw = h200_branches();
    assert_eq!(launches.len(), hw.len());
    assert_eq!(launches.len(), 6);
    // every launch is followed through its indirect calls: labelled exact, and equal to the H200
    for (l, (name, targets, divergent)) in launches.iter().zip(&hw) {
        let m = &l["metrics"];
        assert_eq!(
            m["warpscope__branch_counters_exact"].as_f64(),
            Some(1.0),
            "{name}: {}",
            l["machine_flow_stop"]
        );
        assert_eq!(
            m["smsp__sass_branch_targets.sum"].as_f64(),
            Some(*targets),
            "{name}"
        );
        assert_eq!(
            m["smsp__sass_branch_targets_threads_divergent.sum"].as_f64(),
            Some(*divergent),
            "{name}"
        );
    }
    // (the H200's own figures, calibration/indirect/README.md: 4 warps with 4 functions each
    // count 3 divergent targets at the call and return in 4 groups)
    assert_eq!(hw[1].1, 28.0);
    assert_eq!(hw[1].2, 12.0);
}

#[test]
fn a_call_through_a_pointer_to_no_function_stops_as_on_the_h200() {
    let dir = build("badcall");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--", "./badcall"])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let gpu = std::fs::read_to_string(repo().join("calibration/indirect/h200/badcall.txt")).unwrap();
    let tail = "launch: cudaErrorInvalidPc (invalid program counter)";
    assert!(gpu.lines().next().unwrap().ends_with(tail), "{gpu}");
    let line = stdout.lines().next().unwrap_or_default();
    assert!(line.ends_with(tail), "{line}\n{stderr}");
    // the emulator names the lane and the value (lane 5 holds 0x1234, as compute-sanitizer says)
    assert!(
        stderr.contains("thread (5,0,0) of block (0,0,0) through a function pointer holding 0x1234"),
        "{stderr}"
    );
}

#[test]
fn analyze_follows_the_machine_codes_indirect_call() {
    let dir = build("analyze");
    let json = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("analyze")
        .arg(dir.join("indirect"))
        .args(["--kernel", "fptr_divergent", "--grid", "2", "--block", "64"])
        .args(["--arg", "buf:512", "--arg", "buf:512", "--arg", "buf:512:zero"])
        .args(["--section", "divergence,banks", "--format", "json"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    // the branches do not match the PTX's line for line (the PTX dispatches by compares), so the
    // machine code's flow ran, through the `CALL.REL.NOINC R10`, to its end
    assert_eq!(
        v["divergence"]["machine_flow"],
        serde_json::json!({"Ok": null}),
        "{v}"
    );
    let text = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("analyze")
        .arg(dir.join("indirect"))
        .args(["--kernel", "fptr_divergent", "--grid", "2", "--block", "64"])
        .args(["--arg", "buf:512", "--arg", "buf:512", "--arg", "buf:512:zero"])
        .args(["--section", "divergence,banks"])
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(text.status.success(), "{}", String::from_utf8_lossy(&text.stderr));
    assert!(
        !stdout.contains("the machine code's branch counters are estimates"),
        "{stdout}"
    );
}
