//! A static proof, made before a launch, that its blocks cannot touch a global word that another
//! block writes: the launch then needs no determinism shadow (`mem::Shadow`), since blocks that
//! share no written word give the same bytes in any order.
//!
//! The proof is conservative: any instruction, value or access it does not follow makes it fail,
//! and the shadow stands guard as before. It follows the kernel's lowered instructions:
//! - A register row's value is known when exactly one instruction writes it (unguarded), no thread
//!   can read it before that write ([`crate::zero_rows`]: a row some instruction may read before
//!   every path wrote it is no candidate) and that instruction computes an affine function of
//!   `%ctaid` and `%tid` from known values: `add`, `sub`, `mul.lo`/`mul.wide`/`mad.lo`/`mad.wide`
//!   by a constant, `shl` by a constant, integer `cvt`, `mov`, `cvta` of global addresses, and
//!   `ld.param` of the launch's arguments (their values known now), and `selp` whose predicate
//!   compares two launch constants (the same choice in every thread). Every value, operand and
//!   result, must lie in `[0, 2^(bits - 1))` of its type over every block and thread, so the
//!   machine's wrapping, sign and zero extensions are the integers' own arithmetic (a constant
//!   added or subtracted counts as its low bits read signed: `n - 1` is `n + 0xffffffff`).
//! - Every global (or generic) `ld`, `st`, `atom` and `red` must have a known address whose bytes,
//!   over the whole grid, lie in one region of the space. Accesses whose byte spans meet where
//!   one of them writes form a group; a group with a write must have one linear part (the same
//!   factors of every `%ctaid` and `%tid` dimension), every grid dimension of more than one block
//!   must have a factor, and the factors, with the group's different constant offsets as one more
//!   term, must be a mixed radix from the smallest block factor up: each at least the most the
//!   smaller terms can add plus the widest access. Two different blocks then differ in some block
//!   dimension, and the largest term with a difference separates their bytes. Accesses narrower
//!   than a word (bytes, halves) are separated the same way, in bytes: a store of 1 or 2 bytes
//!   changes only its own bits of the word (two atomic operations), so blocks that write
//!   different bytes of one word keep each other's.
//! - Guards only take threads away, so they cannot make accesses meet; what they tell bounds the
//!   accesses that remain (a grid overhanging its data, `if (i < n)`, `if (ix < nx && iy < ny)`,
//!   an early `return`). A must-analysis over the control flow finds the predicates every path to
//!   an access has tested (branches taken or not, guarded exits, the access's own guard), each
//!   written once, unguarded, by a comparison of known integers or an `and`/`or`/`not` of such
//!   predicates, and written on every path before it is read. Their facts (`e >= 0`, affine in
//!   `%ctaid`/`%tid`) bound, where an access's factors are proportional to a fact's, the greatest
//!   address (the region's check) and the mixed radix's sum of the smaller terms.
//! - One loop: a kernel with exactly one backward branch (conditional), a body without other
//!   branches or exits that no branch enters past its head, and rows written once before it and
//!   once in it by `row += step` (`step` a positive constant): such a row is `first + K step`,
//!   `K` the iterations done, in the body up to its update (unknown after it). The exit test
//!   after the update (`i < m` or `i <= m`, `m` known) and a guard before the loop saying
//!   `first <= M` give `first + K step <= M` at every iteration: a grid-stride loop
//!   (`i += blockDim.x * gridDim.x`) is then a mixed radix whose largest term is `K`.
//! - A read whose address is not affine (a neighbour's index clamped by `min`/`max`, a `selp`)
//!   needs only bounds: the least and greatest value of its address through `min`, `max`, `selp`,
//!   additions, products and shifts by constants and integer conversions of affine values (their
//!   least and greatest values where the access's guards hold: a fact whose factors are
//!   proportional to the value's bounds it either way), every operand and result inside its type's
//!   range. A `selp` bounds each side with what its predicate (a comparison the guards' rules
//!   follow) says there: `x > 0 ? x - 1 : 0` is never negative, `x < m ? x + 1 : m` never past
//!   `m`. `x & m` (`m` a constant) is within `[0, m]` read unsigned, whatever `x`, and rounds a
//!   known `x` down where `m` is all ones above its low zeros (`x & ~127`); `x | y` of known
//!   non-negative values lies between the larger and the sum; `x >> k` (constant `k`) divides
//!   known bounds by `2^k` (either signedness), or an unknown unsigned `x`'s whole range; `rem.u`
//!   by a positive constant `c` is within `[0, c - 1]` whatever `x`, `rem.s` only of an `x` known
//!   non-negative. Its bytes must lie in one region and meet no byte a write of the launch may
//!   touch.
//! - A refusal says which instruction or access and which rule failed (`WARPSCOPE_TIMING=1`
//!   prints it after the launch's timing line).
//! - Any other instruction that may touch global memory (a call, `cp.async`, TMA, textures and
//!   surfaces, printf, the device runtime, ...) makes the proof fail.

use warpscope_ptx::inst::{
    BinOp, BoolOp, Cmp, Inst, MemSpace, NO_REG, Op, P, PRED_TRUE, PSrc, R, RowInit, Special, TernOp, Ty, UnOp,
};
use warpscope_ptx::{InstInfo, Kernel};

/// Whether launches may use the proof: not with `WARPSCOPE_SHADOW_PROOF=0` in the environment, a
/// measurement switch that keeps the shadow on every launch that runs in parallel (the results are
/// the same bytes either way).
pub(crate) fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("WARPSCOPE_SHADOW_PROOF").is_none_or(|v| v != "0"))
}

/// `%ctaid.x/y/z`, `%tid.x/y/z`, then the count of a loop's iterations done so far.
const VARS: usize = 7;
/// The loop's iteration variable.
const K: usize = 6;
/// Kernels with more global accesses than this are not followed.
const MAX_ACCESSES: usize = 2048;
/// Every variable, as a mask.
const ALL: u32 = (1 << VARS) - 1;

/// `k + sum c[v] var[v]` over the launch's `%ctaid` and `%tid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Aff {
    k: i128,
    c: [i128; VARS],
}

impl Aff {
    fn konst(k: i128) -> Aff {
        Aff { k, c: [0; VARS] }
    }

    fn var(v: usize) -> Aff {
        let mut c = [0; VARS];
        c[v] = 1;
        Aff { k: 0, c }
    }

    fn is_const(&self) -> bool {
        self.c.iter().all(|&c| c == 0)
    }

    fn add(&self, o: &Aff, sign: i128) -> Aff {
        Aff {
            k: self.k + sign * o.k,
            c: std::array::from_fn(|v| self.c[v] + sign * o.c[v]),
        }
    }

    fn scale(&self, f: i128) -> Option<Aff> {
        // bounded far below i128's range: factors of values already inside 64 bits
        (f.unsigned_abs() < 1 << 64).then(|| Aff {
            k: self.k * f,
            c: std::array::from_fn(|v| self.c[v] * f),
        })
    }

    /// The least and greatest value over the grid (`n`: each variable's count of values).
    fn range(&self, n: &[u64; VARS]) -> (i128, i128) {
        let (mut lo, mut hi) = (self.k, self.k);
        for (&c, &count) in self.c.iter().zip(n) {
            let span = c * (i128::from(count) - 1);
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
        }
        (lo, hi)
    }
}

/// The launch's grid and block as the variables' counts.
struct Shape {
    n: [u64; VARS],
}

impl Shape {
    /// `a` when it lies in `[0, 2^(bits - 1))` over the grid.
    fn fits(&self, a: Aff, bits: u32) -> Option<Aff> {
        let (lo, hi) = a.range(&self.n);
        (lo >= 0 && hi < 1i128 << (bits - 1)).then_some(a)
    }
}

/// What a proof found: the regions (indices of the spans given) the launch may write.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Proof {
    pub written: Vec<usize>,
}

/// One global access of the kernel.
struct Access {
    a: Aff,
    /// What holds for every thread that makes the access (each `e >= 0`): its guards.
    facts: Vec<Aff>,
    w: u64,
    lo: i128,
    hi: i128,
    write: bool,
}

/// A row a loop steps: written once before the loop (`init`) and once in it (`upd`: `row += step`,
/// `step` a positive constant).
#[derive(Clone, Copy, Debug)]
struct Induction {
    row: R,
    init: usize,
    upd: usize,
    step: R,
}

/// The kernel's one backward branch (at `back`, to `head`), with a body free of other branches
/// and exits, and the rows it steps.
#[derive(Clone, Debug)]
struct Loop {
    head: usize,
    back: usize,
    ind: Vec<Induction>,
}

/// The kernel's loop, when it has exactly one backward branch (conditional), no branch, exit or
/// call in its body, no branch from outside into it past its head, and rows stepped by constants.
fn find_loop(ops: &[Op], entry: u32, writers: &[Vec<usize>]) -> Option<Loop> {
    let target = |op: &Op| match op.inst {
        Inst::Bra { target, .. } => (target as usize).checked_sub(entry as usize),
        _ => None,
    };
    let mut back = None;
    for (pc, op) in ops.iter().enumerate() {
        if let Some(t) = target(op)
            && t <= pc
        {
            if back.is_some() {
                return None;
            }
            back = Some((t, pc));
        }
    }
    let (head, back) = back?;
    if ops[back].guard == PSrc::TRUE {
        return None;
    }
    if ops[head..back].iter().any(|op| {
        matches!(
            op.inst,
            Inst::Bra { .. } | Inst::Exit | Inst::Trap | Inst::Call { .. }
        )
    }) {
        return None;
    }
    if ops
        .iter()
        .any(|op| target(op).is_some_and(|t| t > head && t <= back))
    {
        return None;
    }
    let mut ind = Vec::new();
    for (r, w) in writers.iter().enumerate() {
        let &[init, upd] = w.as_slice() else { continue };
        if init >= head || upd < head || upd >= back || ops[upd].guard != PSrc::TRUE {
            continue;
        }
        let row = r as R;
        let step = match ops[upd].inst {
            Inst::Bin {
                op: BinOp::Add,
                ty,
                d,
                a,
                b,
            } if d == row && int_bits(ty).is_some() => {
                if a == row && b != row {
                    b
                } else if b == row && a != row {
                    a
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        ind.push(Induction { row, init, upd, step });
    }
    (!ind.is_empty()).then_some(Loop { head, back, ind })
}

/// Where a row's single write is.
#[derive(Clone, Copy)]
enum Def {
    None,
    Preset(RowInit),
    At(usize),
    Many,
}

/// The rows an instruction the proof knows writes (`None`: an instruction it does not follow),
/// and its global access as (address row, offset, bytes, writes).
#[allow(clippy::type_complexity)]
fn effects(i: &Inst) -> Option<(Vec<R>, Option<(R, i32, u64, bool)>)> {
    let global = |s: MemSpace| matches!(s, MemSpace::Global | MemSpace::Generic);
    Some(match *i {
        Inst::Un { d, .. }
        | Inst::Bin { d, .. }
        | Inst::Tern { d, .. }
        | Inst::FRound { d, .. }
        | Inst::Bfi { d, .. }
        | Inst::Selp { d, .. }
        | Inst::Set { d, .. }
        | Inst::Cvt { d, .. }
        | Inst::Cvta { d, .. }
        | Inst::PredToReg { d, .. }
        | Inst::Pack2 { d, .. }
        | Inst::Lop3 { d, .. }
        | Inst::ActiveMask { d }
        | Inst::Clock { d }
        | Inst::Redux { d, .. }
        | Inst::Elect { d, .. }
        | Inst::Match { d, .. }
        | Inst::Vote { d, .. }
        | Inst::Shfl { d, .. }
        | Inst::MovMatrix { d, .. }
        | Inst::BarRed { d, .. } => (vec![d], None),
        Inst::Carry { d, cc, .. } => (vec![d, cc], None),
        Inst::Unpack2 { d0, d1, .. } => (vec![d0, d1], None),
        Inst::Setp { .. }
        | Inst::PredOp { .. }
        | Inst::RegToPred { .. }
        | Inst::TestP { .. }
        | Inst::Bra { .. }
        | Inst::Exit
        | Inst::Trap
        | Inst::Nop
        | Inst::Bar { .. } => (vec![], None),
        Inst::Ld {
            space,
            ty,
            vec,
            addr32,
            sync,
            d,
            addr,
            off,
        } => {
            if !(1..=4).contains(&vec) || (global(space) && (addr32 || sync)) {
                return None;
            }
            let acc = global(space).then_some((addr, off, u64::from(ty.bytes()) * u64::from(vec), false));
            (d[..vec as usize].to_vec(), acc)
        }
        Inst::St {
            space,
            ty,
            vec,
            addr32,
            addr,
            off,
            ..
        } => {
            if !(1..=4).contains(&vec) || (global(space) && addr32) {
                return None;
            }
            let acc = global(space).then_some((addr, off, u64::from(ty.bytes()) * u64::from(vec), true));
            (vec![], acc)
        }
        Inst::Atom {
            space,
            ty,
            addr32,
            d,
            addr,
            off,
            ..
        } => {
            if global(space) && addr32 {
                return None;
            }
            let acc = global(space).then_some((addr, off, u64::from(ty.bytes()), true));
            (vec![d], acc)
        }
        _ => return None,
    })
}

/// The values of the kernel's rows, as far as the proof follows them.
struct Values<'a> {
    ops: &'a [Op],
    /// The kernel's first pc (branch targets count from it).
    entry: u32,
    /// The kernel's one loop (its first and last pc, the back edge) and its induction rows.
    lp: Option<Loop>,
    /// The pc whose operands are being read (the induction rows' values depend on it).
    cur_pc: usize,
    defs: Vec<Def>,
    /// Rows some instruction may read before a write reached it.
    unsafe_rows: Vec<bool>,
    params: &'a [u8],
    grid: [u32; 3],
    block: [u32; 3],
    shape: Shape,
    memo: Vec<Option<Option<Aff>>>,
    /// Why a row memoised as unknown is unknown.
    memo_why: Vec<Option<(usize, String)>>,
    /// Each row's first writers (`usize::MAX`: preset), for the reasons of a refusal.
    writers: Vec<Vec<usize>>,
    /// Why the kernel's loop is not followed, when it has backward branches the proof does not follow.
    loop_note: Option<&'static str>,
    /// The first value found unknown since the last reset, and why (the pc that reads or writes it).
    why: Option<(usize, String)>,
}

/// Bits of an integer type (`None` for floats and predicates).
fn int_bits(ty: Ty) -> Option<u32> {
    (!ty.float() && ty != Ty::Pred).then(|| ty.bytes() * 8)
}

impl Values<'_> {
    /// `None`, noting (when nothing deeper was noted) that pc `cur_pc` met an unknown value for `why`.
    fn unknown<T>(&mut self, why: impl FnOnce(&Self) -> String) -> Option<T> {
        if self.why.is_none() {
            self.why = Some((self.cur_pc, why(self)));
        }
        None
    }

    fn value(&mut self, r: R) -> Option<Aff> {
        let i = usize::from(r);
        if r == NO_REG || i >= self.defs.len() {
            return self.unknown(|_| "an operand that is no register row".into());
        }
        if self.unsafe_rows[i] {
            return self.unknown(|_| "an operand some path may read before any write".into());
        }
        if let Some(lp) = &self.lp
            && let Some(j) = lp.ind.iter().position(|x| x.row == r)
        {
            let v = self.induction(j);
            if v.is_none() {
                return self
                    .unknown(|_| "a row the loop steps, read after its update or after the loop".into());
            }
            return v;
        }
        if let Some(v) = self.memo[i] {
            if v.is_none() && self.why.is_none() {
                self.why = self.memo_why[i].clone();
            }
            return v;
        }
        // a row that reads itself (through others) is no known value
        self.memo[i] = Some(None);
        let v = match self.defs[i] {
            Def::Preset(init) => {
                let v = self.preset(init);
                if v.is_none() {
                    self.unknown(|_| {
                        format!("a special register ({init:?}) other than %ctaid, %tid, %nctaid, %ntid")
                    })
                } else {
                    v
                }
            }
            Def::At(pc) => self.computed(pc),
            Def::None => self.unknown(|_| "an operand no instruction writes".into()),
            Def::Many => self.unknown(|v| {
                let w: Vec<usize> = v.writers[i]
                    .iter()
                    .copied()
                    .filter(|&w| w != usize::MAX)
                    .collect();
                format!(
                    "an operand written by {} instructions (pcs {w:?}{}){}",
                    if w.len() >= 3 {
                        "3 or more".to_string()
                    } else {
                        w.len().to_string()
                    },
                    if w.len() >= 3 { ", ..." } else { "" },
                    v.loop_note.map(|n| format!("; {n}")).unwrap_or_default()
                )
            }),
        };
        self.memo[i] = Some(v);
        if v.is_none() {
            self.memo_why[i] = self.why.clone();
        }
        v
    }

    fn preset(&self, init: RowInit) -> Option<Aff> {
        Some(match init {
            RowInit::Const(c) => Aff::konst(i128::from(c)),
            RowInit::Special(Special::Ctaid(d)) if d < 3 => Aff::var(usize::from(d)),
            RowInit::Special(Special::Tid(d)) if d < 3 => Aff::var(3 + usize::from(d)),
            RowInit::Special(Special::Nctaid(d)) if d < 3 => {
                Aff::konst(i128::from(self.grid[usize::from(d)]))
            }
            RowInit::Special(Special::Ntid(d)) if d < 3 => Aff::konst(i128::from(self.block[usize::from(d)])),
            RowInit::Special(_) => return None,
        })
    }

    /// `r`'s value as an operand of `bits` bits.
    fn operand(&mut self, r: R, bits: u32) -> Option<Aff> {
        let v = self.value(r)?;
        self.shape.fits(v, bits)
    }

    /// `r`'s value as an operand of an `add` or `sub` of `bits` bits: a constant as its low
    /// `bits` bits read signed (`n - 1` is `n + 0xffffffff`: the sum modulo 2^bits is the same,
    /// and the result must still lie in `[0, 2^(bits - 1))`), anything else as [`Self::operand`].
    fn addend(&mut self, r: R, bits: u32) -> Option<Aff> {
        let v = self.value(r)?;
        if v.is_const() && !(0..1i128 << (bits - 1)).contains(&v.k) {
            let low = v.k & ((1i128 << bits) - 1);
            let k = if low >> (bits - 1) & 1 != 0 {
                low - (1i128 << bits)
            } else {
                low
            };
            return Some(Aff::konst(k));
        }
        self.shape.fits(v, bits)
    }

    /// Induction row `j` of the loop where pc `cur_pc` reads it: its first value before the loop,
    /// `first + K step` in the loop up to its update, unknown elsewhere.
    fn induction(&mut self, j: usize) -> Option<Aff> {
        let lp = self.lp.as_ref()?;
        let x = lp.ind[j];
        let (head, pc) = (lp.head, self.cur_pc);
        if pc > x.init && pc < head {
            self.at(x.init, |v| v.computed(x.init))
        } else if pc >= head && pc <= x.upd {
            let first = self.at(x.init, |v| v.computed(x.init))?;
            let step = self.at(x.upd, |v| v.value(x.step))?;
            if !step.is_const() || step.k <= 0 {
                return None;
            }
            Some(first.add(&Aff::var(K).scale(step.k)?, 1))
        } else {
            None
        }
    }

    /// `f` with `cur_pc` at `pc`.
    fn at<T>(&mut self, pc: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let old = std::mem::replace(&mut self.cur_pc, pc);
        let r = f(self);
        self.cur_pc = old;
        r
    }

    fn computed(&mut self, pc: usize) -> Option<Aff> {
        self.at(pc, |v| v.computed_here(pc))
    }

    fn computed_here(&mut self, pc: usize) -> Option<Aff> {
        let v = self.computed_inner(pc);
        if v.is_none() {
            return self.unknown(|_| "a value the proof does not follow (not an affine function of %ctaid and %tid, or one that may be negative or wrap)".into());
        }
        v
    }

    fn computed_inner(&mut self, pc: usize) -> Option<Aff> {
        let op = self.ops[pc];
        if op.guard != PSrc::TRUE {
            return self.unknown(|_| "a row written under a guard".into());
        }
        let r =
            match op.inst {
                Inst::Un {
                    op: UnOp::Mov, ty, a, ..
                } => {
                    let b = int_bits(ty)?;
                    (b, self.operand(a, b)?)
                }
                Inst::Bin { op, ty, a, b, .. } => {
                    let n = int_bits(ty)?;
                    match op {
                    BinOp::Add | BinOp::Sub => {
                        let (x, y) = (self.addend(a, n)?, self.addend(b, n)?);
                        (n, x.add(&y, if op == BinOp::Add { 1 } else { -1 }))
                    }
                    BinOp::MulLo | BinOp::MulWide => {
                        let (x, y) = (self.operand(a, n)?, self.operand(b, n)?);
                        let p = if y.is_const() {
                            x.scale(y.k)?
                        } else if x.is_const() {
                            y.scale(x.k)?
                        } else {
                            return self
                                .unknown(|_| "a product of two values that vary over the grid".into());
                        };
                        (if op == BinOp::MulWide { 2 * n } else { n }, p)
                    }
                    BinOp::Shl => {
                        let (x, y) = (self.operand(a, n)?, self.value(b)?);
                        if !y.is_const() || !(0..i128::from(n)).contains(&y.k) {
                            return None;
                        }
                        (n, x.scale(1 << y.k)?)
                    }
                    // launch constants folded (`(n - 1) / 16` as nvcc writes it: shifts and adds)
                    BinOp::Shr | BinOp::And | BinOp::Or | BinOp::Xor => {
                        let (x, y) = (self.value(a), self.value(b));
                        let (Some(x), Some(y)) = (x.filter(Aff::is_const), y.filter(Aff::is_const)) else {
                            return self.unknown(|_| {
                                format!(
                                    "an operation ({op:?}) other than add, sub, mul by a constant, shl by a \
                                     constant, of values that vary over the grid"
                                )
                            });
                        };
                        let mask = (1i128 << n) - 1;
                        let (x, y) = (x.k & mask, y.k & mask);
                        let v = match op {
                            BinOp::And => x & y,
                            BinOp::Or => x | y,
                            BinOp::Xor => x ^ y,
                            _ => {
                                // the shift amount is a u32; past the width, the sign fills
                                let k = (y & 0xffff_ffff).min(i128::from(n));
                                let signed = if ty.signed() && x >> (n - 1) & 1 != 0 {
                                    x - (1i128 << n)
                                } else {
                                    x
                                };
                                if ty.signed() { signed >> k } else { x >> k }
                            }
                        };
                        (n, Aff::konst(v & mask))
                    }
                    _ => return self.unknown(|_| {
                        format!(
                            "an operation ({op:?}) other than add, sub, mul by a constant, shl by a constant"
                        )
                    }),
                }
                }
                Inst::Tern {
                    op: op @ (TernOp::MadLo | TernOp::MadWide),
                    ty,
                    a,
                    b,
                    c,
                    ..
                } => {
                    let n = int_bits(ty)?;
                    let wide = op == TernOp::MadWide;
                    let out = if wide { 2 * n } else { n };
                    let (x, y, z) = (self.operand(a, n)?, self.operand(b, n)?, self.operand(c, out)?);
                    let p = if y.is_const() {
                        x.scale(y.k)?
                    } else if x.is_const() {
                        y.scale(x.k)?
                    } else {
                        return self.unknown(|_| "a product of two values that vary over the grid".into());
                    };
                    // the product alone must not wrap either
                    self.shape.fits(p, out)?;
                    (out, p.add(&z, 1))
                }
                Inst::Cvt { dty, sty, a, .. } => {
                    let (db, sb) = (int_bits(dty)?, int_bits(sty)?);
                    (db, self.operand(a, sb)?)
                }
                Inst::Cvta {
                    space: MemSpace::Global,
                    a,
                    ..
                } => (64, self.operand(a, 64)?),
                // `p ? x : y` where the predicate is the same for every thread (a comparison of
                // launch constants): the value it picks
                Inst::Selp { ty, a, b, p, .. } => {
                    let n = int_bits(ty)?;
                    let Some(t) = self.constant_pred(pc, p) else {
                        return self.unknown(|_| {
                            "a selp whose predicate is not a comparison of launch constants".into()
                        });
                    };
                    (n, self.operand(if t { a } else { b }, n)?)
                }
                Inst::Ld {
                    space: MemSpace::KernelParam,
                    ty,
                    vec: 1,
                    sync: false,
                    addr,
                    off,
                    ..
                } => {
                    let n = int_bits(ty)?;
                    let at = self.value(addr)?;
                    if !at.is_const() {
                        return None;
                    }
                    let from = usize::try_from(at.k + i128::from(off)).ok()?;
                    let bytes = self.params.get(from..from.checked_add(n as usize / 8)?)?;
                    let mut raw = [0u8; 8];
                    raw[..bytes.len()].copy_from_slice(bytes);
                    let mut v = i128::from(u64::from_le_bytes(raw));
                    if ty.signed() && v >> (n - 1) & 1 != 0 {
                        v -= 1i128 << n;
                    }
                    (n, Aff::konst(v))
                }
                _ => return self.unknown(|_| {
                    "an instruction other than an integer add, sub, mul, mad, shl, cvt, mov, cvta or ld.param"
                        .into()
                }),
            };
        let v = self.shape.fits(r.1, r.0);
        if v.is_none() {
            return self
                .unknown(|_| format!("a value that may be negative or pass 2^{} over the grid", r.0 - 1));
        }
        v
    }
}

impl Values<'_> {
    /// The value predicate source `p` has at pc `pc` when it is the same for every thread: its
    /// one write, unguarded and on every path before `pc` (a `setp` without a combining operator)
    /// compares two constants inside `[0, 2^(bits - 1))`, where signed and unsigned comparisons
    /// agree.
    fn constant_pred(&mut self, pc: usize, p: PSrc) -> Option<bool> {
        if p.idx == PRED_TRUE {
            return Some(!p.neg);
        }
        let ops = self.ops;
        let mut at = None;
        for (i, op) in ops.iter().enumerate() {
            if pred_writes(&op.inst).contains(&p.idx) {
                if at.is_some() || op.guard != PSrc::TRUE || i >= pc {
                    return None;
                }
                at = Some(i);
            }
        }
        let s = at?;
        // written once, before `pc`, on every path from the entry to `pc`
        if !dominates(ops, self.entry, s, pc) {
            return None;
        }
        let Inst::Setp {
            cmp,
            ty,
            p: pp,
            q,
            a,
            b,
            bop: None,
            ..
        } = ops[s].inst
        else {
            return None;
        };
        let n = int_bits(ty)?;
        let x = self.at(s, |v| v.operand(a, n))?;
        let y = self.at(s, |v| v.operand(b, n))?;
        if !x.is_const() || !y.is_const() {
            return None;
        }
        let (x, y) = (x.k, y.k);
        let t = match cmp {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt | Cmp::Lo => x < y,
            Cmp::Le | Cmp::Ls => x <= y,
            Cmp::Gt | Cmp::Hi => x > y,
            Cmp::Ge | Cmp::Hs => x >= y,
            _ => return None,
        };
        let t = if p.idx == pp {
            t
        } else if p.idx == q {
            !t
        } else {
            return None;
        };
        Some(t != p.neg)
    }
}

/// Whether every path from the kernel's entry to pc `to` passes pc `from` (`entry`: the kernel's
/// first pc, which branch targets count from).
fn dominates(ops: &[Op], entry: u32, from: usize, to: usize) -> bool {
    let Some(succ) = successors(ops, entry) else {
        return false;
    };
    // reach `to` from the entry without passing `from`
    let mut seen = vec![false; ops.len()];
    let mut work = vec![0usize];
    while let Some(pc) = work.pop() {
        if pc == from || seen[pc] {
            continue;
        }
        if pc == to {
            return false;
        }
        seen[pc] = true;
        work.extend(succ[pc].iter().map(|&(t, _)| t));
    }
    true
}

/// The predicates an instruction the proof follows writes.
fn pred_writes(i: &Inst) -> Vec<P> {
    let v = match *i {
        Inst::Setp { p, q, .. } => vec![p, q],
        Inst::PredOp { d, .. } | Inst::RegToPred { d, .. } => vec![d],
        Inst::TestP { p, .. }
        | Inst::Shfl { p, .. }
        | Inst::Match { p, .. }
        | Inst::Vote { p, .. }
        | Inst::BarRed { p, .. }
        | Inst::Elect { p, .. } => vec![p],
        _ => vec![],
    };
    v.into_iter().filter(|&p| p != PRED_TRUE).collect()
}

/// A predicate and its value on an edge of the control flow.
type Edge = Option<(P, bool)>;

/// Where control may go after each pc (`None`: a branch out of the kernel), each with what the
/// edge tells of a predicate (taken, a guarded branch's predicate is `!neg`; not taken, `neg`).
fn successors(ops: &[Op], entry: u32) -> Option<Vec<Vec<(usize, Edge)>>> {
    ops.iter()
        .enumerate()
        .map(|(pc, op)| {
            let g = op.guard;
            let cond = |taken: bool| (g.idx != PRED_TRUE).then_some((g.idx, taken != g.neg));
            let next = pc + 1;
            let all = match op.inst {
                Inst::Bra { target, .. } => {
                    let t = (target as usize)
                        .checked_sub(entry as usize)
                        .filter(|&t| t < ops.len())?;
                    if g == PSrc::TRUE {
                        vec![(t, None)]
                    } else {
                        vec![(t, cond(true)), (next, cond(false))]
                    }
                }
                Inst::Exit | Inst::Trap if g == PSrc::TRUE => vec![],
                Inst::Exit | Inst::Trap => vec![(next, cond(false))],
                _ => vec![(next, None)],
            };
            Some(all.into_iter().filter(|&(t, _)| t < ops.len()).collect())
        })
        .collect()
}

/// A must-analysis over bit sets: what holds at a pc on every path from the kernel's entry
/// (`None`: no path reaches it). `out`: the set after a pc along an edge.
fn must(
    succ: &[Vec<(usize, Edge)>],
    words: usize,
    out: impl Fn(usize, &[u64], Edge) -> Vec<u64>,
) -> Vec<Option<Vec<u64>>> {
    let mut at: Vec<Option<Vec<u64>>> = vec![None; succ.len()];
    if succ.is_empty() {
        return at;
    }
    at[0] = Some(vec![0; words]);
    let mut work = vec![0usize];
    while let Some(pc) = work.pop() {
        let Some(s) = at[pc].clone() else { continue };
        for &(t, e) in &succ[pc] {
            let o = out(pc, &s, e);
            let new = match &at[t] {
                None => o,
                Some(old) => old.iter().zip(&o).map(|(a, b)| a & b).collect(),
            };
            if at[t].as_ref() != Some(&new) {
                at[t] = Some(new);
                work.push(t);
            }
        }
    }
    at
}

fn bit(s: &[u64], i: usize) -> bool {
    s.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
}

fn set_bit(s: &mut [u64], i: usize) {
    if let Some(w) = s.get_mut(i / 64) {
        *w |= 1 << (i % 64);
    }
}

/// What the guards of a kernel tell of the threads that reach each pc: the values of predicates
/// (written once, by a comparison of known values or a logic of such predicates) on the branches
/// every path to the pc took.
struct Guards {
    /// The predicates every path to a pc wrote (before the pc).
    written: Vec<Option<Vec<u64>>>,
    /// The predicates' values known at a pc (bit `2 p + value`).
    known: Vec<Option<Vec<u64>>>,
    /// Each predicate's single unguarded write (`None`: none or several, or guarded).
    pdef: Vec<Option<usize>>,
    /// The loop's pcs: a predicate written there may change from one iteration to the next.
    body: Option<(usize, usize)>,
}

impl Guards {
    fn new(ops: &[Op], entry: u32, n_preds: usize) -> Option<Guards> {
        let succ = successors(ops, entry)?;
        let mut count = vec![0u32; n_preds];
        let mut pdef = vec![None; n_preds];
        for (pc, op) in ops.iter().enumerate() {
            for p in pred_writes(&op.inst) {
                let k = usize::from(p);
                *count.get_mut(k)? += 1;
                pdef[k] = (op.guard == PSrc::TRUE).then_some(pc);
            }
        }
        for (d, c) in pdef.iter_mut().zip(&count) {
            if *c != 1 {
                *d = None;
            }
        }
        let words = n_preds.div_ceil(64);
        let written = must(&succ, words, |pc, s, _| {
            let mut o = s.to_vec();
            if ops[pc].guard == PSrc::TRUE {
                for p in pred_writes(&ops[pc].inst) {
                    set_bit(&mut o, usize::from(p));
                }
            }
            o
        });
        let known = must(&succ, (2 * n_preds).div_ceil(64), |pc, s, e| {
            let mut o = s.to_vec();
            if let Some((p, v)) = e {
                let p = usize::from(p);
                // the branch reads the predicate: known only when every path wrote it
                if written[pc].as_ref().is_some_and(|w| bit(w, p)) {
                    set_bit(&mut o, 2 * p + usize::from(v));
                }
            }
            o
        });
        Some(Guards {
            written,
            known,
            pdef,
            body: None,
        })
    }

    /// What holds (each `e >= 0`) for every thread that executes pc `pc` (its own guard included).
    fn facts(&self, values: &mut Values, pc: usize) -> Vec<Aff> {
        let Some(known) = &self.known[pc] else {
            return vec![];
        };
        let mut out = Vec::new();
        for i in 0..known.len() * 64 {
            if bit(known, i) {
                self.implied(values, (i / 2) as P, i % 2 == 1, 0, &mut out);
            }
        }
        let g = values.ops[pc].guard;
        if g.idx != PRED_TRUE
            && self.written[pc]
                .as_ref()
                .is_some_and(|w| bit(w, usize::from(g.idx)))
        {
            self.implied(values, g.idx, !g.neg, 0, &mut out);
        }
        out
    }

    /// What predicate `p` having value `v` (where it is read after its write) tells, into `out`.
    fn implied(&self, values: &mut Values, p: P, v: bool, depth: u32, out: &mut Vec<Aff>) {
        let Some(&Some(s)) = self.pdef.get(usize::from(p)) else {
            return;
        };
        if depth > 8 || self.body.is_some_and(|(h, e)| (h..=e).contains(&s)) {
            return;
        }
        let written =
            |q: P| q != PRED_TRUE && self.written[s].as_ref().is_some_and(|w| bit(w, usize::from(q)));
        // a predicate source `c` having truth `t`, where pc `s` reads it
        let lit = |g: &Self, values: &mut Values, c: PSrc, t: bool, out: &mut Vec<Aff>| {
            if written(c.idx) {
                g.implied(values, c.idx, t != c.neg, depth + 1, out);
            }
        };
        match values.ops[s].inst {
            Inst::Setp {
                cmp,
                ty,
                p: pp,
                q,
                a,
                b,
                bop,
                c,
            } => {
                // p = (a cmp b) bop c, q = !(a cmp b) bop c
                let flip = if p == pp {
                    false
                } else if p == q {
                    true
                } else {
                    return;
                };
                // the operands as pc `s` reads them
                let part = |values: &mut Values, t: bool, out: &mut Vec<Aff>| {
                    values.at(s, |v| compared(v, cmp, ty, a, b, t != flip, out));
                };
                match (bop, v) {
                    (None, _) => part(values, v, out),
                    (Some(BoolOp::And), true) => {
                        part(values, true, out);
                        lit(self, values, c, true, out);
                    }
                    (Some(BoolOp::Or), false) => {
                        part(values, false, out);
                        lit(self, values, c, false, out);
                    }
                    _ => {}
                }
            }
            Inst::PredOp { op, a, b, .. } => match (op, v) {
                (BoolOp::And, true) => {
                    lit(self, values, a, true, out);
                    lit(self, values, b, true, out);
                }
                // `not.pred` is `and` with true: false says the other side is false
                (BoolOp::And, false) if b == PSrc::TRUE => lit(self, values, a, false, out),
                (BoolOp::And, false) if a == PSrc::TRUE => lit(self, values, b, false, out),
                (BoolOp::Or, false) => {
                    lit(self, values, a, false, out);
                    lit(self, values, b, false, out);
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// The loop's count of iterations over the grid and what holds in its body (`e >= 0`): its exit
/// test `@p bra head` after the update of a stepped row `i` (`p`: `i < m` or `i <= m`, `m` known)
/// keeps `i <= M` at every iteration's start, and the guards before the loop give `first <= M`.
fn loop_bound(values: &mut Values, guards: &Guards, lp: &Loop) -> Option<(u64, Aff)> {
    let ops = values.ops;
    let g = ops[lp.back].guard;
    let c = guards.pdef.get(usize::from(g.idx)).copied().flatten()?;
    let Inst::Setp {
        cmp,
        ty,
        p,
        q,
        a,
        b,
        bop: None,
        ..
    } = ops[c].inst
    else {
        return None;
    };
    let x = *lp.ind.iter().find(|x| x.row == a)?;
    if !(x.upd < c && c < lp.back) {
        return None;
    }
    let bits = int_bits(ty)?;
    let m = values.at(c, |v| v.operand(b, bits))?;
    if !m.is_const() {
        return None;
    }
    // taken when the predicate is `!neg`: when (a cmp b) is `!neg`, or `neg` for the `q` output
    let is_q = g.idx == q && g.idx != p;
    let want = g.neg == is_q;
    let most = match (cmp, want) {
        (Cmp::Lt | Cmp::Lo, true) | (Cmp::Ge | Cmp::Hs, false) => m.k - 1,
        (Cmp::Le | Cmp::Ls, true) | (Cmp::Gt | Cmp::Hi, false) => m.k,
        _ => return None,
    };
    let first = values.at(x.init, |v| v.computed(x.init))?;
    let step = values.at(x.upd, |v| v.value(x.step))?;
    if !step.is_const() || step.k <= 0 {
        return None;
    }
    // the loop's entry: a guard saying first <= most on every path to the head
    let n = values.shape.n;
    let lin = |a: &Aff| -> [i128; VARS] { std::array::from_fn(|v| if n[v] > 1 { a.c[v] } else { 0 }) };
    let want_c: [i128; VARS] = lin(&first).map(|c| -c);
    let entry = values.at(lp.head, |v| guards.facts(v, lp.head));
    if !entry.iter().any(|f| lin(f) == want_c && f.k + first.k <= most) {
        return None;
    }
    let (lo, _) = first.range(&n);
    let count = if most >= lo {
        (most - lo).div_euclid(step.k) + 1
    } else {
        1
    };
    let count = u64::try_from(count).ok().filter(|&c| c < 1 << 40)?;
    let mut fact = first.scale(-1)?.add(&Aff::konst(most), 1);
    fact.c[K] = -step.k;
    Some((count, fact))
}

/// The least and greatest value of row `r` (as pc `cur_pc` reads it) read as an integer of
/// `bits` bits, signed or not, over the threads where `facts` hold: an affine value's range (its
/// greatest value where the facts hold), or, through `min`, `max`, `selp`, additions, products and
/// shifts by constants and integer conversions, the bounds of their operands. Every operand and
/// result must lie in its type's range (so the machine's wrapping is the integers' arithmetic).
fn bounds(
    values: &mut Values,
    guards: &Guards,
    facts: &[Aff],
    r: R,
    bits: u32,
    signed: bool,
    depth: u32,
) -> Option<(i128, i128)> {
    let in_type = |(lo, hi): (i128, i128), bits: u32, signed: bool| {
        let (min, max) = if signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        (lo >= min && hi <= max).then_some((lo, hi))
    };
    if depth > 32 || !(1..=64).contains(&bits) {
        return None;
    }
    let n = values.shape.n;
    // an immediate: its low `bits` bits as the reader reads them
    if let Some(Def::Preset(RowInit::Const(c))) = values.defs.get(usize::from(r)) {
        let low = i128::from(*c) & ((1i128 << bits) - 1);
        let v = if signed && low >> (bits - 1) & 1 != 0 {
            low - (1i128 << bits)
        } else {
            low
        };
        return Some((v, v));
    }
    if let Some(a) = values.value(r) {
        return in_type(affine_bounds(&a, &n, facts), bits, signed);
    }
    let i = usize::from(r);
    if r == NO_REG || i >= values.defs.len() || values.unsafe_rows[i] {
        return None;
    }
    let Def::At(d) = values.defs[i] else {
        return None;
    };
    let op = values.ops[d];
    if op.guard != PSrc::TRUE {
        return None;
    }
    let sub = |values: &mut Values, r: R, bits: u32, signed: bool| {
        values.at(d, |v| bounds(v, guards, facts, r, bits, signed, depth + 1))
    };
    // `r` as pc `d` reads it, read as `bits` bits: an immediate, or an affine value inside the
    // type's range (the integer the machine holds)
    let affine = |values: &mut Values, r: R, bits: u32, signed: bool| -> Option<Aff> {
        if let Some(Def::Preset(RowInit::Const(_))) = values.defs.get(usize::from(r)) {
            let (v, _) = values.at(d, |v| bounds(v, guards, &[], r, bits, signed, depth + 1))?;
            return Some(Aff::konst(v));
        }
        let a = values.at(d, |v| v.value(r))?;
        in_type(a.range(&n), bits, signed).map(|_| a)
    };
    // a constant operand's value read as `bits` bits
    let constant = |values: &mut Values, r: R, bits: u32, signed: bool| -> Option<i128> {
        let a = values.at(d, |v| v.value(r))?;
        if !a.is_const() {
            return None;
        }
        let low = a.k & ((1i128 << bits) - 1);
        Some(if signed && low >> (bits - 1) & 1 != 0 {
            low - (1i128 << bits)
        } else {
            low
        })
    };
    // `x` times a constant `y` (or the other way round)
    let times = |x: (i128, i128), y: (i128, i128)| -> Option<(i128, i128)> {
        let (x, c) = if y.0 == y.1 {
            (x, y.0)
        } else if x.0 == x.1 {
            (y, x.0)
        } else {
            return None;
        };
        (c.unsigned_abs() < 1 << 64).then(|| {
            if c >= 0 {
                (x.0 * c, x.1 * c)
            } else {
                (x.1 * c, x.0 * c)
            }
        })
    };
    let (v, rb, rs) = match op.inst {
        Inst::Un {
            op: UnOp::Mov, ty, a, ..
        } => {
            let b = int_bits(ty)?;
            (sub(values, a, b, signed)?, b, signed)
        }
        Inst::Bin { op: o, ty, a, b, .. } => {
            let nb = int_bits(ty)?;
            let s = ty.signed();
            match o {
                BinOp::Min | BinOp::Max => {
                    let (x, y) = (sub(values, a, nb, s)?, sub(values, b, nb, s)?);
                    let v = if o == BinOp::Min {
                        (x.0.min(y.0), x.1.min(y.1))
                    } else {
                        (x.0.max(y.0), x.1.max(y.1))
                    };
                    (v, nb, s)
                }
                BinOp::Add | BinOp::Sub => {
                    let sign = if o == BinOp::Add { 1 } else { -1 };
                    // both affine: the sum's own bounds, where the facts bound it either way
                    // (`x - 1` where `x > 0` is known non-negative)
                    if let (Some(x), Some(y)) = (affine(values, a, nb, s), affine(values, b, nb, s)) {
                        (affine_bounds(&x.add(&y, sign), &n, facts), nb, s)
                    } else {
                        let (x, y) = (sub(values, a, nb, s)?, sub(values, b, nb, s)?);
                        let v = if o == BinOp::Add {
                            (x.0 + y.0, x.1 + y.1)
                        } else {
                            (x.0 - y.1, x.1 - y.0)
                        };
                        (v, nb, s)
                    }
                }
                // `x & m` (`m` a constant): at most `m` read unsigned; at most `x` where `x` is
                // known; `m` all ones above its low zero bits (`x & ~127`) rounds `x` down, which
                // keeps its order
                BinOp::And => {
                    let (x, m) = match (constant(values, b, nb, false), constant(values, a, nb, false)) {
                        (Some(m), _) => (a, m),
                        (None, Some(m)) => (b, m),
                        (None, None) => return None,
                    };
                    let v = match sub(values, x, nb, false) {
                        Some((lo, hi)) => {
                            let low_zeros = m.trailing_zeros().min(nb);
                            if m == ((1i128 << nb) - 1) & !((1i128 << low_zeros) - 1) {
                                (lo & m, hi & m)
                            } else {
                                (0, hi.min(m))
                            }
                        }
                        None => (0, m),
                    };
                    (v, nb, false)
                }
                // `x | y` of non-negative values: at least either, at most their sum
                BinOp::Or => {
                    let (x, y) = (sub(values, a, nb, false)?, sub(values, b, nb, false)?);
                    ((x.0.max(y.0), x.1 + y.1), nb, false)
                }
                // `x >> k` (`k` a constant below the width): floor division by 2^k, which keeps
                // the order of signed (`shr.s`) and unsigned values alike; an unknown unsigned
                // value is still below 2^(bits - k)
                BinOp::Shr => {
                    let k = constant(values, b, 32, false)?;
                    if !(0..i128::from(nb)).contains(&k) {
                        return None;
                    }
                    let v = match sub(values, a, nb, s) {
                        Some((lo, hi)) => (lo >> k, hi >> k),
                        None if !s => (0, ((1i128 << nb) - 1) >> k),
                        None => return None,
                    };
                    (v, nb, s)
                }
                // `x % c` (`c` a positive constant): `rem.u` in [0, c - 1] whatever `x`, and at
                // most `x`; `rem.s` only where `x` is known non-negative (the remainder takes the
                // dividend's sign)
                BinOp::Rem => {
                    let c = constant(values, b, nb, s)?;
                    if c <= 0 {
                        return None;
                    }
                    let v = match sub(values, a, nb, s) {
                        Some((lo, hi)) if lo >= 0 => {
                            if hi < c {
                                (lo, hi)
                            } else {
                                (0, hi.min(c - 1))
                            }
                        }
                        None if !s => (0, c - 1),
                        _ => return None,
                    };
                    (v, nb, s)
                }
                BinOp::MulLo | BinOp::MulWide => {
                    let (x, y) = (sub(values, a, nb, s)?, sub(values, b, nb, s)?);
                    (times(x, y)?, if o == BinOp::MulWide { 2 * nb } else { nb }, s)
                }
                BinOp::Shl => {
                    let x = sub(values, a, nb, s)?;
                    let k = values.at(d, |v| v.value(b))?;
                    if !k.is_const() || !(0..i128::from(nb)).contains(&k.k) {
                        return None;
                    }
                    (times(x, (1 << k.k, 1 << k.k))?, nb, s)
                }
                _ => return None,
            }
        }
        Inst::Tern {
            op: o @ (TernOp::MadLo | TernOp::MadWide),
            ty,
            a,
            b,
            c,
            ..
        } => {
            let nb = int_bits(ty)?;
            let s = ty.signed();
            let out = if o == TernOp::MadWide { 2 * nb } else { nb };
            let (x, y, z) = (
                sub(values, a, nb, s)?,
                sub(values, b, nb, s)?,
                sub(values, c, out, s)?,
            );
            let p = in_type(times(x, y)?, out, s)?;
            ((p.0 + z.0, p.1 + z.1), out, s)
        }
        // `p ? x : y`: `x` where the predicate holds, with what it tells (`x > 0 ? x - 1 : 0`,
        // `x < m ? x + 1 : m`), `y` where it does not
        Inst::Selp { ty, a, b, p, .. } => {
            let nb = int_bits(ty)?;
            let (mut when, mut unless) = (facts.to_vec(), facts.to_vec());
            if p.idx != PRED_TRUE
                && guards.written[d]
                    .as_ref()
                    .is_some_and(|w| bit(w, usize::from(p.idx)))
            {
                guards.implied(values, p.idx, !p.neg, 0, &mut when);
                guards.implied(values, p.idx, p.neg, 0, &mut unless);
            }
            let x = values.at(d, |v| bounds(v, guards, &when, a, nb, signed, depth + 1))?;
            let y = values.at(d, |v| bounds(v, guards, &unless, b, nb, signed, depth + 1))?;
            ((x.0.min(y.0), x.1.max(y.1)), nb, signed)
        }
        Inst::Cvt { dty, sty, a, .. } => {
            let (db, sb) = (int_bits(dty)?, int_bits(sty)?);
            (sub(values, a, sb, sty.signed())?, db, dty.signed())
        }
        _ => return None,
    };
    // the result in its own type, then as the reader reads it
    let v = in_type(v, rb, rs)?;
    in_type(v, bits.min(rb), signed)
}

/// The least and greatest value of affine `a` over the grid where the facts hold: its range,
/// the greatest value [`max_positive`] allows, and each fact whose variables' factors are
/// proportional to `a`'s (`f = k + t lin(a) >= 0`): `lin(a) >= -k / t` for `t > 0`, `<=` for
/// `t < 0`.
fn affine_bounds(a: &Aff, n: &[u64; VARS], facts: &[Aff]) -> (i128, i128) {
    let (mut lo, _) = a.range(n);
    let mut hi = a.k + max_positive(&a.c, ALL, n, facts);
    let live = |v: usize| n[v] > 1;
    for f in facts {
        let Some(v0) = (0..VARS).find(|&v| live(v) && f.c[v] != 0) else {
            continue;
        };
        let (a0, f0) = (a.c[v0], f.c[v0]);
        // lin(a) f0 = a0 lin(f) over every live variable
        if a0 == 0 || (0..VARS).any(|v| live(v) && a.c[v] * f0 != f.c[v] * a0) {
            continue;
        }
        // lin(f) >= -f.k, so lin(a) = (a0 / f0) lin(f) is on the side a0 / f0's sign says
        let (mut num, mut den) = (a0 * -f.k, f0);
        if den < 0 {
            (num, den) = (-num, -den);
        }
        if (a0 > 0) == (f0 > 0) {
            lo = lo.max(a.k + (num + den - 1).div_euclid(den));
        } else {
            hi = hi.min(a.k + num.div_euclid(den));
        }
    }
    (lo, hi.max(lo))
}

/// What `a cmp b` (integers of type `ty`) having truth `t` tells, each `e >= 0`, into `out`.
fn compared(values: &mut Values, cmp: Cmp, ty: Ty, a: R, b: R, t: bool, out: &mut Vec<Aff>) {
    let Some(n) = int_bits(ty) else { return };
    // both in [0, 2^(n - 1)): signed and unsigned comparisons are the integers'
    let (Some(x), Some(y)) = (values.operand(a, n), values.operand(b, n)) else {
        return;
    };
    let one = Aff::konst(1);
    // x < y is y - x - 1 >= 0, x <= y is y - x >= 0
    let lt = |x: &Aff, y: &Aff| y.add(x, -1).add(&one, -1);
    let le = |x: &Aff, y: &Aff| y.add(x, -1);
    match (cmp, t) {
        (Cmp::Lt | Cmp::Lo, true) | (Cmp::Ge | Cmp::Hs, false) => out.push(lt(&x, &y)),
        (Cmp::Le | Cmp::Ls, true) | (Cmp::Gt | Cmp::Hi, false) => out.push(le(&x, &y)),
        (Cmp::Gt | Cmp::Hi, true) | (Cmp::Le | Cmp::Ls, false) => out.push(lt(&y, &x)),
        (Cmp::Ge | Cmp::Hs, true) | (Cmp::Lt | Cmp::Lo, false) => out.push(le(&y, &x)),
        (Cmp::Eq, true) | (Cmp::Ne, false) => {
            out.push(le(&x, &y));
            out.push(le(&y, &x));
        }
        _ => {}
    }
}

/// An upper bound of `sum c[v] var[v]` over the variables `vars` (a mask) whose factor is positive,
/// where the facts hold: a fact `sum a[v] var[v] <= m` (every `a[v] >= 0`) whose variables are all
/// among them with factors proportional to theirs bounds their part by `m` times the ratio, in
/// place of their counts; the others count each variable's greatest value.
fn max_positive(c: &[i128; VARS], vars: u32, n: &[u64; VARS], facts: &[Aff]) -> i128 {
    let pos: u32 = (0..VARS)
        .filter(|&v| vars >> v & 1 != 0 && c[v] > 0 && n[v] > 1)
        .fold(0, |m, v| m | 1 << v);
    let box_of = |m: u32| -> i128 {
        (0..VARS)
            .filter(|&v| m >> v & 1 != 0)
            .map(|v| c[v] * (i128::from(n[v]) - 1))
            .sum()
    };
    let mut used = 0u32;
    let mut total = 0i128;
    for f in facts {
        // f: k + sum d[v] var[v] >= 0, i.e. sum (-d[v]) var[v] <= k
        let mut supp = 0u32;
        let mut ok = true;
        for (v, (&count, &d)) in n.iter().zip(&f.c).enumerate() {
            if count > 1 && d != 0 {
                ok &= d < 0;
                supp |= 1 << v;
            }
        }
        if !ok || supp == 0 || supp & !pos != 0 || supp & used != 0 {
            continue;
        }
        let v0 = supp.trailing_zeros() as usize;
        let (c0, a0) = (c[v0], -f.c[v0]);
        if (0..VARS).any(|v| supp >> v & 1 != 0 && c[v] * a0 != c0 * -f.c[v]) {
            continue;
        }
        // sum over supp of c var = (c0 / a0) sum a var <= c0 m / a0 (m < 0: no thread gets here)
        let bound = (c0 * f.k.max(0)).div_euclid(a0);
        let whole = box_of(supp);
        if bound < whole {
            used |= supp;
            total += bound;
        }
    }
    total + box_of(pos & !used)
}

/// The rows a thread may read before it wrote them ([`crate::zero_rows::rows_to_zero`]), with
/// the instructions that analysis does not list but this proof follows (atomics, shuffles, votes,
/// ...) told to it as a plain instruction that reads and writes the same rows.
pub(crate) fn unwritten_rows(ops: &[Op], entry: u32, n_rows: u32, preset: &[R]) -> Vec<R> {
    let plain = |d: R, a: R, b: R, c: R| Inst::Tern {
        op: TernOp::MadLo,
        ty: Ty::U32,
        d,
        a,
        b,
        c,
    };
    let told: Vec<Op> = ops
        .iter()
        .map(|op| {
            let inst = match op.inst {
                Inst::Atom { d, addr, b, c, .. } => plain(d, addr, b, c),
                Inst::Shfl { d, a, b, c, .. } => plain(d, a, b, c),
                Inst::Vote { d, m, .. } => plain(d, m, NO_REG, NO_REG),
                Inst::Redux { d, a, m, .. } | Inst::Match { d, a, m, .. } => plain(d, a, m, NO_REG),
                Inst::Elect { d, m, .. } => plain(d, m, NO_REG, NO_REG),
                Inst::ActiveMask { d } | Inst::Clock { d } | Inst::PredToReg { d, .. } => {
                    plain(d, NO_REG, NO_REG, NO_REG)
                }
                Inst::Pack2 { d, a, b, .. } => plain(d, a, b, NO_REG),
                other => other,
            };
            Op {
                inst,
                guard: op.guard,
            }
        })
        .collect();
    crate::zero_rows::rows_to_zero(&told, entry, n_rows, preset)
}

/// Where pc `pc` of a kernel (`info`: its instructions' text and lines) is, for a reason.
fn at_pc(info: &[InstInfo], pc: usize) -> String {
    match info.get(pc) {
        Some(i) => {
            let line = i.loc.map(|l| format!("line {}, ", l.line)).unwrap_or_default();
            format!("{line}ptx line {} `{}`", i.ptx_line, i.text.trim())
        }
        None => format!("pc {pc}"),
    }
}

/// Whether the blocks of a launch of `kernel` (its instructions `ops`, pc `kernel.entry` first;
/// `info` their text and lines) with grid `grid`, block `block` and parameter bytes `params`
/// provably touch no global word another block writes, in a space of regions `spans` (base,
/// bytes; sorted by base). `unsafe_rows`: the rows a thread may read before it wrote them
/// ([`crate::zero_rows::rows_to_zero`]). A refusal says which instruction or access and which
/// rule failed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prove(
    ops: &[Op],
    info: &[InstInfo],
    kernel: &Kernel,
    params: &[u8],
    grid: [u32; 3],
    block: [u32; 3],
    unsafe_rows: &[R],
    spans: &[(u64, u64)],
) -> Result<Proof, String> {
    let n_rows = kernel.n_rows as usize;
    let mut defs = vec![Def::None; n_rows];
    let write = |defs: &mut Vec<Def>, r: R, d: Def| {
        if r == NO_REG {
            return Some(());
        }
        let slot = defs.get_mut(usize::from(r))?;
        *slot = match slot {
            Def::None => d,
            _ => Def::Many,
        };
        Some(())
    };
    let bad_row = || "a register row out of the kernel's range".to_string();
    // each row's writers (the first three; `usize::MAX`: preset)
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); n_rows];
    for &(r, init) in &kernel.row_init {
        write(&mut defs, r, Def::Preset(init)).ok_or_else(bad_row)?;
        if let Some(w) = writers.get_mut(usize::from(r)) {
            w.push(usize::MAX);
        }
    }
    let mut raw = Vec::new();
    for (pc, op) in ops.iter().enumerate() {
        let (writes, access) = effects(&op.inst).ok_or_else(|| {
            format!(
                "{}: an instruction the proof does not follow (it may touch global memory another way, or \
                 is a 32-bit or strong global access)",
                at_pc(info, pc)
            )
        })?;
        for r in writes {
            write(&mut defs, r, Def::At(pc)).ok_or_else(bad_row)?;
            if let Some(w) = writers.get_mut(usize::from(r))
                && w.len() < 3
            {
                w.push(pc);
            }
        }
        if let Some((addr, off, w, write)) = access {
            raw.push((pc, addr, off, w, write));
        }
    }
    let mut unsafe_mask = vec![false; n_rows];
    for &r in unsafe_rows {
        if let Some(m) = unsafe_mask.get_mut(usize::from(r)) {
            *m = true;
        }
    }
    let mut n = [
        u64::from(grid[0]),
        u64::from(grid[1]),
        u64::from(grid[2]),
        u64::from(block[0]),
        u64::from(block[1]),
        u64::from(block[2]),
        1,
    ];
    if n.contains(&0) {
        return Err("an empty grid or block".into());
    }
    let backward = ops
        .iter()
        .enumerate()
        .filter(|(pc, op)| {
            matches!(op.inst, Inst::Bra { target, .. } if (target as usize).checked_sub(kernel.entry as usize).is_some_and(|t| t <= *pc))
        })
        .count();
    let lp = find_loop(ops, kernel.entry, &writers);
    let loop_note = match (backward, &lp) {
        (0, _) => None,
        (1, None) => Some(
            "the kernel's loop is not followed (a branch or exit in its body, a branch into it, or no row \
             stepped by a constant)",
        ),
        (1, Some(_)) => None,
        _ => Some("the kernel has several loops (backward branches): only one is followed"),
    };
    let mut values = Values {
        ops,
        entry: kernel.entry,
        lp: lp.clone(),
        cur_pc: 0,
        defs,
        unsafe_rows: unsafe_mask,
        params,
        grid,
        block,
        shape: Shape { n },
        memo: vec![None; n_rows],
        memo_why: vec![None; n_rows],
        writers,
        loop_note,
        why: None,
    };
    let mut guards = Guards::new(ops, kernel.entry, kernel.n_preds as usize)
        .ok_or_else(|| "a branch out of the kernel's instructions".to_string())?;
    // the loop: its iterations bounded by its exit test and its entry's guard
    let mut loop_fact = None;
    if let Some(lp) = &lp {
        guards.body = Some((lp.head, lp.back));
        match loop_bound(&mut values, &guards, lp) {
            Some((count, fact)) => {
                n[K] = count;
                loop_fact = Some(fact);
            }
            // the rows it steps are unknown then
            None => {
                values.lp = None;
                values.loop_note = Some(
                    "the loop's count is not bounded (its exit test is not `i < m`/`i <= m` of a stepped row \
                     against a known value after the update, or no guard before the loop says the first value \
                     is within it)",
                );
            }
        }
        values.shape = Shape { n };
        values.memo = vec![None; n_rows];
        values.memo_why = vec![None; n_rows];
        values.why = None;
        // no stepped row may wrap over the iterations
        if let Some(lp) = &values.lp {
            for x in lp.ind.clone() {
                let wraps = || format!("{}: a row the loop steps may wrap", at_pc(info, x.upd));
                let Inst::Bin { ty, .. } = ops[x.upd].inst else {
                    return Err(wraps());
                };
                let first = values.at(x.init, |v| v.computed(x.init)).ok_or_else(wraps)?;
                let step = values.at(x.upd, |v| v.value(x.step)).ok_or_else(wraps)?;
                let last = first.add(&Aff::konst(step.k * i128::from(n[K])), 1);
                values
                    .shape
                    .fits(last, int_bits(ty).ok_or_else(wraps)?)
                    .ok_or_else(wraps)?;
            }
        }
    }
    // the groups below compare accesses pairwise
    if raw.len() > MAX_ACCESSES {
        return Err(format!("{} global accesses, more than {MAX_ACCESSES}", raw.len()));
    }
    let mut accesses = Vec::with_capacity(raw.len());
    let mut regions = Vec::with_capacity(raw.len());
    let mut pcs = Vec::with_capacity(raw.len());
    // reads whose address is bounded but not affine (clamped, selected): pc and bytes
    let mut bounded = Vec::new();
    for (pc, addr, off, w, write) in raw {
        values.why = None;
        let kind = if write { "write" } else { "read" };
        let mut facts = values.at(pc, |v| guards.facts(v, pc));
        if let (Some(lp), Some(f)) = (&values.lp, loop_fact)
            && (lp.head..=lp.back).contains(&pc)
        {
            facts.push(f);
        }
        let Some(a) = values.at(pc, |v| v.operand(addr, 64)) else {
            let why = values.why.clone().unwrap_or((pc, "unknown".into()));
            // a read needs only its bytes' bounds: they must meet no write
            if !write
                && let Some((lo, hi)) = values.at(pc, |v| bounds(v, &guards, &facts, addr, 64, false, 0))
            {
                let (lo, end) = (lo + i128::from(off), hi + i128::from(off) + i128::from(w));
                let r = spans
                    .partition_point(|&(b, _)| i128::from(b) <= lo)
                    .checked_sub(1);
                if let Some(r) = r
                    && lo >= i128::from(spans[r].0)
                    && end <= i128::from(spans[r].0) + i128::from(spans[r].1)
                {
                    bounded.push((pc, lo, end));
                    continue;
                }
                return Err(format!(
                    "{}: the global read's address is known only within bytes [{lo:#x}, {end:#x}), which do not \
                     lie in one allocation (no guard the proof follows keeps them in)",
                    at_pc(info, pc)
                ));
            }
            let (wpc, why) = why;
            return Err(format!(
                "{}: the address of this global {kind} is not known: at {}: {why}",
                at_pc(info, pc),
                at_pc(info, wpc)
            ));
        };
        let a = a.add(&Aff::konst(i128::from(off)), 1);
        // the guards only take threads away: the greatest address where they hold
        let (lo, _) = a.range(&n);
        let hi = a.k + max_positive(&a.c, ALL, &n, &facts);
        let end = hi + i128::from(w);
        // the bytes, over the whole grid, in one region
        let out = || {
            format!(
                "{}: the global {kind}'s bytes over the grid, [{lo:#x}, {end:#x}), do not lie in one allocation \
                 (no guard the proof follows keeps them in)",
                at_pc(info, pc)
            )
        };
        let r = spans
            .partition_point(|&(b, _)| i128::from(b) <= lo)
            .checked_sub(1)
            .ok_or_else(out)?;
        let (b, len) = spans[r];
        if lo < i128::from(b) || end > i128::from(b) + i128::from(len) {
            return Err(out());
        }
        regions.push(r);
        pcs.push(pc);
        accesses.push(Access {
            a,
            facts,
            w,
            lo,
            hi: end,
            write,
        });
    }
    // a bounded read must meet no byte a write may touch
    for &(pc, lo, end) in &bounded {
        if let Some(i) =
            (0..accesses.len()).find(|&i| accesses[i].write && accesses[i].lo < end && lo < accesses[i].hi)
        {
            return Err(format!(
                "{}: a read at an address known only within [{lo:#x}, {end:#x}) meets the bytes a write may touch ({})",
                at_pc(info, pc),
                at_pc(info, pcs[i])
            ));
        }
    }
    // groups of accesses whose bytes meet where one of them writes (union-find)
    let mut parent: Vec<usize> = (0..accesses.len()).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for i in 0..accesses.len() {
        for j in i + 1..accesses.len() {
            let (x, y) = (&accesses[i], &accesses[j]);
            if (x.write || y.write) && x.lo < y.hi && y.lo < x.hi {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut written = Vec::new();
    for g in 0..accesses.len() {
        if root(&mut parent, g) != g {
            continue;
        }
        let members: Vec<usize> = (0..accesses.len())
            .filter(|&i| root(&mut parent, i) == g)
            .collect();
        if !members.iter().any(|&i| accesses[i].write) {
            continue;
        }
        let group: Vec<&Access> = members.iter().map(|&i| &accesses[i]).collect();
        if let Err((i, why)) = separated(&group, &n) {
            let first_write = members
                .iter()
                .find(|&&i| accesses[i].write)
                .copied()
                .unwrap_or(members[0]);
            return Err(format!(
                "{}: {why} (a group of {} accesses{}, with the write at {})",
                at_pc(info, pcs[members[i]]),
                members.len(),
                if members.len() > 1 {
                    format!(
                        " at pcs {:?}",
                        members.iter().map(|&m| pcs[m]).collect::<Vec<_>>()
                    )
                } else {
                    String::new()
                },
                at_pc(info, pcs[first_write]),
            ));
        }
        for &i in &members {
            if accesses[i].write && !written.contains(&regions[i]) {
                written.push(regions[i]);
            }
        }
    }
    written.sort_unstable();
    Ok(Proof { written })
}

/// Whether accesses of one linear part (and their constant offsets) made by different blocks never
/// meet: see the module's documentation. A refusal names an access of the group (its index) and
/// the rule it fails.
fn separated(group: &[&Access], n: &[u64; VARS]) -> Result<(), (usize, String)> {
    const NAMES: [&str; VARS + 1] = [
        "%ctaid.x",
        "%ctaid.y",
        "%ctaid.z",
        "%tid.x",
        "%tid.y",
        "%tid.z",
        "the loop's count",
        "the offsets",
    ];
    let lin = |a: &Aff| -> [i128; VARS] { std::array::from_fn(|v| if n[v] > 1 { a.c[v] } else { 0 }) };
    let first = lin(&group[0].a);
    if let Some(i) = group.iter().position(|x| lin(&x.a) != first) {
        let show = |c: [i128; VARS]| {
            (0..VARS)
                .filter(|&v| c[v] != 0)
                .map(|v| format!("{} {}", c[v], NAMES[v]))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        return Err((
            i,
            format!(
                "accesses whose bytes may meet have different factors ({} against {})",
                show(lin(&group[i].a)),
                show(first)
            ),
        ));
    }
    // every grid dimension of more than one block tells blocks apart
    if let Some(v) = (0..3).find(|&v| n[v] > 1 && first[v] == 0) {
        return Err((
            0,
            format!(
                "the address does not depend on {} (the grid has {} blocks that way): those blocks touch the same bytes",
                NAMES[v], n[v]
            ),
        ));
    }
    // the mixed radix below separates bytes: accesses narrower than a word (bytes, halves) need
    // nothing more, since a store of 1 or 2 bytes clears and sets only its own bits of the word
    // (`mem::Global::write`: two atomic operations), so blocks writing different bytes of one word
    // keep each other's bytes
    let w = group.iter().map(|x| i128::from(x.w)).max().unwrap_or(0);
    // (factor, count of values, a block dimension, the variable: VARS for the offsets)
    let mut terms: Vec<(i128, i128, bool, usize)> = (0..VARS)
        .filter(|&v| n[v] > 1 && first[v] != 0)
        .map(|v| (first[v].abs(), i128::from(n[v]), v < 3, v))
        .collect();
    let mut ks: Vec<i128> = group.iter().map(|x| x.a.k).collect();
    ks.sort_unstable();
    ks.dedup();
    if ks.len() > 1 {
        let step = ks[1] - ks[0];
        if ks.windows(2).all(|p| p[1] - p[0] == step) {
            terms.push((step, ks.len() as i128, false, VARS));
        } else {
            terms.push((1, ks[ks.len() - 1] - ks[0] + 1, false, VARS));
        }
    }
    // block terms after thread terms of the same factor: the stricter order
    terms.sort_unstable_by_key(|&(f, _, b, _)| (f, b));
    let Some(k0) = terms.iter().position(|t| t.2) else {
        return Err((0, "no block term".into()));
    };
    // how far apart the smaller terms can put two accesses: the offsets' spread, the negative
    // factors' whole ranges, and the positive ones' greatest sum where each access's guards hold
    let negative: [i128; VARS] = std::array::from_fn(|v| first[v].min(0).abs());
    let below = |k: usize| -> i128 {
        let mut vars = 0u32;
        let mut spread = 0i128;
        for &(f, count, _, v) in &terms[..k] {
            if v == VARS {
                spread += f * (count - 1);
            } else {
                vars |= 1 << v;
                spread += negative[v] * (count - 1);
            }
        }
        spread
            + group
                .iter()
                .map(|x| max_positive(&first, vars, n, &x.facts))
                .max()
                .unwrap_or(0)
    };
    for k in k0..terms.len() {
        let b = below(k);
        if terms[k].0 < b + w {
            let smaller: Vec<String> = terms[..k]
                .iter()
                .map(|&(f, c, _, v)| format!("{f} x {} ({c} values)", NAMES[v]))
                .collect();
            return Err((
                0,
                format!(
                    "not a mixed radix: the factor {} of {} is less than the {} bytes the smaller terms [{}] \
                     and a {w}-byte access can span (no guard the proof follows bounds them)",
                    terms[k].0,
                    NAMES[terms[k].3],
                    b + w,
                    smaller.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

    /// The proof for kernel `k` of `body` (its parameters `params`), with buffers of `bytes` at
    /// 0x10000 and 0x4000000 (`a` and `b`), `n` as the u32 parameter after them.
    fn proof(body: &str, grid: [u32; 3], block: [u32; 3], bytes: u64, n: u32) -> Option<Proof> {
        proof_at(
            body,
            grid,
            block,
            &[(0x10000, bytes), (0x400_0000, bytes)],
            [0x10000, 0x400_0000],
            n,
        )
    }

    /// [`proof`] with the regions `spans` and the addresses `ab` passed as `a` and `b`.
    fn proof_at(
        body: &str,
        grid: [u32; 3],
        block: [u32; 3],
        spans: &[(u64, u64)],
        ab: [u64; 2],
        n: u32,
    ) -> Option<Proof> {
        prove_why(body, grid, block, spans, ab, n).ok()
    }

    /// [`proof_at`]'s proof, or why it was refused.
    fn prove_why(
        body: &str,
        grid: [u32; 3],
        block: [u32; 3],
        spans: &[(u64, u64)],
        ab: [u64; 2],
        n: u32,
    ) -> Result<Proof, String> {
        let src = format!(
            "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
             .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n .reg .f32 %f<8>;\n\
             ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
             cvta.to.global.u64 %rd3, %rd1;\n{body}\n ret;\n}}\n"
        );
        let prog = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        let k = prog.kernel("k").unwrap();
        let ops = &prog.ops[k.entry as usize..k.end as usize];
        let info = &prog.info[k.entry as usize..k.end as usize];
        let preset: Vec<R> = k.row_init.iter().map(|&(r, _)| r).collect();
        let unsafe_rows = unwritten_rows(ops, k.entry, k.n_rows, &preset);
        let mut params = vec![0u8; k.param_size as usize];
        params[0..8].copy_from_slice(&ab[0].to_le_bytes());
        params[8..16].copy_from_slice(&ab[1].to_le_bytes());
        params[16..20].copy_from_slice(&n.to_le_bytes());
        prove(ops, info, k, &params, grid, block, &unsafe_rows, spans)
    }

    /// `out[ctaid.x * ntid.x + tid.x] = in[same]` (`%rd3` is `a`, `%rd2` is `b`): `idx` computes
    /// `%r5` from `%r2` (ctaid.x), `%r3` (ntid.x), `%r4` (tid.x).
    fn one_d(idx: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n{idx}\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             add.s64 %rd7, %rd4, %rd5;\n ld.global.f32 %f1, [%rd6];\n st.global.f32 [%rd7], %f1;"
        )
    }

    #[test]
    fn one_element_per_thread_is_proven() {
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;");
        let p = proof(&body, [1024, 1, 1], [256, 1, 1], 1 << 20, 0).expect("proven");
        assert_eq!(p.written, vec![1]);
        // in place: reads and writes of the same element
        let body = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             ld.global.f32 %f1, [%rd6];\n add.f32 %f2, %f1, %f1;\n st.global.f32 [%rd6], %f2;";
        assert_eq!(
            proof(body, [1024, 1, 1], [256, 1, 1], 1 << 20, 0)
                .unwrap()
                .written,
            vec![0]
        );
    }

    #[test]
    fn a_grid_larger_than_the_buffer_is_not_proven() {
        // 1025 blocks of 256 floats leave the 1 MiB region: the bytes are not in one region
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;");
        assert!(proof(&body, [1025, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    #[test]
    fn overlapping_strides_are_not_proven() {
        // stride of 128 elements for blocks of 256 threads: neighbours overlap by half
        let body = one_d(" shl.b32 %r6, %r2, 7;\n add.s32 %r5, %r6, %r4;");
        assert!(proof(&body, [1024, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // the same with a stride of the block's size: proven
        let body = one_d(" shl.b32 %r6, %r2, 8;\n add.s32 %r5, %r6, %r4;");
        assert!(proof(&body, [1024, 1, 1], [256, 1, 1], 1 << 20, 0).is_some());
        // every block writes the same elements (no block term)
        let body = one_d(" mov.u32 %r5, %r4;");
        assert!(proof(&body, [1024, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    #[test]
    fn clamped_and_modulo_indices_are_not_proven() {
        for idx in [
            " mad.lo.s32 %r6, %r2, %r3, %r4;\n min.u32 %r5, %r6, 1000;",
            " mad.lo.s32 %r6, %r2, %r3, %r4;\n rem.u32 %r5, %r6, 1000;",
            " mad.lo.s32 %r6, %r2, %r3, %r4;\n and.b32 %r5, %r6, 1023;",
            " mad.lo.s32 %r6, %r2, %r3, %r4;\n shr.u32 %r5, %r6, 1;",
            " mad.lo.s32 %r6, %r2, %r3, %r4;\n mul.lo.s32 %r5, %r6, %r6;",
        ] {
            assert!(
                proof(&one_d(idx), [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none(),
                "{idx}"
            );
        }
    }

    #[test]
    fn a_row_major_2d_index_is_proven_only_when_rows_do_not_spill() {
        // out[(ctaid.y * ntid.y + tid.y) * n + ctaid.x * ntid.x + tid.x]
        let body = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r7, %r2, %r3, %r4;\n mov.u32 %r8, %ctaid.y;\n mov.u32 %r9, %ntid.y;\n\
             mov.u32 %r10, %tid.y;\n mad.lo.s32 %r11, %r8, %r9, %r10;\n mad.lo.s32 %r5, %r11, %r1, %r7;\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd7, %rd4, %rd5;\n\
             st.global.f32 [%rd7], %f1;";
        // 256 x 256 elements in 16 x 16 blocks of 16 x 16 threads, n = 256
        assert!(proof(body, [16, 16, 1], [16, 16, 1], 1 << 20, 256).is_some());
        assert!(proof(body, [8, 16, 1], [32, 16, 1], 1 << 20, 256).is_some());
        // rows of 250: the blocks of a row spill into the next row's
        assert!(proof(body, [16, 16, 1], [16, 16, 1], 1 << 20, 250).is_none());
    }

    #[test]
    fn a_block_dimension_without_a_factor_is_not_proven() {
        // out[ctaid.x * ntid.x + tid.x] with a grid of 2 rows: both rows write the same elements
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;");
        assert!(proof(&body, [64, 2, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    #[test]
    fn atomics_on_a_shared_counter_and_unknown_addresses_are_not_proven() {
        // every block adds to a[0]
        let body = " atom.global.add.u32 %r2, [%rd3], 1;";
        assert!(proof(body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // an address loaded from memory
        let body = " mov.u32 %r2, %ctaid.x;\n mul.wide.u32 %rd5, %r2, 8;\n add.s64 %rd6, %rd3, %rd5;\n\
             ld.global.u64 %rd7, [%rd6];\n st.global.u32 [%rd7], %r2;";
        assert!(proof(body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // a per-block atomic on its own word: proven
        let body = " mov.u32 %r2, %ctaid.x;\n mul.wide.u32 %rd5, %r2, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             atom.global.add.u32 %r3, [%rd6], 1;";
        assert!(proof(body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_some());
    }

    #[test]
    fn a_block_reading_another_blocks_output_is_not_proven() {
        // out[i] = out[i + 1]: block b reads the first element of block b + 1
        let body = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             ld.global.f32 %f1, [%rd6+4];\n st.global.f32 [%rd6], %f1;";
        assert!(proof(body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // a read of a buffer nobody writes, at any address: proven
        let body = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             cvta.to.global.u64 %rd4, %rd2;\n add.s64 %rd7, %rd4, %rd5;\n\
             ld.global.f32 %f1, [%rd6+4];\n st.global.f32 [%rd7], %f1;";
        assert!(proof(body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_some());
    }

    #[test]
    fn rows_with_two_writes_or_guarded_writes_are_not_known() {
        // the index row written twice (a loop variable's shape)
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;\n add.s32 %r5, %r5, 0;");
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // written under a guard
        let body = one_d(" setp.eq.u32 %p1, %r4, 0;\n @%p1 mad.lo.s32 %r5, %r2, %r3, %r4;");
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        // written on one path only: threads of the other read the row before any write
        let body =
            one_d(" setp.eq.u32 %p1, %r4, 0;\n @%p1 bra SKIP;\n mad.lo.s32 %r5, %r2, %r3, %r4;\nSKIP:");
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    #[test]
    fn values_that_wrap_are_not_known() {
        // ctaid.x * 2^24 + tid.x wraps 32 bits for 256 blocks
        let body = one_d(" shl.b32 %r6, %r2, 24;\n add.s32 %r5, %r6, %r4;");
        assert!(proof(&body, [256, 1, 1], [256, 1, 1], 1 << 40, 0).is_none());
        // a negative offset (i - 1) for the first thread
        let body = one_d(" mad.lo.s32 %r6, %r2, %r3, %r4;\n sub.s32 %r5, %r6, 1;");
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    /// transpose's shape: block (x, y) of 32 x 8 threads writes rows `32 y + ty + gap j`, j < 4,
    /// of a 256-wide matrix: 4 stores whose offsets are `gap` rows apart.
    fn tile_rows(gap: u32) -> String {
        let stores: String = (0..4)
            .map(|j| {
                let r = 10 + j;
                format!(
                    " add.s64 %rd{r}, %rd7, {};\n st.global.f32 [%rd{r}], %f1;\n",
                    j * gap * 256 * 4
                )
            })
            .collect();
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r4, %tid.x;\n shl.b32 %r6, %r2, 5;\n add.s32 %r7, %r6, %r4;\n\
             mov.u32 %r8, %ctaid.y;\n mov.u32 %r10, %tid.y;\n shl.b32 %r9, %r8, 5;\n add.s32 %r11, %r9, %r10;\n\
             mad.lo.s32 %r5, %r11, %r1, %r7;\n cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n\
             add.s64 %rd7, %rd4, %rd5;\n{stores}"
        )
    }

    #[test]
    fn a_tile_written_by_several_stores_is_proven_when_its_rows_stay_in_the_tile() {
        // rows ty + 8j: the 32 rows of the block's tile
        assert!(proof(&tile_rows(8), [8, 8, 1], [32, 8, 1], 1 << 20, 256).is_some());
        // rows ty + 16j reach row 55 of a tile 32 rows high: the next block's rows
        assert!(proof(&tile_rows(16), [8, 4, 1], [32, 8, 1], 1 << 20, 256).is_none());
        // rows ty + 4j: blocks stay apart, but a block's own rows overlap (ty 4 of j 0 is ty 0 of
        // j 1), which the mixed radix does not allow: not proven (the conservative side)
        assert!(proof(&tile_rows(4), [8, 8, 1], [32, 8, 1], 1 << 20, 256).is_none());
    }

    /// `out[f(i)] = byte` with `i = ctaid.x * ntid.x + tid.x` and `f` from `idx` (`%r5` to `%r6`).
    fn byte_store(idx: &str, st: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n{idx}\n cvt.u64.u32 %rd5, %r6;\n add.s64 %rd6, %rd3, %rd5;\n\
             {st} [%rd6], %r4;"
        )
    }

    #[test]
    fn accesses_narrower_than_a_word_are_proven_on_bytes() {
        let (g, b) = ([64, 1, 1], [256, 1, 1]);
        // out[i] = byte: blocks 256 bytes apart, a word's bytes of one block each
        assert!(
            proof(
                &byte_store(" mov.u32 %r6, %r5;", "st.global.u8"),
                g,
                b,
                1 << 20,
                0
            )
            .is_some()
        );
        // out[4 i] = byte and 2-byte halves at 2 i: apart
        let four = " shl.b32 %r6, %r5, 2;";
        assert!(proof(&byte_store(four, "st.global.u8"), g, b, 1 << 20, 0).is_some());
        let two = " shl.b32 %r6, %r5, 1;";
        assert!(proof(&byte_store(two, "st.global.u16"), g, b, 1 << 20, 0).is_some());
        assert!(proof(&byte_store(four, "st.global.u32"), g, b, 1 << 20, 0).is_some());
    }

    #[test]
    fn narrow_access_look_alikes_are_not_proven() {
        let (g, b) = ([64, 1, 1], [256, 1, 1]);
        // blocks 255 bytes apart: a block's last byte is the next block's first
        let idx = " mul.lo.s32 %r7, %r2, 255;\n add.s32 %r6, %r7, %r4;";
        assert!(proof(&byte_store(idx, "st.global.u8"), g, b, 1 << 20, 0).is_none());
        // 2-byte halves at 2 (255 ctaid.x + tid.x): blocks 510 bytes apart, each 512 bytes wide
        let idx = " mul.lo.s32 %r7, %r2, 255;\n add.s32 %r8, %r7, %r4;\n shl.b32 %r6, %r8, 1;";
        let why = prove_why(
            &byte_store(idx, "st.global.u16"),
            g,
            b,
            &[(0x10000, 1 << 20), (0x400_0000, 1 << 20)],
            [0x10000, 0x400_0000],
            0,
        )
        .unwrap_err();
        assert!(why.contains("not a mixed radix"), "{why}");
        // 2-byte halves at i bytes: each overlaps the next thread's, and a block's last the next
        // block's first byte
        let why = prove_why(
            &byte_store(" mov.u32 %r6, %r5;", "st.global.u16"),
            g,
            b,
            &[(0x10000, 1 << 20), (0x400_0000, 1 << 20)],
            [0x10000, 0x400_0000],
            0,
        )
        .unwrap_err();
        assert!(why.contains("not a mixed radix"), "{why}");
        // a byte per block, every block the same byte
        assert!(
            proof(
                &byte_store(" mov.u32 %r6, %r4;", "st.global.u8"),
                g,
                b,
                1 << 20,
                0
            )
            .is_none()
        );
    }

    /// `b[i] = a[rd]` for `i < n` (`i = ctaid.x * ntid.x + tid.x` in `%r5`), `rd` computed by
    /// `idx` into `%r6` (`%r1` is `n`).
    fn read_at(idx: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;\n{idx}\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.s32 %rd8, %r6, 4;\n add.s64 %rd9, %rd3, %rd8;\n\
             ld.global.f32 %f1, [%rd9];\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd7, %rd4, %rd5;\n\
             st.global.f32 [%rd7], %f1;\nEND:"
        )
    }

    /// `i > 0 ? i - 1 : 0` and `i < n - 1 ? i + 1 : n - 1`, as nvcc writes them, into `%r6`.
    const LEFT: &str = " add.s32 %r11, %r5, -1;\n setp.gt.s32 %p4, %r5, 0;\n selp.b32 %r6, %r11, 0, %p4;";
    const RIGHT: &str = " add.s32 %r13, %r1, -1;\n setp.lt.s32 %p5, %r5, %r13;\n add.s32 %r14, %r5, 1;\n\
         selp.b32 %r6, %r14, %r13, %p5;";

    #[test]
    fn reads_through_a_selp_are_bounded_by_its_predicate() {
        let (g, b, bytes, n) = OVER;
        for idx in [LEFT, RIGHT] {
            let p = proof(&read_at(idx), g, b, bytes, n).unwrap_or_else(|| panic!("{idx}"));
            assert_eq!(p.written, vec![1]);
        }
        // the predicate negated with the operands swapped: the same selection
        let swapped = " add.s32 %r11, %r5, -1;\n setp.le.s32 %p4, %r5, 0;\n selp.b32 %r6, 0, %r11, %p4;";
        assert!(proof(&read_at(swapped), g, b, bytes, n).is_some());
        let not = " add.s32 %r11, %r5, -1;\n setp.gt.s32 %p4, %r5, 0;\n not.pred %p6, %p4;\n\
                   selp.b32 %r6, 0, %r11, %p6;";
        assert!(proof(&read_at(not), g, b, bytes, n).is_some());
    }

    #[test]
    fn selp_look_alikes_are_not_proven() {
        let (g, b, bytes, n) = OVER;
        let two = [(0x10000, bytes), (0x400_0000, bytes)];
        let refusal = |body: &str| prove_why(body, g, b, &two, [0x10000, 0x400_0000], n).unwrap_err();
        for (idx, what) in [
            // the operands the wrong way round: i - 1 where i is 0
            (
                " add.s32 %r11, %r5, -1;\n setp.gt.s32 %p4, %r5, 0;\n selp.b32 %r6, 0, %r11, %p4;",
                "lie in one allocation",
            ),
            // a test that is always true: i >= 0 ? i - 1 : 0
            (
                " add.s32 %r11, %r5, -1;\n setp.ge.s32 %p4, %r5, 0;\n selp.b32 %r6, %r11, 0, %p4;",
                "lie in one allocation",
            ),
            // one past: i < n ? i + 1 : n - 1 reads a[n]
            (
                " add.s32 %r13, %r1, -1;\n setp.lt.s32 %p5, %r5, %r1;\n add.s32 %r14, %r5, 1;\n\
                 selp.b32 %r6, %r14, %r13, %p5;",
                "lie in one allocation",
            ),
            // the thread's index in its block tested, not the element's
            (
                " add.s32 %r11, %r5, -1;\n setp.gt.s32 %p4, %r4, 0;\n selp.b32 %r6, %r11, 0, %p4;",
                "lie in one allocation",
            ),
            // the predicate written on one path only
            (
                " setp.eq.u32 %p2, %r4, 0;\n @%p2 bra GO;\n setp.gt.s32 %p4, %r5, 0;\nGO:\n\
                 add.s32 %r11, %r5, -1;\n selp.b32 %r6, %r11, 0, %p4;",
                "lie in one allocation",
            ),
            // the predicate written twice
            (
                " setp.gt.s32 %p4, %r5, 0;\n setp.gt.s32 %p4, %r4, 0;\n add.s32 %r11, %r5, -1;\n\
                 selp.b32 %r6, %r11, 0, %p4;",
                "lie in one allocation",
            ),
        ] {
            let why = refusal(&read_at(idx));
            assert!(why.contains(what), "{idx}: {why}");
        }
        // in place: the neighbour is another block's output at a block's edge
        let why = refusal(&read_at(LEFT).replace("add.s64 %rd7, %rd4, %rd5;", "add.s64 %rd7, %rd3, %rd5;"));
        assert!(why.contains("meets the bytes a write may touch"), "{why}");
        // a selp'ed index written: not affine, refused
        let st = read_at(RIGHT).replace("mul.wide.u32 %rd5, %r5, 4;", "mul.wide.u32 %rd5, %r6, 4;");
        assert!(refusal(&st).contains("global write is not known"));
    }

    /// `b[(ctaid.x + off) * 256 + tid.x] = ...` with `off = n >= 4 ? n - 3 : 0` (a launch
    /// constant chosen by a comparison of constants), `pred` writing `%p1`.
    fn constant_selp(pred: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r4, %tid.x;\n{pred}\n add.s32 %r13, %r1, -3;\n\
             selp.b32 %r12, %r13, 0, %p1;\n add.s32 %r14, %r2, %r12;\n shl.b32 %r15, %r14, 8;\n\
             add.s32 %r5, %r15, %r4;\n cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n\
             add.s64 %rd7, %rd4, %rd5;\n st.global.f32 [%rd7], %f1;"
        )
    }

    #[test]
    fn a_selp_of_launch_constants_is_followed_in_a_written_address() {
        let (g, b) = ([64, 1, 1], [256, 1, 1]);
        let pred = " setp.ge.s32 %p1, %r1, 4;";
        for n in [10, 2] {
            let p = proof(&constant_selp(pred), g, b, 1 << 20, n).unwrap_or_else(|| panic!("{n}"));
            assert_eq!(p.written, vec![1]);
        }
        // past the buffer when the chosen offset is large: 64 + 1000 rows of 1 KiB
        assert!(proof(&constant_selp(pred), g, b, 1 << 20, 1003).is_none());
        // a launch constant folded through shifts and masks first (`(n - 1) / 16` as nvcc writes it)
        let folded = " add.s32 %r16, %r1, -1;\n shr.s32 %r17, %r16, 31;\n shr.u32 %r18, %r17, 28;\n\
                      add.s32 %r19, %r16, %r18;\n shr.s32 %r20, %r19, 4;\n and.b32 %r21, %r20, 7;\n\
                      setp.gt.s32 %p1, %r21, 0;";
        assert!(proof(&constant_selp(folded), g, b, 1 << 20, 40).is_some());
        // the same fold of the thread's index: not constant
        let varying = folded.replace("add.s32 %r16, %r1, -1;", "add.s32 %r16, %r4, -1;");
        assert!(proof(&constant_selp(&varying), g, b, 1 << 20, 40).is_none());
        for pred in [
            // a comparison of the thread's index: not the same for every thread
            " setp.ge.s32 %p1, %r4, 4;",
            // combined with another predicate
            " setp.ge.s32 %p2, %r4, 4;\n setp.ge.and.s32 %p1, %r1, 4, %p2;",
            // written on one path only
            " setp.eq.u32 %p2, %r4, 0;\n @%p2 bra GO;\n setp.ge.s32 %p1, %r1, 4;\nGO:",
            // written twice
            " setp.ge.s32 %p1, %r1, 4;\n setp.ge.s32 %p1, %r4, 4;",
            // written under a guard
            " setp.ge.s32 %p1, %r1, 40;\n setp.eq.u32 %p2, %r4, 0;\n @%p2 setp.ge.s32 %p1, %r1, 4;",
        ] {
            assert!(proof(&constant_selp(pred), g, b, 1 << 20, 10).is_none(), "{pred}");
        }
    }

    #[test]
    fn reads_through_and_shr_rem_are_bounded() {
        let (g, b, bytes, n) = OVER;
        for idx in [
            " and.b32 %r6, %r5, 1023;",
            " shr.u32 %r6, %r5, 2;",
            " shr.s32 %r6, %r5, 1;",
            " rem.u32 %r6, %r5, 1000;",
            " rem.s32 %r6, %r5, 1000;",
            " rem.u32 %r6, %r5, %r1;",
            // an index loaded from memory, then taken modulo n or masked: known within
            " ld.global.u32 %r7, [%rd3];\n rem.u32 %r6, %r7, %r1;",
            " ld.global.u32 %r7, [%rd3];\n and.b32 %r6, %r7, 4095;",
            " ld.global.u32 %r7, [%rd3];\n shr.u32 %r6, %r7, 14;",
            // (i & ~31) | 3, and (i & 31) | (j & ~31)
            " and.b32 %r7, %r5, -32;\n or.b32 %r6, %r7, 3;",
            " and.b32 %r7, %r5, 31;\n and.b32 %r8, %r5, -32;\n or.b32 %r6, %r7, %r8;",
        ] {
            let p = proof(&read_at(idx), g, b, bytes, n).unwrap_or_else(|| panic!("{idx}"));
            assert_eq!(p.written, vec![1], "{idx}");
        }
        // an address rounded down to 128 bytes (`in[tid & ~31]` as nvcc writes it)
        let body = read_at(" mov.u32 %r6, %r5;").replace(
            " add.s64 %rd9, %rd3, %rd8;",
            " add.s64 %rd10, %rd3, %rd8;\n and.b64 %rd9, %rd10, -128;",
        );
        assert!(proof(&body, g, b, bytes, n).is_some());
    }

    #[test]
    fn and_shr_rem_look_alikes_are_not_proven() {
        let (g, b, bytes, n) = OVER;
        let two = [(0x10000, bytes), (0x400_0000, bytes)];
        let refusal = |body: &str| prove_why(body, g, b, &two, [0x10000, 0x400_0000], n).unwrap_err();
        for idx in [
            // a loaded value masked past the buffer's 2^18 elements
            " ld.global.u32 %r7, [%rd3];\n and.b32 %r6, %r7, 524287;",
            // a loaded value shifted too little
            " ld.global.u32 %r7, [%rd3];\n shr.u32 %r6, %r7, 13;",
            // i - 1 shifted arithmetically: -1 at the first thread
            " add.s32 %r7, %r5, -1;\n shr.s32 %r6, %r7, 1;",
            // a loaded value modulo a divisor past the buffer
            " ld.global.u32 %r7, [%rd3];\n rem.u32 %r6, %r7, 300000;",
            // a signed remainder of a value that may be negative
            " ld.global.u32 %r7, [%rd3];\n rem.s32 %r6, %r7, 1000;",
            // or of a value that is not bounded
            " ld.global.u32 %r7, [%rd3];\n or.b32 %r6, %r7, 3;",
            // and with a mask that is not constant
            " ld.global.u32 %r7, [%rd3];\n and.b32 %r6, %r7, %r5;",
        ] {
            let why = refusal(&read_at(idx));
            assert!(
                why.contains("lie in one allocation") || why.contains("is not known"),
                "{idx}: {why}"
            );
        }
        // the buffer read is the one written: a masked read meets other blocks' writes
        let in_place = read_at(" and.b32 %r6, %r5, 1023;")
            .replace("add.s64 %rd7, %rd4, %rd5;", "add.s64 %rd7, %rd3, %rd5;");
        assert!(refusal(&in_place).contains("meets the bytes a write may touch"));
        // a masked, shifted or modulo index written: refused (not affine)
        for idx in [
            " and.b32 %r6, %r5, 1023;",
            " shr.u32 %r6, %r5, 2;",
            " rem.u32 %r6, %r5, 1000;",
        ] {
            let st = read_at(idx).replace("mul.wide.u32 %rd5, %r5, 4;", "mul.wide.u32 %rd5, %r6, 4;");
            assert!(refusal(&st).contains("global write is not known"), "{idx}");
        }
    }

    #[test]
    fn kernels_with_other_global_effects_are_not_proven() {
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;")
            + "\n cvta.to.global.u64 %rd9, %rd2;\n red.global.add.f32 [%rd9], %f1;";
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }

    /// `i = ctaid.x * ntid.x + tid.x`; `guard` ends by branching to `END` (or exiting) for the
    /// threads that skip; then `b[i] = a[i]`.
    fn guarded(guard: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n{guard}\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             add.s64 %rd7, %rd4, %rd5;\n ld.global.f32 %f1, [%rd6];\n st.global.f32 [%rd7], %f1;\nEND:"
        )
    }

    /// 1025 blocks of 256 threads over 262,144 floats (1 MiB): the last block overhangs.
    const OVER: ([u32; 3], [u32; 3], u64, u32) = ([1025, 1, 1], [256, 1, 1], 1 << 20, 1 << 18);

    #[test]
    fn a_bounds_guard_over_an_overhanging_grid_is_proven() {
        let (g, b, bytes, n) = OVER;
        // if (i < n): the guard's branch, an early return, a guarded access
        for guard in [
            " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;",
            " setp.lt.u32 %p1, %r5, %r1;\n @!%p1 bra END;",
            " setp.ge.u32 %p1, %r5, %r1;\n @%p1 ret;",
            " setp.le.u32 %p1, %r1, %r5;\n @%p1 bra END;",
        ] {
            let p = proof(&guarded(guard), g, b, bytes, n).unwrap_or_else(|| panic!("{guard}"));
            assert_eq!(p.written, vec![1]);
        }
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;\n setp.lt.u32 %p1, %r5, %r1;")
            .replace("ld.global", "@%p1 ld.global")
            .replace("st.global", "@%p1 st.global");
        assert!(proof(&body, g, b, bytes, n).is_some());
    }

    #[test]
    fn guards_that_do_not_keep_the_grid_in_the_buffer_are_not_proven() {
        let (g, b, bytes, n) = OVER;
        // a bound one element past the buffer
        let guard = " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;";
        assert!(proof(&guarded(guard), g, b, bytes, n + 1).is_none());
        for guard in [
            // the thread's index in its block, not the element's
            " setp.ge.u32 %p1, %r4, %r1;\n @%p1 bra END;",
            // the wrong way round: the threads past the end go on
            " setp.lt.u32 %p1, %r5, %r1;\n @%p1 bra END;",
            // a guard on one path only: the other reaches the access unguarded
            " setp.eq.u32 %p2, %r4, 0;\n @%p2 bra GO;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;\nGO:",
            // a predicate written on one path only (the other reads it unwritten)
            " setp.eq.u32 %p2, %r4, 0;\n @%p2 bra GO;\n setp.ge.u32 %p1, %r5, %r1;\nGO:\n @%p1 bra END;",
            // a predicate written twice
            " setp.ge.u32 %p1, %r5, %r1;\n setp.ge.u32 %p1, %r4, %r1;\n @%p1 bra END;",
            // a guard that changes the index instead of skipping: i = n - 1 past the end
            " setp.ge.u32 %p1, %r5, %r1;\n @%p1 sub.s32 %r5, %r1, 1;",
            " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;\n add.s32 %r5, %r5, 0;",
            // an `or` known true tells nothing of either side
            " setp.lt.u32 %p1, %r5, %r1;\n setp.lt.u32 %p2, %r4, %r1;\n or.pred %p3, %p1, %p2;\n @!%p3 bra END;",
        ] {
            assert!(proof(&guarded(guard), g, b, bytes, n).is_none(), "{guard}");
        }
    }

    /// `c[iy * n + ix] = ...` with `ix`, `iy` the 2-D element, under `guard`.
    fn two_d(guard: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r7, %r2, %r3, %r4;\n mov.u32 %r8, %ctaid.y;\n mov.u32 %r9, %ntid.y;\n\
             mov.u32 %r10, %tid.y;\n mad.lo.s32 %r11, %r8, %r9, %r10;\n mad.lo.s32 %r5, %r11, %r1, %r7;\n\
             setp.ge.u32 %p1, %r7, %r1;\n setp.ge.u32 %p2, %r11, %r1;\n{guard}\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             add.s64 %rd7, %rd4, %rd5;\n ld.global.f32 %f1, [%rd6];\n st.global.f32 [%rd7], %f1;\nEND:"
        )
    }

    #[test]
    fn a_2d_bounds_guard_over_an_overhanging_grid_is_proven() {
        // 250 x 250 elements in 16 x 16 blocks of 16 x 16: rows of 256 threads for 250 elements
        let (g, b) = ([16, 16, 1], [16, 16, 1]);
        for guard in [
            " or.pred %p3, %p1, %p2;\n @%p3 bra END;",
            " not.pred %p4, %p1;\n not.pred %p5, %p2;\n and.pred %p3, %p4, %p5;\n @!%p3 bra END;",
            " @%p1 bra END;\n @%p2 bra END;",
            // the column alone: rows stay apart, and the rows past the last stay in the buffer
            " @%p1 bra END;",
        ] {
            assert!(proof(&two_d(guard), g, b, 1 << 20, 250).is_some(), "{guard}");
        }
        // the row alone: the threads past a row's end write the next row's first elements
        assert!(proof(&two_d(" @%p2 bra END;"), g, b, 1 << 20, 250).is_none());
        // no guard
        assert!(proof(&two_d(""), g, b, 1 << 20, 250).is_none());
        // an `and` known false tells nothing
        assert!(
            proof(
                &two_d(" and.pred %p3, %p1, %p2;\n @%p3 bra END;"),
                g,
                b,
                1 << 20,
                250
            )
            .is_none()
        );
    }

    /// A grid-stride loop `for (i = ctaid.x * ntid.x + tid.x; i < n; i += stride) b[i] += a[i]`
    /// as nvcc writes it (the test before the loop, the update and the test at its end).
    fn grid_stride(stride: &str, entry_test: bool) -> String {
        let entry = if entry_test {
            " setp.ge.s32 %p1, %r10, %r1;\n @%p1 bra DONE;"
        } else {
            ""
        };
        format!(
            " mov.u32 %r2, %ntid.x;\n mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r10, %r3, %r2, %r4;\n{entry}\n mov.u32 %r9, %nctaid.x;\n{stride}\n\
             cvta.to.global.u64 %rd4, %rd2;\nLOOP:\n mul.wide.s32 %rd5, %r10, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             ld.global.f32 %f2, [%rd6];\n add.s64 %rd7, %rd4, %rd5;\n ld.global.f32 %f3, [%rd7];\n\
             add.f32 %f4, %f2, %f3;\n st.global.f32 [%rd7], %f4;\n add.s32 %r10, %r10, %r11;\n\
             setp.lt.s32 %p2, %r10, %r1;\n @%p2 bra LOOP;\nDONE:"
        )
    }

    #[test]
    fn a_grid_stride_loop_is_proven_when_its_stride_is_the_grid() {
        let whole = " mul.lo.s32 %r11, %r2, %r9;";
        // 64 blocks of 256 threads over 200,000 floats: about 12 turns each
        let p = proof(
            &grid_stride(whole, true),
            [64, 1, 1],
            [256, 1, 1],
            1 << 20,
            200_000,
        )
        .expect("proven");
        assert_eq!(p.written, vec![1]);
        // twice the grid: every other stretch untouched, still apart
        let twice = " mul.lo.s32 %r12, %r2, %r9;\n shl.b32 %r11, %r12, 1;";
        assert!(
            proof(
                &grid_stride(twice, true),
                [64, 1, 1],
                [256, 1, 1],
                1 << 20,
                200_000
            )
            .is_some()
        );
    }

    #[test]
    fn grid_stride_look_alikes_are_not_proven() {
        let (g, b) = ([64, 1, 1], [256, 1, 1]);
        // a stride of one block: block 1's first turn is block 0's second
        assert!(proof(&grid_stride(" mov.u32 %r11, %r2;", true), g, b, 1 << 20, 200_000).is_none());
        // half the grid
        let half = " mul.lo.s32 %r11, %r2, 32;";
        assert!(proof(&grid_stride(half, true), g, b, 1 << 20, 200_000).is_none());
        let whole = " mul.lo.s32 %r11, %r2, %r9;";
        // no test before the loop: the first turn runs whatever n is
        assert!(proof(&grid_stride(whole, false), g, b, 1 << 20, 10_000).is_none());
        // n past the buffer
        assert!(proof(&grid_stride(whole, true), g, b, 1 << 20, 300_000).is_none());
        // the exit test on another row than the one stepped
        let other =
            grid_stride(whole, true).replace("setp.lt.s32 %p2, %r10, %r1;", "setp.lt.s32 %p2, %r4, %r1;");
        assert!(proof(&other, g, b, 1 << 20, 200_000).is_none());
        // a second backward branch
        let two = grid_stride(whole, true).replace("DONE:", "DONE:\n @%p1 bra LOOP;");
        assert!(proof(&two, g, b, 1 << 20, 200_000).is_none());
    }

    #[test]
    fn a_buffer_read_or_updated_in_place_is_proven_unless_arguments_alias() {
        // b[i] = a[i] + a[i + 1]: reads of a buffer nobody writes, any index
        let body = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.u32 %rd5, %r5, 4;\n add.s64 %rd6, %rd3, %rd5;\n\
             add.s64 %rd7, %rd4, %rd5;\n ld.global.f32 %f1, [%rd6];\n ld.global.f32 %f2, [%rd6+4];\n\
             add.f32 %f3, %f1, %f2;\n st.global.f32 [%rd7], %f3;\nEND:";
        let (g, b) = ([1025, 1, 1], [256, 1, 1]);
        let two = [(0x10000, 1 << 20), (0x400_0000, 1 << 20)];
        assert!(proof_at(body, g, b, &two, [0x10000, 0x400_0000], (1 << 18) - 1).is_some());
        // the same kernel given one buffer twice: a[i + 1] is the next thread's, and at a block's
        // last thread the next block's, output
        let one = [(0x10000, 1 << 20)];
        assert!(proof_at(body, g, b, &one, [0x10000, 0x10000], (1 << 18) - 1).is_none());
        // given two halves of one buffer, 4 bytes apart: a block's reads meet its neighbour's writes
        assert!(proof_at(body, g, b, &one, [0x10000, 0x10004], (1 << 18) - 2).is_none());
        // a[i] = f(a[i]) in place, guarded: proven; a[i] = f(a[i + 1]) in place: not
        let in_place = body.replace("add.s64 %rd7, %rd4, %rd5;", "add.s64 %rd7, %rd3, %rd5;");
        assert!(
            proof_at(
                &in_place.replace(" ld.global.f32 %f2, [%rd6+4];", " mov.f32 %f2, %f1;"),
                g,
                b,
                &two,
                [0x10000, 0x400_0000],
                1 << 18
            )
            .is_some()
        );
        assert!(proof_at(&in_place, g, b, &two, [0x10000, 0x400_0000], (1 << 18) - 1).is_none());
    }

    /// `b[i] = a[max(i - 1, 0)] + a[min(i + 1, n - 1)]` for `i < n` (`guard`: the bounds test).
    fn clamped(guard: &str) -> String {
        format!(
            " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n{guard}\n add.s32 %r6, %r5, -1;\n max.s32 %r7, %r6, 0;\n\
             add.s32 %r8, %r1, -1;\n add.s32 %r9, %r5, 1;\n min.s32 %r10, %r9, %r8;\n\
             cvta.to.global.u64 %rd4, %rd2;\n mul.wide.s32 %rd8, %r7, 4;\n add.s64 %rd9, %rd3, %rd8;\n\
             ld.global.f32 %f1, [%rd9];\n mul.wide.s32 %rd10, %r10, 4;\n add.s64 %rd11, %rd3, %rd10;\n\
             ld.global.f32 %f2, [%rd11];\n add.f32 %f3, %f1, %f2;\n mul.wide.u32 %rd5, %r5, 4;\n\
             add.s64 %rd7, %rd4, %rd5;\n st.global.f32 [%rd7], %f3;\nEND:"
        )
    }

    const BOUND: &str = " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra END;";

    #[test]
    fn clamped_reads_of_a_buffer_nobody_writes_are_proven() {
        let (g, b, bytes, n) = OVER;
        let p = proof(&clamped(BOUND), g, b, bytes, n).expect("proven");
        assert_eq!(p.written, vec![1]);
        // an exact grid needs no guard
        assert!(proof(&clamped(""), [1024, 1, 1], b, bytes, n).is_some());
    }

    #[test]
    fn clamped_read_look_alikes_are_not_proven() {
        let (g, b, bytes, n) = OVER;
        let two = [(0x10000, bytes), (0x400_0000, bytes)];
        let refusal = |body: &str| prove_why(body, g, b, &two, [0x10000, 0x400_0000], n).unwrap_err();
        // in place: the neighbours' elements are other blocks' outputs at a block's edge
        let why = refusal(&clamped(BOUND).replace("add.s64 %rd7, %rd4, %rd5;", "add.s64 %rd7, %rd3, %rd5;"));
        assert!(why.contains("meets the bytes a write may touch"), "{why}");
        assert!(why.contains("ld.global.f32"), "{why}");
        // clamped to n, not n - 1: the last thread reads past the buffer
        let why = refusal(&clamped(BOUND).replace("add.s32 %r8, %r1, -1;", "mov.u32 %r8, %r1;"));
        assert!(why.contains("do not lie in one allocation"), "{why}");
        // no bounds guard over the overhanging grid: the left neighbour runs past the buffer
        let why = refusal(&clamped(""));
        assert!(why.contains("do not lie in one allocation"), "{why}");
        // an unsigned max: i - 1 at thread 0 is 2^32 - 1, not -1
        let why = refusal(&clamped(BOUND).replace("max.s32", "max.u32"));
        assert!(why.contains("is not known"), "{why}");
        // the clamped index written, not read: two threads write the last element
        let st = clamped(BOUND).replace("mul.wide.u32 %rd5, %r5, 4;", "mul.wide.s32 %rd5, %r10, 4;");
        let why = refusal(&st);
        assert!(why.contains("global write is not known"), "{why}");
    }

    #[test]
    fn a_refusal_names_the_access_and_the_rule() {
        // a[i] and b[i] with i = ctaid.x * 8 + tid.x over blocks of 256: blocks overlap
        let body = one_d(" mul.lo.s32 %r6, %r2, 8;\n add.s32 %r5, %r6, %r4;");
        let why = prove_why(
            &body,
            [64, 1, 1],
            [256, 1, 1],
            &[(0x10000, 1 << 20), (0x400_0000, 1 << 20)],
            [0x10000, 0x400_0000],
            0,
        )
        .unwrap_err();
        assert!(
            why.contains("st.global.f32") && why.contains("not a mixed radix"),
            "{why}"
        );
    }
}
