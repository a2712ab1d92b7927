//! The fix advisor on the calibration suites: every kernel of calibration/kernels (seeds and classic)
//! whose shared accesses conflict on the H100 gets a recommended change that brings its wavefronts to
//! the ideal; kernels without conflicts get none; every change is a layout bijection that keeps each
//! access whole (so it cannot change results); the seed's own fixes come out (IPAD 1 for the square
//! tile, IPAD 2 for the rectangular one); and the architecture what-if shows where padding by one
//! word is not enough.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::fix::{self, Advice, AdviseConfig, ArrayInfo, Target, Trace, Transform};
use warpscope_analysis::launchspec::{parse_args, parse_dims};
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(repo().join("calibration/kernels/manifest.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            head.iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

struct Case {
    name: String,
    trace: Trace,
    arrays: Vec<ArrayInfo>,
    threads: u32,
    source: String,
}

fn load(row: &HashMap<String, String>) -> Case {
    let fixtures = repo().join("crates/cli/fixtures").join(&row["suite"]);
    let name = &row["name"];
    let ptx = std::fs::read_to_string(fixtures.join(format!("{name}.ptx"))).unwrap();
    let sass = std::fs::read_to_string(fixtures.join(format!("{name}.sass"))).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let kernels = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
    let machine = kernels
        .iter()
        .find(|k| k.name == row["kernel"])
        .expect("kernel in sass");
    let recon = Reconciliation::build(&program, &row["kernel"], &machine_accesses(machine));
    let block = parse_dims(&row["block"]).unwrap();
    let mut launch = Launch::new(
        parse_dims(&row["grid"]).unwrap(),
        block,
        parse_args(&row["args"]).unwrap(),
    );
    launch.dyn_smem = row["dyn_smem"].parse().unwrap();
    let trace = fix::record(
        &program,
        &row["kernel"],
        &launch,
        &Limits::default(),
        Arc::new(recon),
    )
    .unwrap();
    assert!(trace.faults.is_empty(), "{name}: {:?}", trace.faults);
    let kernel = program.kernel(&row["kernel"]).unwrap();
    let source = std::fs::read_to_string(repo().join("calibration/kernels").join(&row["file"])).unwrap();
    Case {
        name: name.clone(),
        arrays: fix::arrays(kernel, launch.dyn_smem),
        trace,
        threads: block.iter().product(),
        source,
    }
}

fn advise(c: &Case, target: &str) -> Advice {
    let cfg = AdviseConfig {
        target: Target::parse(target).unwrap(),
        threads: c.threads,
        registers: Some(32),
        registers_from: "test".into(),
        source: Some(c.source.clone()),
    };
    fix::advise(&c.trace, &c.arrays, &cfg).unwrap_or_else(|e| panic!("{}: {e}", c.name))
}

/// Kernels of the suites whose shared accesses conflict on the H100 (by the measured counters:
/// wavefronts above one per request for 4-byte accesses, or above the width's minimum).
const CONFLICTING: &[&str] = &[
    "sqColCol",
    "sqRowCol",
    "sqRowColDyn",
    "rectColCol",
    "rectRowCol",
    "rectRowColDyn",
    "col32",
    "transposeF",
    "transposeD",
    "reduceStrided",
    "scanBlelloch",
    "float4Tile",
    "broadcast",
    "strided",
];

/// Kernels whose conflicts no single padding or swizzle removes, with the best wavefronts reached.
/// `strided` reads one array with lane strides 2, 3 and 8 words and fills it in 32-word rows: a
/// brute-force search over every row length 1..256 words with pads 1..32, two-level pads, every
/// Swizzle<B,M,S> and pad-then-swizzle compositions leaves at least one 2-way conflict per warp
/// (the search in calibration/fix/README.md); the best change removes 56 of the 64 excess
/// wavefronts.
const NO_LAYOUT_FIX: &[(&str, u64)] = &[("strided", 96)];

#[test]
fn every_conflicting_suite_kernel_gets_an_ideal_fix() {
    let mut conflicting = Vec::new();
    let mut bad = Vec::new();
    for row in manifest() {
        let c = load(&row);
        let a = advise(&c, "sm_90");
        let arrays: Vec<_> = a.arrays.iter().filter(|r| r.conflicts).collect();
        if !arrays.is_empty() {
            conflicting.push(c.name.clone());
        }
        for r in &arrays {
            let rec = a
                .suggestions
                .iter()
                .find(|s| s.array == r.info.name && s.recommended);
            match rec {
                Some(s) if s.wavefronts_after == s.ideal && s.wavefronts_before == r.cost.wavefronts => {
                    println!(
                        "{:<18} {:<6} {:>5} -> {:>5} (ideal {:>5}) +{:>4} B  {}",
                        c.name,
                        s.array,
                        s.wavefronts_before,
                        s.wavefronts_after,
                        s.ideal,
                        s.extra_shared_bytes,
                        s.change
                    );
                }
                Some(s) if NO_LAYOUT_FIX.contains(&(c.name.as_str(), s.wavefronts_after)) => {
                    assert!(
                        a.notes
                            .iter()
                            .any(|n| n.contains("no single padding or swizzle reaches the ideal")),
                        "{}: the advice must say the best is not ideal: {:?}",
                        c.name,
                        a.notes
                    );
                    println!(
                        "{:<18} {:<6} best {} (ideal {}): {}",
                        c.name, s.array, s.wavefronts_after, s.ideal, s.change
                    );
                }
                other => bad.push(format!(
                    "{} {}: {:?}",
                    c.name,
                    r.info.name,
                    other.map(|s| (s.wavefronts_after, s.ideal))
                )),
            }
        }
        for s in &a.suggestions {
            let arr = c.arrays.iter().find(|x| x.name == s.array).unwrap();
            let width = a
                .arrays
                .iter()
                .find(|x| x.info.name == s.array)
                .unwrap()
                .access_bytes;
            assert!(
                s.transform.preserves_accesses(arr.size, width),
                "{}: {:?} is not a layout bijection keeping {width}-byte accesses whole",
                c.name,
                s.transform
            );
        }
        if arrays.is_empty() {
            assert!(
                a.suggestions.is_empty(),
                "{}: suggestions without conflicts",
                c.name
            );
        }
    }
    assert!(bad.is_empty(), "no ideal fix:\n{}", bad.join("\n"));
    assert_eq!(conflicting, CONFLICTING);
}

fn case(name: &str) -> Case {
    load(manifest().iter().find(|r| r["name"] == name).unwrap())
}

#[test]
fn the_seed_fixes_come_out() {
    // Square tile: one int of padding per row, declared as the seed does.
    let a = advise(&case("sqRowCol"), "sm_90");
    let s = &a.suggestions[0];
    assert!(s.recommended);
    assert_eq!(
        (s.kind.as_str(), s.wavefronts_before, s.wavefronts_after),
        ("pad", 1056, 64)
    );
    assert_eq!(
        s.transform,
        Transform::Pad {
            row_bytes: 128,
            pad_bytes: 4
        }
    );
    assert_eq!(s.extra_shared_bytes, 128);
    let e = s.source.as_ref().unwrap();
    assert_eq!(e.after.trim(), "__shared__ int tile[BDIMY][BDIMX + 1];");
    // Rectangular tile: one int is not enough, two are (the seed's IPAD 2).
    let a = advise(&case("rectRowCol"), "sm_90");
    let s = &a.suggestions[0];
    assert_eq!(
        s.transform,
        Transform::Pad {
            row_bytes: 128,
            pad_bytes: 8
        }
    );
    assert_eq!((s.wavefronts_before, s.wavefronts_after, s.ideal), (272, 32, 32));
    assert_eq!(
        s.source.as_ref().unwrap().after.trim(),
        "__shared__ int tile[BDIMY][BDIMX + 2];"
    );
    // Dynamic shared memory: the index expression and the launch size change.
    let a = advise(&case("rectRowColDyn"), "sm_90");
    let s = &a.suggestions[0];
    assert_eq!(
        s.transform,
        Transform::Pad {
            row_bytes: 128,
            pad_bytes: 8
        }
    );
    assert_eq!(s.extra_shared_bytes, 128);
    let e = s.source.as_ref().unwrap();
    assert!(e.after.contains("row * (32 + 2) + col"), "{}", e.after);
    assert!(e.after.contains("2048 -> 2176 bytes"), "{}", e.after);
    // Occupancy is reported with the new shared total.
    let occ = s.occupancy_after.unwrap();
    assert_eq!(occ.shared_bytes, 2176);
}

#[test]
fn float4_tiles_get_a_padding_and_a_swizzle_alternative() {
    let a = advise(&case("float4Tile"), "sm_90");
    let sw = a
        .suggestions
        .iter()
        .find(|s| s.kind == "swizzle")
        .expect("a swizzle");
    assert_eq!(sw.wavefronts_after, sw.ideal);
    assert_eq!(sw.extra_shared_bytes, 0);
    let Transform::Swizzle { base_shift, .. } = sw.transform else {
        panic!()
    };
    assert_eq!(base_shift, 4, "16-byte elements move as a whole");
}

#[test]
fn what_if_shows_where_one_word_of_padding_is_not_enough() {
    // Seed 000's remark: padding int tile[32][32] by one int fixes the column read on 4-byte banks,
    // but not always in Kepler's 8-byte mode.
    let targets = Target::parse_list("sm_20,sm_35,sm_35:8B,sm_90").unwrap();
    let c = case("sqRowCol");
    let w = fix::what_if(&c.trace, &c.arrays, &targets).unwrap();
    assert_eq!(w.columns, vec!["sm_20", "sm_35", "sm_35:8B", "sm_90"]);
    let one_word = Transform::Pad {
        row_bytes: 128,
        pad_bytes: 4,
    };
    let row = w.rows.iter().find(|r| r.transform == Some(one_word)).unwrap();
    let cells: Vec<(u64, u64)> = row.cells.iter().map(|c| (c.wavefronts, c.ideal)).collect();
    assert_eq!(cells, vec![(64, 64), (64, 64), (80, 64), (64, 64)]);
    // Which access: the column load `tile[threadIdx.x][threadIdx.y]` (line 13): the warps with an odd
    // threadIdx.y put lanes 0 and 31 on one 8-byte bank (words 0 and 512): 48 wavefronts, not 32.
    let r = w
        .remarks
        .iter()
        .find(|r| r.target == "sm_35:8B")
        .expect("a Kepler remark");
    assert_eq!(r.layout, one_word.describe());
    assert_eq!(r.enough_on, vec!["sm_20", "sm_35", "sm_90"]);
    assert_eq!((r.cost.wavefronts, r.cost.ideal), (48, 32));
    let ptx = std::fs::read_to_string(repo().join("crates/cli/fixtures/seeds/sqRowCol.ptx")).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap();
    let info = program.inst_info(r.pc);
    assert!(info.text.contains("ld.shared"), "{}", info.text);
    assert_eq!(info.loc.map(|l| l.line), Some(13));
    // The fix there: 8 bytes per 256-byte row (two tile rows), ideal in 8-byte mode.
    let fix_there = Transform::Pad {
        row_bytes: 256,
        pad_bytes: 8,
    };
    assert_eq!(r.fix_there.as_deref(), Some(fix_there.describe().as_str()));
    let row = w.rows.iter().find(|r| r.transform == Some(fix_there)).unwrap();
    assert_eq!((row.cells[2].wavefronts, row.cells[2].ideal), (64, 64));
    // On the rectangular tile one int is not enough even on 4-byte banks (the seed's IPAD 2).
    let c = case("rectRowCol");
    let w = fix::what_if(&c.trace, &c.arrays, &targets).unwrap();
    let row = w.rows.iter().find(|r| r.transform == Some(one_word)).unwrap();
    assert!(row.cells[3].wavefronts > row.cells[3].ideal);
}

/// Suggestions never change results: every suggestion for every suite kernel, applied through the
/// emulator's shared-layout remap, gives the same output buffers as the original layout.
#[test]
fn suggestions_keep_the_emulated_outputs() {
    use warpscope_emu::SharedRemap;
    let mut checked = 0;
    for row in manifest() {
        let c = load(&row);
        let a = advise(&c, "sm_90");
        if a.suggestions.is_empty() {
            continue;
        }
        let fixtures = repo().join("crates/cli/fixtures").join(&row["suite"]);
        let ptx = std::fs::read_to_string(fixtures.join(format!("{}.ptx", row["name"]))).unwrap();
        let program = warpscope_ptx::compile(&ptx).unwrap();
        let mut launch = Launch::new(
            parse_dims(&row["grid"]).unwrap(),
            parse_dims(&row["block"]).unwrap(),
            parse_args(&row["args"]).unwrap(),
        );
        launch.dyn_smem = row["dyn_smem"].parse().unwrap();
        let k = &row["kernel"];
        let base = warpscope_emu::run(&program, k, &launch, &Limits::default(), |_| ()).unwrap();
        assert!(base.faults.is_empty());
        for s in &a.suggestions {
            let arr = c.arrays.iter().find(|x| x.name == s.array).unwrap();
            let (base_off, len) = (arr.offset, arr.size);
            let remap = match s.transform {
                Transform::Pad { row_bytes, pad_bytes } => SharedRemap::Pad {
                    base: base_off,
                    len,
                    row_bytes,
                    pad_bytes,
                },
                Transform::Swizzle {
                    bits,
                    base_shift,
                    shift,
                } => SharedRemap::Swizzle {
                    base: base_off,
                    len,
                    bits: bits as u8,
                    base_shift: base_shift as u8,
                    shift: shift as u8,
                },
            };
            let mut l = launch.clone();
            l.remap = vec![remap];
            let res = warpscope_emu::run(&program, k, &l, &Limits::default(), |_| ()).unwrap();
            assert!(res.faults.is_empty(), "{k} {:?}: {:?}", s.transform, res.faults);
            assert_eq!(
                res.buffers, base.buffers,
                "{k}: {:?} changes the outputs",
                s.transform
            );
            checked += 1;
        }
    }
    assert!(checked >= 28, "{checked} suggestions checked");
}
