//! `--format table|json|csv|markdown` of `warpscope tour` (the whole tour, `--list` and `--show`):
//! snapshots of each format; the table keeps its full width when stdout is not a terminal, and the
//! CSV carries the emulated and the H100's counters under their ncu names.

use std::process::Command;

fn tour(args: &[&str], format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("tour")
        .args(args)
        .args(["--format", format])
        .env_remove("NO_COLOR")
        .env("COLUMNS", "40")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(!out.contains('\u{1b}'), "no colour when stdout is not a terminal");
    out
}

#[test]
fn whole_tour_in_four_formats() {
    let table = tour(&[], "table");
    // Not a terminal: full layout, one line per row, whatever COLUMNS says.
    assert!(
        table.contains("| sqRowCol       | setRowReadCol, int tile[32][32]      | 32 (1)"),
        "{table}"
    );
    let csv = tour(&[], "csv");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header[5], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    assert_eq!(
        header[9],
        "h100:l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
    );
    assert_eq!(csv.lines().count(), 20, "header + 19 kernels");
    assert!(csv.lines().skip(1).all(|l| l.contains(",true,")), "{csv}");
    let md = tour(&[], "markdown");
    assert!(
        md.contains("| sqRowCol | setRowReadCol, int tile[32][32] | 32 (1) | 1024 (32) |"),
        "{md}"
    );
    insta::assert_snapshot!("tour_table", table);
    insta::assert_snapshot!("tour_json", tour(&[], "json"));
    insta::assert_snapshot!("tour_csv", csv);
    insta::assert_snapshot!("tour_markdown", md);
}

#[test]
fn list_and_show_in_four_formats() {
    for f in ["table", "json", "csv", "markdown"] {
        insta::assert_snapshot!(format!("tour_list_{f}"), tour(&["--list"], f));
        insta::assert_snapshot!(
            format!("tour_show_sqrowcol_{f}"),
            tour(&["--show", "sqRowCol"], f)
        );
    }
    let json: serde_json::Value = serde_json::from_str(&tour(&["--show", "sqRowCol"], "json")).unwrap();
    assert_eq!(json["kernel"], "sqRowCol");
    assert_eq!(json["analysis"]["shared"]["load"]["wavefronts"], 1024);
    assert_eq!(json["h100"][0], 1024);
}
