//! Where `cudaMalloc` puts an allocation and which device addresses are mapped, as the H200's
//! driver does it (calibration/oob: `h200/layout.txt`, `h200/probe.txt`).
//!
//! - An allocation of up to 1 MiB goes into a 2 MiB chunk, at the lowest address where its size
//!   rounded up to 512 bytes fits (consecutive ones are packed one after another: 4 B, 100 B and
//!   256 B take 512 bytes each, 1000 B takes 1024); a new chunk is the lowest free 2 MiB page.
//! - A larger one takes its size rounded up to whole 2 MiB pages: the lowest free run of pages
//!   from the first chunk up (below 32 MiB), or the highest one below the driver's memory under
//!   the first chunk (32 MiB and up; the 64 MiB of `layout.txt` lies 478 MiB below the first chunk).
//! - The driver's own memory is mapped: 72 MiB from 2 MiB above the first chunk (the first
//!   allocation over 1 MiB lands 74 MiB above it) and 414 MiB below it (up to the end of that
//!   64 MiB allocation). The first 2 MiB page above the first chunk's start is the first chunk
//!   itself, or a 2 MiB allocation made before any small one (as on the H200, where a lone 2 MiB
//!   buffer is followed by mapped memory).
//! - Mapped: every chunk whole, every large allocation's pages, the driver's memory. An access
//!   anywhere else faults (`cudaErrorIllegalAddress`).

use std::collections::{BTreeMap, BTreeSet};

/// A 2 MiB page, the driver's mapping granule.
pub const PAGE: u64 = 2 << 20;
/// The largest allocation packed into a chunk.
pub const SMALL_MAX: u64 = 1 << 20;
/// The step of packed allocations.
pub const SLOT: u64 = 512;
/// Allocations from this size up go below the driver's memory, top down.
pub const HIGH_FROM: u64 = 32 << 20;
/// The driver's memory above the first chunk: `[first + PAGE, first + PAGE + DRIVER_ABOVE)`.
pub const DRIVER_ABOVE: u64 = 72 << 20;
/// The driver's memory below the first chunk: `[first - DRIVER_BELOW, first)`.
pub const DRIVER_BELOW: u64 = 414 << 20;

/// The device's allocations and mapped pages.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The first chunk's address (the first small allocation's).
    first: u64,
    /// Chunk base -> end of its highest slot in use (bump), and holes below it (base -> bytes).
    chunks: BTreeMap<u64, Chunk>,
    /// Small allocations: base -> bytes of its slot.
    slots: BTreeMap<u64, u64>,
    /// Large allocations: base -> bytes of its pages.
    pages: BTreeMap<u64, u64>,
}

#[derive(Debug, Clone, Default)]
struct Chunk {
    bump: u64,
    holes: BTreeSet<(u64, u64)>,
}

impl Layout {
    /// An empty device whose first chunk will be at `first` (2 MiB aligned, above
    /// [`DRIVER_BELOW`]).
    pub fn new(first: u64) -> Layout {
        Layout {
            first,
            chunks: BTreeMap::new(),
            slots: BTreeMap::new(),
            pages: BTreeMap::new(),
        }
    }

    /// Where an allocation of `size` bytes goes (`None`: no address space left).
    pub fn alloc(&mut self, size: u64) -> Option<u64> {
        if size <= SMALL_MAX {
            let need = size.max(1).div_ceil(SLOT) * SLOT;
            let at = self.small(need)?;
            self.slots.insert(at, need);
            return Some(at);
        }
        let bytes = size.checked_next_multiple_of(PAGE)?;
        let at = if bytes >= HIGH_FROM {
            self.run_below(bytes)?
        } else {
            self.run_above(bytes)?
        };
        self.pages.insert(at, bytes);
        Some(at)
    }

    /// Frees the allocation at `base`; whether it was one. A chunk stays mapped; a large
    /// allocation's pages are unmapped.
    pub fn free(&mut self, base: u64) -> bool {
        if self.pages.remove(&base).is_some() {
            return true;
        }
        let Some(len) = self.slots.remove(&base) else {
            return false;
        };
        let cb = base - (base - self.first).rem_euclid(PAGE);
        let Some(c) = self.chunks.get_mut(&cb) else {
            return true;
        };
        let (mut lo, mut hi) = (base - cb, base - cb + len);
        // merge with the holes on either side
        if let Some(&(b, l)) = c.holes.range(..(lo, 0)).next_back()
            && b + l == lo
        {
            c.holes.remove(&(b, l));
            lo = b;
        }
        if let Some(&(b, l)) = c.holes.range((hi, 0)..).next()
            && b == hi
        {
            c.holes.remove(&(b, l));
            hi = b + l;
        }
        if hi == c.bump {
            c.bump = lo;
        } else {
            c.holes.insert((lo, hi - lo));
        }
        true
    }

    /// The mapped spans `[lo, hi)`.
    pub fn mapped(&self) -> Vec<(u64, u64)> {
        let mut v = vec![
            (self.first - DRIVER_BELOW, self.first),
            (self.first + PAGE, self.first + PAGE + DRIVER_ABOVE),
        ];
        v.extend(self.chunks.keys().map(|&c| (c, c + PAGE)));
        v.extend(self.pages.iter().map(|(&b, &l)| (b, b + l)));
        v
    }

    /// The span `[base, end)` of the slot or pages the allocation at `base` holds.
    pub fn extent(&self, base: u64) -> Option<(u64, u64)> {
        let l = self.slots.get(&base).or_else(|| self.pages.get(&base))?;
        Some((base, base + l))
    }

    /// The lowest place for `need` bytes in a chunk, a new chunk made where there is none.
    fn small(&mut self, need: u64) -> Option<u64> {
        for (&cb, c) in self.chunks.iter_mut() {
            if let Some(&(b, l)) = c.holes.iter().find(|&&(_, l)| l >= need) {
                c.holes.remove(&(b, l));
                if l > need {
                    c.holes.insert((b + need, l - need));
                }
                return Some(cb + b);
            }
            if PAGE - c.bump >= need {
                let at = cb + c.bump;
                c.bump += need;
                return Some(at);
            }
        }
        let cb = self.run_above(PAGE)?;
        self.chunks.insert(
            cb,
            Chunk {
                bump: need,
                holes: BTreeSet::new(),
            },
        );
        Some(cb)
    }

    /// Spans in use from the first chunk up (chunks, large allocations, the driver's memory
    /// above), sorted.
    fn used(&self) -> Vec<(u64, u64)> {
        let mut v: Vec<(u64, u64)> = self.chunks.keys().map(|&c| (c, c + PAGE)).collect();
        v.extend(self.pages.iter().map(|(&b, &l)| (b, b + l)));
        v.push((self.first - DRIVER_BELOW, self.first));
        v.push((self.first + PAGE, self.first + PAGE + DRIVER_ABOVE));
        v.sort_unstable();
        v
    }

    /// The lowest free run of `bytes` (whole pages) from the first chunk up.
    fn run_above(&self, bytes: u64) -> Option<u64> {
        let mut at = self.first;
        for (lo, hi) in self.used() {
            if hi <= at {
                continue;
            }
            if lo >= at.checked_add(bytes)? {
                break;
            }
            at = at.max(hi);
        }
        Some(at)
    }

    /// The highest free run of `bytes` below the driver's memory under the first chunk.
    fn run_below(&self, bytes: u64) -> Option<u64> {
        let mut top = self.first - DRIVER_BELOW;
        for (lo, hi) in self.used().into_iter().rev() {
            if lo >= top {
                continue;
            }
            if hi <= top.checked_sub(bytes)? {
                break;
            }
            top = top.min(lo);
        }
        top.checked_sub(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: u64 = 0x3000_0000_0000;

    /// `h200/layout.txt`: the sizes in order and where each landed, as offsets from the first
    /// (0x7f640fe00000).
    #[test]
    fn consecutive_allocations_land_where_the_h200_put_them() {
        let first = 0x7f64_0fe0_0000i64;
        let h200: [(u64, i64); 16] = [
            (4, 0x7f64_0fe0_0000),
            (4, 0x7f64_0fe0_0200),
            (100, 0x7f64_0fe0_0400),
            (256, 0x7f64_0fe0_0600),
            (257, 0x7f64_0fe0_0800),
            (512, 0x7f64_0fe0_0a00),
            (1000, 0x7f64_0fe0_0c00),
            (4096, 0x7f64_0fe0_1000),
            (65536, 0x7f64_0fe0_2000),
            (1048576, 0x7f64_0fe1_2000),
            (1048580, 0x7f64_1480_0000),
            (2097152, 0x7f64_14a0_0000),
            (3145728, 0x7f64_14c0_0000),
            (67108864, 0x7f63_f200_0000),
            (4, 0x7f64_0ff1_2000),
            (4, 0x7f64_0ff1_2200),
        ];
        let mut l = Layout::new(C);
        for (size, at) in h200 {
            let got = l.alloc(size).unwrap() as i64 - C as i64;
            assert_eq!(got, at - first, "{size} bytes");
        }
    }

    /// `h200/probe.txt`: which bytes past the end of a lone allocation (and its 4-byte output,
    /// allocated after it) are mapped. Faults: only 1, 2 and 4 MiB past the 3 MiB buffer.
    #[test]
    fn the_probes_fault_only_past_the_3_mib_buffers_last_page() {
        let offsets: [i64; 14] = [
            0,
            4,
            64,
            252,
            256,
            508,
            512,
            4096,
            65536,
            1 << 20,
            2 << 20,
            4 << 20,
            -1,
            -4096,
        ];
        for size in [4u64, 256, 1000, 4096, 65536, 1 << 20, 2 << 20, 3 << 20, 64 << 20] {
            let mut l = Layout::new(C);
            let p = l.alloc(size).unwrap();
            l.alloc(4).unwrap();
            let spans = l.mapped();
            for off in offsets {
                let a = (p + size).wrapping_add_signed(off);
                let mapped = spans.iter().any(|&(lo, hi)| lo <= a && a < hi);
                let faults_on_h200 = size == 3 << 20 && off >= 1 << 20;
                assert_eq!(mapped, !faults_on_h200, "size {size} offset {off:+}");
            }
        }
    }

    /// `h200/probe.txt`'s bases modulo 32 MiB: a lone 4-byte or 2 MiB allocation at 30 MiB (the
    /// first chunk's page), a 3 MiB one at 8 MiB, a 64 MiB one at 0.
    #[test]
    fn lone_allocations_start_where_the_probes_bases_say() {
        // the first chunk at 30 MiB modulo 32 MiB, as on the H200
        let residue = |a: u64| ((a as i64 - C as i64) / (1 << 20) + 30).rem_euclid(32);
        for (size, mib) in [(4u64, 30i64), (2 << 20, 30), (3 << 20, 8), (64 << 20, 0)] {
            let mut l = Layout::new(C);
            assert_eq!(residue(l.alloc(size).unwrap()), mib, "{size} bytes");
        }
    }

    #[test]
    fn freed_slots_are_reused_lowest_first_and_large_pages_unmapped() {
        let mut l = Layout::new(C);
        let a = l.alloc(4).unwrap();
        let b = l.alloc(1000).unwrap();
        let c = l.alloc(4).unwrap();
        assert_eq!((b - a, c - a), (512, 1536));
        assert!(l.free(b));
        assert!(!l.free(b));
        assert_eq!(l.alloc(4).unwrap(), b);
        assert_eq!(l.alloc(512).unwrap(), b + 512);
        assert_eq!(l.alloc(4).unwrap(), c + 512);
        let big = l.alloc(3 << 20).unwrap();
        assert!(
            l.mapped()
                .iter()
                .any(|&(lo, hi)| lo <= big && big + (4 << 20) == hi)
        );
        assert!(l.free(big));
        assert!(!l.mapped().iter().any(|&(lo, hi)| lo <= big && big < hi));
        assert_eq!(l.alloc(3 << 20).unwrap(), big);
    }
}
