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
    /// The format string's (generic) address.
    pub format_addr: u64,
    /// The (generic) address of each `%s` argument, in order.
    pub str_addrs: Vec<u64>,
}

/// A width or precision of a conversion specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount<'a> {
    /// `*`: taken from the arguments (a 4-byte `int`).
    Star,
    /// Written in the format (possibly no digits).
    Digits(&'a [u8]),
}

/// One conversion specification, `%[flags][width][.precision][length]conversion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec<'a> {
    /// Flags (`-`, `+`, space, `#`, `0`, `'`).
    pub flags: &'a [u8],
    /// The width.
    pub width: Amount<'a>,
    /// The precision, when a `.` gives one.
    pub precision: Option<Amount<'a>>,
    /// Length modifiers (`hh`, `h`, `l`, `ll`, `L`, `q`, `j`, `z`, `t`).
    pub length: &'a [u8],
    /// The conversion character (known or not: the caller decides).
    pub conv: u8,
    /// The whole specification as written, from its `%`.
    pub text: &'a [u8],
}

impl Spec<'_> {
    /// A length modifier that makes an integer conversion take 8 bytes.
    pub fn long(&self) -> bool {
        self.length
            .iter()
            .any(|c| matches!(c, b'l' | b'q' | b'j' | b'z' | b't' | b'L'))
    }
}

/// A piece of a format string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text printed as it is.
    Text(&'a [u8]),
    /// `%%`.
    Percent,
    /// A conversion.
    Conv(Spec<'a>),
    /// A `%` whose specification the string ends inside of (its text).
    Unfinished(&'a [u8]),
}

/// A format string's pieces, in order: the one reading of the format that both the argument layout
/// ([`layout`]) and the host's formatting use.
pub fn pieces(format: &[u8]) -> Vec<Piece<'_>> {
    let f = format;
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            let start = i;
            while i < f.len() && f[i] != b'%' {
                i += 1;
            }
            out.push(Piece::Text(&f[start..i]));
            continue;
        }
        let start = i;
        i += 1;
        if f.get(i) == Some(&b'%') {
            out.push(Piece::Percent);
            i += 1;
            continue;
        }
        let run = |i: &mut usize, set: &dyn Fn(u8) -> bool| {
            let s = *i;
            while *i < f.len() && set(f[*i]) {
                *i += 1;
            }
            &f[s..*i]
        };
        let flags = run(&mut i, &|c| b"-+ #0'".contains(&c));
        let width = if f.get(i) == Some(&b'*') {
            i += 1;
            Amount::Star
        } else {
            Amount::Digits(run(&mut i, &|c| c.is_ascii_digit()))
        };
        let precision = if f.get(i) == Some(&b'.') {
            i += 1;
            Some(if f.get(i) == Some(&b'*') {
                i += 1;
                Amount::Star
            } else {
                Amount::Digits(run(&mut i, &|c| c.is_ascii_digit()))
            })
        } else {
            None
        };
        let length = run(&mut i, &|c| b"hlLqjzt".contains(&c));
        let Some(&conv) = f.get(i) else {
            out.push(Piece::Unfinished(&f[start..]));
            break;
        };
        i += 1;
        out.push(Piece::Conv(Spec {
            flags,
            width,
            precision,
            length,
            conv,
            text: &f[start..i],
        }));
    }
    out
}

/// The arguments `format` reads, in order. Parsing stops at a conversion it does not know (as the
/// C library's behaviour is undefined there).
pub fn layout(format: &[u8]) -> Vec<ArgKind> {
    let mut out = Vec::new();
    for piece in pieces(format) {
        let spec = match piece {
            Piece::Conv(s) => s,
            Piece::Unfinished(_) => break,
            Piece::Text(_) | Piece::Percent => continue,
        };
        if spec.width == Amount::Star {
            out.push(ArgKind::Int4);
        }
        if spec.precision == Some(Amount::Star) {
            out.push(ArgKind::Int4);
        }
        out.push(match spec.conv {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => {
                if spec.long() {
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
        assert_eq!(layout(b"%d %"), vec![Int4]);
    }

    #[test]
    fn pieces_of_a_format() {
        let p = pieces(b"a %-*.3ld%%b%");
        assert_eq!(p.len(), 5);
        assert_eq!(p[0], Piece::Text(b"a "));
        let Piece::Conv(s) = p[1] else { panic!("{p:?}") };
        assert_eq!(
            (s.flags, s.width, s.precision, s.length, s.conv, s.text),
            (
                &b"-"[..],
                Amount::Star,
                Some(Amount::Digits(b"3")),
                &b"l"[..],
                b'd',
                &b"%-*.3ld"[..]
            )
        );
        assert!(s.long());
        assert_eq!(p[2], Piece::Percent);
        assert_eq!(p[3], Piece::Text(b"b"));
        assert_eq!(p[4], Piece::Unfinished(b"%"));
    }
}
