//! `MUFU.RCP64H` (`rcp.approx.ftz.f64`, `crates/emu/src/mufu.rs`'s `rcp64h`) against the H200
//! (calibration/rcp64h, README): every input high word of the binade [1, 2), then 4096
//! pseudo-random doubles of every exponent and 16 special values.

use warpscope_emu::arith::rcp_seed64;
use warpscope_emu::mufu::rcp64h;

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
fn every_high_word_of_one_binade_equals_the_h200() {
    let raw = unzstd("calibration/rcp64h/h200/rcp64h.delta.zst");
    assert_eq!(raw.len(), 4 << 20, "2^20 results of 4 bytes");
    let mut r = 0u32;
    let mut wrong = Vec::new();
    for (k, d) in raw.chunks_exact(4).enumerate() {
        r = r.wrapping_add(u32::from_le_bytes(d.try_into().unwrap()));
        let hi = 0x3ff0_0000 | k as u32;
        if rcp64h(hi) != r {
            wrong.push((k, rcp64h(hi), r));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 2^20 differ, first {:x?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    // the table is not the correctly rounded one: 1 + 513/2^20 is one unit below it
    let cr = ((1.0 / (1.0 + 513.0 / 1_048_576.0f64)).to_bits() + (1 << 31)) >> 32;
    assert_eq!(u64::from(rcp64h(0x3ff0_0000 | 513)) + 1, cr);
}

#[test]
fn every_listed_input_equals_the_h200() {
    let p = root().join("calibration/rcp64h/h200/rcp64h.list");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let mut it = line.split_whitespace();
        let (Some(x), Some(want), None) = (it.next(), it.next(), it.next()) else {
            panic!("rcp64h.list:{}: not `input result`", i + 1);
        };
        let x = u64::from_str_radix(x, 16).unwrap();
        let want = u64::from_str_radix(want, 16).unwrap();
        assert_eq!(rcp_seed64(x), want, "rcp64h.list:{}: input {x:#018x}", i + 1);
        n += 1;
    }
    assert_eq!(n, 4112, "4096 random inputs and 16 special values");
}
