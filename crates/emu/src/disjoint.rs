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
//!   `ld.param` of the launch's arguments (their values known now). Every value, operand and
//!   result, must lie in `[0, 2^(bits - 1))` of its type over every block and thread, so the
//!   machine's wrapping, sign and zero extensions are the integers' own arithmetic.
//! - Every global (or generic) `ld`, `st`, `atom` and `red` must have a known address whose bytes,
//!   over the whole grid, lie in one region of the space. Accesses whose byte spans meet where
//!   one of them writes form a group; a group with a write must have one linear part (the same
//!   factors of every `%ctaid` and `%tid` dimension), every grid dimension of more than one block
//!   must have a factor, and the factors, with the group's different constant offsets as one more
//!   term, must be a mixed radix from the smallest block factor up: each at least the most the
//!   smaller terms can add plus the widest access. Its accesses must be whole 4-byte words (every
//!   factor, offset and width a multiple of 4), so bytes apart are words apart. Two different blocks then differ in some block
//!   dimension, and the largest term with a difference separates their bytes.
//! - Any other instruction that may touch global memory (a call, `cp.async`, TMA, textures and
//!   surfaces, printf, the device runtime, ...) makes the proof fail.

use warpscope_ptx::Kernel;
use warpscope_ptx::inst::{BinOp, Inst, MemSpace, NO_REG, Op, PSrc, R, RowInit, Special, TernOp, Ty, UnOp};

/// Whether launches may use the proof: not with `WARPSCOPE_SHADOW_PROOF=0` in the environment, a
/// measurement switch that keeps the shadow on every launch that runs in parallel (the results are
/// the same bytes either way).
pub(crate) fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("WARPSCOPE_SHADOW_PROOF").is_none_or(|v| v != "0"))
}

/// `%ctaid.x/y/z` then `%tid.x/y/z`.
const VARS: usize = 6;
/// Kernels with more global accesses than this are not followed.
const MAX_ACCESSES: usize = 2048;

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
    w: u64,
    lo: i128,
    hi: i128,
    write: bool,
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
    defs: Vec<Def>,
    /// Rows some instruction may read before a write reached it.
    unsafe_rows: Vec<bool>,
    params: &'a [u8],
    grid: [u32; 3],
    block: [u32; 3],
    shape: Shape,
    memo: Vec<Option<Option<Aff>>>,
}

/// Bits of an integer type (`None` for floats and predicates).
fn int_bits(ty: Ty) -> Option<u32> {
    (!ty.float() && ty != Ty::Pred).then(|| ty.bytes() * 8)
}

impl Values<'_> {
    fn value(&mut self, r: R) -> Option<Aff> {
        let i = usize::from(r);
        if r == NO_REG || i >= self.defs.len() || self.unsafe_rows[i] {
            return None;
        }
        if let Some(v) = self.memo[i] {
            return v;
        }
        // a row that reads itself (through others) is no known value
        self.memo[i] = Some(None);
        let v = match self.defs[i] {
            Def::Preset(init) => self.preset(init),
            Def::At(pc) => self.computed(pc),
            Def::None | Def::Many => None,
        };
        self.memo[i] = Some(v);
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

    fn computed(&mut self, pc: usize) -> Option<Aff> {
        let op = self.ops[pc];
        if op.guard != PSrc::TRUE {
            return None;
        }
        let r = match op.inst {
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
                        let (x, y) = (self.operand(a, n)?, self.operand(b, n)?);
                        (n, x.add(&y, if op == BinOp::Add { 1 } else { -1 }))
                    }
                    BinOp::MulLo | BinOp::MulWide => {
                        let (x, y) = (self.operand(a, n)?, self.operand(b, n)?);
                        let p = if y.is_const() {
                            x.scale(y.k)?
                        } else if x.is_const() {
                            y.scale(x.k)?
                        } else {
                            return None;
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
                    _ => return None,
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
                    return None;
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
            _ => return None,
        };
        self.shape.fits(r.1, r.0)
    }
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

/// Whether the blocks of a launch of `kernel` (its instructions `ops`, pc `kernel.entry` first)
/// with grid `grid`, block `block` and parameter bytes `params` provably touch no global word
/// another block writes, in a space of regions `spans` (base, bytes; sorted by base). `unsafe_rows`:
/// the rows a thread may read before it wrote them ([`crate::zero_rows::rows_to_zero`]).
pub(crate) fn prove(
    ops: &[Op],
    kernel: &Kernel,
    params: &[u8],
    grid: [u32; 3],
    block: [u32; 3],
    unsafe_rows: &[R],
    spans: &[(u64, u64)],
) -> Option<Proof> {
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
    for &(r, init) in &kernel.row_init {
        write(&mut defs, r, Def::Preset(init))?;
    }
    let mut raw = Vec::new();
    for (pc, op) in ops.iter().enumerate() {
        let (writes, access) = effects(&op.inst)?;
        for r in writes {
            write(&mut defs, r, Def::At(pc))?;
        }
        if let Some(a) = access {
            raw.push(a);
        }
    }
    let mut unsafe_mask = vec![false; n_rows];
    for &r in unsafe_rows {
        if let Some(m) = unsafe_mask.get_mut(usize::from(r)) {
            *m = true;
        }
    }
    let n = [
        u64::from(grid[0]),
        u64::from(grid[1]),
        u64::from(grid[2]),
        u64::from(block[0]),
        u64::from(block[1]),
        u64::from(block[2]),
    ];
    if n.contains(&0) {
        return None;
    }
    let mut values = Values {
        ops,
        defs,
        unsafe_rows: unsafe_mask,
        params,
        grid,
        block,
        shape: Shape { n },
        memo: vec![None; n_rows],
    };
    // the groups below compare accesses pairwise
    if raw.len() > MAX_ACCESSES {
        return None;
    }
    let mut accesses = Vec::with_capacity(raw.len());
    let mut regions = Vec::with_capacity(raw.len());
    for (addr, off, w, write) in raw {
        let a = values.operand(addr, 64)?.add(&Aff::konst(i128::from(off)), 1);
        let (lo, hi) = a.range(&n);
        let end = hi + i128::from(w);
        // the bytes, over the whole grid, in one region
        let r = spans
            .partition_point(|&(b, _)| i128::from(b) <= lo)
            .checked_sub(1)?;
        let (b, len) = spans[r];
        if lo < i128::from(b) || end > i128::from(b) + i128::from(len) {
            return None;
        }
        regions.push(r);
        accesses.push(Access {
            a,
            w,
            lo,
            hi: end,
            write,
        });
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
        if !separated(members.iter().map(|&i| &accesses[i]), &n) {
            return None;
        }
        for &i in &members {
            if accesses[i].write && !written.contains(&regions[i]) {
                written.push(regions[i]);
            }
        }
    }
    written.sort_unstable();
    Some(Proof { written })
}

/// Whether accesses of one linear part (and their constant offsets) made by different blocks never
/// meet: see the module's documentation.
fn separated<'a>(group: impl Iterator<Item = &'a Access>, n: &[u64; VARS]) -> bool {
    let group: Vec<&Access> = group.collect();
    let lin = |a: &Aff| -> [i128; VARS] { std::array::from_fn(|v| if n[v] > 1 { a.c[v] } else { 0 }) };
    let first = lin(&group[0].a);
    if group.iter().any(|x| lin(&x.a) != first) {
        return false;
    }
    // every grid dimension of more than one block tells blocks apart
    if (0..3).any(|v| n[v] > 1 && first[v] == 0) {
        return false;
    }
    // whole words only (the shadow and the sinks' guarantee speak of 4-byte words): every access
    // word-aligned over the grid and a whole number of words wide
    if group
        .iter()
        .any(|x| x.w % 4 != 0 || x.a.k % 4 != 0 || x.a.c.iter().any(|&c| c % 4 != 0))
    {
        return false;
    }
    let w = group.iter().map(|x| i128::from(x.w)).max().unwrap_or(0);
    // (factor, count of values, a block dimension)
    let mut terms: Vec<(i128, i128, bool)> = (0..VARS)
        .filter(|&v| n[v] > 1 && first[v] != 0)
        .map(|v| (first[v].abs(), i128::from(n[v]), v < 3))
        .collect();
    let mut ks: Vec<i128> = group.iter().map(|x| x.a.k).collect();
    ks.sort_unstable();
    ks.dedup();
    if ks.len() > 1 {
        let step = ks[1] - ks[0];
        if ks.windows(2).all(|p| p[1] - p[0] == step) {
            terms.push((step, ks.len() as i128, false));
        } else {
            terms.push((1, ks[ks.len() - 1] - ks[0] + 1, false));
        }
    }
    // block terms after thread terms of the same factor: the stricter order
    terms.sort_unstable_by_key(|&(f, _, b)| (f, b));
    let Some(k0) = terms.iter().position(|t| t.2) else {
        return false;
    };
    let mut below = 0i128;
    for (k, &(f, count, _)) in terms.iter().enumerate() {
        if k >= k0 && f < below + w {
            return false;
        }
        below += f * (count - 1);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

    /// The proof for kernel `k` of `body` (its parameters `params`), with buffers of `bytes` at
    /// 0x10000 and 0x4000000 (`a` and `b`), `n` as the u32 parameter after them.
    fn proof(body: &str, grid: [u32; 3], block: [u32; 3], bytes: u64, n: u32) -> Option<Proof> {
        let src = format!(
            "{HEAD}.visible .entry k(.param .u64 a, .param .u64 b, .param .u32 n)\n{{\n\
             .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n .reg .f32 %f<8>;\n\
             ld.param.u64 %rd1, [a];\n ld.param.u64 %rd2, [b];\n ld.param.u32 %r1, [n];\n\
             cvta.to.global.u64 %rd3, %rd1;\n{body}\n ret;\n}}\n"
        );
        let prog = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        let k = prog.kernel("k").unwrap();
        let ops = &prog.ops[k.entry as usize..k.end as usize];
        let preset: Vec<R> = k.row_init.iter().map(|&(r, _)| r).collect();
        let unsafe_rows = unwritten_rows(ops, k.entry, k.n_rows, &preset);
        let mut params = vec![0u8; k.param_size as usize];
        params[0..8].copy_from_slice(&0x10000u64.to_le_bytes());
        params[8..16].copy_from_slice(&0x400_0000u64.to_le_bytes());
        params[16..20].copy_from_slice(&n.to_le_bytes());
        prove(
            ops,
            k,
            &params,
            grid,
            block,
            &unsafe_rows,
            &[(0x10000, bytes), (0x400_0000, bytes)],
        )
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

    #[test]
    fn accesses_narrower_than_a_word_are_not_proven() {
        // out[i] = byte: 4 blocks' bytes could share a word; the same index scaled by 4 is proven
        let bytes = " mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n mov.u32 %r4, %tid.x;\n\
             mad.lo.s32 %r5, %r2, %r3, %r4;\n cvt.u64.u32 %rd5, %r5;\n add.s64 %rd6, %rd3, %rd5;\n\
             st.global.u8 [%rd6], %r4;";
        assert!(proof(bytes, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        let words = bytes.replace("cvt.u64.u32 %rd5, %r5;", "mul.wide.u32 %rd5, %r5, 4;");
        assert!(proof(&words, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
        let words = words.replace("st.global.u8", "st.global.u32");
        assert!(proof(&words, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_some());
    }

    #[test]
    fn kernels_with_other_global_effects_are_not_proven() {
        let body = one_d(" mad.lo.s32 %r5, %r2, %r3, %r4;")
            + "\n cvta.to.global.u64 %rd9, %rd2;\n red.global.add.f32 [%rd9], %f1;";
        assert!(proof(&body, [64, 1, 1], [256, 1, 1], 1 << 20, 0).is_none());
    }
}
