//! The flow on values it used to leave unknown: doubles, local memory, jump tables, and global
//! words a launch changes that only the reading warp wrote. Hand-written machine code in
//! nvdisasm's form; the expected counts follow from the counting rule (one target per branch
//! execution by a group, divergent when its lanes part).

use super::*;

fn flow(body: &str) -> MachineFlow {
    let text = format!("\t.section\t.text.k,\"ax\",@progbits\n{body}");
    let ks = warpscope_toolchain::sass::parse_disassembly(&text).unwrap();
    MachineFlow::new(&ks[0])
}

fn run(f: &MachineFlow, block: u32, params: &[u8]) -> Result<(u64, u64), String> {
    f.run(
        &FlowLaunch {
            global: None,
            grid: [1, 1, 1],
            block: [block, 1, 1],
            params,
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        },
        1 << 20,
    )
    .map(|(c, _)| (c.targets, c.divergent))
}

/// `if ((double)tid * 0.5 + p > 7.0)`: lanes whose double exceeds 7 jump (the sin/cos argument
/// reduction's `DSETP` on `|x|` works the same way).
const DOUBLE: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ LDC.64 R4, c[0x0][0x210] ;\n\
    \t/*0020*/ I2F.F64.U32 R2, R0 ;\n\
    \t/*0030*/ DFMA R2, R2, 0.5, R4 ;\n\
    \t/*0040*/ DSETP.GT.AND P0, PT, |R2|.reuse, 7, PT ;\n\
    \t/*0050*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*0060*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*0070*/ EXIT ;\n";

#[test]
fn a_branch_on_a_double_compare_is_followed() {
    let f = flow(DOUBLE);
    // p = 0: lanes 15..31 have tid / 2 > 7: the branch parts the warp
    assert_eq!(run(&f, 32, &0f64.to_le_bytes()), Ok((1, 1)));
    // p = 8: every lane jumps; p = -100: |x| > 7 everywhere
    assert_eq!(run(&f, 32, &8f64.to_le_bytes()), Ok((1, 0)));
    assert_eq!(run(&f, 64, &(-100f64).to_le_bytes()), Ok((2, 0)));
    // p = -8.25: |tid / 2 - 8.25| > 7 for tids 0..=2 and 31 of the first warp, every lane of the
    // second
    assert_eq!(run(&f, 64, &(-8.25f64).to_le_bytes()), Ok((2, 1)));
}

/// `int a[4]; a[tid & 3] = tid; if (a[tid & 3] >= 16)`: a lane's own stack, indexed at run time.
const LOCAL: &str = "\t/*0000*/ LDC R1, c[0x0][0x28] ;\n\
    \t/*0010*/ S2R R0, SR_TID.X ;\n\
    \t/*0020*/ VIADD R1, R1, 0xfffffff0 ;\n\
    \t/*0030*/ LOP3.LUT R2, R0, 0x3, RZ, 0xc0, !PT ;\n\
    \t/*0040*/ LEA R2, R2, R1, 0x2 ;\n\
    \t/*0050*/ STL [R2], R0 ;\n\
    \t/*0060*/ LDL R3, [R2] ;\n\
    \t/*0070*/ ISETP.GE.AND P0, PT, R3, 0x10, PT ;\n\
    \t/*0080*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*0090*/ LDL R3, [R1+0x4] ;\n\
    \t/*00a0*/ ISETP.GE.AND P1, PT, R3, 0x10, PT ;\n\
    \t/*00b0*/ @P1 BRA `(.L_x_0) ;\n\
    .L_x_0:\n\
    \t/*00c0*/ EXIT ;\n";

#[test]
fn local_memory_gives_back_what_the_lane_stored() {
    let f = flow(LOCAL);
    // the first branch parts lanes 16..31 from 0..15; the second reads a[1], stored only by
    // lanes with tid & 3 == 1: unknown for the others
    let err = run(&f, 32, &[]).unwrap_err();
    assert!(err.contains("/*00b0*/") && err.contains("unknown value"), "{err}");
    // without the second read the run is followed to the end
    let one = LOCAL.replace("\t/*0090*/ LDL R3, [R1+0x4] ;\n", "\t/*0090*/ MOV R3, RZ ;\n");
    assert_eq!(run(&flow(&one), 32, &[]), Ok((2, 1)));
}

/// `switch (tid % 3)` through a jump table in constant bank 2 (offsets 0x80, 0x90, 0xa0).
fn jump_table(entries: [u32; 3]) -> String {
    let hex: String = entries
        .iter()
        .flat_map(|e| e.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ IMAD.HI.U32 R2, R0, -0x55555555, RZ ;\n\
         \t/*0020*/ SHF.R.U32.HI R2, RZ, 0x1, R2 ;\n\
         \t/*0030*/ IMAD R2, R2, -0x3, R0 ;\n\
         \t/*0040*/ IMAD.SHL.U32 R2, R2, 0x4, RZ ;\n\
         \t/*0050*/ LDC R6, c[0x2][R2+0x8] ;\n\
         \t/*0060*/ SHF.R.S32.HI R7, RZ, 0x1f, R6 ;\n\
         \t/*0070*/ BRX R6 -0x80 (*\"BRANCH_TARGETS .L_x_0,.L_x_1,.L_x_2\"*) ;\n\
         .L_x_0:\n\
         \t/*0080*/ EXIT ;\n\
         .L_x_1:\n\
         \t/*0090*/ EXIT ;\n\
         .L_x_2:\n\
         \t/*00a0*/ EXIT ;\n\
         // warpscope constant2 k 0000000000000000{hex}\n"
    )
}

#[test]
fn a_jump_table_sends_each_lane_where_its_entry_says() {
    // three places for a full warp: two divergent targets; one place for a single lane: one
    // uniform target (the H200's rule, [`brx_counts`])
    let f = flow(&jump_table([0x80, 0x90, 0xa0]));
    assert_eq!(run(&f, 32, &[]), Ok((2, 2)));
    assert_eq!(run(&f, 1, &[]), Ok((1, 0)));
    // two entries naming one place: two places
    let f = flow(&jump_table([0x80, 0x90, 0x80]));
    assert_eq!(run(&f, 32, &[]), Ok((1, 1)));
    // an entry that is no instruction stops the run
    let f = flow(&jump_table([0x80, 0x94, 0xa0]));
    assert!(
        run(&f, 32, &[])
            .unwrap_err()
            .contains("jump target is no instruction")
    );
    // without the table (a disassembly that did not bring it) the entry is unknown
    let text = jump_table([0x80, 0x90, 0xa0]);
    let bare: String = text
        .lines()
        .filter(|l| !l.contains("constant2"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(run(&flow(&bare), 32, &[]).unwrap_err().contains("unknown value"));
}

/// `v = a[i]; if (v > 5) v++; a[j] = v` with `j = i` (each thread rewrites its own word) or
/// `j = i ^ 32` (warp 0 writes what warp 1 read and the other way round).
fn rewrite(other: bool) -> String {
    let j = if other {
        "\t/*0040*/ LOP3.LUT R5, R0, 0x20, RZ, 0x3c, !PT ;\n"
    } else {
        "\t/*0040*/ MOV R5, R0 ;\n"
    };
    format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC.64 R2, c[0x0][0x210] ;\n\
         \t/*0020*/ IMAD.WIDE.U32 R8, R0, 0x4, R2 ;\n\
         \t/*0030*/ LDG.E R4, desc[UR4][R8.64] ;\n\
         {j}\
         \t/*0050*/ IMAD.WIDE.U32 R10, R5, 0x4, R2 ;\n\
         \t/*0060*/ ISETP.GT.AND P0, PT, R4, 0x5, PT ;\n\
         \t/*0070*/ @!P0 BRA `(.L_x_0) ;\n\
         \t/*0080*/ IADD3 R4, R4, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0090*/ STG.E desc[UR4][R10.64], R4 ;\n\
         \t/*00a0*/ EXIT ;\n"
    )
}

#[test]
fn words_only_the_reading_warp_changes_do_not_spoil_the_run() {
    let base = 0x7000_0000u64;
    let words: Vec<u8> = (0..64u32).flat_map(|i| (i % 11).to_le_bytes()).collect();
    for other in [false, true] {
        let g = warpscope_emu::mem::Global::new(vec![(base, words.clone())]);
        let f = MachineFlow::new(
            &warpscope_toolchain::sass::parse_disassembly(&format!(
                "\t.section\t.text.k,\"ax\",@progbits\n{}",
                rewrite(other)
            ))
            .unwrap()[0],
        );
        let (counts, reads) = f
            .run(
                &FlowLaunch {
                    global: Some(&g),
                    grid: [1, 1, 1],
                    block: [64, 1, 1],
                    params: &base.to_le_bytes(),
                    symbols: &[],
                    constants: &[],
                    cluster: [1, 1, 1],
                    shared: None,
                },
                1 << 20,
            )
            .unwrap();
        assert_eq!((counts.targets, counts.divergent), (2, 2));
        // the launch as the GPU leaves it: words above 5 incremented, at j
        let after = warpscope_emu::mem::Global::new(vec![(base, words.clone())]);
        for i in 0..64u32 {
            let v = i % 11;
            let j = if other { i ^ 32 } else { i };
            after
                .write(base + 4 * u64::from(j), 4, u64::from(v + u32::from(v > 5)))
                .unwrap();
        }
        // a warp's own words: what it read is what the GPU reads; another warp's: not known
        assert_eq!(reads.hold(&after), !other, "other warp writes: {other}");
    }
}

/// `IADD3 R4, P0, P1, a, b, c` (ptxas's 64-bit address of `base + i + j`): both carries, added
/// back by `IADD3.X`.
#[test]
fn a_three_way_add_keeps_both_carries() {
    let f = flow(
        "\t/*0000*/ S2R R3, SR_TID.X ;\n\
         \t/*0010*/ IMAD.MOV.U32 R0, RZ, RZ, -0x1 ;\n\
         \t/*0020*/ IADD3 R4, P0, P1, R0, R0, R3 ;\n\
         \t/*0030*/ IADD3.X R5, RZ, RZ, RZ, P0, P1 ;\n\
         \t/*0040*/ ISETP.NE.AND P2, PT, R5, 0x2, PT ;\n\
         \t/*0050*/ @P2 BRA `(.L_x_0) ;\n\
         \t/*0060*/ IADD3 R4, R4, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0070*/ EXIT ;\n",
    );
    // 0xffffffff + 0xffffffff carries once; + tid carries again from tid 2 on
    assert_eq!(run(&f, 32, &[]), Ok((1, 1)));
    assert_eq!(run(&f, 2, &[]), Ok((1, 0)));
}

/// `MUFU.RSQ64H` of `0x3ff00000 + tid + p` against `c`: the H200's seed (calibration/rsq64h,
/// `h200/rsq64h.delta.zst`: k = 0x487 and 0x488 both give `0x3feffb79`, 0x4a2 gives `0x3feffb5f`),
/// followed as a known value.
const RSQ64H: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ LDC.64 R4, c[0x0][0x210] ;\n\
    \t/*0020*/ IADD3 R2, R0, R4, RZ ;\n\
    \t/*0030*/ MUFU.RSQ64H R3, R2 ;\n\
    \t/*0040*/ ISETP.NE.AND P0, PT, R3, R5, PT ;\n\
    \t/*0050*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*0060*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*0070*/ EXIT ;\n";

#[test]
fn the_double_square_root_seed_is_the_h200s() {
    let f = flow(RSQ64H);
    let params = |c: u32| [0x3ff0_0483u32.to_le_bytes(), c.to_le_bytes()].concat();
    // lanes 4 and 5 (k = 0x487, 0x488) stay, the others jump
    assert_eq!(run(&f, 32, &params(0x3fef_fb79)), Ok((1, 1)));
    // lane 31 (k = 0x4a2) stays
    assert_eq!(run(&f, 32, &params(0x3fef_fb5f)), Ok((1, 1)));
    // no lane's seed: every lane jumps
    assert_eq!(run(&f, 32, &params(0x3fef_fb5e)), Ok((1, 0)));
}

/// `if (key[(tid & 1) * 2 + 1] == 0)` on a `__constant__ unsigned short key[4]` (constant bank 3,
/// read by a uniform `ULDC.U16` at a uniform index and by a per-lane `LDC.U16`): the words come
/// from the launch's constant variables.
const BANK3: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ UMOV UR4, 0x2 ;\n\
    \t/*0020*/ ULDC.U16 UR5, c[0x3][UR4+0x8] ;\n\
    \t/*0030*/ ISETP.NE.AND P0, PT, RZ, UR5, PT ;\n\
    \t/*0040*/ @!P0 BRA `(.L_x_0) ;\n\
    \t/*0050*/ LOP3.LUT R2, R0, 0x1, RZ, 0xc0, !PT ;\n\
    \t/*0060*/ LEA R2, R2, 0x2, 0x2 ;\n\
    \t/*0070*/ LDC.S16 R3, c[0x3][R2+0x8] ;\n\
    \t/*0080*/ ISETP.GE.AND P1, PT, R3, RZ, PT ;\n\
    \t/*0090*/ @P1 BRA `(.L_x_0) ;\n\
    \t/*00a0*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*00b0*/ EXIT ;\n\
    // warpscope constant3 0 8 other\n\
    // warpscope constant3 8 8 key\n";

#[test]
fn constant_bank_3_gives_the_launchs_constant_variables() {
    let f = flow(BANK3);
    let go = |key: [u16; 4]| {
        let bytes: Vec<u8> = key.iter().flat_map(|k| k.to_le_bytes()).collect();
        let constants = [("other".to_string(), vec![0; 8]), ("key".to_string(), bytes)];
        f.run(
            &FlowLaunch {
                global: None,
                grid: [1, 1, 1],
                block: [32, 1, 1],
                params: &[],
                symbols: &[],
                constants: &constants,
                cluster: [1, 1, 1],
                shared: None,
            },
            1 << 20,
        )
        .map(|(c, _)| (c.targets, c.divergent))
    };
    // key[1] == 0: the uniform branch jumps, one target
    assert_eq!(go([5, 0, 7, 9]), Ok((1, 0)));
    // key[1] != 0: on to the per-lane read of key[1] (even lanes) or key[3] (odd lanes), signed:
    // 0x8000 is negative, so the odd lanes fall through and the second branch parts the warp
    assert_eq!(go([5, 1, 7, 0x8000]), Ok((2, 1)));
    // both non-negative: every lane jumps
    assert_eq!(go([5, 1, 7, 3]), Ok((2, 0)));
    // without the variables the bank is unknown
    let err = run(&f, 32, &[]).unwrap_err();
    assert!(err.contains("/*0040*/") && err.contains("unknown value"), "{err}");
}

/// `long long v = (long long)(p * tid); if (v >> 32) ...; if ((float)v != 0) ...` with the
/// conversions through 64 bits that CUTLASS's random fill uses (`F2I.S64.TRUNC`, `I2F.S64`): the
/// first branch reads the high word (unsigned), the second the float of the whole integer.
const INT64: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ LDC R4, c[0x0][0x210] ;\n\
    \t/*0020*/ I2FP.F32.U32 R2, R0 ;\n\
    \t/*0030*/ FMUL R2, R2, R4 ;\n\
    \t/*0040*/ F2I.S64.TRUNC R6, R2 ;\n\
    \t/*0050*/ ISETP.GT.U32.AND P1, PT, R7, RZ, PT ;\n\
    \t/*0060*/ @P1 BRA `(.L_x_0) ;\n\
    \t/*0070*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*0080*/ I2F.S64 R3, R6 ;\n\
    \t/*0090*/ FSETP.NEU.AND P0, PT, R3, RZ, PT ;\n\
    \t/*00a0*/ @P0 BRA `(.L_x_1) ;\n\
    \t/*00b0*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_1:\n\
    \t/*00c0*/ EXIT ;\n";

#[test]
fn conversions_through_64_bit_integers_are_followed() {
    let f = flow(INT64);
    let p = |v: f32| v.to_le_bytes();
    // p = 0.25: every high word 0 (one uniform target); tids 0..3 truncate to 0, the others
    // jump: the second branch parts the warp
    assert_eq!(run(&f, 32, &p(0.25)), Ok((2, 1)));
    // p = -0.5: tids 0 and 1 truncate to 0, the others to negatives (high word 0xffffffff): the
    // first branch parts the warp, and each part takes the second branch as one
    assert_eq!(run(&f, 32, &p(-0.5)), Ok((3, 1)));
    // p = 2^40: every lane but tid 0 has a high word of 256 tid
    assert_eq!(run(&f, 32, &p(1_099_511_627_776.0)), Ok((3, 1)));
    // a NaN truncates to the most negative integer (high word 0x80000000), which converts back
    // to -2^63, not 0: both branches taken by every lane
    assert_eq!(run(&f, 32, &p(f32::NAN)), Ok((2, 0)));
}

/// `n - ((u64)tid << 30)` in 64 bits as ptxas writes it (a `LEA` of the negated low word, whose
/// carry goes into the high word's `IADD3.X`), then `if (hi != 0)`: only lane 0's difference
/// (`n` itself) stays non-negative.
const SUB64: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ LDC.64 R4, c[0x0][0x210] ;\n\
    \t/*0020*/ SHF.L.U64.HI R6, R0, 0x1e, RZ ;\n\
    \t/*0030*/ LEA R2, P0, -R0, R4, 0x1e ;\n\
    \t/*0040*/ IADD3.X R3, ~R6, R5, RZ, P0, !PT ;\n\
    \t/*0050*/ ISETP.NE.AND P1, PT, R3, RZ, PT ;\n\
    \t/*0060*/ @P1 BRA `(.L_x_0) ;\n\
    \t/*0070*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*0080*/ EXIT ;\n";

#[test]
fn a_lea_of_a_negated_word_carries_as_a_subtraction() {
    let f = flow(SUB64);
    // lane 0: n - 0 leaves no borrow (carry 1), the high word ~0 + 0 + 1 = 0: it stays; lanes
    // 1..31 borrow: the warp parts
    assert_eq!(run(&f, 32, &0x10000u64.to_le_bytes()), Ok((1, 1)));
    // n = 2^40: every lane's difference (1024 - tid) << 30 has a non-zero high word
    assert_eq!(run(&f, 32, &(1u64 << 40).to_le_bytes()), Ok((1, 0)));
}

/// `x = p[b]; if (x > 5) x++; <bar>; if (tid == 0) p[w] = x;` with `b` the block and `w` the block
/// (`other`: the other block), two blocks of two warps: warp 1 of each block reads the word its
/// block's warp 0 writes after the barrier `bar` (a line of machine code, a `NOP` for none).
fn read_then_barrier_then_store(bar: &str, other: bool) -> String {
    let w = if other {
        "\t/*0030*/ LOP3.LUT R7, R6, 0x1, RZ, 0x3c, !PT ;\n"
    } else {
        "\t/*0030*/ MOV R7, R6 ;\n"
    };
    format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ S2R R6, SR_CTAID.X ;\n\
         \t/*0020*/ LDC.64 R2, c[0x0][0x210] ;\n\
         {w}\
         \t/*0040*/ IMAD.WIDE.U32 R8, R6, 0x4, R2 ;\n\
         \t/*0050*/ IMAD.WIDE.U32 R10, R7, 0x4, R2 ;\n\
         \t/*0060*/ LDG.E R4, desc[UR4][R8.64] ;\n\
         \t/*0070*/ ISETP.GT.AND P0, PT, R4, 0x5, PT ;\n\
         \t/*0080*/ @!P0 BRA `(.L_x_0) ;\n\
         \t/*0090*/ IADD3 R4, R4, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*00a0*/ {bar} ;\n\
         \t/*00b0*/ ISETP.NE.AND P1, PT, R0, RZ, PT ;\n\
         \t/*00c0*/ @P1 EXIT ;\n\
         \t/*00d0*/ STG.E desc[UR4][R10.64], R4 ;\n\
         \t/*00e0*/ EXIT ;\n"
    )
}

#[test]
fn a_syncthreads_orders_a_read_before_the_blocks_later_store() {
    let base = 0x7000_0000u64;
    let start = [7u32, 3];
    let words: Vec<u8> = start.iter().flat_map(|v| v.to_le_bytes()).collect();
    // (the barrier line, the other block writes, whether the reads hold)
    let cases = [
        // every warp of the block reads before the barrier, warp 0 writes after it: the GPU's
        // warp 1 read the starting value, as the run did
        ("BAR.SYNC.DEFER_BLOCKING 0x0", false, true),
        // no barrier: warp 0's store and warp 1's load are not ordered
        ("NOP", false, false),
        // the other block's store: no barrier orders blocks
        ("BAR.SYNC.DEFER_BLOCKING 0x0", true, false),
        // a named barrier of 64 threads, an arrival: not the block's phases
        ("BAR.SYNC.DEFER_BLOCKING 0x1, 0x40", false, false),
        ("BAR.ARV 0x0, 0x40", false, false),
    ];
    for (bar, other, holds) in cases {
        let g = warpscope_emu::mem::Global::new(vec![(base, words.clone())]);
        let f = flow(&read_then_barrier_then_store(bar, other));
        let (_, reads) = f
            .run(
                &FlowLaunch {
                    global: Some(&g),
                    grid: [2, 1, 1],
                    block: [64, 1, 1],
                    params: &base.to_le_bytes(),
                    symbols: &[],
                    constants: &[],
                    cluster: [1, 1, 1],
                    shared: None,
                },
                1 << 20,
            )
            .unwrap();
        // the memory the GPU leaves: block b's x (7 + 1, 3) at p[b], or at the other block's word
        let after = warpscope_emu::mem::Global::new(vec![(base, words.clone())]);
        for (b, v) in [(0u64, 8u64), (1, 3)] {
            let w = if other { b ^ 1 } else { b };
            after.write(base + 4 * w, 4, v).unwrap();
        }
        assert_eq!(reads.hold(&after), holds, "{bar}, other block: {other}");
    }
}

/// `if (tid == 0) p[w] = 9; <bar>; if (tid >= 32) { x = p[b] + tid; if (x > 40) x++; }` with `b` the
/// block and `w` the block (`other`: the other block), two blocks of two warps: warp 1 of each
/// block reads the word its block's warp 0 stored before the barrier `bar`.
fn store_then_barrier_then_read(bar: &str, other: bool) -> String {
    let w = if other {
        "\t/*0030*/ LOP3.LUT R7, R6, 0x1, RZ, 0x3c, !PT ;\n"
    } else {
        "\t/*0030*/ MOV R7, R6 ;\n"
    };
    format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ S2R R6, SR_CTAID.X ;\n\
         \t/*0020*/ LDC.64 R2, c[0x0][0x210] ;\n\
         {w}\
         \t/*0040*/ IMAD.WIDE.U32 R8, R6, 0x4, R2 ;\n\
         \t/*0050*/ IMAD.WIDE.U32 R10, R7, 0x4, R2 ;\n\
         \t/*0060*/ ISETP.NE.AND P1, PT, R0, RZ, PT ;\n\
         \t/*0070*/ MOV R5, 0x9 ;\n\
         \t/*0080*/ @!P1 STG.E desc[UR4][R10.64], R5 ;\n\
         \t/*0090*/ {bar} ;\n\
         \t/*00a0*/ ISETP.GE.U32.AND P2, PT, R0, 0x20, PT ;\n\
         \t/*00b0*/ @!P2 EXIT ;\n\
         \t/*00c0*/ LDG.E R4, desc[UR4][R8.64] ;\n\
         \t/*00d0*/ IADD3 R4, R4, R0, RZ ;\n\
         \t/*00e0*/ ISETP.GT.AND P0, PT, R4, 0x28, PT ;\n\
         \t/*00f0*/ @!P0 BRA `(.L_x_0) ;\n\
         \t/*0100*/ IADD3 R4, R4, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0110*/ EXIT ;\n"
    )
}

#[test]
fn a_syncthreads_orders_the_blocks_earlier_store_before_a_read() {
    let base = 0x7000_0000u64;
    let mem = |v: u32| {
        let words: Vec<u8> = [v, v].iter().flat_map(|v| v.to_le_bytes()).collect();
        warpscope_emu::mem::Global::new(vec![(base, words)])
    };
    fn launch<'a>(g: &'a warpscope_emu::mem::Global, params: &'a [u8]) -> FlowLaunch<'a> {
        FlowLaunch {
            global: Some(g),
            grid: [2, 1, 1],
            block: [64, 1, 1],
            params,
            symbols: &[],
            constants: &[],
            cluster: [1, 1, 1],
            shared: None,
        }
    }
    let params = base.to_le_bytes();
    // (the barrier line, the other block writes, whether a run given the stored words holds)
    let cases = [
        // warp 0 stores before the barrier, warp 1 reads after it: on the GPU it reads 9
        ("BAR.SYNC.DEFER_BLOCKING 0x0", false, true),
        // no barrier: the store and the load are not ordered
        ("NOP", false, false),
        // the other block's store: no barrier orders blocks
        ("BAR.SYNC.DEFER_BLOCKING 0x0", true, false),
        // a named barrier of 64 threads: not the block's phases
        ("BAR.SYNC.DEFER_BLOCKING 0x1, 0x40", false, false),
    ];
    for (bar, other, holds) in cases {
        let f = flow(&store_then_barrier_then_read(bar, other));
        let start = mem(3);
        let first = f.run(&launch(&start, &params), 1 << 20).unwrap();
        // what the launch leaves: 9 in both words
        let after = mem(9);
        // warp 1 read 3 from the starting memory where the GPU's read 9
        assert!(!first.1.hold(&after), "{bar}, other block: {other}");
        let late = first.1.late(&after);
        assert_eq!(late.is_some(), holds, "{bar}, other block: {other}");
        let Some(late) = late else { continue };
        let (counts, reads) = f
            .run_late(&launch(&start, &params), Some(&late), 1 << 20)
            .unwrap();
        assert!(reads.hold(&after), "{bar}");
        // the GPU's path: warp 1 of each block reads 9 (every lane's 9 + tid > 40: one target),
        // as a run from memory holding 9 reads it; the starting 3 parts the warp (tid > 37)
        let nine = mem(9);
        let (want, _) = f.run(&launch(&nine, &params), 1 << 20).unwrap();
        assert_eq!((counts.targets, counts.divergent), (want.targets, want.divergent));
        assert_ne!(
            (counts.targets, counts.divergent),
            (first.0.targets, first.0.divergent),
            "the starting value takes the other path"
        );
    }
}

/// `a[1] = tid` by `STL`, then through the generic pointer `&a[0]` (the stack pointer plus the
/// local window's generic address, `c[0x0][0x20]`/`[0x24]`, as ptxas forms it on sm_90): a generic
/// load of `a[1]` and a branch on it, a generic store `a[2] = tid` read back by `LDL` and a branch
/// on that.
const GENERIC_LOCAL: &str = "\t/*0000*/ LDC R1, c[0x0][0x28] ;\n\
    \t/*0010*/ S2R R0, SR_TID.X ;\n\
    \t/*0020*/ VIADD R1, R1, 0xfffffff0 ;\n\
    \t/*0030*/ STL [R1+0x4], R0 ;\n\
    \t/*0040*/ ULDC UR6, c[0x0][0x20] ;\n\
    \t/*0050*/ IADD3 R2, P1, R1, UR6, RZ ;\n\
    \t/*0060*/ ULDC UR6, c[0x0][0x24] ;\n\
    \t/*0070*/ IMAD.X R3, RZ, RZ, UR6, P1 ;\n\
    \t/*0080*/ LD.E R5, desc[UR4][R2.64+0x4] ;\n\
    \t/*0090*/ ISETP.GE.AND P0, PT, R5, 0x10, PT ;\n\
    \t/*00a0*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*00b0*/ ST.E desc[UR4][R2.64+0x8], R0 ;\n\
    \t/*00c0*/ LDL R6, [R1+0x8] ;\n\
    \t/*00d0*/ ISETP.GE.AND P1, PT, R6, 0x8, PT ;\n\
    \t/*00e0*/ @P1 BRA `(.L_x_0) ;\n\
    .L_x_0:\n\
    \t/*00f0*/ EXIT ;\n";

#[test]
fn generic_loads_and_stores_in_the_local_window_are_the_lanes_local_memory() {
    let f = flow(GENERIC_LOCAL);
    // the first branch parts lanes 16..31 (tid >= 16) from 0..15; of those, 8..15 jump at the
    // second: two targets, both divergent
    assert_eq!(run(&f, 32, &[]), Ok((2, 2)));
    // a second warp: tids 32..63 all jump at the first branch
    assert_eq!(run(&f, 64, &[]), Ok((3, 2)));
    // through another register than the window's address: a global word the run cannot know
    let global = GENERIC_LOCAL.replace("IADD3 R2, P1, R1, UR6, RZ", "IADD3 R2, P1, R1, 0x100, RZ");
    let err = run(&flow(&global), 32, &[]).unwrap_err();
    assert!(err.contains("/*00a0*/") && err.contains("unknown value"), "{err}");
}

/// `n` in a subroutine's loop `do { n--; } while (n > 0)` whose exit is a return guarded by the
/// loop test (`@!P0 RET`), as ptxas ends a loop of `pow`'s in myocyte.
const GUARDED_RETURN: &str = "\t/*0000*/ LDC R0, c[0x0][0x210] ;\n\
    \t/*0010*/ MOV R4, 0x30 ;\n\
    \t/*0020*/ CALL.REL.NOINC `(.L_x_0) ;\n\
    \t/*0030*/ EXIT ;\n\
    .L_x_0:\n\
    \t/*0040*/ IADD3 R0, R0, -0x1, RZ ;\n\
    \t/*0050*/ ISETP.GT.AND P0, PT, R0, RZ, PT ;\n\
    \t/*0060*/ @!P0 RET.REL.NODEC R4 0x0 ;\n\
    \t/*0070*/ BRA `(.L_x_0) ;\n";

#[test]
fn a_return_whose_guard_fails_is_a_branch_target_too() {
    let f = flow(GUARDED_RETURN);
    // n = 3: the CALL, the RET three times (twice predicated off), the BRA twice: 6 targets
    // (the H200 counts a predicated-off RET: myocyte's first launch, 139950 = its BRA, CALL and
    // RET executions)
    assert_eq!(run(&f, 32, &3u32.to_le_bytes()), Ok((6, 0)));
    // n = 1: the CALL and the RET
    assert_eq!(run(&f, 64, &1u32.to_le_bytes()), Ok((4, 0)));
}

/// `fmin(tid, p)` / `fmax(tid, p)` of doubles: `DSETP.MIN`/`.MAX` choose between the operands, and
/// a branch on the choice.
fn min_max_flow(op: &str) -> MachineFlow {
    flow(&format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC.64 R4, c[0x0][0x210] ;\n\
         \t/*0020*/ I2F.F64.U32 R2, R0 ;\n\
         \t/*0030*/ DSETP.{op}.AND P0, P1, R2, R4, PT ;\n\
         \t/*0040*/ @P0 BRA `(.L_x_0) ;\n\
         \t/*0050*/ IADD3 R0, R0, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0060*/ @P1 BRA `(.L_x_1) ;\n\
         \t/*0070*/ IADD3 R0, R0, 0x1, RZ ;\n\
         .L_x_1:\n\
         \t/*0080*/ EXIT ;\n"
    ))
}

#[test]
fn double_min_and_max_choose_as_fmin_and_fmax() {
    // min(tid, 15.5): tid chosen for lanes 0..15 only; max: for 16..31 only; no NaN. The halves
    // part at the first branch and, with no BSYNC to join them, each runs the second alone
    for op in ["MIN", "MAX"] {
        let f = min_max_flow(op);
        assert_eq!(run(&f, 32, &15.5f64.to_le_bytes()), Ok((3, 1)), "{op}");
        // min(tid, 40) chooses tid in every lane, max(tid, 40) in none: uniform
        assert_eq!(run(&f, 32, &40f64.to_le_bytes()), Ok((2, 0)), "{op}");
        // a NaN operand loses: the number (tid) is chosen everywhere, and not both are NaN
        assert_eq!(run(&f, 32, &f64::NAN.to_le_bytes()), Ok((2, 0)), "{op}");
    }
    // the predicates themselves: (first operand chosen, both NaN)
    let nan = f64::NAN;
    assert_eq!(double::min_max(false, 1.0, 2.0), (true, false));
    assert_eq!(double::min_max(true, 1.0, 2.0), (false, false));
    assert_eq!(double::min_max(false, nan, 2.0), (false, false));
    assert_eq!(double::min_max(false, 2.0, nan), (true, false));
    assert_eq!(double::min_max(true, nan, nan), (false, true));
    // -0 is below +0
    assert_eq!(double::min_max(false, -0.0, 0.0), (true, false));
    assert_eq!(double::min_max(false, 0.0, -0.0), (false, false));
    assert_eq!(double::min_max(true, 0.0, -0.0), (true, false));
    assert_eq!(double::min_max(true, -0.0, 0.0), (false, false));
}

/// `if (sym[tid] >= 3)` on a 5-byte buffer: the last lane's byte sits in a word the allocation
/// covers in part.
#[test]
fn a_byte_in_the_last_word_of_an_odd_sized_buffer_is_known() {
    let f = flow(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC.64 R2, c[0x0][0x210] ;\n\
         \t/*0020*/ IMAD.WIDE.U32 R2, R0, 0x1, R2 ;\n\
         \t/*0030*/ LDG.E.U8 R4, desc[UR4][R2.64] ;\n\
         \t/*0040*/ ISETP.GE.AND P1, PT, R4, 0x3, PT ;\n\
         \t/*0050*/ @P1 BRA `(.L_x_0) ;\n\
         \t/*0060*/ IADD3 R4, R4, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0070*/ EXIT ;\n",
    );
    let base = 0x7000_0000u64;
    let bytes = vec![1u8, 2, 3, 4, 5];
    let g = warpscope_emu::mem::Global::new(vec![(base, bytes.clone())]);
    let launch = |g| FlowLaunch {
        global: Some(g),
        grid: [1, 1, 1],
        block: [5, 1, 1],
        params: &[0, 0, 0, 0x70, 0, 0, 0, 0],
        symbols: &[],
        constants: &[],
        cluster: [1, 1, 1],
        shared: None,
    };
    let (c, reads) = f.run(&launch(&g), 1 << 20).unwrap();
    // lanes 2, 3, 4 (bytes 3, 4, 5) jump, 0 and 1 do not
    assert_eq!((c.targets, c.divergent), (1, 1));
    assert!(reads.hold(&g));
    // the launch changed the last byte: the run read another value
    let after = warpscope_emu::mem::Global::new(vec![(base, vec![1u8, 2, 3, 4, 0])]);
    assert!(!reads.hold(&after));
}

/// `P2 = tid >= 16`, then `R2P PR, R3, MASK` (R3 = 0b100: P2 set in its bit), then `@P2 BRA`.
fn r2p_between(mask: &str) -> String {
    format!(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ ISETP.GE.U32.AND P2, PT, R0, 0x10, PT ;\n\
         \t/*0020*/ MOV R3, 0x4 ;\n\
         \t/*0030*/ R2P PR, R3, {mask} ;\n\
         \t/*0040*/ @P2 BRA `(.L_x_0) ;\n\
         \t/*0050*/ IADD3 R0, R0, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0060*/ EXIT ;\n"
    )
}

#[test]
fn an_r2p_writes_only_the_predicates_of_its_mask() {
    // mask 0x3 writes P0 and P1: P2 is still `tid >= 16`, so the branch parts the warp (libdevice's
    // sinf keeps its slow-path test in P2 across such an `R2P`: calibration/hopper/h200_triton2's
    // math_fns, 240 targets and 5 divergent on the H200)
    assert_eq!(run(&flow(&r2p_between("0x3")), 32, &[]), Ok((1, 1)));
    // mask 0x7 writes P2 too, from bit 2 of R3: every lane jumps
    assert_eq!(run(&flow(&r2p_between("0x7")), 32, &[]), Ok((1, 0)));
}

/// An interpreter's stack popped before anything was pushed (bench2's `interp`: `case 1: --sp;
/// acc += st[sp & 7]`): `acc += st[1]; st[2] = acc; if (st[2] & 1)`. The popped word was never
/// stored, so on the GPU it is whatever the thread's local memory held, and so is every value
/// made from it, through a push and a pop too.
const POP_FIRST: &str = "\t/*0000*/ LDC R1, c[0x0][0x28] ;\n\
    \t/*0010*/ S2R R0, SR_TID.X ;\n\
    \t/*0020*/ VIADD R1, R1, 0xffffffe0 ;\n\
    \t/*0030*/ LDL R3, [R1+0x4] ;\n\
    \t/*0040*/ IADD3 R4, R3, R0, RZ ;\n\
    \t/*0050*/ STL [R1+0x8], R4 ;\n\
    \t/*0060*/ LDL R5, [R1+0x8] ;\n\
    \t/*0070*/ LOP3.LUT R6, R5, 0x1, RZ, 0xc0, !PT ;\n\
    \t/*0080*/ ISETP.NE.U32.AND P0, PT, R6, RZ, PT ;\n\
    \t/*0090*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*00a0*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*00b0*/ EXIT ;\n";

#[test]
fn a_branch_on_a_pop_before_any_push_names_the_never_stored_read() {
    let err = run(&flow(POP_FIRST), 32, &[]).unwrap_err();
    assert!(err.starts_with("/*0090*/"), "{err}");
    assert!(reads_undefined_local(&err), "{err}");
    assert!(err.contains("/*0030*/ LDL R3, [R1+0x4]"), "{err}");
    // pushed first (`st[1] = tid`): acc = 2 tid is even in every lane, no lane jumps
    let pushed = POP_FIRST.replace(
        "\t/*0020*/ VIADD R1, R1, 0xffffffe0 ;\n",
        "\t/*0020*/ STL [R1+0x4], R0 ;\n",
    );
    assert_eq!(run(&flow(&pushed), 32, &[]), Ok((1, 0)));
    // the popped value overwritten before the push (`acc = tid`): the odd lanes jump
    let overwritten = POP_FIRST.replace("IADD3 R4, R3, R0, RZ", "MOV R4, R0");
    assert_eq!(run(&flow(&overwritten), 32, &[]), Ok((1, 1)));
    // a value unknown for another reason (a shared load with no record of the launch's shared
    // memory) is no never-stored read
    let shared = POP_FIRST.replace("LDL R3, [R1+0x4]", "LDS R3, [R0]");
    let err = run(&flow(&shared), 32, &[]).unwrap_err();
    assert!(
        err.contains("unknown value") && !reads_undefined_local(&err),
        "{err}"
    );
}

#[test]
fn a_never_stored_read_that_no_decision_uses_stops_nothing() {
    // the popped word goes to a register no branch reads: the run goes on to the end
    let unused = POP_FIRST.replace("LDL R5, [R1+0x8]", "MOV R5, R0");
    assert_eq!(run(&flow(&unused), 32, &[]), Ok((1, 1)));
    // a never-stored read in the other lanes' branch input only: lanes 0..15 store first
    let half = "\t/*0000*/ LDC R1, c[0x0][0x28] ;\n\
        \t/*0010*/ S2R R0, SR_TID.X ;\n\
        \t/*0020*/ ISETP.GE.U32.AND P1, PT, R0, 0x10, PT ;\n\
        \t/*0030*/ @!P1 STL [R1+0x4], R0 ;\n\
        \t/*0040*/ LDL R3, [R1+0x4] ;\n\
        \t/*0050*/ ISETP.NE.U32.AND P0, PT, R3, 0x3, PT ;\n\
        \t/*0060*/ @P0 BRA `(.L_x_0) ;\n\
        \t/*0070*/ IADD3 R0, R0, 0x1, RZ ;\n\
        .L_x_0:\n\
        \t/*0080*/ EXIT ;\n";
    // 16 threads: every lane stored; 32: lanes 16..31 read what they never stored
    assert_eq!(run(&flow(half), 16, &[]), Ok((1, 1)));
    let err = run(&flow(half), 32, &[]).unwrap_err();
    assert!(
        reads_undefined_local(&err) && err.contains("/*0040*/ LDL R3, [R1+0x4]"),
        "{err}"
    );
}

/// CUB's histogram sweep tests its input pointer's alignment in the uniform datapath
/// (`ULOP3.LUT UP0, URZ, UR4, 0xf, URZ, 0xc0, !UPT`: UP0 = (ptr & 15) != 0) and takes the
/// vectorised path by `PLOP3.LUT P0, PT, P0, PT, UP0, 0x40, 0x0` (P0 && !UP0).
const ALIGNED: &str = "\t/*0000*/ S2R R0, SR_TID.X ;\n\
    \t/*0010*/ ULDC UR4, c[0x0][0x210] ;\n\
    \t/*0020*/ ULOP3.LUT UP0, URZ, UR4, 0xf, URZ, 0xc0, !UPT ;\n\
    \t/*0030*/ ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n\
    \t/*0040*/ PLOP3.LUT P0, PT, P0, PT, UP0, 0x40, 0x0 ;\n\
    \t/*0050*/ @P0 BRA `(.L_x_0) ;\n\
    \t/*0060*/ IADD3 R0, R0, 0x1, RZ ;\n\
    .L_x_0:\n\
    \t/*0070*/ EXIT ;\n";

#[test]
fn a_uniform_lop3_writes_its_uniform_predicate() {
    let f = flow(ALIGNED);
    // aligned: UP0 false, lanes 16..31 jump
    assert_eq!(run(&f, 32, &0x1000u32.to_le_bytes()), Ok((1, 1)));
    // 4 bytes off: UP0 true, no lane jumps
    assert_eq!(run(&f, 32, &0x1004u32.to_le_bytes()), Ok((1, 0)));
}

/// `if (v % 3 != 0) ...` on a 64-bit `v`: ptxas divides by the constant through the high half of
/// a 128-bit product, `IMAD.WIDE.U32 d, P0, ...` carrying out of the 64-bit sum into an
/// `IMAD.X` and `IMAD.WIDE.U32.X` taking a carry in (bits64.cu's `n % p` in `isPrime`). The
/// carries were unknown (the flow stopped at the branch) and the `.WIDE.X` form dropped its
/// carry-in. One lane: the first branch jumps over the second when `v % 3 == 0`, so the launch
/// has one target then, two otherwise.
fn mod3(v: u64) -> Result<(u64, u64), String> {
    const MOD3: &str = "\t/*0000*/ LDC.64 R2, c[0x0][0x210] ;\n\
        \t/*0010*/ IMAD.WIDE.U32 R4, R3, -0x55555555, RZ ;\n\
        \t/*0020*/ IMAD.WIDE.U32 R6, P0, R2, -0x55555556, R4 ;\n\
        \t/*0030*/ IMAD.WIDE.U32 R4, R2, -0x55555555, RZ ;\n\
        \t/*0040*/ IMAD.X R9, RZ, RZ, RZ, P0 ;\n\
        \t/*0050*/ IADD3 RZ, P0, R5, R6, RZ ;\n\
        \t/*0060*/ IMAD.MOV.U32 R8, RZ, RZ, R7 ;\n\
        \t/*0070*/ IMAD.WIDE.U32.X R4, R3, -0x55555556, R8, P0 ;\n\
        \t/*0080*/ SHF.R.U32.HI R6, RZ, 0x1, R5.reuse ;\n\
        \t/*0090*/ SHF.R.U64 R7, R4, 0x1, R5 ;\n\
        \t/*00a0*/ IMAD R6, R6, -0x3, RZ ;\n\
        \t/*00b0*/ IMAD.WIDE.U32 R4, R7, -0x3, R2 ;\n\
        \t/*00c0*/ IADD3 R5, R5, -R7, R6 ;\n\
        \t/*00d0*/ ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;\n\
        \t/*00e0*/ ISETP.NE.AND.EX P0, PT, R5, RZ, PT, P0 ;\n\
        \t/*00f0*/ @!P0 BRA `(.L_x_0) ;\n\
        \t/*0100*/ ISETP.NE.U32.AND P1, PT, R4, 0x7, PT ;\n\
        \t/*0110*/ @P1 BRA `(.L_x_0) ;\n\
        .L_x_0:\n\
        \t/*0120*/ EXIT ;\n";
    run(&flow(MOD3), 1, &v.to_le_bytes())
}

#[test]
fn a_64_bit_remainder_by_a_constant_carries_through_wide_multiply_adds() {
    let mut values = vec![
        0u64,
        1,
        2,
        3,
        4,
        6,
        0xffff_ffff,
        0x1_0000_0000,
        0x1_0000_0002,
        u64::MAX,
        u64::MAX - 1,
        u64::MAX - 2,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        values.push(s);
        values.push(s - s % 3);
    }
    for v in values {
        let want = if v % 3 == 0 { 1 } else { 2 };
        assert_eq!(mod3(v), Ok((want, 0)), "v = {v:#x}");
    }
}

/// `IADD3 RZ, P0, a, b, RZ`: only the carry is kept. With the discarded sum the destinations
/// lost their places and P0 took the sum's truth value (non-zero) instead of the carry.
#[test]
fn a_carry_of_a_discarded_sum_is_the_carry() {
    const CARRY: &str = "\t/*0000*/ LDC.64 R2, c[0x0][0x210] ;\n\
        \t/*0010*/ IADD3 RZ, P0, R2, R3, RZ ;\n\
        \t/*0020*/ @P0 BRA `(.L_x_0) ;\n\
        \t/*0030*/ ISETP.NE.U32.AND P1, PT, R2, 0x12345, PT ;\n\
        \t/*0040*/ @P1 BRA `(.L_x_0) ;\n\
        .L_x_0:\n\
        \t/*0050*/ EXIT ;\n";
    let f = flow(CARRY);
    for (a, b) in [
        (0xffff_ffffu32, 1u32),
        (1, 1),
        (0x8000_0000, 0x8000_0001),
        (0, 0),
        (7, 0xffff_fff0),
    ] {
        let carry = u64::from(a) + u64::from(b) > u64::from(u32::MAX);
        let params = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
        // a carry jumps over the second branch
        assert_eq!(
            run(&f, 1, &params),
            Ok((if carry { 1 } else { 2 }, 0)),
            "{a:#x} + {b:#x}"
        );
    }
}

/// `R2UR P1, URZ, R3` before `@!P1 BRA.DIV` (cgtiles.cu's `thread_block_tile<8>` votes): the
/// uniform register takes one lane's value and P1 is set in the lanes whose value differs (H200,
/// calibration/bradiv/: the `@!P1` branch after it runs predicated on in 8 of 32 lanes for 8-lane
/// tiles, 16 for 16-lane ones). Here `@!P1 BRA` with 8-lane tile masks: in a full warp the 8 lanes
/// of the lowest tile jump (divergent); in an 8-lane block every lane agrees and all jump.
#[test]
fn a_predicate_out_of_r2ur_marks_the_lanes_that_differ() {
    const R2UR: &str = "\t/*0000*/ S2R R0, SR_LANEID ;\n\
        \t/*0010*/ ISETP.GE.U32.AND P1, PT, R0, RZ, PT ;\n\
        \t/*0020*/ LOP3.LUT R0, R0, 0xfffffff8, RZ, 0xc0, !PT ;\n\
        \t/*0030*/ IMAD.MOV.U32 R3, RZ, RZ, 0xff ;\n\
        \t/*0040*/ SHF.L.U32 R3, R3, R0, RZ ;\n\
        \t/*0050*/ R2UR P1, URZ, R3 ;\n\
        \t/*0060*/ @!P1 BRA `(.L_x_0) ;\n\
        \t/*0070*/ IADD3 R0, R0, 0x1, RZ ;\n\
        .L_x_0:\n\
        \t/*0080*/ EXIT ;\n";
    let f = flow(R2UR);
    assert_eq!(run(&f, 32, &[]), Ok((1, 1)));
    assert_eq!(run(&f, 8, &[]), Ok((1, 0)));
}

/// ptxas's check before a tile's votes (cgtiles.cu `tileSums<8>`): `REDUX.OR UR4` of the lanes'
/// member masks, `R2UR P1, URZ, R3`, `@!P1 BRA.DIV UR4` to a slow path that runs the vote under
/// `WARPSYNC.COLLECTIVE R3` group by group and jumps back. The GPU takes it with the whole warp
/// when the lanes whose guard holds are not the mask's lanes (H200: tileSums<8>/<4> 3 targets a
/// warp, 24,576 for 8,192 warps; calibration/bradiv/): 4 tiles of 8 lanes take it (the check and
/// the jump back, 2 targets, none divergent); one tile alone (an 8-lane block, mask 0xff = its
/// lanes) does not (1 target).
#[test]
fn a_convergence_check_on_tile_masks_is_taken_unless_the_guard_holds_in_the_masks_lanes() {
    const CHECK: &str = "\t/*0000*/ S2R R0, SR_LANEID ;\n\
        \t/*0010*/ LOP3.LUT R0, R0, 0xfffffff8, RZ, 0xc0, !PT ;\n\
        \t/*0020*/ IMAD.MOV.U32 R3, RZ, RZ, 0xff ;\n\
        \t/*0030*/ SHF.L.U32 R3, R3, R0, RZ ;\n\
        \t/*0040*/ REDUX.OR UR4, R3 ;\n\
        \t/*0050*/ R2UR P1, URZ, R3 ;\n\
        \t/*0060*/ @!P1 BRA.DIV UR4, `(.L_x_1) ;\n\
        \t/*0070*/ VOTE.ANY R6, PT, PT ;\n\
        .L_x_0:\n\
        \t/*0080*/ EXIT ;\n\
        .L_x_1:\n\
        \t/*0090*/ BSSY B0, `(.L_x_2) ;\n\
        \t/*00a0*/ WARPSYNC.COLLECTIVE R3, `(.L_x_3) ;\n\
        \t/*00b0*/ VOTE.ANY R6, PT, PT ;\n\
        \t/*00c0*/ ENDCOLLECTIVE ;\n\
        .L_x_3:\n\
        \t/*00d0*/ BSYNC B0 ;\n\
        .L_x_2:\n\
        \t/*00e0*/ BRA `(.L_x_0) ;\n";
    let f = flow(CHECK);
    assert_eq!(run(&f, 32, &[]), Ok((2, 0)));
    assert_eq!(run(&f, 8, &[]), Ok((1, 0)));
}

/// `sqrt(fabs(x))`'s slow-path test reads the high word of `|x|` (`DADD R10, -RZ, |R4|`): a loop
/// runs `hi >> 28` times on the high word of `b + |a|`, so a NaN's sign decides the count (15
/// with it, 7 without). A NaN operand comes back quieted with its own sign whatever the `|..|`;
/// `inf - inf` is the default NaN `0xfff8000000000000`; of two NaNs the later operand's
/// (calibration/equivalence/features/f64Nan.cu).
#[test]
fn double_nans_are_followed_as_the_gpu_writes_them() {
    let f = flow(
        "\t/*0000*/ LDC.64 R4, c[0x0][0x210] ;\n\
         \t/*0010*/ LDC.64 R6, c[0x0][0x218] ;\n\
         \t/*0020*/ DADD R10, R6, |R4| ;\n\
         \t/*0030*/ SHF.R.U32.HI R8, RZ, 0x1c, R11 ;\n\
         \t/*0040*/ IMAD.MOV.U32 R2, RZ, RZ, RZ ;\n\
         .L_x_0:\n\
         \t/*0050*/ IADD3 R2, R2, 0x1, RZ ;\n\
         \t/*0060*/ ISETP.GE.U32.AND P0, PT, R2, R8, PT ;\n\
         \t/*0070*/ @!P0 BRA `(.L_x_0) ;\n\
         \t/*0080*/ EXIT ;\n",
    );
    let p = |a: u64, b: u64| -> Vec<u8> { [a, b].iter().flat_map(|v| v.to_le_bytes()).collect() };
    let (inf, ninf) = (f64::INFINITY.to_bits(), f64::NEG_INFINITY.to_bits());
    // -sNaN + 0: quieted, the sign kept
    assert_eq!(run(&f, 32, &p(0xfff0_0000_0000_0001, 0)), Ok((15, 0)));
    // |inf| + -inf: the default NaN (its sign set)
    assert_eq!(run(&f, 32, &p(inf, ninf)), Ok((15, 0)));
    // the same quiet NaN twice: itself
    let q = 0x7ff8_0000_0000_0005;
    assert_eq!(run(&f, 32, &p(q, q)), Ok((7, 0)));
    // two different NaNs: the later operand's (`|R4|`, whatever its sign)
    assert_eq!(run(&f, 32, &p(q, 0xfff4_0000_0000_0000)), Ok((7, 0)));
    assert_eq!(run(&f, 32, &p(0xfff4_0000_0000_0000, q)), Ok((15, 0)));
    // an ordinary sum: 1.5 + |-2| = 3.5 (0x400c0000 >> 28 = 4)
    assert_eq!(run(&f, 32, &p((-2.0f64).to_bits(), 1.5f64.to_bits())), Ok((4, 0)));
}

/// `VIMNMX3`: the minimum (`PT`) or maximum (`!PT`) of three sources, unsigned with `.U32`, else
/// signed, an immediate among them (ptxas 13 folds `max(max(a, b), c)` into one, as in a block's
/// absolute maximum over the bits of floats and cooperative groups' `reduce` with `greater`).
#[test]
fn three_way_minimum_and_maximum_are_followed() {
    let p = |a: u32, b: u32| -> Vec<u8> { [a, b].iter().flat_map(|v| v.to_le_bytes()).collect() };
    // max(tid, a, b) > 20, unsigned
    let max3 = flow(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC.64 R4, c[0x0][0x210] ;\n\
         \t/*0020*/ VIMNMX3.U32 R2, R0, R4, R5, !PT ;\n\
         \t/*0030*/ ISETP.GT.U32.AND P0, PT, R2, 0x14, PT ;\n\
         \t/*0040*/ @P0 BRA `(.L_x_0) ;\n\
         \t/*0050*/ IADD3 R6, R6, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0060*/ EXIT ;\n",
    );
    // lanes 21..31 above 20
    assert_eq!(run(&max3, 32, &p(3, 5)), Ok((1, 1)));
    assert_eq!(run(&max3, 32, &p(3, 40)), Ok((1, 0)));
    // 0xffffffff is the largest unsigned (signed, -1 would leave lanes 0..20 at or below 20)
    assert_eq!(run(&max3, 32, &p(u32::MAX, 0)), Ok((1, 0)));
    // min(tid, 10, a) >= 5, signed
    let min3 = flow(
        "\t/*0000*/ S2R R0, SR_TID.X ;\n\
         \t/*0010*/ LDC R4, c[0x0][0x210] ;\n\
         \t/*0020*/ VIMNMX3 R3, R0, 0xa, R4, PT ;\n\
         \t/*0030*/ ISETP.GE.AND P0, PT, R3, 0x5, PT ;\n\
         \t/*0040*/ @P0 BRA `(.L_x_0) ;\n\
         \t/*0050*/ IADD3 R6, R6, 0x1, RZ ;\n\
         .L_x_0:\n\
         \t/*0060*/ EXIT ;\n",
    );
    assert_eq!(run(&min3, 32, &p(7, 0)), Ok((1, 1)));
    // -1 is below every lane's (unsigned, 0xffffffff would leave lanes 5..31 at 5 or more)
    assert_eq!(run(&min3, 32, &p(u32::MAX, 0)), Ok((1, 0)));
    assert_eq!(run(&min3, 32, &p(100, 0)), Ok((1, 1)));
}
