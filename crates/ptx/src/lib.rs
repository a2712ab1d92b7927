//! warpscope-ptx: the PTX front end. It owns three steps:
//!
//! 1. [`lex`]: a logos lexer (opcodes with modifiers are one identifier token);
//! 2. [`parse()`]: a hand-written recursive-descent parser producing a [`Module`] plus every
//!    [`Diagnostic`] (line, column, offending text); DWARF `.section`s of `-G` output are skipped;
//! 3. [`lower()`]: lowering to a [`Program`]: registers resolved to dense row indices, immediates and
//!    symbol addresses turned into pre-initialised rows, labels to pcs, device functions inlined,
//!    per-pc [`InstInfo`] (PTX line, text, `.loc`), each kernel's shared-memory layout, and the
//!    immediate post-dominator of every branch (for SIMT reconvergence).
//!
//! Invariants: the parser does no I/O beyond the text it is given and never panics (problems are
//! diagnostics); lowering never produces a silently wrong program: an instruction it does not model
//! is a [`LowerError`] naming the instruction and its line. Lowering is per kernel: such an error
//! removes only the kernels that reach the instruction ([`Program::failed`], [`Program::kernel_error`]).
//!
//! ```
//! let src = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";
//! let (module, diags) = warpscope_ptx::parse(src);
//! assert!(diags.is_empty());
//! let program = warpscope_ptx::lower(&module).unwrap();
//! assert_eq!(program.kernels[0].name, "k");
//! ```
#![deny(missing_docs)]

pub mod inst;
pub mod lex;
pub mod link;
pub mod lower;
pub mod parse;

pub use inst::{Inst, Op};
pub use lower::{CallSite, InstInfo, Kernel, KernelFailure, LowerError, Program, SharedVar, SrcLoc, lower};
pub use parse::{Diagnostic, Module, Pos, parse};

/// Parses and lowers in one step; parse diagnostics and lowering errors are returned as strings
/// `line:col: message (at `text`)`.
pub fn compile(src: &str) -> Result<Program, Vec<String>> {
    let (m, d) = parse(src);
    if !d.is_empty() {
        return Err(d.iter().map(|d| d.to_string()).collect());
    }
    lower(&m).map_err(|e| e.iter().map(|e| e.to_string()).collect())
}
