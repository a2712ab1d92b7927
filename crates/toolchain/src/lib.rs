//! warpscope-toolchain: finds a CUDA toolkit (or the PyPI wheels) and runs its programs (ptxas, nvcc,
//! nvdisasm, cuobjdump), parsing what they print.
//!
//! * [`locate`]: where the CUDA root is (`WARPSCOPE_CUDA_ROOT`, `CUDA_HOME`, `CUDA_PATH`, `ptxas` on
//!   `PATH`, `/usr/local/cuda`, pip wheels under a Python's `site-packages/nvidia/cu13`).
//! * [`resources`]: a kernel's registers, shared memory, spills, barriers and constant memory from
//!   ptxas's resource report, for the occupancy calculator.
//! * [`sass`]: the shared-memory instructions (widths, addresses, source lines) of `nvdisasm` output.
//! * [`cache`]: the on-disk cache of what the tools print, keyed by a hash of the tool and its input.
//!
//! Invariant: this crate only runs programs and reads what they print; it never loads CUDA libraries
//! and needs no GPU.
#![deny(missing_docs)]

pub mod cache;
pub mod locate;
pub mod resources;
pub mod sass;
