//! Replays calibration/capred/measured.tsv (pca.cu on an H200, 212 launches of 8 copies each, per
//! instruction from Nsight Compute's source page): `cp.async.ca` copies of 4, 8 and 16 bytes whose
//! src-size is a `selp` of the copy size and 0 (CuTe's and CUTLASS's zero-filling copies) or that
//! have an `ignore-src` predicate, which ptxas makes `LDGSTS.E{,.64,.128} [d], [s], P` with the
//! predicate in `P0`-`P6`, plain or negated; `cp.async.cg` 16-byte copies with `ignore-src`
//! (`LDGSTS.E.BYPASS.128 [d], [s], P`); and each launch's plain copy. 106 layouts: contiguous,
//! strided, column and broadcast sources and destinations, repeated destinations and sources,
//! groups not aligned to 16 bytes, CuTe-like K-major tiles, XOR swizzles, permutations, random
//! scatters; lanes that branch around the copies; one and four warps.
//! Every row equals the model; the alternatives, each written out here from the model's other
//! forms, break rows.

use warpscope_model::arch::Arch;
use warpscope_model::matrix::{
    CopyKind, instrumented_source_lanes, ldgsts_wavefronts_with_sources, predicated_bank_conflicts,
};

/// One copy of one launch.
struct Row {
    name: String,
    copy: u32,
    /// Bytes per lane; `.cg` (K = 1) or `.ca`.
    width: u8,
    cg: bool,
    warps: u32,
    /// The form: `plain` (copy 7), `selp` (a src-size selp, `.ca` copies 0-5) or `ignore`.
    form: &'static str,
    dst: [u32; 32],
    src: [u64; 32],
    /// The lanes that execute the copy, and those of them that read their source.
    mask: u32,
    reads: u32,
    /// The LDGSTS's predicate operand (7 and false for none).
    reg: u8,
    negated: bool,
    launch: usize,
    /// The source page's `L1 Wavefronts Shared`.
    wavefronts: u32,
}

fn rows() -> Vec<Row> {
    let layouts: Vec<(String, Vec<u64>)> = include_str!("../../../calibration/capred/layouts.txt")
        .lines()
        .map(|l| {
            let mut f = l.split_whitespace();
            let name = f.next().unwrap().to_string();
            (name, f.map(|x| x.parse().unwrap()).collect())
        })
        .collect();
    let text = include_str!("../../../calibration/capred/measured.tsv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (launch, copy, pred, exec, reads, wf) = (
        col("launch"),
        col("copy"),
        col("predicate"),
        col("execute"),
        col("reads"),
        col("wavefronts"),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (name, v) = &layouts[f[launch].parse::<usize>().unwrap() / 2];
            assert_eq!(v.len(), 3 + 128, "{name}");
            let (width, cg, warps) = (v[0] as u8, v[1] == 1, v[2] as u32);
            let t = &v[3..];
            let p = f[pred];
            let (reg, negated) = match p {
                "-" => (7, false),
                _ => (
                    p.trim_start_matches('!')
                        .strip_prefix('P')
                        .unwrap()
                        .parse()
                        .unwrap(),
                    p.starts_with('!'),
                ),
            };
            let c: u32 = f[copy].parse().unwrap();
            let mask = u32::from_str_radix(f[exec], 16).unwrap();
            assert_eq!(
                mask,
                (0..32).filter(|&l| t[96 + l] != 0).fold(0, |m, l| m | 1 << l),
                "{name}"
            );
            Row {
                name: name.clone(),
                copy: c,
                width,
                cg,
                warps,
                form: match (c, cg) {
                    (7, _) => "plain",
                    (_, true) | (6, false) => "ignore",
                    _ => "selp",
                },
                // pca.cu: shared region c (4 KiB each) + dst; global `in + 4096 + src`
                dst: std::array::from_fn(|l| t[l] as u32),
                src: std::array::from_fn(|l| 0x10_1000 + t[32 + l]),
                mask,
                reads: u32::from_str_radix(f[reads], 16).unwrap(),
                reg,
                negated,
                launch: f[launch].parse().unwrap(),
                wavefronts: f[wf].parse().unwrap(),
            }
        })
        .collect()
}

/// The model's count of one copy of one warp, times the launch's warps: (wavefronts, ideal).
fn count(r: &Row, kind: CopyKind, mask: u32, sources: u32) -> (u32, u32) {
    let arch = Arch::parse("sm_90").unwrap();
    let c = ldgsts_wavefronts_with_sources(arch, kind, r.width, mask, sources, &r.dst, &r.src).unwrap();
    (c.wavefronts * r.warps, c.ideal * r.warps)
}

/// The rule: `.ca` copies with a source predicate count as the src-size form does, over the lanes
/// that read (calibration/ldsm rule 3 with only their source banks), whatever register holds the
/// predicate; `.cg` copies with ignore-src as calibration/srcpred's source-predicate form, over
/// the lanes Nsight Compute's instrumentation takes as reading (P0 as false); plain copies by the
/// plain rules.
fn rule(r: &Row) -> (u32, u32) {
    match (r.cg, r.form) {
        (false, "plain") => count(r, CopyKind::CacheAll, r.mask, r.mask),
        (false, _) => count(r, CopyKind::CacheAll, r.mask, r.reads),
        (true, "plain") => count(r, CopyKind::CacheGlobal, r.mask, r.mask),
        (true, _) => {
            let seen = instrumented_source_lanes(r.mask, r.reads, r.reg, r.negated);
            count(r, CopyKind::CacheGlobalPredicated, r.mask, seen)
        }
    }
}

#[test]
fn every_measured_copy_equals_the_rule() {
    let rows = rows();
    assert_eq!(rows.len(), 1696);
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| rule(r).0 != r.wavefronts)
        .map(|r| {
            format!(
                "{} copy {} ({}) P{}{} execute {:08x} reads {:08x}: {} against {}",
                r.name,
                r.copy,
                r.form,
                r.reg,
                if r.negated { " (negated)" } else { "" },
                r.mask,
                r.reads,
                rule(r).0,
                r.wavefronts
            )
        })
        .collect();
    assert!(bad.is_empty(), "{} rows differ:\n{}", bad.len(), bad.join("\n"));
    // what the table holds: every width of .ca in both predicate forms, every register plain and
    // negated with lanes that read partly, lanes branching around, four warps
    for w in [4u8, 8, 16] {
        for form in ["selp", "ignore", "plain"] {
            assert!(rows.iter().any(|r| !r.cg && r.width == w && r.form == form));
        }
    }
    for reg in 0..7u8 {
        for negated in [false, true] {
            for cg in [false, true] {
                assert!(rows.iter().any(|r| r.cg == cg
                    && r.reg == reg
                    && r.negated == negated
                    && r.reads != 0
                    && r.reads != r.mask));
            }
        }
    }
    assert!(rows.iter().any(|r| r.mask != u32::MAX && r.form != "plain"));
    assert!(rows.iter().any(|r| r.warps == 4 && r.form != "plain"));
}

#[test]
fn the_alternatives_break_measured_copies() {
    let rows = rows();
    let ca: Vec<&Row> = rows.iter().filter(|r| !r.cg && r.form != "plain").collect();
    let cg: Vec<&Row> = rows.iter().filter(|r| r.cg && r.form != "plain").collect();
    assert_eq!((ca.len(), cg.len()), (1316, 168));
    let broken =
        |rows: &[&Row], f: &dyn Fn(&Row) -> u32| rows.iter().filter(|r| f(r) != r.wavefronts).count();
    let seen = |r: &Row| instrumented_source_lanes(r.mask, r.reads, r.reg, r.negated);
    let wf = |r: &Row, kind, mask, sources| count(r, kind, mask, sources).0;
    // .ca: P0 read as false, as the instrumentation reads the .cg form's (the prediction
    // committed before measuring: calibration/capred/predicted.tsv, column `ca:union_seen`)
    let p0 = broken(&ca, &|r| wf(r, CopyKind::CacheAll, r.mask, seen(r)));
    // the predicate ignored: every lane's source bank counts (the plain rule)
    let plain = broken(&ca, &|r| wf(r, CopyKind::CacheAll, r.mask, r.mask));
    // no source side at all (a zero-fill of every lane)
    let shared_only = broken(&ca, &|r| wf(r, CopyKind::CacheAll, r.mask, 0));
    // the zero-filling lanes cost nothing: the reading lanes' rule alone
    let readers_only = broken(&ca, &|r| match r.reads {
        0 => 0,
        s => wf(r, CopyKind::CacheAll, s, s),
    });
    // the reading lanes' pass, then a shared-only pass of the zero-filling lanes
    let two_passes = broken(&ca, &|r| {
        let zeros = r.mask & !r.reads;
        (if r.reads == 0 {
            0
        } else {
            wf(r, CopyKind::CacheAll, r.reads, r.reads)
        }) + if zeros == 0 {
            0
        } else {
            wf(r, CopyKind::CacheAll, zeros, 0)
        }
    });
    assert_eq!(
        (p0, plain, shared_only, readers_only, two_passes),
        (72, 492, 466, 698, 650),
        ".ca rows broken (of 1316): P0 as false, plain, shared side only, readers only, two passes"
    );
    // .cg with ignore-src: the lanes that truly read (no P0 reading), and the plain rule
    let real = broken(&cg, &|r| wf(r, CopyKind::CacheGlobalPredicated, r.mask, r.reads));
    let cg_plain = broken(&cg, &|r| wf(r, CopyKind::CacheGlobal, r.mask, r.mask));
    assert_eq!(
        (real, cg_plain),
        (19, 120),
        ".cg ignore-src rows broken (of 168): true lanes, plain"
    );
}

/// Per launch, the raw page's instrumented LDGSTS wavefronts, bank conflicts and
/// instructions (calibration/capred/measured_launches.tsv) against the sums of the model's
/// wavefronts and of its wavefronts less its ideal over the launch's eight copies. (The source page's per-instruction
/// `L1 Wavefronts Shared Ideal` is another quantity: for a partial warp it is the copied bytes in
/// 128-byte units, not one per phase with an active lane, and for `.cg` copies it is not the
/// routing's count; the conflicts metric follows the model's ideal for `.ca`, and for `.cg` the
/// zero-fill pass over the lanes that truly read, `matrix::predicated_bank_conflicts`.)
#[test]
fn every_launch_total_and_its_conflicts_equal_the_rule() {
    let rows = rows();
    let text = include_str!("../../../calibration/capred/measured_launches.tsv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let wf = col("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum");
    let cf = col("sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum");
    let inst = col("smsp__inst_executed_op_ldgsts.sum");
    let mut bad = Vec::new();
    let mut n = 0;
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let launch: usize = f[0].parse().unwrap();
        let copies: Vec<&Row> = rows.iter().filter(|r| r.launch == launch).collect();
        assert_eq!(copies.len(), 8);
        let (w, c) = copies.iter().fold((0u64, 0u64), |(w, c), r| {
            let (a, i) = rule(r);
            // a `.cg` copy's conflicts: its zero-fill pass beyond one per phase, over the lanes
            // that truly read (the conflicts counter reads `P0` as held: calibration/cgcrowd)
            let conflicts = match (r.cg, r.form) {
                (true, "plain") => 0,
                (true, _) => predicated_bank_conflicts(r.mask, r.reads, &r.dst, &r.src) * r.warps,
                _ => a - i,
            };
            (w + u64::from(a), c + u64::from(conflicts))
        });
        let want = (
            f[wf].parse::<u64>().unwrap(),
            f[cf].parse::<u64>().unwrap(),
            f[inst].parse::<u64>().unwrap(),
        );
        if (w, c, 8 * u64::from(copies[0].warps)) != want {
            bad.push(format!("launch {launch} {}: {:?} against {want:?}", f[1], (w, c)));
        }
        n += 1;
    }
    assert_eq!(n, 212);
    assert!(
        bad.is_empty(),
        "{} of 212 launches differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
