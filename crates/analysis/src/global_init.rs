//! Reads of global memory that nothing wrote (what compute-sanitizer's initcheck reports): device
//! memory from `cudaMalloc` holds whatever was there before until the program writes it (a copy,
//! a memset, a kernel's store).
//!
//! The caller (the runtime of `warpscope run --check`) keeps, for each device allocation, which
//! bytes were ever written ([`InitMap`]: one bit per byte) and hands the map to a launch. Each
//! block's [`GlobalInitSink`] then sees the block's global accesses: a read (a load, the read half
//! of an atomic, a `cp.async` source) of a byte the map does not hold and the block did not write
//! earlier is a candidate. [`GlobalInitReport::merge`] folds the blocks in block order and drops a
//! candidate whose bytes an earlier block wrote (a read of another block's result is ordered or a
//! race, which [`crate::global_races`] judges, not an uninitialised read); so the findings do not
//! depend on the order blocks ran in. The bytes the launch wrote come back
//! ([`GlobalInitReport::written`]) for the map of the next launch.
//!
//! Regions the map does not name (`__device__` variables, mapped host memory, the grid
//! workspace) count as initialised. An atomic is a read: on memory nothing wrote it is reported,
//! every time, and it does not initialise the bytes (what it stores derives from what it read), as
//! compute-sanitizer's initcheck counts on an H200 (`calibration/bugs/h200`, `uninit_counter`).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::footprint::{Footprint, Use};
use crate::hazards::{Example, Finding, FindingKind, Loc, Severity};

/// The most candidate reads one block keeps with their addresses; beyond, reads are counted per
/// instruction without the check against earlier blocks' writes.
const CANDIDATES_PER_BLOCK: usize = 4096;

/// One tracked allocation: bit `i` of `bits` is set when byte `base + i` was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitRegion {
    /// First byte.
    pub base: u64,
    /// Length in bytes.
    pub len: u64,
    /// One bit per byte (`len.div_ceil(64)` words).
    pub bits: Arc<Vec<u64>>,
}

impl InitRegion {
    /// A region of `len` bytes nothing wrote yet.
    pub fn fresh(base: u64, len: u64) -> InitRegion {
        InitRegion {
            base,
            len,
            bits: Arc::new(vec![0; len.div_ceil(64) as usize]),
        }
    }

    /// Marks `[off, off + n)` (offsets in the region, clipped to it) written.
    pub fn mark(&mut self, off: u64, n: u64) {
        let end = off.saturating_add(n).min(self.len);
        if off >= end {
            return;
        }
        set_bits(Arc::make_mut(&mut self.bits).as_mut_slice(), off, end);
    }

    /// Whether every byte of `[off, off + n)` was written.
    pub fn all_written(&self, off: u64, n: u64) -> bool {
        (off..off.saturating_add(n).min(self.len)).all(|i| bit(&self.bits, i))
    }
}

fn bit(bits: &[u64], i: u64) -> bool {
    bits.get((i / 64) as usize)
        .is_some_and(|w| w >> (i % 64) & 1 == 1)
}

fn set_bits(bits: &mut [u64], lo: u64, hi: u64) {
    let mut i = lo;
    while i < hi {
        let w = (i / 64) as usize;
        let b = i % 64;
        let n = (64 - b).min(hi - i);
        let m = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << b };
        if let Some(x) = bits.get_mut(w) {
            *x |= m;
        }
        i += n;
    }
}

/// Which bytes of the tracked allocations were written before a launch (see the module notes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InitMap {
    /// Sorted by base, not overlapping.
    regions: Vec<InitRegion>,
    /// Every region of the global space (allocations, host mirrors, variables) as `[lo, hi)`,
    /// sorted, and the mapped spans outside them: an access to mapped bytes outside every region
    /// is an `out_of_bounds` finding (the GPU does not stop it; see [`InitMap::with_space`]).
    space: Vec<(u64, u64)>,
    mapped: Vec<(u64, u64)>,
}

impl InitMap {
    /// A map of these regions (any order).
    pub fn new(mut regions: Vec<InitRegion>) -> InitMap {
        regions.sort_by_key(|r| r.base);
        InitMap {
            regions,
            space: Vec::new(),
            mapped: Vec::new(),
        }
    }

    /// The map that also knows the space's regions (`(base, len)`) and its mapped spans
    /// (`[lo, hi)`): an access outside every region whose bytes are all mapped is reported
    /// ([`GlobalInitReport::findings`]); one that reaches unmapped bytes faults instead.
    pub fn with_space(mut self, regions: &[(u64, u64)], mapped: &[(u64, u64)]) -> InitMap {
        self.space = regions.iter().map(|&(b, l)| (b, b + l.max(1))).collect();
        self.space.sort_unstable();
        self.mapped = mapped.to_vec();
        self.mapped.sort_unstable();
        self
    }

    fn in_spans(spans: &[(u64, u64)], a: u64, w: u64) -> bool {
        let i = spans.partition_point(|&(lo, _)| lo <= a);
        i > 0 && a.saturating_add(w) <= spans[i - 1].1
    }

    /// Whether `[a, a + w)` lies outside every region of the space but in mapped memory (each
    /// byte in a region or a mapped span, not all in one region).
    pub fn outside(&self, a: u64, w: u64) -> bool {
        if self.mapped.is_empty() || Self::in_spans(&self.space, a, w) {
            return false;
        }
        (0..w).all(|i| {
            let b = a.wrapping_add(i);
            Self::in_spans(&self.space, b, 1) || Self::in_spans(&self.mapped, b, 1)
        })
    }

    /// The region nearest to `a`: `(base, len)`. (`h200-map/memcheck_far.txt`: 4 MiB past a
    /// 4-byte buffer memcheck names the 4-byte buffer allocated after it, which is both the
    /// closest and the highest below; no measured row tells the two apart.)
    fn nearest(&self, a: u64) -> Option<(u64, u64)> {
        let i = self.space.partition_point(|&(lo, _)| lo <= a);
        let dist = |&(lo, hi): &(u64, u64)| if a < lo { lo - a } else { a.saturating_sub(hi) };
        let below = i.checked_sub(1).and_then(|k| self.space.get(k));
        let above = self.space.get(i);
        let near = match (below, above) {
            (Some(x), Some(y)) => Some(if dist(y) < dist(x) { y } else { x }),
            (x, y) => x.or(y),
        }?;
        Some((near.0, near.1 - near.0))
    }

    /// The regions, by base.
    pub fn regions(&self) -> &[InitRegion] {
        &self.regions
    }

    /// The region holding `addr`: its index and the offset in it.
    fn find(&self, addr: u64) -> Option<(usize, u64)> {
        let i = self.regions.partition_point(|r| r.base <= addr).checked_sub(1)?;
        let r = &self.regions[i];
        (addr - r.base < r.len).then_some((i, addr - r.base))
    }

    /// Whether byte `addr` counts as written before the launch (bytes of no tracked region do).
    pub fn written(&self, addr: u64) -> bool {
        match self.find(addr) {
            Some((i, off)) => bit(&self.regions[i].bits, off),
            None => true,
        }
    }
}

/// `n` with its digits in groups of three, as compute-sanitizer prints sizes and distances
/// ("4,193,793 bytes after").
fn grouped(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A read of bytes nothing wrote, as the block saw it.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    pc: u32,
    tid: u32,
    addr: u64,
    /// Bit `i`: byte `addr + i` was unwritten when read (accesses are at most 16 bytes).
    bytes: u16,
}

/// Reads of unwritten global bytes at one instruction.
#[derive(Clone, Debug)]
struct Agg {
    count: u64,
    example: Example,
}

/// The initcheck of one block (see the module notes).
#[derive(Debug)]
pub struct GlobalInitSink {
    block: u32,
    map: Arc<InitMap>,
    /// Bytes of tracked regions this block wrote: 64-byte line -> bits.
    own: FxHashMap<u64, u64>,
    candidates: Vec<Candidate>,
    /// Reads beyond [`CANDIDATES_PER_BLOCK`], per instruction.
    overflow: FxHashMap<u32, Agg>,
    /// The block's global footprint (for the runtime's check of launches on unordered streams).
    footprint: Footprint,
    /// Accesses outside every region in mapped memory, per instruction: the first and a count.
    outside: FxHashMap<u32, OutsideAgg>,
}

/// Accesses outside every region at one instruction (the first in block order, and how many).
#[derive(Clone, Debug)]
struct OutsideAgg {
    count: u64,
    block: u32,
    tid: u32,
    addr: u64,
    width: u8,
    write: bool,
}

impl GlobalInitSink {
    /// The check of block `block` (linear id) against `map`.
    pub fn new(block: u32, map: Arc<InitMap>) -> GlobalInitSink {
        GlobalInitSink {
            block,
            map,
            own: FxHashMap::default(),
            candidates: Vec::new(),
            overflow: FxHashMap::default(),
            footprint: Footprint::default(),
            outside: FxHashMap::default(),
        }
    }

    /// Notes the lanes whose access lies outside every region in mapped memory.
    fn check_outside(&mut self, warp: u32, pc: u32, width: u8, mask: u32, addrs: &[u64; 32], write: bool) {
        if self.map.mapped.is_empty() {
            return;
        }
        for (lane, &a) in addrs.iter().enumerate() {
            if mask >> lane & 1 == 0 || !self.map.outside(a, u64::from(width)) {
                continue;
            }
            let block = self.block;
            let agg = self.outside.entry(pc).or_insert(OutsideAgg {
                count: 0,
                block,
                tid: warp * 32 + lane as u32,
                addr: a,
                width,
                write,
            });
            agg.count += 1;
        }
    }

    fn own_written(&self, a: u64) -> bool {
        self.own.get(&(a / 64)).is_some_and(|w| w >> (a % 64) & 1 == 1)
    }

    fn read(&mut self, warp: u32, pc: u32, width: u8, mask: u32, addrs: &[u64; 32]) {
        let w = u64::from(width.min(16));
        for (lane, &a) in addrs.iter().enumerate() {
            if mask >> lane & 1 == 0 {
                continue;
            }
            let mut bytes = 0u16;
            for i in 0..w {
                let b = a.wrapping_add(i);
                if !self.map.written(b) && !self.own_written(b) {
                    bytes |= 1 << i;
                }
            }
            if bytes == 0 {
                continue;
            }
            let tid = warp * 32 + lane as u32;
            if self.candidates.len() < CANDIDATES_PER_BLOCK {
                self.candidates.push(Candidate {
                    pc,
                    tid,
                    addr: a,
                    bytes,
                });
            } else {
                let block = self.block;
                let agg = self.overflow.entry(pc).or_insert_with(|| Agg {
                    count: 0,
                    example: Example {
                        block,
                        threads: vec![tid],
                        address: Some(a),
                    },
                });
                agg.count += 1;
            }
        }
    }

    fn write(&mut self, width: u8, mask: u32, addrs: &[u64; 32]) {
        let w = u64::from(width);
        for (lane, &a) in addrs.iter().enumerate() {
            if mask >> lane & 1 == 0 {
                continue;
            }
            for i in 0..w {
                let b = a.wrapping_add(i);
                // bytes the map already holds change nothing
                if !self.map.written(b) {
                    *self.own.entry(b / 64).or_insert(0) |= 1 << (b % 64);
                }
            }
        }
    }
}

impl warpscope_emu::Sink for GlobalInitSink {
    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        use warpscope_emu::{AccessOp, Space};
        if let (AccessOp::CpAsync, Some(src)) = (e.op, e.src) {
            self.check_outside(e.warp, e.pc, e.width, e.mask, src, false);
            self.read(e.warp, e.pc, e.width, e.mask, src);
            self.footprint.add_lanes(Use::Read, e.pc, e.width, e.mask, src);
            return;
        }
        if e.space == Space::Const && e.op == AccessOp::Load {
            // constant-bank reads, for the streams' check against copies to `__constant__`
            // variables (see `footprint::CONST_BASE`)
            let mut at = [0u64; 32];
            for (l, a) in at.iter_mut().enumerate() {
                if e.mask >> l & 1 == 1 {
                    *a = crate::footprint::CONST_BASE.wrapping_add(e.addrs[l]);
                }
            }
            self.footprint.add_lanes(Use::Read, e.pc, e.width, e.mask, &at);
            return;
        }
        if e.space != Space::Global {
            return;
        }
        let used = match e.op {
            AccessOp::Load | AccessOp::LdMatrix => Some(Use::Read),
            AccessOp::Store | AccessOp::StMatrix => Some(Use::Write),
            AccessOp::Atomic => Some(Use::Atomic),
            AccessOp::CpAsync | AccessOp::Wgmma => None,
        };
        if let Some(u) = used {
            self.footprint.add_lanes(u, e.pc, e.width, e.mask, e.addrs);
            self.check_outside(e.warp, e.pc, e.width, e.mask, e.addrs, u != Use::Read);
        }
        match e.op {
            AccessOp::Load | AccessOp::LdMatrix => self.read(e.warp, e.pc, e.width, e.mask, e.addrs),
            AccessOp::Store | AccessOp::StMatrix => self.write(e.width, e.mask, e.addrs),
            // an atomic reads; what it writes derives from what it read, so it initialises
            // nothing (compute-sanitizer's initcheck reports every one of 256 atomicAdds on
            // bins nothing zeroed: calibration/bugs/h200, uninit_counter)
            AccessOp::Atomic => self.read(e.warp, e.pc, e.width, e.mask, e.addrs),
            // the tensor core's shared-memory operands
            AccessOp::CpAsync | AccessOp::Wgmma => {}
        }
    }
}

/// The launch's uninitialised global reads, and the bytes it wrote.
#[derive(Debug)]
pub struct GlobalInitReport {
    map: Arc<InitMap>,
    /// Per region of the map: the bytes blocks merged so far wrote (made on the first write).
    written: Vec<Option<Vec<u64>>>,
    found: std::collections::BTreeMap<u32, Agg>,
    footprint: Footprint,
    outside: std::collections::BTreeMap<u32, OutsideAgg>,
}

impl GlobalInitReport {
    /// An empty report for a launch checked against `map`.
    pub fn new(map: Arc<InitMap>) -> GlobalInitReport {
        let n = map.regions.len();
        GlobalInitReport {
            map,
            written: vec![None; n],
            found: std::collections::BTreeMap::new(),
            footprint: Footprint::default(),
            outside: std::collections::BTreeMap::new(),
        }
    }

    fn written_before(&self, a: u64) -> bool {
        match self.map.find(a) {
            Some((i, off)) => self.written[i].as_ref().is_some_and(|w| bit(w, off)),
            None => true,
        }
    }

    /// Folds in a finished block; call in block order.
    pub fn merge(&mut self, mut sink: GlobalInitSink) {
        self.footprint.merge(std::mem::take(&mut sink.footprint));
        for (pc, o) in std::mem::take(&mut sink.outside) {
            match self.outside.get_mut(&pc) {
                Some(x) => x.count += o.count,
                None => {
                    self.outside.insert(pc, o);
                }
            }
        }
        for c in &sink.candidates {
            let unwritten = (0..16)
                .filter(|i| c.bytes >> i & 1 == 1)
                .any(|i| !self.written_before(c.addr.wrapping_add(i)));
            if !unwritten {
                continue;
            }
            let agg = self.found.entry(c.pc).or_insert_with(|| Agg {
                count: 0,
                example: Example {
                    block: sink.block,
                    threads: vec![c.tid],
                    address: Some(c.addr),
                },
            });
            agg.count += 1;
        }
        for (pc, a) in sink.overflow {
            match self.found.get_mut(&pc) {
                Some(x) => x.count += a.count,
                None => {
                    self.found.insert(pc, a);
                }
            }
        }
        for (line, bits) in sink.own {
            let a = line * 64;
            let Some((i, off)) = self.map.find(a) else {
                continue;
            };
            let len = self.map.regions[i].len;
            let w = self.written[i].get_or_insert_with(|| vec![0; len.div_ceil(64) as usize]);
            // `a` is 64-byte aligned, the region's base need not be: the line's bits land on
            // one or two words of the region's bitmap
            for b in 0..64 {
                if bits >> b & 1 == 1 && off + b < len {
                    set_bits(w, off + b, off + b + 1);
                }
            }
        }
    }

    /// The launch's global footprint (every block merged so far), taken out of the report.
    pub fn take_footprint(&mut self) -> Footprint {
        self.footprint.flush();
        std::mem::take(&mut self.footprint)
    }

    /// The map after the launch: what was written before it and what it wrote.
    pub fn written(&self) -> InitMap {
        let regions = self
            .map
            .regions
            .iter()
            .zip(&self.written)
            .map(|(r, w)| {
                let mut r = r.clone();
                if let Some(w) = w {
                    let bits = Arc::make_mut(&mut r.bits);
                    for (d, s) in bits.iter_mut().zip(w) {
                        *d |= s;
                    }
                }
                r
            })
            .collect();
        InitMap {
            regions,
            space: self.map.space.clone(),
            mapped: self.map.mapped.clone(),
        }
    }

    /// The findings, one per instruction: `loc` names an instruction, `thread` a (block,
    /// thread) pair, `place` a global byte address against the launch's buffers.
    pub fn findings(
        &self,
        loc: &dyn Fn(u32) -> Loc,
        thread: &dyn Fn(u32, u32) -> String,
        place: &dyn Fn(u64) -> String,
    ) -> Vec<Finding> {
        let outside = self.outside.iter().map(|(&pc, o)| {
            let l = loc(pc);
            let who = thread(o.block, o.tid);
            // compute-sanitizer's distances: the byte at the end is "1 bytes after"
            // (calibration/bugs/h200/programs.log, oob_global)
            let near = match self.map.nearest(o.addr) {
                Some((b, n)) if o.addr < b => format!(
                    "is {} bytes before the nearest allocation at {b:#x} of size {} bytes",
                    grouped(b - o.addr),
                    grouped(n)
                ),
                Some((b, n)) => format!(
                    "is {} bytes after the nearest allocation at {b:#x} of size {} bytes",
                    grouped(o.addr.saturating_sub(b + n) + 1),
                    grouped(n)
                ),
                None => "is in no allocation".to_string(),
            };
            let like = if o.count > 1 {
                format!(" ({} thread accesses like it)", o.count)
            } else {
                String::new()
            };
            Finding {
                kind: FindingKind::OutOfBounds,
                severity: Severity::Error,
                line: l.line,
                lines: l.line.into_iter().collect(),
                pcs: vec![pc],
                message: format!(
                    "invalid global {} of {} bytes at {} by {who}: access to {:#x} is out of bounds and {near}{like}; the address is mapped, so the GPU runs on (a read returns what is there, a write lands; compute-sanitizer's memcheck stops the launch)",
                    if o.write { "write" } else { "read" },
                    o.width,
                    l.label,
                    o.addr
                ),
                count: o.count,
                example: Example {
                    block: o.block,
                    threads: vec![o.tid],
                    address: Some(o.addr),
                },
            }
        });
        let mut v: Vec<Finding> = outside.collect();
        v.extend(self.found
            .iter()
            .map(|(&pc, a)| {
                let l = loc(pc);
                let ex = &a.example;
                let who = thread(ex.block, ex.threads.first().copied().unwrap_or(0));
                let addr = ex.address.unwrap_or(0);
                let at = match self.map.find(addr) {
                    Some((i, off)) => {
                        let r = &self.map.regions[i];
                        format!(
                            "byte {off} of the {}-byte device allocation at {:#x}",
                            r.len, r.base
                        )
                    }
                    None => format!("global {}", place(addr)),
                };
                let reads = if a.count > 1 {
                    format!(" ({} thread reads like it)", a.count)
                } else {
                    String::new()
                };
                Finding {
                    kind: FindingKind::UninitializedGlobalRead,
                    severity: Severity::Error,
                    line: l.line,
                    lines: l.line.into_iter().collect(),
                    pcs: vec![pc],
                    message: format!(
                        "{who} at {} reads {at}, which nothing wrote{reads}: cudaMalloc does not zero memory; write it first (cudaMemcpy, cudaMemset or a kernel)",
                        l.label
                    ),
                    count: a.count,
                    example: ex.clone(),
                }
            }));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_emu::{AccessOp, MemEvent, Sink, Space};

    #[test]
    fn sizes_print_in_groups_of_three_as_compute_sanitizer_does() {
        let got: Vec<String> = [0, 1, 400, 65_537, 4_193_793, 3_145_728].map(grouped).to_vec();
        assert_eq!(got, ["0", "1", "400", "65,537", "4,193,793", "3,145,728"]);
    }

    fn ev<'a>(op: AccessOp, width: u8, mask: u32, addrs: &'a [u64; 32]) -> MemEvent<'a> {
        MemEvent {
            block: 0,
            warp: 0,
            pc: 7,
            space: Space::Global,
            op,
            width,
            mask,
            addrs,
            src: None,
        }
    }

    fn map_with(written: &[(u64, u64)]) -> Arc<InitMap> {
        let mut r = InitRegion::fresh(0x1000, 256);
        for &(off, n) in written {
            r.mark(off, n);
        }
        Arc::new(InitMap::new(vec![r]))
    }

    #[test]
    fn bits_are_set_across_word_edges_and_clipped_to_the_region() {
        let mut r = InitRegion::fresh(0, 200);
        r.mark(60, 10);
        assert!(r.all_written(60, 10));
        assert!(!r.all_written(59, 2));
        assert!(!r.all_written(69, 2));
        r.mark(190, 100);
        assert!(r.all_written(190, 10));
        assert_eq!(r.bits.len(), 4);
    }

    #[test]
    fn reads_of_unwritten_bytes_are_found_and_written_ones_are_not() {
        let map = map_with(&[(0, 64)]);
        let mut s = GlobalInitSink::new(0, Arc::clone(&map));
        let mut a = [0u64; 32];
        for (i, x) in a.iter_mut().enumerate() {
            *x = 0x1000 + 4 * i as u64;
        }
        // lanes 0..15 read written bytes, 16..31 unwritten ones
        s.mem(&ev(AccessOp::Load, 4, u32::MAX, &a));
        let mut rep = GlobalInitReport::new(map);
        rep.merge(s);
        let f = rep.findings(&|_| Loc::default(), &|b, t| format!("{b}:{t}"), &|a| {
            format!("{a:#x}")
        });
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].count, 16);
        assert_eq!(f[0].example.threads, vec![16]);
        assert_eq!(f[0].kind, FindingKind::UninitializedGlobalRead);
    }

    #[test]
    fn a_blocks_own_earlier_store_initialises_but_a_later_one_does_not() {
        let map = map_with(&[]);
        let mut s = GlobalInitSink::new(0, Arc::clone(&map));
        let a = [0x1000u64; 32];
        s.mem(&ev(AccessOp::Store, 4, 1, &a));
        s.mem(&ev(AccessOp::Load, 4, 1, &a));
        let b = [0x1010u64; 32];
        s.mem(&ev(AccessOp::Load, 4, 1, &b));
        s.mem(&ev(AccessOp::Store, 4, 1, &b));
        let mut rep = GlobalInitReport::new(Arc::clone(&map));
        rep.merge(s);
        let f = rep.findings(&|_| Loc::default(), &|_, _| String::new(), &|_| String::new());
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].example.address, Some(0x1010));
        let after = rep.written();
        assert!(after.written(0x1000) && after.written(0x1013));
        assert!(!after.written(0x1004));
    }

    #[test]
    fn an_earlier_blocks_write_is_no_uninitialised_read_of_a_later_block_but_not_the_reverse() {
        let map = map_with(&[]);
        let a = [0x1040u64; 32];
        // block 0 reads what block 1 writes; block 2 reads it too
        let mut b0 = GlobalInitSink::new(0, Arc::clone(&map));
        b0.mem(&ev(AccessOp::Load, 8, 1, &a));
        let mut b1 = GlobalInitSink::new(1, Arc::clone(&map));
        b1.mem(&ev(AccessOp::Store, 8, 1, &a));
        let mut b2 = GlobalInitSink::new(2, Arc::clone(&map));
        b2.mem(&ev(AccessOp::Load, 8, 1, &a));
        let mut rep = GlobalInitReport::new(map);
        for s in [b0, b1, b2] {
            rep.merge(s);
        }
        let f = rep.findings(&|_| Loc::default(), &|_, _| String::new(), &|_| String::new());
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].count, f[0].example.block), (1, 0));
    }

    #[test]
    fn bytes_outside_tracked_regions_count_as_written() {
        let map = map_with(&[]);
        let mut s = GlobalInitSink::new(0, Arc::clone(&map));
        let a = [0x9000u64; 32];
        s.mem(&ev(AccessOp::Load, 4, u32::MAX, &a));
        let mut rep = GlobalInitReport::new(map);
        rep.merge(s);
        assert!(
            rep.findings(&|_| Loc::default(), &|_, _| String::new(), &|_| String::new())
                .is_empty()
        );
    }

    #[test]
    fn an_atomic_on_unwritten_memory_is_a_read_every_time_and_initialises_nothing() {
        let map = map_with(&[]);
        let mut s = GlobalInitSink::new(0, Arc::clone(&map));
        let a = [0x1080u64; 32];
        // two lanes, twice: four reports
        s.mem(&ev(AccessOp::Atomic, 4, 0b11, &a));
        s.mem(&ev(AccessOp::Atomic, 4, 0b11, &a));
        let mut rep = GlobalInitReport::new(Arc::clone(&map));
        rep.merge(s);
        let f = rep.findings(&|_| Loc::default(), &|_, _| String::new(), &|_| String::new());
        assert_eq!(f[0].count, 4);
        assert!(!rep.written().written(0x1080));
    }
}
