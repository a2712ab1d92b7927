//! A thread's plain write of a global cell that the same thread's later strong write (an atomic,
//! a strong store) hid: the lock word a thread initialises with a plain store and then takes and
//! gives back itself by atomics.
//!
//! In the schedule emulated another thread's `atomicCAS` on that word reads what the writer's
//! release gave back and is ordered after the initialisation through the lock word itself; in
//! another schedule that `atomicCAS` comes before the writer's own, and then only what orders it
//! otherwise (a barrier between, a release and acquire through another location) orders it after
//! the plain store. So the hidden write is checked against other threads' atomic and strong
//! accesses of the cell, by the order they had before the access's own acquisition (see
//! [`super::GlobalRaceSink::access`]): a barrier between is needed, and with nothing between
//! them they race. Plain accesses are not checked against it: one ordered after the later write
//! by a release and an acquire is ordered after the earlier one too in every schedule (the
//! acquire waited for a value written after both), and one that is not races with the later
//! write, which the cell checks anyway.
//!
//! Kept beside the cells, keyed as [`super::reads`] keys its lists (the word's address, or the
//! byte's once the word is split): a cell only says that it has one ([`super::GCell::hidden`]),
//! so the cell (and the bytes per touched word) stay as they were.
//!
//! How long it is kept: until a plain write of the cell, by any thread. Other threads' atomic
//! and strong writes leave it: the first of them may be ordered after it (a lane after a
//! `__syncwarp()`, a thread that acquired from the writer) while a later one is not, and
//! two strong writes never race with each other, so the cell's last write alone would not
//! show that later one's race. A plain write drops it: it is checked against the cell's last
//! write, which is the hidden write's own thread's strong write (then it races with it unless
//! ordered after both) or another thread's atomic or strong write (checked against the hidden
//! write when it came); every later access is either ordered after the plain write or races
//! with it, which the cell shows. Barriers do not drop it: the checks say which barriers
//! between are needed. Bound: at most one
//! entry per cell (a touched word, or a byte of a split word), [`ENTRY_BYTES`] each, counted in
//! the launch's shadow budget: a hidden write that finds no room is not kept.

use rustc_hash::FxHashMap;

use super::GAcc;

/// Bytes one kept hidden write takes (its access, its key, a share of the map's slot).
const ENTRY_BYTES: u64 = std::mem::size_of::<GAcc>() as u64 + 16;

/// The hidden writes of the cells that have one.
#[derive(Debug, Default)]
pub(super) struct Hidden {
    writes: FxHashMap<u64, GAcc>,
}

impl Hidden {
    /// Bytes held.
    pub(super) fn bytes(&self) -> u64 {
        self.writes.len() as u64 * ENTRY_BYTES
    }

    pub(super) fn clear(&mut self) {
        self.writes.clear();
    }

    pub(super) fn get(&self, key: u64) -> Option<GAcc> {
        self.writes.get(&key).copied()
    }

    /// Keeps `w` as the cell's hidden write (`room`: the budget allows another entry); whether
    /// the cell has one now.
    pub(super) fn set(&mut self, key: u64, w: GAcc, room: bool) -> bool {
        if let Some(e) = self.writes.get_mut(&key) {
            *e = w;
            return true;
        }
        if room {
            self.writes.insert(key, w);
        }
        room
    }

    pub(super) fn remove(&mut self, key: u64) {
        self.writes.remove(&key);
    }

    /// The word at `word_addr` is now tracked byte by byte: each byte keeps the word's entry.
    pub(super) fn split(&mut self, word_addr: u64) {
        if let Some(w) = self.get(word_addr) {
            for i in 1..4 {
                self.writes.insert(word_addr + i, w);
            }
        }
    }
}
