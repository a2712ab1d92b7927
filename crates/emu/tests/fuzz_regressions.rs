//! Hostile kernels and launches the emulator must survive with an error or a fault as data (the
//! fuzz target fuzz/fuzz_targets/emu_run.rs runs arbitrary PTX the same way). Inputs that a fuzz run
//! finds crashing the emulator are added here, minimised, named after what they broke.

use warpscope_emu::{Arg, EmuError, FaultKind, Launch, Limits};

const SPIN: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry spin(.param .u64 out)\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, 0;\n\
$L_top:\n add.s32 %r1, %r1, 1;\n bra.uni $L_top;\n}\n";

fn tight() -> Limits {
    Limits {
        max_warp_insts_per_block: 20_000,
        max_global_bytes: 1 << 20,
        max_shared_bytes: 48 * 1024,
        max_local_bytes_per_block: 1 << 20,
        reference_paths: false,
    }
}

#[test]
fn endless_loop_faults_at_the_instruction_limit_in_every_block() {
    let prog = warpscope_ptx::compile(SPIN).unwrap();
    let launch = Launch::new([3, 1, 1], [64, 1, 1], vec![Arg::Buffer(vec![0; 256])]);
    let res = warpscope_emu::run(&prog, "spin", &launch, &tight(), |_| ()).unwrap();
    assert_eq!(res.faults.len(), 3, "{:?}", res.faults);
    assert!(res.faults.iter().all(|f| f.kind == FaultKind::InstructionLimit));
    // Stopped at the limit, not far past it.
    assert!(res.counters.warp_insts <= 3 * (20_000 + 2), "{:?}", res.counters);
}

#[test]
fn oversized_buffers_and_shared_memory_are_errors_not_allocations() {
    let prog = warpscope_ptx::compile(SPIN).unwrap();
    let big = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; (1 << 20) + 1])]);
    let e = warpscope_emu::run(&prog, "spin", &big, &tight(), |_| ()).unwrap_err();
    assert!(matches!(e, EmuError::Limit(_)), "{e}");
    let mut smem = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 256])]);
    smem.dyn_smem = u32::MAX;
    let e = warpscope_emu::run(&prog, "spin", &smem, &tight(), |_| ()).unwrap_err();
    assert!(matches!(e, EmuError::Limit(_)), "{e}");
    let wide = Launch::new([1, 1, 1], [1025, 1, 1], vec![Arg::Buffer(vec![0; 256])]);
    let e = warpscope_emu::run(&prog, "spin", &wide, &tight(), |_| ()).unwrap_err();
    assert!(matches!(e, EmuError::BadLaunch(_)), "{e}");
}
