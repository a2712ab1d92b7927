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
//! `ideal` and `conflict_ways`; a bad line (not JSON, not UTF-8, a bad request) gives
//! `{"line":N,"error":"..."}`, processing goes on, and the exit status is 2 at the end. A line over
//! the length limit (`limits::MAX_TRACE_LINE_BYTES`) stops the run. The trace is read in batches of
//! whole lines, modelled in parallel blocks (rayon) and written in order: the output does not depend
//! on the number of threads.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use warpscope_model::arch::Arch;
use warpscope_model::bank::{self, Config, Request};

use crate::addr_expr::Expr;
use crate::bank_trace::{bank_mode, parse_op, run_trace};
use crate::output::{Block, Column, Format, OutputArgs, Tabular, emit_blocks};

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
    #[command(flatten)]
    output: OutputArgs,
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
    if args.output.format == Format::Json {
        writeln!(out, "{}", breakdown_json(arch, &req, &b))?;
    } else {
        let blocks = blocks(arch, &req, &b);
        emit_blocks(&mut out, args.output.format, args.output.color(), &(), &blocks)?;
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
        "{{\"arch\":\"{}\",\"width\":{},\"op\":\"{}\",\"wavefronts\":{},\"ideal\":{},\"conflict_ways\":{},\"banks\":{},\"bank_bytes\":{},\"phase_lanes\":{},\"rules_basis\":{},\"breakdown\":[",
        arch.name,
        req.width,
        req.op.name(),
        b.counts.wavefronts,
        b.counts.ideal,
        b.counts.conflict_ways,
        b.banks,
        b.bank_bytes,
        b.phase_lanes,
        warpscope_measure::basis::json(arch)
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

/// The picture of one request (banks across, wavefronts down, lanes in the cells) for people, and
/// one CSV row per (wavefront, lane) slot.
fn blocks(arch: &Arch, req: &Request, b: &bank::Breakdown) -> Vec<Block> {
    let mut blocks = vec![Block::Text(format!(
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
    ))];
    blocks.push(Block::Text(format!(
        "bank rule: {}",
        arch.provenance().bank.describe()
    )));
    let mut csv = Tabular::new(
        "",
        [
            "wavefront",
            "phase_lane0",
            "lane",
            "bank",
            "word_addr",
            "byte_lo",
            "byte_hi",
            "broadcast",
        ]
        .map(|c| Column::new(c, c))
        .to_vec(),
    );
    for (i, wf) in b.wavefronts.iter().enumerate() {
        for sl in &wf.slots {
            csv.row([
                i.to_string(),
                wf.phase_lane0.to_string(),
                sl.lane.to_string(),
                sl.bank.to_string(),
                sl.word_addr.to_string(),
                sl.byte_lo.to_string(),
                sl.byte_hi.to_string(),
                sl.broadcast.to_string(),
            ]);
        }
    }
    if b.wavefronts.is_empty() {
        blocks.push(Block::Text("(no active lane)".into()));
        blocks.push(Block::CsvTable(csv));
        return blocks;
    }
    let mut cols = vec![Column::new("wf", "wf")];
    cols.extend((0..b.banks).map(|k| Column::new(format!("b{k}"), format!("b{k}"))));
    let mut picture = Tabular::new("", cols);
    for (i, wf) in b.wavefronts.iter().enumerate() {
        let mut cells = vec![String::new(); b.banks as usize];
        for s in &wf.slots {
            let c = &mut cells[s.bank as usize];
            if !c.is_empty() {
                c.push('\n');
            }
            let _ = write!(c, "{}{}", s.lane, if s.broadcast { "*" } else { "" });
        }
        picture.row(std::iter::once(i.to_string()).chain(cells));
    }
    blocks.push(Block::ShownTable(picture));
    blocks.push(Block::CsvTable(csv));
    blocks.push(Block::Text(
        "cells: lanes served by that bank in that wavefront; * = word shared with other lanes".into(),
    ));
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addr_lists() {
        let mut s = vec!["-".to_string()];
        s.extend((1..32).map(|l| (l * 8).to_string()));
        let lanes = parse_addrs(&s.join(",")).unwrap();
        assert_eq!((lanes[0], lanes[31]), (None, Some(248)));
        assert!(parse_addrs("0,4").unwrap_err().to_string().contains("got 2"));
    }
}
