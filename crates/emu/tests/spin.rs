//! A warp spinning on a flag that a later warp of its block sets: on a `volatile` load or an
//! atomic, neither of which yields by itself. The spinning warp yields when an iteration of its
//! loop changed nothing (`exec::spin`), so the setting warp runs and the launch finishes.

use warpscope_emu::{Arg, Launch, Limits, run};

/// Warp 0's lane 0 waits until `flag` is non-zero (`OP` reads it: a `volatile` load or an
/// atomic add of 0) and stores what it read to `out[0]`; warp 1's lane 0 stores 7 to it.
fn kernel(op: &str) -> String {
    format!(
        r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    .shared .align 4 .b32 flag;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, flag;
    setp.eq.u32 %p1, %r1, 32;
    @%p1 bra SET;
    setp.ne.u32 %p2, %r1, 0;
    @%p2 bra DONE;
WAIT:
    {op}
    setp.eq.u32 %p3, %r3, 0;
    @%p3 bra WAIT;
    st.global.u32 [%rd1], %r3;
    bra.uni DONE;
SET:
    mov.u32 %r4, 7;
    st.volatile.shared.u32 [%r2], %r4;
DONE:
    ret;
}}
"#
    )
}

fn out_of(op: &str) -> (u32, u64) {
    let prog = warpscope_ptx::compile(&kernel(op)).unwrap();
    let l = Launch::new([1, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 4])]);
    let limits = Limits {
        max_warp_insts_per_block: 100_000,
        ..Limits::default()
    };
    let res = run(&prog, "k", &l, &limits, |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{op}: {:?}", res.faults);
    let b = res.buffer(0).unwrap();
    (
        u32::from_le_bytes(b[..4].try_into().unwrap()),
        res.counters.warp_insts,
    )
}

#[test]
fn a_volatile_spin_on_a_later_warps_flag_finishes() {
    let (v, insts) = out_of("ld.volatile.shared.u32 %r3, [%r2];");
    assert_eq!(v, 7);
    // warp 0 tries twice (it yields after the second try changed nothing), then once more
    assert!(insts < 60, "{insts} warp instructions");
}

#[test]
fn an_atomic_spin_on_a_later_warps_flag_finishes() {
    let (v, _) = out_of("atom.shared.add.u32 %r3, [%r2], 0;");
    assert_eq!(v, 7);
}

/// The 32 lanes of one warp take a lock in shared memory one after another
/// (`while (atomicCAS(&lock, 0, 1) != 0) {}`), add 1 to `out[0]` under it and release it. The
/// lane that gets the lock leaves the loop; the others spin until it releases the lock, so its
/// lanes must run on past the loop's exit (their reconvergence point) while the others spin, as
/// on a GPU with independent thread scheduling. Before, the launch spun until the instruction
/// limit.
#[test]
fn lanes_of_one_warp_taking_a_lock_in_turn_finish() {
    let ptx = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    .shared .align 4 .b32 lock;
    ld.param.u64 %rd1, [out];
    mov.u32 %r2, lock;
LOOP:
    atom.shared.cas.b32 %r3, [%r2], 0, 1;
    setp.ne.u32 %p1, %r3, 0;
    @%p1 bra LOOP;
    ld.volatile.global.u32 %r4, [%rd1];
    add.u32 %r4, %r4, 1;
    st.volatile.global.u32 [%rd1], %r4;
    mov.u32 %r5, %tid.x;
    ld.volatile.global.u32 %r6, [%rd1+4];
    max.u32 %r6, %r6, %r5;
    st.volatile.global.u32 [%rd1+4], %r6;
    atom.shared.exch.b32 %r7, [%r2], 0;
    ret;
}
"#;
    let prog = warpscope_ptx::compile(ptx).unwrap();
    for threads in [32, 64, 96] {
        let l = Launch::new([2, 1, 1], [threads, 1, 1], vec![Arg::Buffer(vec![0; 8])]);
        let limits = Limits {
            max_warp_insts_per_block: 1_000_000,
            ..Limits::default()
        };
        let res = run(&prog, "k", &l, &limits, |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{threads} threads: {:?}", res.faults);
        let b = res.buffer(0).unwrap();
        let count = u32::from_le_bytes(b[..4].try_into().unwrap());
        let max = u32::from_le_bytes(b[4..8].try_into().unwrap());
        assert_eq!(count, 2 * threads, "{threads} threads");
        assert_eq!(max, threads - 1, "{threads} threads");
        assert!(
            res.counters.warp_insts < 200 * u64::from(threads),
            "{threads} threads: {} warp instructions",
            res.counters.warp_insts
        );
    }
}
