//! The small sm_90a instructions: `elect.sync` (the lowest executing lane, with its lane id),
//! `setmaxnreg` (accepted, its counts recorded on the kernel), `fence.proxy.async` variants,
//! `prefetch.tensormap` and `griddepcontrol` (no effect in a stream that runs its launches one
//! after another).

use warpscope_emu::{Arg, Launch, Limits, run};

const HEAD: &str = ".version 8.0\n.target sm_90a\n.address_size 64\n";

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Lanes with `lane % (warp + 2) >= warp % 3` execute `elect.sync` with the full mask and write
/// `leader << 8 | elected` to `out[tid]`; the others leave `0xffffffff` there.
const ELECT: &str = r#"
.visible .entry electk(.param .u64 out)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r2, -1;
    st.global.u32 [%rd3], %r2;
    and.b32 %r3, %r1, 31;
    shr.u32 %r4, %r1, 5;
    add.u32 %r5, %r4, 2;
    rem.u32 %r6, %r4, 3;
    rem.u32 %r7, %r3, %r5;
    setp.lt.u32 %p1, %r7, %r6;
    @%p1 bra DONE;
    activemask.b32 %r8;
    elect.sync %r9|%p2, %r8;
    selp.u32 %r10, 1, 0, %p2;
    shl.b32 %r11, %r9, 8;
    or.b32 %r12, %r11, %r10;
    st.global.u32 [%rd3], %r12;
    elect.sync _|%p3, -1;
DONE:
    ret;
}
"#;

#[test]
fn elect_sync_elects_the_lowest_executing_lane() {
    let prog = warpscope_ptx::compile(&format!("{HEAD}{ELECT}")).unwrap();
    let l = Launch::new([1, 1, 1], [256, 1, 1], vec![Arg::Buffer(vec![0; 1024])]);
    let res = run(&prog, "electk", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let out = words(res.buffer(0).unwrap());
    for w in 0..8u32 {
        let (k, s) = (w + 2, w % 3);
        let leader = (0..32).find(|l| l % k >= s).unwrap();
        for lane in 0..32u32 {
            let v = out[(w * 32 + lane) as usize];
            if lane % k < s {
                assert_eq!(v, u32::MAX, "warp {w} lane {lane} did not execute");
            } else {
                assert_eq!(v, leader << 8 | u32::from(lane == leader), "warp {w} lane {lane}");
            }
        }
    }
}

/// Warpgroup 0 gives registers back, warpgroup 1 takes more; both store `tid * 3`, after the
/// async-proxy fences, a tensor-map prefetch and the dependent-launch controls.
const REALLOC: &str = r#"
.visible .entry realloc(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %p<2>;
    griddepcontrol.wait;
    ld.param.u64 %rd1, [out];
    prefetch.tensormap [%rd1];
    fence.proxy.async;
    fence.proxy.async.shared::cta;
    fence.proxy.async.global;
    fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 128;
    @%p1 bra DEC;
    setmaxnreg.inc.sync.aligned.u32 232;
    bra STORE;
DEC:
    setmaxnreg.dec.sync.aligned.u32 40;
STORE:
    mul.lo.u32 %r2, %r1, 3;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    griddepcontrol.launch_dependents;
    ret;
}
"#;

#[test]
fn setmaxnreg_is_recorded_and_the_no_ops_change_nothing() {
    let prog = warpscope_ptx::compile(&format!("{HEAD}{REALLOC}")).unwrap();
    let k = prog.kernel("realloc").unwrap();
    assert_eq!(k.setmaxnreg, vec![(true, 232), (false, 40)]);
    let l = Launch::new([2, 1, 1], [256, 1, 1], vec![Arg::Buffer(vec![0; 1024])]);
    let res = run(&prog, "realloc", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    let out = words(res.buffer(0).unwrap());
    assert_eq!(out, (0..256).map(|t| t * 3).collect::<Vec<u32>>());
}

#[test]
fn malformed_forms_fail_the_kernel_with_a_reason() {
    for (bad, why) in [
        ("setmaxnreg.inc.sync.aligned.u32 20;", "multiple of 8"),
        ("setmaxnreg.inc.sync.aligned.u32 %r1;", "immediate"),
        ("setmaxnreg.sync.aligned.u32 64;", ".inc or .dec"),
        ("barrier.cluster.sync;", "unsupported"),
        ("mbarrier.init.shared::cluster.b64 [%r1], 1;", "only arrivals"),
        ("mapa.shared::cluster.f32 %r1, %r1, 0;", ".u32 or .u64"),
    ] {
        let src = format!(
            "{HEAD}.visible .entry k()\n{{\n .reg .b32 %r<4>;\n mov.u32 %r1, 0;\n {bad}\n ret;\n}}\n\
             .visible .entry ok()\n{{\n ret;\n}}\n"
        );
        let prog = warpscope_ptx::compile(&src).unwrap();
        let errs = prog
            .kernel_error("k")
            .unwrap_or_else(|| panic!("`{bad}` lowered"));
        assert!(errs.iter().any(|e| e.message.contains(why)), "`{bad}`: {errs:?}");
    }
}
