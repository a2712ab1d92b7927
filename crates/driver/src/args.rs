//! Kernel arguments as people write them (`--arg`): the scalar and buffer forms of
//! `warpscope_analysis::launchspec` (`u32:V`, `f32:V`, `buf:BYTES`, `buf:BYTES:zero`, `buf:@FILE`,
//! ...), plus structs passed by value, `struct:i32:64,i32:64,f32:2.0` (fields in order, laid out as C
//! lays them out: each field at its alignment, the size rounded up to the largest one; arrays
//! `f32[3]:1,2,3`, CUDA vector types `float4:1,2,3,4` with `vector_types.h`'s alignment, nested
//! structs `{u8:1,f64:2.5}`), and raw parameter bytes, `bytes:HEX`. [`check`] holds the arguments against the kernel's parameters
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
//! // int at 0, float[3] at 4, {char, double} at 16 (size 16), float4 at 32 (16-aligned): 48 bytes.
//! let Arg::Bytes(b) = parse_arg("struct:i32:3,f32[3]:1,2,3,{u8:1,f64:2.5},float4:1,2,3,4", 0).unwrap()
//! else { panic!() };
//! assert_eq!(b.len(), 48);
//! assert_eq!(parse_arg("bytes:0a0b", 0).unwrap(), Arg::Bytes(vec![10, 11]));
//! ```

use warpscope_emu::{Arg, Kernel};
use warpscope_ptx::inst::{Rnd, Ty};

use crate::error::{Error, Result};

fn bad(text: &str, reason: impl std::fmt::Display) -> Error {
    Error::input(format!("--arg `{text}`: {reason}"))
}

/// A scalar field type: its name and size (its alignment is its size).
const SCALARS: [(&str, usize); 13] = [
    ("i8", 1),
    ("u8", 1),
    ("bool", 1),
    ("i16", 2),
    ("u16", 2),
    ("f16", 2),
    ("bf16", 2),
    ("i32", 4),
    ("u32", 4),
    ("i64", 8),
    ("u64", 8),
    ("f32", 4),
    ("f64", 8),
];

/// CUDA's vector types (`vector_types.h`): name, component type, components, alignment. `long`
/// is 64-bit (Linux).
const VECTORS: &[(&str, &str, usize, usize)] = &[
    ("char1", "i8", 1, 1),
    ("char2", "i8", 2, 2),
    ("char3", "i8", 3, 1),
    ("char4", "i8", 4, 4),
    ("uchar1", "u8", 1, 1),
    ("uchar2", "u8", 2, 2),
    ("uchar3", "u8", 3, 1),
    ("uchar4", "u8", 4, 4),
    ("short1", "i16", 1, 2),
    ("short2", "i16", 2, 4),
    ("short3", "i16", 3, 2),
    ("short4", "i16", 4, 8),
    ("ushort1", "u16", 1, 2),
    ("ushort2", "u16", 2, 4),
    ("ushort3", "u16", 3, 2),
    ("ushort4", "u16", 4, 8),
    ("int1", "i32", 1, 4),
    ("int2", "i32", 2, 8),
    ("int3", "i32", 3, 4),
    ("int4", "i32", 4, 16),
    ("uint1", "u32", 1, 4),
    ("uint2", "u32", 2, 8),
    ("uint3", "u32", 3, 4),
    ("uint4", "u32", 4, 16),
    ("float1", "f32", 1, 4),
    ("float2", "f32", 2, 8),
    ("float3", "f32", 3, 4),
    ("float4", "f32", 4, 16),
    ("long1", "i64", 1, 8),
    ("long2", "i64", 2, 16),
    ("long3", "i64", 3, 8),
    ("long4", "i64", 4, 16),
    ("long4_16a", "i64", 4, 16),
    ("long4_32a", "i64", 4, 32),
    ("ulong1", "u64", 1, 8),
    ("ulong2", "u64", 2, 16),
    ("ulong3", "u64", 3, 8),
    ("ulong4", "u64", 4, 16),
    ("ulong4_16a", "u64", 4, 16),
    ("ulong4_32a", "u64", 4, 32),
    ("longlong1", "i64", 1, 8),
    ("longlong2", "i64", 2, 16),
    ("longlong3", "i64", 3, 8),
    ("longlong4", "i64", 4, 16),
    ("longlong4_16a", "i64", 4, 16),
    ("longlong4_32a", "i64", 4, 32),
    ("ulonglong1", "u64", 1, 8),
    ("ulonglong2", "u64", 2, 16),
    ("ulonglong3", "u64", 3, 8),
    ("ulonglong4", "u64", 4, 16),
    ("ulonglong4_16a", "u64", 4, 16),
    ("ulonglong4_32a", "u64", 4, 32),
    ("double1", "f64", 1, 8),
    ("double2", "f64", 2, 16),
    ("double3", "f64", 3, 8),
    ("double4", "f64", 4, 16),
    ("double4_16a", "f64", 4, 16),
    ("double4_32a", "f64", 4, 32),
];

/// A field that points to a buffer (`ptr=buf:BYTES`): where its 8 bytes are in the struct, the
/// buffer's spec, and the field's path (`2`, `3.1`, `4[1].2`).
#[derive(Clone, Debug, PartialEq)]
pub struct PtrField {
    /// Byte offset of the pointer in the struct.
    pub offset: usize,
    /// The `buf:` spec of the buffer it points to.
    pub spec: String,
    /// The field's path: its number, nested ones after a `.`, array elements in `[]`.
    pub path: String,
}

/// One leaf field of a struct argument: its path, its bytes, and the text that gave it (for
/// errors naming the field that does not fit the parameter).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSpan {
    /// The field's path, as in [`PtrField::path`].
    pub path: String,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The field as written.
    pub text: String,
}

/// Bytes laid out so far and their alignment, with the pointer fields and the leaf fields in them.
#[derive(Clone)]
struct Layout {
    bytes: Vec<u8>,
    align: usize,
    ptrs: Vec<PtrField>,
    /// `tensormap(...)` fields: their offset, their keys (`;`-separated) and path.
    maps: Vec<PtrField>,
    spans: Vec<FieldSpan>,
}

impl Layout {
    fn new() -> Layout {
        Layout {
            bytes: Vec::new(),
            align: 1,
            ptrs: Vec::new(),
            maps: Vec::new(),
            spans: Vec::new(),
        }
    }

    /// Places `f` at the next multiple of its alignment.
    fn push(&mut self, f: &Layout) {
        self.align = self.align.max(f.align);
        self.bytes.resize(self.bytes.len().next_multiple_of(f.align), 0);
        let at = self.bytes.len();
        self.bytes.extend_from_slice(&f.bytes);
        self.ptrs.extend(f.ptrs.iter().map(|p| PtrField {
            offset: p.offset + at,
            ..p.clone()
        }));
        self.maps.extend(f.maps.iter().map(|p| PtrField {
            offset: p.offset + at,
            ..p.clone()
        }));
        self.spans.extend(f.spans.iter().map(|p| FieldSpan {
            start: p.start + at,
            end: p.end + at,
            ..p.clone()
        }));
    }

    /// Rounds the size up to the alignment (C's trailing padding).
    fn finish(mut self) -> Layout {
        self.bytes
            .resize(self.bytes.len().next_multiple_of(self.align), 0);
        self
    }
}

/// The reader of a `struct:` field list: the whole argument (for errors) and a cursor.
struct Fields<'a> {
    text: &'a str,
    /// Where the field list starts in `text` (for columns).
    base: usize,
    s: &'a str,
    pos: usize,
    /// Where the field being read starts in `s`.
    start: usize,
}

impl Fields<'_> {
    fn fail(&self, field: &str, reason: impl std::fmt::Display) -> Error {
        bad(
            self.text,
            format!("field {field} (column {}): {reason}", self.base + self.start + 1),
        )
    }

    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Text up to the next `,`, `}` or the end.
    fn token(&mut self) -> &str {
        self.skip_spaces();
        let rest = &self.s[self.pos..];
        let n = rest.find([',', '}']).unwrap_or(rest.len());
        self.pos += n;
        rest[..n].trim()
    }

    /// A type name: letters, digits, `_`.
    fn name(&mut self) -> &str {
        self.skip_spaces();
        let rest = &self.s[self.pos..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        self.pos += n;
        &rest[..n]
    }

    /// `FIELD,FIELD,...` up to a `}` or the end; `path` numbers nested fields (`4.2`).
    fn list(&mut self, path: &str) -> Result<Layout> {
        let mut out = Layout::new();
        let mut n = 0;
        loop {
            n += 1;
            let here = if path.is_empty() {
                n.to_string()
            } else {
                format!("{path}.{n}")
            };
            let f = self.field(&here)?;
            out.push(&f);
            if !self.eat(',') {
                break;
            }
        }
        Ok(out.finish())
    }

    /// `{FIELDS}` (and `{FIELDS}[N]`), `TYPE:V`, `TYPE[N]:V1,...,VN`, `VECTOR:X,Y,...` (and
    /// `VECTOR[N]:...`) or `ptr=buf:...`.
    fn field(&mut self, path: &str) -> Result<Layout> {
        let mut out = self.field_bytes(path)?;
        if out.spans.is_empty() {
            let text = self.s[self.start..self.pos].trim().to_string();
            out.spans.push(FieldSpan {
                path: path.to_string(),
                start: 0,
                end: out.bytes.len(),
                text,
            });
        }
        Ok(out)
    }

    fn field_bytes(&mut self, path: &str) -> Result<Layout> {
        self.skip_spaces();
        self.start = self.pos;
        if self.eat('{') {
            let inner = self.list(path)?;
            self.start = self.pos;
            if !self.eat('}') {
                return Err(self.fail(path, "expected `}` to close the nested struct"));
            }
            if !self.eat('[') {
                return Ok(inner);
            }
            // `{FIELDS}[N]`: N copies, each pointer field with a buffer of its own
            let n = self.name().to_string();
            let count = n
                .parse::<usize>()
                .ok()
                .filter(|&c| c > 0 && c <= 1 << 16)
                .ok_or_else(|| {
                    self.fail(
                        path,
                        format!("`{{...}}[{n}]`: the count must be a whole number from 1"),
                    )
                })?;
            if !self.eat(']') {
                return Err(self.fail(path, format!("`{{...}}[{n}`: expected `]`")));
            }
            let inner = inner.finish();
            let mut out = Layout::new();
            for j in 0..count {
                let mut copy = inner.clone();
                let rename = |p: &str| match p.strip_prefix(path) {
                    Some(rest) => format!("{path}[{j}]{rest}"),
                    None => p.to_string(),
                };
                for f in copy.ptrs.iter_mut().chain(copy.maps.iter_mut()) {
                    f.path = rename(&f.path);
                }
                for f in &mut copy.spans {
                    f.path = rename(&f.path);
                }
                out.push(&copy);
            }
            return Ok(out);
        }
        let ty = self.name().to_string();
        if ty == "ptr" && self.eat('=') {
            let spec = self.token().to_string();
            if !spec.starts_with("buf:") {
                return Err(self.fail(
                    path,
                    format!("`ptr={spec}`: a pointer field takes a buffer, `ptr=buf:BYTES`, `ptr=buf:BYTES:zero` or `ptr=buf:@FILE`"),
                ));
            }
            // the spec is checked here; the buffer is made when the launch's arguments are
            if let Err(e) = warpscope_analysis::launchspec::parse_arg(&spec, 0) {
                return Err(self.fail(path, format!("`ptr={spec}`: {e}")));
            }
            return Ok(Layout {
                bytes: vec![0; 8],
                align: 8,
                ptrs: vec![PtrField {
                    offset: 0,
                    spec,
                    path: path.to_string(),
                }],
                maps: Vec::new(),
                spans: Vec::new(),
            });
        }
        if ty == "tensormap" && self.eat('(') {
            // `tensormap(KEY=V;KEY=V;...)`: a CUtensorMap (128 bytes, 64-aligned) made when the
            // launch's buffers are placed
            let rest = &self.s[self.pos..];
            let Some(n) = rest.find(')') else {
                return Err(self.fail(path, "`tensormap(`: expected `)` after its keys"));
            };
            let body = rest[..n].to_string();
            self.pos += n + 1;
            return Ok(Layout {
                bytes: vec![0; 128],
                align: 64,
                ptrs: Vec::new(),
                maps: vec![PtrField {
                    offset: 0,
                    spec: body,
                    path: path.to_string(),
                }],
                spans: Vec::new(),
            });
        }
        let ty = if ty == "ptr" { "u64".to_string() } else { ty };
        if ty.is_empty() {
            return Err(self.fail(
                path,
                "expected a field (TYPE:VALUE, TYPE[N]:V,..., VECTOR:X,Y,.. or {FIELDS})",
            ));
        }
        let (scalar, per, align) = if let Some((_, size)) = SCALARS.iter().find(|(n, _)| *n == ty) {
            (ty.clone(), 1, *size)
        } else if let Some((_, c, k, a)) = VECTORS.iter().find(|(n, ..)| *n == ty) {
            (c.to_string(), *k, *a)
        } else {
            return Err(self.fail(
                path,
                format!(
                    "unknown type `{ty}` (i8 u8 bool i16 u16 f16 bf16 i32 u32 i64 u64 f32 f64, CUDA vector types such as \
                     float4 int2 uchar3 double2, ptr=buf:BYTES for a pointer to a buffer, ptr:ADDRESS, or \
                     {{FIELDS}} for a nested struct)"
                ),
            ));
        };
        let mut count = 1;
        let shown = if self.eat('[') {
            let n = self.name().to_string();
            count = n
                .parse::<usize>()
                .ok()
                .filter(|&c| c > 0 && c <= 1 << 20)
                .ok_or_else(|| {
                    self.fail(
                        path,
                        format!("`{ty}[{n}]`: the length must be a whole number from 1"),
                    )
                })?;
            if !self.eat(']') {
                return Err(self.fail(path, format!("`{ty}[{n}`: expected `]`")));
            }
            format!("{ty}[{count}]")
        } else {
            ty.clone()
        };
        if !self.eat(':') {
            return Err(self.fail(path, format!("`{shown}`: expected `:` and the value(s)")));
        }
        let want = count * per;
        let mut bytes = Vec::new();
        for i in 0..want {
            if i > 0 && !self.eat(',') {
                return Err(self.fail(path, format!("`{shown}` takes {want} values, {i} given")));
            }
            let v = self.token().to_string();
            if v.is_empty() {
                return Err(self.fail(path, format!("`{shown}` takes {want} values, {i} given")));
            }
            bytes.extend(self.scalar(path, &shown, &scalar, &v)?);
        }
        Ok(Layout {
            bytes,
            align,
            ptrs: Vec::new(),
            maps: Vec::new(),
            spans: Vec::new(),
        })
    }

    /// One value of a scalar type, little-endian.
    fn scalar(&self, path: &str, shown: &str, ty: &str, v: &str) -> Result<Vec<u8>> {
        let int = |lo: i128, hi: i128| -> Result<i128> {
            let (neg, digits) = match v.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, v),
            };
            let parsed = match digits.strip_prefix("0x") {
                Some(h) => i128::from_str_radix(h, 16),
                None => digits.parse::<i128>(),
            };
            let n = parsed
                .map(|n| if neg { -n } else { n })
                .map_err(|_| self.fail(path, format!("`{shown}`: `{v}` is not an integer")))?;
            if n < lo || n > hi {
                return Err(self.fail(path, format!("`{shown}`: {n} is out of range for {ty}")));
            }
            Ok(n)
        };
        let float = || -> Result<f64> {
            v.parse::<f64>()
                .map_err(|_| self.fail(path, format!("`{shown}`: `{v}` is not a number")))
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
            "bool" => match v {
                "0" | "false" => vec![0],
                "1" | "true" => vec![1],
                _ => return Err(self.fail(path, format!("`{shown}`: `{v}` is not 0, 1, true or false"))),
            },
            "f16" | "bf16" => {
                let t = if ty == "f16" { Ty::F16 } else { Ty::BF16 };
                (warpscope_emu::arith::to_half(t, float()?, Rnd::Rn) as u16)
                    .to_le_bytes()
                    .to_vec()
            }
            "f32" => (float()? as f32).to_le_bytes().to_vec(),
            _ => float()?.to_le_bytes().to_vec(),
        })
    }
}

/// The bytes of `struct:F1,F2,...` in C layout: each field at a multiple of its alignment (a
/// scalar's is its size; a CUDA vector type's is `vector_types.h`'s, e.g. 16 for `float4`, 4 for
/// `float3`; a nested `{...}` struct's is its largest field's), the whole rounded up to the largest
/// alignment. Fields: `TYPE:V`, `TYPE[N]:V1,...,VN` (an array), `float4:X,Y,Z,W` (a vector),
/// `{FIELDS}` (a nested struct; an array of structs is the structs one after another).
pub fn struct_bytes(text: &str, fields: &str) -> Result<Vec<u8>> {
    let s = struct_layout(text, fields)?;
    if let Some(p) = s.ptrs.first().or(s.maps.first()) {
        return Err(bad(
            text,
            format!(
                "field {} points to a buffer (`ptr={}`): give it among the launch's arguments",
                p.path, p.spec
            ),
        ));
    }
    Ok(s.bytes)
}

/// A struct argument laid out: its bytes (pointer fields still 0), the fields that point to
/// buffers, and every leaf field's bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct StructLayout {
    /// The bytes, C layout.
    pub bytes: Vec<u8>,
    /// The `ptr=buf:...` fields.
    pub ptrs: Vec<PtrField>,
    /// The `tensormap(...)` fields (`spec`: their keys).
    pub maps: Vec<PtrField>,
    /// The leaf fields in order.
    pub spans: Vec<FieldSpan>,
}

/// [`struct_bytes`] with the pointer fields (`ptr=buf:BYTES`, `{FIELDS}[N]`) kept apart.
pub fn struct_layout(text: &str, fields: &str) -> Result<StructLayout> {
    if fields.trim().is_empty() {
        return Err(bad(text, "a struct needs at least one field (TYPE:VALUE,...)"));
    }
    let mut p = Fields {
        text,
        base: text.len() - fields.len(),
        s: fields,
        pos: 0,
        start: 0,
    };
    let layout = p.list("")?;
    p.skip_spaces();
    if p.pos < fields.len() {
        return Err(bad(
            text,
            format!(
                "column {}: unexpected `{}` after the last field (an unmatched `}}`?)",
                p.base + p.pos + 1,
                &fields[p.pos..]
            ),
        ));
    }
    Ok(StructLayout {
        bytes: layout.bytes,
        ptrs: layout.ptrs,
        maps: layout.maps,
        spans: layout.spans,
    })
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

/// The scalar kinds `--arg` takes besides those of [`warpscope_analysis::launchspec::parse_arg`]:
/// narrower than 4 bytes, or halves.
const SMALL_SCALARS: [&str; 7] = ["i8", "u8", "bool", "i16", "u16", "f16", "bf16"];

/// `alias:N[+BYTES]`'s target: argument `N` (a buffer) and the byte offset into it.
fn alias_target(text: &str, target: &str) -> Result<(usize, u64)> {
    let (n, off) = match target.split_once('+') {
        Some((n, off)) => (n, Some(off)),
        None => (target, None),
    };
    let n = n.trim().parse::<usize>().map_err(|_| {
        bad(
            text,
            format!("`{n}` is not an argument index (alias:N or alias:N+BYTES)"),
        )
    })?;
    let off = match off {
        Some(o) => o
            .trim()
            .parse::<u64>()
            .map_err(|_| bad(text, format!("`{o}` is not a byte offset (alias:N+BYTES)")))?,
        None => 0,
    };
    Ok((n, off))
}

/// Parses one `--arg` (`index`: its position, which seeds `buf:BYTES`).
pub fn parse_arg(text: &str, index: usize) -> Result<Arg> {
    if let Some(fields) = text.strip_prefix("struct:") {
        return struct_bytes(text, fields).map(Arg::Bytes);
    }
    if let Some(hex) = text.strip_prefix("bytes:") {
        return hex_bytes(text, hex).map(Arg::Bytes);
    }
    if text.starts_with("tensormap:") {
        return Err(bad(
            text,
            "a tensor map names a buffer argument: give it among the launch's arguments",
        ));
    }
    if text.starts_with("alias:") {
        return Err(bad(
            text,
            "an alias names a buffer argument: give it among the launch's arguments",
        ));
    }
    if let Some((kind, _)) = text.split_once(':')
        && SMALL_SCALARS.contains(&kind)
    {
        // a scalar narrower than 4 bytes, or a half: its bytes, as a one-field struct's
        return struct_bytes(text, text).map(Arg::Bytes);
    }
    warpscope_analysis::launchspec::parse_arg(text, index)
        .map_err(|e| Error::input(format!("--arg {e} (struct:T:V,... and bytes:HEX also work)")))
}

/// A buffer a struct argument's field points to: it follows the launch's own arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldBuffer {
    /// The struct argument's index.
    pub arg: usize,
    /// The pointer field, as in the struct.
    pub field: PtrField,
    /// Its index among [`LaunchArgs::args`] (after the launch's own arguments).
    pub index: usize,
}

/// The launch's arguments as given, then the buffers their struct fields point to.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchArgs {
    /// One per `--arg`, then one [`Arg::Buffer`] per [`FieldBuffer`].
    pub args: Vec<Arg>,
    /// How many `--arg`s there were (the kernel's parameters).
    pub given: usize,
    /// The buffers struct fields point to.
    pub fields: Vec<FieldBuffer>,
    /// Each struct argument's leaf fields (`None` for other arguments).
    pub spans: Vec<Option<Vec<FieldSpan>>>,
}

impl LaunchArgs {
    /// The name of argument `i` past the launch's own ones (a field's buffer), as messages name
    /// it: `field 1 of argument 0` (with `param`, the parameter's name in the source, when known).
    pub fn field_name(&self, i: usize, param: Option<&str>) -> Option<String> {
        let f = self.fields.iter().find(|f| f.index == i)?;
        Some(match param.filter(|n| !n.is_empty()) {
            Some(n) => format!("the buffer of field {} of argument {} `{n}`", f.field.path, f.arg),
            None => format!("the buffer of field {} of argument {}", f.field.path, f.arg),
        })
    }
}

/// Parses every `--arg`, in order.
pub fn parse_args<S: AsRef<str>>(specs: &[S]) -> Result<Vec<Arg>> {
    parse_launch_args(specs).map(|a| a.args)
}

/// Parses every `--arg`, in order; the buffers that struct fields point to (`ptr=buf:...`) are
/// appended as [`Arg::Buffer`]s and their addresses written into the structs.
pub fn parse_launch_args<S: AsRef<str>>(specs: &[S]) -> Result<LaunchArgs> {
    // tensor maps (`tensormap:`) last: they name the address of a buffer argument
    let is_map = |s: &S| s.as_ref().starts_with("tensormap:");
    let mut out: Vec<Option<Arg>> = Vec::with_capacity(specs.len());
    let mut ptrs: Vec<(usize, PtrField)> = Vec::new();
    let mut maps: Vec<(usize, PtrField)> = Vec::new();
    let mut spans = vec![None; specs.len()];
    let mut aliases: Vec<(usize, (usize, u64))> = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let text = s.as_ref();
        out.push(if is_map(s) {
            None
        } else if let Some(target) = text.strip_prefix("alias:") {
            aliases.push((i, alias_target(text, target)?));
            Some(Arg::Bytes(vec![0; 8]))
        } else if let Some(fields) = text.strip_prefix("struct:") {
            let l = struct_layout(text, fields)?;
            ptrs.extend(l.ptrs.into_iter().map(|p| (i, p)));
            maps.extend(l.maps.into_iter().map(|p| (i, p)));
            spans[i] = Some(l.spans);
            Some(Arg::Bytes(l.bytes))
        } else {
            Some(parse_arg(text, i)?)
        });
    }
    for (i, s) in specs.iter().enumerate() {
        if is_map(s) {
            out[i] = Some(crate::tensormap_arg::tensormap_arg(s.as_ref(), i, &out)?);
        }
    }
    let mut args: Vec<Arg> = out.into_iter().flatten().collect();
    let given = args.len();
    let mut fields = Vec::new();
    for (k, (arg, field)) in ptrs.into_iter().enumerate() {
        // each buffer its own pseudo-random bytes: seeded past the launch's own arguments
        let buf = warpscope_analysis::launchspec::parse_arg(&field.spec, given + k)
            .map_err(|e| bad(specs[arg].as_ref(), format!("field {}: {e}", field.path)))?;
        fields.push(FieldBuffer {
            arg,
            field,
            index: args.len(),
        });
        args.push(buf);
    }
    let (bases, _) = warpscope_emu::buffer_layout(&args);
    for &(i, (n, off)) in &aliases {
        let text = specs[i].as_ref();
        let (Some(Arg::Buffer(b)), Some(Some(base))) = (args.get(n), bases.get(n)) else {
            return Err(bad(
                text,
                format!("argument {n} is not a buffer (`buf:`) argument"),
            ));
        };
        if off > b.len() as u64 {
            return Err(bad(
                text,
                format!(
                    "offset {off} lies past the end of argument {n} (a buffer of {} bytes)",
                    b.len()
                ),
            ));
        }
        args[i] = Arg::Bytes((base + off).to_le_bytes().to_vec());
    }
    for f in &fields {
        let base = bases[f.index].unwrap_or(0);
        if let Arg::Bytes(b) = &mut args[f.arg] {
            b[f.field.offset..f.field.offset + 8].copy_from_slice(&base.to_le_bytes());
        }
    }
    // tensor-map fields: over a launch argument (`buf=N`) or a pointer field of the same struct
    // (`field=PATH`), with the keys of `tensormap:`
    for (arg, m) in maps {
        let shown = specs[arg].as_ref();
        let mut keys = Vec::new();
        for kv in m.spec.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            if kv.contains(',') {
                return Err(bad(
                    shown,
                    format!("field {}: separate a tensor map's keys with `;` (`{kv}`)", m.path),
                ));
            }
            match kv.strip_prefix("field=") {
                Some(p) => {
                    let Some(f) = fields.iter().find(|f| f.arg == arg && f.field.path == p.trim()) else {
                        return Err(bad(
                            shown,
                            format!(
                                "field {}: `field={p}` names no `ptr=buf:` field of this struct",
                                m.path
                            ),
                        ));
                    };
                    keys.push(format!("buf={}", f.index));
                }
                None => keys.push(kv.to_string()),
            }
        }
        let text = format!("tensormap:{}", keys.join(","));
        let all: Vec<Option<Arg>> = args.iter().cloned().map(Some).collect();
        let map = crate::tensormap_arg::tensormap_arg(&text, arg, &all)
            .map_err(|e| bad(shown, format!("field {} (tensormap): {e}", m.path)))?;
        if let (Arg::Bytes(b), Arg::Bytes(map)) = (&mut args[arg], map) {
            b[m.offset..m.offset + 128].copy_from_slice(&map);
        }
    }
    Ok(LaunchArgs {
        args,
        given,
        fields,
        spans,
    })
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
    check_fields(kernel, shown, args, &[])
}

/// [`check`] with each struct argument's leaf fields (from [`LaunchArgs::spans`]), so that a
/// struct that does not fit its parameter names the field.
pub fn check_fields(
    kernel: &Kernel,
    shown: &str,
    args: &[Arg],
    spans: &[Option<Vec<FieldSpan>>],
) -> Result<()> {
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
            && b.len() > p.size as usize
            && let Some(Some(spans)) = spans.get(i)
            && let Some(f) = spans.iter().find(|f| f.end > p.size as usize)
        {
            return Err(Error::input(format!(
                "--arg {i}: field {} (`{}`, bytes {}..{} of the struct) does not fit parameter {} of \
                 `{shown}`, which takes {} bytes (the struct is {} bytes: each field at its alignment)",
                f.path,
                f.text,
                f.start,
                f.end,
                p.name,
                p.size,
                b.len()
            )));
        }
        if let Arg::Bytes(b) = a
            && b.len() < p.size as usize
            && let Some(Some(spans)) = spans.get(i)
        {
            return Err(Error::input(format!(
                "--arg {i}: {} bytes given for parameter {} of `{shown}`, which takes {} bytes: the \
                 struct's fields end at byte {} (its last, field {}, `{}`): a field is missing",
                b.len(),
                p.name,
                p.size,
                spans.last().map_or(0, |f| f.end),
                spans.last().map_or("?", |f| f.path.as_str()),
                spans.last().map_or("", |f| f.text.as_str()),
            )));
        }
        if let Arg::Bytes(b) = a
            && b.len() != p.size as usize
        {
            return Err(Error::input(format!(
                "--arg {i}: {} bytes given for parameter {} of `{shown}`, which takes {} bytes \
                 (a struct's fields are laid out in order, each at its alignment: a scalar's \
                 size, a vector type's as in vector_types.h, a nested struct's largest field's)",
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
                "--arg {i}: a {n}-byte value for parameter {} of `{shown}`, which takes {} bytes{}",
                p.name,
                p.size,
                match p.size {
                    1 => " (give it as i8:V, u8:V or bool:V)",
                    2 => " (give it as i16:V, u16:V, f16:V or bf16:V)",
                    4 => " (give it as i32:V, u32:V or f32:V)",
                    _ => "",
                }
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_scalars_and_halves_are_their_bytes() {
        let bytes = |spec: &str| match parse_arg(spec, 0).unwrap() {
            Arg::Bytes(b) => b,
            other => panic!("{spec}: {other:?}"),
        };
        assert_eq!(bytes("i16:-2"), vec![0xfe, 0xff]);
        assert_eq!(bytes("u16:0x1234"), vec![0x34, 0x12]);
        assert_eq!(bytes("i8:-3"), vec![0xfd]);
        assert_eq!(bytes("u8:200"), vec![200]);
        assert_eq!(bytes("bool:true"), vec![1]);
        assert_eq!(bytes("bool:0"), vec![0]);
        // 1.5 = 0x3e00 as binary16, 0x3fc0 as bfloat16
        assert_eq!(bytes("f16:1.5"), vec![0x00, 0x3e]);
        assert_eq!(bytes("bf16:1.5"), vec![0xc0, 0x3f]);
        assert!(
            parse_arg("i8:200", 0)
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
        assert!(
            parse_arg("bool:2", 0)
                .unwrap_err()
                .to_string()
                .contains("not 0, 1")
        );
        assert!(
            parse_arg("f16:x", 0)
                .unwrap_err()
                .to_string()
                .contains("not a number")
        );
    }

    #[test]
    fn an_alias_is_the_address_of_another_buffer_argument() {
        let a = parse_launch_args(&["buf:64:zero", "alias:0+4", "alias:0"]).unwrap();
        let (bases, _) = warpscope_emu::buffer_layout(&a.args);
        let base = bases[0].unwrap();
        assert_eq!(a.args[1], Arg::Bytes((base + 4).to_le_bytes().to_vec()));
        assert_eq!(a.args[2], Arg::Bytes(base.to_le_bytes().to_vec()));
        assert_eq!(a.given, 3);
        let e = |specs: &[&str]| parse_launch_args(specs).unwrap_err().to_string();
        assert!(e(&["i32:1", "alias:0"]).contains("not a buffer"));
        assert!(e(&["buf:8", "alias:3"]).contains("not a buffer"));
        assert!(e(&["buf:8", "alias:0+9"]).contains("past the end"));
        assert!(e(&["buf:8", "alias:x"]).contains("not an argument index"));
    }

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

    fn bytes_of(spec: &str) -> Vec<u8> {
        match parse_arg(spec, 0) {
            Ok(Arg::Bytes(b)) => b,
            other => panic!("{spec}: {other:?}"),
        }
    }

    #[test]
    fn arrays_vectors_and_nested_structs() {
        // struct { int a; float b[3]; struct { char c; double d; } e; float4 f; }
        let b = bytes_of("struct:i32:3,f32[3]:1,2,3,{u8:1,f64:2.5},float4:1,2,3,4");
        let mut want = vec![0u8; 48];
        want[0..4].copy_from_slice(&3i32.to_le_bytes());
        for (i, v) in [1.0f32, 2.0, 3.0].iter().enumerate() {
            want[4 + 4 * i..8 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        want[16] = 1;
        want[24..32].copy_from_slice(&2.5f64.to_le_bytes());
        for (i, v) in [1.0f32, 2.0, 3.0, 4.0].iter().enumerate() {
            want[32 + 4 * i..36 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        assert_eq!(b, want);
        // float3 is 4-aligned (12 bytes), float2 8-aligned, uchar3 1-aligned, short4 8-aligned.
        assert_eq!(bytes_of("struct:u8:1,float3:1,2,3").len(), 16);
        assert_eq!(bytes_of("struct:u8:1,float2:1,2").len(), 16);
        assert_eq!(bytes_of("struct:u8:9,uchar3:1,2,3"), vec![9, 1, 2, 3]);
        assert_eq!(bytes_of("struct:u8:1,short4:1,2,3,4").len(), 16);
        assert_eq!(bytes_of("struct:u8:1,double4_32a:1,2,3,4").len(), 64);
        // an array of vectors, and nesting two deep; the inner struct's size is rounded to its
        // own alignment before the outer field follows.
        assert_eq!(bytes_of("struct:int2[2]:1,2,3,4"), {
            let mut v = Vec::new();
            for x in [1i32, 2, 3, 4] {
                v.extend(x.to_le_bytes());
            }
            v
        });
        assert_eq!(
            bytes_of("struct:{u16:0x0102,{u8:3}},u8:4"),
            vec![2, 1, 3, 0, 4, 0]
        );
        assert_eq!(
            bytes_of("struct: i8 : -2 , u16[2] : 1 , 2 "),
            vec![254, 0, 1, 0, 2, 0]
        );
    }

    #[test]
    fn struct_errors_name_field_and_column() {
        let e = parse_arg("struct:i32:1,f32[3]:1,2", 0).unwrap_err().to_string();
        assert!(
            e.contains("field 2") && e.contains("`f32[3]` takes 3 values, 2 given"),
            "{e}"
        );
        let e = parse_arg("struct:float4:1,2,3", 0).unwrap_err().to_string();
        assert!(e.contains("`float4` takes 4 values, 3 given"), "{e}");
        let e = parse_arg("struct:i32:1,{u8:1,f64:x}", 0).unwrap_err().to_string();
        assert!(
            e.contains("field 2.2") && e.contains("`x` is not a number"),
            "{e}"
        );
        let e = parse_arg("struct:{u8:1", 0).unwrap_err().to_string();
        assert!(e.contains("expected `}`"), "{e}");
        let e = parse_arg("struct:u8:1}", 0).unwrap_err().to_string();
        assert!(e.contains("unexpected `}`"), "{e}");
        let e = parse_arg("struct:f32[0]:1", 0).unwrap_err().to_string();
        assert!(e.contains("the length must be"), "{e}");
        let e = parse_arg("struct:f32[2:1,2", 0).unwrap_err().to_string();
        assert!(e.contains("expected `]`"), "{e}");
        let e = parse_arg("struct:i32", 0).unwrap_err().to_string();
        assert!(e.contains("expected `:`"), "{e}");
        let e = parse_arg("struct:u8:1,,u8:2", 0).unwrap_err().to_string();
        assert!(
            e.contains("field 2 (column 13)") && e.contains("expected a field"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let e = parse_arg("struct:i32:1,q8:2", 0).unwrap_err().to_string();
        assert!(e.contains("unknown type `q8`"), "{e}");
        assert!(e.contains("field 2 (column 14)"), "{e}");
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
