//! Cost of `warpscope check`'s analysis: the whole planted-bug suite (calibration/bugs, 23 kernels)
//! emulated with the hazard sink, beside the same launches with an empty sink (the checker's
//! overhead). The goal: checking a suite of seed-sized kernels takes well under a second.

use std::path::PathBuf;
use std::sync::Arc;

use divan::Bencher;
use warpscope_analysis::hazards::{HazardConfig, HazardReport, HazardSink};
use warpscope_emu::{Arg, Launch, Limits, Program};

fn main() {
    divan::main();
}

struct Case {
    program: Program,
    kernel: String,
    launch: Launch,
}

fn suite() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../calibration/bugs");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    let triple = |s: &str| -> [u32; 3] {
        let v: Vec<u32> = s.split(',').map(|x| x.parse().unwrap()).collect();
        [v[0], v[1], v[2]]
    };
    manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n: usize = f[4].parse().unwrap();
            let src = std::fs::read_to_string(dir.join(format!("ptx/{}.ptx", f[0]))).unwrap();
            let mut launch = Launch::new(
                triple(f[1]),
                triple(f[2]),
                vec![
                    Arg::Buffer(vec![0; 4 * n]),
                    Arg::Buffer(vec![0; 4 * n]),
                    Arg::I32(n as i32),
                ],
            );
            launch.dyn_smem = f[3].parse().unwrap();
            Case {
                program: warpscope_ptx::compile(&src).unwrap(),
                kernel: f[0].to_string(),
                launch,
            }
        })
        .collect()
}

#[divan::bench]
fn suite_with_hazard_sink(b: Bencher) {
    let cases = suite();
    b.bench(|| {
        let mut n = 0;
        for c in &cases {
            let k = c.program.kernel(&c.kernel).unwrap();
            let cfg = Arc::new(HazardConfig::for_kernel(k, c.launch.block, c.launch.dyn_smem));
            let res = warpscope_emu::run(&c.program, &c.kernel, &c.launch, &Limits::default(), |blk| {
                HazardSink::new(Arc::clone(&cfg), blk)
            })
            .unwrap();
            let mut rep = HazardReport::new(Arc::clone(&cfg));
            for s in res.sinks {
                rep.merge(s);
            }
            n += rep.redundant_barriers().len();
        }
        n
    });
}

#[divan::bench]
fn suite_with_empty_sink(b: Bencher) {
    let cases = suite();
    b.bench(|| {
        for c in &cases {
            warpscope_emu::run(&c.program, &c.kernel, &c.launch, &Limits::default(), |_| ()).unwrap();
        }
    });
}
