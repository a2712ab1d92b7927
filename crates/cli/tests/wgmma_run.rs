//! `warpscope run` on the wgmma calibration program (calibration/wgmma, built here by its build.sh):
//! every one of its 218 launches writes the accumulators the GPU wrote (calibration/wgmma/h200/
//! d.bin.zst, byte for byte, with the same input hashes), and one launch per kernel predicts the
//! gmma wavefronts, instructions and bytes Nsight Compute counted (h200/ncu_gmma.tsv) and no shared loads.

use std::path::Path;
use std::process::Command;

mod support;
use support::{cuda_root, repo, scratch};

/// The program's records without the shared-memory base (the GPU's block starts at 0x400, the
/// emulator's at 0): (id, input hashes and D).
fn records(b: &[u8]) -> Vec<(u32, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let id = u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let n = u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as usize;
        out.push((id, b[at + 12..at + 36 + 4 * n].to_vec()));
        at += 36 + 4 * n;
    }
    out
}

fn run(dir: &Path, args: &[&str], export: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--", "./wgmma_calib"])
        .args(args)
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn the_calibration_program_computes_what_the_gpu_computed() {
    let dir = std::env::temp_dir().join(format!("warpscope-wgmma-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("sh")
        .arg(repo().join("calibration/wgmma/build.sh"))
        .arg(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "build.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = repo().join("calibration/wgmma/rows.tsv");
    let rows = rows.to_str().unwrap();

    // every launch's accumulators
    run(&dir, &[rows, "all.bin"], &dir.join("all.json"));
    let raw = std::fs::read(repo().join("calibration/wgmma/h200/d.bin.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
    let mut gpu = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut gpu).unwrap();
    let (ours, gpu) = (
        records(&std::fs::read(dir.join("all.bin")).unwrap()),
        records(&gpu),
    );
    assert_eq!(ours.len(), 218);
    assert_eq!(ours.len(), gpu.len());
    let differ: Vec<u32> = ours
        .iter()
        .zip(&gpu)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0)
        .collect();
    assert!(
        differ.is_empty(),
        "rows whose inputs or accumulators differ: {differ:?}"
    );

    // one launch per kernel against ncu
    let export = dir.join("first.json");
    run(&dir, &[rows, "first.bin", "first"], &export);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    let ncu = std::fs::read_to_string(repo().join("calibration/wgmma/h200/ncu_gmma.tsv")).unwrap();
    let mut lines = ncu.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let measured: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(launches.len(), measured.len());
    for (l, m) in launches.iter().zip(&measured) {
        let metric = |k: &str| l["metrics"][k].as_f64().unwrap_or(0.0);
        let want = |k: &str| m[col(k)].parse::<f64>().unwrap();
        assert_eq!(
            metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"),
            want("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma"),
            "{}",
            m[1]
        );
        // with the HGMMA ptxas adds for the commit after each kernel's K loop, read off the
        // machine code (calibration/wgmma/h200/sass_gmma.txt): in instructions, bytes and the
        // `sm__sass_` wavefronts, not in the `l1tex__` ones
        for k in [
            "smsp__sass_inst_executed_op_shared_gmma",
            "sm__sass_data_bytes_mem_shared_op_gmma",
            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma",
        ] {
            assert_eq!(metric(&format!("{k}.sum")), want(k), "{} {k}", m[1]);
        }
        assert_eq!(
            metric("smsp__sass_inst_executed_op_shared_ld.sum"),
            want("smsp__sass_inst_executed_op_shared_ld"),
            "{}",
            m[1]
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// calibration/wgmma/commits: 18 placements of `wgmma.commit_group` (after products in straight
/// line, after a loop, an if, a fence, a wait, a second commit, ...; one kernel's commit in one
/// warpgroup of two). ptxas gives 10 of them an HGMMA of its own; `run` reads which off the machine
/// code and counts what the H200 counted (h200/ncu.tsv: instructions, bytes and both wavefront
/// counts), and the program prints what the GPU printed (h200/run.txt).
#[test]
fn the_hgmmas_ptxas_adds_for_commits_are_counted_as_the_gpu_counts_them() {
    let tmp = scratch("wgmma-commits");
    let dir = tmp.path().to_path_buf();
    let out = Command::new("sh")
        .arg(repo().join("calibration/wgmma/commits/build.sh"))
        .arg(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let export = dir.join("commits.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--", "./commits"])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let gpu = std::fs::read_to_string(repo().join("calibration/wgmma/commits/h200/run.txt")).unwrap();
    let printed: Vec<&str> = gpu.lines().filter(|l| l.starts_with('k')).collect();
    // the program's own lines come first; warpscope's report follows them
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().take(printed.len()).collect::<Vec<_>>(), printed);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    let ncu = std::fs::read_to_string(repo().join("calibration/wgmma/commits/h200/ncu.tsv")).unwrap();
    let mut lines = ncu.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let measured: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(launches.len(), measured.len());
    let mut with_extra = 0;
    for (l, m) in launches.iter().zip(&measured) {
        assert_eq!(l["kernel"].as_str(), Some(m[0]));
        for (k, want) in head.iter().zip(m).skip(1) {
            let got = l["metrics"][format!("{k}.sum")].as_f64();
            assert_eq!(got, Some(want.parse::<f64>().unwrap()), "{} {k}", m[0]);
        }
        // ptxas's HGMMAs are in the `sm__sass_` wavefronts, not in the `l1tex__` ones
        if m[4].parse::<u64>().unwrap() > m[3].parse::<u64>().unwrap() {
            with_extra += 1;
        }
    }
    assert_eq!(with_extra, 10, "launches with ptxas's HGMMAs");
}
