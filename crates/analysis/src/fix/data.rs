//! Shared accesses whose addresses depend on data the kernel reads.
//!
//! A histogram's `atomicAdd(&bins[in[i] & 255], 1)` conflicts because of the input's values: no
//! padding, swizzle or bank permutation removes those conflicts for every input, and one fitted to
//! the recorded input is fitted to noise. [`data_addressed_pcs`] finds such instructions so that
//! the advisor can leave their requests out of its search and say what does help instead.
//!
//! The analysis is a flow-insensitive taint over the PTX text of the kernel, per function body
//! (registers of two inlined bodies are distinct even where their names are equal): a register is
//! *data* when an instruction that reads memory the kernel does not own as parameters or constants
//! defines it (`ld` other than `.param` / `.const` / `.local`, `ldu`, `atom`, `tex`, `tld4`, `suld`,
//! `ldmatrix`), or when an instruction defines it from a data register, or under a guard predicate
//! that is data. A memory instruction whose address operand names a data register is
//! data-addressed. Values that pass through local memory or between function bodies are not
//! followed: such an access counts as structural, which is what the advisor did before.

use std::collections::{BTreeSet, HashSet};

use warpscope_emu::{Kernel, Program};

use crate::ptx_text;

/// Whether the instruction `text` produces a value read from memory the launch's data lives in.
fn reads_data(text: &str) -> bool {
    let (head, mods) = ptx_text::opcode(text);
    match head {
        "ld" => !mods.iter().any(|m| matches!(*m, "param" | "const" | "local")),
        "ldu" | "atom" | "tex" | "tld4" | "suld" | "ldmatrix" => true,
        _ => false,
    }
}

/// The register names in one operand (`%r1`, `[%rd2+4]`, `{%r1, %r2}`, `%p1|%p2`).
fn regs(op: &str) -> impl Iterator<Item = &str> {
    op.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '_' || c == '$'))
        .filter(|t| t.starts_with('%') && t.len() > 1)
}

/// The guard predicate of `text` (`@%p1 ...` or `@!%p1 ...`), when any.
fn guard(text: &str) -> Option<&str> {
    let t = text.trim_start().strip_prefix('@')?;
    let g = t.split_whitespace().next()?;
    Some(g.trim_start_matches('!'))
}

/// Whether the instruction's first operand is an address (it writes memory, defines no register).
fn first_is_address(text: &str) -> bool {
    let (head, _) = ptx_text::opcode(text);
    matches!(head, "st" | "red" | "stmatrix" | "sust" | "prefetch" | "cp")
}

/// The pcs of kernel `k` whose memory address operand depends on data the kernel reads.
pub fn data_addressed_pcs(program: &Program, k: &Kernel) -> BTreeSet<u32> {
    let end = (k.end as usize).min(program.info.len());
    let start = (k.entry as usize).min(end);
    let insts: Vec<(u32, &str)> = program.info[start..end]
        .iter()
        .map(|i| (i.body, i.text.as_str()))
        .collect();
    let mut data: HashSet<(u32, &str)> = HashSet::new();
    loop {
        let before = data.len();
        for &(body, text) in &insts {
            let ops = ptx_text::operands(text);
            if ops.is_empty() || first_is_address(text) {
                continue;
            }
            let tainted = reads_data(text)
                || guard(text).is_some_and(|g| data.contains(&(body, g)))
                || ops[1..]
                    .iter()
                    .flat_map(|o| regs(o))
                    .any(|r| data.contains(&(body, r)));
            if tainted {
                for r in regs(ops[0]) {
                    data.insert((body, r));
                }
            }
        }
        if data.len() == before {
            break;
        }
    }
    insts
        .iter()
        .enumerate()
        .filter(|&(_, &(body, text))| {
            ptx_text::operands(text)
                .iter()
                .find(|o| o.starts_with('['))
                .is_some_and(|o| regs(o).any(|r| data.contains(&(body, r))))
        })
        .map(|(i, _)| (start + i) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_name_their_registers() {
        assert_eq!(regs("[%rd2+4]").collect::<Vec<_>>(), ["%rd2"]);
        assert_eq!(regs("{%r1, %r2}").collect::<Vec<_>>(), ["%r1", "%r2"]);
        assert_eq!(regs("%p1|%p2").collect::<Vec<_>>(), ["%p1", "%p2"]);
        assert_eq!(regs("255").count(), 0);
        assert_eq!(guard("@!%p3 bra $L__BB0_2;"), Some("%p3"));
        assert_eq!(guard("add.s32 %r1, %r2, 1;"), None);
    }

    #[test]
    fn loads_of_data_are_sources_and_parameters_are_not() {
        assert!(reads_data("ld.global.u32 %r1, [%rd4];"));
        assert!(reads_data("ld.shared.u32 %r1, [%r4];"));
        assert!(reads_data("@%p1 atom.shared.add.u32 %r9, [%r8], 1;"));
        assert!(!reads_data("ld.param.u64 %rd1, [k_param_0];"));
        assert!(!reads_data("ld.const.u32 %r1, [tab];"));
        assert!(!reads_data("ld.local.u32 %r1, [%rd9];"));
        assert!(!reads_data("mov.u32 %r1, %tid.x;"));
    }
}
