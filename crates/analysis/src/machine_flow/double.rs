//! Double-precision steps of the machine code: `DADD`, `DMUL`, `DFMA` (to nearest or in the
//! direction of a `.RZ`/`.RM`/`.RP` modifier), `DSETP`, and the conversions between 8-, 16- and
//! 32-bit integers, floats and doubles. The GPU's double arithmetic is IEEE 754 binary64 with
//! subnormals and no flush to zero, each result rounded once (to nearest even, or in the
//! modifier's direction: [`warpscope_emu::softfloat`]; `round(x)` is ptxas's `DADD.RZ` of `x` and
//! a half of its sign), so these results are exact: a branch
//! on a double compare (the argument reduction of `sin`/`cos`, an ODE solver's step control) is
//! followed on the launch's values. `MUFU.RCP64H` and `MUFU.RSQ64H` are the H200's unit
//! (`warpscope_emu::mufu::rcp64h`, `rsq64h`, measured: calibration/rcp64h, calibration/rsq64h).

use super::{Bop, Cmp, Kind, Opnd, Src, parse_opnd};

/// `DADD`, `DMUL`, `DFMA`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dop {
    Add,
    Mul,
    Fma,
}

/// The rounding of a `DADD`/`DMUL`/`DFMA` modifier list: 0 to nearest even (none), 1 `.RZ`, 2
/// `.RM`, 3 `.RP`; `None` for any other modifier or two roundings.
fn dop_round(mods: &[&str]) -> Option<u8> {
    match mods {
        [] => Some(0),
        ["RZ"] => Some(1),
        ["RM"] => Some(2),
        ["RP"] => Some(3),
        _ => None,
    }
}

/// A conversion involving doubles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dcvt {
    /// `I2F.F64` (signed) / `I2F.F64.U32`, and of the low 16 or 8 bits (`.S16`, `.U16`, `.S8`,
    /// `.U8`): exact.
    FromInt { signed: bool, bits: u8 },
    /// `F2F.F64.F32`: exact.
    FromFloat,
    /// `F2F.F32.F64`: rounded to nearest even.
    ToFloat,
    /// `F2I.F64` (`.U32`: unsigned): rounded to nearest even, or `.TRUNC`/`.FLOOR`/`.CEIL`
    /// (`round` 1/2/3); saturating, NaN to 0.
    ToInt { signed: bool, round: u8 },
    /// `F2I.S64` / `F2I.U64` of a float into a 64-bit integer (a register pair), `round` as for
    /// `ToInt`: saturating, NaN to the most negative integer signed, 0 unsigned (the emulator's
    /// `cvt`, as the H200 gives).
    FloatToInt64 { signed: bool, round: u8 },
    /// `I2F.S64` / `I2F.U64` of a 64-bit integer (a register pair) into a float, rounded to
    /// nearest even, or as `.RZ`/`.RM`/`.RP` say (`round` 1/2/3: ptxas's 64-bit division
    /// subroutine seeds its reciprocal by `I2F.U64.RP` of the divisor).
    Int64ToFloat { signed: bool, round: u8 },
}

/// The decoded kind of a double-precision instruction `base.mods`, or `None` when it is not one
/// this module computes.
pub(super) fn kind(base: &str, mods: &[&str]) -> Option<Kind> {
    let only = |allowed: &[&str]| mods.iter().all(|m| allowed.contains(m));
    Some(match base {
        "DADD" | "DMUL" | "DFMA" => Kind::Dop {
            op: match base {
                "DADD" => Dop::Add,
                "DMUL" => Dop::Mul,
                _ => Dop::Fma,
            },
            round: dop_round(mods)?,
        },
        "DSETP" if matches!(mods.first(), Some(&("MIN" | "MAX"))) => {
            if !only(&[mods[0], "AND"]) {
                return None;
            }
            Kind::Dminmax {
                max: mods[0] == "MAX",
            }
        }
        "DSETP" => {
            let cmp = mods.first().and_then(|m| super::parse_cmp(m))?;
            if !only(&[mods[0], "AND", "OR", "XOR"]) {
                return None;
            }
            Kind::Dsetp {
                cmp,
                bop: super::parse_bop(mods),
            }
        }
        "I2F" if mods.contains(&"F64") && only(&["F64", "S32", "U32", "S16", "U16", "S8", "U8"]) => {
            let bits = if mods.iter().any(|m| m.ends_with("16")) {
                16
            } else if mods.iter().any(|m| m.ends_with('8')) {
                8
            } else {
                32
            };
            Kind::Dcvt {
                op: Dcvt::FromInt {
                    signed: !mods.iter().any(|m| m.starts_with('U')),
                    bits,
                },
            }
        }
        "F2F" if mods == ["F64", "F32"] => Kind::Dcvt { op: Dcvt::FromFloat },
        "F2F" if mods == ["F32", "F64"] => Kind::Dcvt { op: Dcvt::ToFloat },
        "F2I" if mods.contains(&"F64") && only(&["F64", "TRUNC", "FLOOR", "CEIL", "S32", "U32"]) => {
            Kind::Dcvt {
                op: Dcvt::ToInt {
                    signed: !mods.contains(&"U32"),
                    round: if mods.contains(&"TRUNC") {
                        1
                    } else if mods.contains(&"FLOOR") {
                        2
                    } else if mods.contains(&"CEIL") {
                        3
                    } else {
                        0
                    },
                },
            }
        }
        "F2I"
            if (mods.contains(&"S64") || mods.contains(&"U64"))
                && only(&["S64", "U64", "TRUNC", "FLOOR", "CEIL", "NTZ"]) =>
        {
            Kind::Dcvt {
                op: Dcvt::FloatToInt64 {
                    signed: mods.contains(&"S64"),
                    round: if mods.contains(&"TRUNC") {
                        1
                    } else if mods.contains(&"FLOOR") {
                        2
                    } else if mods.contains(&"CEIL") {
                        3
                    } else {
                        0
                    },
                },
            }
        }
        "I2F"
            if (mods.contains(&"S64") || mods.contains(&"U64"))
                && only(&["S64", "U64", "RZ", "RM", "RP", "F32"])
                && mods.iter().filter(|m| matches!(**m, "RZ" | "RM" | "RP")).count() <= 1 =>
        {
            Kind::Dcvt {
                op: Dcvt::Int64ToFloat {
                    signed: mods.contains(&"S64"),
                    round: if mods.contains(&"RZ") {
                        1
                    } else if mods.contains(&"RM") {
                        2
                    } else if mods.contains(&"RP") {
                        3
                    } else {
                        0
                    },
                },
            }
        }
        _ => return None,
    })
}

/// Which source operands (bit per operand index) are register pairs holding doubles.
pub(super) fn pair_sources(kind: Kind) -> u8 {
    match kind {
        Kind::Dop { .. } => 0b111,
        Kind::Dsetp { .. } | Kind::Dminmax { .. } => 0b11,
        Kind::Dcvt {
            op: Dcvt::ToFloat | Dcvt::ToInt { .. } | Dcvt::Int64ToFloat { .. },
        } => 0b1,
        _ => 0,
    }
}

/// A double instruction's operand: a decimal or infinite immediate is the double it names (the
/// machine code holds its high word), a hex immediate the high word itself.
pub(super) fn operand(t: &str) -> Opnd {
    let mut o = parse_opnd(t);
    if matches!(o.src, Src::FImm(_)) {
        // the sign of a negated register-like operand is a modifier; a literal keeps its own
        let mut core = t.trim().trim_end_matches(".reuse");
        if o.neg {
            core = core.trim_start_matches('-');
        }
        let core = core.trim_matches('|').trim();
        let v = match core {
            "+INF" | "INF" => Some(f64::INFINITY),
            "-INF" => Some(f64::NEG_INFINITY),
            _ => core.parse::<f64>().ok(),
        };
        o.src = match v {
            Some(v) if v.to_bits() & 0xffff_ffff == 0 => Src::Imm((v.to_bits() >> 32) as u32),
            _ => Src::Unknown,
        };
    }
    o
}

/// A double from its two words, with the operand's modifiers. A NaN keeps its sign: the GPU's
/// double arithmetic passes a NaN operand on with its own sign and payload whatever the operand's
/// `-` or `|..|` (ptxas's `fabs` and `-x` are `DADD R, -RZ, |x|` and `DADD R, -RZ, -x`, and an
/// H100 returned a NaN's sign and payload kept by both: calibration/equivalence/features/nanRules.cu).
pub(super) fn value(lo: u32, hi: u32, o: &Opnd) -> f64 {
    let mut v = f64::from_bits(u64::from(hi) << 32 | u64::from(lo));
    if v.is_nan() {
        return v;
    }
    if o.abs {
        v = v.abs();
    }
    if o.neg {
        v = -v;
    }
    v
}

/// `a cmp b` as the GPU's float compares define it (ordered compares false on NaN, unordered
/// ones true).
pub(super) fn compare(cmp: Cmp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match cmp {
        Cmp::Lt => a < b,
        Cmp::Eq => a == b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ne => !nan && a != b,
        Cmp::Ge => a >= b,
        Cmp::Ltu => nan || a < b,
        Cmp::Equ => nan || a == b,
        Cmp::Leu => nan || a <= b,
        Cmp::Gtu => nan || a > b,
        Cmp::Neu => nan || a != b,
        Cmp::Geu => nan || a >= b,
        Cmp::Num => !nan,
        Cmp::Nan => nan,
        Cmp::F => false,
        Cmp::T => true,
    }
}

/// Combines a compare's result with the predicate operand.
/// `DSETP.MIN` / `DSETP.MAX` (`max`) of `a` and `b`, ptxas's `fmin`/`fmax` of doubles: whether
/// `a` is the one chosen (the first predicate: `SEL`/`FSEL` take `a`'s words where it holds), and
/// whether both are NaN (the second: ptxas then sets the quiet bit of `b`'s high word). A NaN
/// operand loses to a number; `-0` is below `+0`; of two equal values `a` is chosen.
pub(super) fn min_max(max: bool, a: f64, b: f64) -> (bool, bool) {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => (false, true),
        (true, false) => (false, false),
        (false, true) => (true, false),
        (false, false) => {
            // -0 below +0: the sign bit breaks the tie of equal zeros
            let below = a < b || a == b && a.is_sign_negative() && !b.is_sign_negative();
            let above = a > b || a == b && !a.is_sign_negative() && b.is_sign_negative();
            let chosen = if max { !below } else { !above };
            (chosen, false)
        }
    }
}

pub(super) fn combine(bop: Bop, r: bool, c: bool) -> bool {
    match bop {
        Bop::And => r && c,
        Bop::Or => r || c,
        Bop::Xor => r ^ c,
    }
}

/// A double's two words; `None` for a NaN (see [`nan_result`] for arithmetic's NaNs).
fn split(v: f64) -> Option<(u32, u32)> {
    (!v.is_nan()).then(|| (v.to_bits() as u32, (v.to_bits() >> 32) as u32))
}

/// The NaN a `DADD`/`DMUL`/`DFMA` writes when its result is one, by the emulator's rules
/// ([`warpscope_emu::arith::nan64_2`], [`warpscope_emu::arith::dfma_nan`]): a NaN operand
/// quieted, its sign and payload kept; of two, `b` over `a` (`DADD`, `DMUL`, `DFMA`), `c` over
/// `a` and `b` over `c` (`DFMA`); with none, the default NaN the operation makes (`inf - inf`,
/// `0 * inf`). Measured on machine code whose operands are the PTX's in order (an H100's
/// calibration/equivalence/features/f64Nan.cu: `DADD R14, R8, R12` for `n + m`, `DFMA R28, R8,
/// R12, R24` for `fma(n, m, y)`, `DFMA R18, R8, R24, R12` for `fma(n, y, m)`; an H200's
/// calibration/fmanan/: `DFMA R12, R8, R4, R12` for `fma(n, m, p)`), 64 of 64 rows each.
fn nan_result(a: f64, b: f64, c: Option<f64>) -> (u32, u32) {
    use warpscope_emu::arith::{dfma_nan, nan64_2};
    let bits = match c {
        Some(c) => dfma_nan(f64::NAN, a, b, c),
        None => nan64_2(f64::NAN, a, b),
    };
    (bits as u32, (bits >> 32) as u32)
}

/// `DADD`/`DMUL`/`DFMA` on known operands, rounded as `round` says (0 to nearest even, 1 toward
/// zero, 2 down, 3 up): the result's two words.
pub(super) fn arith(op: Dop, round: u8, a: f64, b: f64, c: Option<f64>) -> Option<(u32, u32)> {
    let r = if round == 0 {
        match op {
            Dop::Add => a + b,
            Dop::Mul => a * b,
            Dop::Fma => a.mul_add(b, c?),
        }
    } else {
        use warpscope_emu::softfloat::{self, F64};
        use warpscope_ptx::inst::Rnd;
        let rnd = [Rnd::Rz, Rnd::Rm, Rnd::Rp][usize::from(round.clamp(1, 3) - 1)];
        let (x, y) = (a.to_bits(), b.to_bits());
        f64::from_bits(match op {
            Dop::Add => softfloat::add(F64, x, y, rnd),
            Dop::Mul => softfloat::mul(F64, x, y, rnd),
            Dop::Fma => softfloat::fma(F64, x, y, c?.to_bits(), rnd),
        })
    };
    if r.is_nan() {
        return Some(nan_result(a, b, if op == Dop::Fma { Some(c?) } else { None }));
    }
    split(r)
}

/// A conversion's result words (the second only for a double result).
pub(super) fn convert(op: Dcvt, x: u32, d: Option<f64>) -> (Option<u32>, Option<u32>) {
    match op {
        Dcvt::FromInt { signed, bits } => {
            let v = match (signed, bits) {
                (true, 8) => f64::from(x as u8 as i8),
                (false, 8) => f64::from(x as u8),
                (true, 16) => f64::from(x as u16 as i16),
                (false, 16) => f64::from(x as u16),
                (true, _) => f64::from(x as i32),
                (false, _) => f64::from(x),
            };
            let (lo, hi) = (v.to_bits() as u32, (v.to_bits() >> 32) as u32);
            (Some(lo), Some(hi))
        }
        Dcvt::FromFloat => {
            // exact; a NaN as the emulator's `cvt.f64.f32` gives it (the H100's, f64Nan.cu)
            use warpscope_ptx::inst::{Rnd, Ty};
            let v = warpscope_emu::arith::cvt(Ty::F64, Ty::F32, Rnd::Rn, false, u64::from(x));
            (Some(v as u32), Some((v >> 32) as u32))
        }
        Dcvt::ToFloat => match d {
            Some(v) if !v.is_nan() => (Some((v as f32).to_bits()), None),
            Some(v) => {
                // a NaN as the emulator's `cvt.rn.f32.f64` gives it: the top of its payload,
                // quieted (the H100's, calibration/equivalence/features/f64Nan.cu)
                use warpscope_ptx::inst::{Rnd, Ty};
                let r = warpscope_emu::arith::cvt(Ty::F32, Ty::F64, Rnd::Rn, false, v.to_bits());
                (Some(r as u32), None)
            }
            None => (None, None),
        },
        Dcvt::FloatToInt64 { signed, round } => {
            use warpscope_ptx::inst::{Rnd, Ty};
            let rnd = [Rnd::Rni, Rnd::Rzi, Rnd::Rmi, Rnd::Rpi][usize::from(round.min(3))];
            let ty = if signed { Ty::S64 } else { Ty::U64 };
            let v = warpscope_emu::arith::cvt(ty, Ty::F32, rnd, false, u64::from(x));
            (Some(v as u32), Some((v >> 32) as u32))
        }
        // the pair's integer comes in `x` (low word) and `d`'s bits (see `convert64`)
        Dcvt::Int64ToFloat { .. } => (None, None),
        Dcvt::ToInt { signed, round } => match d {
            Some(v) => {
                let v = match round {
                    0 => v.round_ties_even(),
                    1 => v.trunc(),
                    2 => v.floor(),
                    _ => v.ceil(),
                };
                // Rust's casts saturate and send NaN to 0, as the GPU's F2I does
                (Some(if signed { v as i32 as u32 } else { v as u32 }), None)
            }
            None => (None, None),
        },
    }
}

/// `I2F.S64` / `I2F.U64` of the 64-bit integer `v` (the emulator's `cvt`), rounded as `round`
/// says (0 to nearest even, 1 toward zero, 2 down, 3 up).
pub(super) fn int64_to_float(v: u64, signed: bool, round: u8) -> u32 {
    use warpscope_ptx::inst::{Rnd, Ty};
    let rnd = [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp][usize::from(round.min(3))];
    let ty = if signed { Ty::S64 } else { Ty::U64 };
    warpscope_emu::arith::cvt(Ty::F32, ty, rnd, false, v) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: f64) -> (u32, u32) {
        (v.to_bits() as u32, (v.to_bits() >> 32) as u32)
    }

    #[test]
    fn fma_rounds_once() {
        // (1 + 2^-30)^2 - 1 = 2^-29 + 2^-60: a multiply then an add loses the 2^-60
        let a = 1.0 + 2f64.powi(-30);
        let fused = arith(Dop::Fma, 0, a, a, Some(-1.0)).unwrap();
        assert_eq!(fused, words(2f64.powi(-29) + 2f64.powi(-60)));
        let unfused = arith(Dop::Add, 0, a * a, -1.0, None).unwrap();
        assert_eq!(unfused, words(2f64.powi(-29)));
    }

    #[test]
    fn subnormals_are_kept_and_nans_are_the_gpus() {
        let tiny = f64::from_bits(1);
        assert_eq!(arith(Dop::Mul, 0, tiny, 1.0, None), Some((1, 0)));
        // a NaN the operation makes: the default NaN, in every rounding
        for round in 0..4 {
            assert_eq!(
                arith(Dop::Add, round, f64::INFINITY, f64::NEG_INFINITY, None),
                Some((0, 0xfff8_0000))
            );
            assert_eq!(
                arith(Dop::Fma, round, 0.0, f64::INFINITY, Some(1.0)),
                Some((0, 0xfff8_0000))
            );
        }
        // a NaN operand quieted, its sign and payload kept, whatever the operand's modifiers
        let snan = f64::from_bits(0xfff0_0000_0000_0001);
        let o = |abs: bool, neg: bool| Opnd {
            abs,
            neg,
            ..parse_opnd("R4")
        };
        for m in [o(true, false), o(false, true), o(true, true)] {
            let v = value(1, 0xfff0_0000, &m);
            assert_eq!(arith(Dop::Add, 0, -0.0, v, None), Some((1, 0xfff8_0000)), "{m:?}");
        }
        assert_eq!(arith(Dop::Mul, 0, 2.0, snan, None), Some((1, 0xfff8_0000)));
        assert_eq!(arith(Dop::Fma, 0, 2.0, 3.0, Some(snan)), Some((1, 0xfff8_0000)));
        // two or three NaN operands: b over a, c over a, b over c (f64Nan.cu, calibration/fmanan/)
        let q = f64::from_bits(0x7ff8_0000_0000_0005);
        let r = f64::from_bits(0x7ff0_0000_0000_0007);
        assert_eq!(arith(Dop::Add, 0, q, snan, None), Some((1, 0xfff8_0000)));
        assert_eq!(arith(Dop::Mul, 0, snan, q, None), Some((5, 0x7ff8_0000)));
        assert_eq!(arith(Dop::Fma, 0, q, snan, Some(1.0)), Some((1, 0xfff8_0000)));
        assert_eq!(arith(Dop::Fma, 0, snan, 1.0, Some(q)), Some((5, 0x7ff8_0000)));
        assert_eq!(arith(Dop::Fma, 0, 1.0, q, Some(snan)), Some((5, 0x7ff8_0000)));
        assert_eq!(arith(Dop::Fma, 0, r, snan, Some(q)), Some((1, 0xfff8_0000)));
    }

    #[test]
    fn conversions_of_nans_are_the_emulators() {
        // cvt.f64.f32 keeps a float NaN's payload, shifted up, quieted; cvt.rn.f32.f64 the top
        // of a double NaN's payload, quieted (an H100's 64 of 64 rows each,
        // calibration/equivalence/features/README.md, f64Nan.cu)
        assert_eq!(
            convert(Dcvt::FromFloat, 0xff80_0001, None),
            (Some(0x2000_0000), Some(0xfff8_0000))
        );
        assert_eq!(
            convert(Dcvt::ToFloat, 0, Some(f64::from_bits(0x7ff4_0000_0000_0000))),
            (Some(0x7fe0_0000), None)
        );
    }

    #[test]
    fn directed_roundings() {
        // round(x) as ptxas computes it: DADD.RZ of x and a half of x's sign, then F2I.TRUNC;
        // the largest double below 0.5 rounds to 0, where adding to nearest would give 1
        let below_half = f64::from_bits(0x3fdf_ffff_ffff_ffff);
        assert!(matches!(
            kind("DADD", &["RZ"]),
            Some(Kind::Dop {
                op: Dop::Add,
                round: 1
            })
        ));
        assert!(kind("DADD", &["RZ", "RM"]).is_none());
        assert_eq!(
            arith(Dop::Add, 1, below_half, 0.5, None),
            Some(words(1.0 - f64::EPSILON / 2.0))
        );
        assert_eq!(arith(Dop::Add, 0, below_half, 0.5, None), Some(words(1.0)));
        assert_eq!(
            arith(Dop::Add, 1, -below_half, -0.5, None),
            Some(words(-1.0 + f64::EPSILON / 2.0))
        );
        assert_eq!(arith(Dop::Add, 2, 1.0, 2f64.powi(-60), None), Some(words(1.0)));
        assert_eq!(
            arith(Dop::Add, 3, 1.0, 2f64.powi(-60), None),
            Some(words(1.0 + f64::EPSILON))
        );
        assert_eq!(
            arith(Dop::Mul, 1, 1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, None),
            Some(words(1.0))
        );
        assert_eq!(
            arith(Dop::Fma, 3, 1.0, 1.0, Some(2f64.powi(-70))),
            Some(words(1.0 + f64::EPSILON))
        );
    }

    #[test]
    fn narrow_integers_convert_from_their_low_bits() {
        let from = |mods: &[&str], x: u32| match kind("I2F", mods) {
            Some(Kind::Dcvt { op }) => convert(op, x, None).1.map(|h| f64::from_bits(u64::from(h) << 32)),
            _ => None,
        };
        // a byte loaded by LDG.E.U8, converted by I2F.F64.U16 (the high bits of the word are 0)
        assert_eq!(from(&["F64", "U16"], 0x0001_00e4), Some(228.0));
        assert_eq!(from(&["F64", "S16"], 0xffff), Some(-1.0));
        assert_eq!(from(&["F64", "U8"], 0x1ff), Some(255.0));
        assert_eq!(from(&["F64", "S8"], 0x80), Some(-128.0));
        assert_eq!(from(&["F64", "S32"], 0xffff_fffe), Some(-2.0));
        assert_eq!(from(&["F64", "U64"], 1), None);
    }

    #[test]
    fn immediates_name_the_double_by_its_high_word() {
        assert_eq!(operand("5.9604644775390625e-08").src, Src::Imm(0x3e70_0000));
        assert_eq!(operand("+INF").src, Src::Imm(0x7ff0_0000));
        assert_eq!(operand("-0.5").src, Src::Imm(0xbfe0_0000));
        // `-INF` is read as a negated infinity
        let o = operand("-INF");
        assert!(o.neg);
        assert_eq!(
            value(
                0,
                match o.src {
                    Src::Imm(h) => h,
                    _ => 0,
                },
                &o
            ),
            f64::NEG_INFINITY
        );
        // a decimal whose low word would not be zero is not a double immediate
        assert_eq!(operand("0.1").src, Src::Unknown);
    }

    #[test]
    fn conversions() {
        assert_eq!(
            convert(
                Dcvt::FromInt {
                    signed: true,
                    bits: 32
                },
                (-3i32) as u32,
                None
            ),
            {
                let (l, h) = words(-3.0);
                (Some(l), Some(h))
            }
        );
        assert_eq!(
            convert(
                Dcvt::FromInt {
                    signed: false,
                    bits: 32
                },
                u32::MAX,
                None
            )
            .1,
            Some((4294967295f64.to_bits() >> 32) as u32)
        );
        // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: to even
        assert_eq!(
            convert(Dcvt::ToFloat, 0, Some(1.0 + 2f64.powi(-24))).0,
            Some(1f32.to_bits())
        );
        let to_int = |signed, round, v| convert(Dcvt::ToInt { signed, round }, 0, Some(v)).0;
        assert_eq!(to_int(true, 1, -2.9), Some((-2i32) as u32));
        assert_eq!(to_int(true, 0, 2.5), Some(2));
        assert_eq!(to_int(true, 0, 3.5), Some(4));
        assert_eq!(to_int(true, 2, -2.1), Some((-3i32) as u32));
        assert_eq!(to_int(true, 3, 2.1), Some(3));
        assert_eq!(to_int(true, 1, 1e20), Some(i32::MAX as u32));
        assert_eq!(to_int(false, 1, -5.0), Some(0));
        assert_eq!(to_int(true, 0, f64::NAN), Some(0));
        assert!(compare(Cmp::Neu, f64::NAN, 1.0) && !compare(Cmp::Ne, f64::NAN, 1.0));
    }

    #[test]
    fn int64_to_float_in_every_direction() {
        // ptxas's 64-bit division seeds its reciprocal by I2F.U64.RP of the divisor
        assert_eq!(
            kind("I2F", &["U64", "RP"]),
            Some(Kind::Dcvt {
                op: Dcvt::Int64ToFloat {
                    signed: false,
                    round: 3
                }
            })
        );
        assert_eq!(
            kind("I2F", &["S64", "RM"]),
            Some(Kind::Dcvt {
                op: Dcvt::Int64ToFloat {
                    signed: true,
                    round: 2
                }
            })
        );
        assert!(kind("I2F", &["U64", "RP", "RZ"]).is_none());
        // 2^24 + 1 lies between two floats: up, down, toward zero and to nearest (even)
        let v = (1u64 << 24) + 1;
        assert_eq!(int64_to_float(v, false, 3), 16777218f32.to_bits());
        assert_eq!(int64_to_float(v, false, 2), 16777216f32.to_bits());
        assert_eq!(int64_to_float(v, false, 1), 16777216f32.to_bits());
        assert_eq!(int64_to_float(v, false, 0), 16777216f32.to_bits());
        // negative: down is away from zero
        let n = (-((1i64 << 24) + 1)) as u64;
        assert_eq!(int64_to_float(n, true, 2), (-16777218f32).to_bits());
        assert_eq!(int64_to_float(n, true, 3), (-16777216f32).to_bits());
        // the largest u64 rounds up to 2^64
        assert_eq!(
            int64_to_float(u64::MAX, false, 3),
            18446744073709551616f32.to_bits()
        );
    }
}
