//! Local memory in the machine code's flow: each thread's own stack (`LDL`/`STL` relative to the
//! stack pointer `R1`, arrays indexed at run time such as a per-thread sorting buffer or an
//! interpreter's stack). No other thread can touch a thread's local memory, so what a lane stored
//! is exactly what it loads back: the run keeps each lane's stored bytes (unknown where the value
//! stored was unknown) and a load of bytes the lane never stored is unknown. The stack pointer's
//! starting value (`c[0x0][0x28]`) is given a fixed value: only its differences matter to local
//! addresses.
//!
//! A byte the lane never stored holds whatever the GPU left there (the thread's local memory is
//! not cleared between threads): no value is the GPU's, not even the emulation's zero. [`Undefined`]
//! follows which registers and predicates derive from such a read, so a run that stops on one
//! says so ([`UNDEFINED_LOCAL`]), and the counters the PTX emulation made on its own value are
//! estimates too.

use super::{Dst, Ins, Kind, Opnd, PT, Pred, RZ, Src, URZ, parse_hex, parse_reg};

/// The words of a stop reason whose value derives from a read of local memory the lane never
/// stored ([`reads_undefined_local`]).
pub const UNDEFINED_LOCAL: &str = "derives from local memory the thread never stored";

/// Whether a flow stop reason is one on a value read from local memory the thread never stored:
/// the GPU's value there is not defined, so whatever the PTX emulation counted on its own value
/// for it (zero) is no count of the GPU's.
#[must_use]
pub fn reads_undefined_local(why: &str) -> bool {
    why.contains(UNDEFINED_LOCAL)
}

/// Which registers and predicates hold values that derive from local bytes a lane loaded without
/// having stored them, lane by lane (the uniform ones for the whole warp), beside the values.
#[derive(Clone, Debug)]
pub(super) struct Undefined {
    r: Vec<u32>,
    p: [u32; 8],
    ur: [bool; 64],
    up: [bool; 8],
    /// Whether the values being written derive from such a read.
    pub(super) cur: bool,
    /// The first instruction (code offset and text) whose load read bytes never stored.
    pub(super) first: Option<(u32, String)>,
}

impl Undefined {
    pub(super) fn new(regs: usize) -> Undefined {
        Undefined {
            r: vec![0; regs],
            p: [0; 8],
            ur: [false; 64],
            up: [false; 8],
            cur: false,
            first: None,
        }
    }

    /// A warp's start: nothing read yet.
    pub(super) fn reset(&mut self, span: usize) {
        self.r[..span].iter_mut().for_each(|t| *t = 0);
        self.p = [0; 8];
        self.ur = [false; 64];
        self.up = [false; 8];
        self.cur = false;
        self.first = None;
    }

    /// A load by `ins` read bytes the lane never stored: the value it writes derives from them.
    pub(super) fn note(&mut self, ins: &Ins) {
        self.cur = true;
        if self.first.is_none() {
            self.first = Some((ins.offset, ins.text.clone()));
        }
    }

    /// Why a run stopped at an instruction whose inputs derive from a never-stored read
    /// (`why`, the stop as the run gives it), naming the load.
    pub(super) fn reason(&self, why: &str) -> String {
        match &self.first {
            Some((off, text)) => format!("{why}; the value {UNDEFINED_LOCAL} (/*{off:04x}*/ {text})"),
            None => format!("{why}; the value {UNDEFINED_LOCAL}"),
        }
    }

    /// Lane `l`'s register `r` derives from a read of bytes never stored.
    pub(super) fn reg(&self, r: usize, l: usize) -> bool {
        self.r.get(r).is_some_and(|m| m >> l & 1 != 0)
    }

    /// The lanes whose inputs to `ins` (guard, operands, predicates, a wide addend's high half)
    /// derive from a read of bytes never stored.
    pub(super) fn mask(&self, ins: &Ins) -> u32 {
        let p = |q: &Pred| {
            if q.uniform {
                if self.up[q.idx as usize] { u32::MAX } else { 0 }
            } else {
                self.p[q.idx as usize]
            }
        };
        let r = |o: &Opnd| match o.src {
            Src::R(r) | Src::Const { reg: Some(r), .. } => self.r[r as usize],
            Src::Ur(r) | Src::Const { ureg: Some(r), .. } if self.ur[r as usize] => u32::MAX,
            _ => 0,
        };
        let mut m = p(&ins.guard);
        for o in &ins.src {
            m |= r(o);
        }
        for q in &ins.preds {
            m |= p(q);
        }
        if matches!(
            ins.kind,
            Kind::Imad { hi: true, .. } | Kind::Imad { wide: true, .. }
        ) {
            m |= match ins.src.get(2).map(|o| o.src) {
                Some(Src::R(x)) if x != RZ => self.r[x as usize + 1],
                Some(Src::Ur(x)) if x != URZ && self.ur[x as usize + 1] => u32::MAX,
                _ => 0,
            };
        }
        m
    }

    /// Destination `d` of lanes `m` gets values that derive (`cur`) or do not derive from such a
    /// read.
    pub(super) fn set(&mut self, d: Dst, m: u32) {
        match d {
            Dst::R(r) if r != RZ => {
                let t = &mut self.r[r as usize];
                *t = if self.cur { *t | m } else { *t & !m };
            }
            Dst::P(p) if p != PT => {
                let t = &mut self.p[p as usize];
                *t = if self.cur { *t | m } else { *t & !m };
            }
            Dst::Ur(r) if r != URZ => self.ur[r as usize] = self.cur,
            Dst::Up(p) if p != PT => self.up[p as usize] = self.cur,
            _ => {}
        }
    }
}

/// The value the run gives `c[0x0][0x28]` (the top of a thread's local stack).
pub(super) const STACK_TOP: u32 = 0x00ff_f000;

/// A local address `[R1+0x10]`, `[R3]`, `[UR4+0x8]`, `[0x20]`: the register (or `R(RZ)`) and the
/// offset; `None` for forms not read (two registers).
pub(super) fn address(o: &str) -> Option<(Src, i32)> {
    let inner = o.rsplit('[').next()?.split(']').next()?;
    let mut reg: Option<Src> = None;
    let mut off = 0i32;
    for term in inner.split('+').map(str::trim).filter(|t| !t.is_empty()) {
        if let Some(v) = term.strip_prefix('-').and_then(parse_hex) {
            off = off.wrapping_sub(v as i32);
        } else if let Some(v) = parse_hex(term) {
            off = off.wrapping_add(v as i32);
        } else {
            match parse_reg(term) {
                Some(r @ (Src::R(_) | Src::Ur(_))) if reg.is_none() => reg = Some(r),
                _ => return None,
            }
        }
    }
    Some((reg.unwrap_or(Src::R(super::RZ)), off))
}

/// The local address a generic address `g` names when it lies in the local window
/// (`warpscope_emu::mem::LOCAL_WINDOW`, the window `c[0x0][0x20]` gives the run).
pub(super) fn of_generic(g: u64) -> Option<u32> {
    let off = g.wrapping_sub(warpscope_emu::mem::LOCAL_WINDOW);
    (off < warpscope_emu::mem::WINDOW).then_some(off as u32)
}

/// One lane's local bytes: address → (value, derives from global memory); `None` value: stored
/// but unknown.
pub(super) type Bytes = rustc_hash::FxHashMap<u32, (Option<u8>, bool)>;

/// Whether one of the `n` bytes at `a` was never stored by the lane.
pub(super) fn never_stored(m: &Bytes, a: u32, n: u32) -> bool {
    (0..n).any(|i| !m.contains_key(&a.wrapping_add(i)))
}

/// Loads `n` bytes at `a` from a lane's local memory: the bytes (little-endian) and whether any
/// derives from global memory, or `None` when a byte is unknown or was never stored.
pub(super) fn load(m: &Bytes, a: u32, n: u32) -> Option<([u8; 16], bool)> {
    let mut buf = [0u8; 16];
    let mut taint = false;
    for i in 0..n {
        let (v, t) = m.get(&a.wrapping_add(i))?;
        buf[i as usize] = (*v)?;
        taint |= *t;
    }
    Some((buf, taint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(address("[R1+0x10]"), Some((Src::R(1), 16)));
        assert_eq!(address("[R3]"), Some((Src::R(3), 0)));
        assert_eq!(address("[UR4+0x8]"), Some((Src::Ur(4), 8)));
        assert_eq!(address("[0x20]"), Some((Src::R(super::super::RZ), 32)));
        assert_eq!(address("[R1+-0x4]"), Some((Src::R(1), -4)));
        assert_eq!(address("[R2+UR4]"), None);
    }

    #[test]
    fn loads_need_every_byte_known() {
        let mut m = Bytes::default();
        for (i, b) in [0x78u8, 0x56, 0x34, 0x12].into_iter().enumerate() {
            m.insert(0x100 + i as u32, (Some(b), i == 2));
        }
        let (buf, taint) = load(&m, 0x100, 4).unwrap();
        assert_eq!(u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]), 0x1234_5678);
        assert!(taint);
        assert_eq!(load(&m, 0x100, 2).map(|(_, t)| t), Some(false));
        // a byte never stored, or stored unknown
        assert!(load(&m, 0x102, 4).is_none());
        m.insert(0x101, (None, false));
        assert!(load(&m, 0x100, 4).is_none());
    }
}
