//! Hostile inputs end in a clear error (or a reported fault) within their limit, never a hang or an
//! out-of-memory kill: an endless loop, a huge grid, huge buffer specs, a 100 MB input file, an
//! endless device as a buffer file. The time bounds are generous ("not a hang"), not speed goals.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs and returns the output and how long it took.
fn timed(cmd: &mut Command) -> (Output, Duration) {
    let t = Instant::now();
    let out = cmd.output().expect("run warpscope");
    (out, t.elapsed())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SPIN: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry spin(.param .u64 out)\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, 0;\n\
$L_top:\n add.s32 %r1, %r1, 1;\n bra.uni $L_top;\n}\n";

const STORE: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<4>;\n\
 ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n\
 add.s64 %rd3, %rd1, %rd2;\n st.global.u32 [%rd3], %r1;\n ret;\n}\n";

#[test]
fn endless_loop_stops_at_the_instruction_limit() {
    let ptx = scratch("spin.ptx");
    std::fs::write(&ptx, SPIN).unwrap();
    for extra in [&["--max-instructions", "100000"][..], &[][..]] {
        let (o, took) = timed(
            bin()
                .args(["analyze", "--grid", "2", "--block", "64", "--arg", "buf:256"])
                .arg(&ptx)
                .args(["--ptx-widths", "--format", "json"])
                .args(extra),
        );
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains("warp instructions (--max-instructions): a loop that never ends"),
            "{extra:?}: status {:?}, stdout {text}, stderr {}",
            o.status,
            stderr(&o)
        );
        // The default limit is 2^28 warp instructions per block: seconds, not a hang.
        assert!(took < Duration::from_secs(120), "{extra:?}: took {took:?}");
        eprintln!("endless loop {extra:?}: stopped after {took:?}");
    }
}

#[test]
fn huge_grid_is_refused_before_emulation() {
    let ptx = scratch("store.ptx");
    std::fs::write(&ptx, STORE).unwrap();
    let (o, took) = timed(
        bin()
            .args([
                "analyze",
                "--grid",
                "65535,65535,64",
                "--block",
                "1024",
                "--arg",
                "buf:4096",
            ])
            .arg(&ptx),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("threads to emulate, over the limit"), "{e}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    // Sampling a few blocks of a grid of 2^32 - 1 blocks (the emulator's largest) is fine.
    let (o, _) = timed(
        bin()
            .args([
                "analyze",
                "--grid",
                "65535,65535,1",
                "--block",
                "1024",
                "--blocks",
                "2",
            ])
            .args(["--arg", "buf:4096", "--ptx-widths", "--format", "json"])
            .arg(&ptx),
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn huge_buffer_specs_are_refused_before_allocation() {
    let ptx = scratch("store2.ptx");
    std::fs::write(&ptx, STORE).unwrap();
    for (spec, want) in [
        ("buf:4294967296", "over the 256 MiB limit for one buffer"),
        ("buf:0xffffffffff:zero", "over the 256 MiB limit for one buffer"),
        ("buf:@/dev/zero", "is not a regular file"),
    ] {
        let (o, took) = timed(
            bin()
                .args(["analyze", "--grid", "1", "--block", "32", "--arg", spec])
                .arg(&ptx),
        );
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(want), "{spec}: {e}");
        assert!(took < Duration::from_secs(10), "{spec}: took {took:?}");
    }
}

#[test]
fn hundred_megabyte_input_file_is_refused() {
    let big = scratch("big.ptx");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(100 << 20).unwrap();
    drop(f);
    let (o, took) = timed(
        bin()
            .args(["analyze", "--grid", "1", "--block", "32", "--arg", "buf:128"])
            .arg(&big),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("104857600 bytes, over the 32 MiB limit"), "{e}");
    assert!(e.contains("big.ptx"), "{e}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
    std::fs::remove_file(&big).unwrap();
}

#[test]
fn endless_trace_line_is_refused() {
    // One "line" of 8 MiB with no newline: refused at the line limit, not read into memory whole.
    let trace = scratch("long.jsonl");
    std::fs::write(&trace, vec![b'['; 8 << 20]).unwrap();
    let (o, took) = timed(bin().args(["bank", "--trace"]).arg(&trace));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("long.jsonl: line 1:") && e.contains("limit for one --trace line"),
        "{e}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
}
