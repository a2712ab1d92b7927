//! A JSON Lines trace of warp requests through the bank model (`warpscope bank --trace`), one
//! JSON line out per line in, in order. The trace is read in batches of whole lines, modelled in
//! parallel blocks (rayon) and written in order, so the output does not depend on the number of
//! threads; a fast reader takes the usual line shape and serde the rest. A line that does not read
//! gets an `error` line; reading, writing and an over-long line end the trace ([`TraceError`]).
//!
//! ```
//! use warpscope_analysis::bank_trace::trace_stream;
//! use warpscope_model::bank::Config;
//!
//! // lane l reads word 32 l: all in bank 0, 32 wavefronts
//! let addrs: Vec<String> = (0..32).map(|l| (128 * l).to_string()).collect();
//! let text = format!(r#"{{"arch":"sm_90","width":4,"op":"load","addrs":[{}]}}"#, addrs.join(","));
//! let mut out = Vec::new();
//! assert_eq!(trace_stream(text.as_bytes(), &mut out, Config::default(), 1 << 20, 1 << 16).unwrap(), (1, 0));
//! assert_eq!(out, b"{\"line\":1,\"wavefronts\":32,\"ideal\":1,\"conflict_ways\":32}\n");
//! ```

use std::io::{Read, Write};

use rayon::prelude::*;
use serde::Deserialize;
use warpscope_model::arch::{Arch, BankMode};
use warpscope_model::bank::{self, Config, Op, Request};

/// Why a trace stopped.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Reading the trace failed.
    #[error("read error: {0}")]
    Read(std::io::Error),
    /// Writing the output failed.
    #[error("write error: {0}")]
    Write(std::io::Error),
    /// A line is longer than the limit given.
    #[error("line {line}: {len} bytes, over the limit of {limit} bytes for one --trace line")]
    LineTooLong {
        /// The line (from 1).
        line: usize,
        /// Its length.
        len: usize,
        /// The limit.
        limit: u64,
    },
}

/// The bank mode of `--bank-mode` / a trace line's `bank_mode`: 4 or 8 bytes.
pub fn bank_mode(bytes: u8) -> Result<BankMode, String> {
    match bytes {
        4 => Ok(BankMode::FourByte),
        8 => Ok(BankMode::EightByte),
        b => Err(format!("--bank-mode must be 4 or 8, not {b}")),
    }
}

/// A request's op: `load`/`ld` or `store`/`st`.
pub fn parse_op(text: &str) -> Result<Op, String> {
    match text {
        "load" | "ld" => Ok(Op::Load),
        "store" | "st" => Ok(Op::Store),
        o => Err(format!("unknown op `{o}` (expected load or store)")),
    }
}

/// An error and its sources, `: `-separated.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(c) = src {
        s.push_str(": ");
        s.push_str(&c.to_string());
        src = c.source();
    }
    s
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceLine {
    arch: String,
    width: u8,
    op: String,
    addrs: Vec<Option<u32>>,
    #[serde(default)]
    bank_mode: Option<u8>,
}

/// Bytes of trace text one parallel task takes (whole lines, so a little more).
pub const TRACE_BLOCK_BYTES: usize = 1 << 20;

/// Models the trace of `input` into `out`, reading about `batch_bytes` at a time (a few blocks per
/// thread: memory stays bounded, the output is the same whatever the thread count); a line longer
/// than `max_line` bytes ends it. Returns the number of lines and of lines that could not be read.
pub fn trace_stream(
    mut input: impl Read,
    mut out: impl Write,
    base: Config,
    batch_bytes: usize,
    max_line: u64,
) -> Result<(usize, usize), TraceError> {
    let mut bad = 0usize;
    let mut lines = 0usize;
    let mut carry: Vec<u8> = Vec::new();
    let mut eof = false;
    while !eof {
        // A batch: what was left of the last one (a partial line) and then up to batch_bytes more.
        let mut buf = std::mem::take(&mut carry);
        let want = buf.len() + batch_bytes;
        while buf.len() < want {
            let got = (&mut input)
                .take((want - buf.len()) as u64)
                .read_to_end(&mut buf)
                .map_err(TraceError::Read)?;
            if got == 0 {
                eof = true;
                break;
            }
        }
        // Whole lines only; the partial last line waits for the next batch, within the line limit.
        let cut = if eof {
            buf.len()
        } else {
            buf.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1)
        };
        carry = buf.split_off(cut);
        let blocks = split_blocks(&buf);
        let counts: Vec<usize> = blocks.par_iter().map(|b| line_count(b)).collect();
        let mut firsts = Vec::with_capacity(blocks.len());
        for n in counts {
            firsts.push(lines + 1);
            lines += n;
        }
        if carry.len() as u64 > max_line {
            return Err(TraceError::LineTooLong {
                line: lines + 1,
                len: carry.len(),
                limit: max_line,
            });
        }
        let results: Vec<Result<(Vec<u8>, usize), TraceError>> = blocks
            .par_iter()
            .zip(&firsts)
            .map(|(b, &first)| trace_block(b, first, base, max_line))
            .collect();
        for r in results {
            let (text, b) = r?;
            bad += b;
            out.write_all(&text).map_err(TraceError::Write)?;
        }
    }
    out.flush().map_err(TraceError::Write)?;
    Ok((lines, bad))
}

/// Splits whole lines of text into blocks of about [`TRACE_BLOCK_BYTES`], each ending after a
/// newline (the last one at the end of the text).
fn split_blocks(text: &[u8]) -> Vec<&[u8]> {
    let mut blocks = Vec::with_capacity(text.len() / TRACE_BLOCK_BYTES + 1);
    let mut rest = text;
    while !rest.is_empty() {
        let end = if rest.len() <= TRACE_BLOCK_BYTES {
            rest.len()
        } else {
            rest[TRACE_BLOCK_BYTES - 1..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(rest.len(), |i| TRACE_BLOCK_BYTES + i)
        };
        let (block, tail) = rest.split_at(end);
        blocks.push(block);
        rest = tail;
    }
    blocks
}

/// Lines in a block: its newlines, plus a last line without one.
fn line_count(block: &[u8]) -> usize {
    // Byte counters over chunks of at most 255 bytes: the compiler vectorises the inner loop.
    let newlines: usize = block
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &c| n + u8::from(c == b'\n'))))
        .sum();
    newlines + usize::from(block.last().is_some_and(|&c| c != b'\n'))
}

/// One block of whole lines (`first`: the number of its first line) to its output lines and the
/// number of lines that could not be read. A line over the length limit is an error for the run.
fn trace_block(
    block: &[u8],
    first: usize,
    base: Config,
    max_line: u64,
) -> Result<(Vec<u8>, usize), TraceError> {
    let mut out = Vec::with_capacity(block.len() / 2 + 64);
    let mut bad = 0;
    let mut cached = None;
    let mut pos = 0;
    let mut n = first;
    while pos < block.len() {
        let rest = &block[pos..];
        // The usual line parses in place up to its newline; anything else is cut at its newline
        // and read again through trace_bytes (serde_json, for the same result or the error).
        let (len, result) = match fast_prefix(rest) {
            Some((line, end)) => (end, Some(line_counts(line, base, &mut cached))),
            None => (rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len()), None),
        };
        if len as u64 > max_line {
            return Err(TraceError::LineTooLong {
                line: n,
                len,
                limit: max_line,
            });
        }
        let result = match result {
            Some(r) => r.map(Some),
            None => trace_bytes(rest[..len].trim_ascii_end(), base, &mut cached),
        };
        let line = n;
        pos += len + 1;
        n += 1;
        match result {
            Ok(Some(c)) => {
                out.extend_from_slice(b"{\"line\":");
                push_decimal(&mut out, line as u64);
                out.extend_from_slice(b",\"wavefronts\":");
                push_decimal(&mut out, c.wavefronts.into());
                out.extend_from_slice(b",\"ideal\":");
                push_decimal(&mut out, c.ideal.into());
                out.extend_from_slice(b",\"conflict_ways\":");
                push_decimal(&mut out, c.conflict_ways.into());
                out.extend_from_slice(b"}\n");
            }
            Ok(None) => {}
            Err(e) => {
                bad += 1;
                out.extend_from_slice(b"{\"line\":");
                push_decimal(&mut out, line as u64);
                out.extend_from_slice(b",\"error\":");
                // a JSON string of the message (serialising a str cannot fail)
                out.extend_from_slice(serde_json::to_string(&e).unwrap_or_default().as_bytes());
                out.extend_from_slice(b"}\n");
            }
        }
    }
    Ok((out, bad))
}

/// Appends `v` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// One trace line to its counts, or why it does not read (the per-line reader, fuzzed by
/// fuzz/fuzz_targets/bank_trace.rs; [`trace_stream`] reads bytes through the same code).
pub fn trace_one(
    text: &str,
    base: Config,
    cached: &mut Option<(String, &'static Arch)>,
) -> Result<bank::Counts, String> {
    trace_bytes(text.as_bytes(), base, cached)?.ok_or_else(|| "empty line".to_string())
}

/// One trace line (trailing ASCII white space removed) to its counts; `None` for a line that is
/// only white space.
fn trace_bytes(
    text: &[u8],
    base: Config,
    cached: &mut Option<(String, &'static Arch)>,
) -> Result<Option<bank::Counts>, String> {
    if let Some(t) = fast_line(text) {
        return line_counts(t, base, cached).map(Some);
    }
    let s = std::str::from_utf8(text)
        .map_err(|e| format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1))?;
    let s = s.trim_end();
    if s.is_empty() {
        return Ok(None);
    }
    let owned = serde_json::from_str::<TraceLine>(s).map_err(|e| chain(&e))?;
    let mut line = FastLine {
        arch: &owned.arch,
        width: owned.width,
        op: &owned.op,
        mask: 0,
        addrs: [0; 32],
        n_addrs: owned.addrs.len(),
        bank_mode: owned.bank_mode,
    };
    for (l, a) in owned.addrs.iter().take(32).enumerate() {
        if let Some(a) = a {
            line.mask |= 1 << l;
            line.addrs[l] = *a;
        }
    }
    line_counts(line, base, cached).map(Some)
}

/// The model's counts for a read line (`cached`: the last architecture looked up, by name).
fn line_counts(
    t: FastLine<'_>,
    base: Config,
    cached: &mut Option<(String, &'static Arch)>,
) -> Result<bank::Counts, String> {
    let arch = match cached {
        Some((name, a)) if name == t.arch => *a,
        _ => {
            let a = Arch::parse(t.arch).map_err(|e| chain(&e))?;
            *cached = Some((t.arch.to_string(), a));
            a
        }
    };
    if t.n_addrs != 32 {
        return Err(format!(
            "\"addrs\" needs 32 entries (null = inactive lane), got {}",
            t.n_addrs
        ));
    }
    let op = parse_op(t.op)?;
    let config = match t.bank_mode {
        Some(m) => Config {
            bank_mode: bank_mode(m)?,
        },
        None => base,
    };
    let req = Request {
        width: t.width,
        op,
        mask: t.mask,
        addrs: t.addrs,
    };
    bank::wavefronts(arch, &config, &req).map_err(|e| chain(&e))
}

/// Reads the usual trace line without serde (several times faster); `None` for anything it does not
/// expect, which then goes through serde_json for the same result or a proper error message.
fn fast_line(b: &[u8]) -> Option<FastLine<'_>> {
    fast_prefix(b).and_then(|(line, end)| (end == b.len()).then_some(line))
}

/// [`fast_line`] on the text up to the first newline (or the end): the line and its length.
#[inline]
fn fast_prefix(b: &[u8]) -> Option<(FastLine<'_>, usize)> {
    let mut c = Cursor { b, i: 0 };
    let (mut arch, mut width, mut op, mut addrs, mut mode) = (None, None, None, None, None);
    c.ws();
    c.eat(b'{')?;
    loop {
        c.ws();
        c.eat(b'"')?;
        // Keys as bytes, told apart by their first letter (a key with an escape or any other key:
        // `None`).
        let rest = &c.b[c.i..];
        let (key, len) = match c.peek() {
            b'a' if rest.starts_with(b"addrs\"") => (3, 6),
            b'a' if rest.starts_with(b"arch\"") => (0, 5),
            b'w' if rest.starts_with(b"width\"") => (1, 6),
            b'o' if rest.starts_with(b"op\"") => (2, 3),
            b'b' if rest.starts_with(b"bank_mode\"") => (4, 10),
            _ => return None,
        };
        c.i += len;
        c.ws();
        c.eat(b':')?;
        c.ws();
        match key {
            0 if arch.is_none() => arch = Some(c.string()?),
            1 if width.is_none() => width = Some(u8::try_from(c.number()?).ok()?),
            2 if op.is_none() => op = Some(c.string()?),
            3 if addrs.is_none() => {
                c.eat(b'[')?;
                let mut v = [0u32; 32];
                let mut mask = 0u32;
                let mut n = 0usize;
                c.ws();
                if c.peek() == b']' {
                    c.i += 1;
                } else {
                    loop {
                        c.ws();
                        if c.peek() == b'n' {
                            if !c.b[c.i..].starts_with(b"null") {
                                return None;
                            }
                            c.i += 4;
                        } else {
                            let x = c.number()?;
                            if n < 32 {
                                v[n] = x;
                                mask |= 1 << n;
                            }
                        }
                        n += 1;
                        c.ws();
                        match c.peek() {
                            b',' => c.i += 1,
                            b']' => {
                                c.i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                addrs = Some((mask, v, n));
            }
            4 if mode.is_none() => mode = Some(u8::try_from(c.number()?).ok()?),
            _ => return None,
        }
        c.ws();
        match c.peek() {
            b',' => c.i += 1,
            b'}' => {
                c.i += 1;
                break;
            }
            _ => return None,
        }
    }
    c.ws();
    if !matches!(c.peek(), 0 | b'\n') || (c.peek() == 0 && c.i != b.len()) {
        return None;
    }
    let (mask, addrs, n_addrs) = addrs?;
    let line = FastLine {
        arch: arch?,
        width: width?,
        op: op?,
        mask,
        addrs,
        n_addrs,
        bank_mode: mode,
    };
    Some((line, c.i))
}

/// A position in a trace line, for [`fast_line`].
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    /// The next byte, or 0 at the end.
    #[inline]
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    /// Skips JSON white space but line feeds (space, tab, carriage return).
    #[inline]
    fn ws(&mut self) {
        while matches!(self.peek(), b' ' | b'\t' | b'\r') {
            self.i += 1;
        }
    }

    #[inline]
    fn eat(&mut self, want: u8) -> Option<()> {
        (self.peek() == want).then(|| self.i += 1)
    }

    /// A string without escapes.
    #[inline]
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let len = self.b[start..].iter().position(|&c| c == b'"')?;
        let s = &self.b[start..start + len];
        if s.contains(&b'\\') {
            return None;
        }
        self.i = start + len + 1;
        std::str::from_utf8(s).ok()
    }

    /// A JSON integer (no sign, no leading zero but a lone 0) of at most `u32::MAX`.
    ///
    /// Up to 7 digits at once: 8 bytes as one `u64`, a flag per byte that is not a digit, and the
    /// digits combined pairwise by three multiplications. Longer runs go digit by digit.
    #[inline(always)]
    fn number(&mut self) -> Option<u32> {
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let rest = &self.b[self.i..];
        let x = match rest.first_chunk::<8>() {
            Some(bytes) => u64::from_le_bytes(*bytes),
            None => {
                let mut bytes = [0u8; 8];
                bytes[..rest.len()].copy_from_slice(rest);
                u64::from_le_bytes(bytes)
            }
        };
        // Per byte, no carry across bytes: high bit when the byte is above '9' (in its low 7
        // bits), has its high bit set, or is below '0'.
        let low = x & LOW7;
        let not_digit = ((low + 0x4646_4646_4646_4646) | x | (0xAFAF_AFAF_AFAF_AFAF - low)) & HIGH;
        if not_digit == 0 {
            return self.number_slow();
        }
        let digits = (not_digit.trailing_zeros() / 8) as usize;
        if digits == 0 || (digits > 1 && rest[0] == b'0') {
            return None;
        }
        // The digit values, moved to the top bytes: an 8-digit string with leading zeros.
        let mut v = x.wrapping_sub(0x3030_3030_3030_3030) << (64 - 8 * digits);
        v = (v & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(10 << 8 | 1) >> 8;
        v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1) >> 16;
        v = (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1) >> 32;
        self.i += digits;
        Some(v as u32)
    }

    /// [`Cursor::number`] digit by digit.
    fn number_slow(&mut self) -> Option<u32> {
        let rest = &self.b[self.i..];
        let mut v = 0u64;
        let mut digits = 0;
        // at most 11 digits are looked at: 10 fit in a u64 with room, an 11th is too many
        for &ch in rest.iter().take(11) {
            let d = ch.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + u64::from(d);
            digits += 1;
        }
        if digits == 0 || digits > 10 || (digits > 1 && rest[0] == b'0') {
            return None;
        }
        self.i += digits;
        u32::try_from(v).ok()
    }
}

/// A trace line as [`fast_line`] reads it, borrowing from the line.
struct FastLine<'a> {
    arch: &'a str,
    width: u8,
    op: &'a str,
    /// Bit `l` set when entry `l` (of the first 32) is a number.
    mask: u32,
    /// The first 32 entries (0 where null).
    addrs: [u32; 32],
    /// How many entries the list has.
    n_addrs: usize,
    bank_mode: Option<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_trace_reader_agrees_with_serde() {
        let good = [
            r#"{"arch":"sm_90","width":8,"op":"load","addrs":[0,8,null,24]}"#,
            r#" { "op" : "store" , "addrs" : [ ] , "width" : 16, "arch" : "9.0", "bank_mode": 8 } "#,
        ];
        for g in good {
            let a = fast_line(g.as_bytes()).expect(g);
            let b: TraceLine = serde_json::from_str(g).unwrap();
            assert_eq!(
                (a.arch, a.width, a.op, a.bank_mode),
                (b.arch.as_str(), b.width, b.op.as_str(), b.bank_mode)
            );
            let lanes: Vec<Option<u32>> = (0..a.n_addrs)
                .map(|l| (a.mask >> l & 1 == 1).then_some(a.addrs[l]))
                .collect();
            assert_eq!(lanes, b.addrs);
        }
        for bad in [
            r#"{"arch":"sm_90","width":8,"op":"load","addrs":[0,8],"x":1}"#,
            r#"{"arch":"sm_90","width":300,"op":"load","addrs":[]}"#,
            r#"{"arch":"sm_90","width":8,"op":"load","addrs":[-1]}"#,
            r#"{"arch":"sm_90","width":8,"op":"load","addrs":[01]}"#,
            r#"{"arch":"sm_90","width":8,"op":"load"}"#,
            r#"{"arch":"sm_90","arch":"sm_80","width":8,"op":"load","addrs":[]}"#,
            r#"{"arch":"sm_90","width":8,"op":"load","addrs":[4294967296]}"#,
            "not json",
        ] {
            assert!(fast_line(bad.as_bytes()).is_none(), "{bad}");
            assert!(serde_json::from_str::<TraceLine>(bad).is_err(), "{bad}");
        }
    }

    /// The parallel reader against a plain line-by-line loop over the same text: several blocks and
    /// batches, blank and CRLF lines, bad lines, odd spacing, a last line without a newline.
    #[test]
    fn parallel_trace_equals_line_by_line() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut text = String::new();
        let mut i = 0u64;
        while text.len() < 3 * TRACE_BLOCK_BYTES + 12_345 {
            let w = [1u32, 2, 4, 8, 16][(next() % 5) as usize];
            let cells: Vec<String> = (0..32)
                .map(|l| match next() % 9 {
                    0 => "null".to_string(),
                    1 => (next() % 70_000 * u64::from(w)).to_string(),
                    _ => (l * w * (1 + (i % 33) as u32)).to_string(),
                })
                .collect();
            let line = match next() % 40 {
                0 => String::new(),
                1 => "   \t".to_string(),
                2 => "not json".to_string(),
                3 => format!(
                    r#"{{"arch":"sm_90","width":3,"op":"load","addrs":[{}]}}"#,
                    cells.join(",")
                ),
                4 => format!(
                    r#"{{"arch":"sm_99","width":4,"op":"load","addrs":[{}]}}"#,
                    cells.join(",")
                ),
                5 => format!(
                    r#" {{ "op": "store", "addrs": [ {} ], "width": {w}, "arch": "7.0" }} "#,
                    cells.join(" , ")
                ),
                6 => format!(
                    r#"{{"arch":"sm_35","width":{w},"op":"ld","addrs":[{}],"bank_mode":8}}"#,
                    cells.join(",")
                ),
                _ => format!(
                    r#"{{"arch":"sm_90","width":{w},"op":"load","addrs":[{}]}}"#,
                    cells.join(",")
                ),
            };
            text.push_str(&line);
            text.push_str(if next() % 7 == 0 { "\r\n" } else { "\n" });
            i += 1;
        }
        text.push_str(r#"{"arch":"sm_80","width":4,"op":"store","addrs":[0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124]}"#);
        // one batch of several blocks, and many small batches with partial lines carried over
        let mut outs = Vec::new();
        for batch in [16 * TRACE_BLOCK_BYTES, 100_003] {
            let mut out = Vec::new();
            let r = trace_stream(text.as_bytes(), &mut out, Config::default(), batch, 1 << 16).unwrap();
            outs.push((r, out));
        }
        let ((lines, bad), out) = outs[0].clone();
        assert_eq!(outs[0], outs[1]);
        let mut expect = String::new();
        let mut expect_bad = 0;
        let mut cached = None;
        for (k, line) in text.split('\n').enumerate() {
            let line = line.trim_end();
            if line.is_empty() {
                continue;
            }
            match trace_one(line, Config::default(), &mut cached) {
                Ok(c) => expect.push_str(&format!(
                    "{{\"line\":{},\"wavefronts\":{},\"ideal\":{},\"conflict_ways\":{}}}\n",
                    k + 1,
                    c.wavefronts,
                    c.ideal,
                    c.conflict_ways
                )),
                Err(e) => {
                    expect_bad += 1;
                    let msg = serde_json::to_string(&e).unwrap();
                    expect.push_str(&format!("{{\"line\":{},\"error\":{msg}}}\n", k + 1));
                }
            }
        }
        assert_eq!(lines, text.split('\n').count());
        assert_eq!(bad, expect_bad);
        assert!(bad > 100, "{bad}");
        assert!(String::from_utf8(out).unwrap() == expect, "outputs differ");
    }

    #[test]
    fn invalid_utf8_is_an_error_line_not_the_end() {
        let text = b"{\"arch\":\"sm_90\",\"width\":4,\"op\":\"lo\xffad\",\"addrs\":[]}\n\n\xfe\n";
        let mut out = Vec::new();
        let (lines, bad) = trace_stream(&text[..], &mut out, Config::default(), 1 << 20, 1 << 16).unwrap();
        assert_eq!((lines, bad), (3, 2));
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("{\"line\":1,\"error\":\"not UTF-8"), "{out}");
        assert!(
            out.contains("{\"line\":3,\"error\":\"not UTF-8 text (invalid byte at column 1)\"}"),
            "{out}"
        );
    }

    #[test]
    fn a_line_over_the_limit_ends_the_trace_naming_it() {
        // line 2 is 101 bytes, over a limit of 100: in a block, and as the carried partial line
        let text = format!("\n{}\n", "x".repeat(101));
        for batch in [1 << 20, 16] {
            let e = trace_stream(text.as_bytes(), Vec::new(), Config::default(), batch, 100).unwrap_err();
            assert!(
                matches!(
                    e,
                    TraceError::LineTooLong {
                        line: 2,
                        len: 101,
                        limit: 100
                    }
                ),
                "{batch}: {e:?}"
            );
        }
    }

    #[test]
    fn numbers_at_once_equal_numbers_digit_by_digit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut texts: Vec<String> = (0..20_000).map(|v| v.to_string()).collect();
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            texts.push((seed >> (seed % 64)).to_string());
        }
        for t in [
            "0",
            "00",
            "01",
            "4294967295",
            "4294967296",
            "99999999",
            "1234567",
            "",
        ] {
            texts.push(t.to_string());
        }
        for t in &texts {
            for tail in ["", ",", "]", " ", "x", "\u{e9}", "0", "/", ":"] {
                let line = format!("{t}{tail}");
                let mut fast = Cursor {
                    b: line.as_bytes(),
                    i: 0,
                };
                let mut slow = Cursor {
                    b: line.as_bytes(),
                    i: 0,
                };
                let expect = slow.number_slow();
                assert_eq!(fast.number(), expect, "{line:?}");
                if expect.is_some() {
                    assert_eq!(fast.i, slow.i, "{line:?}");
                }
                // and against the standard library, for a plain run of digits
                if tail.is_empty() && !t.is_empty() && (t.len() == 1 || !t.starts_with('0')) {
                    assert_eq!(expect, t.parse::<u32>().ok(), "{t}");
                }
            }
        }
    }
}
