//! `warpscope run` on programs that load the CUDA driver or NVIDIA's kernel libraries themselves:
//! the driver API is refused with the reason; a kernel library is named on stderr and the
//! program's own kernels still run. The libraries here are empty stand-ins with the real names
//! (built with the system's C compiler), so the program's `DT_NEEDED` entries are what a real
//! build gives.

mod support;

use std::path::Path;
use std::process::{Command, Output};
use support::cuda_root;

/// An empty shared library with soname `soname` in `dir`.
fn stand_in(dir: &Path, soname: &str) {
    let src = dir.join("empty.c");
    std::fs::write(&src, "int warpscope_stand_in(void) { return 0; }\n").unwrap();
    let out = Command::new("cc")
        .args(["-shared", "-fPIC", &format!("-Wl,-soname,{soname}"), "-o"])
        .arg(dir.join(soname))
        .arg(&src)
        .output()
        .expect("the system's C compiler (cc) is needed for this test");
    assert!(
        out.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds tests/data/gpulibs/scale.cu linked against the stand-ins `libs` (kept as needed even
/// though nothing calls them).
fn build(dir: &Path, libs: &[&str]) -> std::path::PathBuf {
    for l in libs {
        stand_in(dir, l);
    }
    let mut extra: Vec<String> = vec!["-Xlinker".into(), "--no-as-needed".into()];
    extra.push(format!("-L{}", dir.display()));
    for l in libs {
        extra.push(format!("-l:{l}"));
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    support::build_program(dir, "gpulibs/scale.cu", "app", &extra)
}

fn run(dir: &Path, app: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--"])
        .arg(app)
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env("LD_LIBRARY_PATH", dir)
        .output()
        .unwrap()
}

#[test]
fn kernel_libraries_are_named_and_the_programs_kernels_run() {
    let dir = support::scratch("gpulibs");
    let app = build(dir.path(), &["libcublas.so.13", "libcurand.so.10"]);
    let out = run(dir.path(), &app);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("x[31] = 62"), "{stdout}");
    for lib in ["libcublas.so.13", "libcurand.so.10"] {
        assert!(
            stderr.contains(&format!(
                "loads {lib}, an NVIDIA library whose kernels are machine code"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn a_program_that_loads_the_driver_is_refused_with_the_reason() {
    let dir = support::scratch("gpulibs-driver");
    let app = build(dir.path(), &["libcuda.so.1"]);
    let out = run(dir.path(), &app);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("loads the CUDA driver (libcuda.so.1)") && stderr.contains("driver API"),
        "{stderr}"
    );
}

#[test]
fn a_plain_runtime_program_gets_no_library_notice() {
    let dir = support::scratch("gpulibs-plain");
    let app = build(dir.path(), &[]);
    let out = run(dir.path(), &app);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("NVIDIA library"), "{stderr}");
}
