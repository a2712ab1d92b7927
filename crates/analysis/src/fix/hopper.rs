//! The fix advisor for Hopper's asynchronous operand tiles: the swizzle mode of a `wgmma` operand
//! tile's matrix descriptor, and of a TMA load's tensor map, judged by the wavefronts of the
//! kernel's own `ld`/`st`/`ldmatrix`/`cp.async` accesses to the tile (the same counting as
//! [`super::evaluate`]).
//!
//! * **wgmma** ([`wgmma_advice`]): a K-major operand (A from a descriptor, or B) of `R` rows (64
//!   for A, N for B) and `W` 16-byte chunks of K, laid out as its descriptors name it (no swizzle,
//!   32, 64 or 128 bytes) and filled or read back by the threads. Each mode `Y` has one canonical
//!   tile, CuTe's `tile_to_shape(GMMA::Layout_K_<Y>_Atom<T>{}, (R, K))` (atoms tiled along M/N
//!   first): without swizzle chunk `(mn, J)` is at `((J * R/8 + mn/8) * 128 + (mn % 8) * 16)`
//!   (LBO = 16 R, SBO = 128); with a swizzle of `S` bytes at
//!   `((J / (S/16)) * R + mn) * S + (J % (S/16)) * 16`, XOR the address's bits 7.. into bits 4..
//!   (LBO unused, SBO = 8 S). Every recorded access to the tile is moved chunk by chunk to the
//!   mode's place and counted again; the mode with the fewest wavefronts wins (ties: the current
//!   mode, then the wider swizzle). The proposal's descriptors are checked against the
//!   emulator's descriptor addressing (`warpscope_emu::wgmma::operand_addr`, measured on an
//!   H100): every chunk each of the kernel's `wgmma.mma_async` reads must be where the moved fill
//!   puts it. Supported: K-major tiles whose descriptors differ only in their K step, dense (the
//!   tile's chunks fill its bytes), with a base offset of 0; swizzled proposals need the tile
//!   aligned to 8 S bytes (CuTe's atoms assume the swizzle's row phase starts at the tile).
//! * **TMA** ([`tma_advice`]): a tiled load with `SWIZZLE_NONE` whose box the threads read with
//!   conflicting `ld.shared`/`ldmatrix`. Each swizzle `S` (32, 64, 128 bytes) no narrower than a
//!   box row puts row `r` at `dst + r S` (rows narrower than `S` padded) and XORs the address's
//!   bits 7.. into bits 4.. ([`warpscope_emu::tma::swizzle`], bit-exact on an H200); the reads
//!   move the same way and are counted again.
//!
//! The wavefronts are predictions from the recorded accesses. [`verify`] re-emulates each
//! proposal: the threads' accesses to the tile moved by a [`warpscope_emu::SharedRemap`] (a
//! permutation of its 16-byte chunks) while the tensor core reads through the new descriptors, or
//! the TMA writes with the new swizzle, straight into the changed layout
//! ([`warpscope_emu::AsyncLayout`]); the proposal is verified when every output buffer equals the
//! original launch's (`warpscope fix` does this; `warpscope run --fix`, whose launches run on the
//! program's own memory, does not, and says the proposal is a prediction).
//!
//! CuTe correspondence (an assumption from CuTe's `mma_sm90_desc.hpp` definitions, not measured):
//! `GMMA::Layout_K_SW{32,64,128}_Atom<T>` is `Swizzle<B,4,3> o smem_ptr[b]((_8,_E):(_E,_1))` with
//! `B = 1, 2, 3` and `E = S / sizeof(T)` elements per atom row, the swizzle acting on the byte
//! address (CuTe's swizzled smem pointer), which is the descriptor's XOR of address bits 7-9 into
//! 4-6; `Layout_K_INTER_Atom<T>` is `Swizzle<0,4,3> o smem_ptr[b]((_8,_E):(_E,_1))` with `E = 16 /
//! sizeof(T)` (one core matrix).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;
use warpscope_emu::wgmma::{Desc, operand_addr, swizzle};
use warpscope_ptx::inst::{WgTy, WgmmaForm};

use super::{Access, ArrayInfo, Cost, FixError, Target, Trace, array_of, evaluate};

/// One operand descriptor a `wgmma.mma_async` used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DescUse {
    /// The instruction.
    pub pc: u32,
    /// B (else A).
    pub b: bool,
    /// The 64-bit descriptor.
    pub desc: u64,
    /// Rows of the operand (64 for A, N for B).
    pub rows: u32,
    /// MN-major (transposed) operand.
    pub mn_major: bool,
    /// The element type's bits and CuTe name.
    pub ty: (u32, &'static str),
}

/// One tiled TMA load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TmaLoad {
    /// The instruction.
    pub pc: u32,
    /// Shared window offset of the box.
    pub dst: u64,
    /// `CUtensorMapSwizzle` (0 none, 1 32B, 2 64B, 3 128B).
    pub swizzle: u8,
    /// Bytes of a box row.
    pub row_bytes: u64,
    /// Box rows.
    pub rows: u64,
}

/// What the recorder keeps of a launch's `wgmma` descriptors and TMA loads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HopperTrace {
    /// Distinct descriptor uses.
    pub descs: BTreeSet<DescUse>,
    /// Distinct TMA loads.
    pub tma_loads: BTreeSet<TmaLoad>,
}

impl HopperTrace {
    /// Adds another block's.
    pub fn merge(&mut self, o: HopperTrace) {
        self.descs.extend(o.descs);
        self.tma_loads.extend(o.tma_loads);
    }

    /// A `wgmma.mma_async`'s descriptors.
    pub fn wgmma(&mut self, pc: u32, form: WgmmaForm, a: Option<u64>, b: u64) {
        if let Some(a) = a {
            self.descs.insert(DescUse {
                pc,
                b: false,
                desc: a,
                rows: 64,
                mn_major: form.has(WgmmaForm::TRANS_A),
                ty: cute_type(form.aty),
            });
        }
        self.descs.insert(DescUse {
            pc,
            b: true,
            desc: b,
            rows: u32::from(form.n),
            mn_major: form.has(WgmmaForm::TRANS_B),
            ty: cute_type(form.bty),
        });
    }
}

/// The arrays a `wgmma` descriptor starts in or a TMA load writes.
pub fn arrays_used(h: &HopperTrace, arrays: &[ArrayInfo]) -> BTreeSet<usize> {
    h.descs
        .iter()
        .filter_map(|u| array_of(arrays, Desc::decode(u.desc).start))
        .chain(h.tma_loads.iter().filter_map(|t| array_of(arrays, t.dst as u32)))
        .collect()
}

fn cute_type(t: WgTy) -> (u32, &'static str) {
    let name = match t {
        WgTy::F16 => "half_t",
        WgTy::BF16 => "bfloat16_t",
        WgTy::TF32 => "tfloat32_t",
        WgTy::E4M3 => "float_e4m3_t",
        WgTy::E5M2 => "float_e5m2_t",
        WgTy::S8 => "int8_t",
        WgTy::U8 => "uint8_t",
        WgTy::B1 => "uint1b_t",
        WgTy::F32 => "float",
        WgTy::S32 => "int32_t",
    };
    (t.bits(), name)
}

/// Wavefronts under one mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModeCost {
    /// `none`, `32B`, `64B`, `128B`.
    pub mode: String,
    /// Wavefronts of the tile's accesses.
    pub wavefronts: u64,
    /// Their conflict-free wavefronts.
    pub ideal: u64,
}

/// A swizzle proposal for a `wgmma` operand tile or a TMA box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HopperSuggestion {
    /// `wgmma_swizzle` or `tma_swizzle`.
    pub kind: String,
    /// The shared array holding the tile.
    pub array: String,
    /// Which tile, in words.
    pub tile: String,
    /// The instructions (`wgmma.mma_async` or the TMA load).
    pub pcs: Vec<u32>,
    /// The tile's first byte (shared window offset) and size.
    pub tile_offset: u64,
    /// Bytes of the tile (after the change).
    pub tile_bytes: u64,
    /// The mode as written.
    pub current: String,
    /// The proposed mode.
    pub proposed: String,
    /// Every mode judged.
    pub modes: Vec<ModeCost>,
    /// Wavefronts of the tile's accesses as written.
    pub wavefronts_before: u64,
    /// Predicted after the change.
    pub wavefronts_after: u64,
    /// Conflict-free.
    pub ideal: u64,
    /// The descriptor change (wgmma).
    pub descriptor: Option<String>,
    /// The tensor-map change (TMA).
    pub tensor_map: Option<String>,
    /// The change to the threads' addresses.
    pub access_change: String,
    /// The CuTe layout.
    pub cute: String,
    /// Extra shared memory, bytes.
    pub extra_shared_bytes: u64,
    /// How the proposal is backed.
    pub basis: String,
    /// The change as the emulator applies it, for [`verify`].
    #[serde(skip)]
    pub rerun: Option<(warpscope_emu::SharedRemap, warpscope_emu::AsyncLayout)>,
}

fn mode_name(sw: u32) -> String {
    if sw == 0 { "none".into() } else { format!("{sw}B") }
}

/// Counts the trace's accesses that touch `[lo, hi)`, each lane's chunk moved by `map` (a 16-byte
/// chunk offset from `lo` to the new one). `None`: an access straddles a chunk, so the change
/// would split it.
fn tile_cost(
    trace: &Trace,
    arrays: &[ArrayInfo],
    target: &Target,
    lo: u64,
    hi: u64,
    map: &dyn Fn(u64) -> u64,
) -> Result<Option<(Cost, u64)>, FixError> {
    let mut moved: Vec<(Access, u64)> = Vec::new();
    for (acc, n) in &trace.accesses {
        let inside = |l: usize| acc.mask >> l & 1 == 1 && (lo..hi).contains(&u64::from(acc.addrs[l]));
        if !(0..32).any(inside) {
            continue;
        }
        let mut a = acc.clone();
        for l in (0..32).filter(|&l| inside(l)) {
            let o = u64::from(acc.addrs[l]) - lo;
            if o % 16 + u64::from(acc.width) > 16 {
                return Ok(None);
            }
            a.addrs[l] = (lo + map(o / 16) * 16 + o % 16) as u32;
        }
        moved.push((a, *n));
    }
    if moved.is_empty() {
        return Ok(None);
    }
    let ev = evaluate(&Trace::from_accesses(moved), arrays, &[], target)?;
    let mut c = ev.unattributed;
    for p in &ev.per_array {
        c.wavefronts += p.wavefronts;
        c.ideal += p.ideal;
    }
    Ok(Some((c, ev.unmodelled.iter().sum())))
}

/// The chunk offset (from the tile's start, in chunks) of K-major chunk `(mn, j)` in the canonical
/// tile of mode `sw` (0, 32, 64, 128), before the swizzle's XOR.
fn canonical(sw: u32, rows: u32, mn: u32, j: u32) -> u32 {
    if sw == 0 {
        (j * rows / 8 + mn / 8) * 8 + mn % 8
    } else {
        let per = sw / 16;
        (((j / per) * rows + mn) * sw + (j % per) * 16) / 16
    }
}

/// Descriptor fields: start, LBO, SBO (bytes) and the mode into `d`'s other bits.
fn encode(d: u64, start: u32, lbo: u32, sbo: u32, sw: u32) -> u64 {
    let field = |v: u32| u64::from(v >> 4) & 0x3fff;
    let mode: u64 = match sw {
        128 => 1,
        64 => 2,
        32 => 3,
        _ => 0,
    };
    let keep = d & !(0x3fff | 0x3fff << 16 | 0x3fff << 32 | 7 << 49 | 3 << 62);
    keep | field(start) | field(lbo) << 16 | field(sbo) << 32 | mode << 62
}

/// `Swizzle<B,4,3> o smem_ptr[b]((_8,_E):(_E,_1))` of mode `sw` for `ty`.
fn cute_atom(sw: u32, ty: (u32, &'static str)) -> String {
    let (name, b) = match sw {
        0 => ("INTER", 0),
        32 => ("SW32", 1),
        64 => ("SW64", 2),
        _ => ("SW128", 3),
    };
    let bytes = if sw == 0 { 16 } else { sw };
    let e = bytes * 8 / ty.0.max(1);
    format!(
        "GMMA::Layout_K_{name}_Atom<{t}> = Swizzle<{b},4,3> o smem_ptr[{bits}b]((_8,_{e}):(_{e},_1))",
        t = ty.1,
        bits = ty.0
    )
}

/// Swizzle proposals for the kernel's `wgmma` operand tiles; notes for the tiles it cannot judge.
pub fn wgmma_advice(
    trace: &Trace,
    arrays: &[ArrayInfo],
    target: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<HopperSuggestion>, FixError> {
    // one tile: the operand's descriptors with equal layout fields, in one array
    type Key = (usize, bool, u32, u32, u32, u32, bool, (u32, &'static str), u32);
    let mut groups: BTreeMap<Key, Vec<(u32, u64)>> = BTreeMap::new();
    for u in &trace.hopper.descs {
        let d = Desc::decode(u.desc);
        let Some(i) = array_of(arrays, d.start) else {
            continue;
        };
        groups
            .entry((
                i,
                u.b,
                d.swizzle,
                d.lbo,
                d.sbo,
                u.rows,
                u.mn_major,
                u.ty,
                d.base_offset,
            ))
            .or_default()
            .push((u.pc, u.desc));
    }
    let mut out = Vec::new();
    for ((i, is_b, sw, lbo, sbo, rows, mn_major, ty, base_off), uses) in groups {
        let which = if is_b { "B" } else { "A" };
        let a = &arrays[i];
        let pcs: Vec<u32> = uses
            .iter()
            .map(|u| u.0)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let say = |why: &str| {
            format!(
                "{}: the wgmma {which} tile (pcs {pcs:?}) is not judged: {why}",
                a.name
            )
        };
        if mn_major {
            notes.push(say("MN-major (transposed) operands are not supported yet"));
            continue;
        }
        if base_off != 0 {
            notes.push(say("its descriptors have a nonzero base offset"));
            continue;
        }
        let base = uses.iter().map(|u| Desc::decode(u.1).start).min().unwrap_or(0);
        // each descriptor's K step, in chunks
        let mut steps = Vec::new();
        let mut ok = true;
        for &(_, d) in &uses {
            let off = Desc::decode(d).start - base;
            let j = match sw {
                0 if lbo > 0 && off.is_multiple_of(lbo) => off / lbo,
                0 => {
                    ok = false;
                    0
                }
                _ if off.is_multiple_of(16) && off / 16 < sw / 16 => off / 16,
                _ => {
                    ok = false;
                    0
                }
            };
            steps.push(j);
        }
        if !ok {
            notes.push(say("its descriptors step along M/N or across swizzle atoms"));
            continue;
        }
        let width = steps.iter().max().copied().unwrap_or(0) + 2;
        let old = |mn: u32, j: u32| -> u32 {
            if sw == 0 {
                base + (mn / 8) * sbo + j * lbo + (mn % 8) * 16
            } else {
                swizzle(base + (mn / 8) * sbo + (mn % 8) * sw + 16 * j, sw)
            }
        };
        // the descriptors read what the layout says, and the tile is dense
        let reads_agree = uses.iter().zip(&steps).all(|(&(_, d), &s)| {
            let d = Desc::decode(d);
            (0..rows).all(|mn| (0..2).all(|j| operand_addr(&d, false, mn, 16 * j) == old(mn, s + j)))
        });
        let chunks: BTreeSet<u32> = (0..rows)
            .flat_map(|mn| (0..width).map(move |j| (mn, j)))
            .map(|(mn, j)| old(mn, j))
            .collect();
        let size = rows * width * 16;
        let dense = chunks.len() as u32 == rows * width
            && chunks.first() == Some(&base)
            && chunks.last() == Some(&(base + size - 16))
            && chunks.iter().all(|c| c % 16 == 0);
        if !reads_agree || !dense {
            notes.push(say("its descriptors do not describe one dense tile"));
            continue;
        }
        // old chunk -> (mn, j)
        let mut logical: HashMap<u32, (u32, u32)> = HashMap::new();
        for mn in 0..rows {
            for j in 0..width {
                logical.insert((old(mn, j) - base) / 16, (mn, j));
            }
        }
        let (lo, hi) = (u64::from(base), u64::from(base + size));
        let mut modes = Vec::new();
        let mut best: Option<(u32, Cost)> = None;
        let mut current = None;
        let mut unmodelled_base = 0;
        for y in [sw, 0, 32, 64, 128] {
            if modes.iter().any(|m: &ModeCost| m.mode == mode_name(y)) {
                continue;
            }
            if y != 0 && ((width * 16) % y != 0 || base % (8 * y) != 0) {
                continue;
            }
            let new = |mn: u32, j: u32| -> u32 {
                let at = base + canonical(y, rows, mn, j) * 16;
                swizzle(at, y)
            };
            let map = |c: u64| -> u64 {
                match logical.get(&(c as u32)) {
                    Some(&(mn, j)) => u64::from((new(mn, j) - base) / 16),
                    None => c,
                }
            };
            let Some((cost, unmod)) = tile_cost(trace, arrays, target, lo, hi, &map)? else {
                break;
            };
            if y == sw {
                current = Some(cost);
                unmodelled_base = unmod;
            } else if unmod > unmodelled_base {
                continue;
            }
            modes.push(ModeCost {
                mode: mode_name(y),
                wavefronts: cost.wavefronts,
                ideal: cost.ideal,
            });
            let better = match best {
                None => true,
                Some((b, c)) => {
                    cost.wavefronts < c.wavefronts || (cost.wavefronts == c.wavefronts && b != sw && y > b)
                }
            };
            if better {
                best = Some((y, cost));
            }
        }
        let (Some(before), Some((y, after))) = (current, best) else {
            continue;
        };
        if y == sw || after.wavefronts >= before.wavefronts {
            if before.wavefronts > before.ideal {
                notes.push(format!(
                    "{}: no descriptor swizzle mode lowers the {} wavefronts of the wgmma {which} tile's accesses (ideal {})",
                    a.name, before.wavefronts, before.ideal
                ));
            }
            continue;
        }
        // the new descriptors, checked against the emulator's descriptor addressing
        let (nlbo, nsbo) = if y == 0 { (16 * rows, 128) } else { (16, 8 * y) };
        let mut verified = true;
        let mut desc_lines = Vec::new();
        let mut new_descs = Vec::new();
        for (&(pc, d), &s) in uses.iter().zip(&steps) {
            let start = base + canonical(y, rows, 0, s) * 16;
            let nd = encode(d, start, nlbo, nsbo, y);
            let dd = Desc::decode(nd);
            let new = |mn: u32, j: u32| swizzle(base + canonical(y, rows, mn, j) * 16, y);
            verified &=
                (0..rows).all(|mn| (0..2).all(|j| operand_addr(&dd, false, mn, 16 * j) == new(mn, s + j)));
            desc_lines.push(format!("pc {pc}: {d:#018x} -> {nd:#018x}"));
            new_descs.push((d, nd));
        }
        desc_lines.dedup();
        if !verified {
            notes.push(format!(
                "{}: the {} layout proposed for the wgmma {which} tile does not match the descriptor addressing; not proposed",
                a.name,
                mode_name(y)
            ));
            continue;
        }
        let bits = match y {
            128 => 1,
            64 => 2,
            32 => 3,
            _ => 0,
        };
        let k_elems = width * 16 * 8 / ty.0.max(1);
        let access_change = if y == 0 {
            format!(
                "byte k of row mn (k < {}) goes to tile + ((k / 16) * {} + mn / 8) * 128 + (mn % 8) * 16 + k % 16",
                width * 16,
                rows / 8
            )
        } else {
            format!(
                "byte k of row mn (k < {}) goes to a = tile + ((k / {y}) * {rows} + mn) * {y} + k % {y}, then a ^= ((a >> 7) & {}) << 4 (the tile {}-byte aligned)",
                width * 16,
                y / 16 - 1,
                8 * y
            )
        };
        out.push(HopperSuggestion {
            kind: "wgmma_swizzle".into(),
            array: a.name.clone(),
            tile: format!("wgmma {which} operand, {rows} x {k_elems} {} (K-major)", ty.1),
            pcs: pcs.clone(),
            tile_offset: lo,
            tile_bytes: u64::from(size),
            current: mode_name(sw),
            proposed: mode_name(y),
            modes,
            wavefronts_before: before.wavefronts,
            wavefronts_after: after.wavefronts,
            ideal: after.ideal,
            descriptor: Some(format!(
                "swizzle bits 62-63 = {bits} ({}), LBO = {nlbo} bytes{}, SBO = {nsbo} bytes; start of the K step at byte k: tile + {}; {}",
                mode_name(y),
                if y == 0 { "" } else { " (unused)" },
                if y == 0 {
                    format!("(k / 16) * {}", 16 * rows)
                } else {
                    format!("(k / {y}) * {} + k % {y}", rows * y)
                },
                desc_lines.join(", ")
            )),
            tensor_map: None,
            access_change,
            cute: {
                let atom = cute_atom(y, ty);
                let name = atom.split(" = ").next().unwrap_or(&atom);
                format!("tile_to_shape({name}{{}}, Shape<_{rows},_{k_elems}>{{}}), where {atom}")
            },
            extra_shared_bytes: 0,
            basis: "prediction: the tile's recorded accesses moved and re-counted; the new descriptors \
                    checked against the emulator's descriptor addressing (measured on an H100); not re-emulated"
                .into(),
            rerun: Some((
                warpscope_emu::SharedRemap::Permute {
                    base,
                    len: size,
                    unit: 16,
                    table: (0..size / 16)
                        .map(|c| {
                            let (mn, j) = logical[&c];
                            (swizzle(base + canonical(y, rows, mn, j) * 16, y) - base) / 16
                        })
                        .collect(),
                },
                warpscope_emu::AsyncLayout {
                    descs: new_descs,
                    tma_swizzle: Vec::new(),
                },
            )),
        });
    }
    Ok(out)
}

/// Swizzle proposals for the kernel's `SWIZZLE_NONE` TMA loads whose boxes the threads read with
/// conflicts.
pub fn tma_advice(
    trace: &Trace,
    arrays: &[ArrayInfo],
    target: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<HopperSuggestion>, FixError> {
    let mut boxes: BTreeMap<(u64, u64, u64), Vec<u32>> = BTreeMap::new();
    for t in &trace.hopper.tma_loads {
        if t.swizzle == 0 {
            boxes.entry((t.dst, t.row_bytes, t.rows)).or_default().push(t.pc);
        }
    }
    let mut out = Vec::new();
    for ((dst, row, rows), mut pcs) in boxes {
        pcs.sort_unstable();
        pcs.dedup();
        let name = array_of(arrays, dst as u32).map_or("(shared)".to_string(), |i| arrays[i].name.clone());
        let (lo, hi) = (dst, dst + row * rows);
        let Some((before, unmod0)) = tile_cost(trace, arrays, target, lo, hi, &|c| c)? else {
            continue;
        };
        if before.wavefronts <= before.ideal {
            continue;
        }
        let mut modes = vec![ModeCost {
            mode: "none".into(),
            wavefronts: before.wavefronts,
            ideal: before.ideal,
        }];
        let mut best: Option<(u64, u8, Cost)> = None;
        for (code, span) in [(1u8, 32u64), (2, 64), (3, 128)] {
            if row > span || row % 16 != 0 {
                continue;
            }
            let map = |c: u64| -> u64 {
                let o = c * 16;
                let (r, b) = (o / row, o % row);
                (warpscope_emu::tma::swizzle(code, dst + r * span + b) - dst) / 16
            };
            let Some((cost, unmod)) = tile_cost(trace, arrays, target, lo, hi, &map)? else {
                break;
            };
            if unmod > unmod0 {
                continue;
            }
            modes.push(ModeCost {
                mode: mode_name(span as u32),
                wavefronts: cost.wavefronts,
                ideal: cost.ideal,
            });
            // the fewest wavefronts, then the least padding
            if best.is_none_or(|(_, _, b)| cost.wavefronts < b.wavefronts) {
                best = Some((span, code, cost));
            }
        }
        let Some((span, code, after)) = best.filter(|b| b.2.wavefronts < before.wavefronts) else {
            notes.push(format!(
                "{name}: no tensor-map swizzle lowers the {} wavefronts of the reads of the TMA box at pcs {pcs:?} (ideal {})",
                before.wavefronts, before.ideal
            ));
            continue;
        };
        let extra = rows * (span - row);
        let _ = unmod0;
        out.push(HopperSuggestion {
            kind: "tma_swizzle".into(),
            array: name,
            tile: format!("TMA box, {rows} rows of {row} bytes"),
            pcs,
            tile_offset: dst,
            tile_bytes: rows * span,
            current: "none".into(),
            proposed: mode_name(span as u32),
            modes,
            wavefronts_before: before.wavefronts,
            wavefronts_after: after.wavefronts,
            ideal: after.ideal,
            descriptor: None,
            tensor_map: Some(format!(
                "CU_TENSOR_MAP_SWIZZLE_{span}B (swizzle = {code}; `--arg tensormap:...,swizzle={span}B`)"
            )),
            access_change: format!(
                "every read of box row r, byte b: a = box + r * {span} + b{}, then a ^= ((a >> 7) & {}) << 4 (the box {}-byte aligned as the TMA places it)",
                if row < span { format!(" (rows padded from {row} to {span} bytes)") } else { String::new() },
                span / 16 - 1,
                8 * span
            ),
            cute: format!(
                "Swizzle<{},4,3> o smem_ptr[8b]((_{rows},_{span}):(_{span},_1)) in bytes (CUTLASS's SW{span} shared-memory atom for a TMA box)",
                (span / 16).trailing_zeros()
            ),
            extra_shared_bytes: extra,
            basis: "prediction: the TMA's swizzled placement as the emulator makes it (bit-exact on an H200); \
                    the box's recorded reads moved and re-counted; not re-emulated"
                .into(),
            rerun: Some((
                warpscope_emu::SharedRemap::Permute {
                    base: dst as u32,
                    len: (rows * span) as u32,
                    unit: 16,
                    table: tma_table(dst, row, rows, span, code).into(),
                },
                warpscope_emu::AsyncLayout {
                    descs: Vec::new(),
                    tma_swizzle: vec![(dst, code)],
                },
            )),
        });
    }
    Ok(out)
}

/// The unit table of a box of `rows` rows of `row` bytes at `dst` moved to rows of `span` bytes
/// with swizzle `code`: the box's chunks to their places, the chunks after the box (up to `rows *
/// span` bytes) to the places left, in order.
fn tma_table(dst: u64, row: u64, rows: u64, span: u64, code: u8) -> Vec<u32> {
    let (old, all) = ((rows * row / 16) as usize, (rows * span / 16) as usize);
    let mut table = vec![u32::MAX; all];
    let mut used = vec![false; all];
    for (c, t) in table.iter_mut().enumerate().take(old) {
        let o = c as u64 * 16;
        let n = ((warpscope_emu::tma::swizzle(code, dst + (o / row) * span + o % row) - dst) / 16) as usize;
        *t = n as u32;
        used[n] = true;
    }
    let mut free = (0..all).filter(|&n| !used[n]);
    for t in table.iter_mut().skip(old) {
        *t = free.next().unwrap_or(0) as u32;
    }
    table
}

/// Re-emulates each proposal of `list` that says how ([`HopperSuggestion::rerun`]): the
/// threads' accesses moved by the remap, the tensor core reading the new descriptors and the TMA
/// writing with the new swizzle; the proposal is verified when every output buffer equals the
/// launch's as written ([`HopperSuggestion::basis`] says which).
pub fn verify(
    program: &warpscope_emu::Program,
    kernel: &str,
    launch: &warpscope_emu::Launch,
    limits: &warpscope_emu::Limits,
    list: &mut [HopperSuggestion],
) -> Result<(), FixError> {
    if list.iter().all(|s| s.rerun.is_none()) {
        return Ok(());
    }
    let plain = warpscope_emu::run(program, kernel, launch, limits, |_| ())?;
    let n = launch.args.len();
    for s in list.iter_mut() {
        let Some((remap, layout)) = s.rerun.clone() else {
            continue;
        };
        let mut l = launch.clone();
        l.remap = vec![remap];
        l.async_layout = layout;
        let what = if s.kind == "wgmma_swizzle" {
            "the new descriptors"
        } else {
            "the new tensor-map swizzle"
        };
        s.basis = match warpscope_emu::run(program, kernel, &l, limits, |_| ()) {
            Err(e) => format!("re-emulation with {what} failed ({e}): the proposal is a prediction"),
            Ok(r) if !r.faults.is_empty() => format!(
                "re-emulation with {what} faulted ({}): the proposal is a prediction",
                r.faults[0]
            ),
            Ok(r) if (0..n).all(|i| r.buffer(i) == plain.buffer(i)) => format!(
                "verified: re-emulated with {what} and the threads' accesses moved; every output buffer equals the \
                 original's; wavefronts are predicted from the recorded accesses"
            ),
            Ok(_) => format!(
                "NOT verified: re-emulated with {what} and the threads' accesses moved, the outputs differ from the \
                 original's"
            ),
        };
    }
    Ok(())
}
