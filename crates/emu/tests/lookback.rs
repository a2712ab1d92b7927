//! Decoupled look-back, as CUB's single-pass scans do it: each block waits with a relaxed load of
//! global memory until the block before it has published its result, then publishes its own. A
//! plain launch gives no order between blocks, but the GPU starts them in block order, so a block
//! only ever waits for blocks that run. The emulator runs such a launch in block order from the
//! start: a block that polls other blocks' memory never waits on one that has not run (in a
//! parallel first attempt it would spin until the instruction limit before the launch ran again
//! in block order).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use warpscope_emu::{Arg, Launch, Limits, Sink, run};

/// Block `b`'s thread 0 waits for `flags[b - 1] != 0` (relaxed loads, `nanosleep` between tries),
/// then stores `flags[b - 1] + 1` into `flags[b]`; the block's other warps wait at a barrier.
const LOOKBACK: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry lookback(.param .u64 flags)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [flags];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %tid.x;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra BAR;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r3, 0;
    setp.eq.u32 %p2, %r1, 0;
    @%p2 bra PUB;
WAIT:
    ld.relaxed.gpu.global.u32 %r3, [%rd3+-4];
    setp.ne.u32 %p3, %r3, 0;
    @%p3 bra PUB;
    mov.u32 %r5, 100;
    nanosleep.u32 %r5;
    bra.uni WAIT;
PUB:
    add.s32 %r4, %r3, 1;
    st.relaxed.gpu.global.u32 [%rd3], %r4;
BAR:
    bar.sync 0;
    ret;
}
"#;

/// Records whether any block of the launch ran beside others (`block_order(false)`).
struct Order<'a>(&'a AtomicBool);

impl Sink for Order<'_> {
    fn block_order(&mut self, in_order: bool) {
        if !in_order {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

fn lookback(blocks: u32, threads: usize) -> (Vec<u32>, u64, bool) {
    let prog = warpscope_ptx::compile(LOOKBACK).unwrap();
    let l = Launch::new(
        [blocks, 1, 1],
        [128, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * blocks as usize])],
    );
    let limits = Limits {
        max_warp_insts_per_block: 1 << 16,
        ..Limits::default()
    };
    let parallel = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let res = Mutex::new(None);
    pool.install(|| {
        *res.lock().unwrap() = Some(run(&prog, "lookback", &l, &limits, |_| Order(&parallel)).unwrap());
    });
    let res = res.into_inner().unwrap().unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let flags = res
        .buffer(0)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (flags, res.counters.warp_insts, parallel.load(Ordering::Relaxed))
}

#[test]
fn every_block_sees_the_one_before_it() {
    for threads in [1, 2, 8] {
        let (flags, _, _) = lookback(300, threads);
        let want: Vec<u32> = (1..=300).collect();
        assert_eq!(flags, want, "{threads} threads");
    }
}

#[test]
fn a_launch_that_polls_other_blocks_runs_in_block_order_from_the_start() {
    let (_, one, _) = lookback(300, 1);
    for threads in [2, 8] {
        let (_, insts, parallel) = lookback(300, threads);
        assert!(!parallel, "{threads} threads: blocks ran in parallel");
        // every block found the one before it done: one try each, the same work as one thread
        assert_eq!(insts, one, "{threads} threads");
    }
}
