//! What the warp-level `mma.sp` calibration tests share: the `m_` rows of
//! calibration/wgmma-sp/rows.tsv, a PTX kernel per `m_` kernel doing what the calibration
//! program's does (A from `areg[4 t..]`, B from `areg[512 + 4 t..]`, C from `cin[t nc..]` or 0
//! when scale_d is 0, `nk` steps each with its own metadata word `meta[128 s + t]`, D to
//! `out[t nc..]`), and one emulated launch per row.
#![allow(dead_code)]

use warpscope_emu::{Arg, Launch, Limits, run};

use crate::wgmma_sp_common::{Row, inputs, kinds, rows};

/// The rows of the warp-level kernels.
pub fn mma_rows() -> Vec<Row> {
    rows()
        .into_iter()
        .filter(|r| r.kernel.starts_with("m_"))
        .collect()
}

/// The PTX of an `m_D_A_kK_eS` kernel, or of `m_D_A_kK_eS_p` with plain `mma.sp` (without
/// `::ordered_metadata`) (gen.py's mkernel).
pub fn ptx(kernel: &str) -> String {
    let p: Vec<&str> = kernel.split('_').collect();
    let form = if p.get(5) == Some(&"p") {
        "mma.sp"
    } else {
        "mma.sp::ordered_metadata"
    };
    let (d, a) = (p[1], p[2]);
    let k: u32 = p[3][1..].parse().unwrap();
    let sel: u32 = p[4][1..].parse().unwrap();
    let bits = match a {
        "f16" | "bf16" => 16,
        "tf32" => 32,
        _ => 8,
    };
    let nab = (k * bits / 128) as usize;
    let nc = if d == "f16" { 2 } else { 4 };
    let op = if d == "s32" {
        format!("{form}.sync.aligned.m16n8k{k}.row.col.satfinite.s32.{a}.{a}.s32")
    } else {
        format!("{form}.sync.aligned.m16n8k{k}.row.col.{d}.{a}.{a}.{d}")
    };
    let regs = |from: usize, n: usize| {
        (from..from + n)
            .map(|i| format!("%r{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (dl, al, bl) = (regs(10, nc), regs(20, nab), regs(30, nab));
    let mut body = String::new();
    for i in 0..nab {
        body += &format!("ld.global.u32 %r{}, [%rd10+{}];\n", 20 + i, 4 * i);
        body += &format!("ld.global.u32 %r{}, [%rd10+{}];\n", 30 + i, 2048 + 4 * i);
    }
    for i in 0..nc {
        body += &format!("ld.global.u32 %r{}, [%rd11+{}];\n", 40 + i, 4 * i);
        body += &format!("selp.b32 %r{}, %r{}, 0, %p1;\n", 10 + i, 40 + i);
    }
    let mut store = String::new();
    for i in 0..nc {
        store += &format!("st.global.u32 [%rd12+{}], %r{};\n", 4 * i, 10 + i);
    }
    format!(
        ".version 8.3\n.target sm_90a\n.address_size 64\n\
.visible .entry {kernel}(.param .u64 pa, .param .u64 pc, .param .u64 pm, .param .u64 po, .param .u32 pnk, .param .u32 psd)\n\
{{\n.reg .b32 %r<64>;\n.reg .b64 %rd<32>;\n.reg .pred %p<4>;\n\
ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pc];\nld.param.u64 %rd3, [pm];\nld.param.u64 %rd4, [po];\n\
ld.param.u32 %r1, [pnk];\nld.param.u32 %r2, [psd];\nsetp.ne.u32 %p1, %r2, 0;\n\
cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\ncvta.to.global.u64 %rd3, %rd3;\ncvta.to.global.u64 %rd4, %rd4;\n\
mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd5, %r0, 16;\nadd.s64 %rd10, %rd1, %rd5;\n\
mul.wide.u32 %rd6, %r0, {cb};\nadd.s64 %rd11, %rd2, %rd6;\nadd.s64 %rd12, %rd4, %rd6;\n\
{body}mov.u32 %r3, 0;\n\
LOOP:\nsetp.ge.s32 %p2, %r3, %r1;\n@%p2 bra DONE;\n\
mad.lo.u32 %r4, %r3, 128, %r0;\nmul.wide.u32 %rd7, %r4, 4;\nadd.s64 %rd8, %rd3, %rd7;\nld.global.u32 %r5, [%rd8];\n\
{op} {{{dl}}}, {{{al}}}, {{{bl}}}, {{{dl}}}, %r5, {sel};\n\
add.s32 %r3, %r3, 1;\nbra LOOP;\nDONE:\n{store}ret;\n}}\n",
        cb = 4 * nc,
    )
}

/// The emulator's D words of a row (32 threads x the D registers).
pub fn emulate(r: &Row) -> Vec<u32> {
    emulate_with_meta(r, |_| ())
}

/// As `emulate`, with the metadata words changed by `edit` first (for alternatives that read the
/// metadata otherwise than the rule does).
pub fn emulate_with_meta(r: &Row, edit: impl Fn(&mut [u8])) -> Vec<u32> {
    let k = kinds(&r.kernel);
    let (_, areg, cin, mut meta) = inputs(r);
    edit(&mut meta);
    let prog = warpscope_ptx::compile(&ptx(&r.kernel))
        .unwrap_or_else(|e| panic!("{}: {e:?}\n{}", r.kernel, ptx(&r.kernel)));
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(areg),
            Arg::Buffer(cin),
            Arg::Buffer(meta),
            Arg::Buffer(vec![0xee; 4 * 32 * k.nr]),
            Arg::I32(r.nk),
            Arg::I32(r.scd),
        ],
    );
    let res = run(&prog, &r.kernel, &launch, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "row {}: {:?}", r.id, res.faults);
    let out = res.buffer(3).unwrap();
    out.chunks(4)
        .take(32 * k.nr)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Rows whose emulated D differs from the measured one: (row, kernel, words differing).
pub fn broken() -> Vec<(u32, String, usize)> {
    let m = crate::wgmma_sp_common::measured();
    let mut bad = Vec::new();
    for r in mma_rows() {
        let meas = &m[&r.id];
        let got = emulate(&r);
        assert_eq!(got.len(), meas.words.len(), "row {}", r.id);
        let diff = got.iter().zip(&meas.words).filter(|(a, b)| a != b).count();
        if diff > 0 {
            bad.push((r.id, r.kernel.clone(), diff));
        }
    }
    bad
}
