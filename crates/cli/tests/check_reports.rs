//! What `warpscope check` tells a person, end to end on small kernels (`tests/data/check/`, PTX by
//! nvcc -O3 -lineinfo from the `.cu` beside it; `regen.sh` rebuilds them):
//! - code inlined from a CUDA header is named by the user's line, the header's line as context;
//! - a trap, a failing assert, a store to `__constant__` memory are error findings (exit 1) in
//!   sentences, and an out-of-bounds access names the thread, the access and the argument;
//! - same-value writes are their own kind, off by default, listed with a flag;
//! - a barrier removable only because each block ran one loop iteration is a note that says so;
//! - `--cooperative` launches a kernel with `grid.sync()`, and a block that skips it is found;
//! - a `.cu` checked as compiled says how to check it as written; when NVRTC and nvcc both fail,
//!   both errors are shown (these two need the CUDA wheels: `WARPSCOPE_CUDA_ROOT`).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::cuda_root;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/check")
}

/// `warpscope ARGS` run in the fixtures' folder (their `.file` names are relative to it).
fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(data())
        .env_remove("WARPSCOPE_CUDA_ROOT")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n{}\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `check ... --format json`: (exit status, the JSON).
fn check_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", "--ptx-widths", "--format", "json"];
    all.extend_from_slice(args);
    let o = warpscope(&all);
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
    (o.status.code().unwrap(), v)
}

fn findings<'a>(v: &'a Value, kind: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == kind)
        .collect()
}

#[test]
fn code_inlined_from_a_cuda_header_is_named_by_the_users_line() {
    // __barrier_sync (sm_30_intrinsics.hpp:99) inlined into arrive() (line 6), inlined at line 14:
    // the user's line, the header's line and the line that called arrive() as context
    let args = [
        "inlineBarrier.ptx",
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:256",
    ];
    let (code, v) = check_json(&args);
    assert_eq!(code, 1, "{v:#}");
    let d = findings(&v, "divergent_barrier");
    assert_eq!(d.len(), 1, "{v:#}");
    assert_eq!(d[0]["line"], 6, "{v:#}");
    assert_eq!(d[0]["file"], "inlineBarrier.cu", "{v:#}");
    let m = d[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with(
            "barrier at inlineBarrier.cu:6 (via sm_30_intrinsics.hpp:99; inlined, called from inlineBarrier.cu:14) reached by only part of the block"
        ),
        "{m}"
    );
    // SARIF: the user's line is the location, the header's a related one
    let o = warpscope(&[&["check", "--ptx-widths", "--format", "sarif"][..], &args[..]].concat());
    let s: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
    let r = &s["runs"][0]["results"][0];
    let main = &r["locations"][0]["physicalLocation"];
    assert_eq!(main["region"]["startLine"], 6, "{r:#}");
    assert!(
        main["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("inlineBarrier.cu")
    );
    let related = &r["relatedLocations"][0]["physicalLocation"];
    assert_eq!(related["region"]["startLine"], 99, "{r:#}");
    assert!(
        related["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("sm_30_intrinsics.hpp")
    );
}

#[test]
fn a_trap_an_assert_and_a_store_to_constant_memory_are_error_findings() {
    let launch = ["--grid", "1", "--block", "8", "--arg", "buf:32"];
    // a store through a generic pointer to __constant__ memory (as nvcc -G keeps it)
    let (code, v) = check_json(&[&["constStore.ptx"][..], &launch[..]].concat());
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v, "fault");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "error");
    assert_eq!(f[0]["line"], 28);
    let m = f[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with("kernel writes to __constant__ memory at faults.cu:28 (thread (0,0,0) of block (0,0,0), through a generic pointer): the GPU stops the launch with an illegal-address error"),
        "{m}"
    );
    assert!(!v.to_string().contains("ReadOnly"), "{v:#}");
    // __trap()
    let (code, v) = check_json(&[&["faults.ptx", "--kernel", "traps"][..], &launch[..]].concat());
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v, "fault");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["line"], 15);
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("thread (3,0,0) of block (0,0,0)"),
        "{v:#}"
    );
    // assert(threadIdx.x != 5)
    let (code, v) = check_json(&[&["faults.ptx", "--kernel", "asserts"][..], &launch[..]].concat());
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v, "assert");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["line"], 21);
    let m = f[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with("device-side assert `threadIdx.x != 5` failed at faults.cu:21 in thread (5,0,0)"),
        "{m}"
    );
    // the store nvcc -O3 turned into a trap: no source line, and the message says why
    let (code, v) = check_json(&[&["faults.ptx", "--kernel", "constWrite"][..], &launch[..]].concat());
    assert_eq!(code, 1, "{v:#}");
    let m = findings(&v, "fault")[0]["message"].as_str().unwrap().to_string();
    assert!(m.contains("a trap with no source line"), "{m}");
}

#[test]
fn an_out_of_bounds_access_names_the_line_thread_access_and_argument() {
    // 8 threads store 4 bytes each into a 10-byte buffer: thread 2 is the first out of it
    let args = [
        "faults.ptx",
        "--kernel",
        "tooSmall",
        "--grid",
        "1",
        "--block",
        "8",
        "--arg",
        "buf:10",
    ];
    let (code, v) = check_json(&args);
    assert_eq!(code, 1, "{v:#}");
    let f = findings(&v, "out_of_bounds");
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["line"], 9);
    let m = f[0]["message"].as_str().unwrap();
    assert_eq!(
        m,
        "invalid global store of 4 bytes at faults.cu:9 by thread (2,0,0) of block (0,0,0): address \
         0x100000008 is byte 8 of argument 0 `out` (a buffer of 10 bytes at 0x100000000), and the \
         4-byte access runs 2 bytes past its end; the GPU stops the launch with an illegal-address error"
    );
    // analyze shows the same sentence, no debug string and no pc
    let o = warpscope(&[&["analyze", "--ptx-widths", "--section", "banks"][..], &args[..]].concat());
    let out = text(&o);
    assert!(
        out.contains("invalid global store of 4 bytes at faults.cu:9 by thread (2,0,0)"),
        "{out}"
    );
    assert!(!out.contains("OutOfBounds") && !out.contains(" at pc "), "{out}");
    // and past the end of the buffer
    let (_, v) = check_json(&[
        "faults.ptx",
        "--kernel",
        "tooSmall",
        "--grid",
        "1",
        "--block",
        "8",
        "--arg",
        "buf:4",
    ]);
    let m = findings(&v, "out_of_bounds")[0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        m.contains("by thread (1,0,0)")
            && m.contains("is just past the end of argument 0 `out` (a buffer of 4 bytes"),
        "{m}"
    );
}

#[test]
fn same_value_writes_are_off_by_default_and_listed_with_a_flag() {
    let args = [
        "sameValue.ptx",
        "--kernel",
        "sameValue",
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:256",
        "--arg",
        "i32:1",
    ];
    let (code, v) = check_json(&args);
    assert_eq!(code, 0, "benign: no error {v:#}");
    assert!(findings(&v, "race").is_empty(), "{v:#}");
    assert!(findings(&v, "same_value_write").is_empty(), "{v:#}");
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("same-value write(s) not reported") && notes.contains("--report-same-value-writes"),
        "{notes}"
    );
    let (code, v) = check_json(&[&args[..], &["--report-same-value-writes"][..]].concat());
    assert_eq!(code, 0, "{v:#}");
    let same = findings(&v, "same_value_write");
    let lines: Vec<i64> = same.iter().map(|f| f["line"].as_i64().unwrap()).collect();
    assert!(
        lines.contains(&11) && lines.contains(&12),
        "the flag (line 11) and s[t % 2] (line 12): {v:#}"
    );
    assert!(same.iter().all(|f| f["severity"] == "warning"), "{v:#}");
    assert!(findings(&v, "race").is_empty(), "{v:#}");
    // different values stay a race
    let (code, v) = check_json(&[
        "sameValue.ptx",
        "--kernel",
        "lastWriterWins",
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:256",
    ]);
    assert_eq!(code, 1, "{v:#}");
    assert!(!findings(&v, "race").is_empty(), "{v:#}");
}

#[test]
fn a_barrier_removable_only_in_a_one_iteration_launch_is_a_note_that_says_so() {
    let args = |n: &'static str| {
        [
            "loopBarrier.ptx",
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:512",
            "--arg",
            "buf:256",
            "--arg",
            n,
        ]
    };
    let (code, v) = check_json(&args("i32:1"));
    assert_eq!(code, 0, "{v:#}");
    let r = findings(&v, "redundant_barrier");
    assert_eq!(r.len(), 1, "{v:#}");
    assert_eq!(r[0]["severity"], "note");
    assert_eq!(r[0]["line"], 11);
    let m = r[0]["message"].as_str().unwrap();
    assert!(
        m.contains("in this launch: every block runs one iteration of the loop around it (lines 7..11)"),
        "{m}"
    );
    assert_eq!(
        (v["warnings"].as_u64(), v["note_findings"].as_u64()),
        (Some(0), Some(1))
    );
    let o = warpscope(&[&["check", "--ptx-widths"][..], &args("i32:1")[..]].concat());
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("0 error(s), 0 warning(s), 1 note(s)"),
        "{}",
        text(&o)
    );
    let o = warpscope(
        &[
            &["check", "--ptx-widths", "--format", "sarif"][..],
            &args("i32:1")[..],
        ]
        .concat(),
    );
    let s: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(s["runs"][0]["results"][0]["level"], "note");
    // with two iterations it orders the second's stores after the first's reads: needed
    let (code, v) = check_json(&args("i32:2"));
    assert_eq!(code, 0, "{v:#}");
    assert!(findings(&v, "redundant_barrier").is_empty(), "{v:#}");
}

#[test]
fn a_cooperative_launch_checks_grid_sync_and_finds_a_block_that_skips_it() {
    let args = |skip: &'static str| {
        [
            "gridSync.ptx",
            "--grid",
            "4",
            "--block",
            "64",
            "--arg",
            "buf:16:zero",
            "--arg",
            "buf:16:zero",
            "--arg",
            skip,
        ]
    };
    let (code, v) = check_json(&[&args("i32:0")[..], &["--cooperative"][..]].concat());
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["findings"].as_array().unwrap().len(), 0, "{v:#}");
    // block 0 leaves before grid.sync(): the grid can never pass it
    let (code, v) = check_json(&[&args("i32:1")[..], &["--cooperative"][..]].concat());
    assert_eq!(code, 1, "{v:#}");
    let d = findings(&v, "divergent_barrier");
    assert_eq!(d.len(), 1, "{v:#}");
    assert_eq!(d[0]["line"], 14, "the grid.sync() line {v:#}");
    let m = d[0]["message"].as_str().unwrap();
    assert!(
        m.starts_with("grid-wide barrier (grid.sync()) at gridSync.cu:14 (via "),
        "{m}"
    );
    assert!(m.contains("a GPU would hang"), "{m}");
    // not cooperative: cooperative groups trap, and the message says what to do
    let (code, v) = check_json(&args("i32:0"));
    assert_eq!(code, 1, "{v:#}");
    assert!(
        findings(&v, "fault")[0]["message"]
            .as_str()
            .unwrap()
            .contains("--cooperative"),
        "{v:#}"
    );
    // analyze and fix take it too; sampling cannot split a cooperative grid
    for cmd in ["analyze", "fix"] {
        let o = warpscope(
            &[
                &[cmd, "--ptx-widths"][..],
                &args("i32:0")[..],
                &["--cooperative"][..],
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", text(&o));
    }
    let o = warpscope(
        &[
            &["check"][..],
            &args("i32:0")[..],
            &["--cooperative", "--blocks", "2"][..],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn a_cu_checked_as_compiled_says_how_to_check_it_as_written() {
    let root = cuda_root();
    let run = |extra: &[&str]| -> Value {
        let mut args = vec![
            "check",
            "sameValue.cu",
            "--kernel",
            "sameValue",
            "--grid",
            "1",
            "--block",
            "64",
        ];
        args.extend_from_slice(&[
            "--arg",
            "buf:256",
            "--arg",
            "i32:1",
            "--ptx-widths",
            "--format",
            "json",
        ]);
        args.extend_from_slice(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(&args)
            .current_dir(data())
            .env("WARPSCOPE_CUDA_ROOT", &root)
            .output()
            .unwrap();
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)))
    };
    let says = |v: &Value| {
        v["notes"]
            .to_string()
            .contains("--nvrtc-option=-G checks the source as written")
    };
    assert!(says(&run(&[])), "optimised build: the note");
    assert!(!says(&run(&["--nvrtc-option=-G"])), "-G: no note");
    let (_, v) = check_json(&[
        "sameValue.ptx",
        "--kernel",
        "sameValue",
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:256",
        "--arg",
        "i32:1",
    ]);
    assert!(!says(&v), "PTX given: no note");
}

#[test]
fn when_nvrtc_and_nvcc_both_fail_both_errors_are_shown_the_explaining_one_first() {
    let dir = std::env::temp_dir().join(format!("warpscope-both-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // a whole program with a syntax error: NVRTC stops at the host header, nvcc names the line
    let src = dir.join("whole.cu");
    std::fs::write(
        &src,
        "#include <cstdio>\n__global__ void k(int *out)\n{\n    out[threadIdx.x] = threadIdx.x\n}\nint main() { printf(\"hi\\n\"); }\n",
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args([
            "check", "whole.cu", "--grid", "1", "--block", "32", "--arg", "buf:128",
        ])
        .current_dir(&dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    let (first, second) = err
        .split_once("the other compiler failed too")
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        first.contains("nvcc failed") && first.contains("whole.cu(5)"),
        "{err}"
    );
    assert!(second.contains("NVRTC") && second.contains("cstdio"), "{err}");
}
