//! The fp8 conversions of sm_89+ (`cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}` and
//! `cvt.rn.f16x2.{e4m3x2,e5m2x2}`), as Triton emits them for `x.to(tl.float8e5)` and
//! `tl.float8e4nv`. The expected codes are worked out by hand from the formats (e4m3: bias 7,
//! 3 mantissa bits, largest 448 = 0x7e, 0x7f NaN; e5m2: bias 15, 2 mantissa bits, largest 57344
//! = 0x7b) and the PTX ISA's rules (round to nearest even, `.satfinite` clamps to the largest
//! finite value, `a` to the upper byte).

use warpscope_emu::{Arg, Launch, Limits, run};

/// Lane `i` converts the f32 pair `in[2i]` (upper byte) and `in[2i+1]` (lower) to e4m3x2 at
/// `out[2i]` and to e5m2x2 at `out[64 + 2i]`, then widens the e4m3x2 and the e5m2x2 back to
/// f16x2 at `out[128 + 4i]` and `out[256 + 4i]`, and converts the relu'd e4m3x2 of the pair
/// to `out[384 + 2i]` and the e5m2x2 of the f16x2 (the widened e4m3) to `out[448 + 2i]`.
const SRC: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 inp, .param .u64 out)
{
    .reg .b16 %h<8>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [inp];
    ld.param.u64 %rd2, [out];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 8;
    add.s64 %rd3, %rd1, %rd3;
    ld.global.f32 %f1, [%rd3];
    ld.global.f32 %f2, [%rd3+4];
    mul.wide.u32 %rd4, %r1, 2;
    add.s64 %rd4, %rd2, %rd4;
    cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;
    st.global.b16 [%rd4], %h1;
    cvt.rn.satfinite.e5m2x2.f32 %h2, %f1, %f2;
    st.global.b16 [%rd4+64], %h2;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd5, %rd2, %rd5;
    cvt.rn.f16x2.e4m3x2 %r2, %h1;
    st.global.b32 [%rd5+128], %r2;
    cvt.rn.f16x2.e5m2x2 %r3, %h2;
    st.global.b32 [%rd5+256], %r3;
    cvt.rn.satfinite.relu.e4m3x2.f32 %h3, %f1, %f2;
    st.global.b16 [%rd4+384], %h3;
    cvt.rn.satfinite.e5m2x2.f16x2 %h4, %r2;
    st.global.b16 [%rd4+448], %h4;
    ret;
}
"#;

/// (upper value, lower value, e4m3x2, e5m2x2)
const PAIRS: &[(f32, f32, u16, u16)] = &[
    // 1.0: e4m3 0 0111 000, e5m2 0 01111 00; -2.5 = -1.25 * 2^1: 1 1000 010, 1 10000 01
    (1.0, -2.5, 0x38c2, 0x3cc1),
    // 448 and 57344 are the largest; 500 saturates in e4m3 (e5m2: 512 = 0 11000 00)
    (448.0, 500.0, 0x7e7e, 0x5f60),
    // 464 is halfway between 448 (mantissa 110) and 480 (111, the NaN code): even gives 448;
    // 61440 is halfway between 57344 and 65536 (infinity): even rounds up, saturated to 0x7b
    (464.0, 61440.0, 0x7e7e, 0x5f7b),
    // infinities saturate with their sign
    (f32::INFINITY, f32::NEG_INFINITY, 0x7efe, 0x7bfb),
    // e4m3's smallest subnormal 2^-9 = 0x01; 2^-10 is halfway to 0: even gives 0; in e5m2 both
    // are normal: 0 00110 00 and 0 00101 00
    (1.953125e-3, 9.765625e-4, 0x0100, 0x1814),
    // 0.1 = 1.6 * 2^-4: e4m3 mantissa 4.8 -> 5 (0 0011 101), e5m2 2.4 -> 2 (0 01011 10);
    // 1.125 + 2^-20 is above e5m2's midpoint 1.125 (rounding through f16 first would give 1.0)
    (0.1, 1.125 + 9.536743e-7, 0x1d39, 0x2e3d),
    // a NaN is the NaN 0x7f; 3 * 2^-10 is halfway between 2^-9 and 2^-8 in e4m3: even gives 2^-8
    (f32::NAN, 2.9296875e-3, 0x7f02, 0x7f1a),
];

#[test]
fn fp8_pairs_round_to_nearest_even_and_saturate() {
    let mut inp = Vec::new();
    for &(a, b, _, _) in PAIRS {
        inp.extend(a.to_le_bytes());
        inp.extend(b.to_le_bytes());
    }
    let n = PAIRS.len() as u32;
    let prog = warpscope_ptx::compile(SRC).unwrap();
    let l = Launch::new(
        [1, 1, 1],
        [n, 1, 1],
        vec![Arg::Buffer(inp), Arg::Buffer(vec![0; 512])],
    );
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let o = res.buffer(1).unwrap();
    let h = |at: usize| u16::from_le_bytes([o[at], o[at + 1]]);
    let w = |at: usize| u32::from_le_bytes([o[at], o[at + 1], o[at + 2], o[at + 3]]);
    for (i, &(a, b, e4, e5)) in PAIRS.iter().enumerate() {
        assert_eq!(h(2 * i), e4, "e4m3x2 of ({a}, {b})");
        assert_eq!(h(64 + 2 * i), e5, "e5m2x2 of ({a}, {b})");
    }
    // widened back: e4m3 0x38 -> 1.0 (0x3c00), 0xc2 -> -2.5 (0xc100); e5m2 is f16's top byte
    assert_eq!(
        w(128),
        0x3c00_c100,
        "f16x2 of e4m3x2 0x38c2 (a in the upper half)"
    );
    assert_eq!(w(256), 0x3c00_c100, "f16x2 of e5m2x2 0x3cc1");
    // 0x7e -> 448 = 1.75 * 2^8 (0x5f00), 0xfe -> -448; 0x01 -> 2^-9 (0x1800)
    assert_eq!(w(128 + 4), 0x5f00_5f00);
    assert_eq!(w(128 + 4 * 3), 0x5f00_df00);
    assert_eq!(w(128 + 4 * 4), 0x1800_0000);
    assert_eq!(w(256 + 4 * 3), 0x7b00_fb00);
    // a NaN of either format widens to the canonical f16 NaN (calibration/fp8, an H200)
    assert_eq!(w(128 + 4 * 6) >> 16, 0x7fff);
    assert_eq!(w(256 + 4 * 6) >> 16, 0x7fff);
    // relu: -2.5 -> +0, -inf -> +0; positive values and NaN as without it
    assert_eq!(h(384), 0x3800);
    assert_eq!(h(384 + 2 * 3), 0x7e00);
    assert_eq!(h(384 + 2 * 6), 0x7f02);
    // f16x2 -> e5m2x2 of (1.0, -2.5): the same codes as from f32
    assert_eq!(h(448), 0x3cc1);
    // (448, 448) from f16: e5m2 of 448 = 1.75 * 2^8: 0 10111 11 = 0x5f
    assert_eq!(h(448 + 2), 0x5f5f);
}
