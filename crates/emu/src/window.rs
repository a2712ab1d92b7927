//! The bounded in-order merge shared by a launch's streamed blocks ([`crate::stream_in_order`]) and
//! its parts ([`crate::parts::stream_parts`]): results numbered `0..count` arrive from several
//! workers in any order, and are folded into one accumulator in their order as soon as they are
//! contiguous, while at most a window of them waits.
//!
//! Each result goes into its slot (`index % window`); the worker that stored it then takes the
//! accumulator if nobody holds it and folds what is contiguous from the oldest unmerged result on.
//! A worker that finds the accumulator taken leaves, and the holder looks at the next slot again
//! after letting go, so no stored result is left behind. A worker about to make result `i` waits
//! first while `i` is a whole window ahead of the oldest unmerged one: that one is taken by some
//! worker (results are handed out in order) and gets merged, so the wait ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Instant;

use crate::timing;

/// Results `0..count` folded into `acc` in order through a window of slots.
pub(crate) struct InOrder<'a, T, A> {
    slots: Vec<Mutex<Option<T>>>,
    count: usize,
    /// The accumulator, taken by one worker at a time: the one that merges what is contiguous.
    merger: Mutex<&'a mut A>,
    /// How many results are merged (written by the merger, read by every worker without a lock).
    merged: AtomicUsize,
    /// Workers waiting for the window to move on, and what they wait on.
    waiting: AtomicUsize,
    space_lock: Mutex<()>,
    space: Condvar,
}

impl<'a, T, A> InOrder<'a, T, A> {
    /// A merge of `count` results into `acc`, at most `window` of them (at least one) stored at once.
    pub(crate) fn new(acc: &'a mut A, count: usize, window: usize) -> Self {
        InOrder {
            slots: (0..window.min(count).max(1)).map(|_| Mutex::new(None)).collect(),
            count,
            merger: Mutex::new(acc),
            merged: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            space_lock: Mutex::new(()),
            space: Condvar::new(),
        }
    }

    /// How many results are merged so far (all of them once every worker is done).
    pub(crate) fn merged(&self) -> usize {
        self.merged.load(Ordering::SeqCst)
    }

    /// Waits until result `i` has a free slot: fewer than a window of results are unmerged before
    /// it. Every result below `i` must have been handed to a worker that will store it. The time
    /// waited goes to `timing`'s waits.
    pub(crate) fn wait_for_room(&self, i: usize, timing: Option<&timing::Launch>) {
        if i < self.merged() + self.slots.len() {
            return;
        }
        let t0 = timing.map(|_| Instant::now());
        let mut g = lock(&self.space_lock);
        self.waiting.fetch_add(1, Ordering::SeqCst);
        while i >= self.merged() + self.slots.len() {
            g = self.space.wait(g).unwrap_or_else(PoisonError::into_inner);
        }
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        drop(g);
        if let (Some(t), Some(t0)) = (timing, t0) {
            t.wait_ns.fetch_add(timing::since(t0), Ordering::Relaxed);
        }
    }

    /// Stores result `i` (after [`InOrder::wait_for_room`]) and merges what is contiguous now with
    /// `add`, unless another worker is merging (it looks again after letting go).
    pub(crate) fn put(&self, i: usize, r: T, add: &(dyn Fn(&mut A, T) + Sync)) {
        *lock(&self.slots[i % self.slots.len()]) = Some(r);
        loop {
            let mut acc = match self.merger.try_lock() {
                Ok(g) => g,
                Err(TryLockError::Poisoned(e)) => e.into_inner(),
                Err(TryLockError::WouldBlock) => return,
            };
            let mut n = self.merged();
            let before = n;
            while n < self.count {
                let Some(r) = lock(&self.slots[n % self.slots.len()]).take() else {
                    break;
                };
                add(&mut **acc, r);
                n += 1;
                self.merged.store(n, Ordering::SeqCst);
            }
            drop(acc);
            if n > before && self.waiting.load(Ordering::SeqCst) > 0 {
                let _g = lock(&self.space_lock);
                self.space.notify_all();
            }
            // a result stored while this worker held the accumulator, by a worker that then
            // found it taken, is merged now
            if n >= self.count || lock(&self.slots[n % self.slots.len()]).is_none() {
                return;
            }
        }
    }
}

/// A slot or lock that a panicking worker left is still usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results made out of order by several threads are folded in order, whatever the window.
    #[test]
    fn folds_in_order_from_many_threads() {
        for window in [1, 2, 3, 7, 64] {
            let count = 500;
            let mut seen: Vec<usize> = Vec::new();
            let next = AtomicUsize::new(0);
            {
                let w = InOrder::new(&mut seen, count, window);
                let push = |v: &mut Vec<usize>, i: usize| v.push(i);
                std::thread::scope(|s| {
                    for t in 0..4 {
                        let (w, next, push) = (&w, &next, &push);
                        s.spawn(move || {
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= count {
                                    break;
                                }
                                w.wait_for_room(i, None);
                                // uneven work, so that results arrive out of order
                                if (i + t) % 5 == 0 {
                                    std::thread::yield_now();
                                }
                                w.put(i, i, &push);
                            }
                        });
                    }
                });
                assert_eq!(w.merged(), count);
            }
            assert_eq!(seen, (0..count).collect::<Vec<_>>(), "window {window}");
        }
    }

    /// The window bounds the stored results: a worker ahead by a window waits for the merge.
    #[test]
    fn window_bounds_results_alive() {
        let count = 200;
        let window = 4;
        let alive = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut total = 0usize;
        let next = AtomicUsize::new(0);
        {
            let w = InOrder::new(&mut total, count, window);
            let add = |t: &mut usize, _r: ()| {
                *t += 1;
                alive.fetch_sub(1, Ordering::SeqCst);
            };
            std::thread::scope(|s| {
                for _ in 0..3 {
                    s.spawn(|| {
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= count {
                                break;
                            }
                            w.wait_for_room(i, None);
                            let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            // the oldest result comes late: without the window the others would
                            // all be made meanwhile
                            if i == 0 {
                                std::thread::sleep(std::time::Duration::from_millis(50));
                            }
                            w.put(i, (), &add);
                        }
                    });
                }
            });
        }
        assert_eq!(total, count);
        // results made and not yet merged: at most the window plus the workers between their
        // wait and their store
        assert!(
            most.load(Ordering::SeqCst) <= window + 3,
            "{}",
            most.load(Ordering::SeqCst)
        );
    }
}
