//! `fns.b32` (`__fns`: the n-th set bit of a mask from a base bit), lowered and run per lane.
//! Expected values follow the PTX ISA's definition and its four examples.

use warpscope_emu::{Arg, Launch, Limits, run};

/// Lane `i` writes `fns.b32(mask[i], base[i], offset[i])` to `out[i]`.
const KERNEL: &str = r#".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 mask, .param .u64 base, .param .u64 offset, .param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [mask];
    ld.param.u64 %rd2, [base];
    ld.param.u64 %rd3, [offset];
    ld.param.u64 %rd8, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    add.s64 %rd9, %rd8, %rd4;
    ld.global.u32 %r2, [%rd5];
    ld.global.u32 %r3, [%rd6];
    ld.global.s32 %r4, [%rd7];
    fns.b32 %r5, %r2, %r3, %r4;
    st.global.u32 [%rd9], %r5;
    ret;
}
"#;

fn found(cases: &[(u32, u32, i32)]) -> Vec<u32> {
    let prog = warpscope_ptx::compile(KERNEL).unwrap();
    let words = |f: &dyn Fn(&(u32, u32, i32)) -> u32| cases.iter().flat_map(|c| f(c).to_le_bytes()).collect();
    let l = Launch::new(
        [1, 1, 1],
        [cases.len() as u32, 1, 1],
        vec![
            Arg::Buffer(words(&|c| c.0)),
            Arg::Buffer(words(&|c| c.1)),
            Arg::Buffer(words(&|c| c.2 as u32)),
            Arg::Buffer(vec![0; 4 * cases.len()]),
        ],
    );
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    res.buffer(3)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn the_isa_examples() {
    let m = 0xaaaa_aaaa;
    assert_eq!(
        found(&[(m, 3, 1), (m, 3, -1), (m, 2, 1), (m, 2, -1)]),
        [3, 3, 3, 1]
    );
}

#[test]
fn counts_set_bits_both_ways_and_reports_none_found() {
    let none = 0xffff_ffff;
    let cases = [
        (0b1011_0100, 0, 5, none),  // four bits set: no fifth
        (0b1011_0100, 0, 4, 7),     // the fourth: bits 2, 4, 5, 7
        (0b1011_0100, 0, 1, 2),     // the first from bit 0
        (0b1011_0100, 7, -3, 4),    // down from 7: 7, 5, 4
        (0b1011_0100, 6, -4, none), // down from 6: 5, 4, 2, then nothing
        (0b1011_0100, 4, 0, 4),     // offset 0: the base bit itself, set
        (0b1011_0100, 3, 0, none),  // offset 0, base bit clear
        (0x8000_0001, 31, 1, 31),   // the top bit
        (0x8000_0001, 31, 2, none), // past the top
        (0x8000_0001, 0, -2, none), // below bit 0
        (0xffff_ffff, 10, 22, 31),  // 22 set bits from bit 10
        (0, 0, 1, none),            // an empty mask
        (0xffff_ffff, 31, -32, 0),  // all the way down
        (0xffff_ffff, 0, i32::MIN, none),
    ];
    let got = found(&cases.map(|c| (c.0, c.1, c.2)));
    for (c, g) in cases.iter().zip(got) {
        assert_eq!(g, c.3, "fns({:#x}, {}, {})", c.0, c.1, c.2);
    }
}
