//! `warpscope tour` needs nothing but the binary, and its numbers are the H100's.

use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .env_remove("WARPSCOPE_CUDA_ROOT")
        .env("PATH", "/nonexistent")
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run warpscope")
}

#[test]
fn tour_tables_match_the_h100_without_any_cuda() {
    let out = warpscope(&["tour"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("19 of 19 kernels match the H100's wavefront and instruction counters exactly"),
        "{stdout}"
    );
    for section in ["Square tile", "Rectangular tile", "Element types", "2-D array"] {
        assert!(stdout.contains(section), "missing section {section}");
    }
    assert!(!stdout.contains("differs"));
    assert!(
        stdout.contains("| sqRowCol       | setRowReadCol, int tile[32][32]      | 32 (1)"),
        "{stdout}"
    );
}

#[test]
fn tour_json_has_every_seed_with_h100_counters() {
    let out = warpscope(&["tour", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kernels = v["kernels"].as_array().unwrap();
    assert_eq!(kernels.len(), 19);
    let gt = include_str!("../../../calibration/kernels/seeds_groundtruth_h100.tsv");
    for row in gt.lines().skip(1) {
        let r: Vec<&str> = row.split('\t').collect();
        let k = kernels
            .iter()
            .find(|k| k["kernel"] == r[0])
            .unwrap_or_else(|| panic!("{} missing", r[0]));
        let want: Vec<u64> = r[5..9].iter().map(|x| x.parse().unwrap()).collect();
        let got: Vec<u64> = k["emulated"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(got, want, "{}", r[0]);
    }
}

#[test]
fn show_prints_source_and_tables() {
    let out = warpscope(&["tour", "--show", "sqRowCol"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("out[idx] = tile[threadIdx.x][threadIdx.y];"),
        "{stdout}"
    );
    assert!(stdout.contains("per instruction"));
    assert!(stdout.contains("H100 (ncu): loads 1024 wavefronts / 32 instructions, stores 32 / 32"));
    let out = warpscope(&["tour", "--show", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no bundled kernel `nope`"));
}
