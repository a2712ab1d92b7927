//! PTX for `sm_90a` (what Triton and `nvcc -arch=sm_90a` emit): ptxas builds it for `sm_90a`
//! (it refuses `-arch=sm_90` for such PTX), so the kernel has machine code, registers and
//! occupancy like any sm_90 kernel.

use std::process::Command;

#[test]
fn sm_90a_ptx_gets_machine_code_and_registers() {
    let root = std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)");
    let dir = std::env::temp_dir().join(format!("warpscope-sm90a-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("k.cu");
    std::fs::write(
        &cu,
        "__global__ void k(float *x) { __shared__ float s[256]; s[threadIdx.x] = x[threadIdx.x];\n\
         __syncthreads(); x[threadIdx.x] = s[255 - threadIdx.x] * 2.f; }\n",
    )
    .unwrap();
    let ptx = dir.join("k.ptx");
    let out = Command::new(format!("{root}/bin/nvcc"))
        .args(["-arch=sm_90a", "-ptx", "-o"])
        .arg(&ptx)
        .arg(&cu)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&ptx).unwrap().contains(".target sm_90a"));
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("analyze")
        .arg(&ptx)
        .args([
            "--grid", "1", "--block", "256", "--arg", "buf:1024", "--format", "json",
        ])
        .env("WARPSCOPE_CUDA_ROOT", &root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["widths"],
        "machine code",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(v["fix"]["resources"]["registers"].as_u64().unwrap() >= 8);
}
