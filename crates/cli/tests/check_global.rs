//! `warpscope check` on a global-memory race end to end: the table, JSON and SARIF name the kind
//! `global_race`, both source lines and both blocks, and the exit status is 1; `--no-global-races`
//! leaves it out (exit 0).

use std::path::PathBuf;
use std::process::Command;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../driver/tests/data/global_races.ptx")
}

fn check(format: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg(fixture())
        .args(["--kernel", "cross_block", "--grid", "2", "--block", "64"])
        .args(["--arg", "buf:256", "--arg", "buf:256", "--format", format])
        .args(extra)
        .output()
        .expect("run warpscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_cross_block_race_is_reported_in_every_format() {
    let (status, table) = check("table", &[]);
    assert_eq!(status, 1, "{table}");
    assert!(table.contains("global_race"), "{table}");
    assert!(table.contains("global memory checked too"), "{table}");
    assert!(!table.contains("shared memory only"), "{table}");

    let (status, json) = check("json", &[]);
    assert_eq!(status, 1);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let race = findings
        .iter()
        .find(|f| f["kind"] == "global_race")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(race["severity"], "error");
    // lines 9 (the write by block 0) and 11 (the read by block 1) of global_races.cu
    assert_eq!(race["lines"], serde_json::json!([9, 11]));
    let message = race["message"].as_str().unwrap();
    assert!(
        message.contains("block (0,0,0)") && message.contains("block (1,0,0)"),
        "{message}"
    );

    let (status, sarif) = check("sarif", &[]);
    assert_eq!(status, 1);
    let doc: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "global_race"), "{sarif}");
    let results = run["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "global_race" && r["level"] == "error"),
        "{sarif}"
    );
}

#[test]
fn no_global_races_checks_shared_memory_only() {
    let (status, table) = check("table", &["--no-global-races"]);
    assert_eq!(status, 0, "{table}");
    assert!(!table.contains("global_race"), "{table}");
    assert!(table.contains("shared memory only"), "{table}");
}
