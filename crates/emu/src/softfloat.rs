//! Correctly rounded binary floating point in every IEEE rounding direction (`.rn`, `.rz`, `.rm`,
//! `.rp`), on bit patterns of a format given by its exponent and fraction widths (`.f32`, `.f64`).
//!
//! Each operation forms its exact result as an integer significand `m`, an exponent `e` and a
//! sticky flag (the exact value lies strictly between `m * 2^e` and `(m + 1) * 2^e`), and rounds it
//! once ([`round`]). The host's float unit rounds to nearest only, so the directed forms of PTX's
//! `add`, `sub`, `mul`, `fma`, `div`, `rcp` and `sqrt` come from here. A NaN result is returned
//! as the format's default quiet NaN; callers replace it by the NaN the GPU writes.

use warpscope_ptx::inst::Rnd;

/// A binary interchange format: exponent and fraction widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    /// Exponent bits.
    pub ebits: u32,
    /// Fraction bits (the significand has one more).
    pub mbits: u32,
}

/// IEEE binary32 (`.f32`).
pub const F32: Fmt = Fmt { ebits: 8, mbits: 23 };
/// IEEE binary64 (`.f64`).
pub const F64: Fmt = Fmt { ebits: 11, mbits: 52 };

impl Fmt {
    fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    fn sign_bit(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    fn inf(self) -> u64 {
        ((1 << self.ebits) - 1) << self.mbits
    }
    fn default_nan(self) -> u64 {
        self.inf() | 1 << (self.mbits - 1)
    }
    fn one(self) -> u64 {
        (self.bias() as u64) << self.mbits
    }
    /// Whether `x` is a NaN of this format.
    pub fn is_nan(self, x: u64) -> bool {
        x & !self.sign_bit() > self.inf()
    }
    fn is_inf(self, x: u64) -> bool {
        x & !self.sign_bit() == self.inf()
    }
    fn is_zero(self, x: u64) -> bool {
        x & !self.sign_bit() == 0
    }
    fn neg(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }
    /// A finite value as `(negative, m, e)`: `(-1)^negative * m * 2^e`.
    fn decode(self, x: u64) -> (bool, u128, i32) {
        let ex = ((x >> self.mbits) & ((1 << self.ebits) - 1)) as i32;
        let frac = (x & ((1 << self.mbits) - 1)) as u128;
        let e0 = 1 - self.bias() - self.mbits as i32;
        if ex == 0 {
            (self.neg(x), frac, e0)
        } else {
            (self.neg(x), frac | 1 << self.mbits, e0 + ex - 1)
        }
    }
    fn zero(self, neg: bool) -> u64 {
        if neg { self.sign_bit() } else { 0 }
    }
}

/// Bits needed for `m` (0 for 0).
fn width(m: u128) -> i32 {
    128 - m.leading_zeros() as i32
}

/// Rounds `(-1)^neg * (m + t) * 2^e` to `f` in direction `rnd`, where `0 < t < 1` if `sticky`, else
/// `t = 0`; `m < 2^127`, and with `sticky` at least two bits of `m` lie below the result's last
/// place. An exact zero is `+0` or `-0` by `neg`. Overflow gives infinity or the largest finite
/// value as the direction says; underflow rounds to the subnormals (no flush).
pub fn round(f: Fmt, neg: bool, m: u128, e: i32, sticky: bool, rnd: Rnd) -> u64 {
    let sign = f.zero(neg);
    if m == 0 && !sticky {
        return sign;
    }
    debug_assert!(m >> 127 == 0);
    let mb = f.mbits as i32;
    let lead = if m == 0 { i32::MIN / 2 } else { e + width(m) - 1 };
    let emin = 1 - f.bias();
    let mut q = lead.max(emin) - mb; // exponent of the result's last place
    let sh = q - e;
    let (keep, above, tie, inexact) = if sh <= 0 {
        debug_assert!(!sticky, "sticky bits need room below the last place");
        (m << (-sh) as u32, false, false, sticky)
    } else if sh >= 128 {
        (0, false, false, m != 0 || sticky)
    } else {
        let keep = m >> sh;
        let rem = m & ((1u128 << sh) - 1);
        let half = 1u128 << (sh - 1);
        (
            keep,
            rem > half || (rem == half && sticky),
            rem == half && !sticky,
            rem != 0 || sticky,
        )
    };
    let up = match rnd {
        Rnd::Rz | Rnd::Rzi => false,
        Rnd::Rm | Rnd::Rmi => neg && inexact,
        Rnd::Rp | Rnd::Rpi => !neg && inexact,
        Rnd::Rn | Rnd::Rni | Rnd::Default => above || (tie && keep & 1 == 1),
    };
    let mut r = keep + u128::from(up);
    if r >> (mb + 1) != 0 {
        r >>= 1;
        q += 1;
    }
    if r >> mb == 0 {
        return sign | r as u64; // subnormal or zero
    }
    let ef = q + mb + f.bias();
    if ef >= (1 << f.ebits) - 1 {
        let to_inf = match rnd {
            Rnd::Rz | Rnd::Rzi => false,
            Rnd::Rm | Rnd::Rmi => neg,
            Rnd::Rp | Rnd::Rpi => !neg,
            Rnd::Rn | Rnd::Rni | Rnd::Default => true,
        };
        return sign | if to_inf { f.inf() } else { f.inf() - 1 };
    }
    sign | (ef as u64) << f.mbits | (r as u64 & ((1 << f.mbits) - 1))
}

/// The sign of an exact zero sum of operands of signs `na` and `nb`: their sign when equal, else
/// `+0`, or `-0` when rounding down.
fn zero_sum_sign(na: bool, nb: bool, rnd: Rnd) -> bool {
    if na == nb { na } else { rnd == Rnd::Rm }
}

/// The exact sum of two nonzero finite values `(neg, m, e)` (`m < 2^107`) as `(neg, m, e, sticky)`
/// for [`round`]; `m == 0` without sticky for an exact zero.
fn add_exact(a: (bool, u128, i32), b: (bool, u128, i32)) -> (bool, u128, i32, bool) {
    let (a, b) = if a.2 + width(a.1) >= b.2 + width(b.1) {
        (a, b)
    } else {
        (b, a)
    };
    // the larger operand's leading bit at bit 124: at least 18 bits below any significand
    let sh = 125 - width(a.1);
    let am = a.1 << sh;
    let e = a.2 - sh;
    let s = b.2 - e;
    let (bm, st) = if s >= 0 {
        (b.1 << s, false) // b's leading bit is at most a's: below 2^125
    } else if s > -128 {
        (b.1 >> -s, b.1 & ((1u128 << -s) - 1) != 0)
    } else {
        (0, true)
    };
    if a.0 == b.0 {
        (a.0, am + bm, e, st)
    } else if am >= bm {
        // with sticky, b < 2^107 was shifted down while a >= 2^124: no borrow beyond a
        (a.0, am - bm - u128::from(st), e, st)
    } else {
        (b.0, bm - am, e, false)
    }
}

/// `x + y` rounded in direction `rnd`.
pub fn add(f: Fmt, x: u64, y: u64, rnd: Rnd) -> u64 {
    if f.is_nan(x) || f.is_nan(y) {
        return f.default_nan();
    }
    match (f.is_inf(x), f.is_inf(y)) {
        (true, true) if f.neg(x) != f.neg(y) => return f.default_nan(),
        (true, _) => return x,
        (_, true) => return y,
        _ => {}
    }
    match (f.is_zero(x), f.is_zero(y)) {
        (true, true) => return f.zero(zero_sum_sign(f.neg(x), f.neg(y), rnd)),
        (true, false) => return y,
        (false, true) => return x,
        _ => {}
    }
    let (neg, m, e, st) = add_exact(f.decode(x), f.decode(y));
    if m == 0 && !st {
        return f.zero(rnd == Rnd::Rm);
    }
    round(f, neg, m, e, st, rnd)
}

/// `x - y` rounded in direction `rnd`.
pub fn sub(f: Fmt, x: u64, y: u64, rnd: Rnd) -> u64 {
    if f.is_nan(y) {
        return f.default_nan();
    }
    add(f, x, y ^ f.sign_bit(), rnd)
}

/// `x * y` rounded in direction `rnd`.
pub fn mul(f: Fmt, x: u64, y: u64, rnd: Rnd) -> u64 {
    if f.is_nan(x) || f.is_nan(y) {
        return f.default_nan();
    }
    let neg = f.neg(x) != f.neg(y);
    if f.is_inf(x) || f.is_inf(y) {
        if f.is_zero(x) || f.is_zero(y) {
            return f.default_nan();
        }
        return f.zero(neg) | f.inf();
    }
    let (a, b) = (f.decode(x), f.decode(y));
    round(f, neg, a.1 * b.1, a.2 + b.2, false, rnd)
}

/// `x * y + z` with one rounding in direction `rnd`.
pub fn fma(f: Fmt, x: u64, y: u64, z: u64, rnd: Rnd) -> u64 {
    if f.is_nan(x) || f.is_nan(y) || f.is_nan(z) {
        return f.default_nan();
    }
    let pneg = f.neg(x) != f.neg(y);
    let pinf = f.is_inf(x) || f.is_inf(y);
    let pzero = f.is_zero(x) || f.is_zero(y);
    if pinf && pzero {
        return f.default_nan();
    }
    if pinf {
        if f.is_inf(z) && f.neg(z) != pneg {
            return f.default_nan();
        }
        return f.zero(pneg) | f.inf();
    }
    if f.is_inf(z) {
        return z;
    }
    if pzero {
        return if f.is_zero(z) {
            f.zero(zero_sum_sign(pneg, f.neg(z), rnd))
        } else {
            z
        };
    }
    let (a, b) = (f.decode(x), f.decode(y));
    let p = (pneg, a.1 * b.1, a.2 + b.2);
    if f.is_zero(z) {
        return round(f, p.0, p.1, p.2, false, rnd);
    }
    let (neg, m, e, st) = add_exact(p, f.decode(z));
    if m == 0 && !st {
        return f.zero(rnd == Rnd::Rm);
    }
    round(f, neg, m, e, st, rnd)
}

/// A nonzero significand shifted so that it has exactly `w` bits, with its exponent.
fn normalize(m: u128, e: i32, w: i32) -> (u128, i32) {
    let s = w - width(m);
    (m << s, e - s)
}

/// `x / y` rounded in direction `rnd`.
pub fn div(f: Fmt, x: u64, y: u64, rnd: Rnd) -> u64 {
    if f.is_nan(x) || f.is_nan(y) {
        return f.default_nan();
    }
    let neg = f.neg(x) != f.neg(y);
    match (f.is_inf(x), f.is_inf(y), f.is_zero(x), f.is_zero(y)) {
        (true, true, ..) | (_, _, true, true) => return f.default_nan(),
        (true, ..) | (_, _, false, true) => return f.zero(neg) | f.inf(),
        (_, true, ..) | (_, _, true, _) => return f.zero(neg),
        _ => {}
    }
    let (_, ma, ea) = f.decode(x);
    let (_, mb, eb) = f.decode(y);
    let (ma, ea) = normalize(ma, ea, 53);
    let (mb, eb) = normalize(mb, eb, 53);
    // (ma << 74) / mb has 74 or 75 bits: at least 20 below the last place
    let n = ma << 74;
    round(f, neg, n / mb, ea - eb - 74, n % mb != 0, rnd)
}

/// `1 / x` rounded in direction `rnd`.
pub fn rcp(f: Fmt, x: u64, rnd: Rnd) -> u64 {
    div(f, f.one(), x, rnd)
}

/// `sqrt(x)` rounded in direction `rnd`.
pub fn sqrt(f: Fmt, x: u64, rnd: Rnd) -> u64 {
    if f.is_nan(x) || (f.neg(x) && !f.is_zero(x)) {
        return f.default_nan();
    }
    if f.is_zero(x) || f.is_inf(x) {
        return x;
    }
    let (_, m, e) = f.decode(x);
    let (m, e) = normalize(m, e, 53);
    // 125 or 126 bits with an even exponent: a 63-bit root
    let t = if (e - 72) % 2 == 0 { 72 } else { 73 };
    let (m, e) = (m << t, e - t);
    let r = m.isqrt();
    round(f, false, r, e / 2, r * r != m, rnd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(x: f32) -> u64 {
        x.to_bits() as u64
    }

    #[test]
    fn round_to_nearest_equals_the_host() {
        // the host rounds to nearest even: every operation in `.rn` must agree with it
        let mut s = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for k in 0..200_000 {
            let pick = |r: u64, k: u64| -> u64 {
                // raw bits, or values of nearby exponents (cancellation), or subnormals
                match k % 4 {
                    0 => r,
                    1 => (r & 0x800f_ffff_ffff_ffff) | (0x3fe + (r >> 52 & 3)) << 52,
                    2 => r & 0x800f_ffff_ffff_ffff,
                    _ => (r & 0x800f_ffff_ffff_ffff) | (r >> 40 & 0x7ff) << 52,
                }
            };
            let (x, y, z) = (pick(next(), k), pick(next(), k >> 2), pick(next(), k >> 4));
            let (a, b, c) = (f64::from_bits(x), f64::from_bits(y), f64::from_bits(z));
            let chk = |got: u64, want: f64, what: &str| {
                if want.is_nan() {
                    assert!(F64.is_nan(got), "{what} {x:#x} {y:#x} {z:#x}");
                } else {
                    assert_eq!(got, want.to_bits(), "{what} {x:#x} {y:#x} {z:#x}");
                }
            };
            chk(add(F64, x, y, Rnd::Rn), a + b, "add");
            chk(sub(F64, x, y, Rnd::Rn), a - b, "sub");
            chk(mul(F64, x, y, Rnd::Rn), a * b, "mul");
            chk(div(F64, x, y, Rnd::Rn), a / b, "div");
            chk(fma(F64, x, y, z, Rnd::Rn), a.mul_add(b, c), "fma");
            chk(sqrt(F64, x, Rnd::Rn), a.sqrt(), "sqrt");
            let (x, y, z) = (x >> 32, y >> 32, z & 0xffff_ffff);
            let (a, b, c) = (
                f32::from_bits(x as u32),
                f32::from_bits(y as u32),
                f32::from_bits(z as u32),
            );
            let chk = |got: u64, want: f32, what: &str| {
                if want.is_nan() {
                    assert!(F32.is_nan(got), "{what} {x:#x} {y:#x} {z:#x}");
                } else {
                    assert_eq!(got, f32s(want), "{what} {x:#x} {y:#x} {z:#x}");
                }
            };
            chk(add(F32, x, y, Rnd::Rn), a + b, "add32");
            chk(mul(F32, x, y, Rnd::Rn), a * b, "mul32");
            chk(div(F32, x, y, Rnd::Rn), a / b, "div32");
            chk(fma(F32, x, y, z, Rnd::Rn), a.mul_add(b, c), "fma32");
            chk(sqrt(F32, x, Rnd::Rn), a.sqrt(), "sqrt32");
        }
    }
}
