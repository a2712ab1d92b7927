//! The emulator's faults in words (`warpscope_driver::fault`): the buffer layout the sentences
//! measure against is the emulator's own, each fault kind reads as a sentence (no debug string, no
//! pc), and code inlined from CUDA headers is named by the user's line.

use warpscope_driver::fault::launch_buffers;
use warpscope_driver::run::is_toolkit_header;
use warpscope_driver::{RunOptions, Sections, Widths, analyze_launch};
use warpscope_emu::{Arg, Launch};

fn arch() -> &'static warpscope_model::arch::Arch {
    warpscope_model::arch::Arch::parse("sm_90").unwrap()
}

/// Thread 0 stores the three pointer arguments it was given into `out`.
const ADDRESSES: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 out, .param .u32 n, .param .u64 a, .param .u64 b)\n{\n\
 .reg .b64 %rd<5>;\n ld.param.u64 %rd1, [out];\n ld.param.u64 %rd2, [a];\n ld.param.u64 %rd3, [b];\n\
 st.global.u64 [%rd1], %rd1;\n st.global.u64 [%rd1+8], %rd2;\n st.global.u64 [%rd1+16], %rd3;\n ret;\n}\n";

#[test]
fn the_buffer_layout_is_the_emulators() {
    let program = warpscope_ptx::compile(ADDRESSES).unwrap();
    let args = vec![
        Arg::Buffer(vec![0; 24]),
        Arg::U32(7),
        Arg::Buffer(vec![0; 1000]),
        Arg::Buffer(vec![0; 3]),
    ];
    let launch = Launch::new([1, 1, 1], [1, 1, 1], args.clone());
    let r = analyze_launch(
        &program,
        "k",
        &launch,
        &Sections::NONE,
        arch(),
        &Widths::ptx_level("PTX-level"),
        &RunOptions {
            global_sectors: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    let out = r.buffers[0].as_ref().unwrap();
    let seen: Vec<u64> = out
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let laid: Vec<(usize, u64, u64)> = launch_buffers(&args)
        .iter()
        .map(|b| (b.arg, b.base, b.size))
        .collect();
    assert_eq!(
        laid,
        [(0, seen[0], 24), (2, seen[1], 1000), (3, seen[2], 3)],
        "the emulator put the buffers at {seen:#x?}"
    );
}

/// Faulting one way per launch: a misaligned load, a load through a null pointer, a store past
/// the end of a buffer, a trap.
const FAULTS: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
.visible .entry misaligned(.param .u64 p)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<3>;\n\
 ld.param.u64 %rd1, [p];\n add.s64 %rd2, %rd1, 2;\n ld.global.u32 %r1, [%rd2];\n ret;\n}\n\
.visible .entry null(.param .u64 p)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<2>;\n\
 mov.u64 %rd1, 16;\n ld.global.u32 %r1, [%rd1];\n ret;\n}\n\
.visible .entry past(.param .u64 p)\n{\n .reg .b32 %r<2>;\n .reg .b64 %rd<2>;\n\
 ld.param.u64 %rd1, [p];\n mov.u32 %r1, 1;\n st.global.v2.u32 [%rd1+40], {%r1, %r1};\n ret;\n}\n\
.visible .entry trapping(.param .u64 p)\n{\n trap;\n ret;\n}\n";

fn fault_message(kernel: &str, names: &[&str]) -> String {
    let program = warpscope_ptx::compile(FAULTS).unwrap();
    let launch = Launch::new([2, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 32])]);
    let opts = RunOptions {
        param_names: names.iter().map(|s| s.to_string()).collect(),
        ..RunOptions::default()
    };
    let r = analyze_launch(
        &program,
        kernel,
        &launch,
        &Sections {
            hazards: true,
            ..Sections::NONE
        },
        arch(),
        &Widths::ptx_level("PTX-level"),
        &opts,
    )
    .unwrap();
    assert_eq!(r.fault_messages.len(), r.faults.len());
    let m = r.fault_messages[0].clone();
    // the same sentence is the hazard finding's message
    let h = r.hazards.unwrap();
    assert!(
        h.findings.iter().any(|f| f.message == m),
        "{m}\n{:#?}",
        h.findings
    );
    assert!(!m.contains("{ space") && !m.contains(" pc "), "{m}");
    m
}

#[test]
fn each_fault_is_a_sentence() {
    let m = fault_message("misaligned", &["data"]);
    assert!(
        m.starts_with("misaligned global load of 4 bytes at PTX line 10 by thread (0,0,0) of block (0,0,0): address 0x100000002 is not a multiple of 4"),
        "{m}"
    );
    let m = fault_message("null", &[]);
    assert!(
        m.contains("address 0x10 is a null pointer (or an offset from one)"),
        "{m}"
    );
    let m = fault_message("past", &["data"]);
    assert!(
        m.starts_with("invalid global store of 8 bytes at PTX line 27 by thread (0,0,0) of block (0,0,0): address 0x100000028 is 8 bytes past the end of argument 0 `data` (a buffer of 32 bytes at 0x100000000)"),
        "{m}"
    );
    let m = fault_message("past", &[]);
    assert!(
        m.contains("past the end of argument 0 (a buffer"),
        "no name, no quotes: {m}"
    );
    let m = fault_message("trapping", &[]);
    assert!(
        m.starts_with("kernel traps at PTX line 32 in thread (0,0,0) of block (0,0,0)"),
        "{m}"
    );
}

#[test]
fn toolkit_headers_are_told_from_the_users_files() {
    for h in [
        "/usr/local/cuda/include/sm_30_intrinsics.hpp",
        "/usr/local/cuda-12.8/bin/../targets/x86_64-linux/include/cooperative_groups/details/sync.h",
        "/work/.venv-cuda/lib/python3.11/site-packages/nvidia/cu13/bin/../include/sm_30_intrinsics.hpp",
        "/opt/nvidia/hpc_sdk/Linux_x86_64/25.1/cuda/12.6/include/crt/sm_90_rt.hpp",
        "sm_30_intrinsics.hpp",
        "cooperative_groups.h",
    ] {
        assert!(is_toolkit_header(h), "{h}");
    }
    for u in [
        "/home/me/project/kernel.cu",
        "/home/me/project/include/tile.cuh",
        "kernel.cu",
        "my_helpers.h",
        "/usr/local/cuda/include/../samples/kernel.cu",
    ] {
        assert!(!is_toolkit_header(u), "{u}");
    }
}
