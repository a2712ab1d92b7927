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
            if err.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
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
