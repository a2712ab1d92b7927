//! `analyze --measure` and `calibrate` on recorded H100 output (calibration/measure/h100/, made by
//! calibration/measure/run.sh), with no GPU: the predictions of this build against the recorded
//! Nsight Compute CSV and GPU buffer hashes (`analyze --measured FILE`), and the recorded calibration
//! tables judged again (`calibrate --from DIR`). Without a GPU both live commands exit 1 with a
//! message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(repo())
        .args(args)
        .output()
        .unwrap()
}

/// The seed and classic rows of the equivalence manifest: (suite, name, kernel, grid, block, dyn, args).
fn manifest() -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(repo().join("calibration/equivalence/manifest.tsv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .map(|l| {
            head.iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>()
        })
        .filter(|r| r["suite"] == "seeds" || r["suite"] == "classic")
        .collect()
}

fn replay_args(r: &BTreeMap<String, String>, recorded: &str) -> Vec<String> {
    let mut a: Vec<String> = vec![
        "analyze".into(),
        r["ptx"].clone(),
        "--kernel".into(),
        r["kernel"].clone(),
        "--grid".into(),
        r["grid"].clone(),
        "--block".into(),
        r["block"].clone(),
        "--dyn-smem".into(),
        r["dyn_smem"].clone(),
        "--sass".into(),
        r["ptx"].replace(".ptx", ".sass"),
    ];
    for x in r["args"].split(' ') {
        a.push("--arg".into());
        a.push(x.into());
    }
    a.extend([
        "--measured".into(),
        recorded.into(),
        "--format".into(),
        "json".into(),
    ]);
    a
}

fn run_json(args: &[String]) -> (Option<i32>, Value, String) {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = warpscope(&refs);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), v, stderr)
}

/// Kernels whose branch counters are labelled estimates. scanBlellochCF and strided, whose machine
/// code's branches do not match the PTX's line for line (loops ptxas unrolled), were; counted on the
/// PTX they differed from the H100's. Their counters now come from following the machine code's
/// control flow, claimed exact and equal.
const BRANCH_ESTIMATES: &[&str] = &[];

#[test]
fn every_recorded_h100_counter_and_buffer_equals_the_prediction() {
    let rows = manifest();
    assert_eq!(rows.len(), 35);
    let mut exact_counters = 0;
    let mut branch_estimates = Vec::new();
    let mut buffers = 0;
    for r in &rows {
        let rec = format!("calibration/measure/h100/analyze/{}.json", r["name"]);
        let (code, v, stderr) = run_json(&replay_args(r, &rec));
        assert_eq!(code, Some(0), "{}: {stderr}\n{v}", r["name"]);
        let m = &v["measurement"];
        assert_eq!(m["differences"], 0, "{}: {m}", r["name"]);
        assert!(m["measured_on"].as_str().unwrap().contains("H100"), "{m}");
        for c in m["counters"].as_array().unwrap() {
            if c["claim"] == "exact" {
                assert!(c["measured"].is_number(), "{}: {c}", r["name"]);
                assert_eq!(c["equal"], true, "{}: {c}", r["name"]);
                exact_counters += 1;
            } else if c["metric"] == "smsp__sass_branch_targets.sum" {
                branch_estimates.push(r["name"].clone());
            }
        }
        let b = m["buffers"].as_array().unwrap();
        assert!(!b.is_empty(), "{}", r["name"]);
        for x in b {
            assert_eq!(x["equal"], true, "{}: {x}", r["name"]);
            assert_eq!(x["emulator_fnv1a64"], x["gpu_fnv1a64"]);
        }
        buffers += b.len();
    }
    // Shared-memory counters and branch counters (targets, divergent, uniform %) of every kernel.
    assert_eq!(branch_estimates, BRANCH_ESTIMATES);
    assert_eq!(exact_counters, 35 * 4 + (35 - BRANCH_ESTIMATES.len()) * 3);
    assert!(buffers >= 50, "{buffers}");
}

/// The tensor-core tile fixtures (`crates/cli/fixtures/tensor/`): `ldmatrix.x4` on a 64x64 f16 tile as
/// written (512 LDSM wavefronts), swizzled (64), and staged with `cp.async.cg`, measured on the H100
/// with `--section banks --measure`: every shared counter equal (LDSM wavefronts count in `op_ld`, as
/// ncu counts them), every buffer bit-exact.
#[test]
fn tensor_tiles_recorded_on_the_h100_equal_the_prediction() {
    let mut ld_wavefronts = Vec::new();
    let mut matrix = Vec::new();
    for k in [
        "ldsmTile",
        "ldsmTileSwizzled",
        "ldsmTileAsync",
        "ldsmTileAsyncPadded",
    ] {
        let rec = format!("calibration/measure/h100/analyze/tensor_{k}.json");
        let file = if k == "ldsmTileAsyncPadded" {
            "ldsmTilePadded"
        } else {
            "ldsmTile"
        };
        let ptx = format!("crates/cli/fixtures/tensor/{file}.ptx");
        let sass = format!("crates/cli/fixtures/tensor/{file}.sass");
        let args = [
            "analyze",
            &ptx,
            "--kernel",
            k,
            "--sass",
            &sass,
            "--grid",
            "1",
            "--block",
            "128",
            "--arg",
            "buf:8192",
            "--arg",
            "buf:8192:zero",
            "--section",
            "banks",
            "--measured",
            &rec,
            "--format",
            "json",
        ];
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let (code, v, stderr) = run_json(&args);
        assert_eq!(code, Some(0), "{k}: {stderr}\n{v}");
        let m = &v["measurement"];
        assert_eq!(m["differences"], 0, "{k}: {m}");
        for c in m["counters"].as_array().unwrap() {
            assert_eq!(c["equal"], true, "{k}: {c}");
            assert_eq!(c["claim"], "exact", "{k}: {c}");
            let metric = c["metric"].as_str().unwrap();
            if metric == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" {
                ld_wavefronts.push(c["measured"].as_f64().unwrap());
            }
            if metric.ends_with("_op_ldsm.sum") || metric.ends_with("_op_ldgsts.sum") {
                matrix.push((k, metric.to_string(), c["measured"].as_f64().unwrap()));
            }
        }
        for x in m["buffers"].as_array().unwrap() {
            assert_eq!(x["equal"], true, "{k}: {x}");
        }
    }
    assert_eq!(ld_wavefronts, [512.0, 64.0, 512.0, 64.0]);
    // LDSM and LDGSTS instructions and wavefronts, as ncu counts them: the padded rows make the
    // reads conflict-free and cost the cp.async.cg staging 168 wavefronts instead of 64
    let wf = |k: &str, op: &str| {
        matrix
            .iter()
            .find(|(kk, m, _)| {
                *kk == k && m == &format!("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
            })
            .map(|x| x.2)
    };
    assert_eq!(wf("ldsmTile", "ldsm"), Some(512.0));
    assert_eq!(wf("ldsmTileSwizzled", "ldsm"), Some(64.0));
    assert_eq!(wf("ldsmTileAsync", "ldgsts"), Some(64.0));
    assert_eq!(wf("ldsmTileAsyncPadded", "ldsm"), Some(64.0));
    assert_eq!(wf("ldsmTileAsyncPadded", "ldgsts"), Some(168.0));
    assert_eq!(wf("ldsmTile", "ldgsts"), None);
    assert_eq!(matrix.len(), 2 + 2 + 4 + 4);
}

#[test]
fn the_cubin_path_replays_too() {
    // NVRTC's CUBIN on the device; here NVRTC and the machine code come from the CUDA wheels.
    assert!(
        std::env::var_os("WARPSCOPE_CUDA_ROOT").is_some(),
        "WARPSCOPE_CUDA_ROOT is not set: run ./scripts/test (it installs the CUDA wheels and sets it)"
    );
    let args: Vec<String> = [
        "analyze",
        "calibration/kernels/seeds/sqRowCol.cu",
        "--grid",
        "1",
        "--block",
        "32,32",
        "--arg",
        "buf:4096",
        "--measured",
        "calibration/measure/h100/analyze/cu_sqRowCol.json",
        "--format",
        "json",
    ]
    .map(String::from)
    .to_vec();
    let (code, v, stderr) = run_json(&args);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(v["measurement"]["image"], "CUBIN (NVRTC)");
    assert_eq!(v["measurement"]["differences"], 0);
}

/// A recorded measurement changed in one counter and one buffer hash: both differences are
/// flagged, the status is 1, and the table says DIFFERS.
#[test]
fn a_changed_recording_is_flagged() {
    let row = manifest().into_iter().find(|r| r["name"] == "sqRowCol").unwrap();
    let text =
        std::fs::read_to_string(repo().join("calibration/measure/h100/analyze/sqRowCol.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let csv = v["measurement"]["ncu_csv"].as_str().unwrap().to_string();
    // The load wavefronts column: 1,024 in the recorded row; make it 992.
    let header: Vec<&str> = csv
        .lines()
        .find(|l| l.starts_with("\"ID\""))
        .unwrap()
        .split("\",\"")
        .collect();
    let col = header
        .iter()
        .position(|h| h.trim_matches('"') == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
        .unwrap();
    let changed: Vec<String> = csv
        .lines()
        .map(|l| {
            if l.starts_with("\"0\"") {
                let mut f: Vec<String> = l.split("\",\"").map(String::from).collect();
                assert_eq!(f[col], "1,024", "recorded value");
                f[col] = "992".into();
                f.join("\",\"")
            } else {
                l.to_string()
            }
        })
        .collect();
    v["measurement"]["ncu_csv"] = Value::String(changed.join("\n"));
    v["measurement"]["buffers"][0]["gpu_fnv1a64"] = Value::String("0123456789abcdef".into());
    let dir = std::env::temp_dir().join(format!("warpscope-measure-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sqRowCol.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let (code, out, stderr) = run_json(&replay_args(&row, file.to_str().unwrap()));
    assert_eq!(code, Some(1), "{stderr}");
    let m = &out["measurement"];
    assert_eq!(m["differences"], 2, "{m}");
    let ld = m["counters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["metric"] == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
        .unwrap();
    assert_eq!(
        (ld["predicted"].as_f64(), ld["measured"].as_f64(), &ld["equal"]),
        (Some(1024.0), Some(992.0), &Value::Bool(false))
    );
    assert_eq!(m["buffers"][0]["equal"], false);
    // The table view names the differences; CSV carries the ncu metric names.
    let mut table = replay_args(&row, file.to_str().unwrap());
    let n = table.len();
    table[n - 1] = "table".into();
    table.push("--no-color".into());
    let refs: Vec<&str> = table.iter().map(String::as_str).collect();
    let t = String::from_utf8(warpscope(&refs).stdout).unwrap();
    assert!(t.contains("DIFFERS") && t.contains("2 difference(s)"), "{t}");
    table[n - 1] = "csv".into();
    table.pop();
    let refs: Vec<&str> = table.iter().map(String::as_str).collect();
    let c = String::from_utf8(warpscope(&refs).stdout).unwrap();
    assert!(c.contains("metric,predicted,measured,equal,claim"), "{c}");
    assert!(
        c.contains("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,1024,992,DIFFERS,exact"),
        "{c}"
    );
    // The HTML page: both tables, the failing checks, no fetches.
    let page = dir.join("m.html");
    let mut html = replay_args(&row, file.to_str().unwrap());
    html.extend(["--html".into(), page.to_str().unwrap().into()]);
    let refs: Vec<&str> = html.iter().map(String::as_str).collect();
    assert_eq!(warpscope(&refs).status.code(), Some(1));
    let h = std::fs::read_to_string(&page).unwrap();
    assert!(h.starts_with("<!DOCTYPE html>"), "{}", &h[..100.min(h.len())]);
    assert!(
        h.contains("sqRowCol: counters, predicted beside measured"),
        "no counters page"
    );
    assert!(h.contains("output buffers, emulator vs GPU") && h.contains("DIFFERS") && h.contains("992"));
    assert!(!h.contains("http://") && !h.contains("https://"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_recording_that_is_not_one_is_a_clear_error() {
    let row = manifest().into_iter().find(|r| r["name"] == "sqRowRow").unwrap();
    let dir = std::env::temp_dir().join(format!("warpscope-measure-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.json");
    std::fs::write(&file, "{\"measurement\": {\"counters\": 3}").unwrap();
    let (code, _, stderr) = run_json(&replay_args(&row, file.to_str().unwrap()));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.json:1:") && stderr.contains("not valid JSON"),
        "{stderr}"
    );
    std::fs::write(&file, "{\"measurement\": {\"counters\": 3}}").unwrap();
    let (code, _, stderr) = run_json(&replay_args(&row, file.to_str().unwrap()));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("not a recorded measurement"), "{stderr}");
    assert!(!stderr.contains("panicked"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `calibrate --quick` on an H200 (CC 9.0, like the H100): every rule holds and every row equals the
/// checked-in H100 tables (calibration/measure/h200/).
#[test]
fn recorded_h200_calibration_holds_and_equals_the_h100_tables() {
    let out = warpscope(&[
        "calibrate",
        "--from",
        "calibration/measure/h200/calibrate",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["measured_on"].as_str().unwrap().starts_with("NVIDIA H200"),
        "{}",
        v["measured_on"]
    );
    let verdicts = v["verdicts"].as_array().unwrap();
    // bank (4 clauses), occupancy, latency (DRAM included), ldmatrix/stmatrix (3), cp.async (3)
    assert_eq!(
        verdicts.iter().filter(|x| x["status"] == "holds").count(),
        12,
        "{verdicts:?}"
    );
    assert!(verdicts.iter().all(|x| x["status"] != "breaks"));
    let checked = v["checked_in"].as_array().unwrap();
    assert_eq!(checked.len(), 3);
    assert_eq!(checked[2]["rows"], 360);
    for c in checked {
        assert_eq!(c["equal"], c["rows"], "{c}");
    }
}

#[test]
fn recorded_h100_calibration_holds_and_equals_the_checked_in_tables() {
    let out = warpscope(&[
        "calibrate",
        "--from",
        "calibration/measure/h100/calibrate",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["arch"], "sm_90");
    assert_eq!(v["quick"], true);
    assert!(
        v["measured_on"]
            .as_str()
            .unwrap()
            .starts_with("NVIDIA H100 80GB HBM3, CC 9.0")
    );
    assert_eq!(v["rules_basis"]["bank"]["status"], "measured");
    let verdicts = v["verdicts"].as_array().unwrap();
    for k in ["ldmatrix", "stmatrix", "cp_async"] {
        assert_eq!(v["rules_basis"][k]["status"], "measured", "{k}");
    }
    let holds: Vec<&Value> = verdicts.iter().filter(|x| x["status"] == "holds").collect();
    assert_eq!(holds.len(), 12, "{verdicts:?}");
    assert!(verdicts.iter().all(|x| x["status"] != "breaks"));
    // The matrix clauses, with the rows each judged.
    let rows = |prefix: &str| -> Vec<u64> {
        verdicts
            .iter()
            .filter(|x| x["rule"].as_str().unwrap().starts_with(prefix))
            .map(|x| x["rows"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(rows("ldmatrix/stmatrix"), [264, 264, 264]);
    // cp.async.ca (74: every .ca row of the quick battery, conflicts on both sides included since
    // the union rule; 68 under the nested-sides rule, 56 before calibration/cpasync/zfill.cu),
    // cp.async.cg (the sector rule judges 18 of the quick battery's rows), instructions, outside
    assert_eq!(rows("cp.async"), [74, 18, 96, 4]);
    for c in v["checked_in"].as_array().unwrap() {
        assert_eq!(c["equal"], c["rows"], "{c}");
    }
    assert_eq!(v["checked_in"][0]["rows"], 416);
    assert_eq!(v["checked_in"][1]["rows"], 80);
    assert_eq!(v["checked_in"][2]["rows"], 360);
    let lat = &v["latency_cycles"];
    assert!(
        (lat["dram_random_cycles"].as_f64().unwrap() - 689.2).abs() < 0.05 * 689.2,
        "{lat}"
    );
    // The same verdicts as the device printed (calibrate --from on the device).
    let on_device: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("calibration/measure/h100/calibrate_from_on_device.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(v["verdicts"], on_device["verdicts"]);
}

/// The full bank battery (3710 rows, `calibrate --no-matrix`) on the H100: every clause holds and
/// every row equals calibration/bank/.
#[test]
fn recorded_full_h100_bank_battery_holds_and_equals_the_checked_in_tables() {
    let out = warpscope(&[
        "calibrate",
        "--from",
        "calibration/measure/h100/calibrate_full",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["quick"], false);
    let verdicts = v["verdicts"].as_array().unwrap();
    let bank: Vec<(&str, u64)> = verdicts
        .iter()
        .filter(|x| x["battery"] == "bank")
        .map(|x| (x["status"].as_str().unwrap(), x["rows"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        bank,
        [("holds", 2024), ("holds", 843), ("holds", 843), ("holds", 3710)]
    );
    // The matrix battery was left out: said so, not counted as holding.
    let not_run: Vec<&Value> = verdicts.iter().filter(|x| x["status"] == "not run").collect();
    assert_eq!(not_run.len(), 2, "{verdicts:?}");
    assert_eq!(v["checked_in"][0]["rows"], 3710);
    assert_eq!(v["checked_in"][0]["equal"], 3710);
    let on_device: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("calibration/measure/h100/calibrate_full_from_on_device.json"))
            .unwrap(),
    )
    .unwrap();
    // The same verdicts as on the device (the wording of the `not run` evidence changed since).
    let key = |v: &Value| -> Vec<String> {
        v["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                format!(
                    "{} {} {} {} {}",
                    x["battery"], x["rule"], x["status"], x["rows"], x["breaking"]
                )
            })
            .collect()
    };
    assert_eq!(key(&v), key(&on_device));
}

#[test]
fn a_changed_calibration_row_breaks_its_rule() {
    let src = repo().join("calibration/measure/h100/calibrate");
    let dir = std::env::temp_dir().join(format!("warpscope-calib-test-{}", std::process::id()));
    for sub in ["bank", "occupancy", "latency"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for f in [
        "bank/measured_merge.tsv",
        "occupancy/driver.tsv",
        "latency/results.tsv",
    ] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    // Row `broadcast` of the 8-byte loads: 1 wavefront on the H100; claim 2.
    let text = std::fs::read_to_string(src.join("bank/measured.tsv")).unwrap();
    let mut changed = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut f: Vec<String> = l.split('\t').map(String::from).collect();
            if changed == 0 && f.len() == 40 && f[1] == "8" && f[2] == "ld" && f[3].starts_with("broadcast") {
                assert_eq!(f[4], "1");
                f[4] = "2".into();
                changed += 1;
            }
            f.join("\t")
        })
        .collect();
    assert_eq!(changed, 1);
    std::fs::write(dir.join("bank/measured.tsv"), lines.join("\n") + "\n").unwrap();
    let out = warpscope(&["calibrate", "--from", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken: Vec<&Value> = v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["status"] == "breaks")
        .collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0]["rule"].as_str().unwrap().starts_with("8/16-byte loads"));
    assert_eq!(broken[0]["breaking"], 1);
    let ev = broken[0]["evidence"][0].as_str().unwrap();
    assert!(
        ev.contains("broadcast") && ev.contains("measured 2, model 1"),
        "{ev}"
    );
    assert_eq!(v["checked_in"][0]["equal"], 415);
    // A malformed table is named with its line.
    std::fs::write(
        dir.join("latency/results.tsv"),
        "test\tcycles\nshared_cycles\tfast\n",
    )
    .unwrap();
    let out = warpscope(&["calibrate", "--from", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("latency/results.tsv:2") && e.contains("`fast` is not a number"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_a_gpu_measure_and_calibrate_exit_1_with_a_message() {
    let driver_here = warpscope_gpu::driver_present();
    let cases: [&[&str]; 2] = [
        &[
            "analyze",
            "crates/cli/fixtures/seeds/sqRowCol.ptx",
            "--grid",
            "1",
            "--block",
            "32,32",
            "--arg",
            "buf:4096",
            "--sass",
            "crates/cli/fixtures/seeds/sqRowCol.sass",
            "--measure",
            "--format",
            "json",
        ],
        &["calibrate", "--quick", "--format", "json"],
    ];
    for args in cases {
        let out = warpscope(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if driver_here && out.status.success() {
            // A machine with a GPU: the live run must judge as the recording does.
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                v.get("measurement").is_some() || v.get("verdicts").is_some(),
                "{v}"
            );
        } else {
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(stderr.starts_with("warpscope: "), "{stderr}");
            assert!(
                stderr.contains("no CUDA driver") || stderr.contains("no GPU"),
                "{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(out.stdout.is_empty());
        }
    }
}
