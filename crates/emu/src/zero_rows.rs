//! Which register rows a warp must start with at zero. A warp's register file comes from the pool
//! of a finished block's warps; zeroing all of it costs as much as a short kernel's instructions
//! (a 32 x 32 block of a 28-row kernel zeroes 224 KiB to run 25 instructions per thread). A row
//! that every thread writes before it reads it never shows its start value, so only the others
//! are zeroed.
//!
//! The analysis is per thread: a thread follows one path of the kernel's control flow (branches,
//! exits), and a row is *written* at an instruction when every path from the entry to it passes an
//! unguarded instruction that writes that row in every executing lane (a guarded one writes only
//! some lanes; the rows set when the warp starts, `Kernel::row_init`, are written at the entry). A
//! row that some instruction reads where it is not written is zeroed. Only instructions whose
//! reads and writes are listed here take part; a kernel with any other instruction (one that
//! reads other lanes' registers, such as `shfl`, or many rows at once) has all its rows zeroed.

use warpscope_ptx::inst::{Inst, NO_REG, Op, PSrc, R};

/// The rows an instruction reads and the rows it writes in every executing lane, when it is one
/// whose effects on rows are plain (each lane reads and writes its own rows only).
pub(crate) fn effects(i: &Inst) -> Option<(Vec<R>, Vec<R>)> {
    Some(match *i {
        Inst::Un { d, a, .. } | Inst::Cvt { d, a, .. } | Inst::Cvta { d, a, .. } => (vec![a], vec![d]),
        Inst::Bin { d, a, b, .. } | Inst::Selp { d, a, b, .. } | Inst::Set { d, a, b, .. } => {
            (vec![a, b], vec![d])
        }
        Inst::Tern { d, a, b, c, .. } | Inst::FRound { d, a, b, c, .. } | Inst::Lop3 { d, a, b, c, .. } => {
            (vec![a, b, c], vec![d])
        }
        Inst::Bfi {
            d, a, b, pos, len, ..
        } => (vec![a, b, pos, len], vec![d]),
        Inst::Setp { a, b, .. } => (vec![a, b], vec![]),
        Inst::TestP { a, .. } | Inst::RegToPred { a, .. } => (vec![a], vec![]),
        Inst::PredOp { .. } | Inst::Bra { .. } | Inst::Exit | Inst::Trap | Inst::Nop => (vec![], vec![]),
        Inst::Bar { id, count, .. } => (vec![id, count], vec![]),
        Inst::Ld { d, addr, vec, .. } if (1..=4).contains(&vec) => (vec![addr], d[..vec as usize].to_vec()),
        Inst::St { a, addr, vec, .. } if (1..=4).contains(&vec) => {
            let mut r = a[..vec as usize].to_vec();
            r.push(addr);
            (r, vec![])
        }
        _ => return None,
    })
}

/// The rows of `0..n_rows` that may be read before a thread wrote them, in a kernel whose
/// instructions are `ops` (pc `entry` first) and whose warps start with the rows `preset`
/// written. Every row when an instruction is not one [`effects`] knows.
pub(crate) fn rows_to_zero(ops: &[Op], entry: u32, n_rows: u32, preset: &[R]) -> Vec<R> {
    let all = || (0..n_rows).map(|r| r as R).collect::<Vec<R>>();
    let n = ops.len();
    let words = (n_rows as usize).div_ceil(64);
    let mut fx = Vec::with_capacity(n);
    for op in ops {
        let Some((mut reads, mut writes)) = effects(&op.inst) else {
            return all();
        };
        reads.retain(|&r| r != NO_REG);
        writes.retain(|&r| r != NO_REG);
        if reads.iter().chain(&writes).any(|&r| u32::from(r) >= n_rows) {
            return all();
        }
        if op.guard != PSrc::TRUE {
            // a guarded instruction writes the lanes whose predicate holds: not every lane
            writes.clear();
        }
        fx.push((reads, writes));
    }
    let succ = |pc: usize| -> Vec<usize> {
        let op = &ops[pc];
        let guarded = op.guard != PSrc::TRUE;
        let next = (pc + 1 < n).then_some(pc + 1);
        match op.inst {
            Inst::Bra { target, .. } => {
                let t = target.checked_sub(entry).map(|t| t as usize).filter(|&t| t < n);
                t.into_iter().chain(next.filter(|_| guarded)).collect()
            }
            Inst::Exit | Inst::Trap => next.filter(|_| guarded).into_iter().collect(),
            _ => next.into_iter().collect(),
        }
    };
    // written[pc]: the rows written on every path to pc (None: no path reaches it yet)
    let mut written: Vec<Option<Vec<u64>>> = vec![None; n];
    if n == 0 {
        return Vec::new();
    }
    let mut start = vec![0u64; words];
    for &r in preset {
        if u32::from(r) < n_rows {
            start[r as usize / 64] |= 1 << (r % 64);
        }
    }
    written[0] = Some(start);
    let mut work = vec![0usize];
    let mut queued = vec![false; n];
    queued[0] = true;
    while let Some(pc) = work.pop() {
        queued[pc] = false;
        let Some(mut out) = written[pc].clone() else {
            continue;
        };
        for &r in &fx[pc].1 {
            out[r as usize / 64] |= 1 << (r % 64);
        }
        for s in succ(pc) {
            let changed = match &mut written[s] {
                slot @ None => {
                    *slot = Some(out.clone());
                    true
                }
                Some(w) => {
                    let mut c = false;
                    for (x, &o) in w.iter_mut().zip(&out) {
                        let y = *x & o;
                        c |= y != *x;
                        *x = y;
                    }
                    c
                }
            };
            if changed && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    let mut zero = vec![false; n_rows as usize];
    for (pc, w) in written.iter().enumerate() {
        let Some(w) = w else { continue };
        for &r in &fx[pc].0 {
            if w[r as usize / 64] >> (r % 64) & 1 == 0 {
                zero[r as usize] = true;
            }
        }
    }
    (0..n_rows as usize)
        .filter(|&r| zero[r])
        .map(|r| r as R)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_ptx::inst::{BinOp, Ty};

    fn add(d: R, a: R, b: R) -> Op {
        Op {
            inst: Inst::Bin {
                op: BinOp::Add,
                ty: Ty::U32,
                d,
                a,
                b,
            },
            guard: PSrc::TRUE,
        }
    }

    fn guarded(mut op: Op) -> Op {
        op.guard = PSrc { idx: 0, neg: false };
        op
    }

    fn bra(target: u32) -> Op {
        Op {
            inst: Inst::Bra {
                target,
                reconv: u32::MAX,
            },
            guard: PSrc { idx: 0, neg: false },
        }
    }

    #[test]
    fn rows_read_before_written_on_some_path_are_zeroed() {
        // 0: r2 = r0 + r1 (r0 preset, r1 never written)   1: @p bra 3   2: r3 = r0 + r0
        // 3: r4 = r3 + r2 (r3 unwritten on the path 1 -> 3)   4: @p r5 = r0 + r0   5: r6 = r5 + r2
        let ops = [
            add(2, 0, 1),
            bra(13),
            add(3, 0, 0),
            add(4, 3, 2),
            guarded(add(5, 0, 0)),
            add(6, 5, 2),
        ];
        assert_eq!(rows_to_zero(&ops, 10, 8, &[0]), vec![1, 3, 5]);
    }

    #[test]
    fn a_loop_back_edge_meets_the_entry_path() {
        // 0: r1 = r0 + r0   1: r2 = r2 + r1 (r2 never written before its first read)   2: @p bra 1
        let ops = [add(1, 0, 0), add(2, 2, 1), bra(1)];
        assert_eq!(rows_to_zero(&ops, 0, 3, &[0]), vec![2]);
    }

    #[test]
    fn an_unknown_instruction_zeroes_every_row() {
        let ops = [
            add(1, 0, 0),
            Op {
                inst: Inst::ActiveMask { d: 2 },
                guard: PSrc::TRUE,
            },
        ];
        assert_eq!(rows_to_zero(&ops, 0, 3, &[0]), vec![0, 1, 2]);
    }
}
