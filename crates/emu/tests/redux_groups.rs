//! `redux.sync` with a membermask per lane: cooperative groups' `labeled_partition` (a
//! `match.any.sync` mask) followed by `cg::reduce` makes every lane of a converged warp execute one
//! `redux.sync` with its own group's mask, and each group must get its own reduction (the H100
//! does; reducing over all executing lanes leaked other groups' values into each result).

use warpscope_emu::{Arg, Launch, Limits, Sink, run};

struct Nothing;
impl Sink for Nothing {}

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry groups(.param .u64 out, .param .u32 nkeys)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [nkeys];
    mov.u32 %r2, %laneid;
    rem.u32 %r3, %r2, %r1;
    mul.lo.u32 %r4, %r2, 7;
    rem.u32 %r4, %r4, 32;
    activemask.b32 %r5;
    match.any.sync.b32 %r6, %r3, %r5;
    redux.sync.max.s32 %r7, %r4, %r6;
    redux.sync.add.u32 %r8, %r4, %r6;
    redux.sync.min.u32 %r9, %r4, %r6;
    mul.wide.u32 %rd2, %r2, 12;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
    st.global.u32 [%rd3+4], %r8;
    st.global.u32 [%rd3+8], %r9;
    ret;
}
"#;

#[test]
fn each_lane_reduces_over_its_own_membermask() {
    let p = warpscope_ptx::compile(PTX).unwrap_or_else(|e| panic!("{e:#?}"));
    for nkeys in [1u32, 2, 3, 5, 32] {
        let launch = Launch::new(
            [1, 1, 1],
            [32, 1, 1],
            vec![Arg::Buffer(vec![0; 32 * 12]), Arg::U32(nkeys)],
        );
        let r = run(&p, "groups", &launch, &Limits::default(), |_| Nothing).unwrap();
        assert!(r.faults.is_empty(), "{:?}", r.faults);
        let out: Vec<u32> = r
            .buffer(0)
            .unwrap()
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        for lane in 0..32u32 {
            let group: Vec<u32> = (0..32u32)
                .filter(|l| l % nkeys == lane % nkeys)
                .map(|l| l * 7 % 32)
                .collect();
            let want = [
                *group.iter().max().unwrap(),
                group.iter().sum::<u32>(),
                *group.iter().min().unwrap(),
            ];
            let got = &out[3 * lane as usize..3 * lane as usize + 3];
            assert_eq!(got, want, "lane {lane}, {nkeys} groups");
        }
    }
}
