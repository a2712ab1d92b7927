//! Replays calibration/srcpred/measured.tsv (pz.cu on an H200, 312 one-warp launches of 8 copies
//! each, per instruction from Nsight Compute's source page): `cp.async.cg` 16-byte copies whose
//! src-size is 16 or 0, which ptxas makes `LDGSTS.E.BYPASS.128 [d], [s], P` with the predicate in
//! `P0`-`P6`, plain or negated, over 17 layouts (Triton's swizzled tiles of 144-, 576- and
//! 512-byte rows, strided, paired and permuted destinations, scattered sources) and 9 read masks
//! (all, none, halves, quarters, random), some launches giving each copy its own mask.
//! Every row equals the model's count over the lanes Nsight Compute takes as reading; the
//! alternatives, each written out here from the model's other forms, break rows.

use warpscope_model::arch::Arch;
use warpscope_model::matrix::{CopyKind, instrumented_source_lanes, ldgsts_wavefronts_with_sources};

const ALL: u32 = u32::MAX;

struct Row {
    /// The layout's name (layouts.txt) and the copy (0-7) of the launch.
    name: String,
    copy: u32,
    dst: [u32; 32],
    src: [u64; 32],
    /// The lanes whose src-size is 16.
    reads: u32,
    /// The LDGSTS's predicate operand: register (7: PT) and negation.
    reg: u8,
    negated: bool,
    wavefronts: u32,
}

fn rows() -> Vec<Row> {
    let layouts: Vec<(String, Vec<u64>)> = include_str!("../../../calibration/srcpred/layouts.txt")
        .lines()
        .map(|l| {
            let mut f = l.split_whitespace();
            let name = f.next().unwrap().to_string();
            (name, f.map(|x| x.parse().unwrap()).collect())
        })
        .collect();
    let text = include_str!("../../../calibration/srcpred/measured.tsv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (launch, copy, pred, reads, wf) = (
        col("launch"),
        col("copy"),
        col("predicate"),
        col("reads"),
        col("wavefronts"),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (name, v) = &layouts[f[launch].parse::<usize>().unwrap() / 2];
            assert_eq!(v.len(), 96, "{name}");
            let p = f[pred];
            let negated = p.starts_with('!');
            let reg = match p.trim_start_matches('!') {
                "PT" => 7,
                r => r.strip_prefix('P').unwrap().parse().unwrap(),
            };
            Row {
                name: name.clone(),
                copy: f[copy].parse().unwrap(),
                // pz.cu: shared region c (4 KiB each) + dst * 16; global `in + 4096 + src * 16`
                dst: std::array::from_fn(|l| v[l] as u32 * 16),
                src: std::array::from_fn(|l| 0x10_0000 + v[32 + l] * 16),
                reads: u32::from_str_radix(f[reads], 16).unwrap(),
                reg,
                negated,
                wavefronts: f[wf].parse().unwrap(),
            }
        })
        .collect()
}

fn count(r: &Row, kind: CopyKind, mask: u32, sources: u32) -> u32 {
    let arch = Arch::parse("sm_90").unwrap();
    ldgsts_wavefronts_with_sources(arch, kind, 16, mask, sources, &r.dst, &r.src)
        .unwrap()
        .wavefronts
}

/// The rule: the lanes Nsight Compute's instrumentation takes as reading (P0 as false) under
/// [`CopyKind::CacheGlobalPredicated`].
fn rule(r: &Row) -> u32 {
    let seen = instrumented_source_lanes(ALL, r.reads, r.reg, r.negated);
    count(r, CopyKind::CacheGlobalPredicated, ALL, seen)
}

#[test]
fn every_measured_copy_with_a_source_predicate_equals_the_rule() {
    let rows = rows();
    assert_eq!(rows.len(), 2496);
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| rule(r) != r.wavefronts)
        .map(|r| {
            format!(
                "{} copy {} P{}{} reads {:08x}: {} against {}",
                r.name,
                r.copy,
                r.reg,
                if r.negated { " (negated)" } else { "" },
                r.reads,
                rule(r),
                r.wavefronts
            )
        })
        .collect();
    assert!(bad.is_empty(), "{} rows differ:\n{}", bad.len(), bad.join("\n"));
    // the table holds every register, plain and negated, and copies in P0 that the lanes read
    // partly: the instrumentation's view of P0 is what decides them
    for reg in 0..7u8 {
        for negated in [false, true] {
            assert!(
                rows.iter()
                    .any(|r| r.reg == reg && r.negated == negated && r.reads != 0 && r.reads != ALL)
            );
        }
    }
}

#[test]
fn the_alternatives_break_measured_copies() {
    let rows = rows();
    let broken = |f: &dyn Fn(&Row) -> u32| rows.iter().filter(|r| f(r) != r.wavefronts).count();
    let seen = |r: &Row| instrumented_source_lanes(ALL, r.reads, r.reg, r.negated);
    // the lanes that truly read (no P0 reading): every P0 copy with lanes that read and lanes that
    // do not, or with every lane on the other side of the predicate's reading
    let real = broken(&|r| count(r, CopyKind::CacheGlobalPredicated, ALL, r.reads));
    // the predicate ignored (every lane reads: the earlier plain rule)
    let plain = broken(&|r| count(r, CopyKind::CacheGlobal, ALL, ALL));
    // the .ZFILL form's count, also when every lane reads
    let zfill_always = broken(&|r| count(r, CopyKind::CacheGlobalZeroFill, ALL, seen(r)));
    // the .ZFILL form's count when some lane zero-fills, without a zero-filling lane taking the
    // place of a reading lane above it that writes the same destination
    let no_first_writer = broken(&|r| match seen(r) {
        ALL => count(r, CopyKind::CacheGlobal, ALL, ALL),
        s => count(r, CopyKind::CacheGlobalZeroFill, ALL, s),
    });
    // the routing of the reading lanes plus a src-size-0 pass of the zero-filling lanes only (the
    // prediction committed before measuring: calibration/srcpred/predicted.tsv, column `rule`)
    let zero_lanes_only = broken(&|r| {
        let s = seen(r);
        let routed = if s == 0 {
            0
        } else {
            count(r, CopyKind::CacheGlobal, s, s)
        };
        let zeros = if s == ALL {
            0
        } else {
            count(r, CopyKind::CacheGlobalZeroFill, ALL & !s, 0)
        };
        routed + zeros
    });
    assert_eq!(
        (real, plain, zfill_always, no_first_writer, zero_lanes_only),
        (257, 1879, 434, 42, 846),
        "rows broken of 2496: real lanes, plain, .ZFILL always, no first writer, zero-filling lanes only"
    );
}
