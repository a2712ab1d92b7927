//! The tensor cores' floating-point rule (crates/emu/src/tensor.rs, `H100_FMA`) against the H100's
//! mma.sync outputs (calibration/equivalence/h100/mma_*.arg0.bin): the operands are rebuilt
//! exactly as calibration/equivalence/features/mmaSync.cu builds them from the launch's random
//! input bytes, the products are computed with the measured rule, which must give every output bit
//! for bit, and with its alternatives (other block sizes, fewer or more alignment bits, rounding to
//! nearest), which the measurements must rule out.

use std::path::Path;

use warpscope_emu::tensor::{BlockFma, H100_FMA, Rounding, a_elem, b_elem, c_elem, dims};
use warpscope_ptx::inst::{MmaShape, Ty};

/// warpscope's `buf:N` bytes for argument `seed` (calibration/equivalence/README.md).
fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out.extend_from_slice(&z.to_le_bytes());
    }
    out.truncate(n);
    out
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn h16(r: u32, g: u32, bf: bool) -> u32 {
    let (bias, mb) = if bf { (127, 7) } else { (15, 10) };
    let s = r & 0x8000;
    let m = r & ((1 << mb) - 1);
    let x = r >> 16;
    let e = match g {
        0 | 2 | 5 | 7 => bias - 3 + x % 7,
        1 => 1 + x % if bf { 254 } else { 30 },
        3 => x % 3,
        6 => bias - 8 + x % 17,
        _ => return r & 0xffff,
    };
    s | (e << mb) | m
}

fn areg(r: &[u32], g: u32, bf: bool) -> u32 {
    let lo = h16(r[0], g, bf);
    let hi = if g == 2 || g == 7 {
        lo
    } else {
        h16((r[0] >> 3) ^ r[1], g, bf)
    };
    lo | (hi << 16)
}

fn breg(r: &[u32], g: u32, bf: bool) -> u32 {
    let lo = h16(r[0], g, bf);
    let hi = if g == 2 || g == 7 {
        (lo ^ 0x8000) ^ (r[1] & 7)
    } else {
        h16((r[0] >> 3) ^ r[1], g, bf)
    };
    lo | (hi << 16)
}

fn f32c(r: u32, g: u32) -> u32 {
    let (s, m, x) = (r & 0x8000_0000, r & 0x7f_ffff, (r >> 23) & 0xff);
    let e = match g {
        0 | 2 | 6 => 121 + x % 13,
        1 => 87 + x % 81,
        3 => {
            if x % 2 == 1 {
                0
            } else {
                x % 8
            }
        }
        5 => return 0,
        7 => 103 + x % 5,
        _ => return r,
    };
    s | (e << 23) | m
}

fn tf32(r: u32, g: u32) -> u32 {
    let (s, m, x) = (r & 0x8000_0000, r & 0x7f_ffff, (r >> 23) & 0xff);
    let e = match g {
        0 | 2 | 5 | 7 => 124 + x % 7,
        1 => 1 + x % 254,
        3 => x % 3,
        6 => 119 + x % 17,
        _ => return r,
    };
    s | (e << 23) | m
}

/// One measured product: A (m x k), B (k x n), C and the GPU's D (m x n), all as bits.
struct Case {
    regime: u32,
    a: Vec<Vec<u64>>,
    b: Vec<Vec<u64>>,
    c: Vec<Vec<u32>>,
    d: Vec<Vec<u32>>,
}

fn cases(kernel: &str) -> (Ty, Vec<Case>) {
    let (shape, ty) = match kernel {
        "mma_f16_k16" => (MmaShape::M16n8k16, Ty::F16),
        "mma_bf16_k16" => (MmaShape::M16n8k16, Ty::BF16),
        "mma_f16_k8" => (MmaShape::M16n8k8, Ty::F16),
        "mma_bf16_k8" => (MmaShape::M16n8k8, Ty::BF16),
        _ => (MmaShape::M16n8k8, Ty::F32),
    };
    let bf = ty == Ty::BF16;
    let inp = words(&random_bytes(262_144, 1));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/equivalence/h100");
    let gpu = words(&std::fs::read(root.join(format!("{kernel}.arg0.bin"))).unwrap());
    let (na, nb) = match (shape, ty) {
        (MmaShape::M16n8k16, _) | (_, Ty::F32) => (4, 2),
        _ => (2, 1),
    };
    let per = if ty == Ty::F32 { 1 } else { 2 };
    let (m, n, k) = dims(shape);
    let mut out = Vec::new();
    for warp in 0..16u32 {
        for g in 0..8u32 {
            let mut cs = Case {
                regime: g,
                a: vec![vec![0; k]; m],
                b: vec![vec![0; n]; k],
                c: vec![vec![0; n]; m],
                d: vec![vec![0; n]; m],
            };
            for lane in 0..32usize {
                let c = ((warp * 8 + g) * 32) as usize + lane;
                let r = &inp[c * 16..c * 16 + 16];
                let (mut ar, mut br) = (vec![0u32; na], vec![0u32; nb]);
                if ty == Ty::F32 {
                    for j in 0..4 {
                        ar[j] = tf32(r[j], g);
                    }
                    br[0] = tf32(r[4], g);
                    br[1] = tf32(r[5], g);
                    if g == 2 || g == 7 {
                        ar[2] = ar[0];
                        br[1] = (br[0] ^ 0x8000_0000) ^ (r[10] & 0xe007);
                    }
                } else {
                    for (j, x) in ar.iter_mut().enumerate() {
                        *x = areg(&r[j..], g, bf);
                    }
                    for (j, x) in br.iter_mut().enumerate() {
                        *x = breg(&r[4 + j..], g, bf);
                    }
                }
                let el = |regs: &[u32], i: usize| -> u64 {
                    if per == 1 {
                        u64::from(regs[i])
                    } else {
                        u64::from((regs[i / 2] >> (16 * (i % 2))) & 0xffff)
                    }
                };
                for i in 0..na * per {
                    let (rr, cc) = a_elem(shape, ty, lane, i);
                    cs.a[rr][cc] = el(&ar, i);
                }
                for i in 0..nb * per {
                    let (rr, cc) = b_elem(shape, ty, lane, i);
                    cs.b[rr][cc] = el(&br, i);
                }
                for i in 0..4 {
                    let (rr, cc) = c_elem(shape, lane, i);
                    cs.c[rr][cc] = f32c(r[6 + i], g);
                    cs.d[rr][cc] = gpu[c * 4 + i];
                }
            }
            out.push(cs);
        }
    }
    (ty, out)
}

/// Outputs of `kernel` that `model` gets wrong, per regime.
fn misses(model: &BlockFma, ty: Ty, cs: &[Case]) -> [usize; 8] {
    let mut bad = [0; 8];
    for cs in cs {
        for (r, row) in cs.d.iter().enumerate() {
            for (col, &want) in row.iter().enumerate() {
                let a: Vec<u64> = cs.a[r].clone();
                let b: Vec<u64> = cs.b.iter().map(|br| br[col]).collect();
                if model.dot(ty, &a, &b, cs.c[r][col]) != want {
                    bad[cs.regime as usize] += 1;
                }
            }
        }
    }
    bad
}

const KERNELS: [&str; 5] = [
    "mma_f16_k16",
    "mma_bf16_k16",
    "mma_f16_k8",
    "mma_bf16_k8",
    "mma_tf32_k8",
];

#[test]
fn the_measured_rule_gives_every_output() {
    let mut total = 0;
    for kernel in KERNELS {
        let (ty, cs) = cases(kernel);
        total += cs.len() * 128;
        let bad = misses(&H100_FMA, ty, &cs);
        assert_eq!(bad, [0; 8], "{kernel}: outputs the rule gets wrong, per regime");
    }
    assert_eq!(total, 5 * 16 * 8 * 128);
}

#[test]
fn the_measurements_rule_out_the_alternatives() {
    let alternatives = [
        BlockFma { block: 8, ..H100_FMA },
        BlockFma { block: 4, ..H100_FMA },
        BlockFma {
            extra_bits: 1,
            ..H100_FMA
        },
        BlockFma {
            extra_bits: 3,
            ..H100_FMA
        },
        BlockFma {
            extra_bits: 24,
            ..H100_FMA
        },
        BlockFma {
            product_top: false,
            ..H100_FMA
        },
        BlockFma {
            product_top: false,
            extra_bits: 3,
            ..H100_FMA
        },
        BlockFma {
            round: Rounding::Nearest,
            ..H100_FMA
        },
        BlockFma {
            round: Rounding::Down,
            align: Rounding::Down,
            ..H100_FMA
        },
        BlockFma {
            align: Rounding::Down,
            ..H100_FMA
        },
    ];
    let all: Vec<(Ty, Vec<Case>)> = KERNELS.iter().map(|k| cases(k)).collect();
    for alt in alternatives {
        let wrong: usize = all
            .iter()
            .map(|(ty, cs)| misses(&alt, *ty, cs).iter().sum::<usize>())
            .sum();
        eprintln!("{alt:?}: {wrong} outputs differ from the H100");
        assert!(wrong > 0, "{alt:?} also fits every measurement");
    }
}
