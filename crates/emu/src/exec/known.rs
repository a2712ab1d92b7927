//! Loads whose values are known before a launch: a kernel's `ld.param` of its arguments (and an
//! `ld.const`) at an address held in a constant row that no instruction of the kernel writes. Every
//! lane of every warp reads the same bytes, which nothing changes during the launch, so the values
//! are read once a launch here and the instruction becomes [`X::Known`]: what [`super::ldst`]'s
//! uniform-parameter path does for it (the same event, the same rows written), without the
//! per-warp address check, resolution and reads. A sink that ignores such loads
//! ([`Sink::param_loads`]) is not sent their events. The reference paths
//! (`Limits::reference_paths`) keep every load an [`X::Ldst`]; `crates/emu/tests/known_loads.rs`
//! runs both.

use std::collections::HashMap;

use warpscope_ptx::Kernel;
use warpscope_ptx::inst::{Inst, MemSpace, Op, R, RowInit};

use super::{Ctx, Res, Warp, emit, lane_address, resolve};
use crate::arith;
use crate::event::{AccessOp, Sink};
use crate::fast::{FULL, X, XOp, rows_of};
use crate::mem;
use crate::zero_rows;

/// One load of [`X::Known`]: its destination rows and the values they get.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    space: MemSpace,
    res: Res,
    /// Element bytes times the vector's length, as the event gives it.
    width: u8,
    /// Rows written (`r[..n]`).
    n: u8,
    r: [R; 4],
    /// The offset in the resolved space the event names.
    o: u64,
    vals: [u64; 4],
}

/// Turns each load of `xops` (the kernel's decoded instructions, `ops` its instructions) whose
/// values are known before the launch into [`X::Known`], and gives their table. `params`: the
/// launch's parameter bytes; `const_bank`: the program's constant bank. A kernel with a call
/// keeps every load (the called body's rows are not followed).
pub(crate) fn known_loads(
    ops: &[Op],
    xops: &mut [XOp],
    kernel: &Kernel,
    params: &[u8],
    const_bank: &[u8],
) -> Vec<Known> {
    let mut consts: HashMap<R, u64> = kernel
        .row_init
        .iter()
        .filter_map(|&(r, init)| match init {
            RowInit::Const(c) => Some((r, c)),
            RowInit::Special(_) => None,
        })
        .collect();
    if consts.is_empty() || ops.len() != xops.len() {
        return Vec::new();
    }
    for op in ops {
        if matches!(op.inst, Inst::Call { .. } | Inst::BadCall { .. }) {
            return Vec::new();
        }
        // the rows it writes; for an instruction whose effects are not listed, every row it names
        let writes = zero_rows::effects(&op.inst).map_or_else(|| rows_of(&op.inst), |(_, w)| w);
        for r in writes {
            consts.remove(&r);
        }
    }
    let mut table = Vec::new();
    for (x, op) in xops.iter_mut().zip(ops) {
        let Inst::Ld {
            space: space @ (MemSpace::KernelParam | MemSpace::Const),
            ty,
            vec,
            addr32,
            sync: false,
            d,
            addr,
            off,
        } = op.inst
        else {
            continue;
        };
        if !matches!(x.x, X::Ldst { st: false, .. }) {
            continue;
        }
        let Some(&b) = consts.get(&addr) else {
            continue;
        };
        let es = ty.bytes() as u64;
        let (res, o) = resolve(space, lane_address(b, addr32, off as i64 as u64));
        let bytes = match res {
            Res::KParam => params,
            Res::Const => const_bank,
            _ => continue,
        };
        let n = usize::from(vec).clamp(1, 4);
        let mut vals = [0u64; 4];
        let read = o % es == 0
            && (0..n).all(|e| {
                mem::read_bytes(bytes, o.wrapping_add(e as u64 * es), es)
                    .map(|v| vals[e] = v)
                    .is_some()
            });
        let Ok(idx) = u32::try_from(table.len()) else {
            break;
        };
        if !read {
            // a fault: the instruction's own path reports it
            continue;
        }
        if ty.signed() && es < 4 {
            for v in &mut vals[..n] {
                *v = arith::sext(ty, *v) as u64 & 0xffff_ffff;
            }
        }
        table.push(Known {
            space,
            res,
            width: (es * u64::from(vec)) as u8,
            n: n as u8,
            r: d,
            o,
            vals,
        });
        x.x = X::Known(idx);
    }
    table
}

/// Executes [`X::Known`] `k` for warp `w` in the lanes `mask` (not 0).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn exec_known<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    sink: &mut S,
    pc: u32,
    mask: u32,
    k: &Known,
) {
    // the event's space is `Space::Param` or `Space::Const`
    if sink.param_loads() {
        let mut offs = [k.o; 32];
        if mask != FULL {
            for (l, x) in offs.iter_mut().enumerate() {
                if mask >> l & 1 == 0 {
                    *x = 0;
                }
            }
        }
        let mut res_mask = [0u32; 5];
        res_mask[k.res as usize] = mask;
        emit(
            ctx,
            sink,
            block,
            wi,
            pc,
            k.space,
            AccessOp::Load,
            u64::from(k.width),
            &res_mask,
            &offs,
        );
    }
    // a whole warp's row stored as one splat (`slice::fill` is a loop of single stores here); the
    // mask tested once, outside the rows' loop (inside it, the compiler spread the mask's 32 bits
    // over the stack for every known load, whole warps included)
    let rows = k.r[..usize::from(k.n)].iter().zip(&k.vals);
    if mask == FULL {
        for (&r, &v) in rows {
            w.regs[r as usize] = [v; 32];
        }
    } else {
        for (&r, &v) in rows {
            let row = &mut w.regs[r as usize];
            let mut m = mask;
            while m != 0 {
                row[m.trailing_zeros() as usize] = v;
                m &= m - 1;
            }
        }
    }
}
