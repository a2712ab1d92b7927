//! The per-thread default stream's entry points (what `nvcc --default-stream per-thread` makes a
//! program call) that are their legacy twins: the runtime runs every stream in program order. The
//! launches' `_ptsz` entry points are in `api` (they name themselves in their messages).
#![allow(non_snake_case)]

use std::ffi::{c_int, c_uint, c_void};

use crate::api::*;

macro_rules! twins {
    ($($name:ident => $base:ident($($a:ident: $t:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($base), "` on the per-thread default stream.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name($($a: $t),*) -> u32 {
            let _ptsz = crate::streams::PtszCall::enter(true);
            $base($($a),*)
        }
    )*};
}

macro_rules! unsafe_twins {
    ($($name:ident => $base:ident($($a:ident: $t:ty),*);)*) => {$(
        #[doc = concat!("`", stringify!($base), "` on the per-thread default stream.")]
        #[doc = ""]
        #[doc = "# Safety"]
        #[doc = concat!("As `", stringify!($base), "`.")]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($a: $t),*) -> u32 {
            let _ptsz = crate::streams::PtszCall::enter(true);
            // SAFETY: the same contract.
            unsafe { $base($($a),*) }
        }
    )*};
}

twins! {
    cudaEventRecordWithFlags_ptsz => cudaEventRecordWithFlags(e: *mut c_void, s: *mut c_void, flags: c_uint);
    cudaEventRecord_ptsz => cudaEventRecord(e: *mut c_void, s: *mut c_void);
    cudaFreeAsync_ptsz => cudaFreeAsync(ptr: *mut c_void, s: *mut c_void);
    cudaGraphLaunch_ptsz => cudaGraphLaunch(exec: *mut c_void, s: *mut c_void);
    cudaMemPrefetchAsync_ptsz => cudaMemPrefetchAsync();
    cudaStreamAttachMemAsync_ptsz => cudaStreamAttachMemAsync(s: *mut c_void, ptr: *mut c_void, len: usize, flags: c_uint);
    cudaMemcpy2DAsync_ptsz => cudaMemcpy2DAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, s: *mut c_void);
    cudaMemcpy2DFromArray_ptds => cudaMemcpy2DFromArray(dst: *mut c_void, dpitch: usize, src: *mut c_void, w_offset: usize, h_offset: usize, width: usize, height: usize, kind: c_int);
    cudaMemcpy2DToArrayAsync_ptsz => cudaMemcpy2DToArrayAsync(dst: *mut c_void, w_offset: usize, h_offset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, s: *mut c_void);
    cudaMemcpy2DToArray_ptds => cudaMemcpy2DToArray(dst: *mut c_void, w_offset: usize, h_offset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    cudaMemcpy2D_ptds => cudaMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int);
    cudaMemcpyAsync_ptsz => cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, s: *mut c_void);
    cudaMemcpyFromArray_ptds => cudaMemcpyFromArray(dst: *mut c_void, src: *mut c_void, w_offset: usize, h_offset: usize, count: usize, kind: c_int);
    cudaMemcpyFromSymbolAsync_ptsz => cudaMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, n: usize, off: usize, kind: c_int, s: *mut c_void);
    cudaMemcpyFromSymbol_ptds => cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, n: usize, off: usize, kind: c_int);
    cudaMemcpyToArray_ptds => cudaMemcpyToArray(dst: *mut c_void, w_offset: usize, h_offset: usize, src: *const c_void, count: usize, kind: c_int);
    cudaMemcpyToSymbolAsync_ptsz => cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, n: usize, off: usize, kind: c_int, s: *mut c_void);
    cudaMemcpyToSymbol_ptds => cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, n: usize, off: usize, kind: c_int);
    cudaMemcpy_ptds => cudaMemcpy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int);
    cudaMemset2DAsync_ptsz => cudaMemset2DAsync(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, s: *mut c_void);
    cudaMemset2D_ptds => cudaMemset2D(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize);
    cudaMemset3DAsync_ptsz => cudaMemset3DAsync(p: PitchedPtr, value: c_int, e: Extent, s: *mut c_void);
    cudaMemset3D_ptds => cudaMemset3D(p: PitchedPtr, value: c_int, e: Extent);
    cudaMemsetAsync_ptsz => cudaMemsetAsync(dst: *mut c_void, value: c_int, n: usize, s: *mut c_void);
    cudaMemset_ptds => cudaMemset(dst: *mut c_void, value: c_int, n: usize);
    cudaStreamBeginCapture_ptsz => cudaStreamBeginCapture(s: *mut c_void, mode: c_int);
    cudaStreamQuery_ptsz => cudaStreamQuery(s: *mut c_void);
    cudaStreamSetAttribute_ptsz => cudaStreamSetAttribute(s: *mut c_void, attr: c_int, value: *const c_void);
    cudaStreamSynchronize_ptsz => cudaStreamSynchronize(s: *mut c_void);
    cudaStreamWaitEvent_ptsz => cudaStreamWaitEvent(s: *mut c_void, e: *mut c_void, flags: c_uint);
}

unsafe_twins! {
    cudaLaunchHostFunc_ptsz => cudaLaunchHostFunc(s: *mut c_void, f: Option<HostFn>, data: *mut c_void);
    cudaMallocAsync_ptsz => cudaMallocAsync(ptr: *mut *mut c_void, size: usize, s: *mut c_void);
    cudaMallocFromPoolAsync_ptsz => cudaMallocFromPoolAsync(ptr: *mut *mut c_void, size: usize, pool: *mut c_void, s: *mut c_void);
    cudaMemcpy3DAsync_ptsz => cudaMemcpy3DAsync(p: *const crate::graph::Memcpy3DParms, s: *mut c_void);
    cudaMemcpy3D_ptds => cudaMemcpy3D(p: *const crate::graph::Memcpy3DParms);
    cudaStreamAddCallback_ptsz => cudaStreamAddCallback(s: *mut c_void, cb: Option<StreamCallback>, data: *mut c_void, flags: c_uint);
    cudaStreamEndCapture_ptsz => cudaStreamEndCapture(s: *mut c_void, graph: *mut *mut c_void);
    cudaStreamGetFlags_ptsz => cudaStreamGetFlags(s: *mut c_void, flags: *mut c_uint);
    cudaStreamGetPriority_ptsz => cudaStreamGetPriority(s: *mut c_void, prio: *mut c_int);
    cudaStreamIsCapturing_ptsz => cudaStreamIsCapturing(s: *mut c_void, status: *mut c_int);
}
