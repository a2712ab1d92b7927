//! What the CLI's test binaries share: the repository, the CUDA wheels' root, building a program
//! of `tests/data` or a calibration folder's programs (its `build.sh`) with the wheels' nvcc,
//! reading Nsight Compute's CSV, and checking a whole program under `warpscope run` against what
//! an H200 printed and counted ([`check_against_h200`]). Each test binary uses its own part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The CUDA wheels' root (`./scripts/test` exports it); a test that needs it fails loudly without.
pub fn cuda_root() -> String {
    std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)")
}

/// A fresh folder of its own under the system's temporary folder, removed when dropped.
pub fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("warpscope-{tag}-"))
        .tempdir()
        .unwrap()
}

/// Runs `sh <script> <out>` (a calibration folder's `build.sh`, relative to the repository)
/// with the CUDA wheels' root, and fails the test with its error output when it fails.
pub fn build(script: &str, out: &Path) {
    let o = Command::new("sh")
        .arg(repo().join(script))
        .arg(out)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Builds `tests/data/{src}` with the wheels' nvcc (`-O2 -arch=sm_90 -cudart shared`, then
/// `extra`) into `dir/{name}`, `dir/lib` holding the `libcudart.so` link it is linked against.
pub fn build_program(dir: &Path, src: &str, name: &str, extra: &[&str]) -> PathBuf {
    let lib = dir.join("lib");
    std::fs::create_dir_all(&lib).unwrap();
    let cu = cuda_root();
    let link = lib.join("libcudart.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(Path::new(&cu).join("lib/libcudart.so.13"), &link).unwrap();
    let out = Command::new(Path::new(&cu).join("bin/nvcc"))
        .args(["-O2", "-arch=sm_90", "-cudart", "shared"])
        .args(extra)
        .arg(format!("-L{}", lib.display()))
        .arg("-o")
        .arg(dir.join(name))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(src))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "nvcc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(name)
}

/// One launch of an ncu CSV: kernel name and metric → value.
pub type NcuLaunch = (String, BTreeMap<String, f64>);

/// An ncu CSV (`--csv --metrics`, one row per metric): launch id → (kernel name, metric → value);
/// cells that are not numbers (`n/a`) are left out.
pub fn read_ncu_csv(path: &Path) -> BTreeMap<u64, NcuLaunch> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: BTreeMap<u64, NcuLaunch> = BTreeMap::new();
    let mut header: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('"')) {
        let cells: Vec<String> = line
            .trim_matches('"')
            .split("\",\"")
            .map(str::to_string)
            .collect();
        if header.is_empty() {
            header = cells;
            continue;
        }
        let get = |name: &str| cells[header.iter().position(|h| h == name).unwrap()].clone();
        let id: u64 = get("ID").parse().unwrap();
        let e = out
            .entry(id)
            .or_insert_with(|| (get("Kernel Name"), BTreeMap::new()));
        if let Ok(v) = get("Metric Value").replace(',', "").parse::<f64>() {
            e.1.insert(get("Metric Name"), v);
        }
    }
    out
}

/// The counter groups `warpscope run` labels exact or an estimate: (the export's flag, the ncu
/// counters it covers; shared wavefronts under ncu's instruction-attributed names).
pub const GROUPS: [(&str, &[&str]); 3] = [
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
pub const ALWAYS: [&str; 2] = [
    "launch__registers_per_thread",
    "sm__maximum_warps_per_active_cycle_pct",
];

/// A kernel's name without return type, namespaces, template arguments or parameters, as both
/// warpscope and ncu can be compared by it (ncu prints `lift<int, 0>` for `lift<int, false>`,
/// leaves out the return type and namespaces' inline versions).
pub fn kernel_stem(name: &str) -> &str {
    let name = name.split(['<', '(']).next().unwrap_or_default();
    let name = name.rsplit("::").next().unwrap_or_default();
    name.trim().trim_start_matches("void ").trim()
}

/// Runs `warpscope run --export FILE ARGS` in the repository (`args`: a `.cu` file then `--` and
/// the program's arguments, or `--` and a built program) and checks it against what an H200
/// printed and counted in `{h200}/{table}.stdout` and `{h200}/{table}.ncu.csv` (`h200` relative
/// to the repository): the run succeeds; its output starts with the GPU's (lines ncu or
/// compute-sanitizer added, `==...`, left out); it records ncu's launches, each of the same kernel;
/// every launch's registers and theoretical occupancy equal the H200's; and every counter of a
/// group of [`GROUPS`] the launch labels exact equals the H200's. Returns the launches and, per
/// group, how many are labelled exact.
pub fn check_against_h200(h200: &str, table: &str, args: &[&std::ffi::OsStr]) -> (usize, [usize; 3]) {
    let (launches, exact, _) = check_against_h200_export(h200, table, args);
    (launches, exact)
}

/// [`check_against_h200`], also returning the run's export (for tests that ask which launches
/// carry which label).
pub fn check_against_h200_export(
    h200: &str,
    table: &str,
    args: &[&std::ffi::OsStr],
) -> (usize, [usize; 3], serde_json::Value) {
    let dir = scratch(&format!("h200-{table}"));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(&export)
        .args(args)
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{table}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let h200 = repo().join(h200);
    let gpu_out = std::fs::read_to_string(h200.join(format!("{table}.stdout"))).unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let mine: Vec<&str> = printed.lines().collect();
    let theirs: Vec<&str> = gpu_out.lines().filter(|l| !l.starts_with("==")).collect();
    assert!(!theirs.is_empty());
    assert!(mine.len() >= theirs.len(), "{table}: printed {printed}");
    assert_eq!(&mine[..theirs.len()], &theirs[..], "{table}: the GPU's output");
    let ncu = read_ncu_csv(&h200.join(format!("{table}.ncu.csv")));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), ncu.len(), "{table}: launches");
    let mut exact = [0; 3];
    for l in launches {
        let m = &l["metrics"];
        let id = l["id"].as_u64().unwrap();
        let (name, hw) = &ncu[&id];
        let kernel = l["kernel"].as_str().unwrap();
        assert_eq!(
            kernel_stem(kernel),
            kernel_stem(name),
            "{table} launch {id}: {kernel} against the H200's {name}"
        );
        for k in ALWAYS {
            // ncu's CSV prints the occupancy with two decimals (46.88 for 46.875)
            let mine = (m[k].as_f64().unwrap() * 100.0).round() / 100.0;
            assert_eq!(mine, hw[k], "{table} launch {id} ({kernel}): {k}");
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
                    "{table} launch {id} ({kernel}): {k}, labelled exact"
                );
            }
        }
    }
    (launches.len(), exact, v)
}

/// Asserts `program` recorded `launches` launches and that at least `want[g]` of them are
/// labelled exact in each group `g` of [`GROUPS`] (what [`check_against_h200`] returned: `got`).
pub fn assert_exact_at_least(program: &str, got: (usize, [usize; 3]), launches: usize, want: [usize; 3]) {
    assert_eq!(got.0, launches, "{program}: launches");
    if got.1 != want {
        // more than asked: the test's list can be raised (`--nocapture` shows it)
        println!(
            "{program}: {:?} launches labelled exact, the test asks at least {want:?}",
            got.1
        );
    }
    for (g, (flag, _)) in GROUPS.iter().enumerate() {
        assert!(
            got.1[g] >= want[g],
            "{program}: {} launches labelled {flag}, expected at least {}",
            got.1[g],
            want[g]
        );
    }
}

/// The folder a calibration set's programs were built into by its `build.sh` (`folder` relative
/// to the repository): built once per test binary, on first use, into a scratch folder kept
/// until the binary ends. A test binary builds one set.
pub fn built(folder: &str) -> &'static Path {
    static DIR: std::sync::OnceLock<(String, tempfile::TempDir)> = std::sync::OnceLock::new();
    let (set, dir) = DIR.get_or_init(|| {
        let tag = folder.rsplit('/').next().unwrap_or(folder);
        let dir = scratch(tag);
        build(&format!("{folder}/build.sh"), dir.path());
        (folder.to_string(), dir)
    });
    assert_eq!(set, folder, "a test binary builds one calibration set");
    dir.path()
}

/// Runs `{folder}`'s built `program` ([`built`]) and checks it against `{folder}/h200/{program}`
/// ([`check_against_h200`]).
pub fn check_built(folder: &str, program: &str) -> (usize, [usize; 3]) {
    let bin = built(folder).join(program);
    check_against_h200(
        &format!("{folder}/h200"),
        program,
        &["--".as_ref(), bin.as_os_str()],
    )
}

/// Runs `{folder}/{program}.cu` with `args` (built by `warpscope run` itself) and checks it
/// against `{folder}/h200/{table}` ([`check_against_h200`]).
pub fn check_source(folder: &str, program: &str, table: &str, args: &[&str]) -> (usize, [usize; 3]) {
    let cu = format!("{folder}/{program}.cu");
    let mut all: Vec<&std::ffi::OsStr> = vec![cu.as_ref(), "--".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    check_against_h200(&format!("{folder}/h200"), table, &all)
}

/// Defines `program!`, one test per program of a calibration set measured on the H200, for the
/// set's folder (relative to the repository):
///
/// - `bench_programs!(built "calibration/run/bench5")`: the set's `build.sh` builds every
///   program once ([`built`]); `program!(name, launches, [branch, shared, global])` runs the
///   binary `name` and checks it against `h200/name` ([`check_built`]);
/// - `bench_programs!(source "calibration/run/bench3")`: `warpscope run` builds each `.cu`
///   itself; `program!(name, "table", [args], launches, [branch, shared, global])` runs
///   `name.cu -- args` and checks it against `h200/table` ([`check_source`]).
///
/// Each test then asserts the launches recorded and at least that many launches labelled exact
/// per counter group ([`assert_exact_at_least`]).
#[allow(unused_macros)]
macro_rules! bench_programs {
    (built $folder:literal) => {
        support::bench_programs!(@built $folder, $);
    };
    (source $folder:literal) => {
        support::bench_programs!(@source $folder, $);
    };
    (@built $folder:literal, $d:tt) => {
        macro_rules! program {
            ($d name:ident, $d launches:expr, $d exact:expr) => {
                #[test]
                fn $d name() {
                    let got = support::check_built($folder, stringify!($d name));
                    support::assert_exact_at_least(stringify!($d name), got, $d launches, $d exact);
                }
            };
        }
    };
    (@source $folder:literal, $d:tt) => {
        macro_rules! program {
            ($d name:ident, $d table:expr, [$d ($d arg:expr),*], $d launches:expr, $d exact:expr) => {
                #[test]
                fn $d name() {
                    let got = support::check_source($folder, stringify!($d name), $d table, &[$d ($d arg),*]);
                    support::assert_exact_at_least(stringify!($d name), got, $d launches, $d exact);
                }
            };
        }
    };
}
#[allow(unused_imports)]
pub(crate) use bench_programs;

/// What `warpscope run --export` printed and exported for one program.
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub export: serde_json::Value,
}

impl Ran {
    /// Everything the run printed, standard output first.
    pub fn said(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `warpscope run --export` on `target` (a `.cu` or program, relative to the repository)
/// with the CUDA wheels' root, and fails the test when the run fails.
pub fn run_exported(tag: &str, target: &str) -> Ran {
    let dir = scratch(tag);
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export", export.to_str().unwrap(), target])
        .current_dir(repo())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&export).unwrap();
    Ran {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        export: serde_json::from_str(&text).unwrap(),
    }
}

/// What `warpscope run --check --export` exported for one program, with its exit status.
pub struct Checked {
    pub export: serde_json::Value,
    pub status: i32,
    pub stdout: String,
}

/// Runs `warpscope run --check --export` on `src` (a `.cu`) with `-D` for each of `defines` and
/// the extra arguments `extra` (before the source), from a scratch folder, with the CUDA wheels'
/// root; fails the test when no export was written (whatever the exit status: a finding exits 1).
pub fn run_checked(tag: &str, src: &Path, defines: &[&str], extra: &[&std::ffi::OsStr]) -> Checked {
    let dir = scratch(tag);
    let export = dir.path().join("run.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    cmd.args(["run", "--check", "--export"]).arg(&export).args(extra);
    for d in defines {
        cmd.args(["-D", d]);
    }
    let out = cmd
        .arg(src)
        .current_dir(dir.path())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&export).unwrap_or_else(|e| {
        panic!(
            "{} {defines:?}: no export ({e}): {}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Checked {
        export: serde_json::from_str(&text).unwrap(),
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}
