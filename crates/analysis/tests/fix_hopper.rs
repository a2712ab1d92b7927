//! The fix advisor on Hopper tiles (`warpscope_analysis::fix::hopper`), with hand-derived
//! wavefronts:
//!
//! * a wgmma A tile (64 x 64 f16, K-major) and B tile (8 x 64) in the no-swizzle layout their
//!   descriptors name, each filled by threads writing 16 bytes along K (a quarter warp writes the
//!   eight chunks of one row): without swizzle a row's eight chunks share one 16-byte bank column
//!   (core matrices keep a row's chunks LBO apart), 8 wavefronts per quarter, 32 per request
//!   against the ideal 4; the 32-byte swizzle spreads a row over 2 columns (4 lines each: 16 per
//!   request), 64 bytes over 4 (8), 128 bytes over all 8 (4, the ideal);
//! * a TMA box read down its columns (a warp's lanes read one column's 32 rows): 128-byte rows of
//!   f32 put all 32 lanes in one bank (32 wavefronts, ideal 1); the 128-byte swizzle spreads them
//!   over 8 banks (4); 64-byte rows put them in 2 banks (16), and the 64-byte swizzle (no
//!   padding) reaches 4 as the padded 128-byte one does.

use std::sync::Arc;

use warpscope_analysis::fix::{self, AdviseConfig, Target};
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::tma::{Layout, TensorMap};
use warpscope_emu::wgmma::{Desc, operand_addr};
use warpscope_emu::{Arg, Launch, Limits, buffer_layout};

fn advise(src: &str, launch: &Launch) -> fix::Advice {
    let p = warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    let trace = fix::record(
        &p,
        "k",
        launch,
        &Limits::default(),
        Arc::new(Reconciliation::ptx_level()),
    )
    .unwrap();
    assert!(trace.faults.is_empty(), "{:?}", trace.faults);
    let arrays = fix::arrays(p.kernel("k").unwrap(), 0);
    let cfg = AdviseConfig {
        target: Target::parse("sm_90").unwrap(),
        threads: 128,
        registers: Some(64),
        registers_from: "test".into(),
        source: None,
    };
    let mut adv = fix::advise(&trace, &arrays, &cfg).unwrap();
    fix::hopper::verify(&p, "k", launch, &Limits::default(), &mut adv.hopper).unwrap();
    adv
}

/// A: `ta` (64 rows x 8 chunks), B: `tb` (8 rows x 8 chunks), no swizzle, core matrices laid out
/// as CuTe's `tile_to_shape(Layout_K_INTER_Atom<half_t>, ...)`: chunk (mn, J) at
/// `(J * R/8 + mn/8) * 128 + (mn % 8) * 16` (A: LBO 1024, SBO 128; B: LBO 128). Four k16 steps.
const WGMMA: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n\
 .reg .b32 %r<40>;\n .reg .b16 %rs<4>;\n .reg .b64 %rd<30>;\n .reg .pred %p<8>;\n .reg .f32 %f<8>;\n\
 .shared .align 1024 .b8 ta[8192];\n .shared .align 1024 .b8 tb[1024];\n\
 mov.u32 %r1, %tid.x;\n mov.u32 %r30, ta;\n mov.u32 %r31, tb;\n mov.u32 %r10, 0x3c003c00;\n\
 mov.u32 %r2, 0;\n\
LA:\n shl.b32 %r3, %r2, 7;\n add.u32 %r3, %r3, %r1;\n shr.u32 %r4, %r3, 3;\n and.b32 %r5, %r3, 7;\n\
 shl.b32 %r6, %r5, 3;\n shr.u32 %r7, %r4, 3;\n add.u32 %r6, %r6, %r7;\n shl.b32 %r6, %r6, 7;\n\
 and.b32 %r8, %r4, 7;\n shl.b32 %r8, %r8, 4;\n add.u32 %r6, %r6, %r8;\n add.u32 %r6, %r6, %r30;\n\
 rem.u32 %r13, %r3, 11;\n cvt.rn.f16.u32 %rs1, %r13;\n mov.b32 %r14, {%rs1, %rs1};\n\
 st.shared.v4.u32 [%r6], {%r14, %r14, %r14, %r14};\n\
 add.u32 %r2, %r2, 1;\n setp.lt.u32 %p1, %r2, 4;\n @%p1 bra LA;\n\
 setp.lt.u32 %p2, %r1, 64;\n @!%p2 bra BD;\n\
 shr.u32 %r4, %r1, 3;\n and.b32 %r5, %r1, 7;\n shl.b32 %r6, %r5, 7;\n shl.b32 %r8, %r4, 4;\n\
 add.u32 %r6, %r6, %r8;\n add.u32 %r6, %r6, %r31;\n\
 rem.u32 %r13, %r1, 7;\n cvt.rn.f16.u32 %rs1, %r13;\n mov.b32 %r14, {%rs1, %rs1};\n\
 st.shared.v4.u32 [%r6], {%r14, %r14, %r14, %r14};\n\
BD:\n bar.sync 0;\n fence.proxy.async.shared::cta;\n\
 shr.u32 %r11, %r30, 4;\n cvt.u64.u32 %rd1, %r11;\n or.b64 %rd1, %rd1, 0x0000000800400000;\n\
 shr.u32 %r12, %r31, 4;\n cvt.u64.u32 %rd2, %r12;\n or.b64 %rd2, %rd2, 0x0000000800080000;\n\
 mov.f32 %f1, 0f00000000;\n mov.f32 %f2, 0f00000000;\n mov.f32 %f3, 0f00000000;\n mov.f32 %f4, 0f00000000;\n\
 setp.ne.u32 %p3, %r1, 1000;\n wgmma.fence.sync.aligned;\n\
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p3, 1, 1, 0, 0;\n\
 add.u64 %rd3, %rd1, 128;\n add.u64 %rd4, %rd2, 16;\n\
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd3, %rd4, %p3, 1, 1, 0, 0;\n\
 add.u64 %rd5, %rd1, 256;\n add.u64 %rd6, %rd2, 32;\n\
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd5, %rd6, %p3, 1, 1, 0, 0;\n\
 add.u64 %rd7, %rd1, 384;\n add.u64 %rd8, %rd2, 48;\n\
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd7, %rd8, %p3, 1, 1, 0, 0;\n\
 wgmma.commit_group.sync.aligned;\n wgmma.wait_group.sync.aligned 0;\n\
 ld.param.u64 %rd9, [out];\n mul.wide.u32 %rd10, %r1, 16;\n add.s64 %rd11, %rd9, %rd10;\n\
 st.global.v4.f32 [%rd11], {%f1, %f2, %f3, %f4};\n ret;\n}\n";

#[test]
fn wgmma_tiles_filled_across_core_matrices_get_the_128_byte_swizzle() {
    let launch = Launch::new([1, 1, 1], [128, 1, 1], vec![Arg::Buffer(vec![0; 2048])]);
    let adv = advise(WGMMA, &launch);
    let w: Vec<_> = adv.hopper.iter().filter(|s| s.kind == "wgmma_swizzle").collect();
    assert_eq!(w.len(), 2, "{:#?}\n{:?}", adv.hopper, adv.notes);
    let a = w.iter().find(|s| s.array == "ta").expect("A tile");
    let b = w.iter().find(|s| s.array == "tb").expect("B tile");
    // A: 16 requests (4 per warp), 32 -> 4 wavefronts each; B: 2 requests
    assert_eq!((a.wavefronts_before, a.wavefronts_after, a.ideal), (512, 64, 64));
    assert_eq!((b.wavefronts_before, b.wavefronts_after, b.ideal), (64, 8, 8));
    assert_eq!((a.current.as_str(), a.proposed.as_str()), ("none", "128B"));
    assert_eq!(b.proposed, "128B");
    let m: Vec<(String, u64)> = a.modes.iter().map(|m| (m.mode.clone(), m.wavefronts)).collect();
    assert_eq!(
        m,
        vec![
            ("none".into(), 512),
            ("32B".into(), 256),
            ("64B".into(), 128),
            ("128B".into(), 64)
        ]
    );
    let m: Vec<u64> = b.modes.iter().map(|m| m.wavefronts).collect();
    assert_eq!(m, vec![64, 32, 16, 8]);
    assert!(
        a.cute.contains(
            "GMMA::Layout_K_SW128_Atom<half_t> = Swizzle<3,4,3> o smem_ptr[16b]((_8,_64):(_64,_1))"
        ),
        "{}",
        a.cute
    );
    assert!(a.cute.contains("Shape<_64,_64>"), "{}", a.cute);
    assert!(b.cute.contains("Shape<_8,_64>"), "{}", b.cute);
    let d = a.descriptor.as_deref().unwrap();
    assert!(d.contains("swizzle bits 62-63 = 1 (128B)"), "{d}");
    assert!(d.contains("SBO = 1024 bytes"), "{d}");
    assert!(
        a.access_change.contains("a ^= ((a >> 7) & 7) << 4"),
        "{}",
        a.access_change
    );
    // re-emulated: the fill moved, the wgmma reading the new descriptors, D unchanged
    for s in [a, b] {
        assert!(s.basis.starts_with("verified: re-emulated"), "{}", s.basis);
    }
    // the plain pad/swizzle advice would break the descriptors' layout: none for these arrays
    assert!(adv.suggestions.is_empty(), "{:#?}", adv.suggestions);
    assert!(
        adv.notes
            .iter()
            .any(|n| n.starts_with("ta: read by wgmma.mma_async")),
        "{:?}",
        adv.notes
    );
}

#[test]
fn a_wrong_descriptor_fails_the_re_emulation() {
    // the proposal's descriptors with the 64B mode instead of 128B read other bytes of the tile
    // (A holds f16 (chunk index % 11), B (thread % 7)): the re-emulation sees other outputs
    let src = WGMMA;
    let launch = Launch::new([1, 1, 1], [128, 1, 1], vec![Arg::Buffer(vec![0; 2048])]);
    let mut adv = advise(src, &launch);
    let p = warpscope_ptx::compile(src).unwrap();
    let a = adv.hopper.iter_mut().find(|s| s.array == "ta").unwrap();
    assert!(a.basis.starts_with("verified"), "{}", a.basis);
    let (_, layout) = a.rerun.as_mut().unwrap();
    for d in &mut layout.descs {
        d.1 = (d.1 & !(3 << 62)) | 2 << 62;
    }
    fix::hopper::verify(&p, "k", &launch, &Limits::default(), &mut adv.hopper).unwrap();
    let a = adv.hopper.iter().find(|s| s.array == "ta").unwrap();
    assert!(a.basis.starts_with("NOT verified"), "{}", a.basis);
}

#[test]
fn the_proposed_descriptor_reads_the_moved_tile() {
    // hand-made check of the 128B proposal for A's first K step: the descriptor (start = ta,
    // SBO 1024, 128B) reads row mn's K chunk j at ta + mn * 128 + 16 j, XOR (mn % 8) << 4
    let launch = Launch::new([1, 1, 1], [128, 1, 1], vec![Arg::Buffer(vec![0; 2048])]);
    let adv = advise(WGMMA, &launch);
    let a = adv.hopper.iter().find(|s| s.array == "ta").unwrap();
    let d = a.descriptor.as_deref().unwrap();
    // the descriptor of pc ... -> 0x4000004000010000 | start
    let new: Vec<u64> = d
        .split(", pc ")
        .filter_map(|x| x.split(" -> ").nth(1))
        .map(|h| u64::from_str_radix(h.trim().trim_start_matches("0x"), 16).unwrap())
        .collect();
    assert_eq!(new.len(), 4, "{d}");
    let starts: Vec<u32> = new
        .iter()
        .map(|&x| Desc::decode(x).start - a.tile_offset as u32)
        .collect();
    assert_eq!(starts, vec![0, 32, 64, 96]);
    let dd = Desc::decode(new[0]);
    assert_eq!((dd.swizzle, dd.sbo), (128, 1024));
    for mn in 0..64u32 {
        for j in 0..2u32 {
            let want = a.tile_offset as u32 + mn * 128 + ((j ^ (mn % 8)) * 16);
            assert_eq!(operand_addr(&dd, false, mn, 16 * j), want);
        }
    }
}

/// Thread 0 loads a `cols` x 32 f32 box (no swizzle) into `buf`; every warp then reads column
/// `warp` down the 32 rows (lane = row) and writes it out.
fn tma_kernel(cols: u32) -> String {
    let row = cols * 4;
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry k(.param .align 64 .b8 tm[128], .param .u64 out, .param .u64 tens)\n{{\n\
 .reg .b32 %r<40>;\n .reg .b64 %rd<20>;\n .reg .pred %p<8>;\n\
 .shared .align 1024 .b8 buf[8192];\n .shared .align 8 .b64 bar;\n\
 mov.u32 %r1, %tid.x;\n mov.u32 %r3, buf;\n mov.u32 %r5, bar;\n\
 mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n mov.u32 %r20, 0;\n setp.eq.u32 %p1, %r1, 0;\n\
 @%p1 mbarrier.init.shared::cta.b64 [%r5], 1;\n bar.sync 0;\n\
 @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], {bytes};\n\
 @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {{%r20, %r20}}], [%r5];\n\
W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r5], 0;\n @!%p2 bra W;\n\
 and.b32 %r6, %r1, 31;\n shr.u32 %r7, %r1, 5;\n mul.lo.u32 %r8, %r6, {row};\n shl.b32 %r9, %r7, 2;\n\
 add.u32 %r8, %r8, %r9;\n add.u32 %r8, %r8, %r3;\n ld.shared.f32 %r10, [%r8];\n\
 ld.param.u64 %rd5, [out];\n mul.wide.u32 %rd6, %r1, 4;\n add.s64 %rd7, %rd5, %rd6;\n st.global.u32 [%rd7], %r10;\n\
 ret;\n}}\n",
        bytes = row * 32
    )
}

fn tma_launch(cols: u32) -> Launch {
    let tensor: Vec<u8> = (0..cols * 32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let mut args = vec![
        Arg::Bytes(vec![0; 128]),
        Arg::Buffer(vec![0; 512]),
        Arg::Buffer(tensor),
    ];
    let (bases, _) = buffer_layout(&args);
    let m = TensorMap {
        layout: Layout::Tiled,
        rank: 2,
        dtype: 7,
        interleave: 0,
        swizzle: 0,
        l2: 0,
        fill: 0,
        address: bases[2].unwrap(),
        dims: [cols, 32, 0, 0, 0],
        strides: [u64::from(cols) * 4, 0, 0, 0],
        boxes: [cols as u16, 32, 0, 0, 0],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    m.check().unwrap();
    args[0] = Arg::Bytes(m.to_bytes().to_vec());
    Launch::new([1, 1, 1], [128, 1, 1], args)
}

#[test]
fn a_tma_box_read_down_its_columns_gets_the_128_byte_swizzle() {
    let adv = advise(&tma_kernel(32), &tma_launch(32));
    let t: Vec<_> = adv.hopper.iter().filter(|s| s.kind == "tma_swizzle").collect();
    assert_eq!(t.len(), 1, "{:#?}\n{:?}", adv.hopper, adv.notes);
    let s = t[0];
    // 4 requests: 32 -> 4 wavefronts each (ideal 1)
    assert_eq!((s.wavefronts_before, s.wavefronts_after, s.ideal), (128, 16, 4));
    assert_eq!(s.proposed, "128B");
    assert_eq!(s.extra_shared_bytes, 0);
    // 32B and 64B spans are narrower than the 128-byte rows: not allowed by the TMA
    assert_eq!(s.modes.len(), 2, "{:?}", s.modes);
    assert!(
        s.tensor_map
            .as_deref()
            .unwrap()
            .contains("CU_TENSOR_MAP_SWIZZLE_128B")
    );
    assert!(
        s.access_change.contains("a ^= ((a >> 7) & 7) << 4"),
        "{}",
        s.access_change
    );
    assert!(s.basis.starts_with("verified: re-emulated"), "{}", s.basis);
}

#[test]
fn narrow_rows_take_the_swizzle_that_needs_no_padding() {
    let adv = advise(&tma_kernel(16), &tma_launch(16));
    let s = adv
        .hopper
        .iter()
        .find(|s| s.kind == "tma_swizzle")
        .unwrap_or_else(|| panic!("{:?}", adv.notes));
    // 64-byte rows: lanes in 2 banks (16 wavefronts per request); 64B and 128B both reach 4
    assert_eq!((s.wavefronts_before, s.wavefronts_after), (64, 16));
    assert_eq!(s.proposed, "64B");
    assert_eq!(s.extra_shared_bytes, 0);
    let m: Vec<(String, u64)> = s.modes.iter().map(|m| (m.mode.clone(), m.wavefronts)).collect();
    assert_eq!(
        m,
        vec![("none".into(), 64), ("64B".into(), 16), ("128B".into(), 16)]
    );
    assert!(s.basis.starts_with("verified: re-emulated"), "{}", s.basis);
    // the TMA writing with the 128B swizzle where the reads expect the 64B one: other outputs
    let mut list = adv.hopper.clone();
    let t = list.iter_mut().find(|s| s.kind == "tma_swizzle").unwrap();
    t.rerun.as_mut().unwrap().1.tma_swizzle[0].1 = 3;
    let p = warpscope_ptx::compile(&tma_kernel(16)).unwrap();
    fix::hopper::verify(&p, "k", &tma_launch(16), &Limits::default(), &mut list).unwrap();
    assert!(list[0].basis.starts_with("NOT verified"), "{}", list[0].basis);
}

#[test]
fn a_swizzled_or_conflict_free_box_gets_no_advice() {
    // warp w reads row w across (lane = column): conflict-free as written
    let src = tma_kernel(32).replace(
        "mul.lo.u32 %r8, %r6, 128;\n shl.b32 %r9, %r7, 2;",
        "mul.lo.u32 %r8, %r7, 128;\n shl.b32 %r9, %r6, 2;",
    );
    assert_ne!(src, tma_kernel(32));
    let adv = advise(&src, &tma_launch(32));
    assert!(adv.hopper.is_empty(), "{:#?}", adv.hopper);
}
