//! Thread-block clusters and distributed shared memory: the `%cluster_*` special registers,
//! `mapa` (shared::cluster and generic), `ld`/`st`/`atom`/`red` on another block's shared memory,
//! remote `mbarrier` arrivals, `barrier.cluster.arrive`/`wait`, the launch's cluster checks, and
//! the same bytes whatever the number of host threads.

use warpscope_emu::{Arg, EmuError, FaultKind, Launch, Limits, run};

const HEAD: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

/// Each block of a cluster writes `rank * 1000 + tid` into the next rank's `s[tid]` (through
/// `mapa.shared::cluster` and `st.shared::cluster`, or with `generic` through `mapa.u64` and a
/// generic store), passes the cluster barrier, and copies its own `s[tid]` to
/// `out[ctaid.x * ntid + tid]`.
fn ring(generic: bool) -> String {
    ring_with(if generic {
        "cvta.shared.u64 %rd4, %rd5;\n mapa.u64 %rd6, %rd4, %r5;\n st.u32 [%rd6], %r10;"
    } else {
        "mapa.shared::cluster.u32 %r9, %r8, %r5;\n st.shared::cluster.u32 [%r9], %r10;"
    })
}

/// [`ring`] with another way to store into the next rank's slot (`%r8` its own slot's
/// shared::cta address, `%rd5` the same as 64 bits, `%r5` the next rank, `%r10` the value).
fn ring_with(store: &str) -> String {
    format!(
        r#"{HEAD}
.visible .entry ring(.param .u64 out)
{{
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    .shared .align 4 .b8 s[256];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %cluster_nctarank;
    mov.u32 %r3, %tid.x;
    add.u32 %r4, %r1, 1;
    rem.u32 %r5, %r4, %r2;
    mov.u32 %r6, s;
    shl.b32 %r7, %r3, 2;
    add.u32 %r8, %r6, %r7;
    cvt.u64.u32 %rd5, %r8;
    mad.lo.u32 %r10, %r1, 1000, %r3;
    barrier.cluster.arrive.relaxed.aligned;
    barrier.cluster.wait.aligned;
    {store}
    fence.acq_rel.cluster;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    ld.shared.u32 %r11, [%r8];
    mov.u32 %r12, %ctaid.x;
    mov.u32 %r13, %ntid.x;
    mad.lo.u32 %r14, %r12, %r13, %r3;
    mul.wide.u32 %rd2, %r14, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r11;
    ret;
}}
"#
    )
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn ring_launch(blocks: u32, cluster: u32) -> Launch {
    let mut l = Launch::new(
        [blocks, 1, 1],
        [64, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * 64 * blocks as usize])],
    );
    l.cluster = Some([cluster, 1, 1]);
    l
}

#[test]
fn each_block_writes_the_next_ranks_shared_memory() {
    for generic in [false, true] {
        let prog = warpscope_ptx::compile(&ring(generic)).unwrap();
        for (blocks, n) in [(8, 4), (6, 2), (8, 8), (3, 1)] {
            let res = run(&prog, "ring", &ring_launch(blocks, n), &Limits::default(), |_| ()).unwrap();
            assert!(res.faults.is_empty(), "{:?}", res.faults);
            let out = words(res.buffer(0).unwrap());
            for b in 0..blocks {
                let rank = b % n;
                let prev = (rank + n - 1) % n;
                for t in 0..64 {
                    assert_eq!(
                        out[(b * 64 + t) as usize],
                        prev * 1000 + t,
                        "generic {generic}, {blocks} blocks in clusters of {n}: block {b} thread {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn generic_and_shared_cluster_addresses_convert_both_ways() {
    // a generic mapa, back to a shared::cluster address with cvta, a shared::cluster store; and a
    // shared::cluster mapa made generic with cvta, a generic store
    for store in [
        "cvta.shared.u64 %rd4, %rd5;\n mapa.u64 %rd6, %rd4, %r5;\n cvta.to.shared::cluster.u64 %rd7, %rd6;\n cvt.u32.u64 %r9, %rd7;\n st.shared::cluster.u32 [%r9], %r10;",
        "mapa.shared::cluster.u32 %r9, %r8, %r5;\n cvt.u64.u32 %rd4, %r9;\n cvta.shared::cluster.u64 %rd6, %rd4;\n st.u32 [%rd6], %r10;",
        // a red through the generic address: the slot starts at 0
        "mapa.shared::cluster.u32 %r9, %r8, %r5;\n cvt.u64.u32 %rd4, %r9;\n cvta.shared::cluster.u64 %rd6, %rd4;\n red.add.u32 [%rd6], %r10;",
    ] {
        let prog = warpscope_ptx::compile(&ring_with(store)).unwrap();
        let res = run(&prog, "ring", &ring_launch(8, 4), &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{store}: {:?}", res.faults);
        let out = words(res.buffer(0).unwrap());
        for b in 0..8u32 {
            for t in 0..64u32 {
                assert_eq!(
                    out[(b * 64 + t) as usize],
                    ((b % 4) + 3) % 4 * 1000 + t,
                    "{store}: block {b}"
                );
            }
        }
    }
}

#[test]
fn a_rank_outside_the_cluster_faults() {
    // rank + 2 names no block of a cluster of 2
    let src = ring(false).replace("rem.u32 %r5, %r4, %r2;", "add.u32 %r5, %r4, 1;");
    let prog = warpscope_ptx::compile(&src).unwrap();
    let res = run(&prog, "ring", &ring_launch(4, 2), &Limits::default(), |_| ()).unwrap();
    assert!(!res.faults.is_empty());
    assert!(
        matches!(res.faults[0].kind, FaultKind::OutOfBounds { .. }),
        "{:?}",
        res.faults
    );
}

/// Thread 0 of each block writes the cluster special registers to `out[block * 16 ..]`.
const SPECIALS: &str = r#"
.visible .entry specials(.param .u64 out)
{
    .reg .b32 %r<40>;
    .reg .b64 %rd<40>;
    .reg .pred %p<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra DONE;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ctaid.y;
    mov.u32 %r4, %ctaid.z;
    mov.u32 %r5, %nctaid.x;
    mov.u32 %r6, %nctaid.y;
    mad.lo.u32 %r7, %r4, %r6, %r3;
    mad.lo.u32 %r8, %r7, %r5, %r2;
    mul.wide.u32 %rd2, %r8, 64;
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r10, %cluster_ctarank;
    st.global.u32 [%rd3], %r10;
    mov.u32 %r11, %cluster_nctarank;
    st.global.u32 [%rd3+4], %r11;
    mov.u32 %r12, %cluster_ctaid.x;
    st.global.u32 [%rd3+8], %r12;
    mov.u32 %r13, %cluster_ctaid.y;
    st.global.u32 [%rd3+12], %r13;
    mov.u32 %r14, %cluster_ctaid.z;
    st.global.u32 [%rd3+16], %r14;
    mov.u32 %r15, %cluster_nctaid.x;
    st.global.u32 [%rd3+20], %r15;
    mov.u32 %r16, %cluster_nctaid.y;
    st.global.u32 [%rd3+24], %r16;
    mov.u32 %r17, %cluster_nctaid.z;
    st.global.u32 [%rd3+28], %r17;
    mov.u32 %r18, %clusterid.x;
    st.global.u32 [%rd3+32], %r18;
    mov.u32 %r19, %clusterid.y;
    st.global.u32 [%rd3+36], %r19;
    mov.u32 %r20, %clusterid.z;
    st.global.u32 [%rd3+40], %r20;
    mov.u32 %r21, %nclusterid.x;
    st.global.u32 [%rd3+44], %r21;
    mov.u32 %r22, %nclusterid.y;
    st.global.u32 [%rd3+48], %r22;
    mov.u32 %r23, %nclusterid.z;
    st.global.u32 [%rd3+52], %r23;
    mov.pred %p2, %is_explicit_cluster;
    selp.u32 %r24, 1, 0, %p2;
    st.global.u32 [%rd3+56], %r24;
DONE:
    ret;
}
"#;

#[test]
fn cluster_special_registers() {
    let prog = warpscope_ptx::compile(&format!("{HEAD}{SPECIALS}")).unwrap();
    let grid = [4u32, 2, 4];
    for (cluster, explicit) in [(Some([2u32, 1, 2]), 1u32), (Some([1, 2, 4]), 1), (None, 0)] {
        let dims = cluster.unwrap_or([1, 1, 1]);
        let mut l = Launch::new(grid, [32, 1, 1], vec![Arg::Buffer(vec![0; 64 * 32])]);
        l.cluster = cluster;
        let res = run(&prog, "specials", &l, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{:?}", res.faults);
        let out = words(res.buffer(0).unwrap());
        for z in 0..grid[2] {
            for y in 0..grid[1] {
                for x in 0..grid[0] {
                    let b = (x + grid[0] * (y + grid[1] * z)) as usize;
                    let c = [x % dims[0], y % dims[1], z % dims[2]];
                    let want = [
                        c[0] + dims[0] * (c[1] + dims[1] * c[2]),
                        dims[0] * dims[1] * dims[2],
                        c[0],
                        c[1],
                        c[2],
                        dims[0],
                        dims[1],
                        dims[2],
                        x / dims[0],
                        y / dims[1],
                        z / dims[2],
                        grid[0] / dims[0],
                        grid[1] / dims[1],
                        grid[2] / dims[2],
                        explicit,
                    ];
                    assert_eq!(
                        &out[16 * b..16 * b + 15],
                        &want,
                        "cluster {cluster:?}, block ({x},{y},{z})"
                    );
                }
            }
        }
    }
}

/// A histogram over the cluster's shared memories: bin `v` (64 bins) lives in rank `v % 4`'s
/// `bins[v / 4]`. Each thread adds its value's bin with `red.shared::cluster` and, to show
/// `atom` returns the old count, `atom.shared::cluster` once more into a second table; every
/// block also bumps a global counter (so clusters race on global memory), then each block
/// writes its bins to `out`.
const HIST: &str = r#"
.visible .entry hist(.param .u64 out, .param .u64 total)
{
    .reg .b32 %r<40>;
    .reg .b64 %rd<20>;
    .reg .pred %p<4>;
    .shared .align 4 .b8 bins[64];
    .shared .align 4 .b8 seen[64];
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd9, [total];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %cluster_ctarank;
    setp.lt.u32 %p1, %r1, 16;
    shl.b32 %r4, %r1, 2;
    mov.u32 %r5, bins;
    add.u32 %r6, %r5, %r4;
    mov.u32 %r7, 0;
    @%p1 st.shared.u32 [%r6], %r7;
    mov.u32 %r30, seen;
    add.u32 %r31, %r30, %r4;
    @%p1 st.shared.u32 [%r31], %r7;
    barrier.cluster.arrive.aligned;
    barrier.cluster.wait.aligned;
    // v = (ctaid * 128 + tid) * 7 % 64
    shl.b32 %r8, %r2, 7;
    add.u32 %r9, %r8, %r1;
    mul.lo.u32 %r10, %r9, 7;
    and.b32 %r11, %r10, 63;
    and.b32 %r12, %r11, 3;
    shr.u32 %r13, %r11, 2;
    shl.b32 %r14, %r13, 2;
    add.u32 %r15, %r5, %r14;
    mapa.shared::cluster.u32 %r16, %r15, %r12;
    red.shared::cluster.add.u32 [%r16], 1;
    add.u32 %r32, %r30, %r14;
    mapa.shared::cluster.u32 %r33, %r32, %r12;
    atom.shared::cluster.add.u32 %r34, [%r33], 1;
    setp.ne.u32 %p3, %r1, 0;
    @%p3 bra SKIP;
    atom.global.add.u32 %r35, [%rd9], 1;
SKIP:
    barrier.cluster.arrive.aligned;
    barrier.cluster.wait.aligned;
    @!%p1 bra DONE;
    ld.shared.u32 %r20, [%r6];
    ld.shared.u32 %r36, [%r31];
    add.u32 %r37, %r36, %r20;
    // out[(ctaid * 16 + tid)] = bins[tid] + seen[tid] (each counts the bin)
    shl.b32 %r21, %r2, 4;
    add.u32 %r22, %r21, %r1;
    mul.wide.u32 %rd2, %r22, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r37;
DONE:
    ret;
}
"#;

fn hist_launch(blocks: u32) -> Launch {
    let mut l = Launch::new(
        [blocks, 1, 1],
        [128, 1, 1],
        vec![
            Arg::Buffer(vec![0; 64 * blocks as usize]),
            Arg::Buffer(vec![0; 4]),
        ],
    );
    l.cluster = Some([4, 1, 1]);
    l
}

#[test]
fn a_histogram_in_distributed_shared_memory() {
    let prog = warpscope_ptx::compile(&format!("{HEAD}{HIST}")).unwrap();
    let blocks = 8u32;
    let res = run(&prog, "hist", &hist_launch(blocks), &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let out = words(res.buffer(0).unwrap());
    for cluster in 0..blocks / 4 {
        let mut want = [0u32; 64];
        for b in cluster * 4..cluster * 4 + 4 {
            for t in 0..128 {
                want[((b * 128 + t) * 7 % 64) as usize] += 2;
            }
        }
        for rank in 0..4 {
            let b = cluster * 4 + rank;
            for i in 0..16 {
                assert_eq!(
                    out[(b * 16 + i) as usize],
                    want[(4 * i + rank) as usize],
                    "block {b} bin {i}"
                );
            }
        }
    }
    assert_eq!(words(res.buffer(1).unwrap()), [blocks]);
}

#[test]
fn clusters_give_the_same_bytes_on_one_and_eight_threads() {
    let hist = warpscope_ptx::compile(&format!("{HEAD}{HIST}")).unwrap();
    let ring = warpscope_ptx::compile(&ring(false)).unwrap();
    let go = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let h = run(&hist, "hist", &hist_launch(32), &Limits::default(), |_| ()).unwrap();
            let r = run(&ring, "ring", &ring_launch(32, 8), &Limits::default(), |_| ()).unwrap();
            (h.buffers, r.buffers, h.block_ids, r.block_ids)
        })
    };
    let one = go(1);
    assert_eq!(one.2, (0..32).collect::<Vec<u32>>());
    for _ in 0..3 {
        assert_eq!(go(8), one);
    }
}

/// Rank 1 stores a value into rank 0's `x` and arrives on rank 0's mbarrier through
/// `mbarrier.arrive.release.cluster.shared::cluster`; rank 0 waits on its barrier (polling with
/// `try_wait.parity`) and copies `x` to `out[clusterid]`.
const REMOTE_ARRIVE: &str = r#"
.visible .entry handoff(.param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    .shared .align 8 .b8 bar[8];
    .shared .align 4 .b8 x[4];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, bar;
    mov.u32 %r4, x;
    setp.eq.u32 %p1, %r2, 0;
    setp.eq.u32 %p2, %r1, 0;
    and.pred %p3, %p1, %p2;
    @%p3 mbarrier.init.shared::cta.b64 [%r3], 1;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.relaxed.aligned;
    barrier.cluster.wait.aligned;
    @!%p1 bra DONE;
    @%p2 bra WAIT;
    mov.u32 %r5, 0;
    mapa.shared::cluster.u32 %r6, %r4, %r5;
    mapa.shared::cluster.u32 %r7, %r3, %r5;
    mov.u32 %r8, %clusterid.x;
    add.u32 %r9, %r8, 77;
    st.shared::cluster.u32 [%r6], %r9;
    mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r7];
    bra DONE;
WAIT:
    mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r3], 0;
    @!%p1 bra WAIT;
    ld.shared.u32 %r10, [%r4];
    mov.u32 %r11, %clusterid.x;
    mul.wide.u32 %rd2, %r11, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r10;
DONE:
    barrier.cluster.arrive.aligned;
    barrier.cluster.wait.aligned;
    ret;
}
"#;

#[test]
fn a_remote_mbarrier_arrival_releases_the_waiting_block() {
    let prog = warpscope_ptx::compile(&format!("{HEAD}{REMOTE_ARRIVE}")).unwrap();
    let mut l = Launch::new([6, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 12])]);
    l.cluster = Some([2, 1, 1]);
    let res = run(&prog, "handoff", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    assert_eq!(words(res.buffer(0).unwrap()), [77, 78, 79]);
}

#[test]
fn a_cluster_whose_blocks_never_release_each_other_stops() {
    // rank 1 never arrives: rank 0 polls forever
    let src = format!("{HEAD}{REMOTE_ARRIVE}").replace(
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r7];",
        "",
    );
    let prog = warpscope_ptx::compile(&src).unwrap();
    let mut l = Launch::new([2, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 4])]);
    l.cluster = Some([2, 1, 1]);
    let res = run(&prog, "handoff", &l, &Limits::default(), |_| ()).unwrap();
    assert_eq!(res.faults.len(), 1, "{:?}", res.faults);
    assert_eq!(res.faults[0].kind, FaultKind::ClusterDeadlock);
    // the report names the barrier rank 0 waits on: its phase 0 still expects its one arrival
    let m = res.faults[0].mbar.expect("the waited-on mbarrier");
    assert_eq!(
        (m.parity, m.phase, m.pending, m.expected, m.tx),
        (0, 0, 1, 1, 0),
        "{m:?}"
    );
    let k = prog.kernel("handoff").unwrap();
    let bar = k.shared.iter().find(|v| v.name == "bar").unwrap();
    assert_eq!(m.offset, bar.offset, "{m:?}");
}

#[test]
fn cluster_dimensions_are_checked() {
    let prog = warpscope_ptx::compile(&ring(false)).unwrap();
    let bad = |blocks: u32, cluster: [u32; 3], nonportable: bool| {
        let mut l = ring_launch(blocks, 1);
        l.cluster = Some(cluster);
        l.cluster_nonportable = nonportable;
        match run(&prog, "ring", &l, &Limits::default(), |_| ()) {
            Err(EmuError::BadLaunch(m)) => m,
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("{blocks} blocks in clusters of {cluster:?} accepted"),
        }
    };
    assert!(bad(6, [4, 1, 1], false).contains("not a whole number"));
    assert!(bad(16, [16, 1, 1], false).contains("over the 8"));
    assert!(bad(32, [32, 1, 1], true).contains("over the 16"));
    assert!(bad(4, [0, 1, 1], false).contains("at least 1"));
    let mut l = ring_launch(16, 16);
    l.cluster_nonportable = true;
    let res = run(&prog, "ring", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
}

#[test]
fn cluster_dims_written_in_the_kernel() {
    let src = ring(false).replace(
        ".visible .entry ring(.param .u64 out)\n",
        ".visible .entry ring(.param .u64 out)\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n.maxclusterrank 4\n",
    );
    let prog = warpscope_ptx::compile(&src).unwrap();
    let k = prog.kernel("ring").unwrap();
    assert_eq!(k.reqnctapercluster, Some([4, 1, 1]));
    assert!(k.explicitcluster);
    // a plain launch runs in the kernel's clusters of 4
    let mut l = ring_launch(8, 1);
    l.cluster = None;
    let res = run(&prog, "ring", &l, &Limits::default(), |_| ()).unwrap();
    let out = words(res.buffer(0).unwrap());
    assert_eq!(out[64], 0); // block 1 (rank 1) holds rank 0's: 0 * 1000 + 0
    assert_eq!(out[0], 3 * 1000);
    // other dimensions than the kernel's are refused
    let l = ring_launch(8, 2);
    assert!(matches!(
        run(&prog, "ring", &l, &Limits::default(), |_| ()),
        Err(EmuError::BadLaunch(m)) if m.contains("__cluster_dims__")
    ));
    // `.explicitcluster` alone needs the launch's dimensions
    let src = ring(false).replace(
        ".visible .entry ring(.param .u64 out)\n",
        ".visible .entry ring(.param .u64 out)\n.explicitcluster\n",
    );
    let prog = warpscope_ptx::compile(&src).unwrap();
    let mut l = ring_launch(8, 1);
    l.cluster = None;
    assert!(matches!(
        run(&prog, "ring", &l, &Limits::default(), |_| ()),
        Err(EmuError::BadLaunch(m)) if m.contains("explicit")
    ));
}

#[test]
fn a_cluster_barrier_in_a_plain_launch_is_a_block_barrier() {
    // clusters of one block: each thread reads the slot of the thread 32 apart (another warp),
    // which the barrier must have let that warp write first
    let src = ring(false).replace("s[256]", "s[1024]").replace(
        "ld.shared.u32 %r11, [%r8];",
        "xor.b32 %r15, %r8, 128;\n    ld.shared.u32 %r11, [%r15];",
    );
    let prog = warpscope_ptx::compile(&src).unwrap();
    let mut l = ring_launch(3, 1);
    l.cluster = None;
    l.block = [256, 1, 1];
    l.args = vec![Arg::Buffer(vec![0; 4 * 256 * 3])];
    // plain, and cooperative (whose blocks run in turns)
    for cooperative in [false, true] {
        l.cooperative = cooperative;
        let res = run(&prog, "ring", &l, &Limits::default(), |_| ()).unwrap();
        assert!(
            res.faults.is_empty(),
            "cooperative {cooperative}: {:?}",
            res.faults
        );
        let out = words(res.buffer(0).unwrap());
        for (i, &v) in out.iter().enumerate() {
            assert_eq!(v, (i % 256) as u32 ^ 32, "cooperative {cooperative}: thread {i}");
        }
    }
}
