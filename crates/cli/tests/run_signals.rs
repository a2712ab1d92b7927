//! `warpscope run` and signals: the program under it goes when warpscope is killed, signals sent to
//! warpscope reach it once, the terminal's Ctrl-C reaches it once, and warpscope exits with its
//! status as a shell reports it, after writing the export and the report of the launches recorded
//! before the interruption (naming the launch the program was in, if it was in one). The program
//! (tests/data/signals/wait.cu, built here with the wheels' nvcc) launches a kernel three times,
//! writes its pid to a file and waits for a signal.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod support;
use support::cuda_root;

/// The folder with the program `wait`, built once.
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("warpscope-signal-tests-{}", std::process::id()));
        support::build_program(&dir, "signals/wait.cu", "wait", &[]);
        dir
    })
}

/// One run's files: the pid file and the marker the program writes when a signal reaches it.
struct Case {
    dir: PathBuf,
}

impl Case {
    fn new(name: &str) -> Case {
        let dir = programs().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Case { dir }
    }

    /// `warpscope run -- ./wait PIDFILE MARKER mode`, its output in files of the case's folder.
    fn command(&self, mode: &str) -> Command {
        self.command_with(mode, &[])
    }

    /// The same with `flags` for `warpscope run`.
    fn command_with(&self, mode: &str, flags: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
        c.arg("run")
            .args(flags)
            .args(["--", "../wait"])
            .arg(self.dir.join("pid"))
            .arg(self.dir.join("marker"))
            .arg(mode)
            .current_dir(&self.dir)
            .env("WARPSCOPE_CUDA_ROOT", cuda_root())
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(self.dir.join("stdout")).unwrap())
            .stderr(std::fs::File::create(self.dir.join("stderr")).unwrap());
        // warpscope starts with SIGINT and SIGQUIT at their default action, as a shell's
        // foreground command does: a suite started as a background job of a non-interactive
        // shell inherits them ignored, and warpscope rightly keeps an ignored signal ignored
        // for the program (a test that wants it ignored sets that after this)
        // SAFETY: signal is async-signal-safe.
        unsafe {
            c.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGQUIT, libc::SIG_DFL);
                Ok(())
            })
        };
        c
    }

    /// The program's pid, once it has written it (it is then waiting for a signal).
    fn program_pid(&self, warpscope: &mut Child) -> i32 {
        let start = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(self.dir.join("pid")) {
                return text.trim().parse().unwrap();
            }
            if let Some(status) = warpscope.try_wait().unwrap() {
                panic!(
                    "warpscope ended ({status}) before the program wrote its pid: {}",
                    std::fs::read_to_string(self.dir.join("stderr")).unwrap_or_default()
                );
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the program wrote no pid in a minute"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// "SIGNAL COUNT" as the program wrote it.
    fn marker(&self) -> Option<String> {
        std::fs::read_to_string(self.dir.join("marker"))
            .ok()
            .map(|s| s.trim().to_string())
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(self.dir.join("stdout")).unwrap_or_default()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.join("stderr")).unwrap_or_default()
    }

    /// The `--export` document written to `export.json`.
    fn export(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.dir.join("export.json")).unwrap_or_else(|e| {
            panic!(
                "no export ({e}); stderr: {}; stdout: {}",
                self.stderr(),
                self.stdout()
            )
        });
        serde_json::from_str(&text).unwrap()
    }
}

/// The flags that write the export and the report into the case's folder.
const WRITE: &[&str] = &["--export", "export.json", "--report", "report.html"];

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill has no memory effects in this process.
    assert_eq!(unsafe { libc::kill(pid as i32, sig) }, 0, "kill {pid}");
}

/// Whether process `pid` is gone: no /proc entry, or a zombie waiting for a parent to reap it
/// (the program is reparented when warpscope dies, and the new parent may not reap).
fn is_gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // "pid (comm) S ...": the state follows the last ')'
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

/// Waits for warpscope's status, at most a minute (killing it and failing after that).
fn wait(mut warpscope: Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = warpscope.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = warpscope.kill();
            panic!("{what}: warpscope did not end within a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills a program left behind by a failed assertion, so that a failing test leaves no orphan.
struct Reap(i32);

impl Drop for Reap {
    fn drop(&mut self) {
        if !is_gone(self.0) {
            // SAFETY: as in `signal`.
            unsafe { libc::kill(self.0, libc::SIGKILL) };
        }
    }
}

#[test]
fn sigkill_to_warpscope_takes_the_program_with_it() {
    let case = Case::new("sigkill");
    let mut warpscope = case.command("catch").spawn().unwrap();
    let pid = case.program_pid(&mut warpscope);
    let _reap = Reap(pid);
    assert!(!is_gone(pid), "the program runs");
    signal(warpscope.id(), libc::SIGKILL);
    let status = warpscope.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    let start = Instant::now();
    while !is_gone(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the program (pid {pid}) outlived warpscope by 5 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // killed, not ended by its handler
    assert_eq!(case.marker(), None);
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to warpscope (as `kill` does) reach the program, once;
/// its handler exits 3, and so does warpscope, after its report.
#[test]
fn signals_sent_to_warpscope_reach_the_program_once() {
    for (sig, name) in [
        (libc::SIGINT, "sigint"),
        (libc::SIGTERM, "sigterm"),
        (libc::SIGHUP, "sighup"),
        (libc::SIGQUIT, "sigquit"),
    ] {
        let case = Case::new(name);
        let mut warpscope = case.command("catch").spawn().unwrap();
        let pid = case.program_pid(&mut warpscope);
        let _reap = Reap(pid);
        signal(warpscope.id(), sig);
        let status = wait(warpscope, name);
        assert_eq!(
            case.marker(),
            Some(format!("{sig} 1")),
            "{name}: the program's marker"
        );
        assert_eq!(status.code(), Some(3), "{name}: warpscope's status");
        assert!(
            case.stdout().contains("exited with status 3"),
            "{name}: the report: {}",
            case.stdout()
        );
    }
}

/// A program ended by the signal: warpscope exits 128 + the signal, as a shell reports it.
#[test]
fn a_program_ended_by_a_signal_gives_128_plus_the_signal() {
    for (sig, name) in [(libc::SIGTERM, "plain-sigterm"), (libc::SIGINT, "plain-sigint")] {
        let case = Case::new(name);
        let mut warpscope = case.command("plain").spawn().unwrap();
        let pid = case.program_pid(&mut warpscope);
        let _reap = Reap(pid);
        signal(warpscope.id(), sig);
        let status = wait(warpscope, name);
        assert_eq!(status.code(), Some(128 + sig), "{name}: warpscope's status");
        assert!(is_gone(pid), "{name}: the program is gone");
        assert!(
            case.stdout().contains(&format!("was ended by signal {sig}")),
            "{name}: the report: {}",
            case.stdout()
        );
    }
}

/// Ctrl-C (SIGINT) stops a program that keeps the default action: warpscope still prints the
/// tables, writes the export and the report of the three launches recorded, says the run was
/// interrupted (stderr and the export) and exits 128 + 2.
#[test]
fn an_interrupted_run_still_writes_the_export_and_the_report() {
    let case = Case::new("interrupted-export");
    let mut warpscope = case.command_with("plain", WRITE).spawn().unwrap();
    let pid = case.program_pid(&mut warpscope);
    let _reap = Reap(pid);
    signal(warpscope.id(), libc::SIGINT);
    let status = wait(warpscope, "interrupted-export");
    assert_eq!(status.code(), Some(128 + libc::SIGINT));
    let v = case.export();
    assert_eq!(v["launches"].as_array().unwrap().len(), 3, "{v}");
    assert!(
        v["launches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["kernel"].as_str().unwrap().starts_with("fill"))
    );
    assert_eq!(v["exit_status"], serde_json::Value::Null);
    assert_eq!(v["signal"], libc::SIGINT);
    assert_eq!(v["interrupted"]["signal"], libc::SIGINT);
    assert_eq!(v["unfinished_launch"], serde_json::Value::Null);
    let report = std::fs::read_to_string(case.dir.join("report.html")).unwrap();
    assert!(report.contains("fill"), "the report names the kernel");
    assert!(report.contains("interrupted by signal 2"), "the report says so");
    assert!(
        case.stderr()
            .contains("warpscope: the run was interrupted by signal 2"),
        "stderr: {}",
        case.stderr()
    );
    assert!(case.stdout().contains("3 launches recorded"), "{}", case.stdout());
}

/// Interrupted in the middle of a long launch: the launches before it are recorded and the one it
/// was in is named with its blocks done so far, on stderr and in the export.
#[test]
fn an_interrupted_launch_is_named_with_its_blocks_done() {
    let case = Case::new("interrupted-launch");
    let mut warpscope = case.command_with("busy", WRITE).spawn().unwrap();
    let pid = case.program_pid(&mut warpscope);
    let _reap = Reap(pid);
    // inside the long launch by then
    std::thread::sleep(Duration::from_millis(1500));
    signal(warpscope.id(), libc::SIGINT);
    let status = wait(warpscope, "interrupted-launch");
    assert_eq!(status.code(), Some(128 + libc::SIGINT));
    let v = case.export();
    assert_eq!(v["launches"].as_array().unwrap().len(), 3, "{v}");
    assert_eq!(v["interrupted"]["signal"], libc::SIGINT);
    let u = &v["unfinished_launch"];
    assert_eq!(u["launch"], 3, "{v}");
    assert!(
        u["kernel"]
            .as_str()
            .unwrap()
            .starts_with("spin<<<(4096,1,1),(256,1,1)>>>"),
        "{u}"
    );
    assert_eq!(u["blocks"], 4096);
    assert!(u["blocks_done"].as_u64().unwrap() < 4096, "{u}");
    assert!(
        case.stderr()
            .contains("the program ended during launch 3 spin<<<"),
        "stderr: {}",
        case.stderr()
    );
}

/// A signal warpscope was started ignoring (as `&` in a script ignores SIGINT) stays ignored for the
/// program: it goes on until a signal it does not ignore arrives.
#[test]
fn a_signal_ignored_by_warpscope_stays_ignored_by_the_program() {
    let case = Case::new("ignored");
    let mut cmd = case.command("plain");
    // SAFETY: signal is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            Ok(())
        })
    };
    let mut warpscope = cmd.spawn().unwrap();
    let pid = case.program_pid(&mut warpscope);
    let _reap = Reap(pid);
    signal(warpscope.id(), libc::SIGINT);
    std::thread::sleep(Duration::from_millis(500));
    assert!(!is_gone(pid), "the program ignores SIGINT as warpscope did");
    assert_eq!(warpscope.try_wait().unwrap(), None, "warpscope waits");
    signal(warpscope.id(), libc::SIGTERM);
    let status = wait(warpscope, "ignored");
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
}

/// Ctrl-C on warpscope's terminal: the terminal signals the whole foreground process group, the
/// program included, so warpscope does not pass its own copy on; the program's handler sees one
/// SIGINT and warpscope exits with its status.
#[test]
fn ctrl_c_on_the_terminal_reaches_the_program_once() {
    // SAFETY: plain libc calls on a new pseudo-terminal; the slave's name is copied before use.
    let (master, slave) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC), 0);
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let slave = std::ffi::CStr::from_ptr(name.as_ptr()).to_owned();
        (master, slave)
    };
    let case = Case::new("ctrl-c");
    let mut cmd = case.command_with("catch", WRITE);
    // SAFETY: setsid, open, ioctl, dup2 and close are async-signal-safe; `slave` was allocated
    // before the fork.
    unsafe {
        cmd.pre_exec(move || {
            // a session of its own whose controlling terminal is the slave, warpscope in the
            // terminal's foreground process group (its own), its standard input the terminal
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            let fd = libc::open(slave.as_ptr(), libc::O_RDWR);
            if fd < 0 || libc::ioctl(fd, libc::TIOCSCTTY, 0) < 0 || libc::dup2(fd, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(fd);
            Ok(())
        })
    };
    let mut warpscope = cmd.spawn().unwrap();
    let pid = case.program_pid(&mut warpscope);
    let _reap = Reap(pid);
    // SAFETY: `master` is an open descriptor this test owns.
    let mut terminal = unsafe {
        use std::os::fd::FromRawFd;
        std::fs::File::from_raw_fd(master)
    };
    // Ctrl-C, as typed
    terminal.write_all(&[0x03]).unwrap();
    let status = wait(warpscope, "ctrl-c");
    assert_eq!(
        case.marker(),
        Some(format!("{} 1", libc::SIGINT)),
        "the program's marker"
    );
    assert_eq!(status.code(), Some(3), "warpscope's status");
    // the program exited on its own after its handler ran: the run was interrupted all the same
    let v = case.export();
    assert_eq!(v["exit_status"], 3);
    assert_eq!(v["interrupted"]["signal"], libc::SIGINT);
    assert_eq!(v["launches"].as_array().unwrap().len(), 3);
}
