//! calibration/run/bench10's programs (written for this project in shapes the earlier sets lack:
//! BFS by frontier queues and atomics, a Blelloch scan with and without conflict-free padding, an
//! Aho-Corasick matcher with its table in shared memory, cyclic reduction of tridiagonal systems,
//! list ranking by pointer jumping, Monte Carlo with an own xorshift generator, CRC-32 through
//! shared tables, a segmented sieve by shared `atomicOr`, a segmented warp scan and run-length
//! encoding by ballots, and a ray caster), built with the wheels' nvcc (`build.sh`), under
//! `warpscope run`: each exits 0 and prints its own host check's `PASS`; and `raytrace`'s
//! `render`, whose divergent branch between the floor and the sphere cases has no convergence
//! region of its own (both sides jump into shared code and start the same barriers), is followed
//! by the machine-code flow to the end and labelled exact (before: the flow stopped at "lanes wait
//! at a convergence barrier that never completes" and the branch counters were estimates).

mod support;

use std::process::Command;

const FOLDER: &str = "calibration/run/bench10";

/// Runs `program` under `warpscope run --export`, asserts it exits 0 and prints `PASS`, and
/// returns the export's launches.
fn run(program: &str) -> Vec<serde_json::Value> {
    let bin = support::built(FOLDER).join(program);
    let dir = support::scratch(&format!("bench10-{program}"));
    let export = dir.path().join("run.json");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--export"])
        .arg(&export)
        .arg("--")
        .arg(&bin)
        .env("WARPSCOPE_CUDA_ROOT", support::cuda_root())
        .env("WARPSCOPE_NO_CACHE", "1")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{program}: {printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        printed.lines().any(|l| l == format!("{program} PASS (0 bad)")),
        "{program}: {printed}"
    );
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    v["launches"].as_array().unwrap().clone()
}

macro_rules! passes {
    ($name:ident, $launches:expr) => {
        #[test]
        fn $name() {
            assert_eq!(run(stringify!($name)).len(), $launches);
        }
    };
}

passes!(bfsq, 16);
passes!(blelloch, 6);
passes!(dfa, 2);
passes!(cyclic, 3);
passes!(listrank, 16);
passes!(montec, 4);
passes!(crc, 3);
passes!(sieve, 2);
passes!(segred, 3);

#[test]
fn raytrace() {
    let launches = run("raytrace");
    assert_eq!(launches.len(), 2);
    for l in &launches {
        let m = &l["metrics"];
        assert_eq!(l["machine_flow_stop"], serde_json::Value::Null, "{l}");
        assert_eq!(m["warpscope__branch_counters_from_machine_flow"], 1.0);
        assert_eq!(m["warpscope__branch_counters_exact"], 1.0);
    }
}
