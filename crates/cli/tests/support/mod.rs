//! What the CLI's test binaries share: the repository, the CUDA wheels' root, building a program
//! of `tests/data` or a calibration folder's programs (its `build.sh`) with the wheels' nvcc, and
//! reading Nsight Compute's CSV. Each test binary uses its own part of it.
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
