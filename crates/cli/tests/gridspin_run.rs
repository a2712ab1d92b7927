//! calibration/run/gridspin/ under `warpscope run` against what an H200 printed and counted
//! (`h200/`, `measure.sh`): plain launches whose blocks wait on each other through global memory
//! (a grid barrier made by hand, used twice, in three flavours of its poll) finish with the GPU's
//! output, their blocks interleaved from the block that waited, said on stderr and in the export;
//! a grid larger than the GPU holds at once stops with a message instead of spinning; a
//! last-block-done reduction (no block waits) runs as before, every counter exact and equal to
//! the H200's.

use std::process::{Command, Output};

mod support;

const SET: &str = "calibration/run/gridspin";

fn run(threads: u32, export: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(export)
        .arg("--")
        .arg(support::built(SET).join("gridbarrier"))
        .args(args)
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .unwrap()
}

#[test]
fn hand_made_grid_barriers_print_the_gpus_output_with_their_blocks_interleaved() {
    // every launch's output equals the H200's; the spin loops touch no shared memory, so the
    // shared counters stay exact (and equal); branch and global counters are estimates
    let got = support::check_built(SET, "gridbarrier");
    support::assert_exact_at_least("gridbarrier", got, 4, [0, 4, 0]);
    let dir = support::scratch("gridspin");
    let export = dir.path().join("run.json");
    let out = run(2, &export, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr
            .matches("block 0 waited on other blocks through global memory")
            .count(),
        4,
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 4);
    for l in launches {
        let m = &l["metrics"];
        assert_eq!(m["warpscope__blocks_interleaved"], 1.0, "{l}");
        assert_eq!(m["warpscope__branch_counters_exact"], 0.0);
        assert_eq!(m["warpscope__global_counters_exact"], 0.0);
        let why = l["blocks_interleaved"].as_str().unwrap();
        assert!(why.starts_with("block 0 waited"), "{why}");
        assert!(why.contains("interleaved"), "{why}");
    }
}

#[test]
fn hand_made_grid_barriers_give_the_same_bytes_for_1_2_8_threads() {
    let dir = support::scratch("gridspin-threads");
    let mut first: Option<(Vec<u8>, Vec<u8>)> = None;
    for t in [1, 2, 8] {
        for k in 0..2 {
            let export = dir.path().join(format!("run{t}-{k}.json"));
            let out = run(t, &export, &[]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let got = (out.stdout, std::fs::read(&export).unwrap());
            match &first {
                None => first = Some(got),
                Some(f) => assert!(*f == got, "RAYON_NUM_THREADS={t}: output or export differs"),
            }
        }
    }
}

#[test]
fn a_grid_barrier_over_more_blocks_than_the_gpu_holds_stops_with_the_reason() {
    // the H200 printed its first line and then never finished (stopped after 20 s: h200/exit.txt)
    let dir = support::scratch("gridspin-big");
    let export = dir.path().join("run.json");
    let out = run(2, &export, &["big"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gpu = std::fs::read_to_string(support::repo().join(SET).join("h200/big.stdout")).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mut lines = printed.lines();
    assert_eq!(lines.next(), gpu.lines().next());
    assert_eq!(
        lines.next(),
        Some("big: launch failed: the launch timed out and was terminated")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the GPU holds only 264 blocks of this kernel at once (2 per SM on 132 SMs) and the grid has 300"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("would never finish this launch either"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("warp instructions"),
        "not the instruction limit: {stderr}"
    );
}

#[test]
fn a_last_block_done_reduction_stays_exact_and_equal_to_the_h200() {
    let got = support::check_built(SET, "lastblock");
    support::assert_exact_at_least("lastblock", got, 3, [3, 3, 3]);
    let dir = support::scratch("gridspin-lastblock");
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(&export)
        .arg("--")
        .arg(support::built(SET).join("lastblock"))
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("waited on other blocks"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    for l in v["launches"].as_array().unwrap() {
        assert!(l.get("blocks_interleaved").is_none(), "{l}");
        assert!(l["metrics"].get("warpscope__blocks_interleaved").is_none());
    }
}

/// Linear filtering of float textures at normalised coordinates, wrap and clamp (texwrap.cu):
/// every one of the 15976 samples (sweeps in 1/1024 texel, texel centres and edges, far outside
/// [0, 1), random pairs) equals the H200's bits (the rule: `crates/emu/src/tex.rs`).
#[test]
fn linear_texture_filtering_equals_the_h200_bit_for_bit() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--"])
        .arg(support::built(SET).join("texwrap"))
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let gpu = std::fs::read_to_string(support::repo().join(SET).join("h200/texwrap.stdout")).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mine: Vec<&str> = printed.lines().take_while(|l| !l.starts_with("==")).collect();
    let theirs: Vec<&str> = gpu.lines().collect();
    assert_eq!(theirs.len(), 15976);
    assert_eq!(mine.len(), theirs.len());
    let differ: Vec<(&&str, &&str)> = mine.iter().zip(&theirs).filter(|(a, b)| a != b).collect();
    assert!(
        differ.is_empty(),
        "{} samples differ, the first: {:?}",
        differ.len(),
        differ.first()
    );
}
