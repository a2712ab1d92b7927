//! The warp-request shared-memory bank model.
//!
//! A [`Request`] is one warp-wide shared-memory instruction: an access width (1, 2, 4, 8 or 16 bytes),
//! load or store, and the byte offset of every active lane. The model answers what Nsight Compute
//! counts as `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}`: the number of **wavefronts**
//! (passes through the banks) the request takes, the **ideal** number for the same active lanes with
//! no bank conflict, and the **conflict degree** (the most wavefronts any one phase needs).
//!
//! * [`wavefronts`] is the fast path: no allocation, a few hundred nanoseconds at worst; the emulator's
//!   analyses call it for every shared access.
//! * [`breakdown`] is the reference path: it builds the whole picture (which lane reads which word of
//!   which bank in which wavefront) by brute force. The tests run both on the same inputs and require
//!   equal counts.
//!
//! # The rules
//!
//! A bank word is `bank_bytes` wide (4, or 8 in Kepler's 8-byte mode); word `w` lives in bank
//! `w % banks`. A request is split into **phases**, consecutive groups of lanes served one after the
//! other; within a phase a bank can deliver one word per wavefront (every lane that wants that word
//! gets it: multicast), so a phase takes as many wavefronts as the most distinct words any one bank
//! must deliver, and the request takes the sum over its phases.
//!
//! | family | banks × bytes | phase of lanes | notes |
//! |---|---|---|---|
//! | CC 1.x | 16 × 4 | 16 (half-warp) for every width | no multicast: each step serves one broadcast word (the lowest waiting lane's) plus one access per other bank, so 8- and 16-bit accesses to one word conflict |
//! | CC 2.x, 5.x, 6.x | 32 × 4 | 32; 16 for 8-byte, 8 for 16-byte | the programming guide's 2.x rules; not measured here |
//! | CC 3.x, 4-byte mode | 32 × 4 | as 2.x | words `i` and `i + 32` of one 64-word (256-byte) aligned segment do not conflict |
//! | CC 3.x, 8-byte mode | 32 × 8 | 32; 16 for 16-byte | |
//! | CC 7.0 and later | 32 × 4 | 32 for 1, 2, 4 bytes; 8-byte: 16; 16-byte: 8 | **measured on an H100** (calibration/bank/): loads take phases twice as large when the pairs or the xor-2 partners agree (below); stores never do |
//!
//! The CC 7.0+ row is the rule that reproduces every one of the H100 measurements in
//! `calibration/bank/` (loads and stores, all widths; the tables `measured.tsv`,
//! `measured_merge.tsv`, `measured_pred_h100.tsv` and `measured_pred_heldout_h100.tsv`); the other
//! families follow the programming guides and the seed notes. Inactive lanes take no part; a request
//! with no active lane takes no wavefront.
//!
//! **8- and 16-byte loads on CC 7.0+.** Two lanes *agree* unless both are active and read different
//! addresses: an inactive lane agrees with every lane, whatever its address register holds. The
//! phases double (8-byte: the whole warp; 16-byte: half-warps) when every lane pair `(2k, 2k+1)`
//! agrees, or when every lane `L` agrees with lane `L ^ 2`; the decision is taken once for the whole
//! warp. So a guard such as `if (tid % 2 == 0)` in front of `s[tid / 2]` (8-byte) costs one
//! wavefront, not two. The H100 rows that reject the alternatives (an inactive partner breaking a
//! pair or an xor-2 partner, a decision per quad or per half-warp, at most two addresses per quad, a
//! limit on distinct addresses or on active lanes, compacting the active lanes, merging stores) are
//! counted in `calibration/bank/README.md`.
//!
//! **What Nsight Compute attributes to the instruction** (`sm__sass_l1tex_..._op_ld`, the source
//! page) differs from the L1's count where doubled phases conflict: an 8-byte load whose whole-warp
//! phase has bank conflicts is attributed in half-warps, a 16-byte load's conflicting doubled
//! half-warp in quarter-warps, with one more condition on the first half-warp when lane 31 is
//! active ([`attributed`]; measured on an H200, calibration/lds64/ and calibration/lds128/).
//!
//! **Ideal** is, per phase, the distinct bank words the phase needs divided by the number of banks,
//! rounded up (on CC 7.0+ this is 1 per non-empty phase for aligned accesses).
//!
//! # Example
//!
//! ```
//! use warpscope_model::arch::Arch;
//! use warpscope_model::bank::{wavefronts, Config, Op, Request};
//!
//! let h100 = Arch::parse("sm_90").unwrap();
//! // float tile[32][32]; a warp reads one column: stride 32 words, 32-way conflict.
//! let column = Request::from_fn(4, Op::Load, |lane| Some(lane * 32 * 4));
//! let c = wavefronts(h100, &Config::default(), &column).unwrap();
//! assert_eq!((c.wavefronts, c.ideal, c.conflict_ways), (32, 1, 32));
//! // Padding to [32][33] removes the conflict.
//! let padded = Request::from_fn(4, Op::Load, |lane| Some(lane * 33 * 4));
//! assert_eq!(wavefronts(h100, &Config::default(), &padded).unwrap().wavefronts, 1);
//! ```

use std::fmt;

pub use crate::arch::BankMode;
use crate::arch::{Arch, BankFacts, Family};

/// Load or store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A shared-memory load (`LDS`).
    Load,
    /// A shared-memory store (`STS`).
    Store,
}

impl Op {
    /// `"load"` or `"store"`.
    pub fn name(self) -> &'static str {
        match self {
            Op::Load => "load",
            Op::Store => "store",
        }
    }
}

/// Settings that are not part of the architecture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// Kepler bank width (ignored on other families).
    pub bank_mode: BankMode,
}

/// One warp request: width, op and the byte offset of each lane in the block's shared window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// Bytes per lane: 1, 2, 4, 8 or 16.
    pub width: u8,
    /// Load or store.
    pub op: Op,
    /// Bit `l` set when lane `l` accesses.
    pub mask: u32,
    /// Byte offset of each lane (only lanes in `mask` matter).
    pub addrs: [u32; 32],
}

impl Request {
    /// A request from per-lane optional offsets (`None` = the lane does not access).
    pub fn new(width: u8, op: Op, lanes: &[Option<u32>; 32]) -> Request {
        Request::from_fn(width, op, |l| lanes[l as usize])
    }

    /// A request whose lane `l` accesses `f(l)` (`None` = inactive).
    pub fn from_fn(width: u8, op: Op, f: impl Fn(u32) -> Option<u32>) -> Request {
        let mut r = Request {
            width,
            op,
            mask: 0,
            addrs: [0; 32],
        };
        for lane in 0..32 {
            if let Some(a) = f(lane) {
                r.mask |= 1 << lane;
                r.addrs[lane as usize] = a;
            }
        }
        r
    }

    /// Lane `l`'s offset, if it is active.
    pub fn lane(&self, lane: u32) -> Option<u32> {
        (self.mask >> lane & 1 == 1).then(|| self.addrs[lane as usize])
    }

    fn check(&self) -> Result<(), BankError> {
        if !matches!(self.width, 1 | 2 | 4 | 8 | 16) {
            return Err(BankError::UnsupportedWidth(self.width));
        }
        let low = u32::from(self.width) - 1;
        // Common case: no offset at all (active or not) has a bit below the width.
        if self.addrs.iter().fold(0, |acc, &a| acc | a) & low == 0 {
            return Ok(());
        }
        // One bit per lane whose offset has a bit below the (power-of-two) width.
        let mut bad = 0u32;
        for (lane, &a) in self.addrs.iter().enumerate() {
            bad |= u32::from(a & low != 0) << lane;
        }
        bad &= self.mask;
        if bad != 0 {
            let lane = bad.trailing_zeros();
            return Err(BankError::Misaligned {
                lane: lane as u8,
                addr: self.addrs[lane as usize],
                width: self.width,
            });
        }
        Ok(())
    }
}

/// What [`wavefronts`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Wavefronts the request takes.
    pub wavefronts: u32,
    /// Wavefronts the same active lanes would take with no bank conflict.
    pub ideal: u32,
    /// The most wavefronts any one phase takes (1 = conflict-free; an `n`-way conflict gives `n`).
    pub conflict_ways: u32,
}

/// A request the model cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BankError {
    /// The width is not 1, 2, 4, 8 or 16 bytes.
    UnsupportedWidth(u8),
    /// A lane's offset is not a multiple of the width.
    Misaligned {
        /// The lane.
        lane: u8,
        /// Its byte offset.
        addr: u32,
        /// The access width.
        width: u8,
    },
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankError::UnsupportedWidth(w) => {
                write!(
                    f,
                    "unsupported access width {w} bytes (expected 1, 2, 4, 8 or 16)"
                )
            }
            BankError::Misaligned { lane, addr, width } => write!(
                f,
                "lane {lane}: address {addr} is not aligned to the access width ({width} bytes)"
            ),
        }
    }
}

impl std::error::Error for BankError {}

/// Lane numbers, for loops the compiler vectorises.
const LANES: [u32; 32] = {
    let mut a = [0; 32];
    let mut l = 0;
    while l < 32 {
        a[l] = l as u32;
        l += 1;
    }
    a
};

/// `1 << lane` for each lane.
const LANE_BITS: [u32; 32] = {
    let mut a = [0; 32];
    let mut l = 0;
    while l < 32 {
        a[l] = 1 << l;
        l += 1;
    }
    a
};

/// How a request is served: bank geometry and phase size.
#[derive(Clone, Copy, Debug)]
struct Plan {
    facts: BankFacts,
    /// Lanes per phase (consecutive lanes, starting at lane 0).
    phase_lanes: u32,
    /// Bank words each lane touches.
    words_per_lane: u32,
    /// Kepler 4-byte mode: words `i` and `i + 32` of one 64-word segment do not conflict.
    kepler_pairs: bool,
}

/// Whether no lane pair `(2k, 2k+1)` has two active lanes reading different addresses (a pair with
/// one lane off, or both, qualifies: measured, calibration/bank/measured_pred_h100.tsv).
#[inline]
fn pairs_uniform(req: &Request) -> bool {
    // One bit per even lane whose partner is active too.
    let both = req.mask & req.mask >> 1 & 0x5555_5555;
    // One bit per even lane whose partner holds another address (inactive lanes masked off after).
    let mut differ = 0u32;
    for k in 0..16 {
        differ |= u32::from(req.addrs[2 * k] != req.addrs[2 * k + 1]) << (2 * k);
    }
    differ & both == 0
}

/// Whether no two active lanes `L` and `L ^ 2` read different addresses.
#[inline]
fn period_two_pairs(req: &Request) -> bool {
    let m = req.mask;
    // Bit `L` of `partner` is lane `L ^ 2`'s activity.
    let partner = (m & 0x3333_3333) << 2 | (m >> 2) & 0x3333_3333;
    let mut differ = 0u32;
    for l in 0..32 {
        differ |= u32::from(req.addrs[l] != req.addrs[l ^ 2]) << l;
    }
    differ & m & partner == 0
}

/// Whether an 8- or 16-byte load on CC 7.0+ takes phases twice as large (the pairs or the xor-2
/// partners agree); the caller checks the family and the width.
#[inline]
fn doubles(req: &Request) -> bool {
    req.op == Op::Load && (pairs_uniform(req) || period_two_pairs(req))
}

#[inline]
fn plan(arch: &Arch, config: &Config, req: &Request) -> Plan {
    let facts = arch.bank_facts(config.bank_mode);
    let w = u32::from(req.width);
    // (w + bank_bytes - 1) / bank_bytes, bank_bytes a power of two
    let words_per_lane = (w + facts.bank_bytes - 1) >> facts.bank_bytes.trailing_zeros();
    let phase_lanes = match arch.family {
        Family::Tesla => 16,
        Family::Kepler if facts.bank_bytes == 8 => {
            if w == 16 {
                16
            } else {
                32
            }
        }
        Family::Fermi | Family::Kepler | Family::Maxwell | Family::Pascal => match w {
            8 => 16,
            16 => 8,
            _ => 32,
        },
        _ => match w {
            8 | 16 => {
                let base = 128 / w;
                if doubles(req) { base * 2 } else { base }
            }
            _ => 32,
        },
    };
    Plan {
        facts,
        phase_lanes,
        words_per_lane,
        kepler_pairs: arch.family == Family::Kepler && facts.bank_bytes == 4,
    }
}

/// The conflict key of bank word `word`: two words conflict when they share a bank and differ in key.
#[inline]
fn conflict_key(plan: &Plan, word: u32) -> u32 {
    if plan.kepler_pairs {
        (word / 64) * 32 + word % 32
    } else {
        word
    }
}

/// The bank period of `arch` in `config`'s mode, in bytes: adding one multiple of it to every lane's
/// address changes none of [`wavefronts`]' counts (as long as the addresses stay in range). It is
/// banks x bank width, twice that in Kepler's 4-byte mode (words `i` and `i + 32` of a 64-word
/// segment do not conflict there). Callers cache counts per address pattern relative to a base,
/// keyed by the base modulo this period.
pub fn period(arch: &Arch, config: &Config) -> u32 {
    let facts = arch.bank_facts(config.bank_mode);
    let kepler_pairs = arch.family == Family::Kepler && facts.bank_bytes == 4;
    facts.banks * facts.bank_bytes * if kepler_pairs { 2 } else { 1 }
}

/// Wavefronts, ideal wavefronts and conflict degree of one request (fast path, no allocation).
pub fn wavefronts(arch: &Arch, config: &Config, req: &Request) -> Result<Counts, BankError> {
    req.check()?;
    let plan = plan(arch, config, req);
    if plan.facts.multicast {
        Ok(multicast_counts(req, &plan))
    } else {
        Ok(tesla_counts(req, &plan))
    }
}

/// The wavefronts Nsight Compute attributes to the instruction
/// (`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld`, the source page's `L1 Wavefronts
/// Shared`), given the request's [`wavefronts`] `counts`. They equal `counts.wavefronts` except for
/// 8- and 16-byte loads on CC 7.0+ whose phases double (see the module's rules), where the
/// attribution keeps a doubled phase only when it then takes one wavefront, while the L1's own
/// count (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld`, `counts.wavefronts`) keeps the
/// doubled phases with their conflicts:
/// - 8 bytes: the doubled phase is the whole warp; conflicting, the request is counted in
///   half-warps (calibration/lds64/: 1,409 attributed rows, 311 L1 rows).
/// - 16 bytes: each half-warp is doubled on its own when its doubled phase is conflict-free, else
///   counted in quarter-warps; and when lane 31 is active, the first half-warp is doubled only if
///   every one of its active lanes shares its address with an active lane `L ^ 1` or `L ^ 2`
///   (calibration/lds128/: 4,245 attributed rows of an H200, none broken; the alternatives and
///   the rows that break them are in its README).
///
/// Stores never double, and their attribution equals the L1's count (calibration/lds128/).
pub fn attributed(arch: &Arch, config: &Config, req: &Request, counts: &Counts) -> u32 {
    let older = matches!(
        arch.family,
        Family::Tesla | Family::Fermi | Family::Kepler | Family::Maxwell | Family::Pascal
    );
    if older || !matches!(req.width, 8 | 16) || req.op != Op::Load {
        return counts.wavefronts;
    }
    // a conflict-free doubled phase stays doubled, except a 16-byte load's first half-warp when
    // lane 31 is active and the half-warp's lanes are not paired
    let first_paired = req.width == 8 || req.mask >> 31 & 1 == 0 || first_half_paired(req);
    if (counts.conflict_ways <= 1 && first_paired) || !doubles(req) {
        return counts.wavefronts;
    }
    let mut p = plan(arch, config, req);
    if req.width == 8 {
        p.phase_lanes = 16;
        return multicast_counts(req, &p).wavefronts;
    }
    let mut total = 0;
    for (half, lanes) in [0x0000_ffffu32, 0xffff_0000].into_iter().enumerate() {
        let part = Request {
            mask: req.mask & lanes,
            ..*req
        };
        p.phase_lanes = 16;
        let doubled = multicast_counts(&part, &p).wavefronts;
        total += if doubled <= 1 && (half == 1 || first_paired) {
            doubled
        } else {
            p.phase_lanes = 8;
            multicast_counts(&part, &p).wavefronts
        };
    }
    total
}

/// Whether every active lane `L` of the first half-warp has an active lane `L ^ 1` or `L ^ 2`
/// reading the same address (the condition the attribution of a 16-byte load puts on doubling
/// the first half-warp when lane 31 is active, [`attributed`]).
fn first_half_paired(req: &Request) -> bool {
    (0..16usize).all(|l| {
        req.mask >> l & 1 == 0
            || [l ^ 1, l ^ 2]
                .iter()
                .any(|&p| req.mask >> p & 1 == 1 && req.addrs[p] == req.addrs[l])
    })
}

/// The fast path of the multicast families (CC 2.x and later).
///
/// An aligned access of `n` bank words (`n` = 1, 2 or 4, a power of two) starts at a multiple of
/// `n`, so it fills one aligned **group** of `n` banks, and two accesses either fill the same group
/// or disjoint ones. Counting per group is therefore counting per bank: a lane's key is its first
/// word's conflict key shifted right by `log2 n` (equal keys = the same words), its group the key's
/// low bits, and a phase takes as many wavefronts as the most distinct keys in one group.
///
/// All phases at once, in two passes without a branch per lane: each active lane writes its key into
/// the slot of its (phase, group) (the last writer stays), then each lane whose key is not the one
/// its slot ended with is a clash. A phase with no clash, the common case, takes one wavefront;
/// otherwise [`clash_phase`] counts.
#[inline]
fn multicast_counts(req: &Request, plan: &Plan) -> Counts {
    let n_shift = plan.words_per_lane.trailing_zeros();
    let word_shift = plan.facts.bank_bytes.trailing_zeros();
    let group_shift = plan.facts.banks.trailing_zeros() - n_shift;
    let group_mask = (1u32 << group_shift) - 1;
    let phase_shift = plan.phase_lanes.trailing_zeros();
    // phases x groups <= 32 in every family (wider accesses: fewer groups and more phases); the
    // slots below rely on it
    assert!((32 >> phase_shift) << group_shift <= 32, "bank slots overflow");
    // Every lane's key and slot (phase, group) at once, inactive lanes too: their slots are moved to
    // 32..64, which nobody reads. No division, no branch; the compiler vectorises these loops.
    let mut keys = [0u32; 32];
    let mut slots = [0u32; 32];
    if plan.kepler_pairs {
        for (k, &a) in keys.iter_mut().zip(&req.addrs) {
            let word = a >> word_shift;
            *k = ((word >> 6) << 5 | (word & 31)) >> n_shift;
        }
    } else {
        for (k, &a) in keys.iter_mut().zip(&req.addrs) {
            *k = a >> (word_shift + n_shift);
        }
    }
    if req.mask == u32::MAX {
        // Every lane active and the keys in arithmetic progression (a strided or broadcast
        // access): counted by formula.
        let step = keys[1].wrapping_sub(keys[0]);
        let mut uneven = 0u32;
        for pair in keys.windows(2) {
            uneven |= pair[1].wrapping_sub(pair[0]) ^ step;
        }
        if uneven == 0 {
            return strided_counts(step, plan.phase_lanes, group_shift);
        }
    }
    for ((s, &k), (&lane, &bit)) in slots.iter_mut().zip(&keys).zip(LANES.iter().zip(&LANE_BITS)) {
        let inactive = u32::from(req.mask & bit == 0);
        *s = (lane >> phase_shift) << group_shift | (k & group_mask) | inactive << 5;
    }
    // Each lane writes its key into its slot (the last writer stays), and marks the slot used; then
    // each active lane whose key is not the one its slot ended with is a clash.
    let mut last = [0u32; 64];
    let mut used = 0u64;
    for (&s, &k) in slots.iter().zip(&keys) {
        last[(s & 63) as usize] = k;
        used |= 1 << (s & 63);
    }
    let mut clash = 0u32;
    for (l, (&s, &k)) in slots.iter().zip(&keys).enumerate() {
        clash |= u32::from(last[(s & 31) as usize] != k) << l;
    }
    clash &= req.mask;
    let lanes = plan.phase_lanes;
    let phase_bits = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
    let group_bits = if group_shift == 5 {
        u32::MAX
    } else {
        (1 << (1 << group_shift)) - 1
    };
    let mut counts = Counts::default();
    let mut lane0 = 0;
    while lane0 < 32 {
        let phase_mask = req.mask & (phase_bits << lane0);
        if phase_mask != 0 {
            let phase_clash = clash & phase_mask;
            // the groups this phase's active lanes use
            let phase_groups = (used >> ((lane0 >> phase_shift) << group_shift)) as u32 & group_bits;
            let wf = if phase_clash == 0 {
                // at most one key per group: at most `groups` keys, one wavefront, and ideal
                counts.ideal += 1;
                1
            } else {
                let (wf, distinct) = clash_phase(&keys, phase_groups.count_ones(), phase_clash, group_mask);
                // distinct keys over the groups, rounded up (groups are a power of two)
                counts.ideal += (distinct + group_mask) >> group_shift;
                wf
            };
            counts.wavefronts += wf;
            counts.conflict_ways = counts.conflict_ways.max(wf);
        }
        lane0 += lanes;
    }
    counts
}

/// Counts of a request whose 32 lanes are all active with keys `k0 + l * step` (wrapping), in phases
/// of `phase_lanes` lanes over `1 << group_shift` groups.
///
/// Keys are below 2^30 (a byte offset shifted right by at least 2), so a constant wrapping step
/// between them is a true arithmetic progression: a step of 0 is one key (one wavefront per
/// phase); otherwise the keys are distinct, and lanes `l1`, `l2` share a group when
/// `(l1 - l2) * step` is a multiple of the group count, that is when `l1 - l2` is a multiple of
/// `period` = groups / gcd(step, groups). A phase then puts `phase_lanes / period` (at least 1)
/// distinct keys in each group it uses.
#[inline]
fn strided_counts(step: u32, phase_lanes: u32, group_shift: u32) -> Counts {
    let phases = 32 / phase_lanes;
    let (wf, distinct) = if step == 0 {
        (1, 1)
    } else {
        let period_shift = group_shift - step.trailing_zeros().min(group_shift);
        ((phase_lanes >> period_shift).max(1), phase_lanes)
    };
    let ideal = (distinct + (1 << group_shift) - 1) >> group_shift;
    Counts {
        wavefronts: phases * wf,
        ideal: phases * ideal,
        conflict_ways: wf,
    }
}

/// Wavefronts and distinct keys of a phase in which some groups hold several keys.
///
/// `groups_used`: the groups the phase's active lanes use, each with the key it ended with; `clash`:
/// the active lanes whose key differs from that one. The clashing keys go through a small
/// open-addressing set (64 slots, occupancy in one `u64`) and each new one adds a wavefront to its
/// group.
#[inline(never)]
fn clash_phase(keys: &[u32; 32], groups_used: u32, clash: u32, group_mask: u32) -> (u32, u32) {
    let mut distinct = groups_used;
    let mut per_group = [1u8; 32];
    let mut wf = 1u8;
    let mut table = [0u32; 64];
    let mut used = 0u64;
    let mut m = clash;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let k = keys[l as usize];
        let mut h = (k.wrapping_mul(0x9E37_79B1) >> 26) as usize;
        let new = loop {
            if used >> h & 1 == 0 {
                used |= 1 << h;
                table[h] = k;
                break true;
            }
            if table[h] == k {
                break false;
            }
            h = (h + 1) & 63;
        };
        if new {
            distinct += 1;
            let g = (k & group_mask) as usize;
            per_group[g] += 1;
            wf = wf.max(per_group[g]);
        }
    }
    (u32::from(wf), distinct)
}

/// CC 1.x counts: the half-warp phases through [`tesla_phase`].
fn tesla_counts(req: &Request, plan: &Plan) -> Counts {
    let mut counts = Counts::default();
    let banks = plan.facts.banks;
    let lanes = plan.phase_lanes;
    let phase_bits = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
    let mut lane0 = 0;
    while lane0 < 32 {
        let phase_mask = req.mask >> lane0 & phase_bits;
        if phase_mask != 0 {
            let (wf, distinct) = tesla_phase(req, lane0, phase_mask, plan);
            counts.ideal += distinct.div_ceil(banks);
            counts.wavefronts += wf;
            counts.conflict_ways = counts.conflict_ways.max(wf);
        }
        lane0 += lanes;
    }
    counts
}

/// CC 1.x: steps of one half-warp. Each step serves the broadcast word (the lowest waiting access's
/// word, to every access of it) and, in every other bank, the lowest waiting access. Returns the steps
/// and the number of distinct words.
fn tesla_phase(req: &Request, lane0: u32, phase_mask: u32, plan: &Plan) -> (u32, u32) {
    // Accesses as (word), in lane order; at most 16 lanes x 4 words.
    let mut words = [0u32; 64];
    let mut n_acc = 0;
    let mut m = phase_mask;
    while m != 0 {
        let l = m.trailing_zeros();
        m &= m - 1;
        let first = req.addrs[(lane0 + l) as usize] / plan.facts.bank_bytes;
        for j in 0..plan.words_per_lane {
            words[n_acc] = first + j;
            n_acc += 1;
        }
    }
    let mut distinct = 0;
    for i in 0..n_acc {
        if !words[..i].contains(&words[i]) {
            distinct += 1;
        }
    }
    let banks = plan.facts.banks;
    let mut served = 0u64;
    let all = if n_acc == 64 {
        u64::MAX
    } else {
        (1u64 << n_acc) - 1
    };
    let mut steps = 0;
    while served != all {
        steps += 1;
        let first = (!served).trailing_zeros() as usize;
        let bcast = words[first];
        let mut bank_used = 0u32;
        bank_used |= 1 << (bcast % banks);
        for (i, &word) in words.iter().enumerate().take(n_acc).skip(first) {
            if served >> i & 1 == 0 && word == bcast {
                served |= 1 << i;
            }
        }
        for (i, &word) in words.iter().enumerate().take(n_acc).skip(first) {
            let b = word % banks;
            if served >> i & 1 == 0 && bank_used >> b & 1 == 0 {
                bank_used |= 1 << b;
                served |= 1 << i;
            }
        }
    }
    (steps, distinct)
}

/// One lane's use of one bank word in one wavefront.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The lane.
    pub lane: u8,
    /// The bank.
    pub bank: u8,
    /// Byte address of the bank word.
    pub word_addr: u32,
    /// First byte the lane uses, relative to the word.
    pub byte_lo: u8,
    /// One past the last byte the lane uses, relative to the word.
    pub byte_hi: u8,
    /// Whether other lanes get the same word in the same wavefront.
    pub broadcast: bool,
}

/// One wavefront: the slots it serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wavefront {
    /// First lane of the phase this wavefront belongs to.
    pub phase_lane0: u8,
    /// Every (lane, bank word) served, in lane order.
    pub slots: Vec<Slot>,
}

/// The whole picture of one request (reference path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Same numbers as [`wavefronts`].
    pub counts: Counts,
    /// Number of banks.
    pub banks: u32,
    /// Bytes per bank word.
    pub bank_bytes: u32,
    /// Lanes per phase.
    pub phase_lanes: u32,
    /// The wavefronts in order.
    pub wavefronts: Vec<Wavefront>,
}

/// Builds the full picture of a request by brute force: for each phase, each bank's distinct words
/// in order of first use get wavefronts 0, 1, 2... (CC 1.x: the step-by-step broadcast rule).
pub fn breakdown(arch: &Arch, config: &Config, req: &Request) -> Result<Breakdown, BankError> {
    req.check()?;
    let plan = plan_reference(arch, config, req);
    let banks = plan.facts.banks;
    let bb = plan.facts.bank_bytes;
    let w = u32::from(req.width);
    let mut out = Breakdown {
        counts: Counts::default(),
        banks,
        bank_bytes: bb,
        phase_lanes: plan.phase_lanes,
        wavefronts: Vec::new(),
    };
    for lane0 in (0..32).step_by(plan.phase_lanes as usize) {
        // (lane, word index, byte_lo, byte_hi) in lane order
        let mut acc: Vec<(u32, u32, u32, u32)> = Vec::new();
        for lane in lane0..lane0 + plan.phase_lanes {
            let Some(a) = req.lane(lane) else { continue };
            for byte in (a..a + w).step_by(bb as usize) {
                let word = byte / bb;
                let lo = a.max(word * bb) - word * bb;
                let hi = (a + w).min(word * bb + bb) - word * bb;
                acc.push((lane, word, lo, hi));
            }
        }
        if acc.is_empty() {
            continue;
        }
        let mut distinct: Vec<u32> = acc.iter().map(|x| conflict_key(&plan, x.1)).collect();
        distinct.sort();
        distinct.dedup();
        out.counts.ideal += (distinct.len() as u32).div_ceil(banks);
        // wavefront index of each access
        let which: Vec<usize> = if plan.facts.multicast {
            let mut order: Vec<Vec<u32>> = vec![Vec::new(); banks as usize];
            acc.iter()
                .map(|&(_, word, _, _)| {
                    let list = &mut order[(word % banks) as usize];
                    let key = conflict_key(&plan, word);
                    match list.iter().position(|&k| k == key) {
                        Some(i) => i,
                        None => {
                            list.push(key);
                            list.len() - 1
                        }
                    }
                })
                .collect()
        } else {
            let mut step = vec![usize::MAX; acc.len()];
            let mut s = 0;
            while let Some(first) = step.iter().position(|&x| x == usize::MAX) {
                let bcast = acc[first].1;
                let mut used = vec![false; banks as usize];
                used[(bcast % banks) as usize] = true;
                for i in first..acc.len() {
                    if step[i] == usize::MAX && acc[i].1 == bcast {
                        step[i] = s;
                    }
                }
                for i in first..acc.len() {
                    let b = (acc[i].1 % banks) as usize;
                    if step[i] == usize::MAX && !used[b] {
                        used[b] = true;
                        step[i] = s;
                    }
                }
                s += 1;
            }
            step
        };
        let n_wf = which.iter().max().map_or(0, |m| m + 1);
        let base = out.wavefronts.len();
        for _ in 0..n_wf {
            out.wavefronts.push(Wavefront {
                phase_lane0: lane0 as u8,
                slots: Vec::new(),
            });
        }
        for (i, &(lane, word, lo, hi)) in acc.iter().enumerate() {
            let shared = acc
                .iter()
                .zip(&which)
                .filter(|&(x, &wi)| wi == which[i] && x.1 == word && x.0 != lane)
                .count();
            out.wavefronts[base + which[i]].slots.push(Slot {
                lane: lane as u8,
                bank: (word % banks) as u8,
                word_addr: word * bb,
                byte_lo: lo as u8,
                byte_hi: hi as u8,
                broadcast: shared > 0,
            });
        }
        out.counts.wavefronts += n_wf as u32;
        out.counts.conflict_ways = out.counts.conflict_ways.max(n_wf as u32);
    }
    Ok(out)
}

/// The phase plan computed independently of [`plan`], lane by lane, for the reference path.
fn plan_reference(arch: &Arch, config: &Config, req: &Request) -> Plan {
    let fast = plan(arch, config, req);
    let w = u32::from(req.width);
    let modern = arch.family >= Family::Volta;
    let mut phase_lanes = fast.phase_lanes;
    if modern && (w == 8 || w == 16) {
        // two lanes agree unless both are active and read different addresses
        let agree = |a: u32, b: u32| match (req.lane(a), req.lane(b)) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        };
        let pair_same = (0..32u32).step_by(2).all(|l| agree(l, l + 1));
        let xor2_same = (0..32u32).all(|l| agree(l, l ^ 2));
        let merge = req.op == Op::Load && (pair_same || xor2_same);
        phase_lanes = (128 / w) * if merge { 2 } else { 1 };
    }
    Plan { phase_lanes, ..fast }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic requests that stress the fast path's shortcuts: clashes in some phases only,
    /// pair and xor-2 structure, small and large spans, and inactive lanes holding garbage offsets
    /// (misaligned too), which neither path may look at.
    #[test]
    fn fast_path_equals_reference_with_garbage_in_inactive_lanes() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut clashes = 0;
        let mut strided = 0;
        for i in 0..90_000u32 {
            let arch = &Arch::all()[(next() % Arch::all().len() as u64) as usize];
            let w = [1u8, 2, 4, 8, 16][(next() % 5) as usize];
            let op = if next() % 2 == 0 { Op::Load } else { Op::Store };
            let config = Config {
                bank_mode: if next() % 2 == 0 {
                    BankMode::FourByte
                } else {
                    BankMode::EightByte
                },
            };
            let span = [2u64, 8, 40, 300, 1 << 20][(i % 5) as usize];
            let active = match next() % 4 {
                0 => u32::MAX,
                1 => next() as u32,
                2 => 0xFFFF_0000 | next() as u32 & 0xFF,
                _ => (next() as u32) & (next() as u32),
            };
            let mut req = Request {
                width: w,
                op,
                mask: active,
                addrs: std::array::from_fn(|_| (next() % span) as u32 * u32::from(w)),
            };
            match next() % 6 {
                0 => req.addrs = std::array::from_fn(|l| req.addrs[l & !1]),
                1 => req.addrs = std::array::from_fn(|l| req.addrs[l & !2]),
                2 | 3 => {
                    // strided (descending too) over a base, every lane active
                    let stride = [0u32, 1, 2, 3, 4, 8, 16, 32, 33, 64, 1 << 12][(next() % 11) as usize];
                    let base = (next() % span) as u32 + 40 * stride;
                    let down = next() % 3 == 0;
                    req.addrs = std::array::from_fn(|l| {
                        let l = l as u32;
                        (if down {
                            base - l * stride
                        } else {
                            base + l * stride
                        }) * u32::from(w)
                    });
                    req.mask = u32::MAX;
                    strided += 1;
                    let fast = wavefronts(arch, &config, &req).unwrap();
                    let slow = breakdown(arch, &config, &req).unwrap();
                    assert_eq!(fast, slow.counts, "{} {req:?} {config:?}", arch.name);
                    continue;
                }
                _ => {}
            }
            if next() % 3 == 0 {
                req.mask = req.mask & 0x5555_5555 | (req.mask & 0x5555_5555) << 1;
            }
            for l in 0..32 {
                if active >> l & 1 == 0 && next() % 2 == 0 {
                    req.addrs[l] = next() as u32 | 1;
                }
            }
            req.mask &= active;
            let fast = wavefronts(arch, &config, &req).unwrap();
            let slow = breakdown(arch, &config, &req).unwrap();
            assert_eq!(fast, slow.counts, "{} {req:?} {config:?}", arch.name);
            clashes += u32::from(fast.conflict_ways > 1);
        }
        // the generator reaches the conflict path often, not just the conflict-free shortcut
        assert!(clashes > 10_000, "{clashes}");
        assert!(strided > 20_000, "{strided}");
    }

    #[test]
    fn misaligned_active_lane_is_found_among_garbage() {
        let mut req = Request::from_fn(8, Op::Load, |l| (l != 3).then_some(8 * l));
        req.addrs[3] = 5; // inactive: ignored
        assert!(req.check().is_ok());
        req.addrs[9] = 12;
        assert_eq!(
            req.check(),
            Err(BankError::Misaligned {
                lane: 9,
                addr: 12,
                width: 8
            })
        );
    }
}
