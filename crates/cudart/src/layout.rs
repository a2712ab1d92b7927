//! Where `cudaMalloc` puts an allocation and which device addresses are mapped, as the H200's
//! driver does it (calibration/oob: `h200/layout.txt`, `h200/probe.txt`, `h200-map/`).
//!
//! Offsets below are from the first small chunk C.
//!
//! - The driver reserves 512 MiB, [C - 414 MiB, C + 98 MiB). Its own memory, which is mapped,
//!   takes [C - 414 MiB, C) and [C + 2 MiB, C + 74 MiB); allocations go into the rest, C's page
//!   and [C + 74 MiB, C + 98 MiB).
//! - An allocation of up to 1 MiB goes into a 2 MiB chunk, at the lowest address where its size
//!   rounded up to 512 bytes fits (consecutive ones are packed one after another: 4 B, 100 B and
//!   256 B take 512 bytes each, 1000 B takes 1024); a new chunk is a 2 MiB page placed as a large
//!   allocation is.
//! - A larger one takes its size rounded up to whole 2 MiB pages: the lowest free run in the
//!   reservations, oldest first. Where none has room, a new reservation of that size rounded up
//!   to 32 MiB is made directly below the lowest one, and the allocation goes at its bottom (a
//!   64 MiB allocation after the 74 MiB lands at C - 478 MiB; a 7th 3 MiB one at C - 446 MiB).
//! - Also mapped above the first reservation: [C + 100 MiB, C + 112 MiB) and [C + 114 MiB,
//!   C + 116 MiB) (`h200-map/map_3m.txt`; nothing was probed higher).
//! - Mapped: every chunk whole, every large allocation's pages, the driver's memory. An access
//!   anywhere else faults (`cudaErrorIllegalAddress`).

use std::collections::{BTreeMap, BTreeSet};

const MIB: u64 = 1 << 20;
/// A 2 MiB page, the driver's mapping granule.
pub const PAGE: u64 = 2 * MIB;
/// The largest allocation packed into a chunk.
pub const SMALL_MAX: u64 = MIB;
/// The step of packed allocations.
pub const SLOT: u64 = 512;
/// New reservations are whole multiples of this.
pub const RESERVE_STEP: u64 = 32 * MIB;
/// The first reservation, `[first - below, first + above)`.
pub const FIRST_RESERVATION: (u64, u64) = (414 * MIB, 98 * MIB);
/// The driver's own memory as offsets from the first chunk, `[lo, hi)`.
const DRIVER: [(i64, i64); 4] = [(-414, 0), (2, 74), (100, 112), (114, 116)];

/// The device's allocations and mapped pages.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The first chunk's address (the first small allocation's).
    first: u64,
    /// The driver's reservations `[lo, hi)`, oldest first.
    reservations: Vec<(u64, u64)>,
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
    /// An empty device whose first chunk will be at `first` (2 MiB aligned, above the first
    /// reservation's 414 MiB below it).
    pub fn new(first: u64) -> Layout {
        Layout {
            first,
            reservations: vec![(first - FIRST_RESERVATION.0, first + FIRST_RESERVATION.1)],
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
        let at = self.place(bytes)?;
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
        let mut v = self.driver();
        v.extend(self.chunks.keys().map(|&c| (c, c + PAGE)));
        v.extend(self.pages.iter().map(|(&b, &l)| (b, b + l)));
        v
    }

    /// The span `[base, end)` of the slot or pages the allocation at `base` holds.
    pub fn extent(&self, base: u64) -> Option<(u64, u64)> {
        let l = self.slots.get(&base).or_else(|| self.pages.get(&base))?;
        Some((base, base + l))
    }

    /// The driver's own memory.
    fn driver(&self) -> Vec<(u64, u64)> {
        let at = |mib: i64| self.first.wrapping_add_signed(mib * MIB as i64);
        DRIVER.iter().map(|&(lo, hi)| (at(lo), at(hi))).collect()
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
        let cb = self.place(PAGE)?;
        self.chunks.insert(
            cb,
            Chunk {
                bump: need,
                holes: BTreeSet::new(),
            },
        );
        Some(cb)
    }

    /// Spans in use (chunks, large allocations, the driver's memory), sorted.
    fn used(&self) -> Vec<(u64, u64)> {
        let mut v = self.mapped();
        v.sort_unstable();
        v
    }

    /// Where `bytes` (whole pages) go: the lowest free run in the oldest reservation with
    /// room, else the bottom of a new reservation below the lowest.
    fn place(&mut self, bytes: u64) -> Option<u64> {
        let used = self.used();
        for &(lo, hi) in &self.reservations {
            let mut at = lo;
            for &(ulo, uhi) in &used {
                if uhi <= at || ulo >= hi {
                    continue;
                }
                if ulo >= at.checked_add(bytes)? {
                    break;
                }
                at = at.max(uhi);
            }
            if at.checked_add(bytes)? <= hi {
                return Some(at);
            }
        }
        let lowest = self.reservations.iter().map(|r| r.0).min()?;
        let lo = lowest.checked_sub(bytes.checked_next_multiple_of(RESERVE_STEP)?)?;
        self.reservations.push((lo, lowest));
        Some(lo)
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

    /// The H200's page maps (`h200-map/map_*.txt`, one process a line: the sizes allocated, a
    /// 4-byte output, then a read at allocation K + OFFSET): where each allocation landed
    /// relative to the output, and whether the read faulted.
    #[test]
    fn the_h200_page_maps_agree_line_for_line() {
        let files: [(&str, &str, &[u64]); 5] = [
            (
                "map_small",
                include_str!("../../../calibration/oob/h200-map/map_small.txt"),
                &[4],
            ),
            (
                "map_3m",
                include_str!("../../../calibration/oob/h200-map/map_3m.txt"),
                &[3 << 20],
            ),
            (
                "map_64m",
                include_str!("../../../calibration/oob/h200-map/map_64m.txt"),
                &[64 << 20],
            ),
            (
                "map_small_3m",
                include_str!("../../../calibration/oob/h200-map/map_small_3m.txt"),
                &[4, 3 << 20],
            ),
            (
                "map_3m_3m",
                include_str!("../../../calibration/oob/h200-map/map_3m_3m.txt"),
                &[3 << 20, 3 << 20],
            ),
        ];
        let hex = |w: &str| u64::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
        let mut lines = 0;
        for (name, text, sizes) in files {
            for line in text.lines().filter(|l| l.starts_with("k ")) {
                let w: Vec<&str> = line.split_whitespace().collect();
                let (k, off): (usize, i64) = (w[1].parse().unwrap(), w[3].parse().unwrap());
                let (base, res) = (hex(w[7]), hex(w[9]));
                let mut l = Layout::new(C);
                let ps: Vec<u64> = sizes.iter().map(|&s| l.alloc(s).unwrap()).collect();
                let r = l.alloc(4).unwrap();
                assert_eq!(
                    ps[k] as i64 - r as i64,
                    base as i64 - res as i64,
                    "{name}: {line}"
                );
                let a = ps[k].wrapping_add_signed(off);
                let mapped = l.mapped().iter().any(|&(lo, hi)| lo <= a && a + 4 <= hi);
                assert_eq!(mapped, w[5] == "cudaSuccess", "{name}: {line}");
                lines += 1;
            }
        }
        assert_eq!(lines, 57 + 41 + 26 + 13 + 13);
    }

    /// `h200-map/fill_*.txt`: COUNT allocations of SIZE, printing each one that does not follow
    /// the previous by its size rounded to 512 bytes.
    #[test]
    fn filling_chunks_and_the_first_reservation_goes_on_below_it() {
        let files = [
            (
                include_str!("../../../calibration/oob/h200-map/fill_1k.txt"),
                2500,
                1024u64,
            ),
            (
                include_str!("../../../calibration/oob/h200-map/fill_1m.txt"),
                40,
                1 << 20,
            ),
            (
                include_str!("../../../calibration/oob/h200-map/fill_3m.txt"),
                12,
                3 << 20,
            ),
        ];
        for (text, count, size) in files {
            let mut l = Layout::new(C);
            let (mut prev, mut out) = (None::<u64>, String::new());
            for i in 0..count {
                let p = l.alloc(size).unwrap();
                let step = size.div_ceil(512) * 512;
                if prev.is_none_or(|q| p.wrapping_sub(q) != step) {
                    let delta = prev.map_or(0, |q| p as i64 - q as i64);
                    out += &format!("alloc {i} delta {delta}\n");
                }
                prev = Some(p);
            }
            let h200: String = text
                .lines()
                .map(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    format!("alloc {} delta {}\n", w[1], w[5].trim_end_matches(')'))
                })
                .collect();
            assert_eq!(out, h200, "{size} bytes");
        }
    }
}
