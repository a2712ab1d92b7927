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
fn run_check_pairs_each_grid_with_the_grids_it_launched() {
    // dp_race: parent_reads reads what its child `fill` writes right after launching it (line 13
    // against line 9); parent_tail's tail launch reads what the block wrote (race-free); top
    // launches middle, which launches `fill` and reads its results (line 30 against line 9)
    let dir = programs();
    let export = dir.join("dp_race.check.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--check",
            "--export",
            export.to_str().unwrap(),
            "--",
            "./dp_race",
        ])
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        program_output(&out).contains("synchronize cudaSuccess, tail sum 496"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // the program exits 0, the check found errors
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&std::fs::read(&export).unwrap()).unwrap();
    let l = launches(&v);
    let names: Vec<&str> = l.iter().map(|x| x["kernel"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "parent_reads(int *, int *)",
            "fill(int *)",
            "parent_tail(int *, int *)",
            "sum_tail(const int *, int *)",
            "top(int *, int *)",
            "middle(int *, int *)",
            "fill(int *)"
        ]
    );
    let of_kind = |i: usize, kind: &str| -> Vec<String> {
        l[i]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["kind"] == kind)
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    let races = of_kind(0, "global_race");
    assert_eq!(races.len(), 1, "{:#}", l[0]["findings"]);
    assert!(
        races[0].contains("the parent grid block (0,0,0) thread (0,0,0) at dp_race.cu:13")
            && races[0].contains("the child grid `fill(int*)` (launched at dp_race.cu:12")
            && races[0].contains("at dp_race.cu:9, not ordered"),
        "{}",
        races[0]
    );
    assert!(of_kind(2, "global_race").is_empty(), "{:#}", l[2]["findings"]);
    // the grandchild is paired with middle, its parent, where middle's launch is checked
    let notes = of_kind(4, "device_grids_race_note");
    assert_eq!(notes.len(), 1, "{:#}", l[4]["findings"]);
    assert!(
        notes[0].contains("1 grids launched by the launched grids (`fill(int*)`) are paired with the grid that launched them"),
        "{}",
        notes[0]
    );
    let races = of_kind(5, "global_race");
    assert_eq!(races.len(), 1, "{:#}", l[5]["findings"]);
    assert!(
        races[0].contains("at dp_race.cu:30") && races[0].contains("at dp_race.cu:9, not ordered"),
        "{}",
        races[0]
    );
    for i in [1, 3, 6] {
        assert!(
            of_kind(i, "global_race").is_empty(),
            "launch {i}: {:#}",
            l[i]["findings"]
        );
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

/// The exit status the H200 gave each program (calibration/run/h200/dp_summary.txt).
fn gpu_status(program: &str) -> i32 {
    let summary = std::fs::read_to_string(repo().join("calibration/run/h200/dp_summary.txt")).unwrap();
    summary
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{program} exit ")))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("{program}: no exit status in dp_summary.txt"))
}

#[test]
fn programs_print_what_the_h200_printed() {
    for program in PROGRAMS {
        let gpu =
            std::fs::read_to_string(repo().join(format!("calibration/run/h200/{program}.stdout"))).unwrap();
        let (out, _, _) = run(program, "2");
        let ours = program_output(&out);
        assert_eq!(out.status.code(), Some(gpu_status(program)), "{program}");
        match *program {
            // the two blocks of the host's grid print in either order on a GPU (the H200 printed
            // block 1 first three times in a row; warpscope prints blocks in order); every line
            // after them, from five depths of two chains of grids, comes in the H200's order
            "dp_hello" => {
                let (o, g): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), gpu.lines().collect());
                assert_eq!(o.len(), g.len());
                let (mut o0, mut g0) = (o[..32].to_vec(), g[..32].to_vec());
                assert!(g0[0].ends_with("block 1") && o0[0].ends_with("block 0"));
                o0.sort_unstable();
                g0.sort_unstable();
                assert_eq!(o0, g0);
                assert_eq!(o[32..], g[32..]);
            }
            // the H200 ran 31 nested grids without an error; of 4096 launches from one grid it
            // refused those over its pending launch count (2048, less the children that had
            // finished) with cudaErrorLaunchPendingCountExceeded (69); the emulator runs children
            // after their parent and does not bound the pending launches: every launch runs
            "dp_limits" => {
                let flood = |l: &&str| l.starts_with("flood:");
                let o: Vec<&str> = ours.lines().filter(|l| !flood(l)).collect();
                let g: Vec<&str> = gpu.lines().filter(|l| !flood(l)).collect();
                assert_eq!(o, g);
                assert!(gpu.contains("flood: code 69 x2044"), "{gpu}");
                assert!(
                    ours.contains("children ran 4096\nflood: code 0 x4096\n"),
                    "{ours}"
                );
            }
            _ => assert_eq!(ours, gpu, "{program}"),
        }
    }
}

/// ncu's rows for a program, in its launch order.
fn ncu(program: &str) -> Vec<(String, std::collections::BTreeMap<String, f64>)> {
    read_ncu_csv(&repo().join(format!("calibration/run/h200/{program}.ncu.csv")))
        .into_values()
        .collect()
}

/// Counted by ncu in a host launch's row with every grid it launched: equal to warpscope's sums
/// over the tree (the device runtime makes no shared loads or stores).
const TREE_EXACT: &[&str] = &[
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
];
/// The host launch's own configuration: equal.
const OWN_EXACT: &[&str] = &[
    "launch__grid_size",
    "launch__block_size",
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_dynamic",
    "sm__maximum_warps_per_active_cycle_pct",
];

#[test]
fn ncu_rows_are_the_host_launches_with_their_children() {
    let mut compared = 0;
    for program in ["dp_hello", "dp_reduce", "dp_tail", "dp_streams", "dp_multi"] {
        let rows = ncu(program);
        let (out, v, _) = run(program, "2");
        assert!(out.status.success(), "{program}");
        let hosts: Vec<&Value> = launches(&v)
            .iter()
            .filter(|l| l.get("parent").is_none())
            .collect();
        // ncu lists the host's launches only
        assert_eq!(rows.len(), hosts.len(), "{program}");
        for (i, ((kernel, m), l)) in rows.iter().zip(&hosts).enumerate() {
            assert_eq!(kernel, l["kernel"].as_str().unwrap(), "{program} {i}");
            let tree = &l["with_children"]["metrics"];
            assert!(l["with_children"]["grids"].as_u64().unwrap() > 1, "{program} {i}");
            for k in TREE_EXACT {
                assert_eq!(tree[k].as_f64(), m.get(*k).copied(), "{program} {i} {k}");
            }
            for k in OWN_EXACT {
                assert_eq!(l["metrics"][k].as_f64(), m.get(*k).copied(), "{program} {i} {k}");
            }
            // the device runtime's own branches, loads and stores are in ncu's row (more than
            // the grids' own): labelled estimates
            for (k, flag) in [
                (
                    "smsp__sass_branch_targets.sum",
                    "warpscope__branch_counters_exact",
                ),
                (
                    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                    "warpscope__global_counters_exact",
                ),
            ] {
                assert!(tree[k].as_f64().unwrap() < m[k], "{program} {i} {k}");
                assert_eq!(l["metrics"][flag], 0.0, "{program} {i} {flag}");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 6);
    // dp_streams' parent is one warp with no shared access: its row's 32 shared loads and stores
    // are its child's (scale_smem, 16 blocks of 2 warps)
    let streams = ncu("dp_streams");
    assert_eq!(streams[0].1["smsp__sass_inst_executed_op_shared_ld.sum"], 32.0);
}
