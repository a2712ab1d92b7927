//! Warp-level `mma.sp::ordered_metadata` and plain `mma.sp` (crates/emu/src/mma_sp.rs) against the GPU (an H200,
//! calibration/wgmma-sp/h200/run.txt): every `m_` launch of calibration/wgmma-sp/rows.tsv is
//! emulated from a PTX kernel doing what the calibration program's does, with the inputs the
//! program built (wgmma_sp_common's generator; `wgmma_sp_calibration` checks them against the
//! measured hashes), and every D register the GPU returned (calibration/wgmma-sp/h200/d.bin.zst)
//! must come out bit for bit.

mod mma_sp_common;
mod wgmma_sp_common;

use mma_sp_common::*;

#[test]
fn measured_outputs_replayed_bit_for_bit() {
    let rows = mma_rows();
    assert_eq!(
        rows.len(),
        288,
        "the 288 warp-level rows: 144 `::ordered_metadata` (36 with selectors 2 and 3: f16 and bf16 \
         k16, tf32 k8) and the same forms as plain `mma.sp`, 72 of whose rows hold unordered pairs"
    );
    let m = wgmma_sp_common::measured();
    assert!(rows.iter().all(|r| m.contains_key(&r.id)), "every row measured");
    let bad = broken();
    let kernels: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(kernels.len(), 48, "48 kernels");
    let plain = rows.iter().filter(|r| r.kernel.ends_with("_p")).count();
    assert_eq!(plain, 144, "144 rows of plain `mma.sp`");
    assert!(
        bad.is_empty(),
        "{} of {} rows differ:\n{}",
        bad.len(),
        rows.len(),
        bad.iter()
            .map(|(id, k, n)| format!("row {id} {k}: {n} words"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Each 4-bit metadata field `(i1 << 2) | i0` with its two indices in increasing order.
fn sorted_pairs(meta: &mut [u8]) {
    for b in meta.iter_mut() {
        let field = |f: u8| {
            let (i0, i1) = (f & 3, f >> 2);
            if i0 > i1 { (i0 << 2) | i1 } else { f }
        };
        *b = field(*b & 15) | (field(*b >> 4) << 4);
    }
}

/// Plain `mma.sp` takes an unordered index pair as it stands: read as if the hardware sorted each
/// pair first (the alternative a look at `::ordered_metadata`'s name suggests), the rows of plain
/// 16-bit and 8-bit kernels whose metadata holds unordered pairs (mode 1) break, while the rows
/// with ordered pairs only (modes 0 and 2) do not change.
#[test]
fn plain_mma_sp_does_not_sort_unordered_pairs() {
    let m = wgmma_sp_common::measured();
    let rows: Vec<_> = mma_rows()
        .into_iter()
        .filter(|r| r.kernel.ends_with("_p") && !r.kernel.contains("tf32"))
        .collect();
    let (mut unordered, mut broken, mut ordered_same) = (0, 0, 0);
    for r in &rows {
        let got = emulate_with_meta(r, sorted_pairs);
        let same = got == m[&r.id].words;
        if r.mode == 1 {
            unordered += 1;
            broken += usize::from(!same);
        } else {
            ordered_same += usize::from(same);
        }
    }
    assert_eq!(unordered, 54, "rows of unordered pairs (plain, not tf32)");
    assert_eq!(
        broken, unordered,
        "every unordered-pair row breaks when its pairs are sorted"
    );
    assert_eq!(
        ordered_same,
        rows.len() - unordered,
        "sorting ordered pairs changes nothing"
    );
}
