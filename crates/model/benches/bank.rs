//! Throughput of the bank model's fast path (goal: at least 5 million warp requests per second on one
//! thread) and of the reference path, on a fixed mix of requests.

use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, breakdown, wavefronts};

fn main() {
    divan::main();
}

/// 1024 requests: strides, broadcasts, pairs, random addresses, all widths, loads and stores.
fn mix() -> Vec<Request> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..1024u32)
        .map(|i| {
            let w = [1u8, 2, 4, 8, 16][(i % 5) as usize];
            let op = if i % 2 == 0 { Op::Load } else { Op::Store };
            let kind = (i / 10) % 4;
            let stride = (next() % 34) as u32;
            let r: [u32; 32] = std::array::from_fn(|_| (next() % 1024) as u32);
            Request::from_fn(w, op, |l| {
                let a = match kind {
                    0 => l * stride,
                    1 => l / 2,
                    2 => 7,
                    _ => r[l as usize],
                };
                Some(a * u32::from(w))
            })
        })
        .collect()
}

#[divan::bench(args = ["sm_90", "sm_35", "sm_13"])]
fn fast_path(bencher: divan::Bencher, arch: &str) {
    let arch = Arch::parse(arch).unwrap();
    let reqs = mix();
    let cfg = Config::default();
    bencher
        .counter(divan::counter::ItemsCount::new(reqs.len()))
        .bench(|| {
            let mut total = 0u32;
            for r in divan::black_box(&reqs) {
                total += wavefronts(arch, &cfg, r).unwrap().wavefronts;
            }
            total
        });
}

#[divan::bench(args = ["sm_90"])]
fn reference_path(bencher: divan::Bencher, arch: &str) {
    let arch = Arch::parse(arch).unwrap();
    let reqs = mix();
    let cfg = Config::default();
    bencher
        .counter(divan::counter::ItemsCount::new(reqs.len()))
        .bench(|| {
            let mut total = 0usize;
            for r in divan::black_box(&reqs) {
                total += breakdown(arch, &cfg, r).unwrap().wavefronts.len();
            }
            total
        });
}

/// One pattern, 1024 requests on sm_90: the conflict-free case (4-byte unit stride, and 8-byte
/// pairs that merge the half-warps), the worst case (a 32-way column read: every lane clashes),
/// and random words over a 4 KiB tile.
#[divan::bench(args = ["unit_stride", "pairs_8_byte", "column_32_way", "random_4k"])]
fn pattern(bencher: divan::Bencher, name: &str) {
    let arch = Arch::parse("sm_90").unwrap();
    let cfg = Config::default();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let reqs: Vec<Request> = (0..1024)
        .map(|_| {
            let r: [u32; 32] = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 1024) as u32 * 4
            });
            match name {
                "unit_stride" => Request::from_fn(4, Op::Load, |l| Some(l * 4)),
                "pairs_8_byte" => Request::from_fn(8, Op::Load, |l| Some(l / 2 * 8)),
                "column_32_way" => Request::from_fn(4, Op::Load, |l| Some(l * 128)),
                _ => Request::from_fn(4, Op::Load, |l| Some(r[l as usize])),
            }
        })
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(reqs.len()))
        .bench(|| {
            let mut total = 0u32;
            for r in divan::black_box(&reqs) {
                total += wavefronts(arch, &cfg, r).unwrap().wavefronts;
            }
            total
        });
}
