//! CUDA graphs: built node by node (`cudaGraphAdd*Node`) or captured from streams
//! (`cudaStreamBeginCapture` … `cudaStreamEndCapture`), instantiated and launched.
//!
//! A graph is its nodes and the edges between them (each node's dependencies). Launching a graph
//! runs its nodes one at a time in a topological order (the order they were added where the edges
//! allow), each as the runtime runs the same operation issued on a stream; `run --check` orders them
//! by the edges only (`crate::streams`), so two nodes no path joins may race. Each kernel node is
//! one recorded launch, as Nsight Compute profiles graph kernels node by node.
//! Capture records what is issued to a capturing stream instead of running it: kernel launches,
//! asynchronous copies and sets, host functions; each captured node depends on the nodes its stream
//! captured last (the stream's *tips*). An event recorded on a capturing stream takes that stream's
//! tips, and a stream that waits on it adds them to its own, joining the capture (the fork/join
//! pattern). What a node needs is copied when it is added or captured (kernel arguments, copy and
//! set parameters), as the CUDA runtime does.

use std::collections::{HashMap, HashSet};
use std::ffi::{c_int, c_uint, c_void};

use crate::launch::LaunchRequest;

/// One operation of a graph.
#[derive(Clone, Debug)]
pub enum Node {
    /// A kernel launch, its arguments' bytes copied.
    Kernel(LaunchRequest),
    /// Row copies: (destination, source, bytes, `cudaMemcpyKind`).
    Copy(Vec<(u64, u64, usize, c_int)>),
    /// A set of `height` rows of `width` elements of `element` bytes, `pitch` bytes apart.
    Set {
        /// Destination.
        dst: u64,
        /// Bytes between rows.
        pitch: usize,
        /// The element's value (its low `element` bytes).
        value: u32,
        /// Element size: 1, 2 or 4 bytes.
        element: u32,
        /// Elements per row.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A host function and its data.
    Host(usize, usize),
    /// No operation (an empty node, or an event recorded inside a capture).
    Empty,
    /// `cudaGraphAddEventRecordNode`: records the event when the node's dependencies are done.
    EventRecord(usize),
    /// `cudaGraphAddEventWaitNode`: the node's dependents wait for the event's last record.
    EventWait(usize),
}

/// The runtime's graphs, executable graphs and stream capture.
#[derive(Debug, Default)]
pub struct Graphs {
    /// Graph handle → its nodes.
    pub graphs: HashMap<usize, Vec<Node>>,
    /// Graph handle → each node's dependencies (indices into its nodes).
    pub edges: HashMap<usize, Vec<Vec<usize>>>,
    /// Node handle → (graph, index).
    pub nodes: HashMap<usize, (usize, usize)>,
    /// Executable graph handle → what it runs.
    pub execs: HashMap<usize, Exec>,
    /// The capture in progress, if any.
    pub capture: Option<Capture>,
}

/// An instantiated graph: a copy of its graph's nodes and edges.
#[derive(Clone, Debug, Default)]
pub struct Exec {
    /// The graph it was instantiated from (its name in messages).
    pub graph: usize,
    /// The nodes.
    pub nodes: Vec<Node>,
    /// Each node's dependencies.
    pub deps: Vec<Vec<usize>>,
}

impl Exec {
    /// The nodes in a topological order: the lowest-numbered node whose dependencies have run
    /// first. `None` when the edges make a cycle.
    pub fn order(&self) -> Option<Vec<usize>> {
        let n = self.nodes.len();
        let mut waiting: Vec<usize> = (0..n).map(|i| self.deps.get(i).map_or(0, Vec::len)).collect();
        let mut after: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, ds) in self.deps.iter().enumerate() {
            for &d in ds {
                after.get_mut(d)?.push(i);
            }
        }
        let mut ready: std::collections::BTreeSet<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
        let mut out = Vec::with_capacity(n);
        while let Some(i) = ready.pop_first() {
            out.push(i);
            for &j in &after[i] {
                waiting[j] -= 1;
                if waiting[j] == 0 {
                    ready.insert(j);
                }
            }
        }
        (out.len() == n).then_some(out)
    }
}

/// A stream capture in progress.
#[derive(Debug, Default)]
pub struct Capture {
    /// The stream `cudaStreamBeginCapture` named.
    pub origin: usize,
    /// The streams whose work is captured (the origin and those that waited on a captured event).
    pub streams: HashSet<usize>,
    /// Events recorded on a capturing stream.
    pub events: HashSet<usize>,
    /// What was captured, in issue order.
    pub nodes: Vec<Node>,
    /// Each captured node's dependencies.
    pub deps: Vec<Vec<usize>>,
    /// Per capturing stream, the nodes its next node depends on.
    pub tips: HashMap<usize, Vec<usize>>,
    /// Per event recorded in the capture, the tips of its stream then.
    pub event_tips: HashMap<usize, Vec<usize>>,
}

impl Capture {
    /// Adds `node` on `stream`: it depends on the stream's tips and becomes its only tip.
    pub fn push(&mut self, stream: usize, node: Node) {
        let deps = self.tips.remove(&stream).unwrap_or_default();
        self.nodes.push(node);
        self.deps.push(deps);
        self.tips.insert(stream, vec![self.nodes.len() - 1]);
    }

    /// `cudaEventRecord(event, stream)` on a capturing stream.
    pub fn record(&mut self, event: usize, stream: usize) {
        self.events.insert(event);
        let tips = self.tips.get(&stream).cloned().unwrap_or_default();
        self.event_tips.insert(event, tips);
    }

    /// `cudaStreamWaitEvent(stream, event)` of an event recorded in the capture: the stream joins
    /// the capture and its next node also depends on the event's tips.
    pub fn wait(&mut self, stream: usize, event: usize) {
        self.streams.insert(stream);
        let add = self.event_tips.get(&event).cloned().unwrap_or_default();
        let tips = self.tips.entry(stream).or_default();
        for t in add {
            if !tips.contains(&t) {
                tips.push(t);
            }
        }
    }

    /// An executable graph launched into capturing `stream`: its nodes join the capture, those
    /// without dependencies after the stream's tips, and the nodes nothing depends on become them.
    pub fn splice(&mut self, stream: usize, e: &Exec) {
        let base = self.nodes.len();
        let tips = self.tips.remove(&stream).unwrap_or_default();
        let mut used = vec![false; e.nodes.len()];
        for (i, n) in e.nodes.iter().enumerate() {
            let ds = e.deps.get(i).cloned().unwrap_or_default();
            for &d in &ds {
                if let Some(u) = used.get_mut(d) {
                    *u = true;
                }
            }
            let deps = if ds.is_empty() {
                tips.clone()
            } else {
                ds.iter().map(|&d| base + d).collect()
            };
            self.nodes.push(n.clone());
            self.deps.push(deps);
        }
        let sinks: Vec<usize> = (0..e.nodes.len())
            .filter(|&i| !used[i])
            .map(|i| base + i)
            .collect();
        self.tips
            .insert(stream, if sinks.is_empty() { tips } else { sinks });
    }
}

impl Graphs {
    /// Whether work issued to `stream` is being captured.
    pub fn capturing(&self, stream: usize) -> bool {
        self.capture.as_ref().is_some_and(|c| c.streams.contains(&stream))
    }

    /// Records `node` when `stream` is capturing; gives it back otherwise.
    pub fn capture_or(&mut self, stream: usize, node: Node) -> Option<Node> {
        match &mut self.capture {
            Some(c) if c.streams.contains(&stream) => {
                c.push(stream, node);
                None
            }
            _ => Some(node),
        }
    }
}

/// `cudaMemsetParams`.
#[repr(C)]
pub struct MemsetParams {
    dst: *mut c_void,
    pitch: usize,
    value: c_uint,
    element_size: c_uint,
    width: usize,
    height: usize,
}

/// `cudaKernelNodeParams`.
#[repr(C)]
pub struct KernelNodeParams {
    func: *mut c_void,
    grid: [c_uint; 3],
    block: [c_uint; 3],
    shared_mem_bytes: c_uint,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
}

/// `cudaHostNodeParams`.
#[repr(C)]
pub struct HostNodeParams {
    func: Option<unsafe extern "C" fn(*mut c_void)>,
    user_data: *mut c_void,
}

/// `cudaPos` and `cudaExtent`: three `size_t`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Triple {
    x: usize,
    y: usize,
    z: usize,
}

/// `cudaPitchedPtr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PitchedPtr {
    ptr: *mut c_void,
    pitch: usize,
    xsize: usize,
    ysize: usize,
}

/// `cudaMemcpy3DParms`.
#[repr(C)]
pub struct Memcpy3DParms {
    src_array: *mut c_void,
    src_pos: Triple,
    src_ptr: PitchedPtr,
    dst_array: *mut c_void,
    dst_pos: Triple,
    dst_ptr: PitchedPtr,
    extent: Triple,
    kind: c_int,
}

/// The row copies of a 3-D copy between linear memories (CUDA arrays are not supported: `None`).
pub fn copy3d_rows(p: &Memcpy3DParms) -> Option<Vec<(u64, u64, usize, c_int)>> {
    if !p.src_array.is_null() || !p.dst_array.is_null() {
        return None;
    }
    let e = p.extent;
    let mut rows = Vec::new();
    for z in 0..e.z.max(1) {
        for y in 0..e.y.max(1) {
            let at = |ptr: &PitchedPtr, pos: &Triple| -> u64 {
                let row = (pos.z + z) * ptr.ysize.max(1) + pos.y + y;
                ptr.ptr as u64 + (row * ptr.pitch + pos.x) as u64
            };
            rows.push((
                at(&p.dst_ptr, &p.dst_pos),
                at(&p.src_ptr, &p.src_pos),
                e.x,
                p.kind,
            ));
        }
    }
    Some(rows)
}

/// A CUDA array's layout as a 3-D copy sees it: bytes per element, bytes per row, rows per slice
/// and slices (its texels live in the global space at its handle, row after row, slice after slice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayShape {
    /// bytes per element (texel)
    pub element: usize,
    /// bytes per row
    pub row: usize,
    /// rows per slice
    pub rows: usize,
    /// slices
    pub slices: usize,
}

/// The row copies of a 3-D copy whose source or destination may be a CUDA array (`shape` gives
/// an array handle's layout; `None`: not an array, `cudaErrorInvalidValue`). As the runtime
/// documents `cudaMemcpy3D`: with an array taking part, the extent's width and an array's
/// position count that array's elements (a pointer's position stays in bytes); the copied box must
/// lie inside each array (`cudaErrorInvalidValue` otherwise).
pub fn copy3d_rows_with(
    p: &Memcpy3DParms,
    shape: &dyn Fn(u64) -> Option<ArrayShape>,
) -> Result<Vec<(u64, u64, usize, c_int)>, u32> {
    if let Some(rows) = copy3d_rows(p) {
        return Ok(rows);
    }
    let side = |array: *mut c_void| -> Result<Option<ArrayShape>, u32> {
        if array.is_null() {
            Ok(None)
        } else {
            shape(array as u64)
                .map(Some)
                .ok_or(crate::err_codes::INVALID_VALUE)
        }
    };
    let (src, dst) = (side(p.src_array)?, side(p.dst_array)?);
    let element = src.or(dst).map_or(1, |a| a.element);
    if src.zip(dst).is_some_and(|(a, b)| a.element != b.element) {
        return Err(crate::err_codes::INVALID_VALUE);
    }
    let e = p.extent;
    let width = e.x.checked_mul(element).ok_or(crate::err_codes::INVALID_VALUE)?;
    // (base, bytes per row, rows per slice, byte column of the box) of one side
    let place = |a: Option<ArrayShape>, handle: *mut c_void, ptr: &PitchedPtr, pos: &Triple| match a {
        Some(a) => {
            let inside = pos
                .x
                .checked_mul(a.element)
                .and_then(|x| x.checked_add(width))
                .is_some_and(|x| x <= a.row)
                && pos.y + e.y.max(1) <= a.rows
                && pos.z + e.z.max(1) <= a.slices;
            inside
                .then_some((handle as u64, a.row, a.rows, pos.x * a.element))
                .ok_or(crate::err_codes::INVALID_VALUE)
        }
        None => Ok((ptr.ptr as u64, ptr.pitch, ptr.ysize.max(1), pos.x)),
    };
    let s = place(src, p.src_array, &p.src_ptr, &p.src_pos)?;
    let d = place(dst, p.dst_array, &p.dst_ptr, &p.dst_pos)?;
    let mut rows = Vec::new();
    for z in 0..e.z.max(1) {
        for y in 0..e.y.max(1) {
            let at = |(base, pitch, per_slice, col): (u64, usize, usize, usize), pos: &Triple| -> u64 {
                let row = (pos.z + z) * per_slice + pos.y + y;
                base + (row * pitch + col) as u64
            };
            rows.push((at(d, &p.dst_pos), at(s, &p.src_pos), width, p.kind));
        }
    }
    Ok(rows)
}

/// The node of a memset parameter block (element sizes 1, 2, 4; `None` otherwise).
pub fn set_node(p: &MemsetParams) -> Option<Node> {
    if !matches!(p.element_size, 1 | 2 | 4) || (p.height > 1 && p.pitch < p.width * p.element_size as usize) {
        return None;
    }
    Some(Node::Set {
        dst: p.dst as u64,
        pitch: p.pitch,
        value: p.value,
        element: p.element_size,
        width: p.width,
        height: p.height.max(1),
    })
}

/// The bytes of one row of a set node.
pub fn set_row(value: u32, element: u32, width: usize) -> Vec<u8> {
    let e = &value.to_le_bytes()[..element as usize];
    e.iter().copied().cycle().take(width * element as usize).collect()
}

/// The kernel node of a parameter block; the argument bytes are read through `param_sizes`.
///
/// # Safety
/// `p.kernel_params` holds one pointer per kernel parameter, as for `cudaLaunchKernel`.
pub unsafe fn kernel_node(p: &KernelNodeParams, sizes: &[usize]) -> Result<Node, u32> {
    if !sizes.is_empty() && p.kernel_params.is_null() {
        return Err(crate::err_codes::INVALID_VALUE);
    }
    let mut params = Vec::with_capacity(sizes.len());
    for (i, &n) in sizes.iter().enumerate() {
        // SAFETY: per the contract, one valid pointer per parameter, `n` bytes each.
        let v = unsafe {
            let a = *p.kernel_params.add(i) as *const u8;
            if a.is_null() {
                return Err(crate::err_codes::INVALID_VALUE);
            }
            std::slice::from_raw_parts(a, n).to_vec()
        };
        params.push(v);
    }
    Ok(Node::Kernel(LaunchRequest {
        func: p.func as usize,
        grid: p.grid,
        block: p.block,
        dyn_smem: p.shared_mem_bytes as usize,
        stream: 0,
        params,
        cooperative: false,
        cluster: None,
    }))
}

/// The kernel's handle (its host function pointer) in a parameter block.
pub fn kernel_func(p: &KernelNodeParams) -> usize {
    p.func as usize
}

/// The host node of a parameter block.
pub fn host_node(p: &HostNodeParams) -> Option<Node> {
    p.func.map(|f| Node::Host(f as usize, p.user_data as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_row_repeats_the_element_value() {
        // cudaMemsetParams with elementSize 4 and the bits of 1.0f: every word is 1.0f
        let row = set_row(0x3f80_0000, 4, 3);
        assert_eq!(row, [0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f]);
        assert_eq!(set_row(0x1234_abcd, 2, 2), [0xcd, 0xab, 0xcd, 0xab]);
        assert_eq!(set_row(0x7f, 1, 4), [0x7f; 4]);
    }

    #[test]
    fn a_3d_copy_becomes_row_copies_at_the_pitched_positions() {
        let p = Memcpy3DParms {
            src_array: std::ptr::null_mut(),
            src_pos: Triple { x: 4, y: 1, z: 0 },
            src_ptr: PitchedPtr {
                ptr: 0x1000 as *mut c_void,
                pitch: 64,
                xsize: 16,
                ysize: 8,
            },
            dst_array: std::ptr::null_mut(),
            dst_pos: Triple { x: 0, y: 0, z: 1 },
            dst_ptr: PitchedPtr {
                ptr: 0x9000 as *mut c_void,
                pitch: 32,
                xsize: 8,
                ysize: 4,
            },
            extent: Triple { x: 8, y: 2, z: 1 },
            kind: 3,
        };
        // rows y = 0, 1: source row 1 + y of a 64-byte pitch, from byte 4; destination slice 1
        // (4 rows of 32 bytes each) row y
        assert_eq!(
            copy3d_rows(&p).unwrap(),
            [
                (0x9000 + 128, 0x1000 + 64 + 4, 8, 3),
                (0x9000 + 160, 0x1000 + 128 + 4, 8, 3)
            ]
        );
        let arrays = Memcpy3DParms {
            src_array: 0x10 as *mut c_void,
            ..p
        };
        assert_eq!(copy3d_rows(&arrays), None);
    }

    #[test]
    fn a_capture_gives_each_node_its_streams_tips_and_events_fork_and_join() {
        let mut c = Capture {
            origin: 1,
            streams: [1].into(),
            ..Default::default()
        };
        c.push(1, Node::Empty); // 0
        c.record(10, 1);
        c.wait(2, 10); // stream 2 forks after node 0
        c.push(1, Node::Empty); // 1 after 0
        c.push(2, Node::Empty); // 2 after 0, not after 1
        c.record(11, 2);
        c.wait(1, 11); // join
        c.push(1, Node::Empty); // 3 after 1 and 2
        assert_eq!(c.deps, [vec![], vec![0], vec![0], vec![1, 2]]);
        // a graph launched into the capture: its roots after the tips, its sinks the new tips
        let e = Exec {
            graph: 9,
            nodes: vec![Node::Empty, Node::Empty, Node::Empty],
            deps: vec![vec![], vec![], vec![0, 1]],
        };
        c.splice(1, &e);
        c.push(1, Node::Empty);
        assert_eq!(&c.deps[4..], [vec![3], vec![3], vec![4, 5], vec![6]]);
    }

    #[test]
    fn nodes_run_in_a_topological_order_and_a_cycle_has_none() {
        let e = Exec {
            graph: 1,
            nodes: vec![Node::Empty, Node::Empty, Node::Empty],
            // node 0 after node 2 (an edge added later)
            deps: vec![vec![2], vec![], vec![]],
        };
        assert_eq!(e.order(), Some(vec![1, 2, 0]));
        let cycle = Exec {
            deps: vec![vec![2], vec![], vec![0]],
            ..e
        };
        assert_eq!(cycle.order(), None);
    }

    #[test]
    fn a_3d_copy_into_an_array_counts_the_arrays_elements() {
        // a 4 x 3 x 2 array of float4 (16-byte texels, rows of 64 bytes) at 0x4000; the host box
        // is 2 texels wide, 2 rows, 2 slices, from texel (1, 1, 0) of the array
        let shape = |h: u64| {
            (h == 0x4000).then_some(ArrayShape {
                element: 16,
                row: 64,
                rows: 3,
                slices: 2,
            })
        };
        let p = Memcpy3DParms {
            src_array: std::ptr::null_mut(),
            src_pos: Triple { x: 8, y: 0, z: 0 },
            src_ptr: PitchedPtr {
                ptr: 0x1000 as *mut c_void,
                pitch: 40,
                xsize: 10,
                ysize: 2,
            },
            dst_array: 0x4000 as *mut c_void,
            dst_pos: Triple { x: 1, y: 1, z: 0 },
            dst_ptr: PitchedPtr {
                ptr: std::ptr::null_mut(),
                pitch: 0,
                xsize: 0,
                ysize: 0,
            },
            extent: Triple { x: 2, y: 2, z: 2 },
            kind: 1,
        };
        // 32 bytes a row; array row (z * 3 + 1 + y) from byte 16; source row (z * 2 + y) from byte 8
        assert_eq!(
            copy3d_rows_with(&p, &shape).unwrap(),
            [
                (0x4000 + 64 + 16, 0x1000 + 8, 32, 1),
                (0x4000 + 128 + 16, 0x1000 + 40 + 8, 32, 1),
                (0x4000 + 4 * 64 + 16, 0x1000 + 80 + 8, 32, 1),
                (0x4000 + 5 * 64 + 16, 0x1000 + 120 + 8, 32, 1),
            ]
        );
        // the other way round: the array is the source
        let back = Memcpy3DParms {
            src_array: 0x4000 as *mut c_void,
            src_pos: Triple { x: 0, y: 0, z: 1 },
            dst_array: std::ptr::null_mut(),
            dst_pos: Triple { x: 0, y: 0, z: 0 },
            dst_ptr: p.src_ptr,
            src_ptr: p.dst_ptr,
            extent: Triple { x: 2, y: 1, z: 1 },
            kind: 2,
        };
        assert_eq!(
            copy3d_rows_with(&back, &shape).unwrap(),
            [(0x1000, 0x4000 + 3 * 64, 32, 2)]
        );
        // a box past the array's rows, slices or row end, or an unknown handle: invalid value
        for (pos, ext) in [
            ((1, 2, 0), (2, 2, 1)),
            ((0, 0, 1), (1, 1, 2)),
            ((3, 0, 0), (2, 1, 1)),
        ] {
            let q = Memcpy3DParms {
                dst_pos: Triple {
                    x: pos.0,
                    y: pos.1,
                    z: pos.2,
                },
                extent: Triple {
                    x: ext.0,
                    y: ext.1,
                    z: ext.2,
                },
                ..p
            };
            assert_eq!(copy3d_rows_with(&q, &shape), Err(1), "{pos:?} {ext:?}");
        }
        let unknown = Memcpy3DParms {
            dst_array: 0x5000 as *mut c_void,
            ..p
        };
        assert_eq!(copy3d_rows_with(&unknown, &shape), Err(1));
        // no array: the linear rows as before
        let linear = Memcpy3DParms {
            dst_array: std::ptr::null_mut(),
            dst_ptr: PitchedPtr {
                ptr: 0x9000 as *mut c_void,
                pitch: 64,
                xsize: 16,
                ysize: 3,
            },
            dst_pos: Triple { x: 0, y: 0, z: 0 },
            extent: Triple { x: 5, y: 1, z: 1 },
            ..p
        };
        assert_eq!(
            copy3d_rows_with(&linear, &shape).unwrap(),
            [(0x9000, 0x1000 + 8, 5, 1)]
        );
    }
}
