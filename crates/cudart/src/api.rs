//! The C entry points: CUDA 13's runtime API as `libcudart.so.13` exports it (symbol version
//! `libcudart.so.13`, set by build.rs), including the registration and launch calls that nvcc's
//! host code makes. Every entry point catches panics (none unwinds into C), turns its arguments
//! into safe values and calls [`crate::runtime::Runtime`]. Functions not implemented are in
//! `unsupported.rs`: they print `warpscope: cudaXxx is not supported yet` and return
//! `cudaErrorNotSupported`. (Entry points are CUDA's own API, documented by NVIDIA; they are not
//! documented again here.)
#![allow(non_snake_case, missing_docs, clippy::missing_safety_doc)]

use std::cell::Cell;
use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{LazyLock, Mutex, MutexGuard};

use crate::device::{CudaDeviceProp, CudaFuncAttributes};
use crate::graph::Node;
use crate::runtime::{Config, LaunchRequest, Runtime, Where, err};
use crate::streams::StreamOrder;

static RT: LazyLock<Mutex<Runtime>> = LazyLock::new(|| {
    let cfg = match std::env::var("WARPSCOPE_RUN_CONFIG") {
        Ok(text) => serde_json::from_str::<Config>(&text).unwrap_or_else(|e| {
            eprintln!("warpscope: WARPSCOPE_RUN_CONFIG is not valid ({e}); using the defaults");
            Config::default()
        }),
        Err(_) => Config::default(),
    };
    Mutex::new(Runtime::new(cfg))
});

thread_local! {
    static LAST: Cell<u32> = const { Cell::new(0) };
}

fn rt() -> MutexGuard<'static, Runtime> {
    RT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs an entry point: catches panics, records the error as the thread's last error.
fn entry(name: &str, f: impl FnOnce() -> Result<(), u32>) -> u32 {
    let code = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => 0,
        Ok(Err(c)) => c,
        Err(_) => {
            eprintln!("warpscope: internal error in {name} (reported as cudaErrorUnknown)");
            999
        }
    };
    if code != 0 {
        LAST.with(|l| l.set(code));
        // under `--check`, a finding of the program (memcheck reports every call that fails;
        // not "not ready", which is an answer, nor what warpscope does not support, which it
        // says itself)
        // A launch whose kernel faulted returns its error here because the emulator runs it at
        // once; on a GPU the launch succeeds and the next synchronising call returns it (which
        // is reported then).
        let kernel_fault = name.contains("Launch") && crate::runtime::is_sticky(code);
        if code != err::NOT_READY && code != err::NOT_SUPPORTED && !kernel_fault {
            let _ = catch_unwind(|| rt().api_error(name, code));
        }
    }
    code
}

/// Calls at which the CUDA runtime flushes the device printf buffer (besides a kernel launch,
/// which flushes it when it starts).
const FLUSHES_PRINTF: &[&str] = &[
    "cudaDeviceSynchronize",
    "cudaThreadSynchronize",
    "cudaStreamSynchronize",
    "cudaEventSynchronize",
    "cudaMemcpy",
    "cudaMemcpy2D",
    "cudaMemcpy3D",
    "cudaMemcpyToSymbol",
    "cudaMemcpyFromSymbol",
    "cudaMemcpyPeer",
    "cudaStreamAddCallback",
    "cudaLaunchHostFunc",
];

/// An entry point that fails with the sticky error once one happened.
fn call(name: &str, f: impl FnOnce(&mut Runtime) -> Result<(), u32>) -> u32 {
    entry(name, || {
        let mut r = rt();
        if FLUSHES_PRINTF.contains(&name) {
            r.flush_printf();
        }
        if let Some(s) = r.sticky {
            return Err(s);
        }
        // a refused launch's error reaches the next synchronising call as a failed kernel's would
        if FLUSHES_PRINTF.contains(&name)
            && let Some(e) = r.deferred.take()
        {
            return Err(e);
        }
        f(&mut r)
    })
}

/// Prints the message for an unsupported call and returns `cudaErrorNotSupported`.
pub fn unsupported(name: &str) -> u32 {
    eprintln!("warpscope: {name} is not supported yet");
    LAST.with(|l| l.set(err::NOT_SUPPORTED));
    err::NOT_SUPPORTED
}

unsafe fn out<T>(p: *mut T, v: T) -> Result<(), u32> {
    if p.is_null() {
        return Err(err::INVALID_VALUE);
    }
    // SAFETY: the caller passes a pointer the C API says is writable.
    unsafe { p.write(v) };
    Ok(())
}

/// `dim3`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Dim3 {
    /// x
    pub x: c_uint,
    /// y
    pub y: c_uint,
    /// z
    pub z: c_uint,
}

impl Dim3 {
    fn arr(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }
}

// ------------------------------------------------------------------ registration

#[repr(C)]
struct FatbinWrapper {
    magic: u32,
    version: u32,
    data: *const u8,
    filename: *const c_void,
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fat: *const c_void) -> *mut *mut c_void {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let blob = (|| -> Result<&[u8], String> {
            if fat.is_null() {
                return Err("no fatbin".into());
            }
            // SAFETY: nvcc passes its wrapper struct.
            let w = unsafe { &*(fat as *const FatbinWrapper) };
            if w.magic != crate::fatbin::WRAPPER_MAGIC || w.data.is_null() {
                return Err(format!("unknown fatbin wrapper (magic {:#x})", w.magic));
            }
            // SAFETY: the blob starts with its 16-byte header.
            let head = unsafe { std::slice::from_raw_parts(w.data, 16) };
            let size = crate::fatbin::blob_size(head).map_err(|e| e.0)?;
            // SAFETY: the header gives the blob's size; nvcc embeds all of it.
            Ok(unsafe { std::slice::from_raw_parts(w.data, size) })
        })();
        let m = rt().register_module(blob);
        Box::into_raw(Box::new(m as *mut c_void))
    }));
    r.unwrap_or(std::ptr::null_mut())
}

fn module_of(handle: *mut *mut c_void) -> Option<usize> {
    if handle.is_null() {
        return None;
    }
    // SAFETY: handles come from __cudaRegisterFatBinary.
    Some(unsafe { *handle } as usize)
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// Called for each module as the program ends: under `--check`, device memory still allocated
/// then is a leak.
#[unsafe(no_mangle)]
pub extern "C" fn __cudaUnregisterFatBinary(_handle: *mut *mut c_void) {
    let _ = catch_unwind(|| rt().report_leaks("exit"));
}

/// The library's destructor: runs as the program ends, after the program's own `atexit` handlers,
/// whether or not its host code unregisters its modules (not every nvcc's does): device memory
/// still allocated then is a leak (each allocation is reported once).
extern "C" fn at_exit() {
    let _ = catch_unwind(|| rt().report_leaks("exit"));
}

#[used]
#[unsafe(link_section = ".fini_array")]
static AT_EXIT: extern "C" fn() = at_exit;

/// Called by nvcc's host code before its first use of a `__managed__` variable: gives the
/// variables of the module their initial values.
#[unsafe(no_mangle)]
pub extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if let Some(m) = module_of(handle) {
            rt().sync_managed(m, true);
        }
    }));
    1
}

fn cstr(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: nvcc passes NUL-terminated names.
    Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _bdim: *mut c_void,
    _gdim: *mut c_void,
    _wsize: *mut c_int,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if let (Some(m), Some(name)) = (module_of(handle), cstr(device_name)) {
            rt().functions
                .insert(host_fun as usize, crate::runtime::Function { module: m, name });
        }
    }));
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    constant: c_int,
    _global: c_int,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if let (Some(m), Some(name)) = (module_of(handle), cstr(device_name)) {
            rt().vars.insert(
                host_var as usize,
                crate::runtime::Var {
                    module: m,
                    name,
                    size,
                    constant: constant != 0,
                    managed: None,
                },
            );
        }
    }));
}

/// A `__managed__` variable: nvcc's host code reaches it through `*host_var`, a pointer set here to
/// host memory of the variable's size (16-byte aligned, zeroed, never freed), which the runtime keeps
/// equal to the device's copy at every launch and symbol access ([`crate::runtime::Runtime::sync_managed`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    handle: *mut *mut c_void,
    host_var: *mut *mut c_void,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    constant: c_int,
    _global: c_int,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let (Some(m), Some(name)) = (module_of(handle), cstr(device_name)) else {
            return;
        };
        if host_var.is_null() {
            return;
        }
        let mem: &'static mut [u128] = vec![0u128; size.div_ceil(16).max(1)].leak();
        let host = mem.as_mut_ptr() as usize;
        // SAFETY: nvcc passes the address of its pointer variable.
        unsafe { host_var.write(host as *mut c_void) };
        // keyed by the storage: `cudaMemcpyToSymbol(v, ...)` passes `&*ptr` for a managed `v`
        rt().vars.insert(
            host,
            crate::runtime::Var {
                module: m,
                name,
                size,
                constant: constant != 0,
                managed: Some(crate::runtime::Managed {
                    host,
                    initialised: false,
                }),
            },
        );
    }));
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterTexture() {
    unsupported("__cudaRegisterTexture (texture references)");
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaRegisterSurface() {
    unsupported("__cudaRegisterSurface (surface references)");
}

// ------------------------------------------------------------------ launch

#[unsafe(no_mangle)]
pub extern "C" fn __cudaPushCallConfiguration(
    grid: Dim3,
    block: Dim3,
    shmem: usize,
    stream: *mut c_void,
) -> c_uint {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        CALL_CONFIGS.with_borrow_mut(|c| c.push((grid.arr(), block.arr(), shmem, stream as usize)));
    }));
    0
}

/// One launch configuration of `kernel<<<grid, block, shmem, stream>>>`.
type CallConfig = ([u32; 3], [u32; 3], usize, usize);

thread_local! {
    /// Configurations pushed by `__cudaPushCallConfiguration`, per host thread as NVIDIA's runtime
    /// keeps them: with one shared stack, two threads launching at once took each other's stream
    /// (simpleCallback's eight launcher threads; a kernel queued behind the other thread's copy).
    static CALL_CONFIGS: std::cell::RefCell<Vec<CallConfig>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    grid: *mut Dim3,
    block: *mut Dim3,
    shmem: *mut usize,
    stream: *mut *mut c_void,
) -> u32 {
    entry("__cudaPopCallConfiguration", || {
        let (g, b, s, st) = CALL_CONFIGS
            .with_borrow_mut(|c| c.pop())
            .ok_or(err::INVALID_CONFIGURATION)?;
        let d = |a: [u32; 3]| Dim3 {
            x: a[0],
            y: a[1],
            z: a[2],
        };
        // SAFETY: nvcc's launch stub passes its locals.
        unsafe {
            out(grid, d(g))?;
            out(block, d(b))?;
            out(shmem, s)?;
            out(stream, st as *mut c_void)?;
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaGetKernel(kernel: *mut *const c_void, func: *const c_void) -> u32 {
    entry("__cudaGetKernel", || {
        if !rt().functions.contains_key(&(func as usize)) {
            return Err(err::INVALID_DEVICE_FUNCTION);
        }
        // SAFETY: nvcc passes its static handle.
        unsafe { out(kernel, func) }
    })
}

#[allow(clippy::too_many_arguments)]
fn launch(
    name: &str,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
    cooperative: bool,
) -> u32 {
    launch_in(name, func, grid, block, args, shmem, stream, cooperative, None)
}

#[allow(clippy::too_many_arguments)]
fn launch_in(
    name: &str,
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
    cooperative: bool,
    cluster: Option<[u32; 3]>,
) -> u32 {
    let _ptsz = crate::streams::PtszCall::enter(name.ends_with("_ptsz"));
    call(name, |r| {
        let sizes = r.param_sizes(func as usize)?;
        if !sizes.is_empty() && args.is_null() {
            return Err(err::INVALID_VALUE);
        }
        let params = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                // SAFETY: `args` holds one pointer per kernel parameter, each to the value's bytes
                // (the parameter sizes come from the kernel's PTX).
                unsafe {
                    let p = *args.add(i) as *const u8;
                    if p.is_null() {
                        return Err(err::INVALID_VALUE);
                    }
                    Ok(std::slice::from_raw_parts(p, n).to_vec())
                }
            })
            .collect::<Result<Vec<_>, u32>>()?;
        let req = LaunchRequest {
            func: func as usize,
            grid: grid.arr(),
            block: block.arr(),
            dyn_smem: shmem,
            stream: stream as usize,
            params,
            cooperative,
            cluster,
        };
        match r.graphs.capture_or(stream as usize, Node::Kernel(req)) {
            Some(Node::Kernel(req)) => r.launch(req),
            _ => Ok(()),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaLaunchKernel(
    kernel: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch(
        "__cudaLaunchKernel",
        kernel,
        grid,
        block,
        args,
        shmem,
        stream,
        false,
    )
}

#[unsafe(no_mangle)]
pub extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch(
        "__cudaLaunchKernel_ptsz",
        kernel,
        grid,
        block,
        args,
        shmem,
        stream,
        false,
    )
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch("cudaLaunchKernel", func, grid, block, args, shmem, stream, false)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaLaunchKernel_ptsz(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch(
        "cudaLaunchKernel_ptsz",
        func,
        grid,
        block,
        args,
        shmem,
        stream,
        false,
    )
}

/// `cudaLaunchCooperativeKernel`: every block of the grid resident at once (at most the occupancy
/// calculator's blocks per SM times the SMs, else `cudaErrorCooperativeLaunchTooLarge`), so that
/// `grid.sync()` works; the emulator runs the blocks in turns between grid barriers.
#[unsafe(no_mangle)]
pub extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch(
        "cudaLaunchCooperativeKernel",
        func,
        grid,
        block,
        args,
        shmem,
        stream,
        true,
    )
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaLaunchCooperativeKernel_ptsz(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shmem: usize,
    stream: *mut c_void,
) -> u32 {
    launch(
        "cudaLaunchCooperativeKernel_ptsz",
        func,
        grid,
        block,
        args,
        shmem,
        stream,
        true,
    )
}

/// `cudaLaunchConfig_t`.
#[repr(C)]
pub struct LaunchConfig {
    grid: Dim3,
    block: Dim3,
    dyn_smem: usize,
    stream: *mut c_void,
    attrs: *const LaunchAttribute,
    num_attrs: c_uint,
}

/// `cudaLaunchAttribute`: an id and a 64-byte value.
#[repr(C)]
pub struct LaunchAttribute {
    id: c_uint,
    pad: [u8; 4],
    val: [u8; 64],
}

/// What a launch attribute of `cudaLaunchKernelExC` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchAttr {
    /// Nothing the emulator counts (cache, priority and scheduling hints, stream serialisation:
    /// launches already run in program order).
    Nothing,
    /// The cooperative attribute (2), on or off.
    Cooperative(bool),
    /// The cluster dimension (4).
    Cluster([u32; 3]),
}

/// What `cudaLaunchKernelExC` makes of a launch attribute; `Err(what)` is not supported.
pub fn launch_attribute(id: u32, val: &[u8; 64]) -> Result<LaunchAttr, String> {
    let word = |i: usize| u32::from_le_bytes([val[4 * i], val[4 * i + 1], val[4 * i + 2], val[4 * i + 3]]);
    match id {
        2 => Ok(LaunchAttr::Cooperative(word(0) != 0)),
        // 1 access policy window, 3 synchronisation policy, 5 cluster scheduling preference,
        // 6 programmatic stream serialisation, 8 priority, 9/10 memory sync domain,
        // 14 preferred shared memory carveout, 16 NVLink scheduling hint
        0 | 1 | 3 | 5 | 6 | 8 | 9 | 10 | 14 | 16 => Ok(LaunchAttr::Nothing),
        4 => Ok(LaunchAttr::Cluster([word(0), word(1), word(2)])),
        // a preferred cluster dimension is a hint the GPU may not follow (it falls back to the
        // cluster dimension), so the emulator runs the cluster dimension's
        11 => Ok(LaunchAttr::Nothing),
        7 => Err("cudaLaunchAttributeProgrammaticEvent".into()),
        12 => Err("cudaLaunchAttributeLaunchCompletionEvent".into()),
        13 => Err("cudaLaunchAttributeDeviceUpdatableKernelNode".into()),
        n => Err(format!("launch attribute {n}")),
    }
}

fn launch_ex(name: &str, config: *const LaunchConfig, func: *const c_void, args: *mut *mut c_void) -> u32 {
    if config.is_null() {
        LAST.with(|l| l.set(err::INVALID_VALUE));
        return err::INVALID_VALUE;
    }
    // SAFETY: the caller passes a valid `cudaLaunchConfig_t`.
    let c = unsafe { &*config };
    if c.num_attrs > 0 && c.attrs.is_null() {
        LAST.with(|l| l.set(err::INVALID_VALUE));
        return err::INVALID_VALUE;
    }
    let mut cooperative = false;
    let mut cluster = None;
    for i in 0..c.num_attrs as usize {
        // SAFETY: `attrs` holds `num_attrs` entries.
        let a = unsafe { &*c.attrs.add(i) };
        match launch_attribute(a.id, &a.val) {
            Ok(LaunchAttr::Cooperative(v)) => cooperative = v,
            Ok(LaunchAttr::Cluster(d)) => cluster = Some(d),
            Ok(LaunchAttr::Nothing) => {}
            Err(what) => return unsupported(&format!("{name} with {what}")),
        }
    }
    launch_in(
        name,
        func,
        c.grid,
        c.block,
        args,
        c.dyn_smem,
        c.stream,
        cooperative,
        cluster,
    )
}

/// `cudaLaunchKernelExC` (what the C++ `cudaLaunchKernelEx` calls): a launch with attributes; the
/// cooperative attribute makes it a cooperative launch, the cluster dimension a cluster launch.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const LaunchConfig,
    func: *const c_void,
    args: *mut *mut c_void,
) -> u32 {
    launch_ex("cudaLaunchKernelExC", config, func, args)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchKernelExC_ptsz(
    config: *const LaunchConfig,
    func: *const c_void,
    args: *mut *mut c_void,
) -> u32 {
    launch_ex("cudaLaunchKernelExC_ptsz", config, func, args)
}

// ------------------------------------------------------------------ errors

static ERROR_TEXT: LazyLock<Vec<(u32, CString, CString)>> = LazyLock::new(|| {
    crate::errors::ERRORS
        .iter()
        .map(|&(c, n, m)| {
            (
                c,
                CString::new(n).unwrap_or_default(),
                CString::new(m).unwrap_or_default(),
            )
        })
        .collect()
});

#[unsafe(no_mangle)]
pub extern "C" fn cudaGetErrorName(code: u32) -> *const c_char {
    match ERROR_TEXT.iter().find(|e| e.0 == code) {
        Some(e) => e.1.as_ptr(),
        None => c"cudaErrorUnknown".as_ptr(),
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaGetErrorString(code: u32) -> *const c_char {
    match ERROR_TEXT.iter().find(|e| e.0 == code) {
        Some(e) => e.2.as_ptr(),
        None => c"unrecognized error code".as_ptr(),
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaGetLastError() -> u32 {
    let last = LAST.with(|l| l.replace(0));
    let sticky = catch_unwind(|| rt().sticky).ok().flatten();
    sticky.unwrap_or(last)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaPeekAtLastError() -> u32 {
    let last = LAST.with(|l| l.get());
    let sticky = catch_unwind(|| rt().sticky).ok().flatten();
    sticky.unwrap_or(last)
}

// ------------------------------------------------------------------ device

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceCount(n: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaGetDeviceCount", || unsafe { out(n, 1) })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaSetDevice(dev: c_int) -> u32 {
    entry("cudaSetDevice", || {
        if dev == 0 {
            Ok(())
        } else {
            Err(err::INVALID_DEVICE)
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaInitDevice(dev: c_int, _f1: c_uint, _f2: c_uint) -> u32 {
    cudaSetDevice(dev)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDevice(dev: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaGetDevice", || unsafe { out(dev, 0) })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaChooseDevice(dev: *mut c_int, _prop: *const c_void) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaChooseDevice", || unsafe { out(dev, 0) })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> u32 {
    call("cudaSetDeviceFlags", |r| {
        r.device_flags = flags;
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> u32 {
    let f = rt().device_flags;
    // SAFETY: the caller's out-pointer.
    entry("cudaGetDeviceFlags", || unsafe { out(flags, f) })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceProperties(prop: *mut CudaDeviceProp, dev: c_int) -> u32 {
    entry("cudaGetDeviceProperties", || {
        if dev != 0 {
            return Err(err::INVALID_DEVICE);
        }
        let p = CudaDeviceProp::from_info(&rt().device);
        // SAFETY: the caller's out-pointer to a cudaDeviceProp.
        unsafe { out(prop, p) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetDeviceProperties_v2(prop: *mut CudaDeviceProp, dev: c_int) -> u32 {
    // SAFETY: same contract.
    unsafe { cudaGetDeviceProperties(prop, dev) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetAttribute(value: *mut c_int, attr: c_int, dev: c_int) -> u32 {
    entry("cudaDeviceGetAttribute", || {
        if dev != 0 {
            return Err(err::INVALID_DEVICE);
        }
        match rt().device.attribute(attr) {
            // SAFETY: the caller's out-pointer.
            Some(v) => unsafe { out(value, v) },
            None => {
                eprintln!("warpscope: cudaDeviceGetAttribute({attr}) is not supported yet");
                Err(err::INVALID_VALUE)
            }
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceSynchronize() -> u32 {
    call("cudaDeviceSynchronize", |r| {
        r.order.device_sync();
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceReset() -> u32 {
    entry("cudaDeviceReset", || {
        let mut r = rt();
        r.report_leaks("cudaDeviceReset");
        r.order.device_sync();
        r.flush_printf();
        r.sticky = None;
        r.deferred = None;
        LAST.with(|l| l.set(0));
        Ok(())
    })
}

/// The runtime's version as the toolkit's own `libcudart.so.13` reports it (its headers'
/// `CUDART_VERSION`: 13050 for the 13.5 wheels, which is what an H200 printed for a program run
/// with that library, calibration/run/h200/book8.stdout); 13000 when no toolkit header says.
fn runtime_version() -> c_int {
    static V: std::sync::OnceLock<c_int> = std::sync::OnceLock::new();
    *V.get_or_init(|| {
        warpscope_toolchain::locate::find_root()
            .ok()
            .and_then(|r| std::fs::read_to_string(r.root.join("include/cuda_runtime_api.h")).ok())
            .and_then(|h| cudart_version(&h))
            .unwrap_or(13000)
    })
}

/// `#define CUDART_VERSION N` of `cuda_runtime_api.h`.
pub(crate) fn cudart_version(header: &str) -> Option<c_int> {
    header.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        (w.next() == Some("#define") && w.next() == Some("CUDART_VERSION"))
            .then(|| w.next()?.parse().ok())
            .flatten()
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaRuntimeGetVersion(v: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaRuntimeGetVersion", || unsafe { out(v, runtime_version()) })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDriverGetVersion(v: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaDriverGetVersion", || unsafe { out(v, 13000) })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> u32 {
    call("cudaMemGetInfo", |r| {
        let t = r.device.total_mem;
        // SAFETY: the caller's out-pointers.
        unsafe {
            out(free, t)?;
            out(total, t)
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceSetLimit(_limit: c_int, _value: usize) -> u32 {
    call("cudaDeviceSetLimit", |_| Ok(()))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) -> u32 {
    let v = match limit {
        0 => 1024,    // stack size
        1 => 1 << 20, // printf FIFO
        2 => 8 << 20, // malloc heap
        // dynamic parallelism's synchronisation depth: no device-side synchronisation in CUDA 12+,
        // and an H200 answers cudaErrorUnsupportedLimit (calibration/run/h200/dp_limits.stdout)
        3 => return entry("cudaDeviceGetLimit", || Err(err::UNSUPPORTED_LIMIT)),
        // the pending launch count: 2048 on the H200 (the emulator does not bound it: devlaunch)
        4 => 2048,
        _ => 0,
    };
    // SAFETY: the caller's out-pointer.
    entry("cudaDeviceGetLimit", || unsafe { out(value, v) })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceSetCacheConfig(_c: c_int) -> u32 {
    call("cudaDeviceSetCacheConfig", |_| Ok(()))
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetCacheConfig(c: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer. cudaFuncCachePreferNone: the split is the driver's choice.
    entry("cudaDeviceGetCacheConfig", || unsafe { out(c, 0) })
}

/// Compute capability 5.0 and later have 4-byte banks and no configurable bank size: CUDA's own
/// runtime answers `cudaSharedMemBankSizeFourByte` and accepts (ignores) any setting, and so do these.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetSharedMemConfig(c: *mut c_int) -> u32 {
    // SAFETY: the caller's out-pointer. 1 = cudaSharedMemBankSizeFourByte.
    entry("cudaDeviceGetSharedMemConfig", || unsafe { out(c, 1) })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceSetSharedMemConfig(c: c_int) -> u32 {
    entry("cudaDeviceSetSharedMemConfig", || shared_mem_config(c))
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFuncSetSharedMemConfig(func: *const c_void, c: c_int) -> u32 {
    entry("cudaFuncSetSharedMemConfig", || {
        shared_mem_config(c)?;
        rt().functions
            .get(&(func as usize))
            .map(|_| ())
            .ok_or(err::INVALID_DEVICE_FUNCTION)
    })
}

fn shared_mem_config(c: c_int) -> Result<(), u32> {
    // cudaSharedMemBankSizeDefault, FourByte, EightByte
    if (0..=2).contains(&c) {
        Ok(())
    } else {
        Err(err::INVALID_VALUE)
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaProfilerStart() -> u32 {
    0
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaProfilerStop() -> u32 {
    0
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceCanAccessPeer(can: *mut c_int, _d: c_int, _p: c_int) -> u32 {
    // SAFETY: the caller's out-pointer.
    entry("cudaDeviceCanAccessPeer", || unsafe { out(can, 0) })
}

// ------------------------------------------------------------------ memory

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc(ptr: *mut *mut c_void, size: usize) -> u32 {
    call("cudaMalloc", |r| {
        let a = r.malloc(size)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(ptr, a as usize as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocPitch(
    ptr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> u32 {
    call("cudaMallocPitch", |r| {
        let p = width.div_ceil(crate::runtime::PITCH_ALIGN).max(1) * crate::runtime::PITCH_ALIGN;
        let a = r.malloc(p.checked_mul(height).ok_or(err::MEMORY_ALLOCATION)?)?;
        // SAFETY: the caller's out-pointers.
        unsafe {
            out(pitch, p)?;
            out(ptr, a as usize as *mut c_void)
        }
    })
}

/// `cudaExtent`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    /// bytes
    pub width: usize,
    /// rows
    pub height: usize,
    /// slices
    pub depth: usize,
}

/// `cudaPitchedPtr`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PitchedPtr {
    /// base
    pub ptr: *mut c_void,
    /// bytes per row
    pub pitch: usize,
    /// width
    pub xsize: usize,
    /// height
    pub ysize: usize,
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc3D(pp: *mut PitchedPtr, e: Extent) -> u32 {
    call("cudaMalloc3D", |r| {
        let p = e.width.div_ceil(crate::runtime::PITCH_ALIGN).max(1) * crate::runtime::PITCH_ALIGN;
        let size = p
            .checked_mul(e.height)
            .and_then(|x| x.checked_mul(e.depth))
            .ok_or(err::MEMORY_ALLOCATION)?;
        let a = r.malloc(size)?;
        // SAFETY: the caller's out-pointer.
        unsafe {
            out(
                pp,
                PitchedPtr {
                    ptr: a as usize as *mut c_void,
                    pitch: p,
                    xsize: e.width,
                    ysize: e.height,
                },
            )
        }
    })
}

fn unmap(range: Option<(u64, u64)>) {
    if let Some((a, len)) = range {
        // SAFETY: the range was mapped by `host_map` and is no longer registered.
        unsafe { libc::munmap(a as usize as *mut c_void, len.max(1) as usize) };
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFree(ptr: *mut c_void) -> u32 {
    call("cudaFree", |r| {
        let a = ptr as u64;
        if a != 0 && !r.is_device_ptr(a) && !r.is_mirror(a) {
            return Err(err::INVALID_VALUE);
        }
        // taken as a device synchronisation (what the program freed no later work can touch)
        r.order.device_sync();
        r.pools.freed(a);
        unmap(r.free(a)?);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFreeHost(ptr: *mut c_void) -> u32 {
    call("cudaFreeHost", |r| {
        let a = ptr as u64;
        if a != 0 && !r.is_mirror(a) {
            return Err(err::INVALID_VALUE);
        }
        unmap(r.free(a)?);
        r.host_flags.remove(&a);
        Ok(())
    })
}

static NEXT_HOST: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0x2000_0000_0000);

/// Maps host memory a kernel may touch, away from the emulator's fixed windows.
fn host_map(r: &mut Runtime, size: usize) -> Result<u64, u32> {
    let len = size.max(1).div_ceil(4096) * 4096;
    let hint = NEXT_HOST.fetch_add(len as u64 + (1 << 20), std::sync::atomic::Ordering::Relaxed);
    // SAFETY: an anonymous private mapping; MAP_FIXED_NOREPLACE never replaces an existing one.
    let p = unsafe {
        libc::mmap(
            hint as usize as *mut c_void,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(err::MEMORY_ALLOCATION);
    }
    let a = p as u64;
    if let Err(e) = r.add_mirror(a, size, true) {
        // SAFETY: just mapped.
        unsafe { libc::munmap(p, len) };
        return Err(e);
    }
    Ok(a)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) -> u32 {
    call("cudaMallocHost", |r| {
        let a = host_map(r, size)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(ptr, a as usize as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostAlloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> u32 {
    call("cudaHostAlloc", |r| {
        let a = host_map(r, size)?;
        r.host_flags.insert(a, flags);
        // SAFETY: the caller's out-pointer.
        unsafe { out(ptr, a as usize as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocManaged(ptr: *mut *mut c_void, size: usize, _flags: c_uint) -> u32 {
    call("cudaMallocManaged", |r| {
        let a = host_map(r, size)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(ptr, a as usize as *mut c_void) }
    })
}

fn in_windows(a: u64, len: usize) -> bool {
    let lo = warpscope_emu::mem::CONST_WINDOW;
    let hi = warpscope_emu::mem::SHARED_WINDOW + warpscope_emu::mem::WINDOW;
    a < hi && a + len as u64 > lo
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaHostRegister(ptr: *mut c_void, size: usize, _flags: c_uint) -> u32 {
    call("cudaHostRegister", |r| {
        let a = ptr as u64;
        if a == 0 || size == 0 {
            return Err(err::INVALID_VALUE);
        }
        if in_windows(a, size) {
            eprintln!(
                "warpscope: cudaHostRegister of {a:#x}: the range overlaps the emulator's address windows"
            );
            return Err(err::NOT_SUPPORTED);
        }
        r.add_mirror(a, size, false)
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaHostUnregister(ptr: *mut c_void) -> u32 {
    call("cudaHostUnregister", |r| {
        if !r.is_mirror(ptr as u64) {
            return Err(err::HOST_MEMORY_NOT_REGISTERED);
        }
        r.free(ptr as u64).map(|_| ())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostGetDevicePointer(
    dev: *mut *mut c_void,
    host: *mut c_void,
    _flags: c_uint,
) -> u32 {
    call("cudaHostGetDevicePointer", |r| {
        if r.mirror_of(host as u64).is_none() {
            return Err(err::INVALID_VALUE);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, host) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> u32 {
    call("cudaHostGetFlags", |r| {
        let Some(base) = r.mirror_of(host as u64) else {
            return Err(err::INVALID_VALUE);
        };
        // the allocation's own flags, mapped added (pinned memory is mapped under unified
        // addressing): the H200 answered 3 for cudaHostAllocMapped | cudaHostAllocPortable
        // (calibration/run/bench14/zerocopy.cu)
        let given = r.host_flags.get(&base).copied().unwrap_or(0);
        // SAFETY: the caller's out-pointer.
        unsafe { out(flags, given | 2) }
    })
}

/// Copies `n` bytes: both ends classified (device regions vs host memory), checked against `kind`.
fn copy(r: &mut Runtime, dst: u64, src: u64, n: usize, kind: c_int) -> Result<(), u32> {
    if n == 0 {
        return Ok(());
    }
    if dst == 0 || src == 0 {
        return Err(err::INVALID_VALUE);
    }
    let d_dev = r.classify(dst, n) == Where::Device;
    let s_dev = r.classify(src, n) == Where::Device;
    // a pointer into device memory whose range runs past its allocation
    if (!d_dev && r.is_device_ptr(dst)) || (!s_dev && r.is_device_ptr(src)) {
        return Err(err::INVALID_VALUE);
    }
    let d_ok = d_dev || r.mirror_of(dst).is_some();
    let s_ok = s_dev || r.mirror_of(src).is_some();
    match kind {
        0 if d_dev || s_dev => return Err(err::INVALID_VALUE),
        1 if !d_ok || s_dev => return Err(err::INVALID_VALUE),
        2 if !s_ok || d_dev => return Err(err::INVALID_VALUE),
        3 if !d_ok || !s_ok => return Err(err::INVALID_VALUE),
        0..=4 => {}
        _ => return Err(err::INVALID_MEMCPY_DIRECTION),
    }
    match (s_dev, d_dev) {
        (false, false) => {
            // SAFETY: host pointers the program passed for `n` bytes (as the real runtime does,
            // a bad host pointer is the program's bug).
            unsafe { std::ptr::copy(src as usize as *const u8, dst as usize as *mut u8, n) }
        }
        (false, true) => {
            // SAFETY: as above.
            let s = unsafe { std::slice::from_raw_parts(src as usize as *const u8, n) };
            r.write_device(dst, s)?;
            r.note_overwrite(dst, n);
        }
        (true, false) => {
            // SAFETY: as above.
            let d = unsafe { std::slice::from_raw_parts_mut(dst as usize as *mut u8, n) };
            r.read_device(src, d)?;
            r.note_read("a copy from device memory to the host", src, n);
            r.note_uninit_copy(src, n);
        }
        (true, true) => {
            let mut tmp = vec![0u8; n];
            r.read_device(src, &mut tmp)?;
            r.write_device(dst, &tmp)?;
            r.note_copy(dst, src, n);
        }
    }
    r.clock.copy(n, s_dev && d_dev);
    Ok(())
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> u32 {
    call("cudaMemcpy", |r| {
        copy(r, dst as u64, src as u64, n, kind)?;
        // on the default stream; the host waits for it unless it is device to device
        let key = StreamOrder::key(0, crate::streams::ptsz());
        r.issue_copy("cudaMemcpy", key, dst as u64, src as u64, n, true);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    n: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    call("cudaMemcpyAsync", |r| {
        match r
            .graphs
            .capture_or(s as usize, Node::Copy(vec![(dst as u64, src as u64, n, kind)]))
        {
            Some(_) => {
                copy(r, dst as u64, src as u64, n, kind)?;
                let key = StreamOrder::key(s as usize, crate::streams::ptsz());
                r.issue_copy("cudaMemcpyAsync", key, dst as u64, src as u64, n, false);
                Ok(())
            }
            None => Ok(()),
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn copy2d(
    r: &mut Runtime,
    dst: u64,
    dpitch: usize,
    src: u64,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> Result<(), u32> {
    if width > dpitch || width > spitch {
        return Err(12); // cudaErrorInvalidPitchValue
    }
    for &(d, s, n, k) in &rows2d(dst, dpitch, src, spitch, width, height, kind) {
        copy(r, d, s, n, k)?;
    }
    Ok(())
}

/// The row copies of a 2-D copy: (destination, source, bytes, kind).
fn rows2d(
    dst: u64,
    dpitch: usize,
    src: u64,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> Vec<(u64, u64, usize, c_int)> {
    (0..height)
        .map(|row| {
            (
                dst + (row * dpitch) as u64,
                src + (row * spitch) as u64,
                width,
                kind,
            )
        })
        .collect()
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpy2D", |r| {
        copy2d(r, dst as u64, dpitch, src as u64, spitch, width, height, kind)?;
        // on the default stream; the host waits for it unless it is device to device
        let rows = rows2d(dst as u64, dpitch, src as u64, spitch, width, height, kind);
        let key = StreamOrder::key(0, crate::streams::ptsz());
        r.issue_rows(
            &rows_what("cudaMemcpy2D", height, width),
            key,
            &node_rows(&rows),
            true,
            false,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cudaMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    call("cudaMemcpy2DAsync", |r| {
        if width > dpitch || width > spitch {
            return Err(12); // cudaErrorInvalidPitchValue
        }
        let rows = rows2d(dst as u64, dpitch, src as u64, spitch, width, height, kind);
        match r.graphs.capture_or(s as usize, Node::Copy(rows)) {
            Some(Node::Copy(rows)) => {
                copy_rows(r, &rows)?;
                let key = StreamOrder::key(s as usize, crate::streams::ptsz());
                let what = rows_what("cudaMemcpy2DAsync", height, width);
                r.issue_rows(&what, key, &node_rows(&rows), false, false);
                Ok(())
            }
            _ => Ok(()),
        }
    })
}

/// `cudaMemcpy2D of 16 rows of 64 bytes`.
fn rows_what(call: &str, height: usize, width: usize) -> String {
    format!("{call} of {height} rows of {width} bytes")
}

fn set(r: &mut Runtime, dst: u64, value: c_int, n: usize) -> Result<(), u32> {
    if n == 0 {
        return Ok(());
    }
    if r.classify(dst, n) == Where::Device {
        r.memset_device(dst, value as u8, n)?;
        r.note_overwrite(dst, n);
        return Ok(());
    }
    if r.mirror_of(dst).is_some() {
        // SAFETY: a mirrored host allocation; the range is the program's to set.
        unsafe { std::ptr::write_bytes(dst as usize as *mut u8, value as u8, n) };
        return Ok(());
    }
    Err(err::INVALID_VALUE)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset(dst: *mut c_void, value: c_int, n: usize) -> u32 {
    call("cudaMemset", |r| {
        set(r, dst as u64, value, n)?;
        // on the default stream, asynchronous to the host for device memory
        let key = StreamOrder::key(0, crate::streams::ptsz());
        r.issue_copy("cudaMemset", key, dst as u64, 0, n, false);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemsetAsync(dst: *mut c_void, value: c_int, n: usize, s: *mut c_void) -> u32 {
    call("cudaMemsetAsync", |r| {
        let node = Node::Set {
            dst: dst as u64,
            pitch: n,
            value: u32::from(value as u8),
            element: 1,
            width: n,
            height: 1,
        };
        match r.graphs.capture_or(s as usize, node) {
            Some(_) => {
                set(r, dst as u64, value, n)?;
                let key = StreamOrder::key(s as usize, crate::streams::ptsz());
                r.issue_copy("cudaMemsetAsync", key, dst as u64, 0, n, false);
                Ok(())
            }
            None => Ok(()),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset2D(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> u32 {
    call("cudaMemset2D", |r| {
        if width > pitch {
            return Err(12);
        }
        (0..height).try_for_each(|row| set(r, dst as u64 + (row * pitch) as u64, value, width))?;
        // on the default stream, asynchronous to the host for device memory
        let rows: Vec<_> = (0..height)
            .map(|y| (dst as u64 + (y * pitch) as u64, 0, width))
            .collect();
        let key = StreamOrder::key(0, crate::streams::ptsz());
        r.issue_rows(
            &rows_what("cudaMemset2D", height, width),
            key,
            &rows,
            false,
            false,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset2DAsync(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    s: *mut c_void,
) -> u32 {
    call("cudaMemset2DAsync", |r| {
        if width > pitch {
            return Err(12);
        }
        let node = Node::Set {
            dst: dst as u64,
            pitch,
            value: u32::from(value as u8),
            element: 1,
            width,
            height,
        };
        match r.graphs.capture_or(s as usize, node) {
            Some(n) => {
                fill(r, &n)?;
                let key = StreamOrder::key(s as usize, crate::streams::ptsz());
                let what = rows_what("cudaMemset2DAsync", height, width);
                r.issue_rows(&what, key, &set_rows(&n), false, false);
                Ok(())
            }
            None => Ok(()),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemPrefetchAsync() -> u32 {
    call("cudaMemPrefetchAsync", |_| Ok(()))
}

/// Attaching managed memory to a stream (`cudaMemAttachGlobal` 1, `cudaMemAttachHost` 2,
/// `cudaMemAttachSingle` 4) changes nothing a kernel sees here: streams run in order and the device
/// reads managed memory where the host does. As the runtime does, an unknown flag or a single
/// attachment to the legacy default stream is `cudaErrorInvalidValue`.
#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamAttachMemAsync(
    s: *mut c_void,
    ptr: *mut c_void,
    _len: usize,
    flags: c_uint,
) -> u32 {
    call("cudaStreamAttachMemAsync", |r| {
        known_stream(r, s)?;
        if ptr.is_null() || !matches!(flags, 1 | 2 | 4) || (flags == 4 && s.is_null()) {
            return Err(err::INVALID_VALUE);
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemAdvise() -> u32 {
    call("cudaMemAdvise", |_| Ok(()))
}

/// `struct cudaPointerAttributes`
#[repr(C)]
pub struct PointerAttributes {
    kind: c_int,
    device: c_int,
    device_pointer: *mut c_void,
    host_pointer: *mut c_void,
    reserved: [i64; 8],
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaPointerGetAttributes(attr: *mut PointerAttributes, ptr: *const c_void) -> u32 {
    call("cudaPointerGetAttributes", |r| {
        let a = ptr as u64;
        let (kind, dev, host) = if r.is_device_ptr(a) {
            (2, ptr as *mut c_void, std::ptr::null_mut())
        } else if r.mirror_of(a).is_some() {
            (1, ptr as *mut c_void, ptr as *mut c_void)
        } else {
            (0, std::ptr::null_mut(), ptr as *mut c_void)
        };
        // SAFETY: the caller's out-pointer.
        unsafe {
            out(
                attr,
                PointerAttributes {
                    kind,
                    device: 0,
                    device_pointer: dev,
                    host_pointer: host,
                    reserved: [0; 8],
                },
            )
        }
    })
}

// ------------------------------------------------------------------ symbols

fn symbol_copy_to(
    r: &mut Runtime,
    symbol: *const c_void,
    src: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> Result<(), u32> {
    if src.is_null() {
        return Err(err::INVALID_VALUE);
    }
    let mut data = vec![0u8; n];
    if kind == 3 || (kind == 4 && r.is_device_ptr(src as u64)) {
        r.read_device(src as u64, &mut data)?;
    } else {
        // SAFETY: the program's host source of `n` bytes.
        data.copy_from_slice(unsafe { std::slice::from_raw_parts(src as *const u8, n) });
    }
    r.write_symbol(symbol as usize, off, &data)
}

fn symbol_copy_from(
    r: &mut Runtime,
    dst: *mut c_void,
    symbol: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> Result<(), u32> {
    if dst.is_null() {
        return Err(err::INVALID_VALUE);
    }
    let mut data = vec![0u8; n];
    r.read_symbol(symbol as usize, off, &mut data)?;
    if kind == 3 || (kind == 4 && r.is_device_ptr(dst as u64)) {
        r.write_device(dst as u64, &data)
    } else {
        // SAFETY: the program's host destination of `n` bytes.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst as *mut u8, n) };
        Ok(())
    }
}

/// A symbol copy of `n` bytes at `off` in the streams' order (`to`: into the symbol), on stream
/// `s` (0 for the synchronous call, which the host waits for unless the other side is device
/// memory). The variable's bytes are in its footprint: a `__device__` one's at its address, a
/// `__constant__` one's in its module's constant bank, where kernels' `ld.const` reads are
/// (`footprint::const_address`).
#[allow(clippy::too_many_arguments)]
fn issue_symbol(
    r: &mut Runtime,
    call: &str,
    symbol: *const c_void,
    other: u64,
    n: usize,
    off: usize,
    to: bool,
    s: usize,
    sync: bool,
) {
    if r.graphs.capturing(s) {
        return;
    }
    let Ok((is_const, addr, _)) = r.symbol(symbol as usize) else {
        return;
    };
    let at = if is_const {
        let module = r.vars.get(&(symbol as usize)).map_or(0, |v| v.module);
        warpscope_analysis::footprint::const_address(module, addr + off as u64)
    } else {
        addr + off as u64
    };
    let rows = if to { [(at, other, n)] } else { [(other, at, n)] };
    let key = StreamOrder::key(s, crate::streams::ptsz());
    r.issue_rows(&format!("{call} of {n} bytes"), key, &rows, sync, true);
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpyToSymbol", |r| {
        symbol_copy_to(r, symbol, src, n, off, kind)?;
        issue_symbol(r, "cudaMemcpyToSymbol", symbol, src as u64, n, off, true, 0, true);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    call("cudaMemcpyToSymbolAsync", |r| {
        symbol_copy_to(r, symbol, src, n, off, kind)?;
        issue_symbol(
            r,
            "cudaMemcpyToSymbolAsync",
            symbol,
            src as u64,
            n,
            off,
            true,
            s as usize,
            false,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpyFromSymbol", |r| {
        symbol_copy_from(r, dst, symbol, n, off, kind)?;
        issue_symbol(
            r,
            "cudaMemcpyFromSymbol",
            symbol,
            dst as u64,
            n,
            off,
            false,
            0,
            true,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    n: usize,
    off: usize,
    kind: c_int,
    s: *mut c_void,
) -> u32 {
    call("cudaMemcpyFromSymbolAsync", |r| {
        symbol_copy_from(r, dst, symbol, n, off, kind)?;
        issue_symbol(
            r,
            "cudaMemcpyFromSymbolAsync",
            symbol,
            dst as u64,
            n,
            off,
            false,
            s as usize,
            false,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetSymbolAddress(dev: *mut *mut c_void, symbol: *const c_void) -> u32 {
    call("cudaGetSymbolAddress", |r| {
        let (c, addr, _) = r.symbol(symbol as usize)?;
        if c {
            eprintln!("warpscope: cudaGetSymbolAddress of a __constant__ variable is not supported yet");
            return Err(err::NOT_SUPPORTED);
        }
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, addr as usize as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> u32 {
    call("cudaGetSymbolSize", |r| {
        let (_, _, n) = r.symbol(symbol as usize)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(size, n) }
    })
}

// ------------------------------------------------------------------ streams and events

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreate(s: *mut *mut c_void) -> u32 {
    call("cudaStreamCreate", |r| {
        let h = r.handle();
        r.streams.insert(h, 0);
        // SAFETY: the caller's out-pointer.
        unsafe { out(s, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(s: *mut *mut c_void, flags: c_uint) -> u32 {
    call("cudaStreamCreateWithFlags", |r| {
        let h = r.handle();
        r.streams.insert(h, flags);
        r.order.set_blocking(h, flags);
        // SAFETY: the caller's out-pointer.
        unsafe { out(s, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamCreateWithPriority(
    s: *mut *mut c_void,
    flags: c_uint,
    prio: c_int,
) -> u32 {
    call("cudaStreamCreateWithPriority", |r| {
        let h = r.handle();
        r.streams.insert(h, flags);
        r.order.set_blocking(h, flags);
        // the device's range: 0 (least) to -5 (greatest); others clamp into it
        r.stream_priorities.insert(h, prio.clamp(-5, 0));
        // SAFETY: the caller's out-pointer.
        unsafe { out(s, h as *mut c_void) }
    })
}

/// `cudaStreamGetFlags`: the flags the stream was created with (0 for the default streams).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetFlags(s: *mut c_void, flags: *mut c_uint) -> u32 {
    call("cudaStreamGetFlags", |r| {
        known_stream(r, s)?;
        let f = r.streams.get(&(s as usize)).copied().unwrap_or(0);
        // SAFETY: the caller's out-pointer.
        unsafe { out(flags, f) }
    })
}

/// `cudaStreamGetPriority`: the priority the stream was created with (0 without one).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetPriority(s: *mut c_void, prio: *mut c_int) -> u32 {
    call("cudaStreamGetPriority", |r| {
        known_stream(r, s)?;
        let p = r.stream_priorities.get(&(s as usize)).copied().unwrap_or(0);
        // SAFETY: the caller's out-pointer.
        unsafe { out(prio, p) }
    })
}

/// `cudaStreamGetDevice`: device 0, the one device.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamGetDevice(s: *mut c_void, dev: *mut c_int) -> u32 {
    call("cudaStreamGetDevice", |r| {
        known_stream(r, s)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(dev, 0) }
    })
}

/// `cudaMemcpyPeer` with one device: both devices must be 0; a device-to-device copy.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyPeer(
    dst: *mut c_void,
    dd: c_int,
    src: *const c_void,
    sd: c_int,
    n: usize,
) -> u32 {
    if dd != 0 || sd != 0 {
        return entry("cudaMemcpyPeer", || Err(err::INVALID_DEVICE));
    }
    cudaMemcpy(dst, src, n, 3)
}

/// `cudaMemcpyPeerAsync` with one device: both devices must be 0; a device-to-device copy in `s`.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dd: c_int,
    src: *const c_void,
    sd: c_int,
    n: usize,
    s: *mut c_void,
) -> u32 {
    if dd != 0 || sd != 0 {
        return entry("cudaMemcpyPeerAsync", || Err(err::INVALID_DEVICE));
    }
    cudaMemcpyAsync(dst, src, n, 3, s)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetStreamPriorityRange(least: *mut c_int, greatest: *mut c_int) -> u32 {
    entry("cudaDeviceGetStreamPriorityRange", || {
        // SAFETY: optional out-pointers.
        unsafe {
            if !least.is_null() {
                out(least, 0)?;
            }
            if !greatest.is_null() {
                out(greatest, -5)?;
            }
        }
        Ok(())
    })
}

fn known_stream(r: &Runtime, s: *mut c_void) -> Result<(), u32> {
    let h = s as usize;
    // 0: legacy default stream; 1, 2: cudaStreamLegacy, cudaStreamPerThread
    if h <= 2 || r.streams.contains_key(&h) {
        Ok(())
    } else {
        Err(err::INVALID_RESOURCE_HANDLE)
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamDestroy(s: *mut c_void) -> u32 {
    call("cudaStreamDestroy", |r| {
        r.streams
            .remove(&(s as usize))
            .map(|_| ())
            .ok_or(err::INVALID_RESOURCE_HANDLE)
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamSynchronize(s: *mut c_void) -> u32 {
    call("cudaStreamSynchronize", |r| {
        known_stream(r, s)?;
        r.order
            .stream_sync(StreamOrder::key(s as usize, crate::streams::ptsz()));
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamQuery(s: *mut c_void) -> u32 {
    call("cudaStreamQuery", |r| {
        known_stream(r, s)?;
        // every call completes before it returns: the query says the work is done, and the host
        // has seen it so
        r.order
            .stream_sync(StreamOrder::key(s as usize, crate::streams::ptsz()));
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamWaitEvent(s: *mut c_void, e: *mut c_void, _flags: c_uint) -> u32 {
    call("cudaStreamWaitEvent", |r| {
        known_stream(r, s)?;
        // waiting on an event a capturing stream recorded joins the capture (a fork)
        if let Some(c) = &mut r.graphs.capture
            && c.events.contains(&(e as usize))
        {
            c.wait(s as usize, e as usize);
        }
        r.order
            .wait_event(StreamOrder::key(s as usize, crate::streams::ptsz()), e as usize);
        Ok(())
    })
}

/// The attributes a stream accepts: the L2 access policy window (1), the synchronization policy
/// (3), the priority (8), the memory sync domain map and domain (9, 10). None changes a counter:
/// persisting L2 lines are not modelled and streams run in order.
#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamSetAttribute(s: *mut c_void, attr: c_int, value: *const c_void) -> u32 {
    call("cudaStreamSetAttribute", |r| {
        known_stream(r, s)?;
        if value.is_null() || !matches!(attr, 1 | 3 | 8 | 9 | 10) {
            return Err(err::INVALID_VALUE);
        }
        Ok(())
    })
}

/// Persisting L2 lines are not modelled: nothing to reset.
#[unsafe(no_mangle)]
pub extern "C" fn cudaCtxResetPersistingL2Cache() -> u32 {
    call("cudaCtxResetPersistingL2Cache", |_| Ok(()))
}

pub(crate) type StreamCallback = unsafe extern "C" fn(*mut c_void, u32, *mut c_void);
pub(crate) type HostFn = unsafe extern "C" fn(*mut c_void);

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamAddCallback(
    s: *mut c_void,
    cb: Option<StreamCallback>,
    data: *mut c_void,
    _flags: c_uint,
) -> u32 {
    let status = {
        let r = rt();
        if let Err(e) = known_stream(&r, s) {
            return e;
        }
        r.sticky.unwrap_or(0)
    };
    let Some(cb) = cb else {
        return entry("cudaStreamAddCallback", || Err(err::INVALID_VALUE));
    };
    // work of its stream: after the stream's earlier work, before its later work
    rt().issue_host_fn(StreamOrder::key(s as usize, crate::streams::ptsz()));
    // Every earlier operation of the stream is complete: the callback runs now, outside the lock
    // (it may call the runtime).
    // SAFETY: the program's callback with its own data.
    let r = catch_unwind(AssertUnwindSafe(|| unsafe { cb(s, status, data) }));
    if r.is_err() {
        eprintln!("warpscope: a stream callback panicked");
    }
    0
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaLaunchHostFunc(s: *mut c_void, f: Option<HostFn>, data: *mut c_void) -> u32 {
    {
        let r = rt();
        if let Some(e) = r.sticky {
            return e;
        }
        if let Err(e) = known_stream(&r, s) {
            return e;
        }
    }
    let Some(f) = f else {
        return entry("cudaLaunchHostFunc", || Err(err::INVALID_VALUE));
    };
    if rt()
        .graphs
        .capture_or(s as usize, Node::Host(f as usize, data as usize))
        .is_none()
    {
        return 0;
    }
    // work of its stream: after the stream's earlier work, before its later work
    rt().issue_host_fn(StreamOrder::key(s as usize, crate::streams::ptsz()));
    // SAFETY: the program's host function with its own data.
    let r = catch_unwind(AssertUnwindSafe(|| unsafe { f(data) }));
    if r.is_err() {
        eprintln!("warpscope: a host function panicked");
    }
    0
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventCreate(e: *mut *mut c_void) -> u32 {
    call("cudaEventCreate", |r| {
        let h = r.handle();
        r.events.insert(h, None);
        // SAFETY: the caller's out-pointer.
        unsafe { out(e, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventCreateWithFlags(e: *mut *mut c_void, _flags: c_uint) -> u32 {
    // SAFETY: same contract.
    unsafe { cudaEventCreate(e) }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaEventRecord(e: *mut c_void, s: *mut c_void) -> u32 {
    call("cudaEventRecord", |r| {
        known_stream(r, s)?;
        if let Some(c) = &mut r.graphs.capture
            && c.streams.contains(&(s as usize))
        {
            // an event in a capture marks a point of the graph: nothing is timed
            return if r.events.contains_key(&(e as usize)) {
                c.record(e as usize, s as usize);
                Ok(())
            } else {
                Err(err::INVALID_RESOURCE_HANDLE)
            };
        }
        let t = r.clock.ms;
        match r.events.get_mut(&(e as usize)) {
            Some(v) => {
                *v = Some(t);
                r.order
                    .record(e as usize, StreamOrder::key(s as usize, crate::streams::ptsz()));
                Ok(())
            }
            None => Err(err::INVALID_RESOURCE_HANDLE),
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaEventRecordWithFlags(e: *mut c_void, s: *mut c_void, _flags: c_uint) -> u32 {
    cudaEventRecord(e, s)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaEventSynchronize(e: *mut c_void) -> u32 {
    call("cudaEventSynchronize", |r| {
        if !r.events.contains_key(&(e as usize)) {
            return Err(err::INVALID_RESOURCE_HANDLE);
        }
        // also a successful cudaEventQuery: the host has seen the event's work done
        r.order.event_sync(e as usize);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaEventQuery(e: *mut c_void) -> u32 {
    cudaEventSynchronize(e)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaEventDestroy(e: *mut c_void) -> u32 {
    call("cudaEventDestroy", |r| {
        r.events
            .remove(&(e as usize))
            .map(|_| ())
            .ok_or(err::INVALID_RESOURCE_HANDLE)
    })
}

/// Elapsed time between two recorded events, from the modelled clock (not a measurement).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventElapsedTime(ms: *mut f32, start: *mut c_void, end: *mut c_void) -> u32 {
    call("cudaEventElapsedTime", |r| {
        let a = r
            .events
            .get(&(start as usize))
            .ok_or(err::INVALID_RESOURCE_HANDLE)?;
        let b = r
            .events
            .get(&(end as usize))
            .ok_or(err::INVALID_RESOURCE_HANDLE)?;
        match (a, b) {
            // SAFETY: the caller's out-pointer.
            (Some(a), Some(b)) => unsafe { out(ms, (b - a) as f32) },
            _ => Err(err::INVALID_RESOURCE_HANDLE),
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaEventElapsedTime_v2(ms: *mut f32, start: *mut c_void, end: *mut c_void) -> u32 {
    // SAFETY: same contract.
    unsafe { cudaEventElapsedTime(ms, start, end) }
}

// ------------------------------------------------------------------ functions and occupancy

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaFuncGetAttributes(attr: *mut CudaFuncAttributes, func: *const c_void) -> u32 {
    call("cudaFuncGetAttributes", |r| {
        let f = r
            .functions
            .get(&(func as usize))
            .cloned()
            .ok_or(err::INVALID_DEVICE_FUNCTION)?;
        let regs = r.registers(func as usize).unwrap_or(0);
        let frame = r.frame_size(func as usize);
        let optin = r.device.smem_per_block_optin;
        let (smem, local) = match r.program(f.module) {
            Ok(p) => p
                .kernel(&f.name)
                .map(|k| (k.static_smem as usize, k.local_size as usize))
                .unwrap_or((0, 0)),
            Err(_) => (0, 0),
        };
        // SAFETY: all-integer struct, zero is valid.
        let mut a: CudaFuncAttributes = unsafe { std::mem::zeroed() };
        a.sharedSizeBytes = smem;
        // the machine code's stack frame where the cubin says it (ptxas's spills and local
        // arrays), else the PTX's local memory
        a.localSizeBytes = frame.map_or(local, |f| f as usize);
        a.maxThreadsPerBlock = 1024;
        a.numRegs = regs as i32;
        a.ptxVersion = r.arch.cc() as i32;
        a.binaryVersion = r.arch.cc() as i32;
        a.maxDynamicSharedSizeBytes = match r.max_dyn_smem.get(&(func as usize)) {
            // what cudaFuncAttributeMaxDynamicSharedMemorySize set
            Some(&v) => v as i32,
            None => (48 * 1024usize)
                .saturating_sub(smem)
                .min(optin.saturating_sub(smem)) as i32,
        };
        a.preferredShmemCarveout = -1;
        // SAFETY: the caller's out-pointer.
        unsafe { out(attr, a) }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFuncSetAttribute(func: *const c_void, attr: c_int, value: c_int) -> u32 {
    call("cudaFuncSetAttribute", |r| {
        if !r.functions.contains_key(&(func as usize)) {
            return Err(err::INVALID_DEVICE_FUNCTION);
        }
        // cudaFuncAttributeMaxDynamicSharedMemorySize: at most the opt-in limit less the static
        // shared memory (the H200 refuses more, and a negative value, keeping the last one set)
        if attr == 8 {
            let static_smem = r.static_smem(func as usize)?;
            let max = r.device.smem_per_block_optin.saturating_sub(static_smem);
            let v = usize::try_from(value).map_err(|_| err::INVALID_VALUE)?;
            if v > max {
                return Err(err::INVALID_VALUE);
            }
            r.max_dyn_smem.insert(func as usize, v);
        }
        // cudaFuncAttributeNonPortableClusterSizeAllowed: clusters of up to 16 blocks
        if attr == 14 {
            if value != 0 {
                r.nonportable_cluster.insert(func as usize);
            } else {
                r.nonportable_cluster.remove(&(func as usize));
            }
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, _c: c_int) -> u32 {
    cudaFuncSetAttribute(func, 0, 0)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    n: *mut c_int,
    func: *const c_void,
    block: c_int,
    dyn_smem: usize,
    _flags: c_uint,
) -> u32 {
    call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", |r| {
        if block <= 0 {
            return Err(err::INVALID_VALUE);
        }
        let b = r.max_active_blocks(func as usize, block as u32, dyn_smem)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(n, b as c_int) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    n: *mut c_int,
    func: *const c_void,
    block: c_int,
    dyn_smem: usize,
) -> u32 {
    // SAFETY: same contract.
    unsafe { cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block, dyn_smem, 0) }
}

/// The cluster dimensions of a `cudaLaunchConfig_t` for the occupancy queries: the cluster
/// attribute's, checked against the kernel's `__cluster_dims__`, the grid and the largest cluster
/// as a launch would be (`cudaErrorInvalidClusterSize`); `None` when neither the configuration nor
/// the kernel names a cluster.
fn config_cluster(
    r: &mut Runtime,
    func: *const c_void,
    config: *const LaunchConfig,
) -> Result<Option<[u32; 3]>, u32> {
    if config.is_null() {
        return Err(err::INVALID_VALUE);
    }
    // SAFETY: the caller passes a valid `cudaLaunchConfig_t`.
    let c = unsafe { &*config };
    if c.num_attrs > 0 && c.attrs.is_null() {
        return Err(err::INVALID_VALUE);
    }
    let mut cluster = None;
    for i in 0..c.num_attrs as usize {
        // SAFETY: `attrs` holds `num_attrs` entries.
        let a = unsafe { &*c.attrs.add(i) };
        if let Ok(LaunchAttr::Cluster(d)) = launch_attribute(a.id, &a.val) {
            cluster = Some(d);
        }
    }
    let f = r
        .functions
        .get(&(func as usize))
        .cloned()
        .ok_or(err::INVALID_DEVICE_FUNCTION)?;
    let nonportable = r.nonportable_cluster.contains(&(func as usize));
    let p = r.program(f.module).map_err(|_| err::INVALID_PTX)?;
    let k = p.kernel(&f.name).ok_or(err::INVALID_DEVICE_FUNCTION)?;
    if cluster.is_none() && k.reqnctapercluster.is_none() {
        return Ok(None);
    }
    let grid = [c.grid.x, c.grid.y, c.grid.z];
    warpscope_emu::cluster_dims(k, grid, cluster, nonportable)
        .map(|(d, _)| Some(d))
        .map_err(|_| err::INVALID_CLUSTER_SIZE)
}

/// `cudaOccupancyMaxActiveClusters`: how many clusters of the configuration's size can be
/// resident at once (`warpscope_model::occupancy::max_active_clusters`, the rule measured on an
/// H200); 0 for a configuration without a cluster, or whose blocks do not fit on an SM.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxActiveClusters(
    n: *mut c_int,
    func: *const c_void,
    config: *const LaunchConfig,
) -> u32 {
    call("cudaOccupancyMaxActiveClusters", |r| {
        let Some(dims) = config_cluster(r, func, config)? else {
            // SAFETY: the caller's out-pointer.
            return unsafe { out(n, 0) };
        };
        // SAFETY: checked by `config_cluster`.
        let c = unsafe { &*config };
        let block = c.block.x as u64 * c.block.y as u64 * c.block.z as u64;
        let blocks = match u32::try_from(block) {
            Ok(b) if b > 0 => r.max_active_blocks(func as usize, b, c.dyn_smem)?,
            _ => return Err(err::INVALID_VALUE),
        };
        let limits = warpscope_model::occupancy::Limits::for_arch(r.arch).map_err(|_| err::INVALID_DEVICE)?;
        let size = dims.iter().product::<u32>();
        let clusters = warpscope_model::occupancy::max_active_clusters(&limits, blocks, size);
        // SAFETY: the caller's out-pointer.
        unsafe { out(n, clusters as c_int) }
    })
}

/// `cudaOccupancyMaxPotentialClusterSize`: the largest cluster the kernel may be launched with,
/// 8 blocks (16 with `cudaFuncAttributeNonPortableClusterSizeAllowed`), after the configuration's
/// cluster dimensions are checked as a launch would check them.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyMaxPotentialClusterSize(
    n: *mut c_int,
    func: *const c_void,
    config: *const LaunchConfig,
) -> u32 {
    call("cudaOccupancyMaxPotentialClusterSize", |r| {
        config_cluster(r, func, config)?;
        let max = if r.nonportable_cluster.contains(&(func as usize)) {
            warpscope_emu::MAX_CLUSTER_NONPORTABLE
        } else {
            warpscope_emu::MAX_CLUSTER
        };
        // SAFETY: the caller's out-pointer.
        unsafe { out(n, max as c_int) }
    })
}

/// `cudaOccupancyAvailableDynamicSMemPerBlock` ([`Runtime::available_dyn_smem`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    size: *mut usize,
    func: *const c_void,
    blocks: c_int,
    threads: c_int,
) -> u32 {
    call("cudaOccupancyAvailableDynamicSMemPerBlock", |r| {
        let n = r.available_dyn_smem(func as usize, blocks, threads)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(size, n) }
    })
}

/// `struct cudaChannelFormatDesc`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ChannelFormatDesc {
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: c_int,
}

/// `cudaGetChannelDesc`: the channel format a CUDA array was created with.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGetChannelDesc(desc: *mut ChannelFormatDesc, array: *mut c_void) -> u32 {
    call("cudaGetChannelDesc", |r| {
        let &(_, _, channels, kind, bits, _) = r
            .arrays
            .get(&(array as u64))
            .ok_or(err::INVALID_RESOURCE_HANDLE)?;
        let b = c_int::from(bits);
        let c = |k: u8| if k < channels { b } else { 0 };
        let d = ChannelFormatDesc {
            x: c(0),
            y: c(1),
            z: c(2),
            w: c(3),
            f: kind,
        };
        // SAFETY: the caller's out-pointer.
        unsafe { out(desc, d) }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaCreateChannelDesc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: c_int,
) -> ChannelFormatDesc {
    ChannelFormatDesc { x, y, z, w, f }
}

// ------------------------------------------------------------------ graphs

/// Writes a set node's rows.
fn fill(r: &mut Runtime, n: &Node) -> Result<(), u32> {
    let Node::Set {
        dst,
        pitch,
        value,
        element,
        width,
        height,
    } = *n
    else {
        return Ok(());
    };
    let row = crate::graph::set_row(value, element, width);
    for y in 0..height {
        let at = dst + (y * pitch) as u64;
        if row.is_empty() {
            continue;
        }
        if r.classify(at, row.len()) == Where::Device {
            r.write_device(at, &row)?;
        } else if r.mirror_of(at).is_some() {
            // SAFETY: a mirrored host allocation; the range is the program's to set.
            unsafe { std::ptr::copy_nonoverlapping(row.as_ptr(), at as usize as *mut u8, row.len()) };
        } else {
            return Err(err::INVALID_VALUE);
        }
    }
    Ok(())
}

/// Row copies (destination, source, bytes, `cudaMemcpyKind`), in order.
fn copy_rows(r: &mut Runtime, rows: &[(u64, u64, usize, c_int)]) -> Result<(), u32> {
    rows.iter().try_for_each(|&(d, s, n, k)| copy(r, d, s, n, k))
}

/// The rows of a copy node: (destination, source, bytes).
fn node_rows(rows: &[(u64, u64, usize, c_int)]) -> Vec<(u64, u64, usize)> {
    rows.iter().map(|&(d, s, n, _)| (d, s, n)).collect()
}

/// The rows of a set node: (destination, 0, bytes).
fn set_rows(n: &Node) -> Vec<(u64, u64, usize)> {
    match *n {
        Node::Set {
            dst,
            pitch,
            element,
            width,
            height,
            ..
        } => (0..height)
            .map(|y| (dst + (y * pitch) as u64, 0, width * element as usize))
            .collect(),
        _ => Vec::new(),
    }
}

/// Runs executable graph `exec`'s nodes on `stream` in a topological order (a host node outside
/// the runtime's lock: it may call the runtime); the streams' order takes each node after the
/// nodes it depends on only.
fn run_nodes(name: &str, exec: usize, e: crate::graph::Exec, stream: usize) -> u32 {
    let Some(order) = e.order() else {
        return entry(name, || Err(err::INVALID_VALUE));
    };
    {
        let key = StreamOrder::key(stream, crate::streams::ptsz());
        let label = format!("graph {:#x}", e.graph);
        rt().order.begin_graph(key, exec, &label, e.deps.clone());
    }
    let mut code = 0;
    for i in order {
        rt().order.graph_node(i);
        code = match e.nodes[i].clone() {
            Node::Kernel(mut req) => {
                req.stream = stream;
                call(name, |r| r.launch(req))
            }
            Node::Copy(rows) => call(name, |r| {
                copy_rows(r, &rows)?;
                let n: usize = rows.iter().map(|row| row.2).sum();
                r.issue_rows(
                    &format!("memcpy node of {n} bytes"),
                    0,
                    &node_rows(&rows),
                    false,
                    false,
                );
                Ok(())
            }),
            n @ Node::Set { .. } => call(name, |r| {
                fill(r, &n)?;
                let rows = set_rows(&n);
                let b: usize = rows.iter().map(|row| row.2).sum();
                r.issue_rows(&format!("memset node of {b} bytes"), 0, &rows, false, false);
                Ok(())
            }),
            Node::Host(f, data) => {
                // SAFETY: the program's host function (a non-null `cudaHostFn_t`) and its data.
                let f: unsafe extern "C" fn(*mut c_void) = unsafe { std::mem::transmute(f) };
                // SAFETY: as above.
                let ran = catch_unwind(AssertUnwindSafe(|| unsafe { f(data as *mut c_void) }));
                if ran.is_err() {
                    eprintln!("warpscope: a graph's host node panicked");
                }
                0
            }
            Node::EventRecord(ev) => call(name, |r| {
                let t = r.clock.ms;
                if let Some(v) = r.events.get_mut(&ev) {
                    *v = Some(t);
                }
                r.order.graph_record(ev);
                Ok(())
            }),
            Node::EventWait(ev) => call(name, |r| {
                r.order.graph_wait(ev);
                Ok(())
            }),
            Node::Empty => 0,
        };
        if code != 0 {
            break;
        }
    }
    rt().order.end_graph();
    code
}

fn add_node(
    r: &mut Runtime,
    node_out: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    node: Node,
) -> Result<(), u32> {
    let g = graph as usize;
    if !r.graphs.graphs.contains_key(&g) || (ndeps > 0 && deps.is_null()) {
        return Err(err::INVALID_VALUE);
    }
    let mut on = Vec::with_capacity(ndeps);
    for i in 0..ndeps {
        // SAFETY: the caller's array of `ndeps` node handles.
        let d = unsafe { *deps.add(i) } as usize;
        match r.graphs.nodes.get(&d) {
            Some(&(dg, di)) if dg == g => on.push(di),
            _ => return Err(err::INVALID_VALUE),
        }
    }
    let nodes = r.graphs.graphs.entry(g).or_default();
    nodes.push(node);
    let index = nodes.len() - 1;
    let edges = r.graphs.edges.entry(g).or_default();
    edges.resize(index, Vec::new());
    edges.push(on);
    let h = r.handle();
    r.graphs.nodes.insert(h, (g, index));
    // SAFETY: the caller's out-pointer.
    unsafe { out(node_out, h as *mut c_void) }
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphCreate(g: *mut *mut c_void, _flags: c_uint) -> u32 {
    call("cudaGraphCreate", |r| {
        let h = r.handle();
        r.graphs.graphs.insert(h, Vec::new());
        // SAFETY: the caller's out-pointer.
        unsafe { out(g, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddKernelNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    p: *const crate::graph::KernelNodeParams,
) -> u32 {
    call("cudaGraphAddKernelNode", |r| {
        // SAFETY: the caller's parameter block.
        let p = unsafe { p.as_ref() }.ok_or(err::INVALID_VALUE)?;
        let sizes = r.param_sizes(crate::graph::kernel_func(p))?;
        // SAFETY: `kernelParams` holds one pointer per parameter (the CUDA contract).
        let n = unsafe { crate::graph::kernel_node(p, &sizes) }?;
        add_node(r, node, graph, deps, ndeps, n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    p: *const crate::graph::Memcpy3DParms,
) -> u32 {
    call("cudaGraphAddMemcpyNode", |r| {
        // SAFETY: the caller's parameter block.
        let p = unsafe { p.as_ref() }.ok_or(err::INVALID_VALUE)?;
        let rows = crate::graph::copy3d_rows_with(p, &|a| array_shape(r, a))?;
        add_node(r, node, graph, deps, ndeps, Node::Copy(rows))
    })
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode1D(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    dst: *mut c_void,
    src: *const c_void,
    n: usize,
    kind: c_int,
) -> u32 {
    call("cudaGraphAddMemcpyNode1D", |r| {
        add_node(
            r,
            node,
            graph,
            deps,
            ndeps,
            Node::Copy(vec![(dst as u64, src as u64, n, kind)]),
        )
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddMemsetNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    p: *const crate::graph::MemsetParams,
) -> u32 {
    call("cudaGraphAddMemsetNode", |r| {
        // SAFETY: the caller's parameter block.
        let p = unsafe { p.as_ref() }.ok_or(err::INVALID_VALUE)?;
        let n = crate::graph::set_node(p).ok_or(err::INVALID_VALUE)?;
        add_node(r, node, graph, deps, ndeps, n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddHostNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    p: *const crate::graph::HostNodeParams,
) -> u32 {
    call("cudaGraphAddHostNode", |r| {
        // SAFETY: the caller's parameter block.
        let p = unsafe { p.as_ref() }.ok_or(err::INVALID_VALUE)?;
        let n = crate::graph::host_node(p).ok_or(err::INVALID_VALUE)?;
        add_node(r, node, graph, deps, ndeps, n)
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEmptyNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
) -> u32 {
    call("cudaGraphAddEmptyNode", |r| {
        add_node(r, node, graph, deps, ndeps, Node::Empty)
    })
}

/// A child graph node: the child graph is cloned into the parent (as the runtime clones it at
/// this call), its nodes without dependencies depending on `deps`, and the node returned is an
/// empty node after all of them: what depends on it waits for the whole child graph. So
/// `run --check` orders the child's nodes by their own edges and the parent's, like any other
/// (the parent's node count includes the child's nodes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddChildGraphNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    child: *mut c_void,
) -> u32 {
    call("cudaGraphAddChildGraphNode", |r| {
        let c = child as usize;
        let g = graph as usize;
        if c == g || !r.graphs.graphs.contains_key(&g) {
            return Err(err::INVALID_VALUE);
        }
        let nodes = r.graphs.graphs.get(&c).cloned().ok_or(err::INVALID_VALUE)?;
        let mut edges = r.graphs.edges.get(&c).cloned().unwrap_or_default();
        edges.resize(nodes.len(), Vec::new());
        // the child's roots on `deps` (an empty node standing for them), the rest on their edges
        let mut entry = std::ptr::null_mut();
        add_node(r, &mut entry, graph, deps, ndeps, Node::Empty)?;
        let base = r.graphs.graphs[&g].len();
        for (node, on) in nodes.into_iter().zip(edges) {
            let on = if on.is_empty() {
                vec![base - 1]
            } else {
                on.iter().map(|&d| base + d).collect()
            };
            r.graphs.graphs.get_mut(&g).ok_or(err::INVALID_VALUE)?.push(node);
            r.graphs.edges.get_mut(&g).ok_or(err::INVALID_VALUE)?.push(on);
        }
        let end = r.graphs.graphs[&g].len();
        let all: Vec<usize> = (base - 1..end).collect();
        r.graphs
            .graphs
            .get_mut(&g)
            .ok_or(err::INVALID_VALUE)?
            .push(Node::Empty);
        r.graphs.edges.get_mut(&g).ok_or(err::INVALID_VALUE)?.push(all);
        let h = r.handle();
        r.graphs.nodes.insert(h, (g, end));
        // SAFETY: the caller's out-pointer.
        unsafe { out(node, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEventRecordNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    event: *mut c_void,
) -> u32 {
    call("cudaGraphAddEventRecordNode", |r| {
        if !r.events.contains_key(&(event as usize)) {
            return Err(err::INVALID_VALUE);
        }
        add_node(r, node, graph, deps, ndeps, Node::EventRecord(event as usize))
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddEventWaitNode(
    node: *mut *mut c_void,
    graph: *mut c_void,
    deps: *const *mut c_void,
    ndeps: usize,
    event: *mut c_void,
) -> u32 {
    call("cudaGraphAddEventWaitNode", |r| {
        if !r.events.contains_key(&(event as usize)) {
            return Err(err::INVALID_VALUE);
        }
        add_node(r, node, graph, deps, ndeps, Node::EventWait(event as usize))
    })
}

/// `cudaGraphAddDependencies(graph, from, to, edgeData, n)`: node `to[i]` depends on `from[i]`
/// (the edge data, ports of programmatic dependent launch, are not modelled: they must be null).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphAddDependencies(
    graph: *mut c_void,
    from: *const *mut c_void,
    to: *const *mut c_void,
    edge_data: *const c_void,
    n: usize,
) -> u32 {
    call("cudaGraphAddDependencies", |r| {
        let g = graph as usize;
        if !r.graphs.graphs.contains_key(&g) || (n > 0 && (from.is_null() || to.is_null())) {
            return Err(err::INVALID_VALUE);
        }
        if !edge_data.is_null() {
            return Err(unsupported("cudaGraphAddDependencies with edge data"));
        }
        let mut add = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: the caller's arrays of `n` node handles.
            let (f, t) = unsafe { (*from.add(i) as usize, *to.add(i) as usize) };
            match (r.graphs.nodes.get(&f), r.graphs.nodes.get(&t)) {
                (Some(&(fg, fi)), Some(&(tg, ti))) if fg == g && tg == g && fi != ti => add.push((fi, ti)),
                _ => return Err(err::INVALID_VALUE),
            }
        }
        let len = r.graphs.graphs.get(&g).map_or(0, Vec::len);
        let edges = r.graphs.edges.entry(g).or_default();
        edges.resize(len, Vec::new());
        for (f, t) in add {
            if !edges[t].contains(&f) {
                edges[t].push(f);
            }
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphGetNodes(
    graph: *mut c_void,
    nodes: *mut *mut c_void,
    n: *mut usize,
) -> u32 {
    call("cudaGraphGetNodes", |r| {
        let g = graph as usize;
        if !r.graphs.graphs.contains_key(&g) || n.is_null() {
            return Err(err::INVALID_VALUE);
        }
        let mut mine: Vec<(usize, usize)> = r
            .graphs
            .nodes
            .iter()
            .filter(|&(_, &(ng, _))| ng == g)
            .map(|(&h, &(_, i))| (i, h))
            .collect();
        mine.sort_unstable();
        // SAFETY: the caller's count, and an array of at least that many handles when not null.
        unsafe {
            if !nodes.is_null() {
                for (k, &(_, h)) in mine.iter().take(*n).enumerate() {
                    *nodes.add(k) = h as *mut c_void;
                }
            }
            *n = mine.len();
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphInstantiate(
    exec: *mut *mut c_void,
    graph: *mut c_void,
    _flags: u64,
) -> u32 {
    call("cudaGraphInstantiate", |r| {
        let g = graph as usize;
        let nodes = r.graphs.graphs.get(&g).ok_or(err::INVALID_VALUE)?.clone();
        let mut deps = r.graphs.edges.get(&g).cloned().unwrap_or_default();
        deps.resize(nodes.len(), Vec::new());
        let e = crate::graph::Exec {
            graph: g,
            nodes,
            deps,
        };
        // edges added with cudaGraphAddDependencies may close a cycle
        if e.order().is_none() {
            return Err(err::INVALID_VALUE);
        }
        let h = r.handle();
        r.graphs.execs.insert(h, e);
        // SAFETY: the caller's out-pointer.
        unsafe { out(exec, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaGraphInstantiateWithFlags(
    exec: *mut *mut c_void,
    graph: *mut c_void,
    flags: u64,
) -> u32 {
    // SAFETY: same contract.
    unsafe { cudaGraphInstantiate(exec, graph, flags) }
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaGraphLaunch(exec: *mut c_void, s: *mut c_void) -> u32 {
    let nodes = {
        let mut r = rt();
        if let Some(e) = r.sticky {
            return e;
        }
        if let Err(e) = known_stream(&r, s) {
            return e;
        }
        let Some(e) = r.graphs.execs.get(&(exec as usize)).cloned() else {
            return entry("cudaGraphLaunch", || Err(err::INVALID_VALUE));
        };
        // launched into a capturing stream: its nodes join the capture
        if r.graphs.capturing(s as usize) {
            if let Some(c) = &mut r.graphs.capture {
                c.splice(s as usize, &e);
            }
            return 0;
        }
        e
    };
    run_nodes("cudaGraphLaunch", exec as usize, nodes, s as usize)
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaGraphExecDestroy(exec: *mut c_void) -> u32 {
    call("cudaGraphExecDestroy", |r| {
        r.graphs
            .execs
            .remove(&(exec as usize))
            .map(|_| ())
            .ok_or(err::INVALID_VALUE)
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaGraphDestroy(graph: *mut c_void) -> u32 {
    call("cudaGraphDestroy", |r| {
        let g = graph as usize;
        r.graphs.graphs.remove(&g).ok_or(err::INVALID_VALUE)?;
        r.graphs.edges.remove(&g);
        r.graphs.nodes.retain(|_, &mut (ng, _)| ng != g);
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaStreamBeginCapture(s: *mut c_void, _mode: c_int) -> u32 {
    call("cudaStreamBeginCapture", |r| {
        known_stream(r, s)?;
        // the legacy default stream cannot be captured
        if (s as usize) <= 1 {
            return Err(err::STREAM_CAPTURE_UNSUPPORTED);
        }
        if r.graphs.capture.is_some() {
            return Err(err::ILLEGAL_STATE);
        }
        r.graphs.capture = Some(crate::graph::Capture {
            origin: s as usize,
            streams: [s as usize].into(),
            ..Default::default()
        });
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamEndCapture(s: *mut c_void, graph: *mut *mut c_void) -> u32 {
    call("cudaStreamEndCapture", |r| {
        known_stream(r, s)?;
        match &r.graphs.capture {
            None => return Err(err::ILLEGAL_STATE),
            Some(c) if c.origin != s as usize => return Err(err::STREAM_CAPTURE_UNMATCHED),
            Some(_) => {}
        }
        let c = r.graphs.capture.take().unwrap_or_default();
        let h = r.handle();
        let mut handles = Vec::with_capacity(c.nodes.len());
        for i in 0..c.nodes.len() {
            let n = r.handle();
            handles.push((n, (h, i)));
        }
        r.graphs.nodes.extend(handles);
        r.graphs.graphs.insert(h, c.nodes);
        r.graphs.edges.insert(h, c.deps);
        // SAFETY: the caller's out-pointer.
        unsafe { out(graph, h as *mut c_void) }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaStreamIsCapturing(s: *mut c_void, status: *mut c_int) -> u32 {
    call("cudaStreamIsCapturing", |r| {
        known_stream(r, s)?;
        // cudaStreamCaptureStatusNone 0, Active 1
        let active = c_int::from(r.graphs.capturing(s as usize));
        // SAFETY: the caller's out-pointer.
        unsafe { out(status, active) }
    })
}

/// A 3-D copy issued to `stream` (the legacy stream 0 for the synchronous call, which no capture
/// takes): captured or run.
/// `sync`: the synchronous call (the host waits for it unless it copies device to device).
fn copy3d(name: &str, p: *const crate::graph::Memcpy3DParms, stream: usize, sync: bool) -> u32 {
    call(name, |r| {
        // SAFETY: the caller's parameter block.
        let p = unsafe { p.as_ref() }.ok_or(err::INVALID_VALUE)?;
        let rows = crate::graph::copy3d_rows_with(p, &|a| array_shape(r, a))?;
        match r.graphs.capture_or(stream, Node::Copy(rows)) {
            Some(Node::Copy(rows)) => {
                copy_rows(r, &rows)?;
                let width = rows.first().map_or(0, |row| row.2);
                let key = StreamOrder::key(stream, crate::streams::ptsz());
                r.issue_rows(
                    &rows_what(name, rows.len(), width),
                    key,
                    &node_rows(&rows),
                    sync,
                    false,
                );
                Ok(())
            }
            _ => Ok(()),
        }
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy3D(p: *const crate::graph::Memcpy3DParms) -> u32 {
    copy3d("cudaMemcpy3D", p, 0, true)
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemcpy3DAsync(p: *const crate::graph::Memcpy3DParms, s: *mut c_void) -> u32 {
    copy3d("cudaMemcpy3DAsync", p, s as usize, false)
}

// ------------------------------------------------------------------ stream-ordered memory

/// `cudaMallocAsync`: streams run in program order, so the allocation is made at once; inside a
/// stream capture (an allocation node) it is refused.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocAsync(ptr: *mut *mut c_void, size: usize, s: *mut c_void) -> u32 {
    // SAFETY: same contract.
    unsafe { malloc_from_pool("cudaMallocAsync", ptr, size, None, s) }
}

/// An allocation from `pool` (`None`: the device's current pool), at once.
unsafe fn malloc_from_pool(
    name: &str,
    ptr: *mut *mut c_void,
    size: usize,
    pool: Option<usize>,
    s: *mut c_void,
) -> u32 {
    if rt().graphs.capturing(s as usize) {
        return unsupported(&format!("{name} in a stream capture"));
    }
    call(name, |r| {
        known_stream(r, s)?;
        let h = match pool {
            Some(h) if r.pools.contains(h) => h,
            Some(_) => return Err(err::INVALID_VALUE),
            None => {
                default_pool(r);
                r.pools.current(|| unreachable!("the default pool exists"))
            }
        };
        if ptr.is_null() {
            return Err(err::INVALID_VALUE);
        }
        let a = r.malloc(size)?;
        r.pools.allocated(h, a, size as u64);
        // SAFETY: the caller's out-pointer.
        unsafe { out(ptr, a as *mut c_void) }
    })
}

/// `cudaMallocFromPoolAsync`: an allocation from `pool`, at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocFromPoolAsync(
    ptr: *mut *mut c_void,
    size: usize,
    pool: *mut c_void,
    s: *mut c_void,
) -> u32 {
    // SAFETY: same contract.
    unsafe { malloc_from_pool("cudaMallocFromPoolAsync", ptr, size, Some(pool as usize), s) }
}

/// The default pool's handle (made the first time).
fn default_pool(r: &mut Runtime) -> usize {
    let fresh = if r.pools.has_default() { 0 } else { r.handle() };
    r.pools.default_pool(|| fresh)
}

/// `cudaDeviceGetDefaultMemPool`: device 0's default pool.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetDefaultMemPool(pool: *mut *mut c_void, dev: c_int) -> u32 {
    call("cudaDeviceGetDefaultMemPool", |r| {
        if dev != 0 {
            return Err(err::INVALID_DEVICE);
        }
        let h = default_pool(r);
        // SAFETY: the caller's out-pointer.
        unsafe { out(pool, h as *mut c_void) }
    })
}

/// `cudaDeviceGetMemPool`: device 0's current pool.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaDeviceGetMemPool(pool: *mut *mut c_void, dev: c_int) -> u32 {
    call("cudaDeviceGetMemPool", |r| {
        if dev != 0 {
            return Err(err::INVALID_DEVICE);
        }
        default_pool(r);
        let h = r.pools.current(|| unreachable!("the default pool exists"));
        // SAFETY: the caller's out-pointer.
        unsafe { out(pool, h as *mut c_void) }
    })
}

/// `cudaDeviceSetMemPool`: device 0's current pool.
#[unsafe(no_mangle)]
pub extern "C" fn cudaDeviceSetMemPool(dev: c_int, pool: *mut c_void) -> u32 {
    call("cudaDeviceSetMemPool", |r| {
        if dev != 0 {
            return Err(err::INVALID_DEVICE);
        }
        default_pool(r);
        if r.pools.set_current(pool as usize) {
            Ok(())
        } else {
            Err(err::INVALID_VALUE)
        }
    })
}

/// `cudaMemPoolCreate`: a pool of device memory on device 0 (the properties are not read but
/// for the location: device 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolCreate(pool: *mut *mut c_void, props: *const c_void) -> u32 {
    call("cudaMemPoolCreate", |r| {
        if props.is_null() {
            return Err(err::INVALID_VALUE);
        }
        let h = r.handle();
        r.pools.create(h);
        // SAFETY: the caller's out-pointer.
        unsafe { out(pool, h as *mut c_void) }
    })
}

/// `cudaMemPoolDestroy`.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemPoolDestroy(pool: *mut c_void) -> u32 {
    call("cudaMemPoolDestroy", |r| {
        if r.pools.destroy(pool as usize) {
            Ok(())
        } else {
            Err(err::INVALID_VALUE)
        }
    })
}

/// `Ok` when `pool` is a pool, else `cudaErrorInvalidValue`.
fn known_pool(r: &Runtime, pool: *mut c_void) -> Result<(), u32> {
    if r.pools.contains(pool as usize) {
        Ok(())
    } else {
        Err(err::INVALID_VALUE)
    }
}

/// `cudaMemPoolTrimTo`: nothing is held in reserve, so nothing to release.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemPoolTrimTo(pool: *mut c_void, _keep: usize) -> u32 {
    call("cudaMemPoolTrimTo", |r| known_pool(r, pool))
}

/// `cudaMemPoolSetAttribute`: the reuse policies, the release threshold, a reset of the
/// high-water marks.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolSetAttribute(pool: *mut c_void, a: c_int, v: *mut c_void) -> u32 {
    call("cudaMemPoolSetAttribute", |r| {
        let value = match (crate::pools::Pools::is_int(a), v.is_null()) {
            (_, true) | (None, _) => return Err(err::INVALID_VALUE),
            // SAFETY: the caller's value of the attribute's type.
            (Some(true), false) => crate::pools::Value::Int(unsafe { *(v as *const c_int) }),
            // SAFETY: as above.
            (Some(false), false) => crate::pools::Value::U64(unsafe { *(v as *const u64) }),
        };
        if r.pools.set(pool as usize, a, value) {
            Ok(())
        } else {
            Err(err::INVALID_VALUE)
        }
    })
}

/// `cudaMemPoolGetAttribute`: reserved memory is the memory in use (none is kept in reserve).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMemPoolGetAttribute(pool: *mut c_void, a: c_int, v: *mut c_void) -> u32 {
    call("cudaMemPoolGetAttribute", |r| {
        match r.pools.get(pool as usize, a).ok_or(err::INVALID_VALUE)? {
            // SAFETY: the caller's out-pointer of the attribute's type.
            crate::pools::Value::Int(x) => unsafe { out(v as *mut c_int, x) },
            // SAFETY: as above.
            crate::pools::Value::U64(x) => unsafe { out(v as *mut u64, x) },
        }
    })
}

/// `cudaMemPoolSetAccess`: device 0 always has access to its pools.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemPoolSetAccess(pool: *mut c_void, _desc: *const c_void, _n: usize) -> u32 {
    call("cudaMemPoolSetAccess", |r| known_pool(r, pool))
}

/// `cudaFreeAsync`: freed at once (every earlier operation of the stream has run).
#[unsafe(no_mangle)]
pub extern "C" fn cudaFreeAsync(ptr: *mut c_void, s: *mut c_void) -> u32 {
    if rt().graphs.capturing(s as usize) {
        return unsupported("cudaFreeAsync in a stream capture");
    }
    cudaFree(ptr)
}

/// The set node of `cudaMemset3D`: every row of every slice, `extent.width` bytes of `value`.
fn set3d_node(p: &PitchedPtr, value: c_int, e: &Extent) -> Result<Node, u32> {
    if e.width > p.pitch {
        return Err(12); // cudaErrorInvalidPitchValue
    }
    let rows = e.height.max(1) * e.depth.max(1);
    // slices are `ysize` rows apart; with ysize == height the rows are evenly pitched
    if e.depth > 1 && p.ysize != e.height {
        return Err(err::INVALID_VALUE);
    }
    Ok(Node::Set {
        dst: p.ptr as u64,
        pitch: p.pitch,
        value: u32::from(value as u8),
        element: 1,
        width: e.width,
        height: rows,
    })
}

/// `cudaMemset3D`'s slices as set nodes: one node when the slices follow each other row for row
/// (`ysize` equal to the extent's height), else one a slice, `pitch * ysize` bytes apart (a box
/// inside a larger pitched volume).
fn set3d_slices(p: &PitchedPtr, value: c_int, e: &Extent) -> Result<Vec<Node>, u32> {
    if e.depth <= 1 || p.ysize == e.height {
        return Ok(vec![set3d_node(p, value, e)?]);
    }
    if e.height > p.ysize {
        return Err(err::INVALID_VALUE);
    }
    let slice = PitchedPtr {
        ysize: e.height,
        ..*p
    };
    let one = Extent { depth: 1, ..*e };
    (0..e.depth)
        .map(|z| {
            let at = PitchedPtr {
                ptr: (p.ptr as u64 + (z * p.pitch * p.ysize) as u64) as *mut c_void,
                ..slice
            };
            set3d_node(&at, value, &one)
        })
        .collect()
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset3D(p: PitchedPtr, value: c_int, e: Extent) -> u32 {
    call("cudaMemset3D", |r| {
        let mut rows = Vec::new();
        for n in set3d_slices(&p, value, &e)? {
            fill(r, &n)?;
            rows.extend(set_rows(&n));
        }
        // on the default stream, asynchronous to the host for device memory
        let key = StreamOrder::key(0, crate::streams::ptsz());
        r.issue_rows(
            &rows_what("cudaMemset3D", rows.len(), e.width),
            key,
            &rows,
            false,
            false,
        );
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemset3DAsync(p: PitchedPtr, value: c_int, e: Extent, s: *mut c_void) -> u32 {
    call("cudaMemset3DAsync", |r| {
        let n = set3d_node(&p, value, &e)?;
        match r.graphs.capture_or(s as usize, n) {
            Some(n) => {
                fill(r, &n)?;
                let rows = set_rows(&n);
                let key = StreamOrder::key(s as usize, crate::streams::ptsz());
                r.issue_rows(
                    &rows_what("cudaMemset3DAsync", rows.len(), e.width),
                    key,
                    &rows,
                    false,
                    false,
                );
                Ok(())
            }
            None => Ok(()),
        }
    })
}

// ------------------------------------------------------------------ CUDA arrays and textures

impl ChannelFormatDesc {
    /// (channels, bits per channel, format kind) of a layout warpscope samples: 1, 2 or 4
    /// channels of 8, 16 or 32 bits alike (floats of 16 or 32).
    fn texel(&self) -> Option<(u8, u8, i32)> {
        let bits = [self.x, self.y, self.z, self.w];
        let n = bits.iter().take_while(|&&b| b != 0).count();
        let b = bits[0];
        let ok = matches!(n, 1 | 2 | 4)
            && matches!(b, 8 | 16 | 32)
            && bits[..n].iter().all(|&x| x == b)
            && (0..=2).contains(&self.f)
            && !(self.f == 2 && b == 8);
        ok.then_some((n as u8, b as u8, self.f))
    }
}

/// `cudaMallocArray`: the texels live in the global space, row after row; the handle is their
/// address.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMallocArray(
    array: *mut *mut c_void,
    desc: *const ChannelFormatDesc,
    width: usize,
    height: usize,
    _flags: c_uint,
) -> u32 {
    // SAFETY: the caller's descriptor.
    let Some(d) = (unsafe { desc.as_ref() }).copied() else {
        return entry("cudaMallocArray", || Err(err::INVALID_VALUE));
    };
    let Some((channels, bits, kind)) = d.texel() else {
        return unsupported("cudaMallocArray of 3 channels or of mixed widths");
    };
    call("cudaMallocArray", |r| {
        let rows = height.max(1);
        let bytes = width
            .checked_mul(rows)
            .and_then(|n| n.checked_mul(usize::from(channels) * usize::from(bits / 8)))
            .filter(|&n| n > 0)
            .ok_or(err::INVALID_VALUE)?;
        let a = r.malloc(bytes)?;
        r.arrays.insert(a, (width, rows, channels, kind, bits, 1));
        // SAFETY: the caller's out-pointer.
        unsafe { out(array, a as usize as *mut c_void) }
    })
}

/// `cudaMalloc3DArray`: a 1-, 2- or 3-D array (height 0: one row; depth 0: one slice), its slices
/// following each other row for row in the global space; `cudaArraySurfaceLoadStore` (2) is
/// accepted, layered, cube-map, gather, sparse and deferred-mapping arrays are refused as not
/// supported; a depth without a height is `cudaErrorInvalidValue`, as the runtime documents.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaMalloc3DArray(
    array: *mut *mut c_void,
    desc: *const ChannelFormatDesc,
    e: Extent,
    flags: c_uint,
) -> u32 {
    // SAFETY: the caller's descriptor.
    let Some(d) = (unsafe { desc.as_ref() }).copied() else {
        return entry("cudaMalloc3DArray", || Err(err::INVALID_VALUE));
    };
    if flags & !2 != 0 {
        return unsupported(
            "cudaMalloc3DArray of a layered, cube-map, gather, sparse or deferred-mapping array",
        );
    }
    let Some((channels, bits, kind)) = d.texel() else {
        return unsupported("cudaMalloc3DArray of 3 channels or of mixed widths");
    };
    call("cudaMalloc3DArray", |r| {
        if e.width == 0 || (e.height == 0 && e.depth > 0) {
            return Err(err::INVALID_VALUE);
        }
        let (rows, slices) = (e.height.max(1), e.depth.max(1));
        let bytes = e
            .width
            .checked_mul(rows)
            .and_then(|n| n.checked_mul(slices))
            .and_then(|n| n.checked_mul(usize::from(channels) * usize::from(bits / 8)))
            .ok_or(err::INVALID_VALUE)?;
        let a = r.malloc(bytes)?;
        r.arrays.insert(a, (e.width, rows, channels, kind, bits, slices));
        // SAFETY: the caller's out-pointer.
        unsafe { out(array, a as usize as *mut c_void) }
    })
}

/// Array `a`'s layout for a 3-D copy (`None`: no such array).
fn array_shape(r: &Runtime, a: u64) -> Option<crate::graph::ArrayShape> {
    let &(w, h, ch, _, bits, d) = r.arrays.get(&a)?;
    let element = usize::from(ch) * usize::from(bits / 8);
    Some(crate::graph::ArrayShape {
        element,
        row: w * element,
        rows: h,
        slices: d,
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaFreeArray(array: *mut c_void) -> u32 {
    call("cudaFreeArray", |r| {
        let a = array as u64;
        if a == 0 {
            return Ok(());
        }
        r.arrays.remove(&a).ok_or(err::INVALID_VALUE)?;
        unmap(r.free(a)?);
        Ok(())
    })
}

/// Bytes per row of array `a`, and its rows.
fn array_rows(r: &Runtime, a: *mut c_void) -> Result<(usize, usize), u32> {
    let &(w, h, ch, _, bits, d) = r.arrays.get(&(a as u64)).ok_or(err::INVALID_VALUE)?;
    // a 3-D array's slices follow each other, row for row
    Ok((w * usize::from(ch) * usize::from(bits / 8), h * d))
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cudaMemcpy2DToArray(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpy2DToArray", |r| {
        let (row, rows) = array_rows(r, dst)?;
        if w_offset + width > row || h_offset + height > rows || width > spitch {
            return Err(err::INVALID_VALUE);
        }
        let base = dst as u64 + (h_offset * row + w_offset) as u64;
        copy2d(r, base, row, src as u64, spitch, width, height, kind)
    })
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cudaMemcpy2DToArrayAsync(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    _s: *mut c_void,
) -> u32 {
    cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind)
}

#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpy2DFromArray", |r| {
        let (row, rows) = array_rows(r, src)?;
        if w_offset + width > row || h_offset + height > rows || width > dpitch {
            return Err(err::INVALID_VALUE);
        }
        let base = src as u64 + (h_offset * row + w_offset) as u64;
        copy2d(r, dst as u64, dpitch, base, row, width, height, kind)
    })
}

/// `cudaMemcpyToArray` (deprecated, still exported): `count` bytes from the array position on,
/// rows wrapping.
#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyToArray(
    dst: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpyToArray", |r| {
        let (row, rows) = array_rows(r, dst)?;
        let start = h_offset * row + w_offset;
        if start + count > row * rows {
            return Err(err::INVALID_VALUE);
        }
        copy(r, dst as u64 + start as u64, src as u64, count, kind)
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaMemcpyFromArray(
    dst: *mut c_void,
    src: *mut c_void,
    w_offset: usize,
    h_offset: usize,
    count: usize,
    kind: c_int,
) -> u32 {
    call("cudaMemcpyFromArray", |r| {
        let (row, rows) = array_rows(r, src)?;
        let start = h_offset * row + w_offset;
        if start + count > row * rows {
            return Err(err::INVALID_VALUE);
        }
        copy(r, dst as u64, src as u64 + start as u64, count, kind)
    })
}

/// `struct cudaResourceDesc` (the union's largest member, `pitch2D`, spelled out).
#[repr(C)]
pub struct ResourceDesc {
    res_type: c_int,
    /// `array.array`, `linear.devPtr` or `pitch2D.devPtr`
    ptr: *mut c_void,
    desc: ChannelFormatDesc,
    /// `linear.sizeInBytes` or `pitch2D.width`
    size_or_width: usize,
    height: usize,
    pitch: usize,
}

/// `struct cudaTextureDesc` (the fields warpscope reads, then the rest).
#[repr(C)]
pub struct TextureDesc {
    address: [c_int; 3],
    filter: c_int,
    read_mode: c_int,
    srgb: c_int,
    border: [f32; 4],
    normalized: c_int,
    rest: [u32; 7],
}

/// The texture a resource and a sampling description make.
fn texture_of(
    r: &Runtime,
    res: &ResourceDesc,
    td: &TextureDesc,
) -> Result<warpscope_emu::tex::Texture, Result<&'static str, u32>> {
    use warpscope_emu::tex::{Address, Format, Texture};
    let (base, size, pitch, channels, kind, bits) = match res.res_type {
        // cudaResourceTypeArray
        0 => {
            let &(w, h, ch, kind, bits, d) =
                r.arrays.get(&(res.ptr as u64)).ok_or(Err(err::INVALID_VALUE))?;
            (
                res.ptr as u64,
                [w, h, d],
                w * usize::from(ch) * usize::from(bits / 8),
                ch,
                kind,
                bits,
            )
        }
        // cudaResourceTypeLinear, cudaResourceTypePitch2D
        2 | 3 => {
            let (ch, bits, kind) = res
                .desc
                .texel()
                .ok_or(Ok("cudaCreateTextureObject of 3 channels or of mixed widths"))?;
            let texel = usize::from(ch) * usize::from(bits / 8);
            if res.res_type == 2 {
                let w = res.size_or_width / texel;
                (res.ptr as u64, [w, 1, 1], w * texel, ch, kind, bits)
            } else {
                (
                    res.ptr as u64,
                    [res.size_or_width, res.height, 1],
                    res.pitch,
                    ch,
                    kind,
                    bits,
                )
            }
        }
        _ => return Err(Ok("cudaCreateTextureObject of a mipmapped array")),
    };
    if base == 0 || size[0] == 0 {
        return Err(Err(err::INVALID_VALUE));
    }
    let format = match kind {
        0 => Format::Signed,
        1 => Format::Unsigned,
        _ => Format::Float,
    };
    // cudaReadModeNormalizedFloat: 8- and 16-bit integers only
    let normalized_read = td.read_mode == 1 && format != Format::Float;
    if normalized_read && bits == 32 {
        return Err(Ok(
            "cudaCreateTextureObject reading 32-bit integers as normalised floats",
        ));
    }
    if td.filter == 1 && format != Format::Float && !normalized_read {
        return Err(Err(err::INVALID_VALUE));
    }
    if td.filter == 1 && (bits != 32 || normalized_read) {
        // the H100 filters them at a lower precision than float texels (textures8.cu)
        return Err(Ok(
            "cudaCreateTextureObject with linear filtering of 8- or 16-bit or half texels",
        ));
    }
    if td.filter == 1 && td.address.contains(&3) {
        return Err(Ok(
            "cudaCreateTextureObject with linear filtering and border addressing",
        ));
    }
    if td.srgb != 0 || td.border.iter().any(|&b| b != 0.0) {
        return Err(Ok(
            "cudaCreateTextureObject with sRGB or a non-zero border colour",
        ));
    }
    let mode = |m: c_int| match m {
        0 => Address::Wrap,
        2 => Address::Mirror,
        3 => Address::Border,
        _ => Address::Clamp,
    };
    Ok(Texture {
        base,
        pitch: pitch as u64,
        size: [size[0] as u32, size[1] as u32, size[2] as u32],
        channels,
        bits,
        format,
        normalized_read,
        address: td.address.map(mode),
        linear: td.filter == 1,
        normalized: td.normalized != 0,
    })
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCreateTextureObject(
    tex: *mut u64,
    res: *const ResourceDesc,
    td: *const TextureDesc,
    _view: *const c_void,
) -> u32 {
    // SAFETY: the caller's descriptors.
    let (Some(res), Some(td)) = (unsafe { res.as_ref() }, unsafe { td.as_ref() }) else {
        return entry("cudaCreateTextureObject", || Err(err::INVALID_VALUE));
    };
    let t = {
        let r = rt();
        texture_of(&r, res, td)
    };
    match t {
        Err(Ok(what)) => unsupported(what),
        Err(Err(code)) => entry("cudaCreateTextureObject", || Err(code)),
        Ok(t) => call("cudaCreateTextureObject", |r| {
            let h = r.handle() as u64;
            r.insert_texture(h, t);
            // SAFETY: the caller's out-pointer.
            unsafe { out(tex, h) }
        }),
    }
}

/// `cudaCreateSurfaceObject`: a CUDA array read and written with `surf1Dread`/`surf2Dwrite` (byte
/// columns); the handle names the array's layout as a texture object's does.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cudaCreateSurfaceObject(surf: *mut u64, res: *const ResourceDesc) -> u32 {
    // SAFETY: the caller's descriptor.
    let Some(res) = (unsafe { res.as_ref() }) else {
        return entry("cudaCreateSurfaceObject", || Err(err::INVALID_VALUE));
    };
    if res.res_type != 0 {
        return entry("cudaCreateSurfaceObject", || Err(err::INVALID_VALUE));
    }
    call("cudaCreateSurfaceObject", |r| {
        use warpscope_emu::tex::{Address, Format, Texture};
        let &(w, h, channels, kind, bits, d) = r.arrays.get(&(res.ptr as u64)).ok_or(err::INVALID_VALUE)?;
        let t = Texture {
            base: res.ptr as u64,
            pitch: (w * usize::from(channels) * usize::from(bits / 8)) as u64,
            size: [w as u32, h as u32, d as u32],
            channels,
            bits,
            format: match kind {
                0 => Format::Signed,
                1 => Format::Unsigned,
                _ => Format::Float,
            },
            normalized_read: false,
            address: [Address::Clamp; 3],
            linear: false,
            normalized: false,
        };
        let handle = r.handle() as u64;
        r.insert_texture(handle, t);
        // SAFETY: the caller's out-pointer.
        unsafe { out(surf, handle) }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDestroySurfaceObject(surf: u64) -> u32 {
    call("cudaDestroySurfaceObject", |r| {
        if surf == 0 || r.remove_texture(surf) {
            Ok(())
        } else {
            Err(err::INVALID_VALUE)
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn cudaDestroyTextureObject(tex: u64) -> u32 {
    call("cudaDestroyTextureObject", |r| {
        if tex == 0 || r.remove_texture(tex) {
            Ok(())
        } else {
            Err(err::INVALID_VALUE)
        }
    })
}

#[cfg(test)]
mod version_tests {
    #[test]
    fn the_runtime_version_is_the_headers() {
        let h = "#ifndef X\n#define CUDART_VERSION_MAJOR 13\n#define CUDART_VERSION  13050\n#endif\n";
        assert_eq!(super::cudart_version(h), Some(13050));
        assert_eq!(super::cudart_version("#define CUDART_VERSION\n"), None);
        assert_eq!(super::cudart_version(""), None);
    }
}

#[cfg(test)]
mod memset3d_tests {
    use super::*;

    /// A box of a larger pitched volume (`ysize` 48 rows a slice, the box 16 rows high): one set
    /// node a slice, `pitch * ysize` bytes apart, each `height` rows of `width` bytes. It was
    /// refused as an invalid value (the slices are not one run of evenly pitched rows).
    #[test]
    fn a_box_inside_a_taller_volume_sets_each_slice() {
        let base = 0x7000_0000u64;
        let p = PitchedPtr {
            ptr: base as *mut c_void,
            pitch: 512,
            xsize: 72,
            ysize: 48,
        };
        let e = Extent {
            width: 64,
            height: 16,
            depth: 8,
        };
        let nodes = set3d_slices(&p, 0, &e).unwrap();
        assert_eq!(nodes.len(), 8);
        for (z, n) in nodes.iter().enumerate() {
            let Node::Set {
                dst,
                pitch,
                width,
                height,
                ..
            } = *n
            else {
                panic!("not a set node");
            };
            assert_eq!(
                (dst, pitch, width, height),
                (base + z as u64 * 512 * 48, 512, 64, 16)
            );
        }
        // a volume whose slices follow each other: one node of every row
        let whole = PitchedPtr { ysize: 16, ..p };
        assert_eq!(set3d_slices(&whole, 0, &e).unwrap().len(), 1);
        // a box taller than a slice is refused
        let tall = Extent { height: 49, ..e };
        assert!(set3d_slices(&p, 0, &tall).is_err());
    }
}
