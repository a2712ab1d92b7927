//! Straight runs of ALU instructions, which the instruction loop runs without its per-instruction
//! bookkeeping, against the reference paths (`Limits::reference_paths`, every instruction stepped):
//! the same instruction events, results, counters and faults, with a reconvergence point inside a
//! run and with an instruction budget that ends inside one; and the thread-index rows a warp
//! starts with (`%tid`, `%laneid`, `%lanemask_lt`, computed once a launch) against their
//! definition on a 3D block with a partial last warp.

use warpscope_emu::{Arg, FaultKind, Launch, Limits, MemEvent, Sink, run};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry alu(.param .u64 out, .param .u32 k)
{
  .reg .pred %p<3>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r10, [k];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %laneid;
  mov.u32 %r5, %lanemask_lt;
  mov.u32 %r6, %ntid.x;
  mov.u32 %r7, %ntid.y;
  mov.u32 %r11, %ctaid.x;
  mad.lo.u32 %r8, %r3, %r7, %r2;
  mad.lo.u32 %r8, %r8, %r6, %r1;
  mov.u32 %r12, %ntid.z;
  mul.lo.u32 %r12, %r12, %r7;
  mul.lo.u32 %r12, %r12, %r6;
  mad.lo.u32 %r13, %r11, %r12, %r8;
  setp.lt.u32 %p1, %r4, 16;
  mov.u32 %r9, 0;
  @%p1 bra L1;
  add.u32 %r9, %r9, %r1;
  mul.lo.u32 %r9, %r9, 3;
  xor.b32 %r9, %r9, %r5;
L1:
  add.u32 %r9, %r9, %r4;
  mul.lo.u32 %r9, %r9, 7;
  add.u32 %r9, %r9, %r10;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r13, 24;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  st.global.u32 [%rd4+4], %r2;
  st.global.u32 [%rd4+8], %r3;
  st.global.u32 [%rd4+12], %r4;
  st.global.u32 [%rd4+16], %r5;
  st.global.u32 [%rd4+20], %r9;
  ret;
}
"#;

/// Every instruction and memory event, as data.
#[derive(Debug, Default, PartialEq)]
struct Record {
    insts: Vec<(u32, u32, u32)>,
    mem: Vec<(u32, u32, u32, Vec<u64>)>,
}

impl Sink for Record {
    fn inst(&mut self, warp: u32, pc: u32, active: u32) {
        self.insts.push((warp, pc, active));
    }
    fn mem(&mut self, e: &MemEvent<'_>) {
        let addrs = (0..32)
            .filter(|l| e.mask >> l & 1 != 0)
            .map(|l| e.addrs[l])
            .collect();
        self.mem.push((e.warp, e.pc, e.mask, addrs));
    }
}

const BLOCK: [u32; 3] = [7, 5, 3];
const K: u32 = 1000;

fn launch(blocks: u32) -> Launch {
    let n = (blocks * BLOCK.iter().product::<u32>()) as usize;
    Launch::new(
        [blocks, 1, 1],
        BLOCK,
        vec![Arg::Buffer(vec![0; n * 24]), Arg::U32(K)],
    )
}

fn reference(limits: &Limits) -> Limits {
    Limits {
        reference_paths: true,
        ..limits.clone()
    }
}

#[test]
fn alu_runs_equal_the_stepped_instructions() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let l = Limits::default();
    let fast = run(&prog, "alu", &launch(3), &l, |_| Record::default()).unwrap();
    let slow = run(&prog, "alu", &launch(3), &reference(&l), |_| Record::default()).unwrap();
    assert!(fast.faults.is_empty(), "{:?}", fast.faults);
    assert_eq!(fast.buffers, slow.buffers);
    assert_eq!(fast.counters, slow.counters);
    assert!(fast.sinks == slow.sinks, "events differ");
    // the divergent warps ran the run after the branch on two paths, joined at L1
    assert!(
        fast.sinks[0]
            .insts
            .iter()
            .any(|&(_, _, a)| a != 0 && a.count_ones() < 32 && a != 0x7f_ffff)
    );
}

#[test]
fn a_budget_that_ends_inside_a_run_faults_where_stepping_does() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let full = run(&prog, "alu", &launch(1), &Limits::default(), |_| {
        Record::default()
    })
    .unwrap();
    let total = full.counters.warp_insts;
    assert!(total > 40);
    let mut faulted = 0;
    for budget in 1..=total / 4 + 2 {
        let l = Limits {
            max_warp_insts_per_block: budget,
            ..Limits::default()
        };
        let fast = run(&prog, "alu", &launch(1), &l, |_| Record::default()).unwrap();
        let slow = run(&prog, "alu", &launch(1), &reference(&l), |_| Record::default()).unwrap();
        assert_eq!(fast.faults, slow.faults, "budget {budget}");
        assert_eq!(fast.counters, slow.counters, "budget {budget}");
        assert!(fast.sinks == slow.sinks, "budget {budget}: events differ");
        assert_eq!(fast.buffers, slow.buffers, "budget {budget}");
        if fast.faults.iter().any(|f| f.kind == FaultKind::InstructionLimit) {
            faulted += 1;
            assert_eq!(fast.counters.warp_insts, budget, "budget {budget}");
        }
    }
    assert!(faulted > 10);
}

#[test]
fn warps_start_with_their_lanes_thread_indices() {
    let prog = warpscope_ptx::compile(PTX).unwrap();
    let blocks = 2;
    let r = run(&prog, "alu", &launch(blocks), &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out: Vec<u32> = r.buffers[0]
        .as_ref()
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let [bx, by, bz] = BLOCK;
    for b in 0..blocks {
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    let t = (z * by + y) * bx + x;
                    let lane = t % 32;
                    let lt = (1u32 << lane) - 1;
                    let mut v = 0u32;
                    if lane >= 16 {
                        v = (v + x).wrapping_mul(3) ^ lt;
                    }
                    v = (v + lane).wrapping_mul(7).wrapping_add(K);
                    let at = ((b * bx * by * bz + t) * 6) as usize;
                    assert_eq!(
                        &out[at..at + 6],
                        &[x, y, z, lane, lt, v],
                        "block {b} thread ({x},{y},{z})"
                    );
                }
            }
        }
    }
}
