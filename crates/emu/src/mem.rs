//! Emulated memories. Global memory is shared by all blocks (which run in parallel), so it is
//! stored as atomic 32-bit words; shared and local memory belong to one block and are plain bytes.

use std::sync::Mutex;

use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

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
}

/// Sixteen atomic words on a cache line of their own.
#[repr(C, align(64))]
struct Line([AtomicU32; 16]);

/// Atomic words stored from a cache-line boundary on: blocks that run on different host threads
/// and touch different 64-byte lines of the device's memory (or of a shadow's states) touch
/// different host cache lines too, instead of sharing the lines that straddle theirs.
pub(crate) struct Words {
    lines: Box<[Line]>,
    len: usize,
}

impl Words {
    /// `len` words of 0 (their pages untouched until used).
    pub(crate) fn zeroed(len: usize) -> Words {
        let n = len.div_ceil(16);
        let lines = if n == 0 {
            Box::default()
        } else {
            let layout = std::alloc::Layout::array::<Line>(n).expect("a region that fits in memory");
            // SAFETY: the layout has a non-zero size; all-zero bytes are valid `AtomicU32`s, so
            // the zeroed allocation holds `n` valid `Line`s, and a boxed slice of `n` lines frees
            // it with this same layout.
            unsafe {
                let p = std::alloc::alloc_zeroed(layout).cast::<Line>();
                if p.is_null() {
                    std::alloc::handle_alloc_error(layout);
                }
                Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
            }
        };
        Words { lines, len }
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
        // lines are `16 * lines.len() >= len` contiguous words.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<AtomicU32>(), self.len) }
    }
}

impl std::ops::DerefMut for Words {
    fn deref_mut(&mut self) -> &mut [AtomicU32] {
        // SAFETY: as `deref`, borrowed mutably through `self`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<AtomicU32>(), self.len) }
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
                Region { base, len, words }
            })
            .collect();
        Global {
            regions,
            lock64: Mutex::new(()),
            textures: Default::default(),
            shadow_cache: Mutex::new(None),
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

    /// [`Global::read`] that remembers the region in `hint` (consecutive lanes mostly hit the same).
    #[inline(always)]
    pub fn read_hint(&self, hint: &mut usize, addr: u64, w: u64) -> Option<u64> {
        let r = &self.regions[self.region_hint(hint, addr, w)?];
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
        let r = &self.regions[self.region_hint(hint, addr, w)?];
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
        let (r, off) = self.find(addr, w)?;
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
        let (r, off) = self.find(addr, w)?;
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

    /// Atomic read-modify-write: returns the old value. 32-bit values use a CAS loop on the word;
    /// 64-bit values are serialised by a lock.
    pub fn rmw(&self, addr: u64, w: u64, f: impl Fn(u64) -> u64) -> Option<u64> {
        let (r, off) = self.find(addr, w)?;
        let i = off / 4;
        match w {
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

    /// Adds a region of `bytes` at `base`; refuses one that overlaps a region already there.
    pub fn insert(&mut self, base: u64, bytes: &[u8]) -> Result<(), Overlap> {
        self.insert_words(base, bytes.len() as u64, || Words::from_bytes(bytes))
    }

    /// [`Global::insert`] of `len` zero bytes (an allocation: its pages are not touched until
    /// used).
    pub fn insert_zeroed(&mut self, base: u64, len: usize) -> Result<(), Overlap> {
        self.insert_words(base, len as u64, || Words::zeroed(len.div_ceil(4)))
    }

    fn insert_words(&mut self, base: u64, len: u64, words: impl FnOnce() -> Words) -> Result<(), Overlap> {
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
        self.regions.insert(i, Region { base, len, words });
        Ok(())
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
        let (r, off) = self.find(addr, out.len() as u64)?;
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
        let (r, off) = self.find(addr, data.len() as u64)?;
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
    fn plain_bytes() {
        let mut m = vec![0u8; 8];
        write_bytes(&mut m, 4, 4, 0xdeadbeef).unwrap();
        assert_eq!(read_bytes(&m, 4, 4), Some(0xdeadbeef));
        assert_eq!(read_bytes(&m, 6, 4), None);
        assert_eq!(write_bytes(&mut m, u64::MAX, 4, 0), None);
    }
}

/// What one launch's blocks did to each global word, kept while they run in parallel: a word that
/// one block wrote and another read or wrote (an atomic counts as a write) makes the result depend
/// on the host's thread schedule. The launch then runs again with its blocks one after another in
/// block order from the memory it started with ([`Shadow::undo`] puts back every word written),
/// so its results are the same bytes whatever the number of threads. Chunks of the shadow are made
/// on first touch: memory grows with the words a launch touches, not with the space.
pub struct Shadow {
    regions: Vec<ShadowRegion>,
    conflict: std::sync::atomic::AtomicBool,
}

struct ShadowRegion {
    base: u64,
    len: u64,
    chunks: Box<[std::sync::OnceLock<Chunk>]>,
}

/// The shadow of `CHUNK_WORDS` words: their states, and apart from them (loads read the states
/// alone, so they take no more cache than the words) the values before the launch's first writes.
struct Chunk {
    /// `SAVED | MULTI | owner` (block + 1 of the first block that touched the word).
    state: Words,
    /// The word's value before the launch's first write to it (valid once `SAVED`); made at the
    /// chunk's first write, so words a launch only reads cost their states alone.
    old: std::sync::OnceLock<Words>,
}

impl ShadowRegion {
    fn new(r: &Region) -> ShadowRegion {
        ShadowRegion {
            base: r.base,
            len: r.len,
            chunks: (0..r.words.len().div_ceil(CHUNK_WORDS))
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }
}

fn zeros() -> Words {
    Words::zeroed(CHUNK_WORDS)
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            state: zeros(),
            old: std::sync::OnceLock::new(),
        }
    }
}

const CHUNK_WORDS: usize = 1024;
const SAVED: u32 = 1 << 31;
const MULTI: u32 = 1 << 30;
const OWNER: u32 = MULTI - 1;
/// Blocks beyond this many are not told apart (grids that large are not tracked).
pub const SHADOW_MAX_BLOCKS: u64 = OWNER as u64 - 1;

impl Shadow {
    /// An empty shadow of `g`'s regions that reuses the chunks of `old` for the regions that are
    /// still there (cleared, in parallel).
    pub fn renew(old: Option<Shadow>, g: &Global) -> Shadow {
        let Some(old) = old else {
            return Shadow::new(g);
        };
        let mut kept = old.regions;
        let regions = g
            .regions
            .iter()
            .map(
                |r| match kept.iter().position(|o| o.base == r.base && o.len == r.len) {
                    Some(p) => {
                        let mut o = kept.swap_remove(p);
                        o.chunks.par_iter_mut().for_each(|c| {
                            if let Some(c) = c.get_mut() {
                                for s in c.state.iter_mut() {
                                    *s.get_mut() = 0;
                                }
                            }
                        });
                        o
                    }
                    None => ShadowRegion::new(r),
                },
            )
            .collect();
        Shadow {
            regions,
            conflict: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// An empty shadow of `g`'s regions.
    pub fn new(g: &Global) -> Shadow {
        Shadow {
            regions: g.regions.iter().map(ShadowRegion::new).collect(),
            conflict: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Whether two blocks touched a word that one of them wrote.
    pub fn conflict(&self) -> bool {
        self.conflict.load(Relaxed)
    }

    /// The region's index and the first and last word of `[addr, addr + w)` in it.
    #[inline(always)]
    fn words(&self, addr: u64, w: u64) -> Option<(usize, usize, usize)> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        let r = self.regions.get(i.checked_sub(1)?)?;
        let off = addr - r.base;
        if off >= r.len {
            return None;
        }
        let first = (off / 4) as usize;
        let last = ((off + w.max(1) - 1).min(r.len - 1) / 4) as usize;
        Some((i - 1, first, last))
    }

    #[inline(always)]
    fn chunk(&self, region: usize, c: usize) -> &Chunk {
        self.regions[region].chunks[c].get_or_init(Chunk::new)
    }

    #[inline(always)]
    fn flag(&self) {
        self.conflict.store(true, Relaxed);
    }

    /// Block `me - 1` reads the word whose state is `st`.
    #[inline(always)]
    fn read_word(&self, st: &AtomicU32, me: u32) {
        let mut s = st.load(Relaxed);
        loop {
            // its own word, or one several blocks read and none wrote
            if s & OWNER == me && s & MULTI == 0 || s & (MULTI | SAVED) == MULTI {
                return;
            }
            if s == 0 {
                match st.compare_exchange_weak(0, me, Relaxed, Relaxed) {
                    Ok(_) => return,
                    Err(x) => {
                        s = x;
                        continue;
                    }
                }
            }
            if s & SAVED != 0 {
                // written in this launch by another block (or by several)
                self.flag();
            } else {
                st.fetch_or(MULTI, Relaxed);
            }
            return;
        }
    }

    /// Block `block` reads `w` bytes at `addr`.
    #[inline(always)]
    pub fn read(&self, block: u32, addr: u64, w: u64) {
        let Some((r, first, last)) = self.words(addr, w) else {
            return;
        };
        for i in first..=last {
            self.read_word(&self.chunk(r, i / CHUNK_WORDS).state[i % CHUNK_WORDS], block + 1);
        }
    }

    /// The region and first word of a warp's accesses of `w` bytes at `addrs` (lanes `mask`) when
    /// they all fall in one chunk of one region; `None` otherwise (lane by lane then).
    #[inline(always)]
    fn warp_chunk(&self, addrs: &[u64; 32], mask: u32, w: u64) -> Option<(usize, usize, usize)> {
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            lo = lo.min(addrs[l]);
            hi = hi.max(addrs[l]);
        }
        hi.checked_add(w)
            .and_then(|end| self.words(lo, end - lo))
            .filter(|&(r, first, last)| {
                first / CHUNK_WORDS == last / CHUNK_WORDS
                    && self.regions[r].base + (last as u64 + 1) * 4 >= hi + w
            })
    }

    /// A warp's loads of `w` bytes at `addrs` (lanes `mask`) by block `block`: the region and
    /// the chunk found once where the warp's words share them, a word the lane before read
    /// skipped.
    #[inline]
    pub fn read_lanes(&self, block: u32, addrs: &[u64; 32], mask: u32, w: u64) {
        let one_chunk = self.warp_chunk(addrs, mask, w);
        let Some((r, first, _)) = one_chunk else {
            // the lanes span chunks or regions (or fall outside every one): lane by lane
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.read(block, addrs[l], w);
            }
            return;
        };
        let (base, state) = (self.regions[r].base, &self.chunk(r, first / CHUNK_WORDS).state);
        let me = block + 1;
        let mut prev = usize::MAX;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let off = addrs[l] - base;
            for i in (off / 4) as usize..=((off + w - 1) / 4) as usize {
                if i != prev {
                    prev = i;
                    self.read_word(&state[i % CHUNK_WORDS], me);
                }
            }
        }
    }

    /// Block `block` is about to write `w` bytes at `addr` of `g` (or update them atomically):
    /// called before the write, so the words' values before the launch are kept.
    #[inline(always)]
    pub fn write(&self, g: &Global, block: u32, addr: u64, w: u64) {
        let Some((r, first, last)) = self.words(addr, w) else {
            return;
        };
        let me = block + 1;
        let words = &g.regions[r].words;
        for (i, word) in words.iter().enumerate().take(last + 1).skip(first) {
            self.write_word(self.chunk(r, i / CHUNK_WORDS), i % CHUNK_WORDS, word, me);
        }
    }

    /// A warp's stores (or atomic updates) of `w` bytes at `addrs` (lanes `mask`) by block
    /// `block`, called before the writes: the region and the chunk found once where the warp's
    /// words share them (as [`Shadow::read_lanes`]), a word the lane before wrote skipped.
    #[inline]
    pub fn write_lanes(&self, g: &Global, block: u32, addrs: &[u64; 32], mask: u32, w: u64) {
        let one_chunk = self.warp_chunk(addrs, mask, w);
        let Some((r, first, _)) = one_chunk else {
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                self.write(g, block, addrs[l], w);
            }
            return;
        };
        let base = self.regions[r].base;
        let chunk = self.chunk(r, first / CHUNK_WORDS);
        let words = &g.regions[r].words;
        let me = block + 1;
        let mut prev = usize::MAX;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let off = addrs[l] - base;
            let (first, last) = ((off / 4) as usize, ((off + w - 1) / 4) as usize);
            for (i, word) in words.iter().enumerate().take(last + 1).skip(first) {
                if i != prev {
                    prev = i;
                    self.write_word(chunk, i % CHUNK_WORDS, word, me);
                }
            }
        }
    }

    /// Block `me - 1` is about to write the word `word`, whose state is `chunk`'s `k`-th.
    #[inline(always)]
    fn write_word(&self, chunk: &Chunk, k: usize, word: &AtomicU32, me: u32) {
        let st = &chunk.state[k];
        let mut s = st.load(Relaxed);
        loop {
            let owner = s & OWNER;
            if s & SAVED != 0 {
                if owner != me || s & MULTI != 0 {
                    self.flag();
                }
                break;
            }
            // first write of the launch to this word: keep its value, then claim it
            let v = word.load(Relaxed);
            let new = if owner == 0 { s | me } else { s } | SAVED;
            match st.compare_exchange_weak(s, new, Relaxed, Relaxed) {
                Ok(_) => {
                    chunk.old.get_or_init(zeros)[k].store(v, Relaxed);
                    if (owner != 0 && owner != me) || s & MULTI != 0 {
                        self.flag();
                    }
                    break;
                }
                Err(x) => s = x,
            }
        }
    }

    /// Puts back the value every written word had before the launch.
    pub fn undo(&self, g: &Global) {
        for (sr, gr) in self.regions.iter().zip(&g.regions) {
            debug_assert_eq!((sr.base, sr.len), (gr.base, gr.len));
            for (c, chunk) in sr.chunks.iter().enumerate() {
                let Some((chunk, old)) = chunk.get().and_then(|c| Some((c, c.old.get()?))) else {
                    continue;
                };
                for (k, (st, old)) in chunk.state.iter().zip(old.iter()).enumerate() {
                    if st.load(Relaxed) & SAVED != 0 {
                        gr.words[c * CHUNK_WORDS + k].store(old.load(Relaxed), Relaxed);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod shadow_tests {
    use super::*;

    fn space() -> Global {
        Global::new(vec![(0x1000, (0..64u8).collect()), (0x2000, vec![7; 8192])])
    }

    #[test]
    fn blocks_that_share_only_reads_or_keep_to_their_words_do_not_conflict() {
        let g = space();
        let sh = Shadow::new(&g);
        for b in 0..4 {
            sh.read(b, 0x1000, 4); // every block reads one input word
            sh.write(&g, b, 0x2000 + 4 * u64::from(b), 4); // and writes its own
            sh.read(b, 0x2000 + 4 * u64::from(b), 4); // and reads it back
        }
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = 0x1000 + 4 * (l as u64 % 16);
        }
        sh.read_lanes(5, &addrs, u32::MAX, 4);
        assert!(!sh.conflict());
    }

    #[test]
    fn a_word_one_block_wrote_and_another_touched_is_a_conflict_in_either_order() {
        for order in 0..4 {
            let g = space();
            let sh = Shadow::new(&g);
            match order {
                0 => {
                    sh.write(&g, 0, 0x1008, 4);
                    sh.read(1, 0x1008, 4);
                }
                1 => {
                    sh.read(1, 0x1008, 4);
                    sh.write(&g, 0, 0x1008, 4);
                }
                2 => {
                    sh.write(&g, 0, 0x1008, 1);
                    sh.write(&g, 1, 0x100a, 2); // another byte of the same word
                }
                _ => {
                    let addrs = [0x1008u64; 32];
                    sh.write(&g, 3, 0x1008, 4);
                    sh.read_lanes(2, &addrs, 0b101, 4);
                }
            }
            assert!(sh.conflict(), "order {order}");
        }
    }

    #[test]
    fn a_warps_stores_are_tracked_as_its_lanes_one_by_one() {
        // lanes of block 1 store to consecutive words, in one chunk or across two, in one region
        // or across both; another block then reads one of them (a conflict) or a word none wrote
        let spreads: [&dyn Fn(usize) -> u64; 3] = [
            &|l| 0x2000 + 4 * l as u64,
            &|l| 0x2000 + 4 * 1000 + 4 * l as u64, // words 1000..1031: two chunks
            &|l| {
                if l < 16 {
                    0x1000 + 4 * l as u64
                } else {
                    0x2000 + 4 * l as u64
                }
            },
        ];
        for (k, spread) in spreads.iter().enumerate() {
            let addrs: [u64; 32] = std::array::from_fn(spread);
            for (probe, want) in [(addrs[7], true), (addrs[8], false), (0x2000 + 4 * 2047, false)] {
                let g = space();
                let before: Vec<u64> = (0..32).map(|l| g.read(addrs[l], 4).unwrap()).collect();
                let sh = Shadow::new(&g);
                // lane 8 is inactive
                sh.write_lanes(&g, 1, &addrs, !(1 << 8), 4);
                for &a in &addrs {
                    g.write(a, 4, 0xdead_beef);
                }
                sh.read(2, probe, 4);
                assert_eq!(sh.conflict(), want, "spread {k}, probe {probe:#x}");
                sh.undo(&g);
                for l in 0..32 {
                    let now = g.read(addrs[l], 4).unwrap();
                    if l == 8 {
                        // an untracked write is not undone
                        assert_eq!(now, 0xdead_beef, "spread {k}");
                    } else {
                        assert_eq!(now, before[l], "spread {k}, lane {l}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_kept_shadow_comes_back_empty_for_the_next_launch() {
        let mut g = space();
        let sh = g.take_shadow();
        sh.write(&g, 0, 0x1008, 4);
        g.write(0x1008, 4, 1);
        sh.read(1, 0x1008, 4);
        sh.write(&g, 1, 0x2000, 4);
        assert!(sh.conflict());
        g.keep_shadow(sh);
        // the next launch: a region added, the old ones' states cleared
        g.insert(0x9000, &[0; 64]).unwrap();
        let sh = g.take_shadow();
        assert!(!sh.conflict());
        sh.read(5, 0x1008, 4);
        sh.read(6, 0x1008, 4);
        sh.write(&g, 7, 0x2000, 4);
        sh.write(&g, 7, 0x9004, 4);
        g.write(0x2000, 4, 9);
        assert!(!sh.conflict(), "words the last launch touched are fresh");
        // undo puts back this launch's old values only (0x1008 keeps the 1 the last launch wrote)
        sh.undo(&g);
        assert_eq!(g.read(0x1008, 4), Some(1));
        assert_eq!(g.read(0x2000, 4), Some(0x0707_0707));
        sh.write(&g, 8, 0x9004, 4);
        assert!(sh.conflict(), "the new region is tracked");
    }

    #[test]
    fn undo_puts_back_what_the_launch_wrote() {
        let g = space();
        let before = g.contents(0x1000).unwrap();
        let sh = Shadow::new(&g);
        sh.write(&g, 0, 0x1004, 8);
        g.write(0x1004, 8, u64::MAX);
        sh.write(&g, 1, 0x1021, 1);
        g.write(0x1021, 1, 0xee);
        sh.write(&g, 1, 0x2000 + 5000, 4);
        g.write(0x2000 + 5000, 4, 1);
        assert_ne!(g.contents(0x1000).unwrap(), before);
        sh.undo(&g);
        assert_eq!(g.contents(0x1000).unwrap(), before);
        assert_eq!(g.read(0x2000 + 5000, 4), Some(0x0707_0707));
    }
}
