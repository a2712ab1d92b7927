//! Global-memory requests and sectors as Nsight Compute counts them, from warp-level accesses
//! (the PTX emulator's events, or the machine code's own accesses in [`crate::machine_flow`]).

use warpscope_emu::AccessOp;

/// Global-memory requests and 32-byte sectors per direction, as
/// `l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}` / `l1tex__t_sectors_...` count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlobalCounts {
    /// Load requests (warp instructions with an active lane).
    pub ld_requests: u64,
    /// Load sectors.
    pub ld_sectors: u64,
    /// Bytes the active lanes asked to load.
    pub ld_bytes: u64,
    /// Store requests.
    pub st_requests: u64,
    /// Store sectors.
    pub st_sectors: u64,
    /// Bytes the active lanes asked to store.
    pub st_bytes: u64,
    /// `cp.async` copies whose global sectors are not known: 16-byte `.cg` copies where a lane
    /// drops out for writing a lower reading lane's destination from another source line
    /// ([`bypass_copy_sectors_unsure`]). (Every `.ca` copy is known since calibration/casectors.)
    pub copies_unsure: u64,
}

impl GlobalCounts {
    /// Counts one warp-level global access.
    #[inline]
    pub fn record(&mut self, op: AccessOp, width: u8, mask: u32, addrs: &[u64; 32]) {
        if mask == 0 {
            return;
        }
        self.record_sectors(op, width, mask, sectors(width, mask, addrs));
    }

    /// [`Self::record`] of a whole warp whose lanes are one run (lane `l` at `addrs[0] + l *
    /// width`, wrapping), as `Sink::mem_run` sends it: the run's sectors from its first address,
    /// without checking the lanes again. A run that wraps around the address space, or of lanes
    /// wider than a sector, is counted lane by lane as [`Self::record`] does.
    #[inline]
    pub fn record_run(&mut self, op: AccessOp, width: u8, addrs: &[u64; 32]) {
        let w = u64::from(width.max(1));
        let a0 = addrs[0];
        if w <= 32 && a0 <= u64::MAX - 32 * w {
            self.record_sectors(op, width, u32::MAX, (a0 + 32 * w - 1) / 32 - a0 / 32 + 1);
        } else {
            self.record(op, width, u32::MAX, addrs);
        }
    }

    /// [`Self::record`] of an access whose sectors are known (`n`, as [`Self::record`] counts them).
    #[inline]
    pub fn record_sectors(&mut self, op: AccessOp, width: u8, mask: u32, n: u64) {
        if mask == 0 {
            return;
        }
        // a whole warp without the population count (a sequence of shifts and masks where the CPU
        // baseline has no popcnt instruction)
        let lanes = if mask == u32::MAX { 32 } else { mask.count_ones() };
        let bytes = u64::from(lanes) * u64::from(width);
        match op {
            AccessOp::Load => {
                self.ld_requests += 1;
                self.ld_sectors += n;
                self.ld_bytes += bytes;
            }
            AccessOp::Store => {
                self.st_requests += 1;
                self.st_sectors += n;
                self.st_bytes += bytes;
            }
            // atomics are neither (a cp.async's global read comes here as a `Load`)
            _ => {}
        }
    }

    /// Adds another block's counts.
    pub fn add(&mut self, o: &GlobalCounts) {
        self.ld_requests += o.ld_requests;
        self.ld_sectors += o.ld_sectors;
        self.ld_bytes += o.ld_bytes;
        self.st_requests += o.st_requests;
        self.st_sectors += o.st_sectors;
        self.st_bytes += o.st_bytes;
        self.copies_unsure += o.copies_unsure;
    }

    /// Adds `k` times another's counts.
    pub fn add_times(&mut self, o: &GlobalCounts, k: u64) {
        self.ld_requests += o.ld_requests * k;
        self.ld_sectors += o.ld_sectors * k;
        self.ld_bytes += o.ld_bytes * k;
        self.st_requests += o.st_requests * k;
        self.st_sectors += o.st_sectors * k;
        self.st_bytes += o.st_bytes * k;
        self.copies_unsure += o.copies_unsure * k;
    }

    /// The counts added since `before` (which these include).
    pub fn minus(&self, before: &GlobalCounts) -> GlobalCounts {
        GlobalCounts {
            ld_requests: self.ld_requests - before.ld_requests,
            ld_sectors: self.ld_sectors - before.ld_sectors,
            ld_bytes: self.ld_bytes - before.ld_bytes,
            st_requests: self.st_requests - before.st_requests,
            st_sectors: self.st_sectors - before.st_sectors,
            st_bytes: self.st_bytes - before.st_bytes,
            copies_unsure: self.copies_unsure - before.copies_unsure,
        }
    }

    /// Counts the source side of one `cp.async` (an LDGSTS: one load request; its sectors below) of `width` bytes per lane from `src` to `dst`; `mask` has
    /// the lanes that read. `bypass`: a 16-byte `cp.async.cg` (`LDGSTS.E.BYPASS.128`), whose
    /// sectors are [`bypass_copy_sectors`].
    pub fn record_copy(&mut self, width: u8, mask: u32, dst: &[u64; 32], src: &[u64; 32], bypass: bool) {
        if mask == 0 {
            return;
        }
        if bypass && width == 16 {
            self.record_sectors(AccessOp::Load, width, mask, bypass_copy_sectors(mask, dst, src));
            if bypass_copy_sectors_unsure(mask, dst, src) {
                self.copies_unsure += 1;
            }
            return;
        }
        // `.ca` copies (4, 8 and 16 bytes, with a source predicate or not): the distinct 32-byte
        // sectors of the reading lanes' sources, wherever their destinations lie (H200:
        // calibration/casectors, 135 launches; the destination-following `.cg` rule breaks 78)
        self.record(AccessOp::Load, width, mask, src);
    }
}

/// Load sectors of one 16-byte `cp.async.cg` (`LDGSTS.E.BYPASS.128`, with or without a source
/// predicate or `.ZFILL`) as Nsight Compute's `l1tex__t_sectors_pipe_lsu_mem_global_op_ld` counts
/// them, over the lanes of `mask` that read their source. A lane whose 16-byte destination a lower
/// reading lane also writes is dropped; the count is the distinct pairs of a destination 32-byte
/// sector and a source 128-byte line over the remaining lanes. So sectors follow the destination:
/// a 32-byte destination stride costs one per lane where the sources are contiguous, two lanes
/// filling one destination sector from one source line cost one, and lanes that read one chunk
/// cost their distinct destination sectors. Measured on an H200: all 258 16-byte launches of
/// calibration/cpasync/zfill_h100.tsv, all 312 launches of calibration/srcpred, and 608 of the 632
/// copies of calibration/cgcrowd (the 24 others: random layouts filling one destination sector
/// from two source lines, off by 1-3 either way). The earlier form of the rule (pairs counted per
/// 8-lane phase, the phases added) breaks 113 of those 632: repeated source chunks whose readers
/// lie in different phases.
pub fn bypass_copy_sectors(mask: u32, dst: &[u64; 32], src: &[u64; 32]) -> u64 {
    // the lanes that are the lowest reading lane to write their 16-byte destination chunk
    let kept = warpscope_model::matrix::first_chunk_writers(mask, dst);
    // distinct (destination sector, source line) pairs among the kept lanes
    let mut seen = [(0u64, 0u64); 32];
    let mut n = 0usize;
    let mut m = kept;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let key = (dst[lane] / 32, src[lane] / 128);
        if !seen[..n].contains(&key) {
            seen[n] = key;
            n += 1;
        }
    }
    n as u64
}

/// Whether [`bypass_copy_sectors`] is outside its measured domain for this copy: the reading lanes
/// write more than one 16-byte destination, and one of them writes the destination of a lower
/// reading lane and reads another 128-byte source line than that lane (calibration/cgcrowd: 26 such
/// copies, 24 of them off by 1-3 either way; the rule held on every other of the 1,283 copies
/// there, and on calibration/casectors' copy whose 32 lanes write one destination from four lines).
pub fn bypass_copy_sectors_unsure(mask: u32, dst: &[u64; 32], src: &[u64; 32]) -> bool {
    if mask == 0 {
        return false;
    }
    let one = dst[mask.trailing_zeros() as usize] / 16;
    if (0..32).all(|l| mask >> l & 1 == 0 || dst[l] / 16 == one) {
        return false;
    }
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut k = mask & ((1u32 << lane) - 1);
        while k != 0 {
            let lower = k.trailing_zeros() as usize;
            k &= k - 1;
            if dst[lower] / 16 == dst[lane] / 16 {
                // the lowest lane writing this destination decides; compare with it only
                if src[lower] / 128 != src[lane] / 128 {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// The distinct 32-byte sectors the lanes of `mask` touch, `width` bytes each from their
/// address (at most 64 counted). A lane of at most 32 bytes touches one sector or two adjacent
/// ones, so the lanes' sectors are gathered into one small array, in lane order: a warp whose
/// addresses rise with the lane (the usual, coalesced case) counts its distinct sectors in one
/// pass, any other is sorted first.
#[inline]
pub(crate) fn sectors(width: u8, mask: u32, addrs: &[u64; 32]) -> u64 {
    let w = u64::from(width.max(1));
    if w > 32 {
        return sectors_any(w, mask, addrs);
    }
    if mask == u32::MAX {
        // lanes reading consecutive elements (lane l at the first lane's address + l * width):
        // the sectors of one contiguous range
        let a0 = addrs[0];
        // the lanes' differences from the run, or-ed: zero iff every lane is on it (the usual
        // widths' runs as constants: a loop of adds, xors and ors the compiler vectorises)
        let off = match w {
            4 => off_run::<4>(addrs),
            8 => off_run::<8>(addrs),
            16 => off_run::<16>(addrs),
            _ => (0..32).fold(0, |o, l| o | addrs[l] ^ a0.wrapping_add(l as u64 * w)),
        };
        if off == 0 && a0 <= u64::MAX - 32 * w {
            return (a0 + 32 * w - 1) / 32 - a0 / 32 + 1;
        }
        if let Some(n) = sectors_halves(w, addrs) {
            return n;
        }
    }
    sectors_scattered(w, mask, addrs)
}

/// The distinct sectors of a whole warp whose lanes 0-15 are one run of `w`-byte elements from lane
/// 0's address and lanes 16-31 one from lane 16's (a 2D block 16 threads wide): each half's bytes
/// one range, so its sectors one interval, and the warp's the two intervals' sizes less their
/// overlap. `None` for any other warp, or a half that wraps around the address space.
#[inline(always)]
fn sectors_halves(w: u64, addrs: &[u64; 32]) -> Option<u64> {
    let (a0, a16) = (addrs[0], addrs[16]);
    let mut off = 0u64;
    for l in 0..16 {
        let step = l as u64 * w;
        off |= (addrs[l] ^ a0.wrapping_add(step)) | (addrs[16 + l] ^ a16.wrapping_add(step));
    }
    let span = 16 * w;
    if off != 0 || a0 > u64::MAX - span || a16 > u64::MAX - span {
        return None;
    }
    let (f0, l0) = (a0 / 32, (a0 + span - 1) / 32);
    let (f1, l1) = (a16 / 32, (a16 + span - 1) / 32);
    let both = (l0.min(l1) + 1).saturating_sub(f0.max(f1));
    Some((l0 - f0 + 1) + (l1 - f1 + 1) - both)
}

/// The lanes' differences from a run of `W`-byte elements from the first lane's address (lane l
/// at `addrs[0] + W l`, wrapping), or-ed: zero iff every lane is on it.
#[inline(always)]
fn off_run<const W: u64>(addrs: &[u64; 32]) -> u64 {
    let a0 = addrs[0];
    let mut stray = 0u64;
    for (l, &a) in addrs.iter().enumerate() {
        stray |= a ^ a0.wrapping_add(l as u64 * W);
    }
    stray
}

/// [`sectors`] of a warp whose lanes are not one run (at most 32 bytes each).
#[inline(never)]
fn sectors_scattered(w: u64, mask: u32, addrs: &[u64; 32]) -> u64 {
    if mask == u32::MAX
        && let Some(n) = sectors_rising(w, addrs)
    {
        return n;
    }
    sectors_listed(w, mask, addrs)
}

/// The distinct sectors of a whole warp whose sectors never go down from lane to lane (a 2D
/// block's rows, each a run: the usual uncoalesced case), in one pass without a branch per lane;
/// `None` for any other warp. In lane order the sectors are first(0), last(0), first(1), last(1)...
/// (a lane's first and last sector: `a / 32` and `(a + w - 1) / 32`); when no step between
/// neighbours goes down, the distinct ones are 1 + the steps that are not zero. Steps are taken by
/// wrapping subtraction: sectors are below 2^59, so a step down, and only one, has the top bit set
/// (a lane whose end wraps around the address space steps down to its last sector).
#[inline(always)]
fn sectors_rising(w: u64, addrs: &[u64; 32]) -> Option<u64> {
    let mut down = 0u64;
    let mut steps = 1u64;
    let mut prev = addrs[0] / 32;
    for &a in addrs {
        let first = a / 32;
        let last = a.wrapping_add(w - 1) / 32;
        let (into, across) = (first.wrapping_sub(prev), last.wrapping_sub(first));
        down |= into | across;
        steps += u64::from(into != 0) + u64::from(across != 0);
        prev = last;
    }
    (down >> 63 == 0).then_some(steps)
}

/// [`sectors_scattered`] lane by lane: the lanes' sectors listed, sorted unless they rise (the
/// reference of [`sectors_rising`]).
fn sectors_listed(w: u64, mask: u32, addrs: &[u64; 32]) -> u64 {
    let mut buf = [0u64; 64];
    let mut n = 0;
    let mut rising = true;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let a = addrs[l];
        let (first, last) = (a / 32, a.wrapping_add(w - 1) / 32);
        if last < first {
            // the end wrapped around the address space: no sector (as `sectors_any`)
            continue;
        }
        rising &= n == 0 || buf[n - 1] <= first;
        buf[n] = first;
        n += 1;
        if last != first {
            buf[n] = last;
            n += 1;
        }
    }
    let s = &mut buf[..n];
    if !rising {
        s.sort_unstable();
    }
    let distinct = s.windows(2).filter(|p| p[0] != p[1]).count() + usize::from(n > 0);
    distinct.min(64) as u64
}

/// [`sectors`] for lanes wider than a sector: every sector of every lane, the first 64 distinct.
#[cold]
fn sectors_any(w: u64, mask: u32, addrs: &[u64; 32]) -> u64 {
    let mut sectors = [0u64; 64];
    let mut n = 0;
    for (lane, &a) in addrs.iter().enumerate() {
        if mask & (1 << lane) == 0 {
            continue;
        }
        let last = a.wrapping_add(w - 1) / 32;
        for s in a / 32..=last {
            if !sectors[..n].contains(&s) && n < sectors.len() {
                sectors[n] = s;
                n += 1;
            }
        }
    }
    n as u64
}

/// The global loads and stores of device `printf`'s own implementation (the driver's `vprintf`,
/// whose code is not in the kernel), which Nsight Compute counts in the kernel's global requests
/// and sectors. Measured on the H100 (`calibration/printf/`, 170 launches; every row repeated in
/// two runs), per warp-level call (the lanes of one warp at one `printf`, `Printed::seq`):
///
/// * loads: the format read three times per character, its NUL included, plus two:
///   `3 (L + 1) + 2` requests for a format of `L` characters, and `3 (S + 1)` more for each `%s`
///   string of `S` characters; lanes whose format or strings differ in length run the longest
///   (`L`, `S` the lanes' largest). A request's sectors are those of the lanes still reading
///   (`j <= L` of the lane at character `j`), each at its own address.
/// * stores: `1 + 7 (32 - N)` for `N` arguments, 249 more for each 256 bytes the record takes
///   beyond its first (a record of `align8(L + 1) + 8 N + sum (S + 1)` bytes fits the first with
///   up to 219: formats of 215 characters do, of 216 not; `%s` of 202 characters do, of 203 not),
///   and `max - min` more for each string (the format too) whose length differs between lanes.
///   A request's sectors: every lane's own but for 3 requests that share one sector
///   (`R + (R - 3) (k - 1)` for `R` requests per lane and `k` lanes).
///
/// The alternatives the rows break: one request per lane (32 lanes count as one), stores
/// growing with the format or string length (they do not below a 256-byte step), 4-byte slots for
/// `int` arguments (20 `int`s take the step, 19 do not).
///
/// The H200 (`calibration/printf/h200/`: the same driver 580.159.04 and ncu 2025.3.1, 128
/// launches: printf5.cu's 94, printf.cu's 33 and book10's printFormats) counts the same loads and
/// 3 store requests and 3 store sectors fewer per warp-level call, everything else alike: the 3
/// requests that share one sector are the H100's alone (`R - 3` requests per lane, `k (R - 3)`
/// sectors). [`PrintfTraffic::on_h200`] gives those counts. Which of the two GPUs a program will
/// run on is not known, so the stores are never exact ([`PrintfTraffic::exact_stores`]).
///
/// `exact` is false, for loads and stores, where a call is outside the measured rule: lanes that
/// differ in their argument count or in the record's steps, a `%s` argument followed by another
/// argument (its padding is not measured) where that could move a step, an unreadable string, or
/// more than 32 arguments.
pub fn printf_traffic(calls: &[warpscope_emu::printf::Printed]) -> PrintfTraffic {
    use std::collections::BTreeMap;
    use warpscope_emu::printf::PrintfArg;
    let mut warps: BTreeMap<(u32, u32, u32), Vec<&warpscope_emu::printf::Printed>> = BTreeMap::new();
    for p in calls {
        warps.entry((p.block, p.thread / 32, p.seq)).or_default().push(p);
    }
    let mut g = GlobalCounts::default();
    let mut exact = true;
    // requests reading strings `(address, length)` of the lanes, three per character and NUL
    let strings = |g: &mut GlobalCounts, lanes: &[(u64, usize)]| {
        let longest = lanes.iter().map(|l| l.1).max().unwrap_or(0);
        for j in 0..=longest {
            let mut sectors: Vec<u64> = lanes
                .iter()
                .filter(|l| j <= l.1)
                .map(|l| (l.0 + j as u64) / 32)
                .collect();
            sectors.sort_unstable();
            sectors.dedup();
            g.ld_requests += 3;
            g.ld_sectors += 3 * sectors.len() as u64;
        }
    };
    for lanes in warps.values() {
        let k = lanes.len() as u64;
        let first = lanes[0];
        let n = first.args.len();
        if n > 32 || lanes.iter().any(|p| p.args.len() != n) {
            exact = false;
        }
        // the format
        let formats: Vec<(u64, usize)> = lanes.iter().map(|p| (p.format_addr, p.format.len())).collect();
        strings(&mut g, &formats);
        g.ld_requests += 2;
        g.ld_sectors += 2;
        let spread = |v: &[(u64, usize)]| {
            let max = v.iter().map(|l| l.1).max().unwrap_or(0);
            let min = v.iter().map(|l| l.1).min().unwrap_or(0);
            (max - min) as u64
        };
        let mut extra = spread(&formats);
        // each %s argument
        let strs = first
            .args
            .iter()
            .filter(|a| matches!(a, PrintfArg::Str(_)))
            .count();
        for s in 0..strs {
            let mut v = Vec::new();
            for p in lanes {
                let len = p.args.iter().filter_map(|a| match a {
                    PrintfArg::Str(s) => Some(s.as_ref().map(Vec::len)),
                    _ => None,
                });
                match (len.clone().nth(s), p.str_addrs.get(s)) {
                    (Some(Some(len)), Some(&addr)) => v.push((addr, len)),
                    _ => exact = false,
                }
            }
            strings(&mut g, &v);
            extra += spread(&v);
        }
        // the record's 256-byte steps, per lane; padding after a string moved the step: estimate
        let steps = |bytes: u64| 1 + bytes.saturating_sub(219).div_ceil(256);
        let mut lane_steps = Vec::new();
        for p in lanes {
            let (mut packed, mut padded) = ((p.format.len() as u64 + 1).div_ceil(8) * 8, 0u64);
            padded += packed;
            for a in &p.args {
                let b = match a {
                    PrintfArg::Str(s) => s.as_ref().map_or(1, |s| s.len() as u64 + 1),
                    _ => 8,
                };
                packed += 8 + if matches!(a, PrintfArg::Str(_)) { b } else { 0 };
                padded = padded.div_ceil(8) * 8 + 8 + if matches!(a, PrintfArg::Str(_)) { b } else { 0 };
            }
            let s = steps(packed);
            if steps(padded) != s {
                exact = false;
            }
            lane_steps.push(s);
        }
        let steps = lane_steps.iter().copied().max().unwrap_or(1);
        if lane_steps.iter().any(|&s| s != steps) {
            exact = false;
        }
        let per_lane = 1 + 7 * 32u64.saturating_sub(n as u64) + 249 * (steps - 1);
        g.st_requests += per_lane + extra;
        g.st_sectors += per_lane + per_lane.saturating_sub(H100_SHARED_SECTOR_STORES) * (k - 1);
    }
    PrintfTraffic {
        counts: g,
        warp_calls: warps.len() as u64,
        exact,
    }
}

/// Store requests per warp-level printf call that the H100 counts and the H200 does not; on the
/// H100 all lanes' stores of these requests fall in one sector.
pub const H100_SHARED_SECTOR_STORES: u64 = 3;

/// Device printf's own global traffic of a launch ([`printf_traffic`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintfTraffic {
    /// The loads and stores as the H100 counts them.
    pub counts: GlobalCounts,
    /// Warp-level calls: the lanes of one warp at one `printf`.
    pub warp_calls: u64,
    /// Whether every call is inside the measured rule (loads equal on the H100 and the H200;
    /// stores equal on the H100, and on the H200 as [`PrintfTraffic::on_h200`]).
    pub exact: bool,
}

impl PrintfTraffic {
    /// The counts as the H200 counts them: [`H100_SHARED_SECTOR_STORES`] store requests and
    /// sectors fewer per warp-level call.
    pub fn on_h200(&self) -> GlobalCounts {
        let fewer = H100_SHARED_SECTOR_STORES * self.warp_calls;
        GlobalCounts {
            st_requests: self.counts.st_requests.saturating_sub(fewer),
            st_sectors: self.counts.st_sectors.saturating_sub(fewer),
            ..self.counts
        }
    }

    /// Whether the store counts are exact: never, for the H100 and the H200 differ by
    /// [`H100_SHARED_SECTOR_STORES`] per call and the GPU is not known. The loads are exact
    /// where [`PrintfTraffic::exact`] is.
    pub fn exact_stores(&self) -> bool {
        self.warp_calls == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_emu::printf::{Printed, PrintfArg};

    fn call(
        thread: u32,
        format: &str,
        format_addr: u64,
        args: Vec<PrintfArg>,
        str_addrs: Vec<u64>,
    ) -> Printed {
        Printed {
            block: 0,
            thread,
            seq: 0,
            format: format.as_bytes().to_vec(),
            args,
            format_addr,
            str_addrs,
        }
    }

    /// The sector count against its definition (the distinct sectors of every active lane's
    /// bytes, at most 64), on coalesced, strided, reversed, scattered and straddling warps.
    #[test]
    fn sectors_are_the_distinct_sectors_of_the_lanes_bytes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..4000 {
            let width = [1u8, 2, 4, 8, 12, 16, 32, 48, 64][case % 9];
            let mask = match case % 4 {
                0 => u32::MAX,
                1 => next() as u32,
                2 => 0xffff,
                _ => 1 << (next() % 32),
            };
            let base = 0x7f00_0000_0000 + (next() % 4096);
            let stride = [0u64, 1, 4, 8, 16, 32, 36, 128][(case / 4) % 8];
            let addrs: [u64; 32] = std::array::from_fn(|l| match (case / 32) % 3 {
                0 => base + stride * l as u64,
                1 => base + stride * (31 - l as u64),
                _ => base + next() % 1024,
            });
            let mut want = std::collections::BTreeSet::new();
            for (l, &a) in addrs.iter().enumerate() {
                if mask >> l & 1 == 1 {
                    for s in a / 32..=(a + u64::from(width) - 1) / 32 {
                        want.insert(s);
                    }
                }
            }
            assert_eq!(
                sectors(width, mask, &addrs),
                want.len().min(64) as u64,
                "case {case}: width {width} mask {mask:#x} addrs {addrs:?}"
            );
        }
    }

    /// The one-pass count of a whole warp whose sectors rise equals the lanes' sectors listed and
    /// sorted, and it declines every warp whose sectors go down somewhere: rows of a 2D block (runs
    /// of 2 to 16 lanes with a gap, forwards and with the rows swapped), lanes straddling sectors,
    /// repeated addresses, random steps up and down, and lanes at the top of the address space.
    #[test]
    fn rising_sectors_in_one_pass_equal_the_listed_sectors() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut taken, mut declined) = (0, 0);
        for case in 0..20_000u64 {
            let w = [1u64, 2, 4, 8, 12, 16, 32][(case % 7) as usize];
            let base = if case % 97 == 0 {
                u64::MAX - next() % 512
            } else {
                0x7f00_0000_0000 + next() % 4096
            };
            let run = [2u64, 4, 8, 16][((case / 7) % 4) as usize];
            let pitch = 32 * (1 + next() % 64);
            let addrs: [u64; 32] = std::array::from_fn(|l| {
                let l = l as u64;
                match (case / 28) % 4 {
                    0 => base.wrapping_add((l / run) * pitch + (l % run) * w),
                    1 => base.wrapping_add(((31 - l) / run) * pitch + (l % run) * w),
                    2 => base.wrapping_add(l * (next() % 40)),
                    _ => base.wrapping_add(next() % 2048),
                }
            });
            let want = sectors_listed(w, u32::MAX, &addrs);
            match sectors_rising(w, &addrs) {
                Some(n) => {
                    taken += 1;
                    assert_eq!(n, want, "case {case}: width {w} addrs {addrs:?}");
                }
                None => {
                    declined += 1;
                    let s: Vec<u64> = addrs
                        .iter()
                        .flat_map(|&a| [a / 32, a.wrapping_add(w - 1) / 32])
                        .collect();
                    assert!(s.windows(2).any(|p| p[1] < p[0]), "case {case}: rising, declined");
                }
            }
        }
        assert!(
            taken > 4_000 && declined > 4_000,
            "{taken} taken, {declined} declined"
        );
    }

    fn counts(g: GlobalCounts) -> [u64; 4] {
        [g.ld_requests, g.ld_sectors, g.st_requests, g.st_sectors]
    }

    /// The H100's counts and whether the rule covers the calls.
    fn h100(calls: &[Printed]) -> (GlobalCounts, bool) {
        let t = printf_traffic(calls);
        (t.counts, t.exact)
    }

    /// The H200's counts and whether the rule covers the calls.
    fn h200(calls: &[Printed]) -> ([u64; 4], bool) {
        let t = printf_traffic(calls);
        assert!(!t.exact_stores(), "stores differ between the GPUs: never exact");
        (counts(t.on_h200()), t.exact)
    }

    /// Rows of calibration/printf/h200/ (load requests, sectors, store requests, sectors): the
    /// H100's rule less 3 store requests and 3 store sectors per warp-level call.
    #[test]
    fn printf_traffic_equals_the_h200_rows() {
        let int = |v: u64| PrintfArg::Int { bits: v, size: 4 };
        let long = |v: u64| PrintfArg::Int { bits: v, size: 8 };
        let dbl = PrintfArg::Float;
        let at = |mut p: Printed, seq: u32| {
            p.seq = seq;
            p
        };
        // printf5.cu b10 (book10.cu's printFormats, also h200/book10.ncu.csv): 4 lanes, 4 calls
        let mut b10 = Vec::new();
        for t in 0..4u32 {
            // the values (book10: f = 3.1415927 (t + 1), d = 2.718281828459045 / (t + 1)) do not matter
            let (f, d) = (1.5 * f64::from(t + 1), 0.75 / f64::from(t + 1));
            let i = u64::from(t);
            b10.push(at(
                call(
                    t,
                    "t%d %.20f %.20f\n",
                    0x1000,
                    vec![int(i), dbl(f), dbl(d)],
                    vec![],
                ),
                0,
            ));
            b10.push(at(
                call(
                    t,
                    "t%d [%e] [%E] [%g] [%G]\n",
                    0x1100,
                    vec![int(i), dbl(f), dbl(d), dbl(d * 1e-7), dbl(f * 1e12)],
                    vec![],
                ),
                1,
            ));
            b10.push(at(
                call(
                    t,
                    "t%d [%10.3f] [%-10.2f] [%+.1f] [%08.3f]\n",
                    0x1200,
                    vec![int(i), dbl(f), dbl(f), dbl(-d), dbl(d)],
                    vec![],
                ),
                2,
            ));
            let s = if t & 1 == 1 { "odd" } else { "even" };
            let mut args = vec![
                int(i),
                int(42 + i),
                int(42 - i),
                int(i),
                int(42 * 7919),
                int(42 * 104729),
            ];
            args.extend([int(42), long(1234567890123 * (i + 1)), int(97 + i)]);
            args.push(PrintfArg::Str(Some(s.as_bytes().to_vec())));
            let addr = if t & 1 == 1 { 0x2040 } else { 0x2000 };
            b10.push(at(
                call(
                    t,
                    "t%d [%5d] [%-5d] [%05d] [%x] [%X] [%o] [%lld] [%c] [%s] [%%]\n",
                    0x1300,
                    args,
                    vec![addr],
                ),
                3,
            ));
        }
        assert_eq!(h200(&b10), ([458, 470, 728, 2908], true));
        // its fourth call alone (b10call4), and by one lane
        let fourth: Vec<Printed> = b10.iter().filter(|p| p.seq == 3).cloned().collect();
        assert_eq!(h200(&fourth), ([203, 215, 153, 608], true));
        assert_eq!(h200(&fourth[..1]), ([203, 203, 152, 152], true));
        // once(32): 32 lanes, "abcdefg\n": every store request one sector per lane
        let lanes: Vec<Printed> = (0..32)
            .map(|t| call(t, "abcdefg\n", 0x1000, vec![], vec![]))
            .collect();
        assert_eq!(h200(&lanes), ([29, 29, 222, 7104], true));
        // printf.cu warps4: 4 warps of 32 lanes
        let warps: Vec<Printed> = (0..128)
            .map(|t| call(t, "abcdefg\n", 0x1000, vec![], vec![]))
            .collect();
        assert_eq!(h200(&warps), ([116, 116, 888, 28416], true));
        // pct0(4): `%%` takes no argument slot
        let pct: Vec<Printed> = (0..4)
            .map(|t| call(t, "100%%\n", 0x1000, vec![], vec![]))
            .collect();
        assert_eq!(h200(&pct), ([23, 23, 222, 888], true));
        // intDbl(4) and dblInt(4): a double after an int takes no more than one before it
        for f in ["%d %f\n", "%f %d\n"] {
            let two: Vec<Printed> = (0..4)
                .map(|t| {
                    let (i, d) = (int(u64::from(t)), dbl(f64::from(t) + 0.5));
                    let args = if f.starts_with("%d") {
                        vec![i, d]
                    } else {
                        vec![d, i]
                    };
                    call(t, f, 0x1000, args, vec![])
                })
                .collect();
            assert_eq!(h200(&two), ([23, 23, 208, 832], true), "{f}");
        }
        // oddEven(4): "[%s]\n" of "even", "odd", "even", "odd" (two literals, two sectors)
        let odd_even: Vec<Printed> = (0..4)
            .map(|t| {
                let (s, a) = if t & 1 == 1 {
                    ("odd", 0x2040)
                } else {
                    ("even", 0x2000)
                };
                call(
                    t,
                    "[%s]\n",
                    0x1000,
                    vec![PrintfArg::Str(Some(s.as_bytes().to_vec()))],
                    vec![a],
                )
            })
            .collect();
        assert_eq!(h200(&odd_even), ([35, 47, 216, 860], true));
        // printf.cu loop3: one lane, three calls of "%d\n"
        let three: Vec<Printed> = (0..3)
            .map(|i| at(call(0, "%d\n", 0x1000, vec![int(u64::from(i))], vec![]), i))
            .collect();
        assert_eq!(h200(&three), ([42, 42, 645, 645], true));
        // printf5.cu ints10(1) and dbls10(4): ten arguments of one type
        let ints: Vec<Printed> = vec![call(
            0,
            &("%d ".repeat(9) + "%d\n"),
            0x1000,
            (0..10).map(int).collect(),
            vec![],
        )];
        assert_eq!(h200(&ints), ([95, 95, 152, 152], true));
        let dbls: Vec<Printed> = (0..4)
            .map(|t| {
                let args = (0..10).map(|_| dbl(f64::from(t) + 0.5)).collect();
                call(t, &("%f ".repeat(9) + "%f\n"), 0x1000, args, vec![])
            })
            .collect();
        assert_eq!(h200(&dbls), ([95, 95, 152, 608], true));
    }

    /// Rows of calibration/printf/h100/ (load requests, sectors, store requests, sectors).
    #[test]
    fn printf_traffic_equals_the_h100_rows() {
        // printf.cu lanes32: 32 lanes, "abcdefg\n", no argument
        let lanes: Vec<Printed> = (0..32)
            .map(|t| call(t, "abcdefg\n", 0x1000, vec![], vec![]))
            .collect();
        assert_eq!(h100(&lanes), (counts_of([29, 29, 225, 7107]), true));
        // printf.cu warps2one: lane 0 of two warps
        let two = [
            call(0, "abcdefg\n", 0x1000, vec![], vec![]),
            call(32, "abcdefg\n", 0x1000, vec![], vec![]),
        ];
        assert_eq!(counts(h100(&two).0), [58, 58, 450, 450]);
        // printf.cu p_int12: twelve ints (36 characters)
        let int = |v: u64| PrintfArg::Int { bits: v, size: 4 };
        let f12 = "%d %d %d %d %d %d %d %d %d %d %d %d\n";
        let one = [call(0, f12, 0x1000, (0..12).map(int).collect(), vec![])];
        assert_eq!(counts(h100(&one).0), [113, 113, 141, 141]);
        // printf3.cu ints20: twenty ints take a second 256-byte step (19 do not)
        let f20 = "%d ".repeat(19) + "%d\n";
        let one = [call(0, &f20, 0x1000, (0..20).map(int).collect(), vec![])];
        assert_eq!(counts(h100(&one).0), [185, 185, 334, 334]);
        // printf2.cu twoFormats: lanes 0-3 alternate two formats at their own 256-byte starts
        let four: Vec<Printed> = (0..4)
            .map(|t| {
                let (f, a) = if t % 2 == 1 {
                    ("odd %d\n", 0x1100)
                } else {
                    ("even number %d\n", 0x1000)
                };
                call(t, f, a, vec![int(u64::from(t))], vec![])
            })
            .collect();
        assert_eq!(h100(&four), (counts_of([50, 74, 226, 863]), true));
        // printf2.cu strPat (1, 10, 5, 26): four strings at 64-byte slots, 3 bytes in (the H100's
        // 96 / 153 load requests / sectors include the kernel's own load of the pointers: 1 / 1)
        let lens = [1usize, 10, 5, 26];
        let four: Vec<Printed> = (0..4)
            .map(|t| {
                let s = vec![b'a'; lens[t as usize]];
                call(
                    t,
                    "%s\n",
                    0x1000,
                    vec![PrintfArg::Str(Some(s))],
                    vec![0x2000 + 64 * u64::from(t) + 3],
                )
            })
            .collect();
        assert_eq!(h100(&four), (counts_of([95, 152, 243, 863]), true));
        // lanes that differ in their argument count: an estimate
        let mixed = [
            call(0, "%d\n", 0x1000, vec![int(1)], vec![]),
            call(1, "\n", 0x1100, vec![], vec![]),
        ];
        assert!(!h100(&mixed).1);
    }

    fn counts_of(c: [u64; 4]) -> GlobalCounts {
        GlobalCounts {
            ld_requests: c[0],
            ld_sectors: c[1],
            st_requests: c[2],
            st_sectors: c[3],
            ..GlobalCounts::default()
        }
    }

    /// Warps of two half-warp runs (rows of a 16-wide block: apart, adjacent, overlapping, the
    /// same, swapped, straddling sectors, near the top of the address space) against the
    /// definition, and warps that are not two runs (one lane moved) left to the other paths.
    #[test]
    fn half_warp_runs_count_their_distinct_sectors() {
        let mut seed = 0x6a09_e667_f3bc_c909u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut halves = 0;
        for case in 0..20_000u64 {
            let width = [1u8, 2, 4, 8, 16, 32][(case % 6) as usize];
            let w = u64::from(width);
            let a0 = match case % 5 {
                0 => u64::MAX - next() % 1024,
                _ => 0x7f00_0000_0000 + next() % 4096,
            };
            let a16 = match (case / 6) % 6 {
                0 => a0.wrapping_add(16 * w),
                1 => a0.wrapping_add(next() % (32 * w)),
                2 => a0,
                3 => a0.wrapping_sub(next() % (64 * w)),
                4 => a0.wrapping_add(32 * (1 + next() % 512)),
                _ => next(),
            };
            let mut addrs: [u64; 32] =
                std::array::from_fn(|l| if l < 16 { a0 } else { a16 }.wrapping_add((l as u64 % 16) * w));
            if case % 7 == 0 {
                addrs[(next() % 32) as usize] ^= 1 << (next() % 12);
            }
            let mut want = std::collections::BTreeSet::new();
            for &a in &addrs {
                let last = a.wrapping_add(w - 1);
                if last >= a {
                    want.extend(a / 32..=last / 32);
                }
            }
            let got = sectors(width, u32::MAX, &addrs);
            assert_eq!(
                got,
                want.len().min(64) as u64,
                "case {case}: width {width} addrs {addrs:?}"
            );
            if let Some(n) = sectors_halves(w, &addrs) {
                halves += 1;
                assert_eq!(n, got, "case {case}");
            }
        }
        assert!(halves > 10_000, "{halves} taken");
    }
}
