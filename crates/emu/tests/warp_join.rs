//! `bar.warp.sync` in the two paths of a diverged branch: since sm_70 the lanes of both paths meet
//! at it as one synchronisation. The emulator runs one path first; the path that reaches its
//! `bar.warp.sync` first waits there while the other path runs up to its own, so the accesses
//! before either come before the one barrier event (whose active lanes are both paths') and the
//! accesses after either come after it. A path whose sibling exits without one synchronises
//! alone.

use warpscope_emu::{AccessOp, Arg, BarrierEvent, BarrierKind, Launch, Limits, MemEvent, Sink, Space, run};

/// Lanes 0-15 write `s[lane]` and synchronise; lanes 16-31 synchronise (in the other path) and
/// then read `s[lane - 16]`, storing it to `out[lane]`. With `EXIT` set, lanes 16-31 instead
/// write and exit without one.
const SRC: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 exitflag)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    .shared .align 4 .b8 s[128];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r9, [exitflag];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    setp.lt.u32 %p1, %r1, 16;
    setp.ne.u32 %p2, %r9, 0;
    @%p1 bra WRITE;
    @%p2 bra LEAVE;
    bar.warp.sync -1;
    ld.shared.u32 %r5, [%r4+-64];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    bra.uni DONE;
LEAVE:
    st.shared.u32 [%r4], %r1;
    ret;
WRITE:
    add.u32 %r6, %r1, 100;
    st.shared.u32 [%r4], %r6;
    bar.warp.sync -1;
DONE:
    ret;
}
"#;

#[derive(Debug, Clone, PartialEq)]
enum Ev {
    Shared(AccessOp, u32),
    WarpSync(u32),
}

#[derive(Default)]
struct Rec(Vec<Ev>);

impl Sink for Rec {
    fn mem(&mut self, e: &MemEvent<'_>) {
        if e.space == Space::Shared {
            self.0.push(Ev::Shared(e.op, e.mask));
        }
    }
    fn barrier(&mut self, e: &BarrierEvent) {
        if e.kind == BarrierKind::Warp {
            self.0.push(Ev::WarpSync(e.active));
        }
    }
}

fn events(exit: u32) -> (Vec<Ev>, Vec<u32>) {
    let prog = warpscope_ptx::compile(SRC).unwrap();
    let l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(vec![0; 128]), Arg::U32(exit)],
    );
    let mut res = run(&prog, "k", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let out = res
        .buffer(0)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (res.sinks.remove(0).0, out)
}

#[test]
fn the_syncwarps_of_two_diverged_paths_are_one_synchronisation() {
    let (ev, out) = events(0);
    let (low, high) = (0x0000_ffffu32, 0xffff_0000u32);
    assert_eq!(
        ev,
        [
            Ev::Shared(AccessOp::Store, low),
            Ev::WarpSync(u32::MAX),
            Ev::Shared(AccessOp::Load, high),
        ],
        "the write before the one synchronisation, the read after it"
    );
    // lanes 16-31 read lanes 0-15's values
    let want: Vec<u32> = (0..32).map(|l| if l < 16 { 0 } else { l - 16 + 100 }).collect();
    assert_eq!(out, want);
}

#[test]
fn a_path_whose_sibling_exits_without_one_synchronises_alone() {
    let (ev, _) = events(1);
    let (low, high) = (0x0000_ffffu32, 0xffff_0000u32);
    assert_eq!(
        ev,
        [
            Ev::Shared(AccessOp::Store, high),
            Ev::Shared(AccessOp::Store, low),
            Ev::WarpSync(low),
        ],
        "lanes 16-31 exit without a synchronisation; lanes 0-15 synchronise alone"
    );
}
