//! Device `printf` (PTX `vprintf(format, args)`): which arguments a format string reads from the
//! argument buffer, and what a launch printed.
//!
//! The buffer holds the arguments in order, each aligned to its size: integers of `int` size or
//! smaller (`%d`, `%c`, `%hhx`, a `*` width) take 4 bytes, `long`/`long long`/`size_t` ones 8,
//! floating-point values are promoted to `double` (8), `%s` and `%p` take a 64-bit generic address.
//! Formatting itself is the host's `printf` (the CUDA driver formats on the host too); this module
//! only reads the device's side.

/// What one conversion takes from the argument buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A 4-byte integer (`int` and smaller, promoted; `*` widths and precisions).
    Int4,
    /// An 8-byte integer (`l`, `ll`, `j`, `z`, `t`, `q`).
    Int8,
    /// A `double` (every floating-point conversion).
    Double,
    /// `%s`: a generic address of a NUL-terminated string.
    Str,
    /// `%p` (and `%n`, which is not written): a 64-bit address.
    Ptr,
}

impl ArgKind {
    /// Bytes it takes (and its alignment) in the buffer.
    pub fn size(self) -> u64 {
        match self {
            ArgKind::Int4 => 4,
            _ => 8,
        }
    }
}

/// One argument as the device passed it.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintfArg {
    /// An integer's bits (`size` 4 or 8 bytes).
    Int {
        /// The value's bits, zero-extended.
        bits: u64,
        /// 4 or 8.
        size: u8,
    },
    /// A floating-point value.
    Float(f64),
    /// `%s`: the string's bytes without the NUL, `None` when the address is null or unreadable.
    Str(Option<Vec<u8>>),
    /// `%p`: the address.
    Ptr(u64),
}

/// One `printf` executed by one thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    /// Linear block id.
    pub block: u32,
    /// Linear thread id in the block.
    pub thread: u32,
    /// How many `printf` calls the thread's warp executed before this one.
    pub seq: u32,
    /// The format string's bytes (without the NUL).
    pub format: Vec<u8>,
    /// Its arguments, in order.
    pub args: Vec<PrintfArg>,
}

/// The arguments `format` reads, in order. Parsing stops at a conversion it does not know (as the
/// C library's behaviour is undefined there).
pub fn layout(format: &[u8]) -> Vec<ArgKind> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if format.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while i < format.len() && b"-+ #0'".contains(&format[i]) {
            i += 1;
        }
        if format.get(i) == Some(&b'*') {
            out.push(ArgKind::Int4);
            i += 1;
        }
        while i < format.len() && format[i].is_ascii_digit() {
            i += 1;
        }
        if format.get(i) == Some(&b'.') {
            i += 1;
            if format.get(i) == Some(&b'*') {
                out.push(ArgKind::Int4);
                i += 1;
            }
            while i < format.len() && format[i].is_ascii_digit() {
                i += 1;
            }
        }
        let mut long = false;
        while i < format.len() && b"hlLqjzt".contains(&format[i]) {
            long |= matches!(format[i], b'l' | b'q' | b'j' | b'z' | b't' | b'L');
            i += 1;
        }
        let Some(&c) = format.get(i) else { break };
        i += 1;
        out.push(match c {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => {
                if long {
                    ArgKind::Int8
                } else {
                    ArgKind::Int4
                }
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => ArgKind::Double,
            b's' => ArgKind::Str,
            b'p' | b'n' => ArgKind::Ptr,
            _ => break,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_of_common_formats() {
        use ArgKind::*;
        assert_eq!(layout(b"no args\n"), vec![]);
        assert_eq!(layout(b"100%% done %d"), vec![Int4]);
        assert_eq!(
            layout(b"%d %5.2f %s %c %#x %lld %lu %p %hhd %zu"),
            vec![Int4, Double, Str, Int4, Int4, Int8, Int8, Ptr, Int4, Int8]
        );
        assert_eq!(layout(b"%*.*e|%-08.3g"), vec![Int4, Int4, Double, Double]);
        // an unknown conversion ends the list
        assert_eq!(layout(b"%d %y %d"), vec![Int4]);
    }
}
