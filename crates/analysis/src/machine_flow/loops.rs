//! Counted loops stepped over in closed form.
//!
//! A loop whose body the flow only needs for its trip count and its counted global accesses
//! (ptxas's unrolled copies of `for (i = 0; i < n; ++i) c[idx] = a[idx] + b[idx]`: a 16-way body
//! of loads and stores through loop-invariant pointers, one counter, one compare, one backward
//! branch; or of the book's `sumMatrixOnGPU1D`, whose pointers move a row each iteration) costs
//! the flow the whole body once per iteration although every iteration counts the same. Such a
//! loop is recognised in the machine code ([`find`]) and, once a warp has run two whole
//! iterations of it together, the iterations that are sure to take the backward branch again are
//! added at once ([`MachineFlow::step_over_iterations`]): their counts are the iteration's just
//! run, times their number, and the registers move by their steps times it.
//!
//! A loop qualifies when, between its head and its backward branch (`@P BRA head`, guard only):
//! * no instruction steers the warp (no other branch, exit, call, barrier or convergence);
//! * every instruction the flow needs ([`super::slice`]) is integer arithmetic, the one `ISETP`
//!   that makes the branch's guard (a counter, no modifier, against a value the same in every
//!   iteration), or a global load or store counted for its address only (a generic one only
//!   through pointers that do not move);
//! * every register those instructions carry from one iteration to the next moves by the same
//!   step each iteration, 32-bit or as a 64-bit pair ([`moves::analyse`]: counters, and pointers
//!   moved through ptxas's renames across the unrolled copies);
//! * anything else in the body is not needed (the flow steps over it in any case).
//!
//! The steps are what the last iteration moved each register by (the same every iteration, as
//! the analysis proves). The iterations are added only when every address moves by one step,
//! a whole number of 32-byte sectors and the same for every lane: each iteration then counts the
//! requests and sectors of the one before. Otherwise the flow steps on, one iteration at a time.
//!
//! The number of further iterations is exact: the value the compare sees moves by its step
//! each iteration; while it stays inside the compare's integer range (signed or unsigned) its
//! order against the other value changes at most twice (below, equal, above), so the guard is
//! checked at those points only. Where the counter would wrap, the stepping stops short and the
//! flow runs that iteration itself.

use super::moves::{self, Moves};
use super::{Bop, Cmp, Dst, FlowCounts, FlowLaunch, Ins, Kind, MachineFlow, Pred, Warp, lanes};
use std::cmp::Ordering;

/// A counted loop ([`find`]), kept at its backward branch.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Loop {
    /// The head (the branch's target).
    pub(super) head: usize,
    /// How its registers move ([`moves::analyse`]).
    moves: Moves,
    /// The registers whose values each iteration's end keeps ([`Iteration::regs`]): the
    /// moved words, then the moved high words (`UR` from 256).
    regs: Vec<u16>,
    /// The branch's guard reads the compare's first destination (else its second).
    first_dst: bool,
    guard_neg: bool,
}

/// The counted loops of the code, at their backward branches.
pub(super) fn find(ins: &[Ins], needed: &[bool], value: &[bool]) -> Vec<Option<Loop>> {
    let mut out = vec![None; ins.len()];
    for (b, x) in ins.iter().enumerate() {
        if let Some(l) = counted_loop(ins, needed, value, b, x) {
            out[b] = Some(l);
        }
    }
    out
}

fn counted_loop(ins: &[Ins], needed: &[bool], value: &[bool], b: usize, x: &Ins) -> Option<Loop> {
    let Kind::Bra {
        any: false,
        div: false,
    } = x.kind
    else {
        return None;
    };
    let head = x.target?;
    if head > b || !x.preds.is_empty() || x.guard.uniform || x.guard == Pred::TRUE {
        return None;
    }
    let body = &ins[head..b];
    for y in body {
        let steers = y.kind.is_control()
            || matches!(
                y.kind,
                Kind::Bssy | Kind::Bsync | Kind::Bar { .. } | Kind::Stop | Kind::Poison | Kind::ExclusiveSync
            );
        if steers {
            return None;
        }
    }
    let moves = moves::analyse(ins, needed, value, head, b, x.guard.idx)?;
    let c = &ins[moves.cmp_at];
    let Kind::Isetp {
        cmp: Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge | Cmp::Eq | Cmp::Ne,
        ..
    } = c.kind
    else {
        return None;
    };
    // the guard reads the compare's result (the last write of it in the body:
    // [`moves::analyse`])
    let first_dst = match c.dst[..] {
        [Dst::P(p0), ..] if p0 == x.guard.idx => true,
        [_, Dst::P(p1)] if p1 == x.guard.idx => false,
        _ => return None,
    };
    let mut regs = moves.words.clone();
    regs.extend(moves.pairs.iter().map(|p| u16::from(p.1)));
    Some(Loop {
        head,
        moves,
        regs,
        first_dst,
        guard_neg: x.guard.neg,
    })
}

/// Further iterations, from the next one, whose guard is sure to hold for one lane: the
/// compare sees `x1 + j * s` at the `j`-th (from 0) against `u`, in the integer range `lo..=hi`.
fn lane_iterations(x1: i128, s: i128, u: i128, lo: i128, hi: i128, taken: impl Fn(Ordering) -> bool) -> u64 {
    let at = |j: i128| taken((x1 + j * s).cmp(&u));
    if s == 0 {
        return if at(0) { u64::MAX } else { 0 };
    }
    // the last iteration before the counter leaves the range
    let last = if s > 0 { (hi - x1) / s } else { (x1 - lo) / -s };
    // where the order against `u` changes: first at or past `u`, first past it
    let (first_at, first_past) = if s > 0 {
        let d = u - x1;
        (
            if d <= 0 { 0 } else { (d + s - 1) / s },
            if d < 0 { 0 } else { d / s + 1 },
        )
    } else {
        let d = x1 - u;
        let t = -s;
        (
            if d <= 0 { 0 } else { (d + t - 1) / t },
            if d < 0 { 0 } else { d / t + 1 },
        )
    };
    let mut points = [0, first_at, first_past];
    points.sort_unstable();
    for p in points {
        if p > last {
            break;
        }
        if !at(p) {
            return u64::try_from(p).unwrap_or(0);
        }
    }
    u64::try_from(last + 1).unwrap_or(u64::MAX)
}

fn mirror(c: Cmp) -> Cmp {
    match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        other => other,
    }
}

fn holds(c: Cmp, o: Ordering) -> bool {
    c.of_order(o).unwrap_or(false)
}

/// The end of a warp's whole iteration of a counted loop: where, by which lanes, the counts
/// then, and the loop's moved registers ([`Loop::regs`]) with their known lanes.
#[derive(Clone, Debug)]
pub(super) struct Iteration {
    epoch: u64,
    at: usize,
    lanes: u32,
    counts: FlowCounts,
    regs: Vec<[u32; 32]>,
    known: Vec<u32>,
}

/// The warp's last whole iteration of a counted loop.
pub(super) type LastIteration = Option<Box<Iteration>>;

fn reg_value(w: &Warp, r: u16) -> ([u32; 32], u32) {
    if r < 256 {
        (w.r[r as usize], w.rk[r as usize])
    } else {
        let u = (r - 256) as usize;
        ([w.ur[u]; 32], if w.urk[u] { u32::MAX } else { 0 })
    }
}

fn snapshot(lp: &Loop, b: usize, w: &Warp, group: u32, counts: &FlowCounts) -> Box<Iteration> {
    let (regs, known) = lp.regs.iter().map(|&r| reg_value(w, r)).unzip();
    Box::new(Iteration {
        epoch: w.epoch,
        at: b,
        lanes: group,
        counts: *counts,
        regs,
        known,
    })
}

impl MachineFlow {
    /// After the warp's lanes `group` (all its live lanes) took the backward branch at `b` of
    /// counted loop `lp` together: when the iteration before was one whole iteration by the same
    /// lanes, adds the iterations sure to follow it (their counts, their registers' moves).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn step_over_iterations(
        &self,
        lp: &Loop,
        b: usize,
        w: &mut Warp,
        group: u32,
        launch: &FlowLaunch,
        counts: &mut FlowCounts,
        max_warp_insts: u64,
    ) {
        let now = snapshot(lp, b, w, group, counts);
        let before = w.last_iteration.take();
        let stepped = before.is_some_and(|before| {
            self.add_iterations(lp, b, w, group, launch, counts, max_warp_insts, &before, &now)
        });
        w.last_iteration = Some(if stepped {
            snapshot(lp, b, w, group, counts)
        } else {
            now
        });
    }

    /// [`Self::step_over_iterations`] from the ends of the last two iterations: whether it
    /// added any.
    #[allow(clippy::too_many_arguments)]
    fn add_iterations(
        &self,
        lp: &Loop,
        b: usize,
        w: &mut Warp,
        group: u32,
        launch: &FlowLaunch,
        counts: &mut FlowCounts,
        max_warp_insts: u64,
        before: &Iteration,
        now: &Iteration,
    ) -> bool {
        let body = (b - lp.head + 1) as u64;
        if before.epoch != w.epoch
            || before.at != b
            || before.lanes != group
            || counts.warp_insts - before.counts.warp_insts != body
        {
            return false;
        }
        let bc = &before.counts;
        if counts.may_join != bc.may_join
            || counts.overlapping_barriers != bc.overlapping_barriers
            || counts.global.is_some() != bc.global.is_some()
        {
            return false;
        }
        // every moved register known before and after the iteration, in every lane
        if (0..lp.regs.len()).any(|n| before.known[n] & now.known[n] & group != group) {
            return false;
        }
        let m = &lp.moves;
        let at = |r: u16| lp.regs.iter().position(|&x| x == r);
        let step32 = |n: usize, l: usize| now.regs[n][l].wrapping_sub(before.regs[n][l]);
        let wide = |s: &Iteration, lo: usize, hi: usize, l: usize| {
            u64::from(s.regs[hi][l]) << 32 | u64::from(s.regs[lo][l])
        };
        let step64 =
            |lo: usize, hi: usize, l: usize| wide(now, lo, hi, l).wrapping_sub(wide(before, lo, hi, l));
        // the addresses move by one step for the whole warp, whole sectors: each iteration
        // counts the requests and sectors of the one just run
        for &(a, h) in &m.addresses {
            let (Some(lo), Some(hi)) = (at(u16::from(a)), at(u16::from(h))) else {
                return false;
            };
            let Some(first) = lanes(group).next() else {
                return false;
            };
            let d = step64(lo, hi, first);
            if d % 32 != 0 || lanes(group).any(|l| step64(lo, hi, l) != d) {
                return false;
            }
        }
        let c = &self.ins[m.cmp_at];
        let Kind::Isetp { cmp, signed, bop, .. } = c.kind else {
            return false;
        };
        let cmp = if m.counter_operand == 1 { mirror(cmp) } else { cmp };
        let (lo, hi) = if signed {
            (i128::from(i32::MIN), i128::from(i32::MAX))
        } else {
            (0, i128::from(u32::MAX))
        };
        let dom = |v: u32| {
            if signed {
                i128::from(v as i32)
            } else {
                i128::from(v)
            }
        };
        let (counter, at_head) = m.counter;
        let Some(nc) = at(u16::from(counter)) else {
            return false;
        };
        let mut k = u64::MAX;
        for l in lanes(group) {
            let Some(u) = w.read(c.src[1 - m.counter_operand], l, launch) else {
                return false;
            };
            let Some(q) = w.pred(c.preds[0], l) else {
                return false;
            };
            let v = now.regs[nc][l];
            let s = step32(nc, l);
            // the value the compare sees in the next iteration: the counter's at the head, or
            // the one the body wrote before the compare, moved by one step
            let x1 = if at_head { v } else { v.wrapping_add(s) };
            let comb = |t: bool| match bop {
                Bop::And => t && q,
                Bop::Or => t || q,
                Bop::Xor => t ^ q,
            };
            let (first_dst, neg) = (lp.first_dst, lp.guard_neg);
            let taken = |o: Ordering| {
                let t = holds(cmp, o);
                let d = if first_dst { comb(t) } else { comb(!t) };
                d != neg
            };
            let s = i128::from(s as i32);
            k = k.min(lane_iterations(dom(x1), s, dom(u), lo, hi, taken));
            if k == 0 {
                return false;
            }
        }
        let delta_insts = counts.warp_insts - bc.warp_insts;
        k = k.min(max_warp_insts.saturating_sub(counts.warp_insts) / delta_insts.max(1));
        if k == 0 {
            return false;
        }
        // the other addends of the carries left in predicates (invariant)
        let mut others = vec![[0u32; 32]; m.carries.len()];
        for (n, &(_, _, o)) in m.carries.iter().enumerate() {
            for l in lanes(group) {
                let Some(v) = w.read(o, l, launch) else {
                    return false;
                };
                others[n][l] = v;
            }
        }
        // the registers moved by `k` steps: high words with their low words' values before
        let mut moved: Vec<(u16, [u32; 32])> = Vec::with_capacity(lp.regs.len());
        for &(lo_r, hi_r) in &m.pairs {
            let (Some(lo), Some(hi)) = (at(u16::from(lo_r)), at(u16::from(hi_r))) else {
                return false;
            };
            let mut v = now.regs[hi];
            for l in lanes(group) {
                let x = wide(now, lo, hi, l).wrapping_add(k.wrapping_mul(step64(lo, hi, l)));
                v[l] = (x >> 32) as u32;
            }
            moved.push((u16::from(hi_r), v));
        }
        for (n, &r) in m.words.iter().enumerate() {
            let mut v = now.regs[n];
            for l in lanes(group) {
                v[l] = v[l].wrapping_add((k as u32).wrapping_mul(step32(n, l)));
            }
            moved.push((r, v));
        }
        for (r, v) in moved {
            if r < 256 {
                let r = r as usize;
                for l in lanes(group) {
                    w.r[r][l] = v[l];
                }
                w.rgen[r] = w.rgen[r].wrapping_add(1);
            } else if let Some(l) = lanes(group).next() {
                w.ur[(r - 256) as usize] = v[l];
            }
        }
        for (n, &(p, sum, _)) in m.carries.iter().enumerate() {
            let p = p as usize;
            for l in lanes(group) {
                // `sum = a + b` carried out when it is below either addend
                if w.r[sum as usize][l] < others[n][l] {
                    w.p[p] |= 1 << l;
                } else {
                    w.p[p] &= !(1 << l);
                }
                w.pk[p] |= 1 << l;
            }
        }
        counts.targets += (counts.targets - bc.targets) * k;
        counts.divergent += (counts.divergent - bc.divergent) * k;
        if let (Some(g), Some(g0)) = (counts.global.as_mut(), bc.global.as_ref()) {
            let d = g.minus(g0);
            g.add_times(&d, k);
        }
        counts.warp_insts += delta_insts * k;
        #[cfg(test)]
        self.added.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(x1: i64, s: i64, u: i64, signed: bool, c: Cmp, neg: bool) -> u64 {
        // the wrapped register the hardware compares, step by step
        let mut n = 0u64;
        let mut x = x1 as u32;
        let s = s as u32;
        let u = u as u32;
        loop {
            let o = if signed {
                (x as i32).cmp(&(u as i32))
            } else {
                x.cmp(&u)
            };
            if holds(c, o) == neg || n > 300 {
                return n;
            }
            n += 1;
            x = x.wrapping_add(s);
        }
    }

    fn dom(v: u32, signed: bool) -> i128 {
        if signed {
            i128::from(v as i32)
        } else {
            i128::from(v)
        }
    }

    #[test]
    fn iterations_to_the_flip_equal_stepping_the_wrapped_counter() {
        // every compare, sign, direction and start around the other value and the range's ends;
        // the closed form stops where the counter would leave the compare's range (the flow then
        // runs that iteration itself), never past the first iteration whose guard fails
        let starts = [
            -40i64,
            -17,
            -16,
            -1,
            0,
            1,
            5,
            16,
            17,
            40,
            0x7fff_fff0,
            -0x7fff_fff8,
        ];
        for signed in [true, false] {
            let (lo, hi) = if signed {
                (i128::from(i32::MIN), i128::from(i32::MAX))
            } else {
                (0, i128::from(u32::MAX))
            };
            for c in [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne] {
                for neg in [false, true] {
                    for s in [-16i64, -3, -1, 0, 1, 4, 16] {
                        for &x1 in &starts {
                            for u in [-20i64, 0, 3, 12, 20, 0x7fff_fffc] {
                                let x0 = dom(x1 as u32, signed);
                                let got =
                                    lane_iterations(x0, i128::from(s), dom(u as u32, signed), lo, hi, |o| {
                                        holds(c, o) != neg
                                    });
                                let want = brute(x1, s, u, signed, c, neg);
                                let leaves = |j: u64| {
                                    let x = x0 + i128::from(s) * i128::from(j);
                                    x < lo || x > hi
                                };
                                let case =
                                    format!("signed {signed} {c:?} neg {neg} step {s} from {x1} against {u}");
                                if want <= 300 {
                                    if leaves(want) {
                                        assert!(
                                            got == want || got < want && leaves(got),
                                            "{case}: {got}, flip at {want}"
                                        );
                                    } else {
                                        assert_eq!(got, want, "{case}");
                                    }
                                } else {
                                    assert!(got > 300 || leaves(got), "{case}: {got}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod flow_tests {
    use super::super::{FlowCounts, FlowLaunch, MachineFlow};

    /// ptxas's shape of `for (i = 0; i < n; ++i) c[idx] = a[idx] + b[idx]`: the count in R8,
    /// a 4-way body while more than 4 remain, then one at a time.
    const UNROLLED: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
        \t/*0010*/ LDC R8, c[0x0][0x210] ;\n\
        \t/*0020*/ LDC.64 R2, c[0x0][0x218] ;\n\
        \t/*0030*/ LDC.64 R6, c[0x0][0x220] ;\n\
        \t/*0040*/ IMAD.WIDE R2, R0, 0x4, R2 ;\n\
        \t/*0050*/ IMAD.WIDE R6, R0, 0x4, R6 ;\n\
        \t/*0060*/ ISETP.GT.AND P1, PT, R8, 0x3, PT ;\n\
        \t/*0070*/ @!P1 BRA `(.L_x_1) ;\n\
        .L_x_0:\n\
        \t/*0080*/ LDG.E R9, desc[UR4][R2.64] ;\n\
        \t/*0090*/ FADD R9, R9, R9 ;\n\
        \t/*00a0*/ STG.E desc[UR4][R6.64], R9 ;\n\
        \t/*00b0*/ LDG.E R10, desc[UR4][R2.64+0x4] ;\n\
        \t/*00c0*/ FADD R10, R10, R10 ;\n\
        \t/*00d0*/ STG.E desc[UR4][R6.64+0x4], R10 ;\n\
        \t/*00e0*/ IADD3 R8, R8, -0x4, RZ ;\n\
        \t/*00f0*/ LDG.E R11, desc[UR4][R2.64+0x80] ;\n\
        \t/*0100*/ STG.E desc[UR4][R6.64+0x8], R11 ;\n\
        \t/*0110*/ ISETP.GT.AND P1, PT, R8, 0x3, PT ;\n\
        \t/*0120*/ @P1 BRA `(.L_x_0) ;\n\
        .L_x_1:\n\
        \t/*0130*/ ISETP.NE.AND P0, PT, R8, RZ, PT ;\n\
        \t/*0140*/ @!P0 EXIT ;\n\
        .L_x_2:\n\
        \t/*0150*/ LDG.E R9, desc[UR4][R2.64] ;\n\
        \t/*0160*/ STG.E desc[UR4][R6.64], R9 ;\n\
        \t/*0170*/ IADD3 R8, R8, -0x1, RZ ;\n\
        \t/*0180*/ ISETP.NE.AND P0, PT, R8, RZ, PT ;\n\
        \t/*0190*/ @P0 BRA `(.L_x_2) ;\n\
        \t/*01a0*/ EXIT ;\n";

    fn flow(body: &str) -> MachineFlow {
        let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{body}");
        let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
        MachineFlow::counting_globals(&ks[0])
    }

    fn run(f: &MachineFlow, block: u32, n: i32) -> Result<FlowCounts, String> {
        let mut params = n.to_le_bytes().to_vec();
        params.extend([0u8; 4]);
        params.extend(0x7000_0000u64.to_le_bytes());
        params.extend(0x7800_0004u64.to_le_bytes());
        f.run(
            &FlowLaunch {
                global: None,
                grid: [2, 1, 1],
                block: [block, 1, 1],
                params: &params,
                symbols: &[],
                constants: &[],
                cluster: [1, 1, 1],
                shared: None,
            },
            1 << 30,
        )
        .map(|(c, _)| c)
    }

    #[test]
    fn the_unrolled_loop_is_recognised_and_the_other_is_not_needed() {
        let f = flow(UNROLLED);
        let at: Vec<usize> = f
            .loops
            .iter()
            .enumerate()
            .filter(|(_, l)| l.is_some())
            .map(|(i, _)| i)
            .collect();
        // both backward branches: the 4-way body and the one-at-a-time remainder
        assert_eq!(at.len(), 2, "{at:?}");
    }

    #[test]
    fn added_iterations_count_what_stepping_each_one_counts() {
        let f = flow(UNROLLED);
        let mut stepped = f.clone();
        stepped.loops.iter_mut().for_each(|l| *l = None);
        for n in [0, 1, 3, 4, 5, 7, 8, 9, 16, 17, 1000, 4099] {
            for block in [32, 40, 64] {
                let a = run(&f, block, n);
                let b = run(&stepped, block, n);
                assert_eq!(a, b, "n = {n}, {block} threads");
                assert!(a.as_ref().is_ok_and(|c| c.global.is_some()), "n = {n}: {a:?}");
            }
        }
        // the counts themselves, by hand for n = 1000 on one warp of 32 lanes in each of 2 blocks:
        // 250 trips of the 4-way body (3 loads, 3 stores each), no remainder
        let c = run(&f, 32, 1000).unwrap();
        let g = c.global.unwrap();
        assert_eq!((g.ld_requests, g.st_requests), (2 * 750, 2 * 750));
        // per warp the first branch and 250 backward branches (an exit is no branch target)
        assert_eq!(c.targets, 2 * (1 + 250));
    }

    #[test]
    fn a_long_loop_costs_a_few_iterations() {
        let f = flow(UNROLLED);
        // 2^22 trips per warp, 100 M warp instructions in all: in closed form, at once
        let c = run(&f, 32, 1 << 24).unwrap();
        assert_eq!(c.global.unwrap().ld_requests, 2 * 3 * (1 << 22));
        assert_eq!(c.targets, 2 * (1 + (1 << 22)));
    }
}

#[cfg(test)]
#[path = "loops_tests.rs"]
mod moving_tests;
