//! Counted loops whose pointers move: ptxas's unrolled bodies of the book's
//! `sumMatrixOnGPU1D` and of a pointer walk with a 64-bit stride
//! (`calibration/run/bench/sum1d.cu`, `gridstride.cu`), closed form against stepping.

use super::super::{FlowCounts, FlowLaunch, MachineFlow};

/// Numbers the instructions of `lines` (labels kept) as nvdisasm prints them.
fn sass(lines: &[&str]) -> String {
    let mut out = String::from("\t.section\t.text.k,\"ax\",@progbits\n");
    let mut at = 0;
    for l in lines {
        if l.ends_with(':') {
            out.push_str(&format!("{l}\n"));
        } else {
            out.push_str(&format!("\t/*{at:04x}*/ {l} ;\n"));
            at += 0x10;
        }
    }
    out
}

fn flow(lines: &[&str]) -> MachineFlow {
    let ks = warpscope_toolchain::sass::parse_disassembly(&sass(lines)).unwrap();
    MachineFlow::counting_globals(&ks[0])
}

fn stepping(f: &MachineFlow) -> MachineFlow {
    let mut s = f.clone();
    s.loops.iter_mut().for_each(|l| *l = None);
    s
}

/// Runs `f` on `grid` blocks of `block` threads: the counts and how often iterations were
/// added in closed form.
fn run(f: &MachineFlow, grid: u32, block: u32, params: &[u8]) -> (Result<FlowCounts, String>, u64) {
    let get = || f.added.load(std::sync::atomic::Ordering::Relaxed);
    let added = get();
    let c = f
        .run(
            &FlowLaunch {
                global: None,
                grid: [grid, 1, 1],
                block: [block, 1, 1],
                params,
                symbols: &[],
                constants: &[],
                cluster: [1, 1, 1],
                shared: None,
            },
            1 << 32,
        )
        .map(|(c, _)| c);
    (c, get() - added)
}

/// ptxas's 4-way body of `for (iy = 0; iy < ny; iy++) { idx = iy * nx + ix; C[idx] = A[idx] +
/// B[idx]; }` (sum1d.cu, sm_90): the three pointers renamed through `IMAD.WIDE q, nx, 4, p`,
/// a uniform row counter beside the trip counter. After the loop, a branch on the moved
/// pointer's low word and one on the uniform counter.
const SUM1D: &[&str] = &[
    "S2R R5, SR_TID.X",
    "S2R R0, SR_CTAID.X",
    "ULDC UR5, c[0x0][0x0]",
    "IMAD R5, R0, UR5, R5",
    "LDC.64 R2, c[0x0][0x228]",
    "LDC.64 R6, c[0x0][0x210]",
    "LDC.64 R8, c[0x0][0x218]",
    "LDC.64 R10, c[0x0][0x220]",
    "ULDC.64 UR6, c[0x0][0x208]",
    "IMAD.WIDE R6, R5, 0x4, R6",
    "IMAD.WIDE R8, R5, 0x4, R8",
    "IMAD.WIDE R10, R5, 0x4, R10",
    "UMOV UR4, URZ",
    ".L_x_0:",
    "LDG.E R4, desc[UR6][R8.64]",
    "LDG.E R13, desc[UR6][R6.64]",
    "IMAD.WIDE R14, R2, 0x4, R8",
    "FADD R23, R4, R13",
    "IMAD.WIDE R12, R2, 0x4, R6",
    "STG.E desc[UR6][R10.64], R23",
    "LDG.E R4, desc[UR6][R14.64]",
    "LDG.E R19, desc[UR6][R12.64]",
    "IMAD.WIDE R16, R2, 0x4, R10",
    "IMAD.WIDE R8, R2, 0x4, R12",
    "FADD R25, R4, R19",
    "IMAD.WIDE R18, R2, 0x4, R14",
    "STG.E desc[UR6][R16.64], R25",
    "LDG.E R4, desc[UR6][R18.64]",
    "LDG.E R7, desc[UR6][R8.64]",
    "IMAD.WIDE R20, R2, 0x4, R16",
    "IMAD.WIDE R14, R2, 0x4, R8",
    "IMAD.WIDE R12, R2, 0x4, R18",
    "FADD R11, R4, R7",
    "STG.E desc[UR6][R20.64], R11",
    "LDG.E R7, desc[UR6][R14.64]",
    "LDG.E R4, desc[UR6][R12.64]",
    "IADD3 R3, R3, -0x4, RZ",
    "IMAD.WIDE R22, R2, 0x4, R20",
    "UIADD3 UR4, UR4, 0x4, URZ",
    "ISETP.NE.AND P0, PT, R3, RZ, PT",
    "IMAD.WIDE R8, R2, 0x4, R12",
    "IMAD.WIDE R10, R2, 0x4, R22",
    "FADD R17, R4, R7",
    "IMAD.WIDE R6, R2, 0x4, R14",
    "STG.E desc[UR6][R22.64], R17",
    "@P0 BRA `(.L_x_0)",
    "LDC R13, c[0x0][0x230]",
    "ISETP.GE.U32.AND P1, PT, R10, R13, PT",
    "@P1 BRA `(.L_x_1)",
    "IADD3 R12, R5, UR4, RZ",
    "ISETP.GE.AND P2, PT, R12, 0x30, PT",
    "@P2 BRA `(.L_x_1)",
    "STG.E desc[UR6][R10.64], R12",
    ".L_x_1:",
    "EXIT",
];

/// A, B, C, nx, the trip count (a multiple of 4), the threshold for the moved pointer.
fn sum1d_params(nx: i32, n: i32, threshold: u32) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend(0x7000_0000u64.to_le_bytes());
    p.extend(0x9000_0040u64.to_le_bytes());
    p.extend(0x2_ffff_0000u64.to_le_bytes());
    p.extend(nx.to_le_bytes());
    p.extend(n.to_le_bytes());
    p.extend(threshold.to_le_bytes());
    p.extend([0u8; 4]);
    p
}

#[test]
fn moving_pointers_of_sum1d_count_what_stepping_counts() {
    let f = flow(SUM1D);
    assert!(
        f.loops.iter().any(Option::is_some),
        "the 4-way loop is recognised"
    );
    let s = stepping(&f);
    // a trip of the 4-way body moves the pointers by 4 rows: 4 * 4 * nx bytes. Whole sectors
    // (nx 16384, 8, 8 back, 12, 2) are closed; 16, 48 and 112 bytes (nx 1, 3, 7) move the
    // lanes' sector pattern and are stepped
    for (nx, closed) in [
        (16384, true),
        (8, true),
        (-8, true),
        (12, true),
        (2, true),
        (1, false),
        (3, false),
        (7, false),
    ] {
        for n in [4, 8, 12, 40, 400] {
            for block in [32, 40, 64] {
                // the threshold between the 4th and 5th lanes' final C pointers
                let end_c = |lane: u32| {
                    (0x2_ffff_0000u64 + u64::from(lane) * 4)
                        .wrapping_add((i64::from(nx) * 4 * i64::from(n)) as u64)
                };
                let threshold = end_c(4) as u32;
                let p = sum1d_params(nx, n, threshold);
                let (a, added) = run(&f, 2, block, &p);
                let (b, _) = run(&s, 2, block, &p);
                let case = format!("nx {nx}, n {n}, {block} threads");
                assert_eq!(a, b, "{case}");
                let c = a.unwrap();
                assert!(c.global.is_some(), "{case}");
                assert_eq!(added > 0, closed && n >= 16, "{case}: {added} additions");
                // the moved pointer splits the first warp at lane 4 (it wraps below 2^32 for
                // no lane of these)
                assert!(c.divergent >= 1, "{case}: {c:?}");
            }
        }
    }
    // by hand, nx = 16384, n = 400 on one warp of 32 lanes in each of 2 blocks: 100 trips of
    // the 4-way body (8 loads, 4 stores, each lane its own sector in 4 of 32 bytes: 4 sectors a
    // request), then the branches: the loop's 100, the first test's, the second's
    let p = sum1d_params(16384, 400, 0);
    let (c, added) = run(&f, 2, 32, &p);
    let c = c.unwrap();
    assert!(added >= 2, "{added}");
    let g = c.global.unwrap();
    assert_eq!((g.ld_requests, g.st_requests), (2 * 800, 2 * 400));
    assert_eq!((g.ld_sectors, g.st_sectors), (2 * 800 * 4, 2 * 400 * 4));
}

/// ptxas's 4-way body of `for (r = 0; r < rows; ++r) { s += *p; *p = s; p += pitch; }` with a
/// `size_t` pitch (gridstride.cu's columnScale, sm_90): the pointer walks through
/// `IADD3 lo, P, p.lo, 4 * pitch.lo` and `IMAD.X`/`IADD3.X` of the high words, the last sum's
/// carries left in P1 and P2. After the loop, a branch on the pointer and one on P2's carry.
const WALK: &[&str] = &[
    "S2R R0, SR_TID.X",
    "S2R R3, SR_CTAID.X",
    "ULDC UR5, c[0x0][0x0]",
    "IMAD R0, R3, UR5, R0",
    "LDC.64 R2, c[0x0][0x218]",
    "LDC R8, c[0x0][0x220]",
    "ULDC.64 UR6, c[0x0][0x210]",
    "ULDC.64 UR4, c[0x0][0x208]",
    "SHF.R.S32.HI R9, RZ, 0x1f, R0",
    "LEA R16, P1, R0, UR6, 0x2",
    "LEA.HI.X R17, R0, UR7, R9, 0x2, P1",
    "IMAD.SHL.U32 R11, R3, 0x4, RZ",
    "SHF.L.U64.HI R12, R2, 0x4, R3",
    "IMAD.WIDE.U32 R4, R2, 0x4, RZ",
    "IMAD.SHL.U32 R13, R2, 0x10, RZ",
    "IMAD.IADD R11, R5, 0x1, R11",
    "IMAD.MOV.U32 R14, RZ, RZ, RZ",
    ".L_x_0:",
    "LDG.E R15, desc[UR4][R16.64]",
    "IADD3 R6, P0, R16, R4, RZ",
    "IMAD.X R7, R17, 0x1, R11, P0",
    "FADD R15, R15, R14",
    "STG.E desc[UR4][R16.64], R15",
    "LDG.E R14, desc[UR4][R6.64]",
    "IADD3 R18, P0, R6, R4, RZ",
    "IMAD.X R19, R7, 0x1, R11, P0",
    "FADD R23, R15, R14",
    "STG.E desc[UR4][R6.64], R23",
    "LDG.E R14, desc[UR4][R18.64]",
    "IADD3 R20, P0, R18, R4, RZ",
    "IADD3.X R21, R19, R11, RZ, P0, !PT",
    "VIADD R8, R8, 0xfffffffc",
    "FADD R25, R23, R14",
    "STG.E desc[UR4][R18.64], R25",
    "LDG.E R14, desc[UR4][R20.64]",
    "ISETP.NE.AND P0, PT, R8, RZ, PT",
    "IADD3 R15, P1, R20, R4, RZ",
    "IADD3 R6, P2, R16, R13, RZ",
    "IMAD.X R22, R21, 0x1, R11, P1",
    "IADD3.X R7, R17, R12, RZ, P2, !PT",
    "IMAD.MOV.U32 R16, RZ, RZ, R15",
    "IMAD.MOV.U32 R17, RZ, RZ, R22",
    "FADD R14, R25, R14",
    "STG.E desc[UR4][R20.64], R14",
    "@P0 BRA `(.L_x_0)",
    "LDC R13, c[0x0][0x228]",
    "ISETP.GE.U32.AND P3, PT, R16, R13, PT",
    "@P3 BRA `(.L_x_1)",
    "IADD3.X R12, RZ, RZ, RZ, P2, !PT",
    "ISETP.NE.AND P4, PT, R12, RZ, PT",
    "@P4 BRA `(.L_x_1)",
    "STG.E desc[UR4][R16.64], R12",
    ".L_x_1:",
    "EXIT",
];

fn walk_params(base: u64, pitch: u64, rows: i32, threshold: u32) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend(base.to_le_bytes());
    p.extend(pitch.to_le_bytes());
    p.extend(rows.to_le_bytes());
    p.extend([0u8; 4]);
    p.extend(threshold.to_le_bytes());
    p.extend([0u8; 4]);
    p
}

#[test]
fn a_pointer_walk_with_a_64_bit_stride_counts_what_stepping_counts() {
    let f = flow(WALK);
    assert!(
        f.loops.iter().any(Option::is_some),
        "the 4-way loop is recognised"
    );
    let s = stepping(&f);
    let base = 0x7_ffff_f000u64;
    // a trip moves the pointer by 4 rows, 16 * pitch bytes: whole sectors for even pitches
    for (pitch, closed) in [
        (8u64, true),
        (1024, true),
        (8192, true),
        (2, true),
        ((1 << 32) + 8, true),
        (u64::MAX - 7, true),
        (7, false),
        (13, false),
        ((1 << 32) + 1, false),
    ] {
        for rows in [4, 8, 12, 40, 400] {
            for block in [32, 40, 64] {
                let end = |lane: u64| (base + lane * 4).wrapping_add(pitch.wrapping_mul(4 * rows as u64));
                let p = walk_params(base, pitch, rows, end(4) as u32);
                let (a, added) = run(&f, 2, block, &p);
                let (b, _) = run(&s, 2, block, &p);
                let case = format!("pitch {pitch}, rows {rows}, {block} threads");
                assert_eq!(a, b, "{case}");
                let c = a.unwrap();
                assert!(c.global.is_some(), "{case}");
                assert_eq!(added > 0, closed && rows >= 16, "{case}: {added} additions");
            }
        }
    }
    // by hand, pitch 1024 floats, 400 rows, one warp of 32 lanes in each of 2 blocks: 100 trips
    // of 4 loads and 4 stores of 4 sectors each
    let (c, _) = run(&f, 2, 32, &walk_params(base, 1024, 400, 0));
    let g = c.unwrap().global.unwrap();
    assert_eq!((g.ld_requests, g.ld_sectors), (2 * 400, 2 * 400 * 4));
    assert_eq!((g.st_requests, g.st_sectors), (2 * 400, 2 * 400 * 4));
}

#[test]
fn the_books_size_adds_its_iterations_at_once() {
    // sumMatrixOnGPU1D at the book's 16384 x 16384: 4096 trips of the 4-way body per warp, 512
    // warps; a few closed-form additions per warp (from the second trip on), not thousands
    let f = flow(SUM1D);
    let (c, added) = run(&f, 512, 32, &sum1d_params(16384, 16384, 0));
    let c = c.unwrap();
    assert!((512..=2 * 512).contains(&added), "{added} additions");
    let g = c.global.unwrap();
    assert_eq!(g.ld_requests, 512 * 2 * 16384);
    assert_eq!(g.st_requests, 512 * 16384);
}

/// Loops whose registers do not move by a step: a pointer that doubles its stride each
/// iteration (`p += s; s *= 2`: the step itself moves), and one whose address is the sum of
/// two moving values. Neither is a counted loop; the flow steps them.
#[test]
fn registers_that_do_not_move_by_a_step_are_not_a_counted_loop() {
    let head = [
        "S2R R0, SR_TID.X",
        "LDC.64 R2, c[0x0][0x210]",
        "LDC R8, c[0x0][0x218]",
        "ULDC.64 UR4, c[0x0][0x208]",
        "IMAD.WIDE R2, R0, 0x4, R2",
        "MOV R4, 0x20",
        ".L_x_0:",
    ];
    let tail = [
        "IADD3 R8, R8, -0x1, RZ",
        "ISETP.NE.AND P0, PT, R8, RZ, PT",
        "@P0 BRA `(.L_x_0)",
        "EXIT",
    ];
    let doubling = [
        "LDG.E R5, desc[UR4][R2.64]",
        "IADD3 R2, P1, R2, R4, RZ",
        "IADD3.X R3, R3, RZ, RZ, P1, !PT",
        "IMAD.SHL.U32 R4, R4, 0x2, RZ",
    ];
    let two = [
        "IADD3 R6, P1, R2, R4, RZ",
        "IADD3.X R7, R3, RZ, RZ, P1, !PT",
        "LDG.E R5, desc[UR4][R6.64]",
        "IADD3 R2, P1, R2, 0x20, RZ",
        "IADD3.X R3, R3, RZ, RZ, P1, !PT",
        "IADD3 R4, R4, R2, RZ",
    ];
    for body in [&doubling[..], &two[..]] {
        let lines: Vec<&str> = head.iter().chain(body).chain(&tail).copied().collect();
        let f = flow(&lines);
        assert!(f.loops.iter().all(Option::is_none), "{body:?}");
        let mut p = 0x7000_0000u64.to_le_bytes().to_vec();
        p.extend(20i32.to_le_bytes());
        p.extend([0u8; 4]);
        let (c, added) = run(&f, 1, 32, &p);
        let g = c.unwrap().global.unwrap();
        assert_eq!((g.ld_requests, added), (20, 0), "{body:?}");
    }
}
