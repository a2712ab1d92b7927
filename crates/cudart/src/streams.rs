//! The happens-before order of a program's device work under `warpscope run --check`, and the
//! check of work that nothing orders (`stream_race` findings).
//!
//! The runtime runs every call to the end before it returns, so the emulation never overlaps two
//! launches; a GPU does, where the streams allow. Each piece of device work (a kernel launch, an
//! asynchronous copy or memset) gets a vector clock over the streams ([`Clock`]): work `a` happens
//! before work `b` when `b`'s clock holds `a`'s tick on `a`'s stream. The CUDA runtime's rules
//! (CUDA Runtime API, "API synchronization behavior" and "Stream synchronization behavior"):
//!
//! - work on one stream runs in issue order;
//! - the legacy default stream (`0` or `cudaStreamLegacy` without `--default-stream per-thread`)
//!   waits for all earlier work of every blocking stream, and every blocking stream's later work
//!   waits for it; streams made with `cudaStreamNonBlocking` do neither;
//! - the per-thread default stream (`cudaStreamPerThread`, or `0` in a program built with
//!   `--default-stream per-thread`) is an ordinary blocking stream;
//! - `cudaEventRecord(e, s)` captures `s`'s work so far; `cudaStreamWaitEvent(s2, e)` orders
//!   `s2`'s later work after it (an event never recorded orders nothing);
//! - the host waits: `cudaDeviceSynchronize` (everything), `cudaStreamSynchronize(s)` and a
//!   successful `cudaStreamQuery(s)` (the stream's work), `cudaEventSynchronize(e)` and a successful
//!   `cudaEventQuery(e)` (what the event captured), a synchronous `cudaMemcpy` other than device to
//!   device (the copy and the default stream's work before it); `cudaFree` is taken as a device
//!   synchronisation. Work issued after the host waited happens after what it waited for.
//!
//! A piece of work stays outstanding, with its footprint, until the host has waited for it; then it
//! is ordered before everything later and dropped. At most [`MAX_OUTSTANDING`] are kept.

use std::collections::{BTreeMap, HashMap};

use warpscope_analysis::footprint::{Ranges, Use};

/// The key of the legacy default stream.
pub const LEGACY: usize = 0;
/// `cudaStreamLegacy`.
pub const STREAM_LEGACY: usize = 1;
/// `cudaStreamPerThread` (and the key of the per-thread default stream).
pub const PER_THREAD: usize = 2;
/// Outstanding work kept with its footprint; beyond, the oldest is dropped unchecked.
pub const MAX_OUTSTANDING: usize = 256;
/// Findings one piece of work reports at most (one per earlier piece it races with).
const MAX_FINDINGS: usize = 8;

thread_local! {
    static PTSZ: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the call being served came through a per-thread default stream entry point (`_ptsz`,
/// what `nvcc --default-stream per-thread` makes a program call): stream `0` is then the calling
/// thread's default stream.
pub fn ptsz() -> bool {
    PTSZ.with(std::cell::Cell::get)
}

/// Marks the calling thread's current call as a per-thread default stream one while it lives.
pub struct PtszCall(bool);

impl PtszCall {
    /// Marks the call (`on`: it came through a `_ptsz` entry point).
    pub fn enter(on: bool) -> PtszCall {
        PtszCall(PTSZ.with(|p| p.replace(on)))
    }
}

impl Drop for PtszCall {
    fn drop(&mut self) {
        let was = self.0;
        PTSZ.with(|p| p.set(was));
    }
}

/// A vector clock: stream key -> the last tick of that stream known to have happened before.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock(BTreeMap<usize, u64>);

impl Clock {
    fn join(&mut self, o: &Clock) {
        for (&k, &t) in &o.0 {
            let e = self.0.entry(k).or_insert(0);
            *e = (*e).max(t);
        }
    }

    fn covers(&self, stream: usize, tick: u64) -> bool {
        self.0.get(&stream).is_some_and(|&t| t >= tick)
    }
}

/// Device work whose footprint is kept while it is outstanding.
#[derive(Clone, Debug)]
pub struct Work {
    /// `launch 3 `produce``, `cudaMemcpyAsync (256 bytes)`.
    pub what: String,
    /// The bytes it used, per use and source line (`None`: unknown or no line).
    pub sets: BTreeMap<(Use, Option<u32>), Ranges>,
    /// Its footprint is incomplete (too many intervals).
    pub partial: bool,
}

#[derive(Clone, Debug)]
struct Outstanding {
    stream: usize,
    tick: u64,
    work: Work,
}

/// Two pieces of work nothing orders that touch one byte, one of them writing it.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamRace {
    /// The earlier piece, its stream's name, its use of the byte and its line.
    pub first: (String, String, Use, Option<u32>),
    /// The later piece (the one just issued), the same.
    pub second: (String, String, Use, Option<u32>),
    /// The first byte both touch.
    pub address: u64,
}

/// The order of the program's device work (see the module notes).
#[derive(Debug, Default)]
pub struct StreamOrder {
    host: Clock,
    streams: HashMap<usize, Clock>,
    ticks: HashMap<usize, u64>,
    /// Whether each stream used so far is blocking (waits on the legacy default stream).
    blocking: HashMap<usize, bool>,
    events: HashMap<usize, Clock>,
    outstanding: Vec<Outstanding>,
    /// Outstanding work dropped unchecked ([`MAX_OUTSTANDING`]).
    pub dropped: u64,
}

/// A stream's name in messages.
pub fn stream_name(key: usize, blocking: bool) -> String {
    match key {
        LEGACY => "the default stream".into(),
        PER_THREAD => "the per-thread default stream".into(),
        h if blocking => format!("stream {h:#x}"),
        h => format!("stream {h:#x} (non-blocking)"),
    }
}

impl StreamOrder {
    /// The key of stream handle `handle`: `ptsz` when the call came through a per-thread default
    /// stream entry point; `flags`: the flags the program created the stream with.
    pub fn key(handle: usize, ptsz: bool) -> usize {
        match handle {
            0 if ptsz => PER_THREAD,
            0 | STREAM_LEGACY => LEGACY,
            h => h,
        }
    }

    /// Notes whether stream `key` is blocking (from its creation flags).
    pub fn set_blocking(&mut self, key: usize, flags: u32) {
        if key != LEGACY && key != PER_THREAD {
            self.blocking.insert(key, flags & 1 == 0);
        }
    }

    fn is_blocking(&self, key: usize) -> bool {
        key == LEGACY || key == PER_THREAD || self.blocking.get(&key).copied().unwrap_or(true)
    }

    /// The name of stream `key`.
    pub fn name(&self, key: usize) -> String {
        stream_name(key, self.is_blocking(key))
    }

    /// What work issued now on `key` is ordered after.
    fn clock_for(&self, key: usize) -> Clock {
        let mut c = self.streams.get(&key).cloned().unwrap_or_default();
        c.join(&self.host);
        if key == LEGACY {
            // the legacy default stream waits for every blocking stream's work
            for (&k, s) in &self.streams {
                if k != LEGACY && self.is_blocking(k) {
                    c.join(s);
                }
            }
        } else if self.is_blocking(key)
            && let Some(l) = self.streams.get(&LEGACY)
        {
            c.join(l);
        }
        c
    }

    /// Issues work on `key` (a launch, a copy); `work` is its footprint when it has one. Returns
    /// the races with outstanding work nothing orders before it, and the work's clock.
    pub fn issue(&mut self, key: usize, work: Option<Work>) -> (Vec<StreamRace>, Clock) {
        let mut c = self.clock_for(key);
        let tick = self.ticks.get(&key).copied().unwrap_or(0) + 1;
        self.ticks.insert(key, tick);
        c.0.insert(key, tick);
        self.streams.insert(key, c.clone());
        let mut races = Vec::new();
        if let Some(w) = work {
            for o in &self.outstanding {
                if races.len() >= MAX_FINDINGS {
                    break;
                }
                if c.covers(o.stream, o.tick) {
                    continue;
                }
                if let Some(r) = first_conflict(&o.work, &w) {
                    races.push(StreamRace {
                        first: (o.work.what.clone(), self.name(o.stream), r.0, r.1),
                        second: (w.what.clone(), self.name(key), r.2, r.3),
                        address: r.4,
                    });
                }
            }
            if !w.sets.is_empty() {
                if self.outstanding.len() >= MAX_OUTSTANDING {
                    self.outstanding.remove(0);
                    self.dropped += 1;
                }
                self.outstanding.push(Outstanding {
                    stream: key,
                    tick,
                    work: w,
                });
            }
        }
        (races, c)
    }

    /// The host waits for `c` (work and everything before it): outstanding work it covers is
    /// ordered before everything later and dropped.
    fn host_waits(&mut self, c: &Clock) {
        self.host.join(c);
        let host = &self.host;
        self.outstanding.retain(|o| !host.covers(o.stream, o.tick));
    }

    /// `cudaDeviceSynchronize` (and `cudaFree`, `cudaDeviceReset`).
    pub fn device_sync(&mut self) {
        let all: Vec<Clock> = self.streams.values().cloned().collect();
        for c in &all {
            self.host_waits(c);
        }
    }

    /// `cudaStreamSynchronize(key)`, a successful `cudaStreamQuery(key)`.
    pub fn stream_sync(&mut self, key: usize) {
        let c = self.clock_for(key);
        self.host_waits(&c);
    }

    /// `cudaEventRecord(event, key)`.
    pub fn record(&mut self, event: usize, key: usize) {
        let c = self.clock_for(key);
        self.events.insert(event, c);
    }

    /// `cudaStreamWaitEvent(key, event)`: the stream's later work waits for what the event
    /// captured.
    pub fn wait_event(&mut self, key: usize, event: usize) {
        if let Some(e) = self.events.get(&event).cloned() {
            self.streams.entry(key).or_default().join(&e);
        }
    }

    /// `cudaEventSynchronize(event)`, a successful `cudaEventQuery(event)`.
    pub fn event_sync(&mut self, event: usize) {
        if let Some(e) = self.events.get(&event).cloned() {
            self.host_waits(&e);
        }
    }

    /// The host waits for one piece of work (a synchronous copy): its clock.
    pub fn host_waits_for(&mut self, c: &Clock) {
        self.host_waits(c);
    }

    /// Outstanding work kept now.
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }
}

/// A conflict: (the earlier work's use, its line, the later's use, its line, the address).
type Conflict = (Use, Option<u32>, Use, Option<u32>, u64);

/// The first byte of a conflict between `a` (earlier) and `b`.
fn first_conflict(a: &Work, b: &Work) -> Option<Conflict> {
    let mut best: Option<Conflict> = None;
    for (&(ua, la), ra) in &a.sets {
        for (&(ub, lb), rb) in &b.sets {
            if !ua.conflicts(ub) {
                continue;
            }
            if let Some(x) = ra.first_common(rb)
                && best.is_none_or(|b| x < b.4)
            {
                best = Some((ua, la, ub, lb, x));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(what: &str, u: Use, lo: u64, hi: u64) -> Option<Work> {
        let mut r = Ranges::default();
        r.insert(lo, hi);
        Some(Work {
            what: what.into(),
            sets: BTreeMap::from([((u, Some(1)), r)]),
            partial: false,
        })
    }

    fn nonblocking(o: &mut StreamOrder, a: usize) {
        o.set_blocking(a, 1);
    }

    #[test]
    fn two_non_blocking_streams_race_and_an_event_orders_them() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.issue(0x10, work("produce", Use::Write, 0, 256));
        let (r, _) = o.issue(0x20, work("consume", Use::Read, 4, 260));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].address, 4);
        assert_eq!(r[0].first.2, Use::Write);
        assert_eq!(r[0].second.1, "stream 0x20 (non-blocking)");
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.issue(0x10, work("produce", Use::Write, 0, 256));
        o.record(0x99, 0x10);
        o.wait_event(0x20, 0x99);
        assert!(o.issue(0x20, work("consume", Use::Read, 4, 260)).0.is_empty());
    }

    #[test]
    fn an_event_recorded_before_the_work_orders_nothing_of_it() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.record(0x99, 0x10);
        o.issue(0x10, work("produce", Use::Write, 0, 256));
        o.wait_event(0x20, 0x99);
        assert_eq!(o.issue(0x20, work("consume", Use::Read, 0, 4)).0.len(), 1);
    }

    #[test]
    fn host_synchronisation_drops_outstanding_work() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.issue(0x10, work("a", Use::Write, 0, 256));
        o.stream_sync(0x20);
        assert_eq!(o.outstanding(), 1);
        o.stream_sync(0x10);
        assert_eq!(o.outstanding(), 0);
        assert!(o.issue(0x20, work("b", Use::Write, 0, 256)).0.is_empty());
        o.device_sync();
        assert_eq!(o.outstanding(), 0);
    }

    #[test]
    fn the_legacy_default_stream_orders_blocking_streams_only() {
        // a (blocking) then default then b (blocking): ordered
        let mut o = StreamOrder::default();
        o.issue(0x10, work("a", Use::Write, 0, 4));
        o.issue(LEGACY, None);
        assert!(o.issue(0x20, work("b", Use::Read, 0, 4)).0.is_empty());
        // a non-blocking stream does not wait for the default stream's work
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x20);
        o.issue(LEGACY, work("a", Use::Write, 0, 4));
        assert_eq!(o.issue(0x20, work("b", Use::Read, 0, 4)).0.len(), 1);
        // nor does the default stream wait for a non-blocking stream's
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x20);
        o.issue(0x20, work("a", Use::Write, 0, 4));
        assert_eq!(o.issue(LEGACY, work("b", Use::Read, 0, 4)).0.len(), 1);
        // two blocking streams with nothing between race
        let mut o = StreamOrder::default();
        o.issue(0x10, work("a", Use::Write, 0, 4));
        assert_eq!(o.issue(0x20, work("b", Use::Write, 0, 4)).0.len(), 1);
        // the per-thread default stream is an ordinary blocking stream
        let mut o = StreamOrder::default();
        o.issue(PER_THREAD, work("a", Use::Write, 0, 4));
        assert_eq!(o.issue(0x20, work("b", Use::Read, 0, 4)).0.len(), 1);
        o.issue(LEGACY, None);
        assert!(o.issue(0x30, work("c", Use::Read, 0, 4)).0.is_empty());
        assert_eq!(StreamOrder::key(0, true), PER_THREAD);
        assert_eq!(StreamOrder::key(STREAM_LEGACY, true), LEGACY);
    }

    #[test]
    fn disjoint_bytes_reads_and_atomics_do_not_race() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.issue(0x10, work("a", Use::Write, 0, 128));
        assert!(o.issue(0x20, work("b", Use::Write, 128, 256)).0.is_empty());
        o.issue(0x10, work("c", Use::Read, 512, 520));
        assert!(o.issue(0x20, work("d", Use::Read, 512, 520)).0.is_empty());
        o.issue(0x10, work("e", Use::Atomic, 600, 604));
        assert!(o.issue(0x20, work("f", Use::Atomic, 600, 604)).0.is_empty());
        assert_eq!(o.issue(0x20, work("g", Use::Read, 600, 604)).0.len(), 1);
    }

    #[test]
    fn outstanding_work_is_bounded() {
        let mut o = StreamOrder::default();
        for i in 0..(MAX_OUTSTANDING as u64 + 10) {
            o.issue(0x10, work("w", Use::Write, i * 8, i * 8 + 4));
        }
        assert_eq!(o.outstanding(), MAX_OUTSTANDING);
        assert_eq!(o.dropped, 10);
    }
}
