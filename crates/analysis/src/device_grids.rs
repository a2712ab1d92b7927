//! Global-memory races between a grid and the grids its threads launch (dynamic parallelism,
//! CDP2, CUDA 12+). The CUDA Programming Guide orders a launch after what the launching thread
//! did before it; a block barrier the thread passed before launching orders its block's earlier
//! accesses too. Nothing orders the parent's later accesses with the child's: the child may run
//! at once, and device code cannot wait for it (no device-side `cudaDeviceSynchronize` since
//! CUDA 12); a tail launch (`cudaStreamTailLaunch`) runs after the parent grid and its other
//! children. Children of one block launched into one stream (its NULL stream, or one it created)
//! run in launch order; other children are not ordered with each other.
//!
//! [`GridSink`] records a grid's global accesses per lane with the thread's block epoch (block
//! barrier releases that ordered the whole block) and how many launches the thread had made;
//! [`races`] pairs a parent's accesses with its children's and the children's with each other.
//! Races within one grid are the global checker's ([`crate::global_races`]).

use std::collections::HashMap;
use std::sync::Arc;

use warpscope_emu::devlaunch::{DeviceLaunch, DeviceStream};

/// One lane's global access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridAccess {
    /// Linear block id in its grid.
    pub block: u32,
    /// Linear thread id in its block.
    pub tid: u32,
    /// Instruction.
    pub pc: u32,
    /// Byte address and width.
    pub addr: u64,
    /// Bytes.
    pub width: u8,
    /// A store or an atomic (an atomic is both a read and a write).
    pub write: bool,
    /// An atomic (atomics do not race with atomics).
    pub atomic: bool,
    /// Block barriers of the whole block released before it.
    pub epoch: u32,
    /// Launches its thread had made before it.
    pub launched: u32,
}

/// The global accesses of one block of a grid (a sink of the emulator's events).
#[derive(Debug)]
pub struct GridSink {
    block: u32,
    launch_pcs: Arc<Vec<u32>>,
    epoch: u32,
    partial: bool,
    launched: Vec<u32>,
    /// Per thread, the block epoch at each of its launches, in order.
    pub launch_epochs: Vec<Vec<u32>>,
    /// The block's global accesses, lane by lane, in the order the emulator made them.
    pub accesses: Vec<GridAccess>,
    /// The instruction of each block-wide barrier release (epoch `e` began with `release_pcs[e - 1]`).
    pub release_pcs: Vec<u32>,
}

impl GridSink {
    /// Block `block` of a grid of `threads` threads per block; `launch_pcs`: the instructions
    /// that launch a grid (`cudaLaunchDeviceV2`), sorted.
    pub fn new(block: u32, threads: u32, launch_pcs: Arc<Vec<u32>>) -> GridSink {
        GridSink {
            block,
            launch_pcs,
            epoch: 0,
            partial: false,
            launched: vec![0; threads as usize],
            launch_epochs: vec![Vec::new(); threads as usize],
            accesses: Vec::new(),
            release_pcs: Vec::new(),
        }
    }
}

impl warpscope_emu::Sink for GridSink {
    fn mem(&mut self, e: &warpscope_emu::MemEvent<'_>) {
        use warpscope_emu::AccessOp;
        if e.space != warpscope_emu::Space::Global {
            return;
        }
        let (write, atomic) = match e.op {
            AccessOp::Load => (false, false),
            AccessOp::Store => (true, false),
            AccessOp::Atomic => (true, true),
            _ => return,
        };
        let mut m = e.mask;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let tid = e.warp * 32 + l;
            self.accesses.push(GridAccess {
                block: self.block,
                tid,
                pc: e.pc,
                addr: e.addrs[l as usize],
                width: e.width,
                write,
                atomic,
                epoch: self.epoch,
                launched: self.launched.get(tid as usize).copied().unwrap_or(0),
            });
        }
    }

    fn inst(&mut self, warp: u32, pc: u32, active: warpscope_emu::LaneMask) {
        if self.launch_pcs.binary_search(&pc).is_err() {
            return;
        }
        let mut m = active;
        while m != 0 {
            let l = m.trailing_zeros();
            m &= m - 1;
            let t = (warp * 32 + l) as usize;
            if let (Some(n), Some(e)) = (self.launched.get_mut(t), self.launch_epochs.get_mut(t)) {
                *n += 1;
                e.push(self.epoch);
            }
        }
    }

    fn barrier_partial(&mut self, _block: u32, _id: u32, _arrived: u32, _waited: u32) {
        self.partial = true;
    }

    fn barrier_release(&mut self, _block: u32, pc: u32, _generation: u32) {
        if std::mem::take(&mut self.partial) {
            return;
        }
        self.epoch += 1;
        self.release_pcs.push(pc);
    }
}

/// A grid's accesses (its blocks' sinks, in block order).
#[derive(Debug, Default)]
pub struct Grid {
    /// Every block's accesses.
    pub accesses: Vec<GridAccess>,
    /// Per block: per thread, the block epoch at each launch.
    pub launch_epochs: HashMap<u32, Vec<Vec<u32>>>,
    /// Per block: its block-wide barrier releases' instructions.
    pub release_pcs: HashMap<u32, Vec<u32>>,
}

impl Grid {
    /// The grid of the blocks' sinks.
    pub fn of(sinks: Vec<GridSink>) -> Grid {
        let mut g = Grid::default();
        for s in sinks {
            g.accesses.extend(s.accesses);
            g.launch_epochs.insert(s.block, s.launch_epochs);
            g.release_pcs.insert(s.block, s.release_pcs);
        }
        g
    }
}

/// A pair of conflicting accesses of two grids that nothing orders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridRace {
    /// The grid of the first access (`None`: the parent; `Some(i)`: child `i`).
    pub first_grid: Option<usize>,
    /// The earlier access (in the order emulated).
    pub first: GridAccess,
    /// The child grid of the second access.
    pub second_grid: usize,
    /// The later access.
    pub second: GridAccess,
    /// Byte pairs like it (the same two instructions and grids).
    pub count: u64,
}

/// What [`races`] found: the races, and the block barriers that order a parent's accesses
/// before a launch (never redundant).
#[derive(Debug, Default)]
pub struct GridRaces {
    /// One per pair of instructions and grids.
    pub races: Vec<GridRace>,
    /// Barrier instructions that order parent accesses before a child's conflicting ones.
    pub needed_barriers: Vec<u32>,
}

fn overlap(a: &GridAccess, b: &GridAccess) -> bool {
    a.addr < b.addr + u64::from(b.width) && b.addr < a.addr + u64::from(a.width)
}

fn conflict(a: &GridAccess, b: &GridAccess) -> bool {
    (a.write || b.write) && !(a.atomic && b.atomic) && overlap(a, b)
}

/// Accesses by the 4-byte words they touch.
fn by_word(acc: &[GridAccess]) -> HashMap<u64, Vec<usize>> {
    let mut m: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, a) in acc.iter().enumerate() {
        let last = a.addr + u64::from(a.width.max(1)) - 1;
        for w in (a.addr / 4)..=(last / 4) {
            m.entry(w).or_default().push(i);
        }
    }
    m
}

/// The races between `parent` and its children (`children[i]` ran `launches[i]`), and between
/// children that nothing orders. Children of children are not followed.
pub fn races(parent: &Grid, launches: &[DeviceLaunch], children: &[Grid]) -> GridRaces {
    let mut out = GridRaces::default();
    let mut found: HashMap<(Option<usize>, u32, usize, u32), usize> = HashMap::new();
    let mut push = |out: &mut GridRaces, fg: Option<usize>, a: &GridAccess, sg: usize, b: &GridAccess| {
        let key = (fg, a.pc, sg, b.pc);
        match found.get(&key) {
            Some(&i) => out.races[i].count += 1,
            None => {
                found.insert(key, out.races.len());
                out.races.push(GridRace {
                    first_grid: fg,
                    first: *a,
                    second_grid: sg,
                    second: *b,
                    count: 1,
                });
            }
        }
    };
    // each launch's ordinal among its thread's launches
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let ordinal: Vec<u32> = launches
        .iter()
        .map(|l| {
            let n = seen.entry((l.block, l.thread)).or_insert(0);
            *n += 1;
            *n - 1
        })
        .collect();
    let parent_words = by_word(&parent.accesses);
    let mut needed = std::collections::BTreeSet::new();
    for (ci, (l, child)) in launches.iter().zip(children).enumerate() {
        if l.stream == DeviceStream::Tail {
            continue; // after the parent grid and its other children
        }
        let n = ordinal[ci];
        let epoch = parent
            .launch_epochs
            .get(&l.block)
            .and_then(|t| t.get(l.thread as usize))
            .and_then(|e| e.get(n as usize))
            .copied()
            .unwrap_or(0);
        for b in &child.accesses {
            let last = b.addr + u64::from(b.width.max(1)) - 1;
            let mut done = false;
            for w in (b.addr / 4)..=(last / 4) {
                for &i in parent_words.get(&w).map_or(&[][..], |v| &v[..]) {
                    let a = &parent.accesses[i];
                    if !conflict(a, b) {
                        continue;
                    }
                    let by_thread = a.block == l.block && a.tid == l.thread && a.launched <= n;
                    let by_barrier = a.block == l.block && a.epoch < epoch;
                    if by_thread {
                        continue;
                    }
                    if by_barrier {
                        if let Some(&pc) = parent
                            .release_pcs
                            .get(&l.block)
                            .and_then(|r| r.get(epoch as usize - 1))
                        {
                            needed.insert(pc);
                        }
                        continue;
                    }
                    if !done {
                        push(&mut out, None, a, ci, b);
                        done = true;
                    }
                }
            }
        }
    }
    // children with each other
    for j in 0..children.len() {
        if launches[j].stream == DeviceStream::Tail {
            continue;
        }
        let words = by_word(&children[j].accesses);
        for i in 0..j {
            let (li, lj) = (&launches[i], &launches[j]);
            if li.stream == DeviceStream::Tail {
                continue;
            }
            let same_stream = li.block == lj.block
                && li.stream == lj.stream
                && matches!(li.stream, DeviceStream::Null | DeviceStream::Created(_));
            if same_stream {
                continue;
            }
            for a in &children[i].accesses {
                let last = a.addr + u64::from(a.width.max(1)) - 1;
                let mut done = false;
                for w in (a.addr / 4)..=(last / 4) {
                    for &k in words.get(&w).map_or(&[][..], |v| &v[..]) {
                        let b = &children[j].accesses[k];
                        if !done && conflict(a, b) {
                            push(&mut out, Some(i), a, j, b);
                            done = true;
                        }
                    }
                }
            }
        }
    }
    out.needed_barriers = needed.into_iter().collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(block: u32, tid: u32, pc: u32, addr: u64, write: bool, epoch: u32, launched: u32) -> GridAccess {
        GridAccess {
            block,
            tid,
            pc,
            addr,
            width: 4,
            write,
            atomic: false,
            epoch,
            launched,
        }
    }

    fn launch(block: u32, thread: u32, stream: DeviceStream) -> DeviceLaunch {
        DeviceLaunch {
            block,
            thread,
            pc: 50,
            kernel: "child".into(),
            grid: [1, 1, 1],
            block_dim: [32, 1, 1],
            dyn_smem: 0,
            params: Vec::new(),
            stream,
            printf_seq: 0,
        }
    }

    #[test]
    fn a_launch_orders_the_threads_and_the_blocks_earlier_accesses_only() {
        // thread 0 wrote word 0 before its launch; thread 1 wrote word 4 before the barrier
        // (epoch 0) the launching thread passed (it launched in epoch 1); thread 2 writes word 8
        // after the launch, in epoch 1
        let mut parent = Grid {
            accesses: vec![
                acc(0, 0, 1, 0x100, true, 0, 0),
                acc(0, 1, 2, 0x104, true, 0, 0),
                acc(0, 2, 3, 0x108, true, 1, 0),
            ],
            ..Grid::default()
        };
        parent.launch_epochs.insert(0, vec![vec![1]]);
        parent.release_pcs.insert(0, vec![7]);
        let child = Grid {
            accesses: vec![
                acc(0, 0, 20, 0x100, false, 0, 0),
                acc(0, 1, 20, 0x104, false, 0, 0),
                acc(0, 2, 20, 0x108, false, 0, 0),
            ],
            ..Grid::default()
        };
        let r = races(&parent, &[launch(0, 0, DeviceStream::Null)], &[child]);
        assert_eq!(r.races.len(), 1);
        assert_eq!((r.races[0].first.pc, r.races[0].first.tid), (3, 2));
        assert_eq!(r.needed_barriers, vec![7]);
    }

    #[test]
    fn tail_launches_and_one_blocks_stream_are_ordered_other_children_are_not() {
        let parent = Grid::default();
        let w = |pc| Grid {
            accesses: vec![acc(0, 0, pc, 0x200, true, 0, 0)],
            ..Grid::default()
        };
        let l = [
            launch(0, 0, DeviceStream::Null),
            launch(0, 0, DeviceStream::Null),
            launch(1, 0, DeviceStream::Null),
            launch(1, 0, DeviceStream::Tail),
        ];
        let r = races(&parent, &l, &[w(1), w(2), w(3), w(4)]);
        let pairs: Vec<(Option<usize>, usize)> =
            r.races.iter().map(|x| (x.first_grid, x.second_grid)).collect();
        assert_eq!(pairs, vec![(Some(0), 2), (Some(1), 2)]);
    }
}
