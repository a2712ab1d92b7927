//! `warpscope check` end to end on the planted-bug suite (calibration/bugs): exit statuses, the JSON
//! contract and the table.

use std::path::PathBuf;
use std::process::Command;

fn bugs(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bugs")
        .join(rel)
}

struct Row {
    kernel: String,
    grid: String,
    block: String,
    dyn_smem: String,
    n: usize,
    expected: String,
}

fn manifest() -> Vec<Row> {
    std::fs::read_to_string(bugs("manifest.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                kernel: f[0].into(),
                grid: f[1].into(),
                block: f[2].into(),
                dyn_smem: f[3].into(),
                n: f[4].parse().unwrap(),
                expected: f[5].into(),
            }
        })
        .collect()
}

fn check(row: &Row, format: &str) -> (i32, String, String) {
    let bytes = (4 * row.n).to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg(bugs(&format!("ptx/{}.ptx", row.kernel)))
        .args([
            "--grid",
            &row.grid,
            "--block",
            &row.block,
            "--dyn-smem",
            &row.dyn_smem,
        ])
        .args([
            "--arg",
            &format!("buf:{bytes}:zero"),
            "--arg",
            &format!("buf:{bytes}"),
        ])
        .args(["--arg", &format!("i32:{}", row.n), "--format", format])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn json_findings_and_exit_status_over_the_suite() {
    let rows = manifest();
    assert!(rows.len() >= 23);
    for row in &rows {
        let (code, stdout, stderr) = check(row, "json");
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{}: {e}: {stdout} {stderr}", row.kernel));
        let findings = v["findings"].as_array().unwrap();
        for f in findings {
            assert!(
                f["kind"].is_string() && f["message"].is_string() && f.get("line").is_some(),
                "{f}"
            );
        }
        let errors = v["errors"].as_u64().unwrap();
        assert_eq!(
            code,
            if errors > 0 { 1 } else { 0 },
            "{}: exit status follows errors",
            row.kernel
        );
        if row.expected == "none" {
            assert!(findings.is_empty(), "{}: {findings:#?}", row.kernel);
            assert_eq!(code, 0);
        } else {
            assert!(
                findings.iter().any(|f| f["kind"] == row.expected.as_str()),
                "{}: expected {}: {findings:#?}",
                row.kernel,
                row.expected
            );
        }
        if row.expected == "redundant_barrier" {
            assert_eq!(code, 0, "{}: a redundant barrier is a warning", row.kernel);
        }
        if row.expected == "race" {
            assert_eq!(code, 1, "{}: a race is an error", row.kernel);
        }
    }
}

#[test]
fn table_names_the_source_line_and_the_trailing_barrier() {
    let row = manifest()
        .into_iter()
        .find(|r| r.kernel == "adjdiff_trailing_sync")
        .unwrap();
    let (code, stdout, _) = check(&row, "table");
    assert_eq!(code, 0);
    assert!(stdout.contains("redundant_barrier"), "{stdout}");
    // The table keeps to 80 columns and wraps the message: read it back unwrapped (the other
    // columns are empty on a wrapped row's continuation lines).
    let table = stdout.lines().filter(|l| l.starts_with(['|', '+']));
    assert!(table.clone().count() > 3, "{stdout}");
    assert!(table.clone().all(|l| l.chars().count() <= 80), "{stdout}");
    let unwrapped = stdout
        .replace(['|', '\n'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        unwrapped.contains("adjdiff_trailing_sync.cu:19 is removable"),
        "{stdout}"
    );
    assert!(!unwrapped.contains(".cu:11 is removable"), "{stdout}");
    assert!(stdout.contains("0 error(s), 1 warning(s)"), "{stdout}");
}

#[test]
fn bad_input_is_status_2_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("warpscope-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(
        &bad,
        ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n frobnicate;\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["check", bad.to_str().unwrap(), "--grid", "1", "--block", "32"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.ptx:6"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["check", bad.to_str().unwrap(), "--grid", "0", "--block", "32"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
