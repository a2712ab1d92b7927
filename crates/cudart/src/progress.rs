//! The progress page: a small file that the runtime in the program's process and `warpscope run`
//! both map (`MAP_SHARED`), through which the runtime shows the launch it is emulating and
//! `warpscope run` draws a progress bar for it on the terminal.
//!
//! The emulator counts the blocks done straight into the page ([`Page::done`], one relaxed atomic
//! add per block), so following a launch costs the runtime nothing more: no thread, no system
//! call. The other fields change only as a launch begins and ends, under a sequence lock
//! ([`Page::seq`], odd while they are being written). The bar goes before the program writes
//! again: a launch that ran for a second or more waits, at its end and for at most a second, until
//! the drawing side says the bar is gone ([`Page::acked`]), so the program's output never lands on
//! the bar's line.

use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

/// Bytes of the launch's label kept (`kernel<<<(grid),(block)>>>`).
pub const LABEL: usize = 256;

/// The page file's size.
pub const PAGE_BYTES: usize = 4096;

/// A launch running this long (seconds) gets a bar on a terminal, and a line on `stderr` as it ends.
pub const LONG_LAUNCH_S: f64 = 1.0;

/// [`Page::state`]: no launch yet.
pub const IDLE: u64 = 0;
/// [`Page::state`]: a launch runs.
pub const RUNNING: u64 = 1;
/// [`Page::state`]: the launch ended.
pub const ENDED: u64 = 2;

/// The page's layout (the first bytes of the file; zero is its initial state).
#[repr(C)]
pub struct Page {
    /// Even while the launch's fields are stable, odd while the runtime writes them.
    pub seq: AtomicU64,
    /// [`IDLE`], [`RUNNING`] or [`ENDED`].
    pub state: AtomicU64,
    /// The launch's index in the program (from 0, as in the launch records).
    pub launch: AtomicU64,
    /// When it began, `CLOCK_MONOTONIC` nanoseconds (one clock for every process of the machine).
    pub started_ns: AtomicU64,
    /// Blocks in its grid.
    pub blocks: AtomicU64,
    /// Blocks done so far (the emulator adds one as each block ends).
    pub done: AtomicU64,
    /// When it ended, `CLOCK_MONOTONIC` nanoseconds.
    pub ended_ns: AtomicU64,
    /// 1 while a process draws bars from this page (`warpscope run` on a terminal): a long
    /// launch then waits at its end for [`Page::acked`].
    pub drawing: AtomicU64,
    /// Set by the drawing side to launch + 1 once the bar of an ended launch is gone.
    pub acked: AtomicU64,
    /// Bytes of [`Page::label`] used.
    pub label_len: AtomicU64,
    /// `kernel<<<(grid),(block)>>>`, UTF-8, cut at [`LABEL`] bytes.
    pub label: [AtomicU8; LABEL],
}

const _: () = assert!(std::mem::size_of::<Page>() <= PAGE_BYTES);

/// A launch on the page: [`Page::end`] as it drops.
pub struct Showing<'a> {
    page: &'a Page,
    launch: u64,
}

impl Drop for Showing<'_> {
    fn drop(&mut self) {
        self.page.end(self.launch);
    }
}

/// A consistent copy of the launch's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// [`IDLE`], [`RUNNING`] or [`ENDED`].
    pub state: u64,
    /// The launch's index.
    pub launch: u64,
    /// When it began (`CLOCK_MONOTONIC` ns).
    pub started_ns: u64,
    /// When it ended (`CLOCK_MONOTONIC` ns; 0 while it runs).
    pub ended_ns: u64,
    /// Blocks in the grid.
    pub blocks: u64,
    /// Blocks done.
    pub done: u64,
    /// `kernel<<<(grid),(block)>>>`.
    pub label: String,
}

/// `CLOCK_MONOTONIC` now, in nanoseconds.
pub fn now_ns() -> u64 {
    // SAFETY: a zeroed timespec for clock_gettime to fill in.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid clock id and out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    (t.tv_sec as u64).saturating_mul(1_000_000_000) + t.tv_nsec as u64
}

/// A mapping of the page file.
pub struct Mapped {
    ptr: *mut Page,
}

// SAFETY: the page holds only atomics, shared by design.
unsafe impl Send for Mapped {}
// SAFETY: as above.
unsafe impl Sync for Mapped {}

impl Mapped {
    /// Creates (or empties) the page file at `path` and maps it: the drawing side.
    pub fn create(path: &Path) -> std::io::Result<Mapped> {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        f.set_len(PAGE_BYTES as u64)?;
        Mapped::map(&f)
    }

    /// Maps the existing page file at `path`: the runtime's side.
    pub fn open(path: &Path) -> std::io::Result<Mapped> {
        let f = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
        if f.metadata()?.len() < PAGE_BYTES as u64 {
            return Err(std::io::Error::other("the progress page is too short"));
        }
        Mapped::map(&f)
    }

    fn map(f: &std::fs::File) -> std::io::Result<Mapped> {
        use std::os::fd::AsRawFd;
        // SAFETY: a fresh shared mapping of PAGE_BYTES bytes of a file at least that long; the
        // mapping outlives the descriptor.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                PAGE_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                f.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Mapped { ptr: p.cast() })
    }

    /// The mapping kept for the rest of the process (the runtime's: the emulator's counter must
    /// outlive every launch).
    pub fn leak(self) -> &'static Page {
        let p = self.ptr;
        std::mem::forget(self);
        // SAFETY: never unmapped from now on; page-aligned, and all-zero bytes are a valid Page.
        unsafe { &*p }
    }
}

impl std::ops::Deref for Mapped {
    type Target = Page;
    fn deref(&self) -> &Page {
        // SAFETY: mapped until drop; page-aligned, and all-zero bytes are a valid Page.
        unsafe { &*self.ptr }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, not used after this.
        unsafe { libc::munmap(self.ptr.cast(), PAGE_BYTES) };
    }
}

impl Page {
    /// The runtime: launch `launch` of `blocks` blocks is on the page until the guard drops.
    pub fn show(&self, launch: u64, label: &str, blocks: u64) -> Showing<'_> {
        self.begin(launch, label, blocks);
        Showing { page: self, launch }
    }

    /// The runtime: launch `launch` of `blocks` blocks begins (its counter is [`Page::done`]).
    pub fn begin(&self, launch: u64, label: &str, blocks: u64) {
        self.seq.fetch_add(1, Ordering::SeqCst);
        self.state.store(RUNNING, Ordering::SeqCst);
        self.launch.store(launch, Ordering::SeqCst);
        self.started_ns.store(now_ns(), Ordering::SeqCst);
        self.ended_ns.store(0, Ordering::SeqCst);
        self.blocks.store(blocks, Ordering::SeqCst);
        self.done.store(0, Ordering::SeqCst);
        let mut n = label.len().min(LABEL);
        while !label.is_char_boundary(n) {
            n -= 1;
        }
        for (slot, b) in self.label.iter().zip(&label.as_bytes()[..n]) {
            slot.store(*b, Ordering::Relaxed);
        }
        self.label_len.store(n as u64, Ordering::SeqCst);
        self.seq.fetch_add(1, Ordering::SeqCst);
    }

    /// The runtime: the launch ended. When it was long and a bar may be on the terminal, waits
    /// (at most a second) until the drawing side has taken it away.
    pub fn end(&self, launch: u64) {
        self.seq.fetch_add(1, Ordering::SeqCst);
        let now = now_ns();
        self.ended_ns.store(now, Ordering::SeqCst);
        self.state.store(ENDED, Ordering::SeqCst);
        self.seq.fetch_add(1, Ordering::SeqCst);
        let long = now.saturating_sub(self.started_ns.load(Ordering::SeqCst)) as f64 / 1e9 >= LONG_LAUNCH_S;
        if long && self.drawing.load(Ordering::SeqCst) == 1 {
            for _ in 0..500 {
                if self.acked.load(Ordering::SeqCst) > launch {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }

    /// The launch's fields, consistent (`None` when the runtime was rewriting them throughout).
    pub fn snapshot(&self) -> Option<Snapshot> {
        for _ in 0..1000 {
            let s0 = self.seq.load(Ordering::SeqCst);
            if s0 % 2 == 1 {
                std::thread::yield_now();
                continue;
            }
            let n = (self.label_len.load(Ordering::SeqCst) as usize).min(LABEL);
            let bytes: Vec<u8> = self.label[..n]
                .iter()
                .map(|b| b.load(Ordering::Relaxed))
                .collect();
            let snap = Snapshot {
                state: self.state.load(Ordering::SeqCst),
                launch: self.launch.load(Ordering::SeqCst),
                started_ns: self.started_ns.load(Ordering::SeqCst),
                ended_ns: self.ended_ns.load(Ordering::SeqCst),
                blocks: self.blocks.load(Ordering::SeqCst),
                done: self.done.load(Ordering::Relaxed),
                label: String::from_utf8_lossy(&bytes).into_owned(),
            };
            if self.seq.load(Ordering::SeqCst) == s0 {
                return Some(snap);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_through_the_page() {
        let path = std::env::temp_dir().join(format!("warpscope-page-test-{}", std::process::id()));
        let drawer = Mapped::create(&path).unwrap();
        let runtime = Mapped::open(&path).unwrap().leak();
        assert_eq!(drawer.snapshot().unwrap().state, IDLE);
        runtime.begin(3, "k<<<(4,1,1),(32,1,1)>>>", 4);
        runtime.done.fetch_add(2, Ordering::Relaxed);
        let s = drawer.snapshot().unwrap();
        assert_eq!((s.state, s.launch, s.blocks, s.done), (RUNNING, 3, 4, 2));
        assert_eq!(s.label, "k<<<(4,1,1),(32,1,1)>>>");
        runtime.end(3);
        let s = drawer.snapshot().unwrap();
        assert_eq!(s.state, ENDED);
        assert!(s.ended_ns >= s.started_ns);
        let _ = std::fs::remove_file(&path);
    }
}
