//! Whole warps whose lanes 0-15 and 16-31 are each one run of 4-byte words (a 2D block 16 threads
//! wide): the emulator reads and writes each half's 16 words at once. Loads, stores (halves that
//! overlap included: the later lane's value stays), halves in two buffers and halves past a
//! buffer's end give the results, faults and events of the reference path
//! (`Limits::reference_paths`, lane by lane).

use warpscope_emu::{Arg, Launch, Limits, MemEvent, Sink, run};

/// An event as data: block, warp, pc, space and operation, width, mask, active addresses.
type Access = (u32, u32, u32, String, u8, u32, Vec<u64>);

#[derive(Default)]
struct Record(Vec<Access>);

impl Sink for Record {
    fn mem(&mut self, e: &MemEvent<'_>) {
        let addrs = (0..32)
            .filter(|l| e.mask >> l & 1 != 0)
            .map(|l| e.addrs[l])
            .collect();
        let what = format!("{:?} {:?}", e.space, e.op);
        self.0.push((e.block, e.warp, e.pc, what, e.width, e.mask, addrs));
    }
}

/// Thread (x, y) of a 16-wide block loads word `y p + x` of `a` (of `b` in odd rows when `sel` is
/// not 0), adds its thread index and stores the sum at word `y p + x` of `c`.
const KERNEL: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 p, .param .u32 sel)
{
    .reg .pred %p<2>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    ld.param.u32 %r1, [p];
    ld.param.u32 %r2, [sel];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %tid.y;
    mad.lo.u32 %r5, %r4, %r1, %r3;
    mul.wide.u32 %rd4, %r5, 4;
    and.b32 %r6, %r4, 1;
    and.b32 %r6, %r6, %r2;
    setp.ne.u32 %p1, %r6, 0;
    selp.b64 %rd5, %rd2, %rd1, %p1;
    add.s64 %rd6, %rd5, %rd4;
    ld.global.u32 %r7, [%rd6];
    mad.lo.u32 %r8, %r4, 16, %r3;
    add.u32 %r9, %r7, %r8;
    add.s64 %rd7, %rd3, %rd4;
    st.global.u32 [%rd7], %r9;
    ret;
}
"#;

/// Runs a 16 x 8 block with row pitch `p` words, `sel`, and `words` words in `a`, `b` and `c`, on
/// the fast and the reference path; both must agree. Returns the fast run's faults (as text) and
/// `c`.
fn check(p: u32, sel: u32, words: usize) -> (Vec<String>, Vec<u8>) {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let fill = |k: u32| -> Vec<u8> {
        (0..words as u32)
            .flat_map(|v| (v * 7 + k).to_le_bytes())
            .collect()
    };
    let l = Launch::new(
        [1, 1, 1],
        [16, 8, 1],
        vec![
            Arg::Buffer(fill(1)),
            Arg::Buffer(fill(100_000)),
            Arg::Buffer(vec![0; 4 * words]),
            Arg::U32(p),
            Arg::U32(sel),
        ],
    );
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    let fast = run(&prog, "k", &l, &Limits::default(), |_| Record::default()).unwrap();
    let slow = run(&prog, "k", &l, &reference, |_| Record::default()).unwrap();
    let what = format!("pitch {p}, sel {sel}, {words} words");
    assert_eq!(fast.buffers, slow.buffers, "results: {what}");
    let faults = |f: &[warpscope_emu::EmuFault]| f.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>();
    assert_eq!(faults(&fast.faults), faults(&slow.faults), "faults: {what}");
    for (f, s) in fast.sinks.iter().zip(&slow.sinks) {
        assert_eq!(f.0, s.0, "events: {what}");
    }
    let c = fast.buffers[2].clone().expect("c");
    (faults(&fast.faults), c)
}

#[test]
fn half_warp_runs_are_the_lanes() {
    // rows apart, adjacent (one run), overlapping by a word, the same row, rows in two buffers
    for p in [16u32, 17, 64, 1000, 15, 0] {
        for sel in [0, 1] {
            let (faults, _) = check(p, sel, 8 * 1000 + 16);
            assert!(faults.is_empty(), "pitch {p}: {faults:?}");
        }
    }
    // by hand: pitch 0, every row at words 0-15: the last row's lanes (thread 112 + x) store last,
    // `a[x] + 112 + x` with a[x] = 7 x + 1
    let (_, c) = check(0, 0, 64);
    let word = |i: usize| u32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
    for x in 0..16 {
        assert_eq!(word(x), 7 * x as u32 + 1 + 112 + x as u32, "word {x}");
    }
    // pitch 15: row y+1's first word is row y's last; the odd row (the warp's second half) wins
    let (_, c) = check(15, 0, 8 * 15 + 16);
    let word = |i: usize| u32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!(
        word(15),
        7 * 15 + 1 + 16,
        "row 1's thread (0, 1) stores after row 0's (15, 0)"
    );
}

#[test]
fn half_warp_runs_past_the_end_fault_as_the_lanes() {
    // the buffers end inside a row: row 5 of 8 (pitch 64) ends at word 335; 330 words
    let (faults, _) = check(64, 0, 330);
    assert_eq!(faults.len(), 1, "{faults:?}");
    // a half of the second buffer past its end only in odd rows
    let (faults, _) = check(40, 1, 5 * 40 + 8);
    assert_eq!(faults.len(), 1, "{faults:?}");
}
