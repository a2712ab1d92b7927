//! The Hopper kernels of calibration/hopper/ (own Triton 3.9 kernels compiled for sm_90a, own CuTe
//! GEMMs), each emulated on the inputs calibration/hopper/host/hopper_run.cu gives them on the GPU:
//! the outputs must equal the H200's byte for byte (FNV-1a 64 hashes in
//! calibration/hopper/h200/run.txt) and the counters claimed exact must equal Nsight Compute's
//! (calibration/hopper/h200/ncu_*.csv).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use warpscope_analysis::banks::{MatrixKind, Side};
use warpscope_driver::{RunOptions, Sections, WidthsFrom, analyze_launch_in, machine};
use warpscope_emu::mem::Global;
use warpscope_emu::tma::{Layout, TensorMap};
use warpscope_emu::{Arg, Launch};
use warpscope_model::arch::Arch;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Input value `i` of input `seed` (hopper_run.cu's `gen`): k/256, k in [-1000, 1000].
fn input_value(seed: u32, i: u32) -> f32 {
    let mut h = i.wrapping_mul(2654435761) ^ seed.wrapping_mul(0x9E37_79B9);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297A_2D39);
    h ^= h >> 15;
    ((h % 2001) as i32 - 1000) as f32 / 256.0
}

/// f32 -> f16 bits for values k/256, |k| <= 1000 (exact: no rounding needed).
fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let mant = (b >> 13) & 0x3ff;
    assert!(exp > 0 && exp < 31 && b & 0x1fff == 0, "{v} is not exact in f16");
    sign | ((exp as u16) << 10) | mant as u16
}

fn fnv(b: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &c in b {
        h ^= c as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

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
    ptx: &'static str,
    symbol: &'static str,
    grid: [u32; 3],
    block: u32,
    dyn_smem: u32,
    bufs: Vec<Buf>,
    params: Vec<P>,
}

fn base(i: usize) -> u64 {
    0x1000_0000 + i as u64 * 0x10_0000
}

fn bytes(b: Buf) -> Vec<u8> {
    match b {
        Buf::In32(s, n) => (0..n).flat_map(|i| input_value(s, i as u32).to_le_bytes()).collect(),
        Buf::In16(s, n) => (0..n).flat_map(|i| f16_bits(input_value(s, i as u32)).to_le_bytes()).collect(),
        Buf::Out(n) | Buf::Zero(n) => vec![0; n],
    }
}

fn map(addr: u64, inner: u32, outer: u32) -> Vec<u8> {
    TensorMap {
        layout: Layout::Tiled,
        rank: 2,
        dtype: 6,
        interleave: 0,
        swizzle: 3,
        l2: 0,
        fill: 0,
        address: addr,
        dims: [inner, outer, 1, 1, 1],
        strides: [inner as u64 * 2, 0, 0, 0],
        boxes: [64, 64, 1, 1, 1],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    }
    .to_bytes()
    .to_vec()
}

fn kernels() -> Vec<K> {
    use Buf::*;
    use P::*;
    let t = |n: &str| -> &'static str { Box::leak(format!("calibration/hopper/triton/{n}.ptx").into_boxed_str()) };
    let (h, s, d) = (2usize, 128usize, 64usize);
    let hsd = h * s * d;
    let mut v = vec![
        K { name: "vadd", ptx: t("vadd"), symbol: "vadd", grid: [4, 1, 1], block: 128, dyn_smem: 0,
            bufs: vec![In32(1, 4000), In32(2, 4000), Out(16000)],
            params: vec![Ptr(0), Ptr(1), Ptr(2), I32(4000), Null, Null] },
        K { name: "softmax", ptx: t("softmax"), symbol: "softmax_rows", grid: [8, 1, 1], block: 128, dyn_smem: 16,
            bufs: vec![Out(12800), In32(3, 3200)],
            params: vec![Ptr(0), Ptr(1), I32(200), I32(200), I32(16), I32(200), Null, Null] },
        K { name: "layernorm", ptx: t("layernorm"), symbol: "layernorm_rows", grid: [8, 1, 1], block: 128, dyn_smem: 16,
            bufs: vec![In16(4, 2400), Out(4800), In16(5, 300), In16(6, 300), Out(32), Out(32)],
            params: vec![Ptr(0), Ptr(1), Ptr(2), Ptr(3), Ptr(4), Ptr(5), I32(300), I32(300), F32(1e-5), Null, Null] },
    ];
    for (w8, name) in [(false, "matmul_w4"), (true, "matmul_w8")] {
        v.push(K { name, ptx: t(name), symbol: "matmul_f16", grid: [if w8 { 2 } else { 4 }, 1, 1],
            block: if w8 { 256 } else { 128 }, dyn_smem: if w8 { 16384 } else { 8192 },
            bufs: vec![In16(7, 128 * 128), In16(8, 128 * 128), Out(32768)],
            params: vec![Ptr(0), Ptr(1), Ptr(2), I32(128), I32(128), I32(128), I32(128), I32(128), I32(128), Null, Null] });
    }
    v.push(K { name: "dropout", ptx: t("dropout"), symbol: "dropout_seeded", grid: [4, 1, 1], block: 128, dyn_smem: 0,
        bufs: vec![In32(9, 4000), Out(16000)],
        params: vec![Ptr(0), Ptr(1), I32(4000), F32(0.25), I32(1234), Null, Null] });
    let qkv = || vec![In16(10, hsd), In16(11, hsd), In16(12, hsd), Out(hsd * 2)];
    v.push(K { name: "attn_ptr", ptx: t("attn_ptr"), symbol: "attn_ptr", grid: [2, 2, 1], block: 128, dyn_smem: 16384,
        bufs: qkv(),
        params: vec![Ptr(0), Ptr(1), Ptr(2), Ptr(3), F32(0.125), I32(128), I32((s * d) as i32), I32(64), Null, Null] });
    let rows = (h * s) as u32;
    let mut p = Vec::new();
    for i in 0..4 {
        p.extend([Map(i, 64, rows), I32(rows as i32), I32(64), I64(64), I64(1)]);
    }
    p.extend([F32(0.125), I32(128), Null, Null]);
    v.push(K { name: "attn_desc_host", ptx: t("attn_desc_host"), symbol: "attn_desc_host", grid: [2, 2, 1], block: 128,
        dyn_smem: 40992, bufs: qkv(), params: p });
    let mut b = qkv();
    b.push(Zero(2048));
    v.push(K { name: "attn_desc_dev", ptx: t("attn_desc_dev"), symbol: "attn_desc_dev", grid: [2, 2, 1], block: 128,
        dyn_smem: 40992, bufs: b,
        params: vec![Ptr(0), Ptr(1), Ptr(2), Ptr(3), F32(0.125), I32(128), I32(2), Ptr(4), Null] });
    v.push(K { name: "matmul_tma", ptx: t("matmul_tma"), symbol: "matmul_tma_persistent", grid: [3, 1, 1], block: 128,
        dyn_smem: 57368, bufs: vec![In16(13, 128 * 128), In16(14, 128 * 128), Out(32768)],
        params: vec![Map(0, 128, 128), I32(128), I32(128), I64(128), I64(1), Map(1, 128, 128), I32(128), I32(128), I64(128),
                     I64(1), Map(2, 128, 128), I32(128), I32(128), I64(128), I64(1), I32(128), I32(128), I32(128), Null, Null] });
    let g = "calibration/hopper/cute/gemms.ptx";
    let ab = || vec![In16(15, 128 * 128), In16(16, 128 * 128), Out(32768)];
    let flat = vec![I32(128), I32(128), I32(128), Ptr(0), Ptr(1), Ptr(2)];
    v.push(K { name: "gemm_sm80", ptx: g, symbol: "gemm_sm80", grid: [2, 2, 1], block: 128, dyn_smem: 0, bufs: ab(), params: flat.clone() });
    v.push(K { name: "gemm_sm80_ca4", ptx: g, symbol: "gemm_sm80_ca4", grid: [2, 2, 1], block: 128, dyn_smem: 0, bufs: ab(), params: flat.clone() });
    v.push(K { name: "gemm_wgmma", ptx: g, symbol: "gemm_wgmma", grid: [1, 2, 1], block: 128, dyn_smem: 24576, bufs: ab(), params: flat });
    v.push(K { name: "gemm_wgmma_tma", ptx: g, symbol: "gemm_wgmma_tma", grid: [1, 2, 1], block: 128, dyn_smem: 24576, bufs: ab(),
        params: vec![Map(0, 128, 128), Map(1, 128, 128), I32(128), I32(128), I32(128), Ptr(2)] });
    v
}

/// One kernel's emulation: output hashes (in buffer order) and counters by ncu metric name, with
/// whether each is claimed exact.
pub struct Emulated {
    pub hashes: Vec<u64>,
    pub counters: BTreeMap<&'static str, (u64, bool)>,
    pub faults: Vec<String>,
}

fn emulate(k: &K) -> Result<Emulated, String> {
    let arch = Arch::parse("sm_90a").map_err(|e| e.to_string())?;
    let ptx = std::fs::read_to_string(repo().join(k.ptx)).unwrap();
    let program = warpscope_ptx::compile(&ptx).map_err(|e| e.join("; "))?;
    let widths = machine::widths(&program, k.symbol, &ptx, None, arch, &WidthsFrom::Auto).map_err(|e| e.to_string())?;
    let global = Global::new(k.bufs.iter().enumerate().map(|(i, b)| (base(i), bytes(*b))).collect());
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
    let mut launch = Launch::new(k.grid, [k.block, 1, 1], args);
    launch.dyn_smem = k.dyn_smem;
    let sections = Sections { banks: true, divergence: true, ..Sections::NONE };
    let opts = RunOptions { global_sectors: true, ..RunOptions::default() };
    let r = analyze_launch_in(&program, k.symbol, &launch, &global, &sections, arch, &widths, &opts)
        .map_err(|e| e.to_string())?;
    let mut hashes = Vec::new();
    for (i, b) in k.bufs.iter().enumerate() {
        if let Buf::Out(n) = b {
            let mut out = vec![0u8; *n];
            global.read_range(base(i), &mut out).unwrap();
            hashes.push(fnv(&out));
            if let Ok(dir) = std::env::var("HOPPER_DUMP") {
                std::fs::write(format!("{dir}/{}_{i}.bin", k.name), &out).unwrap();
            }
        }
    }
    let mut c = BTreeMap::new();
    let banks = &r.banks.as_ref().unwrap().report;
    let (ld, st) = (banks.request_total(Side::Load), banks.request_total(Side::Store));
    let exact_banks = banks.unmodelled == 0;
    c.insert("smsp__sass_inst_executed_op_shared_ld.sum", (ld.instructions, exact_banks));
    c.insert("smsp__sass_inst_executed_op_shared_st.sum", (st.instructions, exact_banks));
    c.insert("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", (ld.wavefronts, exact_banks));
    c.insert("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", (st.wavefronts, exact_banks));
    for (kind, ni, nw) in [
        (MatrixKind::Ldsm, "smsp__sass_inst_executed_op_ldsm.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"),
        (MatrixKind::Stsm, "smsp__inst_executed_op_stsm.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum"),
        (MatrixKind::Ldgsts, "smsp__inst_executed_op_ldgsts.sum", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"),
    ] {
        let s: Vec<_> = banks.matrix.values().filter(|s| s.kind == kind).collect();
        let unm: u64 = s.iter().map(|s| s.unmodelled).sum();
        c.insert(ni, (s.iter().map(|s| s.counts.instructions).sum(), true));
        c.insert(nw, (s.iter().map(|s| s.counts.wavefronts).sum(), unm == 0));
    }
    c.insert("smsp__sass_inst_executed_op_shared_gmma.sum", (banks.gmma.instructions, true));
    c.insert("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", (banks.gmma.wavefronts(), true));
    let g = r.global.as_ref().unwrap();
    let gexact = g.copies_unsure == 0;
    c.insert("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", (g.ld_requests, gexact));
    c.insert("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", (g.ld_sectors, gexact));
    c.insert("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", (g.st_requests, gexact));
    c.insert("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", (g.st_sectors, gexact));
    let t = &r.divergence.as_ref().unwrap().totals;
    c.insert("smsp__sass_branch_targets.sum", (t.targets, false));
    c.insert("smsp__sass_branch_targets_threads_divergent.sum", (t.divergent, false));
    let faults = r.faults.iter().map(|f| f.to_string()).collect();
    Ok(Emulated { hashes, counters: c, faults })
}

#[test]
#[ignore = "exploration: prints every kernel's emulation"]
fn print_every_kernel() {
    for k in kernels() {
        match emulate(&k) {
            Ok(e) => {
                println!("== {} hashes {:016x?} faults {:?}", k.name, e.hashes, e.faults);
                for (n, (v, x)) in &e.counters {
                    println!("   {n} {v} {}", if *x { "exact" } else { "estimate" });
                }
            }
            Err(e) => println!("== {} REFUSED {e}", k.name),
        }
    }
}
