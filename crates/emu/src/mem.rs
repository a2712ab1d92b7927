//! Emulated memories. Global memory is shared by all blocks (which run in parallel), so it is
//! stored as atomic 32-bit words; shared and local memory belong to one block and are plain bytes.

use std::sync::Mutex;

use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

mod shadow;
pub use shadow::{SHADOW_MAX_BLOCKS, Shadow};

/// Generic-address window of the block's shared memory: generic = `SHARED_WINDOW + offset`.
///
/// The windows lie above 2^56, where no host process's memory is (x86-64 user space ends below
/// 2^47, or 2^56 with five-level paging), since the runtime mirrors host memory (pinned, mapped,
/// registered) at its own address: below that, a `malloc`ed buffer that the kernel reads through
/// `cudaHostRegister` could fall in a window (one did at 0x7f00_3e81_d000).
pub const SHARED_WINDOW: u64 = 0x0100_7f00_0000_0000;
/// Generic-address window of the thread's local memory.
pub const LOCAL_WINDOW: u64 = 0x0100_7e00_0000_0000;
/// Generic-address window of the constant bank.
pub const CONST_WINDOW: u64 = 0x0100_7d00_0000_0000;
/// Base of the generic window onto the kernel's parameters (`cvta.param`: a `__grid_constant__`
/// parameter's address, a tensor map passed by value).
pub const PARAM_WINDOW: u64 = 0x0100_7c00_0000_0000;
/// Size of each window.
pub const WINDOW: u64 = 1 << 32;
/// The bits of a shared::cluster address that are an offset in one block's shared memory.
pub const CLUSTER_OFFSET: u64 = (1 << 24) - 1;

/// The shared::cluster address of offset `o` (its low 24 bits) in the shared memory of the
/// cluster's block of rank `rank`: `(rank + 1) << 24 | o`, what `mapa` returns. A plain offset
/// (bits 24 and up 0) is the executing block's own, as a `.shared::cta` address is in the
/// `.shared::cluster` window. (The H100 puts `rank << 24` in every shared address, its own
/// included; the emulator's `.shared::cta` addresses stay plain offsets, so the rank is offset
/// by one.) The generic address of a shared::cluster address is [`SHARED_WINDOW`] plus it.
pub fn cluster_address(rank: u32, o: u64) -> u64 {
    ((u64::from(rank) + 1) << 24) | (o & CLUSTER_OFFSET)
}

/// The rank a shared-window offset names (`None`: a plain offset, the executing block's own).
#[inline(always)]
pub fn cluster_rank(o: u64) -> Option<u32> {
    let t = o >> 24;
    (t != 0).then(|| (t - 1) as u32)
}

/// First address given to launch buffers.
pub const BUFFER_BASE: u64 = 0x1_0000_0000;

/// One global allocation.
pub struct Region {
    /// Base address.
    pub base: u64,
    /// Length in bytes.
    pub len: u64,
    words: Words,
    /// All zeros since it was made zeroed (no host copy, no launch wrote it since): a launch's
    /// shadow then knows the words' values before its writes without keeping them.
    zero: std::sync::atomic::AtomicBool,
}

/// Sixteen atomic words on a cache line of their own.
#[repr(C, align(64))]
struct Line([AtomicU32; 16]);

/// Atomic words stored from a cache-line boundary on: blocks that run on different host threads
/// and touch different 64-byte lines of the device's memory (or of a shadow's states) touch
/// different host cache lines too, instead of sharing the lines that straddle theirs.
pub(crate) struct Words {
    /// The first line (inside the allocation, on a 64-byte boundary).
    lines: std::ptr::NonNull<Line>,
    len: usize,
    /// The allocation (`None`: no words) and its layout.
    alloc: Option<(std::ptr::NonNull<u8>, std::alloc::Layout)>,
    /// How the allocation was made (a mapping: `alloc` holds it and its length, align 1).
    kind: WordsKind,
}

/// Where a [`Words`]' allocation comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordsKind {
    /// The global allocator.
    Heap,
    /// Mapped apart in transparent huge pages.
    Huge,
    /// Mapped from a file the host may page out ([`crate::spill`]), with its descriptor.
    Spilled(i32),
}

/// Allocations of at least this many bytes are mapped apart, in transparent huge pages.
const HUGE_FROM: usize = 4 << 20;
const HUGE_PAGE: usize = 2 << 20;

/// Whether large allocations are asked for huge pages (`WARPSCOPE_HUGE_PAGES=0` turns it off).
fn huge_pages() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("WARPSCOPE_HUGE_PAGES").is_none_or(|v| v != "0"))
}

/// `bytes` zero bytes mapped on a huge-page boundary and advised to be backed by transparent huge
/// pages: a launch touching them faults a 2 MB page at a time (not 512 of 4 KB, each taking the
/// address space's lock) and its loads miss the TLB less. The mapping and its length, or `None`
/// where mapping fails (the caller allocates as usual).
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize)> {
    let len = bytes.checked_add(HUGE_PAGE)?;
    // SAFETY: an anonymous private mapping of `len` bytes; the result is checked.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    let start = p as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    // the head and tail beyond the aligned `bytes` (rounded up to whole huge pages) given back
    let end = (aligned + bytes.next_multiple_of(HUGE_PAGE)).min(start + len);
    // SAFETY: both ranges lie inside the mapping just made and are page-aligned.
    unsafe {
        if aligned > start {
            libc::munmap(p, aligned - start);
        }
        if start + len > end {
            libc::munmap(end as *mut libc::c_void, start + len - end);
        }
        // advice only: a kernel without transparent huge pages keeps small ones
        libc::madvise(aligned as *mut libc::c_void, end - aligned, libc::MADV_HUGEPAGE);
    }
    Some((std::ptr::NonNull::new(aligned as *mut u8)?, end - aligned))
}

#[cfg(not(target_os = "linux"))]
fn map_huge(_bytes: usize) -> Option<(std::ptr::NonNull<u8>, usize)> {
    None
}

// SAFETY: `Words` owns its allocation, whose contents are atomics.
unsafe impl Send for Words {}
// SAFETY: as above; shared access goes through the atomics.
unsafe impl Sync for Words {}

impl Drop for Words {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if self.kind == WordsKind::Huge {
            if let Some((p, layout)) = self.alloc {
                // SAFETY: mapped in `map_huge` with this length.
                unsafe { libc::munmap(p.as_ptr().cast(), layout.size()) };
            }
            return;
        }
        if let WordsKind::Spilled(fd) = self.kind {
            if let Some((p, layout)) = self.alloc {
                // SAFETY: mapped by `spill::map` with this length and file, not used after.
                unsafe { crate::spill::unmap(p.as_ptr(), layout.size(), fd) };
            }
            return;
        }
        if let Some((p, layout)) = self.alloc {
            // SAFETY: allocated in `Words::zeroed` with this layout.
            unsafe { std::alloc::dealloc(p.as_ptr(), layout) }
        }
    }
}

impl Words {
    /// `len` words of 0 (their pages untouched until used: the allocation is asked zeroed at the
    /// allocator's own alignment, which large zeroed allocations get from fresh pages, and the
    /// words start at its first 64-byte boundary; a zeroed allocation aligned to 64 would be
    /// written with zeros).
    pub(crate) fn zeroed(len: usize) -> Words {
        let n = len.div_ceil(16);
        if n == 0 {
            return Words {
                lines: std::ptr::NonNull::dangling(),
                len,
                alloc: None,
                kind: WordsKind::Heap,
            };
        }
        let from = crate::spill::spill_from();
        if from > 0
            && n * 64 >= from
            && let Some((p, bytes, fd)) = crate::spill::map(n * 64)
        {
            return Words {
                lines: p.cast::<Line>(),
                len,
                alloc: Some((
                    p,
                    std::alloc::Layout::from_size_align(bytes, 1).expect("a mapping's length"),
                )),
                kind: WordsKind::Spilled(fd),
            };
        }
        if n * 64 >= HUGE_FROM
            && huge_pages()
            && let Some((p, bytes)) = map_huge(n * 64)
        {
            return Words {
                lines: p.cast::<Line>(),
                len,
                alloc: Some((
                    p,
                    std::alloc::Layout::from_size_align(bytes, 1).expect("a mapping's length"),
                )),
                kind: WordsKind::Huge,
            };
        }
        let layout = n
            .checked_mul(64)
            .and_then(|b| b.checked_add(64 - 16))
            .and_then(|b| std::alloc::Layout::from_size_align(b, 16).ok())
            .expect("a region that fits in memory");
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(p) = std::ptr::NonNull::new(p) else {
            std::alloc::handle_alloc_error(layout);
        };
        let skip = p.as_ptr().align_offset(64);
        // SAFETY: `p` is 16-aligned, so `skip <= 48` and the allocation holds `skip + 64 n`
        // bytes: `n` whole lines from the boundary, all zero bytes (valid `AtomicU32`s).
        let lines = unsafe { p.add(skip) }.cast::<Line>();
        Words {
            lines,
            len,
            alloc: Some((p, layout)),
            kind: WordsKind::Heap,
        }
    }

    /// The little-endian words of `bytes` (the last one padded with zeros).
    pub(crate) fn from_bytes(bytes: &[u8]) -> Words {
        let w = Words::zeroed(bytes.len().div_ceil(4));
        for (c, word) in bytes.chunks(4).zip(w.iter()) {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            word.store(u32::from_le_bytes(b), Relaxed);
        }
        w
    }
}

impl std::ops::Deref for Words {
    type Target = [AtomicU32];
    fn deref(&self) -> &[AtomicU32] {
        // SAFETY: `Line` is `repr(C)` with sixteen `AtomicU32`s and no padding (64 bytes), so the
        // `len.div_ceil(16)` lines are at least `len` contiguous words (dangling and aligned for
        // none).
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<AtomicU32>(), self.len) }
    }
}

impl std::ops::DerefMut for Words {
    fn deref_mut(&mut self) -> &mut [AtomicU32] {
        // SAFETY: as `deref`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_ptr().cast::<AtomicU32>(), self.len) }
    }
}

/// The global address space.
pub struct Global {
    regions: Vec<Region>,
    lock64: Mutex<()>,
    /// Texture objects by handle (`cudaTextureObject_t`), which sample this space.
    textures: std::collections::HashMap<u64, crate::tex::Texture>,
    /// The shadow of the last launch that had one, cleared, for the next: a persistent space's
    /// launches reuse its pages instead of freeing and faulting in fresh ones each time.
    shadow_cache: Mutex<Option<Shadow>>,
    /// Mapped memory outside every region (see [`Slack`]).
    slack: Slack,
}

/// Mapped device memory that is no region: the rest of a 2 MiB page an allocation shares, the
/// driver's own memory around the allocations (`Global::set_mapped`). On a GPU an access there
/// does not fault (calibration/oob): a read returns what is there (zero where nothing was
/// written), a write lands. Its words live in a map, made on first write (such accesses are rare:
/// overruns); every access there is counted ([`Global::outside`]).
#[derive(Default)]
struct Slack {
    /// Mapped spans `[lo, hi)`, sorted, not overlapping.
    mapped: Vec<(u64, u64)>,
    /// Written words by 4-aligned address.
    words: Mutex<std::collections::HashMap<u64, u32>>,
    /// Accesses outside every region that hit mapped memory, and the first one.
    hits: std::sync::atomic::AtomicU64,
    first: Mutex<Option<Outside>>,
}

/// An access outside every region of the space, in mapped memory (see [`Global::outside`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outside {
    /// Its first byte.
    pub addr: u64,
    /// Bytes.
    pub width: u64,
    /// A write (or the write of an atomic).
    pub write: bool,
}

impl Global {
    /// Builds the space from (base, contents) pairs, sorted by base.
    pub fn new(mut init: Vec<(u64, Vec<u8>)>) -> Global {
        init.sort_by_key(|(b, _)| *b);
        let regions = init
            .into_iter()
            .map(|(base, bytes)| {
                let len = bytes.len() as u64;
                let words = Words::from_bytes(&bytes);
                Region {
                    base,
                    len,
                    words,
                    zero: false.into(),
                }
            })
            .collect();
        Global {
            regions,
            lock64: Mutex::new(()),
            textures: Default::default(),
            shadow_cache: Mutex::new(None),
            slack: Slack::default(),
        }
    }

    /// An empty shadow of this space for a launch: the last one's memory, cleared, where it is
    /// there.
    pub fn take_shadow(&self) -> Shadow {
        let old = self
            .shadow_cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        Shadow::renew(old, self)
    }

    /// A launch ran on this space: the regions it may have written are no longer known to be
    /// zero (those its shadow saw written when it ran in parallel without a conflict, all of them
    /// otherwise).
    pub fn launched(&self, shadow: Option<&Shadow>) {
        for (k, r) in self.regions.iter().enumerate() {
            if shadow.is_none_or(|s| s.conflict() || s.wrote(k)) {
                r.zero.store(false, Relaxed);
            }
        }
    }

    /// A launch ran on this space without a shadow, its blocks proven apart
    /// (`crate::disjoint`): the regions it may have written (indices in base order) are no
    /// longer known to be zero.
    pub(crate) fn launched_writing(&self, written: &[usize]) {
        for &k in written {
            if let Some(r) = self.regions.get(k) {
                r.zero.store(false, Relaxed);
            }
        }
    }

    /// The regions' (base, bytes), in base order.
    pub(crate) fn spans(&self) -> Vec<(u64, u64)> {
        self.regions.iter().map(|r| (r.base, r.len)).collect()
    }

    /// Keeps a launch's shadow for the next launch's [`Global::take_shadow`].
    pub fn keep_shadow(&self, sh: Shadow) {
        *self
            .shadow_cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(sh);
    }

    /// The bytes of the region at `base`.
    pub fn contents(&self, base: u64) -> Option<Vec<u8>> {
        let r = self.regions.iter().find(|r| r.base == base)?;
        let mut v: Vec<u8> = r
            .words
            .iter()
            .flat_map(|w| w.load(Relaxed).to_le_bytes())
            .collect();
        v.truncate(r.len as usize);
        Some(v)
    }

    #[inline]
    fn find(&self, addr: u64, w: u64) -> Option<(&Region, usize)> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        if i == 0 {
            return None;
        }
        let r = &self.regions[i - 1];
        let off = addr - r.base;
        if off.saturating_add(w) <= r.len {
            Some((r, off as usize))
        } else {
            None
        }
    }

    /// Index of the region holding `[addr, addr + w)`, trying `hint` first.
    #[inline(always)]
    fn region_hint(&self, hint: &mut usize, addr: u64, w: u64) -> Option<usize> {
        if let Some(r) = self.regions.get(*hint)
            && addr >= r.base
            && (addr - r.base).saturating_add(w) <= r.len
        {
            return Some(*hint);
        }
        let i = self.regions.partition_point(|r| r.base <= addr);
        let r = self.regions.get(i.checked_sub(1)?)?;
        if (addr - r.base).saturating_add(w) <= r.len {
            *hint = i - 1;
            Some(i - 1)
        } else {
            None
        }
    }

    /// The words of the region that holds all of `lo..hi` (byte addresses), and its base address:
    /// a warp's accesses that fall in one buffer find it once.
    #[inline]
    pub fn span(&self, lo: u64, hi: u64) -> Option<(&[AtomicU32], u64)> {
        let mut hint = 0;
        let r = &self.regions[self.region_hint(&mut hint, lo, hi.checked_sub(lo)?)?];
        Some((&r.words, r.base))
    }

    /// [`Global::span`] that tries the region `hint` first and remembers the region found in it
    /// (an instruction's accesses mostly fall in the buffer of its last one).
    #[inline(always)]
    pub fn span_hint(&self, hint: &mut usize, lo: u64, hi: u64) -> Option<(&[AtomicU32], u64)> {
        let r = &self.regions[self.region_hint(hint, lo, hi.checked_sub(lo)?)?];
        Some((&r.words, r.base))
    }

    /// [`Global::read`] that remembers the region in `hint` (consecutive lanes mostly hit the same).
    #[inline(always)]
    pub fn read_hint(&self, hint: &mut usize, addr: u64, w: u64) -> Option<u64> {
        let Some(k) = self.region_hint(hint, addr, w) else {
            return self.slack_read(addr, w);
        };
        let r = &self.regions[k];
        let off = (addr - r.base) as usize;
        let i = off / 4;
        Some(match w {
            4 => r.words[i].load(Relaxed) as u64,
            8 => r.words[i].load(Relaxed) as u64 | (r.words[i + 1].load(Relaxed) as u64) << 32,
            _ => return self.read(addr, w),
        })
    }

    /// [`Global::write`] that remembers the region in `hint`.
    #[inline(always)]
    pub fn write_hint(&self, hint: &mut usize, addr: u64, w: u64, v: u64) -> Option<()> {
        let Some(k) = self.region_hint(hint, addr, w) else {
            return self.slack_write(addr, w, v);
        };
        let r = &self.regions[k];
        let i = (addr - r.base) as usize / 4;
        match w {
            4 => r.words[i].store(v as u32, Relaxed),
            _ => return self.write(addr, w, v),
        }
        Some(())
    }

    /// Reads `w` (1, 2, 4 or 8, naturally aligned) bytes.
    #[inline]
    pub fn read(&self, addr: u64, w: u64) -> Option<u64> {
        let Some((r, off)) = self.find(addr, w) else {
            return self.slack_read(addr, w);
        };
        let i = off / 4;
        Some(match w {
            8 => r.words[i].load(Relaxed) as u64 | (r.words[i + 1].load(Relaxed) as u64) << 32,
            4 => r.words[i].load(Relaxed) as u64,
            _ => {
                let sh = (off % 4) * 8;
                let mask = if w == 2 { 0xffff } else { 0xff };
                (r.words[i].load(Relaxed) >> sh) as u64 & mask
            }
        })
    }

    /// Writes `w` bytes.
    #[inline]
    pub fn write(&self, addr: u64, w: u64, v: u64) -> Option<()> {
        let Some((r, off)) = self.find(addr, w) else {
            return self.slack_write(addr, w, v);
        };
        let i = off / 4;
        match w {
            8 => {
                r.words[i].store(v as u32, Relaxed);
                r.words[i + 1].store((v >> 32) as u32, Relaxed);
            }
            4 => r.words[i].store(v as u32, Relaxed),
            _ => {
                let sh = (off % 4) * 8;
                let mask: u32 = if w == 2 { 0xffff } else { 0xff };
                r.words[i].fetch_and(!(mask << sh), Relaxed);
                r.words[i].fetch_or(((v as u32) & mask) << sh, Relaxed);
            }
        }
        Some(())
    }

    /// Atomic read-modify-write: returns the old value. 32-bit values use a CAS loop on the word,
    /// 16-bit values (2-aligned: `atom.cas.b16`, `atom.add.noftz.f16`) one on the word holding
    /// them; 64-bit values are serialised by a lock.
    pub fn rmw(&self, addr: u64, w: u64, f: impl Fn(u64) -> u64) -> Option<u64> {
        let Some((r, off)) = self.find(addr, w) else {
            if !matches!(w, 2 | 4 | 8) || !self.mapped(addr, w) {
                return None;
            }
            // one lock for the read and the write: atomic against other accesses of the slack
            let mut g = self.slack.words.lock().unwrap_or_else(|e| e.into_inner());
            let old = self.slack_bytes(&g, addr, w)?;
            self.slack_put(&mut g, addr, w, f(old))?;
            drop(g);
            self.count_outside(addr, w, true);
            return Some(old);
        };
        let i = off / 4;
        match w {
            2 if off % 2 == 0 => {
                let sh = (off % 4) * 8;
                let mut old = r.words[i].load(Relaxed);
                loop {
                    let half = u64::from(old >> sh & 0xffff);
                    let new = (old & !(0xffff << sh)) | ((f(half) as u32 & 0xffff) << sh);
                    match r.words[i].compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(_) => return Some(half),
                        Err(x) => old = x,
                    }
                }
            }
            4 => {
                let mut old = r.words[i].load(Relaxed);
                loop {
                    let new = f(old as u64) as u32;
                    match r.words[i].compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(_) => return Some(old as u64),
                        Err(x) => old = x,
                    }
                }
            }
            8 => {
                let _g = self.lock64.lock().unwrap_or_else(|e| e.into_inner());
                let old = self.read(addr, 8)?;
                self.write(addr, 8, f(old))?;
                Some(old)
            }
            _ => None,
        }
    }
}

/// An address-space problem of [`Global::insert`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// Base of the region already there.
    pub base: u64,
}

impl crate::tex::Texels for Global {
    fn read(&self, addr: u64, bytes: u64) -> Option<u64> {
        Global::read(self, addr, bytes)
    }
}

impl Global {
    /// An empty space (a persistent one that a CUDA runtime fills with allocations, see
    /// [`crate::run_in`]).
    pub fn empty() -> Global {
        Global::new(Vec::new())
    }

    /// Registers texture object `handle` (replacing one of the same handle).
    pub fn insert_texture(&mut self, handle: u64, t: crate::tex::Texture) {
        self.textures.insert(handle, t);
    }

    /// Forgets texture object `handle`; whether it existed.
    pub fn remove_texture(&mut self, handle: u64) -> bool {
        self.textures.remove(&handle).is_some()
    }

    /// Texture object `handle`.
    pub fn texture(&self, handle: u64) -> Option<&crate::tex::Texture> {
        self.textures.get(&handle)
    }

    /// Every texture object.
    pub fn textures(&self) -> impl Iterator<Item = &crate::tex::Texture> {
        self.textures.values()
    }

    /// Adds a region of `bytes` at `base`; refuses one that overlaps a region already there.
    pub fn insert(&mut self, base: u64, bytes: &[u8]) -> Result<(), Overlap> {
        self.insert_words(base, bytes.len() as u64, false, || Words::from_bytes(bytes))
    }

    /// [`Global::insert`] of `len` zero bytes (an allocation: its pages are not touched until
    /// used).
    pub fn insert_zeroed(&mut self, base: u64, len: usize) -> Result<(), Overlap> {
        self.insert_words(base, len as u64, true, || Words::zeroed(len.div_ceil(4)))
    }

    fn insert_words(
        &mut self,
        base: u64,
        len: u64,
        zero: bool,
        words: impl FnOnce() -> Words,
    ) -> Result<(), Overlap> {
        let i = self.regions.partition_point(|r| r.base < base);
        if let Some(p) = i.checked_sub(1).map(|p| &self.regions[p])
            && p.base + p.len.max(1) > base
        {
            return Err(Overlap { base: p.base });
        }
        if let Some(n) = self.regions.get(i)
            && n.base < base.saturating_add(len.max(1))
        {
            return Err(Overlap { base: n.base });
        }
        let words = words();
        self.regions.insert(
            i,
            Region {
                base,
                len,
                words,
                zero: zero.into(),
            },
        );
        Ok(())
    }

    /// Removes the region that starts at `base` without reading it (a freed allocation);
    /// whether there was one.
    pub fn discard(&mut self, base: u64) -> bool {
        let n = self.regions.len();
        self.regions.retain(|r| r.base != base);
        self.regions.len() < n
    }

    /// Removes the region that starts at `base` and returns its bytes.
    pub fn remove(&mut self, base: u64) -> Option<Vec<u8>> {
        let bytes = self.contents(base)?;
        self.regions.retain(|r| r.base != base);
        Some(bytes)
    }

    /// The region holding `addr`: (base, length).
    pub fn region_of(&self, addr: u64) -> Option<(u64, u64)> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        let r = self.regions.get(i.checked_sub(1)?)?;
        (addr - r.base < r.len).then_some((r.base, r.len))
    }

    /// Regions as (base, length), in address order.
    pub fn regions(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.regions.iter().map(|r| (r.base, r.len))
    }

    /// Copies `out.len()` bytes from `addr`; `None` (nothing copied) when the range is not inside
    /// one region.
    pub fn read_range(&self, addr: u64, out: &mut [u8]) -> Option<()> {
        let Some((r, off)) = self.find(addr, out.len() as u64) else {
            if out.is_empty() || !self.mapped(addr, out.len() as u64) {
                return None;
            }
            for (i, o) in out.iter_mut().enumerate() {
                *o = self.slack_read(addr + i as u64, 1)? as u8;
            }
            return Some(());
        };
        // a spilled region's file holds its words' little-endian bytes from offset 0
        if cfg!(target_endian = "little")
            && let WordsKind::Spilled(fd) = r.words.kind
            && crate::spill::read_at(fd, off, out)
        {
            return Some(());
        }
        let mut k = 0;
        while k < out.len() {
            let o = off + k;
            if o % 4 == 0 && k + 4 <= out.len() {
                // whole words at a time
                let n = (out.len() - k) / 4;
                let copy = |out: &mut [u8], words: &[AtomicU32]| {
                    for (c, w) in out.chunks_exact_mut(4).zip(words) {
                        c.copy_from_slice(&w.load(Relaxed).to_le_bytes());
                    }
                };
                let (out, words) = (&mut out[k..k + 4 * n], &r.words[o / 4..o / 4 + n]);
                if n >= PARALLEL_COPY_WORDS {
                    // a large copy on every host thread
                    out.par_chunks_mut(4 * COPY_PIECE_WORDS)
                        .zip(words.par_chunks(COPY_PIECE_WORDS))
                        .for_each(|(o, w)| copy(o, w));
                } else {
                    copy(out, words);
                }
                k += 4 * n;
            } else {
                out[k] = (r.words[o / 4].load(Relaxed) >> ((o % 4) * 8)) as u8;
                k += 1;
            }
        }
        Some(())
    }

    /// Copies `data` to `addr`; `None` (nothing written) when the range is not inside one region.
    pub fn write_range(&self, addr: u64, data: &[u8]) -> Option<()> {
        let Some((r, off)) = self.find(addr, data.len() as u64) else {
            if data.is_empty() || !self.mapped(addr, data.len() as u64) {
                return None;
            }
            for (i, &b) in data.iter().enumerate() {
                self.slack_write(addr + i as u64, 1, u64::from(b))?;
            }
            return Some(());
        };
        r.zero.store(false, Relaxed);
        if cfg!(target_endian = "little")
            && let WordsKind::Spilled(fd) = r.words.kind
            && crate::spill::write_at(fd, off, data)
        {
            return Some(());
        }
        let mut k = 0;
        while k < data.len() {
            let o = off + k;
            if o % 4 == 0 && k + 4 <= data.len() {
                // whole words at a time
                let n = (data.len() - k) / 4;
                let copy = |data: &[u8], words: &[AtomicU32]| {
                    for (c, w) in data.chunks_exact(4).zip(words) {
                        w.store(u32::from_le_bytes([c[0], c[1], c[2], c[3]]), Relaxed);
                    }
                };
                let (data, words) = (&data[k..k + 4 * n], &r.words[o / 4..o / 4 + n]);
                if n >= PARALLEL_COPY_WORDS {
                    data.par_chunks(4 * COPY_PIECE_WORDS)
                        .zip(words.par_chunks(COPY_PIECE_WORDS))
                        .for_each(|(d, w)| copy(d, w));
                } else {
                    copy(data, words);
                }
                k += 4 * n;
            } else {
                let sh = (o % 4) * 8;
                let w = &r.words[o / 4];
                let old = w.load(Relaxed);
                w.store((old & !(0xff << sh)) | (u32::from(data[k]) << sh), Relaxed);
                k += 1;
            }
        }
        Some(())
    }
}

impl Global {
    /// Declares the mapped device memory: spans `[lo, hi)` (any order, may overlap regions) where
    /// an access outside every region reads and writes memory instead of faulting (see
    /// [`Slack`]). Words written there before stay where the new spans keep them.
    pub fn set_mapped(&mut self, mut spans: Vec<(u64, u64)>) {
        spans.retain(|&(lo, hi)| lo < hi);
        spans.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            match merged.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        self.slack.mapped = merged;
        let mapped = &self.slack.mapped;
        self.slack
            .words
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&a, _| Self::in_spans(mapped, a, 4));
    }

    /// The mapped spans (see [`Global::set_mapped`]).
    pub fn mapped_spans(&self) -> &[(u64, u64)] {
        &self.slack.mapped
    }

    /// Forgets what was written to mapped memory outside every region in `[lo, hi)` (a new
    /// allocation there starts from its own zeros).
    pub fn clear_slack(&mut self, lo: u64, hi: u64) {
        self.slack
            .words
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&a, _| a + 4 <= lo || a >= hi);
    }

    fn in_spans(spans: &[(u64, u64)], addr: u64, w: u64) -> bool {
        let i = spans.partition_point(|&(lo, _)| lo <= addr);
        i > 0 && addr.saturating_add(w) <= spans[i - 1].1
    }

    /// Whether `[addr, addr + w)` is mapped memory (in a region or a mapped span).
    pub fn mapped(&self, addr: u64, w: u64) -> bool {
        Self::in_spans(&self.slack.mapped, addr, w)
            || (0..w).all(|i| {
                let a = addr.wrapping_add(i);
                self.region_of(a).is_some() || Self::in_spans(&self.slack.mapped, a, 1)
            })
    }

    /// How many accesses outside every region hit mapped memory since the last call, and the
    /// first of them; the count starts again.
    pub fn take_outside(&self) -> (u64, Option<Outside>) {
        let n = self.slack.hits.swap(0, Relaxed);
        let first = self.slack.first.lock().unwrap_or_else(|e| e.into_inner()).take();
        (n, first)
    }

    fn count_outside(&self, addr: u64, width: u64, write: bool) {
        if self.slack.hits.fetch_add(1, Relaxed) == 0 {
            let mut f = self.slack.first.lock().unwrap_or_else(|e| e.into_inner());
            f.get_or_insert(Outside { addr, width, write });
        }
    }

    /// Byte `a` outside every region, from the slack's words.
    fn slack_byte(words: &std::collections::HashMap<u64, u32>, a: u64) -> u8 {
        words.get(&(a & !3)).map_or(0, |w| (w >> ((a & 3) * 8)) as u8)
    }

    /// `w` bytes from `addr`, each from its region or the slack (`None`: one is unmapped).
    fn slack_bytes(&self, words: &std::collections::HashMap<u64, u32>, addr: u64, w: u64) -> Option<u64> {
        let mut v = 0u64;
        for i in 0..w.min(8) {
            let a = addr.checked_add(i)?;
            let b = match self.find(a, 1) {
                Some((r, off)) => (r.words[off / 4].load(Relaxed) >> ((off % 4) * 8)) as u8,
                None if Self::in_spans(&self.slack.mapped, a, 1) => Self::slack_byte(words, a),
                None => return None,
            };
            v |= u64::from(b) << (8 * i);
        }
        Some(v)
    }

    fn slack_put(
        &self,
        words: &mut std::collections::HashMap<u64, u32>,
        addr: u64,
        w: u64,
        v: u64,
    ) -> Option<()> {
        for i in 0..w.min(8) {
            let a = addr.checked_add(i)?;
            let b = (v >> (8 * i)) as u8;
            match self.find(a, 1) {
                Some((r, off)) => {
                    let sh = (off % 4) * 8;
                    let word = &r.words[off / 4];
                    word.fetch_and(!(0xff << sh), Relaxed);
                    word.fetch_or(u32::from(b) << sh, Relaxed);
                }
                None if Self::in_spans(&self.slack.mapped, a, 1) => {
                    let e = words.entry(a & !3).or_insert(0);
                    let sh = (a & 3) * 8;
                    *e = (*e & !(0xff << sh)) | (u32::from(b) << sh);
                }
                None => return None,
            }
        }
        Some(())
    }

    /// A read outside every region (or straddling one's end): the mapped bytes, or `None` where a
    /// byte is unmapped (a fault).
    #[cold]
    fn slack_read(&self, addr: u64, w: u64) -> Option<u64> {
        if self.slack.mapped.is_empty() {
            return None;
        }
        let g = self.slack.words.lock().unwrap_or_else(|e| e.into_inner());
        let v = self.slack_bytes(&g, addr, w)?;
        drop(g);
        self.count_outside(addr, w, false);
        Some(v)
    }

    /// A write outside every region (or straddling one's end): `None` (nothing written) where a
    /// byte is unmapped.
    #[cold]
    fn slack_write(&self, addr: u64, w: u64, v: u64) -> Option<()> {
        if self.slack.mapped.is_empty() || !self.mapped(addr, w) {
            return None;
        }
        let mut g = self.slack.words.lock().unwrap_or_else(|e| e.into_inner());
        self.slack_put(&mut g, addr, w, v)?;
        drop(g);
        self.count_outside(addr, w, true);
        Some(())
    }
}

impl Global {
    /// Sets `len` bytes from `addr` to `value` (a memset); `None` (nothing written) when the range
    /// is not inside one region. A whole region set to zeros is known to be zero again.
    pub fn fill(&self, addr: u64, len: usize, value: u8) -> Option<()> {
        let (r, off) = self.find(addr, len as u64)?;
        // the bytes before the first whole word and after the last one
        let head = ((4 - off % 4) % 4).min(len);
        let words = (len - head) / 4;
        let byte = |o: usize| {
            let sh = (o % 4) * 8;
            let w = &r.words[o / 4];
            let old = w.load(Relaxed);
            w.store((old & !(0xff << sh)) | (u32::from(value) << sh), Relaxed);
        };
        for o in off..off + head {
            byte(o);
        }
        let v = u32::from_ne_bytes([value; 4]);
        let span = &r.words[(off + head) / 4..(off + head) / 4 + words];
        if words >= PARALLEL_COPY_WORDS {
            span.par_chunks(COPY_PIECE_WORDS)
                .for_each(|c| c.iter().for_each(|w| w.store(v, Relaxed)));
        } else {
            span.iter().for_each(|w| w.store(v, Relaxed));
        }
        for o in off + head + 4 * words..off + len {
            byte(o);
        }
        let whole = off == 0 && len as u64 == r.len;
        r.zero
            .store(value == 0 && (whole || r.zero.load(Relaxed)), Relaxed);
        Some(())
    }
}

/// Host copies of at least this many words run on every host thread ([`Global::read_range`],
/// [`Global::write_range`]), in pieces of `COPY_PIECE_WORDS`.
const PARALLEL_COPY_WORDS: usize = 1 << 20;
const COPY_PIECE_WORDS: usize = 1 << 16;

/// Reads `w` (1, 2, 4 or 8) little-endian bytes from a plain byte memory.
#[inline(always)]
pub fn read_bytes(m: &[u8], off: u64, w: u64) -> Option<u64> {
    let o = usize::try_from(off).ok()?;
    Some(match w {
        4 => u32::from_le_bytes(m.get(o..o.checked_add(4)?)?.try_into().ok()?) as u64,
        8 => u64::from_le_bytes(m.get(o..o.checked_add(8)?)?.try_into().ok()?),
        2 => u16::from_le_bytes(m.get(o..o.checked_add(2)?)?.try_into().ok()?) as u64,
        1 => *m.get(o)? as u64,
        _ => return None,
    })
}

/// Writes `w` (1, 2, 4 or 8) little-endian bytes into a plain byte memory.
#[inline(always)]
pub fn write_bytes(m: &mut [u8], off: u64, w: u64, v: u64) -> Option<()> {
    let o = usize::try_from(off).ok()?;
    match w {
        4 => m
            .get_mut(o..o.checked_add(4)?)?
            .copy_from_slice(&(v as u32).to_le_bytes()),
        8 => m.get_mut(o..o.checked_add(8)?)?.copy_from_slice(&v.to_le_bytes()),
        2 => m
            .get_mut(o..o.checked_add(2)?)?
            .copy_from_slice(&(v as u16).to_le_bytes()),
        1 => *m.get_mut(o)? = v as u8,
        _ => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_read_write_and_bounds() {
        let g = Global::new(vec![(BUFFER_BASE, vec![0u8; 10])]);
        g.write(BUFFER_BASE + 1, 1, 0xab).unwrap();
        g.write(BUFFER_BASE + 2, 2, 0x1234).unwrap();
        assert_eq!(g.read(BUFFER_BASE, 4), Some(0x1234ab00));
        g.write(BUFFER_BASE, 8, 0x1122334455667788).unwrap();
        assert_eq!(g.read(BUFFER_BASE + 4, 4), Some(0x11223344));
        assert_eq!(g.read(BUFFER_BASE + 8, 4), None); // crosses the end (len 10)
        assert_eq!(g.read(BUFFER_BASE - 4, 4), None);
        assert_eq!(g.rmw(BUFFER_BASE, 4, |x| x + 1), Some(0x55667788));
        assert_eq!(g.read(BUFFER_BASE, 4), Some(0x55667789));
        assert_eq!(g.contents(BUFFER_BASE).unwrap().len(), 10);
    }

    #[test]
    fn persistent_regions() {
        let mut g = Global::empty();
        g.insert(BUFFER_BASE, &[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(
            g.insert(BUFFER_BASE + 4, &[0; 4]),
            Err(Overlap { base: BUFFER_BASE })
        );
        assert_eq!(
            g.insert(BUFFER_BASE - 2, &[0; 4]),
            Err(Overlap { base: BUFFER_BASE })
        );
        g.insert(BUFFER_BASE + 8, &[0; 8]).unwrap();
        g.write_range(BUFFER_BASE + 9, &[9, 8, 7, 6, 5]).unwrap();
        let mut out = [0u8; 8];
        g.read_range(BUFFER_BASE + 8, &mut out).unwrap();
        assert_eq!(out, [0, 9, 8, 7, 6, 5, 0, 0]);
        assert_eq!(g.read_range(BUFFER_BASE + 4, &mut [0u8; 4]), None); // runs past the end
        assert_eq!(g.region_of(BUFFER_BASE + 15), Some((BUFFER_BASE + 8, 8)));
        assert_eq!(g.region_of(BUFFER_BASE + 6), None);
        assert_eq!(g.remove(BUFFER_BASE), Some(vec![1, 2, 3, 4, 5, 6]));
        assert_eq!(g.region_of(BUFFER_BASE), None);
        assert!(g.discard(BUFFER_BASE + 8));
        assert!(!g.discard(BUFFER_BASE + 8));
        assert_eq!(g.regions().count(), 0);
    }

    #[test]
    fn large_copies_and_zeroed_regions_hold_their_bytes() {
        let mut g = Global::empty();
        // over PARALLEL_COPY_WORDS words, not a multiple of the pieces, at an odd offset
        let n = 4 * (PARALLEL_COPY_WORDS + 3 * COPY_PIECE_WORDS / 2) + 7;
        g.insert_zeroed(BUFFER_BASE, n + 16).unwrap();
        assert_eq!(g.region_of(BUFFER_BASE + 5), Some((BUFFER_BASE, n as u64 + 16)));
        assert_eq!(g.read(BUFFER_BASE + n as u64, 4), Some(0));
        // the words start on a cache line
        assert_eq!(g.regions[0].words.as_ptr() as usize % 64, 0);
        for n in [0, 1, 15, 16, 17, 1000, 1 << 20] {
            let w = Words::zeroed(n);
            assert_eq!(w.len(), n);
            assert!(n == 0 || (w.as_ptr() as usize).is_multiple_of(64), "{n} words");
            assert!(w.iter().all(|x| x.load(Relaxed) == 0), "{n} words");
            if let Some(last) = w.last() {
                last.store(5, Relaxed);
            }
        }
        let data: Vec<u8> = (0..n).map(|i| (i * 7 + i / 256) as u8).collect();
        g.write_range(BUFFER_BASE + 3, &data).unwrap();
        let mut back = vec![0u8; n];
        g.read_range(BUFFER_BASE + 3, &mut back).unwrap();
        assert!(back == data, "bytes read back differ");
        // byte 3 + 4k of the data is word k + 1's low byte
        assert_eq!(
            g.read(BUFFER_BASE + 4 * 1000, 1),
            Some(u64::from(data[4 * 1000 - 3]))
        );
        assert_eq!(g.read(BUFFER_BASE, 2), Some(0));
        assert_eq!(g.contents(BUFFER_BASE).unwrap()[3..3 + n], data[..]);
    }

    #[test]
    fn fill_sets_the_bytes_and_a_whole_region_of_zeros_is_zero_again() {
        let mut g = Global::empty();
        g.insert(BUFFER_BASE, &[1; 4 * PARALLEL_COPY_WORDS + 6]).unwrap();
        g.fill(BUFFER_BASE + 3, 4 * PARALLEL_COPY_WORDS, 7).unwrap();
        let c = g.contents(BUFFER_BASE).unwrap();
        assert_eq!(c[..3], [1, 1, 1]);
        assert!(c[3..3 + 4 * PARALLEL_COPY_WORDS].iter().all(|&b| b == 7));
        assert_eq!(c[3 + 4 * PARALLEL_COPY_WORDS..], [1, 1, 1]);
        assert!(!g.regions[0].zero.load(Relaxed));
        g.fill(BUFFER_BASE, 4 * PARALLEL_COPY_WORDS + 6, 0).unwrap();
        assert!(g.contents(BUFFER_BASE).unwrap().iter().all(|&b| b == 0));
        assert!(g.regions[0].zero.load(Relaxed));
        // part of a zero region set to zeros keeps it zero, to anything else not
        g.fill(BUFFER_BASE + 1, 2, 0).unwrap();
        assert!(g.regions[0].zero.load(Relaxed));
        g.fill(BUFFER_BASE + 1, 1, 2).unwrap();
        assert!(!g.regions[0].zero.load(Relaxed));
        assert_eq!(g.read(BUFFER_BASE, 4), Some(0x0200));
        assert_eq!(g.fill(BUFFER_BASE + 4, 4 * PARALLEL_COPY_WORDS + 6, 0), None);
    }

    #[test]
    fn mapped_memory_outside_every_region_reads_and_writes() {
        let mut g = Global::empty();
        g.insert_zeroed(BUFFER_BASE, 4).unwrap();
        g.insert(BUFFER_BASE + 512, &[1, 2, 3, 4]).unwrap();
        // nothing mapped: outside the regions is a fault
        assert_eq!(g.read(BUFFER_BASE + 4, 4), None);
        assert_eq!(g.write(BUFFER_BASE + 4, 4, 1), None);
        g.set_mapped(vec![(BUFFER_BASE, BUFFER_BASE + 1024)]);
        // the slack after the 4-byte region reads 0, a write there lands
        assert_eq!(g.read(BUFFER_BASE + 4, 4), Some(0));
        g.write(BUFFER_BASE + 4, 4, 0xdead_beef).unwrap();
        assert_eq!(g.read(BUFFER_BASE + 4, 4), Some(0xdead_beef));
        assert_eq!(g.read(BUFFER_BASE + 5, 1), Some(0xbe));
        // an 8-byte read across the region's end takes the region's bytes and the slack's
        g.write(BUFFER_BASE, 4, 0x1111_2222).unwrap();
        assert_eq!(g.read(BUFFER_BASE, 8), Some(0xdead_beef_1111_2222));
        assert_eq!(g.read_range(BUFFER_BASE + 508, &mut [0u8; 8]), Some(()));
        let mut b = [0u8; 8];
        g.read_range(BUFFER_BASE + 508, &mut b).unwrap();
        assert_eq!(b, [0, 0, 0, 0, 1, 2, 3, 4]);
        assert_eq!(g.rmw(BUFFER_BASE + 8, 4, |x| x + 5), Some(0));
        assert_eq!(g.read(BUFFER_BASE + 8, 4), Some(5));
        // past the mapped span: a fault, nothing written
        assert_eq!(g.read(BUFFER_BASE + 1024, 4), None);
        assert_eq!(g.write(BUFFER_BASE + 1022, 4, 7), None);
        let (n, first) = g.take_outside();
        assert!(n >= 5, "{n} outside accesses");
        assert_eq!(
            first,
            Some(Outside {
                addr: BUFFER_BASE + 4,
                width: 4,
                write: false
            })
        );
        assert_eq!(g.take_outside(), (0, None));
        // a new allocation over written slack starts from its own bytes
        g.clear_slack(BUFFER_BASE + 4, BUFFER_BASE + 8);
        assert_eq!(g.read(BUFFER_BASE + 4, 4), Some(0));
        assert_eq!(g.read(BUFFER_BASE + 8, 4), Some(5));
    }

    #[test]
    fn plain_bytes() {
        let mut m = vec![0u8; 8];
        write_bytes(&mut m, 4, 4, 0xdeadbeef).unwrap();
        assert_eq!(read_bytes(&m, 4, 4), Some(0xdeadbeef));
        assert_eq!(read_bytes(&m, 6, 4), None);
        assert_eq!(write_bytes(&mut m, u64::MAX, 4, 0), None);
    }
}
