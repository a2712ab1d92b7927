//! `float_order`: where a value of float sums made by atomics decides (a branch, an address, an
//! integer) and where it only flows into floats, on small PTX kernels written for the test.

use std::collections::BTreeSet;

use warpscope_analysis::float_order::{FloatOrder, float_order};

fn program(body: &str) -> warpscope_ptx::Program {
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 s, .param .u64 out)\n{{\n\
         .reg .pred %p<4>;\n.reg .f32 %f<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         .shared .align 4 .b8 buf[128];\n\
         ld.param.u64 %rd1, [s];\nld.param.u64 %rd2, [out];\n\
         cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n\
         mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\n\
         {body}\nret;\n}}\n"
    );
    warpscope_ptx::compile(&text).unwrap()
}

/// `float_order` with the sums in parameter 0's region (`s`) or nowhere.
fn run(body: &str, s_holds_sums: bool) -> (FloatOrder, Vec<String>) {
    let p = program(body);
    let f = float_order(&p, "k", |w| s_holds_sums && w == (0, 0), false).unwrap();
    let k = p.kernel("k").unwrap();
    let texts = (k.entry..k.end)
        .map(|pc| p.inst_info(pc).text.trim().to_string())
        .collect();
    (f, texts)
}

fn decision_text(f: &FloatOrder, body: &str) -> Option<String> {
    let p = program(body);
    f.decision.map(|pc| p.inst_info(pc).text.trim().to_string())
}

fn words(w: &[(usize, u32)]) -> Option<BTreeSet<(usize, u32)>> {
    Some(w.iter().copied().collect())
}

const COMPARE: &str = "ld.global.f32 %f1, [%rd3];\n\
    setp.gt.f32 %p1, %f1, 0f3F000000;\n\
    @%p1 bra DONE;\n\
    st.global.f32 [%rd6], %f1;\n\
    DONE:";

#[test]
fn a_sum_compared_and_branched_on_decides() {
    let (f, _) = run(COMPARE, true);
    assert_eq!(decision_text(&f, COMPARE).as_deref(), Some("@%p1 bra DONE"));
    // the float it stores on the other side holds the sums' bits too
    assert_eq!(f.sums, words(&[(1, 0)]));
    // the same kernel on data no atomic summed decides nothing and leaves no sums
    let (f, _) = run(COMPARE, false);
    assert_eq!(
        f,
        FloatOrder {
            decision: None,
            sums: words(&[])
        }
    );
}

#[test]
fn a_sum_only_scaled_into_floats_decides_nothing() {
    let body = "ld.global.f32 %f1, [%rd3];\nmul.f32 %f2, %f1, 0f3A83126F;\nst.global.f32 [%rd6], %f2;";
    let (f, _) = run(body, true);
    assert_eq!(f.decision, None);
    assert_eq!(f.sums, words(&[(1, 0)]));
}

#[test]
fn a_sum_converted_to_an_integer_and_stored_decides() {
    let body = "ld.global.f32 %f1, [%rd3];\ncvt.rzi.s32.f32 %r2, %f1;\nst.global.u32 [%rd6], %r2;";
    let (f, _) = run(body, true);
    assert_eq!(
        decision_text(&f, body).as_deref(),
        Some("st.global.u32 [%rd6], %r2")
    );
}

#[test]
fn a_sum_turned_into_an_address_decides() {
    let body = "ld.global.f32 %f1, [%rd3];\ncvt.rzi.u32.f32 %r2, %f1;\nand.b32 %r3, %r2, 31;\n\
        mul.wide.u32 %rd7, %r3, 4;\nadd.s64 %rd7, %rd4, %rd7;\nld.global.f32 %f2, [%rd7];\n\
        st.global.f32 [%rd6], %f2;";
    let (f, _) = run(body, true);
    assert_eq!(
        decision_text(&f, body).as_deref(),
        Some("ld.global.f32 %f2, [%rd7]")
    );
}

#[test]
fn a_sum_passed_through_shared_memory_then_compared_decides() {
    let body = "ld.global.f32 %f1, [%rd3];\nmov.u32 %r2, buf;\nst.shared.f32 [%r2], %f1;\n\
        bar.sync 0;\nld.shared.f32 %f2, [%r2+4];\nsetp.lt.f32 %p1, %f2, 0f00000000;\n\
        selp.u32 %r3, 1, 0, %p1;\nst.global.u32 [%rd6], %r3;";
    let (f, _) = run(body, true);
    assert_eq!(
        decision_text(&f, body).as_deref(),
        Some("st.global.u32 [%rd6], %r3")
    );
}

#[test]
fn a_selected_float_stored_as_a_float_decides_nothing() {
    // fmaxf by hand: the comparison picks one of two floats, stored as a float (which of the two
    // is the sums' rounding, not a decision the counters see)
    let body = "ld.global.f32 %f1, [%rd3];\nsetp.gt.f32 %p1, %f1, 0f3F800000;\n\
        selp.f32 %f2, %f1, 0f3F800000, %p1;\nst.global.f32 [%rd6], %f2;";
    let (f, _) = run(body, true);
    assert_eq!(f.decision, None);
}

#[test]
fn a_float_atomic_makes_sums_and_its_returned_value_decides() {
    // red: sums in `s`, nothing read back
    let body = "ld.global.f32 %f1, [%rd6];\nred.global.add.f32 [%rd3], %f1;";
    let (f, _) = run(body, false);
    assert_eq!(
        f,
        FloatOrder {
            decision: None,
            sums: words(&[(0, 0)])
        }
    );
    // atom: the value before the add depends on which adds ran first
    let body = "ld.global.f32 %f1, [%rd6];\natom.global.add.f32 %f2, [%rd3], %f1;\n\
        setp.eq.f32 %p1, %f2, 0f00000000;\n@%p1 st.global.u32 [%rd6], %r1;";
    let (f, _) = run(body, false);
    assert_eq!(
        decision_text(&f, body).as_deref(),
        Some("@%p1 st.global.u32 [%rd6], %r1")
    );
    // a load of the region its own atomics sum into, in the same launch, reads the sums
    let body = "ld.global.f32 %f1, [%rd6];\nred.global.add.f32 [%rd3], %f1;\nbar.sync 0;\n\
        ld.global.f32 %f2, [%rd3];\nsetp.gt.f32 %p1, %f2, 0f00000000;\n@%p1 bra DONE;\n\
        st.global.f32 [%rd6], %f2;\nDONE:";
    let (f, _) = run(body, false);
    assert_eq!(decision_text(&f, body).as_deref(), Some("@%p1 bra DONE"));
}

#[test]
fn integer_atomic_sums_are_no_float_sums() {
    // an integer sum is the same in any order: no sums, and a branch on it decides nothing here
    let body = "red.global.add.s32 [%rd3], 1;\nbar.sync 0;\nld.global.u32 %r2, [%rd3];\n\
        setp.gt.s32 %p1, %r2, 10;\n@%p1 bra DONE;\nst.global.u32 [%rd6], %r2;\nDONE:";
    let (f, texts) = run(body, false);
    assert!(
        texts.iter().any(|t| t.starts_with("red.global.add.s32")),
        "{texts:?}"
    );
    assert_eq!(
        f,
        FloatOrder {
            decision: None,
            sums: words(&[])
        }
    );
}

/// `float_order` on a whole module's text (kernel `k`), with the sums in parameter 0's region.
fn run_module(text: &str) -> (FloatOrder, Option<String>) {
    let p = warpscope_ptx::compile(text).unwrap();
    let f = float_order(&p, "k", |w| w == (0, 0), false).unwrap();
    let d = f.decision.map(|pc| p.inst_info(pc).text.trim().to_string());
    (f, d)
}

#[test]
fn lines_far_apart_in_one_function_keep_its_registers_together() {
    // the sum is loaded, ten comment lines go by, then it is compared and branched on: one
    // function's registers, however far apart its lines
    let comments = "// ...\n".repeat(10);
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 s, .param .u64 out)\n{{\n\
         .reg .pred %p<4>;\n.reg .f32 %f<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [s];\nld.param.u64 %rd2, [out];\n\
         cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n\
         ld.global.f32 %f1, [%rd3];\n{comments}\
         setp.gt.f32 %p1, %f1, 0f3F000000;\n@%p1 bra DONE;\nst.global.u32 [%rd4], 1;\nDONE:\nret;\n}}\n"
    );
    let (_, d) = run_module(&text);
    assert_eq!(d.as_deref(), Some("@%p1 bra DONE"));
}

/// A short callee written just above the kernel (its lines next to the kernel's), which branches
/// on its own `%p1` (from its argument, the thread index); the kernel's own `%p1` compares the
/// sum and only selects a float it stores.
const SHORT_CALLEE: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
    .func (.param .b32 r) pick(.param .b32 a)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
    ld.param.u32 %r1, [a];\nsetp.gt.u32 %p1, %r1, 5;\nmov.u32 %r2, 1;\n@%p1 bra SKIP;\nmov.u32 %r2, 2;\n\
    SKIP:\nst.param.b32 [r], %r2;\nret;\n}\n\
    .visible .entry k(.param .u64 s, .param .u64 out)\n{\n\
    .reg .pred %p<2>;\n.reg .f32 %f<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n\
    ld.param.u64 %rd1, [s];\nld.param.u64 %rd2, [out];\n\
    cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n\
    ld.global.f32 %f1, [%rd3];\nsetp.gt.f32 %p1, %f1, 0f3F800000;\n\
    selp.f32 %f2, %f1, 0f3F800000, %p1;\nst.global.f32 [%rd4], %f2;\n\
    mov.u32 %r1, %tid.x;\n\
    {\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\n\
    call.uni (pr), pick, (pa);\nld.param.b32 %r2, [pr];\n}\n\
    st.global.u32 [%rd4+4], %r2;\nret;\n}\n";

#[test]
fn a_short_callee_next_to_the_kernel_keeps_its_own_registers() {
    let (f, d) = run_module(SHORT_CALLEE);
    assert_eq!(d, None, "{f:?}");
    // the same callee branching on the sum the kernel passes it decides
    let passed = SHORT_CALLEE.replace(
        "st.param.b32 [pa], %r1;",
        "cvt.rzi.u32.f32 %r3, %f1;\nst.param.b32 [pa], %r3;",
    );
    let (_, d) = run_module(&passed);
    assert_eq!(d.as_deref(), Some("@%p1 bra SKIP"));
}

#[test]
fn two_copies_of_a_callee_are_bodies_of_their_own() {
    // the callee inlined twice, both copies given the thread index: each copy is a body of its
    // own (its registers apart from the kernel's and the other copy's), and neither decides
    let twice = SHORT_CALLEE.replace(
        "st.global.u32 [%rd4+4], %r2;",
        "{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\n\
         call.uni (pr), pick, (pa);\nld.param.b32 %r3, [pr];\n}\nst.global.u32 [%rd4+4], %r2;",
    );
    let p = warpscope_ptx::compile(&twice).unwrap();
    let f = float_order(&p, "k", |w| w == (0, 0), false).unwrap();
    assert_eq!(f.decision, None);
    let k = p.kernel("k").unwrap();
    let bodies: Vec<u32> = (k.entry..k.end)
        .filter(|&pc| p.inst_info(pc).text.trim() == "@%p1 bra SKIP")
        .map(|pc| p.inst_info(pc).body)
        .collect();
    assert_eq!(bodies.len(), 2);
    assert!(
        bodies[0] != 0 && bodies[1] != 0 && bodies[0] != bodies[1],
        "{bodies:?}"
    );
    let own = (k.entry..k.end)
        .find(|&pc| p.inst_info(pc).text.trim().starts_with("setp.gt.f32"))
        .unwrap();
    assert_eq!(p.inst_info(own).body, 0);
}

#[test]
fn counts_kept_at_a_bin_a_sum_picks_hold_order_dependent_values() {
    // atomicAdd(&hist[bin], 1), the bin from the sum: a decision here, and the histogram (parameter
    // 1) holds values that follow the sums' rounding
    let body = "ld.global.f32 %f1, [%rd3];\ncvt.rzi.u32.f32 %r2, %f1;\nand.b32 %r3, %r2, 15;\n\
        mul.wide.u32 %rd7, %r3, 4;\nadd.s64 %rd7, %rd4, %rd7;\nred.global.add.u32 [%rd7], 1;";
    let (f, _) = run(body, true);
    assert_eq!(
        decision_text(&f, body).as_deref(),
        Some("red.global.add.u32 [%rd7], 1")
    );
    assert_eq!(f.sums, words(&[(1, 0)]));
    // a plain store of a constant at the bin too
    let body = body.replace("red.global.add.u32 [%rd7], 1", "st.global.u32 [%rd7], 1");
    let (f, _) = run(&body, true);
    assert_eq!(f.sums, words(&[(1, 0)]));
    // the same histogram counted at a bin the thread index picks, beside a sum only added to
    // itself: no sums in it
    let body = "ld.global.f32 %f1, [%rd3];\nadd.f32 %f2, %f1, %f1;\nand.b32 %r3, %r1, 15;\n\
        mul.wide.u32 %rd7, %r3, 4;\nadd.s64 %rd7, %rd4, %rd7;\nred.global.add.u32 [%rd7], 1;";
    let (f, _) = run(body, true);
    assert_eq!(f.decision, None);
    assert_eq!(f.sums, words(&[]));
}
