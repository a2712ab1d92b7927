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
