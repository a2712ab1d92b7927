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
//! - a host function (`cudaLaunchHostFunc`, `cudaStreamAddCallback`) is work of its stream without
//!   a footprint: it waits for the stream's earlier work and the stream's later work waits for it
//!   (what it does to device memory through the host is not tracked);
//! - a graph launch is work of its stream: its nodes are ordered after the stream's earlier work
//!   (and the same executable graph's earlier launches), the stream's later work after all of its
//!   nodes; among themselves the nodes are ordered by the graph's edges only ([`GraphRun`]). Each
//!   node of an executable graph is a stream of its own (its launches follow each other), so a
//!   node's clock holds the ticks of the nodes a path of edges leads from.
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
/// The first key of the streams of graph nodes (above any handle).
const NODE_KEYS: usize = 1 << 62;

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

/// A graph launch in progress: the clock each node ran with.
#[derive(Debug)]
struct GraphRun {
    /// The stream it was launched into.
    stream: usize,
    /// The executable graph.
    exec: usize,
    /// What the graph launch is ordered after.
    base: Clock,
    /// Each node's dependencies.
    deps: Vec<Vec<usize>>,
    /// The clock of each node that ran.
    clocks: Vec<Option<Clock>>,
    /// The node running now.
    current: Option<usize>,
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
    /// Both are nodes of one graph launch: the graph's name.
    pub graph: Option<String>,
    /// The pieces whose footprints were cut at their cap ([`Work::partial`]): 1 the earlier, 2
    /// the later.
    pub partial: (bool, bool),
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
    /// The graph launch in progress.
    graph: Option<GraphRun>,
    /// (executable graph, node) → the key of the node's stream.
    node_keys: HashMap<(usize, usize), usize>,
    /// A node stream's key → the name of the stream its graph was launched into, the graph's name.
    node_names: HashMap<usize, (String, String)>,
    /// Executable graph → the clock of its last launch's end.
    exec_done: HashMap<usize, Clock>,
    /// The last work issued: its stream, tick and clock (the grids it launches from the device
    /// are its part, [`StreamOrder::descendant`]).
    last: Option<(usize, u64, Clock)>,
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

    /// The name of stream `key` (for a graph node: the stream its graph was launched into).
    pub fn name(&self, key: usize) -> String {
        match self.node_names.get(&key) {
            Some((n, _)) => n.clone(),
            None => stream_name(key, self.is_blocking(key)),
        }
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

    /// Issues work on `key` (a launch, a copy, a host function); `work` is its footprint when it
    /// has one. Returns the races with outstanding work nothing orders before it, and the work's
    /// clock. Inside a graph launch ([`StreamOrder::graph_node`]) the work is the current node's.
    pub fn issue(&mut self, key: usize, work: Option<Work>) -> (Vec<StreamRace>, Clock) {
        let (key, tick, c) = match self.graph.as_ref().and_then(|g| Some((g, g.current?))) {
            Some((g, i)) => {
                let c = g.clocks[i].clone().unwrap_or_default();
                let key = self.node_keys[&(g.exec, i)];
                (key, c.0[&key], c)
            }
            None => {
                let mut c = self.clock_for(key);
                let tick = self.ticks.get(&key).copied().unwrap_or(0) + 1;
                self.ticks.insert(key, tick);
                c.0.insert(key, tick);
                self.streams.insert(key, c.clone());
                (key, tick, c)
            }
        };
        self.last = Some((key, tick, c.clone()));
        let races = work.map_or_else(Vec::new, |w| self.add(key, tick, &c, w));
        (races, c)
    }

    /// A grid launched from the device by the last work issued (a kernel launch), or by one of
    /// that launch's grids: `work` is its footprint. It is part of that work in the streams'
    /// order: it runs after what the launch is ordered after (the CUDA Programming Guide: a child
    /// grid starts after its parent launched it), and before what is ordered after the launch
    /// (a parent grid is not complete until every grid it launched is, whatever device stream
    /// they were launched into: an event recorded after the launch, a stream synchronisation, the
    /// same stream's next launch all wait for them). Returns its races with outstanding work
    /// nothing orders before the launch (its accesses against its parent's are the launch's own
    /// check's).
    pub fn descendant(&mut self, work: Work) -> Vec<StreamRace> {
        let Some((key, tick, c)) = self.last.clone() else {
            return Vec::new();
        };
        self.add(key, tick, &c, work)
    }

    /// Checks `w` (work on `key` at `tick` with clock `c`) against the outstanding work `c` does
    /// not cover (its own launch's earlier parts are covered: `c` holds `tick`), and keeps it
    /// outstanding.
    fn add(&mut self, key: usize, tick: u64, c: &Clock, w: Work) -> Vec<StreamRace> {
        let mut races = Vec::new();
        for o in &self.outstanding {
            if races.len() >= MAX_FINDINGS {
                break;
            }
            if c.covers(o.stream, o.tick) {
                continue;
            }
            if let Some(r) = first_conflict(&o.work, &w) {
                let graph = match (self.node_names.get(&o.stream), self.node_names.get(&key)) {
                    (Some((_, g1)), Some((_, g2))) if g1 == g2 => Some(g1.clone()),
                    _ => None,
                };
                races.push(StreamRace {
                    first: (o.work.what.clone(), self.name(o.stream), r.0, r.1),
                    second: (w.what.clone(), self.name(key), r.2, r.3),
                    address: r.4,
                    graph,
                    partial: (o.work.partial, w.partial),
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
        races
    }

    /// Starts the launch of executable graph `exec` (named `name`) into stream `key`; `deps`: each
    /// node's dependencies. Its nodes then run through [`StreamOrder::graph_node`] until
    /// [`StreamOrder::end_graph`].
    pub fn begin_graph(&mut self, key: usize, exec: usize, name: &str, deps: Vec<Vec<usize>>) {
        let mut base = self.clock_for(key);
        if let Some(d) = self.exec_done.get(&exec) {
            // a graph's launches run one after another, whatever their streams
            base.join(d);
        }
        let on = self.name(key);
        for i in 0..deps.len() {
            let next = NODE_KEYS + self.node_keys.len();
            let k = *self.node_keys.entry((exec, i)).or_insert(next);
            self.node_names.insert(k, (on.clone(), name.to_string()));
        }
        let n = deps.len();
        self.graph = Some(GraphRun {
            stream: key,
            exec,
            base,
            deps,
            clocks: vec![None; n],
            current: None,
        });
    }

    /// Node `i` of the graph launch in progress runs now: it is ordered after the launch's start
    /// and the nodes it depends on. Work issued until the next node is the node's.
    pub fn graph_node(&mut self, i: usize) {
        let Some(g) = self.graph.as_mut() else {
            return;
        };
        let Some(&key) = self.node_keys.get(&(g.exec, i)) else {
            return;
        };
        let mut c = g.base.clone();
        for &d in g.deps.get(i).into_iter().flatten() {
            if let Some(Some(dc)) = g.clocks.get(d) {
                c.join(dc);
            }
        }
        let tick = self.ticks.get(&key).copied().unwrap_or(0) + 1;
        self.ticks.insert(key, tick);
        c.0.insert(key, tick);
        if let Some(slot) = g.clocks.get_mut(i) {
            *slot = Some(c);
            g.current = Some(i);
        }
    }

    /// The current graph node records `event` (an event record node).
    pub fn graph_record(&mut self, event: usize) {
        if let Some(c) = self.current_node_clock() {
            self.events.insert(event, c);
        }
    }

    /// The current graph node waits for `event`'s last record (an event wait node).
    pub fn graph_wait(&mut self, event: usize) {
        let Some(e) = self.events.get(&event).cloned() else {
            return;
        };
        if let Some(g) = self.graph.as_mut()
            && let Some(i) = g.current
            && let Some(Some(c)) = g.clocks.get_mut(i)
        {
            c.join(&e);
        }
    }

    fn current_node_clock(&self) -> Option<Clock> {
        let g = self.graph.as_ref()?;
        g.clocks.get(g.current?)?.clone()
    }

    /// Ends the graph launch in progress: its stream's later work (and the graph's next launch)
    /// waits for every node.
    pub fn end_graph(&mut self) {
        let Some(g) = self.graph.take() else {
            return;
        };
        let mut c = self.clock_for(g.stream);
        c.join(&g.base);
        for n in g.clocks.iter().flatten() {
            c.join(n);
        }
        let tick = self.ticks.get(&g.stream).copied().unwrap_or(0) + 1;
        self.ticks.insert(g.stream, tick);
        c.0.insert(g.stream, tick);
        self.streams.insert(g.stream, c.clone());
        self.exec_done.insert(g.exec, c);
    }

    /// The node running now in a graph launch: `node 2 of graph 0x5`.
    pub fn graph_label(&self) -> Option<String> {
        let g = self.graph.as_ref()?;
        let i = g.current?;
        let key = self.node_keys.get(&(g.exec, i))?;
        Some(format!("node {i} of {}", self.node_names.get(key)?.1))
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

    /// Runs a graph launch of `exec` on `key`: node `i` writes `writes[i]` (bytes 0..4 of block
    /// `writes[i]`; `None`: nothing); returns the races.
    fn graph(
        o: &mut StreamOrder,
        key: usize,
        exec: usize,
        deps: Vec<Vec<usize>>,
        writes: &[Option<u64>],
    ) -> Vec<StreamRace> {
        o.begin_graph(key, exec, "graph 0x5", deps);
        let mut races = Vec::new();
        for (i, w) in writes.iter().enumerate() {
            o.graph_node(i);
            if let Some(b) = w {
                races.extend(o.issue(key, work("k", Use::Write, b * 64, b * 64 + 4)).0);
            }
        }
        o.end_graph();
        races
    }

    #[test]
    fn graph_nodes_are_ordered_by_edges_not_by_the_order_they_ran() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        // two nodes without an edge writing one word race, named as nodes of one graph
        let r = graph(&mut o, 0x10, 0x77, vec![vec![], vec![]], &[Some(0), Some(0)]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].graph.as_deref(), Some("graph 0x5"));
        assert_eq!(r[0].second.1, "stream 0x10 (non-blocking)");
        // with an edge (or a path through a node that touches nothing) none
        let mut o = StreamOrder::default();
        assert!(graph(&mut o, 0x10, 0x77, vec![vec![], vec![0]], &[Some(0), Some(0)]).is_empty());
        let mut o = StreamOrder::default();
        let deps = vec![vec![], vec![0], vec![1]];
        assert!(graph(&mut o, 0x10, 0x77, deps, &[Some(0), None, Some(0)]).is_empty());
        // a diamond: the two middle nodes race, each is ordered after the top and before the end
        let mut o = StreamOrder::default();
        let deps = vec![vec![], vec![0], vec![0], vec![1, 2]];
        let r = graph(&mut o, 0x10, 0x77, deps, &[Some(0), Some(1), Some(1), Some(0)]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].address, 64);
    }

    #[test]
    fn a_graph_launch_is_ordered_in_its_stream_and_after_its_earlier_launches() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        o.issue(0x10, work("before", Use::Write, 0, 4));
        // the graph's nodes wait for the stream's earlier work
        assert!(graph(&mut o, 0x10, 0x77, vec![vec![]], &[Some(0)]).is_empty());
        // the stream's later work waits for every node
        assert!(o.issue(0x10, work("after", Use::Write, 0, 4)).0.is_empty());
        // work on another stream does not, nor do a second launch's nodes on that stream wait
        // for it; but they do wait for the graph's first launch
        // (it races with all three pieces of stream 0x10's work, the node among them)
        let r = o.issue(0x20, work("other", Use::Read, 0, 4)).0;
        assert_eq!(r.len(), 3);
        assert!(r.iter().all(|x| x.graph.is_none()));
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        assert!(graph(&mut o, 0x10, 0x77, vec![vec![]], &[Some(0)]).is_empty());
        assert!(graph(&mut o, 0x20, 0x77, vec![vec![]], &[Some(0)]).is_empty());
        // another graph on another stream is not ordered after it
        assert_eq!(graph(&mut o, 0x10, 0x78, vec![vec![]], &[Some(0)]).len(), 1);
        // the host waiting for the stream drops the nodes' footprints
        o.stream_sync(0x10);
        o.stream_sync(0x20);
        assert_eq!(o.outstanding(), 0);
    }

    #[test]
    fn event_record_and_wait_nodes_order_across_graphs_and_streams() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        // node 0 writes, node 1 (after it) records the event
        o.begin_graph(0x10, 0x77, "graph 0x5", vec![vec![], vec![0]]);
        o.graph_node(0);
        o.issue(0x10, work("w", Use::Write, 0, 4));
        o.graph_node(1);
        o.graph_record(0x99);
        o.end_graph();
        // a graph on another stream whose wait node comes before its reader: ordered
        o.begin_graph(0x20, 0x78, "graph 0x6", vec![vec![], vec![0]]);
        o.graph_node(0);
        o.graph_wait(0x99);
        o.graph_node(1);
        assert!(o.issue(0x20, work("r", Use::Read, 0, 4)).0.is_empty());
        o.end_graph();
        // a stream waiting on the event is ordered too; one that does not is not
        o.wait_event(0x20, 0x99);
        assert!(o.issue(0x20, work("r2", Use::Read, 0, 4)).0.is_empty());
        nonblocking(&mut o, 0x30);
        // (with the write and both reads)
        assert_eq!(o.issue(0x30, work("r3", Use::Write, 0, 4)).0.len(), 3);
    }

    #[test]
    fn a_host_function_orders_its_stream_like_other_work() {
        // a on a blocking stream, a host function on the legacy default stream, b on another
        // blocking stream: the host function waits for a, and b waits for it
        let mut o = StreamOrder::default();
        o.issue(0x10, work("a", Use::Write, 0, 4));
        o.issue(LEGACY, None);
        assert!(o.issue(0x20, work("b", Use::Write, 0, 4)).0.is_empty());
    }

    #[test]
    fn a_cut_footprint_is_said_in_the_race() {
        let mut o = StreamOrder::default();
        nonblocking(&mut o, 0x10);
        nonblocking(&mut o, 0x20);
        let mut w = work("a", Use::Write, 0, 4).unwrap();
        w.partial = true;
        o.issue(0x10, Some(w));
        let r = o.issue(0x20, work("b", Use::Read, 0, 4)).0;
        assert_eq!(r[0].partial, (true, false));
    }
}
