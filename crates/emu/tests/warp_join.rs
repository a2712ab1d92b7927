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
struct Rec(Vec<Ev>, std::collections::BTreeMap<u32, u32>);

impl Sink for Rec {
    fn insts(&mut self, _warp: u32, from: u32, n: u32, _active: u32) {
        for pc in from..from + n {
            *self.1.entry(pc).or_default() += 1;
        }
    }
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
    let (ev, out, _) = events_and_counts(exit);
    (ev, out)
}

/// The events, `out`, and how many times the warp executed each instruction.
fn events_and_counts(exit: u32) -> (Vec<Ev>, Vec<u32>, std::collections::BTreeMap<u32, u32>) {
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
    let rec = res.sinks.remove(0);
    (rec.0, out, rec.1)
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

#[test]
fn a_parked_syncwarp_is_one_instruction() {
    // the kernel's instructions in order: the `bar.warp.sync` of lanes 16-31 is its 11th (index
    // 10), that of lanes 0-15 its 21st (index 20); each is one instruction of its path, whether
    // the path waited for its sibling (exit 0) or ran it again alone after the sibling exited
    // (exit 1)
    let (_, _, joined) = events_and_counts(0);
    assert_eq!(
        (joined.get(&10), joined.get(&20)),
        (Some(&1), Some(&1)),
        "{joined:?}"
    );
    let (_, _, alone) = events_and_counts(1);
    assert_eq!((alone.get(&10), alone.get(&20)), (None, Some(&1)), "{alone:?}");
    // the instructions before the branch, once each
    assert!((0..9).all(|pc| alone.get(&pc) == Some(&1)), "{alone:?}");
}

/// Lanes 16-31 synchronise and store; lanes 0-15 store without one; both paths end at `DONE`.
const SRC2: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k2()
{
    .reg .b32 %r<8>;
    .reg .pred %p<2>;
    .shared .align 4 .b8 s[128];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra LOW;
    bar.warp.sync -1;
    st.shared.u32 [%r4], %r1;
    bra.uni DONE;
LOW:
    st.shared.u32 [%r4], %r1;
DONE:
    ret;
}
"#;

#[test]
fn a_path_parked_until_its_sibling_reconverges_without_one_counts_it_once() {
    let prog = warpscope_ptx::compile(SRC2).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![]);
    let mut res = run(&prog, "k2", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let Rec(ev, counts) = res.sinks.remove(0);
    let (low, high) = (0x0000_ffffu32, 0xffff_0000u32);
    // lanes 0-15 store first (lanes 16-31 wait at the bar.warp.sync for them), then lanes 16-31
    // synchronise alone and store
    assert_eq!(
        ev,
        [
            Ev::Shared(AccessOp::Store, low),
            Ev::WarpSync(high),
            Ev::Shared(AccessOp::Store, high),
        ]
    );
    // 11 instructions (index 6 the `bar.warp.sync`), each executed once by the warp: the two
    // paths share none and reconverge at the `ret`
    let want: std::collections::BTreeMap<u32, u32> = (0..11).map(|pc| (pc, 1)).collect();
    assert_eq!(counts, want);
}

/// An if / else if / else chain: lanes 0-7 (`A`), 8-15 (`B`) and 16-31 (the fall-through) each
/// store `s[lane]`, run `bar.warp.sync -1` and load another group's slot; with `skip` set, `B`
/// runs no `bar.warp.sync`.
const SRC3: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k3(.param .u32 skip)
{
    .reg .b32 %r<12>;
    .reg .pred %p<4>;
    .shared .align 4 .b8 s[128];
    ld.param.u32 %r9, [skip];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.u32 %r4, %r2, %r3;
    setp.lt.u32 %p1, %r1, 8;
    @%p1 bra A;
    setp.lt.u32 %p2, %r1, 16;
    @%p2 bra B;
    st.shared.u32 [%r4], %r1;
    bar.warp.sync -1;
    ld.shared.u32 %r5, [%r4+-64];
    bra.uni DONE;
B:
    st.shared.u32 [%r4], %r1;
    setp.ne.u32 %p3, %r9, 0;
    @%p3 bra BSKIP;
    bar.warp.sync -1;
BSKIP:
    ld.shared.u32 %r5, [%r4+32];
    bra.uni DONE;
A:
    st.shared.u32 [%r4], %r1;
    bar.warp.sync -1;
    ld.shared.u32 %r5, [%r4+32];
DONE:
    ret;
}
"#;

fn chain(skip: u32) -> (Vec<Ev>, std::collections::BTreeMap<u32, u32>) {
    let prog = warpscope_ptx::compile(SRC3).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::U32(skip)]);
    let mut res = run(&prog, "k3", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let Rec(ev, counts) = res.sinks.remove(0);
    (ev, counts)
}

#[test]
fn the_syncwarps_of_an_else_if_chain_are_one_synchronisation() {
    let (ev, counts) = chain(0);
    let (a, b, c) = (0x0000_00ffu32, 0x0000_ff00u32, 0xffff_0000u32);
    assert_eq!(
        ev,
        [
            Ev::Shared(AccessOp::Store, c),
            Ev::Shared(AccessOp::Store, b),
            Ev::Shared(AccessOp::Store, a),
            Ev::WarpSync(u32::MAX),
            Ev::Shared(AccessOp::Load, a),
            Ev::Shared(AccessOp::Load, c),
            Ev::Shared(AccessOp::Load, b),
        ],
        "every group's store before the one synchronisation of the three, every load after it"
    );
    // 23 instructions, each executed once by the warp (the paths share none before `DONE`)
    let want: std::collections::BTreeMap<u32, u32> = (0..23).map(|pc| (pc, 1)).collect();
    assert_eq!(counts, want);
}

#[test]
fn a_group_of_the_chain_without_one_stays_unordered() {
    let (ev, counts) = chain(1);
    let (a, b, c) = (0x0000_00ffu32, 0x0000_ff00u32, 0xffff_0000u32);
    assert_eq!(
        ev,
        [
            Ev::Shared(AccessOp::Store, c),
            Ev::Shared(AccessOp::Store, b),
            Ev::Shared(AccessOp::Load, b),
            Ev::Shared(AccessOp::Store, a),
            Ev::WarpSync(a | c),
            Ev::Shared(AccessOp::Load, a),
            Ev::Shared(AccessOp::Load, c),
        ],
        "lanes 8-15 reach the end without a synchronisation: the other two groups meet alone"
    );
    // B's `bar.warp.sync` (index 16) is not executed; every other instruction once
    let want: std::collections::BTreeMap<u32, u32> =
        (0..23).filter(|&pc| pc != 16).map(|pc| (pc, 1)).collect();
    assert_eq!(counts, want);
}

/// Every lane runs one `bar.warp.sync` whose mask register names its half of the warp
/// (`0xffff << (lane & 16)`, what a cooperative-groups `thread_block_tile<16>::sync()` compiles
/// to): the two halves synchronise apart.
const TILE_SRC: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry t()
{
    .reg .b32 %r<8>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 16;
    mov.u32 %r3, 65535;
    shl.b32 %r4, %r3, %r2;
    bar.warp.sync %r4;
    bar.warp.sync -1;
    ret;
}
"#;

#[test]
fn lanes_naming_different_masks_synchronise_apart() {
    let prog = warpscope_ptx::compile(TILE_SRC).unwrap();
    let l = Launch::new([1, 1, 1], [32, 1, 1], vec![]);
    let mut res = run(&prog, "t", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let rec = res.sinks.remove(0);
    assert_eq!(
        rec.0,
        [
            Ev::WarpSync(0x0000_ffff),
            Ev::WarpSync(0xffff_0000),
            Ev::WarpSync(u32::MAX),
        ],
        "one synchronisation per tile, then the whole warp's"
    );
}
