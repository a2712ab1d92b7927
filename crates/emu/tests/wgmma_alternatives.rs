//! The measured wgmma rule (`warpscope_emu::wgmma::WGMMA_RULE`) against its neighbours: each
//! alternative replays calibration/wgmma's rows (as wgmma_calibration.rs does) and must break
//! some; the counts are printed for calibration/wgmma/README.md. One test in its own process: the
//! rule is process-wide.

mod wgmma_common;

use warpscope_emu::tensor::Rounding;
use warpscope_emu::wgmma::{BaseOffset, Fp8Fma, WGMMA_RULE, WgmmaRule, set_rule};
use wgmma_common::*;

/// Rows (of the given kernels' name fragment, "" for all) the rule breaks.
fn broken(rule: WgmmaRule, filter: &str) -> (usize, usize) {
    set_rule(rule);
    let m = measured();
    let (mut bad, mut n) = (0, 0);
    for r in rows().iter().filter(|r| r.kernel.contains(filter)) {
        let Some(meas) = m.get(&r.id) else { continue };
        n += 1;
        if emulate(r) != meas.words {
            bad += 1;
        }
    }
    set_rule(WGMMA_RULE);
    (bad, n)
}

#[test]
fn alternatives_are_ruled_out() {
    let fp8 = WGMMA_RULE.fp8;
    let fma = WGMMA_RULE.fma;
    let alts: Vec<(&str, WgmmaRule, &str)> = vec![
        (
            "fp8 as f16 (blocks of 16, 25 bits, no shortening)",
            WgmmaRule {
                fp8: Fp8Fma {
                    block: 16,
                    kept: 25,
                    out_bits: 23,
                    ..fp8
                },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 blocks of 16",
            WgmmaRule {
                fp8: Fp8Fma { block: 16, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 12 bits kept",
            WgmmaRule {
                fp8: Fp8Fma { kept: 12, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 14 bits kept",
            WgmmaRule {
                fp8: Fp8Fma { kept: 14, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 25 bits kept",
            WgmmaRule {
                fp8: Fp8Fma { kept: 25, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 result unshortened",
            WgmmaRule {
                fp8: Fp8Fma { out_bits: 23, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 result 12 fraction bits",
            WgmmaRule {
                fp8: Fp8Fma { out_bits: 12, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 result 14 fraction bits",
            WgmmaRule {
                fp8: Fp8Fma { out_bits: 14, ..fp8 },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 C added after the block",
            WgmmaRule {
                fp8: Fp8Fma {
                    c_in_block: false,
                    ..fp8
                },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 aligned to products' leading bits",
            WgmmaRule {
                fp8: Fp8Fma {
                    product_top: false,
                    ..fp8
                },
                ..WGMMA_RULE
            },
            "e",
        ),
        (
            "fp8 f16 D from the shortened f32",
            WgmmaRule {
                fp8_f16_out_bits: 13,
                ..WGMMA_RULE
            },
            "_f16_e",
        ),
        (
            "fp8 f16 D 14 fraction bits",
            WgmmaRule {
                fp8_f16_out_bits: 14,
                ..WGMMA_RULE
            },
            "_f16_e",
        ),
        (
            "f16 D rounded from the truncated f32",
            WgmmaRule {
                f16_direct: false,
                ..WGMMA_RULE
            },
            "w_f16_f16",
        ),
        (
            "f16/bf16/tf32: 1 bit below the f32 significand",
            WgmmaRule {
                fma: warpscope_emu::tensor::BlockFma { extra_bits: 1, ..fma },
                ..WGMMA_RULE
            },
            "",
        ),
        (
            "f16/bf16/tf32: 3 bits below",
            WgmmaRule {
                fma: warpscope_emu::tensor::BlockFma { extra_bits: 3, ..fma },
                ..WGMMA_RULE
            },
            "",
        ),
        (
            "f16/bf16/tf32: blocks of 8",
            WgmmaRule {
                fma: warpscope_emu::tensor::BlockFma { block: 8, ..fma },
                ..WGMMA_RULE
            },
            "",
        ),
        (
            "f16/bf16/tf32: sum rounded to nearest",
            WgmmaRule {
                fma: warpscope_emu::tensor::BlockFma {
                    round: Rounding::Nearest,
                    ..fma
                },
                ..WGMMA_RULE
            },
            "",
        ),
        (
            "base offset ignored",
            WgmmaRule {
                base_offset: BaseOffset::Ignore,
                ..WGMMA_RULE
            },
            "f16_f16_n64_t00",
        ),
        (
            "base offset added",
            WgmmaRule {
                base_offset: BaseOffset::Add,
                ..WGMMA_RULE
            },
            "f16_f16_n64_t00",
        ),
        (
            "base offset XORed",
            WgmmaRule {
                base_offset: BaseOffset::Xor,
                ..WGMMA_RULE
            },
            "f16_f16_n64_t00",
        ),
    ];
    let (bad, n) = broken(WGMMA_RULE, "");
    assert_eq!(bad, 0, "the measured rule breaks {bad} of {n} rows");
    let mut report = Vec::new();
    for (name, rule, filter) in alts {
        let (bad, n) = broken(rule, filter);
        report.push(format!("{name}: {bad} of {n} rows"));
        assert!(bad > 0, "{name} breaks no row");
    }
    eprintln!("{}", report.join("\n"));
}
