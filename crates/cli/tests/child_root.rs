//! `warpscope run` hands the program's process the CUDA root it found itself: the runtime there
//! disassembles the program's cubins with that toolkit's nvdisasm, and its own search would look
//! beside the program rather than beside warpscope (a pip-installed warpscope finds its wheels
//! beside its executable). Here warpscope finds the toolkit through `CUDA_HOME` only
//! (`WARPSCOPE_CUDA_ROOT` unset); the program prints what its process was given, and the launch's
//! widths come from the machine code.

mod support;

use std::process::Command;

#[test]
fn the_programs_process_gets_the_toolkit_warpscope_found() {
    let root = support::cuda_root();
    let dir = support::scratch("child-root");
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            "crates/cli/tests/data/childRoot.cu",
        ])
        .current_dir(support::repo())
        .env_remove("WARPSCOPE_CUDA_ROOT")
        .env("CUDA_HOME", &root)
        .env("WARPSCOPE_CUDA_SEARCH", "env")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains(&format!("root {root}\n")), "{said}");
    assert!(said.contains("h[63] = 63"), "{said}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let widths = v["launches"][0]["widths"].as_str().unwrap();
    assert!(widths.contains("machine code"), "{widths}");
}
