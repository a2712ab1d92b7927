//! The measured sparse wgmma rule (`warpscope_emu::wgmma::WGMMA_RULE`'s `meta`, `sparse_blocks`
//! and `wide_k`) against its neighbours: each alternative replays calibration/wgmma-sp's sparse
//! wgmma rows (as wgmma_sp_calibration.rs does) and must break some; the counts are printed for
//! calibration/wgmma-sp/README.md. One test in its own process: the rule is process-wide.

mod wgmma_sp_common;

use warpscope_emu::wgmma::{MetaLayout, SparseBlocks, WGMMA_RULE, WgmmaRule, WideK, set_rule};
use wgmma_sp_common::*;

/// Rows (of sparse wgmma kernels whose name has one of `filter`'s `|`-separated parts) the rule
/// breaks, and the rows tried.
fn broken(rule: WgmmaRule, filter: &str) -> (usize, usize) {
    set_rule(rule);
    let m = measured();
    let (mut bad, mut n) = (0, 0);
    for r in rows()
        .iter()
        .filter(|r| r.kernel.starts_with("s_") && filter.split('|').any(|f| r.kernel.contains(f)))
    {
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
    let (ok, n) = broken(WGMMA_RULE, "");
    assert_eq!(ok, 0, "the measured rule breaks {ok} of {n} rows");
    let alts: Vec<(&str, WgmmaRule, &str)> = vec![
        (
            "16-bit / tf32 metadata a lane per row",
            WgmmaRule {
                meta: [MetaLayout::Rows, MetaLayout::Rows],
                ..WGMMA_RULE
            },
            "_f16_f16_|bf16",
        ),
        (
            "16-bit / tf32 metadata a lane per row (tf32)",
            WgmmaRule {
                meta: [MetaLayout::Rows, MetaLayout::Rows],
                ..WGMMA_RULE
            },
            "tf32",
        ),
        (
            "8-bit metadata in halves over the quad",
            WgmmaRule {
                meta: [MetaLayout::Halves, MetaLayout::Halves],
                ..WGMMA_RULE
            },
            "s32_",
        ),
        (
            "8-bit metadata in halves over the quad (fp8)",
            WgmmaRule {
                meta: [MetaLayout::Halves, MetaLayout::Halves],
                ..WGMMA_RULE
            },
            "_e4m3_|_e5m2_",
        ),
        (
            "products in the dense K's blocks (f16)",
            WgmmaRule {
                sparse_blocks: SparseBlocks::Logical,
                ..WGMMA_RULE
            },
            "_f16_f16_",
        ),
        (
            "products in the dense K's blocks (bf16)",
            WgmmaRule {
                sparse_blocks: SparseBlocks::Logical,
                ..WGMMA_RULE
            },
            "bf16",
        ),
        (
            "products in the dense K's blocks (tf32)",
            WgmmaRule {
                sparse_blocks: SparseBlocks::Logical,
                ..WGMMA_RULE
            },
            "tf32",
        ),
        (
            "products in the dense K's blocks (fp8)",
            WgmmaRule {
                sparse_blocks: SparseBlocks::Logical,
                ..WGMMA_RULE
            },
            "_e4m3_|_e5m2_",
        ),
        (
            "32-byte swizzle: K past the atom in the next atom",
            WgmmaRule {
                wide_k: WideK::Sbo,
                ..WGMMA_RULE
            },
            "",
        ),
        (
            "32-byte swizzle: K straight on in the row",
            WgmmaRule {
                wide_k: WideK::Linear,
                ..WGMMA_RULE
            },
            "",
        ),
    ];
    let mut unbroken = Vec::new();
    for (what, rule, filter) in alts {
        let (bad, n) = broken(rule, filter);
        println!("{what}: breaks {bad} of {n} rows");
        if bad == 0 {
            unbroken.push(what);
        }
    }
    assert!(
        unbroken.is_empty(),
        "alternatives the rows do not rule out: {unbroken:?}"
    );
}
