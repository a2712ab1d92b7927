//! The decoded fast path of plain 4-byte shared loads and stores (`X::Sh32`) against the general
//! instruction path (`Limits::reference_paths`): the same memory events, stored values, results,
//! faults and instruction counts on the test kernels, with partial masks, an out-of-bounds and a
//! misaligned shared access.

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
