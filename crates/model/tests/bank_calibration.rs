//! Replays every H100 measurement of calibration/bank/ against the bank model: exact equality, row
//! by row, loads and stores, all widths. The tables come from `calibration/bank/run.sh` (see its
//! README); nothing here is produced by the model.

use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::bank::{Config, Op, Request, breakdown, wavefronts};

struct Row {
    file: &'static str,
    /// Whether the inactive lanes' address registers were set (op `ldg`, cells `gN`).
    ghost: bool,
    line: usize,
    id: String,
    desc: String,
    req: Request,
    measured: u32,
    instructions: u32,
}

fn load(file: &'static str) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bank")
        .join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let mut rows = Vec::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        if !header_seen {
            assert!(
                line.starts_with("id\twidth\top"),
                "{file}:{}: header expected",
                i + 1
            );
            header_seen = true;
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 40, "{file}:{}: 40 fields expected", i + 1);
        let width: u8 = c[1].parse().unwrap();
        // `ldg`: a load through the ghost kernels, whose inactive lanes hold the address of cell `gN`
        let (op, ghost) = match c[2] {
            "ld" => (Op::Load, false),
            "ldg" => (Op::Load, true),
            "st" => (Op::Store, false),
            o => panic!("{file}:{}: op {o}", i + 1),
        };
        let (wf, inst) = if op == Op::Load {
            (c[4], c[6])
        } else {
            (c[5], c[7])
        };
        let lanes: Vec<Option<u32>> = c[8..40]
            .iter()
            .map(|a| {
                if *a == "-" || (ghost && a.starts_with('g')) {
                    None
                } else {
                    Some(
                        a.parse()
                            .unwrap_or_else(|e| panic!("{file}:{}: cell {a}: {e}", i + 1)),
                    )
                }
            })
            .collect();
        let req = Request::from_fn(width, op, |l| lanes[l as usize]);
        rows.push(Row {
            file,
            ghost,
            line: i + 1,
            id: c[0].to_string(),
            desc: c[3].to_string(),
            req,
            measured: wf.parse().unwrap(),
            instructions: inst.parse().unwrap(),
        });
    }
    rows
}

/// Every measured table, old and new.
fn all_rows() -> Vec<Row> {
    let mut rows = load("measured.tsv");
    rows.extend(load("measured_merge.tsv"));
    rows.extend(load("measured_pred_h100.tsv"));
    rows.extend(load("measured_pred_heldout_h100.tsv"));
    rows
}

#[test]
fn every_h100_measurement_equals_the_model() {
    let h100 = Arch::parse("sm_90").unwrap();
    let rows = all_rows();
    assert_eq!(rows.len(), 3710 + 2040 + 1240, "rows");
    let mut per_width = [[0usize; 2]; 17];
    let mut failures = Vec::new();
    for r in &rows {
        per_width[r.req.width as usize][(r.req.op == Op::Store) as usize] += 1;
        // one instruction per launch, or none when every lane was predicated off
        assert_eq!(
            r.instructions,
            u32::from(r.req.mask != 0),
            "{}:{}: instruction count",
            r.file,
            r.line
        );
        let c = wavefronts(h100, &Config::default(), &r.req).unwrap();
        let b = breakdown(h100, &Config::default(), &r.req).unwrap();
        assert_eq!(
            c, b.counts,
            "{}:{}: fast and reference paths differ",
            r.file, r.line
        );
        if c.wavefronts != r.measured {
            failures.push(format!(
                "{}:{} id {} {} ({}B {}): measured {}, model {}",
                r.file,
                r.line,
                r.id,
                r.desc,
                r.req.width,
                r.req.op.name(),
                r.measured,
                c.wavefronts
            ));
        }
    }
    for w in [1, 2, 4, 8, 16] {
        for (op, n) in per_width[w].iter().enumerate() {
            assert!(*n >= 200, "width {w} op {op}: only {n} rows");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn seed_ground_truth_per_request() {
    // /work/shared/groundtruth/seed_kernels_h100.tsv, per request: double by tid 2 wavefronts,
    // LDS.64 struct of two floats 2, char by tid 1, char by 4*tid 1; int tile[32][16] column 16.
    let h100 = Arch::parse("sm_90").unwrap();
    let cfg = Config::default();
    let wf = |w: u8, op: Op, f: &dyn Fn(u32) -> u32| {
        wavefronts(h100, &cfg, &Request::from_fn(w, op, |l| Some(f(l))))
            .unwrap()
            .wavefronts
    };
    for op in [Op::Load, Op::Store] {
        assert_eq!(wf(8, op, &|l| 8 * l), 2, "double by tid");
        assert_eq!(wf(1, op, &|l| l), 1, "char by tid");
        assert_eq!(wf(1, op, &|l| 4 * l), 1, "char by 4*tid");
        assert_eq!(wf(4, op, &|l| l * 33 * 4), 1, "col33");
        assert_eq!(wf(4, op, &|l| l * 32 * 4), 32, "col32");
    }
    // rectangular ColCol: int tile[32][16], threads (x 32, y 16) read tile[x][y]: stride 16 words
    assert_eq!(wf(4, Op::Load, &|l| l * 16 * 4), 16);
}

/// The predicated-lane batches exist and are what they claim: hundreds of 8/16-byte loads in which
/// a lane pair has exactly one lane active, and stores beside them.
#[test]
fn the_predicated_lane_batches_hold_one_lane_off_pairs() {
    let mut rows = load("measured_pred_h100.tsv");
    rows.extend(load("measured_pred_heldout_h100.tsv"));
    assert!(rows.len() >= 2040 + 1240, "only {} rows", rows.len());
    let one_off = |r: &Row| (0..16).any(|k| (r.req.mask >> (2 * k) & 3).count_ones() == 1);
    let loads = rows
        .iter()
        .filter(|r| r.req.op == Op::Load && r.req.width >= 8 && one_off(r))
        .count();
    let stores = rows.iter().filter(|r| r.req.op == Op::Store).count();
    assert!(loads >= 1500, "{loads} loads with a pair of one active lane");
    assert!(stores >= 300, "{stores} stores");
}

/// The H100 ignores what an inactive lane's address register holds: the ghost rows (op `ldg`) run
/// the same active lanes three times, with the inactive lanes holding the partner's address, an
/// address in a conflicting bank, and a misaligned one, and measure the same every time.
#[test]
fn inactive_lanes_address_registers_do_not_matter_on_the_h100() {
    let mut rows = load("measured_pred_h100.tsv");
    rows.extend(load("measured_pred_heldout_h100.tsv"));
    // the three variants of one pattern are consecutive rows
    let ghosts: Vec<&Row> = rows.iter().filter(|r| r.ghost).collect();
    assert_eq!(ghosts.len(), 2 * 120 + 2 * 60, "ghost rows");
    for t in ghosts.chunks(3) {
        let split: Vec<(&str, &str)> = t
            .iter()
            .map(|r| r.desc.split_once('_').expect("gVARIANT_pattern"))
            .collect();
        let at = format!("{}:{}", t[0].file, t[0].line);
        assert_eq!(
            split.iter().map(|x| x.0).collect::<Vec<_>>(),
            ["gsame", "gconflict", "gmisaligned"],
            "{at}"
        );
        assert!(split.iter().all(|x| x.1 == split[0].1), "{at}: one pattern");
        assert!(t.iter().all(|r| r.req == t[0].req), "{at}: the same active lanes");
        let measured: Vec<u32> = t.iter().map(|r| r.measured).collect();
        assert!(
            measured.iter().all(|&m| m == measured[0]),
            "{at} {}: the H100 counted {measured:?}",
            split[0].1
        );
    }
}

// An independent phase model (the H100's phase sizes, per-bank distinct 4-byte words) in which the
// condition for a load's 8/16-byte phases to double can be swapped: the rule the model follows and
// the alternatives the issue named, each counted against every measured table.

type Lanes = [Option<u32>; 32];

fn phase_cost(lanes: &[Option<u32>], w: u32) -> u32 {
    let mut words: Vec<u32> = lanes
        .iter()
        .flatten()
        .flat_map(|&a| a / 4..(a + w - 1) / 4 + 1)
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut per_bank = [0u32; 32];
    for word in words {
        per_bank[(word % 32) as usize] += 1;
    }
    per_bank.into_iter().max().unwrap_or(0)
}

fn phased(lanes: &Lanes, w: u32, phase: usize) -> u32 {
    lanes.chunks(phase).map(|c| phase_cost(c, w)).sum()
}

/// Two lanes agree: same address, both off, or (tolerant) either off.
fn agree(a: Option<u32>, b: Option<u32>, tolerant: bool) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => tolerant,
    }
}

fn xor_sym(l: &Lanes, m: usize, tolerant: bool, lanes: std::ops::Range<usize>) -> bool {
    lanes.into_iter().all(|i| agree(l[i], l[i ^ m], tolerant))
}

#[derive(Clone, Copy, Debug)]
enum Merge {
    /// pairs (tolerant?) or xor-2 (tolerant?), over the whole warp; `None` drops that condition
    Whole(Option<bool>, Option<bool>),
    /// the tolerant rule, or every lane agrees with lane `L ^ m` (tolerant)
    OrXor(usize),
    /// each quad on its own follows the pair or the xor-2 structure
    PerQuad(bool),
    /// each quad's active lanes read at most two addresses
    QuadTwoAddresses,
    /// each merged phase's active lanes read at most 128 / width addresses
    DistinctAddresses,
    /// the tolerant rule, or each merged phase has at most 128 / width active lanes
    FewActive,
}

#[derive(Clone, Copy, Debug)]
struct Alternative {
    name: &'static str,
    merge: Merge,
    /// 16-byte: each half-warp decides on its own
    per_half: bool,
    /// the active lanes packed in lane order before phases are formed
    compact: bool,
    /// stores merge too
    stores: bool,
}

fn merges(m: Merge, l: &Lanes, w: u32) -> bool {
    let tol = |p: Option<bool>, x: usize| p.is_some_and(|t| xor_sym(l, x, t, 0..32));
    let merged = 2 * (128 / w) as usize;
    match m {
        Merge::Whole(p, x) => tol(p, 1) || tol(x, 2),
        Merge::OrXor(x) => merges(Merge::Whole(Some(true), Some(true)), l, w) || xor_sym(l, x, true, 0..32),
        Merge::PerQuad(t) => (0..32)
            .step_by(4)
            .all(|q| xor_sym(l, 1, t, q..q + 4) || xor_sym(l, 2, t, q..q + 4)),
        Merge::QuadTwoAddresses => l.chunks(4).all(|q| {
            let mut a: Vec<u32> = q.iter().flatten().copied().collect();
            a.sort_unstable();
            a.dedup();
            a.len() <= 2
        }),
        Merge::DistinctAddresses => l.chunks(merged).all(|c| {
            let mut a: Vec<u32> = c.iter().flatten().copied().collect();
            a.sort_unstable();
            a.dedup();
            a.len() <= merged / 2
        }),
        Merge::FewActive => {
            merges(Merge::Whole(Some(true), Some(true)), l, w)
                || l.chunks(merged).all(|c| c.iter().flatten().count() <= merged / 2)
        }
    }
}

fn predict(alt: &Alternative, req: &Request) -> u32 {
    let w = u32::from(req.width);
    let mut l: Lanes = std::array::from_fn(|i| req.lane(i as u32));
    if w < 8 {
        return phase_cost(&l, w);
    }
    if alt.compact {
        let active: Vec<u32> = l.iter().flatten().copied().collect();
        l = std::array::from_fn(|i| active.get(i).copied());
    }
    let base = (128 / w) as usize;
    if req.op == Op::Store && !alt.stores {
        return phased(&l, w, base);
    }
    if !alt.per_half {
        return phased(&l, w, if merges(alt.merge, &l, w) { 2 * base } else { base });
    }
    (0..32)
        .step_by(2 * base)
        .map(|lane0| {
            let win: Lanes = std::array::from_fn(|i| {
                if (lane0..lane0 + 2 * base).contains(&i) {
                    l[i]
                } else {
                    None
                }
            });
            phased(
                &win,
                w,
                if merges(alt.merge, &win, w) {
                    2 * base
                } else {
                    base
                },
            )
        })
        .sum()
}

const fn alt(name: &'static str, merge: Merge) -> Alternative {
    Alternative {
        name,
        merge,
        per_half: false,
        compact: false,
        stores: false,
    }
}

/// The rule of crates/model/src/bank.rs, in this independent form.
const RULE: Alternative = alt(
    "pairs or xor-2 partners agree, an inactive lane agreeing with every lane",
    Merge::Whole(Some(true), Some(true)),
);

/// Each alternative and the number of measured rows (all tables) it gets wrong; the counts are the
/// ones calibration/bank/README.md reports (and `calibration/bank/pred_rules.py` prints).
fn alternatives() -> Vec<(Alternative, usize)> {
    let tolerant = Merge::Whole(Some(true), Some(true));
    let strict = Merge::Whole(Some(false), Some(false));
    let half = |a: Alternative| Alternative { per_half: true, ..a };
    vec![
        (
            alt("both lanes of a pair / an xor-2 pair must be active", strict),
            1415,
        ),
        (
            alt(
                "an inactive partner breaks a pair",
                Merge::Whole(Some(false), Some(true)),
            ),
            625,
        ),
        (
            alt(
                "an inactive partner breaks an xor-2 pair",
                Merge::Whole(Some(true), Some(false)),
            ),
            482,
        ),
        (
            alt("the pair condition alone", Merge::Whole(Some(true), None)),
            541,
        ),
        (
            alt("the xor-2 condition alone", Merge::Whole(None, Some(true))),
            686,
        ),
        (
            alt(
                "each quad pair or xor-2 on its own, tolerant",
                Merge::PerQuad(true),
            ),
            124,
        ),
        (
            alt(
                "each quad pair or xor-2 on its own, strict",
                Merge::PerQuad(false),
            ),
            1439,
        ),
        (
            alt("each quad reads at most 2 addresses", Merge::QuadTwoAddresses),
            286,
        ),
        (
            alt(
                "at most 128/w addresses per merged phase",
                Merge::DistinctAddresses,
            ),
            848,
        ),
        (
            alt("or at most 128/w active lanes per merged phase", Merge::FewActive),
            101,
        ),
        (alt("or xor-3 symmetry", Merge::OrXor(3)), 140),
        (alt("or xor-4 symmetry", Merge::OrXor(4)), 40),
        (alt("or xor-8 symmetry", Merge::OrXor(8)), 256),
        (
            half(alt("16-byte half-warps decide alone, tolerant", tolerant)),
            80,
        ),
        (half(alt("16-byte half-warps decide alone, strict", strict)), 1414),
        (
            Alternative {
                compact: true,
                ..alt("active lanes compacted before phases", tolerant)
            },
            1277,
        ),
        (
            Alternative {
                stores: true,
                ..alt("stores merge too", tolerant)
            },
            345,
        ),
    ]
}

#[test]
fn every_alternative_rule_breaks_measured_rows() {
    let rows = all_rows();
    let wrong = |a: &Alternative| rows.iter().filter(|r| predict(a, &r.req) != r.measured).count();
    assert_eq!(wrong(&RULE), 0, "{}", RULE.name);
    let mut report = Vec::new();
    for (a, expected) in alternatives() {
        let n = wrong(&a);
        report.push(format!("{n:5} rows wrong: {}", a.name));
        assert!(n > 0, "{}: no measured row rejects it", a.name);
        assert_eq!(n, expected, "{}: rows wrong (calibration/bank/README.md)", a.name);
    }
    println!("{}", report.join("\n"));
}
