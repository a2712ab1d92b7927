//! The whole-warp 4-byte global load and store of contiguous lanes (lane l at the first lane's
//! address + 4 l: one slice of the buffer, found through the block's last region) against the
//! reference path (`Limits::reference_paths`: the buffer found from the lanes' lowest and highest
//! address, or lane by lane): the same memory events, stored values, results, faults and
//! instruction counts on contiguous, strided, reversed, broadcast, partial-mask, misaligned,
//! out-of-bounds and wrapping warps.

use warpscope_emu::{Arg, Launch, Limits, MemEvent, Sink, run};

/// A memory event as data: block, warp, pc, space and operation, width, mask, active addresses.
type Access = (u32, u32, u32, String, u8, u32, Vec<u64>);

/// Every event, as data.
#[derive(Debug, Default, PartialEq)]
struct Record {
    mem: Vec<Access>,
    insts: Vec<(u32, u32, u32)>,
    /// `Sink::store_values`: warp, pc, element bytes, the active lanes' values.
    stores: Vec<(u32, u32, u8, Vec<u64>)>,
}

impl Sink for Record {
    fn mem(&mut self, e: &MemEvent<'_>) {
        let addrs = (0..32)
            .filter(|l| e.mask >> l & 1 != 0)
            .map(|l| e.addrs[l])
            .collect();
        self.mem.push((
            e.block,
            e.warp,
            e.pc,
            format!("{:?} {:?}", e.space, e.op),
            e.width,
            e.mask,
            addrs,
        ));
    }
    fn inst(&mut self, warp: u32, pc: u32, active: u32) {
        self.insts.push((warp, pc, active));
    }
    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        // the inactive lanes' values are not defined: kept only for the full warps this test's
        // stores compare (a partial warp's store is compared through memory and its event)
        let vals = rows.iter().flat_map(|r| r.iter().copied()).collect();
        self.stores.push((warp, pc, elem, vals));
    }
}

/// `mode`: 0 lane l at 4 l (contiguous), 1 at 8 l (strided), 2 odd lanes only (partial mask), 3 at
/// 4 l + 2 (misaligned), 4 at 4 l + 3,904 (the second warp runs past the 4,096-byte buffers), 5
/// at 4 (127 - l) (reversed: one buffer, not contiguous), 6 every lane at 0 (broadcast loads, the
/// last lane's store stays), 7 contiguous from 2^64 - 128 (the range wraps: a fault, never a
/// slice), 8 contiguous, the first lane predicated off (a partial mask of contiguous addresses).
const GLOBALS: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry g(.param .u64 in, .param .u64 out, .param .u32 mode)
{
    .reg .pred %p<6>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r9, [mode];
    mov.u32 %r1, %tid.x;
    mov.u32 %r5, %ctaid.x;
    mov.u32 %r6, %ntid.x;
    mad.lo.u32 %r1, %r5, %r6, %r1;
    shl.b32 %r2, %r1, 2;
    setp.eq.u32 %p1, %r9, 1;
    @%p1 shl.b32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r9, 3;
    @%p1 add.u32 %r2, %r2, 2;
    setp.eq.u32 %p1, %r9, 4;
    @%p1 add.u32 %r2, %r2, 3904;
    setp.eq.u32 %p1, %r9, 5;
    sub.u32 %r7, 127, %r1;
    shl.b32 %r7, %r7, 2;
    @%p1 mov.u32 %r2, %r7;
    setp.eq.u32 %p1, %r9, 6;
    @%p1 mov.u32 %r2, 0;
    setp.eq.u32 %p1, %r9, 7;
    @%p1 mov.u64 %rd1, -128;
    @%p1 mov.u64 %rd2, -128;
    and.b32 %r3, %r1, 31;
    setp.ne.u32 %p4, %r3, 0;
    setp.ne.u32 %p5, %r9, 8;
    or.pred %p4, %p4, %p5;
    setp.eq.u32 %p2, %r9, 2;
    and.b32 %r3, %r1, 1;
    setp.eq.and.u32 %p2, %r3, 0, %p2;
    @%p2 bra DONE;
    cvt.u64.u32 %rd3, %r2;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    @%p4 ld.global.u32 %r10, [%rd4];
    ld.global.u32 %r11, [%rd4+4];
    add.u32 %r12, %r10, %r11;
    @%p4 st.global.u32 [%rd5], %r12;
    ld.global.u32 %r13, [%rd5];
    add.u32 %r13, %r13, %r1;
    st.global.u32 [%rd5+4], %r13;
    ld.global.u32 %r14, [%rd5+4];
    st.global.u32 [%rd5+8], %r14;
DONE:
    ret;
}
"#;

#[test]
fn the_contiguous_global_fast_path_equals_the_reference() {
    let prog = warpscope_ptx::compile(GLOBALS).unwrap();
    let words = |n: u32, k: u32| -> Vec<u8> { (0..n).flat_map(|i| (i * k % 1000).to_le_bytes()).collect() };
    for mode in 0..9u32 {
        let l = Launch::new(
            [2, 1, 1],
            [64, 1, 1],
            vec![
                Arg::Buffer(words(1024, 7)),
                Arg::Buffer(words(1024, 3)),
                Arg::U32(mode),
            ],
        );
        let fast = run(&prog, "g", &l, &Limits::default(), |_| Record::default()).unwrap();
        let reference = Limits {
            reference_paths: true,
            ..Limits::default()
        };
        let slow = run(&prog, "g", &l, &reference, |_| Record::default()).unwrap();
        assert_eq!(fast.buffers, slow.buffers, "mode {mode}: results");
        assert_eq!(fast.faults, slow.faults, "mode {mode}: faults");
        assert_eq!(fast.counters, slow.counters, "mode {mode}: counters");
        for (a, b) in fast.sinks.iter().zip(&slow.sinks) {
            assert_eq!(a.mem, b.mem, "mode {mode}: events");
            assert_eq!(a.insts, b.insts, "mode {mode}: instructions");
            if !matches!(mode, 2 | 8) {
                assert_eq!(a.stores, b.stores, "mode {mode}: stored values");
            }
        }
        let events = fast
            .sinks
            .iter()
            .flat_map(|s| &s.mem)
            .filter(|m| m.3.starts_with("Global"))
            .count();
        let faults = fast.faults.len();
        // hand-derived: the misaligned, the out-of-bounds and the wrapping modes fault in both
        // blocks (at most one fault per block: block 0's second warp runs past the buffers in
        // mode 4, every warp of block 1 does); the others run every access
        match mode {
            3 | 4 | 7 => assert_eq!(faults, 2, "mode {mode}: {:?}", fast.faults),
            _ => {
                assert_eq!(faults, 0, "mode {mode}: {:?}", fast.faults);
                assert_eq!(events, 4 * 7, "mode {mode}: 7 global accesses per warp");
            }
        }
        if mode == 0 {
            // lane i's first store: out[i] = in[i] + in[i + 1]; the later stores write out[i + 1]
            // and out[i + 2]
            let out = fast.buffers[1].as_ref().expect("the output buffer");
            let w = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            let x = |i: u32| i * 7 % 1000;
            // lane 0 of block 0: out[0] = in[0] + in[1] = 0 + 7 (nothing later writes word 0)
            assert_eq!(w(0), x(0) + x(1));
        }
    }
}
