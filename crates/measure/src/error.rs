//! The crate's error: malformed input (a table, a recorded measurement) or measurements that do not
//! fit what was launched, with the whole message; or an error of the driver or the GPU, kept as it
//! is so the caller can tell a missing tool from bad input.

use std::fmt;

/// What went wrong.
#[derive(Debug)]
pub enum Error {
    /// Bad input or measurements that do not fit; the message names the file and line where there
    /// is one.
    Input(String),
    /// Reading a file within the driver's limits failed.
    Driver(warpscope_driver::Error),
    /// The GPU side failed (no driver, no GPU, ncu missing or failing...).
    Gpu(warpscope_gpu::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) => f.write_str(m),
            Error::Driver(e) => e.fmt(f),
            Error::Gpu(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<warpscope_driver::Error> for Error {
    fn from(e: warpscope_driver::Error) -> Self {
        Error::Driver(e)
    }
}

impl From<warpscope_gpu::Error> for Error {
    fn from(e: warpscope_gpu::Error) -> Self {
        Error::Gpu(e)
    }
}

/// The crate's result.
pub type Result<T> = std::result::Result<T, Error>;

/// Adds what was being done to an error, as `what: cause` (an absent value gives `what` alone).
pub(crate) trait Context<T> {
    /// The error as `what(): cause`.
    fn with_context<F: FnOnce() -> String>(self, what: F) -> Result<T>;
    /// The error as `what: cause`.
    fn context(self, what: &str) -> Result<T>;
}

impl<T, E: fmt::Display> Context<T> for std::result::Result<T, E> {
    fn with_context<F: FnOnce() -> String>(self, what: F) -> Result<T> {
        self.map_err(|e| Error::Input(format!("{}: {e}", what())))
    }
    fn context(self, what: &str) -> Result<T> {
        self.map_err(|e| Error::Input(format!("{what}: {e}")))
    }
}

impl<T> Context<T> for Option<T> {
    fn with_context<F: FnOnce() -> String>(self, what: F) -> Result<T> {
        self.ok_or_else(|| Error::Input(what()))
    }
    fn context(self, what: &str) -> Result<T> {
        self.ok_or_else(|| Error::Input(what.to_string()))
    }
}

/// Returns an [`Error::Input`] with the formatted message.
macro_rules! bail {
    ($($t:tt)*) => {
        return Err($crate::error::Error::Input(format!($($t)*)))
    };
}
pub(crate) use bail;
