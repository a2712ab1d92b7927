//! The CUDA wheels are named in three places, which must agree: `locate::CUDA_WHEELS` (what
//! `warpscope setup` installs), the Python package's dependencies (`python/pyproject.toml`) and
//! `scripts/cuda-wheels.sh` (what the tests use).

use std::path::Path;

use warpscope_toolchain::locate::CUDA_WHEELS;

fn repo_file(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The `nvidia-...` requirements (with a version) of a text, in order.
fn requirements(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',')
        .filter(|s| s.starts_with("nvidia-") && s.contains("~="))
        .map(str::to_string)
        .collect()
}

#[test]
fn setup_the_package_and_the_test_script_install_the_same_wheels() {
    let ours: Vec<String> = CUDA_WHEELS.iter().map(|s| s.to_string()).collect();
    assert_eq!(ours.len(), 8);
    assert!(ours.iter().all(|w| w.ends_with("~=13.0")), "{ours:?}");
    assert_eq!(requirements(&repo_file("python/pyproject.toml")), ours);
    assert_eq!(requirements(&repo_file("scripts/cuda-wheels.sh")), ours);
}
