//! Reconciling PTX-level shared accesses with the machine code's.
//!
//! ptxas often fuses scalar shared accesses to adjacent addresses into one wider access (two `ld.f32`
//! at `[%r4]` and `[%r4+4]` become one `LDS.64`; sixteen unrolled row reads become four `LDS.128`).
//! The hardware counts the machine instruction: once, with the wider width. This module matches, per
//! source line and side (load/store), the PTX accesses grouped by base register with the machine
//! accesses grouped the same way, by the shape of the bytes they cover relative to the group's first
//! offset (`[%r4+0..8)` matches `[R0+0..8)`), and assigns each PTX pc a [`Role`]:
//! * [`Role::Plain`]: counted as PTX wrote it;
//! * [`Role::Leader`]: the lowest-addressed access of a fused group, counted once with the fused width;
//! * [`Role::Follower`]: the other members of a fused group, not counted.
//!
//! Where no machine code is available ([`Reconciliation::ptx_level`]) every access is plain and the
//! report says widths are PTX-level. Exactness against the counters is what judges this mapping; lines
//! whose groups could not be matched stay plain and are listed in [`Reconciliation::unmatched_lines`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;
use warpscope_ptx::Program;

use crate::side::Side;

/// How one PTX shared access is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Role {
    /// As PTX wrote it.
    Plain,
    /// The first access of a group ptxas fused: counted once with `width` bytes per lane.
    Leader {
        /// Fused width in bytes per lane.
        width: u8,
    },
    /// A later access of a fused group: not counted.
    Follower,
}

/// One shared access of the machine code, reduced to what reconciliation needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineAccess {
    /// Source line (from line info).
    pub line: u32,
    /// Load or store (atomics and ldmatrix are not fused and are left out).
    pub side: Side,
    /// Bytes per lane.
    pub width: u8,
    /// Register part of the address.
    pub base: String,
    /// Immediate part of the address.
    pub offset: i64,
}

/// One shared access of the PTX, as read from its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxAccess {
    /// Program-wide pc.
    pub pc: u32,
    /// Source line from `.loc` (0 when absent).
    pub line: u32,
    /// Load or store; `None` for atomics.
    pub side: Option<Side>,
    /// Bytes per lane.
    pub width: u8,
    /// Register or symbol part of the address.
    pub base: String,
    /// Immediate part of the address.
    pub offset: i64,
}

/// Per-pc roles for one kernel.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Reconciliation {
    roles: HashMap<u32, Role>,
    /// True when machine code was used; false: widths are PTX-level.
    pub machine_code: bool,
    /// Source lines where PTX and machine accesses could not be matched (counted as PTX wrote them).
    pub unmatched_lines: BTreeSet<u32>,
    /// Number of fused groups found.
    pub fused_groups: u32,
    /// The forms of the kernel's shared atomics in the machine code (see [`AtomicForm`]), by PTX
    /// pc; `None` until [`Reconciliation::with_atomic_forms`] read them (or a line's atomics could
    /// not be paired one to one).
    pub atomic_forms: Option<HashMap<u32, AtomicForm>>,
    /// Shared loads the machine code runs only for the lanes that store at the kernel's end: load
    /// pc -> the PTX's guarded global store after it (see [`Reconciliation::with_sunk_loads`]).
    /// Each execution of the load counts once the store has run, with the store's lanes.
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    pub sunk: HashMap<u32, u32>,
    /// The source predicate operand of the `LDGSTS.E.BYPASS.128 [d], [s], P` ptxas made of each
    /// PTX `cp.async` (by pc): the predicate register (`P0`-`P6`, 7 for `PT`) and whether it is
    /// negated (see [`Reconciliation::with_copy_predicates`]).
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    pub copy_predicates: HashMap<u32, (u8, bool)>,
}

/// How the machine code executes a PTX shared atomic, which decides its `ATOMS` wavefronts (H100,
/// `calibration/run/README.md`: `atomics.cu` and `atomrows`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AtomicForm {
    /// `ATOMS.POPC.INC` (an add of 1: lanes of one word merged), or an atomic ptxas aggregated to
    /// one lane (its address in a uniform register): the words' wavefronts, as a load's.
    Merged,
    /// Any other `ATOMS` (`.ADD`, `.MIN`, `.MAX`, `.EXCH`, ...): every active lane takes its own
    /// slot in its bank, so the busiest bank's lane count.
    PerLane,
}

impl Reconciliation {
    /// No machine code: every access counted as PTX wrote it.
    pub fn ptx_level() -> Self {
        Reconciliation::default()
    }

    /// Reads the forms of `kernel`'s shared atomics off its machine code `sass`, per source line: a
    /// line's PTX `atom.shared`s take the form of its `ATOMS`s when there are as many and they all
    /// have one form. (Atomics inlined from the CUDA headers share the header's line whatever
    /// their call site, and ptxas lays blocks out in its own order, so an ordinal pairing would not
    /// hold.) Any other line leaves every form unknown.
    pub fn with_atomic_forms(
        mut self,
        program: &Program,
        kernel: &str,
        sass: &warpscope_toolchain::sass::SassKernel,
    ) -> Self {
        use warpscope_ptx::inst::{Inst, MemSpace};
        use warpscope_toolchain::sass::SharedOp;
        let Some(k) = program.kernel(kernel) else {
            return self;
        };
        let mut ptx: BTreeMap<Option<u32>, Vec<u32>> = BTreeMap::new();
        for pc in k.entry..k.end {
            if matches!(
                program.ops[pc as usize].inst,
                Inst::Atom {
                    space: MemSpace::Shared,
                    ..
                }
            ) {
                ptx.entry(program.inst_info(pc).loc.as_ref().map(|l| l.line))
                    .or_default()
                    .push(pc);
            }
        }
        let mut machine: BTreeMap<Option<u32>, Vec<AtomicForm>> = BTreeMap::new();
        for a in sass.accesses.iter().filter(|a| a.op == SharedOp::Atomic) {
            // an address in uniform registers only: ptxas aggregated the warp's lanes into one
            let uniform = !a
                .base
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|t| t.starts_with('R') && t != "RZ");
            let form = if a.opcode.contains("POPC.INC") || (uniform && a.predicate.is_some()) {
                AtomicForm::Merged
            } else {
                AtomicForm::PerLane
            };
            machine.entry(a.line).or_default().push(form);
        }
        let mut forms = HashMap::new();
        if ptx.len() != machine.len() {
            return self;
        }
        for (line, pcs) in &ptx {
            let Some(m) = machine.get(line) else {
                return self;
            };
            if m.len() != pcs.len() || m.iter().any(|f| *f != m[0]) {
                return self;
            }
            forms.extend(pcs.iter().map(|&pc| (pc, m[0])));
        }
        self.atomic_forms = Some(forms);
        self
    }

    /// Reads off the machine code which of `kernel`'s shared loads ptxas moved below an early
    /// exit. A kernel that ends `ld.shared r, [a]; ...; @p st.global [b], r; ret;` (straight-line
    /// code: no label, branch, barrier or other memory access between; Triton's masked epilogue)
    /// may become `@!P EXIT; LDS; ...; STG; EXIT`: the lanes that would not store leave first, and
    /// the load runs only for the others (calibration/hopper/h200_triton2: scans_2d's last `LDS`
    /// 4 executions where its 16 warps reach it, sort_hist's 8). The rule, per such PTX tail (its
    /// guarded `st.global` on line S, its unguarded shared loads): the machine code has one
    /// straight-line tail that starts after a guarded `EXIT` (or a guarded `BRA` to an `EXIT`),
    /// holds no label, branch or barrier, one store, an unguarded `STG` of line S, and unguarded
    /// `LDS`s of exactly the loads' lines and widths, and ends in an `EXIT`. Every lane that
    /// reaches those `LDS`s runs the `STG`, and the `STG` writes for exactly the PTX store's lanes,
    /// so each load runs with the store's lanes: recorded in [`Reconciliation::sunk`]. Where the
    /// machine code has a tail with `STG` of line S and shared loads that do not pair so, the
    /// loads' lines are unmatched (estimates). A PTX that branches around its epilogue (`@p bra
    /// END; ld.shared; st.global; END: ret`) has no such tail: its loads already run for the
    /// storing lanes only.
    pub fn with_sunk_loads(
        mut self,
        program: &Program,
        kernel: &str,
        sass: &warpscope_toolchain::sass::SassKernel,
    ) -> Self {
        let tails = machine_exit_tails(sass);
        let widths: HashMap<u32, u8> = ptx_shared_accesses(program, kernel)
            .into_iter()
            .map(|a| (a.pc, a.width))
            .collect();
        let line = |pc: u32| program.inst_info(pc).loc.as_ref().map(|l| l.line);
        for (loads, store) in ptx_exit_tails(program, kernel) {
            let Some(store_line) = line(store) else {
                continue;
            };
            let mut want: Vec<(Option<u32>, u8)> = Vec::new();
            for &pc in &loads {
                want.push((line(pc), widths.get(&pc).copied().unwrap_or(0)));
            }
            want.sort_unstable();
            let same_store: Vec<&ExitTail> = tails
                .iter()
                .filter(|t| t.store_line == Some(store_line))
                .collect();
            let plain = loads.iter().all(|&pc| self.role(pc) == Role::Plain);
            match same_store.as_slice() {
                [t] if t.loads == want && plain => {
                    self.sunk.extend(loads.iter().map(|&pc| (pc, store)));
                }
                ts if ts.iter().any(|t| !t.loads.is_empty()) => {
                    self.unmatched_lines.extend(want.iter().filter_map(|w| w.0));
                }
                _ => {}
            }
        }
        let moved = loads_moved_below_exits(program, kernel, sass, &self.sunk);
        self.unmatched_lines.extend(moved);
        self
    }

    /// Reads the source predicate operand of each `LDGSTS` off the machine code
    /// ([`Reconciliation::copy_predicates`]). Each PTX `cp.async` is paired with an `LDGSTS` of
    /// its own form ([`CopyForm`]: bytes, `.cg` as `.BYPASS`, a `src-size` register as `.ZFILL`, an
    /// `ignore-src` predicate or a src-size that is the copy's size or 0 as a predicate operand):
    /// the kernel must have as many of each form on both sides. Within a form the copies pair in
    /// code order when that agrees with their source lines (where both have one) and with their
    /// destination offsets (two copies from one base register lie as far apart in the PTX as in
    /// the machine code); ptxas lays blocks out in its own order (a `switch`'s arms), so where
    /// code order does not agree, the copies pair by destination offset, when one shift of the
    /// offsets pairs every copy with exactly one `LDGSTS`. A form that pairs neither way, or forms
    /// whose counts differ (ptxas made two copies of one, merged or changed one), leave every
    /// predicate unread. Only `.BYPASS.128` copies without `.ZFILL` whose last operand is a
    /// predicate are recorded.
    pub fn with_copy_predicates(
        mut self,
        program: &Program,
        kernel: &str,
        sass: &warpscope_toolchain::sass::SassKernel,
    ) -> Self {
        if let Some(pairs) = copy_pairs(program, kernel, sass) {
            for (pc, x) in pairs {
                let recorded =
                    sass_copy_form(x).is_some_and(|f| f.bypass && f.bytes == 16 && f.source_predicate);
                if let Some(p) = sass_copy_predicate(x).filter(|_| recorded) {
                    self.copy_predicates.insert(pc, p);
                }
            }
        }
        self
    }

    /// The role of `pc` (plain when unknown).
    pub fn role(&self, pc: u32) -> Role {
        self.roles.get(&pc).copied().unwrap_or(Role::Plain)
    }

    /// Builds the roles of kernel `kernel` of `program` against its machine accesses.
    pub fn build(program: &Program, kernel: &str, machine: &[MachineAccess]) -> Self {
        let ptx = ptx_shared_accesses(program, kernel);
        let (align, placed) = match program.kernel(kernel) {
            Some(k) => (
                register_alignment(program, k),
                k.shared
                    .iter()
                    .filter(|v| !v.dynamic)
                    .map(|v| (v.name.clone(), i64::from(v.offset)))
                    .collect(),
            ),
            None => (HashMap::new(), HashMap::new()),
        };
        Self::from_accesses_placed(&ptx, machine, &align, &placed)
    }

    /// Builds the roles from already-extracted PTX and machine accesses.
    pub fn from_accesses(ptx: &[PtxAccess], machine: &[MachineAccess]) -> Self {
        Self::from_accesses_aligned(ptx, machine, &HashMap::new())
    }

    /// [`Self::from_accesses`], knowing the power of two each base register (or symbol) of the
    /// PTX accesses is a multiple of ([`register_alignment`]; absent: unknown). Where PTX groups
    /// of one shape on a line meet a machine group of that shape and a wider, fused one, the
    /// groups whose addresses are the least aligned take the machine group of their own shape
    /// first: ptxas fuses only accesses it knows to be aligned to the wider width
    /// (calibration/run/bench16 cholesky `update`: `li[ty][p]`, 32-byte aligned, read by
    /// `LDS.128`; `lj[tx][p]` with rows of 264 bytes by `LDS.64`; both 8 PTX loads of one shape).
    pub fn from_accesses_aligned(
        ptx: &[PtxAccess],
        machine: &[MachineAccess],
        align: &HashMap<String, u64>,
    ) -> Self {
        Self::from_accesses_placed(ptx, machine, align, &HashMap::new())
    }

    /// [`Self::from_accesses_aligned`], knowing the offset in the block's window of each shared
    /// symbol a PTX access may name as its base (`placed`). ptxas fuses on aligned addresses of
    /// its layout, not from a variable's first element: lookback's `warpTot[8]` at byte 4, after
    /// `tileId`, is read by `LDS.128 [0]` (`tileId` and `warpTot[0..3]`), `LDS.128 [16]` and
    /// `LDS [32]`. Such a group meets a machine shape whose pieces lie aligned only when the
    /// group starts inside its first piece (see [`placed_pieces`]).
    pub fn from_accesses_placed(
        ptx: &[PtxAccess],
        machine: &[MachineAccess],
        align: &HashMap<String, u64>,
        placed: &HashMap<String, i64>,
    ) -> Self {
        let mut r = Reconciliation {
            machine_code: true,
            ..Default::default()
        };
        type Key = (u32, Side);
        let mut p_by: BTreeMap<Key, BTreeMap<&str, Vec<&PtxAccess>>> = BTreeMap::new();
        for a in ptx {
            if let Some(side) = a.side {
                p_by.entry((a.line, side))
                    .or_default()
                    .entry(a.base.as_str())
                    .or_default()
                    .push(a);
            }
        }
        type Shapes<'s> = BTreeMap<&'s str, BTreeSet<(i64, u8)>>;
        let mut m_by: BTreeMap<Key, Shapes<'_>> = BTreeMap::new();
        for m in machine {
            m_by.entry((m.line, m.side))
                .or_default()
                .entry(m.base.as_str())
                .or_default()
                .insert((m.offset, m.width));
        }
        let mut repeated: BTreeSet<Key> = BTreeSet::new();
        for (key, groups) in &p_by {
            let Some(mgroups) = m_by.get(key) else {
                r.unmatched_lines.insert(key.0);
                continue;
            };
            let mshapes: Vec<Vec<(i64, u8)>> =
                mgroups.values().map(|s| normalise(s.iter().copied())).collect();
            // a machine group matched one for one is taken: another PTX group of the same shape
            // (fastm's `blur`: `tile[x + k]` and `w[k]`, 13 loads each on one line) is not matched
            // against it again but against the groups left (`w`'s three `LDS.128` and one `LDS`)
            let mut taken = vec![false; mshapes.len()];
            let mut ordered: Vec<&Vec<&PtxAccess>> = groups.values().collect();
            ordered.sort_by_key(|accesses| group_alignment(accesses, align));
            for accesses in ordered {
                let shape = normalise(accesses.iter().map(|a| (a.offset, a.width)));
                let min = accesses.iter().map(|a| a.offset).min().unwrap_or(0);
                let same = (0..mshapes.len()).find(|&i| !taken[i] && mshapes[i] == shape);
                if let Some(i) = same {
                    taken[i] = true;
                    if accesses.len() > shape.len() {
                        // one address more than once: checked against the machine code's count
                        // below, once fusion across lines is known
                        repeated.insert(*key);
                    }
                    continue; // one for one
                }
                // a machine shape whose accesses overlap (`[R3-0x4]`, `[R3]` and `LDS.64 [R3]`)
                // is no single fused group: the base register serves several places of the line
                // (an unrolled loop's steps, each read with other widths), whose executions differ
                if accesses.len() > 1
                    && let Some(&at) = accesses.first().and_then(|a| placed.get(&a.base))
                    && let Some((i, pieces)) = (0..mshapes.len())
                        .filter(|&i| !taken[i] && !overlaps(&mshapes[i]))
                        .find_map(|i| placed_pieces(&mshapes[i], &shape, at + min).map(|p| (i, p)))
                {
                    taken[i] = true;
                    for (lo, width) in pieces {
                        let mut members: Vec<&&PtxAccess> = accesses
                            .iter()
                            .filter(|a| (lo..lo + i64::from(width)).contains(&(a.offset - min)))
                            .collect();
                        members.sort_by_key(|a| (a.offset, a.pc));
                        if members.len() == 1 && members[0].width == width {
                            continue;
                        }
                        for (k, a) in members.iter().enumerate() {
                            let role = if k == 0 {
                                r.fused_groups += 1;
                                Role::Leader { width }
                            } else {
                                Role::Follower
                            };
                            r.roles.insert(a.pc, role);
                        }
                    }
                    continue;
                }
                let fused = if accesses.len() > 1 {
                    mshapes
                        .iter()
                        .zip(&taken)
                        .find(|(m, t)| !**t && !overlaps(m) && covers(m, &shape))
                        .map(|(m, _)| m)
                } else {
                    None
                };
                if fused.is_none() && mshapes.contains(&shape) {
                    if accesses.len() > shape.len() {
                        repeated.insert(*key);
                    }
                    continue; // one for one, its machine group shared with another PTX group
                }
                let Some(fused) = fused else {
                    // No fusion of this group: it stays as written, which is consistent only if the
                    // machine code has accesses of the same widths on this line.
                    let widths: BTreeSet<u8> = mgroups.values().flatten().map(|&(_, w)| w).collect();
                    if !accesses.iter().all(|a| widths.contains(&a.width)) {
                        r.unmatched_lines.insert(key.0);
                    }
                    // One PTX group and one machine group with more accesses: a loop ptxas
                    // unrolled, whose copies are the PTX shape moved by whole steps. A copy with
                    // a hole is an access ptxas took from another line's register instead
                    // (bench18 bilat: the centre tap of a 7x7 window, already read for the
                    // centre value on line 26, has no LDS on line 30: 49 loads a warp, not 50).
                    if groups.len() == 1 && mgroups.len() == 1 {
                        let m = &mshapes[0];
                        if m.len() > shape.len() && !copies_of(m, &shape) {
                            r.unmatched_lines.insert(key.0);
                        }
                    }
                    continue;
                };
                for a in accesses {
                    let rel = a.offset - min;
                    let (start, width) = *fused
                        .iter()
                        .find(|(s, w)| *s <= rel && rel < s + i64::from(*w))
                        .expect("covered");
                    if width == a.width {
                        continue;
                    }
                    if start == rel {
                        r.roles.insert(a.pc, Role::Leader { width });
                        r.fused_groups += 1;
                    } else {
                        r.roles.insert(a.pc, Role::Follower);
                    }
                }
            }
        }
        r.fuse_across_lines(ptx, machine);
        // A group that reads or writes one address more than once matched its shape, but the
        // line counts more PTX accesses (fused groups once) than the machine code has: ptxas kept
        // a repeat's value in registers and removed the access (CUB's raking scan reloads its
        // raking segment: 7 PTX loads on the line, 4 LDS), so the counts as written are too high.
        for &(line, side) in &repeated {
            let counted = ptx
                .iter()
                .filter(|a| a.line == line && a.side == Some(side) && r.role(a.pc) != Role::Follower)
                .count();
            let machine_n = machine
                .iter()
                .filter(|m| m.line == line && m.side == side)
                .count();
            if counted > machine_n {
                r.unmatched_lines.insert(line);
            }
        }
        // A machine access no PTX access of its line and side explains (same width as written,
        // or the width of a fused group): ptxas gave some executions of the line another form
        // (sortingNetworks' bitonicSortShared1: the stride-1 pass of an unrolled loop reads both
        // keys with one LDS.64, the others with two LDS), which per-line roles cannot express.
        for m in machine {
            let explained = ptx.iter().any(|a| {
                a.line == m.line
                    && a.side == Some(m.side)
                    && match r.role(a.pc) {
                        Role::Plain => a.width == m.width,
                        Role::Leader { width } => width == m.width,
                        // a group fused across lines, its leader on another line
                        Role::Follower => m.width > a.width,
                    }
            });
            if !explained && ptx.iter().any(|a| a.line == m.line && a.side == Some(m.side)) {
                r.unmatched_lines.insert(m.line);
            }
        }
        r
    }

    /// Second pass: ptxas also fuses accesses that `.loc` puts on different source lines (a
    /// `t = temp[a]; temp[a] = temp[b]` pair becomes one `LDS.64` and one `STS.64`, each attributed
    /// to one of the lines). A machine access of width `w` on line `L` that no PTX access of that line
    /// explains (same width, or a fused leader of that width) claims a group of still-plain PTX
    /// accesses with the same base that tiles `w` bytes exactly, one of them on line `L`, the others
    /// within a few instructions.
    fn fuse_across_lines(&mut self, ptx: &[PtxAccess], machine: &[MachineAccess]) {
        const NEAR_PCS: u32 = 32;
        // machine accesses of one (line, side, width) seen so far: the n-th is explained when the
        // line has n PTX accesses of that width (plain, or leaders of fused groups); an unrolled
        // loop repeats one fused pair on one line (bitonicSortShared1: ten `LDS.64` of values, each
        // fusing a line-19 and a line-20 load)
        let mut seen: HashMap<(u32, Side, u8), usize> = HashMap::new();
        // a base register whose accesses on a line overlap (`[R3]` and `LDS.64 [R3]`) serves
        // several places of the line with other forms: which PTX accesses one of them fuses
        // cannot be told (see `overlaps`), so nothing is claimed for it
        type Place<'a> = (u32, Side, &'a str);
        let mut shapes: HashMap<Place<'_>, Vec<(i64, u8)>> = HashMap::new();
        for m in machine {
            let v = shapes.entry((m.line, m.side, m.base.as_str())).or_default();
            if !v.contains(&(m.offset, m.width)) {
                v.push((m.offset, m.width));
            }
        }
        for m in machine {
            if overlaps(&shapes[&(m.line, m.side, m.base.as_str())]) {
                continue;
            }
            let n = seen.entry((m.line, m.side, m.width)).or_insert(0);
            *n += 1;
            let explained = ptx
                .iter()
                .filter(|a| {
                    a.line == m.line
                        && a.side == Some(m.side)
                        && match self.role(a.pc) {
                            Role::Plain => a.width == m.width,
                            Role::Leader { width } => width == m.width,
                            Role::Follower => false,
                        }
                })
                .count();
            if *n <= explained {
                continue;
            }
            let free = |a: &&PtxAccess| a.side == Some(m.side) && !self.roles.contains_key(&a.pc);
            let mut claimed: Option<Vec<(u32, i64)>> = None;
            'anchors: for anchor in ptx
                .iter()
                .filter(free)
                .filter(|a| a.line == m.line && a.width < m.width)
            {
                let w = i64::from(m.width);
                let step = i64::from(anchor.width);
                for start in (0..w / step).map(|j| anchor.offset - j * step) {
                    // per offset, the access nearest the anchor: an unrolled loop repeats the
                    // same base and offsets a few instructions on (bitonicSortShared1's
                    // Comparator, inlined once per stage, reads `[%r8]`/`[%r8+4]` in each)
                    let mut nearest: BTreeMap<i64, &PtxAccess> = BTreeMap::new();
                    for a in ptx.iter().filter(free).filter(|a| {
                        a.base == anchor.base
                            && a.offset >= start
                            && a.offset < start + w
                            && a.pc.abs_diff(anchor.pc) <= NEAR_PCS
                    }) {
                        let e = nearest.entry(a.offset).or_insert(a);
                        if a.pc.abs_diff(anchor.pc) < e.pc.abs_diff(anchor.pc) {
                            *e = a;
                        }
                    }
                    let members: Vec<&PtxAccess> = nearest.into_values().collect();
                    let shape = normalise(members.iter().map(|a| (a.offset, a.width)));
                    let exact = members.len() >= 2
                        && members.iter().map(|a| i64::from(a.width)).sum::<i64>() == w
                        && covers(&[(0, m.width)], &shape)
                        && members.iter().any(|a| a.offset == start);
                    if exact {
                        claimed = Some(members.iter().map(|a| (a.pc, a.offset - start)).collect());
                        break 'anchors;
                    }
                }
            }
            if let Some(group) = claimed {
                for (pc, rel) in group {
                    let role = if rel == 0 {
                        Role::Leader { width: m.width }
                    } else {
                        Role::Follower
                    };
                    self.roles.insert(pc, role);
                }
                self.fused_groups += 1;
            }
        }
    }
}

/// The PTX's straight-line kernel endings that store under a guard: per unguarded `ret`/`exit`,
/// the instructions before it back to a label or to an instruction other than register
/// arithmetic, a parameter or constant load, an unguarded non-volatile shared load or one guarded
/// `st.global`; (the shared loads, the store) when both are there.
fn ptx_exit_tails(program: &Program, kernel: &str) -> Vec<(Vec<u32>, u32)> {
    use warpscope_ptx::inst::{Inst, MemSpace, PSrc};
    let Some(k) = program.kernel(kernel) else {
        return Vec::new();
    };
    let targets: BTreeSet<u32> = (k.entry..k.end)
        .filter_map(|pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } => Some(target),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for r in k.entry..k.end {
        let op = &program.ops[r as usize];
        if !matches!(op.inst, Inst::Exit) || op.guard != PSrc::TRUE {
            continue;
        }
        let (mut loads, mut store) = (Vec::new(), None);
        let mut pc = r;
        // lanes may enter at a label: what comes before it is not the tail's
        while pc > k.entry && !targets.contains(&pc) {
            let prev = pc - 1;
            let op = &program.ops[prev as usize];
            let guarded = op.guard != PSrc::TRUE;
            let volatile = program.inst_info(prev).text.contains(".volatile");
            match op.inst {
                Inst::Ld {
                    space: MemSpace::Shared,
                    sync: false,
                    ..
                } if !guarded && !volatile => loads.push(prev),
                Inst::Ld {
                    space: MemSpace::KernelParam | MemSpace::Const,
                    ..
                } => {}
                Inst::St {
                    space: MemSpace::Global,
                    ..
                } if guarded && store.is_none() => store = Some(prev),
                Inst::Un { .. }
                | Inst::Bin { .. }
                | Inst::Tern { .. }
                | Inst::FRound { .. }
                | Inst::Carry { .. }
                | Inst::Bfi { .. }
                | Inst::Selp { .. }
                | Inst::Setp { .. }
                | Inst::Set { .. }
                | Inst::PredOp { .. }
                | Inst::PredToReg { .. }
                | Inst::RegToPred { .. }
                | Inst::Cvt { .. }
                | Inst::TestP { .. }
                | Inst::Cvta { .. }
                | Inst::Pack2 { .. }
                | Inst::Unpack2 { .. }
                | Inst::Lop3 { .. }
                | Inst::Nop => {}
                _ => break,
            }
            pc = prev;
        }
        if let Some(store) = store
            && !loads.is_empty()
        {
            loads.reverse();
            out.push((loads, store));
        }
    }
    out
}

/// A straight-line ending of the machine code after an early exit (see
/// [`machine_exit_tails`]).
#[derive(Debug, PartialEq, Eq)]
struct ExitTail {
    /// The `LDS`s' (line, width), sorted.
    loads: Vec<(Option<u32>, u8)>,
    /// The line of its one store, an unguarded `STG`; `None` when the store is of another kind,
    /// guarded, or not alone.
    store_line: Option<u32>,
}

/// The machine code's endings that only lanes passing an early exit run: per unguarded `EXIT`, the
/// instructions before it back to a guarded `EXIT` or a guarded `BRA` whose target is an
/// unguarded `EXIT`, when none of them is labelled (lanes could enter there), a branch, a
/// barrier or a convergence instruction, and every `LDS` among them is unguarded.
fn machine_exit_tails(sass: &warpscope_toolchain::sass::SassKernel) -> Vec<ExitTail> {
    use warpscope_toolchain::sass::SharedOp;
    let labelled: BTreeSet<u32> = sass.labels.values().copied().collect();
    let insts = &sass.insts;
    let guarded = |p: &Option<String>| p.as_deref().is_some_and(|p| p != "PT");
    let base = |op: &str| op.split('.').next().unwrap_or("").to_string();
    let plain_exit = |i: usize| base(&insts[i].opcode) == "EXIT" && !guarded(&insts[i].predicate);
    let exit_at = |label: &str| {
        let label = label.trim_matches(|c| c == '`' || c == '(' || c == ')' || c == ' ');
        sass.labels
            .get(label)
            .and_then(|&off| insts.iter().position(|x| x.code_offset == off))
            .is_some_and(plain_exit)
    };
    let mut out = Vec::new();
    for j in 0..insts.len() {
        if !plain_exit(j) {
            continue;
        }
        let mut tail = ExitTail {
            loads: Vec::new(),
            store_line: None,
        };
        let mut stores = 0;
        let mut found = false;
        for i in (0..j).rev() {
            let x = &insts[i];
            let b = base(&x.opcode);
            if guarded(&x.predicate)
                && (b == "EXIT" || b == "BRA" && x.operands.split(',').next_back().is_some_and(exit_at))
            {
                found = true;
                break;
            }
            if labelled.contains(&x.code_offset) {
                break;
            }
            match b.as_str() {
                "BRA" | "BRX" | "JMP" | "JMX" | "CALL" | "RET" | "EXIT" | "BSSY" | "BSYNC" | "BREAK"
                | "WARPSYNC" | "BAR" | "BPT" | "KILL" | "NANOSLEEP" | "YIELD" | "MEMBAR" | "FENCE"
                | "ERRBAR" | "DEPBAR" | "CCTL" | "SYNCS" | "ARRIVES" | "ATOMS" | "ATOMG" | "ATOM" | "RED"
                | "REDG" | "STS" | "STL" | "LDGSTS" | "LDSM" | "STSM" | "UBLKCP" | "UTMALDG" | "UTMASTG" => {
                    break;
                }
                "LDS" => {
                    if guarded(&x.predicate) {
                        break;
                    }
                    let a = sass
                        .accesses
                        .iter()
                        .find(|a| a.code_offset == x.code_offset && a.op == SharedOp::Load);
                    tail.loads.push((x.line, a.map_or(0, |a| a.width)));
                }
                "STG" | "ST" => {
                    stores += 1;
                    tail.store_line = if guarded(&x.predicate) || b == "ST" {
                        None
                    } else {
                        x.line
                    };
                }
                _ => {}
            }
        }
        if found {
            if stores != 1 {
                tail.store_line = None;
            }
            tail.loads.sort_unstable();
            out.push(tail);
        }
    }
    out
}

/// Distinct (offset - min, width), sorted.
fn normalise(it: impl Iterator<Item = (i64, u8)>) -> Vec<(i64, u8)> {
    let v: BTreeSet<(i64, u8)> = it.collect();
    let min = v.iter().map(|x| x.0).min().unwrap_or(0);
    v.into_iter().map(|(o, w)| (o - min, w)).collect()
}

/// Where ptxas fused a group of PTX accesses whose lowest address is `at` in the block's window
/// and does not lie on the width of the machine shape `m`'s widest piece: `m` (normalised, its
/// pieces disjoint) placed so that its first piece starts at `at` rounded down to that width.
/// Every piece must then lie on its own width, hold at least one access of the group's shape `p`
/// (normalised) and only whole ones, and every access must lie in a piece (the bytes a piece
/// reads beyond the group belong to the variables beside it). The pieces as `(start, width)`
/// relative to the group's lowest offset (the first starts below it); `None` when the group
/// starts on the width or the pieces do not fit.
fn placed_pieces(m: &[(i64, u8)], p: &[(i64, u8)], at: i64) -> Option<Vec<(i64, u8)>> {
    let widest = i64::from(m.iter().map(|&(_, w)| w).max()?);
    let shift = at.rem_euclid(widest);
    if shift == 0 {
        return None;
    }
    let mut inside = 0;
    for &(start, w) in m {
        let (lo, hi) = (start - shift, start - shift + i64::from(w));
        if (at - shift + start).rem_euclid(i64::from(w)) != 0 {
            return None;
        }
        let n = p.iter().filter(|&&(o, _)| lo <= o && o < hi).count();
        if n == 0
            || p.iter()
                .any(|&(o, pw)| lo <= o && o < hi && o + i64::from(pw) > hi)
        {
            return None;
        }
        inside += n;
    }
    (inside == p.len()).then(|| m.iter().map(|&(s, w)| (s - shift, w)).collect())
}

/// True when the machine shape `m` is whole copies of the PTX shape `p` (both normalised) at
/// distinct places: the lowest access left starts a copy, every access of the copy is there.
fn copies_of(m: &[(i64, u8)], p: &[(i64, u8)]) -> bool {
    let mut left: BTreeSet<(i64, u8)> = m.iter().copied().collect();
    while let Some(&(start, _)) = left.first() {
        for &(o, w) in p {
            if !left.remove(&(start + o, w)) {
                return false;
            }
        }
    }
    true
}

/// True when two accesses of the shape share a byte.
fn overlaps(m: &[(i64, u8)]) -> bool {
    m.iter().enumerate().any(|(i, &(s, w))| {
        m[i + 1..]
            .iter()
            .any(|&(t, v)| s < t + i64::from(v) && t < s + i64::from(w))
    })
}

/// True when the machine shape `m` covers exactly the bytes of the PTX shape `p`, every machine
/// access starts where a PTX access starts, and every PTX access lies inside one machine access.
fn covers(m: &[(i64, u8)], p: &[(i64, u8)]) -> bool {
    let bytes =
        |v: &[(i64, u8)]| -> BTreeSet<i64> { v.iter().flat_map(|&(o, w)| o..o + i64::from(w)).collect() };
    bytes(m) == bytes(p)
        && m.iter().all(|(s, _)| p.iter().any(|(o, _)| o == s))
        && p.iter().all(|&(o, w)| {
            m.iter()
                .any(|&(s, mw)| s <= o && o + i64::from(w) <= s + i64::from(mw))
        })
}

/// The power of two the first address of a group of PTX accesses (one base) is known to be a
/// multiple of: its base's ([`register_alignment`]; unknown bases count as aligned to any width)
/// and its lowest offset's.
fn group_alignment(accesses: &[&PtxAccess], align: &HashMap<String, u64>) -> u64 {
    let base = accesses
        .first()
        .and_then(|a| align.get(&a.base))
        .copied()
        .unwrap_or(ALIGN_ANY);
    let min = accesses.iter().map(|a| a.offset).min().unwrap_or(0);
    base.min(offset_alignment(min))
}

/// Alignment that stands for "a multiple of every power of two that matters" (zero, unknown).
const ALIGN_ANY: u64 = 1 << 32;

fn offset_alignment(v: i64) -> u64 {
    if v == 0 {
        ALIGN_ANY
    } else {
        (1u64 << v.unsigned_abs().trailing_zeros()).min(ALIGN_ANY)
    }
}

/// For every register of `k` written by integer arithmetic, the largest power of two its values
/// are known to be multiples of, read off the PTX text: shared symbols by their offset in the
/// block's window, immediates, `mov`, `cvta`, `cvt`, `add`, `sub`, `or`, `shl` by an immediate,
/// `mul.lo`/`mul.wide`, `mad.lo`/`mad.wide`, `and` with an immediate mask; every other
/// instruction (special registers, loads, divisions) makes its destination unknown (1). A
/// register written in several places (a loop's induction variable) takes the least of them.
pub fn register_alignment(program: &Program, k: &warpscope_ptx::Kernel) -> HashMap<String, u64> {
    let ops = parse_ops(program, k);
    let symbols: HashMap<&str, u64> = k
        .shared
        .iter()
        .map(|v| {
            let at = if v.dynamic { k.dyn_smem_base } else { v.offset };
            (v.name.as_str(), offset_alignment(i64::from(at)))
        })
        .collect();
    let mut align: HashMap<String, u64> = HashMap::new();
    for o in &ops {
        for d in &o.dests {
            align.insert(d.clone(), ALIGN_ANY);
        }
    }
    let value = |align: &HashMap<String, u64>, x: &str| -> u64 {
        let x = x.trim();
        if let Some(&a) = align.get(x) {
            return a;
        }
        if let Some(&a) = symbols.get(x) {
            return a;
        }
        let (neg, digits) = match x.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, x),
        };
        let n = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
            Some(h) => i64::from_str_radix(h, 16).ok(),
            None => digits.parse::<i64>().ok(),
        };
        match n {
            Some(n) => offset_alignment(if neg { -n } else { n }),
            None => 1,
        }
    };
    let imm = |x: &str| -> Option<u32> { x.trim().parse::<u32>().ok() };
    for _ in 0..64 {
        let mut changed = false;
        for o in &ops {
            let [d] = o.dests.as_slice() else {
                for d in &o.dests {
                    if align.get(d) != Some(&1) {
                        align.insert(d.clone(), 1);
                        changed = true;
                    }
                }
                continue;
            };
            let base = o.op.split('.').next().unwrap_or("");
            let v = |i: usize| o.operands.get(i).map_or(1, |x| value(&align, x));
            let mul = |a: u64, b: u64| a.saturating_mul(b).min(ALIGN_ANY);
            let got = match base {
                "mov" | "cvta" | "cvt" if o.operands.len() == 1 => v(0),
                "add" | "sub" | "or" if o.operands.len() == 2 => v(0).min(v(1)),
                "shl" if o.operands.len() == 2 => match o.operands.get(1).and_then(|x| imm(x)) {
                    Some(s) if s < 32 => mul(v(0), 1 << s),
                    _ => 1,
                },
                "mul" if o.op.contains(".lo") || o.op.contains(".wide") => mul(v(0), v(1)),
                "mad" if o.op.contains(".lo") || o.op.contains(".wide") => mul(v(0), v(1)).min(v(2)),
                "and" if o.operands.len() == 2 => v(0).max(v(1)),
                _ => 1,
            };
            let cur = align.get(d).copied().unwrap_or(ALIGN_ANY);
            if got < cur {
                align.insert(d.clone(), got);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    align
}

/// The shared accesses of kernel `kernel`, read from each instruction's PTX text.
pub fn ptx_shared_accesses(program: &Program, kernel: &str) -> Vec<PtxAccess> {
    let Some(k) = program.kernel(kernel) else {
        return Vec::new();
    };
    (k.entry..k.end)
        .filter_map(|pc| {
            let info = program.inst_info(pc);
            let mut a = parse_ptx_shared(&info.text)?;
            a.pc = pc;
            a.line = info.loc.map_or(0, |l| l.line);
            Some(a)
        })
        .collect()
}

/// Reads `ld.shared.v2.f32 %f1, [%r4+8];`-style text; `None` when it is not a shared access.
pub fn parse_ptx_shared(text: &str) -> Option<PtxAccess> {
    let t = text.trim().trim_start_matches(['@', '!']);
    let t = if text.trim().starts_with('@') {
        t.split_once(char::is_whitespace)?.1.trim()
    } else {
        t
    };
    let opcode = t.split_whitespace().next()?;
    let parts: Vec<&str> = opcode.split('.').collect();
    if !parts.contains(&"shared") && !parts.iter().any(|p| p.starts_with("shared::")) {
        return None;
    }
    let side = match parts[0] {
        "ld" => Some(Side::Load),
        "st" => Some(Side::Store),
        "atom" | "red" => None,
        _ => return None,
    };
    let mut elem = 4u8;
    let mut vec = 1u8;
    for p in &parts[1..] {
        match *p {
            "v2" => vec = 2,
            "v4" => vec = 4,
            "u8" | "s8" | "b8" => elem = 1,
            "u16" | "s16" | "b16" | "f16" | "bf16" => elem = 2,
            "u32" | "s32" | "b32" | "f32" | "f16x2" | "bf16x2" => elem = 4,
            "u64" | "s64" | "b64" | "f64" => elem = 8,
            _ => {}
        }
    }
    let open = t.find('[')?;
    let close = t[open..].find(']')? + open;
    let inner = &t[open + 1..close];
    let (base, offset) = match inner.rfind(['+', '-']) {
        Some(i) if i > 0 => {
            let off: i64 = inner[i + 1..].trim().parse().ok()?;
            (
                // `[%r31+-32]`: the base is `%r31`, as in `[%r31+8]`
                inner[..i].trim().trim_end_matches('+').trim_end().to_string(),
                if &inner[i..=i] == "-" { -off } else { off },
            )
        }
        _ => match inner.trim().parse::<i64>() {
            Ok(v) => (String::new(), v),
            Err(_) => (inner.trim().to_string(), 0),
        },
    };
    Some(PtxAccess {
        pc: 0,
        line: 0,
        side,
        width: elem * vec,
        base,
        offset,
    })
}

/// The machine accesses of one disassembled kernel, in the form [`Reconciliation::build`] takes
/// (atomics, ldmatrix and accesses without line info are left out). A kernel built without line
/// info (no `-lineinfo`, as CuTe programs often are) has none on any instruction, and its PTX no
/// `.loc` either ([`ptx_shared_accesses`] puts every access on line 0): its accesses are all
/// taken, on line 0, so that the whole kernel is matched as one line (calibration/halfst:
/// `halfst_noline`; calibration/cutlass: the epilogue's 16-bit stores that ptxas pairs).
pub fn machine_accesses(k: &warpscope_toolchain::sass::SassKernel) -> Vec<MachineAccess> {
    use warpscope_toolchain::sass::SharedOp;
    let no_lines = !k.insts.is_empty()
        && k.insts.iter().all(|i| i.line.is_none())
        && k.accesses.iter().all(|a| a.line.is_none());
    k.accesses
        .iter()
        .filter_map(|a| {
            let side = match a.op {
                SharedOp::Load => Side::Load,
                SharedOp::Store => Side::Store,
                _ => return None,
            };
            Some(MachineAccess {
                line: if no_lines { 0 } else { a.line? },
                side,
                width: a.width,
                base: a.base.clone(),
                offset: a.offset,
            })
        })
        .collect()
}

/// Source lines (`None`: no line table) whose global loads and stores the machine code does not keep
/// as the PTX has them, so counting the PTX's executions is an estimate of Nsight Compute's global
/// requests and sectors. Per source line, the PTX's global (and generic) `ld`/`st` and the machine
/// code's `LDG`/`STG`/`LD`/`ST` are counted inside a loop and outside any loop; the line matches
/// when both counts agree. What this catches: ptxas hoisting a load out of a loop that the PTX
/// reloads every iteration (a load next to warp collectives, which NVVM does not move), a loop ptxas
/// unrolled, accesses it merged or removed. The guarded ones (`@p ld`, `@P0 LDG`) are counted
/// apart as well: ptxas sinks a load the PTX makes on every pass under the condition that uses
/// its value (`int t = code[pc++]; if (top == 0) pc = t;` loads `t` by `@!P0 LDG` only in the
/// lanes that jump), so the machine code loads less often than the PTX on the same line. Only
/// more guarded accesses in the machine code than in the PTX unmatch a line: a PTX guard ptxas
/// drops is one it proves true (Triton's `@%p2 ld.global` of a block that is never masked), and
/// the access then runs in the same lanes. A PTX access in an if-converted arm
/// ([`hammock_arms`]: `if (i < n) x = a[i];` becomes `@P0 LDG`) counts as guarded. A line whose
/// unguarded PTX accesses lie in more machine basic blocks than PTX basic blocks ([`ptx_blocks`]),
/// in machine blocks that do not run equally often ([`SassBlocks`]), had one moved across a branch
/// without a predicate (sunk below the test that skips its use), and is unmatched too.
pub fn global_lines_unmatched(
    program: &Program,
    kernel: &str,
    sass: &warpscope_toolchain::sass::SassKernel,
) -> Option<Vec<Option<u32>>> {
    use warpscope_ptx::inst::{Inst, MemSpace};
    let k = program.kernel(kernel)?;
    let ptx_cyclic = ptx_cyclic(program, k);
    let ptx_blocks = ptx_blocks(program, k);
    let arms = hammock_arms(program, k);
    let base = |f: &str| f.rsplit(['/', '\\']).next().unwrap_or(f).to_string();
    type Key = (Option<String>, Option<u32>);
    // (inside a loop, outside) per line, PTX then machine code; then the guarded ones, PTX and
    // machine code
    let mut lines: BTreeMap<Key, [usize; 6]> = BTreeMap::new();
    // the basic blocks holding each line's accesses, PTX then machine code
    let mut blocks: BTreeMap<Key, [BTreeSet<u32>; 2]> = BTreeMap::new();
    for pc in k.entry..k.end {
        // machine instructions the PTX instruction makes: one per ld/st; a row-major f32 wmma C
        // fragment is four 8-byte accesses (LDG/STG.E.64), any other wmma fragment eight
        let n = match program.ops[pc as usize].inst {
            Inst::Ld { space, .. } | Inst::St { space, .. }
                if matches!(space, MemSpace::Global | MemSpace::Generic) =>
            {
                1
            }
            Inst::WmmaStore {
                col,
                ty,
                space: MemSpace::Global,
                ..
            } => {
                if !col && ty.bytes() == 4 {
                    4
                } else {
                    8
                }
            }
            Inst::WmmaLoad {
                frag,
                col,
                ty,
                space: MemSpace::Global,
                ..
            } => {
                if frag == warpscope_ptx::inst::WmmaFrag::C && !col && ty.bytes() == 4 {
                    4
                } else {
                    8
                }
            }
            _ => 0,
        };
        if n == 0 {
            continue;
        }
        let info = program.inst_info(pc);
        let key = match &info.loc {
            Some(l) => (program.file_name(l.file).map(base), Some(l.line)),
            None => (None, None),
        };
        let inside = ptx_cyclic[(pc - k.entry) as usize];
        blocks.entry(key.clone()).or_default()[0].insert(ptx_blocks[(pc - k.entry) as usize]);
        let c = lines.entry(key).or_default();
        c[usize::from(!inside)] += n;
        if program.ops[pc as usize].guard != warpscope_ptx::inst::PSrc::TRUE || arms.contains(&pc) {
            c[4] += n;
        }
    }
    let sass_cyclic = sass_cyclic(sass);
    let sass_blocks = sass_blocks(sass);
    let guarded: BTreeSet<u32> = sass
        .insts
        .iter()
        .filter(|i| i.predicate.as_deref().is_some_and(|p| p != "PT"))
        .map(|i| i.code_offset)
        .collect();
    for g in &sass.globals {
        let key = (g.file.as_deref().map(base), g.line);
        let inside = sass_cyclic.contains(&g.code_offset);
        if let Some(b) = sass_blocks.of(g.code_offset) {
            blocks.entry(key.clone()).or_default()[1].insert(b);
        }
        let c = lines.entry(key).or_default();
        c[2 + usize::from(!inside)] += 1;
        if guarded.contains(&g.code_offset) {
            c[5] += 1;
        }
    }
    Some(
        lines
            .into_iter()
            .filter(|(key, c)| {
                // only where the PTX's accesses are all unguarded: ptxas also turns a guarded
                // PTX access (`@%p ld.global`, Triton's masks) into a jump around an unguarded
                // one, the same lanes
                let split = c[4] == 0
                    && blocks.get(key).is_some_and(|[ptx, machine]| {
                        machine.len() > ptx.len() && !sass_blocks.equivalent(machine)
                    });
                c[0] != c[2] || c[1] != c[3] || c[5] > c[4] || split
            })
            .map(|((_, line), _)| line)
            .collect(),
    )
}

/// Source lines of shared loads ptxas moved below an early exit: a machine `LDS` of the line is
/// dominated by exit tests (blocks that may leave the kernel: a guarded `EXIT`, or a branch to a
/// block that only leaves) of more distinct conditions than any PTX `ld.shared` of the line. A
/// condition is the test's source line (file base name and line): ptxas copies a test where it
/// unrolls or rotates a loop, each copy on the line of the test it came from. msquares' `emit`
/// (calibration/run/bench16) loads `warpTot[w - 1]` before `if (n == 0) return;` in the PTX, every
/// thread of a warp with `w > 0`; ptxas sinks it below the return, so only the threads with work
/// load it (H200 24,418 loads where the PTX runs 130,976). Such a line is unmatched: the machine
/// code's own loads are followed. The tests are not counted one by one: a loop at the end of a
/// kernel that the PTX unrolls by 4 behind two trip-count tests (`if (n == 0) return`, `if (n <
/// 4) return`, calibration/run/cccl `tsort`'s reduce-by-key agent, line 331) ptxas unrolls by 16
/// more with a third test of the same line before its last four loads, which run as often as the
/// PTX's (the H200's counts). Loads [`Reconciliation::with_sunk_loads`] already paired with their
/// store (`sunk`) are not counted again.
fn loads_moved_below_exits(
    program: &Program,
    kernel: &str,
    sass: &warpscope_toolchain::sass::SassKernel,
    sunk: &HashMap<u32, u32>,
) -> BTreeSet<u32> {
    use petgraph::graph::{DiGraph, NodeIndex};
    use warpscope_ptx::inst::{Inst, MemSpace, PSrc};
    use warpscope_toolchain::sass::SharedOp;
    let mut moved = BTreeSet::new();
    let Some(k) = program.kernel(kernel) else {
        return moved;
    };
    // the PTX's blocks, their edges and exit tests
    let blocks = ptx_blocks(program, k);
    let firsts: Vec<u32> = {
        let mut v: Vec<u32> = blocks.clone();
        v.dedup();
        v
    };
    let index: HashMap<u32, usize> = firsts.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let n = firsts.len();
    let mut g = DiGraph::<(), ()>::with_capacity(n + 1, 2 * n);
    for _ in 0..=n {
        g.add_node(());
    }
    let exit = n;
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let last = firsts.get(i + 1).copied().unwrap_or(k.end) - 1;
            let op = &program.ops[last as usize];
            let guarded = op.guard != PSrc::TRUE;
            let next = if i + 1 < n { i + 1 } else { exit };
            let mut to = Vec::new();
            match op.inst {
                Inst::Bra { target, .. } => {
                    to.push(
                        target
                            .checked_sub(k.entry)
                            .and_then(|d| blocks.get(d as usize))
                            .and_then(|b| index.get(b))
                            .copied()
                            .unwrap_or(exit),
                    );
                    if guarded {
                        to.push(next);
                    }
                }
                Inst::Exit | Inst::Ret | Inst::Trap => {
                    to.push(exit);
                    if guarded {
                        to.push(next);
                    }
                }
                _ => to.push(next),
            }
            to.dedup();
            to
        })
        .collect();
    for (i, to) in succ.iter().enumerate() {
        for &t in to {
            g.add_edge(NodeIndex::new(i), NodeIndex::new(t), ());
        }
    }
    let leaves_only = |t: usize| t == exit || succ[t].as_slice() == [exit];
    let test: Vec<bool> = succ
        .iter()
        .map(|s| s.len() > 1 && s.iter().any(|&t| leaves_only(t)))
        .collect();
    let dom = petgraph::algo::dominators::simple_fast(&g, NodeIndex::new(0));
    // the distinct conditions (the tests' source lines) of the exit tests dominating block `b`
    type Condition = Option<(Option<String>, u32)>;
    let tests_above = |b: usize,
                       dom: &petgraph::algo::dominators::Dominators<NodeIndex>,
                       test: &dyn Fn(usize) -> Option<Condition>| {
        dom.dominators(NodeIndex::new(b)).map_or(0, |it| {
            it.filter(|d| d.index() != b)
                .filter_map(|d| test(d.index()))
                .collect::<BTreeSet<Condition>>()
                .len()
        })
    };
    // by source file (its last path component, as the machine code's line table may name it
    // otherwise) and line: headers' lines collide across files
    let base = |f: &str| f.rsplit(['/', '\\']).next().unwrap_or(f).to_string();
    let ptx_condition = |x: usize| -> Condition {
        let last = firsts.get(x + 1).copied().unwrap_or(k.end) - 1;
        program
            .inst_info(last)
            .loc
            .as_ref()
            .map(|l| (program.file_name(l.file).map(base), l.line))
    };
    let mut ptx_most: BTreeMap<(Option<String>, u32), usize> = BTreeMap::new();
    for pc in k.entry..k.end {
        if !matches!(
            program.ops[pc as usize].inst,
            Inst::Ld {
                space: MemSpace::Shared,
                ..
            }
        ) || sunk.contains_key(&pc)
        {
            continue;
        }
        let Some(key) = program
            .inst_info(pc)
            .loc
            .as_ref()
            .map(|l| (program.file_name(l.file).map(base), l.line))
        else {
            continue;
        };
        let b = index[&blocks[(pc - k.entry) as usize]];
        let c = tests_above(b, &dom, &|x| (x < n && test[x]).then(|| ptx_condition(x)));
        let e = ptx_most.entry(key).or_default();
        *e = (*e).max(c);
    }
    if ptx_most.is_empty() {
        return moved;
    }
    // the machine code's
    let sb = sass_blocks(sass);
    let m = sb.starts.len();
    let mut msucc: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); m + 1];
    for e in sb.graph_edges.iter() {
        msucc[e.0].insert(e.1);
    }
    let mleaves = |t: usize| t == m || msucc[t].iter().eq([m].iter());
    let mtest: Vec<bool> = (0..m)
        .map(|x| msucc[x].len() > 1 && msucc[x].iter().any(|&t| mleaves(t)))
        .collect();
    // a machine block's condition: the line of its last branch (the guarded `EXIT` or `BRA`)
    let mut mcondition: HashMap<usize, Condition> = HashMap::new();
    for x in &sass.branches {
        if let Some(b) = sb.of(x.code_offset) {
            mcondition.insert(b as usize, x.line.map(|l| (x.file.as_deref().map(base), l)));
        }
    }
    for a in sass.accesses.iter().filter(|a| a.op == SharedOp::Load) {
        let (Some(line), Some(b)) = (a.line, sb.of(a.code_offset)) else {
            continue;
        };
        let Some(&most) = ptx_most.get(&(a.file.as_deref().map(base), line)) else {
            continue;
        };
        let c = tests_above(b as usize, &sb.dom, &|x| {
            (x < m && mtest[x]).then(|| mcondition.get(&x).cloned().flatten())
        });
        if c > most {
            moved.insert(line);
        }
    }
    moved
}

/// The basic block of each of `k`'s PTX instructions (by pc - entry), numbered by its first pc: a
/// block starts at the entry, at every branch target and after every branch, `exit`, `ret` and
/// `trap`.
fn ptx_blocks(program: &Program, k: &warpscope_ptx::Kernel) -> Vec<u32> {
    use warpscope_ptx::inst::Inst;
    let (entry, end) = (k.entry, k.end);
    let mut starts = BTreeSet::from([entry]);
    for pc in entry..end {
        match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } => {
                starts.insert(target);
                starts.insert(pc + 1);
            }
            Inst::Exit | Inst::Ret | Inst::Trap => {
                starts.insert(pc + 1);
            }
            _ => {}
        }
    }
    let mut block = entry;
    (entry..end)
        .map(|pc| {
            if starts.contains(&pc) {
                block = pc;
            }
            block
        })
        .collect()
}

/// The machine code's basic blocks and which run equally often. A block starts at the first
/// instruction, at every label (branch targets) and after every jump, guarded `EXIT`/`RET` or
/// indirect jump; `BRA.DIV`'s fall-through is the converged warp's path and starts none. A line
/// whose unguarded global accesses the PTX keeps in fewer blocks than the machine code, in machine
/// blocks that do not run equally often, had one moved across a branch: ptxas sinks `b = start[c]`
/// below the `m < 1` test that skips the loop using it (`int b = start[c], m = cnt[c]; for (a = 0;
/// a < m; ++a) .. sorted[b + a]`), so fewer lanes load it than in the PTX. Loads ptxas moves above
/// an `mbarrier` wait's retry branch that every lane passes stay in blocks that run equally often.
struct SassBlocks {
    /// Block number of each block's first instruction, by code offset.
    starts: BTreeMap<u32, u32>,
    dom: petgraph::algo::dominators::Dominators<petgraph::graph::NodeIndex>,
    post: petgraph::algo::dominators::Dominators<petgraph::graph::NodeIndex>,
    /// The edges between blocks (block numbers; the number of blocks stands for leaving).
    graph_edges: Vec<(usize, usize)>,
}

impl SassBlocks {
    fn of(&self, offset: u32) -> Option<u32> {
        self.starts.range(..=offset).next_back().map(|(_, &b)| b)
    }

    /// Whether the blocks run equally often: each, in code order, dominates the next and the next
    /// post-dominates it (unknown, for a block no path from the entry reaches or from which none
    /// reaches an exit: not).
    fn equivalent(&self, blocks: &BTreeSet<u32>) -> bool {
        use petgraph::graph::NodeIndex;
        let holds = |d: &petgraph::algo::dominators::Dominators<NodeIndex>, a: u32, b: u32| {
            d.dominators(NodeIndex::new(b as usize))
                .is_some_and(|mut it| it.any(|n| n == NodeIndex::new(a as usize)))
        };
        blocks
            .iter()
            .zip(blocks.iter().skip(1))
            .all(|(&a, &b)| holds(&self.dom, a, b) && holds(&self.post, b, a))
    }
}

fn sass_blocks(sass: &warpscope_toolchain::sass::SassKernel) -> SassBlocks {
    use petgraph::graph::{DiGraph, NodeIndex};
    let mut starts: BTreeSet<u32> = sass.labels.values().copied().collect();
    if let Some(first) = sass.insts.first() {
        starts.insert(first.code_offset);
    }
    let branches: BTreeMap<u32, &warpscope_toolchain::sass::SassBranch> =
        sass.branches.iter().map(|b| (b.code_offset, b)).collect();
    let guarded =
        |b: &warpscope_toolchain::sass::SassBranch| b.predicate.as_deref().is_some_and(|p| p != "PT");
    let ends = |b: &warpscope_toolchain::sass::SassBranch| {
        !b.self_loop
            && !b.opcode.starts_with("BRA.DIV")
            && match b.base() {
                "BRA" | "JMP" | "BRX" | "JMX" | "BRXU" | "JMXU" => true,
                "EXIT" | "RET" => guarded(b),
                _ => false,
            }
    };
    let mut next = false;
    for i in &sass.insts {
        if next {
            starts.insert(i.code_offset);
        }
        next = branches.get(&i.code_offset).is_some_and(|b| ends(b));
    }
    let starts: BTreeMap<u32, u32> = starts.iter().enumerate().map(|(n, &o)| (o, n as u32)).collect();
    let of = |o: u32| starts.range(..=o).next_back().map(|(_, &b)| b as usize);
    // the blocks, and one more node for leaving the kernel
    let n = starts.len();
    let mut g = DiGraph::<(), ()>::with_capacity(n + 1, 2 * n);
    for _ in 0..=n {
        g.add_node(());
    }
    let exit = NodeIndex::new(n);
    let block_of_label = |t: &str| sass.labels.get(t).and_then(|&o| of(o));
    for (k, i) in sass.insts.iter().enumerate() {
        let Some(at) = of(i.code_offset) else { continue };
        let mut falls = true;
        if let Some(b) = branches.get(&i.code_offset) {
            if b.self_loop {
                continue;
            }
            match b.base() {
                "BRA" | "JMP" => {
                    if let Some(t) = b.target.as_deref().and_then(block_of_label) {
                        g.add_edge(NodeIndex::new(at), NodeIndex::new(t), ());
                    }
                    falls = guarded(b) || b.opcode.starts_with("BRA.DIV");
                }
                "BRX" | "JMX" | "BRXU" | "JMXU" => {
                    for &o in sass.labels.values() {
                        if let Some(t) = of(o) {
                            g.add_edge(NodeIndex::new(at), NodeIndex::new(t), ());
                        }
                    }
                    falls = guarded(b);
                }
                "EXIT" | "RET" | "BPT" | "KILL" => {
                    g.add_edge(NodeIndex::new(at), exit, ());
                    falls = guarded(b);
                }
                _ => {}
            }
        }
        if falls {
            match sass.insts.get(k + 1).and_then(|j| of(j.code_offset)) {
                Some(t) if t != at => {
                    g.add_edge(NodeIndex::new(at), NodeIndex::new(t), ());
                }
                Some(_) => {}
                None => {
                    g.add_edge(NodeIndex::new(at), exit, ());
                }
            }
        }
    }
    let dom = petgraph::algo::dominators::simple_fast(&g, NodeIndex::new(0));
    let post = petgraph::algo::dominators::simple_fast(petgraph::visit::Reversed(&g), exit);
    let graph_edges = g
        .edge_indices()
        .filter_map(|e| g.edge_endpoints(e))
        .map(|(a, b)| (a.index(), b.index()))
        .collect();
    SassBlocks {
        starts,
        dom,
        post,
        graph_edges,
    }
}

/// The `wgmma.commit_group`s of `kernel` to which ptxas gave an HGMMA of its own, by PTX pc: a
/// commit it cannot attach to a preceding HGMMA (none since the last commit on some path, a loop,
/// a `wgmma.fence` or `wait_group` in between) becomes `HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ,
/// !UPT, gsb0`, which runs each time the commit does and which Nsight Compute counts
/// (calibration/wgmma/README.md and commits/). ptxas's rule is read off the machine code, not
/// predicted: per source line, a commit that follows a `wgmma.mma_async` in straight-line code
/// (no label, fence, wait or other commit between) is always attached; the line's other commits
/// all have one (as many such HGMMAs as those commits) or none (no such HGMMA on the line).
/// `None` when a line has some but not as many, or one of another shape: which commits run them
/// cannot be told.
pub fn ptxas_commit_hgmma(
    program: &Program,
    kernel: &str,
    sass: &warpscope_toolchain::sass::SassKernel,
) -> Option<Vec<u32>> {
    use warpscope_ptx::inst::{Inst, WgmmaSyncOp};
    let k = program.kernel(kernel)?;
    let targets: BTreeSet<u32> = (k.entry..k.end)
        .filter_map(|pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } => Some(target),
            _ => None,
        })
        .collect();
    // the commits that may have one, by source line
    let mut commits: BTreeMap<Option<u32>, Vec<u32>> = BTreeMap::new();
    let mut after_mma = false;
    for pc in k.entry..k.end {
        if targets.contains(&pc) {
            after_mma = false;
        }
        match program.ops[pc as usize].inst {
            Inst::Wgmma { .. } => after_mma = true,
            Inst::WgmmaSync { op } => {
                if op == WgmmaSyncOp::Commit && !after_mma {
                    let line = program.inst_info(pc).loc.as_ref().map(|l| l.line);
                    commits.entry(line).or_default().push(pc);
                }
                after_mma = false;
            }
            _ => {}
        }
    }
    let mut extra: BTreeMap<Option<u32>, usize> = BTreeMap::new();
    for i in &sass.insts {
        if !i.opcode.starts_with("HGMMA.") {
            continue;
        }
        let ops: String = i.operands.split_whitespace().collect();
        if !ops.starts_with("RZ,gdesc[URZ],RZ,") {
            continue;
        }
        if i.opcode != "HGMMA.64x8x16.F16" || i.predicate.is_some() {
            return None;
        }
        *extra.entry(i.line).or_default() += 1;
    }
    let mut out = Vec::new();
    for (line, n) in extra {
        let pcs = commits.get(&line)?;
        if pcs.len() != n {
            return None;
        }
        out.extend_from_slice(pcs);
    }
    out.sort_unstable();
    Some(out)
}

/// The code ranges of `k`'s loops in the PTX: from the target of each backward branch to the branch.
/// Which of `n` nodes lie on a cycle of the graph `edges`: in a strongly connected component of
/// more than one node, or with an edge to themselves.
fn on_cycles(n: usize, edges: &[(usize, usize)]) -> Vec<bool> {
    use petgraph::graph::{DiGraph, NodeIndex};
    let mut g = DiGraph::<(), ()>::with_capacity(n, edges.len());
    for _ in 0..n {
        g.add_node(());
    }
    let mut out = vec![false; n];
    for &(a, b) in edges {
        g.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
        out[a] |= a == b;
    }
    for scc in petgraph::algo::tarjan_scc(&g) {
        if scc.len() > 1 {
            for v in scc {
                out[v.index()] = true;
            }
        }
    }
    out
}

/// Per pc of `k` (from its entry), whether the instruction lies on a loop: a cycle of the
/// control-flow graph, not merely between a backward branch and its target.
fn ptx_cyclic(program: &Program, k: &warpscope_ptx::Kernel) -> Vec<bool> {
    use warpscope_ptx::inst::{Inst, PSrc};
    let (entry, end) = (k.entry, k.end);
    let mut edges = Vec::new();
    for pc in entry..end {
        let op = &program.ops[pc as usize];
        let at = (pc - entry) as usize;
        let fall = op.guard != PSrc::TRUE
            || !matches!(op.inst, Inst::Bra { .. } | Inst::Exit | Inst::Ret | Inst::Trap);
        if let Inst::Bra { target, .. } = op.inst
            && (entry..end).contains(&target)
        {
            edges.push((at, (target - entry) as usize));
        }
        if fall && pc + 1 < end {
            edges.push((at, at + 1));
        }
    }
    on_cycles((end - entry) as usize, &edges)
}

/// The code offsets of `sass`'s instructions that lie on a loop: a cycle of the control-flow
/// graph. Unlike [`warpscope_toolchain::sass::SassKernel::loops`]'s ranges, code that only lies
/// between a backward jump and its target is not in it: ptxas places an `mbarrier` wait's retry
/// at the end of the kernel and jumps back (`BRA` to the instruction after the wait), a range
/// that spans everything in between. The self-loop after the last `EXIT` is unreachable and left
/// out; an indirect jump (`BRX`, `JMX`) may go to any label.
fn sass_cyclic(sass: &warpscope_toolchain::sass::SassKernel) -> BTreeSet<u32> {
    let insts = &sass.insts;
    let index: BTreeMap<u32, usize> = insts
        .iter()
        .enumerate()
        .map(|(i, l)| (l.code_offset, i))
        .collect();
    let branches: BTreeMap<u32, &warpscope_toolchain::sass::SassBranch> =
        sass.branches.iter().map(|b| (b.code_offset, b)).collect();
    let labels: Vec<usize> = sass
        .labels
        .values()
        .filter_map(|o| index.get(o).copied())
        .collect();
    let mut edges = Vec::new();
    for (i, l) in insts.iter().enumerate() {
        let guarded = l.predicate.as_deref().is_some_and(|p| p != "PT");
        let mut fall = true;
        if let Some(b) = branches.get(&l.code_offset) {
            if b.self_loop {
                continue;
            }
            match b.base() {
                "BRA" | "JMP" => {
                    if let Some(&t) = b
                        .target
                        .as_deref()
                        .and_then(|t| sass.labels.get(t))
                        .and_then(|o| index.get(o))
                    {
                        edges.push((i, t));
                    }
                    fall = guarded || b.opcode.starts_with("BRA.DIV");
                }
                "BRX" | "JMX" | "BRXU" | "JMXU" => {
                    edges.extend(labels.iter().map(|&t| (i, t)));
                    fall = guarded;
                }
                "EXIT" | "RET" | "BPT" | "KILL" => fall = guarded,
                _ => {}
            }
        }
        if fall && i + 1 < insts.len() {
            edges.push((i, i + 1));
        }
    }
    on_cycles(insts.len(), &edges)
        .into_iter()
        .zip(insts)
        .filter(|(c, _)| *c)
        .map(|(_, l)| l.code_offset)
        .collect()
}

/// The pcs of `k` that lie in an arm of an if-then or if-then-else hammock: a block whose only
/// predecessor ends in a conditional branch and whose only successor is where that branch's other
/// side goes (directly, or through an arm of the same shape). These are the blocks ptxas
/// if-converts: it drops the branch and predicates the arm (`@P0 LDG` for `if (i < n) x = a[i];`),
/// so a guarded machine access there runs in the same lanes as the PTX access under its branch.
fn hammock_arms(program: &Program, k: &warpscope_ptx::Kernel) -> BTreeSet<u32> {
    use warpscope_ptx::inst::{Inst, PSrc};
    let (entry, end) = (k.entry, k.end);
    let ops = &program.ops;
    let mut starts: BTreeSet<u32> = BTreeSet::from([entry]);
    for pc in entry..end {
        match ops[pc as usize].inst {
            Inst::Bra { target, .. } => {
                starts.insert(target);
                starts.insert(pc + 1);
            }
            Inst::Exit | Inst::Ret | Inst::Trap => {
                starts.insert(pc + 1);
            }
            _ => {}
        }
    }
    let starts: Vec<u32> = starts.into_iter().filter(|&s| s >= entry && s < end).collect();
    // per block: (start, end, successors)
    let blocks: Vec<(u32, u32, Vec<u32>)> = starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let e = starts.get(i + 1).copied().unwrap_or(end);
            let last = &ops[(e - 1) as usize];
            let succ = match last.inst {
                Inst::Bra { target, .. } if last.guard == PSrc::TRUE => vec![target],
                Inst::Bra { target, .. } => vec![target, e],
                Inst::Exit | Inst::Ret | Inst::Trap if last.guard == PSrc::TRUE => vec![],
                _ => vec![e],
            };
            (s, e, succ.into_iter().filter(|&t| t < end).collect())
        })
        .collect();
    let mut preds: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (s, _, succ) in &blocks {
        for &t in succ {
            preds.entry(t).or_default().push(*s);
        }
    }
    let by_start: BTreeMap<u32, &(u32, u32, Vec<u32>)> = blocks.iter().map(|b| (b.0, b)).collect();
    let single = |v: Option<&Vec<u32>>| match v.map(Vec::as_slice) {
        Some([x]) => Some(*x),
        _ => None,
    };
    let mut arms = BTreeSet::new();
    for (s, e, succ) in &blocks {
        let (Some(p), [join]) = (single(preds.get(s)), succ.as_slice()) else {
            continue;
        };
        let pb = by_start[&p];
        let (pl, ps) = (&ops[(pb.1 - 1) as usize], &pb.2);
        if !matches!(pl.inst, Inst::Bra { .. }) || pl.guard == PSrc::TRUE || ps.len() != 2 {
            continue;
        }
        let Some(&other) = ps.iter().find(|&&t| t != *s) else {
            continue;
        };
        let diamond =
            single(preds.get(&other)) == Some(p) && by_start.get(&other).is_some_and(|o| o.2 == [*join]);
        if other == *join || diamond {
            arms.extend(*s..*e);
        }
    }
    arms
}

fn ptx_loops(program: &Program, k: &warpscope_ptx::Kernel) -> Vec<(u32, u32)> {
    use warpscope_ptx::inst::Inst;
    (k.entry..k.end)
        .filter_map(|pc| match program.ops[pc as usize].inst {
            Inst::Bra { target, .. } if target <= pc => Some((target, pc)),
            _ => None,
        })
        .collect()
}

/// Whether `kernel` has wmma loads/stores whose machine accesses are not measured, in shared and
/// in global memory. Measured (calibration/wmma, calibration/run/tensor.cu): m16n16k16 `f16` A/B
/// from shared memory (`LDSM`) and `f32` C/D in either space. Not measured: 16-bit elements from
/// global memory; `bf16` A/B from shared memory, which ptxas loads with `LDS`, not `LDSM` (the
/// H100 counted half the accesses the elements give); every other shape and type (m32n8k16,
/// m8n32k16, m16n16k8, m8n8k4; `s8`/`u8`/`s32`, `tf32`, `f64`, `f16` accumulators), whose
/// fragments the emulator moves element by element.
pub fn unmeasured_wmma(program: &Program, kernel: &str) -> (bool, bool) {
    use warpscope_ptx::inst::{Inst, MemSpace, MmaShape, Ty, WmmaFrag};
    let Some(k) = program.kernel(kernel) else {
        return (false, false);
    };
    let (mut shared, mut global) = (false, false);
    for pc in k.entry..k.end {
        let (shape, ty, space, ab) = match program.ops[pc as usize].inst {
            Inst::WmmaLoad {
                frag,
                shape,
                ty,
                space,
                ..
            } => (shape, ty, space, frag != WmmaFrag::C),
            Inst::WmmaStore { shape, ty, space, .. } => (shape, ty, space, false),
            _ => continue,
        };
        let m16 = shape == MmaShape::M16n16k16;
        let shared_ok = m16 && ((ab && ty == Ty::F16) || (!ab && ty == Ty::F32));
        let global_ok = m16 && !ab && ty == Ty::F32;
        // a generic address may be either
        if space != MemSpace::Global {
            shared |= !shared_ok;
        }
        if space != MemSpace::Shared {
            global |= !global_ok;
        }
    }
    (shared, global)
}

/// Whether `kernel`'s control flow is set by the GPU's timing: an `ld.acquire`/`ld.relaxed` or a
/// clock read inside a loop (a backward branch's range) that a branch of the loop depends on
/// ([`strong_load_steers`]), or a loop without a barrier whose branch
/// depends on what other threads write meanwhile: on a `volatile` load, or on a load from (or the
/// result of) an atomic's state space when the loop itself has atomics there (simpleAttributes'
/// `while (hit < hitCount) { ...; atomicAdd(&hit, 1); }` on a shared counter: the H100 ran it
/// 7161 and 7266 branch targets in two runs).
pub fn has_spin_loop(program: &Program, kernel: &str) -> bool {
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let loops = ptx_loops(program, k);
    let ops = parse_ops(program, k);
    loops.iter().any(|&(a, z)| {
        let body = &ops[(a - k.entry) as usize..=(z - k.entry) as usize];
        strong_load_steers(program, body, a)
            || loop_waits_on_other_threads(program, body, a, z, &never_apart)
            || global_atomic_steers(body)
    })
}

/// Whether a branch of the loop `body` (starting at pc `a`) depends on an `ld.acquire` /
/// `ld.relaxed` or a clock read in it, through registers or through a shared store and load: a
/// poll, whose rounds the GPU's timing decides. A strong load whose value steers no branch of
/// its loop (a last block summing the other blocks' partials with `ld.acquire` in a loop counted
/// by the grid size: calibration/run/bench5/atom.cu's `lastBlock`, every counter equal to the
/// H200's) leaves the trip count the program's.
fn strong_load_steers(program: &Program, body: &[Op], a: u32) -> bool {
    use warpscope_ptx::inst::Inst;
    let mut tainted: BTreeSet<&str> = BTreeSet::new();
    for (o, pc) in body.iter().zip(a..) {
        if matches!(
            program.ops[pc as usize].inst,
            Inst::Ld { sync: true, .. } | Inst::Clock { .. }
        ) {
            tainted.extend(o.dests.iter().map(String::as_str));
        }
    }
    a_branch_reads(body, tainted)
}

/// Whether a branch of `body` depends on a `tainted` register, through registers or through a
/// shared store of it and a shared load.
fn a_branch_reads<'a>(body: &'a [Op], mut tainted: BTreeSet<&'a str>) -> bool {
    if tainted.is_empty() {
        return false;
    }
    spread_via_shared(body, &mut tainted);
    body.iter()
        .any(|o| o.op.starts_with("bra") && o.guard.as_deref().is_some_and(|g| tainted.contains(g)))
}

/// Whether a branch of the loop `body` depends on the result of a global (or generic) atomic in
/// it, through registers or through a shared store of it and a shared load: a spin lock, whose
/// rounds depend on the other blocks, barrier or not (Triton's `while tl.atomic_cas(lock, 0, 1)
/// == 1` has one thread do the `atom.global.cas`, store its result to shared, `bar.sync` and every
/// thread load it back; calibration/hopper/h200_triton2: 1,088 shared loads and 1,472 branch
/// targets on the H200 for 512 and 176 without a round lost).
fn global_atomic_steers(body: &[Op]) -> bool {
    let mut tainted: BTreeSet<&str> = BTreeSet::new();
    for o in body {
        if o.op.starts_with("atom.") && spaces(&o.op).1 {
            tainted.extend(o.dests.iter().map(String::as_str));
        }
    }
    a_branch_reads(body, tainted)
}

/// [`spread`], and through shared memory: once a shared store in `ops` writes a tainted value,
/// every shared load's destination is tainted too (where it stored is not followed).
fn spread_via_shared<'a>(ops: &'a [Op], tainted: &mut BTreeSet<&'a str>) {
    loop {
        let before = tainted.len();
        spread(ops, tainted);
        let stored = ops.iter().any(|o| {
            o.op.starts_with("st.") && spaces(&o.op).0 && o.srcs.iter().any(|r| tainted.contains(r.as_str()))
        });
        if stored {
            for o in ops {
                if o.op.starts_with("ld.") && spaces(&o.op).0 {
                    tainted.extend(o.dests.iter().map(String::as_str));
                }
            }
        }
        if tainted.len() == before {
            break;
        }
    }
}

/// Whether a spin loop of `kernel` ([`has_spin_loop`]'s loops: the backward branches' ranges that
/// wait on a strong load, a clock, or other threads' writes) may access shared memory: a `.shared`
/// access in its body, or a generic one whose address is not provably global. Where none may, the
/// loop's run count moves only the branch and global counters: the shared counters stay exact
/// (cooperative groups' `grid.sync()` polls the grid workspace, `%envreg1:%envreg2`, with a
/// generic `ld.acquire`; simpleAWBarrier's and calibration/run/cooperative.cu's shared counters
/// equal the H100's while their branch and global counts vary run to run).
pub fn spin_loops_may_touch_shared(program: &Program, kernel: &str) -> bool {
    spin_loops_any(program, kernel, false, |ops, o| {
        let (sh, gl) = spaces(&o.op);
        sh && !(gl && o.address.iter().all(|r| provably_global(ops, r)))
    })
}

/// Whether a spin loop of `kernel` (as [`spin_loops_may_touch_shared`] finds them) may load or
/// store global memory (a global or generic `ld`/`st`, an async or bulk copy, a call). Where none
/// may, the loop's run count moves only the branch counters: the global requests and sectors
/// stay exact (an `atomicCAS` retry loop, whose atomics ncu counts apart from loads and stores:
/// calibration/run/book6.cu's `casAdd`, 128 requests and 320 sectors in four H200 runs whose
/// branch targets were 52596, 52383, 52480 and 54436).
///
/// Every loop [`has_spin_loop`] could have meant counts (one with a strong load or a clock read,
/// one waiting on other threads' writes, one whose exit depends on an atomic's result), so this
/// answers `false` only where no such loop has a global access.
pub fn spin_loops_may_touch_global(program: &Program, kernel: &str) -> bool {
    use warpscope_ptx::inst::Inst;
    let touches = |o: &Op| {
        o.op.starts_with("call")
            || (["ld.", "st.", "cp."].iter().any(|p| o.op.starts_with(p))
                && !o.op.starts_with("ld.param")
                && spaces(&o.op).1)
    };
    if spin_loops_any(program, kernel, true, |_, o| touches(o)) {
        return true;
    }
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let ops = parse_ops(program, k);
    ptx_loops(program, k).iter().any(|&(a, z)| {
        let body = &ops[(a - k.entry) as usize..=(z - k.entry) as usize];
        let timed = (a..=z).any(|pc| {
            matches!(
                program.ops[pc as usize].inst,
                Inst::Ld { sync: true, .. } | Inst::Clock { .. }
            )
        });
        let after = if exits_together(program, &ops, body, a, z) {
            &[][..]
        } else {
            after_loop(&ops, k.entry, z)
        };
        (timed || loop_waits_on_other_threads(program, body, a, z, &never_apart))
            && body.iter().chain(after).any(touches)
    })
}

/// Whether some memory access of a spin loop of `kernel` satisfies `touches`.
///
/// `after`: also the accesses after the loop up to a barrier ([`after_loop`]), where the lanes
/// may leave the loop apart ([`exits_together`]).
fn spin_loops_any(
    program: &Program,
    kernel: &str,
    after: bool,
    touches: impl Fn(&[Op], &Op) -> bool,
) -> bool {
    use warpscope_ptx::inst::Inst;
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let ops = parse_ops(program, k);
    let is_mem = |o: &Op| {
        [
            "ld.",
            "st.",
            "atom.",
            "red.",
            "cp.",
            "mbarrier.",
            "wmma.",
            "ldmatrix",
            "stmatrix",
            "tex.",
            "suld",
            "sust",
            "cvta.to.shared",
        ]
        .iter()
        .any(|p| o.op.starts_with(p))
            && !o.op.starts_with("ld.param")
    };
    ptx_loops(program, k).iter().any(|&(a, z)| {
        let body = &ops[(a - k.entry) as usize..=(z - k.entry) as usize];
        // the loop spins when a branch that repeats or leaves it depends on a strong or volatile
        // load, a clock or an atomic's result inside it (an outer loop around a spin loop runs a
        // fixed number of times: its shared accesses outside the inner loop count exactly)
        let mut tainted: BTreeSet<&str> = BTreeSet::new();
        for (o, pc) in body.iter().zip(a..=z) {
            let timed = matches!(
                program.ops[pc as usize].inst,
                Inst::Ld { sync: true, .. } | Inst::Clock { .. }
            ) || (o.op.starts_with("ld.") && o.op.contains(".volatile"))
                || o.op.starts_with("atom.");
            if timed {
                tainted.extend(o.dests.iter().map(String::as_str));
            }
        }
        spread_via_shared(body, &mut tainted);
        let spins = body.iter().zip(a..=z).any(|(o, pc)| {
            let Inst::Bra { target, .. } = program.ops[pc as usize].inst else {
                return false;
            };
            o.guard.as_deref().is_some_and(|g| tainted.contains(g)) && (target <= a || target > z)
        });
        if !spins {
            return false;
        }
        let after = if !after || exits_together(program, &ops, body, a, z) {
            &[][..]
        } else {
            after_loop(&ops, k.entry, z)
        };
        body.iter()
            .chain(after)
            .filter(|o| is_mem(o) || o.op.starts_with("call"))
            .any(|o| touches(&ops, o))
    })
}

/// The operations after a loop ending at `z` up to the first barrier (`bar.sync`, `barrier`,
/// `bar.warp.sync`, `bar.red`): the lanes of a warp leave a spin loop at different times and the
/// machine code need not reconverge them before what follows, which then runs once per group of
/// lanes that left together, as often as the GPU's timing split the warp (an `atomicCAS` retry
/// loop for a double maximum followed by loads and reductions: the H200 ran each following
/// `LDG` 699 times for 157 warps, calibration/run/bench5/h200/atom.r1.sass.csv.gz). A barrier
/// reconverges the warp: what follows it runs as often as the program says. Only the global
/// counters take this into account: CUB's onesweep look-back, a loop each lane leaves on its own
/// flag followed by shared accesses, has shared counters equal to the H200's in every launch
/// (calibration/run/cccl/h200/cubdev.ncu.csv), where ptxas reconverges the warp; when it does
/// is not known here.
fn after_loop(ops: &[Op], entry: u32, z: u32) -> &[Op] {
    let from = ((z + 1 - entry) as usize).min(ops.len());
    let rest = &ops[from..];
    let n = rest
        .iter()
        .position(|o| {
            ["bar.sync", "barrier", "bar.warp.sync", "bar.red"]
                .iter()
                .any(|b| o.op.starts_with(b))
        })
        .unwrap_or(rest.len());
    &rest[..n]
}

/// Whether every lane of a warp leaves the loop `a..=z` (`body`) at once: each branch that
/// repeats or leaves it is `bra.uni`, unguarded, guarded by a warp vote computed in the loop
/// (CUB's decoupled look-back waits `while (__any_sync(...))`), or guarded by a value the same in
/// every lane of the warp ([`warp_uniform`] over the kernel's `ops`: a clock loop
/// `while (clock64() - start < n)`, whose one store after it the H100 counted as 1 request of 8
/// sectors in cuda-samples' `clock_block`, calibration/run/heldout), so the warp never splits on it.
fn exits_together(program: &Program, ops: &[Op], body: &[Op], a: u32, z: u32) -> bool {
    use warpscope_ptx::inst::Inst;
    body.iter().zip(a..=z).all(|(o, pc)| {
        let Inst::Bra { target, .. } = program.ops[pc as usize].inst else {
            return true;
        };
        if target > a && target <= z {
            return true;
        }
        let Some(g) = o.guard.as_deref() else {
            return true;
        };
        o.op.starts_with("bra.uni")
            || body
                .iter()
                .filter(|d| d.dests.iter().any(|x| x == g))
                .all(|d| d.op.starts_with("vote."))
                && body.iter().any(|d| d.dests.iter().any(|x| x == g))
            || warp_uniform(ops, g)
    })
}

/// Whether register `reg` of `ops` holds the same value in every lane of a warp that runs its
/// definitions together, whatever path set it: every definition (flow-insensitively), and the
/// guard of each, is arithmetic, a compare, a selection, a move or a kernel parameter, and every
/// register it reads is one of those too, or a special register that is one per warp (the clock,
/// the global timer, the block's and the grid's indices and sizes). A load, an atomic, a shuffle,
/// the thread's or lane's index makes it lane-dependent.
fn warp_uniform(ops: &[Op], reg: &str) -> bool {
    const PURE: &[&str] = &[
        "add.", "sub.", "mul.", "mad.", "shl.", "shr.", "and.", "or.", "xor.", "not.", "cvt.", "setp.",
        "set.", "selp.", "min.", "max.", "neg.", "abs.", "mov.", "ld.param",
    ];
    const PER_WARP: &[&str] = &[
        "%clock",
        "%clock64",
        "%globaltimer",
        "%globaltimer_lo",
        "%globaltimer_hi",
        "%ctaid",
        "%nctaid",
        "%ntid",
    ];
    every_definition(
        ops,
        reg,
        true,
        |r| PER_WARP.contains(&r),
        |d| PURE.iter().any(|p| d.op.starts_with(p)),
    )
}

/// Whether every definition of `reg` in `ops` (flow-insensitively), and of every register those
/// read (with their guards when `guards`), satisfies `def`, and every register nothing in `ops`
/// defines (a special register) satisfies `leaf`.
fn every_definition<'a>(
    ops: &'a [Op],
    reg: &'a str,
    guards: bool,
    leaf: impl Fn(&str) -> bool,
    def: impl Fn(&Op) -> bool,
) -> bool {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut todo = vec![reg];
    while let Some(r) = todo.pop() {
        if !seen.insert(r) {
            continue;
        }
        let mut defined = false;
        for d in ops.iter().filter(|o| o.dests.iter().any(|d| d == r)) {
            defined = true;
            if !def(d) {
                return false;
            }
            todo.extend(d.srcs.iter().map(String::as_str));
            if guards {
                todo.extend(d.guard.as_deref());
            }
        }
        if !defined && !leaf(r) {
            return false;
        }
    }
    true
}

/// Whether register `reg` of `ops` holds a global address whatever path set it: every definition
/// (flow-insensitively) is integer arithmetic, a conversion, a kernel parameter, `cvta.to.global`
/// or a move, and every register it reads is one of those too, or the driver's `%envreg` (the
/// grid workspace). A load from memory, a shared window's address (`cvta.shared`, a `.shared`
/// symbol) or any other definition makes it unknown.
fn provably_global(ops: &[Op], reg: &str) -> bool {
    const ARITH: &[&str] = &[
        "add.",
        "sub.",
        "mul.",
        "mad.",
        "shl.",
        "shr.",
        "and.",
        "or.",
        "xor.",
        "cvt.",
        "bfi.",
        "selp.",
        "cvta.to.global",
        "ld.param",
        "mov.",
    ];
    every_definition(
        ops,
        reg,
        false,
        // a special register: only the driver's grid workspace is an address
        |r| {
            ["%envreg", "%tid", "%ctaid", "%ntid", "%nctaid"]
                .iter()
                .any(|p| r.starts_with(p))
        },
        |d| {
            ARITH.iter().any(|p| d.op.starts_with(p))
                && !d.op.starts_with("cvta.to.shared")
                // a move or selection of anything but registers and numbers (a symbol's address)
                && d.operands.iter().all(|x| {
                    let x = x.trim();
                    x.starts_with('%')
                        || x.starts_with('-')
                        || x.chars().next().is_some_and(|c| c.is_ascii_digit())
                        || d.op.starts_with("ld.param")
                })
        },
    )
}

/// The state spaces a PTX memory opcode may touch: (shared, global); generic addresses may be either.
fn spaces(op: &str) -> (bool, bool) {
    if op.contains(".shared") {
        (true, false)
    } else if op.contains(".global") {
        (false, true)
    } else if op.contains(".local") || op.contains(".param") || op.contains(".const") {
        (false, false)
    } else {
        (true, true)
    }
}

/// See [`has_spin_loop`]: `body` is one loop's instructions, from the backward branch's target to it.
///
/// Only a branch that repeats or leaves the loop (its target outside `a + 1..=z`) makes it wait:
/// a branch inside the body on such data picks a side each round, the rounds stay the program's
/// (a stencil that counts masked pixels by a shared atomic while it reads the mask from shared
/// memory; a filter that counts hits by a global atomic while it reads the input: the H200
/// counted the same branches as the program's order in calibration/run/bench11's pitch2d).
fn loop_waits_on_other_threads(
    program: &Program,
    body: &[Op],
    a: u32,
    z: u32,
    apart: &dyn Fn(&Op, &[&Op]) -> bool,
) -> bool {
    use warpscope_ptx::inst::Inst;
    let is_atomic = |o: &Op| o.op.starts_with("atom.") || o.op.starts_with("red.");
    if body
        .iter()
        .any(|o| o.op.starts_with("bar.") || o.op.starts_with("barrier."))
    {
        return false;
    }
    let (mut sh, mut gl) = (false, false);
    for o in body.iter().filter(|o| is_atomic(o)) {
        let (s, g) = spaces(&o.op);
        sh |= s;
        gl |= g;
    }
    // the loop's atomics that may write global memory
    let global_atomics: Vec<&Op> = body.iter().filter(|o| is_atomic(o) && spaces(&o.op).1).collect();
    let mut tainted: BTreeSet<&str> = BTreeSet::new();
    for o in body {
        let from_others = if o.op.starts_with("ld.") {
            let (s, g) = spaces(&o.op);
            o.op.contains(".volatile") || (s && sh) || (g && gl && !apart(o, &global_atomics))
        } else {
            is_atomic(o) && o.op.starts_with("atom.")
        };
        if from_others {
            tainted.extend(o.dests.iter().map(String::as_str));
        }
    }
    if tainted.is_empty() {
        return false;
    }
    spread(body, &mut tainted);
    body.iter().zip(a..=z).any(|(o, pc)| {
        let Inst::Bra { target, .. } = program.ops[pc as usize].inst else {
            return false;
        };
        o.guard.as_deref().is_some_and(|g| tainted.contains(g)) && (target <= a || target > z)
    })
}

/// [`loop_waits_on_other_threads`]'s answer where nothing is known of a launch's arguments: a
/// global load may read what any global atomic of its loop writes.
fn never_apart(_: &Op, _: &[&Op]) -> bool {
    false
}

/// Taints, until nothing changes, every register an instruction of `ops` writes from a tainted one.
pub(crate) fn spread<'a>(ops: &'a [Op], tainted: &mut BTreeSet<&'a str>) {
    loop {
        let before = tainted.len();
        for o in ops {
            if o.srcs.iter().any(|r| tainted.contains(r.as_str())) {
                tainted.extend(o.dests.iter().map(String::as_str));
            }
        }
        if tainted.len() == before {
            break;
        }
    }
}

/// One PTX instruction as text: its opcode, guard predicate, the registers it writes and reads, and
/// those of its address operand.
pub(crate) struct Op {
    pub(crate) op: String,
    pub(crate) guard: Option<String>,
    pub(crate) dests: Vec<String>,
    pub(crate) srcs: Vec<String>,
    pub(crate) address: Vec<String>,
    /// The module's `.global` variables named in the address operand (`[best+4]`).
    pub(crate) address_variables: Vec<AddressWord>,
    /// The source operands as written (after the first, destination, operand).
    pub(crate) operands: Vec<String>,
}

pub(crate) fn parse_ops(program: &Program, k: &warpscope_ptx::Kernel) -> Vec<Op> {
    let regs = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '%' || c == '_' || c == '$'))
            .filter(|w| w.starts_with('%'))
            .map(str::to_string)
            .collect()
    };
    (k.entry..k.end)
        .map(|pc| {
            let text = program.inst_info(pc).text.clone();
            let t = text.trim().trim_end_matches(';');
            let (guard, t) = match t.strip_prefix('@') {
                Some(r) => {
                    let (g, rest) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
                    (Some(g.trim_start_matches('!').to_string()), rest.trim_start())
                }
                None => (None, t),
            };
            let (op, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            let inside = rest
                .split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .map(|(inside, _)| inside);
            let address = inside.map(regs).unwrap_or_default();
            let address_variables = inside.map(|i| variables_named(program, i)).unwrap_or_default();
            let (first, others) = rest.split_once(',').unwrap_or((rest, ""));
            let (dests, srcs) = if first.trim_start().starts_with('[') || others.is_empty() {
                (Vec::new(), regs(rest))
            } else {
                (regs(first), regs(others))
            };
            let operands = if others.is_empty() {
                Vec::new()
            } else {
                others.split(',').map(|x| x.trim().to_string()).collect()
            };
            Op {
                op: op.to_string(),
                guard,
                dests,
                srcs,
                address,
                address_variables,
                operands,
            }
        })
        .collect()
}

/// Whether `kernel` copies global memory to shared memory with `cp.async.cg` (L1-bypassing
/// `LDGSTS.BYPASS`). The H100 counted fewer global load sectors than such copies read, and a
/// different number at every launch, for a multi-stage pipeline of 16-byte copies (cuda-samples'
/// globalToShmemAsyncCopy kernel 0: 258081 to 258964 of 262144 over three runs), while a
/// single-stage one repeated the full count; with no rule for when it merges, the global counters
/// of such kernels are estimates.
pub fn has_bypass_copies(program: &Program, kernel: &str) -> bool {
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    parse_ops(program, k)
        .iter()
        .any(|o| o.op.starts_with("cp.async.cg.shared.global"))
}

/// Whether a branch of `kernel` depends on the value a global (or generic) exchange or
/// compare-and-swap handed back (`atom.exch`, `atom.cas`), through registers or through a shared
/// store of it and a shared load, loop or not: which thread finds which old value depends on the
/// order in which the GPU ran the exchanges, which no two runs repeat, so the branches taken do
/// too (a cuckoo hash's eviction chain, unrolled by the compiler into straight code: an H200 ran
/// calibration/run/bench19's `insert` at 3,925, 3,925, 3,917 and 3,890 branch targets, 1,379,
/// 1,378, 1,376 and 1,359 divergent, in four runs). Integer additions and the like hand out
/// values too (a ticket), but the sets of values they hand out do not depend on the order.
pub fn branches_on_exchanges(program: &Program, kernel: &str) -> bool {
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let parsed = parse_ops(program, k);
    let tainted: BTreeSet<&str> = parsed
        .iter()
        .filter(|o| {
            o.op.starts_with("atom.") && spaces(&o.op).1 && (o.op.contains(".exch") || o.op.contains(".cas"))
        })
        .flat_map(|o| o.dests.iter().map(String::as_str))
        .collect();
    a_branch_reads(&parsed, tainted)
}

/// Whether a global load or store's address derives from a global atomic's result (the output
/// slot taken with `atomicAdd(&count, n)`, as stream compaction does): the addresses, and so the
/// sectors, depend on the order in which the GPU ran the atomics, which no two runs repeat. Read off
/// the PTX text, flow-insensitively: a register written by an `atom` is tainted, so is every
/// register an instruction writes from a tainted one.
pub fn global_addresses_from_atomics(program: &Program, kernel: &str) -> bool {
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let parsed = parse_ops(program, k);
    let mut tainted: BTreeSet<&str> = parsed
        .iter()
        .filter(|o| o.op.starts_with("atom.") && !o.op.contains(".shared"))
        .flat_map(|o| o.dests.iter().map(String::as_str))
        .collect();
    if tainted.is_empty() {
        return false;
    }
    spread(&parsed, &mut tainted);
    let global = |op: &str| {
        (op.starts_with("ld.") || op.starts_with("st."))
            && !op.contains(".shared")
            && !op.contains(".local")
            && !op.contains(".param")
            && !op.contains(".const")
    };
    parsed
        .iter()
        .any(|o| global(&o.op) && o.address.iter().any(|r| tainted.contains(r.as_str())))
}

/// Whether a global store's address or value derives from an atomic's result (a global or shared
/// `atom` whose result is read: the slot `atomicAdd(&fill[b], 1)` hands out, as a bucket sort's
/// scatter does): what the launch leaves in global memory, where and in what order, depends on
/// the order in which the GPU ran the atomics, which no two runs repeat, so a later launch that
/// reads it sees other data than the emulation's (an H200's merge of the buckets: 5497 and 5496
/// branch targets in two runs). Read off the PTX text flow-insensitively, as
/// [`global_addresses_from_atomics`].
pub fn global_stores_from_atomics(program: &Program, kernel: &str) -> bool {
    let Some(k) = program.kernel(kernel) else {
        return false;
    };
    let parsed = parse_ops(program, k);
    let mut tainted: BTreeSet<&str> = parsed
        .iter()
        .filter(|o| o.op.starts_with("atom."))
        .flat_map(|o| o.dests.iter().map(String::as_str))
        .collect();
    if tainted.is_empty() {
        return false;
    }
    spread(&parsed, &mut tainted);
    parsed.iter().any(|o| {
        o.op.starts_with("st.")
            && !o.op.contains(".shared")
            && !o.op.contains(".local")
            && !o.op.contains(".param")
            && o.srcs.iter().any(|r| tainted.contains(r.as_str()))
    })
}

/// An integer atomic or reduction whose final value in memory does not depend on the order the
/// threads ran it in (`atom.global.add.u32`, `red.max.s64`, ...; not `exch`, `cas`, `inc`, `dec`
/// or a floating-point one, whose rounding depends on the order).
fn commutative_integer_atomic(op: &str) -> bool {
    (op.starts_with("atom.") || op.starts_with("red."))
        && [".add.", ".min.", ".max.", ".and.", ".or.", ".xor."]
            .iter()
            .any(|k| op.contains(k))
        && [".u32", ".s32", ".u64", ".s64", ".b32", ".b64"]
            .iter()
            .any(|t| op.ends_with(t))
}

/// The parameter words a launch of `kernel` can write global memory through: (parameter index,
/// byte offset of an 8-byte word inside it) for each word whose value the address of a global
/// store, atomic or reduction derives from (a pointer parameter, or a pointer inside a struct
/// passed by value). `None` where that cannot be told from the PTX text (flow-insensitively, as
/// [`global_stores_from_atomics`]): a write whose address derives from no parameter (a
/// `__device__` variable's address, a shared window) or from a 64-bit value loaded from memory (a
/// pointer read from a table), a call, a surface store, or an asynchronous or bulk copy. The
/// runtime marks only these words' regions as holding order-dependent data after a launch whose
/// stores take an atomic's result; a region the launch only reads keeps its data, and so does one
/// it only updates by integer atomics that commute (`add`, `min`, `max`, `and`, `or`, `xor`: the
/// total a counter ends with is the same in any order, where the value each atomic returns is
/// not).
pub fn global_write_params(program: &Program, kernel: &str) -> Option<BTreeSet<(usize, u32)>> {
    global_access_params(program, kernel, false)
}

/// The parameter words a launch of `kernel` can read global memory through, as
/// [`global_write_params`] tells them for its writes (loads and atomics; `None` also for a
/// texture or surface read): a launch that only writes a region whose data are order-dependent
/// does not read them.
pub fn global_read_params(program: &Program, kernel: &str) -> Option<BTreeSet<(usize, u32)>> {
    global_access_params(program, kernel, true)
}

fn global_access_params(program: &Program, kernel: &str, reads: bool) -> Option<BTreeSet<(usize, u32)>> {
    let k = program.kernel(kernel)?;
    let parsed = parse_ops(program, k);
    for o in &parsed {
        if o.op.starts_with("call")
            || o.op.starts_with("sust")
            || o.op.starts_with("cp.")
            || o.op.contains("bulk")
        {
            return None;
        }
        if reads && ["tex", "tld4", "suld"].iter().any(|t| o.op.starts_with(t)) {
            return None;
        }
    }
    let origin = param_origins(program, k, &parsed)?;
    let mut words = BTreeSet::new();
    for o in &parsed {
        let global = !o.op.contains(".shared")
            && !o.op.contains(".local")
            && !o.op.contains(".param")
            && !o.op.contains(".const");
        let counted = if reads {
            o.op.starts_with("ld.") || o.op.starts_with("ldu.") || o.op.starts_with("atom.")
        } else {
            (o.op.starts_with("st.") || o.op.starts_with("atom.") || o.op.starts_with("red."))
                && !commutative_integer_atomic(&o.op)
        };
        if !global || !counted {
            continue;
        }
        for w in address_words(&origin, o)? {
            // a `__device__` variable's address is not a parameter word
            let AddressWord::Param(i, off) = w else {
                return None;
            };
            words.insert((i, off));
        }
    }
    Some(words)
}

/// What an address derives from: a kernel parameter's 8-byte word, a module-scope `.global`
/// (`__device__`) variable, or a 64-bit value loaded from memory (a pointer whose allocation the
/// PTX does not tell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AddressWord {
    /// A parameter word: the parameter's index and the byte offset of an 8-byte word inside it.
    Param(usize, u32),
    /// A `.global` variable of the module: its address and size (variables never overlap an
    /// allocation, and each other only where they are the same variable).
    Variable {
        /// The variable's global address.
        addr: u64,
        /// Its size in bytes.
        size: u64,
    },
    /// A 64-bit value loaded from memory.
    Loaded,
}

/// The module's `.global` variables named in `text` (an operand or an address), as words.
fn variables_named(program: &Program, text: &str) -> Vec<AddressWord> {
    if program.vars.iter().all(|v| v.is_const) {
        return Vec::new();
    }
    text.split(|c: char| !(c.is_alphanumeric() || c == '%' || c == '_' || c == '$'))
        // registers and numbers are no names
        .filter(|w| !w.is_empty() && !w.starts_with('%') && !w.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|w| program.vars.iter().find(|v| !v.is_const && v.name == w))
        .map(|v| AddressWord::Variable {
            addr: v.addr,
            size: v.size,
        })
        .collect()
}

/// The words each register of `parsed` (a kernel's instructions) derives from,
/// flow-insensitively: parameter words through `ld.param`, variables through the instructions
/// that take a `.global` variable's name (`mov.u64 %rd4, best;`), and every instruction that
/// computes from them; not through what a load or an atomic returns (a loaded 64-bit value is
/// marked [`AddressWord::Loaded`]). `None` where an `ld.param`'s operand cannot be read.
fn param_origins<'a>(
    program: &Program,
    k: &warpscope_ptx::Kernel,
    parsed: &'a [Op],
) -> Option<BTreeMap<&'a str, BTreeSet<AddressWord>>> {
    let mut origin: BTreeMap<&str, BTreeSet<AddressWord>> = BTreeMap::new();
    // a load or an atomic: what it returns is a value read from memory
    let reads_memory =
        |o: &Op| o.op.starts_with("ld.") || o.op.starts_with("ldu.") || o.op.starts_with("atom.");
    for o in parsed {
        if !reads_memory(o) && !o.op.starts_with("st.") && !o.op.starts_with("red.") {
            // `mov.u64 %rd4, best;`, `cvta.global.u64 %rd5, best;`, `add.s64 %rd6, best, 8;`
            let named: Vec<AddressWord> = o
                .operands
                .iter()
                .flat_map(|x| variables_named(program, x))
                .collect();
            if !named.is_empty() {
                for d in &o.dests {
                    origin
                        .entry(d.as_str())
                        .or_default()
                        .extend(named.iter().copied());
                }
            }
        }
        if o.op.starts_with("ld.param") {
            let inside = o
                .operands
                .first()?
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']');
            let (name, plus) = inside.split_once('+').unwrap_or((inside, "0"));
            let plus: u32 = plus.trim().parse().ok()?;
            let i = k.params.iter().position(|p| p.name == name.trim())?;
            for d in &o.dests {
                origin
                    .entry(d.as_str())
                    .or_default()
                    .insert(AddressWord::Param(i, plus & !7));
            }
        } else if reads_memory(o) {
            // a loaded 64-bit value may be a pointer the launch writes through
            if [".u64", ".b64", ".s64"].iter().any(|t| o.op.contains(t)) {
                for d in &o.dests {
                    origin.entry(d.as_str()).or_default().insert(AddressWord::Loaded);
                }
            }
        }
    }
    loop {
        let mut grew = false;
        for o in parsed {
            if o.op.starts_with("ld.param") {
                continue;
            }
            // what a load or an atomic returns is not its address (a loaded 64-bit value is
            // marked above)
            let memory = reads_memory(o);
            let from: BTreeSet<AddressWord> = o
                .srcs
                .iter()
                .filter(|r| !(memory && o.address.contains(r)))
                .filter_map(|r| origin.get(r.as_str()))
                .flatten()
                .copied()
                .collect();
            for d in &o.dests {
                let e = origin.entry(d.as_str()).or_default();
                let n = e.len();
                e.extend(from.iter().copied());
                grew |= e.len() > n;
            }
        }
        if !grew {
            break;
        }
    }
    Some(origin)
}

/// The words the address of memory instruction `o` derives from ([`param_origins`], and a
/// variable named in the brackets: `[best+4]`); `None` where it derives from none or from a
/// pointer loaded from memory.
fn address_words(origin: &BTreeMap<&str, BTreeSet<AddressWord>>, o: &Op) -> Option<BTreeSet<AddressWord>> {
    let from: BTreeSet<AddressWord> = o
        .address
        .iter()
        .filter_map(|r| origin.get(r.as_str()))
        .flatten()
        .copied()
        .chain(o.address_variables.iter().copied())
        .collect();
    (!from.is_empty() && !from.contains(&AddressWord::Loaded)).then_some(from)
}

/// Pairs of words (a load's, an atomic's) that [`spin_loop_unless_apart`] needs in different
/// allocations.
pub type ApartPairs = BTreeSet<(AddressWord, AddressWord)>;

/// Where [`has_spin_loop`] finds a loop waiting on other threads only because its global loads
/// may read what its global atomics write, and each of those loads and atomics addresses memory
/// through parameter words other than the other's (a CSR transpose that re-reads `rowptr[r + 1]`
/// after each `atomicAdd(&count[col[j]], 1)`; a nonce search that re-reads its job's bounds after
/// `atomicMin(best, n)`): the pairs (load's word, atomic's word) whose pointers must lie in
/// different allocations for no loop to wait. A launch whose arguments put every pair apart runs
/// its loops as the program orders them, not as the GPU's timing does. `None` where the label
/// stays whatever the arguments (no waiting loop; a loop that waits on a strong load, a clock, a
/// volatile load, an atomic's result or shared memory; an address the parameters do not tell).
pub fn spin_loop_unless_apart(program: &Program, kernel: &str) -> Option<ApartPairs> {
    if !has_spin_loop(program, kernel) {
        return None;
    }
    let k = program.kernel(kernel)?;
    let parsed = parse_ops(program, k);
    let origin = param_origins(program, k, &parsed)?;
    let pairs = std::cell::RefCell::new(BTreeSet::new());
    let apart = |load: &Op, atomics: &[&Op]| -> bool {
        let Some(l) = address_words(&origin, load) else {
            return false;
        };
        let mut found = Vec::new();
        for a in atomics {
            let Some(w) = address_words(&origin, a) else {
                return false;
            };
            if !l.is_disjoint(&w) {
                return false;
            }
            found.extend(l.iter().flat_map(|&x| w.iter().map(move |&y| (x, y))));
        }
        pairs.borrow_mut().extend(found);
        true
    };
    let waits = ptx_loops(program, k).iter().any(|&(a, z)| {
        let body = &parsed[(a - k.entry) as usize..=(z - k.entry) as usize];
        strong_load_steers(program, body, a)
            || loop_waits_on_other_threads(program, body, a, z, &apart)
            || global_atomic_steers(body)
    });
    let pairs = pairs.into_inner();
    (!waits && !pairs.is_empty()).then_some(pairs)
}

/// The machine form of one `cp.async`, as ptxas writes its `LDGSTS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CopyForm {
    /// Bytes per lane (`LDGSTS.E` 4, `.64` 8, `.128` 16).
    pub bytes: u8,
    /// `cp.async.cg`: `.BYPASS`.
    pub bypass: bool,
    /// A `src-size` register that can be any size: `.ZFILL`.
    pub zero_fill: bool,
    /// A per-lane source predicate operand (`LDGSTS ... [d], [s], P`): an `ignore-src` predicate,
    /// or a src-size that is the copy's size or 0.
    pub source_predicate: bool,
}

/// The form of an `LDGSTS` line, `None` for any other instruction.
pub fn sass_copy_form(x: &warpscope_toolchain::sass::SassLine) -> Option<CopyForm> {
    let mut parts = x.opcode.split('.');
    if parts.next() != Some("LDGSTS") {
        return None;
    }
    let mut form = CopyForm {
        bytes: 4,
        bypass: false,
        zero_fill: false,
        source_predicate: false,
    };
    for m in parts {
        match m {
            "64" => form.bytes = 8,
            "128" => form.bytes = 16,
            "BYPASS" => form.bypass = true,
            "ZFILL" => form.zero_fill = true,
            _ => {}
        }
    }
    // `.ZFILL`'s last operand is a predicate too (`LDGSTS.E.ZFILL [d], [s], P1`), not the source one
    form.source_predicate = !form.zero_fill && sass_copy_predicate(x).is_some();
    Some(form)
}

/// The source predicate operand of an `LDGSTS` (its last operand, when a predicate register:
/// `P0`-`P6`, 7 for `PT`) and whether it is negated.
fn sass_copy_predicate(x: &warpscope_toolchain::sass::SassLine) -> Option<(u8, bool)> {
    let last = x.operands.rsplit(',').next().unwrap_or("").trim();
    let (negated, reg) = match last.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, last),
    };
    let reg = match reg {
        "PT" => 7,
        "P0" => 0,
        "P1" => 1,
        "P2" => 2,
        "P3" => 3,
        "P4" => 4,
        "P5" => 5,
        "P6" => 6,
        _ => return None,
    };
    Some((reg, negated))
}

/// The form ptxas gives the PTX `cp.async` at `pc` (see [`CopyForm`]).
fn ptx_copy_form(program: &Program, pc: u32) -> Option<CopyForm> {
    let warpscope_ptx::inst::Inst::CpAsync {
        size,
        src_size,
        ignore_src,
        ..
    } = program.ops[pc as usize].inst
    else {
        return None;
    };
    let sized = src_size != warpscope_ptx::inst::NO_REG;
    let predicate = sized && (ignore_src || selected_size_or_zero(program, pc, src_size));
    Some(CopyForm {
        bytes: size,
        bypass: program.info[pc as usize].text.contains("cp.async.cg"),
        zero_fill: sized && !predicate,
        source_predicate: predicate,
    })
}

/// The base and immediate offset of the first bracketed address of `text` (`[%r1+8192]`,
/// `[R7+0x2000]`, `[R7+-0x10]`, `[%r4]`); the offset is 0 where none is written.
fn bracket_address(text: &str) -> Option<(String, i64)> {
    let inner = &text[text.find('[')? + 1..];
    let inner = inner[..inner.find(']')?].trim();
    let parse = |t: &str| -> Option<i64> {
        let t = t.trim();
        let (neg, t) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let v = match t.strip_prefix("0x") {
            Some(h) => i64::from_str_radix(h, 16).ok()?,
            None => t.parse::<i64>().ok()?,
        };
        Some(if neg { -v } else { v })
    };
    match inner.rsplit_once('+') {
        Some((base, off)) => match parse(off) {
            Some(v) => Some((base.trim().to_string(), v)),
            None => Some((inner.to_string(), 0)),
        },
        None => Some((inner.to_string(), 0)),
    }
}

/// One side's copy in the pairing: its source line and destination address.
struct CopySite {
    line: Option<u32>,
    dst: Option<(String, i64)>,
}

/// Whether pairing `p[i]` with `s[i]` for every `i` agrees with the source lines (where both have
/// one) and the destination offsets (two pairs whose PTX copies share a base register and whose
/// `LDGSTS`s share one lie equally far apart on both sides).
fn pairing_agrees(p: &[&CopySite], s: &[&CopySite]) -> bool {
    let n = p.len();
    for i in 0..n {
        if let (Some(a), Some(b)) = (p[i].line, s[i].line)
            && a != b
        {
            return false;
        }
        for j in i + 1..n {
            if let (Some((pa, po)), Some((pb, qo)), Some((sa, so)), Some((sb, to))) =
                (&p[i].dst, &p[j].dst, &s[i].dst, &s[j].dst)
                && pa == pb
                && sa == sb
                && qo - po != to - so
            {
                return false;
            }
        }
    }
    true
}

/// The `LDGSTS` of each PTX copy of one form: indices into `s` (see
/// [`Reconciliation::with_copy_predicates`]), or `None` when neither code order nor one shift of
/// the destination offsets pairs them.
fn pair_form(p: &[&CopySite], s: &[&CopySite]) -> Option<Vec<usize>> {
    if p.len() != s.len() {
        return None;
    }
    if pairing_agrees(p, s) {
        return Some((0..p.len()).collect());
    }
    let first = p.first()?.dst.as_ref()?;
    let mut found: Option<Vec<usize>> = None;
    for cand in s {
        let Some(c) = &cand.dst else { continue };
        let shift = c.1 - first.1;
        // every PTX copy needs exactly one LDGSTS at its offset + shift, and each LDGSTS one copy
        let mut pick = Vec::with_capacity(p.len());
        for x in p {
            let Some((_, off)) = &x.dst else { return None };
            let hits: Vec<usize> = (0..s.len())
                .filter(|&j| {
                    s[j].dst.as_ref().is_some_and(|d| d.1 == off + shift)
                        && !matches!((x.line, s[j].line), (Some(a), Some(b)) if a != b)
                })
                .collect();
            if hits.len() != 1 {
                pick.clear();
                break;
            }
            pick.push(hits[0]);
        }
        if pick.len() != p.len() {
            continue;
        }
        let mut sorted = pick.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != p.len() {
            continue;
        }
        let ordered: Vec<&CopySite> = pick.iter().map(|&j| s[j]).collect();
        if !pairing_agrees(p, &ordered) {
            continue;
        }
        match &found {
            // two shifts that pair every copy: which one ptxas used is not known
            Some(f) if *f != pick => return None,
            _ => found = Some(pick),
        }
    }
    found
}

/// The kernel's PTX `cp.async`s (by pc) paired with its `LDGSTS`s, form by form (see
/// [`Reconciliation::with_copy_predicates`]); `None` when they cannot all be paired.
pub fn copy_pairs<'s>(
    program: &Program,
    kernel: &str,
    sass: &'s warpscope_toolchain::sass::SassKernel,
) -> Option<Vec<(u32, &'s warpscope_toolchain::sass::SassLine)>> {
    let k = program.kernel(kernel)?;
    let copies: Vec<(u32, CopyForm)> = (k.entry..k.end)
        .filter_map(|pc| ptx_copy_form(program, pc).map(|f| (pc, f)))
        .collect();
    let machine: Vec<(&warpscope_toolchain::sass::SassLine, CopyForm)> = sass
        .insts
        .iter()
        .filter_map(|x| sass_copy_form(x).map(|f| (x, f)))
        .collect();
    if copies.is_empty() || copies.len() != machine.len() {
        return None;
    }
    let forms: BTreeSet<CopyForm> = copies.iter().map(|c| c.1).collect();
    let mut out = Vec::with_capacity(copies.len());
    for form in forms {
        let pcs: Vec<u32> = copies.iter().filter(|c| c.1 == form).map(|c| c.0).collect();
        let xs: Vec<&warpscope_toolchain::sass::SassLine> =
            machine.iter().filter(|m| m.1 == form).map(|m| m.0).collect();
        let p: Vec<CopySite> = pcs
            .iter()
            .map(|&pc| CopySite {
                line: program.inst_info(pc).loc.as_ref().map(|l| l.line),
                dst: bracket_address(&program.info[pc as usize].text),
            })
            .collect();
        let s: Vec<CopySite> = xs
            .iter()
            .map(|x| CopySite {
                line: x.line,
                dst: bracket_address(&x.operands),
            })
            .collect();
        let pairs = pair_form(&p.iter().collect::<Vec<_>>(), &s.iter().collect::<Vec<_>>())?;
        out.extend(pcs.iter().zip(pairs).map(|(&pc, j)| (pc, xs[j])));
    }
    out.sort_by_key(|x| x.0);
    Some(out)
}

/// Whether register row `row` of the kernel holding `pc` provably holds only constants of a
/// `selp` chain (and moves) whose values are 0 and one other value: every instruction naming the
/// row writes it so or reads it (a `selp`, a move or a `cp.async`'s src-size).
pub(crate) fn selected_size_or_zero(
    program: &warpscope_ptx::Program,
    pc: u32,
    row: warpscope_ptx::inst::R,
) -> bool {
    use warpscope_ptx::Inst;
    use warpscope_ptx::inst::{RowInit, UnOp};
    let Some(k) = program.kernels.iter().find(|k| k.entry <= pc && pc < k.end) else {
        return false;
    };
    let ops = &program.ops[k.entry as usize..k.end as usize];
    let mut values: Vec<u64> = Vec::new();
    let mut todo = vec![row];
    let mut seen = Vec::new();
    while let Some(r) = todo.pop() {
        if seen.contains(&r) || seen.len() > 16 {
            continue;
        }
        seen.push(r);
        if let Some((_, RowInit::Const(v))) = k.row_init.iter().find(|(x, _)| *x == r) {
            values.push(*v);
            continue;
        }
        let mut written = false;
        for op in ops {
            match op.inst {
                Inst::Selp { d, a, b, .. } if d == r => {
                    written = true;
                    todo.extend([a, b]);
                }
                Inst::Un {
                    op: UnOp::Mov, d, a, ..
                } if d == r => {
                    written = true;
                    todo.push(a);
                }
                Inst::Selp { a, b, .. } if a == r || b == r => {}
                Inst::Un { op: UnOp::Mov, a, .. } if a == r => {}
                Inst::CpAsync { src_size, .. } if src_size == r => {}
                ref i if warpscope_emu::inst_rows(i).contains(&r) => return false,
                _ => {}
            }
        }
        if !written {
            return false;
        }
    }
    values.sort_unstable();
    values.dedup();
    matches!(values.as_slice(), [0, v] if *v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_a_kernel_writes_through_are_its_store_addresses_parameters() {
        // filter: `out[atomicAdd(count, 1)] = in[i]` writes through out and count, not in
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 out, .param .u64 count, .param .u64 in)\n{\n\
             .reg .b32 %r<4>;\n.reg .b64 %rd<9>;\n\
             ld.param.u64 %rd1, [out];\nld.param.u64 %rd4, [count];\nld.param.u64 %rd5, [in];\n\
             mov.u32 %r2, %tid.x;\nmul.wide.u32 %rd6, %r2, 4;\nadd.s64 %rd7, %rd5, %rd6;\n\
             ld.global.u32 %r3, [%rd7];\n\
             atom.global.add.u32 %r1, [%rd4], 1;\n\
             mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             st.global.u32 [%rd3], %r3;\nret;\n}\n";
        let p = warpscope_ptx::compile(ptx).unwrap();
        // (count only by an integer atomic add: its total does not depend on the order)
        assert_eq!(global_write_params(&p, "k"), Some([(0, 0)].into_iter().collect()));
        // it reads in (and count, by the atomic)
        assert_eq!(
            global_read_params(&p, "k"),
            Some([(1, 0), (2, 0)].into_iter().collect())
        );
        assert!(commutative_integer_atomic("atom.global.add.u32"));
        assert!(commutative_integer_atomic("red.global.max.s64"));
        assert!(!commutative_integer_atomic("atom.global.add.f32"));
        assert!(!commutative_integer_atomic("atom.global.exch.b32"));
        assert!(!commutative_integer_atomic("atom.global.cas.b64"));
        // a pointer read from memory: its target cannot be told
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 table)\n{\n\
             .reg .b32 %r<4>;\n.reg .b64 %rd<9>;\n\
             ld.param.u64 %rd1, [table];\nld.global.u64 %rd2, [%rd1];\n\
             atom.global.add.u32 %r1, [%rd2], 1;\nst.global.u32 [%rd2+4], %r1;\nret;\n}\n";
        let p = warpscope_ptx::compile(ptx).unwrap();
        assert_eq!(global_write_params(&p, "k"), None);
        // a store to a `__device__` variable: no parameter
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
             .global .align 4 .u32 g;\n\
             .visible .entry k(.param .u64 a)\n{\n\
             .reg .b32 %r<4>;\n.reg .b64 %rd<9>;\n\
             ld.param.u64 %rd1, [a];\natom.global.add.u32 %r1, [%rd1], 1;\n\
             st.global.u32 [g], %r1;\nret;\n}\n";
        let p = warpscope_ptx::compile(ptx).unwrap();
        assert_eq!(global_write_params(&p, "k"), None);
    }

    #[test]
    fn stores_of_what_an_atomic_handed_out_depend_on_the_atomics_order() {
        // the scatter `buf[off + atomicAdd(&fill[b], 1)] = x`: the slot from a global atomic
        assert!(global_stores_from_atomics(
            &compaction("st.global.u32 [%rd3], %r2;"),
            "k"
        ));
        // the atomic's result stored as a value
        assert!(global_stores_from_atomics(
            &compaction("st.global.u32 [%rd1], %r1;"),
            "k"
        ));
        // a store that does not use it
        assert!(!global_stores_from_atomics(
            &compaction("st.global.u32 [%rd1], %r2;"),
            "k"
        ));
        // a histogram's shared atomic whose result nobody reads, then an ordinary store
        let hist = looping(
            "atom.shared.add.u32 %r3, [c], 1;\nld.shared.u32 %r4, [c];\n\
             st.global.u32 [%rd1], %r4;\nsetp.lt.u32 %p1, %r2, %r1;",
        );
        assert!(!global_stores_from_atomics(&hist, "k"));
        // a shared atomic's result (a block-local queue slot) stored
        let queue = looping(
            "atom.shared.add.u32 %r3, [c], 1;\nst.global.u32 [%rd1], %r3;\n\
             setp.lt.u32 %p1, %r2, %r1;",
        );
        assert!(global_stores_from_atomics(&queue, "k"));
    }

    fn p(pc: u32, line: u32, side: Side, width: u8, base: &str, offset: i64) -> PtxAccess {
        PtxAccess {
            pc,
            line,
            side: Some(side),
            width,
            base: base.into(),
            offset,
        }
    }
    fn m(line: u32, side: Side, width: u8, base: &str, offset: i64) -> MachineAccess {
        MachineAccess {
            line,
            side,
            width,
            base: base.into(),
            offset,
        }
    }

    fn compaction(store: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 out, .param .u64 count)\n{{\n\
             .reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n\
             ld.param.u64 %rd1, [out];\nld.param.u64 %rd4, [count];\n\
             mov.u32 %r2, %tid.x;\n\
             atom.global.add.u32 %r1, [%rd4], 1;\n\
             mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             {store}\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    /// A kernel whose loop body is `body` (between `L:` and the backward branch on `%p1`), with a
    /// shared counter at `[c]` and a global buffer in `%rd1`.
    fn looping(body: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 g, .param .u32 n)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n\
             .shared .align 4 .u32 c;\n\
             ld.param.u64 %rd1, [g];\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n\
             L:\n{body}\n@%p1 bra L;\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn a_loop_waiting_on_other_threads_atomics_is_timed_by_the_gpu() {
        // while (c < n) { ...; atomicAdd(&c, 1); } with no barrier: how often a thread goes round
        // depends on when the other warps' atomics land (simpleAttributes' kernCacheSegmentTest)
        let waits = "atom.shared.add.u32 %r3, [c], 1;\nld.shared.u32 %r4, [c];\n\
                     setp.lt.u32 %p1, %r4, %r1;";
        assert!(has_spin_loop(&looping(waits), "k"));
        // the atomic's own result deciding: the same
        let result = "atom.shared.add.u32 %r3, [c], 1;\nadd.s32 %r5, %r3, 1;\n\
                      setp.lt.u32 %p1, %r5, %r1;";
        assert!(has_spin_loop(&looping(result), "k"));
        // a volatile flag another block sets
        let flag = "ld.volatile.global.u32 %r4, [%rd1];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(has_spin_loop(&looping(flag), "k"));
        // a barrier in the loop orders the accesses: the count is the program's
        let barrier = "atom.shared.add.u32 %r3, [c], 1;\nbar.sync 0;\nld.shared.u32 %r4, [c];\n\
                       setp.lt.u32 %p1, %r4, %r1;";
        assert!(!has_spin_loop(&looping(barrier), "k"));
        // a histogram's counted loop: atomics on shared bins, global loads, the count decides
        let histogram = "ld.global.u32 %r4, [%rd1];\natom.shared.add.u32 %r3, [c], %r4;\n\
                         add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(histogram), "k"));
        // a shared load without any atomic in the loop: ordinary data
        let plain = "ld.shared.u32 %r4, [c];\nadd.s32 %r2, %r2, %r4;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(plain), "k"));
    }

    #[test]
    fn a_branch_inside_a_counted_loop_on_shared_or_global_data_does_not_spin() {
        // pitch2d's stencil: `if (mask[c]) ... else atomicAdd(&count, 1)` in a counted loop; the
        // branch on the shared load only picks a side, the rounds are the program's
        let stencil = "ld.shared.u8 %r4, [c];\nsetp.eq.u32 %p2, %r4, 0;\n@%p2 bra S;\n\
                       add.s32 %r6, %r6, %r4;\nbra T;\nS:\natom.shared.add.u32 %r3, [c], 1;\nT:\n\
                       add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(stencil), "k"));
        // a filter counting hits by a global atomic while reading global input
        let filter = "ld.global.u32 %r4, [%rd1];\nsetp.eq.u32 %p2, %r4, 0;\n@%p2 bra S;\n\
                      atom.global.add.u32 %r3, [%rd1+4], 1;\nS:\n\
                      add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(filter), "k"));
        // the same shared data leaving the loop: it waits on the other threads
        let leaves = "ld.shared.u8 %r4, [c];\nsetp.eq.u32 %p2, %r4, 0;\n@%p2 bra E;\n\
                      atom.shared.add.u32 %r3, [c], 1;\n\
                      add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(has_spin_loop(&looping_exit(leaves), "k"));
    }

    /// A loop over two pointer parameters `a` (index 0) and `b` (index 1) and a pointer inside a
    /// struct `s` (index 2, its second word), for [`spin_loop_unless_apart`].
    fn looping2(body: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 a, .param .u64 b, .param .align 8 .b8 s[16])\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n\
             ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\nld.param.u64 %rd3, [s+8];\n\
             cvta.to.global.u64 %rd4, %rd1;\ncvta.to.global.u64 %rd5, %rd2;\nmov.u32 %r2, 0;\n\
             L:\n{body}\n@%p1 bra L;\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn a_loop_rereading_its_bound_next_to_an_atomic_on_another_pointer_waits_only_if_they_may_alias() {
        // for (j = row[r]; j < row[r + 1]; j++) atomicAdd(&count[col[j]], 1): the bound is re-read
        // through `a`, the atomic goes through `b` (at an index loaded from `a`)
        let csr = "ld.global.u32 %r4, [%rd4+4];\nmul.wide.u32 %rd6, %r4, 4;\nadd.s64 %rd7, %rd5, %rd6;\n\
                   atom.global.add.u32 %r3, [%rd7], 1;\nadd.s32 %r2, %r2, 1;\n\
                   ld.global.u32 %r5, [%rd4+8];\nsetp.lt.u32 %p1, %r2, %r5;";
        let p = looping2(csr);
        assert!(has_spin_loop(&p, "k"));
        let pairs = spin_loop_unless_apart(&p, "k").unwrap();
        use AddressWord::Param;
        assert_eq!(pairs, BTreeSet::from([(Param(0, 0), Param(1, 0))]));
        // the bound read through the struct's pointer, the atomic through `a`
        let s = "atom.global.min.u32 %r3, [%rd4], %r2;\nadd.s32 %r2, %r2, 1;\n\
                 ld.u32 %r5, [%rd3];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert_eq!(
            spin_loop_unless_apart(&looping2(s), "k").unwrap(),
            BTreeSet::from([(Param(2, 8), Param(0, 0))])
        );
        // the load and the atomic through the same pointer: it waits whatever the arguments
        let same = "atom.global.min.u32 %r3, [%rd5], %r2;\nadd.s32 %r2, %r2, 1;\n\
                    ld.global.u32 %r5, [%rd5];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert!(has_spin_loop(&looping2(same), "k"));
        assert_eq!(spin_loop_unless_apart(&looping2(same), "k"), None);
        // a pointer loaded from memory: its allocation is not known
        let loaded = "ld.global.u64 %rd8, [%rd4];\natom.global.add.u32 %r3, [%rd8], 1;\n\
                      add.s32 %r2, %r2, 1;\nld.global.u32 %r5, [%rd5];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert!(has_spin_loop(&looping2(loaded), "k"));
        assert_eq!(spin_loop_unless_apart(&looping2(loaded), "k"), None);
        // a volatile load stays a wait
        let volatile = "atom.global.add.u32 %r3, [%rd4], 1;\nadd.s32 %r2, %r2, 1;\n\
                        ld.volatile.global.u32 %r5, [%rd5];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert_eq!(spin_loop_unless_apart(&looping2(volatile), "k"), None);
        // the atomic's own result deciding stays a wait
        let result = "atom.global.add.u32 %r3, [%rd4], 1;\nld.global.u32 %r5, [%rd5];\n\
                      add.s32 %r6, %r3, %r5;\nsetp.lt.u32 %p1, %r6, 9;";
        assert!(has_spin_loop(&looping2(result), "k"));
        assert_eq!(spin_loop_unless_apart(&looping2(result), "k"), None);
        // no waiting loop: nothing to put apart
        let plain = "ld.global.u32 %r5, [%rd5];\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r5;";
        assert_eq!(spin_loop_unless_apart(&looping2(plain), "k"), None);
    }

    /// [`looping2`] with two `__device__` variables, `job` (80 bytes) and `best` (8 bytes), and a
    /// `__constant__` table `tab`.
    fn looping_vars(body: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .global .align 4 .b8 job[80];\n.global .align 4 .b8 best[8];\n.const .align 4 .b8 tab[16];\n\
             .visible .entry k(.param .u64 a, .param .u64 b)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n\
             ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [b];\n\
             cvta.to.global.u64 %rd4, %rd1;\ncvta.to.global.u64 %rd5, %rd2;\nmov.u32 %r2, 0;\n\
             L:\n{body}\n@%p1 bra L;\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn device_variables_are_words_of_their_own_in_the_waiting_loop_rule() {
        use AddressWord::{Param, Variable};
        let p = looping_vars("");
        let var = |n: &str| {
            let v = p.vars.iter().find(|v| v.name == n).unwrap();
            Variable {
                addr: v.addr,
                size: v.size,
            }
        };
        let (job, best) = (var("job"), var("best"));
        assert_ne!(job, best);
        // atomicMin(&best, n) through `mov.u64 %rd6, best`, the bound re-read through `a`
        let result_var = "mov.u64 %rd6, best;\natom.global.min.u32 %r3, [%rd6], %r2;\n\
                          add.s32 %r2, %r2, 1;\nld.global.u32 %r5, [%rd4+64];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert!(has_spin_loop(&looping_vars(result_var), "k"));
        assert_eq!(
            spin_loop_unless_apart(&looping_vars(result_var), "k").unwrap(),
            BTreeSet::from([(Param(0, 0), best)])
        );
        // the bound read from the variable by name (`[job+64]`), the atomic through `b`
        let job_var = "atom.global.min.u32 %r3, [%rd5], %r2;\nadd.s32 %r2, %r2, 1;\n\
                       ld.global.u32 %r5, [job+64];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert_eq!(
            spin_loop_unless_apart(&looping_vars(job_var), "k").unwrap(),
            BTreeSet::from([(job, Param(1, 0))])
        );
        // both variables, by name and through a register offset from the name
        let both = "add.s64 %rd7, best, 4;\natom.global.min.u32 %r3, [%rd7], %r2;\nadd.s32 %r2, %r2, 1;\n\
                    ld.global.u32 %r5, [job+64];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert_eq!(
            spin_loop_unless_apart(&looping_vars(both), "k").unwrap(),
            BTreeSet::from([(job, best)])
        );
        // the result word inside the job variable: the same variable, the wait stays whatever
        // the arguments
        let same = "atom.global.min.u32 %r3, [job+72], %r2;\nadd.s32 %r2, %r2, 1;\n\
                    ld.global.u32 %r5, [job+64];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert!(has_spin_loop(&looping_vars(same), "k"));
        assert_eq!(spin_loop_unless_apart(&looping_vars(same), "k"), None);
        // a pointer loaded from a variable: its allocation is not known
        let loaded = "ld.global.u64 %rd8, [job];\natom.global.add.u32 %r3, [%rd8], 1;\n\
                      add.s32 %r2, %r2, 1;\nld.global.u32 %r5, [best];\nsetp.lt.u32 %p1, %r2, %r5;";
        assert!(has_spin_loop(&looping_vars(loaded), "k"));
        assert_eq!(spin_loop_unless_apart(&looping_vars(loaded), "k"), None);
        // a `__constant__` name is no global variable (and constant memory takes no atomics)
        assert!(variables_named(&p, "tab+4").is_empty());
        assert_eq!(variables_named(&p, "job+4"), vec![job]);
    }

    #[test]
    fn writes_through_a_device_variable_are_not_parameter_words() {
        // global_write_params: a store through a variable's address keeps the answer `None`
        let store =
            "mov.u64 %rd6, best;\nst.global.u32 [%rd6], %r2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 9;";
        assert_eq!(global_write_params(&looping_vars(store), "k"), None);
        let named = "st.global.u32 [best+4], %r2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 9;";
        assert_eq!(global_write_params(&looping_vars(named), "k"), None);
        let param = "st.global.u32 [%rd4], %r2;\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 9;";
        assert_eq!(
            global_write_params(&looping_vars(param), "k"),
            Some(BTreeSet::from([(0, 0)]))
        );
    }

    /// [`looping`] with a label `E` after the loop, for bodies that leave it early.
    fn looping_exit(body: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 g, .param .u32 n)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n\
             .shared .align 4 .u32 c;\n\
             ld.param.u64 %rd1, [g];\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n\
             L:\n{body}\n@%p1 bra L;\nE:\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn a_strong_load_spins_only_where_a_branch_of_its_loop_depends_on_it() {
        // a poll: the flag's value decides when the loop ends
        let poll = "ld.acquire.gpu.global.u32 %r4, [%rd1];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(has_spin_loop(&looping(poll), "k"));
        // the same through shared memory: one thread stores what it read, all branch on it
        let shared = "ld.relaxed.gpu.global.u32 %r4, [%rd1];\nst.shared.u32 [c], %r4;\n\
                      ld.shared.u32 %r5, [c];\nsetp.eq.u32 %p1, %r5, 0;";
        assert!(has_spin_loop(&looping(shared), "k"));
        // a last block summing the partials with acquire loads, counted by the grid size
        // (calibration/run/bench5/atom.cu's `lastBlock`): the trip count is the program's
        let sum = "ld.acquire.gpu.global.u32 %r4, [%rd1];\nadd.s32 %r3, %r3, %r4;\n\
                   add.s32 %r2, %r2, 32;\nsetp.lt.s32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(sum), "k"));
        // a clock read the loop's branch does not use
        let clock = "mov.u64 %rd3, %clock64;\nadd.s32 %r2, %r2, 1;\nsetp.lt.s32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(clock), "k"));
    }

    #[test]
    fn a_lock_whose_global_cas_result_comes_back_through_shared_memory_spins() {
        // Triton's `while tl.atomic_cas(lock, 0, 1) == 1: pass`: one thread's global CAS, its
        // result stored to shared, a barrier, every thread loads it back and branches on it. The
        // other blocks decide the rounds (calibration/hopper/h200_triton2, ln_bwd_lock: the H200
        // ran 1,088 shared loads where a lock taken at once runs 512)
        let lock = "atom.global.acq_rel.gpu.cas.b32 %r3, [%rd1], 0, 1;\nst.shared.b32 [c], %r3;\n\
                    bar.sync 0;\nld.shared.b32 %r4, [c];\nsetp.eq.s32 %p1, %r4, 1;";
        assert!(has_spin_loop(&looping(lock), "k"));
        assert!(spin_loops_may_touch_shared(&looping(lock), "k"));
        // a shared atomic with the barrier stays the program's count (as above)
        let shared = "atom.shared.cas.b32 %r3, [c], 0, 1;\nst.shared.b32 [c], %r3;\n\
                      bar.sync 0;\nld.shared.b32 %r4, [c];\nsetp.eq.s32 %p1, %r4, 1;";
        assert!(!has_spin_loop(&looping(shared), "k"));
        // a global atomic whose result steers nothing: a counted loop
        let counted = "atom.global.add.u32 %r3, [%rd1], 1;\nst.shared.b32 [c], %r3;\n\
                       add.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;";
        assert!(!has_spin_loop(&looping(counted), "k"));
    }

    /// [`looping`] with `after` between the loop's backward branch and the `ret`.
    fn looping_then(body: &str, after: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 g, .param .u32 n)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n\
             .shared .align 4 .u32 c;\n\
             ld.param.u64 %rd1, [g];\nld.param.u32 %r1, [n];\nmov.u32 %r2, 0;\n\
             L:\n{body}\n@%p1 bra L;\n{after}\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn what_follows_a_spin_loop_before_a_barrier_runs_as_often_as_the_warp_split() {
        // a CAS loop (a double maximum), then a load and a reduction: the lanes leave the loop at
        // different times and the H200 ran the following loads once per group of lanes that left
        // together (calibration/run/bench5/h200/atom.r1.sass.csv.gz: 699 times for 157 warps)
        let cas = "atom.global.cas.b32 %r3, [%rd1], %r2, %r1;\n\
                   setp.ne.u32 %p1, %r3, %r2;\nmov.u32 %r2, %r3;";
        let load = "ld.global.u32 %r5, [%rd1+8];\nred.global.add.u32 [%rd1+16], %r5;";
        assert!(spin_loops_may_touch_global(&looping_then(cas, load), "k"));
        // a barrier first reconverges the warp: what follows it counts exactly
        let barrier = format!("bar.warp.sync -1;\n{load}");
        assert!(!spin_loops_may_touch_global(&looping_then(cas, &barrier), "k"));
        // nothing after the loop (book6's casAdd): exact
        assert!(!spin_loops_may_touch_global(&looping_then(cas, ""), "k"));
        // a loop the warp leaves at once (a vote decides, as CUB's look-back waits): what
        // follows runs once per warp
        let flag = "ld.volatile.shared.u32 %r4, [c];\nsetp.eq.u32 %p0, %r4, 0;";
        let voted = format!("{flag}\nvote.sync.any.pred %p1, %p0, -1;");
        assert!(has_spin_loop(&looping_then(&voted, load), "k"));
        assert!(!spin_loops_may_touch_global(&looping_then(&voted, load), "k"));
        // the same flag with each lane deciding for itself: the warp splits
        let own = flag.replace("%p0", "%p1");
        assert!(spin_loops_may_touch_global(&looping_then(&own, load), "k"));
        // shared accesses after such a loop keep their label (see `after_loop`)
        let shared = "st.shared.u32 [c], %r3;";
        assert!(!spin_loops_may_touch_shared(&looping_then(cas, shared), "k"));
    }

    #[test]
    fn a_spin_loop_moves_the_global_counters_only_where_it_may_load_or_store_global_memory() {
        // an atomicCAS retry loop ("my atomic add"): the CAS's result decides, no load or store
        let cas = "atom.global.cas.b32 %r3, [%rd1], %r2, %r1;
setp.ne.u32 %p1, %r3, %r2;
                   mov.u32 %r2, %r3;";
        assert!(has_spin_loop(&looping(cas), "k"));
        assert!(!spin_loops_may_touch_global(&looping(cas), "k"));
        // the same loop re-reading the word with a plain load each time round
        let reread = "ld.global.u32 %r2, [%rd1];
atom.global.cas.b32 %r3, [%rd1], %r2, %r1;
                      setp.ne.u32 %p1, %r3, %r2;";
        assert!(spin_loops_may_touch_global(&looping(reread), "k"));
        // a volatile flag polled in global memory
        let flag = "ld.volatile.global.u32 %r4, [%rd1];
setp.eq.u32 %p1, %r4, 0;";
        assert!(spin_loops_may_touch_global(&looping(flag), "k"));
        // simpleAttributes' shape: a shared counter's atomics decide, a global load in the body
        let waits = "ld.global.u32 %r6, [%rd1];
atom.shared.add.u32 %r3, [c], 1;
                     ld.shared.u32 %r4, [c];
setp.lt.u32 %p1, %r4, %r1;";
        assert!(spin_loops_may_touch_global(&looping(waits), "k"));
        // a clock loop with no memory access
        let clock = "mov.u64 %rd3, %clock64;
cvt.u32.u64 %r4, %rd3;
setp.lt.u32 %p1, %r4, %r1;";
        assert!(!spin_loops_may_touch_global(&looping(clock), "k"));
    }

    /// A kernel with a prologue (grid workspace address in `%rd2`, a shared window's generic
    /// address in `%rd3`) and a loop body between `L:` and the backward branch on `%p1`.
    fn polling(body: &str) -> Program {
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 g)\n{{\n\
             .reg .pred %p<3>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<8>;\n\
             .shared .align 4 .u32 c;\n\
             ld.param.u64 %rd1, [g];\nmov.u32 %r1, %envreg2;\nmov.u32 %r2, %envreg1;\n\
             cvt.u64.u32 %rd4, %r1;\ncvt.u64.u32 %rd5, %r2;\nbfi.b64 %rd6, %rd5, %rd4, 32, 32;\n\
             add.s64 %rd2, %rd6, 4;\nmov.u64 %rd7, c;\ncvta.shared.u64 %rd3, %rd7;\nmov.u32 %r3, 0;\n\
             L:\n{body}\n@%p1 bra L;\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn a_spin_loop_moves_the_shared_counters_only_where_it_may_touch_shared_memory() {
        // cooperative groups' grid barrier: a generic acquire load of the grid workspace
        let grid = "ld.acquire.gpu.u32 %r4, [%rd2];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(has_spin_loop(&polling(grid), "k"));
        assert!(!spin_loops_may_touch_shared(&polling(grid), "k"));
        // the same poll on a kernel parameter's buffer: global too
        let param = "ld.acquire.gpu.u32 %r4, [%rd1];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(!spin_loops_may_touch_shared(&polling(param), "k"));
        // a generic poll of a shared variable's address: shared
        let window = "ld.acquire.gpu.u32 %r4, [%rd3];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(spin_loops_may_touch_shared(&polling(window), "k"));
        // a poll of the workspace with a shared store in the spinning loop
        let store = "st.shared.u32 [c], %r3;\nld.acquire.gpu.u32 %r4, [%rd2];\nsetp.eq.u32 %p1, %r4, 0;";
        assert!(spin_loops_may_touch_shared(&polling(store), "k"));
        // a clock loop with no memory access
        let clock = "mov.u64 %rd7, %clock64;\nsetp.lt.u64 %p1, %rd7, 1000;";
        assert!(has_spin_loop(&polling(clock), "k"));
        assert!(!spin_loops_may_touch_shared(&polling(clock), "k"));
        // a counted outer loop around a grid barrier: its shared accesses run a fixed number of
        // times (the inner poll loop alone spins)
        let outer = "st.shared.u32 [c], %r3;\nP:\nld.acquire.gpu.u32 %r4, [%rd2];\n\
                     setp.eq.u32 %p2, %r4, 0;\n@%p2 bra P;\nadd.s32 %r3, %r3, 1;\n\
                     setp.lt.u32 %p1, %r3, 4;";
        assert!(has_spin_loop(&polling(outer), "k"));
        assert!(!spin_loops_may_touch_shared(&polling(outer), "k"));
    }

    #[test]
    fn a_branch_on_an_exchanged_value_depends_on_the_atomics_order() {
        // if (atomicExch(&tab[h], e) != 0) ...: straight code, no loop
        let kernel = |atom: &str, guard: &str| {
            let ptx = format!(
                ".version 8.0\n.target sm_90\n.address_size 64\n\
                 .visible .entry k(.param .u64 tab)\n{{\n\
                 .reg .pred %p<3>;\n.reg .b64 %rd<6>;\n\
                 ld.param.u64 %rd1, [tab];\ncvta.to.global.u64 %rd2, %rd1;\n\
                 {atom}\nsetp.eq.s64 %p1, %rd3, 0;\nsetp.eq.s64 %p2, %rd2, 0;\n\
                 @{guard} bra DONE;\nst.global.u64 [%rd2+8], %rd2;\nDONE:\nret;\n}}\n"
            );
            warpscope_ptx::compile(&ptx).unwrap()
        };
        let exch = "atom.global.exch.b64 %rd3, [%rd2], 5;";
        assert!(branches_on_exchanges(&kernel(exch, "%p1"), "k"));
        let cas = "atom.cas.b64 %rd3, [%rd2], 0, 5;";
        assert!(branches_on_exchanges(&kernel(cas, "%p1"), "k"));
        // the branch reads something else
        assert!(!branches_on_exchanges(&kernel(exch, "%p2"), "k"));
        // a ticket from an addition: the values handed out are the same in any order
        let add = "atom.global.add.u64 %rd3, [%rd2], 1;";
        assert!(!branches_on_exchanges(&kernel(add, "%p1"), "k"));
        // a shared exchange is the block's own
        let shared = "atom.shared.exch.b64 %rd3, [%rd2], 5;";
        assert!(!branches_on_exchanges(&kernel(shared, "%p1"), "k"));
    }

    #[test]
    fn an_address_from_an_atomic_makes_global_counters_order_dependent() {
        // out[atomicAdd(count, 1)] = tid: the slot, so the address, comes from the atomic
        assert!(global_addresses_from_atomics(
            &compaction("st.global.u32 [%rd3], %r2;"),
            "k"
        ));
        // out[0] = atomicAdd(count, 1): only the value does
        assert!(!global_addresses_from_atomics(
            &compaction("st.global.u32 [%rd1], %r1;"),
            "k"
        ));
    }

    #[test]
    fn reads_ptx_text() {
        let a = parse_ptx_shared("ld.shared.v2.f32 \t{%f1, %f2}, [%r4+8];").unwrap();
        assert_eq!(
            (a.side, a.width, a.base.as_str(), a.offset),
            (Some(Side::Load), 8, "%r4", 8)
        );
        let a = parse_ptx_shared("st.shared.u8 \t[_ZZ1kE1s+3], %rs1;").unwrap();
        assert_eq!(
            (a.side, a.width, a.base.as_str(), a.offset),
            (Some(Side::Store), 1, "_ZZ1kE1s", 3)
        );
        let a = parse_ptx_shared("@%p1 ld.shared.f64 %fd1, [%r2];").unwrap();
        assert_eq!((a.width, a.offset), (8, 0));
        assert!(parse_ptx_shared("ld.global.f32 %f1, [%rd1];").is_none());
        assert_eq!(
            parse_ptx_shared("atom.shared.add.u32 %r1, [%r2], 1;")
                .unwrap()
                .side,
            None
        );
    }

    #[test]
    fn struct_f2_fuses_into_64_bit() {
        let ptx = [
            p(10, 14, Side::Store, 4, "%r4", 0),
            p(11, 14, Side::Store, 4, "%r4", 4),
            p(20, 16, Side::Load, 4, "%r4", 0),
            p(21, 16, Side::Load, 4, "%r4", 4),
        ];
        let sass = [m(14, Side::Store, 8, "R0", 0), m(16, Side::Load, 8, "R0", 0)];
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(r.role(10), Role::Leader { width: 8 });
        assert_eq!(r.role(11), Role::Follower);
        assert_eq!(r.role(20), Role::Leader { width: 8 });
        assert_eq!(r.role(21), Role::Follower);
        assert!(r.unmatched_lines.is_empty());
    }

    #[test]
    fn one_for_one_and_unrolled_copies_stay_plain() {
        // matmul: As row reads fused 4 x 128-bit, Bs column reads one for one; ptxas unrolled the
        // loop so every machine access appears several times (a set, so that does not matter).
        let mut ptx = Vec::new();
        let mut sass = Vec::new();
        for k in 0..16 {
            ptx.push(p(100 + k, 20, Side::Load, 4, "%r5", 4 * i64::from(k)));
            ptx.push(p(200 + k, 20, Side::Load, 4, "%r6", 64 * i64::from(k)));
            for _copy in 0..4 {
                sass.push(m(20, Side::Load, 4, "R17", 64 * i64::from(k)));
            }
        }
        for q in 0..4 {
            sass.push(m(20, Side::Load, 16, "R18", 16 * q));
        }
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(r.role(100), Role::Leader { width: 16 });
        assert_eq!(r.role(101), Role::Follower);
        assert_eq!(r.role(104), Role::Leader { width: 16 });
        assert!((200..216).all(|pc| r.role(pc) == Role::Plain));
        assert_eq!(r.fused_groups, 4);
    }

    #[test]
    fn a_load_ptxas_sinks_under_a_condition_leaves_the_line_unmatched() {
        // line 5: `int t = code[i]; if (v == 0) out = t;` the PTX loads t on every pass, ptxas
        // loads it by `@!P0 LDG` only in the lanes whose v is 0: fewer requests than the PTX's
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n\
            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n\
            .loc 1 4 0\nld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\n\
            .loc 1 5 0\nld.global.u32 %r2, [%rd1+4];\nsetp.eq.s32 %p1, %r1, 0;\nselp.b32 %r3, %r2, 7, %p1;\n\
            .loc 1 6 0\nst.global.u32 [%rd1], %r3;\nret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let sass = |guard: &str| {
            let text = format!(
                ".section\t.text.k,\"ax\",@progbits\n\
                 //## File \"k.cu\", line 4\n\
                 /*0000*/ LDG.E R0, desc[UR4][R2.64] ;\n\
                 //## File \"k.cu\", line 5\n\
                 /*0010*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n\
                 /*0020*/ IMAD.MOV.U32 R5, RZ, RZ, 0x7 ;\n\
                 /*0030*/ {guard} LDG.E R5, desc[UR4][R2.64+0x4] ;\n\
                 //## File \"k.cu\", line 6\n\
                 /*0040*/ STG.E desc[UR4][R2.64], R5 ;\n\
                 /*0050*/ EXIT ;\n"
            );
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        assert_eq!(
            global_lines_unmatched(&program, "k", &sass("@!P0")),
            Some(vec![Some(5)])
        );
        // the same load kept on every pass: every line matches
        assert_eq!(global_lines_unmatched(&program, "k", &sass("")), Some(vec![]));
    }

    #[test]
    fn an_if_converted_arm_keeps_the_line_matched() {
        // line 5: `if (v < 10) x = a[1];` the PTX branches around the load, ptxas drops the
        // branch and loads by `@!P0 LDG`: the same lanes load; line 6 an if-else whose two arms
        // become `@P0 LDG` and `@!P0 LDG`
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n\
            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n\
            .loc 1 4 0\nld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nmov.u32 %r2, 0;\n\
            .loc 1 5 0\nsetp.ge.u32 %p1, %r1, 10;\n@%p1 bra $L__BB0_2;\nld.global.u32 %r2, [%rd1+4];\n\
            $L__BB0_2:\n\
            .loc 1 6 0\n@%p1 bra $L__BB0_4;\nld.global.u32 %r3, [%rd1+8];\nbra.uni $L__BB0_5;\n\
            $L__BB0_4:\nld.global.u32 %r3, [%rd1+12];\n\
            $L__BB0_5:\n\
            .loc 1 7 0\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd1], %r4;\nret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let sass = |guard: &str| {
            let text = format!(
                ".section\t.text.k,\"ax\",@progbits\n\
                 //## File \"k.cu\", line 4\n\
                 /*0000*/ LDG.E R0, desc[UR4][R2.64] ;\n\
                 //## File \"k.cu\", line 5\n\
                 /*0010*/ ISETP.GE.U32.AND P0, PT, R0, 0xa, PT ;\n\
                 /*0020*/ {guard} LDG.E R5, desc[UR4][R2.64+0x4] ;\n\
                 //## File \"k.cu\", line 6\n\
                 /*0030*/ @!P0 LDG.E R6, desc[UR4][R2.64+0x8] ;\n\
                 /*0040*/ @P0 LDG.E R6, desc[UR4][R2.64+0xc] ;\n\
                 //## File \"k.cu\", line 7\n\
                 /*0050*/ STG.E desc[UR4][R2.64], R5 ;\n\
                 /*0060*/ EXIT ;\n"
            );
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        assert_eq!(global_lines_unmatched(&program, "k", &sass("@!P0")), Some(vec![]));
        assert_eq!(global_lines_unmatched(&program, "k", &sass("")), Some(vec![]));
        // the arms are the blocks after each conditional branch, not what follows the joins
        let k = program.kernel("k").unwrap();
        let arms = hammock_arms(&program, k);
        let loads: Vec<bool> = (k.entry..k.end)
            .filter(|&pc| {
                matches!(
                    program.ops[pc as usize].inst,
                    warpscope_ptx::inst::Inst::Ld {
                        space: warpscope_ptx::inst::MemSpace::Global,
                        ..
                    }
                )
            })
            .map(|pc| arms.contains(&pc))
            .collect();
        assert_eq!(loads, [false, true, true, true]);
    }

    #[test]
    fn a_wait_retried_at_the_end_of_the_kernel_is_no_loop_around_what_follows() {
        // ptxas places an mbarrier wait's retry after the last EXIT and jumps back to the
        // instruction after the wait: line 6's loads lie between that jump and its target, on
        // no cycle; the retry itself (0x0090) is one
        let text = ".section\t.text.k,\"ax\",@progbits\n\
             //## File \"k.cu\", line 5\n\
             /*0000*/ SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R1+URZ], R2 ;\n\
             /*0010*/ @!P0 BRA `(.L_x_1) ;\n\
             .L_x_0:\n\
             //## File \"k.cu\", line 6\n\
             /*0020*/ LDG.E R5, desc[UR4][R2.64] ;\n\
             /*0030*/ LDG.E R6, desc[UR4][R2.64+0x4] ;\n\
             /*0040*/ STG.E desc[UR4][R2.64], R5 ;\n\
             /*0050*/ EXIT ;\n\
             .L_x_1:\n\
             /*0060*/ SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R1+URZ], R2 ;\n\
             /*0070*/ @!P0 BRA `(.L_x_1) ;\n\
             /*0080*/ BRA `(.L_x_0) ;\n\
             .L_x_2:\n\
             /*0090*/ BRA `(.L_x_2) ;\n";
        let sass = warpscope_toolchain::sass::parse_disassembly(text)
            .unwrap()
            .remove(0);
        assert!(
            sass.loops().iter().any(|&(a, z)| a <= 0x20 && z >= 0x40),
            "{:?}",
            sass.loops()
        );
        assert_eq!(sass_cyclic(&sass), BTreeSet::from([0x60, 0x70]));
    }

    #[test]
    fn a_guard_ptxas_drops_keeps_the_line_matched() {
        // line 5: `@%p1 ld.global` under a guard ptxas proves true: `LDG` with no predicate runs
        // in the same lanes; kept as `@P0 LDG` the line matches too
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n\
            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n\
            .loc 1 4 0\nld.param.u64 %rd1, [p];\nmov.u32 %r1, 1;\nsetp.ne.s32 %p1, %r1, 0;\n\
            .loc 1 5 0\n@%p1 ld.global.u32 %r2, [%rd1+4];\n\
            .loc 1 6 0\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let sass = |guard: &str| {
            let text = format!(
                ".section\t.text.k,\"ax\",@progbits\n\
                 //## File \"k.cu\", line 5\n\
                 /*0000*/ {guard} LDG.E R5, desc[UR4][R2.64+0x4] ;\n\
                 //## File \"k.cu\", line 6\n\
                 /*0010*/ STG.E desc[UR4][R2.64], R5 ;\n\
                 /*0020*/ EXIT ;\n"
            );
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        assert_eq!(global_lines_unmatched(&program, "k", &sass("")), Some(vec![]));
        assert_eq!(global_lines_unmatched(&program, "k", &sass("@P0")), Some(vec![]));
    }

    #[test]
    fn a_load_sunk_below_a_branch_unmatches_its_line() {
        // line 5: `b = start[c], m = cnt[c]` loaded together before `if (m < 1)` skips the use of
        // `b`; ptxas loads `b` only after the branch (calibration/run/bench11/cellrule.cu: fewer
        // lanes, fewer sectors) - same counts inside and outside loops, no predicate
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n\
            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\n\
            .loc 1 4 0\nld.param.u64 %rd1, [p];\n\
            .loc 1 5 0\nld.global.u32 %r1, [%rd1];\nld.global.u32 %r2, [%rd1+4];\n\
            .loc 1 6 0\nsetp.lt.s32 %p1, %r2, 1;\n@%p1 bra $L1;\n\
            .loc 1 7 0\nst.global.u32 [%rd1+8], %r1;\n$L1:\nret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let sass = |sunk: bool| {
            let (a, b) = if sunk {
                ("", "LDG.E R5, desc[UR4][R2.64] ;")
            } else {
                ("LDG.E R5, desc[UR4][R2.64] ;", "NOP ;")
            };
            let text = format!(
                ".section\t.text.k,\"ax\",@progbits\n\
                 //## File \"k.cu\", line 5\n\
                 /*0000*/ LDG.E R4, desc[UR4][R2.64+0x4] ;\n\
                 /*0010*/ {a} NOP ;\n\
                 //## File \"k.cu\", line 6\n\
                 /*0020*/ ISETP.GE.AND P0, PT, R4, 0x1, PT ;\n\
                 /*0030*/ @!P0 BRA `(.L_x_0) ;\n\
                 //## File \"k.cu\", line 5\n\
                 /*0040*/ {b}\n\
                 //## File \"k.cu\", line 7\n\
                 /*0050*/ STG.E desc[UR4][R2.64+0x8], R5 ;\n\
                 .L_x_0:\n\
                 /*0060*/ EXIT ;\n"
            );
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        assert_eq!(
            global_lines_unmatched(&program, "k", &sass(true)),
            Some(vec![Some(5)])
        );
        assert_eq!(global_lines_unmatched(&program, "k", &sass(false)), Some(vec![]));
        // the second load after a branch every lane comes back from (an `mbarrier` wait's retry
        // placed after the `EXIT`): its block runs as often as the first's, the line matches
        let text = ".section\t.text.k,\"ax\",@progbits\n\
             //## File \"k.cu\", line 5\n\
             /*0000*/ LDG.E R4, desc[UR4][R2.64+0x4] ;\n\
             //## File \"k.cu\", line 6\n\
             /*0010*/ ISETP.GE.AND P0, PT, R4, 0x1, PT ;\n\
             /*0020*/ @!P0 BRA `(.L_x_1) ;\n\
             .L_x_0:\n\
             //## File \"k.cu\", line 5\n\
             /*0030*/ LDG.E R5, desc[UR4][R2.64] ;\n\
             //## File \"k.cu\", line 7\n\
             /*0040*/ STG.E desc[UR4][R2.64+0x8], R5 ;\n\
             /*0050*/ EXIT ;\n\
             .L_x_1:\n\
             /*0060*/ BRA `(.L_x_0) ;\n";
        let retry = warpscope_toolchain::sass::parse_disassembly(text)
            .unwrap()
            .remove(0);
        assert_eq!(global_lines_unmatched(&program, "k", &retry), Some(vec![]));
    }

    #[test]
    fn repeated_loads_ptxas_removed_leave_the_line_unmatched() {
        // line 9: the PTX loads [%r1+0], [%r1+4] and then both again; the machine code loads each
        // once (ptxas kept the values in registers)
        let ptx: Vec<PtxAccess> = [0, 4, 0, 4]
            .iter()
            .enumerate()
            .map(|(i, &off)| PtxAccess {
                pc: i as u32,
                line: 9,
                side: Some(Side::Load),
                width: 4,
                base: "%r1".into(),
                offset: off,
            })
            .collect();
        let m = |off: i64| MachineAccess {
            line: 9,
            side: Side::Load,
            width: 4,
            base: "R2".into(),
            offset: off,
        };
        let r = Reconciliation::from_accesses(&ptx, &[m(0), m(4)]);
        assert!(r.unmatched_lines.contains(&9));
        // the machine code repeats them too: one for one
        let r = Reconciliation::from_accesses(&ptx, &[m(0), m(4), m(0), m(4)]);
        assert!(r.unmatched_lines.is_empty());
        // no repeats: two PTX loads, two LDS
        let r = Reconciliation::from_accesses(&ptx[..2], &[m(0), m(4)]);
        assert!(r.unmatched_lines.is_empty());
    }

    #[test]
    fn one_base_register_serving_steps_of_other_widths_is_no_fused_group() {
        // a 9/7 wavelet lifting line `s[k] += c[st] * (s[k - 1] + s[k + 1])` in a loop unrolled
        // over its 4 steps: the PTX reads [%rN-4], [%rN], [%rN+4] in each step; the machine code
        // reads steps 1 and 3 with three LDS and steps 2 and 4 with an LDS and an LDS.64, all
        // through R3. The union of R3's shapes covers each PTX group but is no group of its own:
        // steps 2 and 4 run fewer times than 1 and 3, so the line cannot be counted exactly.
        let mut ptx = Vec::new();
        for (st, base) in ["%r47", "%r50", "%r53", "%r56"].into_iter().enumerate() {
            let pc = 10 * st as u32;
            ptx.push(p(pc, 54, Side::Load, 4, base, 4));
            ptx.push(p(pc + 1, 54, Side::Load, 4, base, -4));
            ptx.push(p(pc + 2, 54, Side::Load, 4, base, 0));
        }
        let mut sass = Vec::new();
        for st in 0..4 {
            if st % 2 == 0 {
                sass.push(m(54, Side::Load, 4, "R3", 4));
                sass.push(m(54, Side::Load, 4, "R3", -4));
                sass.push(m(54, Side::Load, 4, "R3", 0));
            } else {
                sass.push(m(54, Side::Load, 4, "R3", -4));
                sass.push(m(54, Side::Load, 8, "R3", 0));
            }
        }
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert!(r.unmatched_lines.contains(&54));
        assert!(ptx.iter().all(|a| r.role(a.pc) == Role::Plain));
    }

    #[test]
    fn unmatched_lines_are_reported_and_plain() {
        let ptx = [p(1, 5, Side::Load, 4, "%r1", 0), p(2, 5, Side::Load, 4, "%r1", 4)];
        let sass = [m(5, Side::Load, 16, "R1", 0)];
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(r.role(1), Role::Plain);
        assert!(r.unmatched_lines.contains(&5));
    }

    /// calibration/run/bench18 bilat: a 7x7 window read by a loop over rows (7 loads of line 30
    /// a step, `[%r132-12..+12]`) that ptxas unrolled into one base with 48 loads: the centre
    /// tap's load is gone (its value is the centre's, read on line 26 at `[R13+0x114]`).
    fn window(hole: bool) -> Reconciliation {
        let ptx: Vec<PtxAccess> = (0..7)
            .map(|i| p(10 + i, 30, Side::Load, 4, "%r132", -12 + 4 * i64::from(i)))
            .chain([p(1, 26, Side::Load, 4, "%r125", 276)])
            .collect();
        let mut sass = vec![m(26, Side::Load, 4, "R13", 0x114)];
        for row in 0..7i64 {
            for col in 0..7i64 {
                let off = row * 0x58 + col * 4;
                if !(hole && off == 0x114) {
                    sass.push(m(30, Side::Load, 4, "R13", off));
                }
            }
        }
        Reconciliation::from_accesses(&ptx, &sass)
    }

    #[test]
    fn an_unrolled_window_missing_a_tap_is_unmatched() {
        assert!(
            window(true).unmatched_lines.contains(&30),
            "{:?}",
            window(true).unmatched_lines
        );
        // every copy whole: an unrolled loop, counted as written
        assert!(
            window(false).unmatched_lines.is_empty(),
            "{:?}",
            window(false).unmatched_lines
        );
    }

    #[test]
    fn peeled_iteration_fuses_while_the_loop_body_stays_scalar() {
        // scanBlelloch line 25: the first up-sweep step reads [%r4] and [%r4+4] (fused into one
        // LDS.64); later steps read through separate base registers, one for one.
        let ptx = [
            p(1, 25, Side::Load, 4, "%r4", 0),
            p(2, 25, Side::Load, 4, "%r4", 4),
            p(3, 25, Side::Load, 4, "%r102", 0),
            p(4, 25, Side::Load, 4, "%r103", 8),
        ];
        let sass = [
            m(25, Side::Load, 8, "R5", 0),
            m(25, Side::Load, 4, "R7", -4),
            m(25, Side::Load, 4, "R7", 4),
        ];
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(
            [r.role(1), r.role(2), r.role(3), r.role(4)],
            [
                Role::Leader { width: 8 },
                Role::Follower,
                Role::Plain,
                Role::Plain
            ]
        );
        assert!(r.unmatched_lines.is_empty());
    }

    #[test]
    fn fusion_across_source_lines() {
        // scanBlelloch lines 39-41 (`int t = temp[a]; temp[a] = temp[b]; temp[b] += t;` with b = a + 1):
        // ptxas makes one LDS.64 (line 39) and one STS.64 (line 41) of accesses on two lines each.
        let ptx = [
            p(1, 39, Side::Load, 4, "%r4", 0),
            p(2, 40, Side::Load, 4, "%r4", 4),
            p(3, 40, Side::Store, 4, "%r4", 0),
            p(4, 41, Side::Store, 4, "%r4", 4),
            p(9, 39, Side::Load, 4, "%r150", 0),
        ];
        let sass = [
            m(39, Side::Load, 8, "R5", 0),
            m(41, Side::Store, 8, "R5", 0),
            m(39, Side::Load, 4, "R7", -4),
        ];
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(
            [r.role(1), r.role(2)],
            [Role::Leader { width: 8 }, Role::Follower]
        );
        assert_eq!(
            [r.role(3), r.role(4)],
            [Role::Leader { width: 8 }, Role::Follower]
        );
        assert_eq!(r.role(9), Role::Plain);
        assert_eq!(r.fused_groups, 2);
    }

    #[test]
    fn a_fused_pair_repeated_on_one_line_pair_fuses_every_time() {
        // bitonicSortShared1's Comparator inlined once per unrolled stage: each stage loads
        // `[%r8]` (line 19) and `[%r8+4]` (line 20), one `LDS.64` on line 19 in the machine code
        // each time; between them, a stage whose pair is 8 bytes apart stays two LDS. The same
        // register and offsets recur every few instructions: each LDS.64 fuses its own pair.
        let ptx = [
            p(10, 19, Side::Load, 4, "%r8", 0),
            p(11, 20, Side::Load, 4, "%r8", 4),
            p(20, 19, Side::Load, 4, "%r13", 0),
            p(21, 20, Side::Load, 4, "%r13", 8),
            p(30, 19, Side::Load, 4, "%r8", 0),
            p(31, 20, Side::Load, 4, "%r8", 4),
        ];
        let sass = [
            m(19, Side::Load, 8, "R3", 0),
            m(19, Side::Load, 4, "R5", 0),
            m(20, Side::Load, 4, "R5", 8),
            m(19, Side::Load, 8, "R3", 0),
        ];
        let r = Reconciliation::from_accesses(&ptx, &sass);
        assert_eq!(
            [r.role(10), r.role(11), r.role(30), r.role(31)],
            [
                Role::Leader { width: 8 },
                Role::Follower,
                Role::Leader { width: 8 },
                Role::Follower
            ]
        );
        assert_eq!([r.role(20), r.role(21)], [Role::Plain, Role::Plain]);
        assert_eq!(r.fused_groups, 2);
        assert!(r.unmatched_lines.is_empty(), "{:?}", r.unmatched_lines);
    }

    #[test]
    fn two_groups_of_one_shape_do_not_share_one_machine_group() {
        // calibration/run/bench13 fastm `blur` line 35: `tile[x + k]` (one for one, `LDS [R0+4k]`)
        // and `w[k]` (fused into three `LDS.128 [UR4+..]` and one `LDS`) have the same PTX shape;
        // matching `w` against R0's group too counted 15 loads a warp where the H200 ran 17
        let mut ptx = Vec::new();
        let mut sass = Vec::new();
        for k in 0..13u32 {
            let o = 4 * i64::from(k);
            ptx.push(p(100 + 2 * k, 35, Side::Load, 4, "%r4", o));
            ptx.push(p(101 + 2 * k, 35, Side::Load, 4, "_ZZ4blurPKfPfifE1w", o));
            sass.push(m(35, Side::Load, 4, "R0", o));
        }
        for (o, w) in [(0x430, 16), (0x440, 16), (0x450, 16), (0x460, 4)] {
            sass.push(m(35, Side::Load, w, "UR4", o));
        }
        let r = Reconciliation::from_accesses(&ptx, &sass);
        for k in 0..13u32 {
            assert_eq!(r.role(100 + 2 * k), Role::Plain, "tile load {k}");
        }
        let w: Vec<Role> = (0..13u32).map(|k| r.role(101 + 2 * k)).collect();
        let leader = Role::Leader { width: 16 };
        assert_eq!(w.iter().filter(|&&x| x == leader).count(), 3);
        assert_eq!([w[0], w[4], w[8], w[12]], [leader, leader, leader, Role::Plain]);
        assert_eq!(w.iter().filter(|&&x| x == Role::Follower).count(), 9);
        assert_eq!(r.fused_groups, 3);
        assert!(r.unmatched_lines.is_empty(), "{:?}", r.unmatched_lines);
    }

    #[test]
    fn a_negative_offset_keeps_its_base_register() {
        // nvcc writes `[%r31+-32]`: the same base as `[%r31+8]`, not a base `%r31+`
        let a = parse_ptx_shared("ld.shared.f64 \t%fd6, [%r31+-32];").unwrap();
        assert_eq!((a.base.as_str(), a.offset), ("%r31", -32));
        let a = parse_ptx_shared("st.shared.u32 [%r2-4], %r1;").unwrap();
        assert_eq!((a.base.as_str(), a.offset), ("%r2", -4));
    }

    /// calibration/run/bench16 cholesky `update`'s unrolled dot product (`#pragma unroll 8`):
    /// `li[ty][p]` at `%r30` (the symbol at offset 0, plus `ty << 8`, plus a step of 32 then 64)
    /// and `lj[tx][p]` at `%r31` (`tx * 264` past the symbol at 8192, plus 32), eight loads of
    /// 8 bytes each at -32..24; ptxas reads li by four `LDS.128` and lj by eight `LDS.64`
    /// (the H200 ran 48 shared loads a warp; counting li's as `LDS.64` gave 40)
    fn cholesky_update() -> Program {
        let mut loads = String::new();
        for o in [-32, -24, -16, -8, 0, 8, 16, 24] {
            // nvcc's forms: `[%r31+-32]`, `[%r31]`, `[%r31+8]`
            let off = if o == 0 { String::new() } else { format!("+{o}") };
            loads.push_str(&format!(
                ".loc 1 60 0\nld.shared.f64 %fd1, [%r31{off}];\n.loc 1 60 0\nld.shared.f64 %fd2, [%r30{off}];\nfma.rn.f64 %fd3, %fd1, %fd2, %fd3;\n"
            ));
        }
        let ptx = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"c.cu\"\n\
             .visible .entry k(.param .u64 out)\n{{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<40>;\n.reg .f64 %fd<4>;\n.reg .b64 %rd<3>;\n\
             .shared .align 8 .b8 li[8192];\n.shared .align 8 .b8 lj[8448];\n\
             ld.param.u64 %rd1, [out];\nmov.u32 %r16, %tid.x;\nmov.u32 %r18, %tid.y;\n\
             shl.b32 %r21, %r18, 8;\nmov.u32 %r22, li;\nadd.s32 %r5, %r22, %r21;\n\
             mov.u32 %r26, lj;\nmad.lo.s32 %r29, %r16, 264, %r26;\nadd.s32 %r31, %r29, 32;\n\
             mov.u32 %r32, 32;\nmov.f64 %fd3, 0d0000000000000000;\n\
             L:\nadd.s32 %r30, %r5, %r32;\n{loads}\
             add.s32 %r31, %r31, 64;\nadd.s32 %r32, %r32, 64;\nsetp.ne.s32 %p1, %r32, 288;\n@%p1 bra L;\n\
             st.global.f64 [%rd1], %fd3;\nret;\n}}\n"
        );
        warpscope_ptx::compile(&ptx).unwrap()
    }

    #[test]
    fn register_alignment_follows_symbols_shifts_products_and_loops() {
        let prog = cholesky_update();
        let k = prog.kernel("k").unwrap();
        let a = register_alignment(&prog, k);
        assert_eq!(a["%r21"], 256); // tid.y << 8
        assert_eq!(a["%r5"], 256); // li (offset 0) + that
        assert_eq!(a["%r29"], 8); // tid.x * 264 + lj (offset 8192)
        assert_eq!(a["%r31"], 8);
        assert_eq!(a["%r32"], 32); // 32, then + 64
        assert_eq!(a["%r30"], 32);
        assert_eq!(a["%r16"], 1); // %tid.x: anything
    }

    #[test]
    fn of_two_groups_of_one_shape_the_aligned_one_is_the_fused_one() {
        let prog = cholesky_update();
        let sass: Vec<MachineAccess> = [-0x20i64, -0x18, -0x10, -0x8, 0, 0x8, 0x10, 0x18]
            .iter()
            .map(|&o| m(60, Side::Load, 8, "R24", o))
            .chain(
                [-0x20i64, -0x10, 0, 0x10]
                    .iter()
                    .map(|&o| m(60, Side::Load, 16, "R17+UR4", o)),
            )
            .collect();
        let r = Reconciliation::build(&prog, "k", &sass);
        let ptx = ptx_shared_accesses(&prog, "k");
        let role = |base: &str, off: i64| {
            let a = ptx.iter().find(|a| a.base == base && a.offset == off).unwrap();
            r.role(a.pc)
        };
        for o in [-32, -24, -16, -8, 0, 8, 16, 24] {
            assert_eq!(role("%r31", o), Role::Plain, "lj at {o}");
            let want = if o % 16 == 0 {
                Role::Leader { width: 16 }
            } else {
                Role::Follower
            };
            assert_eq!(role("%r30", o), want, "li at {o}");
        }
        assert_eq!(r.fused_groups, 4);
        assert!(r.unmatched_lines.is_empty(), "{:?}", r.unmatched_lines);
    }

    #[test]
    fn a_shared_load_sunk_below_an_early_exit_unmatches_its_line() {
        // line 5: `int t = w ? tot[w - 1] : 0;` then line 6: `if (n == 0) return;` the PTX loads
        // in every warp with w > 0, ptxas sinks the load below the return (msquares' `emit`)
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"k.cu\"\n\
            .visible .entry k(.param .u64 p)\n{\n.shared .align 4 .b8 tot[128];\n\
            .reg .b32 %r<8>;\n.reg .b64 %rd<3>;\n.reg .pred %p<3>;\n\
            .loc 1 4 0\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 5;\n\
            ld.global.u32 %r3, [%rd1];\nmov.u32 %r4, 0;\n\
            .loc 1 5 0\nsetp.eq.s32 %p1, %r2, 0;\n@%p1 bra $L__BB0_2;\nmov.u32 %r5, tot;\n\
            ld.shared.u32 %r4, [%r5+-4];\n\
            $L__BB0_2:\n\
            .loc 1 6 0\nsetp.eq.s32 %p2, %r3, 0;\n@%p2 bra $L__BB0_4;\n\
            .loc 1 7 0\nst.global.u32 [%rd1], %r4;\n\
            $L__BB0_4:\nret;\n}\n";
        let program = warpscope_ptx::compile(ptx).unwrap();
        let sass = |sunk: bool| {
            let (before, after) = if sunk {
                ("", "/*0050*/ @P1 LDS R4, [R5+-0x4] ;\n")
            } else {
                ("/*0020*/ @P1 LDS R4, [R5+-0x4] ;\n", "")
            };
            let text = format!(
                ".section\t.text.k,\"ax\",@progbits\n\
                 //## File \"k.cu\", line 4\n\
                 /*0000*/ LDG.E R0, desc[UR4][R2.64] ;\n\
                 //## File \"k.cu\", line 5\n\
                 /*0010*/ ISETP.NE.AND P1, PT, R6, RZ, PT ;\n\
                 {before}\
                 //## File \"k.cu\", line 6\n\
                 /*0030*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n\
                 /*0040*/ @!P0 EXIT ;\n\
                 //## File \"k.cu\", line 5\n\
                 {after}\
                 //## File \"k.cu\", line 7\n\
                 /*0060*/ STG.E desc[UR4][R2.64], R4 ;\n\
                 /*0070*/ EXIT ;\n"
            );
            warpscope_toolchain::sass::parse_disassembly(&text)
                .unwrap()
                .remove(0)
        };
        let none = HashMap::new();
        assert_eq!(
            loads_moved_below_exits(&program, "k", &sass(true), &none),
            BTreeSet::from([5])
        );
        // the load kept above the exit test: the line matches
        assert!(loads_moved_below_exits(&program, "k", &sass(false), &none).is_empty());
    }

    #[test]
    fn exit_tests_ptxas_copies_when_it_unrolls_a_loop_leave_its_line_matched() {
        // tests/data/unrolled_tail.cu: the kernel's last loop, `out[i] = tile[i]` for i from
        // threadIdx.x below n in steps of 256; the PTX returns for no iterations, runs the
        // remainder, returns for fewer than four left, then loops by 4; ptxas adds unrolled copies
        // and a third `@!P EXIT` of the loop's line before the last four loads (calibration/run/
        // cccl tsort's reduce-by-key agent), which run as often as the PTX's
        let program = warpscope_ptx::compile(include_str!("../tests/data/unrolled_tail.ptx")).unwrap();
        let sass =
            warpscope_toolchain::sass::parse_disassembly(include_str!("../tests/data/unrolled_tail.sass"))
                .unwrap()
                .remove(0);
        let k = "_Z8copyTailPKiPii";
        assert_eq!(sass.name, k);
        // the shape: more guarded exits in the machine code than the PTX's two returning tests
        let exits = sass
            .branches
            .iter()
            .filter(|b| b.base() == "EXIT" && b.predicate.is_some())
            .count();
        assert_eq!(exits, 3);
        assert!(loads_moved_below_exits(&program, k, &sass, &HashMap::new()).is_empty());
        // and through the reconciliation: every shared line matched
        let r =
            Reconciliation::build(&program, k, &machine_accesses(&sass)).with_sunk_loads(&program, k, &sass);
        assert!(r.unmatched_lines.is_empty(), "{:?}", r.unmatched_lines);
    }
}
