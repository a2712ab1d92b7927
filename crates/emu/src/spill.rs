//! Device memory the host may page out. A GPU keeps a program's device allocations in its own
//! memory, outside the host's; the emulation keeps them in host memory, so a program whose device
//! arrays are as large as its host arrays would need twice its own memory. Regions of at least
//! [`spill_from`] bytes are therefore mapped from an unlinked file on disk (`MAP_SHARED`; in
//! `WARPSCOPE_SPILL_DIR`, else `TMPDIR`, else `/var/tmp`) instead of anonymous memory, and a watcher
//! thread drops their pages from the process (`MADV_DONTNEED`) whenever more than the resident
//! budget of file pages is mapped. Dropping a page of a shared file mapping loses nothing: its bytes
//! stay in the file's page cache, the next access maps the same page again, and under memory
//! pressure the kernel writes them to the file and frees the page. Atomics stay atomic: every
//! thread maps the one page-cache page.
//!
//! A file is made only where it is safe: its blocks are reserved up front (`posix_fallocate`), so a
//! full disk is found at the allocation (which then falls back to anonymous memory) and never as a
//! fault in the middle of a launch; a file system in memory (tmpfs, ramfs) would gain nothing and
//! is not used. `WARPSCOPE_SPILL=0` turns spilling off; `WARPSCOPE_SPILL_FROM_MB` (default 256)
//! and `WARPSCOPE_RESIDENT_MB` (default 512) set the region size from which it applies and the
//! budget.

#[cfg(target_os = "linux")]
use std::sync::{Mutex, OnceLock};

/// Regions of at least this many bytes are spilled (0: spilling is off).
pub(crate) fn spill_from() -> usize {
    static FROM: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *FROM.get_or_init(|| {
        if std::env::var_os("WARPSCOPE_SPILL").is_some_and(|v| v == "0") {
            return 0;
        }
        env_mb("WARPSCOPE_SPILL_FROM_MB", 256).max(1)
    })
}

fn env_mb(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(default)
        .saturating_mul(1 << 20)
}

/// The mappings the watcher may drop pages of: (address, length). Held while pages are dropped,
/// and by [`unmap`] before a mapping goes, so no range is advised after it was unmapped (and
/// perhaps mapped again for something else).
#[cfg(target_os = "linux")]
fn registry() -> &'static Mutex<Vec<(usize, usize)>> {
    static R: OnceLock<Mutex<Vec<(usize, usize)>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

/// `bytes` zero bytes mapped from a fresh unlinked file, or `None` where that cannot be done
/// safely (the caller maps anonymous memory). Returns the mapping, its length and the file's
/// descriptor (kept open for [`write_at`] and [`read_at`]; [`unmap`] closes it).
#[cfg(target_os = "linux")]
pub(crate) fn map(bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize, i32)> {
    let dir = std::env::var_os("WARPSCOPE_SPILL_DIR")
        .or_else(|| std::env::var_os("TMPDIR"))
        .unwrap_or_else(|| "/var/tmp".into());
    let dir = std::ffi::CString::new(std::os::unix::ffi::OsStrExt::as_bytes(dir.as_os_str())).ok()?;
    let len = bytes.checked_next_multiple_of(1 << 21)?;
    // SAFETY: plain system calls on a path and a descriptor this function owns; every result is
    // checked, and the descriptor is closed on every path but success.
    unsafe {
        let mut fs: libc::statfs = std::mem::zeroed();
        if libc::statfs(dir.as_ptr(), &mut fs) != 0 {
            return None;
        }
        // tmpfs, ramfs: the pages would stay in memory whatever is dropped
        const TMPFS: i64 = 0x0102_1994;
        const RAMFS: i64 = 0x8584_58f6;
        if matches!(fs.f_type as i64, TMPFS | RAMFS) {
            return None;
        }
        let fd = libc::open(
            dir.as_ptr(),
            libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC,
            0o600,
        );
        if fd < 0 {
            return None;
        }
        let ok = libc::posix_fallocate(fd, 0, len as libc::off_t) == 0;
        let p = if ok {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        } else {
            libc::MAP_FAILED
        };
        if p == libc::MAP_FAILED {
            libc::close(fd);
            return None;
        }
        registry()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((p as usize, len));
        start_watcher();
        Some((std::ptr::NonNull::new(p.cast())?, len, fd))
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn map(_bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize, i32)> {
    None
}

/// Host copies into and out of a spilled region go through the file (`pwrite`/`pread`: the same
/// page cache the mapping shows, without mapping a page into the process or faulting on it), in
/// pieces on every host thread. Whether every byte was copied (`false`: the caller copies through
/// the mapping; a piece copied twice holds the same bytes).
const PIECE: usize = 16 << 20;

#[cfg(target_os = "linux")]
pub(crate) fn write_at(fd: i32, off: usize, data: &[u8]) -> bool {
    use rayon::prelude::*;
    data.par_chunks(PIECE).enumerate().all(|(i, c)| {
        // SAFETY: `c[done..]` is readable for `c.len() - done` bytes; `fd` is a spilled region's file.
        whole(c.len(), off + i * PIECE, |done, at| unsafe {
            libc::pwrite(fd, c[done..].as_ptr().cast(), c.len() - done, at)
        })
    })
}

#[cfg(target_os = "linux")]
pub(crate) fn read_at(fd: i32, off: usize, out: &mut [u8]) -> bool {
    use rayon::prelude::*;
    out.par_chunks_mut(PIECE).enumerate().all(|(i, c)| {
        let len = c.len();
        // SAFETY: `c[done..]` is writable for `len - done` bytes; `fd` is a spilled region's file.
        whole(len, off + i * PIECE, |done, at| unsafe {
            libc::pread(fd, c[done..].as_mut_ptr().cast(), len - done, at)
        })
    })
}

/// Repeats `io(done, file offset)` (a `pread` or `pwrite` of the bytes from `done` on) until `len`
/// bytes from file offset `at` are moved, retrying after a signal; whether they all were.
#[cfg(target_os = "linux")]
fn whole(len: usize, at: usize, mut io: impl FnMut(usize, libc::off_t) -> isize) -> bool {
    let mut done = 0;
    while done < len {
        let n = io(done, (at + done) as libc::off_t);
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        done += n as usize;
    }
    true
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn write_at(_fd: i32, _off: usize, _data: &[u8]) -> bool {
    false
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn read_at(_fd: i32, _off: usize, _out: &mut [u8]) -> bool {
    false
}

/// Unmaps a mapping made by [`map`] and closes its file.
///
/// # Safety
/// `p`, `len` and `fd` are what [`map`] returned, not used after this call.
#[cfg(target_os = "linux")]
pub(crate) unsafe fn unmap(p: *mut u8, len: usize, fd: i32) {
    let mut r = registry().lock().unwrap_or_else(|e| e.into_inner());
    r.retain(|&(a, _)| a != p as usize);
    // SAFETY: the caller's contract; the registry's lock keeps the watcher off it meanwhile.
    unsafe {
        libc::munmap(p.cast(), len);
        libc::close(fd);
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) unsafe fn unmap(_p: *mut u8, _len: usize, _fd: i32) {}

/// File pages mapped into the process (`/proc/self/statm`'s third field: file and shared
/// memory pages), in bytes.
#[cfg(target_os = "linux")]
fn file_resident() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = s.split_whitespace().nth(2)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * usize::try_from(page).ok()?)
}

/// Starts the watcher once: every 10 ms, when more than the budget of file pages is mapped, the
/// spilled mappings' pages are dropped from the process.
#[cfg(target_os = "linux")]
fn start_watcher() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let budget = env_mb("WARPSCOPE_RESIDENT_MB", 512);
        let _ = std::thread::Builder::new()
            .name("warpscope-spill".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    if file_resident().is_some_and(|b| b > budget) {
                        drop_pages();
                    }
                }
            });
    });
}

/// Drops every spilled mapping's pages from the process (their bytes stay in the files).
#[cfg(target_os = "linux")]
fn drop_pages() {
    let r = registry().lock().unwrap_or_else(|e| e.into_inner());
    for &(a, len) in r.iter() {
        // SAFETY: a live shared file mapping (the lock keeps `unmap` out): dropping its pages
        // keeps its contents, which the next access maps again.
        unsafe { libc::madvise(a as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Bytes written through a spilled mapping survive its pages being dropped (the property the
    /// watcher relies on), and the mapping's pages leave the process's resident set.
    #[test]
    fn dropped_pages_keep_their_bytes() {
        let Some((p, len, fd)) = map(8 << 20) else {
            panic!("no spill file could be made in WARPSCOPE_SPILL_DIR, TMPDIR or /var/tmp");
        };
        let words = len / 4;
        // SAFETY: `len` bytes mapped read-write, 4-aligned.
        let s = unsafe { std::slice::from_raw_parts_mut(p.as_ptr().cast::<u32>(), words) };
        for (i, w) in s.iter_mut().enumerate() {
            *w = (i as u32).wrapping_mul(2_654_435_761);
        }
        let before = file_resident().unwrap();
        drop_pages();
        let after = file_resident().unwrap();
        assert!(
            before - after >= len / 2,
            "{before} -> {after}: the mapping's pages stayed resident"
        );
        assert!(
            s.iter()
                .enumerate()
                .all(|(i, &w)| w == (i as u32).wrapping_mul(2_654_435_761)),
            "bytes lost"
        );
        // the file shows what the mapping holds, and a write to it shows in the mapping
        let mut back = vec![0u8; 4096];
        assert!(read_at(fd, 4096, &mut back));
        assert_eq!(back[..4], 1024u32.wrapping_mul(2_654_435_761).to_le_bytes());
        assert!(write_at(fd, 8, &[1, 2, 3, 4]));
        assert_eq!(s[2], u32::from_le_bytes([1, 2, 3, 4]));
        // SAFETY: mapped above, not used after.
        unsafe { unmap(p.as_ptr(), len, fd) };
    }
}
