//! What a suggestion's before/after picture needs: the worst request of the changed array as the
//! kernel is written and the same request after the change (lane byte offsets in the block's
//! shared window), and the source edit as text. Shared by `warpscope report` and `warpscope run
//! --fix --report`.

use warpscope_model::arch::Arch;
use warpscope_model::bank::{self, Op};

use super::{Access, ArrayInfo, Form, Suggestion, Trace, Transform, relayout};
use crate::banks::Side;

/// An array's worst request, before and after a suggested change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorstPair {
    /// Program pc of the instruction.
    pub pc: u32,
    /// Bytes per lane.
    pub width: u8,
    /// Load or store.
    pub side: Side,
    /// Lane offsets as the kernel is written (`None`: inactive lane).
    pub before: [Option<u32>; 32],
    /// Lane offsets after the change.
    pub after: [Option<u32>; 32],
}

/// The request of `arrays[array]` with the most wavefronts on `arch` (the first such in the trace's
/// order), with its lanes moved by `transform` (the other arrays move to their new bases too);
/// `None` when no plain `ld`/`st` touches the array (ldmatrix and cp.async have their own rules).
pub fn worst_pair(
    arch: &Arch,
    trace: &Trace,
    arrays: &[ArrayInfo],
    array: usize,
    transform: &Transform,
) -> Option<WorstPair> {
    let in_array = |i: usize, a: u32| a >= arrays[i].offset && a - arrays[i].offset < arrays[i].size;
    let mut transforms = vec![None; arrays.len()];
    transforms[array] = Some(transform.clone());
    let bases = relayout(arrays, &transforms);
    let lanes = |acc: &Access, moved: bool| -> [Option<u32>; 32] {
        std::array::from_fn(|l| {
            (acc.mask >> l & 1 == 1).then(|| {
                let a = acc.addrs[l];
                match (0..arrays.len()).find(|&j| in_array(j, a)) {
                    Some(j) if moved => {
                        let rel = a - arrays[j].offset;
                        bases[j] + transforms[j].as_ref().map_or(rel, |t| t.map(rel))
                    }
                    _ => a,
                }
            })
        })
    };
    let mut worst: Option<(u32, &Access)> = None;
    for (acc, _) in &trace.accesses {
        if acc.form != Form::Plain {
            continue;
        }
        if !(0..32).any(|l| acc.mask >> l & 1 == 1 && in_array(array, acc.addrs[l])) {
            continue;
        }
        let op = if acc.side == Side::Store {
            Op::Store
        } else {
            Op::Load
        };
        let req = bank::Request::new(acc.width, op, &lanes(acc, false));
        let Ok(c) = bank::wavefronts(arch, &bank::Config::default(), &req) else {
            continue;
        };
        if worst.is_none_or(|(w, _)| c.wavefronts > w) {
            worst = Some((c.wavefronts, acc));
        }
    }
    worst.map(|(_, acc)| WorstPair {
        pc: acc.pc,
        width: acc.width,
        side: acc.side,
        before: lanes(acc, false),
        after: lanes(acc, true),
    })
}

/// The source edit of a suggestion as text: `line N: before\n     -> after` for a declaration,
/// `add: table\nindex: expression` for a permutation, `index: expression` otherwise.
pub fn edit_text(s: &Suggestion) -> Option<String> {
    s.source.as_ref().map(|e| match (&e.line, &e.before) {
        _ if s.kind == "permute" => {
            let (table, index) = e.after.split_once('\n').unwrap_or((&e.after, ""));
            format!("add: {table}\nindex: {index}")
        }
        (Some(l), Some(b)) => format!("line {l}: {}\n     -> {}", b.trim(), e.after.trim()),
        _ => format!("index: {}", e.after.trim()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile() -> ArrayInfo {
        ArrayInfo {
            ptx_name: "_ZZ1kvE4tile".into(),
            name: "tile".into(),
            offset: 0,
            size: 32 * 32 * 4,
            align: 4,
            dynamic: false,
        }
    }

    fn access(pc: u32, addrs: impl Fn(u32) -> u32) -> Access {
        Access {
            pc,
            side: Side::Load,
            atomic: false,
            width: 4,
            ptx_width: 4,
            mask: u32::MAX,
            addrs: std::array::from_fn(|l| addrs(l as u32)),
            form: Form::Plain,
            src: None,
        }
    }

    #[test]
    fn the_column_read_is_the_worst_and_padding_moves_each_row_by_one_word() {
        // a row read (1 wavefront) and a column read of a 32x32 int tile (lane l: row l, word 0:
        // 32 wavefronts on bank 0)
        let trace = Trace::from_accesses([(access(1, |l| 4 * l), 32), (access(2, |l| 128 * l), 32)]);
        let pad = Transform::Pad {
            row_bytes: 128,
            pad_bytes: 4,
        };
        let arch = Arch::parse("sm_90").unwrap();
        let w = worst_pair(arch, &trace, &[tile()], 0, &pad).unwrap();
        assert_eq!(w.pc, 2);
        assert_eq!(w.before[5], Some(5 * 128));
        // padded rows are 132 bytes: lane l's word moves to 132 l (bank l)
        assert_eq!(w.after[5], Some(5 * 132));
        assert!(
            w.after
                .iter()
                .enumerate()
                .all(|(l, a)| *a == Some(132 * l as u32))
        );
    }

    #[test]
    fn no_plain_access_no_pair() {
        let mut a = access(1, |l| 16 * l);
        a.form = Form::Matrix(4);
        let trace = Trace::from_accesses([(a, 1)]);
        let pad = Transform::Pad {
            row_bytes: 128,
            pad_bytes: 4,
        };
        assert!(worst_pair(Arch::parse("sm_90").unwrap(), &trace, &[tile()], 0, &pad).is_none());
    }
}
