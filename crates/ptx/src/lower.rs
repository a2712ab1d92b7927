//! Lowering: parsed [`Module`] → [`Program`] (dense registers, resolved labels, inlined device
//! functions, per-pc source info, shared-memory layout, immediate post-dominators of branches).

use std::collections::HashMap;

use crate::inst::*;
mod contract;
mod devrt;
mod indirect;
mod tma;
use crate::parse::{Function, Instruction, Module, Operand, Pos, StateSpace, Stmt, VarDecl};
pub use indirect::FUNC_BASE;

mod wgmma;

/// Address of the first module-scope `.global` variable in the emulated global address space.
pub const GLOBAL_VAR_BASE: u64 = 0x0800_0000;

/// Alignment of each `.global` module variable, as the CUDA driver places them.
pub const GLOBAL_VAR_ALIGN: u64 = 256;

/// A lowering problem: where, what text, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerError {
    /// Where the offending instruction or declaration is.
    pub pos: Pos,
    /// Its text.
    pub text: String,
    /// Why it cannot be lowered.
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} (in `{}`)",
            self.pos.line, self.pos.col, self.message, self.text
        )
    }
}

/// Source location from `.loc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcLoc {
    /// File index (see [`Program::file_name`]).
    pub file: u32,
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// Where a lowered instruction came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstInfo {
    /// 1-based line in the .ptx text.
    pub ptx_line: u32,
    /// The PTX instruction text.
    pub text: String,
    /// The `.loc` in force, when any.
    pub loc: Option<SrcLoc>,
    /// Where the code of `loc` was inlined (`.loc ..., inlined_at`): the call site, then the call
    /// site of the function holding that one, and so on outwards; empty when not inlined.
    pub inlined_at: Vec<SrcLoc>,
    /// The function body the instruction was lowered from: 0 the kernel's own, then one number
    /// per inlined call (each copy of a function its own, numbered in the order the copies were
    /// lowered within the kernel) and per recursive function's out-of-line body. Registers of two
    /// bodies are distinct even where their names are the same.
    pub body: u32,
}

/// A shared-memory variable of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedVar {
    /// Name as in the PTX.
    pub name: String,
    /// Byte offset in the block's shared window.
    pub offset: u32,
    /// Size in bytes (0 for dynamic `extern` arrays).
    pub size: u32,
    /// Alignment.
    pub align: u32,
    /// Dynamic (`extern .shared x[]`): lives at the dynamic base.
    pub dynamic: bool,
}

/// A kernel parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    /// Name.
    pub name: String,
    /// Offset in the parameter buffer.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Element type name (`u64`, `b8`, ...).
    pub ty: String,
}

/// One lowered kernel. Its instructions are `Program::ops[entry..end]` (pcs are program-wide).
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Name.
    pub name: String,
    /// First pc.
    pub entry: u32,
    /// One past the last pc.
    pub end: u32,
    /// Parameters.
    pub params: Vec<ParamInfo>,
    /// Parameter buffer size.
    pub param_size: u32,
    /// Register rows per warp.
    pub n_rows: u32,
    /// Rows initialised when a warp starts (constants, symbol addresses, special registers).
    pub row_init: Vec<(R, RowInit)>,
    /// Predicates per warp.
    pub n_preds: u32,
    /// Shared variables, static ones first in layout order.
    pub shared: Vec<SharedVar>,
    /// Bytes of static shared memory.
    pub static_smem: u32,
    /// Offset of dynamic shared memory in the window.
    pub dyn_smem_base: u32,
    /// Per-thread local memory bytes (local arrays and call parameters).
    pub local_size: u32,
    /// `.reqntid`
    pub reqntid: Option<[u32; 3]>,
    /// `.maxntid`
    pub maxntid: Option<[u32; 3]>,
    /// Bytes of reserved shared memory the kernel reads through `%reserved_smem_offset_*`
    /// ([`RESERVED_SMEM_BYTES`] or 0). Not part of `static_smem`: the GPU reserves 1 KB per block
    /// outside the program's own shared memory (occupancy counts it separately).
    pub reserved_smem: u32,
    /// `.reqnctapercluster` (`__cluster_dims__`): the cluster dimensions the kernel is launched
    /// with whatever the launch says.
    pub reqnctapercluster: Option<[u32; 3]>,
    /// `.explicitcluster` (or `.reqnctapercluster`): the kernel runs in clusters it names
    /// (`%is_explicit_cluster` reads 1).
    pub explicitcluster: bool,
    /// The `setmaxnreg.{inc,dec}.sync.aligned.u32 N` the kernel executes (warp-specialised register
    /// reallocation), in program order, each `(inc, N)` once: the warps that run them hold N
    /// registers per thread from there on instead of the launch's allocation.
    pub setmaxnreg: Vec<(bool, u32)>,
}

/// A module-scope `.global` or `.const` variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleVar {
    /// Name.
    pub name: String,
    /// `true` for `.const`, `false` for `.global`.
    pub is_const: bool,
    /// Global address (for `.global`) or offset in the constant bank (for `.const`).
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
}

/// A lowered module.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// All instructions of all kernels (device functions are inlined, but recursive ones:
    /// [`CallSite`]).
    pub ops: Vec<Op>,
    /// Per-pc source info, parallel to `ops`.
    pub info: Vec<InstInfo>,
    /// Kernels.
    pub kernels: Vec<Kernel>,
    /// `.file` table.
    pub files: Vec<(u32, String)>,
    /// Module-scope `.global`/`.const` variables.
    pub vars: Vec<ModuleVar>,
    /// Initial contents of the `.global` variables region at [`GLOBAL_VAR_BASE`].
    pub global_init: Vec<u8>,
    /// Initial contents of the constant bank.
    pub const_bank: Vec<u8>,
    /// Kernels that could not be lowered (an instruction reached from their entry, through
    /// calls, that is not modelled, an unknown name, ...), with their errors, in module order.
    /// They are absent from `kernels`; the other kernels of the module are usable.
    pub failed: Vec<KernelFailure>,
    /// The name of every `.entry` of the module (lowered or failed), in module order.
    pub entries: Vec<String>,
    /// Every function with an address (a `.func` with a body), and that address: what a function
    /// pointer to it holds here (`lower/indirect.rs`).
    pub functions: Vec<(String, u64)>,
    /// Every `.entry` and its address: what `mov.u64 %rd, kernel;` puts in a register (a device-side
    /// launch names its kernel so, `lower/devrt.rs`), in module order.
    pub kernel_addresses: Vec<(String, u64)>,
    /// The calls of recursive functions' out-of-line bodies ([`Inst::Call`]'s `site`).
    pub calls: Vec<CallSite>,
}

/// A call of a recursive device function. Calls are inlined, except a call of a function whose
/// body is being lowered already (recursion): that one calls the function's out-of-line body, one
/// copy per kernel, appended after the kernel's own instructions. Every activation of the body
/// uses the same register rows, predicates and local bytes, so a call saves them for the warp's
/// lanes and the return restores them: each activation sees its own. A body that takes the
/// address of its own local memory (a stack frame: the address would name the same bytes in every
/// activation) is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallSite {
    /// The body's first pc.
    pub entry: u32,
    /// The register rows the body's activation owns.
    pub rows: std::ops::Range<u32>,
    /// The predicates it owns.
    pub preds: std::ops::Range<u32>,
    /// The bytes of each thread's local window it owns (its parameters, return values and the
    /// `.param` slots of the calls it makes).
    pub local: std::ops::Range<u32>,
    /// At the call, after the save: (caller's `.param` offset, the body's parameter offset, bytes).
    pub args: Vec<(u32, u32, u32)>,
    /// At the return, after the restore: (the body's return offset, the caller's, bytes); the
    /// values are read before the restore.
    pub rets: Vec<(u32, u32, u32)>,
}

/// A kernel of the module that did not lower, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelFailure {
    /// The kernel's name.
    pub name: String,
    /// Its lowering errors (at least one).
    pub errors: Vec<LowerError>,
}

impl Program {
    /// Source info of a pc. Panics if `pc` is out of range (pcs come from this program's events).
    pub fn inst_info(&self, pc: u32) -> &InstInfo {
        &self.info[pc as usize]
    }
    /// The source places of a pc, innermost first: its `.loc`, then the call sites it was
    /// inlined at (see [`InstInfo::inlined_at`]); empty without a `.loc`.
    pub fn frames(&self, pc: u32) -> Vec<SrcLoc> {
        let info = self.inst_info(pc);
        info.loc
            .into_iter()
            .chain(info.inlined_at.iter().copied())
            .collect()
    }
    /// File name of a `.loc` file index.
    pub fn file_name(&self, idx: u32) -> Option<&str> {
        self.files
            .iter()
            .find(|(i, _)| *i == idx)
            .map(|(_, n)| n.as_str())
    }
    /// Finds a kernel by name.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
    /// The lowering errors of kernel `name` when it is one of the module's kernels that did not
    /// lower (see [`Program::failed`]); `None` for a lowered kernel or an unknown name.
    pub fn kernel_error(&self, name: &str) -> Option<&[LowerError]> {
        self.failed
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.errors.as_slice())
    }
    /// Names of every `.entry` of the module, lowered or not, in module order.
    pub fn all_kernel_names(&self) -> Vec<&str> {
        self.entries.iter().map(String::as_str).collect()
    }
}

#[derive(Clone, Copy, Debug)]
enum Sym {
    Reg(R, Ty),
    Pred(P),
    Shared(u32),
    Local(u32),
    CallParam(u32),
    KParam(u32),
    Global(u64),
    Const(u64),
}

fn elem_size(v: &VarDecl) -> u64 {
    Ty::parse(&v.ty).map(|t| t.bytes() as u64).unwrap_or(1) * v.vec as u64
}

fn var_size(v: &VarDecl) -> u64 {
    v.dims
        .iter()
        .fold(elem_size(v), |acc, d| acc.saturating_mul(d.unwrap_or(0)))
}

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Bytes of reserved shared memory a kernel gets when it reads a `%reserved_smem_offset_*`
/// register: the 1 KB an sm_90 block reserves (`cudaDevAttrReservedSharedMemoryPerBlock`).
/// Cooperative groups keeps its multi-warp tile barrier at `%reserved_smem_offset_1` and the
/// tiles' per-warp exchange slots after it (`block_tile_memory` holds no bytes of its own on
/// sm_80+). `%reserved_smem_offset_<n>` is the region's start plus `8 * n`. The emulator places
/// the region after the kernel's own shared memory (static and dynamic), so it moves none of
/// the kernel's addresses.
pub const RESERVED_SMEM_BYTES: u32 = 1024;

/// Call sites kept per instruction in [`InstInfo::inlined_at`] (deeper chains are cut).
const MAX_INLINE_DEPTH: usize = 16;

fn special(name: &str) -> Option<Special> {
    let comp = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((base, c)) = name.split_once('.') {
        let c = comp(c)?;
        return Some(match base {
            "%tid" => Special::Tid(c),
            "%ntid" => Special::Ntid(c),
            "%ctaid" => Special::Ctaid(c),
            "%nctaid" => Special::Nctaid(c),
            "%cluster_ctaid" => Special::ClusterCtaid(c),
            "%cluster_nctaid" => Special::ClusterNctaid(c),
            "%clusterid" => Special::ClusterId(c),
            "%nclusterid" => Special::NClusterId(c),
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => Special::LaneId,
        "%warpid" => Special::WarpId,
        "%nwarpid" => Special::NWarpId,
        "%smid" => Special::SmId,
        "%nsmid" => Special::NSmId,
        "%gridid" => Special::GridId,
        "%lanemask_eq" => Special::LaneMaskEq,
        "%lanemask_le" => Special::LaneMaskLe,
        "%lanemask_lt" => Special::LaneMaskLt,
        "%lanemask_ge" => Special::LaneMaskGe,
        "%lanemask_gt" => Special::LaneMaskGt,
        "%dynamic_smem_size" => Special::DynSmemSize,
        "%total_smem_size" => Special::TotalSmemSize,
        "%cluster_ctarank" => Special::ClusterCtaRank,
        "%cluster_nctarank" => Special::ClusterNCtaRank,
        "%is_explicit_cluster" => Special::IsExplicitCluster,
        "%reserved_smem_offset_begin" => Special::ReservedSmem(0),
        "%reserved_smem_offset_end" => Special::ReservedSmem(1),
        "%reserved_smem_offset_cap" => Special::ReservedSmem(2),
        _ => {
            if let Some(n) = name.strip_prefix("%envreg") {
                return match n.parse::<u8>() {
                    Ok(v) if v < 32 && v.to_string() == n => Some(Special::EnvReg(v)),
                    _ => None,
                };
            }
            match name.strip_prefix("%reserved_smem_offset_")?.parse::<u8>() {
                Ok(n) if u32::from(n) * 8 + 8 <= RESERVED_SMEM_BYTES => Special::ReservedSmem(3 + n),
                _ => return None,
            }
        }
    })
}

struct KCtx<'m> {
    module: &'m Module,
    module_syms: &'m HashMap<String, Sym>,
    /// The module-scope `.shared` variables this kernel uses, at their offsets in its shared
    /// memory: seen by the kernel and by the functions it calls (a `.func` the compiler kept out
    /// of line may name the kernel's `__shared__` array it was specialised for).
    kernel_shared: HashMap<String, Sym>,
    /// The offsets of the kernel body's own static `.shared` variables, laid out before lowering
    /// (ptxas's order, see [`lower`]), by the place `(line, column)` of their declaration.
    placed: HashMap<(u32, u32), u32>,
    ops: Vec<Op>,
    info: Vec<InstInfo>,
    n_rows: u32,
    row_init: Vec<(R, RowInit)>,
    const_rows: HashMap<(u64, bool), R>,
    n_preds: u32,
    shared: Vec<SharedVar>,
    shared_end: u64,
    dyn_align: u32,
    has_dyn: Vec<String>,
    local_end: u64,
    /// The row holding each lane's carry flag (CC.CF), made by the first carry-chain instruction.
    cc_row: Option<R>,
    scopes: Vec<HashMap<String, Sym>>,
    errors: Vec<LowerError>,
    loc: Option<SrcLoc>,
    /// The call sites of `loc` (see [`InstInfo::inlined_at`]).
    inlined: Vec<SrcLoc>,
    /// The call sites of each place a `.loc` named, as that `.loc` said (nested inlining names
    /// the outer call site through the inner one's).
    loc_sites: HashMap<(u32, u32, u32), Vec<SrcLoc>>,
    cur_pos: Pos,
    cur_text: String,
    depth: u32,
    /// The body being lowered ([`InstInfo::body`]) and the number of bodies begun so far.
    body_now: u32,
    bodies: u32,
    /// A `%reserved_smem_offset_*` register is read (the kernel gets `RESERVED_SMEM_BYTES`).
    uses_reserved: bool,
    /// `setmaxnreg` instructions met, `(inc, N)` once each.
    setmaxnreg: Vec<(bool, u32)>,
    /// The local offset of the thread's last device-runtime error, once a call needs it.
    devrt_err: Option<u32>,
    /// The `add`/`sub` being lowered is contracted with a `mul` ([`contract`]).
    contract: Option<contract::Fuse<'m>>,
    /// The functions whose bodies are being lowered, outermost first (a call of one of them is
    /// recursive: [`KCtx::recursive_call`]).
    fstack: Vec<&'m str>,
    /// `.local` variables declared so far.
    local_vars: u32,
    /// The recursive functions' out-of-line bodies, lowered after the kernel's.
    ool: Vec<Ool<'m>>,
    /// The calls of out-of-line bodies: the body, the caller's argument and return slots
    /// (offsets and sizes), completed into [`CallSite`]s when every body is lowered.
    sites: Vec<(usize, Slots, Slots)>,
}

/// `.param` slots of a call: (local offset, bytes) each.
type Slots = Vec<(u32, u32)>;

/// A recursive function's out-of-line body, once lowered.
struct Ool<'m> {
    f: &'m Function,
    site: CallSite,
    /// The body's parameter and return slots (local offsets).
    params: Vec<u32>,
    rets: Vec<u32>,
}

/// Lowering result for one call instance.
struct Instance {
    /// Labels by (enclosing `{ }` block, name): a label is local to its block (inline assembly
    /// repeats its labels in each inlined copy's block).
    labels: HashMap<(u32, String), u32>,
    /// Branches to patch: (pc, label, position, text, the blocks enclosing the branch, innermost last).
    fixups: Vec<(usize, String, Pos, String, Vec<u32>)>,
    ret_fixups: Vec<usize>,
    /// The `{ }` blocks open at the current statement (0: the body), and the next block id.
    blocks: Vec<u32>,
    next_block: u32,
    is_kernel: bool,
}

type LResult<T> = Result<T, ()>;

impl<'m> KCtx<'m> {
    fn err<T>(&mut self, msg: impl Into<String>) -> LResult<T> {
        self.errors.push(LowerError {
            pos: self.cur_pos,
            text: self.cur_text.clone(),
            message: msg.into(),
        });
        Err(())
    }
    /// The two 16-bit halves of the 32-bit `x` (low, high) in new rows, unpacked under `guard`.
    fn halves_of(&mut self, x: R, guard: PSrc) -> LResult<[R; 2]> {
        let (lo, hi) = (self.new_row()?, self.new_row()?);
        self.push(
            Inst::Unpack2 {
                bits: 16,
                d0: lo,
                d1: hi,
                a: x,
            },
            guard,
        );
        Ok([lo, hi])
    }

    fn new_row(&mut self) -> LResult<R> {
        if self.n_rows >= (u16::MAX - 1) as u32 {
            return self.err("too many registers (limit 65534 rows)");
        }
        self.n_rows += 1;
        Ok((self.n_rows - 1) as R)
    }
    fn new_pred(&mut self) -> LResult<P> {
        if self.n_preds >= (u16::MAX - 1) as u32 {
            return self.err("too many predicates");
        }
        self.n_preds += 1;
        Ok((self.n_preds - 1) as P)
    }
    fn const_row(&mut self, v: u64) -> LResult<R> {
        if let Some(&r) = self.const_rows.get(&(v, false)) {
            return Ok(r);
        }
        let r = self.new_row()?;
        self.row_init.push((r, RowInit::Const(v)));
        self.const_rows.insert((v, false), r);
        Ok(r)
    }
    fn special_row(&mut self, s: Special) -> LResult<R> {
        let r = self.new_row()?;
        self.row_init.push((r, RowInit::Special(s)));
        Ok(r)
    }
    fn lookup(&self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(v) = s.get(name) {
                return Some(*v);
            }
        }
        if let Some(v) = self.kernel_shared.get(name) {
            return Some(*v);
        }
        self.module_syms.get(name).copied()
    }
    fn declare(&mut self, name: String, s: Sym) {
        if let Some(top) = self.scopes.last_mut() {
            top.insert(name, s);
        }
    }
    /// Whether `v` is a dynamic shared array (`.extern .shared x[]`): it lives at the dynamic base.
    fn dynamic_shared(v: &VarDecl) -> bool {
        v.dims.first() == Some(&None) || (v.is_extern && v.dims.is_empty())
    }
    fn alloc_shared(&mut self, v: &VarDecl) -> u32 {
        if let Some(&off) = self.placed.get(&(v.pos.line, v.pos.col)) {
            return off;
        }
        let align = if v.align > 0 { v.align as u64 } else { elem_size(v) };
        if Self::dynamic_shared(v) {
            self.dyn_align = self.dyn_align.max(align as u32);
            self.has_dyn.push(v.name.clone());
            self.shared.push(SharedVar {
                name: v.name.clone(),
                offset: 0,
                size: 0,
                align: align as u32,
                dynamic: true,
            });
            return u32::MAX; // patched at the end
        }
        let off = align_up(self.shared_end, align);
        let size = var_size(v);
        self.shared_end = off + size;
        self.shared.push(SharedVar {
            name: v.name.clone(),
            offset: off as u32,
            size: size as u32,
            align: align as u32,
            dynamic: false,
        });
        off as u32
    }
    fn alloc_local(&mut self, size: u64, align: u64) -> u32 {
        let off = align_up(self.local_end, align.max(1));
        self.local_end = off + size;
        off as u32
    }

    // ----- operands -----

    /// The `[object, {c0, ...}]` operand of a texture or surface instruction (`what`: "texture" or
    /// "surface"; messages start with `prefix`): the register holding the object and the first
    /// `dims` coordinates as `cty` sources.
    fn object_coords(
        &mut self,
        op: &Operand,
        prefix: &str,
        what: &str,
        dims: u8,
        cty: Ty,
    ) -> LResult<(R, [R; 3])> {
        let (handle, coords) = match op {
            Operand::List(v) if v.len() == 2 => match (&v[0], &v[1]) {
                (
                    Operand::Addr {
                        base: Some(b),
                        off: 0,
                    },
                    Operand::Vector(c),
                ) => (b.clone(), c.clone()),
                (
                    Operand::Addr {
                        base: Some(b),
                        off: 0,
                    },
                    c @ Operand::Name(_),
                ) => (b.clone(), vec![c.clone()]),
                _ => return self.err(format!("{prefix}: expected `[{what}, {{coordinates}}]`")),
            },
            _ => return self.err(format!("{prefix}: expected `[{what}, {{coordinates}}]`")),
        };
        let obj = match self.lookup(&handle) {
            Some(Sym::Reg(r, _)) => r,
            _ => {
                return self.err(format!(
                    "{prefix}: `{handle}` is not a register holding a {what} object ({what} references are not supported)"
                ));
            }
        };
        if coords.len() < dims as usize {
            return self.err(format!(
                "{prefix}: fewer coordinates than the {what}'s dimensions"
            ));
        }
        let mut c = [NO_REG; 3];
        for k in 0..dims as usize {
            c[k] = self.src(&coords[k], cty)?;
        }
        Ok((obj, c))
    }

    fn src(&mut self, o: &Operand, ty: Ty) -> LResult<R> {
        match o {
            Operand::Name(n) => match self.lookup(n) {
                Some(Sym::Reg(r, _)) => Ok(r),
                Some(Sym::Pred(_)) => self.err(format!("predicate `{n}` used as a value")),
                Some(Sym::Shared(o)) => {
                    if o == u32::MAX {
                        // dynamic shared: patched rows are created later
                        self.dyn_row()
                    } else {
                        self.const_row(o as u64)
                    }
                }
                Some(Sym::Local(o) | Sym::CallParam(o) | Sym::KParam(o)) => self.const_row(o as u64),
                Some(Sym::Global(a) | Sym::Const(a)) => self.const_row(a),
                None => match special(n) {
                    Some(s) => {
                        if matches!(s, Special::ReservedSmem(_)) {
                            self.uses_reserved = true;
                        }
                        self.special_row(s)
                    }
                    None => self.err(format!("unknown name `{n}`")),
                },
            },
            Operand::Int(v) => {
                let v = match ty {
                    Ty::F32 => (*v as i64 as f32).to_bits() as u64,
                    Ty::F64 => (*v as i64 as f64).to_bits(),
                    _ => *v,
                };
                self.const_row(v)
            }
            Operand::F32(b) => {
                let v = if ty == Ty::F64 {
                    (f32::from_bits(*b) as f64).to_bits()
                } else {
                    *b as u64
                };
                self.const_row(v)
            }
            Operand::F64(b) => {
                let v = if ty == Ty::F32 {
                    (f64::from_bits(*b) as f32).to_bits() as u64
                } else {
                    *b
                };
                self.const_row(v)
            }
            Operand::Addr { base: Some(n), off } => {
                // `sym+off` as a value
                let r = self.src(&Operand::Name(n.clone()), ty)?;
                if *off == 0 {
                    return Ok(r);
                }
                match self.row_init.iter().find(|(x, _)| *x == r) {
                    Some((_, RowInit::Const(v))) => {
                        let v = v.wrapping_add(*off as u64);
                        self.const_row(v)
                    }
                    _ => self.err("`name+offset` is only supported for symbols"),
                }
            }
            _ => self.err("unsupported source operand"),
        }
    }
    fn dyn_row(&mut self) -> LResult<R> {
        if let Some(&r) = self.const_rows.get(&(0, true)) {
            return Ok(r);
        }
        let r = self.new_row()?;
        self.row_init.push((r, RowInit::Const(u64::MAX)));
        self.const_rows.insert((0, true), r);
        Ok(r)
    }
    fn dst(&mut self, o: &Operand) -> LResult<R> {
        match o {
            Operand::Name(n) => match self.lookup(n) {
                Some(Sym::Reg(r, _)) => Ok(r),
                _ => self.err(format!("`{n}` is not a writable register")),
            },
            Operand::Sink => self.new_row(),
            _ => self.err("expected a destination register"),
        }
    }
    fn psrc(&mut self, o: &Operand) -> LResult<PSrc> {
        let (n, neg) = match o {
            Operand::Name(n) => (n, false),
            Operand::NotName(n) => (n, true),
            Operand::Int(v) => {
                return Ok(PSrc {
                    idx: PRED_TRUE,
                    neg: *v == 0,
                });
            }
            _ => return self.err("expected a predicate"),
        };
        match self.lookup(n) {
            Some(Sym::Pred(p)) => Ok(PSrc { idx: p, neg }),
            _ => self.err(format!("`{n}` is not a predicate")),
        }
    }
    fn pdst(&mut self, o: &Operand) -> LResult<P> {
        match o {
            Operand::Name(n) => match self.lookup(n) {
                Some(Sym::Pred(p)) => Ok(p),
                _ => self.err(format!("`{n}` is not a predicate")),
            },
            Operand::Sink => self.new_pred(),
            _ => self.err("expected a predicate destination"),
        }
    }
    /// Address operand → (space implied by a symbol base, base row, offset, addr32).
    fn addr(&mut self, o: &Operand) -> LResult<(Option<MemSpace>, R, i32, bool)> {
        let Operand::Addr { base, off } = o else {
            return self.err("expected an address `[...]`");
        };
        let mut off = *off;
        let (space, row, a32) = match base {
            None => (None, self.const_row(0)?, false),
            Some(n) => match self.lookup(n) {
                Some(Sym::Reg(r, t)) => (None, r, t.bytes() <= 4),
                Some(Sym::Shared(o)) => {
                    if o == u32::MAX {
                        (Some(MemSpace::Shared), self.dyn_row()?, false)
                    } else {
                        off += o as i64;
                        (Some(MemSpace::Shared), self.const_row(0)?, false)
                    }
                }
                Some(Sym::Local(o)) => {
                    off += o as i64;
                    (Some(MemSpace::Local), self.const_row(0)?, false)
                }
                Some(Sym::CallParam(o)) => {
                    off += o as i64;
                    (Some(MemSpace::CallParam), self.const_row(0)?, false)
                }
                Some(Sym::KParam(o)) => {
                    off += o as i64;
                    (Some(MemSpace::KernelParam), self.const_row(0)?, false)
                }
                Some(Sym::Global(a)) => (Some(MemSpace::Global), self.const_row(a)?, false),
                Some(Sym::Const(a)) => {
                    off += a as i64;
                    (Some(MemSpace::Const), self.const_row(0)?, false)
                }
                Some(Sym::Pred(_)) => return self.err("predicate used as an address"),
                None => return self.err(format!("unknown name `{n}` in address")),
            },
        };
        let Ok(off) = i32::try_from(off) else {
            return self.err("address offset out of range");
        };
        Ok((space, row, off, a32))
    }

    fn push(&mut self, inst: Inst, guard: PSrc) {
        self.ops.push(Op { inst, guard });
        self.info.push(InstInfo {
            ptx_line: self.cur_pos.line,
            text: self.cur_text.clone(),
            loc: self.loc,
            inlined_at: self.inlined.clone(),
            body: self.body_now,
        });
    }

    fn body(&mut self, f: &'m Function, bind: HashMap<String, Sym>, is_kernel: bool) {
        let Some(body) = &f.body else {
            self.cur_pos = f.pos;
            self.cur_text = f.name.clone();
            let _ = self.err::<()>(format!("function `{}` has no body", f.name));
            return;
        };
        self.scopes.push(bind);
        let mut inst = Instance {
            labels: HashMap::new(),
            fixups: Vec::new(),
            ret_fixups: Vec::new(),
            blocks: vec![0],
            next_block: 1,
            is_kernel,
        };
        let saved_scopes = self.scopes.len();
        // a `-G` build's ptxas contracts nothing (calibration/mathlib: jnf equal at -G as written)
        let fuse = if self.module.debug {
            HashMap::new()
        } else {
            contract::plan(body)
        };
        for (k, s) in body.iter().enumerate() {
            match s {
                Stmt::Reg(d) => {
                    self.cur_pos = d.pos;
                    self.cur_text = format!(".reg .{}", d.ty);
                    let Some(ty) = Ty::parse(&d.ty) else {
                        let _ = self.err::<()>(format!("unknown register type `.{}`", d.ty));
                        continue;
                    };
                    if d.vec != 1 {
                        let _ = self.err::<()>("vector registers are not supported");
                        continue;
                    }
                    for (name, count) in &d.names {
                        let names: Vec<String> = match count {
                            Some(c) => (0..*c).map(|i| format!("{name}{i}")).collect(),
                            None => vec![name.clone()],
                        };
                        for n in names {
                            let sym = if ty == Ty::Pred {
                                match self.new_pred() {
                                    Ok(p) => Sym::Pred(p),
                                    Err(()) => return,
                                }
                            } else {
                                match self.new_row() {
                                    Ok(r) => Sym::Reg(r, ty),
                                    Err(()) => return,
                                }
                            };
                            self.declare(n, sym);
                        }
                    }
                }
                Stmt::Var(v) => {
                    self.cur_pos = v.pos;
                    self.cur_text = v.name.clone();
                    let sym = match v.space {
                        StateSpace::Shared => Sym::Shared(self.alloc_shared(v)),
                        StateSpace::Local => {
                            self.local_vars += 1;
                            let a = if v.align > 0 { v.align as u64 } else { elem_size(v) };
                            Sym::Local(self.alloc_local(var_size(v), a))
                        }
                        StateSpace::Param => {
                            let a = if v.align > 0 { v.align as u64 } else { elem_size(v) };
                            Sym::CallParam(self.alloc_local(var_size(v), a))
                        }
                        _ => {
                            let _ =
                                self.err::<()>("function-scope .global/.const variables are not supported");
                            continue;
                        }
                    };
                    self.declare(v.name.clone(), sym);
                }
                Stmt::Label(n, _) => {
                    let b = inst.blocks.last().copied().unwrap_or(0);
                    inst.labels.insert((b, n.clone()), self.ops.len() as u32);
                }
                Stmt::Loc {
                    file,
                    line,
                    col,
                    inlined_at,
                } => {
                    self.loc = Some(SrcLoc {
                        file: *file,
                        line: *line,
                        col: *col,
                    });
                    self.inlined = match *inlined_at {
                        None => Vec::new(),
                        Some((f, l, c)) => {
                            let mut chain = vec![SrcLoc {
                                file: f,
                                line: l,
                                col: c,
                            }];
                            if let Some(outer) = self.loc_sites.get(&(f, l, c)) {
                                chain.extend(outer.iter().copied());
                            }
                            chain.truncate(MAX_INLINE_DEPTH);
                            chain
                        }
                    };
                    self.loc_sites.insert((*file, *line, *col), self.inlined.clone());
                }
                Stmt::Open => {
                    self.scopes.push(HashMap::new());
                    inst.blocks.push(inst.next_block);
                    inst.next_block += 1;
                }
                Stmt::Close => {
                    if inst.blocks.len() > 1 {
                        inst.blocks.pop();
                    }
                    if self.scopes.len() > saved_scopes {
                        self.scopes.pop();
                    }
                }
                Stmt::Inst(i) => {
                    self.cur_pos = i.pos;
                    self.cur_text = i.text.clone();
                    self.contract = fuse.get(&k).copied();
                    let _ = self.inst(i, &mut inst);
                    self.contract = None;
                }
            }
        }
        while self.scopes.len() >= saved_scopes {
            self.scopes.pop();
        }
        let end = self.ops.len() as u32;
        for (at, label, pos, text, path) in inst.fixups {
            let found = path
                .iter()
                .rev()
                .find_map(|b| inst.labels.get(&(*b, label.clone())));
            match found {
                Some(&pc) => {
                    if let Inst::Bra { target, .. } = &mut self.ops[at].inst {
                        *target = pc;
                    }
                }
                None => self.errors.push(LowerError {
                    pos,
                    text,
                    message: format!("unknown label `{label}`"),
                }),
            }
        }
        for at in inst.ret_fixups {
            if let Inst::Bra { target, .. } = &mut self.ops[at].inst {
                *target = end;
            }
        }
    }

    /// `atom.add.noftz.{f16x2,bf16x2} d, [a], b` (and `min`/`max`, and `red`): one 16-bit atomic
    /// per half, the low half (at the address) first, then the high one (2 bytes on); `d` packs
    /// the two old halves. Each half is atomic, as the PTX ISA guarantees (it does not make the
    /// pair one access).
    fn packed_half_atom(
        &mut self,
        i: &'m Instruction,
        base: &str,
        mods: &[&str],
        half: Ty,
        guard: PSrc,
    ) -> LResult<()> {
        let ops = &i.operands;
        let op = if mods.contains(&"add") {
            AtomOp::Add
        } else if mods.contains(&"min") {
            AtomOp::Min
        } else if mods.contains(&"max") {
            AtomOp::Max
        } else {
            return self.err(format!("unsupported instruction `{}` (packed half)", i.opcode));
        };
        let is_red = base == "red";
        let k = usize::from(!is_red);
        if ops.len() != k + 2 {
            return self.err(format!(
                "`{}` takes {} operands, got {}",
                i.opcode,
                k + 2,
                ops.len()
            ));
        }
        let (sym_space, addr, off, a32) = self.addr(&ops[k])?;
        let mut space = mods
            .iter()
            .find_map(|m| match m.split("::").next().unwrap_or("") {
                "shared" => Some(MemSpace::Shared),
                "global" => Some(MemSpace::Global),
                "local" | "const" | "param" => Some(MemSpace::Local),
                _ => None,
            })
            .unwrap_or(MemSpace::Generic);
        if space == MemSpace::Generic
            && let Some(s) = sym_space
        {
            space = s;
        }
        if !matches!(space, MemSpace::Shared | MemSpace::Global | MemSpace::Generic) {
            return self.err("atomics are supported on shared and global memory only");
        }
        let x = self.src(&ops[k + 1], Ty::U32)?;
        let [lo, hi] = self.halves_of(x, guard)?;
        let mut olds = [NO_REG; 2];
        for (e, b) in [lo, hi].into_iter().enumerate() {
            let d = if is_red { NO_REG } else { self.new_row()? };
            olds[e] = d;
            let Some(off) = off.checked_add(2 * e as i32) else {
                return self.err("address offset out of range");
            };
            self.push(
                Inst::Atom {
                    space,
                    op,
                    ty: half,
                    addr32: a32,
                    d,
                    addr,
                    off,
                    b,
                    c: NO_REG,
                },
                guard,
            );
        }
        if !is_red {
            let d = self.dst(&ops[0])?;
            self.push(
                Inst::Pack2 {
                    bits: 16,
                    d,
                    a: olds[0],
                    b: olds[1],
                },
                guard,
            );
        }
        Ok(())
    }

    /// The fp8 conversions (sm_89+): `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b` (`a` to
    /// the upper byte of the 16-bit `d`, `b` to the lower), `cvt.rn.satfinite{.relu}.{e4m3x2,
    /// e5m2x2}.f16x2 d, a` (each half of `a`, exactly widened to `.f32` first: one rounding) and
    /// `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a` (each byte of `a` to its half of `d`, exact; a NaN
    /// to `0x7fff`). `.relu` takes a negative value and -0 to +0 (a NaN stays a NaN), before the
    /// rounding to fp8 (calibration/fp8: every input class against an H200).
    fn cvt_fp8(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let fmt = |m: &str| match m {
            "e4m3x2" => Some(false),
            "e5m2x2" => Some(true),
            _ => None,
        };
        let types: Vec<&str> = mods
            .iter()
            .copied()
            .filter(|m| matches!(*m, "e4m3x2" | "e5m2x2" | "f16x2" | "f32"))
            .collect();
        let bad = |s: &mut Self, why: &str| s.err(format!("unsupported instruction `{}` ({why})", i.opcode));
        if !mods.contains(&"rn") {
            return bad(self, "fp8 conversions round to nearest: `.rn`");
        }
        let relu = mods.contains(&"relu");
        match types.as_slice() {
            [to, from] if fmt(to).is_some() && matches!(*from, "f32" | "f16x2") => {
                if !mods.contains(&"satfinite") {
                    return bad(self, "a conversion to fp8 needs `.satfinite`");
                }
                let op = if fmt(to) == Some(true) {
                    UnOp::F32ToE5m2
                } else {
                    UnOp::F32ToE4m3
                };
                let want = if *from == "f32" { 3 } else { 2 };
                if ops.len() != want {
                    return self.err(format!("`{}` takes {want} operands, got {}", i.opcode, ops.len()));
                }
                let d = self.dst(&ops[0])?;
                // the two values, upper byte's first
                let vals: [R; 2] = if *from == "f32" {
                    [self.src(&ops[1], Ty::F32)?, self.src(&ops[2], Ty::F32)?]
                } else {
                    let x = self.src(&ops[1], Ty::U32)?;
                    let [lo, hi] = self.halves_of(x, guard)?;
                    let mut w = [0 as R; 2];
                    for (k, h) in [hi, lo].into_iter().enumerate() {
                        w[k] = self.new_row()?;
                        self.push(
                            Inst::Cvt {
                                dty: Ty::F32,
                                sty: Ty::F16,
                                rnd: Rnd::Rn,
                                sat: false,
                                d: w[k],
                                a: h,
                            },
                            guard,
                        );
                    }
                    w
                };
                let mut bytes = [0 as R; 2];
                for (k, v) in vals.into_iter().enumerate() {
                    let mut v = v;
                    if relu {
                        // max(v, +0) keeps a NaN (PTX `max` returns the other operand; here the
                        // NaN must survive) and takes -0 to +0 (the H200's `F2FP.RELU`), so:
                        // v <= 0 ? +0 : v
                        let (z, p, r) = (self.const_row(0)?, self.new_pred()?, self.new_row()?);
                        self.push(
                            Inst::Setp {
                                cmp: Cmp::Le,
                                ty: Ty::F32,
                                p,
                                q: PRED_TRUE,
                                a: v,
                                b: z,
                                bop: None,
                                c: PSrc::TRUE,
                            },
                            guard,
                        );
                        self.push(
                            Inst::Selp {
                                ty: Ty::U32,
                                d: r,
                                a: z,
                                b: v,
                                p: PSrc { idx: p, neg: false },
                            },
                            guard,
                        );
                        v = r;
                    }
                    bytes[k] = self.new_row()?;
                    self.push(
                        Inst::Un {
                            op,
                            ty: Ty::U32,
                            d: bytes[k],
                            a: v,
                        },
                        guard,
                    );
                }
                self.push(
                    Inst::Pack2 {
                        bits: 8,
                        d,
                        a: bytes[1],
                        b: bytes[0],
                    },
                    guard,
                );
                Ok(())
            }
            ["f16x2", from] if fmt(from).is_some() => {
                if mods.contains(&"satfinite") {
                    return bad(self, "`.satfinite` from fp8");
                }
                if ops.len() != 2 {
                    return self.err(format!("`{}` takes 2 operands, got {}", i.opcode, ops.len()));
                }
                let op = if fmt(from) == Some(true) {
                    UnOp::E5m2ToF16
                } else {
                    UnOp::E4m3ToF16
                };
                let d = self.dst(&ops[0])?;
                let x = self.src(&ops[1], Ty::U16)?;
                let (lo, hi) = (self.new_row()?, self.new_row()?);
                self.push(
                    Inst::Unpack2 {
                        bits: 8,
                        d0: lo,
                        d1: hi,
                        a: x,
                    },
                    guard,
                );
                let (hl, hh) = (self.new_row()?, self.new_row()?);
                self.push(
                    Inst::Un {
                        op,
                        ty: Ty::U32,
                        d: hl,
                        a: lo,
                    },
                    guard,
                );
                self.push(
                    Inst::Un {
                        op,
                        ty: Ty::U32,
                        d: hh,
                        a: hi,
                    },
                    guard,
                );
                let (mut hl, mut hh) = (hl, hh);
                if relu {
                    // a NaN is 0x7fff already: every half with the sign bit set is negative
                    // (or -0) and becomes +0
                    let (z, sign) = (self.const_row(0)?, self.const_row(0x8000)?);
                    for h in [&mut hl, &mut hh] {
                        let (p, r) = (self.new_pred()?, self.new_row()?);
                        self.push(
                            Inst::Setp {
                                cmp: Cmp::Ge,
                                ty: Ty::U32,
                                p,
                                q: PRED_TRUE,
                                a: *h,
                                b: sign,
                                bop: None,
                                c: PSrc::TRUE,
                            },
                            guard,
                        );
                        self.push(
                            Inst::Selp {
                                ty: Ty::U32,
                                d: r,
                                a: z,
                                b: *h,
                                p: PSrc { idx: p, neg: false },
                            },
                            guard,
                        );
                        *h = r;
                    }
                }
                self.push(
                    Inst::Pack2 {
                        bits: 16,
                        d,
                        a: hl,
                        b: hh,
                    },
                    guard,
                );
                Ok(())
            }
            _ => bad(self, "fp8 conversion types"),
        }
    }

    /// `.f16x2` / `.bf16x2` arithmetic: the two halves of each 32-bit operand (the low half first)
    /// are unpacked, operated on as scalar `.f16` / `.bf16` and packed again, so the emulator needs
    /// no packed forms. `cvt.frnd.{f16x2,bf16x2}.f32 d, a, b` puts `a` in the upper half.
    fn packed_half(
        &mut self,
        i: &'m Instruction,
        base: &str,
        mods: &[&str],
        half: Ty,
        guard: PSrc,
    ) -> LResult<()> {
        let ops = &i.operands;
        let unsupported =
            |s: &mut Self| s.err(format!("unsupported instruction `{}` (packed half)", i.opcode));
        if matches!(base, "atom" | "red") {
            return self.packed_half_atom(i, base, mods, half, guard);
        }
        let arity = match base {
            "neg" | "abs" => 2,
            "add" | "sub" | "mul" | "min" | "max" | "set" | "setp" => 3,
            "fma" => 4,
            "cvt" => 3,
            _ => return unsupported(self),
        };
        if ops.len() != arity {
            return self.err(format!(
                "`{}` takes {arity} operands, got {}",
                i.opcode,
                ops.len()
            ));
        }
        let has = |m: &str| mods.contains(&m);
        if has("relu")
            || has("NaN")
            || has("xorsign")
            || has("oob")
            || (has("sat") && base != "add" && base != "sub")
        {
            return unsupported(self);
        }
        if base == "cvt" {
            // cvt.frnd{.satfinite}.f16x2.f32 d, a, b
            if !mods.contains(&"f32") || has("satfinite") {
                return unsupported(self);
            }
            let rnd = match mods.iter().find(|m| matches!(**m, "rn" | "rz" | "rm" | "rp")) {
                Some(&"rz") => Rnd::Rz,
                Some(&"rm") => Rnd::Rm,
                Some(&"rp") => Rnd::Rp,
                _ => Rnd::Rn,
            };
            let d = self.dst(&ops[0])?;
            let a = self.src(&ops[1], Ty::F32)?;
            let b = self.src(&ops[2], Ty::F32)?;
            let (hi, lo) = (self.new_row()?, self.new_row()?);
            for (out, x) in [(hi, a), (lo, b)] {
                self.push(
                    Inst::Cvt {
                        dty: half,
                        sty: Ty::F32,
                        rnd,
                        sat: false,
                        d: out,
                        a: x,
                    },
                    guard,
                );
            }
            self.push(
                Inst::Pack2 {
                    bits: 16,
                    d,
                    a: lo,
                    b: hi,
                },
                guard,
            );
            return Ok(());
        }
        if base == "set" || base == "setp" {
            return self.packed_half_compare(i, base, mods, half, guard);
        }
        let d = self.dst(&ops[0])?;
        let mut halves = Vec::new();
        for o in &ops[1..] {
            let x = self.src(o, Ty::U32)?;
            let [lo, hi] = self.halves_of(x, guard)?;
            halves.push([lo, hi]);
        }
        let mut out = [0 as R; 2];
        for (k, r) in out.iter_mut().enumerate() {
            *r = self.new_row()?;
            let x = |j: usize| halves[j][k];
            let inst = match base {
                "neg" | "abs" => Inst::Un {
                    op: if base == "neg" { UnOp::Neg } else { UnOp::Abs },
                    ty: half,
                    d: *r,
                    a: x(0),
                },
                "fma" => Inst::Tern {
                    op: TernOp::Fma,
                    ty: half,
                    d: *r,
                    a: x(0),
                    b: x(1),
                    c: x(2),
                },
                _ => Inst::Bin {
                    op: match (base, has("sat")) {
                        ("add", false) => BinOp::Add,
                        ("add", true) => BinOp::AddSat,
                        ("sub", false) => BinOp::Sub,
                        ("sub", true) => BinOp::SubSat,
                        ("mul", _) => BinOp::MulLo,
                        ("min", _) => BinOp::Min,
                        _ => BinOp::Max,
                    },
                    ty: half,
                    d: *r,
                    a: x(0),
                    b: x(1),
                },
            };
            self.push(inst, guard);
        }
        self.push(
            Inst::Pack2 {
                bits: 16,
                d,
                a: out[0],
                b: out[1],
            },
            guard,
        );
        Ok(())
    }

    /// `set.cmp.dty.{f16x2,bf16x2} d, a, b` (each half of `d` is 1.0 of `dty`'s half type, or
    /// `0xffff` for an integer `dty`, where its halves compare true; 0 elsewhere; the CUDA math
    /// library's `h2exp`, `h2log`, `h2rcp` fix up special inputs with it) and
    /// `setp.cmp.{f16x2,bf16x2} p|q, a, b` (`p` the low halves' result, `q` the high halves').
    fn packed_half_compare(
        &mut self,
        i: &'m Instruction,
        base: &str,
        mods: &[&str],
        half: Ty,
        guard: PSrc,
    ) -> LResult<()> {
        let ops = &i.operands;
        let Some(cmp) = mods.first().and_then(|m| parse_cmp(m)) else {
            return self.err(format!("unknown comparison in `{}`", i.opcode));
        };
        if mods.iter().any(|m| matches!(*m, "and" | "or" | "xor")) {
            return self.err(format!(
                "unsupported instruction `{}` (packed half with a boolean operation)",
                i.opcode
            ));
        }
        let tys: Vec<&str> = mods
            .iter()
            .copied()
            .filter(|m| Ty::parse(m).is_some() || matches!(*m, "f16x2" | "bf16x2"))
            .collect();
        let mut halves = Vec::new();
        for o in &ops[1..] {
            let x = self.src(o, Ty::U32)?;
            let [lo, hi] = self.halves_of(x, guard)?;
            halves.push([lo, hi]);
        }
        if base == "setp" {
            let (p, q) = match &ops[0] {
                Operand::Pair(a, b) => (
                    self.pdst(&Operand::Name(a.clone()))?,
                    self.pdst(&Operand::Name(b.clone()))?,
                ),
                o => (self.pdst(o)?, PRED_TRUE),
            };
            for (k, pd) in [p, q].into_iter().enumerate() {
                if pd == PRED_TRUE {
                    continue;
                }
                self.push(
                    Inst::Setp {
                        cmp,
                        ty: half,
                        p: pd,
                        q: PRED_TRUE,
                        a: halves[0][k],
                        b: halves[1][k],
                        bop: None,
                        c: PSrc::TRUE,
                    },
                    guard,
                );
            }
            return Ok(());
        }
        // set: the destination type is the first type suffix (`f16x2`, `bf16x2`, `u32`, `s32`)
        let dty = match tys.first().copied() {
            Some("f16x2") => Ty::F16,
            Some("bf16x2") => Ty::BF16,
            Some(t) if tys.len() == 2 => match Ty::parse(t) {
                Some(Ty::U32 | Ty::S32) => Ty::U32,
                _ => {
                    return self.err(format!(
                        "unsupported instruction `{}` (packed half compare into `.{t}`)",
                        i.opcode
                    ));
                }
            },
            _ => return self.err(format!("`{}` needs two types", i.opcode)),
        };
        let d = self.dst(&ops[0])?;
        let mut out = [0 as R; 2];
        for (k, r) in out.iter_mut().enumerate() {
            *r = self.new_row()?;
            self.push(
                Inst::Set {
                    cmp,
                    dty,
                    sty: half,
                    d: *r,
                    a: halves[0][k],
                    b: halves[1][k],
                },
                guard,
            );
        }
        self.push(
            Inst::Pack2 {
                bits: 16,
                d,
                a: out[0],
                b: out[1],
            },
            guard,
        );
        Ok(())
    }

    fn inst(&mut self, i: &'m Instruction, ctx: &mut Instance) -> LResult<()> {
        let guard = match &i.pred {
            None => PSrc::TRUE,
            Some((neg, n)) => match self.lookup(n) {
                Some(Sym::Pred(p)) => PSrc { idx: p, neg: *neg },
                _ => return self.err(format!("guard `{n}` is not a predicate")),
            },
        };
        let parts: Vec<&str> = i.opcode.split('.').collect();
        let base = parts[0];
        let mods = &parts[1..];
        let has = |m: &str| mods.contains(&m);
        let tys: Vec<Ty> = mods.iter().filter_map(|m| Ty::parse(m)).collect();
        let ty = tys.last().copied();
        let ops = &i.operands;
        let n = ops.len();
        let need = |s: &mut Self, k: usize| -> LResult<()> {
            if n < k {
                s.err(format!("`{}` needs {k} operands, got {n}", i.opcode))
            } else {
                Ok(())
            }
        };
        let need_ty = |s: &mut Self| -> LResult<Ty> {
            match ty {
                Some(t) => Ok(t),
                None => s.err(format!("`{}` has no type suffix", i.opcode)),
            }
        };
        let space_of = |mods: &[&str]| -> Option<MemSpace> {
            for m in mods {
                let m = m.split("::").next().unwrap_or("");
                match m {
                    "shared" => return Some(MemSpace::Shared),
                    "global" => return Some(MemSpace::Global),
                    "local" => return Some(MemSpace::Local),
                    "const" => return Some(MemSpace::Const),
                    "param" => return Some(MemSpace::KernelParam),
                    _ => {}
                }
            }
            None
        };
        if base == "cvt" && mods.iter().any(|m| matches!(*m, "e4m3x2" | "e5m2x2")) {
            return self.cvt_fp8(i, mods, guard);
        }
        if let Some(half) = mods.iter().find_map(|m| match *m {
            "f16x2" => Some(Ty::F16),
            "bf16x2" => Some(Ty::BF16),
            _ => None,
        }) {
            return self.packed_half(i, base, mods, half, guard);
        }
        match base {
            "add" | "sub" | "mad" | "addc" | "subc" | "madc" if has("cc") || base.ends_with('c') => {
                need(self, if base.starts_with("mad") { 4 } else { 3 })?;
                let t = need_ty(self)?;
                if !matches!(t, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64) {
                    return self.err(format!(
                        "`{}`: the carry chain takes 32- or 64-bit integers",
                        i.opcode
                    ));
                }
                let op = match base {
                    "add" | "addc" => CarryOp::Add,
                    "sub" | "subc" => CarryOp::Sub,
                    _ if has("hi") => CarryOp::MadHi,
                    _ if has("lo") => CarryOp::MadLo,
                    _ => return self.err(format!("`{}` needs `.lo` or `.hi`", i.opcode)),
                };
                let cc = match self.cc_row {
                    Some(r) => r,
                    None => {
                        let r = self.new_row()?;
                        self.cc_row = Some(r);
                        r
                    }
                };
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let b = self.src(&ops[2], t)?;
                let c = if base.starts_with("mad") {
                    self.src(&ops[3], t)?
                } else {
                    a
                };
                self.push(
                    Inst::Carry {
                        op,
                        ty: t,
                        cin: base.ends_with('c'),
                        cout: has("cc"),
                        d,
                        a,
                        b,
                        c,
                        cc,
                    },
                    guard,
                );
            }
            "mov" => {
                need(self, 2)?;
                let t = need_ty(self)?;
                if t == Ty::Pred {
                    let d = self.pdst(&ops[0])?;
                    // a predicate special register (`%is_explicit_cluster`)
                    if let Operand::Name(n) = &ops[1]
                        && self.lookup(n).is_none()
                        && special(n).is_some()
                    {
                        let a = self.src(&ops[1], Ty::U32)?;
                        self.push(Inst::RegToPred { d, a }, guard);
                        return Ok(());
                    }
                    let a = self.psrc(&ops[1])?;
                    self.push(
                        Inst::PredOp {
                            op: BoolOp::And,
                            d,
                            a,
                            b: PSrc::TRUE,
                        },
                        guard,
                    );
                    return Ok(());
                }
                match (&ops[0], &ops[1]) {
                    (Operand::Vector(v), a) => {
                        if v.len() != 2 {
                            return self.err("only 2-element unpacking is supported");
                        }
                        let bits = (t.bytes() * 4) as u8;
                        let d0 = self.dst(&v[0])?;
                        let d1 = self.dst(&v[1])?;
                        let a = self.src(a, t)?;
                        self.push(Inst::Unpack2 { bits, d0, d1, a }, guard);
                    }
                    (d, Operand::Vector(v)) => {
                        if v.len() != 2 {
                            return self.err("only 2-element packing is supported");
                        }
                        let bits = (t.bytes() * 4) as u8;
                        let d = self.dst(d)?;
                        let a = self.src(&v[0], t)?;
                        let b = self.src(&v[1], t)?;
                        self.push(Inst::Pack2 { bits, d, a, b }, guard);
                    }
                    (d, Operand::Name(s)) if matches!(s.as_str(), "%clock" | "%clock64" | "%globaltimer") => {
                        let d = self.dst(d)?;
                        self.push(Inst::Clock { d }, guard);
                    }
                    (d, a) => {
                        let d = self.dst(d)?;
                        let a = self.src(a, t)?;
                        self.push(
                            Inst::Un {
                                op: UnOp::Mov,
                                ty: t,
                                d,
                                a,
                            },
                            guard,
                        );
                    }
                }
            }
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl" | "shr"
            | "copysign" | "mul24" | "bmsk" => {
                need(self, 3)?;
                let t = need_ty(self)?;
                if t == Ty::Pred {
                    let op = match base {
                        "and" => BoolOp::And,
                        "or" => BoolOp::Or,
                        "xor" => BoolOp::Xor,
                        _ => return self.err(format!("`{}` is not a predicate op", i.opcode)),
                    };
                    let d = self.pdst(&ops[0])?;
                    let a = self.psrc(&ops[1])?;
                    let b = self.psrc(&ops[2])?;
                    self.push(Inst::PredOp { op, d, a, b }, guard);
                    return Ok(());
                }
                let op = match base {
                    "add" if has("sat") => BinOp::AddSat,
                    "add" => BinOp::Add,
                    "sub" if has("sat") => BinOp::SubSat,
                    "sub" => BinOp::Sub,
                    "mul" if has("hi") => BinOp::MulHi,
                    "mul" if has("wide") => BinOp::MulWide,
                    "mul" => BinOp::MulLo,
                    "mul24" if has("lo") => BinOp::Mul24Lo,
                    "div" if t == Ty::F32 && has("full") && has("ftz") => BinOp::DivFullFtz,
                    "div" if t == Ty::F32 && has("full") => BinOp::DivFull,
                    "div" if t == Ty::F32 && has("approx") && has("ftz") => BinOp::DivApproxFtz,
                    "div" if t == Ty::F32 && has("approx") => BinOp::DivApprox,
                    "div" => BinOp::Div,
                    "rem" => BinOp::Rem,
                    "min" => BinOp::Min,
                    "max" => BinOp::Max,
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    "xor" => BinOp::Xor,
                    "shl" => BinOp::Shl,
                    "shr" => BinOp::Shr,
                    "copysign" => BinOp::CopySign,
                    "bmsk" if t == Ty::U32 && has("clamp") => BinOp::BmskClamp,
                    "bmsk" if t == Ty::U32 && has("wrap") => BinOp::BmskWrap,
                    _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
                };
                if matches!(t, Ty::F16 | Ty::BF16)
                    && !matches!(
                        op,
                        BinOp::Add
                            | BinOp::Sub
                            | BinOp::AddSat
                            | BinOp::SubSat
                            | BinOp::MulLo
                            | BinOp::Min
                            | BinOp::Max
                    )
                {
                    return self.err(format!("unsupported instruction `{}` (half precision)", i.opcode));
                }
                let op = match (op, has("sat") && t.float()) {
                    (BinOp::Add, true) => BinOp::AddSat,
                    (BinOp::Sub, true) => BinOp::SubSat,
                    (BinOp::MulLo, true) => BinOp::MulSat,
                    (BinOp::Min, _) if has("NaN") && t.float() => BinOp::MinNaN,
                    (BinOp::Max, _) if has("NaN") && t.float() => BinOp::MaxNaN,
                    (o, _) => o,
                };
                // `.ftz` matters on `.f32` alone (PTX ISA: `.f64` never flushes)
                let ftz = t == Ty::F32 && has("ftz");
                let d = self.dst(&ops[0])?;
                let bt = if matches!(op, BinOp::Shl | BinOp::Shr) {
                    Ty::U32
                } else {
                    t
                };
                let a = self.src(&ops[1], t)?;
                let b = self.src(&ops[2], bt)?;
                if let Some(rnd) = directed(mods).filter(|_| matches!(t, Ty::F32 | Ty::F64)) {
                    let op = match op {
                        BinOp::Add => FRoundOp::Add,
                        BinOp::Sub => FRoundOp::Sub,
                        BinOp::MulLo => FRoundOp::Mul,
                        BinOp::Div => FRoundOp::Div,
                        _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
                    };
                    let (ty, c) = (t, a);
                    self.push(
                        Inst::FRound {
                            op,
                            ty,
                            rnd,
                            d,
                            a,
                            b,
                            c,
                        },
                        guard,
                    );
                    return Ok(());
                }
                // ptxas contracts this add/sub with the mul that made one of its operands
                if let (Some(f), BinOp::Add, Ty::F32) = (self.contract, op, t)
                    && f.div
                {
                    let (x, y) = (self.src(f.a, t)?, self.src(f.b, t)?);
                    let c = if f.second { a } else { b };
                    self.push(
                        Inst::Tern {
                            op: TernOp::DivFullAdd,
                            ty: t,
                            d,
                            a: x,
                            b: y,
                            c,
                        },
                        guard,
                    );
                    return Ok(());
                }
                if let (Some(f), BinOp::Add | BinOp::Sub, Ty::F32 | Ty::F64) = (self.contract, op, t) {
                    let (x, y) = (self.src(f.a, t)?, self.src(f.b, t)?);
                    let (op, c) = match (op, f.second) {
                        (BinOp::Add, false) => (TernOp::Fma, b),
                        (BinOp::Add, true) => (TernOp::Fma, a),
                        (_, false) => (TernOp::FmaSubC, b),
                        (_, true) => (TernOp::FmaNegAB, a),
                    };
                    let (a, b) = (x, y);
                    let op = if ftz { op.with_ftz() } else { op };
                    self.push(
                        Inst::Tern {
                            op,
                            ty: t,
                            d,
                            a,
                            b,
                            c,
                        },
                        guard,
                    );
                    return Ok(());
                }
                let op = if ftz { op.with_ftz() } else { op };
                self.push(Inst::Bin { op, ty: t, d, a, b }, guard);
            }
            "neg" | "abs" | "not" | "cnot" | "popc" | "clz" | "brev" | "rcp" | "sqrt" | "rsqrt" | "ex2"
            | "lg2" | "sin" | "cos" | "tanh" | "bfind" => {
                need(self, 2)?;
                let t = need_ty(self)?;
                if t == Ty::Pred {
                    if base != "not" {
                        return self.err(format!("`{}` is not a predicate op", i.opcode));
                    }
                    let d = self.pdst(&ops[0])?;
                    let a = self.psrc(&ops[1])?;
                    let a = PSrc { neg: !a.neg, ..a };
                    self.push(
                        Inst::PredOp {
                            op: BoolOp::And,
                            d,
                            a,
                            b: PSrc::TRUE,
                        },
                        guard,
                    );
                    return Ok(());
                }
                if matches!(t, Ty::F16 | Ty::BF16) && !matches!(base, "neg" | "abs" | "tanh" | "ex2") {
                    return self.err(format!("unsupported instruction `{}` (half precision)", i.opcode));
                }
                let op = match base {
                    "neg" if t == Ty::F32 && has("ftz") => UnOp::NegFtz,
                    "abs" if t == Ty::F32 && has("ftz") => UnOp::AbsFtz,
                    "neg" => UnOp::Neg,
                    "abs" => UnOp::Abs,
                    "not" => UnOp::Not,
                    "cnot" => UnOp::Cnot,
                    "popc" => UnOp::Popc,
                    "clz" => UnOp::Clz,
                    "brev" => UnOp::Brev,
                    "rcp" if t == Ty::F64 && has("approx") => UnOp::RcpSeed64,
                    "rcp" if t == Ty::F32 && has("approx") && has("ftz") => UnOp::RcpApproxFtz,
                    "rcp" if t == Ty::F32 && has("approx") => UnOp::RcpApprox,
                    "rcp" => UnOp::Rcp,
                    "sqrt" if t == Ty::F32 && has("approx") && has("ftz") => UnOp::SqrtApproxFtz,
                    "sqrt" if t == Ty::F32 && has("approx") => UnOp::SqrtApprox,
                    "sqrt" => UnOp::Sqrt,
                    "rsqrt" if t == Ty::F64 && has("ftz") => UnOp::RsqrtSeed64,
                    "rsqrt" if t == Ty::F32 && has("ftz") => UnOp::RsqrtFtz,
                    "rsqrt" => UnOp::Rsqrt,
                    "ex2" if t == Ty::F32 && has("ftz") => UnOp::Ex2Ftz,
                    "ex2" => UnOp::Ex2,
                    "lg2" if t == Ty::F32 && has("ftz") => UnOp::Lg2Ftz,
                    "lg2" => UnOp::Lg2,
                    "sin" => UnOp::Sin,
                    "cos" => UnOp::Cos,
                    "tanh" => UnOp::Tanh,
                    _ if i.opcode.split('.').any(|m| m == "shiftamt") => UnOp::BfindShift,
                    _ => UnOp::Bfind,
                };
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                if let Some(rnd) = directed(mods).filter(|_| matches!(t, Ty::F32 | Ty::F64)) {
                    let op = match op {
                        UnOp::Rcp => FRoundOp::Rcp,
                        UnOp::Sqrt => FRoundOp::Sqrt,
                        _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
                    };
                    let (ty, b, c) = (t, a, a);
                    self.push(
                        Inst::FRound {
                            op,
                            ty,
                            rnd,
                            d,
                            a,
                            b,
                            c,
                        },
                        guard,
                    );
                    return Ok(());
                }
                self.push(Inst::Un { op, ty: t, d, a }, guard);
            }
            "mad" | "fma" | "bfe" | "sad" | "prmt" | "slct" | "mad24" => {
                need(self, 4)?;
                let t = if base == "slct" {
                    match tys.first() {
                        Some(t) => *t,
                        None => return self.err("`slct` needs types"),
                    }
                } else {
                    need_ty(self)?
                };
                if matches!(t, Ty::F16 | Ty::BF16) && !matches!(base, "fma" | "mad") {
                    return self.err(format!("unsupported instruction `{}` (half precision)", i.opcode));
                }
                let op = match base {
                    "mad" | "fma" if t.float() && has("sat") => TernOp::FmaSat,
                    "fma" if matches!(t, Ty::F16 | Ty::BF16) && has("relu") => TernOp::FmaRelu,
                    "mad" if t.float() => TernOp::Fma,
                    "mad" if has("hi") => TernOp::MadHi,
                    "mad" if has("wide") => TernOp::MadWide,
                    "mad" => TernOp::MadLo,
                    "fma" => TernOp::Fma,
                    "bfe" => TernOp::Bfe,
                    "sad" => TernOp::Sad,
                    "prmt" => match mods.iter().find(|m| Ty::parse(m).is_none()).copied() {
                        None => TernOp::Prmt,
                        Some("f4e") => TernOp::PrmtF4e,
                        Some("b4e") => TernOp::PrmtB4e,
                        Some("rc8") => TernOp::PrmtRc8,
                        Some("ecl") => TernOp::PrmtEcl,
                        Some("ecr") => TernOp::PrmtEcr,
                        Some("rc16") => TernOp::PrmtRc16,
                        Some(m) => return self.err(format!("unknown prmt mode `.{m}`")),
                    },
                    "mad24" => TernOp::Mad24Lo,
                    _ => TernOp::Slct,
                };
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let (bt, ct) = match op {
                    TernOp::Bfe => (Ty::U32, Ty::U32),
                    TernOp::MadWide => {
                        let w = if t.signed() { Ty::S64 } else { Ty::U64 };
                        (t, if t.bytes() == 4 { w } else { t })
                    }
                    TernOp::Slct => (t, tys.get(1).copied().unwrap_or(Ty::S32)),
                    _ => (t, t),
                };
                let b = self.src(&ops[2], bt)?;
                let c = self.src(&ops[3], ct)?;
                if let (TernOp::Fma, Ty::F32 | Ty::F64, Some(rnd)) = (op, t, directed(mods)) {
                    let (op, ty) = (FRoundOp::Fma, t);
                    self.push(
                        Inst::FRound {
                            op,
                            ty,
                            rnd,
                            d,
                            a,
                            b,
                            c,
                        },
                        guard,
                    );
                    return Ok(());
                }
                let ty = if op == TernOp::Slct {
                    // encode the selector type in the float flag: f32 selector → use F32 marker
                    if ct == Ty::F32 {
                        return self.push_slct_f(t, d, a, b, c, guard);
                    }
                    t
                } else {
                    t
                };
                let op = if t == Ty::F32 && has("ftz") {
                    op.with_ftz()
                } else {
                    op
                };
                self.push(Inst::Tern { op, ty, d, a, b, c }, guard);
            }
            "fns" => {
                need(self, 4)?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U32)?;
                let b = self.src(&ops[2], Ty::U32)?;
                let c = self.src(&ops[3], Ty::S32)?;
                self.push(
                    Inst::Tern {
                        op: TernOp::Fns,
                        ty: Ty::U32,
                        d,
                        a,
                        b,
                        c,
                    },
                    guard,
                );
            }
            "dp4a" | "dp2a" | "vabsdiff4" => {
                need(self, 4)?;
                let signed = |m: &str| match m {
                    "s32" => Some(true),
                    "u32" => Some(false),
                    _ => None,
                };
                let sign: Vec<bool> = mods.iter().filter_map(|m| signed(m)).collect();
                let wants = if base == "vabsdiff4" { 3 } else { 2 };
                if sign.len() != wants || mods.iter().any(|m| Ty::parse(m).is_some() && signed(m).is_none()) {
                    return self.err(format!("`{}` takes {wants} types of `.u32` / `.s32`", i.opcode));
                }
                let op = match base {
                    "dp4a" => TernOp::Dp4a {
                        sa: sign[0],
                        sb: sign[1],
                    },
                    "dp2a" => TernOp::Dp2a {
                        hi: match (has("lo"), has("hi")) {
                            (true, false) => false,
                            (false, true) => true,
                            _ => return self.err(format!("`{}` needs `.lo` or `.hi`", i.opcode)),
                        },
                        sa: sign[0],
                        sb: sign[1],
                    },
                    _ => TernOp::VAbsDiff4 {
                        sd: sign[0],
                        sa: sign[1],
                        sb: sign[2],
                        sat: has("sat"),
                        add: has("add"),
                    },
                };
                if base == "vabsdiff4" && has("sat") && has("add") {
                    return self.err(format!("`{}`: `.sat` with `.add`", i.opcode));
                }
                // byte and mask selectors (`a.b3210`, `d.b10`) are not taken
                for o in &ops[..4] {
                    if let Operand::Name(n) = o
                        && n.contains('.')
                    {
                        return self.err(format!(
                            "unsupported operand `{n}` in `{}` (SIMD byte or mask selector)",
                            i.opcode
                        ));
                    }
                }
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U32)?;
                let b = self.src(&ops[2], Ty::U32)?;
                let c = self.src(&ops[3], Ty::U32)?;
                self.push(
                    Inst::Tern {
                        op,
                        ty: Ty::U32,
                        d,
                        a,
                        b,
                        c,
                    },
                    guard,
                );
            }
            "shf" => {
                need(self, 4)?;
                let op = match (has("l"), has("r"), has("clamp")) {
                    (true, false, false) => TernOp::ShfL,
                    (true, false, true) => TernOp::ShfLClamp,
                    (false, true, false) => TernOp::ShfR,
                    (false, true, true) => TernOp::ShfRClamp,
                    _ => return self.err("`shf` needs `.l` or `.r`"),
                };
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U32)?;
                let b = self.src(&ops[2], Ty::U32)?;
                let c = self.src(&ops[3], Ty::U32)?;
                self.push(
                    Inst::Tern {
                        op,
                        ty: Ty::U32,
                        d,
                        a,
                        b,
                        c,
                    },
                    guard,
                );
            }
            "bfi" => {
                need(self, 5)?;
                let t = need_ty(self)?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let b = self.src(&ops[2], t)?;
                let pos = self.src(&ops[3], Ty::U32)?;
                let len = self.src(&ops[4], Ty::U32)?;
                self.push(
                    Inst::Bfi {
                        ty: t,
                        d,
                        a,
                        b,
                        pos,
                        len,
                    },
                    guard,
                );
            }
            "lop3" => {
                need(self, 5)?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U32)?;
                let b = self.src(&ops[2], Ty::U32)?;
                let c = self.src(&ops[3], Ty::U32)?;
                let Operand::Int(lut) = ops[4] else {
                    return self.err("lop3 needs an immediate LUT");
                };
                self.push(
                    Inst::Lop3 {
                        d,
                        a,
                        b,
                        c,
                        lut: lut as u8,
                    },
                    guard,
                );
            }
            "selp" => {
                need(self, 4)?;
                let t = need_ty(self)?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let b = self.src(&ops[2], t)?;
                let p = self.psrc(&ops[3])?;
                self.push(Inst::Selp { ty: t, d, a, b, p }, guard);
            }
            "setp" | "set" => {
                need(self, 3)?;
                let Some(cmp) = mods.first().and_then(|m| parse_cmp(m)) else {
                    return self.err(format!("unknown comparison in `{}`", i.opcode));
                };
                let bop = mods.iter().find_map(|m| match *m {
                    "and" => Some(BoolOp::And),
                    "or" => Some(BoolOp::Or),
                    "xor" => Some(BoolOp::Xor),
                    _ => None,
                });
                if base == "set" {
                    if bop.is_some() || tys.len() != 2 {
                        return self.err(format!("unsupported instruction `{}`", i.opcode));
                    }
                    let d = self.dst(&ops[0])?;
                    let a = self.src(&ops[1], tys[1])?;
                    let b = self.src(&ops[2], tys[1])?;
                    self.push(
                        Inst::Set {
                            cmp,
                            dty: tys[0],
                            sty: tys[1],
                            d,
                            a,
                            b,
                        },
                        guard,
                    );
                    return Ok(());
                }
                let t = need_ty(self)?;
                let (p, q) = match &ops[0] {
                    Operand::Pair(a, b) => (
                        self.pdst(&Operand::Name(a.clone()))?,
                        self.pdst(&Operand::Name(b.clone()))?,
                    ),
                    o => (self.pdst(o)?, PRED_TRUE),
                };
                let a = self.src(&ops[1], t)?;
                let b = self.src(&ops[2], t)?;
                let c = if bop.is_some() {
                    need(self, 4)?;
                    self.psrc(&ops[3])?
                } else {
                    PSrc::TRUE
                };
                self.push(
                    Inst::Setp {
                        cmp,
                        ty: t,
                        p,
                        q,
                        a,
                        b,
                        bop,
                        c,
                    },
                    guard,
                );
            }
            "cvt" => {
                need(self, 2)?;
                if mods.first() == Some(&"rna") && mods.get(1) == Some(&"tf32") && mods.get(2) == Some(&"f32")
                {
                    // cvt.rna.tf32.f32 (`wmma::__float_to_tf32`): the f32 rounded to 10 fraction
                    // bits, ties away from zero (the magnitude's bits plus half the dropped
                    // quantum, the 13 low bits cleared; the largest finite values round to
                    // infinity); a NaN is kept as it is
                    let d = self.dst(&ops[0])?;
                    let a = self.src(&ops[1], Ty::F32)?;
                    let t = self.new_row()?;
                    let half = self.const_row(0x1000)?;
                    let keep = self.const_row(0xffff_e000)?;
                    self.push(
                        Inst::Bin {
                            op: BinOp::Add,
                            ty: Ty::U32,
                            d: t,
                            a,
                            b: half,
                        },
                        guard,
                    );
                    self.push(
                        Inst::Bin {
                            op: BinOp::And,
                            ty: Ty::U32,
                            d: t,
                            a: t,
                            b: keep,
                        },
                        guard,
                    );
                    let p = self.new_pred()?;
                    self.push(
                        Inst::Setp {
                            cmp: Cmp::Nan,
                            ty: Ty::F32,
                            p,
                            q: PRED_TRUE,
                            a,
                            b: a,
                            bop: None,
                            c: PSrc::TRUE,
                        },
                        guard,
                    );
                    self.push(
                        Inst::Selp {
                            ty: Ty::U32,
                            d,
                            a,
                            b: t,
                            p: PSrc { idx: p, neg: false },
                        },
                        guard,
                    );
                    return Ok(());
                }
                if tys.len() != 2 {
                    return self.err(format!("`{}` needs two types", i.opcode));
                }
                let rnd = mods
                    .iter()
                    .find_map(|m| {
                        Some(match *m {
                            "rn" => Rnd::Rn,
                            "rz" => Rnd::Rz,
                            "rm" => Rnd::Rm,
                            "rp" => Rnd::Rp,
                            "rni" => Rnd::Rni,
                            "rzi" => Rnd::Rzi,
                            "rmi" => Rnd::Rmi,
                            "rpi" => Rnd::Rpi,
                            _ => return None,
                        })
                    })
                    .unwrap_or(Rnd::Default);
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], tys[1])?;
                self.push(
                    Inst::Cvt {
                        dty: tys[0],
                        sty: tys[1],
                        rnd,
                        sat: has("sat"),
                        d,
                        a,
                    },
                    guard,
                );
            }
            "testp" => {
                need(self, 2)?;
                let t = need_ty(self)?;
                let prop = match mods.first().copied() {
                    Some("finite") => TestP::Finite,
                    Some("infinite") => TestP::Infinite,
                    Some("number") => TestP::Number,
                    Some("notanumber") => TestP::NotANumber,
                    Some("normal") => TestP::Normal,
                    Some("subnormal") => TestP::Subnormal,
                    _ => return self.err(format!("unknown property in `{}`", i.opcode)),
                };
                let p = self.pdst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                self.push(Inst::TestP { prop, ty: t, p, a }, guard);
            }
            "cvta" => {
                need(self, 2)?;
                let to = has("to");
                let Some(space) = space_of(mods) else {
                    return self.err(format!("`{}` has no state space", i.opcode));
                };
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U64)?;
                self.push(
                    Inst::Cvta {
                        space,
                        to_generic: !to,
                        d,
                        a,
                    },
                    guard,
                );
            }
            "ld" | "ldu" | "st" => {
                need(self, 2)?;
                let t = need_ty(self)?;
                let vec = mods
                    .iter()
                    .find_map(|m| match *m {
                        "v2" => Some(2u8),
                        "v4" => Some(4),
                        "v8" => Some(8),
                        _ => None,
                    })
                    .unwrap_or(1);
                if vec > 4 {
                    return self.err("`.v8` accesses are not supported");
                }
                let is_st = base == "st";
                let (ao, vo) = if is_st {
                    (&ops[0], &ops[1])
                } else {
                    (&ops[1], &ops[0])
                };
                let (sym_space, addr, off, a32) = self.addr(ao)?;
                let mut space = space_of(mods).unwrap_or(MemSpace::Generic);
                if space == MemSpace::KernelParam {
                    space = match sym_space {
                        Some(MemSpace::CallParam) => MemSpace::CallParam,
                        Some(MemSpace::KernelParam) => MemSpace::KernelParam,
                        // A register holding a parameter's address (`mov.b64 %rd1, k_param_0;
                        // ld.param.f32 %f1, [%rd1+4]`, as nvcc writes struct parameters read after
                        // a branch): the value `mov` gave it is the parameter's offset, in the
                        // kernel's parameter space in a kernel, in the call's in a device function.
                        None if ctx.is_kernel => MemSpace::KernelParam,
                        None => MemSpace::CallParam,
                        _ => {
                            return self.err("param access needs a parameter symbol");
                        }
                    };
                }
                if let (Some(s), false) = (sym_space, space == MemSpace::Generic)
                    && s != space
                    && !(s == MemSpace::Global && space == MemSpace::Global)
                {
                    return self.err("address symbol is not in the instruction's state space");
                }
                if space == MemSpace::Generic
                    && let Some(s) = sym_space
                {
                    space = s;
                }
                let regs: Vec<&Operand> = match vo {
                    Operand::Vector(v) => v.iter().collect(),
                    o => vec![o],
                };
                if regs.len() != vec as usize {
                    return self.err("vector operand size does not match the `.vN` modifier");
                }
                let mut rr = [NO_REG; 4];
                let mut wide = false;
                for (k, r) in regs.iter().enumerate() {
                    rr[k] = if is_st { self.src(r, t)? } else { self.dst(r)? };
                    // a signed load into a wider register extends its sign to the register's
                    // width (PTX: `ld.s32` into a `.b64`/`.s64` register)
                    if let Operand::Name(n) = r
                        && !is_st
                        && t.signed()
                        && t.bytes() < 8
                        && matches!(self.lookup(n), Some(Sym::Reg(_, rt)) if rt.bytes() == 8)
                    {
                        wide = true;
                    }
                }
                if is_st {
                    self.push(
                        Inst::St {
                            space,
                            ty: t,
                            vec,
                            addr32: a32,
                            a: rr,
                            addr,
                            off,
                        },
                        guard,
                    );
                } else {
                    self.push(
                        Inst::Ld {
                            space,
                            ty: t,
                            vec,
                            addr32: a32,
                            sync: has("acquire") || has("relaxed"),
                            d: rr,
                            addr,
                            off,
                        },
                        guard,
                    );
                    if wide {
                        // the loaded value's sign through the 64-bit register
                        for &r in &rr[..regs.len()] {
                            self.push(
                                Inst::Cvt {
                                    dty: Ty::S64,
                                    sty: t,
                                    rnd: Rnd::Default,
                                    sat: false,
                                    d: r,
                                    a: r,
                                },
                                guard,
                            );
                        }
                    }
                }
            }
            "atom" | "red" => {
                let t = need_ty(self)?;
                let Some(op) = mods.iter().find_map(|m| {
                    Some(match *m {
                        "add" => AtomOp::Add,
                        "min" => AtomOp::Min,
                        "max" => AtomOp::Max,
                        "and" => AtomOp::And,
                        "or" => AtomOp::Or,
                        "xor" => AtomOp::Xor,
                        "exch" => AtomOp::Exch,
                        "cas" => AtomOp::Cas,
                        "inc" => AtomOp::Inc,
                        "dec" => AtomOp::Dec,
                        _ => return None,
                    })
                }) else {
                    return self.err(format!("unknown atomic operation in `{}`", i.opcode));
                };
                let vec = if has("v8") {
                    8
                } else if has("v4") {
                    4
                } else if has("v2") {
                    2
                } else {
                    1
                };
                if ((t == Ty::F16 || t == Ty::BF16) && !matches!(op, AtomOp::Add | AtomOp::Min | AtomOp::Max))
                    || vec > 4
                    || (vec > 1 && (t != Ty::F32 || op != AtomOp::Add))
                {
                    return self.err(format!("unsupported instruction `{}`", i.opcode));
                }
                if vec > 1 {
                    // `.v2`/`.v4 .f32 .add`: one atomic per element, in element order
                    let is_red = base == "red";
                    let k = usize::from(!is_red);
                    need(self, k + 2)?;
                    let elems = |o: &Operand| match o {
                        Operand::Vector(v) => v.clone(),
                        o => vec![o.clone()],
                    };
                    let bs = elems(&ops[k + 1]);
                    let ds = if is_red { Vec::new() } else { elems(&ops[0]) };
                    if bs.len() != vec || (!is_red && ds.len() != vec) {
                        return self.err("vector operand size does not match the `.vN` modifier");
                    }
                    let (sym_space, addr, off, a32) = self.addr(&ops[k])?;
                    let space = space_of(mods).or(sym_space).unwrap_or(MemSpace::Generic);
                    for e in 0..vec {
                        let b = self.src(&bs[e], t)?;
                        let d = if is_red { NO_REG } else { self.dst(&ds[e])? };
                        self.push(
                            Inst::Atom {
                                space,
                                op,
                                ty: t,
                                addr32: a32,
                                d,
                                addr,
                                off: match off.checked_add(4 * e as i32) {
                                    Some(o) => o,
                                    None => return self.err("address offset out of range"),
                                },
                                b,
                                c: NO_REG,
                            },
                            guard,
                        );
                    }
                    return Ok(());
                }
                let is_red = base == "red";
                let k = if is_red { 0 } else { 1 };
                need(self, k + 2 + usize::from(op == AtomOp::Cas))?;
                let d = if is_red { NO_REG } else { self.dst(&ops[0])? };
                let (sym_space, addr, off, a32) = self.addr(&ops[k])?;
                let mut space = space_of(mods).unwrap_or(MemSpace::Generic);
                if space == MemSpace::Generic
                    && let Some(s) = sym_space
                {
                    space = s;
                }
                if !matches!(space, MemSpace::Shared | MemSpace::Global | MemSpace::Generic) {
                    return self.err("atomics are supported on shared and global memory only");
                }
                let b = self.src(&ops[k + 1], t)?;
                let c = if op == AtomOp::Cas {
                    self.src(&ops[k + 2], t)?
                } else {
                    NO_REG
                };
                self.push(
                    Inst::Atom {
                        space,
                        op,
                        ty: t,
                        addr32: a32,
                        d,
                        addr,
                        off,
                        b,
                        c,
                    },
                    guard,
                );
            }
            "bra" | "brx" => {
                if base == "brx" {
                    return self.err("unsupported instruction `brx.idx`");
                }
                need(self, 1)?;
                let Operand::Name(l) = &ops[0] else {
                    return self.err("branch target must be a label");
                };
                ctx.fixups.push((
                    self.ops.len(),
                    l.clone(),
                    i.pos,
                    i.text.clone(),
                    ctx.blocks.clone(),
                ));
                self.push(
                    Inst::Bra {
                        target: u32::MAX,
                        reconv: u32::MAX,
                    },
                    guard,
                );
            }
            "ret" => {
                if ctx.is_kernel {
                    self.push(Inst::Exit, guard);
                } else {
                    ctx.ret_fixups.push(self.ops.len());
                    self.push(
                        Inst::Bra {
                            target: u32::MAX,
                            reconv: u32::MAX,
                        },
                        guard,
                    );
                }
            }
            "exit" => self.push(Inst::Exit, guard),
            "trap" | "brkpt" => self.push(Inst::Trap, guard),
            "barrier" if has("cluster") => {
                // barrier.cluster.arrive{.release,.relaxed}{.aligned} / barrier.cluster.wait{.acquire}{.aligned}
                let wait = if has("wait") {
                    true
                } else if has("arrive") {
                    false
                } else {
                    return self.err(format!("unsupported instruction `{}`", i.opcode));
                };
                if !ops.is_empty() {
                    return self.err(format!("`{}` takes no operands", i.opcode));
                }
                self.push(Inst::ClusterBar { wait }, guard);
            }
            "mapa" => {
                // mapa{.shared::cluster}.{u32,u64} d, a, rank: `a`'s place in CTA `rank`'s shared
                // memory; without a state space, generic addresses
                need(self, 3)?;
                let t = need_ty(self)?;
                if !matches!(t, Ty::U32 | Ty::U64) {
                    return self.err(format!("`{}` takes .u32 or .u64 addresses", i.opcode));
                }
                let generic = !mods.iter().any(|m| m.starts_with("shared"));
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let rank = self.src(&ops[2], Ty::U32)?;
                self.push(Inst::Mapa { generic, d, a, rank }, guard);
            }
            "bar" | "barrier" if has("red") => {
                let op = if has("popc") {
                    RedOp::Popc
                } else if has("and") {
                    RedOp::And
                } else if has("or") {
                    RedOp::Or
                } else {
                    return self.err(format!("unsupported instruction `{}`", i.opcode));
                };
                if !(3..=4).contains(&ops.len()) {
                    return self.err(format!("`{}` takes 3 or 4 operands", i.opcode));
                }
                let (d, p) = if op == RedOp::Popc {
                    (self.dst(&ops[0])?, PRED_TRUE)
                } else {
                    (NO_REG, self.pdst(&ops[0])?)
                };
                let id = self.src(&ops[1], Ty::U32)?;
                let count = if ops.len() == 4 {
                    self.src(&ops[2], Ty::U32)?
                } else {
                    NO_REG
                };
                let c = self.psrc(&ops[ops.len() - 1])?;
                self.push(
                    Inst::BarRed {
                        op,
                        id,
                        count,
                        d,
                        p,
                        c,
                    },
                    guard,
                );
            }
            "bar" | "barrier" => {
                let kind = if has("warp") {
                    BarKind::Warp
                } else if has("arrive") {
                    BarKind::Arrive
                } else if has("sync") || (base == "bar" && mods.is_empty()) {
                    BarKind::Sync
                } else {
                    return self.err(format!("unsupported instruction `{}`", i.opcode));
                };
                // `bar.warp.sync`'s operand is its member mask (none: the whole warp)
                let id = match ops.first() {
                    Some(o) => self.src(o, Ty::U32)?,
                    None if kind == BarKind::Warp => self.const_row(u64::from(u32::MAX))?,
                    None => self.const_row(0)?,
                };
                let count = match ops.get(1) {
                    Some(o) if kind != BarKind::Warp => self.src(o, Ty::U32)?,
                    _ => NO_REG,
                };
                self.push(Inst::Bar { kind, id, count }, guard);
            }
            "membar" | "fence" | "prefetch" | "prefetchu" | "nanosleep" | "pmevent" => {
                self.push(Inst::Nop, guard)
            }
            "shfl" => {
                need(self, 4)?;
                let mode = match mods.iter().find_map(|m| match *m {
                    "up" => Some(ShflMode::Up),
                    "down" => Some(ShflMode::Down),
                    "bfly" => Some(ShflMode::Bfly),
                    "idx" => Some(ShflMode::Idx),
                    _ => None,
                }) {
                    Some(m) => m,
                    None => return self.err("unknown shfl mode"),
                };
                let (d, p) = match &ops[0] {
                    Operand::Pair(a, b) => (
                        self.dst(&Operand::Name(a.clone()))?,
                        self.pdst(&Operand::Name(b.clone()))?,
                    ),
                    o => (self.dst(o)?, PRED_TRUE),
                };
                let a = self.src(&ops[1], Ty::U32)?;
                let b = self.src(&ops[2], Ty::U32)?;
                let c = self.src(&ops[3], Ty::U32)?;
                self.push(Inst::Shfl { mode, d, p, a, b, c }, guard);
            }
            "vote" => {
                need(self, 2)?;
                let mode = match mods.iter().find_map(|m| match *m {
                    "all" => Some(VoteMode::All),
                    "any" => Some(VoteMode::Any),
                    "uni" => Some(VoteMode::Uni),
                    "ballot" => Some(VoteMode::Ballot),
                    _ => None,
                }) {
                    Some(m) => m,
                    None => return self.err("unknown vote mode"),
                };
                let a = self.psrc(&ops[1])?;
                // `vote.sync`'s member mask (the lanes of one tile when tiles run converged)
                let m = match ops.get(2) {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => NO_REG,
                };
                if mode == VoteMode::Ballot {
                    let d = self.dst(&ops[0])?;
                    self.push(
                        Inst::Vote {
                            mode,
                            d,
                            p: PRED_TRUE,
                            a,
                            m,
                        },
                        guard,
                    );
                } else {
                    let p = self.pdst(&ops[0])?;
                    self.push(
                        Inst::Vote {
                            mode,
                            d: NO_REG,
                            p,
                            a,
                            m,
                        },
                        guard,
                    );
                }
            }
            "activemask" => {
                need(self, 1)?;
                let d = self.dst(&ops[0])?;
                self.push(Inst::ActiveMask { d }, guard);
            }
            "match" => {
                need(self, 2)?;
                let t = need_ty(self)?;
                let all = has("all");
                let (d, p) = match &ops[0] {
                    Operand::Pair(a, b) => (
                        self.dst(&Operand::Name(a.clone()))?,
                        self.pdst(&Operand::Name(b.clone()))?,
                    ),
                    o => (self.dst(o)?, PRED_TRUE),
                };
                let a = self.src(&ops[1], t)?;
                // the member mask: lanes of one tile matching among themselves
                let m = match ops.get(2) {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => NO_REG,
                };
                self.push(
                    Inst::Match {
                        all,
                        ty: t,
                        d,
                        p,
                        a,
                        m,
                    },
                    guard,
                );
            }
            "redux" => {
                need(self, 3)?;
                let t = need_ty(self)?;
                let op = match mods.iter().find_map(|m| {
                    Some(match *m {
                        "add" => ReduxOp::Add,
                        "min" => ReduxOp::Min,
                        "max" => ReduxOp::Max,
                        "and" => ReduxOp::And,
                        "or" => ReduxOp::Or,
                        "xor" => ReduxOp::Xor,
                        _ => return None,
                    })
                }) {
                    Some(o) => o,
                    None => return self.err(format!("unsupported instruction `{}`", i.opcode)),
                };
                if !matches!(t, Ty::U32 | Ty::S32) {
                    return self.err(format!(
                        "unsupported instruction `{}` (32-bit integers only)",
                        i.opcode
                    ));
                }
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], t)?;
                let m = self.src(&ops[2], Ty::U32)?;
                self.push(Inst::Redux { op, ty: t, d, a, m }, guard);
            }
            "elect" => {
                need(self, 2)?;
                let (d, p) = match &ops[0] {
                    Operand::Pair(a, b) => (
                        if a == "_" {
                            self.new_row()?
                        } else {
                            self.dst(&Operand::Name(a.clone()))?
                        },
                        self.pdst(&Operand::Name(b.clone()))?,
                    ),
                    o => (self.dst(o)?, PRED_TRUE),
                };
                let m = self.src(&ops[1], Ty::U32)?;
                self.push(Inst::Elect { d, p, m }, guard);
            }
            "movmatrix" => {
                need(self, 2)?;
                if !(has("m8n8") && has("trans") && has("b16")) {
                    return self.err(format!(
                        "unsupported instruction `{}` (only .m8n8.trans.b16)",
                        i.opcode
                    ));
                }
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::U32)?;
                self.push(Inst::MovMatrix { d, a }, guard);
            }
            "tex" | "tld4" => {
                need(self, 2)?;
                let dims = if has("1d") {
                    1u8
                } else if has("2d") {
                    2
                } else if has("3d") {
                    3
                } else {
                    return self.err(format!(
                        "unsupported instruction `{}` (only 1d, 2d and 3d textures)",
                        i.opcode
                    ));
                };
                let tys: Vec<Ty> = mods.iter().filter_map(|m| Ty::parse(m)).collect();
                let ok_d = matches!(tys.first(), Some(Ty::F32 | Ty::S32 | Ty::U32));
                let int_coords = match tys.get(1) {
                    Some(Ty::F32) => false,
                    Some(Ty::S32) => true,
                    _ => return self.err(format!("unsupported instruction `{}` (coordinates)", i.opcode)),
                };
                if !has("v4") || !ok_d {
                    return self.err(format!(
                        "unsupported instruction `{}` (only .v4 with f32, s32 or u32 results)",
                        i.opcode
                    ));
                }
                let Operand::Vector(ds) = &ops[0] else {
                    return self.err("tex: expected four destination registers");
                };
                if ds.len() != 4 {
                    return self.err("tex: expected four destination registers");
                }
                let mut d = [NO_REG; 4];
                for (k, o) in ds.iter().enumerate() {
                    d[k] = self.dst(o)?;
                }
                // a gather (tld4): one channel of the 2x2 footprint, 2-D float coordinates
                let gather = if i.opcode.starts_with("tld4") {
                    let Some(ch) = ["r", "g", "b", "a"].iter().position(|c| has(c)) else {
                        return self.err(format!(
                            "unsupported instruction `{}` (tld4 needs .r, .g, .b or .a)",
                            i.opcode
                        ));
                    };
                    if dims != 2 || int_coords {
                        return self.err(format!(
                            "unsupported instruction `{}` (tld4 gathers from 2-D textures at f32 coordinates)",
                            i.opcode
                        ));
                    }
                    ch as u8 + 1
                } else {
                    0
                };
                let cty = if int_coords { Ty::S32 } else { Ty::F32 };
                let (tex, c) = self.object_coords(&ops[1], "tex", "texture", dims, cty)?;
                self.push(
                    Inst::Tex {
                        dims,
                        int_coords,
                        gather,
                        d,
                        tex,
                        c,
                    },
                    guard,
                );
            }
            "suld" | "sust" => {
                need(self, 2)?;
                let st = i.opcode.starts_with("sust");
                let dims = if has("1d") {
                    1u8
                } else if has("2d") {
                    2
                } else if has("3d") {
                    3
                } else {
                    return self.err(format!(
                        "unsupported instruction `{}` (only 1d, 2d and 3d surfaces, no arrays)",
                        i.opcode
                    ));
                };
                let vec = if has("v4") {
                    4u8
                } else if has("v2") {
                    2
                } else {
                    1
                };
                let bytes = if has("b8") {
                    1u8
                } else if has("b16") {
                    2
                } else if has("b32") {
                    4
                } else if has("b64") {
                    8
                } else {
                    return self.err(format!("unsupported instruction `{}` (element size)", i.opcode));
                };
                let mode = if has("clamp") {
                    1u8
                } else if has("zero") {
                    2
                } else {
                    0
                };
                if !has("b") || u32::from(vec) * u32::from(bytes) > 16 {
                    return self.err(format!(
                        "unsupported instruction `{}` (only unformatted .b accesses of at most 16 bytes)",
                        i.opcode
                    ));
                }
                let (addr_op, val_op) = if st {
                    (&ops[0], &ops[1])
                } else {
                    (&ops[1], &ops[0])
                };
                let vals: Vec<Operand> = match val_op {
                    Operand::Vector(v) => v.clone(),
                    o => vec![o.clone()],
                };
                if vals.len() != vec as usize {
                    return self.err(format!("{}: expected {vec} value registers", i.opcode));
                }
                let (surf, c) = self.object_coords(addr_op, i.opcode.as_str(), "surface", dims, Ty::S32)?;
                let vty = match bytes {
                    1 => Ty::U8,
                    2 => Ty::U16,
                    4 => Ty::U32,
                    _ => Ty::U64,
                };
                let mut r = [NO_REG; 4];
                for (k, o) in vals.iter().enumerate() {
                    r[k] = if st { self.src(o, vty)? } else { self.dst(o)? };
                }
                let shape = SurfShape::new(dims, vec, bytes, mode);
                let inst = if st {
                    Inst::Sust { shape, a: r, surf, c }
                } else {
                    Inst::Suld { shape, d: r, surf, c }
                };
                self.push(inst, guard);
            }
            "ldmatrix" | "stmatrix" => {
                need(self, 2)?;
                let num = match mods.iter().find_map(|m| match *m {
                    "x1" => Some(1u8),
                    "x2" => Some(2),
                    "x4" => Some(4),
                    _ => None,
                }) {
                    Some(n) => n,
                    None => return self.err(format!("`{}` has no .x1/.x2/.x4", i.opcode)),
                };
                if !has("m8n8") || !has("b16") {
                    return self.err(format!(
                        "unsupported instruction `{}` (only the .m8n8 .b16 forms)",
                        i.opcode
                    ));
                }
                let is_st = base == "stmatrix";
                let (ao, vo) = if is_st {
                    (&ops[0], &ops[1])
                } else {
                    (&ops[1], &ops[0])
                };
                let (sym_space, addr, off, a32) = self.addr(ao)?;
                let space = space_of(mods).or(sym_space).unwrap_or(MemSpace::Generic);
                if !matches!(space, MemSpace::Shared | MemSpace::Generic) {
                    return self.err("ldmatrix/stmatrix address shared memory only");
                }
                let regs: Vec<&Operand> = match vo {
                    Operand::Vector(v) => v.iter().collect(),
                    o => vec![o],
                };
                if regs.len() != num as usize {
                    return self.err("register count does not match .x1/.x2/.x4");
                }
                let mut rr = [NO_REG; 4];
                for (k, r) in regs.iter().enumerate() {
                    rr[k] = if is_st {
                        self.src(r, Ty::U32)?
                    } else {
                        self.dst(r)?
                    };
                }
                let trans = has("trans");
                let inst = if is_st {
                    Inst::StMatrix {
                        num,
                        trans,
                        space,
                        addr32: a32,
                        a: rr,
                        addr,
                        off,
                    }
                } else {
                    Inst::LdMatrix {
                        num,
                        trans,
                        space,
                        addr32: a32,
                        d: rr,
                        addr,
                        off,
                    }
                };
                self.push(inst, guard);
            }
            "cp" if has("async") => self.cp_async(i, mods, guard)?,
            "tensormap" => self.tensormap(i, mods, guard)?,
            "mbarrier" => self.mbarrier(i, mods, guard)?,
            "mma" => self.mma(i, mods, guard)?,
            "wmma" => self.wmma(i, mods, guard)?,
            "wgmma" => self.wgmma(i, mods, guard)?,
            "setmaxnreg" => {
                // setmaxnreg.{inc,dec}.sync.aligned.u32 N: the warp's register file grows or
                // shrinks; the values in it are the program's, so nothing changes for the
                // emulator. The kernel records the counts for the occupancy report.
                let inc = if has("inc") {
                    true
                } else if has("dec") {
                    false
                } else {
                    return self.err(format!("`{}` needs .inc or .dec", i.opcode));
                };
                let n = match ops.first() {
                    Some(Operand::Int(v)) if (24..=256).contains(v) && v % 8 == 0 => *v as u32,
                    _ => {
                        return self.err(format!(
                            "`{}` takes an immediate register count, a multiple of 8 in 24..=256",
                            i.opcode
                        ));
                    }
                };
                if !self.setmaxnreg.contains(&(inc, n)) {
                    self.setmaxnreg.push((inc, n));
                }
                self.push(Inst::Nop, guard);
            }
            // griddepcontrol.launch_dependents / .wait: a stream runs its launches one after
            // another, so every dependency is already complete
            "griddepcontrol" | "applypriority" | "discard" => self.push(Inst::Nop, guard),
            "call" => self.call(i, guard)?,
            _ => {
                return self.err(format!("unsupported instruction `{}`", i.opcode));
            }
        }
        Ok(())
    }

    /// An address operand as one register holding `base + offset` (a new row when the offset is
    /// not zero), with the state space its symbol implies.
    fn folded_addr(&mut self, o: &Operand, guard: PSrc) -> LResult<(Option<MemSpace>, R)> {
        let (space, row, off, a32) = self.addr(o)?;
        if off == 0 {
            return Ok((space, row));
        }
        let t = self.new_row()?;
        let c = self.const_row(off as i64 as u64)?;
        let ty = if a32 { Ty::U32 } else { Ty::U64 };
        self.push(
            Inst::Bin {
                op: BinOp::Add,
                ty,
                d: t,
                a: row,
                b: c,
            },
            guard,
        );
        Ok((space, t))
    }

    /// `n` consecutive fresh rows; returns the first.
    fn rows(&mut self, n: u32) -> LResult<R> {
        let first = self.new_row()?;
        for _ in 1..n {
            self.new_row()?;
        }
        Ok(first)
    }

    fn mov_rows(&mut self, d: R, a: R, guard: PSrc) {
        self.push(
            Inst::Un {
                op: UnOp::Mov,
                ty: Ty::U64,
                d,
                a,
            },
            guard,
        );
    }

    /// `cp.async.*`: the copies (`.ca`/`.cg` and the 1-D bulk forms) and their groups.
    fn cp_async(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let has = |m: &str| mods.iter().any(|x| x.split("::").next() == Some(m));
        if has("commit_group") || has("wait_group") || has("wait_all") {
            // copies complete when they are issued: nothing to wait for
            self.push(Inst::Nop, guard);
            return Ok(());
        }
        if has("mbarrier") && has("arrive") {
            // cp.async.mbarrier.arrive{.noinc}.b64 [mbar]: without .noinc the pending count is
            // raised by one before the (immediate) arrival, so nothing changes
            if ops.is_empty() {
                return self.err(format!("`{}` needs an address", i.opcode));
            }
            let (_, addr) = self.folded_addr(&ops[0], guard)?;
            if has("noinc") {
                self.push(
                    Inst::Mbar {
                        op: MbarOp::CpAsyncArrive,
                        d: NO_REG,
                        p: PRED_TRUE,
                        addr,
                        b: NO_REG,
                    },
                    guard,
                );
            } else {
                self.push(Inst::Nop, guard);
            }
            return Ok(());
        }
        if has("tensor") {
            return self.tma_copy(i, mods, guard);
        }
        if has("reduce") {
            return self.err(format!("unsupported instruction `{}`", i.opcode));
        }
        if has("bulk") && has("prefetch") && !has("tensor") {
            // cp.async.bulk.prefetch.L2.global [a], size: no effect an emulator can see
            self.push(Inst::Nop, guard);
            return Ok(());
        }
        if has("bulk") {
            if has("tensor")
                || has("prefetch")
                || has("multicast")
                || mods.iter().any(|m| m.starts_with("cta_group"))
            {
                return self.err(format!("unsupported instruction `{}`", i.opcode));
            }
            if ops.len() < 3 {
                return self.err(format!("`{}` needs 3 operands", i.opcode));
            }
            let at = mods.iter().position(|m| *m == "bulk").unwrap_or(0);
            let (dsp, ssp) = (mods.get(at + 1).copied(), mods.get(at + 2).copied());
            let to_shared = dsp.is_some_and(|m| m.starts_with("shared"));
            let from_global = ssp.is_some_and(|m| m.starts_with("global"));
            let to_global =
                dsp.is_some_and(|m| m.starts_with("global")) && ssp.is_some_and(|m| m.starts_with("shared"));
            if !(to_global || (to_shared && from_global)) {
                return self.err(format!(
                    "unsupported instruction `{}` (shared <-> global only)",
                    i.opcode
                ));
            }
            let (_, dst) = self.folded_addr(&ops[0], guard)?;
            let (_, src) = self.folded_addr(&ops[1], guard)?;
            let size = self.src(&ops[2], Ty::U32)?;
            let mbar = if to_shared {
                if ops.len() < 4 {
                    return self.err("a bulk copy to shared memory needs its mbarrier");
                }
                self.folded_addr(&ops[3], guard)?.1
            } else {
                NO_REG
            };
            self.push(
                Inst::BulkCopy {
                    to_shared,
                    dst,
                    src,
                    size,
                    mbar,
                },
                guard,
            );
            return Ok(());
        }
        if !(has("ca") || has("cg")) || ops.len() < 3 {
            return self.err(format!("unsupported instruction `{}`", i.opcode));
        }
        let size = match ops[2] {
            Operand::Int(n @ (4 | 8 | 16)) => n as u8,
            _ => return self.err("cp.async copies 4, 8 or 16 bytes (an immediate)"),
        };
        if has("cg") && size != 16 {
            return self.err("cp.async.cg copies 16 bytes");
        }
        let (_, dst) = self.folded_addr(&ops[0], guard)?;
        let (_, src) = self.folded_addr(&ops[1], guard)?;
        let ignore_src = matches!(ops.get(3), Some(o @ (Operand::Name(_) | Operand::NotName(_)))
            if matches!(o, Operand::NotName(_))
                || matches!(o, Operand::Name(n) if matches!(self.lookup(n), Some(Sym::Pred(_)))));
        let src_size = match ops.get(3) {
            None => NO_REG,
            Some(o @ (Operand::Name(_) | Operand::NotName(_)))
                if matches!(o, Operand::NotName(_))
                    || matches!(o, Operand::Name(n) if matches!(self.lookup(n), Some(Sym::Pred(_)))) =>
            {
                // ignore-src predicate: true copies nothing (all zeros)
                let p = self.psrc(o)?;
                let t = self.new_row()?;
                let zero = self.const_row(0)?;
                let full = self.const_row(size as u64)?;
                self.push(
                    Inst::Selp {
                        ty: Ty::U32,
                        d: t,
                        a: zero,
                        b: full,
                        p,
                    },
                    guard,
                );
                t
            }
            Some(o) => self.src(o, Ty::U32)?,
        };
        self.push(
            Inst::CpAsync {
                size,
                dst,
                src,
                src_size,
                ignore_src,
            },
            guard,
        );
        Ok(())
    }

    /// `mbarrier.*`
    fn mbarrier(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let has = |m: &str| mods.contains(&m);
        let op = match mods.first().copied() {
            Some("init") => MbarOp::Init,
            Some("inval") => MbarOp::Inval,
            Some("arrive") if has("expect_tx") => MbarOp::ArriveExpectTx,
            Some("arrive") => MbarOp::Arrive,
            Some("arrive_drop") if !has("expect_tx") => MbarOp::ArriveDrop,
            Some("expect_tx") => MbarOp::ExpectTx,
            Some("complete_tx") => MbarOp::CompleteTx,
            Some("test_wait") if has("parity") => MbarOp::TestWaitParity,
            Some("test_wait") => MbarOp::TestWait,
            Some("try_wait") if has("parity") => MbarOp::TryWaitParity,
            Some("try_wait") => MbarOp::TryWait,
            Some("pending_count") => MbarOp::PendingCount,
            _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
        };
        if mods.contains(&"shared::cluster")
            && !matches!(op, MbarOp::Arrive | MbarOp::ArriveExpectTx | MbarOp::ArriveDrop)
        {
            return self.err(format!(
                "unsupported instruction `{}` (only arrivals take a .shared::cluster address)",
                i.opcode
            ));
        }
        if op == MbarOp::PendingCount {
            if ops.len() != 2 {
                return self.err("`mbarrier.pending_count` takes 2 operands");
            }
            let d = self.dst(&ops[0])?;
            let b = self.src(&ops[1], Ty::U64)?;
            let z = self.const_row(0)?;
            self.push(
                Inst::Mbar {
                    op,
                    d,
                    p: PRED_TRUE,
                    addr: z,
                    b,
                },
                guard,
            );
            return Ok(());
        }
        // operand forms: [a]{, b} | d, [a]{, b} | p, [a], b{, suspend}
        let k = ops.iter().position(|o| matches!(o, Operand::Addr { .. }));
        let Some(k) = k else {
            return self.err(format!("`{}` needs an address", i.opcode));
        };
        let (mut d, mut p) = (NO_REG, PRED_TRUE);
        if k == 1 {
            match op {
                MbarOp::TestWait | MbarOp::TestWaitParity | MbarOp::TryWait | MbarOp::TryWaitParity => {
                    p = self.pdst(&ops[0])?
                }
                _ => {
                    d = match &ops[0] {
                        Operand::Sink => NO_REG,
                        o => self.dst(o)?,
                    }
                }
            }
        }
        let (_, addr) = self.folded_addr(&ops[k], guard)?;
        let b = match ops.get(k + 1) {
            Some(o) => self.src(o, Ty::U64)?,
            None => NO_REG,
        };
        if matches!(
            op,
            MbarOp::Init | MbarOp::ExpectTx | MbarOp::CompleteTx | MbarOp::ArriveExpectTx
        ) && b == NO_REG
        {
            return self.err(format!("`{}` needs a count", i.opcode));
        }
        if op == MbarOp::ArriveExpectTx && ops.len() > k + 2 {
            return self.err(format!("unsupported instruction `{}` (with a count)", i.opcode));
        }
        self.push(Inst::Mbar { op, d, p, addr, b }, guard);
        Ok(())
    }

    /// `mma.sync.aligned.SHAPE.row.col{.satfinite}.dty.aty.bty.cty d, a, b, c`: the operands are
    /// copied into consecutive rows (D, A, B, C), the product runs there, D is copied out.
    fn mma(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        if mods.iter().any(|m| *m == "sp" || m.starts_with("sp::")) {
            return self.mma_sp(i, mods, guard);
        }
        let shape = match mods.iter().find(|m| m.starts_with('m')).copied() {
            Some("m16n8k16") => MmaShape::M16n8k16,
            Some("m16n8k8") => MmaShape::M16n8k8,
            Some("m8n8k4") => MmaShape::M8n8k4,
            Some("m16n8k32") => MmaShape::M16n8k32,
            _ => return self.err(format!("unsupported instruction `{}` (shape)", i.opcode)),
        };
        if !(mods.contains(&"row") && mods.contains(&"col")) {
            return self.err(format!("unsupported instruction `{}` (only .row.col)", i.opcode));
        }
        let tys: Vec<Ty> = mods
            .iter()
            .filter_map(|m| if *m == "tf32" { Some(Ty::F32) } else { Ty::parse(m) })
            .collect();
        let [dty, aty, bty, cty] = tys[..] else {
            return self.err(format!("unsupported instruction `{}` (types)", i.opcode));
        };
        self.matrix_product(i, shape, [dty, aty, bty, cty], mods.contains(&"satfinite"), guard)
    }

    /// `mma.sp{::ordered_metadata}.sync.aligned.m16n8kK.row.col{.satfinite}.dty.aty.bty.cty d, a,
    /// b, c, e, sel` (calibration/wgmma-sp): f16/bf16 k16 and k32, tf32 k8 and k16, s8/u8 k32 and
    /// k64, e4m3/e5m2 k64 into f32; the operands are copied into consecutive rows (D, A, B, C,
    /// metadata), the product runs there, D is copied out.
    fn mma_sp(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let op = &i.opcode;
        let k: u32 = match mods.iter().find(|m| m.starts_with("m16n8k")).copied() {
            Some(s) => s[6..].parse().unwrap_or(0),
            None => 0,
        };
        if !(mods.contains(&"row") && mods.contains(&"col")) {
            return self.err(format!("unsupported instruction `{op}` (only .row.col)"));
        }
        let tys: Vec<WgTy> = mods.iter().filter_map(|m| WgTy::parse(m)).collect();
        let [dty, aty, bty, cty] = tys[..] else {
            return self.err(format!("unsupported instruction `{op}` (types)"));
        };
        let sat = mods.contains(&"satfinite");
        let int = matches!(aty, WgTy::S8 | WgTy::U8);
        let fp8 = matches!(aty, WgTy::E4M3 | WgTy::E5M2);
        let types_ok = dty == cty
            && match aty {
                WgTy::F16 => bty == aty && matches!(dty, WgTy::F32 | WgTy::F16) && !sat,
                WgTy::BF16 | WgTy::TF32 => bty == aty && dty == WgTy::F32 && !sat,
                // ptxas refuses an f16 D with fp8 operands for mma.sp on sm_90a
                _ if fp8 => matches!(bty, WgTy::E4M3 | WgTy::E5M2) && dty == WgTy::F32 && !sat,
                _ if int => matches!(bty, WgTy::S8 | WgTy::U8) && dty == WgTy::S32,
                _ => false,
            };
        if !types_ok {
            return self.err(format!("unsupported instruction `{op}` (types)"));
        }
        // K: 16 and 32 for 16-bit operands, 8 and 16 for tf32, 32 and 64 for 8-bit ones
        let base_k = 256 / aty.bits();
        if !(k == base_k && !fp8 || k == 2 * base_k) {
            return self.err(format!("unsupported instruction `{op}` (shape)"));
        }
        let ops = &i.operands;
        if ops.len() != 6 {
            return self.err(format!("`{op}` takes 6 operands"));
        }
        // the selector: an immediate; the threads of a quad holding the metadata (a quad's
        // lanes over the lanes one selector's metadata takes: 4, 2 or 1 choices)
        let fields = if aty == WgTy::TF32 { k / 2 } else { k / 4 };
        let choices = (16 / fields).max(1);
        let sel = match ops[5] {
            Operand::Int(v) if v < u64::from(choices) => v as u8,
            _ => {
                return self.err(format!(
                    "`{op}`: the sparsity selector must be an immediate below {choices}"
                ));
            }
        };
        let flags = if sat { WgmmaForm::SATFINITE } else { 0 } | WgmmaForm::SPARSE;
        let form = WgmmaForm {
            n: 8,
            dty,
            aty,
            bty,
            flags,
        };
        let [nd, na, nb, nc] = form.mma_sp_regs(k);
        let list = |o: &Operand| -> Vec<Operand> {
            match o {
                Operand::Vector(v) => v.clone(),
                o => vec![o.clone()],
            }
        };
        let (dv, av, bv, cv) = (list(&ops[0]), list(&ops[1]), list(&ops[2]), list(&ops[3]));
        if (dv.len(), av.len(), bv.len(), cv.len()) != (nd as usize, na as usize, nb as usize, nc as usize) {
            return self.err(format!(
                "`{op}` takes {nd}, {na}, {nb} and {nc} registers for D, A, B and C"
            ));
        }
        let base = self.rows(u32::from(nd + na + nb + nc) + 1)?;
        let mut at = base + nd;
        let ct = if cty == WgTy::F32 { Ty::F32 } else { Ty::U32 };
        for (v, t) in [
            (&av, Ty::U32),
            (&bv, Ty::U32),
            (&cv, ct),
            (&vec![ops[4].clone()], Ty::U32),
        ] {
            for o in v.iter() {
                let r = self.src(o, t)?;
                self.mov_rows(at, r, guard);
                at += 1;
            }
        }
        self.push(
            Inst::MmaSp {
                form,
                k: k as u8,
                sel,
                base,
            },
            guard,
        );
        for (j, o) in dv.iter().enumerate() {
            let d = self.dst(o)?;
            self.mov_rows(d, base + j as R, guard);
        }
        Ok(())
    }

    fn matrix_product(
        &mut self,
        i: &'m Instruction,
        shape: MmaShape,
        [dty, aty, bty, cty]: [Ty; 4],
        sat: bool,
        guard: PSrc,
    ) -> LResult<()> {
        let ops = &i.operands;
        let int = matches!(aty, Ty::S8 | Ty::U8);
        let types_ok = if int {
            matches!(bty, Ty::S8 | Ty::U8) && dty == Ty::S32 && cty == Ty::S32
        } else {
            aty == bty && dty == cty && !sat
        };
        let Some((na, nb, nc, nd)) = shape.regs(aty, cty).filter(|_| types_ok) else {
            return self.err(format!("unsupported instruction `{}` (types)", i.opcode));
        };
        if ops.len() != 4 {
            return self.err(format!("`{}` takes 4 operands", i.opcode));
        }
        let list = |o: &Operand| -> Vec<Operand> {
            match o {
                Operand::Vector(v) => v.clone(),
                o => vec![o.clone()],
            }
        };
        let (dv, av, bv, cv) = (list(&ops[0]), list(&ops[1]), list(&ops[2]), list(&ops[3]));
        if (dv.len(), av.len(), bv.len(), cv.len()) != (nd as usize, na as usize, nb as usize, nc as usize) {
            return self.err(format!(
                "`{}` takes {nd}, {na}, {nb} and {nc} registers for D, A, B and C",
                i.opcode
            ));
        }
        let base = self.rows(u32::from(nd) + u32::from(na) + u32::from(nb) + u32::from(nc))?;
        let wide = |t: Ty| {
            if t == Ty::F64 {
                Ty::F64
            } else if t == Ty::F32 || t == Ty::F16 {
                t
            } else {
                Ty::U32
            }
        };
        let mut at = base + R::from(nd);
        for (v, t) in [(&av, wide(aty)), (&bv, wide(bty)), (&cv, wide(cty))] {
            for o in v.iter() {
                let t = if t == Ty::F16 { Ty::U32 } else { t };
                let r = self.src(o, t)?;
                self.mov_rows(at, r, guard);
                at += 1;
            }
        }
        self.push(
            Inst::Mma {
                shape,
                aty,
                bty,
                cty,
                dty,
                sat,
                base,
            },
            guard,
        );
        for (k, o) in dv.iter().enumerate() {
            let d = self.dst(o)?;
            self.mov_rows(d, base + k as R, guard);
        }
        Ok(())
    }

    /// `wmma.load`, `wmma.store` and `wmma.mma`: f16, bf16, s8 and u8 operands in m16n16k16,
    /// m32n8k16 and m8n32k16, tf32 in m16n16k8, f64 in m8n8k4 (the PTX ISA's shapes and types).
    fn wmma(&mut self, i: &'m Instruction, mods: &[&str], guard: PSrc) -> LResult<()> {
        let ops = &i.operands;
        let has = |m: &str| mods.contains(&m);
        let shape = match mods
            .iter()
            .find(|m| m.starts_with('m') && m.contains('n'))
            .copied()
        {
            Some("m16n16k16") => MmaShape::M16n16k16,
            Some("m32n8k16") => MmaShape::M32n8k16,
            Some("m8n32k16") => MmaShape::M8n32k16,
            Some("m16n16k8") => MmaShape::M16n16k8,
            Some("m8n8k4") => MmaShape::M8n8k4,
            _ => return self.err(format!("unsupported instruction `{}` (shape)", i.opcode)),
        };
        let tys: Vec<Ty> = mods
            .iter()
            .filter_map(|m| if *m == "tf32" { Some(Ty::F32) } else { Ty::parse(m) })
            .collect();
        let space = mods
            .iter()
            .find_map(|m| match m.split("::").next() {
                Some("shared") => Some(MemSpace::Shared),
                Some("global") => Some(MemSpace::Global),
                _ => None,
            })
            .unwrap_or(MemSpace::Generic);
        let list = |o: &Operand| -> Vec<Operand> {
            match o {
                Operand::Vector(v) => v.clone(),
                o => vec![o.clone()],
            }
        };
        match mods.first().copied() {
            Some("mma") => {
                // wmma.mma.sync.aligned.alayout.blayout.shape.dty{.aty.bty}.cty: the fragments
                // hold the logical elements whatever the layouts they were loaded with (ptxas
                // loads every layout into HMMA's registers: LDSM.M88 or .MT88), so the layouts do
                // not change the product
                if mods.iter().filter(|m| **m == "row" || **m == "col").count() != 2 {
                    return self.err(format!("`{}` needs two layouts (.row / .col)", i.opcode));
                }
                let (dty, aty, cty) = match tys[..] {
                    [d, c] => (d, Ty::F16, c),
                    [d, a, b, c] if a == b => (d, a, c),
                    _ => return self.err(format!("unsupported instruction `{}` (types)", i.opcode)),
                };
                if dty != cty {
                    return self.err(format!(
                        "unsupported instruction `{}` (different D and C types)",
                        i.opcode
                    ));
                }
                let int = matches!(aty, Ty::S8 | Ty::U8);
                if shape.wmma_regs(WmmaFrag::A, aty).is_none()
                    || shape.wmma_regs(WmmaFrag::C, cty).is_none()
                    || (int != (cty == Ty::S32))
                    || (cty == Ty::F16 && aty != Ty::F16)
                {
                    return self.err(format!("unsupported instruction `{}` (types)", i.opcode));
                }
                self.matrix_product(i, shape, [dty, aty, aty, cty], int && has("satfinite"), guard)
            }
            Some("load") | Some("store") => {
                let is_st = mods[0] == "store";
                let frag = match mods.get(1).copied() {
                    Some("a") => WmmaFrag::A,
                    Some("b") => WmmaFrag::B,
                    Some("c") | Some("d") => WmmaFrag::C,
                    _ => return self.err(format!("unsupported instruction `{}`", i.opcode)),
                };
                let col = has("col");
                let Some(&ty) = tys.last() else {
                    return self.err(format!("`{}` has no type", i.opcode));
                };
                let regs_n = shape.wmma_regs(frag, ty);
                if regs_n.is_none() || (is_st && frag != WmmaFrag::C) || !(2..=3).contains(&ops.len()) {
                    return self.err(format!("unsupported instruction `{}`", i.opcode));
                }
                let n = u32::from(regs_n.unwrap_or(8));
                let (ao, vo) = if is_st {
                    (&ops[0], &ops[1])
                } else {
                    (&ops[1], &ops[0])
                };
                let regs = list(vo);
                if regs.len() != n as usize {
                    return self.err(format!("`{}` takes {n} registers", i.opcode));
                }
                let (sym_space, addr) = self.folded_addr(ao, guard)?;
                let space = if space == MemSpace::Generic {
                    sym_space.unwrap_or(MemSpace::Generic)
                } else {
                    space
                };
                let stride = match ops.get(2) {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => self.const_row(16)?,
                };
                let base = self.rows(8)?;
                if is_st {
                    let rt = match ty {
                        Ty::F64 | Ty::F32 => ty,
                        _ => Ty::U32,
                    };
                    for (k, o) in regs.iter().enumerate() {
                        let r = self.src(o, rt)?;
                        self.mov_rows(base + k as R, r, guard);
                    }
                    self.push(
                        Inst::WmmaStore {
                            shape,
                            col,
                            ty,
                            space,
                            base,
                            addr,
                            stride,
                        },
                        guard,
                    );
                } else {
                    self.push(
                        Inst::WmmaLoad {
                            frag,
                            shape,
                            col,
                            ty,
                            space,
                            base,
                            addr,
                            stride,
                        },
                        guard,
                    );
                    for (k, o) in regs.iter().enumerate() {
                        let d = self.dst(o)?;
                        self.mov_rows(d, base + k as R, guard);
                    }
                }
                Ok(())
            }
            _ => self.err(format!("unsupported instruction `{}`", i.opcode)),
        }
    }

    fn push_slct_f(&mut self, t: Ty, d: R, a: R, b: R, c: R, guard: PSrc) -> LResult<()> {
        // slct.T.f32 d, a, b, c  ==  d = c >= 0.0 ? a : b: lowered as setp + selp on a scratch predicate.
        let p = self.new_pred()?;
        let z = self.const_row(0)?;
        self.push(
            Inst::Setp {
                cmp: Cmp::Ge,
                ty: Ty::F32,
                p,
                q: PRED_TRUE,
                a: c,
                b: z,
                bop: None,
                c: PSrc::TRUE,
            },
            guard,
        );
        self.push(
            Inst::Selp {
                ty: t,
                d,
                a,
                b,
                p: PSrc { idx: p, neg: false },
            },
            guard,
        );
        Ok(())
    }

    fn call(&mut self, i: &'m Instruction, guard: PSrc) -> LResult<()> {
        if guard != PSrc::TRUE {
            return self.err("predicated `call` is not supported");
        }
        let mut it = i.operands.iter().peekable();
        let rets: Vec<Operand> = match it.peek() {
            Some(Operand::List(v)) => {
                let v = v.clone();
                it.next();
                v
            }
            _ => Vec::new(),
        };
        let Some(Operand::Name(fname)) = it.next() else {
            return self.err("expected the called function's name");
        };
        let args: Vec<Operand> = match it.next() {
            Some(Operand::List(v)) => v.clone(),
            None => Vec::new(),
            _ => return self.err("expected an argument list"),
        };
        let proto = it.next();
        if it.next().is_some() {
            return self.err("expected `call (rets), f, (args)` or `call (rets), %reg, (args), prototype`");
        }
        if proto.is_some() || matches!(self.lookup(fname), Some(Sym::Reg(..))) {
            return self.indirect_call(fname, &args, &rets);
        }
        if let Some(r) = self.devrt_call(fname, &args, &rets) {
            return r;
        }
        let module = self.module;
        if fname == "vprintf"
            && !module
                .functions
                .iter()
                .any(|f| &f.name == fname && f.body.is_some())
        {
            return self.vprintf(&args, &rets);
        }
        if fname == "__assertfail"
            && !module
                .functions
                .iter()
                .any(|f| &f.name == fname && f.body.is_some())
        {
            return self.assertfail(&args, &rets);
        }
        let Some(f) = module
            .functions
            .iter()
            .find(|f| &f.name == fname && f.body.is_some())
        else {
            return self.err(format!("call of `{fname}`, which has no body in this module"));
        };
        self.inline_call(f, &args, &rets)
    }

    /// Inlines function `f` for a call with `.param` arguments `args` and returns `rets`.
    fn inline_call(&mut self, f: &'m Function, args: &[Operand], rets: &[Operand]) -> LResult<()> {
        let fname = &f.name;
        if self.fstack.contains(&fname.as_str()) {
            return self.recursive_call(f, args, rets);
        }
        if self.depth >= 16 {
            return self.err("calls nested more than 16 deep");
        }
        if f.params.len() != args.len() || f.rets.len() != rets.len() {
            return self.err(format!("argument count does not match `{fname}`"));
        }
        let mut bind = HashMap::new();
        for (p, a) in f.params.iter().chain(&f.rets).zip(args.iter().chain(rets)) {
            let Operand::Name(an) = a else {
                return self.err("call arguments must be `.param` names");
            };
            match self.lookup(an) {
                Some(s @ Sym::CallParam(_)) => {
                    bind.insert(p.name.clone(), s);
                }
                _ => return self.err(format!("`{an}` is not a `.param` variable")),
            }
        }
        self.depth += 1;
        self.fstack.push(fname);
        let saved = std::mem::take(&mut self.scopes);
        let caller = self.body_now;
        self.bodies += 1;
        self.body_now = self.bodies;
        self.body(f, bind, false);
        self.body_now = caller;
        self.scopes = saved;
        self.fstack.pop();
        self.depth -= 1;
        Ok(())
    }

    /// A call of `f` while `f`'s body is being lowered: an [`Inst::Call`] of its out-of-line body
    /// (lowered after the kernel's instructions, [`KCtx::lower_ool`]).
    fn recursive_call(&mut self, f: &'m Function, args: &[Operand], rets: &[Operand]) -> LResult<()> {
        if f.params.len() != args.len() || f.rets.len() != rets.len() {
            return self.err(format!("argument count does not match `{}`", f.name));
        }
        let k = match self.ool.iter().position(|o| std::ptr::eq(o.f, f)) {
            Some(k) => k,
            None => {
                self.ool.push(Ool {
                    f,
                    site: CallSite {
                        entry: u32::MAX,
                        ..CallSite::default()
                    },
                    params: Vec::new(),
                    rets: Vec::new(),
                });
                self.ool.len() - 1
            }
        };
        let mut slots = |decls: &[VarDecl], ops: &[Operand]| -> LResult<Slots> {
            let mut v = Vec::new();
            for (p, a) in decls.iter().zip(ops) {
                let Operand::Name(an) = a else {
                    return self.err("call arguments must be `.param` names");
                };
                match self.lookup(an) {
                    Some(Sym::CallParam(o)) => v.push((o, var_size(p) as u32)),
                    _ => return self.err(format!("`{an}` is not a `.param` variable")),
                }
            }
            Ok(v)
        };
        let a = slots(&f.params, args)?;
        let r = slots(&f.rets, rets)?;
        let site = self.sites.len() as u32;
        self.sites.push((k, a, r));
        self.push(Inst::Call { site }, PSrc::TRUE);
        Ok(())
    }

    /// Lowers out-of-line body `k` at the end of the instructions: its parameters and return
    /// values in local slots of its own, its `ret`s jump to an [`Inst::Ret`]. Refused when it (or
    /// a function inlined into it) declares local variables: their addresses would be the same in
    /// every activation.
    fn lower_ool(&mut self, k: usize) {
        let f = self.ool[k].f;
        let (r0, p0, l0) = (self.n_rows, self.n_preds, self.local_end);
        let locals0 = self.local_vars;
        let mut bind = HashMap::new();
        let mut offs = [Vec::new(), Vec::new()];
        for (i, decls) in [&f.params, &f.rets].into_iter().enumerate() {
            for p in decls {
                let a = if p.align > 0 { p.align as u64 } else { elem_size(p) };
                let o = self.alloc_local(var_size(p), a);
                bind.insert(p.name.clone(), Sym::CallParam(o));
                offs[i].push(o);
            }
        }
        let entry = self.ops.len() as u32;
        self.cur_pos = f.pos;
        self.cur_text = f.name.clone();
        self.loc = None;
        self.inlined = Vec::new();
        self.depth += 1;
        self.fstack.push(&f.name);
        let saved = std::mem::take(&mut self.scopes);
        let caller = self.body_now;
        self.bodies += 1;
        self.body_now = self.bodies;
        self.body(f, bind, false);
        self.scopes = saved;
        self.fstack.pop();
        self.depth -= 1;
        if self.local_vars != locals0 {
            self.cur_pos = f.pos;
            self.cur_text = f.name.clone();
            let _ = self.err::<()>(format!(
                "recursive function `{}` keeps local variables (a stack frame per call), which is not supported",
                f.name
            ));
        }
        self.cur_text = "ret".into();
        self.push(Inst::Ret, PSrc::TRUE);
        self.body_now = caller;
        let [params, rets] = offs;
        let o = &mut self.ool[k];
        o.params = params;
        o.rets = rets;
        o.site = CallSite {
            entry,
            rows: r0..self.n_rows,
            preds: p0..self.n_preds,
            local: l0 as u32..self.local_end as u32,
            args: Vec::new(),
            rets: Vec::new(),
        };
    }
}

impl<'m> KCtx<'m> {
    /// `call (ret), vprintf, (fmt, args)`: the device runtime's `printf`.
    fn vprintf(&mut self, args: &[Operand], rets: &[Operand]) -> LResult<()> {
        if args.len() != 2 || rets.len() > 1 {
            return self.err("`vprintf` takes a format and an argument buffer");
        }
        let mut offs = [0u32; 3];
        let mut have_ret = false;
        for (i, a) in args.iter().chain(rets).enumerate() {
            let Operand::Name(an) = a else {
                return self.err("call arguments must be `.param` names");
            };
            match self.lookup(an) {
                Some(Sym::CallParam(o)) => offs[i] = o,
                _ => return self.err(format!("`{an}` is not a `.param` variable")),
            }
            have_ret |= i == 2;
        }
        let ret = if have_ret {
            offs[2]
        } else {
            // no return parameter: write it to a scratch slot
            self.alloc_local(4, 4)
        };
        self.push(
            Inst::Printf {
                fmt: offs[0],
                args: offs[1],
                ret,
            },
            PSrc::TRUE,
        );
        Ok(())
    }
}

impl<'m> KCtx<'m> {
    /// `call.uni __assertfail, (msg, file, line, func, charSize)`: the device runtime's failing
    /// `assert` (nvcc branches around the call when the condition holds). Kept as one instruction
    /// with the local offsets of its parameters; `charSize` (always 1) is not needed.
    fn assertfail(&mut self, args: &[Operand], rets: &[Operand]) -> LResult<()> {
        if args.len() != 5 || !rets.is_empty() {
            return self.err("`__assertfail` takes a message, a file, a line, a function and a char size");
        }
        let mut offs = [0u32; 4];
        for (i, a) in args.iter().take(4).enumerate() {
            let Operand::Name(an) = a else {
                return self.err("call arguments must be `.param` names");
            };
            match self.lookup(an) {
                Some(Sym::CallParam(o)) => offs[i] = o,
                _ => return self.err(format!("`{an}` is not a `.param` variable")),
            }
        }
        self.push(
            Inst::AssertFail {
                msg: offs[0],
                file: offs[1],
                line: offs[2],
                func: offs[3],
            },
            PSrc::TRUE,
        );
        Ok(())
    }
}

fn parse_cmp(m: &str) -> Option<Cmp> {
    Some(match m {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "lt" => Cmp::Lt,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "ge" => Cmp::Ge,
        "lo" => Cmp::Lo,
        "ls" => Cmp::Ls,
        "hi" => Cmp::Hi,
        "hs" => Cmp::Hs,
        "equ" => Cmp::Equ,
        "neu" => Cmp::Neu,
        "ltu" => Cmp::Ltu,
        "leu" => Cmp::Leu,
        "gtu" => Cmp::Gtu,
        "geu" => Cmp::Geu,
        "num" => Cmp::Num,
        "nan" => Cmp::Nan,
        _ => return None,
    })
}

/// The directed rounding among an instruction's modifiers (`.rz`, `.rm`, `.rp`), if any.
fn directed(mods: &[&str]) -> Option<Rnd> {
    mods.iter().find_map(|m| match *m {
        "rz" => Some(Rnd::Rz),
        "rm" => Some(Rnd::Rm),
        "rp" => Some(Rnd::Rp),
        _ => None,
    })
}

/// Immediate post-dominators over pcs `entry..end` (program-wide pcs). `u32::MAX` = the exit.
pub fn immediate_post_dominators(ops: &[Op], entry: u32, end: u32) -> Vec<u32> {
    let n = (end - entry) as usize;
    let exit = n; // virtual exit node
    let succ = |i: usize| -> ([usize; 2], usize) {
        let op = &ops[entry as usize + i];
        match op.inst {
            Inst::Exit if op.guard == PSrc::TRUE => ([exit, 0], 1),
            Inst::Ret => ([exit, 0], 1),
            // a trap (or `brkpt`) ends the launch, so the lanes that reach it never reconverge:
            // its path is taken as joining the code after it, which keeps the join of a
            // branch around a guard such as `@p bra L; brkpt; L:` at `L` (were the trap an exit,
            // the lanes of `if (elected) {..}` whose body holds such a guard would rejoin the
            // others only at the function's end, and a lane spinning on an mbarrier its
            // siblings arrive on would wait forever)
            Inst::Bra { target, .. } => {
                let t = if target >= entry && target < end {
                    (target - entry) as usize
                } else {
                    exit
                };
                if op.guard == PSrc::TRUE {
                    ([t, 0], 1)
                } else {
                    ([t, (i + 1).min(exit)], 2)
                }
            }
            _ => ([(i + 1).min(exit), 0], 1),
        }
    };
    // predecessor lists in the forward graph = successors in the reverse graph
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        let (s, k) = succ(i);
        for &t in &s[..k] {
            preds[t].push(i);
        }
    }
    // post-order of the reverse graph from exit
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    seen[exit] = true;
    while let Some((v, k)) = stack.pop() {
        if k < preds[v].len() {
            stack.push((v, k + 1));
            let w = preds[v][k];
            if !seen[w] {
                seen[w] = true;
                stack.push((w, 0));
            }
        } else {
            order.push(v);
        }
    }
    let mut po = vec![usize::MAX; n + 1];
    for (k, &v) in order.iter().enumerate() {
        po[v] = k;
    }
    const UNDEF: usize = usize::MAX;
    let mut ipdom = vec![UNDEF; n + 1];
    ipdom[exit] = exit;
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev() {
            if v == exit {
                continue;
            }
            let (s, k) = succ(v);
            let mut new = UNDEF;
            for &w in &s[..k] {
                if ipdom[w] == UNDEF {
                    continue;
                }
                new = if new == UNDEF {
                    w
                } else {
                    let (mut a, mut b) = (new, w);
                    while a != b {
                        while po[a] < po[b] {
                            a = ipdom[a];
                        }
                        while po[b] < po[a] {
                            b = ipdom[b];
                        }
                    }
                    a
                };
            }
            if new != UNDEF && ipdom[v] != new {
                ipdom[v] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|i| {
            let d = ipdom[i];
            if d == UNDEF || d == exit {
                u32::MAX
            } else {
                entry + d as u32
            }
        })
        .collect()
}

/// Lowers every kernel of a module. Device functions are inlined at their call sites.
///
/// Lowering is per kernel: a kernel whose body (or a function it calls) holds an instruction that
/// is not modelled, an unknown name, ... is left out of [`Program::kernels`] and listed in
/// [`Program::failed`] with its errors, and the other kernels lower. The result is `Err` with every
/// error (position and text) when a module-scope declaration is wrong or when no kernel lowers.
pub fn lower(m: &Module) -> Result<Program, Vec<LowerError>> {
    let mut errors = Vec::new();
    let mut module_syms = HashMap::new();
    let mut vars = Vec::new();
    let mut global_init: Vec<u8> = Vec::new();
    let mut const_bank: Vec<u8> = Vec::new();
    let mut module_shared = Vec::new();
    for v in &m.globals {
        match v.space {
            StateSpace::Shared => module_shared.push(v),
            StateSpace::Global | StateSpace::Const => {
                let is_const = v.space == StateSpace::Const;
                let buf = if is_const {
                    &mut const_bank
                } else {
                    &mut global_init
                };
                let align = if v.align > 0 { v.align as u64 } else { elem_size(v) };
                // The CUDA driver gives every `.global` variable of a module its own 256-byte-aligned
                // start, in declaration order (`cudaGetSymbolAddress` on the GPU: calibration/run/vars.cu,
                // h200/vars.stdout); the cubin packs them, which the GPU does not follow.
                let align = if is_const {
                    align
                } else {
                    align.max(GLOBAL_VAR_ALIGN)
                };
                let off = align_up(buf.len() as u64, align);
                let size = var_size(v);
                if off + size > (1 << 30) {
                    errors.push(LowerError {
                        pos: v.pos,
                        text: v.name.clone(),
                        message: "module variable too large".into(),
                    });
                    continue;
                }
                buf.resize((off + size) as usize, 0);
                let es = elem_size(v) / v.vec as u64;
                let ty = Ty::parse(&v.ty);
                for (k, val) in v.init.iter().enumerate() {
                    let at = (off + k as u64 * es) as usize;
                    if at as u64 + es > off + size {
                        errors.push(LowerError {
                            pos: v.pos,
                            text: v.name.clone(),
                            message: "too many initialiser values".into(),
                        });
                        break;
                    }
                    let bits: u64 = match (val, ty) {
                        (Operand::Int(x), Some(Ty::F32)) => (*x as i64 as f32).to_bits() as u64,
                        (Operand::Int(x), Some(Ty::F64)) => (*x as i64 as f64).to_bits(),
                        (Operand::Int(x), _) => *x,
                        (Operand::F32(b), Some(Ty::F64)) => (f32::from_bits(*b) as f64).to_bits(),
                        (Operand::F32(b), _) => *b as u64,
                        (Operand::F64(b), Some(Ty::F32)) => (f64::from_bits(*b) as f32).to_bits() as u64,
                        (Operand::F64(b), _) => *b,
                        (Operand::Name(n), _) if indirect::function_named(m, n).is_some() => {
                            indirect::function_named(m, n).unwrap_or(0)
                        }
                        _ => {
                            errors.push(LowerError {
                                pos: v.pos,
                                text: v.name.clone(),
                                message: "unsupported initialiser (only numbers and function names)".into(),
                            });
                            break;
                        }
                    };
                    buf[at..at + es as usize].copy_from_slice(&bits.to_le_bytes()[..es as usize]);
                }
                let addr = if is_const { off } else { GLOBAL_VAR_BASE + off };
                module_syms.insert(
                    v.name.clone(),
                    if is_const {
                        Sym::Const(addr)
                    } else {
                        Sym::Global(addr)
                    },
                );
                vars.push(ModuleVar {
                    name: v.name.clone(),
                    is_const,
                    addr,
                    size,
                });
            }
            _ => errors.push(LowerError {
                pos: v.pos,
                text: v.name.clone(),
                message: "unsupported module-scope state space".into(),
            }),
        }
    }
    // every function's address (`mov.u64 %rd, f;`), unless a variable has the name
    let mut functions = Vec::new();
    for (i, f) in m.functions.iter().enumerate() {
        if f.body.is_some() && !f.is_entry && !module_syms.contains_key(&f.name) {
            module_syms.insert(f.name.clone(), Sym::Global(indirect::func_address(i)));
            functions.push((f.name.clone(), indirect::func_address(i)));
        }
    }
    // every kernel's address (`mov.u64 %rd, kernel;` before a device-side launch), likewise
    let mut kernel_addresses = Vec::new();
    let mut calls: Vec<CallSite> = Vec::new();
    for (i, f) in m.functions.iter().enumerate() {
        if f.is_entry && !module_syms.contains_key(&f.name) {
            module_syms.insert(f.name.clone(), Sym::Global(indirect::func_address(i)));
            kernel_addresses.push((f.name.clone(), indirect::func_address(i)));
        }
    }
    let mut ops = Vec::new();
    let mut info = Vec::new();
    let mut kernels = Vec::new();
    let mut failed: Vec<KernelFailure> = Vec::new();
    let mut entries = Vec::new();
    for f in m.functions.iter().filter(|f| f.is_entry) {
        // module-scope shared variables used by this kernel (or its callees), in declaration order
        let used = used_names(m, f);
        let mut syms = module_syms.clone();
        let mut ctx = KCtx {
            module: m,
            module_syms: &module_syms,
            kernel_shared: HashMap::new(),
            placed: HashMap::new(),
            ops: std::mem::take(&mut ops),
            info: std::mem::take(&mut info),
            n_rows: 0,
            row_init: Vec::new(),
            const_rows: HashMap::new(),
            n_preds: 0,
            shared: Vec::new(),
            shared_end: 0,
            dyn_align: 1,
            has_dyn: Vec::new(),
            local_end: 0,
            cc_row: None,
            scopes: Vec::new(),
            errors: Vec::new(),
            loc: None,
            inlined: Vec::new(),
            loc_sites: HashMap::new(),
            cur_pos: f.pos,
            cur_text: f.name.clone(),
            depth: 0,
            body_now: 0,
            bodies: 0,
            uses_reserved: false,
            setmaxnreg: Vec::new(),
            devrt_err: None,
            contract: None,
            fstack: Vec::new(),
            local_vars: 0,
            ool: Vec::new(),
            sites: Vec::new(),
        };
        // ptxas's layout (own cubins, calibration/layout/: every static shared address the machine
        // code of their kernels forms): the kernel body's own static `.shared` variables first, in
        // declaration order (NVVM declares there the `__shared__` variables only this kernel uses,
        // module-scope ones included), then the module-scope ones the kernel or its callees use
        // (those several functions share), in declaration order; dynamic arrays after both
        for s in f.body.iter().flatten() {
            if let Stmt::Var(v) = s
                && v.space == StateSpace::Shared
                && !KCtx::dynamic_shared(v)
            {
                let o = ctx.alloc_shared(v);
                ctx.placed.insert((v.pos.line, v.pos.col), o);
            }
        }
        for v in &module_shared {
            if used.contains(&v.name.as_str()) {
                let o = ctx.alloc_shared(v);
                syms.insert(v.name.clone(), Sym::Shared(o));
                ctx.kernel_shared.insert(v.name.clone(), Sym::Shared(o));
            }
        }
        let mut bind = HashMap::new();
        let mut params = Vec::new();
        let mut poff = 0u64;
        for p in &f.params {
            let align = if p.align > 0 { p.align as u64 } else { elem_size(p) };
            poff = align_up(poff, align);
            let size = var_size(p);
            bind.insert(p.name.clone(), Sym::KParam(poff as u32));
            params.push(ParamInfo {
                name: p.name.clone(),
                offset: poff as u32,
                size: size as u32,
                ty: p.ty.clone(),
            });
            poff += size;
        }
        let entry = ctx.ops.len() as u32;
        ctx.scopes.push(syms);
        ctx.body(f, bind, true);
        ctx.scopes.clear();
        // a kernel falls off its end: exit
        ctx.cur_text = "}".into();
        ctx.push(Inst::Exit, PSrc::TRUE);
        // recursive functions' out-of-line bodies (lowering one may call for another)
        let mut k = 0;
        while k < ctx.ool.len() {
            ctx.lower_ool(k);
            k += 1;
        }
        let end = ctx.ops.len() as u32;
        // dynamic shared base
        let dyn_base = align_up(ctx.shared_end, ctx.dyn_align as u64) as u32;
        for s in &mut ctx.shared {
            if s.dynamic {
                s.offset = dyn_base;
            }
        }
        if let Some(&r) = ctx.const_rows.get(&(0, true)) {
            for (row, init) in &mut ctx.row_init {
                if *row == r {
                    *init = RowInit::Const(dyn_base as u64);
                }
            }
        }
        // patch shared symbols recorded as u32::MAX offsets in addresses: handled by dyn_row above
        let ipd = immediate_post_dominators(&ctx.ops, entry, end);
        for (k, op) in ctx.ops[entry as usize..end as usize].iter_mut().enumerate() {
            if let Inst::Bra { reconv, .. } = &mut op.inst {
                *reconv = ipd[k];
            }
        }
        entries.push(f.name.clone());
        if !ctx.errors.is_empty() {
            // this kernel does not lower: drop its instructions, keep the others
            ctx.ops.truncate(entry as usize);
            ctx.info.truncate(entry as usize);
            failed.push(KernelFailure {
                name: f.name.clone(),
                errors: std::mem::take(&mut ctx.errors),
            });
            ops = ctx.ops;
            info = ctx.info;
            continue;
        }
        let base = calls.len() as u32;
        for (k, a, r) in std::mem::take(&mut ctx.sites) {
            let o = &ctx.ool[k];
            let mut site = o.site.clone();
            site.args = a.iter().zip(&o.params).map(|(&(c, n), &b)| (c, b, n)).collect();
            site.rets = r.iter().zip(&o.rets).map(|(&(c, n), &b)| (b, c, n)).collect();
            calls.push(site);
        }
        for op in &mut ctx.ops[entry as usize..end as usize] {
            if let Inst::Call { site } = &mut op.inst {
                *site += base;
            }
        }
        kernels.push(Kernel {
            name: f.name.clone(),
            entry,
            end,
            params,
            param_size: poff as u32,
            n_rows: ctx.n_rows,
            row_init: ctx.row_init,
            n_preds: ctx.n_preds,
            shared: ctx.shared,
            static_smem: ctx.shared_end as u32,
            dyn_smem_base: dyn_base,
            local_size: ctx.local_end as u32,
            reqntid: f.reqntid,
            maxntid: f.maxntid,
            reserved_smem: if ctx.uses_reserved { RESERVED_SMEM_BYTES } else { 0 },
            reqnctapercluster: f.reqnctapercluster,
            explicitcluster: f.explicitcluster || f.reqnctapercluster.is_some(),
            setmaxnreg: ctx.setmaxnreg,
        });
        ops = ctx.ops;
        info = ctx.info;
    }
    if errors.is_empty() && (!kernels.is_empty() || failed.is_empty()) {
        Ok(Program {
            ops,
            info,
            kernels,
            files: m.files.clone(),
            vars,
            global_init,
            const_bank,
            failed,
            entries,
            functions,
            kernel_addresses,
            calls,
        })
    } else {
        // module-scope errors, or no kernel lowered: every error of the module
        for f in failed {
            errors.extend(f.errors);
        }
        Err(errors)
    }
}

fn used_names<'a>(m: &'a Module, f: &'a Function) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut todo = vec![f];
    let mut done: Vec<&str> = Vec::new();
    while let Some(f) = todo.pop() {
        if done.contains(&f.name.as_str()) {
            continue;
        }
        done.push(&f.name);
        for s in f.body.iter().flatten() {
            if let Stmt::Inst(i) = s {
                for o in &i.operands {
                    collect_names(o, &mut out);
                }
                for o in &i.operands {
                    // callees, and functions whose address is taken in code
                    if let Operand::Name(n) = o
                        && let Some(g) = m.functions.iter().find(|g| &g.name == n && g.body.is_some())
                    {
                        todo.push(g);
                    }
                }
                if i.opcode.starts_with("call")
                    && i.operands
                        .iter()
                        .filter(|o| matches!(o, Operand::List(_)))
                        .count()
                        >= 1
                    && i.operands.len() >= 3
                    && matches!(i.operands.last(), Some(Operand::Name(n)) if !m.functions.iter().any(|g| &g.name == n))
                {
                    // an indirect call: any function whose address is taken may run
                    let taken = indirect::address_taken(m);
                    todo.extend(
                        m.functions
                            .iter()
                            .filter(|g| g.body.is_some() && taken.contains(g.name.as_str())),
                    );
                }
            }
        }
    }
    out
}

fn collect_names<'a>(o: &'a Operand, out: &mut Vec<&'a str>) {
    match o {
        Operand::Name(n) => out.push(n),
        Operand::Addr { base: Some(n), .. } => out.push(n),
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|x| collect_names(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn lower_src(src: &str) -> Result<Program, Vec<LowerError>> {
        let (m, d) = parse(src);
        assert!(d.is_empty(), "{d:?}");
        lower(&m)
    }

    fn assert_kernel(args: &str) -> String {
        format!(
            ".version 9.0\n.target sm_90\n.address_size 64\n\
             .extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param .b64 a4);\n\
             .visible .entry k()\n{{\n.reg .b64 %rd<2>;\nmov.u64 %rd1, 0;\n{{\n\
             .param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n.param .b64 param1;\nst.param.b64 [param1+0], %rd1;\n\
             .param .b32 param2;\nst.param.b32 [param2+0], 7;\n.param .b64 param3;\nst.param.b64 [param3+0], %rd1;\n\
             .param .b64 param4;\nst.param.b64 [param4+0], 1;\ncall.uni __assertfail, ({args});\n}}\nret;\n}}\n"
        )
    }

    #[test]
    fn assertfail_is_kept_as_one_instruction_with_its_parameters() {
        let p = lower_src(&assert_kernel("param0, param1, param2, param3, param4")).unwrap();
        let k = p.kernel("k").unwrap();
        let found: Vec<Inst> = p.ops[k.entry as usize..k.end as usize]
            .iter()
            .filter(|op| matches!(op.inst, Inst::AssertFail { .. }))
            .map(|op| op.inst)
            .collect();
        assert_eq!(found.len(), 1);
        let Inst::AssertFail {
            msg,
            file,
            line,
            func,
        } = found[0]
        else {
            unreachable!()
        };
        // four distinct parameter slots of the thread's local memory
        let mut offs = [msg, file, line, func];
        offs.sort_unstable();
        assert!(offs.windows(2).all(|w| w[0] < w[1]), "{offs:?}");
        assert!(u64::from(offs[3]) < u64::from(k.local_size));
    }

    #[test]
    fn assertfail_with_the_wrong_arguments_fails_the_kernel() {
        let r = lower_src(&assert_kernel("param0, param1, param2, param3"));
        let e = match r {
            Err(e) => e,
            Ok(p) => p.kernel_error("k").unwrap().to_vec(),
        };
        assert!(e.iter().any(|e| e.to_string().contains("__assertfail")), "{e:?}");
    }

    #[test]
    fn unsupported_instruction_is_an_error_with_line() {
        let e = lower_src(".visible .entry k()\n{\n .reg .b32 %r<2>;\n foo.bar.u32 %r1, %r0;\n ret;\n}\n")
            .unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].pos.line, 4);
        assert!(e[0].message.contains("foo.bar.u32"), "{}", e[0].message);
    }

    #[test]
    fn an_unsupported_instruction_fails_only_the_kernels_that_reach_it() {
        let src = ".func bad()\n{\n .reg .b32 %r<2>;\n foo.bar.u32 %r1, %r0;\n ret;\n}\n\
            .visible .entry good(.param .u64 p)\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, 7;\n ret;\n}\n\
            .visible .entry viaCall()\n{\n call bad, ();\n ret;\n}\n\
            .visible .entry direct()\n{\n .reg .b32 %r<2>;\n frob.u32 %r1, %r0;\n ret;\n}\n\
            .visible .entry good2()\n{\n ret;\n}\n";
        let p = lower_src(src).unwrap();
        let names: Vec<&str> = p.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["good", "good2"]);
        assert_eq!(p.all_kernel_names(), ["good", "viaCall", "direct", "good2"]);
        let e = p.kernel_error("viaCall").unwrap();
        assert_eq!((e.len(), e[0].pos.line), (1, 4));
        assert!(e[0].message.contains("foo.bar.u32"), "{}", e[0].message);
        let e = p.kernel_error("direct").unwrap();
        assert!(e[0].message.contains("frob.u32"), "{}", e[0].message);
        assert!(p.kernel_error("good").is_none());
        // the lowered kernels' instructions are contiguous and end with their exit
        let g2 = p.kernel("good2").unwrap();
        assert_eq!(g2.end as usize, p.ops.len());
        assert_eq!(p.ops.len(), p.info.len());
        let g = p.kernel("good").unwrap();
        assert_eq!(g.end, g2.entry);
        assert_eq!(p.ops[g.end as usize - 1].inst, Inst::Exit);
        // a module whose every kernel fails is an error with all of them
        let e =
            lower_src(".visible .entry a()\n{\n frob;\n}\n.visible .entry b()\n{\n frab;\n}\n").unwrap_err();
        assert_eq!(e.len(), 2);
    }

    #[test]
    fn prefetches_are_no_ops_and_tensor_copies_lower() {
        let p = lower_src(
            ".visible .entry k(.param .u64 a)\n{\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [a];\n\
             cp.async.bulk.prefetch.L2.global [%rd1], 256;\n griddepcontrol.wait;\n ret;\n}\n",
        )
        .unwrap();
        assert_eq!(p.ops[1].inst, Inst::Nop);
        assert_eq!(p.ops[2].inst, Inst::Nop);
        let p = lower_src(
            ".visible .entry k()\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n .reg .b16 %rs<2>;\n\
             cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2}], [%r2];\n\
             cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1, {%r1, %r2}], [%r2], %rs1;\n\
             cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.tile.bulk_group [%rd1, {%r1, %r2, %r0}], [%r1];\n\
             cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r0}], [%r2], {%rs1};\n\
             tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r1], 1, %r2;\n ret;\n}\n",
        )
        .unwrap();
        let tma: Vec<TmaOp> = p
            .ops
            .iter()
            .filter_map(|o| match o.inst {
                Inst::Tma { op, .. } => Some(op),
                _ => None,
            })
            .collect();
        let kinds: Vec<(TmaKind, u8, bool, bool)> = tma
            .iter()
            .map(|o| (o.kind, o.rank, o.im2col, o.multicast))
            .collect();
        assert_eq!(
            kinds,
            [
                (TmaKind::Load, 2, false, false),
                (TmaKind::Load, 2, false, true),
                (TmaKind::Reduce(TmaRed::Xor), 3, false, false),
                (TmaKind::Load, 3, true, false),
                (
                    TmaKind::Replace {
                        field: TmField::BoxDim,
                        shared: true
                    },
                    0,
                    false,
                    false
                ),
            ]
        );
        // wrong coordinate counts and missing im2col offsets are errors that say so
        for (bad, why) in [
            (
                "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2}], [%r2];",
                "takes 3 coordinates",
            ),
            (
                "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r0}], [%r2];",
                "im2col offsets",
            ),
            (
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [%r1], [%rd1, {%r1, %r2}], [%r2], %rs1;",
                "cta_group::2",
            ),
        ] {
            let e = lower_src(&format!(
                ".visible .entry k()\n{{\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n .reg .b16 %rs<2>;\n {bad}\n ret;\n}}\n"
            ))
            .unwrap_err();
            assert!(e[0].message.contains(why), "{}", e[0].message);
        }
    }

    #[test]
    fn labels_are_local_to_their_block() {
        // two inlined copies of the same inline-assembly wait loop, each with its label `W`
        let src = ".visible .entry k()\n{\n .reg .pred %p<2>;\n\
            {\n W:\n setp.ne.u32 %p0, 0, 0;\n @%p0 bra W;\n }\n\
            {\n W:\n setp.ne.u32 %p1, 0, 0;\n @%p1 bra W;\n }\n\
            bra DONE;\n DONE:\n ret;\n}\n";
        let p = lower_src(src).unwrap();
        let targets: Vec<u32> = p
            .ops
            .iter()
            .filter_map(|o| match o.inst {
                Inst::Bra { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        // 0: setp, 1: bra 0, 2: setp, 3: bra 2, 4: bra 5, 5: exit
        assert_eq!(targets, [0, 2, 5]);
    }

    #[test]
    fn shared_layout_static_then_dynamic() {
        let p = lower_src(
            ".extern .shared .align 16 .b8 dyn[];\n.visible .entry k()\n{\n .reg .b32 %r<3>;\n .shared .align 4 .b8 a[6];\n .shared .align 8 .b8 b[8];\n mov.u32 %r1, dyn;\n mov.u32 %r2, b;\n ret;\n}\n",
        )
        .unwrap();
        let k = &p.kernels[0];
        // the body's own variables first, then the module-scope ones (the dynamic array last)
        assert_eq!((k.shared[0].offset, k.shared[0].size), (0, 6));
        assert_eq!((k.shared[1].offset, k.shared[1].size), (8, 8));
        assert_eq!(k.shared[2].name, "dyn");
        assert!(k.shared[2].dynamic);
        assert_eq!(k.static_smem, 16);
        assert_eq!(k.dyn_smem_base, 16);
        assert_eq!(k.shared[2].offset, 16);
        // the dyn symbol's row holds the base
        assert!(k.row_init.contains(&(3, RowInit::Const(16)))); // rows 0..3 are %r0..%r2
    }

    #[test]
    fn ipdom_of_if_else() {
        // 0: @p bra 3; 1: a; 2: bra 4; 3: b; 4: exit
        let p = PSrc { idx: 0, neg: false };
        let nop = Op {
            inst: Inst::Nop,
            guard: PSrc::TRUE,
        };
        let ops = vec![
            Op {
                inst: Inst::Bra { target: 3, reconv: 0 },
                guard: p,
            },
            nop,
            Op {
                inst: Inst::Bra { target: 4, reconv: 0 },
                guard: PSrc::TRUE,
            },
            nop,
            Op {
                inst: Inst::Exit,
                guard: PSrc::TRUE,
            },
        ];
        let d = immediate_post_dominators(&ops, 0, 5);
        assert_eq!(d[0], 4);
        assert_eq!(d[1], 2);
        assert_eq!(d[3], 4);
        assert_eq!(d[4], u32::MAX);
    }

    #[test]
    fn a_guarded_trap_does_not_move_the_join() {
        // 0: @p bra 4 (lanes not elected skip the body); 1: @q bra 3; 2: trap; 3: body; 4: exit
        let (p, q) = (PSrc { idx: 0, neg: false }, PSrc { idx: 1, neg: false });
        let op = |inst, guard| Op { inst, guard };
        let ops = vec![
            op(Inst::Bra { target: 4, reconv: 0 }, p),
            op(Inst::Bra { target: 3, reconv: 0 }, q),
            op(Inst::Trap, PSrc::TRUE),
            op(Inst::Nop, PSrc::TRUE),
            op(Inst::Exit, PSrc::TRUE),
        ];
        let d = immediate_post_dominators(&ops, 0, 5);
        // the elected lanes rejoin the others at 4, not at the exit
        assert_eq!(d[0], 4);
        assert_eq!(d[1], 3);
        assert_eq!(d[2], 3);
    }
}
