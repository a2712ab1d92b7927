//! Device `printf`: each call a kernel made is formatted by the C library's `snprintf` (the CUDA
//! driver formats device output on the host too) and written to the program's `stdout` stream, at
//! the points where the CUDA runtime flushes its printf buffer: the start of a kernel launch,
//! device/stream/event synchronisation, blocking memory copies, `cudaDeviceReset`, and before a
//! stream callback or host function runs. Output never flushed (a program that exits without
//! synchronising) is not printed, as on a GPU; a note on stderr says so.

use std::ffi::{CString, c_char, c_int, c_void};

use warpscope_emu::printf::{Printed, PrintfArg};

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

/// The text one `printf` call prints.
pub fn format(p: &Printed) -> Vec<u8> {
    let f = &p.format;
    let mut args = p.args.iter();
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if f.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut spec = vec![b'%'];
        while i < f.len() && b"-+ #0'".contains(&f[i]) {
            spec.push(f[i]);
            i += 1;
        }
        if f.get(i) == Some(&b'*') {
            let (bits, _) = int_bits(args.next());
            spec.extend((bits as u32 as i32).to_string().bytes());
            i += 1;
        }
        while i < f.len() && f[i].is_ascii_digit() {
            spec.push(f[i]);
            i += 1;
        }
        if f.get(i) == Some(&b'.') {
            spec.push(b'.');
            i += 1;
            if f.get(i) == Some(&b'*') {
                let (bits, _) = int_bits(args.next());
                spec.extend((bits as u32 as i32).max(0).to_string().bytes());
                i += 1;
            }
            while i < f.len() && f[i].is_ascii_digit() {
                spec.push(f[i]);
                i += 1;
            }
        }
        let mut len = Vec::new();
        while i < f.len() && b"hlLqjzt".contains(&f[i]) {
            len.push(f[i]);
            i += 1;
        }
        let Some(&c) = f.get(i) else {
            out.extend_from_slice(&f[start..]);
            break;
        };
        i += 1;
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
                let v = match (size, len.as_slice()) {
                    (_, b"hh") => bits as u8 as i8 as i64,
                    (_, b"h") => bits as u16 as i16 as i64,
                    (4, _) => bits as u32 as i32 as i64,
                    _ => bits as i64,
                };
                out.extend(one(&conv(&spec, true, c), Arg::I(v)));
            }
            b'u' | b'o' | b'x' | b'X' => {
                let (bits, size) = int_bits(args.next());
                let v = match (size, len.as_slice()) {
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
            _ => {
                out.extend_from_slice(&f[start..i]);
            }
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
    }
}
