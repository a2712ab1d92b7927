//! `run_folded`: the blocks' sinks reach the accumulator in block order whatever the thread count,
//! the result equals `run`'s with its sinks folded afterwards, and only a bounded window of sinks is
//! alive at once (a grid's worth of per-block results is never held).

use std::sync::atomic::{AtomicUsize, Ordering};

use warpscope_emu::{Arg, Launch, Limits, Sink, Watch, run, run_folded};

/// Sinks alive now, and the most ever alive at once.
static ALIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// The tests count the sinks alive in the process: one test at a time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A sink that names its block and counts the warp instructions it saw; it counts itself alive.
struct Block {
    id: u32,
    insts: u64,
}

impl Block {
    fn new(id: u32) -> Block {
        let now = ALIVE.fetch_add(1, Ordering::SeqCst) + 1;
        PEAK.fetch_max(now, Ordering::SeqCst);
        Block { id, insts: 0 }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        ALIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Sink for Block {
    fn inst(&mut self, _warp: u32, _pc: u32, _active: warpscope_emu::LaneMask) {
        self.insts += 1;
    }
}

/// `out[i] = i * i` for the global thread index `i`, after a loop of `(blockIdx.x % 7) * 20`
/// rounds, so blocks finish out of order.
const KERNEL: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n\
 .reg .pred %p<2>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n\
 ld.param.u64 %rd1, [out];\n\
 mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n\
 mad.lo.s32 %r4, %r1, %r2, %r3;\n rem.u32 %r8, %r1, 7;\n mul.lo.u32 %r6, %r8, 20;\n mov.u32 %r7, 0;\n\
$L_loop:\n setp.ge.u32 %p1, %r7, %r6;\n @%p1 bra $L_done;\n add.u32 %r7, %r7, 1;\n bra $L_loop;\n\
$L_done:\n mul.lo.u32 %r5, %r4, %r4;\n mul.wide.s32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n\
 st.global.u32 [%rd3], %r5;\n ret;\n}\n";

const BLOCKS: u32 = 3000;

fn launch() -> Launch {
    Launch::new(
        [BLOCKS, 1, 1],
        [64, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * 64 * BLOCKS as usize])],
    )
}

#[test]
fn folded_sinks_come_in_block_order_equal_the_kept_ones_and_stay_few() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    // the reference: every sink kept, one thread
    let kept = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run(&prog, "k", &launch(), &Limits::default(), Block::new).unwrap());
    let want: Vec<(u32, u64)> = kept.sinks.iter().map(|s| (s.id, s.insts)).collect();
    assert_eq!(want.len(), BLOCKS as usize);
    assert!(want.iter().enumerate().all(|(i, &(id, _))| id == i as u32));
    let want_buffer = kept.buffer(0).unwrap().to_vec();
    assert_eq!(
        u32::from_le_bytes(want_buffer[4 * 1000..4 * 1001].try_into().unwrap()),
        1000 * 1000
    );
    drop(kept);
    for threads in [1, 2, 4] {
        PEAK.store(ALIVE.load(Ordering::SeqCst), Ordering::SeqCst);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let folded = pool.install(|| {
            run_folded(
                &prog,
                "k",
                &launch(),
                &Limits::default(),
                None,
                Block::new,
                None,
                Watch::default(),
                &Vec::new,
                &|acc: &mut Vec<(u32, u64)>, s: Block| acc.push((s.id, s.insts)),
            )
            .unwrap()
        });
        assert_eq!(folded.acc, want, "{threads} threads");
        assert_eq!(folded.buffer(0).unwrap(), &want_buffer[..], "{threads} threads");
        assert_eq!(folded.block_ids.len(), BLOCKS as usize);
        assert_eq!(folded.counters.blocks, u64::from(BLOCKS));
        // a window of at most 32 blocks per thread (two batches of 16 consecutive blocks; at
        // least 64), plus one being made per thread
        let peak = PEAK.load(Ordering::SeqCst);
        assert!(
            peak <= 64.max(32 * threads) + threads,
            "{threads} threads: {peak} sinks alive at once"
        );
    }
}

/// What a part of the launch folded: the blocks in the order `add` saw them, and the parts
/// combined (each part's blocks in order).
#[derive(Default)]
struct Parts {
    blocks: Vec<(u32, u64)>,
    parts: Vec<usize>,
}

#[test]
fn parts_fold_consecutive_blocks_and_combine_in_block_order() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let kept = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run(&prog, "k", &launch(), &Limits::default(), Block::new).unwrap());
    let want: Vec<(u32, u64)> = kept.sinks.iter().map(|s| (s.id, s.insts)).collect();
    let want_buffer = kept.buffer(0).unwrap().to_vec();
    drop(kept);
    for threads in [1, 2, 4, 7] {
        PEAK.store(ALIVE.load(Ordering::SeqCst), Ordering::SeqCst);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let folded = pool.install(|| {
            warpscope_emu::run_folded_parts(
                &prog,
                "k",
                &launch(),
                &Limits::default(),
                None,
                Block::new,
                None,
                Watch::default(),
                &Parts::default,
                &|acc: &mut Parts, s: Block| acc.blocks.push((s.id, s.insts)),
                &|acc: &mut Parts, p: Parts| {
                    // a part is a run of consecutive blocks that follows the ones combined so far
                    assert!(p.parts.is_empty(), "a part is combined only into the launch's");
                    let next = acc.blocks.len() as u32;
                    assert!(
                        p.blocks.iter().enumerate().all(|(i, b)| b.0 == next + i as u32),
                        "{threads} threads: part at {next} holds {:?}",
                        p.blocks.iter().map(|b| b.0).collect::<Vec<_>>()
                    );
                    acc.parts.push(p.blocks.len());
                    acc.blocks.extend(p.blocks);
                },
            )
            .unwrap()
        });
        assert_eq!(folded.acc.blocks, want, "{threads} threads");
        assert_eq!(folded.buffer(0).unwrap(), &want_buffer[..], "{threads} threads");
        assert_eq!(folded.counters.blocks, u64::from(BLOCKS));
        // 3000 blocks: parts of 64 (the last shorter) on 1 or 2 threads (at least four parts a
        // thread), of 3000 / 28 = 107 -> 64 on 7
        let parts = &folded.acc.parts;
        assert_eq!(parts.iter().sum::<usize>(), BLOCKS as usize);
        assert!(
            parts[..parts.len() - 1].iter().all(|&n| n == 64),
            "{threads} threads: {parts:?}"
        );
        // sinks alive: one being made or folded per thread
        let peak = PEAK.load(Ordering::SeqCst);
        assert!(
            peak <= 2 * threads,
            "{threads} threads: {peak} sinks alive at once"
        );
    }
}

/// A sink that goes on to the next blocks of its part ([`Sink::next_block`]) unless the next
/// block's id is a multiple of `refuse` (then the block gets a sink of its own): it keeps each
/// block's id and warp instructions.
struct Span {
    blocks: Vec<(u32, u64)>,
    refuse: u32,
}

impl Sink for Span {
    fn inst(&mut self, _warp: u32, _pc: u32, _active: warpscope_emu::LaneMask) {
        self.blocks.last_mut().expect("a block").1 += 1;
    }

    fn next_block(&mut self, block: u32) -> bool {
        if block.is_multiple_of(self.refuse) {
            return false;
        }
        self.blocks.push((block, 0));
        true
    }
}

#[test]
fn a_sink_that_goes_on_counts_its_part_and_equals_a_sink_per_block() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let kept = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run(&prog, "k", &launch(), &Limits::default(), Block::new).unwrap());
    let want: Vec<(u32, u64)> = kept.sinks.iter().map(|s| (s.id, s.insts)).collect();
    let want_buffer = kept.buffer(0).unwrap().to_vec();
    drop(kept);
    // never refused (one sink per part), and every tenth block refused (a sink of its own)
    for refuse in [u32::MAX, 10] {
        for threads in [1, 2, 4, 7] {
            let made = AtomicUsize::new(0);
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let folded = pool.install(|| {
                warpscope_emu::run_folded_parts(
                    &prog,
                    "k",
                    &launch(),
                    &Limits::default(),
                    None,
                    |b| {
                        made.fetch_add(1, Ordering::Relaxed);
                        Span {
                            blocks: vec![(b, 0)],
                            refuse,
                        }
                    },
                    None,
                    Watch::default(),
                    &Parts::default,
                    &|acc: &mut Parts, s: Span| {
                        // a sink's blocks are consecutive, after those folded before it
                        let next = acc.blocks.last().map_or(s.blocks[0].0, |b| b.0 + 1);
                        assert!(
                            s.blocks.iter().enumerate().all(|(i, b)| b.0 == next + i as u32),
                            "{threads} threads: a sink from {next} holds {:?}",
                            s.blocks.iter().map(|b| b.0).collect::<Vec<_>>()
                        );
                        acc.parts.push(s.blocks.len());
                        acc.blocks.extend(s.blocks);
                    },
                    &|acc: &mut Parts, p: Parts| {
                        let next = acc.blocks.len() as u32;
                        assert_eq!(p.blocks.first().map(|b| b.0), Some(next), "{threads} threads");
                        acc.parts.extend(p.parts);
                        acc.blocks.extend(p.blocks);
                    },
                )
                .unwrap()
            });
            assert_eq!(folded.acc.blocks, want, "{threads} threads, refuse {refuse}");
            assert_eq!(folded.buffer(0).unwrap(), &want_buffer[..], "{threads} threads");
            assert_eq!(folded.counters.blocks, u64::from(BLOCKS));
            let sinks = made.load(Ordering::Relaxed);
            assert_eq!(
                sinks,
                folded.acc.parts.len(),
                "{threads} threads: every sink folded once"
            );
            // parts of 64 consecutive blocks (the last shorter): one sink each, or with every
            // tenth block refused, a new sink at each part's start and at each multiple of ten
            let parts = (BLOCKS as usize).div_ceil(64);
            if refuse == u32::MAX {
                assert_eq!(sinks, parts, "{threads} threads");
            } else {
                let starts: std::collections::BTreeSet<usize> = (0..parts)
                    .map(|p| p * 64)
                    .chain((0..BLOCKS as usize).step_by(10))
                    .collect();
                assert_eq!(sinks, starts.len(), "{threads} threads");
            }
        }
    }
}
