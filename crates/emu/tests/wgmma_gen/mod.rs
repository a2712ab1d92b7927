//! calibration/wgmma/gen.py's HOST section, the calibration programs' input generator: shared by
//! the dense (wgmma_common) and sparse (wgmma_sp_common) wgmma and mma.sp calibration tests.

pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub fn rnd(seed: u64, stream: u64, idx: u64) -> u64 {
    mix(seed ^ mix((stream << 40) ^ idx))
}

pub fn fint(e: u32, m: u32, v: i32) -> u32 {
    if v == 0 {
        return 0;
    }
    let s = u32::from(v < 0);
    let a = v.unsigned_abs();
    let ex = 31 - a.leading_zeros();
    let mant = ((a << m) >> ex) & ((1 << m) - 1);
    (s << (e + m)) | ((ex + (1 << (e - 1)) - 1) << m) | mant
}

pub fn fgen(e: u32, m: u32, cls: u32, r: u64, band_lo: i32, band_w: u32) -> u32 {
    let bias = (1u32 << (e - 1)) - 1;
    let mmask = (1u32 << m) - 1;
    let s = (r & 1) as u32;
    let maxf = (1u32 << e) - 1;
    if cls == 0 {
        return fint(e, m, ((r >> 8) % 9) as i32 - 4);
    }
    if cls == 3 && (r >> 60) < 3 {
        return match (r >> 40) % 6 {
            0 => maxf << m,
            1 => (1 << (e + m)) | (maxf << m),
            2 => (maxf << m) | mmask,
            3 => 1 << (e + m),
            4 => (s << (e + m)) | ((maxf - 1) << m) | mmask,
            _ => (s << (e + m)) | 1,
        };
    }
    let ex = if cls == 2 {
        ((r >> 1) % u64::from(maxf)) as u32
    } else {
        (bias as i32 + band_lo) as u32 + ((r >> 1) % u64::from(band_w)) as u32
    };
    (s << (e + m)) | (ex << m) | ((r >> 8) as u32 & mmask)
}

pub fn gen_elem(ek: u32, cls: u32, r: u64) -> u32 {
    match ek {
        1 => fgen(5, 10, cls, r, -3, 7),
        2 => fgen(8, 7, cls, r, -3, 7),
        3 => fgen(8, 23, cls, r, -3, 7),
        4 => fgen(4, 3, cls, r, -3, 7),
        5 => fgen(5, 2, cls, r, -3, 7),
        6 => match cls {
            0 => (((r >> 8) % 9 + 252) & 0xff) as u32,
            2 => [0x7f, 0x80, 0xff, 0x01][((r >> 8) & 3) as usize],
            _ => ((r >> 8) & 0xff) as u32,
        },
        7 => (r >> 8) as u32,
        8 => match cls {
            0 => fint(8, 23, ((r >> 8) % 129) as i32 - 64),
            2 => fgen(8, 23, 1, r, -30, 60),
            _ => fgen(8, 23, cls, r, -2, 7),
        },
        9 => fgen(5, 10, cls, r, -2, 7),
        _ => match cls {
            0 => (((r >> 8) % 2001) as i32 - 1000) as u32,
            2 => {
                if (r >> 7) & 1 == 1 {
                    0x7fff_ffffu32 - ((r >> 8) & 0xffff) as u32
                } else {
                    0x8000_0000u32 + ((r >> 8) & 0xffff) as u32
                }
            }
            _ => (r >> 8) as u32,
        },
    }
}

pub fn ebytes(ek: u32) -> usize {
    match ek {
        1 | 2 => 2,
        4..=6 => 1,
        _ => 4,
    }
}

pub fn fill(p: &mut [u8], ek: u32, cls: u32, seed: u64, stream: u64) {
    let w = ebytes(ek);
    for i in 0..p.len() / w {
        let v = gen_elem(ek, cls, rnd(seed, stream, i as u64));
        p[i * w..i * w + w].copy_from_slice(&v.to_le_bytes()[..w]);
    }
}

pub fn fill_words(n: usize, ek: u32, cls: u32, seed: u64, stream: u64) -> Vec<u32> {
    let w = if ek == 9 { 2 } else { 1 };
    (0..n)
        .map(|i| {
            (0..w).fold(0u32, |v, j| {
                v | gen_elem(ek, cls, rnd(seed, stream, (i * w + j) as u64)) << (16 * j)
            })
        })
        .collect()
}

pub fn fnv(p: &[u8]) -> u64 {
    p.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
