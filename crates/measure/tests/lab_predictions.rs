//! warpscope's own predictions for `warpscope lab`, checked with no GPU against the counters ncu
//! measured in the recorded H100 lab run (`calibration/lab/h100/*.json`).
//!
//! The lab's kernel sources are compiled by NVRTC from the CUDA wheel for the recorded device's
//! compute capability, exactly as `warpscope lab` does on the GPU, and the ncu launches are emulated.
//! Needs `WARPSCOPE_CUDA_ROOT` (NVRTC in `lib/`, `nvdisasm` in `bin/`; `./scripts/test` exports it)
//! and fails, saying so, when it is unset.

use std::path::{Path, PathBuf};

use serde_json::Value;
use warpscope_gpu::lab::{Predictor, kernels};
use warpscope_measure::predict::{self, LabPredictor, NO_BRANCH_PCT};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cuda_root() -> PathBuf {
    let root = std::env::var_os("WARPSCOPE_CUDA_ROOT")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| {
            panic!(
                "WARPSCOPE_CUDA_ROOT is not set: these tests need NVRTC and nvdisasm from the CUDA wheels \
             (run ./scripts/test, or export WARPSCOPE_CUDA_ROOT=$(./scripts/cuda-wheels.sh))"
            )
        });
    PathBuf::from(root)
}

fn recorded(name: &str) -> Value {
    let p = repo().join("calibration/lab/h100").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The recorded device's compute capability, from `"device": "NAME (CC 9.0)"`.
fn recorded_cc(report: &Value) -> u32 {
    let d = report["device"].as_str().expect("device string");
    let cc = d
        .rsplit_once("(CC ")
        .and_then(|(_, r)| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no `(CC X.Y)` in device `{d}`"));
    let (maj, min) = cc.split_once('.').expect("X.Y");
    maj.parse::<u32>().unwrap() * 10 + min.parse::<u32>().unwrap()
}

fn predictor(report: &Value) -> LabPredictor {
    let p = LabPredictor::new(recorded_cc(report), Some(&cuda_root().join("lib")));
    assert_eq!(p.unavailable(), None, "prediction impossible: {}", p.label());
    p
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| x.as_u64().unwrap_or_else(|| panic!("not an integer: {x}")))
        .collect()
}

/// (shared load instructions, shared store instructions) per kernel, as ncu measured them on the seed
/// documents' kernels of the same names (`calibration/kernels/seeds_groundtruth_h100.tsv`, one block).
/// The lab run recorded wavefronts only; the lab's kernels make the same single `int` store and load
/// per thread as the seed kernels they were written after.
fn seed_instructions() -> Vec<(String, u64, u64)> {
    let p = repo().join("calibration/kernels/seeds_groundtruth_h100.tsv");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| {
        head.iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (k, ld, st) = (
        col("kernel"),
        col("shared_ld_instructions"),
        col("shared_st_instructions"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[k].to_string(), f[ld].parse().unwrap(), f[st].parse().unwrap())
        })
        .collect()
}

#[test]
fn smem_wavefronts_and_instructions_equal_the_h100() {
    let report = recorded("smem");
    let p = predictor(&report);
    let insts = seed_instructions();
    let kernels_run = report["data"]["kernels"].as_array().expect("data.kernels");
    assert_eq!(kernels_run.len(), 12, "the recorded smem run has 12 kernels");
    let mut failures = Vec::new();
    for k in kernels_run {
        let name = k["kernel"].as_str().unwrap();
        let block = u64s(&k["block"]);
        let block = (block[0] as u32, block[1] as u32);
        let dyn_smem = k["dyn_smem"].as_u64().unwrap() as u32;
        let ncu = u64s(&k["ncu"]);
        let got = p
            .smem(name, kernels::SMEM, block, dyn_smem)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got.machine_code, "{name}: widths must come from the machine code");
        let (ld_i, st_i) = insts
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, a, b)| (*a, *b))
            .unwrap_or_else(|| panic!("{name}: not in seeds_groundtruth_h100.tsv"));
        let want = (ncu[0], ncu[1], ld_i, st_i);
        let have = (
            got.load.wavefronts,
            got.store.wavefronts,
            got.load.instructions,
            got.store.instructions,
        );
        eprintln!("{name:<17} predicted ld/st wavefronts, ld/st instructions {have:?}, H100 {want:?}");
        if have != want {
            failures.push(format!("{name}: predicted {have:?}, H100 {want:?}"));
        }
        // The trait the lab calls gives the same wavefronts.
        assert_eq!(
            p.smem_wavefronts(name, kernels::SMEM, block, dyn_smem),
            Some((got.load.wavefronts, got.store.wavefronts)),
            "{name}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(p.notes().is_empty(), "{:?}", p.notes());
}

#[test]
fn divergence_equals_the_h100_for_g_and_o3_builds() {
    let report = recorded("divergence");
    let p = predictor(&report);
    let runs = report["data"]["runs"].as_array().expect("data.runs");
    assert_eq!(runs.len(), 4);
    // The ncu launch of the divergence experiment: 64 blocks of 64 threads.
    let (grid, block) = (64, 64);
    for r in runs {
        let name = r["kernel"].as_str().unwrap();
        let debug = match r["build"].as_str().unwrap() {
            "-G" => true,
            "-O3" => false,
            other => panic!("unknown build {other}"),
        };
        let ncu = r["ncu"].as_f64().unwrap();
        let got = p
            .branches(name, kernels::DIVERGENCE, debug, grid, block)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!(
            "{name} {}: predicted {} targets, {} divergent, {:.1} %; machine branches {:?}, PTX {}; ncu {ncu} %",
            r["build"],
            got.targets,
            got.divergent,
            got.efficiency_pct,
            got.machine_branches,
            got.ptx_branches
        );
        assert_eq!(got.efficiency_pct, ncu, "{name} {}", r["build"]);
        assert_eq!(
            p.branch_efficiency(name, kernels::DIVERGENCE, debug, grid, block),
            Some(got.efficiency_pct)
        );
        assert!(got.machine_branches.is_some(), "{name}: machine code not checked");
        if debug {
            // docs/divergence.md: 640 targets / 128 divergent and 576 / 0 on the H100 with -G.
            let want = if name == "mathKernel1" {
                (640, 128)
            } else {
                (576, 0)
            };
            assert_eq!((got.targets, got.divergent), want, "{name} -G");
        } else {
            // -O3: the branch is predicated away; neither the PTX nor the machine code has one.
            assert_eq!(
                (got.targets, got.ptx_branches, got.machine_branches),
                (0, 0, Some(0)),
                "{name} -O3"
            );
            assert_eq!(got.efficiency_pct, NO_BRANCH_PCT);
        }
    }
    assert!(p.notes().is_empty(), "{:?}", p.notes());
    assert!(p.label().starts_with("prediction (warpscope"), "{}", p.label());
}

#[test]
fn without_nvrtc_the_predictor_says_so_and_predicts_nothing() {
    // Only the named (missing) folder and the default one are searched, and an explicit path that
    // finds nothing is an error (no lookup by soname).
    let env = warpscope_gpu::nvrtc::SearchEnv {
        explicit: Some(std::env::temp_dir().join("warpscope-no-nvrtc-here")),
        ..Default::default()
    };
    let nvrtc = warpscope_gpu::nvrtc::Nvrtc::load_from(&env);
    if Path::new("/usr/local/cuda/lib64/libnvrtc.so").exists()
        || Path::new("/usr/local/cuda/lib64/libnvrtc.so.13").exists()
    {
        // A system CUDA is searched as well; then NVRTC is found and this case cannot be made here.
        assert!(nvrtc.is_ok());
        eprintln!(
            "SKIPPED: /usr/local/cuda provides NVRTC, so `no NVRTC` cannot be staged (counted as skipped)"
        );
        return;
    }
    let p = LabPredictor::with_nvrtc(90, nvrtc);
    let why = p.unavailable().expect("NVRTC must be unavailable");
    assert!(why.contains("NVRTC unavailable"), "{why}");
    assert!(
        p.label().starts_with("no prediction: NVRTC unavailable"),
        "{}",
        p.label()
    );
    assert_eq!(p.smem_wavefronts("sqRowRow", kernels::SMEM, (32, 32), 0), None);
    assert_eq!(
        p.branch_efficiency("mathKernel1", kernels::DIVERGENCE, true, 64, 64),
        None
    );
}

#[test]
fn an_unknown_kernel_is_a_note_not_a_panic() {
    let report = recorded("smem");
    let p = predictor(&report);
    assert_eq!(
        p.smem_wavefronts("noSuchKernel", kernels::SMEM, (32, 32), 0),
        None
    );
    let notes = p.notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("noSuchKernel"), "{notes:?}");
    assert!(p.label().contains("not predicted: noSuchKernel"), "{}", p.label());
}

#[test]
fn sass_branch_count_skips_the_trailing_self_loop() {
    // Shapes of `nvdisasm -g -c` output: a predicated branch, a plain one, and the unreachable
    // `BRA` to its own label after `EXIT`.
    let sass = "\t.section\t.text.k1,\"ax\",@progbits\n\
                \t/*0000*/                   MOV R1, c[0x0][0x28] ;\n\
                \t/*0010*/                   @!P0 BRA `(.L_x_1) ;\n\
                \t/*0020*/                   BRA `(.L_x_1) ;\n\
                .L_x_1:\n\
                \t/*0030*/                   EXIT ;\n\
                .L_x_9:\n\
                .L_x_2:\n\
                \t/*0040*/                   BRA `(.L_x_2);\n\
                \t.section\t.text.k2,\"ax\",@progbits\n\
                \t/*0000*/                   EXIT ;\n\
                .L_x_3:\n\
                \t/*0010*/                   BRA `(.L_x_3);\n";
    assert_eq!(predict::sass_branches(sass, "k1"), Some(2));
    assert_eq!(predict::sass_branches(sass, "k2"), Some(0));
    assert_eq!(predict::sass_branches(sass, "k3"), None);
}
