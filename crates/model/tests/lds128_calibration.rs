//! Replays the H200 rows of calibration/lds128/ (16-byte shared loads whose half-warps double, and
//! 8- and 16-byte shared stores of the same shapes): the wavefronts Nsight Compute attributes to
//! each access (the source page's `L1 Wavefronts Shared`, `sm__sass_l1tex_data_pipe_lsu_wavefronts_
//! mem_shared_op_{ld,st}`) equal `bank::attributed`, and the L1's own count (`l1tex__data_pipe_lsu_
//! wavefronts_mem_shared_op_{ld,st}`, where the pattern had its launch alone) equals
//! `bank::wavefronts`. The tables come from `calibration/lds128/run.sh`, `run2.sh` and
//! `collect.py`; nothing here is produced by the model.

use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, attributed, wavefronts};

struct Row {
    at: String,
    family: String,
    req: Request,
    attributed: u32,
    l1tex: Option<u32>,
}

fn rows(name: &str) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/lds128")
        .join(name);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 9, "{name}:{}: 9 fields expected", i + 1);
        let op = match c[3] {
            "ld" => Op::Load,
            "st" => Op::Store,
            other => panic!("{name}:{}: op {other}", i + 1),
        };
        let width: u8 = c[4].parse().unwrap();
        let mask = u32::from_str_radix(c[5], 16).unwrap();
        let addrs: Vec<u32> = c[6].split(' ').map(|a| a.parse().unwrap()).collect();
        assert_eq!(addrs.len(), 32, "{name}:{}: 32 offsets expected", i + 1);
        let mut req = Request::from_fn(width, op, |l| (mask >> l & 1 == 1).then(|| addrs[l as usize]));
        // inactive lanes' address registers as the probe set them (the model ignores them)
        req.addrs.copy_from_slice(&addrs);
        out.push(Row {
            at: format!("{name}:{} ({} line {}, {})", i + 1, c[0], c[1], c[2]),
            family: c[2].to_string(),
            req,
            attributed: c[7].parse().unwrap(),
            l1tex: c[8].parse().ok(),
        });
    }
    out
}

fn h200() -> &'static Arch {
    Arch::parse("sm_90").unwrap()
}

fn check_attributed(rows: &[Row]) -> (usize, usize) {
    let (mut n, mut differ_from_l1) = (0, 0);
    for r in rows {
        let c = wavefronts(h200(), &Config::default(), &r.req).unwrap();
        let a = attributed(h200(), &Config::default(), &r.req, &c);
        assert_eq!(a, r.attributed, "{}: attributed", r.at);
        n += 1;
        differ_from_l1 += usize::from(a != c.wavefronts);
    }
    (n, differ_from_l1)
}

#[test]
fn sixteen_byte_loads_are_attributed_as_the_h200_source_page_counts() {
    let rows = rows("measured.tsv");
    let loads: Vec<Row> = rows
        .into_iter()
        .filter(|r| r.req.width == 16 && r.req.op == Op::Load)
        .collect();
    let (n, differ) = check_attributed(&loads);
    assert_eq!(n, 3444);
    // most rows were chosen where the L1's count and the attribution differ
    assert!(differ > 1500, "{differ} rows where the two counts differ");
}

/// The rows of the lane-31 condition: with lane 31 active, one lane in each quarter-warp of the
/// first half-warp (unpaired) keeps that half-warp in quarter-warps; a full first half-warp
/// (paired) stays doubled.
#[test]
fn lane_31_and_unpaired_first_half_warps() {
    let rows = rows("measured.tsv");
    let family = |f: &str| -> Vec<&Row> {
        rows.iter()
            .filter(|r| r.family == f && r.req.op == Op::Load)
            .collect()
    };
    let b1_31 = family("B1-i23j31");
    let b1_24 = family("B1-i16j24");
    let b5_31: Vec<&Row> = family("B5")
        .into_iter()
        .filter(|r| r.req.mask >> 31 & 1 == 1)
        .collect();
    assert_eq!((b1_31.len(), b1_24.len(), b5_31.len()), (64, 64, 8));
    for r in b1_31 {
        assert_eq!(r.attributed, 4, "{}", r.at);
    }
    for r in b1_24 {
        assert_eq!(r.attributed, 3, "{}", r.at);
    }
    for r in b5_31 {
        assert_eq!(r.attributed, 3, "{}", r.at);
    }
}

#[test]
fn stores_are_attributed_as_the_l1_counts_them() {
    let rows = rows("measured.tsv");
    let stores: Vec<Row> = rows.into_iter().filter(|r| r.req.op == Op::Store).collect();
    let (n, differ) = check_attributed(&stores);
    assert_eq!((n, differ), (748, 0));
    assert_eq!(stores.iter().filter(|r| r.req.width == 16).count(), 428);
}

#[test]
fn eight_byte_load_controls_still_hold() {
    let rows = rows("measured.tsv");
    let loads: Vec<Row> = rows
        .into_iter()
        .filter(|r| r.req.width == 8 && r.req.op == Op::Load)
        .collect();
    assert_eq!(check_attributed(&loads).0, 96);
}

#[test]
fn the_l1_count_of_a_lone_launch_is_the_bank_model() {
    let rows = rows("measured.tsv");
    let mut n = 0;
    for r in rows.iter().filter(|r| r.l1tex.is_some()) {
        let c = wavefronts(h200(), &Config::default(), &r.req).unwrap();
        assert_eq!(Some(c.wavefronts), r.l1tex, "{}: l1tex", r.at);
        n += 1;
    }
    assert_eq!(n, 287);
}

/// The second round (gen2.py): lanes paired only through `L ^ 3`, or with an inactive partner
/// whose address register holds the same address, do not count as paired; `L ^ 1` and `L ^ 2`
/// do; with lane 31 off nothing of it matters.
#[test]
fn second_round_pairing_rows() {
    let rows = rows("measured2.tsv");
    assert_eq!(rows.len(), 336);
    let (n, _) = check_attributed(&rows);
    assert_eq!(n, 336);
    let count = |prefix: &str| -> Vec<u32> {
        let mut v: Vec<u32> = rows
            .iter()
            .filter(|r| r.family.starts_with(prefix))
            .map(|r| r.attributed)
            .collect();
        v.dedup();
        v
    };
    // lane 31 active, second half-warp conflicting: an unpaired first half-warp takes 2 quarter
    // wavefronts (4 in all), a paired one its doubled phase (3 in all)
    assert_eq!(count("S1-l3-a"), [4]);
    assert_eq!(count("S2-inactive-mate-a"), [4]);
    assert_eq!(count("S3-l1-a"), [3]);
    assert_eq!(count("S4-l2-a"), [3]);
    // lane 31 off: doubled whatever the pairing
    assert_eq!(count("S1-l3-c"), [3]);
    assert_eq!(count("S2-inactive-mate-c"), [3]);
}
