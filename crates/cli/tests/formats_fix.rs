//! `--format table|json|csv|markdown` of `warpscope fix`: snapshots of each format for the seed's
//! rectangular transpose (checked-in PTX, machine code and CUDA source; 16 registers given, so no
//! toolkit is needed), with the what-if table for Kepler's 8-byte mode and the H100.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fix(format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "fix",
            "crates/cli/fixtures/seeds/rectRowCol.ptx",
            "--sass",
            "crates/cli/fixtures/seeds/rectRowCol.sass",
            "--source",
            "calibration/kernels/seeds/rectRowCol.cu",
            "--grid",
            "1",
            "--block",
            "32,16",
            "--arg",
            "buf:2048",
            "--registers",
            "16",
            "--arch",
            "sm_35:8B,sm_90",
            "--format",
            format,
        ])
        .current_dir(repo())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    out
}

#[test]
fn four_formats() {
    let csv = fix("csv");
    let tables: Vec<&str> = csv.split("\n\n").collect();
    assert_eq!(tables.len(), 3, "arrays, suggestions, what-if: {csv}");
    assert!(
        tables[0]
            .starts_with("array,offset,bytes,access_bytes,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,")
    );
    assert!(tables[1].contains("tile,best,pad,"), "{}", tables[1]);
    assert!(tables[1].contains(",272 -> 32,"), "{}", tables[1]);
    assert!(
        tables[2].starts_with("array,layout,sm_35:8B,sm_90\n"),
        "{}",
        tables[2]
    );
    let json: serde_json::Value = serde_json::from_str(&fix("json")).unwrap();
    assert_eq!(json["suggestions"][0]["wavefronts_after"], 32);
    let md = fix("markdown");
    assert!(md.contains("-> __shared__ int tile[BDIMY][BDIMX + 2];"), "{md}");
    insta::assert_snapshot!("fix_rectrowcol_table", fix("table"));
    insta::assert_snapshot!("fix_rectrowcol_json", fix("json"));
    insta::assert_snapshot!("fix_rectrowcol_csv", csv);
    insta::assert_snapshot!("fix_rectrowcol_markdown", md);
}
