//! Cooperative launches: blocks that wait for each other at a grid barrier written as cooperative
//! groups' `grid.sync()` compiles (`%envreg1:%envreg2` is the grid workspace; the block's master
//! thread adds to the barrier word at byte 4 with `atom.add.release.gpu` and polls it with
//! `ld.acquire.gpu` until its top bit flips), and a grid that can never pass its barrier.

use warpscope_emu::{Arg, FaultKind, Launch, Limits, Sink, run};

#[derive(Debug)]
struct Nothing;
impl Sink for Nothing {}

/// Each block writes its id to `a[block]`, passes the grid barrier, then copies its right
/// neighbour's `a` to `b[block]` (only right after every block has written). `skip`: block 0
/// leaves before the barrier (a grid that never passes it).
const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry rotate(.param .u64 a, .param .u64 b, .param .u32 skip)
{
    .reg .pred %p<8>;
    .reg .b32 %r<24>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u32 %r20, [skip];
    mov.u32 %r1, %envreg2;
    mov.u32 %r2, %envreg1;
    cvt.u64.u32 %rd3, %r1;
    cvt.u64.u32 %rd4, %r2;
    bfi.b64 %rd5, %rd4, %rd3, 32, 32;
    add.s64 %rd6, %rd5, 4;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %nctaid.x;
    mov.u32 %r5, %tid.x;
    setp.ne.u32 %p5, %r20, 0;
    setp.eq.u32 %p6, %r3, 0;
    and.pred %p7, %p5, %p6;
    @%p7 bra DONE;
    setp.ne.u32 %p1, %r5, 0;
    mul.wide.u32 %rd7, %r3, 4;
    add.s64 %rd8, %rd1, %rd7;
    @!%p1 st.global.u32 [%rd8], %r3;
    barrier.sync 0;
    @%p1 bra AFTER;
    // the master of block 0 adds 0x80000000 - (blocks - 1), every other master 1
    setp.eq.u32 %p2, %r3, 0;
    mov.u32 %r6, -2147483647;
    sub.s32 %r7, %r6, %r4;
    selp.b32 %r8, %r7, 1, %p2;
    atom.add.release.gpu.u32 %r9, [%rd6], %r8;
POLL:
    ld.acquire.gpu.u32 %r10, [%rd6];
    xor.b32 %r11, %r10, %r9;
    setp.gt.s32 %p3, %r11, -1;
    @%p3 bra POLL;
AFTER:
    barrier.sync 0;
    add.u32 %r12, %r3, 1;
    rem.u32 %r13, %r12, %r4;
    mul.wide.u32 %rd9, %r13, 4;
    add.s64 %rd10, %rd1, %rd9;
    ld.global.u32 %r14, [%rd10];
    add.s64 %rd11, %rd2, %rd7;
    @!%p1 st.global.u32 [%rd11], %r14;
DONE:
    ret;
}
"#;

fn launch(blocks: u32, skip: u32, cooperative: bool) -> Launch {
    let mut l = Launch::new(
        [blocks, 1, 1],
        [64, 1, 1],
        vec![
            Arg::Buffer(vec![0xff; 4 * blocks as usize]),
            Arg::Buffer(vec![0xff; 4 * blocks as usize]),
            Arg::U32(skip),
        ],
    );
    l.cooperative = cooperative;
    l
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn blocks_pass_a_grid_barrier_together() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    for blocks in [1u32, 2, 7, 40] {
        let r = run(
            &prog,
            "rotate",
            &launch(blocks, 0, true),
            &Limits::default(),
            |_| Nothing,
        )
        .unwrap();
        assert!(r.faults.is_empty(), "{blocks}: {:?}", r.faults);
        let a = words(r.buffer(0).unwrap());
        let b = words(r.buffer(1).unwrap());
        assert_eq!(a, (0..blocks).collect::<Vec<_>>());
        // every block read its neighbour's id: written before the barrier by another block
        assert_eq!(
            b,
            (0..blocks).map(|i| (i + 1) % blocks).collect::<Vec<_>>(),
            "{blocks} blocks"
        );
    }
}

#[test]
fn a_plain_launch_has_no_workspace_with_run() {
    // `run` gives a workspace only to cooperative launches: address 4 is outside every buffer
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let r = run(&prog, "rotate", &launch(3, 0, false), &Limits::default(), |_| {
        Nothing
    })
    .unwrap();
    assert!(
        matches!(r.faults[0].kind, FaultKind::OutOfBounds { .. }),
        "{:?}",
        r.faults
    );
}

#[test]
fn a_grid_that_never_passes_its_barrier_is_a_deadlock() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let r = run(&prog, "rotate", &launch(4, 1, true), &Limits::default(), |_| {
        Nothing
    })
    .unwrap();
    assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
    let f = r.faults[0];
    assert_eq!(f.kind, FaultKind::GridDeadlock);
    // the first block still waiting: block 1 (block 0 left), its master's warp
    assert_eq!((f.block, f.warp), (1, 0));
    // the polls stopped after the idle turns, far below the instruction limit
    assert!(r.counters.warp_insts < 20 * u64::from(warpscope_emu::GRID_IDLE_TURNS) * 4);
}

#[test]
fn sampled_blocks_are_refused_in_a_cooperative_launch() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let mut l = launch(4, 0, true);
    l.blocks = Some(vec![0, 1]);
    let e = run(&prog, "rotate", &l, &Limits::default(), |_| Nothing).unwrap_err();
    assert!(e.to_string().contains("cooperative"), "{e}");
}
