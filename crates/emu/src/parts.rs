//! A launch's blocks folded in parts: each host thread folds the results of a run of consecutive
//! blocks (a part) into an accumulator of its own, on the thread that ran them, and the parts are
//! combined into the launch's accumulator in block order. The serial work per block of the
//! in-order merge ([`crate::run_folded`]) becomes serial work per part, and what each block gives
//! is folded while it is still in the cache of the thread that made it. A sink that can count
//! the part's next block on top of its own ([`crate::Sink::next_block`]) stays open over the
//! part: one sink per part, folded once, rather than one per block.
//!
//! The result is the in-order fold's when the caller's `combine` is associative with its `add`:
//! folding blocks `a..c` one by one equals combining the fold of `a..b` with the fold of `b..c`,
//! for any split (the parts' bounds depend on the number of threads). Sums, per-pc counters and
//! keyed maps are; "the first such" rules are when the later part gives way to the earlier one on
//! a tie.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use crate::{timing, window};

/// Consecutive blocks a part folds at most (fewer in a small launch: every thread gets at least
/// four parts). The blocks that run at the same moment on different threads are then this many
/// apart, so that they touch different host cache lines of the program's arrays and of the
/// determinism shadow's bitmaps.
pub(crate) const PART: usize = 64;

/// Parts a launch holds at once per host thread (folded, not yet combined): the bound on the
/// accumulators alive at once.
const PARTS_PER_THREAD: usize = 4;

/// How the blocks are folded: `init` makes an empty accumulator (one per part), `run` runs the
/// next block of the part and folds what it gives into the part's accumulator (a sink may stay
/// open in it for the part's next block), `close` ends the part's accumulator after its last
/// block (the open sink folded in), `combine` folds the next part's accumulator into the
/// launch's.
pub(crate) struct PartFold<'a, A> {
    pub(crate) init: &'a (dyn Fn() -> A + Sync),
    pub(crate) run: &'a (dyn Fn(&mut A, u32) + Sync),
    pub(crate) close: &'a (dyn Fn(&mut A) + Sync),
    pub(crate) combine: &'a (dyn Fn(&mut A, A) + Sync),
}

/// Consecutive ids a part takes among `ids` on `workers` threads: one under a deadline (so that
/// no block starts after it), otherwise up to [`PART`], at least four parts per worker.
pub(crate) fn part_len(ids: usize, workers: usize, deadline: bool) -> usize {
    if deadline {
        1
    } else {
        PART.min(ids / (workers * 4)).max(1)
    }
}

/// Runs `fold.run` on `ids` (in parallel unless `one_thread`), a part of consecutive ids at a time
/// per worker, none started at or after `deadline` (the first always is): each part's ids in order
/// into a fresh accumulator on the worker, closed after its last id. Combines the parts into `acc`
/// in the order of `ids`, at most [`PARTS_PER_THREAD`] parts per thread alive at once, counting the ids run in
/// `done` a part at a time. With `unit`, each part is one unit of the determinism shadow (begun
/// before its first id, finished after its last): its blocks run one after another in block
/// order on one thread. Returns how many ran: the first K ids.
#[allow(clippy::too_many_arguments)]
pub(crate) fn stream_parts<A: Send>(
    ids: &[u32],
    deadline: Option<Instant>,
    one_thread: bool,
    acc: &mut A,
    fold: &PartFold<'_, A>,
    timing: Option<&timing::Launch>,
    done: Option<&AtomicU64>,
    unit: Option<&crate::mem::Shadow>,
) -> usize {
    let workers = if one_thread {
        1
    } else {
        rayon::current_num_threads().clamp(1, ids.len().max(1))
    };
    let late = |started: bool| started && deadline.is_some_and(|d| Instant::now() >= d);
    let len = part_len(ids.len(), workers, deadline.is_some());
    // folds the part `ids[first..]` (at most `len` ids) on this thread
    let run_part = |first: usize| -> (A, usize) {
        let mut part = (fold.init)();
        let end = (first + len).min(ids.len());
        if let Some(sh) = unit {
            sh.begin();
        }
        for &b in &ids[first..end] {
            (fold.run)(&mut part, b);
        }
        let t0 = timing.map(|_| Instant::now());
        (fold.close)(&mut part);
        let fold_ns = t0.map_or(0, timing::since);
        if let Some(sh) = unit {
            let t0 = timing.map(|_| Instant::now());
            sh.finish();
            if let (Some(t), Some(t0)) = (timing, t0) {
                t.shadow(timing::since(t0));
            }
        }
        if let Some(t) = timing {
            t.fold_ns.fetch_add(fold_ns, Ordering::Relaxed);
        }
        if let Some(d) = done {
            d.fetch_add((end - first) as u64, Ordering::Relaxed);
        }
        (part, end - first)
    };
    let combine = |acc: &mut A, part: A| {
        let t0 = timing.map(|_| Instant::now());
        (fold.combine)(acc, part);
        if let (Some(t), Some(t0)) = (timing, t0) {
            t.merge_ns.fetch_add(timing::since(t0), Ordering::Relaxed);
        }
    };
    if workers == 1 {
        let mut ran = 0;
        while ran < ids.len() && !late(ran > 0) {
            let (part, n) = run_part(ran);
            combine(acc, part);
            ran += n;
        }
        return ran;
    }
    let parts = ids.len().div_ceil(len);
    let next = AtomicUsize::new(0);
    // the launch's accumulator and the ids combined into it
    let mut merger = (acc, 0usize);
    let add = |m: &mut (&mut A, usize), (part, k): (A, usize)| {
        combine(&mut *m.0, part);
        m.1 += k;
    };
    let merge = window::InOrder::new(&mut merger, parts, PARTS_PER_THREAD * workers);
    rayon::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                loop {
                    // checked before taking a part, so that every part taken runs: the ids run
                    // are those of the parts taken, a prefix
                    if late(next.load(Ordering::Relaxed) > 0) {
                        break;
                    }
                    let p = next.fetch_add(1, Ordering::Relaxed);
                    if p >= parts {
                        break;
                    }
                    merge.wait_for_room(p, timing);
                    let done = run_part(p * len);
                    merge.put(p, done, &add);
                }
            });
        }
    });
    drop(merge);
    merger.1
}
