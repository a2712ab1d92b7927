//! `GlobalCounts::record_run` (a whole warp already known to be one run) against
//! `GlobalCounts::record` of the same lanes.

use warpscope_analysis::global::GlobalCounts;
use warpscope_emu::AccessOp;

fn run(a0: u64, w: u64) -> [u64; 32] {
    std::array::from_fn(|l| a0.wrapping_add(l as u64 * w))
}

#[test]
fn runs_count_what_their_lanes_do() {
    // start addresses: aligned, unaligned, near the top of the address space (wrapping runs)
    let mut starts = vec![
        0u64,
        4,
        28,
        31,
        32,
        96,
        0x7fff_0000_0004,
        u64::MAX - 127,
        u64::MAX - 128,
    ];
    starts.extend([u64::MAX - 3, u64::MAX, u64::MAX - 4095, u64::MAX - 4096]);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // low addresses, small offsets, and the whole range
        starts.push(match x % 3 {
            0 => x >> 40,
            1 => x % 4096,
            _ => x,
        });
    }
    for width in [1u8, 2, 4, 8, 16, 32, 64] {
        for &a0 in &starts {
            let addrs = run(a0, u64::from(width));
            for op in [AccessOp::Load, AccessOp::Store] {
                let (mut fast, mut lanes) = (GlobalCounts::default(), GlobalCounts::default());
                fast.record_run(op, width, &addrs);
                lanes.record(op, width, u32::MAX, &addrs);
                assert_eq!(fast, lanes, "width {width}, first address {a0:#x}, {op:?}");
            }
        }
    }
}

#[test]
fn run_sectors_by_hand() {
    let mut g = GlobalCounts::default();
    // 128 bytes from 0: sectors 0..=3
    g.record_run(AccessOp::Load, 4, &run(0, 4));
    assert_eq!((g.ld_requests, g.ld_sectors, g.ld_bytes), (1, 4, 128));
    // 128 bytes from 4: bytes 4..=131, sectors 0..=4
    g.record_run(AccessOp::Load, 4, &run(4, 4));
    assert_eq!((g.ld_requests, g.ld_sectors, g.ld_bytes), (2, 9, 256));
    // 256 bytes from 16: bytes 16..=271, sectors 0..=8
    g.record_run(AccessOp::Store, 8, &run(16, 8));
    assert_eq!((g.st_requests, g.st_sectors, g.st_bytes), (1, 9, 256));
}
