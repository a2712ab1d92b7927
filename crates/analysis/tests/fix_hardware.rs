//! The fix advisor against the GPU (calibration/fix): for the seed's rectangular kernel and three own
//! kernels (a 16x16 float transpose, a float4 de-interleave and the strided reads that only a bank
//! permutation fixes), the change `warpscope fix` suggests was applied to the source (the `...Fix.cu`
//! files) and both versions were measured with ncu (measured_h100.tsv, H100, CC 9.0; the first three
//! pairs also on an H200, measured_h200.tsv, with equal counters). Checked here, from the checked-in
//! PTX and machine code:
//! * every kernel, original and fixed, emulates to exactly the measured wavefronts and instructions;
//! * the advisor's predicted wavefronts after the change equal the fixed kernel's measured ones, and the
//!   applied change is the one it suggests;
//! * the fixed kernels compute the same outputs as the originals (emulated on the same inputs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use warpscope_analysis::banks::Side;
use warpscope_analysis::fix::{self, AdviseConfig, Target, Transform};
use warpscope_analysis::launchspec::{parse_args, parse_dims};
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses};
use warpscope_emu::{Launch, Limits};
use warpscope_model::bank::{self, Config, Op};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../calibration/fix")
}

fn tsv(name: &str) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
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

struct Loaded {
    program: warpscope_ptx::Program,
    recon: Reconciliation,
    launch: Launch,
}

fn load(row: &HashMap<String, String>) -> Loaded {
    let name = &row["name"];
    let ptx = std::fs::read_to_string(dir().join(format!("ptx/{name}.ptx"))).unwrap();
    let sass = std::fs::read_to_string(dir().join(format!("ptx/{name}.sass"))).unwrap();
    let program = warpscope_ptx::compile(&ptx).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let kernels = warpscope_toolchain::sass::parse_disassembly(&sass).unwrap();
    let machine = kernels.iter().find(|k| k.name == row["kernel"]).unwrap();
    let recon = Reconciliation::build(&program, &row["kernel"], &machine_accesses(machine));
    assert!(recon.unmatched_lines.is_empty(), "{name}");
    let mut launch = Launch::new(
        parse_dims(&row["grid"]).unwrap(),
        parse_dims(&row["block"]).unwrap(),
        parse_args(&row["args"]).unwrap(),
    );
    launch.dyn_smem = row["dyn_smem"].parse().unwrap();
    Loaded {
        program,
        recon,
        launch,
    }
}

/// [ld wavefronts, st wavefronts, ld instructions, st instructions] of a trace on CC 9.0.
fn counters(trace: &fix::Trace) -> [u64; 4] {
    let h100 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let mut c = [0u64; 4];
    for (a, n) in &trace.accesses {
        let req = bank::Request::from_fn(a.width, Op::Load, |l| {
            (a.mask >> l & 1 == 1).then(|| a.addrs[l as usize])
        });
        for (side, op) in [(Side::Load, Op::Load), (Side::Store, Op::Store)] {
            if a.side == side || a.atomic {
                let wf = bank::wavefronts(h100, &Config::default(), &bank::Request { op, ..req }).unwrap();
                let k = usize::from(side == Side::Store);
                c[k] += u64::from(wf.wavefronts) * n;
                c[2 + k] += n;
            }
        }
    }
    c
}

/// The bank permutation stridedFix.cu applies: its `s_bank_col` table, 4-byte units, 32 per row.
fn applied_permutation() -> Transform {
    let src = std::fs::read_to_string(dir().join("stridedFix.cu")).unwrap();
    let line = src.lines().find(|l| l.contains("s_bank_col[8][32] =")).unwrap();
    let body = &line[line.find('=').unwrap() + 1..];
    let columns: Vec<u16> = body
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(columns.len(), 256);
    Transform::Permute {
        unit_bytes: 4,
        row_units: 32,
        columns,
    }
}

#[test]
fn the_h200_run_agrees_with_the_h100_run() {
    let h100 = tsv("measured_h100.tsv");
    for r in tsv("measured_h200.tsv") {
        let same = h100.iter().find(|x| x["kernel"] == r["kernel"]).unwrap();
        assert_eq!(&r, same);
    }
}

#[test]
fn suggested_changes_measure_as_predicted_and_keep_results() {
    let manifest = tsv("manifest.tsv");
    let measured: HashMap<String, [u64; 4]> = tsv("measured_h100.tsv")
        .into_iter()
        .map(|r| {
            let v = |k: &str| r[k].parse::<u64>().unwrap();
            (
                r["kernel"].clone(),
                [
                    v("shared_ld_wavefronts"),
                    v("shared_st_wavefronts"),
                    v("shared_ld_instructions"),
                    v("shared_st_instructions"),
                ],
            )
        })
        .collect();
    let applied: HashMap<&str, Transform> = [
        (
            "rectRowCol",
            Transform::Pad {
                row_bytes: 128,
                pad_bytes: 8,
            },
        ),
        (
            "transpose16",
            Transform::Pad {
                row_bytes: 128,
                pad_bytes: 8,
            },
        ),
        (
            "deinterleave4",
            Transform::Swizzle {
                bits: 3,
                base_shift: 4,
                shift: 4,
            },
        ),
        ("strided", applied_permutation()),
    ]
    .into_iter()
    .collect();
    let mut outputs: HashMap<String, Vec<Option<Vec<u8>>>> = HashMap::new();
    for row in &manifest {
        let k = &row["kernel"];
        let l = load(row);
        // 1. The emulation of this kernel equals its measurement.
        let trace = fix::record(
            &l.program,
            k,
            &l.launch,
            &Limits::default(),
            Arc::new(l.recon.clone()),
        )
        .unwrap();
        let got = counters(&trace);
        assert_eq!(
            got, measured[k],
            "{k}: emulated vs measured [ld wf, st wf, ld inst, st inst]"
        );
        let res = warpscope_emu::run(&l.program, k, &l.launch, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{k}");
        outputs.insert(k.clone(), res.buffers.clone());
        // 2. The advisor's prediction for the original equals the fixed kernel's measurement.
        if row["fixes"] == "-" {
            let arrays = fix::arrays(l.program.kernel(k).unwrap(), l.launch.dyn_smem);
            let source = std::fs::read_to_string(dir().join(&row["file"])).unwrap();
            let cfg = AdviseConfig {
                target: Target::parse("sm_90").unwrap(),
                threads: l.launch.block.iter().product(),
                registers: None,
                registers_from: "test".into(),
                source: Some(source),
            };
            let advice = fix::advise(&trace, &arrays, &cfg).unwrap();
            let s = advice
                .suggestions
                .iter()
                .find(|s| s.transform == applied[k.as_str()])
                .unwrap_or_else(|| panic!("{k}: the applied change is not among {:?}", advice.suggestions));
            let fixed = manifest.iter().find(|r| r["fixes"] == *k).unwrap();
            let m = measured[&fixed["kernel"]];
            assert_eq!(
                s.wavefronts_before,
                measured[k][0] + measured[k][1],
                "{k}: before"
            );
            assert_eq!(
                s.wavefronts_after,
                m[0] + m[1],
                "{k}: predicted after vs measured {}",
                fixed["kernel"]
            );
            assert_eq!(s.wavefronts_after, s.ideal, "{k}");
        }
    }
    // 3. Same results: each fixed kernel's outputs equal its original's.
    for row in manifest.iter().filter(|r| r["fixes"] != "-") {
        assert_eq!(
            outputs[&row["kernel"]], outputs[&row["fixes"]],
            "{} changes results",
            row["kernel"]
        );
    }
}
