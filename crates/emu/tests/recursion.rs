//! Recursive device functions (`data/recursion.cu`, compiled by nvcc to `data/recursion.ptx`):
//! each lane recurses to its own depth (Fibonacci of `lane % 13`), two functions call each other
//! (`isEven` / `isOdd`), a divide-and-conquer sum passes a pointer and 64-bit results, and a
//! chain whose depth comes from a kernel argument goes 3,000 deep and then past the emulator's
//! call depth (a fault, as a GPU's stack overflows). Expected values are computed here by plain
//! Rust, not by the emulator. A recursive function with local variables of its own is refused
//! with its name.

use warpscope_emu::{Arg, FaultKind, Launch, Limits, MAX_CALL_DEPTH, run};

const PTX: &str = include_str!("data/recursion.ptx");

fn fib(n: i32) -> i32 {
    let (mut a, mut b) = (0, 1);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

fn chain(n: u32) -> u32 {
    let mut v = 7u32;
    for k in 1..=n {
        v = v.wrapping_mul(2_654_435_761) ^ k;
    }
    v
}

/// `in[i]`: values whose parity the mutual recursion finds, the summed ranges' elements.
fn input() -> Vec<i32> {
    (0..64).map(|i| (i * 37 + 11) % 50).collect()
}

fn launch(depth: u32) -> warpscope_emu::RunResult<()> {
    let program = warpscope_ptx::compile(PTX).unwrap();
    let ins: Vec<u8> = input().iter().flat_map(|v| v.to_le_bytes()).collect();
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(ins),
            Arg::Buffer(vec![0; 128]),
            Arg::Buffer(vec![0; 256]),
            Arg::Buffer(vec![0; 128]),
            Arg::U32(depth),
        ],
    );
    let name = program.kernels[0].name.clone();
    run(&program, &name, &launch, &Limits::default(), |_| ()).unwrap()
}

fn words<T: Copy>(b: &[u8], f: fn([u8; 4]) -> T) -> Vec<T> {
    b.chunks(4).map(|c| f(c.try_into().unwrap())).collect()
}

#[test]
fn recursion_gives_each_lane_its_own_activations() {
    let r = launch(3000);
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let inp = input();
    let out = words(r.buffer(1).unwrap(), i32::from_le_bytes);
    let want: Vec<i32> = (0..32)
        .map(|i| fib(i % 13) * 2 + i32::from(inp[i as usize] % 2 == 0))
        .collect();
    assert_eq!(out, want);
    // by hand: lane 12: fib(12) = 144, in[12] = (444 + 11) % 50 = 5 (odd): 288
    assert_eq!(out[12], 288);
    let sums: Vec<i64> = r
        .buffer(2)
        .unwrap()
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<i64> = (0..32usize)
        .map(|i| inp[i..i + 1 + i % 9].iter().map(|&v| i64::from(v)).sum())
        .collect();
    assert_eq!(sums, want);
    let chains = words(r.buffer(3).unwrap(), u32::from_le_bytes);
    let want: Vec<u32> = (0..32).map(|i| chain(if i == 5 { 3000 } else { i })).collect();
    assert_eq!(chains, want);
}

#[test]
fn recursion_deeper_than_the_call_depth_faults() {
    let r = launch(MAX_CALL_DEPTH as u32 + 10);
    assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
    assert_eq!(r.faults[0].kind, FaultKind::StackOverflow);
    assert_eq!(r.faults[0].lane, Some(5));
}

#[test]
fn a_recursive_function_with_a_stack_frame_is_refused_by_name() {
    // `down` keeps a local array (its address is the same in every activation here)
    let src = r#".version 9.0
.target sm_90
.address_size 64
.func  (.param .b32 func_retval0) down(.param .b32 down_param_0)
{
	.local .align 4 .b8 __local_depot0[16];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	mov.u64 %SPL, __local_depot0;
	ld.param.u32 %r1, [down_param_0];
	st.local.u32 [%SPL], %r1;
	setp.eq.s32 %p1, %r1, 0;
	mov.u32 %r4, 0;
	@%p1 bra $L__done;
	add.s32 %r2, %r1, -1;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r2;
	.param .b32 retval0;
	call.uni (retval0), down, (param0);
	ld.param.b32 %r3, [retval0+0];
	}
	ld.local.u32 %r4, [%SPL];
	add.s32 %r4, %r4, %r3;
$L__done:
	st.param.b32 [func_retval0+0], %r4;
	ret;
}
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	mov.u32 %r1, %tid.x;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), down, (param0);
	ld.param.b32 %r2, [retval0+0];
	}
	cvta.to.global.u64 %rd2, %rd1;
	st.global.u32 [%rd2], %r2;
	ret;
}
"#;
    let err = format!("{:?}", warpscope_ptx::compile(src).expect_err("refused"));
    assert!(
        err.contains("recursive function `down` keeps local variables"),
        "{err}"
    );
}

#[test]
fn a_recursive_function_without_parameters_or_locals() {
    // `spin` recurses on a global counter until it reaches 50: no parameters, no return value,
    // so its activations own no local bytes
    let src = r#".version 9.0
.target sm_90
.address_size 64
.global .align 4 .u32 count;
.func spin()
{
	.reg .pred %p<2>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, count;
	ld.global.u32 %r1, [%rd1];
	setp.ge.u32 %p1, %r1, 50;
	@%p1 bra $L__end;
	add.s32 %r2, %r1, 1;
	st.global.u32 [%rd1], %r2;
	{
	call.uni spin, ();
	}
$L__end:
	ret;
}
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	{
	call.uni spin, ();
	}
	mov.u64 %rd2, count;
	ld.global.u32 %r1, [%rd2];
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u32 [%rd1], %r1;
	ret;
}
"#;
    let program = warpscope_ptx::compile(src).unwrap();
    let launch = Launch::new([1, 1, 1], [1, 1, 1], vec![Arg::Buffer(vec![0; 4])]);
    let r = run(&program, "k", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    assert_eq!(words(r.buffer(0).unwrap(), u32::from_le_bytes), vec![50]);
}
