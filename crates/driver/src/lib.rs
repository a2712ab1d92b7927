//! warpscope's driver: the one path from what the user has to results.
//!
//! Every front end (the `analyze`, `check`, `fix`, `report` and `tour` commands, the lab's
//! predictor, and callers that emulate whole programs) goes through this crate, so a feature of the
//! pipeline lands once for all of them:
//!
//! * [`input`]: a `.cu` (NVRTC, or nvcc, with `-I`, `-D`, `-std=` and pass-through options), a
//!   `.ptx`, or a binary carrying PTX (`cuobjdump -ptx`) becomes a lowered program;
//! * [`kernel`]: the kernel by plain name, C++ name with template arguments, signature or mangled
//!   name, candidates listed demangled;
//! * [`args`]: launch arguments, structs by value (`struct:i32:64,f32:2.0`) and raw bytes included,
//!   checked against the kernel's parameters;
//! * [`machine`]: the machine code and the reconciliation of access widths, ptxas's resources;
//! * [`run`]: **one** emulation with every requested analysis attached ([`Sections`]), producing
//!   one [`Results`]; [`analyze_launch`] is its entry point for an already-lowered program;
//! * [`group`]: hazard findings grouped for people;
//! * [`fault`]: the emulator's faults in sentences (access, line, thread, argument).
//!
//! [`request`] is the file-based layer over [`analyze_launch`]: [`analyze`] takes a [`Request`].
//!
//! Invariants: the emulator runs once per request, whatever the sections; the driver does not
//! render (commands do) and does not depend on a command-line parser or `anyhow` (errors are
//! [`Error`]s whose [`ErrorKind`] tells bad input from a missing tool).

#![deny(missing_docs)]

pub mod args;
pub mod devgrids;
mod error;
pub mod fault;
pub mod group;
pub mod input;
pub mod kernel;
pub mod limits;
pub mod locate;
pub mod machine;
mod pool;
pub mod request;
pub mod run;
pub mod tensormap_arg;

pub use error::{Error, ErrorKind, Result};
pub use input::{CompileOptions, InputKind, Module};
pub use machine::{Resources, Widths, WidthsFrom};
pub use request::{Analyzed, FixRequest, Prepared, Request, analyze, prepare};
pub use run::{
    FixOptions, GlobalCounts, Results, RunOptions, Sections, analyze_launch, analyze_launch_in, yield_loops,
};
