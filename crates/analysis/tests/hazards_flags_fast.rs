//! The shared-memory checker's fast path against its reference path (`HazardSink::reference`)
//! with release/acquire followed (`HazardSink::with_sync_ops`): the same findings, needed and
//! redundant barriers on random event sequences over strong accesses, fences, release and acquire
//! operations and flags in shared and global memory, and on emulated kernels that hand data from
//! one warp to another through a flag (with and without fences).

use std::sync::Arc;

use warpscope_analysis::global_races::SyncOps;
use warpscope_analysis::hazards::{
    Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc, SharedRegion,
};
use warpscope_emu::{AccessOp, Arg, BarrierEvent, BarrierKind, Launch, Limits, MemEvent, Sink, Space};

/// The instructions the random events name, by pc.
const OPS: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    st.shared.u32 [%r1], %r2;
    ld.shared.u32 %r2, [%r1];
    st.volatile.shared.u32 [%r1], %r2;
    ld.volatile.shared.u32 %r2, [%r1];
    membar.cta;
    st.release.cta.shared.u32 [%r1], %r2;
    ld.acquire.cta.shared.u32 %r2, [%r1];
    st.volatile.global.u32 [%rd1], %r2;
    ld.volatile.global.u32 %r2, [%rd1];
    atom.shared.add.u32 %r2, [%r1], 1;
    atom.relaxed.cta.shared.exch.b32 %r2, [%r1], %r3;
    fence.acq_rel.gpu;
    ld.relaxed.cta.shared.u32 %r2, [%r1];
    ret;
}
"#;

const FENCES: [u32; 2] = [4, 11];
const MEMS: [(u32, AccessOp, Space); 11] = [
    (0, AccessOp::Store, Space::Shared),
    (1, AccessOp::Load, Space::Shared),
    (2, AccessOp::Store, Space::Shared),
    (3, AccessOp::Load, Space::Shared),
    (5, AccessOp::Store, Space::Shared),
    (6, AccessOp::Load, Space::Shared),
    (7, AccessOp::Store, Space::Global),
    (8, AccessOp::Load, Space::Global),
    (9, AccessOp::Atomic, Space::Shared),
    (10, AccessOp::Atomic, Space::Shared),
    (12, AccessOp::Load, Space::Shared),
];

fn loc(pc: u32) -> Loc {
    Loc {
        line: Some(pc),
        label: format!("pc {pc}"),
    }
}

/// Everything a report says, for comparison.
#[derive(Debug, PartialEq)]
struct Outcome {
    findings: Vec<Finding>,
    needed: Vec<u32>,
    redundant: Vec<u32>,
}

fn outcome(rep: &HazardReport) -> Outcome {
    Outcome {
        findings: rep.findings(&loc),
        needed: rep.needed_barriers(),
        redundant: rep.redundant_barriers(),
    }
}

fn report<I: IntoIterator<Item = HazardSink>>(sinks: I, cfg: &Arc<HazardConfig>) -> Outcome {
    let mut rep = HazardReport::new(Arc::clone(cfg));
    for s in sinks {
        rep.merge(s);
    }
    outcome(&rep)
}

/// Random sequences on 3 warps x 4 lanes over a 24-byte shared window (two variables) and a few
/// global words: plain and strong loads and stores, release stores and acquire loads, atomics
/// with and without `.relaxed`, fences at two scopes, barriers, `__syncwarp()`, warps exiting.
/// Each sequence runs through three checkers: fast and reference with release/acquire followed
/// (they must agree), and fast without it (which must differ somewhere: the flags matter).
#[test]
fn fast_path_equals_reference_with_release_and_acquire_followed() {
    let prog = warpscope_ptx::compile(OPS).unwrap();
    let k = prog.kernel("k").unwrap();
    assert_eq!(k.entry, 0);
    let ops = Arc::new(SyncOps::of_range(&prog, k.entry, k.end));
    assert!(ops.orders_within_block());
    let cfg = Arc::new(HazardConfig {
        block_dim: [96, 1, 1],
        shared_size: 24,
        regions: vec![
            SharedRegion {
                name: "a".into(),
                offset: 0,
                size: 16,
            },
            SharedRegion {
                name: "flag".into(),
                offset: 16,
                size: 8,
            },
        ],
        cluster_peers: false,
    });
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut kinds_seen = std::collections::BTreeSet::new();
    let mut flags_mattered = 0;
    let mut with_races = 0;
    let cases = 4000;
    for case in 0..cases {
        let mut sinks = [
            HazardSink::new(Arc::clone(&cfg), 0).with_sync_ops(Arc::clone(&ops)),
            HazardSink::reference(Arc::clone(&cfg), 0).with_sync_ops(Arc::clone(&ops)),
            HazardSink::new(Arc::clone(&cfg), 0),
        ];
        let mut trace = Vec::new();
        let mut exited = [false; 3];
        for _ in 0..(2 + next(30)) {
            match next(16) {
                0 => {
                    let pc = 90 + next(2) as u32;
                    for s in &mut sinks {
                        for w in 0..3 {
                            if !exited[w as usize] {
                                Sink::barrier(
                                    s,
                                    &BarrierEvent {
                                        block: 0,
                                        warp: w,
                                        pc,
                                        active: 0xf,
                                        id: 0,
                                        kind: BarrierKind::Sync,
                                    },
                                );
                            }
                        }
                        Sink::barrier_release(s, 0, pc, 0);
                    }
                    trace.push(format!("bar {pc}"));
                }
                1 => {
                    let w = next(3) as u32;
                    let active = 1 + next(15) as u32;
                    for s in &mut sinks {
                        Sink::barrier(
                            s,
                            &BarrierEvent {
                                block: 0,
                                warp: w,
                                pc: 80,
                                active,
                                id: u32::MAX,
                                kind: BarrierKind::Warp,
                            },
                        );
                    }
                    trace.push(format!("syncwarp w{w} m{active:b}"));
                }
                2 | 3 => {
                    let w = next(3) as u32;
                    let pc = FENCES[next(2) as usize];
                    let active = 1 + next(15) as u32;
                    for s in &mut sinks {
                        Sink::inst(s, w, pc, active);
                    }
                    trace.push(format!("fence pc{pc} w{w} m{active:b}"));
                }
                4 if case % 5 == 0 => {
                    let w = next(3) as usize;
                    if !exited[w] {
                        exited[w] = true;
                        for s in &mut sinks {
                            s.warp_exit(w as u32);
                        }
                        trace.push(format!("exit w{w}"));
                    }
                }
                _ => {
                    let w = next(3) as u32;
                    let (pc, op, space) = MEMS[next(MEMS.len() as u64) as usize];
                    let mask = 1 + next(15) as u32;
                    let addrs: [u64; 32] = std::array::from_fn(|_| {
                        if space == Space::Global {
                            0x1000 + 4 * next(3)
                        } else if next(3) == 0 {
                            16 + 4 * next(2)
                        } else {
                            4 * next(6)
                        }
                    });
                    for s in &mut sinks {
                        Sink::mem(
                            s,
                            &MemEvent {
                                block: 0,
                                warp: w,
                                pc,
                                space,
                                op,
                                width: 4,
                                mask,
                                addrs: &addrs,
                                src: None,
                            },
                        );
                    }
                    trace.push(format!("w{w} pc{pc} {op:?} m{mask:b} {:?}", &addrs[..4]));
                }
            }
        }
        let [fast, reference, plain] = sinks;
        let (a, b) = (report([fast], &cfg), report([reference], &cfg));
        assert_eq!(a, b, "case {case}: {trace:#?}");
        if a != report([plain], &cfg) {
            flags_mattered += 1;
        }
        if a.findings.iter().any(|f| f.kind == FindingKind::Race) {
            with_races += 1;
        }
        for f in &b.findings {
            kinds_seen.insert(f.kind);
        }
    }
    // the sequences reach races, release/acquire that removes some, and more than one kind
    assert!(with_races > cases / 10, "{with_races} cases with races");
    assert!(
        flags_mattered > cases / 20,
        "flags changed {flags_mattered} outcomes"
    );
    assert!(kinds_seen.len() >= 3, "the sequences reach {kinds_seen:?}");
}

/// A hand-off between warps through a shared flag: warp 1's lane 0 writes the data words, then
/// (with `fence`) `membar.cta`, then sets the flag with a volatile store (or `st.release`); warp
/// 0's lane 0 spins on a volatile load (or `ld.acquire`) until it sees the flag, then (with
/// `fence`) `membar.cta`, then reads the data.
fn handoff(writer_fence: bool, reader_fence: bool, release_acquire: bool) -> String {
    let (st_flag, ld_flag) = if release_acquire {
        ("st.release.cta.shared.u32", "ld.acquire.cta.shared.u32")
    } else {
        ("st.volatile.shared.u32", "ld.volatile.shared.u32")
    };
    let wf = if writer_fence { "membar.cta;" } else { "" };
    let rf = if reader_fence { "membar.cta;" } else { "" };
    format!(
        r#".version 8.0
.target sm_90
.address_size 64
.visible .entry h(.param .u64 out)
{{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b8 data[64];
    .shared .align 4 .b32 flag;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, data;
    mov.u32 %r3, flag;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 st.shared.u32 [%r3], 0;
    bar.sync 0;
    setp.eq.u32 %p1, %r1, 32;
    @!%p1 bra READER;
    st.shared.u32 [%r2], 7;
    st.shared.u32 [%r2+4], 8;
    {wf}
    mov.u32 %r4, 1;
    {st_flag} [%r3], %r4;
    bra DONE;
READER:
    setp.ne.u32 %p2, %r1, 0;
    @%p2 bra DONE;
SPIN:
    {ld_flag} %r5, [%r3];
    setp.eq.u32 %p3, %r5, 0;
    @%p3 bra SPIN;
    {rf}
    ld.shared.u32 %r6, [%r2];
    ld.shared.u32 %r7, [%r2+4];
    add.u32 %r8, %r6, %r7;
    ld.param.u64 %rd1, [out];
    st.global.u32 [%rd1], %r8;
DONE:
    ret;
}}
"#
    )
}

#[test]
fn fast_path_equals_reference_on_emulated_flag_handoffs() {
    let mut racy = 0;
    let mut clean = 0;
    for (wf, rf, ra) in [
        (true, true, false),
        (false, true, false),
        (true, false, false),
        (false, false, false),
        (false, false, true),
    ] {
        let src = handoff(wf, rf, ra);
        let prog = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        let k = prog.kernel("h").unwrap();
        let ops = Arc::new(SyncOps::of_range(&prog, k.entry, k.end));
        assert!(ops.orders_within_block());
        let launch = Launch::new([2, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 4])]);
        let cfg = Arc::new(HazardConfig::for_kernel(k, launch.block, launch.dyn_smem));
        let run = |reference: bool| {
            let res = warpscope_emu::run(&prog, "h", &launch, &Limits::default(), |b| {
                let s = if reference {
                    HazardSink::reference(Arc::clone(&cfg), b)
                } else {
                    HazardSink::new(Arc::clone(&cfg), b)
                };
                s.with_sync_ops(Arc::clone(&ops))
            })
            .unwrap();
            assert!(res.faults.is_empty(), "{:?}", res.faults);
            // the reader saw the data (7 + 8), whichever warp ran first
            assert_eq!(res.buffers[0], Some(15u32.to_le_bytes().to_vec()));
            report(res.sinks, &cfg)
        };
        let (a, b) = (run(false), run(true));
        assert_eq!(a, b, "writer fence {wf}, reader fence {rf}, release/acquire {ra}");
        let races = a.findings.iter().filter(|f| f.kind == FindingKind::Race).count();
        // ordered only with both fences or with release/acquire operations
        if (wf && rf) || ra {
            assert_eq!(races, 0, "{wf} {rf} {ra}: {:?}", a.findings);
            clean += 1;
        } else {
            assert!(races > 0, "{wf} {rf} {ra}: no race");
            racy += 1;
        }
    }
    assert_eq!((racy, clean), (3, 2));
}
