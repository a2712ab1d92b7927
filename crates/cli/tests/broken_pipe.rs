//! `warpscope ... | head`: a reader that stops early ends the command quietly (status 0, nothing on
//! stderr), as ripgrep and the like do, in every output format.

use std::io::Read;
use std::process::{Command, Stdio};

/// A sweep of 32 block sizes by 240 register counts: megabytes of output, far more than a pipe holds.
const SWEEP: &[&str] = &[
    "occupancy",
    "--arch",
    "sm_90",
    "--threads",
    "32..=1024:32",
    "--regs",
    "16..=255:1",
    "--format",
];

#[test]
fn a_reader_that_stops_after_a_few_bytes_ends_the_command_quietly() {
    for format in ["json", "table", "csv", "markdown"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(SWEEP)
            .arg(format)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // the read end is closed here: the rest of the output meets a broken pipe
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "--format {format}: stderr"
        );
        assert_eq!(out.status.code(), Some(0), "--format {format}: status");
    }
}

#[test]
fn a_pipe_closed_before_the_first_write_ends_the_command_quietly() {
    for args in [
        &["occupancy", "--format", "json"][..],
        &["lab", "--list"],
        &[
            "bank",
            "--arch",
            "sm_90",
            "--width",
            "4",
            "--op",
            "load",
            "--expr",
            "lane*32*4",
        ],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}: stderr");
        assert_eq!(out.status.code(), Some(0), "{args:?}: status");
    }
}
