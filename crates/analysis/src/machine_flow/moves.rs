//! How a counted loop's registers move from one iteration to the next ([`analyse`]).
//!
//! The body between a loop's head and its backward branch is straight code; the flow runs only
//! its needed instructions. Each value they make is described relative to one iteration:
//! the same in every iteration ([`V::Inv`]), or `m * x + c` of one *root*, a register's value
//! at the head (32 bits, mod 2^32) or a pair of registers' 64-bit value at the head, with `m`
//! and `c` the same in every iteration. A root is a *translation* when its value at the end of
//! the body is itself plus such a `c` (`m = 1`: a counter `i += step`, a pointer `p += stride`
//! through ptxas's renames across the unrolled copies: `IMAD.WIDE q, n, 4, p`,
//! `IADD3 q.lo, P, p.lo, s.lo` + `IADD3.X`/`IMAD.X q.hi, p.hi, s.hi, P`, moves). Then every
//! value made from translations moves by the same amount each iteration (per lane): what one
//! iteration moved it by, which the run observes ([`super::loops`]). Anything else (two roots
//! in one value, a high word without its carry, a multiply of a 64-bit root, an instruction
//! not modelled) is not a loop for the closed form.

use super::{Dst, Ins, Kind, Opnd, PT, RZ, Sr, Src, URZ};

/// A register's index here: `R0..R254` as 0..255, `UR0..UR62` from 256.
type Reg = u16;
const UR_BASE: u16 = 256;
const REGS: usize = 256 + 64;
/// The id of a root pair's own value (no instruction made it).
const HEAD: usize = usize::MAX;

/// A 32-bit value relative to one iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    /// The same in every iteration.
    Inv,
    /// The register's own value at the head (the body writes it).
    Head(Reg),
    /// `m * head(x) + c` mod 2^32 (`unit`: `m = 1`).
    W { x: Reg, unit: bool },
    /// The low word of `P + c`, `P` the 64-bit value of the registers `root` at the head; `id`:
    /// the instruction that made the sum ([`HEAD`]: the pair itself).
    Lo { root: (u8, u8), id: usize },
    /// Its high word.
    Hi { root: (u8, u8), id: usize },
    /// A load's result the flow forgets (nothing needed reads it).
    Forgot,
}

/// A predicate relative to one iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pv {
    Inv,
    /// The carry of `sum = lo + other` (instruction `at`; `lo` a root's low word).
    Carry {
        at: usize,
        lo: V,
        sum: u8,
        other: Opnd,
    },
    /// Anything else (the compare's result, a carry of another sum).
    Other,
}

/// A counted loop's registers as the closed form moves them.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Moves {
    /// Registers (`UR` from 256) moved by a 32-bit step each iteration (the low words of
    /// 64-bit values among them).
    pub(super) words: Vec<u16>,
    /// High words moved by a 64-bit step each iteration: (its low word, in [`Self::words`],
    /// the high word).
    pub(super) pairs: Vec<(u8, u8)>,
    /// The pairs whose step moves the body's global addresses.
    pub(super) addresses: Vec<(u8, u8)>,
    /// Carries of 64-bit sums left in predicates: (predicate, sum's low word, the other
    /// addend), recomputed from the moved sum.
    pub(super) carries: Vec<(u8, u8, Opnd)>,
    /// The compare's counter register, and whether the compare reads its value at the head
    /// (else the value the body wrote before the compare, unchanged to the branch).
    pub(super) counter: (u8, bool),
    /// The compare (an `ISETP`) and which of its operands is the counter.
    pub(super) cmp_at: usize,
    pub(super) counter_operand: usize,
}

struct State {
    v: Vec<V>,
    /// The last instruction that wrote each register (`HEAD`: none in the body yet).
    writer: Vec<usize>,
    p: [Pv; 16],
    /// The last instruction that wrote each predicate.
    writer_p: [usize; 16],
}

fn reg_of(s: Src) -> Option<Reg> {
    match s {
        Src::R(r) if r != RZ => Some(Reg::from(r)),
        Src::Ur(r) if r != URZ => Some(UR_BASE + Reg::from(r)),
        _ => None,
    }
}

fn dst_reg(d: Dst) -> Option<Reg> {
    match d {
        Dst::R(r) if r != RZ => Some(Reg::from(r)),
        Dst::Ur(r) if r != URZ => Some(UR_BASE + Reg::from(r)),
        _ => None,
    }
}

fn zero(o: &Opnd) -> bool {
    matches!(o.src, Src::R(RZ) | Src::Ur(URZ) | Src::Imm(0))
}

fn plain(o: &Opnd) -> bool {
    !o.neg && !o.not && !o.abs
}

impl State {
    /// The operand's value as it is (`None`: not modelled).
    fn exact(&self, o: &Opnd) -> Option<V> {
        let v = match o.src {
            Src::R(RZ) | Src::Ur(URZ) | Src::Imm(_) | Src::FImm(_) => V::Inv,
            Src::R(_) | Src::Ur(_) => self.v[reg_of(o.src)? as usize],
            Src::Const { reg, ureg, .. } => {
                let inv = |r: Option<Reg>| r.is_none_or(|r| self.v[r as usize] == V::Inv);
                if inv(reg.and_then(|r| reg_of(Src::R(r)))) && inv(ureg.and_then(|r| reg_of(Src::Ur(r)))) {
                    V::Inv
                } else {
                    return None;
                }
            }
            Src::Sr(Sr::Other) | Src::Unknown => return None,
            Src::Sr(_) => V::Inv,
        };
        Some(v)
    }

    /// The operand as a 32-bit integer (modifiers applied): `None` not modelled.
    fn word(&self, o: &Opnd) -> Option<V> {
        let v = match self.exact(o)? {
            V::Inv => return Some(V::Inv),
            V::Head(x) => V::W { x, unit: true },
            w @ V::W { .. } => w,
            V::Lo { root, .. } => V::W {
                x: Reg::from(root.0),
                unit: true,
            },
            V::Hi { .. } | V::Forgot => return None,
        };
        if o.abs {
            return None;
        }
        match v {
            V::W { x, unit } => Some(V::W {
                x,
                unit: unit && !o.neg && !o.not,
            }),
            other => Some(other),
        }
    }

    /// A pair `lo`, `lo + 1`'s 64-bit value: invariant, or a root's sum with its id.
    fn pair(&self, lo: V, hi: V) -> Option<Option<((u8, u8), usize)>> {
        match (lo, hi) {
            (V::Inv, V::Inv) => Some(None),
            (V::Head(a), V::Head(b)) if a < UR_BASE && b < UR_BASE => Some(Some(((a as u8, b as u8), HEAD))),
            (V::Lo { root, id }, V::Hi { root: r2, id: i2 }) if root == r2 && id == i2 => {
                Some(Some((root, id)))
            }
            _ => None,
        }
    }

    fn reg_pair(&self, r: u8) -> Option<Option<((u8, u8), usize)>> {
        if r == RZ {
            return Some(None);
        }
        let hi = r.checked_add(1).filter(|&h| h != RZ)?;
        self.pair(self.v[r as usize], self.v[hi as usize])
    }

    fn set(&mut self, d: Dst, v: V, at: usize) {
        if let Some(r) = dst_reg(d) {
            self.v[r as usize] = v;
            self.writer[r as usize] = at;
        }
    }

    fn set_pred(&mut self, d: Dst, v: Pv, at: usize) {
        let p = match d {
            Dst::P(p) if p != PT => p as usize,
            Dst::Up(p) if p != PT => 8 + p as usize,
            _ => return,
        };
        self.p[p] = v;
        self.writer_p[p] = at;
    }

    fn pred(&self, q: &super::Pred) -> Pv {
        if q.idx == PT {
            return Pv::Inv;
        }
        self.p[q.idx as usize + if q.uniform { 8 } else { 0 }]
    }

    /// The high word of a 64-bit add: `sources` (one a root's high word, the others invariant)
    /// plus the carry in `preds` of the matching low-word add. Its value, or `None`.
    fn high_add(&mut self, sources: &[Opnd], preds: &[super::Pred]) -> Option<V> {
        let mut carry = None;
        for q in preds {
            match self.pred(q) {
                Pv::Inv => {}
                Pv::Carry {
                    at: c_at, lo, sum, ..
                } if !q.neg && carry.is_none() => carry = Some((c_at, lo, sum)),
                _ => return None,
            }
        }
        let mut hi = None;
        for o in sources {
            if self.word(o) == Some(V::Inv) {
                continue;
            }
            if hi.is_some() || !plain(o) {
                return None;
            }
            hi = Some(self.exact(o)?);
        }
        let Some(hi) = hi else {
            // invariants and an invariant carry
            return carry.is_none().then_some(V::Inv);
        };
        let (c_at, lo, sum) = carry?;
        let (root, _) = self.pair(lo, hi)??;
        // the low word's register still holds the sum: the pair's low word
        if self.writer[sum as usize] == c_at {
            self.v[sum as usize] = V::Lo { root, id: c_at };
        }
        Some(V::Hi { root, id: c_at })
    }
}

/// The loop with head `head` and backward branch `b` (guard `guard`), its needed instructions
/// as [`super::slice`] marks them: how its registers move, or `None` when they are not all
/// translations (or the body holds anything else than integer arithmetic, one `ISETP`, and
/// global loads and stores counted for their addresses only).
pub(super) fn analyse(
    ins: &[Ins],
    needed: &[bool],
    value: &[bool],
    head: usize,
    b: usize,
    guard: u8,
) -> Option<Moves> {
    let body = head..b;
    let mut written = vec![false; REGS];
    let mut pwritten = [false; 16];
    for i in body.clone().filter(|&i| needed[i]) {
        for d in &ins[i].dst {
            if let Some(r) = dst_reg(*d) {
                written[r as usize] = true;
            }
            match *d {
                Dst::P(p) if p != PT => pwritten[p as usize] = true,
                Dst::Up(p) if p != PT => pwritten[8 + p as usize] = true,
                _ => {}
            }
        }
    }
    let mut st = State {
        v: (0..REGS)
            .map(|r| if written[r] { V::Head(r as Reg) } else { V::Inv })
            .collect(),
        writer: vec![HEAD; REGS],
        p: std::array::from_fn(|p| if pwritten[p] { Pv::Other } else { Pv::Inv }),
        writer_p: [HEAD; 16],
    };
    let mut cmp: Option<(usize, usize, u8, bool, usize)> = None;
    let mut addresses: Vec<(u8, u8)> = Vec::new();
    let mut cmp_preds: Vec<usize> = Vec::new();
    for i in body.filter(|&i| needed[i]) {
        let y = &ins[i];
        if y.guard != super::Pred::TRUE {
            return None;
        }
        let s = &y.src;
        match y.kind {
            Kind::Mov => {
                let o = s.first()?;
                let v = if plain(o) { st.exact(o)? } else { st.word(o)? };
                st.set(*y.dst.first()?, v, i);
            }
            Kind::Imad {
                hi: false,
                wide: false,
                x: false,
                ..
            } if s.len() == 3 => {
                let v = if zero(&s[0]) || zero(&s[1]) {
                    if plain(&s[2]) {
                        st.exact(&s[2])?
                    } else {
                        st.word(&s[2])?
                    }
                } else {
                    let (a, bb, c) = (st.word(&s[0])?, st.word(&s[1])?, st.word(&s[2])?);
                    match (a, bb, c) {
                        (V::Inv, V::Inv, c) => c,
                        (V::W { x, unit }, V::Inv, V::Inv) => V::W {
                            x,
                            unit: unit && s[1].src == Src::Imm(1) && plain(&s[1]),
                        },
                        (V::Inv, V::W { x, unit }, V::Inv) => V::W {
                            x,
                            unit: unit && s[0].src == Src::Imm(1) && plain(&s[0]),
                        },
                        _ => return None,
                    }
                };
                st.set(*y.dst.first()?, v, i);
            }
            Kind::Imad {
                hi: false,
                wide: false,
                x: true,
                ..
            } if s.len() == 3 => {
                // `IMAD.X d, a, 1, c, P`: the high word of a 64-bit add
                let v = if st.word(&s[0]) == Some(V::Inv) && st.word(&s[1]) == Some(V::Inv) {
                    st.high_add(&s[2..], &y.preds)?
                } else if s[1].src == Src::Imm(1) && plain(&s[1]) {
                    st.high_add(&[s[0], s[2]], &y.preds)?
                } else {
                    return None;
                };
                st.set(*y.dst.first()?, v, i);
            }
            Kind::Imad {
                hi: false,
                wide: true,
                x: false,
                ..
            } if s.len() == 3 && y.dst.len() == 2 => {
                // `IMAD.WIDE d, a, b, c`: `a * b` invariant plus the pair `c`
                if st.word(&s[0])? != V::Inv || st.word(&s[1])? != V::Inv {
                    return None;
                }
                let c = match s[2].src {
                    Src::R(r) if plain(&s[2]) => st.reg_pair(r)?,
                    Src::Ur(u) => (st.word(&s[2])? == V::Inv
                        && (u == URZ || st.v[(UR_BASE + Reg::from(u) + 1) as usize] == V::Inv))
                        .then_some(None)?,
                    _ if st.word(&s[2])? == V::Inv => None,
                    _ => return None,
                };
                let (lo, hi) = match c {
                    None => (V::Inv, V::Inv),
                    Some((root, _)) => (V::Lo { root, id: i }, V::Hi { root, id: i }),
                };
                st.set(y.dst[0], lo, i);
                st.set(y.dst[1], hi, i);
            }
            Kind::Iadd3 { x: false } if !y.dst.is_empty() => {
                let words: Vec<V> = s.iter().map(|o| st.word(o)).collect::<Option<_>>()?;
                let varying: Vec<usize> = (0..words.len()).filter(|&k| words[k] != V::Inv).collect();
                let v = match varying[..] {
                    [] => V::Inv,
                    [k] => words[k],
                    _ => return None,
                };
                let carries: Vec<Dst> = y.dst[1..].to_vec();
                let live: Vec<Dst> = carries
                    .iter()
                    .copied()
                    .filter(|d| !matches!(d, Dst::P(PT) | Dst::Up(PT)))
                    .collect();
                match (&live[..], &varying[..]) {
                    ([], _) => {}
                    (_, []) => live.iter().for_each(|d| st.set_pred(*d, Pv::Inv, i)),
                    (&[d @ Dst::P(_)], &[k])
                        if carries.len() == 1
                            && s.len() == 3
                            && zero(&s[2])
                            && k < 2
                            && s.iter().all(plain) =>
                    {
                        let lo = st.exact(&s[k])?;
                        let sum = match y.dst[0] {
                            Dst::R(r) if r != RZ => r,
                            _ => return None,
                        };
                        let carry = if matches!(lo, V::Head(x) if x < UR_BASE) || matches!(lo, V::Lo { .. }) {
                            Pv::Carry {
                                at: i,
                                lo,
                                sum,
                                other: s[1 - k],
                            }
                        } else {
                            Pv::Other
                        };
                        st.set_pred(d, carry, i);
                    }
                    _ => return None,
                }
                st.set(y.dst[0], v, i);
            }
            Kind::Iadd3 { x: true } if y.dst.len() == 1 => {
                let v = st.high_add(s, &y.preds)?;
                st.set(y.dst[0], v, i);
            }
            Kind::Isetp { ex: false, .. } => {
                let q = y.preds.first()?;
                if cmp.is_some() || y.preds.len() != 1 || s.len() != 2 || st.pred(q) != Pv::Inv {
                    return None;
                }
                let (a, bb) = (st.word(&s[0])?, st.word(&s[1])?);
                let k = match (a, bb) {
                    (V::Inv, V::Inv) => return None,
                    (_, V::Inv) => 0,
                    (V::Inv, _) => 1,
                    _ => return None,
                };
                let Src::R(r) = s[k].src else { return None };
                if !plain(&s[k]) {
                    return None;
                }
                let at_head = matches!(st.exact(&s[k])?, V::Head(_));
                let root = match st.word(&s[k])? {
                    V::W { x, .. } => x,
                    _ => return None,
                };
                cmp = Some((i, k, r, at_head, root as usize));
                for d in &y.dst {
                    st.set_pred(*d, Pv::Other, i);
                    if let Dst::P(p) = *d {
                        cmp_preds.push(p as usize);
                    }
                }
            }
            Kind::Ldg { .. } | Kind::Stg { .. } if !value[i] => {
                // a generic access counts the lanes outside the shared, local and constant
                // windows: only through pointers that do not move
                let generic = matches!(
                    y.kind,
                    Kind::Ldg { generic: true, .. } | Kind::Stg { known: false, .. }
                );
                let (r, _) = y.addr?;
                if let Some((root, _)) = st.reg_pair(r)? {
                    if generic {
                        return None;
                    }
                    if !addresses.contains(&root) {
                        addresses.push(root);
                    }
                }
                for d in &y.dst {
                    st.set(*d, V::Forgot, i);
                }
            }
            Kind::Lop3
            | Kind::Shf { .. }
            | Kind::Lea { .. }
            | Kind::Sel { .. }
            | Kind::Prmt
            | Kind::Iabs
            | Kind::Popc
            | Kind::Flo { .. }
            | Kind::Brev
            | Kind::Mnmx { .. }
            | Kind::Imad { .. }
            | Kind::Plop3 => {
                // invariant inputs only: an invariant result
                let inv = s.iter().all(|o| st.word(o) == Some(V::Inv))
                    && y.preds.iter().all(|q| st.pred(q) == Pv::Inv);
                if !inv {
                    return None;
                }
                for d in &y.dst {
                    st.set(*d, V::Inv, i);
                    st.set_pred(*d, Pv::Inv, i);
                }
            }
            _ => return None,
        }
    }
    let (cmp_at, counter_operand, counter, at_head, cmp_root) = cmp?;
    // the guard is the compare's
    if st.writer_p[guard as usize] != cmp_at {
        return None;
    }
    // registers an instruction the flow steps over writes after the last needed write: the
    // flow's value is dead at the loop's end (anything needed reading it later would make that
    // write needed) and is left as it is
    let mut dead = vec![false; REGS];
    for i in (head..b).filter(|&i| !needed[i]) {
        for d in &ins[i].dst {
            if let Some(r) = dst_reg(*d)
                && written[r as usize]
                && (st.writer[r as usize] == HEAD || st.writer[r as usize] < i)
            {
                dead[r as usize] = true;
            }
        }
    }
    // a root translates when its value at the end is itself plus an invariant
    let end = |r: Reg| {
        if dead[r as usize] {
            V::Forgot
        } else {
            st.v[r as usize]
        }
    };
    let pair_ok = |root: (u8, u8)| match (end(Reg::from(root.0)), end(Reg::from(root.1))) {
        (V::Lo { root: a, id }, V::Hi { root: b, id: j }) => a == root && b == root && id == j,
        _ => false,
    };
    let word_ok = |x: Reg| match end(x) {
        V::W { x: y, unit: true } => y == x,
        V::Lo { root, .. } => Reg::from(root.0) == x && pair_ok(root),
        _ => false,
    };
    let mut words = Vec::new();
    let mut pairs = Vec::new();
    for r in (0..REGS).filter(|&r| written[r]) {
        if dead[r] {
            continue;
        }
        match end(r as Reg) {
            V::Inv | V::Forgot => {}
            V::W { x, .. } if word_ok(x) => words.push(r as u16),
            V::Lo { root, .. } if pair_ok(root) && r < 256 => words.push(r as u16),
            V::Hi { root, id } if pair_ok(root) && r < 256 => {
                // moved with a low word of the same sum
                let lo = (0..256).find(|&l| written[l] && end(l as Reg) == V::Lo { root, id })?;
                pairs.push((lo as u8, r as u8));
            }
            _ => return None,
        }
    }
    if !addresses.iter().all(|&a| pair_ok(a)) || !word_ok(cmp_root as Reg) {
        return None;
    }
    // the counter read after the body wrote it: unchanged from the compare to the branch
    if !at_head
        && (ins[cmp_at + 1..b].iter().enumerate())
            .any(|(k, y)| needed[cmp_at + 1 + k] && y.dst.contains(&Dst::R(counter)))
    {
        return None;
    }
    let mut carries = Vec::new();
    for p in (0..16).filter(|&p| pwritten[p]) {
        match st.p[p] {
            Pv::Inv => {}
            // the compare's results: with the guard sure to hold, the same in every iteration
            Pv::Other if cmp_preds.contains(&p) && st.writer_p[p] == cmp_at => {}
            Pv::Carry { at, sum, other, .. } if p < 8 && st.writer[sum as usize] == at => {
                // the sum moves with its pair or alone
                if !words.contains(&u16::from(sum)) {
                    return None;
                }
                carries.push((p as u8, sum, other));
            }
            _ => return None,
        }
    }
    Some(Moves {
        words,
        pairs,
        addresses,
        carries,
        counter: (counter, at_head),
        cmp_at,
        counter_operand,
    })
}
