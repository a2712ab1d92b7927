//! The fp8 conversions against an H200 on every input class (calibration/fp8: `fp8_calib.cu`,
//! measured output `h200/fp8.bin.zst`, `h200/run.txt`): every f16 pattern in both halves of a
//! word to e4m3x2 and e5m2x2, with and without `.relu`; every pair of fp8 codes widened to f16x2,
//! with and without `.relu`; and a table of f32 pairs (specials and NaN payloads, both zeros,
//! f32 subnormals, every rounding boundary and tie of both formats at every exponent from 2^-30
//! to 2^20 and one ulp either side, random patterns) to e4m3x2 and e5m2x2, with and without
//! `.relu`. The emulator runs PTX kernels doing what the calibration kernels do (the same
//! instructions) on the inputs the program recorded, and every output must equal the H200's bit
//! for bit.

use warpscope_emu::{Arg, Launch, Limits, run};

struct Measured {
    f32s: Vec<u32>,
    from_f32: Vec<u16>,
    from_f16: Vec<u16>,
    to_f16: Vec<u32>,
}

fn measured() -> Measured {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../calibration/fp8/h200/fp8.bin.zst"
    );
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&raw[..]).unwrap();
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut b).unwrap();
    let u32s = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let u16s = |b: &[u8]| -> Vec<u16> {
        b.chunks_exact(2)
            .map(|c| u16::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let pairs = u32::from_le_bytes(b[..4].try_into().unwrap()) as usize;
    let mut at = 4;
    let mut take = |n: usize| {
        let s = &b[at..at + n];
        at += n;
        s
    };
    let f32s = u32s(take(8 * pairs));
    let from_f32 = u16s(take(8 * pairs));
    let from_f16 = u16s(take(8 * 65536));
    let to_f16 = u32s(take(16 * 65536));
    assert_eq!(at, b.len(), "the file's layout (fp8_calib.cu's main)");
    Measured {
        f32s,
        from_f32,
        from_f16,
        to_f16,
    }
}

/// One thread an element: `op` takes the input register `%a` (and `%b`) and writes `%d`.
fn kernel(forms: &[&str], in_ty: &str, in_bytes: u32, out_ty: &str, out_bytes: u32, two: bool) -> String {
    let (ld, st) = (format!("ld.global.{in_ty}"), format!("st.global.{out_ty}"));
    let reg = |t: &str| match t {
        "b16" => "%h",
        "f32" => "%f",
        _ => "%r",
    };
    let (ri, ro) = (reg(in_ty), reg(out_ty));
    let mut body = String::new();
    for (k, f) in forms.iter().enumerate() {
        let srcs = if two {
            format!("{ri}1, {ri}2")
        } else {
            format!("{ri}1")
        };
        body.push_str(&format!(
            "    {f} {ro}9, {srcs};\n    mad.wide.u32 %rd5, %r7, {out_bytes}, %rd2;\n    \
             mul.wide.u32 %rd6, %r8, {};\n    add.s64 %rd5, %rd5, %rd6;\n    {st} [%rd5], {ro}9;\n",
            k as u32 * out_bytes
        ));
    }
    let load = if two {
        format!(
            "    mul.wide.u32 %rd3, %r7, {};\n    add.s64 %rd3, %rd1, %rd3;\n    {ld} {ri}1, [%rd3];\n    {ld} {ri}2, [%rd3+{in_bytes}];\n",
            2 * in_bytes
        )
    } else {
        format!(
            "    mul.wide.u32 %rd3, %r7, {in_bytes};\n    add.s64 %rd3, %rd1, %rd3;\n    {ld} {ri}1, [%rd3];\n"
        )
    };
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 inp, .param .u64 out, .param .u32 n)\n{{\n\
         .reg .pred %p<2>;\n.reg .b16 %h<10>;\n.reg .b32 %r<10>;\n.reg .f32 %f<10>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [inp];\nld.param.u64 %rd2, [out];\nld.param.u32 %r8, [n];\n\
         cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n\
         mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.s32 %r7, %r2, %r3, %r1;\n\
         setp.ge.u32 %p1, %r7, %r8;\n@%p1 bra DONE;\n{load}{body}DONE:\nret;\n}}\n"
    )
}

/// Runs `ptx` over `n` elements of `input` and returns the output buffer of `out_len` bytes.
fn emulate(ptx: &str, input: Vec<u8>, n: u32, out_len: usize) -> Vec<u8> {
    let prog = warpscope_ptx::compile(ptx).unwrap_or_else(|e| panic!("{e:?}\n{ptx}"));
    let l = Launch::new(
        [n.div_ceil(256), 1, 1],
        [256, 1, 1],
        vec![Arg::Buffer(input), Arg::Buffer(vec![0; out_len]), Arg::U32(n)],
    );
    let res = run(&prog, "k", &l, &Limits::default(), |_| ()).unwrap();
    assert!(res.faults.is_empty(), "{:?}", res.faults);
    res.buffer(1).unwrap().to_vec()
}

/// The differences, as lines a person can read (the first 12), and their count.
fn differences<T: PartialEq + std::fmt::LowerHex + Copy>(
    forms: &[&str],
    per_form: usize,
    got: &[T],
    want: &[T],
    input: impl Fn(usize) -> String,
) -> (usize, String) {
    let mut n = 0;
    let mut lines = Vec::new();
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            n += 1;
            if lines.len() < 12 {
                lines.push(format!(
                    "{} of {}: H200 {w:#x}, emulated {g:#x}",
                    forms[i / per_form],
                    input(i % per_form)
                ));
            }
        }
    }
    (n, lines.join("\n"))
}

#[test]
fn f32_pairs_to_fp8_equal_the_h200() {
    let m = measured();
    let pairs = m.f32s.len() / 2;
    let forms = [
        "cvt.rn.satfinite.e4m3x2.f32",
        "cvt.rn.satfinite.e5m2x2.f32",
        "cvt.rn.satfinite.relu.e4m3x2.f32",
        "cvt.rn.satfinite.relu.e5m2x2.f32",
    ];
    let ptx = kernel(&forms, "f32", 4, "b16", 2, true);
    let input: Vec<u8> = m.f32s.iter().flat_map(|x| x.to_le_bytes()).collect();
    let out = emulate(&ptx, input, pairs as u32, 8 * pairs);
    let got: Vec<u16> = out
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(got.len(), m.from_f32.len());
    let (n, lines) = differences(&forms, pairs, &got, &m.from_f32, |i| {
        format!("({:#010x}, {:#010x})", m.f32s[2 * i], m.f32s[2 * i + 1])
    });
    assert_eq!(n, 0, "{n} of {} f32 pair conversions differ:\n{lines}", got.len());
}

#[test]
fn every_f16_pattern_to_fp8_equals_the_h200() {
    let m = measured();
    let forms = [
        "cvt.rn.satfinite.e4m3x2.f16x2",
        "cvt.rn.satfinite.e5m2x2.f16x2",
        "cvt.rn.satfinite.relu.e4m3x2.f16x2",
        "cvt.rn.satfinite.relu.e5m2x2.f16x2",
    ];
    let word = |i: u32| (i << 16) | (i.wrapping_mul(40503).wrapping_add(12345) & 0xffff);
    let input: Vec<u8> = (0..65536u32).flat_map(|i| word(i).to_le_bytes()).collect();
    let ptx = kernel(&forms, "b32", 4, "b16", 2, false);
    let out = emulate(&ptx, input, 65536, 8 * 65536);
    let got: Vec<u16> = out
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let (n, lines) = differences(&forms, 65536, &got, &m.from_f16, |i| {
        format!("f16x2 {:#010x}", word(i as u32))
    });
    assert_eq!(n, 0, "{n} of {} f16x2 conversions differ:\n{lines}", got.len());
}

#[test]
fn every_fp8_pair_widens_to_f16_as_on_the_h200() {
    let m = measured();
    let forms = [
        "cvt.rn.f16x2.e4m3x2",
        "cvt.rn.f16x2.e5m2x2",
        "cvt.rn.relu.f16x2.e4m3x2",
        "cvt.rn.relu.f16x2.e5m2x2",
    ];
    let input: Vec<u8> = (0..65536u32).flat_map(|i| (i as u16).to_le_bytes()).collect();
    let ptx = kernel(&forms, "b16", 2, "b32", 4, false);
    let out = emulate(&ptx, input, 65536, 16 * 65536);
    let got: Vec<u32> = out
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let (n, lines) = differences(&forms, 65536, &got, &m.to_f16, |i| format!("fp8x2 {i:#06x}"));
    assert_eq!(n, 0, "{n} of {} widenings differ:\n{lines}", got.len());
}
