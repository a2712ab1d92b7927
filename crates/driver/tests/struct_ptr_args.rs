//! `struct:` arguments whose fields point to buffers (`ptr=buf:BYTES`, `ptr=buf:BYTES:zero`,
//! `ptr=buf:@FILE`) and by-value arrays of structs (`{FIELDS}[N]`): kernels compiled from CUDA C++
//! (NVRTC or nvcc; their absence fails the test, saying so) take a struct of two pointers and an
//! int, a CuTe-like tensor `{ptr, shape, stride}` by value, and an array of structs; the emulated
//! outputs must be the values computed by hand, and the buffers must be the launch's own (bounds
//! faults name the field).

use std::path::PathBuf;

use warpscope_driver::args::{check_fields, parse_arg, parse_launch_args};
use warpscope_driver::{Request, Sections, analyze};
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_model::arch::Arch;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpscope-ptr-args-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ints(v: impl IntoIterator<Item = i32>) -> Vec<u8> {
    v.into_iter().flat_map(i32::to_le_bytes).collect()
}

fn floats(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(f32::to_le_bytes).collect()
}

fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Compiles `src` and runs `kernel` on one block of `threads` with the `--arg`s `specs` (checked
/// against the parameters as `analyze` checks them); the final contents of every buffer.
fn run(name: &str, src: &str, kernel: &str, threads: u32, specs: &[String]) -> Vec<Option<Vec<u8>>> {
    let d = dir(name);
    let cu = d.join(format!("{name}.cu"));
    std::fs::write(&cu, src).unwrap();
    let arch = Arch::parse("sm_90").unwrap();
    // Compiling needs NVRTC or nvcc (./scripts/cuda-wheels.sh); without them this fails, saying so.
    let module =
        warpscope_driver::input::load(&cu, arch, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let k = module.program.kernel(kernel).expect("the kernel");
    let parsed = parse_launch_args(specs).unwrap();
    check_fields(k, kernel, &parsed.args[..parsed.given], &parsed.spans).unwrap();
    let launch = Launch::new([1, 1, 1], [threads, 1, 1], parsed.args);
    let r = warpscope_emu::run(&module.program, kernel, &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    r.buffers
}

const TWO: &str = r#"
struct Two { const int *a; int *b; int n; };
extern "C" __global__ void two(Two t) {
    int i = threadIdx.x;
    t.b[i] = t.a[i] * 3 + t.n;
}
"#;

#[test]
fn a_struct_of_two_pointers_and_an_int_reaches_its_buffers() {
    let d = dir("two-in");
    let a = d.join("a.bin");
    std::fs::write(&a, ints((0..32).map(|i| i - 10))).unwrap();
    let spec = format!("struct:ptr=buf:@{},ptr=buf:128:zero,i32:5", a.display());
    let bufs = run("two", TWO, "two", 32, &[spec]);
    // argument 0 is the struct (no buffer); its fields' buffers follow: a, then b
    assert_eq!(bufs.len(), 3);
    assert!(bufs[0].is_none());
    assert_eq!(
        as_i32(bufs[1].as_ref().unwrap()),
        (0..32).map(|i| i - 10).collect::<Vec<_>>()
    );
    let want: Vec<i32> = (0..32).map(|i| (i - 10) * 3 + 5).collect();
    assert_eq!(as_i32(bufs[2].as_ref().unwrap()), want);
}

const TENSOR: &str = r#"
// CuTe-like: a tensor passed by value as its pointer, shape and (64-bit) stride.
struct Tensor { float *ptr; int shape[2]; long long stride[2]; };
extern "C" __global__ void scale(Tensor t, float s) {
    int i = threadIdx.x / t.shape[1], j = threadIdx.x % t.shape[1];
    if (i < t.shape[0]) t.ptr[i * t.stride[0] + j * t.stride[1]] *= s;
}
"#;

#[test]
fn a_tensor_by_value_with_pointer_shape_and_stride() {
    let d = dir("tensor-in");
    let f = d.join("t.bin");
    std::fs::write(&f, floats((0..64).map(|k| k as f32))).unwrap();
    // 4 x 8, column-major (stride 1 along rows, 4 along columns): ptr at 0, shape at 8, stride at 16
    let spec = format!("struct:ptr=buf:@{},i32[2]:4,8,i64[2]:1,4", f.display());
    let bufs = run("tensor", TENSOR, "scale", 32, &[spec, "f32:2.5".into()]);
    let got = as_f32(bufs[2].as_ref().unwrap());
    // elements 0..32 (i + 4 j for i < 4, j < 8) scaled, 32..64 untouched
    for (k, v) in got.iter().enumerate() {
        let want = if k < 32 { k as f32 * 2.5 } else { k as f32 };
        assert_eq!(*v, want, "element {k}");
    }
}

const SEGS: &str = r#"
struct Seg { float *p; int len; };
struct Segs { Seg s[3]; };
extern "C" __global__ void sums(Segs g, float *out) {
    int k = threadIdx.x;
    if (k >= 3) return;
    float acc = 0;
    for (int i = 0; i < g.s[k].len; i++) acc += g.s[k].p[i];
    out[k] = acc;
    g.s[k].p[0] = 100.0f + k;
}
"#;

#[test]
fn an_array_of_structs_gives_each_element_its_own_buffer() {
    let d = dir("segs-in");
    let f = d.join("s.bin");
    std::fs::write(&f, floats([1.5, 2.0, -4.0, 8.25])).unwrap();
    // {ptr, int} is 16 bytes (8-aligned), three of them 48
    let spec = format!("struct:{{ptr=buf:@{},i32:4}}[3]", f.display());
    let bufs = run("segs", SEGS, "sums", 32, &[spec, "buf:12:zero".into()]);
    assert_eq!(bufs.len(), 5);
    // 1.5 + 2 - 4 + 8.25
    assert_eq!(as_f32(bufs[1].as_ref().unwrap()), [7.75, 7.75, 7.75]);
    for k in 0..3 {
        let b = as_f32(bufs[2 + k].as_ref().unwrap());
        assert_eq!(b, [100.0 + k as f32, 2.0, -4.0, 8.25], "element {k}'s buffer");
    }
}

#[test]
fn pointer_fields_are_laid_out_and_named() {
    let p = parse_launch_args(&[
        "struct:i32:1,ptr=buf:64,{u8:2,ptr=buf:8:zero}[2],ptr:0x1234",
        "u32:3",
    ])
    .unwrap();
    assert_eq!(p.given, 2);
    let Arg::Bytes(b) = &p.args[0] else { panic!() };
    // i32 at 0, ptr at 8, {u8, ptr} (16 bytes) twice at 16 and 32, raw pointer at 48: 56 bytes
    assert_eq!(b.len(), 56);
    let paths: Vec<&str> = p.fields.iter().map(|f| f.field.path.as_str()).collect();
    assert_eq!(paths, ["2", "3[0].2", "3[1].2"]);
    let offs: Vec<usize> = p.fields.iter().map(|f| f.field.offset).collect();
    assert_eq!(offs, [8, 24, 40]);
    // each pointer holds its buffer's address, as the emulator places the buffers
    let (bases, _) = warpscope_emu::buffer_layout(&p.args);
    for f in &p.fields {
        let at = u64::from_le_bytes(b[f.field.offset..f.field.offset + 8].try_into().unwrap());
        assert_eq!(Some(at), bases[f.index]);
    }
    assert_eq!(u64::from_le_bytes(b[48..56].try_into().unwrap()), 0x1234);
    assert_eq!(p.args[3], Arg::Buffer(vec![0; 8]));
    assert_eq!(
        p.field_name(3, Some("params")).unwrap(),
        "the buffer of field 3[0].2 of argument 0 `params`"
    );
}

#[test]
fn bad_pointer_fields_are_clear_errors() {
    let e = |s: &str| parse_launch_args(&[s]).unwrap_err().to_string();
    let m = e("struct:i32:1,ptr=u32:4");
    assert!(
        m.contains("field 2") && m.contains("a pointer field takes a buffer"),
        "{m}"
    );
    let m = e("struct:ptr=buf:zz");
    assert!(
        m.contains("field 1") && m.contains("`zz` is not an integer"),
        "{m}"
    );
    let m = e("struct:ptr=buf:8:ones");
    assert!(m.contains("unknown fill `ones`"), "{m}");
    let m = e("struct:{ptr=buf:8}[0]");
    assert!(m.contains("the count must be a whole number"), "{m}");
    let m = e("struct:{ptr=buf:8}[2");
    assert!(m.contains("expected `]`"), "{m}");
    let m = e("struct:ptr=buf:@/no/such/file");
    assert!(m.contains("cannot read /no/such/file"), "{m}");
    // a plain `struct:` parse (one argument alone) cannot place the buffers
    let m = parse_arg("struct:ptr=buf:8", 0).unwrap_err().to_string();
    assert!(m.contains("points to a buffer"), "{m}");
}

#[test]
fn a_struct_that_does_not_fit_its_parameter_names_the_field() {
    let d = dir("fit");
    let cu = d.join("two.cu");
    std::fs::write(&cu, TWO).unwrap();
    let module = warpscope_driver::input::load(&cu, Arch::parse("sm_90").unwrap(), &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let k = module.program.kernel("two").unwrap();
    assert_eq!(k.params[0].size, 24, "{{ptr, ptr, int}}: 8 + 8 + 4, padded to 24");
    let check = |s: &str| {
        let p = parse_launch_args(&[s]).unwrap();
        check_fields(k, "two", &p.args[..p.given], &p.spans)
    };
    check("struct:ptr=buf:128,ptr=buf:128,i32:1").unwrap();
    // a fourth field lands at 24: past the parameter's 24 bytes
    let m = check("struct:ptr=buf:128,ptr=buf:128,i32:1,ptr=buf:8")
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("field 4 (`ptr=buf:8`, bytes 24..32") && m.contains("takes 24 bytes"),
        "{m}"
    );
    // an i64 for the int: 8 + 8 + 8 = 24 fits the size (the kernel reads its low half)
    check("struct:ptr=buf:128,ptr=buf:128,i64:1").unwrap();
    let m = check("struct:ptr=buf:128,i32:1").unwrap_err().to_string();
    assert!(
        m.contains("fields end at byte 12") && m.contains("a field is missing"),
        "{m}"
    );
}

#[test]
fn a_bounds_fault_names_the_field_whose_buffer_it_runs_past() {
    let d = dir("bounds");
    let cu = d.join("two.cu");
    std::fs::write(&cu, TWO).unwrap();
    let mut req = Request::new(&cu, [1, 1, 1], [32, 1, 1], Arch::parse("sm_90").unwrap());
    req.sections = Sections {
        banks: false,
        divergence: false,
        fix: false,
        occupancy: false,
        ..Sections::ALL
    };
    // b holds 16 ints: threads 16..31 write past its end
    req.args = vec!["struct:ptr=buf:128,ptr=buf:64:zero,i32:5".into()];
    let a = analyze(&req).unwrap_or_else(|e| panic!("{e}"));
    let text = a.results.fault_messages.join("\n");
    assert!(
        text.contains("past the end of the buffer of field 2 of argument 0"),
        "{text}"
    );
}

#[test]
fn a_tensor_map_field_over_a_pointer_field_of_the_same_struct() {
    let keys = "type=f32;dims=64x64;box=32x8;swizzle=128B";
    let p = parse_launch_args(&[format!("struct:ptr=buf:16384,tensormap(field=1;{keys}),i32:7")]).unwrap();
    let Arg::Bytes(b) = &p.args[0] else { panic!() };
    // pointer at 0, the map 64-aligned at 64..192, the int at 192; 256 bytes (64-aligned)
    assert_eq!(b.len(), 256);
    assert_eq!(b[192..196], 7i32.to_le_bytes());
    // the field buffer is the launch's first buffer: the same map as a `tensormap:` argument over a
    // first `buf:` argument of the same size
    let top = parse_launch_args(&[
        "buf:16384".to_string(),
        format!("tensormap:buf=0,{}", keys.replace(';', ",")),
    ])
    .unwrap();
    let Arg::Bytes(want) = &top.args[1] else { panic!() };
    assert_eq!(&b[64..192], &want[..]);
    assert_eq!(
        u64::from_le_bytes(b[0..8].try_into().unwrap()),
        warpscope_emu::buffer_layout(&p.args).0[1].unwrap()
    );
    let e = |s: &str| parse_launch_args(&[s]).unwrap_err().to_string();
    let m = e(&format!("struct:ptr=buf:64,tensormap(field=3;{keys})"));
    assert!(m.contains("`field=3` names no `ptr=buf:` field"), "{m}");
    let m = e("struct:ptr=buf:16384,tensormap(field=1,type=f32)");
    assert!(m.contains("separate a tensor map's keys with `;`"), "{m}");
    // the tensor must lie inside the field's buffer (64 x 64 floats are 16384 bytes)
    let m = e(&format!("struct:ptr=buf:4096,tensormap(field=1;{keys})"));
    assert!(
        m.contains("field 2 (tensormap)") && m.contains("which holds 4096 bytes"),
        "{m}"
    );
    let m = e("struct:tensormap(type=f32");
    assert!(m.contains("expected `)`"), "{m}");
}
