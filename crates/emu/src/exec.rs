//! The block engine: warps with lane-vectorised register rows, a SIMT reconvergence stack, and
//! round-robin scheduling between barriers. The loop only dispatches; semantics live in
//! [`crate::arith`] (reference) and [`crate::fast`] (row kernels tested against it); analyses
//! only see events through the `Sink`.
//!
//! Hot-loop shape: a warp runs straight-line code from its top stack frame with the pc, the
//! reconvergence pc and the active mask in locals; only control instructions (branches, exits,
//! barriers) touch the stack. ALU instructions with a fast path are one indirect call to a
//! monomorphised 32-lane loop working in place on the register rows.

use warpscope_ptx::inst::*;
use warpscope_ptx::{Kernel, Program};

use crate::arith;
use crate::event::{AccessOp, BarrierEvent, BarrierKind, BranchEvent, MemEvent, Sink, Space};
use crate::fast::{FULL, Row, X, XOp, cmp_bits, map1, map2, map3};
use crate::mem::{self, Global};
use crate::remap::SmemMap;
use crate::{EmuFault, FaultKind, Limits};

/// Everything a block needs, shared by all blocks of a run.
pub(crate) struct Ctx<'a> {
    pub prog: &'a Program,
    pub kernel: &'a Kernel,
    /// Decoded instructions of the kernel (index `pc - kernel.entry`).
    pub xops: &'a [XOp],
    pub global: &'a Global,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of the shared window in the kernel's own layout.
    pub smem_size: u32,
    pub dyn_smem: u32,
    /// Shared layout remap (identity when the launch has none).
    pub smap: &'a SmemMap,
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
    /// Waiting at named barrier `id` (reached at `pc`).
    AtBarrier {
        id: u32,
    },
    Done,
}

struct Warp {
    regs: Vec<Row>,
    preds: Vec<u32>,
    stack: Vec<Frame>,
    exited: u32,
    state: State,
    insts: u64,
    /// The `bar.red` this warp waits in: its op, destination register / predicate and lanes.
    red: Option<(RedOp, R, P, u32)>,
}

/// One of the 16 named barriers of a block.
#[derive(Clone, Copy, Debug, Default)]
struct Barrier {
    /// Warps arrived (`bar.sync` and `bar.arrive`) since the last release.
    warps: u32,
    /// Expected thread count (`bar.sync id, count`); `None`: every live thread of the block.
    expected: Option<u32>,
    /// Lowest pc of an arrival since the last release (reported with the release).
    pc: u32,
    /// `bar.red` over the arrivals: threads with a true predicate, and whether one was false.
    popc: u32,
    any_false: bool,
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

/// What a general instruction did to control flow.
enum Flow {
    /// Continue with the next instruction.
    Next,
    /// The stack or the exited mask changed: reload the top frame.
    Reload,
    /// The warp stops (barrier, exit, fault).
    Stop(Stop),
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
    let mut shared = vec![0u8; ctx.smap.size as usize];
    let mut local = vec![0u8; k.local_size as usize * nthreads as usize];
    let mut warps: Vec<Warp> = (0..nwarps)
        .map(|w| {
            let mut regs = vec![[0u64; 32]; k.n_rows as usize];
            for &(r, init) in &k.row_init {
                let row = &mut regs[r as usize];
                match init {
                    RowInit::Const(c) => *row = [c; 32],
                    RowInit::Special(s) => {
                        for (l, v) in row.iter_mut().enumerate() {
                            let t = w * 32 + l as u32;
                            let tid = [t % bx, (t / bx) % by, t / (bx * by)];
                            *v = special(s, tid, ctx, cta, w, nwarps, l as u32);
                        }
                    }
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
                red: None,
            }
        })
        .collect();
    let mut out = BlockOut {
        warp_insts: 0,
        thread_insts: 0,
        fault: None,
    };
    let mut bars = [Barrier::default(); 16];
    let mut generation = 0u32;
    let mut budget = ctx.limits.max_warp_insts_per_block;
    let fault = |out: &mut BlockOut, warp: u32, pc: u32, lane, addr, kind| {
        out.fault = Some(EmuFault {
            block: block_lin,
            warp,
            pc,
            lane,
            addr,
            kind,
        });
    };
    loop {
        for wi in 0..warps.len() {
            if warps[wi].state != State::Ready {
                continue;
            }
            let mut bm = BlockMem {
                shared: &mut shared,
                local: &mut local,
                local_size: k.local_size as u64,
            };
            let w = &mut warps[wi];
            let stop = run_warp(
                ctx,
                block_lin,
                wi as u32,
                w,
                &mut bm,
                sink,
                &mut budget,
                &mut out,
                &mut bars,
            );
            match stop {
                Stop::Barrier => {}
                Stop::Exit => {
                    w.state = State::Done;
                    sink.warp_exit(wi as u32);
                }
                Stop::Fault(kind, pc, lane, addr) => {
                    fault(&mut out, wi as u32, pc, lane, addr, kind);
                    return out;
                }
            }
            // the warp's arrivals may complete a counted barrier
            release(&mut warps, &mut bars, &mut generation, block_lin, sink, false);
        }
        if warps.iter().all(|w| w.state == State::Done) {
            return out;
        }
        if warps.iter().any(|w| w.state == State::Ready) {
            continue;
        }
        // every live warp waits at a barrier: complete those that can complete
        if !release(&mut warps, &mut bars, &mut generation, block_lin, sink, true) {
            // deadlock: no warp can run and no barrier can complete
            let (wi, id) = warps
                .iter()
                .enumerate()
                .find_map(|(i, w)| match w.state {
                    State::AtBarrier { id } => Some((i, id)),
                    _ => None,
                })
                .unwrap_or((0, 0));
            fault(
                &mut out,
                wi as u32,
                bars[id as usize].pc,
                None,
                None,
                FaultKind::DivergentBarrier,
            );
            return out;
        }
    }
}

/// Completes barriers. A counted barrier completes when its arrivals reach the count; an uncounted
/// one (`bar.sync 0`, `__syncthreads`) when every live warp waits at it (`all_waiting`: no warp of
/// the block can run). Returns whether any barrier completed.
fn release<S: Sink>(
    warps: &mut [Warp],
    bars: &mut [Barrier; 16],
    generation: &mut u32,
    block: u32,
    sink: &mut S,
    all_waiting: bool,
) -> bool {
    let mut any = false;
    let live = warps.iter().filter(|w| w.state != State::Done).count() as u32;
    for (id, bar) in bars.iter_mut().enumerate() {
        let b = *bar;
        if b.warps == 0 {
            continue;
        }
        let done = match b.expected {
            Some(c) => b.warps * 32 >= c,
            None => all_waiting && b.warps >= live,
        };
        if !done {
            continue;
        }
        any = true;
        *generation += 1;
        sink.barrier_release(block, b.pc, *generation);
        *bar = Barrier::default();
        for w in warps.iter_mut() {
            if w.state == (State::AtBarrier { id: id as u32 }) {
                w.state = State::Ready;
                if let Some((op, d, p, mask)) = w.red.take() {
                    match op {
                        RedOp::Popc => wr(&mut w.regs[d as usize], &[u64::from(b.popc); 32], mask),
                        RedOp::And => pwrite(&mut w.preds, p, if b.any_false { 0 } else { FULL }, mask),
                        RedOp::Or => pwrite(&mut w.preds, p, if b.popc > 0 { FULL } else { 0 }, mask),
                    }
                }
            }
        }
    }
    any
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
    shared: &'b mut [u8],
    local: &'b mut [u8],
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
    bars: &mut [Barrier; 16],
) -> Stop {
    let xops = ctx.xops;
    let entry = ctx.kernel.entry;
    let kend = ctx.kernel.end;
    'frame: loop {
        let Some(&top) = w.stack.last() else {
            return Stop::Exit;
        };
        let rpc = top.rpc;
        let active = top.mask & !w.exited;
        if active == 0 {
            w.stack.pop();
            continue;
        }
        let nact = active.count_ones() as u64;
        let mut pc = top.pc;
        loop {
            if pc == rpc {
                w.stack.pop();
                continue 'frame;
            }
            if pc >= kend || pc < entry {
                return Stop::Fault(FaultKind::FellOffEnd, pc, None, None);
            }
            if *budget == 0 {
                return Stop::Fault(FaultKind::InstructionLimit, pc, None, None);
            }
            *budget -= 1;
            w.insts += 1;
            out.warp_insts += 1;
            out.thread_insts += nact;
            sink.inst(wi, pc, active);
            let op = xops[(pc - entry) as usize];
            let mask = active & pval(&w.preds, op.guard);
            match op.x {
                X::U2(f, d, a, b) => f(&mut w.regs, d, a, b, mask),
                X::U3(f, d, a, b, c) => f(&mut w.regs, d, a, b, c, mask),
                X::U1(f, d, a) => f(&mut w.regs, d, a, mask),
                X::Setp(f, p, q, a, b) => {
                    let bits = f(&w.regs[a as usize], &w.regs[b as usize]);
                    pwrite(&mut w.preds, p, bits, mask);
                    pwrite(&mut w.preds, q, !bits, mask);
                }
                X::Gen(inst) => {
                    if let Some(t) = w.stack.last_mut() {
                        t.pc = pc + 1;
                    }
                    match general(
                        ctx, block, wi, w, bm, sink, bars, inst, op.guard, pc, active, mask,
                    ) {
                        Flow::Next => {}
                        Flow::Reload => continue 'frame,
                        Flow::Stop(s) => return s,
                    }
                }
            }
            pc += 1;
        }
    }
}

/// Executes an instruction without a fast path. The top frame's pc already points after it.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn general<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    bars: &mut [Barrier; 16],
    inst: Inst,
    guard: PSrc,
    pc: u32,
    active: u32,
    mask: u32,
) -> Flow {
    let regs = &mut w.regs[..];
    match inst {
        Inst::Un { op: uo, ty, d, a } => map1(regs, d, a, mask, |x| arith::un(uo, ty, x)),
        Inst::Bin { op: bo, ty, d, a, b } => map2(regs, d, a, b, mask, |x, y| arith::bin(bo, ty, x, y)),
        Inst::Tern {
            op: to,
            ty,
            d,
            a,
            b,
            c,
        } => map3(regs, d, a, b, c, mask, |x, y, z| arith::tern(to, ty, x, y, z)),
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
            let bits = cmp_bits(&regs[a as usize], &regs[b as usize], |x, y| {
                arith::cmp(cmp, ty, x, y)
            });
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
        Inst::Cvt {
            dty,
            sty,
            rnd,
            sat,
            d,
            a,
        } => map1(regs, d, a, mask, |x| arith::cvt(dty, sty, rnd, sat, x)),
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
        Inst::Lop3 { d, a, b, c, lut } => map3(regs, d, a, b, c, mask, |x, y, z| arith::lop3(x, y, z, lut)),
        Inst::Selp { ty, d, a, b, p } => {
            let pv = pval(&w.preds, p);
            let (ra, rb) = (regs[a as usize], regs[b as usize]);
            let mut t = [0u64; 32];
            for l in 0..32 {
                t[l] = arith::trunc(ty, if (pv >> l) & 1 != 0 { ra[l] } else { rb[l] });
            }
            wr(&mut regs[d as usize], &t, mask);
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
            let bits = cmp_bits(&regs[a as usize], &regs[a as usize], |x, _| x != 0);
            pwrite(&mut w.preds, d, bits, mask);
        }
        Inst::TestP { prop, ty, p, a } => {
            let bits = cmp_bits(&regs[a as usize], &regs[a as usize], |x, _| {
                arith::testp(prop, ty, x)
            });
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
        } => {
            if mask != 0
                && let Err(s) = ldst(
                    ctx, block, wi, w, bm, sink, pc, mask, false, space, ty, vec, addr32, d, addr, off,
                )
            {
                return Flow::Stop(s);
            }
        }
        Inst::St {
            space,
            ty,
            vec,
            addr32,
            a,
            addr,
            off,
        } => {
            if mask != 0
                && let Err(s) = ldst(
                    ctx, block, wi, w, bm, sink, pc, mask, true, space, ty, vec, addr32, a, addr, off,
                )
            {
                return Flow::Stop(s);
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
            if mask != 0
                && let Err(s) = atom(
                    ctx, block, wi, w, bm, sink, pc, mask, space, ao, ty, addr32, d, addr, off, b, c,
                )
            {
                return Flow::Stop(s);
            }
        }
        Inst::Bra { target, reconv } => {
            let top = w.stack.last_mut().expect("frame");
            if guard == PSrc::TRUE {
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
                    return Flow::Next;
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
            return Flow::Reload;
        }
        Inst::Exit => {
            if mask != 0 {
                w.exited |= mask;
                return Flow::Reload;
            }
        }
        Inst::Trap => {
            if mask != 0 {
                return Flow::Stop(Stop::Fault(
                    FaultKind::Trap,
                    pc,
                    Some(mask.trailing_zeros()),
                    None,
                ));
            }
        }
        Inst::Bar { .. } | Inst::BarRed { .. } => {
            if mask == 0 {
                return Flow::Next;
            }
            let (kind, id, count, red) = match inst {
                Inst::Bar { kind, id, count } => (kind, id, count, None),
                Inst::BarRed {
                    op,
                    id,
                    count,
                    d,
                    p,
                    c,
                } => (BarKind::Sync, id, count, Some((op, d, p, c))),
                _ => unreachable!(),
            };
            let first = mask.trailing_zeros() as usize;
            let idv = regs[id as usize][first] as u32;
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
            if kind == BarrierKind::Warp {
                return Flow::Next;
            }
            let live = !w.exited;
            if mask != live || idv >= 16 {
                // a block barrier reached by part of the warp's live threads, or a bad id
                let lane = if idv >= 16 {
                    first as u32
                } else {
                    (live & !mask).trailing_zeros()
                };
                return Flow::Stop(Stop::Fault(FaultKind::DivergentBarrier, pc, Some(lane), None));
            }
            let b = &mut bars[idv as usize];
            b.pc = if b.warps == 0 { pc } else { b.pc.min(pc) };
            b.warps += 1;
            if count != NO_REG {
                b.expected = Some(regs[count as usize][first] as u32);
            }
            if let Some((op, d, p, c)) = red {
                let v = pval(&w.preds, c) & mask;
                b.popc += v.count_ones();
                b.any_false |= v != mask;
                w.red = Some((op, d, p, mask));
            }
            if kind == BarrierKind::Sync {
                w.state = State::AtBarrier { id: idv };
                return Flow::Stop(Stop::Barrier);
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
    Flow::Next
}

/// All ones if lane `l` is in `mask`, else zero.
#[inline(always)]
fn lane_bits(mask: u32, l: usize) -> u64 {
    0u64.wrapping_sub((mask >> l & 1) as u64)
}

/// Runs `f` on the lanes of `mask` in ascending order; stops at the first lane where it fails
/// and returns that lane.
#[inline(always)]
fn lanes(mask: u32, mut f: impl FnMut(usize) -> Option<()>) -> Option<usize> {
    if mask == FULL {
        for l in 0..32 {
            if f(l).is_none() {
                return Some(l);
            }
        }
        return None;
    }
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        if f(l).is_none() {
            return Some(l);
        }
    }
    None
}

/// A fault of an access at lane `l`.
#[cold]
fn access_fault(kind: FaultKind, pc: u32, l: usize, addr: u64) -> Stop {
    Stop::Fault(kind, pc, Some(l as u32), Some(addr))
}

/// Resolves the lanes of `mask`: instruction addresses (for faults), concrete spaces and offsets,
/// with alignment to `align` checked. Returns the per-space lane masks.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn resolve_lanes(
    regs: &[Row],
    space: MemSpace,
    addr: R,
    addr32: bool,
    off: i32,
    mask: u32,
    align: u64,
    pc: u32,
    addrs: &mut [u64; 32],
    kinds: &mut [Res; 32],
    offs: &mut [u64; 32],
) -> Result<[u32; 5], Stop> {
    let base = &regs[addr as usize];
    let offv = off as i64 as u64;
    let mut res_mask = [0u32; 5];
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let b = if addr32 { base[l] & 0xffff_ffff } else { base[l] };
        let a = b.wrapping_add(offv);
        addrs[l] = a;
        let (r, o) = resolve(space, a);
        if o % align != 0 {
            return Err(access_fault(
                FaultKind::Misaligned {
                    space: fault_space(r),
                },
                pc,
                l,
                a,
            ));
        }
        kinds[l] = r;
        offs[l] = o;
        res_mask[r as usize] |= 1 << l;
    }
    Ok(res_mask)
}

const RES: [Res; 5] = [Res::Shared, Res::Global, Res::Local, Res::Const, Res::KParam];

/// Sends one event per concrete space; shared addresses are reported remapped.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn emit<S: Sink>(
    ctx: &Ctx<'_>,
    sink: &mut S,
    block: u32,
    wi: u32,
    pc: u32,
    space: MemSpace,
    op: AccessOp,
    width: u64,
    res_mask: &[u32; 5],
    offs: &[u64; 32],
) {
    let remapped;
    let mut ev = offs;
    if res_mask[0] != 0 && !ctx.smap.is_identity() {
        let mut t = *offs;
        let mut m = res_mask[0];
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            t[l] = ctx.smap.map(t[l]);
        }
        remapped = t;
        ev = &remapped;
    }
    for (ri, &m) in res_mask.iter().enumerate() {
        if m == 0 {
            continue;
        }
        sink.mem(&MemEvent {
            block,
            warp: wi,
            pc,
            space: event_space(space, RES[ri]),
            op,
            width: width as u8,
            mask: m,
            addrs: ev,
        });
    }
}

/// Shared offset of an access of `w` bytes at original offset `o`, checked against the original
/// window (so faults do not depend on a remap), then moved by the remap.
#[inline(always)]
fn shared_at(ctx: &Ctx<'_>, o: u64, w: u64) -> Option<u64> {
    if o.checked_add(w)? > ctx.smem_size as u64 {
        return None;
    }
    Some(if ctx.smap.is_identity() {
        o
    } else {
        ctx.smap.map(o)
    })
}

#[allow(clippy::too_many_arguments)]
fn ldst<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    is_st: bool,
    space: MemSpace,
    ty: Ty,
    vec: u8,
    addr32: bool,
    r: [R; 4],
    addr: R,
    off: i32,
) -> Result<(), Stop> {
    let regs = &mut w.regs[..];
    let es = ty.bytes() as u64;
    let width = es * vec as u64;
    let mut addrs = [0u64; 32];
    let op = if is_st { AccessOp::Store } else { AccessOp::Load };
    if matches!(space, MemSpace::Shared | MemSpace::Global) && vec == 1 && !(ty.signed() && es < 4) {
        // fast path: one concrete space, one element per lane, no sign extension
        let base = &regs[addr as usize];
        let offv = off as i64 as u64;
        let am = if addr32 { 0xffff_ffffu64 } else { u64::MAX };
        let mut acc = 0u64;
        if mask == FULL {
            // no lane to leave out of the alignment check: a loop the compiler vectorises
            for (a, &b) in addrs.iter_mut().zip(base.iter()) {
                *a = (b & am).wrapping_add(offv);
                acc |= *a;
            }
        } else {
            for l in 0..32 {
                let a = (base[l] & am).wrapping_add(offv);
                addrs[l] = a;
                acc |= a & lane_bits(mask, l);
            }
        }
        let (res, sp) = if space == MemSpace::Shared {
            (Res::Shared, Space::Shared)
        } else {
            (Res::Global, Space::Global)
        };
        if acc & (es - 1) != 0 {
            let l = (0..32)
                .find(|&l| mask >> l & 1 != 0 && addrs[l] % es != 0)
                .unwrap_or(0);
            return Err(access_fault(FaultKind::Misaligned { space: sp }, pc, l, addrs[l]));
        }
        let mut res_mask = [0u32; 5];
        res_mask[res as usize] = mask;
        emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &addrs);
        let row = &mut regs[r[0] as usize];
        let bad = match (res, is_st, ctx.smap.is_identity()) {
            (Res::Shared, false, true) if es == 4 => {
                let sh: &[u8] = bm.shared;
                lanes(mask, |l| {
                    let o = addrs[l] as usize;
                    let b = <[u8; 4]>::try_from(sh.get(o..o.wrapping_add(4))?).ok()?;
                    row[l] = u32::from_le_bytes(b) as u64;
                    Some(())
                })
            }
            (Res::Shared, true, true) if es == 4 => {
                let sh: &mut [u8] = bm.shared;
                lanes(mask, |l| {
                    let o = addrs[l] as usize;
                    sh.get_mut(o..o.wrapping_add(4))?
                        .copy_from_slice(&(row[l] as u32).to_le_bytes());
                    Some(())
                })
            }
            (Res::Shared, false, true) => lanes(mask, |l| {
                mem::read_bytes(bm.shared, addrs[l], es).map(|v| row[l] = v)
            }),
            (Res::Shared, true, true) => lanes(mask, |l| mem::write_bytes(bm.shared, addrs[l], es, row[l])),
            (Res::Shared, false, false) => lanes(mask, |l| {
                shared_at(ctx, addrs[l], es)
                    .and_then(|at| mem::read_bytes(bm.shared, at, es))
                    .map(|v| row[l] = v)
            }),
            (Res::Shared, true, false) => lanes(mask, |l| {
                shared_at(ctx, addrs[l], es).and_then(|at| mem::write_bytes(bm.shared, at, es, row[l]))
            }),
            (_, false, _) => {
                // 4-byte loads of a whole warp from one buffer: the buffer found once
                let span = if es == 4 && mask == FULL {
                    let (lo, hi) = addrs
                        .iter()
                        .fold((u64::MAX, 0), |(lo, hi), &a| (lo.min(a), hi.max(a)));
                    hi.checked_add(4).and_then(|end| ctx.global.span(lo, end))
                } else {
                    None
                };
                if let Some((words, base)) = span {
                    for (v, &a) in row.iter_mut().zip(&addrs) {
                        *v = u64::from(
                            words[((a - base) / 4) as usize].load(std::sync::atomic::Ordering::Relaxed),
                        );
                    }
                    None
                } else {
                    let mut hint = 0usize;
                    lanes(mask, |l| {
                        ctx.global.read_hint(&mut hint, addrs[l], es).map(|v| row[l] = v)
                    })
                }
            }
            (_, true, _) => {
                let mut hint = 0usize;
                lanes(mask, |l| ctx.global.write_hint(&mut hint, addrs[l], es, row[l]))
            }
        };
        if let Some(l) = bad {
            return Err(access_fault(
                FaultKind::OutOfBounds { space: sp },
                pc,
                l,
                addrs[l],
            ));
        }
        return Ok(());
    }
    let mut kinds = [Res::Global; 32];
    let mut offs = [0u64; 32];
    let res_mask = resolve_lanes(
        regs, space, addr, addr32, off, mask, es, pc, &mut addrs, &mut kinds, &mut offs,
    )?;
    emit(ctx, sink, block, wi, pc, space, op, width, &res_mask, &offs);
    let sext = ty.signed() && es < 4;
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let (kind, o) = (kinds[l], offs[l]);
        let tid = wi as u64 * 32 + l as u64;
        for e in 0..vec as usize {
            let eo = o.wrapping_add(e as u64 * es);
            let ok = if is_st {
                let v = regs[r[e] as usize][l];
                match kind {
                    Res::Shared => {
                        shared_at(ctx, eo, es).and_then(|at| mem::write_bytes(bm.shared, at, es, v))
                    }
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
                let v = match kind {
                    Res::Shared => shared_at(ctx, eo, es).and_then(|at| mem::read_bytes(bm.shared, at, es)),
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
                    let v = if sext {
                        arith::sext(ty, v) as u64 & 0xffff_ffff
                    } else {
                        v
                    };
                    regs[r[e] as usize][l] = v;
                })
            };
            if ok.is_none() {
                let kind = if is_st && matches!(kind, Res::Const | Res::KParam) {
                    FaultKind::ReadOnly {
                        space: fault_space(kind),
                    }
                } else {
                    FaultKind::OutOfBounds {
                        space: fault_space(kind),
                    }
                };
                return Err(access_fault(kind, pc, l, addrs[l]));
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn atom<S: Sink>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    bm: &mut BlockMem<'_>,
    sink: &mut S,
    pc: u32,
    mask: u32,
    space: MemSpace,
    ao: AtomOp,
    ty: Ty,
    addr32: bool,
    d: R,
    addr: R,
    off: i32,
    b: R,
    c: R,
) -> Result<(), Stop> {
    let regs = &mut w.regs[..];
    let es = ty.bytes() as u64;
    let mut addrs = [0u64; 32];
    let mut kinds = [Res::Global; 32];
    let mut offs = [0u64; 32];
    let res_mask = resolve_lanes(
        regs, space, addr, addr32, off, mask, es, pc, &mut addrs, &mut kinds, &mut offs,
    )?;
    if res_mask[2] | res_mask[3] | res_mask[4] != 0 {
        let l = (res_mask[2] | res_mask[3] | res_mask[4]).trailing_zeros() as usize;
        return Err(access_fault(
            FaultKind::Misaligned {
                space: fault_space(kinds[l]),
            },
            pc,
            l,
            addrs[l],
        ));
    }
    emit(
        ctx,
        sink,
        block,
        wi,
        pc,
        space,
        AccessOp::Atomic,
        es,
        &res_mask,
        &offs,
    );
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let o = offs[l];
        let bv = regs[b as usize][l];
        let cv = if c == NO_REG { 0 } else { regs[c as usize][l] };
        let f = |old: u64| arith::atom(ao, ty, old, bv, cv);
        let old = if kinds[l] == Res::Shared {
            shared_at(ctx, o, es).and_then(|at| {
                mem::read_bytes(bm.shared, at, es)
                    .and_then(|old| mem::write_bytes(bm.shared, at, es, f(old)).map(|_| old))
            })
        } else {
            ctx.global.rmw(o, es, f)
        };
        let Some(old) = old else {
            return Err(access_fault(
                FaultKind::OutOfBounds {
                    space: fault_space(kinds[l]),
                },
                pc,
                l,
                addrs[l],
            ));
        };
        if d != NO_REG {
            regs[d as usize][l] = old;
        }
    }
    Ok(())
}
