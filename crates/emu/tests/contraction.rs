//! ptxas contracts a float `mul` and an `add`/`sub` written without rounding modifiers into one
//! fused multiply-add (`lower/contract.rs` in warpscope-ptx has the rules, read from ptxas's
//! machine code): one rounding, not two. GICOV's variance `sq - 24 * mean * mean` is such a pair
//! (nvcc leaves `mul.f32` and `sub.f32`; the H200 runs `FFMA R8, R9, -R11, R10`): emulated with
//! two roundings, its results differed from the GPU's in the last bits and the program's printed
//! differences with them.

use warpscope_emu::{Arg, Launch, Limits, run};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
    .reg .pred %p<2>;
    .reg .f32 %f<16>;
    .reg .f64 %fd<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd0, [pin];
    ld.param.u64 %rd1, [pout];
    ld.global.f32 %f1, [%rd0];
    ld.global.f32 %f2, [%rd0+4];
    ld.global.f32 %f3, [%rd0+8];
    ld.global.f64 %fd1, [%rd0+16];
    ld.global.f64 %fd2, [%rd0+24];
    ld.global.f64 %fd3, [%rd0+32];
    // a*b - c, c - a*b, c + a*b: contracted
    mul.f32 %f4, %f1, %f2;
    sub.f32 %f5, %f4, %f3;
    mul.f32 %f6, %f1, %f2;
    sub.f32 %f7, %f3, %f6;
    mul.f32 %f8, %f1, %f2;
    add.f32 %f9, %f3, %f8;
    // the product also stored: not contracted
    mul.f32 %f10, %f1, %f2;
    sub.f32 %f11, %f10, %f3;
    st.global.f32 [%rd1+24], %f10;
    // mul.rn: not contracted
    mul.rn.f32 %f12, %f1, %f2;
    sub.f32 %f13, %f12, %f3;
    // doubles
    mul.f64 %fd4, %fd1, %fd2;
    sub.f64 %fd5, %fd3, %fd4;
    st.global.f32 [%rd1], %f5;
    st.global.f32 [%rd1+4], %f7;
    st.global.f32 [%rd1+8], %f9;
    st.global.f32 [%rd1+12], %f11;
    st.global.f32 [%rd1+16], %f13;
    st.global.f64 [%rd1+32], %fd5;
    ret;
}
"#;

#[test]
fn mul_and_sub_without_rounding_modifiers_round_once() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24, rounded (a tie, to even) 1 + 2^-11 = c
    let a = 1.0f32 + f32::EPSILON * 2048.0;
    let c = 1.0f32 + f32::EPSILON * 4096.0; // 1 + 2^-11
    // da = 1 + 2^-27: da*da = 1 + 2^-26 + 2^-54, rounded 1 + 2^-26 = dc
    let (da, dc) = (
        1.0f64 + f64::EPSILON * 2f64.powi(25),
        1.0f64 + f64::EPSILON * 2f64.powi(26),
    );
    let mut input = Vec::new();
    for v in [a, a, c, 0.0] {
        input.extend_from_slice(&v.to_le_bytes());
    }
    for v in [da, da, dc] {
        input.extend_from_slice(&v.to_le_bytes());
    }
    let l = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer(input), Arg::Buffer(vec![0; 48])],
    );
    let r = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffers[1].as_ref().unwrap();
    let f = |o: usize| f32::from_le_bytes(out[o..o + 4].try_into().unwrap());
    let once = a.mul_add(a, -c); // 2^-24: the exact product's tail
    assert_eq!(once, 2f32.powi(-24));
    assert_eq!(f(0), once, "a*b - c contracted");
    assert_eq!(f(4), -once, "c - a*b contracted");
    assert_eq!(f(8), a.mul_add(a, c), "c + a*b contracted");
    assert_eq!(f(12), 0.0, "the stored product: two roundings");
    assert_eq!(f(16), 0.0, "mul.rn: two roundings");
    let d = f64::from_le_bytes(out[32..40].try_into().unwrap());
    assert_eq!(d, -da.mul_add(da, -dc), "doubles contracted");
    assert_eq!(d, -(2f64.powi(-54)));
}

#[test]
fn a_debug_build_is_not_contracted() {
    // `-G`: ptxas optimises nothing (calibration/mathlib's jnf: equal to the H200 as written at
    // -G, and at -O2 only with the contraction)
    let prog = warpscope_ptx::compile(&PTX.replace(".target sm_90", ".target sm_90, debug")).unwrap();
    let a = 1.0f32 + f32::EPSILON * 2048.0;
    let c = 1.0f32 + f32::EPSILON * 4096.0;
    let mut input = Vec::new();
    for v in [a, a, c, 0.0] {
        input.extend_from_slice(&v.to_le_bytes());
    }
    input.extend_from_slice(&[0; 24]);
    let l = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer(input), Arg::Buffer(vec![0; 48])],
    );
    let r = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    let out = r.buffers[1].as_ref().unwrap();
    let f = |o: usize| f32::from_le_bytes(out[o..o + 4].try_into().unwrap());
    assert_eq!([f(0), f(4)], [0.0, 0.0], "two roundings");
}
