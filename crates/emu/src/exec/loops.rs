//! Loop iterations repeated at once, when stepping them would change nothing but a counter.
//!
//! A loop qualifies ([`find`]) when its body is straight-line code that ends in its conditional
//! backward branch: arithmetic, compares and plain global loads and stores, none guarded; every
//! register the body reads before writing it is either unwritten by the body or a counter
//! (`r = r + s` or `r = r - s`, written once, `s` unwritten) that only its own update and one
//! compare read; and the branch's predicate is that compare of a counter with an unwritten
//! register, read by nothing else.
//!
//! The warp runs alone while it loops (a block's warps take turns only at barriers, exits and
//! yields, none of which such a body has), so what an iteration reads is the registers it does not
//! write, the counters (which reach only the compare) and memory. When an iteration stored only
//! values the memory already held ([`Tap`] checks each stored lane against memory before the
//! store), the next iteration starts from the same memory and the same registers but the counters,
//! so it does exactly what this one did; while the compare takes the branch for every active lane,
//! so does every one after it. [`after_branch`] then adds the iterations the counters' compare
//! still takes ([`trips`]) at once: the sink is told to repeat the recorded events
//! ([`Sink::repeat`]), the instruction counts and the budget move by as many iterations, and the
//! counters by as many steps. The next iteration runs as before.
//!
//! Other blocks running in parallel may write what the loop reads: the determinism shadow logs the
//! words the recorded iteration read (the same words every repeated iteration would read, since
//! memory holds what it held), sees the clash and runs the launch again in block order, where no
//! block runs beside another; the words a block logs are the same with or without the repeat.

use warpscope_ptx::inst::{BinOp, Cmp, Inst, MemSpace, NO_REG, Op, P, PRED_TRUE, PSrc, R, Ty};

use super::{BlockOut, Ctx, Warp};
use crate::event::{AccessOp, IterEvent, Iteration, LaneMask, MemEvent, Sink, Space};
use crate::mem::Global;

/// Where a warp stands with the qualifying loop whose branch it took last: how many times in a
/// row every active lane took it, and when it next records an iteration (an iteration that
/// changed memory makes the next recording wait twice as long, up to 65,536 iterations).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LoopRun {
    pc: u32,
    taken: u64,
    next: u64,
    fails: u32,
}

/// After warp `wi` ran the guarded branch at `pc` (`active` lanes, `taken` of them jumped): ends
/// the recording of an iteration of a qualifying loop there and, when the iteration was clean,
/// repeats it as many times as the compare still takes the branch and the budget allows (see
/// the module's documentation); starts recording the next iteration when its turn has come.
#[allow(clippy::too_many_arguments)]
pub(super) fn after_branch<S: Sink, const REC: bool>(
    ctx: &Ctx<'_>,
    block: u32,
    wi: u32,
    w: &mut Warp,
    tap: &mut Tap<'_, S, REC>,
    budget: &mut u64,
    out: &mut BlockOut,
    gwrites: &mut u64,
    pc: u32,
    active: u32,
    taken: u32,
) {
    if !REC {
        return;
    }
    let Some(l) = ctx.loops.iter().find(|l| l.branch == pc) else {
        tap.stop(u32::MAX);
        return;
    };
    // every active lane goes round again, in a frame that does not end inside the body
    let whole = taken == active
        && active != 0
        && w.stack
            .last()
            .is_some_and(|f| f.pc == l.head && !(l.head..=l.branch).contains(&f.rpc));
    if !whole {
        tap.stop(u32::MAX);
        w.lp = LoopRun::default();
        return;
    }
    if w.lp.pc != pc {
        w.lp = LoopRun {
            pc,
            taken: 0,
            next: 1,
            fails: 0,
        };
    }
    let counts = |w: &Warp, out: &BlockOut, budget: u64, gwrites: u64| {
        [budget, w.insts, out.warp_insts, out.thread_insts, gwrites]
    };
    if tap.recording() {
        if tap.stop(pc) {
            let now = counts(w, out, *budget, *gwrites);
            let at = tap.at;
            // one iteration's instructions (from the budget), counts and global writes
            let per = [
                at[0] - now[0],
                now[1] - at[1],
                now[2] - at[2],
                now[3] - at[3],
                now[4] - at[4],
            ];
            let mut m = (*budget).checked_div(per[0]).unwrap_or(0);
            let c = l.counters[l.compared];
            let mut lanes = active;
            while lanes != 0 && m > 0 {
                let ln = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let r = &w.regs;
                m = m.min(trips(
                    l,
                    r[c.row as usize][ln],
                    r[c.step as usize][ln],
                    r[l.bound as usize][ln],
                ));
            }
            if m > 0 {
                tap.sink.repeat(&tap.it, m);
                *budget -= m * per[0];
                w.insts += m * per[1];
                out.warp_insts += m * per[2];
                out.thread_insts += m * per[3];
                *gwrites += m * per[4];
                for c in &l.counters {
                    let mut lanes = active;
                    while lanes != 0 {
                        let ln = lanes.trailing_zeros() as usize;
                        lanes &= lanes - 1;
                        let step = w.regs[c.step as usize][ln];
                        let row = &mut w.regs[c.row as usize][ln];
                        *row = advance(c, *row, step, m);
                    }
                }
            }
            w.lp.fails = 0;
        } else {
            w.lp.fails = (w.lp.fails + 1).min(16);
            w.lp.next = w.lp.taken + (1u64 << w.lp.fails);
        }
    }
    w.lp.taken += 1;
    if w.lp.taken >= w.lp.next {
        tap.start(block, wi, pc, counts(w, out, *budget, *gwrites));
    }
}

/// A counter of a loop: `row = row + step` (or `- step` with `sub`), `bytes` wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counter {
    pub row: R,
    pub step: R,
    pub sub: bool,
    pub bytes: u32,
}

/// A loop whose iterations may be repeated at once (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loop {
    /// The first pc of the body (the branch's target).
    pub head: u32,
    /// The pc of the backward branch.
    pub branch: u32,
    pub counters: Vec<Counter>,
    /// The counter the compare reads, and the compare as `counter op bound` (operands swapped
    /// where the PTX compares `bound op counter`; negated where the branch is taken on false).
    pub compared: usize,
    pub bound: R,
    pub op: Rel,
    /// The compare's operand interpretation: signed.
    pub signed: bool,
    /// The compare reads the counter before its update in the body (1) or after (0).
    pub delta: u8,
}

/// The relation the branch is taken on, as `counter rel bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    fn swap(self) -> Rel {
        match self {
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
            r => r,
        }
    }
    fn not(self) -> Rel {
        match self {
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
        }
    }
}

/// Rows and predicates an instruction of a qualifying body reads and writes; `None` for any
/// other instruction.
struct Rw {
    reads: Vec<R>,
    writes: Vec<R>,
    pread: Vec<P>,
    pwrite: Vec<P>,
}

fn rw(inst: &Inst) -> Option<Rw> {
    let mk = |reads: &[R], writes: &[R]| Rw {
        reads: reads.iter().copied().filter(|&r| r != NO_REG).collect(),
        writes: writes.iter().copied().filter(|&r| r != NO_REG).collect(),
        pread: Vec::new(),
        pwrite: Vec::new(),
    };
    Some(match *inst {
        Inst::Un { d, a, .. } | Inst::Cvt { d, a, .. } => mk(&[a], &[d]),
        Inst::Bin { d, a, b, .. } | Inst::Set { d, a, b, .. } => mk(&[a, b], &[d]),
        Inst::Tern { d, a, b, c, .. } | Inst::FRound { d, a, b, c, .. } | Inst::Lop3 { d, a, b, c, .. } => {
            mk(&[a, b, c], &[d])
        }
        Inst::Selp { d, a, b, p, .. } => {
            let mut x = mk(&[a, b], &[d]);
            if p.idx != PRED_TRUE {
                x.pread.push(p.idx);
            }
            x
        }
        Inst::Setp {
            p,
            q,
            a,
            b,
            bop: None,
            ..
        } => {
            let mut x = mk(&[a, b], &[]);
            x.pwrite = [p, q].into_iter().filter(|&p| p != PRED_TRUE).collect();
            x
        }
        Inst::Ld {
            space: MemSpace::Global,
            vec,
            sync: false,
            d,
            addr,
            ..
        } if (1..=4).contains(&vec) => mk(&[addr], &d[..vec as usize]),
        Inst::St {
            space: MemSpace::Global,
            vec,
            a,
            addr,
            ..
        } if (1..=4).contains(&vec) => {
            let mut reads = a[..vec as usize].to_vec();
            reads.push(addr);
            mk(&reads, &[])
        }
        _ => return None,
    })
}

fn int_bytes(ty: Ty) -> Option<u32> {
    match ty {
        Ty::U32 | Ty::S32 => Some(4),
        Ty::U64 | Ty::S64 => Some(8),
        _ => None,
    }
}

/// The loops of the kernel whose instructions are `ops` (the first at pc `entry`) that qualify.
pub(crate) fn find(ops: &[Op], entry: u32) -> Vec<Loop> {
    ops.iter()
        .enumerate()
        .filter_map(|(k, op)| {
            let Inst::Bra { target, .. } = op.inst else {
                return None;
            };
            let pc = entry + k as u32;
            if op.guard.idx == PRED_TRUE || target >= pc || target < entry {
                return None;
            }
            qualify(&ops[(target - entry) as usize..k], target, op.guard).map(|l| Loop { branch: pc, ..l })
        })
        .collect()
}

/// The loop of `body` (from pc `head`, without its branch), taken on `guard`, if it qualifies.
fn qualify(body: &[Op], head: u32, guard: PSrc) -> Option<Loop> {
    let rws: Vec<Rw> = body
        .iter()
        .map(|op| {
            if op.guard == PSrc::TRUE {
                rw(&op.inst)
            } else {
                None
            }
        })
        .collect::<Option<_>>()?;
    let written = |r: R| rws.iter().filter(|x| x.writes.contains(&r)).count();
    let pwritten = |p: P| rws.iter().filter(|x| x.pwrite.contains(&p)).count();
    // registers read before the body writes them, of those it writes: the counters
    let mut carried: Vec<R> = Vec::new();
    let mut done_rows: Vec<R> = Vec::new();
    let mut done_preds: Vec<P> = Vec::new();
    for x in &rws {
        for &r in &x.reads {
            if written(r) > 0 && !done_rows.contains(&r) && !carried.contains(&r) {
                carried.push(r);
            }
        }
        // a predicate the body writes must be written before it is read
        if x.pread
            .iter()
            .any(|&p| pwritten(p) > 0 && !done_preds.contains(&p))
        {
            return None;
        }
        done_rows.extend(&x.writes);
        done_preds.extend(&x.pwrite);
    }
    // the branch's predicate: written once, by a compare
    if pwritten(guard.idx) != 1 {
        return None;
    }
    let ci = rws.iter().position(|x| x.pwrite.contains(&guard.idx))?;
    let Inst::Setp {
        cmp,
        ty,
        p,
        q,
        a,
        b,
        bop: None,
        ..
    } = body[ci].inst
    else {
        return None;
    };
    // what the compare writes, nothing in the body reads
    if rws.iter().any(|x| x.pread.iter().any(|&r| r == p || r == q)) {
        return None;
    }
    let mut counters = Vec::new();
    let mut updates = Vec::new();
    for &r in &carried {
        if written(r) != 1 {
            return None;
        }
        let ui = rws.iter().position(|x| x.writes.contains(&r))?;
        let Inst::Bin { op, ty, d, a, b } = body[ui].inst else {
            return None;
        };
        let bytes = int_bytes(ty)?;
        let step = match op {
            BinOp::Add if d == a && b != r => b,
            BinOp::Add if d == b && a != r => a,
            BinOp::Sub if d == a && b != r => b,
            _ => return None,
        };
        if written(step) > 0 {
            return None;
        }
        // read by its update and the compare only
        if rws
            .iter()
            .enumerate()
            .any(|(i, x)| i != ui && i != ci && x.reads.contains(&r))
        {
            return None;
        }
        counters.push(Counter {
            row: r,
            step,
            sub: op == BinOp::Sub,
            bytes,
        });
        updates.push(ui);
    }
    // the compare: a counter against a register the body does not write
    let bytes = int_bytes(ty)?;
    let (compared, bound, swapped) = match (
        counters.iter().position(|c| c.row == a),
        counters.iter().position(|c| c.row == b),
    ) {
        (Some(i), None) => (i, b, false),
        (None, Some(i)) => (i, a, true),
        _ => return None,
    };
    if written(bound) > 0 || counters[compared].bytes != bytes {
        return None;
    }
    // every counter the compare reads is a counter; every other register it reads is unwritten
    let (op, signed) = match cmp {
        Cmp::Eq => (Rel::Eq, ty.signed()),
        Cmp::Ne => (Rel::Ne, ty.signed()),
        Cmp::Lt => (Rel::Lt, ty.signed()),
        Cmp::Le => (Rel::Le, ty.signed()),
        Cmp::Gt => (Rel::Gt, ty.signed()),
        Cmp::Ge => (Rel::Ge, ty.signed()),
        Cmp::Lo => (Rel::Lt, false),
        Cmp::Ls => (Rel::Le, false),
        Cmp::Hi => (Rel::Gt, false),
        Cmp::Hs => (Rel::Ge, false),
        _ => return None,
    };
    let op = if swapped { op.swap() } else { op };
    // the branch is taken where its predicate is true: `p` true, or `q` (= !p) true, negated
    let on_false = (guard.idx == q) ^ guard.neg;
    let op = if on_false { op.not() } else { op };
    let delta = u8::from(ci < updates[compared]);
    Some(Loop {
        head,
        branch: 0,
        counters,
        compared,
        bound,
        op,
        signed,
        delta,
    })
}

/// How many iterations after the current one the branch is still taken by a lane whose compared
/// counter holds `x` now (after this iteration's update), moving by `step` (`sub`: minus) each
/// iteration, against `bound`: the largest `m` such that the compare takes the branch in each of
/// the next `m` iterations, counted only while the counter's value does not wrap around its type
/// (the caller steps past a wrap and may repeat again after it). `u64::MAX` when it never stops.
pub(crate) fn trips(l: &Loop, x: u64, step: u64, bound: u64) -> u64 {
    let c = l.counters[l.compared];
    let bits = 8 * c.bytes;
    let (lo, hi): (i128, i128) = if l.signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let val = |v: u64| -> i128 {
        let t = if bits == 64 { v } else { v & ((1u64 << bits) - 1) };
        if l.signed {
            if bits == 64 {
                t as i64 as i128
            } else {
                t as u32 as i32 as i128
            }
        } else {
            t as i128
        }
    };
    // the step as a signed number of the counter's width (adding it wraps as the update does)
    let s = {
        let t = if bits == 64 {
            step
        } else {
            step & ((1u64 << bits) - 1)
        };
        let s = if bits == 64 {
            t as i64 as i128
        } else {
            t as u32 as i32 as i128
        };
        if c.sub { -s } else { s }
    };
    let (x0, b) = (val(x), val(bound));
    let d = i128::from(l.delta);
    // the value the compare reads in iteration j (j >= 1 after the current one), while no wrap
    let at = |j: i128| x0 + (j - d) * s;
    let holds = |v: i128| match l.op {
        Rel::Lt => v < b,
        Rel::Le => v <= b,
        Rel::Gt => v > b,
        Rel::Ge => v >= b,
        Rel::Eq => v == b,
        Rel::Ne => v != b,
    };
    let v1 = at(1);
    if !(lo..=hi).contains(&v1) || !holds(v1) {
        return 0;
    }
    if s == 0 {
        return u64::MAX;
    }
    // the values the branch is taken on, within the type: an interval [a, z] (Ne: the type's,
    // less the bound, handled below)
    let (a, z) = match l.op {
        Rel::Lt => (lo, b - 1),
        Rel::Le => (lo, b),
        Rel::Gt => (b + 1, hi),
        Rel::Ge => (b, hi),
        Rel::Eq => (b, b),
        Rel::Ne => (lo, hi),
    };
    // the last j whose value stays in [a, z], moving away from v1 by s each iteration
    let last = if s > 0 {
        d + (z - x0).div_euclid(s)
    } else {
        d + (x0 - a).div_euclid(-s)
    };
    let mut last = last;
    if l.op == Rel::Ne {
        // the first iteration whose value is the bound stops the loop
        let gap = b - x0;
        if gap % s == 0 {
            let j = gap / s + d;
            if j >= 1 {
                last = last.min(j - 1);
            }
        }
    }
    u64::try_from(last.max(0)).unwrap_or(u64::MAX)
}

/// `row + m * step` (or minus) in the counter's width, as `m` updates would leave it.
pub(crate) fn advance(c: &Counter, row: u64, step: u64, m: u64) -> u64 {
    if c.bytes == 4 {
        let (x, s) = (row as u32, (step as u32).wrapping_mul(m as u32));
        u64::from(if c.sub {
            x.wrapping_sub(s)
        } else {
            x.wrapping_add(s)
        })
    } else {
        let s = step.wrapping_mul(m);
        if c.sub {
            row.wrapping_sub(s)
        } else {
            row.wrapping_add(s)
        }
    }
}

thread_local! {
    /// The buffers of the last recorded iteration, kept for the thread's next warp.
    static BUFFERS: std::cell::RefCell<Iteration> = std::cell::RefCell::new(Iteration::default());
}

/// The sink a warp runs with: every event goes on to the block's sink, and while an iteration is
/// recorded ([`Tap::start`]) it is also kept, with whether it left memory as it found it. A kernel
/// without a qualifying loop runs with `REC` false: the tap only passes the events on.
pub(crate) struct Tap<'s, S, const REC: bool> {
    pub sink: &'s mut S,
    global: &'s Global,
    /// Recording: the branch whose iteration is recorded.
    on: Option<u32>,
    /// The recorded iteration stored only values memory held and sent only the events it may.
    clean: bool,
    /// The last `store_values` while recording: (pc, elem, first row, rows).
    pending: Option<(u32, u8, u32, u8)>,
    pub it: Iteration,
    /// `it` holds the thread's buffers (taken at the first recording, given back on drop).
    pooled: bool,
    /// The warp's counts when the recording started: budget, the warp's instructions, the
    /// block's warp and thread instructions, global writes.
    pub at: [u64; 5],
}

impl<'s, S: Sink, const REC: bool> Tap<'s, S, REC> {
    pub(crate) fn new(sink: &'s mut S, global: &'s Global) -> Tap<'s, S, REC> {
        Tap {
            sink,
            global,
            on: None,
            clean: false,
            pending: None,
            it: Iteration::default(),
            pooled: false,
            at: [0; 5],
        }
    }

    /// Starts recording the iteration that ends at the branch at `pc`.
    pub(crate) fn start(&mut self, block: u32, warp: u32, pc: u32, at: [u64; 5]) {
        if !self.pooled {
            self.it = BUFFERS.with_borrow_mut(std::mem::take);
            self.pooled = true;
        }
        self.on = Some(pc);
        self.clean = true;
        self.pending = None;
        self.it.block = block;
        self.it.warp = warp;
        self.it.events.clear();
        self.it.lanes.clear();
        self.at = at;
    }

    /// Stops recording; whether the iteration that ended at the branch at `pc` was recorded
    /// whole and clean.
    pub(crate) fn stop(&mut self, pc: u32) -> bool {
        let ok = self.on == Some(pc) && self.clean && self.pending.is_none();
        self.on = None;
        ok
    }

    pub(crate) fn recording(&self) -> bool {
        self.on.is_some()
    }

    #[inline(always)]
    fn spoil(&mut self) {
        if REC {
            self.clean = false;
        }
    }

    #[inline(always)]
    fn on(&self) -> bool {
        REC && self.on.is_some()
    }

    /// Whether every active lane's store at `e` writes what memory holds.
    fn unchanged(&self, e: &MemEvent<'_>, elem: u8, first: u32, rows: u8) -> bool {
        let w = u64::from(elem);
        let keep = if elem >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * elem)) - 1
        };
        let mut m = e.mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            for k in 0..u64::from(rows) {
                let Some(a) = e.addrs[l].checked_add(k * w) else {
                    return false;
                };
                let v = self.it.lanes[first as usize + k as usize][l] & keep;
                if self.global.read(a, w) != Some(v) {
                    return false;
                }
            }
        }
        true
    }
}

impl<S, const REC: bool> Drop for Tap<'_, S, REC> {
    fn drop(&mut self) {
        if self.pooled {
            let it = std::mem::take(&mut self.it);
            BUFFERS.with_borrow_mut(|b| *b = it);
        }
    }
}

impl<S: Sink, const REC: bool> Tap<'_, S, REC> {
    /// A memory event recorded into the iteration (when one is recorded).
    #[inline(always)]
    fn tap_mem(&mut self, e: &MemEvent<'_>) {
        if self.on() {
            let pending = self.pending.take();
            let ok = e.src.is_none()
                && match e.op {
                    AccessOp::Load => true,
                    AccessOp::Store => {
                        e.space == Space::Global
                            && matches!(pending, Some((pc, elem, first, rows))
                                if pc == e.pc && self.unchanged(e, elem, first, rows))
                    }
                    _ => false,
                };
            if !ok {
                self.spoil();
            }
            self.it.lanes.push(*e.addrs);
            self.it.events.push(IterEvent::Mem {
                pc: e.pc,
                space: e.space,
                op: e.op,
                width: e.width,
                mask: e.mask,
                addrs: (self.it.lanes.len() - 1) as u32,
            });
        }
    }
}

impl<S: Sink, const REC: bool> Sink for Tap<'_, S, REC> {
    /// The sink's, while no loop iteration is recorded: a recording tap takes every event.
    fn param_loads(&self) -> bool {
        REC || self.sink.param_loads()
    }
    #[inline(always)]
    fn mem(&mut self, e: &MemEvent<'_>) {
        self.tap_mem(e);
        self.sink.mem(e);
    }
    #[inline(always)]
    fn mem_run(&mut self, e: &MemEvent<'_>) {
        self.tap_mem(e);
        self.sink.mem_run(e);
    }
    #[inline(always)]
    fn store_values(&mut self, warp: u32, pc: u32, elem: u8, rows: &[&[u64; 32]]) {
        if self.on() {
            if self.pending.is_some() || rows.is_empty() || rows.len() > 4 {
                self.spoil();
            }
            let first = self.it.lanes.len() as u32;
            self.it.lanes.extend(rows.iter().map(|r| **r));
            self.it.events.push(IterEvent::StoreValues {
                pc,
                elem,
                first,
                rows: rows.len() as u8,
            });
            self.pending = Some((pc, elem, first, rows.len() as u8));
        }
        self.sink.store_values(warp, pc, elem, rows);
    }
    fn copy_sources(&mut self, warp: u32, pc: u32, sources: LaneMask) {
        self.spoil();
        self.sink.copy_sources(warp, pc, sources);
    }
    #[inline(always)]
    fn branch(&mut self, e: &crate::event::BranchEvent) {
        if REC && let Some(pc) = self.on {
            if e.pc != pc {
                self.spoil();
            }
            self.it.events.push(IterEvent::Branch {
                pc: e.pc,
                active: e.active,
                taken: e.taken,
            });
        }
        self.sink.branch(e);
    }
    fn barrier(&mut self, e: &crate::event::BarrierEvent) {
        self.spoil();
        self.sink.barrier(e);
    }
    fn barrier_release(&mut self, block: u32, pc: u32, generation: u32) {
        self.spoil();
        self.sink.barrier_release(block, pc, generation);
    }
    fn barrier_partial(&mut self, block: u32, id: u32, arrived: u32, waited: u32) {
        self.spoil();
        self.sink.barrier_partial(block, id, arrived, waited);
    }
    #[inline(always)]
    fn inst(&mut self, warp: u32, pc: u32, active: LaneMask) {
        self.spoil();
        self.sink.inst(warp, pc, active);
    }
    #[inline(always)]
    fn insts(&mut self, warp: u32, pc: u32, n: u32, active: LaneMask) {
        if self.on() {
            self.it.events.push(IterEvent::Insts { pc, n, active });
        }
        self.sink.insts(warp, pc, n, active);
    }
    fn warp_exit(&mut self, warp: u32) {
        self.spoil();
        self.sink.warp_exit(warp);
    }
    fn match_groups(&mut self, warp: u32, pc: u32, groups: u32) {
        self.spoil();
        self.sink.match_groups(warp, pc, groups);
    }
    fn block_order(&mut self, in_order: bool) {
        self.spoil();
        self.sink.block_order(in_order);
    }
    fn async_write(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        self.spoil();
        self.sink.async_write(warp, pc, lo, hi);
    }
    fn async_read(&mut self, warp: u32, pc: u32, lo: u64, hi: u64) {
        self.spoil();
        self.sink.async_read(warp, pc, lo, hi);
    }
    fn mbarrier(&mut self, e: &crate::event::MbarEvent) {
        self.spoil();
        self.sink.mbarrier(e);
    }
    fn atomic_values(
        &mut self,
        warp: u32,
        pc: u32,
        op: warpscope_ptx::inst::AtomOp,
        ty: warpscope_ptx::inst::Ty,
        mask: LaneMask,
        values: &[u64; 32],
    ) {
        self.spoil();
        self.sink.atomic_values(warp, pc, op, ty, mask, values);
    }
    fn tma_load(&mut self, warp: u32, pc: u32, dst: u64, swizzle: u8, row_bytes: u64, rows: u64) {
        self.spoil();
        self.sink.tma_load(warp, pc, dst, swizzle, row_bytes, rows);
    }
    fn remote_shared(&mut self, e: &crate::event::RemoteEvent<'_>) {
        self.spoil();
        self.sink.remote_shared(e);
    }
    fn cluster_copy(&mut self, e: &crate::event::ClusterCopy) {
        self.spoil();
        self.sink.cluster_copy(e);
    }
    fn mbar_arrive(&mut self, warp: u32, pc: u32, lane: u32, rank: u32, addr: u64, completed: Option<u8>) {
        self.spoil();
        self.sink.mbar_arrive(warp, pc, lane, rank, addr, completed);
    }
    fn wgmma_desc(
        &mut self,
        warp: u32,
        pc: u32,
        form: warpscope_ptx::inst::WgmmaForm,
        a: Option<u64>,
        b: u64,
    ) {
        self.spoil();
        self.sink.wgmma_desc(warp, pc, form, a, b);
    }
    fn repeat(&mut self, it: &Iteration, times: u64) {
        self.spoil();
        self.sink.repeat(it, times);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith;

    fn lp(op: Rel, signed: bool, bytes: u32, sub: bool, delta: u8) -> Loop {
        Loop {
            head: 0,
            branch: 1,
            counters: vec![Counter {
                row: 0,
                step: 1,
                sub,
                bytes,
            }],
            compared: 0,
            bound: 2,
            op,
            signed,
            delta,
        }
    }

    /// The emulator's own semantics, iteration by iteration: the counter updated by `add`/`sub`
    /// of its type, the compare of its type; how many of the next `n` iterations the branch is
    /// taken in before the first it is not (n when it is taken in all).
    fn stepped(l: &Loop, x: u64, step: u64, bound: u64, n: u64) -> u64 {
        let c = l.counters[0];
        let ty = match (c.bytes, l.signed) {
            (4, true) => Ty::S32,
            (4, false) => Ty::U32,
            (_, true) => Ty::S64,
            _ => Ty::U64,
        };
        let cmp = match l.op {
            Rel::Lt => Cmp::Lt,
            Rel::Le => Cmp::Le,
            Rel::Gt => Cmp::Gt,
            Rel::Ge => Cmp::Ge,
            Rel::Eq => Cmp::Eq,
            Rel::Ne => Cmp::Ne,
        };
        let op = if c.sub { BinOp::Sub } else { BinOp::Add };
        let mut v = x;
        for j in 1..=n {
            let before = v;
            v = arith::bin(op, ty, v, step);
            let read = if l.delta == 1 { before } else { v };
            if !arith::cmp(cmp, ty, read, bound) {
                return j - 1;
            }
        }
        n
    }

    /// The closed form never claims an iteration the stepped semantics would not take, and
    /// claims all of them where the counter does not wrap.
    #[test]
    fn trips_agree_with_stepping() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let ops = [Rel::Lt, Rel::Le, Rel::Gt, Rel::Ge, Rel::Eq, Rel::Ne];
        for k in 0..200_000u64 {
            let op = ops[(next() % 6) as usize];
            let signed = next() % 2 == 0;
            let bytes = if next() % 2 == 0 { 4 } else { 8 };
            let sub = next() % 3 == 0;
            let delta = (next() % 2) as u8;
            let l = lp(op, signed, bytes, sub, delta);
            let near = |r: u64| -> u64 {
                // values near 0 and near the ends of both interpretations
                let base = match r % 5 {
                    0 => 0u64,
                    1 => {
                        if bytes == 4 {
                            0x7fff_ffff
                        } else {
                            i64::MAX as u64
                        }
                    }
                    2 => {
                        if bytes == 4 {
                            0xffff_ffff
                        } else {
                            u64::MAX
                        }
                    }
                    3 => {
                        if bytes == 4 {
                            0x8000_0000
                        } else {
                            1 << 63
                        }
                    }
                    _ => 1000,
                };
                let v = base.wrapping_add((r >> 8) % 64).wrapping_sub(32);
                if bytes == 4 { v & 0xffff_ffff } else { v }
            };
            let x = near(next());
            let bound = near(next());
            let step = match next() % 6 {
                0 => 0,
                1 => 1,
                2 => {
                    if bytes == 4 {
                        0xffff_fffc
                    } else {
                        (-4i64) as u64
                    }
                }
                3 => 4,
                4 => {
                    if bytes == 4 {
                        0xffff_ffff
                    } else {
                        u64::MAX
                    }
                }
                _ => next() % 7,
            };
            let n = 200;
            let m = trips(&l, x, step, bound);
            let s = stepped(&l, x, step, bound, n);
            assert!(
                m.min(n) <= s,
                "case {k}: {l:?} x {x:#x} step {step:#x} bound {bound:#x}: claims {m}, stepping takes {s}"
            );
            // no wrap within the iterations stepped: the closed form claims them all
            let bits = 8 * bytes;
            let (lo, hi): (i128, i128) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let val = |v: u64| -> i128 {
                if signed {
                    if bytes == 4 {
                        v as u32 as i32 as i128
                    } else {
                        v as i64 as i128
                    }
                } else {
                    v as i128
                }
            };
            let sv = if bytes == 4 {
                step as u32 as i32 as i128
            } else {
                step as i64 as i128
            };
            let sv = if sub { -sv } else { sv };
            let wraps = (0..=(s + 1).min(n) as i128).any(|j| !(lo..=hi).contains(&(val(x) + j * sv)));
            if !wraps {
                assert_eq!(
                    m.min(n),
                    s,
                    "case {k}: {l:?} x {x:#x} step {step:#x} bound {bound:#x}"
                );
            }
        }
    }

    #[test]
    fn advance_is_m_updates() {
        for (bytes, sub) in [(4, false), (4, true), (8, false), (8, true)] {
            let c = Counter {
                row: 0,
                step: 1,
                sub,
                bytes,
            };
            let ty = if bytes == 4 { Ty::U32 } else { Ty::U64 };
            let op = if sub { BinOp::Sub } else { BinOp::Add };
            for (x, s) in [
                (5u64, 3u64),
                (0xffff_fff0, 7),
                (1, 0xffff_fffc),
                (u64::MAX - 3, 2),
            ] {
                let x = arith::trunc(ty, x);
                let mut v = x;
                for m in 0..50u64 {
                    assert_eq!(advance(&c, x, s, m), v, "{bytes} {sub} {x} {s} {m}");
                    v = arith::bin(op, ty, v, s);
                }
            }
        }
    }
}
