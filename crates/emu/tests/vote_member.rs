//! `vote.sync` with a member mask narrower than the lanes running it: two 16-lane tiles of one
//! warp vote together (cooperative groups' `thread_block_tile<16>::ballot/all/any` on a
//! converged warp). Each lane's vote covers its own tile: the other tile's lanes neither vote in
//! its ballot nor count for its `all` / `any` (before, every vote covered all running lanes, so
//! a tile's `all()` failed when the other tile voted true).

use warpscope_emu::{Arg, Launch, Limits, run};

const KERNEL: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    .reg .pred %p<5>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 16;
    mov.u32 %r3, 65535;
    shl.b32 %r3, %r3, %r2;
    and.b32 %r4, %r1, 1;
    setp.ne.u32 %p1, %r4, 0;
    setp.ge.u32 %p2, %r1, 16;
    or.pred %p1, %p1, %p2;
    vote.sync.ballot.b32 %r5, %p1, %r3;
    vote.sync.all.pred %p3, %p1, %r3;
    selp.u32 %r6, 1, 0, %p3;
    setp.eq.u32 %p2, %r1, 3;
    vote.sync.any.pred %p4, %p2, %r3;
    selp.u32 %r7, 1, 0, %p4;
    vote.sync.uni.pred %p4, %p1, %r3;
    selp.u32 %r8, 1, 0, %p4;
    mul.wide.u32 %rd2, %r1, 16;
    add.u64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r8};
    ret;
}
"#;

#[test]
fn each_tile_votes_with_its_own_lanes() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 32 * 16])]);
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let b = res.buffer(0).unwrap();
    let word = |lane: usize, k: usize| u32::from_le_bytes(b[lane * 16 + 4 * k..][..4].try_into().unwrap());
    for lane in 0..32 {
        // tile 0: odd lanes vote true, lane 3 alone for `any`; tile 1: every lane votes true
        let (ballot, all, any, uni) = if lane < 16 {
            (0xaaaa, 0, 1, 0)
        } else {
            (0xffff_0000, 1, 0, 1)
        };
        assert_eq!(
            [word(lane, 0), word(lane, 1), word(lane, 2), word(lane, 3)],
            [ballot, all, any, uni],
            "lane {lane}"
        );
    }
}
