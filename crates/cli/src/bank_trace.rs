//! `warpscope bank --trace`: the trace file (or standard input) through
//! `warpscope_analysis::bank_trace`, within the limits of `limits.rs`, to standard output.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use warpscope_analysis::bank_trace::{self as trace, TRACE_BLOCK_BYTES, TraceError};
use warpscope_model::arch::BankMode;
use warpscope_model::bank::{Config, Op};

/// The bank mode of `--bank-mode`: 4 or 8 bytes.
pub fn bank_mode(bytes: u8) -> anyhow::Result<BankMode> {
    trace::bank_mode(bytes).map_err(anyhow::Error::msg)
}

/// A request's op: `load`/`ld` or `store`/`st`.
pub fn parse_op(text: &str) -> anyhow::Result<Op> {
    trace::parse_op(text).map_err(anyhow::Error::msg)
}

/// Models the trace of `path` (`-`: standard input) onto standard output; exit status 2 when some
/// line could not be read (each has its `error` line).
pub fn run_trace(path: &str, base: Config) -> anyhow::Result<ExitCode> {
    crate::limits::check_trace_file(path)?;
    let input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).with_context(|| format!("{path}: cannot open"))?)
    };
    let batch_bytes = TRACE_BLOCK_BYTES * 4 * rayon::current_num_threads().max(1);
    let (lines, bad) = trace::trace_stream(
        input,
        std::io::stdout().lock(),
        base,
        batch_bytes,
        crate::limits::MAX_TRACE_LINE_BYTES,
    )
    .map_err(|e| match e {
        TraceError::Read(e) => anyhow::Error::new(e).context(format!("{path}: read error")),
        TraceError::Write(e) => anyhow::Error::new(e),
        TraceError::LineTooLong { line, len, .. } => match crate::limits::check_trace_line(len, line) {
            Err(e) => e.context(path.to_string()),
            Ok(()) => anyhow::anyhow!("{path}: line {line}: {len} bytes, too long"),
        },
    })?;
    if bad > 0 {
        eprintln!("warpscope: {path}: {bad} of {lines} line(s) could not be read; see their \"error\" lines");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}
