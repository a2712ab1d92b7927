//! The driver's one error type: what went wrong, in words that name the file, line or flag, and
//! whether the input was at fault or the machine lacks a tool.

use std::fmt;

/// Why a request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is wrong: an unreadable or malformed file, an unknown kernel, a bad `--arg`.
    Input,
    /// Something the request needs is not on this machine (NVRTC, nvcc, cuobjdump).
    Unavailable,
    /// The emulator refused the launch (a limit, a parameter mismatch).
    Emulation,
}

/// An error of the driver: its kind and a message that says where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The message (file, line and reason where there are some).
    pub message: String,
}

impl Error {
    /// A bad-input error.
    pub fn input(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Input,
            message: message.into(),
        }
    }

    /// A missing-tool error.
    pub fn unavailable(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Unavailable,
            message: message.into(),
        }
    }

    /// An emulation error.
    pub fn emulation(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Emulation,
            message: message.into(),
        }
    }

    /// The same error with `context: ` in front of its message.
    pub fn context(self, context: impl fmt::Display) -> Error {
        Error {
            kind: self.kind,
            message: format!("{context}: {}", self.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<warpscope_emu::EmuError> for Error {
    fn from(e: warpscope_emu::EmuError) -> Error {
        Error::emulation(e.to_string())
    }
}

/// The driver's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
