//! calibration/run/cccl's programs (Thrust and CUB: device_vector algorithms, radix and merge
//! sorts, CUB's device-wide algorithms with decoupled look-back, block- and warp-wide collectives
//! in user kernels), built with the wheels' nvcc (`build.sh`), under `warpscope run`, against what
//! an H200 printed and counted (calibration/run/cccl/h200/, measured by `ncu.sh`): each program
//! prints what the GPU printed; every launch's registers and theoretical occupancy equal the
//! H200's; every launch whose branch, shared-memory or global-memory counters are labelled exact
//! equals the H200's; and at least the launches listed below are labelled exact, so a change that
//! loses them fails. Building the four programs takes most of the time (about 2.5 CPU minutes of
//! nvcc; the runs about 30 s).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

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

/// The programs, built once for every test of this binary.
fn built() -> &'static PathBuf {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = support::scratch("cccl");
        support::build("calibration/run/cccl/build.sh", dir.path());
        let p = dir.path().to_path_buf();
        (dir, p)
    })
    .1
}

/// Runs `program`, checks its output and every counter it labels exact against
/// `h200/{program}.ncu.csv`; returns the launches and, per group of [`GROUPS`], how many are exact.
fn check(program: &str) -> (usize, [usize; 3]) {
    let bin = built();
    let dir = support::scratch(&format!("cccl-{program}"));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), "--"])
        .arg(bin.join(program))
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let h200 = repo().join("calibration/run/cccl/h200");
    let gpu_out = std::fs::read_to_string(h200.join(format!("{program}.stdout"))).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mine: Vec<&str> = printed.lines().collect();
    let theirs: Vec<&str> = gpu_out.lines().filter(|l| !l.starts_with("==")).collect();
    assert!(!theirs.is_empty());
    assert_eq!(&mine[..theirs.len()], &theirs[..], "{program}: the GPU's output");
    let table: BTreeMap<u64, support::NcuLaunch> = read_ncu_csv(&h200.join(format!("{program}.ncu.csv")));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), table.len(), "{program}: launches");
    let mut exact = [0; 3];
    for l in launches {
        let m = &l["metrics"];
        let id = l["id"].as_u64().unwrap();
        let (name, hw) = &table[&id];
        let kernel = l["kernel"].as_str().unwrap();
        // ncu prints the name without its return type and namespaces' inline version
        let short = |k: &str| {
            let k = k.split(['<', '(']).next().unwrap();
            k.rsplit("::").next().unwrap().to_string()
        };
        assert_eq!(
            short(kernel),
            short(name),
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
    ($name:ident, $launches:expr, $exact:expr) => {
        #[test]
        fn $name() {
            let (n, exact) = check(stringify!($name));
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

// tile_scan's shared counters: the raking scan's repeated loads that ptxas removed (an estimate)
program!(cubblock, 4, [4, 3, 4]);
// the look-back kernels (scan, select, onesweep): spin loops, every counter an estimate
program!(cubdev, 22, [14, 17, 16]);
program!(tbasic, 18, [14, 14, 14]);
program!(tsort, 43, [25, 27, 29]);
