//! Device `assert`: `call.uni __assertfail` as nvcc emits it (calibration/run/assert.cu's `failing`).
//! A failing assert records each failing thread and traps the grid; a passing one changes nothing.

use warpscope_emu::{Arg, AssertFailure, FaultKind, Launch, Limits, run};
use warpscope_ptx::inst::Inst;

/// `out[i] = i + 1; assert(threadIdx.x != bad);` (nvcc 13 -O2, trimmed).
const FAILING: &str = r#".version 9.0
.target sm_90
.address_size 64
.extern .func __assertfail
(
	.param .b64 __assertfail_param_0,
	.param .b64 __assertfail_param_1,
	.param .b32 __assertfail_param_2,
	.param .b64 __assertfail_param_3,
	.param .b64 __assertfail_param_4
)
;
.global .align 1 .b8 __unnamed_1[25] = {118, 111, 105, 100, 32, 102, 97, 105, 108, 105, 110, 103, 40, 105, 110, 116, 32, 42, 44, 32, 105, 110, 116, 41};
.global .align 1 .b8 $str[19] = {116, 104, 114, 101, 97, 100, 73, 100, 120, 46, 120, 32, 33, 61, 32, 98, 97, 100};
.global .align 1 .b8 $str$1[10] = {97, 115, 115, 101, 114, 116, 46, 99, 117};

.visible .entry _Z7failingPii(
	.param .u64 _Z7failingPii_param_0,
	.param .u32 _Z7failingPii_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [_Z7failingPii_param_0];
	ld.param.u32 	%r1, [_Z7failingPii_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	add.s32 	%r6, %r5, 1;
	mul.wide.s32 	%rd3, %r5, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r6;
	setp.ne.s32 	%p1, %r4, %r1;
	@%p1 bra 	$L__BB0_2;

	mov.u64 	%rd5, $str;
	cvta.global.u64 	%rd6, %rd5;
	mov.u64 	%rd7, $str$1;
	cvta.global.u64 	%rd8, %rd7;
	mov.u64 	%rd9, __unnamed_1;
	cvta.global.u64 	%rd10, %rd9;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd6;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd8;
	.param .b32 param2;
	st.param.b32 	[param2+0], 20;
	.param .b64 param3;
	st.param.b64 	[param3+0], %rd10;
	.param .b64 param4;
	st.param.b64 	[param4+0], 1;
	call.uni 
	__assertfail, 
	(
	param0, 
	param1, 
	param2, 
	param3, 
	param4
	);
	} // callseq 0

$L__BB0_2:
	ret;

}
"#;

const K: &str = "_Z7failingPii";

fn launch(grid: u32, block: u32, bad: i32) -> Launch {
    Launch::new(
        [grid, 1, 1],
        [block, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * (grid * block) as usize]), Arg::I32(bad)],
    )
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

#[test]
fn the_call_lowers_to_one_assert_instruction() {
    let prog = warpscope_ptx::compile(FAILING).unwrap();
    let k = prog.kernel(K).unwrap();
    let n = prog.ops[k.entry as usize..k.end as usize]
        .iter()
        .filter(|op| matches!(op.inst, Inst::AssertFail { .. }))
        .count();
    assert_eq!(n, 1);
}

#[test]
fn a_passing_assert_runs_as_if_absent() {
    let prog = warpscope_ptx::compile(FAILING).unwrap();
    let r = run(&prog, K, &launch(3, 64, 1000), &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty());
    assert!(r.asserts.is_empty());
    assert_eq!(words(r.buffer(0).unwrap()), (1..=192).collect::<Vec<u32>>());
}

#[test]
fn a_failing_assert_records_the_thread_and_stops_its_block() {
    let prog = warpscope_ptx::compile(FAILING).unwrap();
    let r = run(&prog, K, &launch(2, 64, 37), &Limits::default(), |_| ()).unwrap();
    let expect = |b: u32| AssertFailure {
        block: [b, 0, 0],
        thread: [37, 0, 0],
        pc: r.asserts[0].pc,
        message: b"threadIdx.x != bad".to_vec(),
        file: b"assert.cu".to_vec(),
        line: 20,
        function: b"void failing(int *, int)".to_vec(),
    };
    assert_eq!(r.asserts, vec![expect(0), expect(1)]);
    assert_eq!(r.faults.len(), 2);
    assert!(
        r.faults
            .iter()
            .all(|f| f.kind == FaultKind::Assert && f.warp == 1 && f.lane == Some(5))
    );
    // every store came before the assert: all stay
    assert_eq!(words(r.buffer(0).unwrap()), (1..=128).collect::<Vec<u32>>());
}

#[test]
fn every_failing_lane_of_the_warp_is_recorded() {
    // blockDim (1, 40): every thread has threadIdx.x == 0, so with bad = 0 every thread fails
    let prog = warpscope_ptx::compile(FAILING).unwrap();
    let mut l = launch(1, 1, 0);
    l.block = [1, 40, 1];
    l.args[0] = Arg::Buffer(vec![0; 4 * 40]);
    let r = run(&prog, K, &l, &Limits::default(), |_| ()).unwrap();
    // the first warp (threads y = 0..31) executes the call; the block stops there
    assert_eq!(r.asserts.len(), 32);
    assert_eq!(r.asserts[5].thread, [0, 5, 0]);
    assert_eq!(r.faults.len(), 1);
}

#[test]
fn later_waves_of_blocks_do_not_run_after_a_failing_assert() {
    let prog = warpscope_ptx::compile(FAILING).unwrap();
    let blocks = 3 * warpscope_emu::ASSERT_WAVE as u32;
    // bad = 0 with blockDim 1: every block fails; only the first wave runs
    let r = run(&prog, K, &launch(blocks, 1, 0), &Limits::default(), |_| ()).unwrap();
    assert_eq!(r.asserts.len(), warpscope_emu::ASSERT_WAVE);
    assert_eq!(r.block_ids.len(), warpscope_emu::ASSERT_WAVE);
    assert_eq!(r.counters.blocks, warpscope_emu::ASSERT_WAVE as u64);
    let out = words(r.buffer(0).unwrap());
    let wave = warpscope_emu::ASSERT_WAVE;
    assert!(out[..wave].iter().enumerate().all(|(i, &v)| v == i as u32 + 1));
    assert!(out[wave..].iter().all(|&v| v == 0));
}
