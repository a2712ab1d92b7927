//! Fast paths: whole-row kernels for the common ALU operations, chosen once per instruction when
//! a kernel is decoded (see [`decode`]), so the hot loop dispatches once per warp instruction and
//! runs a monomorphised 32-lane loop that works in place on the register rows (no copies).
//!
//! Every fast path has a reference in [`crate::arith`]; the tests of this module run both on the
//! same inputs (random 64-bit values, including garbage above a narrow type's width, and edge
//! values) and require identical bits.

use warpscope_ptx::inst::*;

use crate::arith::{canon32, nan64_2, nan64_3};

#[cfg(test)]
use crate::arith;

/// One register row: one 64-bit value per lane.
pub(crate) type Row = [u64; 32];
/// All lanes active.
pub(crate) const FULL: u32 = u32::MAX;

// The row kernels are `unsafe fn`s: [`decode`] picks a kernel's copy compiled for AVX2 (`wide`)
// only where the CPU has AVX2 (`avx2`), so the instruction loop calls it straight, without a
// check and a second call a row. Calling a kernel of a decoded instruction is sound; any other
// caller must hold to the same (the safe `fn` of each name checks for itself).
/// `d = f(a)` on the lanes of `mask`.
pub(crate) type Fn1 = unsafe fn(&mut [Row], R, R, u32);
/// `d = f(a, b)` on the lanes of `mask`.
pub(crate) type Fn2 = unsafe fn(&mut [Row], R, R, R, u32);
/// `d = f(a, b, c)` on the lanes of `mask`.
pub(crate) type Fn3 = unsafe fn(&mut [Row], R, R, R, R, u32);
/// Lane mask of `f(a, b)` over all 32 lanes.
pub(crate) type CmpFn = unsafe fn(&Row, &Row) -> u32;

/// A decoded instruction: a fast row kernel, or the general instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) enum X {
    U1(Fn1, R, R),
    U2(Fn2, R, R, R),
    U3(Fn3, R, R, R, R),
    /// `setp` without a combining predicate: `p = f(a, b)`, `q = !p`.
    Setp(CmpFn, P, P, R, R),
    /// A plain 4-byte `ld.shared`/`st.shared` of one element per lane (the tiles' loads and
    /// stores): register `r`, address register `addr` (+ `off`), `st`, `addr32`. Executes as
    /// [`X::Gen`] of the same instruction would (the emulator's `shared32`, its test
    /// `crates/emu/tests/shared_fast.rs`).
    Sh32 {
        st: bool,
        addr32: bool,
        r: R,
        addr: R,
        off: i32,
    },
    /// Any other `ld` (not `.relaxed`/`.acquire`, which may yield) or `st`: the emulator's
    /// `ldst` called straight from the instruction loop, as [`X::Gen`] of the same instruction
    /// calls it.
    Ldst {
        st: bool,
        space: MemSpace,
        ty: Ty,
        vec: u8,
        addr32: bool,
        r: [R; 4],
        addr: R,
        off: i32,
    },
    /// A load whose values are known before the launch: the launch's `i`-th known load
    /// (`exec::known`). Executes as [`X::Ldst`] of the same instruction would.
    Known(u32),
    Gen(Inst),
}

/// A decoded instruction with its guard.
#[derive(Clone, Copy, Debug)]
pub(crate) struct XOp {
    pub x: X,
    pub guard: PSrc,
}

impl X {
    /// A row kernel or `setp`: an instruction that sends no event and cannot change the warp's
    /// control flow (the instruction loop runs a straight run of them without its per-instruction
    /// bookkeeping, [`alu_runs`]).
    pub(crate) fn is_alu(&self) -> bool {
        matches!(self, X::U1(..) | X::U2(..) | X::U3(..) | X::Setp(..))
    }
}

/// For each decoded instruction, how many instructions from it on are ALU instructions
/// ([`X::is_alu`]) in a row: 0 for any other instruction.
pub(crate) fn alu_runs(xops: &[XOp]) -> Vec<u32> {
    let mut runs = vec![0u32; xops.len()];
    let mut n = 0u32;
    for (r, op) in runs.iter_mut().zip(xops).rev() {
        n = if op.x.is_alu() { n + 1 } else { 0 };
        *r = n;
    }
    runs
}

/// Every register row index an instruction names (for validation), `NO_REG` excluded.
pub fn rows_of(i: &Inst) -> Vec<R> {
    let v: Vec<R> = match *i {
        Inst::Un { d, a, .. } => vec![d, a],
        Inst::Bin { d, a, b, .. } => vec![d, a, b],
        Inst::Tern { d, a, b, c, .. } => vec![d, a, b, c],
        Inst::FRound { d, a, b, c, .. } => vec![d, a, b, c],
        Inst::Carry { d, a, b, c, cc, .. } => vec![d, a, b, c, cc],
        Inst::Bfi {
            d, a, b, pos, len, ..
        } => vec![d, a, b, pos, len],
        Inst::Selp { d, a, b, .. } => vec![d, a, b],
        Inst::Setp { a, b, .. } => vec![a, b],
        Inst::Set { d, a, b, .. } => vec![d, a, b],
        Inst::PredOp { .. }
        | Inst::Bra { .. }
        | Inst::Exit
        | Inst::Call { .. }
        | Inst::Ret
        | Inst::Trap
        | Inst::Nop
        | Inst::ClusterBar { .. }
        | Inst::WgmmaSync { .. }
        | Inst::Printf { .. }
        | Inst::DevRt { .. }
        | Inst::AssertFail { .. } => vec![],
        Inst::BadCall { addr } => vec![addr],
        Inst::PredToReg { d, .. } => vec![d],
        Inst::RegToPred { a, .. } => vec![a],
        Inst::Cvt { d, a, .. } => vec![d, a],
        Inst::TestP { a, .. } => vec![a],
        Inst::Ld { d, addr, vec, .. } => {
            let mut v = d[..vec.min(4) as usize].to_vec();
            v.push(addr);
            v
        }
        Inst::St { a, addr, vec, .. } => {
            let mut v = a[..vec.min(4) as usize].to_vec();
            v.push(addr);
            v
        }
        Inst::Atom { d, addr, b, c, .. } => vec![d, addr, b, c],
        Inst::Cvta { d, a, .. } => vec![d, a],
        Inst::Bar { id, count, .. } => vec![id, count],
        Inst::BarRed { id, count, d, .. } => vec![id, count, d],
        Inst::Shfl { d, a, b, c, .. } => vec![d, a, b, c],
        Inst::Vote { d, m, .. } => vec![d, m],
        Inst::ActiveMask { d } | Inst::Clock { d } => vec![d],
        Inst::Match { d, a, m, .. } => vec![d, a, m],
        Inst::Pack2 { d, a, b, .. } => vec![d, a, b],
        Inst::Unpack2 { d0, d1, a, .. } => vec![d0, d1, a],
        Inst::Lop3 { d, a, b, c, .. } => vec![d, a, b, c],
        Inst::Redux { d, a, m, .. } => vec![d, a, m],
        Inst::Elect { d, m, .. } => vec![d, m],
        Inst::Mapa { d, a, rank, .. } => vec![d, a, rank],
        Inst::MovMatrix { d, a } => vec![d, a],
        Inst::Suld { d: r, surf, c, .. } | Inst::Sust { a: r, surf, c, .. } => {
            let mut v: Vec<R> = r.iter().chain(&c).copied().filter(|&x| x != NO_REG).collect();
            v.push(surf);
            v
        }
        Inst::Tex { d, tex, c, dims, .. } => {
            let mut v = d.to_vec();
            v.push(tex);
            v.extend_from_slice(&c[..dims as usize]);
            v
        }
        Inst::LdMatrix { d, addr, num, .. } => {
            let mut v = d[..num.min(4) as usize].to_vec();
            v.push(addr);
            v
        }
        Inst::StMatrix { a, addr, num, .. } => {
            let mut v = a[..num.min(4) as usize].to_vec();
            v.push(addr);
            v
        }
        Inst::CpAsync {
            dst, src, src_size, ..
        } => vec![dst, src, src_size],
        Inst::BulkCopy {
            dst, src, size, mbar, ..
        } => vec![dst, src, size, mbar],
        Inst::Mbar { d, addr, b, .. } => vec![d, addr, b],
        Inst::Tma { base, .. } => (0..TMA_ROWS as R).map(|k| base.saturating_add(k)).collect(),
        Inst::Mma {
            shape,
            aty,
            cty,
            base,
            ..
        } => {
            let n = shape.regs(aty, cty).map_or(1, |(a, b, c, d)| {
                u16::from(a) + u16::from(b) + u16::from(c) + u16::from(d)
            });
            (0..n).map(|k| base.saturating_add(k)).collect()
        }
        Inst::MmaSp { form, k, base, .. } => {
            let n: u16 = form.mma_sp_regs(u32::from(k)).iter().sum::<u16>() + 1;
            (0..n).map(|k| base.saturating_add(k)).collect()
        }
        Inst::Wgmma { form, d, a, b, .. } => {
            let mut v: Vec<R> = (0..form.d_regs() as u16).map(|k| d.saturating_add(k)).collect();
            let na = if form.a_regs() { 4 } else { 1 };
            v.extend((0..na).map(|k| a.saturating_add(k)));
            v.push(b);
            if form.sparse() {
                v.push(b.saturating_add(1));
            }
            v
        }
        Inst::WmmaLoad {
            base, addr, stride, ..
        }
        | Inst::WmmaStore {
            base, addr, stride, ..
        } => {
            let mut v: Vec<R> = (0..8).map(|k| base.saturating_add(k)).collect();
            v.extend([addr, stride]);
            v
        }
    };
    v.into_iter().filter(|&r| r != NO_REG).collect()
}

/// Every predicate index an instruction names, `PRED_TRUE` excluded.
fn preds_of(op: &Op) -> Vec<P> {
    let mut v = vec![op.guard.idx];
    match op.inst {
        Inst::Selp { p, .. } | Inst::PredToReg { p, .. } => v.push(p.idx),
        Inst::Setp { p, q, c, .. } => v.extend([p, q, c.idx]),
        Inst::PredOp { d, a, b, .. } => v.extend([d, a.idx, b.idx]),
        Inst::RegToPred { d, .. } => v.push(d),
        Inst::TestP { p, .. } | Inst::Shfl { p, .. } | Inst::Match { p, .. } => v.push(p),
        Inst::Vote { p, a, .. } => v.extend([p, a.idx]),
        Inst::BarRed { p, c, .. } => v.extend([p, c.idx]),
        Inst::Elect { p, .. } | Inst::Mbar { p, .. } => v.push(p),
        Inst::Wgmma { scale, .. } => v.push(scale.idx),
        _ => {}
    }
    v.into_iter().filter(|&p| p != PRED_TRUE).collect()
}

/// Decodes a kernel's instructions, choosing fast paths. Checks that every register and predicate
/// index is inside the kernel's rows (the invariant the row kernels rely on); the error names the
/// offending pc.
/// `shared_fast`: the launch keeps the kernel's own shared layout (no remap), so plain 4-byte
/// shared accesses get [`X::Sh32`].
pub(crate) fn decode(
    ops: &[Op],
    first_pc: u32,
    n_rows: u32,
    n_preds: u32,
    shared_fast: bool,
) -> Result<Vec<XOp>, String> {
    ops.iter()
        .enumerate()
        .map(|(k, op)| {
            if let Some(r) = rows_of(&op.inst).into_iter().find(|&r| r as u32 >= n_rows) {
                return Err(format!(
                    "pc {}: register row {r} outside the kernel's {n_rows} rows",
                    first_pc + k as u32
                ));
            }
            if let Some(p) = preds_of(op).into_iter().find(|&p| p as u32 >= n_preds) {
                return Err(format!(
                    "pc {}: predicate {p} outside the kernel's {n_preds} predicates",
                    first_pc + k as u32
                ));
            }
            let x = match op.inst {
                Inst::Un { op: o, ty, d, a } => fast_un(o, ty).map(|f| X::U1(f, d, a)),
                Inst::Bin { op: o, ty, d, a, b } => fast_bin(o, ty).map(|f| X::U2(f, d, a, b)),
                Inst::Tern {
                    op: o,
                    ty,
                    d,
                    a,
                    b,
                    c,
                } => fast_tern(o, ty).map(|f| X::U3(f, d, a, b, c)),
                Inst::Cvt {
                    dty,
                    sty,
                    rnd,
                    sat,
                    d,
                    a,
                } => fast_cvt(dty, sty, rnd, sat).map(|f| X::U1(f, d, a)),
                Inst::Setp {
                    cmp,
                    ty,
                    p,
                    q,
                    a,
                    b,
                    bop: None,
                    ..
                } => fast_cmp(cmp, ty).map(|f| X::Setp(f, p, q, a, b)),
                Inst::Ld {
                    space: MemSpace::Shared,
                    ty,
                    vec: 1,
                    addr32,
                    sync: false,
                    d,
                    addr,
                    off,
                } if ty.bytes() == 4 && shared_fast => Some(X::Sh32 {
                    st: false,
                    addr32,
                    r: d[0],
                    addr,
                    off,
                }),
                Inst::St {
                    space: MemSpace::Shared,
                    ty,
                    vec: 1,
                    addr32,
                    a,
                    addr,
                    off,
                } if ty.bytes() == 4 && shared_fast => Some(X::Sh32 {
                    st: true,
                    addr32,
                    r: a[0],
                    addr,
                    off,
                }),
                // `cvta` to or from a space whose window starts at 0 (global): a 64-bit move, as
                // the emulator's general `cvta` computes it (the address moved by 0)
                Inst::Cvta { space, d, a, .. }
                    if !matches!(
                        space,
                        MemSpace::Shared
                            | MemSpace::Local
                            | MemSpace::CallParam
                            | MemSpace::Const
                            | MemSpace::KernelParam
                    ) =>
                {
                    fast_un(UnOp::Mov, Ty::U64).map(|f| X::U1(f, d, a))
                }
                Inst::Ld {
                    space,
                    ty,
                    vec,
                    addr32,
                    sync: false,
                    d,
                    addr,
                    off,
                } => Some(X::Ldst {
                    st: false,
                    space,
                    ty,
                    vec,
                    addr32,
                    r: d,
                    addr,
                    off,
                }),
                Inst::St {
                    space,
                    ty,
                    vec,
                    addr32,
                    a,
                    addr,
                    off,
                } => Some(X::Ldst {
                    st: true,
                    space,
                    ty,
                    vec,
                    addr32,
                    r: a,
                    addr,
                    off,
                }),
                _ => None,
            };
            Ok(XOp {
                x: x.unwrap_or(X::Gen(op.inst)),
                guard: op.guard,
            })
        })
        .collect()
}

// ----- in-place row loops -----

/// `d = f(a)` in place on the lanes of `mask`. Panics only if an index is outside `regs`, which
/// [`decode`] rules out.
#[inline(always)]
pub(crate) fn map1(regs: &mut [Row], d: R, a: R, mask: u32, f: impl Fn(u64) -> u64) {
    let (d, a) = (d as usize, a as usize);
    assert!(d < regs.len() && a < regs.len());
    let p = regs.as_mut_ptr();
    // SAFETY: both indices are in bounds (asserted above), so every pointer below stays inside
    // `regs`, which we borrow mutably. Rows may alias (d == a): each lane (or group of four lanes)
    // reads its sources before writing the same lanes of the destination, and lanes never read
    // other lanes, so the result equals that of copying the sources first.
    unsafe {
        let pa = p.add(a) as *const [u64; 4];
        let pd = p.add(d) as *mut [u64; 4];
        if mask == FULL {
            for c in 0..8 {
                let x = *pa.add(c);
                *pd.add(c) = [f(x[0]), f(x[1]), f(x[2]), f(x[3])];
            }
        } else {
            let (pa, pd) = (pa as *const u64, pd as *mut u64);
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                *pd.add(l) = f(*pa.add(l));
                m &= m - 1;
            }
        }
    }
}

/// `d = f(a, b)` in place on the lanes of `mask` (see [`map1`]).
#[inline(always)]
pub(crate) fn map2(regs: &mut [Row], d: R, a: R, b: R, mask: u32, f: impl Fn(u64, u64) -> u64) {
    let (d, a, b) = (d as usize, a as usize, b as usize);
    assert!(d < regs.len() && a < regs.len() && b < regs.len());
    let p = regs.as_mut_ptr();
    // SAFETY: as in `map1`: indices asserted in bounds; aliasing rows are read before written,
    // lane group by lane group.
    unsafe {
        let pa = p.add(a) as *const [u64; 4];
        let pb = p.add(b) as *const [u64; 4];
        let pd = p.add(d) as *mut [u64; 4];
        if mask == FULL {
            for c in 0..8 {
                let (x, y) = (*pa.add(c), *pb.add(c));
                *pd.add(c) = [f(x[0], y[0]), f(x[1], y[1]), f(x[2], y[2]), f(x[3], y[3])];
            }
        } else {
            let (pa, pb, pd) = (pa as *const u64, pb as *const u64, pd as *mut u64);
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                *pd.add(l) = f(*pa.add(l), *pb.add(l));
                m &= m - 1;
            }
        }
    }
}

/// `d = f(a, b, c)` in place on the lanes of `mask` (see [`map1`]).
#[inline(always)]
pub(crate) fn map3(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32, f: impl Fn(u64, u64, u64) -> u64) {
    let (d, a, b, c) = (d as usize, a as usize, b as usize, c as usize);
    let n = regs.len();
    assert!(d < n && a < n && b < n && c < n);
    let p = regs.as_mut_ptr();
    // SAFETY: as in `map1`.
    unsafe {
        let pa = p.add(a) as *const [u64; 4];
        let pb = p.add(b) as *const [u64; 4];
        let pc = p.add(c) as *const [u64; 4];
        let pd = p.add(d) as *mut [u64; 4];
        if mask == FULL {
            for k in 0..8 {
                let (x, y, z) = (*pa.add(k), *pb.add(k), *pc.add(k));
                *pd.add(k) = [
                    f(x[0], y[0], z[0]),
                    f(x[1], y[1], z[1]),
                    f(x[2], y[2], z[2]),
                    f(x[3], y[3], z[3]),
                ];
            }
        } else {
            let (pa, pb, pc, pd) = (
                pa as *const u64,
                pb as *const u64,
                pc as *const u64,
                pd as *mut u64,
            );
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                *pd.add(l) = f(*pa.add(l), *pb.add(l), *pc.add(l));
                m &= m - 1;
            }
        }
    }
}

/// Lane mask of `f(a[l], b[l])`.
#[inline(always)]
pub(crate) fn cmp_bits(a: &Row, b: &Row, f: impl Fn(u64, u64) -> bool) -> u32 {
    let mut bits = 0u32;
    for l in 0..32 {
        bits |= (f(a[l], b[l]) as u32) << l;
    }
    bits
}

// ----- the fast kernels -----

#[inline(always)]
fn f32v(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
fn f32b(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
fn f64v(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn i32v(x: u64) -> i32 {
    x as u32 as i32
}

/// Whether the CPU has AVX2: each row kernel then runs a copy of itself compiled for it (the
/// same Rust, so the same bits: 4 lanes per vector instead of 2, and the per-lane shifts and 64-bit
/// compares SSE2 lacks). std caches the answer; the check is one load per warp instruction.
#[inline(always)]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A row kernel `$name` (safe: AVX2 checked a call) and its AVX2 copy `$name::wide`, which
/// [`decode`] picks where the CPU has AVX2 ([`pick`]).
macro_rules! k1 {
    ($name:ident, |$x:ident| $e:expr) => {
        fn $name(regs: &mut [Row], d: R, a: R, mask: u32) {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(regs, d, a, mask) };
            }
            map1(regs, d, a, mask, |$x: u64| $e)
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(regs: &mut [Row], d: R, a: R, mask: u32) {
                map1(regs, d, a, mask, |$x: u64| $e)
            }
        }
    };
}
macro_rules! k2 {
    ($name:ident, |$x:ident, $y:ident| $e:expr) => {
        fn $name(regs: &mut [Row], d: R, a: R, b: R, mask: u32) {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(regs, d, a, b, mask) };
            }
            map2(regs, d, a, b, mask, |$x: u64, $y: u64| $e)
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(regs: &mut [Row], d: R, a: R, b: R, mask: u32) {
                map2(regs, d, a, b, mask, |$x: u64, $y: u64| $e)
            }
        }
    };
}
macro_rules! k3 {
    ($name:ident, |$x:ident, $y:ident, $z:ident| $e:expr) => {
        fn $name(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(regs, d, a, b, c, mask) };
            }
            map3(regs, d, a, b, c, mask, |$x: u64, $y: u64, $z: u64| $e)
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
                map3(regs, d, a, b, c, mask, |$x: u64, $y: u64, $z: u64| $e)
            }
        }
    };
}
macro_rules! kc {
    ($name:ident, |$x:ident, $y:ident| $e:expr) => {
        fn $name(a: &Row, b: &Row) -> u32 {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(a, b) };
            }
            cmp_bits(a, b, |$x: u64, $y: u64| $e)
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(a: &Row, b: &Row) -> u32 {
                cmp_bits(a, b, |$x: u64, $y: u64| $e)
            }
        }
    };
}

/// f32 arithmetic of whole rows (every lane on) 8 lanes to a 256-bit vector: each row's 64-bit
/// words narrowed to their low halves by one shuffle of two loads, the operation, the NaN
/// canonicalised, and the results widened back by two unpacks with zero. The shuffle puts a chunk's
/// lanes in the order 0 1 4 5 | 2 3 6 7 and the unpacks undo it, so lane `l` of the result is the
/// operation on lane `l` of the sources. The same IEEE operation as the scalar kernel lane by
/// lane (the default rounding, no flush), so the same bits; [`map2`]'s 4-lane form narrowed and
/// widened every 4 lanes on their own (about twice the host instructions a row).
#[cfg(target_arch = "x86_64")]
mod f32x8 {
    use super::{R, Row};
    use std::arch::x86_64::*;

    pub(super) const ADD: u8 = 0;
    pub(super) const SUB: u8 = 1;
    pub(super) const MUL: u8 = 2;
    pub(super) const DIV: u8 = 3;

    /// Lanes `0..8` from `p` as f32, in the order 0 1 4 5 | 2 3 6 7.
    ///
    /// # Safety
    /// AVX; `p..p + 8` readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn narrow(p: *const u64) -> __m256 {
        // SAFETY: the caller's
        unsafe {
            let lo = _mm256_loadu_ps(p as *const f32);
            let hi = _mm256_loadu_ps(p.add(4) as *const f32);
            _mm256_shuffle_ps::<0b10_00_10_00>(lo, hi)
        }
    }

    /// `r` (in [`narrow`]'s order) canonicalised (`arith::canon32`: a NaN is 0x7fff_ffff) and
    /// stored zero-extended to lanes `0..8` at `p`.
    ///
    /// # Safety
    /// AVX; `p..p + 8` writable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn widen(p: *mut u64, r: __m256) {
        // SAFETY: the caller's
        unsafe {
            let nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(r, r);
            let canon = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
            let r = _mm256_blendv_ps(r, canon, nan);
            let z = _mm256_setzero_ps();
            _mm256_storeu_ps(p as *mut f32, _mm256_unpacklo_ps(r, z));
            _mm256_storeu_ps(p.add(4) as *mut f32, _mm256_unpackhi_ps(r, z));
        }
    }

    /// `d = a OP b` on every lane (rows may alias: each chunk of 8 lanes reads its sources
    /// before it writes).
    ///
    /// # Safety
    /// AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn full2<const OP: u8>(regs: &mut [Row], d: R, a: R, b: R) {
        let (d, a, b) = (d as usize, a as usize, b as usize);
        assert!(d < regs.len() && a < regs.len() && b < regs.len());
        let p = regs.as_mut_ptr() as *mut u64;
        // SAFETY: the rows are in bounds (asserted), 32 words each; the CPU has AVX2 (the
        // caller's)
        unsafe {
            let (pa, pb, pd) = (p.add(a * 32), p.add(b * 32), p.add(d * 32));
            for c in 0..4 {
                let (x, y) = (narrow(pa.add(8 * c)), narrow(pb.add(8 * c)));
                let r = match OP {
                    ADD => _mm256_add_ps(x, y),
                    SUB => _mm256_sub_ps(x, y),
                    MUL => _mm256_mul_ps(x, y),
                    _ => _mm256_div_ps(x, y),
                };
                widen(pd.add(8 * c), r);
            }
        }
    }

    /// `d = fma(a, b, c)` (one rounding) on every lane, as [`full2`].
    ///
    /// # Safety
    /// AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub(super) unsafe fn fma(regs: &mut [Row], d: R, a: R, b: R, c: R) {
        let (d, a, b, c) = (d as usize, a as usize, b as usize, c as usize);
        let n = regs.len();
        assert!(d < n && a < n && b < n && c < n);
        let p = regs.as_mut_ptr() as *mut u64;
        // SAFETY: as in `full2`; the CPU has FMA too (the caller's)
        unsafe {
            let (pa, pb, pc, pd) = (p.add(a * 32), p.add(b * 32), p.add(c * 32), p.add(d * 32));
            for k in 0..4 {
                let (x, y, z) = (
                    narrow(pa.add(8 * k)),
                    narrow(pb.add(8 * k)),
                    narrow(pc.add(8 * k)),
                );
                widen(pd.add(8 * k), _mm256_fmadd_ps(x, y, z));
            }
        }
    }
}

/// [`k2`] for f32 arithmetic: a full warp through [`f32x8`] in the AVX2 copy.
macro_rules! kf2 {
    ($name:ident, |$x:ident, $y:ident| $e:expr, $op:expr) => {
        fn $name(regs: &mut [Row], d: R, a: R, b: R, mask: u32) {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(regs, d, a, b, mask) };
            }
            map2(regs, d, a, b, mask, |$x: u64, $y: u64| $e)
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(regs: &mut [Row], d: R, a: R, b: R, mask: u32) {
                if mask == FULL {
                    // SAFETY: the CPU has AVX2 (the caller's)
                    return unsafe { f32x8::full2::<{ $op }>(regs, d, a, b) };
                }
                map2(regs, d, a, b, mask, |$x: u64, $y: u64| $e)
            }
        }
    };
}

/// The kernel `$name`'s AVX2 copy where the CPU has AVX2, else the kernel (which then runs its
/// plain loop).
macro_rules! pick {
    ($name:ident) => {{
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            return Some($name::wide);
        }
        $name
    }};
}

k1!(mov64, |x| x);
k1!(mov32, |x| x & 0xffff_ffff);
k1!(neg32, |x| (x as u32).wrapping_neg() as u64);
k1!(not32, |x| !(x as u32) as u64);
k1!(not64, |x| !x);
// neg of a NaN gives the canonical NaN on the H100 (arith::un)
k1!(negf32, |x| if x as u32 & 0x7fff_ffff > 0x7f80_0000 {
    0x7fff_ffff
} else {
    (x as u32 ^ 0x8000_0000) as u64
});
k1!(absf32, |x| if x as u32 & 0x7fff_ffff > 0x7f80_0000 {
    0x7fff_ffff
} else {
    (x as u32 & 0x7fff_ffff) as u64
});
k1!(sext32, |x| x as u32 as i32 as i64 as u64);
k1!(f32_from_s32, |x| f32b(i32v(x) as f32));
k1!(f32_from_u32, |x| f32b(x as u32 as f32));
k1!(s32_from_f32_rzi, |x| f32v(x) as i32 as u32 as u64);
k1!(u32_from_f32_rzi, |x| f32v(x) as u32 as u64);
k1!(f64_from_f32, |x| (f32v(x) as f64).to_bits());
k1!(f32_from_f64, |x| f32b(f64v(x) as f32));

fn fast_un(op: UnOp, ty: Ty) -> Option<Fn1> {
    use Ty::*;
    Some(match (op, ty) {
        (UnOp::Mov, U64 | S64 | F64) => pick!(mov64),
        (UnOp::Mov, U32 | S32 | F32) => pick!(mov32),
        (UnOp::Neg, U32 | S32) => pick!(neg32),
        (UnOp::Not, U32 | S32) => pick!(not32),
        (UnOp::Not, U64 | S64) => pick!(not64),
        (UnOp::Neg, F32) => pick!(negf32),
        (UnOp::Abs, F32) => pick!(absf32),
        // the multi-function unit's approximations, lane by lane as `arith::un` computes them
        (UnOp::RsqrtFtz, F32) => pick!(mufu_rsq),
        (UnOp::Rsqrt, F32) => pick!(mufu_rsqrt_approx),
        (UnOp::SqrtApproxFtz, F32) => pick!(mufu_sqrt),
        (UnOp::SqrtApprox, F32) => pick!(mufu_sqrt_approx),
        (UnOp::Ex2Ftz, F32) => pick!(mufu_ex2),
        (UnOp::Ex2, F32) => pick!(mufu_ex2_approx),
        (UnOp::Lg2Ftz, F32) => pick!(mufu_lg2),
        (UnOp::Lg2, F32) => pick!(mufu_lg2_approx),
        (UnOp::Sin, F32) => pick!(mufu_sin),
        (UnOp::Cos, F32) => pick!(mufu_cos),
        (UnOp::Tanh, F32) => pick!(mufu_tanh),
        _ => return None,
    })
}

/// A `MUFU.RSQ` row kernel (`approx`: `rsqrt.approx.f32`'s input handling): the 32 lanes' table
/// lookups together (`mufu::rsq_lanes`), the same bits as `rsq` lane by lane; its AVX2 copy
/// (`$name::wide`, chosen at decode) computes them 8 lanes to a vector (`mufu::rsq_lanes_avx2`).
macro_rules! rsq_kernel {
    ($name:ident, $approx:expr) => {
        fn $name(regs: &mut [Row], d: R, a: R, mask: u32) {
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $name::wide(regs, d, a, mask) };
            }
            rsq_row(regs, d, a, mask, |xs| crate::mufu::rsq_lanes($approx, xs))
        }
        #[cfg(target_arch = "x86_64")]
        mod $name {
            use super::*;
            /// # Safety
            /// The CPU has AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn wide(regs: &mut [Row], d: R, a: R, mask: u32) {
                // SAFETY: the CPU has AVX2 (this function's contract)
                rsq_row(regs, d, a, mask, |xs| unsafe {
                    crate::mufu::rsq_lanes_avx2($approx, xs)
                })
            }
        }
    };
}
// `MUFU.RSQ` of a row and `rsqrt.approx.f32` of a row
rsq_kernel!(mufu_rsq, false);
rsq_kernel!(mufu_rsqrt_approx, true);

/// The row `d` of `lanes` (32 lookups at once) of the row `a`'s low words on the lanes of `mask`.
#[inline(always)]
fn rsq_row(regs: &mut [Row], d: R, a: R, mask: u32, lanes: impl Fn(&[u32; 32]) -> [u32; 32]) {
    let mut xs = [0u32; 32];
    for (x, &v) in xs.iter_mut().zip(&regs[a as usize]) {
        *x = v as u32;
    }
    let r = lanes(&xs);
    let row = &mut regs[d as usize];
    if mask == FULL {
        // every lane written: a plain widening copy (vectors), no test a lane
        for (v, &r) in row.iter_mut().zip(&r) {
            *v = u64::from(r);
        }
    } else {
        for (l, (v, &r)) in row.iter_mut().zip(&r).enumerate() {
            if mask >> l & 1 != 0 {
                *v = u64::from(r);
            }
        }
    }
}
k1!(mufu_sqrt, |x| crate::mufu::sqrt(x as u32) as u64);
k1!(mufu_sqrt_approx, |x| crate::mufu::sqrt_approx(x as u32) as u64);
k1!(mufu_ex2, |x| crate::mufu::ex2(x as u32) as u64);
k1!(mufu_ex2_approx, |x| crate::mufu::ex2_approx(x as u32) as u64);
k1!(mufu_lg2, |x| crate::mufu::lg2(x as u32) as u64);
k1!(mufu_lg2_approx, |x| crate::mufu::lg2_approx(x as u32) as u64);
k1!(mufu_sin, |x| crate::mufu::sin_approx(x as u32) as u64);
k1!(mufu_cos, |x| crate::mufu::cos_approx(x as u32) as u64);
k1!(mufu_tanh, |x| crate::mufu::tanh(x as u32) as u64);

k2!(add32, |x, y| (x as u32).wrapping_add(y as u32) as u64);
k2!(sub32, |x, y| (x as u32).wrapping_sub(y as u32) as u64);
k2!(mul32, |x, y| (x as u32).wrapping_mul(y as u32) as u64);
k2!(add64, |x, y| x.wrapping_add(y));
k2!(sub64, |x, y| x.wrapping_sub(y));
k2!(mul64, |x, y| x.wrapping_mul(y));
k2!(mulwide_u32, |x, y| (x as u32 as u64) * (y as u32 as u64));
k2!(mulwide_s32, |x, y| (i32v(x) as i64 * i32v(y) as i64) as u64);
k2!(and32, |x, y| (x & y) & 0xffff_ffff);
k2!(or32, |x, y| (x | y) & 0xffff_ffff);
k2!(xor32, |x, y| (x ^ y) & 0xffff_ffff);
k2!(and64, |x, y| x & y);
k2!(or64, |x, y| x | y);
k2!(xor64, |x, y| x ^ y);
k2!(shl32, |x, y| if (y as u32) < 32 {
    ((x as u32) << (y as u32)) as u64
} else {
    0
});
k2!(shl64, |x, y| if (y as u32) < 64 { x << (y as u32) } else { 0 });
k2!(shr_u32, |x, y| if (y as u32) < 32 {
    ((x as u32) >> (y as u32)) as u64
} else {
    0
});
k2!(shr_s32, |x, y| (i32v(x) >> (y as u32).min(31)) as u32 as u64);
k2!(shr_u64, |x, y| if (y as u32) < 64 { x >> (y as u32) } else { 0 });
k2!(shr_s64, |x, y| ((x as i64) >> (y as u32).min(63)) as u64);
k2!(min_s32, |x, y| i32v(x).min(i32v(y)) as u32 as u64);
k2!(max_s32, |x, y| i32v(x).max(i32v(y)) as u32 as u64);
k2!(min_u32, |x, y| (x as u32).min(y as u32) as u64);
k2!(max_u32, |x, y| (x as u32).max(y as u32) as u64);
kf2!(addf32, |x, y| canon32(f32v(x) + f32v(y)), f32x8::ADD);
kf2!(subf32, |x, y| canon32(f32v(x) - f32v(y)), f32x8::SUB);
kf2!(mulf32, |x, y| canon32(f32v(x) * f32v(y)), f32x8::MUL);
kf2!(divf32, |x, y| canon32(f32v(x) / f32v(y)), f32x8::DIV);
k2!(addf64, |x, y| nan64_2(f64v(x) + f64v(y), f64v(x), f64v(y)));
k2!(subf64, |x, y| nan64_2(f64v(x) - f64v(y), f64v(x), f64v(y)));
k2!(mulf64, |x, y| nan64_2(f64v(x) * f64v(y), f64v(x), f64v(y)));

fn fast_bin(op: BinOp, ty: Ty) -> Option<Fn2> {
    use BinOp::*;
    use Ty::*;
    Some(match (op, ty) {
        (Add, U32 | S32) => pick!(add32),
        (Sub, U32 | S32) => pick!(sub32),
        (MulLo, U32 | S32) => pick!(mul32),
        (Add, U64 | S64) => pick!(add64),
        (Sub, U64 | S64) => pick!(sub64),
        (MulLo, U64 | S64) => pick!(mul64),
        (MulWide, U32) => pick!(mulwide_u32),
        (MulWide, S32) => pick!(mulwide_s32),
        (And, U32 | S32) => pick!(and32),
        (Or, U32 | S32) => pick!(or32),
        (Xor, U32 | S32) => pick!(xor32),
        (And, U64 | S64) => pick!(and64),
        (Or, U64 | S64) => pick!(or64),
        (Xor, U64 | S64) => pick!(xor64),
        (Shl, U32 | S32) => pick!(shl32),
        (Shl, U64 | S64) => pick!(shl64),
        (Shr, U32) => pick!(shr_u32),
        (Shr, S32) => pick!(shr_s32),
        (Shr, U64) => pick!(shr_u64),
        (Shr, S64) => pick!(shr_s64),
        (Min, S32) => pick!(min_s32),
        (Max, S32) => pick!(max_s32),
        (Min, U32) => pick!(min_u32),
        (Max, U32) => pick!(max_u32),
        (Add, F32) => pick!(addf32),
        (Sub, F32) => pick!(subf32),
        (MulLo, F32) => pick!(mulf32),
        (Div, F32) => pick!(divf32),
        (Add, F64) => pick!(addf64),
        (Sub, F64) => pick!(subf64),
        (MulLo, F64) => pick!(mulf64),
        _ => return None,
    })
}

k3!(
    mad32,
    |x, y, z| (x as u32).wrapping_mul(y as u32).wrapping_add(z as u32) as u64
);
k3!(mad64, |x, y, z| x.wrapping_mul(y).wrapping_add(z));
k3!(madwide_u32, |x, y, z| ((x as u32 as u64) * (y as u32 as u64))
    .wrapping_add(z));
k3!(madwide_s32, |x, y, z| ((i32v(x) as i64 * i32v(y) as i64) as u64)
    .wrapping_add(z));
k3!(fmaf32_soft, |x, y, z| canon32(f32v(x).mul_add(f32v(y), f32v(z))));
k3!(fmaf64_soft, |x, y, z| nan64_3(
    f64v(x).mul_add(f64v(y), f64v(z)),
    f64v(x),
    f64v(y),
    f64v(z)
));

/// `fma.f32` with the hardware instruction.
///
/// # Safety
/// The CPU must support FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fmaf32_hw(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
    map3(regs, d, a, b, c, mask, |x, y, z| {
        canon32(f32v(x).mul_add(f32v(y), f32v(z)))
    })
}

/// `fma.f64` with the hardware instruction.
///
/// # Safety
/// The CPU must support FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn fmaf64_hw(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
    map3(regs, d, a, b, c, mask, |x, y, z| {
        nan64_3(f64v(x).mul_add(f64v(y), f64v(z)), f64v(x), f64v(y), f64v(z))
    })
}

/// [`fmaf32_hw`] compiled for AVX2 too: a full warp through [`f32x8::fma`], other masks lane by
/// lane (the same instruction per lane, so the same bits).
///
/// # Safety
/// The CPU must support FMA and AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fmaf32_hw_wide(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
    if mask == FULL {
        // SAFETY: the CPU has AVX2 and FMA (the caller's)
        return unsafe { f32x8::fma(regs, d, a, b, c) };
    }
    map3(regs, d, a, b, c, mask, |x, y, z| {
        canon32(f32v(x).mul_add(f32v(y), f32v(z)))
    })
}

#[cfg(target_arch = "x86_64")]
fn fmaf32(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
    if avx2() && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports FMA and AVX2 (checked just above).
        unsafe { fmaf32_hw_wide(regs, d, a, b, c, mask) }
    } else if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports FMA (checked just above).
        unsafe { fmaf32_hw(regs, d, a, b, c, mask) }
    } else {
        fmaf32_soft(regs, d, a, b, c, mask)
    }
}
#[cfg(target_arch = "x86_64")]
fn fmaf64(regs: &mut [Row], d: R, a: R, b: R, c: R, mask: u32) {
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports FMA (checked just above).
        unsafe { fmaf64_hw(regs, d, a, b, c, mask) }
    } else {
        fmaf64_soft(regs, d, a, b, c, mask)
    }
}
#[cfg(not(target_arch = "x86_64"))]
use {fmaf32_soft as fmaf32, fmaf64_soft as fmaf64};

fn fast_tern(op: TernOp, ty: Ty) -> Option<Fn3> {
    use TernOp::*;
    use Ty::*;
    Some(match (op, ty) {
        (MadLo, U32 | S32) => pick!(mad32),
        (MadLo, U64 | S64) => pick!(mad64),
        (MadWide, U32) => pick!(madwide_u32),
        (MadWide, S32) => pick!(madwide_s32),
        (Fma, F32) => {
            #[cfg(target_arch = "x86_64")]
            if avx2() && std::arch::is_x86_feature_detected!("fma") {
                return Some(fmaf32_hw_wide);
            }
            fmaf32
        }
        (Fma, F64) => fmaf64,
        _ => return None,
    })
}

fn fast_cvt(dty: Ty, sty: Ty, rnd: Rnd, sat: bool) -> Option<Fn1> {
    use Ty::*;
    if sat {
        return None;
    }
    let near = matches!(rnd, Rnd::Default | Rnd::Rn);
    Some(match (dty, sty) {
        (U64 | S64, U32) => pick!(mov32),
        (U64 | S64, S32) => pick!(sext32),
        (U32 | S32, U64 | S64) => pick!(mov32),
        (F32, S32) if near => pick!(f32_from_s32),
        (F32, U32) if near => pick!(f32_from_u32),
        (S32, F32) if matches!(rnd, Rnd::Rzi | Rnd::Default) => pick!(s32_from_f32_rzi),
        (U32, F32) if matches!(rnd, Rnd::Rzi | Rnd::Default) => pick!(u32_from_f32_rzi),
        (F64, F32) if near => pick!(f64_from_f32),
        (F32, F64) if near => pick!(f32_from_f64),
        _ => return None,
    })
}

kc!(eq32, |x, y| x as u32 == y as u32);
kc!(ne32, |x, y| x as u32 != y as u32);
kc!(lt_s32, |x, y| i32v(x) < i32v(y));
kc!(le_s32, |x, y| i32v(x) <= i32v(y));
kc!(gt_s32, |x, y| i32v(x) > i32v(y));
kc!(ge_s32, |x, y| i32v(x) >= i32v(y));
kc!(lt_u32, |x, y| (x as u32) < (y as u32));
kc!(le_u32, |x, y| (x as u32) <= (y as u32));
kc!(gt_u32, |x, y| (x as u32) > (y as u32));
kc!(ge_u32, |x, y| (x as u32) >= (y as u32));
kc!(eq64, |x, y| x == y);
kc!(ne64, |x, y| x != y);
kc!(lt_s64, |x, y| (x as i64) < (y as i64));
kc!(le_s64, |x, y| (x as i64) <= (y as i64));
kc!(gt_s64, |x, y| (x as i64) > (y as i64));
kc!(ge_s64, |x, y| (x as i64) >= (y as i64));
kc!(lt_u64, |x, y| x < y);
kc!(le_u64, |x, y| x <= y);
kc!(gt_u64, |x, y| x > y);
kc!(ge_u64, |x, y| x >= y);
kc!(eqf32, |x, y| f32v(x) == f32v(y));
kc!(nef32, |x, y| {
    let (a, b) = (f32v(x), f32v(y));
    !a.is_nan() && !b.is_nan() && a != b
});
kc!(ltf32, |x, y| f32v(x) < f32v(y));
kc!(lef32, |x, y| f32v(x) <= f32v(y));
kc!(gtf32, |x, y| f32v(x) > f32v(y));
kc!(gef32, |x, y| f32v(x) >= f32v(y));

fn fast_cmp(c: Cmp, ty: Ty) -> Option<CmpFn> {
    use Cmp::*;
    use Ty::*;
    Some(match (c, ty) {
        (Eq, U32 | S32) => pick!(eq32),
        (Ne, U32 | S32) => pick!(ne32),
        (Lt, S32) => pick!(lt_s32),
        (Le, S32) => pick!(le_s32),
        (Gt, S32) => pick!(gt_s32),
        (Ge, S32) => pick!(ge_s32),
        (Lt | Lo, U32) | (Lo, S32) => pick!(lt_u32),
        (Le | Ls, U32) | (Ls, S32) => pick!(le_u32),
        (Gt | Hi, U32) | (Hi, S32) => pick!(gt_u32),
        (Ge | Hs, U32) | (Hs, S32) => pick!(ge_u32),
        (Eq, U64 | S64) => pick!(eq64),
        (Ne, U64 | S64) => pick!(ne64),
        (Lt, S64) => pick!(lt_s64),
        (Le, S64) => pick!(le_s64),
        (Gt, S64) => pick!(gt_s64),
        (Ge, S64) => pick!(ge_s64),
        (Lt | Lo, U64) | (Lo, S64) => pick!(lt_u64),
        (Le | Ls, U64) | (Ls, S64) => pick!(le_u64),
        (Gt | Hi, U64) | (Hi, S64) => pick!(gt_u64),
        (Ge | Hs, U64) | (Hs, S64) => pick!(ge_u64),
        (Eq, F32) => pick!(eqf32),
        (Ne, F32) => pick!(nef32),
        (Lt, F32) => pick!(ltf32),
        (Le, F32) => pick!(lef32),
        (Gt, F32) => pick!(gtf32),
        (Ge, F32) => pick!(gef32),
        _ => return None,
    })
}

/// The reference of a decoded fast instruction, for the tests: the `arith` function it replaces.
#[cfg(test)]
fn reference(i: &Inst) -> Box<dyn Fn(u64, u64, u64) -> u64> {
    match *i {
        Inst::Un { op, ty, .. } => Box::new(move |a, _, _| arith::un(op, ty, a)),
        Inst::Bin { op, ty, .. } => Box::new(move |a, b, _| arith::bin(op, ty, a, b)),
        Inst::Tern { op, ty, .. } => Box::new(move |a, b, c| arith::tern(op, ty, a, b, c)),
        Inst::Cvt {
            dty, sty, rnd, sat, ..
        } => Box::new(move |a, _, _| arith::cvt(dty, sty, rnd, sat, a)),
        Inst::Setp { cmp, ty, .. } => Box::new(move |a, b, _| arith::cmp(cmp, ty, a, b) as u64),
        _ => unreachable!("no fast path"),
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop, clippy::type_complexity)]
mod tests {
    use super::*;

    const TYS: [Ty; 11] = [
        Ty::U8,
        Ty::U16,
        Ty::U32,
        Ty::U64,
        Ty::S8,
        Ty::S16,
        Ty::S32,
        Ty::S64,
        Ty::F16,
        Ty::F32,
        Ty::F64,
    ];

    /// Edge values (integers, f32 and f64 bit patterns, garbage above 32 bits) and random ones.
    fn values() -> Vec<u64> {
        let f = |x: f32| x.to_bits() as u64;
        let d = |x: f64| x.to_bits();
        let mut v = vec![
            0,
            1,
            2,
            7,
            31,
            32,
            33,
            63,
            64,
            65,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1_0000_0000,
            u64::MAX,
            1 << 63,
            i64::MAX as u64,
            f(1.0),
            f(-1.0),
            f(0.5),
            f(-0.0),
            f(3.75),
            f(-2.5e9),
            f(1.0e10),
            f(16_777_217.0),
            f(f32::NAN),
            f(-f32::NAN),
            f(f32::INFINITY),
            f(f32::NEG_INFINITY),
            f(f32::MAX),
            f(f32::MIN_POSITIVE),
            1, // smallest f32 subnormal
            d(1.0),
            d(-2.5),
            d(f64::NAN),
            d(f64::INFINITY),
            d(-0.0),
            d(1e300),
            d(9_007_199_254_740_993.0),
        ];
        let n = v.len();
        for i in 0..n {
            v.push(v[i] | 0xdead_beef_0000_0000); // garbage above a 32-bit value
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(x);
            v.push(x & 0xffff_ffff);
        }
        v
    }

    /// Runs `fast` on rows built from the value triples and compares every lane with `reference`,
    /// with a full mask, a partial mask (untouched lanes keep their value) and the destination
    /// aliasing each source.
    fn check(
        name: &str,
        arity: usize,
        fast: &dyn Fn(&mut [Row], R, R, R, R, u32),
        reference: &dyn Fn(u64, u64, u64) -> u64,
    ) {
        let vals = values();
        let n = vals.len();
        let mut triples = Vec::new();
        for i in 0..n {
            for j in 0..n {
                triples.push((vals[i], vals[j], vals[(i * 7 + j * 3) % n]));
            }
        }
        if arity == 1 {
            triples.truncate(n);
            for (k, t) in triples.iter_mut().enumerate() {
                t.0 = vals[k];
            }
        }
        for chunk in triples.chunks(32) {
            // the destination apart, then each source row in turn (a full warp: the 8-lane f32
            // kernels read a chunk's sources before writing it)
            for (mask, d) in [(FULL, 3), (0x5a5a_c3c3, 3), (FULL, 0), (FULL, 1), (FULL, 2)] {
                let mut regs = vec![[0u64; 32]; 4];
                for (l, &(a, b, c)) in chunk.iter().enumerate() {
                    regs[0][l] = a;
                    regs[1][l] = b;
                    regs[2][l] = c;
                    regs[3][l] = 0x1234_5678;
                }
                let before = regs.clone();
                fast(&mut regs, d, 0, 1, 2, mask);
                for l in 0..chunk.len() {
                    let (a, b, c) = (before[0][l], before[1][l], before[2][l]);
                    let want = if mask >> l & 1 != 0 {
                        reference(a, b, c)
                    } else {
                        before[d as usize][l]
                    };
                    assert_eq!(
                        regs[d as usize][l], want,
                        "{name}: lane {l}, inputs {a:#x} {b:#x} {c:#x}, mask {mask:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_fast_path_matches_the_reference() {
        let mut checked = 0;
        use BinOp::*;
        use UnOp::*;
        let unops = [
            Mov,
            Neg,
            Abs,
            Not,
            Cnot,
            Popc,
            Clz,
            Brev,
            Rcp,
            Sqrt,
            Rsqrt,
            Ex2,
            Lg2,
            Sin,
            Cos,
            Tanh,
            Bfind,
            BfindShift,
            RsqrtFtz,
            SqrtApprox,
            SqrtApproxFtz,
            Ex2Ftz,
            Lg2Ftz,
        ];
        let binops = [
            Add, AddSat, Sub, SubSat, MulLo, MulHi, MulWide, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr,
            CopySign, Mul24Lo,
        ];
        let ternops = [
            TernOp::MadLo,
            TernOp::MadHi,
            TernOp::MadWide,
            TernOp::Fma,
            TernOp::Bfe,
            TernOp::Sad,
            TernOp::Prmt,
            TernOp::Slct,
            TernOp::Mad24Lo,
            TernOp::ShfL,
            TernOp::ShfLClamp,
            TernOp::ShfR,
            TernOp::ShfRClamp,
        ];
        let cmps = [
            Cmp::Eq,
            Cmp::Ne,
            Cmp::Lt,
            Cmp::Le,
            Cmp::Gt,
            Cmp::Ge,
            Cmp::Lo,
            Cmp::Ls,
            Cmp::Hi,
            Cmp::Hs,
            Cmp::Equ,
            Cmp::Neu,
            Cmp::Ltu,
            Cmp::Leu,
            Cmp::Gtu,
            Cmp::Geu,
            Cmp::Num,
            Cmp::Nan,
        ];
        let rnds = [
            Rnd::Default,
            Rnd::Rn,
            Rnd::Rz,
            Rnd::Rm,
            Rnd::Rp,
            Rnd::Rni,
            Rnd::Rzi,
            Rnd::Rmi,
            Rnd::Rpi,
        ];
        for ty in TYS {
            for op in unops {
                if let Some(f) = fast_un(op, ty) {
                    let i = Inst::Un { op, ty, d: 0, a: 0 };
                    check(
                        &format!("{op:?}.{ty:?}"),
                        1,
                        // SAFETY: a kernel the selector chose for this CPU
                        &|r, d, a, _, _, m| unsafe { f(r, d, a, m) },
                        &*reference(&i),
                    );
                    checked += 1;
                }
            }
            for op in binops {
                if let Some(f) = fast_bin(op, ty) {
                    let i = Inst::Bin {
                        op,
                        ty,
                        d: 0,
                        a: 0,
                        b: 0,
                    };
                    check(
                        &format!("{op:?}.{ty:?}"),
                        2,
                        // SAFETY: a kernel the selector chose for this CPU
                        &|r, d, a, b, _, m| unsafe { f(r, d, a, b, m) },
                        &*reference(&i),
                    );
                    checked += 1;
                }
            }
            for op in ternops {
                if let Some(f) = fast_tern(op, ty) {
                    let i = Inst::Tern {
                        op,
                        ty,
                        d: 0,
                        a: 0,
                        b: 0,
                        c: 0,
                    };
                    check(
                        &format!("{op:?}.{ty:?}"),
                        3,
                        // SAFETY: a kernel the selector chose for this CPU
                        &|r, d, a, b, c, m| unsafe { f(r, d, a, b, c, m) },
                        &*reference(&i),
                    );
                    checked += 1;
                }
            }
            for cmp in cmps {
                if let Some(f) = fast_cmp(cmp, ty) {
                    let i = Inst::Setp {
                        cmp,
                        ty,
                        p: 0,
                        q: 0,
                        a: 0,
                        b: 0,
                        bop: None,
                        c: PSrc::TRUE,
                    };
                    // the predicate bits as a 0/1 row
                    let fast = |r: &mut [Row], d: R, a: R, b: R, _c: R, m: u32| {
                        // SAFETY: a kernel the selector chose for this CPU
                        let bits = unsafe { f(&r[a as usize], &r[b as usize]) };
                        for l in 0..32 {
                            if m >> l & 1 != 0 {
                                r[d as usize][l] = (bits >> l & 1) as u64;
                            }
                        }
                    };
                    check(&format!("setp.{cmp:?}.{ty:?}"), 2, &fast, &*reference(&i));
                    checked += 1;
                }
            }
            for sty in TYS {
                for rnd in rnds {
                    for sat in [false, true] {
                        if let Some(f) = fast_cvt(ty, sty, rnd, sat) {
                            let i = Inst::Cvt {
                                dty: ty,
                                sty,
                                rnd,
                                sat,
                                d: 0,
                                a: 0,
                            };
                            check(
                                &format!("cvt.{rnd:?}.{ty:?}.{sty:?}"),
                                1,
                                // SAFETY: a kernel the selector chose for this CPU
                                &|r, d, a, _, _, m| unsafe { f(r, d, a, m) },
                                &*reference(&i),
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        // every fast path listed in this module is covered (counted by hand: update with the tables)
        assert!(checked >= 100, "only {checked} fast paths checked");
        eprintln!("{checked} fast paths checked against arith");
    }

    #[test]
    fn decode_rejects_rows_outside_the_kernel() {
        let op = Op {
            inst: Inst::Bin {
                op: BinOp::Add,
                ty: Ty::U32,
                d: 5,
                a: 0,
                b: 1,
            },
            guard: PSrc::TRUE,
        };
        assert!(decode(&[op], 7, 5, 0, true).unwrap_err().contains("pc 7"));
        assert!(matches!(decode(&[op], 0, 6, 0, true).unwrap()[0].x, X::U2(..)));
    }

    /// Each instruction's count of ALU instructions in a row from it: a branch or an exit ends a
    /// run, and counts 0 itself.
    #[test]
    fn alu_runs_count_the_straight_alu_instructions_ahead() {
        let add = Op {
            inst: Inst::Bin {
                op: BinOp::Add,
                ty: Ty::U32,
                d: 2,
                a: 0,
                b: 1,
            },
            guard: PSrc::TRUE,
        };
        let bra = Op {
            inst: Inst::Bra { target: 0, reconv: 6 },
            guard: PSrc::TRUE,
        };
        let exit = Op {
            inst: Inst::Exit,
            guard: PSrc::TRUE,
        };
        let ops = [add, add, bra, add, add, add, exit, add];
        let x = decode(&ops, 0, 3, 0, true).unwrap();
        assert_eq!(alu_runs(&x), vec![2, 1, 0, 3, 2, 1, 0, 1]);
        assert!(alu_runs(&[]).is_empty());
    }

    /// `cvta` of the global space (window at 0) becomes a move of all 64 bits, on the lanes of
    /// the mask only; the windowed spaces keep the general instruction.
    #[test]
    fn cvta_of_global_memory_is_a_move() {
        let cvta = |space, to_generic| Op {
            inst: Inst::Cvta {
                space,
                to_generic,
                d: 1,
                a: 0,
            },
            guard: PSrc::TRUE,
        };
        for to_generic in [false, true] {
            let x = decode(&[cvta(MemSpace::Global, to_generic)], 0, 2, 0, true).unwrap();
            let X::U1(f, d, a) = x[0].x else {
                panic!("cvta global not decoded to a move");
            };
            let mut regs = vec![[0u64; 32]; 2];
            for l in 0..32 {
                regs[0][l] = 0x7f12_3456_7000_0000 + 4 * l as u64;
                regs[1][l] = 0xdead;
            }
            // SAFETY: a kernel `decode` chose for this CPU
            unsafe { f(&mut regs, d, a, 0x0000_ffff) };
            for l in 0..32 {
                let want = if l < 16 {
                    0x7f12_3456_7000_0000 + 4 * l as u64
                } else {
                    0xdead
                };
                assert_eq!(regs[1][l], want, "lane {l}");
            }
            let shared = decode(&[cvta(MemSpace::Shared, to_generic)], 0, 2, 0, true).unwrap();
            assert!(matches!(shared[0].x, X::Gen(Inst::Cvta { .. })));
        }
    }
}
