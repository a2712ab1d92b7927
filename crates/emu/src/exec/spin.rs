//! Spin loops on a flag another warp sets. A warp runs until it stops (a barrier, an exit, a
//! strong `ld.relaxed`/`ld.acquire` load, an mbarrier wait that fails), so a warp spinning on a
//! `volatile` load or an atomic would spin until the instruction limit when the warp that sets
//! the flag has not run yet (`while (flag == 0) {}` with a `volatile` shared flag, a lock taken
//! with `atomicCAS`).
//!
//! A *spin branch* is a backward branch whose loop (its target up to it) has a `volatile` load or
//! an atomic and no block barrier. When a warp takes one with the same lanes and the same values
//! in the rows the loop writes and in its predicates as the last time it took it, the iteration
//! changed nothing the loop computes: the warp yields, so the block's other warps (and, in a
//! cooperative or cluster launch, the other blocks) run before it tries again. A loop that makes
//! progress (a compare-and-swap retry whose value moved, a counter) never yields, so kernels that
//! finished before run exactly as before.
//!
//! In a plain launch a spin branch whose loop polls global memory (a `volatile` or strong load, or
//! an atomic, outside shared memory: a grid barrier made by hand) is a *global* one: a warp
//! stalled there waits, as a grid barrier's poll does, for what only another block may write
//! (`lib.rs` then runs the launch's remaining blocks interleaved with the waiting one).

use warpscope_ptx::Program;
use warpscope_ptx::inst::{Inst, NO_REG, PRED_TRUE, PSrc, R};

use super::Warp;

/// The spin branches of a kernel (`entry..end`), by pc, with the rows their loops write (`None`:
/// every row, for a loop with an instruction whose writes are not listed).
#[derive(Debug, Default)]
pub(crate) struct SpinBranches {
    list: Vec<(u32, Option<Vec<R>>)>,
    /// The pcs of `list` whose loops poll global memory (sorted).
    global: Vec<u32>,
}

fn is_volatile_load(program: &Program, pc: u32) -> bool {
    volatile_load_space(program, pc).is_some()
}

/// For a `volatile` load at `pc`: whether it reads shared memory (`.shared`).
fn volatile_load_space(program: &Program, pc: u32) -> Option<bool> {
    let info = program.info.get(pc as usize)?;
    let mut t = info.text.trim_start();
    if t.starts_with('@') {
        t = t.split_once(char::is_whitespace).map_or("", |x| x.1.trim_start());
    }
    let op = t.split(char::is_whitespace).next().unwrap_or("");
    ((op.starts_with("ld.") || op.starts_with("ldu.")) && op.split('.').any(|m| m == "volatile"))
        .then(|| op.split('.').any(|m| m == "shared"))
}

/// Whether the instruction at `pc` polls global (or generic) memory: a `volatile` load, a strong
/// load (`strong`: `ld.relaxed`/`ld.acquire`) or an atomic outside shared memory.
fn polls_global(program: &Program, pc: u32, strong: bool) -> bool {
    use warpscope_ptx::inst::MemSpace;
    match program.ops[pc as usize].inst {
        Inst::Atom { space, .. } => space != MemSpace::Shared,
        Inst::Ld {
            sync: true, space, ..
        } if strong => space != MemSpace::Shared,
        _ => volatile_load_space(program, pc) == Some(false),
    }
}

/// Whether a branch, exit or trap of the loop `target..=pc` (a plain launch's loop that polls
/// global memory) may be decided by a value the loop polls: its guard predicate follows, through
/// the loop's registers, predicates and iterations, from what a polling instruction
/// ([`polls_global`]) loaded. A loop whose way out does not (a fixed-count loop of `volatile`
/// reads, as a last-block-done reduction's final sum) ends whatever other blocks write, so it
/// never waits on another block. `true` when the loop has an instruction whose registers are not
/// known here, and where a value polled is stored (it may come back through memory).
fn exit_reads_polled(program: &Program, target: u32, pc: u32) -> bool {
    let body = &program.ops[target as usize..=pc as usize];
    let mut rows: Vec<R> = Vec::new();
    let mut preds: Vec<u16> = Vec::new();
    let taint = |v: &mut Vec<u16>, r: u16| {
        if r != NO_REG && !v.contains(&r) {
            v.push(r);
        }
    };
    for (q, op) in (target..=pc).zip(body) {
        if polls_global(program, q, true) {
            match op.inst {
                Inst::Ld { d, vec, .. } => d[..usize::from(vec).min(4)]
                    .iter()
                    .for_each(|&r| taint(&mut rows, r)),
                Inst::Atom { d, .. } => taint(&mut rows, d),
                // an instruction the load was lowered into besides it (the sign of a `.s32`
                // load into a 64-bit register): what it writes is the polled value too
                ref i => match crate::zero_rows::effects(i) {
                    Some((_, writes)) => writes.into_iter().for_each(|r| taint(&mut rows, r)),
                    None => return true,
                },
            }
        }
    }
    // to a fixed point: the loop's later iterations read what earlier ones wrote
    loop {
        let before = (rows.len(), preds.len());
        for op in body {
            let hot_guard = op.guard.idx != PRED_TRUE && preds.contains(&op.guard.idx);
            let hot = |rs: &[R]| hot_guard || rs.iter().any(|r| rows.contains(r));
            let hot_p =
                |ps: &[PSrc]| hot_guard || ps.iter().any(|p| p.idx != PRED_TRUE && preds.contains(&p.idx));
            // (rows, predicates) the instruction writes from a polled value
            let (to_rows, to_preds): (Vec<R>, Vec<u16>) = match op.inst {
                Inst::Bra { .. } | Inst::Exit | Inst::Trap | Inst::Ret if hot_guard => return true,
                Inst::Bra { .. } | Inst::Exit | Inst::Trap | Inst::Ret | Inst::Nop => continue,
                Inst::Setp { p, q, a, b, c, .. } if hot(&[a, b]) || hot_p(&[c]) => (vec![], vec![p, q]),
                Inst::PredOp { d, a, b, .. } if hot_p(&[a, b]) => (vec![], vec![d]),
                Inst::Selp { d, a, b, p, .. } if hot(&[a, b]) || hot_p(&[p]) => (vec![d], vec![]),
                Inst::PredToReg { d, p } if hot_p(&[p]) => (vec![d], vec![]),
                Inst::RegToPred { d, a } if hot(&[a]) => (vec![], vec![d]),
                Inst::TestP { p, a, .. } if hot(&[a]) => (vec![], vec![p]),
                Inst::Setp { .. }
                | Inst::PredOp { .. }
                | Inst::Selp { .. }
                | Inst::PredToReg { .. }
                | Inst::RegToPred { .. }
                | Inst::TestP { .. } => continue,
                Inst::St { a, addr, vec, .. } => {
                    let mut r = a[..usize::from(vec).min(4)].to_vec();
                    r.push(addr);
                    if hot(&r) {
                        return true;
                    }
                    continue;
                }
                Inst::Atom { addr, b, c, .. } if hot(&[addr, b, c]) => return true,
                // what it returns: a source above when it polls global memory; otherwise shared
                // memory, which no polled value reached (a store of one returned above)
                Inst::Atom { .. } => continue,
                ref i => match crate::zero_rows::effects(i) {
                    Some((reads, writes)) if hot(&reads) => (writes, vec![]),
                    Some(_) => continue,
                    None => return true,
                },
            };
            to_rows.into_iter().for_each(|r| taint(&mut rows, r));
            to_preds.into_iter().for_each(|p| taint(&mut preds, p));
        }
        if (rows.len(), preds.len()) == before {
            return false;
        }
    }
}

impl SpinBranches {
    /// The spin branches of the kernel whose instructions are `entry..end` of `program`. `plain`: a
    /// plain launch (no cluster, not cooperative), where a loop on a strong global load
    /// (`ld.relaxed`/`ld.acquire`) spins too (a cooperative or cluster launch's strong loads pause
    /// the block themselves).
    pub(crate) fn of(program: &Program, entry: u32, end: u32, plain: bool) -> SpinBranches {
        let mut list = Vec::new();
        let mut global = Vec::new();
        let end = (end as usize).min(program.ops.len()) as u32;
        for pc in entry..end {
            let Inst::Bra { target, .. } = program.ops[pc as usize].inst else {
                continue;
            };
            if target > pc || target < entry {
                continue;
            }
            let body = target..=pc;
            let polls = body.clone().any(|q| plain && polls_global(program, q, true));
            let waits = polls
                || body.clone().any(|q| {
                    matches!(program.ops[q as usize].inst, Inst::Atom { .. }) || is_volatile_load(program, q)
                });
            let barrier = body.clone().any(|q| {
                matches!(
                    program.ops[q as usize].inst,
                    Inst::Bar {
                        kind: warpscope_ptx::inst::BarKind::Sync | warpscope_ptx::inst::BarKind::Arrive,
                        ..
                    } | Inst::BarRed { .. }
                )
            });
            if !waits || barrier {
                continue;
            }
            let mut rows = Some(Vec::new());
            for q in body {
                let inst = &program.ops[q as usize].inst;
                let written = match *inst {
                    Inst::Atom { d, .. } => Some(vec![d]),
                    _ => crate::zero_rows::effects(inst).map(|(_, w)| w),
                };
                match (written, rows.as_mut()) {
                    (Some(w), Some(r)) => r.extend(w.into_iter().filter(|&x| x != NO_REG)),
                    _ => rows = None,
                }
            }
            if let Some(r) = rows.as_mut() {
                r.sort_unstable();
                r.dedup();
            }
            list.push((pc, rows));
            if polls && exit_reads_polled(program, target, pc) {
                global.push(pc);
            }
        }
        SpinBranches { list, global }
    }

    /// Whether some spin branch's loop polls global memory (in a plain launch).
    pub(crate) fn polls_global(&self) -> bool {
        !self.global.is_empty()
    }

    /// Whether the spin branch at `pc` polls global memory (in a plain launch).
    #[inline]
    pub(super) fn global_at(&self, pc: u32) -> bool {
        self.global.binary_search(&pc).is_ok()
    }

    /// Whether the warp `w`, taking the backward branch at `pc`, should yield: `pc` is a spin
    /// branch and the loop's rows, the predicates and the lanes are as the last time it took it.
    #[inline]
    pub(super) fn stalled(&self, w: &mut Warp, pc: u32) -> bool {
        if self.list.is_empty() {
            return false;
        }
        let Ok(i) = self.list.binary_search_by_key(&pc, |e| e.0) else {
            return false;
        };
        let h = state_hash(w, self.list[i].1.as_deref());
        let same = w.spin == Some((pc, h));
        w.spin = Some((pc, h));
        same
    }
}

/// Lets the warp's other lanes run while the top frame's lanes spin, as independent thread
/// scheduling does: `while (atomicCAS(&lock, 0, 1) != 0) {}` taken by the lanes of one warp
/// leaves the lane that got the lock waiting at the loop's exit (the reconvergence point) for
/// lanes that wait for it to release the lock. Called when the top frame's loop changed nothing
/// ([`SpinBranches::stalled`]): a path of the same split not yet run goes on top; otherwise the
/// lanes that reached the top frame's reconvergence point go on from there in a frame of their
/// own up to the enclosing frame's reconvergence point, and the spinning lanes join them after it.
/// Whether the stack changed.
/// The lanes move on only when no barrier (`bar.sync`, `bar.warp.sync`, `bar.red`) lies between the
/// reconvergence point and the enclosing one (`ops`, the program's instructions by pc): lanes
/// waiting there for the spinning ones (`__syncwarp()` after a flag poll by one lane) must keep
/// waiting, as on the GPU.
pub(super) fn let_other_lanes_run(w: &mut Warp, ops: &[warpscope_ptx::inst::Op]) -> bool {
    let n = w.stack.len();
    if n < 2 {
        return false;
    }
    let top = w.stack[n - 1];
    let below = w.stack[n - 2];
    if below.rpc == top.rpc && below.pc != below.rpc && below.mask & !w.exited != 0 {
        w.stack.swap(n - 2, n - 1);
        return true;
    }
    // frames that pop on reaching the reconvergence point (nested splits that ended there)
    let x = top.rpc;
    let mut i = n - 2;
    while w.stack[i].pc == x && w.stack[i].rpc == x {
        if i == 0 {
            return false;
        }
        i -= 1;
    }
    let enclosing = w.stack[i];
    // a call's frames above `i` would move
    if enclosing.pc != x || w.calls.last().is_some_and(|c| c.base >= i) {
        return false;
    }
    // the bottom frame's reconvergence point lies past the kernel: scan to the program's end
    let end = (enclosing.rpc as usize).min(ops.len());
    if end <= x as usize
        || ops[x as usize..end]
            .iter()
            .any(|o| matches!(o.inst, Inst::Bar { .. } | Inst::BarRed { .. }))
    {
        return false;
    }
    let arrived = enclosing.mask & !top.mask & !w.exited;
    if arrived == 0 {
        return false;
    }
    w.stack[i].mask &= !arrived;
    w.stack.push(super::Frame {
        pc: x,
        rpc: enclosing.rpc,
        mask: arrived,
    });
    true
}

/// A hash of what a loop iteration computes: the rows `rows` (every row when `None`) of the
/// frame's active lanes, the predicates, the frame's lanes and the stack's depth.
fn state_hash(w: &Warp, rows: Option<&[R]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        h = (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    };
    let active = w.stack.last().map_or(0, |f| f.mask) & !w.exited;
    mix(u64::from(active));
    mix(w.stack.len() as u64);
    let row = |mix: &mut dyn FnMut(u64), r: &[u64; 32]| {
        let mut m = active;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            mix(r[l]);
        }
    };
    match rows {
        Some(rs) => {
            for &r in rs {
                if let Some(x) = w.regs.get(r as usize) {
                    row(&mut mix, x);
                }
            }
        }
        None => {
            for x in &w.regs {
                row(&mut mix, x);
            }
        }
    }
    for &p in &w.preds {
        mix(u64::from(p));
    }
    h
}
