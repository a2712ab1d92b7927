//! Loops on `volatile` global loads in a plain launch: only a loop whose way out depends on what
//! it polls may wait on another block (a grid barrier made by hand), and only such a kernel runs
//! its blocks one after another in block order. A loop that reads `volatile` words a fixed number
//! of times (a last-block-done reduction's final sum) ends whatever other blocks write: its
//! blocks run in parallel, as any kernel's.

use std::sync::{Arc, Mutex};

use warpscope_emu::{Arg, Launch, Limits, Sink, run};

/// A `volatile` load of a word into `%r9`.
const LOAD: &str = "ld.volatile.global.u32 %r9, [%rd4];";

/// nvcc's form of a `volatile int` read into a `long long` sum: a `.s32` load into a 64-bit
/// register (lowered as the load and a sign extension), then its low half into `%r9`.
const WIDE_LOAD: &str = "ld.volatile.global.s32 %rd7, [%rd4];\n    cvt.u32.u64 %r9, %rd7;";

/// Each thread reads `in[ctaid * n + i]` for `i` counting up with `load` (a `volatile` load into
/// `%r9`), adds it to `acc` and stores `acc` to `out[ctaid * ntid + tid]`. `EXIT` decides whether
/// to go round again: `%p1` true goes round.
fn kernel(load: &str, exit: &str) -> String {
    format!(
        r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n)
{{
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mul.lo.s32 %r5, %r3, %r1;
    mov.u32 %r6, 0;
    mov.u32 %r7, 0;
LOOP:
    add.s32 %r8, %r5, %r6;
    mul.wide.u32 %rd3, %r8, 4;
    add.s64 %rd4, %rd1, %rd3;
    {load}
    add.s32 %r7, %r7, %r9;
    add.s32 %r6, %r6, 1;
    {exit}
    @%p1 bra LOOP;
    mad.lo.s32 %r10, %r3, %r4, %r2;
    mul.wide.u32 %rd5, %r10, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r7;
    ret;
}}
"#
    )
}

/// Notes whether its block was told it runs in block order.
struct Told(Arc<Mutex<Vec<bool>>>);

impl Sink for Told {
    fn block_order(&mut self, in_order: bool) {
        self.0.lock().unwrap().push(in_order);
    }
}

const BLOCKS: u32 = 64;
const THREADS: u32 = 64;
const N: u32 = 4;

/// Runs the kernel with `exit` on 4 host threads over `in` words all 1: whether each block was
/// told it runs in block order, and `out`.
fn launch(exit: &str) -> (Vec<bool>, Vec<u32>) {
    launch_with(LOAD, exit)
}

fn launch_with(load: &str, exit: &str) -> (Vec<bool>, Vec<u32>) {
    let prog = warpscope_ptx::compile(&kernel(load, exit)).unwrap();
    let input: Vec<u8> = (0..BLOCKS * N).flat_map(|_| 1u32.to_le_bytes()).collect();
    let l = Launch::new(
        [BLOCKS, 1, 1],
        [THREADS, 1, 1],
        vec![
            Arg::Buffer(input),
            Arg::Buffer(vec![0; (4 * BLOCKS * THREADS) as usize]),
            Arg::U32(N),
        ],
    );
    let told = Arc::new(Mutex::new(Vec::new()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let res = pool.install(|| run(&prog, "k", &l, &Limits::default(), |_| Told(Arc::clone(&told))).unwrap());
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    assert_eq!(res.counters.waited, None);
    let out = res
        .buffer(1)
        .unwrap()
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let ordered = std::mem::take(&mut *told.lock().unwrap());
    (ordered, out)
}

#[test]
fn a_fixed_count_loop_of_volatile_global_reads_runs_its_blocks_in_parallel() {
    // `i < n`: the count decides, not the words read
    let (ordered, out) = launch("setp.lt.u32 %p1, %r6, %r1;");
    assert_eq!(ordered.len(), BLOCKS as usize);
    assert!(ordered.iter().all(|&o| !o), "a block ran in block order");
    assert!(out.iter().all(|&v| v == N), "{out:?}");
}

#[test]
fn a_loop_that_leaves_on_the_word_it_polls_runs_its_blocks_in_block_order() {
    // `while (word == 0)`: every word is 1, so no block waits, but each might
    let (ordered, out) = launch("setp.eq.u32 %p1, %r9, 0;");
    assert_eq!(ordered.len(), BLOCKS as usize);
    assert!(ordered.iter().all(|&o| o), "a block ran in parallel");
    assert!(out.iter().all(|&v| v == 1), "{out:?}");
}

#[test]
fn a_loop_that_leaves_on_a_sum_of_what_it_polls_runs_its_blocks_in_block_order() {
    // `while (acc < 3)`: the polled words reach the exit through the sum, over iterations
    let (ordered, out) = launch("setp.lt.u32 %p1, %r7, 3;");
    assert!(ordered.iter().all(|&o| o), "a block ran in parallel");
    assert!(out.iter().all(|&v| v == 3), "{out:?}");
}

#[test]
fn a_loop_that_leaves_on_a_predicate_made_from_what_it_polls_runs_its_blocks_in_block_order() {
    // the exit's predicate combined from the count's and the polled word's: `i < n && word != 0`
    let (ordered, out) = launch("setp.lt.u32 %p2, %r6, %r1;\n    setp.ne.and.u32 %p1, %r9, 0, %p2;");
    assert!(ordered.iter().all(|&o| o), "a block ran in parallel");
    assert!(out.iter().all(|&v| v == N), "{out:?}");
}

#[test]
fn a_fixed_count_loop_of_widened_volatile_reads_runs_its_blocks_in_parallel() {
    let (ordered, out) = launch_with(WIDE_LOAD, "setp.lt.u32 %p1, %r6, %r1;");
    assert_eq!(ordered.len(), BLOCKS as usize);
    assert!(ordered.iter().all(|&o| !o), "a block ran in block order");
    assert!(out.iter().all(|&v| v == N), "{out:?}");
    // the widened value still reaches the exit when the exit reads it
    let (ordered, out) = launch_with(WIDE_LOAD, "setp.eq.u32 %p1, %r9, 0;");
    assert!(ordered.iter().all(|&o| o), "a block ran in parallel");
    assert!(out.iter().all(|&v| v == 1), "{out:?}");
}
