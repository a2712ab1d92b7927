//! Loops with a `YIELD`, and when the flow's count of what follows them is the H200's.
//!
//! ptxas puts a `YIELD` in loops over volatile loads and other loops that may wait on other
//! threads. On the H200 the lanes leaving such a loop on different iterations do not wait for
//! each other at its `BSYNC`: each group runs the code after the loop alone, up to a warp sync
//! (`WARPSYNC`, `__syncwarp`) or its exit, through every enclosing convergence barrier
//! (calibration/yield/README.md: nine shapes, every instruction's executions equal). The flow
//! follows that rule ([`super::Kind::Yield`]). Where the groups meet again in a second `YIELD`
//! loop, or leave one loop by two exits on the same iteration, the H200 joined some of them at
//! a `BSYNC` (yTwo, yNested, yBreak), by an order of the warp's groups not modelled here: the
//! flow's counts there are estimates ([`doubt`]).

use super::{Ins, Kind};

/// Why the flow's counts of code after the `YIELD` loops of `ins` may not be the H200's, or
/// `None` where they are: at most one `YIELD`, in a loop with one exit and inside no other loop,
/// and, in a function the kernel calls, called from one place outside any loop.
pub(super) fn doubt(ins: &[Ins]) -> Option<&'static str> {
    let yields: Vec<usize> = (0..ins.len()).filter(|&i| ins[i].kind == Kind::Yield).collect();
    let &[y] = yields.as_slice() else {
        return (!yields.is_empty()).then_some(
            "more than one YIELD loop: the groups leaving one may rejoin at a later one's BSYNC (calibration/yield/ yTwo, yNested)",
        );
    };
    // backward branches: (head, back edge)
    let loops: Vec<(usize, usize)> = (0..ins.len())
        .filter_map(|i| match ins[i].kind {
            Kind::Bra { .. } => ins[i].target.filter(|&t| t <= i).map(|t| (t, i)),
            _ => None,
        })
        .collect();
    let around: Vec<(usize, usize)> = loops.iter().copied().filter(|&(h, b)| h <= y && y <= b).collect();
    let Some(&(h, b)) = around.iter().min_by_key(|(h, b)| b - h) else {
        return Some("a YIELD outside a loop");
    };
    if around
        .iter()
        .any(|&(oh, ob)| (oh, ob) != (h, b) && (oh < h || ob > b))
    {
        return Some(
            "a YIELD loop inside another loop: its groups may rejoin on a later round (calibration/yield/ yNested)",
        );
    }
    // the ways out: branches out of the range, exits and returns inside it, the back edge's
    // fall-through where it is conditional
    let mut exits = 0;
    for (i, x) in ins.iter().enumerate().take(b + 1).skip(h) {
        match x.kind {
            Kind::Bra { .. } => {
                if x.target.is_some_and(|t| t < h || t > b) {
                    exits += 1;
                }
                if i == b && !is_always(x) {
                    exits += 1;
                }
            }
            Kind::Exit | Kind::Ret | Kind::Break => exits += 1,
            Kind::Brx { .. } | Kind::IndirectCall { .. } | Kind::ExclusiveSync => {
                return Some("a YIELD loop with an indirect jump or call");
            }
            _ => {}
        }
    }
    if exits != 1 {
        return Some(
            "a YIELD loop with more than one exit: the groups leaving it by different exits may rejoin at its BSYNC (calibration/yield/ yBreak)",
        );
    }
    // in a function the kernel calls: one call site, in no loop
    let calls: Vec<(usize, usize)> = (0..ins.len())
        .filter_map(|i| match ins[i].kind {
            Kind::Call { abs: false } => ins[i].target.map(|t| (i, t)),
            _ => None,
        })
        .collect();
    if let Some(entry) = calls.iter().map(|&(_, t)| t).filter(|&t| t <= y).max() {
        let sites: Vec<usize> = calls
            .iter()
            .filter(|&&(_, t)| t == entry)
            .map(|&(i, _)| i)
            .collect();
        if sites.len() != 1 || loops.iter().any(|&(lh, lb)| lh <= sites[0] && sites[0] <= lb) {
            return Some(
                "a function with a YIELD loop called more than once: the groups leaving one call may rejoin in the next",
            );
        }
    }
    None
}

/// Makes every `YIELD` of `ins` that no backward branch's range holds a `NOP`.
pub(super) fn outside_loops_as_nops(ins: &mut [Ins]) {
    let loops: Vec<(usize, usize)> = (0..ins.len())
        .filter_map(|i| match ins[i].kind {
            Kind::Bra { .. } => ins[i].target.filter(|&t| t <= i).map(|t| (t, i)),
            _ => None,
        })
        .collect();
    for (i, x) in ins.iter_mut().enumerate() {
        if x.kind == Kind::Yield && !loops.iter().any(|&(h, b)| h <= i && i <= b) {
            x.kind = Kind::Nop;
        }
    }
}

/// Whether `x`'s guard always holds.
fn is_always(x: &Ins) -> bool {
    x.guard == super::Pred::TRUE && x.preds.is_empty()
}

#[cfg(test)]
mod tests {
    use super::super::tests::one_warp;

    /// Lanes `tid & 3` leave a loop after that many rounds (`yield`: a `YIELD` in it) and load
    /// after its `BSYNC`; lanes `tid & 4` skip the loop (`skip`).
    fn walk(yield_: bool, skip: bool) -> String {
        let y = if yield_ { "YIELD" } else { "NOP" };
        let s = if skip {
            "\t/*0035*/ LOP3.LUT P1, RZ, R6, 0x4, RZ, 0xc0, !PT ;\n\t/*0038*/ @P1 BRA `(.L_x_1) ;\n"
        } else {
            ""
        };
        format!(
            "\t/*0000*/ S2R R6, SR_TID.X ;\n\
             \t/*0010*/ LOP3.LUT R0, R6, 0x3, RZ, 0xc0, !PT ;\n\
             \t/*0020*/ LDC.64 R4, c[0x0][0x210] ;\n\
             \t/*0030*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
             \t/*0034*/ BSSY B0, `(.L_x_1) ;\n{s}\
             .L_x_0:\n\
             \t/*0040*/ {y} ;\n\
             \t/*0050*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0060*/ ISETP.GT.AND P0, PT, R2, R0, PT ;\n\
             \t/*0070*/ @!P0 BRA `(.L_x_0) ;\n\
             .L_x_1:\n\
             \t/*0080*/ BSYNC B0 ;\n\
             \t/*0090*/ LDG.E R3, desc[UR4][R4.64] ;\n\
             \t/*00a0*/ EXIT ;\n"
        )
    }

    #[test]
    fn groups_leaving_a_yield_loop_run_what_follows_apart() {
        // without a YIELD the four groups join at the BSYNC: one load; with it each group loads
        // alone (the H200: calibration/yield/ yWalk 7,119 stores for 7,119 groups, pWalk 512),
        // and no group is taken for one the GPU might merge
        let (plain, _) = one_warp(&walk(false, false));
        assert_eq!(plain.global.unwrap().ld_requests, 1);
        let (y, f) = one_warp(&walk(true, false));
        assert_eq!(y.global.unwrap().ld_requests, 4);
        assert_eq!(y.may_merge_global, 0);
        assert_eq!((y.targets, y.divergent), (plain.targets, plain.divergent));
        assert!(f.has_yield());
        assert_eq!(f.yield_doubt(), None);
        // lanes that skip the loop run no YIELD: they wait at the BSYNC for no yielded lane and
        // go on as a group of their own (ySkip, yOneSide)
        let (skip, _) = one_warp(&walk(true, true));
        assert_eq!(skip.global.unwrap().ld_requests, 5);
    }

    #[test]
    fn two_yield_loops_or_two_exits_are_doubted() {
        let two = walk(true, false).replace(
            "\t/*00a0*/ EXIT ;\n",
            "\t/*00a4*/ BSSY B0, `(.L_x_3) ;\n.L_x_2:\n\t/*00b0*/ YIELD ;\n\t/*00c0*/ @!P0 BRA `(.L_x_2) ;\n.L_x_3:\n\t/*00d0*/ BSYNC B0 ;\n\t/*00e0*/ EXIT ;\n",
        );
        let (_, f) = one_warp(&two);
        assert!(f.yield_doubt().unwrap().contains("more than one YIELD loop"));
        let exits = walk(true, true).replace(
            "\t/*0050*/ IADD3",
            "\t/*0048*/ @P1 BRA `(.L_x_1) ;\n\t/*0050*/ IADD3",
        );
        let (_, f) = one_warp(&exits);
        assert!(f.yield_doubt().unwrap().contains("more than one exit"));
    }
}
