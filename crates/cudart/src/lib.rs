//! warpscope-cudart: a CUDA runtime for the emulator. Built as a `cdylib`, it is a drop-in
//! `libcudart.so.13`: a program built with `nvcc -cudart shared` runs with it in place of
//! NVIDIA's (what `warpscope run` sets up), its kernels emulated by `warpscope_emu` against the
//! program's own memory, each launch analysed (shared-memory wavefronts, branches, global
//! requests and sectors, occupancy; hazards with `--check`) and recorded for the parent process.
//!
//! Layers: `fatbin` reads what nvcc embeds; `runtime` owns the state (modules, memory, streams,
//! events, errors) in safe Rust; `analysis` is the one function that emulates and analyses a
//! launch; `api` and `unsupported` are the C entry points (no panic crosses them).
//!
//! Invariants: the user's program never crashes because of the runtime (panics are caught at
//! every entry point; unsupported calls print `warpscope: NAME is not supported yet` and return
//! `cudaErrorNotSupported`); a kernel's out-of-bounds access is a finding and a sticky
//! `cudaErrorIllegalAddress`, as on a GPU.
#![deny(missing_docs)]

pub mod analysis;
pub mod api;
pub mod device;
pub mod devlaunch;
pub mod devtree;
pub mod driver_entry;
pub mod err_codes;
pub mod errors;
pub mod fatbin;
pub mod graph;
pub mod launch;
pub mod layout;
pub mod line_pictures;
pub mod names;
pub mod pools;
pub mod printf;
pub mod program;
pub mod progress;
pub mod ptsz;
pub mod records;
pub mod relfatbin;
pub mod runtime;
pub mod streams;
pub mod tma_metrics;
pub mod unsupported;

pub use analysis::{Finding, LaunchAnalysis};
pub use runtime::{Config, LaunchRecord, Notice};

/// The environment variable holding the runtime's [`Config`] as JSON.
pub const CONFIG_ENV: &str = "WARPSCOPE_RUN_CONFIG";
