//! Shared loads that ptxas moves below an early exit (`Reconciliation::with_sunk_loads`): a
//! kernel ending `ld.shared r; @p st.global [..], r; ret;` (Triton's masked epilogue: scans_2d and
//! sort_hist of calibration/hopper/triton2) becomes `@!P EXIT; LDS; STG; EXIT`, and the H200 runs
//! the `LDS` only for the lanes that store (scans_2d: 4 executions, 4 wavefronts, where its 16
//! warps reach the PTX load). Hand-written PTX and machine code in nvdisasm's form; the counts are
//! those of the lanes the machine code keeps.

use std::sync::Arc;

use warpscope_analysis::banks::{BankReport, BankSink, Side};
use warpscope_analysis::reconcile::{Reconciliation, machine_accesses, ptx_shared_accesses};
use warpscope_emu::mem::Global;
use warpscope_emu::{Arg, Launch, Limits, Program};
use warpscope_model::arch::Arch;

/// Each thread stores its id to `sm[tid]`, then reads `sm[tid ^ 1]` back and stores it to
/// `out[tid]` when `tid < n`: `EPILOGUE` is the kernel's ending (line 12 the load, line 13 the
/// store).
fn ptx(epilogue: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .file 1 \"k.py\"\n\
         .visible .entry k(.param .u64 out, .param .u32 n)\n{{\n\
         .reg .b32 %r<12>;\n.reg .b64 %rd<6>;\n.reg .pred %p<3>;\n\
         .shared .align 4 .b8 sm[512];\n\
         .loc 1 10 1\n\
         mov.u32 %r1, %tid.x;\n\
         shl.b32 %r2, %r1, 2;\n\
         mov.u32 %r3, sm;\n\
         add.s32 %r4, %r3, %r2;\n\
         .loc 1 11 1\n\
         st.shared.u32 [%r4], %r1;\n\
         bar.sync 0;\n\
         ld.param.u64 %rd1, [out];\n\
         ld.param.u32 %r5, [n];\n\
         xor.b32 %r7, %r2, 4;\n\
         add.s32 %r8, %r3, %r7;\n\
         {epilogue}\
         }}\n"
    )
}

/// The guarded store after the load, then `ret`: the tail ptxas turns into an early exit.
const GUARDED: &str = ".loc 1 12 1\n\
     ld.shared.u32 %r6, [%r8];\n\
     .loc 1 13 1\n\
     setp.lt.u32 %p1, %r1, %r5;\n\
     mul.wide.u32 %rd2, %r1, 4;\n\
     add.s64 %rd3, %rd1, %rd2;\n\
     @%p1 st.global.u32 [%rd3], %r6;\n\
     ret;\n";

/// The same ending with a branch around it: the PTX's own lanes are the storing ones.
const BRANCHED: &str = ".loc 1 13 1\n\
     setp.ge.u32 %p1, %r1, %r5;\n\
     @%p1 bra $L__end;\n\
     .loc 1 12 1\n\
     ld.shared.u32 %r6, [%r8];\n\
     .loc 1 13 1\n\
     mul.wide.u32 %rd2, %r1, 4;\n\
     add.s64 %rd3, %rd1, %rd2;\n\
     st.global.u32 [%rd3], %r6;\n\
     $L__end:\n\
     ret;\n";

/// Machine code whose ending is `TAIL` (after the barrier).
fn sass(tail: &str) -> String {
    format!(
        "\t.section\t.text.k,\"ax\",@progbits\n\
         \t//## File \"k.py\", line 10\n\
         \t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC R9, c[0x0][0x218] ;\n\
         \t/*0020*/ IMAD.SHL.U32 R3, R0, 0x4, RZ ;\n\
         \t//## File \"k.py\", line 11\n\
         \t/*0030*/ STS [R3+UR4], R0 ;\n\
         \t/*0040*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n\
         \t/*0050*/ LOP3.LUT R8, R3, 0x4, RZ, 0x3c, !PT ;\n\
         {tail}\
         .L_x_0:\n\
         \t/*0100*/ BRA `(.L_x_0);\n"
    )
}

/// ptxas's form: the lanes that would not store leave, the load runs for the others.
const EARLY_EXIT: &str = "\t//## File \"k.py\", line 13\n\
     \t/*0060*/ ISETP.GE.U32.AND P0, PT, R0, R9, PT ;\n\
     \t/*0070*/ @P0 EXIT ;\n\
     \t//## File \"k.py\", line 12\n\
     \t/*0080*/ LDS R5, [R8+UR4] ;\n\
     \t//## File \"k.py\", line 13\n\
     \t/*0090*/ STG.E desc[UR6][R6.64], R5 ;\n\
     \t/*00a0*/ EXIT ;\n";

/// The same through a guarded branch to the last `EXIT`.
const BRANCH_TO_EXIT: &str = "\t//## File \"k.py\", line 13\n\
     \t/*0060*/ ISETP.GE.U32.AND P0, PT, R0, R9, PT ;\n\
     \t/*0070*/ @P0 BRA `(.L_x_1) ;\n\
     \t//## File \"k.py\", line 12\n\
     \t/*0080*/ LDS R5, [R8+UR4] ;\n\
     \t//## File \"k.py\", line 13\n\
     \t/*0090*/ STG.E desc[UR6][R6.64], R5 ;\n\
     .L_x_1:\n\
     \t/*00a0*/ EXIT ;\n";

/// The load kept before a guarded store: every lane runs it.
const GUARDED_STORE: &str = "\t//## File \"k.py\", line 12\n\
     \t/*0060*/ LDS R5, [R8+UR4] ;\n\
     \t//## File \"k.py\", line 13\n\
     \t/*0070*/ ISETP.GE.U32.AND P0, PT, R0, R9, PT ;\n\
     \t/*0080*/ @!P0 STG.E desc[UR6][R6.64], R5 ;\n\
     \t/*0090*/ EXIT ;\n";

/// An early exit whose tail loads 8 bytes where the PTX loads 4: not the PTX's load.
const OTHER_WIDTH: &str = "\t//## File \"k.py\", line 13\n\
     \t/*0060*/ ISETP.GE.U32.AND P0, PT, R0, R9, PT ;\n\
     \t/*0070*/ @P0 EXIT ;\n\
     \t//## File \"k.py\", line 12\n\
     \t/*0080*/ LDS.64 R4, [R8+UR4] ;\n\
     \t//## File \"k.py\", line 13\n\
     \t/*0090*/ STG.E desc[UR6][R6.64], R5 ;\n\
     \t/*00a0*/ EXIT ;\n";

fn reconcile(program: &Program, sass_text: &str) -> Reconciliation {
    let ks = warpscope_toolchain::sass::parse_disassembly(sass_text).unwrap();
    Reconciliation::build(program, "k", &machine_accesses(&ks[0]))
        .with_atomic_forms(program, "k", &ks[0])
        .with_sunk_loads(program, "k", &ks[0])
}

/// (instructions, wavefronts) of the load on line 12, `threads` threads in one block, `n` the
/// store's bound.
fn load_counts(program: &Program, recon: Reconciliation, threads: u32, n: u32) -> (u64, u64) {
    let out = 0x1000_0000u64;
    let global = Global::new(vec![(out, vec![0u8; 4 * threads as usize])]);
    let launch = Launch::new([1, 1, 1], [threads, 1, 1], vec![Arg::U64(out), Arg::U32(n)]);
    let arch = Arch::parse("sm_90").unwrap();
    let recon = Arc::new(recon);
    let res = warpscope_emu::run_in(program, "k", &launch, &Limits::default(), &global, |b| {
        BankSink::new(b, arch, Arc::clone(&recon))
    })
    .unwrap();
    let mut r = BankReport::default();
    for s in res.sinks {
        r.merge(s.into_report());
    }
    // the outputs are the PTX's whatever is counted
    let mut o = vec![0u8; 4 * threads as usize];
    global.read_range(out, &mut o).unwrap();
    for t in 0..threads {
        let v = u32::from_le_bytes(o[4 * t as usize..4 * t as usize + 4].try_into().unwrap());
        assert_eq!(v, if t < n { t ^ 1 } else { 0 }, "out[{t}]");
    }
    let load = ptx_shared_accesses(program, "k")
        .into_iter()
        .find(|a| a.line == 12)
        .unwrap()
        .pc;
    r.insts
        .get(&(load, Side::Load))
        .map_or((0, 0), |s| (s.counts.instructions, s.counts.wavefronts))
}

#[test]
fn a_load_below_an_early_exit_runs_for_the_storing_lanes() {
    let program = warpscope_ptx::compile(&ptx(GUARDED)).unwrap();
    for tail in [EARLY_EXIT, BRANCH_TO_EXIT] {
        let recon = reconcile(&program, &sass(tail));
        assert_eq!(recon.sunk.len(), 1, "{tail}");
        assert!(recon.unmatched_lines.is_empty());
        // 96 threads, n = 40: warp 0 stores with all lanes, warp 1 with 8, warp 2 with none
        assert_eq!(load_counts(&program, recon.clone(), 96, 40), (2, 2), "{tail}");
        // n = 0: every lane leaves before the load
        assert_eq!(load_counts(&program, recon.clone(), 96, 0), (0, 0), "{tail}");
        // n = 96: all three warps
        assert_eq!(load_counts(&program, recon, 96, 96), (3, 3), "{tail}");
    }
}

#[test]
fn a_load_the_machine_code_keeps_before_the_exit_runs_for_every_lane() {
    let program = warpscope_ptx::compile(&ptx(GUARDED)).unwrap();
    let recon = reconcile(&program, &sass(GUARDED_STORE));
    assert!(recon.sunk.is_empty() && recon.unmatched_lines.is_empty());
    assert_eq!(load_counts(&program, recon, 96, 40), (3, 3));
}

#[test]
fn a_ptx_branch_around_the_epilogue_counts_its_own_lanes() {
    // the PTX's lanes at the load are already the storing ones: nothing to move
    let program = warpscope_ptx::compile(&ptx(BRANCHED)).unwrap();
    let recon = reconcile(&program, &sass(EARLY_EXIT));
    assert!(recon.sunk.is_empty() && recon.unmatched_lines.is_empty());
    assert_eq!(load_counts(&program, recon, 96, 40), (2, 2));
}

#[test]
fn an_early_exit_tail_that_does_not_pair_makes_the_line_an_estimate() {
    let program = warpscope_ptx::compile(&ptx(GUARDED)).unwrap();
    let recon = reconcile(&program, &sass(OTHER_WIDTH));
    assert!(recon.sunk.is_empty());
    assert!(recon.unmatched_lines.contains(&12), "{:?}", recon.unmatched_lines);
}
