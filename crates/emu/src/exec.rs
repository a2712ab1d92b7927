//! The block engine: warps with lane-vectorised register rows, a SIMT reconvergence stack, and
//! round-robin scheduling between barriers. The loop only dispatches; semantics live in
//! [`crate::arith`]; analyses only see events through the `Sink`.

use warpscope_ptx::inst::*;
use warpscope_ptx::{Kernel, Program};

use crate::arith;
use crate::event::{AccessOp, BarrierEvent, BarrierKind, BranchEvent, MemEvent, Sink, Space};
use crate::mem::{self, Global};
use crate::{EmuFault, FaultKind, Limits};

type Row = [u64; 32];
const FULL: u32 = u32::MAX;

/// Everything a block needs, shared by all blocks of a run.
pub(crate) struct Ctx<'a> {
    pub prog: &'a Program,
    pub kernel: &'a Kernel,
    pub ops: &'a [Op],
    pub global: &'a Global,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub smem_size: u32,
    pub dyn_smem: u32,
    pub limits: &'a Limits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    pc: u32,
    rpc: u32,
    mask: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    AtBarrier { pc: u32, mask: u32 },
    Done,
}

struct Warp {
    regs: Vec<Row>,
    preds: Vec<u32>,
    stack: Vec<Frame>,
    exited: u32,
    state: State,
    insts: u64,
}

/// Outcome of one block.
pub(crate) struct BlockOut {
    pub warp_insts: u64,
    pub thread_insts: u64,
    pub fault: Option<EmuFault>,
}

enum Stop {
    Barrier,
    Exit,
    Fault(FaultKind, u32, Option<u32>, Option<u64>),
}

#[inline(always)]
fn wr(d: &mut Row, v: &Row, mask: u32) {
    if mask == FULL {
        *d = *v;
    } else {
        for l in 0..32 {
            if (mask >> l) & 1 != 0 {
                d[l] = v[l];
            }
        }
    }
}

#[inline(always)]
fn map1(regs: &mut [Row], d: R, a: R, mask: u32, f: impl Fn(u64) -> u64) {
    let a = regs[a as usize];
    let mut t = [0u64; 32];
    for l in 0..32 {
        t[l] = f(a[l]);
    }
    wr(&mut regs[d as usize], &t, mask);
}

#[inline(always)]
fn map2(regs: &mut [Row], d: R, a: R, b: R, mask: u32, f: impl Fn(u64, u64) -> u64) {
    let a = regs[a as usize];
    let b = regs[b as usize];
    let mut t = [0u64; 32];
    for l in 0..32 {
        t[l] = f(a[l], b[l]);
    }
    wr(&mut regs[d as usize], &t, mask);
}

#[inline(always)]
fn map3(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32, f: impl Fn(u64, u64, u64) -> u64) {
    let a = regs[a as usize];
    let b = regs[b as usize];
    let c = regs[c as usize];
    let mut t = [0u64; 32];
    for l in 0..32 {
        t[l] = f(a[l], b[l], c[l]);
    }
    wr(&mut regs[d as usize], &t, mask);
}

#[inline(always)]
fn cmp_bits(regs: &[Row], a: R, b: R, f: impl Fn(u64, u64) -> bool) -> u32 {
    let a = &regs[a as usize];
    let b = &regs[b as usize];
    let mut bits = 0u32;
    for l in 0..32 {
        bits |= (f(a[l], b[l]) as u32) << l;
    }
    bits
}

#[inline(always)]
fn pval(preds: &[u32], p: PSrc) -> u32 {
    let v = if p.idx == PRED_TRUE {
        FULL
    } else {
        preds[p.idx as usize]
    };
    if p.neg { !v } else { v }
}

#[inline(always)]
fn pwrite(preds: &mut [u32], p: P, v: u32, mask: u32) {
    if p != PRED_TRUE {
        let x = &mut preds[p as usize];
        *x = (*x & !mask) | (v & mask);
    }
}

/// Runs one block to completion (or its first fault), sending events to `sink`.
pub(crate) fn run_block<S: Sink>(ctx: &Ctx<'_>, block_lin: u32, sink: &mut S) -> BlockOut {
    let k = ctx.kernel;
    let [bx, by, bz] = ctx.block;
    let nthreads = bx * by * bz;
    let nwarps = nthreads.div_ceil(32);
    let cta = [
        block_lin % ctx.grid[0],
        (block_lin / ctx.grid[0]) % ctx.grid[1],
        block_lin / (ctx.grid[0] * ctx.grid[1]),
    ];
    let mut shared = vec![0u8; ctx.smem_size as usize];
    let mut local = vec![0u8; k.local_size as usize * nthreads as usize];
    let mut warps: Vec<Warp> = (0..nwarps)
        .map(|w| {
            let mut regs = vec![[0u64; 32]; k.n_rows as usize];
            for &(r, init) in &k.row_init {
                let row = &mut regs[r as usize];
                for (l, v) in row.iter_mut().enumerate() {
                    let t = w * 32 + l as u32;
                    let tid = [t % bx, (t / bx) % by, t / (bx * by)];
                    *v = match init {
                        RowInit::Const(c) => c,
                        RowInit::Special(s) => special(s, tid, ctx, cta, w, nwarps, l as u32),
                    };
                }
            }
            let valid = if (w + 1) * 32 <= nthreads {
                FULL
            } else {
                (1u32 << (nthreads - w * 32)) - 1
            };
            Warp {
                regs,
                preds: vec![0; k.n_preds as usize],
                stack: vec![Frame {
                    pc: k.entry,
                    rpc: u32::MAX,
                    mask: valid,
                }],
                exited: !valid,
                state: State::Ready,
                insts: 0,
            }
        })
        .collect();
    let mut out = BlockOut {
        warp_insts: 0,
        thread_insts: 0,
        fault: None,
    };
    let mut generation = 0u32;
    let mut budget = ctx.limits.max_warp_insts_per_block;
    loop {
        let mut any_ready = false;
        for (wi, w) in warps.iter_mut().enumerate() {
            if w.state != State::Ready {
                continue;
            }
            any_ready = true;
            let mut bm = BlockMem {
                shared: &mut shared,
                local: &mut local,
                local_size: k.local_size as u64,
            };
            let stop = run_warp(ctx, block_lin, wi as u32, w, &mut bm, sink, &mut budget, &mut out);
            match stop {
                Stop::Barrier => {}
                Stop::Exit => {
                    w.state = State::Done;
                    sink.warp_exit(wi as u32);
                }
                Stop::Fault(kind, pc, lane, addr) => {
                    out.fault = Some(EmuFault {
                        block: block_lin,
                        warp: wi as u32,
                        pc,
                        lane,
                        addr,
                        kind,
                    });
                    return out;
                }
            }
        }
        if warps.iter().all(|w| w.state == State::Done) {
            return out;
        }
        if !any_ready && warps.iter().all(|w| w.state != State::Ready) {
            // nothing can run: every live warp waits at a barrier
        }
        if warps.iter().all(|w| w.state != State::Ready) {
            // release if every waiting warp arrived with all its live threads
            let mut pc0 = u32::MAX;
            for (wi, w) in warps.iter().enumerate() {
                if let State::AtBarrier { pc, mask } = w.state {
                    pc0 = pc0.min(pc);
                    if mask != !w.exited {
                        out.fault = Some(EmuFault {
                            block: block_lin,
                            warp: wi as u32,
                            pc,
                            lane: Some((!w.exited & !mask).trailing_zeros()),
                            addr: None,
                            kind: FaultKind::DivergentBarrier,
                        });
                        return out;
                    }
                }
            }
            generation += 1;
            sink.barrier_release(block_lin, pc0, generation);
            for w in warps.iter_mut() {
                if matches!(w.state, State::AtBarrier { .. }) {
                    w.state = State::Ready;
                }
            }
        }
    }
}

fn special(s: Special, tid: [u32; 3], ctx: &Ctx<'_>, cta: [u32; 3], w: u32, nwarps: u32, lane: u32) -> u64 {
    let lt = (1u64 << lane) - 1;
    (match s {
        Special::Tid(c) => tid[c as usize] as u64,
        Special::Ntid(c) => ctx.block[c as usize] as u64,
        Special::Ctaid(c) => cta[c as usize] as u64,
        Special::Nctaid(c) => ctx.grid[c as usize] as u64,
        Special::LaneId => lane as u64,
        Special::WarpId => w as u64,
        Special::NWarpId => nwarps as u64,
        Special::SmId | Special::GridId => 0,
        Special::NSmId => 1,
        Special::LaneMaskEq => 1u64 << lane,
        Special::LaneMaskLt => lt,
        Special::LaneMaskLe => lt | (1 << lane),
        Special::LaneMaskGe => !lt & 0xffff_ffff,
        Special::LaneMaskGt => !(lt | (1 << lane)) & 0xffff_ffff,
        Special::DynSmemSize => ctx.dyn_smem as u64,
        Special::TotalSmemSize => ctx.smem_size as u64,
    }) & 0xffff_ffff
}

struct BlockMem<'b> {
    shared: &'b mut Vec<u8>,
    local: &'b mut Vec<u8>,
    local_size: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Res {
    Shared,
    Global,
    Local,
    Const,
    KParam,
}

/// Resolves a lane's address in `space` to a concrete space and offset.
#[inline(always)]
fn resolve(space: MemSpace, a: u64) -> (Res, u64) {
    match space {
        MemSpace::Shared => (Res::Shared, a),
        MemSpace::Global => (Res::Global, a),
        MemSpace::Local | MemSpace::CallParam => (Res::Local, a),
        MemSpace::Const => (Res::Const, a),
        MemSpace::KernelParam => (Res::KParam, a),
        MemSpace::Generic => {
            if (mem::SHARED_WINDOW..mem::SHARED_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Shared, a - mem::SHARED_WINDOW)
            } else if (mem::LOCAL_WINDOW..mem::LOCAL_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Local, a - mem::LOCAL_WINDOW)
            } else if (mem::CONST_WINDOW..mem::CONST_WINDOW + mem::WINDOW).contains(&a) {
                (Res::Const, a - mem::CONST_WINDOW)
            } else {
                (Res::Global, a)
            }
        }
    }
}

fn event_space(space: MemSpace, r: Res) -> Space {
    match (space, r) {
        (MemSpace::CallParam, _) | (_, Res::KParam) => Space::Param,
        (_, Res::Shared) => Space::Shared,
        (_, Res::Global) => Space::Global,
        (_, Res::Local) => Space::Local,
        (_, Res::Const) => Space::Const,
    }
}

fn fault_space(r: Res) -> Space {
    match r {
        Res::Shared => Space::Shared,
        Res::Global => Space::Global,
        Res::Local => Space::Local,
        Res::Const => Space::Const,
        Res::KParam => Space::Param,
    }
}

#[allow(clippy::too_many_arguments)]
fn run_warp<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    budget: &mut u64,
    out: &mut BlockOut,
) -> Stop {
    let ops = ctx.ops;
    let kend = ctx.kernel.end;
    let mut addrs = [0u64; 32];
    loop {
        let Some(top) = w.stack.last_mut() else {
            return Stop::Exit;
        };
        if top.pc == top.rpc {
            w.stack.pop();
            continue;
        }
        let active = top.mask & !w.exited;
        if active == 0 {
            w.stack.pop();
            continue;
        }
        let pc = top.pc;
        if pc >= kend {
            return Stop::Fault(FaultKind::FellOffEnd, pc, None, None);
        }
        if *budget == 0 {
            return Stop::Fault(FaultKind::InstructionLimit, pc, None, None);
        }
        *budget -= 1;
        w.insts += 1;
        out.warp_insts += 1;
        out.thread_insts += active.count_ones() as u64;
        sink.inst(wi, pc, active);
        let op = ops[pc as usize];
        let mask = active & pval(&w.preds, op.guard);
        top.pc = pc + 1;
        let regs = &mut w.regs[..];
        match op.inst {
            Inst::Un { op: uo, ty, d, a } => match (uo, ty) {
                (UnOp::Mov, Ty::U64 | Ty::S64 | Ty::F64) => map1(regs, d, a, mask, |x| x),
                (UnOp::Mov, Ty::U32 | Ty::S32 | Ty::F32) => map1(regs, d, a, mask, |x| x & 0xffff_ffff),
                _ => map1(regs, d, a, mask, |x| arith::un(uo, ty, x)),
            },
            Inst::Bin { op: bo, ty, d, a, b } => {
                macro_rules! m2 {
                    ($f:expr) => {
                        map2(regs, d, a, b, mask, $f)
                    };
                }
                match (bo, ty) {
                    (BinOp::Add, Ty::U32 | Ty::S32) => {
                        m2!(|x, y| (x as u32).wrapping_add(y as u32) as u64)
                    }
                    (BinOp::Add, Ty::U64 | Ty::S64) => m2!(|x: u64, y: u64| x.wrapping_add(y)),
                    (BinOp::Sub, Ty::U32 | Ty::S32) => {
                        m2!(|x, y| (x as u32).wrapping_sub(y as u32) as u64)
                    }
                    (BinOp::MulLo, Ty::U32 | Ty::S32) => {
                        m2!(|x, y| (x as u32).wrapping_mul(y as u32) as u64)
                    }
                    (BinOp::MulWide, Ty::U32) => m2!(|x, y| (x as u32 as u64) * (y as u32 as u64)),
                    (BinOp::MulWide, Ty::S32) => {
                        m2!(|x, y| ((x as u32 as i32 as i64) * (y as u32 as i32 as i64)) as u64)
                    }
                    (BinOp::And, _) => m2!(|x, y| x & y),
                    (BinOp::Or, _) => m2!(|x, y| x | y),
                    (BinOp::Xor, _) => m2!(|x, y| x ^ y),
                    (BinOp::Shl, Ty::U32 | Ty::S32) => {
                        m2!(|x, y| if (y as u32) < 32 {
                            ((x as u32) << (y as u32)) as u64
                        } else {
                            0
                        })
                    }
                    (BinOp::Add, Ty::F32) => {
                        m2!(|x, y| (f32::from_bits(x as u32) + f32::from_bits(y as u32)).to_bits() as u64)
                    }
                    (BinOp::MulLo, Ty::F32) => {
                        m2!(|x, y| (f32::from_bits(x as u32) * f32::from_bits(y as u32)).to_bits() as u64)
                    }
                    _ => m2!(|x, y| arith::bin(bo, ty, x, y)),
                }
            }
            Inst::Tern {
                op: to,
                ty,
                d,
                a,
                b,
                c,
            } => match (to, ty) {
                (TernOp::MadLo, Ty::U32 | Ty::S32) => map3(regs, d, a, b, c, mask, |x, y, z| {
                    (x as u32).wrapping_mul(y as u32).wrapping_add(z as u32) as u64
                }),
                (TernOp::Fma, Ty::F32) => map3(regs, d, a, b, c, mask, |x, y, z| {
                    f32::from_bits(x as u32)
                        .mul_add(f32::from_bits(y as u32), f32::from_bits(z as u32))
                        .to_bits() as u64
                }),
                _ => map3(regs, d, a, b, c, mask, |x, y, z| arith::tern(to, ty, x, y, z)),
            },
            Inst::Bfi {
                ty,
                d,
                a,
                b,
                pos,
                len,
            } => {
                let (ra, rb, rp, rl) = (
                    regs[a as usize],
                    regs[b as usize],
                    regs[pos as usize],
                    regs[len as usize],
                );
                let mut t = [0u64; 32];
                for l in 0..32 {
                    t[l] = arith::bfi(ty, ra[l], rb[l], rp[l], rl[l]);
                }
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::Lop3 { d, a, b, c, lut } => {
                map3(regs, d, a, b, c, mask, |x, y, z| arith::lop3(x, y, z, lut))
            }
            Inst::Selp { ty, d, a, b, p } => {
                let pv = pval(&w.preds, p);
                let (ra, rb) = (regs[a as usize], regs[b as usize]);
                let mut t = [0u64; 32];
                for l in 0..32 {
                    t[l] = arith::trunc(ty, if (pv >> l) & 1 != 0 { ra[l] } else { rb[l] });
                }
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::Setp {
                cmp,
                ty,
                p,
                q,
                a,
                b,
                bop,
                c,
            } => {
                let bits = match (cmp, ty) {
                    (Cmp::Lt, Ty::S32) => cmp_bits(regs, a, b, |x, y| (x as u32 as i32) < (y as u32 as i32)),
                    (Cmp::Ge, Ty::S32) => cmp_bits(regs, a, b, |x, y| (x as u32 as i32) >= (y as u32 as i32)),
                    (Cmp::Lt | Cmp::Lo, Ty::U32) => cmp_bits(regs, a, b, |x, y| (x as u32) < (y as u32)),
                    (Cmp::Ne, Ty::U32 | Ty::S32) => cmp_bits(regs, a, b, |x, y| (x as u32) != (y as u32)),
                    (Cmp::Eq, Ty::U32 | Ty::S32) => cmp_bits(regs, a, b, |x, y| (x as u32) == (y as u32)),
                    _ => cmp_bits(regs, a, b, |x, y| arith::cmp(cmp, ty, x, y)),
                };
                let cv = pval(&w.preds, c);
                let (pv, qv) = match bop {
                    None => (bits, !bits),
                    Some(BoolOp::And) => (bits & cv, !bits & cv),
                    Some(BoolOp::Or) => (bits | cv, !bits | cv),
                    Some(BoolOp::Xor) => (bits ^ cv, !bits ^ cv),
                };
                pwrite(&mut w.preds, p, pv, mask);
                pwrite(&mut w.preds, q, qv, mask);
            }
            Inst::Set {
                cmp,
                dty,
                sty,
                d,
                a,
                b,
            } => {
                let one = if dty == Ty::F32 {
                    1.0f32.to_bits() as u64
                } else {
                    0xffff_ffff
                };
                map2(regs, d, a, b, mask, |x, y| {
                    if arith::cmp(cmp, sty, x, y) { one } else { 0 }
                })
            }
            Inst::PredOp { op: po, d, a, b } => {
                let (x, y) = (pval(&w.preds, a), pval(&w.preds, b));
                let v = match po {
                    BoolOp::And => x & y,
                    BoolOp::Or => x | y,
                    BoolOp::Xor => x ^ y,
                };
                pwrite(&mut w.preds, d, v, mask);
            }
            Inst::PredToReg { d, p } => {
                let pv = pval(&w.preds, p);
                let mut t = [0u64; 32];
                for (l, v) in t.iter_mut().enumerate() {
                    *v = ((pv >> l) & 1) as u64;
                }
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::RegToPred { d, a } => {
                let bits = cmp_bits(regs, a, a, |x, _| x != 0);
                pwrite(&mut w.preds, d, bits, mask);
            }
            Inst::Cvt {
                dty,
                sty,
                rnd,
                sat,
                d,
                a,
            } => match (dty, sty) {
                (Ty::U64, Ty::U32) => map1(regs, d, a, mask, |x| x & 0xffff_ffff),
                (Ty::S64 | Ty::U64, Ty::S32) => map1(regs, d, a, mask, |x| x as u32 as i32 as u64),
                _ => map1(regs, d, a, mask, |x| arith::cvt(dty, sty, rnd, sat, x)),
            },
            Inst::TestP { prop, ty, p, a } => {
                let bits = cmp_bits(regs, a, a, |x, _| arith::testp(prop, ty, x));
                pwrite(&mut w.preds, p, bits, mask);
            }
            Inst::Cvta {
                space,
                to_generic,
                d,
                a,
            } => {
                let win = match space {
                    MemSpace::Shared => mem::SHARED_WINDOW,
                    MemSpace::Local | MemSpace::CallParam => mem::LOCAL_WINDOW,
                    MemSpace::Const => mem::CONST_WINDOW,
                    _ => 0,
                };
                if to_generic {
                    map1(regs, d, a, mask, |x| x.wrapping_add(win))
                } else {
                    map1(regs, d, a, mask, |x| x.wrapping_sub(win))
                }
            }
            Inst::Pack2 { bits, d, a, b } => {
                let m = (1u64 << bits) - 1;
                map2(regs, d, a, b, mask, |x, y| (x & m) | ((y & m) << bits))
            }
            Inst::Unpack2 { bits, d0, d1, a } => {
                let m = (1u64 << bits) - 1;
                let ra = regs[a as usize];
                let mut t0 = [0u64; 32];
                let mut t1 = [0u64; 32];
                for l in 0..32 {
                    t0[l] = ra[l] & m;
                    t1[l] = (ra[l] >> bits) & m;
                }
                wr(&mut regs[d0 as usize], &t0, mask);
                wr(&mut regs[d1 as usize], &t1, mask);
            }
            Inst::Ld {
                space,
                ty,
                vec,
                addr32,
                d,
                addr,
                off,
            }
            | Inst::St {
                space,
                ty,
                vec,
                addr32,
                a: d,
                addr,
                off,
            } => {
                if mask == 0 {
                    continue;
                }
                let is_st = matches!(op.inst, Inst::St { .. });
                let base = &regs[addr as usize];
                for l in 0..32 {
                    let b = if addr32 { base[l] & 0xffff_ffff } else { base[l] };
                    addrs[l] = b.wrapping_add(off as i64 as u64);
                }
                let es = ty.bytes() as u64;
                let width = es * vec as u64;
                // resolve spaces, check alignment, emit events per concrete space
                let mut res_mask = [0u32; 5];
                let mut local_addrs = addrs;
                for l in 0..32 {
                    if (mask >> l) & 1 == 0 {
                        continue;
                    }
                    let (r, o) = resolve(space, addrs[l]);
                    if o % es != 0 {
                        return Stop::Fault(
                            FaultKind::Misaligned {
                                space: fault_space(r),
                            },
                            pc,
                            Some(l as u32),
                            Some(addrs[l]),
                        );
                    }
                    local_addrs[l] = o;
                    res_mask[r as usize] |= 1 << l;
                }
                for ri in 0..5 {
                    let m = res_mask[ri];
                    if m == 0 {
                        continue;
                    }
                    let r = [Res::Shared, Res::Global, Res::Local, Res::Const, Res::KParam][ri];
                    sink.mem(&MemEvent {
                        block,
                        warp: wi,
                        pc,
                        space: event_space(space, r),
                        op: if is_st { AccessOp::Store } else { AccessOp::Load },
                        width: width as u8,
                        mask: m,
                        addrs: &local_addrs,
                    });
                }
                for l in 0..32 {
                    if (mask >> l) & 1 == 0 {
                        continue;
                    }
                    let (r, o) = resolve(space, addrs[l]);
                    let tid = wi as u64 * 32 + l as u64;
                    for e in 0..vec as usize {
                        let eo = o.wrapping_add(e as u64 * es);
                        let ok = if is_st {
                            let v = regs[d[e] as usize][l];
                            match r {
                                Res::Shared => mem::write_bytes(bm.shared, eo, es, v),
                                Res::Global => ctx.global.write(eo, es, v),
                                Res::Local => {
                                    if eo + es > bm.local_size {
                                        None
                                    } else {
                                        mem::write_bytes(bm.local, tid * bm.local_size + eo, es, v)
                                    }
                                }
                                Res::Const | Res::KParam => None,
                            }
                        } else {
                            let v = match r {
                                Res::Shared => mem::read_bytes(bm.shared, eo, es),
                                Res::Global => ctx.global.read(eo, es),
                                Res::Local => {
                                    if eo + es > bm.local_size {
                                        None
                                    } else {
                                        mem::read_bytes(bm.local, tid * bm.local_size + eo, es)
                                    }
                                }
                                Res::Const => mem::read_bytes(&ctx.prog.const_bank, eo, es),
                                Res::KParam => mem::read_bytes(ctx.params, eo, es),
                            };
                            v.map(|v| {
                                // sign-extend signed loads into their register width
                                let v = if ty.signed() && es < 4 {
                                    arith::sext(ty, v) as u64 & 0xffff_ffff
                                } else {
                                    v
                                };
                                regs[d[e] as usize][l] = v;
                            })
                        };
                        if ok.is_none() {
                            let kind = if is_st && matches!(r, Res::Const | Res::KParam) {
                                FaultKind::ReadOnly {
                                    space: fault_space(r),
                                }
                            } else {
                                FaultKind::OutOfBounds {
                                    space: fault_space(r),
                                }
                            };
                            return Stop::Fault(kind, pc, Some(l as u32), Some(addrs[l]));
                        }
                    }
                }
            }
            Inst::Atom {
                space,
                op: ao,
                ty,
                addr32,
                d,
                addr,
                off,
                b,
                c,
            } => {
                if mask == 0 {
                    continue;
                }
                let base = &regs[addr as usize];
                let es = ty.bytes() as u64;
                let mut local_addrs = [0u64; 32];
                let mut res_mask = [0u32; 5];
                for l in 0..32 {
                    let bb = if addr32 { base[l] & 0xffff_ffff } else { base[l] };
                    addrs[l] = bb.wrapping_add(off as i64 as u64);
                    if (mask >> l) & 1 != 0 {
                        let (r, o) = resolve(space, addrs[l]);
                        if o % es != 0 || !matches!(r, Res::Shared | Res::Global) {
                            return Stop::Fault(
                                FaultKind::Misaligned {
                                    space: fault_space(r),
                                },
                                pc,
                                Some(l as u32),
                                Some(addrs[l]),
                            );
                        }
                        local_addrs[l] = o;
                        res_mask[r as usize] |= 1 << l;
                    }
                }
                for (ri, r) in [(0usize, Res::Shared), (1, Res::Global)] {
                    if res_mask[ri] != 0 {
                        sink.mem(&MemEvent {
                            block,
                            warp: wi,
                            pc,
                            space: event_space(space, r),
                            op: AccessOp::Atomic,
                            width: es as u8,
                            mask: res_mask[ri],
                            addrs: &local_addrs,
                        });
                    }
                }
                for l in 0..32 {
                    if (mask >> l) & 1 == 0 {
                        continue;
                    }
                    let o = local_addrs[l];
                    let bv = regs[b as usize][l];
                    let cv = if c == NO_REG { 0 } else { regs[c as usize][l] };
                    let f = |old: u64| arith::atom(ao, ty, old, bv, cv);
                    let old = if res_mask[0] >> l & 1 != 0 {
                        mem::read_bytes(bm.shared, o, es)
                            .and_then(|old| mem::write_bytes(bm.shared, o, es, f(old)).map(|_| old))
                    } else {
                        ctx.global.rmw(o, es, f)
                    };
                    let Some(old) = old else {
                        let r = if res_mask[0] >> l & 1 != 0 {
                            Res::Shared
                        } else {
                            Res::Global
                        };
                        return Stop::Fault(
                            FaultKind::OutOfBounds {
                                space: fault_space(r),
                            },
                            pc,
                            Some(l as u32),
                            Some(addrs[l]),
                        );
                    };
                    if d != NO_REG {
                        regs[d as usize][l] = old;
                    }
                }
            }
            Inst::Bra { target, reconv } => {
                let top = w.stack.last_mut().expect("frame");
                if op.guard == PSrc::TRUE {
                    top.pc = target;
                } else {
                    sink.branch(&BranchEvent {
                        block,
                        warp: wi,
                        pc,
                        active,
                        taken: mask,
                    });
                    let nt = active & !mask;
                    if mask == 0 {
                        // fall through
                    } else if nt == 0 {
                        top.pc = target;
                    } else {
                        top.pc = reconv;
                        let rpc = reconv;
                        w.stack.push(Frame {
                            pc: target,
                            rpc,
                            mask,
                        });
                        w.stack.push(Frame {
                            pc: pc + 1,
                            rpc,
                            mask: nt,
                        });
                    }
                }
            }
            Inst::Exit => {
                w.exited |= mask;
            }
            Inst::Trap => {
                if mask != 0 {
                    return Stop::Fault(FaultKind::Trap, pc, Some(mask.trailing_zeros()), None);
                }
            }
            Inst::Bar { kind, id, count: _ } => {
                if mask == 0 {
                    continue;
                }
                let idv = regs[id as usize][mask.trailing_zeros() as usize] as u32;
                let kind = match kind {
                    BarKind::Sync => BarrierKind::Sync,
                    BarKind::Warp => BarrierKind::Warp,
                    BarKind::Arrive => BarrierKind::Arrive,
                };
                sink.barrier(&BarrierEvent {
                    block,
                    warp: wi,
                    pc,
                    active: mask,
                    id: idv,
                    kind,
                });
                if kind == BarrierKind::Sync {
                    w.state = State::AtBarrier { pc, mask };
                    return Stop::Barrier;
                }
            }
            Inst::Shfl { mode, d, p, a, b, c } => {
                let (ra, rb, rc) = (regs[a as usize], regs[b as usize], regs[c as usize]);
                let mut t = [0u64; 32];
                let mut pv = 0u32;
                for l in 0..32u32 {
                    let bval = rb[l as usize] as u32 & 0x1f;
                    let cv = rc[l as usize] as u32;
                    let cval = cv & 0x1f;
                    let segmask = (cv >> 8) & 0x1f;
                    let max_lane = (l & segmask) | (cval & !segmask);
                    let min_lane = l & segmask;
                    let (j, ok) = match mode {
                        ShflMode::Up => {
                            let j = l as i32 - bval as i32;
                            (j, j >= max_lane as i32)
                        }
                        ShflMode::Down => {
                            let j = l as i32 + bval as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Bfly => {
                            let j = (l ^ bval) as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Idx => {
                            let j = (min_lane | (bval & !segmask)) as i32;
                            (j, j <= max_lane as i32)
                        }
                    };
                    let j = if ok { j as usize } else { l as usize };
                    t[l as usize] = ra[j] & 0xffff_ffff;
                    pv |= (ok as u32) << l;
                }
                wr(&mut regs[d as usize], &t, mask);
                pwrite(&mut w.preds, p, pv, mask);
            }
            Inst::Vote { mode, d, p, a } => {
                let av = pval(&w.preds, a) & mask;
                match mode {
                    VoteMode::Ballot => {
                        let t = [av as u64; 32];
                        wr(&mut regs[d as usize], &t, mask);
                    }
                    VoteMode::All => pwrite(&mut w.preds, p, if av == mask { FULL } else { 0 }, mask),
                    VoteMode::Any => pwrite(&mut w.preds, p, if av != 0 { FULL } else { 0 }, mask),
                    VoteMode::Uni => pwrite(
                        &mut w.preds,
                        p,
                        if av == 0 || av == mask { FULL } else { 0 },
                        mask,
                    ),
                }
            }
            Inst::ActiveMask { d } => {
                let t = [active as u64; 32];
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::Clock { d } => {
                let t = [w.insts * 4; 32];
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::Match { all, ty, d, p, a } => {
                let ra = regs[a as usize];
                let mut t = [0u64; 32];
                let mut allsame = true;
                for l in 0..32 {
                    if (mask >> l) & 1 == 0 {
                        continue;
                    }
                    let mut m = 0u32;
                    for j in 0..32 {
                        if (mask >> j) & 1 != 0 && arith::trunc(ty, ra[j]) == arith::trunc(ty, ra[l]) {
                            m |= 1 << j;
                        }
                    }
                    if m != mask {
                        allsame = false;
                    }
                    t[l] = m as u64;
                }
                if all {
                    let v = if allsame { mask as u64 } else { 0 };
                    t = [v; 32];
                    pwrite(&mut w.preds, p, if allsame { FULL } else { 0 }, mask);
                }
                wr(&mut regs[d as usize], &t, mask);
            }
            Inst::Nop => {}
        }
    }
}
