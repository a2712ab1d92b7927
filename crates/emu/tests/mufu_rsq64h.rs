//! `MUFU.RSQ64H` (`rsqrt.approx.ftz.f64`, `crates/emu/src/mufu.rs`'s `rsq64h`) against the H200
//! (calibration/rsq64h, README): every input high word of [1, 4) (two binades: the square root's
//! table depends on the exponent's parity), then every exponent of both signs with four
//! significands, 4096 pseudo-random doubles and 33 special values, each with the seed and
//! `rsqrt.approx.f64` (the seed refined by ptxas's sequence).

use warpscope_emu::arith::{rsqrt_approx64, rsqrt_seed64};
use warpscope_emu::mufu::rsq64h;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn unzstd(path: &str) -> Vec<u8> {
    use std::io::Read;
    let p = root().join(path);
    let z = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut out = Vec::new();
    ruzstd::decoding::StreamingDecoder::new(&z[..])
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn every_high_word_of_two_binades_equals_the_h200() {
    let raw = unzstd("calibration/rsq64h/h200/rsq64h.delta.zst");
    assert_eq!(raw.len(), 8 << 20, "2^21 results of 4 bytes");
    let mut r = 0u32;
    let mut wrong = Vec::new();
    for (k, d) in raw.chunks_exact(4).enumerate() {
        r = r.wrapping_add(u32::from_le_bytes(d.try_into().unwrap()));
        let hi = 0x3ff0_0000 + k as u32;
        if rsq64h(hi) != r {
            wrong.push((k, rsq64h(hi), r));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 2^21 differ, first {:x?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    // the table is not the correctly rounded one: 1/sqrt(1 + 1/2^20) rounded to 20 fraction bits
    // is 0x3feffffe + 1 (0.999999523..., one unit above the seed)
    let cr = ((1.0 / (1.0 + 1.0 / 1_048_576.0f64).sqrt()).to_bits() + (1 << 31)) >> 32;
    assert_eq!(u64::from(rsq64h(0x3ff0_0001)) + 1, cr);
    assert_eq!(rsq64h(0x3ff0_0001), 0x3fef_fffe);
}

#[test]
fn every_listed_input_equals_the_h200() {
    let p = root().join("calibration/rsq64h/h200/rsq64h.list");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let v: Vec<u64> = line
            .split_whitespace()
            .map(|t| u64::from_str_radix(t, 16))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("rsq64h.list:{}: {e}", i + 1));
        let [x, seed, full] = v[..] else {
            panic!("rsq64h.list:{}: not `input seed full`", i + 1);
        };
        assert_eq!(rsqrt_seed64(x), seed, "rsq64h.list:{}: seed of {x:#018x}", i + 1);
        assert_eq!(
            rsqrt_approx64(x),
            full,
            "rsq64h.list:{}: rsqrt.approx.f64 of {x:#018x}",
            i + 1
        );
        n += 1;
    }
    assert_eq!(
        n,
        2048 * 2 * 4 + 4096 + 33,
        "every exponent, random inputs and special values"
    );
}
