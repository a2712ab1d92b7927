//! The asynchronous proxy's ordering rules (`warpscope_analysis::async_proxy`) on hand-written
//! kernels: a TMA load's bytes read before the reader observed the mbarrier phase are a `race`
//! naming the copy and the read; reading after a wait, or after a barrier behind a thread that
//! waited, is clean; a TMA store or a `wgmma.mma_async` reading shared bytes written with `st`
//! and no `fence.proxy.async` is `missing_proxy_fence`; a `wgmma.mma_async` without `wgmma.fence`
//! is `missing_wgmma_fence`.

use std::sync::Arc;

use warpscope_analysis::async_proxy::ProxyOps;
use warpscope_analysis::hazards::{Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc};
use warpscope_analysis::wgmma_hazards::WgmmaOps;
use warpscope_emu::tma::{Layout, TensorMap};
use warpscope_emu::{Arg, Launch, Limits, buffer_layout, run};

/// Runs kernel `k` (parameters: a tensor map, `out`, the tensor) with 128 threads; the map is a
/// `cols` x `rows` tensor of `dtype` (dimension 0 first) loaded as one box of the same size.
/// Returns the findings (each finding's lines are PTX lines) and `out`.
fn check_with(
    src: &str,
    dtype: u8,
    esz: usize,
    cols: u32,
    rows: u32,
    tensor: Vec<u8>,
) -> (Vec<Finding>, Vec<u8>) {
    let p = warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
    let k = p.kernel("k").unwrap();
    let cfg = Arc::new(HazardConfig::for_kernel(k, [128, 1, 1], 0));
    let ops = Arc::new(ProxyOps::of(&p));
    assert!(!ops.is_empty());
    let wg = Arc::new(WgmmaOps::of(&p));
    let out_bytes = cols as usize * rows as usize * esz;
    let mut args = vec![
        Arg::Bytes(vec![0; 128]),
        Arg::Buffer(vec![0; out_bytes.max(2048)]),
        Arg::Buffer(tensor),
    ];
    let (bases, _) = buffer_layout(&args);
    let m = TensorMap {
        layout: Layout::Tiled,
        rank: 2,
        dtype,
        interleave: 0,
        swizzle: 0,
        l2: 0,
        fill: 0,
        address: bases[2].unwrap(),
        dims: [cols, rows, 0, 0, 0],
        strides: [u64::from(cols) * esz as u64, 0, 0, 0],
        boxes: [cols as u16, rows as u16, 0, 0, 0],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    m.check().unwrap();
    args[0] = Arg::Bytes(m.to_bytes().to_vec());
    let launch = Launch::new([1, 1, 1], [128, 1, 1], args);
    let r = run(&p, "k", &launch, &Limits::default(), |b| {
        let s = HazardSink::new(Arc::clone(&cfg), b).with_proxy_ops(Arc::clone(&ops));
        if wg.is_empty() {
            s
        } else {
            s.with_wgmma_ops(Arc::clone(&wg))
        }
    })
    .unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffer(1).unwrap().to_vec();
    let mut rep = HazardReport::new(Arc::clone(&cfg));
    for s in r.sinks {
        rep.merge(s);
    }
    let f = rep.findings(&|pc| Loc {
        line: Some(p.inst_info(pc).ptx_line),
        label: format!("line {}", p.inst_info(pc).ptx_line),
    });
    (f, out)
}

/// A 2048-byte f32 tensor (32 x 16) loaded by thread 0 into `buf`; `body` follows the load.
fn tma_kernel(body: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry k(.param .align 64 .b8 tm[128], .param .u64 out, .param .u64 tens)\n{{\n\
 .reg .b32 %r<40>;\n .reg .b64 %rd<20>;\n .reg .pred %p<8>;\n .reg .f32 %f<8>;\n\
 .shared .align 1024 .b8 buf[4096];\n .shared .align 8 .b64 bar;\n\
 mov.u32 %r1, %tid.x;\n mov.u32 %r3, buf;\n mov.u32 %r5, bar;\n\
 shl.b32 %r2, %r1, 4;\n add.u32 %r4, %r3, %r2;\n\
 mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n ld.param.u64 %rd5, [out];\n\
 mul.wide.u32 %rd6, %r1, 16;\n add.s64 %rd7, %rd5, %rd6;\n\
 mov.u32 %r20, 0;\n mov.u32 %r21, 0;\n setp.eq.u32 %p1, %r1, 0;\n\
 @%p1 mbarrier.init.shared::cta.b64 [%r5], 1;\n bar.sync 0;\n\
{body}\n ret;\n}}\n"
    )
}

/// Thread 0 expects the box and issues the load (phase parity of the load: the barrier's current).
const LOAD: &str = "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], 2048;\n\
@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {%r20, %r21}], [%r5];";

fn wait(label: &str, parity: u32) -> String {
    format!("{label}: mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r5], {parity};\n @!%p2 bra {label};")
}

/// Every thread reads its 16 bytes of the box and writes them out.
const READ: &str =
    "ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r4];\n st.global.v4.u32 [%rd7], {%r10, %r11, %r12, %r13};";

fn tensor_f32() -> Vec<u8> {
    (0..512u32).flat_map(|i| (i as f32).to_le_bytes()).collect()
}

fn tma(body: &str) -> Vec<Finding> {
    let (f, out) = check_with(&tma_kernel(body), 7, 4, 32, 16, tensor_f32());
    // the emulator completes the copy at issue: every thread read the box whatever the order
    if body.contains("ld.shared.v4") {
        assert_eq!(out[..2048], tensor_f32()[..], "the box reached out");
    }
    f
}

/// The findings but the redundant-barrier warnings (the kernels' barriers after
/// `mbarrier.init` order nothing the checker sees).
fn bugs(f: &[Finding]) -> Vec<&Finding> {
    f.iter()
        .filter(|x| x.kind != FindingKind::RedundantBarrier)
        .collect()
}

fn of(f: &[Finding], kind: FindingKind) -> Vec<&Finding> {
    f.iter().filter(|x| x.kind == kind).collect()
}

/// The kernel text's line of the first instruction starting with `what` (PTX lines are 1-based).
fn line_of(src: &str, what: &str) -> u32 {
    src.lines()
        .position(|l| l.trim_start().trim_start_matches("@%p1 ").starts_with(what))
        .unwrap_or_else(|| panic!("no {what}")) as u32
        + 1
}

/// The line of the last instruction starting with `what`.
fn last_line_of(src: &str, what: &str) -> u32 {
    let lines: Vec<&str> = src.lines().collect();
    lines
        .iter()
        .rposition(|l| l.trim_start().starts_with(what))
        .unwrap_or_else(|| panic!("no {what}")) as u32
        + 1
}

#[test]
fn reading_after_every_thread_waited_is_clean() {
    let f = tma(&format!("{LOAD}\n{}\n{READ}", wait("W", 0)));
    assert!(bugs(&f).is_empty(), "{f:#?}");
}

#[test]
fn reading_before_the_wait_is_a_race_of_the_copy_and_the_read() {
    let body = format!("{LOAD}\n{READ}\n{}", wait("W", 0));
    let src = tma_kernel(&body);
    let f = tma(&body);
    let r = of(&f, FindingKind::Race);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(
        r[0].lines,
        vec![
            line_of(&src, "cp.async.bulk.tensor"),
            line_of(&src, "ld.shared.v4")
        ],
        "{:#?}",
        r[0]
    );
    assert!(r[0].message.contains("mbarrier phase"), "{}", r[0].message);
    // every warp read before waiting (one per warp-level read), thread 0 first
    assert_eq!(r[0].count, 4);
}

#[test]
fn one_waiter_then_a_barrier_orders_the_others() {
    let one = format!("@!%p1 bra SKIP;\n{}\nSKIP:\n", wait("W", 0));
    let f = tma(&format!("{LOAD}\n{one}bar.sync 0;\n{READ}"));
    assert!(bugs(&f).is_empty(), "{f:#?}");
    // without the barrier only thread 0 has observed the phase: thread 1 is warp 0's first racing
    // lane, and every warp races
    let f = tma(&format!("{LOAD}\n{one}{READ}"));
    let r = of(&f, FindingKind::Race);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(r[0].count, 4);
    assert_ne!(r[0].example.threads[1], 0, "thread 0 waited");
}

#[test]
fn a_second_load_needs_the_next_phase() {
    // the buffer is reloaded in phase 1: having observed phase 0 is not enough
    let reload = format!("{LOAD}\n{}\n{READ}\nbar.sync 0;\n{LOAD}\n", wait("W", 0));
    let src = tma_kernel(&format!("{reload}{READ}"));
    let f = tma(&format!("{reload}{READ}"));
    let r = of(&f, FindingKind::Race);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(
        r[0].lines,
        vec![
            last_line_of(&src, "@%p1 cp.async.bulk.tensor"),
            last_line_of(&src, "ld.shared.v4")
        ]
    );
    let f = tma(&format!("{reload}{}\n{READ}", wait("V", 1)));
    assert!(bugs(&f).is_empty(), "{f:#?}");
}

/// Every thread writes its 16 bytes; thread 0 stores the box with TMA after a barrier, with
/// `fence` before the store.
fn store(fence: &str) -> Vec<Finding> {
    tma(&format!(
        "mov.u32 %r10, 7;\n st.shared.v4.u32 [%r4], {{%r10, %r10, %r10, %r10}};\n bar.sync 0;\n{fence}\n\
@%p1 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {{%r20, %r21}}], [%r3];\n\
@%p1 cp.async.bulk.commit_group;\n@%p1 cp.async.bulk.wait_group 0;"
    ))
}

#[test]
fn a_tma_store_of_generic_writes_needs_a_proxy_fence() {
    let f = store("");
    let m = of(&f, FindingKind::MissingProxyFence);
    assert_eq!(m.len(), 1, "{f:#?}");
    assert!(m[0].message.contains("fence.proxy.async"), "{}", m[0].message);
    // the fence by the storing thread after the barrier, or by every writer before it
    let f = store("@%p1 fence.proxy.async.shared::cta;");
    assert!(bugs(&f).is_empty(), "{f:#?}");
    let f = tma(
        "mov.u32 %r10, 7;\n st.shared.v4.u32 [%r4], {%r10, %r10, %r10, %r10};\n fence.proxy.async.shared::cta;\n bar.sync 0;\n\
@%p1 cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r20, %r21}], [%r3];",
    );
    assert!(bugs(&f).is_empty(), "{f:#?}");
}

/// One warpgroup, A (64x16) and B (16x8) f16 all ones in `buf` (K-major, no swizzle: A at 0, B at
/// 2048), filled by `fill`; `pre` runs before the wgmma (after its `wgmma.fence` when `fence`).
fn wgmma_kernel(fill: &str, pre: &str, fence: bool) -> String {
    wgmma_kernel_then(fill, pre, fence, "")
}

/// [`wgmma_kernel`] with `post` after the `wgmma.wait_group`.
fn wgmma_kernel_then(fill: &str, pre: &str, fence: bool, post: &str) -> String {
    let fence = if fence { "wgmma.fence.sync.aligned;" } else { "" };
    tma_kernel(&format!(
        "{fill}\n\
 shr.u32 %r6, %r3, 4;\n cvt.u64.u32 %rd8, %r6;\n or.b64 %rd9, %rd8, 0x0000001000080000;\n add.u64 %rd10, %rd9, 128;\n\
 mov.f32 %f1, 0f00000000;\n mov.f32 %f2, 0f00000000;\n mov.f32 %f3, 0f00000000;\n mov.f32 %f4, 0f00000000;\n\
 setp.ne.u32 %p3, %r1, 1000;\n {fence}\n{pre}\n\
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{%f1, %f2, %f3, %f4}}, %rd9, %rd10, %p3, 1, 1, 0, 0;\n\
 wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;\n{post}\n\
 st.global.v4.f32 [%rd7], {{%f1, %f2, %f3, %f4}};"
    ))
}

const ST_FILL: &str = "mov.u32 %r10, 0x3c003c00;\n st.shared.v4.u32 [%r4], {%r10, %r10, %r10, %r10};\n\
 st.shared.v4.u32 [%r4+2048], {%r10, %r10, %r10, %r10};\n bar.sync 0;";

fn wgmma(src: &str) -> Vec<Finding> {
    // a 64 x 32 f16 tensor of ones (the TMA fill's source)
    let ones: Vec<u8> = (0..2048).flat_map(|_| 0x3c00u16.to_le_bytes()).collect();
    let (f, out) = check_with(src, 6, 2, 64, 32, ones);
    // D = 16 products of ones
    let d = f32::from_le_bytes(out[..4].try_into().unwrap());
    assert_eq!(d, 16.0);
    f
}

#[test]
fn wgmma_operands_written_with_st_need_a_proxy_fence() {
    let f = wgmma(&wgmma_kernel(ST_FILL, "", true));
    // one per (write, read) pair: A written by the first st, B by the second
    let m = of(&f, FindingKind::MissingProxyFence);
    assert_eq!(m.len(), 2, "{f:#?}");
    let fenced = format!("{ST_FILL}\n fence.proxy.async.shared::cta;");
    let f = wgmma(&wgmma_kernel(&fenced, "", true));
    assert!(bugs(&f).is_empty(), "{f:#?}");
}

#[test]
fn a_missing_wgmma_fence_is_found() {
    let fenced = format!("{ST_FILL}\n fence.proxy.async.shared::cta;");
    // none at all
    let src = wgmma_kernel(&fenced, "", false);
    let f = wgmma(&src);
    let m = of(&f, FindingKind::MissingWgmmaFence);
    assert_eq!(m.len(), 1, "{f:#?}");
    assert_eq!(m[0].lines, vec![line_of(&src, "wgmma.mma_async")]);
    assert_eq!(m[0].count, 4, "one per warp");
    // an accumulator written after the fence
    let src = wgmma_kernel(&fenced, "mov.f32 %f2, 0f00000000;", true);
    let f = wgmma(&src);
    let m = of(&f, FindingKind::MissingWgmmaFence);
    assert_eq!(m.len(), 1, "{f:#?}");
    assert_eq!(
        m[0].lines,
        vec![
            last_line_of(&src, "mov.f32 %f2,"),
            line_of(&src, "wgmma.mma_async")
        ],
    );
    // another register: clean
    let f = wgmma(&wgmma_kernel(&fenced, "mov.f32 %f5, 0f00000000;", true));
    assert!(bugs(&f).is_empty(), "{f:#?}");
    // a register copy after the fence of a value set before it is a rename (nvcc moves such
    // copies past the fence; ptxas coalesces them): clean; a copy of a value set after it is not
    let before = format!("{fenced}\n mov.f32 %f5, 0f00000000;");
    let f = wgmma(&wgmma_kernel(&before, "mov.f32 %f2, %f5;", true));
    assert!(bugs(&f).is_empty(), "{f:#?}");
    let f = wgmma(&wgmma_kernel(
        &fenced,
        "mov.f32 %f5, 0f00000000;\n mov.f32 %f2, %f5;",
        true,
    ));
    assert_eq!(of(&f, FindingKind::MissingWgmmaFence).len(), 1, "{f:#?}");
}

#[test]
fn wgmma_on_a_tma_tile_before_the_wait_is_a_race() {
    // the 64 x 32 f16 tensor (4096 bytes) fills A and B; thread 0 expects 4096 bytes
    let load = LOAD.replace("2048;", "4096;");
    let waited = format!("{load}\n{}", wait("W", 0));
    let f = wgmma(&wgmma_kernel(&waited, "", true));
    assert!(bugs(&f).is_empty(), "{f:#?}");
    let src = wgmma_kernel_then(&load, "", true, &wait("W", 0));
    let f = wgmma(&src);
    let r = of(&f, FindingKind::Race);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert_eq!(
        r[0].lines,
        vec![
            line_of(&src, "cp.async.bulk.tensor"),
            line_of(&src, "wgmma.mma_async")
        ]
    );
}
