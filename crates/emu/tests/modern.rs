//! The tensor-core-era instructions on nvcc's PTX (tests/data/modern.cu): ldmatrix / stmatrix,
//! cp.async, wmma and mma.sync give the values a CPU reference computes here, and send the events
//! the event contract (src/event.rs) promises: one LdMatrix / StMatrix / CpAsync event per warp
//! instruction with the row or destination addresses (and the cp.async sources), per-element
//! Load / Store events for wmma, and no ordinary Load / Store event for the matrix and
//! asynchronous-copy forms. Bit-exactness against the H100 is calibration/equivalence's job
//! (crates/cli/tests/equivalence.rs); per-kernel lowering is tested at the end.

#![allow(clippy::needless_range_loop)] // index loops mirror the CUDA references

use std::path::PathBuf;

use warpscope_emu::{AccessOp, Arg, EmuError, Launch, Limits, MemEvent, Program, Sink, Space, run};

fn program() -> Program {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/modern.ptx");
    let src = std::fs::read_to_string(&p).unwrap();
    warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{e:#?}"))
}

/// One recorded shared event: (pc, op, width, mask, addrs, src).
type Ev = (u32, AccessOp, u8, u32, [u64; 32], Option<[u64; 32]>);

#[derive(Default)]
struct Rec(Vec<Ev>);

impl Sink for Rec {
    fn mem(&mut self, e: &MemEvent<'_>) {
        if e.space == Space::Shared {
            self.0
                .push((e.pc, e.op, e.width, e.mask, *e.addrs, e.src.copied()));
        }
    }
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn random(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

/// The 16-bit element `e` of the shared tile (as u32 words).
fn half(t: &[u32], byte: usize) -> u32 {
    (t[byte / 4] >> (8 * (byte % 4))) & 0xffff
}

#[test]
fn ldmatrix_and_stmatrix_values_and_events() {
    let p = program();
    let inp = random(256, 7);
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(vec![0; 4 * 416]),
            Arg::Buffer(bytes(&inp)),
            Arg::I32(0),
        ],
    );
    let r = run(&p, "lds", &launch, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = words(r.buffer(0).unwrap());
    // row address of lane l: tile + ((l * 5) & 31) * 16
    let row = |l: usize| ((l * 5) & 31) * 16;
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        for m in 0..4 {
            // matrix m's row g comes from lane 8m + g; this lane holds columns 2t, 2t + 1
            let base = row(8 * m + g) + 4 * t;
            let want = half(&inp, base) | half(&inp, base + 2) << 16;
            assert_eq!(out[l * 4 + m], want, "x4 lane {l} matrix {m}");
        }
        // .trans x1: elements (2t, g) and (2t + 1, g) of matrix 0
        let want = half(&inp, row(2 * t) + 2 * g) | half(&inp, row(2 * t + 1) + 2 * g) << 16;
        assert_eq!(out[128 + l], want, "x1.trans lane {l}");
    }
    // stmatrix x2 of (l * 3, l * 7) to the same row addresses (lanes 0-15 give them)
    let mut tile = inp.clone();
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        for (m, v) in [(0, l as u32 * 3), (1, l as u32 * 7)] {
            let at = row(8 * m + g) + 4 * t;
            tile[at / 4] = v;
        }
    }
    assert_eq!(&out[160..416], &tile[..]);
    // events: x4 (lanes 0-31), x1 (lanes 0-7), x2 store (lanes 0-15), 16-byte rows, no Load/Store
    let ev: Vec<&Ev> = r.sinks[0]
        .0
        .iter()
        .filter(|e| matches!(e.1, AccessOp::LdMatrix | AccessOp::StMatrix))
        .collect();
    let kinds: Vec<(AccessOp, u8, u32)> = ev.iter().map(|e| (e.1, e.2, e.3)).collect();
    assert_eq!(
        kinds,
        [
            (AccessOp::LdMatrix, 16, u32::MAX),
            (AccessOp::LdMatrix, 16, 0xff),
            (AccessOp::StMatrix, 16, 0xffff)
        ]
    );
    let tile_base = p.kernel("lds").unwrap().shared[0].offset as u64;
    for l in 0..32 {
        assert_eq!(ev[0].4[l], tile_base + row(l) as u64);
    }
    let pcs: Vec<u32> = ev.iter().map(|e| e.0).collect();
    assert!(
        r.sinks[0]
            .0
            .iter()
            .all(|e| !pcs.contains(&e.0) || matches!(e.1, AccessOp::LdMatrix | AccessOp::StMatrix)),
        "an ordinary event at a matrix instruction"
    );
}

#[test]
fn cp_async_zero_fill_values_and_events() {
    let p = program();
    let inp = random(128, 11);
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Buffer(vec![0; 4 * 512]), Arg::Buffer(bytes(&inp))],
    );
    let r = run(&p, "cpa", &launch, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = words(r.buffer(0).unwrap());
    let inb = bytes(&inp);
    let outb = bytes(&out);
    for l in 0..32 {
        // 16 bytes from in + ((l * 3) & 31) * 16, of which the first l & 15 are copied
        let src = ((l * 3) & 31) * 16;
        for k in 0..16 {
            let want = if k < (l & 15) { inb[src + k] } else { 0 };
            assert_eq!(outb[l * 16 + k], want, "lane {l} byte {k}");
        }
        // 8 bytes from in + l * 8 at 1024 + l * 16
        assert_eq!(&outb[1024 + l * 16..1024 + l * 16 + 8], &inb[l * 8..l * 8 + 8]);
        assert_eq!(&outb[1032 + l * 16..1040 + l * 16], &[0xff; 8], "untouched bytes");
    }
    let ev: Vec<&Ev> = r.sinks[0].0.iter().filter(|e| e.1 == AccessOp::CpAsync).collect();
    assert_eq!(ev.len(), 2);
    let base = p.kernel("cpa").unwrap().shared[0].offset as u64;
    assert_eq!((ev[0].2, ev[0].3, ev[1].2), (16, u32::MAX, 8));
    let src0 = ev[0].5.expect("cp.async sources");
    let src1 = ev[1].5.expect("cp.async sources");
    for l in 0..32 {
        assert_eq!(ev[0].4[l], base + 16 * l as u64);
        assert_eq!(ev[1].4[l], base + 1024 + 16 * l as u64);
        assert_eq!(src0[l] - src0[0], ((l * 3) & 31) as u64 * 16);
        assert_eq!(src1[l] - src1[0], l as u64 * 8);
    }
    assert!(
        r.sinks[0]
            .0
            .iter()
            .filter(|e| e.1 != AccessOp::CpAsync)
            .all(|e| e.5.is_none())
    );
}

/// f16 bits of a small integer.
fn f16(x: i32) -> u16 {
    if x == 0 {
        return 0;
    }
    let (s, m) = (if x < 0 { 0x8000 } else { 0 }, x.unsigned_abs());
    let e = 31 - m.leading_zeros();
    s | ((e + 15) << 10) as u16 | ((m << (10 - e)) & 0x3ff) as u16
}

#[test]
fn wmma_and_mma_multiply_small_integers_exactly() {
    let p = program();
    let r16 = random(512, 3);
    let a: Vec<i32> = r16[..256].iter().map(|x| (x % 9) as i32 - 4).collect();
    let b: Vec<i32> = r16[256..].iter().map(|x| (x % 7) as i32 - 3).collect();
    let hb = |v: &[i32]| -> Vec<u8> { v.iter().flat_map(|&x| f16(x).to_le_bytes()).collect() };
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![
            Arg::Buffer(vec![0; 4 * 384]),
            Arg::Buffer(hb(&a)),
            Arg::Buffer(hb(&b)),
        ],
    );
    let r = run(&p, "mmaw", &launch, &Limits::default(), |_| Rec::default()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out: Vec<f32> = r
        .buffer(0)
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // A row-major a[m * 16 + k], B column-major b[n * 16 + k]
    let d =
        |m: usize, n: usize| -> f32 { (0..16).map(|k| a[m * 16 + k] * b[n * 16 + k]).sum::<i32>() as f32 };
    for m in 0..16 {
        for n in 0..16 {
            assert_eq!(out[m * 16 + n], d(m, n), "wmma D[{m}][{n}]");
        }
    }
    for l in 0..32 {
        let (g, t) = (l / 4, l % 4);
        for i in 0..4 {
            let (m, n) = (g + 8 * (i / 2), t * 2 + i % 2);
            assert_eq!(out[256 + l * 4 + i], d(m, n), "mma lane {l} element {i}");
        }
    }
    // wmma.load.a / .b from shared: one LdMatrix event each (ptxas's LDSM.16.M88.4 / MT88.4),
    // whose 32 sixteen-byte rows are the tile's 512 bytes, matrix m (lanes 8m..8m+7) memory rows
    // 8(m & 1).. and half m >> 1; no element loads. Store (row-major f32): four 8-byte stores.
    let base = |name: &str| {
        p.kernel("mmaw")
            .unwrap()
            .shared
            .iter()
            .find(|v| v.name.ends_with(name))
            .unwrap()
            .offset as u64
    };
    let mats: Vec<&Ev> = r.sinks[0]
        .0
        .iter()
        .filter(|e| e.1 == AccessOp::LdMatrix)
        .collect();
    assert_eq!(mats.len(), 2, "one LdMatrix event per A / B load");
    for (e, name) in mats.iter().zip(["sa", "sb"]) {
        assert_eq!((e.2, e.3), (16, u32::MAX));
        for l in 0..32 {
            let (row, half) = (((l / 8) & 1) * 8 + l % 8, l / 16);
            assert_eq!(
                e.4[l],
                base(name) + (row * 16 + half * 8) as u64 * 2,
                "{name} lane {l}"
            );
        }
    }
    assert!(
        !r.sinks[0].0.iter().any(|e| e.1 == AccessOp::Load && e.2 == 2),
        "no 2-byte element loads"
    );
    let st: Vec<&Ev> = r.sinks[0]
        .0
        .iter()
        .filter(|e| e.1 == AccessOp::Store && e.4[0] >= base("sd") && e.4[0] < base("sd") + 1024)
        .collect();
    assert_eq!(st.len(), 4, "four STS.64");
    assert!(st.iter().all(|e| e.2 == 8));
    // lane l (g = l / 4, t = l % 4) stores row g (+8), columns 2t, 2t + 1 (+8)
    let firsts: Vec<u64> = st.iter().map(|e| e.4[5] - base("sd")).collect();
    assert_eq!(
        firsts,
        [
            (16 + 2) * 4,
            (8 * 16 + 16 + 2) * 4,
            (16 + 8 + 2) * 4,
            (8 * 16 + 16 + 8 + 2) * 4
        ]
    );
}

#[test]
fn a_kernel_that_did_not_lower_is_a_clear_run_error() {
    let src = ".version 9.5\n.target sm_90\n.address_size 64\n\
        .visible .entry ok()\n{\n ret;\n}\n\
        .visible .entry bad()\n{\n .reg .b32 %r<2>;\n frobnicate.b32 %r1, %r0;\n ret;\n}\n";
    let p = warpscope_ptx::compile(src).unwrap();
    let e = run(&p, "bad", &Launch::default(), &Limits::default(), |_| ()).unwrap_err();
    assert!(
        matches!(&e, EmuError::NotLowered(k, why) if k == "bad" && why.contains("frobnicate")),
        "{e}"
    );
    assert!(run(&p, "ok", &Launch::default(), &Limits::default(), |_| ()).is_ok());
}

/// wmma.mma takes any pair of layouts: the fragments hold the logical elements whatever the
/// layout they were loaded with, so every `.{row,col}.{row,col}` product equals A x B.
#[test]
fn wmma_products_of_every_layout_pair() {
    let r16 = random(512, 11);
    let a: Vec<i32> = r16[..256].iter().map(|x| (x % 9) as i32 - 4).collect();
    let b: Vec<i32> = r16[256..].iter().map(|x| (x % 7) as i32 - 3).collect();
    let d =
        |m: usize, n: usize| -> f32 { (0..16).map(|k| a[m * 16 + k] * b[k * 16 + n]).sum::<i32>() as f32 };
    let regs = |p: &str, from: usize| {
        (from..from + 8)
            .map(|i| format!("%{p}{i}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    for la in ["row", "col"] {
        for lb in ["row", "col"] {
            let src = format!(
                ".version 8.0\n.target sm_90\n.address_size 64\n\
                 .visible .entry wm(.param .u64 o, .param .u64 a, .param .u64 b)\n{{\n\
                 .reg .b32 %r<16>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<4>;\n\
                 ld.param.u64 %rd1, [o];\nld.param.u64 %rd2, [a];\nld.param.u64 %rd3, [b];\n\
                 mov.f32 %f8, 0f00000000;\n\
                 wmma.load.a.sync.aligned.{la}.m16n16k16.global.f16 {{{ra}}}, [%rd2], 16;\n\
                 wmma.load.b.sync.aligned.{lb}.m16n16k16.global.f16 {{{rb}}}, [%rd3], 16;\n\
                 wmma.mma.sync.aligned.{la}.{lb}.m16n16k16.f32.f32 {{{rd}}}, {{{ra}}}, {{{rb}}}, {{{z}}};\n\
                 wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {{{rd}}}, 16;\n\
                 ret;\n}}\n",
                ra = regs("r", 0),
                rb = regs("r", 8),
                rd = regs("f", 0),
                z = ["%f8"; 8].join(","),
            );
            let p = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{la}.{lb}: {e:?}"));
            // memory images of A (16x16) and B (16x16) in the layouts named
            let img = |v: &[i32], row: bool| -> Vec<u8> {
                (0..256)
                    .flat_map(|i| {
                        let (r, c) = if row { (i / 16, i % 16) } else { (i % 16, i / 16) };
                        f16(v[r * 16 + c]).to_le_bytes()
                    })
                    .collect()
            };
            let launch = Launch::new(
                [1, 1, 1],
                [32, 1, 1],
                vec![
                    Arg::Buffer(vec![0; 1024]),
                    Arg::Buffer(img(&a, la == "row")),
                    Arg::Buffer(img(&b, lb == "row")),
                ],
            );
            let r = run(&p, "wm", &launch, &Limits::default(), |_| ()).unwrap();
            assert!(r.faults.is_empty(), "{:?}", r.faults);
            let out: Vec<f32> = r
                .buffer(0)
                .unwrap()
                .chunks(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            for m in 0..16 {
                for n in 0..16 {
                    assert_eq!(out[m * 16 + n], d(m, n), "{la}.{lb} D[{m}][{n}]");
                }
            }
        }
    }
}

/// Every wmma shape and type the PTX ISA has beyond m16n16k16 f16/bf16 into f32: each product of
/// small integers (exact in every type) equals the CPU's, A loaded row-major and B column-major,
/// D stored row-major (calibration/run/bench11's wmmamix runs the same forms on the H200).
#[test]
fn wmma_every_shape_and_type_multiplies_small_integers_exactly() {
    // (shape, m, n, k, input type, accumulator type, A, B and C registers)
    let cases = [
        ("m16n16k16", 16, 16, 16, "s8", "s32", 2, 2, 8),
        ("m32n8k16", 32, 8, 16, "s8", "s32", 4, 1, 8),
        ("m8n32k16", 8, 32, 16, "u8", "s32", 1, 4, 8),
        ("m16n16k16", 16, 16, 16, "f16", "f16", 8, 8, 4),
        ("m32n8k16", 32, 8, 16, "f16", "f32", 8, 8, 8),
        ("m8n32k16", 8, 32, 16, "f16", "f16", 8, 8, 4),
        ("m32n8k16", 32, 8, 16, "bf16", "f32", 8, 2, 8),
        ("m8n32k16", 8, 32, 16, "bf16", "f32", 2, 8, 8),
        ("m16n16k8", 16, 16, 8, "tf32", "f32", 4, 4, 8),
        ("m8n8k4", 8, 8, 4, "f64", "f64", 1, 1, 2),
    ];
    for (shape, m, n, k, ty, cty, na, nb, nc) in cases {
        let r = random(2048, 17);
        let signed = ty != "u8";
        let val = |x: u32| {
            if signed {
                (x % 9) as i32 - 4
            } else {
                (x % 13) as i32
            }
        };
        let a: Vec<i32> = (0..m * k).map(|i| val(r[i])).collect();
        let b: Vec<i32> = (0..k * n).map(|i| val(r[600 + i])).collect();
        let enc = |v: i32| -> Vec<u8> {
            match ty {
                "s8" | "u8" => vec![v as u8],
                "f16" => f16(v).to_le_bytes().to_vec(),
                "bf16" => (((v as f32).to_bits() >> 16) as u16).to_le_bytes().to_vec(),
                "tf32" => (v as f32).to_bits().to_le_bytes().to_vec(),
                _ => (v as f64).to_bits().to_le_bytes().to_vec(),
            }
        };
        // A row-major (ldm k), B column-major (element (kk, c) at c * k + kk, ldm k)
        let img_a: Vec<u8> = a.iter().flat_map(|&v| enc(v)).collect();
        let img_b: Vec<u8> = (0..k * n).flat_map(|i| enc(b[(i % k) * n + i / k])).collect();
        let regs = |p: &str, from: usize, cnt: usize| {
            (from..from + cnt)
                .map(|i| format!("%{p}{i}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let (cp, creg, zero) = match cty {
            "f32" => ("f", ".f32 %f<16>", "0f00000000"),
            "f64" => ("fd", ".f64 %fd<16>", "0d0000000000000000"),
            _ => ("c", ".b32 %c<16>", "0"),
        };
        let (ap, areg) = if ty == "f64" {
            ("ad", ".f64 %ad<4>")
        } else if ty == "tf32" {
            ("af", ".f32 %af<16>")
        } else {
            ("r", ".b32 %r<32>")
        };
        let zeros: String = (0..nc)
            .map(|i| {
                format!(
                    "mov.b{} %{cp}{}, {zero};\n",
                    if cty == "f64" { 64 } else { 32 },
                    8 + i
                )
            })
            .collect();
        let types = if ty == "f16" {
            format!("{cty}.{cty}")
        } else {
            format!("{cty}.{ty}.{ty}.{cty}")
        };
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry wm(.param .u64 o, .param .u64 a, .param .u64 b)\n{{\n\
             .reg {areg};\n.reg {creg};\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [o];\nld.param.u64 %rd2, [a];\nld.param.u64 %rd3, [b];\n{zeros}\
             wmma.load.a.sync.aligned.row.{shape}.global.{ty} {{{ra}}}, [%rd2], {k};\n\
             wmma.load.b.sync.aligned.col.{shape}.global.{ty} {{{rb}}}, [%rd3], {k};\n\
             wmma.mma.sync.aligned.row.col.{shape}.{types} {{{rd}}}, {{{ra}}}, {{{rb}}}, {{{rz}}};\n\
             wmma.store.d.sync.aligned.row.{shape}.global.{cty} [%rd1], {{{rd}}}, {n};\n\
             ret;\n}}\n",
            ra = regs(ap, 0, na),
            rb = regs(ap, na, nb),
            rd = regs(cp, 0, nc),
            rz = regs(cp, 8, nc),
        );
        let p = warpscope_ptx::compile(&src).unwrap_or_else(|e| panic!("{shape} {ty}: {e:?}\n{src}"));
        let out_bytes = m
            * n
            * if cty == "f64" {
                8
            } else if cty == "f16" {
                2
            } else {
                4
            };
        let launch = Launch::new(
            [1, 1, 1],
            [32, 1, 1],
            vec![
                Arg::Buffer(vec![0; out_bytes]),
                Arg::Buffer(img_a),
                Arg::Buffer(img_b),
            ],
        );
        let res = run(&p, "wm", &launch, &Limits::default(), |_| ()).unwrap();
        assert!(res.faults.is_empty(), "{shape} {ty}: {:?}", res.faults);
        let out = res.buffer(0).unwrap();
        for i in 0..m {
            for j in 0..n {
                let want: i32 = (0..k).map(|kk| a[i * k + kk] * b[kk * n + j]).sum();
                let e = i * n + j;
                let got = match cty {
                    "s32" => f64::from(i32::from_le_bytes(out[4 * e..4 * e + 4].try_into().unwrap())),
                    "f32" => f64::from(f32::from_le_bytes(out[4 * e..4 * e + 4].try_into().unwrap())),
                    "f64" => f64::from_le_bytes(out[8 * e..8 * e + 8].try_into().unwrap()),
                    _ => {
                        let h = u16::from_le_bytes(out[2 * e..2 * e + 2].try_into().unwrap());
                        assert_eq!(h, f16(want), "{shape} {ty} D[{i}][{j}] bits");
                        f64::from(want)
                    }
                };
                assert_eq!(got, f64::from(want), "{shape} {ty} into {cty}: D[{i}][{j}]");
            }
        }
    }
}

/// `cvt.rna.tf32.f32` (`wmma::__float_to_tf32`): 10 fraction bits kept, ties away from zero,
/// the largest finite floats to infinity, infinities and NaNs kept.
#[test]
fn cvt_rna_tf32_rounds_ties_away_from_zero() {
    let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry t(.param .u64 o)\n{\n\
               .reg .b32 %r<4>;\n.reg .f32 %f<2>;\n.reg .b64 %rd<4>;\n\
               ld.param.u64 %rd1, [o];\nmov.u32 %r1, %tid.x;\n\
               mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
               ld.global.f32 %f1, [%rd3];\ncvt.rna.tf32.f32 %r2, %f1;\n\
               st.global.b32 [%rd3], %r2;\nret;\n}\n";
    let p = warpscope_ptx::compile(src).unwrap();
    let cases: [(u32, u32); 9] = [
        (0x3f80_0000, 0x3f80_0000), // 1.0
        (0x3f80_1000, 0x3f80_2000), // 1 + 2^-11: a tie, away from zero
        (0xbf80_1000, 0xbf80_2000), // -(1 + 2^-11)
        (0x3f80_0fff, 0x3f80_0000), // below the tie
        (0x3f80_3000, 0x3f80_4000), // a tie above an odd quantum: still away
        (0x7f7f_ffff, 0x7f80_0000), // the largest float: infinity
        (0x7f80_0000, 0x7f80_0000), // infinity
        (0x7f80_0001, 0x7f80_0001), // a NaN with only low payload bits stays a NaN
        (0x0000_0fff, 0x0000_0000), // a subnormal below the tie
    ];
    let input: Vec<u8> = cases.iter().flat_map(|c| c.0.to_le_bytes()).collect();
    let launch = Launch::new([1, 1, 1], [cases.len() as u32, 1, 1], vec![Arg::Buffer(input)]);
    let r = run(&p, "t", &launch, &Limits::default(), |_| ()).unwrap();
    let out = words(r.buffer(0).unwrap());
    for (i, c) in cases.iter().enumerate() {
        assert_eq!(out[i], c.1, "{:#010x}", c.0);
    }
}
