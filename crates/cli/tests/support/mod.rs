//! What several test files share: the CUDA wheels' root and one program of `tests/data` built with
//! their nvcc against the shared runtime. Each test file uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn cuda_root() -> String {
    std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)")
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
