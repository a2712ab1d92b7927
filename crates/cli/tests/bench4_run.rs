//! calibration/run/bench4's programs (written for this project in the shapes of classic GPU
//! benchmarks the earlier sets lack: a 2-D wavelet transform by lifting, template tracking over
//! frames, variable-length encoding, a bucket sort with a merge, GICOV cell detection with a
//! dilation, suffix-array string matching, a stiff ODE system on a few threads) under `warpscope
//! run`, against what an H200 printed and counted (calibration/run/bench4/h200/, measured by
//! `ncu.sh`): each program prints what the GPU printed; every launch's registers and theoretical
//! occupancy equal the H200's; every launch whose branch, shared-memory or global-memory counters
//! are labelled exact equals the H200's branch targets and divergent targets, shared instructions
//! and (instruction-attributed) wavefronts, global requests and sectors; and at least the launches
//! listed below are labelled exact, so a change that loses them fails.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

mod support;
use support::{cuda_root, read_ncu_csv, repo};

/// (the export's flag, the counters it covers)
const GROUPS: [(&str, &[&str]); 3] = [
    (
        "warpscope__branch_counters_exact",
        &[
            "smsp__sass_branch_targets.sum",
            "smsp__sass_branch_targets_threads_divergent.sum",
        ],
    ),
    (
        "warpscope__shared_counters_exact",
        &[
            "smsp__sass_inst_executed_op_shared_ld.sum",
            "smsp__sass_inst_executed_op_shared_st.sum",
            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        ],
    ),
    (
        "warpscope__global_counters_exact",
        &[
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        ],
    ),
];

/// Counters warpscope always claims exact.
const ALWAYS: [&str; 2] = [
    "launch__registers_per_thread",
    "sm__maximum_warps_per_active_cycle_pct",
];

/// Runs `program` (with `args`), checks its output and every counter it labels exact against
/// `h200/{table}.ncu.csv`; returns the launches and, per group of [`GROUPS`], how many are exact.
fn check(program: &str, table: &str, args: &[&str]) -> (usize, [usize; 3]) {
    let dir = support::scratch(&format!("bench4-{program}"));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            &format!("calibration/run/bench4/{program}.cu"),
            "--",
        ])
        .args(args)
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let h200 = repo().join("calibration/run/bench4/h200");
    let gpu_out = std::fs::read_to_string(h200.join(format!("{table}.stdout"))).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mine: Vec<&str> = printed.lines().collect();
    let theirs: Vec<&str> = gpu_out.lines().filter(|l| !l.starts_with("==")).collect();
    assert!(!theirs.is_empty());
    assert_eq!(&mine[..theirs.len()], &theirs[..], "{program}: the GPU's output");
    let table: BTreeMap<u64, support::NcuLaunch> = read_ncu_csv(&h200.join(format!("{table}.ncu.csv")));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), table.len(), "{program}: launches");
    let mut exact = [0; 3];
    for l in launches {
        let m = &l["metrics"];
        let id = l["id"].as_u64().unwrap();
        let (name, hw) = &table[&id];
        let kernel = l["kernel"].as_str().unwrap();
        // ncu prints a template's arguments its own way (`lift<int, 0>` for `lift<int, false>`)
        let stem = |n: &str| n.split(['(', '<']).next().unwrap_or_default().to_string();
        assert!(
            stem(name) == stem(kernel),
            "{program} launch {id}: {kernel} against the H200's {name}"
        );
        for k in ALWAYS {
            // ncu's CSV prints the occupancy with two decimals (46.88 for 46.875)
            let mine = (m[k].as_f64().unwrap() * 100.0).round() / 100.0;
            assert_eq!(mine, hw[k], "{program} launch {id} ({kernel}): {k}");
        }
        for (g, (flag, keys)) in GROUPS.iter().enumerate() {
            if m[*flag] != 1.0 {
                continue;
            }
            exact[g] += 1;
            for k in *keys {
                assert_eq!(
                    m[*k].as_f64().unwrap(),
                    hw[*k],
                    "{program} launch {id} ({kernel}): {k}, labelled exact"
                );
            }
        }
    }
    (launches.len(), exact)
}

macro_rules! program {
    ($name:ident, $table:expr, [$($arg:expr),*], $launches:expr, $exact:expr) => {
        #[test]
        fn $name() {
            let (n, exact) = check(stringify!($name), $table, &[$($arg),*]);
            assert_eq!(n, $launches);
            let want: [usize; 3] = $exact;
            for (g, (flag, _)) in GROUPS.iter().enumerate() {
                assert!(
                    exact[g] >= want[g],
                    "{}: {} launches labelled {flag}, expected at least {}",
                    stringify!($name),
                    exact[g],
                    want[g]
                );
            }
        }
    };
}

// the 9/7 lifting's line reads s[k-1], s[k], s[k+1] in each of 4 unrolled steps; the machine code
// reads two of the steps with an LDS.64: the float kernels' shared counters are estimates
program!(dwt, "dwt", [], 12, [12, 6, 12]);
// `track`'s shared counters: estimates (its lines do not match the machine code's one for one)
program!(hwall, "hwall", [], 7, [7, 1, 7]);
program!(vlc, "vlc", [], 3, [3, 3, 3]);
// the scatter's stores take slots from atomics: `bsort` and `merge` read data whose layout the
// GPU's atomic order decided (estimates, `warpscope__order_dependent_input`)
program!(hsort, "hsort", [], 5, [3, 3, 2]);
program!(leuko, "leuko", [], 3, [3, 3, 3]);
program!(mummer, "mummer", [], 2, [2, 2, 2]);
program!(myocyte, "myocyte", [], 6, [6, 6, 6]);
