//! Signed loads into wider registers: PTX sign-extends `ld.s8/.s16/.s32` to the destination
//! register's width, as nvcc relies on when it loads an `int` index straight into a 64-bit register
//! (`ld.global.s32 %rd10, [%rd51]`, then `shl.b64` and an address add). A negative index must stay
//! negative in all 64 bits; unsigned loads zero-extend.

use warpscope_emu::{Arg, Launch, Limits, run};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry widen(.param .u64 pin, .param .u64 pout)
{
    .reg .u32 %t;
    .reg .b32 %r<4>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd0, [pin];
    ld.param.u64 %rd1, [pout];
    mov.u32 %t, %tid.x;
    mul.wide.u32 %rd2, %t, 8;
    add.u64 %rd0, %rd0, %rd2;
    mul.wide.u32 %rd2, %t, 64;
    add.u64 %rd1, %rd1, %rd2;
    ld.global.s32 %rd3, [%rd0];
    ld.global.u32 %rd4, [%rd0];
    ld.global.s16 %rd5, [%rd0];
    ld.global.s8 %rd6, [%rd0+4];
    ld.global.s8 %r0, [%rd0+4];
    ld.global.v2.s32 {%rd7, %rd8}, [%rd0];
    st.global.v2.u64 [%rd1], {%rd3, %rd4};
    st.global.v2.u64 [%rd1+16], {%rd5, %rd6};
    st.global.v2.u64 [%rd1+32], {%rd7, %rd8};
    st.global.u32 [%rd1+48], %r0;
    // the index as nvcc uses it: scaled and added to an address
    shl.b64 %rd9, %rd3, 2;
    add.s64 %rd10, %rd1, %rd9;
    sub.s64 %rd10, %rd10, %rd1;
    st.global.u64 [%rd1+56], %rd10;
    ret;
}
"#;

#[test]
fn signed_loads_extend_to_64_bit_registers() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let vals: [i32; 4] = [-2, 7, i32::MIN, -1];
    let bytes: [i32; 4] = [-128, 5, 0x7f, -1];
    let mut input = Vec::new();
    for t in 0..32 {
        input.extend_from_slice(&vals[t % 4].to_le_bytes());
        input.extend_from_slice(&bytes[t % 4].to_le_bytes());
    }
    let l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(input), Arg::Buffer(vec![0; 32 * 64])],
    );
    let r = run(&prog, "widen", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffers[1].as_ref().unwrap();
    let q =
        |t: usize, k: usize| u64::from_le_bytes(out[64 * t + 8 * k..64 * t + 8 * k + 8].try_into().unwrap());
    for t in 0..32 {
        let (v, b) = (vals[t % 4], bytes[t % 4]);
        assert_eq!(q(t, 0), v as i64 as u64, "thread {t}: ld.s32 into .b64");
        assert_eq!(q(t, 1), v as u32 as u64, "thread {t}: ld.u32 into .b64");
        assert_eq!(q(t, 2), v as i16 as i64 as u64, "thread {t}: ld.s16 into .b64");
        assert_eq!(q(t, 3), b as i8 as i64 as u64, "thread {t}: ld.s8 into .b64");
        assert_eq!(q(t, 4), v as i64 as u64, "thread {t}: ld.v2.s32, first");
        assert_eq!(q(t, 5), b as i64 as u64, "thread {t}: ld.v2.s32, second");
        let w = u32::from_le_bytes(out[64 * t + 48..64 * t + 52].try_into().unwrap());
        assert_eq!(w, b as i8 as i32 as u32, "thread {t}: ld.s8 into .b32");
        assert_eq!(q(t, 7), (v as i64 * 4) as u64, "thread {t}: the index scaled");
    }
}
