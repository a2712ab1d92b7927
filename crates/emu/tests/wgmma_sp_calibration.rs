//! Sparse `wgmma.mma_async.sp` (crates/emu/src/wgmma.rs) against the GPU (an H200,
//! calibration/wgmma-sp/h200/run.txt): every wgmma launch of calibration/wgmma-sp/rows.tsv is
//! emulated from calibration/wgmma-sp/sp_calib.ptx.zst with the inputs the calibration program
//! built (its generator is carried in wgmma_sp_common; the measured hashes of the shared image,
//! the A registers, the initial accumulators and the metadata prove they are the same), and every
//! accumulator register the GPU returned (calibration/wgmma-sp/h200/d.bin.zst) must come out bit
//! for bit.

mod wgmma_sp_common;

use wgmma_sp_common::*;

fn wgmma_rows() -> Vec<Row> {
    rows()
        .into_iter()
        .filter(|r| r.kernel.starts_with("s_"))
        .collect()
}

#[test]
fn generator_matches_the_calibration_program() {
    let m = measured();
    let mut n = 0;
    for r in rows() {
        let Some(meas) = m.get(&r.id) else { continue };
        n += 1;
        let (img, areg, cin, meta) = inputs(&r);
        let k = kinds(&r.kernel);
        assert_eq!(meas.words.len(), k.threads * k.nr, "row {}", r.id);
        assert_eq!(
            [fnv(&img), fnv(&areg), fnv(&cin), fnv(&meta)],
            meas.hashes,
            "row {} ({}): inputs differ from the calibration program's",
            r.id,
            r.kernel
        );
    }
    assert_eq!(n, rows().len(), "every row measured");
}

#[test]
fn measured_outputs_replayed_bit_for_bit() {
    let m = measured();
    let rows = wgmma_rows();
    let mut bad = Vec::new();
    let mut n = 0;
    for r in &rows {
        let Some(meas) = m.get(&r.id) else { continue };
        n += 1;
        let got = emulate(r);
        let diff = got.iter().zip(&meas.words).filter(|(a, b)| a != b).count();
        if diff > 0 {
            let i = got.iter().zip(&meas.words).position(|(a, b)| a != b).unwrap();
            bad.push(format!(
                "row {} {} class {} mode {}: {diff} of {} words differ (first: word {i}: {:08x}, GPU {:08x})",
                r.id,
                r.kernel,
                r.cls,
                r.mode,
                got.len(),
                got[i],
                meas.words[i]
            ));
        }
    }
    assert_eq!(n, rows.len(), "every sparse wgmma row measured");
    assert!(
        bad.is_empty(),
        "{} of {n} rows differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
