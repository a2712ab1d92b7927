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
