//! The integer dot products (`dp4a`, `dp2a.lo/hi`) and `vabsdiff4` that CUDA's `__dp4a`,
//! `__dp2a_lo`, `__dp2a_hi` and `__vabsdiffu4` / `__vabsdiffs4` emit, and the packed-half
//! compares (`set.cmp.f16x2`, `set.cmp.u32.f16x2`, `set.cmp.bf16x2`, `setp.cmp.f16x2 p|q`) the
//! math library's `h2exp` / `hrcp` fix-ups use. Expected values worked out by hand from the PTX
//! ISA's definitions (calibration/run/bench5/bits.cu and halfbf.cu check the same against an
//! H200: their outputs equal).

use warpscope_emu::{Arg, Launch, Limits, run};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pout)
{
    .reg .u32 %r<16>;
    .reg .u64 %q;
    .reg .pred %p<2>;
    ld.param.u64 %q, [pout];
    dp4a.s32.s32 %r0, 0x80FF0102, 0x02030405, 10;
    dp4a.u32.u32 %r1, 0x80FF0102, 0x02030405, 10;
    dp4a.u32.s32 %r2, 0x80FF0102, 0xFE030405, 10;
    dp2a.lo.s32.s32 %r3, 0xFFFE0003, 0x7F8005FB, -7;
    dp2a.hi.s32.s32 %r4, 0xFFFE0003, 0x7F8005FB, 100;
    vabsdiff4.u32.u32.u32 %r5, 0x10FF0080, 0x20010190, 0x12345678;
    vabsdiff4.u32.u32.u32.add %r6, 0x10FF0080, 0x20010190, 5;
    vabsdiff4.s32.s32.s32.sat %r7, 0x7F800000, 0x807F0001, 0;
    vabsdiff4.s32.s32.s32 %r8, 0x7F800000, 0x807F0001, 0;
    set.lt.f16x2.f16x2 %r9, 0x40003C00, 0x3C003E00;
    set.eq.u32.f16x2 %r10, 0x40003C00, 0x40003E00;
    set.ge.bf16x2.bf16x2 %r11, 0x3F804000, 0x3F803F80;
    setp.gt.f16x2 %p0|%p1, 0x40003C00, 0x3C003E00;
    selp.u32 %r12, 1, 0, %p0;
    selp.u32 %r13, 1, 0, %p1;
    st.global.v4.u32 [%q], {%r0, %r1, %r2, %r3};
    st.global.v4.u32 [%q+16], {%r4, %r5, %r6, %r7};
    st.global.v4.u32 [%q+32], {%r8, %r9, %r10, %r11};
    st.global.v2.u32 [%q+48], {%r12, %r13};
    ret;
}
"#;

#[test]
fn dot_products_byte_differences_and_packed_half_compares() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let l = Launch::new([1, 1, 1], [1, 1, 1], vec![Arg::Buffer(vec![0; 64])]);
    let r = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffers[0].as_ref().unwrap();
    let w = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
    // a's bytes (low first) 2, 1, 0xff, 0x80; b's 5, 4, 3, 2
    assert_eq!(w(0) as i32, 2 * 5 + 4 - 3 - 128 * 2 + 10, "dp4a.s32.s32");
    assert_eq!(w(1), 2 * 5 + 4 + 255 * 3 + 128 * 2 + 10, "dp4a.u32.u32");
    // b's top byte 0xfe is -2
    assert_eq!(w(2), 2 * 5 + 4 + 255 * 3 - 128 * 2 + 10, "dp4a.u32.s32");
    // a's halves 3 and -2; b's bytes 0xfb (-5), 5, 0x80 (-128), 0x7f
    assert_eq!(w(3) as i32, 3 * -5 + -2 * 5 - 7, "dp2a.lo");
    assert_eq!(w(4) as i32, 3 * -128 + -2 * 127 + 100, "dp2a.hi");
    // |0x80-0x90|, |0x00-0x01|, |0xff-0x01|, |0x10-0x20|; the full mask: c unused
    assert_eq!(w(5), 0x10FE_0110, "vabsdiff4");
    assert_eq!(w(6), 0x10 + 1 + 0xFE + 0x10 + 5, "vabsdiff4.add");
    // signed bytes 0, 0, -128, 127 against 1, 0, 127, -128: 1, 0, 255, 255
    assert_eq!(w(7), 0x7F7F_0001, "vabsdiff4.s32.sat clamps to 127");
    assert_eq!(w(8), 0xFFFF_0001, "vabsdiff4.s32 keeps the low byte");
    // halves (low first): 1.0 < 1.5 true, 2.0 < 1.0 false
    assert_eq!(w(9), 0x0000_3C00, "set.lt.f16x2: 1.0 as a half where true");
    assert_eq!(w(10), 0xFFFF_0000, "set.eq.u32.f16x2: all ones per half");
    assert_eq!(w(11), 0x3F80_3F80, "set.ge.bf16x2: 1.0 as a bfloat16");
    assert_eq!((w(12), w(13)), (0, 1), "setp.gt.f16x2 p|q: low, high");
}

#[test]
fn simd_selectors_are_refused_with_a_clear_error() {
    let ptx = PTX.replace(
        "vabsdiff4.u32.u32.u32 %r5, 0x10FF0080, 0x20010190, 0x12345678;",
        "vabsdiff4.u32.u32.u32 %r5, %r0.b3210, %r1, %r2;",
    );
    let e = warpscope_ptx::compile(&ptx).unwrap_err().join("; ");
    assert!(e.contains("selector") || e.contains("b3210"), "{e}");
}
