//! `--arg tensormap:KEY=VALUE,...`: a tensor map (`CUtensorMap`, 128 bytes, what
//! `cuTensorMapEncodeTiled` makes) passed by value, over one of the launch's buffer arguments:
//!
//! `tensormap:buf=0,type=f32,dims=64x64,box=32x8,swizzle=128B` (dimension 0, the contiguous
//! one, first). Keys: `buf` (the index of the `buf:` argument holding the tensor), `type` (`u8`,
//! `u16`, `u32`, `s32`, `u64`, `s64`, `f16`, `f32`, `f64`, `bf16`, `f32ftz`, `tf32`, `tf32ftz`),
//! `dims`, `box`; optional `strides` (bytes of dimensions 1 and up; packed by default), `estrides`
//! (element strides, 1 by default), `offset` (bytes into the buffer, 0), `swizzle` (`none`, `32B`,
//! `64B`, `128B`), `fill` (`zero`, `nan`: NaN-request-zero-FMA), `l2` (`none`, `64B`, `128B`,
//! `256B`), `interleave` (`none`, `16B`, `32B`). The map is checked by the driver's rules and the
//! tensor must lie inside its buffer.

use warpscope_emu::Arg;
use warpscope_emu::tma::{Layout, TensorMap};

use crate::error::{Error, Result};

fn bad(text: &str, reason: impl std::fmt::Display) -> Error {
    Error::input(format!("--arg `{text}`: {reason}"))
}

const TYPES: [&str; 13] = [
    "u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32ftz", "tf32", "tf32ftz",
];

fn list(text: &str, key: &str, v: &str) -> Result<Vec<u64>> {
    v.split('x')
        .map(|n| {
            n.trim().parse::<u64>().map_err(|_| {
                bad(
                    text,
                    format!("`{key}={v}`: `{n}` is not a number (write AxBxC, dimension 0 first)"),
                )
            })
        })
        .collect()
}

fn choice(text: &str, key: &str, v: &str, names: &[&str]) -> Result<u8> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(v))
        .map(|i| i as u8)
        .ok_or_else(|| bad(text, format!("`{key}={v}`: one of {}", names.join(", "))))
}

/// The `tensormap:` argument `text` (index `index`) over the launch's other arguments `args` (the
/// buffer it names must be among them).
pub fn tensormap_arg(text: &str, index: usize, args: &[Option<Arg>]) -> Result<Arg> {
    let body = text.strip_prefix("tensormap:").unwrap_or(text);
    let mut buf = None;
    let mut m = TensorMap {
        layout: Layout::Tiled,
        rank: 0,
        dtype: u8::MAX,
        interleave: 0,
        swizzle: 0,
        l2: 0,
        fill: 0,
        address: 0,
        dims: [0; 5],
        strides: [0; 4],
        boxes: [0; 5],
        estrides: [1; 5],
        channels: 0,
        pixels: 0,
        lower: [0; 3],
        upper: [0; 3],
    };
    let (mut dims, mut boxes, mut strides, mut estrides) = (None, None, None, None);
    let mut offset = 0u64;
    for kv in body.split(',').filter(|s| !s.is_empty()) {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(bad(text, format!("`{kv}` is not KEY=VALUE")));
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "buf" => {
                buf = Some(
                    v.parse::<usize>()
                        .map_err(|_| bad(text, format!("`buf={v}`: an argument index")))?,
                );
            }
            "type" => m.dtype = choice(text, k, v, &TYPES)?,
            "dims" => dims = Some(list(text, k, v)?),
            "box" => boxes = Some(list(text, k, v)?),
            "strides" => strides = Some(list(text, k, v)?),
            "estrides" => estrides = Some(list(text, k, v)?),
            "offset" => {
                offset = v
                    .parse()
                    .map_err(|_| bad(text, format!("`offset={v}`: a byte count")))?
            }
            "swizzle" => m.swizzle = choice(text, k, v, &["none", "32B", "64B", "128B"])?,
            "fill" => m.fill = choice(text, k, v, &["zero", "nan"])?,
            "l2" => m.l2 = choice(text, k, v, &["none", "64B", "128B", "256B"])?,
            "interleave" => m.interleave = choice(text, k, v, &["none", "16B", "32B"])?,
            _ => {
                return Err(bad(
                    text,
                    format!(
                        "unknown key `{k}` (buf, type, dims, box, strides, estrides, offset, swizzle, fill, l2, interleave)"
                    ),
                ));
            }
        }
    }
    if m.dtype == u8::MAX {
        return Err(bad(text, format!("needs `type=` ({})", TYPES.join(", "))));
    }
    let (Some(dims), Some(boxes)) = (dims, boxes) else {
        return Err(bad(
            text,
            "needs `dims=AxB...` and `box=AxB...` (dimension 0 first)",
        ));
    };
    let r = dims.len();
    if !(1..=5).contains(&r) {
        return Err(bad(text, format!("{r} dimensions: a tensor map has 1 to 5")));
    }
    if boxes.len() != r {
        return Err(bad(
            text,
            format!("`box` has {} dimensions, `dims` {r}", boxes.len()),
        ));
    }
    m.rank = r as u8;
    let esz = m.elem_bytes();
    for i in 0..r {
        m.dims[i] =
            u32::try_from(dims[i]).map_err(|_| bad(text, format!("dims[{i}] = {} is too large", dims[i])))?;
        m.boxes[i] = u16::try_from(boxes[i]).unwrap_or(u16::MAX);
    }
    let strides = match strides {
        Some(s) if s.len() == r - 1 => s,
        Some(s) => {
            return Err(bad(
                text,
                format!(
                    "`strides` has {} values: one per dimension after the first ({})",
                    s.len(),
                    r - 1
                ),
            ));
        }
        None => {
            let mut s = Vec::new();
            let mut acc = esz;
            for &d in &dims[..r - 1] {
                acc *= d;
                s.push(acc);
            }
            s
        }
    };
    m.strides[..r - 1].copy_from_slice(&strides);
    if let Some(e) = estrides {
        if e.len() != r {
            return Err(bad(
                text,
                format!("`estrides` has {} values, `dims` {r}", e.len()),
            ));
        }
        for (d, &v) in m.estrides.iter_mut().zip(&e) {
            *d = u8::try_from(v).unwrap_or(u8::MAX);
        }
    }
    let Some(bi) = buf else {
        return Err(bad(
            text,
            "needs `buf=N`: the index of the buffer argument that holds the tensor",
        ));
    };
    let Some(Some(Arg::Buffer(b))) = args.get(bi) else {
        return Err(bad(
            text,
            format!("`buf={bi}`: argument {bi} is not a `buf:` argument"),
        ));
    };
    // the tensor's extent: its last element's end
    let last = (0..r).map(|i| (dims[i] - 1) * m.stride(i)).sum::<u64>() + esz + offset;
    if last > b.len() as u64 {
        return Err(bad(
            text,
            format!(
                "the tensor ends at byte {last} of buffer argument {bi}, which holds {} bytes",
                b.len()
            ),
        ));
    }
    let all: Vec<Arg> = args.iter().map(|a| a.clone().unwrap_or(Arg::U64(0))).collect();
    let (bases, _) = warpscope_emu::buffer_layout(&all);
    m.address = bases[bi].unwrap_or(0) + offset;
    m.check()
        .map_err(|why| bad(text, format!("not a valid tensor map (argument {index}): {why}")))?;
    Ok(Arg::Bytes(m.to_bytes().to_vec()))
}
