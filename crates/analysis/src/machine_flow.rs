//! Branch counters of the machine code itself: the kernel's SASS run warp by warp on the launch's
//! own values, as far as its control flow needs.
//!
//! The PTX-level count ([`crate::divergence`]) is the machine code's only where every source line
//! keeps its branches one for one. Where ptxas unrolled a loop (`for (i = 0; i < n; i++)` becomes a
//! 16-way body, a 4-way body and a remainder loop, each with its own trip test), the counts of the
//! machine code's branches are a function of the trip count that the PTX does not show. This module
//! runs the machine code: integer arithmetic, predicates, constant-bank reads (launch geometry and
//! the kernel's parameters), special registers, warp votes and shuffles, the float steps of
//! ptxas's integer division, double-precision arithmetic and compares ([`double`]), each thread's
//! local memory ([`local`]), `BRX` jump tables (constant bank 2) and global loads from the
//! launch's starting memory, float steps with `.FTZ`/`.SAT`/directed rounding, `FRND` and `F2I`
//! ([`float`]), the `MUFU` unit's results (the H200's tables, `warpscope_emu::mufu`, with
//! `MUFU.RCP64H` and `MUFU.RSQ64H`) and indirect calls ([`indirect`]) are followed exactly; what
//! comes from shared memory (see [`shared`]), textures and atomics is *unknown*. Control flow runs on the
//! architecture's convergence rules (`BSSY`/`BSYNC` barriers, `BREAK`, `WARPSYNC`, `EXIT`, calls
//! and returns, the barriers' save and restore around recursive calls, `BMOV`), lanes at the same code offset executing together. A branch, exit or return whose
//! condition is unknown in any lane it runs for ends the run with the reason: the counts are then
//! not claimed. Warps never depend on each other here (every value another warp could have
//! written is unknown), so each runs alone.
//!
//! Each execution of a counted branch (`BRA`, `BRX`, `JMP`, `CALL`, ... as
//! [`warpscope_toolchain::sass::SassBranch::counted`] says) by a group of lanes is one branch
//! target; it is divergent when some of the lanes jump and some do not (the counting rule of
//! `calibration/branch/`, which Nsight Compute's `smsp__sass_branch_targets` and
//! `smsp__sass_branch_targets_threads_divergent` follow).

use std::collections::HashMap;

use rayon::prelude::*;
use warpscope_emu::AccessOp;
use warpscope_toolchain::sass::{SassKernel, SassLine};

use crate::global::GlobalCounts;

mod double;
mod float;
mod indirect;
mod join;
mod local;
mod loops;
mod moves;
mod shared;
mod yields;

pub use local::{UNDEFINED_LOCAL, reads_undefined_local};
pub use shared::{BlockShared, FlowShared, SASS_SHARED_BASE, SharedRecorder};

const RZ: u8 = 255;
/// The most `YIELD`s one warp runs before the flow gives up on it: a loop over volatile loads
/// that waits for another thread's store would otherwise spin on the launch's starting value.
const YIELD_CAP: u64 = 1 << 16;
const URZ: u8 = 63;
const PT: u8 = 7;

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Src {
    R(u8),
    Ur(u8),
    Imm(u32),
    /// A decimal immediate of a float instruction.
    FImm(f32),
    /// `c[bank][off]`, `c[bank][Rn+off]`, `c[bank][URn+off]`.
    Const {
        bank: u8,
        off: u32,
        reg: Option<u8>,
        ureg: Option<u8>,
    },
    Sr(Sr),
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sr {
    Tid(usize),
    Ctaid(usize),
    LaneId,
    LtMask,
    LeMask,
    GtMask,
    GeMask,
    EqMask,
    /// `SR_CgaCtaId`: the block's rank in its cluster.
    CgaCtaId,
    /// `SR_LMEMHIOFF`: the lowest address a thread's stack may reach, which a debug build's
    /// (`-G`) function compares its stack pointer with on entry (`@P0 BRA` past a `BPT.TRAP`).
    LmemHiOff,
    Zero,
    Other,
}

/// An operand with its modifiers (`-R3`, `~R3`, `|R3|`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Opnd {
    src: Src,
    neg: bool,
    not: bool,
    abs: bool,
}

/// A predicate operand (`P0`, `!P1`, `PT`, `UP0`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pred {
    uniform: bool,
    idx: u8,
    neg: bool,
}

impl Pred {
    const TRUE: Pred = Pred {
        uniform: false,
        idx: PT,
        neg: false,
    };
}

/// A destination.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Dst {
    R(u8),
    Ur(u8),
    P(u8),
    Up(u8),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    // float only
    Ltu,
    Equ,
    Leu,
    Gtu,
    Neu,
    Geu,
    Num,
    Nan,
    F,
    T,
}

impl Cmp {
    /// An integer compare's result for operands in the order `o` (`None`: a float-only compare).
    fn of_order(self, o: std::cmp::Ordering) -> Option<bool> {
        match self {
            Cmp::Lt => Some(o.is_lt()),
            Cmp::Le => Some(o.is_le()),
            Cmp::Gt => Some(o.is_gt()),
            Cmp::Ge => Some(o.is_ge()),
            Cmp::Eq => Some(o.is_eq()),
            Cmp::Ne => Some(o.is_ne()),
            Cmp::F => Some(false),
            Cmp::T => Some(true),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bop {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Mov,
    /// `d = a * b + c` (lo 32), `.HI`: hi 32 of `a * b + {c+1:c}`, `.WIDE`: 64-bit, `.X`: plus carry.
    Imad {
        hi: bool,
        wide: bool,
        signed: bool,
        x: bool,
    },
    Iadd3 {
        x: bool,
    },
    Lop3,
    Plop3,
    Shf {
        left: bool,
        hi: bool,
        signed: bool,
        wide64: bool,
        wrap: bool,
    },
    Lea {
        hi: bool,
        x: bool,
        sx32: bool,
    },
    /// `SEL`/`USEL`, `FSEL` (`float`: `|x|` and `-x` act on the sign bit).
    Sel {
        float: bool,
    },
    Iabs,
    Popc,
    Flo {
        sh: bool,
    },
    Brev,
    Prmt,
    Mnmx {
        signed: bool,
        add: bool,
        /// `VIMNMX3`: the minimum or maximum of three sources
        three: bool,
    },
    Isetp {
        cmp: Cmp,
        signed: bool,
        bop: Bop,
        ex: bool,
    },
    Fsetp {
        cmp: Cmp,
        bop: Bop,
        ftz: bool,
    },
    P2r,
    R2p,
    S2r,
    Ldc {
        words: u8,
        /// A sub-word load (`.U8`, `.S16`...): its bytes and whether it sign-extends.
        sub: Option<(u8, bool)>,
    },
    Cs2r,
    Vote {
        all: bool,
    },
    Shfl {
        mode: u8,
    },
    Redux {
        op: u8,
        signed: bool,
    },
    MatchAny,
    /// `R2UR P, UR, R` (a predicate out first): `UR` takes one lane's `R` (the lowest active lane
    /// here) and `P` is set in the lanes whose `R` differs from it (H200, `calibration/bradiv/`:
    /// the `@!P BRA.DIV` after it runs predicated on in as many lanes as agree with one lane).
    R2urCheck,
    Elect,
    I2f {
        signed: bool,
        up: bool,
        toward_zero: bool,
    },
    /// `MUFU.RCP`: exact when it starts ptxas's integer division (the correction steps after it
    /// make the quotient exact whatever the hardware's last bit), else approximate.
    Rcp {
        exact: bool,
    },
    /// `MUFU.EX2/LG2/RSQ/SQRT/SIN/COS/TANH`: the H200's unit (`warpscope_emu::mufu`, measured).
    Mufu {
        func: u8,
    },
    /// `MUFU.RCP64H` / `MUFU.RSQ64H` (`rsq`): the H200's double-precision seed of a high word
    /// (`warpscope_emu::mufu::rcp64h`, `rsq64h`, measured), a 32-bit result.
    Rcp64h {
        rsq: bool,
    },
    /// `FCHK P, a, b`: whether `a / b` needs the slow path; known `false` for well-scaled operands.
    Fchk,
    /// `F2I` to a 32-bit integer, `round` as in [`float::frnd`].
    F2i {
        signed: bool,
        round: u8,
        ftz: bool,
    },
    /// `FRND` (`.F32`), `round` as in [`float::frnd`].
    Frnd {
        round: u8,
        ftz: bool,
    },
    /// `FMNMX d, a, b, p`: the smaller when `p`, else the larger ([`float::fmnmx`]).
    Fmnmx {
        ftz: bool,
    },
    /// `FADD`/`FMUL`/`FFMA` (`op` 0, 1, 2) with `.FTZ`, `.SAT` or a directed rounding.
    Fmod {
        op: u8,
        mods: float::Mods,
    },
    Fadd,
    /// Rounding: 0 to nearest, 1 toward zero, 2 down, 3 up.
    Fmul {
        round: u8,
    },
    Ffma,
    /// `LDG` (and generic `LD`, `generic`): `bytes` per lane from global memory (sign-extended
    /// when `signed`).
    Ldg {
        bytes: u8,
        signed: bool,
        generic: bool,
    },
    /// `STG` (and generic `ST`, whose value is then forgotten): `bytes` per lane.
    Stg {
        bytes: u8,
        known: bool,
    },
    /// Global atomics and reductions: the memory they touch becomes unknown.
    AtomG {
        bytes: u8,
    },
    /// `TEX` / `TLD` through a texture object whose handle is a uniform register: each lane
    /// samples the texture (`warpscope_emu::tex`, as the emulation does) at its coordinates
    /// (`src`: the `dims` coordinate registers, then the handle; integers when `ints`), reading
    /// the texels as a global load reads memory; `dst` holds the enabled channels' registers in
    /// channel order, `mask` the channels.
    Tex {
        dims: u8,
        ints: bool,
        mask: u8,
    },
    // control
    Bra {
        any: bool,
        div: bool,
    },
    Exit,
    Bssy,
    Bsync,
    Break,
    /// `YIELD` (ptxas puts one in loops over volatile loads and other loops that may wait on other
    /// threads): the lanes running it leave every convergence barrier they are in, as a `BREAK`
    /// of each would take them out ([`Warp::yielded`]).
    Yield,
    Warpsync,
    /// `WARPSYNC.EXCLUSIVE R`: the lanes split by their mask `R` and run one group after another
    /// (each until it waits at a convergence barrier or exits).
    ExclusiveSync,
    Call {
        abs: bool,
    },
    Ret,
    Nop,
    /// `DADD`/`DMUL`/`DFMA`, rounded to nearest or in a modifier's direction (`round` as in
    /// [`double::arith`]).
    Dop {
        op: double::Dop,
        round: u8,
    },
    /// `DSETP`.
    Dsetp {
        cmp: Cmp,
        bop: Bop,
    },
    /// `DSETP.MIN.AND` / `DSETP.MAX.AND` (`max`): ptxas's `fmin`/`fmax` of doubles
    /// ([`double::min_max`]).
    Dminmax {
        max: bool,
    },
    /// Conversions between doubles and 32-bit integers or floats.
    Dcvt {
        op: double::Dcvt,
    },
    /// `LDL`: `bytes` per lane from the lane's own local memory ([`local`]).
    Ldl {
        bytes: u8,
        signed: bool,
    },
    /// `STL`.
    Stl {
        bytes: u8,
    },
    /// `LDS`: `bytes` per lane from the block's shared memory ([`shared`]).
    Lds {
        bytes: u8,
        signed: bool,
    },
    /// `STS`.
    Sts {
        bytes: u8,
    },
    /// `ATOMS`: the bytes it touches become unknown, and so does its result.
    AtomS {
        bytes: u8,
    },
    /// `BAR.SYNC` / `BAR.RED` (a block-wide barrier: the next shared-memory phase), `BAR.ARV`
    /// (`arrive`: the warp does not wait, shared memory is no longer followed).
    Bar {
        arrive: bool,
        /// `BAR.SYNC 0x0` with no thread count: every thread of the block takes part
        /// (`__syncthreads`).
        block: bool,
    },
    /// `BRX R, imm`: an indirect jump to `R + next + imm` (ptxas's jump table for a `switch`:
    /// `R` loaded from constant bank 2).
    Brx {
        reg: u8,
        imm: i64,
    },
    /// `SYNCS.PHASECHK.TRANS64{.TRYWAIT} P, [a], R`: whether the mbarrier's phase of parity `R`
    /// has completed. Known (true) only where the launch's emulation saw every phase of the
    /// block's mbarriers completed by its own asynchronous copies ([`BlockShared::waits_on_copies`]):
    /// the try's suspension window outlasts a copy's latency, so the wait loop runs once.
    MbarWait,
    /// Results unknown: the destinations are forgotten.
    Poison,
    /// Cannot be followed (indirect jumps, traps, warp-synchronous slow paths).
    Stop,
    /// `CALL.REL.NOINC R10 0x0`: a call through a register (a function pointer, a virtual
    /// method): each lane to the function whose code offset its register holds ([`indirect`]).
    IndirectCall {
        reg: u8,
    },
    /// `BMOV.32{.CLEAR} Rd, Bb`: the lanes convergence barrier `b` (`Ins::barrier`) waits for into
    /// `Rd` (`Ins::dst`), the barrier cleared with `.CLEAR`; `BMOV.32 Bb, Ra` (`to_reg` false):
    /// the barrier set from `Ra` (`Ins::src`), which every executing lane must agree on. ptxas
    /// saves and restores the barriers so around recursive calls.
    Bmov {
        to_reg: bool,
        clear: bool,
    },
}

impl Kind {
    fn is_control(self) -> bool {
        matches!(
            self,
            Kind::Bra { .. }
                | Kind::Exit
                | Kind::Bsync
                | Kind::Break
                | Kind::Warpsync
                | Kind::ExclusiveSync
                | Kind::Call { .. }
                | Kind::Ret
                | Kind::Brx { .. }
                | Kind::IndirectCall { .. }
                | Kind::Bmov { .. }
        )
    }
}

#[derive(Clone, Debug)]
struct Ins {
    offset: u32,
    text: String,
    kind: Kind,
    guard: Pred,
    dst: Vec<Dst>,
    src: Vec<Opnd>,
    preds: Vec<Pred>,
    /// Branch / `BSSY` / call target, as an instruction index.
    target: Option<usize>,
    /// Barrier register of `BSSY`/`BSYNC`/`BREAK`.
    barrier: u8,
    counted: bool,
    /// A global access's address: the 64-bit register pair and the immediate offset.
    addr: Option<(u8, i64)>,
    /// A local access's address: the 32-bit register and the offset.
    laddr: Option<(Src, i32)>,
    /// A shared access's address ([`shared_address`]).
    saddr: Option<SharedAddr>,
    /// A float instruction computed here to nearest whose modifiers (`.FTZ`, `.SAT`, directed
    /// rounding of an add) may change the last bits: its result is approximate.
    rounded_approx: bool,
    /// The `FFMA d, RZ, hi(b), hi(q)` of ptxas's double-division fast-path test (see
    /// [`ddiv_check`]).
    ddiv: Option<Ddiv>,
    /// The `DFMA e, seed, -b, 1` that starts the division's Newton sequence: the index of the
    /// operand holding `-b` (read there, since a constant divisor's registers are reused before
    /// the test).
    ddiv_seed: Option<u8>,
}

/// The registers of ptxas's double-division fast-path test.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ddiv {
    /// The high word of the dividend `a` (its pair: this register and the one below).
    a_hi: u8,
    /// The high word of the quotient `q` the Newton sequence left.
    q_hi: u8,
}

/// ptxas's `div.rn.f64` (calibration/ddiv/README.md): `MUFU.RCP64H` of `hi(b)`, a Newton sequence
/// giving the quotient `q`, then `FFMA d, RZ, hi(b), hi(q)` and `FSETP.GT |d| > 0x00100000 (as a
/// float)`, with `FSETP.GEU |hi(a)| >= 0x03600000` beside it, deciding the fast path. Where the
/// Newton sequence's values are known (its seed is the H200's `MUFU.RCP64H`, its steps IEEE) the
/// test is read off them; otherwise the FFMA's value is made from `a` and `b`: `hi(q)` of the correctly rounded quotient (the fast path's own result wherever the
/// test passes, H200: 361 of 361 launches around every edge of the test,
/// calibration/ddiv/h200_branch_*), or NaN where `hi(b)` read as a float is an infinity or NaN
/// (`0 * inf`). Unknown within a unit of the test's edges, where the Newton result may differ
/// from the rounded quotient. Also the quotient itself, which the fast path leaves in `q`
/// (`div.rn.f64` is correctly rounded); where the test sends the division to the slow path, the
/// slow path writes its own result.
fn ddiv_check(a: Option<(u32, u32)>, b: Option<(u32, u32)>) -> Option<(u32, f64)> {
    let (a, b) = (a?, b?);
    let hb = b.1;
    let fa = f64::from_bits(u64::from(a.1) << 32 | u64::from(a.0));
    let fb = f64::from_bits(u64::from(hb) << 32 | u64::from(b.0));
    let q = fa / fb;
    if hb & 0x7f80_0000 == 0x7f80_0000 {
        return Some((0x7fc0_0000, q));
    }
    let hq = (q.to_bits() >> 32) as u32;
    let mag = hq & 0x7fff_ffff;
    if mag.abs_diff(0x0010_0000) <= 1 || mag.abs_diff(0x7f80_0000) <= 1 {
        return None;
    }
    Some((hq, q))
}

/// A kernel's machine code, decoded once for [`MachineFlow::run`].
#[derive(Clone, Debug)]
pub struct MachineFlow {
    ins: Vec<Ins>,
    /// Instructions whose results can reach a control decision ([`slice`]); the others are
    /// skipped.
    needed: Vec<bool>,
    /// The first instruction at or after each one that is needed or steers the warp (a branch,
    /// barrier, convergence or exit): what a group steps over at once ([`Self::run_warp`]).
    skip_to: Vec<u32>,
    /// The first instruction of each instruction's straight-line block (after a control
    /// instruction, at a branch, call or convergence target): see [`FlowCounts::may_merge_global`].
    block_start: Vec<u32>,
    /// Needed instructions whose values matter ([`slice`]): an `LDG` or `STG` that is not is
    /// followed for its address only.
    value: Vec<bool>,
    /// Counted loops at their backward branches ([`loops`]): their iterations are added in
    /// closed form once a warp has run one.
    loops: Vec<Option<loops::Loop>>,
    /// No needed instruction reads a special register (thread, block, lane), memory, another
    /// lane's value or an unknown result: a warp's path depends only on its lanes, so one warp per
    /// lane set is run and its counts multiplied.
    same_path: Option<Vec<Sr>>,
    at: HashMap<u32, usize>,
    /// Count the global loads and stores ([`FlowCounts::global`]): `None` not asked, `Some(Err)`
    /// asked but the code has an access that cannot be counted (the reason).
    globals: Option<Result<(), &'static str>>,
    /// Count the shared loads and stores ([`FlowCounts::shared`]) by the architecture's bank
    /// rules: `None` not asked, `Some(Err)` asked but the code has a shared access that cannot be
    /// counted (the reason).
    shared: Option<Result<&'static warpscope_model::arch::Arch, &'static str>>,
    /// The code writes global memory by instructions the run does not follow as stores (bulk and
    /// tensor copies to global memory, surface stores): see [`FlowReads::hold`].
    unfollowed_writes: bool,
    /// Every barrier of the code is a `__syncthreads` ([`Kind::Bar`]'s `block`): a warp's barrier
    /// count orders its global accesses against the other warps' of its block
    /// ([`FlowReads::hold`]).
    block_barriers: bool,
    /// The code has a `YIELD` ([`Kind::Yield`]).
    yields: bool,
    /// Why the counts of code after its `YIELD` loops may not be the H200's ([`yields::doubt`]).
    yield_doubt: Option<&'static str>,
    /// The kernel's constant bank 2 (`BRX` jump tables).
    constant2: std::sync::Arc<Vec<u8>>,
    /// Where the first parameter lies past `c[0x0][0x210]` ([`SassKernel::param_shift`]).
    param_shift: u32,
    /// The module's `__constant__` variables in constant bank 3: (offset, size, symbol).
    constant3: Vec<(u32, u32, String)>,
    /// The module's constant bank 4: global symbols' addresses (offset, symbol, addend).
    constant4: std::sync::Arc<Vec<(u32, String, i64)>>,
    /// The functions the kernel's code holds a copy of (`$kernel$function` labels): the
    /// function's name and its code offset.
    functions: Vec<(String, u32)>,
    /// `WARPSCOPE_FLOW_TRACE` set: the first warp instructions go to stderr.
    trace: bool,
    /// `WARPSCOPE_FLOW_TRACE=all`: every warp instruction (and its destinations' values) goes to
    /// stderr.
    trace_all: bool,
    /// How many times a warp added a counted loop's iterations in closed form.
    #[cfg(test)]
    added: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// One launch's geometry and parameter bytes (the constant bank's `0x210..`).
#[derive(Clone)]
pub struct FlowLaunch<'a> {
    /// Global memory as the launch starts (loads read it; `None`: every load is unknown).
    pub global: Option<&'a warpscope_emu::mem::Global>,
    /// Grid dimensions in blocks.
    pub grid: [u32; 3],
    /// Block dimensions in threads.
    pub block: [u32; 3],
    /// The parameter buffer as the kernel's parameter layout places it.
    pub params: &'a [u8],
    /// The addresses of the module's global variables by name, for constant bank 4 (the
    /// addresses of the math library's tables: `__cudart_sin_cos_coeffs`), and of its functions
    /// (the emulation's function pointers, for indirect calls: [`indirect`]).
    pub symbols: &'a [(String, u64)],
    /// The module's `__constant__` variables as the launch starts (name, bytes), for constant
    /// bank 3 (an empty list: every read of the bank is unknown).
    pub constants: &'a [(String, Vec<u8>)],
    /// The cluster's dimensions in blocks (`[1, 1, 1]`: no clusters).
    pub cluster: [u32; 3],
    /// The shared-memory records of the PTX emulation of the same launch, by linear block id
    /// ([`shared`]; `None`: every shared load is unknown).
    pub shared: Option<&'a rustc_hash::FxHashMap<u32, BlockShared>>,
}

/// Branch counters of one launch's machine code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowCounts {
    /// `smsp__sass_branch_targets.sum`.
    pub targets: u64,
    /// `smsp__sass_branch_targets_threads_divergent.sum`.
    pub divergent: u64,
    /// Warp-level instructions followed.
    pub warp_insts: u64,
    /// The machine code's global loads and stores (`LDG`, `STG`, generic `LD`/`ST` to global
    /// memory), each execution by a group of lanes one request, when
    /// [`MachineFlow::counting_globals`] asked for them and every one was followed.
    pub global: Option<GlobalCounts>,
    /// Why [`Self::global`] is `None` though asked for.
    pub global_why: Option<&'static str>,
    /// The machine code's shared loads and stores (`LDS`, `STS`), each execution by a group of
    /// lanes one instruction, its wavefronts by the bank model, when [`MachineFlow::counting`]
    /// asked for them and every one was followed.
    pub shared: Option<SharedFlowCounts>,
    /// Why [`Self::shared`] is `None` though asked for.
    pub shared_why: Option<&'static str>,
    /// Times a group waited on a shared load while two or more cohorts that parted from it stood
    /// at one instruction ([`join`]): the H200 profiled with shared loads instrumented by address
    /// ran such lanes together (one branch target fewer per place at most); `targets` is its count
    /// otherwise.
    pub may_join: u64,
    /// Times a group started a convergence barrier while lanes of another group were still inside
    /// a region of it (ptxas shares code between the sides of a branch it does not join:
    /// calibration/run/bench10/raytrace.cu). Each group then waits for its own lanes and goes on
    /// apart from the other group even where both wait at the same `BSYNC` (raytrace's second
    /// frame: every instruction's executions equal the H200's source page). Where two such groups
    /// then stand at one instruction the GPU ran them together once in the first frame (one group
    /// fewer at `/*3280*/`, 73 branch targets), so the counters are estimates where this happened.
    pub overlapping_barriers: u64,
    /// Times a group ran a global load or store while lanes of another cohort of its warp, not
    /// joined to it by a convergence barrier, stood in the same straight-line block before the
    /// access, so that they run it apart afterwards (hashq's `lookupQuad`: each probe
    /// iteration's hits leave the loop to their `vals` load with no `BSYNC` before it). The GPU
    /// runs some such cohorts together, which ones depending on how it is profiled: the H200
    /// counted 733 executions of that load in every source-page pass and 738 in every metrics
    /// pass (the flow 739, each cohort apart), so the global counters of a launch where this
    /// happens are estimates (calibration/run/repeat/README.md).
    pub may_merge_global: u64,
    /// Times a group ran a counted branch (or call or return) while lanes of another cohort of
    /// its warp, not joined to it by a convergence barrier, stood in the same straight-line block
    /// before it, as [`Self::may_merge_global`] for global accesses. A debug build's (`-G`)
    /// `numbers` (calibration/run/bench13 `dbg`, its Collatz loop's `break` and a recursion:
    /// cohorts nothing joins) is where this happens; the H200 counted 3,757,688 branch targets
    /// in its metrics pass and 3,770,455 in each of four passes of the branch counters alone (the
    /// flow 3,773,104, each cohort apart), so the branch counters of such a launch are estimates.
    /// The own calls programs (calibration/run/calls), where it does not happen, are equal.
    pub may_merge_branch: u64,
    /// Times a group ran a counted branch as the first after a divergent branch parted its lanes
    /// from others, where lanes of its warp that an earlier execution of the same divergent
    /// branch had parted already ran that same branch first and now wait at a convergence
    /// barrier ([`join::exit_merge`]): the lanes leaving a loop by a `break` on different
    /// iterations, each group through the same branches to the loop's `BSYNC`. The flow runs the
    /// side that leaves first, each group apart; the GPU now and then runs the side that stays in
    /// the loop first and the leaving groups together: a debug build's (`-G`) heap sift
    /// (calibration/run/bench19 `heaptopk_G`), 16 and 35 such groups fewer than the flow at the
    /// `BRA` pair of its `break` (32 and 70 branch targets fewer), every other branch's executions
    /// equal to the H200's source page.
    pub may_merge_exit: u64,
}

/// Shared loads and stores of the machine code ([`FlowCounts::shared`]): Nsight Compute's
/// `smsp__sass_inst_executed_op_shared_ld/st` and their instruction-attributed wavefronts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedFlowCounts {
    /// `LDS` executions.
    pub ld_instructions: u64,
    /// Their wavefronts.
    pub ld_wavefronts: u64,
    /// Their wavefronts without bank conflicts.
    pub ld_ideal: u64,
    /// `STS` executions.
    pub st_instructions: u64,
    /// Their wavefronts.
    pub st_wavefronts: u64,
    /// Their wavefronts without bank conflicts.
    pub st_ideal: u64,
    /// The `LDS` wavefronts Nsight Compute attributes to them
    /// ([`warpscope_model::bank::attributed`]).
    pub ld_attributed: u64,
    /// The same for the `STS`.
    pub st_attributed: u64,
}

impl SharedFlowCounts {
    fn add(&mut self, o: &SharedFlowCounts) {
        self.ld_instructions += o.ld_instructions;
        self.ld_wavefronts += o.ld_wavefronts;
        self.ld_ideal += o.ld_ideal;
        self.st_instructions += o.st_instructions;
        self.st_wavefronts += o.st_wavefronts;
        self.st_ideal += o.st_ideal;
        self.ld_attributed += o.ld_attributed;
        self.st_attributed += o.st_attributed;
    }
}

/// The global memory a run read, for checking after the launch that what it read is what the
/// launch left there: a warp reads memory as it was before the launch (or as it wrote it itself),
/// so a value another warp changed during the launch may be read wrong. When no branch depended on
/// memory this does not matter and nothing is checked.
#[derive(Clone, Debug, Default)]
pub struct FlowReads {
    /// Some branch, exit or convergence depended on a value loaded from memory.
    pub decided: bool,
    /// Some shared load took a value from the emulation's record ([`FlowLaunch::shared`]).
    pub shared: bool,
    /// The 4-byte words read from the launch's starting memory, with the values read, the
    /// reading warp and its barrier phase (block-wide barriers it had passed).
    words: Vec<(u64, u32, u32, u32)>,
    overflow: bool,
    /// Word address → the warps that stored to it during the run.
    writers: rustc_hash::FxHashMap<u64, Writer>,
    /// Some store's address was not known, or the code writes global memory in ways not followed
    /// (bulk copies, surface stores): [`Self::writers`] may miss words.
    blind: bool,
    /// Warps per block (a warp's block is its number in the launch divided by it).
    per_block: u32,
    /// The warps' barrier phases do not order their accesses: the code has a barrier other than
    /// `__syncthreads` (`BAR.ARV`, named barriers, thread counts, `BAR.RED`), or some warp passed a
    /// barrier with part of its lanes.
    unordered: bool,
    /// Words read as the launch left them ([`FlowLate`]): word address → the block whose warps
    /// read them so and the last barrier phase the stores to it were made in by the earlier run.
    late_used: rustc_hash::FxHashMap<u64, (u32, u32)>,
}

/// Words of global memory that warps of one block store before a `__syncthreads` and then read
/// (`back[t] = ...; __syncthreads(); ... if (t == 0) x = back[k];`): a run of the launch found that
/// every store to such a word was made by warps of one block in barrier phases before the one the
/// reads were made in, so on the GPU the reads see the words as the launch left them. A run given
/// them ([`MachineFlow::run_late`]) serves those reads the launch's final values and checks
/// ([`FlowReads::hold`]) that its own stores to the words keep that order.
#[derive(Clone, Debug, Default)]
pub struct FlowLate {
    /// Word address → (its value after the launch, the block, the last phase a store was made in).
    words: rustc_hash::FxHashMap<u64, (u32, u32, u32)>,
}

/// The warps that stored to one word of global memory during a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Writer {
    /// The one warp that stored to it ([`FlowReads::MANY`]: several).
    warp: u32,
    /// The one block whose warps stored to it ([`FlowReads::MANY`]: several).
    block: u32,
    /// The lowest barrier phase any of those stores was made in.
    phase: u32,
    /// The highest.
    last: u32,
}

impl FlowReads {
    /// Most words kept for the check.
    const MAX: usize = 1 << 26;
    /// [`Self::writers`]: more than one warp stored to the word.
    const MANY: u32 = u32::MAX;

    /// Whether the run's counters hold given the memory after the launch: no branch depended on
    /// memory, or every word read still has the value read, or was changed only by the warp that
    /// read it (no other warp wrote it, so the warp read what it would on the GPU: the launch's
    /// starting value before its own store, its own value after; a thread's `a[i] = a[i] / b`), or
    /// only by warps of the reader's block after a `__syncthreads` the reader had not yet passed
    /// when it read (the barrier orders the read before every such store, so the reader saw the
    /// launch's starting value on the GPU too: `x = p[b]; __syncthreads(); ... if (t == 0) p[b] =
    /// y;`).
    ///
    /// Words a run given [`FlowLate`] read as the launch left them hold when every store to them
    /// was made by warps of the reading block in a phase before the reads.
    pub fn hold(&self, after: &warpscope_emu::mem::Global) -> bool {
        let late = self.late_used.iter().all(|(a, &(block, last))| {
            !self.blind
                && !self.unordered
                && self
                    .writers
                    .get(a)
                    .is_some_and(|w| w.block == block && w.last <= last)
        });
        !self.decided
            || (!self.overflow
                && late
                && self.words.iter().all(|&(a, v, warp, phase)| {
                    global_word(after, a).0 == v
                        || !self.blind
                            && self.writers.get(&a).is_some_and(|w| {
                                w.warp == warp
                                    || !self.unordered
                                        && self.per_block != 0
                                        && w.block == warp / self.per_block
                                        && w.phase > phase
                            })
                }))
    }

    /// Whether some warp read a word that a warp of its block stored to in an earlier barrier
    /// phase (a read the launch's starting memory may answer wrong, and [`FlowLate`] right).
    pub fn reads_earlier_stores(&self) -> bool {
        self.decided
            && !self.blind
            && !self.unordered
            && !self.overflow
            && self.per_block != 0
            && self.words.iter().any(|&(a, _, warp, phase)| {
                self.writers
                    .get(&a)
                    .is_some_and(|w| w.warp != warp && w.block == warp / self.per_block && w.phase < phase)
            })
    }

    /// The words to read as the launch left them in another run, when [`Self::hold`] fails only
    /// at reads of words that warps of the reader's block stored before the reader's barrier
    /// phase (`None`: some other read fails, or none of this kind): every word that warps of one
    /// block alone stored, with its value after the launch, its block and the last phase stored
    /// in (a reader of another block, or one in an earlier phase, reads the starting value as
    /// before; a path that goes elsewhere with the right values may read words the first did
    /// not).
    pub fn late(&self, after: &warpscope_emu::mem::Global) -> Option<FlowLate> {
        if !self.decided || self.overflow || self.blind || self.unordered || self.per_block == 0 {
            return None;
        }
        let mut any = false;
        for &(a, v, warp, phase) in &self.words {
            if global_word(after, a).0 == v {
                continue;
            }
            let w = self.writers.get(&a)?;
            let block = warp / self.per_block;
            if w.warp == warp || w.block == block && w.phase > phase {
                continue;
            }
            if w.block != block || w.last >= phase {
                return None;
            }
            any = true;
        }
        any.then(|| FlowLate {
            words: self
                .writers
                .iter()
                .filter(|(_, w)| w.block != Self::MANY)
                .map(|(&a, w)| (a, (global_word(after, a).0, w.block, w.last)))
                .collect(),
        })
    }

    /// Notes that warp `warp` stored to the word at `wa` in its barrier phase `phase`.
    fn wrote(&mut self, warp: u32, wa: u64, phase: u32) {
        let block = warp.checked_div(self.per_block).unwrap_or(Self::MANY);
        self.merge_writer(
            wa,
            Writer {
                warp,
                block,
                phase,
                last: phase,
            },
        );
    }

    fn merge_writer(&mut self, wa: u64, new: Writer) {
        self.writers
            .entry(wa)
            .and_modify(|w| {
                if w.warp != new.warp {
                    w.warp = Self::MANY;
                }
                if w.block != new.block {
                    w.block = Self::MANY;
                }
                w.phase = w.phase.min(new.phase);
                w.last = w.last.max(new.last);
            })
            .or_insert(new);
    }
}

/// The aligned word at `wa` in `g`: its value, and which bytes are in an allocation (a bit each;
/// the bytes outside read as 0). The last word of a buffer whose size is not a multiple of 4
/// (`unsigned char sym[50001]`) is known in part.
fn global_word(g: &warpscope_emu::mem::Global, wa: u64) -> (u32, u8) {
    if let Some(v) = g.read(wa, 4) {
        return (v as u32, 0xf);
    }
    let (mut v, mut known) = (0u32, 0u8);
    for b in 0..4u64 {
        if let Some(x) = g.read(wa + b, 1) {
            v |= (x as u32) << (8 * b);
            known |= 1 << b;
        }
    }
    (v, known)
}

/// One 4-byte word a warp stored: its bytes' values, which bytes it stored, which of those are
/// known.
#[derive(Clone, Copy)]
struct Stored {
    warp: u32,
    value: u32,
    present: u8,
    known: u8,
}

/// Global memory as the run sees it: the launch's initial contents, and what each warp stored.
struct Mem<'a> {
    global: Option<&'a warpscope_emu::mem::Global>,
    /// Word address → what a warp stored there (the last warp to store).
    stored: rustc_hash::FxHashMap<u64, Stored>,
    reads: FlowReads,
    /// The last read logged in each slot (by word address): the word, the reading warp and the
    /// read's index in [`FlowReads::words`]. A warp reading the same word again (a loop's loads;
    /// it reads the launch's starting value each time) adds nothing to [`FlowReads::words`]: the
    /// read logged keeps the latest barrier phase, the one [`FlowReads::hold`] needs.
    recent: Box<[(u64, u32, u32)]>,
    /// Words read as the launch left them ([`FlowLate`]).
    late: Option<&'a FlowLate>,
}

/// Slots of [`Mem::recent`]: a warp's reads of a 64 KiB table (viterbi's 128 x 128 floats, read
/// a row a step) each keep one slot.
const RECENT_READS: usize = 1 << 14;

impl<'a> Mem<'a> {
    fn new(global: Option<&'a warpscope_emu::mem::Global>, late: Option<&'a FlowLate>) -> Mem<'a> {
        Mem {
            global,
            stored: rustc_hash::FxHashMap::default(),
            reads: FlowReads::default(),
            recent: vec![(u64::MAX, 0, 0); RECENT_READS].into_boxed_slice(),
            late,
        }
    }
}

impl Mem<'_> {
    /// The aligned word at `wa` as warp `warp` reads it in its barrier phase `phase`: its value
    /// and the bytes known (a bit each).
    fn word(&mut self, warp: u32, wa: u64, phase: u32) -> (u32, u8) {
        let own = match self.stored.get(&wa) {
            Some(s) if s.warp == warp => Some(*s),
            _ => None,
        };
        if let Some(s) = own
            && s.present == 0xf
        {
            return (s.value, s.known);
        }
        let late = self
            .late
            .and_then(|l| l.words.get(&wa))
            .filter(|&&(_, block, last)| {
                self.reads.per_block != 0 && warp / self.reads.per_block == block && phase > last
            });
        let (mut v, mut known) = match (late, self.global.map(|g| global_word(g, wa))) {
            (Some(&(now, block, last)), Some((_, k))) if k != 0 => {
                self.reads.late_used.insert(wa, (block, last));
                (now, k)
            }
            (_, Some((v, k))) if k != 0 => {
                let slot = &mut self.recent[(wa >> 2) as usize % RECENT_READS];
                match self.reads.words.get_mut(slot.2 as usize) {
                    Some(r) if slot.0 == wa && slot.1 == warp && r.0 == wa && r.2 == warp => {
                        r.3 = r.3.max(phase);
                    }
                    _ => {
                        if self.reads.words.len() < FlowReads::MAX {
                            *slot = (wa, warp, self.reads.words.len() as u32);
                            self.reads.words.push((wa, v, warp, phase));
                        } else {
                            self.reads.overflow = true;
                        }
                    }
                }
                (v, k)
            }
            _ => (0, 0),
        };
        if let Some(s) = own {
            for b in 0..4 {
                if s.present >> b & 1 != 0 {
                    let m = 0xffu32 << (8 * b);
                    v = (v & !m) | (s.value & m);
                    known = (known & !(1 << b)) | (s.known & (1 << b));
                }
            }
        }
        (v, known)
    }

    /// Byte `a` stored by warp `warp` (`None`: a value not known).
    /// The aligned word `wa` stored whole by warp `warp` (`None`: a value not known): as its four
    /// bytes through [`Self::store`], in one entry.
    fn store_word(&mut self, warp: u32, wa: u64, v: Option<u32>, phase: u32) {
        self.reads.wrote(warp, wa, phase);
        let e = self.stored.entry(wa).or_insert(Stored {
            warp,
            value: 0,
            present: 0,
            known: 0,
        });
        if e.warp != warp {
            *e = Stored {
                warp,
                value: 0,
                present: 0,
                known: 0,
            };
        }
        e.present = 0xf;
        match v {
            Some(v) => {
                e.value = v;
                e.known = 0xf;
            }
            None => e.known = 0,
        }
    }

    fn store(&mut self, warp: u32, a: u64, b: Option<u8>, phase: u32) {
        let wa = a & !3;
        self.reads.wrote(warp, wa, phase);
        let k = (a & 3) as u8;
        let e = self.stored.entry(wa).or_insert(Stored {
            warp,
            value: 0,
            present: 0,
            known: 0,
        });
        if e.warp != warp {
            *e = Stored {
                warp,
                value: 0,
                present: 0,
                known: 0,
            };
        }
        e.present |= 1 << k;
        let m = 0xffu32 << (8 * k);
        match b {
            Some(b) => {
                e.value = (e.value & !m) | (u32::from(b) << (8 * k));
                e.known |= 1 << k;
            }
            None => e.known &= !(1 << k),
        }
    }
}

/// Offset in the constant bank where sm_90 kernels find their parameters.
const PARAM_BASE: u32 = 0x210;

fn parse_reg(t: &str) -> Option<Src> {
    let t = t.split(".reuse").next().unwrap_or(t);
    if t == "RZ" {
        return Some(Src::R(RZ));
    }
    if t == "URZ" {
        return Some(Src::Ur(URZ));
    }
    if let Some(n) = t.strip_prefix("UR") {
        return n.parse::<u8>().ok().filter(|&n| n < URZ).map(Src::Ur);
    }
    if let Some(n) = t.strip_prefix('R') {
        return n.parse::<u8>().ok().filter(|&n| n < RZ).map(Src::R);
    }
    None
}

fn parse_pred(t: &str) -> Option<Pred> {
    let (neg, t) = match t.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (uniform, t) = match t.strip_prefix('U') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let idx = if t == "PT" {
        PT
    } else {
        let n: u8 = t.strip_prefix('P')?.parse().ok()?;
        if n >= PT {
            return None;
        }
        n
    };
    Some(Pred { uniform, idx, neg })
}

fn parse_hex(t: &str) -> Option<u32> {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = u64::from_str_radix(t.strip_prefix("0x")?, 16).ok()?;
    let v = v as u32;
    Some(if neg { v.wrapping_neg() } else { v })
}

fn parse_sr(t: &str) -> Option<Sr> {
    let t = t
        .strip_prefix("SR_")
        .or(if t == "SRZ" { Some("Z") } else { None })?;
    Some(match t {
        "Z" => Sr::Zero,
        "TID.X" => Sr::Tid(0),
        "TID.Y" => Sr::Tid(1),
        "TID.Z" => Sr::Tid(2),
        "CTAID.X" => Sr::Ctaid(0),
        "CTAID.Y" => Sr::Ctaid(1),
        "CTAID.Z" => Sr::Ctaid(2),
        "LANEID" => Sr::LaneId,
        "LTMASK" => Sr::LtMask,
        "LEMASK" => Sr::LeMask,
        "GTMASK" => Sr::GtMask,
        "GEMASK" => Sr::GeMask,
        "EQMASK" => Sr::EqMask,
        "CgaCtaId" => Sr::CgaCtaId,
        "LMEMHIOFF" => Sr::LmemHiOff,
        _ => Sr::Other,
    })
}

fn parse_opnd(t: &str) -> Opnd {
    let mut t = t.trim();
    // `|R26|.reuse`: the reuse flag after a modifier's bars
    if t.ends_with("|.reuse") {
        t = t.trim_end_matches(".reuse");
    }
    let mut o = Opnd {
        src: Src::Unknown,
        neg: false,
        not: false,
        abs: false,
    };
    if let Some(r) = t.strip_prefix('-')
        && !r.starts_with("0x")
        && !r.starts_with(|c: char| c.is_ascii_digit())
    {
        o.neg = true;
        t = r;
    }
    if let Some(r) = t.strip_prefix('~') {
        o.not = true;
        t = r;
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        o.abs = true;
        t = r;
    }
    o.src = if let Some(s) = parse_reg(t) {
        s
    } else if let Some(v) = parse_hex(t) {
        Src::Imm(v)
    } else if let Some(sr) = parse_sr(t) {
        Src::Sr(sr)
    } else if let Some(rest) = t.strip_prefix("c[") {
        parse_const(rest).unwrap_or(Src::Unknown)
    } else if let Ok(f) = t.parse::<f32>() {
        Src::FImm(f)
    } else if t == "+INF" || t == "INF" {
        Src::FImm(f32::INFINITY)
    } else if t == "-INF" {
        Src::FImm(f32::NEG_INFINITY)
    } else {
        Src::Unknown
    };
    o
}

/// `0x0][0x220]`, `0x0][R2+0x10]`, `0x0][RZ]`.
fn parse_const(rest: &str) -> Option<Src> {
    let (bank, rest) = rest.split_once("][")?;
    let bank = parse_hex(bank)? as u8;
    let inner = rest.strip_suffix(']')?;
    let mut reg = None;
    let mut ureg = None;
    let mut off = 0u32;
    for term in inner.split('+') {
        let term = term.trim();
        if let Some(v) = parse_hex(term) {
            off = off.wrapping_add(v);
        } else {
            match parse_reg(term) {
                Some(Src::R(r)) => reg = (r != RZ).then_some(r),
                Some(Src::Ur(r)) => ureg = (r != URZ).then_some(r),
                _ => return None,
            }
        }
    }
    if reg.is_some() && ureg.is_some() {
        return None;
    }
    Some(Src::Const { bank, off, reg, ureg })
}

/// The general registers `ins` can name: one past the highest `Rn` in their texts or operands,
/// plus 8 for the registers a wide access or a 64-bit operand names implicitly (`LDS.128 R4`
/// writes R4-R7), at most 256.
fn reg_span(ins: &[Ins]) -> usize {
    let mut hi = 0usize;
    for i in ins {
        let b = i.text.as_bytes();
        for (k, &c) in b.iter().enumerate() {
            if c == b'R' && (k == 0 || !b[k - 1].is_ascii_alphanumeric() && b[k - 1] != b'_') {
                let n: usize = b[k + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .fold(0, |n, d| n * 10 + usize::from(d - b'0'));
                if b.get(k + 1).is_some_and(u8::is_ascii_digit) {
                    hi = hi.max(n.min(255));
                }
            }
        }
        for d in &i.dst {
            if let Dst::R(r) = d {
                hi = hi.max(usize::from(*r));
            }
        }
        for o in &i.src {
            if let Src::R(r) = o.src {
                hi = hi.max(usize::from(r));
            }
        }
    }
    (hi + 9).min(256)
}

/// Splits operands at top-level commas (not inside brackets).
fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(ch);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn parse_cmp(m: &str) -> Option<Cmp> {
    Some(match m {
        "LT" => Cmp::Lt,
        "EQ" => Cmp::Eq,
        "LE" => Cmp::Le,
        "GT" => Cmp::Gt,
        "NE" => Cmp::Ne,
        "GE" => Cmp::Ge,
        "LTU" => Cmp::Ltu,
        "EQU" => Cmp::Equ,
        "LEU" => Cmp::Leu,
        "GTU" => Cmp::Gtu,
        "NEU" => Cmp::Neu,
        "GEU" => Cmp::Geu,
        "NUM" => Cmp::Num,
        "NAN" => Cmp::Nan,
        "F" => Cmp::F,
        "T" => Cmp::T,
        _ => return None,
    })
}

fn parse_bop(mods: &[&str]) -> Bop {
    if mods.contains(&"OR") {
        Bop::Or
    } else if mods.contains(&"XOR") {
        Bop::Xor
    } else {
        Bop::And
    }
}

/// How many consecutive registers an instruction the interpreter does not follow writes from its
/// first destination.
fn dest_width(base: &str, mods: &[&str]) -> u8 {
    if mods.contains(&"128")
        || base == "HMMA" && mods.contains(&"F32")
        || base == "LDSM" && mods.contains(&"4")
    {
        4
    } else if mods.contains(&"64")
        || base.starts_with('D')
        || base == "HMMA"
        || base == "LDSM" && mods.contains(&"2")
        || base == "CS2R"
        || base == "F2F" && mods.first() == Some(&"F64")
        || base == "I2F" && mods.contains(&"F64")
        || base == "F2I" && (mods.contains(&"S64") || mods.contains(&"U64"))
    {
        2
    } else {
        1
    }
}

/// The registers a texture read (`TEX`, `TLD`, `TLD4`, `TMML`, `TXD`) writes: its enabled channels
/// (the channel mask, the last operand when it is a number after the dimension, 0xf without)
/// packed into the second operand's pair first, then the first operand's (`TEX.LL RZ, R24, ...,
/// 2D, 0x2`: the one channel in `R24`; `TEX.LL R22, R6, ...`: x, y in `R6`, `R7` and z, w in
/// `R22`, `R23`). `reg_dst(operand, n)`: the operand's first `n` registers.
fn texture_dsts(ops: &[String], reg_dst: impl Fn(&str, u8) -> Vec<Dst>) -> Vec<Dst> {
    let dims = ops.iter().position(|o| {
        matches!(
            o.as_str(),
            "1D" | "2D" | "3D" | "CUBE" | "ARRAY_1D" | "ARRAY_2D" | "ARRAY_CUBE"
        )
    });
    let mask = dims
        .and_then(|d| ops.get(d + 1))
        .and_then(|o| o.strip_prefix("0x"))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .unwrap_or(0xf);
    let n = mask.count_ones().clamp(1, 4) as u8;
    let mut dst = Vec::new();
    if let Some(second) = ops.get(1) {
        dst.extend(reg_dst(second, n.min(2)));
    }
    if let Some(first) = ops.first() {
        // a first destination that is a register holds the channels past the second's pair
        // (all of them, should the mask leave none past it)
        dst.extend(reg_dst(first, if n > 2 { n - 2 } else { n }));
    }
    dst
}

/// A texture read the flow follows: `TEX` (float coordinates) or `TLD` (integer ones) of a 1-,
/// 2- or 3-D texture, level of detail `.LL` (ignored: the emulation's textures have one level) or
/// `.LZ`, the coordinates in consecutive registers from the third operand, the object's handle in
/// a uniform register. Its dimensions, whether the coordinates are integers, the channel mask and
/// the sources (coordinate registers, then the handle).
fn texture_read(base: &str, mods: &[&str], ops: &[String]) -> Option<(u8, bool, u8, Vec<Opnd>)> {
    let ints = match base {
        "TEX" => false,
        "TLD" => true,
        _ => return None,
    };
    if !mods.iter().all(|m| matches!(*m, "LL" | "LZ" | "NODEP")) {
        return None;
    }
    let d = ops
        .iter()
        .position(|o| matches!(o.as_str(), "1D" | "2D" | "3D"))?;
    let dims = ops[d].as_bytes()[0] - b'0';
    let mask = match ops.get(d + 1) {
        Some(o) => u8::from_str_radix(o.strip_prefix("0x")?, 16).ok()?,
        None => 0xf,
    };
    if mask == 0 || mask > 0xf || ops.len() > d + 2 {
        return None;
    }
    let Some(Src::R(a)) = parse_reg(ops.get(2)?) else {
        return None;
    };
    let handle = ops.get(3..d)?.iter().find_map(|o| match parse_reg(o) {
        Some(Src::Ur(u)) if u != URZ => Some(u),
        _ => None,
    })?;
    // the coordinate registers all below RZ
    if a == RZ || a.checked_add(dims).is_none() {
        return None;
    }
    let reg = |src| Opnd {
        src,
        neg: false,
        not: false,
        abs: false,
    };
    let mut src: Vec<Opnd> = (0..dims).map(|k| reg(Src::R(a + k))).collect();
    src.push(reg(Src::Ur(handle)));
    Some((dims, ints, mask, src))
}

fn target_index(
    ops: &[String],
    labels: &std::collections::BTreeMap<String, u32>,
    index_of: &HashMap<u32, usize>,
) -> Option<usize> {
    let last = ops
        .iter()
        .rev()
        .find(|o| o.starts_with('`') || o.starts_with("0x"))?;
    let off = if let Some(l) = last.strip_prefix('`') {
        let l = l.trim_start_matches('(').trim_end_matches(')').trim();
        *labels.get(l)?
    } else {
        parse_hex(last)?
    };
    index_of.get(&off).copied()
}

impl MachineFlow {
    /// Decodes `kernel`'s instructions. Instructions it cannot read are decoded as ones that stop
    /// a run that reaches them.
    pub fn new(kernel: &SassKernel) -> MachineFlow {
        Self::build(kernel, false, None)
    }

    /// Decodes `kernel`'s instructions to follow, beside its control flow, the addresses of its
    /// global accesses (with `globals`, as [`Self::counting_globals`]) and of its shared loads and
    /// stores (with `shared`, the architecture whose bank rules cost them): the counts of the
    /// machine code itself, where ptxas moved, merged or removed the PTX's accesses
    /// ([`FlowCounts::shared`]).
    pub fn counting(
        kernel: &SassKernel,
        globals: bool,
        shared: Option<&'static warpscope_model::arch::Arch>,
    ) -> MachineFlow {
        Self::build(kernel, globals, shared)
    }

    /// Decodes `kernel`'s instructions to follow, beside its control flow, the addresses of its
    /// global loads and stores and count them as Nsight Compute does ([`FlowCounts::global`]): the
    /// counts of the machine code itself, where ptxas moved, merged or removed the PTX's accesses.
    pub fn counting_globals(kernel: &SassKernel) -> MachineFlow {
        Self::build(kernel, true, None)
    }

    /// Whether a decision of this flow may depend on shared memory (a needed `LDS`, or an
    /// mbarrier wait's outcome): its run then needs the emulation's records
    /// ([`FlowLaunch::shared`]).
    pub fn reads_shared(&self) -> bool {
        self.ins
            .iter()
            .zip(&self.value)
            .any(|(x, &n)| n && matches!(x.kind, Kind::Lds { .. } | Kind::MbarWait))
    }

    /// Whether this flow counts global accesses.
    pub fn counts_globals(&self) -> bool {
        self.globals.is_some()
    }

    /// Whether this flow counts shared loads and stores.
    pub fn counts_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Whether the code has a `YIELD`: the lanes leaving its loop on different iterations run
    /// the code after it apart (calibration/yield/README.md).
    pub fn has_yield(&self) -> bool {
        self.yields
    }

    /// Why the flow's counts of the code after the `YIELD` loops may differ from the H200's
    /// (`None`: they are its counts; [`yields::doubt`]).
    pub fn yield_doubt(&self) -> Option<&'static str> {
        self.yield_doubt
    }

    fn build(
        kernel: &SassKernel,
        globals: bool,
        shared: Option<&'static warpscope_model::arch::Arch>,
    ) -> MachineFlow {
        let at: HashMap<u32, usize> = kernel
            .insts
            .iter()
            .enumerate()
            .map(|(i, l)| (l.code_offset, i))
            .collect();
        let counted: std::collections::HashSet<u32> = kernel
            .branches
            .iter()
            .filter(|b| b.counted())
            .map(|b| b.code_offset)
            .collect();
        let ins: Vec<Ins> = kernel
            .insts
            .iter()
            .map(|l| decode(l, &kernel.labels, &at, counted.contains(&l.code_offset)))
            .collect();
        let mut ins = ins;
        // ptxas's integer division: MUFU.RCP, then the bias 0x0ffffffe added to its bits
        for i in 0..ins.len() {
            if let (Kind::Rcp { .. }, Some(&Dst::R(d))) = (ins[i].kind, ins[i].dst.first()) {
                let idiom = ins[i + 1..(i + 4).min(ins.len())].iter().any(|x| {
                    x.text.contains("0xffffffe") && x.src.first().is_some_and(|o| o.src == Src::R(d))
                });
                ins[i].kind = Kind::Rcp { exact: idiom };
            }
        }
        // ptxas's double division: MUFU.RCP64H of hi(b) (a register, or an immediate for a
        // constant divisor) into the seed's high word, the Newton sequence's first step
        // DFMA e, seed, -b, 1, then within a few instructions the fast-path test's
        // FFMA RZ, hi(b), hi(q) and FSETP.GEU |hi(a)| >= 0x03600000
        for i in 0..ins.len() {
            if !ins[i].text.starts_with("MUFU.RCP64H") {
                continue;
            }
            // (an instruction the flow does not compute keeps no operands: read the text)
            let ops = ins[i]
                .text
                .split_once(' ')
                .map(|(_, o)| split_operands(o))
                .unwrap_or_default();
            // hi(b): a register, or the immediate's high word (printed as a double)
            let hb = ops.get(1).map(|t| match parse_opnd(t).src {
                Src::R(r) => Src::R(r),
                _ => match t.trim().parse::<f64>() {
                    Ok(v) if v.to_bits() & 0xffff_ffff == 0 => Src::Imm((v.to_bits() >> 32) as u32),
                    _ => Src::Unknown,
                },
            });
            let (Some(Src::R(seed)), Some(hb)) = (ops.first().and_then(|t| parse_reg(t)), hb) else {
                continue;
            };
            let end = (i + 48).min(ins.len());
            let ah = ins[i..end].iter().find_map(|x| match (x.kind, x.src.as_slice()) {
                (Kind::Fsetp { .. }, [o, c, ..])
                    if o.abs && matches!(c.src, Src::FImm(v) if v.to_bits() == 0x0360_0000) =>
                {
                    match o.src {
                        Src::R(r) => Some(r),
                        _ => None,
                    }
                }
                _ => None,
            });
            // hi(b) in the test: the RCP64H's register, or its immediate read as a float
            let is_hb = |o: &Opnd| match (o.src, hb) {
                (Src::R(r), Src::R(b)) => r == b,
                (Src::FImm(f), Src::Imm(h)) => f.to_bits() == h,
                _ => false,
            };
            let check = (i + 1..end).find(|&j| {
                matches!(ins[j].kind, Kind::Ffma)
                    && matches!(ins[j].src.as_slice(), [z, b, _] if z.src == Src::R(RZ) && is_hb(b))
            });
            let q_hi = check.and_then(|j| match ins[j].src.get(2).map(|o| (o.src, o.neg || o.abs)) {
                Some((Src::R(q), false)) if q > 0 && q != RZ => Some(q),
                _ => None,
            });
            let first = check.and_then(|j| {
                (i + 1..j).find(|&k| {
                    matches!(
                        ins[k].kind,
                        Kind::Dop {
                            op: double::Dop::Fma,
                            ..
                        }
                    ) && ins[k].src.iter().any(|o| o.src == Src::R(seed.wrapping_sub(1)))
                        && ins[k]
                            .src
                            .get(2)
                            .is_some_and(|o| o.src == Src::Imm(0x3ff0_0000) && !o.neg)
                })
            });
            let nb = first
                .and_then(|k| (0..2u8).find(|&n| ins[k].src[n as usize].src != Src::R(seed.wrapping_sub(1))));
            if let (Some(ah), Some(j), Some(q_hi), Some(k), Some(nb)) = (ah, check, q_hi, first, nb)
                && ah > 0
                && seed > 0
            {
                ins[j].ddiv = Some(Ddiv { a_hi: ah, q_hi });
                ins[k].ddiv_seed = Some(nb);
            }
        }
        // a YIELD outside every loop (at the start of a function ptxas kept apart, before its
        // warp-synchronous code: calibration/run/bench13 `rdc`, whose counts the H200 matched
        // with the YIELD stepped over) takes no lane out of a convergence barrier
        yields::outside_loops_as_nops(&mut ins);
        // where an indirect jump may go: any labelled instruction
        let mut labelled: Vec<usize> = kernel
            .labels
            .values()
            .filter_map(|o| at.get(o).copied())
            .collect();
        labelled.sort_unstable();
        labelled.dedup();
        let (needed, value) = slice(&ins, globals, shared.is_some(), &labelled);
        let mut skip_to = vec![ins.len() as u32; ins.len()];
        for i in (0..ins.len()).rev() {
            let steers = matches!(
                ins[i].kind,
                Kind::Bra { .. }
                    | Kind::Brx { .. }
                    | Kind::Exit
                    | Kind::Bssy
                    | Kind::Bsync
                    | Kind::Break
                    | Kind::Yield
                    | Kind::Warpsync
                    | Kind::ExclusiveSync
                    | Kind::Call { .. }
                    | Kind::Ret
                    | Kind::Stop
                    | Kind::IndirectCall { .. }
                    | Kind::Bmov { .. }
                    | Kind::Bar { .. }
            );
            skip_to[i] = if needed[i] || steers {
                i as u32
            } else {
                skip_to.get(i + 1).copied().unwrap_or(ins.len() as u32)
            };
        }
        // accesses this module does not count: asynchronous and bulk copies (a call into code
        // outside the kernel, `vprintf` or `__assertfail`, is not the kernel's own access: device
        // printf's traffic is `crate::global::printf_traffic`)
        let globals = globals.then(|| {
            match kernel.insts.iter().zip(&ins).find_map(|(l, x)| {
                let base = l.opcode.split('.').next().unwrap_or("");
                match base {
                    "LDGSTS" | "UBLKCP" | "UTMALDG" | "UTMASTG" | "UTMAPF" | "UBLKRED" | "UTMAREDG" => {
                        Some("the machine code copies global memory asynchronously (cp.async, bulk copies)")
                    }
                    "LDG" | "LD" | "STG" | "ST" if x.addr.is_none() => {
                        Some("a global access's address form is not read")
                    }
                    _ => None,
                }
            }) {
                Some(why) => Err(why),
                None => Ok(()),
            }
        });
        // shared accesses this module does not count: the matrix and asynchronous forms (their
        // own rules), generic accesses (which may reach shared memory), forms it does not read
        let shared = shared.map(|arch| {
            match kernel.insts.iter().zip(&ins).find_map(|(l, x)| {
                let base = l.opcode.split('.').next().unwrap_or("");
                match base {
                    "LDSM" | "STSM" | "LDGSTS" => {
                        Some("the machine code's ldmatrix, stmatrix or cp.async follow their own rules")
                    }
                    "LDS" | "STS" if x.saddr.is_none() => Some("a shared access's address form is not read"),
                    "LD" | "ST" => Some("a generic load or store may access shared memory"),
                    "LDS" if !matches!(x.kind, Kind::Lds { .. }) => Some("a shared load form is not read"),
                    "STS" if !matches!(x.kind, Kind::Sts { .. }) => Some("a shared store form is not read"),
                    _ => None,
                }
            }) {
                Some(why) => Err(why),
                None => Ok(arch),
            }
        });
        // When no control decision depends on memory or on an unknown result, a warp's path is a
        // function of its lanes and of the special registers the decisions read: warps that agree
        // on those take the same path (`path_inputs`).
        let opaque = ins.iter().zip(&value).any(|(x, &n)| {
            n && matches!(
                x.kind,
                Kind::Ldg { .. }
                    | Kind::Lds { .. }
                    | Kind::Shfl { .. }
                    | Kind::Elect
                    | Kind::Poison
                    | Kind::AtomG { .. }
                    | Kind::Call { abs: true }
            )
        });
        let mut srs: Vec<Sr> = Vec::new();
        for (x, &n) in ins.iter().zip(&needed) {
            for o in &x.src {
                if let (true, Src::Sr(sr)) = (n, o.src)
                    && sr != Sr::Zero
                    && !srs.contains(&sr)
                {
                    srs.push(sr);
                }
            }
        }
        // counting global accesses needs every warp's own addresses
        let same_path =
            (!opaque && !srs.contains(&Sr::Other) && globals.is_none() && shared.is_none()).then_some(srs);
        let unfollowed_writes = kernel.insts.iter().any(|l| {
            matches!(
                l.opcode.split('.').next().unwrap_or(""),
                "UBLKCP" | "UBLKRED" | "UTMASTG" | "UTMAREDG" | "SUST" | "SURED" | "SUATOM"
            )
        });
        let loops = loops::find(&ins, &needed, &value);
        let block_barriers = ins.iter().all(|x| match x.kind {
            Kind::Bar { arrive, block } => !arrive && block,
            _ => true,
        });
        let block_start = block_starts(&ins);
        MachineFlow {
            yields: ins.iter().any(|x| x.kind == Kind::Yield),
            yield_doubt: yields::doubt(&ins),
            block_barriers,
            ins,
            needed,
            skip_to,
            block_start,
            value,
            loops,
            same_path,
            at,
            globals,
            shared,
            unfollowed_writes,
            constant2: std::sync::Arc::new(kernel.constant2.clone()),
            param_shift: kernel.param_shift,
            constant3: kernel.constant3.clone(),
            constant4: std::sync::Arc::new(kernel.constant4.clone()),
            functions: indirect::copies(kernel),
            trace: std::env::var_os("WARPSCOPE_FLOW_TRACE").is_some(),
            trace_all: std::env::var_os("WARPSCOPE_FLOW_TRACE").is_some_and(|v| v == "all"),
            #[cfg(test)]
            added: Default::default(),
        }
    }

    /// Runs every warp of the launch; the counters, or why the machine code's control flow could
    /// not be followed (the first reason met).
    pub fn run(&self, launch: &FlowLaunch, max_warp_insts: u64) -> Result<(FlowCounts, FlowReads), String> {
        self.run_late(launch, None, max_warp_insts)
    }

    /// [`Self::run`], with the reads of `late`'s words made after their stores answered as the
    /// launch left them.
    pub fn run_late(
        &self,
        launch: &FlowLaunch,
        late: Option<&FlowLate>,
        max_warp_insts: u64,
    ) -> Result<(FlowCounts, FlowReads), String> {
        let threads = launch.block.iter().map(|&b| b as usize).product::<usize>();
        if threads == 0 || self.ins.is_empty() {
            return Ok((FlowCounts::default(), FlowReads::default()));
        }
        let warps = threads.div_ceil(32);
        if self.trace {
            eprintln!("flow: launch of {warps} warps per block, grid {:?}", launch.grid);
        }
        let mut counts = FlowCounts::default();
        match self.globals {
            Some(Ok(())) => counts.global = Some(GlobalCounts::default()),
            Some(Err(why)) => counts.global_why = Some(why),
            None => {}
        }
        match self.shared {
            Some(Ok(_)) => counts.shared = Some(SharedFlowCounts::default()),
            Some(Err(why)) => counts.shared_why = Some(why),
            None => {}
        }
        let mut mem = Mem::new(launch.global, None);
        let bank4 = std::sync::Arc::new(self.bank4(launch));
        let bank3 = std::sync::Arc::new(self.bank3(launch));
        let funcs = std::sync::Arc::new(indirect::functions(&self.functions, launch));
        let mut w = Warp::new();
        w.constant2 = self.constant2.clone();
        w.param_shift = self.param_shift;
        w.constant3 = bank3.clone();
        w.constant4 = bank4.clone();
        w.funcs = funcs.clone();
        let reg_span = reg_span(&self.ins);
        w.reg_span = reg_span;
        if let Some(srs) = &self.same_path {
            // each warp's path inputs (its lanes, the special registers read) once
            let mut seen: HashMap<Vec<u32>, FlowCounts> = HashMap::new();
            for bz in 0..launch.grid[2] {
                for by in 0..launch.grid[1] {
                    for bx in 0..launch.grid[0] {
                        for wi in 0..warps {
                            w.reset(launch, [bx, by, bz], wi);
                            let mut key = vec![w.launched];
                            for &sr in srs {
                                match sr {
                                    Sr::Ctaid(i) => key.push(w.ctaid[i]),
                                    Sr::CgaCtaId => key.extend(w.ctaid),
                                    Sr::Tid(i) => key.extend(lanes(w.launched).map(|l| w.tid[l][i])),
                                    // lane masks and lane ids: the same for every warp
                                    _ => {}
                                }
                            }
                            let one = match seen.get(&key) {
                                Some(c) => *c,
                                None => {
                                    let mut one = FlowCounts::default();
                                    self.run_warp(&mut w, launch, &mut one, &mut mem, max_warp_insts)?;
                                    seen.insert(key, one);
                                    one
                                }
                            };
                            counts.targets += one.targets;
                            counts.divergent += one.divergent;
                            counts.warp_insts += one.warp_insts;
                            counts.may_join += one.may_join;
                            counts.overlapping_barriers += one.overlapping_barriers;
                            counts.may_merge_global += one.may_merge_global;
                            counts.may_merge_branch += one.may_merge_branch;
                            counts.may_merge_exit += one.may_merge_exit;
                        }
                    }
                }
            }
            return Ok((counts, mem.reads));
        }
        // Every warp runs alone (it sees only the launch's starting memory and its own stores), so
        // blocks run in parallel, in chunks, each chunk with its own state; the chunks' counts and
        // reads are merged in block order and the first failure in block order is the answer.
        let blocks: Vec<[u32; 3]> = (0..launch.grid[2])
            .flat_map(|bz| {
                (0..launch.grid[1]).flat_map(move |by| (0..launch.grid[0]).map(move |bx| [bx, by, bz]))
            })
            .collect();
        let chunk = blocks.len().div_ceil(4 * rayon::current_num_threads()).max(1);
        let parts: Vec<Result<(FlowCounts, FlowReads), String>> = blocks
            .par_chunks(chunk)
            .enumerate()
            .map(|(k, part)| {
                let mut w = Warp::new();
                w.constant2 = self.constant2.clone();
                w.param_shift = self.param_shift;
                w.constant3 = bank3.clone();
                w.constant4 = bank4.clone();
                w.funcs = funcs.clone();
                w.reg_span = reg_span;
                let mut mem = Mem::new(launch.global, late);
                mem.reads.per_block = warps as u32;
                let mut counts = FlowCounts {
                    global: counts.global,
                    global_why: counts.global_why,
                    shared: counts.shared,
                    shared_why: counts.shared_why,
                    ..FlowCounts::default()
                };
                for (j, &b) in part.iter().enumerate() {
                    for wi in 0..warps {
                        w.reset(launch, b, wi);
                        w.id = ((k * chunk + j) * warps + wi) as u32;
                        self.run_warp(&mut w, launch, &mut counts, &mut mem, max_warp_insts)?;
                        mem.reads.blind |= w.unknown_store;
                        mem.reads.shared |= w.sh_used;
                        mem.reads.unordered |= w.bar_apart;
                    }
                }
                Ok((counts, mem.reads))
            })
            .collect();
        let mut reads = FlowReads {
            blind: self.unfollowed_writes,
            per_block: warps as u32,
            unordered: !self.block_barriers,
            ..FlowReads::default()
        };
        for part in parts {
            let (c, r) = part?;
            counts.targets += c.targets;
            counts.divergent += c.divergent;
            counts.warp_insts += c.warp_insts;
            counts.may_join += c.may_join;
            counts.overlapping_barriers += c.overlapping_barriers;
            counts.may_merge_global += c.may_merge_global;
            counts.may_merge_branch += c.may_merge_branch;
            counts.may_merge_exit += c.may_merge_exit;
            if counts.warp_insts > max_warp_insts {
                return Err(format!("more than {max_warp_insts} warp instructions"));
            }
            match (&mut counts.global, c.global) {
                (Some(g), Some(o)) => g.add(&o),
                (Some(_), None) => {
                    counts.global = None;
                    counts.global_why = c.global_why;
                }
                _ => {}
            }
            match (&mut counts.shared, c.shared) {
                (Some(g), Some(o)) => g.add(&o),
                (Some(_), None) => {
                    counts.shared = None;
                    counts.shared_why = c.shared_why;
                }
                _ => {}
            }
            reads.decided |= r.decided;
            reads.overflow |= r.overflow;
            reads.blind |= r.blind;
            reads.shared |= r.shared;
            reads.unordered |= r.unordered;
            for (wa, wr) in r.writers {
                reads.merge_writer(wa, wr);
            }
            reads.late_used.extend(r.late_used);
            let room = FlowReads::MAX.saturating_sub(reads.words.len());
            if r.words.len() > room {
                reads.overflow = true;
            }
            reads.words.extend(r.words.into_iter().take(room));
        }
        Ok((counts, reads))
    }

    /// Constant bank 3's variables with the launch's contents: (offset in the bank, bytes); a
    /// variable the launch does not give is left out (reads of it are unknown).
    fn bank3(&self, launch: &FlowLaunch) -> Vec<(u32, Vec<u8>)> {
        self.constant3
            .iter()
            .filter_map(|(off, size, name)| {
                let (_, bytes) = launch.constants.iter().find(|(n, _)| n == name)?;
                let b = bytes.get(..*size as usize)?;
                Some((*off, b.to_vec()))
            })
            .collect()
    }

    /// Constant bank 4's words as the launch's symbols place them: (offset, address).
    fn bank4(&self, launch: &FlowLaunch) -> Vec<(u32, u64)> {
        self.constant4
            .iter()
            .filter_map(|(off, name, add)| {
                let (_, a) = launch.symbols.iter().find(|(n, _)| n == name)?;
                Some((*off, a.wrapping_add(*add as u64)))
            })
            .collect()
    }

    fn run_warp(
        &self,
        w: &mut Warp,
        launch: &FlowLaunch,
        counts: &mut FlowCounts,
        mem: &mut Mem,
        max_warp_insts: u64,
    ) -> Result<(), String> {
        // the group that ran last and where it went, when it stayed together
        let mut hint: Option<(usize, u32)> = None;
        if self.trace_all {
            eprintln!(
                "flow: warp {} (block {}, warp {} in it)",
                w.id, w.block_lin, w.in_block
            );
        }
        loop {
            let held: u32 = w.deferred.iter().fold(0, |m, g| m | g);
            let runnable = w.alive & !w.waiting & !held;
            if runnable == 0 {
                if !w.deferred.is_empty() {
                    // the next group an exclusive warp sync held back
                    w.deferred.remove(0);
                    hint = None;
                    continue;
                }
                if w.alive == 0 {
                    return Ok(());
                }
                if !self.release(w)? {
                    return Err("lanes wait at a convergence barrier that never completes".into());
                }
                hint = None;
                continue;
            }
            // A group that stayed together runs on until it waits, splits or ends (another cohort
            // at the same instruction waits its turn, as on the H100); otherwise the lanes at the
            // lowest code offset run, those of the lowest lane's cohort. Lanes a convergence
            // barrier joined to the group run with it.
            let (pc, cohort) = match hint {
                Some((pc, g)) if g & runnable == g && at_mask(&w.pc, pc) & g == g => {
                    (pc, lanes(g).next().map(|l| w.cohort[l]).unwrap_or(0))
                }
                _ => {
                    let mut pc = usize::MAX;
                    for l in lanes(runnable) {
                        pc = pc.min(w.pc[l] as usize);
                    }
                    let cohort = lanes(runnable)
                        .find(|&l| w.pc[l] as usize == pc)
                        .map(|l| w.cohort[l])
                        .unwrap_or(0);
                    (pc, cohort)
                }
            };
            let group = runnable & at_mask(&w.pc, pc) & cohort_mask(&w.cohort, cohort);
            // a run of instructions nothing needed reads, run by every lane that can run: the
            // group steps over them at once (each would only move the group on by one)
            let to = self.skip_to[pc] as usize;
            if to > pc && group == runnable && !self.trace {
                counts.warp_insts += (to - pc) as u64;
                if counts.warp_insts > max_warp_insts {
                    return Err(format!("more than {max_warp_insts} warp instructions"));
                }
                for l in lanes(group) {
                    w.pc[l] = to as u32;
                }
                hint = Some((to, group));
                continue;
            }
            counts.warp_insts += 1;
            if counts.warp_insts > max_warp_insts {
                return Err(format!("more than {max_warp_insts} warp instructions"));
            }
            let Some(ins) = self.ins.get(pc) else {
                return Err(format!("lanes ran past the end of the code (index {pc})"));
            };
            if self.trace && (counts.warp_insts < 400 || self.trace_all) {
                eprintln!("flow: {group:08x} /*{:04x}*/ {}", ins.offset, ins.text);
            }
            if join::waits_on_memory(&ins.kind) {
                join::note(w, group, runnable & !group, counts, self.trace);
            }
            if matches!(ins.kind, Kind::Ldg { .. } | Kind::Stg { .. })
                && join::behind_in_block(w, group, runnable & !group, self.block_start[pc] as usize, pc)
            {
                counts.may_merge_global += 1;
                if self.trace {
                    eprintln!("flow: may merge at the global access /*{:04x}*/", ins.offset);
                }
            }
            if ins.counted
                && join::behind_in_block(w, group, runnable & !group, self.block_start[pc] as usize, pc)
            {
                counts.may_merge_branch += 1;
                if self.trace {
                    eprintln!("flow: may merge at the branch /*{:04x}*/", ins.offset);
                }
            }
            if ins.counted && join::exit_merge(w, group, pc) {
                counts.may_merge_exit += 1;
                if self.trace {
                    eprintln!("flow: may merge leaving groups at /*{:04x}*/", ins.offset);
                }
            }
            w.together = None;
            if let Err(why) = self.step(w, ins, pc, group, launch, counts, mem) {
                // a stop on a value that derives from local bytes never stored: the GPU's value
                // there is not defined, so the PTX emulation's counts on its own are estimates
                return Err(if w.undef.mask(ins) & group != 0 {
                    w.undef.reason(&why)
                } else {
                    why
                });
            }
            // a counted loop's backward branch taken by the whole warp: the iterations sure to
            // follow added at once
            if let Some(Some(lp)) = self.loops.get(pc)
                && !self.trace
                && w.together == Some(lp.head)
                && group == w.alive
                && w.waiting == 0
                && w.deferred.is_empty()
            {
                self.step_over_iterations(lp, pc, w, group, launch, counts, max_warp_insts);
            }
            // the group runs on where all its lanes went on together
            hint = w.together.map(|p| (p, group)).or_else(|| {
                let live = group & w.alive & !w.waiting;
                let first = lanes(live).next()?;
                (live == group && lanes(live).all(|l| w.pc[l] == w.pc[first]))
                    .then(|| (w.pc[first] as usize, group))
            });
            if self.trace && (counts.warp_insts < 400 || self.trace_all) {
                let l = pc_lane(group);
                for d in &ins.dst {
                    let v = match *d {
                        Dst::R(r) => (w.rk[r as usize] >> l & 1 != 0).then(|| w.r[r as usize][l]),
                        Dst::Ur(r) => w.urk[r as usize].then(|| w.ur[r as usize]),
                        Dst::P(p) => (w.pk[p as usize] >> l & 1 != 0).then(|| w.p[p as usize] >> l & 1),
                        Dst::Up(p) => w.upk[p as usize].then(|| u32::from(w.up[p as usize])),
                    };
                    eprintln!("flow:     {d:?} = {v:x?}");
                }
            }
        }
    }

    /// Releases lanes waiting at a `BSYNC` or `WARPSYNC` whose lanes have all arrived (or
    /// exited). Whether any were released.
    fn release(&self, w: &mut Warp) -> Result<bool, String> {
        let mut pcs: Vec<usize> = lanes(w.waiting & w.alive).map(|l| w.pc[l] as usize).collect();
        pcs.sort_unstable();
        pcs.dedup();
        for pc in pcs {
            let here = lanes(w.waiting & w.alive)
                .filter(|&l| w.pc[l] as usize == pc)
                .fold(0u32, |m, l| m | 1 << l);
            let ins = &self.ins[pc];
            if ins.kind == Kind::Bsync {
                // each barrier's lanes apart: the first whose lanes are all here go on
                for l in lanes(here) {
                    let need = w.barrier_of(ins.barrier, 1 << l) & w.alive;
                    if need & !here == 0 {
                        let go = (need & here) | 1 << l;
                        for k in lanes(go) {
                            w.pc[k] += 1;
                        }
                        w.waiting &= !go;
                        w.open[ins.barrier as usize] &= !go;
                        w.join(go);
                        return Ok(true);
                    }
                }
                continue;
            }
            let need = match ins.kind {
                Kind::Warpsync => w.sync_mask[pc_lane(here)] & w.alive,
                _ => 0,
            };
            if need & !here == 0 {
                for l in lanes(here) {
                    w.pc[l] += 1;
                }
                w.waiting &= !here;
                w.join(here);
                return Ok(true);
            }
        }
        Ok(false)
    }

    #[allow(clippy::too_many_lines)]
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        w: &mut Warp,
        ins: &Ins,
        pc: usize,
        group: u32,
        launch: &FlowLaunch,
        counts: &mut FlowCounts,
        mem: &mut Mem,
    ) -> Result<(), String> {
        let stop = |why: &str| format!("/*{:04x}*/ {}: {why}", ins.offset, ins.text);
        // values written here derive from a never-stored local read only where `exec` or a
        // local load says so
        w.undef.cur = false;
        // lanes whose guard holds, and lanes whose guard is unknown
        let (on, unknown_guard) = w.pred_mask(ins.guard, group);
        if ins.kind.is_control() && w.decision_tainted(ins, group) {
            mem.reads.decided = true;
        }
        let advance = |w: &mut Warp, m: u32| advance_lanes(&mut w.pc, m);
        match ins.kind {
            Kind::Bra { any, div } => {
                if unknown_guard != 0 {
                    return Err(stop("branch on an unknown value"));
                }
                let Some(mut taken) = w.condition(ins, group, on) else {
                    return Err(stop("branch on an unknown value"));
                };
                if div {
                    // the convergence check: the slow path is taken when a lane of the mask
                    // operand is not in the group (not followed: the flow stops), and by the
                    // whole group when the lanes whose guard holds are not the mask's lanes
                    // (H200, `calibration/bradiv/`: `@!P1 BRA.DIV UR4` after `R2UR P1, URZ, R`
                    // with the tiles' member masks in `R` and their union in `UR4`)
                    let mask = match ins.src.first() {
                        Some(o) => w.read(*o, pc_lane(group), launch),
                        None => Some(u32::MAX),
                    };
                    let Some(mask) = mask else {
                        return Err(stop("convergence check on an unknown mask"));
                    };
                    if mask & w.launched & !group != 0 {
                        return Err(stop(
                            "a warp reaches a convergence check diverged (its slow path is not followed)",
                        ));
                    }
                    taken = if on == 0 || on == mask & w.launched {
                        0
                    } else {
                        group
                    };
                }
                if any && taken != 0 {
                    taken = group;
                }
                if ins.counted {
                    counts.targets += 1;
                    if taken != 0 && taken != group {
                        counts.divergent += 1;
                    }
                }
                let Some(t) = ins.target else {
                    return Err(stop("branch target not found"));
                };
                for l in lanes(group) {
                    w.pc[l] = (if taken & (1 << l) != 0 { t } else { pc + 1 }) as u32;
                }
                w.split(group, taken);
                if taken != 0 && taken != group {
                    for l in lanes(taken) {
                        w.sent_by[l] = pc as u32 + 1;
                    }
                    w.parted |= group;
                }
                if taken == 0 {
                    w.together = Some(pc + 1);
                } else if taken == group {
                    w.together = Some(t);
                }
            }
            Kind::Brx { reg, imm } => {
                if unknown_guard != 0 {
                    return Err(stop("branch on an unknown value"));
                }
                // each lane's destination: the register's value is an offset from the next
                // instruction's, less `imm` (the jump table holds offsets in the function)
                let mut dests: Vec<(usize, u32)> = Vec::new();
                for l in lanes(on) {
                    let Some(v) = w.raw(Src::R(reg), l, launch) else {
                        return Err(stop("branch on an unknown value"));
                    };
                    let off = i64::from(v as i32) + i64::from(ins.offset) + 16 + imm;
                    let Some(&t) = u32::try_from(off).ok().and_then(|o| self.at.get(&o)) else {
                        return Err(stop("jump target is no instruction"));
                    };
                    match dests.iter_mut().find(|(d, _)| *d == t) {
                        Some((_, m)) => *m |= 1 << l,
                        None => dests.push((t, 1 << l)),
                    }
                }
                let rest = group & !on;
                if rest != 0 {
                    dests.push((pc + 1, rest));
                }
                if ins.counted {
                    let (t, d) = brx_counts(dests.len());
                    counts.targets += t;
                    counts.divergent += d;
                }
                for &(t, m) in &dests {
                    for l in lanes(m) {
                        w.pc[l] = t as u32;
                    }
                }
                // lanes going to different places run apart
                for &(_, m) in dests.iter().skip(1) {
                    w.split(group, m);
                }
                if let [(t, _)] = dests.as_slice() {
                    w.together = Some(*t);
                }
            }
            Kind::Exit => {
                if unknown_guard != 0 {
                    return Err(stop("exit on an unknown value"));
                }
                w.alive &= !on;
                advance(w, group & !on);
            }
            Kind::Bssy => {
                // the barrier records the lanes that run it, in each of them: ptxas shares a
                // region's code between the sides of a branch it does not join (a tail both
                // sides jump into), so a second group can start the barrier while the first is
                // still inside it (or inside another region of the same barrier), and each
                // group then waits at the BSYNC for its own lanes only
                let b = ins.barrier as usize;
                if w.open[b] & w.alive & !group != 0 {
                    counts.overlapping_barriers += 1;
                }
                w.open[b] |= group;
                for l in lanes(group) {
                    w.barrier[b][l] = group;
                }
                advance(w, group);
            }
            Kind::Bsync => {
                if unknown_guard != 0 {
                    return Err(stop("convergence on an unknown value"));
                }
                advance(w, group & !on);
                // lanes that ran a YIELD since they were last joined wait for no one: the group
                // goes on alone (calibration/yield/: each group leaving a YIELD loop on its own
                // iteration runs the code after the loop's BSYNC apart)
                if on & w.yielded != 0 {
                    for l in lanes(on) {
                        w.pc[l] += 1;
                    }
                    w.open[ins.barrier as usize] &= !on;
                    w.together = Some(pc + 1);
                    return Ok(());
                }
                // the barrier completes as soon as every lane that ran its BSSY is here: those
                // lanes go on together at once (another cohort's later BSSY of the same barrier
                // starts a new one)
                let here = on
                    | lanes(w.waiting)
                        .filter(|&l| w.pc[l] as usize == pc)
                        .fold(0u32, |m, l| m | 1 << l);
                let need = w.barrier_of(ins.barrier, on) & w.alive;
                if on != 0 && need & !here == 0 {
                    // only the lanes of the group's own barrier: another group waiting at the same
                    // BSYNC for lanes of a BSSY of its own goes on apart
                    let go = (need & here) | on;
                    for l in lanes(go) {
                        w.pc[l] += 1;
                    }
                    w.waiting &= !go;
                    w.open[ins.barrier as usize] &= !go;
                    w.join(go);
                } else {
                    w.waiting |= on;
                }
            }
            Kind::Break => {
                if unknown_guard != 0 {
                    return Err(stop("break on an unknown value"));
                }
                let Some(m) = w.condition(ins, group, on) else {
                    return Err(stop("break on an unknown value"));
                };
                for b in &mut w.barrier[ins.barrier as usize] {
                    *b &= !m;
                }
                w.open[ins.barrier as usize] &= !m;
                advance(w, group);
            }
            Kind::Yield => {
                if unknown_guard != 0 {
                    return Err(stop("yield on an unknown value"));
                }
                // the lanes leave every convergence barrier: no lane waits for them at a BSYNC
                for b in 0..w.barrier.len() {
                    for c in &mut w.barrier[b] {
                        *c &= !on;
                    }
                    w.open[b] &= !on;
                }
                w.yielded |= on;
                w.yields += 1;
                let state = (pc, group, w.lane_state(group));
                if w.yields > YIELD_CAP || state == w.last_yield {
                    return Err(stop(
                        "a loop with a YIELD runs on (a wait for a value another thread stores: the GPU's timing decides its rounds)",
                    ));
                }
                w.last_yield = state;
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Warpsync => {
                if unknown_guard != 0 {
                    return Err(stop("warp sync on an unknown value"));
                }
                let mask = match ins.src.first() {
                    Some(o) => {
                        let l = pc_lane(on);
                        match w.read(*o, l, launch) {
                            Some(v) => v,
                            None => return Err(stop("warp sync on an unknown mask")),
                        }
                    }
                    None => u32::MAX,
                };
                advance(w, group & !on);
                if on != 0 {
                    w.sync_mask[pc_lane(on)] = mask;
                    w.waiting |= on;
                }
            }
            Kind::ExclusiveSync => {
                if unknown_guard != 0 {
                    return Err(stop("exclusive warp sync on an unknown value"));
                }
                advance(w, group & !on);
                // the groups of lanes that agree on the mask, in lane order
                let mut groups: Vec<(u32, u32)> = Vec::new();
                for l in lanes(on) {
                    let Some(m) = ins.src.first().and_then(|o| w.read(*o, l, launch)) else {
                        return Err(stop("exclusive warp sync on an unknown mask"));
                    };
                    match groups.iter_mut().find(|(mask, _)| *mask == m) {
                        Some((_, ls)) => *ls |= 1 << l,
                        None => groups.push((m, 1 << l)),
                    }
                }
                // Nsight Compute's count (H100, calibration/run/partition.cu): max(1, k - 1)
                // targets, k - 1 of them divergent, for k groups
                if ins.counted && on != 0 {
                    let k = groups.len() as u64;
                    counts.targets += k.saturating_sub(1).max(1);
                    counts.divergent += k.saturating_sub(1);
                }
                for (i, &(_, ls)) in groups.iter().enumerate() {
                    for l in lanes(ls) {
                        w.pc[l] = (pc + 1) as u32;
                    }
                    if i > 0 {
                        w.deferred.push(ls);
                    }
                }
                if let Some(&(_, first)) = groups.first() {
                    w.together = (first == group).then_some(pc + 1);
                }
            }
            Kind::Call { abs } => {
                if unknown_guard != 0 {
                    return Err(stop("call on an unknown value"));
                }
                if ins.counted && on != 0 {
                    counts.targets += 1;
                    if on != group {
                        counts.divergent += 1;
                    }
                }
                if abs {
                    // a call into code the driver links in (`vprintf`, `__assertfail`): its
                    // results and the registers it may clobber are unknown
                    for r in 0..16u8 {
                        if r != 1 {
                            w.forget(Dst::R(r), on);
                        }
                    }
                    advance(w, group);
                } else {
                    let Some(t) = ins.target else {
                        return Err(stop("call target not found"));
                    };
                    for l in lanes(group) {
                        w.pc[l] = (if on & (1 << l) != 0 { t } else { pc + 1 }) as u32;
                    }
                }
            }
            Kind::Ret => {
                if unknown_guard != 0 {
                    return Err(stop("return on an unknown value"));
                }
                let Some(o) = ins.src.first() else {
                    return Err(stop("return without an address"));
                };
                // a return is a branch target too (H100: reduction's reduce7 calls a division
                // subroutine once per warp, and each warp counts one target more than its BRAs
                // and CALL), even where its guard holds for none of the group's lanes, as a
                // `BRA`'s (H200: myocyte's `@!P0 RET.REL.NODEC` ends a loop of `pow`'s; the
                // first launch's 139950 targets are its BRA, CALL and RET executions, the RET's
                // predicated off included)
                counts.targets += 1;
                for l in lanes(group) {
                    if on & (1 << l) == 0 {
                        w.pc[l] += 1;
                        continue;
                    }
                    let Some(off) = w.read(*o, l, launch) else {
                        return Err(stop("return to an unknown address"));
                    };
                    let Some(&t) = self.at.get(&off) else {
                        return Err(stop("return address is no instruction"));
                    };
                    w.pc[l] = t as u32;
                }
            }
            Kind::Bmov { to_reg, clear } => {
                if unknown_guard != 0 {
                    return Err(stop("barrier move on an unknown value"));
                }
                let b = ins.barrier as usize;
                if to_reg {
                    if let Some(&d) = ins.dst.first() {
                        w.cur_taint = false;
                        w.undef.cur = false;
                        w.cur_approx = false;
                        for l in lanes(on) {
                            let v = w.barrier[b][l];
                            w.set(d, l, Some(v));
                        }
                    }
                    if clear {
                        for l in lanes(on) {
                            w.barrier[b][l] = 0;
                        }
                    }
                } else if on != 0 {
                    // the warp's lanes must agree (lanes at different depths of a recursion
                    // restore different barriers: not followed)
                    let mut v = None;
                    for l in lanes(on) {
                        let x = ins.src.first().and_then(|o| w.read(*o, l, launch));
                        match (x, v) {
                            (None, _) => return Err(stop("barrier set from an unknown value")),
                            (Some(x), Some(y)) if x != y => {
                                return Err(stop("barrier set from values the lanes disagree on"));
                            }
                            (Some(x), _) => v = Some(x),
                        }
                    }
                    if let Some(v) = v {
                        for l in lanes(on) {
                            w.barrier[b][l] = v;
                        }
                    }
                }
                advance(w, group);
            }
            Kind::Stop => return Err(stop("not followed")),
            Kind::IndirectCall { reg } => {
                if unknown_guard != 0 {
                    return Err(stop("call on an unknown value"));
                }
                indirect::call(self, w, ins, pc, group, on, reg, launch, counts).map_err(&stop)?;
            }
            Kind::Nop => {
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Bar { arrive, .. } => {
                if unknown_guard != 0 {
                    return Err(stop("barrier on an unknown value"));
                }
                if on != 0 {
                    if on != w.alive {
                        // lanes of the warp pass the barrier apart: its barrier count is no longer
                        // the block's phase for the order of global accesses (FlowReads::hold)
                        w.bar_apart = true;
                    }
                    if arrive {
                        w.sh_bad = true;
                    } else {
                        w.phase += 1;
                        w.sh_own.clear();
                        w.sh_blind = false;
                    }
                }
                for d in &ins.dst {
                    w.forget(*d, on);
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
            _ if !self.needed[pc] => {
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Lds { .. } | Kind::Sts { .. } | Kind::AtomS { .. } => {
                if let (Some(arch), Some(_)) = (self.shared.and_then(Result::ok), counts.shared) {
                    count_shared(w, ins, on, unknown_guard, counts, arch, launch, mem);
                }
                let bounds =
                    (matches!(ins.kind, Kind::AtomS { .. }) && !ins.src.is_empty() && self.value[pc])
                        .then(|| w.atomic_add_bounds(ins, on, launch))
                        .flatten();
                if self.shared.is_none() || self.value[pc] {
                    w.shared_memory(ins, on, unknown_guard, launch);
                    if matches!(ins.kind, Kind::AtomS { .. }) {
                        // an atomic's result (the old value, a compare-and-swap's success) is
                        // not known: other warps' atomics on the word come in any order
                        for d in &ins.dst {
                            w.forget(*d, on);
                        }
                    }
                } else {
                    // followed for the count only: nothing needed reads what it loads
                    for d in &ins.dst {
                        w.forget(*d, on);
                    }
                }
                for d in &ins.dst {
                    w.forget(*d, unknown_guard);
                }
                if let Some(b) = bounds {
                    w.bound_atomic_add(b);
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Ldl { .. } | Kind::Stl { .. } => {
                w.local_memory(ins, on, unknown_guard, launch);
                for d in &ins.dst {
                    w.forget(*d, unknown_guard);
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Tex { dims, ints, mask } => {
                w.texture(ins, on, dims, ints, mask, launch, mem);
                for d in &ins.dst {
                    w.forget(*d, unknown_guard);
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
            Kind::Ldg { .. } | Kind::Stg { .. } | Kind::AtomG { .. } => {
                if counts.global.is_some() {
                    count_global(w, ins, pc, on, unknown_guard, counts, mem);
                }
                if self.value[pc] {
                    w.memory(ins, on, mem);
                } else {
                    // followed for the count only: nothing needed reads what it loads
                    for d in &ins.dst {
                        w.forget(*d, on);
                    }
                }
                for d in &ins.dst {
                    w.forget(*d, unknown_guard);
                }
                if matches!(ins.kind, Kind::Stg { .. } | Kind::AtomG { .. }) && unknown_guard != 0 {
                    w.unknown_store = true;
                    if matches!(ins.kind, Kind::Stg { known: false, .. }) {
                        // a generic store that may land in those lanes' local memory
                        w.local_blind |= unknown_guard;
                    }
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
            _ => {
                w.exec(ins, on, launch);
                for d in &ins.dst {
                    w.forget(*d, unknown_guard);
                }
                advance(w, group);
                w.together = Some(pc + 1);
            }
        }
        Ok(())
    }
}

/// Counts one execution of a shared load or store by the lanes `on` into [`FlowCounts::shared`]
/// (its wavefronts by `arch`'s bank rules, as the PTX emulation's accesses are costed), or gives
/// the counts up with the reason. Shared atomics are not among ncu's shared loads and stores.
#[allow(clippy::too_many_arguments)]
fn count_shared(
    w: &mut Warp,
    ins: &Ins,
    on: u32,
    unknown_guard: u32,
    counts: &mut FlowCounts,
    arch: &warpscope_model::arch::Arch,
    launch: &FlowLaunch,
    mem: &mut Mem,
) {
    let (side, bytes) = match ins.kind {
        Kind::Lds { bytes, .. } => (crate::side::Side::Load, bytes),
        Kind::Sts { bytes } => (crate::side::Side::Store, bytes),
        _ => return,
    };
    let mut give_up = |why: &'static str| {
        counts.shared = None;
        counts.shared_why = Some(why);
    };
    if unknown_guard != 0 {
        return give_up("a shared access runs for lanes that are not known");
    }
    if on == 0 {
        return;
    }
    let Some(a) = ins.saddr else {
        return give_up("a shared access's address form is not read");
    };
    // an address that derives from memory makes the run's reads checked after the launch
    if a.reg.is_some_and(|(r, _)| w.rt[r as usize] & on != 0) || a.ureg.is_some_and(|u| w.urt[u as usize]) {
        mem.reads.decided = true;
    }
    let mut addrs = [0u64; 32];
    for l in lanes(on) {
        let mut v = a.off as u32;
        if let Some((r, k)) = a.reg {
            let Some(x) = w.raw(Src::R(r), l, launch) else {
                return give_up("a shared access's address is not known");
            };
            v = v.wrapping_add(x.wrapping_mul(u32::from(k)));
        }
        if let Some(u) = a.ureg {
            let Some(x) = w.raw(Src::Ur(u), l, launch) else {
                return give_up("a shared access's address is not known");
            };
            v = v.wrapping_add(x);
        }
        // the block's own window (the bank of an offset does not change by the reserved kilobyte)
        addrs[l] = u64::from(v & 0x00ff_ffff);
    }
    let req = crate::banks::Request {
        width: bytes,
        mask: on,
        addrs: &addrs,
    };
    let Some((wf, ideal, attributed)) = crate::banks::attributed_cost(arch, side, &req) else {
        return give_up("a shared access outside the bank model (a misaligned lane)");
    };
    if let Some(c) = counts.shared.as_mut() {
        if side == crate::side::Side::Load {
            c.ld_instructions += 1;
            c.ld_wavefronts += u64::from(wf);
            c.ld_ideal += u64::from(ideal);
            c.ld_attributed += u64::from(attributed);
        } else {
            c.st_instructions += 1;
            c.st_wavefronts += u64::from(wf);
            c.st_ideal += u64::from(ideal);
            c.st_attributed += u64::from(attributed);
        }
    }
}

/// Counts one execution of a global load or store by the lanes `on` into [`FlowCounts::global`],
/// or gives the counts up with the reason. A generic access counts the lanes whose address is
/// outside the shared, local and constant windows. An address that derives from memory makes the
/// run's reads checked after the launch, as a branch on memory does.
fn count_global(
    w: &mut Warp,
    ins: &Ins,
    pc: usize,
    on: u32,
    unknown_guard: u32,
    counts: &mut FlowCounts,
    mem: &mut Mem,
) {
    let (op, bytes, generic) = match ins.kind {
        Kind::Ldg { bytes, generic, .. } => (AccessOp::Load, bytes, generic),
        Kind::Stg { bytes, known } => (AccessOp::Store, bytes, !known),
        _ => return,
    };
    let mut give_up = |why: &'static str| {
        counts.global = None;
        counts.global_why = Some(why);
    };
    if unknown_guard != 0 {
        return give_up("a global access runs for lanes that are not known");
    }
    if on == 0 {
        return;
    }
    if let Some((r, _)) = ins.addr
        && (w.rt[r as usize] | w.rt[r as usize + 1]) & on != 0
    {
        mem.reads.decided = true;
    }
    // the same instruction by the same lanes with its address registers unwritten since: the
    // same addresses, the same count (a loop's loads and stores through loop-invariant pointers)
    let key = ins.addr.map(|(r, _)| {
        let r = r as usize;
        (w.epoch, w.rgen[r], w.rgen[(r + 1).min(255)], on)
    });
    if let (Some(key), Some(&(k, mask, n))) = (key, w.acache.get(pc))
        && k == key
    {
        if let Some(g) = counts.global.as_mut() {
            g.record_sectors(op, bytes, mask, n);
        }
        return;
    }
    let Some((addrs, known)) = w.addresses(ins) else {
        return give_up("a global access's address is not known");
    };
    if known & on != on {
        return give_up("a global access's address is not known");
    }
    let mut mask = on;
    if generic {
        use warpscope_emu::mem::{CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW, WINDOW};
        for l in lanes(on) {
            let window = |base: u64| (base..base + WINDOW).contains(&addrs[l]);
            if window(SHARED_WINDOW) || window(LOCAL_WINDOW) || window(CONST_WINDOW) {
                mask &= !(1 << l);
            }
        }
    }
    let n = if mask == 0 {
        0
    } else {
        crate::global::sectors(bytes, mask, &addrs)
    };
    if let Some(g) = counts.global.as_mut() {
        g.record_sectors(op, bytes, mask, n);
    }
    if let Some(key) = key {
        if w.acache.len() <= pc {
            w.acache.resize(pc + 1, ((0, 0, 0, 0), 0, 0));
        }
        w.acache[pc] = (key, mask, n);
    }
}

/// Branch targets and divergent targets Nsight Compute counts for one execution of a `BRX` whose
/// lanes go to `places` different instructions: one uniform target when they all go to one place,
/// else `places - 1` targets, all divergent. From the H200 (calibration/run/bench2/, `classify`:
/// four jump tables executed 127 times by warps whose lanes go to one to four places): the
/// per-instruction divergent counts are 30, 61, 62, 63 (`places - 1` per execution, the flow's
/// places), and the launch's 656 targets are the other branches' 439 executions plus 217, the
/// divergent 216 and the one execution whose lanes all went to one place ("a target per place"
/// would give 782, "one per execution" 566). Checked afterwards on `switch2.cu`'s 10 launches
/// (one to eight places per warp): all equal.
/// The first instruction of each instruction's straight-line block: a block starts at the first
/// instruction, after every control instruction (and `BSSY`), and at every branch, call or
/// convergence target.
fn block_starts(ins: &[Ins]) -> Vec<u32> {
    let mut leader = vec![false; ins.len()];
    if let Some(first) = leader.first_mut() {
        *first = true;
    }
    for (i, x) in ins.iter().enumerate() {
        if let Some(t) = x.target
            && t < ins.len()
        {
            leader[t] = true;
        }
        if (x.kind.is_control() || matches!(x.kind, Kind::Bssy | Kind::Stop)) && i + 1 < ins.len() {
            leader[i + 1] = true;
        }
    }
    let mut out = vec![0u32; ins.len()];
    let mut start = 0u32;
    for (i, &l) in leader.iter().enumerate() {
        if l {
            start = i as u32;
        }
        out[i] = start;
    }
    out
}

fn brx_counts(places: usize) -> (u64, u64) {
    if places <= 1 {
        (1, 0)
    } else {
        let n = places as u64 - 1;
        (n, n)
    }
}

/// Registers and predicates, as bit sets.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Regs {
    r: [u64; 4],
    p: u8,
    ur: u64,
    up: u8,
}

impl Regs {
    fn add(&mut self, d: Dst) {
        match d {
            Dst::R(i) if i != RZ => self.r[i as usize / 64] |= 1 << (i % 64),
            Dst::P(i) if i != PT => self.p |= 1 << i,
            Dst::Ur(i) if i != URZ => self.ur |= 1 << i,
            Dst::Up(i) if i != PT => self.up |= 1 << i,
            _ => {}
        }
    }

    fn has(&self, d: Dst) -> bool {
        match d {
            Dst::R(i) if i != RZ => self.r[i as usize / 64] >> (i % 64) & 1 != 0,
            Dst::P(i) if i != PT => self.p >> i & 1 != 0,
            Dst::Ur(i) if i != URZ => self.ur >> i & 1 != 0,
            Dst::Up(i) if i != PT => self.up >> i & 1 != 0,
            _ => false,
        }
    }

    fn remove(&mut self, d: Dst) {
        match d {
            Dst::R(i) if i != RZ => self.r[i as usize / 64] &= !(1 << (i % 64)),
            Dst::P(i) if i != PT => self.p &= !(1 << i),
            Dst::Ur(i) if i != URZ => self.ur &= !(1 << i),
            Dst::Up(i) if i != PT => self.up &= !(1 << i),
            _ => {}
        }
    }

    fn union(&mut self, o: &Regs) {
        for k in 0..4 {
            self.r[k] |= o.r[k];
        }
        self.p |= o.p;
        self.ur |= o.ur;
        self.up |= o.up;
    }
}

/// What an instruction reads: operands (with the pairs of 64-bit operands and the registers of
/// wide stores), predicates, its guard, its address.
fn uses(x: &Ins) -> Regs {
    let mut u = Regs::default();
    let pair = matches!(
        x.kind,
        Kind::Imad { hi: true, .. } | Kind::Imad { wide: true, .. }
    );
    let doubles = double::pair_sources(x.kind);
    for (n, o) in x.src.iter().enumerate() {
        let pair = pair && n == 2 || doubles >> n & 1 != 0;
        let n = if doubles >> n & 1 != 0 { 2 } else { n };
        match o.src {
            Src::R(k) if k != RZ => {
                u.add(Dst::R(k));
                if pair && n == 2 && k + 1 < RZ {
                    u.add(Dst::R(k + 1));
                }
                if let Kind::Stg { bytes, .. } | Kind::Stl { bytes } | Kind::Sts { bytes } = x.kind {
                    for w in 1..bytes.div_ceil(4) {
                        if k + w < RZ {
                            u.add(Dst::R(k + w));
                        }
                    }
                }
            }
            Src::Const { reg: Some(k), .. } => u.add(Dst::R(k)),
            Src::Const { ureg: Some(k), .. } => u.add(Dst::Ur(k)),
            Src::Ur(k) if k != URZ => {
                u.add(Dst::Ur(k));
                if pair && n == 2 && k + 1 < URZ {
                    u.add(Dst::Ur(k + 1));
                }
            }
            _ => {}
        }
    }
    match x.laddr {
        Some((Src::R(k), _)) => u.add(Dst::R(k)),
        Some((Src::Ur(k), _)) => u.add(Dst::Ur(k)),
        _ => {}
    }
    if let Some(a) = x.saddr {
        if let Some((k, _)) = a.reg {
            u.add(Dst::R(k));
        }
        if let Some(k) = a.ureg {
            u.add(Dst::Ur(k));
        }
    }
    if let Some((k, _)) = x.addr {
        u.add(Dst::R(k));
        if k + 1 < RZ {
            u.add(Dst::R(k + 1));
        }
    }
    for q in x.preds.iter().chain(std::iter::once(&x.guard)) {
        u.add(if q.uniform { Dst::Up(q.idx) } else { Dst::P(q.idx) });
    }
    if matches!(x.kind, Kind::P2r) {
        u.p |= 0x7f;
    }
    u
}

/// An `R2P` whose mask is a register: it may leave any predicate as it was, so its
/// destinations do not end a value's life.
fn r2p_register_mask(x: &Ins) -> bool {
    matches!(x.kind, Kind::R2p) && !matches!(x.src.get(1).map(|o| o.src), Some(Src::Imm(_)))
}

/// Which instructions can affect a control decision: the control instructions, and every
/// instruction that writes a register or predicate live into one (backward liveness over the
/// machine code's control-flow graph, to a fixed point; a guarded write does not end a value's
/// life). Once a needed load is found, every store and atomic is needed too (a warp reads back
/// what it stored).
///
/// With `globals`, every `LDG` and `STG` is needed for its count; the second vector says which
/// memory instructions are needed for their values: a load whose result is live into a needed
/// instruction, and the stores once such a load exists. The others are followed for their
/// addresses only (a store's data registers are then not needed, a load reads no memory).
///
/// With `shared`, every `LDS` and `STS` is needed for its count too: an `LDS` is needed for its
/// value only when its result is live into a needed instruction, and the `STS`s for theirs once
/// such a load exists.
fn slice(ins: &[Ins], globals: bool, shared: bool, labelled: &[usize]) -> (Vec<bool>, Vec<bool>) {
    let n = ins.len();
    // successors: the next instruction unless the control transfer is unconditional, the target;
    // a call's callee and its return site; a return's every return site
    let returns: Vec<usize> = ins
        .iter()
        .enumerate()
        .filter(|(_, x)| matches!(x.kind, Kind::Call { abs: false } | Kind::IndirectCall { .. }))
        .map(|(i, _)| i + 1)
        .collect();
    let succ: Vec<Vec<usize>> = ins
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let guarded = x.guard != Pred::TRUE;
            let mut v = Vec::new();
            let falls = match x.kind {
                Kind::Bra { div, .. } => guarded || div || !x.preds.is_empty(),
                Kind::Brx { .. } => guarded,
                Kind::Exit | Kind::Ret | Kind::IndirectCall { .. } => guarded,
                Kind::Stop => false,
                _ => true,
            };
            if falls && i + 1 < n {
                v.push(i + 1);
            }
            if matches!(x.kind, Kind::Bra { .. } | Kind::Call { .. })
                && let Some(t) = x.target
            {
                v.push(t);
            }
            if matches!(x.kind, Kind::Ret) {
                v.extend(returns.iter().copied().filter(|&r| r < n));
            }
            // a jump table's entries and an indirect call's callees: any labelled instruction
            if matches!(x.kind, Kind::Brx { .. } | Kind::IndirectCall { .. }) {
                v.extend(labelled.iter().copied().filter(|&r| r < n));
            }
            v
        })
        .collect();
    // a store followed for its address only reads its address (and guard) registers
    let address_uses: Vec<Regs> = ins
        .iter()
        .map(|x| match x.kind {
            Kind::Stg { .. } | Kind::Sts { .. } => uses(&Ins {
                src: Vec::new(),
                ..x.clone()
            }),
            _ => uses(x),
        })
        .collect();
    let uses: Vec<Regs> = ins.iter().map(uses).collect();
    let mut value = vec![false; n];
    let mut needed: Vec<bool> = ins
        .iter()
        .map(|x| {
            x.kind.is_control()
                || matches!(x.kind, Kind::Bssy | Kind::Stop | Kind::Bar { .. })
                || globals && matches!(x.kind, Kind::Ldg { .. } | Kind::Stg { .. })
                || shared && matches!(x.kind, Kind::Lds { .. } | Kind::Sts { .. })
        })
        .collect();
    let mut live_in = vec![Regs::default(); n];
    let mut stores = false;
    loop {
        let mut changed = false;
        for i in (0..n).rev() {
            let x = &ins[i];
            let mut out = Regs::default();
            for &j in &succ[i] {
                out.union(&live_in[j]);
            }
            let live = x.dst.iter().any(|d| out.has(*d));
            if !needed[i] && live {
                needed[i] = true;
                changed = true;
            }
            if live
                && !value[i]
                && (matches!(x.kind, Kind::Ldg { .. }) || shared && matches!(x.kind, Kind::Lds { .. }))
            {
                value[i] = true;
                changed = true;
            }
            let mut inn = out;
            if needed[i] {
                if x.guard == Pred::TRUE && !r2p_register_mask(x) {
                    for d in &x.dst {
                        inn.remove(*d);
                    }
                }
                let store_address_only = (matches!(x.kind, Kind::Stg { .. })
                    || shared && matches!(x.kind, Kind::Sts { .. }))
                    && !value[i];
                inn.union(if store_address_only {
                    &address_uses[i]
                } else {
                    &uses[i]
                });
            }
            if inn != live_in[i] {
                live_in[i] = inn;
                changed = true;
            }
        }
        if !stores
            && ins
                .iter()
                .zip(&value)
                .any(|(x, &v)| v && matches!(x.kind, Kind::Ldg { .. }))
        {
            stores = true;
            for ((x, k), v) in ins.iter().zip(needed.iter_mut()).zip(value.iter_mut()) {
                if matches!(x.kind, Kind::Stg { .. } | Kind::AtomG { .. }) && !*v {
                    *k = true;
                    *v = true;
                    changed = true;
                }
            }
        }
        // (counting shared accesses, every `LDS` is needed: the loads needed for their values
        // are those whose results are live)
        let lds_read = if shared { &value } else { &needed };
        if ins
            .iter()
            .zip(lds_read)
            .any(|(x, &k)| k && matches!(x.kind, Kind::Lds { .. }))
        {
            for ((x, k), v) in ins.iter().zip(needed.iter_mut()).zip(value.iter_mut()) {
                if matches!(x.kind, Kind::Sts { .. } | Kind::AtomS { .. }) && (!*k || shared && !*v) {
                    *k = true;
                    if shared {
                        *v = true;
                    }
                    changed = true;
                }
            }
        }
        // local memory is written by `STL` and generic stores, read by `LDL` and generic loads
        if ins.iter().zip(&needed).zip(&value).any(|((x, &k), &v)| {
            k && matches!(x.kind, Kind::Ldl { .. }) || v && matches!(x.kind, Kind::Ldg { generic: true, .. })
        }) {
            for ((x, k), v) in ins.iter().zip(needed.iter_mut()).zip(value.iter_mut()) {
                if matches!(x.kind, Kind::Stl { .. }) && !*k {
                    *k = true;
                    changed = true;
                }
                if matches!(x.kind, Kind::Stg { known: false, .. }) && !*v {
                    *k = true;
                    *v = true;
                    changed = true;
                }
            }
        }
        if !changed {
            // every other needed instruction is needed for its values
            for ((x, &k), v) in ins.iter().zip(&needed).zip(value.iter_mut()) {
                let counted = matches!(x.kind, Kind::Ldg { .. } | Kind::Stg { .. })
                    || shared && matches!(x.kind, Kind::Lds { .. } | Kind::Sts { .. });
                if k && !counted {
                    *v = true;
                }
            }
            return (needed, value);
        }
    }
}

/// How many leading operands [`Warp::exec`] reads for all lanes at once.
const PRE: usize = 4;
type Pre = [([u32; 32], u32); PRE];

/// `LOP3.LUT`: each result bit is bit `(a << 2 | b << 1 | c)` of the table's low byte, for the
/// bits of `a`, `b` and `c` at that position. Computed as the or of the table's minterms, each
/// the and of `a`, `b`, `c` or their complements (eight word operations at most, not 32 bit
/// steps; [`lop3_by_bits`] is the definition, held to it in the tests).
#[inline]
fn lop3(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    let mut r = 0u32;
    for i in 0..8 {
        if lut >> i & 1 != 0 {
            let x = if i & 4 != 0 { a } else { !a };
            let y = if i & 2 != 0 { b } else { !b };
            let z = if i & 1 != 0 { c } else { !c };
            r |= x & y & z;
        }
    }
    r
}

/// `LOP3.LUT` bit by bit: the definition [`lop3`] computes by words.
#[cfg(test)]
fn lop3_by_bits(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    let mut r = 0u32;
    for bit in 0..32 {
        let i = ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
        r |= ((lut >> i) & 1) << bit;
    }
    r
}

/// An integer operand's modifiers on a raw value (`-x`: two's complement, `~x`, `|x|`).
#[inline]
fn int_mods(mut v: u32, o: &Opnd) -> u32 {
    // most operands have none: one test (`|`, not `||`) for the three
    if !(o.abs | o.not | o.neg) {
        return v;
    }
    if o.abs {
        v = (v as i32).unsigned_abs();
    }
    if o.not {
        v = !v;
    }
    if o.neg {
        v = v.wrapping_neg();
    }
    v
}

/// A float operand's modifiers on a raw value (`-x`, `|x|` on the sign).
#[inline]
fn float_mods(v: u32, o: &Opnd) -> f32 {
    let mut f = f32::from_bits(v);
    if !(o.abs | o.neg) {
        return f;
    }
    if o.abs {
        f = f.abs();
    }
    if o.neg {
        f = -f;
    }
    f
}

/// The lowest lane of a mask (0 for none).
fn pc_lane(m: u32) -> usize {
    if m == 0 { 0 } else { m.trailing_zeros() as usize }
}

/// The lanes whose word in `v` is `x`: four lanes per SSE2 compare and mask extraction on
/// x86-64 ([`eq_mask_by_lanes`] elsewhere, and the definition the tests hold it to).
#[inline]
fn eq_mask(v: &[u32; 32], x: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32,
        };
        let mut m = 0u32;
        // SAFETY: SSE and SSE2 are part of the x86-64 baseline; each load reads `q`, four
        // consecutive `u32`s (16 bytes), and needs no alignment.
        unsafe {
            let k = _mm_set1_epi32(x as i32);
            for (i, q) in v.chunks_exact(4).enumerate() {
                let p = _mm_loadu_si128(q.as_ptr().cast::<__m128i>());
                let e = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(p, k)));
                m |= (e as u32) << (4 * i);
            }
        }
        m
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        eq_mask_by_lanes(v, x)
    }
}

/// The lanes whose word in `v` is `x`, lane by lane.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn eq_mask_by_lanes(v: &[u32; 32], x: u32) -> u32 {
    let mut m = 0u32;
    for (l, &p) in v.iter().enumerate() {
        m |= u32::from(p == x) << l;
    }
    m
}

/// The lanes whose code index is `pc` (every lane compared, without a branch per lane).
#[inline]
fn at_mask(pcs: &[u32; 32], pc: usize) -> u32 {
    eq_mask(pcs, pc as u32)
}

/// An `ATOMS.ADD`'s destination, the lanes whose old value is bounded and their bounds.
type AddBounds = (u8, u32, [(u32, u32); 32]);

/// `v cmp k` (`swapped`: `k cmp v`) for every `v` in `lo..=hi`, when the answer is the same for
/// all of them (an ordered compare on a range that does not cross the signed compare's wrap has
/// its answers at the ends; an equality only where `k` is outside the range or the range is `k`).
fn range_compare(cmp: Cmp, signed: bool, (lo, hi): (u32, u32), k: u32, swapped: bool) -> Option<bool> {
    let key = |v: u32| if signed { i64::from(v as i32) } else { i64::from(v) };
    let (a, b, k) = (key(lo), key(hi), key(k));
    if a > b {
        return None;
    }
    let at = |v: i64| {
        let ord = if swapped { k.cmp(&v) } else { v.cmp(&k) };
        cmp.of_order(ord)
    };
    match cmp {
        Cmp::Eq | Cmp::Ne => {
            if k < a || k > b || a == b {
                at(a)
            } else {
                None
            }
        }
        _ => {
            let (x, y) = (at(a)?, at(b)?);
            (x == y).then_some(x)
        }
    }
}

/// The lanes of cohort `c`.
#[inline]
fn cohort_mask(cohorts: &[u32; 32], c: u32) -> u32 {
    eq_mask(cohorts, c)
}

/// The lanes `m` go on to the next instruction.
#[inline]
fn advance_lanes(pcs: &mut [u32; 32], m: u32) {
    if m == u32::MAX {
        pcs.iter_mut().for_each(|p| *p += 1);
        return;
    }
    for (l, p) in pcs.iter_mut().enumerate() {
        *p += m >> l & 1;
    }
}

fn lanes(m: u32) -> impl Iterator<Item = usize> {
    let mut m = m;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

/// The bytes a memory instruction moves per lane, from its modifiers (`.128`, `.64`, `.U16`/`.S16`,
/// `.U8`/`.S8`; 4 otherwise).
fn access_bytes(mods: &[&str]) -> u8 {
    let has = |m: &str| mods.contains(&m);
    if has("128") {
        16
    } else if has("64") {
        8
    } else if has("U16") || has("S16") {
        2
    } else if has("U8") || has("S8") {
        1
    } else {
        4
    }
}

fn decode(
    l: &SassLine,
    labels: &std::collections::BTreeMap<String, u32>,
    at: &HashMap<u32, usize>,
    counted: bool,
) -> Ins {
    let mut parts = l.opcode.split('.');
    let base = parts.next().unwrap_or("");
    let mods: Vec<&str> = parts.collect();
    let ops = split_operands(&l.operands);
    let guard = l.predicate.as_deref().and_then(parse_pred).unwrap_or(Pred::TRUE);
    let mut ins = Ins {
        offset: l.code_offset,
        text: format!("{} {}", l.opcode, l.operands).trim().to_string(),
        kind: Kind::Poison,
        guard,
        dst: Vec::new(),
        src: Vec::new(),
        preds: Vec::new(),
        target: None,
        barrier: 0,
        counted,
        addr: None,
        laddr: None,
        saddr: None,
        rounded_approx: false,
        ddiv: None,
        ddiv_seed: None,
    };
    if l.predicate.is_some() && l.predicate.as_deref().and_then(parse_pred).is_none() {
        ins.kind = Kind::Stop;
        return ins;
    }
    let has = |m: &str| mods.contains(&m);
    // destinations: leading predicates, then a register (with the width its modifiers give)
    let reg_dst = |t: &str, n: u8| -> Vec<Dst> {
        match parse_reg(t) {
            Some(Src::R(r)) if r != RZ => (0..n)
                .filter_map(|k| r.checked_add(k))
                .filter(|&r| r < RZ)
                .map(Dst::R)
                .collect(),
            Some(Src::Ur(r)) if r != URZ => (0..n)
                .filter_map(|k| r.checked_add(k))
                .filter(|&r| r < URZ)
                .map(Dst::Ur)
                .collect(),
            _ => Vec::new(),
        }
    };
    // a register destination that holds its place before carry-out predicates: `RZ` / `URZ`
    // discard the word, not the position (`IADD3 RZ, P0, a, b, c`: P0 is the carry)
    let reg_dst_placed = |t: &str, n: u8| -> Vec<Dst> {
        let v = reg_dst(t, n);
        if !v.is_empty() {
            return v;
        }
        match parse_reg(t) {
            Some(Src::Ur(_)) => vec![Dst::Ur(URZ); usize::from(n)],
            _ => vec![Dst::R(RZ); usize::from(n)],
        }
    };
    let pred_dst = |t: &str| -> Vec<Dst> {
        match parse_pred(t) {
            Some(p) if p.idx != PT && !p.neg => vec![if p.uniform { Dst::Up(p.idx) } else { Dst::P(p.idx) }],
            _ => Vec::new(),
        }
    };
    let srcs = |from: usize| -> Vec<Opnd> { ops.iter().skip(from).map(|o| parse_opnd(o)).collect() };
    let preds_of =
        |from: usize| -> Vec<Pred> { ops.iter().skip(from).filter_map(|o| parse_pred(o)).collect() };
    let poison = |ins: &mut Ins| {
        ins.kind = Kind::Poison;
        let mut dst = Vec::new();
        let mut i = 0;
        while i < ops.len() && parse_pred(&ops[i]).is_some() {
            dst.extend(pred_dst(&ops[i]));
            i += 1;
        }
        if let Some(o) = ops.get(i) {
            dst.extend(reg_dst(o, dest_width(base, &mods)));
        }
        ins.dst = dst;
    };
    if matches!(base, "LDS" | "STS" | "ATOMS") {
        let bytes = access_bytes(&mods);
        ins.saddr = ops
            .iter()
            .find(|o| o.contains('['))
            .and_then(|o| shared_address(o));
        let plain = mods
            .iter()
            .all(|m| matches!(*m, "U8" | "S8" | "U16" | "S16" | "64" | "128" | "U"));
        match base {
            "LDS" if plain => {
                ins.kind = Kind::Lds {
                    bytes,
                    signed: has("S8") || has("S16"),
                };
                ins.dst = ops
                    .first()
                    .map(|o| reg_dst(o, bytes.div_ceil(4)))
                    .unwrap_or_default();
            }
            "STS" if plain => {
                ins.kind = Kind::Sts { bytes };
                ins.src = ops.last().map(|o| parse_opnd(o)).into_iter().collect();
            }
            "LDS" => poison(&mut ins),
            _ => {
                // an atomic (or a store form not read): what it touches becomes unknown
                let bytes = if base == "ATOMS" { bytes.max(4) } else { bytes };
                ins.kind = Kind::AtomS { bytes };
                if base == "ATOMS" && mods == ["ADD"] && ops.len() == 3 && ops[1].contains('[') {
                    // a 32-bit integer add's addend: its old value may be bounded
                    ins.src = vec![parse_opnd(&ops[2])];
                }
                let mut dst = Vec::new();
                for o in &ops {
                    if o.contains('[') {
                        break;
                    }
                    dst.extend(pred_dst(o));
                    dst.extend(reg_dst(o, bytes.div_ceil(4)));
                }
                ins.dst = dst;
            }
        }
        return ins;
    }
    if base == "BAR" {
        if has("ARV") {
            ins.kind = Kind::Bar {
                arrive: true,
                block: false,
            };
        } else if has("SYNC") || has("RED") {
            ins.kind = Kind::Bar {
                arrive: false,
                block: has("SYNC") && ops.len() == 1 && ops[0] == "0x0",
            };
            if has("RED") {
                // the block's reduction: unknown here
                ins.dst = ops
                    .iter()
                    .flat_map(|o| match parse_reg(o) {
                        Some(Src::R(r)) if r != RZ => vec![Dst::R(r)],
                        _ => pred_dst(o),
                    })
                    .collect();
            }
        } else {
            ins.kind = Kind::Nop;
        }
        return ins;
    }
    if matches!(base, "LDL" | "STL") {
        let bytes = access_bytes(&mods);
        ins.laddr = ops
            .iter()
            .find(|o| o.contains('['))
            .and_then(|o| local::address(o));
        if base == "LDL" {
            ins.kind = Kind::Ldl {
                bytes,
                signed: has("S8") || has("S16"),
            };
            ins.dst = ops
                .first()
                .map(|o| reg_dst(o, bytes.div_ceil(4)))
                .unwrap_or_default();
        } else {
            ins.kind = Kind::Stl { bytes };
            ins.src = ops.last().map(|o| parse_opnd(o)).into_iter().collect();
        }
        return ins;
    }
    if let Some(kind) = double::kind(base, &mods) {
        ins.kind = kind;
        let pairs = double::pair_sources(kind);
        let wide = match kind {
            Kind::Dop { .. } => true,
            Kind::Dcvt { op } => matches!(
                op,
                double::Dcvt::FromInt { .. } | double::Dcvt::FromFloat | double::Dcvt::FloatToInt64 { .. }
            ),
            _ => false,
        };
        if let Kind::Dsetp { .. } | Kind::Dminmax { .. } = kind {
            ins.dst = ops.iter().take(2).map(|o| pred_or_sink(o)).collect();
            ins.src = ops.iter().skip(2).take(2).map(|o| double::operand(o)).collect();
            ins.preds = preds_of(4);
        } else {
            ins.dst = ops
                .first()
                .map(|o| reg_dst(o, if wide { 2 } else { 1 }))
                .unwrap_or_default();
            ins.src = ops
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, o)| {
                    if pairs >> i & 1 != 0 {
                        double::operand(o)
                    } else {
                        parse_opnd(o)
                    }
                })
                .collect();
        }
        return ins;
    }
    if matches!(base, "TEX" | "TLD" | "TLD4" | "TMML" | "TXD") {
        // a texture read has two destinations (`TEX.LL R22, R6, R26, R28, UR4, 0x0, 2D`): the
        // result's channels packed in order into the second's register pair (x, y) and then the
        // first's (z, w), as many as the channel mask (the last operand when not a dimension,
        // 0xf without) enables; every one of them is unknown here
        ins.kind = Kind::Poison;
        ins.dst = texture_dsts(&ops, |t, n| reg_dst(t, n));
        if let Some((dims, ints, mask, src)) = texture_read(base, &mods, &ops)
            && ins.dst.len() == mask.count_ones() as usize
        {
            ins.kind = Kind::Tex { dims, ints, mask };
            ins.src = src;
        }
        return ins;
    }
    match base {
        "BRA" | "JMP" => {
            if ops.iter().any(|o| parse_reg(o).is_some()) && !has("DIV") {
                ins.kind = Kind::Stop; // an indirect jump
                return ins;
            }
            ins.kind = Kind::Bra {
                any: has("ANY"),
                div: has("DIV"),
            };
            if has("DIV") {
                ins.src = ops.first().map(|o| parse_opnd(o)).into_iter().collect();
            } else {
                ins.preds = ops.iter().filter_map(|o| parse_pred(o)).take(1).collect();
            }
            ins.target = target_index(&ops, labels, at);
        }
        "EXIT" => ins.kind = Kind::Exit,
        "BSSY" | "BSYNC" | "BREAK" => {
            ins.kind = match base {
                "BSSY" => Kind::Bssy,
                "BSYNC" => Kind::Bsync,
                _ => Kind::Break,
            };
            let b = ops
                .iter()
                .find_map(|o| o.strip_prefix('B').and_then(|n| n.parse::<u8>().ok()));
            match b {
                Some(b) if b < 16 => ins.barrier = b,
                _ => ins.kind = Kind::Stop,
            }
            if base == "BREAK" {
                ins.preds = ops.iter().filter_map(|o| parse_pred(o)).take(1).collect();
            }
            if base == "BSSY" {
                ins.target = target_index(&ops, labels, at);
            }
        }
        "WARPSYNC" => {
            if has("EXCLUSIVE") {
                ins.kind = Kind::ExclusiveSync;
                ins.src = ops.first().map(|o| parse_opnd(o)).into_iter().collect();
            } else if has("COLLECTIVE") && !has("ALL") {
                // `WARPSYNC.COLLECTIVE R, END` (ptxas's slow path after a taken `BRA.DIV`): the
                // lanes split by their mask `R` and run the collective group by group up to
                // `ENDCOLLECTIVE` (H200, `calibration/bradiv/`: each group's collective and the
                // `BSYNC` after it run once per group); no branch target
                ins.kind = Kind::ExclusiveSync;
                ins.src = ops.first().map(|o| parse_opnd(o)).into_iter().collect();
            } else if has("COLLECTIVE") {
                ins.kind = Kind::Stop;
            } else {
                ins.kind = Kind::Warpsync;
                if !has("ALL") {
                    ins.src = ops.first().map(|o| parse_opnd(o)).into_iter().collect();
                }
            }
        }
        // `CALL.ABS.NOINC R2` is ptxas's call of an external function (`vprintf`, `malloc`)
        // through its relocated address: the `Call { abs }` below
        // (`CALL.ABS.NOINC R6` through a register, where the functions of the cubin are laid
        // out after the kernel by name: a function pointer of a device-linked table; the
        // kernel's own name, at offset 0, does not make it one)
        "CALL"
            if (!has("ABS")
                || labels
                    .iter()
                    .any(|(l, &off)| off != 0 && !l.starts_with(['.', '$'])))
                && ops.iter().any(|o| {
                    o.split_whitespace()
                        .next()
                        .is_some_and(|t| matches!(parse_reg(t), Some(Src::R(r)) if r != RZ))
                }) =>
        {
            let reg = ops
                .iter()
                .find_map(|o| match o.split_whitespace().next().and_then(parse_reg) {
                    Some(Src::R(r)) if r != RZ => Some(r),
                    _ => None,
                })
                .unwrap_or(RZ);
            ins.kind = Kind::IndirectCall { reg };
            ins.src = vec![Opnd {
                src: Src::R(reg),
                neg: false,
                not: false,
                abs: false,
            }];
        }
        "CALL" => {
            // a `CALL.ABS` whose callee is in the code (a function of another translation unit
            // laid out after the kernel, `sass::with_callees`) is followed as a `CALL.REL`;
            // one into code the driver links in (`vprintf`) is stepped over
            ins.target = target_index(&ops, labels, at);
            ins.kind = Kind::Call {
                abs: has("ABS") && ins.target.is_none(),
            };
        }
        "RET" => {
            // `RET.REL.NODEC R4 `(kernel)`: the return address's register, then the function
            ins.kind = Kind::Ret;
            ins.src = ops
                .first()
                .and_then(|o| o.split_whitespace().next())
                .map(parse_opnd)
                .into_iter()
                .collect();
        }
        "BRX" if mods.is_empty() => {
            let mut words = ops.first().map(|o| o.split_whitespace()).into_iter().flatten();
            let reg = words.next().and_then(parse_reg);
            let imm = match words.next() {
                Some(t) if t.starts_with('(') => Some(0),
                Some(t) => match t.strip_prefix('-') {
                    Some(h) => parse_hex(h).map(|v| -i64::from(v)),
                    None => parse_hex(t).map(i64::from),
                },
                None => Some(0),
            };
            match (reg, imm) {
                (Some(Src::R(reg)), Some(imm)) if reg != RZ => {
                    ins.kind = Kind::Brx { reg, imm };
                    ins.src = vec![Opnd {
                        src: Src::R(reg),
                        neg: false,
                        not: false,
                        abs: false,
                    }];
                }
                _ => ins.kind = Kind::Stop,
            }
        }
        "BMOV" if mods == ["32"] || mods == ["32", "CLEAR"] => {
            let reg = |o: &str| match o.split_whitespace().next().and_then(parse_reg) {
                Some(Src::R(r)) => Some(r),
                _ => None,
            };
            let bar = |o: &str| {
                o.trim()
                    .strip_prefix('B')
                    .and_then(|n| n.parse::<u8>().ok())
                    .filter(|&b| b < 16)
            };
            match ops.as_slice() {
                [a, b] if reg(a).is_some() && bar(b).is_some() => {
                    ins.kind = Kind::Bmov {
                        to_reg: true,
                        clear: has("CLEAR"),
                    };
                    ins.barrier = bar(b).unwrap_or(0);
                    ins.dst = vec![Dst::R(reg(a).unwrap_or(RZ))];
                }
                [a, b] if bar(a).is_some() && reg(b).is_some() && !has("CLEAR") => {
                    ins.kind = Kind::Bmov {
                        to_reg: false,
                        clear: false,
                    };
                    ins.barrier = bar(a).unwrap_or(0);
                    ins.src = vec![Opnd {
                        src: Src::R(reg(b).unwrap_or(RZ)),
                        neg: false,
                        not: false,
                        abs: false,
                    }];
                }
                _ => ins.kind = Kind::Stop,
            }
        }
        // the end of a `WARPSYNC.COLLECTIVE` group's collective: it goes on to the instruction
        // after it (the `BSYNC` that joins the groups)
        "ENDCOLLECTIVE" => ins.kind = Kind::Nop,
        "SYNCS" if has("PHASECHK") => {
            ins.kind = Kind::MbarWait;
            ins.dst = ops.first().map(|o| pred_dst(o)).unwrap_or_default();
        }
        "BRX" | "JMX" | "BRXU" | "JMXU" | "KILL" | "BPT" | "BMOV" | "RTT" | "BSYNCS" => {
            ins.kind = Kind::Stop;
        }
        "LDG" | "LD" | "STG" | "ST" | "ATOMG" | "REDG" | "RED" | "ATOM" => {
            let bytes = access_bytes(&mods);
            ins.addr = ops
                .iter()
                .find(|o| o.contains('['))
                .and_then(|o| global_address(o));
            match base {
                "LDG" | "LD" if ins.addr.is_some() => {
                    ins.kind = Kind::Ldg {
                        bytes,
                        signed: has("S8") || has("S16"),
                        generic: base == "LD",
                    };
                    ins.dst = ops
                        .first()
                        .map(|o| reg_dst(o, bytes.div_ceil(4)))
                        .unwrap_or_default();
                }
                "LDG" | "LD" => poison(&mut ins),
                "STG" | "ST" => {
                    ins.kind = Kind::Stg {
                        bytes,
                        known: base == "STG",
                    };
                    ins.src = ops.last().map(|o| parse_opnd(o)).into_iter().collect();
                }
                _ => {
                    ins.kind = Kind::AtomG { bytes: bytes.max(4) };
                    let mut dst = Vec::new();
                    for o in &ops {
                        if o.contains('[') {
                            break;
                        }
                        dst.extend(pred_dst(o));
                        dst.extend(reg_dst(o, bytes.max(4) / 4));
                    }
                    ins.dst = dst;
                }
            }
        }
        "YIELD" => ins.kind = Kind::Yield,
        "NOP" | "DEPBAR" | "MEMBAR" | "ERRBAR" | "CGAERRBAR" | "CCTL" | "FENCE" | "LDGDEPBAR"
        | "NANOSLEEP" | "STL" | "LDGSTS" | "ARRIVES" | "UBLKCP" | "PREFETCH" | "CCTLL" | "ACQBULK"
        | "UCGABAR_ARV" | "UCGABAR_WAIT" => {
            ins.kind = Kind::Nop;
        }
        "MOV" | "UMOV" | "IMAD" | "UIMAD" if base.ends_with("MOV") || has("MOV") => {
            // IMAD.MOV.U32 d, RZ, RZ, c  /  MOV d, a
            ins.kind = if base.ends_with("MOV") {
                Kind::Mov
            } else {
                Kind::Imad {
                    hi: false,
                    wide: false,
                    signed: false,
                    x: false,
                }
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "IMAD" | "UIMAD" => {
            let wide = has("WIDE");
            ins.kind = Kind::Imad {
                hi: has("HI"),
                wide,
                signed: !has("U32"),
                x: has("X"),
            };
            ins.dst = ops
                .first()
                .map(|o| reg_dst(o, if wide { 2 } else { 1 }))
                .unwrap_or_default();
            // `IMAD.WIDE.U32 d, P0, a, b, c`: the carry out of the 64-bit sum, after `d, d+1`
            // (a discarded `PT` still holds its place)
            let mut from = 1;
            if ops.get(1).is_some_and(|o| parse_pred(o).is_some()) {
                ins.dst = ops
                    .first()
                    .map(|o| reg_dst_placed(o, if wide { 2 } else { 1 }))
                    .unwrap_or_default();
                let carry = pred_dst(&ops[1]);
                if carry.is_empty() {
                    ins.dst.push(Dst::P(PT));
                }
                ins.dst.extend(carry);
                from = 2;
            }
            ins.src = srcs(from);
            ins.preds = preds_of(from);
            if has("X") {
                ins.src.retain(|o| o.src != Src::Unknown);
            }
        }
        "IADD3" | "UIADD3" => {
            ins.kind = Kind::Iadd3 { x: has("X") };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            if ops.get(1).is_some_and(|o| parse_pred(o).is_some()) {
                ins.dst = ops.first().map(|o| reg_dst_placed(o, 1)).unwrap_or_default();
            }
            let mut i = 1;
            while i < ops.len() && parse_pred(&ops[i]).is_some() {
                ins.dst.extend(pred_dst(&ops[i]));
                // carry outputs: dst[1..]; a discarded `PT` still holds its place
                if pred_dst(&ops[i]).is_empty() {
                    ins.dst.push(Dst::P(PT));
                }
                i += 1;
            }
            ins.src = ops[i.min(ops.len())..]
                .iter()
                .take(3)
                .map(|o| parse_opnd(o))
                .collect();
            ins.preds = ops.iter().skip(i + 3).filter_map(|o| parse_pred(o)).collect();
        }
        "VIADD" => {
            ins.kind = Kind::Iadd3 { x: false };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "LOP3" | "ULOP3" => {
            ins.kind = Kind::Lop3;
            // `LOP3.LUT P0, R2, a, b, c, lut, !PT`: a predicate destination (result != 0) first
            // (`ULOP3.LUT UP0, URZ, a, b, c, lut, !UPT` in the uniform datapath)
            if parse_pred(&ops[0]).is_some() {
                if ops.last().is_some_and(|o| o != "!PT" && o != "!UPT") {
                    poison(&mut ins);
                    return ins;
                }
                ins.dst = vec![pred_or_sink(&ops[1]), pred_or_sink(&ops[0])];
                ins.src = ops.iter().skip(2).take(4).map(|o| parse_opnd(o)).collect();
            } else {
                ins.dst = vec![pred_or_sink(&ops[0])];
                ins.src = ops.iter().skip(1).take(4).map(|o| parse_opnd(o)).collect();
            }
        }
        "PLOP3" | "UPLOP3" => {
            ins.kind = Kind::Plop3;
            ins.dst = ops.iter().take(2).map(|o| pred_or_sink(o)).collect();
            ins.preds = ops.iter().take(5).filter_map(|o| parse_pred(o)).collect();
            ins.src = srcs(5);
        }
        "SHF" | "USHF" => {
            ins.kind = Kind::Shf {
                left: has("L"),
                hi: has("HI"),
                signed: has("S32") || has("S64"),
                wide64: has("U64") || has("S64"),
                wrap: has("W"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "LEA" | "ULEA" => {
            ins.kind = Kind::Lea {
                hi: has("HI"),
                x: has("X"),
                sx32: has("SX32"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            let mut i = 1;
            if ops.get(1).and_then(|o| parse_pred(o)).is_some() {
                ins.dst = ops.first().map(|o| reg_dst_placed(o, 1)).unwrap_or_default();
                ins.dst.extend(pred_dst(&ops[1]));
                if pred_dst(&ops[1]).is_empty() {
                    ins.dst.push(Dst::P(PT));
                }
                i = 2;
            }
            ins.src = ops
                .iter()
                .skip(i)
                .filter(|o| parse_pred(o).is_none())
                .map(|o| parse_opnd(o))
                .collect();
            ins.preds = ops.iter().skip(i).filter_map(|o| parse_pred(o)).collect();
        }
        "FMNMX" if mods.iter().all(|m| *m == "FTZ") => {
            ins.kind = Kind::Fmnmx { ftz: has("FTZ") };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = ops.iter().skip(1).take(2).map(|o| parse_opnd(o)).collect();
            ins.preds = preds_of(3);
        }
        "SEL" | "USEL" | "FSEL" => {
            ins.kind = Kind::Sel {
                float: base == "FSEL",
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = ops.iter().skip(1).take(2).map(|o| parse_opnd(o)).collect();
            ins.preds = preds_of(3);
        }
        "IABS" | "POPC" | "UPOPC" | "FLO" | "UFLO" | "BREV" | "UBREV" => {
            ins.kind = match base {
                "IABS" => Kind::Iabs,
                "POPC" | "UPOPC" => Kind::Popc,
                "FLO" | "UFLO" => {
                    if !has("U32") {
                        poison(&mut ins);
                        return ins;
                    }
                    Kind::Flo { sh: has("SH") }
                }
                _ => Kind::Brev,
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            // `UFLO.U32 UR4, UR5`; `FLO.U32 R2, R3`
            ins.src = srcs(1).into_iter().rev().take(1).collect();
        }
        "PRMT" | "UPRMT" if mods.is_empty() => {
            ins.kind = Kind::Prmt;
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "VIMNMX" | "IMNMX" | "UIMNMX" | "VIADDMNMX" | "VIMNMX3" => {
            ins.kind = Kind::Mnmx {
                signed: !has("U32"),
                add: base == "VIADDMNMX",
                three: base == "VIMNMX3",
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = ops
                .iter()
                .skip(1)
                .filter(|o| parse_pred(o).is_none())
                .map(|o| parse_opnd(o))
                .collect();
            ins.preds = preds_of(1);
        }
        "ISETP" | "UISETP" => {
            let Some(cmp) = mods.first().and_then(|m| parse_cmp(m)) else {
                poison(&mut ins);
                return ins;
            };
            ins.kind = Kind::Isetp {
                cmp,
                signed: !has("U32"),
                bop: parse_bop(&mods),
                ex: has("EX"),
            };
            ins.dst = ops.iter().take(2).map(|o| pred_or_sink(o)).collect();
            ins.src = ops.iter().skip(2).take(2).map(|o| parse_opnd(o)).collect();
            ins.preds = preds_of(4);
        }
        "FSETP" => {
            let Some(cmp) = mods.first().and_then(|m| parse_cmp(m)) else {
                poison(&mut ins);
                return ins;
            };
            ins.kind = Kind::Fsetp {
                cmp,
                bop: parse_bop(&mods),
                ftz: has("FTZ"),
            };
            ins.dst = ops.iter().take(2).map(|o| pred_or_sink(o)).collect();
            ins.src = ops.iter().skip(2).take(2).map(|o| parse_opnd(o)).collect();
            ins.preds = preds_of(4);
        }
        "P2R" => {
            ins.kind = Kind::P2r;
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(2);
            if mods.iter().any(|m| m.starts_with('B')) {
                poison(&mut ins);
            }
        }
        "R2P" => {
            ins.kind = if mods.iter().any(|m| m.starts_with('B')) {
                Kind::Stop
            } else {
                Kind::R2p
            };
            ins.src = srcs(1);
            // `R2P PR, R39, 0x3` writes P0 and P1 only: the other predicates keep their values
            // (math_fns of calibration/hopper/triton2: P2, set before such an `R2P` and read
            // after it, decides sinf's slow path). A mask in a register may write any of them.
            ins.dst = match ins.src.get(1).map(|o| o.src) {
                Some(Src::Imm(m)) => (0..7u8).filter(|i| m & (1 << i) != 0).map(Dst::P).collect(),
                _ => (0..7).map(Dst::P).collect(),
            };
        }
        "S2R" | "S2UR" | "CS2R" => {
            ins.kind = if base == "CS2R" { Kind::Cs2r } else { Kind::S2r };
            let n = if base == "CS2R" && !has("32") { 2 } else { 1 };
            ins.dst = ops.first().map(|o| reg_dst(o, n)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "LDC" | "ULDC" => {
            let words = if has("64") { 2 } else { 1 };
            let sub = if has("U8") {
                Some((1, false))
            } else if has("S8") {
                Some((1, true))
            } else if has("U16") {
                Some((2, false))
            } else if has("S16") {
                Some((2, true))
            } else {
                None
            };
            ins.kind = Kind::Ldc { words, sub };
            ins.dst = ops.first().map(|o| reg_dst(o, words)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "R2UR" => {
            // `R2UR P1, URZ, R3`: a predicate out first, set by whether the lane agrees with the
            // value taken (cooperative groups' tiles test their member masks before `BRA.DIV`)
            if mods.is_empty() && ops.len() == 3 && ops.first().is_some_and(|o| parse_pred(o).is_some()) {
                ins.kind = Kind::R2urCheck;
                ins.dst = vec![pred_or_sink(&ops[0])];
                ins.dst.extend(reg_dst(&ops[1], 1));
                ins.src = srcs(2);
                return ins;
            }
            if !mods.is_empty() || ops.first().is_some_and(|o| parse_pred(o).is_some()) {
                poison(&mut ins);
                return ins;
            }
            ins.kind = Kind::Mov;
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "VOTE" | "VOTEU" if has("ANY") || has("ALL") => {
            ins.kind = Kind::Vote { all: has("ALL") };
            if ops.len() == 2 {
                // `VOTEU.ALL UP0, P1` (CuTe's `elect_one` and mbarrier init guards): the
                // predicate result alone, the vote's source second (no ballot register)
                ins.dst = vec![Dst::P(PT), pred_or_sink(&ops[0])];
                ins.preds = preds_of(1);
            } else {
                ins.dst = ops.iter().take(2).map(|o| pred_or_sink(o)).collect();
                ins.preds = preds_of(2);
            }
        }
        "SHFL" => {
            let mode = match mods.first().copied() {
                Some("IDX") => 0,
                Some("UP") => 1,
                Some("DOWN") => 2,
                Some("BFLY") => 3,
                _ => {
                    poison(&mut ins);
                    return ins;
                }
            };
            ins.kind = Kind::Shfl { mode };
            ins.dst = vec![pred_or_sink(&ops[0])];
            ins.dst
                .extend(ops.get(1).map(|o| reg_dst(o, 1)).unwrap_or_default());
            ins.src = srcs(2);
        }
        "REDUX" => {
            let op = match mods.first().copied() {
                Some("SUM") => 0,
                Some("MIN") => 1,
                Some("MAX") => 2,
                Some("OR") => 3,
                Some("XOR") => 4,
                Some("AND") => 5,
                _ => {
                    poison(&mut ins);
                    return ins;
                }
            };
            ins.kind = Kind::Redux {
                op,
                signed: has("S32"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "MATCH" if mods == ["ANY"] => {
            ins.kind = Kind::MatchAny;
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "ELECT" => {
            ins.kind = Kind::Elect;
            ins.dst = ops.first().map(|o| pred_or_sink(o)).into_iter().collect();
            ins.dst
                .extend(ops.get(1).map(|o| reg_dst(o, 1)).unwrap_or_default());
        }
        "I2F" | "I2FP" => {
            let signed = !mods.iter().any(|m| m.starts_with('U'));
            let other = mods.iter().any(|m| {
                matches!(
                    *m,
                    "F64" | "F16" | "S64" | "U64" | "RM" | "S16" | "U16" | "S8" | "U8"
                )
            });
            if other {
                poison(&mut ins);
                return ins;
            }
            ins.kind = Kind::I2f {
                signed,
                up: has("RP"),
                toward_zero: has("RZ"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "MUFU"
            if matches!(
                mods.as_slice(),
                ["EX2"] | ["LG2"] | ["RSQ"] | ["SQRT"] | ["SIN"] | ["COS"] | ["TANH"]
            ) =>
        {
            ins.kind = Kind::Mufu {
                func: match mods[0] {
                    "EX2" => 0,
                    "LG2" => 1,
                    "RSQ" => 2,
                    "SQRT" => 3,
                    "SIN" => 4,
                    "COS" => 5,
                    _ => 6,
                },
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "FCHK" => {
            ins.kind = Kind::Fchk;
            ins.dst = ops.first().map(|o| pred_or_sink(o)).into_iter().collect();
            ins.src = srcs(1);
        }
        "MUFU" if mods == ["RCP64H"] || mods == ["RSQ64H"] => {
            ins.kind = Kind::Rcp64h {
                rsq: mods == ["RSQ64H"],
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            // a register or constant; an immediate is printed as the double whose high word it is
            ins.src = ops
                .get(1)
                .map(|t| {
                    let mut o = parse_opnd(t);
                    if matches!(o.src, Src::FImm(_)) {
                        o.src = match t.trim().parse::<f64>() {
                            Ok(v) if v.to_bits() & 0xffff_ffff == 0 => Src::Imm((v.to_bits() >> 32) as u32),
                            _ => Src::Unknown,
                        };
                    }
                    o
                })
                .into_iter()
                .collect();
        }
        "MUFU" if mods == ["RCP"] => {
            ins.kind = Kind::Rcp { exact: false };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "F2I"
            if mods
                .iter()
                .all(|m| matches!(*m, "NTZ" | "TRUNC" | "FLOOR" | "CEIL" | "FTZ" | "S32" | "U32")) =>
        {
            ins.kind = Kind::F2i {
                signed: !has("U32"),
                round: int_round(&mods),
                ftz: has("FTZ"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "FADD" | "FMUL" | "FFMA"
            if mods.is_empty() || base == "FMUL" && matches!(mods.as_slice(), ["RZ"] | ["RM"] | ["RP"]) =>
        {
            ins.rounded_approx = false;
            ins.kind = match base {
                "FADD" => Kind::Fadd,
                "FMUL" => Kind::Fmul {
                    round: match mods.first().copied() {
                        Some("RZ") => 1,
                        Some("RM") => 2,
                        Some("RP") => 3,
                        _ => 0,
                    },
                },
                _ => Kind::Ffma,
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "FADD" | "FMUL" | "FFMA" if float::Mods::parse(&mods).is_some() => {
            ins.kind = Kind::Fmod {
                op: match base {
                    "FADD" => 0,
                    "FMUL" => 1,
                    _ => 2,
                },
                mods: float::Mods::parse(&mods).unwrap_or_default(),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "FRND"
            if mods
                .iter()
                .all(|m| matches!(*m, "TRUNC" | "FLOOR" | "CEIL" | "FTZ")) =>
        {
            ins.kind = Kind::Frnd {
                round: int_round(&mods),
                ftz: has("FTZ"),
            };
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "FADD" | "FMUL" | "FFMA"
            if mods
                .iter()
                .all(|m| matches!(*m, "FTZ" | "SAT" | "RZ" | "RM" | "RP")) =>
        {
            ins.kind = match base {
                "FADD" => Kind::Fadd,
                "FMUL" => Kind::Fmul { round: 0 },
                _ => Kind::Ffma,
            };
            ins.rounded_approx = true;
            ins.dst = ops.first().map(|o| reg_dst(o, 1)).unwrap_or_default();
            ins.src = srcs(1);
        }
        "HFMA2" if ops.len() >= 5 && ops[1].trim_start_matches('-') == "RZ" && ops[2] == "RZ" => {
            // `HFMA2.MMA R5, -RZ, RZ, 1.875, 0`: a 32-bit constant as two halves
            match (half_bits(&ops[3]), half_bits(&ops[4])) {
                (Some(h), Some(l)) => {
                    ins.kind = Kind::Mov;
                    ins.dst = reg_dst(&ops[0], 1);
                    ins.src = vec![Opnd {
                        src: Src::Imm(u32::from(h) << 16 | u32::from(l)),
                        neg: false,
                        not: false,
                        abs: false,
                    }];
                }
                _ => poison(&mut ins),
            }
        }
        _ => poison(&mut ins),
    }
    ins
}

/// Whether `FCHK P, a, b` sets `P` (the division `a / b` takes ptxas's slow path), from the biased
/// exponents of `a` and `b`: unless `a`'s is in 25..=254, `b`'s in 2..=251 and `b`'s minus `a`'s in
/// -126..=124. Measured on the GPU for every pair of biased exponents with three significands each
/// (calibration/fchk/: the significands never matter; `a == 0` takes the slow path).
pub fn fchk_slow(ea: i32, eb: i32) -> bool {
    !((25..=254).contains(&ea) && (2..=251).contains(&eb) && (-126..=124).contains(&(eb - ea)))
}

/// A shared address: a register (scaled by `.X4`, `.X8`, `.X16`), a uniform register, an offset.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SharedAddr {
    reg: Option<(u8, u8)>,
    ureg: Option<u8>,
    off: i32,
}

/// `[R3]`, `[R13+UR9+0x1]`, `[UR4+0x400]`, `[R0.X4+UR4+0x10]`, `[0x100]`, `[R2+-0x4]`.
fn shared_address(o: &str) -> Option<SharedAddr> {
    let inner = o.rsplit('[').next()?.split(']').next()?;
    let mut a = SharedAddr {
        reg: None,
        ureg: None,
        off: 0,
    };
    for term in inner.split('+').map(str::trim).filter(|t| !t.is_empty()) {
        if let Some(v) = term.strip_prefix('-').and_then(parse_hex) {
            a.off = a.off.wrapping_sub(v as i32);
        } else if let Some(v) = parse_hex(term) {
            a.off = a.off.wrapping_add(v as i32);
        } else {
            let (r, scale) = match term.split_once(".X") {
                Some((r, k)) => (r, k.parse::<u8>().ok()?),
                None => (term, 1),
            };
            match parse_reg(r)? {
                Src::R(RZ) | Src::Ur(URZ) => {}
                Src::R(x) if a.reg.is_none() => a.reg = Some((x, scale)),
                Src::Ur(x) if a.ureg.is_none() && scale == 1 => a.ureg = Some(x),
                _ => return None,
            }
        }
    }
    Some(a)
}

/// `desc[UR4][R2.64+0x10]`, `[R4.64+-0x4]`: the register pair and the offset (other forms: `None`).
fn global_address(o: &str) -> Option<(u8, i64)> {
    let inner = o.rsplit('[').next()?.split(']').next()?;
    let mut reg = None;
    let mut off = 0i64;
    for term in inner.split('+').map(str::trim).filter(|t| !t.is_empty()) {
        if let Some(r) = term.strip_suffix(".64") {
            match parse_reg(r) {
                Some(Src::R(r)) if r != RZ => reg = Some(r),
                _ => return None,
            }
        } else {
            off = off.wrapping_add(i64::from(parse_hex(term)? as i32));
        }
    }
    Some((reg?, off))
}

/// A predicate destination, `PT` (discarded) kept as a place holder.
fn pred_or_sink(t: &str) -> Dst {
    match parse_pred(t) {
        Some(p) if p.uniform => Dst::Up(p.idx),
        Some(p) => Dst::P(p.idx),
        None => match parse_reg(t) {
            Some(Src::R(r)) => Dst::R(r),
            Some(Src::Ur(r)) => Dst::Ur(r),
            _ => Dst::P(PT),
        },
    }
}

/// The binary16 encoding of a decimal immediate that is exact in binary16 (`0`, `1.875`, `-2`).
fn half_bits(t: &str) -> Option<u16> {
    let v: f32 = t.trim().parse().ok()?;
    if v == 0.0 {
        return Some(if v.is_sign_negative() { 0x8000 } else { 0 });
    }
    let sign = if v < 0.0 { 0x8000u16 } else { 0 };
    let a = v.abs();
    if a < 2f32.powi(-14) {
        // subnormal: a multiple of 2^-24 (`1.9073486328125e-06` is 32 of them: ptxas.s way of
        // writing the integer 32)
        let m = a / 2f32.powi(-24);
        return (m.fract() == 0.0 && m < 1024.0).then_some(sign | m as u16);
    }
    let e = a.log2().floor() as i32;
    if !(-14..=15).contains(&e) {
        return None;
    }
    let m = a / 2f32.powi(e) - 1.0;
    let frac = m * 1024.0;
    if frac.fract() != 0.0 {
        return None;
    }
    Some(sign | (((e + 15) as u16) << 10) | frac as u16)
}

/// A global access [`count_global`] counted: (the warp's epoch, its address registers' write
/// counts, its lanes), the lanes counted, their sectors.
type CountedAccess = ((u64, u64, u64, u32), u32, u64);

/// One warp's registers and lanes. Values with their known-lane masks: a lane whose bit is clear
/// holds an unknown value.
struct Warp {
    r: Vec<[u32; 32]>,
    rk: Vec<u32>,
    p: [u32; 8],
    pk: [u32; 8],
    ur: [u32; 64],
    urk: [bool; 64],
    up: [bool; 8],
    upk: [bool; 8],
    pc: [u32; 32],
    alive: u32,
    /// The lanes the launch gave threads.
    launched: u32,
    waiting: u32,
    /// Per convergence barrier, each lane's copy: the lanes that ran its `BSSY` together with
    /// it, less those that left by a `BREAK` since.
    barrier: [[u32; 32]; 16],
    /// Per convergence barrier, the lanes inside a region of it: they ran its `BSSY` and have not
    /// left by its `BSYNC` or a `BREAK` yet.
    open: [u32; 16],
    sync_mask: [u32; 32],
    tid: [[u32; 3]; 32],
    ctaid: [u32; 3],
    /// Lanes whose value derives from memory, per register / predicate (see [`FlowReads`]).
    rt: Vec<u32>,
    ptn: [u32; 8],
    urt: [bool; 64],
    uptn: [bool; 8],
    /// Whether the values being written derive from memory.
    cur_taint: bool,
    /// Lanes whose register holds an approximate float (see [`Kind::Mufu`]).
    ax: Vec<u32>,
    /// Whether the value being written is approximate.
    cur_approx: bool,
    /// Each lane's divisor of the double division in progress (see [`Ins::ddiv_seed`]).
    ddiv_b: [Option<u64>; 32],
    /// The warp's number in the launch.
    id: u32,
    /// The warp stored to an address it does not know: its later loads are unknown.
    unknown_store: bool,
    /// Some barrier was passed by part of the warp's live lanes only.
    bar_apart: bool,
    /// Each lane's local memory ([`local`]).
    local: Vec<local::Bytes>,
    /// Lanes that stored to a local address not known: their local loads are unknown.
    local_blind: u32,
    /// Values that derive from local bytes a lane loaded without having stored them.
    undef: local::Undefined,
    /// The warp's index in its block, and its block's linear id (the shared records' keys).
    in_block: u32,
    block_lin: u32,
    /// Block-wide barriers the warp passed: its shared-memory phase ([`shared`]).
    phase: usize,
    /// Bounds on registers an `ATOMS.ADD` wrote ([`shared::BlockShared::add_bounds`]): the
    /// register, its write count ([`Self::rgen`]) when the bounds were set (they hold while it is
    /// unchanged), and the bounds ([`AddBounds`]: the lanes bounded, each lane's `[lo, hi]`).
    ranges: Vec<(u8, u64, AddBounds)>,
    /// What the warp stored to shared memory in this phase, by byte (window offset of the
    /// emulator's layout): the value (`None`: unknown) and whether it derives from global memory.
    sh_own: rustc_hash::FxHashMap<u32, (Option<u8>, bool)>,
    /// The warp stored to a shared address it does not know in this phase.
    sh_blind: bool,
    /// A shared load took a value from the emulation's record.
    sh_used: bool,
    /// Shared memory is not followed for this warp any more (a store the emulation did not make,
    /// a barrier it does not wait at).
    sh_bad: bool,
    /// The kernel's constant bank 2 (jump tables).
    /// Constant bank 3 (`__constant__` variables) as the launch holds it: (offset, bytes).
    constant3: std::sync::Arc<Vec<(u32, Vec<u8>)>>,
    constant2: std::sync::Arc<Vec<u8>>,
    /// Where the first parameter lies past `c[0x0][0x210]`.
    param_shift: u32,
    /// Constant bank 4's known words: the addresses of global symbols (offset, address).
    constant4: std::sync::Arc<Vec<(u32, u64)>>,
    /// The emulation's function addresses' low words and the code offsets of the same functions
    /// ([`indirect`]).
    funcs: std::sync::Arc<Vec<(u32, u32)>>,
    /// The general registers the kernel's code can name (`R0` up to this, exclusive): the only
    /// rows a warp's reset clears.
    reg_span: usize,
    /// Where the group that just ran went, when all its lanes went to one place.
    together: Option<usize>,
    /// Groups of lanes an exclusive warp sync holds back, in the order they run.
    deferred: Vec<u32>,
    /// Each lane's cohort: lanes that a divergent branch or call split run apart, even where
    /// they reach the same instruction, until a convergence barrier or warp sync joins them
    /// (the H100 ran the 0x440.. block of the float-division slow path once per side of the
    /// `@!P0 BRA` before it: calibration/fchk/, fdiv.sass.csv).
    cohort: [u32; 32],
    next_cohort: u32,
    /// The lanes [`join::note`] last found joinable (one count per standing of them).
    join_seen: u32,
    /// Each lane's last divergent branch that sent it away from lanes that stayed (its index + 1;
    /// 0: none): [`join::behind_in_block`].
    sent_by: [u32; 32],
    /// Lanes a divergent branch parted since their last counted branch, and each lane's first
    /// counted branch after its last parting (its index + 1; 0: none): [`join::exit_merge`].
    parted: u32,
    first_counted: [u32; 32],
    /// Each cohort's parent: the cohort of the lanes it parted from (`u32::MAX`: none).
    parent: Vec<u32>,
    /// Lanes that ran a `YIELD` since a convergence barrier or warp sync last joined them: they
    /// left every convergence barrier then ([`Kind::Yield`]), and pass a `BSYNC` without waiting
    /// (calibration/yield/README.md).
    yielded: u32,
    /// `YIELD`s the warp ran ([`YIELD_CAP`]).
    yields: u64,
    /// The last `YIELD` run: its index, its group and a hash of the group's registers then. The
    /// same again means the loop repeats itself unchanged: a wait for another thread's store.
    last_yield: (usize, u32, u64),
    /// How often each register was written ([`Self::set`], [`Self::forget`]): an unchanged count
    /// means an unchanged value.
    rgen: Vec<u64>,
    /// The warp's number among the warps this state ran, from 1 ([`Self::reset`]).
    epoch: u64,
    /// Per instruction, the last global access counted ([`count_global`]): the warp, its address
    /// registers' write counts and its lanes, then the lanes counted and their sectors.
    acache: Vec<CountedAccess>,
    /// The last whole iteration of a counted loop the warp ran ([`loops`]).
    last_iteration: loops::LastIteration,
}

impl Warp {
    /// Lanes `part` of `group` go their own way: a cohort of their own.
    fn split(&mut self, group: u32, part: u32) {
        if part != 0 && part != group {
            let c = self.next_cohort;
            self.next_cohort += 1;
            let from = lanes(group & !part).next().map_or(u32::MAX, |l| self.cohort[l]);
            join::parted(self, c, from);
            for l in lanes(part) {
                self.cohort[l] = c;
            }
        }
    }

    /// A hash of the registers and predicates of lanes `m` (what they hold and which are known).
    fn lane_state(&self, m: u32) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        for l in lanes(m) {
            for r in 0..self.reg_span.min(self.r.len()) {
                self.r[r][l].hash(&mut h);
                (self.rk[r] >> l & 1).hash(&mut h);
            }
        }
        (self.p, self.pk, self.ur, self.urk, self.up, self.upk).hash(&mut h);
        h.finish()
    }

    /// Lanes `m` run together from here on.
    /// The lanes convergence barrier `b` waits for, as the lanes of `m` know them.
    fn barrier_of(&self, b: u8, m: u32) -> u32 {
        lanes(m).fold(0, |need, l| need | self.barrier[b as usize][l])
    }

    fn join(&mut self, m: u32) {
        self.yielded &= !m;
        if let Some(c) = lanes(m).map(|l| self.cohort[l]).min() {
            for l in lanes(m) {
                self.cohort[l] = c;
            }
        }
    }

    fn new() -> Warp {
        Warp {
            r: vec![[0; 32]; 256],
            rk: vec![0; 256],
            p: [0; 8],
            pk: [0; 8],
            ur: [0; 64],
            urk: [false; 64],
            up: [false; 8],
            upk: [false; 8],
            pc: [0; 32],
            alive: 0,
            launched: 0,
            waiting: 0,
            barrier: [[0; 32]; 16],
            open: [0; 16],
            sync_mask: [0; 32],
            tid: [[0; 3]; 32],
            ctaid: [0; 3],
            rt: vec![0; 256],
            ptn: [0; 8],
            urt: [false; 64],
            uptn: [false; 8],
            cur_taint: false,
            ax: vec![0; 256],
            cur_approx: false,
            ddiv_b: [None; 32],
            id: 0,
            unknown_store: false,
            bar_apart: false,
            together: None,
            deferred: Vec::new(),
            cohort: [0; 32],
            next_cohort: 1,
            join_seen: 0,
            sent_by: [0; 32],
            parted: 0,
            first_counted: [0; 32],
            yielded: 0,
            yields: 0,
            last_yield: (usize::MAX, 0, 0),
            parent: Vec::new(),
            rgen: vec![0; 256],
            epoch: 0,
            acache: Vec::new(),
            last_iteration: None,
            local: vec![local::Bytes::default(); 32],
            local_blind: 0,
            undef: local::Undefined::new(256),
            in_block: 0,
            block_lin: 0,
            phase: 0,
            ranges: Vec::new(),
            sh_own: rustc_hash::FxHashMap::default(),
            sh_blind: false,
            sh_used: false,
            sh_bad: false,
            constant2: std::sync::Arc::default(),
            param_shift: 0,
            constant3: std::sync::Arc::default(),
            constant4: std::sync::Arc::default(),
            funcs: std::sync::Arc::default(),
            reg_span: 256,
        }
    }

    fn reset(&mut self, launch: &FlowLaunch, ctaid: [u32; 3], warp: usize) {
        self.epoch += 1;
        // A register the launch has not written holds what the GPU left there; ptxas reads one
        // only for bits no result depends on (`PRMT R13, R12, 0x7610, R13` merges a flag's low
        // bytes into a register whose high bytes nothing reads; `LOP3.LUT P0, RZ, R13, 0xff`
        // tests the flag). Known as zero, so those bits do not make the known ones unknown.
        let span = self.reg_span;
        self.rk[..span].iter_mut().for_each(|k| *k = u32::MAX);
        self.r[..span].iter_mut().for_each(|v| *v = [0; 32]);
        self.pk = [0; 8];
        self.p = [0; 8];
        self.pk[PT as usize] = u32::MAX;
        self.p[PT as usize] = u32::MAX;
        self.urk = [false; 64];
        self.ur = [0; 64];
        self.urk[URZ as usize] = true;
        self.upk = [false; 8];
        self.up = [false; 8];
        self.upk[PT as usize] = true;
        self.up[PT as usize] = true;
        self.pc = [0; 32];
        self.rt[..span].iter_mut().for_each(|t| *t = 0);
        self.ptn = [0; 8];
        self.urt = [false; 64];
        self.uptn = [false; 8];
        self.cur_taint = false;
        self.ax[..span].iter_mut().for_each(|a| *a = 0);
        self.cur_approx = false;
        self.ddiv_b = [None; 32];
        self.unknown_store = false;
        self.bar_apart = false;
        self.local.iter_mut().for_each(|m| m.clear());
        self.local_blind = 0;
        self.undef.reset(span);
        self.in_block = warp as u32;
        self.block_lin = ctaid[0] + launch.grid[0] * (ctaid[1] + launch.grid[1] * ctaid[2]);
        self.phase = 0;
        self.ranges.clear();
        self.sh_own.clear();
        self.sh_blind = false;
        self.sh_used = false;
        self.sh_bad = false;
        self.waiting = 0;
        self.deferred.clear();
        self.cohort = [0; 32];
        self.next_cohort = 1;
        self.join_seen = 0;
        self.sent_by = [0; 32];
        self.parted = 0;
        self.first_counted = [0; 32];
        self.yielded = 0;
        self.yields = 0;
        self.last_yield = (usize::MAX, 0, 0);
        self.parent.clear();
        self.barrier = [[0; 32]; 16];
        self.open = [0; 16];
        self.ctaid = ctaid;
        let [bx, by, bz] = launch.block;
        let n = (bx * by * bz) as usize;
        self.alive = 0;
        for l in 0..32 {
            let t = warp * 32 + l;
            if t < n {
                self.alive |= 1 << l;
                let t = t as u32;
                self.tid[l] = [t % bx, (t / bx) % by, t / (bx * by)];
            }
        }
        self.launched = self.alive;
    }

    /// The lanes whose inputs to `ins` derive from memory (guard, operands, predicates, the high half of a 64-bit addend).
    fn taint_mask(&self, ins: &Ins) -> u32 {
        let p = |q: &Pred| {
            if q.uniform {
                if self.uptn[q.idx as usize] { u32::MAX } else { 0 }
            } else {
                self.ptn[q.idx as usize]
            }
        };
        let r = |o: &Opnd| match o.src {
            Src::R(r) => self.rt[r as usize],
            Src::Ur(r) if self.urt[r as usize] => u32::MAX,
            Src::Const { reg: Some(r), .. } => self.rt[r as usize],
            Src::Const { ureg: Some(r), .. } if self.urt[r as usize] => u32::MAX,
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
                Some(Src::R(x)) if x != RZ => self.rt[x as usize + 1],
                Some(Src::Ur(x)) if x != URZ && self.urt[x as usize + 1] => u32::MAX,
                _ => 0,
            };
        }
        m
    }

    /// Whether a control instruction's decision for `group` derives from memory.
    fn decision_tainted(&self, ins: &Ins, group: u32) -> bool {
        self.taint_mask(ins) & group != 0
    }

    /// Every lane's 64-bit global address, and the lanes whose address is known (`None`: the
    /// instruction has no global address).
    fn addresses(&self, ins: &Ins) -> Option<([u64; 32], u32)> {
        let (r, off) = ins.addr?;
        let r = r as usize;
        let k = self.rk[r] & self.rk[r + 1] & !self.ax[r] & !self.ax[r + 1];
        let (lo, hi) = (&self.r[r], &self.r[r + 1]);
        let a = std::array::from_fn(|l| (u64::from(hi[l]) << 32 | u64::from(lo[l])).wrapping_add(off as u64));
        Some((a, k))
    }

    /// A lane's 64-bit global address, when known.
    fn address(&self, ins: &Ins, l: usize) -> Option<u64> {
        let (r, off) = ins.addr?;
        let (r, k) = (
            r as usize,
            self.rk[r as usize] & self.rk[r as usize + 1] & !self.ax[r as usize] & !self.ax[r as usize + 1],
        );
        (k >> l & 1 != 0)
            .then(|| (u64::from(self.r[r + 1][l]) << 32 | u64::from(self.r[r][l])).wrapping_add(off as u64))
    }

    /// Lane `l` stores `bytes` bytes from the registers from `first` (`None`: not a register,
    /// the value unknown) at local address `a`; `sure`: the lane does store (else it may, and
    /// the bytes become unknown).
    fn local_store(&mut self, l: usize, a: u32, first: Option<u8>, bytes: u8, sure: bool) {
        for i in 0..u32::from(bytes) {
            let reg = first.map(|r| r as usize + i as usize / 4);
            let (v, t) = match reg {
                Some(r) if r == RZ as usize => (Some(0), false),
                Some(r) if r < RZ as usize => {
                    let known = self.rk[r] >> l & 1 != 0 && self.ax[r] >> l & 1 == 0;
                    if !known && self.undef.reg(r, l) {
                        // a value not defined stored: the bytes hold no defined value either
                        self.local[l].remove(&a.wrapping_add(i));
                        continue;
                    }
                    (
                        known.then(|| (self.r[r][l] >> (8 * (i % 4))) as u8),
                        self.rt[r] >> l & 1 != 0,
                    )
                }
                _ => (None, false),
            };
            let v = if sure { v } else { None };
            self.local[l].insert(a.wrapping_add(i), (v, t));
        }
    }

    /// `LDL`/`STL` for the lanes `on`; lanes in `unsure` (guard unknown) may store: the bytes
    /// they may store become unknown.
    fn local_memory(&mut self, ins: &Ins, on: u32, unsure: u32, launch: &FlowLaunch) {
        let addr = |w: &Warp, l: usize| -> Option<u32> {
            let (s, off) = ins.laddr?;
            Some(w.raw(s, l, launch)?.wrapping_add(off as u32))
        };
        self.cur_approx = false;
        match ins.kind {
            Kind::Stl { bytes } => {
                let first = match ins.src.first().map(|o| o.src) {
                    Some(Src::R(r)) => Some(r),
                    _ => None,
                };
                for l in lanes(on | unsure) {
                    let Some(a) = addr(self, l) else {
                        self.local_blind |= 1 << l;
                        continue;
                    };
                    self.local_store(l, a, first, bytes, on >> l & 1 != 0);
                }
            }
            Kind::Ldl { bytes, signed } => {
                for l in lanes(on) {
                    let got = match addr(self, l) {
                        Some(a) if self.local_blind >> l & 1 == 0 => {
                            if local::never_stored(&self.local[l], a, u32::from(bytes)) {
                                self.undef.note(ins);
                            }
                            local::load(&self.local[l], a, u32::from(bytes))
                        }
                        _ => None,
                    };
                    let Some((buf, taint)) = got else {
                        self.write_loaded(ins, l, None, bytes, signed, false);
                        continue;
                    };
                    self.write_loaded(ins, l, Some(buf), bytes, signed, taint);
                }
            }
            _ => {}
        }
    }

    /// `LDS`/`STS`/`ATOMS` for the lanes `on` ([`shared`]); lanes in `unsure` (guard unknown) may
    /// store: the bytes they may store become unknown.
    /// Lane `l`'s address of a shared access, an offset in the emulator's window.
    fn shared_addr(&self, ins: &Ins, l: usize, launch: &FlowLaunch) -> Option<u32> {
        let a = ins.saddr?;
        let mut v = a.off as u32;
        if let Some((r, k)) = a.reg {
            v = v.wrapping_add(self.raw(Src::R(r), l, launch)?.wrapping_mul(u32::from(k)));
        }
        if let Some(u) = a.ureg {
            v = v.wrapping_add(self.raw(Src::Ur(u), l, launch)?);
        }
        // the block's own window (the rank's bits above), less the reserved kilobyte
        (v & 0x00ff_ffff).checked_sub(SASS_SHARED_BASE)
    }

    /// The old value an `ATOMS.ADD d, [a], x` returns to the lanes `on` is the word's value when
    /// the barrier phase began plus the addends of the block's other adds to it in the phase that
    /// the GPU ran first, an order not known. Where every write of the word in the phase is such
    /// an add ([`shared::BlockShared::add_bounds`], from the emulation) and their sum does not
    /// wrap, each lane's old value lies in `[start, start + sum - x]`: the register is bounded
    /// (a compare true or false over the whole range is known, [`Self::bounded`]), or known where
    /// the range is one value.
    fn atomic_add_bounds(&self, ins: &Ins, on: u32, launch: &FlowLaunch) -> Option<AddBounds> {
        let Some(Dst::R(d)) = ins.dst.first().copied() else {
            return None;
        };
        if d == RZ || self.sh_bad || self.sh_blind {
            return None;
        }
        let record = launch.shared.and_then(|m| m.get(&self.block_lin))?;
        let mut bounds = [(0u32, 0u32); 32];
        let mut known = 0u32;
        for l in lanes(on) {
            let (Some(a), Some(x)) = (
                self.shared_addr(ins, l, launch),
                ins.src.first().and_then(|o| self.read(*o, l, launch)),
            ) else {
                continue;
            };
            if a % 4 != 0 {
                continue;
            }
            let Some((start, sum)) = record.add_bounds(self.phase, a / 4) else {
                continue;
            };
            let hi = u64::from(start) + sum;
            if sum < u64::from(x) || hi > u64::from(u32::MAX) {
                continue;
            }
            bounds[l] = (start, (hi - u64::from(x)) as u32);
            known |= 1 << l;
        }
        (known != 0).then_some((d, known, bounds))
    }

    /// Writes [`Self::atomic_add_bounds`]' bounds (taken before the atomic overwrote its
    /// address or addend) once the atomic's result is written.
    fn bound_atomic_add(&mut self, (d, known, bounds): AddBounds) {
        let exact: u32 = lanes(known)
            .filter(|&l| bounds[l].0 == bounds[l].1)
            .fold(0, |m, l| m | 1 << l);
        // (the sum is the block's: its addends may derive from global memory)
        self.cur_taint = true;
        self.cur_approx = false;
        for l in lanes(exact) {
            self.set(Dst::R(d), l, Some(bounds[l].0));
        }
        let ranged = known & !exact;
        if ranged != 0 {
            self.ranges.retain(|e| e.0 != d);
            self.ranges.push((d, self.rgen[d as usize], (d, ranged, bounds)));
        }
    }

    /// Lane `l`'s bounds on operand `o` where its value is not known but an `ATOMS.ADD` bounded
    /// it ([`Self::bound_atomic_add`]) and nothing wrote the register since.
    fn bounded(&self, o: &Opnd, l: usize) -> Option<(u32, u32)> {
        let Src::R(r) = o.src else {
            return None;
        };
        if o.neg || o.not || o.abs || r == RZ {
            return None;
        }
        self.ranges
            .iter()
            .find(|e| e.0 == r && e.1 == self.rgen[r as usize] && e.2.1 >> l & 1 != 0)
            .map(|e| e.2.2[l])
    }

    fn shared_memory(&mut self, ins: &Ins, on: u32, unsure: u32, launch: &FlowLaunch) {
        let addr = |w: &Warp, l: usize| -> Option<u32> { w.shared_addr(ins, l, launch) };
        self.cur_approx = false;
        let record = launch.shared.and_then(|m| m.get(&self.block_lin));
        match ins.kind {
            Kind::Sts { bytes } | Kind::AtomS { bytes } => {
                let atomic = matches!(ins.kind, Kind::AtomS { .. });
                let first = match ins.src.first().map(|o| o.src) {
                    Some(Src::R(r)) if !atomic => Some(r),
                    _ => None,
                };
                for l in lanes(on | unsure) {
                    let Some(a) = addr(self, l) else {
                        self.sh_blind = true;
                        continue;
                    };
                    let mut words: Vec<(u32, u8, u32)> = Vec::new();
                    for i in 0..u32::from(bytes) {
                        let (v, t) = match first.map(|r| r as usize + i as usize / 4) {
                            Some(r) if r == RZ as usize => (Some(0), false),
                            Some(r) if r < RZ as usize => {
                                let known = self.rk[r] >> l & 1 != 0 && self.ax[r] >> l & 1 == 0;
                                (
                                    known.then(|| (self.r[r][l] >> (8 * (i % 4))) as u8),
                                    self.rt[r] >> l & 1 != 0,
                                )
                            }
                            _ => (None, false),
                        };
                        let v = if on >> l & 1 != 0 { v } else { None };
                        let b = a.wrapping_add(i);
                        self.sh_own.insert(b, (v, t));
                        if let Some(v) = v {
                            let k = b % 4;
                            match words.iter_mut().find(|w| w.0 == b / 4) {
                                Some(w) => {
                                    w.1 |= 1 << k;
                                    w.2 |= u32::from(v) << (8 * k);
                                }
                                None => words.push((b / 4, 1 << k, u32::from(v) << (8 * k))),
                            }
                        }
                    }
                    // the emulation's warp made the same store in this phase (else the layouts or
                    // the paths differ: the record is not this warp's)
                    if on >> l & 1 != 0
                        && !words.iter().all(|&(word, known, value)| {
                            record
                                .is_some_and(|r| r.check_store(self.in_block, self.phase, word, known, value))
                        })
                    {
                        self.sh_bad = true;
                    }
                }
            }
            Kind::Lds { bytes, signed } => {
                for l in lanes(on) {
                    let mut buf = [0u8; 16];
                    let mut taint = false;
                    let mut ok = !self.sh_bad && record.is_some();
                    if let (true, Some(a), Some(r)) = (ok, addr(self, l), record) {
                        // the record's bytes of the word last asked for (`BlockShared::read_word`)
                        let mut word: Option<(u32, [Option<u8>; 4])> = None;
                        for i in 0..u32::from(bytes) {
                            let b = a.wrapping_add(i);
                            let v = match self.sh_own.get(&b) {
                                // the warp's own copy may have overwritten its store
                                Some(_) if r.copied(self.in_block, self.phase, b / 4) >> (b % 4) & 1 != 0 => {
                                    None
                                }
                                Some(&(v, t)) => {
                                    taint |= t;
                                    v
                                }
                                None if self.sh_blind => None,
                                None => {
                                    let got = match word {
                                        Some((wd, got)) if wd == b / 4 => got,
                                        _ => {
                                            let got = r.read_word(self.in_block, self.phase, b / 4);
                                            word = Some((b / 4, got));
                                            got
                                        }
                                    };
                                    let v = got[(b % 4) as usize];
                                    self.sh_used |= v.is_some();
                                    v
                                }
                            };
                            match v {
                                Some(v) => buf[i as usize] = v,
                                None => {
                                    ok = false;
                                    break;
                                }
                            }
                        }
                    } else {
                        ok = false;
                    }
                    if !ok {
                        self.write_loaded(ins, l, None, bytes, signed, false);
                        continue;
                    }
                    self.write_loaded(ins, l, Some(buf), bytes, signed, taint);
                }
            }
            _ => {}
        }
    }

    /// `LDG`, `STG`, `ST` and global atomics for the lanes `on`.
    /// A texture read ([`Kind::Tex`]) by the lanes `on`: each samples its object at its
    /// coordinates as the emulation does (`warpscope_emu::tex::Texture::fetch`), the texels read
    /// through `mem` as a global load's bytes (checked after the launch like them); a lane whose
    /// coordinates, handle or texels are not known, or after a store whose address was not,
    /// gets unknown channels.
    #[allow(clippy::too_many_arguments)]
    fn texture(
        &mut self,
        ins: &Ins,
        on: u32,
        dims: u8,
        ints: bool,
        mask: u8,
        launch: &FlowLaunch,
        mem: &mut Mem,
    ) {
        struct Texels<'m, 'g> {
            mem: std::cell::RefCell<&'m mut Mem<'g>>,
            warp: u32,
            phase: u32,
        }
        impl warpscope_emu::tex::Texels for Texels<'_, '_> {
            fn read(&self, addr: u64, bytes: u64) -> Option<u64> {
                let mut mem = self.mem.borrow_mut();
                let mut v = 0u64;
                for i in 0..bytes {
                    let x = addr.wrapping_add(i);
                    let (w, k) = mem.word(self.warp, x & !3, self.phase);
                    let j = (x & 3) as u32;
                    if k >> j & 1 == 0 {
                        return None;
                    }
                    v |= u64::from(w >> (8 * j) & 0xff) << (8 * i);
                }
                Some(v)
            }
        }
        let dims = usize::from(dims);
        for l in lanes(on) {
            let known = |w: &Warp, o: &Opnd| match o.src {
                Src::R(r) => w.ax[r as usize] >> l & 1 == 0,
                _ => true,
            };
            let vals: Option<Vec<u32>> = ins
                .src
                .iter()
                .map(|o| self.raw(o.src, l, launch).filter(|_| known(self, o)))
                .collect();
            let texel = match (vals, launch.global) {
                (Some(v), Some(g)) if !self.unknown_store => g.texture(u64::from(v[dims])).and_then(|t| {
                    let mut co = [0f32; 3];
                    for k in 0..dims {
                        co[k] = if ints {
                            v[k] as i32 as f32
                        } else {
                            f32::from_bits(v[k])
                        };
                    }
                    // a 1-D fetch is a 2-D one at y = 0 in the machine code (`tex1D`): sampled
                    // as the emulation samples the PTX's 1-D fetch
                    let dims = if dims == 2 && t.size[1] == 1 && t.size[2] == 1 && v[1] == 0 {
                        1
                    } else {
                        dims
                    };
                    let texels = Texels {
                        mem: std::cell::RefCell::new(&mut *mem),
                        warp: self.id,
                        phase: self.phase as u32,
                    };
                    t.fetch(&texels, dims, co)
                }),
                _ => None,
            };
            let buf = texel.map(|v| {
                let mut buf = [0u8; 16];
                for (k, c) in (0..4).filter(|c| mask >> c & 1 != 0).enumerate() {
                    buf[4 * k..4 * k + 4].copy_from_slice(&v[c].to_le_bytes());
                }
                buf
            });
            // a texel derives from memory
            self.write_loaded(ins, l, buf, 16, false, true);
        }
    }

    fn memory(&mut self, ins: &Ins, on: u32, mem: &mut Mem) {
        match ins.kind {
            Kind::Ldg {
                bytes,
                signed,
                generic,
            } => {
                for l in lanes(on) {
                    if generic && let Some(la) = self.address(ins, l).and_then(local::of_generic) {
                        // a generic load from the lane's own local memory
                        if self.local_blind >> l & 1 == 0
                            && local::never_stored(&self.local[l], la, u32::from(bytes))
                        {
                            self.undef.note(ins);
                        }
                        let got = (self.local_blind >> l & 1 == 0)
                            .then(|| local::load(&self.local[l], la, u32::from(bytes)))
                            .flatten();
                        match got {
                            Some((buf, taint)) => self.write_loaded(ins, l, Some(buf), bytes, signed, taint),
                            None => self.write_loaded(ins, l, None, bytes, signed, false),
                        }
                        continue;
                    }
                    let addr = if self.unknown_store {
                        None
                    } else {
                        self.address(ins, l)
                    };
                    let mut buf = [0u8; 16];
                    let mut ok = addr.is_some();
                    if let Some(a) = addr {
                        let mut cur: Option<(u64, u32, u8)> = None;
                        for (i, b) in buf.iter_mut().enumerate().take(bytes as usize) {
                            let x = a.wrapping_add(i as u64);
                            let wa = x & !3;
                            let (v, k) = match cur {
                                Some((w, v, k)) if w == wa => (v, k),
                                _ => {
                                    let (v, k) = mem.word(self.id, wa, self.phase as u32);
                                    cur = Some((wa, v, k));
                                    (v, k)
                                }
                            };
                            let j = (x & 3) as u32;
                            if k >> j & 1 == 0 {
                                ok = false;
                            }
                            *b = (v >> (8 * j)) as u8;
                        }
                    }
                    // a loaded value derives from memory
                    self.write_loaded(ins, l, ok.then_some(buf), bytes, signed, true);
                }
            }
            Kind::Stg { bytes, known } => {
                for l in lanes(on) {
                    let Some(a) = self.address(ins, l) else {
                        self.unknown_store = true;
                        if !known {
                            // a generic store may land in the lane's local memory
                            self.local_blind |= 1 << l;
                        }
                        continue;
                    };
                    let first = match ins.src.first().map(|o| o.src) {
                        Some(Src::R(r)) => Some(r),
                        _ => None,
                    };
                    if !known && let Some(la) = local::of_generic(a) {
                        // a generic store to the lane's own local memory: as an `STL`
                        self.local_store(l, la, first, bytes, true);
                        continue;
                    }
                    if a & 3 == 0 && (bytes as usize).is_multiple_of(4) {
                        // whole aligned words: one entry each (the same as their four bytes)
                        for j in 0..bytes as usize / 4 {
                            let v = match first {
                                Some(RZ) if known => Some(0),
                                Some(r) if known && r as usize + j < RZ as usize => {
                                    let r = r as usize + j;
                                    (self.rk[r] >> l & 1 != 0).then(|| self.r[r][l])
                                }
                                _ => None,
                            };
                            mem.store_word(self.id, a.wrapping_add(4 * j as u64), v, self.phase as u32);
                        }
                        continue;
                    }
                    for i in 0..bytes as usize {
                        let v = match first {
                            Some(RZ) if known => Some(0),
                            Some(r) if known && r as usize + i / 4 < RZ as usize => {
                                let r = r as usize + i / 4;
                                (self.rk[r] >> l & 1 != 0).then(|| (self.r[r][l] >> (8 * (i % 4))) as u8)
                            }
                            _ => None,
                        };
                        mem.store(self.id, a.wrapping_add(i as u64), v, self.phase as u32);
                    }
                }
            }
            Kind::AtomG { bytes } => {
                // a generic `ATOM P, ...` (a device function's atomic on a pointer of unknown
                // space): `P` holds where the address is global memory and the atomic was done
                // there; otherwise the code after it asks `QSPC` for shared memory (H200,
                // calibration/run/bench13 rdc `warpAccumulate`: `@P0 BRA` past that path taken by
                // every warp on a global pointer)
                let generic = ins.text.starts_with("ATOM.");
                for l in lanes(on) {
                    let addr = self.address(ins, l);
                    match addr {
                        Some(a) => {
                            for i in 0..u64::from(bytes) {
                                mem.store(self.id, a.wrapping_add(i), None, self.phase as u32);
                            }
                        }
                        None => self.unknown_store = true,
                    }
                    for d in &ins.dst {
                        let v = match (d, addr) {
                            (Dst::P(_), Some(a)) if generic => {
                                use warpscope_emu::mem::{CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW, WINDOW};
                                let window = |base: u64| (base..base + WINDOW).contains(&a);
                                Some(u32::from(
                                    !(window(SHARED_WINDOW) || window(LOCAL_WINDOW) || window(CONST_WINDOW)),
                                ))
                            }
                            _ => None,
                        };
                        self.set(*d, l, v);
                    }
                }
            }
            _ => {}
        }
    }

    /// A load's tail for lane `l`: the `bytes` loaded (`buf`, `None` where not known), extended to
    /// a word (with the sign when `signed`) below 4 bytes, written to the destination registers,
    /// each word from memory (`taint`: derived from memory for [`Self::decision_tainted`]).
    fn write_loaded(
        &mut self,
        ins: &Ins,
        l: usize,
        buf: Option<[u8; 16]>,
        bytes: u8,
        signed: bool,
        taint: bool,
    ) {
        self.cur_taint = taint;
        // a load from an address that derives from a never-stored read
        self.undef.cur |= self.undef.mask(ins) >> l & 1 != 0;
        let Some(mut buf) = buf else {
            for d in &ins.dst {
                self.set(*d, l, None);
            }
            self.cur_taint = false;
            self.undef.cur = false;
            return;
        };
        if bytes < 4 {
            let fill = if signed && buf[bytes as usize - 1] & 0x80 != 0 {
                0xff
            } else {
                0
            };
            for b in buf.iter_mut().take(4).skip(bytes as usize) {
                *b = fill;
            }
        }
        for (k, d) in ins.dst.iter().enumerate() {
            let v = u32::from_le_bytes([buf[4 * k], buf[4 * k + 1], buf[4 * k + 2], buf[4 * k + 3]]);
            self.set(*d, l, Some(v));
        }
        self.cur_taint = false;
        self.undef.cur = false;
    }

    /// The lanes of `on` where a `BRA`/`BREAK`'s predicate operand (`BRA !P0, target`) holds, all
    /// of `on` without one; `None` when it is unknown in one of them.
    fn condition(&self, ins: &Ins, group: u32, on: u32) -> Option<u32> {
        match ins.preds.first() {
            Some(c) => {
                let (t, u) = self.pred_mask(*c, group);
                (u & on == 0).then_some(on & t)
            }
            None => Some(on),
        }
    }

    /// Lanes of `group` where `p` holds, and lanes where it is unknown.
    fn pred_mask(&self, p: Pred, group: u32) -> (u32, u32) {
        let (v, k) = if p.uniform {
            let i = p.idx as usize;
            (
                if self.up[i] { u32::MAX } else { 0 },
                if self.upk[i] { u32::MAX } else { 0 },
            )
        } else {
            (self.p[p.idx as usize], self.pk[p.idx as usize])
        };
        let v = if p.neg { !v } else { v };
        (v & k & group, !k & group)
    }

    fn pred(&self, p: Pred, lane: usize) -> Option<bool> {
        let (on, unknown) = self.pred_mask(p, 1 << lane);
        if unknown != 0 { None } else { Some(on != 0) }
    }

    fn forget(&mut self, d: Dst, lanes_: u32) {
        if lanes_ == 0 {
            return;
        }
        match d {
            Dst::R(r) if r != RZ => {
                self.rk[r as usize] &= !lanes_;
                self.rgen[r as usize] = self.rgen[r as usize].wrapping_add(1);
            }
            Dst::P(p) if p != PT => self.pk[p as usize] &= !lanes_,
            Dst::Ur(r) if r != URZ => self.urk[r as usize] = false,
            Dst::Up(p) if p != PT => self.upk[p as usize] = false,
            _ => {}
        }
    }

    fn set(&mut self, d: Dst, lane: usize, v: Option<u32>) {
        self.undef.set(d, 1 << lane);
        match d {
            Dst::R(r) if r != RZ => {
                let r = r as usize;
                self.rgen[r] = self.rgen[r].wrapping_add(1);
                match v {
                    Some(v) => {
                        self.r[r][lane] = v;
                        self.rk[r] |= 1 << lane;
                    }
                    None => self.rk[r] &= !(1 << lane),
                }
                if self.cur_taint {
                    self.rt[r] |= 1 << lane;
                } else {
                    self.rt[r] &= !(1 << lane);
                }
                if self.cur_approx && v.is_some() {
                    self.ax[r] |= 1 << lane;
                } else {
                    self.ax[r] &= !(1 << lane);
                }
            }
            Dst::Ur(r) if r != URZ => {
                self.urk[r as usize] = v.is_some();
                self.ur[r as usize] = v.unwrap_or(0);
                self.urt[r as usize] = self.cur_taint;
            }
            Dst::P(p) if p != PT => {
                let p = p as usize;
                match v {
                    Some(v) => {
                        if v != 0 {
                            self.p[p] |= 1 << lane;
                        } else {
                            self.p[p] &= !(1 << lane);
                        }
                        self.pk[p] |= 1 << lane;
                    }
                    None => self.pk[p] &= !(1 << lane),
                }
                if self.cur_taint {
                    self.ptn[p] |= 1 << lane;
                } else {
                    self.ptn[p] &= !(1 << lane);
                }
            }
            Dst::Up(p) if p != PT => {
                self.upk[p as usize] = v.is_some();
                self.up[p as usize] = v.is_some_and(|v| v != 0);
                self.uptn[p as usize] = self.cur_taint;
            }
            _ => {}
        }
    }

    /// A per-lane instruction's first and second results for the lanes `m` (values, known
    /// lanes) written to its destinations as [`Self::exec`]'s lane-by-lane loop writes them: the
    /// first result to the first destination, carry-outs and wide halves to the others.
    fn write_results(&mut self, ins: &Ins, m: u32, a: (&[u32; 32], u32), b: (&[u32; 32], u32)) {
        if let Some(d) = ins.dst.first() {
            self.set_lanes(*d, m, a.0, a.1);
        }
        let two_carries = matches!(ins.kind, Kind::Iadd3 { .. }) && ins.dst.len() == 3;
        for (k, d) in ins.dst.iter().enumerate().skip(1) {
            match k {
                1 | 2 if two_carries => {
                    let sh = if k == 1 { 0 } else { 8 };
                    let v: [u32; 32] = std::array::from_fn(|l| b.0[l] >> sh & 1);
                    self.set_lanes(*d, m, &v, b.1);
                }
                1 => self.set_lanes(*d, m, b.0, b.1),
                _ => self.set_lanes(*d, m, &[0; 32], 0),
            }
        }
    }

    /// [`Self::set`] for every lane of `m` (in lane order): lane `l` gets `v[l]` where `k` has
    /// it, unknown elsewhere (`k` within `m`). The values are not approximate
    /// (`cur_approx` false).
    fn set_lanes(&mut self, d: Dst, m: u32, v: &[u32; 32], k: u32) {
        debug_assert!(!self.cur_approx && k & !m == 0);
        if matches!(d, Dst::R(_) | Dst::P(_)) {
            self.undef.set(d, m);
        }
        match d {
            Dst::R(r) if r != RZ => {
                let r = r as usize;
                self.rgen[r] = self.rgen[r].wrapping_add(u64::from(m.count_ones()));
                let row = &mut self.r[r];
                for (l, x) in row.iter_mut().enumerate() {
                    if k >> l & 1 != 0 {
                        *x = v[l];
                    }
                }
                self.rk[r] = (self.rk[r] & !m) | k;
                if self.cur_taint {
                    self.rt[r] |= m;
                } else {
                    self.rt[r] &= !m;
                }
                self.ax[r] &= !m;
            }
            Dst::P(p) if p != PT => {
                let p = p as usize;
                let nz = v
                    .iter()
                    .enumerate()
                    .fold(0u32, |a, (l, &x)| a | u32::from(x != 0) << l)
                    & k;
                self.p[p] = (self.p[p] & !k) | nz;
                self.pk[p] = (self.pk[p] & !m) | k;
                if self.cur_taint {
                    self.ptn[p] |= m;
                } else {
                    self.ptn[p] &= !m;
                }
            }
            Dst::Ur(_) | Dst::Up(_) => {
                for l in lanes(m) {
                    self.set(d, l, (k >> l & 1 != 0).then_some(v[l]));
                }
            }
            _ => {}
        }
    }

    /// `n` (1 to 4) bytes of constant bank 3 at `off`, little-endian, when one variable of the
    /// launch holds them all.
    fn constant3_bytes(&self, off: u32, n: u8) -> Option<u32> {
        let (o, b) = self
            .constant3
            .iter()
            .find(|(o, b)| *o <= off && u64::from(off) + u64::from(n) <= u64::from(*o) + b.len() as u64)?;
        let at = (off - o) as usize;
        Some(
            b[at..at + usize::from(n)]
                .iter()
                .rev()
                .fold(0u32, |v, &x| v << 8 | u32::from(x)),
        )
    }

    fn raw(&self, s: Src, lane: usize, launch: &FlowLaunch) -> Option<u32> {
        match s {
            Src::R(r) => (self.rk[r as usize] & (1 << lane) != 0).then(|| self.r[r as usize][lane]),
            Src::Ur(r) => self.urk[r as usize].then(|| self.ur[r as usize]),
            Src::Imm(v) => Some(v),
            Src::FImm(f) => Some(f.to_bits()),
            Src::Const { bank, off, reg, ureg } => {
                if bank != 0 && bank != 2 && bank != 3 && bank != 4 {
                    return None;
                }
                let off = match (reg, ureg) {
                    (Some(r), _) => off.wrapping_add(self.raw(Src::R(r), lane, launch)?),
                    (_, Some(r)) => off.wrapping_add(self.raw(Src::Ur(r), lane, launch)?),
                    _ => off,
                };
                if bank == 3 {
                    return self.constant3_bytes(off, 4);
                }
                if bank == 4 {
                    return self.constant4.iter().find_map(|&(o, a)| {
                        if o == off {
                            Some(a as u32)
                        } else if o.wrapping_add(4) == off {
                            Some((a >> 32) as u32)
                        } else {
                            None
                        }
                    });
                }
                if bank == 2 {
                    if let Some(v) = indirect::bank2(&self.funcs, off) {
                        return Some(v);
                    }
                    let b = self.constant2.get(off as usize..off as usize + 4)?;
                    return Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                }
                match off {
                    0x0 | 0x4 | 0x8 => Some(launch.block[(off / 4) as usize]),
                    0x28 => Some(local::STACK_TOP),
                    // the generic address of the thread's local window (`cvta.local`: ptxas adds
                    // it to the stack pointer, and subtracts its low word to go back)
                    0x20 => Some(warpscope_emu::mem::LOCAL_WINDOW as u32),
                    0x24 => Some((warpscope_emu::mem::LOCAL_WINDOW >> 32) as u32),
                    0xc | 0x10 | 0x14 => Some(launch.grid[((off - 0xc) / 4) as usize]),
                    o if o >= PARAM_BASE => {
                        let i = (o - PARAM_BASE).checked_sub(self.param_shift)? as usize;
                        let b = launch.params.get(i..i + 4)?;
                        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    }
                    _ => None,
                }
            }
            Src::Sr(sr) => {
                let l = lane as u32;
                match sr {
                    Sr::Tid(i) => Some(self.tid[lane][i]),
                    Sr::Ctaid(i) => Some(self.ctaid[i]),
                    Sr::LaneId => Some(l),
                    Sr::LtMask => Some((1u32 << l).wrapping_sub(1)),
                    Sr::LeMask => Some(((1u64 << (l + 1)) - 1) as u32),
                    Sr::GtMask => Some(!(((1u64 << (l + 1)) - 1) as u32)),
                    Sr::GeMask => Some(!((1u32 << l).wrapping_sub(1))),
                    Sr::EqMask => Some(1 << l),
                    Sr::CgaCtaId => {
                        let c = launch.cluster;
                        let r = |i: usize| self.ctaid[i] % c[i].max(1);
                        Some(r(0) + c[0] * (r(1) + c[1] * r(2)))
                    }
                    Sr::Zero => Some(0),
                    // the flow's stack (from `local::STACK_TOP` down) never reaches it: a
                    // launch whose stack overflowed traps on the GPU, and the emulation reports
                    // the overflow as a fault
                    Sr::LmemHiOff => Some(0),
                    Sr::Other => None,
                }
            }
            Src::Unknown => None,
        }
    }

    /// An operand's raw values (no modifiers) for the lanes `m`, and the lanes where it is known.
    fn operand(&self, s: Src, m: u32, launch: &FlowLaunch) -> ([u32; 32], u32) {
        match s {
            Src::R(r) => (self.r[r as usize], self.rk[r as usize]),
            Src::Ur(r) if self.urk[r as usize] => ([self.ur[r as usize]; 32], u32::MAX),
            Src::Imm(v) => ([v; 32], u32::MAX),
            Src::FImm(f) => ([f.to_bits(); 32], u32::MAX),
            _ => {
                let mut v = [0u32; 32];
                let mut k = 0u32;
                for l in lanes(m) {
                    if let Some(x) = self.raw(s, l, launch) {
                        v[l] = x;
                        k |= 1 << l;
                    }
                }
                (v, k)
            }
        }
    }

    /// An integer operand's value with its modifiers (`-x`: two's complement, `~x`, `|x|`).
    fn read(&self, o: Opnd, lane: usize, launch: &FlowLaunch) -> Option<u32> {
        let mut v = self.raw(o.src, lane, launch)?;
        if o.abs {
            v = (v as i32).unsigned_abs();
        }
        if o.not {
            v = !v;
        }
        if o.neg {
            v = v.wrapping_neg();
        }
        Some(v)
    }

    /// Source operand `i` of a double instruction as a double: a register pair, a uniform pair, two
    /// constant words, or an immediate's high word.
    /// Operand `i` as the 64-bit integer of its register pair (no modifiers), for one lane.
    fn pair_raw(&self, i: usize, ins: &Ins, lane: usize, launch: &FlowLaunch) -> Option<u64> {
        let o = ins.src.get(i)?;
        if o.neg || o.abs {
            return None;
        }
        let (lo, hi) = match o.src {
            Src::R(RZ) | Src::Ur(URZ) => (0, 0),
            Src::R(r) if r + 1 < RZ => (
                self.raw(Src::R(r), lane, launch)?,
                self.raw(Src::R(r + 1), lane, launch)?,
            ),
            Src::Ur(r) if r + 1 < URZ => (
                self.raw(Src::Ur(r), lane, launch)?,
                self.raw(Src::Ur(r + 1), lane, launch)?,
            ),
            _ => return None,
        };
        Some(u64::from(lo) | u64::from(hi) << 32)
    }

    fn dval(&self, i: usize, ins: &Ins, lane: usize, launch: &FlowLaunch) -> Option<f64> {
        let o = ins.src.get(i)?;
        let (lo, hi) = match o.src {
            Src::R(RZ) | Src::Ur(URZ) => (0, 0),
            Src::R(r) if r + 1 < RZ => (
                self.raw(Src::R(r), lane, launch)?,
                self.raw(Src::R(r + 1), lane, launch)?,
            ),
            Src::Ur(r) if r + 1 < URZ => (
                self.raw(Src::Ur(r), lane, launch)?,
                self.raw(Src::Ur(r + 1), lane, launch)?,
            ),
            Src::Imm(h) => (0, h),
            Src::Const { bank, off, reg, ureg } => (
                self.raw(o.src, lane, launch)?,
                self.raw(
                    Src::Const {
                        bank,
                        off: off + 4,
                        reg,
                        ureg,
                    },
                    lane,
                    launch,
                )?,
            ),
            _ => return None,
        };
        Some(double::value(lo, hi, o))
    }

    /// A float operand's value with its modifiers (`-x`, `|x|` on the sign).
    fn readf(&self, o: Opnd, lane: usize, launch: &FlowLaunch) -> Option<f32> {
        let mut v = f32::from_bits(self.raw(o.src, lane, launch)?);
        if o.abs {
            v = v.abs();
        }
        if o.neg {
            v = -v;
        }
        Some(v)
    }

    #[allow(clippy::too_many_lines)]
    fn exec(&mut self, ins: &Ins, on: u32, launch: &FlowLaunch) {
        if on == 0 {
            return;
        }
        // results derive from memory where an operand does (in any lane, for the instructions
        // that mix lanes)
        self.cur_taint = self.taint_mask(ins) & on != 0;
        self.undef.cur = self.undef.mask(ins) & on != 0;
        self.cur_approx = false;
        let s = &ins.src;
        let src = |w: &Warp, i: usize, l: usize| s.get(i).and_then(|o| w.read(*o, l, launch));
        let pr = |w: &Warp, i: usize, l: usize| ins.preds.get(i).and_then(|p| w.pred(*p, l));
        match ins.kind {
            Kind::Poison => {
                for d in &ins.dst {
                    self.forget(*d, on);
                }
            }
            Kind::MbarWait => {
                let done = launch
                    .shared
                    .and_then(|m| m.get(&self.block_lin))
                    .is_some_and(BlockShared::waits_on_copies);
                for l in lanes(on) {
                    for d in &ins.dst {
                        self.set(*d, l, done.then_some(1));
                    }
                }
            }
            Kind::Redux { op, signed } => {
                let mut acc: Option<u32> = None;
                let mut ok = true;
                for l in lanes(on) {
                    let Some(v) = src(self, 0, l) else {
                        ok = false;
                        break;
                    };
                    acc = Some(match acc {
                        None => v,
                        Some(a) => match op {
                            0 => a.wrapping_add(v),
                            1 if signed => (a as i32).min(v as i32) as u32,
                            1 => a.min(v),
                            2 if signed => (a as i32).max(v as i32) as u32,
                            2 => a.max(v),
                            3 => a | v,
                            4 => a ^ v,
                            _ => a & v,
                        },
                    });
                }
                let v = if ok { acc } else { None };
                for l in lanes(on) {
                    for d in &ins.dst {
                        self.set(*d, l, v);
                    }
                }
            }
            Kind::Vote { all } => {
                let mut ballot = 0u32;
                let mut known = true;
                for l in lanes(on) {
                    match pr(self, 0, l) {
                        Some(true) => ballot |= 1 << l,
                        Some(false) => {}
                        None => known = false,
                    }
                }
                let any = ballot != 0;
                let every = ballot == on;
                for l in lanes(on) {
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, known.then_some(ballot));
                    }
                    if let Some(d) = ins.dst.get(1) {
                        self.set(*d, l, known.then_some(u32::from(if all { every } else { any })));
                    }
                }
            }
            Kind::R2urCheck => {
                let taken = src(self, 0, pc_lane(on));
                for l in lanes(on) {
                    let differs = match (src(self, 0, l), taken) {
                        (Some(v), Some(t)) => Some(u32::from(v != t)),
                        _ => None,
                    };
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, differs);
                    }
                    if let Some(d) = ins.dst.get(1) {
                        self.set(*d, l, taken);
                    }
                }
            }
            Kind::MatchAny => {
                let vals: Vec<(usize, Option<u32>)> = lanes(on).map(|l| (l, src(self, 0, l))).collect();
                let known = vals.iter().all(|(_, v)| v.is_some());
                for &(l, v) in &vals {
                    let m = vals
                        .iter()
                        .filter(|(_, x)| *x == v)
                        .fold(0u32, |m, (k, _)| m | 1 << k);
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, known.then_some(m));
                    }
                }
            }
            Kind::Elect => {
                let leader = on.trailing_zeros() as usize;
                for l in lanes(on) {
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, Some(u32::from(l == leader)));
                    }
                    for d in ins.dst.iter().skip(1) {
                        self.set(*d, l, Some(leader as u32));
                    }
                }
            }
            Kind::Shfl { mode } => {
                let before: Vec<Option<u32>> = (0..32).map(|l| src(self, 0, l)).collect();
                for l in lanes(on) {
                    let (Some(b), Some(c)) = (src(self, 1, l), src(self, 2, l)) else {
                        for d in &ins.dst {
                            self.set(*d, l, None);
                        }
                        continue;
                    };
                    let clamp = c & 0x1f;
                    let seg = (c >> 8) & 0x1f;
                    let lane = l as u32;
                    let max_lane = (lane & seg) | (clamp & !seg);
                    let min_lane = lane & seg;
                    let (j, valid) = match mode {
                        0 => {
                            let j = min_lane | (b & 0x1f & !seg);
                            (j, j <= max_lane)
                        }
                        1 => {
                            let j = lane.wrapping_sub(b & 0x1f);
                            (j, (j as i32) >= min_lane as i32)
                        }
                        2 => {
                            let j = lane + (b & 0x1f);
                            (j, j <= max_lane)
                        }
                        _ => {
                            let j = lane ^ (b & 0x1f);
                            (j, j <= max_lane)
                        }
                    };
                    let j = if valid { j as usize } else { l };
                    let v = if j < 32 && on & (1 << j) != 0 {
                        before[j]
                    } else {
                        None
                    };
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, Some(u32::from(valid)));
                    }
                    if let Some(d) = ins.dst.get(1) {
                        self.set(*d, l, v);
                    }
                }
            }
            Kind::R2p => {
                for l in lanes(on) {
                    let (v, m) = (src(self, 0, l), src(self, 1, l));
                    for i in 0..7u8 {
                        let Some(m) = m else {
                            self.set(Dst::P(i), l, None);
                            continue;
                        };
                        if m & (1 << i) != 0 {
                            self.set(Dst::P(i), l, v.map(|v| (v >> i) & 1));
                        }
                    }
                }
            }
            _ => {
                // a uniform instruction runs once for the warp (its destinations are the warp's)
                let uniform = ins.dst.iter().all(|d| matches!(d, Dst::Ur(_) | Dst::Up(_)));
                let run = if uniform { on & on.wrapping_neg() } else { on };
                // approximate inputs: carried through float arithmetic, moves and selects (and
                // checked with margins by FCHK); anything else reading one is unknown
                let ax_in = ins.src.iter().fold(0u32, |m, o| match o.src {
                    Src::R(r) => m | self.ax[r as usize],
                    Src::Const { reg: Some(r), .. } => m | self.ax[r as usize],
                    _ => m,
                });
                let carries = matches!(
                    ins.kind,
                    Kind::Mov
                        | Kind::Fadd
                        | Kind::Fmul { .. }
                        | Kind::Ffma
                        | Kind::Fmod { .. }
                        | Kind::Sel { .. }
                        | Kind::Fmnmx { .. }
                        | Kind::Fchk
                        | Kind::Mufu { .. }
                ) && !uniform;
                // (every MUFU is the H200's own, bit for bit: `warpscope_emu::mufu`)
                let born = ins.rounded_approx;
                // the first operands' values for every lane, read once
                let mut pre: Pre = [([0; 32], 0); PRE];
                for (i, o) in ins.src.iter().take(PRE).enumerate() {
                    pre[i] = self.operand(o.src, run, launch);
                }
                // no approximate input, no double-division step: every lane's results are the
                // lane's operation alone (it reads its own lane only), written per destination
                // for all the lanes at once ([`Self::set_lanes`])
                if !uniform && !born && ax_in & run == 0 && ins.ddiv.is_none() && ins.ddiv_seed.is_none() {
                    self.cur_approx = false;
                    let (mut av, mut ak, mut bv, mut bk) = ([0u32; 32], 0u32, [0u32; 32], 0u32);
                    for l in lanes(run) {
                        let (a, b) = self.lane_op(ins, l, launch, &pre);
                        if let Some(a) = a {
                            av[l] = a;
                            ak |= 1 << l;
                        }
                        if let Some(b) = b {
                            bv[l] = b;
                            bk |= 1 << l;
                        }
                    }
                    self.write_results(ins, run, (&av, ak), (&bv, bk));
                    if ins.dst.len() == 3 && matches!(ins.kind, Kind::Imad { wide: true, .. }) {
                        let (mut cv, mut ck) = ([0u32; 32], 0u32);
                        for l in lanes(run) {
                            if let Some(c) = self.imad_carry(ins, l, launch, &pre) {
                                cv[l] = c;
                                ck |= 1 << l;
                            }
                        }
                        self.set_lanes(ins.dst[2], run, &cv, ck);
                    }
                    return;
                }
                for l in lanes(run) {
                    let approx_in = ax_in >> l & 1 != 0;
                    self.cur_approx = (born || approx_in) && !matches!(ins.kind, Kind::Fchk);
                    let (a, b) = if approx_in && !carries {
                        match self.exponent_of_approx(ins, l) {
                            Some(e) => {
                                self.cur_approx = false;
                                (Some(e), None)
                            }
                            None => (None, None),
                        }
                    } else if let Some(dd) = ins.ddiv
                        && (approx_in || self.lane_op(ins, l, launch, &pre).0.is_none())
                    {
                        // the test's own operands unknown (the Newton sequence's values are
                        // followed exactly where its inputs are known: the seed is the H200's)
                        self.cur_approx = false;
                        let exact = |w: &Warp, r: u8| w.ax[r as usize] >> l & 1 == 0;
                        let a = (exact(self, dd.a_hi - 1) && exact(self, dd.a_hi))
                            .then(|| {
                                let lo = self.raw(Src::R(dd.a_hi - 1), l, launch)?;
                                Some((lo, self.raw(Src::R(dd.a_hi), l, launch)?))
                            })
                            .flatten();
                        let b = self.ddiv_b[l].map(|b| (b as u32, (b >> 32) as u32));
                        // the test's hi(b) operand must be the divisor the sequence started from
                        let hb = ins.src.get(1).and_then(|o| self.raw(o.src, l, launch));
                        let checked = match (b, hb) {
                            (Some(b), Some(h)) if b.1 == h => ddiv_check(a, Some(b)),
                            _ => None,
                        };
                        // the fast path leaves the correctly rounded quotient in q (the slow path
                        // overwrites it); written before the test's own result
                        let q = checked.map(|(_, q)| q.to_bits());
                        if !q.is_some_and(|q| f64::from_bits(q).is_nan()) {
                            self.set(Dst::R(dd.q_hi - 1), l, q.map(|q| q as u32));
                            self.set(Dst::R(dd.q_hi), l, q.map(|q| (q >> 32) as u32));
                        }
                        (checked.map(|(c, _)| c), None)
                    } else {
                        if let Some(n) = ins.ddiv_seed {
                            let o = n as usize;
                            let known = match ins.src.get(o).map(|x| x.src) {
                                Some(Src::R(r)) if r + 1 < RZ => {
                                    (self.ax[r as usize] | self.ax[r as usize + 1]) >> l & 1 == 0
                                }
                                _ => true,
                            };
                            self.ddiv_b[l] = self
                                .dval(o, ins, l, launch)
                                .filter(|_| known)
                                .map(|nb| (-nb).to_bits());
                        }
                        self.lane_op(ins, l, launch, &pre)
                    };
                    if let Some(d) = ins.dst.first() {
                        self.set(*d, l, a);
                    }
                    let two_carries = matches!(ins.kind, Kind::Iadd3 { .. }) && ins.dst.len() == 3;
                    let wide_carry = matches!(ins.kind, Kind::Imad { wide: true, .. }) && ins.dst.len() == 3;
                    for (k, d) in ins.dst.iter().enumerate().skip(1) {
                        let v = match k {
                            1 if two_carries => b.map(|c| c & 1),
                            2 if two_carries => b.map(|c| c >> 8 & 1),
                            1 => b,
                            2 if wide_carry && !self.cur_approx => self.imad_carry(ins, l, launch, &pre),
                            _ => None,
                        };
                        // wide results and carry-outs: second value; further destinations of a
                        // wide result are consecutive registers (IMAD.WIDE: d, d+1)
                        self.set(*d, l, v);
                    }
                }
            }
        }
    }

    /// `SHF.R.U32.HI d, RZ, 0x17, r` (sign and exponent field of a float) on an approximate float:
    /// its error (a few units in the last place: a `MUFU.RCP` seed refined by `FFMA`s, as the
    /// float-division slow path computes a scaled quotient) cannot move the exponent unless the
    /// significand lies within `MARGIN` units of a power of two; elsewhere the field is known.
    fn exponent_of_approx(&self, ins: &Ins, l: usize) -> Option<u32> {
        const MARGIN: u32 = 64;
        let Kind::Shf {
            left: false,
            hi: true,
            signed: false,
            wide64: false,
            ..
        } = ins.kind
        else {
            return None;
        };
        let [lo, sh, hi] = ins.src.as_slice() else {
            return None;
        };
        if lo.src != Src::R(RZ) || sh.src != Src::Imm(23) || hi.neg || hi.not || hi.abs {
            return None;
        }
        let Src::R(r) = hi.src else {
            return None;
        };
        if self.rk[r as usize] >> l & 1 == 0 {
            return None;
        }
        let v = self.r[r as usize][l];
        let (e, m) = ((v >> 23) & 0xff, v & 0x7f_ffff);
        ((1..=254).contains(&e) && (MARGIN..=0x7f_ffff - MARGIN).contains(&m)).then_some(v >> 23)
    }

    /// `IMAD.HI` / `IMAD.WIDE` on one lane: `a * b` plus the 64-bit addend `{c+1:c}` plus the
    /// carry-in of the `.X` form, to 128 bits (two's complement for the signed forms).
    fn imad_full(&self, ins: &Ins, l: usize, launch: &FlowLaunch, pre: &Pre) -> Option<u128> {
        let Kind::Imad { signed, x: carry, .. } = ins.kind else {
            return None;
        };
        let s = &ins.src;
        let x = |i: usize| {
            if i < PRE {
                let (v, k) = &pre[i];
                (k >> l & 1 != 0).then(|| int_mods(v[l], &s[i]))
            } else {
                s.get(i).and_then(|o| self.read(*o, l, launch))
            }
        };
        let (a, b, c) = (x(0)?, x(1)?, x(2)?);
        // a 64-bit addend: the pair {c+1:c}
        let c_hi = match s.get(2).map(|o| o.src) {
            Some(Src::R(r)) if r != RZ && !s[2].neg && !s[2].not => self.raw(Src::R(r + 1), l, launch)?,
            Some(Src::Ur(r)) if r != URZ && !s[2].neg && !s[2].not => self.raw(Src::Ur(r + 1), l, launch)?,
            Some(Src::R(RZ)) | Some(Src::Ur(URZ)) => 0,
            Some(Src::Imm(_)) => {
                if signed && (c as i32) < 0 {
                    u32::MAX
                } else {
                    0
                }
            }
            _ => return None,
        };
        let c64 = u64::from(c_hi) << 32 | u64::from(c);
        let cin = if carry {
            u128::from(ins.preds.first().and_then(|q| self.pred(*q, l))?)
        } else {
            0
        };
        let full = if signed {
            (i128::from(a as i32) * i128::from(b as i32) + i128::from(c64 as i64)) as u128
        } else {
            u128::from(a) * u128::from(b) + u128::from(c64)
        };
        Some(full.wrapping_add(cin))
    }

    /// The carry out of an unsigned `IMAD.WIDE`'s 64-bit sum (`IMAD.WIDE.U32 d, P0, a, b, c`):
    /// bit 64 of [`Self::imad_full`]; unknown for the signed forms.
    fn imad_carry(&self, ins: &Ins, l: usize, launch: &FlowLaunch, pre: &Pre) -> Option<u32> {
        match ins.kind {
            Kind::Imad {
                wide: true,
                signed: false,
                ..
            } => self.imad_full(ins, l, launch, pre).map(|f| (f >> 64) as u32 & 1),
            _ => None,
        }
    }

    /// One lane of a per-lane instruction: its first and second results.
    #[allow(clippy::too_many_lines)]
    fn lane_op(&self, ins: &Ins, l: usize, launch: &FlowLaunch, pre: &Pre) -> (Option<u32>, Option<u32>) {
        let s = &ins.src;
        let x = |i: usize| {
            if i < PRE {
                let (v, k) = &pre[i];
                (k >> l & 1 != 0).then(|| int_mods(v[l], &s[i]))
            } else {
                s.get(i).and_then(|o| self.read(*o, l, launch))
            }
        };
        let f = |i: usize| {
            if i < PRE {
                let (v, k) = &pre[i];
                (k >> l & 1 != 0).then(|| float_mods(v[l], &s[i]))
            } else {
                s.get(i).and_then(|o| self.readf(*o, l, launch))
            }
        };
        let p = |i: usize| ins.preds.get(i).and_then(|q| self.pred(*q, l));
        let both = |v: Option<u64>| (v.map(|v| v as u32), v.map(|v| (v >> 32) as u32));
        match ins.kind {
            Kind::Mov => (x(0), None),
            Kind::Imad {
                hi,
                wide,
                signed,
                x: carry,
            } => {
                if hi || wide {
                    let Some(full) = self.imad_full(ins, l, launch, pre) else {
                        return (None, None);
                    };
                    if hi {
                        // (the carry out of `IMAD.HI.U32 d, P1, a, b, c`, which ptxas's 64-bit
                        // division subroutine chains into an `IADD3.X`, is left unknown. As bit 64
                        // of the sum it makes div64 equal the H200 and bench12 bits64's `primes`
                        // equal at every instruction but where the H200 ran two groups leaving a
                        // loop together (2 targets fewer); the label rule that would catch those
                        // (`FlowCounts::may_merge_exit`) also demotes optimised launches the H200
                        // counts as the flow does: calibration/run/bench20/README.md)
                        return (Some((full >> 32) as u32), None);
                    }
                    return both(Some(full as u64));
                }
                let (Some(a), Some(b), Some(c)) = (x(0), x(1), x(2)) else {
                    return (None, None);
                };
                let prod = if signed {
                    (i64::from(a as i32) * i64::from(b as i32)) as u64
                } else {
                    u64::from(a) * u64::from(b)
                };
                let mut v = (prod as u32).wrapping_add(c);
                if carry {
                    match p(0) {
                        Some(true) => v = v.wrapping_add(1),
                        Some(false) => {}
                        None => return (None, None),
                    }
                }
                (Some(v), None)
            }
            Kind::Iadd3 { x: ext } => {
                let mut sum: u64 = 0;
                let mut first: u64 = 0;
                for (i, o) in s.iter().enumerate().take(3) {
                    let Some(raw) = self.raw(o.src, l, launch) else {
                        return (None, None);
                    };
                    let mut v = u64::from(raw);
                    if o.not || (o.neg && ext) {
                        v = u64::from(!raw);
                    } else if o.neg {
                        v = u64::from(!raw) + 1;
                    }
                    sum += v;
                    if i == 1 {
                        // the first addition's carry (`IADD3 R, P0, P1, a, b, c`: P0)
                        first = sum >> 32;
                    }
                }
                if ext {
                    for q in &ins.preds {
                        match self.pred(*q, l) {
                            Some(true) => sum += 1,
                            Some(false) => {}
                            None => return (None, None),
                        }
                    }
                }
                let carry = sum >> 32;
                if ins.dst.len() == 3 {
                    // two carry outputs: the first addition's and the second's, packed for `exec`
                    let second = carry.saturating_sub(first.min(1));
                    return (
                        Some(sum as u32),
                        Some(u32::from(first >= 1) | u32::from(second >= 1) << 8),
                    );
                }
                (Some(sum as u32), Some(u32::from(carry >= 1)))
            }
            Kind::Lop3 => {
                let (Some(a), Some(b), Some(c), Some(lut)) = (x(0), x(1), x(2), x(3)) else {
                    return (None, None);
                };
                let r = lop3(a, b, c, lut);
                (Some(r), Some(u32::from(r != 0)))
            }
            Kind::Plop3 => {
                let (Some(a), Some(b), Some(c)) = (p(2), p(3), p(4)) else {
                    return (None, None);
                };
                let (Some(l1), Some(l2)) = (x(0), x(1)) else {
                    return (None, None);
                };
                let i = u32::from(a) << 2 | u32::from(b) << 1 | u32::from(c);
                (Some((l1 >> i) & 1), Some((l2 >> i) & 1))
            }
            Kind::Shf {
                left,
                hi,
                signed,
                wide64,
                wrap,
            } => {
                let (Some(lo), Some(sh), Some(h)) = (x(0), x(1), x(2)) else {
                    return (None, None);
                };
                let sh = if wrap {
                    sh & if wide64 { 63 } else { 31 }
                } else {
                    sh.min(if wide64 { 64 } else { 32 })
                };
                let v = u64::from(h) << 32 | u64::from(lo);
                let r: u64 = if left {
                    ((u128::from(v) << sh) & u128::from(u64::MAX)) as u64
                } else if signed {
                    ((v as i64) >> sh.min(63)) as u64
                } else {
                    ((u128::from(v)) >> sh) as u64
                };
                let out = if hi { (r >> 32) as u32 } else { r as u32 };
                (Some(out), None)
            }
            Kind::Lea { hi, x: ext, sx32 } => {
                let a = x(0);
                let b = x(1);
                if !hi {
                    let (Some(a), Some(b), Some(sh)) = (a, b, x(2)) else {
                        return (None, None);
                    };
                    if s.first().is_some_and(|o| o.neg) {
                        // `LEA R, P, -a, b, sh`: b - (a << sh), whose carry is the two's
                        // complement's (no borrow: set when a << sh is 0), as `IADD3`'s is; the
                        // high word's `IADD3.X` of a 64-bit subtraction adds it
                        let shifted = (a.wrapping_neg() << (sh & 31)) as u64;
                        let v = (!shifted & 0xffff_ffff) + 1 + u64::from(b);
                        return (Some(v as u32), Some(u32::from(v >> 32 != 0)));
                    }
                    let v = (u64::from(a) << (sh & 31)) as u32 as u64 + u64::from(b);
                    return (Some(v as u32), Some(u32::from(v >> 32 != 0)));
                }
                let (c, sh) = if sx32 {
                    (a.map(|a| if (a as i32) < 0 { u32::MAX } else { 0 }), x(2))
                } else {
                    (x(2), x(3))
                };
                let (Some(a), Some(b), Some(c), Some(sh)) = (a, b, c, sh) else {
                    return (None, None);
                };
                let v = u64::from(c) << 32 | u64::from(a);
                let h = ((u128::from(v) << (sh & 63)) >> 32) as u32;
                let mut r = u64::from(h) + u64::from(b);
                if ext {
                    match p(0) {
                        Some(true) => r += 1,
                        Some(false) => {}
                        None => return (None, None),
                    }
                }
                (Some(r as u32), Some(u32::from(r >> 32 != 0)))
            }
            Kind::Sel { float: false } => match p(0) {
                Some(true) => (x(0), None),
                Some(false) => (x(1), None),
                None => (None, None),
            },
            Kind::Fmnmx { ftz } => match (f(0), f(1), p(0)) {
                (Some(a), Some(b), Some(min)) => {
                    (Some(float::fmnmx(a.to_bits(), b.to_bits(), min, ftz)), None)
                }
                _ => (None, None),
            },
            Kind::Sel { float: true } => match p(0) {
                Some(true) => (f(0).map(f32::to_bits), None),
                Some(false) => (f(1).map(f32::to_bits), None),
                None => (None, None),
            },
            Kind::Iabs => (x(0).map(|v| (v as i32).unsigned_abs()), None),
            Kind::Popc => (x(0).map(u32::count_ones), None),
            Kind::Brev => (x(0).map(u32::reverse_bits), None),
            Kind::Flo { sh } => (
                x(0).map(|v| {
                    if v == 0 {
                        u32::MAX
                    } else if sh {
                        v.leading_zeros()
                    } else {
                        31 - v.leading_zeros()
                    }
                }),
                None,
            ),
            Kind::Prmt => {
                let (Some(a), Some(sel), Some(b)) = (x(0), x(1), x(2)) else {
                    return (None, None);
                };
                let bytes = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
                let mut r = 0u32;
                for k in 0..4 {
                    let n = (sel >> (4 * k)) & 0xf;
                    let mut byte = bytes[(n & 7) as usize];
                    if n & 8 != 0 {
                        byte = if byte & 0x80 != 0 { 0xff } else { 0 };
                    }
                    r |= u32::from(byte) << (8 * k);
                }
                (Some(r), None)
            }
            Kind::Mnmx { signed, add, three } => {
                let pick = |a: u32, b: u32, min: bool| match (signed, min) {
                    (true, true) => (a as i32).min(b as i32) as u32,
                    (true, false) => (a as i32).max(b as i32) as u32,
                    (false, true) => a.min(b),
                    (false, false) => a.max(b),
                };
                let Some(min) = p(0) else {
                    return (None, None);
                };
                let v = if add || three {
                    let (Some(a), Some(b), Some(c)) = (x(0), x(1), x(2)) else {
                        return (None, None);
                    };
                    if add {
                        pick(a.wrapping_add(b), c, min)
                    } else {
                        pick(pick(a, b, min), c, min)
                    }
                } else {
                    let (Some(a), Some(b)) = (x(0), x(1)) else {
                        return (None, None);
                    };
                    pick(a, b, min)
                };
                (Some(v), None)
            }
            Kind::Isetp { cmp, signed, bop, ex } => {
                let Some(c) = p(0) else {
                    return (None, None);
                };
                let comb = |r: bool| match bop {
                    Bop::And => r && c,
                    Bop::Or => r || c,
                    Bop::Xor => r ^ c,
                };
                let (a, b) = match (x(0), x(1)) {
                    (Some(a), Some(b)) => (a, b),
                    // one side bounded by an atomic add's range: known where the compare gives
                    // the same answer over the whole range
                    (None, Some(b)) if !ex => {
                        let Some(r) = s.first().and_then(|o| self.bounded(o, l)) else {
                            return (None, None);
                        };
                        return match range_compare(cmp, signed, r, b, false) {
                            Some(r) => (Some(u32::from(comb(r))), Some(u32::from(comb(!r)))),
                            None => (None, None),
                        };
                    }
                    (Some(a), None) if !ex => {
                        let Some(r) = s.get(1).and_then(|o| self.bounded(o, l)) else {
                            return (None, None);
                        };
                        return match range_compare(cmp, signed, r, a, true) {
                            Some(r) => (Some(u32::from(comb(r))), Some(u32::from(comb(!r)))),
                            None => (None, None),
                        };
                    }
                    _ => return (None, None),
                };
                let ord = if signed {
                    (a as i32).cmp(&(b as i32))
                } else {
                    a.cmp(&b)
                };
                let r = if ex {
                    let Some(low) = p(1) else {
                        return (None, None);
                    };
                    use std::cmp::Ordering::*;
                    match cmp {
                        Cmp::Lt | Cmp::Le => ord == Less || (ord == Equal && low),
                        Cmp::Gt | Cmp::Ge => ord == Greater || (ord == Equal && low),
                        Cmp::Eq => ord == Equal && low,
                        Cmp::Ne => ord != Equal || low,
                        _ => return (None, None),
                    }
                } else {
                    match cmp.of_order(ord) {
                        Some(r) => r,
                        None => return (None, None),
                    }
                };
                (Some(u32::from(comb(r))), Some(u32::from(comb(!r))))
            }
            Kind::Fsetp { cmp, bop, ftz } => {
                let (Some(mut a), Some(mut b), Some(c)) = (f(0), f(1), p(0)) else {
                    return (None, None);
                };
                if ftz {
                    if a.is_subnormal() {
                        a = 0.0f32.copysign(a);
                    }
                    if b.is_subnormal() {
                        b = 0.0f32.copysign(b);
                    }
                }
                let nan = a.is_nan() || b.is_nan();
                let r = match cmp {
                    Cmp::Lt => a < b,
                    Cmp::Eq => a == b,
                    Cmp::Le => a <= b,
                    Cmp::Gt => a > b,
                    Cmp::Ne => !nan && a != b,
                    Cmp::Ge => a >= b,
                    Cmp::Ltu => nan || a < b,
                    Cmp::Equ => nan || a == b,
                    Cmp::Leu => nan || a <= b,
                    Cmp::Gtu => nan || a > b,
                    Cmp::Neu => nan || a != b,
                    Cmp::Geu => nan || a >= b,
                    Cmp::Num => !nan,
                    Cmp::Nan => nan,
                    Cmp::F => false,
                    Cmp::T => true,
                };
                let comb = |r: bool| match bop {
                    Bop::And => r && c,
                    Bop::Or => r || c,
                    Bop::Xor => r ^ c,
                };
                (Some(u32::from(comb(r))), Some(u32::from(comb(!r))))
            }
            Kind::P2r => {
                let (Some(a), Some(m)) = (x(0), x(1)) else {
                    return (None, None);
                };
                let mut bits = 0u32;
                for i in 0..7u8 {
                    if m & (1 << i) != 0 {
                        match self.pred(
                            Pred {
                                uniform: false,
                                idx: i,
                                neg: false,
                            },
                            l,
                        ) {
                            Some(true) => bits |= 1 << i,
                            Some(false) => {}
                            None => return (None, None),
                        }
                    }
                }
                (Some((a & !m) | (bits & m)), None)
            }
            Kind::S2r => (x(0), None),
            Kind::Cs2r => match s.first().map(|o| o.src) {
                Some(Src::Sr(Sr::Zero)) => (Some(0), Some(0)),
                _ => (None, None),
            },
            Kind::Ldc {
                sub: Some((bytes, signed)),
                ..
            } => {
                // `LDC.U8`/`.S16`...: the bank's bytes at the address, extended
                let v = match s.first().map(|o| o.src) {
                    Some(Src::Const {
                        bank: 3,
                        off,
                        reg,
                        ureg,
                    }) => {
                        let base = match (reg, ureg) {
                            (Some(r), _) => self.raw(Src::R(r), l, launch),
                            (_, Some(r)) => self.raw(Src::Ur(r), l, launch),
                            _ => Some(0),
                        };
                        base.and_then(|b| self.constant3_bytes(off.wrapping_add(b), bytes))
                    }
                    _ => x(0),
                };
                let bits = 8 * u32::from(bytes);
                let v = v.map(|v| {
                    let v = v & ((1u32 << bits) - 1);
                    if signed && v >> (bits - 1) & 1 == 1 {
                        v | !((1u32 << bits) - 1)
                    } else {
                        v
                    }
                });
                (v, None)
            }
            Kind::Ldc { words, .. } => {
                let v = x(0);
                if words == 2 {
                    let hi = match s.first().map(|o| o.src) {
                        Some(Src::Const { bank, off, reg, ureg }) => self.raw(
                            Src::Const {
                                bank,
                                off: off + 4,
                                reg,
                                ureg,
                            },
                            l,
                            launch,
                        ),
                        _ => None,
                    };
                    (v, hi)
                } else {
                    (v, None)
                }
            }
            Kind::I2f {
                signed,
                up,
                toward_zero,
            } => {
                let Some(a) = x(0) else {
                    return (None, None);
                };
                let exact: f64 = if signed { f64::from(a as i32) } else { f64::from(a) };
                let mut v = exact as f32; // round to nearest
                if up && f64::from(v) < exact {
                    v = f32::from_bits(if v >= 0.0 {
                        v.to_bits() + 1
                    } else {
                        v.to_bits() - 1
                    });
                } else if toward_zero && f64::from(v).abs() > exact.abs() {
                    v = f32::from_bits(v.to_bits() - 1);
                }
                (Some(v.to_bits()), None)
            }
            Kind::Rcp { .. } => (f(0).map(|v| warpscope_emu::mufu::rcp(v.to_bits())), None),
            Kind::Rcp64h { rsq: false } => (f(0).map(|v| warpscope_emu::mufu::rcp64h(v.to_bits())), None),
            Kind::Rcp64h { rsq: true } => (f(0).map(|v| warpscope_emu::mufu::rsq64h(v.to_bits())), None),
            // the H200's unit, bit for bit (calibration/mufu): SIN/COS take the argument in
            // periods, as the FMUL.RZ before them leaves it
            Kind::Mufu { func } => (
                f(0).map(|v| {
                    use warpscope_emu::mufu;
                    let x = v.to_bits();
                    match func {
                        0 => mufu::ex2(x),
                        1 => mufu::lg2(x),
                        2 => mufu::rsq(x),
                        3 => mufu::sqrt(x),
                        4 => mufu::sin(x),
                        5 => mufu::cos(x),
                        _ => mufu::tanh(x),
                    }
                }),
                None,
            ),
            Kind::Fchk => {
                let (Some(a), Some(b)) = (f(0), f(1)) else {
                    return (None, None);
                };
                let exp = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32;
                let (ea, eb) = (exp(a), exp(b));
                // an approximate operand's error moves its exponent by one at most: the predicate
                // is known where every such neighbour gives the same answer
                let approx = |i: usize| match s.get(i).map(|o| o.src) {
                    Some(Src::R(r)) => self.ax[r as usize] >> l & 1 != 0,
                    _ => false,
                };
                let spread = |e: i32, ax: bool| {
                    if ax && (1..255).contains(&e) {
                        -1..=1
                    } else {
                        0..=0
                    }
                };
                let mut seen = None;
                for da in spread(ea, approx(0)) {
                    for db in spread(eb, approx(1)) {
                        let slow = fchk_slow(ea + da, eb + db);
                        if seen.is_some_and(|v| v != slow) {
                            return (None, None);
                        }
                        seen = Some(slow);
                    }
                }
                (seen.map(u32::from), None)
            }
            Kind::F2i { signed, round, ftz } => {
                (f(0).map(|v| float::f2i(v.to_bits(), round, signed, ftz)), None)
            }
            Kind::Frnd { round, ftz } => (f(0).map(|v| float::frnd(v.to_bits(), round, ftz)), None),
            Kind::Fmod { op, mods } => match (f(0), f(1), f(2)) {
                (Some(a), Some(b), c) if op < 2 || c.is_some() => (
                    Some(float::arith(
                        op == 1,
                        a.to_bits(),
                        b.to_bits(),
                        c.filter(|_| op == 2).map(f32::to_bits),
                        mods,
                    )),
                    None,
                ),
                _ => (None, None),
            },
            Kind::Dop { op, round } => {
                let (Some(a), Some(b)) = (self.dval(0, ins, l, launch), self.dval(1, ins, l, launch)) else {
                    return (None, None);
                };
                let c = self.dval(2, ins, l, launch);
                match double::arith(op, round, a, b, c) {
                    Some((lo, hi)) => (Some(lo), Some(hi)),
                    None => (None, None),
                }
            }
            Kind::Dminmax { max } => {
                let (Some(a), Some(b), Some(c)) =
                    (self.dval(0, ins, l, launch), self.dval(1, ins, l, launch), p(0))
                else {
                    return (None, None);
                };
                let (chosen, nan) = double::min_max(max, a, b);
                (Some(u32::from(chosen && c)), Some(u32::from(nan && c)))
            }
            Kind::Dsetp { cmp, bop } => {
                let (Some(a), Some(b), Some(c)) =
                    (self.dval(0, ins, l, launch), self.dval(1, ins, l, launch), p(0))
                else {
                    return (None, None);
                };
                let r = double::compare(cmp, a, b);
                (
                    Some(u32::from(double::combine(bop, r, c))),
                    Some(u32::from(double::combine(bop, !r, c))),
                )
            }
            Kind::Dcvt { op } => match op {
                double::Dcvt::FromInt { .. }
                | double::Dcvt::FromFloat
                | double::Dcvt::FloatToInt64 { .. } => match x(0) {
                    Some(v) => double::convert(op, v, None),
                    None => (None, None),
                },
                double::Dcvt::Int64ToFloat { signed, round } => match self.pair_raw(0, ins, l, launch) {
                    Some(v) => (Some(double::int64_to_float(v, signed, round)), None),
                    None => (None, None),
                },
                _ => match self.dval(0, ins, l, launch) {
                    Some(d) => double::convert(op, 0, Some(d)),
                    None => (None, None),
                },
            },
            Kind::Fadd => match (f(0), f(1)) {
                (Some(a), Some(b)) => (Some((a + b).to_bits()), None),
                _ => (None, None),
            },
            Kind::Fmul { round } => match (f(0), f(1)) {
                // the product of two floats is exact in f64: rounded once, in the mode asked
                (Some(a), Some(b)) => (
                    Some(round_f32(f64::from(a) * f64::from(b), round).to_bits()),
                    None,
                ),
                _ => (None, None),
            },
            Kind::Ffma => match (f(0), f(1), f(2)) {
                (Some(a), Some(b), Some(c)) => (Some(a.mul_add(b, c).to_bits()), None),
                _ => (None, None),
            },
            _ => (None, None),
        }
    }
}

/// The rounding of `F2I`/`FRND` modifiers: 0 to nearest even (none, `.NTZ`), 1 `.TRUNC`, 2
/// `.FLOOR`, 3 `.CEIL`.
fn int_round(mods: &[&str]) -> u8 {
    if mods.contains(&"TRUNC") {
        1
    } else if mods.contains(&"FLOOR") {
        2
    } else if mods.contains(&"CEIL") {
        3
    } else {
        0
    }
}

/// `x` rounded to f32: 0 to nearest even, 1 toward zero, 2 down, 3 up.
fn round_f32(x: f64, mode: u8) -> f32 {
    let r = x as f32;
    if !r.is_finite() || f64::from(r) == x || mode == 0 {
        return r;
    }
    let toward = |r: f32, up: bool| -> f32 {
        let b = r.to_bits();
        let bigger = (r >= 0.0) == up;
        f32::from_bits(if r == 0.0 {
            if up { 1 } else { 0x8000_0001 }
        } else if bigger {
            b + 1
        } else {
            b - 1
        })
    };
    match mode {
        1 if f64::from(r).abs() > x.abs() => toward(r, r < 0.0),
        2 if f64::from(r) > x => toward(r, false),
        3 if f64::from(r) < x => toward(r, true),
        _ => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for the fast paths' comparisons.
    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn lop3_by_words_equals_the_bit_by_bit_table() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for lut in 0..256u32 {
            for _ in 0..64 {
                let (a, b, c) = (
                    xorshift(&mut s) as u32,
                    xorshift(&mut s) as u32,
                    xorshift(&mut s) as u32,
                );
                assert_eq!(lop3(a, b, c, lut), lop3_by_bits(a, b, c, lut), "lut {lut:#x}");
            }
        }
        // table bits above the low byte are not read by either
        assert_eq!(
            lop3(0xf0f0, 0xff00, 0xaaaa, 0x1e8),
            lop3_by_bits(0xf0f0, 0xff00, 0xaaaa, 0x1e8)
        );
    }

    #[test]
    fn lane_masks_by_vectors_equal_the_lane_by_lane_masks() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            // few distinct values, so that every mask shape comes
            let v: [u32; 32] = std::array::from_fn(|_| (xorshift(&mut s) % 4) as u32);
            let x = (xorshift(&mut s) % 5) as u32;
            assert_eq!(eq_mask(&v, x), eq_mask_by_lanes(&v, x));
            assert_eq!(at_mask(&v, x as usize), eq_mask_by_lanes(&v, x));
            let m = match xorshift(&mut s) % 3 {
                0 => u32::MAX,
                1 => 0,
                _ => xorshift(&mut s) as u32,
            };
            let mut a = v;
            advance_lanes(&mut a, m);
            for l in 0..32 {
                assert_eq!(a[l], v[l] + (m >> l & 1));
            }
        }
        assert_eq!(eq_mask(&[u32::MAX; 32], u32::MAX), u32::MAX);
    }

    /// The registers, predicates and their known, taint, approximation and write-count state.
    fn regs_of(w: &Warp) -> impl PartialEq + std::fmt::Debug {
        (
            (
                w.r.clone(),
                w.rk.clone(),
                w.rt.clone(),
                w.ax.clone(),
                w.rgen.clone(),
            ),
            (w.p, w.pk, w.ptn),
            (w.ur, w.urk, w.urt, w.up, w.upk, w.uptn),
        )
    }

    #[test]
    fn results_written_for_all_lanes_equal_results_written_lane_by_lane() {
        let mut s = 0x0bad_cafe_d00d_f00du64;
        for round in 0..3000 {
            let mut w = Warp::new();
            // a random state: values, known lanes, taints, approximations
            for r in 0..8 {
                w.r[r] = std::array::from_fn(|_| xorshift(&mut s) as u32);
                w.rk[r] = xorshift(&mut s) as u32;
                w.rt[r] = xorshift(&mut s) as u32;
                w.ax[r] = xorshift(&mut s) as u32;
                w.rgen[r] = xorshift(&mut s) % 100;
            }
            for p in 0..7 {
                w.p[p] = xorshift(&mut s) as u32;
                w.pk[p] = xorshift(&mut s) as u32;
                w.ptn[p] = xorshift(&mut s) as u32;
            }
            w.cur_taint = round % 3 == 0;
            w.cur_approx = false;
            let d = match xorshift(&mut s) % 6 {
                0 => Dst::R(RZ),
                1 => Dst::P(PT),
                2 | 3 => Dst::R((xorshift(&mut s) % 8) as u8),
                4 => Dst::P((xorshift(&mut s) % 7) as u8),
                _ => Dst::Ur((xorshift(&mut s) % 8) as u8),
            };
            let m = match round % 4 {
                0 => u32::MAX,
                1 => 1 << (xorshift(&mut s) % 32),
                _ => xorshift(&mut s) as u32,
            };
            let k = xorshift(&mut s) as u32 & m;
            // values with zeros among them (a predicate's false)
            let v: [u32; 32] = std::array::from_fn(|_| {
                let x = xorshift(&mut s);
                if x.is_multiple_of(3) { 0 } else { (x >> 8) as u32 }
            });
            let mut one = Warp::new();
            one.r.clone_from(&w.r);
            one.rk.clone_from(&w.rk);
            one.rt.clone_from(&w.rt);
            one.ax.clone_from(&w.ax);
            one.rgen.clone_from(&w.rgen);
            (one.p, one.pk, one.ptn, one.cur_taint) = (w.p, w.pk, w.ptn, w.cur_taint);
            for l in lanes(m) {
                one.set(d, l, (k >> l & 1 != 0).then_some(v[l]));
            }
            w.set_lanes(d, m, &v, k);
            assert_eq!(
                regs_of(&w),
                regs_of(&one),
                "round {round}: {d:?} lanes {m:08x} known {k:08x}"
            );
        }
    }

    /// Every launch of calibration/ddiv/ddiv_branch.cu on the H200 (one division per warp, pairs
    /// around every edge of the fast-path test): the fast path (1 branch target) exactly where
    /// the FSETPs, evaluated on [`ddiv_check`]'s value, take it.
    #[test]
    fn double_division_takes_the_fast_path_as_the_h200_did() {
        let rows = include_str!("../../../calibration/ddiv/h200_branch_rows.txt");
        let ncu = include_str!("../../../calibration/ddiv/h200_branch_ncu.csv");
        let mut targets = std::collections::HashMap::new();
        for line in ncu
            .lines()
            .filter(|l| l.starts_with('"') && l.contains("smsp__sass_branch_targets.sum"))
        {
            let f: Vec<&str> = line.split("\",\"").map(|x| x.trim_matches('"')).collect();
            let id: usize = f[0].parse().unwrap();
            let v: f64 = f[f.len() - 1].replace(',', "").parse().unwrap();
            targets.insert(id, v);
        }
        let (mut judged, mut unknown) = (0, 0);
        for line in rows.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let id: usize = f[0].parse().unwrap();
            let a = u64::from_str_radix(f[1], 16).unwrap();
            let b = u64::from_str_radix(f[2], 16).unwrap();
            let pair = |x: u64| Some((x as u32, (x >> 32) as u32));
            let Some((d, _)) = ddiv_check(pair(a), pair(b)) else {
                unknown += 1;
                continue;
            };
            let ha = (a >> 32) as u32;
            let fa = f32::from_bits(ha & 0x7fff_ffff);
            let p1 = fa.is_nan() || fa >= f32::from_bits(0x0360_0000);
            let fd = f32::from_bits(d & 0x7fff_ffff);
            let p0 = fd > f32::from_bits(0x0010_0000);
            let fast = targets[&id] == 1.0;
            assert_eq!(p0 && p1, fast, "row {id}: a {a:#x} b {b:#x}");
            judged += 1;
        }
        // the sample sits on the edges: 13 pairs within a unit of them stay unknown
        assert_eq!((judged, unknown), (348, 13));
    }

    fn flow(body: &str) -> MachineFlow {
        let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{body}");
        let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
        MachineFlow::new(&ks[0])
    }

    fn run(f: &MachineFlow, block: u32, params: &[u8]) -> Result<(u64, u64), String> {
        f.run(
            &FlowLaunch {
                global: None,
                grid: [1, 1, 1],
                block: [block, 1, 1],
                params,
                symbols: &[],
                constants: &[],
                cluster: [1, 1, 1],
                shared: None,
            },
            1 << 20,
        )
        .map(|(c, _)| (c.targets, c.divergent))
    }

    const COUNTED: &str = "\t/*0000*/ LDC R0, c[0x0][0x210] ;\n\
        \t/*0010*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
        .L_x_0:\n\
        \t/*0020*/ IADD3 R2, R2, 0x1, RZ ;\n\
        \t/*0030*/ ISETP.GE.AND P0, PT, R2, R0, PT ;\n\
        \t/*0040*/ @!P0 BRA `(.L_x_0) ;\n\
        \t/*0050*/ EXIT ;\n";

    #[test]
    fn a_counted_loop_runs_its_parameter_times_per_warp() {
        // i = 1..=n: the back branch runs n times per warp (taken n - 1 times), never split
        let f = flow(COUNTED);
        assert_eq!(run(&f, 64, &5u32.to_le_bytes()), Ok((10, 0)));
        assert_eq!(run(&f, 32, &1u32.to_le_bytes()), Ok((1, 0)));
        // a partial warp is one warp
        assert_eq!(run(&f, 40, &3u32.to_le_bytes()), Ok((6, 0)));
    }

    #[test]
    fn lanes_leaving_a_loop_at_different_iterations_split_the_warp() {
        // t = tid & 3: 8 lanes each leave after 0, 1, 2, 3 iterations. The exit test runs for
        // 32, 24, 16 and 8 lanes (split the first three times, all leave the fourth); the jump
        // back runs three times for the lanes that stay: 7 targets, 3 divergent
        let f = flow(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ LOP3.LUT R0, R0, 0x3, RZ, 0xc0, !PT ;\n\
             \t/*0020*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
             \t/*0030*/ BSSY B0, `(.L_x_1) ;\n\
             .L_x_0:\n\
             \t/*0040*/ ISETP.GE.AND P0, PT, R2, R0, PT ;\n\
             \t/*0050*/ @P0 BRA `(.L_x_1) ;\n\
             \t/*0060*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0070*/ BRA `(.L_x_0) ;\n\
             .L_x_1:\n\
             \t/*0080*/ BSYNC B0 ;\n\
             \t/*0090*/ EXIT ;\n",
        );
        assert_eq!(run(&f, 32, &[]), Ok((7, 3)));
    }

    /// A probe loop (hashq's `lookupQuad`): lanes `tid & 3` leave after that many iterations to a
    /// block holding a global load, `join` before the load or after it.
    fn leavers_load(join_first: bool) -> FlowCounts {
        let (before, after) = if join_first {
            ("\t/*0090*/ BSYNC B0 ;\n", "\t/*00b0*/ NOP ;\n")
        } else {
            ("\t/*0090*/ NOP ;\n", "\t/*00b0*/ BSYNC B0 ;\n")
        };
        let body = format!(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ LOP3.LUT R0, R0, 0x3, RZ, 0xc0, !PT ;\n\
             \t/*0020*/ LDC.64 R4, c[0x0][0x210] ;\n\
             \t/*0030*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
             \t/*0040*/ BSSY B0, `(.L_x_1) ;\n\
             .L_x_0:\n\
             \t/*0050*/ ISETP.GE.AND P0, PT, R2, R0, PT ;\n\
             \t/*0060*/ @P0 BRA `(.L_x_1) ;\n\
             \t/*0070*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0080*/ BRA `(.L_x_0) ;\n\
             .L_x_1:\n{before}\
             \t/*00a0*/ LDG.E R3, desc[UR4][R4.64] ;\n{after}\
             \t/*00c0*/ EXIT ;\n"
        );
        global_flow(&body)
    }

    /// One warp of `body` with its global accesses counted, `c[0x0][0x210]` pointing at 64 bytes.
    fn global_flow(body: &str) -> FlowCounts {
        one_warp(body).0
    }

    /// One warp of `body` (SASS) with its global accesses counted, `c[0x0][0x210]` pointing at
    /// 64 zero bytes, and the flow that counted them.
    pub(super) fn one_warp(body: &str) -> (FlowCounts, MachineFlow) {
        let inp = 0x1_0000_0000u64;
        let global = warpscope_emu::mem::Global::new(vec![(inp, vec![0; 64])]);
        let params = inp.to_le_bytes();
        let launch = FlowLaunch {
            global: Some(&global),
            grid: [1, 1, 1],
            block: [32, 1, 1],
            params: &params,
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        };
        let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{body}");
        let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
        let f = MachineFlow::counting_globals(&ks[0]);
        (f.run(&launch, 1 << 20).unwrap().0, f)
    }

    /// A loop that lanes `tid & 3` leave after that many iterations; the leavers reach the loop's
    /// `BSYNC` through two `BRA`s of their own (a debug build's `break`) or by the loop test's
    /// own branch (an optimised build's).
    fn leavers_through(branches: bool) -> FlowCounts {
        let (test, leave) = if branches {
            (
                "\t/*0050*/ @P0 BRA `(.L_x_3) ;\n",
                "\t/*0060*/ BRA `(.L_x_2) ;\n.L_x_2:\n\t/*0070*/ BRA `(.L_x_1) ;\n",
            )
        } else {
            (
                "\t/*0050*/ @!P0 BRA `(.L_x_1) ;\n",
                "\t/*0060*/ NOP ;\n\t/*0070*/ NOP ;\n",
            )
        };
        let body = format!(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ LOP3.LUT R0, R0, 0x3, RZ, 0xc0, !PT ;\n\
             \t/*0020*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
             \t/*0030*/ BSSY B0, `(.L_x_1) ;\n\
             .L_x_0:\n\
             \t/*0040*/ ISETP.LT.AND P0, PT, R2, R0, PT ;\n{test}{leave}\
             .L_x_3:\n\
             \t/*0080*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0090*/ BRA `(.L_x_0) ;\n\
             .L_x_1:\n\
             \t/*00a0*/ BSYNC B0 ;\n\
             \t/*00b0*/ EXIT ;\n"
        );
        global_flow(&body)
    }

    #[test]
    fn leavers_running_branches_of_their_own_to_the_join_may_merge() {
        // the lanes leaving on iterations 1 and 2 run the two BRAs of the `break` as the lanes
        // that left before them did, which already wait at the BSYNC: had the GPU run the lanes
        // staying in the loop first, the two groups would have run the BRAs together (the H200:
        // heaptopk_G's `siftDown`, 16 such groups fewer than the flow at its `break`)
        let g = leavers_through(true);
        assert_eq!(g.may_merge_exit, 2);
        // each group apart: the loop test 4 times (3 of them divergent), the two BRAs once a
        // leaving group (4), the loop's back branch 3 times
        assert_eq!((g.targets, g.divergent), (4 + 8 + 3, 3));
        // leaving by the loop test's own branch straight to the BSYNC: no branch of their own
        let o = leavers_through(false);
        assert_eq!(o.may_merge_exit, 0);
        assert_eq!((o.targets, o.divergent), (4 + 3, 3));
    }

    #[test]
    fn leavers_reaching_a_global_load_apart_may_merge() {
        // each iteration's leavers run the load as a group of their own (4 requests), while the
        // leavers of the other iterations stand at the block's start: the GPU may run some of
        // them together (the H200: 733 and 738 executions of lookupQuad's `vals` load in its two
        // kinds of profiling pass, 739 groups apart), so the launch is marked
        let apart = leavers_load(false);
        assert_eq!(apart.global.map(|g| g.ld_requests), Some(4));
        assert!(apart.may_merge_global > 0);
        // a convergence barrier before the load joins them: one request, nothing to merge
        let joined = leavers_load(true);
        assert_eq!(joined.global.map(|g| g.ld_requests), Some(1));
        assert_eq!(joined.may_merge_global, 0);
        // lanes two different branches sent to the load (odd lanes, then even lanes with bit 1):
        // the H200 ran such groups apart (mergep's `mergePass`), as the flow does
        let two = global_flow(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n\
             \t/*0020*/ LOP3.LUT P1, RZ, R0, 0x2, RZ, 0xc0, !PT ;\n\
             \t/*0030*/ LDC.64 R4, c[0x0][0x210] ;\n\
             \t/*0040*/ BSSY B0, `(.L_x_2) ;\n\
             \t/*0050*/ @P0 BRA `(.L_x_1) ;\n\
             \t/*0060*/ @P1 BRA `(.L_x_1) ;\n\
             \t/*0070*/ BRA `(.L_x_2) ;\n\
             .L_x_1:\n\
             \t/*0080*/ NOP ;\n\
             \t/*0090*/ LDG.E R3, desc[UR4][R4.64] ;\n\
             .L_x_2:\n\
             \t/*00a0*/ BSYNC B0 ;\n\
             \t/*00b0*/ EXIT ;\n",
        );
        assert_eq!(two.global.map(|g| g.ld_requests), Some(2));
        assert_eq!(two.may_merge_global, 0);
    }

    #[test]
    fn groups_waiting_at_one_bsync_for_barriers_of_their_own_go_on_apart() {
        // Lanes 0-15 and 16-31 part with no join of their own and both run the same region of B0
        // (ptxas's shared code, bench10/raytrace.cu's `render`), each splitting inside it by lane
        // parity; all four parts end up waiting at the one BSYNC B0. Each group's B0 holds its own
        // 16 lanes: the H200 releases each group apart, and the code after the BSYNC runs once a
        // group (raytrace's second frame: every instruction's executions equal the H200's source
        // page, calibration/run/bench10/README.md; releasing all the lanes waiting there at
        // once, as one group, ran 33 branch targets fewer). Counted: the parting branch, the
        // split in each group's region and the branch after the BSYNC once a group, each
        // divergent: 5 targets, 5 divergent (at once: 4 and 4)
        let f = flow(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ BSSY B1, `(.L_x_3) ;\n\
             \t/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n\
             \t/*0030*/ LOP3.LUT P1, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n\
             \t/*0040*/ @P0 BRA `(.L_x_1) ;\n\
             \t/*0050*/ IADD3 R3, R3, 0x1, RZ ;\n\
             \t/*0060*/ IADD3 R3, R3, 0x1, RZ ;\n\
             .L_x_1:\n\
             \t/*0070*/ BSSY B0, `(.L_x_2) ;\n\
             \t/*0080*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0090*/ @P1 BRA `(.L_x_2) ;\n\
             \t/*00a0*/ IADD3 R2, R2, 0x1, RZ ;\n\
             .L_x_2:\n\
             \t/*00b0*/ BSYNC B0 ;\n\
             \t/*00c0*/ @P1 BRA `(.L_x_3) ;\n\
             .L_x_3:\n\
             \t/*00d0*/ BSYNC B1 ;\n\
             \t/*00e0*/ EXIT ;\n",
        );
        assert_eq!(run(&f, 32, &[]), Ok((5, 5)));
    }

    #[test]
    fn a_second_group_starting_a_barrier_does_not_take_the_first_groups_lanes() {
        // Lanes 16-31 and 0-15 split with no join but the outer B1 (ptxas gives a branch whose
        // sides share code no BSSY of its own: bench10/raytrace.cu). Lanes 0-15 run on first,
        // start B0 and split inside its region; lanes 16-31, at a lower address, then start B0
        // for their own region, pass its BSYNC and wait at B1's. Each lane's B0 holds the lanes
        // it started it with, so lanes 0-15 complete their own B0 (one barrier for the warp,
        // last written by lanes 16-31, left them waiting for those forever). Counted: the two
        // splits, 2 targets and 1 divergent each (the unguarded jumps count none)
        let f = flow(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ BSSY B1, `(.L_x_3) ;\n\
             \t/*0020*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n\
             \t/*0030*/ @P0 BRA `(.L_x_0) ;\n\
             \t/*0040*/ BRA `(.L_x_1) ;\n\
             .L_x_0:\n\
             \t/*0050*/ BSSY B0, `(.L_x_4) ;\n\
             \t/*0060*/ IADD3 R3, R3, 0x1, RZ ;\n\
             .L_x_4:\n\
             \t/*0070*/ BSYNC B0 ;\n\
             \t/*0080*/ BRA `(.L_x_3) ;\n\
             .L_x_1:\n\
             \t/*0090*/ BSSY B0, `(.L_x_2) ;\n\
             \t/*00a0*/ LOP3.LUT P1, RZ, R0, 0x1, RZ, 0xc0, !PT ;\n\
             \t/*00b0*/ @P1 BRA `(.L_x_2) ;\n\
             \t/*00c0*/ IADD3 R2, R2, 0x1, RZ ;\n\
             .L_x_2:\n\
             \t/*00d0*/ BSYNC B0 ;\n\
             .L_x_3:\n\
             \t/*00e0*/ BSYNC B1 ;\n\
             \t/*00f0*/ EXIT ;\n",
        );
        assert_eq!(run(&f, 32, &[]), Ok((4, 2)));
        let launch = FlowLaunch {
            global: None,
            grid: [1, 1, 1],
            block: [32, 1, 1],
            params: &[],
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        };
        // the second group started B0 with the first inside it: the counters are estimates
        let (c, _) = f.run(&launch, 1 << 20).unwrap();
        assert_eq!(c.overlapping_barriers, 1);
        // one group at a time inside a barrier is no overlap
        let half = FlowLaunch {
            block: [16, 1, 1],
            ..launch
        };
        assert_eq!(f.run(&half, 1 << 20).unwrap().0.overlapping_barriers, 0);
    }

    #[test]
    fn bytes_merged_into_a_register_never_written_are_known() {
        // a flag in the low byte of R13, merged by PRMT into a register the launch never wrote
        // (its high bytes are whatever the GPU left, and nothing reads them), then tested by a
        // LOP3 on that byte: followed as when R13 was zeroed first
        let body = |init: &str| {
            format!(
                "\t/*0000*/ S2R R0, SR_TID.X ;\n\
                 {init}\
                 \t/*0020*/ LOP3.LUT R12, R0, 0x1, RZ, 0xc0, !PT ;\n\
                 \t/*0030*/ PRMT R13, R12, 0x7610, R13 ;\n\
                 \t/*0040*/ LOP3.LUT P0, RZ, R13, 0xff, RZ, 0xc0, !PT ;\n\
                 \t/*0050*/ @P0 BRA `(.L_x_0) ;\n\
                 \t/*0060*/ IADD3 R2, R2, 0x1, RZ ;\n\
                 .L_x_0:\n\
                 \t/*0070*/ EXIT ;\n"
            )
        };
        let zeroed = run(
            &flow(&body("\t/*0010*/ IMAD.MOV.U32 R13, RZ, RZ, RZ ;\n")),
            32,
            &[],
        );
        assert!(matches!(zeroed, Ok((_, d)) if d > 0), "{zeroed:?}");
        assert_eq!(run(&flow(&body("")), 32, &[]), zeroed);
    }

    #[test]
    fn a_branch_on_shared_memory_stops_with_the_instruction() {
        let f = flow(
            "\t/*0000*/ LDS R0, [RZ] ;\n\
             \t/*0010*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n\
             \t/*0020*/ @P0 BRA `(.L_x_0) ;\n\
             .L_x_0:\n\
             \t/*0030*/ EXIT ;\n",
        );
        let e = run(&f, 32, &[]).unwrap_err();
        assert!(e.contains("/*0020*/") && e.contains("unknown"), "{e}");
    }

    /// A texture read writes both its destinations: `TEX.LL R22, R6, ...` (calibration/run/bench15
    /// volray's `tex1D<float4>`) x, y to R6, R7 and z, w to R22, R23; with a channel mask of 0x2
    /// only the one channel, in the second destination. The flow knew none of them, yet kept what
    /// R7 and R23 held before (only R22, the first destination's first register, was forgotten),
    /// so a branch on them counted on stale values.
    #[test]
    fn a_branch_on_any_channel_a_texture_read_wrote_stops() {
        let body = |tex: &str, reg: &str| {
            format!(
                "\t/*0000*/ MOV R6, 0x1 ;\n\
                 \t/*0010*/ MOV R7, 0x1 ;\n\
                 \t/*0020*/ MOV R22, 0x1 ;\n\
                 \t/*0030*/ MOV R23, 0x1 ;\n\
                 \t/*0040*/ MOV R25, 0x1 ;\n\
                 \t/*0050*/ MOV R26, RZ ;\n\
                 \t/*0060*/ MOV R27, RZ ;\n\
                 \t/*0070*/ {tex} ;\n\
                 \t/*0080*/ ISETP.NE.AND P0, PT, {reg}, RZ, PT ;\n\
                 \t/*0090*/ @P0 BRA `(.L_x_0) ;\n\
                 .L_x_0:\n\
                 \t/*00a0*/ EXIT ;\n"
            )
        };
        let four = "TEX.LL R22, R6, R26, R28, UR4, 0x0, 2D";
        for reg in ["R6", "R7", "R22", "R23"] {
            let e = run(&flow(&body(four, reg)), 32, &[]).unwrap_err();
            assert!(e.contains("/*0090*/") && e.contains("unknown"), "{reg}: {e}");
        }
        let one = "TEX.LL RZ, R24, R26, R28, UR4, 0x0, 2D, 0x2";
        let e = run(&flow(&body(one, "R24")), 32, &[]).unwrap_err();
        assert!(e.contains("/*0090*/") && e.contains("unknown"), "{e}");
        // the register past the one channel is not written: its value stands
        assert_eq!(run(&flow(&body(one, "R25")), 32, &[]), Ok((1, 0)));
        // a fetch by integer coordinates (`TLD`) and a gather (`TLD4`) alike
        for tex in [
            "TLD.LZ R22, R6, R26, UR4, 0x0, 1D",
            "TLD4.G R22, R6, R26, UR4, 0x0, 2D",
        ] {
            for reg in ["R7", "R23"] {
                let e = run(&flow(&body(tex, reg)), 32, &[]).unwrap_err();
                assert!(e.contains("unknown"), "{tex} {reg}: {e}");
            }
        }
    }

    /// A branch on a texture read's channel is followed: each lane samples the launch's texture
    /// object (the handle a parameter) at its coordinates, as the emulation samples it
    /// (calibration/run/bench15 volray's `tex1D` is `TEX.LL RZ, R24, R26, ..., 2D, 0x1` on a
    /// 1-D array). The flow stopped on such a branch ("unknown") before, or, where the channel's
    /// register held an earlier value, counted on that.
    #[test]
    fn a_branch_on_a_texture_read_is_followed() {
        use warpscope_emu::tex::{Address, Format, Texture};
        let f = flow(
            "\t/*0000*/ S2R R0, SR_TID.X ;\n\
             \t/*0010*/ I2F R26, R0 ;\n\
             \t/*0020*/ MOV R27, RZ ;\n\
             \t/*0030*/ ULDC UR4, c[0x0][0x210] ;\n\
             \t/*0040*/ TEX.LL RZ, R24, R26, R28, UR4, 0x0, 2D, 0x1 ;\n\
             \t/*0050*/ FSETP.GT.AND P0, PT, R24, 0.5, PT ;\n\
             \t/*0060*/ @P0 BRA `(.L_x_0) ;\n\
             .L_x_0:\n\
             \t/*0070*/ EXIT ;\n",
        );
        let texels = |v: [f32; 4]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let run_on = |v: [f32; 4]| {
            let mut g = warpscope_emu::mem::Global::new(vec![(0x1000, texels(v))]);
            g.insert_texture(
                7,
                Texture {
                    base: 0x1000,
                    pitch: 16,
                    size: [4, 1, 1],
                    channels: 1,
                    bits: 32,
                    format: Format::Float,
                    normalized_read: false,
                    address: [Address::Clamp; 3],
                    linear: false,
                    normalized: false,
                },
            );
            // the parameters from c[0x0][0x210]: the handle first
            let params = 7u64.to_le_bytes();
            f.run(
                &FlowLaunch {
                    global: Some(&g),
                    grid: [1, 1, 1],
                    block: [32, 1, 1],
                    params: &params,
                    symbols: &[],
                    constants: &[],
                    cluster: [1, 1, 1],
                    shared: None,
                },
                1 << 20,
            )
            .map(|(c, _)| (c.targets, c.divergent))
        };
        // texels 0, 1, 0, 1 at x = lane (lanes past 3 clamped to the last): lanes 0 and 2 stay
        assert_eq!(run_on([0.0, 1.0, 0.0, 1.0]), Ok((1, 1)));
        // all zero: no lane jumps
        assert_eq!(run_on([0.0; 4]), Ok((1, 0)));
        // all one: every lane jumps
        assert_eq!(run_on([1.0; 4]), Ok((1, 0)));
    }

    #[test]
    fn ptxas_constants_and_unsigned_division_follow_the_hardware_formulas() {
        // 32 (warpSize in reduce7) written as the half pair (0, 2^-19), 1.0f as (1.875, 0)
        assert_eq!(half_bits("1.9073486328125e-06"), Some(32));
        assert_eq!(half_bits("1.875"), Some(0x3f80));
        assert_eq!(half_bits("0.1"), None);
        // n / d by ptxas's sequence (I2F.U32.RP, MUFU.RCP, the 0x0ffffffe bias, F2I, IMAD.HI with
        // a 64-bit addend, one correction step): the quotient loops that many times
        let f = flow(
            "\t/*0000*/ LDC R9, c[0x0][0x214] ;\n\
             \t/*0010*/ LDC R8, c[0x0][0x210] ;\n\
             \t/*0020*/ I2F.U32.RP R0, R9 ;\n\
             \t/*0030*/ MUFU.RCP R0, R0 ;\n\
             \t/*0040*/ VIADD R2, R0, 0xffffffe ;\n\
             \t/*0050*/ F2I.FTZ.U32.TRUNC.NTZ R3, R2 ;\n\
             \t/*0060*/ IMAD.MOV R4, RZ, RZ, -R3 ;\n\
             \t/*0070*/ IMAD R5, R4, R9, RZ ;\n\
             \t/*0080*/ IMAD.HI.U32 R3, R3, R5, R2 ;\n\
             \t/*0090*/ IMAD.HI.U32 R3, R3, R8, RZ ;\n\
             \t/*00a0*/ IMAD.MOV R5, RZ, RZ, -R3 ;\n\
             \t/*00b0*/ IMAD R5, R9, R5, R8 ;\n\
             \t/*00c0*/ ISETP.GE.U32.AND P0, PT, R5, R9, PT ;\n\
             \t/*00d0*/ @P0 IADD3 R5, R5, -R9, RZ ;\n\
             \t/*00e0*/ @P0 VIADD R3, R3, 0x1 ;\n\
             \t/*00f0*/ ISETP.GE.U32.AND P1, PT, R5, R9, PT ;\n\
             \t/*0100*/ @P1 VIADD R3, R3, 0x1 ;\n\
             \t/*0110*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
             .L_x_0:\n\
             \t/*0120*/ IADD3 R2, R2, 0x1, RZ ;\n\
             \t/*0130*/ ISETP.GE.U32.AND P0, PT, R2, R3, PT ;\n\
             \t/*0140*/ @!P0 BRA `(.L_x_0) ;\n\
             \t/*0150*/ EXIT ;\n",
        );
        for (n, d) in [
            (1000u32, 7u32),
            (4096, 480),
            (3001, 3),
            (u32::MAX, 65537),
            (100, 100),
        ] {
            let mut p = n.to_le_bytes().to_vec();
            p.extend(d.to_le_bytes());
            let q = u64::from((n / d).max(1));
            assert_eq!(run(&f, 32, &p), Ok((q, 0)), "{n} / {d}");
        }
    }

    /// `in[tid & ~31]` (the warp's trip count) loaded once before the loop, as ptxas hoists it,
    /// with `in[tid]` and a byte of `in[tid & ~31]`; then `out[tid] = in[tid]`.
    const HOISTED: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
        \t/*0010*/ LDC.64 R2, c[0x0][0x210] ;\n\
        \t/*0020*/ IMAD.WIDE.U32 R4, R0, 0x4, R2 ;\n\
        \t/*0030*/ LOP3.LUT R6, R0, 0xffffffe0, RZ, 0xc0, !PT ;\n\
        \t/*0040*/ IMAD.WIDE.U32 R6, R6, 0x4, R2 ;\n\
        \t/*0050*/ LDG.E R8, desc[UR4][R6.64] ;\n\
        \t/*0060*/ LDG.E R9, desc[UR4][R4.64] ;\n\
        \t/*0070*/ LDG.E.U8 R11, desc[UR4][R6.64+0x1] ;\n\
        \t/*0080*/ ISETP.GE.AND P0, PT, RZ, R8, PT ;\n\
        \t/*0090*/ @P0 BRA `(.L_x_1) ;\n\
        \t/*00a0*/ IMAD.MOV.U32 R10, RZ, RZ, RZ ;\n\
        .L_x_0:\n\
        \t/*00b0*/ IADD3 R10, R10, 0x1, RZ ;\n\
        \t/*00c0*/ ISETP.GE.AND P1, PT, R10, R8, PT ;\n\
        \t/*00d0*/ @!P1 BRA `(.L_x_0) ;\n\
        .L_x_1:\n\
        \t/*00e0*/ LDC.64 R2, c[0x0][0x218] ;\n\
        \t/*00f0*/ IMAD.WIDE.U32 R4, R0, 0x4, R2 ;\n\
        \t/*0100*/ STG.E desc[UR4][R4.64], R9 ;\n\
        \t/*0110*/ EXIT ;\n";

    #[test]
    fn the_machine_codes_own_global_accesses_are_counted() {
        let (inp, out) = (0x1_0000_0000u64, 0x1_0000_1000u64);
        // warp 0 loops 3 times, warp 1 not at all
        let mut words = vec![0u32; 64];
        words[0] = 3;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let global = warpscope_emu::mem::Global::new(vec![(inp, bytes), (out, vec![0; 256])]);
        let mut params = inp.to_le_bytes().to_vec();
        params.extend(out.to_le_bytes());
        let launch = FlowLaunch {
            global: Some(&global),
            grid: [1, 1, 1],
            block: [64, 1, 1],
            params: &params,
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        };
        let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{HOISTED}");
        let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
        let (c, _) = MachineFlow::counting_globals(&ks[0])
            .run(&launch, 1 << 20)
            .unwrap();
        // per warp: the trip count (one sector), in[tid] (128 bytes: four sectors), the byte
        // (one sector); one store of 128 bytes
        let g = c.global.expect("counted");
        assert_eq!(
            (g.ld_requests, g.ld_sectors, g.ld_bytes),
            (6, 12, 2 * (128 + 128 + 32))
        );
        assert_eq!((g.st_requests, g.st_sectors, g.st_bytes), (2, 8, 256));
        // warp 0: the skip test and three back branches; warp 1: the skip test
        assert_eq!((c.targets, c.divergent), (5, 0));
        // 40 blocks (run in parallel chunks): each the same, the sums exact
        let grid = FlowLaunch {
            grid: [8, 5, 1],
            ..launch.clone()
        };
        let (c40, _) = MachineFlow::counting_globals(&ks[0]).run(&grid, 1 << 20).unwrap();
        let g40 = c40.global.expect("counted");
        assert_eq!(
            (g40.ld_requests, g40.ld_sectors, g40.st_requests, g40.st_sectors),
            (240, 480, 80, 320)
        );
        assert_eq!((c40.targets, c40.divergent), (200, 0));
        // not asked for: not counted
        let (c, _) = MachineFlow::new(&ks[0]).run(&launch, 1 << 20).unwrap();
        assert_eq!((c.global, c.global_why), (None, None));
        // an address the run cannot know (from shared memory): not counted, with the reason
        // (the branches still followed)
        let unknown = HOISTED.replace(
            "IMAD.WIDE.U32 R4, R0, 0x4, R2 ;\n\t/*0030*/",
            "LDS R4, [RZ] ;\n\t/*0030*/",
        );
        assert_ne!(unknown, HOISTED);
        let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{unknown}");
        let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
        let (c, _) = MachineFlow::counting_globals(&ks[0])
            .run(&launch, 1 << 20)
            .unwrap();
        assert_eq!(c.global, None);
        assert_eq!(c.global_why, Some("a global access's address is not known"));
        assert_eq!((c.targets, c.divergent), (5, 0));
    }

    /// Two warps: each stores its lane's word (conflict-free), loads at twice the stride (two
    /// ways), and warp 0 loads 8 bytes a lane (256 bytes: two wavefronts without a conflict).
    const SHARED_COUNTED: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
        \t/*0010*/ SHF.L.U32 R1, R0, 0x2, RZ ;\n\
        \t/*0020*/ STS [R1+0x400], R0 ;\n\
        \t/*0030*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n\
        \t/*0040*/ SHF.L.U32 R2, R0, 0x3, RZ ;\n\
        \t/*0050*/ LDS R3, [R2+0x400] ;\n\
        \t/*0060*/ ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ;\n\
        \t/*0070*/ @P0 EXIT ;\n\
        \t/*0080*/ LDS.64 R4, [R2+0x400] ;\n\
        \t/*0090*/ EXIT ;\n";

    #[test]
    fn the_machine_codes_own_shared_accesses_are_counted() {
        let sm90 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
        let launch = FlowLaunch {
            global: None,
            grid: [1, 1, 1],
            block: [64, 1, 1],
            params: &[],
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        };
        let kernel = |body: &str| {
            let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{body}");
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        let k = kernel(SHARED_COUNTED);
        let (c, _) = MachineFlow::counting(&k, false, Some(sm90))
            .run(&launch, 1 << 20)
            .unwrap();
        let sh = c.shared.expect("counted");
        assert_eq!(
            (sh.ld_instructions, sh.ld_wavefronts, sh.ld_ideal),
            (3, 2 * 2 + 2, 2 + 2)
        );
        assert_eq!((sh.st_instructions, sh.st_wavefronts, sh.st_ideal), (2, 2, 2));
        // three blocks, in parallel chunks: three times the counts
        let (c3, _) = MachineFlow::counting(&k, false, Some(sm90))
            .run(
                &FlowLaunch {
                    grid: [3, 1, 1],
                    ..launch.clone()
                },
                1 << 20,
            )
            .unwrap();
        assert_eq!(c3.shared.unwrap().ld_wavefronts, 18);
        // not asked for: not counted
        let (c, _) = MachineFlow::new(&k).run(&launch, 1 << 20).unwrap();
        assert_eq!((c.shared, c.shared_why), (None, None));
        // an address from global memory the run does not have: not counted, with the reason
        let unknown = SHARED_COUNTED.replace("SHF.L.U32 R2, R0, 0x3, RZ ;", "LDG.E R2, desc[UR4][R6.64] ;");
        assert_ne!(unknown, SHARED_COUNTED);
        let (c, _) = MachineFlow::counting(&kernel(&unknown), false, Some(sm90))
            .run(&launch, 1 << 20)
            .unwrap();
        assert_eq!(c.shared, None);
        assert_eq!(c.shared_why, Some("a shared access's address is not known"));
        // ldmatrix has its own rules: not counted here
        let ldsm = SHARED_COUNTED.replace("LDS.64 R4, [R2+0x400] ;", "LDSM.16.M88.4 R4, [R2+0x400] ;");
        let (c, _) = MachineFlow::counting(&kernel(&ldsm), false, Some(sm90))
            .run(&launch, 1 << 20)
            .unwrap();
        assert_eq!(c.shared, None);
        assert!(
            c.shared_why.is_some_and(|w| w.contains("ldmatrix")),
            "{:?}",
            c.shared_why
        );
    }

    #[test]
    fn an_exclusive_warp_sync_runs_each_mask_group_alone() {
        // keys tid & 3: four groups of eight lanes. Each group runs the vote and the branch on its
        // own (the vote's mask is its match mask: the branch is not taken): 4 targets. The sync
        // counts k - 1 = 3 targets, all divergent (H100, calibration/run/partition.cu).
        let body = |key: &str| {
            format!(
                "\t/*0000*/ S2R R0, SR_TID.X ;\n\
                 \t/*0010*/ LOP3.LUT R1, R0, {key}, RZ, 0xc0, !PT ;\n\
                 \t/*0020*/ MATCH.ANY R4, R1 ;\n\
                 \t/*0030*/ BSSY B0, `(.L_x_0) ;\n\
                 \t/*0040*/ WARPSYNC.EXCLUSIVE R4 ;\n\
                 \t/*0050*/ VOTE.ANY R5, PT, PT ;\n\
                 \t/*0060*/ ISETP.NE.AND P0, PT, R5, R4, PT ;\n\
                 \t/*0070*/ @P0 BRA `(.L_x_0) ;\n\
                 \t/*0080*/ NOP ;\n\
                 .L_x_0:\n\
                 \t/*0090*/ BSYNC B0 ;\n\
                 \t/*00a0*/ EXIT ;\n"
            )
        };
        assert_eq!(run(&flow(&body("0x3")), 32, &[]), Ok((3 + 4, 3)));
        // one group: one uniform target, and the branch once
        assert_eq!(run(&flow(&body("0x0")), 32, &[]), Ok((1 + 1, 0)));
    }
}

#[cfg(test)]
mod values_tests;
