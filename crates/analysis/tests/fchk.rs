//! The float-division slow-path check `FCHK` against the GPU (calibration/fchk/): for every pair
//! of biased exponents of `a` and `b` (0..=255 each, three significands each), eight dependent
//! divisions `a / b` timed with `clock64` in one warp per pair, one block per SM; the smallest of
//! four runs' cycles / 16 per pair (`h200/min4.bin`). Fast divisions take 29-40, slow ones 46 and
//! more; the few pairs between the two modes in every run are timing noise and are counted, not
//! judged. Nothing here is produced by the rule under test.

use warpscope_analysis::machine_flow::fchk_slow;

const MANT: usize = 3;
const EXP: usize = 256;

fn measured() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../calibration/fchk/h200/min4.bin"
    );
    let v = std::fs::read(path).unwrap();
    assert_eq!(v.len(), EXP * MANT * EXP * MANT);
    v
}

/// `Some(slow)` where the timing is unambiguous.
fn class(c: u8) -> Option<bool> {
    match c {
        0..=40 => Some(false),
        50.. => Some(true),
        _ => None,
    }
}

/// Rows a rule gets wrong: (wrong, judged, between the modes).
fn judge(rule: impl Fn(i32, i32, usize, usize) -> bool) -> (usize, usize, usize) {
    let m = measured();
    let (mut wrong, mut judged, mut between) = (0, 0, 0);
    for ea in 0..EXP {
        for ma in 0..MANT {
            for eb in 0..EXP {
                for mb in 0..MANT {
                    let c = m[((ea * MANT + ma) * EXP + eb) * MANT + mb];
                    match class(c) {
                        Some(slow) => {
                            judged += 1;
                            if rule(ea as i32, eb as i32, ma, mb) != slow {
                                wrong += 1;
                            }
                        }
                        None => between += 1,
                    }
                }
            }
        }
    }
    (wrong, judged, between)
}

#[test]
fn fchk_equals_the_gpu_on_every_exponent_pair() {
    let (wrong, judged, between) = judge(|ea, eb, _, _| fchk_slow(ea, eb));
    assert_eq!(wrong, 0, "pairs the rule gets wrong");
    // the pairs between the two timing modes in all four runs: few, and not judged
    assert!(between < 600, "{between} pairs between the modes");
    assert_eq!(judged + between, EXP * MANT * EXP * MANT);
}

#[test]
fn the_alternatives_break_measured_rows() {
    // the rule warpscope used before: both operands normal within 2^+-100, or a zero numerator
    let scaled = |e: i32| (1..255).contains(&e) && (e - 127).abs() <= 100;
    let old = judge(|ea, eb, ma, _| !(scaled(eb) && ((ea == 0 && ma == 0) || scaled(ea))));
    assert!(old.0 > 10_000, "{old:?}");
    // a zero numerator on the fast path
    let zero_fast = judge(|ea, eb, ma, _| {
        if ea == 0 && ma == 0 {
            false
        } else {
            fchk_slow(ea, eb)
        }
    });
    assert!(zero_fast.0 >= 700, "{zero_fast:?}");
    // operand ranges alone, no bound on the exponent difference
    let no_diff = judge(|ea, eb, _, _| !((25..=254).contains(&ea) && (2..=251).contains(&eb)));
    assert!(no_diff.0 > 10_000, "{no_diff:?}");
    // each bound moved by one
    for (da_lo, db_lo, db_hi, d_lo, d_hi) in [
        (1, 0, 0, 0, 0),
        (-1, 0, 0, 0, 0),
        (0, 1, 0, 0, 0),
        (0, -1, 0, 0, 0),
        (0, 0, 1, 0, 0),
        (0, 0, -1, 0, 0),
        (0, 0, 0, 1, 0),
        (0, 0, 0, -1, 0),
        (0, 0, 0, 0, 1),
        (0, 0, 0, 0, -1),
    ] {
        let r = judge(|ea, eb, _, _| {
            !((25 + da_lo..=254).contains(&ea)
                && (2 + db_lo..=251 + db_hi).contains(&eb)
                && (-126 + d_lo..=124 + d_hi).contains(&(eb - ea)))
        });
        assert!(
            r.0 > 50,
            "bounds moved {da_lo} {db_lo} {db_hi} {d_lo} {d_hi}: {r:?}"
        );
    }
}
