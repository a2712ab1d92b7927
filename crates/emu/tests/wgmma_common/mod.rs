//! What the wgmma calibration tests share: the calibration program's input generator (gen.py's
//! HOST section), rows.tsv, the measured outputs and one emulated launch per row.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use warpscope_emu::{Arg, Launch, Limits, run};

pub fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../calibration/wgmma"))
}

// ---- the calibration program's generator (gen.py's HOST section) ----

#[path = "../wgmma_gen/mod.rs"]
mod wgmma_gen;
pub use wgmma_gen::*;

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
}

/// The kernel's (accumulator registers per thread, A element kind, B element kind, D kind).
pub fn kinds(kernel: &str) -> (usize, u32, u32, u32) {
    let p: Vec<&str> = kernel.split('_').collect();
    let code = |t: &str| match t {
        "f16" => 1,
        "bf16" => 2,
        "tf32" => 3,
        "e4m3" => 4,
        "e5m2" => 5,
        "s8" | "u8" => 6,
        _ => 7,
    };
    let n: usize = p[4][1..].parse().unwrap();
    let (dk, nr) = match p[1] {
        "f32" => (8, n / 2),
        "f16" => (9, n / 4),
        _ => (10, n / 2),
    };
    (nr, code(p[2]), code(p[3]), dk)
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
            }
        })
        .collect()
}

/// A measured launch: (input hashes, D words).
pub struct Measured {
    pub hashes: [u64; 3],
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
        let h: Vec<u64> = (0..3)
            .map(|i| u64::from_le_bytes(b[at + 12 + 8 * i..at + 20 + 8 * i].try_into().unwrap()))
            .collect();
        let words = (0..n).map(|i| u32at(&b, at + 36 + 4 * i)).collect();
        out.insert(
            id,
            Measured {
                hashes: [h[0], h[1], h[2]],
                words,
            },
        );
        at += 36 + 4 * n;
    }
    out
}

pub fn program() -> &'static warpscope_ptx::Program {
    static P: OnceLock<warpscope_ptx::Program> = OnceLock::new();
    P.get_or_init(|| {
        let raw = std::fs::read(dir().join("wgmma_calib.ptx.zst")).unwrap();
        let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
        let mut src = String::new();
        std::io::Read::read_to_string(&mut dec, &mut src).unwrap();
        warpscope_ptx::compile(&src).unwrap()
    })
}

/// The row's inputs: (shared image, A registers, initial accumulators).
pub fn inputs(r: &Row) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let (nr, ea, eb, ed) = kinds(&r.kernel);
    let mut img = vec![0u8; 65536];
    fill(&mut img[..32768], ea, r.cls, r.seed, 1);
    fill(&mut img[32768..], eb, r.cls, r.seed, 2);
    let mut areg: Vec<u8> = fill_words(512, ea, r.cls, r.seed, 3)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    if ea != 3 && ea != 7 {
        fill(&mut areg, ea, r.cls, r.seed, 3);
    }
    let cin = fill_words(128 * nr, ed, r.cls, r.seed, 4)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    (img, areg, cin)
}

/// The emulator's D words of a row.
pub fn emulate(r: &Row) -> Vec<u32> {
    let (nr, ..) = kinds(&r.kernel);
    let (img, areg, cin) = inputs(r);
    let mut launch = Launch::new(
        [1, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(img),
            Arg::Buffer(areg),
            Arg::Buffer(cin),
            Arg::Buffer(vec![0xee; 4 * (128 * nr + 1)]),
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
    let out = res.buffer(3).unwrap();
    out.chunks(4)
        .take(128 * nr)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
