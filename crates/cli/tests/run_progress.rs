//! `warpscope run` on a program with a long launch (tests/data/progress/long.cu, built here with the
//! wheels' nvcc): a launch over a second leaves one line on stderr, with a progress bar before it
//! when stderr is a terminal and nothing on stdout; `--budget` cuts a launch short and labels it
//! (stderr, the export's `sampling` and `incomplete`, an `incomplete_read` finding for the
//! program's copy of what it, and a launch that read it, wrote); a budget that is not reached
//! changes nothing, whatever the thread count.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

mod support;
use support::cuda_root;

/// The folder with the program `long`, built once.
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("warpscope-progress-tests-{}", std::process::id()));
        support::build_program(&dir, "progress/long.cu", "long", &["-lineinfo"]);
        dir
    })
}

/// Iterations and blocks of a launch that runs for seconds on one thread.
const LONG: [&str; 2] = ["200000", "64"];

/// `warpscope run FLAGS --export E -- ./long ITERS BLOCKS` on `threads` threads: the output and
/// the export.
fn run(flags: &[&str], size: [&str; 2], threads: &str, name: &str) -> (Output, Value) {
    let dir = programs();
    let export = dir.join(format!("{name}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .arg("run")
        .args(flags)
        .arg("--export")
        .arg(&export)
        .args(["--", "./long"])
        .args(size)
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env("RAYON_NUM_THREADS", threads)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&export).unwrap_or_else(|e| {
        panic!(
            "{name}: no export ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, serde_json::from_str(&text).unwrap())
}

#[test]
fn a_long_launch_leaves_one_line_on_stderr_when_it_is_not_a_terminal() {
    let (out, v) = run(&[], LONG, "1", "plain");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warpscope: launch "))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("warpscope: launch 0 spin<<<(64,1,1),(128,1,1)>>> ")
            && lines[0].ends_with(" s, 64 blocks"),
        "{}",
        lines[0]
    );
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\r'),
        "no bar: {stderr:?}"
    );
    assert_eq!(v["launches"][0]["sampling"], Value::Null);
    assert_eq!(v["incomplete"], Value::Null);
    assert_eq!(
        v["launches"][0]["thread_instructions"].as_u64().unwrap() % (64 * 128),
        0,
        "every thread runs the same instructions"
    );
}

#[test]
fn a_launch_over_its_budget_is_cut_and_labelled_and_what_read_its_results_is_reported() {
    let (out, v) = run(&["--budget", "0.3"], LONG, "1", "budget");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // the program's own check fails: its results are incomplete, and it is told so
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stdout.contains("right"), "{stdout}");
    assert_eq!(v["budget_s"], 0.3);
    let l0 = &v["launches"][0];
    let ran = l0["sampling"]["blocks_run"].as_u64().unwrap();
    assert!((1..64).contains(&ran), "{l0}");
    assert_eq!(l0["sampling"]["blocks"], 64);
    assert!(
        l0["sampling"]["counters"]
            .as_str()
            .unwrap()
            .contains(&format!("scaled by 64/{ran}"))
    );
    assert_eq!(l0["metrics"]["warpscope__blocks_run"], ran as f64);
    assert_eq!(l0["metrics"]["warpscope__branch_counters_exact"], 0.0);
    assert_eq!(l0["metrics"]["warpscope__global_counters_exact"], 0.0);
    // the stores are scaled to the grid: one request per warp of every block
    assert_eq!(
        l0["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"],
        (64 * 4) as f64
    );
    assert!(
        stderr.contains("warpscope: launch 0 spin<<<(64,1,1),(128,1,1)>>> stopped after")
            && stderr.contains(&format!("{ran} of 64 blocks ran")),
        "{stderr}"
    );
    // launch 1 read what launch 0 left incomplete; the program read launch 1's output
    assert_eq!(v["launches"][1]["incomplete_input"], 0);
    assert_eq!(v["launches"][1]["sampling"], Value::Null);
    let inc = &v["incomplete"];
    assert_eq!(inc["launches_cut"].as_array().unwrap().len(), 1, "{inc}");
    assert_eq!(inc["launches_cut"][0]["launch"], 0);
    assert_eq!(inc["launches_cut"][0]["blocks_run"], ran);
    assert_eq!(inc["launches_on_incomplete_input"][0]["launch"], 1);
    assert_eq!(inc["launches_on_incomplete_input"][0]["from_launch"], 0);
    // one read: `b` (64 × 128 words); the untouched `c` is not reported
    let reads = inc["reads"].as_array().unwrap();
    assert_eq!(reads.len(), 1, "{inc}");
    assert_eq!(reads[0]["from_launch"], 0);
    assert_eq!(reads[0]["bytes"], 64 * 128 * 4);
    let findings = l0["findings"].as_array().unwrap();
    assert!(
        findings.iter().any(|f| f["kind"] == "incomplete_read"),
        "{findings:?}"
    );
    assert!(stderr.contains("left incomplete"), "{stderr}");
    assert!(stdout.contains("incomplete_read"), "the findings table: {stdout}");
}

#[test]
fn a_budget_not_reached_changes_nothing_whatever_the_thread_count() {
    let small = ["200", "64"];
    let (a, mut with) = run(&["--budget", "1000"], small, "1", "budget-unreached");
    let (b, without) = run(&[], small, "2", "no-budget");
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(b.status.code(), Some(0));
    assert_eq!(with["budget_s"], 1000.0);
    with["budget_s"] = Value::Null;
    assert_eq!(with, without);
}

/// With stderr on a terminal (a pseudo-terminal here) the long launch gets a bar there, then its
/// line; stdout (a file) has the program's output and the tables only.
#[test]
fn a_long_launch_draws_a_bar_on_a_terminal() {
    // SAFETY: plain libc calls on a new pseudo-terminal; the slave's name is copied before use.
    let (master, slave) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC), 0);
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let size = libc::winsize {
            ws_row: 40,
            ws_col: 160,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(libc::ioctl(master, libc::TIOCSWINSZ, &size), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let slave = std::ffi::CStr::from_ptr(name.as_ptr()).to_owned();
        (master, slave)
    };
    // SAFETY: `master` is an open descriptor this test owns.
    let mut terminal = unsafe {
        use std::os::fd::FromRawFd;
        std::fs::File::from_raw_fd(master)
    };
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(slave.to_str().unwrap())
        .unwrap();
    // everything the terminal shows, read as it comes (a full terminal would block the writers)
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        // the read fails (EIO) once no process has the slave open
        while let Ok(n) = terminal.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&all).into_owned()
    });
    let dir = programs();
    let stdout_path = dir.join("bar.stdout");
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--format", "json", "--", "./long"])
        .args(LONG)
        .current_dir(dir)
        .env("WARPSCOPE_CUDA_ROOT", cuda_root())
        .env("RAYON_NUM_THREADS", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(tty)
        .status()
        .unwrap();
    assert_eq!(out.code(), Some(0));
    let shown = reader.join().unwrap();
    assert!(shown.contains("warpscope: launch 0 ["), "a bar: {shown:?}");
    assert!(shown.contains("blocks/s, ETA"), "rate and time left: {shown:?}");
    assert!(shown.contains("/64 blocks"), "{shown:?}");
    assert!(
        shown.contains("warpscope: launch 0 spin<<<(64,1,1),(128,1,1)>>> "),
        "the launch's line: {shown:?}"
    );
    let stdout = std::fs::read_to_string(&stdout_path).unwrap();
    assert!(stdout.starts_with("8192 of 8192 right\n"), "{stdout}");
    assert!(!stdout.contains("blocks/s"), "{stdout}");
    serde_json::from_str::<Value>(&stdout["8192 of 8192 right\n".len()..]).expect("the JSON document");
}
