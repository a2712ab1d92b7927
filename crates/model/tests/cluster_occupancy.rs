//! `max_active_clusters` against every successful `cudaOccupancyMaxActiveClusters` answer of an
//! H200 (`calibration/cluster/h200/occupancy.stdout`: the blocks per SM the GPU reported beside
//! each answer are the input), and the alternatives the rule was chosen over, each of which
//! breaks rows of the same file.

use std::path::Path;

use warpscope_model::arch::Arch;
use warpscope_model::occupancy::{Limits, SM90_CLUSTER_GPCS, max_active_clusters};

/// (blocks per SM, blocks per cluster, the GPU's answer) of every successful query.
fn rows() -> Vec<(u32, u32, u32)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/cluster/h200/occupancy.stdout");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("active ")) {
        // active KERNEL threads T smem S cluster XxYxZ attr A: STATUS N (blocks/SM STATUS B)
        let w: Vec<&str> = line.split_whitespace().collect();
        let Some(c) = w.iter().position(|&x| x == "cluster") else {
            continue;
        };
        if w.len() < c + 9 || w[c + 4] != "ok" || w[c + 7] != "ok" {
            continue;
        }
        let size: u32 = w[c + 1].split('x').map(|d| d.parse::<u32>().unwrap()).product();
        let attr = w[c + 3] == "1:";
        let n: u32 = w[c + 5].parse().unwrap();
        let b: u32 = w[c + 8].trim_end_matches(')').parse().unwrap();
        // a kernel without a cluster: 0 (the runtime's own rule, tested under `warpscope run`)
        if attr || !line.starts_with("active light ") {
            rows.push((b, size, n));
        }
    }
    rows
}

fn h100() -> Limits {
    Limits::for_arch(Arch::parse("sm_90").unwrap()).unwrap()
}

#[test]
fn every_answer_of_the_h200_equals_the_rule() {
    let limits = h100();
    assert_eq!(limits.sm_count, 132);
    let rows = rows();
    assert_eq!(rows.len(), 536, "rows read");
    for &(b, size, n) in &rows {
        assert_eq!(
            max_active_clusters(&limits, b, size),
            n,
            "{b} blocks/SM, clusters of {size}"
        );
    }
    // the rows cover 1 to 16 blocks per cluster and 0 to 32 blocks per SM
    assert!(rows.iter().any(|r| r.1 == 16) && rows.iter().any(|r| r.1 == 1));
    assert!(rows.iter().any(|r| r.0 == 32) && rows.iter().any(|r| r.0 == 0));
}

/// A rule: (blocks per SM, cluster size) -> clusters.
type Rule = fn(u32, u32) -> u32;

fn gpcs(g: &[u32], b: u32, c: u32, need_fit: bool) -> u32 {
    g.iter()
        .filter(|&&s| !need_fit || s >= c)
        .map(|&s| b * s / c)
        .sum()
}

#[test]
fn the_alternatives_break_rows() {
    let rows = rows();
    let broken = |rule: Rule| rows.iter().filter(|&&(b, c, n)| rule(b, c) != n).count();
    let alternatives: [(&str, Rule, usize); 6] = [
        // every SM for every cluster size
        ("all 132 SMs", |b, c| 132 * b.min(8) / c, 415),
        // the GPC groups for clusters of one and two blocks too
        (
            "GPCs for every size",
            |b, c| gpcs(&SM90_CLUSTER_GPCS, b.min(8), c, true),
            119,
        ),
        // no cap of 8 blocks per SM
        (
            "no cap",
            |b, c| {
                if c <= 2 {
                    132 * b / c
                } else {
                    gpcs(&SM90_CLUSTER_GPCS, b, c, true)
                }
            },
            85,
        ),
        // GPCs smaller than the cluster counted
        (
            "small GPCs count",
            |b, c| {
                let b = b.min(8);
                if c <= 2 {
                    132 * b / c
                } else {
                    gpcs(&SM90_CLUSTER_GPCS, b, c, false)
                }
            },
            16,
        ),
        // eight GPCs of 132 SMs (two of 18, six of 16)
        (
            "8 GPCs, 132 SMs",
            |b, c| {
                let b = b.min(8);
                if c <= 2 {
                    132 * b / c
                } else {
                    gpcs(&[18, 18, 16, 16, 16, 16, 16, 16], b, c, true)
                }
            },
            415,
        ),
        // seven GPCs (the group of 8 SMs left out)
        (
            "7 GPCs",
            |b, c| {
                let b = b.min(8);
                if c <= 2 {
                    132 * b / c
                } else {
                    gpcs(&SM90_CLUSTER_GPCS[..7], b, c, true)
                }
            },
            391,
        ),
    ];
    for (name, rule, want) in alternatives {
        assert_eq!(broken(rule), want, "{name}: rows broken of {}", rows.len());
    }
}
