//! The decoded fast path of plain 4-byte shared loads and stores (`X::Sh32`) against the general
//! instruction path (`Limits::reference_paths`): the same memory events, stored values, results,
//! faults and instruction counts on the test kernels, with partial masks, an out-of-bounds and a
//! misaligned shared access; and the whole-warp `.v2` / `.v4` fast path of shared and global
//! memory the same way (aligned, misaligned, out of bounds, partial masks, lanes sharing a word).

use warpscope_emu::{Arg, Launch, Limits, MemEvent, Sink, run};

/// A memory event as data: block, warp, pc, space and operation, width, mask, active addresses.
type Access = (u32, u32, u32, String, u8, u32, Vec<u64>);

/// Every event, as data.
#[derive(Debug, Default, PartialEq)]
struct Record {
    mem: Vec<Access>,
    insts: Vec<(u32, u32, u32)>,
    /// `Sink::store_values`: warp, pc, element bytes, the rows.
    stores: Vec<(u32, u32, u8, Vec<[u64; 32]>)>,
}

impl Sink for Record {
    fn mem(&mut self, e: &MemEvent<'_>) {
        // the values a store announced just before its event: only its active lanes' are defined
        if matches!(e.op, warpscope_emu::AccessOp::Store)
            && let Some(last) = self.stores.last_mut()
            && (last.0, last.1) == (e.warp, e.pc)
        {
            for row in &mut last.3 {
                for (l, v) in row.iter_mut().enumerate() {
                    if e.mask >> l & 1 == 0 {
                        *v = 0;
                    }
                }
            }
        }
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
        self.stores
            .push((warp, pc, elem, rows.iter().map(|r| **r).collect()));
    }
}

fn both(prog: &warpscope_ptx::Program, kernel: &str, launch: &Launch) -> usize {
    let fast = run(prog, kernel, launch, &Limits::default(), |_| Record::default()).unwrap();
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    let slow = run(prog, kernel, launch, &reference, |_| Record::default()).unwrap();
    assert_eq!(fast.buffers, slow.buffers, "{kernel}: results");
    assert_eq!(fast.faults, slow.faults, "{kernel}: faults");
    assert_eq!(fast.counters, slow.counters, "{kernel}: counters");
    assert!(fast.sinks == slow.sinks, "{kernel}: events");
    let shared = fast
        .sinks
        .iter()
        .flat_map(|s| &s.mem)
        .filter(|m| m.3.starts_with("Shared"))
        .count();
    assert!(fast.faults.is_empty() || shared > 0);
    // every shared store announced its values just before its event
    let stores: usize = fast.sinks.iter().map(|s| s.stores.len()).sum();
    let store_events = fast
        .sinks
        .iter()
        .flat_map(|s| &s.mem)
        .filter(|m| m.3.ends_with(" Store"))
        .count();
    assert!(stores > 0 || store_events == 0, "{kernel}: no store values");
    shared
}

fn floats(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| ((i % 13) as f32 - 6.0).to_le_bytes())
        .collect()
}

#[test]
fn the_fast_shared_path_equals_the_general_one_on_the_test_kernels() {
    let src =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kernels.ptx")).unwrap();
    let prog = warpscope_ptx::compile(&src).unwrap();
    let n = 64usize;
    let cases = [
        (
            "matmul",
            Launch::new(
                [4, 4, 1],
                [16, 16, 1],
                vec![
                    Arg::Buffer(floats(n * n)),
                    Arg::Buffer(floats(n * n)),
                    Arg::Buffer(vec![0; n * n * 4]),
                    Arg::I32(n as i32),
                ],
            ),
        ),
        (
            "transpose",
            Launch::new(
                [3, 3, 1],
                [32, 8, 1],
                vec![
                    Arg::Buffer(floats(90 * 90)),
                    Arg::Buffer(vec![0; 90 * 90 * 4]),
                    Arg::U32(90),
                ],
            ),
        ),
        (
            "reduce",
            // 1000 elements: the last block's lanes partly masked
            Launch::new(
                [4, 1, 1],
                [256, 1, 1],
                vec![
                    Arg::Buffer(floats(1000)),
                    Arg::Buffer(vec![0; 16]),
                    Arg::U32(1000),
                ],
            ),
        ),
        (
            "scan",
            Launch::new(
                [2, 1, 1],
                [256, 1, 1],
                vec![Arg::Buffer(floats(512)), Arg::Buffer(vec![0; 2048])],
            ),
        ),
        (
            "histogram",
            Launch::new(
                [2, 1, 1],
                [256, 1, 1],
                vec![
                    Arg::Buffer((0..2000u32).flat_map(|i| (i * 7 % 256).to_le_bytes()).collect()),
                    Arg::Buffer(vec![0; 1024]),
                    Arg::U32(2000),
                ],
            ),
        ),
    ];
    let mut shared = 0;
    for (k, l) in &cases {
        shared += both(&prog, k, l);
    }
    // the kernels do use shared memory: the comparison covered fast-path accesses
    assert!(shared > 1000, "{shared}");
}

const FAULTS: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 s[260];

.visible .entry k(.param .u64 out, .param .u32 mode)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r9, [mode];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, s;
    add.s32 %r4, %r3, %r2;
    // lanes 0..19 store, then every lane loads its neighbour's word
    setp.lt.u32 %p1, %r1, 20;
    @%p1 st.shared.u32 [%r4], %r1;
    bar.sync 0;
    ld.shared.u32 %r5, [%r4+4];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    // mode 1: lane 5 reads past the 256-byte window; mode 2: lane 3 misaligned
    setp.eq.u32 %p2, %r9, 1;
    setp.eq.u32 %p3, %r9, 2;
    @%p2 add.s32 %r6, %r4, 1000;
    @!%p2 mov.u32 %r6, %r4;
    @%p3 add.s32 %r6, %r4, 2;
    setp.eq.u32 %p1, %r1, 5;
    @%p1 ld.shared.u32 %r7, [%r6+64];
    setp.eq.u32 %p1, %r1, 3;
    @%p1 st.shared.u32 [%r6], %r7;
    ret;
}
"#;

#[test]
fn the_fast_shared_path_faults_as_the_general_one() {
    let prog = warpscope_ptx::compile(FAULTS).unwrap();
    for mode in 0..3u32 {
        let l = Launch::new(
            [2, 1, 1],
            [64, 1, 1],
            vec![Arg::Buffer(vec![0; 256]), Arg::U32(mode)],
        );
        both(&prog, "k", &l);
        let r = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
        assert_eq!(
            r.faults.len(),
            if mode == 0 { 0 } else { 2 },
            "mode {mode}: {:?}",
            r.faults
        );
    }
}

/// Vector loads and stores of shared and global memory: `mode` 0 every lane its own float4 (and a
/// `.v2` of shared words, a `.v4` broadcast of one shared float4), 1 lanes 8 bytes apart (a `.v4`
/// misaligned by 8: the general path), 2 lane 7 stores past the global buffer's end, 3 every lane
/// the same float4 (one address loaded by all, stored by all: the last lane's store stays), 4 odd
/// lanes only (a partial mask: the general path).
const VECTORS: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 16 .b8 t[1024];

.visible .entry v(.param .u64 in, .param .u64 out, .param .u32 mode)
{
    .reg .pred %p<4>;
    .reg .b32 %r<20>;
    .reg .f32 %f<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r9, [mode];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 4;
    setp.eq.u32 %p1, %r9, 1;
    @%p1 shl.b32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r9, 3;
    @%p1 mov.u32 %r2, 0;
    // the global side 16-byte aligned in every mode (a v4 access elsewhere faults)
    and.b32 %r14, %r2, -16;
    setp.eq.u32 %p2, %r9, 2;
    setp.eq.u32 %p3, %r1, 7;
    and.pred %p3, %p3, %p2;
    cvt.u64.u32 %rd3, %r14;
    add.s64 %rd4, %rd1, %rd3;
    setp.eq.u32 %p2, %r9, 4;
    and.b32 %r3, %r1, 1;
    setp.eq.and.u32 %p2, %r3, 0, %p2;
    @%p2 bra DONE;
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
    mov.u32 %r4, t;
    and.b32 %r5, %r2, 1008;
    add.s32 %r6, %r4, %r5;
    st.shared.v4.f32 [%r6], {%f4, %f3, %f2, %f1};
    bar.warp.sync -1;
    xor.b32 %r7, %r5, 16;
    add.s32 %r8, %r4, %r7;
    ld.shared.v4.f32 {%f5, %f6, %f7, %f8}, [%r8];
    ld.shared.v2.u32 {%r10, %r11}, [%r8+8];
    ld.shared.v4.f32 {%f9, %f10, %f11, %f1}, [%r4+32];
    add.f32 %f5, %f5, %f9;
    add.f32 %f6, %f6, %f10;
    mov.b32 %f7, %r10;
    mov.b32 %f8, %r11;
    mov.u32 %r12, %r14;
    @%p3 add.s32 %r12, %r14, 4096;
    cvt.u64.u32 %rd6, %r12;
    add.s64 %rd5, %rd2, %rd6;
    st.global.v4.f32 [%rd5], {%f5, %f6, %f7, %f8};
    st.global.v2.f32 [%rd5+8], {%f11, %f1};
DONE:
    ret;
}
"#;

#[test]
fn the_vector_fast_path_equals_the_general_one() {
    let prog = warpscope_ptx::compile(VECTORS).unwrap();
    for mode in 0..5u32 {
        let l = Launch::new(
            [2, 1, 1],
            [64, 1, 1],
            vec![
                Arg::Buffer(floats(1024)),
                Arg::Buffer(vec![0; 4096]),
                Arg::U32(mode),
            ],
        );
        let shared = both(&prog, "v", &l);
        let r = run(&prog, "v", &l, &Limits::default(), |_| ()).unwrap();
        // mode 2: lane 7 of the first warp of each block stores past the 4,096-byte buffer
        assert_eq!(
            r.faults.len(),
            if mode == 2 { 2 } else { 0 },
            "mode {mode}: {:?}",
            r.faults
        );
        if mode != 2 {
            assert!(shared >= 16, "mode {mode}: {shared} shared events");
            // the results are the loads' values: lane 0 of mode 0 stores (in[4] + in[8]) first
            let out = r.buffers[1].as_ref().expect("the output buffer");
            let f = |i: usize| f32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
            if mode == 0 {
                let x = |i: usize| (i % 13) as f32 - 6.0;
                // lane 0 reads lane 1's reversed float4 (in[7], in[6], ...) and the broadcast of
                // shared bytes 32..48 (lane 2's reversed float4: in[11], in[10], in[9], in[8])
                assert_eq!(f(0), x(7) + x(11), "lane 0's first element");
                assert_eq!(f(1), x(6) + x(10), "lane 0's second element");
            }
        }
    }
}

/// A whole warp's store of 32 consecutive words (`X::Sh32`'s one-copy path) at `shift` bytes past
/// a 128-byte array: in the window, at its end and straddling it, the same memory, events and
/// faults as the general path.
const RUN_STORES: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 t[128];

.visible .entry r(.param .u64 out, .param .u32 shift)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [shift];
    mov.u32 %r2, %tid.x;
    shl.b32 %r3, %r2, 2;
    mov.u32 %r4, t;
    add.s32 %r5, %r4, %r3;
    add.s32 %r6, %r5, %r1;
    add.s32 %r7, %r2, 100;
    st.shared.u32 [%r6], %r7;
    bar.sync 0;
    ld.shared.u32 %r7, [%r5];
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
    ret;
}
"#;

#[test]
fn a_warp_storing_consecutive_words_equals_the_general_path_at_the_window_end() {
    let prog = warpscope_ptx::compile(RUN_STORES).unwrap();
    let (mut clean, mut faulted) = (0, 0);
    // every 1 KB boundary up to 228 KB: some run ends inside the window, some straddles its end
    let shifts = [0u32, 4, 64].into_iter().chain((1..=228).map(|k| k * 1024 - 64));
    for shift in shifts {
        let l = Launch::new(
            [1, 1, 1],
            [32, 1, 1],
            vec![Arg::Buffer(vec![0; 128]), Arg::U32(shift)],
        );
        both(&prog, "r", &l);
        let r = run(&prog, "r", &l, &Limits::default(), |_| ()).unwrap();
        if r.faults.is_empty() {
            clean += 1;
        } else {
            faulted += 1;
        }
        if shift == 0 {
            // the lanes read back their own stores: 100 + lane
            let want: Vec<u8> = (0..32u32).flat_map(|l| (100 + l).to_le_bytes()).collect();
            assert_eq!(r.buffers[0].as_deref(), Some(want.as_slice()));
        }
    }
    assert!(clean > 0 && faulted > 0, "{clean} clean, {faulted} faulted");
}
