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
//! | CC 7.0 and later | 32 × 4 | 32 for 1, 2, 4 bytes; 8-byte: 16; 16-byte: 8 | **measured on an H100** (calibration/bank/): loads whose lane pairs `(2k, 2k+1)` all read one address each (or every lane `L` reads what lane `L ^ 2` reads) take phases twice as large; stores never do |
//!
//! The CC 7.0+ row is the rule that reproduces every one of the H100 measurements in
//! `calibration/bank/measured.tsv` (loads and stores, all widths); the other families follow the
//! programming guides and the seed notes. Inactive lanes take no part; a request with no active lane
//! takes no wavefront.
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
        for lane in 0..32 {
            if let Some(a) = self.lane(lane) {
                if a % u32::from(self.width) != 0 {
                    return Err(BankError::Misaligned {
                        lane: lane as u8,
                        addr: a,
                        width: self.width,
                    });
                }
            }
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

/// Whether every lane pair `(2k, 2k+1)` is either wholly inactive or reads one address.
fn pairs_uniform(req: &Request) -> bool {
    let odd = req.mask >> 1 & 0x5555_5555;
    let even = req.mask & 0x5555_5555;
    if odd != even {
        return false;
    }
    (0..16).all(|k| even >> (2 * k) & 1 == 0 || req.addrs[2 * k] == req.addrs[2 * k + 1])
}

/// Whether lane `L` does what lane `L ^ 2` does, for every lane.
fn period_two_pairs(req: &Request) -> bool {
    let m = req.mask;
    let swapped = (m & 0x3333_3333) << 2 | (m >> 2) & 0x3333_3333;
    if swapped != m {
        return false;
    }
    (0..32usize).all(|l| m >> l & 1 == 0 || req.addrs[l] == req.addrs[l ^ 2])
}

fn plan(arch: &Arch, config: &Config, req: &Request) -> Plan {
    let facts = arch.bank_facts(config.bank_mode);
    let w = u32::from(req.width);
    let words_per_lane = w.div_ceil(facts.bank_bytes);
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
                let merge = req.op == Op::Load && (pairs_uniform(req) || period_two_pairs(req));
                if merge { base * 2 } else { base }
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

/// Wavefronts, ideal wavefronts and conflict degree of one request (fast path, no allocation).
pub fn wavefronts(arch: &Arch, config: &Config, req: &Request) -> Result<Counts, BankError> {
    req.check()?;
    let plan = plan(arch, config, req);
    let mut counts = Counts::default();
    let banks = plan.facts.banks;
    let bb_shift = plan.facts.bank_bytes.trailing_zeros();
    let bank_mask = banks - 1; // 16 or 32 banks
    let n = plan.words_per_lane;
    let mut lane0 = 0;
    while lane0 < 32 {
        let phase_mask = req.mask >> lane0
            & if plan.phase_lanes == 32 {
                u32::MAX
            } else {
                (1 << plan.phase_lanes) - 1
            };
        if phase_mask != 0 {
            let wf = if plan.facts.multicast {
                // Distinct first-word keys of the phase's lanes (a 64-slot open-addressing set, its
                // occupancy in one u64); aligned accesses make the words of two distinct keys
                // disjoint, so each new key adds one word to each of its n banks.
                let mut table = [0u32; 64];
                let mut used = 0u64;
                let mut per_bank = [0u8; 32];
                let mut distinct = 0u32;
                let mut m = phase_mask;
                while m != 0 {
                    let l = m.trailing_zeros();
                    m &= m - 1;
                    let key = conflict_key(&plan, req.addrs[(lane0 + l) as usize] >> bb_shift);
                    let mut h = (key.wrapping_mul(0x9E37_79B1) >> 26) as usize;
                    let new = loop {
                        if used >> h & 1 == 0 {
                            used |= 1 << h;
                            table[h] = key;
                            break true;
                        }
                        if table[h] == key {
                            break false;
                        }
                        h = (h + 1) & 63;
                    };
                    if new {
                        distinct += 1;
                        for j in 0..n {
                            per_bank[((key + j) & bank_mask) as usize] += 1;
                        }
                    }
                }
                counts.ideal += (distinct * n).div_ceil(banks);
                u32::from(*per_bank.iter().max().unwrap_or(&0))
            } else {
                let (wf, distinct) = tesla_phase(req, lane0, phase_mask, &plan);
                counts.ideal += distinct.div_ceil(banks);
                wf
            };
            counts.wavefronts += wf;
            counts.conflict_ways = counts.conflict_ways.max(wf);
        }
        lane0 += plan.phase_lanes;
    }
    Ok(counts)
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
        let pair_same = (0..32u32).step_by(2).all(|l| req.lane(l) == req.lane(l + 1));
        let xor2_same = (0..32u32).all(|l| req.lane(l) == req.lane(l ^ 2));
        let merge = req.op == Op::Load && (pair_same || xor2_same);
        phase_lanes = (128 / w) * if merge { 2 } else { 1 };
    }
    Plan { phase_lanes, ..fast }
}
