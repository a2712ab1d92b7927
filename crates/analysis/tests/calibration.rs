//! Every calibration kernel (calibration/kernels/manifest.tsv), emulated from its checked-in PTX and
//! reconciled with its checked-in machine code, must give exactly the H100 counters: the seeds'
//! ground truth (seeds_groundtruth_h100.tsv) and the measured classic suite (measured_h100.tsv).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::banks::{self, Side};
use warpscope_analysis::launchspec::{parse_args, parse_dims};
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tsv(path: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split('\t').collect();
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

/// (ld wavefronts, st wavefronts, ld instructions, st instructions) by emulation.
fn emulate(row: &HashMap<String, String>) -> [u64; 4] {
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
    assert!(
        recon.unmatched_lines.is_empty(),
        "{name}: unmatched lines {:?}",
        recon.unmatched_lines
    );
    let mut launch = Launch::new(
        parse_dims(&row["grid"]).unwrap(),
        parse_dims(&row["block"]).unwrap(),
        parse_args(&row["args"]).unwrap(),
    );
    launch.dyn_smem = row["dyn_smem"].parse().unwrap();
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let run = banks::run(
        &program,
        &row["kernel"],
        &launch,
        &Limits::default(),
        h100,
        Arc::new(recon),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(run.faults.is_empty(), "{name}: {:?}", run.faults);
    assert_eq!(run.report.unmodelled, 0, "{name}");
    let (ld, st) = (run.report.total(Side::Load), run.report.total(Side::Store));
    [ld.wavefronts, st.wavefronts, ld.instructions, st.instructions]
}

fn check_suite(suite: &str, truth_file: &str) {
    let truth: HashMap<String, [u64; 4]> = tsv(&repo().join("calibration/kernels").join(truth_file))
        .into_iter()
        .map(|r| {
            let v = |k: &str| r[k].parse::<u64>().unwrap();
            let key = r["kernel"].clone();
            let row = [
                v("shared_ld_wavefronts"),
                v("shared_st_wavefronts"),
                v("shared_ld_instructions"),
                v("shared_st_instructions"),
            ];
            (key, row)
        })
        .collect();
    let rows: Vec<_> = tsv(&repo().join("calibration/kernels/manifest.tsv"))
        .into_iter()
        .filter(|r| r["suite"] == suite)
        .collect();
    assert!(!rows.is_empty());
    let mut bad = Vec::new();
    for row in &rows {
        let want = truth
            .get(&row["kernel"])
            .unwrap_or_else(|| panic!("{} has no measurement", row["kernel"]));
        let got = emulate(row);
        println!("{:<20} emulated {:?} measured {:?}", row["kernel"], got, want);
        if &got != want {
            bad.push(format!("{}: emulated {got:?}, H100 {want:?}", row["kernel"]));
        }
    }
    assert!(
        bad.is_empty(),
        "[ld wf, st wf, ld inst, st inst] differ:\n{}",
        bad.join("\n")
    );
}

#[test]
fn seed_kernels_match_the_h100_ground_truth() {
    check_suite("seeds", "seeds_groundtruth_h100.tsv");
}

#[test]
fn classic_kernels_match_the_h100_measurements() {
    check_suite("classic", "measured_h100.tsv");
}
