//! Runs the real nvcc/ptxas (from `WARPSCOPE_CUDA_ROOT`, which `./scripts/test` sets) on a fixture.
//! Fails, never skips, when the variable is not set.

use std::path::PathBuf;

use warpscope_toolchain::locate::{CudaRoot, SearchEnv, find};
use warpscope_toolchain::resources::{resource_usage, select};

fn root() -> CudaRoot {
    let env = SearchEnv::from_process();
    assert!(
        env.warpscope_cuda_root.is_some(),
        "WARPSCOPE_CUDA_ROOT is not set (run ./scripts/test or export it to $(./scripts/cuda-wheels.sh))"
    );
    let r = find(&env).expect("WARPSCOPE_CUDA_ROOT has no bin/ptxas");
    assert_eq!(r.source, "WARPSCOPE_CUDA_ROOT");
    r
}

#[test]
fn nvcc_reports_the_transpose_tile() {
    let root = root();
    let cu = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transpose.cu");
    let ks = resource_usage(&root, &cu, 90).unwrap();
    let k = select(&ks, "transpose", &cu).unwrap();
    assert_eq!(k.arch, "sm_90");
    assert_eq!(k.smem, 32 * 33 * 4);
    assert_eq!(k.barriers, 1);
    assert!((4..=32).contains(&k.registers), "{k:?}");
    assert_eq!((k.spill_stores, k.spill_loads), (0, 0));
}

#[test]
fn compile_errors_name_the_file() {
    let root = root();
    let dir = std::env::temp_dir().join(format!("warpscope-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.cu");
    std::fs::write(&bad, "__global__ void k( { }\n").unwrap();
    let err = resource_usage(&root, &bad, 90).unwrap_err().to_string();
    assert!(err.contains("bad.cu"), "{err}");
    let txt = dir.join("notes.txt");
    std::fs::write(&txt, "x").unwrap();
    assert!(
        resource_usage(&root, &txt, 90)
            .unwrap_err()
            .to_string()
            .contains(".cu or .ptx")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
