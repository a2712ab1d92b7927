//! `--format table|json|csv|markdown` of `warpscope analyze`: snapshots of each format for the seed's
//! square-tile transpose (sqRowCol: a 32-way conflict on the column read), from the checked-in PTX and
//! machine code so no toolkit is needed, plus the H100's counters under their ncu names in the CSV.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn analyze(format: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "analyze",
            "crates/cli/fixtures/seeds/sqRowCol.ptx",
            "--sass",
            "crates/cli/fixtures/seeds/sqRowCol.sass",
            "--grid",
            "1",
            "--block",
            "32,32",
            "--arg",
            "buf:4096",
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

/// [ld wavefronts, st wavefronts, ld instructions, st instructions] of the H100 for sqRowCol.
fn h100() -> [String; 4] {
    let text =
        std::fs::read_to_string(repo().join("calibration/kernels/seeds_groundtruth_h100.tsv")).unwrap();
    let row: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|r| r[0] == "sqRowCol")
        .unwrap();
    [row[5], row[6], row[7], row[8]].map(String::from)
}

#[test]
fn four_formats() {
    let csv = analyze("csv");
    let tables: Vec<&str> = csv.split("\n\n").collect();
    // Every section by default: the bank tables, divergence, hazards, the fix advisor (arrays,
    // suggestions) and the occupancy, each a table of its own.
    assert_eq!(
        tables.len(),
        8,
        "totals, lines, instructions, divergence, hazards, fix arrays, fix suggestions, occupancy: {csv}"
    );
    assert!(
        tables[4].starts_with("severity,kind,lines,count,message"),
        "{}",
        tables[4]
    );
    assert!(tables[7].starts_with("registers,"), "{}", tables[7]);
    let header: Vec<&str> = tables[0].lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = tables[0].lines().nth(1).unwrap().split(',').collect();
    let col = |n: &str| row[header.iter().position(|h| *h == n).unwrap()];
    let [ld_wf, st_wf, ld_inst, st_inst] = h100();
    assert_eq!(col("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), ld_wf);
    assert_eq!(col("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), st_wf);
    assert_eq!(col("smsp__sass_inst_executed_op_shared_ld.sum"), ld_inst);
    assert_eq!(col("smsp__sass_inst_executed_op_shared_st.sum"), st_inst);
    assert!(
        tables[2]
            .trim_end()
            .ends_with(",32,1024,32,,,,32,W..............................."),
        "the column read: 32 loads, 1024 wavefronts, all in bank 0: {}",
        tables[2]
    );

    let json: serde_json::Value = serde_json::from_str(&analyze("json")).unwrap();
    assert_eq!(json["shared"]["load"]["wavefronts"].to_string(), ld_wf);
    let md = analyze("markdown");
    assert!(md.contains("### per source line"), "{md}");
    let table = analyze("table");
    assert!(
        table.contains("widths: machine code (machine code from crates/cli/fixtures/seeds/sqRowCol.sass)")
    );

    insta::assert_snapshot!("analyze_sqrowcol_table", table);
    insta::assert_snapshot!("analyze_sqrowcol_json", analyze("json"));
    insta::assert_snapshot!("analyze_sqrowcol_csv", csv);
    insta::assert_snapshot!("analyze_sqrowcol_markdown", md);
}
