//! The fix advisor: for every shared array whose accesses conflict, the cheapest layout change that
//! removes the conflicts, proven on the kernel's own recorded accesses.
//!
//! Steps:
//! 1. [`record`] emulates the launch with a [`TraceSink`] per block: every warp-level shared access
//!    (after the machine-code reconciliation: fused accesses once, wider), deduplicated with a count.
//! 2. [`arrays`] lists the kernel's shared arrays (static ones at their offsets; the dynamic shared
//!    memory is one array of the launch's size); each lane's address maps back to one array.
//! 3. [`advise`] tries, per conflicting array, row **padding** ([`Transform::Pad`]: rows of a length
//!    implied by the accesses, the lane strides, grown by 1..k elements) and CuTe-style **XOR
//!    swizzles** ([`Transform::Swizzle`], `Swizzle<B,M,S>` on the array's byte offset). Each candidate
//!    re-lays the shared window out (arrays after a padded one move), remaps every recorded lane
//!    address and counts the requests again with the bank model's fast path
//!    ([`warpscope_model::bank::wavefronts`]). The best candidate is the one with the fewest
//!    wavefronts, then the smallest occupancy loss, then padding before swizzling (simpler source
//!    change), then the fewest extra bytes. Where neither reaches the ideal, [`permute::search`]
//!    looks for a **bank permutation** ([`Transform::Permute`]: units move to other columns of their
//!    bank row, through a lookup table in the source); it is recommended only when it reaches the
//!    ideal, with the best padding or swizzle kept as the table-free alternative.
//! 4. [`source_edit`] finds the declaration in the `.cu` text and writes the changed line; for
//!    dynamic shared memory and swizzles it writes the index expression.
//! 5. [`what_if`] counts the original layout and the suggested changes under other architectures'
//!    bank rules (CC 1.x to 12.x, Kepler in both bank modes).
//!
//! Invariant: a transform is a bijection of the array's bytes onto its new extent that keeps every
//! recorded access contiguous ([`Transform::preserves_accesses`]), so applying it to every access of
//! the array cannot change what the kernel computes; only bank mapping and size change.
//!
//! ```
//! use warpscope_analysis::fix::Transform;
//! // int tile[16][32] padded by two ints per row (the seed's IPAD 2).
//! let t = Transform::Pad { row_bytes: 128, pad_bytes: 8 };
//! assert_eq!(t.map(128), 136);
//! assert_eq!(t.new_size(2048), 2176);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use warpscope_emu::{AccessOp, Kernel, Launch, Limits, MemEvent, Program, SharedRemap, Sink, Space};
use warpscope_model::arch::{Arch, BankMode};
use warpscope_model::bank::{self, Config, Op};
use warpscope_model::{matrix, occupancy};

use crate::banks::{MatrixForm, MatrixForms, Side};
use crate::reconcile::{Reconciliation, Role};

pub mod data;
pub mod hopper;
pub mod permute;
pub mod picture;

/// Errors of the fix advisor.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FixError {
    /// The emulator could not run the launch.
    #[error(transparent)]
    Emu(#[from] warpscope_emu::EmuError),
    /// The bank model refused a recorded request.
    #[error("pc {pc}: {source}")]
    Bank {
        /// The instruction.
        pc: u32,
        /// Why.
        source: bank::BankError,
    },
    /// An architecture target that cannot be read.
    #[error("architecture `{text}`: {reason}")]
    Target {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

// ---------------------------------------------------------------------------------------------
// Recording

/// What instruction a recorded access is, and so which model counts its wavefronts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// `ld` / `st` / `atom`: the bank model ([`warpscope_model::bank`]).
    #[default]
    Plain,
    /// `ldmatrix` (side load, SASS LDSM) or `stmatrix` (side store, STSM) of this many 8x8
    /// matrices: `addrs` are the 16-byte row addresses, counted by
    /// [`warpscope_model::matrix::matrix_wavefronts`].
    Matrix(u8),
    /// `cp.async` (side store: it writes shared memory; SASS LDGSTS): `addrs` are the destinations,
    /// [`Access::src`] the global sources, counted by [`warpscope_model::matrix::ldgsts_wavefronts`];
    /// `None` where no rule applies (a `src-size` operand).
    Copy(Option<matrix::CopyKind>),
}

/// One warp-level shared access as the bank model (or, for [`Form::Matrix`] and [`Form::Copy`],
/// the matrix model) counts it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Access {
    /// Program-wide pc.
    pub pc: u32,
    /// Load or store (atomics: load, with `atomic` set; they count on both sides).
    pub side: Side,
    /// Read-modify-write.
    pub atomic: bool,
    /// Bytes per lane as counted (the fused width where the machine code fused accesses).
    pub width: u8,
    /// Bytes per lane as PTX wrote it (the element access size).
    pub ptx_width: u8,
    /// Lanes that access.
    pub mask: u32,
    /// Byte offset of each lane in the shared window (0 for inactive lanes).
    pub addrs: [u32; 32],
    /// The instruction kind.
    pub form: Form,
    /// `cp.async`: each lane's global source (0 for inactive lanes); `None` otherwise.
    pub src: Option<Box<[u64; 32]>>,
}

/// One block's recording sink: every shared access, deduplicated, with its count.
pub struct TraceSink {
    recon: Arc<Reconciliation>,
    forms: Option<Arc<MatrixForms>>,
    // FxHash: the key is 32 addresses and a few fields, hashed once per warp request.
    seen: FxHashMap<Access, u64>,
    hopper: hopper::HopperTrace,
}

impl TraceSink {
    /// A sink counting as `recon` says.
    pub fn new(recon: Arc<Reconciliation>) -> Self {
        TraceSink {
            recon,
            forms: None,
            seen: FxHashMap::default(),
            hopper: hopper::HopperTrace::default(),
        }
    }

    /// The forms of the program's `ldmatrix` / `stmatrix` / `cp.async` instructions
    /// ([`MatrixForms::of`]). Without them the matrix count is read off the lanes that supply rows
    /// and a 16-byte `cp.async` is not counted (`.ca` and `.cg` differ).
    pub fn with_forms(mut self, forms: Arc<MatrixForms>) -> Self {
        self.forms = Some(forms);
        self
    }
}

impl Sink for TraceSink {
    fn tma_load(&mut self, _warp: u32, pc: u32, dst: u64, swizzle: u8, row_bytes: u64, rows: u64) {
        self.hopper.tma_loads.insert(hopper::TmaLoad {
            pc,
            dst,
            swizzle,
            row_bytes,
            rows,
        });
    }

    fn wgmma_desc(
        &mut self,
        _warp: u32,
        pc: u32,
        form: warpscope_ptx::inst::WgmmaForm,
        a: Option<u64>,
        b: u64,
    ) {
        self.hopper.wgmma(pc, form, a, b);
    }

    fn mem(&mut self, e: &MemEvent<'_>) {
        if e.space != Space::Shared || e.mask == 0 {
            return;
        }
        let form = self.forms.as_ref().and_then(|f| f.get(e.pc));
        let (side, atomic, form) = match e.op {
            AccessOp::Load => (Side::Load, false, Form::Plain),
            AccessOp::Store => (Side::Store, false, Form::Plain),
            AccessOp::Atomic => (Side::Load, true, Form::Plain),
            AccessOp::LdMatrix | AccessOp::StMatrix => {
                // The highest lane that supplies a row says how many matrices there are when the
                // program's form is not at hand.
                let num = match form {
                    Some(MatrixForm::Matrices(n)) => n,
                    _ => match 32 - e.mask.leading_zeros() {
                        0..=8 => 1,
                        9..=16 => 2,
                        _ => 4,
                    },
                };
                let side = if e.op == AccessOp::LdMatrix {
                    Side::Load
                } else {
                    Side::Store
                };
                (side, false, Form::Matrix(num))
            }
            AccessOp::CpAsync => {
                let kind = match form {
                    Some(MatrixForm::Copy(k)) => k,
                    Some(MatrixForm::ZeroFill(k)) => Some(k),
                    Some(MatrixForm::SourcePredicate) => None,
                    // 4 and 8 bytes can only be .ca
                    _ if e.width < 16 => Some(matrix::CopyKind::CacheAll),
                    _ => None,
                };
                (Side::Store, false, Form::Copy(kind))
            }
            // the tensor core's operand reads: no LSU instruction to re-count
            AccessOp::Wgmma => return,
        };
        // The machine code's fused accesses concern ld / st only.
        let width = match (form, self.recon.role(e.pc)) {
            (Form::Plain, Role::Follower) => return,
            (Form::Plain, Role::Leader { width }) => width,
            _ => e.width,
        };
        let mut addrs = [0u32; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            if e.mask >> l & 1 == 1 {
                *a = e.addrs[l] as u32;
            }
        }
        let src = e.src.filter(|_| matches!(form, Form::Copy(_))).map(|s| {
            Box::new(std::array::from_fn(
                |l| {
                    if e.mask >> l & 1 == 1 { s[l] } else { 0 }
                },
            ))
        });
        let acc = Access {
            pc: e.pc,
            side,
            atomic,
            width,
            ptx_width: e.width,
            mask: e.mask,
            addrs,
            form,
            src,
        };
        *self.seen.entry(acc).or_insert(0) += 1;
    }
}

impl Trace {
    /// The trace of a finished run: the blocks' recording sinks (in block order) and the run's
    /// faults as text. [`record`] is this over a run with only [`TraceSink`]s.
    pub fn from_sinks(sinks: impl IntoIterator<Item = TraceSink>, faults: Vec<String>) -> Trace {
        let mut h = hopper::HopperTrace::default();
        let mut t = Trace::from_accesses(sinks.into_iter().flat_map(|s| {
            h.merge(s.hopper);
            s.seen
        }));
        t.faults = faults;
        t.hopper = h;
        t
    }
}

/// The recorded shared accesses of a launch.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Distinct accesses with the number of times each happened, in a fixed order.
    pub accesses: Vec<(Access, u64)>,
    /// Emulator faults, as text.
    pub faults: Vec<String>,
    /// The launch's `wgmma` descriptors and TMA loads ([`hopper`]).
    pub hopper: hopper::HopperTrace,
    /// The kernel's shared accesses whose addresses depend on data it reads ([`data`]), by pc,
    /// each with its place in the source (`line 12`, or the front end's `file.cu:12`).
    pub data_pcs: BTreeMap<u32, String>,
}

impl Trace {
    /// Builds a trace from accesses (merging duplicates).
    pub fn from_accesses(list: impl IntoIterator<Item = (Access, u64)>) -> Trace {
        let mut m: BTreeMap<Access, u64> = BTreeMap::new();
        for (a, n) in list {
            *m.entry(a).or_insert(0) += n;
        }
        Trace {
            accesses: m.into_iter().collect(),
            faults: Vec::new(),
            hopper: hopper::HopperTrace::default(),
            data_pcs: BTreeMap::new(),
        }
    }

    /// The same trace without the requests of the pcs in `data_pcs` (and without `wgmma` / TMA
    /// records): what a layout change can act on.
    fn structural(&self) -> Trace {
        Trace {
            accesses: self
                .accesses
                .iter()
                .filter(|(a, _)| !self.data_pcs.contains_key(&a.pc))
                .cloned()
                .collect(),
            faults: Vec::new(),
            hopper: hopper::HopperTrace::default(),
            data_pcs: BTreeMap::new(),
        }
    }
}

/// The data-addressed pcs of kernel `kernel` ([`data::data_addressed_pcs`]) with their lines
/// (`line N`: the innermost `.loc` frame in the kernel's own file, so that an intrinsic inlined
/// from a toolkit header is named by the line that called it; `?` where the PTX has none).
pub fn data_pcs_of(program: &Program, kernel: &Kernel) -> BTreeMap<u32, String> {
    let own_file = (kernel.entry..kernel.end).find_map(|pc| {
        let i = program.inst_info(pc);
        i.inlined_at.is_empty().then_some(i.loc).flatten().map(|l| l.file)
    });
    data::data_addressed_pcs(program, kernel)
        .into_iter()
        .map(|pc| {
            let frames = program.frames(pc);
            let at = frames
                .iter()
                .find(|l| Some(l.file) == own_file)
                .or(frames.first());
            (
                pc,
                at.map_or_else(|| "?".to_string(), |l| format!("line {}", l.line)),
            )
        })
        .collect()
}

/// Emulates the launch and records its shared accesses.
pub fn record(
    program: &Program,
    kernel: &str,
    launch: &Launch,
    limits: &Limits,
    recon: Arc<Reconciliation>,
) -> Result<Trace, FixError> {
    let forms = Arc::new(MatrixForms::of(program));
    let res = warpscope_emu::run(program, kernel, launch, limits, |_| {
        TraceSink::new(recon.clone()).with_forms(forms.clone())
    })?;
    let faults = res.faults.iter().map(|f| f.to_string()).collect();
    let mut t = Trace::from_sinks(res.sinks, faults);
    if let Some(k) = program.kernel(kernel) {
        t.data_pcs = data_pcs_of(program, k);
    }
    Ok(t)
}

// ---------------------------------------------------------------------------------------------
// Arrays and transforms

/// One shared array of the kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArrayInfo {
    /// Name in the PTX (e.g. `_ZZ10rectRowColE4tile`).
    pub ptx_name: String,
    /// Name in the source (the mangled local name's last part, e.g. `tile`).
    pub name: String,
    /// Byte offset in the shared window.
    pub offset: u32,
    /// Size in bytes (for the dynamic array: the launch's dynamic shared memory).
    pub size: u32,
    /// Alignment.
    pub align: u32,
    /// `extern __shared__` (dynamic).
    pub dynamic: bool,
}

/// The source-level name of a PTX shared variable: a function-local name (`_ZZ<function>E<name>`,
/// templates included: `_ZZ8blockSumILi256EEvPKfPfE4tile`) gives `name`; other names are kept.
pub fn source_name(ptx_name: &str) -> String {
    if ptx_name.starts_with("_ZZ")
        && let Ok(sym) = cpp_demangle::Symbol::new(ptx_name)
        && let Ok(d) = sym.demangle(&cpp_demangle::DemangleOptions::new())
        && let Some(i) = d.rfind("::")
    {
        return d[i + 2..].to_string();
    }
    ptx_name.to_string()
}

/// The kernel's shared arrays: static ones in layout order, then the dynamic one (of `dyn_smem`
/// bytes) when the launch has dynamic shared memory.
pub fn arrays(kernel: &Kernel, dyn_smem: u32) -> Vec<ArrayInfo> {
    let mut out: Vec<ArrayInfo> = kernel
        .shared
        .iter()
        .filter(|s| !s.dynamic)
        .map(|s| ArrayInfo {
            ptx_name: s.name.clone(),
            name: source_name(&s.name),
            offset: s.offset,
            size: s.size,
            align: s.align.max(1),
            dynamic: false,
        })
        .collect();
    out.sort_by_key(|a| a.offset);
    if dyn_smem > 0 {
        let dynamic: Vec<_> = kernel.shared.iter().filter(|s| s.dynamic).collect();
        let name = dynamic
            .first()
            .map_or("(dynamic)".to_string(), |s| s.name.clone());
        out.push(ArrayInfo {
            name: source_name(&name),
            ptx_name: name,
            offset: kernel.dyn_smem_base,
            size: dyn_smem,
            align: dynamic.iter().map(|s| s.align).max().unwrap_or(16).max(1),
            dynamic: true,
        });
    }
    out
}

fn array_of(arrays: &[ArrayInfo], addr: u32) -> Option<usize> {
    arrays
        .iter()
        .position(|a| addr >= a.offset && addr - a.offset < a.size)
}

/// A layout change of one array, on byte offsets relative to the array's start.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Transform {
    /// Rows of `row_bytes` grow by `pad_bytes`: offset `o` moves to `(o / row) * (row + pad) + o % row`.
    Pad {
        /// Row length in bytes.
        row_bytes: u32,
        /// Bytes added to each row.
        pad_bytes: u32,
    },
    /// CuTe `Swizzle<B,M,S>` on the byte offset: bits `[M+S, M+S+B)` are XORed into bits `[M, M+B)`.
    Swizzle {
        /// B: number of bits.
        bits: u32,
        /// M: lowest bit changed (2^M bytes move together).
        base_shift: u32,
        /// S: distance from the source bits to the changed bits (at least B).
        shift: u32,
    },
    /// A bank permutation: units of `unit_bytes` move to another column of their bank row
    /// (`row_units` units): unit `u < columns.len()` goes to `(u / row_units) * row_units +
    /// columns[u]`; later units stay. Found by search ([`permute`]) when no padding or swizzle
    /// reaches the ideal; the source needs a lookup table.
    Permute {
        /// Bytes per unit (the widest access: units move whole).
        unit_bytes: u32,
        /// Units per bank row.
        row_units: u32,
        /// New column of each unit, for the units up to the last one that moves.
        columns: Vec<u16>,
    },
}

impl Transform {
    /// New offset of byte offset `o` (relative to the array).
    pub fn map(&self, o: u32) -> u32 {
        match *self {
            Transform::Pad { row_bytes, pad_bytes } => {
                (o / row_bytes) * (row_bytes + pad_bytes) + o % row_bytes
            }
            Transform::Swizzle {
                bits,
                base_shift,
                shift,
            } => {
                let mask = (1u32 << bits) - 1;
                o ^ (((o >> (base_shift + shift)) & mask) << base_shift)
            }
            Transform::Permute {
                unit_bytes,
                row_units,
                ref columns,
            } => {
                let u = o / unit_bytes;
                match columns.get(u as usize) {
                    Some(&c) => ((u - u % row_units) + u32::from(c)) * unit_bytes + o % unit_bytes,
                    None => o,
                }
            }
        }
    }

    /// The array's size after the change.
    pub fn new_size(&self, size: u32) -> u32 {
        match *self {
            Transform::Pad { row_bytes, pad_bytes } => size + size.div_ceil(row_bytes) * pad_bytes,
            Transform::Swizzle { .. } | Transform::Permute { .. } => size,
        }
    }

    /// Whether the change is valid for an array of `size` bytes whose accesses are at most
    /// `max_width` bytes wide and aligned to it: rows (or swizzle units) hold whole accesses, every
    /// byte keeps its place inside its access, and nothing leaves the array's new extent.
    pub fn valid_for(&self, size: u32, max_width: u32) -> bool {
        match *self {
            Transform::Pad { row_bytes, pad_bytes } => {
                row_bytes > 0
                    && pad_bytes > 0
                    && row_bytes % max_width == 0
                    && pad_bytes % max_width == 0
                    && size.is_multiple_of(row_bytes)
                    && row_bytes < size
            }
            Transform::Swizzle {
                bits,
                base_shift,
                shift,
            } => {
                bits > 0
                    && shift >= bits
                    && (1u32 << base_shift) >= max_width
                    && base_shift + shift + bits <= 31
                    && size.is_multiple_of(1u32 << (base_shift + bits))
            }
            Transform::Permute {
                unit_bytes,
                row_units,
                ref columns,
            } => {
                // Whole bank rows (the last may end with the array), each a permutation of its columns.
                let units = columns.len() as u64;
                unit_bytes > 0
                    && unit_bytes % max_width == 0
                    && row_units > 0
                    && units * u64::from(unit_bytes) <= u64::from(size)
                    && (units.is_multiple_of(u64::from(row_units)) || units == u64::from(size / unit_bytes))
                    && columns.chunks(row_units as usize).all(|row| {
                        let mut seen = vec![false; row.len()];
                        row.iter().all(|&c| match seen.get_mut(usize::from(c)) {
                            Some(s) if !*s => {
                                *s = true;
                                true
                            }
                            _ => false,
                        })
                    })
            }
        }
    }

    /// Checks the invariant on every byte of `size`: the map is injective, stays inside
    /// `new_size(size)`, and moves each aligned `width`-byte access as a whole.
    pub fn preserves_accesses(&self, size: u32, width: u32) -> bool {
        let new = self.new_size(size);
        let mut used = vec![false; new as usize];
        for o in 0..size {
            let m = self.map(o);
            if m >= new || used[m as usize] {
                return false;
            }
            used[m as usize] = true;
            let start = o - o % width;
            if m != self.map(start) + (o - start) {
                return false;
            }
        }
        true
    }

    /// Short description: `pad 128-byte rows by 8 bytes`, `swizzle<3,4,4>`.
    pub fn describe(&self) -> String {
        match *self {
            Transform::Pad { row_bytes, pad_bytes } => {
                format!("pad {row_bytes}-byte rows by {pad_bytes} bytes")
            }
            Transform::Swizzle {
                bits,
                base_shift,
                shift,
            } => format!("swizzle<{bits},{base_shift},{shift}>"),
            Transform::Permute {
                unit_bytes,
                row_units,
                ref columns,
            } => format!(
                "bank permutation of {unit_bytes}-byte units in {} rows of {row_units}",
                columns.len().div_ceil(row_units as usize)
            ),
        }
    }

    /// The emulator's remap of this change for array `a` (to run the kernel with the changed layout).
    pub fn remap(&self, a: &ArrayInfo) -> SharedRemap {
        let (base, len) = (a.offset, a.size);
        match *self {
            Transform::Pad { row_bytes, pad_bytes } => SharedRemap::Pad {
                base,
                len,
                row_bytes,
                pad_bytes,
            },
            Transform::Swizzle {
                bits,
                base_shift,
                shift,
            } => SharedRemap::Swizzle {
                base,
                len,
                bits: bits as u8,
                base_shift: base_shift as u8,
                shift: shift as u8,
            },
            Transform::Permute {
                unit_bytes,
                row_units,
                ref columns,
            } => SharedRemap::Permute {
                base,
                len,
                unit: unit_bytes,
                table: (0..columns.len() as u32)
                    .map(|u| u - u % row_units + u32::from(columns[u as usize]))
                    .collect(),
            },
        }
    }

    /// `"pad"`, `"swizzle"` or `"permute"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Transform::Pad { .. } => "pad",
            Transform::Swizzle { .. } => "swizzle",
            Transform::Permute { .. } => "permute",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Targets and evaluation

/// An architecture with its bank configuration (Kepler's bank mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The architecture.
    pub arch: &'static Arch,
    /// Bank mode (matters on CC 3.x only).
    pub config: Config,
}

impl Target {
    /// A target in its default bank mode.
    pub fn new(arch: &'static Arch) -> Target {
        Target {
            arch,
            config: Config::default(),
        }
    }

    /// Reads `sm_90`, `9.0`, `sm_35:8B`, `sm_35:4B`.
    pub fn parse(text: &str) -> Result<Target, FixError> {
        let t = text.trim();
        let (name, mode) = match t.split_once(':') {
            Some((n, m)) => (n, Some(m)),
            None => (t, None),
        };
        let arch = Arch::parse(name).map_err(|e| FixError::Target {
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        let bank_mode = match mode.map(|m| m.trim().to_ascii_uppercase()) {
            None => BankMode::FourByte,
            Some(m) if m == "4B" || m == "4" => BankMode::FourByte,
            Some(m) if m == "8B" || m == "8" => BankMode::EightByte,
            Some(m) => {
                return Err(FixError::Target {
                    text: text.to_string(),
                    reason: format!("unknown bank mode `{m}` (use 4B or 8B)"),
                });
            }
        };
        if bank_mode == BankMode::EightByte && !arch.bank_facts(bank_mode).selectable_mode {
            return Err(FixError::Target {
                text: text.to_string(),
                reason: format!("{} has no 8-byte bank mode (only CC 3.x does)", arch.name),
            });
        }
        Ok(Target {
            arch,
            config: Config { bank_mode },
        })
    }

    /// One target per distinct set of bank rules, oldest first: CC 1.3, 2.0, 3.5 (4- and 8-byte
    /// mode), 5.2, 6.1, 7.0, 7.5, 8.0, 8.9, 9.0, 10.0, 12.0.
    pub fn all() -> Vec<Target> {
        let mut v = Vec::new();
        for name in [
            "sm_13", "sm_20", "sm_35", "sm_35:8B", "sm_52", "sm_61", "sm_70", "sm_75", "sm_80", "sm_89",
            "sm_90", "sm_100", "sm_120",
        ] {
            v.push(Target::parse(name).expect("preset"));
        }
        v
    }

    /// Reads a comma-separated list, or `all`.
    pub fn parse_list(text: &str) -> Result<Vec<Target>, FixError> {
        if text.trim().eq_ignore_ascii_case("all") {
            return Ok(Target::all());
        }
        text.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(Target::parse)
            .collect()
    }

    /// `sm_90`, or `sm_35:8B` in Kepler's 8-byte mode.
    pub fn label(&self) -> String {
        if self.config.bank_mode == BankMode::EightByte {
            format!("{}:8B", self.arch.name)
        } else {
            self.arch.name.to_string()
        }
    }
}

/// Wavefronts of a set of requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Wavefronts (loads and stores).
    pub wavefronts: u64,
    /// Wavefronts with no bank conflict.
    pub ideal: u64,
}

impl Cost {
    fn add(&mut self, wf: u64, ideal: u64) {
        self.wavefronts += wf;
        self.ideal += ideal;
    }

    /// Wavefronts above the ideal.
    pub fn excess(&self) -> u64 {
        self.wavefronts.saturating_sub(self.ideal)
    }
}

/// The result of counting a trace under one layout.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Per array (index into the array list), for the requests attributed to it (the array of the
    /// lowest active lane).
    pub per_array: Vec<Cost>,
    /// Per (array, pc).
    pub per_pc: BTreeMap<(usize, u32), Cost>,
    /// Requests touching no array (outside every array; counted unchanged).
    pub unattributed: Cost,
    /// Per array: `ldmatrix` / `stmatrix` / `cp.async` executions the matrix model cannot count
    /// under this layout and target (outside the measured rules, or not on this architecture);
    /// not in `per_array`. A layout that adds some is not a fix.
    pub unmodelled: Vec<u64>,
}

/// Wavefronts of one `ldmatrix` / `stmatrix` / `cp.async` at the (changed) addresses `addrs`,
/// through [`warpscope_model::matrix`] (as [`crate::banks`] counts them); `None` for a plain access.
pub fn matrix_cost(
    acc: &Access,
    addrs: &[u32; 32],
    target: &Target,
) -> Option<Result<bank::Counts, matrix::MatrixError>> {
    match acc.form {
        Form::Plain => None,
        Form::Matrix(num) => {
            let op = if acc.side == Side::Store {
                matrix::MatrixOp::Store
            } else {
                matrix::MatrixOp::Load
            };
            Some(matrix::matrix_wavefronts(target.arch, op, num, acc.mask, addrs))
        }
        Form::Copy(kind) => Some(match (kind, acc.src.as_deref()) {
            (Some(k), Some(src)) => {
                matrix::ldgsts_wavefronts(target.arch, k, acc.width, acc.mask, addrs, src)
            }
            _ => Err(matrix::MatrixError::NoRule {
                what: "cp.async with a src-size operand (its zero-fill is not recorded)",
            }),
        }),
    }
}

/// New offsets of every array when `transforms[i]` applies to array `i` (static arrays keep their
/// order and alignment; the dynamic array follows the static ones).
pub fn relayout(arrays: &[ArrayInfo], transforms: &[Option<Transform>]) -> Vec<u32> {
    let mut cursor = 0u32;
    let mut out = Vec::with_capacity(arrays.len());
    for (i, a) in arrays.iter().enumerate() {
        if transforms.iter().all(Option::is_none) {
            out.push(a.offset);
            continue;
        }
        let start = if i == 0 && !a.dynamic { a.offset } else { cursor };
        let off = start.div_ceil(a.align) * a.align;
        let size = transforms
            .get(i)
            .and_then(Option::as_ref)
            .map_or(a.size, |t| t.new_size(a.size));
        out.push(off);
        cursor = off + size;
    }
    out
}

/// Counts every recorded request under `target` with `transforms` applied.
pub fn evaluate(
    trace: &Trace,
    arrays: &[ArrayInfo],
    transforms: &[Option<Transform>],
    target: &Target,
) -> Result<Evaluation, FixError> {
    let bases = relayout(arrays, transforms);
    let mut ev = Evaluation {
        per_array: vec![Cost::default(); arrays.len()],
        unmodelled: vec![0; arrays.len()],
        ..Default::default()
    };
    for (acc, n) in &trace.accesses {
        let mut owner = None;
        let mut lanes = [None; 32];
        for (l, slot) in lanes.iter_mut().enumerate() {
            if acc.mask >> l & 1 == 0 {
                continue;
            }
            let a = acc.addrs[l];
            *slot = Some(match array_of(arrays, a) {
                Some(i) => {
                    owner.get_or_insert(i);
                    let rel = a - arrays[i].offset;
                    let rel = transforms
                        .get(i)
                        .and_then(Option::as_ref)
                        .map_or(rel, |t| t.map(rel));
                    bases[i] + rel
                }
                None => a,
            });
        }
        if acc.form != Form::Plain {
            let moved: [u32; 32] = std::array::from_fn(|l| lanes[l].unwrap_or(0));
            match (matrix_cost(acc, &moved, target), owner) {
                (Some(Ok(c)), Some(i)) => {
                    let (wf, ideal) = (u64::from(c.wavefronts) * n, u64::from(c.ideal) * n);
                    ev.per_array[i].add(wf, ideal);
                    ev.per_pc.entry((i, acc.pc)).or_default().add(wf, ideal);
                }
                (Some(Ok(c)), None) => ev
                    .unattributed
                    .add(u64::from(c.wavefronts) * n, u64::from(c.ideal) * n),
                (_, Some(i)) => ev.unmodelled[i] += n,
                (_, None) => {}
            }
            continue;
        }
        // A fused access (wider than PTX wrote it) whose parts the change separates or misaligns is
        // issued as its parts, as the compiler would have to.
        let t_owner = owner.and_then(|i| transforms.get(i).and_then(Option::as_ref).map(|t| (i, t)));
        let split = acc.width > acc.ptx_width
            && t_owner.is_some_and(|(i, t)| {
                (0..32).any(|l| {
                    acc.mask >> l & 1 == 1 && array_of(arrays, acc.addrs[l]) == Some(i) && {
                        let rel = acc.addrs[l] - arrays[i].offset;
                        lanes[l].is_some_and(|a| a % u32::from(acc.width) != 0)
                            || (1..u32::from(acc.width / acc.ptx_width)).any(|k| {
                                let o = rel + k * u32::from(acc.ptx_width);
                                t.map(o) != t.map(rel) + k * u32::from(acc.ptx_width)
                            })
                    }
                })
            });
        let parts: Vec<bank::Request> = if split {
            (0..u32::from(acc.width / acc.ptx_width))
                .map(|k| {
                    let mut part = [None; 32];
                    for (l, slot) in part.iter_mut().enumerate() {
                        if acc.mask >> l & 1 == 1 {
                            let a = acc.addrs[l] + k * u32::from(acc.ptx_width);
                            *slot = Some(match array_of(arrays, a) {
                                Some(i) => {
                                    let rel = a - arrays[i].offset;
                                    let rel = transforms
                                        .get(i)
                                        .and_then(Option::as_ref)
                                        .map_or(rel, |t| t.map(rel));
                                    bases[i] + rel
                                }
                                None => a,
                            });
                        }
                    }
                    bank::Request::new(acc.ptx_width, Op::Load, &part)
                })
                .collect()
        } else {
            vec![bank::Request::new(acc.width, Op::Load, &lanes)]
        };
        let sides: &[Op] = if acc.atomic {
            &[Op::Load, Op::Store]
        } else if acc.side == Side::Load {
            &[Op::Load]
        } else {
            &[Op::Store]
        };
        for (&op, req) in sides.iter().flat_map(|op| parts.iter().map(move |r| (op, r))) {
            let c = bank::wavefronts(target.arch, &target.config, &bank::Request { op, ..*req })
                .map_err(|source| FixError::Bank { pc: acc.pc, source })?;
            let (wf, ideal) = (u64::from(c.wavefronts) * n, u64::from(c.ideal) * n);
            match owner {
                Some(i) => {
                    ev.per_array[i].add(wf, ideal);
                    ev.per_pc.entry((i, acc.pc)).or_default().add(wf, ideal);
                }
                None => ev.unattributed.add(wf, ideal),
            }
        }
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Candidates

/// The widest access to each array as PTX wrote it (fused machine accesses are split again by
/// [`evaluate`] where a change separates their parts).
fn max_widths(trace: &Trace, arrays: &[ArrayInfo]) -> Vec<u32> {
    let mut w = vec![1u32; arrays.len()];
    for (acc, _) in &trace.accesses {
        for l in 0..32 {
            if acc.mask >> l & 1 == 1
                && let Some(i) = array_of(arrays, acc.addrs[l])
            {
                w[i] = w[i].max(u32::from(acc.ptx_width));
            }
        }
    }
    w
}

/// Row lengths implied by the conflicting requests of array `i`: the byte distances between
/// consecutive active lanes and from the first active lane to each other one, weighted by the
/// excess wavefronts of the request; the most frequent first.
fn row_candidates(trace: &Trace, arrays: &[ArrayInfo], i: usize, unit: u32, target: &Target) -> Vec<u32> {
    let a = &arrays[i];
    let mut weight: BTreeMap<u32, u64> = BTreeMap::new();
    for (acc, n) in &trace.accesses {
        let lanes: Vec<u32> = (0..32)
            .filter(|&l| acc.mask >> l & 1 == 1)
            .map(|l| acc.addrs[l as usize])
            .filter(|&x| array_of(arrays, x) == Some(i))
            .map(|x| x - a.offset)
            .collect();
        if lanes.len() < 2 {
            continue;
        }
        let c = match matrix_cost(acc, &acc.addrs, target) {
            Some(Ok(c)) => c,
            Some(Err(_)) => continue,
            None => {
                let req = bank::Request::from_fn(acc.width, Op::Load, |l| {
                    (acc.mask >> l & 1 == 1).then(|| acc.addrs[l as usize])
                });
                let Ok(c) = bank::wavefronts(target.arch, &target.config, &req) else {
                    continue;
                };
                c
            }
        };
        let excess = u64::from(c.wavefronts.saturating_sub(c.ideal));
        if excess == 0 {
            continue;
        }
        let mut dists = BTreeSet::new();
        for w in lanes.windows(2) {
            dists.insert(w[0].abs_diff(w[1]));
        }
        for &x in &lanes[1..] {
            dists.insert(x.abs_diff(lanes[0]));
        }
        for d in dists {
            if d > 0 && d % unit == 0 && a.size.is_multiple_of(d) && d < a.size {
                *weight.entry(d).or_insert(0) += excess * n;
            }
        }
    }
    // Bank-row multiples are always worth a try (they keep contiguous rows contiguous).
    for r in [128u32, 256, 512] {
        if r % unit == 0 && a.size.is_multiple_of(r) && r < a.size {
            weight.entry(r).or_insert(0);
        }
    }
    let mut v: Vec<(u32, u64)> = weight.into_iter().collect();
    v.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    v.into_iter().take(12).map(|(r, _)| r).collect()
}

/// Every candidate transform for array `i`.
fn candidates(trace: &Trace, arrays: &[ArrayInfo], i: usize, unit: u32, target: &Target) -> Vec<Transform> {
    let size = arrays[i].size;
    let mut out = Vec::new();
    // Padding beyond one pass over the banks (256 bytes covers Kepler's 8-byte mode) repeats itself.
    let max_pad = 256u32;
    for row in row_candidates(trace, arrays, i, unit, target) {
        let mut pad = unit;
        while pad <= max_pad && pad / unit <= 64 {
            out.push(Transform::Pad {
                row_bytes: row,
                pad_bytes: pad,
            });
            pad += unit;
        }
    }
    let m_lo = unit.max(1).trailing_zeros().max(2);
    for base_shift in m_lo..=4 {
        for bits in 1..=(8u32.saturating_sub(base_shift)).min(5) {
            for shift in bits..=10 {
                out.push(Transform::Swizzle {
                    bits,
                    base_shift,
                    shift,
                });
            }
        }
    }
    out.retain(|t| t.valid_for(size, unit));
    out
}

// ---------------------------------------------------------------------------------------------
// Advice

/// Occupancy of the kernel with a given shared-memory total.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OccupancyAt {
    /// Shared memory per block, bytes.
    pub shared_bytes: u32,
    /// Resident blocks per SM.
    pub blocks_per_sm: u32,
    /// Occupancy (active warps / maximum warps).
    pub occupancy: f64,
}

/// How occupancy is computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KernelResources {
    /// Threads per block.
    pub threads: u32,
    /// Registers per thread.
    pub registers: u32,
    /// Where the register count comes from (`ptxas` or an assumption).
    pub registers_from: String,
}

/// The source change of a suggestion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceEdit {
    /// 1-based line in the source, when the declaration was found.
    pub line: Option<u32>,
    /// The line as it is.
    pub before: Option<String>,
    /// The line as it should be (declarations), or the index expression to use.
    pub after: String,
    /// Lines of the source that index the array (every one must use the new index).
    pub index_lines: Vec<u32>,
}

/// One suggested change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggestion {
    /// The array's source name.
    pub array: String,
    /// `pad` or `swizzle`.
    pub kind: String,
    /// What to change, in words.
    pub change: String,
    /// The transform.
    pub transform: Transform,
    /// Wavefronts of the array's requests as written.
    pub wavefronts_before: u64,
    /// Wavefronts after the change.
    pub wavefronts_after: u64,
    /// Conflict-free wavefronts of the same requests.
    pub ideal: u64,
    /// Extra shared memory per block, bytes.
    pub extra_shared_bytes: u32,
    /// Occupancy before and after (absent where the calculator has no preset, CC < 5.0).
    pub occupancy_before: Option<OccupancyAt>,
    /// Occupancy after.
    pub occupancy_after: Option<OccupancyAt>,
    /// The source change.
    pub source: Option<SourceEdit>,
    /// The best change for this array (the others are alternatives).
    pub recommended: bool,
}

/// One array's counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArrayReport {
    /// The array.
    #[serde(flatten)]
    pub info: ArrayInfo,
    /// Element (widest access) size, bytes.
    pub access_bytes: u32,
    /// Wavefronts and ideal as written.
    pub cost: Cost,
    /// Whether its requests conflict.
    pub conflicts: bool,
}

/// What [`advise`] needs besides the trace.
#[derive(Clone, Debug)]
pub struct AdviseConfig {
    /// The architecture the suggestions are for.
    pub target: Target,
    /// Threads per block.
    pub threads: u32,
    /// Registers per thread, when known (from ptxas or the user); otherwise 32 is assumed and said.
    pub registers: Option<u32>,
    /// Where `registers` comes from (`ptxas`, `--registers`...).
    pub registers_from: String,
    /// The `.cu` source text, for source edits.
    pub source: Option<String>,
}

/// The advisor's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    /// The target architecture.
    pub target: String,
    /// Resources the occupancy uses.
    pub resources: KernelResources,
    /// Every array.
    pub arrays: Vec<ArrayReport>,
    /// Per conflicting array: the recommended change first, then the best of the other kind.
    pub suggestions: Vec<Suggestion>,
    /// Swizzle modes for `wgmma` operand tiles and TMA boxes ([`hopper`]); absent from the JSON
    /// when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hopper: Vec<hopper::HopperSuggestion>,
    /// Notes (assumptions, arrays with no full fix).
    pub notes: Vec<String>,
}

/// Registers assumed when ptxas is not available.
pub const ASSUMED_REGISTERS: u32 = 32;

fn occupancy_at(target: &Target, threads: u32, regs: u32, smem: u32) -> Option<OccupancyAt> {
    let limits = occupancy::Limits::for_arch(target.arch).ok()?;
    let mut l = occupancy::Launch::new(threads, regs);
    l.dyn_smem = smem;
    let o = occupancy::occupancy(&limits, &l).ok()?;
    Some(OccupancyAt {
        shared_bytes: smem,
        blocks_per_sm: o.blocks_per_sm,
        occupancy: o.occupancy(),
    })
}

fn total_shared(arrays: &[ArrayInfo], transforms: &[Option<Transform>]) -> u32 {
    let bases = relayout(arrays, transforms);
    arrays
        .iter()
        .enumerate()
        .map(|(i, a)| {
            bases[i]
                + transforms
                    .get(i)
                    .and_then(Option::as_ref)
                    .map_or(a.size, |t| t.new_size(a.size))
        })
        .max()
        .unwrap_or(0)
}

/// The best transform of each kind for array `i` under `target`, with its evaluation, ranked.
pub fn search(
    trace: &Trace,
    arrays: &[ArrayInfo],
    i: usize,
    target: &Target,
    occupancy_of: &(dyn Fn(u32) -> Option<u32> + Sync),
    declared_row: Option<u32>,
) -> Result<Vec<(Transform, Cost)>, FixError> {
    let unit = max_widths(trace, arrays)[i];
    let base_smem = total_shared(arrays, &[]);
    let base_blocks = occupancy_of(base_smem);
    let base_unmodelled = evaluate(trace, arrays, &[], target)?.unmodelled;
    // Candidates are scored in parallel; the list keeps their order, so the ranking (a stable sort)
    // does not depend on the number of threads.
    let cands = candidates(trace, arrays, i, unit, target);
    let scored: Vec<Option<_>> = cands
        .into_par_iter()
        .map(|t| -> Result<_, FixError> {
            let mut ts = vec![None; arrays.len()];
            ts[i] = Some(t.clone());
            let ev = evaluate(trace, arrays, &ts, target)?;
            // A layout that takes an ldmatrix / cp.async out of the measured rules is not proven.
            if ev.unmodelled.iter().zip(&base_unmodelled).any(|(a, b)| a > b) {
                return Ok(None);
            }
            let cost = ev.per_array[i];
            let smem = total_shared(arrays, &ts);
            let loss = match (base_blocks, occupancy_of(smem)) {
                (Some(b), Some(a)) => b.saturating_sub(a),
                _ => 0,
            };
            let kind = u32::from(matches!(t, Transform::Swizzle { .. }));
            // A padding of the declared row is a one-token source change; prefer it.
            let off_row = match t {
                Transform::Pad { row_bytes, .. } => u32::from(declared_row.is_some_and(|r| r != row_bytes)),
                Transform::Swizzle { .. } | Transform::Permute { .. } => 0,
            };
            let complexity = match t {
                Transform::Pad { row_bytes, pad_bytes } => (pad_bytes, row_bytes),
                Transform::Swizzle {
                    bits,
                    base_shift,
                    shift,
                } => (bits * 100 + shift, base_shift),
                Transform::Permute { ref columns, .. } => (u32::MAX, columns.len() as u32),
            };
            // Other arrays must not get worse.
            let others: u64 = ev
                .per_array
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, c)| c.wavefronts)
                .sum();
            Ok(Some((
                (cost.wavefronts + others, loss, kind, off_row, smem, complexity),
                t,
                cost,
            )))
        })
        .collect::<Result<_, _>>()?;
    let mut scored: Vec<_> = scored.into_iter().flatten().collect();
    scored.sort_by_key(|x| x.0);
    let mut out: Vec<(Transform, Cost)> = Vec::new();
    for (_, t, c) in scored {
        if !out.iter().any(|(o, _)| o.kind() == t.kind()) {
            out.push((t, c));
        }
    }
    Ok(out)
}

/// Finds, for every array whose requests conflict under `cfg.target`, the best padding and the best
/// swizzle, and recommends one.
pub fn advise(trace: &Trace, arrays: &[ArrayInfo], cfg: &AdviseConfig) -> Result<Advice, FixError> {
    let target = &cfg.target;
    let mut notes = Vec::new();
    let (registers, registers_from) = match cfg.registers {
        Some(r) => (r, cfg.registers_from.clone()),
        None => {
            notes.push(format!(
                "registers per thread unknown (no ptxas): occupancy assumes {ASSUMED_REGISTERS}"
            ));
            (ASSUMED_REGISTERS, format!("assumed {ASSUMED_REGISTERS}"))
        }
    };
    let before = evaluate(trace, arrays, &[], target)?;
    let widths = max_widths(trace, arrays);
    let occ = |smem: u32| occupancy_at(target, cfg.threads, registers, smem);
    let blocks = |smem: u32| occ(smem).map(|o| o.blocks_per_sm);
    let base_smem = total_shared(arrays, &[]);
    let hopper_arrays = hopper::arrays_used(&trace.hopper, arrays);
    let mut reports = Vec::new();
    let mut suggestions = Vec::new();
    let mut structural: Option<Trace> = None;
    for (i, a) in arrays.iter().enumerate() {
        let cost = before.per_array[i];
        let conflicts = cost.wavefronts > cost.ideal;
        reports.push(ArrayReport {
            info: a.clone(),
            access_bytes: widths[i],
            cost,
            conflicts,
        });
        if !conflicts {
            continue;
        }
        if hopper_arrays.contains(&i) {
            // the tensor core or the TMA lays these bytes out: only their modes can change it
            notes.push(format!(
                "{}: read by wgmma.mma_async through matrix descriptors or written by a TMA load: a padding or \
                 free swizzle would break their layout; see the swizzle modes of its tiles",
                a.name
            ));
            continue;
        }
        // Requests addressed by data the kernel reads are left out of the search: no layout fixes
        // them for every input, and one fitted to this launch's input is fitted to noise.
        let from_data = data_excess(&before, i, trace);
        let search_trace;
        let (st, s_cost, s_before) = if from_data.pcs.is_empty() {
            (trace, cost, before.unmodelled.clone())
        } else {
            search_trace = structural.get_or_insert_with(|| trace.structural());
            let ev = evaluate(search_trace, arrays, &[], target)?;
            if from_data.excess > 0 {
                notes.push(from_data.note(&a.name, cost));
            }
            (&*search_trace, ev.per_array[i], ev.unmodelled)
        };
        if s_cost.wavefronts <= s_cost.ideal {
            continue;
        }
        let declared_row = cfg.source.as_deref().and_then(|s| declared_row_bytes(s, &a.name));
        let mut found = search(st, arrays, i, target, &blocks, declared_row)?;
        // Only changes that remove wavefronts are worth suggesting.
        found.retain(|(_, c)| c.wavefronts < s_cost.wavefronts);
        if found.first().is_none_or(|(_, c)| c.wavefronts > c.ideal) {
            // No padding or swizzle reaches the ideal: search a bank permutation.
            let best = found.first().map(|(t, c)| (t.describe(), c.wavefronts));
            let perm = permute::search(st, arrays, i, target, permute::DEFAULT_BUDGET)?;
            let mut reached = false;
            if let Some((t, _, _)) = perm {
                let mut ts = vec![None; arrays.len()];
                ts[i] = Some(t.clone());
                let ev = evaluate(st, arrays, &ts, target)?;
                let c = ev.per_array[i];
                if c.wavefronts < s_cost.wavefronts
                    && ev.unmodelled.iter().zip(&s_before).all(|(a, b)| a <= b)
                    && found.first().is_none_or(|(_, b)| c.wavefronts < b.wavefronts)
                {
                    reached = c.wavefronts == c.ideal;
                    found.insert(0, (t, c));
                }
            }
            let ideal = s_cost.ideal;
            let of = if from_data.excess > 0 {
                " of its other requests"
            } else {
                ""
            };
            notes.push(match (best, reached) {
                (Some((d, w)), true) => format!(
                    "{}: no padding or swizzle reaches the ideal{of} ({ideal} wavefronts; the best, {d}, leaves {w}); \
                     a bank permutation does, at the price of a table lookup per access",
                    a.name
                ),
                (Some((d, w)), false) => format!(
                    "{}: no padding, swizzle or bank permutation found reaches the ideal{of} ({ideal} wavefronts); \
                     the best, {d}, leaves {w}",
                    a.name
                ),
                (None, true) => format!(
                    "{}: no padding or swizzle improves on the {} wavefronts{of} as written; a bank permutation \
                     reaches the ideal ({ideal}), at the price of a table lookup per access",
                    a.name, s_cost.wavefronts
                ),
                (None, false) => format!(
                    "{}: no padding, swizzle or bank permutation found improves on the {} wavefronts{of} as written \
                     (ideal {ideal})",
                    a.name, s_cost.wavefronts
                ),
            });
        }
        if !from_data.pcs.is_empty() {
            // the suggestions' figures are of every request of the array, the data-addressed ones
            // on this launch's data
            let mut full = Vec::with_capacity(found.len());
            for (rank, (t, _)) in found.into_iter().enumerate() {
                let mut ts = vec![None; arrays.len()];
                ts[i] = Some(t.clone());
                let ev = evaluate(trace, arrays, &ts, target)?;
                let c = ev.per_array[i];
                if c.wavefronts >= cost.wavefronts {
                    continue;
                }
                if rank == 0 {
                    let at = |e: &Evaluation| -> u64 {
                        from_data
                            .pcs
                            .iter()
                            .filter_map(|pc| e.per_pc.get(&(i, *pc)))
                            .map(|c| c.wavefronts)
                            .sum()
                    };
                    let (was, now) = (at(&before), at(&ev));
                    if now > was {
                        notes.push(format!(
                            "{}: the recommended change raises the requests at {} from {was} to {now} wavefronts \
                             on this launch's data (their addresses depend on data the kernel reads; as written \
                             they do not conflict)",
                            a.name,
                            from_data.places.join(", ")
                        ));
                    }
                }
                full.push((t, c));
            }
            found = full;
        }
        for (rank, (t, c)) in found.into_iter().enumerate() {
            let mut ts = vec![None; arrays.len()];
            ts[i] = Some(t.clone());
            let smem = total_shared(arrays, &ts);
            let elem = cfg
                .source
                .as_deref()
                .and_then(|s| declared_elem_bytes(s, &a.name))
                .unwrap_or(widths[i]);
            suggestions.push(Suggestion {
                array: a.name.clone(),
                kind: t.kind().to_string(),
                change: change_text(&t, elem, a.dynamic),
                source: cfg.source.as_deref().map(|s| source_edit(s, a, &t, elem)),
                transform: t,
                wavefronts_before: cost.wavefronts,
                wavefronts_after: c.wavefronts,
                ideal: c.ideal,
                extra_shared_bytes: smem - base_smem,
                occupancy_before: occ(base_smem),
                occupancy_after: occ(smem),
                recommended: rank == 0,
            });
        }
    }
    let mut hopper = hopper::wgmma_advice(trace, arrays, target, &mut notes)?;
    hopper.extend(hopper::tma_advice(trace, arrays, target, &mut notes)?);
    Ok(Advice {
        hopper,
        target: target.label(),
        resources: KernelResources {
            threads: cfg.threads,
            registers,
            registers_from,
        },
        arrays: reports,
        suggestions,
        notes,
    })
}

/// The part of an array's excess wavefronts that comes from data-addressed requests
/// ([`Trace::data_pcs`]).
struct DataExcess {
    /// The array's data-addressed pcs.
    pcs: Vec<u32>,
    /// Excess wavefronts (wavefronts less ideal) at them.
    excess: u64,
    /// The places in the source of those with excess (of all of them where none has), in pc
    /// order, without repeats.
    places: Vec<String>,
    /// Whether any of those with excess is an atomic.
    atomic: bool,
}

fn data_excess(before: &Evaluation, i: usize, trace: &Trace) -> DataExcess {
    let mut d = DataExcess {
        pcs: Vec::new(),
        excess: 0,
        places: Vec::new(),
        atomic: false,
    };
    let mut all_places = Vec::new();
    for (&pc, place) in &trace.data_pcs {
        let Some(c) = before.per_pc.get(&(i, pc)) else {
            continue;
        };
        d.pcs.push(pc);
        if !all_places.contains(place) {
            all_places.push(place.clone());
        }
        if c.wavefronts <= c.ideal {
            continue;
        }
        d.excess += c.wavefronts - c.ideal;
        if !d.places.contains(place) {
            d.places.push(place.clone());
        }
        d.atomic |= trace.accesses.iter().any(|(a, _)| a.pc == pc && a.atomic);
    }
    if d.places.is_empty() {
        d.places = all_places;
    }
    d
}

impl DataExcess {
    fn note(&self, array: &str, cost: Cost) -> String {
        let total = cost.wavefronts - cost.ideal;
        let what = if self.excess == total {
            format!("all {total} excess wavefronts")
        } else {
            format!("{} of its {total} excess wavefronts", self.excess)
        };
        let remedy = if self.atomic {
            "for atomics on data-chosen words (a histogram), combine the lanes of a warp that hit the same \
             word first (`__match_any_sync`, then one atomic per distinct word) or give each warp its own copy \
             of the array and merge the copies at the end"
        } else {
            "only a different algorithm (sorting or grouping the keys first, per-warp copies) changes them"
        };
        format!(
            "{array}: {what} come from accesses whose addresses depend on data the kernel reads ({}): \
             no padding, swizzle or permutation removes those for every input, so they are left out of the \
             search; {remedy}",
            self.places.join(", ")
        )
    }
}

fn change_text(t: &Transform, elem: u32, dynamic: bool) -> String {
    match *t {
        Transform::Pad { row_bytes, pad_bytes } => {
            let what = if dynamic { "index rows of" } else { "rows of" };
            if row_bytes % elem == 0 && pad_bytes % elem == 0 {
                format!(
                    "{what} {} elements get {} more ({row_bytes} + {pad_bytes} bytes)",
                    row_bytes / elem,
                    pad_bytes / elem
                )
            } else {
                format!("{what} {row_bytes} bytes get {pad_bytes} more")
            }
        }
        Transform::Swizzle {
            bits,
            base_shift,
            shift,
        } => format!(
            "XOR swizzle Swizzle<{bits},{base_shift},{shift}>: byte offset o -> o ^ (((o >> {}) & {}) << {base_shift})",
            base_shift + shift,
            (1u32 << bits) - 1
        ),
        Transform::Permute {
            unit_bytes,
            row_units,
            ref columns,
        } => {
            let rows = columns.len().div_ceil(row_units as usize);
            let moved = columns
                .iter()
                .enumerate()
                .filter(|&(u, &c)| u32::from(c) != u as u32 % row_units)
                .count();
            format!(
                "bank permutation: {moved} of {} {unit_bytes}-byte units in {rows} rows of {row_units} \
                 change column ({}-byte lookup table)",
                columns.len(),
                columns.len()
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Source edits

fn elem_bytes_of(ty: &str) -> Option<u32> {
    let t = ty
        .split_whitespace()
        .filter(|w| {
            !matches!(*w, "const" | "volatile" | "unsigned" | "signed" | "static")
                && !w.starts_with("__align__")
        })
        .collect::<Vec<_>>()
        .join(" ");
    let t = if t.is_empty() { "int".to_string() } else { t };
    Some(match t.as_str() {
        "char" | "int8_t" | "uint8_t" | "bool" => 1,
        "short" | "int16_t" | "uint16_t" | "half" | "__half" | "__nv_bfloat16" => 2,
        "int" | "float" | "int32_t" | "uint32_t" | "long" | "char4" | "uchar4" | "half2" | "__half2" => 4,
        "double" | "long long" | "int64_t" | "uint64_t" | "float2" | "int2" | "uint2" | "size_t" => 8,
        "float4" | "int4" | "uint4" | "double2" => 16,
        _ => return None,
    })
}

/// A `__shared__` declaration of `name` in C/C++ text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Decl {
    line: u32,
    text: String,
    ty: String,
    dims: Vec<String>,
    /// Byte span in `text` of the last dimension's expression.
    last_dim: Option<(usize, usize)>,
}

fn find_decl(source: &str, name: &str) -> Option<Decl> {
    for (n, line) in source.lines().enumerate() {
        let Some(sh) = line.find("__shared__") else {
            continue;
        };
        let after = &line[sh + "__shared__".len()..];
        let Some(pos) = find_ident(after, name) else {
            continue;
        };
        let ty = after[..pos]
            .trim()
            .trim_start_matches("extern")
            .trim()
            .to_string();
        let ty = line[..sh]
            .replace("extern", "")
            .trim()
            .to_string()
            .split_whitespace()
            .chain(ty.split_whitespace())
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest_start = sh + "__shared__".len() + pos + name.len();
        let mut dims = Vec::new();
        let mut last_dim = None;
        let bytes = line.as_bytes();
        while rest_start < line.len() {
            let r = &line[rest_start..];
            let skip = r.len() - r.trim_start().len();
            if !r.trim_start().starts_with('[') {
                break;
            }
            let open = rest_start + skip;
            let mut depth = 0;
            let mut close = None;
            for (k, &b) in bytes.iter().enumerate().skip(open) {
                match b {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let close = close?;
            dims.push(line[open + 1..close].trim().to_string());
            last_dim = Some((open + 1, close));
            rest_start = close + 1;
        }
        return Some(Decl {
            line: n as u32 + 1,
            text: line.to_string(),
            ty,
            dims,
            last_dim,
        });
    }
    None
}

/// Position of `name` as a whole identifier in `s`.
fn find_ident(s: &str, name: &str) -> Option<usize> {
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(p) = s[from..].find(name) {
        let at = from + p;
        let before_ok = s[..at].chars().next_back().is_none_or(|c| !is_id(c));
        let after_ok = s[at + name.len()..].chars().next().is_none_or(|c| !is_id(c));
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + name.len();
    }
    None
}

/// Value of a simple constant expression of the source: integers and `#define`d names (an
/// `#ifndef`-guarded default counts) joined by `+` and `*` (no parentheses, no minus).
fn eval_expr(source: &str, expr: &str, depth: u32) -> Option<i64> {
    if depth > 8 {
        return None;
    }
    let term = |t: &str| -> Option<i64> {
        let t = t.trim();
        if let Ok(v) = t.parse::<i64>() {
            return Some(v);
        }
        let def = source.lines().find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("#define") && w.next() == Some(t)).then(|| w.collect::<Vec<_>>().join(" "))
        })?;
        eval_expr(source, &def, depth + 1)
    };
    let mut total = 0i64;
    for part in expr.split('+') {
        let mut prod = 1i64;
        for f in part.split('*') {
            prod = prod.checked_mul(term(f)?)?;
        }
        total = total.checked_add(prod)?;
    }
    Some(total)
}

/// Bytes per row of a declared static array of two or more dimensions: the last dimension times
/// the element size.
pub fn declared_row_bytes(source: &str, name: &str) -> Option<u32> {
    let d = find_decl(source, name)?;
    if d.dims.len() < 2 {
        return None;
    }
    let elem = elem_bytes_of(&d.ty)?;
    let n = u32::try_from(eval_expr(source, d.dims.last()?, 0)?).ok()?;
    n.checked_mul(elem)
}

/// Element size of the declared type of `name`, when the source declares it with a known type.
pub fn declared_elem_bytes(source: &str, name: &str) -> Option<u32> {
    elem_bytes_of(&find_decl(source, name)?.ty)
}

/// Lines (1-based) that index `name` (`name[`), the declaration excluded. When the declaration is
/// inside a function, only that function's lines count (a host `main` may have its own `s`).
fn index_lines(source: &str, name: &str, decl_line: Option<u32>) -> Vec<u32> {
    // Brace depth at the start and end of every line (comments and literals skipped roughly).
    let mut depth = 0i32;
    let mut bounds = Vec::new();
    let mut in_block_comment = false;
    for l in source.lines() {
        let start = depth;
        let b = l.as_bytes();
        let mut k = 0;
        while k < b.len() {
            if in_block_comment {
                if b[k..].starts_with(b"*/") {
                    in_block_comment = false;
                    k += 1;
                }
            } else if b[k..].starts_with(b"//") {
                break;
            } else if b[k..].starts_with(b"/*") {
                in_block_comment = true;
                k += 1;
            } else if b[k] == b'"' || b[k] == b'\'' {
                let q = b[k];
                k += 1;
                while k < b.len() && b[k] != q {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
            } else if b[k] == b'{' {
                depth += 1;
            } else if b[k] == b'}' {
                depth -= 1;
            }
            k += 1;
        }
        bounds.push((start, depth));
    }
    let scope = decl_line.and_then(|d| {
        let d = d as usize - 1;
        if bounds.get(d)?.0 < 1 {
            return None;
        }
        // The enclosing top-level block: back to the line where depth left 0, on to where it returns.
        let first = (0..=d).rev().find(|&n| bounds[n].0 == 0).unwrap_or(0);
        let last = (d..bounds.len())
            .find(|&n| bounds[n].1 <= 0)
            .unwrap_or(bounds.len() - 1);
        Some((first as u32 + 1, last as u32 + 1))
    });
    source
        .lines()
        .enumerate()
        .map(|(n, l)| (n as u32 + 1, l))
        .filter(|&(n, l)| {
            Some(n) != decl_line
                && scope.is_none_or(|(a, b)| (a..=b).contains(&n))
                && find_ident(l, name).is_some_and(|p| l[p + name.len()..].trim_start().starts_with('['))
        })
        .map(|(n, _)| n)
        .collect()
}

/// The source change of `t` on array `a` whose element is `elem` bytes.
pub fn source_edit(source: &str, a: &ArrayInfo, t: &Transform, elem: u32) -> SourceEdit {
    let decl = find_decl(source, &a.name);
    let line = decl.as_ref().map(|d| d.line);
    let lines = index_lines(source, &a.name, line);
    let before = decl.as_ref().map(|d| d.text.clone());
    let elem = elem.max(1);
    let after = match *t {
        Transform::Pad { row_bytes, pad_bytes } => {
            let (row, pad) = (row_bytes / elem, pad_bytes / elem);
            let static_edit = decl.as_ref().and_then(|d| {
                if a.dynamic || d.dims.len() < 2 {
                    return None;
                }
                let (s, e) = d.last_dim?;
                // Only when the declared row is the padded row.
                if declared_row_bytes(source, &a.name)? != row_bytes {
                    return None;
                }
                Some(format!(
                    "{}{} + {pad}{}",
                    &d.text[..s],
                    d.text[s..e].trim(),
                    &d.text[e..]
                ))
            });
            match static_edit {
                Some(x) => x,
                None => {
                    let size_note = if a.dynamic {
                        format!(
                            "; dynamic shared memory {} -> {} bytes",
                            a.size,
                            t.new_size(a.size)
                        )
                    } else {
                        String::new()
                    };
                    format!(
                        "{}[row * ({row} + {pad}) + col] where row = i / {row}, col = i % {row} (was {}[i]){size_note}",
                        a.name, a.name
                    )
                }
            }
        }
        Transform::Swizzle {
            bits,
            base_shift,
            shift,
        } => {
            let eshift = elem.trailing_zeros();
            let m = base_shift.saturating_sub(eshift);
            let mask = (1u32 << bits) - 1;
            let src = m + shift;
            let flat = format!(
                "{name}[i ^ (((i >> {src}) & {mask}) << {m})] for every {name}[i] (i = the element index)",
                name = a.name
            );
            let two_d = decl.as_ref().and_then(|d| {
                let row = u32::try_from(eval_expr(source, d.dims.last()?, 0)?).ok()?;
                (d.dims.len() == 2 && row.is_power_of_two() && row.trailing_zeros() == src).then(|| {
                    let sh = if m == 0 { String::new() } else { format!(" << {m}") };
                    format!(
                        "{name}[r][c ^ ((r & {mask}){sh})] for every {name}[r][c]",
                        name = a.name
                    )
                })
            });
            // As CuTe writes it: the same XOR in units of the element, composed with the array's
            // row-major layout where the declaration gives both extents.
            let cute = (base_shift >= eshift).then(|| {
                let sw = format!("Swizzle<{bits},{m},{shift}>{{}}");
                let dims = decl.as_ref().and_then(|d| {
                    let v: Option<Vec<i64>> = d.dims.iter().map(|x| eval_expr(source, x, 0)).collect();
                    v.filter(|v| v.len() == 2 && v.iter().all(|&x| x > 0))
                });
                match dims {
                    Some(v) => format!(
                        "CuTe: composition({sw}, Layout<Shape<_{r}, _{c}>, Stride<_{c}, _1>>{{}}) (the swizzle in {elem}-byte elements)",
                        r = v[0],
                        c = v[1]
                    ),
                    None => format!("CuTe: {sw} on the element index ({elem}-byte elements)"),
                }
            });
            let plain = two_d.unwrap_or(flat);
            match cute {
                Some(c) => format!("{plain}\n{c}"),
                None => plain,
            }
        }
        Transform::Permute {
            unit_bytes,
            row_units,
            ref columns,
        } => permute_edit(&a.name, unit_bytes, row_units, columns, elem),
    };
    SourceEdit {
        line,
        before,
        after,
        index_lines: lines,
    }
}

/// The table and index expression of a bank permutation: a `__device__` table (read through the
/// L1 cache; a `__constant__` one would serialise lanes that read different entries) and the index
/// every access of the array must use, in elements when a unit holds whole elements, else in bytes.
fn permute_edit(name: &str, unit: u32, row: u32, columns: &[u16], elem: u32) -> String {
    let rows = columns.len().div_ceil(row as usize);
    let table_name = format!("{name}_bank_col");
    let body: Vec<String> = columns
        .chunks(row as usize)
        .map(|r| {
            let cells: Vec<String> = r.iter().map(u16::to_string).collect();
            format!("{{{}}}", cells.join(","))
        })
        .collect();
    let table = format!(
        "__device__ const unsigned char {table_name}[{rows}][{row}] = {{{}}};",
        body.join(", ")
    );
    let n = columns.len();
    let mask = !(row - 1);
    let index = if unit == elem {
        format!(
            "{name}[P(i)] for every {name}[i] (i = the element index), with \
             P(i) = i < {n} ? (i & {mask:#x}u) | {table_name}[i / {row}][i % {row}] : i"
        )
    } else if unit.is_multiple_of(elem) {
        let k = unit / elem;
        format!(
            "{name}[P(i)] for every {name}[i] (i = the element index; {k} elements per {unit}-byte unit u = i / {k}), \
             with P(i) = i / {k} < {n} ? ((i / {k} & {mask:#x}u) | {table_name}[i / {k} / {row}][i / {k} % {row}]) * {k} + i % {k} : i"
        )
    } else {
        format!(
            "byte offset o of {name} -> u = o / {unit} < {n} ? ((u & {mask:#x}u) | {table_name}[u / {row}][u % {row}]) * {unit} + o % {unit} : o"
        )
    };
    format!("{table}\n{index}")
}

// ---------------------------------------------------------------------------------------------
// What-if over architectures

/// One row of the what-if table: an array under one layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhatIfRow {
    /// The array.
    pub array: String,
    /// `as written`, or the change.
    pub layout: String,
    /// The transform (none: as written).
    pub transform: Option<Transform>,
    /// One cell per target, in column order.
    pub cells: Vec<Cost>,
}

/// A change that is ideal on some targets but not on another: which access still conflicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Remark {
    /// The array.
    pub array: String,
    /// The layout.
    pub layout: String,
    /// Where it is enough.
    pub enough_on: Vec<String>,
    /// Where it is not.
    pub target: String,
    /// The access that still conflicts worst there (pc).
    pub pc: u32,
    /// Its wavefronts and ideal there.
    pub cost: Cost,
    /// The best change on that target.
    pub fix_there: Option<String>,
}

/// The what-if comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhatIf {
    /// Column labels (targets).
    pub columns: Vec<String>,
    /// Rows.
    pub rows: Vec<WhatIfRow>,
    /// The best change per (array, target), `None` when the array does not conflict there.
    pub best: Vec<(String, String, Option<String>)>,
    /// Padding by one word (along a row some target's best change pads) where it is enough on some
    /// targets but not on others: which access still conflicts there.
    pub remarks: Vec<Remark>,
}

/// Counts, for each array that conflicts on some target, the original layout, padding by one
/// 4-byte word (or one access width) along the main row, and the best change of every target,
/// under every target's rules.
pub fn what_if(trace: &Trace, arrays: &[ArrayInfo], targets: &[Target]) -> Result<WhatIf, FixError> {
    let columns: Vec<String> = targets.iter().map(Target::label).collect();
    let base: Vec<Evaluation> = targets
        .iter()
        .map(|t| evaluate(trace, arrays, &[], t))
        .collect::<Result<_, _>>()?;
    let widths = max_widths(trace, arrays);
    let mut rows = Vec::new();
    let mut best = Vec::new();
    let mut remarks = Vec::new();
    for (i, a) in arrays.iter().enumerate() {
        if !base.iter().any(|e| e.per_array[i].excess() > 0) {
            continue;
        }
        let mut layouts: Vec<Transform> = Vec::new();
        let mut one_word: Vec<Transform> = Vec::new();
        // Padding by one word along the row the first conflicting target suggests.
        let mut best_here = Vec::new();
        for (k, t) in targets.iter().enumerate() {
            if base[k].per_array[i].excess() == 0 {
                best.push((a.name.clone(), columns[k].clone(), None));
                best_here.push(None);
                continue;
            }
            let found = search(trace, arrays, i, t, &|_| None, None)?;
            let b = found.first().map(|x| x.0.clone());
            best.push((
                a.name.clone(),
                columns[k].clone(),
                b.as_ref().map(|x| x.describe()),
            ));
            best_here.push(b.clone());
            if let Some(Transform::Pad { row_bytes, .. }) = b {
                let one = Transform::Pad {
                    row_bytes,
                    pad_bytes: widths[i].max(4),
                };
                if one.valid_for(a.size, widths[i]) && !layouts.contains(&one) {
                    layouts.insert(0, one.clone());
                    one_word.push(one);
                }
            }
            if let Some(b) = b
                && !layouts.contains(&b)
            {
                layouts.push(b);
            }
        }
        let mut evs_by_layout = Vec::new();
        rows.push(WhatIfRow {
            array: a.name.clone(),
            layout: "as written".into(),
            transform: None,
            cells: base.iter().map(|e| e.per_array[i]).collect(),
        });
        for l in &layouts {
            let mut ts = vec![None; arrays.len()];
            ts[i] = Some(l.clone());
            let evs: Vec<Evaluation> = targets
                .iter()
                .map(|t| evaluate(trace, arrays, &ts, t))
                .collect::<Result<_, _>>()?;
            rows.push(WhatIfRow {
                array: a.name.clone(),
                layout: l.describe(),
                transform: Some(l.clone()),
                cells: evs.iter().map(|e| e.per_array[i]).collect(),
            });
            evs_by_layout.push((l.clone(), evs));
        }
        // The seed's remark: padding by one word along a row is enough on some targets but not all.
        for (l, evs) in evs_by_layout.iter().filter(|(l, _)| one_word.contains(l)) {
            let enough: Vec<String> = evs
                .iter()
                .enumerate()
                .filter(|(k, e)| e.per_array[i].excess() == 0 && base[*k].per_array[i].excess() > 0)
                .map(|(k, _)| columns[k].clone())
                .collect();
            if enough.is_empty() {
                continue;
            }
            for (k, e) in evs.iter().enumerate() {
                if e.per_array[i].excess() == 0 {
                    continue;
                }
                let worst = e
                    .per_pc
                    .iter()
                    .filter(|((ai, _), _)| *ai == i)
                    .max_by_key(|(_, c)| c.excess());
                if let Some((&(_, pc), &cost)) = worst {
                    remarks.push(Remark {
                        array: a.name.clone(),
                        layout: l.describe(),
                        enough_on: enough.clone(),
                        target: columns[k].clone(),
                        pc,
                        cost,
                        fix_there: best_here[k].as_ref().map(|b| b.describe()),
                    });
                }
            }
        }
    }
    Ok(WhatIf {
        columns,
        rows,
        best,
        remarks,
    })
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.wavefronts, self.ideal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_demangle() {
        assert_eq!(source_name("_ZZ10rectRowColE4tile"), "tile");
        assert_eq!(source_name("_ZZ11matmulTiledE2As"), "As");
        assert_eq!(source_name("tile"), "tile");
        // template kernels: the function's name carries its arguments and parameters
        assert_eq!(source_name("_ZZ8blockSumILi256EEvPKfPfE4tile"), "tile");
        assert_eq!(source_name("_ZZ13transposeSmemILb1EEvPKfPfiiE4tile"), "tile");
    }

    #[test]
    fn transforms_are_bijections_that_keep_accesses_whole() {
        for t in [
            Transform::Pad {
                row_bytes: 128,
                pad_bytes: 8,
            },
            Transform::Pad {
                row_bytes: 512,
                pad_bytes: 16,
            },
            Transform::Swizzle {
                bits: 3,
                base_shift: 4,
                shift: 4,
            },
            Transform::Swizzle {
                bits: 5,
                base_shift: 2,
                shift: 5,
            },
        ] {
            for w in [4, 16] {
                if t.valid_for(8192, w) {
                    assert!(t.preserves_accesses(8192, w), "{t:?} width {w}");
                }
            }
        }
        // A swizzle that moves 4-byte units breaks 16-byte accesses, and validity says so.
        let s = Transform::Swizzle {
            bits: 3,
            base_shift: 2,
            shift: 3,
        };
        assert!(!s.valid_for(8192, 16));
        assert!(!s.preserves_accesses(8192, 16));
    }

    #[test]
    fn declarations_are_found_and_edited() {
        let src = "#define BDIMX 32\n__global__ void k(int *o) {\n    __shared__ int tile[BDIMY][BDIMX];\n    tile[threadIdx.y][threadIdx.x] = 1;\n    o[0] = tile [0][1];\n}\n";
        let d = find_decl(src, "tile").unwrap();
        assert_eq!((d.line, d.ty.as_str()), (3, "int"));
        assert_eq!(d.dims, vec!["BDIMY", "BDIMX"]);
        let a = ArrayInfo {
            ptx_name: "_ZZ1kE4tile".into(),
            name: "tile".into(),
            offset: 0,
            size: 2048,
            align: 4,
            dynamic: false,
        };
        let e = source_edit(
            src,
            &a,
            &Transform::Pad {
                row_bytes: 128,
                pad_bytes: 8,
            },
            4,
        );
        assert_eq!(e.after, "    __shared__ int tile[BDIMY][BDIMX + 2];");
        assert_eq!(e.line, Some(3));
        assert_eq!(e.index_lines, vec![4, 5]);
        assert_eq!(
            declared_elem_bytes("extern __shared__ float4 s[];", "s"),
            Some(16)
        );
    }

    #[test]
    fn stmatrix_rows_are_counted_by_the_matrix_rule() {
        // One stmatrix.x4 whose 32 rows are 128 bytes apart: each matrix's 8 rows in one group.
        let addrs: [u32; 32] = std::array::from_fn(|l| l as u32 * 128);
        let acc = Access {
            pc: 0,
            side: Side::Store,
            atomic: false,
            width: 16,
            ptx_width: 16,
            mask: u32::MAX,
            addrs,
            form: Form::Matrix(4),
            src: None,
        };
        let trace = Trace::from_accesses([(acc, 2)]);
        let arrays = [ArrayInfo {
            ptx_name: "t".into(),
            name: "t".into(),
            offset: 0,
            size: 4096,
            align: 16,
            dynamic: false,
        }];
        let h100 = Target::parse("sm_90").unwrap();
        let e = evaluate(&trace, &arrays, &[], &h100).unwrap();
        assert_eq!((e.per_array[0].wavefronts, e.per_array[0].ideal), (64, 8));
        let sw = Transform::Swizzle {
            bits: 3,
            base_shift: 4,
            shift: 3,
        };
        let e = evaluate(&trace, &arrays, &[Some(sw)], &h100).unwrap();
        assert_eq!((e.per_array[0].wavefronts, e.per_array[0].ideal), (8, 8));
        // stmatrix needs CC 9.0: on an A100 it is not counted, and says so.
        let e = evaluate(&trace, &arrays, &[], &Target::parse("sm_80").unwrap()).unwrap();
        assert_eq!((e.per_array[0].wavefronts, e.unmodelled[0]), (0, 2));
    }

    #[test]
    fn targets_parse() {
        assert_eq!(Target::parse("sm_35:8B").unwrap().label(), "sm_35:8B");
        assert!(Target::parse("sm_90:8B").is_err());
        assert!(Target::parse("sm_35:3B").is_err());
        assert_eq!(Target::parse_list("all").unwrap().len(), 13);
        assert_eq!(Target::parse_list("sm_90,7.0").unwrap().len(), 2);
    }
}
