//! Single-precision steps whose modifiers change the last bits: `FADD`/`FMUL`/`FFMA` with `.FTZ`,
//! `.SAT` and a directed rounding (`.RZ`, `.RM`, `.RP`), `FMNMX`, `FRND` (round to an integral
//! float) and `F2I` in every rounding (`.NTZ` or none: to nearest even, `.TRUNC`, `.FLOOR`, `.CEIL`). The
//! GPU's float arithmetic is IEEE 754 binary32, each result rounded once in the instruction's
//! direction ([`warpscope_emu::softfloat`]); `.FTZ` reads a subnormal operand as a zero of its sign
//! and writes a subnormal result as one; `.SAT` clamps the rounded result to [0, 1], a NaN to +0
//! (PTX ISA, `add`/`mul`/`fma` `.sat`, `.ftz`); a NaN result is `0x7fffffff`, the GPU's canonical
//! NaN. So `expf`'s `FFMA.SAT` / `FFMA.RM` range reduction, `powf`'s `FRND` and the `sinf`/`cosf`
//! quadrant `F2I.NTZ` are followed exactly on the launch's values.

use warpscope_emu::softfloat::{self, F32};
use warpscope_ptx::inst::Rnd;

/// The modifiers of a float add, multiply or fused multiply-add.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct Mods {
    /// 0 to nearest even, 1 toward zero, 2 down, 3 up.
    pub round: u8,
    pub ftz: bool,
    pub sat: bool,
}

impl Mods {
    /// The modifiers of `FADD`/`FMUL`/`FFMA`, or `None` for one outside `FTZ`, `SAT`, `RZ`,
    /// `RM`, `RP` (or two roundings).
    pub fn parse(mods: &[&str]) -> Option<Mods> {
        let mut m = Mods::default();
        for &x in mods {
            match x {
                "FTZ" => m.ftz = true,
                "SAT" => m.sat = true,
                "RZ" | "RM" | "RP" if m.round == 0 => {
                    m.round = match x {
                        "RZ" => 1,
                        "RM" => 2,
                        _ => 3,
                    }
                }
                _ => return None,
            }
        }
        Some(m)
    }
}

const CANON_NAN: u32 = 0x7fff_ffff;

fn rnd(round: u8) -> Rnd {
    match round {
        1 => Rnd::Rz,
        2 => Rnd::Rm,
        3 => Rnd::Rp,
        _ => Rnd::Rn,
    }
}

/// A subnormal as a zero of its sign.
fn flush(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x }
}

/// `a + b` (`c` `None`), `a * b` (`mul`), or `a * b + c`, on bits, with the modifiers.
pub(super) fn arith(mul: bool, a: u32, b: u32, c: Option<u32>, m: Mods) -> u32 {
    let (mut a, mut b, mut c) = (a, b, c);
    if m.ftz {
        a = flush(a);
        b = flush(b);
        c = c.map(flush);
    }
    let r = rnd(m.round);
    let (a64, b64) = (u64::from(a), u64::from(b));
    let mut v = match c {
        Some(c) => softfloat::fma(F32, a64, b64, u64::from(c), r),
        None if mul => softfloat::mul(F32, a64, b64, r),
        None => softfloat::add(F32, a64, b64, r),
    } as u32;
    if F32.is_nan(u64::from(v)) {
        return if m.sat { 0 } else { CANON_NAN };
    }
    if m.ftz {
        v = flush(v);
    }
    if m.sat {
        let f = f32::from_bits(v);
        v = if f.is_sign_negative() {
            0
        } else if f >= 1.0 {
            1.0f32.to_bits()
        } else {
            v
        };
    }
    v
}

/// `FMNMX` (`fminf`/`fmaxf`, PTX `min`/`max.f32`): the smaller of `a` and `b` when `min`, else
/// the larger; -0 below +0; a NaN operand gives the other, two NaNs the canonical NaN.
pub(super) fn fmnmx(a: u32, b: u32, min: bool, ftz: bool) -> u32 {
    let (a, b) = if ftz { (flush(a), flush(b)) } else { (a, b) };
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    match (fa.is_nan(), fb.is_nan()) {
        (true, true) => return CANON_NAN,
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    // order as signed magnitudes, so that -0 < +0
    let key = |x: u32| {
        if x >> 31 == 1 {
            -i64::from(x & 0x7fff_ffff) - 1
        } else {
            i64::from(x)
        }
    };
    let a_less = key(a) < key(b);
    if a_less == min { a } else { b }
}

/// `FRND` (`round` 0 to nearest even, 1 `.TRUNC`, 2 `.FLOOR`, 3 `.CEIL`; `.FTZ`).
pub(super) fn frnd(x: u32, round: u8, ftz: bool) -> u32 {
    let x = if ftz { flush(x) } else { x };
    let f = f32::from_bits(x);
    if f.is_nan() {
        return CANON_NAN;
    }
    let r = match round {
        1 => f.trunc(),
        2 => f.floor(),
        3 => f.ceil(),
        _ => f.round_ties_even(),
    };
    // a zero keeps the operand's sign (-0.3 rounds to -0)
    (r.to_bits() & 0x7fff_ffff) | (x & 0x8000_0000)
}

/// `F2I` of a float to a 32-bit integer (`round` as [`frnd`]): saturating, a NaN to 0.
pub(super) fn f2i(x: u32, round: u8, signed: bool, ftz: bool) -> u32 {
    let x = if ftz { flush(x) } else { x };
    let f = f32::from_bits(x);
    if f.is_nan() {
        return 0;
    }
    let r = f32::from_bits(frnd(x, round, false));
    if signed {
        r.clamp(i32::MIN as f32, i32::MAX as f32) as i32 as u32
    } else {
        r.clamp(0.0, u32::MAX as f32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn directed_roundings_and_flushes() {
        let m = |s: &[&str]| Mods::parse(s).unwrap();
        // 1 + 2^-30 is between 1 and its successor: down gives 1, up the successor
        let tiny = b(2f32.powi(-30));
        assert_eq!(arith(false, b(1.0), tiny, None, m(&["RM"])), b(1.0));
        assert_eq!(arith(false, b(1.0), tiny, None, m(&["RP"])), b(1.0) + 1);
        assert_eq!(
            arith(false, b(-1.0), b(-(2f32.powi(-30))), None, m(&["RZ"])),
            b(-1.0)
        );
        // expf's range reduction: FFMA.RM x, 1/ln2-scaled, 12582913 (1.5 * 2^23 + 1)
        assert_eq!(
            arith(true, b(2.5), b(1.0), Some(b(12_582_913.0)), m(&["RM"])),
            b(12_582_915.0)
        );
        // .SAT: clamps, and a NaN becomes +0
        assert_eq!(arith(true, b(3.0), b(1.0), Some(b(0.5)), m(&["SAT"])), b(1.0));
        assert_eq!(arith(true, b(-3.0), b(1.0), Some(b(0.5)), m(&["SAT"])), 0);
        assert_eq!(
            arith(false, b(f32::INFINITY), b(f32::NEG_INFINITY), None, m(&["SAT"])),
            0
        );
        // .FTZ: a subnormal operand and a subnormal result are zeros of their signs
        assert_eq!(arith(false, 1, 0, None, m(&["FTZ"])), 0);
        assert_eq!(
            arith(false, 0x8000_0001, 0x8000_0000, None, m(&["FTZ"])),
            0x8000_0000
        );
        assert_eq!(
            arith(true, b(2f32.powi(-100)), b(2f32.powi(-30)), None, m(&["FTZ"])),
            0
        );
        assert_eq!(
            arith(false, b(f32::INFINITY), b(f32::NEG_INFINITY), None, m(&[])),
            CANON_NAN
        );
        assert!(Mods::parse(&["RZ", "RM"]).is_none());
        assert!(Mods::parse(&["RN2"]).is_none());
    }

    #[test]
    fn minimum_and_maximum() {
        assert_eq!(fmnmx(b(1.0), b(2.0), true, false), b(1.0));
        assert_eq!(fmnmx(b(1.0), b(2.0), false, false), b(2.0));
        assert_eq!(fmnmx(b(-0.0), b(0.0), true, false), b(-0.0));
        assert_eq!(fmnmx(b(0.0), b(-0.0), false, false), b(0.0));
        assert_eq!(fmnmx(f32::NAN.to_bits(), b(3.0), true, false), b(3.0));
        assert_eq!(fmnmx(b(-3.0), f32::NAN.to_bits(), false, false), b(-3.0));
        assert_eq!(
            fmnmx(f32::NAN.to_bits(), f32::NAN.to_bits(), true, false),
            CANON_NAN
        );
        assert_eq!(fmnmx(b(-5.0), b(-7.0), false, false), b(-5.0));
    }

    #[test]
    fn integral_roundings() {
        assert_eq!(frnd(b(2.5), 0, false), b(2.0));
        assert_eq!(frnd(b(3.5), 0, false), b(4.0));
        assert_eq!(frnd(b(-0.3), 0, false), b(-0.0));
        assert_eq!(frnd(b(-2.5), 2, false), b(-3.0));
        assert_eq!(frnd(b(2.1), 3, false), b(3.0));
        assert_eq!(frnd(b(-2.9), 1, false), b(-2.0));
        assert_eq!(f2i(b(2.5), 0, true, false), 2);
        assert_eq!(f2i(b(-2.5), 0, true, false), (-2i32) as u32);
        assert_eq!(f2i(b(-1.5), 0, true, false), (-2i32) as u32);
        assert_eq!(f2i(b(1e10), 0, true, false), i32::MAX as u32);
        assert_eq!(f2i(b(-1.0), 0, false, false), 0);
        assert_eq!(f2i(f32::NAN.to_bits(), 0, true, false), 0);
        // a positive subnormal rounds up to 1, unless flushed first
        assert_eq!(f2i(1, 3, true, false), 1);
        assert_eq!(f2i(1, 3, true, true), 0);
    }
}
