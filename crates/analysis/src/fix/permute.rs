//! Bank permutations: when no row padding or XOR swizzle brings an array's requests to the ideal,
//! search for an arbitrary permutation of the array's units inside their bank rows that does.
//!
//! Why it is needed: some access mixes have no padded or swizzled layout without conflicts. The
//! classic case is one array written in whole 128-byte rows and read with lane strides 2, 3 and 8
//! words: a full-row store forces every row to be a permutation of the banks; every padding is a
//! per-row rotation and every swizzle a per-row XOR, and no rotation, XOR or affine map per row
//! serves the three strides at once, but other per-row permutations do.
//!
//! The search is a local search over the array's recorded requests, counted with the exact bank
//! model of the target ([`warpscope_model::bank::wavefronts`]), so it works for every access
//! width and architecture the model knows:
//! - the state gives every unit (the array's widest access, so every access stays whole) a column
//!   of its bank row; it starts as written;
//! - a move takes a unit of a request that still conflicts and swaps its column with another unit
//!   of the same row; only the requests touching the two units are counted again;
//! - moves that do not add wavefronts are kept; worse ones are kept with a probability that falls
//!   as the search goes on (annealing), and the best state seen is the answer;
//! - it stops at the ideal or after a fixed number of request countings, with a fixed seed, so the
//!   result is the same on every run and machine.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use warpscope_model::arch::BankFacts;
use warpscope_model::bank::{self, Op};

use super::{ArrayInfo, FixError, Side, Target, Trace, Transform, array_of};

/// Request countings one search may spend (a few tenths of a second on one core).
pub const DEFAULT_BUDGET: u64 = 3_000_000;

/// Where one active lane's byte goes: a fixed address, or a byte of a unit of the array.
#[derive(Clone, Copy)]
enum Slot {
    Fixed(u32),
    Unit { unit: u32, within: u32 },
}

struct Req {
    pc: u32,
    width: u8,
    ops: &'static [Op],
    count: u64,
    lanes: Vec<(usize, Slot)>,
}

struct State<'a> {
    base: u32,
    unit: u32,
    row: u32,
    /// Column of each unit in its row.
    col: Vec<u32>,
    /// Unit at each (row, column) position.
    at: Vec<u32>,
    target: &'a Target,
    facts: BankFacts,
}

/// Counted cost of one request under the current layout.
#[derive(Clone, Copy, Default)]
struct Cost {
    /// Wavefronts (times the request's count).
    wf: u64,
    /// Ideal wavefronts (times the count).
    ideal: u64,
    /// Pairs of distinct bank words that share a bank (times the count): a finer measure than
    /// wavefronts, which stay flat over most single moves.
    pairs: u64,
}

impl Cost {
    /// What the search minimises: wavefronts above the ideal first, then sharing pairs.
    fn energy(&self) -> i64 {
        (4 * (self.wf - self.ideal) + self.pairs) as i64
    }
}

impl State<'_> {
    fn cost(&self, r: &Req) -> Result<Cost, FixError> {
        let mut lanes = [None; 32];
        let bank_bytes = self.facts.bank_bytes;
        let mut words = [0u32; 32 * 4];
        let mut n = 0;
        for &(l, slot) in &r.lanes {
            let a = match slot {
                Slot::Fixed(a) => a,
                Slot::Unit { unit, within } => {
                    self.base + ((unit - unit % self.row) + self.col[unit as usize]) * self.unit + within
                }
            };
            lanes[l] = Some(a);
            let first = a / bank_bytes;
            let last = (a + u32::from(r.width).max(1) - 1) / bank_bytes;
            for w in first..=last.min(first + 3) {
                words[n] = w;
                n += 1;
            }
        }
        let words = &mut words[..n];
        words.sort_unstable();
        let mut per_bank = [0u32; 32];
        let mut prev = None;
        for &w in words.iter() {
            if prev != Some(w) {
                per_bank[(w % self.facts.banks) as usize] += 1;
                prev = Some(w);
            }
        }
        let pairs: u64 = per_bank
            .iter()
            .map(|&k| u64::from(k * k.saturating_sub(1) / 2))
            .sum();
        let req = bank::Request::new(r.width, Op::Load, &lanes);
        let mut c = Cost::default();
        for &op in r.ops {
            let w = bank::wavefronts(
                self.target.arch,
                &self.target.config,
                &bank::Request { op, ..req },
            )
            .map_err(|source| FixError::Bank { pc: r.pc, source })?;
            c.wf += u64::from(w.wavefronts) * r.count;
            c.ideal += u64::from(w.ideal) * r.count;
            c.pairs += pairs * r.count;
        }
        Ok(c)
    }

    fn swap(&mut self, u: u32, v: u32) {
        let (cu, cv) = (self.col[u as usize], self.col[v as usize]);
        self.col[u as usize] = cv;
        self.col[v as usize] = cu;
        let r = u - u % self.row;
        self.at[(r + cv) as usize] = u;
        self.at[(r + cu) as usize] = v;
    }
}

/// Searches a bank permutation of array `i` under `target` that brings its requests to the ideal,
/// spending at most `budget` request countings. Returns the best permutation found with its
/// wavefronts and ideal (over the requests that touch the array), or `None` when the array's
/// accesses cannot be permuted (a unit wider than a bank row, or nothing conflicts).
pub fn search(
    trace: &Trace,
    arrays: &[ArrayInfo],
    i: usize,
    target: &Target,
    budget: u64,
) -> Result<Option<(Transform, u64, u64)>, FixError> {
    let a = &arrays[i];
    let facts = target.arch.bank_facts(target.config.bank_mode);
    let row_bytes = facts.banks * facts.bank_bytes;
    // The unit: the widest access as issued (fused accesses stay whole) and at least a bank word.
    let mut unit = facts.bank_bytes;
    for (acc, _) in &trace.accesses {
        if (0..32).any(|l| acc.mask >> l & 1 == 1 && array_of(arrays, acc.addrs[l]) == Some(i)) {
            unit = unit.max(u32::from(acc.width));
        }
    }
    if unit > row_bytes || !row_bytes.is_multiple_of(unit) || a.size < unit {
        return Ok(None);
    }
    let row = row_bytes / unit;
    let n_units = a.size / unit;
    let mut reqs = Vec::new();
    for (acc, n) in &trace.accesses {
        // ldmatrix / cp.async rows move whole (the unit above covers them); the search counts the
        // bank model's requests, and the advisor counts its result again with the matrix model.
        if acc.form != super::Form::Plain {
            continue;
        }
        let mut lanes = Vec::new();
        let mut touches = false;
        for l in 0..32usize {
            if acc.mask >> l & 1 == 0 {
                continue;
            }
            let x = acc.addrs[l];
            let rel = x.wrapping_sub(a.offset);
            let slot = if array_of(arrays, x) == Some(i) && rel / unit < n_units {
                touches = true;
                Slot::Unit {
                    unit: rel / unit,
                    within: rel % unit,
                }
            } else {
                Slot::Fixed(x)
            };
            lanes.push((l, slot));
        }
        if !touches {
            continue;
        }
        let ops: &'static [Op] = if acc.atomic {
            &[Op::Load, Op::Store]
        } else if acc.side == Side::Load {
            &[Op::Load]
        } else {
            &[Op::Store]
        };
        reqs.push(Req {
            pc: acc.pc,
            width: acc.width,
            ops,
            count: *n,
            lanes,
        });
    }
    let mut of_unit: Vec<Vec<u32>> = vec![Vec::new(); n_units as usize];
    for (k, r) in reqs.iter().enumerate() {
        for &(_, s) in &r.lanes {
            if let Slot::Unit { unit: u, .. } = s {
                let list = &mut of_unit[u as usize];
                if list.last() != Some(&(k as u32)) {
                    list.push(k as u32);
                }
            }
        }
    }
    let mut st = State {
        base: a.offset,
        unit,
        row,
        col: (0..n_units).map(|u| u % row).collect(),
        at: (0..n_units.div_ceil(row) * row).collect(),
        target,
        facts,
    };
    let mut cost = Vec::with_capacity(reqs.len());
    let (mut total, mut ideal) = (0u64, 0u64);
    for r in &reqs {
        let c = st.cost(r)?;
        total += c.wf;
        ideal += c.ideal;
        cost.push(c);
    }
    let mut spent = reqs.len() as u64;
    if total <= ideal {
        return Ok(None);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x5741_5250);
    let (mut best, mut best_col) = (total, st.col.clone());
    let mut touched = Vec::new();
    let mut mark = vec![false; reqs.len()];
    // The requests that still share a bank between distinct words, kept up to date.
    let mut hot: Vec<usize> = Vec::new();
    let mut slot_of: Vec<Option<usize>> = vec![None; reqs.len()];
    let set_hot = |k: usize, on: bool, list: &mut Vec<usize>, slot_of: &mut Vec<Option<usize>>| match (
        on, slot_of[k],
    ) {
        (true, None) => {
            slot_of[k] = Some(list.len());
            list.push(k);
        }
        (false, Some(p)) => {
            list.swap_remove(p);
            if let Some(&moved) = list.get(p) {
                slot_of[moved] = Some(p);
            }
            slot_of[k] = None;
        }
        _ => {}
    };
    for (k, c) in cost.iter().enumerate() {
        set_hot(k, c.energy() > 0, &mut hot, &mut slot_of);
    }
    while spent < budget && best > ideal && !hot.is_empty() {
        spent += 1;
        let r = &reqs[hot[rng.random_range(0..hot.len())]];
        let units: Vec<u32> = r
            .lanes
            .iter()
            .filter_map(|&(_, s)| match s {
                Slot::Unit { unit, .. } => Some(unit),
                Slot::Fixed(_) => None,
            })
            .collect();
        let u = units[rng.random_range(0..units.len())];
        let r0 = u - u % row;
        let v = st.at[(r0 + rng.random_range(0..row)) as usize];
        if v == u || v >= n_units {
            continue;
        }
        st.swap(u, v);
        touched.clear();
        for &k in of_unit[u as usize].iter().chain(&of_unit[v as usize]) {
            if !mark[k as usize] {
                mark[k as usize] = true;
                touched.push(k as usize);
            }
        }
        let mut new = Vec::with_capacity(touched.len());
        let (mut d_energy, mut d_total) = (0i64, 0i64);
        for &k in &touched {
            mark[k] = false;
            let c = st.cost(&reqs[k])?;
            d_energy += c.energy() - cost[k].energy();
            d_total += c.wf as i64 - cost[k].wf as i64;
            new.push(c);
        }
        spent += touched.len() as u64;
        let temperature = 1.5 * (1.0 - spent as f64 / budget as f64).max(0.0);
        let keep = d_energy <= 0 || rng.random::<f64>() < (-(d_energy as f64) / temperature.max(1e-9)).exp();
        if keep {
            for (&k, c) in touched.iter().zip(new) {
                cost[k] = c;
                set_hot(k, c.energy() > 0, &mut hot, &mut slot_of);
            }
            total = (total as i64 + d_total) as u64;
            if total < best {
                best = total;
                best_col.clone_from(&st.col);
            }
        } else {
            st.swap(u, v);
        }
    }
    // Put back every unit whose move is not needed: a unit returns to its column as written
    // (swapping with the unit there) whenever that leaves the wavefronts as they are.
    st.col.clone_from(&best_col);
    for u in 0..n_units {
        st.at[(u - u % row + st.col[u as usize]) as usize] = u;
    }
    for (k, r) in reqs.iter().enumerate() {
        cost[k] = st.cost(r)?;
    }
    let mut changed = true;
    while changed && spent < 2 * budget {
        changed = false;
        for u in 0..n_units {
            let home = u % row;
            if st.col[u as usize] == home {
                continue;
            }
            let v = st.at[u as usize];
            let before: u64 = of_unit[u as usize]
                .iter()
                .chain(&of_unit[v as usize])
                .map(|&k| cost[k as usize].wf)
                .sum();
            st.swap(u, v);
            let mut after = 0u64;
            let mut new = Vec::new();
            for &k in of_unit[u as usize].iter().chain(&of_unit[v as usize]) {
                let c = st.cost(&reqs[k as usize])?;
                after += c.wf;
                new.push((k as usize, c));
            }
            spent += new.len() as u64;
            if after <= before {
                for (k, c) in new {
                    cost[k] = c;
                }
                changed = true;
            } else {
                st.swap(u, v);
            }
        }
    }
    let best_col = st.col.clone();
    best = 0;
    for r in &reqs {
        best += st.cost(r)?.wf;
    }
    // Keep the table up to the last bank row that changed.
    let moved_rows = best_col
        .iter()
        .enumerate()
        .rposition(|(u, &c)| c != u as u32 % row)
        .map_or(0, |u| u as u32 / row + 1);
    let len = (moved_rows * row).min(n_units);
    let columns = best_col[..len as usize].iter().map(|&c| c as u16).collect();
    Ok(Some((
        Transform::Permute {
            unit_bytes: unit,
            row_units: row,
            columns,
        },
        best,
        ideal,
    )))
}
