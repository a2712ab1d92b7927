//! `--format table|json|jsonl|csv|markdown` of `warpscope occupancy`: snapshots of the four shared
//! formats for a small sweep on sm_90 with the best block size, the JSON Lines format checked against
//! the JSON array, and the H100 figures by value (256 threads x 32 registers: 8 blocks, 64 warps,
//! 100 %; 64 KB of dynamic shared memory: 3 blocks, 37.5 %, limited by shared memory).

use std::process::Command;

const SWEEP: &[&str] = &[
    "occupancy",
    "--arch",
    "sm_90",
    "--threads",
    "256",
    "--regs",
    "32,64",
    "--dyn-smem",
    "0,64k",
    "--best",
];

fn occupancy(format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(SWEEP)
        .args(["--format", format])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    out
}

#[test]
fn four_formats_and_jsonl() {
    let json: serde_json::Value = serde_json::from_str(&occupancy("json")).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["blocks_per_sm"], 8);
    assert_eq!(rows[0]["warps_per_sm"], 64);
    assert_eq!(rows[0]["occupancy"], 1.0);
    assert_eq!(rows[1]["blocks_per_sm"], 3);
    assert_eq!(rows[1]["limiters"], serde_json::json!(["shared_memory"]));
    let jsonl: Vec<serde_json::Value> = occupancy("jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&jsonl, rows, "jsonl holds the same objects as json");

    let csv = occupancy("csv");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let second: Vec<&str> = csv.lines().nth(2).unwrap().split(',').collect();
    let col = |name: &str| second[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(col("blocks_per_sm"), "3");
    assert_eq!(col("sm__maximum_warps_per_active_cycle_pct"), "37.5");
    assert_eq!(col("launch__occupancy_limit_shared_mem"), "3");
    assert_eq!(col("launch__shared_mem_per_block_dynamic"), "65536");
    assert_eq!(csv.lines().count(), 5, "header + 4 rows: {csv}");

    let md = occupancy("markdown");
    assert!(
        md.contains("| sm_90 | 256 | 32 | 0+65536 | 3 | 24/64 | 37.5% | shared_memory |"),
        "{md}"
    );
    assert!(
        md.contains("- note: sm_90: dynamic shared memory above 48 KB"),
        "{md}"
    );

    insta::assert_snapshot!("occupancy_sweep_table", occupancy("table"));
    insta::assert_snapshot!("occupancy_sweep_json", occupancy("json"));
    insta::assert_snapshot!("occupancy_sweep_csv", csv);
    insta::assert_snapshot!("occupancy_sweep_markdown", md);
}

#[test]
fn curves_use_the_report_crate_charts() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["occupancy", "--threads", "1024", "--regs", "10", "--curves"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("occupancy vs block size (threads per block : occupancy %): 32:"),
        "{text}"
    );
    assert!(text.contains(" 1024:100.0"), "{text}");
    assert!(
        text.contains("occupancy vs registers (registers per thread : occupancy %): 0:"),
        "{text}"
    );
}
