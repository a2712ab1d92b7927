//! What the sparse wgmma / mma.sp calibration tests share: the calibration program's input
//! generator (calibration/wgmma-sp/gen.py's HOST section: calibration/wgmma's element generator
//! and the metadata words), rows.tsv, the measured outputs and one emulated launch per row.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use warpscope_emu::{Arg, Launch, Limits, run};

pub fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../calibration/wgmma-sp"))
}

// ---- the calibration program's generator (gen.py's HOST section) ----

#[path = "../wgmma_gen/mod.rs"]
mod wgmma_gen;
pub use wgmma_gen::*;

/// One metadata word (gen.py's meta_word): eight 4-bit fields; `mk` 1 and 3 (16-bit, 8-bit
/// types): two 2-bit indices per field (mode 0 the six ordered pairs, 1 the twelve valid fields,
/// 2 one ordered pair for the word), `mk` 2 (tf32): 0x4 or 0xe.
pub fn meta_word(mk: u32, mode: u32, r: u64) -> u32 {
    const ORD: [u32; 6] = [0x4, 0x8, 0xc, 0x9, 0xd, 0xe];
    const ANY: [u32; 12] = [0x1, 0x2, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9, 0xb, 0xc, 0xd, 0xe];
    let mut w = 0;
    for i in 0..8 {
        let q = r >> (6 * i + 8);
        let f = if mk == 2 {
            if (if mode == 2 { r & 1 } else { q & 1 }) == 1 {
                0xe
            } else {
                0x4
            }
        } else if mode == 1 {
            ANY[(q % 12) as usize]
        } else if mode == 2 {
            ORD[(r % 6) as usize]
        } else {
            ORD[(q % 6) as usize]
        };
        w |= f << (4 * i);
    }
    w
}

// ---- rows and measurements ----

/// One launch of rows.tsv.
#[derive(Clone, Debug)]
pub struct Row {
    pub id: u32,
    pub kernel: String,
    pub seed: u64,
    pub cls: u32,
    pub da: u64,
    pub db: u64,
    pub astep: i32,
    pub bstep: i32,
    pub nk: i32,
    pub scd: i32,
    pub mode: u32,
}

/// A kernel's shape: accumulator registers per thread, A and B element kinds, D kind, metadata
/// kind, threads.
#[derive(Clone, Copy, Debug)]
pub struct Kinds {
    pub nr: usize,
    pub ea: u32,
    pub eb: u32,
    pub ed: u32,
    pub mk: u32,
    pub threads: usize,
}

/// gen.py's names: `s_D_A_B_nN_...` (sparse wgmma) and `m_D_A_kK_eS` (mma.sp).
pub fn kinds(kernel: &str) -> Kinds {
    let p: Vec<&str> = kernel.split('_').collect();
    let code = |t: &str| match t {
        "f16" => 1,
        "bf16" => 2,
        "tf32" => 3,
        "e4m3" => 4,
        "e5m2" => 5,
        _ => 6,
    };
    let mk = |t: &str| match t {
        "f16" | "bf16" => 1,
        "tf32" => 2,
        _ => 3,
    };
    let ed = match p[1] {
        "f32" => 8,
        "f16" => 9,
        _ => 10,
    };
    if p[0] == "m" {
        let nr = if p[1] == "f16" { 2 } else { 4 };
        return Kinds {
            nr,
            ea: code(p[2]),
            eb: code(p[2]),
            ed,
            mk: mk(p[2]),
            threads: 32,
        };
    }
    let n: usize = p[4][1..].parse().unwrap();
    let nr = if p[1] == "f16" { n / 4 } else { n / 2 };
    Kinds {
        nr,
        ea: code(p[2]),
        eb: code(p[3]),
        ed,
        mk: mk(p[2]),
        threads: 128,
    }
}

pub fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(dir().join("rows.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                id: f[0].parse().unwrap(),
                kernel: f[1].to_string(),
                seed: f[2].parse().unwrap(),
                cls: f[3].parse().unwrap(),
                da: u64::from_str_radix(f[4], 16).unwrap(),
                db: u64::from_str_radix(f[5], 16).unwrap(),
                astep: f[6].parse().unwrap(),
                bstep: f[7].parse().unwrap(),
                nk: f[8].parse().unwrap(),
                scd: f[9].parse().unwrap(),
                mode: f[10].parse().unwrap(),
            }
        })
        .collect()
}

/// A measured launch: (input hashes: image, A registers, C, metadata; D words).
pub struct Measured {
    pub hashes: [u64; 4],
    pub words: Vec<u32>,
}

pub fn measured() -> HashMap<u32, Measured> {
    let raw = std::fs::read(dir().join("h200/d.bin.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut b).unwrap();
    let mut out = HashMap::new();
    let mut at = 0;
    let u32at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    while at < b.len() {
        let id = u32at(&b, at);
        let n = u32at(&b, at + 4) as usize;
        let h: Vec<u64> = (0..4)
            .map(|i| u64::from_le_bytes(b[at + 12 + 8 * i..at + 20 + 8 * i].try_into().unwrap()))
            .collect();
        let words = (0..n).map(|i| u32at(&b, at + 44 + 4 * i)).collect();
        out.insert(
            id,
            Measured {
                hashes: [h[0], h[1], h[2], h[3]],
                words,
            },
        );
        at += 44 + 4 * n;
    }
    out
}

pub fn program() -> &'static warpscope_ptx::Program {
    static P: OnceLock<warpscope_ptx::Program> = OnceLock::new();
    P.get_or_init(|| {
        let raw = std::fs::read(dir().join("sp_calib.ptx.zst")).unwrap();
        let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
        let mut src = String::new();
        std::io::Read::read_to_string(&mut dec, &mut src).unwrap();
        warpscope_ptx::compile(&src).unwrap()
    })
}

/// The row's inputs: (shared image, A registers (and mma.sp's B), initial accumulators,
/// metadata words).
pub fn inputs(r: &Row) -> (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>) {
    let k = kinds(&r.kernel);
    let mut img = vec![0u8; 65536];
    fill(&mut img[..16384], k.ea, r.cls, r.seed, 1);
    fill(&mut img[16384..], k.eb, r.cls, r.seed, 2);
    let mut areg: Vec<u8> = fill_words(1024, k.ea, r.cls, r.seed, 3)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    if k.ea != 3 {
        fill(&mut areg, k.ea, r.cls, r.seed, 3);
    }
    let cin = fill_words(128 * k.nr, k.ed, r.cls, r.seed, 4)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let meta = (0..256)
        .flat_map(|i| meta_word(k.mk, r.mode, rnd(r.seed, 5, i)).to_le_bytes())
        .collect();
    (img, areg, cin, meta)
}

/// The emulator's D words of a row.
pub fn emulate(r: &Row) -> Vec<u32> {
    let k = kinds(&r.kernel);
    let (img, areg, cin, meta) = inputs(r);
    let mut launch = Launch::new(
        [1, 1, 1],
        [k.threads as u32, 1, 1],
        vec![
            Arg::Buffer(img),
            Arg::Buffer(areg),
            Arg::Buffer(cin),
            Arg::Buffer(meta),
            Arg::Buffer(vec![0xee; 4 * (128 * k.nr + 1)]),
            Arg::U64(r.da),
            Arg::U64(r.db),
            Arg::I32(r.astep),
            Arg::I32(r.bstep),
            Arg::I32(r.nk),
            Arg::I32(r.scd),
        ],
    );
    launch.dyn_smem = 65536;
    let res = run(program(), &r.kernel, &launch, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "row {}: {:?}", r.id, res.faults);
    let out = res.buffer(4).unwrap();
    out.chunks(4)
        .take(k.threads * k.nr)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
