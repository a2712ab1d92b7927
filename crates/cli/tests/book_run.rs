//! calibration/run/book3.cu … book10.cu (book-style whole programs: global-memory offsets, AoS and
//! SoA, zero copy, managed memory, `__ldg` and `__constant__`, shared tiles and reductions, warp
//! shuffles, instruction-level intrinsics built with and without FMA contraction, an `atomicCAS`
//! loop, a block cipher, a device query, streams, math functions and device printf of floats), built by `calibration/run/build.sh OUT book`, under
//! `warpscope run`, against what an H200 printed and counted (calibration/run/h200/book*.stdout,
//! book*.ncu.csv, `book.exit.txt`; measured with the folder's ncu.sh metrics): every program exits
//! and prints as on the GPU (the device query's board figures apart: the emulated device is an
//! H100); in every launch the shared counters, registers, occupancy and launch geometry equal
//! the H200's; no counter group labelled exact differs; and the groups that differ are exactly
//! the ones listed with their reasons (device printf's stores: the H100's, which the H200 counts
//! 3 per call fewer, checked against its rows).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("warpscope-book-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let o = Command::new("sh")
            .arg(repo().join("calibration/run/build.sh"))
            .arg(&dir)
            .arg("book")
            .env("WARPSCOPE_CUDA_ROOT", cuda_root())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "build.sh: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        dir
    })
}

fn h200(file: &str) -> PathBuf {
    repo().join("calibration/run/h200").join(file)
}

/// The GPU's exit status of each program (`book.exit.txt`: `NAME exit N` lines).
fn gpu_exit(program: &str) -> i32 {
    let text = std::fs::read_to_string(h200("book.exit.txt")).unwrap();
    text.lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[0] == program && f[1] == "exit").then(|| f[2].parse().unwrap())
        })
        .unwrap_or_else(|| panic!("{program}: no exit status in book.exit.txt"))
}

/// Runs `program` under `warpscope run --export`: (stdout, exit status, the export).
fn run(program: &str) -> (String, i32, Value) {
    let dir = programs();
    let export = dir.join(format!("{program}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            "--",
            &format!("./{program}"),
        ])
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let status = v["exit_status"].as_i64().unwrap() as i32;
    (String::from_utf8_lossy(&out.stdout).into_owned(), status, v)
}

const SHARED: &[&str] = &[
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
];
const BRANCH: &[&str] = &[
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_branch_targets_threads_uniform.sum",
];
const GLOBAL: &[&str] = &[
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
];
const LAUNCH: &[&str] = &[
    "launch__registers_per_thread",
    "sm__maximum_warps_per_active_cycle_pct",
    "launch__grid_size",
    "launch__block_size",
    "launch__shared_mem_per_block_dynamic",
];

/// The programs with kernels, and their launches.
const PROGRAMS: &[(&str, usize)] = &[
    ("book3", 20),
    ("book4", 12),
    ("book4_G", 12),
    ("book5", 9),
    ("book6", 5),
    ("book6_nofma", 5),
    ("book7", 2),
    ("book9", 51),
    // math intrinsics and libraries, and device printf of floats and doubles (printFormats: four
    // calls of 4 lanes; its global stores are the printf implementation's, calibration/printf/)
    ("book10", 3),
];

/// Counter groups that differ from the H200's, each labelled an estimate by warpscope, with the
/// reason. The test requires exactly these.
const KNOWN_DIFFERENT: &[(&str, u64, &str, &str)] = &[
    // casAdd's atomicCAS retry loop goes round as often as contention makes it: 52596, 52383,
    // 52480 and 54436 branch targets in four H200 runs (book6.ncu.csv, book6_nofma.ncu.csv,
    // book6.casAdd.r2/r3.ncu.csv); labelled an estimate (warpscope__spin_loop)
    ("book6", 3, "branch", "atomicCAS retry loop"),
    ("book6_nofma", 3, "branch", "atomicCAS retry loop"),
    // printFormats' device printf: warpscope gives the H100's stores, the H200 counts 3 requests
    // and 3 sectors fewer per warp-level call (calibration/printf/h200/): 740 / 2920 against
    // 728 / 2908 for 4 calls; the loads equal and stay exact (checked below)
    ("book10", 2, "global", "device printf's stores, H100 against H200"),
];

/// Lines of the device query that name the board, not the architecture: the H200 prints its own
/// (name, memory size, memory clock, bandwidth); warpscope prints the H100's.
const BOARD_LINES: &[&str] = &[
    "Device 0: \"NVIDIA H200\"",
    "total global memory",
    "memory clock rate",
    "memory bus width",
    "peak memory bandwidth",
    "L2 cache size",
    "persisting L2 max / window",
];

/// Every line the GPU printed, printed by warpscope too (for book8, the board's lines apart).
fn same_output(program: &str, printed: &str) {
    let gpu = std::fs::read_to_string(h200(&format!("{program}.stdout"))).unwrap();
    let mut board = 0;
    for line in gpu.lines() {
        if program == "book8" && BOARD_LINES.iter().any(|b| line.contains(b)) {
            board += 1;
            continue;
        }
        assert!(
            printed.lines().any(|p| p == line),
            "{program}: the GPU printed `{line}`; warpscope printed\n{printed}"
        );
    }
    if program == "book8" {
        assert_eq!(board, BOARD_LINES.len(), "book8: the board's lines");
    }
}

#[test]
fn device_query_prints_as_the_gpu() {
    let (printed, status, _) = run("book8");
    assert_eq!(status, gpu_exit("book8"));
    same_output("book8", &printed);
}

#[test]
fn book_programs_equal_the_h200() {
    let mut different = Vec::new();
    let mut tally: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut compared = 0;
    let mut printing = 0;
    for &(program, n) in PROGRAMS {
        let (printed, status, v) = run(program);
        assert_eq!(status, gpu_exit(program), "{program}: exit status\n{printed}");
        same_output(program, &printed);
        let hw = read_ncu_csv(&h200(&format!("{program}.ncu.csv")));
        let launches = v["launches"].as_array().unwrap();
        assert_eq!(launches.len(), n, "{program}: launches");
        assert_eq!(hw.len(), n, "{program}: launches profiled");
        for l in launches {
            let id = l["id"].as_u64().unwrap();
            let (name, m) = &hw[&id];
            assert_eq!(l["kernel"].as_str().unwrap(), name, "{program} launch {id}");
            let ours = |k: &str| {
                l["metrics"][k]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{program} {id}: no {k}"))
            };
            for k in LAUNCH {
                let v = if k.ends_with("_pct") {
                    (ours(k) * 100.0).round() / 100.0
                } else {
                    ours(k)
                };
                assert_eq!(v, m[*k], "{program} launch {id} ({name}): {k}");
            }
            for (group, keys, label) in [
                ("shared", SHARED, "warpscope__shared_counters_exact"),
                ("branch", BRANCH, "warpscope__branch_counters_exact"),
                ("global", GLOBAL, "warpscope__global_counters_exact"),
            ] {
                let equal = keys.iter().all(|k| ours(k) == m[*k]);
                let exact = ours(label) == 1.0;
                let t = tally.entry(group).or_default();
                t.0 += usize::from(equal);
                t.1 += usize::from(exact);
                t.2 += usize::from(equal && exact);
                if !equal {
                    assert!(
                        !exact,
                        "{program} launch {id} ({name}): {group} labelled exact, differs: {:?}",
                        keys.iter().map(|k| (ours(k), m[*k])).collect::<Vec<_>>()
                    );
                    different.push((program, id, group));
                }
            }
            // device printf's own traffic: loads exact and equal, stores the H100's, which the
            // H200 counts 3 requests and 3 sectors fewer per warp-level call
            if let Some(calls) = l["metrics"]["warpscope__device_printf_warp_calls"].as_f64() {
                assert_eq!(
                    ours("warpscope__global_load_counters_exact"),
                    1.0,
                    "{program} {id}"
                );
                for k in &GLOBAL[..2] {
                    assert_eq!(ours(k), m[*k], "{program} launch {id} ({name}): {k}");
                }
                for k in &GLOBAL[2..] {
                    assert_eq!(
                        ours(k) - 3.0 * calls,
                        m[*k],
                        "{program} launch {id} ({name}): {k}"
                    );
                }
                printing += 1;
            }
            compared += 1;
        }
    }
    // book10's printFormats (4 calls of 4 lanes)
    assert_eq!(printing, 1);
    assert_eq!(compared, PROGRAMS.iter().map(|p| p.1).sum::<usize>());
    eprintln!("per group (equal, labelled exact, both) of {compared} launches: {tally:?}");
    let expected: Vec<(&str, u64, &str)> = KNOWN_DIFFERENT.iter().map(|&(p, i, g, _)| (p, i, g)).collect();
    assert_eq!(different, expected);
}

/// casAdd (book6's atomicCAS loop) in four H200 runs: the branch targets differ from run to run,
/// the divergent targets and the global requests and sectors do not; warpscope labels the branch
/// counters an estimate and the global counters exact (no load or store inside the loop: the
/// atomics are not global loads or stores to ncu), and its global counters equal the runs'.
#[test]
fn atomic_cas_loop_branch_counters_are_labelled_estimates() {
    let runs: Vec<_> = [
        "book6.ncu.csv",
        "book6_nofma.ncu.csv",
        "book6.casAdd.r2.ncu.csv",
        "book6.casAdd.r3.ncu.csv",
    ]
    .iter()
    .map(|f| {
        let csv = read_ncu_csv(&h200(f));
        csv.into_values()
            .find(|(name, _)| name.starts_with("casAdd"))
            .unwrap_or_else(|| panic!("{f}: no casAdd"))
            .1
    })
    .collect();
    let targets: Vec<f64> = runs.iter().map(|m| m[BRANCH[0]]).collect();
    assert_eq!(targets, [52596.0, 52383.0, 52480.0, 54436.0]);
    for m in &runs {
        assert_eq!(m[BRANCH[1]], 1983.0);
        for k in GLOBAL {
            assert_eq!(m[*k], runs[0][*k], "{k}");
        }
    }
    let (_, _, v) = run("book6");
    let l = &v["launches"][3];
    assert!(l["kernel"].as_str().unwrap().starts_with("casAdd"));
    let m = &l["metrics"];
    assert_eq!(m["warpscope__branch_counters_exact"], 0.0);
    assert_eq!(m["warpscope__spin_loop"], 1.0);
    assert_eq!(m["warpscope__global_counters_exact"], 1.0);
    for k in GLOBAL {
        assert_eq!(m[*k].as_f64().unwrap(), runs[0][*k], "{k}");
    }
}
