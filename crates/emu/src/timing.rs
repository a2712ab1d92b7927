//! An opt-in breakdown of each launch's time (`WARPSCOPE_TIMING=1`): where a launch's wall time
//! and its host CPU time went, printed to stderr when the launch ends. Off, it costs a branch per
//! block. Timing only: nothing it measures reaches a counter or an export.
//!
//! Per launch: the wall seconds of its phases (preparing the launch, the observer before and
//! after, running the blocks, running them again in block order after a race, the memory's
//! bookkeeping after), the blocks' own seconds summed over the host threads (`exec::run_block`,
//! and within it the determinism shadow's check and publication at each block's end), the
//! folding of the blocks' sinks into their part on the threads that ran them (a launch folded in
//! parts, `crate::parts`), the in-order merge of the blocks' sinks or of the parts (one thread at
//! a time), the threads' waits for the window of
//! unmerged blocks to move on, and the process's user and system CPU seconds, minor page faults
//! and context switches over the launch (`getrusage`).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Whether `WARPSCOPE_TIMING` asks for the breakdown (set and not `0`).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("WARPSCOPE_TIMING").is_some_and(|v| !v.is_empty() && v != "0"))
}

#[derive(Clone, Copy, Default)]
struct Usage {
    user: f64,
    sys: f64,
    minflt: i64,
    vcsw: i64,
    ivcsw: i64,
}

fn usage() -> Usage {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` writes the struct it is given.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above; RUSAGE_SELF is valid.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } == 0 {
            let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return Usage {
                user: s(ru.ru_utime),
                sys: s(ru.ru_stime),
                minflt: ru.ru_minflt as i64,
                vcsw: ru.ru_nvcsw as i64,
                ivcsw: ru.ru_nivcsw as i64,
            };
        }
    }
    Usage::default()
}

/// Phases of a launch, in the order they run.
#[derive(Clone, Copy)]
pub(crate) enum Phase {
    Prepare,
    Before,
    Blocks,
    Rerun,
    After,
    Finish,
}

const PHASES: [&str; 6] = [
    "prepare",
    "observer before",
    "blocks",
    "rerun in order",
    "observer after",
    "memory bookkeeping",
];

/// One launch's breakdown, shared by its host threads.
pub(crate) struct Launch {
    start: Instant,
    usage: Usage,
    mark: std::sync::Mutex<(Instant, usize)>,
    phase_ns: [AtomicU64; 6],
    /// the blocks' own times, a slot per host thread ([`Launch::block`])
    per_thread: Box<[BlockSlot]>,
    /// the in-order merge of results (`add`; with parts, their `combine`)
    pub(crate) merge_ns: AtomicU64,
    /// the blocks' results folded into their part's accumulator on the thread that ran them
    /// (`add` of a launch folded in parts, `crate::parts`)
    pub(crate) fold_ns: AtomicU64,
    /// threads waiting for the window to move on
    pub(crate) wait_ns: AtomicU64,
}

/// One host thread's blocks: `exec::run_block` (and a cluster's run), the shadow's `begin` and
/// `finish` at each block's ends, and the blocks counted. On cache lines of its own, so that the
/// threads adding to it per block do not take one line from each other (with 16 threads and
/// blocks of a few microseconds, shared counters moved between the cores several times a block).
#[repr(align(128))]
#[derive(Default)]
struct BlockSlot {
    block_ns: AtomicU64,
    shadow_ns: AtomicU64,
    blocks: AtomicU64,
}

/// Nanoseconds since `t`.
pub(crate) fn since(t: Instant) -> u64 {
    t.elapsed().as_nanos() as u64
}

impl Launch {
    /// The breakdown of a launch starting now, when asked for.
    pub(crate) fn start() -> Option<Launch> {
        enabled().then(|| {
            let now = Instant::now();
            Launch {
                start: now,
                usage: usage(),
                mark: std::sync::Mutex::new((now, Phase::Prepare as usize)),
                phase_ns: Default::default(),
                per_thread: (0..rayon::current_num_threads() + 1)
                    .map(|_| BlockSlot::default())
                    .collect(),
                merge_ns: AtomicU64::new(0),
                fold_ns: AtomicU64::new(0),
                wait_ns: AtomicU64::new(0),
            }
        })
    }

    /// A block ran on this thread: `total_ns` in all, of which `shadow_ns` in the shadow.
    pub(crate) fn block(&self, total_ns: u64, shadow_ns: u64) {
        let last = self.per_thread.len() - 1;
        let slot = &self.per_thread[rayon::current_thread_index().map_or(last, |i| i.min(last))];
        slot.block_ns.fetch_add(total_ns, Relaxed);
        slot.shadow_ns.fetch_add(shadow_ns, Relaxed);
        slot.blocks.fetch_add(1, Relaxed);
    }

    /// The shadow's work outside a block on this thread (a part's publication at its end):
    /// counted in the blocks' and the shadow's seconds.
    pub(crate) fn shadow(&self, ns: u64) {
        let last = self.per_thread.len() - 1;
        let slot = &self.per_thread[rayon::current_thread_index().map_or(last, |i| i.min(last))];
        slot.block_ns.fetch_add(ns, Relaxed);
        slot.shadow_ns.fetch_add(ns, Relaxed);
    }

    fn blocks_sum(&self, f: impl Fn(&BlockSlot) -> &AtomicU64) -> u64 {
        self.per_thread.iter().map(|t| f(t).load(Relaxed)).sum()
    }

    /// The phase before ends, `p` begins.
    pub(crate) fn phase(&self, p: Phase) {
        let mut m = self
            .mark
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.phase_ns[m.1].fetch_add(since(m.0), Relaxed);
        *m = (Instant::now(), p as usize);
    }

    /// Prints the breakdown (the last phase ends now).
    pub(crate) fn report(&self, kernel: &str, grid: [u32; 3], block: [u32; 3], threads: usize) {
        self.phase(Phase::Prepare);
        let wall = self.start.elapsed().as_secs_f64();
        let u = usage();
        let s = |a: &AtomicU64| a.load(Relaxed) as f64 * 1e-9;
        let phases: Vec<String> = PHASES
            .iter()
            .zip(&self.phase_ns)
            .filter(|(_, n)| n.load(Relaxed) > 0)
            .map(|(name, n)| format!("{name} {:.3}", s(n)))
            .collect();
        eprintln!(
            "warpscope timing: {kernel}<<<({},{},{}),({},{},{})>>> {} blocks, {threads} threads: wall {wall:.3} s \
             [{}]; thread seconds: blocks {:.3} (shadow {:.3}), fold {:.3}, merge {:.3}, window waits {:.3}; \
             process: user {:.3} s, sys {:.3} s, {} minor faults, {} voluntary and {} involuntary switches",
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            self.blocks_sum(|t| &t.blocks),
            phases.join(", "),
            self.blocks_sum(|t| &t.block_ns) as f64 * 1e-9,
            self.blocks_sum(|t| &t.shadow_ns) as f64 * 1e-9,
            s(&self.fold_ns),
            s(&self.merge_ns),
            s(&self.wait_ns),
            u.user - self.usage.user,
            u.sys - self.usage.sys,
            u.minflt - self.usage.minflt,
            u.vcsw - self.usage.vcsw,
            u.ivcsw - self.usage.ivcsw,
        );
    }
}
