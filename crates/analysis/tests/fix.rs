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

/// Kernels whose conflicts no padding or swizzle removes, so that the recommended change is a bank
/// permutation: `strided` reads one array with lane strides 2, 3 and 8 words and fills it in 32-word
/// rows; no per-row rotation (padding), XOR (swizzle) or affine map serves the three strides (see
/// `no_rotation_xor_or_affine_row_map_fixes_strided` below), and the best padding leaves 96
/// wavefronts against the ideal 88.
const PERMUTATION_ONLY: &[(&str, u64)] = &[("strided", 96)];

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
            if let Some(&(_, best_layout)) = PERMUTATION_ONLY.iter().find(|(n, _)| *n == c.name) {
                let s = rec.expect("a recommendation");
                assert_eq!(s.kind, "permute", "{}", c.name);
                let best_pad = a
                    .suggestions
                    .iter()
                    .filter(|x| x.array == r.info.name && x.kind != "permute")
                    .map(|x| x.wavefronts_after)
                    .min();
                assert_eq!(best_pad, Some(best_layout), "{}: best padding or swizzle", c.name);
                assert!(
                    a.notes
                        .iter()
                        .any(|n| n.contains("no padding or swizzle reaches the ideal")
                            && n.contains("a bank permutation does")),
                    "{}: the advice must say why: {:?}",
                    c.name,
                    a.notes
                );
            } else {
                assert_ne!(
                    rec.map(|s| s.kind.as_str()),
                    Some("permute"),
                    "{}: a permutation where a padding or swizzle would do",
                    c.name
                );
            }
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
    let row = w
        .rows
        .iter()
        .find(|r| r.transform.as_ref() == Some(&one_word))
        .unwrap();
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
    let row = w
        .rows
        .iter()
        .find(|r| r.transform.as_ref() == Some(&fix_there))
        .unwrap();
    assert_eq!((row.cells[2].wavefronts, row.cells[2].ideal), (64, 64));
    // On the rectangular tile one int is not enough even on 4-byte banks (the seed's IPAD 2).
    let c = case("rectRowCol");
    let w = fix::what_if(&c.trace, &c.arrays, &targets).unwrap();
    let row = w
        .rows
        .iter()
        .find(|r| r.transform.as_ref() == Some(&one_word))
        .unwrap();
    assert!(row.cells[3].wavefronts > row.cells[3].ideal);
}

/// Suggestions never change results: every suggestion for every suite kernel, applied through the
/// emulator's shared-layout remap, gives the same output buffers as the original layout.
#[test]
fn suggestions_keep_the_emulated_outputs() {
    let (mut checked, mut permutations) = (0, 0);
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
            let remap = s.transform.remap(arr);
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
            permutations += usize::from(s.kind == "permute");
        }
    }
    assert!(checked >= 29, "{checked} suggestions checked");
    assert!(permutations >= 1, "a bank permutation was checked");
}

/// Why `strided` needs a bank permutation. Its stores write whole 32-word rows, so every row of a
/// conflict-free layout is a permutation of the 32 banks. Every padding moves each row by a
/// rotation (bank = col + h(row)), every XOR swizzle by a XOR (bank = col ^ h(row)) or a fixed
/// linear map. Exhaustively: no per-row rotation, no per-row XOR and no per-row odd-multiplier
/// affine map (bank = a(row) * col + h(row)) makes the reads at word 2L, 3L and 8L (L = lane)
/// conflict-free together, while the advisor's permutation does (the other tests).
#[test]
fn no_rotation_xor_or_affine_row_map_fixes_strided() {
    // Reads touch rows 0..7; only rows 0..2 hold words of the 2L and 3L reads. A read is
    // conflict-free when its 32 words land on 32 distinct banks.
    fn reads_ok(bank: &dyn Fn(u32) -> u32) -> bool {
        [2u32, 3, 8].iter().all(|&s| {
            let mut seen = 0u32;
            (0..32).all(|l| {
                let b = 1u32 << bank(s * l);
                let fresh = seen & b == 0;
                seen |= b;
                fresh
            })
        })
    }
    let mut tried = 0u64;
    // Rows 3..7 only hold 8L words (columns 0, 8, 16, 24); give them the residues mod 8 that rows
    // 0..2 leave, which is the only way the 8L read can be conflict-free under these maps.
    let rest = |used: &[u32]| -> Option<Vec<u32>> {
        let mut seen = [false; 8];
        for &u in used {
            if std::mem::replace(&mut seen[(u % 8) as usize], true) {
                return None;
            }
        }
        Some((0..8).filter(|&x| !seen[x as usize]).collect())
    };
    for a in [[1u32; 3]]
        .into_iter()
        .chain((0..16 * 16 * 16).map(|k| [2 * (k % 16) + 1, 2 * (k / 16 % 16) + 1, 2 * (k / 256) + 1]))
    {
        for h1 in 0..32u32 {
            for h2 in 0..32u32 {
                let Some(r) = rest(&[0, h1, h2]) else { continue };
                let h: Vec<u32> = [0, h1, h2].into_iter().chain(r).collect();
                let mul = |row: usize| if row < 3 { a[row] } else { 1 };
                tried += 1;
                assert!(
                    !reads_ok(&|w: u32| (mul((w / 32) as usize) * (w % 32) + h[(w / 32) as usize]) % 32),
                    "rotation/affine {a:?} {h:?} works"
                );
                if a == [1, 1, 1] {
                    assert!(
                        !reads_ok(&|w: u32| (w % 32) ^ h[(w / 32) as usize]),
                        "xor {h:?} works"
                    );
                }
            }
        }
    }
    assert!(tried > 1_000_000, "{tried}");
}
