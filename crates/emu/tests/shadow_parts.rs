//! The determinism shadow on launches folded in parts: a part's blocks run one after another in
//! block order on one thread, so words that only the blocks of one part share (here: a counter
//! each block of a group of 64 bumps with an atomic, keeping the value it drew) do not make the
//! launch run again, and the values drawn are those of block order; groups that straddle parts
//! make it run again in block order, with the same values.

use std::sync::Mutex;

use warpscope_emu::{Arg, Launch, Limits, Sink, Watch};

/// Block `b` adds 1 to counter `(b + shift) / 64` with `atom.global.add` and stores the value it
/// drew at `out[b]`.
const KERNEL: &str = ".version 9.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 cnt, .param .u64 out, .param .u32 shift)\n{\n\
 .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n\
 ld.param.u64 %rd1, [cnt];\n ld.param.u64 %rd2, [out];\n ld.param.u32 %r1, [shift];\n\
 mov.u32 %r2, %ctaid.x;\n add.u32 %r3, %r2, %r1;\n shr.u32 %r3, %r3, 6;\n\
 mul.wide.u32 %rd3, %r3, 4;\n add.s64 %rd4, %rd1, %rd3;\n atom.global.add.u32 %r4, [%rd4], 1;\n\
 mul.wide.u32 %rd5, %r2, 4;\n add.s64 %rd6, %rd2, %rd5;\n st.global.u32 [%rd6], %r4;\n\
 ret;\n}\n";

const BLOCKS: u32 = 2048;

/// Notes whether its block was told it runs in block order.
#[derive(Default)]
struct Told(Option<bool>);

impl Sink for Told {
    fn block_order(&mut self, in_order: bool) {
        self.0 = Some(in_order);
    }
}

/// The values the blocks drew and whether each block was told it runs in block order.
fn draws(threads: usize, shift: u32) -> (Vec<u32>, Vec<bool>) {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let launch = Launch::new(
        [BLOCKS, 1, 1],
        [1, 1, 1],
        vec![
            Arg::Buffer(vec![0; 4 * 64]),
            Arg::Buffer(vec![0; 4 * BLOCKS as usize]),
            Arg::U32(shift),
        ],
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let res = pool.install(|| {
        warpscope_emu::run_folded_parts(
            &prog,
            "k",
            &launch,
            &Limits::default(),
            None,
            |_| Told::default(),
            None,
            Watch::default(),
            &Vec::new,
            &|acc: &mut Vec<bool>, s: Told| acc.push(s.0.expect("block_order heard")),
            &|acc: &mut Vec<bool>, p: Vec<bool>| acc.extend(p),
        )
        .unwrap()
    });
    let out = res
        .buffer(1)
        .unwrap()
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    (out, res.acc)
}

/// What block order draws: block `b` is the `(b + shift) % 64`-th of its group, or the `b`-th in
/// the first group when it holds fewer than 64 blocks.
fn in_block_order(shift: u32) -> Vec<u32> {
    (0..BLOCKS)
        .map(|b| {
            let first = ((b + shift) / 64 * 64).saturating_sub(shift);
            b - first
        })
        .collect()
}

// one test at a time: the thread pools of several at once would make the timing of each vary
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn counters_shared_within_a_part_run_in_parallel_with_the_values_of_block_order() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let want = in_block_order(0);
    assert_eq!(&want[60..68], &[60, 61, 62, 63, 0, 1, 2, 3]);
    for threads in [1, 2, 3, 8] {
        for rep in 0..20 {
            let (out, told) = draws(threads, 0);
            assert_eq!(out, want, "{threads} threads, repetition {rep}");
            assert_eq!(told.len(), BLOCKS as usize);
            // 2048 blocks: parts of 64 on up to 8 threads, each the blocks of one counter
            assert_eq!(
                told.iter().all(|&o| o),
                threads == 1,
                "{threads} threads, repetition {rep}: told block order"
            );
        }
    }
}

#[test]
fn counters_shared_across_parts_run_again_in_block_order() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let want = in_block_order(32);
    assert_eq!(&want[28..36], &[28, 29, 30, 31, 0, 1, 2, 3]);
    assert_eq!(&want[92..100], &[60, 61, 62, 63, 0, 1, 2, 3]);
    for threads in [2, 3, 8] {
        for rep in 0..20 {
            let (out, told) = draws(threads, 32);
            assert_eq!(out, want, "{threads} threads, repetition {rep}");
            // the rerun's blocks, all told they run in block order
            assert!(told.iter().all(|&o| o), "{threads} threads, repetition {rep}");
        }
    }
}
