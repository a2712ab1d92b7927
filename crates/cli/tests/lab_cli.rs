//! `warpscope lab` without a GPU: `--list` works, an unknown experiment is bad input (2), and a run
//! needs a GPU (status 1 with a message, no panic).

use std::process::Command;

fn ws(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn list_names_every_experiment() {
    let out = ws(&["lab", "--list"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "device",
            "smem",
            "divergence",
            "adjdiff",
            "streams",
            "hostmem",
            "regs",
            "transpose",
            "occupancy"
        ]
    );
}

#[test]
fn unknown_experiment_is_bad_input() {
    let out = ws(&["lab", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown experiment `nosuch`") && err.contains("transpose"),
        "{err}"
    );
}

#[test]
fn lab_without_gpu_exits_1() {
    if warpscope_gpu::driver_present() {
        // A machine with a driver runs the experiment instead; the device machine covers that.
        let out = ws(&["lab", "device", "--no-ncu"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        return;
    }
    let out = ws(&["lab", "device", "--no-ncu"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no CUDA driver"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
