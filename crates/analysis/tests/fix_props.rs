//! Properties of the fix advisor on arbitrary recorded traces (not only the suites' kernels): it
//! never fails or panics on a well-formed trace, every suggestion is a layout bijection that keeps
//! each access whole, the reported wavefronts are what the bank model counts under the change, no
//! change makes the array worse, and a bank permutation is offered only where padding and swizzles
//! fall short. Also: a permutation's byte map equals the unit table `Transform::remap` hands to the
//! emulator's `SharedRemap::Permute`, byte for byte.

use proptest::prelude::*;
use warpscope_analysis::banks::Side;
use warpscope_analysis::fix::{self, Access, AdviseConfig, ArrayInfo, Form, Target, Trace, Transform};
use warpscope_emu::SharedRemap;

fn arrays(sizes: &[u32]) -> Vec<ArrayInfo> {
    let mut off = 0;
    sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| {
            let a = ArrayInfo {
                ptx_name: format!("a{i}"),
                name: format!("a{i}"),
                offset: off,
                size,
                align: 16,
                dynamic: false,
            };
            off += size.div_ceil(16) * 16;
            a
        })
        .collect()
}

/// One access: width (log2), array, mask, and per-lane element picks.
fn access() -> impl Strategy<Value = (u32, usize, u32, Vec<u32>, bool)> {
    (
        0u32..5,
        0usize..2,
        any::<u32>(),
        prop::collection::vec(any::<u32>(), 32),
        any::<bool>(),
    )
}

fn build(sizes: &[u32], raw: &[(u32, usize, u32, Vec<u32>, bool)]) -> (Vec<ArrayInfo>, Trace) {
    let arrays = arrays(sizes);
    let list = raw.iter().enumerate().map(|(k, (wlog, ai, mask, picks, store))| {
        let width = 1u32 << wlog;
        let a = &arrays[*ai % arrays.len()];
        let elems = (a.size / width).max(1);
        let mut addrs = [0u32; 32];
        for l in 0..32 {
            if mask >> l & 1 == 1 {
                addrs[l] = a.offset + (picks[l] % elems) * width;
            }
        }
        let acc = Access {
            pc: k as u32,
            side: if *store { Side::Store } else { Side::Load },
            atomic: false,
            width: width as u8,
            ptx_width: width as u8,
            mask: if *mask == 0 { 1 } else { *mask },
            addrs,
            form: Form::Plain,
            src: None,
        };
        (acc, 1 + (k as u64 % 3))
    });
    let trace = Trace::from_accesses(list.collect::<Vec<_>>());
    (arrays, trace)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn advice_is_sound_on_any_trace(
        sizes in prop::collection::vec((1u32..=64).prop_map(|k| k * 64), 1..=2),
        raw in prop::collection::vec(access(), 1..12),
        target in prop::sample::select(vec!["sm_90", "sm_35:8B", "sm_13"]),
    ) {
        let (arrays, trace) = build(&sizes, &raw);
        let cfg = AdviseConfig {
            target: Target::parse(target).unwrap(),
            threads: 128,
            registers: Some(32),
            registers_from: "test".into(),
            source: None,
        };
        let advice = fix::advise(&trace, &arrays, &cfg).unwrap();
        for s in &advice.suggestions {
            let i = arrays.iter().position(|a| a.name == s.array).unwrap();
            let width = advice.arrays[i].access_bytes;
            prop_assert!(s.transform.preserves_accesses(arrays[i].size, width), "{:?}", s.transform);
            let mut ts = vec![None; arrays.len()];
            ts[i] = Some(s.transform.clone());
            let ev = fix::evaluate(&trace, &arrays, &ts, &cfg.target).unwrap();
            prop_assert_eq!(ev.per_array[i].wavefronts, s.wavefronts_after);
            prop_assert!(s.wavefronts_after <= s.wavefronts_before, "{} {:?} {} -> {} (ideal {}) notes {:?}", s.kind, s.transform, s.wavefronts_before, s.wavefronts_after, s.ideal, advice.notes);
            if s.kind == "permute" {
                let table_free = advice
                    .suggestions
                    .iter()
                    .filter(|x| x.array == s.array && x.kind != "permute")
                    .map(|x| x.wavefronts_after)
                    .min();
                prop_assert!(table_free.is_none_or(|w| w > s.ideal), "a permutation where {table_free:?} is ideal");
                prop_assert!(table_free.is_none_or(|w| s.wavefronts_after < w));
            }
        }
    }

    #[test]
    fn permutation_map_is_the_unit_table_the_emulator_takes(
        rows in 1u32..6,
        unit_log in 2u32..5,
        seeds in prop::collection::vec(any::<u64>(), 6),
    ) {
        let unit = 1u32 << unit_log;
        let row_units = 128 / unit;
        let mut columns: Vec<u16> = Vec::new();
        for r in 0..rows {
            // a permutation of the row by a seeded Fisher-Yates
            let mut row: Vec<u16> = (0..row_units as u16).collect();
            let mut s = seeds[r as usize % seeds.len()] ^ u64::from(r);
            for k in (1..row.len()).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                row.swap(k, (s >> 33) as usize % (k + 1));
            }
            columns.extend(row);
        }
        let size = 128 * (rows + 1);
        let t = Transform::Permute { unit_bytes: unit, row_units, columns: columns.clone() };
        prop_assert!(t.valid_for(size, unit));
        prop_assert!(t.preserves_accesses(size, unit));
        let array = ArrayInfo { ptx_name: "a".into(), name: "a".into(), offset: 0, size, align: 16, dynamic: false };
        let SharedRemap::Permute { table, unit: u_bytes, .. } = t.remap(&array) else {
            panic!("a permutation gives a permutation remap");
        };
        prop_assert_eq!(u_bytes, unit);
        for o in 0..size {
            let u = o / unit;
            let emu = match table.get(u as usize) {
                Some(&n) => n * unit + o % unit,
                None => o,
            };
            prop_assert_eq!(t.map(o), emu);
        }
    }
}
