//! Cost of `warpscope check`'s analysis: the whole planted-bug suite (calibration/bugs, 23 kernels)
//! emulated with the hazard sink, beside the same launches with an empty sink (the checker's
//! overhead). The goal: checking a suite of seed-sized kernels takes well under a second. And the speed
//! benchmark's row for `warpscope check`: the 512x512 tiled matmul (crates/cli/fixtures/speed) with
//! the hazard sink, merged and turned into findings (scripts/bench-speed.sh times the command itself).

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

/// `warpscope check`'s emulation and analysis on the 512x512 matmul (no finding).
#[divan::bench(sample_count = 3)]
fn matmul_512_check(b: Bencher) {
    let program = warpscope_ptx::compile(include_str!("../../cli/fixtures/speed/matmul.ptx")).unwrap();
    let a: Vec<u8> = (0..512 * 512)
        .flat_map(|i| ((i % 7) as f32).to_le_bytes())
        .collect();
    let launch = Launch::new(
        [32, 32, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(a.clone()),
            Arg::Buffer(a),
            Arg::Buffer(vec![0; 512 * 512 * 4]),
            Arg::I32(512),
        ],
    );
    let cfg = Arc::new(HazardConfig::for_kernel(
        program.kernel("matmul").unwrap(),
        launch.block,
        launch.dyn_smem,
    ));
    b.bench(|| {
        let res = warpscope_emu::run(&program, "matmul", &launch, &Limits::default(), |blk| {
            HazardSink::new(Arc::clone(&cfg), blk)
        })
        .unwrap();
        let mut rep = HazardReport::new(Arc::clone(&cfg));
        for s in res.sinks {
            rep.merge(s);
        }
        let f = rep.findings(&|pc| warpscope_analysis::hazards::Loc {
            line: None,
            label: format!("pc {pc}"),
        });
        assert!(f.is_empty());
        f
    });
}
