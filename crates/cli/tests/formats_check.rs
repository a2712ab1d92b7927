//! `--format table|json|csv|markdown` of `warpscope check`: snapshots of each format for a kernel of
//! the planted-bug suite with an error (a race: status 1) and one with only a warning (the seed's
//! trailing barrier: status 0), plus the findings checked by value.

use std::path::PathBuf;
use std::process::Command;

fn bugs(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bugs")
        .join(rel)
}

/// (status, stdout) of `warpscope check` on a suite kernel, with the manifest's grid (2 blocks),
/// block and n elements.
fn check(kernel: &str, block: &str, n: usize, format: &str) -> (i32, String) {
    let bytes = 4 * n;
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("check")
        .arg(bugs(&format!("ptx/{kernel}.ptx")))
        .args(["--grid", "2", "--block", block])
        .args([
            "--arg",
            &format!("buf:{bytes}:zero"),
            "--arg",
            &format!("buf:{bytes}"),
        ])
        .args(["--arg", &format!("i32:{n}"), "--format", format])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    (o.status.code().unwrap(), out)
}

#[test]
fn race_in_four_formats() {
    let run = |f: &str| check("race_raw_nosync", "64", 128, f);
    let mut outs = Vec::new();
    for f in ["table", "json", "csv", "markdown"] {
        let (code, out) = run(f);
        assert_eq!(code, 1, "{f}: a race is an error");
        outs.push(out);
    }
    let json: serde_json::Value = serde_json::from_str(&outs[1]).unwrap();
    assert_eq!(json["errors"], 4, "three races and an uninitialised read");
    assert_eq!(
        outs[2].lines().count(),
        5,
        "header + one row per finding: {}",
        outs[2]
    );
    assert_eq!(json["findings"][0]["kind"], "race");
    assert!(
        outs[2].starts_with("severity,kind,lines,count,message\nerror,race,"),
        "{}",
        outs[2]
    );
    assert!(outs[3].contains("| error | race |"), "{}", outs[3]);
    insta::assert_snapshot!("check_race_table", outs[0]);
    insta::assert_snapshot!("check_race_json", outs[1]);
    insta::assert_snapshot!("check_race_csv", outs[2]);
    insta::assert_snapshot!("check_race_markdown", outs[3]);
}

#[test]
fn trailing_barrier_in_four_formats() {
    let run = |f: &str| check("adjdiff_trailing_sync", "256", 512, f);
    let mut outs = Vec::new();
    for f in ["table", "json", "csv", "markdown"] {
        let (code, out) = run(f);
        assert_eq!(code, 0, "{f}: a redundant barrier is a warning");
        outs.push(out);
    }
    assert!(outs[0].contains("0 error(s), 1 warning(s)"), "{}", outs[0]);
    assert!(outs[2].contains("warning,redundant_barrier,19,"), "{}", outs[2]);
    insta::assert_snapshot!("check_trailing_sync_table", outs[0]);
    insta::assert_snapshot!("check_trailing_sync_json", outs[1]);
    insta::assert_snapshot!("check_trailing_sync_csv", outs[2]);
    insta::assert_snapshot!("check_trailing_sync_markdown", outs[3]);
}

#[test]
fn no_findings_still_gives_a_csv_header() {
    let (code, csv) = check("ok_adjdiff", "256", 512, "csv");
    assert_eq!(code, 0);
    assert_eq!(csv, "severity,kind,lines,count,message\n");
    let (_, md) = check("ok_adjdiff", "256", 512, "markdown");
    assert!(md.starts_with("ok_adjdiff: no findings\n"), "{md}");
}
