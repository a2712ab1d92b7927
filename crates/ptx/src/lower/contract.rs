//! ptxas's contraction of `mul` and `add`/`sub` into one fused multiply-add.
//!
//! A float `mul`, `add` or `sub` written without a rounding modifier lets the code generator
//! contract a multiplication and an addition into one `fma` (PTX ISA, "Floating-Point
//! Instructions"): one rounding instead of two, so the results differ in the last bits. nvcc's
//! front end contracts most pairs itself (`fma.rn`), but leaves some (`sq - 24 * m * m` keeps a
//! `mul.f32` of `24 * m` by `m` and a `sub.f32`), and ptxas contracts those into `FFMA`/`DFMA`.
//! Read from ptxas 13 for sm_90 on small kernels (each pattern compiled and its machine code read):
//! * `mul.f32 t, a, b` then `add.f32 d, t, c` (or `c, t`) becomes `FFMA d, a, b, c`; `sub.f32 d,
//!   t, c` becomes `FFMA d, a, b, -c` and `sub.f32 d, c, t` `FFMA d, -a, b, c`; the same for
//!   `.f64` (`DFMA`); with `.ftz` on both (`FFMA.FTZ`);
//! * only when every use of `t` is such an `add`/`sub` (two adds of `t`: two `FFMA`s; `t` also
//!   stored: no contraction), in the `mul`'s basic block (an `add` after a label: none);
//! * not with a rounding modifier on either (`mul.rn`, `add.rn`: none), nor `.ftz` on one only,
//!   nor `t + t`;
//! * `div.full.f32 q, a, b` then `add.f32 d, q, c` becomes `MUFU.RCP` of `b` and `FFMA d, rcp,
//!   a, c` (both scaled as `div.full` scales them; Triton's `sum / n + eps` in rms_fwd and
//!   layernorm of calibration/hopper), under the same rules (`TernOp::DivFullAdd`);
//! * an `add`/`sub` of two such products contracts its first operand's (`a*b - c*d` becomes
//!   `FMUL` of `c*d` and `FFMA a, b, -that`).
//!
//! [`plan`] finds these pairs; the lowering emits the `add`/`sub` as an [`TernOp::Fma`],
//! [`TernOp::FmaSubC`] or [`TernOp::FmaNegAB`] of the `mul`'s operands (the `mul` stays: its
//! result is no longer read). Not modelled: `.sat` on the `add` (ptxas makes `FFMA.SAT`; left as
//! written), a `mul` whose operand is written again between it and the `add` (ptxas, working on
//! values, still contracts; left as written).
//!
//! [`TernOp::Fma`]: crate::inst::TernOp::Fma
//! [`TernOp::FmaSubC`]: crate::inst::TernOp::FmaSubC
//! [`TernOp::FmaNegAB`]: crate::inst::TernOp::FmaNegAB

use std::collections::{HashMap, HashSet};

use crate::parse::{Instruction, Operand, Stmt};

/// An `add`/`sub` to lower as a fused multiply-add of a `mul`'s operands.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fuse<'m> {
    /// The `mul`'s first operand.
    pub a: &'m Operand,
    /// The `mul`'s second operand.
    pub b: &'m Operand,
    /// The product is the `add`/`sub`'s second source operand (`c - a*b`), else its first.
    pub second: bool,
    /// The "product" is a `div.full.f32 q, a, b` (contracted only with an `add`).
    pub div: bool,
}

/// `(base, type, ftz)` of a float `mul`/`add`/`sub` that may be contracted: `.f32` or `.f64`,
/// no rounding modifier, no `.sat`, no guard.
fn contractible(i: &Instruction) -> Option<(&str, &str, bool)> {
    if i.pred.is_some() || i.operands.len() != 3 {
        return None;
    }
    let mut parts = i.opcode.split('.');
    let base = parts.next()?;
    if !matches!(base, "mul" | "add" | "sub" | "div") {
        return None;
    }
    let (mut ty, mut ftz, mut full) = (None, false, false);
    for m in parts {
        match m {
            "f32" | "f64" => ty = Some(m),
            "ftz" => ftz = true,
            "full" if base == "div" => full = true,
            _ => return None,
        }
    }
    // `div.full.f32` (not `.ftz`): its final multiply contracts as a `mul` does
    if base == "div" && !(full && ty == Some("f32") && !ftz) {
        return None;
    }
    Some((base, ty?, ftz))
}

/// Whether `o` names register `r` (anywhere inside it).
fn mentions(o: &Operand, r: &str) -> bool {
    match o {
        Operand::Name(n) | Operand::NotName(n) => n == r,
        Operand::Addr { base, .. } => base.as_deref() == Some(r),
        Operand::Vector(v) | Operand::List(v) => v.iter().any(|o| mentions(o, r)),
        Operand::Pair(p, q) => p == r || q == r,
        _ => false,
    }
}

fn is_name(o: &Operand, r: &str) -> bool {
    matches!(o, Operand::Name(n) if n == r)
}

/// Whether the statement ends or starts a basic block.
fn boundary(s: &Stmt) -> bool {
    match s {
        Stmt::Label(..) | Stmt::Open | Stmt::Close => true,
        Stmt::Inst(i) => {
            i.pred.is_some() && i.opcode.starts_with("bra")
                || matches!(
                    i.opcode.split('.').next(),
                    Some("bra" | "brx" | "ret" | "exit" | "call" | "trap" | "bar" | "barrier" | "membar")
                )
                // a memory fence (`fence.sc`, `fence.acq_rel`) ends contraction as `membar`
                // does; a proxy fence (`fence.proxy.async`) and `wgmma.fence` do not
                || i.opcode.starts_with("fence.") && !i.opcode.starts_with("fence.proxy")
        }
        _ => false,
    }
}

/// The `add`/`sub` statements (by index in `body`) ptxas contracts with a `mul`, and how.
pub(super) fn plan(body: &[Stmt]) -> HashMap<usize, Fuse<'_>> {
    // every instruction's statement index, by the registers it mentions
    let mut mentioned: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, s) in body.iter().enumerate() {
        if let Stmt::Inst(i) = s {
            let mut names: HashSet<&str> = HashSet::new();
            for o in &i.operands {
                collect(o, &mut names);
            }
            if let Some((_, p)) = &i.pred {
                names.insert(p.as_str());
            }
            for n in names {
                mentioned.entry(n).or_default().push(k);
            }
        }
    }
    // candidate products: register -> (mul index, its uses)
    let mut cand: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, s) in body.iter().enumerate() {
        let Stmt::Inst(m) = s else { continue };
        let Some((base @ ("mul" | "div"), ty, ftz)) = contractible(m) else {
            continue;
        };
        let Operand::Name(t) = &m.operands[0] else {
            continue;
        };
        let srcs = [&m.operands[1], &m.operands[2]];
        if !srcs
            .iter()
            .all(|o| matches!(o, Operand::Name(_) | Operand::F32(_) | Operand::F64(_)))
            || srcs.iter().any(|o| is_name(o, t))
        {
            continue;
        }
        let uses: Vec<usize> = mentioned[t.as_str()]
            .iter()
            .copied()
            .filter(|&u| u != k)
            .collect();
        if uses.is_empty() {
            continue;
        }
        let last = *uses.iter().max().unwrap_or(&k);
        if uses.iter().any(|&u| u < k) {
            continue;
        }
        let mut ok = true;
        for (j, s) in body.iter().enumerate().take(last + 1).skip(k + 1) {
            if boundary(s) && !(j == last && matches!(s, Stmt::Inst(_))) {
                ok = false;
                break;
            }
            let Stmt::Inst(i) = s else { continue };
            let use_here = uses.contains(&j);
            if use_here {
                let fits = contractible(i).is_some_and(|(b2, ty2, ftz2)| {
                    (b2 == "add" || b2 == "sub" && base == "mul") && ty2 == ty && ftz2 == ftz
                }) && !boundary(s);
                let once = i.operands[1..].iter().filter(|o| mentions(o, t)).count() == 1
                    && i.operands[1..].iter().any(|o| is_name(o, t));
                if !fits || !once {
                    ok = false;
                    break;
                }
            }
            // the product's operands written again before a later use: not modelled
            // (an instruction without operands, `wgmma.fence`, writes none)
            let dst = i.operands.first();
            if j < last
                && srcs
                    .iter()
                    .any(|o| matches!(o, Operand::Name(n) if dst.is_some_and(|d| mentions(d, n))))
            {
                ok = false;
                break;
            }
            // the product itself written again before its last use
            if j < last && dst.is_some_and(|d| mentions(d, t)) {
                ok = false;
                break;
            }
        }
        if ok {
            cand.insert(k, uses);
        }
    }
    // an add/sub of two products contracts the first: the second's use there is no contraction,
    // so the second is computed by itself (`FMUL`) and contracted nowhere. Where the first is
    // such a product itself (the second of another add/sub whose first contracts), the second
    // contracts instead (`a*b - c*d` beside `e*f - a*b`: `FMUL` of `a*b`, then `FFMA -c, d, that`
    // and `FFMA e, f, -that`; resize.cu's Catmull-Rom weights, `3t^3 - 5t^2` and `4t^2 - 3t^3`)
    let product_of = |o: &Operand| -> Option<usize> {
        let Operand::Name(n) = o else { return None };
        cand.iter()
            .find(|(m, _)| matches!(body[**m], Stmt::Inst(ref i) if is_name(&i.operands[0], n)))
            .map(|(m, _)| *m)
    };
    // per product, the products it is the second operand beside
    let mut rivals: HashMap<usize, HashSet<usize>> = HashMap::new();
    for (&m, uses) in &cand {
        let Stmt::Inst(mi) = &body[m] else { continue };
        for &u in uses {
            let Stmt::Inst(ui) = &body[u] else { continue };
            if is_name(&ui.operands[2], name(&mi.operands[0]))
                && let Some(p) = product_of(&ui.operands[1]).filter(|&p| p != m)
            {
                rivals.entry(m).or_default().insert(p);
            }
        }
    }
    // a product contracts when no rival does; a product beside a contracting rival does not;
    // rivals that depend on each other in a circle contract neither (not measured)
    let mut contracts: HashMap<usize, bool> = cand
        .keys()
        .filter(|m| !rivals.contains_key(m))
        .map(|&m| (m, true))
        .collect();
    loop {
        let mut changed = false;
        for (&m, rs) in &rivals {
            if contracts.contains_key(&m) {
                continue;
            }
            if rs.iter().any(|r| contracts.get(r) == Some(&true)) {
                contracts.insert(m, false);
                changed = true;
            } else if rs.iter().all(|r| contracts.get(r) == Some(&false)) {
                contracts.insert(m, true);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    cand.retain(|m, _| contracts.get(m) == Some(&true));
    let mut out = HashMap::new();
    for (&m, uses) in &cand {
        let Stmt::Inst(mi) = &body[m] else { continue };
        for &u in uses {
            let Stmt::Inst(ui) = &body[u] else { continue };
            out.insert(
                u,
                Fuse {
                    a: &mi.operands[1],
                    b: &mi.operands[2],
                    second: !is_name(&ui.operands[1], name(&mi.operands[0])),
                    div: mi.opcode.starts_with("div"),
                },
            );
        }
    }
    out
}

fn name(o: &Operand) -> &str {
    match o {
        Operand::Name(n) => n,
        _ => "",
    }
}

fn collect<'a>(o: &'a Operand, out: &mut HashSet<&'a str>) {
    match o {
        Operand::Name(n) | Operand::NotName(n) => {
            out.insert(n);
        }
        Operand::Addr { base: Some(b), .. } => {
            out.insert(b);
        }
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|o| collect(o, out)),
        Operand::Pair(p, q) => {
            out.insert(p);
            out.insert(q);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contracted `add`/`sub` lines of a kernel body (1-based instruction numbers), with the
    /// product's place.
    fn fused(body: &str) -> Vec<(usize, bool)> {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 g)\n{{\n\
             .reg .pred %p<3>;\n.reg .f32 %f<9>;\n.reg .f64 %fd<9>;\n.reg .b64 %rd<4>;\n{body}\nret;\n}}\n"
        );
        let (m, d) = crate::parse(&src);
        assert!(d.is_empty(), "{d:?}");
        let body = m.functions[0].body.as_ref().unwrap();
        let insts: Vec<usize> = (0..body.len())
            .filter(|&k| matches!(body[k], Stmt::Inst(_)))
            .collect();
        let p = plan(body);
        let mut v: Vec<(usize, bool)> = p
            .iter()
            .map(|(k, f)| (insts.iter().position(|i| i == k).unwrap() + 1, f.second))
            .collect();
        v.sort();
        v
    }

    // each case is one of the kernels whose machine code (ptxas 13, sm_90) the module doc cites
    #[test]
    fn contracts_what_ptxas_contracts() {
        // mul then add: FFMA
        assert_eq!(
            fused("mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;"),
            [(2, false)]
        );
        // c + a*b, c - a*b, a*b - c
        assert_eq!(
            fused("mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f3, %f4;\nst.global.f32 [%rd1], %f5;"),
            [(2, true)]
        );
        assert_eq!(
            fused("mul.f32 %f4, %f1, %f2;\nsub.f32 %f5, %f3, %f4;\nst.global.f32 [%rd1], %f5;"),
            [(2, true)]
        );
        assert_eq!(
            fused("mul.f32 %f4, %f1, %f2;\nsub.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;"),
            [(2, false)]
        );
        // doubles, both .ftz, an immediate factor
        assert_eq!(
            fused("mul.f64 %fd4, %fd1, %fd2;\nsub.f64 %fd5, %fd3, %fd4;\nst.global.f64 [%rd1], %fd5;"),
            [(2, true)]
        );
        assert_eq!(
            fused("mul.ftz.f32 %f4, %f1, %f2;\nadd.ftz.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;"),
            [(2, false)]
        );
        assert_eq!(
            fused("mul.f32 %f4, %f1, 0f41C00000;\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;"),
            [(2, false)]
        );
        // two adds of one product: both
        assert_eq!(
            fused(
                "mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nadd.f32 %f6, %f4, %f1;\nst.global.f32 [%rd1], %f5;\nst.global.f32 [%rd1+4], %f6;"
            ),
            [(2, false), (3, false)]
        );
        // a*b - c*d: the first product
        assert_eq!(
            fused(
                "mul.f32 %f4, %f1, %f2;\nmul.f32 %f6, %f3, %f1;\nsub.f32 %f5, %f4, %f6;\nst.global.f32 [%rd1], %f5;"
            ),
            [(3, false)]
        );
        // a*b - c*d beside e*f - a*b: a*b is computed (its second place), so c*d contracts into
        // the first (ptxas 13: FMUL R5, R4, R5; FFMA R6, -R6, R7, R5; FFMA R7, R8, R9, -R5)
        assert_eq!(
            fused(
                "mul.f32 %f4, %f1, %f2;\nmul.f32 %f6, %f3, %f1;\nsub.f32 %f5, %f4, %f6;\nmul.f32 %f7, %f3, %f2;\nsub.f32 %f8, %f7, %f4;\nst.global.f32 [%rd1], %f5;\nst.global.f32 [%rd1+4], %f8;"
            ),
            [(3, true), (5, false)]
        );
        // a chain: both
        assert_eq!(
            fused(
                "mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nmul.f32 %f6, %f5, %f2;\nadd.f32 %f7, %f6, %f1;\nst.global.f32 [%rd1], %f7;"
            ),
            [(2, false), (4, false)]
        );
    }

    // ptxas 13 for sm_90a (the module doc's kernel with the instruction between the two): FFMA
    // across `wgmma.fence`, `wgmma.commit_group` and `fence.proxy.async`; FMUL and FADD across
    // `membar.gl`, `membar.cta`, `fence.acq_rel.gpu` and `fence.sc.cta`
    #[test]
    fn instructions_without_operands_between_the_pair() {
        let pair = |between: &str| {
            fused(&format!(
                "mul.f32 %f4, %f1, %f2;\n{between}\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;"
            ))
        };
        for f in [
            "wgmma.fence.sync.aligned;",
            "wgmma.commit_group.sync.aligned;",
            "fence.proxy.async;",
        ] {
            assert_eq!(pair(f), [(3, false)], "{f}");
        }
        for f in ["membar.gl;", "membar.cta;", "fence.acq_rel.gpu;", "fence.sc.cta;"] {
            assert!(pair(f).is_empty(), "{f}");
        }
    }

    #[test]
    fn leaves_what_ptxas_leaves() {
        // the product also stored
        assert!(fused("mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;\nst.global.f32 [%rd1+4], %f4;").is_empty());
        // a rounding modifier on either
        assert!(
            fused("mul.rn.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;").is_empty()
        );
        assert!(
            fused("mul.f32 %f4, %f1, %f2;\nadd.rn.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;").is_empty()
        );
        // .ftz on one only
        assert!(
            fused("mul.ftz.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;")
                .is_empty()
        );
        assert!(
            fused("mul.f32 %f4, %f1, %f2;\nsub.ftz.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;")
                .is_empty()
        );
        // the add in another basic block
        assert!(fused("mul.f32 %f4, %f1, %f2;\nsetp.gt.f32 %p1, %f3, 0f00000000;\n@%p1 bra L1;\nst.global.f32 [%rd1+8], %f3;\nL1:\nadd.f32 %f5, %f4, %f3;\nst.global.f32 [%rd1], %f5;").is_empty());
        // t + t; a product feeding an fma
        assert!(
            fused("mul.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f4;\nst.global.f32 [%rd1], %f5;").is_empty()
        );
        assert!(
            fused("mul.f32 %f4, %f1, %f2;\nfma.rn.f32 %f5, %f4, %f3, %f1;\nst.global.f32 [%rd1], %f5;")
                .is_empty()
        );
    }

    /// `div.full.f32` then `add.f32` (Triton's `sum / n + eps`): ptxas makes `MUFU.RCP` and one
    /// `FFMA` of the reciprocal, the dividend and the addend (rms_fwd and layernorm of
    /// calibration/hopper; rms_fwd's rstd was 2 ulp off in one row of 12 without it). Left as
    /// written (not measured): a `div.rn` (a subroutine, no final multiply), a `div.full.ftz`, a
    /// `sub`, a second use of the quotient (as for `mul`).
    #[test]
    fn a_full_division_contracts_with_an_add() {
        let st = "st.global.f32 [%rd1], %f5;";
        assert_eq!(
            fused(&format!(
                "div.full.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f3, %f4;\n{st}"
            )),
            [(2, true)]
        );
        assert_eq!(
            fused(&format!(
                "div.full.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f4, %f3;\n{st}"
            )),
            [(2, false)]
        );
        for other in [
            "div.rn.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f3, %f4;",
            "div.full.ftz.f32 %f4, %f1, %f2;\nadd.ftz.f32 %f5, %f3, %f4;",
            "div.full.f32 %f4, %f1, %f2;\nsub.f32 %f5, %f3, %f4;",
            "div.full.f32 %f4, %f1, %f2;\nadd.f32 %f5, %f3, %f4;\nst.global.f32 [%rd1+4], %f4;",
        ] {
            assert!(fused(&format!("{other}\n{st}")).is_empty(), "{other}");
        }
    }
}
