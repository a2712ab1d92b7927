//! `warpscope device` and `warpscope lab` in every format without a GPU: the pure rendering of the
//! recorded H100 run (calibration/lab/h100/) through `--from`, the same rendering a live run uses.
//! A live run without a GPU still exits with status 1.

use std::path::PathBuf;
use std::process::{Command, Output};

fn h100(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/lab/h100")
        .join(file)
}

fn ws(args: &[&str], from: &[PathBuf], format: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    c.args(args);
    for f in from {
        c.arg("--from").arg(f);
    }
    c.args(["--format", format])
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(!s.contains('\u{1b}'), "no colour when stdout is not a terminal");
    s
}

#[test]
fn device_from_the_recorded_h100() {
    let from = [h100("device_query.json")];
    let table = stdout(&ws(&["device"], &from, "table"));
    assert!(
        table.contains("| Multiprocessors (SMs)            | 132 "),
        "{table}"
    );
    assert!(
        table.contains("Shared memory per block (opt-in) | 227 KiB (232448 B)"),
        "{table}"
    );
    let csv = stdout(&ws(&["device"], &from, "csv"));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let col = |n: &str| row[header.iter().position(|h| *h == n).unwrap()];
    assert_eq!(col("device__attribute_multiprocessor_count"), "132");
    assert_eq!(
        col("device__attribute_max_shared_memory_per_multiprocessor"),
        "233472"
    );
    let mut json: serde_json::Value = serde_json::from_str(&stdout(&ws(&["device"], &from, "json"))).unwrap();
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&from[0]).unwrap()).unwrap();
    // Each device gains whether warpscope's preset for its CC is measured or assumed.
    let basis = json[0].as_object_mut().unwrap().remove("rules_basis").unwrap();
    assert_eq!(basis["bank"]["status"], "measured");
    assert_eq!(basis["bank"]["table"], "calibration/bank/");
    assert_eq!(basis["occupancy"]["status"], "measured");
    assert_eq!(
        json, recorded,
        "JSON is the DeviceInfo list as recorded, plus rules_basis"
    );
    insta::assert_snapshot!("device_h100_table", table);
    insta::assert_snapshot!("device_h100_csv", csv);
    insta::assert_snapshot!(
        "device_h100_markdown",
        stdout(&ws(&["device"], &from, "markdown"))
    );
}

#[test]
fn live_device_and_lab_without_gpu_exit_1() {
    if warpscope_gpu::driver_present() {
        eprintln!("SKIPPED live_device_and_lab_without_gpu_exit_1: a CUDA driver is present");
        return;
    }
    for f in ["table", "json", "csv", "markdown"] {
        let o = ws(&["device"], &[], f);
        assert_eq!(o.status.code(), Some(1), "device --format {f}");
        assert!(o.stdout.is_empty());
        let o = ws(&["lab", "smem"], &[], f);
        assert_eq!(o.status.code(), Some(1), "lab --format {f}");
    }
}

#[test]
fn lab_from_the_recorded_h100_run() {
    let from = [h100("smem.json"), h100("regs.json")];
    let table = stdout(&ws(&["lab"], &from, "table"));
    assert!(table.contains("== smem on NVIDIA H100 80GB HBM3 (CC 9.0) (seed 1795314589570520085)"));
    assert!(table.contains("| PASS"), "{table}");
    let csv = stdout(&ws(&["lab"], &from, "csv"));
    let first = csv.lines().next().unwrap();
    assert!(
        first.starts_with("experiment,kernel,block,dyn smem B,"),
        "{first}"
    );
    assert_eq!(csv.lines().filter(|l| l.starts_with("regs,")).count(), 5, "{csv}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&ws(&["lab"], &from, "json"))).unwrap();
    assert_eq!(json[0]["name"], "smem");
    assert_eq!(json[1]["rows"].as_array().unwrap().len(), 5);
    insta::assert_snapshot!("lab_h100_table", table);
    insta::assert_snapshot!("lab_h100_csv", csv);
    insta::assert_snapshot!("lab_h100_markdown", stdout(&ws(&["lab"], &from, "markdown")));
}

#[test]
fn lab_from_the_whole_directory_reads_every_experiment() {
    let o = ws(&["lab"], &[h100("")], "json");
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut names: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "adjdiff",
            "device",
            "divergence",
            "hostmem",
            "occupancy",
            "regs",
            "smem",
            "streams",
            "transpose"
        ]
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("device_query.json: not a lab result, passed over"),
        "{err}"
    );
}

#[test]
fn lab_from_a_non_lab_file_is_status_2() {
    let o = ws(&["lab"], &[h100("device_query.json")], "table");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("device_query.json: not a `warpscope lab` result"),
        "{err}"
    );
}
