//! Device `printf`: each call a kernel made is formatted by the C library's `snprintf` (the CUDA
//! driver formats device output on the host too) and written to the program's `stdout` stream, at
//! the points where the CUDA runtime flushes its printf buffer: the start of a kernel launch,
//! device/stream/event synchronisation, blocking memory copies, `cudaDeviceReset`, and before a
//! stream callback or host function runs. Output never flushed (a program that exits without
//! synchronising) is not printed, as on a GPU; a note on stderr says so.

use std::ffi::{CString, c_char, c_int, c_void};

use warpscope_emu::printf::{Amount, Piece, Printed, PrintfArg, pieces};

unsafe extern "C" {
    /// The C library's `stdout` stream (glibc exports it as a variable).
    static mut stdout: *mut libc::FILE;
}

/// `snprintf` of one conversion with one argument.
fn one(spec: &[u8], arg: Arg) -> Vec<u8> {
    let Ok(fmt) = CString::new(spec) else {
        return spec.to_vec();
    };
    let mut buf = vec![0u8; 256];
    loop {
        // SAFETY: `buf` has `buf.len()` writable bytes; the format has exactly one conversion whose
        // type matches the argument passed (chosen below from the conversion character).
        let n = unsafe {
            let p = buf.as_mut_ptr() as *mut c_char;
            match &arg {
                Arg::I(v) => libc::snprintf(p, buf.len(), fmt.as_ptr(), *v),
                Arg::U(v) => libc::snprintf(p, buf.len(), fmt.as_ptr(), *v),
                Arg::C(v) => libc::snprintf(p, buf.len(), fmt.as_ptr(), *v),
                Arg::D(v) => libc::snprintf(p, buf.len(), fmt.as_ptr(), *v),
                Arg::S(s) => libc::snprintf(p, buf.len(), fmt.as_ptr(), s.as_ptr()),
                Arg::P(v) => libc::snprintf(p, buf.len(), fmt.as_ptr(), *v as *const c_void),
            }
        };
        if n < 0 {
            return Vec::new();
        }
        let n = n as usize;
        if n < buf.len() {
            buf.truncate(n);
            return buf;
        }
        buf = vec![0u8; n + 1];
    }
}

enum Arg {
    I(i64),
    U(u64),
    C(c_int),
    D(f64),
    S(CString),
    P(u64),
}

fn int_bits(a: Option<&PrintfArg>) -> (u64, u8) {
    match a {
        Some(PrintfArg::Int { bits, size }) => (*bits, *size),
        Some(PrintfArg::Ptr(p)) => (*p, 8),
        Some(PrintfArg::Float(f)) => (f.to_bits(), 8),
        _ => (0, 4),
    }
}

/// The text one `printf` call prints: the format read by `warpscope_emu::printf::pieces` (the reading
/// that laid the arguments out), each conversion handed to `snprintf` with its argument.
pub fn format(p: &Printed) -> Vec<u8> {
    let mut args = p.args.iter();
    let mut out = Vec::new();
    for piece in pieces(&p.format) {
        let s = match piece {
            Piece::Text(t) => {
                out.extend_from_slice(t);
                continue;
            }
            Piece::Percent => {
                out.push(b'%');
                continue;
            }
            Piece::Unfinished(t) => {
                out.extend_from_slice(t);
                break;
            }
            Piece::Conv(s) => s,
        };
        // `%`, the flags, the width and precision (a `*` replaced by its argument's value)
        let mut spec = vec![b'%'];
        spec.extend_from_slice(s.flags);
        match s.width {
            Amount::Star => {
                let (bits, _) = int_bits(args.next());
                spec.extend((bits as u32 as i32).to_string().bytes());
            }
            Amount::Digits(d) => spec.extend_from_slice(d),
        }
        match s.precision {
            None => {}
            Some(Amount::Digits(d)) => {
                spec.push(b'.');
                spec.extend_from_slice(d);
            }
            Some(Amount::Star) => {
                // a negative `*` precision is taken as if it were omitted (C11 7.21.6.1)
                let (bits, _) = int_bits(args.next());
                let prec = bits as u32 as i32;
                if prec >= 0 {
                    spec.push(b'.');
                    spec.extend(prec.to_string().bytes());
                }
            }
        }
        let len = s.length;
        let c = s.conv;
        let conv = |spec: &[u8], ll: bool, c: u8| {
            let mut s = spec.to_vec();
            if ll {
                s.extend_from_slice(b"ll");
            }
            s.push(c);
            s
        };
        match c {
            b'd' | b'i' => {
                let (bits, size) = int_bits(args.next());
                let v = match (size, len) {
                    (_, b"hh") => bits as u8 as i8 as i64,
                    (_, b"h") => bits as u16 as i16 as i64,
                    (4, _) => bits as u32 as i32 as i64,
                    _ => bits as i64,
                };
                out.extend(one(&conv(&spec, true, c), Arg::I(v)));
            }
            b'u' | b'o' | b'x' | b'X' => {
                let (bits, size) = int_bits(args.next());
                let v = match (size, len) {
                    (_, b"hh") => bits as u8 as u64,
                    (_, b"h") => bits as u16 as u64,
                    (4, _) => bits as u32 as u64,
                    _ => bits,
                };
                out.extend(one(&conv(&spec, true, c), Arg::U(v)));
            }
            b'c' => {
                let (bits, _) = int_bits(args.next());
                out.extend(one(&conv(&spec, false, c), Arg::C(bits as u32 as c_int)));
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
                let v = match args.next() {
                    Some(PrintfArg::Float(v)) => *v,
                    Some(PrintfArg::Int { bits, .. }) => f64::from_bits(*bits),
                    _ => 0.0,
                };
                out.extend(one(&conv(&spec, false, c), Arg::D(v)));
            }
            b's' => {
                let s = match args.next() {
                    Some(PrintfArg::Str(Some(b))) => {
                        CString::new(b.iter().copied().filter(|&x| x != 0).collect::<Vec<u8>>())
                            .unwrap_or_default()
                    }
                    _ => CString::new("(null)").expect("no NUL"),
                };
                out.extend(one(&conv(&spec, false, c), Arg::S(s)));
            }
            b'p' => {
                let (bits, _) = int_bits(args.next());
                out.extend(one(&conv(&spec, false, c), Arg::P(bits)));
            }
            b'n' => {
                args.next();
            }
            _ => out.extend_from_slice(s.text),
        }
    }
    out
}

/// Writes device output to the program's `stdout` stream (in order with its own `printf`s).
pub fn write_stdout(bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: `stdout` is the C library's stream, valid for the life of the process; `fwrite`
    // reads `bytes.len()` bytes from a valid slice.
    unsafe {
        let s = stdout;
        if !s.is_null() {
            libc::fwrite(bytes.as_ptr() as *const c_void, 1, bytes.len(), s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str, args: Vec<PrintfArg>) -> String {
        String::from_utf8(super::format(&Printed {
            block: 0,
            thread: 0,
            seq: 0,
            format: text.as_bytes().to_vec(),
            args,
            format_addr: 0,
            str_addrs: Vec::new(),
        }))
        .unwrap()
    }

    #[test]
    fn formats_like_the_c_library() {
        let i = |v: i64| PrintfArg::Int {
            bits: v as u64 & 0xffff_ffff,
            size: 4,
        };
        assert_eq!(p("plain %% text\n", vec![]), "plain % text\n");
        assert_eq!(
            p("%d|%5d|%-4d|%x|%#X", vec![i(-7), i(42), i(3), i(255), i(255)]),
            "-7|   42|3   |ff|0XFF"
        );
        assert_eq!(p("%u", vec![i(-1)]), "4294967295");
        assert_eq!(
            p(
                "%lld %lu",
                vec![
                    PrintfArg::Int {
                        bits: (-5i64) as u64,
                        size: 8
                    },
                    PrintfArg::Int {
                        bits: u64::MAX,
                        size: 8
                    }
                ]
            ),
            "-5 18446744073709551615"
        );
        assert_eq!(
            p(
                "%f %.3e %g",
                vec![
                    PrintfArg::Float(1.5),
                    PrintfArg::Float(2.25),
                    PrintfArg::Float(0.0001)
                ]
            ),
            "1.500000 2.250e+00 0.0001"
        );
        assert_eq!(
            p(
                "[%s] [%5s] %c",
                vec![PrintfArg::Str(Some(b"str".to_vec())), PrintfArg::Str(None), i(65)]
            ),
            "[str] [(null)] A"
        );
        assert_eq!(
            p("%*d|%.*f", vec![i(4), i(9), i(2), PrintfArg::Float(1.23456)]),
            "   9|1.23"
        );
        assert_eq!(p("%hhd %hd", vec![i(0x1ff), i(0x18000)]), "-1 -32768");
        // an unknown conversion is printed as written; a specification cut off by the end too
        assert_eq!(p("%d %y %d|%5", vec![i(1), i(2)]), "1 %y 2|%5");
        // a negative `*` precision is as if none were given
        assert_eq!(p("[%.*f]", vec![i(-3), PrintfArg::Float(0.5)]), "[0.500000]");
    }
}
