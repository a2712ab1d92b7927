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

/// The tensor-core tile chapter: the conflicting ldmatrix tile (128-byte rows: every matrix's eight
/// rows in one bank group, 8 wavefronts) and the swizzled one (one row per group, 1), the per-lane
/// row addresses, the fix advisor's swizzle with its CuTe form, and the counts' basis stated as the
/// calibrated rule, with the kernels' own H100 measurement named (calibration/measure/h100/analyze/).
#[test]
fn tensor_tile_chapter_shows_the_conflict_and_the_swizzle() {
    let out = warpscope(&["tour", "--format", "json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["tensor_tile"];
    let rows = t["rows"].as_array().unwrap();
    assert_eq!(rows[0]["kernel"], "ldsmTile");
    assert_eq!(rows[0]["ldsm"], serde_json::json!([16, 512, 64]));
    assert_eq!(rows[1]["kernel"], "ldsmTileSwizzled");
    assert_eq!(rows[1]["ldsm"], serde_json::json!([16, 64, 64]));
    for r in rows {
        assert_eq!(r["stores"], serde_json::json!([16, 64, 64]), "{}", r["kernel"]);
    }
    let offsets = |r: &serde_json::Value| -> Vec<u64> {
        r["lane_offsets"].as_array().unwrap()[..8]
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    assert_eq!(offsets(&rows[0]), (0..8).map(|r| 128 * r).collect::<Vec<_>>());
    assert_eq!(offsets(&rows[1]), (0..8).map(|r| 144 * r).collect::<Vec<_>>());
    let groups = |r: &serde_json::Value| -> Vec<u64> {
        r["lane_groups"].as_array().unwrap()[..8]
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    assert_eq!(groups(&rows[0]), vec![0; 8]);
    assert_eq!(groups(&rows[1]), (0..8).collect::<Vec<_>>());
    let sw = t["advisor"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "swizzle")
        .expect("the advisor's swizzle");
    assert_eq!(
        (&sw["wavefronts_before"], &sw["wavefronts_after"], &sw["ideal"]),
        (
            &serde_json::json!(576),
            &serde_json::json!(128),
            &serde_json::json!(128)
        )
    );
    assert!(sw["source"].as_str().unwrap().contains("Swizzle<3,3,3>"));
    assert!(
        t["basis"]
            .as_str()
            .unwrap()
            .contains("512 and 64 in ncu's shared op_ld wavefronts")
    );
    let table = warpscope(&["tour"]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("Tensor-core tile: ldmatrix.x4"), "{text}");
    assert!(text.contains("| 512 (32) "), "{text}");
    assert!(text.contains("00000000000000001111111111111111"), "{text}");
    assert!(text.contains("01234567012345671032547610325476"), "{text}");
}
