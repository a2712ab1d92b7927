//! The fix advisor on shared accesses whose addresses come from the data the kernel reads
//! (`tests/data/data_addressed.cu`, built with `nvcc -arch=sm_90 -O3 -lineinfo`; `.ptx` and the
//! cubin's `nvdisasm -g -c` beside it): a histogram's `atomicAdd(&h[in[i] & 255], 1)` gets no
//! padding, swizzle or bank-permutation table fitted to one input, but a note that says where the
//! conflicts come from and what helps; a gather at table-chosen rows beside a column read keeps
//! the column read's padding.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::fix::{self, Advice, AdviseConfig, Target, Trace, Transform};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits, Program};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn program() -> Program {
    let ptx = std::fs::read_to_string(data().join("data_addressed.ptx")).unwrap();
    warpscope_ptx::compile(&ptx).unwrap()
}

fn trace(program: &Program, kernel: &str, launch: &Launch) -> Trace {
    let sass = std::fs::read_to_string(data().join("data_addressed.sass")).unwrap();
    let kernels = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
    let machine = kernels.iter().find(|k| k.name == kernel).expect("kernel in sass");
    let recon = Reconciliation::build(program, kernel, &machine_accesses(machine));
    let t = fix::record(program, kernel, launch, &Limits::default(), Arc::new(recon)).unwrap();
    assert!(t.faults.is_empty(), "{kernel}: {:?}", t.faults);
    t
}

fn advise(program: &Program, kernel: &str, t: &Trace, threads: u32) -> Advice {
    let k = program.kernel(kernel).unwrap();
    let cfg = AdviseConfig {
        target: Target::parse("sm_90").unwrap(),
        threads,
        registers: Some(32),
        registers_from: "test".into(),
        source: Some(std::fs::read_to_string(data().join("data_addressed.cu")).unwrap()),
    };
    fix::advise(t, &fix::arrays(k, 0), &cfg).unwrap()
}

/// The pcs of `kernel` whose PTX text starts with `op`.
fn pcs_of(program: &Program, kernel: &str, op: &str) -> Vec<u32> {
    let k = program.kernel(kernel).unwrap();
    (k.entry..k.end)
        .filter(|&pc| program.inst_info(pc).text.trim_start().starts_with(op))
        .collect()
}

/// The line of `pc` in data_addressed.cu (file 1 of the PTX): its own `.loc`, or the call site an
/// intrinsic of a toolkit header was inlined at.
fn line(program: &Program, pc: u32) -> u32 {
    program.frames(pc).iter().find(|l| l.file == 1).unwrap().line
}

#[test]
fn a_histograms_atomics_get_a_note_and_no_table_fitted_to_the_input() {
    let p = program();
    let launch = Launch::new(
        [8, 1, 1],
        [256, 1, 1],
        parse_args("buf:262144 buf:1024:zero i32:65536").unwrap(),
    );
    let t = trace(&p, "hist", &launch);
    // the one data-addressed instruction is the shared atomic of line 10; the zeroing store
    // (line 7) and the read of the bins (line 12) index by thread
    let atoms = pcs_of(&p, "hist", "atom.shared.add");
    assert_eq!(atoms.len(), 1);
    assert_eq!(line(&p, atoms[0]), 10);
    assert_eq!(t.data_pcs.keys().copied().collect::<Vec<_>>(), atoms);
    assert_eq!(t.data_pcs[&atoms[0]], "line 10");
    let a = advise(&p, "hist", &t, 256);
    let h = a.arrays.iter().find(|r| r.info.name == "h").unwrap();
    assert!(h.conflicts, "random keys conflict: {:?}", h.cost);
    assert!(a.suggestions.is_empty(), "{:#?}", a.suggestions);
    let note = a
        .notes
        .iter()
        .find(|n| n.starts_with("h: "))
        .expect("a note on h");
    let excess = h.cost.wavefronts - h.cost.ideal;
    assert!(
        note.contains(&format!("all {excess} excess wavefronts")),
        "{note}"
    );
    assert!(
        note.contains("(line 10)") && note.contains("__match_any_sync"),
        "{note}"
    );
}

#[test]
fn a_gather_at_data_chosen_rows_keeps_the_column_reads_padding() {
    let p = program();
    let launch = Launch::new(
        [4, 1, 1],
        [32, 32, 1],
        parse_args("buf:16384 buf:16384 buf:16384:zero").unwrap(),
    );
    let t = trace(&p, "tgather", &launch);
    // shared loads: the column read `tile[x][y]` (line 23) and the gather (line 24)
    let loads = pcs_of(&p, "tgather", "ld.shared");
    let lines: Vec<u32> = loads.iter().map(|&pc| line(&p, pc)).collect();
    assert_eq!(lines, [23, 24]);
    assert_eq!(t.data_pcs.keys().copied().collect::<Vec<_>>(), [loads[1]]);
    let a = advise(&p, "tgather", &t, 1024);
    let tile = a.arrays.iter().find(|r| r.info.name == "tile").unwrap();
    // the gather's columns are distinct, so as written it does not conflict whatever the rows;
    // no layout change keeps that and fixes the column read, and no table is fitted to the rows
    assert!(
        a.suggestions.iter().all(|s| s.kind != "permute"),
        "{:#?}",
        a.suggestions
    );
    let best = a
        .suggestions
        .iter()
        .find(|s| s.recommended)
        .expect("a recommendation");
    // the seed's fix of a 32x32 float tile read by columns: one more float per row
    assert_eq!(
        best.transform,
        Transform::Pad {
            row_bytes: 128,
            pad_bytes: 4
        }
    );
    // its figures are of every request of the array, the gather's included: the column read
    // reaches its ideal and the gather, now on data-chosen banks, does not
    assert_eq!(best.wavefronts_before, tile.cost.wavefronts);
    assert!(best.wavefronts_after < best.wavefronts_before);
    assert!(best.wavefronts_after > best.ideal);
    let note = a
        .notes
        .iter()
        .find(|n| n.starts_with("tile: "))
        .expect("a note on tile");
    assert!(
        note.contains("requests at line 24") && note.contains("on this launch's data"),
        "{note}"
    );
}
