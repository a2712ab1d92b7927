//! calibration/run/bench3's programs (written for this project in the shapes of classic GPU
//! benchmarks warpscope was not built around: Gaussian elimination in two kernels per step, a
//! dynamic-programming row sweep, a neural-net layer forward and backward, anisotropic diffusion,
//! a 3-D stencil walking z, neighbour-box particle forces, an unstructured-mesh Euler step,
//! nearest neighbours, a facility-location gain) under `warpscope run`, against what an H200
//! printed and counted (calibration/run/bench3/h200/, measured by `ncu.sh`): each program prints
//! what the GPU printed; every launch's registers and theoretical occupancy equal the H200's; every
//! launch whose branch, shared-memory or global-memory counters are labelled exact equals the
//! H200's branch targets and divergent targets, shared instructions and (instruction-attributed)
//! wavefronts, global requests and sectors; and at least the launches listed below are labelled
//! exact, so a change that loses them fails.

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
    let dir = support::scratch(&format!("bench3-{program}"));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "run",
            "--export",
            export.to_str().unwrap(),
            &format!("calibration/run/bench3/{program}.cu"),
            "--",
        ])
        .args(args)
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let h200 = repo().join("calibration/run/bench3/h200");
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
        assert!(
            name.starts_with(kernel.split('(').next().unwrap()),
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

program!(gauss, "gauss", [], 510, [510, 510, 510]);
program!(pathfind, "pathfind", [], 5, [5, 5, 5]);
program!(backprop, "backprop", [], 6, [6, 6, 6]);
program!(srad, "srad", [], 10, [10, 10, 10]);
program!(hotspot3d, "hotspot3d", [], 5, [5, 5, 5]);
// the loop ptxas unrolls 6 ways (the PTX 2): followed on the machine code; its shared loads are
// merged differently line by line (an estimate)
program!(lavamd, "lavamd", [], 1, [1, 0, 1]);
program!(cfd, "cfd", [], 14, [14, 14, 14]);
program!(nn, "nn", [], 2, [2, 2, 2]);
// `gain`'s last branch reads a word of shared memory other warps' atomics wrote in the phase:
// its branch counters are an estimate (equal to the H200 in 6 of its 10 launches)
program!(sclust, "sclust", [], 20, [10, 20, 20]);
