//! The Hopper kernels of calibration/hopper/ (own Triton 3.9 kernels compiled for sm_90a, own CuTe
//! GEMMs), each emulated as `warpscope run` analyses a launch (the kernel's own machine code:
//! Triton's cubin, ptxas for the CuTe PTX) on the inputs calibration/hopper/host/hopper_run.cu
//! gives them on the GPU: the outputs must equal the H200's byte for byte (FNV-1a 64 hashes in
//! calibration/hopper/h200/run.txt) and every counter labelled exact must equal Nsight Compute's
//! (calibration/hopper/h200/ncu_*.csv); the differences that remain are listed below, each with
//! its reason, and asserted as they are so that a change of them is seen.

mod common;

use common::{
    Emulated, Expect, Replay, base, device_hashes, disassemble, f16_bits, input_value, map2d, ncu_rows,
    print_against, replay_against_h200, repo,
};
use warpscope_emu::Arg;

const H200: &str = "calibration/hopper/h200";

#[derive(Clone, Copy)]
enum Buf {
    In32(u32, usize),
    In16(u32, usize),
    /// An output: zeroed bytes, compared after the launch.
    Out(usize),
    /// Zeroed bytes not compared (scratch).
    Zero(usize),
}

#[derive(Clone, Copy)]
enum P {
    Ptr(usize),
    Null,
    I32(i32),
    I64(i64),
    F32(f32),
    /// A 2-D f16 tensor map over buffer `0`, dims (inner, outer), 64x64 box, 128-byte swizzle
    /// (hopper_run.cu's `map2d`).
    Map(usize, u32, u32),
}

struct K {
    name: &'static str,
    /// The machine code: Triton's own cubin, or None (ptxas of the PTX for sm_90a).
    cubin: Option<&'static str>,
    ptx: &'static str,
    symbol: &'static str,
    grid: [u32; 3],
    block: u32,
    dyn_smem: u32,
    bufs: Vec<Buf>,
    params: Vec<P>,
}

fn bytes(b: Buf) -> Vec<u8> {
    match b {
        Buf::In32(s, n) => (0..n)
            .flat_map(|i| input_value(s, i as u32).to_le_bytes())
            .collect(),
        Buf::In16(s, n) => (0..n)
            .flat_map(|i| f16_bits(input_value(s, i as u32)).to_le_bytes())
            .collect(),
        Buf::Out(n) | Buf::Zero(n) => vec![0; n],
    }
}

fn map(addr: u64, inner: u32, outer: u32) -> Vec<u8> {
    map2d(addr, 6, 2, [inner, outer], [64, 64])
}

fn kernels() -> Vec<K> {
    use Buf::*;
    use P::*;
    let t = |n: &str| -> &'static str {
        Box::leak(format!("calibration/hopper/triton/{n}.ptx").into_boxed_str())
    };
    let c = |n: &str| -> &'static str {
        Box::leak(format!("calibration/hopper/triton/{n}.cubin").into_boxed_str())
    };
    let (h, s, d) = (2usize, 128usize, 64usize);
    let hsd = h * s * d;
    let mut v = vec![
        K {
            name: "vadd",
            cubin: Some(c("vadd")),
            ptx: t("vadd"),
            symbol: "vadd",
            grid: [4, 1, 1],
            block: 128,
            dyn_smem: 0,
            bufs: vec![In32(1, 4000), In32(2, 4000), Out(16000)],
            params: vec![Ptr(0), Ptr(1), Ptr(2), I32(4000), Null, Null],
        },
        K {
            name: "softmax",
            cubin: Some(c("softmax")),
            ptx: t("softmax"),
            symbol: "softmax_rows",
            grid: [8, 1, 1],
            block: 128,
            dyn_smem: 16,
            bufs: vec![Out(12800), In32(3, 3200)],
            params: vec![Ptr(0), Ptr(1), I32(200), I32(200), I32(16), I32(200), Null, Null],
        },
        K {
            name: "layernorm",
            cubin: Some(c("layernorm")),
            ptx: t("layernorm"),
            symbol: "layernorm_rows",
            grid: [8, 1, 1],
            block: 128,
            dyn_smem: 16,
            bufs: vec![
                In16(4, 2400),
                Out(4800),
                In16(5, 300),
                In16(6, 300),
                Out(32),
                Out(32),
            ],
            params: vec![
                Ptr(0),
                Ptr(1),
                Ptr(2),
                Ptr(3),
                Ptr(4),
                Ptr(5),
                I32(300),
                I32(300),
                F32(1e-5),
                Null,
                Null,
            ],
        },
    ];
    for (w8, name) in [(false, "matmul_w4"), (true, "matmul_w8")] {
        v.push(K {
            name,
            cubin: Some(c(name)),
            ptx: t(name),
            symbol: "matmul_f16",
            grid: [if w8 { 2 } else { 4 }, 1, 1],
            block: if w8 { 256 } else { 128 },
            dyn_smem: if w8 { 16384 } else { 8192 },
            bufs: vec![In16(7, 128 * 128), In16(8, 128 * 128), Out(32768)],
            params: vec![
                Ptr(0),
                Ptr(1),
                Ptr(2),
                I32(128),
                I32(128),
                I32(128),
                I32(128),
                I32(128),
                I32(128),
                Null,
                Null,
            ],
        });
    }
    v.push(K {
        name: "dropout",
        cubin: Some(c("dropout")),
        ptx: t("dropout"),
        symbol: "dropout_seeded",
        grid: [4, 1, 1],
        block: 128,
        dyn_smem: 0,
        bufs: vec![In32(9, 4000), Out(16000)],
        params: vec![Ptr(0), Ptr(1), I32(4000), F32(0.25), I32(1234), Null, Null],
    });
    let qkv = || vec![In16(10, hsd), In16(11, hsd), In16(12, hsd), Out(hsd * 2)];
    v.push(K {
        name: "attn_ptr",
        cubin: Some(c("attn_ptr")),
        ptx: t("attn_ptr"),
        symbol: "attn_ptr",
        grid: [2, 2, 1],
        block: 128,
        dyn_smem: 16384,
        bufs: qkv(),
        params: vec![
            Ptr(0),
            Ptr(1),
            Ptr(2),
            Ptr(3),
            F32(0.125),
            I32(128),
            I32((s * d) as i32),
            I32(64),
            Null,
            Null,
        ],
    });
    let rows = (h * s) as u32;
    let mut p = Vec::new();
    for i in 0..4 {
        p.extend([Map(i, 64, rows), I32(rows as i32), I32(64), I64(64), I64(1)]);
    }
    p.extend([F32(0.125), I32(128), Null, Null]);
    v.push(K {
        name: "attn_desc_host",
        cubin: Some(c("attn_desc_host")),
        ptx: t("attn_desc_host"),
        symbol: "attn_desc_host",
        grid: [2, 2, 1],
        block: 128,
        dyn_smem: 40992,
        bufs: qkv(),
        params: p,
    });
    let mut b = qkv();
    b.push(Zero(2048));
    v.push(K {
        name: "attn_desc_dev",
        cubin: Some(c("attn_desc_dev")),
        ptx: t("attn_desc_dev"),
        symbol: "attn_desc_dev",
        grid: [2, 2, 1],
        block: 128,
        dyn_smem: 40992,
        bufs: b,
        params: vec![
            Ptr(0),
            Ptr(1),
            Ptr(2),
            Ptr(3),
            F32(0.125),
            I32(128),
            I32(2),
            Ptr(4),
            Null,
        ],
    });
    v.push(K {
        name: "matmul_tma",
        cubin: Some(c("matmul_tma")),
        ptx: t("matmul_tma"),
        symbol: "matmul_tma_persistent",
        grid: [3, 1, 1],
        block: 128,
        dyn_smem: 57368,
        bufs: vec![In16(13, 128 * 128), In16(14, 128 * 128), Out(32768)],
        params: vec![
            Map(0, 128, 128),
            I32(128),
            I32(128),
            I64(128),
            I64(1),
            Map(1, 128, 128),
            I32(128),
            I32(128),
            I64(128),
            I64(1),
            Map(2, 128, 128),
            I32(128),
            I32(128),
            I64(128),
            I64(1),
            I32(128),
            I32(128),
            I32(128),
            Null,
            Null,
        ],
    });
    let g = "calibration/hopper/cute/gemms.ptx";
    let ab = || vec![In16(15, 128 * 128), In16(16, 128 * 128), Out(32768)];
    let flat = vec![I32(128), I32(128), I32(128), Ptr(0), Ptr(1), Ptr(2)];
    v.push(K {
        name: "gemm_sm80",
        cubin: None,
        ptx: g,
        symbol: "gemm_sm80",
        grid: [2, 2, 1],
        block: 128,
        dyn_smem: 0,
        bufs: ab(),
        params: flat.clone(),
    });
    v.push(K {
        name: "gemm_sm80_ca4",
        cubin: None,
        ptx: g,
        symbol: "gemm_sm80_ca4",
        grid: [2, 2, 1],
        block: 128,
        dyn_smem: 0,
        bufs: ab(),
        params: flat.clone(),
    });
    v.push(K {
        name: "gemm_wgmma",
        cubin: None,
        ptx: g,
        symbol: "gemm_wgmma",
        grid: [1, 2, 1],
        block: 128,
        dyn_smem: 24576,
        bufs: ab(),
        params: flat,
    });
    v.push(K {
        name: "gemm_wgmma_tma",
        cubin: None,
        ptx: g,
        symbol: "gemm_wgmma_tma",
        grid: [1, 2, 1],
        block: 128,
        dyn_smem: 24576,
        bufs: ab(),
        params: vec![
            Map(0, 128, 128),
            Map(1, 128, 128),
            I32(128),
            I32(128),
            I32(128),
            Ptr(2),
        ],
    });
    v
}

/// The machine code of `k`: Triton's cubin, or ptxas's of the PTX for sm_90a (the toolkit of
/// WARPSCOPE_CUDA_ROOT, the one calibration/hopper/build.sh compiled the CuTe kernels with).
fn machine_code(k: &K) -> Result<Vec<warpscope_toolchain::sass::SassKernel>, String> {
    let Some(c) = k.cubin else {
        let root = warpscope_toolchain::locate::find_root().map_err(|e| e.to_string())?;
        let dir = std::env::temp_dir().join(format!("warpscope-hopper-{}-{}", std::process::id(), k.name));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let out = dir.join("k.cubin");
        let st = std::process::Command::new(root.bin("ptxas"))
            .args(["-arch=sm_90a", "-o"])
            .arg(&out)
            .arg(repo().join(k.ptx))
            .status()
            .map_err(|e| e.to_string())?;
        assert!(st.success(), "ptxas failed on {}", k.ptx);
        let sass = disassemble(&out);
        let _ = std::fs::remove_dir_all(&dir);
        return sass;
    };
    disassemble(&repo().join(c))
}

fn emulate(k: &K) -> Result<Emulated, String> {
    let ptx = std::fs::read_to_string(repo().join(k.ptx)).unwrap();
    let args = k
        .params
        .iter()
        .map(|p| match *p {
            P::Ptr(i) => Arg::U64(base(i)),
            P::Null => Arg::U64(0),
            P::I32(v) => Arg::I32(v),
            P::I64(v) => Arg::I64(v),
            P::F32(v) => Arg::F32(v),
            P::Map(i, inner, outer) => Arg::Bytes(map(base(i), inner, outer)),
        })
        .collect();
    common::emulate(Replay {
        name: k.name,
        ptx: &ptx,
        symbol: k.symbol,
        sass: machine_code(k),
        grid: k.grid,
        block: k.block,
        dyn_smem: k.dyn_smem,
        args,
        bufs: k
            .bufs
            .iter()
            .map(|b| (bytes(*b), matches!(b, Buf::Out(_))))
            .collect(),
    })
}

#[test]
#[ignore = "exploration: prints every counter against the H200's"]
fn print_counters_against_the_h200() {
    let (a, b) = (ncu_rows(H200, "ncu_a.csv"), ncu_rows(H200, "ncu_b.csv"));
    let dev = device_hashes(H200);
    for (i, k) in kernels().iter().enumerate() {
        match emulate(k) {
            Ok(e) => print_against(k.name, &e, dev.get(k.name), Some((&a[i], &b[i]))),
            Err(err) => println!("== {} REFUSED: {err}", k.name),
        }
    }
}

/// Kernels whose outputs are not bit-exact yet, and why.
const OUTPUTS_DIFFER: &[(&str, &str)] = &[];

/// Counters labelled exact that differ from the H200's, and why.
const COUNTERS_DIFFER: &[(&str, &str, &str)] = &[];

#[test]
fn every_hopper_kernel_replays_the_h200() {
    let x = Expect {
        dir: H200,
        outputs_differ: OUTPUTS_DIFFER,
        counters_differ: COUNTERS_DIFFER,
        min_compared: 139,
    };
    let ks = kernels();
    replay_against_h200(&x, ks.iter().map(|k| (k.name.to_string(), emulate(k))));
}
