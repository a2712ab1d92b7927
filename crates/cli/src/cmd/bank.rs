//! `warpscope bank`: the shared-memory bank model for one warp request, or a trace of requests.
//!
//! One request: `--addrs 0,8,-,...` (32 byte offsets, `-` = inactive lane) or `--expr 'lane*33*4'`
//! (a byte-offset expression in `lane`: integers, `+ - * / % & | ^ << >>`, parentheses, unary minus).
//! Printed as a picture (`--format table`: banks across, wavefronts down, lanes in the cells; `*`
//! marks a word that several lanes share in that wavefront) or as JSON with the full breakdown.
//!
//! Trace: `--trace FILE` (or `-` for stdin), JSON Lines, one request per line:
//! `{"arch":"sm_90","width":8,"op":"load","addrs":[0,8,null,...]}` (32 entries, null = inactive;
//! an optional `"bank_mode":4|8`). One JSON line out per line in, in order, with `wavefronts`,
//! `ideal` and `conflict_ways`; a bad line gives `{"line":N,"error":"..."}`, processing goes on, and
//! the exit status is 2 at the end.

use std::fmt::Write as _;
use std::io::{BufRead, BufWriter, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use comfy_table::{Cell, ContentArrangement, Table};
use serde::Deserialize;
use warpscope_model::arch::{Arch, BankMode};
use warpscope_model::bank::{self, Config, Op, Request};

/// Flags of `warpscope bank`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Architecture (`sm_90`, `9.0`, `compute_90`...).
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// Bytes per lane: 1, 2, 4, 8 or 16.
    #[arg(long, default_value_t = 4)]
    width: u8,
    /// `load` or `store`.
    #[arg(long, default_value = "load", value_parser = ["load", "store", "ld", "st"])]
    op: String,
    /// 32 comma-separated lane byte offsets; `-` marks an inactive lane.
    #[arg(long, conflicts_with_all = ["expr", "trace"])]
    addrs: Option<String>,
    /// Byte-offset expression in `lane`, e.g. `lane*33*4`.
    #[arg(long, conflicts_with = "trace")]
    expr: Option<String>,
    /// Kepler bank width in bytes (4 or 8).
    #[arg(long, default_value_t = 4)]
    bank_mode: u8,
    /// JSON Lines trace of requests (`-` = stdin).
    #[arg(long)]
    trace: Option<String>,
    /// Output format.
    #[arg(long, default_value = "table", value_parser = ["table", "json"])]
    format: String,
}

fn bank_mode(bytes: u8) -> anyhow::Result<BankMode> {
    match bytes {
        4 => Ok(BankMode::FourByte),
        8 => Ok(BankMode::EightByte),
        b => bail!("--bank-mode must be 4 or 8, not {b}"),
    }
}

fn parse_op(text: &str) -> anyhow::Result<Op> {
    match text {
        "load" | "ld" => Ok(Op::Load),
        "store" | "st" => Ok(Op::Store),
        o => bail!("unknown op `{o}` (expected load or store)"),
    }
}

/// Runs `warpscope bank`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = Config {
        bank_mode: bank_mode(args.bank_mode)?,
    };
    if let Some(path) = &args.trace {
        return run_trace(path, config);
    }
    let arch = Arch::parse(&args.arch)?;
    let op = parse_op(&args.op)?;
    let lanes = match (&args.addrs, &args.expr) {
        (Some(list), None) => parse_addrs(list)?,
        (None, Some(e)) => {
            let expr = Expr::parse(e).with_context(|| format!("--expr `{e}`"))?;
            let mut lanes = [None; 32];
            for (lane, slot) in lanes.iter_mut().enumerate() {
                let v = expr
                    .eval(lane as i64)
                    .with_context(|| format!("--expr `{e}` at lane {lane}"))?;
                let v = u32::try_from(v)
                    .map_err(|_| anyhow!("--expr `{e}`: lane {lane} gives {v}, outside 0..=4294967295"))?;
                *slot = Some(v);
            }
            lanes
        }
        _ => bail!("give the request with --addrs or --expr (or a file with --trace)"),
    };
    let req = Request::new(args.width, op, &lanes);
    let b = bank::breakdown(arch, &config, &req).context("bad request")?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.format == "json" {
        writeln!(out, "{}", breakdown_json(arch, &req, &b))?;
    } else {
        write_table(&mut out, arch, &req, &b)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn parse_addrs(list: &str) -> anyhow::Result<[Option<u32>; 32]> {
    let parts: Vec<&str> = list.split(',').map(str::trim).collect();
    if parts.len() != 32 {
        bail!(
            "--addrs needs 32 comma-separated lane offsets (`-` = inactive), got {}",
            parts.len()
        );
    }
    let mut lanes = [None; 32];
    for (i, p) in parts.iter().enumerate() {
        if *p != "-" {
            lanes[i] = Some(
                p.parse::<u32>()
                    .map_err(|_| anyhow!("--addrs: lane {i}: `{p}` is not a byte offset or `-`"))?,
            );
        }
    }
    Ok(lanes)
}

fn breakdown_json(arch: &Arch, req: &Request, b: &bank::Breakdown) -> String {
    let mut s = String::with_capacity(4096);
    let _ = write!(
        s,
        "{{\"arch\":\"{}\",\"width\":{},\"op\":\"{}\",\"wavefronts\":{},\"ideal\":{},\"conflict_ways\":{},\"banks\":{},\"bank_bytes\":{},\"phase_lanes\":{},\"breakdown\":[",
        arch.name,
        req.width,
        req.op.name(),
        b.counts.wavefronts,
        b.counts.ideal,
        b.counts.conflict_ways,
        b.banks,
        b.bank_bytes,
        b.phase_lanes
    );
    for (i, wf) in b.wavefronts.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            "{{\"wavefront\":{i},\"phase_lane0\":{},\"slots\":[",
            wf.phase_lane0
        );
        for (j, sl) in wf.slots.iter().enumerate() {
            if j > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"lane\":{},\"bank\":{},\"word_addr\":{},\"bytes\":[{},{}],\"broadcast\":{}}}",
                sl.lane, sl.bank, sl.word_addr, sl.byte_lo, sl.byte_hi, sl.broadcast
            );
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    s
}

fn write_table(out: &mut impl Write, arch: &Arch, req: &Request, b: &bank::Breakdown) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ({}), {}-byte {}: {} wavefront(s), ideal {}, {}-way conflict; {} banks of {} bytes, phases of {} lanes",
        arch.name,
        arch.example_gpu,
        req.width,
        req.op.name(),
        b.counts.wavefronts,
        b.counts.ideal,
        b.counts.conflict_ways,
        b.banks,
        b.bank_bytes,
        b.phase_lanes
    )?;
    if b.wavefronts.is_empty() {
        writeln!(out, "(no active lane)")?;
        return Ok(());
    }
    let mut table = Table::new();
    table.set_content_arrangement(ContentArrangement::Disabled);
    let mut header = vec![Cell::new("wf")];
    header.extend((0..b.banks).map(|k| Cell::new(format!("b{k}"))));
    table.set_header(header);
    for (i, wf) in b.wavefronts.iter().enumerate() {
        let mut cells = vec![String::new(); b.banks as usize];
        for s in &wf.slots {
            let c = &mut cells[s.bank as usize];
            if !c.is_empty() {
                c.push('\n');
            }
            let _ = write!(c, "{}{}", s.lane, if s.broadcast { "*" } else { "" });
        }
        let mut row = vec![Cell::new(i)];
        row.extend(cells.into_iter().map(Cell::new));
        table.add_row(row);
    }
    writeln!(out, "{table}")?;
    writeln!(
        out,
        "cells: lanes served by that bank in that wavefront; * = word shared with other lanes"
    )?;
    Ok(())
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

fn run_trace(path: &str, base: Config) -> anyhow::Result<ExitCode> {
    crate::limits::check_trace_file(path)?;
    let input: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(path).with_context(|| format!("{path}: cannot open"))?;
        Box::new(std::io::BufReader::with_capacity(1 << 20, f))
    };
    let mut out = BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let mut bad = 0usize;
    let mut cached: Option<(String, &'static Arch)> = None;
    let mut line_buf = String::new();
    let mut reader = input;
    let mut n = 0usize;
    loop {
        line_buf.clear();
        let read = (&mut reader)
            .take(crate::limits::MAX_TRACE_LINE_BYTES + 1)
            .read_line(&mut line_buf)
            .with_context(|| format!("{path}: read error"))?;
        crate::limits::check_trace_line(read, n + 1).with_context(|| path.to_string())?;
        if read == 0 {
            break;
        }
        n += 1;
        let text = line_buf.trim_end();
        if text.is_empty() {
            continue;
        }
        match trace_one(text, base, &mut cached) {
            Ok(c) => writeln!(
                out,
                "{{\"line\":{n},\"wavefronts\":{},\"ideal\":{},\"conflict_ways\":{}}}",
                c.wavefronts, c.ideal, c.conflict_ways
            )?,
            Err(e) => {
                bad += 1;
                let msg = serde_json::to_string(&format!("{e:#}"))?;
                writeln!(out, "{{\"line\":{n},\"error\":{msg}}}")?;
            }
        }
    }
    out.flush()?;
    if bad > 0 {
        eprintln!("warpscope: {path}: {bad} of {n} line(s) could not be read; see their \"error\" lines");
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// One trace line to its counts (the per-line reader; fuzzed by fuzz/fuzz_targets/bank_trace.rs).
pub fn trace_one(
    text: &str,
    base: Config,
    cached: &mut Option<(String, &'static Arch)>,
) -> anyhow::Result<bank::Counts> {
    let owned;
    let t = match fast_line(text.as_bytes()) {
        Some(t) => t,
        None => {
            owned = serde_json::from_str::<TraceLine>(text)?;
            let mut addrs = [None; 32];
            for (d, s) in addrs.iter_mut().zip(&owned.addrs) {
                *d = *s;
            }
            FastLine {
                arch: &owned.arch,
                width: owned.width,
                op: &owned.op,
                addrs,
                n_addrs: owned.addrs.len(),
                bank_mode: owned.bank_mode,
            }
        }
    };
    let arch = match cached {
        Some((name, a)) if name == t.arch => *a,
        _ => {
            let a = Arch::parse(t.arch)?;
            *cached = Some((t.arch.to_string(), a));
            a
        }
    };
    if t.n_addrs != 32 {
        bail!(
            "\"addrs\" needs 32 entries (null = inactive lane), got {}",
            t.n_addrs
        );
    }
    let op = parse_op(t.op)?;
    let config = match t.bank_mode {
        Some(m) => Config {
            bank_mode: bank_mode(m)?,
        },
        None => base,
    };
    let req = Request::new(t.width, op, &t.addrs);
    Ok(bank::wavefronts(arch, &config, &req)?)
}

/// Reads the usual trace line without serde (several times faster); `None` for anything it does not
/// expect, which then goes through serde_json for the same result or a proper error message.
fn fast_line(b: &[u8]) -> Option<FastLine<'_>> {
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let string = |i: &mut usize| -> Option<&str> {
        if b.get(*i) != Some(&b'"') {
            return None;
        }
        let start = *i + 1;
        let len = b[start..].iter().position(|&c| c == b'"')?;
        let s = std::str::from_utf8(&b[start..start + len]).ok()?;
        if s.contains('\\') {
            return None;
        }
        *i = start + len + 1;
        Some(s)
    };
    let number = |i: &mut usize| -> Option<u64> {
        let start = *i;
        let mut v: u64 = 0;
        while *i < b.len() && b[*i].is_ascii_digit() {
            v = v.checked_mul(10)?.checked_add(u64::from(b[*i] - b'0'))?;
            *i += 1;
        }
        (*i > start && (*i - start == 1 || b[start] != b'0')).then_some(v)
    };
    let (mut arch, mut width, mut op, mut addrs, mut mode) = (None, None, None, None, None);
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        ws(&mut i);
        let key = string(&mut i)?;
        ws(&mut i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        ws(&mut i);
        match key {
            "arch" if arch.is_none() => arch = Some(string(&mut i)?),
            "op" if op.is_none() => op = Some(string(&mut i)?),
            "width" if width.is_none() => width = Some(u8::try_from(number(&mut i)?).ok()?),
            "bank_mode" if mode.is_none() => mode = Some(u8::try_from(number(&mut i)?).ok()?),
            "addrs" if addrs.is_none() => {
                if b.get(i) != Some(&b'[') {
                    return None;
                }
                i += 1;
                let mut v = [None; 32];
                let mut n = 0usize;
                ws(&mut i);
                if b.get(i) == Some(&b']') {
                    i += 1;
                } else {
                    loop {
                        ws(&mut i);
                        let x = if b[i..].starts_with(b"null") {
                            i += 4;
                            None
                        } else {
                            Some(u32::try_from(number(&mut i)?).ok()?)
                        };
                        if n < 32 {
                            v[n] = x;
                        }
                        n += 1;
                        ws(&mut i);
                        match b.get(i) {
                            Some(b',') => i += 1,
                            Some(b']') => {
                                i += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                addrs = Some((v, n));
            }
            _ => return None,
        }
        ws(&mut i);
        match b.get(i) {
            Some(b',') => i += 1,
            Some(b'}') => {
                i += 1;
                break;
            }
            _ => return None,
        }
    }
    ws(&mut i);
    if i != b.len() {
        return None;
    }
    let (addrs, n_addrs) = addrs?;
    Some(FastLine {
        arch: arch?,
        width: width?,
        op: op?,
        addrs,
        n_addrs,
        bank_mode: mode,
    })
}

/// A trace line as [`fast_line`] reads it, borrowing from the line.
struct FastLine<'a> {
    arch: &'a str,
    width: u8,
    op: &'a str,
    addrs: [Option<u32>; 32],
    n_addrs: usize,
    bank_mode: Option<u8>,
}

/// A byte-offset expression in `lane` (hand-written precedence climbing, C precedence).
#[derive(Debug)]
enum Expr {
    Num(i64),
    Lane,
    Neg(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
}

const LEVELS: &[&[&str]] = &[
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Expr {
    fn parse(text: &str) -> anyhow::Result<Expr> {
        let toks = lex(text)?;
        let mut pos = 0;
        let e = parse_level(&toks, &mut pos, 0)?;
        if pos != toks.len() {
            bail!("unexpected `{}` at position {}", toks[pos].1, toks[pos].0 + 1);
        }
        Ok(e)
    }

    fn eval(&self, lane: i64) -> anyhow::Result<i64> {
        Ok(match self {
            Expr::Num(n) => *n,
            Expr::Lane => lane,
            Expr::Neg(e) => e.eval(lane)?.checked_neg().ok_or_else(|| anyhow!("overflow"))?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(lane)?, b.eval(lane)?);
                let r = match *op {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" | "%" if b == 0 => bail!("division by zero"),
                    "/" => a.checked_div(b),
                    "%" => a.checked_rem(b),
                    "&" => Some(a & b),
                    "|" => Some(a | b),
                    "^" => Some(a ^ b),
                    "<<" => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
                    ">>" => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
                    _ => unreachable!("operators come from LEVELS"),
                };
                r.ok_or_else(|| anyhow!("overflow in `{op}`"))?
            }
        })
    }
}

fn lex(text: &str) -> anyhow::Result<Vec<(usize, String)>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut toks = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            toks.push((s, text[s..i].to_string()));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[s..i];
            if word != "lane" {
                bail!(
                    "unknown name `{word}` at position {} (only `lane` is known)",
                    s + 1
                );
            }
            toks.push((s, word.to_string()));
        } else if text[i..].starts_with("<<") || text[i..].starts_with(">>") {
            toks.push((i, text[i..i + 2].to_string()));
            i += 2;
        } else if b"+-*/%&|^()".contains(&c) {
            toks.push((i, (c as char).to_string()));
            i += 1;
        } else {
            bail!(
                "unexpected character `{}` at position {}",
                &text[i..].chars().next().unwrap_or('?'),
                i + 1
            );
        }
    }
    Ok(toks)
}

fn parse_level(toks: &[(usize, String)], pos: &mut usize, level: usize) -> anyhow::Result<Expr> {
    if level == LEVELS.len() {
        return parse_unary(toks, pos);
    }
    let mut lhs = parse_level(toks, pos, level + 1)?;
    while let Some(op) = toks
        .get(*pos)
        .and_then(|t| LEVELS[level].iter().find(|o| **o == t.1))
    {
        *pos += 1;
        let rhs = parse_level(toks, pos, level + 1)?;
        lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
    }
    Ok(lhs)
}

fn parse_unary(toks: &[(usize, String)], pos: &mut usize) -> anyhow::Result<Expr> {
    let Some((at, t)) = toks.get(*pos) else {
        bail!("expression ends too early")
    };
    *pos += 1;
    match t.as_str() {
        "-" => Ok(Expr::Neg(Box::new(parse_unary(toks, pos)?))),
        "(" => {
            let e = parse_level(toks, pos, 0)?;
            match toks.get(*pos) {
                Some((_, c)) if c == ")" => {
                    *pos += 1;
                    Ok(e)
                }
                _ => bail!("`(` at position {} is not closed", at + 1),
            }
        }
        "lane" => Ok(Expr::Lane),
        s if s.as_bytes()[0].is_ascii_digit() => {
            let v = if let Some(h) = s.strip_prefix("0x") {
                i64::from_str_radix(h, 16)
            } else {
                s.parse::<i64>()
            };
            Ok(Expr::Num(v.map_err(|_| {
                anyhow!("bad number `{s}` at position {}", at + 1)
            })?))
        }
        s => bail!("unexpected `{s}` at position {}", at + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(e: &str, lane: i64) -> i64 {
        Expr::parse(e).unwrap().eval(lane).unwrap()
    }

    #[test]
    fn expressions() {
        assert_eq!(eval("lane*33*4", 3), 396);
        assert_eq!(eval("(lane ^ 1) << 3", 2), 24);
        assert_eq!(eval("lane / 2 * 8 + 4 % 3", 5), 17);
        assert_eq!(eval("1 | 2 & 3", 0), 3);
        assert_eq!(eval("-lane + 40", 8), 32);
        assert_eq!(eval("0x10 + lane", 1), 17);
        assert_eq!(eval("lane >> 1 << 1", 7), 6);
        for bad in ["lane +", "(lane", "tid*4", "lane $ 2", "3 4"] {
            assert!(Expr::parse(bad).is_err(), "{bad}");
        }
        assert!(Expr::parse("lane / 0").unwrap().eval(1).is_err());
    }

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
            assert_eq!(&a.addrs[..a.n_addrs], &b.addrs[..]);
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

    #[test]
    fn addr_lists() {
        let mut s = vec!["-".to_string()];
        s.extend((1..32).map(|l| (l * 8).to_string()));
        let lanes = parse_addrs(&s.join(",")).unwrap();
        assert_eq!((lanes[0], lanes[31]), (None, Some(248)));
        assert!(parse_addrs("0,4").unwrap_err().to_string().contains("got 2"));
    }
}
