//! Replays calibration/cgcrowd (cw.cu on an H200, one 16-byte `cp.async.cg` per launch, raw page):
//! `measured.tsv`, 632 copies in three forms (a `selp` src-size of 16 or 0, ptxas's source-predicate
//! form `LDGSTS.E.BYPASS.128 [d], [s], P2`; a src-size register, `.ZFILL`; plain) over source
//! layouts that read a 32-byte sector with 1 to 32 lanes, and `measured2.tsv`, 651 plain copies of
//! small configurations in one shared row, and `measured3.tsv`, 825 plain crowded copies measured
//! after the rule's counts were committed (`predicted3.tsv`). The model claims a count for every copy (the rounds of
//! repeated source chunks, README question 1) and it equals the H200's, shared wavefronts and bank
//! conflicts both; the bank conflicts of every copy with a source predicate equal
//! `predicated_bank_conflicts`.

use warpscope_model::arch::Arch;
use warpscope_model::matrix::{
    CopyKind, MatrixError, ldgsts_wavefronts_with_sources, predicated_bank_conflicts,
};

const ALL: u32 = u32::MAX;

struct Row {
    name: String,
    form: u32,
    dst: [u32; 32],
    src: [u64; 32],
    /// The lanes that read their source (src-size not 0).
    reads: u32,
    wavefronts: u32,
    conflicts: u32,
}

fn rows(layouts: &str, measured: &str) -> Vec<Row> {
    let lay: Vec<Vec<&str>> = layouts.lines().map(|l| l.split_whitespace().collect()).collect();
    let mut lines = measured.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (launch, wf, cf) = (col("launch"), col("wavefronts"), col("conflicts"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let t = &lay[f[launch].parse::<usize>().unwrap()];
            let v: Vec<u64> = t[3..].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(v.len(), 96, "{}", t[2]);
            let form: u32 = t[0].parse().unwrap();
            Row {
                name: t[2].to_string(),
                form,
                dst: std::array::from_fn(|l| v[l] as u32 * 16),
                // cw.cu's source base is 4 KiB-aligned
                src: std::array::from_fn(|l| 0x10_0000 + v[32 + l] * 16),
                reads: if form == 2 {
                    ALL
                } else {
                    (0..32).filter(|&l| v[64 + l] != 0).fold(0, |m, l| m | 1 << l)
                },
                wavefronts: f[wf].parse().unwrap(),
                conflicts: f[cf].parse().unwrap(),
            }
        })
        .collect()
}

fn battery() -> Vec<Row> {
    rows(
        include_str!("../../../calibration/cgcrowd/layouts.txt"),
        include_str!("../../../calibration/cgcrowd/measured.tsv"),
    )
}

fn one_row_battery() -> Vec<Row> {
    rows(
        include_str!("../../../calibration/cgcrowd/layouts2.txt"),
        include_str!("../../../calibration/cgcrowd/measured2.tsv"),
    )
}

fn third_battery() -> Vec<Row> {
    rows(
        include_str!("../../../calibration/cgcrowd/layouts3.txt"),
        include_str!("../../../calibration/cgcrowd/measured3.tsv"),
    )
}

fn kind(form: u32) -> CopyKind {
    match form {
        // the predicate operand is P2 (h200/sass_cw.txt.gz): what the lanes read is what ncu sees
        0 => CopyKind::CacheGlobalPredicated,
        1 => CopyKind::CacheGlobalZeroFill,
        _ => CopyKind::CacheGlobal,
    }
}

#[test]
fn claimed_counts_equal_the_h200() {
    let h200 = Arch::parse("sm_90").unwrap();
    let mut failures = Vec::new();
    let mut claimed = [0u32; 3];
    let mut outside = [0u32; 3];
    let mut plain2 = (0, 0);
    for (batch, rs) in [(1, battery()), (2, one_row_battery()), (3, third_battery())] {
        assert_eq!(rs.len(), [632, 651, 825][batch - 1]);
        for r in &rs {
            let f = r.form as usize;
            match ldgsts_wavefronts_with_sources(h200, kind(r.form), 16, ALL, r.reads, &r.dst, &r.src) {
                Ok(c) => {
                    if batch == 1 {
                        claimed[f] += 1;
                    } else {
                        plain2.0 += 1;
                    }
                    if c.wavefronts != r.wavefronts || c.wavefronts - c.ideal != r.conflicts {
                        failures.push(format!(
                            "{}: H200 {} wavefronts ({} conflicts), model {} ({})",
                            r.name,
                            r.wavefronts,
                            r.conflicts,
                            c.wavefronts,
                            c.wavefronts - c.ideal
                        ));
                    }
                }
                Err(MatrixError::NoRule { .. }) => {
                    if batch == 1 {
                        outside[f] += 1;
                    } else {
                        plain2.1 += 1;
                    }
                }
                Err(e) => panic!("{}: {e}", r.name),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} copies differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The domain: every copy (source predicate, src-size register, plain), crowded or not.
    assert_eq!((claimed, outside), ([288, 144, 200], [0, 0, 0]));
    assert_eq!(
        plain2,
        (651 + 825, 0),
        "one-row and third batteries: claimed, outside"
    );
}

/// The rule without rounds (calibration/ldsm rule 4) gave these copies 1-8 wavefronts too few (a
/// 16-byte source chunk read by two lanes into one shared row another sector of its line fills);
/// with the rounds each equals the H200's count.
#[test]
fn repeated_chunks_in_a_mixed_row_take_one_round_per_read() {
    let h200 = Arch::parse("sm_90").unwrap();
    let wrong = [
        "s_h010:d_contig:odd",
        "s_h010:d_xor:odd",
        "s_h0101:d_contig:even",
        "s_h0101:d_contig:odd",
        "s_h0101:d_xor:even",
        "s_h0101:d_xor:odd",
        "s_h0101:d_shift1:even",
        "s_h0101:d_shift1:odd",
        "s_h0101:d_contig:z16_0",
        "s_h0101:d_xor:z16_0",
        "s_h0101:d_shift1:z16_0",
    ];
    let rs = battery();
    for name in wrong {
        let r = rs.iter().find(|r| r.name == name).unwrap();
        let got = ldgsts_wavefronts_with_sources(h200, kind(r.form), 16, ALL, r.reads, &r.dst, &r.src)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.wavefronts, r.wavefronts, "{name}");
    }
}

/// Plain copies in one shared row (lanes 0-5 the configuration, whole sectors; the other lanes a
/// filler of 4 wavefronts): the k-th read of a source chunk, from the highest lane down, shares a
/// wavefront only with the k-th reads of other chunks. Worked by hand: S0 -> D0, S0 -> D3, S1 -> D1
/// (`D031`): round 1 holds S0 -> D3 (shift 3, mirror 3) and S1 -> D1 (shift 0, mirror 2), no map
/// takes both: 2; round 2 S0 -> D0: 1; 3 + 4 (S0 -> D0 and S1 -> D1 share shift 0, yet never meet).
/// S0 -> D0, S0 -> D2, S1 -> D1 (`D021`): round 1 S0 -> D2 and S1 -> D1, both under the mirror
/// D = 2 - S: 1; round 2 S0 -> D0: 1; 2 + 4.
#[test]
fn one_row_rounds_follow_the_highest_lane() {
    let h200 = Arch::parse("sm_90").unwrap();
    let rs = one_row_battery();
    for (name, hand) in [("w3:aab:S001:D031", 7), ("w3:aab:S001:D021", 6)] {
        let r = rs.iter().find(|r| r.name == name).unwrap();
        assert_eq!(r.wavefronts, hand, "{name}: measured");
        let c = ldgsts_wavefronts_with_sources(h200, CopyKind::CacheGlobal, 16, ALL, ALL, &r.dst, &r.src)
            .unwrap();
        assert_eq!(c.wavefronts, hand, "{name}: model");
    }
}

/// The bank-conflict counter of a copy with a source predicate is its zero-fill pass beyond one
/// wavefront per phase, on every such copy (crowded or not, the routing's count unknown or not);
/// the alternatives break rows: none (the plain `.cg` copies' 0) and the pass over the
/// zero-filling lanes only.
#[test]
fn predicated_conflicts_are_the_zero_fill_pass_beyond_one_per_phase() {
    let rs: Vec<Row> = battery().into_iter().filter(|r| r.form == 0).collect();
    assert_eq!(rs.len(), 288);
    let mut broken = [0; 2];
    for r in &rs {
        let rule = predicated_bank_conflicts(ALL, r.reads, &r.dst, &r.src);
        assert_eq!(rule, r.conflicts, "{}", r.name);
        broken[0] += u32::from(r.conflicts != 0);
        // the zero-filling lanes alone, each phase with one of them costing its largest bank load
        let zf = !r.reads;
        let alone: u32 = (0..4)
            .map(|p| {
                let mut bank = [0u32; 32];
                for l in (8 * p..8 * p + 8).filter(|&l| zf >> l & 1 == 1) {
                    for k in 0..4 {
                        bank[((r.dst[l] / 4 + k) % 32) as usize] += 1;
                    }
                }
                bank.iter().copied().max().unwrap_or(0).saturating_sub(1)
            })
            .sum();
        broken[1] += u32::from(alone != r.conflicts);
    }
    assert_eq!(broken, [162, 133]);
}
