//! The matrix battery of `warpscope calibrate`: `ldmatrix` (LDSM), `stmatrix` (STSM) and `cp.async`
//! (LDGSTS) rows of calibration/ldsm/ (one warp instruction per launch of
//! `calibration/ldsm/ldsm_calib.cu`, compiled by NVRTC, counted by Nsight Compute), judged against
//! `warpscope_model::matrix`'s rules clause by clause.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::error::{Context, Result, bail};
use warpscope_gpu::calibrate::{MATRIX_METRICS, MatrixPattern, matrix_form_known};
use warpscope_gpu::lab::ncu::NcuRow;
use warpscope_model::arch::Arch;
use warpscope_model::matrix::{
    CopyKind, MatrixError, MatrixOp, counted_in_lsu_op, ldgsts_wavefronts, matrix_wavefronts,
};

use super::Verdict;

/// The checked-in tables (H100): (name, text).
pub const TABLES: [(&str, &str); 3] = [
    (
        "measured",
        include_str!("../../../../calibration/ldsm/measured.tsv"),
    ),
    (
        "measured_heldout",
        include_str!("../../../../calibration/ldsm/measured_heldout.tsv"),
    ),
    (
        "measured_targeted",
        include_str!("../../../../calibration/ldsm/measured_targeted.tsv"),
    ),
];

/// Rows of each (table, kind, form, clause) taken by `--quick`.
const QUICK_PER_CLASS: usize = 2;

/// One matrix row: the pattern and the counters (`None` where the table has no value).
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The table it belongs to.
    pub table: &'static str,
    /// The pattern: kind, form, lanes' addresses.
    pub pattern: MatrixPattern,
    /// In the order of [`MATRIX_METRICS`].
    pub counts: [Option<u64>; MATRIX_METRICS.len()],
}

impl MatrixRow {
    fn get(&self, col: &str) -> Option<u64> {
        MATRIX_METRICS
            .iter()
            .position(|(c, _)| *c == col)
            .and_then(|k| self.counts[k])
    }
    fn mask(&self) -> u32 {
        (0..32).fold(0, |m, l| m | (u32::from(self.pattern.addrs[l].is_some()) << l))
    }
    fn addrs(&self) -> [u32; 32] {
        std::array::from_fn(|l| self.pattern.addrs[l].unwrap_or(0))
    }
    fn what(&self) -> String {
        format!(
            "{} id {} {} {} {}",
            self.table, self.pattern.id, self.pattern.kind, self.pattern.form, self.pattern.desc
        )
    }
}

/// Parses a matrix table: `measured*.tsv` (counter columns named in the header; those of
/// [`MATRIX_METRICS`] are read, empty cells are `None`) or a patterns table (`measured` false).
pub fn parse(text: &str, file: &str, table: &'static str, measured: bool) -> Result<Vec<MatrixRow>> {
    let mut header: Option<Vec<&str>> = None;
    let mut cols: Vec<Option<usize>> = Vec::new();
    let (mut a0, mut g0) = (0, 0);
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        let Some(h) = &header else {
            if c.first() != Some(&"id") || c.get(1) != Some(&"kind") {
                bail!("{file}:{n}: header `id\\tkind\\tform\\tdesc...` expected");
            }
            a0 = c
                .iter()
                .position(|x| *x == "a0")
                .with_context(|| format!("{file}:{n}: no column a0"))?;
            g0 = c
                .iter()
                .position(|x| *x == "g0")
                .with_context(|| format!("{file}:{n}: no column g0"))?;
            if g0 != a0 + 32 || c.len() != g0 + 32 {
                bail!("{file}:{n}: columns a0..a31 then g0..g31 expected at the end");
            }
            cols = MATRIX_METRICS
                .iter()
                .map(|(name, _)| c.iter().position(|x| x == name))
                .collect();
            if measured && let Some(k) = cols.iter().position(Option::is_none) {
                bail!("{file}:{n}: no column {}", MATRIX_METRICS[k].0);
            }
            header = Some(c);
            continue;
        };
        if c.len() != h.len() {
            bail!("{file}:{n}: {} fields, expected {}", c.len(), h.len());
        }
        if !matrix_form_known(c[1], c[2]) {
            bail!(
                "{file}:{n}: kind/form `{} {}` is not one of the harness's",
                c[1],
                c[2]
            );
        }
        let mut counts = [None; MATRIX_METRICS.len()];
        if measured {
            for (k, col) in cols.iter().enumerate() {
                let s = c[col.unwrap_or(0)];
                if !s.is_empty() {
                    counts[k] = Some(s.parse().with_context(|| {
                        format!("{file}:{n}: column {}: `{s}` is not a count", MATRIX_METRICS[k].0)
                    })?);
                }
            }
        }
        let mut addrs = [None; 32];
        let mut src = [0u32; 32];
        for l in 0..32 {
            let s = c[a0 + l];
            addrs[l] = if s == "-" {
                None
            } else {
                Some(
                    s.parse()
                        .with_context(|| format!("{file}:{n}: a{l}: `{s}` is not an address or `-`"))?,
                )
            };
            let s = c[g0 + l];
            src[l] = s
                .parse()
                .with_context(|| format!("{file}:{n}: g{l}: `{s}` is not an address"))?;
        }
        rows.push(MatrixRow {
            table,
            pattern: MatrixPattern {
                id: c[0].into(),
                kind: c[1].into(),
                form: c[2].into(),
                desc: c[3].into(),
                addrs,
                src,
            },
            counts,
        });
    }
    if header.is_none() {
        bail!("{file}: no header line");
    }
    Ok(rows)
}

fn matrices(form: &str) -> u8 {
    match form.trim_end_matches('t') {
        "x1" => 1,
        "x2" => 2,
        _ => 4,
    }
}

fn copy_kind(form: &str) -> Option<(CopyKind, u8)> {
    Some(match form {
        "ca4" => (CopyKind::CacheAll, 4),
        "ca8" => (CopyKind::CacheAll, 8),
        "ca16" => (CopyKind::CacheAll, 16),
        "cg16" => (CopyKind::CacheGlobal, 16),
        "cg16z0" => (CopyKind::CacheGlobalZeroFill, 16),
        _ => return None,
    })
}

const R_LDSM: &str = "ldmatrix/stmatrix: per matrix, the most distinct 16-byte rows of one bank group (addr/16 % 8); matrices add";
const R_LSU: &str =
    "ldmatrix/stmatrix: _op_ld/_op_st count the instruction only when the whole warp executes it";
const R_LDSM_INST: &str = "ldmatrix/stmatrix: one LDSM/STSM per instruction, never an LDS/STS";
const R_CA: &str = "cp.async.ca and zero-fill: phases as stores; per phase the largest union of a word's shared-bank and source-bank queues (no multicast); phases add";
const R_CG: &str = "cp.async.cg (16 B): one wavefront per shift or mirror of 32-byte sectors per source line, shared row and piece class (calibration/ldsm rule 4)";
const R_CP_INST: &str = "cp.async: one LDGSTS per instruction, counted neither as a shared load nor a store";
const R_NONE: &str =
    "cp.async rows outside every measured rule (MatrixError::NoRule, src-size 8): recorded, not judged";

/// The clause class of a row for `--quick` (by what the model says of it, so every clause is hit).
fn class(arch: &Arch, r: &MatrixRow) -> String {
    let p = &r.pattern;
    match p.kind.as_str() {
        "ldgsts" => match copy_kind(&p.form) {
            Some((k, w)) => match ldgsts_wavefronts(arch, k, w, r.mask(), &r.addrs(), &src64(r)) {
                Ok(c) => format!("rule {}", c.wavefronts.min(4)),
                Err(_) => "no rule".into(),
            },
            None => "no rule".into(),
        },
        _ => {
            let op = if p.kind == "ldsm" {
                MatrixOp::Load
            } else {
                MatrixOp::Store
            };
            let full = counted_in_lsu_op(r.mask());
            let multicast = (0..matrices(&p.form) as usize).any(|m| {
                let rows: Vec<u32> = (0..8).filter_map(|k| p.addrs[8 * m + k]).collect();
                let mut d = rows.clone();
                d.sort_unstable();
                d.dedup();
                d.len() < rows.len()
            });
            let w = matrix_wavefronts(arch, op, matrices(&p.form), r.mask(), &r.addrs())
                .map(|c| (c.wavefronts > c.ideal, c.wavefronts == 0))
                .unwrap_or((false, false));
            format!(
                "full {full} multicast {multicast} conflicts {} empty {}",
                w.0, w.1
            )
        }
    }
}

fn src64(r: &MatrixRow) -> [u64; 32] {
    std::array::from_fn(|l| u64::from(r.pattern.src[l]))
}

/// The checked-in rows, all or the `--quick` subset (per table, kind, form and clause class, the
/// first [`QUICK_PER_CLASS`] rows).
pub fn checked_in(quick: bool) -> Result<Vec<MatrixRow>> {
    let mut all = Vec::new();
    for (name, text) in TABLES {
        all.extend(parse(text, &format!("calibration/ldsm/{name}.tsv"), name, true)?);
    }
    if !quick {
        return Ok(all);
    }
    let h100 = Arch::parse("sm_90").expect("sm_90 preset");
    let mut seen: BTreeMap<(String, String, &str, String), usize> = BTreeMap::new();
    Ok(all
        .into_iter()
        .filter(|r| {
            let k = (
                r.pattern.kind.clone(),
                r.pattern.form.clone(),
                r.table,
                class(h100, r),
            );
            let n = seen.entry(k).or_default();
            *n += 1;
            *n <= QUICK_PER_CLASS
        })
        .collect())
}

/// Verdicts of the matrix rules for `arch` on `rows` (empty rows: the battery did not run).
pub fn verdicts(arch: &'static Arch, rows: &[MatrixRow]) -> Vec<Verdict> {
    let battery_m = "ldmatrix / stmatrix";
    let battery_c = "cp.async (LDGSTS)";
    if rows.is_empty() {
        return [battery_m, battery_c]
            .into_iter()
            .map(|b| {
                let mut v = Verdict::new(b, "shared-memory wavefronts");
                v.status = "not run".into();
                v.evidence
                    .push("these tables hold no ldsm/ rows (the battery was left out with --no-matrix, or the tables predate it)".into());
                v
            })
            .collect();
    }
    let mut vs: Vec<Verdict> = [
        (battery_m, R_LDSM),
        (battery_m, R_LSU),
        (battery_m, R_LDSM_INST),
        (battery_c, R_CA),
        (battery_c, R_CG),
        (battery_c, R_CP_INST),
        (battery_c, R_NONE),
    ]
    .into_iter()
    .map(|(b, r)| Verdict::new(b, r))
    .collect();
    let idx = |rule: &str| {
        [R_LDSM, R_LSU, R_LDSM_INST, R_CA, R_CG, R_CP_INST, R_NONE]
            .iter()
            .position(|r| *r == rule)
            .expect("a rule of this list")
    };
    let num = |r: &MatrixRow, c: &str| r.get(c).unwrap_or(u64::MAX);
    let mut unavailable: BTreeMap<usize, String> = BTreeMap::new();
    for r in rows {
        let p = &r.pattern;
        if p.kind == "ldsm" || p.kind == "stsm" {
            let (op, hw, sass, conf, inst) = if p.kind == "ldsm" {
                (
                    MatrixOp::Load,
                    "ld_wavefronts",
                    "sass_ldsm_wavefronts",
                    "sass_ldsm_conflicts",
                    "ldsm_inst",
                )
            } else {
                (
                    MatrixOp::Store,
                    "st_wavefronts",
                    "sass_stsm_wavefronts",
                    "sass_stsm_conflicts",
                    "stsm_inst",
                )
            };
            let (n_inst, n_ldst) = (num(r, inst), num(r, "ld_inst").saturating_add(num(r, "st_inst")));
            vs[idx(R_LDSM_INST)].add(n_inst == 1 && n_ldst == 0, || {
                format!("{}: {n_inst} {inst}, {n_ldst} LDS/STS", r.what())
            });
            match matrix_wavefronts(arch, op, matrices(&p.form), r.mask(), &r.addrs()) {
                Ok(c) => {
                    let (s, cf, h) = (num(r, sass), num(r, conf), num(r, hw));
                    let ideal = s.wrapping_sub(cf);
                    vs[idx(R_LDSM)].add(
                        u64::from(c.wavefronts) == s && u64::from(c.ideal) == ideal,
                        || {
                            format!(
                                "{}: measured {s} (ideal {ideal}), model {} (ideal {})",
                                r.what(),
                                c.wavefronts,
                                c.ideal
                            )
                        },
                    );
                    let want = if counted_in_lsu_op(r.mask()) {
                        c.wavefronts
                    } else {
                        0
                    };
                    vs[idx(R_LSU)].add(u64::from(want) == h, || {
                        format!("{}: measured {hw} {h}, model {want}", r.what())
                    });
                }
                Err(e @ MatrixError::Unsupported { .. }) => {
                    unavailable.insert(idx(R_LDSM), e.to_string());
                    unavailable.insert(idx(R_LSU), e.to_string());
                }
                Err(e) => vs[idx(R_LDSM)].add(false, || format!("{}: model error: {e}", r.what())),
            }
        } else {
            let (n_inst, n_ldst) = (
                num(r, "ldgsts_inst"),
                num(r, "ld_wavefronts").saturating_add(num(r, "st_wavefronts")),
            );
            vs[idx(R_CP_INST)].add(n_inst == 1 && n_ldst == 0, || {
                format!("{}: {n_inst} LDGSTS, {n_ldst} shared ld/st wavefronts", r.what())
            });
            let rule = if p.form == "cg16" { R_CG } else { R_CA };
            let Some((kind, width)) = copy_kind(&p.form) else {
                vs[idx(R_NONE)].rows += 1;
                continue;
            };
            match ldgsts_wavefronts(arch, kind, width, r.mask(), &r.addrs(), &src64(r)) {
                Ok(c) => {
                    let (m, cf) = (num(r, "ldgsts_wavefronts"), num(r, "sass_ldgsts_conflicts"));
                    let ideal = m.wrapping_sub(cf);
                    vs[idx(rule)].add(
                        u64::from(c.wavefronts) == m && u64::from(c.ideal) == ideal,
                        || {
                            format!(
                                "{}: measured {m} (ideal {ideal}), model {} (ideal {})",
                                r.what(),
                                c.wavefronts,
                                c.ideal
                            )
                        },
                    );
                }
                Err(MatrixError::NoRule { .. }) => vs[idx(R_NONE)].rows += 1,
                Err(e @ MatrixError::Unsupported { .. }) => {
                    unavailable.insert(idx(rule), e.to_string());
                }
                Err(e) => vs[idx(rule)].add(false, || format!("{}: model error: {e}", r.what())),
            }
        }
    }
    for (k, why) in unavailable {
        if vs[k].rows == 0 {
            vs[k].status = "unavailable".into();
            vs[k].evidence = vec![why];
        } else {
            vs[k].evidence.push(format!("{why}: those rows are not judged"));
        }
    }
    vs[idx(R_NONE)].status = "no rule".into();
    vs.retain(|v| v.rows > 0 || v.status == "unavailable");
    vs
}

/// Rows equal to the checked-in tables (matched by table and id; compared on every counter the
/// checked-in row has).
pub fn equal_to_checked_in(rows: &[MatrixRow]) -> Result<(usize, Vec<String>)> {
    let all = checked_in(false)?;
    let index: BTreeMap<(&str, &str), &MatrixRow> = all
        .iter()
        .map(|r| ((r.table, r.pattern.id.as_str()), r))
        .collect();
    let (mut equal, mut differ) = (0, Vec::new());
    for r in rows {
        match index.get(&(r.table, r.pattern.id.as_str())) {
            Some(c) if c.pattern == r.pattern => {
                let bad: Vec<String> = MATRIX_METRICS
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| c.counts[*k].is_some() && c.counts[*k] != r.counts[*k])
                    .map(|(k, (name, _))| {
                        format!(
                            "{name} measured {}, checked in {}",
                            r.counts[k].map_or("-".into(), |x| x.to_string()),
                            c.counts[k].unwrap_or(0)
                        )
                    })
                    .collect();
                if bad.is_empty() {
                    equal += 1;
                } else {
                    differ.push(format!("{} id {}: {}", r.table, r.pattern.id, bad.join(", ")));
                }
            }
            _ => differ.push(format!(
                "{} id {}: not the checked-in pattern",
                r.table, r.pattern.id
            )),
        }
    }
    Ok((equal, differ))
}

fn lanes(s: &mut String, p: &MatrixPattern) {
    for a in &p.addrs {
        match a {
            Some(a) => {
                let _ = write!(s, "\t{a}");
            }
            None => s.push_str("\t-"),
        }
    }
    for g in &p.src {
        let _ = write!(s, "\t{g}");
    }
}

fn lane_header(s: &mut String) {
    for l in 0..32 {
        let _ = write!(s, "\ta{l}");
    }
    for l in 0..32 {
        let _ = write!(s, "\tg{l}");
    }
    s.push('\n');
}

/// A measured table in the calibration/ldsm/ layout (the counter columns of [`MATRIX_METRICS`]).
pub fn table_text(header: &str, rows: &[&MatrixRow]) -> String {
    let mut s = format!(
        "# measured on: {header}\n# counters: {}; one launch, one warp, per row\nid\tkind\tform\tdesc",
        MATRIX_METRICS
            .iter()
            .map(|(c, m)| format!("{c}={m}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (c, _) in MATRIX_METRICS {
        let _ = write!(s, "\t{c}");
    }
    lane_header(&mut s);
    for r in rows {
        let p = &r.pattern;
        let _ = write!(s, "{}\t{}\t{}\t{}", p.id, p.kind, p.form, p.desc);
        for c in &r.counts {
            match c {
                Some(x) => {
                    let _ = write!(s, "\t{x}");
                }
                None => s.push('\t'),
            }
        }
        lanes(&mut s, p);
        s.push('\n');
    }
    s
}

/// The patterns table the child run launches (ldsm_calib.cu's input layout).
pub fn patterns_text(rows: &[MatrixRow]) -> String {
    let mut s = String::from("id\tkind\tform\tdesc");
    lane_header(&mut s);
    for r in rows {
        let p = &r.pattern;
        let _ = write!(s, "{}\t{}\t{}\t{}", p.id, p.kind, p.form, p.desc);
        lanes(&mut s, p);
        s.push('\n');
    }
    s
}

/// The matrix rows measured: `patterns` (in launch order) paired with ncu's launches, each
/// launch's kernel checked against its pattern's.
pub fn rows_measured(patterns: Vec<MatrixRow>, ncu_rows: &[NcuRow]) -> Result<Vec<MatrixRow>> {
    let n = warpscope_gpu::lab::ncu::launch_count(ncu_rows);
    if n != patterns.len() {
        bail!("ncu counted {n} launches for {} matrix patterns", patterns.len());
    }
    let mut ids: Vec<u32> = ncu_rows.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut mat = Vec::with_capacity(patterns.len());
    for (p, id) in patterns.into_iter().zip(ids) {
        let kernel = ncu_rows
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.kernel.clone())
            .unwrap_or_default();
        let name = p.pattern.kernel();
        let plain = kernel.split('(').next().unwrap_or("").trim();
        if plain != name && !kernel.contains(&format!("{}{name}", name.len())) {
            bail!(
                "ncu launch {id} is `{kernel}`, expected {name} for row {}",
                p.pattern.id
            );
        }
        let mut counts = [None; MATRIX_METRICS.len()];
        for (k, (_, m)) in MATRIX_METRICS.iter().enumerate() {
            counts[k] = Some(
                warpscope_gpu::lab::ncu::metric(ncu_rows, id, m)
                    .with_context(|| format!("ncu launch {id}: no value for {m}"))? as u64,
            );
        }
        mat.push(MatrixRow { counts, ..p });
    }
    Ok(mat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_checked_in_row_holds_on_sm_90_and_the_quick_subset_hits_every_clause() {
        let h100 = Arch::parse("sm_90").unwrap();
        let all = checked_in(false).unwrap();
        assert_eq!(all.len(), 1320 + 970 + 360);
        let v = verdicts(h100, &all);
        assert!(v.iter().all(|v| v.status != "breaks"), "{v:?}");
        let quick = checked_in(true).unwrap();
        assert!(quick.len() >= 150 && quick.len() <= 450, "{}", quick.len());
        for r in &quick {
            assert!(all.contains(r));
        }
        let vq = verdicts(h100, &quick);
        let rules: Vec<&str> = v.iter().map(|v| v.rule.as_str()).collect();
        assert_eq!(rules, vq.iter().map(|v| v.rule.as_str()).collect::<Vec<_>>());
        assert_eq!(rules.len(), 7);
        // every clause judges at least 10 rows; the rows outside every rule (the 16-byte .cg rows
        // with a crowded source sector and src-size 8: 4 since the .ca union rule) at least one
        for v in &vq {
            let least = if v.rule == R_NONE { 1 } else { 10 };
            assert!(v.rows >= least, "{}: {} rows", v.rule, v.rows);
        }
        // Every form of the harness is in the subset.
        for kind in ["ldsm", "stsm", "ldgsts"] {
            let forms: &[&str] = if kind == "ldgsts" {
                &["ca4", "ca8", "ca16", "cg16", "cg16z0", "cg16z8"]
            } else {
                &["x1", "x2", "x4", "x1t", "x2t", "x4t"]
            };
            for f in forms {
                assert!(
                    quick
                        .iter()
                        .any(|r| r.pattern.kind == kind && r.pattern.form == *f),
                    "{kind} {f}"
                );
            }
        }
    }

    #[test]
    fn a_changed_count_breaks_its_clause_and_tables_round_trip() {
        let h100 = Arch::parse("sm_90").unwrap();
        let quick = checked_in(true).unwrap();
        let text = table_text(
            "H100, CC 9.0",
            &quick.iter().filter(|r| r.table == "measured").collect::<Vec<_>>(),
        );
        let back = parse(&text, "t.tsv", "measured", true).unwrap();
        let orig: Vec<MatrixRow> = quick.iter().filter(|r| r.table == "measured").cloned().collect();
        assert_eq!(back.len(), orig.len());
        for (a, b) in back.iter().zip(&orig) {
            assert_eq!(a.pattern, b.pattern);
            for (k, x) in b.counts.iter().enumerate() {
                if x.is_some() {
                    assert_eq!(a.counts[k], *x);
                }
            }
        }
        let mut bad = quick.clone();
        let i = bad.iter().position(|r| r.pattern.kind == "stsm").unwrap();
        let k = MATRIX_METRICS
            .iter()
            .position(|(c, _)| *c == "sass_stsm_wavefronts")
            .unwrap();
        bad[i].counts[k] = bad[i].counts[k].map(|x| x + 1);
        let v = verdicts(h100, &bad);
        let broken: Vec<&Verdict> = v.iter().filter(|v| v.status == "breaks").collect();
        assert_eq!(broken.len(), 1, "{v:?}");
        assert_eq!(broken[0].rule, R_LDSM);
        assert!(broken[0].evidence[0].contains(&format!("id {}", bad[i].pattern.id)));
        let (eq, diff) = equal_to_checked_in(&bad).unwrap();
        assert_eq!((eq, diff.len()), (bad.len() - 1, 1));
        // On sm_80 stmatrix does not exist: its rows are left out (and said so), the ldmatrix rows
        // judged; on sm_75 cp.async does not exist either.
        let a80 = Arch::parse("sm_80").unwrap();
        let v = verdicts(a80, &quick);
        let ldsm = quick.iter().filter(|r| r.pattern.kind == "ldsm").count();
        let m = v.iter().find(|v| v.rule == R_LDSM).unwrap();
        assert_eq!((m.status.as_str(), m.rows), ("holds", ldsm));
        assert!(
            m.evidence[0].contains("stmatrix does not exist on sm_80"),
            "{m:?}"
        );
        let v = verdicts(Arch::parse("sm_75").unwrap(), &quick);
        let ca = v.iter().find(|v| v.rule == R_CA).unwrap();
        assert_eq!(ca.status, "unavailable");
        assert!(
            ca.evidence[0].contains("cp.async does not exist on sm_75"),
            "{ca:?}"
        );
        // Malformed lines are named.
        let e = parse("id\tkind\n", "m.tsv", "measured", true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("m.tsv:1"), "{e}");
        let mut t = text.lines().take(4).collect::<Vec<_>>().join("\n");
        t = t
            .replacen("\tldsm\t", "\tldsx\t", 1)
            .replacen("\tstsm\t", "\tldsx\t", 1);
        let e = parse(&t, "m.tsv", "measured", true).unwrap_err().to_string();
        assert!(e.contains("m.tsv:4") && e.contains("kind/form"), "{e}");
    }
}
