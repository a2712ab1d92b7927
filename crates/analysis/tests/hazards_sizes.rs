//! The shared-memory checker on strong accesses of different sizes: two atomics (or two strong
//! accesses of different warps) never race only when they overlap completely (the PTX memory
//! model's morally strong operations). An 8-byte and a 4-byte atomic on the same bytes race; two
//! atomics of one size do not; a 4-element vector access counts element by element.

use std::sync::Arc;

use warpscope_analysis::global_races::SyncOps;
use warpscope_analysis::hazards::{FindingKind, HazardConfig, HazardReport, HazardSink, Loc, SharedRegion};
use warpscope_emu::{AccessOp, MemEvent, Sink, Space};

const PTX: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    atom.shared.add.u64 %rd1, [%r1], %rd2;
    atom.shared.add.u32 %r2, [%r1], %r3;
    st.volatile.shared.u32 [%r1], %r2;
    ld.volatile.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r1];
    ld.volatile.shared.u64 %rd1, [%r1];
    ret;
}
"#;

const ATOM64: u32 = 0;
const ATOM32: u32 = 1;
const ST_VOL32: u32 = 2;
const LD_VOL_V4: u32 = 3;
const LD_VOL64: u32 = 4;

/// A block of two warps; each access is one lane's at shared byte 0. `(tid, pc, op, width)`.
fn races(accesses: &[(u32, u32, AccessOp, u8)]) -> Vec<Vec<u32>> {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let k = prog.kernel("k").unwrap();
    let ops = Arc::new(SyncOps::of_range(&prog, k.entry, k.end));
    let cfg = Arc::new(HazardConfig {
        block_dim: [64, 1, 1],
        shared_size: 16,
        regions: vec![SharedRegion {
            name: "s".into(),
            offset: 0,
            size: 16,
        }],
        cluster_peers: false,
    });
    let mut sink = HazardSink::new(Arc::clone(&cfg), 0).with_sync_ops(ops);
    let addrs = [0u64; 32];
    for &(tid, pc, op, width) in accesses {
        sink.mem(&MemEvent {
            block: 0,
            warp: tid / 32,
            pc,
            space: Space::Shared,
            op,
            width,
            mask: 1 << (tid % 32),
            addrs: &addrs,
            src: None,
        });
    }
    sink.warp_exit(0);
    sink.warp_exit(1);
    let mut rep = HazardReport::new(Arc::clone(&cfg));
    rep.merge(sink);
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

#[test]
fn atomics_of_different_sizes_on_one_word_race() {
    use AccessOp::Atomic;
    assert_eq!(
        races(&[(0, ATOM64, Atomic, 8), (32, ATOM32, Atomic, 4)]),
        [vec![ATOM64, ATOM32]]
    );
    // in one warp too
    assert_eq!(
        races(&[(1, ATOM32, Atomic, 4), (0, ATOM64, Atomic, 8)]),
        [vec![ATOM32, ATOM64]]
    );
    assert!(races(&[(0, ATOM64, Atomic, 8), (32, ATOM64, Atomic, 8)]).is_empty());
    assert!(races(&[(0, ATOM32, Atomic, 4), (33, ATOM32, Atomic, 4)]).is_empty());
}

#[test]
fn strong_accesses_count_element_by_element() {
    use AccessOp::{Load, Store};
    // a 4-byte volatile store and another warp's 4 x 4-byte volatile vector load: no race
    assert!(races(&[(0, ST_VOL32, Store, 4), (32, LD_VOL_V4, Load, 16)]).is_empty());
    // against an 8-byte volatile load: a race
    assert_eq!(
        races(&[(0, ST_VOL32, Store, 4), (32, LD_VOL64, Load, 8)]),
        [vec![ST_VOL32, LD_VOL64]]
    );
}
