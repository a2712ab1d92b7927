//! A `wgmma.mma_async` accumulator used before `wgmma.wait_group` retired its group is a
//! `wgmma_accumulator` finding; the same kernel with the wait first, or chaining a second
//! `wgmma.mma_async` onto the accumulators (allowed by the PTX ISA), is clean.

use std::sync::Arc;

use warpscope_analysis::hazards::{Finding, FindingKind, HazardConfig, HazardReport, HazardSink, Loc};
use warpscope_analysis::wgmma_hazards::WgmmaOps;
use warpscope_emu::{Arg, Launch, Limits, run};

/// One warpgroup; A and B are 64x16 / 16x8 f16 in shared memory (K-major, no swizzle); each
/// thread's four accumulators are stored after `body` (which holds the wgmma instructions).
fn check(body: &str) -> Vec<Finding> {
    let src = format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n\
         .visible .entry k(.param .u64 dst)\n{{\n\
         .reg .pred p;\n.reg .b32 %r<12>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<12>;\n\
         .shared .align 1024 .b8 buf[4096];\n\
         ld.param.u64 %rd1, [dst];\n\
         mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 4;\nmov.u32 %r3, buf;\nadd.u32 %r4, %r3, %r2;\n\
         mov.u32 %r5, 0x3c003c00;\n\
         st.shared.v4.u32 [%r4], {{%r5, %r5, %r5, %r5}};\nst.shared.v4.u32 [%r4+2048], {{%r5, %r5, %r5, %r5}};\n\
         bar.sync 0;\n\
         shr.u32 %r6, %r3, 4;\ncvt.u64.u32 %rd2, %r6;\n\
         or.b64 %rd3, %rd2, 0x0000001000080000;\n\
         add.u64 %rd4, %rd3, 128;\n\
         mov.f32 %f1, 0f00000000;\nmov.f32 %f2, 0f00000000;\nmov.f32 %f3, 0f00000000;\nmov.f32 %f4, 0f00000000;\n\
         setp.ne.u32 p, %r1, 1000;\n\
         wgmma.fence.sync.aligned;\n\
         {body}\n\
         mul.wide.u32 %rd5, %r1, 16;\nadd.u64 %rd6, %rd1, %rd5;\n\
         st.global.v4.f32 [%rd6], {{%f1, %f2, %f3, %f4}};\n\
         ret;\n}}\n"
    );
    let p = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:?}"));
    let k = p.kernel("k").unwrap();
    let cfg = Arc::new(HazardConfig::for_kernel(k, [128, 1, 1], 0));
    let ops = Arc::new(WgmmaOps::of(&p));
    assert!(!ops.is_empty());
    let launch = Launch::new([1, 1, 1], [128, 1, 1], vec![Arg::Buffer(vec![0; 2048])]);
    let r = run(&p, "k", &launch, &Limits::default(), |b| {
        HazardSink::new(Arc::clone(&cfg), b).with_wgmma_ops(Arc::clone(&ops))
    })
    .unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    // A and B are all ones: every D element is the sum of 16 (chained: 32) products of 1
    let out = r.buffer(0).unwrap();
    let first = f32::from_le_bytes(out[..4].try_into().unwrap());
    assert!(first == 16.0 || first == 32.0, "{first}");
    let mut rep = HazardReport::new(Arc::clone(&cfg));
    for s in r.sinks {
        rep.merge(s);
    }
    rep.findings(&|pc| Loc {
        line: Some(pc),
        label: format!("pc {pc}"),
    })
}

const MMA: &str =
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd3, %rd4, p, 1, 1, 0, 0;";

fn accum(f: &[Finding]) -> Vec<&Finding> {
    f.iter()
        .filter(|f| f.kind == FindingKind::WgmmaAccumulator)
        .collect()
}

#[test]
fn reading_an_accumulator_before_the_wait_is_a_finding() {
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\nmov.f32 %f5, %f2;\nwgmma.wait_group.sync.aligned 0;"
    ));
    let a = accum(&f);
    assert_eq!(a.len(), 1, "{f:#?}");
    assert!(
        a[0].message.contains("before a wgmma.wait_group"),
        "{}",
        a[0].message
    );
    assert_eq!(a[0].count, 4, "one per warp");
}

#[test]
fn waiting_for_an_older_group_only_leaves_the_newest_in_flight() {
    // wait_group 1 retires all but the newest committed group: the accumulators are still in flight
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\nmov.f32 %f5, %f2;\nwgmma.wait_group.sync.aligned 0;"
    ));
    assert_eq!(accum(&f).len(), 1, "{f:#?}");
    // uncommitted: no wait retires it
    let f = check(&format!(
        "{MMA}\nwgmma.wait_group.sync.aligned 0;\nmov.f32 %f5, %f1;\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;"
    ));
    assert_eq!(accum(&f).len(), 1, "{f:#?}");
}

#[test]
fn waiting_first_and_chaining_are_clean() {
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nmov.f32 %f5, %f2;"
    ));
    assert!(accum(&f).is_empty(), "{f:#?}");
    let f = check(&format!(
        "{MMA}\n{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;"
    ));
    assert!(accum(&f).is_empty(), "{f:#?}");
}

fn operand_races(f: &[Finding]) -> Vec<&Finding> {
    f.iter()
        .filter(|f| f.kind == FindingKind::Race && f.message.contains("wgmma.mma_async at"))
        .collect()
}

#[test]
fn writing_an_operand_before_the_wait_is_a_race() {
    // thread t rewrites its own 16 bytes of B (buf + 2048 + 16t) while the group is in flight
    let write = "st.shared.v4.u32 [%r4+2048], {%r5, %r5, %r5, %r5};";
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\n{write}\nwgmma.wait_group.sync.aligned 0;"
    ));
    let r = operand_races(&f);
    assert_eq!(r.len(), 1, "{f:#?}");
    assert!(r[0].message.contains("in flight"), "{}", r[0].message);
    // B is 8 rows of 32 bytes at buf + 2048 (LBO 128, SBO 256: rows at 16-byte steps, the two K
    // halves 128 bytes apart): threads 0-7 and 8-15 write its chunks
    assert!(r[0].example.threads[0] < 16, "{:?}", r[0].example);
    // after the wait the operands are free again
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n{write}"
    ));
    assert!(operand_races(&f).is_empty(), "{f:#?}");
}

/// A sparse m64n8k32: the same A (64x16 stored f16) and B (32x8 f16, K-major rows of 64 bytes
/// in the ones of buf + 2048), metadata 0x44444444 (elements 0 and 1 of every chunk of 4): every
/// D element is the sum of 16 products of 1, as the dense form's.
const SP_MMA: &str = "mov.u32 %r7, 0x44444444;\n\
     wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd3, %rd4, %r7, 0, p, 1, 1, 0, 0;";

#[test]
fn a_sparse_accumulator_read_before_the_wait_is_a_finding() {
    let f = check(&format!(
        "{SP_MMA}\nwgmma.commit_group.sync.aligned;\nmov.f32 %f5, %f3;\nwgmma.wait_group.sync.aligned 0;"
    ));
    let a = accum(&f);
    assert_eq!(a.len(), 1, "{f:#?}");
    assert_eq!(a[0].count, 4, "one per warp");
    let f = check(&format!(
        "{SP_MMA}\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\nmov.f32 %f5, %f3;"
    ));
    assert!(accum(&f).is_empty(), "{f:#?}");
}

#[test]
fn writing_a_sparse_operand_before_the_wait_is_a_race() {
    // every thread rewrites 16 bytes of buf + 2048 + 256.., where only the sparse form's B reads
    // (its K-major rows hold 64 bytes: K 32..63 lie 256 bytes and more past the start)
    let write = "and.b32 %r8, %r1, 15;\nshl.b32 %r8, %r8, 4;\nadd.u32 %r8, %r8, %r3;\n\
         st.shared.v4.u32 [%r8+2304], {%r5, %r5, %r5, %r5};";
    let f = check(&format!(
        "{SP_MMA}\nwgmma.commit_group.sync.aligned;\n{write}\nwgmma.wait_group.sync.aligned 0;"
    ));
    assert_eq!(operand_races(&f).len(), 1, "{f:#?}");
    // the dense form does not read there
    let f = check(&format!(
        "{MMA}\nwgmma.commit_group.sync.aligned;\n{write}\nwgmma.wait_group.sync.aligned 0;"
    ));
    assert!(operand_races(&f).is_empty(), "{f:#?}");
}
