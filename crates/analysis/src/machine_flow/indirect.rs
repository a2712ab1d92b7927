//! Indirect calls (`CALL.REL.NOINC Rn`, and `CALL.ABS.NOINC Rn` into functions laid out after the
//! kernel: function pointers, virtual methods) on the launch's
//! values.
//!
//! ptxas gives each kernel its own copy of every function whose address the module takes
//! (`$kernel$function` in the disassembly) and a table of their code offsets in the kernel's
//! constant bank 2; a function pointer in memory (a `.global` table's entry, a vtable's slot) is
//! an offset into that table, and the call reads `LDC.64 Rn, c[0x2][Rm]` first. The emulation's
//! function pointers are its own addresses of the same functions (`FUNC_BASE + 0x100 * index`,
//! `crates/ptx/src/lower/indirect.rs`), which the driver passes with the module's symbols by
//! name: a bank-2 read at such an address gives that function's code offset in this kernel, so
//! each lane calls the function the emulation called.
//!
//! What the call counts and how the warp goes on was measured on an H200
//! (calibration/indirect/README.md): for k distinct targets among the lanes that call, k - 1
//! branch targets, all divergent, and one uniform target when k = 1; the groups never
//! reconverge after the call: each returns on its own (`RET`, one target each) and runs the rest
//! of the kernel alone, as lanes a divergent branch split do ([`super::Warp::split`]).

use super::{FlowCounts, FlowLaunch, Ins, MachineFlow, Src, Warp, lanes};

/// The `$kernel$function` labels of the kernel's code: (function, code offset); and the
/// functions laid out after it (`sass::with_callees`, labelled by their names), whose addresses a
/// device-linked table holds as they are (`CALL.ABS.NOINC Rn` on a pointer loaded from memory).
pub(super) fn copies(kernel: &warpscope_toolchain::sass::SassKernel) -> Vec<(String, u32)> {
    let prefix = format!("${}$", kernel.name);
    kernel
        .labels
        .iter()
        .filter_map(|(l, &off)| {
            l.strip_prefix(&prefix)
                .or((!l.starts_with(['.', '$'])).then_some(l.as_str()))
                .map(|f| (f.to_string(), off))
        })
        .collect()
}

/// The launch's function addresses (its symbols by name) that name a copy in the kernel:
/// (the address's low word, the copy's code offset).
pub(super) fn functions(copies: &[(String, u32)], launch: &FlowLaunch) -> Vec<(u32, u32)> {
    copies
        .iter()
        .filter_map(|(name, off)| {
            let (_, a) = launch.symbols.iter().find(|(n, _)| n == name)?;
            (a >> 32 == 0).then_some((*a as u32, *off))
        })
        .collect()
}

/// A constant bank 2 word at `off` when `off` is a function's address (the entry's low word:
/// the code offset) or 4 past one (its high word, 0).
pub(super) fn bank2(funcs: &[(u32, u32)], off: u32) -> Option<u32> {
    funcs.iter().find_map(|&(a, code)| {
        if a == off {
            Some(code)
        } else if a.wrapping_add(4) == off {
            Some(0)
        } else {
            None
        }
    })
}

/// `CALL.REL.NOINC reg` by `group` (the lanes `on` whose guard holds): each calling lane goes
/// to the instruction at the code offset its register holds.
#[allow(clippy::too_many_arguments)]
pub(super) fn call(
    flow: &MachineFlow,
    w: &mut Warp,
    ins: &Ins,
    pc: usize,
    group: u32,
    on: u32,
    reg: u8,
    launch: &FlowLaunch,
    counts: &mut FlowCounts,
) -> Result<(), &'static str> {
    // each target with its lanes, in lane order
    let mut dests: Vec<(usize, u32)> = Vec::new();
    for l in lanes(on) {
        let Some(off) = w.raw(Src::R(reg), l, launch) else {
            return Err("an indirect call through an unknown value (function pointer or virtual method)");
        };
        // a code offset (read from the kernel's jump table), or a function's address as the
        // launch places it (a device-linked table's entry)
        let Some(&t) = flow.at.get(&off).or_else(|| {
            w.funcs
                .iter()
                .find(|&&(a, _)| a == off)
                .and_then(|(_, code)| flow.at.get(code))
        }) else {
            return Err("an indirect call's target is no instruction of the kernel");
        };
        match dests.iter_mut().find(|(d, _)| *d == t) {
            Some((_, m)) => *m |= 1 << l,
            None => dests.push((t, 1 << l)),
        }
    }
    if ins.counted && on != 0 {
        let k = dests.len() as u64;
        counts.targets += k.saturating_sub(1).max(1);
        counts.divergent += k.saturating_sub(1);
    }
    let rest = group & !on;
    if rest != 0 {
        dests.push((pc + 1, rest));
    }
    for &(t, m) in &dests {
        for l in lanes(m) {
            w.pc[l] = t as u32;
        }
    }
    // every group but the first runs apart from here on
    for &(_, m) in dests.iter().skip(1) {
        w.split(group, m);
    }
    if let [(t, _)] = dests.as_slice() {
        w.together = Some(*t);
    }
    Ok(())
}
