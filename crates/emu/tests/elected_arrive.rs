//! A warp whose elected lane runs a body holding a guarded trap (`@p bra L; brkpt; L:`, as
//! CUTLASS's device asserts compile) and whose 32 lanes then all arrive on an mbarrier that
//! expects 32 arrivals and wait on it (CUTLASS's epilogue-load producer): the lanes must rejoin
//! after the body, not only at the kernel's end, or the elected lane waits forever for its
//! siblings' arrivals.

use warpscope_emu::{Arg, Launch, Limits, run};

const SRC: &str = r#".version 8.0
.target sm_90a
.address_size 64
.visible .entry producer(.param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<8>;
    .reg .pred %p<8>;
    .shared .align 8 .b8 bar[8];
    .shared .align 4 .b8 x[4];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    mov.u32 %r3, x;
    mov.u32 %r4, %cluster_ctarank;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [%r2], 32;
    fence.mbarrier_init.release.cluster;
    barrier.cluster.arrive.relaxed.aligned;
    barrier.cluster.wait.aligned;
    // the elected lane stores x; a guard that never fails jumps over a breakpoint
    mov.u32 %r5, -1;
    mov.u32 %r6, 0;
    {
    .reg .b32 %rx;
    .reg .pred %px;
    elect.sync %rx|%px, %r5;
    @%px mov.u32 %r6, 1;
    }
    setp.ne.u32 %p2, %r6, 0;
    setp.ne.u32 %p3, %r2, -1;
    @!%p2 bra JOIN;
    @%p3 bra BODY;
    brkpt;
BODY:
    add.u32 %r7, %r4, 500;
    st.shared.u32 [%r3], %r7;
JOIN:
    // every lane arrives (through mapa to its own rank, as CUTLASS's ClusterBarrier::arrive)
    {
    .reg .b32 remAddr32;
    mapa.shared::cluster.u32 remAddr32, %r2, %r4;
    mbarrier.arrive.shared::cluster.b64 _, [remAddr32];
    }
    mov.u32 %r8, 0;
    mov.u32 %r9, 10000000;
    {
    .reg .pred P1;
    LAB_WAIT:
    mbarrier.try_wait.parity.shared::cta.b64 P1, [%r2], %r8, %r9;
    @P1 bra DONE;
    bra LAB_WAIT;
    DONE:
    }
    ld.shared.u32 %r10, [%r3];
    add.u32 %r11, %r10, %r1;
    mov.u32 %r12, %ctaid.x;
    mad.lo.u32 %r13, %r12, 32, %r1;
    mul.wide.u32 %rd2, %r13, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r11;
    ret;
}
"#;

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Every lane of block `b` (rank `b % cluster`) writes `500 + rank + lane`.
fn expected(blocks: u32, cluster: u32) -> Vec<u32> {
    (0..blocks)
        .flat_map(|b| (0..32).map(move |l| 500 + b % cluster + l))
        .collect()
}

#[test]
fn the_elected_lane_rejoins_its_warp_before_the_mbarrier_wait() {
    let prog = warpscope_ptx::compile(SRC).unwrap();
    for cluster in [1u32, 2] {
        let mut l = Launch::new([4, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 4 * 32 * 4])]);
        if cluster > 1 {
            l.cluster = Some([cluster, 1, 1]);
        }
        let res = run(&prog, "producer", &l, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "cluster {cluster}: {:?}", res.faults);
        assert_eq!(
            words(res.buffer(0).unwrap()),
            expected(4, cluster),
            "cluster {cluster}"
        );
    }
}
