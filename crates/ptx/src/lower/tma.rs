//! Lowering of the tensor-memory-access instructions (`cp.async.bulk.tensor`,
//! `cp.reduce.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor`, `tensormap.replace`,
//! `tensormap.cp_fenceproxy`) to [`Inst::Tma`]: the operands are moved into the instruction's
//! [`TMA_ROWS`] consecutive rows; `warpscope_emu::tma` gives them their meaning.

use super::{KCtx, LResult};
use crate::inst::*;
use crate::parse::{Instruction, Operand};

/// Row offsets in an [`Inst::Tma`]'s rows.
const SMEM: R = 0;
const MAP: R = 1;
const MBAR: R = 2;
const COORD: R = 3;
const OFFSET: R = 8;
const MASK: R = 11;

impl<'m> KCtx<'m> {
    /// `cp{.reduce}.async.bulk{.prefetch}.tensor.Nd...`.
    pub(super) fn tma_copy(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let has = |m: &str| mods.iter().any(|x| x.split("::").next() == Some(m));
        let rank = match mods
            .iter()
            .find_map(|m| m.strip_suffix('d').and_then(|n| n.parse::<u8>().ok()))
        {
            Some(n @ 1..=5) => n,
            _ => return self.err(format!("`{}` needs a dimension count .1d to .5d", i.opcode)),
        };
        let im2col = mods.iter().any(|m| m.starts_with("im2col"));
        if mods.iter().any(|m| {
            matches!(
                *m,
                "im2col_w" | "im2col_w_128" | "tile::gather4" | "tile::scatter4"
            )
        }) {
            return self.err(format!(
                "unsupported instruction `{}` (sm_100 load modes)",
                i.opcode
            ));
        }
        if im2col && rank < 3 {
            return self.err(format!("`{}`: im2col needs 3 to 5 dimensions", i.opcode));
        }
        if mods.contains(&"cta_group::2") {
            return self.err(format!("unsupported instruction `{}` (.cta_group::2)", i.opcode));
        }
        let multicast = has("multicast");
        let reduce = mods.first() == Some(&"reduce");
        let prefetch = has("prefetch");
        let at = mods.iter().position(|m| *m == "tensor").unwrap_or(0);
        let (dsp, ssp) = (mods.get(at + 2).copied(), mods.get(at + 3).copied());
        let to_shared =
            dsp.is_some_and(|m| m.starts_with("shared")) && ssp.is_some_and(|m| m.starts_with("global"));
        let to_global =
            dsp.is_some_and(|m| m.starts_with("global")) && ssp.is_some_and(|m| m.starts_with("shared"));
        let kind = if prefetch {
            TmaKind::Prefetch
        } else if reduce {
            let red = mods.iter().find_map(|m| match *m {
                "add" => Some(TmaRed::Add),
                "min" => Some(TmaRed::Min),
                "max" => Some(TmaRed::Max),
                "inc" => Some(TmaRed::Inc),
                "dec" => Some(TmaRed::Dec),
                "and" => Some(TmaRed::And),
                "or" => Some(TmaRed::Or),
                "xor" => Some(TmaRed::Xor),
                _ => None,
            });
            match red {
                Some(r) if to_global => TmaKind::Reduce(r),
                Some(_) => {
                    return self.err(format!(
                        "`{}`: a tensor reduction goes shared -> global",
                        i.opcode
                    ));
                }
                None => {
                    return self.err(format!(
                        "`{}` needs a reduction (.add, .min, .max, ...)",
                        i.opcode
                    ));
                }
            }
        } else if to_shared {
            TmaKind::Load
        } else if to_global {
            TmaKind::Store
        } else {
            return self.err(format!(
                "unsupported instruction `{}` (tensor copies go global -> shared or shared -> global)",
                i.opcode
            ));
        };
        if multicast && kind != TmaKind::Load {
            return self.err(format!("`{}`: only loads multicast", i.opcode));
        }
        let base = self.rows(TMA_ROWS)?;
        // the operands in PTX order: [dst], [map, {coords}], [mbar] for loads; [map, {coords}],
        // [src] for stores and reductions; [map, {coords}] for prefetches
        let map_at = usize::from(kind == TmaKind::Load);
        let Some(Operand::List(mc)) = ops.get(map_at) else {
            return self.err(format!("`{}` needs `[tensorMap, {{coordinates}}]`", i.opcode));
        };
        let (Some(map), Some(Operand::Vector(coords))) = (mc.first(), mc.get(1)) else {
            return self.err(format!("`{}` needs `[tensorMap, {{coordinates}}]`", i.opcode));
        };
        if coords.len() != usize::from(rank) || mc.len() != 2 {
            return self.err(format!("`{}` takes {rank} coordinates", i.opcode));
        }
        self.tma_map_row(map, base + MAP, guard)?;
        for (k, c) in coords.iter().enumerate() {
            let r = self.src(c, Ty::S32)?;
            self.mov_rows(base + COORD + k as R, r, guard);
        }
        let mut next = map_at + 1;
        match kind {
            TmaKind::Load => {
                let (Some(d), Some(b)) = (ops.first(), ops.get(2)) else {
                    return self.err(format!(
                        "`{}` needs [dst], [tensorMap, {{...}}], [mbar]",
                        i.opcode
                    ));
                };
                let (_, d) = self.folded_addr(d, guard)?;
                self.mov_rows(base + SMEM, d, guard);
                let (_, b) = self.folded_addr(b, guard)?;
                self.mov_rows(base + MBAR, b, guard);
                next = 3;
            }
            TmaKind::Store | TmaKind::Reduce(_) => {
                let Some(s) = ops.get(1) else {
                    return self.err(format!("`{}` needs [tensorMap, {{...}}], [src]", i.opcode));
                };
                let (_, s) = self.folded_addr(s, guard)?;
                self.mov_rows(base + SMEM, s, guard);
                next = 2;
            }
            _ => {}
        }
        if im2col && matches!(kind, TmaKind::Load | TmaKind::Prefetch) {
            let n = usize::from(rank) - 2;
            match ops.get(next) {
                Some(Operand::Vector(v)) if v.len() == n => {
                    for (k, o) in v.iter().enumerate() {
                        let r = self.src(o, Ty::U16)?;
                        self.mov_rows(base + OFFSET + k as R, r, guard);
                    }
                    next += 1;
                }
                _ => return self.err(format!("`{}` needs {n} im2col offsets", i.opcode)),
            }
        }
        if multicast {
            let Some(m) = ops.get(next) else {
                return self.err(format!("`{}` needs the CTA mask", i.opcode));
            };
            let r = self.src(m, Ty::U16)?;
            self.mov_rows(base + MASK, r, guard);
            next += 1;
        }
        if has("L2") && mods.contains(&"L2::cache_hint") {
            // the cache policy: no effect an emulator can see
            next += 1;
        }
        if ops.len() != next {
            return self.err(format!("`{}` takes {next} operands, got {}", i.opcode, ops.len()));
        }
        let op = TmaOp {
            kind,
            rank,
            im2col,
            multicast,
        };
        self.push(Inst::Tma { op, base }, guard);
        Ok(())
    }

    /// The tensor map operand as a generic address in `row`: a parameter or constant symbol's
    /// address is moved into its window (as `cvta` does).
    fn tma_map_row(&mut self, map: &Operand, row: R, guard: PSrc) -> LResult<()> {
        let (space, a) = self.folded_addr(map, guard)?;
        match space {
            Some(s @ (MemSpace::KernelParam | MemSpace::Const)) => self.push(
                Inst::Cvta {
                    space: s,
                    to_generic: true,
                    d: row,
                    a,
                },
                guard,
            ),
            Some(MemSpace::Shared | MemSpace::Local | MemSpace::CallParam) => {
                return self.err("a tensor map lives in parameter, constant or global memory");
            }
            _ => self.mov_rows(row, a, guard),
        }
        Ok(())
    }

    /// `tensormap.replace.tile.FIELD.SPACE.b1024.TYPE [map], {ord,} value` and
    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.SCOPE.sync.aligned
    /// [dst], [src], 128`.
    pub(super) fn tensormap(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let base = self.rows(TMA_ROWS)?;
        if mods.first() == Some(&"cp_fenceproxy") {
            if ops.len() != 3 || ops[2] != Operand::Int(128) {
                return self.err(format!("`{}` takes [dst], [src], 128", i.opcode));
            }
            let (_, d) = self.folded_addr(&ops[0], guard)?;
            self.mov_rows(base, d, guard);
            let (_, s) = self.folded_addr(&ops[1], guard)?;
            self.mov_rows(base + 1, s, guard);
            let op = TmaOp {
                kind: TmaKind::CopyMap,
                rank: 0,
                im2col: false,
                multicast: false,
            };
            self.push(Inst::Tma { op, base }, guard);
            return Ok(());
        }
        if mods.first() != Some(&"replace") || mods.get(1) != Some(&"tile") {
            return self.err(format!("unsupported instruction `{}`", i.opcode));
        }
        let field = match mods.get(2).copied() {
            Some("global_address") => TmField::GlobalAddress,
            Some("rank") => TmField::Rank,
            Some("box_dim") => TmField::BoxDim,
            Some("global_dim") => TmField::GlobalDim,
            Some("global_stride") => TmField::GlobalStride,
            Some("element_stride") => TmField::ElementStride,
            Some("elemtype") => TmField::ElemType,
            Some("interleave_layout") => TmField::InterleaveLayout,
            Some("swizzle_mode") => TmField::SwizzleMode,
            Some("swizzle_atomicity") => TmField::SwizzleAtomicity,
            Some("fill_mode") => TmField::FillMode,
            _ => return self.err(format!("`{}`: unknown tensor map field", i.opcode)),
        };
        let shared = match mods.get(3).copied() {
            Some("global") => false,
            Some("shared::cta") => true,
            _ => return self.err(format!("`{}` needs .global or .shared::cta", i.opcode)),
        };
        let ordinal = matches!(
            field,
            TmField::BoxDim | TmField::GlobalDim | TmField::GlobalStride | TmField::ElementStride
        );
        let want = if ordinal { 3 } else { 2 };
        if ops.len() != want {
            return self.err(format!("`{}` takes {want} operands", i.opcode));
        }
        let (_, a) = self.folded_addr(&ops[0], guard)?;
        self.mov_rows(base, a, guard);
        if ordinal {
            match ops[1] {
                Operand::Int(n) if n < 5 => {
                    let r = self.const_row(n)?;
                    self.mov_rows(base + 1, r, guard);
                }
                _ => return self.err(format!("`{}`: the ordinal is an immediate 0-4", i.opcode)),
            }
        }
        let v = self.src(&ops[want - 1], Ty::U64)?;
        self.mov_rows(base + 2, v, guard);
        let op = TmaOp {
            kind: TmaKind::Replace { field, shared },
            rank: 0,
            im2col: false,
            multicast: false,
        };
        self.push(Inst::Tma { op, base }, guard);
        Ok(())
    }
}
