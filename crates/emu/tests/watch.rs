//! `run_watched`: the blocks-done counter and the deadline. The counter ends at the blocks run;
//! a deadline that passes leaves the first blocks run (a prefix in block order), says so
//! (`RunResult::stopped`) and leaves the other blocks' stores undone; a deadline that does not pass
//! changes nothing.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use warpscope_emu::{Arg, Launch, Limits, Sink, Watch, run, run_watched};

/// A sink that only names its block.
#[derive(Debug, PartialEq)]
struct Block(u32);

impl Sink for Block {}

/// `out[blockIdx.x * blockDim.x + threadIdx.x] = that index + 1`, after `spin` rounds of an add.
const STORE: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 out, .param .u32 spin)\n{\n\
 .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n\
 ld.param.u64 %rd1, [out];\n ld.param.u32 %r6, [spin];\n\
 mov.u32 %r1, %ctaid.x;\n mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %tid.x;\n\
 mad.lo.s32 %r4, %r1, %r2, %r3;\n mov.u32 %r7, 0;\n\
$L_loop:\n setp.ge.u32 %p1, %r7, %r6;\n @%p1 bra $L_done;\n add.u32 %r7, %r7, 1;\n bra $L_loop;\n\
$L_done:\n add.s32 %r5, %r4, 1;\n mul.wide.s32 %rd2, %r4, 4;\n add.s64 %rd3, %rd1, %rd2;\n\
 st.global.u32 [%rd3], %r5;\n ret;\n}\n";

const BLOCKS: u32 = 64;

fn launch(spin: u32) -> Launch {
    Launch::new(
        [BLOCKS, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * 32 * BLOCKS as usize]), Arg::U32(spin)],
    )
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn the_counter_ends_at_the_blocks_run_and_a_far_deadline_changes_nothing() {
    let prog = warpscope_ptx::compile(STORE).unwrap();
    let plain = run(&prog, "k", &launch(10), &Limits::default(), Block).unwrap();
    let done = AtomicU64::new(0);
    let watched = run_watched(
        &prog,
        "k",
        &launch(10),
        &Limits::default(),
        None,
        Block,
        None,
        Watch {
            done: Some(&done),
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
        },
    )
    .unwrap();
    assert_eq!(done.load(Ordering::Relaxed), u64::from(BLOCKS));
    assert!(!watched.stopped && !plain.stopped);
    assert_eq!(watched.block_ids, plain.block_ids);
    assert_eq!(watched.sinks, plain.sinks);
    assert_eq!(watched.buffer(0), plain.buffer(0));
    assert_eq!(watched.counters, plain.counters);
}

#[test]
fn a_passed_deadline_runs_a_prefix_of_the_blocks_and_says_so() {
    let prog = warpscope_ptx::compile(STORE).unwrap();
    let done = AtomicU64::new(0);
    // a deadline already passed: the first block runs, and at most one more per worker thread
    let r = run_watched(
        &prog,
        "k",
        &launch(2000),
        &Limits::default(),
        None,
        Block,
        None,
        Watch {
            done: Some(&done),
            deadline: Some(Instant::now()),
        },
    )
    .unwrap();
    let ran = r.block_ids.len();
    assert!(r.stopped);
    assert!(
        ran >= 1 && ran <= rayon::current_num_threads().max(1),
        "{ran} blocks ran"
    );
    assert_eq!(r.block_ids, (0..ran as u32).collect::<Vec<_>>());
    assert_eq!(r.sinks, r.block_ids.iter().map(|&b| Block(b)).collect::<Vec<_>>());
    assert_eq!(done.load(Ordering::Relaxed), ran as u64);
    assert_eq!(r.counters.blocks, ran as u64);
    let out = words(r.buffer(0).unwrap());
    for (i, w) in out.iter().enumerate() {
        let want = if i < 32 * ran { i as u32 + 1 } else { 0 };
        assert_eq!(*w, want, "word {i}");
    }
}

#[test]
fn a_passed_deadline_folded_in_parts_runs_a_prefix_too() {
    let prog = warpscope_ptx::compile(STORE).unwrap();
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| {
            warpscope_emu::run_folded_parts(
                &prog,
                "k",
                &launch(2000),
                &Limits::default(),
                None,
                Block,
                None,
                Watch {
                    done: None,
                    deadline: Some(Instant::now()),
                },
                &Vec::new,
                &|v: &mut Vec<u32>, s: Block| v.push(s.0),
                &|v: &mut Vec<u32>, p: Vec<u32>| v.extend(p),
            )
            .unwrap()
        });
        let ran = r.block_ids.len();
        assert!(r.stopped, "{threads} threads");
        assert!(ran >= 1 && ran <= threads, "{threads} threads: {ran} blocks ran");
        assert_eq!(r.acc, (0..ran as u32).collect::<Vec<_>>());
        let out = words(r.buffer(0).unwrap());
        assert!(
            out.iter()
                .enumerate()
                .all(|(i, &w)| w == if i < 32 * ran { i as u32 + 1 } else { 0 })
        );
    }
}
