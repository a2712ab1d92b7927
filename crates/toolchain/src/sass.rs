//! Shared-memory instructions of a kernel's machine code (SASS), read from `nvdisasm -g -c` (or
//! `cuobjdump -sass`) output.
//!
//! ptxas does not keep PTX's shared accesses one for one: it fuses scalar accesses to adjacent
//! addresses into `LDS.64` / `LDS.128`, unrolls loops and predicates short branches. The hardware
//! counters count machine instructions, so analyses that want to match them need the machine code's
//! accesses. [`parse_disassembly`] is a pure function over the disassembler's text; [`disassemble`]
//! runs `nvdisasm` on a cubin first.
//!
//! ```
//! let text = "\t.section\t.text.k,\"ax\",@progbits\n\
//!             \t//## File \"k.cu\", line 7\n\
//!             \t/*00b0*/                   STS.64 [R0+0x8], R4 ;\n";
//! let kernels = warpscope_toolchain::sass::parse_disassembly(text).unwrap();
//! let a = &kernels[0].accesses[0];
//! assert_eq!((kernels[0].name.as_str(), a.width, a.offset, a.line), ("k", 8, 8, Some(7)));
//! ```

use std::path::Path;
use std::process::Command;

use serde::Serialize;

/// What a shared-memory machine instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SharedOp {
    /// `LDS` (and its widths).
    Load,
    /// `STS`.
    Store,
    /// `ATOMS` (read-modify-write on shared memory).
    Atomic,
    /// `LDSM` (ldmatrix): each lane addresses one 16-byte row of an 8x8 matrix of 16-bit elements.
    LoadMatrix,
}

/// One shared-memory instruction of the machine code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharedAccess {
    /// Byte offset of the instruction in the kernel's code (`/*01f0*/`).
    pub code_offset: u32,
    /// The opcode with its modifiers, e.g. `LDS.U8`, `STS.128`.
    pub opcode: String,
    /// Load, store, atomic or ldmatrix.
    pub op: SharedOp,
    /// Bytes accessed per lane: 1, 2, 4, 8 or 16.
    pub width: u8,
    /// Register part of the address (`R2`, `R3+UR4`), empty for an absolute address.
    pub base: String,
    /// Immediate part of the address in bytes (`[R2+0x210]` gives 0x210).
    pub offset: i64,
    /// Guard predicate (`P0`, `!P1`), if any.
    pub predicate: Option<String>,
    /// Source file named by the line info (`-lineinfo` / `-g`), if any.
    pub file: Option<String>,
    /// Source line named by the line info, if any.
    pub line: Option<u32>,
    /// The whole instruction text.
    pub text: String,
}

/// The shared-memory instructions of one kernel, in code order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SassKernel {
    /// Kernel (function) name as the disassembler prints it (mangled for C++ names).
    pub name: String,
    /// Shared-memory instructions in code order.
    pub accesses: Vec<SharedAccess>,
    /// Control-transfer instructions (`BRA`, `BRX`, `JMP`, `JMX`, `CALL`, `RET`, `EXIT`, ...) in code
    /// order.
    pub branches: Vec<SassBranch>,
    /// Warp collectives (`SHFL`, `VOTE`, `MATCH`, `REDUX`) in code order: where a `BRA.DIV`
    /// convergence check leads.
    pub collectives: Vec<SassInst>,
    /// Global (and generic) loads and stores (`LDG`, `STG`, `LD`, `ST`) in code order.
    pub globals: Vec<SassInst>,
    /// Code offset of every label (`.L_x_3`, and subroutines' `$__internal_...`).
    pub labels: std::collections::BTreeMap<String, u32>,
    /// Every instruction, in code order (the kernel's own and the subroutines after its last
    /// `EXIT` that nvdisasm prints in the same section).
    pub insts: Vec<SassLine>,
    /// The kernel's constant bank 2 (`.nv.constant2.<kernel>` of the cubin): ptxas's jump tables
    /// for `BRX` (code offsets in the function) and other constants; empty when the disassembly
    /// did not come with it ([`disassemble`] adds it).
    pub constant2: Vec<u8>,
    /// The module's constant bank 4 as the cubin's relocations fill it (`.rela.nv.constant4`):
    /// 64-bit addresses of global symbols (the math library's tables, `__cudart_sin_cos_coeffs`),
    /// each as (offset in the bank, symbol, addend); empty when the disassembly did not come with
    /// them.
    pub constant4: Vec<(u32, String, i64)>,
    /// The module's `__constant__` variables in constant bank 3 (`.nv.constant3` of the cubin):
    /// (offset in the bank, size in bytes, symbol), from the cubin's symbol table; empty when
    /// the disassembly did not come with them.
    pub constant3: Vec<(u32, u32, String)>,
    /// Where the kernel's first parameter lies in the constant bank's parameter space
    /// (`.nv.info.<kernel>`'s `EIATTR_KPARAM_INFO` of ordinal 0): 0, except where ptxas moved
    /// the whole space on (CuTe's `__grid_constant__ CUtensorMap` first parameters: 0x70, so
    /// that each 128-byte map lies 128-byte aligned at `c[0x0][0x280]`); the parameters keep
    /// their distances.
    pub param_shift: u32,
}

/// One machine instruction as written: guard, opcode and operands apart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SassLine {
    /// Byte offset in the function.
    pub code_offset: u32,
    /// Guard predicate (`P0`, `!P1`, `!UP0`), if any.
    pub predicate: Option<String>,
    /// Opcode with modifiers (`ISETP.GE.U32.AND`).
    pub opcode: String,
    /// The operands as written (`P0, PT, R4, 0x3, PT`).
    pub operands: String,
    /// Source line from the line table, if any.
    pub line: Option<u32>,
}

impl SassKernel {
    /// The shared compare-and-swap instructions (`ATOMS.CAS`, `ATOMS.CAST.SPIN`) that ptxas put in
    /// a retry loop: a backward branch's predicate is computed (through `ISETP`s between them)
    /// from the instruction's result. sm_90 makes `atomicAdd` on a shared float or double, and
    /// the 64-bit shared atomics it emulates, such a loop (`LDS`, `FADD`, `ATOMS.CAST.SPIN`,
    /// `ISETP`, `@!P BRA` back): it runs once more each time another lane's store got in first,
    /// as often as contention on the GPU makes it.
    pub fn shared_cas_retry_loops(&self) -> Vec<&SharedAccess> {
        let loops = self.loops();
        self.accesses
            .iter()
            .filter(|a| a.op == SharedOp::Atomic && a.opcode.starts_with("ATOMS.CAS"))
            .filter(|a| {
                let Some(inst) = self.insts.iter().find(|i| i.code_offset == a.code_offset) else {
                    return false;
                };
                let dest = inst.operands.split(',').next().unwrap_or("").trim();
                let mut results = vec![dest.to_string()];
                // a 64-bit result is a register pair
                if let Some(n) = dest.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()) {
                    results.push(format!("R{}", n + 1));
                }
                loops
                    .iter()
                    .filter(|&&(t, b)| (t..=b).contains(&a.code_offset))
                    .any(|&(_, b)| {
                        let Some(p) = self
                            .branches
                            .iter()
                            .find(|x| x.code_offset == b)
                            .and_then(|x| x.predicate.as_deref())
                        else {
                            return false;
                        };
                        let mut from = results.clone();
                        for i in self.insts.iter().filter(|i| {
                            i.code_offset > a.code_offset
                                && i.code_offset < b
                                && i.opcode.starts_with("ISETP")
                        }) {
                            let mut ops = i.operands.split(',').map(str::trim);
                            let out = ops.next().unwrap_or("").to_string();
                            if ops.any(|o| from.iter().any(|r| r == o.trim_start_matches('!'))) {
                                from.push(out);
                            }
                        }
                        from.iter().any(|r| r == p.trim_start_matches('!'))
                    })
            })
            .collect()
    }

    /// The code ranges of loops: from the target of each backward branch to the branch, inclusive
    /// (the unreachable self-loop after the last `EXIT` is not one, nor the jump back from a
    /// convergence check's slow path).
    pub fn loops(&self) -> Vec<(u32, u32)> {
        let slow = self.slow_paths();
        self.branches
            .iter()
            .filter(|b| b.counted() && !b.self_loop)
            .filter(|b| !slow.iter().any(|&(a, z)| (a..=z).contains(&b.code_offset)))
            .filter_map(|b| {
                let t = *self.labels.get(b.target.as_deref()?)?;
                (t <= b.code_offset).then_some((t, b.code_offset))
            })
            .collect()
    }

    /// The code ranges ptxas's `BRA.DIV` checks jump to when the warp is not converged (its slow
    /// path: `WARPSYNC.COLLECTIVE` and the collective again, then an unconditional `BRA` back):
    /// from the check's target to that `BRA`, inclusive. Only a diverged warp executes them.
    pub fn slow_paths(&self) -> Vec<(u32, u32)> {
        self.branches
            .iter()
            .filter(|b| b.opcode.starts_with("BRA.DIV"))
            .filter_map(|b| {
                let start = *self.labels.get(b.target.as_deref()?)?;
                let end = self
                    .branches
                    .iter()
                    .find(|x| {
                        x.code_offset >= start
                            && x.base() == "BRA"
                            && x.predicate.as_deref().is_none_or(|p| p == "PT")
                            && !x.opcode.starts_with("BRA.DIV")
                    })?
                    .code_offset;
                Some((start, end))
            })
            .collect()
    }
}

/// One machine instruction with its place in the code and the line table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SassInst {
    /// Byte offset in the function.
    pub code_offset: u32,
    /// Opcode with modifiers (`SHFL.BFLY`, `VOTE.ANY`, ...).
    pub opcode: String,
    /// The operands as written (`R0, PT, PT`), the guard predicate left out.
    pub operands: String,
    /// Source file from the line table, if any.
    pub file: Option<String>,
    /// Source line from the line table, if any.
    pub line: Option<u32>,
}

impl SassInst {
    /// The first operand (the destination register of `VOTE.ANY R0, PT, PT`, `MATCH.ANY R4, R7`).
    pub fn first_operand(&self) -> &str {
        self.operands.split(',').next().unwrap_or("").trim()
    }
}

/// Whether an opcode is a warp collective ptxas may guard with `BRA.DIV`.
fn is_collective(opcode: &str) -> bool {
    matches!(
        opcode.split('.').next().unwrap_or(""),
        "SHFL" | "VOTE" | "MATCH" | "REDUX"
    )
}

/// One control-transfer instruction of the machine code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SassBranch {
    /// Byte offset in the function.
    pub code_offset: u32,
    /// Opcode with modifiers (`BRA`, `BRA.U`, `BRA.DIV`, `EXIT`, `CALL.REL.NOINC`, ...).
    pub opcode: String,
    /// Guard predicate (`P0`, `!P1`, ...), if any.
    pub predicate: Option<String>,
    /// The target label (`.L_x_3`) for direct branches.
    pub target: Option<String>,
    /// The operands as written (`R4` for `WARPSYNC.EXCLUSIVE R4`), the guard predicate left out.
    pub operands: String,
    /// Labels that name this instruction (printed just before it).
    pub labels: Vec<String>,
    /// Whether it is the unreachable self-loop ptxas puts after a function's last `EXIT`
    /// (`.L_x_N: BRA .L_x_N`): never executed.
    pub self_loop: bool,
    /// Source file from the line table, if any.
    pub file: Option<String>,
    /// Source line from the line table, if any.
    pub line: Option<u32>,
}

impl SassBranch {
    /// The opcode without modifiers (`BRA`, `EXIT`, ...).
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or("")
    }

    /// Whether Nsight Compute counts an execution of it as a branch
    /// (`smsp__sass_branch_targets`): jumps and calls, not `EXIT`/`RET`/`BPT`, not the self-loop.
    ///
    /// `WARPSYNC.EXCLUSIVE` is one too (H100, `smsp__sass_inst_executed_op_branch`: the
    /// cooperative-groups `labeled_partition` kernels of `calibration/run/README.md`), with targets of
    /// its own: one per execution while every lane names the same mask, `k - 1` (all divergent)
    /// when the lanes' masks split the warp into `k` groups. A plain `WARPSYNC` and
    /// `WARPSYNC.ALL` are not counted.
    pub fn counted(&self) -> bool {
        !self.self_loop
            && (matches!(
                self.base(),
                "BRA" | "BRX" | "JMP" | "JMX" | "CALL" | "JMXU" | "BRXU"
            ) || self.opcode.starts_with("WARPSYNC.EXCLUSIVE"))
    }
}

/// Why the machine code could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SassError {
    /// A shared-memory instruction whose operands could not be understood.
    #[error("line {line}: cannot read shared-memory instruction: {reason} (at `{text}`)")]
    Malformed {
        /// 1-based line of the disassembly.
        line: usize,
        /// The offending text.
        text: String,
        /// What was wrong.
        reason: String,
    },
    /// The disassembler could not be started.
    #[error("cannot run {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The disassembler failed.
    #[error("{program} failed ({status}): {stderr}")]
    Failed {
        /// The program.
        program: String,
        /// Its exit status.
        status: String,
        /// What it printed on stderr.
        stderr: String,
    },
}

/// Runs `nvdisasm -g -c CUBIN` and returns its text, through the on-disk cache
/// ([`crate::cache::Cache::from_env`]): the same cubin and the same nvdisasm give the stored text.
pub fn disassemble(nvdisasm: &Path, cubin: &Path) -> Result<String, SassError> {
    disassemble_with(&crate::cache::Cache::from_env(), nvdisasm, cubin)
}

/// [`disassemble`] with the given cache.
pub fn disassemble_with(
    cache: &crate::cache::Cache,
    nvdisasm: &Path,
    cubin: &Path,
) -> Result<String, SassError> {
    // A cubin that cannot be read is nvdisasm's to report; it is then not cached.
    let bytes = std::fs::read(cubin).ok();
    let key = bytes.as_ref().map(|bytes| {
        crate::cache::Key::of(&[
            b"nvdisasm -g -c, constant2, constant3, constant4, params",
            &crate::cache::tool_identity(nvdisasm),
            bytes,
        ])
    });
    let run = || {
        let mut text = run_nvdisasm(nvdisasm, cubin)?;
        if let Some(b) = &bytes {
            text.push_str(&constant2_lines(b));
        }
        Ok(text.into_bytes())
    };
    let text = match key {
        Some(key) => cache.get_or("sass", key, run)?,
        None => run()?,
    };
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// The comment lines that carry each kernel's constant bank 2 after the disassembly
/// (`// warpscope constant2 <kernel> <hex bytes>`, read back by [`parse_disassembly`]); nothing
/// for a file that is not an ELF cubin.
pub fn constant2_lines(cubin: &[u8]) -> String {
    use elf::ElfBytes;
    use elf::endian::LittleEndian;
    use std::fmt::Write;
    let mut out = String::new();
    let Ok(file) = ElfBytes::<LittleEndian>::minimal_parse(cubin) else {
        return out;
    };
    let Ok((Some(headers), Some(names))) = file.section_headers_with_strtab() else {
        return out;
    };
    for h in headers.iter() {
        let Some(kernel) = names
            .get(h.sh_name as usize)
            .ok()
            .and_then(|n| n.strip_prefix(".nv.constant2."))
        else {
            continue;
        };
        // SHT_PROGBITS only (a SHT_NOBITS bank has no bytes in the file)
        if h.sh_type != elf::abi::SHT_PROGBITS {
            continue;
        }
        let Ok((data, _)) = file.section_data(&h) else {
            continue;
        };
        let _ = write!(out, "\n{CONSTANT2} {kernel} ");
        for b in data {
            let _ = write!(out, "{b:02x}");
        }
    }
    // EIATTR_KPARAM_INFO (0x17, format 0x04: index u32, ordinal u16, offset u16, size and
    // flags u32) of ordinal 0, where it is not at the space's start
    for h in headers.iter() {
        let Some(kernel) = names
            .get(h.sh_name as usize)
            .ok()
            .and_then(|n| n.strip_prefix(".nv.info."))
        else {
            continue;
        };
        let Ok((info, _)) = file.section_data(&h) else {
            continue;
        };
        let mut p = 0;
        while p + 4 <= info.len() {
            let (fmt, attr) = (info[p], info[p + 1]);
            let size = usize::from(u16::from_le_bytes([info[p + 2], info[p + 3]]));
            if fmt == 0x04 && attr == 0x17 && size >= 8 && p + 12 <= info.len() {
                let ordinal = u16::from_le_bytes([info[p + 8], info[p + 9]]);
                let offset = u16::from_le_bytes([info[p + 10], info[p + 11]]);
                if ordinal == 0 && offset != 0 {
                    let _ = write!(out, "\n{PARAMS} {kernel} {offset}");
                }
            }
            p += 4 + if fmt == 0x04 { size } else { 0 };
        }
    }
    // bank 4's relocations: R_CUDA_64 (type 2), a symbol's 64-bit address
    if let Ok(Some((symtab, strtab))) = file.symbol_table() {
        // bank 3's variables: the symbols defined in `.nv.constant3` (value: offset in the bank)
        let bank3 = headers
            .iter()
            .position(|h| names.get(h.sh_name as usize).ok() == Some(".nv.constant3"));
        if let Some(bank3) = bank3 {
            for sym in symtab
                .iter()
                .filter(|s| s.st_shndx as usize == bank3 && s.st_size > 0)
            {
                let Some(name) = strtab
                    .get(sym.st_name as usize)
                    .ok()
                    .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
                else {
                    continue;
                };
                let _ = write!(out, "\n{CONSTANT3} {} {} {name}", sym.st_value, sym.st_size);
            }
        }
        for h in headers.iter() {
            if names.get(h.sh_name as usize).ok() != Some(".rela.nv.constant4") {
                continue;
            }
            let Ok(relas) = file.section_data_as_relas(&h) else {
                continue;
            };
            for r in relas.filter(|r| r.r_type == 2) {
                let Some(name) = symtab
                    .get(r.r_sym as usize)
                    .ok()
                    .and_then(|sym| strtab.get(sym.st_name as usize).ok())
                    .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
                else {
                    continue;
                };
                let _ = write!(out, "\n{CONSTANT4} {} {} {name}", r.r_offset, r.r_addend);
            }
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The prefix of [`constant2_lines`].
const CONSTANT2: &str = "// warpscope constant2";
/// The prefix of [`constant2_lines`]' bank-3 variables (`offset size symbol`).
const CONSTANT3: &str = "// warpscope constant3";
/// The prefix of [`constant2_lines`]' bank-4 relocations (`offset addend symbol`).
const CONSTANT4: &str = "// warpscope constant4";
/// The prefix of [`constant2_lines`]' parameter-space shifts (`kernel offset`).
const PARAMS: &str = "// warpscope params";

fn run_nvdisasm(nvdisasm: &Path, cubin: &Path) -> Result<String, SassError> {
    let program = nvdisasm.display().to_string();
    let out = Command::new(nvdisasm)
        .args(["-g", "-c"])
        .arg(cubin)
        .output()
        .map_err(|source| SassError::Spawn {
            program: program.clone(),
            source,
        })?;
    if !out.status.success() {
        return Err(SassError::Failed {
            program,
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Parses `nvdisasm -g -c` or `cuobjdump -sass` text into each kernel's shared-memory instructions.
/// Instructions other than shared-memory ones are skipped; a shared-memory instruction whose address
/// cannot be read is an error naming the line.
pub fn parse_disassembly(text: &str) -> Result<Vec<SassKernel>, SassError> {
    let mut kernels: Vec<SassKernel> = Vec::new();
    let mut loc: (Option<String>, Option<u32>) = (None, None);
    let mut labels: Vec<String> = Vec::new();
    let mut banks: Vec<(String, Vec<u8>)> = Vec::new();
    let mut bank4: Vec<(u32, String, i64)> = Vec::new();
    let mut bank3: Vec<(u32, u32, String)> = Vec::new();
    let mut shifts: Vec<(String, u32)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if let Some(rest) = t.strip_prefix(PARAMS) {
            if let [name, off] = rest.split_whitespace().collect::<Vec<_>>().as_slice()
                && let Ok(off) = off.parse::<u32>()
            {
                shifts.push(((*name).to_string(), off));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix(CONSTANT3) {
            let f: Vec<&str> = rest.split_whitespace().collect();
            if let [off, size, name] = f.as_slice()
                && let (Ok(off), Ok(size)) = (off.parse::<u32>(), size.parse::<u32>())
            {
                bank3.push((off, size, (*name).to_string()));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix(CONSTANT4) {
            let f: Vec<&str> = rest.split_whitespace().collect();
            if let [off, add, name] = f.as_slice()
                && let (Ok(off), Ok(add)) = (off.parse::<u32>(), add.parse::<i64>())
            {
                bank4.push((off, (*name).to_string(), add));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix(CONSTANT2) {
            if let Some((name, hex)) = rest.trim().split_once(' ') {
                let bytes: Option<Vec<u8>> = (0..hex.len() / 2)
                    .map(|k| {
                        hex.get(2 * k..2 * k + 2)
                            .and_then(|d| u8::from_str_radix(d, 16).ok())
                    })
                    .collect();
                if let Some(bytes) = bytes {
                    banks.push((name.to_string(), bytes));
                }
            }
            continue;
        }
        if let Some(name) = kernel_header(t) {
            if kernels.last().is_none_or(|k| k.name != name) {
                kernels.push(SassKernel {
                    name: name.to_string(),
                    ..SassKernel::default()
                });
            }
            loc = (None, None);
            labels.clear();
            continue;
        }
        if let Some(rest) = t.strip_prefix("//## File ") {
            loc = parse_file_line(rest);
            continue;
        }
        if let Some(label) = t.strip_suffix(':')
            && (label.starts_with(".L") || label.starts_with('$'))
            && !label.contains(char::is_whitespace)
        {
            labels.push(label.to_string());
            continue;
        }
        let Some((code_offset, inst)) = instruction(t) else {
            continue;
        };
        let here = std::mem::take(&mut labels);
        if !here.is_empty() {
            if kernels.is_empty() {
                kernels.push(SassKernel::default());
            }
            let k = kernels.last_mut().expect("pushed above");
            for l in &here {
                k.labels.insert(l.clone(), code_offset);
            }
        }
        {
            let (guard, body) = match inst.strip_prefix('@') {
                Some(p) => p
                    .split_once(char::is_whitespace)
                    .map_or((None, ""), |(g, b)| (Some(g.to_string()), b.trim_start())),
                None => (None, inst),
            };
            let opcode = body.split_whitespace().next().unwrap_or("");
            if kernels.is_empty() {
                kernels.push(SassKernel::default());
            }
            kernels.last_mut().expect("pushed above").insts.push(SassLine {
                code_offset,
                predicate: guard,
                opcode: opcode.to_string(),
                operands: body[opcode.len()..].trim().to_string(),
                line: loc.1,
            });
            if matches!(
                opcode.split('.').next().unwrap_or(""),
                "LDG" | "STG" | "LD" | "ST"
            ) {
                if kernels.is_empty() {
                    kernels.push(SassKernel::default());
                }
                kernels.last_mut().expect("pushed above").globals.push(SassInst {
                    code_offset,
                    opcode: opcode.to_string(),
                    operands: body[opcode.len()..].trim().to_string(),
                    file: loc.0.clone(),
                    line: loc.1,
                });
            }
            if is_collective(opcode) {
                if kernels.is_empty() {
                    kernels.push(SassKernel::default());
                }
                kernels
                    .last_mut()
                    .expect("pushed above")
                    .collectives
                    .push(SassInst {
                        code_offset,
                        opcode: opcode.to_string(),
                        operands: body[opcode.len()..].trim().to_string(),
                        file: loc.0.clone(),
                        line: loc.1,
                    });
                continue;
            }
        }
        if let Some(mut b) = branch(inst) {
            b.code_offset = code_offset;
            b.self_loop = b.predicate.is_none()
                && b.base() == "BRA"
                && b.target.as_ref().is_some_and(|t| here.contains(t));
            b.labels = here;
            b.file = loc.0.clone();
            b.line = loc.1;
            if kernels.is_empty() {
                kernels.push(SassKernel::default());
            }
            kernels.last_mut().expect("pushed above").branches.push(b);
            continue;
        }
        let Some(access) = shared_access(inst).map_err(|reason| SassError::Malformed {
            line: i + 1,
            text: t.to_string(),
            reason,
        })?
        else {
            continue;
        };
        if kernels.is_empty() {
            kernels.push(SassKernel::default());
        }
        let (op, opcode, width, base, offset, predicate) = access;
        kernels
            .last_mut()
            .expect("pushed above")
            .accesses
            .push(SharedAccess {
                code_offset,
                opcode,
                op,
                width,
                base,
                offset,
                predicate,
                file: loc.0.clone(),
                line: loc.1,
                text: inst.to_string(),
            });
    }
    for (name, bytes) in banks {
        if let Some(k) = kernels.iter_mut().find(|k| k.name == name) {
            k.constant2 = bytes;
        }
    }
    for (name, off) in shifts {
        if let Some(k) = kernels.iter_mut().find(|k| k.name == name) {
            k.param_shift = off;
        }
    }
    for k in &mut kernels {
        k.constant4.clone_from(&bank4);
        k.constant3.clone_from(&bank3);
    }
    Ok(kernels)
}

/// `.section .text.NAME,...` (nvdisasm) or `Function : NAME` (cuobjdump).
fn kernel_header(t: &str) -> Option<&str> {
    if let Some(rest) = t.strip_prefix(".section") {
        let rest = rest.trim_start();
        let name = rest.strip_prefix(".text.")?;
        return Some(name.split(',').next().unwrap_or(name).trim());
    }
    t.strip_prefix("Function :")
        .or_else(|| t.strip_prefix("Function:"))
        .map(str::trim)
}

/// `"file.cu", line 14` (possibly followed by `, inlined at ...`).
fn parse_file_line(rest: &str) -> (Option<String>, Option<u32>) {
    let rest = rest.trim();
    let Some(q) = rest.strip_prefix('"') else {
        return (None, None);
    };
    let Some(end) = q.find('"') else {
        return (None, None);
    };
    let file = q[..end].to_string();
    let after = &q[end + 1..];
    let line = after
        .trim_start_matches(',')
        .trim()
        .strip_prefix("line")
        .map(|s| {
            s.trim()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|d| d.parse().ok());
    (Some(file), line)
}

/// `/*01f0*/  STS [R2+0x210], R13 ;  /* 0x... */` gives (0x1f0, "STS [R2+0x210], R13").
fn instruction(t: &str) -> Option<(u32, &str)> {
    let rest = t.strip_prefix("/*")?;
    let end = rest.find("*/")?;
    let code_offset = u32::from_str_radix(rest[..end].trim(), 16).ok()?;
    let mut inst = rest[end + 2..].trim();
    if let Some(semi) = inst.find(';') {
        inst = &inst[..semi];
    }
    let inst = inst.trim().trim_start_matches('{').trim_end_matches('}').trim();
    if inst.is_empty() {
        None
    } else {
        Some((code_offset, inst))
    }
}

/// Recognises a control-transfer instruction (offset, labels and line are filled by the caller).
fn branch(inst: &str) -> Option<SassBranch> {
    let (predicate, body) = match inst.strip_prefix('@') {
        Some(p) => {
            let (pred, body) = p.split_once(char::is_whitespace)?;
            (Some(pred.to_string()), body.trim_start())
        }
        None => (None, inst),
    };
    let opcode = body.split_whitespace().next().unwrap_or("");
    let base = opcode.split('.').next().unwrap_or("");
    if !matches!(
        base,
        "BRA" | "BRX" | "BRXU" | "JMP" | "JMX" | "JMXU" | "CALL" | "RET" | "EXIT" | "BPT" | "KILL"
    ) && !opcode.starts_with("WARPSYNC.EXCLUSIVE")
    {
        return None;
    }
    let target = body.find('`').and_then(|a| {
        let rest = &body[a + 1..];
        let rest = rest.strip_prefix('(').unwrap_or(rest);
        let end = rest.find([')', '`'])?;
        Some(rest[..end].trim().to_string())
    });
    Some(SassBranch {
        code_offset: 0,
        opcode: opcode.to_string(),
        predicate,
        target,
        operands: body[opcode.len()..].trim().to_string(),
        labels: Vec::new(),
        self_loop: false,
        file: None,
        line: None,
    })
}

type Parsed = (SharedOp, String, u8, String, i64, Option<String>);

/// Recognises a shared-memory instruction and reads its width and address.
fn shared_access(inst: &str) -> Result<Option<Parsed>, String> {
    let (predicate, body) = match inst.strip_prefix('@') {
        Some(p) => {
            let (pred, body) = p
                .split_once(char::is_whitespace)
                .ok_or("predicate without instruction")?;
            (Some(pred.to_string()), body.trim_start())
        }
        None => (None, inst),
    };
    let opcode = body.split_whitespace().next().unwrap_or("");
    let mut parts = opcode.split('.');
    let op = match parts.next().unwrap_or("") {
        "LDS" => SharedOp::Load,
        "STS" => SharedOp::Store,
        "ATOMS" => SharedOp::Atomic,
        "LDSM" => SharedOp::LoadMatrix,
        _ => return Ok(None),
    };
    let mut width = 4u8;
    for m in parts {
        match m {
            "U8" | "S8" => width = 1,
            "U16" | "S16" => width = 2,
            "64" => width = 8,
            "128" => width = 16,
            _ => {}
        }
    }
    if op == SharedOp::LoadMatrix {
        width = 16;
    }
    let open = body.find('[').ok_or("no address operand")?;
    let close = body[open..].find(']').ok_or("unclosed address operand")? + open;
    let (base, offset) = parse_address(&body[open + 1..close])?;
    Ok(Some((op, opcode.to_string(), width, base, offset, predicate)))
}

/// `R2+0x210`, `R3+UR4+-0x4`, `0x100`, `R2.X4+UR4` → (register part, immediate sum).
fn parse_address(a: &str) -> Result<(String, i64), String> {
    let mut regs: Vec<&str> = Vec::new();
    let mut offset = 0i64;
    for term in a.split('+').map(str::trim).filter(|s| !s.is_empty()) {
        let (neg, digits) = match term.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, term),
        };
        if let Some(hex) = digits.strip_prefix("0x") {
            let v = i64::from_str_radix(hex, 16).map_err(|_| format!("bad immediate `{term}`"))?;
            offset += if neg { -v } else { v };
        } else if digits.chars().all(|c| c.is_ascii_digit()) {
            let v: i64 = digits.parse().map_err(|_| format!("bad immediate `{term}`"))?;
            offset += if neg { -v } else { v };
        } else if term.starts_with('R') || term.starts_with("UR") {
            regs.push(term);
        } else {
            return Err(format!("unexpected address term `{term}`"));
        }
    }
    Ok((regs.join("+"), offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_4_relocations_reach_every_kernel() {
        let text = ".section\t.text.a,\"ax\",@progbits\n\
            /*0000*/ LDC.64 R2, c[0x4][RZ] ;\n\
            .section\t.text.b,\"ax\",@progbits\n\
            /*0000*/ EXIT ;\n\
            // warpscope constant4 0 0 __cudart_sin_cos_coeffs\n\
            // warpscope constant4 8 16 __cudart_i2opi_d\n\
            // warpscope constant4 x 0 bad\n";
        let k = parse_disassembly(text).unwrap();
        assert_eq!(k.len(), 2);
        for k in &k {
            assert_eq!(
                k.constant4,
                vec![
                    (0, "__cudart_sin_cos_coeffs".to_string(), 0),
                    (8, "__cudart_i2opi_d".to_string(), 16)
                ]
            );
        }
    }

    #[test]
    fn bank_3_variables_reach_every_kernel() {
        let text = ".section\t.text.a,\"ax\",@progbits\n\
            /*0000*/ ULDC.U16 UR8, c[0x3][UR4] ;\n\
            .section\t.text.b,\"ax\",@progbits\n\
            /*0000*/ EXIT ;\n\
            // warpscope constant3 0 104 cKeys\n\
            // warpscope constant3 104 36 taps\n\
            // warpscope constant3 8 x bad\n";
        let k = parse_disassembly(text).unwrap();
        assert_eq!(k.len(), 2);
        for k in &k {
            assert_eq!(
                k.constant3,
                vec![(0, 104, "cKeys".to_string()), (104, 36, "taps".to_string())]
            );
        }
    }

    #[test]
    fn widths_predicates_and_addresses() {
        let text = ".section\t.text.k,\"ax\",@progbits\n\
            //## File \"a.cu\", line 3\n\
            /*0010*/ @!P0 LDS.U8 R1, [R2+-0x4] ;\n\
            /*0020*/ STS.128 [R3+UR4+0x10], R4 ;\n\
            //## File \"a.cu\", line 9, inlined at \"a.cu\", line 20\n\
            /*0030*/ ATOMS.ADD.64 RZ, [0x100], R6 ;\n\
            /*0040*/ LDG.E R1, desc[UR4][R2.64] ;\n\
            /*0050*/ LDS.S16 R7, [R8] ;\n";
        let k = parse_disassembly(text).unwrap();
        assert_eq!(k.len(), 1);
        let a = &k[0].accesses;
        assert_eq!(a.len(), 4, "LDG is not shared");
        assert_eq!(
            (a[0].op, a[0].width, a[0].offset, a[0].base.as_str()),
            (SharedOp::Load, 1, -4, "R2")
        );
        assert_eq!(a[0].predicate.as_deref(), Some("!P0"));
        assert_eq!(
            (a[1].op, a[1].width, a[1].offset, a[1].base.as_str()),
            (SharedOp::Store, 16, 16, "R3+UR4")
        );
        assert_eq!(
            (a[2].op, a[2].width, a[2].offset, a[2].base.as_str()),
            (SharedOp::Atomic, 8, 256, "")
        );
        assert_eq!(a[2].line, Some(9));
        assert_eq!((a[3].width, a[3].code_offset, a[3].line), (2, 0x50, Some(9)));
    }

    #[test]
    fn shared_cas_retry_loops_need_a_branch_on_the_result() {
        // atomicAdd on a shared float as ptxas writes it for sm_90, then a CAS whose result
        // no branch tests, in a counted loop
        let text = ".section\t.text.k,\"ax\",@progbits\n\
            //## File \"a.cu\", line 7\n\
            .L_x_1:\n\
            /*0010*/ LDS R4, [R21] ;\n\
            /*0020*/ FADD R5, R19, R4 ;\n\
            /*0030*/ ATOMS.CAST.SPIN R5, [R21], R4, R5 ;\n\
            /*0040*/ ISETP.EQ.U32.AND P2, PT, R5, 0x1, PT ;\n\
            /*0050*/ @!P2 BRA `(.L_x_1) ;\n\
            //## File \"a.cu\", line 9\n\
            .L_x_2:\n\
            /*0060*/ ATOMS.CAS R6, [R21], R4, R5 ;\n\
            /*0070*/ IADD3 R8, R8, 0x1, RZ ;\n\
            /*0080*/ ISETP.GE.AND P0, PT, R8, 0x10, PT ;\n\
            /*0090*/ @!P0 BRA `(.L_x_2) ;\n\
            /*00a0*/ EXIT ;\n";
        let k = parse_disassembly(text).unwrap();
        let l: Vec<_> = k[0]
            .shared_cas_retry_loops()
            .iter()
            .map(|a| (a.code_offset, a.line))
            .collect();
        assert_eq!(l, vec![(0x30, Some(7))]);
    }

    #[test]
    fn malformed_address_names_the_line() {
        let err = parse_disassembly("/*0010*/ LDS R1, [R2+zz] ;\n").unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        assert!(err.to_string().contains("zz"), "{err}");
    }

    #[test]
    fn cuobjdump_function_header() {
        let text = "\t\tFunction : col32\n        /*0120*/                   STS [R2], R5 ;   /* 0x0000000502007388 */\n";
        let k = parse_disassembly(text).unwrap();
        assert_eq!(k[0].name, "col32");
        assert_eq!(k[0].accesses[0].line, None);
        assert_eq!(k[0].accesses[0].text, "STS [R2], R5");
    }
}

#[cfg(test)]
mod fixture_tests {
    use super::*;

    fn kernel(text: &str) -> SassKernel {
        let mut k = parse_disassembly(text).unwrap();
        assert_eq!(k.len(), 1);
        k.pop().unwrap()
    }

    fn count(k: &SassKernel, opcode: &str) -> usize {
        k.accesses.iter().filter(|a| a.opcode == opcode).count()
    }

    #[test]
    fn struct_f2_is_one_64_bit_store_and_load() {
        let k = kernel(include_str!("../../cli/fixtures/seeds/structF2.sass"));
        assert_eq!(k.name, "structF2");
        let got: Vec<_> = k
            .accesses
            .iter()
            .map(|a| (a.opcode.as_str(), a.width, a.line))
            .collect();
        assert_eq!(got, [("STS.64", 8, Some(14)), ("LDS.64", 8, Some(16))]);
        assert_eq!(
            k.accesses[0].file.as_deref(),
            Some("calibration/kernels/seeds/structF2.cu")
        );
    }

    #[test]
    fn struct_f3_stays_three_scalar_accesses() {
        let k = kernel(include_str!("../../cli/fixtures/seeds/structF3.sass"));
        let offsets: Vec<_> = k.accesses.iter().map(|a| (a.op, a.width, a.offset)).collect();
        use SharedOp::{Load, Store};
        assert_eq!(
            offsets,
            [
                (Store, 4, 0),
                (Store, 4, 4),
                (Store, 4, 8),
                (Load, 4, 0),
                (Load, 4, 4),
                (Load, 4, 8)
            ]
        );
    }

    #[test]
    fn byte_and_double_widths() {
        let c = kernel(include_str!("../../cli/fixtures/seeds/charTid.sass"));
        assert!(c.accesses.iter().all(|a| a.width == 1), "{:?}", c.accesses);
        let d = kernel(include_str!("../../cli/fixtures/seeds/doubleTid.sass"));
        assert!(d.accesses.iter().all(|a| a.width == 8), "{:?}", d.accesses);
    }

    #[test]
    fn matmul_fuses_the_row_reads_into_128_bit_loads() {
        let k = kernel(include_str!("../../cli/fixtures/classic/matmulTiled.sass"));
        // ptxas unrolls the 4 tile steps; each step reads As[ty][0..16] as 4 x LDS.128 and Bs[k][tx]
        // as 16 scalar LDS, and stores one element of each tile.
        assert_eq!(count(&k, "LDS.128"), 16);
        assert_eq!(count(&k, "LDS"), 64);
        assert_eq!(count(&k, "STS"), 8);
    }
}

/// A kernel's machine code with the functions it calls that ptxas kept apart (`CALL.ABS` into a
/// function of another translation unit that the device link put in the cubin, `-rdc=true`; every
/// call of a `-G` build), laid out after it: [`with_callees`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Linked {
    /// The kernel, then each called function (and what they call), each at its own base offset;
    /// every function's name is a label of its first instruction, and the return addresses the
    /// callers load (`MOV R20, 32@lo((f + .L_x_1@srel))`, `32@hi(...)`) are the merged offsets
    /// (the high word 0).
    pub kernel: SassKernel,
    /// The functions laid out after the kernel, in order, with their base offsets.
    pub callees: Vec<(String, u32)>,
    /// Called functions whose machine code is not in the disassembly (the driver's `vprintf`,
    /// `__assertfail`, `malloc`, the device runtime), each once; `"?"` for a call without a named
    /// target.
    pub unresolved: Vec<String>,
}

/// Whether the register a `CALL.ABS.NOINC Rn` calls through was last written, before the call, by
/// a load from constant bank 4, where the driver puts the addresses of external functions.
fn loads_relocated_address(f: &SassKernel, call: &SassBranch) -> bool {
    let Some(reg) = call.operands.split([' ', ',']).next().filter(|r| !r.is_empty()) else {
        return false;
    };
    f.insts
        .iter()
        .rev()
        .filter(|l| l.code_offset < call.code_offset)
        .find(|l| {
            l.operands
                .split(',')
                .next()
                .is_some_and(|d| d.trim().trim_end_matches(".64") == reg)
        })
        .is_some_and(|l| l.opcode.starts_with("LDC") && l.operands.contains("c[0x4]"))
}

/// Kernel `name` of `kernels` (one cubin's functions) with the closure of the functions its calls
/// reach laid out after it ([`Linked`]), or `None` when `name` is not among them.
pub fn with_callees(kernels: &[SassKernel], name: &str) -> Option<Linked> {
    let root = kernels.iter().find(|k| k.name == name)?;
    let mut order: Vec<&SassKernel> = vec![root];
    let mut unresolved: Vec<String> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let f = order[i];
        i += 1;
        for b in f.branches.iter().filter(|b| b.base() == "CALL") {
            let Some(t) = b.target.as_deref() else {
                // `CALL.REL.NOINC R10 0x0`: a call through a register (function pointers); the
                // flow follows those through the kernel's own copies of the functions
                if !b.opcode.starts_with("CALL.ABS") && b.operands.starts_with('R') {
                    continue;
                }
                // `CALL.ABS.NOINC R6`: a function pointer a device-linked table holds: any
                // function of the cubin may be its target, all are laid out; one whose register
                // comes from constant bank 4 (`LDC.64 R8, c[0x4][R22]`) is the driver's relocated
                // external function (`vprintf`)
                if b.operands.starts_with('R') && !loads_relocated_address(f, b) {
                    for c in kernels {
                        if !order.iter().any(|o| o.name == c.name) {
                            order.push(c);
                        }
                    }
                    continue;
                }
                if !unresolved.iter().any(|u| u == "?") {
                    unresolved.push("?".into());
                }
                continue;
            };
            if f.labels.contains_key(t) {
                continue;
            }
            match kernels.iter().find(|k| k.name == t) {
                Some(c) if !order.iter().any(|o| o.name == c.name) => order.push(c),
                Some(_) => {}
                None if !unresolved.iter().any(|u| u == t) => unresolved.push(t.to_string()),
                None => {}
            }
        }
    }
    // bases: each function after the previous one's last instruction, aligned to 128 bytes
    let mut bases = Vec::with_capacity(order.len());
    let mut next = 0u32;
    for f in &order {
        bases.push(next);
        let end = f.insts.last().map_or(0, |l| l.code_offset + 16);
        next = (next + end).div_ceil(128) * 128;
    }
    let mut labels = std::collections::BTreeMap::new();
    for (f, &base) in order.iter().zip(&bases) {
        for (l, &o) in &f.labels {
            labels.insert(l.clone(), base + o);
        }
    }
    for (f, &base) in order.iter().zip(&bases).skip(1) {
        labels.insert(f.name.clone(), base);
    }
    let return_address = |ops: &str| -> String { relink_return_address(ops, &labels) };
    let mut k = SassKernel {
        name: root.name.clone(),
        constant2: root.constant2.clone(),
        constant3: root.constant3.clone(),
        constant4: root.constant4.clone(),
        param_shift: root.param_shift,
        ..SassKernel::default()
    };
    // a global symbol's address as an immediate (`UMOV UR6, 32@lo(g_calls)`, the device link's
    // relocation): read as a word of constant bank 4 past the module's own, which holds the
    // symbol's address as the launch places it
    let mut symbol_word = |ops: &str| -> String {
        let mut out = String::with_capacity(ops.len());
        let mut rest = ops;
        while let Some(a) = rest.find("32@") {
            let (pre, at) = rest.split_at(a);
            out.push_str(pre);
            let hi = at.starts_with("32@hi(");
            let inner = at.get(6..).unwrap_or("");
            let end = inner.find(')').unwrap_or(inner.len());
            let sym = &inner[..end];
            if (!hi && !at.starts_with("32@lo(")) || sym.is_empty() || sym.starts_with('(') {
                out.push_str(&at[..3]);
                rest = &at[3..];
                continue;
            }
            let off = match k
                .constant4
                .iter()
                .find(|(o, n, add)| n == sym && *add == 0 && *o >= SYMBOL_WORDS)
            {
                Some((o, _, _)) => *o,
                None => {
                    let o = SYMBOL_WORDS
                        + 8 * k.constant4.iter().filter(|(o, _, _)| *o >= SYMBOL_WORDS).count() as u32;
                    k.constant4.push((o, sym.to_string(), 0));
                    o
                }
            };
            out.push_str(&format!("c[0x4][{:#x}]", off + if hi { 4 } else { 0 }));
            rest = inner.get(end + 1..).unwrap_or("");
        }
        out.push_str(rest);
        out
    };
    for (f, &base) in order.iter().zip(&bases) {
        k.accesses.extend(f.accesses.iter().map(|a| SharedAccess {
            code_offset: a.code_offset + base,
            ..a.clone()
        }));
        k.branches.extend(f.branches.iter().map(|b| SassBranch {
            code_offset: b.code_offset + base,
            ..b.clone()
        }));
        k.collectives.extend(f.collectives.iter().map(|c| SassInst {
            code_offset: c.code_offset + base,
            ..c.clone()
        }));
        k.globals.extend(f.globals.iter().map(|g| SassInst {
            code_offset: g.code_offset + base,
            ..g.clone()
        }));
        k.insts.extend(f.insts.iter().map(|l| SassLine {
            code_offset: l.code_offset + base,
            operands: symbol_word(&return_address(&l.operands)),
            ..l.clone()
        }));
    }
    k.labels = labels;
    Some(Linked {
        kernel: k,
        callees: order
            .iter()
            .zip(&bases)
            .skip(1)
            .map(|(f, &b)| (f.name.clone(), b))
            .collect(),
        unresolved,
    })
}

/// Where [`with_callees`] puts the symbols' addresses read as immediates in constant bank 4
/// (above any offset of the bank's 64 KB).
const SYMBOL_WORDS: u32 = 0x10000;

/// `R20, 32@lo((f + .L_x_1@srel))` with `.L_x_1` at merged offset 0x190 -> `R20, 0x190`;
/// `32@hi(...)` -> `0x0` (the merged code's addresses fit 32 bits). Operands without such a term,
/// or naming a label not in `labels`, are returned as they are.
fn relink_return_address(ops: &str, labels: &std::collections::BTreeMap<String, u32>) -> String {
    let Some(a) = ops.find("32@") else {
        return ops.to_string();
    };
    let rest = &ops[a..];
    let hi = rest.starts_with("32@hi((");
    if !hi && !rest.starts_with("32@lo((") {
        return ops.to_string();
    }
    let Some(end) = rest.find("))") else {
        return ops.to_string();
    };
    let inner = &rest[7..end];
    let label = inner
        .split('+')
        .nth(1)
        .map(|l| l.trim().trim_end_matches("@srel").trim());
    let Some(off) = label.and_then(|l| labels.get(l)) else {
        return ops.to_string();
    };
    let value = if hi { 0 } else { *off };
    format!("{}{value:#x}{}", &ops[..a], &rest[end + 2..])
}
