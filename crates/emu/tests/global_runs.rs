//! `Sink::mem_run`: the emulator tells a sink which global accesses it already found to be one
//! whole-warp run. Every such event is one (all lanes, lane `l` at the first lane's address +
//! `l * width`), the events are those the reference path (`Limits::reference_paths`, which sends
//! every access through `Sink::mem`) sends, in the same order, and a sink that does not override
//! `mem_run` gets them all through `mem`.

use warpscope_emu::{Arg, Launch, Limits, MemEvent, Sink, run};

/// An event as data: whether it came through `mem_run`, block, warp, pc, space and operation,
/// width, mask, active addresses.
type Access = (bool, u32, u32, u32, String, u8, u32, Vec<u64>);

#[derive(Default)]
struct Record {
    /// `true`: `mem_run` overridden (else the default passes runs to `mem`).
    runs: bool,
    mem: Vec<Access>,
}

impl Record {
    fn push(&mut self, run: bool, e: &MemEvent<'_>) {
        let addrs = (0..32)
            .filter(|l| e.mask >> l & 1 != 0)
            .map(|l| e.addrs[l])
            .collect();
        let what = format!("{:?} {:?}", e.space, e.op);
        self.mem
            .push((run, e.block, e.warp, e.pc, what, e.width, e.mask, addrs));
    }
}

impl Sink for Record {
    fn mem(&mut self, e: &MemEvent<'_>) {
        self.push(false, e);
    }
    fn mem_run(&mut self, e: &MemEvent<'_>) {
        if self.runs {
            self.push(true, e);
        } else {
            self.mem(e);
        }
    }
}

/// Thread `i` loads `a[i]` (a run), `a[2 i]` (not one), `b[i]` as bytes (not 4-byte), stores
/// `c[i]` (a run) and, where `i` is even, `c[i + 1]` (a partial warp).
const KERNEL: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c)
{
    .reg .pred %p<2>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.u32 %r4, %r2, %r3, %r1;
    mul.wide.u32 %rd4, %r4, 4;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.u32 %r5, [%rd5];
    mul.wide.u32 %rd6, %r4, 8;
    add.s64 %rd7, %rd1, %rd6;
    ld.global.u32 %r6, [%rd7];
    cvt.u64.u32 %rd8, %r4;
    add.s64 %rd9, %rd2, %rd8;
    ld.global.u8 %r7, [%rd9];
    add.u32 %r8, %r5, %r6;
    add.u32 %r8, %r8, %r7;
    add.s64 %rd10, %rd3, %rd4;
    st.global.u32 [%rd10], %r8;
    and.b32 %r9, %r4, 1;
    setp.eq.u32 %p1, %r9, 0;
    @%p1 st.global.u32 [%rd10+4], %r5;
    ret;
}
"#;

#[test]
fn runs_are_runs_and_the_reference_events() {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    // 2 blocks of 48 threads: a whole warp and a partial one each
    let n = 96usize;
    let l = Launch::new(
        [2, 1, 1],
        [48, 1, 1],
        vec![
            Arg::Buffer((0..2 * n as u32).flat_map(|v| v.to_le_bytes()).collect()),
            Arg::Buffer((0..n as u8).collect()),
            Arg::Buffer(vec![0; 4 * n + 4]),
        ],
    );
    let reference = Limits {
        reference_paths: true,
        ..Limits::default()
    };
    let runs = |_| Record {
        runs: true,
        ..Record::default()
    };
    let fast = run(&prog, "k", &l, &Limits::default(), runs).unwrap();
    let plain = run(&prog, "k", &l, &Limits::default(), |_| Record::default()).unwrap();
    let slow = run(&prog, "k", &l, &reference, runs).unwrap();
    assert!(fast.faults.is_empty(), "{:?}", fast.faults);
    assert_eq!(fast.buffers, slow.buffers, "results");
    assert_eq!(plain.buffers, slow.buffers, "results");
    for ((f, p), s) in fast.sinks.iter().zip(&plain.sinks).zip(&slow.sinks) {
        // the events without the way they came
        let events = |v: &[Access]| -> Vec<Access> {
            v.iter()
                .map(|a| {
                    let mut a = a.clone();
                    a.0 = false;
                    a
                })
                .collect()
        };
        assert_eq!(events(&f.mem), events(&s.mem), "events");
        assert_eq!(p.mem, events(&s.mem), "events through mem");
        assert!(s.mem.iter().all(|a| !a.0), "the reference path sends no run");
        for a in f.mem.iter().filter(|a| a.0) {
            assert!(a.4 == "Global Load" || a.4 == "Global Store", "{a:?}");
            assert_eq!((a.5, a.6), (4, u32::MAX), "{a:?}");
            let want: Vec<u64> = (0..32).map(|l| a.7[0] + 4 * l).collect();
            assert_eq!(a.7, want, "{a:?}");
        }
    }
    // hand-derived: per block the whole warp's `a[i]` load and `c[i]` store are runs (2 a block);
    // the strided, byte, partial-warp and odd-lane accesses are not
    let runs_of = |r: &Record| {
        r.mem
            .iter()
            .filter(|a| a.0)
            .map(|a| (a.2, a.4.clone()))
            .collect::<Vec<_>>()
    };
    for s in &fast.sinks {
        assert_eq!(
            runs_of(s),
            [(0, "Global Load".to_string()), (0, "Global Store".to_string())]
        );
    }
}
