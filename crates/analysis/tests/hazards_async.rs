//! `cp.async` copies are in flight until the issuing thread's `cp.async.wait_group` /
//! `wait_all`: a shared access to their destination before that is a race finding; the same
//! kernels with the wait (and, across warps, a barrier after it) are clean.

use std::sync::Arc;

use warpscope_analysis::hazards::{
    AsyncOps, Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc,
};
use warpscope_emu::{Arg, Launch, Limits, run};

/// 64 threads; thread t copies 16 bytes to buf[16t] (group 0) and to buf[1024 + 16t] (group 1),
/// then runs `between`, then reads the u32 at `read` (a PTX expression of %r2 = 16t) and stores it.
fn check(between: &str, read: &str) -> Vec<Finding> {
    let src = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 src, .param .u64 dst)\n{{\n\
         .reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n\
         .shared .align 16 .b8 buf[2048];\n\
         ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [dst];\n\
         mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 4;\n\
         mov.u32 %r3, buf;\nadd.u32 %r4, %r3, %r2;\nadd.u32 %r9, %r4, 1024;\n\
         cvt.u64.u32 %rd3, %r2;\nadd.u64 %rd4, %rd1, %rd3;\n\
         cp.async.cg.shared.global [%r4], [%rd4], 16;\n\
         cp.async.commit_group;\n\
         cp.async.ca.shared.global [%r9], [%rd4], 16;\n\
         cp.async.commit_group;\n\
         {between}\n\
         {read}\n\
         add.u32 %r6, %r3, %r5;\nld.shared.u32 %r7, [%r6];\n\
         add.u64 %rd5, %rd2, %rd3;\nst.global.u32 [%rd5], %r7;\n\
         ret;\n}}\n"
    );
    let p = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}"));
    let k = p.kernel("k").unwrap();
    let cfg = Arc::new(HazardConfig::for_kernel(k, [64, 1, 1], 0));
    let ops = Arc::new(AsyncOps::of(&p));
    let launch = Launch::new(
        [1, 1, 1],
        [64, 1, 1],
        vec![Arg::Buffer(vec![7; 1024]), Arg::Buffer(vec![0; 1024])],
    );
    let r = run(&p, "k", &launch, &Limits::default(), |b| {
        HazardSink::new(Arc::clone(&cfg), b).with_async_ops(Arc::clone(&ops))
    })
    .unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let mut rep = HazardReport::new(Arc::clone(&cfg));
    for s in r.sinks {
        rep.merge(s);
    }
    rep.findings(&|pc| Loc {
        line: Some(pc),
        label: format!("pc {pc}"),
    })
}

fn in_flight(f: &[Finding]) -> usize {
    f.iter()
        .filter(|f| f.kind == FindingKind::Race && f.message.contains("still in flight"))
        .count()
}

const OWN: &str = "mov.u32 %r5, %r2;";
const OWN_SECOND: &str = "add.u32 %r5, %r2, 1024;";
/// thread t reads what thread (t + 32) % 64 copied: another warp
const OTHER_WARP: &str = "add.u32 %r5, %r2, 512;\nand.b32 %r5, %r5, 1023;";

#[test]
fn reading_a_copy_before_its_wait_is_a_race() {
    let f = check("", OWN);
    assert_eq!(in_flight(&f), 1, "{f:#?}");
    let m = &f
        .iter()
        .find(|f| f.message.contains("in flight"))
        .unwrap()
        .message;
    assert!(m.starts_with("shared read at pc "), "{m}");
    assert!(m.contains("cp.async.wait_group"), "{m}");
}

#[test]
fn wait_group_zero_and_wait_all_complete_every_copy() {
    assert_eq!(in_flight(&check("cp.async.wait_group 0;", OWN)), 0);
    assert_eq!(in_flight(&check("cp.async.wait_all;", OWN_SECOND)), 0);
}

#[test]
fn wait_group_one_leaves_the_newest_group_in_flight() {
    assert_eq!(in_flight(&check("cp.async.wait_group 1;", OWN)), 0);
    assert_eq!(in_flight(&check("cp.async.wait_group 1;", OWN_SECOND)), 1);
}

#[test]
fn another_warp_needs_the_copier_to_wait_before_the_barrier() {
    // the barrier orders the accesses, but the copy is still in flight: only this tracking sees it
    let f = check("bar.sync 0;", OTHER_WARP);
    assert_eq!(in_flight(&f), 1, "{f:#?}");
    assert!(
        f.iter()
            .all(|f| f.kind != FindingKind::Race || f.message.contains("in flight"))
    );
    assert_eq!(
        in_flight(&check("cp.async.wait_all;\nbar.sync 0;", OTHER_WARP)),
        0
    );
}

#[test]
fn a_write_into_a_copy_in_flight_is_a_race_too() {
    let src_free = check("st.shared.u32 [%r4], %r1;\ncp.async.wait_all;", OWN);
    assert_eq!(in_flight(&src_free), 1);
    assert!(src_free.iter().any(|f| f.message.starts_with("shared write at")));
}
