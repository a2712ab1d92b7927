//! The GPU side of `warpscope calibrate`: the project's calibration kernels, compiled with NVRTC
//! for the present GPU and launched as the checked-in harnesses launch them.
//!
//! * Bank battery ([`bank_launches`]): `calibration/bank/bank_calib.cu`, one warp and one shared
//!   access per pattern; the parent runs this under ncu (`-k regex:bank_`) with [`BANK_METRICS`]
//!   and matches ncu's launches to the patterns in order.
//! * Latency ([`latency`]): `calibration/latency/chase.cu`'s one-thread pointer chases (shared, L1
//!   hit, L2 hit) and FMA chain, cycles per step, median of 15 launches.
//!
//! Occupancy against the driver is the lab's `occupancy` experiment. What the model predicts for
//! these rows is `warpscope_measure::calibrate`'s business (this crate does not hold the bank model's
//! verdicts).

use std::path::Path;

use cudarc::driver::{CudaContext, CudaFunction, CudaStream, DevicePtr, PushKernelArg};
use std::sync::Arc;

use crate::device;
use crate::error::DriverCtx;
use crate::nvrtc::{CompileOptions, Nvrtc};
use crate::{Error, Result};

/// The bank harness (kernels only are compiled; the host part is under `#ifndef __CUDACC_RTC__`).
pub const BANK_CALIB_CU: &str = include_str!("../../../calibration/bank/bank_calib.cu");
/// The ldmatrix / stmatrix / cp.async harness.
pub const LDSM_CALIB_CU: &str = include_str!("../../../calibration/ldsm/ldsm_calib.cu");
/// The latency harness.
pub const CHASE_CU: &str = include_str!("../../../calibration/latency/chase.cu");

/// The counters of one bank row, as `calibration/bank/run.sh` measures them.
pub const BANK_METRICS: [&str; 4] = [
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
];

/// One bank pattern: a single warp request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankPattern {
    /// Row id of the table.
    pub id: String,
    /// Bytes per lane: 1, 2, 4, 8 or 16.
    pub width: u8,
    /// Load (`ld`) or store (`st`).
    pub load: bool,
    /// What the pattern is.
    pub desc: String,
    /// Byte offset per lane in the shared window; `None` for an inactive lane.
    pub addrs: [Option<u32>; 32],
}

impl BankPattern {
    /// The harness kernel's (unmangled) name for this width and op: `bank_ld_w4`, ...
    pub fn kernel(&self) -> String {
        format!("bank_{}_w{}", if self.load { "ld" } else { "st" }, self.width)
    }
}

/// The entry of `ptx` whose C++ name is `plain` (Itanium mangling: `_Z` + length + name + types).
fn entry(ptx: &str, plain: &str) -> Result<String> {
    let prefix = format!("_Z{}{}", plain.len(), plain);
    ptx.lines()
        .filter_map(|l| l.trim().strip_prefix(".visible .entry "))
        .map(|l| l.split(['(', ' ']).next().unwrap_or(""))
        .find(|n| n.starts_with(&prefix) || *n == plain)
        .map(str::to_string)
        .ok_or_else(|| Error::Input(format!("no kernel `{plain}` in the compiled harness")))
}

/// (PTX, CUBIN) of a harness for CC `cc`.
fn compile(nvrtc: &Nvrtc, src: &str, name: &str, cc: u32) -> Result<(String, Vec<u8>)> {
    let c = nvrtc.compile(src, name, &CompileOptions::for_cc(cc))?;
    let cubin = c
        .cubin
        .ok_or_else(|| Error::Input(format!("{name}: NVRTC produced no CUBIN for CC {cc}")))?;
    Ok((c.ptx, cubin))
}

/// Launches every pattern once, in order (this is what runs under ncu). Returns the kernel names
/// launched, in order.
pub fn bank_launches(ordinal: usize, nvrtc: Option<&Path>, patterns: &[BankPattern]) -> Result<Vec<String>> {
    let info = device::query(ordinal)?;
    let nvrtc = Nvrtc::load(nvrtc)?;
    let (ptx, cubin) = compile(
        &nvrtc,
        BANK_CALIB_CU,
        "bank_calib.cu",
        info.cc_major * 10 + info.cc_minor,
    )?;
    let ctx = CudaContext::new(ordinal).ctx("cuCtxCreate (primary context)")?;
    let stream = ctx.default_stream();
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
        .ctx("cuModuleLoadData(bank_calib)")?;
    let mut addrs = stream.alloc_zeros::<u32>(32).ctx("cuMemAlloc")?;
    let mut out = stream.alloc_zeros::<u32>(32).ctx("cuMemAlloc")?;
    let mut launched = Vec::with_capacity(patterns.len());
    let mut functions: Vec<(String, CudaFunction)> = Vec::new();
    for p in patterns {
        if ![1, 2, 4, 8, 16].contains(&p.width) {
            return Err(Error::Input(format!(
                "pattern {}: width {} (1, 2, 4, 8 or 16)",
                p.id, p.width
            )));
        }
        let name = p.kernel();
        let f = match functions.iter().find(|(n, _)| *n == name) {
            Some((_, f)) => f.clone(),
            None => {
                let f = module
                    .load_function(&entry(&ptx, &name)?)
                    .ctx(&format!("cuModuleGetFunction({name})"))?;
                functions.push((name.clone(), f.clone()));
                f
            }
        };
        let host: Vec<u32> = p.addrs.iter().map(|a| a.unwrap_or(u32::MAX)).collect();
        stream.memcpy_htod(&host, &mut addrs).ctx("cuMemcpyHtoD")?;
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = stream.launch_builder(&f);
        b.arg(&addrs).arg(&mut out);
        // SAFETY: the kernel takes (const unsigned*, unsigned*), both 32-element device buffers.
        unsafe { b.launch(cfg) }.ctx(&format!("cuLaunchKernel({name})"))?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        launched.push(name);
    }
    Ok(launched)
}

/// The counters of one matrix row (ldmatrix / stmatrix / cp.async), with the column names of
/// `calibration/ldsm/measured*.tsv`: (column, ncu metric).
pub const MATRIX_METRICS: [(&str, &str); 13] = [
    (
        "ld_wavefronts",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    ),
    (
        "st_wavefronts",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    ),
    ("ld_inst", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("st_inst", "smsp__sass_inst_executed_op_shared_st.sum"),
    (
        "sass_ldsm_wavefronts",
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    ),
    (
        "sass_stsm_wavefronts",
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
    ),
    (
        "sass_ldsm_conflicts",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
    ),
    (
        "sass_stsm_conflicts",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum",
    ),
    ("ldsm_inst", "smsp__sass_inst_executed_op_ldsm.sum"),
    ("stsm_inst", "smsp__sass_inst_executed_op_shared_stsm.sum"),
    (
        "ldgsts_wavefronts",
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    ),
    (
        "sass_ldgsts_conflicts",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    ),
    ("ldgsts_inst", "smsp__inst_executed_op_ldgsts.sum"),
];

/// One row of the matrix battery: one warp instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixPattern {
    /// Row id of the table.
    pub id: String,
    /// `ldsm`, `stsm` or `ldgsts`.
    pub kind: String,
    /// `x1`, `x2`, `x4` (`t` appended for `.trans`), or `ca4`, `ca8`, `ca16`, `cg16`, `cg16z0`,
    /// `cg16z8`.
    pub form: String,
    /// What the pattern is.
    pub desc: String,
    /// Shared byte offset per lane (row address or destination); `None` for a lane predicated off.
    pub addrs: [Option<u32>; 32],
    /// Global source offset per lane (cp.async), bytes into a 4 MB buffer.
    pub src: [u32; 32],
}

/// The harness's limits: shared window and source buffer.
const MATRIX_SMEM: u32 = 40960;
const MATRIX_GLOBAL: u32 = 4 << 20;

impl MatrixPattern {
    /// The harness kernel's name: `ldsm_x4t`, `ldgsts_cg16`, ...
    pub fn kernel(&self) -> String {
        format!("{}_{}", self.kind, self.form)
    }
}

/// The forms the harness has, per kind.
pub fn matrix_form_known(kind: &str, form: &str) -> bool {
    match kind {
        "ldsm" | "stsm" => ["x1", "x2", "x4", "x1t", "x2t", "x4t"].contains(&form),
        "ldgsts" => ["ca4", "ca8", "ca16", "cg16", "cg16z0", "cg16z8"].contains(&form),
        _ => false,
    }
}

/// Launches every matrix pattern once, in order (this is what runs under ncu), as
/// `calibration/ldsm/ldsm_calib.cu`'s main does. Returns the kernel names launched.
pub fn matrix_launches(
    ordinal: usize,
    nvrtc: Option<&Path>,
    patterns: &[MatrixPattern],
) -> Result<Vec<String>> {
    let info = device::query(ordinal)?;
    let nvrtc = Nvrtc::load(nvrtc)?;
    let (ptx, cubin) = compile(
        &nvrtc,
        LDSM_CALIB_CU,
        "ldsm_calib.cu",
        info.cc_major * 10 + info.cc_minor,
    )?;
    let ctx = CudaContext::new(ordinal).ctx("cuCtxCreate (primary context)")?;
    let stream = ctx.default_stream();
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
        .ctx("cuModuleLoadData(ldsm_calib)")?;
    let mut addrs = stream.alloc_zeros::<u32>(32).ctx("cuMemAlloc")?;
    let mut src = stream.alloc_zeros::<u32>(32).ctx("cuMemAlloc")?;
    let mut out = stream.alloc_zeros::<u32>(32).ctx("cuMemAlloc")?;
    let input = stream
        .clone_htod(&vec![0x5au8; MATRIX_GLOBAL as usize])
        .ctx("cuMemcpyHtoD")?;
    let mut launched = Vec::with_capacity(patterns.len());
    let mut functions: Vec<(String, CudaFunction)> = Vec::new();
    for p in patterns {
        if !matrix_form_known(&p.kind, &p.form) {
            return Err(Error::Input(format!(
                "pattern {}: kind/form `{} {}` (ldsm|stsm x1 x2 x4 x1t x2t x4t, ldgsts ca4 ca8 ca16 cg16 cg16z0 cg16z8)",
                p.id, p.kind, p.form
            )));
        }
        for l in 0..32 {
            if p.addrs[l].is_some_and(|a| a + 16 > MATRIX_SMEM) || p.src[l] + 16 > MATRIX_GLOBAL {
                return Err(Error::Input(format!(
                    "pattern {}: lane {l}'s address is outside the harness's buffers",
                    p.id
                )));
            }
        }
        let name = p.kernel();
        let f = match functions.iter().find(|(n, _)| *n == name) {
            Some((_, f)) => f.clone(),
            None => {
                let f = module
                    .load_function(&entry(&ptx, &name)?)
                    .ctx(&format!("cuModuleGetFunction({name})"))?;
                functions.push((name.clone(), f.clone()));
                f
            }
        };
        let host: Vec<u32> = p.addrs.iter().map(|a| a.unwrap_or(u32::MAX)).collect();
        stream.memcpy_htod(&host, &mut addrs).ctx("cuMemcpyHtoD")?;
        stream.memcpy_htod(&p.src, &mut src).ctx("cuMemcpyHtoD")?;
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (32, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = stream.launch_builder(&f);
        b.arg(&addrs).arg(&src).arg(&input).arg(&mut out);
        // SAFETY: the kernels take (const unsigned*, const unsigned*, const unsigned char*,
        // unsigned*): 32-element address tables, the 4 MB source and a 32-element output; every
        // address was checked against the harness's buffers above.
        unsafe { b.launch(cfg) }.ctx(&format!("cuLaunchKernel({name})"))?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        launched.push(name);
    }
    Ok(launched)
}

/// Measured latencies, cycles per dependent step (median of 15 launches each).
#[derive(Clone, Copy, Debug, serde::Serialize, PartialEq)]
pub struct Latencies {
    /// `ld.shared.u32` pointer chase over a 4 KB ring.
    pub shared: f64,
    /// `ld.global.ca.u64` chase over a 4 KB ring, warmed (L1 hits).
    pub l1_hit: f64,
    /// `ld.global.cg.u64` chase over an 8 MB ring, warmed (L2 hits).
    pub l2_hit: f64,
    /// Dependent `fma.rn.f32` chain, per FMA (loop overhead included).
    pub fma: f64,
    /// `ld.global.cg.u64` chase over a 1 GB ring, one node per 64 KB in random order, L2 flushed
    /// (a 256 MB memset) before each launch: DRAM.
    pub dram: f64,
}

/// A deterministic shuffle of `0..n` keeping 0 first (splitmix64 driven Fisher-Yates).
fn ring_order(n: usize, seed: u64) -> Vec<usize> {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut v: Vec<usize> = (0..n).collect();
    for i in (2..n).rev() {
        let j = 1 + (next() % i as u64) as usize;
        v.swap(i, j);
    }
    v
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn cycles(stream: &Arc<CudaStream>, c: &cudarc::driver::CudaSlice<i64>) -> Result<f64> {
    let v = stream.clone_dtoh(c).ctx("cuMemcpyDtoH")?;
    Ok(v[0] as f64)
}

/// Runs the latency pointer chases of `calibration/latency/chase.cu`: shared, L1, L2, FMA and the
/// random-order DRAM chase (1 GB ring, L2 flushed before each launch; not the 4 KB-stride one).
pub fn latency(ordinal: usize, nvrtc: Option<&Path>) -> Result<Latencies> {
    const REPS: usize = 15;
    let info = device::query(ordinal)?;
    let nvrtc = Nvrtc::load(nvrtc)?;
    let (ptx, cubin) = compile(&nvrtc, CHASE_CU, "chase.cu", info.cc_major * 10 + info.cc_minor)?;
    let ctx = CudaContext::new(ordinal).ctx("cuCtxCreate (primary context)")?;
    let stream = ctx.default_stream();
    let m = ctx
        .load_module(cudarc::nvrtc::Ptx::from_binary(cubin))
        .ctx("cuModuleLoadData(chase)")?;
    let f = |n: &str| -> Result<CudaFunction> {
        m.load_function(&entry(&ptx, n)?)
            .ctx(&format!("cuModuleGetFunction({n})"))
    };
    let k_shared = f("chase_shared")?;
    let k_ca = f("chase_ca")?;
    let k_cg = f("chase_cg")?;
    let k_fma = f("fma_chain")?;
    let mut cyc = stream.alloc_zeros::<i64>(1).ctx("cuMemAlloc")?;
    let mut sink = stream.alloc_zeros::<u64>(1).ctx("cuMemAlloc")?;
    let one = cudarc::driver::LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (1, 1, 1),
        shared_mem_bytes: 0,
    };
    // Shared: 1024-entry ring of indices.
    let n = 1024usize;
    let perm = ring_order(n, 1);
    let mut next = vec![0u32; n];
    for i in 0..n {
        next[perm[i]] = perm[(i + 1) % n] as u32;
    }
    let ring = stream.clone_htod(&next).ctx("cuMemcpyHtoD")?;
    let mut v = Vec::new();
    for _ in 0..REPS {
        let mut b = stream.launch_builder(&k_shared);
        let (nn, steps) = (n as i32, 4096i32);
        b.arg(&ring).arg(&nn).arg(&steps).arg(&mut cyc).arg(&mut sink);
        // SAFETY: argument types match chase_shared's parameters.
        unsafe { b.launch(one) }.ctx("cuLaunchKernel(chase_shared)")?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        v.push(cycles(&stream, &cyc)? / 4096.0);
    }
    let shared = median(v);
    // FMA chain: 1024 iterations of 16.
    let mut v = Vec::new();
    for _ in 0..REPS {
        let mut b = stream.launch_builder(&k_fma);
        let (bb, cc, steps) = (0.999f32, 0.001f32, 1024i32);
        b.arg(&bb).arg(&cc).arg(&steps).arg(&mut cyc).arg(&mut sink);
        // SAFETY: argument types match fma_chain's parameters (the sink is only written).
        unsafe { b.launch(one) }.ctx("cuLaunchKernel(fma_chain)")?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        v.push(cycles(&stream, &cyc)? / (1024.0 * 16.0));
    }
    let fma = median(v);
    // Global rings of 64-bit pointers: (bytes, stride) = (4 KB, 64 B) for L1, (8 MB, 128 B) for L2.
    let ring_of = |bytes: usize, stride: usize, seed: u64| -> Result<(cudarc::driver::CudaSlice<u64>, u64)> {
        let words = bytes / 8;
        let mut buf = stream.alloc_zeros::<u64>(words).ctx("cuMemAlloc")?;
        let (base, _g) = buf.device_ptr(&stream);
        let n = bytes / stride;
        let order = ring_order(n, seed);
        let step = stride / 8;
        let mut host = vec![0u64; words];
        for i in 0..n {
            let (from, to) = (order[i] * step, order[(i + 1) % n] * step);
            host[from] = base + (to as u64) * 8;
        }
        drop(_g);
        stream.memcpy_htod(&host, &mut buf).ctx("cuMemcpyHtoD")?;
        Ok((buf, base + (order[0] * step) as u64 * 8))
    };
    let (_l1buf, l1start) = ring_of(4096, 64, 2)?;
    let mut v = Vec::new();
    for _ in 0..REPS {
        let mut b = stream.launch_builder(&k_ca);
        let steps = 4096i32;
        b.arg(&l1start).arg(&steps).arg(&mut cyc).arg(&mut sink);
        // SAFETY: the start is a device address inside a ring whose nodes point into the ring.
        unsafe { b.launch(one) }.ctx("cuLaunchKernel(chase_ca)")?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        v.push(cycles(&stream, &cyc)? / 4096.0);
    }
    let l1_hit = median(v);
    let (_l2buf, l2start) = ring_of(8 << 20, 128, 3)?;
    let warm = ((8usize << 20) / 128) as i32;
    let mut v = Vec::new();
    for _ in 0..REPS {
        let mut b = stream.launch_builder(&k_cg);
        let steps = 8192i32;
        b.arg(&l2start)
            .arg(&steps)
            .arg(&warm)
            .arg(&mut cyc)
            .arg(&mut sink);
        // SAFETY: as above.
        unsafe { b.launch(one) }.ctx("cuLaunchKernel(chase_cg)")?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        v.push(cycles(&stream, &cyc)? / 8192.0);
    }
    let l2_hit = median(v);
    drop(_l2buf);
    // DRAM: 1 GB, one node per 64 KB region in random order, 4096 steps (all misses).
    let (dram_buf, dram_start) = ring_of(1 << 30, 65536, 4)?;
    let mut flush = stream.alloc_zeros::<u8>(256 << 20).ctx("cuMemAlloc")?;
    let mut v = Vec::new();
    for _ in 0..REPS {
        stream.memset_zeros(&mut flush).ctx("cuMemsetD8")?;
        let mut b = stream.launch_builder(&k_cg);
        let (steps, warm) = (4096i32, 0i32);
        b.arg(&dram_start)
            .arg(&steps)
            .arg(&warm)
            .arg(&mut cyc)
            .arg(&mut sink);
        // SAFETY: as above.
        unsafe { b.launch(one) }.ctx("cuLaunchKernel(chase_cg, DRAM)")?;
        stream.synchronize().ctx("cuStreamSynchronize")?;
        v.push(cycles(&stream, &cyc)? / 4096.0);
    }
    drop(dram_buf);
    let dram = median(v);
    Ok(Latencies {
        shared,
        l1_hit,
        l2_hit,
        fma,
        dram,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_by_their_cxx_name() {
        let ptx = ".visible .entry _Z10bank_ld_w1PKjPj(\n.visible .entry _Z11bank_ld_w16PKjPj(\n.visible .entry plain(";
        assert_eq!(entry(ptx, "bank_ld_w1").unwrap(), "_Z10bank_ld_w1PKjPj");
        assert_eq!(entry(ptx, "bank_ld_w16").unwrap(), "_Z11bank_ld_w16PKjPj");
        assert_eq!(entry(ptx, "plain").unwrap(), "plain");
        assert!(
            entry(ptx, "bank_st_w1")
                .unwrap_err()
                .to_string()
                .contains("bank_st_w1")
        );
    }

    #[test]
    fn ring_order_is_a_permutation_starting_at_zero() {
        let o = ring_order(1024, 7);
        assert_eq!(o[0], 0);
        let mut s = o.clone();
        s.sort_unstable();
        assert!(s.iter().enumerate().all(|(i, &x)| i == x));
        assert_ne!(o, (0..1024).collect::<Vec<_>>());
    }

    #[test]
    fn harness_sources_hide_host_code_from_nvrtc() {
        for src in [BANK_CALIB_CU, CHASE_CU, LDSM_CALIB_CU] {
            assert!(src.contains("#ifndef __CUDACC_RTC__") || src.contains("#ifdef __CUDACC_RTC__"));
            assert!(src.contains("#endif  // __CUDACC_RTC__"));
        }
    }
}
