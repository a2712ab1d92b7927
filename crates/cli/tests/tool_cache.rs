//! The on-disk cache of ptxas / nvdisasm output (`warpscope_toolchain::cache`) end to end: a second
//! `analyze` of the same PTX reads the machine code from the cache and answers byte for byte as the
//! first; corrupt entries are ignored and rewritten; an unwritable cache directory and
//! `WARPSCOPE_NO_CACHE` change nothing in the answer.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cuda_root() -> String {
    std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)")
}

/// `analyze` of a PTX kernel (machine-code widths and occupancy from ptxas + nvdisasm) with the
/// CUDA tools of `root` and the cache in `dir` (or off); its JSON.
fn analyze_with(root: &Path, cache: Option<&Path>) -> Vec<u8> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    cmd.args([
        "analyze",
        "crates/cli/fixtures/classic/scanBlelloch.ptx",
        "--grid",
        "2",
        "--block",
        "256",
        "--arg",
        "buf:4096",
        "--arg",
        "buf:4096",
        "--section",
        "banks,occupancy",
        "--format",
        "json",
    ])
    .env("WARPSCOPE_CUDA_ROOT", root)
    .env_remove("WARPSCOPE_NO_CACHE")
    .current_dir(repo());
    match cache {
        Some(d) => cmd.env("WARPSCOPE_CACHE_DIR", d),
        None => cmd.env("WARPSCOPE_NO_CACHE", "1"),
    };
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// [`analyze_with`] the wheels' CUDA root.
fn analyze(cache: Option<&Path>) -> Vec<u8> {
    analyze_with(Path::new(&cuda_root()), cache)
}

fn entries(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn names_of(entries: &[(String, Vec<u8>)]) -> Vec<&str> {
    entries.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn the_cache_changes_no_answer() {
    let dir = std::env::temp_dir().join(format!("warpscope-tool-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);

    let uncached = analyze(None);
    let v: serde_json::Value = serde_json::from_slice(&uncached).unwrap();
    assert_eq!(v["widths"], "machine code", "{}", v["widths_note"]);
    assert!(v["occupancy"].is_object(), "{v}");

    // first run fills the cache: the cubin, its disassembly, ptxas's resource report
    assert_eq!(analyze(Some(&dir)), uncached);
    let filled = entries(&dir);
    let kinds: Vec<&str> = filled.iter().map(|(n, _)| n.split('-').next().unwrap()).collect();
    assert_eq!(kinds, ["cubin", "ptxas", "sass"], "{kinds:?}");

    // second run reads it and writes nothing new
    assert_eq!(analyze(Some(&dir)), uncached);
    assert!(entries(&dir) == filled, "{:?}", names_of(&entries(&dir)));

    // corrupt entries (truncated, emptied) are ignored, the tools rerun and the entries rewritten
    for (i, (name, bytes)) in filled.iter().enumerate() {
        let cut = if i % 2 == 0 {
            &bytes[..bytes.len() / 2]
        } else {
            &[][..]
        };
        std::fs::write(dir.join(name), cut).unwrap();
    }
    assert_eq!(analyze(Some(&dir)), uncached);
    // the same entries again (ptxas's report carries its compile time, so only its name is compared)
    let again = entries(&dir);
    assert_eq!(names_of(&again), names_of(&filled));
    for ((n, a), (_, b)) in again.iter().zip(&filled) {
        assert!(n.starts_with("ptxas-v-") || a == b, "{n} differs");
    }

    // a cache directory that cannot be created: the same answer
    let blocked = dir.join("file");
    std::fs::write(&blocked, b"not a directory").unwrap();
    assert_eq!(analyze(Some(&blocked.join("cache"))), uncached);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One ptxas run gives both the cubin (the machine code's widths and branches) and the resource
/// report (the occupancy's registers): with the cache off, `analyze --section banks,occupancy`
/// runs ptxas exactly once. The CUDA root is the wheels' with `bin/ptxas` wrapped to log each run.
#[test]
fn one_ptxas_run_serves_machine_code_and_resources() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let real = PathBuf::from(cuda_root());
    let root = std::env::temp_dir().join(format!("warpscope-ptxas-count-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("bin")).unwrap();
    for e in std::fs::read_dir(&real).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "bin" {
            symlink(e.path(), root.join(e.file_name())).unwrap();
        }
    }
    for e in std::fs::read_dir(real.join("bin")).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "ptxas" {
            symlink(e.path(), root.join("bin").join(e.file_name())).unwrap();
        }
    }
    let log = root.join("ptxas.log");
    let wrapper = root.join("bin/ptxas");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real.join("bin/ptxas").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();

    let out = analyze_with(&root, None);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["widths"], "machine code", "{}", v["widths_note"]);
    assert!(v["occupancy"]["registers"].as_u64().is_some_and(|r| r > 0), "{v}");
    let runs = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(runs.lines().count(), 1, "ptxas runs: {runs:?}");
    let _ = std::fs::remove_dir_all(&root);
}
