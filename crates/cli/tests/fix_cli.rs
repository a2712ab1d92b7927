//! `warpscope fix` end to end on the seed's rectangular kernel (checked-in PTX and machine code):
//! the JSON contract, the seed's IPAD 2 as the recommended source edit, the what-if table, and a
//! clear error for a bad architecture.

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fix(extra: &[&str]) -> std::process::Output {
    let r = repo();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    cmd.arg("fix")
        .arg(r.join("crates/cli/fixtures/seeds/rectRowCol.ptx"))
        .arg("--sass")
        .arg(r.join("crates/cli/fixtures/seeds/rectRowCol.sass"))
        .arg("--source")
        .arg(r.join("calibration/kernels/seeds/rectRowCol.cu"))
        .args([
            "--grid",
            "1",
            "--block",
            "32,16",
            "--arg",
            "buf:2048",
            "--registers",
            "16",
        ])
        .args(extra);
    cmd.output().unwrap()
}

#[test]
fn json_contract_and_seed_fix() {
    let out = fix(&["--format", "json", "--arch", "sm_35:8B,sm_90"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["suggestions"][0];
    assert_eq!(s["array"], "tile");
    assert_eq!(s["kind"], "pad");
    assert_eq!(s["recommended"], true);
    assert_eq!(s["wavefronts_before"], 272);
    assert_eq!(s["wavefronts_after"], 32);
    assert_eq!(s["extra_shared_bytes"], 128);
    assert!(s["change"].as_str().unwrap().contains("get 2 more"));
    assert_eq!(
        s["source"]["after"].as_str().unwrap().trim(),
        "__shared__ int tile[BDIMY][BDIMX + 2];"
    );
    assert_eq!(s["occupancy_after"]["shared_bytes"], 2176);
    assert_eq!(v["resources"]["registers"], 16);
    assert_eq!(v["resources"]["registers_from"], "--registers");
    assert_eq!(v["what_if"]["columns"], serde_json::json!(["sm_35:8B", "sm_90"]));
}

#[test]
fn table_shows_the_edit_and_bad_arch_is_status_2() {
    let out = fix(&["--arch", "all"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-> __shared__ int tile[BDIMY][BDIMX + 2];"),
        "{text}"
    );
    assert!(text.contains("sm_35:8B") && text.contains("sm_120"), "{text}");
    let out = fix(&["--arch", "sm_91"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sm_91"));
}

/// The classic `strided` kernel (stride 2, 3 and 8 reads of one array): no padding or swizzle
/// reaches the ideal, so the recommendation is a bank permutation, printed as a table and an index
/// rule; the table is the one calibration/fix/stridedFix.cu applies (measured 88 wavefronts on the
/// H100), and the best padding stays as the alternative.
#[test]
fn strided_gets_the_measured_bank_permutation() {
    let r = repo();
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .arg("fix")
            .arg(r.join("crates/cli/fixtures/classic/strided.ptx"))
            .arg("--sass")
            .arg(r.join("crates/cli/fixtures/classic/strided.sass"))
            .arg("--source")
            .arg(r.join("calibration/kernels/classic/strided.cu"))
            .args([
                "--grid", "2", "--block", "128", "--arg", "buf:1024", "--arg", "buf:8192",
            ])
            .args(["--format", format])
            .output()
            .unwrap()
    };
    let out = run("json");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["suggestions"][0];
    assert_eq!(s["kind"], "permute");
    assert_eq!(s["recommended"], true);
    assert_eq!(
        (s["wavefronts_before"].as_u64(), s["wavefronts_after"].as_u64()),
        (Some(152), Some(88))
    );
    assert_eq!(s["ideal"], 88);
    assert_eq!(s["extra_shared_bytes"], 0);
    assert_eq!(s["transform"]["unit_bytes"], 4);
    assert_eq!(s["transform"]["row_units"], 32);
    let alt = &v["suggestions"][1];
    assert_eq!(
        (alt["kind"].as_str(), alt["wavefronts_after"].as_u64()),
        (Some("pad"), Some(96))
    );
    let after = s["source"]["after"].as_str().unwrap();
    let (table, index) = after.split_once('\n').unwrap();
    let applied = std::fs::read_to_string(r.join("calibration/fix/stridedFix.cu")).unwrap();
    assert!(
        applied.lines().any(|l| l == table),
        "the printed table is not the one measured in stridedFix.cu:\n{table}"
    );
    assert!(index.contains("s_bank_col[i / 32][i % 32]"), "{index}");
    // Every access of the kernel's `s` (lines 12 and 15), not the host code's own `s` (line 30).
    assert_eq!(s["source"]["index_lines"], serde_json::json!([12, 15]));
    let text = String::from_utf8_lossy(&run("table").stdout).to_string();
    assert!(text.contains(&format!("add:   {table}")), "{text}");
    assert!(text.contains("a bank permutation does"), "{text}");
}
