//! Local memory in the machine code's flow: each thread's own stack (`LDL`/`STL` relative to the
//! stack pointer `R1`, arrays indexed at run time such as a per-thread sorting buffer or an
//! interpreter's stack). No other thread can touch a thread's local memory, so what a lane stored
//! is exactly what it loads back: the run keeps each lane's stored bytes (unknown where the value
//! stored was unknown) and a load of bytes the lane never stored is unknown. The stack pointer's
//! starting value (`c[0x0][0x28]`) is given a fixed value: only its differences matter to local
//! addresses.

use super::{Src, parse_hex, parse_reg};

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
