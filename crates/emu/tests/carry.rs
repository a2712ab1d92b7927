//! PTX's carry chain (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo/hi.cc`, `madc.lo/hi`): 128-bit
//! sums, differences and products built from 32- and 64-bit steps, as the CUDA math library's
//! argument reductions build them, against Rust's own `u128` arithmetic.

use warpscope_emu::{Arg, Launch, Limits, run};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry chain(.param .u64 pin, .param .u64 pout)
{
    .reg .u32 %a<4>, %b<4>, %s<8>, %t;
    .reg .u64 %p, %q, %x<2>, %y<2>, %z<4>, %w<2>;
    ld.param.u64 %p, [pin];
    ld.param.u64 %q, [pout];
    mov.u32 %t, %tid.x;
    mul.wide.u32 %w0, %t, 32;
    add.u64 %p, %p, %w0;
    mul.wide.u32 %w0, %t, 128;
    add.u64 %q, %q, %w0;
    ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%p];
    ld.global.v4.u32 {%b0, %b1, %b2, %b3}, [%p+16];
    // 128-bit sum in 32-bit steps
    add.cc.u32 %s0, %a0, %b0;
    addc.cc.u32 %s1, %a1, %b1;
    addc.cc.u32 %s2, %a2, %b2;
    addc.u32 %s3, %a3, %b3;
    st.global.v4.u32 [%q], {%s0, %s1, %s2, %s3};
    // 128-bit difference in 32-bit steps
    sub.cc.u32 %s0, %a0, %b0;
    subc.cc.u32 %s1, %a1, %b1;
    subc.cc.u32 %s2, %a2, %b2;
    subc.u32 %s3, %a3, %b3;
    st.global.v4.u32 [%q+16], {%s0, %s1, %s2, %s3};
    // 64x64 -> 128 product of the low words in 32-bit steps (schoolbook, as the math library does)
    mul.lo.u32 %s0, %a0, %b0;
    mul.hi.u32 %s1, %a0, %b0;
    mad.lo.cc.u32 %s1, %a0, %b1, %s1;
    madc.hi.u32 %s2, %a0, %b1, 0;
    mad.lo.cc.u32 %s1, %a1, %b0, %s1;
    madc.hi.cc.u32 %s2, %a1, %b0, %s2;
    madc.hi.u32 %s3, %a1, %b1, 0;
    mad.lo.cc.u32 %s2, %a1, %b1, %s2;
    addc.u32 %s3, %s3, 0;
    st.global.v4.u32 [%q+32], {%s0, %s1, %s2, %s3};
    // 128-bit sum and difference in 64-bit steps
    mov.b64 %x0, {%a0, %a1};
    mov.b64 %x1, {%a2, %a3};
    mov.b64 %y0, {%b0, %b1};
    mov.b64 %y1, {%b2, %b3};
    add.cc.u64 %z0, %x0, %y0;
    addc.u64 %z1, %x1, %y1;
    st.global.v2.u64 [%q+48], {%z0, %z1};
    sub.cc.s64 %z0, %x0, %y0;
    subc.s64 %z1, %x1, %y1;
    st.global.v2.u64 [%q+64], {%z0, %z1};
    // 64x64 -> 128 product in 64-bit steps: lo, then hi with the carry of lo + 0
    mad.lo.cc.u64 %z2, %x0, %y0, 0;
    madc.hi.u64 %z3, %x0, %y0, 0;
    st.global.v2.u64 [%q+80], {%z2, %z3};
    // a carry that stays set across an instruction that does not touch it
    add.cc.u32 %s4, 0xffffffff, 1;
    mov.u32 %s5, 17;
    addc.u32 %s6, 0, 0;
    // signed high product with carry: hi(a0 * b0) as s32 plus 5
    mad.hi.cc.s32 %s7, %a0, %b0, 5;
    st.global.v4.u32 [%q+96], {%s4, %s5, %s6, %s7};
    ret;
}
"#;

fn word(v: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(v[4 * i..4 * i + 4].try_into().unwrap())
}

fn u128_at(v: &[u8], i: usize) -> u128 {
    u128::from_le_bytes(v[4 * i..4 * i + 16].try_into().unwrap())
}

#[test]
fn the_carry_chain_computes_128_bit_arithmetic() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    // inputs: carries in every position (all ones, zero, one) and pseudo-random words
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut input = Vec::new();
    for l in 0..32u32 {
        for k in 0..8 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let w = match (l % 4, k) {
                (0, _) => u32::MAX,
                (1, 0..=3) => 0,
                (1, _) => 1,
                (2, _) if k % 2 == 0 => u32::MAX,
                _ => (s >> 32) as u32,
            };
            input.extend_from_slice(&w.to_le_bytes());
        }
    }
    let l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(input.clone()), Arg::Buffer(vec![0; 32 * 128])],
    );
    let r = run(&prog, "chain", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffers[1].as_ref().unwrap();
    for t in 0..32 {
        let a = u128_at(&input, 8 * t);
        let b = u128_at(&input, 8 * t + 4);
        let o = &out[128 * t..128 * (t + 1)];
        assert_eq!(u128_at(o, 0), a.wrapping_add(b), "thread {t}: 32-bit sum");
        assert_eq!(u128_at(o, 4), a.wrapping_sub(b), "thread {t}: 32-bit difference");
        let (a64, b64) = (a as u64 as u128, b as u64 as u128);
        assert_eq!(u128_at(o, 8), a64 * b64, "thread {t}: 32-bit product");
        assert_eq!(u128_at(o, 12), a.wrapping_add(b), "thread {t}: 64-bit sum");
        assert_eq!(u128_at(o, 16), a.wrapping_sub(b), "thread {t}: 64-bit difference");
        assert_eq!(u128_at(o, 20), a64 * b64, "thread {t}: 64-bit product");
        assert_eq!(word(o, 24), 0, "thread {t}: 0xffffffff + 1");
        assert_eq!(word(o, 25), 17);
        assert_eq!(word(o, 26), 1, "thread {t}: the carry kept");
        let hi = ((a as u32 as i32 as i64 * b as u32 as i32 as i64) >> 32) as u32;
        assert_eq!(word(o, 27), hi.wrapping_add(5), "thread {t}: signed high product");
    }
}
