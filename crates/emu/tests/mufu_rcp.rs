//! `MUFU.RCP` and ptxas's sequences around it (`crates/emu/src/mufu.rs`), on values whose results
//! follow from the measured table's first entry (MUFU.RCP(1) = 1, calibration/mufu/h200/
//! rcp.delta.xz) and from the machine code's scalings (read off ptxas 13's sm_90a output).

use warpscope_emu::mufu::{div_approx, div_full, rcp, rcp_approx};

const INF: u32 = 0x7f80_0000;

fn b(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn the_unit_scales_powers_of_two_and_flushes_what_is_not_normal() {
    assert_eq!(rcp(b(1.0)), b(1.0));
    assert_eq!(rcp(b(2.0)), b(0.5));
    assert_eq!(rcp(b(0.5)), b(2.0));
    assert_eq!(rcp(b(-4.0)), b(-0.25));
    assert_eq!(rcp(0), INF);
    assert_eq!(rcp(0x8000_0000), 0x8000_0000 | INF);
    assert_eq!(rcp(1), INF, "a subnormal input is flushed");
    assert_eq!(rcp(INF), 0);
    assert_eq!(rcp(0x7fc0_0001), 0x7fff_ffff, "the canonical NaN");
    assert_eq!(rcp(b(2f32.powi(126))), 0x0080_0000, "2^-126, the smallest normal");
    assert_eq!(rcp(b(2f32.powi(127))), 0, "2^-127 is subnormal: flushed");
}

#[test]
fn ptxas_scalings_keep_subnormal_quotients_and_tiny_divisors() {
    let huge = b(2f32.powi(127));
    // div.full: both scaled by 1/4 (|b| > 2^126): 0.25 * 2^-125 = 2^-127, kept subnormal
    assert_eq!(div_full(b(1.0), huge, false), 0x0040_0000);
    // div.full.ftz: the same scaling, the multiply flushes the subnormal quotient
    assert_eq!(div_full(b(1.0), huge, true), 0);
    // div.full: a subnormal divisor is scaled by 2^24 with the dividend: x / x = 1
    let tiny = b(2f32.powi(-130));
    assert_eq!(div_full(tiny, tiny, false), b(1.0));
    // div.approx has no 1/4 scaling: MUFU.RCP(2^127) is flushed, the quotient is 0
    assert_eq!(div_approx(b(1.0), huge, false), 0);
    assert_eq!(div_approx(tiny, tiny, false), b(1.0));
    // rcp.approx (not ftz): 1/4 * MUFU.RCP(2^125) = 2^-127
    assert_eq!(rcp_approx(huge), 0x0040_0000);
    assert_eq!(rcp_approx(b(3.0)), rcp(b(3.0)));
}
