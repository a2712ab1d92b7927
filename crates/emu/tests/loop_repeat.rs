//! Loop iterations repeated at once (`Sink::repeat`) against stepping every iteration (the
//! reference paths, `Limits::reference_paths`): the same events in the same order, the same
//! memory, counters and faults, on the stream demo's loop (`C[i] = A[i] + B[i]` N times, unrolled
//! by four as nvcc emits it) and on loops next to it: iterations that change memory, a result
//! array aliasing an input, trip counts 0 to 9, partial warps and lanes leaving the loop one by
//! one, an address made from the counter, counting up with the compare before the update, a
//! 64-bit counter that wraps into the instruction limit, the branch taken on the compare's false
//! output, a loop without memory, another warp of the block and another block writing the words
//! the loop reads (whatever the number of threads).

use warpscope_emu::{Arg, IterEvent, Iteration, Launch, Limits, MemEvent, RunResult, Sink, run};

#[derive(Debug, Clone, PartialEq)]
enum Ev {
    Mem(u32, u32, u32, String, u8, u32, Vec<u64>),
    Insts(u32, u32, u32, u32),
    Store(u32, u32, u8, Vec<Vec<u64>>),
    Branch(u32, u32, u32, u32, u32),
}

/// Every event in order, and how many iterations came as repeats.
#[derive(Debug, Default)]
struct Log {
    ev: Vec<Ev>,
    repeated: u64,
}

impl Sink for Log {
    fn mem(&mut self, e: &MemEvent<'_>) {
        // the values of lanes that do not store are not defined (pooled registers)
        if let (warpscope_emu::AccessOp::Store, Some(Ev::Store(_, _, _, rows))) = (e.op, self.ev.last_mut()) {
            for r in rows {
                for (l, v) in r.iter_mut().enumerate() {
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
        self.ev.push(Ev::Mem(
            e.block,
            e.warp,
            e.pc,
            format!("{:?} {:?}", e.space, e.op),
            e.width,
            e.mask,
            addrs,
        ));
    }
    fn insts(&mut self, warp: u32, pc: u32, n: u32, active: u32) {
        self.ev.push(Ev::Insts(warp, pc, n, active));
    }
    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        self.ev.push(Ev::Store(
            warp,
            pc,
            elem,
            rows.iter().map(|r| r.to_vec()).collect(),
        ));
    }
    fn branch(&mut self, e: &warpscope_emu::BranchEvent) {
        self.ev.push(Ev::Branch(e.block, e.warp, e.pc, e.active, e.taken));
    }
    fn repeat(&mut self, it: &Iteration, times: u64) {
        // what is repeated is one whole iteration, ending with its taken backward branch
        assert!(matches!(it.events.last(), Some(IterEvent::Branch { active, taken, .. }) if active == taken));
        self.repeated += times;
        it.replay_times(self, times);
    }
}

const KERNELS: &str = r#"
.version 8.0
.target sm_90
.address_size 64

// the stream demo as nvcc -O2 emits it, with the element count `len` apart from the trips `n`
.visible .entry stream(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u32 len, .param .u32 n)
{
    .reg .pred %p<8>;
    .reg .f32 %f<16>;
    .reg .b32 %r<15>;
    .reg .b64 %rd<11>;
    ld.param.u64 %rd4, [p0];
    ld.param.u64 %rd5, [p1];
    ld.param.u64 %rd6, [p2];
    ld.param.u32 %r7, [len];
    ld.param.u32 %r8, [n];
    mov.u32 %r9, %ctaid.x;
    mov.u32 %r10, %ntid.x;
    mov.u32 %r11, %tid.x;
    mad.lo.s32 %r1, %r9, %r10, %r11;
    setp.ge.s32 %p1, %r1, %r7;
    setp.lt.s32 %p2, %r8, 1;
    or.pred %p3, %p1, %p2;
    @%p3 bra $L__BB0_6;
    cvta.to.global.u64 %rd7, %rd4;
    mul.wide.s32 %rd8, %r1, 4;
    add.s64 %rd1, %rd7, %rd8;
    cvta.to.global.u64 %rd9, %rd5;
    add.s64 %rd2, %rd9, %rd8;
    cvta.to.global.u64 %rd10, %rd6;
    add.s64 %rd3, %rd10, %rd8;
    and.b32 %r14, %r8, 3;
    add.s32 %r12, %r8, -1;
    setp.lt.u32 %p4, %r12, 3;
    @%p4 bra $L__BB0_4;
    sub.s32 %r13, %r8, %r14;
$L__BB0_3:
    ld.global.f32 %f1, [%rd2];
    ld.global.f32 %f2, [%rd1];
    add.f32 %f3, %f2, %f1;
    st.global.f32 [%rd3], %f3;
    ld.global.f32 %f4, [%rd2];
    ld.global.f32 %f5, [%rd1];
    add.f32 %f6, %f5, %f4;
    st.global.f32 [%rd3], %f6;
    ld.global.f32 %f7, [%rd2];
    ld.global.f32 %f8, [%rd1];
    add.f32 %f9, %f8, %f7;
    st.global.f32 [%rd3], %f9;
    ld.global.f32 %f10, [%rd2];
    ld.global.f32 %f11, [%rd1];
    add.f32 %f12, %f11, %f10;
    st.global.f32 [%rd3], %f12;
    add.s32 %r13, %r13, -4;
    setp.ne.s32 %p5, %r13, 0;
    @%p5 bra $L__BB0_3;
$L__BB0_4:
    setp.eq.s32 %p6, %r14, 0;
    @%p6 bra $L__BB0_6;
$L__BB0_5:
    ld.global.f32 %f13, [%rd2];
    ld.global.f32 %f14, [%rd1];
    add.f32 %f15, %f14, %f13;
    st.global.f32 [%rd3], %f15;
    add.s32 %r14, %r14, -1;
    setp.ne.s32 %p7, %r14, 0;
    @%p7 bra $L__BB0_5;
$L__BB0_6:
    ret;
}

// one loop per mode over C[i] (C = A + coff bytes: 0 makes C the same array as A), n trips:
// 0: C[i] += A[i] (memory changes every iteration)
// 1: C[i] = A[i] + B[i]
// 2: C[i] = A[k] + B[i], k the counter (the address moves)
// 3: counting up, the compare read before the update, the branch taken on its false output
// 4: a 64-bit unsigned counter down by 3 while above 5 (it wraps below 0 when n < 3)
// 5: down to 0 through the compare's second output (`setp p|q`), taken on q
// 6: lane l loops n + (l & 7) times (the lanes leave one by one)
// 7: every lane stores its sum to C[i & ~3] (four lanes per word, the last one's value stays)
// 8: no memory in the loop: x = x * 1 (a float fixpoint) n times, stored after
.visible .entry modes(.param .u64 pa, .param .u64 pb, .param .u64 coff, .param .u32 len, .param .u32 n, .param .u32 mode)
{
    .reg .pred %p<8>;
    .reg .f32 %f<8>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [coff];
    ld.param.u32 %r1, [len];
    ld.param.u32 %r2, [n];
    ld.param.u32 %r3, [mode];
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mov.u32 %r6, %tid.x;
    mad.lo.s32 %r7, %r4, %r5, %r6;
    setp.ge.u32 %p1, %r7, %r1;
    @%p1 bra DONE;
    mul.wide.u32 %rd4, %r7, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd1, %rd3;
    add.s64 %rd8, %rd7, %rd4;
    setp.eq.u32 %p2, %r3, 0;
    @%p2 bra M0;
    setp.eq.u32 %p2, %r3, 1;
    @%p2 bra M1;
    setp.eq.u32 %p2, %r3, 2;
    @%p2 bra M2;
    setp.eq.u32 %p2, %r3, 3;
    @%p2 bra M3;
    setp.eq.u32 %p2, %r3, 4;
    @%p2 bra M4;
    setp.eq.u32 %p2, %r3, 5;
    @%p2 bra M5;
    setp.eq.u32 %p2, %r3, 6;
    @%p2 bra M6;
    setp.eq.u32 %p2, %r3, 7;
    @%p2 bra M7;
    bra.uni M8;
M0:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    mov.u32 %r8, %r2;
L0:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd8];
    add.f32 %f3, %f2, %f1;
    st.global.f32 [%rd8], %f3;
    add.s32 %r8, %r8, -1;
    setp.ne.s32 %p4, %r8, 0;
    @%p4 bra L0;
    bra.uni DONE;
M1:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    mov.u32 %r8, 0;
L1:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    add.s32 %r8, %r8, 1;
    setp.lt.u32 %p4, %r8, %r2;
    @%p4 bra L1;
    bra.uni DONE;
M2:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    mov.u32 %r8, 0;
L2:
    mul.wide.u32 %rd9, %r8, 4;
    add.s64 %rd10, %rd1, %rd9;
    ld.global.f32 %f1, [%rd10];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    add.s32 %r8, %r8, 1;
    setp.lt.u32 %p4, %r8, %r2;
    @%p4 bra L2;
    bra.uni DONE;
M3:
    mov.u32 %r8, 0;
L3:
    setp.ge.s32 %p4, %r8, %r2;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    add.s32 %r8, %r8, 1;
    @!%p4 bra L3;
    bra.uni DONE;
M4:
    cvt.u64.u32 %rd11, %r2;
L4:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    sub.s64 %rd11, %rd11, 3;
    setp.hi.u64 %p4, %rd11, 5;
    @%p4 bra L4;
    bra.uni DONE;
M5:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    mov.u32 %r8, %r2;
L5:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    sub.u32 %r8, %r8, 1;
    setp.eq.u32 %p4|%p5, %r8, 0;
    @%p5 bra L5;
    bra.uni DONE;
M6:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    and.b32 %r9, %r6, 7;
    add.s32 %r8, %r2, %r9;
L6:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
    add.s32 %r8, %r8, -1;
    setp.gt.s32 %p4, %r8, 0;
    @%p4 bra L6;
    bra.uni DONE;
M7:
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra DONE;
    and.b32 %r10, %r7, -4;
    mul.wide.u32 %rd12, %r10, 4;
    add.s64 %rd13, %rd7, %rd12;
    mov.u32 %r8, %r2;
L7:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd13], %f3;
    add.s32 %r8, %r8, -1;
    setp.ne.s32 %p4, %r8, 0;
    @%p4 bra L7;
    bra.uni DONE;
M8:
    ld.global.f32 %f1, [%rd5];
    mov.u32 %r8, %r2;
    setp.eq.u32 %p3, %r2, 0;
    @%p3 bra S8;
L8:
    mul.f32 %f2, %f1, 0f3F800000;
    add.s32 %r8, %r8, -1;
    setp.ne.s32 %p4, %r8, 0;
    @%p4 bra L8;
    st.global.f32 [%rd8], %f2;
S8:
DONE:
    ret;
}

// each block adds its A and B into C n times (the stream loop, not unrolled); before its loop,
// lane 0 of warp 1 of each block writes `w` into A at the first element of the block before it
// (`cross` 1: another block's word) or of its own block (`cross` 2: a word warp 0 loops on)
.visible .entry cross(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 n, .param .u32 cross, .param .f32 w)
{
    .reg .pred %p<8>;
    .reg .f32 %f<8>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u32 %r2, [n];
    ld.param.u32 %r3, [cross];
    ld.param.f32 %f5, [w];
    mov.u32 %r4, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mov.u32 %r6, %tid.x;
    mad.lo.s32 %r7, %r4, %r5, %r6;
    mul.wide.u32 %rd4, %r7, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    setp.ne.u32 %p1, %r6, 32;
    setp.eq.u32 %p2, %r3, 0;
    or.pred %p1, %p1, %p2;
    @%p1 bra LOOP0;
    mul.lo.u32 %r8, %r4, %r5;
    setp.eq.u32 %p3, %r3, 1;
    @%p3 sub.u32 %r8, %r8, %r5;
    setp.eq.u32 %p3, %r4, 0;
    setp.eq.and.u32 %p3, %r3, 1, %p3;
    @%p3 bra LOOP0;
    mul.wide.u32 %rd8, %r8, 4;
    add.s64 %rd9, %rd1, %rd8;
    st.global.f32 [%rd9], %f5;
LOOP0:
    setp.eq.u32 %p4, %r2, 0;
    @%p4 bra DONE;
    mov.u32 %r9, %r2;
LOOP:
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
    add.s32 %r9, %r9, -1;
    setp.ne.s32 %p5, %r9, 0;
    @%p5 bra LOOP;
DONE:
    ret;
}
"#;

fn floats(n: usize, k: u32) -> Vec<u8> {
    (0..n as u32)
        .flat_map(|i| ((i * k % 13) as f32).to_le_bytes())
        .collect()
}

fn reference(limits: &Limits) -> Limits {
    Limits {
        reference_paths: true,
        ..limits.clone()
    }
}

/// Runs `launch` repeating loops and stepping them; asserts the two the same; how many
/// iterations came as repeats.
fn same(kernel: &str, launch: &Launch, limits: &Limits, what: &str) -> u64 {
    let prog = warpscope_ptx::compile(KERNELS).unwrap();
    let fast = run(&prog, kernel, launch, limits, |_| Log::default()).unwrap();
    let slow = run(&prog, kernel, launch, &reference(limits), |_| Log::default()).unwrap();
    equal(&fast, &slow, what);
    fast.sinks.iter().map(|s| s.repeated).sum()
}

fn equal(fast: &RunResult<Log>, slow: &RunResult<Log>, what: &str) {
    assert_eq!(fast.buffers, slow.buffers, "{what}: memory");
    assert_eq!(fast.faults, slow.faults, "{what}: faults");
    assert_eq!(fast.counters, slow.counters, "{what}: counters");
    assert_eq!(fast.block_ids, slow.block_ids, "{what}: blocks");
    assert_eq!(fast.sinks.len(), slow.sinks.len());
    for (b, (a, s)) in fast.sinks.iter().zip(&slow.sinks).enumerate() {
        assert_eq!(a.ev.len(), s.ev.len(), "{what}: block {b}: events");
        for (i, (x, y)) in a.ev.iter().zip(&s.ev).enumerate() {
            assert_eq!(x, y, "{what}: block {b}: event {i}");
        }
    }
    assert!(
        slow.sinks.iter().all(|s| s.repeated == 0),
        "{what}: the reference repeated"
    );
}

#[test]
fn the_stream_loop_repeats_as_it_steps() {
    let len = 100usize;
    for n in [0u32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 64, 301] {
        // 40-thread blocks: every second warp has 8 lanes
        let l = Launch::new(
            [3, 1, 1],
            [40, 1, 1],
            vec![
                Arg::Buffer(floats(len, 7)),
                Arg::Buffer(floats(len, 3)),
                Arg::Buffer(vec![0; len * 4]),
                Arg::U32(len as u32),
                Arg::U32(n),
            ],
        );
        let repeated = same("stream", &l, &Limits::default(), &format!("stream n {n}"));
        // the unrolled loop runs n / 4 times: after its first the second is recorded, the last
        // leaves it, those between are repeated; the remainder (at most three) never is; five
        // warps have lanes below `len`
        let warps = 5;
        let main = (n / 4).saturating_sub(3) as u64;
        assert_eq!(repeated, warps * main, "stream n {n}: iterations repeated");
    }
}

#[test]
fn loops_next_to_the_stream_shape_repeat_as_they_step() {
    let len = 72usize;
    // (mode, C's offset from A in bytes, B's values, whether some iterations repeat)
    let cases: &[(u32, u64, u32, bool)] = &[
        (0, 4096, 3, false),
        (1, 4096, 3, true),
        // C is A: A[i] + B[i] changes A[i] every iteration, unless B is all zeros
        (1, 0, 3, false),
        (1, 0, 0, true),
        (2, 4096, 3, false),
        (3, 4096, 3, true),
        (5, 4096, 3, true),
        (6, 4096, 3, true),
        // four lanes store different values to one word: each store leaves the last lane's
        // value, but a lane's own value differs from what memory holds (not repeated)
        (7, 4096, 3, false),
        (8, 4096, 3, true),
    ];
    for &(mode, coff, k, repeats) in cases {
        let mut any = 0;
        for n in [0u32, 1, 2, 3, 4, 9, 40] {
            let mut a = floats(len, 7);
            a.resize(4096 + len * 4, 0);
            let l = Launch::new(
                [2, 1, 1],
                [48, 1, 1],
                vec![
                    Arg::Buffer(a),
                    Arg::Buffer(if k == 0 { vec![0; len * 4] } else { floats(len, k) }),
                    Arg::U64(coff),
                    Arg::U32(len as u32),
                    Arg::U32(n),
                    Arg::U32(mode),
                ],
            );
            any += same(
                "modes",
                &l,
                &Limits::default(),
                &format!("mode {mode} coff {coff} k {k} n {n}"),
            );
        }
        assert_eq!(any > 0, repeats, "mode {mode} coff {coff} k {k}: repeated {any}");
    }
}

/// A 64-bit counter that wraps below 0 loops into the instruction limit: the same fault at the
/// same instruction, after the same events, as stepping; and a limit met in the middle of the
/// iterations a repeat would add stops there too.
#[test]
fn the_instruction_limit_stops_a_repeated_loop_where_stepping_stops() {
    let len = 40usize;
    for (mode, n, budget, fault) in [
        (4u32, 2u32, 5_000u64, true),
        (4, 1000, 700, true),
        (4, 1000, 100_000, false),
        (1, 500, 1_234, true),
        (1, 500, 2_000, true),
        (1, 500, 20_000, false),
    ] {
        let mut a = floats(len, 7);
        a.resize(4096 + len * 4, 0);
        let l = Launch::new(
            [1, 1, 1],
            [64, 1, 1],
            vec![
                Arg::Buffer(a),
                Arg::Buffer(floats(len, 5)),
                Arg::U64(4096),
                Arg::U32(len as u32),
                Arg::U32(n),
                Arg::U32(mode),
            ],
        );
        let limits = Limits {
            max_warp_insts_per_block: budget,
            ..Limits::default()
        };
        let prog = warpscope_ptx::compile(KERNELS).unwrap();
        let fast = run(&prog, "modes", &l, &limits, |_| Log::default()).unwrap();
        let slow = run(&prog, "modes", &l, &reference(&limits), |_| Log::default()).unwrap();
        equal(&fast, &slow, &format!("mode {mode} n {n} budget {budget}"));
        assert_eq!(
            !fast.faults.is_empty(),
            fault,
            "mode {mode} n {n} budget {budget}: {:?}",
            fast.faults
        );
        assert!(
            fast.sinks.iter().any(|s| s.repeated > 0),
            "mode {mode} n {n} budget {budget}: nothing repeated"
        );
    }
}

/// Another warp of the block, or another block, writes a word the loop reads: the same result and
/// events as stepping, with one thread and with several (blocks that write what others read run
/// again in block order).
#[test]
fn words_written_by_other_warps_and_blocks_give_what_stepping_gives() {
    let prog = warpscope_ptx::compile(KERNELS).unwrap();
    let len = 8 * 64usize;
    for cross in [0u32, 1, 2] {
        for n in [1u32, 2, 5, 50] {
            let l = Launch::new(
                [8, 1, 1],
                [64, 1, 1],
                vec![
                    Arg::Buffer(floats(len, 7)),
                    Arg::Buffer(floats(len, 3)),
                    Arg::Buffer(vec![0; len * 4]),
                    Arg::U32(n),
                    Arg::U32(cross),
                    Arg::F32(100.0),
                ],
            );
            let what = format!("cross {cross} n {n}");
            let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let slow = one
                .install(|| {
                    run(&prog, "cross", &l, &reference(&Limits::default()), |_| {
                        Log::default()
                    })
                })
                .unwrap();
            for threads in [1, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let fast = pool
                    .install(|| run(&prog, "cross", &l, &Limits::default(), |_| Log::default()))
                    .unwrap();
                equal(&fast, &slow, &format!("{what}, {threads} threads"));
                if n == 50 {
                    assert!(
                        fast.sinks.iter().any(|s| s.repeated > 0),
                        "{what}: nothing repeated"
                    );
                }
            }
        }
    }
}
