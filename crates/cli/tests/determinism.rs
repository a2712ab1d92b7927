//! The same inputs give byte-identical JSON whatever the number of threads: `analyze` and `check`
//! run with RAYON_NUM_THREADS = 1, 2 and 4 on kernels of several blocks (seed, classic and
//! planted-bug suites), and every output must equal the single-threaded one.

use std::path::PathBuf;
use std::process::Command;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

fn run_with_threads(threads: u32, args: &[String]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .env("RAYON_NUM_THREADS", threads.to_string())
        .args(args)
        .output()
        .expect("run warpscope");
    // `check` exits 1 when it finds errors; both 0 and 1 give a JSON report.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.stdout.is_empty(), "{args:?}: no output");
    out.stdout
}

fn same_for_all_thread_counts(args: &[String]) {
    let one = run_with_threads(1, args);
    serde_json::from_slice::<serde_json::Value>(&one).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"));
    for t in [2, 4] {
        let other = run_with_threads(t, args);
        assert!(
            one == other,
            "{args:?}: RAYON_NUM_THREADS={t} output differs from the single-threaded one"
        );
    }
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn analyze_json_is_identical_for_1_2_4_threads() {
    for (file, grid, block, args) in [
        (
            "crates/cli/fixtures/classic/matmulTiled.ptx",
            "4,4",
            "16,16",
            &["buf:16384", "buf:16384", "buf:16384"][..],
        ),
        (
            "crates/cli/fixtures/classic/transposeF.ptx",
            "2,2",
            "32,8",
            &["buf:16384", "buf:16384"][..],
        ),
        (
            "crates/cli/fixtures/classic/scanBlelloch.ptx",
            "2",
            "256",
            &["buf:4096", "buf:4096"][..],
        ),
        (
            "crates/cli/fixtures/seeds/sqRowCol.ptx",
            "1",
            "32,32",
            &["buf:4096"][..],
        ),
    ] {
        let mut a = s(&[
            "analyze",
            "--grid",
            grid,
            "--block",
            block,
            "--ptx-widths",
            "--format",
            "json",
        ]);
        a.push(repo(file).display().to_string());
        for x in args {
            a.push("--arg".into());
            a.push(x.to_string());
        }
        same_for_all_thread_counts(&a);
    }
}

#[test]
fn check_json_is_identical_for_1_2_4_threads() {
    // Kernels with findings (races, barriers, out of bounds) and a clean one, 2 blocks or more.
    for (kernel, grid, block, dyn_smem, n) in [
        ("race_raw_nosync", "2", "64", "0", 128),
        ("divergent_barrier_odd", "2", "64", "0", 128),
        ("oob_global_noguard", "2", "64", "0", 100),
        ("uninit_dyn", "2", "64", "256", 128),
        ("ok_transpose_pad", "2,2", "16,16", "0", 1024),
    ] {
        let ptx = repo(&format!("calibration/bugs/ptx/{kernel}.ptx"));
        let mut a = s(&[
            "check",
            "--grid",
            grid,
            "--block",
            block,
            "--dyn-smem",
            dyn_smem,
            "--format",
            "json",
        ]);
        a.push(ptx.display().to_string());
        for x in [
            format!("buf:{}:zero", 4 * n),
            format!("buf:{}", 4 * n),
            format!("i32:{n}"),
        ] {
            a.push("--arg".into());
            a.push(x);
        }
        same_for_all_thread_counts(&a);
    }
}
