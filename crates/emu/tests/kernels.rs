//! Runs real nvcc output (tests/data, regenerate with tests/data/regen.sh) and compares the
//! output buffers with CPU references computed here; checks the seed kernels' shared accesses.

#![allow(clippy::needless_range_loop)] // index loops mirror the CUDA references

use std::path::PathBuf;

use warpscope_emu::{
    AccessOp, Arg, BranchEvent, FaultKind, Launch, Limits, MemEvent, Program, SharedRemap, Sink, Space, run,
};

fn program(file: &str) -> Program {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    let src = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{}: {e:#?}", p.display()))
}

fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn as_u32(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_f64(b: &[u8]) -> Vec<f64> {
    b.chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Deterministic pseudo-random numbers (xorshift).
fn rng(seed: u64, n: usize) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 16) as u32
        })
        .collect()
}

/// Records shared accesses: (warp, pc, op, width, mask, addrs).
#[derive(Default, Clone, PartialEq, Debug)]
struct Rec {
    shared: Vec<(u32, u32, AccessOp, u8, u32, Vec<u64>)>,
    branches: Vec<BranchEvent>,
    releases: u32,
    insts: u64,
}

impl Sink for Rec {
    fn mem(&mut self, e: &MemEvent<'_>) {
        if e.space == Space::Shared {
            let a = (0..32)
                .filter(|l| e.mask >> l & 1 != 0)
                .map(|l| e.addrs[l])
                .collect();
            self.shared.push((e.warp, e.pc, e.op, e.width, e.mask, a));
        }
    }
    fn branch(&mut self, e: &BranchEvent) {
        self.branches.push(*e);
    }
    fn barrier_release(&mut self, _b: u32, _pc: u32, _g: u32) {
        self.releases += 1;
    }
    fn inst(&mut self, _w: u32, _pc: u32, _a: u32) {
        self.insts += 1;
    }
}

/// Brute-force shared wavefronts of one 4-byte-per-lane request: the largest number of distinct
/// 4-byte words that fall into one of 32 banks.
fn ways(addrs: &[u64]) -> usize {
    let mut per_bank: Vec<Vec<u64>> = vec![Vec::new(); 32];
    for &a in addrs {
        let word = a / 4;
        let b = &mut per_bank[(word % 32) as usize];
        if !b.contains(&word) {
            b.push(word);
        }
    }
    per_bank.iter().map(|b| b.len()).max().unwrap_or(0)
}

struct Seed {
    name: &'static str,
    dyn_smem: u32,
    /// expected output for thread (x, y)
    expect: fn(u32, u32) -> u32,
    store_ways: usize,
    load_ways: usize,
}

fn check_seed(prog: &Program, s: &Seed, bx: u32, by: u32) {
    let n = (bx * by) as usize;
    let mut launch = Launch::new([1, 1, 1], [bx, by, 1], vec![Arg::Buffer(vec![0; n * 4])]);
    launch.dyn_smem = s.dyn_smem;
    let r = run(prog, s.name, &launch, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{}: {:?}", s.name, r.faults);
    let out = as_u32(r.buffer(0).unwrap());
    for y in 0..by {
        for x in 0..bx {
            assert_eq!(
                out[(y * bx + x) as usize],
                (s.expect)(x, y),
                "{} ({x},{y})",
                s.name
            );
        }
    }
    let rec = &r.sinks[0];
    assert_eq!(rec.releases, 1, "{}", s.name);
    // one shared store and one shared load per warp, full mask, 4 bytes
    let nwarps = (n / 32) as u32;
    for w in 0..nwarps {
        let ev: Vec<_> = rec.shared.iter().filter(|e| e.0 == w).collect();
        assert_eq!(ev.len(), 2, "{} warp {w}: {ev:?}", s.name);
        assert_eq!(ev[0].2, AccessOp::Store);
        assert_eq!(ev[1].2, AccessOp::Load);
        for e in &ev {
            assert_eq!((e.3, e.4), (4, u32::MAX), "{}", s.name);
        }
        assert_eq!(ways(&ev[0].5), s.store_ways, "{} store ways", s.name);
        assert_eq!(ways(&ev[1].5), s.load_ways, "{} load ways", s.name);
    }
}

#[test]
fn seed_square_kernels() {
    let p = program("seeds_square.ptx");
    let seeds = [
        Seed {
            name: "setRowReadRow",
            dyn_smem: 0,
            expect: |x, y| y * 32 + x,
            store_ways: 1,
            load_ways: 1,
        },
        Seed {
            name: "setColReadCol",
            dyn_smem: 0,
            expect: |x, y| y * 32 + x,
            store_ways: 32,
            load_ways: 32,
        },
        Seed {
            name: "setRowReadCol",
            dyn_smem: 0,
            expect: |x, y| x * 32 + y,
            store_ways: 1,
            load_ways: 32,
        },
        Seed {
            name: "setRowReadColDyn",
            dyn_smem: 32 * 32 * 4,
            expect: |x, y| x * 32 + y,
            store_ways: 1,
            load_ways: 32,
        },
        Seed {
            name: "setRowReadColPad",
            dyn_smem: 0,
            expect: |x, y| x * 32 + y,
            store_ways: 1,
            load_ways: 1,
        },
        Seed {
            name: "setRowReadColDynPad",
            dyn_smem: 32 * 33 * 4,
            expect: |x, y| x * 32 + y,
            store_ways: 1,
            load_ways: 1,
        },
    ];
    for s in &seeds {
        check_seed(&p, s, 32, 32);
    }
}

#[test]
fn seed_rect_kernels() {
    let p = program("seeds_rect.ptx");
    // 32x16 block; tile[16][32] read by column: icol = idx % 16, irow = idx / 16
    let t = |x: u32, y: u32| {
        let idx = y * 32 + x;
        (idx % 16) * 32 + idx / 16
    };
    let seeds = [
        Seed {
            name: "setRowReadRowRect",
            dyn_smem: 0,
            expect: |x, y| y * 32 + x,
            store_ways: 1,
            load_ways: 1,
        },
        // tile[32][16]: a warp (fixed y, x = 0..31) writes column y: 16-word stride → 16-way
        Seed {
            name: "setColReadColRect",
            dyn_smem: 0,
            expect: |x, y| y * 32 + x,
            store_ways: 16,
            load_ways: 16,
        },
        Seed {
            name: "setRowReadColRect",
            dyn_smem: 0,
            expect: t,
            store_ways: 1,
            load_ways: 16,
        },
        Seed {
            name: "setRowReadColRectDyn",
            dyn_smem: 32 * 16 * 4,
            expect: t,
            store_ways: 1,
            load_ways: 16,
        },
        Seed {
            name: "setRowReadColRectPad",
            dyn_smem: 0,
            expect: t,
            store_ways: 1,
            load_ways: 1,
        },
        Seed {
            name: "setRowReadColRectDynPad",
            dyn_smem: 16 * 34 * 4,
            expect: t,
            store_ways: 1,
            load_ways: 1,
        },
    ];
    for s in &seeds {
        check_seed(&p, s, 32, 16);
    }
}

#[test]
fn transpose_non_multiple_size() {
    let p = program("kernels.ptx");
    let n = 70usize;
    let a: Vec<f32> = (0..n * n).map(|i| i as f32 * 0.5).collect();
    let l = Launch::new(
        [3, 3, 1],
        [32, 32, 1],
        vec![
            Arg::Buffer(bytes_f32(&a)),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "transpose", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_f32(r.buffer(1).unwrap());
    for y in 0..n {
        for x in 0..n {
            assert_eq!(out[y * n + x], a[x * n + y]);
        }
    }
}

#[test]
fn reduce_with_dynamic_shared() {
    let p = program("kernels.ptx");
    let n = 1000usize;
    let v: Vec<u32> = rng(7, n).iter().map(|x| x % 1000).collect();
    let mut l = Launch::new(
        [4, 1, 1],
        [256, 1, 1],
        vec![
            Arg::Buffer(bytes_u32(&v)),
            Arg::Buffer(vec![0; 16]),
            Arg::I32(n as i32),
        ],
    );
    l.dyn_smem = 256 * 4;
    let r = run(&p, "reduce", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(1).unwrap());
    for b in 0..4 {
        let s: u32 = v.iter().skip(b * 256).take(256).sum();
        assert_eq!(out[b], s);
    }
    // 1 + log2(256) barriers per block
    assert!(r.sinks.iter().all(|s| s.releases == 9));
    // `if (tid < st)` diverges inside a warp once st < 32
    assert!(
        r.sinks[0]
            .branches
            .iter()
            .any(|b| b.taken != 0 && b.taken != b.active)
    );
}

#[test]
fn tiled_matmul() {
    let p = program("kernels.ptx");
    let n = 64usize;
    let a: Vec<f32> = rng(1, n * n)
        .iter()
        .map(|x| (x % 17) as f32 * 0.25 - 2.0)
        .collect();
    let b: Vec<f32> = rng(2, n * n)
        .iter()
        .map(|x| (x % 13) as f32 * 0.5 - 3.0)
        .collect();
    let l = Launch::new(
        [4, 4, 1],
        [16, 16, 1],
        vec![
            Arg::Buffer(bytes_f32(&a)),
            Arg::Buffer(bytes_f32(&b)),
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "matmul", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let c = as_f32(r.buffer(2).unwrap());
    for i in 0..n {
        for j in 0..n {
            let mut acc = 0f32;
            for k in 0..n {
                acc = a[i * n + k].mul_add(b[k * n + j], acc);
            }
            // small multiples of 1/4: every partial sum is exact
            assert_eq!(c[i * n + j], acc, "({i},{j})");
        }
    }
}

#[test]
fn inclusive_scan() {
    let p = program("kernels.ptx");
    let v: Vec<u32> = rng(3, 512).iter().map(|x| x % 100).collect();
    let l = Launch::new(
        [2, 1, 1],
        [256, 1, 1],
        vec![Arg::Buffer(bytes_u32(&v)), Arg::Buffer(vec![0; 512 * 4])],
    );
    let r = run(&p, "scan", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(1).unwrap());
    for b in 0..2 {
        let mut s = 0;
        for i in 0..256 {
            s += v[b * 256 + i];
            assert_eq!(out[b * 256 + i], s);
        }
    }
}

#[test]
fn shuffle_reduce_and_ballot() {
    let p = program("kernels.ptx");
    let v: Vec<f32> = rng(4, 128).iter().map(|x| (x % 9) as f32 - 4.0).collect();
    let l = Launch::new(
        [2, 1, 1],
        [64, 1, 1],
        vec![Arg::Buffer(bytes_f32(&v)), Arg::Buffer(vec![0; 8 * 4])],
    );
    let r = run(&p, "shfl_reduce", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(1).unwrap());
    for w in 0..4 {
        // lane 0's value after the down-shuffle tree = sum of the warp (exact: small integers)
        let s: f32 = v[w * 32..w * 32 + 32].iter().sum();
        assert_eq!(f32::from_bits(out[w]), s);
        // ballot of v > 0 after the reduction, computed with PTX shfl.down semantics
        let mut vals = v[w * 32..w * 32 + 32].to_vec();
        for o in [16, 8, 4, 2, 1] {
            let old = vals.clone();
            for l in 0..32 {
                // out-of-range source lanes return the lane's own value
                vals[l] = old[l] + if l + o < 32 { old[l + o] } else { old[l] };
            }
        }
        let ballot = (0..32).fold(0u32, |m, l| m | (u32::from(vals[l] > 0.0) << l));
        assert_eq!(out[4 + w], ballot);
    }
}

#[test]
fn histogram_with_shared_and_global_atomics() {
    let p = program("kernels.ptx");
    let n = 5000usize;
    let v: Vec<u8> = rng(5, n).iter().map(|x| *x as u8).collect();
    let l = Launch::new(
        [4, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(v.clone()),
            Arg::Buffer(vec![0; 64 * 4]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "histogram", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let h = as_u32(r.buffer(1).unwrap());
    let mut e = vec![0u32; 64];
    for x in &v {
        e[(*x & 63) as usize] += 1;
    }
    assert_eq!(h, e);
    assert!(r.sinks[0].shared.iter().any(|s| s.2 == AccessOp::Atomic));
}

#[test]
fn divergent_branches_loops_and_device_calls() {
    let p = program("kernels.ptx");
    let n = 300usize;
    let v: Vec<u32> = rng(6, n).iter().map(|x| x % 500 + 1).collect();
    let l = Launch::new(
        [3, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(bytes_u32(&v)),
            Arg::Buffer(vec![0; n * 4]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "divergent", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(1).unwrap());
    for i in 0..n {
        let x = v[i] as i32;
        let e = if x % 3 == 0 {
            let mut y = x + 1;
            let mut s = 0;
            while y != 1 {
                y = if y & 1 == 1 { 3 * y + 1 } else { y / 2 };
                s += 1;
            }
            s
        } else if x % 3 == 1 {
            -x * 7
        } else {
            (0..(x & 15)).map(|k| k * x).sum()
        };
        assert_eq!(out[i] as i32, e, "i={i} x={x}");
    }
    assert!(
        r.sinks[0]
            .branches
            .iter()
            .any(|b| b.taken != 0 && b.taken != b.active)
    );
}

#[test]
fn f64_arithmetic() {
    let p = program("kernels.ptx");
    let n = 100usize;
    let v: Vec<f64> = (0..n).map(|i| (i as f64 - 50.0) * 0.37).collect();
    let l = Launch::new(
        [1, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(bytes_f64(&v)),
            Arg::Buffer(vec![0; n * 8]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "f64ops", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_f64(r.buffer(1).unwrap());
    for i in 0..n {
        let x = v[i];
        let e = x.abs().sqrt() * 1.5 + x / 3.0 - ((x * 4.0) as i64 as f64) + x.min(0.25);
        assert!(
            (out[i] - e).abs() <= 1e-12 * e.abs().max(1.0),
            "{i}: {} vs {e}",
            out[i]
        );
    }
}

#[test]
fn vector_loads_and_stores() {
    let p = program("kernels.ptx");
    let n = 50usize;
    let v: Vec<f32> = (0..n * 4).map(|i| i as f32 + 0.5).collect();
    let l = Launch::new(
        [1, 1, 1],
        [64, 1, 1],
        vec![
            Arg::Buffer(bytes_f32(&v)),
            Arg::Buffer(vec![0; n * 16]),
            Arg::Buffer(vec![0; n * 8]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "vec4copy", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let o = as_f32(r.buffer(1).unwrap());
    let o2 = as_f32(r.buffer(2).unwrap());
    for i in 0..n {
        let q = &v[i * 4..i * 4 + 4];
        assert_eq!(&o[i * 4..i * 4 + 4], &[q[3], q[2], q[1], q[0]]);
        assert_eq!(&o2[i * 2..i * 2 + 2], &[q[0] + q[1], q[2] * q[3]]);
    }
}

#[test]
fn integer_operations() {
    let p = program("kernels.ptx");
    let n = 200usize;
    let mut v = rng(8, n);
    v[0] = 0;
    v[1] = u32::MAX;
    v[2] = 0x8000_0000;
    let l = Launch::new(
        [2, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(bytes_u32(&v)),
            Arg::Buffer(vec![0; n * 32]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "intops", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let o = as_u32(r.buffer(1).unwrap());
    for i in 0..n {
        let x = v[i];
        let s = x as i32;
        let e = [
            x.count_ones() + x.leading_zeros(),
            x.reverse_bits() ^ (x >> 7),
            ((s / 7) as u32).wrapping_add((s % 5) as u32),
            ((x as u64 * 2654435761u64) >> 32) as u32,
            (s.min(1000) as u32).wrapping_add(x.max(77)),
            ((x >> 3) & 0x1f) | ((x & 7) << 20),
            ((x as u64 * x as u64) >> 17) as u32,
            (s as f32 * 0.5 + x as f32).to_bits(),
        ];
        assert_eq!(&o[i * 8..i * 8 + 8], &e, "x={x:#x}");
    }
}

#[test]
fn out_of_bounds_is_a_fault_not_a_panic() {
    let p = program("kernels.ptx");
    let n = 64usize;
    let l = Launch::new(
        [2, 2, 1],
        [32, 32, 1],
        vec![
            Arg::Buffer(vec![0; n * n * 4]),
            Arg::Buffer(vec![0; 100]),
            Arg::I32(n as i32),
        ],
    );
    let r = run(&p, "transpose", &l, &Limits::default(), |_| ()).unwrap();
    assert_eq!(r.faults.len(), 4);
    let f = r.faults[0];
    assert_eq!(f.kind, FaultKind::OutOfBounds { space: Space::Global });
    assert!(f.lane.is_some() && f.addr.is_some());
    assert!(p.inst_info(f.pc).text.starts_with("st.global"));
}

const HAND: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry divbar()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<2>;\n mov.u32 %r1, %tid.x;\n\
 setp.lt.u32 %p1, %r1, 16;\n @%p1 bra $L1;\n bar.sync 0;\n$L1:\n ret;\n}\n\
.visible .entry spin()\n{\n$L2:\n bra.uni $L2;\n}\n";

#[test]
fn divergent_barrier_and_runaway_loop_are_faults() {
    let p = warpscope_ptx::compile(HAND).unwrap();
    let r = run(
        &p,
        "divbar",
        &Launch::new([1, 1, 1], [64, 1, 1], vec![]),
        &Limits::default(),
        |_| (),
    )
    .unwrap();
    assert_eq!(r.faults.len(), 1);
    assert_eq!(r.faults[0].kind, FaultKind::DivergentBarrier);
    let lim = Limits {
        max_warp_insts_per_block: 1000,
        ..Limits::default()
    };
    let r = run(
        &p,
        "spin",
        &Launch::new([2, 1, 1], [32, 1, 1], vec![]),
        &lim,
        |_| (),
    )
    .unwrap();
    assert_eq!(r.faults.len(), 2);
    assert_eq!(r.faults[0].kind, FaultKind::InstructionLimit);
    assert_eq!(r.counters.warp_insts, 2000);
}

#[test]
fn bad_launches_are_errors() {
    let p = program("kernels.ptx");
    let e = run(
        &p,
        "nope",
        &Launch::new([1, 1, 1], [1, 1, 1], vec![]),
        &Limits::default(),
        |_| (),
    );
    assert!(e.unwrap_err().to_string().contains("transpose"));
    let e = run(
        &p,
        "reduce",
        &Launch::new([1, 1, 1], [2048, 1, 1], vec![]),
        &Limits::default(),
        |_| (),
    );
    assert!(e.is_err());
    let l = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(vec![]), Arg::Buffer(vec![]), Arg::F64(1.0)],
    );
    let e = run(&p, "reduce", &l, &Limits::default(), |_| ()).unwrap_err();
    assert!(e.to_string().contains("argument 2"), "{e}");
}

#[test]
fn results_do_not_depend_on_thread_count_and_sampling_works() {
    let p = program("kernels.ptx");
    let n = 64usize;
    let a: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
    let mk = || {
        Launch::new(
            [2, 2, 1],
            [32, 32, 1],
            vec![
                Arg::Buffer(bytes_f32(&a)),
                Arg::Buffer(vec![0; n * n * 4]),
                Arg::I32(n as i32),
            ],
        )
    };
    let go = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| run(&p, "transpose", &mk(), &Limits::default(), |_| Rec::default()).unwrap())
    };
    let (r1, r2) = (go(1), go(3));
    assert_eq!(r1.sinks, r2.sinks);
    assert_eq!(r1.buffers, r2.buffers);
    let mut l = mk();
    l.blocks = Some(vec![3, 1]);
    let r = run(&p, "transpose", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert_eq!(r.block_ids, vec![3, 1]);
    assert_eq!(r.sinks[0], r1.sinks[3]);
    assert_eq!(r.sinks[1], r1.sinks[1]);
}

/// Runs a seed kernel (32x32 block) with the given remaps; returns the output and the recorder.
fn seed_run(p: &Program, name: &str, dyn_smem: u32, remap: Vec<SharedRemap>) -> (Vec<u8>, Rec) {
    let mut l = Launch::new([1, 1, 1], [32, 32, 1], vec![Arg::Buffer(vec![0; 4096])]);
    l.dyn_smem = dyn_smem;
    l.remap = remap;
    let mut r = run(p, name, &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{name}: {:?}", r.faults);
    (r.buffer(0).unwrap().to_vec(), r.sinks.remove(0))
}

const PAD: SharedRemap = SharedRemap::Pad {
    base: 0,
    len: 4096,
    row_bytes: 128,
    pad_bytes: 4,
};
/// Swizzle<5, 2, 5>: the 4-byte column is XORed with the row (o >> 7).
const SWIZZLE: SharedRemap = SharedRemap::Swizzle {
    base: 0,
    len: 4096,
    bits: 5,
    base_shift: 2,
    shift: 5,
};

#[test]
fn remapped_layouts_leave_results_unchanged() {
    let p = program("seeds_square.ptx");
    for (name, dyn_smem) in [
        ("setRowReadCol", 0),
        ("setColReadCol", 0),
        ("setRowReadColDyn", 4096),
    ] {
        let (plain, _) = seed_run(&p, name, dyn_smem, vec![]);
        // A bank permutation: every row of 32 words reversed and rotated by its row index.
        let permute = SharedRemap::Permute {
            base: 0,
            len: 4096,
            unit: 4,
            table: (0..1024u32)
                .map(|u| u / 32 * 32 + (31 - u % 32 + u / 32) % 32)
                .collect(),
        };
        for remap in [PAD, SWIZZLE, permute] {
            let (out, rec) = seed_run(&p, name, dyn_smem, vec![remap.clone()]);
            assert_eq!(out, plain, "{name} with {remap:?}");
            assert_eq!(rec.releases, 1);
        }
    }
}

#[test]
fn events_report_remapped_addresses() {
    let p = program("seeds_square.ptx");
    let (_, plain) = seed_run(&p, "setRowReadCol", 0, vec![]);
    let (_, pad) = seed_run(&p, "setRowReadCol", 0, vec![PAD]);
    let (_, sw) = seed_run(&p, "setRowReadCol", 0, vec![SWIZZLE]);
    // warp 0 (y = 0): store tile[0][x] at 4x, load tile[x][0] at 128x
    let loads = |r: &Rec| -> Vec<u64> {
        r.shared
            .iter()
            .find(|e| e.0 == 0 && e.2 == AccessOp::Load)
            .unwrap()
            .5
            .clone()
    };
    let want_plain: Vec<u64> = (0..32).map(|x| 128 * x).collect();
    let want_pad: Vec<u64> = (0..32).map(|x| 132 * x).collect();
    let want_sw: Vec<u64> = (0..32).map(|x| 128 * x + 4 * x).collect(); // column 0 ^ row x
    assert_eq!(loads(&plain), want_plain);
    assert_eq!(loads(&pad), want_pad);
    assert_eq!(loads(&sw), want_sw);
    // the column read goes from 32-way conflicts to none; stores stay conflict-free
    for r in [&pad, &sw] {
        for e in &r.shared {
            assert_eq!(ways(&e.5), 1, "{e:?}");
        }
    }
    assert_eq!(ways(&loads(&plain)), 32);
}

#[test]
fn bad_remap_is_an_error() {
    let p = program("seeds_square.ptx");
    let mut l = Launch::new([1, 1, 1], [32, 32, 1], vec![Arg::Buffer(vec![0; 4096])]);
    l.remap = vec![SharedRemap::Pad {
        base: 0,
        len: 8192,
        row_bytes: 128,
        pad_bytes: 4,
    }];
    let e = run(&p, "setRowReadCol", &l, &Limits::default(), |_| ()).unwrap_err();
    assert!(e.to_string().contains("remap"), "{e}");
}

/// Named barriers: warp 1 produces into shared and `bar.arrive 1, 64`; warp 0 waits with
/// `bar.sync 1, 64` and consumes. Warp 0 runs first, so it must block until warp 1 arrives.
const NAMED: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry prodcons(.param .u64 out)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n\
 .shared .align 4 .b8 buf[128];\n\
 mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 32;\n @%p1 bra $PROD;\n\
 bar.sync 1, 64;\n and.b32 %r2, %r1, 31;\n shl.b32 %r3, %r2, 2;\n mov.u32 %r4, buf;\n add.s32 %r5, %r4, %r3;\n\
 ld.shared.u32 %r6, [%r5];\n ld.param.u64 %rd1, [out];\n mul.wide.u32 %rd2, %r2, 4;\n add.s64 %rd3, %rd1, %rd2;\n\
 st.global.u32 [%rd3], %r6;\n ret;\n\
$PROD:\n and.b32 %r2, %r1, 31;\n shl.b32 %r3, %r2, 2;\n mov.u32 %r4, buf;\n add.s32 %r5, %r4, %r3;\n mul.lo.u32 %r7, %r2, 10;\n\
 st.shared.u32 [%r5], %r7;\n bar.arrive 1, 64;\n ret;\n}\n";

#[test]
fn named_barrier_producer_consumer() {
    let p = warpscope_ptx::compile(NAMED).unwrap();
    let l = Launch::new([1, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 128])]);
    let r = run(&p, "prodcons", &l, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(0).unwrap());
    assert_eq!(out, (0..32).map(|x| x * 10).collect::<Vec<u32>>());
    assert_eq!(r.sinks[0].releases, 1);
}

/// f16 and bf16 conversions and arithmetic, and a prmt mode, end to end through the lowering.
const HALF: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry half(.param .u64 out)\n{\n .reg .b16 %h<6>;\n .reg .b32 %r<4>;\n .reg .f32 %f<4>;\n .reg .b64 %rd<2>;\n\
 mov.u32 %r1, %tid.x;\n cvt.rn.f32.u32 %f1, %r1;\n cvt.rn.f16.f32 %h1, %f1;\n add.f16 %h2, %h1, %h1;\n\
 fma.rn.f16 %h3, %h2, %h1, %h1;\n cvt.f32.f16 %f2, %h3;\n cvt.rn.bf16.f32 %h4, %f2;\n mul.rn.bf16 %h5, %h4, %h4;\n\
 cvt.f32.bf16 %f3, %h5;\n prmt.b32.rc8 %r2, %r1, 0, 0;\n\
 ld.param.u64 %rd1, [out];\n st.global.v2.f32 [%rd1], {%f2, %f3};\n st.global.u32 [%rd1+8], %r2;\n ret;\n}\n";

#[test]
fn half_precision_and_prmt_modes_run() {
    let p = warpscope_ptx::compile(HALF).unwrap_or_else(|e| panic!("{e:#?}"));
    let l = Launch::new([1, 1, 1], [1, 1, 1], vec![Arg::Buffer(vec![0; 12])]);
    let r = run(&p, "half", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffer(0).unwrap();
    // tid 0: everything is zero
    assert_eq!(out, &[0u8; 12]);
    let l = Launch::new([1, 1, 1], [4, 1, 1], vec![Arg::Buffer(vec![0; 12])]);
    let r = run(&p, "half", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    // every thread stores to the same place (lane 3 last); x = 3: 2x*x + x = 21 (exact in f16),
    // 21*21 = 441 needs 9 bits: a tie in bf16 between 440 and 442, to even: 440
    let f = as_f32(&r.buffer(0).unwrap()[..8]);
    assert_eq!(f, vec![21.0, 440.0]);
    assert_eq!(as_u32(&r.buffer(0).unwrap()[8..]), vec![0x0303_0303]);
}

/// `bar.red` (`__syncthreads_count`, `_and`, `_or`, nvcc output of
/// calibration/equivalence/features/syncReduce.cu): every thread of a block gets the block's
/// reduction, the partial last warp included. Inputs: block 0 all positive, block 1 none, block 2
/// one NaN and thread 37 positive, block 3 every third thread positive.
#[test]
fn block_predicate_reductions() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/equivalence/features/syncReduce.ptx");
    let p = warpscope_ptx::compile(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut input = vec![0f32; 320];
    for t in 0..80 {
        input[t] = 1.0;
        input[80 + t] = -1.0;
        input[160 + t] = if t == 37 { 0.75 } else { 0.25 };
        input[240 + t] = if t % 3 == 0 { 2.0 } else { 0.0 };
    }
    input[160 + 5] = f32::NAN;
    let l = Launch::new(
        [4, 1, 1],
        [80, 1, 1],
        vec![Arg::Buffer(vec![0; 1280]), Arg::Buffer(bytes_f32(&input))],
    );
    let r = run(&p, "syncReduce", &l, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = as_u32(r.buffer(0).unwrap());
    for b in 0..4 {
        let block = &input[b * 80..b * 80 + 80];
        let count = block.iter().filter(|&&v| v > 0.5).count() as u32;
        let all = block.iter().all(|v| !v.is_nan());
        let any = block[37] > 0.5;
        let want = count * 4 + 2 * u32::from(all) + u32::from(any);
        assert!(
            out[b * 80..b * 80 + 80].iter().all(|&x| x == want),
            "block {b}: want {want}, got {:?}",
            &out[b * 80..b * 80 + 80]
        );
    }
    // The values differ per block, so each reduction is tested both ways.
    assert_eq!(
        [out[0], out[80], out[160], out[240]],
        [80 * 4 + 2 + 1, 2, 4 + 1, 27 * 4 + 2]
    );
}

/// A struct passed by value arrives as raw parameter bytes (`.param .align 4 .b8 d[12]`); a length
/// other than the parameter's size is an error naming the parameter.
#[test]
fn struct_by_value_as_raw_bytes() {
    let src = ".version 9.5\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 out, .param .align 4 .b8 d[12])\n{\n\
        .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n\
        ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n\
        ld.param.u32 %r1, [d];\n ld.param.u32 %r2, [d+4];\n ld.param.f32 %r3, [d+8];\n\
        st.global.u32 [%rd2], %r1;\n st.global.u32 [%rd2+4], %r2;\n st.global.u32 [%rd2+8], %r3;\n\
        ret;\n}\n";
    let prog = warpscope_ptx::compile(src).unwrap();
    let mut d = Vec::new();
    d.extend(64i32.to_le_bytes());
    d.extend(32i32.to_le_bytes());
    d.extend(2.5f32.to_le_bytes());
    let launch = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer(vec![0; 12]), Arg::Bytes(d.clone())],
    );
    let res = run(&prog, "k", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    assert_eq!(res.buffer(0).unwrap(), &d[..]);
    let short = Launch::new(
        [1, 1, 1],
        [1, 1, 1],
        vec![Arg::Buffer(vec![0; 12]), Arg::Bytes(vec![0; 8])],
    );
    let err = run(&prog, "k", &short, &Limits::default(), |_| ())
        .unwrap_err()
        .to_string();
    assert!(err.contains("12 bytes") && err.contains("argument 8"), "{err}");
}
