//! Shared-memory bank analysis: every shared access of a launch through the bank model, aggregated per
//! instruction (pc), per source line and for the whole launch, loads and stores apart (as Nsight
//! Compute's `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum` and
//! `smsp__sass_inst_executed_op_shared_{ld,st}.sum`).
//!
//! [`BankSink`] is one block's sink; the emulator hands the finished sinks back in block order and
//! [`BankReport::merge`] folds them. A [`Reconciliation`](crate::reconcile::Reconciliation) decides,
//! per pc, whether an access is counted as PTX wrote it or as the machine code's wider fused access.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use warpscope_model::arch::Arch;
use warpscope_model::bank;
use warpscope_model::matrix;

use crate::reconcile::{Reconciliation, Role};
pub use crate::side::Side;

/// One warp-level shared-memory request as the bank model sees it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// Bytes per lane (1, 2, 4, 8, 16).
    pub width: u8,
    /// Lanes that access.
    pub mask: u32,
    /// Per-lane byte offsets in the block's shared window (only lanes in `mask` matter).
    pub addrs: &'a [u64; 32],
}

/// Counters of one instruction, one line, or one launch side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Warp-level executions (requests), as `smsp__sass_inst_executed_op_shared_*`.
    pub instructions: u64,
    /// Wavefronts, as `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`.
    pub wavefronts: u64,
    /// Wavefronts the same requests would need with no bank conflict.
    pub ideal_wavefronts: u64,
    /// Wavefronts as Nsight Compute attributes them to the instructions
    /// (`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*`): `wavefronts` but for 8- and
    /// 16-byte loads whose doubled phases conflict ([`warpscope_model::bank::attributed`]).
    #[serde(skip)]
    pub attributed_wavefronts: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.instructions += o.instructions;
        self.wavefronts += o.wavefronts;
        self.ideal_wavefronts += o.ideal_wavefronts;
        self.attributed_wavefronts += o.attributed_wavefronts;
    }

    /// Average excess factor: wavefronts / ideal wavefronts (1.0 = conflict-free).
    pub fn conflict_factor(&self) -> f64 {
        if self.ideal_wavefronts == 0 {
            1.0
        } else {
            self.wavefronts as f64 / self.ideal_wavefronts as f64
        }
    }
}

/// The worst request of an instruction, kept for its bank picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorstRequest {
    /// Block that made it.
    pub block: u32,
    /// Warp within the block.
    pub warp: u32,
    /// Wavefronts it took.
    pub wavefronts: u32,
    /// Wavefronts it would take with no conflict.
    pub ideal_wavefronts: u32,
    /// Bytes per lane.
    pub width: u8,
    /// Lanes that accessed.
    pub mask: u32,
    /// Per-lane byte offsets (0 for inactive lanes).
    pub addrs: Vec<u64>,
}

impl WorstRequest {
    /// For each bank (0..32), the distinct 4-byte words the request touches in it, in address order:
    /// the bank picture. A bank with more than one word is a conflict.
    pub fn bank_words(&self) -> Vec<Vec<u64>> {
        let mut banks = vec![Vec::new(); 32];
        for lane in 0..32 {
            if self.mask & (1 << lane) == 0 {
                continue;
            }
            let first = self.addrs[lane] / 4;
            let words = u64::from(self.width.max(4) / 4);
            for w in first..first + words {
                let b = &mut banks[(w % 32) as usize];
                if !b.contains(&w) {
                    b.push(w);
                }
            }
        }
        for b in &mut banks {
            b.sort_unstable();
        }
        banks
    }
}

/// Aggregated counters of one instruction (pc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InstStats {
    /// Program-wide pc.
    pub pc: u32,
    /// Load or store.
    pub side: Side,
    /// Bytes per lane as counted (the fused width where the machine code fused accesses).
    pub width: u8,
    /// A shared-memory atomic (`ATOMS`): recorded on both sides, costed as a load, and left out of
    /// the load and store totals, as Nsight Compute leaves `ATOMS` out of its shared ld/st
    /// instructions and wavefronts and counts them apart (H100: cuda-samples' histogram256Kernel and
    /// calibration/run/atomics.cu). Costing them as loads gives the H100's `ATOMS` wavefronts for
    /// `ATOMS.POPC.INC` (an `atomicAdd` of 1: 103308 and 512) but not for `ATOMS.MIN`/`MAX`, whose
    /// lanes on one address take a wavefront each (2048 against 512): not yet modelled.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub atomic: bool,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// The request with the most wavefronts (first such in block/warp order).
    pub worst: Option<WorstRequest>,
}

/// Per-pc counters of one block, or merged over blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BankReport {
    /// Per (pc, side), in pc order.
    pub insts: BTreeMap<(u32, Side), InstStats>,
    /// Blocks folded in.
    pub blocks: u32,
    /// Requests the bank model could not take (misaligned lanes; not counted).
    pub unmodelled: u64,
    /// LDSM / STSM / LDGSTS per pc (see [`MatrixStats`]); their wavefronts also count in
    /// [`BankReport::total`] as ncu's `op_ld` / `op_st` count them.
    pub matrix: BTreeMap<u32, MatrixStats>,
    /// `wgmma.mma_async`'s shared-memory operand reads (see [`GmmaCounts`]); absent when none.
    #[serde(skip_serializing_if = "GmmaCounts::is_empty")]
    pub gmma: GmmaCounts,
}

/// What Nsight Compute counts of `wgmma.mma_async` (HGMMA) reading shared memory (measured:
/// calibration/wgmma/README.md): warp instructions (`smsp__sass_inst_executed_op_shared_gmma`,
/// also `smsp__inst_executed_pipe_tensor_op_gmma` and `l1tex__lsuin_requests_op_gmma`), bytes
/// (`sm__sass_data_bytes_mem_shared_op_gmma`: per warpgroup instruction 32 bytes per row of B
/// and, when A comes from shared memory, 2048 for A) and wavefronts
/// (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma`: bytes / 128 whatever the layout or
/// swizzle; also in `l1tex__data_pipe_lsu_wavefronts_mem_shared`). None of them is in `op_ld`.
/// ptxas's own extra HGMMAs (a `wgmma.commit_group` it cannot attach to a preceding HGMMA
/// becomes a 64x8x16 one) are not in the program: `instructions` and `bytes` leave them out, and
/// `commits` counts the warps' executions of each `wgmma.commit_group` so that the machine code can
/// add them ([`crate::reconcile::ptxas_commit_hgmma`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GmmaCounts {
    /// Warp instructions.
    pub instructions: u64,
    /// Shared-memory bytes read.
    pub bytes: u64,
    /// Warp executions (with an active lane) of each `wgmma.commit_group`, by pc.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub commits: BTreeMap<u32, u64>,
}

/// What ptxas's own HGMMA for an unattached `wgmma.commit_group`
/// (`HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0`) adds to Nsight Compute's counters per warp
/// execution: one instruction and a quarter of a warpgroup's 2048 + 256 bytes; nothing to
/// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma` (calibration/wgmma/README.md).
pub const PTXAS_HGMMA_BYTES_PER_WARP: u64 = (2048 + 256) / 4;

impl GmmaCounts {
    /// No `wgmma.mma_async` ran.
    pub fn is_empty(&self) -> bool {
        self.instructions == 0 && self.bytes == 0 && self.commits.is_empty()
    }

    /// Warp executions of the commits at `pcs` (those ptxas gave an HGMMA of their own).
    pub fn commit_executions(&self, pcs: &[u32]) -> u64 {
        pcs.iter().filter_map(|pc| self.commits.get(pc)).sum()
    }

    /// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma`: 128 bytes each.
    pub fn wavefronts(&self) -> u64 {
        self.bytes / 128
    }
}

impl BankReport {
    /// Folds another block's report in (blocks in ascending order keep the "first worst" rule).
    pub fn merge(&mut self, other: BankReport) {
        self.blocks += other.blocks;
        self.unmodelled += other.unmodelled;
        self.gmma.instructions += other.gmma.instructions;
        self.gmma.bytes += other.gmma.bytes;
        for (pc, n) in other.gmma.commits {
            *self.gmma.commits.entry(pc).or_default() += n;
        }
        self.merge_matrix(other.matrix);
        for (key, s) in other.insts {
            self.merge_inst(key, s);
        }
    }

    /// An empty report of one block (a sink's, as a block starts).
    fn one_block() -> BankReport {
        BankReport {
            blocks: 1,
            ..BankReport::default()
        }
    }

    /// Folds one instruction's counters of a later block in (each key on its own: the order of
    /// the keys does not matter).
    fn merge_inst(&mut self, key: (u32, Side), s: InstStats) {
        self.merge_inst_spare(key, s);
    }

    /// [`BankReport::merge_inst`], giving back the buffer of the worst request it did not keep.
    fn merge_inst_spare(&mut self, key: (u32, Side), s: InstStats) -> Option<Vec<u64>> {
        match self.insts.get_mut(&key) {
            None => {
                self.insts.insert(key, s);
                None
            }
            Some(mine) => {
                mine.counts.add(&s.counts);
                let better = match (&mine.worst, &s.worst) {
                    (None, Some(_)) => true,
                    (Some(a), Some(b)) => b.wavefronts > a.wavefronts,
                    _ => false,
                };
                let dropped = if better {
                    std::mem::replace(&mut mine.worst, s.worst)
                } else {
                    s.worst
                };
                dropped.map(|w| w.addrs)
            }
        }
    }

    /// Launch totals of one side (shared atomics left out: see [`InstStats::atomic`]).
    pub fn total(&self, side: Side) -> Counts {
        let mut c = self.request_total(side);
        self.add_matrix_wavefronts(side, &mut c);
        c
    }

    /// Launch totals of one side's `LDS`/`STS` requests alone, without the LDSM/STSM wavefronts
    /// that [`BankReport::total`] adds: what Nsight Compute attributes to the shared load and store
    /// instructions (`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld` / `_st`).
    pub fn request_total(&self, side: Side) -> Counts {
        let mut c = Counts::default();
        for s in self.insts.values().filter(|s| s.side == side && !s.atomic) {
            c.add(&s.counts);
        }
        c
    }

    /// Launch totals of the shared-memory atomics (each counted once).
    pub fn atomic_total(&self) -> Counts {
        let mut c = Counts::default();
        for s in self.insts.values().filter(|s| s.side == Side::Load && s.atomic) {
            c.add(&s.counts);
        }
        c
    }

    /// Multiplies every counter by `factor` (extrapolating a sample of blocks to the grid).
    pub fn scale(&mut self, num: u64, den: u64) {
        for s in self.insts.values_mut() {
            for v in [
                &mut s.counts.instructions,
                &mut s.counts.wavefronts,
                &mut s.counts.ideal_wavefronts,
                &mut s.counts.attributed_wavefronts,
            ] {
                *v = (*v * num + den / 2) / den;
            }
        }
        for s in self.matrix.values_mut() {
            for v in [
                &mut s.counts.instructions,
                &mut s.counts.wavefronts,
                &mut s.counts.ideal_wavefronts,
                &mut s.unmodelled,
            ] {
                *v = (*v * num + den / 2) / den;
            }
        }
        for v in [&mut self.gmma.instructions, &mut self.gmma.bytes]
            .into_iter()
            .chain(self.gmma.commits.values_mut())
        {
            *v = (*v * num + den / 2) / den;
        }
    }
}

/// One block's sink: feeds every shared access through the bank model.
///
/// One shared instruction executed by many warps usually issues one lane pattern relative to a
/// base address, so the sink keeps, per instruction, the last few patterns it costed: (load or
/// store, width, lane mask, each lane's offset from the first active lane, that lane's address
/// modulo the bank period [`bank::period`]) with the model's counts. A request equal to one of them
/// is the same request shifted by a multiple of the period, and the model gives it the same counts
/// (`counts_repeat_with_the_bank_period` in the model's tests). [`BankSink::uncached`] asks the
/// model for every request; the tests compare the two on whole launches.
pub struct BankSink {
    block: u32,
    arch: &'static Arch,
    recon: Arc<Reconciliation>,
    report: BankReport,
    forms: Option<Arc<MatrixForms>>,
    /// Per pc: index into `pcs` (`u32::MAX`: not seen yet).
    pc_index: Vec<u32>,
    pcs: Vec<PcState>,
    /// Counters per (pc, side), folded into the report's map at the end.
    stats: Vec<InstStats>,
    /// The bank period in bytes; 0 on the uncached path.
    period: u32,
    /// The lanes of the next `cp.async` event that read a source: (warp, pc, lanes).
    sources: Option<(u32, u32, u32)>,
    /// Buffers of worst requests the report did not keep, for the next blocks' (at most
    /// [`SPARE`]): a block's first request at each instruction is its worst so far.
    spare: Vec<Vec<u64>>,
    /// Executions of loads the machine code runs below an early exit
    /// ([`Reconciliation::sunk`]), waiting for their warp's store.
    pending: Vec<Pending>,
}

/// A shared load waiting for the store whose lanes it runs with ([`Reconciliation::sunk`]).
struct Pending {
    warp: u32,
    pc: u32,
    store: u32,
    width: u8,
    mask: u32,
    addrs: [u64; 32],
}

/// Spare worst-request buffers a sink keeps.
const SPARE: usize = 64;

/// Patterns remembered per instruction: as many as the warps of a 1,024-thread block, so that an
/// instruction whose base modulo the period moves with the warp (a padded tile's rows, each warp on
/// its own row) finds every warp's pattern again in the next block rather than cycling through
/// fewer ways, missing on every request.
const WAYS: usize = 32;
// a way is kept in a byte (`PcState::last`)
const _: () = assert!(WAYS <= 256);

/// What the sink keeps for one instruction.
struct PcState {
    role: Role,
    /// The store whose lanes this load runs with ([`Reconciliation::sunk`]).
    sunk: Option<u32>,
    /// Index into `BankSink::stats` per side (load, store); `u32::MAX`: none yet.
    stat: [u32; 2],
    /// Boxed: the instructions' other fields, read on every request, stay in a few cache lines
    /// (inline, each instruction's 5 KB of patterns put them a page apart, and a kernel streaming
    /// global memory evicted them between requests)
    shapes: Box<[Option<Shape>; WAYS]>,
    /// The way the next new pattern replaces.
    next: usize,
    /// Per warp (modulo [`WAYS`]), the way that answered its last request here (checked first:
    /// a warp's requests at an instruction mostly repeat its pattern, which may differ from the
    /// other warps', as a tile's rows do).
    last: [u8; WAYS],
}

/// The instructions' roles and pattern caches of the last block a thread finished, for the next
/// block's sink of the same launch: the wavefronts of a pattern depend only on the pattern, the
/// architecture and the bank period (the cache's key), and the roles only on the reconciliation,
/// so a block that starts from another's cache counts the same, without costing its patterns
/// again.
struct Carry {
    /// Held, so that no other reconciliation can take its address while the carry lives.
    recon: Arc<Reconciliation>,
    arch: &'static Arch,
    period: u32,
    pc_index: Vec<u32>,
    pcs: Vec<PcState>,
}

thread_local! {
    static CARRY: std::cell::RefCell<Option<Carry>> = const { std::cell::RefCell::new(None) };
}

impl Carry {
    /// The carry of this thread when it comes from a sink of the same reconciliation,
    /// architecture and period (each instruction's counters index cleared), else empty ones.
    fn take(recon: &Arc<Reconciliation>, arch: &'static Arch, period: u32) -> (Vec<u32>, Vec<PcState>) {
        let c = CARRY.with(|c| c.borrow_mut().take());
        match c {
            Some(mut c)
                if Arc::ptr_eq(&c.recon, recon) && std::ptr::eq(c.arch, arch) && c.period == period =>
            {
                for p in &mut c.pcs {
                    p.stat = [u32::MAX; 2];
                }
                (c.pc_index, c.pcs)
            }
            _ => (Vec::new(), Vec::new()),
        }
    }

    /// Keeps `sink`'s roles and caches for the next sink this thread makes.
    fn keep(sink: &mut BankSink) {
        if sink.pcs.is_empty() {
            return;
        }
        CARRY.with(|c| {
            *c.borrow_mut() = Some(Carry {
                recon: Arc::clone(&sink.recon),
                arch: sink.arch,
                period: sink.period,
                pc_index: std::mem::take(&mut sink.pc_index),
                pcs: std::mem::take(&mut sink.pcs),
            });
        });
    }
}

/// A request pattern and its counts (see [`BankSink`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShapeKey {
    side: Side,
    width: u8,
    mask: u32,
    base_mod: u32,
    rel: [u32; 32],
}

#[derive(Clone, Copy)]
struct Shape {
    key: ShapeKey,
    cost: Option<(u32, u32, u32)>,
}

impl ShapeKey {
    /// The key of `req` (non-empty mask); `None` when an address does not fit the model's 32 bits
    /// (such a request is costed, and found unmodelled, without the cache).
    fn of(side: Side, req: &Request<'_>, period: u32) -> Option<ShapeKey> {
        // compiled for AVX2 too, chosen where the CPU has it (the same Rust, so the same key:
        // 4 lanes per vector instead of 2)
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            unsafe fn wide(side: Side, req: &Request<'_>, period: u32) -> Option<ShapeKey> {
                ShapeKey::of_lanes(side, req, period)
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { wide(side, req, period) };
            }
        }
        ShapeKey::of_lanes(side, req, period)
    }

    /// Whether `req` (non-empty mask) has this key: `ShapeKey::of(side, req, period) ==
    /// Some(*self)`, without building the key.
    fn is(&self, side: Side, req: &Request<'_>, period: u32) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            unsafe fn wide(k: &ShapeKey, side: Side, req: &Request<'_>, period: u32) -> bool {
                k.is_lanes(side, req, period)
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { wide(self, side, req, period) };
            }
        }
        self.is_lanes(side, req, period)
    }

    #[inline(always)]
    fn is_lanes(&self, side: Side, req: &Request<'_>, period: u32) -> bool {
        if self.side != side || self.width != req.width || self.mask != req.mask {
            return false;
        }
        let base = req.addrs[req.mask.trailing_zeros() as usize];
        let base_mod = if period.is_power_of_two() {
            (base & u64::from(period - 1)) as u32
        } else {
            (base % u64::from(period)) as u32
        };
        if base_mod != self.base_mod {
            return false;
        }
        // every lane's offset from the base (0 for lanes off, as `of` keeps them) and the high
        // halves of the addresses on, or-ed: equal offsets and no high bit
        let mut diff = 0u64;
        let mut high = 0u64;
        if req.mask == u32::MAX {
            // every lane on: no mask to apply (as in `of_lanes`)
            for (&r, &a) in self.rel.iter().zip(req.addrs) {
                high |= a;
                diff |= u64::from((a.wrapping_sub(base) as u32) ^ r);
            }
        } else {
            for (l, (&r, &a)) in self.rel.iter().zip(req.addrs).enumerate() {
                let on = u64::from(req.mask >> l & 1).wrapping_neg();
                high |= a & on;
                diff |= u64::from(((a.wrapping_sub(base) & on) as u32) ^ r);
            }
        }
        diff == 0 && high >> 32 == 0
    }

    #[inline(always)]
    fn of_lanes(side: Side, req: &Request<'_>, period: u32) -> Option<ShapeKey> {
        let base = req.addrs[req.mask.trailing_zeros() as usize];
        let mut rel = [0u32; 32];
        let mut high = 0u64;
        if req.mask == u32::MAX {
            // every lane on: no mask to apply (a loop the compiler vectorises)
            for (r, &a) in rel.iter_mut().zip(req.addrs) {
                high |= a;
                *r = a.wrapping_sub(base) as u32;
            }
        } else {
            for (l, (r, &a)) in rel.iter_mut().zip(req.addrs).enumerate() {
                let on = u64::from(req.mask >> l & 1).wrapping_neg();
                high |= a & on;
                *r = (a.wrapping_sub(base) & on) as u32;
            }
        }
        (high >> 32 == 0).then(|| ShapeKey {
            side,
            width: req.width,
            mask: req.mask,
            // the period is a power of two on every preset: a mask, not a division
            base_mod: if period.is_power_of_two() {
                (base & u64::from(period - 1)) as u32
            } else {
                (base % u64::from(period)) as u32
            },
            rel,
        })
    }
}

impl BankSink {
    /// A sink for `block` on `arch`, counting as `recon` says.
    pub fn new(block: u32, arch: &'static Arch, recon: Arc<Reconciliation>) -> Self {
        let report = BankReport {
            insts: BTreeMap::new(),
            blocks: 1,
            unmodelled: 0,
            matrix: BTreeMap::new(),
            gmma: GmmaCounts::default(),
        };
        let period = bank::period(arch, &bank::Config::default());
        let (pc_index, pcs) = Carry::take(&recon, arch, period);
        BankSink {
            block,
            arch,
            recon,
            report,
            forms: None,
            pc_index,
            pcs,
            stats: Vec::new(),
            period,
            sources: None,
            spare: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// The same sink without the pattern cache: the bank model costs every request (the reference
    /// path the tests compare the cache with).
    pub fn uncached(block: u32, arch: &'static Arch, recon: Arc<Reconciliation>) -> Self {
        BankSink {
            period: 0,
            ..BankSink::new(block, arch, recon)
        }
    }

    /// Tells the sink each LDSM / STSM / LDGSTS instruction's form (matrices, `.ca` / `.cg`), read
    /// from the program by [`MatrixForms::of`]. Without it, `ldmatrix` forms are inferred from the
    /// lanes and a 16-byte `cp.async` is counted as unmodelled (`.ca` and `.cg` cost differently).
    pub fn with_forms(mut self, forms: Arc<MatrixForms>) -> Self {
        self.forms = Some(forms);
        self
    }

    /// The block's report, the sink left ready for another block ([`BankSink::for_block`]) with
    /// its pattern cache kept (a pattern's counts do not depend on the block): sinks reused from
    /// block to block learn each instruction's patterns once per host thread, not once per block.
    pub fn take_report(&mut self) -> BankReport {
        let fresh = BankReport::one_block();
        let mut report = std::mem::replace(&mut self.report, fresh);
        for s in self.stats.drain(..) {
            report.insts.insert((s.pc, s.side), s);
        }
        for p in &mut self.pcs {
            p.stat = [u32::MAX; 2];
        }
        self.sources = None;
        self.pending.clear();
        report
    }

    /// `acc.merge(self.take_report())` without building the block's map of instructions (a
    /// block's instructions are distinct keys, folded in one by one): what a launch's in-order
    /// merge does per block, on one thread while the others run blocks.
    pub fn merge_into(&mut self, acc: &mut BankReport) {
        if !self.report.insts.is_empty() {
            acc.merge(self.take_report());
            return;
        }
        let fresh = BankReport::one_block();
        // everything but the instructions (the block's map is empty) as `merge` folds it
        acc.merge(std::mem::replace(&mut self.report, fresh));
        for s in self.stats.drain(..) {
            if let Some(v) = acc.merge_inst_spare((s.pc, s.side), s)
                && self.spare.len() < SPARE
            {
                self.spare.push(v);
            }
        }
        for p in &mut self.pcs {
            p.stat = [u32::MAX; 2];
        }
        self.sources = None;
        self.pending.clear();
    }

    /// Whether instruction events count here (the kernel has `wgmma` instructions, whose
    /// executions the sink counts): without, [`Sink::insts`] does nothing and need not be called.
    pub fn counts_insts(&self) -> bool {
        self.forms.as_ref().is_some_and(|f| !f.wgmma.is_empty())
    }

    /// The sink (fresh or after [`BankSink::take_report`]) counts for `block` now.
    pub fn for_block(&mut self, block: u32) {
        self.block = block;
    }

    /// The sink counts `block`, the next block after its own in block order, on top of what it
    /// counted: its report is then the in-order merge of the blocks' own reports (counters summed
    /// per instruction, the first worst request kept: a later block's replaces it only with more
    /// wavefronts, as [`BankReport::merge`] does), without a report per block. What belongs to
    /// one block (loads waiting for their store, a copy's source lanes) ends with it, as
    /// [`BankSink::take_report`] ends it.
    pub fn next_block(&mut self, block: u32) {
        self.block = block;
        self.report.blocks += 1;
        self.sources = None;
        self.pending.clear();
    }

    /// The finished report.
    pub fn into_report(mut self) -> BankReport {
        for s in std::mem::take(&mut self.stats) {
            self.report.insts.insert((s.pc, s.side), s);
        }
        Carry::keep(&mut self);
        std::mem::take(&mut self.report)
    }

    fn pc_state(&mut self, pc: u32) -> usize {
        let i = pc as usize;
        if i >= self.pc_index.len() {
            self.pc_index.resize(i + 1, u32::MAX);
        }
        if self.pc_index[i] == u32::MAX {
            self.pc_index[i] = self.pcs.len() as u32;
            self.pcs.push(PcState {
                role: self.recon.role(pc),
                sunk: self.recon.sunk.get(&pc).copied(),
                stat: [u32::MAX; 2],
                shapes: Box::new([None; WAYS]),
                next: 0,
                last: [0; WAYS],
            });
        }
        self.pc_index[i] as usize
    }

    /// The counts of `req` at the instruction `p` (an index into `pcs`), from the pattern cache
    /// when it holds the pattern.
    fn cost_at(&mut self, p: usize, warp: u32, side: Side, req: &Request<'_>) -> Option<(u32, u32, u32)> {
        if self.period == 0 || req.mask == 0 {
            return attributed_cost(self.arch, side, req);
        }
        let st = &mut self.pcs[p];
        let wl = warp as usize % WAYS;
        // the pattern the warp's last request here had, checked against the request in place
        // (most requests repeat it; no key is built for them)
        if let Some(last) = &st.shapes[usize::from(st.last[wl])]
            && last.key.is(side, req, self.period)
        {
            return last.cost;
        }
        let Some(key) = ShapeKey::of(side, req, self.period) else {
            return attributed_cost(self.arch, side, req);
        };
        if let Some(way) = st
            .shapes
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.key == key))
        {
            st.last[wl] = way as u8;
            return st.shapes[way].map(|s| s.cost).unwrap_or(None);
        }
        let c = attributed_cost(self.arch, side, req);
        st.shapes[st.next] = Some(Shape { key, cost: c });
        st.last[wl] = st.next as u8;
        st.next = (st.next + 1) % WAYS;
        c
    }

    /// Records one warp-level shared access at `pc` (`atomic` accesses count on both sides).
    pub fn record(&mut self, warp: u32, pc: u32, side: Side, atomic: bool, req: Request<'_>) {
        let p = self.pc_state(pc);
        if let Some(store) = self.pcs[p].sunk
            && side == Side::Load
            && !atomic
        {
            // counted when the warp's store runs, with its lanes (a load of the warp not yet
            // counted is one the machine code did not run: every lane left)
            self.pending.retain(|q| q.warp != warp || q.pc != pc);
            self.pending.push(Pending {
                warp,
                pc,
                store,
                width: req.width,
                mask: req.mask,
                addrs: *req.addrs,
            });
            return;
        }
        self.count(p, warp, pc, side, atomic, req);
    }

    /// The pending loads of `warp` that wait for the store at `pc`, counted with the store's
    /// lanes `mask`.
    fn store_ran(&mut self, warp: u32, pc: u32, mask: u32) {
        let mut i = 0;
        while i < self.pending.len() {
            if self.pending[i].warp != warp || self.pending[i].store != pc {
                i += 1;
                continue;
            }
            let q = self.pending.swap_remove(i);
            let lanes = q.mask & mask;
            if lanes != 0 {
                let p = self.pc_state(q.pc);
                let req = Request {
                    width: q.width,
                    mask: lanes,
                    addrs: &q.addrs,
                };
                self.count(p, warp, q.pc, Side::Load, false, req);
            }
        }
    }

    /// Counts one warp-level shared access at the instruction `p` (an index into `pcs`).
    fn count(&mut self, p: usize, warp: u32, pc: u32, side: Side, atomic: bool, req: Request<'_>) {
        // ptxas fuses on addresses aligned to the wider width: a group whose variable does not
        // start on it has its first piece start below the group's first access (lookback's
        // `warpTot[8]` at byte 4, after a 4-byte `tileId`: `LDS.128 [0]` reads `tileId` and
        // `warpTot[0..3]`, `reconcile::placed_pieces`), so the leader is counted where the
        // machine code reads, the whole request moved down to the width
        let shifted: [u64; 32];
        let req = match self.pcs[p].role {
            Role::Follower => return,
            Role::Plain => req,
            Role::Leader { width } => {
                let first = req.mask.trailing_zeros() as usize;
                let off = if first < 32 {
                    req.addrs[first] % u64::from(width.max(1))
                } else {
                    0
                };
                if off != 0
                    && (0..32).all(|l| req.mask & (1 << l) == 0 || req.addrs[l] % u64::from(width) == off)
                {
                    shifted = std::array::from_fn(|l| req.addrs[l].saturating_sub(off));
                    Request {
                        width,
                        mask: req.mask,
                        addrs: &shifted,
                    }
                } else {
                    Request { width, ..req }
                }
            }
        };
        let per_lane = atomic
            && self
                .recon
                .atomic_forms
                .as_ref()
                .is_some_and(|f| f.get(&pc) == Some(&crate::reconcile::AtomicForm::PerLane));
        let cost = if per_lane {
            per_lane_cost(&req).map(|(wf, ideal)| (wf, ideal, wf))
        } else {
            self.cost_at(p, warp, side, &req)
        };
        let Some((wf, ideal, attributed)) = cost else {
            self.report.unmodelled += 1;
            return;
        };
        let sides: &[Side] = if atomic {
            &[Side::Load, Side::Store]
        } else {
            std::slice::from_ref(&side)
        };
        for &side in sides {
            let si = side as usize;
            if self.pcs[p].stat[si] == u32::MAX {
                self.pcs[p].stat[si] = self.stats.len() as u32;
                self.stats.push(InstStats {
                    pc,
                    side,
                    width: req.width,
                    atomic,
                    counts: Counts::default(),
                    worst: None,
                });
            }
            let s = &mut self.stats[self.pcs[p].stat[si] as usize];
            s.counts.instructions += 1;
            s.counts.wavefronts += u64::from(wf);
            s.counts.ideal_wavefronts += u64::from(ideal);
            s.counts.attributed_wavefronts += u64::from(attributed);
            if s.worst.as_ref().is_none_or(|w| wf > w.wavefronts) {
                // in the buffer of the request it replaces, or one a merged block left
                let buf = match s.worst.take() {
                    Some(w) => w.addrs,
                    None => self.spare.pop().unwrap_or_default(),
                };
                let addrs = worst_addrs(buf, &req);
                s.worst = Some(WorstRequest {
                    block: self.block,
                    warp,
                    wavefronts: wf,
                    ideal_wavefronts: ideal,
                    width: req.width,
                    mask: req.mask,
                    addrs,
                });
            }
        }
    }
}

/// A worst request's per-lane offsets (0 for inactive lanes), written into `buf`. Out of line:
/// inlined, the compiler computed them ahead of the test on every request.
#[inline(never)]
fn worst_addrs(mut buf: Vec<u64>, req: &Request<'_>) -> Vec<u64> {
    buf.clear();
    let addrs: &[u64; 32] = req.addrs;
    let mask = req.mask;
    if mask == u32::MAX {
        // every lane on: the offsets as they are (one copy)
        buf.extend_from_slice(addrs);
        return buf;
    }
    // each lane's offset under its mask bit, over whole arrays (no branch per lane), written
    // once (not zeroed first)
    buf.extend(
        addrs
            .iter()
            .enumerate()
            .map(|(l, &a)| a & 0u64.wrapping_sub(u64::from(mask >> l & 1))),
    );
    buf
}

/// An `ATOMS` whose lanes each take their own slot in their bank ([`crate::reconcile::AtomicForm::PerLane`],
/// H100-measured): the busiest bank's count of lane words (one wavefront when none conflict).
fn per_lane_cost(req: &Request<'_>) -> Option<(u32, u32)> {
    if req.mask == 0 {
        return Some((0, 0));
    }
    let mut per_bank = [0u32; 32];
    let words = u64::from(req.width.max(4) / 4);
    for lane in 0..32 {
        if req.mask >> lane & 1 == 1 {
            let a = req.addrs[lane];
            if !a.is_multiple_of(4) {
                return None;
            }
            for w in 0..words {
                per_bank[((a / 4 + w) % 32) as usize] += 1;
            }
        }
    }
    Some((per_bank.iter().copied().max().unwrap_or(0).max(1), 1))
}

/// Wavefronts and conflict-free wavefronts of one request, by the bank model
/// ([`warpscope_model::bank::wavefronts`], the allocation-free fast path); `None` when the model
/// cannot take the request (a misaligned lane).
pub fn cost(arch: &Arch, side: Side, req: &Request<'_>) -> Option<(u32, u32)> {
    attributed_cost(arch, side, req).map(|(wf, ideal, _)| (wf, ideal))
}

/// [`cost`] and the wavefronts Nsight Compute attributes to the instruction
/// ([`warpscope_model::bank::attributed`]): `(wavefronts, ideal, attributed)`.
pub fn attributed_cost(arch: &Arch, side: Side, req: &Request<'_>) -> Option<(u32, u32, u32)> {
    if req.mask == 0 {
        return Some((0, 0, 0));
    }
    let mut r = bank::Request {
        width: req.width,
        op: if side == Side::Store {
            bank::Op::Store
        } else {
            bank::Op::Load
        },
        mask: req.mask,
        addrs: [0; 32],
    };
    for lane in 0..32 {
        if req.mask & (1 << lane) != 0 {
            r.addrs[lane] = u32::try_from(req.addrs[lane]).ok()?;
        }
    }
    let config = bank::Config::default();
    let c = bank::wavefronts(arch, &config, &r).ok()?;
    Some((c.wavefronts, c.ideal, bank::attributed(arch, &config, &r, &c)))
}

/// The model's full picture of a request (reference path): for each wavefront, the (lane, bank,
/// word) slots it serves.
pub fn picture(arch: &Arch, side: Side, w: &WorstRequest) -> Option<bank::Breakdown> {
    let r = bank::Request {
        width: w.width,
        op: if side == Side::Store {
            bank::Op::Store
        } else {
            bank::Op::Load
        },
        mask: w.mask,
        addrs: std::array::from_fn(|l| u32::try_from(w.addrs[l]).unwrap_or(0)),
    };
    bank::breakdown(arch, &bank::Config::default(), &r).ok()
}

impl warpscope_emu::Sink for BankSink {
    fn copy_sources(&mut self, warp: u32, pc: u32, sources: u32) {
        self.sources = Some((warp, pc, sources));
    }

    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        use warpscope_emu::{AccessOp, Space};
        if !self.pending.is_empty() && e.op == AccessOp::Store {
            self.store_ran(e.warp, e.pc, e.mask);
        }
        if e.space != Space::Shared {
            return;
        }
        let (side, atomic) = match e.op {
            AccessOp::Load => (Side::Load, false),
            AccessOp::Store => (Side::Store, false),
            AccessOp::Atomic => (Side::Load, true),
            AccessOp::LdMatrix | AccessOp::StMatrix | AccessOp::CpAsync => {
                self.record_matrix(e);
                return;
            }
            // the tensor core's operand reads are no LSU instruction (calibration/wgmma)
            AccessOp::Wgmma => {
                self.report.gmma.bytes += u64::from(e.width) * u64::from(e.mask.count_ones());
                return;
            }
        };
        self.record(
            e.warp,
            e.pc,
            side,
            atomic,
            Request {
                width: e.width,
                mask: e.mask,
                addrs: e.addrs,
            },
        );
    }

    fn warp_exit(&mut self, warp: u32) {
        // a load whose store never ran: no lane was left to run it
        self.pending.retain(|q| q.warp != warp);
    }

    #[inline]
    fn inst(&mut self, _warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        if active != 0
            && let Some(f) = &self.forms
            && !f.wgmma.is_empty()
        {
            if f.is_wgmma(pc) {
                self.report.gmma.instructions += 1;
            } else if f.is_commit(pc) {
                *self.report.gmma.commits.entry(pc).or_default() += 1;
            }
        }
    }

    #[inline]
    fn insts(&mut self, warp: u32, pc: u32, n: u32, active: warpscope_emu::LaneMask) {
        if active != 0 && self.counts_insts() {
            for p in pc..pc + n {
                self.inst(warp, p, active);
            }
        }
    }

    /// Nothing, for an iteration of global accesses and instructions that are no wgmma (what
    /// replaying its events adds here); replayed otherwise.
    fn repeat(&mut self, it: &warpscope_emu::Iteration, times: u64) {
        use warpscope_emu::{IterEvent, Space};
        let counts = self.forms.as_ref().is_some_and(|f| !f.wgmma.is_empty())
            || it.events.iter().any(|e| {
                matches!(
                    e,
                    IterEvent::Mem {
                        space: Space::Shared,
                        ..
                    }
                )
            });
        if counts {
            it.replay_times(self, times);
        }
    }
}

/// Counters of one source line (all instructions that `.loc` attributes to it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineStats {
    /// Source file name (from `.file`), empty when unknown.
    pub file: String,
    /// Source line (0 when the PTX has no line info: then the PTX line is used, see `ptx_line`).
    pub line: u32,
    /// Load or store.
    pub side: Side,
    /// Counters.
    #[serde(flatten)]
    pub counts: Counts,
    /// pc of the instruction with the worst request on this line.
    pub worst_pc: u32,
    /// Wavefronts of that request.
    pub worst_wavefronts: u32,
}

/// A finished bank analysis of one launch.
#[derive(Clone, Debug, Serialize)]
pub struct BankRun {
    /// Per-instruction counters, merged over blocks.
    pub report: BankReport,
    /// Blocks emulated.
    pub blocks_emulated: u32,
    /// Blocks in the grid.
    pub blocks_in_grid: u64,
    /// Warp instructions executed by the emulated blocks.
    pub warp_insts: u64,
    /// Faults (out-of-bounds, divergent barriers...), one line each: the driver's sentences
    /// (`warpscope_driver::fault`), or the emulator's own text from [`run`].
    pub faults: Vec<String>,
}

/// Emulates `kernel` over `launch` with a [`BankSink`] per block and merges the reports. When the
/// launch samples blocks (`launch.blocks`), counters are scaled to the whole grid and
/// `blocks_emulated < blocks_in_grid` says so.
pub fn run(
    program: &warpscope_ptx::Program,
    kernel: &str,
    launch: &warpscope_emu::Launch,
    limits: &warpscope_emu::Limits,
    arch: &'static Arch,
    recon: Arc<Reconciliation>,
) -> Result<BankRun, warpscope_emu::EmuError> {
    let forms = Arc::new(MatrixForms::of(program));
    let res = warpscope_emu::run(program, kernel, launch, limits, |b| {
        BankSink::new(b, arch, recon.clone()).with_forms(forms.clone())
    })?;
    let mut report = BankReport::default();
    let blocks_emulated = res.sinks.len() as u32;
    for s in res.sinks {
        report.merge(s.into_report());
    }
    let blocks_in_grid: u64 = launch.grid.iter().map(|&g| u64::from(g)).product();
    if u64::from(blocks_emulated) < blocks_in_grid && blocks_emulated > 0 {
        report.scale(blocks_in_grid, u64::from(blocks_emulated));
    }
    let faults = res.faults.iter().map(|f| f.to_string()).collect();
    Ok(BankRun {
        report,
        blocks_emulated,
        blocks_in_grid,
        warp_insts: res.counters.warp_insts,
        faults,
    })
}

impl BankReport {
    /// Per-line counters, in (file, line, side) order; instructions without `.loc` are grouped by
    /// their PTX line with an empty file name.
    pub fn lines(&self, program: &warpscope_ptx::Program) -> Vec<LineStats> {
        let mut map: BTreeMap<(String, u32, Side), LineStats> = BTreeMap::new();
        for s in self.insts.values() {
            let info = program.inst_info(s.pc);
            let (file, line) = match info.loc {
                Some(l) => (program.file_name(l.file).unwrap_or("").to_string(), l.line),
                None => (String::new(), info.ptx_line),
            };
            let e = map
                .entry((file.clone(), line, s.side))
                .or_insert_with(|| LineStats {
                    file,
                    line,
                    side: s.side,
                    counts: Counts::default(),
                    worst_pc: s.pc,
                    worst_wavefronts: 0,
                });
            e.counts.add(&s.counts);
            let wf = s.worst.as_ref().map_or(0, |w| w.wavefronts);
            if wf > e.worst_wavefronts {
                e.worst_wavefronts = wf;
                e.worst_pc = s.pc;
            }
        }
        map.into_values().collect()
    }
}

// ---------------------------------------------------------------------------------------------------
// LDSM / STSM / LDGSTS: `ldmatrix`, `stmatrix` and `cp.async` through `warpscope_model::matrix`
// (rules measured in calibration/ldsm/). Kept apart from the LDS/STS path above.

/// Which matrix or copy instruction a [`MatrixStats`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatrixKind {
    /// `ldmatrix` (LDSM): its wavefronts count in ncu's `op_ld`, its instructions do not.
    Ldsm,
    /// `stmatrix` (STSM): its wavefronts count in ncu's `op_st`, its instructions do not.
    Stsm,
    /// `cp.async` (LDGSTS): counted apart (`..._op_ldgsts`), in neither `op_ld` nor `op_st`.
    Ldgsts,
}

impl MatrixKind {
    /// The three kinds, in this order.
    pub const ALL: [MatrixKind; 3] = [MatrixKind::Ldsm, MatrixKind::Stsm, MatrixKind::Ldgsts];

    /// Nsight Compute's count of the kind's warp instructions.
    pub const fn ncu_instructions(self) -> &'static str {
        match self {
            MatrixKind::Ldsm => "smsp__sass_inst_executed_op_ldsm.sum",
            MatrixKind::Stsm => "smsp__sass_inst_executed_op_shared_stsm.sum",
            MatrixKind::Ldgsts => "smsp__sass_inst_executed_op_ldgsts.sum",
        }
    }

    /// Nsight Compute's count of the kind's shared-memory wavefronts.
    pub const fn ncu_wavefronts(self) -> &'static str {
        match self {
            MatrixKind::Ldsm => "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
            MatrixKind::Stsm => "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
            MatrixKind::Ldgsts => "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        }
    }
}

/// Counters of one LDSM / STSM / LDGSTS instruction (pc), as
/// `sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{ldsm,stsm,ldgsts}` and
/// `smsp__sass_inst_executed_op_{ldsm,shared_stsm,ldgsts}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatrixStats {
    /// Program-wide pc.
    pub pc: u32,
    /// The instruction.
    pub kind: MatrixKind,
    /// Bytes per row (16) or per copy (4, 8, 16).
    pub width: u8,
    /// Counters of the requests the model covers.
    #[serde(flatten)]
    pub counts: Counts,
    /// Wavefronts of those requests that the hardware counts in `op_ld` / `op_st` (LDSM / STSM of a
    /// whole warp; 0 for LDGSTS).
    pub lsu_wavefronts: u64,
    /// Ideal wavefronts of the same requests.
    pub lsu_ideal_wavefronts: u64,
    /// Requests outside the measured rules (`matrix::MatrixError::NoRule`), misaligned, or of an
    /// unknown form; not counted above.
    pub unmodelled: u64,
    /// The request with the most wavefronts; for LDSM / STSM `addrs` are the row addresses.
    pub worst: Option<WorstRequest>,
}

/// One instruction's form, as the program says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixForm {
    /// `ldmatrix` / `stmatrix` of this many 8x8 matrices.
    Matrices(u8),
    /// `cp.async` without a src-size or predicate: its path, or `None` where no rule applies.
    Copy(Option<matrix::CopyKind>),
    /// `cp.async` with a `src-size` register (`LDGSTS ... .ZFILL`): the rule takes the lanes
    /// whose source size is not 0 (`Sink::copy_sources`).
    ZeroFill(matrix::CopyKind),
    /// `cp.async.cg` (16 bytes) whose src-size is 16 or 0 (Triton's masked copies: a `selp` of
    /// the two) or that has an `ignore-src` predicate, which ptxas makes
    /// `LDGSTS.E.BYPASS.128 [d], [s], P`: counted by
    /// [`matrix::CopyKind::CacheGlobalPredicated`] over the lanes Nsight Compute takes as reading
    /// ([`matrix::instrumented_source_lanes`]), which needs the machine code's predicate operand
    /// (`Reconciliation::copy_predicates`); without it, no rule applies (calibration/srcpred,
    /// calibration/capred). The `.ca` copies of these forms (`LDGSTS.E{,.64,.128} [d], [s], P`)
    /// count as [`MatrixForm::ZeroFill`] does: over the lanes that truly read, `P0` included
    /// (calibration/capred).
    SourcePredicate,
}

/// Per-pc forms of a program's LDSM / STSM / LDGSTS instructions.
#[derive(Clone, Debug, Default)]
pub struct MatrixForms {
    forms: Vec<Option<MatrixForm>>,
    /// The pcs of `wgmma.mma_async` instructions (empty when the program has none).
    wgmma: Vec<u32>,
    /// The pcs of `wgmma.commit_group` instructions (empty when the program has no wgmma).
    commits: Vec<u32>,
}

impl MatrixForms {
    /// Reads the forms off the lowered program (matrix counts from the instruction, `.ca` / `.cg`
    /// from its PTX text).
    pub fn of(program: &warpscope_ptx::Program) -> MatrixForms {
        use warpscope_ptx::Inst;
        let forms = program
            .ops
            .iter()
            .enumerate()
            .map(|(pc, op)| match op.inst {
                Inst::LdMatrix { num, .. } | Inst::StMatrix { num, .. } => Some(MatrixForm::Matrices(num)),
                // an A or B fragment from shared: one LDSM.x4 (the emulator's LdMatrix event)
                Inst::WmmaLoad {
                    frag: warpscope_ptx::inst::WmmaFrag::A | warpscope_ptx::inst::WmmaFrag::B,
                    shape: warpscope_ptx::inst::MmaShape::M16n16k16,
                    ty: warpscope_ptx::inst::Ty::F16 | warpscope_ptx::inst::Ty::BF16,
                    space: warpscope_ptx::inst::MemSpace::Shared,
                    ..
                } => Some(MatrixForm::Matrices(4)),
                Inst::CpAsync {
                    src_size, ignore_src, ..
                } => {
                    let text = &program.info[pc].text;
                    let plain = if text.contains("cp.async.cg") {
                        Some(matrix::CopyKind::CacheGlobal)
                    } else if text.contains("cp.async.ca") {
                        Some(matrix::CopyKind::CacheAll)
                    } else {
                        None
                    };
                    if src_size == warpscope_ptx::inst::NO_REG {
                        Some(MatrixForm::Copy(plain))
                    } else if ignore_src
                        || crate::reconcile::selected_size_or_zero(program, pc as u32, src_size)
                    {
                        // the ignore-src predicate, or a src-size that is the whole copy or nothing
                        // (Triton's masked loads, CuTe's zero-filling copies: a `selp` of the size
                        // and 0): ptxas makes the source-predicate form (`LDGSTS... [d], [s], P`),
                        // counted apart (calibration/srcpred, calibration/capred)
                        Some(match plain {
                            Some(matrix::CopyKind::CacheGlobal) => MatrixForm::SourcePredicate,
                            // `.ca`: the lanes that read, as the src-size form
                            Some(k) => MatrixForm::ZeroFill(k),
                            None => MatrixForm::Copy(None),
                        })
                    } else {
                        Some(match plain {
                            Some(matrix::CopyKind::CacheGlobal) => {
                                MatrixForm::ZeroFill(matrix::CopyKind::CacheGlobalZeroFill)
                            }
                            Some(k) => MatrixForm::ZeroFill(k),
                            None => MatrixForm::Copy(None),
                        })
                    }
                }
                _ => None,
            })
            .collect();
        let wgmma = program
            .ops
            .iter()
            .enumerate()
            .filter(|(_, o)| matches!(o.inst, Inst::Wgmma { .. }))
            .map(|(pc, _)| pc as u32)
            .collect::<Vec<u32>>();
        let commits = if wgmma.is_empty() {
            Vec::new()
        } else {
            program
                .ops
                .iter()
                .enumerate()
                .filter(|(_, o)| {
                    matches!(
                        o.inst,
                        Inst::WgmmaSync {
                            op: warpscope_ptx::inst::WgmmaSyncOp::Commit
                        }
                    )
                })
                .map(|(pc, _)| pc as u32)
                .collect()
        };
        MatrixForms {
            forms,
            wgmma,
            commits,
        }
    }

    /// Whether the instruction at `pc` is a `wgmma.commit_group`.
    #[inline]
    pub fn is_commit(&self, pc: u32) -> bool {
        !self.commits.is_empty() && self.commits.binary_search(&pc).is_ok()
    }

    /// Whether the instruction at `pc` is a `wgmma.mma_async`.
    #[inline]
    pub fn is_wgmma(&self, pc: u32) -> bool {
        !self.wgmma.is_empty() && self.wgmma.binary_search(&pc).is_ok()
    }

    /// The form of the instruction at `pc`, if it is an `ldmatrix`, `stmatrix` or `cp.async`.
    pub fn get(&self, pc: u32) -> Option<MatrixForm> {
        self.forms.get(pc as usize).copied().flatten()
    }

    /// Whether the instruction at `pc` is a `cp.async.cg` (`LDGSTS.E.BYPASS.128`, in any of its
    /// forms), whose global sectors are `global::bypass_copy_sectors`.
    pub fn is_bypass_copy(&self, pc: u32) -> bool {
        matches!(
            self.get(pc),
            Some(
                MatrixForm::Copy(Some(matrix::CopyKind::CacheGlobal))
                    | MatrixForm::ZeroFill(matrix::CopyKind::CacheGlobalZeroFill)
                    | MatrixForm::SourcePredicate
            )
        )
    }
}

impl BankReport {
    fn merge_matrix(&mut self, other: BTreeMap<u32, MatrixStats>) {
        for (pc, s) in other {
            match self.matrix.get_mut(&pc) {
                None => {
                    self.matrix.insert(pc, s);
                }
                Some(mine) => {
                    mine.counts.add(&s.counts);
                    mine.lsu_wavefronts += s.lsu_wavefronts;
                    mine.lsu_ideal_wavefronts += s.lsu_ideal_wavefronts;
                    mine.unmodelled += s.unmodelled;
                    let better = match (&mine.worst, &s.worst) {
                        (None, Some(_)) => true,
                        (Some(a), Some(b)) => b.wavefronts > a.wavefronts,
                        _ => false,
                    };
                    if better {
                        mine.worst = s.worst;
                    }
                }
            }
        }
    }

    /// LDSM wavefronts go to the load side and STSM to the store side, as ncu's `op_ld` / `op_st`
    /// count them; their instructions do not (`smsp__sass_inst_executed_op_shared_ld/_st` leave them
    /// out).
    fn add_matrix_wavefronts(&self, side: Side, c: &mut Counts) {
        let kind = match side {
            Side::Load => MatrixKind::Ldsm,
            Side::Store => MatrixKind::Stsm,
        };
        for s in self.matrix.values().filter(|s| s.kind == kind) {
            c.wavefronts += s.lsu_wavefronts;
            c.ideal_wavefronts += s.lsu_ideal_wavefronts;
        }
    }

    /// Launch totals of one kind (the JSON's `shared.ldsm`, `shared.stsm`, `shared.ldgsts`).
    pub fn matrix_total(&self, kind: MatrixKind) -> Counts {
        let mut c = Counts::default();
        for s in self.matrix.values().filter(|s| s.kind == kind) {
            c.add(&s.counts);
        }
        c
    }

    /// Requests of one kind outside the measured rules.
    pub fn matrix_unmodelled(&self, kind: MatrixKind) -> u64 {
        self.matrix
            .values()
            .filter(|s| s.kind == kind)
            .map(|s| s.unmodelled)
            .sum()
    }
}

impl BankSink {
    fn record_matrix(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        use warpscope_emu::AccessOp;
        let form = self.forms.as_ref().and_then(|f| f.get(e.pc));
        let mask = e.mask;
        let dst: Option<[u32; 32]> = (0..32)
            .map(|l| {
                if mask >> l & 1 == 1 {
                    u32::try_from(e.addrs[l]).ok()
                } else {
                    Some(0)
                }
            })
            .collect::<Option<Vec<u32>>>()
            .map(|v| std::array::from_fn(|l| v[l]));
        let (kind, result, lsu) = match e.op {
            AccessOp::LdMatrix | AccessOp::StMatrix => {
                let (kind, op) = if e.op == AccessOp::LdMatrix {
                    (MatrixKind::Ldsm, matrix::MatrixOp::Load)
                } else {
                    (MatrixKind::Stsm, matrix::MatrixOp::Store)
                };
                // The event's mask holds the active lanes among those that supply rows; without the
                // program, the highest such lane says how many matrices there are.
                let num = match form {
                    Some(MatrixForm::Matrices(n)) => n,
                    _ => match 32 - mask.leading_zeros() {
                        0..=8 => 1,
                        9..=16 => 2,
                        _ => 4,
                    },
                };
                let whole = mask == matrix::address_lanes(num);
                let r = dst
                    .ok_or(())
                    .and_then(|d| matrix::matrix_wavefronts(self.arch, op, num, mask, &d).map_err(|_| ()));
                (kind, r, whole)
            }
            AccessOp::CpAsync => {
                let stashed = self.sources.take();
                // the lanes that truly read, where they differ from what the wavefronts counter sees
                let mut reads = None;
                let (copy, sources) = match form {
                    Some(MatrixForm::Copy(k)) => (k, mask),
                    Some(MatrixForm::ZeroFill(k)) => match stashed {
                        Some((w, pc, s)) if w == e.warp && pc == e.pc => (Some(k), s),
                        _ => (None, mask),
                    },
                    Some(MatrixForm::SourcePredicate) => {
                        match (stashed, self.recon.copy_predicates.get(&e.pc)) {
                            (Some((w, pc, s)), Some(&(reg, negated))) if w == e.warp && pc == e.pc => {
                                reads = Some(s);
                                (
                                    Some(matrix::CopyKind::CacheGlobalPredicated),
                                    matrix::instrumented_source_lanes(mask, s, reg, negated),
                                )
                            }
                            _ => (None, mask),
                        }
                    }
                    // without the program: 4 and 8 bytes can only be .ca
                    _ if e.width < 16 => (Some(matrix::CopyKind::CacheAll), mask),
                    _ => (None, mask),
                };
                let r = match (copy, dst, e.src) {
                    (Some(k), Some(d), Some(src)) => {
                        matrix::ldgsts_wavefronts_with_sources(self.arch, k, e.width, mask, sources, &d, src)
                            .map(|mut c| {
                                // the conflicts counter reads the predicate as the lanes hold it
                                // (calibration/cgcrowd): the ideal is the wavefronts less those
                                if let Some(reads) = reads {
                                    let conflicts = matrix::predicated_bank_conflicts(mask, reads, &d, src);
                                    c.ideal = c.wavefronts.saturating_sub(conflicts);
                                }
                                c
                            })
                            .map_err(|_| ())
                    }
                    _ => Err(()),
                };
                (MatrixKind::Ldgsts, r, false)
            }
            _ => return,
        };
        let block = self.block;
        let s = self.report.matrix.entry(e.pc).or_insert_with(|| MatrixStats {
            pc: e.pc,
            kind,
            width: e.width,
            counts: Counts::default(),
            lsu_wavefronts: 0,
            lsu_ideal_wavefronts: 0,
            unmodelled: 0,
            worst: None,
        });
        let Ok(c) = result else {
            s.unmodelled += 1;
            return;
        };
        s.counts.instructions += 1;
        s.counts.wavefronts += u64::from(c.wavefronts);
        s.counts.ideal_wavefronts += u64::from(c.ideal);
        if lsu {
            s.lsu_wavefronts += u64::from(c.wavefronts);
            s.lsu_ideal_wavefronts += u64::from(c.ideal);
        }
        if s.worst.as_ref().is_none_or(|w| c.wavefronts > w.wavefronts) {
            s.worst = Some(WorstRequest {
                block,
                warp: e.warp,
                wavefronts: c.wavefronts,
                ideal_wavefronts: c.ideal,
                width: e.width,
                mask,
                addrs: (0..32)
                    .map(|l| if mask >> l & 1 == 1 { e.addrs[l] } else { 0 })
                    .collect(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> &'static Arch {
        Arch::parse("sm_90").unwrap()
    }

    /// `ShapeKey::is` (the in-place check of a cached pattern) answers what building the
    /// request's key and comparing it would: requests that differ from a key's own in one field
    /// at a time (side, width, mask, base modulo the period, one lane's offset, an inactive
    /// lane's address, a high address bit) on full and partial masks.
    #[test]
    fn in_place_pattern_check_equals_the_key() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let (mut same, mut differ) = (0, 0);
        for period in [128u32, 96] {
            for i in 0..4000 {
                let mask = match i % 3 {
                    0 => u32::MAX,
                    1 => rng.random::<u32>() | 1 << rng.random_range(0..32),
                    _ => 1 << rng.random_range(0..32),
                };
                let stride = [4u64, 8, 128, 132, 0][rng.random_range(0..5)];
                let base = rng.random_range(0..4096u64) * 4;
                let addrs: [u64; 32] = std::array::from_fn(|l| base + stride * l as u64);
                let width = [4u8, 8, 16][rng.random_range(0..3)];
                let side = if rng.random::<bool>() {
                    Side::Load
                } else {
                    Side::Store
                };
                let req = Request {
                    width,
                    mask,
                    addrs: &addrs,
                };
                let key = ShapeKey::of(side, &req, period).unwrap();
                // the request changed in one place (or not at all)
                let mut a2 = addrs;
                let (mut w2, mut m2, mut s2) = (width, mask, side);
                let lane = rng.random_range(0..32);
                match rng.random_range(0..8) {
                    0 => {}
                    1 => {
                        s2 = if side == Side::Load {
                            Side::Store
                        } else {
                            Side::Load
                        }
                    }
                    2 => w2 = if width == 4 { 8 } else { 4 },
                    3 => m2 ^= 1 << lane,
                    4 => a2 = std::array::from_fn(|l| addrs[l] + 4),
                    5 => a2 = std::array::from_fn(|l| addrs[l] + u64::from(period)),
                    6 => a2[lane] += 4,
                    _ => a2[lane] += 1 << 32,
                }
                if m2 == 0 {
                    continue;
                }
                let r2 = Request {
                    width: w2,
                    mask: m2,
                    addrs: &a2,
                };
                let want = ShapeKey::of(s2, &r2, period) == Some(key);
                assert_eq!(key.is(s2, &r2, period), want, "request {i}, period {period}");
                if want { same += 1 } else { differ += 1 }
            }
        }
        // both answers were exercised
        assert!(same > 1000 && differ > 1000, "{same} same, {differ} differ");
    }

    #[test]
    fn seed_patterns_through_the_model() {
        let c = |w: u8, f: fn(u64) -> u64| {
            let a: [u64; 32] = std::array::from_fn(|l| f(l as u64));
            cost(
                h100(),
                Side::Load,
                &Request {
                    width: w,
                    mask: u32::MAX,
                    addrs: &a,
                },
            )
            .unwrap()
        };
        assert_eq!(c(4, |l| 4 * l), (1, 1), "row");
        assert_eq!(c(4, |l| 128 * l), (32, 1), "column of int[32][32]");
        assert_eq!(c(4, |l| 132 * l), (1, 1), "column of int[32][33]");
        assert_eq!(c(4, |l| 64 * l), (16, 1), "column of int[32][16]");
        assert_eq!(c(1, |l| l), (1, 1), "char multicast");
        assert_eq!(c(8, |l| 8 * l), (2, 2), "double");
        assert_eq!(c(4, |_| 0), (1, 1), "broadcast");
        assert_eq!(c(4, |l| 128 * (l % 2)), (2, 1), "two words in one bank");
        assert_eq!(c(16, |l| 16 * l), (4, 4), "float4 row");
        assert_eq!(
            c(16, |l| 64 * (l / 16)),
            (2, 2),
            "matmul As row reads: two broadcast addresses"
        );
    }

    #[test]
    fn merge_keeps_the_worst_and_sums() {
        let recon = Arc::new(Reconciliation::ptx_level());
        let a: [u64; 32] = std::array::from_fn(|l| 4 * l as u64);
        let b: [u64; 32] = std::array::from_fn(|l| 128 * l as u64);
        let mut s0 = BankSink::new(0, h100(), recon.clone());
        s0.record(
            0,
            7,
            Side::Load,
            false,
            Request {
                width: 4,
                mask: u32::MAX,
                addrs: &a,
            },
        );
        let mut s1 = BankSink::new(1, h100(), recon);
        s1.record(
            3,
            7,
            Side::Load,
            false,
            Request {
                width: 4,
                mask: u32::MAX,
                addrs: &b,
            },
        );
        s1.record(
            3,
            9,
            Side::Store,
            true,
            Request {
                width: 4,
                mask: 1,
                addrs: &a,
            },
        );
        let mut r = s0.into_report();
        r.merge(s1.into_report());
        // the atomic (pc 9) is in neither side's total but in the atomics' own
        assert_eq!(
            r.total(Side::Load),
            Counts {
                instructions: 2,
                wavefronts: 33,
                ideal_wavefronts: 2,
                attributed_wavefronts: 33,
            }
        );
        assert_eq!(r.total(Side::Store), Counts::default());
        assert_eq!(
            r.atomic_total(),
            Counts {
                instructions: 1,
                wavefronts: 1,
                ideal_wavefronts: 1,
                attributed_wavefronts: 1,
            }
        );
        assert!(r.insts[&(9, Side::Store)].atomic && r.insts[&(9, Side::Load)].atomic);
        let w = r.insts[&(7, Side::Load)].worst.as_ref().unwrap();
        assert_eq!((w.block, w.warp, w.wavefronts), (1, 3, 32));
        assert_eq!(w.bank_words()[0].len(), 32);
        let p = picture(h100(), Side::Load, w).unwrap();
        assert_eq!(
            p.wavefronts.len(),
            32,
            "the reference path agrees with the fast path"
        );
    }

    #[test]
    fn per_lane_atomics_take_a_slot_per_lane() {
        // H100 (calibration/run/README.md, atomrows): ATOMS.MAX on 2 addresses of one bank, 16
        // lanes each: 32 wavefronts; on 4 addresses of 4 banks, 8 lanes each: 8; 32 banks: 1
        let two: [u64; 32] = std::array::from_fn(|l| 128 * (l as u64 & 1));
        let four: [u64; 32] = std::array::from_fn(|l| 4 * (l as u64 & 3));
        let spread: [u64; 32] = std::array::from_fn(|l| 4 * l as u64);
        for (a, want) in [(&two, 32), (&four, 8), (&spread, 1)] {
            let r = Request {
                width: 4,
                mask: u32::MAX,
                addrs: a,
            };
            assert_eq!(per_lane_cost(&r), Some((want, 1)));
        }
        // the load costing merges lanes of one word: 2, 1, 1
        assert_eq!(
            cost(
                h100(),
                Side::Load,
                &Request {
                    width: 4,
                    mask: u32::MAX,
                    addrs: &two
                }
            ),
            Some((2, 1))
        );
    }

    #[test]
    fn misaligned_requests_are_counted_apart() {
        let a: [u64; 32] = std::array::from_fn(|l| 4 * l as u64 + 2);
        let mut s = BankSink::new(0, h100(), Arc::new(Reconciliation::ptx_level()));
        s.record(
            0,
            1,
            Side::Load,
            false,
            Request {
                width: 4,
                mask: u32::MAX,
                addrs: &a,
            },
        );
        let r = s.into_report();
        assert_eq!((r.unmodelled, r.insts.len()), (1, 0));
    }
}

#[cfg(test)]
mod fused_layout_tests {
    use super::*;
    use crate::reconcile::{MachineAccess, PtxAccess, Reconciliation};
    use std::collections::HashMap;

    /// A look-back scan's shape: after the spin (`__any_sync` on predecessors' status words) and a
    /// barrier, every warp reads a warp-totals array `int warpTot[8]` declared after a 4-byte
    /// `tileId` (PTX: 8 `ld.shared.u32 [warpTot+4k]` on line 41; `warpTot` at byte 4 in ptxas's
    /// layout as in the emulation's). ptxas reads them with `LDS.128 [R31]` (`tileId` and
    /// `warpTot[0..3]`), `LDS.128 [R31+0x10]` and `LDS [R31+0x20]`: the H200 counted each once a
    /// warp, 2, 2 and 1 wavefronts (calibration/run/bench17/h200/lookback.sass.csv.gz).
    #[test]
    fn a_fused_group_of_a_variable_laid_out_off_its_width_is_counted() {
        let ptx: Vec<PtxAccess> = (0..8)
            .map(|k| PtxAccess {
                pc: 100 + k,
                line: 41,
                side: Some(Side::Load),
                width: 4,
                base: "warpTot".into(),
                offset: 4 * i64::from(k),
            })
            .collect();
        let machine: Vec<MachineAccess> = [(0, 16), (16, 16), (32, 4)]
            .iter()
            .map(|&(o, width)| MachineAccess {
                line: 41,
                side: Side::Load,
                width,
                base: "R31".into(),
                offset: o,
            })
            .collect();
        let placed = HashMap::from([("tileId".to_string(), 0), ("warpTot".to_string(), 4)]);
        let recon = Arc::new(Reconciliation::from_accesses_placed(
            &ptx,
            &machine,
            &HashMap::new(),
            &placed,
        ));
        let roles: Vec<Role> = (100..108).map(|pc| recon.role(pc)).collect();
        let (l, f) = (Role::Leader { width: 16 }, Role::Follower);
        assert_eq!(roles, [l, f, f, l, f, f, f, Role::Plain]);
        assert!(recon.unmatched_lines.is_empty(), "{:?}", recon.unmatched_lines);
        // without the layout the group is taken to start on the width: no fit, the line unmatched
        let unplaced = Reconciliation::from_accesses(&ptx, &machine);
        assert_ne!((100..108).map(|pc| unplaced.role(pc)).collect::<Vec<_>>(), roles);
        let arch = Arch::parse("sm_90").unwrap();
        let mut s = BankSink::new(0, arch, recon);
        // the emulation's layout: tileId at 0, warpTot at 4..36
        for k in 0..8u32 {
            let a: [u64; 32] = [4 + 4 * u64::from(k); 32];
            s.record(
                0,
                100 + k,
                Side::Load,
                false,
                Request {
                    width: 4,
                    mask: u32::MAX,
                    addrs: &a,
                },
            );
        }
        let r = s.into_report();
        assert_eq!(r.unmodelled, 0);
        let t = r.total(Side::Load);
        assert_eq!((t.instructions, t.wavefronts), (3, 5));
    }
}
