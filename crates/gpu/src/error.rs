//! The crate's error type.

use std::path::PathBuf;

/// Errors of the GPU crate. [`Error::is_unavailable`] tells "this machine lacks something" apart
/// from failures of a run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No CUDA driver library (`libcuda.so`) could be loaded.
    #[error(
        "no CUDA driver found (libcuda.so could not be loaded): this command needs an NVIDIA GPU and its driver"
    )]
    NoDriver,
    /// The driver loaded but reports no device, or cuInit failed for lack of one.
    #[error("the CUDA driver reports no GPU on this machine")]
    NoDevice,
    /// The requested device ordinal does not exist.
    #[error("device {ordinal} does not exist: this machine has {count} GPU(s) (ordinals 0..{count})")]
    BadOrdinal {
        /// The ordinal asked for.
        ordinal: usize,
        /// How many devices there are.
        count: usize,
    },
    /// NVRTC could not be found or loaded.
    #[error("{}", no_nvrtc(searched, verbose()))]
    NoNvrtc {
        /// The places looked at, in order.
        searched: Vec<PathBuf>,
    },
    /// An explicitly named NVRTC library failed to load.
    #[error("cannot load NVRTC from {path}: {reason}")]
    NvrtcLoad {
        /// The file.
        path: PathBuf,
        /// The loader's message.
        reason: String,
    },
    /// NVRTC rejected a program; `log` is its compile log.
    #[error("NVRTC failed to compile {name} ({options}):\n{log}")]
    Compile {
        /// The program's name.
        name: String,
        /// The options, space-separated.
        options: String,
        /// The compile log.
        log: String,
    },
    /// Another NVRTC call failed.
    #[error("NVRTC call {call} failed: {reason}")]
    Nvrtc {
        /// The call.
        call: &'static str,
        /// The error.
        reason: String,
    },
    /// A CUDA driver call failed.
    #[error("CUDA driver call {call} failed: {source}")]
    Driver {
        /// The call (or what it was doing).
        call: String,
        /// The driver's error.
        source: cudarc::driver::DriverError,
    },
    /// A kernel's output did not match the CPU reference.
    #[error("{experiment}: {what}: output differs from the CPU reference: {detail}")]
    Verify {
        /// The experiment.
        experiment: String,
        /// The kernel or variant.
        what: String,
        /// First mismatch, counts.
        detail: String,
    },
    /// Nsight Compute output could not be used.
    #[error("ncu: {0}")]
    Ncu(String),
    /// File output failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Bad input (an unknown experiment name, ...).
    #[error("{0}")]
    Input(String),
}

impl Error {
    /// Wraps a driver error with the call that produced it.
    pub fn driver(call: impl Into<String>, source: cudarc::driver::DriverError) -> Self {
        Error::Driver {
            call: call.into(),
            source,
        }
    }

    /// True when the error means this machine lacks a GPU, driver or library (exit status 1).
    pub fn is_unavailable(&self) -> bool {
        match self {
            Error::NoDriver | Error::NoDevice | Error::NoNvrtc { .. } | Error::NvrtcLoad { .. } => true,
            Error::Driver { source, .. } => matches!(
                source.0,
                cudarc::driver::sys::cudaError_enum::CUDA_ERROR_NO_DEVICE
                    | cudarc::driver::sys::cudaError_enum::CUDA_ERROR_STUB_LIBRARY
                    | cudarc::driver::sys::cudaError_enum::CUDA_ERROR_NOT_INITIALIZED
            ),
            _ => false,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Adds the call name to a driver result.
pub(crate) trait DriverCtx<T> {
    fn ctx(self, call: &str) -> Result<T>;
}

impl<T> DriverCtx<T> for std::result::Result<T, cudarc::driver::DriverError> {
    fn ctx(self, call: &str) -> Result<T> {
        self.map_err(|e| Error::driver(call, e))
    }
}

/// The [`Error::NoNvrtc`] message: one sentence and its fix; the places searched only when
/// `WARPSCOPE_VERBOSE` is set (`--verbose`).
pub(crate) fn no_nvrtc(searched: &[PathBuf], verbose: bool) -> String {
    let mut s = String::from(
        "NVRTC (libnvrtc.so) not found: run `warpscope setup` to install it, or pass --nvrtc PATH",
    );
    if verbose {
        s.push_str("; searched:");
        for p in searched {
            s.push_str(&format!("\n  {}", p.display()));
        }
    }
    s
}

fn verbose() -> bool {
    std::env::var_os("WARPSCOPE_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0")
}
