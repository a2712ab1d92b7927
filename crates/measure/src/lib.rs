//! warpscope-measure: predictions judged by a GPU. The domain side of `warpscope calibrate`,
//! `analyze --measure`, `run --measure` and `warpscope lab`, usable and testable without the
//! command line; the GPU itself is reached through `warpscope_gpu`, the emulator through
//! `warpscope_driver`.
//!
//! * [`basis`]: whether a preset's rules are measured, assumed or documented, as outputs show it.
//! * [`calibrate`]: the calibration batteries' tables (read, written, paired with ncu's launches)
//!   and the verdicts of the model's rules on them.
//! * [`launch`]: `analyze --measure`: one launch on the GPU, counters predicted beside measured,
//!   buffers bit for bit; a recorded measurement replayed with no GPU.
//! * [`program`]: `run --measure`: a whole program's launches paired with ncu's by launch ID, each
//!   counter with its claim (`exact`, `estimate`, `floor`), and its output beside the GPU's.
//! * [`predict`]: warpscope's predictions for `warpscope lab` (the lab's `Predictor`).
//!
//! Invariant: nothing here renders for people or knows the command line; errors are a typed
//! [`Error`].
#![deny(missing_docs)]

pub mod basis;
pub mod calibrate;
mod error;
pub mod launch;
pub mod predict;
pub mod program;

pub use error::{Error, Result};
