//! Races on distributed shared memory: the blocks of a thread-block cluster read and write each
//! other's shared memory (`mapa`, `.shared::cluster` addresses, cooperative groups'
//! `cluster.map_shared_rank`), and a block's shared memory lives only while the block does.
//!
//! The blocks of one cluster run together on one emulator thread, in turns; their sinks share one
//! [`ClusterState`], which sees every shared access of the cluster in the order the emulator made
//! them: each block's own (`Sink::mem`) and the other blocks' (`Sink::remote_shared`). The order
//! the PTX memory model gives them is kept as vector clocks, one per thread of the cluster:
//!
//! * a block barrier (`bar.sync`, `__syncthreads()`) orders the arriving threads of its block, and
//!   `__syncwarp()` the lanes it names; a synchronising warp collective (`shfl.sync`, `vote.sync`,
//!   `match.sync`, `redux.sync`) the lanes that execute it ([`crate::warp_sync`]);
//! * the cluster barrier: `barrier.cluster.arrive` (release by default; `.relaxed` orders nothing)
//!   releases what the thread did before it, `barrier.cluster.wait` (acquire) acquires every
//!   arrival of the phase it waits for (`cluster.sync()` is both);
//! * an mbarrier: an arrival (local or remote, `.shared::cluster`) releases, a wait that sees the
//!   phase complete acquires every arrival of that phase. Arrivals and waits are taken at cluster
//!   scope whatever their `.scope` (CUTLASS's cluster barriers wait at the default `.cta` scope);
//! * release/acquire through memory, shared or global (a flag in global memory orders the
//!   blocks' distributed shared memory accesses as one in shared memory does): a fence at
//!   `.cluster`, `.gpu` or `.sys` scope (or a release operation: `st.release`,
//!   `atom.release`/`acq_rel`) makes the thread's later writes carry what came before; a read that
//!   sees such a write acquires it when it is an acquire operation (`ld.acquire`,
//!   `atom.acquire`/`acq_rel`, an atomic without `.relaxed`), or at the thread's next such fence.
//!   `.cta`-scoped fences and operations do not order blocks. For global memory the cluster keeps
//!   the words whose last write carries a release (at most `MAX_GLOBAL_RELEASES`; an atomic
//!   continues the release it overwrites, a plain write ends it), and only in kernels with a fence
//!   or release operation.
//!
//! The shadow keeps per shared byte the last write and every read since it that no later kept
//! read follows (two in the cell, more beside it, up to `MAX_MORE_READS` in all).
//!
//! Two accesses of threads of different blocks to one shared byte, at least one a write, not
//! ordered so and not both strong at cluster scope (atomics, `.relaxed`/`.acquire`/`.release`
//! operations, `volatile`), are a race ([`FindingKind::Race`], "distributed shared memory"). Pairs of
//! one block are left to [`crate::hazards`], which sees them already.
//!
//! A block's shared memory ends with the block: an access of another block that is not ordered
//! before the owner's exit (by a cluster barrier both pass after it, typically `cluster.sync()` at
//! the end of the kernel) is [`FindingKind::ExitBeforeRemoteAccess`].
//!
//! * a tensor copy (`cp.async.bulk.tensor`, `.multicast::cluster` included) writes each block it
//!   reaches ([`warpscope_emu::Sink::cluster_copy`]): a write of the issuing thread at its clock
//!   when it issued, released to the waiters of the phase of that block's mbarrier its
//!   `complete_tx` counts in (as an arrival). So a read of another block's bytes before its wait,
//!   or an owner's write the copy may overwrite, is a race.
//!
//! Not tracked: clusters of more than [`MAX_CLUSTER_THREADS`] threads
//! (the clocks would need more than 64 MiB) are not checked (the note says so).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::hazards::{Example, Finding, FindingKind, Loc, Severity};

/// The most threads a checked cluster has (its vector clocks take threads squared x 4 bytes).
pub const MAX_CLUSTER_THREADS: u32 = 4096;

/// The most shared bytes the cluster's shadow tracks (about 60 bytes each).
const MAX_CELLS: usize = 4 << 20;

/// The most reads kept beyond two per shared byte (about 24 bytes each).
const MAX_MORE_READS: usize = 4 << 20;

/// The most global words whose last write carries a release the cluster keeps (16 bytes each).
const MAX_GLOBAL_RELEASES: usize = 1 << 20;

const NONE: u32 = u32::MAX;

/// What one instruction does for ordering between the blocks of a cluster.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PcOp {
    /// A fence at cluster scope or wider.
    fence: bool,
    /// `barrier.cluster.wait`.
    cwait: bool,
    /// `barrier.cluster.arrive.relaxed`.
    crelaxed: bool,
    /// `barrier.cluster.arrive` (any form).
    carrive: bool,
    /// An acquire operation (or an atomic without `.relaxed`) at cluster scope or wider.
    acquire: bool,
    /// A release operation at cluster scope or wider.
    release: bool,
    /// A strong access at cluster scope or wider.
    strong: bool,
    /// A synchronising warp collective (`shfl.sync`, `vote.sync`, ...: see
    /// [`crate::warp_sync`]).
    warp: bool,
}

fn classify(text: &str) -> PcOp {
    let (head, mods) = crate::ptx_text::opcode(text);
    let has = |m: &str| mods.contains(&m);
    // scopes that hold two blocks of a cluster (an atom's default scope is .gpu)
    let wide = !has("cta");
    let mut s = PcOp {
        warp: crate::warp_sync::is_warp_collective(text),
        ..PcOp::default()
    };
    match head {
        "membar" => s.fence = wide,
        "fence" => s.fence = wide && !has("proxy") && !has("mbarrier_init"),
        "barrier" if has("cluster") => {
            s.cwait = has("wait");
            s.carrive = has("arrive");
            s.crelaxed = has("arrive") && has("relaxed");
        }
        "ld" | "ldu" => {
            s.strong = ((has("acquire") || has("relaxed")) && wide) || has("volatile");
            s.acquire = has("acquire") && wide;
        }
        "st" => {
            s.strong = ((has("release") || has("relaxed")) && wide) || has("volatile");
            s.release = has("release") && wide;
        }
        "atom" | "red" => {
            s.strong = wide;
            s.acquire = wide && head == "atom" && !has("relaxed") && !has("release");
            s.release = wide && (has("release") || has("acq_rel"));
        }
        _ => {}
    }
    s
}

/// The ordering role of each instruction of a kernel, by pc.
#[derive(Clone, Debug, Default)]
pub struct ClusterOps {
    base: u32,
    ops: Vec<PcOp>,
    /// Some instruction releases at cluster scope or wider (a fence or a release operation): then
    /// global accesses are followed for the releases their writes carry.
    any_release: bool,
}

impl ClusterOps {
    /// The roles of the instructions `start..end` of `program` (one kernel's).
    pub fn of_range(program: &warpscope_ptx::Program, start: u32, end: u32) -> ClusterOps {
        let end = (end as usize).min(program.info.len());
        let start = (start as usize).min(end);
        let ops: Vec<PcOp> = program.info[start..end]
            .iter()
            .map(|i| classify(&i.text))
            .collect();
        let any_release = ops.iter().any(|o| o.fence || o.release);
        ClusterOps {
            base: start as u32,
            ops,
            any_release,
        }
    }

    fn at(&self, pc: u32) -> PcOp {
        pc.checked_sub(self.base)
            .and_then(|i| self.ops.get(i as usize))
            .copied()
            .unwrap_or_default()
    }
}

/// The block ids and rank of a launch's clusters.
#[derive(Clone, Copy, Debug)]
pub struct ClusterShape {
    /// The grid, in blocks.
    pub grid: [u32; 3],
    /// The cluster, in blocks.
    pub cluster: [u32; 3],
    /// Threads per block.
    pub threads: u32,
}

impl ClusterShape {
    fn cta(&self, b: u32) -> [u32; 3] {
        let g = self.grid;
        [b % g[0], (b / g[0]) % g[1], b / (g[0] * g[1])]
    }

    /// Block `b`'s cluster (linear index) and rank in it.
    pub fn place(&self, b: u32) -> (u32, u32) {
        let c = self.cta(b);
        let [x, y, z] = self.cluster;
        let (nx, ny) = (self.grid[0] / x, self.grid[1] / y);
        let idx = c[0] / x + (c[1] / y) * nx + (c[2] / z) * nx * ny;
        let rank = c[0] % x + (c[1] % y) * x + (c[2] % z) * x * y;
        (idx, rank)
    }

    /// Blocks per cluster.
    pub fn size(&self) -> u32 {
        self.cluster.iter().product()
    }

    /// The linear ids of cluster `idx`'s blocks, by rank.
    fn blocks(&self, idx: u32) -> Vec<u32> {
        let [x, y, z] = self.cluster;
        let g = self.grid;
        let (nx, ny) = (g[0] / x, g[1] / y);
        let k = [idx % nx, (idx / nx) % ny, idx / (nx * ny)];
        let mut v = Vec::new();
        for cz in 0..z {
            for cy in 0..y {
                for cx in 0..x {
                    v.push(k[0] * x + cx + (k[1] * y + cy) * g[0] + (k[2] * z + cz) * g[0] * g[1]);
                }
            }
        }
        v
    }
}

/// One access as the shadow keeps it: cluster thread `t` (`NONE`: empty) at its clock `epoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Acc {
    t: u32,
    epoch: u32,
    pc: u32,
    /// 1 read, 2 write, 3 atomic.
    kind: u8,
    strong: bool,
    /// The release the write carries (index + 1 in `snaps`), 0 none.
    snap: u32,
}

impl Acc {
    const EMPTY: Acc = Acc {
        t: NONE,
        epoch: 0,
        pc: 0,
        kind: 0,
        strong: false,
        snap: 0,
    };
    fn is_some(&self) -> bool {
        self.t != NONE
    }
}

#[derive(Clone, Copy, Debug)]
struct Cell {
    w: Acc,
    r1: Acc,
    r2: Acc,
    /// More reads since the write are kept in [`ClusterState::more`].
    more: bool,
}

/// An mbarrier's arrivals: those of its current phase, and of the last completed phase of each
/// parity.
#[derive(Clone, Debug, Default)]
struct Mbar {
    next: u8,
    current: Vec<u32>,
    done: [Vec<u32>; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum CKey {
    Race {
        first_pc: u32,
        second_pc: u32,
        first: u8,
        second: u8,
    },
    Exit {
        pc: u32,
        kind: u8,
    },
}

#[derive(Clone, Debug)]
struct CAgg {
    count: u64,
    /// (first thread, second thread or the owner's rank, byte: rank and offset).
    example: (u32, u32, u32, u64),
}

/// What one cluster's blocks share: the clocks, the shadow of their shared memories, the findings.
#[derive(Debug)]
pub struct ClusterState {
    shape: ClusterShape,
    blocks: Vec<u32>,
    ops: Arc<ClusterOps>,
    n: usize,
    /// `n` x `n` clocks (thread `t`'s at `t * n`); empty when the cluster is too large.
    clocks: Vec<u32>,
    arrivals: Vec<u32>,
    /// Per cluster barrier phase (from 1): the join of its release arrivals.
    cbar: Vec<Vec<u32>>,
    /// Per thread: the phase it waits for at `barrier.cluster.wait` (0: none), acquired when the
    /// phase completes (the emulator does not run the wait again).
    cwaiting: Vec<u32>,
    mbars: FxHashMap<(u32, u64), Mbar>,
    /// Per thread: the release its writes carry (index + 1 in `snaps`).
    rel: Vec<u32>,
    pending: Vec<Vec<u32>>,
    snaps: Vec<Vec<u32>>,
    cells: FxHashMap<u64, Cell>,
    /// Per cell with `more`: its reads since the last write beyond the two the cell keeps (a
    /// new read drops those it follows), and how many all cells keep.
    more: FxHashMap<u64, Vec<Acc>>,
    more_len: usize,
    /// Global words (address / 4) whose last write carries a release: (writer, release).
    global_rel: FxHashMap<u64, (u32, u32)>,
    /// Per owner rank: each other block's thread's latest access to it (epoch, pc, kind).
    remote: Vec<FxHashMap<u32, (u32, u32, u8)>>,
    exited: Vec<u32>,
    finished: Vec<bool>,
    /// Per rank: threads arrived at a block barrier since its last release.
    bar_wait: Vec<Vec<u32>>,
    found: BTreeMap<CKey, CAgg>,
    full: bool,
    done_blocks: u32,
    /// A block accessed another's shared memory.
    any_remote: bool,
    /// The block barriers released (they may order remote accesses: never redundant then).
    barrier_pcs: std::collections::BTreeSet<u32>,
}

impl ClusterState {
    fn new(shape: ClusterShape, idx: u32, ops: Arc<ClusterOps>) -> ClusterState {
        let size = shape.size();
        let n = (size * shape.threads) as usize;
        let tracked = size * shape.threads <= MAX_CLUSTER_THREADS;
        let mut clocks = Vec::new();
        if tracked {
            clocks = vec![0; n * n];
            for t in 0..n {
                clocks[t * n + t] = 1;
            }
        }
        let r = size as usize;
        ClusterState {
            shape,
            blocks: shape.blocks(idx),
            ops,
            n,
            clocks,
            arrivals: vec![0; if tracked { n } else { 0 }],
            cbar: Vec::new(),
            cwaiting: vec![0; if tracked { n } else { 0 }],
            mbars: FxHashMap::default(),
            rel: vec![0; if tracked { n } else { 0 }],
            pending: vec![Vec::new(); if tracked { n } else { 0 }],
            snaps: Vec::new(),
            cells: FxHashMap::default(),
            more: FxHashMap::default(),
            more_len: 0,
            global_rel: FxHashMap::default(),
            remote: vec![FxHashMap::default(); r],
            exited: vec![0; r],
            finished: vec![false; r],
            bar_wait: vec![Vec::new(); r],
            found: BTreeMap::new(),
            full: false,
            done_blocks: 0,
            any_remote: false,
            barrier_pcs: Default::default(),
        }
    }

    fn tracked(&self) -> bool {
        !self.clocks.is_empty()
    }

    fn gt(&self, rank: u32, tid: u32) -> u32 {
        rank * self.shape.threads + tid
    }

    fn rank_of(&self, t: u32) -> u32 {
        t / self.shape.threads
    }

    fn vc(&self, t: u32) -> &[u32] {
        let n = self.n;
        &self.clocks[t as usize * n..(t as usize + 1) * n]
    }

    fn join_into(&mut self, t: u32, other: &[u32]) {
        let n = self.n;
        for (d, s) in self.clocks[t as usize * n..(t as usize + 1) * n]
            .iter_mut()
            .zip(other)
        {
            *d = (*d).max(*s);
        }
    }

    fn tick(&mut self, t: u32) {
        let n = self.n;
        self.clocks[t as usize * n + t as usize] += 1;
    }

    /// `a` happens before what thread `t` does now.
    fn hb(&self, a: &Acc, t: u32) -> bool {
        a.t == t || self.clocks[t as usize * self.n + a.t as usize] >= a.epoch
    }

    /// Joins the clocks of `threads` and gives every one of them the join (a barrier).
    fn join_all(&mut self, threads: &[u32]) {
        if threads.len() < 2 {
            for &t in threads {
                self.tick(t);
            }
            return;
        }
        let mut j = vec![0u32; self.n];
        for &t in threads {
            for (d, s) in j.iter_mut().zip(self.vc(t)) {
                *d = (*d).max(*s);
            }
        }
        for &t in threads {
            self.join_into(t, &j);
            self.tick(t);
        }
    }

    /// Thread `t` releases: a snapshot of its clock, which its later writes carry.
    fn release(&mut self, t: u32) {
        self.snaps.push(self.vc(t).to_vec());
        self.rel[t as usize] = self.snaps.len() as u32;
        self.tick(t);
    }

    fn acquire(&mut self, t: u32, snap: u32) {
        if let Some(s) = self.snaps.get(snap as usize - 1) {
            let s = s.clone();
            self.join_into(t, &s);
        }
    }

    fn fence(&mut self, t: u32) {
        for s in std::mem::take(&mut self.pending[t as usize]) {
            self.acquire(t, s);
        }
        self.release(t);
    }

    fn record(&mut self, key: CKey, example: (u32, u32, u32, u64), n: u64) {
        self.found
            .entry(key)
            .and_modify(|a| a.count += n)
            .or_insert(CAgg { count: n, example });
    }

    /// Thread `t` accesses `width` bytes at offset `off` of rank `owner`'s shared memory.
    fn access(&mut self, t: u32, pc: u32, kind: u8, owner: u32, off: u64, width: u64) {
        let op = self.ops.at(pc);
        if op.release {
            self.release(t);
        }
        let me = Acc {
            t,
            epoch: self.vc(t)[t as usize],
            pc,
            kind,
            strong: op.strong,
            snap: if kind == 1 { 0 } else { self.rel[t as usize] },
        };
        let my_rank = self.rank_of(t);
        if owner != my_rank {
            self.any_remote = true;
            if self.finished[owner as usize] {
                self.record(CKey::Exit { pc, kind }, (t, owner, owner, off), 1);
            }
            let e = self.remote[owner as usize].entry(t).or_insert((0, pc, kind));
            if me.epoch >= e.0 {
                *e = (me.epoch, pc, kind);
            }
        }
        let mut acquired = Vec::new();
        for a in off..off + width {
            let key = (u64::from(owner) << 32) | a;
            let cell = match self.cells.get(&key) {
                Some(c) => *c,
                None if self.cells.len() >= MAX_CELLS => {
                    self.full = true;
                    continue;
                }
                None => Cell {
                    w: Acc::EMPTY,
                    r1: Acc::EMPTY,
                    r2: Acc::EMPTY,
                    more: false,
                },
            };
            let mut c = cell;
            let check = |s: &mut Self, prev: &Acc| {
                if prev.is_some()
                    && s.rank_of(prev.t) != my_rank
                    && !(prev.strong && me.strong)
                    && !s.hb(prev, t)
                {
                    s.record(
                        CKey::Race {
                            first_pc: prev.pc,
                            second_pc: pc,
                            first: prev.kind,
                            second: kind,
                        },
                        (prev.t, t, owner, a),
                        1,
                    );
                }
            };
            if c.w.kind != 0 && !(kind == 1 && c.w.kind == 1) {
                check(self, &c.w);
            }
            if kind != 1 {
                check(self, &c.r1);
                check(self, &c.r2);
                if c.more {
                    for r in self.more.remove(&key).unwrap_or_default() {
                        check(self, &r);
                        self.more_len -= 1;
                    }
                    c.more = false;
                }
            }
            if kind != 2 && c.w.snap != 0 && c.w.t != t && !acquired.contains(&c.w.snap) {
                acquired.push(c.w.snap);
            }
            if kind == 1 {
                // a read ordered after a kept one replaces it (a write that races with the
                // kept read races with this one too); else it is kept beside them, however many
                if !c.r1.is_some() || self.hb(&c.r1, t) {
                    c.r1 = me;
                } else if !c.r2.is_some() || self.hb(&c.r2, t) {
                    c.r2 = me;
                } else {
                    let mut list = self.more.remove(&key).unwrap_or_default();
                    let before = list.len();
                    list.retain(|r| !self.hb(r, t));
                    self.more_len -= before - list.len();
                    if self.more_len < MAX_MORE_READS {
                        list.push(me);
                        self.more_len += 1;
                    } else {
                        self.full = true;
                    }
                    c.more = !list.is_empty();
                    if c.more {
                        self.more.insert(key, list);
                    }
                }
            } else {
                c.w = me;
                c.r1 = Acc::EMPTY;
                c.r2 = Acc::EMPTY;
            }
            self.cells.insert(key, c);
        }
        for s in acquired {
            if op.acquire {
                self.acquire(t, s);
            } else if self.pending[t as usize].len() < 16 && !self.pending[t as usize].contains(&s) {
                self.pending[t as usize].push(s);
            }
        }
    }

    /// Thread `t` accesses `width` bytes of global memory at `addr`: a write after the thread's
    /// release carries it, a read of such a write acquires it (an acquire operation) or at the
    /// thread's next fence. A plain write without a release ends what the word carried; an
    /// atomic continues it (a release sequence).
    fn global(&mut self, t: u32, pc: u32, kind: u8, addr: u64, width: u64) {
        let op = self.ops.at(pc);
        if op.release {
            self.release(t);
        }
        let mut acquired: [u32; 4] = [0; 4];
        let mut n = 0;
        let last = addr.saturating_add(width.max(1) - 1) >> 2;
        for word in addr >> 2..=last {
            if kind != 2
                && let Some(&(w, snap)) = self.global_rel.get(&word)
                && w != t
                && n < acquired.len()
                && !acquired[..n].contains(&snap)
            {
                acquired[n] = snap;
                n += 1;
            }
            if kind != 1 {
                let r = self.rel[t as usize];
                if r != 0 {
                    if self.global_rel.len() < MAX_GLOBAL_RELEASES || self.global_rel.contains_key(&word) {
                        self.global_rel.insert(word, (t, r));
                    }
                } else if kind == 2 {
                    self.global_rel.remove(&word);
                }
            }
        }
        for &s in &acquired[..n] {
            if op.acquire {
                self.acquire(t, s);
            } else if self.pending[t as usize].len() < 16 && !self.pending[t as usize].contains(&s) {
                self.pending[t as usize].push(s);
            }
        }
    }

    fn lanes(&self, rank: u32, warp: u32, mask: u32) -> Vec<u32> {
        let mut v = Vec::with_capacity(mask.count_ones() as usize);
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let tid = warp * 32 + l;
            if tid < self.shape.threads {
                v.push(self.gt(rank, tid));
            }
        }
        v
    }

    fn mbar(&mut self, key: (u32, u64)) -> &mut Mbar {
        self.mbars.entry(key).or_default()
    }

    fn mbar_complete(&mut self, key: (u32, u64), parity: u8) {
        let m = self.mbar(key);
        if m.next == parity & 1 {
            m.done[usize::from(parity & 1)] = std::mem::take(&mut m.current);
            m.next ^= 1;
        }
    }

    /// Block `rank` has ended: every access of another block to its shared memory must be ordered
    /// before some thread's exit.
    fn block_end(&mut self, rank: u32) {
        self.finished[rank as usize] = true;
        self.done_blocks += 1;
        let mut j = vec![0u32; self.n];
        for tid in 0..self.shape.threads {
            for (d, s) in j.iter_mut().zip(self.vc(self.gt(rank, tid))) {
                *d = (*d).max(*s);
            }
        }
        let late: Vec<(u32, u32, u32, u8)> = self.remote[rank as usize]
            .iter()
            .filter(|(t, (e, _, _))| j[**t as usize] < *e)
            .map(|(t, (e, pc, k))| (*t, *e, *pc, *k))
            .collect();
        for (t, _, pc, kind) in late {
            self.record(CKey::Exit { pc, kind }, (t, rank, rank, 0), 1);
        }
        if self.done_blocks >= self.shape.size() {
            // the cluster is done: keep only the findings
            self.clocks = Vec::new();
            self.cells = FxHashMap::default();
            self.more = FxHashMap::default();
            self.global_rel = FxHashMap::default();
            self.snaps = Vec::new();
            self.cbar = Vec::new();
            self.mbars = FxHashMap::default();
            self.pending = Vec::new();
        }
    }
}

/// One cluster's state, shared by its blocks' sinks.
type SharedState = Arc<Mutex<ClusterState>>;

/// The clusters of one launch: each cluster's shared state, made when its first block's sink is.
#[derive(Debug)]
pub struct ClusterRaces {
    shape: ClusterShape,
    ops: Arc<ClusterOps>,
    /// Clusters with sinks still to make: their state and how many sinks were made.
    live: Mutex<FxHashMap<u32, (SharedState, u32)>>,
    untracked: std::sync::atomic::AtomicBool,
}

impl ClusterRaces {
    /// The checker of a launch in clusters of `shape` (more than one block each).
    pub fn new(shape: ClusterShape, ops: Arc<ClusterOps>) -> Arc<ClusterRaces> {
        Arc::new(ClusterRaces {
            shape,
            ops,
            live: Mutex::new(FxHashMap::default()),
            untracked: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The sink of block `b`.
    pub fn sink(self: &Arc<Self>, b: u32) -> ClusterRaceSink {
        let (idx, rank) = self.shape.place(b);
        let mut live = self
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = live.entry(idx).or_insert_with(|| {
            (
                Arc::new(Mutex::new(ClusterState::new(
                    self.shape,
                    idx,
                    Arc::clone(&self.ops),
                ))),
                0,
            )
        });
        let state = Arc::clone(&entry.0);
        entry.1 += 1;
        if entry.1 >= self.shape.size() {
            live.remove(&idx);
        }
        let tracked = state.lock().is_ok_and(|s| s.tracked());
        if !tracked {
            self.untracked.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        ClusterRaceSink {
            rank,
            tracked,
            ops: Arc::clone(&self.ops),
            state,
        }
    }

    /// A note when a cluster was too large to check.
    pub fn note(&self) -> Option<String> {
        self.untracked.load(std::sync::atomic::Ordering::Relaxed).then(|| {
            format!(
                "distributed shared memory not checked: a cluster of {} threads (at most {MAX_CLUSTER_THREADS} are)",
                self.shape.size() * self.shape.threads
            )
        })
    }
}

/// One block's view of its cluster's checker (see the module notes).
#[derive(Debug)]
pub struct ClusterRaceSink {
    rank: u32,
    tracked: bool,
    ops: Arc<ClusterOps>,
    state: Arc<Mutex<ClusterState>>,
}

impl ClusterRaceSink {
    fn with<R>(&mut self, f: impl FnOnce(&mut ClusterState, u32) -> R) -> Option<R> {
        if !self.tracked {
            return None;
        }
        let mut s = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !s.tracked() {
            return None;
        }
        Some(f(&mut s, self.rank))
    }
}

fn op_kind(op: warpscope_emu::AccessOp) -> u8 {
    use warpscope_emu::AccessOp;
    match op {
        AccessOp::Load | AccessOp::LdMatrix | AccessOp::Wgmma => 1,
        AccessOp::Store | AccessOp::StMatrix | AccessOp::CpAsync => 2,
        AccessOp::Atomic => 3,
    }
}

fn each_lane(mask: u32, mut f: impl FnMut(usize)) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        f(l);
    }
}

impl warpscope_emu::Sink for ClusterRaceSink {
    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        if e.space == warpscope_emu::Space::Global && self.ops.any_release {
            // releases and acquires through global memory order the blocks too
            let kind = op_kind(e.op);
            self.with(|s, rank| {
                each_lane(e.mask, |l| {
                    let t = s.gt(rank, e.warp * 32 + l as u32);
                    s.global(t, e.pc, kind, e.addrs[l], u64::from(e.width));
                })
            });
            return;
        }
        if e.space != warpscope_emu::Space::Shared {
            return;
        }
        let kind = op_kind(e.op);
        self.with(|s, rank| {
            each_lane(e.mask, |l| {
                let t = s.gt(rank, e.warp * 32 + l as u32);
                s.access(t, e.pc, kind, rank, e.addrs[l], u64::from(e.width));
            })
        });
    }

    fn remote_shared(&mut self, e: &warpscope_emu::RemoteEvent<'_>) {
        let kind = op_kind(e.op);
        self.with(|s, rank| {
            each_lane(e.mask, |l| {
                if e.ranks[l] >= s.shape.size() {
                    return;
                }
                let t = s.gt(rank, e.warp * 32 + l as u32);
                s.access(t, e.pc, kind, e.ranks[l], e.offs[l], u64::from(e.width));
            })
        });
    }

    fn barrier(&mut self, e: &warpscope_emu::BarrierEvent) {
        use warpscope_emu::BarrierKind;
        self.with(|s, rank| {
            let lanes = s.lanes(rank, e.warp, e.active);
            match e.kind {
                BarrierKind::Sync | BarrierKind::Arrive => s.bar_wait[rank as usize].extend(lanes),
                BarrierKind::Warp => s.join_all(&lanes),
                BarrierKind::Cluster => {
                    let relaxed = s.ops.at(e.pc).crelaxed;
                    for t in lanes {
                        s.arrivals[t as usize] += 1;
                        if relaxed {
                            continue;
                        }
                        let p = s.arrivals[t as usize] as usize;
                        if s.cbar.len() < p {
                            s.cbar.resize(p, Vec::new());
                        }
                        if s.cbar[p - 1].is_empty() {
                            s.cbar[p - 1] = vec![0; s.n];
                        }
                        let v = s.vc(t).to_vec();
                        for (d, x) in s.cbar[p - 1].iter_mut().zip(v) {
                            *d = (*d).max(x);
                        }
                        s.tick(t);
                    }
                }
            }
        });
    }

    fn barrier_release(&mut self, _block: u32, pc: u32, _generation: u32) {
        self.with(|s, rank| {
            if s.ops.at(pc).carrive {
                // the cluster barrier's phase completed: its waiting threads acquire it
                for tid in 0..s.shape.threads {
                    let t = s.gt(rank, tid);
                    let p = std::mem::take(&mut s.cwaiting[t as usize]) as usize;
                    if p > 0 && p <= s.cbar.len() && !s.cbar[p - 1].is_empty() {
                        let c = s.cbar[p - 1].clone();
                        s.join_into(t, &c);
                    }
                }
                return;
            }
            let w = std::mem::take(&mut s.bar_wait[rank as usize]);
            if !w.is_empty() {
                s.barrier_pcs.insert(pc);
                s.join_all(&w);
            }
        });
    }

    fn inst(&mut self, warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        if !self.tracked {
            return;
        }
        let op = self.ops.at(pc);
        if !(op.fence || op.cwait || op.warp) {
            return;
        }
        self.with(|s, rank| {
            if op.warp {
                // the lanes that execute it are ordered as by __syncwarp()
                let lanes = s.lanes(rank, warp, active);
                s.join_all(&lanes);
            }
            for t in s.lanes(rank, warp, active) {
                if op.fence {
                    s.fence(t);
                }
                if op.cwait {
                    let p = s.arrivals[t as usize] as usize;
                    s.cwaiting[t as usize] = p as u32;
                    if p > 0 && p <= s.cbar.len() && !s.cbar[p - 1].is_empty() {
                        let c = s.cbar[p - 1].clone();
                        s.join_into(t, &c);
                    }
                }
            }
        });
    }

    fn mbarrier(&mut self, e: &warpscope_emu::MbarEvent) {
        use warpscope_emu::MbarWhat;
        self.with(|s, rank| {
            let key = (rank, e.addr);
            match e.what {
                MbarWhat::Init => {
                    s.mbars.insert(key, Mbar::default());
                }
                MbarWhat::Completed { parity } => s.mbar_complete(key, parity),
                MbarWhat::Waited { parity } => {
                    let t = s.gt(rank, e.warp * 32 + e.lane);
                    let d = s.mbar(key).done[usize::from(parity & 1)].clone();
                    if !d.is_empty() {
                        s.join_into(t, &d);
                    }
                }
                MbarWhat::CopyTx { .. } => {}
            }
        });
    }

    fn mbar_arrive(&mut self, warp: u32, _pc: u32, lane: u32, target: u32, addr: u64, completed: Option<u8>) {
        self.with(|s, rank| {
            let t = s.gt(rank, warp * 32 + lane);
            let v = s.vc(t).to_vec();
            let n = s.n;
            let m = s.mbar((target, addr));
            if m.current.is_empty() {
                m.current = vec![0; n];
            }
            for (d, x) in m.current.iter_mut().zip(v) {
                *d = (*d).max(x);
            }
            s.tick(t);
            if let Some(p) = completed {
                s.mbar_complete((target, addr), p);
            }
        });
    }

    fn cluster_copy(&mut self, e: &warpscope_emu::ClusterCopy) {
        self.with(|s, rank| {
            if e.rank >= s.shape.size() {
                return;
            }
            let t = s.gt(rank, e.warp * 32 + e.lane);
            // the copy engine's write, ordered after what the issuing thread did before (its
            // clock now); it carries no release of the thread's
            let rel = std::mem::take(&mut s.rel[t as usize]);
            s.access(t, e.pc, 2, e.rank, e.lo, e.hi - e.lo);
            s.rel[t as usize] = rel;
            // its complete_tx releases it to the waiters of that mbarrier's phase
            let v = s.vc(t).to_vec();
            let n = s.n;
            let m = s.mbar((e.rank, e.mbar));
            if m.current.is_empty() {
                m.current = vec![0; n];
            }
            for (d, x) in m.current.iter_mut().zip(v) {
                *d = (*d).max(x);
            }
            s.tick(t);
            if let Some(p) = e.completed {
                s.mbar_complete((e.rank, e.mbar), p);
            }
        });
    }

    fn warp_exit(&mut self, _warp: u32) {
        self.with(|s, rank| {
            s.exited[rank as usize] += 1;
            if s.exited[rank as usize] >= s.shape.threads.div_ceil(32) {
                s.block_end(rank);
            }
        });
    }
}

/// The distributed shared memory findings of a launch, merged from its blocks' sinks.
#[derive(Debug, Default)]
pub struct ClusterRaceReport {
    /// (cluster's block ids by rank, key, aggregate).
    found: Vec<(Vec<u32>, CKey, CAgg)>,
    threads: u32,
    needed: std::collections::BTreeSet<u32>,
}

impl ClusterRaceReport {
    /// Folds in a finished block: the first of its cluster's blocks brings the cluster's findings.
    pub fn merge(&mut self, sink: ClusterRaceSink) {
        let mut s = sink
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.threads = s.shape.threads;
        let blocks = s.blocks.clone();
        if s.any_remote {
            self.needed.extend(std::mem::take(&mut s.barrier_pcs));
        }
        for (k, a) in std::mem::take(&mut s.found) {
            self.found.push((blocks.clone(), k, a));
        }
    }

    /// Block barriers of clusters whose blocks accessed each other's shared memory: they may order
    /// those accesses (a remote write before an elected thread's arrival), so none is redundant.
    pub fn needed_barriers(&self) -> impl Iterator<Item = (u32, (u32, u32))> + '_ {
        self.needed.iter().map(|&pc| (pc, (pc, pc)))
    }

    /// The findings: `loc` names an instruction, `thread` a (block, thread) pair.
    pub fn findings(&self, loc: &dyn Fn(u32) -> Loc, thread: &dyn Fn(u32, u32) -> String) -> Vec<Finding> {
        let mut merged: BTreeMap<CKey, (u64, &Vec<u32>, &CAgg)> = BTreeMap::new();
        for (blocks, k, a) in &self.found {
            merged
                .entry(*k)
                .and_modify(|m| m.0 += a.count)
                .or_insert((a.count, blocks, a));
        }
        let tn = self.threads.max(1);
        let who = |blocks: &Vec<u32>, t: u32| {
            let b = blocks.get((t / tn) as usize).copied().unwrap_or(0);
            (b, thread(b, t % tn))
        };
        let word = |c: u8| match c {
            1 => "read",
            2 => "write",
            _ => "atomic",
        };
        let mut out = Vec::new();
        for (k, (count, blocks, a)) in merged {
            let (t1, t2, owner, off) = a.example;
            let owner_block = blocks.get(owner as usize).copied().unwrap_or(0);
            let owner_name = thread(owner_block, 0);
            let owner_name = owner_name.split(" thread").next().unwrap_or("").to_string();
            match k {
                CKey::Race {
                    first_pc,
                    second_pc,
                    first,
                    second,
                } => {
                    let (la, lb) = (loc(first_pc), loc(second_pc));
                    let (b2, w2) = who(blocks, t2);
                    let (_, w1) = who(blocks, t1);
                    out.push(Finding {
                        kind: FindingKind::Race,
                        severity: Severity::Error,
                        line: lb.line,
                        lines: [la.line, lb.line].into_iter().flatten().collect(),
                        pcs: vec![first_pc, second_pc],
                        message: format!(
                            "{}-{} race on distributed shared memory (the shared memory of {owner_name}, rank {owner}, offset {off:#x}): {w1} at {} and {w2} at {}; blocks of a cluster are ordered only by the cluster barrier (cluster.sync(), barrier.cluster.arrive.release + wait.acquire), an mbarrier arrival and wait, or release/acquire at cluster scope",
                            word(first).to_uppercase(),
                            word(second).to_uppercase(),
                            la.label,
                            lb.label
                        ),
                        count,
                        example: Example {
                            block: b2,
                            threads: vec![t1 % tn, t2 % tn],
                            address: Some(off),
                        },
                    });
                }
                CKey::Exit { pc, kind } => {
                    let l = loc(pc);
                    let (b1, w1) = who(blocks, t1);
                    out.push(Finding {
                        kind: FindingKind::ExitBeforeRemoteAccess,
                        severity: Severity::Error,
                        line: l.line,
                        lines: l.line.into_iter().collect(),
                        pcs: vec![pc],
                        message: format!(
                            "{w1} {}s the shared memory of {owner_name} (rank {owner}) at {}, which may have exited by then: a block's shared memory ends with the block, and nothing orders this access before its exit (end the kernel with cluster.sync(), or barrier.cluster.arrive + wait, in every block)",
                            word(kind),
                            l.label
                        ),
                        count,
                        example: Example {
                            block: b1,
                            threads: vec![t1 % tn],
                            address: Some(off),
                        },
                    });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_instructions_are_classified_by_their_text() {
        assert!(classify("barrier.cluster.wait.aligned;").cwait);
        assert!(classify("barrier.cluster.arrive.relaxed.aligned;").crelaxed);
        assert!(!classify("barrier.cluster.arrive.aligned;").crelaxed);
        assert!(classify("fence.acq_rel.cluster;").fence);
        assert!(!classify("fence.acq_rel.cta;").fence);
        assert!(!classify("fence.mbarrier_init.release.cluster;").fence);
        let a = classify("ld.acquire.cluster.shared::cluster.u32 %r1, [%r2];");
        assert!(a.acquire && a.strong);
        let r = classify("atom.relaxed.cluster.shared::cluster.add.u32 %r1, [%r2], 1;");
        assert!(r.strong && !r.acquire && !r.release);
        assert!(classify("atom.shared::cluster.add.u32 %r1, [%r2], 1;").acquire);
        assert!(!classify("atom.cta.shared.add.u32 %r1, [%r2], 1;").strong);
    }

    /// A cluster of two 32-thread blocks whose instructions are `texts` (pc = index).
    fn state(texts: &[&str]) -> ClusterState {
        let ops: Vec<PcOp> = texts.iter().map(|t| classify(t)).collect();
        let any_release = ops.iter().any(|o| o.fence || o.release);
        let shape = ClusterShape {
            grid: [2, 1, 1],
            cluster: [2, 1, 1],
            threads: 32,
        };
        ClusterState::new(
            shape,
            0,
            Arc::new(ClusterOps {
                base: 0,
                ops,
                any_release,
            }),
        )
    }

    const FLAG_PROGRAM: [&str; 5] = [
        "st.shared::cluster.u32 [%r1], %r2;",
        "membar.gl;",
        "atom.global.exch.b32 %r3, [%rd1], 1;",
        "ld.relaxed.gpu.global.u32 %r4, [%rd1];",
        "ld.shared.u32 %r5, [%r6];",
    ];

    /// Rank 1's thread 0 writes rank 0's shared word, (fences,) sets a global flag with an
    /// atomic; rank 0's thread 0 reads the flag, fences, reads its word: the races found.
    fn flag_races(writer_fences: bool) -> usize {
        let mut s = state(&FLAG_PROGRAM);
        let (w, r) = (s.gt(1, 0), s.gt(0, 0));
        s.access(w, 0, 2, 0, 0x40, 4);
        if writer_fences {
            s.fence(w);
        }
        s.global(w, 2, 3, 0x1000, 4);
        s.global(r, 3, 1, 0x1000, 4);
        s.fence(r);
        s.access(r, 4, 1, 0, 0x40, 4);
        s.found.len()
    }

    #[test]
    fn a_flag_in_global_memory_orders_distributed_shared_memory() {
        assert_eq!(flag_races(true), 0);
        assert_eq!(flag_races(false), 1);
    }

    #[test]
    fn a_write_racing_with_the_second_of_three_unordered_reads_is_found() {
        // rank 1's threads 0 and 1 read rank 0's byte, then rank 0's thread 0 reads it (three
        // mutually unordered reads: with two kept, the third took the second's place), acquires
        // what rank 1's thread 0 did (as through a flag) and writes the byte: ordered after its
        // own read and rank 1's thread 0's, racing with rank 1's thread 1's
        let mut s = state(&FLAG_PROGRAM);
        let (a, b, c) = (s.gt(1, 0), s.gt(1, 1), s.gt(0, 0));
        s.access(a, 4, 1, 0, 0x10, 1);
        s.access(b, 4, 1, 0, 0x10, 1);
        s.access(c, 4, 1, 0, 0x10, 1);
        // rank 0's thread 0 acquires rank 1's thread 0 (as a flag would), not thread 1
        let snap = s.vc(a).to_vec();
        s.join_into(c, &snap);
        s.access(c, 0, 2, 0, 0x10, 1);
        let firsts: Vec<u32> = s.found.values().map(|agg| agg.example.0).collect();
        // one pair of instructions (read at 4, write at 0), its example rank 1's thread 1
        assert_eq!(firsts, [b], "{:?}", s.found);
        // the same three reads; rank 0's thread 1 acquires rank 1's threads 0 and 1, not rank 0's
        // thread 0 (the read kept beside the cell's two), and writes: racing with that read only
        let mut s = state(&FLAG_PROGRAM);
        let d = s.gt(0, 1);
        for t in [a, b, c] {
            s.access(t, 4, 1, 0, 0x10, 1);
        }
        for t in [a, b] {
            let snap = s.vc(t).to_vec();
            s.join_into(d, &snap);
        }
        s.access(d, 0, 2, 0, 0x10, 1);
        // a pair within one block is left to the shared-memory checker: no finding here
        assert!(s.found.is_empty(), "{:?}", s.found);
        // rank 1's thread 1 writes after acquiring rank 1's thread 0 only: it races with the
        // read of rank 0's thread 0 (kept beside the cell's two) only
        let mut s = state(&FLAG_PROGRAM);
        for t in [a, b, c] {
            s.access(t, 4, 1, 0, 0x10, 1);
        }
        let snap = s.vc(a).to_vec();
        s.join_into(b, &snap);
        s.access(b, 0, 2, 0, 0x10, 1);
        let pairs: Vec<(u32, u32)> = s
            .found
            .values()
            .map(|agg| (agg.example.0, agg.example.1))
            .collect();
        assert_eq!(pairs, [(c, b)], "{:?}", s.found);
    }

    #[test]
    fn blocks_are_placed_by_cluster_and_rank() {
        let s = ClusterShape {
            grid: [4, 2, 1],
            cluster: [2, 1, 1],
            threads: 32,
        };
        assert_eq!(s.place(0), (0, 0));
        assert_eq!(s.place(1), (0, 1));
        assert_eq!(s.place(2), (1, 0));
        assert_eq!(s.place(5), (2, 1));
        assert_eq!(s.blocks(3), vec![6, 7]);
    }
}
