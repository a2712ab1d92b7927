//! The directed roundings of `crates/emu/src/softfloat.rs` against independent references: LLVM's
//! APFloat (the `rustc_apfloat` port) for add, sub, mul, fma and div in every direction, and the
//! host's fused multiply-add for the sign of a square root's residual.

use rustc_apfloat::ieee::{Double, Single};
use rustc_apfloat::{Float, Round};
use warpscope_emu::softfloat::{self, F32, F64};
use warpscope_ptx::inst::Rnd;

const MODES: [(Rnd, Round); 4] = [
    (Rnd::Rn, Round::NearestTiesToEven),
    (Rnd::Rz, Round::TowardZero),
    (Rnd::Rm, Round::TowardNegative),
    (Rnd::Rp, Round::TowardPositive),
];

struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Raw bits, nearby exponents (cancellation, exact ties), subnormals, or a spread of exponents.
    fn f64(&mut self, k: u64) -> u64 {
        let r = self.next();
        match k % 5 {
            0 => r,
            1 => (r & 0x800f_ffff_ffff_ffff) | (0x3fe + (r >> 52 & 3)) << 52,
            2 => r & 0x800f_ffff_ffff_ffff,
            3 => (r & 0x800f_ffff_ffff_ffff) | (r >> 40 & 0x7ff) << 52,
            // few significant bits: exact results and ties
            _ => (r & 0x800f_f000_0000_0000) | (0x3f0 + (r >> 52 & 31)) << 52,
        }
    }
    fn f32(&mut self, k: u64) -> u64 {
        let r = self.next() & 0xffff_ffff;
        match k % 5 {
            0 => r,
            1 => (r & 0x807f_ffff) | (0x7e + (r >> 23 & 3)) << 23,
            2 => r & 0x807f_ffff,
            3 => (r & 0x807f_ffff) | (r >> 8 & 0xff) << 23,
            _ => (r & 0x807f_0000) | (0x70 + (r >> 23 & 31)) << 23,
        }
    }
}

fn same(f: softfloat::Fmt, got: u64, want: u128) -> bool {
    let want = want as u64;
    got == want || (f.is_nan(got) && f.is_nan(want))
}

#[test]
fn directed_f64_equals_apfloat() {
    let mut g = Xs(0x9e37_79b9_7f4a_7c15);
    for k in 0..150_000u64 {
        let (x, y, z) = (g.f64(k), g.f64(k / 5), g.f64(k / 25));
        let (a, b, c) = (
            Double::from_bits(x.into()),
            Double::from_bits(y.into()),
            Double::from_bits(z.into()),
        );
        for (r, ar) in MODES {
            let ctx = || format!("{r:?} {x:#018x} {y:#018x} {z:#018x}");
            assert!(
                same(F64, softfloat::add(F64, x, y, r), a.add_r(b, ar).value.to_bits()),
                "add {}",
                ctx()
            );
            assert!(
                same(F64, softfloat::sub(F64, x, y, r), a.sub_r(b, ar).value.to_bits()),
                "sub {}",
                ctx()
            );
            assert!(
                same(F64, softfloat::mul(F64, x, y, r), a.mul_r(b, ar).value.to_bits()),
                "mul {}",
                ctx()
            );
            assert!(
                same(F64, softfloat::div(F64, x, y, r), a.div_r(b, ar).value.to_bits()),
                "div {}",
                ctx()
            );
            assert!(
                same(
                    F64,
                    softfloat::fma(F64, x, y, z, r),
                    a.mul_add_r(b, c, ar).value.to_bits()
                ),
                "fma {}",
                ctx()
            );
        }
    }
}

#[test]
fn directed_f32_equals_apfloat() {
    let mut g = Xs(0x0123_4567_89ab_cdef);
    for k in 0..300_000u64 {
        let (x, y, z) = (g.f32(k), g.f32(k / 5), g.f32(k / 25));
        let (a, b, c) = (
            Single::from_bits(x.into()),
            Single::from_bits(y.into()),
            Single::from_bits(z.into()),
        );
        for (r, ar) in MODES {
            let ctx = || format!("{r:?} {x:#010x} {y:#010x} {z:#010x}");
            assert!(
                same(F32, softfloat::add(F32, x, y, r), a.add_r(b, ar).value.to_bits()),
                "add {}",
                ctx()
            );
            assert!(
                same(F32, softfloat::mul(F32, x, y, r), a.mul_r(b, ar).value.to_bits()),
                "mul {}",
                ctx()
            );
            assert!(
                same(F32, softfloat::div(F32, x, y, r), a.div_r(b, ar).value.to_bits()),
                "div {}",
                ctx()
            );
            assert!(
                same(
                    F32,
                    softfloat::fma(F32, x, y, z, r),
                    a.mul_add_r(b, c, ar).value.to_bits()
                ),
                "fma {}",
                ctx()
            );
        }
    }
}

/// The directed square root from the round-to-nearest one and the sign of the exact residual
/// `x - s * s` (one fused multiply-add, exact while the residual is not subnormal).
fn sqrt_ref(x: f64, r: Rnd) -> f64 {
    let s = x.sqrt();
    let res = (-s).mul_add(s, x);
    let up = f64::from_bits(s.to_bits() + 1);
    let down = f64::from_bits(s.to_bits() - 1);
    match r {
        Rnd::Rz | Rnd::Rm if res < 0.0 => down,
        Rnd::Rp if res > 0.0 => up,
        _ => s,
    }
}

#[test]
fn directed_sqrt_follows_the_residual() {
    let mut g = Xs(0x5555_aaaa_1234_4321);
    for k in 0..200_000u64 {
        let x = g.f64(k) & !(1 << 63);
        let v = f64::from_bits(x);
        // the residual is exact while it stays above the subnormals
        if v.is_normal() && v > 1e-290 {
            for (r, _) in MODES {
                assert_eq!(
                    softfloat::sqrt(F64, x, r),
                    sqrt_ref(v, r).to_bits(),
                    "{r:?} {x:#x}"
                );
            }
        }
        // f32: the f64 root of an f32 is exact enough to decide every direction
        let x32 = g.f32(k) & 0x7fff_ffff;
        let v32 = f32::from_bits(x32 as u32);
        if v32.is_finite() && v32 > 0.0 {
            let s = (v32 as f64).sqrt();
            for (r, _) in MODES {
                let want = warpscope_emu::softfloat::round(
                    F32,
                    false,
                    (s.to_bits() & ((1 << 52) - 1) | 1 << 52) as u128,
                    (s.to_bits() >> 52) as i32 - 1075,
                    // the f64 root is exact only if its square is
                    s * s != v32 as f64,
                    r,
                );
                assert_eq!(softfloat::sqrt(F32, x32, r), want, "{r:?} {x32:#x}");
            }
        }
    }
}

#[test]
fn special_operands() {
    let inf = f64::INFINITY.to_bits();
    let ninf = f64::NEG_INFINITY.to_bits();
    let max = f64::MAX.to_bits();
    // overflow: infinity or the largest finite value by direction
    assert_eq!(softfloat::mul(F64, max, 2f64.to_bits(), Rnd::Rz), max);
    assert_eq!(softfloat::mul(F64, max, 2f64.to_bits(), Rnd::Rp), inf);
    assert_eq!(
        softfloat::mul(F64, max, (-2f64).to_bits(), Rnd::Rp),
        (-f64::MAX).to_bits()
    );
    assert_eq!(softfloat::mul(F64, max, (-2f64).to_bits(), Rnd::Rm), ninf);
    // exact zero sums: +0, or -0 rounding down
    let one = 1f64.to_bits();
    let mone = (-1f64).to_bits();
    assert_eq!(softfloat::add(F64, one, mone, Rnd::Rz), 0);
    assert_eq!(softfloat::add(F64, one, mone, Rnd::Rm), 1 << 63);
    assert_eq!(softfloat::sqrt(F64, 1 << 63, Rnd::Rp), 1 << 63);
    assert!(F64.is_nan(softfloat::sqrt(F64, mone, Rnd::Rn)));
    assert!(F64.is_nan(softfloat::add(F64, inf, ninf, Rnd::Rz)));
    assert_eq!(softfloat::rcp(F64, 0, Rnd::Rz), inf);
    // the smallest subnormal, rounded up from below
    assert_eq!(softfloat::mul(F64, 1, 0x3fe0_0000_0000_0000, Rnd::Rp), 1);
    assert_eq!(softfloat::mul(F64, 1, 0x3fe0_0000_0000_0000, Rnd::Rn), 0);
    assert_eq!(softfloat::sqrt(F32, 0x4000_0000, Rnd::Rz), 0x3fb5_04f3);
    assert_eq!(softfloat::sqrt(F32, 0x4000_0000, Rnd::Rp), 0x3fb5_04f4);
}
