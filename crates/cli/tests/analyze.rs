//! `warpscope analyze` end to end, on the checked-in calibration fixtures (PTX + nvdisasm output):
//! totals equal the H100's counters, sampling extrapolates, widths fall back to PTX level when asked,
//! and bad input is a clear error with status 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run warpscope")
}

fn json(args: &[&str]) -> Value {
    let out = warpscope(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// [ld wavefronts, st wavefronts, ld instructions, st instructions] of a JSON result.
fn totals(v: &Value) -> [u64; 4] {
    let s = &v["shared"];
    let g = |side: &str, k: &str| s[side][k].as_u64().unwrap();
    [
        g("load", "wavefronts"),
        g("store", "wavefronts"),
        g("load", "instructions"),
        g("store", "instructions"),
    ]
}

/// The H100 row of `kernel` in calibration/kernels/`file`.
fn h100(file: &str, kernel: &str) -> [u64; 4] {
    let text = std::fs::read_to_string(repo().join("calibration/kernels").join(file)).unwrap();
    let row: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|r| r[0] == kernel)
        .unwrap();
    [row[5], row[6], row[7], row[8]].map(|x| x.parse().unwrap())
}

#[test]
fn struct_f2_json_contract_and_fused_width() {
    let v = json(&[
        "analyze",
        "crates/cli/fixtures/seeds/structF2.ptx",
        "--sass",
        "crates/cli/fixtures/seeds/structF2.sass",
        "--grid",
        "1",
        "--block",
        "32",
        "--arg",
        "buf:128",
        "--format",
        "json",
    ]);
    assert_eq!(v["kernel"], "structF2");
    assert_eq!(v["grid"], serde_json::json!([1, 1, 1]));
    assert_eq!(v["block"], serde_json::json!([32, 1, 1]));
    assert_eq!(totals(&v), h100("seeds_groundtruth_h100.tsv", "structF2"));
    assert_eq!(v["shared"]["load"]["ideal_wavefronts"], 2);
    assert_eq!(v["widths"], "machine code");
    assert_eq!(v["fused_groups"], 2);
    let insts = v["instructions"].as_array().unwrap();
    assert_eq!(insts.len(), 2, "one fused load and one fused store: {insts:?}");
    assert!(insts.iter().all(|i| i["width"] == 8));
    assert!(insts.iter().all(|i| i["fused"] == true));
    // A 64-bit access is served a half-warp per phase: 16 lanes x 2 words, one word in every bank.
    assert_eq!(insts[1]["worst"]["banks"], "11111111111111111111111111111111");
    assert_eq!(insts[1]["worst"]["wavefront_lanes"].as_array().unwrap().len(), 2);
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(
        lines
            .iter()
            .map(|l| l["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [14, 16]
    );
}

#[test]
fn ptx_widths_count_what_ptx_wrote() {
    let v = json(&[
        "analyze",
        "crates/cli/fixtures/seeds/structF2.ptx",
        "--ptx-widths",
        "--grid",
        "1",
        "--block",
        "32",
        "--arg",
        "buf:128",
        "--format",
        "json",
    ]);
    assert_eq!(v["widths"], "PTX-level");
    // Two scalar 32-bit accesses each way instead of one 64-bit one: 2 instructions, and each reads
    // every other word (stride 8 bytes), a 2-way conflict: 4 wavefronts where the H100 counts 2.
    assert_eq!(totals(&v), [4, 4, 2, 2]);
}

#[test]
fn scan_fuses_across_source_lines_and_matches_the_h100() {
    let v = json(&[
        "analyze",
        "crates/cli/fixtures/classic/scanBlelloch.ptx",
        "--sass",
        "crates/cli/fixtures/classic/scanBlelloch.sass",
        "--grid",
        "2",
        "--block",
        "256",
        "--arg",
        "buf:4096",
        "--arg",
        "buf:4096",
        "--format",
        "json",
    ]);
    assert_eq!(totals(&v), h100("measured_h100.tsv", "scanBlelloch"));
    assert_eq!(v["unmatched_lines"], serde_json::json!([]));
}

#[test]
fn sampling_extrapolates_and_says_so() {
    let args = |blocks: Option<&'static str>| {
        let mut a = vec![
            "analyze",
            "crates/cli/fixtures/classic/transposeF.ptx",
            "--sass",
            "crates/cli/fixtures/classic/transposeF.sass",
            "--grid",
            "2,2",
            "--block",
            "32,8",
            "--arg",
            "buf:16384",
            "--arg",
            "buf:16384",
            "--format",
            "json",
        ];
        if let Some(b) = blocks {
            a.extend(["--blocks", b]);
        }
        json(&a)
    };
    let full = args(None);
    assert_eq!(full["extrapolated"], false);
    assert_eq!(totals(&full), h100("measured_h100.tsv", "transposeF"));
    let one = args(Some("1"));
    assert_eq!(
        (one["extrapolated"].as_bool(), one["blocks_emulated"].as_u64()),
        (Some(true), Some(1))
    );
    // Every block of the transpose does the same shared accesses, so one block scaled by 4 is exact.
    assert_eq!(totals(&one), totals(&full));
    let text = warpscope(&[
        "analyze",
        "crates/cli/fixtures/classic/transposeF.ptx",
        "--ptx-widths",
        "--grid",
        "2,2",
        "--block",
        "32,8",
        "--arg",
        "buf:16384",
        "--arg",
        "buf:16384",
        "--blocks",
        "2",
    ]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains("2 of 4 blocks emulated; totals are extrapolated"),
        "{stdout}"
    );
    assert!(
        stdout.contains("W..............................."),
        "column read bank picture: {stdout}"
    );
}

#[test]
fn parse_errors_name_file_line_column() {
    let dir = std::env::temp_dir().join(format!("warpscope-analyze-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(&bad, ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate %r1;\n  ret;\n}\n")
        .unwrap();
    let out = warpscope(&["analyze", bad.to_str().unwrap(), "--grid", "1", "--block", "32"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:6:", bad.display())), "{err}");
    assert!(err.contains("frobnicate"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_flags_are_status_2_with_the_reason() {
    let base = [
        "analyze",
        "crates/cli/fixtures/seeds/charTid.ptx",
        "--grid",
        "1",
        "--block",
        "32",
    ];
    let out = warpscope(&[&base[..], &["--arg", "buf:12:ones"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown fill `ones`"));
    let out = warpscope(&[
        "analyze",
        "crates/cli/fixtures/seeds/charTid.ptx",
        "--grid",
        "0",
        "--block",
        "32",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--grid"));
    let out = warpscope(&[&base[..], &["--kernel", "nope", "--arg", "buf:128"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no kernel `nope` (kernels: charTid)"));
}

#[test]
fn cuda_source_is_compiled_and_reconciled() {
    let root = std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "analyze",
            "calibration/kernels/classic/matmulTiled.cu",
            "--grid",
            "4,4",
            "--block",
            "16,16",
            "--arg",
            "buf:16384",
            "--arg",
            "buf:16384",
            "--arg",
            "buf:16384",
            "--format",
            "json",
        ])
        .env("WARPSCOPE_CUDA_ROOT", &root)
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["widths"], "machine code", "{}", v["widths_note"]);
    assert_eq!(totals(&v), h100("measured_h100.tsv", "matmulTiled"));
}

#[test]
fn ptx_input_is_assembled_with_ptxas_and_reconciled() {
    let root = std::env::var("WARPSCOPE_CUDA_ROOT")
        .expect("WARPSCOPE_CUDA_ROOT must name the CUDA wheels' root (./scripts/test exports it)");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "analyze",
            "crates/cli/fixtures/classic/scanBlelloch.ptx",
            "--grid",
            "2",
            "--block",
            "256",
            "--arg",
            "buf:4096",
            "--arg",
            "buf:4096",
            "--format",
            "json",
        ])
        .env("WARPSCOPE_CUDA_ROOT", &root)
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["widths"], "machine code", "{}", v["widths_note"]);
    assert!(v["widths_note"].as_str().unwrap().contains("ptxas + nvdisasm"));
    assert_eq!(totals(&v), h100("measured_h100.tsv", "scanBlelloch"));
}

#[test]
fn a_module_with_one_bad_kernel_still_analyses_the_good_one() {
    let dir = std::env::temp_dir().join(format!("warpscope-perkernel-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.ptx");
    std::fs::write(
        &file,
        ".version 9.5\n.target sm_90\n.address_size 64\n\
         .visible .entry good()\n{\n .reg .b32 %r<4>;\n .shared .align 4 .b8 t[128];\n\
         mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, t;\n add.s32 %r3, %r3, %r2;\n\
         st.shared.u32 [%r3], %r1;\n ret;\n}\n\
         .visible .entry bad()\n{\n .reg .b32 %r<2>;\n frobnicate.u32 %r1, %r0;\n ret;\n}\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let v = json(&[
        "analyze",
        f,
        "--kernel",
        "good",
        "--ptx-widths",
        "--grid",
        "1",
        "--block",
        "32",
        "--format",
        "json",
    ]);
    // one conflict-free 32-lane store of 4 bytes: 1 instruction, 1 wavefront
    assert_eq!(totals(&v), [0, 1, 0, 1]);
    let out = warpscope(&["analyze", f, "--kernel", "bad", "--grid", "1", "--block", "32"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{f}:18:")), "{err}");
    assert!(err.contains("frobnicate.u32"), "{err}");
    let out = warpscope(&["analyze", f, "--grid", "1", "--block", "32"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("good") && err.contains("bad"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
