//! The bank sink's pattern cache (counts per instruction, lane pattern and base modulo the bank
//! period) against the uncached sink, which asks the bank model for every request, on the same
//! launches: the calibration suites (seeds and classics, reconciled with their machine code), the
//! planted-bug suite, and the tiled matmul of the speed benchmark, on one architecture of every bank
//! family. Every counter, every worst request and the unmodelled count must be equal.

use std::path::PathBuf;
use std::sync::Arc;

use warpscope_analysis::banks::{BankReport, BankSink, Side};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Arg, Launch, Limits, Program};
use warpscope_model::arch::Arch;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel)
}

fn triple(s: &str) -> [u32; 3] {
    let v: Vec<u32> = s.split(',').map(|x| x.parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

/// Tesla (16 banks), Fermi, Kepler (4-byte mode: 64-word pairs), Maxwell, Volta, Hopper.
const ARCHS: [&str; 6] = ["sm_13", "sm_20", "sm_35", "sm_52", "sm_70", "sm_90"];

fn report(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    arch: &'static Arch,
    recon: &Arc<Reconciliation>,
    cached: bool,
) -> BankReport {
    let res = warpscope_emu::run(program, kernel, launch, &Limits::default(), |b| {
        if cached {
            BankSink::new(b, arch, Arc::clone(recon))
        } else {
            BankSink::uncached(b, arch, Arc::clone(recon))
        }
    })
    .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    let mut r = BankReport::default();
    for s in res.sinks {
        r.merge(s.into_report());
    }
    r
}

/// Compares the two sinks on every architecture; returns the sm_90 report.
fn compare(
    name: &str,
    program: &Program,
    kernel: &str,
    launch: &Launch,
    recon: Reconciliation,
) -> BankReport {
    let recon = Arc::new(recon);
    let mut h100 = None;
    for a in ARCHS {
        let arch = Arch::parse(a).unwrap();
        let cached = report(program, kernel, launch, arch, &recon, true);
        let uncached = report(program, kernel, launch, arch, &recon, false);
        assert_eq!(cached, uncached, "{name} on {a}");
        h100 = Some(cached);
    }
    h100.unwrap()
}

#[test]
fn cache_equals_the_model_on_the_calibration_suites() {
    let manifest = std::fs::read_to_string(repo("calibration/kernels/manifest.tsv")).unwrap();
    let mut n = 0;
    let mut fused = 0;
    for line in manifest.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let (suite, name, kernel) = (f[0], f[1], f[3]);
        let dir = format!("crates/cli/fixtures/{suite}/{name}");
        let program =
            warpscope_ptx::compile(&std::fs::read_to_string(repo(&format!("{dir}.ptx"))).unwrap()).unwrap();
        let sass = std::fs::read_to_string(repo(&format!("{dir}.sass"))).unwrap();
        let k = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
        let machine = k.iter().find(|k| k.name == kernel).unwrap();
        let recon = Reconciliation::build(&program, kernel, &machine_accesses(machine));
        fused += recon.fused_groups;
        let mut launch = Launch::new(triple(f[4]), triple(f[5]), parse_args(f[7]).unwrap());
        launch.dyn_smem = f[6].parse().unwrap();
        let r = compare(name, &program, kernel, &launch, recon);
        assert!(!r.insts.is_empty(), "{name}: no shared access");
        n += 1;
    }
    assert!(n >= 34 && fused > 0, "{n} kernels, {fused} fused groups");
}

#[test]
fn cache_equals_the_model_on_the_planted_bug_suite() {
    let manifest = std::fs::read_to_string(repo("calibration/bugs/manifest.tsv")).unwrap();
    let mut unmodelled = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (kernel, len) = (f[0], f[4].parse::<usize>().unwrap());
        let src = std::fs::read_to_string(repo(&format!("calibration/bugs/ptx/{kernel}.ptx"))).unwrap();
        let program = warpscope_ptx::compile(&src).unwrap();
        let input: Vec<u8> = (0..len).flat_map(|i| ((i % 17) as f32).to_le_bytes()).collect();
        let mut launch = Launch::new(
            triple(f[1]),
            triple(f[2]),
            vec![
                Arg::Buffer(vec![0; 4 * len]),
                Arg::Buffer(input),
                Arg::I32(len as i32),
            ],
        );
        launch.dyn_smem = f[3].parse().unwrap();
        let r = compare(kernel, &program, kernel, &launch, Reconciliation::ptx_level());
        unmodelled += r.unmodelled;
    }
    // Whether or not some request is unmodelled, the two paths agree on it; record what the suite
    // exercises so a change in it shows.
    assert_eq!(unmodelled, 0);
}

#[test]
fn cache_equals_the_model_on_the_tiled_matmul() {
    let dir = "crates/cli/fixtures/speed/matmul";
    let program =
        warpscope_ptx::compile(&std::fs::read_to_string(repo(&format!("{dir}.ptx"))).unwrap()).unwrap();
    let sass = std::fs::read_to_string(repo(&format!("{dir}.sass"))).unwrap();
    let k = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
    let recon = Reconciliation::build(&program, "matmul", &machine_accesses(&k[0]));
    assert!(recon.fused_groups > 0, "ptxas fuses the row reads of `as`");
    let n = 128usize;
    let g = (n / 16) as u32;
    let launch = Launch::new(
        [g, g, 1],
        [16, 16, 1],
        parse_args(&format!("buf:{0} buf:{0} buf:{0}:zero i32:{n}", n * n * 4)).unwrap(),
    );
    let r = compare("matmul", &program, "matmul", &launch, recon.clone());
    // Each of the (n/16)^2 blocks runs n/16 tiles; every warp stores one word of each tile.
    let stores = r.total(Side::Store);
    assert_eq!(stores.instructions, (g * g * 8 * g * 2) as u64);
    assert_eq!(stores.wavefronts, stores.ideal_wavefronts);
    // And with PTX-level widths (no fusion), too.
    compare(
        "matmul, PTX widths",
        &program,
        "matmul",
        &launch,
        Reconciliation::ptx_level(),
    );
}
