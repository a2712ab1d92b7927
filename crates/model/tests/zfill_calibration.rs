//! Replays calibration/cpasync/zfill_h100.tsv (zfill.cu on an H200, 375 one-warp launches): the
//! shared wavefronts of `cp.async` with a `src-size` register (zero-fill), with the `ignore-src`
//! predicate, and of 4/8-byte `.ca` copies with bank conflicts on both the shared and the source
//! side. Every launch runs one LDGSTS; where ptxas made two (a form chosen by a kernel argument),
//! the other is predicated off and costs nothing (the `.ca` rows of the plain form, which execute
//! one predicated-off ZFILL copy each, equal the one-instruction rule).

use warpscope_model::arch::Arch;
use warpscope_model::matrix::{CopyKind, ldgsts_wavefronts_with_sources};

const WAVEFRONTS: &str = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
const CONFLICTS: &str = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum";

#[derive(Clone, Copy)]
struct Row {
    width: u8,
    dstride: i64,
    sstride: i64,
    doff: i64,
    mode: u32,
    wavefronts: u32,
    /// Wavefronts less ncu's bank-conflict counter (not asserted: in these launches, where a
    /// second, predicated-off LDGSTS runs beside the measured one, the counter splits them
    /// otherwise than in the one-instruction launches of calibration/ldsm, whose split the rule
    /// follows).
    #[allow(dead_code)]
    ideal: u32,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../../../calibration/cpasync/zfill_h100.tsv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let cf = col(CONFLICTS);
    let (w, ds, ss, off, mode, wf) = (
        col("width"),
        col("dstride"),
        col("sstride"),
        col("doff"),
        col("mode"),
        col(WAVEFRONTS),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                width: f[w].parse().unwrap(),
                dstride: f[ds].parse().unwrap(),
                sstride: f[ss].parse().unwrap(),
                doff: f[off].parse().unwrap(),
                mode: f[mode].parse().unwrap(),
                wavefronts: f[wf].parse().unwrap(),
                ideal: f[wf].parse::<u32>().unwrap() - f[cf].parse::<u32>().unwrap(),
            }
        })
        .collect()
}

/// The launch as zfill.cu makes it: destinations, sources, the lanes that read one, the form.
fn predict(r: &Row) -> (u32, u32) {
    let w = i64::from(r.width);
    let mut dst = [0u32; 32];
    let mut src = [0u64; 32];
    for t in 0..32i64 {
        // C's % keeps the sign: a negative stride lands below 2048
        let slot = ((t * r.dstride + r.doff) * w) % 36864 + 2048;
        dst[t as usize] = slot as u32;
        src[t as usize] = (0x7000_0000_0000 + t * r.sstride * w + 4096) as u64;
    }
    let sources = match r.mode {
        1 => 0,
        3 => 0x5555_5555,
        4 => 0x0000_ffff,
        _ => u32::MAX,
    };
    let kind = match (r.width, r.mode) {
        (16, 5..=7) => CopyKind::CacheGlobal,
        (16, _) => CopyKind::CacheGlobalZeroFill,
        _ => CopyKind::CacheAll,
    };
    // the ignore-src predicate compiles to the plain copy: its wavefronts are the plain rule's
    let sources = if r.mode >= 5 { u32::MAX } else { sources };
    ldgsts_wavefronts_with_sources(
        Arch::parse("sm_90").unwrap(),
        kind,
        r.width,
        u32::MAX,
        sources,
        &dst,
        &src,
    )
    .map(|c| (c.wavefronts, c.ideal))
    .unwrap_or((u32::MAX, 0))
}

#[test]
fn every_measured_zero_fill_and_two_sided_copy_equals_the_rule() {
    let rows = rows();
    assert_eq!(rows.len(), 375);
    let mut bad = Vec::new();
    for r in &rows {
        let p = predict(r);
        if p.0 != r.wavefronts {
            bad.push(format!(
                "w{} ds{} ss{} off{} mode{}: measured {} (ideal {}) rule {:?}",
                r.width, r.dstride, r.sstride, r.doff, r.mode, r.wavefronts, r.ideal, p
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} rows differ:\n{}",
        bad.len(),
        rows.len(),
        bad.join("\n")
    );
}

/// The alternatives the rows break: the 16-byte zero-fill form costed as the plain copy (the
/// second pass left out), and 4-byte copies with conflicts on both sides costed as the sum of the
/// two sides rather than the larger.
#[test]
fn the_alternatives_fail_on_measured_rows() {
    let rows = rows();
    let plain_for_zfill = rows
        .iter()
        .filter(|r| r.width == 16 && r.mode == 0)
        .filter(|r| {
            let q = Row { mode: 5, ..**r };
            predict(&q).0 != r.wavefronts
        })
        .count();
    assert!(plain_for_zfill >= 30, "{plain_for_zfill}");
    // 4-byte, destination stride 2, source stride 2: each side alone is 2, the launch costs 2
    let r = rows
        .iter()
        .find(|r| r.width == 4 && r.mode == 5 && r.dstride == 2 && r.sstride == 2)
        .unwrap();
    assert_eq!(r.wavefronts, 2);
}
