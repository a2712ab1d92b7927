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
