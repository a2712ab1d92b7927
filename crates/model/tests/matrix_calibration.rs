//! Replays every H100 measurement of calibration/ldsm/ (ldmatrix, stmatrix, cp.async; a first batch, a
//! held-out batch generated after the rules were found, and a targeted cp.async batch) and the older
//! cp.async tables of calibration/cpasync/ against `warpscope_model::matrix`. The tables come from
//! the GPU (see the READMEs); nothing here is produced by the model.

use std::collections::HashMap;
use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::matrix::{
    CopyKind, MatrixError, MatrixOp, counted_in_lsu_op, ldgsts_wavefronts, ldgsts_wavefronts_with_sources,
    matrix_wavefronts,
};

struct Row {
    at: String,
    kind: String,
    form: String,
    desc: String,
    vals: HashMap<String, String>,
    mask: u32,
    a: [u32; 32],
    g: [u64; 32],
}

impl Row {
    fn num(&self, col: &str) -> u32 {
        let v = self
            .vals
            .get(col)
            .unwrap_or_else(|| panic!("{}: no column {col}", self.at));
        v.parse()
            .unwrap_or_else(|_| panic!("{}: column {col}: not a number: {v:?}", self.at))
    }
}

fn load(file: &str) -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/ldsm")
        .join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: cannot read: {e}", path.display()));
    let mut header: Option<Vec<&str>> = None;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let Some(h) = &header else {
            assert_eq!(cells[0], "id", "{file}:{}: header expected", i + 1);
            header = Some(cells);
            continue;
        };
        assert_eq!(cells.len(), h.len(), "{file}:{}: field count", i + 1);
        let vals: HashMap<String, String> = h
            .iter()
            .zip(&cells)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (mut mask, mut a, mut g) = (0u32, [0u32; 32], [0u64; 32]);
        for l in 0..32 {
            let x = &vals[&format!("a{l}")];
            if x != "-" {
                mask |= 1 << l;
                a[l] = x.parse().unwrap();
            }
            g[l] = vals[&format!("g{l}")].parse().unwrap();
        }
        rows.push(Row {
            at: format!("{file}:{}", i + 1),
            kind: cells[1].to_string(),
            form: cells[2].to_string(),
            desc: cells[3].to_string(),
            vals,
            mask,
            a,
            g,
        });
    }
    rows
}

fn all_rows() -> Vec<Row> {
    let mut rows = load("measured.tsv");
    rows.extend(load("measured_heldout.tsv"));
    rows.extend(load("measured_targeted.tsv"));
    rows.extend(load("measured_cg16_check.tsv"));
    rows.extend(load("measured_cg16_dup.tsv"));
    rows.extend(load("measured_ca_tiles.tsv"));
    rows.extend(load("measured_ca_blind.tsv"));
    rows
}

#[test]
fn ldmatrix_and_stmatrix_wavefronts_equal_the_h100() {
    let h100 = Arch::parse("sm_90").unwrap();
    let rows: Vec<Row> = all_rows()
        .into_iter()
        .filter(|r| r.kind == "ldsm" || r.kind == "stsm")
        .collect();
    let mut failures = Vec::new();
    let (mut full, mut partial) = (0, 0);
    for r in &rows {
        let (op, hw_col, sass_col, conf_col, inst_col) = if r.kind == "ldsm" {
            let c = (
                "ld_wavefronts",
                "sass_ldsm_wavefronts",
                "sass_ldsm_conflicts",
                "ldsm_inst",
            );
            (MatrixOp::Load, c.0, c.1, c.2, c.3)
        } else {
            let c = (
                "st_wavefronts",
                "sass_stsm_wavefronts",
                "sass_stsm_conflicts",
                "stsm_inst",
            );
            (MatrixOp::Store, c.0, c.1, c.2, c.3)
        };
        let matrices = match r.form.trim_end_matches('t') {
            "x1" => 1,
            "x2" => 2,
            "x4" => 4,
            f => panic!("{}: form {f}", r.at),
        };
        // one LDSM / STSM per launch; never counted as an ordinary shared load or store
        assert_eq!(r.num(inst_col), 1, "{}: instructions", r.at);
        assert_eq!(r.num("ld_inst") + r.num("st_inst"), 0, "{}: LDS/STS", r.at);
        let c = matrix_wavefronts(h100, op, matrices, r.mask, &r.a).unwrap();
        let sass = r.num(sass_col);
        let hw = r.num(hw_col);
        let expect_hw = if counted_in_lsu_op(r.mask) {
            full += 1;
            c.wavefronts
        } else {
            partial += 1;
            0
        };
        if c.wavefronts != sass || hw != expect_hw || c.ideal != sass - r.num(conf_col) {
            failures.push(format!(
                "{} {} {} {}: measured {hw_col} {hw}, {sass_col} {sass}, ideal {}; model {} ideal {}",
                r.at,
                r.kind,
                r.form,
                r.desc,
                sass - r.num(conf_col),
                c.wavefronts,
                c.ideal
            ));
        }
    }
    assert!(
        full >= 1300 && partial >= 200,
        "{full} full-warp rows, {partial} partial"
    );
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

fn copy_kind(form: &str) -> Option<(CopyKind, u8)> {
    Some(match form {
        "ca4" => (CopyKind::CacheAll, 4),
        "ca8" => (CopyKind::CacheAll, 8),
        "ca16" => (CopyKind::CacheAll, 16),
        "cg16" => (CopyKind::CacheGlobal, 16),
        "cg16z0" => (CopyKind::CacheGlobalZeroFill, 16),
        // a source size of 8 in every lane: the zero-fill form whose every lane reads
        "cg16z8" => (CopyKind::CacheGlobalZeroFill, 16),
        _ => return None,
    })
}

#[test]
fn cp_async_wavefronts_equal_the_h100() {
    let h100 = Arch::parse("sm_90").unwrap();
    let rows: Vec<Row> = all_rows().into_iter().filter(|r| r.kind == "ldgsts").collect();
    let mut failures = Vec::new();
    let mut covered: HashMap<&str, (u32, u32)> = HashMap::new();
    let mut partial_fill = 0;
    for r in &rows {
        assert_eq!(r.num("ldgsts_inst"), 1, "{}: instructions", r.at);
        // LDGSTS is neither a shared load nor a shared store for ncu
        assert_eq!(r.num("ld_wavefronts") + r.num("st_wavefronts"), 0, "{}", r.at);
        let Some((kind, width)) = copy_kind(&r.form) else {
            partial_fill += 1;
            continue;
        };
        let measured = r.num("ldgsts_wavefronts");
        let e = covered
            .entry(if r.form.starts_with("ca") { "ca" } else { "cg" })
            .or_default();
        e.1 += 1;
        let sources = if r.form == "cg16z8" {
            r.mask
        } else if r.form == "cg16z0" {
            0
        } else {
            r.mask
        };
        if r.form == "cg16z8" {
            partial_fill += 1;
        }
        match ldgsts_wavefronts_with_sources(h100, kind, width, r.mask, sources, &r.a, &r.g) {
            Ok(c) => {
                e.0 += 1;
                let ideal = measured - r.num("sass_ldgsts_conflicts");
                if c.wavefronts != measured || c.ideal != ideal {
                    failures.push(format!(
                        "{} {} {}: measured {measured} (ideal {ideal}), model {} (ideal {})",
                        r.at, r.form, r.desc, c.wavefronts, c.ideal
                    ));
                }
            }
            Err(e) => panic!("{}: {e}", r.at),
        }
    }
    assert!(
        failures.is_empty(),
        "{} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The domain each rule claims: these counts change only with the tables or the rules.
    // (every .ca row: the union of a word's shared and source bank queues, also where both sides
    // conflict; 576 rows of the first batches, 118 structured tile copies (measured_ca_tiles.tsv)
    // and 119 layouts measured after the rule's counts were committed (measured_ca_blind.tsv))
    assert_eq!(covered["ca"], (813, 813), "cp.async.ca rows covered / measured");
    // every 16-byte cp.async.cg row the rule was fitted on (434), every src-size 0 row (12), the
    // 381 rows measured after it was fitted (measured_cg16_check.tsv: 83 of them with a 32-byte
    // source sector read by three or more lanes, where the rule without calibration/cgcrowd's
    // rounds broke 22), the 200 rows with repeated source chunks (measured_cg16_dup.tsv, measured
    // before anything was fitted to them; 41 broken without the rounds) and the 12 rows with a
    // source size of 8 (the zero-fill rule of calibration/cpasync/zfill.cu)
    assert_eq!(
        covered["cg"],
        (446 + 381 + 200 + 12, 446 + 381 + 200 + 12),
        "cp.async.cg rows covered / measured"
    );
    assert_eq!(partial_fill, 12, "cp.async.cg with src-size 8");
}

/// The one-source-line rows of the targeted batch that pinned the cp.async.cg rule: a destination
/// shifted by `s` 16-byte chunks (measured 1, 3, 2, 4, 2, 4, 2, 3 for `s` = 0..7, periodic in 8) and
/// permutations inside one shared row (measured 4 to 8), each replayed against the measured count.
#[test]
fn cp_async_cg_one_line_rows_follow_the_sector_rule() {
    let h100 = Arch::parse("sm_90").unwrap();
    let rows: Vec<Row> = load("measured_targeted.tsv")
        .into_iter()
        .filter(|r| r.form == "cg16" && r.desc.starts_with("line_"))
        .collect();
    let mut shifts = Vec::new();
    let mut perm_costs = std::collections::BTreeSet::new();
    for r in &rows {
        let measured = r.num("ldgsts_wavefronts");
        let c = ldgsts_wavefronts(h100, CopyKind::CacheGlobal, 16, r.mask, &r.a, &r.g).unwrap();
        assert_eq!(c.wavefronts, measured, "{} {}", r.at, r.desc);
        if let Some(s) = r.desc.strip_prefix("line_shift") {
            shifts.push((s.parse::<u32>().unwrap(), measured));
        }
        if r.desc.starts_with("line_perm1row_") {
            perm_costs.insert(measured);
        }
    }
    assert_eq!(rows.len(), 202);
    shifts.sort();
    let by_shift: Vec<u32> = shifts.iter().map(|&(_, m)| m).collect();
    assert_eq!(
        by_shift,
        [1, 3, 2, 4, 2, 4, 2, 3, 1, 3, 2, 4, 2, 4, 2, 3],
        "measured shifts 0..15"
    );
    assert_eq!(perm_costs.into_iter().collect::<Vec<_>>(), [4, 5, 6, 8]);
}

/// calibration/cpasync/: the first cp.async tables (contiguous sources).
#[test]
fn earlier_cp_async_tables_replay() {
    let h100 = Arch::parse("sm_90").unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/cpasync");
    let metric = "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum";
    // cpasync.cu: lane t copies `width` bytes from in[t * width] to s[(t * stride * width/4) % (8192 - width/4)]
    let text = std::fs::read_to_string(dir.join("measured_h100.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = head.iter().position(|h| *h == metric).unwrap();
    let (mut n, mut ok) = (0, 0);
    for line in lines {
        let c: Vec<&str> = line.split('\t').collect();
        let (width, stride): (u32, u32) = (c[0].parse().unwrap(), c[1].parse().unwrap());
        let measured: u32 = c[col].parse().unwrap();
        let words = width / 4;
        let dst: [u32; 32] = std::array::from_fn(|t| 4 * ((t as u32 * stride * words) % (8192 - words)));
        let src: [u64; 32] = std::array::from_fn(|t| u64::from(t as u32 * width));
        let kind = if width == 16 {
            CopyKind::CacheGlobal
        } else {
            CopyKind::CacheAll
        };
        n += 1;
        if let Ok(m) = ldgsts_wavefronts(h100, kind, width as u8, u32::MAX, &dst, &src) {
            assert_eq!(m.wavefronts, measured, "width {width} stride {stride}");
            ok += 1;
        }
    }
    assert_eq!((n, ok), (27, 27), "rows / rows covered");
    // cp16.cu: lane t copies 16 bytes from in[t * sstride * 4] to s[((t * dstride + doff) * 4) % 8188]
    let text = std::fs::read_to_string(dir.join("measured16_h100.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = head.iter().position(|h| *h == metric).unwrap();
    let (mut n, mut ok) = (0, 0);
    for line in lines {
        let c: Vec<&str> = line.split('\t').collect();
        let (ds, ss, off): (i64, i64, i64) = (
            c[0].parse().unwrap(),
            c[1].parse().unwrap(),
            c[2].parse().unwrap(),
        );
        let measured: u32 = c[col].parse().unwrap();
        let dst: [u32; 32] = std::array::from_fn(|t| (4 * (((t as i64 * ds + off) * 4) % 8188)) as u32);
        let src: [u64; 32] = std::array::from_fn(|t| (16 * t as i64 * ss) as u64);
        n += 1;
        if let Ok(m) = ldgsts_wavefronts(h100, CopyKind::CacheGlobal, 16, u32::MAX, &dst, &src) {
            assert_eq!(m.wavefronts, measured, "dstride {ds} sstride {ss} doff {off}");
            ok += 1;
        }
    }
    assert_eq!((n, ok), (85, 85), "rows / rows covered");
}

#[test]
fn errors_name_the_lane_and_the_reason() {
    let h100 = Arch::parse("sm_90").unwrap();
    let a100 = Arch::parse("sm_80").unwrap();
    let mut a: [u32; 32] = std::array::from_fn(|l| l as u32 * 16);
    a[9] = 88;
    let e = matrix_wavefronts(h100, MatrixOp::Load, 4, u32::MAX, &a).unwrap_err();
    assert_eq!(e.to_string(), "lane 9: row address 88 is not aligned to 16 bytes");
    // lane 9 supplies no row address for .x1: its address does not matter
    assert!(matrix_wavefronts(h100, MatrixOp::Load, 1, u32::MAX, &a).is_ok());
    let e = matrix_wavefronts(a100, MatrixOp::Store, 1, u32::MAX, &a).unwrap_err();
    assert_eq!(
        e.to_string(),
        "stmatrix does not exist on sm_80 (it needs compute capability 9.0 or later)"
    );
    let e = matrix_wavefronts(h100, MatrixOp::Load, 3, u32::MAX, &a).unwrap_err();
    assert!(matches!(e, MatrixError::BadMatrixCount(3)));
    let src = [0u64; 32];
    let e = ldgsts_wavefronts(h100, CopyKind::CacheGlobal, 8, 1, &a, &src).unwrap_err();
    assert!(matches!(e, MatrixError::BadCopySize(8)));
}

/// The `.ca` rule against the alternatives it replaced or that were tried: each is written out
/// here per phase over the same (lane, word) pairs, and each must break measured rows the rule
/// gets right (calibration/ldsm/README.md, rule 3).
#[test]
fn cp_async_ca_alternatives_break_measured_rows() {
    // per phase: shared and source bank of every (lane, word) pair
    fn phases(r: &Row, width: u32) -> Vec<Vec<(u32, u32)>> {
        let lanes_per_phase = 128 / width;
        (0..32 / lanes_per_phase)
            .map(|p| {
                (p * lanes_per_phase..(p + 1) * lanes_per_phase)
                    .filter(|&l| r.mask >> l & 1 == 1)
                    .flat_map(|l| {
                        let (d, s) = (r.a[l as usize] / 4, (r.g[l as usize] / 4) as u32);
                        (0..width / 4).map(move |k| ((d + k) % 32, (s + k) % 32))
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|ph: &Vec<(u32, u32)>| !ph.is_empty())
            .collect()
    }
    fn loads(ph: &[(u32, u32)]) -> ([u32; 32], [u32; 32]) {
        let (mut d, mut s) = ([0u32; 32], [0u32; 32]);
        for &(a, b) in ph {
            d[a as usize] += 1;
            s[b as usize] += 1;
        }
        (d, s)
    }
    let larger_side = |ph: &[(u32, u32)]| {
        let (d, s) = loads(ph);
        *d.iter().max().unwrap().max(s.iter().max().unwrap())
    };
    let sum_less_one = |ph: &[(u32, u32)]| {
        let (d, s) = loads(ph);
        d.iter().max().unwrap() + s.iter().max().unwrap() - 1
    };
    let pair_sum_less_one = |ph: &[(u32, u32)]| {
        let (d, s) = loads(ph);
        ph.iter()
            .map(|&(a, b)| d[a as usize] + s[b as usize] - 1)
            .max()
            .unwrap()
    };
    let union = |ph: &[(u32, u32)]| {
        let (d, s) = loads(ph);
        ph.iter()
            .map(|&(a, b)| {
                let both = ph.iter().filter(|&&p| p == (a, b)).count() as u32;
                d[a as usize] + s[b as usize] - both
            })
            .max()
            .unwrap()
    };
    let rows: Vec<Row> = all_rows()
        .into_iter()
        .filter(|r| r.kind == "ldgsts" && r.form.starts_with("ca"))
        .collect();
    assert_eq!(rows.len(), 813);
    // a phase's cost from its (shared bank, source bank) pairs
    type PhaseCost<'a> = &'a dyn Fn(&[(u32, u32)]) -> u32;
    let broken = |f: PhaseCost| {
        rows.iter()
            .filter(|r| {
                let w: u32 = r.form[2..].parse().unwrap();
                phases(r, w).iter().map(|ph| f(ph)).sum::<u32>() != r.num("ldgsts_wavefronts")
            })
            .count()
    };
    // the rule, written out independently of the model: no row breaks it
    assert_eq!(broken(&union), 0, "the union of the two bank queues");
    // (the fitted rows + the blind batch) the larger side (the rule before the crossing tiles
    // were measured), the sum of the two
    // largest loads less one, and the largest per-word sum less one ignoring shared pairs
    assert_eq!(broken(&larger_side), 171 + 102, "the larger side");
    assert_eq!(broken(&sum_less_one), 142 + 59, "sum of the sides less one");
    assert_eq!(broken(&pair_sum_less_one), 127 + 34, "per-word sum less one");
}
