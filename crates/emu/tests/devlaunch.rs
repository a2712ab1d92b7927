//! Dynamic parallelism in the emulator: a kernel's `child<<<g, b, smem, stream>>>(args)` as nvcc
//! (CUDA 13, `-rdc=true`) emits it, through `__cudaCDP2GetParameterBufferV2` and
//! `__cudaCDP2LaunchDeviceV2`, is recorded with its kernel, dimensions, parameter bytes and
//! stream; errors are the device runtime's codes, kept as the thread's last error.

use warpscope_emu::devlaunch::{DevRtEnv, DeviceStream, MAX_DEPTH};
use warpscope_emu::{Arg, Launch, Limits, run};

/// `child(int *a, int n, float f)`; `parent(int *a)`: thread t of each warp's lane 0 launches
/// `child<<<t / 32 + 1, 32, 4 * t, stream>>>(a, t, 0.5f)` with `stream` = the parameter `s` for
/// warp 0, `cudaStreamTailLaunch` (3) for warp 1, and 99 (no stream) for warp 2; then every
/// thread stores `cudaPeekAtLastError() * 1000 + cudaGetLastError() * 1 + cudaGetLastError()`
/// (the second get after the first cleared it) at `a[tid]`.
const PTX: &str = r#".version 9.0
.target sm_90
.address_size 64
.extern .func  (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(
	.param .b64 p0,
	.param .align 4 .b8 p1[12],
	.param .align 4 .b8 p2[12],
	.param .b32 p3
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
	.param .b64 p0,
	.param .b64 p1
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2GetLastError
()
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2PeekAtLastError
()
;

.visible .entry child(
	.param .u64 child_param_0,
	.param .u32 child_param_1,
	.param .f32 child_param_2
)
{
	ret;
}

.visible .entry parent(
	.param .u64 parent_param_0,
	.param .u64 parent_param_1
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<20>;

	ld.param.u64 	%rd7, [parent_param_0];
	ld.param.u64 	%rd15, [parent_param_1];
	mov.u32 	%r1, %tid.x;
	and.b32 	%r2, %r1, 31;
	setp.ne.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__done;
	shr.u32 	%r3, %r1, 5;
	add.s32 	%r4, %r3, 1;
	shl.b32 	%r5, %r1, 2;
	setp.eq.s32 	%p2, %r3, 1;
	selp.b64 	%rd16, 3, %rd15, %p2;
	setp.eq.s32 	%p3, %r3, 2;
	selp.b64 	%rd17, 99, %rd16, %p3;
	mov.u64 	%rd9, child;
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd9;
	.param .align 4 .b8 param1[12];
	st.param.b32 	[param1+0], %r4;
	st.param.b32 	[param1+4], 1;
	st.param.b32 	[param1+8], 1;
	.param .align 4 .b8 param2[12];
	st.param.b32 	[param2+0], 32;
	st.param.b32 	[param2+4], 1;
	st.param.b32 	[param2+8], 1;
	.param .b32 param3;
	st.param.b32 	[param3+0], %r5;
	.param .b64 retval0;
	call.uni (retval0), 
	__cudaCDP2GetParameterBufferV2, 
	(
	param0, 
	param1, 
	param2, 
	param3
	);
	ld.param.b64 	%rd2, [retval0+0];
	} // callseq 0
	st.u64 	[%rd2], %rd7;
	st.u32 	[%rd2+8], %r1;
	mov.u32 	%r6, 1056964608;
	st.u32 	[%rd2+12], %r6;
	{ // callseq 1, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd2;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd17;
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2LaunchDeviceV2, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r7, [retval0+0];
	} // callseq 1
$L__done:
	{ // callseq 2, 0
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2PeekAtLastError, 
	(
	);
	ld.param.b32 	%r8, [retval0+0];
	} // callseq 2
	{ // callseq 3, 0
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2GetLastError, 
	(
	);
	ld.param.b32 	%r9, [retval0+0];
	} // callseq 3
	{ // callseq 4, 0
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2GetLastError, 
	(
	);
	ld.param.b32 	%r10, [retval0+0];
	} // callseq 4
	mul.lo.s32 	%r11, %r8, 1000;
	add.s32 	%r12, %r11, %r9;
	add.s32 	%r13, %r12, %r10;
	cvta.to.global.u64 	%rd10, %rd7;
	mul.wide.u32 	%rd11, %r1, 4;
	add.s64 	%rd12, %rd10, %rd11;
	st.global.u32 	[%rd12], %r13;
	ret;
}
"#;

fn launch(env: DevRtEnv, stream: u64) -> warpscope_emu::RunResult<()> {
    let p = warpscope_ptx::compile(PTX).expect("lowers");
    let mut l = Launch::new(
        [2, 1, 1],
        [96, 1, 1],
        vec![Arg::Buffer(vec![0; 96 * 4]), Arg::U64(stream)],
    );
    l.device_runtime = Some(std::sync::Arc::new(env));
    run(&p, "parent", &l, &Limits::default(), |_| ()).expect("runs")
}

fn words(r: &warpscope_emu::RunResult<()>) -> Vec<u32> {
    r.buffer(0)
        .expect("buffer")
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn launches_are_recorded_in_block_then_launch_order() {
    let r = launch(DevRtEnv::default(), 0);
    // warps 0 and 1 of each block launch; warp 2's stream handle 99 is no stream
    let got: Vec<(u32, u32, [u32; 3], u32, DeviceStream)> = r
        .launches
        .iter()
        .map(|l| (l.block, l.thread, l.grid, l.dyn_smem, l.stream))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 0, [1, 1, 1], 0, DeviceStream::Null),
            (0, 32, [2, 1, 1], 128, DeviceStream::Tail),
            (1, 0, [1, 1, 1], 0, DeviceStream::Null),
            (1, 32, [2, 1, 1], 128, DeviceStream::Tail),
        ]
    );
    for l in &r.launches {
        assert_eq!(l.kernel, "child");
        assert_eq!(l.block_dim, [32, 1, 1]);
        // the parameters as child's layout places them: a (8 bytes), n, f = 0.5
        assert_eq!(l.params.len(), 16);
        assert_eq!(u32::from_le_bytes(l.params[8..12].try_into().unwrap()), l.thread);
        assert_eq!(&l.params[12..16], &0.5f32.to_le_bytes());
    }
    assert_eq!(
        u64::from_le_bytes(r.launches[0].params[..8].try_into().unwrap()),
        warpscope_emu::mem::BUFFER_BASE,
        "the first argument is the buffer's device address"
    );
    // cudaErrorInvalidResourceHandle (400) for warp 2's launcher: peeked, got, then cleared
    let w = words(&r);
    assert_eq!(w[64], 400 * 1000 + 400);
    assert!(w.iter().enumerate().all(|(i, &v)| i == 64 || v == 0), "{w:?}");
}

#[test]
fn created_streams_and_the_depth_limit() {
    // a handle a device thread's cudaStreamCreateWithFlags gave
    let s = warpscope_emu::devlaunch::DEVICE_STREAM_TAG | 5;
    let r = launch(DevRtEnv::default(), s);
    assert_eq!(r.launches[0].stream, DeviceStream::Created(s));
    // a grid one level above the deepest: every launch fails with
    // cudaErrorLaunchMaxDepthExceeded (65) but warp 2's (no stream, 400, checked first)
    let r = launch(
        DevRtEnv {
            depth: MAX_DEPTH - 1,
            ..DevRtEnv::default()
        },
        0,
    );
    assert!(r.launches.is_empty());
    let w = words(&r);
    assert_eq!(
        (w[0], w[32], w[64]),
        (65 * 1000 + 65, 65 * 1000 + 65, 400 * 1000 + 400)
    );
}

#[test]
fn a_launch_of_no_kernel_is_refused() {
    // the kernel address replaced by a data address: cudaErrorInvalidDeviceFunction (98)
    let ptx = PTX.replace("mov.u64 \t%rd9, child;", "mov.u64 \t%rd9, 4096;");
    let p = warpscope_ptx::compile(&ptx).expect("lowers");
    let l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(vec![0; 32 * 4]), Arg::U64(0)],
    );
    let r = run(&p, "parent", &l, &Limits::default(), |_| ()).expect("runs");
    assert!(r.launches.is_empty());
    assert_eq!(words(&r)[0], 98 * 1000 + 98);
}

#[test]
fn other_device_runtime_functions_are_refused_by_name() {
    let ptx = PTX.replace("__cudaCDP2PeekAtLastError", "__cudaCDP2Malloc");
    let p = warpscope_ptx::compile(&ptx).expect("the module lowers");
    let err = p.kernel_error("parent").expect("parent does not lower");
    assert!(
        err[0]
            .message
            .contains("`cudaMalloc` (dynamic parallelism) is not emulated"),
        "{}",
        err[0].message
    );
    // the kernel that makes no such call is usable
    assert!(p.kernel("child").is_some());
}
