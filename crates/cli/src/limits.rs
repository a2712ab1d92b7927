//! Limits of the `bank --trace` reader: the trace file and one line of it. The limits of launch
//! inputs (file sizes, buffer arguments, the grid, the work of one request) are the driver's
//! (`warpscope_driver::limits`), so that every command that emulates a kernel has them.
//!
//! | what | limit |
//! |---|---|
//! | a `--trace` JSON Lines input, and one line of it | [`MAX_TRACE_BYTES`], [`MAX_TRACE_LINE_BYTES`] |

use anyhow::{Context, bail};
use warpscope_driver::limits::mib;

/// Largest `--trace` file (4 GiB, about 20 million requests); it is streamed line by line.
pub const MAX_TRACE_BYTES: u64 = 4 << 30;
/// Longest line of a `--trace` file (a request with 32 lanes is under 1 KiB).
pub const MAX_TRACE_LINE_BYTES: u64 = 64 << 10;

/// Checks a `--trace` file's size before it is streamed (`-`, standard input, is not checked here;
/// its lines are, with [`check_trace_line`]).
pub fn check_trace_file(path: &str) -> anyhow::Result<()> {
    if path == "-" {
        return Ok(());
    }
    let meta = std::fs::metadata(path).with_context(|| format!("{path}: cannot open"))?;
    if meta.is_file() && meta.len() > MAX_TRACE_BYTES {
        bail!(
            "{path}: {} bytes, over the {} limit for a --trace file",
            meta.len(),
            mib(MAX_TRACE_BYTES)
        );
    }
    Ok(())
}

/// An error for a `--trace` line longer than [`MAX_TRACE_LINE_BYTES`] (`line` counts from 1).
pub fn check_trace_line(len: usize, line: usize) -> anyhow::Result<()> {
    if len as u64 > MAX_TRACE_LINE_BYTES {
        bail!(
            "line {line}: {len} bytes, over the {} limit for one --trace line",
            mib(MAX_TRACE_LINE_BYTES)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_lines() {
        assert!(check_trace_line(1000, 1).is_ok());
        let e = check_trace_line(1 << 20, 7).unwrap_err().to_string();
        assert!(e.starts_with("line 7:"), "{e}");
    }
}
