//! Device memory mapped from a file the host may page out (crates/emu/src/spill.rs): with every
//! region spilled (`WARPSCOPE_SPILL_FROM_MB=0`) and a resident budget of 0 (the watcher drops the
//! pages of every spilled region every 10 ms, while the launches read, write and poll them from
//! several host threads), whole programs print the same bytes and write the same export as with
//! spilling off: blocks that wait on each other through global memory (a grid barrier made by hand
//! from atomics and fences, calibration/run/gridspin) and a last-block-done reduction.

use std::process::{Command, Output};

mod support;

const SET: &str = "calibration/run/gridspin";

fn run(program: &str, threads: u32, spill: bool, export: &std::path::Path) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    c.args(["run", "--export"])
        .arg(export)
        .arg("--")
        .arg(support::built(SET).join(program))
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .env("RAYON_NUM_THREADS", threads.to_string());
    if spill {
        c.env("WARPSCOPE_SPILL_FROM_MB", "0")
            .env("WARPSCOPE_RESIDENT_MB", "0");
    } else {
        c.env("WARPSCOPE_SPILL", "0");
    }
    c.output().unwrap()
}

fn same_with_spilled_memory(program: &str) {
    let dir = support::scratch("spill");
    let reference = dir.path().join(format!("{program}-anon.json"));
    let out = run(program, 2, false, &reference);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want = (out.stdout, std::fs::read(&reference).unwrap());
    for t in [1, 2, 8] {
        let export = dir.path().join(format!("{program}-spill{t}.json"));
        let out = run(program, t, true, &export);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got = (out.stdout, std::fs::read(&export).unwrap());
        assert!(
            got == want,
            "{program}, RAYON_NUM_THREADS={t}: output or export differs with spilled memory"
        );
    }
}

#[test]
fn blocks_waiting_on_each_other_through_spilled_memory_print_the_same_bytes() {
    same_with_spilled_memory("gridbarrier");
}

#[test]
fn a_last_block_done_reduction_in_spilled_memory_prints_the_same_bytes() {
    same_with_spilled_memory("lastblock");
}
