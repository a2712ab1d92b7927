//! Programs warpscope runs for a while (the program under `warpscope run`, nvcc, the native run and
//! ncu of `--measure`): they go when warpscope goes, and the signals meant for them reach them.
//!
//! The design, kept as close as can be to running the program without warpscope:
//!
//! - The child stays in warpscope's process group, so it keeps the terminal: it reads it and is
//!   stopped and resumed with the job, and the signals the terminal sends from its keys (Ctrl-C
//!   SIGINT, Ctrl-\ SIGQUIT) and on a hangup (SIGHUP) go to the whole foreground group, the child
//!   included, straight from the kernel.
//! - While a child runs, warpscope catches SIGINT, SIGTERM, SIGHUP and SIGQUIT instead of dying of
//!   them. One sent to warpscope by another process (`kill`, a supervisor, a CI runner's timeout)
//!   is forwarded to the child; one the kernel generated (`si_code == SI_KERNEL`: the terminal) is
//!   not, since the child got its own copy. warpscope then waits for the child, and `run` exits with
//!   its status as a shell reports it ([`shell_status`]: 128 + the signal when it died of one).
//!   A signal warpscope found ignored (`nohup`, `&` in a script) is forwarded all the same but set
//!   back to ignored in the child before exec, so that the child starts as it would have (an
//!   ignored signal stays so across exec, a caught one does not) and, if it installs its own
//!   handler, gets what is sent to warpscope.
//! - `PR_SET_PDEATHSIG` (SIGKILL) in the child: when warpscope dies of something it cannot catch
//!   (SIGKILL, a crash), the kernel kills the child too instead of leaving an orphan.
//!
//! A signal sent to the whole process group (`kill -TERM -PGID`) reaches the child twice, once
//! directly and once forwarded; a program's default action is unchanged by that.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use libc::c_int;

/// The signals forwarded to the child.
const FORWARDED: [c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// The handler's state in one word, so that it and the spawning thread never lose a signal between
/// them: the low 32 bits are the child's pid (0 before it is spawned and after it has exited), the
/// high 32 a signal caught meanwhile, to deliver once the pid is known (or to this process after).
static STATE: AtomicU64 = AtomicU64::new(0);

/// Whether a [`Forwarding`] is installed (one child at a time).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether one of [`FORWARDED`] has arrived while a child ran.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The first of [`FORWARDED`] that arrived while a child ran (0: none).
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Whether warpscope was sent SIGINT, SIGTERM, SIGHUP or SIGQUIT (or the terminal sent one) while
/// one of its children ran: what is left to do that only spends time is not done.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The first signal that interrupted a child's run ([`interrupted`]), if one did.
pub fn interrupt_signal() -> Option<i32> {
    match FIRST_SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

extern "C" fn forward(sig: c_int, info: *mut libc::siginfo_t, _context: *mut libc::c_void) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let _ = FIRST_SIGNAL.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t.
    let code = unsafe { (*info).si_code };
    if code == libc::SI_KERNEL {
        // from the terminal, to the whole foreground group: the child has had it too
        return;
    }
    // SAFETY: the calling thread's errno, saved and restored around kill (async-signal-safe).
    let errno = unsafe { *libc::__errno_location() };
    let mut state = STATE.load(Ordering::SeqCst);
    loop {
        let pid = state as u32 as i32;
        if pid > 0 {
            // SAFETY: kill is async-signal-safe.
            unsafe { libc::kill(pid, sig) };
            break;
        }
        match STATE.compare_exchange(
            state,
            u64::from(sig as u32) << 32,
            Ordering::SeqCst,
            Ordering::SeqCst,
        ) {
            Ok(_) => break,
            Err(now) => state = now,
        }
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
}

/// The forwarding handlers, installed from before the spawn until the child is reaped; dropping it
/// puts back the dispositions it found, then delivers to this process a signal caught while there
/// was no child to forward it to.
struct Forwarding {
    /// The dispositions found, for the first `installed` signals of [`FORWARDED`].
    old: [libc::sigaction; FORWARDED.len()],
    installed: usize,
}

impl Forwarding {
    fn install() -> io::Result<Forwarding> {
        assert!(
            !ACTIVE.swap(true, Ordering::SeqCst),
            "one supervised child at a time"
        );
        STATE.store(0, Ordering::SeqCst);
        let mut f = Forwarding {
            // SAFETY: a zeroed sigaction is a valid value (for sigaction to fill in).
            old: [unsafe { std::mem::zeroed() }; FORWARDED.len()],
            installed: 0,
        };
        // SAFETY: as above.
        let mut new: libc::sigaction = unsafe { std::mem::zeroed() };
        let handler: extern "C" fn(c_int, *mut libc::siginfo_t, *mut libc::c_void) = forward;
        new.sa_sigaction = handler as libc::sighandler_t;
        new.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
        // SAFETY: initialising the handler's mask.
        unsafe { libc::sigemptyset(&mut new.sa_mask) };
        for (i, sig) in FORWARDED.into_iter().enumerate() {
            // SAFETY: `new` is fully initialised and `forward` does only async-signal-safe work;
            // the disposition found goes to `f.old[i]`.
            if unsafe { libc::sigaction(sig, &new, &mut f.old[i]) } != 0 {
                // what was installed so far is put back as `f` drops
                return Err(io::Error::last_os_error());
            }
            f.installed = i + 1;
        }
        Ok(f)
    }

    /// Which of [`FORWARDED`] this process ignored before the handlers were installed.
    fn ignored(&self) -> [bool; FORWARDED.len()] {
        self.old.map(|o| o.sa_sigaction == libc::SIG_IGN)
    }

    /// From now on signals go to `pid` (0: are kept for this process), with any caught meanwhile.
    fn target(&self, pid: u32) {
        let before = STATE.swap(u64::from(pid), Ordering::SeqCst);
        let pending = (before >> 32) as c_int;
        if pid > 0 && pending != 0 {
            // SAFETY: plain kill of our own child.
            unsafe { libc::kill(pid as i32, pending) };
        }
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        for (sig, old) in FORWARDED.iter().zip(&self.old).take(self.installed) {
            // SAFETY: putting back the disposition read in `install`.
            unsafe { libc::sigaction(*sig, old, std::ptr::null_mut()) };
        }
        let pending = (STATE.swap(0, Ordering::SeqCst) >> 32) as c_int;
        ACTIVE.store(false, Ordering::SeqCst);
        if pending != 0 {
            // SAFETY: raise is safe to call; the signal meets the disposition put back above.
            unsafe { libc::raise(pending) };
        }
    }
}

/// Prepares the child of `cmd` between fork and exec: the signals in `ignored` ignored again (the
/// forwarding handlers would otherwise leave them at their default action across exec), and
/// killed by the kernel when this thread ends (PR_SET_PDEATHSIG). Spawn only from a thread that
/// outlives the child (the main thread).
fn prepare(cmd: &mut Command, ignored: [bool; FORWARDED.len()]) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs between fork and exec and calls only sigaction (through signal),
    // prctl and getppid, all async-signal-safe, allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            for (sig, ignore) in FORWARDED.into_iter().zip(ignored) {
                if ignore && libc::signal(sig, libc::SIG_IGN) == libc::SIG_ERR {
                    return Err(io::Error::last_os_error());
                }
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            // the parent may have died before prctl: then nobody is left to run for
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        })
    };
}

/// A child bound to this process, with signals forwarded to it until [`Supervised::wait`] reaps
/// it. Dropped unwaited (an error on the way), it is killed and reaped.
pub struct Supervised {
    child: Child,
    forwarding: Option<Forwarding>,
}

/// Spawns `cmd` bound to this process with signals forwarded to it (see the module's notes).
pub fn spawn(cmd: &mut Command) -> io::Result<Supervised> {
    let forwarding = Forwarding::install()?;
    prepare(cmd, forwarding.ignored());
    let child = cmd.spawn()?;
    forwarding.target(child.id());
    Ok(Supervised {
        child,
        forwarding: Some(forwarding),
    })
}

impl Supervised {
    /// The child's standard output, when it was piped.
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// Waits for the child to exit. Forwarding stops before the child is reaped, so a signal never
    /// goes to another process that took its pid.
    pub fn wait(mut self) -> io::Result<ExitStatus> {
        wait_exited(self.child.id())?;
        if let Some(f) = &self.forwarding {
            f.target(0);
        }
        let status = self.child.wait();
        self.forwarding = None;
        status
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        if let Some(f) = self.forwarding.take() {
            f.target(0);
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Waits until child `pid` has exited, leaving it to be reaped (waitid's WNOWAIT).
fn wait_exited(pid: u32) -> io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t for waitid to fill in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waiting for our own child, without reaping it.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Runs `cmd` as [`Command::status`] does (standard streams inherited), supervised.
pub fn status(cmd: &mut Command) -> io::Result<ExitStatus> {
    spawn(cmd)?.wait()
}

/// Runs `cmd` as [`Command::output`] does (no standard input, standard output captured), its
/// standard error captured or as `stderr` says, supervised.
pub fn output(cmd: &mut Command, stderr: Stdio) -> io::Result<Output> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(stderr);
    let mut child = spawn(cmd)?;
    let err_pipe = child.child.stderr.take();
    // standard error read beside standard output, so that neither pipe fills while the other waits
    let err_reader = err_pipe.map(|mut p| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            p.read_to_end(&mut v).map(|_| v)
        })
    });
    let mut stdout = Vec::new();
    if let Some(mut p) = child.take_stdout() {
        p.read_to_end(&mut stdout)?;
    }
    let stderr = match err_reader {
        Some(t) => t
            .join()
            .map_err(|_| io::Error::other("reading standard error failed"))??,
        None => Vec::new(),
    };
    let status = child.wait()?;
    Ok(Output {
        status,
        stdout,
        stderr,
    })
}

/// The status a shell reports for a program that ended with `status`: its exit code, or 128 + the
/// signal that ended it.
pub fn shell_status(status: ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => c as u8,
        (None, Some(s)) => (128 + s) as u8,
        // stopped or continued: not an end; report a failure
        (None, None) => 1,
    }
}

/// Runs `cmd` with its standard output passed through to ours and kept: the status and the bytes.
pub fn status_teeing(cmd: &mut Command) -> std::io::Result<(std::process::ExitStatus, Vec<u8>)> {
    use std::io::{Read, Write};
    let mut child = spawn(cmd.stdout(std::process::Stdio::piped()))?;
    let mut pipe = child.take_stdout().expect("stdout is piped");
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut out = std::io::stdout();
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        kept.extend_from_slice(&buf[..n]);
        // our stdout closing must not stop the program: keep reading its output
        let _ = out.write_all(&buf[..n]).and_then(|()| out.flush());
    }
    Ok((child.wait()?, kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    // one test: one supervised child at a time
    #[test]
    fn status_output_and_shell_status() {
        let ok = status(Command::new("sh").args(["-c", "exit 7"])).unwrap();
        assert_eq!(shell_status(ok), 7);
        let killed = status(Command::new("sh").args(["-c", "kill -TERM $$"])).unwrap();
        assert_eq!(shell_status(killed), 128 + 15);
        let o = output(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Stdio::piped(),
        )
        .unwrap();
        assert_eq!(o.stdout, b"out\n");
        assert_eq!(o.stderr, b"err\n");
        assert_eq!(o.status.code(), Some(3));
    }
}
