//! `--format table|json|csv|markdown` of `warpscope latency` (converted to the shared output module):
//! snapshots of each format, plus the seed 002 Fermi figures checked by value (from the seed text:
//! 640 operations and 20 warps per SM; 74 KB in flight, 18,500 threads, 579 warps per device).

use std::process::Command;

fn latency(format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["latency", "--preset", "fermi", "--format", format])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    out
}

#[test]
fn csv_has_the_seed_figures() {
    let csv = latency("csv");
    let rows: Vec<(&str, &str)> = csv.lines().skip(1).filter_map(|l| l.split_once(',')).collect();
    let get = |k: &str| {
        rows.iter()
            .find(|r| r.0 == k)
            .map(|r| r.1)
            .unwrap_or_else(|| panic!("no {k}"))
    };
    assert_eq!(csv.lines().next(), Some("quantity,value"));
    assert_eq!(get("arith_ops_in_flight_per_sm"), "640");
    assert_eq!(get("arith_warps_per_sm"), "20");
    assert_eq!(get("bytes_in_flight"), "74000");
    assert_eq!(get("mem_threads"), "18500");
    assert_eq!(get("mem_warps_device"), "579");
    insta::assert_snapshot!("latency_fermi_csv", csv);
}

#[test]
fn markdown_is_one_table() {
    let md = latency("markdown");
    assert!(
        md.starts_with("### preset fermi\n\n| quantity | value |\n|---|---|\n"),
        "{md}"
    );
    assert!(md.contains("| mem_warps_device | 579 |"));
    insta::assert_snapshot!("latency_fermi_markdown", md);
}

#[test]
fn json_and_table() {
    let json: serde_json::Value = serde_json::from_str(&latency("json")).unwrap();
    assert_eq!(json["mem_warps_device"], 579);
    assert_eq!(json["arith_ops_in_flight_per_sm"], 640.0);
    insta::assert_snapshot!("latency_fermi_json", latency("json"));
    let table = latency("table");
    assert!(table.contains("18500 threads = 579 warps per device"), "{table}");
    insta::assert_snapshot!("latency_fermi_table", table);
}

#[test]
fn no_color_flag_is_accepted() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "latency",
            "--preset",
            "fermi",
            "--format",
            "markdown",
            "--no-color",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), latency("markdown"));
}
