//! The launch table calibration/hopper/host/hopper_run2.cu runs on the GPU (`launches.tsv`: a
//! kernel, its grid, block, dynamic shared bytes, buffers and parameters), read and emulated as
//! `warpscope run` analyses a launch; shared by hopper_triton2.rs and hopper_triton3.rs.

use std::collections::BTreeMap;

use warpscope_emu::Arg;

use super::{
    Emulated, Replay, base, device_hashes, disassemble, f16_bits, hash, input_value, map2d, ncu_rows,
    print_against, repo,
};

/// f32 -> bf16 bits, rounded to nearest even (finite values).
fn bf16_bits(v: f32) -> u16 {
    let b = v.to_bits();
    ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16
}

pub fn num<T: std::str::FromStr>(s: &str) -> T {
    s.parse()
        .unwrap_or_else(|_| panic!("launches.tsv: bad number {s:?}"))
}

/// A buffer token of launches.tsv: its bytes, and whether it is an output.
fn buffer(tok: &str) -> (Vec<u8>, bool) {
    let f: Vec<&str> = tok.split(':').collect();
    match f[0] {
        "out" => return (vec![0; num(f[1])], true),
        "zero" => return (vec![0; num(f[1])], false),
        _ => {}
    }
    let (seed, n): (u32, u32) = (num(f[1]), num(f[2]));
    let mut b = Vec::new();
    for i in 0..n {
        let h = hash(seed, i);
        let sign = ((h >> 20) & 1) << 7;
        match f[0] {
            "f32" => b.extend(input_value(seed, i).to_le_bytes()),
            "f16" => b.extend(f16_bits(input_value(seed, i)).to_le_bytes()),
            "bf16" => b.extend(bf16_bits(input_value(seed, i)).to_le_bytes()),
            "e4m3" => b.push(((h % 0x70) | sign) as u8),
            "e5m2" => b.push(((h % 0x48) | sign) as u8),
            "i8" => b.push(h as u8),
            "imod" => b.extend(((h as u64 % num::<u64>(f[3])) as u32).to_le_bytes()),
            k => panic!("launches.tsv: buffer kind {k}"),
        }
    }
    (b, false)
}

pub struct K {
    pub name: String,
    pub symbol: String,
    pub grid: [u32; 3],
    pub block: u32,
    pub dyn_smem: u32,
    /// Each buffer's bytes and whether it is an output; scratch buffers of `scratch:` params last.
    pub bufs: Vec<(Vec<u8>, bool)>,
    pub args: Vec<Arg>,
}

pub fn kernels(dir: &str) -> Vec<K> {
    let text = std::fs::read_to_string(repo().join(dir).join("launches.tsv")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 7, "launches.tsv: {line}");
        let g: Vec<u32> = c[2].split(',').map(num).collect();
        let mut bufs: Vec<(Vec<u8>, bool)> = c[5].split(' ').map(buffer).collect();
        let mut args = Vec::new();
        for p in c[6].split(' ') {
            let f: Vec<&str> = p.split(':').collect();
            args.push(match f[0] {
                "p" => Arg::U64(base(num(f[1]))),
                "null" => Arg::U64(0),
                "i32" => Arg::I32(num(f[1])),
                "i64" => Arg::I64(num(f[1])),
                "f32" => Arg::F32(num(f[1])),
                "scratch" => {
                    bufs.push((vec![0; num(f[1])], false));
                    Arg::U64(base(bufs.len() - 1))
                }
                "map" => Arg::Bytes(map(&f)),
                t => panic!("launches.tsv: param {t}"),
            });
        }
        out.push(K {
            name: c[0].into(),
            symbol: c[1].into(),
            grid: [g[0], g[1], g[2]],
            block: num(c[3]),
            dyn_smem: num(c[4]),
            bufs,
            args,
        });
    }
    out
}

/// hopper_run2.cu's `map:I:DT:INNER:OUTER:BOXI:BOXO`: a 2-D tensor map, 128-byte swizzle.
fn map(f: &[&str]) -> Vec<u8> {
    let (dtype, es) = match f[2] {
        "u8" => (0, 1),
        "f16" => (6, 2),
        "f32" => (7, 4),
        "bf16" => (9, 2),
        d => panic!("launches.tsv: map type {d}"),
    };
    map2d(
        base(num(f[1])),
        dtype,
        es,
        [num(f[3]), num(f[4])],
        [num(f[5]), num(f[6])],
    )
}

/// Emulates `k` with Triton's own cubin for the machine code.
pub fn emulate(dir: &str, k: &K) -> Result<Emulated, String> {
    let ptx = std::fs::read_to_string(repo().join(dir).join(format!("{}.ptx", k.name))).unwrap();
    super::emulate(Replay {
        name: &k.name,
        ptx: &ptx,
        symbol: &k.symbol,
        sass: disassemble(&repo().join(dir).join(format!("{}.cubin", k.name))),
        grid: k.grid,
        block: k.block,
        dyn_smem: k.dyn_smem,
        args: k.args.clone(),
        bufs: k.bufs.clone(),
    })
}

/// Prints every counter of the table's launches against the H200's (`HOPPER_ONLY=name`: one kernel).
pub fn print_counters(dir: &str, h200: &str) {
    let have = repo().join(h200).join("run.txt").exists();
    let (a, b) = if have {
        (ncu_rows(h200, "ncu_a.csv"), ncu_rows(h200, "ncu_b.csv"))
    } else {
        (Vec::new(), Vec::new())
    };
    let dev = if have {
        device_hashes(h200)
    } else {
        BTreeMap::new()
    };
    let only = std::env::var("HOPPER_ONLY").ok();
    for (i, k) in kernels(dir).iter().enumerate() {
        if only.as_deref().is_some_and(|o| o != k.name) {
            continue;
        }
        let t = std::time::Instant::now();
        match emulate(dir, k) {
            Ok(e) => print_against(&k.name, &e, dev.get(&k.name), have.then(|| (&a[i], &b[i]))),
            Err(err) => println!("== {} REFUSED: {err}", k.name),
        }
        println!("   ({:.1} s)", t.elapsed().as_secs_f64());
    }
}
