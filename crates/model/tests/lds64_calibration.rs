//! Replays the H200 rows of calibration/lds64/ (8- and 16-byte shared loads: thrx's merge-sort
//! requests, the H100 bank tables' rows on which the two merge rules differ, own shapes): the
//! wavefronts Nsight Compute attributes to each 8-byte load (the source page's `L1 Wavefronts
//! Shared`, `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld`) equal `bank::attributed`,
//! and the L1's own count (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`, measured where the
//! pattern had its launch alone; 8- and 16-byte) equals `bank::wavefronts`; 16-byte loads follow
//! the rule of calibration/lds128/. The table comes from `calibration/lds64/run.sh`
//! and `collect.py`; nothing here is produced by the model.

use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, attributed, wavefronts};

struct Row {
    at: String,
    req: Request,
    attributed: u32,
    l1tex: Option<u32>,
}

fn rows() -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/lds64/measured.tsv");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 7, "measured.tsv:{}: 7 fields expected", i + 1);
        let width: u8 = c[2].parse().unwrap();
        let mask = u32::from_str_radix(c[3], 16).unwrap();
        let addrs: Vec<u32> = c[4].split(' ').map(|a| a.parse().unwrap()).collect();
        assert_eq!(addrs.len(), 32, "measured.tsv:{}: 32 offsets expected", i + 1);
        let req = Request::from_fn(width, Op::Load, |l| {
            (mask >> l & 1 == 1).then(|| addrs[l as usize])
        });
        out.push(Row {
            at: format!("measured.tsv:{} ({} line {})", i + 1, c[0], c[1]),
            req,
            attributed: c[5].parse().unwrap(),
            l1tex: c[6].parse().ok(),
        });
    }
    out
}

fn h200() -> &'static Arch {
    Arch::parse("sm_90").unwrap()
}

#[test]
fn attributed_wavefronts_equal_the_h200_source_page() {
    let rows = rows();
    assert!(rows.iter().filter(|r| r.req.width == 8).count() > 1000);
    let mut differ_from_l1 = 0;
    for r in rows.iter().filter(|r| r.req.width == 8) {
        let c = wavefronts(h200(), &Config::default(), &r.req).unwrap();
        let a = attributed(h200(), &Config::default(), &r.req, &c);
        assert_eq!(a, r.attributed, "{}: attributed", r.at);
        differ_from_l1 += usize::from(a != c.wavefronts);
    }
    // most rows were chosen where the L1's rule and the attribution's differ
    assert!(
        differ_from_l1 > 500,
        "{differ_from_l1} rows where the two counts differ"
    );
}

#[test]
fn the_l1_count_of_a_lone_launch_keeps_the_doubled_phases() {
    let rows = rows();
    let mut n = 0;
    for r in rows.iter().filter(|r| r.l1tex.is_some()) {
        let c = wavefronts(h200(), &Config::default(), &r.req).unwrap();
        assert_eq!(Some(c.wavefronts), r.l1tex, "{}: l1tex", r.at);
        n += 1;
    }
    assert!(n > 300, "{n} single-launch rows");
}

#[test]
fn even_lanes_in_two_bank_rows_conflict_only_for_the_l1() {
    // lane 2k reads 8-byte element k of a 16-element row pair laid out as [k % 2][k / 2]: the
    // doubled phase (whole warp) has 2-way conflicts (2 wavefronts); undoubled, each half-warp
    // has them too (2 + 2)
    let req = Request::from_fn(8, Op::Load, |l| {
        (l % 2 == 0).then(|| {
            let i = l / 2;
            (i % 2) * 128 + (i / 2) * 8
        })
    });
    let c = wavefronts(h200(), &Config::default(), &req).unwrap();
    assert_eq!((c.wavefronts, c.conflict_ways), (2, 2));
    assert_eq!(attributed(h200(), &Config::default(), &req, &c), 4);
    // conflict-free when doubled: both counts take the doubled phase
    let req = Request::from_fn(8, Op::Load, |l| (l % 2 == 0).then(|| (l / 2) * 8));
    let c = wavefronts(h200(), &Config::default(), &req).unwrap();
    assert_eq!(
        (c.wavefronts, attributed(h200(), &Config::default(), &req, &c)),
        (1, 1)
    );
}

/// The 16-byte rows: the H200's attributed count equals `bank::attributed` on every row (the rule
/// of calibration/lds128/); the L1's count is wrong on most of the rows whose doubled half-warp
/// phases conflict, and so is counting every such request in quarter-warps.
#[test]
fn sixteen_byte_attribution_is_equal() {
    let rows = rows();
    let (mut n, mut l1_wrong, mut quarters_wrong) = (0, 0, 0);
    for r in rows.iter().filter(|r| r.req.width == 16) {
        let c = wavefronts(h200(), &Config::default(), &r.req).unwrap();
        let a = attributed(h200(), &Config::default(), &r.req, &c);
        assert_eq!(a, r.attributed, "{}: attributed", r.at);
        n += 1;
        l1_wrong += usize::from(c.wavefronts != r.attributed);
        // quarter-warp phases: the request with its lanes in separate quarter-warp requests
        let quarters: u32 = (0..4)
            .map(|q| {
                let part = Request::from_fn(16, Op::Load, |l| {
                    (l / 8 == q && r.req.mask >> l & 1 == 1).then(|| r.req.addrs[l as usize])
                });
                wavefronts(h200(), &Config::default(), &part).unwrap().wavefronts
            })
            .sum();
        quarters_wrong += usize::from(quarters != r.attributed);
    }
    assert_eq!(n, 465);
    assert_eq!((l1_wrong, quarters_wrong), (404, 86));
}
