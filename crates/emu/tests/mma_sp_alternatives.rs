//! The warp-level `mma.sp` rule (crates/emu/src/mma_sp.rs, `MMA_SP_RULE`) against its
//! neighbours: each alternative metadata layout or fp8 summation must break rows of
//! calibration/wgmma-sp that the rule keeps exact (mma_sp_calibration). One test, since the rule
//! is set for the whole process.

mod mma_sp_common;
mod wgmma_sp_common;

use warpscope_emu::mma_sp::{Fp8Sum, MMA_SP_RULE, MmaSpRule, SpMeta, set_rule};

fn count(kernels: &[(u32, String, usize)], part: &str) -> usize {
    kernels.iter().filter(|(_, k, _)| k.contains(part)).count()
}

#[test]
fn alternatives_break_measured_rows() {
    let rows = mma_sp_common::mma_rows();
    let total = |part: &str| rows.iter().filter(|r| r.kernel.contains(part)).count();
    let base = MMA_SP_RULE;
    let alts: Vec<(&str, MmaSpRule, &str)> = vec![
        (
            "16-bit / tf32 metadata a lane per row (the 8-bit layout)",
            MmaSpRule {
                meta: [SpMeta::Rows, base.meta[1], base.meta[2]],
                ..base
            },
            "16_k|tf32",
        ),
        (
            "s8/u8 metadata in halves over the quad (the 16-bit layout)",
            MmaSpRule {
                meta: [base.meta[0], SpMeta::Halves, base.meta[2]],
                ..base
            },
            "_s8_|_u8_",
        ),
        (
            "e4m3/e5m2 metadata in halves over the quad (the 16-bit layout)",
            MmaSpRule {
                meta: [base.meta[0], base.meta[1], SpMeta::Halves],
                ..base
            },
            "e4m3|e5m2",
        ),
        (
            "fp8 products in one block of the sparse wgmma fp8 rule",
            MmaSpRule {
                fp8: Fp8Sum::Fp8Block,
                ..base
            },
            "e4m3|e5m2",
        ),
        (
            "fp8 as the two f16 blocks over the byte pairs, C in the first block",
            MmaSpRule {
                fp8: Fp8Sum::F16PairsCFirst,
                ..base
            },
            "e4m3|e5m2",
        ),
        (
            "fp8 as two f16 blocks in K order, C first",
            MmaSpRule {
                fp8: Fp8Sum::F16Halves,
                ..base
            },
            "e4m3|e5m2",
        ),
    ];
    let mut report = Vec::new();
    let mut kept = Vec::new();
    for (name, rule, parts) in &alts {
        set_rule(*rule);
        let bad = mma_sp_common::broken();
        set_rule(MMA_SP_RULE);
        let per: Vec<String> = parts
            .split('|')
            .map(|p| format!("{} of {} `{p}` rows", count(&bad, p), total(p)))
            .collect();
        let ids: Vec<String> = bad.iter().map(|(id, _, _)| id.to_string()).collect();
        report.push(format!(
            "{name}: {} rows broken ({}): rows {}",
            bad.len(),
            per.join(", "),
            ids.join(" ")
        ));
        if bad.is_empty() {
            kept.push(*name);
        }
    }
    println!("{}", report.join("\n"));
    assert!(
        mma_sp_common::broken().is_empty(),
        "the rule itself keeps every row"
    );
    assert!(
        kept.is_empty(),
        "alternatives no measured row rules out: {kept:?}\n{}",
        report.join("\n")
    );
}
