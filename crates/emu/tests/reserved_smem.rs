//! Instructions of cooperative groups' multi-warp tiles (`block_tile_memory`, `tiled_partition<64>`):
//! `%reserved_smem_offset_*` (the block's reserved shared memory, after the kernel's own), an
//! `ld.acquire` spin loop that waits for another warp's store (the waiting warp lets the others
//! run), and the funnel shifts `shf.{l,r}.{wrap,clamp}.b32`.

use warpscope_emu::{Arg, Launch, Limits, Sink, run};

struct Nothing;
impl Sink for Nothing {}

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.shared .align 4 .b8 s[100];

.visible .entry spin(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %reserved_smem_offset_1;
    mov.u32 %r3, %reserved_smem_offset_begin;
    mov.u32 %r4, %reserved_smem_offset_end;
    mov.u32 %r5, %reserved_smem_offset_cap;
    mov.u32 %r6, %total_smem_size;
    mov.u32 %r7, s;
    st.shared.u32 [%r7+96], %r1;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra WAIT;
    setp.eq.u32 %p2, %r1, 32;
    @%p2 bra SIGNAL;
    bra.uni DONE;
WAIT:
    ld.acquire.cta.shared.u32 %r8, [%r2];
    setp.eq.u32 %p3, %r8, 0;
    @%p3 bra WAIT;
    st.global.u32 [%rd1], %r8;
    st.global.u32 [%rd1+4], %r2;
    st.global.u32 [%rd1+8], %r3;
    st.global.u32 [%rd1+12], %r4;
    st.global.u32 [%rd1+16], %r5;
    st.global.u32 [%rd1+20], %r6;
    st.global.u32 [%rd1+24], %r7;
    bra.uni DONE;
SIGNAL:
    mov.u32 %r9, 42;
    st.shared.u32 [%r2], %r9;
DONE:
    ret;
}

.visible .entry funnel(.param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 3;
    mov.u32 %r3, 0x89abcdef;
    mov.u32 %r4, 0x01234567;
    shf.l.wrap.b32 %r5, %r3, %r4, %r2;
    shf.l.clamp.b32 %r6, %r3, %r4, %r2;
    shf.r.wrap.b32 %r7, %r3, %r4, %r2;
    shf.r.clamp.b32 %r8, %r3, %r4, %r2;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r8};
    ret;
}
"#;

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn a_warp_spinning_on_reserved_shared_memory_sees_the_other_warps_store() {
    let p = warpscope_ptx::compile(PTX).unwrap_or_else(|e| panic!("{e:#?}"));
    let k = p.kernel("spin").unwrap();
    assert_eq!(k.static_smem, 100, "the reserved bytes are not the kernel's own");
    assert_eq!(k.reserved_smem, 1024);
    assert_eq!(p.kernel("funnel").unwrap().reserved_smem, 0);
    let launch = Launch::new([2, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 28])]);
    let r = run(&p, "spin", &launch, &Limits::default(), |_| Nothing).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    // value seen, offset_1, begin, end, cap, %total_smem_size, &s: the region starts at the next
    // multiple of 16 after the kernel's 100 bytes
    assert_eq!(words(r.buffer(0).unwrap()), [42, 120, 112, 1136, 1024, 100, 0]);
}

#[test]
fn funnel_shifts_wrap_or_clamp_the_shift() {
    let p = warpscope_ptx::compile(PTX).unwrap_or_else(|e| panic!("{e:#?}"));
    let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 32 * 16])]);
    let r = run(&p, "funnel", &launch, &Limits::default(), |_| Nothing).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let got = words(r.buffer(0).unwrap());
    let x: u64 = (0x0123_4567u64 << 32) | 0x89ab_cdef;
    for lane in 0..32u32 {
        let c = lane * 3;
        let (w, cl) = (c & 31, c.min(32));
        let want = [
            ((x << w) >> 32) as u32,
            ((x << cl) >> 32) as u32,
            (x >> w) as u32,
            (x >> cl) as u32,
        ];
        assert_eq!(
            got[4 * lane as usize..4 * lane as usize + 4],
            want,
            "lane {lane}, shift {c}"
        );
    }
}
