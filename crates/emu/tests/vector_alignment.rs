//! A vector load or store must be aligned to its whole width (`ld.shared.v2.u32`: 8 bytes), as
//! the GPU faults with a misaligned address otherwise (compute-sanitizer's memcheck: "Invalid
//! __shared__ read of size 8 bytes ... Access to 0x404 is misaligned", measured on an H200 for
//! `calibration/bugs/programs/misaligned_shared.cu`). Checked on the fast and the reference paths,
//! with a full warp and with part of one.

use warpscope_emu::mem::{BUFFER_BASE, Global};
use warpscope_emu::{Arg, FaultKind, Launch, Limits, Space, run_in};

/// `out[tid] = x + y` where `(x, y)` is the `.v2.u32` at byte `4 * OFF + 8 * tid` of a shared
/// array (`OFF` 1: every lane's address is 4 mod 8), or of global memory (`SPACE` global).
fn kernel(space: &str, off: u32) -> String {
    let (decl, base) = if space == "shared" {
        (
            " .shared .align 8 .b8 s[512];\n",
            " mov.u32 %r5, s;\n cvt.u64.u32 %rd5, %r5;\n",
        )
    } else {
        ("", " ld.param.u64 %rd5, [p];\n")
    };
    format!(
        ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 p, .param .u64 q)\n{{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n{decl}\
 ld.param.u64 %rd1, [q];\n mov.u32 %r1, %tid.x;\n{base}\
 mul.wide.u32 %rd2, %r1, 8;\n add.s64 %rd3, %rd5, %rd2;\n\
 ld.{space}.v2.u32 {{%r2, %r3}}, [%rd3+{}];\n add.s32 %r4, %r2, %r3;\n\
 mul.wide.u32 %rd4, %r1, 4;\n add.s64 %rd6, %rd1, %rd4;\n st.global.u32 [%rd6], %r4;\n ret;\n}}\n",
        4 * off
    )
}

fn run(space: &str, off: u32, threads: u32, reference: bool) -> Vec<warpscope_emu::EmuFault> {
    let prog = warpscope_ptx::compile(&kernel(space, off)).unwrap();
    let mut g = Global::empty();
    g.insert(BUFFER_BASE, &[0u8; 1024]).unwrap();
    g.insert(BUFFER_BASE + 4096, &[0u8; 256]).unwrap();
    let launch = Launch::new(
        [1, 1, 1],
        [threads, 1, 1],
        vec![Arg::U64(BUFFER_BASE), Arg::U64(BUFFER_BASE + 4096)],
    );
    let limits = Limits {
        reference_paths: reference,
        ..Limits::default()
    };
    run_in(&prog, "k", &launch, &limits, &g, |_| ()).unwrap().faults
}

#[test]
fn a_vector_access_at_an_address_aligned_to_its_element_only_faults() {
    for space in ["shared", "global"] {
        let sp = if space == "shared" {
            Space::Shared
        } else {
            Space::Global
        };
        for threads in [32, 20] {
            for reference in [false, true] {
                let faults = run(space, 1, threads, reference);
                assert_eq!(faults.len(), 1, "{space} {threads} {reference}");
                assert_eq!(faults[0].kind, FaultKind::Misaligned { space: sp }, "{space}");
                assert_eq!(faults[0].lane, Some(0));
                // aligned to the vector: no fault
                assert!(run(space, 2, threads, reference).is_empty(), "{space} {threads}");
            }
        }
    }
}
