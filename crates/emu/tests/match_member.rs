//! `match.sync` with a member mask narrower than the lanes running it: two 16-lane tiles of one
//! warp match together (cooperative groups' `thread_block_tile<16>::match_any/match_all` on a
//! converged warp). Each lane matches only among its own tile's lanes (before, every lane matched
//! over all running lanes, so equal values in the other tile joined its set and a tile whose lanes
//! all agree failed `match_all` when the other tile held another value).

use warpscope_emu::{Arg, Launch, Limits, run};

const KERNEL: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 16;
    mov.u32 %r3, 65535;
    shl.b32 %r3, %r3, %r2;
    and.b32 %r4, %r1, 3;
    match.any.sync.b32 %r5, %r4, %r3;
    shr.u32 %r6, %r1, 4;
    match.all.sync.b32 %r7|%p1, %r6, %r3;
    selp.u32 %r8, 1, 0, %p1;
    min.u32 %r9, %r1, 20;
    match.all.sync.b32 %r6|%p2, %r9, %r3;
    selp.u32 %r4, 1, 0, %p2;
    mul.wide.u32 %rd2, %r1, 20;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    st.global.u32 [%rd3+4], %r7;
    st.global.u32 [%rd3+8], %r8;
    st.global.u32 [%rd3+12], %r6;
    st.global.u32 [%rd3+16], %r4;
    ret;
}
"#;

#[test]
fn each_tile_matches_among_its_own_lanes() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 32 * 20])]);
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let b = res.buffer(0).unwrap();
    let word = |lane: usize, k: usize| u32::from_le_bytes(b[lane * 20 + 4 * k..][..4].try_into().unwrap());
    for lane in 0..32 {
        let tile: u32 = if lane < 16 { 0xffff } else { 0xffff_0000 };
        // match.any of `lane & 3`: the lanes of the own tile with the same remainder
        let any = 0x1111_1111u32 << (lane & 3) & tile;
        // match.all of `lane >> 4`: every tile agrees within itself
        // match.all of `min(lane, 20)`: tile 0 holds 16 values, tile 1 lanes 20..31 agree but 16..19 do not
        assert_eq!(
            [
                word(lane, 0),
                word(lane, 1),
                word(lane, 2),
                word(lane, 3),
                word(lane, 4)
            ],
            [any, tile, 1, 0, 0],
            "lane {lane}"
        );
    }
}
