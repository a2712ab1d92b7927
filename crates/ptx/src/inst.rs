//! The compact lowered instruction form executed by the emulator.
//!
//! Every source operand is a register row index ([`R`]): immediates, symbol addresses and special
//! registers that are constant per warp are turned into pre-initialised rows at lowering time (see
//! [`RowInit`]), so the executor never branches on operand kinds.

/// A register row index (one row = one 64-bit value per lane).
pub type R = u16;
/// A predicate index (one 32-bit lane mask per predicate).
pub type P = u16;
/// "No register": used for optional destinations.
pub const NO_REG: R = u16::MAX;

/// A predicate source, possibly negated. `idx == PRED_TRUE` is the constant true predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PSrc {
    /// Predicate index.
    pub idx: P,
    /// Negated (`!%p`).
    pub neg: bool,
}

/// The always-true predicate index.
pub const PRED_TRUE: P = u16::MAX;

impl PSrc {
    /// The always-true predicate.
    pub const TRUE: PSrc = PSrc {
        idx: PRED_TRUE,
        neg: false,
    };
}

/// Scalar type of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `.u8`/`.b8`
    U8,
    /// `.u16`/`.b16`
    U16,
    /// `.u32`/`.b32`
    U32,
    /// `.u64`/`.b64`
    U64,
    /// `.s8`
    S8,
    /// `.s16`
    S16,
    /// `.s32`
    S32,
    /// `.s64`
    S64,
    /// `.f16` (IEEE half: cvt, add/sub/mul/fma, min/max, neg/abs, setp)
    F16,
    /// `.bf16` (bfloat16: same operations as `.f16`)
    BF16,
    /// `.f32`
    F32,
    /// `.f64`
    F64,
    /// `.pred`
    Pred,
}

impl Ty {
    /// Parses a type name without the dot.
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "u8" | "b8" => Ty::U8,
            "u16" | "b16" => Ty::U16,
            "u32" | "b32" => Ty::U32,
            "u64" | "b64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f16" => Ty::F16,
            "bf16" => Ty::BF16,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }
    /// Size in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            Ty::U8 | Ty::S8 | Ty::Pred => 1,
            Ty::U16 | Ty::S16 | Ty::F16 | Ty::BF16 => 2,
            Ty::U32 | Ty::S32 | Ty::F32 => 4,
            Ty::U64 | Ty::S64 | Ty::F64 => 8,
        }
    }
    /// Signed integer type.
    pub fn signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }
    /// Floating-point type.
    pub fn float(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64)
    }
}

/// Binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    AddSat,
    Sub,
    SubSat,
    MulLo,
    MulHi,
    /// `mul.wide`: result type is twice the source width.
    MulWide,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    CopySign,
    /// `mul24.lo`
    Mul24Lo,
    /// `mul.sat` of a float: the product clamped to [+0, 1], NaN to +0
    MulSat,
    /// `min.NaN` of a float: a NaN operand gives the canonical NaN
    MinNaN,
    /// `max.NaN` of a float: a NaN operand gives the canonical NaN
    MaxNaN,
    /// `div.full.f32`: ptxas's sequence (both operands scaled by 1/4 where |b| > 2^126 and by
    /// 2^24 where |b| < 2^-126, then `MUFU.RCP` of b times a)
    DivFull,
    /// `div.full.ftz.f32`: the 1/4 scaling alone, flushing multiplies
    DivFullFtz,
    /// `div.approx.f32`: the 2^24 scaling alone
    DivApprox,
    /// `div.approx.ftz.f32`: `MUFU.RCP` of b times a, flushing
    DivApproxFtz,
    /// `bmsk.clamp.b32`: `b` one bits from bit `a` up, both clamped to 32
    BmskClamp,
    /// `bmsk.wrap.b32`: `b` one bits from bit `a` up, both taken modulo 32
    BmskWrap,
    /// `add.ftz.f32`: subnormal operands and result flushed to zero of the same sign
    AddFtz,
    /// `add.sat.ftz.f32`
    AddSatFtz,
    /// `sub.ftz.f32`
    SubFtz,
    /// `sub.sat.ftz.f32`
    SubSatFtz,
    /// `mul.ftz.f32`
    MulFtz,
    /// `mul.sat.ftz.f32`
    MulSatFtz,
    /// `min.ftz.f32`
    MinFtz,
    /// `max.ftz.f32`
    MaxFtz,
    /// `min.ftz.NaN.f32`
    MinNaNFtz,
    /// `max.ftz.NaN.f32`
    MaxNaNFtz,
}

impl BinOp {
    /// The `.ftz` form of an `.f32` operation (`self` where `.ftz` changes nothing or is not
    /// modelled).
    pub fn with_ftz(self) -> Self {
        match self {
            BinOp::Add => BinOp::AddFtz,
            BinOp::AddSat => BinOp::AddSatFtz,
            BinOp::Sub => BinOp::SubFtz,
            BinOp::SubSat => BinOp::SubSatFtz,
            BinOp::MulLo => BinOp::MulFtz,
            BinOp::MulSat => BinOp::MulSatFtz,
            BinOp::Min => BinOp::MinFtz,
            BinOp::Max => BinOp::MaxFtz,
            BinOp::MinNaN => BinOp::MinNaNFtz,
            BinOp::MaxNaN => BinOp::MaxNaNFtz,
            o => o,
        }
    }

    /// The operation without `.ftz` of an `.ftz` form made by [`BinOp::with_ftz`].
    pub fn without_ftz(self) -> Option<Self> {
        Some(match self {
            BinOp::AddFtz => BinOp::Add,
            BinOp::AddSatFtz => BinOp::AddSat,
            BinOp::SubFtz => BinOp::Sub,
            BinOp::SubSatFtz => BinOp::SubSat,
            BinOp::MulFtz => BinOp::MulLo,
            BinOp::MulSatFtz => BinOp::MulSat,
            BinOp::MinFtz => BinOp::Min,
            BinOp::MaxFtz => BinOp::Max,
            BinOp::MinNaNFtz => BinOp::MinNaN,
            BinOp::MaxNaNFtz => BinOp::MaxNaN,
            _ => return None,
        })
    }
}

/// Unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnOp {
    Mov,
    Neg,
    Abs,
    Not,
    Cnot,
    Popc,
    Clz,
    Brev,
    Rcp,
    /// `rcp.approx.ftz.f32`: `MUFU.RCP` (the H200's table, calibration/mufu/)
    RcpApproxFtz,
    /// `rcp.approx.f32`: `MUFU.RCP` between ptxas's scalings of tiny and huge inputs
    RcpApprox,
    Sqrt,
    Rsqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
    /// `sqrt.approx.f32`: `MUFU.SQRT` between ptxas's scalings of subnormal inputs
    SqrtApprox,
    /// `sqrt.approx.ftz.f32`: `MUFU.SQRT`
    SqrtApproxFtz,
    /// `rsqrt.approx.ftz.f32`: `MUFU.RSQ`
    RsqrtFtz,
    /// `ex2.approx.ftz.f32`: `MUFU.EX2`
    Ex2Ftz,
    /// `lg2.approx.ftz.f32`: `MUFU.LG2`
    Lg2Ftz,
    /// `rcp.approx.ftz.f64`: the hardware's seed alone (MUFU.RCP64H: the high word, low word 0)
    RcpSeed64,
    /// `rsqrt.approx.ftz.f64`: the hardware's seed alone (MUFU.RSQ64H: the high word, low word 0)
    RsqrtSeed64,
    /// `bfind` (position of the most significant non-sign bit)
    Bfind,
    /// `bfind.shiftamt`: the left shift that brings that bit to the top (width − 1 − position);
    /// `0xffffffff` when there is none, as for `bfind`
    BfindShift,
    /// `neg.ftz.f32`: a subnormal operand flushed to the zero of its sign first
    NegFtz,
    /// `abs.ftz.f32`: a subnormal operand flushed to the zero of its sign first
    AbsFtz,
    /// one half of `cvt.rn.satfinite.e4m3x2.f32`: an `.f32` to the byte of an fp8 e4m3
    F32ToE4m3,
    /// one half of `cvt.rn.satfinite.e5m2x2.f32`: an `.f32` to the byte of an fp8 e5m2
    F32ToE5m2,
    /// one half of `cvt.rn.f16x2.e4m3x2`: an e4m3 byte to the bits of its `.f16` (exact)
    E4m3ToF16,
    /// one half of `cvt.rn.f16x2.e5m2x2`: an e5m2 byte to the bits of its `.f16` (exact)
    E5m2ToF16,
}

/// The extended-precision arithmetic of PTX's carry chain (`add.cc`, `addc`, `sub.cc`, `subc`,
/// `mad.cc`, `madc`): what is added to the carry in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryOp {
    /// `d = a + b (+ CF)`
    Add,
    /// `d = a - (b + CF)`, CF the borrow
    Sub,
    /// `d = lo(a * b) + c (+ CF)`
    MadLo,
    /// `d = hi(a * b) + c (+ CF)`
    MadHi,
}

/// Ternary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TernOp {
    MadLo,
    MadHi,
    MadWide,
    Fma,
    /// `a * b - c` rounded once: ptxas's contraction of `mul` then `sub` (`lower/contract.rs`)
    FmaSubC,
    /// `c - a * b` rounded once: ptxas's contraction of `mul` then `sub` from another value
    FmaNegAB,
    /// `bfe d, a, pos, len`
    Bfe,
    /// `fns.b32 d, mask, base, offset`: the position of the `offset`-th set bit of `mask` counted
    /// from bit `base` (upwards for a positive offset, downwards for a negative one; offset 0:
    /// `base` itself if set), `0xffffffff` when there is none
    Fns,
    /// `sad d, a, b, c` = |a-b| + c
    Sad,
    /// `prmt.b32 d, a, b, selector` (default mode)
    Prmt,
    /// `prmt.b32.f4e` (forward 4 extract)
    PrmtF4e,
    /// `prmt.b32.b4e` (backward 4 extract)
    PrmtB4e,
    /// `prmt.b32.rc8` (replicate byte)
    PrmtRc8,
    /// `prmt.b32.ecl` (edge clamp left)
    PrmtEcl,
    /// `prmt.b32.ecr` (edge clamp right)
    PrmtEcr,
    /// `prmt.b32.rc16` (replicate half)
    PrmtRc16,
    /// `slct d, a, b, c` = c >= 0 ? a : b (c is s32 or f32, see `Inst::Tern::cty`)
    Slct,
    /// `mad24.lo`
    Mad24Lo,
    /// `shf.l.wrap.b32 d, a, b, c`: the high word of `b:a` shifted left by `c & 31`
    ShfL,
    /// `shf.l.clamp.b32`: as `ShfL` with the shift clamped to 32
    ShfLClamp,
    /// `shf.r.wrap.b32 d, a, b, c`: the low word of `b:a` shifted right by `c & 31`
    ShfR,
    /// `shf.r.clamp.b32`: as `ShfR` with the shift clamped to 32
    ShfRClamp,
    /// `fma.rn.sat` of a float: the result clamped to [+0, 1], NaN to +0
    FmaSat,
    /// `fma.rn.relu` of a half: a negative result becomes +0, a NaN the canonical NaN
    FmaRelu,
    /// `fma.rn.ftz.f32` / `mad.ftz.f32`: subnormal operands and result flushed to zero of the
    /// same sign
    FmaFtz,
    /// `fma.rn.sat.ftz.f32`
    FmaSatFtz,
    /// [`TernOp::FmaSubC`] of `.ftz` operations
    FmaSubCFtz,
    /// [`TernOp::FmaNegAB`] of `.ftz` operations
    FmaNegABFtz,
    /// `div.full.f32 q, a, b` then `add.f32 d, q, c`, contracted by ptxas: `MUFU.RCP` of the
    /// scaled `b`, then one `FFMA` of it, the scaled `a` and `c` (`lower/contract.rs`)
    DivFullAdd,
    /// `dp4a.atype.btype d, a, b, c`: `c` plus the four products of `a`'s and `b`'s bytes
    /// (`sa`, `sb`: the bytes are signed)
    Dp4a {
        sa: bool,
        sb: bool,
    },
    /// `dp2a.{lo,hi}.atype.btype d, a, b, c`: `c` plus the products of `a`'s two 16-bit halves
    /// with bytes 0 and 1 (`.lo`) or 2 and 3 (`.hi`) of `b`
    Dp2a {
        hi: bool,
        sa: bool,
        sb: bool,
    },
    /// `vabsdiff4.dtype.atype.btype{.sat} d, a, b, c` (`add`: `.add`): the absolute differences
    /// of the four byte pairs, saturated to `dtype`'s byte range with `.sat` (`sd`: `dtype` is
    /// signed); without `.add` they form `d` (the full mask: `c` unused), with it their sum plus
    /// `c` does
    VAbsDiff4 {
        sa: bool,
        sb: bool,
        sd: bool,
        sat: bool,
        add: bool,
    },
}

impl TernOp {
    /// The `.ftz` form of an `.f32` operation (`self` where `.ftz` changes nothing or is not
    /// modelled).
    pub fn with_ftz(self) -> Self {
        match self {
            TernOp::Fma => TernOp::FmaFtz,
            TernOp::FmaSat => TernOp::FmaSatFtz,
            TernOp::FmaSubC => TernOp::FmaSubCFtz,
            TernOp::FmaNegAB => TernOp::FmaNegABFtz,
            o => o,
        }
    }

    /// The operation without `.ftz` of an `.ftz` form made by [`TernOp::with_ftz`].
    pub fn without_ftz(self) -> Option<Self> {
        Some(match self {
            TernOp::FmaFtz => TernOp::Fma,
            TernOp::FmaSatFtz => TernOp::FmaSat,
            TernOp::FmaSubCFtz => TernOp::FmaSubC,
            TernOp::FmaNegABFtz => TernOp::FmaNegAB,
            _ => return None,
        })
    }
}

/// Float operations rounded in a direction other than to nearest (`.rz`, `.rm`, `.rp`), which the
/// emulator computes in software ([`Inst::FRound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum FRoundOp {
    Add,
    Sub,
    Mul,
    Fma,
    Div,
    Rcp,
    Sqrt,
}

/// Comparison operators of `setp`/`set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// Predicate combining operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Rounding modes of `cvt` and float ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Rnd {
    /// none given
    Default,
    Rn,
    Rz,
    Rm,
    Rp,
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

/// Memory space of a lowered access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemSpace {
    /// Block's shared window (offsets).
    Shared,
    /// Global address space.
    Global,
    /// Per-thread local memory (offsets).
    Local,
    /// Constant bank (offsets).
    Const,
    /// Kernel parameter buffer (offsets; uniform).
    KernelParam,
    /// Parameters of an inlined device-function call; backed by per-thread local memory.
    CallParam,
    /// Generic address: resolved per lane at run time.
    Generic,
}

/// Atomic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
    Exch,
    Cas,
    Inc,
    Dec,
}

/// `shfl.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `vote.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// Barrier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarKind {
    /// `bar.sync` / `barrier.sync` / `bar.red`
    Sync,
    /// `bar.warp.sync`
    Warp,
    /// `bar.arrive` / `barrier.arrive`
    Arrive,
}

/// `bar.red` reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedOp {
    /// `.popc.u32`: threads whose predicate is true (`__syncthreads_count`).
    Popc,
    /// `.and.pred`: every thread's predicate is true (`__syncthreads_and`).
    And,
    /// `.or.pred`: some thread's predicate is true (`__syncthreads_or`).
    Or,
}

/// `testp` properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TestP {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

/// `redux.sync` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// Shapes of `mma.sync` (and of the `wmma.mma` it lowers to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MmaShape {
    M16n8k16,
    M16n8k8,
    M8n8k4,
    M16n8k32,
    /// `wmma.mma` m16n16k16 (two m16n8k16 halves).
    M16n16k16,
    /// `wmma.mma` m32n8k16 (A of 32 rows, B and C of 8 columns).
    M32n8k16,
    /// `wmma.mma` m8n32k16 (A and C of 8 rows, B of 32 columns).
    M8n32k16,
    /// `wmma.mma` m16n16k8 (`.tf32` operands).
    M16n16k8,
}

impl MmaShape {
    /// Registers per lane of (A, B, C, D) for a shape with operand type `aty` (`F32` stands for
    /// `.tf32`) and accumulator type `cty`; `None` for a combination that is not modelled.
    pub fn regs(self, aty: Ty, cty: Ty) -> Option<(u8, u8, u8, u8)> {
        let acc = match cty {
            Ty::F32 | Ty::S32 => 4,
            Ty::F16 => 2,
            _ => 0,
        };
        Some(match (self, aty) {
            (MmaShape::M16n8k16, Ty::F16 | Ty::BF16) if acc > 0 && cty != Ty::S32 => (4, 2, acc, acc),
            (MmaShape::M16n8k8, Ty::F16 | Ty::BF16) if acc > 0 && cty != Ty::S32 => (2, 1, acc, acc),
            (MmaShape::M16n8k8, Ty::F32) if cty == Ty::F32 => (4, 2, 4, 4),
            (MmaShape::M8n8k4, Ty::F64) if cty == Ty::F64 => (1, 1, 2, 2),
            (MmaShape::M16n8k32, Ty::S8 | Ty::U8) if cty == Ty::S32 => (4, 2, 4, 4),
            (MmaShape::M16n8k16, Ty::S8 | Ty::U8) if cty == Ty::S32 => (2, 1, 4, 4),
            // wmma's bf16 A and B fragments are four registers (the m16n8k16 layout, PTX ISA);
            // f16's are eight, the second four repeating the first
            (MmaShape::M16n16k16, Ty::BF16) if cty == Ty::F32 => (4, 4, 8, 8),
            (MmaShape::M16n16k16, Ty::F16 | Ty::BF16) if acc > 0 && cty != Ty::S32 => {
                (8, 8, 2 * acc, 2 * acc)
            }
            (MmaShape::M16n16k16 | MmaShape::M32n8k16 | MmaShape::M8n32k16 | MmaShape::M16n16k8, _) => {
                let a = self.wmma_regs(WmmaFrag::A, aty)?;
                let b = self.wmma_regs(WmmaFrag::B, aty)?;
                let c = self.wmma_regs(WmmaFrag::C, cty)?;
                (a, b, c, c)
            }
            _ => return None,
        })
    }

    /// (M, N, K) of a shape.
    pub fn dims(self) -> (u32, u32, u32) {
        match self {
            MmaShape::M16n8k16 => (16, 8, 16),
            MmaShape::M16n8k8 => (16, 8, 8),
            MmaShape::M8n8k4 => (8, 8, 4),
            MmaShape::M16n8k32 => (16, 8, 32),
            MmaShape::M16n16k16 => (16, 16, 16),
            MmaShape::M32n8k16 => (32, 8, 16),
            MmaShape::M8n32k16 => (8, 32, 16),
            MmaShape::M16n16k8 => (16, 16, 8),
        }
    }

    /// Registers per lane of a `wmma` fragment of element type `ty` (`F32` stands for `.tf32` in
    /// A and B) in this shape, as the PTX ISA sizes them; `None` for a combination wmma does not
    /// have. A and B of `.f16` are eight registers in every shape: a fragment with fewer elements
    /// a lane repeats them (m16n16k16's A holds its eight halves twice).
    pub fn wmma_regs(self, frag: WmmaFrag, ty: Ty) -> Option<u8> {
        let k16 = matches!(
            self,
            MmaShape::M16n16k16 | MmaShape::M32n8k16 | MmaShape::M8n32k16
        );
        let (m, n, k) = self.dims();
        let elems = match frag {
            WmmaFrag::A => m * k / 32,
            WmmaFrag::B => k * n / 32,
            WmmaFrag::C => m * n / 32,
        };
        let per_reg = |bits: u32| (32 / bits).max(1);
        let ok = match (frag, ty) {
            (WmmaFrag::A | WmmaFrag::B, Ty::F16 | Ty::BF16 | Ty::S8 | Ty::U8) => k16,
            (WmmaFrag::A | WmmaFrag::B, Ty::F32) => self == MmaShape::M16n16k8,
            (WmmaFrag::C, Ty::F16) => k16,
            (WmmaFrag::C, Ty::F32) => k16 || self == MmaShape::M16n16k8,
            (WmmaFrag::C, Ty::S32) => k16,
            (_, Ty::F64) => self == MmaShape::M8n8k4,
            _ => false,
        };
        if !ok {
            return None;
        }
        if frag != WmmaFrag::C && ty == Ty::F16 {
            return Some(8);
        }
        let bits = match ty {
            Ty::S8 | Ty::U8 => 8,
            Ty::F16 | Ty::BF16 => 16,
            _ => 32,
        };
        Some((elems / per_reg(bits)) as u8)
    }
}

/// Which operand a `wmma.load` / `wmma.store` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum WmmaFrag {
    A,
    B,
    /// The accumulator (`wmma.load.c`, `wmma.store.d`).
    C,
}

/// What a tensor-memory-access instruction ([`Inst::Tma`]) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmaKind {
    /// `cp.async.bulk.tensor` global -> shared: a box into the shared memory of the issuing block
    /// (or, multicast, of every block the CTA mask names), `complete_tx` on the mbarrier(s).
    Load,
    /// `cp.async.bulk.tensor` shared -> global (`.bulk_group`): out-of-bounds elements are skipped.
    Store,
    /// `cp.reduce.async.bulk.tensor`: the box combined into global memory with the operation.
    Reduce(TmaRed),
    /// `cp.async.bulk.prefetch.tensor`: reads the tensor map, moves no data.
    Prefetch,
    /// `tensormap.replace.tile.FIELD`: one field of the tensor map at row 0 (in shared memory if
    /// `shared`, else global) becomes the value in row 2 (row 1: the ordinal of per-dimension fields).
    Replace {
        /// The field.
        field: TmField,
        /// The map is in shared memory (`.shared::cta`), else global (`.global`).
        shared: bool,
    },
    /// `tensormap.cp_fenceproxy`: the 128 bytes at shared row 1 copied to global row 0.
    CopyMap,
}

/// The reduction of `cp.reduce.async.bulk.tensor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TmaRed {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
}

/// A field `tensormap.replace` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TmField {
    GlobalAddress,
    Rank,
    BoxDim,
    GlobalDim,
    GlobalStride,
    ElementStride,
    ElemType,
    InterleaveLayout,
    SwizzleMode,
    SwizzleAtomicity,
    FillMode,
}

/// A tensor-memory-access instruction: its kind and form. Its operands are in the 12 rows from
/// `base` (see [`Inst::Tma`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmaOp {
    /// What it does.
    pub kind: TmaKind,
    /// Tensor dimensions the coordinates name (1-5; 0 for `tensormap.*`).
    pub rank: u8,
    /// `.im2col` (else `.tile`).
    pub im2col: bool,
    /// `.multicast::cluster`: row 11 holds the CTA mask.
    pub multicast: bool,
}

/// Rows of an [`Inst::Tma`] from its base: the shared address, the tensor map's generic address,
/// the mbarrier, five coordinates, three im2col offsets, the CTA mask.
pub const TMA_ROWS: u32 = 12;

/// `mbarrier` operations (and the asynchronous arrivals on one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MbarOp {
    /// `mbarrier.init [a], count`
    Init,
    /// `mbarrier.inval [a]`
    Inval,
    /// `mbarrier.arrive{.expect_tx} state, [a]{, count or tx}`: `b` = NO_REG or the count.
    Arrive,
    /// `mbarrier.arrive.expect_tx state, [a], tx{, count}`
    ArriveExpectTx,
    /// `mbarrier.arrive_drop`: arrives and lowers the expected count of later phases.
    ArriveDrop,
    /// `mbarrier.expect_tx [a], tx`
    ExpectTx,
    /// `mbarrier.complete_tx [a], tx`
    CompleteTx,
    /// `mbarrier.test_wait p, [a], state` (state: the phase number this emulator returns)
    TestWait,
    /// `mbarrier.test_wait.parity p, [a], parity`
    TestWaitParity,
    /// `mbarrier.try_wait` (a false result lets the other warps run)
    TryWait,
    /// `mbarrier.try_wait.parity`
    TryWaitParity,
    /// `cp.async.mbarrier.arrive.noinc`: an arrival (copies complete when issued here).
    CpAsyncArrive,
    /// `mbarrier.pending_count d, state`
    PendingCount,
}

/// One lowered instruction. `Copy`; its size is pinned by a test.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Inst {
    Un {
        op: UnOp,
        ty: Ty,
        d: R,
        a: R,
    },
    Bin {
        op: BinOp,
        ty: Ty,
        d: R,
        a: R,
        b: R,
    },
    Tern {
        op: TernOp,
        ty: Ty,
        d: R,
        a: R,
        b: R,
        c: R,
    },
    /// `add/sub/mul/div/fma/rcp/sqrt.{rz,rm,rp}.{f32,f64} d, a[, b[, c]]`: one rounding in the
    /// given direction (unused operands repeat `a`).
    FRound {
        op: FRoundOp,
        ty: Ty,
        rnd: Rnd,
        d: R,
        a: R,
        b: R,
        c: R,
    },
    /// One step of the carry chain: `d = a op b [+ c] [+ CF]` on 32- or 64-bit integers, the
    /// lane's carry flag (CC.CF, 0 or 1) in row `cc` read when `cin` and written when `cout`.
    Carry {
        op: CarryOp,
        ty: Ty,
        cin: bool,
        cout: bool,
        d: R,
        a: R,
        b: R,
        c: R,
        cc: R,
    },
    /// `bfi d, a, b, pos, len`
    Bfi {
        ty: Ty,
        d: R,
        a: R,
        b: R,
        pos: R,
        len: R,
    },
    Selp {
        ty: Ty,
        d: R,
        a: R,
        b: R,
        p: PSrc,
    },
    /// `setp.cmp[.bop].ty p[|q], a, b[, c]`
    Setp {
        cmp: Cmp,
        ty: Ty,
        p: P,
        q: P,
        a: R,
        b: R,
        bop: Option<BoolOp>,
        c: PSrc,
    },
    /// `set.cmp.dty.sty d, a, b` (d = all ones / 1.0f on true)
    Set {
        cmp: Cmp,
        dty: Ty,
        sty: Ty,
        d: R,
        a: R,
        b: R,
    },
    /// Predicate logic: `d = a op b`; `not`/`mov` use `b = PSrc::TRUE` with `op = And`.
    PredOp {
        op: BoolOp,
        d: P,
        a: PSrc,
        b: PSrc,
    },
    /// `selp`-like move of a predicate into a register: `d = p ? 1 : 0` (from `selp` or `mov` of pred).
    PredToReg {
        d: R,
        p: PSrc,
    },
    /// `setp.ne.b32 p, r, 0` style move of a register into a predicate.
    RegToPred {
        d: P,
        a: R,
    },
    Cvt {
        dty: Ty,
        sty: Ty,
        rnd: Rnd,
        sat: bool,
        d: R,
        a: R,
    },
    TestP {
        prop: TestP,
        ty: Ty,
        p: P,
        a: R,
    },
    /// Load: `d[0..vec] = mem[addr + off]`. `addr32`: the address register is 32 bits wide.
    /// `sync`: an `ld.acquire` or `ld.relaxed` (a load that waits for another thread's store,
    /// as in a spin loop): the emulator lets the block's other warps run after it.
    Ld {
        space: MemSpace,
        ty: Ty,
        vec: u8,
        addr32: bool,
        sync: bool,
        d: [R; 4],
        addr: R,
        off: i32,
    },
    /// Store: `mem[addr + off] = a[0..vec]`.
    St {
        space: MemSpace,
        ty: Ty,
        vec: u8,
        addr32: bool,
        a: [R; 4],
        addr: R,
        off: i32,
    },
    /// `atom`/`red`: `d = old` (`d == NO_REG` for `red`).
    Atom {
        space: MemSpace,
        op: AtomOp,
        ty: Ty,
        addr32: bool,
        d: R,
        addr: R,
        off: i32,
        b: R,
        c: R,
    },
    /// `cvta` to/from generic: `d = a + delta_of(space)` (`to_generic`) or the reverse.
    Cvta {
        space: MemSpace,
        to_generic: bool,
        d: R,
        a: R,
    },
    /// Branch to `target`; `reconv` is the immediate post-dominator (u32::MAX: the function exit).
    Bra {
        target: u32,
        reconv: u32,
    },
    /// Thread exit (`exit`, `ret` in a kernel).
    Exit,
    /// A call of a recursive device function's out-of-line body: [`crate::Program::calls`]`[site]`
    /// names the body's entry, the frame a new activation saves and the parameter copies
    /// (`lower.rs`, `recursive_call`). Calls of non-recursive functions are inlined.
    Call {
        site: u32,
    },
    /// The return of an out-of-line body: the executing lanes leave the innermost call; when every
    /// lane that entered it has left (returned or exited), the warp resumes after the `Call`.
    Ret,
    Bar {
        kind: BarKind,
        id: R,
        count: R,
    },
    /// `bar.red` / `barrier.red`: a block barrier (as `bar.sync id{, count}`) that reduces predicate
    /// `c` over the arriving threads; the result goes to register `d` (`popc`) or predicate `p`
    /// (`and`, `or`) of every arriving thread when the barrier completes.
    BarRed {
        op: RedOp,
        id: R,
        count: R,
        d: R,
        p: P,
        c: PSrc,
    },
    Shfl {
        mode: ShflMode,
        d: R,
        p: P,
        a: R,
        b: R,
        c: R,
    },
    /// `vote`: ballot writes `d`, the others write predicate `p`; `m` holds `vote.sync`'s member
    /// mask (`NO_REG`: the whole warp): lanes outside it neither vote nor count.
    Vote {
        mode: VoteMode,
        d: R,
        p: P,
        a: PSrc,
        m: R,
    },
    /// `activemask.b32 d`
    ActiveMask {
        d: R,
    },
    /// `%clock`/`%clock64`/`%globaltimer`: the warp's instruction counter.
    Clock {
        d: R,
    },
    /// `match.any.sync` / `match.all.sync`; `m` the member mask (`NO_REG`: the executing lanes)
    Match {
        all: bool,
        ty: Ty,
        d: R,
        p: P,
        a: R,
        m: R,
    },
    /// `mov.b64 d, {a, b}`: `d = a | b << bits` (`bits` = 16 or 32).
    Pack2 {
        bits: u8,
        d: R,
        a: R,
        b: R,
    },
    /// `mov.b64 {d0, d1}, a`: `d0 = low bits of a`, `d1 = a >> bits`.
    Unpack2 {
        bits: u8,
        d0: R,
        d1: R,
        a: R,
    },
    /// `lop3.b32 d, a, b, c, lut`
    Lop3 {
        d: R,
        a: R,
        b: R,
        c: R,
        lut: u8,
    },
    /// `trap`: the thread faults.
    Trap,
    /// `call vprintf, (fmt, args)` (device `printf`): each executing lane formats the string at the
    /// generic address in its call parameter at local offset `fmt` with the argument buffer whose
    /// generic address is at local offset `args`, and gets the number of arguments in the 32-bit
    /// return parameter at local offset `ret`.
    Printf {
        fmt: u32,
        args: u32,
        ret: u32,
    },
    /// `call __assertfail, (msg, file, line, func, charSize)` (a failing device `assert`): each
    /// executing lane records the failure (the strings at the generic addresses in its call
    /// parameters at local offsets `msg`, `file`, `func`, the 32-bit line at `line`) and the grid
    /// traps (`FaultKind::Assert`). A passing assert branches around it and never executes it.
    AssertFail {
        msg: u32,
        file: u32,
        line: u32,
        func: u32,
    },
    /// A call of the CUDA device runtime (dynamic parallelism: `-rdc=true` with `-lcudadevrt`),
    /// kept as one instruction: `call` says which function, `args` are the local offsets of its
    /// `.param` arguments in order (unused ones 0), `ret` the local offset of its return
    /// parameter. `slot` is, for [`DevRtCall::GetParameterBuffer`], the local offset of the call
    /// site's parameter buffer slot (a header of [`DEVRT_HEADER`] bytes describing the launch,
    /// then the kernel's parameters), for the others the local offset of the thread's last-error
    /// word.
    DevRt {
        call: DevRtCall,
        args: [u16; 4],
        ret: u16,
        slot: u32,
    },
    /// The end of an indirect `call`'s dispatch (see `lower::FUNC_BASE`): every executing lane
    /// holds, in row `addr`, an address that is no candidate function's, so the call faults
    /// (`FaultKind::BadCall`) as a GPU's call to a non-function address does.
    BadCall {
        addr: R,
    },
    /// `redux.sync.op.ty d, a, membermask`: each executing lane gets the reduction over the
    /// executing lanes of its own `membermask` (`m`), so groups that execute one `redux.sync`
    /// together with different masks (cooperative groups' `labeled_partition`) reduce apart.
    Redux {
        op: ReduxOp,
        ty: Ty,
        d: R,
        a: R,
        m: R,
    },
    /// `elect.sync d|p, membermask`: `d` = the lowest executing lane of `m`; `p` true in it.
    Elect {
        d: R,
        p: P,
        m: R,
    },
    /// `ldmatrix.sync.aligned.m8n8.xN{.trans}.b16 {d..}, [addr + off]`: lanes 8i..8i+7 give the
    /// row addresses of matrix i (i < num); each lane gets one 32-bit register per matrix.
    LdMatrix {
        num: u8,
        trans: bool,
        space: MemSpace,
        addr32: bool,
        d: [R; 4],
        addr: R,
        off: i32,
    },
    /// `tex.{1d,2d,3d}.v4.dty.cty {d0, d1, d2, d3}, [tex, {c0, ...}]`: a texture object's sample at
    /// the coordinates (`dims` of them, `f32` or `s32`), its four channels into `d` (`f32`, `s32` or
    /// `u32` bits). `tld4.{r,g,b,a}.2d.v4.dty.f32` (a texture gather, `gather` 1 to 4: the channel
    /// plus one): that channel of the four texels linear filtering would weigh.
    Tex {
        dims: u8,
        int_coords: bool,
        gather: u8,
        d: [R; 4],
        tex: R,
        c: [R; 3],
    },
    /// `suld.b.{1d,2d,3d}{.v2,.v4}.b{8,16,32,64}.{trap,clamp,zero} {d..}, [surf, {x, y, z}]`: a
    /// surface object's elements at byte column `x`, row `y`, slice `z` (`s32` coordinates), as
    /// [`SurfShape`] says.
    Suld {
        shape: SurfShape,
        d: [R; 4],
        surf: R,
        c: [R; 3],
    },
    /// `sust.b.{1d,2d,3d}{.v2,.v4}.b{8,16,32,64}.{trap,clamp,zero} [surf, {x, y, z}], {a..}`: the
    /// store counterpart of [`Inst::Suld`].
    Sust {
        shape: SurfShape,
        a: [R; 4],
        surf: R,
        c: [R; 3],
    },
    /// `movmatrix.sync.aligned.m8n8.trans.b16 d, a`: the warp's 8x8 matrix of 16-bit elements, held
    /// one 32-bit register per lane in ldmatrix's fragment layout (lane i: row i / 4, columns
    /// 2 (i % 4) and 2 (i % 4) + 1, the lower column in the low half), transposed in that layout.
    MovMatrix {
        d: R,
        a: R,
    },
    /// `stmatrix.sync.aligned.m8n8.xN{.trans}.b16 [addr + off], {a..}`
    StMatrix {
        num: u8,
        trans: bool,
        space: MemSpace,
        addr32: bool,
        a: [R; 4],
        addr: R,
        off: i32,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}`: `src_size == NO_REG` copies
    /// `size` bytes; otherwise the first `src_size` bytes are copied and the rest zero-filled. The
    /// copy completes when issued (every later wait is satisfied). Addresses have no offset
    /// (lowering folds it into a register); `dst` is a shared-window offset.
    CpAsync {
        size: u8,
        dst: R,
        src: R,
        src_size: R,
        /// `src_size` was read from the `ignore-src` predicate (`size` or 0), not given as a
        /// register: ptxas compiles this form to an LDGSTS with a source predicate operand, not
        /// the `.ZFILL` one (calibration/srcpred/).
        ignore_src: bool,
    },
    /// `cp.async.bulk` (1-D): `size` bytes from `src` to `dst`; `to_shared`: global -> shared
    /// (with `complete_tx` of `size` on the mbarrier at `mbar`, NO_REG for none), else shared ->
    /// global. Addresses are folded (no offsets), shared ones are window offsets.
    BulkCopy {
        to_shared: bool,
        dst: R,
        src: R,
        size: R,
        mbar: R,
    },
    /// An mbarrier operation on the 8-byte object at shared offset `addr` (folded); `d`: the
    /// state / count result (NO_REG: none), `p`: the wait result, `b`: the count, transaction
    /// bytes, state or parity operand (NO_REG: none).
    Mbar {
        op: MbarOp,
        d: R,
        p: P,
        addr: R,
        b: R,
    },
    /// Tensor memory access (`cp.async.bulk.tensor`, `cp.reduce.async.bulk.tensor`,
    /// `cp.async.bulk.prefetch.tensor`, `tensormap.replace`, `tensormap.cp_fenceproxy`): operands in
    /// the [`TMA_ROWS`] rows from `base`: 0 the shared address (a `.shared::cluster` or
    /// `.shared::cta` window offset), 1 the tensor map (a generic address), 2 the mbarrier, 3-7 the
    /// coordinates, 8-10 the im2col offsets, 11 the CTA mask. `tensormap.*` use rows 0-2 as
    /// [`TmaKind`] says.
    Tma {
        op: TmaOp,
        base: R,
    },
    /// `mma.sync` / `wmma.mma`: reads A, B and C from the rows following `base` and writes D
    /// over the first rows: D at `base..`, then A, B, C (counts per shape and types, see
    /// `warpscope_emu::mma`). `sat`: `.satfinite` (integer shapes).
    Mma {
        shape: MmaShape,
        aty: Ty,
        bty: Ty,
        cty: Ty,
        dty: Ty,
        sat: bool,
        base: R,
    },
    /// `mma.sp{::ordered_metadata}.sync.aligned.m16n8kK.row.col` (A 2:4 sparse, tf32 1:2, stored
    /// compressed): reads A (K/2 columns), B (K rows), C and the metadata word from the rows after
    /// `base` and writes D over the first rows: D at `base..`, then A, B, C, metadata (counts in
    /// [`WgmmaForm::mma_sp_regs`]). `form` carries the types (its `n` is 8) and `.satfinite`; `sel` is
    /// the sparsity selector.
    MmaSp {
        form: WgmmaForm,
        k: u8,
        sel: u8,
        base: R,
    },
    /// `wmma.load.{a,b,c}.sync.aligned.{row,col}.SHAPE.space.ty {rows base..}, [addr], stride`:
    /// element loads into consecutive rows from `base` (the fragment layout of `Mma`).
    WmmaLoad {
        frag: WmmaFrag,
        shape: MmaShape,
        col: bool,
        ty: Ty,
        space: MemSpace,
        base: R,
        addr: R,
        stride: R,
    },
    /// `wmma.store.d.sync.aligned.{row,col}.SHAPE.space.ty [addr], {rows base..}, stride`
    WmmaStore {
        shape: MmaShape,
        col: bool,
        ty: Ty,
        space: MemSpace,
        base: R,
        addr: R,
        stride: R,
    },
    /// `mapa{.shared::cluster}.{u32,u64} d, a, rank`: the address of `a`'s bytes in the shared
    /// memory of the cluster's CTA `rank` (`generic`: `a` and `d` are generic addresses, else
    /// shared::cluster window addresses). See `warpscope_emu::mem::cluster_address`.
    Mapa {
        generic: bool,
        d: R,
        a: R,
        rank: R,
    },
    /// `barrier.cluster.arrive` (`wait` false) / `barrier.cluster.wait` (`wait` true): the
    /// cluster-wide barrier of every non-exited thread of the cluster's CTAs.
    ClusterBar {
        wait: bool,
    },
    /// `wgmma.mma_async.sync.aligned.m64nNkK...`: the warp's 16-row slice of the warpgroup's
    /// 64xN product (see `warpscope_emu::wgmma`). D (the accumulators, `form.d_regs()` rows) is
    /// at `d..`; A is the descriptor row `a` or, for `form.a_regs()`, the four rows `a..`; B is
    /// the descriptor row `b` (a sparse form: the metadata register is row `b + 1`); `scale`:
    /// D = A*B + (scale ? D : 0).
    Wgmma {
        form: WgmmaForm,
        d: R,
        a: R,
        b: R,
        scale: PSrc,
    },
    /// `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group N`.
    WgmmaSync {
        op: WgmmaSyncOp,
    },
    /// membar, fence, prefetch and friends.
    Nop,
}

/// The group operations of `wgmma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WgmmaSyncOp {
    /// `wgmma.fence.sync.aligned`
    Fence,
    /// `wgmma.commit_group.sync.aligned`
    Commit,
    /// `wgmma.wait_group.sync.aligned N`: every committed group but the newest `N` is complete.
    Wait(u8),
}

/// An element type of `wgmma` (`.f16` ... `.b1`, and the accumulators `.f32`, `.f16`, `.s32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum WgTy {
    F16,
    BF16,
    TF32,
    E4M3,
    E5M2,
    S8,
    U8,
    B1,
    F32,
    S32,
}

impl WgTy {
    /// Parses a type modifier without the dot.
    pub fn parse(s: &str) -> Option<WgTy> {
        Some(match s {
            "f16" => WgTy::F16,
            "bf16" => WgTy::BF16,
            "tf32" => WgTy::TF32,
            "e4m3" => WgTy::E4M3,
            "e5m2" => WgTy::E5M2,
            "s8" => WgTy::S8,
            "u8" => WgTy::U8,
            "b1" => WgTy::B1,
            "f32" => WgTy::F32,
            "s32" => WgTy::S32,
            _ => return None,
        })
    }
    /// Bits per element.
    pub fn bits(self) -> u32 {
        match self {
            WgTy::B1 => 1,
            WgTy::E4M3 | WgTy::E5M2 | WgTy::S8 | WgTy::U8 => 8,
            WgTy::F16 | WgTy::BF16 => 16,
            WgTy::TF32 | WgTy::F32 | WgTy::S32 => 32,
        }
    }
    /// The K of one instruction for A/B elements of this type (32 bytes of K per row).
    pub fn k(self) -> u32 {
        256 / self.bits()
    }
}

/// One `wgmma.mma_async` form: N, the types and the immediate operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgmmaForm {
    /// N (8..=256).
    pub n: u16,
    /// D's type (`F32`, `F16` or `S32`).
    pub dty: WgTy,
    /// A's type.
    pub aty: WgTy,
    /// B's type.
    pub bty: WgTy,
    /// [`WgmmaForm::A_REGS`] | [`WgmmaForm::TRANS_A`] | ...
    pub flags: u8,
}

impl WgmmaForm {
    /// A comes from four registers, not a descriptor.
    pub const A_REGS: u8 = 1;
    /// imm-trans-a = 1: A is MN-major (M contiguous) in shared memory.
    pub const TRANS_A: u8 = 2;
    /// imm-trans-b = 1: B is MN-major (N contiguous) in shared memory.
    pub const TRANS_B: u8 = 4;
    /// imm-scale-a = -1: A is negated.
    pub const NEG_A: u8 = 8;
    /// imm-scale-b = -1: B is negated.
    pub const NEG_B: u8 = 16;
    /// `.satfinite` (integer forms).
    pub const SATFINITE: u8 = 32;
    /// `.sp`: A is 2:4 (tf32: 1:2) structured sparse, stored compressed (K/2 columns), with a
    /// metadata register (the register row after B's descriptor in [`Inst::Wgmma`]).
    pub const SPARSE: u8 = 64;
    /// The sparsity selector is 1 (threads 2 and 3 of each quad hold the metadata), else 0.
    pub const SP_SEL1: u8 = 128;
    /// Whether `flag` is set.
    pub fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }
    /// Whether A comes from registers.
    pub fn a_regs(self) -> bool {
        self.has(Self::A_REGS)
    }
    /// Accumulator registers per thread.
    pub fn d_regs(self) -> u32 {
        let per = if self.dty == WgTy::F16 { 4 } else { 2 };
        u32::from(self.n) / per
    }
    /// K of the instruction (twice A's stored columns for a sparse form).
    pub fn k(self) -> u32 {
        if self.sparse() {
            2 * self.aty.k()
        } else {
            self.aty.k()
        }
    }
    /// Whether the form is sparse (`.sp`).
    pub fn sparse(self) -> bool {
        self.has(Self::SPARSE)
    }
    /// Registers per lane of D, A, B and C of a warp-level `mma.sp` of this form's types and
    /// K `k` (m16n8k`k`: A 16 x k/2 stored elements, B k x 8, C and D 16 x 8).
    pub fn mma_sp_regs(self, k: u32) -> [u16; 4] {
        let ab = (k * self.aty.bits() / 128) as u16;
        let cd = if self.dty == WgTy::F16 { 2 } else { 4 };
        [cd, ab, ab, cd]
    }
}

/// An instruction with its guard predicate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Op {
    /// The instruction.
    pub inst: Inst,
    /// Guard (`PSrc::TRUE` when unguarded).
    pub guard: PSrc,
}

/// Special registers that are constant per warp (initialised when the warp starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Special {
    /// `%reserved_smem_offset_begin` (0), `_end` (1), `_cap` (2), `_<n>` (3 + n): the block's
    /// reserved shared memory (cooperative groups' multi-warp tile barriers live there); see
    /// `Kernel::reserved_smem`.
    ReservedSmem(u8),
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    LaneMaskEq,
    LaneMaskLe,
    LaneMaskLt,
    LaneMaskGe,
    LaneMaskGt,
    DynSmemSize,
    TotalSmemSize,
    /// `%envreg<n>` (0..=31): registers the driver fills per launch. A cooperative launch puts the
    /// address of its grid workspace (cooperative groups' grid barrier) in `%envreg1` (high 32
    /// bits) and `%envreg2` (low 32 bits); every other one, and both in other launches, read 0.
    EnvReg(u8),
    /// `%cluster_ctarank`: the CTA's linear rank in its cluster (x fastest).
    ClusterCtaRank,
    /// `%cluster_nctarank`: CTAs per cluster.
    ClusterNCtaRank,
    /// `%cluster_ctaid.{x,y,z}`: the CTA's position in its cluster.
    ClusterCtaid(u8),
    /// `%cluster_nctaid.{x,y,z}`: the cluster's dimensions.
    ClusterNctaid(u8),
    /// `%clusterid.{x,y,z}`: the cluster's position in the grid.
    ClusterId(u8),
    /// `%nclusterid.{x,y,z}`: clusters in the grid.
    NClusterId(u8),
    /// `%is_explicit_cluster`: 1 when the launch (or the kernel's `.explicitcluster`) names
    /// cluster dimensions, 0 for the implicit 1x1x1 clusters of a plain launch.
    IsExplicitCluster,
}

/// A surface access's form, packed in two bytes (so that [`Inst`] stays 20 bytes): coordinates
/// (1 to 3), elements (1, 2, 4), bytes per element (1, 2, 4, 8), and what an access outside the
/// surface does (0 trap, 1 clamp, 2 zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfShape(u8, u8);

impl SurfShape {
    /// The form of `dims` coordinates, `vec` elements of `bytes` each, boundary `mode`.
    pub fn new(dims: u8, vec: u8, bytes: u8, mode: u8) -> SurfShape {
        SurfShape(dims | (mode << 4), vec | (bytes << 4))
    }
    /// Coordinates.
    pub fn dims(self) -> u8 {
        self.0 & 15
    }
    /// Boundary mode: 0 trap, 1 clamp, 2 zero.
    pub fn mode(self) -> u8 {
        self.0 >> 4
    }
    /// Elements.
    pub fn vec(self) -> u8 {
        self.1 & 15
    }
    /// Bytes per element.
    pub fn bytes(self) -> u8 {
        self.1 >> 4
    }
}

/// The device runtime functions the emulator runs (`__cudaCDP2<Name>` in CUDA 12+ PTX, `cuda<Name>`
/// before): see [`Inst::DevRt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DevRtCall {
    /// `cudaGetParameterBufferV2(func, gridDim, blockDim, sharedMem)`: the launch's buffer.
    GetParameterBuffer,
    /// `cudaLaunchDeviceV2(buffer, stream)`: launches the grid the buffer describes.
    LaunchDevice,
    /// `cudaStreamCreateWithFlags(&stream, flags)`
    StreamCreate,
    /// `cudaStreamDestroy(stream)`
    StreamDestroy,
    /// `cudaGetDevice(&device)`
    GetDevice,
    /// `cudaDeviceGetAttribute(&value, attribute, device)`
    DeviceGetAttribute,
    /// `cudaGetLastError()`
    GetLastError,
    /// `cudaPeekAtLastError()`
    PeekAtLastError,
}

/// Bytes of a parameter buffer slot before the parameters: the launch's description (the
/// kernel's address, grid, block, dynamic shared memory, a check word), so that the buffer
/// `cudaGetParameterBufferV2` returns (the parameters' start) is 64-byte aligned.
pub const DEVRT_HEADER: u32 = 64;

/// How a pre-initialised row gets its value when a warp starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowInit {
    /// The same constant in every lane (immediates, symbol addresses).
    Const(u64),
    /// A special register.
    Special(Special),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inst_size_is_pinned() {
        assert_eq!(std::mem::size_of::<Inst>(), 20);
        assert_eq!(std::mem::size_of::<Op>(), 24);
    }
}
