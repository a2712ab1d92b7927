//! Shared memory in the machine code's flow, from the PTX emulation of the same launch.
//!
//! A warp reads in shared memory what the block's warps wrote before the last barrier it passed,
//! and what it wrote itself since. [`SharedRecorder`] is a [`Sink`] that keeps, per block, every
//! byte the emulation's threads wrote to shared memory (its value when the emulator sent it, else
//! unknown: asynchronous copies, `stmatrix`, most atomics), in the emulation's order, and where
//! each block-wide barrier released ([`BlockShared`]). An integer `add`, `min`, `max`, `and`, `or`
//! or `xor` leaves the value the emulation computed: when every write of a byte in a phase is
//! such an atomic of one operation, the value the phase leaves does not depend on the order the
//! GPU runs them in (a histogram, an accumulator read after the barrier). The flow then answers a warp's `LDS` in its
//! `k`-th barrier phase (after its `k`-th `BAR.SYNC`) with:
//!
//! - the bytes the warp itself stored in that phase (the flow follows its own `STS`);
//! - else, unknown where another warp wrote the byte in that phase (the two are not ordered on the
//!   GPU), where the warp's own `cp.async` or `stmatrix` did (the flow does not hold those as it
//!   holds its stores; nor a store of its own such a copy may have overwritten), or where the
//!   block's barriers were not all block-wide (`bar.arrive`, named barriers with
//!   part of the block: the phases are then not the warp's barrier count);
//! - else the byte as the block left it at the barrier that opened the phase: the last write
//!   before it, unknown if never written (shared memory starts undefined).
//!
//! The machine code's shared addresses are ptxas's layout: the window's first 1 KB is reserved on
//! sm_90 (`0x400`), the kernel's variables follow in declaration order with their alignments, as
//! the emulator lays them out from offset 0. Every `STS` whose address and value the flow knows
//! is checked against the emulation's record of that warp's writes in that phase: a store the
//! emulation did not make (a different layout, a path the emulation did not take) stops the use
//! of the record for the launch's warp ([`Self::check_store`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use warpscope_emu::{
    AccessOp, BarrierEvent, BarrierKind, LaneMask, MbarEvent, MbarWhat, MemEvent, Sink, Space,
};
use warpscope_ptx::inst::{AtomOp, Ty};

/// Where the kernel's own shared variables start in the machine code's shared window (sm_90
/// reserves the first 1 KB per block).
pub const SASS_SHARED_BASE: u32 = 0x400;

/// The writer of the copy engine's bytes (no warp).
const COPY_ENGINE: u32 = u16::MAX as u32;

/// Words of records kept for one launch at most (16 bytes each).
const MAX_ENTRIES: usize = 1 << 24;

/// One 4-byte word written by one warp's instruction: the bytes written (`present`), those whose
/// value is known (`known`), their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    word: u32,
    /// The emulation's order: the number of writes before this one in the block.
    pos: u32,
    warp: u16,
    present: u8,
    known: u8,
    /// An integer atomic whose final value does not depend on the order of the phase's atomics
    /// ([`order_free`]): its operation's code; 0 for every other write.
    atom: u8,
    /// Written by the warp's asynchronous copy (`cp.async`) or `stmatrix`, which the flow does
    /// not follow as a store of its own.
    copy: bool,
    value: u32,
}

/// The code of an atomic whose updates of one word leave the same final value in any order:
/// integer `add`, `min`, `max`, `and`, `or`, `xor` (a float `add` rounds differently by order;
/// `exch`, `cas`, `inc` and `dec` depend on it). 0 for the others.
fn order_free(op: AtomOp, ty: Ty) -> u8 {
    if matches!(ty, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64 | Ty::Pred) {
        return 0;
    }
    let signed = u8::from(matches!(ty, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)) << 4;
    match op {
        AtomOp::Add => 1,
        AtomOp::Min => 2 | signed,
        AtomOp::Max => 3 | signed,
        AtomOp::And => 4,
        AtomOp::Or => 5,
        AtomOp::Xor => 6,
        AtomOp::Exch | AtomOp::Cas | AtomOp::Inc | AtomOp::Dec => 0,
    }
}

/// One block's shared-memory writes and barrier releases, as the emulation made them.
#[derive(Clone, Debug, Default)]
pub struct BlockShared {
    /// Sorted by word, then order.
    entries: Vec<Entry>,
    /// The order position of each block-wide barrier release: writes before it are visible in
    /// the phase it opens.
    releases: Vec<u32>,
    /// Why the record cannot be used (a barrier not block-wide, too many writes).
    spoiled: Option<&'static str>,
    /// Where each word's entries start in `entries` (word `w`: `starts[w]..starts[w + 1]`) for
    /// the words up to the last one written; empty where that span would take more room than
    /// half the entries (then [`Self::word`] searches).
    starts: Vec<u32>,
    /// Phases of the block's own mbarriers completed by its asynchronous copies' `complete_tx`
    /// (TMA loads), and by anything else (a warp's arrival).
    by_copies: u32,
    by_warps: u32,
    /// Whether any entry is a warp's copy ([`Entry::copy`]).
    copies: bool,
}

impl BlockShared {
    /// Whether the block's mbarrier phases all completed by its own asynchronous copies (at least
    /// one): every wait on them waits for a copy engine's bytes only, which arrive within one
    /// `SYNCS.PHASECHK.TRANS64.TRYWAIT`'s suspension (calibration/halfst/README.md: the CuTe
    /// TMA GEMMs' wait loops ran once per wait on the H200). A phase a warp's arrival completes
    /// (a producer warp, a consumer's release) waits as long as that warp's work: unknown.
    pub fn waits_on_copies(&self) -> bool {
        self.by_copies > 0 && self.by_warps == 0
    }

    /// The bounds `[start, end)` of phase `phase` in the block's order (`None`: the emulation's
    /// block had fewer barriers).
    fn phase(&self, phase: usize) -> Option<(u32, u32)> {
        let start = match phase {
            0 => 0,
            p => *self.releases.get(p - 1)?,
        };
        let end = self.releases.get(phase).copied().unwrap_or(u32::MAX);
        Some((start, end))
    }

    fn word(&self, word: u32) -> &[Entry] {
        if !self.starts.is_empty() {
            let w = word as usize;
            return match (self.starts.get(w), self.starts.get(w + 1)) {
                (Some(&lo), Some(&hi)) => &self.entries[lo as usize..hi as usize],
                _ => &[],
            };
        }
        self.word_searched(word)
    }

    /// A word's entries by binary search (the definition the index of [`Self::word`] gives).
    fn word_searched(&self, word: u32) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.word < word);
        let hi = self.entries.partition_point(|e| e.word <= word);
        &self.entries[lo..hi]
    }

    /// The index of [`Self::starts`] over sorted entries (empty where it would be too large).
    fn index(entries: &[Entry]) -> Vec<u32> {
        let Some(last) = entries.last() else {
            return Vec::new();
        };
        let span = last.word as usize + 2;
        if span > entries.len() / 2 + 64 || u32::try_from(entries.len()).is_err() {
            return Vec::new();
        }
        let mut starts = Vec::with_capacity(span);
        let mut at = 0usize;
        for w in 0..span {
            while at < entries.len() && (entries[at].word as usize) < w {
                at += 1;
            }
            starts.push(at as u32);
        }
        starts
    }

    /// Byte `byte` (an offset in the emulator's window) as warp `warp` reads it in phase `phase`,
    /// where the flow holds no store of its own to it in the phase: `None` when unknown. The
    /// warp's own stores to it in the phase come after the read (the flow, on the same values,
    /// takes the emulation's path and has made the earlier ones).
    /// (The flow reads a word's bytes at once, [`Self::read_word`]; this is its definition.)
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) fn read(&self, warp: u32, phase: usize, byte: u32) -> Option<u8> {
        if self.spoiled.is_some() {
            return None;
        }
        let (start, end) = self.phase(phase)?;
        let es = self.word(byte / 4);
        let bit = 1u8 << (byte % 4);
        // written by another warp in the phase (not ordered with the read), or by the warp's own
        // asynchronous copy (not among the stores the flow holds)
        if es.iter().any(|e| {
            e.present & bit != 0 && (start..end).contains(&e.pos) && (u32::from(e.warp) != warp || e.copy)
        }) {
            return None;
        }
        let last = es.iter().rev().find(|e| e.pos < start && e.present & bit != 0)?;
        if last.atom != 0 {
            // the phase's atomics left the same value in any order only when every write of the
            // byte in that phase is such an atomic of the same operation
            let phase = self.releases.partition_point(|&r| r <= last.pos);
            let (ps, pe) = self.phase(phase)?;
            if es
                .iter()
                .any(|e| e.present & bit != 0 && (ps..pe).contains(&e.pos) && e.atom != last.atom)
            {
                return None;
            }
        }
        (last.known & bit != 0).then(|| (last.value >> (8 * (byte % 4))) as u8)
    }

    /// The four bytes of word `word` as [`Self::read`] gives each, with one pass over the word's
    /// entries for the other warps' writes in the phase (not one per byte).
    pub(super) fn read_word(&self, warp: u32, phase: usize, word: u32) -> [Option<u8>; 4] {
        let mut out = [None; 4];
        if self.spoiled.is_some() {
            return out;
        }
        let Some((start, end)) = self.phase(phase) else {
            return out;
        };
        let es = self.word(word);
        // bytes written by another warp in the phase (not ordered with the read), or by the
        // warp's own asynchronous copy (the flow holds its stores, not its copies)
        let other = es
            .iter()
            .filter(|e| (start..end).contains(&e.pos) && (u32::from(e.warp) != warp || e.copy))
            .fold(0u8, |m, e| m | e.present);
        for (b, o) in out.iter_mut().enumerate() {
            let bit = 1u8 << b;
            if other & bit == 0 {
                *o = self.last_before(es, start, bit, b);
            }
        }
        out
    }

    /// Byte `b` (`bit`) of a word (its entries `es`) as the phase starting at `start` found it.
    fn last_before(&self, es: &[Entry], start: u32, bit: u8, b: usize) -> Option<u8> {
        let last = es.iter().rev().find(|e| e.pos < start && e.present & bit != 0)?;
        if last.atom != 0 {
            // the phase's atomics left the same value in any order only when every write of the
            // byte in that phase is such an atomic of the same operation
            let phase = self.releases.partition_point(|&r| r <= last.pos);
            let (ps, pe) = self.phase(phase)?;
            if es
                .iter()
                .any(|e| e.present & bit != 0 && (ps..pe).contains(&e.pos) && e.atom != last.atom)
            {
                return None;
            }
        }
        (last.known & bit != 0).then(|| (last.value >> (8 * b)) as u8)
    }

    /// Word `word`'s value when phase `phase` began and the sum of the phase's writes to it, when
    /// every one is an integer `add` of the whole word (the emulation's values after each: the
    /// differences are their addends): an `ATOMS.ADD`'s old value then lies between the start and
    /// the start plus the other adds' sum, whatever their order on the GPU. `None` when the start
    /// is not known or another write touched the word in the phase.
    pub(super) fn add_bounds(&self, phase: usize, word: u32) -> Option<(u32, u64)> {
        if self.spoiled.is_some() {
            return None;
        }
        let (start, end) = self.phase(phase)?;
        let es = self.word(word);
        let mut v0 = 0u32;
        for b in 0..4 {
            v0 |= u32::from(self.last_before(es, start, 1 << b, b)?) << (8 * b);
        }
        let mut prev = v0;
        let mut sum = 0u64;
        for e in es.iter().filter(|e| (start..end).contains(&e.pos)) {
            if e.atom != 1 || e.present != 0xf || e.known != 0xf {
                return None;
            }
            sum += u64::from(e.value.wrapping_sub(prev));
            prev = e.value;
        }
        Some((v0, sum))
    }

    /// Whether the emulation's warp `warp` wrote `value` (the bytes `known` of the word, as the
    /// flow's `STS` computed them) to word `word` in phase `phase`.
    pub(super) fn check_store(&self, warp: u32, phase: usize, word: u32, known: u8, value: u32) -> bool {
        let Some((start, end)) = self.phase(phase) else {
            return false;
        };
        self.word(word).iter().any(|e| {
            u32::from(e.warp) == warp
                && (start..end).contains(&e.pos)
                && e.present & known == known
                && (0..4).all(|b| {
                    let bit = 1u8 << b;
                    known & bit == 0
                        || e.known & bit == 0
                        || (e.value >> (8 * b)) as u8 == (value >> (8 * b)) as u8
                })
        })
    }

    /// The bytes of word `word` that warp `warp`'s asynchronous copies or `stmatrix` wrote in
    /// phase `phase`: a store of the warp's own the flow holds for them may be older than the
    /// copy (the copy's bytes are then what a later load reads).
    pub(super) fn copied(&self, warp: u32, phase: usize, word: u32) -> u8 {
        if !self.copies {
            return 0;
        }
        let Some((start, end)) = self.phase(phase) else {
            return 0xf;
        };
        self.word(word)
            .iter()
            .filter(|e| e.copy && u32::from(e.warp) == warp && (start..end).contains(&e.pos))
            .fold(0u8, |m, e| m | e.present)
    }

    /// Why the record cannot be used, if so.
    pub fn spoiled(&self) -> Option<&'static str> {
        self.spoiled
    }
}

/// The records of a launch's blocks, gathered as the emulation's blocks finish, and whether the
/// flow asked for them.
#[derive(Debug, Default)]
pub struct FlowShared {
    /// Warps per block.
    warps: u32,
    want: AtomicBool,
    left: AtomicUsize,
    blocks: Mutex<rustc_hash::FxHashMap<u32, BlockShared>>,
}

impl FlowShared {
    /// A collection not yet asked for, for blocks of `threads` threads.
    pub fn new(threads: u32) -> FlowShared {
        FlowShared {
            warps: threads.div_ceil(32),
            want: AtomicBool::new(false),
            left: AtomicUsize::new(MAX_ENTRIES),
            blocks: Mutex::default(),
        }
    }

    /// Asks the blocks that start from now on to record.
    pub fn ask(&self) {
        self.want.store(true, Ordering::Relaxed);
    }

    /// Whether records were asked for.
    pub fn asked(&self) -> bool {
        self.want.load(Ordering::Relaxed)
    }

    /// A recorder for block `block` when records were asked for.
    pub fn recorder(&self, block: u32) -> Option<SharedRecorder> {
        self.asked().then(|| SharedRecorder::new(block, self.warps))
    }

    /// Keeps a finished block's record (a block run again replaces its first record).
    pub fn keep(&self, r: SharedRecorder) {
        let (block, mut b) = r.finish();
        let n = b.entries.len();
        let fits = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| l.checked_sub(n))
            .is_ok();
        if !fits {
            b = BlockShared {
                spoiled: Some("the launch writes more shared memory than the record keeps"),
                by_copies: b.by_copies,
                by_warps: b.by_warps,
                ..BlockShared::default()
            };
        }
        if let Ok(mut m) = self.blocks.lock() {
            m.insert(block, b);
        }
    }

    /// The records, by linear block id.
    pub fn take(&self) -> rustc_hash::FxHashMap<u32, BlockShared> {
        self.blocks
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }
}

/// A shared atomic whose values are still to come ([`Sink::atomic_values`]).
#[derive(Debug)]
struct LastAtomic {
    warp: u32,
    pc: u32,
    /// The index of its first entry.
    first: usize,
    width: u32,
    lanes: LaneMask,
    addrs: [u64; 32],
}

/// Records one block's shared-memory writes and barrier releases ([`BlockShared`]).
#[derive(Debug)]
pub struct SharedRecorder {
    block: u32,
    /// The block's warps (a bit each).
    all: u64,
    entries: Vec<Entry>,
    releases: Vec<u32>,
    /// Writes so far (the order position).
    pos: u32,
    /// Warps arrived at a barrier since the last release; warps exited.
    arrived: u64,
    exited: u64,
    /// The values of the warp's next store events (warp, pc, element bytes, rows).
    pending: Option<(u32, u32, u8, Vec<[u64; 32]>)>,
    /// The last atomic's entries, for its [`Sink::atomic_values`].
    atomic: Option<Box<LastAtomic>>,
    spoiled: Option<&'static str>,
    /// The last `CopyTx` mbarrier event (warp, pc, lane, address): a `Completed` event of the
    /// same instruction and barrier right after it is the copy's completion.
    copy_tx: Option<(u32, u32, u32, u64)>,
    by_copies: u32,
    by_warps: u32,
}

impl SharedRecorder {
    fn new(block: u32, warps: u32) -> SharedRecorder {
        SharedRecorder {
            block,
            all: if warps >= 64 {
                u64::MAX
            } else {
                (1u64 << warps) - 1
            },
            entries: Vec::new(),
            releases: Vec::new(),
            pos: 0,
            arrived: 0,
            exited: 0,
            pending: None,
            atomic: None,
            spoiled: None,
            copy_tx: None,
            by_copies: 0,
            by_warps: 0,
        }
    }

    /// Byte `i` of lane `l`'s store from the pending values of `warp`'s store at `pc`.
    fn value(&self, warp: u32, pc: u32, l: usize, i: usize) -> Option<u8> {
        let (w, p, elem, rows) = self.pending.as_ref()?;
        if (*w, *p) != (warp, pc) || *elem == 0 {
            return None;
        }
        let row = rows.get(i / *elem as usize)?;
        Some((row[l] >> (8 * (i % *elem as usize))) as u8)
    }

    /// `width` bytes at each lane's address of `mask` written by `warp` (values from `value`).
    fn write(
        &mut self,
        warp: u32,
        mask: LaneMask,
        addrs: &[u64; 32],
        width: u32,
        value: impl Fn(&Self, usize, usize) -> Option<u8>,
    ) {
        let mut words: Vec<Entry> = Vec::new();
        for (l, &base) in addrs.iter().enumerate() {
            if mask >> l & 1 == 0 {
                continue;
            }
            for i in 0..width as usize {
                let a = base.wrapping_add(i as u64);
                let Ok(a) = u32::try_from(a) else {
                    // a shared::cluster address of another block: not this block's window
                    continue;
                };
                let (word, b) = (a / 4, a % 4);
                // the word of the lane's previous byte first (the words are distinct: the same
                // entry a search from the front finds)
                let last = words.len().checked_sub(1).filter(|&i| words[i].word == word);
                let found = last.or_else(|| words.iter().position(|e| e.word == word));
                let e = match found {
                    Some(i) => &mut words[i],
                    None => {
                        words.push(Entry {
                            word,
                            pos: self.pos,
                            warp: warp as u16,
                            present: 0,
                            known: 0,
                            atom: 0,
                            copy: false,
                            value: 0,
                        });
                        words.last_mut().expect("just pushed")
                    }
                };
                e.present |= 1 << b;
                match value(self, l, i) {
                    Some(v) => {
                        e.known |= 1 << b;
                        e.value = (e.value & !(0xff << (8 * b))) | (u32::from(v) << (8 * b));
                    }
                    None => e.known &= !(1 << b),
                }
            }
        }
        self.entries.extend(words);
        self.pos += 1;
        if self.entries.len() > MAX_ENTRIES {
            self.entries = Vec::new();
            self.spoiled = Some("the block writes more shared memory than the record keeps");
        }
    }

    fn finish(mut self) -> (u32, BlockShared) {
        if self.spoiled.is_some() {
            self.entries = Vec::new();
        }
        self.entries.sort_by_key(|e| (e.word, e.pos));
        let starts = BlockShared::index(&self.entries);
        let copies = self.entries.iter().any(|e| e.copy);
        (
            self.block,
            BlockShared {
                entries: self.entries,
                releases: self.releases,
                spoiled: self.spoiled,
                starts,
                by_copies: self.by_copies,
                by_warps: self.by_warps,
                copies,
            },
        )
    }
}

impl Sink for SharedRecorder {
    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        self.pending = Some((warp, pc, elem, rows.iter().map(|r| **r).collect()));
    }

    fn mem(&mut self, e: &MemEvent<'_>) {
        if e.space != Space::Shared {
            return;
        }
        match e.op {
            AccessOp::Store => {
                let (warp, pc) = (e.warp, e.pc);
                self.write(e.warp, e.mask, e.addrs, u32::from(e.width), move |s, l, i| {
                    s.value(warp, pc, l, i)
                });
            }
            AccessOp::Atomic => {
                let first = self.entries.len();
                self.write(e.warp, e.mask, e.addrs, u32::from(e.width), |_, _, _| None);
                self.atomic = Some(Box::new(LastAtomic {
                    warp: e.warp,
                    pc: e.pc,
                    first,
                    width: u32::from(e.width),
                    lanes: e.mask,
                    addrs: *e.addrs,
                }));
            }
            AccessOp::CpAsync | AccessOp::StMatrix => {
                let first = self.entries.len();
                self.write(e.warp, e.mask, e.addrs, u32::from(e.width), |_, _, _| None);
                if let Some(new) = self.entries.get_mut(first..) {
                    for n in new {
                        n.copy = true;
                    }
                }
            }
            AccessOp::Load | AccessOp::LdMatrix | AccessOp::Wgmma => {}
        }
    }

    fn atomic_values(&mut self, warp: u32, pc: u32, op: AtomOp, ty: Ty, mask: LaneMask, values: &[u64; 32]) {
        let Some(last) = self.atomic.take() else {
            return;
        };
        let LastAtomic {
            warp: w,
            pc: p,
            first,
            width,
            lanes,
            addrs,
        } = *last;
        let code = order_free(op, ty);
        if (w, p) != (warp, pc) || lanes != mask || code == 0 || first > self.entries.len() {
            return;
        }
        // the lanes ran in increasing order: the highest lane's value is the word's
        let new = &mut self.entries[first..];
        for (l, &base) in addrs.iter().enumerate() {
            if mask >> l & 1 == 0 {
                continue;
            }
            for i in 0..width {
                let Ok(a) = u32::try_from(base.wrapping_add(u64::from(i))) else {
                    continue;
                };
                let (word, b) = (a / 4, a % 4);
                if let Some(e) = new.iter_mut().find(|e| e.word == word) {
                    let v = (values[l] >> (8 * i)) as u8;
                    e.known |= 1 << b;
                    e.atom = code;
                    e.value = (e.value & !(0xff << (8 * b))) | (u32::from(v) << (8 * b));
                }
            }
        }
    }

    fn async_write(&mut self, _warp: u32, _pc: u32, lo: u64, hi: u64) {
        // the copy engine's bytes: unknown values, written by no warp the flow follows
        let mut addrs = [0u64; 32];
        let mut a = lo;
        while a < hi {
            let n = (hi - a).min(16);
            addrs[0] = a;
            self.write(COPY_ENGINE, 1, &addrs, n as u32, |_, _, _| None);
            a += n;
        }
    }

    fn mbarrier(&mut self, e: &MbarEvent) {
        let at = (e.warp, e.pc, e.lane, e.addr);
        match e.what {
            MbarWhat::CopyTx { .. } => self.copy_tx = Some(at),
            MbarWhat::Completed { .. } if self.copy_tx == Some(at) => self.by_copies += 1,
            MbarWhat::Completed { .. } => self.by_warps += 1,
            MbarWhat::Init | MbarWhat::Waited { .. } => {}
        }
        if !matches!(e.what, MbarWhat::CopyTx { .. }) {
            self.copy_tx = None;
        }
    }

    fn barrier(&mut self, e: &BarrierEvent) {
        match e.kind {
            BarrierKind::Warp => {}
            BarrierKind::Sync if e.warp < 64 => self.arrived |= 1 << e.warp,
            _ => self.spoiled = Some("a barrier that not every warp of the block waits at"),
        }
    }

    fn barrier_release(&mut self, _block: u32, _pc: u32, _generation: u32) {
        // every warp that has not exited must have arrived: a block-wide barrier
        if (self.arrived | self.exited) & self.all != self.all {
            self.spoiled = Some("a barrier that not every warp of the block waits at");
        }
        self.releases.push(self.pos);
        self.arrived = 0;
    }

    fn warp_exit(&mut self, warp: u32) {
        if warp < 64 {
            self.exited |= 1 << warp;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_read_at_once_equals_its_bytes_read_one_by_one() {
        let mut s = 0xfeed_5eed_u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut known = 0;
        for round in 0..400 {
            let n = (next() % 120) as usize;
            let mut entries: Vec<Entry> = (0..n)
                .map(|i| {
                    let x = next();
                    Entry {
                        word: (x % 6) as u32,
                        pos: i as u32,
                        warp: (x >> 8) as u16 % 3,
                        present: ((x >> 16) % 16) as u8,
                        known: ((x >> 20) % 16) as u8,
                        // some atomics of two operations, some plain writes
                        atom: [0, 0, 1, 2][(x >> 24) as usize % 4],
                        // and some of the warps' own copies
                        copy: (x >> 28) % 5 == 0,
                        value: (x >> 32) as u32,
                    }
                })
                .collect();
            entries.sort_by_key(|e| (e.word, e.pos));
            let mut releases: Vec<u32> = (0..(next() % 5))
                .map(|_| (next() % (n as u64 + 1)) as u32)
                .collect();
            releases.sort_unstable();
            let starts = if round % 2 == 0 {
                BlockShared::index(&entries)
            } else {
                Vec::new()
            };
            let copies = entries.iter().any(|e| e.copy);
            let b = BlockShared {
                entries,
                releases,
                spoiled: (round % 50 == 7).then_some("spoiled"),
                starts,
                by_copies: 0,
                by_warps: 0,
                copies,
            };
            for warp in 0..3 {
                for phase in 0..6 {
                    for word in 0..7 {
                        let got = b.read_word(warp, phase, word);
                        for (i, g) in got.iter().enumerate() {
                            assert_eq!(*g, b.read(warp, phase, word * 4 + i as u32), "round {round}");
                            known += usize::from(g.is_some());
                        }
                    }
                }
            }
        }
        assert!(
            known > 1000,
            "only {known} known bytes: the comparison says little"
        );
    }

    #[test]
    fn the_word_index_finds_what_the_search_finds() {
        let mut s = 0x5eed_u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut indexed = 0;
        for round in 0..300 {
            let n = (next() % 400) as usize;
            // dense and sparse word ranges, several writes of a word
            let span = [8u64, 64, 600, 5000][round % 4];
            let mut entries: Vec<Entry> = (0..n)
                .map(|i| Entry {
                    word: (next() % span) as u32,
                    pos: i as u32,
                    warp: (next() % 8) as u16,
                    present: 0xf,
                    known: 0xf,
                    atom: 0,
                    copy: false,
                    value: next() as u32,
                })
                .collect();
            entries.sort_by_key(|e| (e.word, e.pos));
            let starts = BlockShared::index(&entries);
            indexed += usize::from(!starts.is_empty());
            let b = BlockShared {
                entries,
                releases: Vec::new(),
                spoiled: None,
                starts,
                by_copies: 0,
                by_warps: 0,
                copies: false,
            };
            for word in 0..span as u32 + 70 {
                assert_eq!(b.word(word), b.word_searched(word), "round {round}, word {word}");
            }
            assert_eq!(b.word(u32::MAX), b.word_searched(u32::MAX));
        }
        assert!(indexed > 100, "the index was built in {indexed} rounds only");
    }

    /// Warp `warp` stores the word `v` at byte `a` (lane 0).
    fn store(r: &mut SharedRecorder, warp: u32, a: u64, v: u32) {
        let row = {
            let mut x = [0u64; 32];
            x[0] = u64::from(v);
            x
        };
        r.store_values(warp, 7, 4, &[&row]);
        let mut addrs = [0u64; 32];
        addrs[0] = a;
        r.mem(&MemEvent {
            block: 0,
            warp,
            pc: 7,
            space: Space::Shared,
            op: AccessOp::Store,
            width: 4,
            mask: 1,
            addrs: &addrs,
            src: None,
        });
    }

    fn barrier(r: &mut SharedRecorder, warps: u32) {
        for w in 0..warps {
            r.barrier(&BarrierEvent {
                block: 0,
                warp: w,
                pc: 9,
                active: u32::MAX,
                id: 0,
                kind: BarrierKind::Sync,
            });
        }
        r.barrier_release(0, 9, 1);
    }

    #[test]
    fn a_load_sees_the_block_as_the_last_barrier_left_it() {
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0x10, 0x1122_3344);
        barrier(&mut r, 2);
        // phase 1: warp 1 overwrites the word
        store(&mut r, 1, 0x10, 0x5566_7788);
        barrier(&mut r, 2);
        let (_, b) = r.finish();
        // phase 0: never written before it (undefined), phase 1: warp 0's value, byte by byte
        assert_eq!(b.read(0, 0, 0x10), None);
        assert_eq!(b.read(0, 1, 0x10), None, "written by warp 1 in the same phase");
        assert_eq!(b.read(1, 1, 0x10), Some(0x44), "warp 1 reads before it stores");
        assert_eq!(b.read(0, 2, 0x10), Some(0x88));
        assert_eq!(b.read(0, 2, 0x13), Some(0x55));
        assert_eq!(b.read(0, 2, 0x14), None, "never written");
        // a phase the emulation's block never reached
        assert_eq!(b.read(0, 3, 0x10), None);
        // the flow's own stores are checked against the warp's in the phase
        assert!(b.check_store(1, 1, 4, 0xf, 0x5566_7788));
        assert!(
            !b.check_store(0, 1, 4, 0xf, 0x5566_7788),
            "warp 0 did not store in phase 1"
        );
        assert!(!b.check_store(1, 1, 4, 0xf, 0x5566_7789), "another value");
    }

    /// A block zeroes its buffer, passes a barrier, then each warp fills its part by `cp.async`
    /// and reads it after waiting, with no barrier between (cooperative groups' warp-level
    /// `memcpy_async` and `wait`): the warp's reads are the copy's bytes, not the zeros the
    /// barrier left, and a store of the warp's own the copy came after is not what it reads.
    #[test]
    fn a_warp_s_own_copy_in_the_phase_is_not_the_block_s_state_at_the_barrier() {
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0x10, 0);
        store(&mut r, 1, 0x20, 0);
        barrier(&mut r, 2);
        // phase 1: warp 0 stores a word, then copies over it and the next one
        store(&mut r, 0, 0x40, 5);
        let mut addrs = [0u64; 32];
        addrs[0] = 0x10;
        addrs[1] = 0x40;
        r.mem(&MemEvent {
            block: 0,
            warp: 0,
            pc: 3,
            space: Space::Shared,
            op: AccessOp::CpAsync,
            width: 4,
            mask: 0b11,
            addrs: &addrs,
            src: Some(&[0u64; 32]),
        });
        let (_, b) = r.finish();
        assert_eq!(
            b.read(0, 1, 0x10),
            None,
            "warp 0 copied over the zero in this phase"
        );
        assert_eq!(b.read_word(0, 1, 4), [None; 4]);
        assert_eq!(b.read(1, 1, 0x10), None, "another warp's write in the phase");
        assert_eq!(b.read(1, 1, 0x20), Some(0), "warp 1's own zero, untouched");
        assert_eq!(b.read(0, 1, 0x20), Some(0));
        // the flow holds warp 0's store of 5 at 0x40: the copy's bytes there are newer
        assert_eq!(b.copied(0, 1, 0x40 / 4), 0xf);
        assert_eq!(b.copied(0, 1, 0x20 / 4), 0);
        assert_eq!(b.copied(1, 1, 0x40 / 4), 0, "warp 1 copied nothing");
        assert_eq!(b.copied(0, 0, 0x10 / 4), 0, "nothing copied before the barrier");
    }

    /// Warp `warp`'s lane 0 runs `atom.op.ty` on the word at byte `a`, leaving `v` there.
    fn atomic(r: &mut SharedRecorder, warp: u32, a: u64, op: AtomOp, ty: Ty, v: u32) {
        let mut addrs = [0u64; 32];
        addrs[0] = a;
        r.mem(&MemEvent {
            block: 0,
            warp,
            pc: 8,
            space: Space::Shared,
            op: AccessOp::Atomic,
            width: 4,
            mask: 1,
            addrs: &addrs,
            src: None,
        });
        let mut values = [0u64; 32];
        values[0] = u64::from(v);
        r.atomic_values(warp, 8, op, ty, 1, &values);
    }

    #[test]
    fn integer_atomics_of_one_operation_leave_a_known_word_after_the_barrier() {
        let mut r = SharedRecorder::new(0, 2);
        for a in [0x10, 0x20, 0x30, 0x40] {
            store(&mut r, 0, a, 0);
        }
        barrier(&mut r, 2);
        // phase 1: both warps add to 0x10 (any order gives 7); 0x20 mixes add and or; 0x30 is
        // a float add (rounding depends on the order); 0x40 an exchange
        atomic(&mut r, 0, 0x10, AtomOp::Add, Ty::S32, 3);
        atomic(&mut r, 1, 0x10, AtomOp::Add, Ty::S32, 7);
        atomic(&mut r, 0, 0x20, AtomOp::Add, Ty::U32, 1);
        atomic(&mut r, 1, 0x20, AtomOp::Or, Ty::U32, 3);
        atomic(&mut r, 0, 0x30, AtomOp::Add, Ty::F32, 0x4000_0000);
        atomic(&mut r, 1, 0x40, AtomOp::Exch, Ty::U32, 5);
        barrier(&mut r, 2);
        let (_, b) = r.finish();
        assert_eq!(b.read(0, 2, 0x10), Some(7));
        assert_eq!(b.read(1, 2, 0x11), Some(0));
        assert_eq!(b.read(0, 1, 0x10), None, "other warps' atomics in the same phase");
        assert_eq!(b.read(0, 2, 0x20), None, "two operations: the order decides");
        assert_eq!(b.read(0, 2, 0x33), None, "a float add");
        assert_eq!(b.read(0, 2, 0x40), None, "an exchange");
        // a plain store and an atomic of another warp in one phase: the order decides
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0x10, 1);
        atomic(&mut r, 1, 0x10, AtomOp::Add, Ty::U32, 2);
        barrier(&mut r, 2);
        let (_, b) = r.finish();
        assert_eq!(b.read(0, 1, 0x10), None);
        // an atomic whose values never came stays unknown
        let mut r = SharedRecorder::new(0, 1);
        let mut addrs = [0u64; 32];
        addrs[0] = 0x10;
        r.mem(&MemEvent {
            block: 0,
            warp: 0,
            pc: 8,
            space: Space::Shared,
            op: AccessOp::Atomic,
            width: 4,
            mask: 1,
            addrs: &addrs,
            src: None,
        });
        barrier(&mut r, 1);
        let (_, b) = r.finish();
        assert_eq!(b.read(0, 1, 0x10), None);
    }

    #[test]
    fn a_phase_of_adds_bounds_each_old_value() {
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0x10, 5);
        store(&mut r, 0, 0x20, 0);
        store(&mut r, 0, 0x30, u32::MAX - 1);
        barrier(&mut r, 2);
        // phase 1: adds of 3 and 4 to 0x10 (from 5); an add and an or to 0x20; 0x40 never
        // written before the phase
        atomic(&mut r, 0, 0x10, AtomOp::Add, Ty::U32, 8);
        atomic(&mut r, 1, 0x10, AtomOp::Add, Ty::U32, 12);
        atomic(&mut r, 0, 0x20, AtomOp::Add, Ty::U32, 1);
        atomic(&mut r, 1, 0x20, AtomOp::Or, Ty::U32, 3);
        atomic(&mut r, 1, 0x40, AtomOp::Add, Ty::U32, 1);
        barrier(&mut r, 2);
        let (_, b) = r.finish();
        assert_eq!(b.add_bounds(1, 4), Some((5, 7)));
        assert_eq!(b.add_bounds(1, 8), None, "an or among the adds");
        assert_eq!(b.add_bounds(1, 0x10), None, "undefined at the phase's start");
        assert_eq!(b.add_bounds(2, 4), Some((12, 0)), "no add in phase 2");
        assert_eq!(b.add_bounds(1, 0xc), Some((u32::MAX - 1, 0)));
    }

    /// `old = atomicAdd(&s[0], 1)` by the 64 threads of a block after a barrier (the emulation:
    /// two warps' instructions, 32 adds each, from 0), then `if (old >= bound)`: the old values
    /// lie in 0..=63 whatever the order, so a bound above 63 is never reached (one uniform
    /// branch a warp), and one inside the range leaves the branch unknown; without the
    /// emulation's record nothing is known.
    #[test]
    fn a_branch_on_a_shared_add_s_old_value_is_followed_where_every_order_agrees() {
        use crate::machine_flow::{FlowLaunch, MachineFlow};
        let text = "\t.section\t.text.k,\"ax\",@progbits\n\
            \t/*0000*/ IMAD.MOV.U32 R4, RZ, RZ, 0x1 ;\n\
            \t/*0010*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n\
            \t/*0020*/ IMAD.MOV.U32 R2, RZ, RZ, 0x400 ;\n\
            \t/*0030*/ ATOMS.ADD R3, [R2], R4 ;\n\
            \t/*0040*/ ISETP.GE.U32.AND P1, PT, R3, c[0x0][0x210], PT ;\n\
            \t/*0050*/ @P1 BRA `(.L_x_0) ;\n\
            \t/*0060*/ IADD3 R5, R5, 0x1, RZ ;\n\
            .L_x_0:\n\
            \t/*0070*/ EXIT ;\n";
        let ks = warpscope_toolchain::sass::parse_disassembly(text).unwrap();
        let f = MachineFlow::new(&ks[0]);
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0, 0);
        barrier(&mut r, 2);
        atomic(&mut r, 0, 0, AtomOp::Add, Ty::U32, 32);
        atomic(&mut r, 1, 0, AtomOp::Add, Ty::U32, 64);
        barrier(&mut r, 2);
        let (_, b) = r.finish();
        let blocks: rustc_hash::FxHashMap<u32, BlockShared> = [(0, b)].into_iter().collect();
        let run = |bound: u32, shared: bool| {
            let params = bound.to_le_bytes();
            f.run(
                &FlowLaunch {
                    global: None,
                    grid: [1, 1, 1],
                    block: [64, 1, 1],
                    params: &params,
                    symbols: &[],
                    constants: &[],
                    cluster: [1, 1, 1],
                    shared: shared.then_some(&blocks),
                },
                1 << 20,
            )
            .map(|(c, _)| (c.targets, c.divergent))
        };
        assert_eq!(run(1000, true), Ok((2, 0)));
        assert_eq!(run(64, true), Ok((2, 0)));
        assert_eq!(run(0, true), Ok((2, 0)), "old >= 0: always taken");
        assert!(run(63, true).is_err(), "63 itself is a possible old value");
        assert!(run(10, true).is_err());
        assert!(run(1000, false).is_err());
    }

    #[test]
    fn a_barrier_without_every_warp_spoils_the_record() {
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0, 1);
        barrier(&mut r, 1);
        let (_, b) = r.finish();
        assert!(b.spoiled().is_some());
        assert_eq!(b.read(1, 1, 0), None);
        // an exited warp need not arrive
        let mut r = SharedRecorder::new(0, 2);
        store(&mut r, 0, 0, 1);
        r.warp_exit(1);
        barrier(&mut r, 1);
        let (_, b) = r.finish();
        assert_eq!(b.read(1, 1, 0), Some(1));
    }
}
