//! The seed notes' statements about banks, one test each, and the fast path against the brute-force
//! reference path on random requests (proptest).

use proptest::prelude::*;
use warpscope_model::arch::{Arch, BankMode};
use warpscope_model::bank::{BankError, Config, Counts, Op, Request, breakdown, period, wavefronts};

fn arch(name: &str) -> &'static Arch {
    Arch::parse(name).unwrap()
}

fn counts(a: &str, w: u8, op: Op, f: impl Fn(u32) -> Option<u32>) -> Counts {
    wavefronts(arch(a), &Config::default(), &Request::from_fn(w, op, f)).unwrap()
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn stride_of_s_words_is_a_gcd_way_conflict() {
    for a in ["sm_20", "sm_50", "sm_70", "sm_90", "sm_120"] {
        for s in 1..=66u32 {
            for op in [Op::Load, Op::Store] {
                let c = counts(a, 4, op, |l| Some(l * s * 4));
                assert_eq!(c.wavefronts, gcd(s, 32), "{a} stride {s}");
                assert_eq!(c.conflict_ways, gcd(s, 32), "{a} stride {s}");
                assert_eq!(c.ideal, 1);
            }
        }
    }
}

#[test]
fn struct_of_three_floats_is_conflict_free_and_of_two_is_not() {
    // struct { float x, y, z; } s[32]; s[tid].x : stride 3 words
    assert_eq!(counts("sm_90", 4, Op::Load, |l| Some(l * 12)).wavefronts, 1);
    // struct { float x, y; } read field by field: stride 2 words, 2-way
    assert_eq!(counts("sm_90", 4, Op::Load, |l| Some(l * 8)).wavefronts, 2);
    // ... but read whole (LDS.64): two conflict-free half-warp wavefronts
    let c = counts("sm_90", 8, Op::Load, |l| Some(l * 8));
    assert_eq!((c.wavefronts, c.ideal, c.conflict_ways), (2, 2, 1));
}

#[test]
fn chars_by_tid_and_by_four_tid() {
    for a in ["sm_20", "sm_90"] {
        assert_eq!(counts(a, 1, Op::Load, Some).wavefronts, 1, "{a}");
        assert_eq!(counts(a, 1, Op::Load, |l| Some(4 * l)).wavefronts, 1, "{a}");
    }
    // CC 1.x: four lanes of a half-warp read four bytes of one word: 4-way conflict
    let c = counts("sm_13", 1, Op::Load, Some);
    assert_eq!((c.wavefronts, c.conflict_ways), (8, 4));
    let c = counts("sm_13", 1, Op::Load, |l| Some(4 * l));
    assert_eq!((c.wavefronts, c.conflict_ways), (2, 1));
}

#[test]
fn doubles() {
    // Hopper: two half-warp wavefronts, no conflict
    let c = counts("sm_90", 8, Op::Load, |l| Some(8 * l));
    assert_eq!((c.wavefronts, c.ideal, c.conflict_ways), (2, 2, 1));
    // CC 1.x: a half-warp's 32 words over 16 banks: 2 steps per half-warp
    let c = counts("sm_13", 8, Op::Load, |l| Some(8 * l));
    assert_eq!((c.wavefronts, c.conflict_ways), (4, 2));
    // Kepler 8-byte mode: one wavefront; 4-byte mode: half-warps
    let k = arch("sm_35");
    let req = Request::from_fn(8, Op::Load, |l| Some(8 * l));
    let eight = Config {
        bank_mode: BankMode::EightByte,
    };
    assert_eq!(wavefronts(k, &eight, &req).unwrap().wavefronts, 1);
    assert_eq!(wavefronts(k, &Config::default(), &req).unwrap().wavefronts, 2);
}

/// `if (tid % 2 == 0)` in front of an 8- or 16-byte load: every lane pair has one lane off, and the
/// H100 still serves the even lanes as if the pairs were whole. Measured rows
/// (calibration/bank/measured_pred_h100.tsv): ids 269 and 1307, lane 2k loads element k, 1 and 2
/// wavefronts; id 567, the same as an 8-byte store, 2 (stores never merge); id 258, lanes 0..26 load
/// by pairs (`if (i < n)` ending on lane 26), 1.
#[test]
fn a_pair_with_one_lane_off_still_merges() {
    let even = |w: u32, base: u32| move |l: u32| l.is_multiple_of(2).then_some(base + (l / 2) * w);
    assert_eq!(counts("sm_90", 8, Op::Load, even(8, 112)).wavefronts, 1);
    assert_eq!(counts("sm_90", 16, Op::Load, even(16, 576)).wavefronts, 2);
    assert_eq!(counts("sm_90", 8, Op::Store, even(8, 344)).wavefronts, 2);
    let tail = |l: u32| (l < 27).then_some(288 + 8 * (l / 2));
    assert_eq!(counts("sm_90", 8, Op::Load, tail).wavefronts, 1);
}

#[test]
fn column_of_32_by_32_versus_32_by_33() {
    for a in ["sm_50", "sm_90"] {
        assert_eq!(counts(a, 4, Op::Load, |l| Some(l * 32 * 4)).wavefronts, 32);
        assert_eq!(counts(a, 4, Op::Load, |l| Some(l * 33 * 4)).wavefronts, 1);
        assert_eq!(counts(a, 4, Op::Store, |l| Some(l * 4)).wavefronts, 1);
    }
}

#[test]
fn tesla_serves_half_warps() {
    let c = counts("sm_10", 4, Op::Load, |l| Some(4 * l));
    assert_eq!((c.wavefronts, c.ideal, c.conflict_ways), (2, 2, 1));
    // stride 16 words: all 16 lanes of a half-warp in bank 0
    assert_eq!(counts("sm_10", 4, Op::Load, |l| Some(64 * l)).conflict_ways, 16);
    // one word for everyone: one broadcast step per half-warp
    assert_eq!(counts("sm_10", 4, Op::Load, |_| Some(40)).wavefronts, 2);
    // only the upper half-warp active
    assert_eq!(
        counts("sm_10", 4, Op::Load, |l| (l >= 16).then_some(4 * l)).wavefronts,
        1
    );
    // two words in one bank: the broadcast word goes first, the other word's lanes in the next step
    let c = counts("sm_10", 4, Op::Load, |l| Some(if l % 2 == 0 { 0 } else { 64 }));
    assert_eq!(c.wavefronts, 4);
    // no multicast: lanes 8-15 reading word 1 (another bank) get one lane through with the
    // broadcast of word 0, the rest wait for the next step; CC 2.x serves it all at once
    let two_words = |l: u32| Some(if l % 16 < 8 { 0 } else { 4 });
    assert_eq!(counts("sm_10", 4, Op::Load, two_words).wavefronts, 4);
    assert_eq!(counts("sm_20", 4, Op::Load, two_words).wavefronts, 1);
}

#[test]
fn kepler_four_byte_mode_i_and_i_plus_32() {
    // words i and i+32 of one 64-word segment do not conflict in 4-byte mode
    let k = arch("sm_35");
    let same_segment = Request::from_fn(4, Op::Load, |l| Some(4 * ((l % 16) + 32 * (l / 16))));
    assert_eq!(
        wavefronts(k, &Config::default(), &same_segment)
            .unwrap()
            .wavefronts,
        1
    );
    assert_eq!(
        wavefronts(arch("sm_50"), &Config::default(), &same_segment)
            .unwrap()
            .wavefronts,
        2
    );
    // words i and i+64 (different segments) do
    let next_segment = Request::from_fn(4, Op::Load, |l| Some(4 * ((l % 16) + 64 * (l / 16))));
    assert_eq!(
        wavefronts(k, &Config::default(), &next_segment)
            .unwrap()
            .wavefronts,
        2
    );
    // 8-byte mode: stride-2 words are conflict-free
    let eight = Config {
        bank_mode: BankMode::EightByte,
    };
    let stride2 = Request::from_fn(4, Op::Load, |l| Some(8 * l));
    assert_eq!(wavefronts(k, &eight, &stride2).unwrap().wavefronts, 1);
    // 4-byte mode: words 2l reach banks 0, 2, ..., 30 twice, as i and i + 32 of one segment
    assert_eq!(wavefronts(k, &Config::default(), &stride2).unwrap().wavefronts, 1);
    assert_eq!(
        wavefronts(arch("sm_50"), &Config::default(), &stride2)
            .unwrap()
            .wavefronts,
        2
    );
    let stride4 = Request::from_fn(4, Op::Load, |l| Some(16 * l));
    assert_eq!(wavefronts(k, &Config::default(), &stride4).unwrap().wavefronts, 2);
}

#[test]
fn hopper_wide_load_phases_merge_for_pairs() {
    // every lane pair reads one double: one wavefront (the warp is one phase)
    assert_eq!(counts("sm_90", 8, Op::Load, |l| Some(8 * (l / 2))).wavefronts, 1);
    // ... but a store of the same pattern still takes both half-warps
    assert_eq!(counts("sm_90", 8, Op::Store, |l| Some(8 * (l / 2))).wavefronts, 2);
    // lanes l and l+16 sharing does not merge
    assert_eq!(counts("sm_90", 8, Op::Load, |l| Some(8 * (l % 16))).wavefronts, 2);
    // broadcast of a 16-byte vector: two wavefronts (half-warps), store four (quarter-warps)
    assert_eq!(counts("sm_90", 16, Op::Load, |_| Some(32)).wavefronts, 2);
    assert_eq!(counts("sm_90", 16, Op::Store, |_| Some(32)).wavefronts, 4);
}

#[test]
fn no_active_lane_takes_nothing() {
    for a in Arch::all() {
        for w in [1u8, 2, 4, 8, 16] {
            let c = wavefronts(a, &Config::default(), &Request::from_fn(w, Op::Load, |_| None)).unwrap();
            assert_eq!(c, Counts::default());
        }
    }
}

#[test]
fn bad_requests_are_errors() {
    let h = arch("sm_90");
    let e = wavefronts(h, &Config::default(), &Request::from_fn(3, Op::Load, Some)).unwrap_err();
    assert_eq!(e, BankError::UnsupportedWidth(3));
    let e = wavefronts(
        h,
        &Config::default(),
        &Request::from_fn(8, Op::Load, |l| Some(4 * l)),
    )
    .unwrap_err();
    assert_eq!(
        e,
        BankError::Misaligned {
            lane: 1,
            addr: 4,
            width: 8
        }
    );
    assert!(e.to_string().contains("lane 1"));
    assert!(
        breakdown(
            h,
            &Config::default(),
            &Request::from_fn(8, Op::Load, |l| Some(4 * l))
        )
        .is_err()
    );
}

#[test]
fn breakdown_picture_of_a_two_way_conflict() {
    let b = breakdown(
        arch("sm_90"),
        &Config::default(),
        &Request::from_fn(4, Op::Load, |l| Some(8 * l)),
    )
    .unwrap();
    assert_eq!(b.wavefronts.len(), 2);
    // lane 16 reads byte 128 = bank 0, row 1: second wavefront
    let s = b.wavefronts[1].slots.iter().find(|s| s.lane == 16).unwrap();
    assert_eq!(
        (s.bank, s.word_addr, s.byte_lo, s.byte_hi, s.broadcast),
        (0, 128, 0, 4, false)
    );
    let b = breakdown(
        arch("sm_90"),
        &Config::default(),
        &Request::from_fn(1, Op::Load, Some),
    )
    .unwrap();
    let s = b.wavefronts[0].slots.iter().find(|s| s.lane == 6).unwrap();
    assert_eq!(
        (s.bank, s.word_addr, s.byte_lo, s.byte_hi, s.broadcast),
        (1, 4, 2, 3, true)
    );
}

fn request_strategy() -> impl Strategy<Value = (usize, u8, bool, bool, Vec<Option<u32>>)> {
    let width = prop::sample::select(vec![1u8, 2, 4, 8, 16]);
    (0..Arch::all().len(), width, any::<bool>(), any::<bool>(), 0u32..4).prop_flat_map(
        |(a, w, store, eight, style)| {
            let span: u32 = match style {
                0 => 64,
                1 => 512,
                2 => 4096,
                _ => 49152,
            };
            let lane =
                prop::option::weighted(0.85, (0..span / u32::from(w)).prop_map(move |i| i * u32::from(w)));
            (
                Just(a),
                Just(w),
                Just(store),
                Just(eight),
                prop::collection::vec(lane, 32),
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_path_equals_reference((a, w, store, eight, lanes) in request_strategy(), dup in 0u32..6, off in any::<u32>()) {
        let arch = &Arch::all()[a];
        let mut lanes = lanes;
        // make pair / xor-2 structure common, so the merge rule is exercised, also with one lane of
        // a pair (or of an xor-2 pair) turned off
        match dup {
            1 | 3 => for l in 0..32 { lanes[l] = lanes[l & !1].or(lanes[l | 1]) },
            2 | 4 => for l in 0..32 { lanes[l] = lanes[l & !2].or(lanes[l | 2]) },
            _ => {}
        }
        if dup >= 3 {
            for (l, lane) in lanes.iter_mut().enumerate() {
                if off >> l & 1 == 1 && off.count_ones() < 24 {
                    *lane = None;
                }
            }
        }
        let op = if store { Op::Store } else { Op::Load };
        let cfg = Config { bank_mode: if eight { BankMode::EightByte } else { BankMode::FourByte } };
        let req = Request::from_fn(w, op, |l| lanes[l as usize]);
        let fast = wavefronts(arch, &cfg, &req).unwrap();
        let b = breakdown(arch, &cfg, &req).unwrap();
        prop_assert_eq!(fast, b.counts);
        prop_assert_eq!(b.wavefronts.len() as u32, fast.wavefronts);
        prop_assert!(fast.ideal <= fast.wavefronts);
        // every word of every active lane is served exactly once
        let mut served = 0usize;
        for wf in &b.wavefronts {
            for s in &wf.slots {
                let a = lanes[s.lane as usize].unwrap();
                prop_assert!(s.word_addr + u32::from(s.byte_lo) >= a);
                prop_assert!(s.word_addr + u32::from(s.byte_hi) <= a + u32::from(w));
                served += usize::from(s.byte_hi - s.byte_lo);
            }
            // multicast families: one word per bank per wavefront (conflict key aside on Kepler)
            if arch.bank_facts(cfg.bank_mode).multicast && arch.name != "sm_30" && !arch.name.starts_with("sm_3") {
                for x in &wf.slots {
                    for y in &wf.slots {
                        prop_assert!(x.bank != y.bank || x.word_addr == y.word_addr);
                    }
                }
            }
        }
        let active = lanes.iter().filter(|l| l.is_some()).count();
        prop_assert_eq!(served, active * usize::from(w));
    }

    /// Shifting a request by a multiple of the bank period changes no count (the bank-result cache
    /// of the analysis keys on the base modulo the period).
    #[test]
    fn counts_repeat_with_the_bank_period((a, w, store, eight, lanes) in request_strategy(), k in 1u32..64) {
        let arch = &Arch::all()[a];
        let op = if store { Op::Store } else { Op::Load };
        let cfg = Config { bank_mode: if eight { BankMode::EightByte } else { BankMode::FourByte } };
        let p = period(arch, &cfg);
        let req = Request::from_fn(w, op, |l| lanes[l as usize]);
        let shifted = Request::from_fn(w, op, |l| lanes[l as usize].map(|x| x + k * p));
        prop_assert_eq!(wavefronts(arch, &cfg, &req), wavefronts(arch, &cfg, &shifted));
    }
}
