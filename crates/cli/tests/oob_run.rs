//! Accesses past the end of `cudaMalloc` buffers under `warpscope run`: where the H200 has the
//! bytes mapped (the rest of a buffer's 512-byte slot, the next buffer, the driver's memory 4 MiB
//! on) the program runs on, as on the GPU, with a note, and `--check` reports each access; past
//! the last 2 MiB page of a 3 MiB buffer the launch faults (calibration/oob: `h200/probe.txt`,
//! `h200/layout.txt`; the program is `calibration/oob/overrun.cu`).

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

mod support;
use support::{build_program, cuda_root};

fn program() -> &'static (tempfile::TempDir, PathBuf) {
    static P: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    P.get_or_init(|| {
        let dir = support::scratch("oob");
        let bin = build_program(
            dir.path(),
            "../../../../calibration/oob/overrun.cu",
            "overrun",
            &["-lineinfo"],
        );
        (dir, bin)
    })
}

fn with_mode(mode: &[&str], args: &[&str]) -> (Output, String, String) {
    let (dir, bin) = program();
    let o = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .arg("--")
        .arg(bin)
        .args(mode)
        .current_dir(dir.path())
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, err)
}

/// The H200's answers: 4-, 400- and 512-byte buffers 512 bytes apart (`layout.txt`: 4 B, 100 B
/// and 256 B take 512 each, 512 B takes 512); reads past a small buffer's end return 0 and writes
/// there run (`probe.txt`: every offset up to 4 MiB past a 256-byte buffer is `cudaSuccess`, read
/// value 0); one past a 512-byte buffer is the next buffer's first element.
#[test]
fn an_off_by_one_overrun_of_small_buffers_runs_on_as_on_the_h200() {
    let (o, out, err) = with_mode(&["small"], &["run"]);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    for line in [
        "b-a 512 c-b 512 d-c 512 res-d 512",
        "scale: cudaSuccess",
        "b[0] 1 b[99] 199",
        "peek: cudaSuccess",
        // in[100] read 0 (2 * 0 + 1 = 1.0f), the write of out[100] landed; c[128] is d[0]
        "b[100] bits 0x3f800000 c[128] 41",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} missing:\n{out}");
    }
    assert!(
        err.contains("warpscope: note: launch 0 scale")
            && err.contains("is outside every allocation but in mapped memory"),
        "{err}"
    );
    assert!(!err.contains("in no buffer"), "{err}");
}

#[test]
fn check_reports_each_overrun_with_its_line_thread_and_distance() {
    let (dir, _) = program();
    let export = dir.path().join("small.json");
    let (o, out, err) = with_mode(
        &["small"],
        &["run", "--check=memcheck", "--export", export.to_str().unwrap()],
    );
    // the program's own output is the GPU's; the findings make the status 1
    assert!(out.contains("b[100] bits 0x3f800000 c[128] 41"), "{out}");
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    let found: Vec<(usize, i64, String)> = v["launches"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l["findings"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |f| (i, f))
        })
        .filter(|(_, f)| f["kind"] == "out_of_bounds")
        .map(|(i, f)| {
            (
                i,
                f["line"].as_i64().unwrap_or(-1),
                f["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    // scale's in[100] and out[100] (line 11, thread 100), peek's b[100] (line 13); peek's c[128]
    // is inside d, no finding
    assert_eq!(found.len(), 3, "{found:#?}");
    let (l0, l1, l2) = (&found[0], &found[1], &found[2]);
    assert_eq!(
        (l0.0, l0.1, l1.0, l1.1, l2.0, l2.1),
        (0, 11, 0, 11, 1, 13),
        "{found:#?}"
    );
    let reads = found
        .iter()
        .filter(|f| f.2.starts_with("invalid global read of 4 bytes"))
        .count();
    let writes = found
        .iter()
        .filter(|f| f.2.starts_with("invalid global write of 4 bytes"))
        .count();
    assert_eq!((reads, writes), (2, 1), "{found:#?}");
    for (_, _, m) in &found[..2] {
        assert!(m.contains("thread (100,0,0)"), "{m}");
        // compute-sanitizer counts the byte at the end as 1 byte after (`oob_global` in
        // calibration/bugs/h200/programs.log: a store at base + 256 of a 256-byte buffer)
        assert!(
            m.contains("is out of bounds and is 1 bytes after the nearest allocation at 0x"),
            "{m}"
        );
        assert!(m.contains("of size 400 bytes"), "{m}");
    }
}

/// memcheck names the highest allocation below the access as the nearest, with compute-
/// sanitizer's grouped digits (`h200-map/memcheck_far.txt`: "4,193,793 bytes after the nearest
/// allocation at <the output, 512 bytes after p> of size 4 bytes"; `memcheck_big_65536.txt`:
/// "65,537 bytes after ... of size 3,145,728 bytes").
#[test]
fn check_names_the_allocation_memcheck_names() {
    for (mode, want) in [
        (
            &["far"][..],
            "is 4,193,793 bytes after the nearest allocation at 0x",
        ),
        (
            &["big", "65536"][..],
            "is 65,537 bytes after the nearest allocation at 0x",
        ),
    ] {
        let (dir, _) = program();
        let export = dir.path().join(format!("{}.json", mode.join("_")));
        let (o, out, err) = with_mode(
            mode,
            &["run", "--check=memcheck", "--export", export.to_str().unwrap()],
        );
        assert_eq!(o.status.code(), Some(1), "{out}{err}");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
        let messages: Vec<String> = v["launches"][0]["findings"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter(|f| f["kind"] == "out_of_bounds")
            .map(|f| f["message"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(messages.len(), 1, "{messages:#?}");
        let line = &messages[0];
        assert!(line.contains(want), "{want:?} missing: {line}");
        let size = if mode[0] == "far" {
            "of size 4 bytes"
        } else {
            "of size 3,145,728 bytes"
        };
        assert!(line.contains(size), "{line}");
    }
}

/// `probe.txt`: 4 MiB past a small buffer is mapped (`cudaSuccess`, 0), so is 64 KiB past a
/// 3 MiB one; 1 MiB past the 3 MiB one (its last 2 MiB page's end) is `cudaErrorIllegalAddress`,
/// sticky.
#[test]
fn far_past_a_small_buffer_runs_and_past_a_large_ones_last_page_faults() {
    let (o, out, err) = with_mode(&["far"], &["run"]);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("far: cudaSuccess") && out.contains("value 0"),
        "{out}{err}"
    );
    let (_, out, err) = with_mode(&["big", "65536"], &["run"]);
    assert!(
        out.contains("big: cudaSuccess") && out.contains("after: cudaSuccess"),
        "{out}{err}"
    );
    let (_, out, err) = with_mode(&["big", "1048576"], &["run"]);
    assert!(
        out.contains("big: cudaErrorIllegalAddress") && out.contains("after: cudaErrorIllegalAddress"),
        "{out}{err}"
    );
    assert!(err.contains("is in no buffer of the launch"), "{err}");
}
