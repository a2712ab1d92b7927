//! Kernel arguments as people write them (`--arg`): the scalar and buffer forms of
//! `warpscope_analysis::launchspec` (`u32:V`, `f32:V`, `buf:BYTES`, `buf:BYTES:zero`, `buf:@FILE`,
//! ...), plus structs passed by value, `struct:i32:64,i32:64,f32:2.0` (fields in order, laid out as C
//! lays them out: each field at its natural alignment, the size rounded up to the largest one), and
//! raw parameter bytes, `bytes:HEX`. [`check`] holds the arguments against the kernel's parameters
//! (count, and size for by-value bytes) so a mismatch is an error that names the parameter.
//!
//! ```
//! use warpscope_driver::args::parse_arg;
//! use warpscope_emu::Arg;
//! // int, int, float: 12 bytes, little-endian.
//! let Arg::Bytes(b) = parse_arg("struct:i32:64,i32:64,f32:2.0", 0).unwrap() else { panic!() };
//! assert_eq!(b.len(), 12);
//! // char then double: the double sits at offset 8, the struct takes 16 bytes.
//! let Arg::Bytes(b) = parse_arg("struct:u8:1,f64:0.5", 0).unwrap() else { panic!() };
//! assert_eq!(b.len(), 16);
//! assert_eq!(parse_arg("bytes:0a0b", 0).unwrap(), Arg::Bytes(vec![10, 11]));
//! ```

use warpscope_emu::{Arg, Kernel};

use crate::error::{Error, Result};

fn bad(text: &str, reason: impl std::fmt::Display) -> Error {
    Error::input(format!("--arg `{text}`: {reason}"))
}

/// One field of a `struct:` argument: its bytes (little-endian) and alignment.
fn field(text: &str, spec: &str) -> Result<Vec<u8>> {
    let (ty, value) = spec
        .split_once(':')
        .ok_or_else(|| bad(text, format!("field `{spec}`: expected TYPE:VALUE")))?;
    let v = value.trim();
    let int = |lo: i128, hi: i128| -> Result<i128> {
        let parsed = match v.strip_prefix("0x") {
            Some(h) => i128::from_str_radix(h, 16),
            None => v.parse::<i128>(),
        };
        let n = parsed.map_err(|_| bad(text, format!("field `{spec}`: `{v}` is not an integer")))?;
        if n < lo || n > hi {
            return Err(bad(text, format!("field `{spec}`: {n} is out of range for {ty}")));
        }
        Ok(n)
    };
    let float = || -> Result<f64> {
        v.parse::<f64>()
            .map_err(|_| bad(text, format!("field `{spec}`: `{v}` is not a number")))
    };
    Ok(match ty {
        "i8" => (int(i8::MIN.into(), i8::MAX.into())? as i8)
            .to_le_bytes()
            .to_vec(),
        "u8" => (int(0, u8::MAX.into())? as u8).to_le_bytes().to_vec(),
        "i16" => (int(i16::MIN.into(), i16::MAX.into())? as i16)
            .to_le_bytes()
            .to_vec(),
        "u16" => (int(0, u16::MAX.into())? as u16).to_le_bytes().to_vec(),
        "i32" => (int(i32::MIN.into(), i32::MAX.into())? as i32)
            .to_le_bytes()
            .to_vec(),
        "u32" => (int(0, u32::MAX.into())? as u32).to_le_bytes().to_vec(),
        "i64" => (int(i64::MIN.into(), i64::MAX.into())? as i64)
            .to_le_bytes()
            .to_vec(),
        "u64" => (int(0, u64::MAX.into())? as u64).to_le_bytes().to_vec(),
        "f32" => (float()? as f32).to_le_bytes().to_vec(),
        "f64" => float()?.to_le_bytes().to_vec(),
        _ => {
            return Err(bad(
                text,
                format!("field `{spec}`: unknown type `{ty}` (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)"),
            ));
        }
    })
}

/// The bytes of `struct:F1,F2,...` in C layout: each field at a multiple of its size, the whole
/// rounded up to the largest field's alignment.
pub fn struct_bytes(text: &str, fields: &str) -> Result<Vec<u8>> {
    if fields.trim().is_empty() {
        return Err(bad(text, "a struct needs at least one field (TYPE:VALUE,...)"));
    }
    let mut out: Vec<u8> = Vec::new();
    let mut align = 1;
    for spec in fields.split(',') {
        let f = field(text, spec.trim())?;
        let a = f.len();
        align = align.max(a);
        out.resize(out.len().next_multiple_of(a), 0);
        out.extend_from_slice(&f);
    }
    out.resize(out.len().next_multiple_of(align), 0);
    Ok(out)
}

/// The bytes of `bytes:HEX` (pairs of hex digits; `0x`, `_` and spaces are allowed and ignored).
pub fn hex_bytes(text: &str, hex: &str) -> Result<Vec<u8>> {
    let digits: Vec<u8> = hex
        .trim()
        .trim_start_matches("0x")
        .bytes()
        .filter(|b| *b != b'_' && !b.is_ascii_whitespace())
        .collect();
    if digits.is_empty() || !digits.len().is_multiple_of(2) {
        return Err(bad(text, "expected an even number of hex digits (two per byte)"));
    }
    digits
        .chunks(2)
        .map(|p| {
            let s = std::str::from_utf8(p).unwrap_or("??");
            u8::from_str_radix(s, 16).map_err(|_| bad(text, format!("`{s}` is not a hex byte")))
        })
        .collect()
}

/// Parses one `--arg` (`index`: its position, which seeds `buf:BYTES`).
pub fn parse_arg(text: &str, index: usize) -> Result<Arg> {
    if let Some(fields) = text.strip_prefix("struct:") {
        return struct_bytes(text, fields).map(Arg::Bytes);
    }
    if let Some(hex) = text.strip_prefix("bytes:") {
        return hex_bytes(text, hex).map(Arg::Bytes);
    }
    warpscope_analysis::launchspec::parse_arg(text, index)
        .map_err(|e| Error::input(format!("--arg {e} (struct:T:V,... and bytes:HEX also work)")))
}

/// Parses every `--arg`, in order.
pub fn parse_args<S: AsRef<str>>(specs: &[S]) -> Result<Vec<Arg>> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| parse_arg(s.as_ref(), i))
        .collect()
}

/// The bytes an argument takes in the parameter buffer (`None` for buffers: a pointer, 8 bytes).
fn by_value_size(a: &Arg) -> Option<usize> {
    match a {
        Arg::Buffer(_) => None,
        Arg::U32(_) | Arg::I32(_) | Arg::F32(_) => Some(4),
        Arg::U64(_) | Arg::I64(_) | Arg::F64(_) => Some(8),
        Arg::Bytes(b) => Some(b.len()),
    }
}

/// Holds `args` against `kernel`'s parameters: as many as it takes, and by-value bytes (structs)
/// exactly the parameter's size. `shown` names the kernel in errors.
pub fn check(kernel: &Kernel, shown: &str, args: &[Arg]) -> Result<()> {
    let params: Vec<String> = kernel
        .params
        .iter()
        .map(|p| format!("{} ({} bytes)", p.name, p.size))
        .collect();
    if args.len() != kernel.params.len() {
        return Err(Error::input(format!(
            "kernel `{shown}` takes {} argument(s), {} given with --arg: {}",
            kernel.params.len(),
            args.len(),
            params.join(", ")
        )));
    }
    for (i, (a, p)) in args.iter().zip(&kernel.params).enumerate() {
        if let Arg::Bytes(b) = a
            && b.len() != p.size as usize
        {
            return Err(Error::input(format!(
                "--arg {i}: {} bytes given for parameter {} of `{shown}`, which takes {} bytes \
                 (a struct's fields are laid out in order, each at its natural alignment)",
                b.len(),
                p.name,
                p.size
            )));
        }
        if let Some(n) = by_value_size(a)
            && !matches!(a, Arg::Bytes(_))
            && (p.size as usize) < n
        {
            return Err(Error::input(format!(
                "--arg {i}: a {n}-byte value for parameter {} of `{shown}`, which takes {} bytes",
                p.name, p.size
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_layout_is_c_layout() {
        let Arg::Bytes(b) = parse_arg("struct:i32:64,i32:64,f32:2.0", 0).unwrap() else {
            panic!()
        };
        let mut want = Vec::new();
        want.extend(64i32.to_le_bytes());
        want.extend(64i32.to_le_bytes());
        want.extend(2.0f32.to_le_bytes());
        assert_eq!(b, want);
        // u8, then i32 at 4, then u16 at 8, size rounded to 12.
        let Arg::Bytes(b) = parse_arg("struct:u8:7,i32:-1,u16:0x102", 0).unwrap() else {
            panic!()
        };
        assert_eq!(b, vec![7, 0, 0, 0, 255, 255, 255, 255, 2, 1, 0, 0]);
        let Arg::Bytes(b) = parse_arg("struct:f64:1.0,u8:1", 0).unwrap() else {
            panic!()
        };
        assert_eq!(b.len(), 16);
    }

    #[test]
    fn errors_name_the_field() {
        let e = parse_arg("struct:i32:1,q8:2", 0).unwrap_err().to_string();
        assert!(e.contains("unknown type `q8`"), "{e}");
        let e = parse_arg("struct:u8:300", 0).unwrap_err().to_string();
        assert!(e.contains("300 is out of range for u8"), "{e}");
        let e = parse_arg("struct:", 0).unwrap_err().to_string();
        assert!(e.contains("at least one field"), "{e}");
        let e = parse_arg("bytes:abc", 0).unwrap_err().to_string();
        assert!(e.contains("even number"), "{e}");
        let e = parse_arg("bytes:zz", 0).unwrap_err().to_string();
        assert!(e.contains("`zz` is not a hex byte"), "{e}");
        assert_eq!(
            parse_arg("bytes:0x01_02 03", 0).unwrap(),
            Arg::Bytes(vec![1, 2, 3])
        );
        assert_eq!(parse_arg("u32:5", 0).unwrap(), Arg::U32(5));
    }
}
