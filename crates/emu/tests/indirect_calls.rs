//! Indirect calls (`call (r), %rd, (a, b), prototype;`) through a function table in a `.global`
//! initialiser and through a function address taken in code (`mov.u64 %rd, f;`), as nvcc emits
//! them for function pointers and virtual methods (calibration/indirect/indirect.cu). Lanes of a
//! warp that call different functions each run their own and reconverge after the call (a
//! full-warp shuffle after it sees every lane's result); a call through a value that is no
//! function's address faults with that value.

use warpscope_emu::{Arg, FaultKind, Launch, Limits, run};

/// `add(a, b) = a + b`, `mul(a, b) = a * b`, `sub(a, b) = a - b` in `tbl`; `neg(a) = -a` takes
/// one parameter (no candidate for a two-parameter call). `calls(sel, x, out)`: lane i calls
/// `tbl[sel[i]](x[i], 7)`, then every lane reads lane 31's result with a full-warp shuffle:
/// `out[i] = r_i + 1000 * r_31`. `local(out, n)`: `f = n > 0 ? sub : mul; out[i] = f(i, n)`.
/// `raw(fp, out)`: lane i calls the function at `fp[i]` with (i, 3).
const PTX: &str = r#".version 9.0
.target sm_90
.address_size 64
.func  (.param .b32 func_retval0) add(.param .b32 add_param_0, .param .b32 add_param_1);
.func  (.param .b32 func_retval0) mul(.param .b32 mul_param_0, .param .b32 mul_param_1);
.func  (.param .b32 func_retval0) sub(.param .b32 sub_param_0, .param .b32 sub_param_1);
.global .align 8 .u64 tbl[3] = {add, mul, sub};

.func  (.param .b32 func_retval0) add(.param .b32 add_param_0, .param .b32 add_param_1)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [add_param_0];
	ld.param.u32 %r2, [add_param_1];
	add.s32 %r3, %r1, %r2;
	st.param.b32 [func_retval0+0], %r3;
	ret;
}
.func  (.param .b32 func_retval0) mul(.param .b32 mul_param_0, .param .b32 mul_param_1)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [mul_param_0];
	ld.param.u32 %r2, [mul_param_1];
	mul.lo.s32 %r3, %r1, %r2;
	st.param.b32 [func_retval0+0], %r3;
	ret;
}
.func  (.param .b32 func_retval0) sub(.param .b32 sub_param_0, .param .b32 sub_param_1)
{
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [sub_param_0];
	ld.param.u32 %r2, [sub_param_1];
	sub.s32 %r3, %r1, %r2;
	st.param.b32 [func_retval0+0], %r3;
	ret;
}
.func  (.param .b32 func_retval0) neg(.param .b32 neg_param_0)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [neg_param_0];
	neg.s32 %r2, %r1;
	st.param.b32 [func_retval0+0], %r2;
	ret;
}

.visible .entry calls(.param .u64 calls_param_0, .param .u64 calls_param_1, .param .u64 calls_param_2)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<16>;
	ld.param.u64 %rd1, [calls_param_0];
	ld.param.u64 %rd2, [calls_param_1];
	ld.param.u64 %rd3, [calls_param_2];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.u32 %r2, [%rd5];
	add.s64 %rd6, %rd2, %rd4;
	ld.global.u32 %r3, [%rd6];
	mul.wide.u32 %rd7, %r2, 8;
	mov.u64 %rd8, tbl;
	add.s64 %rd9, %rd8, %rd7;
	ld.u64 %rd10, [%rd9];
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r3;
	.param .b32 param1;
	st.param.b32 [param1+0], 7;
	.param .b32 retval0;
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
	call (retval0),
	%rd10,
	(
	param0,
	param1
	)
	, prototype_0;
	ld.param.b32 %r4, [retval0+0];
	}
	shfl.sync.idx.b32 %r5, %r4, 31, 31, -1;
	mad.lo.s32 %r6, %r5, 1000, %r4;
	add.s64 %rd11, %rd3, %rd4;
	st.global.u32 [%rd11], %r6;
	ret;
}

.visible .entry local(.param .u64 local_param_0, .param .u32 local_param_1)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [local_param_0];
	ld.param.u32 %r1, [local_param_1];
	mov.u32 %r2, %tid.x;
	setp.gt.s32 %p1, %r1, 0;
	mov.u64 %rd2, mul;
	mov.u64 %rd3, sub;
	selp.b64 %rd4, %rd3, %rd2, %p1;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r2;
	.param .b32 param1;
	st.param.b32 [param1+0], %r1;
	.param .b32 retval0;
	prototype_1 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
	call (retval0), %rd4, (param0, param1), prototype_1;
	ld.param.b32 %r3, [retval0+0];
	}
	mul.wide.u32 %rd5, %r2, 4;
	add.s64 %rd6, %rd1, %rd5;
	st.global.u32 [%rd6], %r3;
	ret;
}

.visible .entry raw(.param .u64 raw_param_0, .param .u64 raw_param_1)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [raw_param_0];
	ld.param.u64 %rd2, [raw_param_1];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u64 %rd5, [%rd4];
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 param1;
	st.param.b32 [param1+0], 3;
	.param .b32 retval0;
	prototype_2 : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
	call (retval0), %rd5, (param0, param1), prototype_2;
	ld.param.b32 %r2, [retval0+0];
	}
	mul.wide.u32 %rd6, %r1, 4;
	add.s64 %rd7, %rd2, %rd6;
	st.global.u32 [%rd7], %r2;
	ret;
}
"#;

fn ints(v: impl IntoIterator<Item = i32>) -> Vec<u8> {
    v.into_iter().flat_map(i32::to_le_bytes).collect()
}

fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn op(s: i32, a: i32, b: i32) -> i32 {
    match s {
        0 => a + b,
        1 => a * b,
        _ => a - b,
    }
}

/// Runs `calls` for one warp with selectors `sel`; `x[i] = 3 i - 40`.
fn calls(sel: &[i32]) -> Vec<i32> {
    let program = warpscope_ptx::compile(PTX).unwrap();
    let x: Vec<i32> = (0..32).map(|i| 3 * i - 40).collect();
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(ints(sel.iter().copied())),
            Arg::Buffer(ints(x)),
            Arg::Buffer(vec![0; 128]),
        ],
    );
    let r = run(&program, "calls", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    as_i32(r.buffer(2).unwrap())
}

fn want(sel: &[i32]) -> Vec<i32> {
    let res: Vec<i32> = (0..32).map(|i| op(sel[i as usize], 3 * i - 40, 7)).collect();
    (0..32).map(|i| res[i] + 1000 * res[31]).collect()
}

#[test]
fn a_table_call_the_whole_warp_makes_alike() {
    for s in 0..3 {
        let sel = vec![s; 32];
        let got = calls(&sel);
        assert_eq!(got, want(&sel), "tbl[{s}]");
    }
    // by hand: mul, lane 0: -40 * 7 = -280; lane 31: 53 * 7 = 371; out[0] = -280 + 371000
    assert_eq!(calls(&[1; 32])[0], 370_720);
}

#[test]
fn lanes_calling_different_functions_each_run_theirs_and_reconverge() {
    let sel: Vec<i32> = (0..32).map(|i| (i * 7 + i / 3) % 3).collect();
    let got = calls(&sel);
    assert_eq!(got, want(&sel));
    // by hand: lane 31 selects (217 + 10) % 3 = 2 (sub): 53 - 7 = 46; lane 1 selects 7 % 3 = 1
    // (mul): -37 * 7 = -259, so out[1] = -259 + 46000
    assert_eq!(got[1], 45_741);
}

#[test]
fn a_function_address_taken_in_code() {
    let program = warpscope_ptx::compile(PTX).unwrap();
    for (n, f) in [(5, 0), (-2, 1)] {
        let launch = Launch::new(
            [1, 1, 1],
            [32, 1, 1],
            vec![Arg::Buffer(vec![0; 128]), Arg::I32(n)],
        );
        let r = run(&program, "local", &launch, &Limits::default(), |_| ()).unwrap();
        assert!(r.faults.is_empty(), "{:?}", r.faults);
        let want: Vec<i32> = (0..32).map(|i| if f == 0 { i - n } else { i * n }).collect();
        assert_eq!(as_i32(r.buffer(0).unwrap()), want, "n = {n}");
    }
}

#[test]
fn a_call_through_no_functions_address_faults_with_the_value() {
    let program = warpscope_ptx::compile(PTX).unwrap();
    // the table's own values are function addresses: read them from the module's variables
    let base = warpscope_ptx::lower::FUNC_BASE;
    let var = program.vars.iter().find(|v| v.name == "tbl").unwrap();
    let init = &program.global_init[(var.addr - warpscope_ptx::lower::GLOBAL_VAR_BASE) as usize..][..24];
    let fns: Vec<u64> = init
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(
        fns.iter()
            .all(|&f| f >= base && f < warpscope_ptx::lower::GLOBAL_VAR_BASE),
        "{fns:x?}"
    );
    assert_eq!(fns.len(), 3);
    let mut ptrs = vec![fns[0]; 32];
    ptrs[9] = fns[2];
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(ptrs.iter().flat_map(|p| p.to_le_bytes()).collect()),
            Arg::Buffer(vec![0; 128]),
        ],
    );
    let r = run(&program, "raw", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_i32(r.buffer(1).unwrap());
    assert_eq!(out[8], 8 + 3);
    assert_eq!(out[9], 9 - 3);
    // lane 5: 0x1234, no function's address: the lane is reported with its value
    ptrs[5] = 0x1234;
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(ptrs.iter().flat_map(|p| p.to_le_bytes()).collect()),
            Arg::Buffer(vec![0; 128]),
        ],
    );
    let r = run(&program, "raw", &launch, &Limits::default(), |_| ()).unwrap();
    assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
    let f = &r.faults[0];
    assert_eq!(f.kind, FaultKind::BadCall);
    assert_eq!(f.lane, Some(5));
    assert_eq!(f.addr, Some(0x1234));
}
