//! `%clock64` is one clock for the block: a warp leaving a barrier reads no earlier a time than
//! any warp that arrived there. Warp 1 waits 2,000 cycles in a `clock64()` loop before
//! `__syncthreads()`; warp 0 goes straight to it and reads the clock after it: the cycles it
//! measures across the barrier are at least the 2,000 warp 1 waited (before, each warp's clock
//! counted only its own instructions, and warp 0 measured a handful of cycles: a program
//! checking that its timed block took at least as long as its slowest warp failed).

use warpscope_emu::{Arg, Launch, Limits, run};

const KERNEL: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<12>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd2, %clock64;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra SYNC;
    mov.u64 %rd3, %clock64;
WAIT:
    mov.u64 %rd4, %clock64;
    sub.s64 %rd5, %rd4, %rd3;
    setp.lt.s64 %p2, %rd5, 2000;
    @%p2 bra WAIT;
SYNC:
    bar.sync 0;
    mov.u64 %rd6, %clock64;
    sub.s64 %rd7, %rd6, %rd2;
    mul.wide.u32 %rd8, %r1, 8;
    add.u64 %rd9, %rd1, %rd8;
    st.global.u64 [%rd9], %rd7;
    ret;
}
"#;

#[test]
fn a_warp_leaving_a_barrier_reads_the_latest_arrival_time() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let l = Launch::new([1, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 64 * 8])]);
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let b = res.buffer(0).unwrap();
    let cycles = |t: usize| i64::from_le_bytes(b[t * 8..][..8].try_into().unwrap());
    for t in 0..64 {
        assert!(
            cycles(t) >= 2000,
            "thread {t}: {} cycles across the barrier",
            cycles(t)
        );
    }
    // the two warps leave the barrier at one time
    assert!(
        cycles(0) >= cycles(32) - 8,
        "warp 0 {} warp 1 {}",
        cycles(0),
        cycles(32)
    );
}
