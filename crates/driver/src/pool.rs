//! A launch's emptied per-block sinks, kept for later blocks: one shelf per host thread, each on
//! its own cache lines, so that the threads taking and giving back a sink per block do not
//! contend for one lock (with 16 threads and blocks of a few microseconds, one shared pool's lock
//! moved between the cores several times per block).

use std::sync::{Mutex, MutexGuard, PoisonError};

/// One thread's shelf, alone on its cache lines.
#[repr(align(128))]
struct Shelf<T>(Mutex<Vec<T>>);

/// Sinks to reuse, by host thread.
pub(crate) struct Pool<T> {
    shelves: Box<[Shelf<T>]>,
}

impl<T> Pool<T> {
    /// A pool with a shelf per thread of the current rayon pool and one for other threads.
    pub(crate) fn new() -> Pool<T> {
        Pool {
            shelves: (0..rayon::current_num_threads() + 1)
                .map(|_| Shelf(Mutex::new(Vec::new())))
                .collect(),
        }
    }

    fn mine(&self) -> usize {
        let last = self.shelves.len() - 1;
        rayon::current_thread_index().map_or(last, |i| i.min(last))
    }

    fn lock(&self, i: usize) -> MutexGuard<'_, Vec<T>> {
        self.shelves[i].0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A sink from this thread's shelf, or when it is empty from another's (where sinks are
    /// given back on another thread than the one that takes them).
    pub(crate) fn pop(&self) -> Option<T> {
        let mine = self.mine();
        if let Some(s) = self.lock(mine).pop() {
            return Some(s);
        }
        (0..self.shelves.len())
            .filter(|&i| i != mine)
            .find_map(|i| self.lock(i).pop())
    }

    /// Gives an emptied sink back, to this thread's shelf.
    pub(crate) fn push(&self, sink: T) {
        self.lock(self.mine()).push(sink);
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;

    #[test]
    fn a_sink_given_back_on_one_thread_is_taken_on_another() {
        let threads = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let pool = threads.install(Pool::<u32>::new);
        threads.install(|| rayon::join(|| pool.push(7), || {}));
        // whichever thread gave it back, every thread finds it, and only once
        let got: Vec<Option<u32>> = threads.install(|| {
            let a = rayon::join(|| pool.pop(), || None::<u32>);
            vec![a.0, a.1, pool.pop()]
        });
        assert_eq!(got.iter().flatten().copied().collect::<Vec<_>>(), vec![7]);
        // a thread outside the pool has its own shelf
        pool.push(8);
        assert_eq!(threads.install(|| pool.pop()), Some(8));
        assert_eq!(pool.pop(), None);
    }
}
