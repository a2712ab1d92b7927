//! Lowering of the `wgmma` family (Hopper warpgroup matrix multiply-accumulate, sm_90a):
//! `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group` and `wgmma.mma_async` in the forms
//! ptxas accepts (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"), the sparse
//! `.sp` forms included (their metadata register travels in the row after B's descriptor).

use super::{KCtx, LResult};
use crate::inst::*;
use crate::parse::{Instruction, Operand};

/// The N of an integer (`.s8`/`.u8`) or `.b1` form.
const INT_N: [u16; 18] = [
    8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
];

impl<'m> KCtx<'m> {
    /// `wgmma.*`
    pub(super) fn wgmma(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let has = |m: &str| mods.contains(&m);
        if !(has("sync") && has("aligned")) {
            return self.err(format!("`{}` needs .sync.aligned", i.opcode));
        }
        let op = match mods.first().copied() {
            Some("fence") => Some(WgmmaSyncOp::Fence),
            Some("commit_group") => Some(WgmmaSyncOp::Commit),
            Some("wait_group") => match i.operands.first() {
                Some(Operand::Int(n)) if *n < 256 && i.operands.len() == 1 => {
                    Some(WgmmaSyncOp::Wait(*n as u8))
                }
                _ => return self.err(format!("`{}` takes one immediate group count", i.opcode)),
            },
            Some("mma_async") => None,
            _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
        };
        if let Some(op) = op {
            if !matches!(op, WgmmaSyncOp::Wait(_)) && !i.operands.is_empty() {
                return self.err(format!("`{}` takes no operands", i.opcode));
            }
            self.push(Inst::WgmmaSync { op }, guard);
            return Ok(());
        }
        self.wgmma_mma(i, mods, guard)
    }

    fn wgmma_mma(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let bad = |s: &mut Self, why: &str| s.err(format!("unsupported instruction `{}` ({why})", i.opcode));
        let sparse = mods.contains(&"sp");
        let Some(shape) = mods.iter().find(|m| m.starts_with("m64n")) else {
            return bad(self, "shape");
        };
        let Some((n, k)) = shape[4..]
            .split_once('k')
            .and_then(|(n, k)| Some((n.parse::<u16>().ok()?, k.parse::<u32>().ok()?)))
        else {
            return bad(self, "shape");
        };
        let tys: Vec<WgTy> = mods.iter().filter_map(|m| WgTy::parse(m)).collect();
        let [dty, aty, bty] = tys[..] else {
            return bad(self, "types");
        };
        let sat = mods.contains(&"satfinite");
        let int = matches!(aty, WgTy::S8 | WgTy::U8);
        let float8 = matches!(aty, WgTy::E4M3 | WgTy::E5M2);
        let types_ok = match aty {
            WgTy::F16 => bty == WgTy::F16 && matches!(dty, WgTy::F32 | WgTy::F16),
            WgTy::BF16 => bty == WgTy::BF16 && dty == WgTy::F32,
            WgTy::TF32 => bty == WgTy::TF32 && dty == WgTy::F32,
            WgTy::E4M3 | WgTy::E5M2 => {
                matches!(bty, WgTy::E4M3 | WgTy::E5M2) && matches!(dty, WgTy::F32 | WgTy::F16)
            }
            WgTy::S8 | WgTy::U8 => matches!(bty, WgTy::S8 | WgTy::U8) && dty == WgTy::S32,
            WgTy::B1 => {
                bty == WgTy::B1 && dty == WgTy::S32 && mods.contains(&"and") && mods.contains(&"popc")
            }
            _ => false,
        };
        if !types_ok || (sat && !int) {
            return bad(self, "types");
        }
        let n_ok = if int || aty == WgTy::B1 {
            INT_N.contains(&n)
        } else {
            (8..=256).contains(&n) && n % 8 == 0
        };
        // a sparse form's K is twice the dense one (A stored compressed); no .b1 form
        let k_ok = if sparse {
            k == 2 * aty.k() && aty != WgTy::B1
        } else {
            k == aty.k()
        };
        if !n_ok || !k_ok {
            return bad(self, "shape");
        }
        let ops = &i.operands;
        let a_regs = matches!(ops.get(1), Some(Operand::Vector(_)));
        // immediates after scale-d: imm-scale-a, imm-scale-b (floating point), imm-trans-a (A
        // from shared memory), imm-trans-b (f16 / bf16)
        let sixteen = matches!(aty, WgTy::F16 | WgTy::BF16);
        let n_imm = if int || aty == WgTy::B1 {
            0
        } else if sixteen {
            if a_regs { 3 } else { 4 }
        } else {
            2
        };
        // a sparse form has the metadata register and the sparsity selector before scale-d
        let sp = if sparse { 2 } else { 0 };
        if ops.len() != 4 + sp + n_imm {
            return self.err(format!("`{}` takes {} operands", i.opcode, 4 + sp + n_imm));
        }
        let mut flags = 0u8;
        if sparse {
            flags |= WgmmaForm::SPARSE;
            // selector: 0 or 1 for 16-bit and tf32 operands, 0 for 8-bit ones (as ptxas)
            match ops[4] {
                Operand::Int(0) => {}
                Operand::Int(1) if !(int || float8) => flags |= WgmmaForm::SP_SEL1,
                _ => {
                    return self.err(format!(
                        "`{}`: the sparsity selector must be the immediate 0{}",
                        i.opcode,
                        if int || float8 { "" } else { " or 1" }
                    ));
                }
            }
        }
        let mut imm = Vec::new();
        for o in &ops[4 + sp..] {
            match o {
                Operand::Int(v) => imm.push(*v as i64),
                _ => {
                    return self.err(format!(
                        "`{}`: the scale and transpose operands are immediates",
                        i.opcode
                    ));
                }
            }
        }
        if a_regs {
            flags |= WgmmaForm::A_REGS;
        }
        if sat {
            flags |= WgmmaForm::SATFINITE;
        }
        if n_imm >= 2 {
            for (v, f) in [(imm[0], WgmmaForm::NEG_A), (imm[1], WgmmaForm::NEG_B)] {
                match v {
                    1 => {}
                    -1 => flags |= f,
                    _ => return self.err(format!("`{}`: imm-scale-a/b must be 1 or -1", i.opcode)),
                }
            }
        }
        if sixteen {
            let trans = if a_regs {
                [None, Some(imm[2])]
            } else {
                [Some(imm[2]), Some(imm[3])]
            };
            for (v, f) in trans.into_iter().zip([WgmmaForm::TRANS_A, WgmmaForm::TRANS_B]) {
                match v {
                    None | Some(0) => {}
                    Some(1) => flags |= f,
                    _ => return self.err(format!("`{}`: imm-trans-a/b must be 0 or 1", i.opcode)),
                }
            }
        }
        let form = WgmmaForm {
            n,
            dty,
            aty,
            bty,
            flags,
        };
        let dv = match &ops[0] {
            Operand::Vector(v) => v.clone(),
            o => vec![o.clone()],
        };
        let nd = form.d_regs();
        if dv.len() != nd as usize {
            return self.err(format!("`{}` takes {nd} accumulator registers", i.opcode));
        }
        let dt = if dty == WgTy::F32 { Ty::F32 } else { Ty::U32 };
        let d = self.rows(nd)?;
        for (k, o) in dv.iter().enumerate() {
            let r = self.src(o, dt)?;
            self.mov_rows(d + k as R, r, guard);
        }
        let a = if a_regs {
            let Operand::Vector(av) = &ops[1] else {
                unreachable!()
            };
            if av.len() != 4 {
                return self.err(format!("`{}` takes 4 A registers", i.opcode));
            }
            let a = self.rows(4)?;
            let at = if aty == WgTy::TF32 { Ty::F32 } else { Ty::U32 };
            for (k, o) in av.iter().enumerate() {
                let r = self.src(o, at)?;
                self.mov_rows(a + k as R, r, guard);
            }
            a
        } else {
            self.src(&ops[1], Ty::U64)?
        };
        let mut b = self.src(&ops[2], Ty::U64)?;
        if sparse {
            // B's descriptor and the metadata in consecutive rows
            let meta = self.src(&ops[3], Ty::U32)?;
            let rows = self.rows(2)?;
            self.mov_rows(rows, b, guard);
            self.mov_rows(rows + 1, meta, guard);
            b = rows;
        }
        let scale = self.psrc(&ops[3 + sp])?;
        self.push(Inst::Wgmma { form, d, a, b, scale }, guard);
        for (k, o) in dv.iter().enumerate() {
            let r = self.dst(o)?;
            self.mov_rows(r, d + k as R, guard);
        }
        Ok(())
    }
}
