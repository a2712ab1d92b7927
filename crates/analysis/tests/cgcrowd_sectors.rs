//! Global load sectors of 16-byte `cp.async.cg` copies (`global::bypass_copy_sectors`) against
//! calibration/cgcrowd (cw.cu on an H200, one copy per launch, `l1tex__t_sectors_pipe_lsu_mem_
//! global_op_ld` less the kernel's own table loads): 632 copies with sources read by 1 to 32 lanes
//! per 32-byte sector (with a source predicate, a src-size register or none) and 651 copies of
//! small configurations in one shared row. Every copy the rule claims equals the H200; the copies it
//! leaves unsure are the ones where a lane drops out for writing a lower lane's destination from
//! another source line; the earlier rule (pairs per 8-lane phase) breaks many of the claimed ones.

use warpscope_analysis::global::{bypass_copy_sectors, bypass_copy_sectors_unsure};

struct Copy {
    name: String,
    reads: u32,
    dst: [u64; 32],
    src: [u64; 32],
    sectors: u64,
}

fn copies(layouts: &str, measured: &str) -> Vec<Copy> {
    let lay: Vec<Vec<&str>> = layouts.lines().map(|l| l.split_whitespace().collect()).collect();
    let mut lines = measured.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (launch, sec) = (col("launch"), col("ld_sectors"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let t = &lay[f[launch].parse::<usize>().unwrap()];
            let v: Vec<u64> = t[3..].iter().map(|x| x.parse().unwrap()).collect();
            let form: u32 = t[0].parse().unwrap();
            // the kernel's table loads: 4 KiB-aligned 32-int rows, 4 sectors each: three for the
            // plain form (destinations, sources, a flag), four with the read values
            let table = if form == 2 { 12 } else { 16 };
            Copy {
                name: t[2].to_string(),
                reads: if form == 2 {
                    u32::MAX
                } else {
                    (0..32).filter(|&l| v[64 + l] != 0).fold(0, |m, l| m | 1 << l)
                },
                dst: std::array::from_fn(|l| v[l] * 16),
                src: std::array::from_fn(|l| 0x10_0000 + v[32 + l] * 16),
                sectors: f[sec].parse::<u64>().unwrap() - table,
            }
        })
        .collect()
}

/// The earlier rule: per 8-lane phase, the distinct (destination sector, source line) pairs.
fn per_phase(c: &Copy) -> u64 {
    let mut kept: Vec<usize> = Vec::new();
    for l in (0..32).filter(|&l| c.reads >> l & 1 == 1) {
        if !kept.iter().any(|&k| c.dst[k] / 16 == c.dst[l] / 16) {
            kept.push(l);
        }
    }
    if kept.iter().all(|&l| c.src[l] / 16 == c.src[kept[0]] / 16) {
        let mut d: Vec<u64> = kept.iter().map(|&l| c.dst[l] / 32).collect();
        d.sort_unstable();
        d.dedup();
        return d.len() as u64;
    }
    (0..4)
        .map(|p| {
            let mut v: Vec<(u64, u64)> = kept
                .iter()
                .filter(|&&l| l / 8 == p)
                .map(|&l| (c.dst[l] / 32, c.src[l] / 128))
                .collect();
            v.sort_unstable();
            v.dedup();
            v.len() as u64
        })
        .sum()
}

#[test]
fn copy_sectors_equal_the_h200_where_claimed() {
    let mut all = copies(
        include_str!("../../../calibration/cgcrowd/layouts.txt"),
        include_str!("../../../calibration/cgcrowd/measured.tsv"),
    );
    all.extend(copies(
        include_str!("../../../calibration/cgcrowd/layouts2.txt"),
        include_str!("../../../calibration/cgcrowd/measured2.tsv"),
    ));
    assert_eq!(all.len(), 632 + 651);
    let (mut claimed, mut unsure, mut unsure_off, mut earlier_broken) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for c in &all {
        let rule = bypass_copy_sectors(c.reads, &c.dst, &c.src);
        if bypass_copy_sectors_unsure(c.reads, &c.dst, &c.src) {
            unsure += 1;
            unsure_off += u32::from(rule != c.sectors);
            continue;
        }
        claimed += 1;
        if rule != c.sectors {
            failures.push(format!("{}: H200 {}, rule {rule}", c.name, c.sectors));
        }
        earlier_broken += u32::from(per_phase(c) != c.sectors);
    }
    assert!(
        failures.is_empty(),
        "{} copies differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!((claimed, unsure, unsure_off), (1257, 26, 24));
    assert_eq!(
        earlier_broken, 89,
        "copies the per-phase rule breaks among the claimed"
    );
}
