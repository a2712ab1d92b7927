//! 16-byte shared loads and the wavefronts Nsight Compute attributes to them
//! (`sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld`): where the lane pairs agree and the
//! doubled half-warp phases conflict, the attribution counts those half-warps in quarter-warps
//! while the L1 keeps them doubled (calibration/lds128/README.md); other requests are attributed
//! as the L1 counts them. Own kernel (one warp, one `ld.shared.v4.u32` at a sum of masked lane bits), emulated on
//! sm_90.

use std::sync::Arc;

use warpscope_analysis::banks::{self, Side};
use warpscope_analysis::launchspec::parse_args;
use warpscope_analysis::reconcile::Reconciliation;
use warpscope_emu::{Launch, Limits};

/// A kernel that loads 16 bytes per lane from `tile + sum of (lane & mask) * factor` over `terms`.
fn ptx(terms: &[(u32, u32)]) -> String {
    let mut body = String::from("\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, tile;\n");
    for (mask, factor) in terms {
        body.push_str(&format!(
            "\tand.b32 %r3, %r1, {mask};\n\tmad.lo.u32 %r2, %r3, {factor}, %r2;\n"
        ));
    }
    format!(
        r#".version 8.0
.target sm_90
.address_size 64

.visible .entry lds128(
	.param .u64 out
)
{{
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	.shared .align 16 .b8 tile[4096];

{body}	ld.shared.v4.u32 {{%r6, %r7, %r8, %r9}}, [%r2];
	add.u32 %r10, %r6, %r9;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd2, %rd2, %rd3;
	st.global.u32 [%rd2], %r10;
	ret;
}}
"#
    )
}

/// (requests, wavefronts, attributed wavefronts) of the loads.
fn loads(terms: &[(u32, u32)]) -> (u64, u64, u64) {
    let program = warpscope_ptx::compile(&ptx(terms)).unwrap();
    let launch = Launch::new([1, 1, 1], [32, 1, 1], parse_args("buf:128").unwrap());
    let h200 = warpscope_model::arch::Arch::parse("sm_90").unwrap();
    let run = banks::run(
        &program,
        "lds128",
        &launch,
        &Limits::default(),
        h200,
        Arc::new(Reconciliation::ptx_level()),
    )
    .unwrap();
    assert!(run.faults.is_empty(), "{:?}", run.faults);
    let c = run.report.request_total(Side::Load);
    (c.instructions, c.wavefronts, c.attributed_wavefronts)
}

#[test]
fn a_conflicting_doubled_16_byte_load_is_attributed_in_quarter_warps() {
    // lane pairs agree; quarter-warps at 0, 16, 112, 128 (2-way), 16, 32, 128, 144 (2-way), ...:
    // the doubled half-warps take 2 wavefronts each (the L1's 4), the attribution counts each
    // conflicting half-warp in quarter-warps (2 each, 8 in all)
    let shape = [(2, 8), (4, 28), (24, 2)];
    assert_eq!(loads(&shape), (1, 4, 8));
}

#[test]
fn other_16_byte_loads_are_attributed_as_the_l1_counts() {
    // float4 row: quarter-warp phases, conflict-free
    assert_eq!(loads(&[(31, 16)]), (1, 4, 4));
    // lane pairs on one address, consecutive: doubled half-warp phases, conflict-free
    assert_eq!(loads(&[(30, 8)]), (1, 2, 2));
    // lane pairs 64 bytes apart: the doubled half-warps conflict 4-way, quarter-warps take as many
    // wavefronts (2-way each)
    assert_eq!(loads(&[(30, 32)]), (1, 8, 8));
    // a conflicting 16-byte load whose phases do not double: lanes 64 bytes apart, so each
    // quarter-warp's 8 lanes fall 4-way on two groups of 4 banks (4 wavefronts a quarter)
    assert_eq!(loads(&[(31, 64)]), (1, 16, 16));
}
