//! Tensor memory access (`cp.async.bulk.tensor`) replayed against the GPU: each tiled case of
//! calibration/tma/tma.cu (every swizzle mode, rows shorter than the swizzle span, boxes out of
//! bounds before and after the tensor with zero and NaN fill, element strides, 1 to 5 dimensions,
//! fp32/fp16/u16/u8, padded strides) loads its box with a hand-written kernel and must leave the
//! shared memory the GPU left (calibration/tma/h200/tma.stdout: the box's words and 16 more, with
//! 0xabababab where nothing was written). Alternative rules these layouts break are listed in
//! calibration/tma/README.md.

use warpscope_emu::tma::{Layout, TensorMap};
use warpscope_emu::{Arg, FaultKind, Launch, Limits, buffer_layout, run};

/// The GPU's output up to the first case whose launch it stopped (`an illegal instruction was
/// encountered`: the process's context is lost after it).
fn measured() -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/tma/h200/tma.stdout");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    match text.find("an illegal instruction was encountered") {
        None => text,
        Some(at) => text[..text[..at].rfind("\ncase ").map_or(0, |c| c + 1)].to_string(),
    }
}

/// The words printed for case `name` (the lines after `NAME N words`).
fn block(text: &str, name: &str) -> Vec<u32> {
    let head = format!("{name} ");
    let mut lines = text
        .lines()
        .skip_while(|l| !(l.starts_with(&head) && l.ends_with(" words")));
    let n: usize = lines
        .next()
        .unwrap_or_else(|| panic!("no block {name}"))
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let w: Vec<u32> = lines
        .flat_map(|l| {
            l.split(' ')
                .map(|x| u32::from_str_radix(x, 16))
                .collect::<Vec<_>>()
        })
        .take_while(|r| r.is_ok())
        .map(Result::unwrap)
        .take(n)
        .collect();
    assert_eq!(w.len(), n, "{name}");
    w
}

/// A kernel that fills `words` shared words with 0xabababab, loads one box of the tensor map
/// parameter at the coordinates given, waits on the mbarrier and copies the words to `out`.
fn kernel(rank: usize) -> String {
    let coords: Vec<String> = (0..rank).map(|i| format!("%c{i}")).collect();
    let loads: String = (0..rank)
        .map(|i| format!(" ld.param.u32 %c{i}, [c{i}];\n"))
        .collect();
    let params: String = (0..5).map(|i| format!(", .param .u32 c{i}")).collect();
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry load(.param .align 64 .b8 tm[128], .param .u64 out, .param .u32 words, .param .u32 bytes{params})\n{{\n\
 .reg .b32 %r<20>;\n .reg .b32 %c<5>;\n .reg .b64 %rd<10>;\n .reg .pred %p<3>;\n\
 .shared .align 1024 .b8 buf[8192];\n .shared .align 8 .b64 bar;\n\
 ld.param.u32 %r10, [words];\n ld.param.u32 %r11, [bytes];\n ld.param.u64 %rd5, [out];\n{loads}\
 mov.u32 %r1, 0;\n mov.u32 %r3, buf;\n\
FILL:\n setp.ge.u32 %p1, %r1, %r10;\n @%p1 bra FD;\n shl.b32 %r2, %r1, 2;\n add.u32 %r4, %r3, %r2;\n\
 st.shared.u32 [%r4], -1414812757;\n add.u32 %r1, %r1, 1;\n bra FILL;\n\
FD:\n mov.u32 %r5, bar;\n mbarrier.init.shared::cta.b64 [%r5], 1;\n fence.proxy.async.shared::cta;\n\
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], %r11;\n\
 mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n\
 cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {{{}}}], [%r5];\n\
W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r5], 0;\n @!%p2 bra W;\n\
 mov.u32 %r1, 0;\n\
COPY:\n setp.ge.u32 %p1, %r1, %r10;\n @%p1 bra DONE;\n shl.b32 %r2, %r1, 2;\n add.u32 %r4, %r3, %r2;\n\
 ld.shared.u32 %r6, [%r4];\n mul.wide.u32 %rd3, %r1, 4;\n add.s64 %rd4, %rd5, %rd3;\n st.global.u32 [%rd4], %r6;\n\
 add.u32 %r1, %r1, 1;\n bra COPY;\n\
DONE:\n ret;\n}}\n",
        coords.join(", ")
    )
}

struct Case {
    name: &'static str,
    dtype: u8,
    dims: &'static [u32],
    strides: &'static [u64],
    boxes: &'static [u16],
    estrides: &'static [u8],
    swizzle: u8,
    fill: u8,
    coords: &'static [i32],
    offset: u64,
}

const F32: u8 = 7;
const F16: u8 = 6;
const U16: u8 = 1;
const U8: u8 = 0;

#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { name: "f32_2d_none", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[32, 16], estrides: &[], swizzle: 0, fill: 0, coords: &[8, 5], offset: 0 },
    Case { name: "f32_2d_sw32", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[8, 16], estrides: &[], swizzle: 1, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw64", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 16], estrides: &[], swizzle: 2, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw128", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[32, 16], estrides: &[], swizzle: 3, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw128_inner64", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 16], estrides: &[], swizzle: 3, fill: 0, coords: &[4, 1], offset: 0 },
    Case { name: "f32_2d_sw128_inner32", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[8, 32], estrides: &[], swizzle: 3, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw64_inner32", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[8, 16], estrides: &[], swizzle: 2, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw32_inner16", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[4, 16], estrides: &[], swizzle: 1, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_sw128_oob_neg", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[32, 8], estrides: &[], swizzle: 3, fill: 0, coords: &[-4, -3], offset: 0 },
    Case { name: "f32_2d_oob_neg_nan", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 4], estrides: &[], swizzle: 0, fill: 1, coords: &[-4, -3], offset: 0 },
    Case { name: "f32_2d_oob_end_nan", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 4], estrides: &[], swizzle: 0, fill: 1, coords: &[56, 62], offset: 0 },
    Case { name: "f32_2d_oob_far", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 4], estrides: &[], swizzle: 0, fill: 0, coords: &[-100, 70], offset: 0 },
    Case { name: "f32_2d_estride_1_2", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 8], estrides: &[1, 2], swizzle: 0, fill: 0, coords: &[0, 1], offset: 0 },
    Case { name: "f32_2d_estride_2_3", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[16, 7], estrides: &[2, 3], swizzle: 0, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "f32_2d_estride_oob", dtype: F32, dims: &[64, 64], strides: &[256], boxes: &[8, 8], estrides: &[1, 3], swizzle: 0, fill: 0, coords: &[60, 55], offset: 0 },
    Case { name: "f32_2d_pad", dtype: F32, dims: &[20, 10], strides: &[96], boxes: &[8, 4], estrides: &[], swizzle: 0, fill: 0, coords: &[16, 8], offset: 0 },
    Case { name: "f16_2d_sw128", dtype: F16, dims: &[128, 64], strides: &[256], boxes: &[64, 8], estrides: &[], swizzle: 3, fill: 0, coords: &[0, 2], offset: 0 },
    Case { name: "f16_2d_none", dtype: F16, dims: &[128, 64], strides: &[256], boxes: &[24, 4], estrides: &[], swizzle: 0, fill: 1, coords: &[120, 1], offset: 0 },
    Case { name: "u8_2d_sw128", dtype: U8, dims: &[256, 64], strides: &[256], boxes: &[128, 8], estrides: &[], swizzle: 3, fill: 0, coords: &[64, 0], offset: 0 },
    Case { name: "u8_2d_sw32", dtype: U8, dims: &[256, 64], strides: &[256], boxes: &[32, 8], estrides: &[], swizzle: 1, fill: 0, coords: &[0, 0], offset: 0 },
    Case { name: "u8_2d_oob", dtype: U8, dims: &[256, 60], strides: &[256], boxes: &[16, 4], estrides: &[], swizzle: 0, fill: 0, coords: &[248, 58], offset: 16 },
    Case { name: "f32_1d", dtype: F32, dims: &[1000], strides: &[], boxes: &[64], estrides: &[], swizzle: 0, fill: 0, coords: &[960], offset: 0 },
    Case { name: "f32_1d_neg", dtype: F32, dims: &[1000], strides: &[], boxes: &[16], estrides: &[], swizzle: 0, fill: 1, coords: &[-8], offset: 0 },
    Case { name: "f32_3d", dtype: F32, dims: &[8, 6, 5], strides: &[32, 192], boxes: &[8, 4, 3], estrides: &[], swizzle: 0, fill: 0, coords: &[0, 3, 3], offset: 0 },
    Case { name: "u16_4d", dtype: U16, dims: &[16, 4, 3, 5], strides: &[32, 128, 384], boxes: &[8, 2, 2, 3], estrides: &[], swizzle: 0, fill: 0, coords: &[4, 3, 1, 3], offset: 0 },
    Case { name: "f32_5d", dtype: F32, dims: &[4, 3, 3, 3, 3], strides: &[16, 48, 144, 432], boxes: &[4, 2, 2, 2, 2], estrides: &[], swizzle: 0, fill: 0, coords: &[0, 2, 1, -1, 2], offset: 0 },
    Case { name: "f32_5d_sw64_estride", dtype: F32, dims: &[16, 3, 3, 3, 3], strides: &[64, 192, 576, 1728], boxes: &[16, 3, 2, 2, 2], estrides: &[1, 2, 1, 2, 1], swizzle: 2, fill: 0, coords: &[0, 0, 1, 0, 1], offset: 0 },
];

fn map(c: &Case, address: u64) -> TensorMap {
    let r = c.dims.len();
    let mut m = TensorMap {
        layout: Layout::Tiled,
        rank: r as u8,
        dtype: c.dtype,
        interleave: 0,
        swizzle: c.swizzle,
        l2: 0,
        fill: c.fill,
        address: address + c.offset,
        dims: [0; 5],
        strides: [0; 4],
        boxes: [0; 5],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    m.dims[..r].copy_from_slice(c.dims);
    m.strides[..r - 1].copy_from_slice(c.strides);
    m.boxes[..r].copy_from_slice(c.boxes);
    if !c.estrides.is_empty() {
        m.estrides[..r].copy_from_slice(c.estrides);
    }
    m.check().unwrap();
    m
}

/// Tensor A of tma.cu: 4096 words, word i = i.
fn tensor() -> Vec<u8> {
    (0..4096u32).flat_map(|i| i.to_le_bytes()).collect()
}

fn launch(words: u32) -> Launch {
    let mut args = vec![
        Arg::Bytes(vec![0; 128]),
        Arg::Buffer(vec![0; words as usize * 4]),
        Arg::U32(words),
        Arg::U32(0),
    ];
    for _ in 0..5 {
        args.push(Arg::U32(0));
    }
    // the tensor rides as a second buffer after the output; the map names its address
    let mut l = Launch::new([1, 1, 1], [1, 1, 1], args);
    l.args.push(Arg::Buffer(tensor()));
    l
}

/// Cases of this table that tma.cu runs as probes, not in its main run (the GPU stops them, see
/// calibration/tma/README.md; the CLI test replays the probes it ran): warpscope's layouts for
/// them follow the same rules, unmeasured here.
const UNMEASURED: &[&str] = &["u8_2d_oob", "u16_4d", "f32_5d"];

/// Whether the measured output holds case `name`'s shared words.
fn has_block(text: &str, name: &str) -> bool {
    let head = format!("{name} ");
    text.lines()
        .any(|l| l.starts_with(&head) && l.ends_with(" words"))
}

#[test]
fn tiled_boxes_land_where_the_gpu_put_them() {
    let text = measured();
    let mut compared = 0;
    for c in CASES {
        if UNMEASURED.contains(&c.name) {
            assert!(
                !has_block(&text, c.name),
                "{} is measured now: compare it",
                c.name
            );
            continue;
        }
        compared += 1;
        let want = block(&text, c.name);
        let prog = warpscope_ptx::compile(
            &kernel(c.dims.len()).replace(".param .u32 c4)", ".param .u32 c4, .param .u64 tensor)"),
        )
        .unwrap();
        let words = want.len() as u32;
        let mut l = launch(words);
        let (bases, _) = buffer_layout(&l.args);
        let m = map(c, bases[9].unwrap());
        l.args[0] = Arg::Bytes(m.to_bytes().to_vec());
        l.args[3] = Arg::U32(m.box_bytes() as u32);
        for (i, &v) in c.coords.iter().enumerate() {
            l.args[4 + i] = Arg::U32(v as u32);
        }
        let res = run(&prog, "load", &l, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{}: {:?}", c.name, res.faults);
        let got: Vec<u32> = res
            .buffer(1)
            .unwrap()
            .chunks(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(got, want, "{}", c.name);
    }
    assert_eq!(compared, 24);
}

#[test]
fn a_map_that_is_not_one_faults_with_the_reason() {
    let c = &CASES[0];
    let prog =
        warpscope_ptx::compile(&kernel(2).replace(".param .u32 c4)", ".param .u32 c4, .param .u64 tensor)"))
            .unwrap();
    let mut l = launch(16);
    l.args[3] = Arg::U32(2048);
    // 128 zero bytes: no tensor map header
    let res = run(&prog, "load", &l, &Limits::default(), |_| ()).unwrap();
    assert_eq!(res.faults.len(), 1);
    assert!(
        matches!(res.faults[0].kind, FaultKind::TensorMap { why } if why.describe().contains("holds no tensor map"))
    );
    // a 3-D map under a 2-D instruction
    let (bases, _) = buffer_layout(&l.args);
    let mut m = map(c, bases[9].unwrap());
    m.rank = 3;
    m.dims[2] = 1;
    m.boxes[2] = 1;
    m.strides[1] = 16384;
    l.args[0] = Arg::Bytes(m.to_bytes().to_vec());
    let res = run(&prog, "load", &l, &Limits::default(), |_| ()).unwrap();
    assert!(matches!(res.faults[0].kind, FaultKind::TensorMap { why } if why.describe().contains("rank")));
}

fn map2d(address: u64, boxes: [u16; 2], dtype: u8) -> TensorMap {
    let m = TensorMap {
        layout: Layout::Tiled,
        rank: 2,
        dtype,
        interleave: 0,
        swizzle: 0,
        l2: 0,
        fill: 0,
        address,
        dims: [64, 64, 0, 0, 0],
        strides: [256, 0, 0, 0],
        boxes: [boxes[0], boxes[1], 0, 0, 0],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    m.check().unwrap();
    m
}

/// Multicast in a cluster of 2: rank r loads the 8 x 2 box at (8 r, r) into offset 128 r of both
/// blocks' buffers (a TMA destination is 128-byte aligned); each block's mbarrier expects both boxes
/// (128 bytes); each block copies its first 64 words out.
const MULTICAST: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry mc(.param .align 64 .b8 tm[128], .param .u64 out, .param .u64 tensor)\n.reqnctapercluster 2, 1, 1\n{\n\
 .reg .b32 %r<20>;\n .reg .b64 %rd<10>;\n .reg .pred %p<3>;\n .reg .b16 %rs<2>;\n\
 .shared .align 1024 .b8 buf[1024];\n .shared .align 8 .b64 bar;\n\
 ld.param.u64 %rd5, [out];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %cluster_ctarank;\n\
 mov.u32 %r5, bar;\n mov.u32 %r3, buf;\n\
 setp.ne.u32 %p1, %r1, 0;\n @%p1 bra SYNC;\n\
 mbarrier.init.shared::cta.b64 [%r5], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r5], 128;\n\
SYNC:\n barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n\
 @%p1 bra COPY;\n\
 mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n shl.b32 %r6, %r2, 7;\n add.u32 %r7, %r3, %r6;\n\
 shl.b32 %r8, %r2, 3;\n mov.u16 %rs1, 3;\n\
 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r7], [%rd2, {%r8, %r2}], [%r5], %rs1;\n\
W:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r5], 0;\n @!%p2 bra W;\n\
COPY:\n bar.sync 0;\n shl.b32 %r9, %r1, 2;\n add.u32 %r10, %r3, %r9;\n ld.shared.u32 %r11, [%r10];\n\
 shl.b32 %r12, %r2, 6;\n add.u32 %r13, %r12, %r1;\n mul.wide.u32 %rd3, %r13, 4;\n add.s64 %rd4, %rd5, %rd3;\n\
 st.global.u32 [%rd4], %r11;\n\
 barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n ret;\n}\n";

#[test]
fn a_multicast_load_fills_every_block_of_the_mask_and_completes_each_mbarrier() {
    let prog = warpscope_ptx::compile(MULTICAST).unwrap();
    let mut l = Launch::new(
        [2, 1, 1],
        [64, 1, 1],
        vec![
            Arg::Bytes(vec![0; 128]),
            Arg::Buffer(vec![0; 512]),
            Arg::Buffer(tensor()),
        ],
    );
    l.cluster = Some([2, 1, 1]);
    let (bases, _) = buffer_layout(&l.args);
    l.args[0] = Arg::Bytes(map2d(bases[2].unwrap(), [8, 2], F32).to_bytes().to_vec());
    let res = run(&prog, "mc", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let got: Vec<u32> = res
        .buffer(1)
        .unwrap()
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    // box r: rows r and r + 1, columns 8 r .. 8 r + 7 (element (x, y) of the tensor is 64 y + x)
    let mut want = Vec::new();
    for r in 0..2u32 {
        for y in r..r + 2 {
            want.extend((8 * r..8 * r + 8).map(|x| 64 * y + x));
        }
        // the rest of the 128 bytes: never written
        want.extend([0; 16]);
    }
    // both blocks hold both boxes
    assert_eq!(&got[..64], &want[..]);
    assert_eq!(&got[64..], &want[..]);
}

/// Thread 0 writes the 8 x 4 box's words as 1000 + i into shared memory, then stores (`op` 0) or
/// adds (`op` 1) the box at (x, y).
fn store_kernel(op: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
.visible .entry st(.param .align 64 .b8 tm[128], .param .u32 x, .param .u32 y, .param .u64 tensor)\n{{\n\
 .reg .b32 %r<20>;\n .reg .b64 %rd<10>;\n .reg .pred %p<3>;\n\
 .shared .align 1024 .b8 buf[1024];\n\
 ld.param.u32 %r1, [x];\n ld.param.u32 %r2, [y];\n mov.u32 %r3, buf;\n mov.u32 %r4, 0;\n\
FILL:\n setp.ge.u32 %p1, %r4, 32;\n @%p1 bra GO;\n shl.b32 %r5, %r4, 2;\n add.u32 %r6, %r3, %r5;\n\
 add.u32 %r7, %r4, 1000;\n st.shared.u32 [%r6], %r7;\n add.u32 %r4, %r4, 1;\n bra FILL;\n\
GO:\n fence.proxy.async.shared::cta;\n mov.b64 %rd1, tm;\n cvta.param.u64 %rd2, %rd1;\n\
 {op} [%rd2, {{%r1, %r2}}], [%r3];\n\
 cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n ret;\n}}\n"
    )
}

#[test]
fn stores_skip_the_outside_and_reductions_combine() {
    for (op, dtype, add) in [
        ("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group", 2, false),
        (
            "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group",
            2,
            true,
        ),
    ] {
        let prog = warpscope_ptx::compile(&store_kernel(op)).unwrap();
        // the box at (60, 62): columns 60..67 and rows 62..65, only 60..63 x 62..63 inside
        let mut l = Launch::new(
            [1, 1, 1],
            [1, 1, 1],
            vec![
                Arg::Bytes(vec![0; 128]),
                Arg::U32(60),
                Arg::U32(62),
                Arg::Buffer(tensor()),
            ],
        );
        let (bases, _) = buffer_layout(&l.args);
        l.args[0] = Arg::Bytes(map2d(bases[3].unwrap(), [8, 4], dtype).to_bytes().to_vec());
        let res = run(&prog, "st", &l, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{:?}", res.faults);
        let got: Vec<u32> = res
            .buffer(3)
            .unwrap()
            .chunks(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        for (i, &v) in got.iter().enumerate() {
            let (x, y) = (i as u32 % 64, i as u32 / 64);
            let inside = (60..64).contains(&x) && (62..64).contains(&y);
            let box_word = 1000 + (y.wrapping_sub(62)) * 8 + (x.wrapping_sub(60));
            let want = match (inside, add) {
                (false, _) => i as u32,
                (true, false) => box_word,
                (true, true) => i as u32 + box_word,
            };
            assert_eq!(v, want, "{op}: element ({x}, {y})");
        }
    }
}

#[test]
fn a_warp_whose_lanes_hold_the_same_operands_issues_the_copy_once() {
    // every lane of a warp runs the reduction with the same operands (CUTLASS's epilogue issues
    // its TMA stores from a whole warp): the SASS instruction takes uniform registers and runs
    // once per warp, so the box is added once, not 32 times
    let op = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group";
    let prog = warpscope_ptx::compile(&store_kernel(op)).unwrap();
    let mut l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Bytes(vec![0; 128]),
            Arg::U32(8),
            Arg::U32(2),
            Arg::Buffer(tensor()),
        ],
    );
    let (bases, _) = buffer_layout(&l.args);
    l.args[0] = Arg::Bytes(map2d(bases[3].unwrap(), [8, 4], 2).to_bytes().to_vec());
    let res = run(&prog, "st", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let got: Vec<u32> = res
        .buffer(3)
        .unwrap()
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    for (i, &v) in got.iter().enumerate() {
        let (x, y) = (i as u32 % 64, i as u32 / 64);
        let inside = (8..16).contains(&x) && (2..6).contains(&y);
        let want = if inside {
            i as u32 + 1000 + (y - 2) * 8 + (x - 8)
        } else {
            i as u32
        };
        assert_eq!(v, want, "element ({x}, {y})");
    }
}
