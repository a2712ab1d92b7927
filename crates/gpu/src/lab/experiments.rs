//! The experiments. Each compiles its kernels, draws random inputs, poisons outputs, verifies every
//! output against [`super::reference`] and times with events.

use std::sync::Arc;
use std::time::Instant;

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, LaunchConfig, PinnedHostSlice, PushKernelArg, sys,
};
use serde_json::json;
use warpscope_model::occupancy::{Launch, Limits, occupancy};

use super::reference::{self as cpu, Rng, TileAccess};
use super::stats::{Stats, gbs};
use super::timeline::{self, OpKind, Segment};
use super::{Check, ExperimentReport, Lab, Predictor, Progress, kernels, ncu};
use crate::error::DriverCtx;
use crate::{Error, Result};

const WAVE_LD: &str = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const WAVE_ST: &str = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
const BRANCH_UNIFORM: &str = "smsp__sass_average_branch_targets_threads_uniform.pct";
const WARPS_ACTIVE: &str = "sm__warps_active.avg.pct_of_peak_sustained_active";

fn report(lab: &Lab, name: &str, headers: &[&str]) -> ExperimentReport {
    ExperimentReport {
        name: name.into(),
        device: format!(
            "{} (CC {}.{})",
            lab.info.name, lab.info.cc_major, lab.info.cc_minor
        ),
        headers: headers.iter().map(|s| s.to_string()).collect(),
        rows: Vec::new(),
        checks: Vec::new(),
        notes: Vec::new(),
        data: json!({}),
        svgs: Vec::new(),
    }
}

fn verify<T: PartialEq + std::fmt::Debug>(exp: &str, what: &str, got: &[T], want: &[T]) -> Result<()> {
    match cpu::first_mismatch(got, want) {
        None => Ok(()),
        Some(detail) => Err(Error::Verify {
            experiment: exp.into(),
            what: what.into(),
            detail,
        }),
    }
}

fn verify_f32(exp: &str, what: &str, got: &[f32], want: &[f32], rel: f32) -> Result<()> {
    match cpu::first_mismatch_f32(got, want, rel) {
        None => Ok(()),
        Some(detail) => Err(Error::Verify {
            experiment: exp.into(),
            what: what.into(),
            detail,
        }),
    }
}

fn us(s: &Stats) -> String {
    format!("{:.1}", s.median * 1e3)
}

fn poisoned_f32(stream: &Arc<CudaStream>, n: usize) -> Result<CudaSlice<f32>> {
    stream
        .clone_htod(&vec![cpu::poison_f32(); n])
        .ctx("cuMemcpyHtoD (poison)")
}

fn sync(stream: &Arc<CudaStream>, what: &str) -> Result<()> {
    stream
        .synchronize()
        .ctx(&format!("{what} (kernel or copy failed)"))
}

/// The device-to-device copy ceiling, GB/s counting bytes read plus written (cached per lab).
fn copy_ceiling(lab: &Lab) -> Result<(f64, Stats)> {
    let n = 1usize << 26;
    let a = lab
        .stream
        .clone_htod(&Rng::new(lab.cfg.seed).vec_f32(n))
        .ctx("cuMemcpyHtoD")?;
    let mut b = poisoned_f32(&lab.stream, n)?;
    let s = lab.time(3, || lab.stream.memcpy_dtod(&a, &mut b).ctx("cuMemcpyDtoD"))?;
    let g = gbs(2.0 * (n * 4) as f64, s.median);
    lab.copy_gbs.set(Some(g));
    Ok((g, s))
}

pub(super) fn device(lab: &Lab) -> Result<ExperimentReport> {
    let mut r = report(lab, "device", &["property", "value"]);
    let v = serde_json::to_value(&lab.info).unwrap_or_default();
    if let Some(o) = v.as_object() {
        for (k, val) in o {
            r.rows
                .push(vec![k.clone(), val.to_string().trim_matches('"').to_string()]);
        }
    }
    let (maj, min) = lab.nvrtc.version();
    r.notes.push(format!(
        "NVRTC {maj}.{min} from {}",
        lab.nvrtc
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "the system loader path".into())
    ));
    r.data = json!({ "device": v, "nvrtc": format!("{maj}.{min}") });
    Ok(r)
}

/// (kernel, block x, block y, dynamic shared bytes, access model).
const SMEM_KERNELS: &[(&str, u32, u32, u32, TileAccess)] = &[
    ("sqRowRow", 32, 32, 0, TileAccess::RowRow),
    ("sqColCol", 32, 32, 0, TileAccess::ColCol),
    ("sqRowCol", 32, 32, 0, TileAccess::RowCol),
    ("sqRowColDyn", 32, 32, 4096, TileAccess::RowCol),
    ("sqRowColPad", 32, 32, 0, TileAccess::RowColPad(1)),
    ("sqRowColDynPad", 32, 32, 4224, TileAccess::RowColPad(1)),
    ("rectRowRow", 32, 16, 0, TileAccess::RowRow),
    ("rectColCol", 32, 16, 0, TileAccess::ColCol),
    ("rectRowCol", 32, 16, 0, TileAccess::RowCol),
    ("rectRowColDyn", 32, 16, 2048, TileAccess::RowCol),
    ("rectRowColPad", 32, 16, 0, TileAccess::RowColPad(2)),
    ("rectRowColDynPad", 32, 16, 2176, TileAccess::RowColPad(2)),
];

#[allow(clippy::too_many_arguments)]
fn launch_tile(
    lab: &Lab,
    f: &CudaFunction,
    d_in: &CudaSlice<i32>,
    d_out: &mut CudaSlice<i32>,
    blocks: u32,
    bx: u32,
    by: u32,
    dyn_smem: u32,
) -> Result<()> {
    let cfg = LaunchConfig {
        grid_dim: (blocks, 1, 1),
        block_dim: (bx, by, 1),
        shared_mem_bytes: dyn_smem,
    };
    let mut b = lab.stream.launch_builder(f);
    b.arg(d_in).arg(d_out);
    // SAFETY: the kernel takes (const int*, int*) with one element per thread; both buffers hold
    // blocks * bx * by elements.
    unsafe { b.launch(cfg) }.ctx("cuLaunchKernel")?;
    Ok(())
}

pub(super) fn smem(lab: &Lab, pred: &dyn Predictor, progress: &dyn Progress) -> Result<ExperimentReport> {
    progress.begin("smem", SMEM_KERNELS.len() as u64 + 1);
    let (m, _) = lab.module(kernels::SMEM, "smem.cu", |_| {})?;
    let mut r = report(
        lab,
        "smem",
        &[
            "kernel",
            "block",
            "dyn smem B",
            "time us (median)",
            "expected ld/st wavefronts",
            "ncu ld/st wavefronts",
            "match",
        ],
    );
    progress.step("ncu");
    let ncu = lab.ncu_rows("smem", &[WAVE_LD, WAVE_ST]);
    if let Err(why) = &ncu {
        r.notes.push(why.clone());
    }
    r.notes.push(format!("expected wavefronts: {}", pred.label()));
    let blocks = lab.info.multiprocessors * 64;
    let mut rng = Rng::new(lab.cfg.seed);
    let (mut data, mut matches, mut compared) = (Vec::new(), 0, 0);
    for (i, &(name, bx, by, dyn_smem, access)) in SMEM_KERNELS.iter().enumerate() {
        progress.step(name);
        let f = Lab::function(&m, name)?;
        let n = (blocks * bx * by) as usize;
        let input = rng.vec_i32(n);
        let d_in = lab.stream.clone_htod(&input).ctx("cuMemcpyHtoD")?;
        let mut d_out = lab
            .stream
            .clone_htod(&vec![cpu::POISON_BITS as i32; n])
            .ctx("cuMemcpyHtoD")?;
        launch_tile(lab, &f, &d_in, &mut d_out, blocks, bx, by, dyn_smem)?;
        sync(&lab.stream, name)?;
        let got = lab.stream.clone_dtoh(&d_out).ctx("cuMemcpyDtoH")?;
        verify("smem", name, &got, &access.reference(&input, bx, by))?;
        let t = lab.time(3, || {
            launch_tile(lab, &f, &d_in, &mut d_out, blocks, bx, by, dyn_smem)
        })?;
        let expected = pred.smem_wavefronts(name, kernels::SMEM, (bx, by), dyn_smem);
        let measured = ncu.as_ref().ok().and_then(|rows| {
            Some((
                ncu::metric(rows, i as u32, WAVE_LD)? as u64,
                ncu::metric(rows, i as u32, WAVE_ST)? as u64,
            ))
        });
        let ok = match (expected, measured) {
            (Some(e), Some(m)) => {
                compared += 1;
                if e == m {
                    matches += 1;
                }
                if e == m { "yes" } else { "NO" }
            }
            _ => "-",
        };
        let fmt = |p: Option<(u64, u64)>| p.map(|(a, b)| format!("{a} / {b}")).unwrap_or_else(|| "-".into());
        r.rows.push(vec![
            name.into(),
            format!("{bx}x{by}"),
            dyn_smem.to_string(),
            us(&t),
            fmt(expected),
            fmt(measured),
            ok.into(),
        ]);
        data.push(
            json!({"kernel": name, "block": [bx, by], "grid_timed": blocks, "dyn_smem": dyn_smem,
            "time_ms": t, "expected": expected, "ncu": measured, "verified": true}),
        );
    }
    if compared > 0 {
        r.checks.push(Check::at_least(
            "ncu wavefronts equal expected (kernels)",
            matches as f64,
            compared as f64,
        ));
    }
    r.data = json!({ "grid_timed": blocks, "expected_source": pred.label(), "kernels": data });
    Ok(r)
}

fn launch_div(lab: &Lab, f: &CudaFunction, out: &mut CudaSlice<f32>, grid: u32, block: u32) -> Result<()> {
    let cfg = LaunchConfig {
        grid_dim: (grid, 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    };
    let mut b = lab.stream.launch_builder(f);
    b.arg(out);
    // SAFETY: the kernel writes c[tid] for grid * block threads; `out` holds that many.
    unsafe { b.launch(cfg) }.ctx("cuLaunchKernel")?;
    Ok(())
}

pub(super) fn divergence(
    lab: &Lab,
    pred: &dyn Predictor,
    progress: &dyn Progress,
) -> Result<ExperimentReport> {
    progress.begin("divergence", 5);
    let mut r = report(
        lab,
        "divergence",
        &[
            "kernel",
            "build",
            "expected branch eff. %",
            "ncu branch eff. %",
            "time us (median)",
        ],
    );
    progress.step("ncu");
    let ncu = lab.ncu_rows("divergence", &[BRANCH_UNIFORM]);
    if let Err(why) = &ncu {
        r.notes.push(why.clone());
    }
    r.notes
        .push(format!("expected: {} (64 blocks x 64 threads)", pred.label()));
    let (grid, block) = (1u32 << 16, 256u32);
    let n = (grid * block) as usize;
    let mut data = Vec::new();
    let mut id = 0u32;
    for debug in [true, false] {
        let build = if debug { "-G" } else { "-O3" };
        let (m, _) = lab.module(kernels::DIVERGENCE, "divergence.cu", |o| o.debug = debug)?;
        for (k, warp_branch) in [("mathKernel1", false), ("mathKernel2", true)] {
            progress.step(&format!("{k} {build}"));
            let f = Lab::function(&m, k)?;
            let mut out = poisoned_f32(&lab.stream, n)?;
            launch_div(lab, &f, &mut out, grid, block)?;
            sync(&lab.stream, k)?;
            let got = lab.stream.clone_dtoh(&out).ctx("cuMemcpyDtoH")?;
            let want: Vec<f32> = (0..n as u32).map(|t| cpu::math_kernel(t, warp_branch)).collect();
            verify("divergence", k, &got, &want)?;
            let t = lab.time(3, || launch_div(lab, &f, &mut out, grid, block))?;
            let expected = pred.branch_efficiency(k, kernels::DIVERGENCE, debug, 64, 64);
            let measured = ncu
                .as_ref()
                .ok()
                .and_then(|rows| ncu::metric(rows, id, BRANCH_UNIFORM));
            id += 1;
            let f1 = |v: Option<f64>| v.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into());
            r.rows
                .push(vec![k.into(), build.into(), f1(expected), f1(measured), us(&t)]);
            data.push(
                json!({"kernel": k, "build": build, "expected": expected, "ncu": measured,
                "time_ms": t, "timed_grid": grid, "timed_block": block, "verified": true}),
            );
        }
    }
    r.data = json!({ "expected_source": pred.label(), "runs": data });
    Ok(r)
}

#[allow(clippy::too_many_arguments)]
fn launch_1d(
    lab: &Lab,
    f: &CudaFunction,
    a: &CudaSlice<f32>,
    out: &mut CudaSlice<f32>,
    n: i32,
    grid: u32,
    block: u32,
    smem: u32,
) -> Result<()> {
    let cfg = LaunchConfig {
        grid_dim: (grid, 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: smem,
    };
    let mut b = lab.stream.launch_builder(f);
    b.arg(a).arg(out).arg(&n);
    // SAFETY: (const float*, float*, int n) kernels that guard every access with n; buffers hold the
    // elements the grid covers.
    unsafe { b.launch(cfg) }.ctx("cuLaunchKernel")?;
    Ok(())
}

pub(super) fn adjdiff(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    progress.begin("adjdiff", 8);
    let n = 1usize << 26;
    let bytes = 2.0 * (n * 4) as f64;
    let block = lab.info.max_threads_per_block.min(1024);
    let mut r = report(
        lab,
        "adjdiff",
        &["version", "block", "time us (median)", "GB/s", "% of copy"],
    );
    progress.step("copy ceiling");
    let (copy, copy_t) = copy_ceiling(lab)?;
    let input = Rng::new(lab.cfg.seed ^ 3).vec_f32(n);
    let want = cpu::adjdiff(&input);
    progress.step("host");
    let mut host_ms = Vec::new();
    for _ in 0..5 {
        let t0 = Instant::now();
        let o = cpu::adjdiff(&input);
        host_ms.push(t0.elapsed().as_secs_f64() * 1e3);
        verify_f32("adjdiff", "host", &o, &want, 0.0)?;
    }
    let host = Stats::of(&host_ms).unwrap_or(Stats {
        n: 0,
        median: f64::NAN,
        min: 0.0,
        max: 0.0,
        mean: 0.0,
        stdev: 0.0,
    });
    let row = |name: &str, blk: String, s: &Stats| {
        let g = gbs(bytes, s.median);
        (
            vec![
                name.to_string(),
                blk,
                us(s),
                format!("{g:.0}"),
                format!("{:.1}", 100.0 * g / copy),
            ],
            g,
        )
    };
    let mut data = vec![json!({"version": "copy (cuMemcpyDtoD)", "time_ms": copy_t, "gbs": copy})];
    r.rows.push(row("device copy (ceiling)", "-".into(), &copy_t).0);
    let (hrow, hg) = row("host (CPU, 1 thread)", "-".into(), &host);
    r.rows.push(hrow);
    data.push(json!({"version": "host", "time_ms": host, "gbs": hg}));
    let (m, _) = lab.module(kernels::ADJDIFF, "adjdiff.cu", |_| {})?;
    let d_in = lab.stream.clone_htod(&input).ctx("cuMemcpyHtoD")?;
    let mut best: f64 = 0.0;
    let grid = n.div_ceil(block as usize) as u32;
    for (name, label, blk, grid, smem, nn) in [
        ("adjGlobal", "global", block, grid, 0, n as i32),
        ("adjShared", "shared", block, grid, 0, n as i32),
        ("adjShared2", "shared + 2nd barrier", block, grid, 0, n as i32),
        ("adjDynamic", "dynamic shared", block, grid, block * 4, n as i32),
        (
            "adjVec4",
            "float4 (best)",
            256,
            (n / 4).div_ceil(256) as u32,
            0,
            (n / 4) as i32,
        ),
    ] {
        progress.step(label);
        let f = Lab::function(&m, name)?;
        let mut out = poisoned_f32(&lab.stream, n)?;
        launch_1d(lab, &f, &d_in, &mut out, nn, grid, blk, smem)?;
        sync(&lab.stream, name)?;
        verify_f32(
            "adjdiff",
            name,
            &lab.stream.clone_dtoh(&out).ctx("cuMemcpyDtoH")?,
            &want,
            0.0,
        )?;
        let t = lab.time(3, || launch_1d(lab, &f, &d_in, &mut out, nn, grid, blk, smem))?;
        let (row, g) = row(label, blk.to_string(), &t);
        best = best.max(g);
        r.rows.push(row);
        data.push(
            json!({"version": label, "kernel": name, "block": blk, "time_ms": t, "gbs": g, "verified": true}),
        );
    }
    r.checks.push(Check::at_least(
        "best adjdiff / copy bandwidth",
        best / copy,
        0.85,
    ));
    r.notes.push(format!(
        "{n} floats; GB/s counts bytes read + written (2 x {} MiB); block {block} from the device query",
        (n * 4) >> 20
    ));
    r.data = json!({"n": n, "block_from_device": block, "copy_gbs": copy, "versions": data});
    Ok(r)
}

fn pinned(lab: &Lab, n: usize, flags: u32) -> Result<PinnedHostSlice<f32>> {
    // SAFETY: the memory is filled before it is read.
    unsafe { lab.ctx.alloc_pinned_with_flags::<f32>(n, flags) }.ctx("cuMemHostAlloc")
}

fn event(lab: &Lab) -> Result<cudarc::driver::CudaEvent> {
    lab.ctx
        .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
        .ctx("cuEventCreate")
}

fn launch_stream_k(
    s: &Arc<CudaStream>,
    f: &CudaFunction,
    a: &CudaSlice<f32>,
    out: &mut CudaSlice<f32>,
    n: usize,
    iters: i32,
) -> Result<()> {
    let cfg = LaunchConfig::for_num_elems(n as u32);
    let n = n as i32;
    let mut b = s.launch_builder(f);
    b.arg(a).arg(out).arg(&n).arg(&iters);
    // SAFETY: streamK(const float*, float*, int n, int iters) guards with n; buffers hold n floats.
    unsafe { b.launch(cfg) }.ctx("cuLaunchKernel(streamK)")?;
    Ok(())
}

/// One pipelined run over `k` streams; returns (total ms, segments).
#[allow(clippy::too_many_arguments)]
fn pipeline(
    lab: &Lab,
    f: &CudaFunction,
    streams: &[Arc<CudaStream>],
    h_in: &[Vec<f32>],
    p_in: &[PinnedHostSlice<f32>],
    p_out: &mut [PinnedHostSlice<f32>],
    v_out: &mut [Vec<f32>],
    d_in: &mut [CudaSlice<f32>],
    d_out: &mut [CudaSlice<f32>],
    use_pinned: bool,
    iters: i32,
) -> Result<(f64, Vec<Segment>)> {
    let k = streams.len();
    let start = event(lab)?;
    start.record(&lab.stream).ctx("cuEventRecord")?;
    let mut evs = Vec::with_capacity(k);
    for i in 0..k {
        let s = &streams[i];
        s.wait(&start).ctx("cuStreamWaitEvent")?;
        let e: Vec<_> = (0..4).map(|_| event(lab)).collect::<Result<_>>()?;
        e[0].record(s).ctx("cuEventRecord")?;
        if use_pinned {
            s.memcpy_htod(&p_in[i], &mut d_in[i]).ctx("cuMemcpyHtoDAsync")?;
        } else {
            s.memcpy_htod(&h_in[i], &mut d_in[i])
                .ctx("cuMemcpyHtoDAsync (pageable)")?;
        }
        e[1].record(s).ctx("cuEventRecord")?;
        let len = d_in[i].len();
        launch_stream_k(s, f, &d_in[i], &mut d_out[i], len, iters)?;
        e[2].record(s).ctx("cuEventRecord")?;
        if use_pinned {
            s.memcpy_dtoh(&d_out[i], &mut p_out[i]).ctx("cuMemcpyDtoHAsync")?;
        } else {
            s.memcpy_dtoh(&d_out[i], &mut v_out[i])
                .ctx("cuMemcpyDtoHAsync (pageable)")?;
        }
        e[3].record(s).ctx("cuEventRecord")?;
        evs.push(e);
    }
    let mut segs = Vec::new();
    let mut total: f64 = 0.0;
    for (i, e) in evs.iter().enumerate() {
        let t: Vec<f64> = e
            .iter()
            .map(|x| start.elapsed_ms(x).map(f64::from))
            .collect::<Result<_, _>>()
            .ctx("cuEventElapsedTime")?;
        segs.push(Segment {
            stream: i,
            kind: OpKind::H2D,
            start_ms: t[0],
            end_ms: t[1],
        });
        segs.push(Segment {
            stream: i,
            kind: OpKind::Kernel,
            start_ms: t[1],
            end_ms: t[2],
        });
        segs.push(Segment {
            stream: i,
            kind: OpKind::D2H,
            start_ms: t[2],
            end_ms: t[3],
        });
        total = total.max(t[3]);
    }
    for s in streams {
        sync(s, "stream pipeline")?;
    }
    Ok((total, segs))
}

pub(super) fn streams(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    const KS: [usize; 5] = [1, 2, 4, 8, 16];
    progress.begin("streams", 2 * (1 + 2 * KS.len() as u64));
    let n = 1usize << 25;
    let mut r = report(
        lab,
        "streams",
        &[
            "kernel FMAs/elem",
            "host memory",
            "streams",
            "time ms (median)",
            "ideal bound ms",
            "overlap efficiency %",
            "overlapped ms",
        ],
    );
    let (m, _) = lab.module(kernels::STREAMS, "streams.cu", |_| {})?;
    let f = Lab::function(&m, "streamK")?;
    let input = Rng::new(lab.cfg.seed ^ 5).vec_f32(n);
    let mut data = Vec::new();
    let mut stages = Vec::new();
    let mut best_eff: f64 = 0.0;
    for iters in [64i32, 8192] {
        let want: Vec<f32> = input
            .iter()
            .map(|&v| cpu::stream_kernel(v, iters as u32))
            .collect();
        progress.step("stage times");
        // The stages alone, whole array, pinned memory.
        let mut p_all = pinned(lab, n, 0)?;
        p_all.as_mut_slice().ctx("pinned")?.copy_from_slice(&input);
        let mut p_back = pinned(lab, n, 0)?;
        let mut d_a = poisoned_f32(&lab.stream, n)?;
        let mut d_b = poisoned_f32(&lab.stream, n)?;
        let h2d = lab.time(2, || {
            lab.stream.memcpy_htod(&p_all, &mut d_a).ctx("cuMemcpyHtoDAsync")
        })?;
        let kern = lab.time(2, || launch_stream_k(&lab.stream, &f, &d_a, &mut d_b, n, iters))?;
        let d2h = lab.time(2, || {
            lab.stream.memcpy_dtoh(&d_b, &mut p_back).ctx("cuMemcpyDtoHAsync")
        })?;
        sync(&lab.stream, "stages")?;
        verify_f32(
            "streams",
            "whole-array kernel",
            p_back.as_slice().ctx("pinned")?,
            &want,
            0.0,
        )?;
        let bound = timeline::ideal_bound_ms(h2d.median, kern.median, d2h.median);
        r.notes.push(format!(
        "{n} floats, {iters} FMAs/element; stages alone: H2D {:.3} ms, kernel {:.3} ms, D2H {:.3} ms; ideal bound max = {bound:.3} ms",
        h2d.median, kern.median, d2h.median
    ));
        stages.push(
            json!({"iters": iters, "h2d_ms": h2d, "kernel_ms": kern, "d2h_ms": d2h, "bound_ms": bound}),
        );
        for use_pinned in [true, false] {
            let label = if use_pinned { "pinned" } else { "pageable" };
            for &k in &KS {
                progress.step(&format!("{label} x{k}"));
                let chunk = n / k;
                let streams: Vec<_> = (0..k)
                    .map(|_| lab.ctx.new_stream())
                    .collect::<Result<_, _>>()
                    .ctx("cuStreamCreate")?;
                let h_in: Vec<Vec<f32>> = input.chunks(chunk).map(|c| c.to_vec()).collect();
                let mut p_in = Vec::new();
                let mut p_out = Vec::new();
                if use_pinned {
                    for c in &h_in {
                        let mut p = pinned(lab, chunk, 0)?;
                        p.as_mut_slice().ctx("pinned")?.copy_from_slice(c);
                        p_in.push(p);
                        p_out.push(pinned(lab, chunk, 0)?);
                    }
                }
                let mut v_out: Vec<Vec<f32>> = (0..k).map(|_| vec![0.0; chunk]).collect();
                let mut d_in: Vec<_> = (0..k)
                    .map(|_| poisoned_f32(&lab.stream, chunk))
                    .collect::<Result<_>>()?;
                let mut d_out: Vec<_> = (0..k)
                    .map(|_| poisoned_f32(&lab.stream, chunk))
                    .collect::<Result<_>>()?;
                sync(&lab.stream, "setup")?;
                let runs = if use_pinned { 10 } else { 4 };
                let mut times = Vec::new();
                let mut last = Vec::new();
                for run in 0..=runs {
                    for p in p_out.iter_mut() {
                        p.as_mut_slice().ctx("pinned")?.fill(cpu::poison_f32());
                    }
                    for v in v_out.iter_mut() {
                        v.fill(cpu::poison_f32());
                    }
                    let (t, segs) = pipeline(
                        lab, &f, &streams, &h_in, &p_in, &mut p_out, &mut v_out, &mut d_in, &mut d_out,
                        use_pinned, iters,
                    )?;
                    let got: Vec<f32> = if use_pinned {
                        let mut g = Vec::with_capacity(n);
                        for p in &p_out {
                            g.extend_from_slice(p.as_slice().ctx("pinned")?);
                        }
                        g
                    } else {
                        v_out.concat()
                    };
                    verify_f32("streams", &format!("{label} x{k}"), &got, &want, 0.0)?;
                    if run > 0 {
                        times.push(t);
                        last = segs;
                    }
                }
                let s = Stats::of(&times).ok_or_else(|| Error::Input("no timings".into()))?;
                let eff = timeline::overlap_efficiency(bound, s.median);
                if use_pinned {
                    best_eff = best_eff.max(eff);
                }
                let ov = timeline::overlapped_ms(&last);
                r.rows.push(vec![
                    iters.to_string(),
                    label.into(),
                    k.to_string(),
                    format!("{:.3}", s.median),
                    format!("{bound:.3}"),
                    format!("{:.1}", 100.0 * eff),
                    format!("{ov:.3}"),
                ]);
                if k == 4 || (use_pinned && (k == 1 || k == 16)) {
                    r.svgs.push((
                    format!("streams_{iters}_{label}_{k}"),
                    timeline::svg(
                        &format!(
                            "{iters} FMA/element, {label} memory, {k} stream(s): {:.2} ms, bound {bound:.2} ms",
                            s.median
                        ),
                        &last,
                    ),
                ));
                }
                data.push(json!({"iters": iters, "memory": label, "streams": k, "time_ms": s, "efficiency": eff, "overlapped_ms": ov, "timeline": last}));
            }
        }
    }
    r.checks.push(Check::at_least(
        "best pinned overlap efficiency (bound / measured)",
        best_eff,
        0.90,
    ));
    r.data = json!({"n": n, "stages": stages, "runs": data});
    Ok(r)
}

pub(super) fn hostmem(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    const SIZES: [usize; 4] = [64 << 10, 1 << 20, 16 << 20, 256 << 20];
    let kinds: [(&str, Option<u32>); 4] = [
        ("pageable", None),
        ("pinned", Some(0)),
        ("portable", Some(sys::CU_MEMHOSTALLOC_PORTABLE)),
        ("mapped", Some(sys::CU_MEMHOSTALLOC_DEVICEMAP)),
    ];
    progress.begin("hostmem", (kinds.len() * SIZES.len()) as u64 + 1);
    let mut r = report(lab, "hostmem", &["memory", "size", "H2D GB/s", "D2H GB/s"]);
    let mut rng = Rng::new(lab.cfg.seed ^ 7);
    let mut data = Vec::new();
    let mut best: f64 = 0.0;
    let mut pinned_h2d_large: f64 = 0.0;
    for (kind, flags) in kinds {
        for &bytes in &SIZES {
            progress.step(&format!("{kind} {} KiB", bytes >> 10));
            let n = bytes / 4;
            let src = rng.vec_f32(n);
            let mut d = poisoned_f32(&lab.stream, n)?;
            let (h2d, d2h, back) = match flags {
                None => {
                    let mut back = vec![cpu::poison_f32(); n];
                    let h2d = lab.time(2, || {
                        lab.stream
                            .memcpy_htod(&src, &mut d)
                            .ctx("cuMemcpyHtoD (pageable)")
                    })?;
                    let d2h = lab.time(2, || {
                        lab.stream
                            .memcpy_dtoh(&d, &mut back)
                            .ctx("cuMemcpyDtoH (pageable)")
                    })?;
                    sync(&lab.stream, "pageable")?;
                    (h2d, d2h, back)
                }
                Some(fl) => {
                    let mut h = pinned(lab, n, fl)?;
                    h.as_mut_slice().ctx("pinned")?.copy_from_slice(&src);
                    let mut hb = pinned(lab, n, fl)?;
                    hb.as_mut_slice().ctx("pinned")?.fill(cpu::poison_f32());
                    let h2d = lab.time(2, || lab.stream.memcpy_htod(&h, &mut d).ctx("cuMemcpyHtoDAsync"))?;
                    let d2h = lab.time(2, || lab.stream.memcpy_dtoh(&d, &mut hb).ctx("cuMemcpyDtoHAsync"))?;
                    sync(&lab.stream, kind)?;
                    (h2d, d2h, hb.as_slice().ctx("pinned")?.to_vec())
                }
            };
            verify_f32("hostmem", &format!("{kind} round trip"), &back, &src, 0.0)?;
            let (g1, g2) = (gbs(bytes as f64, h2d.median), gbs(bytes as f64, d2h.median));
            best = best.max(g1).max(g2);
            if kind == "pinned" && bytes == *SIZES.last().unwrap_or(&0) {
                pinned_h2d_large = g1;
            }
            r.rows.push(vec![
                kind.into(),
                format!("{} KiB", bytes >> 10),
                format!("{g1:.1}"),
                format!("{g2:.1}"),
            ]);
            data.push(json!({"memory": kind, "bytes": bytes, "h2d_ms": h2d, "d2h_ms": d2h, "h2d_gbs": g1, "d2h_gbs": g2, "verified": true}));
        }
    }
    // Zero-copy: a kernel reads mapped host memory directly.
    progress.step("zero-copy kernel");
    let n = (64usize << 20) / 4;
    let src = rng.vec_f32(n);
    let mut h = pinned(lab, n, sys::CU_MEMHOSTALLOC_DEVICEMAP)?;
    h.as_mut_slice().ctx("pinned")?.copy_from_slice(&src);
    let mut dptr: sys::CUdeviceptr = 0;
    let hp = h.as_mut_ptr().ctx("pinned")?;
    // SAFETY: `hp` was allocated by cuMemHostAlloc with DEVICEMAP and lives as long as `h`.
    unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dptr, hp.cast(), 0) }
        .result()
        .ctx("cuMemHostGetDevicePointer")?;
    let (m, _) = lab.module(kernels::STREAMS, "zerocopy.cu", |_| {})?;
    let f = Lab::function(&m, "zeroCopy")?;
    let mut out = poisoned_f32(&lab.stream, n)?;
    let grid = lab.info.multiprocessors * 8;
    let launch = |out: &mut CudaSlice<f32>| -> Result<()> {
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let nn = n as i32;
        let mut b = lab.stream.launch_builder(&f);
        b.arg(&dptr).arg(out).arg(&nn);
        // SAFETY: zeroCopy(const float*, float*, int) reads n floats from the mapped pointer (n floats
        // allocated) and writes n floats to `out`.
        unsafe { b.launch(cfg) }.ctx("cuLaunchKernel(zeroCopy)")?;
        Ok(())
    };
    launch(&mut out)?;
    sync(&lab.stream, "zeroCopy")?;
    let want: Vec<f32> = src.iter().map(|x| x * 2.0).collect();
    verify_f32(
        "hostmem",
        "zero-copy kernel",
        &lab.stream.clone_dtoh(&out).ctx("cuMemcpyDtoH")?,
        &want,
        0.0,
    )?;
    let t = lab.time(2, || launch(&mut out))?;
    let zc = gbs((n * 4) as f64, t.median);
    r.rows.push(vec![
        "mapped, read by a kernel".into(),
        format!("{} KiB", (n * 4) >> 10),
        format!("{zc:.1}"),
        "-".into(),
    ]);
    r.checks.push(Check::at_least(
        "pinned H2D (256 MiB) / best link bandwidth measured",
        pinned_h2d_large / best,
        0.90,
    ));
    r.data = json!({"copies": data, "zero_copy": {"bytes": n * 4, "time_ms": t, "gbs": zc}, "best_link_gbs": best});
    Ok(r)
}

fn limits(lab: &Lab) -> Option<Limits> {
    let mut l = Limits::for_cc(lab.cc())?;
    l.sm_count = lab.info.multiprocessors;
    Some(l)
}

pub(super) fn regs(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    const CAPS: [Option<u32>; 5] = [None, Some(128), Some(64), Some(48), Some(32)];
    progress.begin("regs", CAPS.len() as u64);
    let mut r = report(
        lab,
        "regs",
        &[
            "-maxrregcount",
            "registers",
            "spill st/ld B (ptxas)",
            "local B/thread",
            "occupancy (model)",
            "occupancy (driver)",
            "time us (median)",
        ],
    );
    let n = 1usize << 21;
    let block = 256u32;
    let input = Rng::new(lab.cfg.seed ^ 11).vec_f32(n);
    let want: Vec<f32> = (0..n).map(|i| cpu::reg_hungry(&input, i)).collect();
    let d_in = lab.stream.clone_htod(&input).ctx("cuMemcpyHtoD")?;
    let lim = limits(lab);
    if lim.is_none() {
        r.notes.push(format!("no occupancy limits for CC {}", lab.cc()));
    }
    let mut data = Vec::new();
    for cap in CAPS {
        let label = cap.map(|c| c.to_string()).unwrap_or_else(|| "none".into());
        progress.step(&label);
        let (m, c) = lab.module(kernels::REGS, "regs.cu", |o| o.maxrregcount = cap)?;
        let f = Lab::function(&m, "regHungry")?;
        let nregs = f.num_regs().ctx("cuFuncGetAttribute(NUM_REGS)")? as u32;
        let local = f.local_size_bytes().ctx("cuFuncGetAttribute(LOCAL_SIZE_BYTES)")?;
        let (_, sst, sld) = crate::nvrtc::parse_ptxas_usage(&c.log).unwrap_or((0, 0, 0));
        let drv = f
            .occupancy_max_active_blocks_per_multiprocessor(block, 0, None)
            .ctx("cuOccupancyMaxActiveBlocksPerMultiprocessor")?;
        let warps_max = lab.info.max_threads_per_sm / 32;
        let drv_occ = f64::from(drv * block / 32) / f64::from(warps_max);
        let model = lim
            .as_ref()
            .and_then(|l| occupancy(l, &Launch::new(block, nregs)).ok());
        let model_occ = model
            .as_ref()
            .map(|o| f64::from(o.warps_per_sm) / f64::from(o.max_warps_per_sm));
        let mut out = poisoned_f32(&lab.stream, n)?;
        let grid = n.div_ceil(block as usize) as u32;
        launch_1d(lab, &f, &d_in, &mut out, n as i32, grid, block, 0)?;
        sync(&lab.stream, "regHungry")?;
        verify_f32(
            "regs",
            &format!("maxrregcount {label}"),
            &lab.stream.clone_dtoh(&out).ctx("cuMemcpyDtoH")?,
            &want,
            0.0,
        )?;
        let t = lab.time(3, || {
            launch_1d(lab, &f, &d_in, &mut out, n as i32, grid, block, 0)
        })?;
        let pct = |v: Option<f64>| {
            v.map(|x| format!("{:.0} %", 100.0 * x))
                .unwrap_or_else(|| "-".into())
        };
        r.rows.push(vec![
            label.clone(),
            nregs.to_string(),
            format!("{sst} / {sld}"),
            local.to_string(),
            pct(model_occ),
            pct(Some(drv_occ)),
            us(&t),
        ]);
        data.push(json!({"maxrregcount": cap, "registers": nregs, "spill_stores": sst, "spill_loads": sld, "local_bytes": local,
            "occupancy_model": model_occ, "occupancy_driver": drv_occ, "driver_blocks_per_sm": drv,
            "model_blocks_per_sm": model.as_ref().map(|o| o.blocks_per_sm), "time_ms": t, "verified": true}));
    }
    r.notes.push(format!(
        "block {block}, {n} elements; occupancy = resident warps / max warps per SM"
    ));
    r.data = json!({"block": block, "n": n, "sweep": data});
    Ok(r)
}

fn launch_2d(
    lab: &Lab,
    f: &CudaFunction,
    a: &CudaSlice<f32>,
    out: &mut CudaSlice<f32>,
    n: i32,
    tile: u32,
    bx: u32,
) -> Result<()> {
    let g = n as u32 / tile;
    let cfg = LaunchConfig {
        grid_dim: (g, g, 1),
        block_dim: (bx, 8, 1),
        shared_mem_bytes: 0,
    };
    let mut b = lab.stream.launch_builder(f);
    b.arg(a).arg(out).arg(&n);
    // SAFETY: the transpose kernels read and write n*n floats (n a multiple of the tile); both
    // buffers hold n*n.
    unsafe { b.launch(cfg) }.ctx("cuLaunchKernel")?;
    Ok(())
}

pub(super) fn transpose(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    progress.begin("transpose", 6);
    let n = 8192usize;
    let bytes = 2.0 * (n * n * 4) as f64;
    let mut r = report(
        lab,
        "transpose",
        &["version", "time us (median)", "GB/s", "% of copy"],
    );
    progress.step("copy ceiling");
    let (copy, copy_t) = copy_ceiling(lab)?;
    r.rows.push(vec![
        "device copy (ceiling)".into(),
        us(&copy_t),
        format!("{copy:.0}"),
        "100.0".into(),
    ]);
    let input = Rng::new(lab.cfg.seed ^ 13).vec_f32(n * n);
    let want = cpu::transpose(&input, n, n);
    let (m, _) = lab.module(kernels::TRANSPOSE, "transpose.cu", |_| {})?;
    let d_in = lab.stream.clone_htod(&input).ctx("cuMemcpyHtoD")?;
    let mut best: f64 = 0.0;
    let mut data = vec![json!({"version": "copy (cuMemcpyDtoD)", "time_ms": copy_t, "gbs": copy})];
    for (name, label, tile, bx, is_transpose) in [
        ("copyKernel", "copy kernel (same tiling)", 32, 32, false),
        ("trNaive", "naive", 32, 32, true),
        ("trShared", "shared 32x32", 32, 32, true),
        ("trPadded", "shared 32x33 (padded)", 32, 32, true),
        ("trPadded64", "shared 64x65 (padded)", 64, 64, true),
    ] {
        progress.step(label);
        let f = Lab::function(&m, name)?;
        let mut out = poisoned_f32(&lab.stream, n * n)?;
        launch_2d(lab, &f, &d_in, &mut out, n as i32, tile, bx)?;
        sync(&lab.stream, name)?;
        let got = lab.stream.clone_dtoh(&out).ctx("cuMemcpyDtoH")?;
        verify_f32(
            "transpose",
            name,
            &got,
            if is_transpose { &want } else { &input },
            0.0,
        )?;
        let t = lab.time(3, || launch_2d(lab, &f, &d_in, &mut out, n as i32, tile, bx))?;
        let g = gbs(bytes, t.median);
        if is_transpose {
            best = best.max(g);
        }
        r.rows.push(vec![
            label.into(),
            us(&t),
            format!("{g:.0}"),
            format!("{:.1}", 100.0 * g / copy),
        ]);
        data.push(json!({"version": label, "kernel": name, "time_ms": t, "gbs": g, "verified": true}));
    }
    r.checks.push(Check::at_least(
        "best transpose / copy bandwidth",
        best / copy,
        0.90,
    ));
    r.notes
        .push(format!("{n} x {n} floats; GB/s counts bytes read + written"));
    r.data = json!({"n": n, "copy_gbs": copy, "versions": data});
    Ok(r)
}

pub(super) fn occupancy_exp(lab: &Lab, progress: &dyn Progress) -> Result<ExperimentReport> {
    progress.begin("occupancy", 6);
    let mut r = report(
        lab,
        "occupancy",
        &[
            "kernel",
            "regs",
            "static smem",
            "block",
            "dyn smem",
            "driver blocks/SM",
            "warpscope blocks/SM",
            "equal",
        ],
    );
    let lim = limits(lab);
    if lim.is_none() {
        r.notes.push(format!(
            "no occupancy limits for CC {}: calculator not compared",
            lab.cc()
        ));
    }
    let (m_regs, _) = lab.module(kernels::REGS, "regs.cu", |_| {})?;
    let (m_regs32, _) = lab.module(kernels::REGS, "regs32.cu", |o| o.maxrregcount = Some(32))?;
    let (m_adj, _) = lab.module(kernels::ADJDIFF, "adjdiff.cu", |_| {})?;
    let (m_smem, _) = lab.module(kernels::SMEM, "smem.cu", |_| {})?;
    let (m_tr, _) = lab.module(kernels::TRANSPOSE, "transpose.cu", |_| {})?;
    let cases: Vec<(String, CudaFunction, Vec<u32>)> = vec![
        ("regHungry".into(), Lab::function(&m_regs, "regHungry")?, vec![0]),
        (
            "regHungry (maxrreg 32)".into(),
            Lab::function(&m_regs32, "regHungry")?,
            vec![0],
        ),
        ("adjShared".into(), Lab::function(&m_adj, "adjShared")?, vec![0]),
        (
            "sqRowColDyn".into(),
            Lab::function(&m_smem, "sqRowColDyn")?,
            vec![0, 4096, 16384, 40960],
        ),
        ("trPadded64".into(), Lab::function(&m_tr, "trPadded64")?, vec![0]),
    ];
    let (mut agree, mut total) = (0, 0);
    let mut data = Vec::new();
    for (name, f, dyns) in &cases {
        progress.step(name);
        let regs = f.num_regs().ctx("cuFuncGetAttribute")? as u32;
        let smem = f.shared_size_bytes().ctx("cuFuncGetAttribute")? as u32;
        for block in [32u32, 64, 96, 128, 192, 256, 384, 512, 768, 1024] {
            for &d in dyns {
                let drv = f
                    .occupancy_max_active_blocks_per_multiprocessor(block, d as usize, None)
                    .ctx("cuOccupancyMaxActiveBlocksPerMultiprocessor")?;
                let ours = lim.as_ref().and_then(|l| {
                    occupancy(
                        l,
                        &Launch {
                            static_smem: smem,
                            dyn_smem: d,
                            ..Launch::new(block, regs)
                        },
                    )
                    .ok()
                    .map(|o| o.blocks_per_sm)
                });
                let eq = ours == Some(drv);
                if ours.is_some() {
                    total += 1;
                    agree += usize::from(eq);
                }
                r.rows.push(vec![
                    name.clone(),
                    regs.to_string(),
                    smem.to_string(),
                    block.to_string(),
                    d.to_string(),
                    drv.to_string(),
                    ours.map(|v| v.to_string()).unwrap_or_else(|| "-".into()),
                    if ours.is_none() {
                        "-".into()
                    } else if eq {
                        "yes".into()
                    } else {
                        "NO".into()
                    },
                ]);
                data.push(json!({"kernel": name, "regs": regs, "static_smem": smem, "block": block, "dyn_smem": d, "driver": drv, "warpscope": ours}));
            }
        }
    }
    if total > 0 {
        r.checks.push(Check::at_least(
            "configurations where driver == warpscope",
            agree as f64,
            total as f64,
        ));
    }
    progress.step("ncu achieved occupancy");
    let mut achieved = Vec::new();
    match lab.ncu_rows("occupancy", &[WARPS_ACTIVE]) {
        Ok(rows) => {
            let regs = Lab::function(&m_regs, "regHungry")?
                .num_regs()
                .ctx("cuFuncGetAttribute")? as u32;
            for (i, block) in ACHIEVED_BLOCKS.iter().enumerate() {
                let a = ncu::metric(&rows, i as u32, WARPS_ACTIVE);
                let theo = lim
                    .as_ref()
                    .and_then(|l| occupancy(l, &Launch::new(*block, regs)).ok())
                    .map(|o| 100.0 * f64::from(o.warps_per_sm) / f64::from(o.max_warps_per_sm));
                r.notes.push(format!(
                    "regHungry block {block}: achieved occupancy (ncu) {} %, theoretical {} %",
                    a.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into()),
                    theo.map(|x| format!("{x:.1}")).unwrap_or_else(|| "-".into())
                ));
                achieved.push(json!({"kernel": "regHungry", "block": block, "achieved_pct": a, "theoretical_pct": theo}));
            }
        }
        Err(why) => r.notes.push(why),
    }
    r.data = json!({"configurations": data, "achieved": achieved});
    Ok(r)
}

const ACHIEVED_BLOCKS: [u32; 3] = [64, 256, 1024];

/// The launches `lab --profile-child NAME` makes under ncu, in the parent's order.
pub(super) fn profile_launches(lab: &Lab, experiment: &str) -> Result<Vec<String>> {
    let mut labels = Vec::new();
    match experiment {
        "smem" => {
            let (m, _) = lab.module(kernels::SMEM, "smem.cu", |_| {})?;
            for &(name, bx, by, dyn_smem, access) in SMEM_KERNELS {
                let f = Lab::function(&m, name)?;
                let input = Rng::new(lab.cfg.seed).vec_i32((bx * by) as usize);
                let d_in = lab.stream.clone_htod(&input).ctx("cuMemcpyHtoD")?;
                let mut d_out = lab
                    .stream
                    .clone_htod(&vec![cpu::POISON_BITS as i32; input.len()])
                    .ctx("cuMemcpyHtoD")?;
                launch_tile(lab, &f, &d_in, &mut d_out, 1, bx, by, dyn_smem)?;
                sync(&lab.stream, name)?;
                verify(
                    "smem",
                    name,
                    &lab.stream.clone_dtoh(&d_out).ctx("cuMemcpyDtoH")?,
                    &access.reference(&input, bx, by),
                )?;
                labels.push(name.to_string());
            }
        }
        "divergence" => {
            for debug in [true, false] {
                let (m, _) = lab.module(kernels::DIVERGENCE, "divergence.cu", |o| o.debug = debug)?;
                for k in ["mathKernel1", "mathKernel2"] {
                    let f = Lab::function(&m, k)?;
                    let mut out = poisoned_f32(&lab.stream, 64 * 64)?;
                    launch_div(lab, &f, &mut out, 64, 64)?;
                    sync(&lab.stream, k)?;
                    labels.push(format!("{k} {}", if debug { "-G" } else { "-O3" }));
                }
            }
        }
        "occupancy" => {
            let (m, _) = lab.module(kernels::REGS, "regs.cu", |_| {})?;
            let f = Lab::function(&m, "regHungry")?;
            let n = 1usize << 22;
            let d_in = lab
                .stream
                .clone_htod(&Rng::new(1).vec_f32(n))
                .ctx("cuMemcpyHtoD")?;
            let mut out = poisoned_f32(&lab.stream, n)?;
            for block in ACHIEVED_BLOCKS {
                launch_1d(
                    lab,
                    &f,
                    &d_in,
                    &mut out,
                    n as i32,
                    n.div_ceil(block as usize) as u32,
                    block,
                    0,
                )?;
                sync(&lab.stream, "regHungry")?;
                labels.push(format!("regHungry block {block}"));
            }
        }
        other => {
            return Err(Error::Input(format!(
                "experiment `{other}` has no profiled launches"
            )));
        }
    }
    Ok(labels)
}
