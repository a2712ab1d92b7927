//! Loads whose values are known before the launch (a kernel's `ld.param` of its arguments and an
//! `ld.const` at a constant address, read once a launch: `exec::known`) against the reference path
//! (`Limits::reference_paths`: every warp loads them through `ldst`): the same memory events,
//! results, faults and instruction counts for 8-, 16-, 32- and 64-bit, signed and vector
//! parameters, a constant array, loads under a partial mask, and a parameter whose address row the
//! kernel computes (which stays a load). A sink that does not look at parameter loads
//! (`Sink::param_loads`) gets every other event as before.

use warpscope_emu::{Arg, Launch, Limits, MemEvent, Sink, run};

/// A memory event as data: block, warp, pc, space and operation, width, mask, active addresses.
type Access = (u32, u32, u32, String, u8, u32, Vec<u64>);

/// Every event, as data.
#[derive(Debug, Default, PartialEq)]
struct Record {
    /// `false`: the sink says it does not look at parameter and constant loads.
    skip: bool,
    mem: Vec<Access>,
    insts: Vec<(u32, u32, u32)>,
}

impl Sink for Record {
    fn param_loads(&self) -> bool {
        !self.skip
    }
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
}

/// Each thread writes 8 words: the sign-extended `s8` and `s16` parameters, the `u32`, the two
/// halves of the `u64`, the sum of the `.v2.u32` pair, the constant array's element 3 and the
/// parameter loaded through a computed address (`mov` of the symbol, then `+ 0`); odd lanes load
/// the `u32` again under a predicate (a partial mask) and add it to the last word.
const KERNEL: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.const .align 4 .b32 tab[8] = {10, 11, 12, 13, 14, 15, 16, 17};

.visible .entry k(.param .u64 out, .param .s8 c, .param .s16 h, .param .u32 u, .param .u64 q, .param .align 8 .b8 pair[8])
{
    .reg .pred %p<3>;
    .reg .b16 %rs<3>;
    .reg .b32 %r<24>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [out];
    ld.param.s8 %r1, [c];
    ld.param.s16 %r2, [h];
    ld.param.u32 %r3, [u];
    ld.param.u64 %rd2, [q];
    ld.param.v2.u32 {%r4, %r5}, [pair];
    ld.const.u32 %r6, [tab+12];
    mov.u64 %rd3, u;
    add.u64 %rd3, %rd3, 0;
    ld.param.u32 %r7, [%rd3];
    mov.u32 %r8, %tid.x;
    mov.u32 %r9, %ctaid.x;
    mov.u32 %r10, %ntid.x;
    mad.lo.u32 %r11, %r9, %r10, %r8;
    and.b32 %r12, %r8, 1;
    setp.eq.u32 %p1, %r12, 1;
    mov.u32 %r13, 0;
    @%p1 ld.param.u32 %r13, [u];
    add.u32 %r7, %r7, %r13;
    mul.wide.u32 %rd4, %r11, 32;
    add.s64 %rd5, %rd1, %rd4;
    cvt.u32.u64 %r14, %rd2;
    shr.u64 %rd6, %rd2, 32;
    cvt.u32.u64 %r15, %rd6;
    add.u32 %r16, %r4, %r5;
    st.global.u32 [%rd5], %r1;
    st.global.u32 [%rd5+4], %r2;
    st.global.u32 [%rd5+8], %r3;
    st.global.u32 [%rd5+12], %r14;
    st.global.u32 [%rd5+16], %r15;
    st.global.u32 [%rd5+20], %r16;
    st.global.u32 [%rd5+24], %r6;
    st.global.u32 [%rd5+28], %r7;
    ret;
}
"#;

fn launch() -> Launch {
    let mut pair = 7u32.to_le_bytes().to_vec();
    pair.extend(35u32.to_le_bytes());
    Launch::new(
        [3, 1, 1],
        [48, 1, 1],
        vec![
            Arg::Buffer(vec![0; 3 * 48 * 32]),
            Arg::Bytes(vec![0xfe]),
            Arg::Bytes((-300i16).to_le_bytes().to_vec()),
            Arg::U32(0x8000_0005),
            Arg::U64(0x1234_5678_9abc_def0),
            Arg::Bytes(pair),
        ],
    )
}

#[test]
fn known_loads_equal_the_reference() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let l = launch();
    let fast = run(&prog, "k", &l, &Limits::default(), |_| Record::default()).unwrap();
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    let slow = run(&prog, "k", &l, &reference, |_| Record::default()).unwrap();
    assert_eq!(fast.buffers, slow.buffers, "results");
    assert_eq!(fast.faults, slow.faults, "faults");
    assert!(fast.faults.is_empty(), "{:?}", fast.faults);
    assert_eq!(fast.counters, slow.counters, "counters");
    assert_eq!(fast.sinks.len(), 3);
    for (a, b) in fast.sinks.iter().zip(&slow.sinks) {
        assert_eq!(a.mem, b.mem, "events");
        assert_eq!(a.insts, b.insts, "instructions");
    }
    // hand-derived: per warp 8 parameter loads (out, c, h, u, q, pair, the computed-address u,
    // the odd lanes' u) and one constant load; two warps per block (48 threads)
    let params = |s: &Record| s.mem.iter().filter(|m| m.3 == "Param Load").count();
    let consts = |s: &Record| s.mem.iter().filter(|m| m.3 == "Const Load").count();
    assert_eq!(params(&fast.sinks[0]), 2 * 8);
    assert_eq!(consts(&fast.sinks[0]), 2);
    // the odd lanes' load: the second warp has lanes 0..16 (threads 32..48), its odd ones 0xaaaa
    let odd: Vec<u32> = fast.sinks[0]
        .mem
        .iter()
        .filter(|m| m.3 == "Param Load" && m.5 != u32::MAX && m.5 != 0xffff)
        .map(|m| m.5)
        .collect();
    assert_eq!(odd, [0xaaaa_aaaa, 0xaaaa]);
    // the words written, from the arguments: -2, -300, u, q's halves, 7 + 35, tab[3] = 13,
    // u (+ u in odd lanes)
    let out = fast.buffers[0].as_ref().expect("the output buffer");
    let w =
        |t: usize, k: usize| u32::from_le_bytes(out[32 * t + 4 * k..32 * t + 4 * k + 4].try_into().unwrap());
    for t in [0usize, 1, 47, 100, 143] {
        let u = 0x8000_0005u32;
        let last = if t % 48 % 2 == 1 { u.wrapping_add(u) } else { u };
        let want = [
            (-2i32) as u32,
            (-300i32) as u32,
            u,
            0x9abc_def0,
            0x1234_5678,
            42,
            13,
            last,
        ];
        let got: Vec<u32> = (0..8).map(|k| w(t, k)).collect();
        assert_eq!(got, want, "thread {t}");
    }
}

#[test]
fn a_sink_that_ignores_parameter_loads_gets_every_other_event() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let l = launch();
    let skip = |_| Record {
        skip: true,
        ..Record::default()
    };
    let fast = run(&prog, "k", &l, &Limits::default(), skip).unwrap();
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    let slow = run(&prog, "k", &l, &reference, |_| Record::default()).unwrap();
    assert_eq!(fast.buffers, slow.buffers, "results");
    assert_eq!(fast.counters, slow.counters, "counters");
    for (a, b) in fast.sinks.iter().zip(&slow.sinks) {
        assert_eq!(a.insts, b.insts, "instructions");
        // the reference's events less its known loads: every parameter and constant load but
        // the one through a computed address, which this sink still gets (one per warp, at one
        // pc, after the kernel's first loads)
        let pcs: Vec<u32> = a
            .mem
            .iter()
            .filter(|m| m.3 == "Param Load")
            .map(|m| m.2)
            .collect();
        assert_eq!(pcs.len(), 2, "the computed-address loads");
        assert_eq!(pcs[0], pcs[1]);
        assert!(pcs[0] > b.mem[0].2 + 6, "{pcs:?}");
        let kept: Vec<&Access> = b
            .mem
            .iter()
            .filter(|m| !matches!(m.3.as_str(), "Param Load" | "Const Load") || m.2 == pcs[0])
            .collect();
        assert_eq!(a.mem.iter().collect::<Vec<_>>(), kept, "events");
        assert_eq!(a.mem.iter().filter(|m| m.3.starts_with("Global")).count(), 2 * 8);
    }
}
