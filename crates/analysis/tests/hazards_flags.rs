//! The shared-memory checker with strong accesses and release/acquire followed within a block
//! (`HazardSink::with_sync_ops`), on hand-written event sequences over the instructions of a
//! small PTX program: two strong accesses of different warps never race, a strong and a plain
//! access do; a release (a fence, then a strong write of a flag) acquired by another thread (a
//! strong read of the flag, then a fence; or an acquire operation) orders the plain accesses
//! before the release before those after the acquire, and a plain read of the flag or a missing
//! fence orders nothing; another thread's atomic that a hidden store and its thread's atomic
//! crowd out of the cell still races with a later plain read.

use std::sync::Arc;

use warpscope_analysis::global_races::SyncOps;
use warpscope_analysis::hazards::{FindingKind, HazardConfig, HazardReport, HazardSink, Loc, SharedRegion};
use warpscope_emu::{AccessOp, BarrierEvent, BarrierKind, MemEvent, Sink, Space};

/// The instructions the events name, by pc.
const PTX: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    st.shared.u32 [%r1], %r2;
    ld.shared.u32 %r2, [%r1];
    st.volatile.shared.u32 [%r1], %r2;
    ld.volatile.shared.u32 %r2, [%r1];
    membar.cta;
    st.release.cta.shared.u32 [%r1], %r2;
    ld.acquire.cta.shared.u32 %r2, [%r1];
    st.volatile.global.u32 [%rd1], %r2;
    ld.volatile.global.u32 %r2, [%rd1];
    atom.relaxed.cta.shared.add.u32 %r2, [%r1], %r3;
    atom.relaxed.cta.shared.add.u32 %r2, [%r1], %r3;
    ret;
}
"#;

const ST: u32 = 0;
const LD: u32 = 1;
const ST_VOL: u32 = 2;
const LD_VOL: u32 = 3;
const FENCE: u32 = 4;
const ST_REL: u32 = 5;
const LD_ACQ: u32 = 6;
const ST_VOL_G: u32 = 7;
const LD_VOL_G: u32 = 8;
const ATOM: u32 = 9;
const ATOM2: u32 = 10;

/// Shared bytes 0-127 data, 128 the flag; global flag at 0x1000.
const DATA: u64 = 0;
const FLAG: u64 = 128;
const GFLAG: u64 = 0x1000;

struct Block {
    sink: HazardSink,
    cfg: Arc<HazardConfig>,
}

impl Block {
    fn new() -> Block {
        let prog = warpscope_ptx::compile(PTX).unwrap();
        let k = prog.kernel("k").unwrap();
        let ops = Arc::new(SyncOps::of_range(&prog, k.entry, k.end));
        assert!(ops.orders_within_block());
        let cfg = Arc::new(HazardConfig {
            block_dim: [64, 1, 1],
            shared_size: 132,
            regions: vec![SharedRegion {
                name: "s".into(),
                offset: 0,
                size: 132,
            }],
            cluster_peers: false,
        });
        let base = k.entry;
        assert_eq!(base, 0);
        Block {
            sink: HazardSink::new(Arc::clone(&cfg), 0).with_sync_ops(ops),
            cfg,
        }
    }

    /// One lane (`tid`) accesses 4 bytes at `addr`.
    fn mem(&mut self, tid: u32, pc: u32, op: AccessOp, space: Space, addr: u64) {
        let addrs = [addr; 32];
        self.sink.mem(&MemEvent {
            block: 0,
            warp: tid / 32,
            pc,
            space,
            op,
            width: 4,
            mask: 1 << (tid % 32),
            addrs: &addrs,
            src: None,
        });
    }

    fn st(&mut self, tid: u32, pc: u32, addr: u64) {
        self.mem(tid, pc, AccessOp::Store, Space::Shared, addr);
    }

    fn ld(&mut self, tid: u32, pc: u32, addr: u64) {
        self.mem(tid, pc, AccessOp::Load, Space::Shared, addr);
    }

    fn fence(&mut self, tid: u32) {
        Sink::inst(&mut self.sink, tid / 32, FENCE, 1 << (tid % 32));
    }

    fn syncwarp(&mut self, warp: u32) {
        Sink::barrier(
            &mut self.sink,
            &BarrierEvent {
                block: 0,
                warp,
                pc: 99,
                active: u32::MAX,
                id: u32::MAX,
                kind: BarrierKind::Warp,
            },
        );
    }

    /// The barrier instructions reported removable.
    fn redundant(mut self) -> Vec<u32> {
        self.sink.warp_exit(0);
        self.sink.warp_exit(1);
        let mut rep = HazardReport::new(Arc::clone(&self.cfg));
        rep.merge(self.sink);
        rep.redundant_barriers()
    }

    /// The race findings' instruction pairs.
    fn races(mut self) -> Vec<Vec<u32>> {
        self.sink.warp_exit(0);
        self.sink.warp_exit(1);
        let mut rep = HazardReport::new(Arc::clone(&self.cfg));
        rep.merge(self.sink);
        let loc = |pc: u32| Loc {
            line: Some(pc + 100),
            label: format!("line {}", pc + 100),
        };
        rep.findings(&loc)
            .into_iter()
            .filter(|f| f.kind == FindingKind::Race)
            .map(|f| f.pcs)
            .collect()
    }
}

#[test]
fn strong_accesses_of_two_warps_never_race_a_strong_and_a_plain_one_do() {
    let mut b = Block::new();
    b.st(32, ST_VOL, FLAG);
    b.ld(0, LD_VOL, FLAG);
    b.st(0, ST_VOL, FLAG);
    assert!(b.races().is_empty());

    let mut b = Block::new();
    b.st(32, ST_VOL, FLAG);
    b.ld(0, LD, FLAG);
    assert_eq!(b.races(), [vec![ST_VOL, LD]]);
}

#[test]
fn strong_accesses_of_lanes_of_one_warp_race_without_syncwarp() {
    // warp-synchronous code relying on lock step (volatile, no __syncwarp)
    let mut b = Block::new();
    b.st(5, ST_VOL, FLAG);
    b.ld(0, LD_VOL, FLAG);
    assert_eq!(b.races(), [vec![ST_VOL, LD_VOL]]);
}

/// Warp 1's lane 0 writes the data, (fences), sets the flag; warp 0's lane 0 reads the flag,
/// (fences), reads the data.
fn handoff(writer_fence: bool, flag_write: u32, flag_read: u32, reader_fence: bool) -> Vec<Vec<u32>> {
    let mut b = Block::new();
    b.st(32, ST, DATA);
    if writer_fence {
        b.fence(32);
    }
    b.st(32, flag_write, FLAG);
    b.ld(0, flag_read, FLAG);
    if reader_fence {
        b.fence(0);
    }
    b.ld(0, LD, DATA);
    b.races()
}

#[test]
fn a_fenced_volatile_flag_orders_the_data() {
    assert!(handoff(true, ST_VOL, LD_VOL, true).is_empty());
}

#[test]
fn release_and_acquire_operations_order_the_data() {
    assert!(handoff(false, ST_REL, LD_ACQ, false).is_empty());
    assert!(handoff(true, ST_VOL, LD_ACQ, false).is_empty());
    assert!(handoff(false, ST_REL, LD_VOL, true).is_empty());
}

#[test]
fn a_missing_fence_or_a_plain_flag_read_orders_nothing() {
    let race = [vec![ST, LD]];
    assert_eq!(handoff(false, ST_VOL, LD_VOL, true), race, "no release");
    assert_eq!(handoff(true, ST_VOL, LD_VOL, false), race, "no acquire");
    // (the flag's plain access races with the other side's strong one too)
    assert_eq!(
        handoff(true, ST_VOL, LD, true),
        [vec![ST, LD], vec![ST_VOL, LD]],
        "a plain read of the flag"
    );
    assert_eq!(
        handoff(true, ST, LD_VOL, true),
        [vec![ST, LD], vec![ST, LD_VOL]],
        "a plain write of the flag"
    );
}

#[test]
fn a_write_after_the_release_is_not_covered() {
    let mut b = Block::new();
    b.fence(32);
    b.st(32, ST_VOL, FLAG);
    b.st(32, ST, DATA);
    b.ld(0, LD_VOL, FLAG);
    b.fence(0);
    b.ld(0, LD, DATA);
    assert_eq!(b.races(), [vec![ST, LD]]);
}

#[test]
fn syncwarp_carries_a_release_and_an_acquire_to_the_other_lanes() {
    // lane 33 writes, warp 1 synchronises, lane 32 releases; lane 0 acquires, warp 0
    // synchronises, lane 7 reads
    let mut b = Block::new();
    b.st(33, ST, DATA);
    b.syncwarp(1);
    b.fence(32);
    b.st(32, ST_VOL, FLAG);
    b.ld(0, LD_VOL, FLAG);
    b.fence(0);
    b.syncwarp(0);
    b.ld(7, LD, DATA);
    assert!(b.races().is_empty());

    // without warp 0's __syncwarp, lane 7 has acquired nothing
    let mut b = Block::new();
    b.st(33, ST, DATA);
    b.syncwarp(1);
    b.fence(32);
    b.st(32, ST_VOL, FLAG);
    b.ld(0, LD_VOL, FLAG);
    b.fence(0);
    b.ld(7, LD, DATA);
    assert_eq!(b.races(), [vec![ST, LD]]);
}

#[test]
fn a_global_flag_orders_shared_data_and_chains_are_followed() {
    let mut b = Block::new();
    b.st(32, ST, DATA);
    b.fence(32);
    b.mem(32, ST_VOL_G, AccessOp::Store, Space::Global, GFLAG);
    b.mem(0, LD_VOL_G, AccessOp::Load, Space::Global, GFLAG);
    b.fence(0);
    b.ld(0, LD, DATA);
    assert!(b.races().is_empty());

    // thread 32 -> thread 0 -> thread 1 (of warp 0, no __syncwarp): 1 acquires 0's release,
    // which carries what 0 acquired from 32
    let mut b = Block::new();
    b.st(32, ST, DATA);
    b.fence(32);
    b.st(32, ST_VOL, FLAG);
    b.ld(0, LD_VOL, FLAG);
    b.fence(0);
    b.mem(0, ST_VOL_G, AccessOp::Store, Space::Global, GFLAG);
    b.mem(1, LD_VOL_G, AccessOp::Load, Space::Global, GFLAG);
    b.fence(1);
    b.ld(1, LD, DATA);
    assert!(b.races().is_empty());
}

#[test]
fn a_barrier_ends_what_a_flag_carried() {
    // the release is of the epoch before the barrier: a read of the flag after it acquires
    // nothing new, and a write after the barrier still races with an unordered read
    let mut b = Block::new();
    b.fence(32);
    b.st(32, ST_VOL, FLAG);
    Sink::barrier_release(&mut b.sink, 0, 50, 1);
    b.st(32, ST, DATA);
    b.ld(0, LD_VOL, FLAG);
    b.fence(0);
    b.ld(0, LD, DATA);
    assert_eq!(b.races(), [vec![ST, LD]]);
}

#[test]
fn a_barrier_between_strong_accesses_of_two_warps_is_needed() {
    // warp 1 writes, warp 0 reads the same bytes, both volatile: no data race with or without the
    // barrier, but the barrier decides which value warp 0 reads, so it is not removable
    let mut b = Block::new();
    b.st(32, ST_VOL, DATA);
    Sink::barrier_release(&mut b.sink, 0, 50, 1);
    b.ld(0, LD_VOL, DATA);
    assert!(b.redundant().is_empty());
    // the same accesses to different bytes: nothing for the barrier to order
    let mut b = Block::new();
    b.st(32, ST_VOL, DATA);
    Sink::barrier_release(&mut b.sink, 0, 50, 1);
    b.ld(0, LD_VOL, DATA + 4);
    assert_eq!(b.redundant(), [50]);
}

#[test]
fn a_read_before_a_barrier_still_needs_it_after_the_writer_re_read_its_element() {
    // thread 0 reads thread 1's element, a barrier, thread 1 reads its element again and writes
    // it: the write conflicts with thread 0's read, which only the first barrier orders
    let mut b = Block::new();
    b.ld(0, LD, DATA + 4);
    b.ld(1, LD, DATA + 4);
    Sink::barrier_release(&mut b.sink, 0, 50, 1);
    b.ld(1, LD, DATA + 4);
    b.st(1, ST, DATA + 4);
    Sink::barrier_release(&mut b.sink, 0, 60, 2);
    b.ld(1, LD, DATA + 4);
    assert_eq!(b.redundant(), [60]);
}

/// Thread 0 stores a word plainly and then by a strong store in one barrier interval (a counter
/// it initialises, then updates as the others do): the plain store is kept aside and checked
/// against other threads' strong accesses. Thread 32's strong load is not ordered after it: the
/// race names the plain store, not the strong one.
#[test]
fn a_plain_store_hidden_by_its_threads_strong_store_races_with_another_warps_strong_load() {
    let mut b = Block::new();
    b.st(0, ST, DATA);
    b.st(0, ST_VOL, DATA);
    b.ld(32, LD_VOL, DATA);
    assert_eq!(b.races(), [vec![ST, LD_VOL]]);
}

/// The same after a lane of thread 0's warp, ordered by `__syncwarp()`, stored strongly too: the
/// hidden store stays past that ordered write, and thread 32's strong load still races with it.
#[test]
fn a_hidden_plain_store_stays_past_another_threads_ordered_strong_store() {
    let mut b = Block::new();
    b.st(0, ST, DATA);
    b.st(0, ST_VOL, DATA);
    b.syncwarp(0);
    b.st(1, ST_VOL, DATA);
    b.ld(32, LD_VOL, DATA);
    assert_eq!(b.races(), [vec![ST, LD_VOL]]);
}

/// Its look-alike: thread 0 fences after both stores and sets the flag; thread 32 reads the flag
/// and fences before its strong load, which is so ordered after the plain store: no race.
#[test]
fn a_hidden_plain_store_released_by_a_flag_is_no_race() {
    let mut b = Block::new();
    b.st(0, ST, DATA);
    b.st(0, ST_VOL, DATA);
    b.fence(0);
    b.st(0, ST_VOL, FLAG);
    b.syncwarp(0);
    b.st(1, ST_VOL, DATA);
    b.ld(32, LD_VOL, FLAG);
    b.fence(32);
    b.ld(32, LD_VOL, DATA);
    assert!(b.races().is_empty());
}

/// Thread 0 stores the data word, releases the flag, then adds to the word atomically (`ATOM`,
/// after the release unless `atom_first`); thread 32 acquires the flag, adds (`ATOM2`) and releases
/// a second flag; thread 1 acquires that and reads the word. The read is ordered after thread 0's
/// store and thread 32's atomic, not after an `ATOM` that came after thread 0's release: they
/// race. The word's cell holds the store (hidden by its thread's atomic) and thread 32's atomic;
/// thread 0's atomic is kept beside it (it was lost, and the race missed).
fn atomic_past_a_hidden_store(atom_first: bool) -> Vec<Vec<u32>> {
    const FLAG2: u64 = 64;
    let mut b = Block::new();
    b.st(0, ST, DATA);
    if atom_first {
        b.mem(0, ATOM, AccessOp::Atomic, Space::Shared, DATA);
    }
    b.st(0, ST_REL, FLAG);
    if !atom_first {
        b.mem(0, ATOM, AccessOp::Atomic, Space::Shared, DATA);
    }
    b.ld(32, LD_ACQ, FLAG);
    b.mem(32, ATOM2, AccessOp::Atomic, Space::Shared, DATA);
    b.st(32, ST_REL, FLAG2);
    b.ld(1, LD_ACQ, FLAG2);
    b.ld(1, LD, DATA);
    b.races()
}

#[test]
fn another_threads_atomic_past_a_hidden_store_still_races_with_a_later_read() {
    assert_eq!(atomic_past_a_hidden_store(false), [vec![ATOM, LD]]);
    assert!(atomic_past_a_hidden_store(true).is_empty());
}
