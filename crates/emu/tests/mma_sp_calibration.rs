//! Warp-level `mma.sp::ordered_metadata` (crates/emu/src/mma_sp.rs) against the GPU (an H200,
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
        144,
        "the 144 warp-level rows (36 with selectors 2 and 3: f16 and bf16 k16, tf32 k8)"
    );
    let m = wgmma_sp_common::measured();
    assert!(rows.iter().all(|r| m.contains_key(&r.id)), "every row measured");
    let bad = broken();
    let kernels: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.kernel.as_str()).collect();
    assert_eq!(kernels.len(), 24, "24 kernels");
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
