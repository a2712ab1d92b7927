//! Function addresses and indirect calls (`call (rets), %rd, (args), prototype;`: function
//! pointers, virtual methods).
//!
//! Every `.func` with a body has an address, [`func_address`]: what `mov.u64 %rd, f;` puts in a
//! register and what a name in a `.global` / `.const` initialiser (`.global .u64 tbl[2] = {f1,
//! f2};`, a C++ vtable) stores. Calls are inlined, so an indirect call is lowered to a dispatch
//! over the functions whose address the module takes (named outside a direct call) and whose
//! parameter and return counts match the call: a comparison of the register with each one's
//! address, a branch around its inlined body, and after the last one [`Inst::BadCall`], which
//! faults for the lanes whose register holds no candidate's address. Lanes of a warp that call
//! different functions run each body for their own lanes and reconverge after the dispatch, as
//! the branches of an `if`/`else if` chain do.

use std::collections::HashSet;

use super::{KCtx, LResult, Sym};
use crate::inst::*;
use crate::parse::{Function, Module, Operand, Stmt};

/// The address of the module's first function; each next function (in module order) is
/// [`FUNC_STRIDE`] bytes further. Below the `.global` variables (`GLOBAL_VAR_BASE`) and every
/// buffer, so no data address is a function's.
pub const FUNC_BASE: u64 = 0x0700_0000;
/// Bytes between two functions' addresses.
pub const FUNC_STRIDE: u64 = 0x100;

/// The address of `m.functions[index]`.
pub fn func_address(index: usize) -> u64 {
    FUNC_BASE + FUNC_STRIDE * index as u64
}

/// The address of the function named `name` that has a body, if there is one.
pub(super) fn function_named(m: &Module, name: &str) -> Option<u64> {
    m.functions
        .iter()
        .position(|f| f.name == name && f.body.is_some() && !f.is_entry)
        .map(func_address)
}

fn names_in<'a>(o: &'a Operand, out: &mut HashSet<&'a str>) {
    match o {
        Operand::Name(n) => {
            out.insert(n);
        }
        Operand::Addr { base: Some(n), .. } => {
            out.insert(n);
        }
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|x| names_in(x, out)),
        _ => {}
    }
}

/// The functions (with bodies) whose address the module takes: named in a module variable's
/// initialiser or in an operand of any instruction but as a direct call's callee.
pub(super) fn address_taken(m: &Module) -> HashSet<&str> {
    let mut names = HashSet::new();
    for v in &m.globals {
        v.init.iter().for_each(|o| names_in(o, &mut names));
    }
    for f in &m.functions {
        for s in f.body.iter().flatten() {
            let Stmt::Inst(i) = s else { continue };
            let ops: &[Operand] = if i.opcode.starts_with("call") {
                // a direct callee is not an address taken; its arguments are `.param` names
                &[]
            } else {
                &i.operands
            };
            ops.iter().for_each(|o| names_in(o, &mut names));
        }
    }
    let funcs: HashSet<&str> = m
        .functions
        .iter()
        .filter(|f| f.body.is_some() && !f.is_entry)
        .map(|f| f.name.as_str())
        .collect();
    names.retain(|n| funcs.contains(n));
    names
}

impl<'m> KCtx<'m> {
    /// `call (rets), %reg, (args), prototype;`: a dispatch over the candidate functions (see the
    /// module's documentation).
    pub(super) fn indirect_call(&mut self, target: &str, args: &[Operand], rets: &[Operand]) -> LResult<()> {
        let r = match self.lookup(target) {
            Some(Sym::Reg(r, _)) => r,
            _ => {
                return self.err(format!(
                    "indirect call through `{target}`, which is not a register (a function named with a \
                     prototype must be called directly)"
                ));
            }
        };
        let module: &'m Module = self.module;
        let taken = address_taken(module);
        let cands: Vec<(u64, &'m Function)> = module
            .functions
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.body.is_some()
                    && !f.is_entry
                    && taken.contains(f.name.as_str())
                    && f.params.len() == args.len()
                    && f.rets.len() == rets.len()
            })
            .map(|(i, f)| (func_address(i), f))
            .collect();
        let mut to_end = Vec::new();
        for (addr, f) in cands {
            let p = self.new_pred()?;
            let c = self.const_row(addr)?;
            self.push(
                Inst::Setp {
                    cmp: Cmp::Eq,
                    ty: Ty::U64,
                    p,
                    q: PRED_TRUE,
                    a: r,
                    b: c,
                    bop: None,
                    c: PSrc::TRUE,
                },
                PSrc::TRUE,
            );
            let skip = self.ops.len();
            self.push(
                Inst::Bra {
                    target: u32::MAX,
                    reconv: u32::MAX,
                },
                PSrc { idx: p, neg: true },
            );
            let here = (
                self.cur_pos,
                self.cur_text.clone(),
                self.loc,
                self.inlined.clone(),
            );
            self.inline_call(f, args, rets)?;
            (self.cur_pos, self.cur_text, self.loc, self.inlined) = here;
            to_end.push(self.ops.len());
            self.push(
                Inst::Bra {
                    target: u32::MAX,
                    reconv: u32::MAX,
                },
                PSrc::TRUE,
            );
            let next = self.ops.len() as u32;
            if let Inst::Bra { target, .. } = &mut self.ops[skip].inst {
                *target = next;
            }
        }
        self.push(Inst::BadCall { addr: r }, PSrc::TRUE);
        let end = self.ops.len() as u32;
        for at in to_end {
            if let Inst::Bra { target, .. } = &mut self.ops[at].inst {
                *target = end;
            }
        }
        Ok(())
    }
}
