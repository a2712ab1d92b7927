//! `--format table|json|csv|markdown` of `warpscope bank` (one request): snapshots of each format for
//! a 32-way conflict (`lane*128`) and the padded column read (`lane*33*4`, conflict-free),
//! with the wavefronts checked by value.

use std::process::Command;

fn bank(expr: &str, format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "bank", "--arch", "sm_90", "--width", "4", "--expr", expr, "--format", format,
        ])
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    out
}

#[test]
fn conflict_in_four_formats() {
    let json: serde_json::Value = serde_json::from_str(&bank("lane*128", "json")).unwrap();
    assert_eq!(json["wavefronts"], 32);
    assert_eq!(json["ideal"], 1);
    let csv = bank("lane*128", "csv");
    assert!(csv.starts_with("wavefront,phase_lane0,lane,bank,word_addr,byte_lo,byte_hi,broadcast\n"));
    assert_eq!(csv.lines().count(), 33, "one slot per lane: {csv}");
    assert!(
        csv.lines().skip(1).all(|l| l.split(',').nth(3) == Some("0")),
        "all in bank 0"
    );
    let md = bank("lane*128", "markdown");
    assert!(md.contains("| 31 | 31 |"), "{md}");
    insta::assert_snapshot!("bank_conflict_table", bank("lane*128", "table"));
    insta::assert_snapshot!("bank_conflict_json", bank("lane*128", "json"));
    insta::assert_snapshot!("bank_conflict_csv", csv);
    insta::assert_snapshot!("bank_conflict_markdown", md);
}

#[test]
fn padded_column_in_four_formats() {
    let json: serde_json::Value = serde_json::from_str(&bank("lane*33*4", "json")).unwrap();
    assert_eq!(json["wavefronts"], 1);
    for f in ["table", "json", "csv", "markdown"] {
        insta::assert_snapshot!(format!("bank_padded_{f}"), bank("lane*33*4", f));
    }
}
