//! `run_in`: launches against a persistent, caller-owned global address space.

use warpscope_emu::mem::{BUFFER_BASE, Global};
use warpscope_emu::{Arg, FaultKind, Launch, Limits, Space, run_in};

const ADD_ONE: &str = ".version 9.5\n.target sm_90\n.address_size 64\n\
.visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n\
 ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n\
 add.s64 %rd3, %rd1, %rd2;\n ld.global.u32 %r2, [%rd3];\n add.s32 %r3, %r2, 1;\n\
 st.global.u32 [%rd3], %r3;\n ret;\n}\n";

#[test]
fn memory_persists_across_launches() {
    let prog = warpscope_ptx::compile(ADD_ONE).unwrap();
    let mut g = Global::empty();
    g.insert(BUFFER_BASE, &[0u8; 128]).unwrap();
    let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::U64(BUFFER_BASE)]);
    for _ in 0..3 {
        let r = run_in(&prog, "k", &launch, &Limits::default(), &g, |_| ()).unwrap();
        assert!(r.faults.is_empty());
    }
    let mut out = [0u8; 128];
    g.read_range(BUFFER_BASE, &mut out).unwrap();
    assert!(
        out.chunks(4)
            .all(|w| u32::from_le_bytes(w.try_into().unwrap()) == 3)
    );
}

#[test]
fn an_access_outside_every_region_is_a_fault() {
    let prog = warpscope_ptx::compile(ADD_ONE).unwrap();
    let mut g = Global::empty();
    g.insert(BUFFER_BASE, &[0u8; 64]).unwrap(); // 16 threads' worth; 32 run
    let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::U64(BUFFER_BASE)]);
    let r = run_in(&prog, "k", &launch, &Limits::default(), &g, |_| ()).unwrap();
    assert_eq!(r.faults.len(), 1);
    assert_eq!(r.faults[0].kind, FaultKind::OutOfBounds { space: Space::Global });
    assert_eq!(r.faults[0].lane, Some(16));
    // a freed region faults too
    g.remove(BUFFER_BASE).unwrap();
    let r = run_in(&prog, "k", &launch, &Limits::default(), &g, |_| ()).unwrap();
    assert_eq!(r.faults[0].addr, Some(BUFFER_BASE));
}

#[test]
fn buffer_arguments_are_refused() {
    let prog = warpscope_ptx::compile(ADD_ONE).unwrap();
    let g = Global::empty();
    let launch = Launch::new([1, 1, 1], [32, 1, 1], vec![Arg::Buffer(vec![0; 128])]);
    assert!(run_in(&prog, "k", &launch, &Limits::default(), &g, |_| ()).is_err());
}
