//! NVRTC through the pip wheel: needs `WARPSCOPE_CUDA_ROOT` (set by `./scripts/test`), fails loudly
//! without it. No GPU is needed.

use std::path::PathBuf;

use warpscope_gpu::nvrtc::{CompileOptions, Nvrtc, parse_ptxas_usage};

fn nvrtc() -> Nvrtc {
    let root = std::env::var_os("WARPSCOPE_CUDA_ROOT").expect(
        "WARPSCOPE_CUDA_ROOT is not set: run ./scripts/test (it installs the CUDA wheels and sets it)",
    );
    let lib = PathBuf::from(root).join("lib");
    Nvrtc::load(Some(&lib)).expect("NVRTC from WARPSCOPE_CUDA_ROOT/lib")
}

const TRANSPOSE: &str = r#"
extern "C" __global__ void k(int *out) {
    __shared__ int t[32][33];
    t[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
"#;

#[test]
fn compiles_to_ptx_and_cubin_with_lineinfo() {
    let n = nvrtc();
    assert!(n.version().0 >= 12, "{:?}", n.version());
    let mut opts = CompileOptions::for_cc(90);
    opts.extra.push("--ptxas-options=-v".into());
    let c = n.compile(TRANSPOSE, "k.cu", &opts).expect("compile");
    assert!(c.ptx.contains(".target sm_90"), "{}", c.ptx);
    assert!(c.ptx.contains(".visible .entry k("), "{}", c.ptx);
    assert!(c.ptx.contains(".loc"), "lineinfo missing");
    assert!(c.ptx.contains(".shared .align 4 .b8"), "{}", c.ptx);
    let cubin = c.cubin.expect("cubin for sm_90");
    assert_eq!(&cubin[..4], b"\x7fELF");
    let (regs, st, ld) = parse_ptxas_usage(&c.log).expect(&c.log);
    assert!(regs > 0 && regs < 32, "{regs}");
    assert_eq!((st, ld), (0, 0));
}

#[test]
fn ptx_only_for_a_virtual_architecture() {
    let n = nvrtc();
    let opts = CompileOptions {
        arch: "compute_90".into(),
        ..Default::default()
    };
    let c = n.compile(TRANSPOSE, "k.cu", &opts).expect("compile");
    assert!(c.cubin.is_none());
    assert!(c.ptx.contains("bar.sync"));
}

#[test]
fn maxrregcount_and_debug_change_the_code() {
    let n = nvrtc();
    let src = r#"extern "C" __global__ void k(float *o, const float *a, int n) {
        float acc[24];
        for (int i = 0; i < 24; ++i) acc[i] = a[(threadIdx.x * 7 + i * 13) % n];
        float s = 0.f;
        for (int r = 0; r < 24; ++r) for (int i = 0; i < 24; ++i) s += acc[i] * acc[(i + r) % 24];
        o[threadIdx.x] = s;
    }"#;
    let mut opts = CompileOptions::for_cc(90);
    opts.extra.push("--ptxas-options=-v".into());
    let free = n.compile(src, "r.cu", &opts).unwrap();
    let (r_free, _, _) = parse_ptxas_usage(&free.log).unwrap();
    opts.maxrregcount = Some(32);
    let capped = n.compile(src, "r.cu", &opts).unwrap();
    let (r_cap, _, _) = parse_ptxas_usage(&capped.log).unwrap();
    assert!(r_cap <= 32, "{r_cap}");
    assert!(r_free > r_cap, "{r_free} vs {r_cap}");
    let dbg = n
        .compile(
            src,
            "r.cu",
            &CompileOptions {
                debug: true,
                ..CompileOptions::for_cc(90)
            },
        )
        .unwrap();
    assert!(
        dbg.ptx.contains(".target sm_90, debug"),
        "-G PTX lacks the debug target"
    );
    assert!(
        dbg.ptx.contains("__local_depot"),
        "-G keeps the array in local memory"
    );
}

#[test]
fn a_compile_error_carries_the_log_with_file_and_line() {
    let n = nvrtc();
    let err = n
        .compile(
            "extern \"C\" __global__ void k() {\n  undefined_thing = 1;\n}\n",
            "bad.cu",
            &CompileOptions::for_cc(90),
        )
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("bad.cu(2)"), "{msg}");
    assert!(msg.contains("undefined_thing"), "{msg}");
    assert!(!err.is_unavailable());
}

#[test]
fn calibration_harnesses_compile_with_nvrtc() {
    let n = nvrtc();
    let opts = CompileOptions::for_cc(90);
    let bank = n
        .compile(warpscope_gpu::calibrate::BANK_CALIB_CU, "bank_calib.cu", &opts)
        .expect("bank_calib.cu");
    for w in [1, 2, 4, 8, 16] {
        for op in ["ld", "st"] {
            let name = format!("bank_{op}_w{w}");
            let mangled = format!(".entry _Z{}{name}PKjPj(", name.len());
            assert!(bank.ptx.contains(&mangled), "{mangled} missing");
        }
    }
    let chase = n
        .compile(warpscope_gpu::calibrate::CHASE_CU, "chase.cu", &opts)
        .expect("chase.cu");
    for k in ["chase_shared", "chase_ca", "chase_cg", "fma_chain"] {
        assert!(chase.ptx.contains(&format!("_Z{}{k}", k.len())), "{k} missing");
    }
    assert!(chase.cubin.is_some() && bank.cubin.is_some());
    let ldsm = n
        .compile(warpscope_gpu::calibrate::LDSM_CALIB_CU, "ldsm_calib.cu", &opts)
        .expect("ldsm_calib.cu");
    for kind in ["ldsm", "stsm", "ldgsts"] {
        let forms: &[&str] = if kind == "ldgsts" {
            &["ca4", "ca8", "ca16", "cg16", "cg16z0", "cg16z8"]
        } else {
            &["x1", "x2", "x4", "x1t", "x2t", "x4t"]
        };
        for f in forms {
            assert!(warpscope_gpu::calibrate::matrix_form_known(kind, f));
            let name = format!("{kind}_{f}");
            let mangled = format!(".entry _Z{}{name}PKjS0_PKhPj(", name.len());
            assert!(ldsm.ptx.contains(&mangled), "{mangled} missing");
        }
    }
    assert!(ldsm.cubin.is_some());
}
