//! Exit statuses and how errors become them.
//!
//! Commands return `anyhow::Result<ExitCode>`. An error is printed as `warpscope: <chain>` on stderr.
//! Its status is 1 when the root cause is [`Unavailable`] (no GPU, no driver, a missing tool), and 2
//! otherwise (bad input). A broken pipe on stdout ends quietly with status 0.

use std::fmt;
use std::process::ExitCode;

/// Something the command needs is not on this machine (GPU, driver, NVRTC, ncu...). Exit status 1.
#[derive(Debug)]
pub struct Unavailable(pub String);

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unavailable {}

/// Status 1: the command ran but found what fails the run (for example an error-severity finding).
pub const FINDINGS: u8 = 1;

/// Turns a command's result into the process exit status, printing any error.
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("warpscope: {err:#}");
            if err.chain().any(|c| c.downcast_ref::<Unavailable>().is_some()) {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// Whether `err` comes from writing to a closed pipe (`warpscope ... | head`): the reader has what
/// it wanted, so the command ends quietly, as ripgrep and the like do. serde_json's error hides the
/// `io::Error` it wraps from the chain (its `source` skips it), so it is asked for the kind itself.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        let kind = c
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| {
                c.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind, Write};

    /// A writer whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(Error::from(ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn broken_pipes_are_recognised_through_serde_json_and_context() {
        let json = serde_json::to_writer(Closed, &[1, 2, 3]).unwrap_err();
        assert!(is_broken_pipe(&anyhow::Error::new(json)));
        let io = anyhow::Error::new(Error::from(ErrorKind::BrokenPipe)).context("writing");
        assert!(is_broken_pipe(&io));
        let other = anyhow::Error::new(Error::from(ErrorKind::NotFound));
        assert!(!is_broken_pipe(&other));
        assert!(!is_broken_pipe(&anyhow::anyhow!("Broken pipe")));
    }
}
