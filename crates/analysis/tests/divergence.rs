//! Divergence counters: synthetic events, and seed 002's kernels (PTX built with -G, checked in under
//! calibration/bugs/divergence/) emulated and compared with Nsight Compute on an H100.

use std::path::PathBuf;
use std::sync::Arc;

use warpscope_analysis::divergence::{BranchModel, DivergenceReport, DivergenceSink, is_debug_ptx};
use warpscope_emu::{Arg, Launch, Limits};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/bugs")
        .join(rel)
}

#[test]
fn synthetic_branches_count_once_per_execution() {
    let model = Arc::new(BranchModel {
        unconditional: vec![false, true, false],
        int_div_rem: vec![],
    });
    let mut s = DivergenceSink::new(Arc::clone(&model));
    s.inst(0, u32::MAX);
    s.branch(0, u32::MAX, 0x5555_5555); // divergent
    s.inst(1, 0xAAAA_AAAA); // unconditional, half the lanes
    s.inst(1, 0x5555_5555);
    s.branch(0, 0xFFFF, 0xFFFF); // uniform (all taken)
    s.branch(0, 0xFFFF, 0); // uniform (none taken)
    s.inst(2, 0xF);
    let mut r = DivergenceReport::new();
    r.merge(&mut s);
    let t = &r.totals;
    assert_eq!(
        (t.branch_executions, t.targets, t.divergent, t.uniform_targets),
        (5, 5, 1, 4)
    );
    assert_eq!(t.branch_efficiency_pct, 80.0);
    assert_eq!(t.inst_executions, 4);
    assert_eq!(t.active_lanes, 32 + 16 + 16 + 4);
    assert_eq!(t.debug_machine_estimate, None);
    assert_eq!(r.branches.len(), 2);
    assert_eq!((r.branches[0].executions, r.branches[0].divergent), (3, 1));
    let lines = r.by_line(&|pc| Some(10 + pc / 2));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].line, Some(10));
    assert_eq!(lines[0].branch_efficiency_pct, Some(80.0));
    assert_eq!(lines[1].line, Some(11));
    assert_eq!(lines[1].branch_efficiency_pct, None);
    assert_eq!(lines[1].utilisation_pct, 12.5);
}

fn compile(file: &str, src: &str) -> warpscope_emu::Program {
    warpscope_ptx::compile(src).unwrap_or_else(|e| panic!("{file}: {e:?}"))
}

/// PTX-level figures (worked out by hand from the -G PTX, docs/divergence.md) per kernel.
const PTX_LEVEL: &[(&str, u64, u64)] = &[
    ("_Z11mathKernel1Pf", 512, 128),
    ("_Z11mathKernel2Pf", 320, 0),
    ("_Z14straightKernelPf", 0, 0),
    ("_Z15parityAndKernelPf", 512, 128),
    ("_Z12ifOnlyKernelPf", 384, 128),
    ("_Z10loopKernelPf", 1792, 384),
];

#[test]
fn seed_002_kernels_built_with_g_match_nsight_compute_on_h100() {
    let table = std::fs::read_to_string(data("divergence/ncu_h100.tsv")).unwrap();
    let mut checked = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kernel, targets, divergent): (&str, u64, u64) =
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
        let file = if kernel.contains("mathKernel") {
            "simpleDivergence_G.ptx"
        } else {
            "shapes_G.ptx"
        };
        let src = std::fs::read_to_string(data(&format!("divergence/{file}"))).unwrap();
        assert!(is_debug_ptx(&src), "{file} is a -G build");
        let program = compile(file, &src);
        let model = Arc::new(BranchModel::from_program(&program, true));
        let launch = Launch::new([64, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 64 * 64 * 4])]);
        let res = warpscope_emu::run(&program, kernel, &launch, &Limits::default(), |_| {
            DivergenceSink::new(Arc::clone(&model))
        })
        .unwrap();
        assert!(res.faults.is_empty(), "{kernel}: {:?}", res.faults);
        let mut rep = DivergenceReport::new();
        let mut sinks = res.sinks;
        for s in &mut sinks {
            rep.merge(s);
        }
        let est = rep.totals.debug_machine_estimate.clone().unwrap();
        assert_eq!(
            (est.targets, est.divergent),
            (targets, divergent),
            "{kernel}: -G machine estimate vs ncu"
        );
        let &(_, pt, pd) = PTX_LEVEL.iter().find(|p| p.0 == kernel).unwrap();
        assert_eq!(
            (rep.totals.targets, rep.totals.divergent),
            (pt, pd),
            "{kernel}: PTX level"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn debug_flag_is_read_from_the_target_line() {
    assert!(is_debug_ptx(".version 9.5\n.target sm_90, debug\n"));
    assert!(!is_debug_ptx(".version 9.5\n.target sm_90\n// debug\n"));
}

/// Runs counted by run (`Sink::insts`, summed per run and spread over their pcs later) give the
/// report of every instruction counted on its own (`Sink::inst`), whatever the runs' mix: runs of
/// one start pc with different lengths, start pcs sharing a slot of the sink's table, branches
/// and single instructions between them, and a sink reused for a second block.
#[test]
fn runs_counted_by_run_equal_instructions_counted_one_by_one() {
    use warpscope_emu::Sink;
    let n_pcs = 400u32;
    let model = Arc::new(BranchModel {
        unconditional: (0..n_pcs).map(|pc| pc % 7 == 3).collect(),
        int_div_rem: (0..n_pcs).map(|pc| pc % 11 == 5).collect(),
    });
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut by_run = DivergenceSink::new(Arc::clone(&model));
    let mut one_by_one = DivergenceSink::new(Arc::clone(&model));
    let (mut rep_run, mut rep_one) = (DivergenceReport::new(), DivergenceReport::new());
    for block in 0..3 {
        for _ in 0..5000 {
            let r = next();
            // start pcs 64 apart share a slot; a few start pcs, so runs repeat
            let pc = 100 + (r % 5) as u32 * 64 + (r >> 8) as u32 % 3 + block * 20;
            let n = 1 + (r >> 16) as u32 % 4;
            let active = match (r >> 24) % 4 {
                0 => u32::MAX,
                1 => 0,
                _ => (r >> 32) as u32,
            };
            match (r >> 40) % 8 {
                0 => {
                    let taken = (r >> 44) as u32;
                    by_run.branch(pc, active, taken);
                    one_by_one.branch(pc, active, taken);
                }
                1 => {
                    Sink::inst(&mut by_run, 0, pc, active);
                    Sink::inst(&mut one_by_one, 0, pc, active);
                }
                _ => {
                    Sink::insts(&mut by_run, 0, pc, n, active);
                    for p in pc..pc + n {
                        Sink::inst(&mut one_by_one, 0, p, active);
                    }
                }
            }
        }
        rep_run.add(&mut by_run);
        rep_one.add(&mut one_by_one);
        by_run.clear();
        one_by_one.clear();
    }
    rep_run.finish();
    rep_one.finish();
    assert!(rep_one.totals.inst_executions > 0);
    assert_eq!(rep_run, rep_one);
}

/// A sink reused from block to block (`clear`: its pc window and its runs' slots kept, with no
/// executions) gives the report of a fresh sink per block: blocks whose runs start at other pcs,
/// run other lengths or lanes, and run some of the previous block's runs again (or none of them).
#[test]
fn a_reused_sink_counts_as_a_fresh_sink_per_block() {
    use warpscope_emu::Sink;
    let n_pcs = 600u32;
    let model = Arc::new(BranchModel {
        unconditional: (0..n_pcs).map(|pc| pc % 5 == 2).collect(),
        int_div_rem: (0..n_pcs).map(|pc| pc % 13 == 4).collect(),
    });
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut reused = DivergenceSink::new(Arc::clone(&model));
    let (mut rep_reused, mut rep_fresh) = (DivergenceReport::new(), DivergenceReport::new());
    let mut per_block = Vec::new();
    for block in 0..12u32 {
        let mut fresh = DivergenceSink::new(Arc::clone(&model));
        // a block with no events at all now and then; the others start where blocks before
        // them did (the same runs again), lower or higher
        let events = if block % 5 == 4 {
            0
        } else {
            800 + (next() % 800) as u32
        };
        let shift = [0u32, 0, 37, 0, 200, 3, 0, 90, 0, 0, 1, 0][block as usize];
        let mut counted = 0u64;
        for _ in 0..events {
            let r = next();
            let pc = 150 + shift + (r % 6) as u32 * 64 + (r >> 8) as u32 % 2;
            let n = 1 + (r >> 16) as u32 % 5;
            let active = match (r >> 24) % 5 {
                0 | 1 => u32::MAX,
                2 => 0,
                _ => (r >> 32) as u32,
            };
            match (r >> 40) % 10 {
                0 => {
                    let taken = (r >> 44) as u32;
                    reused.branch(pc, active, taken);
                    fresh.branch(pc, active, taken);
                }
                1 => {
                    Sink::inst(&mut reused, 0, pc, active);
                    Sink::inst(&mut fresh, 0, pc, active);
                    counted += 1;
                }
                _ => {
                    Sink::insts(&mut reused, 0, pc, n, active);
                    Sink::insts(&mut fresh, 0, pc, n, active);
                    counted += u64::from(n);
                }
            }
        }
        // the report of this block alone, from the reused sink: no count of an earlier block
        let mut alone = DivergenceReport::new();
        let mut check = reused.clone();
        alone.add(&mut check);
        alone.finish();
        assert_eq!(alone.totals.inst_executions, counted, "block {block}");
        per_block.push(alone.totals.inst_executions);
        rep_reused.add(&mut reused);
        reused.clear();
        rep_fresh.add(&mut fresh);
    }
    rep_reused.finish();
    rep_fresh.finish();
    assert!(per_block.contains(&0) && per_block.iter().filter(|&&c| c > 0).count() >= 8);
    assert_eq!(rep_reused.totals, rep_fresh.totals);
    assert_eq!(rep_reused.branches, rep_fresh.branches);
    assert_eq!(rep_reused.instructions, rep_fresh.instructions);
    let line = |pc: u32| Some(pc / 7);
    assert_eq!(rep_reused.by_line(&line), rep_fresh.by_line(&line));
}

/// `add_clear` (the fold's one pass: add, then zero) gives what `add` then `clear` gives, and the
/// sink it leaves counts the next block as a fresh one: blocks of runs, single instructions and
/// branches at shifting pcs (the window growing down and up), some with no events.
#[test]
fn add_clear_equals_add_then_clear() {
    use warpscope_emu::Sink;
    let model = Arc::new(BranchModel {
        unconditional: (0..700u32).map(|pc| pc % 6 == 1).collect(),
        int_div_rem: (0..700u32).map(|pc| pc % 9 == 2).collect(),
    });
    let mut x = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut fused = DivergenceSink::new(Arc::clone(&model));
    let mut apart = DivergenceSink::new(Arc::clone(&model));
    let (mut rep_fused, mut rep_apart, mut rep_fresh) = (
        DivergenceReport::new(),
        DivergenceReport::new(),
        DivergenceReport::new(),
    );
    for block in 0..10u32 {
        let mut fresh = DivergenceSink::new(Arc::clone(&model));
        let events = if block % 4 == 3 {
            0
        } else {
            500 + (next() % 500) as u32
        };
        let shift = [40u32, 0, 120, 5, 0, 300, 2, 0, 60, 1][block as usize];
        for _ in 0..events {
            let r = next();
            let pc = 100 + shift + (r % 5) as u32 * 64 + (r >> 8) as u32 % 3;
            let n = 1 + (r >> 16) as u32 % 4;
            let active = match (r >> 24) % 4 {
                0 => u32::MAX,
                1 => 0,
                _ => (r >> 32) as u32,
            };
            for s in [&mut fused, &mut apart, &mut fresh] {
                match (r >> 40) % 8 {
                    0 => s.branch(pc, active, (r >> 44) as u32),
                    1 => Sink::inst(s, 0, pc, active),
                    _ => Sink::insts(s, 0, pc, n, active),
                }
            }
        }
        rep_fused.add_clear(&mut fused);
        rep_apart.add(&mut apart);
        apart.clear();
        rep_fresh.add(&mut fresh);
    }
    for r in [&mut rep_fused, &mut rep_apart, &mut rep_fresh] {
        r.finish();
    }
    assert!(rep_fresh.totals.inst_executions > 0 && rep_fresh.totals.branch_executions > 0);
    assert_eq!(rep_fused, rep_apart);
    assert_eq!(rep_fused.totals, rep_fresh.totals);
    assert_eq!(rep_fused.branches, rep_fresh.branches);
    assert_eq!(rep_fused.instructions, rep_fresh.instructions);
}
