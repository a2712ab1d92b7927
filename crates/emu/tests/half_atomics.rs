//! 16-bit atomics: `atom.add.noftz.f16`, `.bf16`, the packed `.f16x2` (one 16-bit atomic per
//! half) and `atom.cas.b16`, in global and shared memory, as CUDA's `atomicAdd(__half *)`,
//! `atomicAdd(__half2 *)`, `atomicAdd(__nv_bfloat16 *)` and `atomicCAS(unsigned short *)`
//! compile.

use warpscope_emu::{Arg, Launch, Limits, run};

/// Every lane of one warp adds 1.0 to a global f16 at byte 0, (1.0, 2.0) to the f16x2 at byte 4,
/// 0.5 to the bf16 at byte 8, and swaps 0 for 7 in the u16 at byte 10 (one lane wins); the same
/// f16x2 add on a shared word, copied out to byte 12. `out[16..20]` gets the packed old value
/// lane 0 saw of the global f16x2.
const SRC: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b16 %h<8>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p<2>;
    .shared .align 4 .b8 s[4];
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 st.shared.u32 [s], 0;
    bar.sync 0;
    mov.b16 %h1, 0x3C00;
    atom.global.add.noftz.f16 %h2, [%rd1], %h1;
    mov.b32 %r2, 0x40003C00;
    atom.global.add.noftz.f16x2 %r3, [%rd1+4], %r2;
    mov.b16 %h3, 0x3F00;
    atom.global.add.noftz.bf16 %h4, [%rd1+8], %h3;
    mov.b16 %h5, 0;
    mov.b16 %h6, 7;
    atom.global.cas.b16 %h7, [%rd1+10], %h5, %h6;
    atom.shared.add.noftz.f16x2 %r4, [s], %r2;
    bar.sync 0;
    @%p1 ld.shared.u32 %r5, [s];
    @%p1 st.global.u32 [%rd1+12], %r5;
    @%p1 st.global.u32 [%rd1+16], %r3;
    ret;
}
"#;

#[test]
fn half_atomics_add_per_half_and_cas_swaps_16_bits() {
    let prog = warpscope_ptx::compile(SRC).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 20])]);
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let b = res.buffer(0).unwrap();
    let h = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
    // 32 x 1.0 = 32.0 (0x5000); 32 x 2.0 = 64.0 (0x5400); 32 x 0.5 = 16.0 as bf16 (0x4180)
    assert_eq!(h(0), 0x5000, "f16 sum");
    assert_eq!((h(4), h(6)), (0x5000, 0x5400), "f16x2 halves");
    assert_eq!(h(8), 0x4180, "bf16 sum");
    assert_eq!(h(10), 7, "cas.b16");
    assert_eq!((h(12), h(14)), (0x5000, 0x5400), "shared f16x2 halves");
    // lane 0 ran first: it saw zeros in both halves
    assert_eq!((h(16), h(18)), (0, 0), "old value, packed");
}
