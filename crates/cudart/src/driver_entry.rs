//! `cudaGetDriverEntryPoint` / `cudaGetDriverEntryPointByVersion`: the driver functions a
//! program may ask the runtime for, answered with warpscope's own (there is no driver under
//! `warpscope run`): `cuTensorMapEncodeTiled`, `cuTensorMapEncodeIm2col` and
//! `cuTensorMapReplaceAddress` write warpscope's tensor map format (`warpscope_emu::tma`, checked
//! by the driver's rules), `cuGetErrorString` and `cuGetErrorName` name driver results. Any other
//! symbol is answered as the runtime answers one the driver lacks (measured on an H200, CUDA 13
//! runtime, driver 580): `cudaSuccess` with a null pointer and `cudaDriverEntryPointSymbolNotFound`,
//! with a note on stderr.
#![allow(non_snake_case, missing_docs, clippy::missing_safety_doc)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_ulonglong, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use warpscope_emu::tma::{Layout, MAP_BYTES, TensorMap};

/// `CUDA_ERROR_INVALID_VALUE`.
const CU_INVALID_VALUE: u32 = 1;

/// The driver functions answered, with the CUDA version that introduced each.
fn lookup(name: &str) -> Option<(*mut c_void, u32)> {
    Some(match name {
        "cuTensorMapEncodeTiled" => (cu_tensor_map_encode_tiled as *mut c_void, 12000),
        "cuTensorMapEncodeIm2col" => (cu_tensor_map_encode_im2col as *mut c_void, 12000),
        "cuTensorMapReplaceAddress" => (cu_tensor_map_replace_address as *mut c_void, 12000),
        "cuGetErrorString" => (cu_get_error_string as *mut c_void, 6000),
        "cuGetErrorName" => (cu_get_error_name as *mut c_void, 6000),
        _ => return None,
    })
}

unsafe fn entry_point(
    symbol: *const c_char,
    func: *mut *mut c_void,
    version: u32,
    status: *mut c_int,
) -> u32 {
    if symbol.is_null() || func.is_null() {
        return crate::err_codes::INVALID_VALUE;
    }
    // SAFETY: the caller passes a NUL-terminated name.
    let name = unsafe { CStr::from_ptr(symbol) }.to_string_lossy().into_owned();
    let (ptr, st, code) = match lookup(&name) {
        Some((p, since)) if version >= since => (p, 0, 0),
        Some(_) => (std::ptr::null_mut(), 2, 0),
        None => {
            eprintln!(
                "warpscope: the driver function {name} is not provided (cudaGetDriverEntryPoint gives a null pointer and cudaDriverEntryPointSymbolNotFound); warpscope provides cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress, cuGetErrorString and cuGetErrorName"
            );
            (std::ptr::null_mut(), 1, 0)
        }
    };
    // SAFETY: checked non-null above; `status` is optional.
    unsafe {
        func.write(ptr);
        if !status.is_null() {
            status.write(st);
        }
    }
    code
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPoint(
    symbol: *const c_char,
    func: *mut *mut c_void,
    _flags: c_ulonglong,
    status: *mut c_int,
) -> u32 {
    // the runtime's own version (13.0)
    catch_unwind(AssertUnwindSafe(|| unsafe {
        entry_point(symbol, func, 13000, status)
    }))
    .unwrap_or(999)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPoint_ptsz(
    symbol: *const c_char,
    func: *mut *mut c_void,
    flags: c_ulonglong,
    status: *mut c_int,
) -> u32 {
    unsafe { cudaGetDriverEntryPoint(symbol, func, flags, status) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    func: *mut *mut c_void,
    version: c_uint,
    _flags: c_ulonglong,
    status: *mut c_int,
) -> u32 {
    catch_unwind(AssertUnwindSafe(|| unsafe {
        entry_point(symbol, func, version, status)
    }))
    .unwrap_or(999)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion_ptsz(
    symbol: *const c_char,
    func: *mut *mut c_void,
    version: c_uint,
    flags: c_ulonglong,
    status: *mut c_int,
) -> u32 {
    unsafe { cudaGetDriverEntryPointByVersion(symbol, func, version, flags, status) }
}

/// Reads `n` values from a C array (`None`: a null pointer).
unsafe fn arr<T: Copy>(p: *const T, n: usize) -> Option<Vec<T>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller passes `n` readable values.
    Some(unsafe { std::slice::from_raw_parts(p, n) }.to_vec())
}

/// Checks `m` and writes it to `out`; the driver's result.
unsafe fn finish(func: &str, out: *mut u8, m: TensorMap) -> u32 {
    // The H200's driver writes a map at any address, 64-byte aligned or not (maps at offsets 1,
    // 4, 8, 16 and 32 encoded: calibration/tma `map_misaligned*`); only a null pointer is refused.
    if out.is_null() {
        eprintln!("warpscope: {func}: the tensorMap pointer is null (CUDA_ERROR_INVALID_VALUE)");
        return CU_INVALID_VALUE;
    }
    if let Err(why) = m.check() {
        eprintln!("warpscope: {func}: {why} (CUDA_ERROR_INVALID_VALUE)");
        return CU_INVALID_VALUE;
    }
    let b = m.to_bytes();
    // SAFETY: the caller's CUtensorMap is 128 writable bytes.
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), out, MAP_BYTES) };
    0
}

/// The fields both encoders share; `None` when an array is null.
#[allow(clippy::too_many_arguments)]
unsafe fn common(
    layout: Layout,
    dtype: c_uint,
    rank: c_uint,
    address: *mut c_void,
    dims: *const u64,
    strides: *const u64,
    estrides: *const u32,
    interleave: c_uint,
    swizzle: c_uint,
    l2: c_uint,
    fill: c_uint,
) -> Result<TensorMap, String> {
    let r = rank as usize;
    let n = r.min(5);
    let small = |v: c_uint, what: &str| u8::try_from(v).map_err(|_| format!("{what} {v} is out of range"));
    let mut m = TensorMap {
        layout,
        rank: u8::try_from(rank).unwrap_or(u8::MAX),
        dtype: small(dtype, "tensorDataType")?,
        interleave: small(interleave, "interleave")?,
        swizzle: small(swizzle, "swizzle")?,
        l2: small(l2, "l2Promotion")?,
        fill: small(fill, "oobFill")?,
        address: address as u64,
        dims: [0; 5],
        strides: [0; 4],
        boxes: [0; 5],
        estrides: [0; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    if r == 0 || r > 5 {
        return Ok(m); // check() names the rank
    }
    let d = unsafe { arr(dims, n) }.ok_or("globalDim is NULL")?;
    let e = unsafe { arr(estrides, n) }.ok_or("elementStrides is NULL")?;
    for i in 0..n {
        m.dims[i] =
            u32::try_from(d[i]).map_err(|_| format!("globalDim[{i}] = {} is not below 2^32", d[i]))?;
        m.estrides[i] = u8::try_from(e[i]).unwrap_or(u8::MAX);
    }
    if n > 1 {
        let s = unsafe { arr(strides, n - 1) }.ok_or("globalStrides is NULL")?;
        m.strides[..n - 1].copy_from_slice(&s);
    }
    Ok(m)
}

/// `cuTensorMapEncodeTiled`
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cu_tensor_map_encode_tiled(
    out: *mut u8,
    dtype: c_uint,
    rank: c_uint,
    address: *mut c_void,
    dims: *const u64,
    strides: *const u64,
    boxes: *const u32,
    estrides: *const u32,
    interleave: c_uint,
    swizzle: c_uint,
    l2: c_uint,
    fill: c_uint,
) -> u32 {
    let f = "cuTensorMapEncodeTiled";
    let run = || -> Result<TensorMap, String> {
        let mut m = unsafe {
            common(
                Layout::Tiled,
                dtype,
                rank,
                address,
                dims,
                strides,
                estrides,
                interleave,
                swizzle,
                l2,
                fill,
            )
        }?;
        if (1..=5).contains(&rank) {
            let b = unsafe { arr(boxes, rank as usize) }.ok_or("boxDim is NULL")?;
            for (i, v) in b.iter().enumerate() {
                m.boxes[i] = u16::try_from(*v).unwrap_or(u16::MAX);
            }
        }
        Ok(m)
    };
    catch_unwind(AssertUnwindSafe(|| match run() {
        Ok(m) => unsafe { finish(f, out, m) },
        Err(why) => {
            eprintln!("warpscope: {f}: {why} (CUDA_ERROR_INVALID_VALUE)");
            CU_INVALID_VALUE
        }
    }))
    .unwrap_or(999)
}

/// `cuTensorMapEncodeIm2col`
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cu_tensor_map_encode_im2col(
    out: *mut u8,
    dtype: c_uint,
    rank: c_uint,
    address: *mut c_void,
    dims: *const u64,
    strides: *const u64,
    lower: *const c_int,
    upper: *const c_int,
    channels: c_uint,
    pixels: c_uint,
    estrides: *const u32,
    interleave: c_uint,
    swizzle: c_uint,
    l2: c_uint,
    fill: c_uint,
) -> u32 {
    let f = "cuTensorMapEncodeIm2col";
    let run = || -> Result<TensorMap, String> {
        let mut m = unsafe {
            common(
                Layout::Im2col,
                dtype,
                rank,
                address,
                dims,
                strides,
                estrides,
                interleave,
                swizzle,
                l2,
                fill,
            )
        }?;
        m.channels = u16::try_from(channels).unwrap_or(u16::MAX);
        m.pixels = u16::try_from(pixels).unwrap_or(u16::MAX);
        if (3..=5).contains(&rank) {
            let sp = rank as usize - 2;
            let lo = unsafe { arr(lower, sp) }.ok_or("pixelBoxLowerCorner is NULL")?;
            let hi = unsafe { arr(upper, sp) }.ok_or("pixelBoxUpperCorner is NULL")?;
            for k in 0..sp {
                let clamp = |v: c_int| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                if lo[k] != i32::from(clamp(lo[k])) || hi[k] != i32::from(clamp(hi[k])) {
                    return Err(format!("pixelBox corner {k} is out of range"));
                }
                m.lower[k] = clamp(lo[k]);
                m.upper[k] = clamp(hi[k]);
            }
        }
        Ok(m)
    };
    catch_unwind(AssertUnwindSafe(|| match run() {
        Ok(m) => unsafe { finish(f, out, m) },
        Err(why) => {
            eprintln!("warpscope: {f}: {why} (CUDA_ERROR_INVALID_VALUE)");
            CU_INVALID_VALUE
        }
    }))
    .unwrap_or(999)
}

/// `cuTensorMapReplaceAddress`
unsafe extern "C" fn cu_tensor_map_replace_address(map: *mut u8, address: *mut c_void) -> u32 {
    let f = "cuTensorMapReplaceAddress";
    // any alignment, as the encoders (above)
    if map.is_null() {
        eprintln!("warpscope: {f}: the tensorMap pointer is null (CUDA_ERROR_INVALID_VALUE)");
        return CU_INVALID_VALUE;
    }
    // SAFETY: the caller's CUtensorMap is 128 bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut(map, MAP_BYTES) };
    let Ok(mut m) = TensorMap::from_bytes(bytes) else {
        eprintln!("warpscope: {f}: the tensorMap holds no tensor map (CUDA_ERROR_INVALID_VALUE)");
        return CU_INVALID_VALUE;
    };
    m.address = address as u64;
    if let Err(why) = m.check() {
        eprintln!("warpscope: {f}: {why} (CUDA_ERROR_INVALID_VALUE)");
        return CU_INVALID_VALUE;
    }
    bytes.copy_from_slice(&m.to_bytes());
    0
}

/// Driver results: (code, name, description).
const CU_RESULTS: &[(u32, &CStr, &CStr)] = &[
    (0, c"CUDA_SUCCESS", c"no error"),
    (1, c"CUDA_ERROR_INVALID_VALUE", c"invalid argument"),
    (2, c"CUDA_ERROR_OUT_OF_MEMORY", c"out of memory"),
    (3, c"CUDA_ERROR_NOT_INITIALIZED", c"initialization error"),
    (4, c"CUDA_ERROR_DEINITIALIZED", c"driver shutting down"),
    (201, c"CUDA_ERROR_INVALID_CONTEXT", c"invalid device context"),
    (500, c"CUDA_ERROR_NOT_FOUND", c"named symbol not found"),
    (
        700,
        c"CUDA_ERROR_ILLEGAL_ADDRESS",
        c"an illegal memory access was encountered",
    ),
    (801, c"CUDA_ERROR_NOT_SUPPORTED", c"operation not supported"),
    (999, c"CUDA_ERROR_UNKNOWN", c"unknown error"),
];

/// `cuGetErrorString`
unsafe extern "C" fn cu_get_error_string(code: u32, out: *mut *const c_char) -> u32 {
    name_or_text(code, out, false)
}

/// `cuGetErrorName`
unsafe extern "C" fn cu_get_error_name(code: u32, out: *mut *const c_char) -> u32 {
    name_or_text(code, out, true)
}

fn name_or_text(code: u32, out: *mut *const c_char, name: bool) -> u32 {
    if out.is_null() {
        return CU_INVALID_VALUE;
    }
    let (p, r) = match CU_RESULTS.iter().find(|e| e.0 == code) {
        Some(e) => (if name { e.1.as_ptr() } else { e.2.as_ptr() }, 0),
        None => (std::ptr::null(), CU_INVALID_VALUE),
    };
    // SAFETY: checked non-null.
    unsafe { out.write(p) };
    r
}
