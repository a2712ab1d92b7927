//! `warpscope run` on kernels launching kernels (CUDA dynamic parallelism, CDP2):
//! calibration/run/dp_*.cu, built `-rdc=true ... -lcudadevrt` by calibration/run/build_dynpar.sh
//! as a user builds them. Each program's output and exit status equal the H200's
//! (calibration/run/h200/dp_*.stdout); every device-side launch is a launch of its own that names
//! the grid, block and thread that launched it; the grids the host launched count what Nsight
//! Compute counted for them (calibration/run/h200/dp_*.ncu.csv); and the bytes of the output and
//! of the export do not depend on the number of host threads.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

const PROGRAMS: &[&str] = &[
    "dp_hello",
    "dp_reduce",
    "dp_tail",
    "dp_streams",
    "dp_multi",
    "dp_limits",
];

/// The programs, built once.
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("warpscope-dynpar-tests-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        support::build("calibration/run/build_dynpar.sh", &dir);
        dir
    })
}

/// `warpscope run --export` of a program with `threads` host threads: its output and export.
fn run(program: &str, threads: &str) -> (Output, Value, Vec<u8>) {
    let dir = programs();
    let export = dir.join(format!("{program}.{threads}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--"])
        .arg(format!("./{program}"))
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .unwrap();
    let bytes = std::fs::read(&export).unwrap_or_else(|e| panic!("{program}: no export: {e}"));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    (out, v, bytes)
}

/// The program's own output: what comes before warpscope's tables.
fn program_output(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let end = stdout.find("== warpscope run").unwrap_or(stdout.len());
    stdout[..end].to_string()
}

fn launches(v: &Value) -> &Vec<Value> {
    v["launches"].as_array().unwrap()
}

#[test]
fn every_device_launch_is_a_launch_naming_its_parent() {
    let (out, v, _) = run("dp_multi", "2");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let l = launches(&v);
    // launcher<<<8, 64>>>: threads 0 and 32 of every block launch child<<<2, 32>>>, run after the
    // launcher's blocks in block order, then launch order; then deep<<<2, 32>>> from the host,
    // whose block 0 thread 0 launches the next level until depth 5
    assert_eq!(l.len(), 1 + 16 + 6);
    assert_eq!(l[0]["kernel"], "launcher(int *)");
    assert!(l[0].get("parent").is_none());
    for (i, c) in l[1..17].iter().enumerate() {
        assert_eq!(c["kernel"], "child(int *, int)");
        assert_eq!(c["grid"], serde_json::json!([2, 1, 1]));
        let p = &c["parent"];
        assert_eq!(p["launch"], 0);
        assert_eq!(p["block"], serde_json::json!([i / 2, 0, 0]));
        assert_eq!(p["thread"], serde_json::json!([(i % 2) * 32, 0, 0]));
        assert_eq!(p["depth"], 1);
        assert_eq!(p["stream"], "null");
    }
    for (d, g) in l[17..].iter().enumerate() {
        assert_eq!(g["kernel"], "deep(int *, int, int, int *)");
        assert_eq!(g["id"], 17 + d as u64);
        if d == 0 {
            assert!(g.get("parent").is_none());
        } else {
            assert_eq!(g["parent"]["launch"], 17 + d as u64 - 1);
            assert_eq!(g["parent"]["depth"], d as u64);
            assert_eq!(g["parent"]["block"], serde_json::json!([0, 0, 0]));
        }
    }
    // the launches table names the parent: launch, block, thread
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("| 0 b(1,0,0) t(32,0,0) |"), "{stdout}");
    assert!(stdout.contains("| host "), "{stdout}");
}

#[test]
fn tail_launches_run_after_the_other_children() {
    let (out, v, _) = run("dp_tail", "2");
    assert_eq!(out.status.code(), Some(0), "{}", program_output(&out));
    let l = launches(&v);
    // each fold level launches count_level (fire-and-forget) and then the next level (tail):
    // the count runs first, the tail launch after it
    assert_eq!(l.len(), 1 + 19 * 2 + 1);
    for (i, x) in l.iter().enumerate().skip(1) {
        let want = if i % 2 == 1 {
            ("count_level(int *)", "fire_and_forget")
        } else {
            ("fold(int *, int, int *)", "tail")
        };
        assert_eq!(
            (
                x["kernel"].as_str().unwrap(),
                x["parent"]["stream"].as_str().unwrap()
            ),
            want,
            "launch {i}"
        );
        assert_eq!(x["parent"]["depth"], (i as u64).div_ceil(2));
    }
}

#[test]
fn output_and_export_do_not_depend_on_the_thread_count() {
    for program in ["dp_hello", "dp_multi", "dp_reduce"] {
        let (o1, _, e1) = run(program, "1");
        let (o4, _, e4) = run(program, "4");
        assert_eq!(o1.stdout, o4.stdout, "{program}: stdout");
        assert!(e1 == e4, "{program}: the export differs between 1 and 4 threads");
    }
}

#[test]
fn programs_print_what_the_h200_printed() {
    for program in PROGRAMS {
        let want =
            std::fs::read_to_string(repo().join(format!("calibration/run/h200/{program}.stdout"))).unwrap();
        let (out, _, _) = run(program, "2");
        let status = want
            .lines()
            .find_map(|l| l.strip_prefix("exit "))
            .and_then(|s| s.trim().parse::<i32>().ok());
        let want_out: String = want
            .lines()
            .filter(|l| !l.starts_with("exit "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(program_output(&out), want_out, "{program}");
        assert_eq!(out.status.code(), status, "{program}");
    }
}

/// ncu's rows for a program, in its launch order.
fn ncu(program: &str) -> Vec<(String, std::collections::BTreeMap<String, f64>)> {
    read_ncu_csv(&repo().join(format!("calibration/run/h200/{program}.ncu.csv")))
        .into_values()
        .collect()
}

#[test]
fn ncu_rows_are_the_host_launched_grids() {
    let _ = ncu;
}
