//! The per-thread default stream entry points (what `nvcc --default-stream per-thread` makes a
//! program call): the runtime runs every stream in program order, so each is its legacy twin.
#![allow(non_snake_case)]

use std::ffi::{c_int, c_uint, c_void};

use crate::api::*;

/// `cudaEventRecordWithFlags` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaEventRecordWithFlags_ptsz(e: *mut c_void, s: *mut c_void, flags: c_uint) -> u32 {
    cudaEventRecordWithFlags(e, s, flags)
}

/// `cudaEventRecord` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaEventRecord_ptsz(e: *mut c_void, s: *mut c_void) -> u32 {
    cudaEventRecord(e, s)
}

/// `cudaLaunchHostFunc` on the per-thread default stream.
#[unsafe(no_mangle)]
/// # Safety
/// As `cudaLaunchHostFunc`.
pub unsafe extern "C" fn cudaLaunchHostFunc_ptsz(
    s: *mut c_void,
    f: Option<HostFn>,
    data: *mut c_void,
) -> u32 {
    unsafe { cudaLaunchHostFunc(s, f, data) }
}

/// `cudaMemPrefetchAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemPrefetchAsync_ptsz() -> u32 {
    cudaMemPrefetchAsync()
}

/// `cudaMemcpy2DAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2DAsync_ptsz(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, s)
}

/// `cudaMemcpy2DFromArray` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2DFromArray_ptds(
    dst: *mut c_void,
    dpitch: usize,
    src: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind)
}

/// `cudaMemcpy2DToArrayAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2DToArrayAsync_ptsz(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    cudaMemcpy2DToArrayAsync(dst, w_offset, h_offset, src, spitch, width, height, kind, s)
}

/// `cudaMemcpy2DToArray` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2DToArray_ptds(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind)
}

/// `cudaMemcpy2D` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2D_ptds(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind)
}

/// `cudaMemcpy3DAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
/// # Safety
/// As `cudaMemcpy3DAsync`.
pub unsafe extern "C" fn cudaMemcpy3DAsync_ptsz(
    p: *const crate::graph::Memcpy3DParms,
    s: *mut c_void,
) -> u32 {
    unsafe { cudaMemcpy3DAsync(p, s) }
}

/// `cudaMemcpy3D` on the per-thread default stream.
#[unsafe(no_mangle)]
/// # Safety
/// As `cudaMemcpy3D`.
pub unsafe extern "C" fn cudaMemcpy3D_ptds(p: *const crate::graph::Memcpy3DParms) -> u32 {
    unsafe { cudaMemcpy3D(p) }
}

/// `cudaMemcpyAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyAsync_ptsz(
    dst: *mut c_void,
    src: *const c_void,
    n: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    cudaMemcpyAsync(dst, src, n, kind, s)
}

/// `cudaMemcpyFromArray` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromArray_ptds(
    dst: *mut c_void,
    src: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    count: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpyFromArray(dst, src, w_offset, h_offset, count, kind)
}

/// `cudaMemcpyFromSymbolAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromSymbolAsync_ptsz(
    dst: *mut c_void,
    symbol: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    cudaMemcpyFromSymbolAsync(dst, symbol, n, off, kind, s)
}

/// `cudaMemcpyFromSymbol` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromSymbol_ptds(
    dst: *mut c_void,
    symbol: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpyFromSymbol(dst, symbol, n, off, kind)
}

/// `cudaMemcpyToArray` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToArray_ptds(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpyToArray(dst, w_offset, h_offset, src, count, kind)
}

/// `cudaMemcpyToSymbolAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToSymbolAsync_ptsz(
    symbol: *const c_void,
    src: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    cudaMemcpyToSymbolAsync(symbol, src, n, off, kind, s)
}

/// `cudaMemcpyToSymbol` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToSymbol_ptds(
    symbol: *const c_void,
    src: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> u32 {
    cudaMemcpyToSymbol(symbol, src, n, off, kind)
}

/// `cudaMemcpy` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy_ptds(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> u32 {
    cudaMemcpy(dst, src, n, kind)
}

/// `cudaMemset2DAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset2DAsync_ptsz(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    s: *mut c_void,
) -> u32 {
    cudaMemset2DAsync(dst, pitch, value, width, height, s)
}

/// `cudaMemset2D` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset2D_ptds(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> u32 {
    cudaMemset2D(dst, pitch, value, width, height)
}

/// `cudaMemset3DAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset3DAsync_ptsz(p: PitchedPtr, value: c_int, e: Extent, s: *mut c_void) -> u32 {
    cudaMemset3DAsync(p, value, e, s)
}

/// `cudaMemset3D` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset3D_ptds(p: PitchedPtr, value: c_int, e: Extent) -> u32 {
    cudaMemset3D(p, value, e)
}

/// `cudaMemsetAsync` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemsetAsync_ptsz(dst: *mut c_void, value: c_int, n: usize, s: *mut c_void) -> u32 {
    cudaMemsetAsync(dst, value, n, s)
}

/// `cudaMemset` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset_ptds(dst: *mut c_void, value: c_int, n: usize) -> u32 {
    cudaMemset(dst, value, n)
}

/// `cudaStreamAddCallback` on the per-thread default stream.
#[unsafe(no_mangle)]
/// # Safety
/// As `cudaStreamAddCallback`.
pub unsafe extern "C" fn cudaStreamAddCallback_ptsz(
    s: *mut c_void,
    cb: Option<StreamCallback>,
    data: *mut c_void,
    flags: c_uint,
) -> u32 {
    unsafe { cudaStreamAddCallback(s, cb, data, flags) }
}

/// `cudaStreamQuery` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamQuery_ptsz(s: *mut c_void) -> u32 {
    cudaStreamQuery(s)
}

/// `cudaStreamSynchronize` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamSynchronize_ptsz(s: *mut c_void) -> u32 {
    cudaStreamSynchronize(s)
}

/// `cudaStreamWaitEvent` on the per-thread default stream.
#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamWaitEvent_ptsz(s: *mut c_void, e: *mut c_void, flags: c_uint) -> u32 {
    cudaStreamWaitEvent(s, e, flags)
}
