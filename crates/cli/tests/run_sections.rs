//! `warpscope run` answers the analyze sections per kernel: the per-line shared-memory table
//! (every launch, in the export and the report) and, with `--fix`, the fix advisor once per kernel.
//! The program is calibration/run/smem.cu (built by `warpscope run` with the wheels' nvcc).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(extra: &[&str], tag: &str) -> (Value, String) {
    let dir = std::env::temp_dir().join(format!("warpscope-run-sections-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let export = dir.join("smem.json");
    let report = dir.join("smem.html");
    let mut args = vec![
        "run",
        "--export",
        export.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push("calibration/run/smem.cu");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(&args)
        .current_dir(repo())
        .env(
            "WARPSCOPE_CUDA_ROOT",
            std::env::var("WARPSCOPE_CUDA_ROOT")
                .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)"),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    (v, std::fs::read_to_string(&report).unwrap())
}

fn launch<'a>(v: &'a Value, kernel: &str) -> &'a Value {
    v["launches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kernel"] == kernel)
        .unwrap_or_else(|| panic!("no launch of {kernel}"))
}

#[test]
fn run_carries_the_line_table_and_fix_advice_per_kernel() {
    let (v, page) = run(&["--fix"], "fix");
    let launches = v["launches"].as_array().unwrap();
    assert_eq!(launches.len(), 8);
    for l in launches {
        // The line table adds up to the launch's counters (which run.rs holds against the H100's).
        for (side, metric) in [
            ("load", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            ("store", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        ] {
            let sum: u64 = l["shared_lines"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["side"] == side)
                .map(|s| s["wavefronts"].as_u64().unwrap())
                .sum();
            assert_eq!(
                sum as f64,
                l["metrics"][metric].as_f64().unwrap(),
                "{} {side}",
                l["kernel"]
            );
        }
        // Each kernel is launched once here, so each launch carries its kernel's advice.
        assert!(l["fix"].is_object(), "{}", l["kernel"]);
    }
    // setColReadCol: a 32x32 int tile written and read down its columns by 32 warps: every
    // request hits one bank 32 times (32 wavefronts, 1 ideal), on lines 33 (store) and 35 (load).
    let col = launch(&v, "setColReadCol(int *)");
    let lines = col["shared_lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (line, side) in [(33, "store"), (35, "load")] {
        let l = lines.iter().find(|l| l["line"] == line).unwrap();
        assert_eq!(l["file"], "smem.cu");
        assert_eq!(l["side"], side);
        assert_eq!(l["instructions"], 32);
        assert_eq!(l["wavefronts"], 32 * 32);
        assert_eq!(l["ideal_wavefronts"], 32);
    }
    // Its advice: pad each row by one int (32 rows x 4 bytes), reaching the ideal.
    let fix = &col["fix"];
    let best = fix["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["recommended"] == true)
        .unwrap();
    assert_eq!(best["array"], "tile");
    assert_eq!(best["kind"], "pad");
    assert_eq!(best["wavefronts_before"], 2 * 32 * 32);
    assert_eq!(best["wavefronts_after"], best["ideal"]);
    assert_eq!(best["ideal"], 2 * 32);
    assert_eq!(best["extra_shared_bytes"], 32 * 4);
    // A conflict-free kernel gets an answer with nothing to fix.
    let row = launch(&v, "setRowReadRow(int *)");
    assert_eq!(row["fix"]["suggestions"].as_array().unwrap().len(), 0);
    // The report shows both per kernel.
    assert!(page.contains("Shared memory per source line"), "{page}");
    assert!(page.contains("smem.cu:33"));
    assert!(page.contains("Fix advice (recorded on launch"));
    assert!(page.contains("rows of 32 elements get 1 more"));
    // The program's picture (every launch's wavefronts against the ideal, branch efficiency) and
    // each kernel's source annotated: setColReadCol's store line with its 32 requests and 1024
    // wavefronts in the row.
    assert!(page.contains("<svg"), "no chart");
    assert!(page.contains("Shared-memory wavefronts per launch"));
    assert!(page.contains("Source: calibration/run/smem.cu"), "{page}");
    let row = page
        .split("<tr")
        .find(|r| r.contains("tile[threadIdx.x][threadIdx.y] = ") && r.contains(">33<"))
        .expect("line 33 annotated");
    assert!(row.contains(">32<") && row.contains(">1024<"), "{row}");

    // Without --fix: the same counters and line tables, no advice (the advisor records only on request).
    let (plain, page) = run(&[], "plain");
    for (a, b) in plain["launches"].as_array().unwrap().iter().zip(launches) {
        assert_eq!(a["metrics"], b["metrics"]);
        assert_eq!(a["shared_lines"], b["shared_lines"]);
        assert!(a.get("fix").is_none());
    }
    assert!(!page.contains("Fix advice"));
}
