//! `wgmma.mma_async` (crates/emu/src/wgmma.rs) against the GPU (an H200,
//! calibration/wgmma/h200/run.txt): every launch of calibration/wgmma/rows.tsv is emulated from calibration/wgmma/wgmma_calib.ptx.zst with the inputs
//! the calibration program built (its generator is carried in wgmma_common; the measured hashes of the
//! shared image, the A registers and the initial accumulators prove they are the same), and every
//! accumulator register the GPU returned (calibration/wgmma/h200/d.bin.zst) must come out bit for
//! bit. The alternatives of the rule (calibration/wgmma/README.md) are counted in
//! wgmma_alternatives.rs.

mod wgmma_common;

use wgmma_common::*;

#[test]
fn generator_matches_the_calibration_program() {
    let m = measured();
    for r in rows() {
        let Some(meas) = m.get(&r.id) else { continue };
        let (img, areg, cin) = inputs(&r);
        let (nr, ..) = kinds(&r.kernel);
        assert_eq!(meas.words.len(), 128 * nr, "row {}", r.id);
        assert_eq!(
            [fnv(&img), fnv(&areg), fnv(&cin)],
            meas.hashes,
            "row {} ({}): inputs differ from the calibration program's",
            r.id,
            r.kernel
        );
    }
}

#[test]
fn measured_outputs_replayed_bit_for_bit() {
    let m = measured();
    let rows = rows();
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
                "row {} {} class {}: {diff} of {} words differ (first: word {i}: {:08x}, GPU {:08x})",
                r.id,
                r.kernel,
                r.cls,
                got.len(),
                got[i],
                meas.words[i]
            ));
        }
    }
    assert!(n > 0, "no measured rows");
    assert!(
        bad.is_empty(),
        "{} of {n} rows differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
