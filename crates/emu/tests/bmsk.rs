//! `bmsk.clamp.b32` / `bmsk.wrap.b32` (CUB's radix sorts build their digit masks with them):
//! lowered and run per lane.

use warpscope_emu::{Arg, Launch, Limits, run};

/// Lane `i` writes `bmsk.MODE(pos[i], width[i])` to `out[i]`.
fn kernel(mode: &str) -> String {
    format!(
        r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pos, .param .u64 width, .param .u64 out)
{{
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [pos];
    ld.param.u64 %rd2, [width];
    ld.param.u64 %rd3, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    ld.global.u32 %r2, [%rd5];
    ld.global.u32 %r3, [%rd6];
    bmsk.{mode}.b32 %r4, %r2, %r3;
    st.global.u32 [%rd7], %r4;
    ret;
}}
"#
    )
}

fn masks(mode: &str, cases: &[(u32, u32)]) -> Vec<u32> {
    let prog = warpscope_ptx::compile(&kernel(mode)).unwrap();
    let words = |f: &dyn Fn(&(u32, u32)) -> u32| cases.iter().flat_map(|c| f(c).to_le_bytes()).collect();
    let l = Launch::new(
        [1, 1, 1],
        [cases.len() as u32, 1, 1],
        vec![
            Arg::Buffer(words(&|c| c.0)),
            Arg::Buffer(words(&|c| c.1)),
            Arg::Buffer(vec![0; 4 * cases.len()]),
        ],
    );
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    res.buffer(2)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const CASES: [(u32, u32); 8] = [
    (4, 8),
    (0, 32),
    (0, 40),
    (28, 8),
    (32, 8),
    (5, 0),
    (36, 40),
    (4, 33),
];

#[test]
fn clamp() {
    assert_eq!(
        masks("clamp", &CASES),
        [0xff0, 0xffff_ffff, 0xffff_ffff, 0xf000_0000, 0, 0, 0, 0xffff_fff0]
    );
}

#[test]
fn wrap() {
    assert_eq!(
        masks("wrap", &CASES),
        [0xff0, 0, 0xff, 0xf000_0000, 0xff, 0, 0xff0, 0x10]
    );
}
