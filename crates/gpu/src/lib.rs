//! GPU access for warpscope: the CUDA driver and NVRTC, both loaded at run time through cudarc.
//!
//! This is the only crate of the workspace with `unsafe` CUDA calls. It builds with no CUDA on the
//! machine; when the driver, a GPU or NVRTC is absent at run time, every entry point returns a typed
//! [`Error`] instead of panicking (cudarc itself panics when a library is missing, so each entry point
//! probes for the library first).
//!
//! * [`nvrtc`]: find `libnvrtc` (flag, `CUDA_HOME`, `LD_LIBRARY_PATH`, `WARPSCOPE_CUDA_ROOT`, Python
//!   wheels), preload it, and compile CUDA C++ to PTX and CUBIN with the compile log.
//! * [`device`]: device properties of every GPU ([`device::DeviceInfo`]) and the per-SM limits the
//!   occupancy calculator needs ([`device::device_limits`]).
//! * [`measure`]: one launch of given PTX/CUBIN with given argument bytes, buffers read back, and
//!   its counters from a child run under Nsight Compute (`analyze --measure`).
//! * [`calibrate`]: the calibration harnesses (bank battery, latency chases) on the present GPU.
//! * [`lab`]: the GPU experiments of `warpscope lab` (timing, verification against CPU references,
//!   Nsight Compute counters, predictions beside measurements).
//!
//! Invariant: nothing here depends on the emulator; predictions come in through the
//! [`lab::Predictor`] trait, which `warpscope-measure` implements (`predict::LabPredictor`).
//!
//! ```no_run
//! let devices = warpscope_gpu::device::query_all()?;
//! for d in &devices {
//!     println!("{}: {} SMs, CC {}.{}", d.name, d.multiprocessors, d.cc_major, d.cc_minor);
//! }
//! # Ok::<(), warpscope_gpu::Error>(())
//! ```
#![deny(missing_docs)]

pub mod calibrate;
pub mod device;
mod error;
pub mod lab;
pub mod measure;
pub mod nvrtc;

pub use error::{Error, Result};

/// Checks that the CUDA driver library can be loaded, without panicking.
pub fn driver_present() -> bool {
    // SAFETY: `is_culib_present` only tries `dlopen` on the candidate names and closes them.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Returns [`Error::NoDriver`] unless the driver library loads and reports at least one device.
pub fn ensure_driver() -> Result<usize> {
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    let n = match cudarc::driver::CudaContext::device_count() {
        Ok(n) => n,
        Err(e) if e.0 == cudarc::driver::sys::cudaError_enum::CUDA_ERROR_NO_DEVICE => {
            return Err(Error::NoDevice);
        }
        Err(e) => return Err(Error::driver("cuInit/cuDeviceGetCount", e)),
    };
    if n <= 0 {
        return Err(Error::NoDevice);
    }
    Ok(n as usize)
}
