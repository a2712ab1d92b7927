//! `--format table|json|csv|markdown` of `warpscope index`: snapshots of each format for one shape's
//! formulas and for a `--check` that finds collisions (1D formula on a 2-D block: 16 distinct IDs of
//! 128), with the figures checked by value too.

use std::process::{Command, Output};

fn index(args: &[&str], format: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("index")
        .args(args)
        .args(["--format", format])
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    let s = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(!s.contains('\u{1b}'), "no colour when stdout is not a terminal");
    s
}

const FORMULA: &[&str] = &["--shape", "2D_2D"];
const CHECK: &[&str] = &["--check", "--shape", "1D_1D", "--grid", "2,2", "--block", "8,4"];

#[test]
fn formulas_in_four_formats() {
    for f in ["table", "json", "csv", "markdown"] {
        let o = index(FORMULA, f);
        assert!(o.status.success(), "{f}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let csv = stdout(&index(FORMULA, "csv"));
    assert_eq!(
        csv,
        "shape,block_id,block_size,thread_in_block\n\
         2D_2D,blockIdx.y * gridDim.x + blockIdx.x,(blockDim.x * blockDim.y),threadIdx.y * blockDim.x + threadIdx.x\n"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&index(FORMULA, "json"))).unwrap();
    assert_eq!(json[0]["shape"], "2D_2D");
    assert!(
        json[0]["function"]
            .as_str()
            .unwrap()
            .contains("getGlobalIdx_2D_2D")
    );
    insta::assert_snapshot!("index_2d_2d_table", stdout(&index(FORMULA, "table")));
    insta::assert_snapshot!("index_2d_2d_json", stdout(&index(FORMULA, "json")));
    insta::assert_snapshot!("index_2d_2d_csv", csv);
    insta::assert_snapshot!("index_2d_2d_markdown", stdout(&index(FORMULA, "markdown")));
}

#[test]
fn check_in_four_formats_exits_1_on_collisions() {
    for f in ["table", "json", "csv", "markdown"] {
        assert_eq!(index(CHECK, f).status.code(), Some(1), "{f}");
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&index(CHECK, "json"))).unwrap();
    assert_eq!(json["threads"], 128);
    assert_eq!(json["distinct"], 16);
    assert_eq!(json["unique_and_dense"], false);
    let csv = stdout(&index(CHECK, "csv"));
    assert_eq!(csv.lines().nth(1), Some("1D_1D,2x2x1,8x4x1,128,16,112,0,false"));
    insta::assert_snapshot!("index_check_table", stdout(&index(CHECK, "table")));
    insta::assert_snapshot!("index_check_json", stdout(&index(CHECK, "json")));
    insta::assert_snapshot!("index_check_csv", csv);
    insta::assert_snapshot!("index_check_markdown", stdout(&index(CHECK, "markdown")));
}

#[test]
fn the_old_json_flag_still_means_json() {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["index", "--shape", "2D_2D", "--json"])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), stdout(&index(FORMULA, "json")));
}
