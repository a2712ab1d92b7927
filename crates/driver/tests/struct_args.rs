//! `struct:` arguments against the layout the CUDA compiler gives: a kernel that takes a struct by
//! value with an array, a nested struct, CUDA vector types (whose alignments differ from their
//! components': `float4` 16, `float3` 4, `short3` 2, `int2` 8, `double2` 16) and a nested struct
//! holding a `float4`, compiled from CUDA C++ (NVRTC, or nvcc; the toolkit or the PyPI wheels are
//! needed, and their absence fails the test, saying so), writes every field out as a double; the
//! emulated output must be the values given, and the argument's size the parameter's in the PTX.

use warpscope_driver::args::{check, parse_arg};
use warpscope_driver::input::{CompileOptions, load};
use warpscope_emu::{Arg, Launch, Limits};
use warpscope_model::arch::Arch;

const SOURCE: &str = r#"
struct Pair { unsigned char tag; double weight; };
struct Boxed { unsigned char id; float4 v; };
struct Params {
    int count;
    float scale[3];
    Pair pair;
    float4 colour;
    float3 normal;
    short3 step;
    int2 origin;
    unsigned char code[3];
    double2 range;
    Boxed boxed;
};

extern "C" __global__ void unpack(Params p, double *out) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    int i = 0;
    out[i++] = p.count;
    out[i++] = p.scale[0]; out[i++] = p.scale[1]; out[i++] = p.scale[2];
    out[i++] = p.pair.tag;
    out[i++] = p.pair.weight;
    out[i++] = p.colour.x; out[i++] = p.colour.y; out[i++] = p.colour.z; out[i++] = p.colour.w;
    out[i++] = p.normal.x; out[i++] = p.normal.y; out[i++] = p.normal.z;
    out[i++] = p.step.x; out[i++] = p.step.y; out[i++] = p.step.z;
    out[i++] = p.origin.x; out[i++] = p.origin.y;
    out[i++] = p.code[0]; out[i++] = p.code[1]; out[i++] = p.code[2];
    out[i++] = p.range.x; out[i++] = p.range.y;
    out[i++] = p.boxed.id;
    out[i++] = p.boxed.v.x; out[i++] = p.boxed.v.y; out[i++] = p.boxed.v.z; out[i++] = p.boxed.v.w;
    out[i++] = sizeof(Params);
}
"#;

const SPEC: &str = "struct:i32:-7,f32[3]:0.5,1.5,2.5,{u8:200,f64:-3.25},float4:1,2,3,4,\
                    float3:5,6,7,short3:-1,2,-3,int2:100000,-100000,u8[3]:9,8,7,\
                    double2:1e10,-0.125,{u8:17,float4:10,20,30,40}";

#[test]
fn a_struct_with_arrays_vectors_and_nested_structs_reaches_the_kernel_as_cuda_lays_it_out() {
    let dir = std::env::temp_dir().join(format!("warpscope-struct-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("unpack.cu");
    std::fs::write(&cu, SOURCE).unwrap();
    let arch = Arch::parse("sm_90").unwrap();
    // Compiling needs NVRTC or nvcc (./scripts/cuda-wheels.sh); without them this fails, saying so.
    let module = load(&cu, arch, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let kernel = module.program.kernel("unpack").expect("kernel unpack");
    // C layout by hand: count 0, scale 4..16, pair 16..32 (double at 24), colour 32..48 (16-aligned),
    // normal 48..60, step 60..66, origin 72..80 (8-aligned), code 80..83, range 96..112 (16-aligned),
    // boxed 112..144 (id, then the float4 at 16), so 144 bytes.
    assert_eq!(kernel.params[0].size, 144, "the compiler's layout");
    let Arg::Bytes(bytes) = parse_arg(SPEC, 0).unwrap() else {
        panic!("a struct is bytes")
    };
    assert_eq!(bytes.len(), 144);
    let out = Arg::Buffer(vec![0; 8 * 32]);
    let args = vec![Arg::Bytes(bytes), out];
    check(kernel, "unpack", &args).unwrap();
    let launch = Launch::new([1, 1, 1], [32, 1, 1], args);
    let r = warpscope_emu::run(&module.program, "unpack", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let got: Vec<f64> = r
        .buffer(1)
        .unwrap()
        .chunks(8)
        .take(29)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want = [
        -7.0, 0.5, 1.5, 2.5, 200.0, -3.25, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -1.0, 2.0, -3.0, 100000.0,
        -100000.0, 9.0, 8.0, 7.0, 1e10, -0.125, 17.0, 10.0, 20.0, 30.0, 40.0, 144.0,
    ];
    assert_eq!(got, want);
    // One field short: the size check names the parameter and both sizes.
    let Arg::Bytes(short) = parse_arg("struct:i32:1,f32[3]:1,2,3", 0).unwrap() else {
        panic!()
    };
    let e = check(kernel, "unpack", &[Arg::Bytes(short), Arg::Buffer(vec![0; 8])])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("16 bytes given") && e.contains("takes 144 bytes"),
        "{e}"
    );
}

/// nvcc reads a struct parameter after a branch through a register holding its address
/// (`mov.b64 %rd1, k_param_0; ld.param.u32 %r1, [%rd1+4]`): that register addresses the kernel's
/// parameter space.
#[test]
fn a_parameter_read_through_its_address_register_reads_the_parameter() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .align 4 .b8 k_param_0[12], .param .u64 k_param_1)\n{\n\
        \t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\
        \tmov.b64 %rd1, k_param_0;\n\tld.param.u64 %rd2, [k_param_1];\n\
        \tmov.u32 %r1, %tid.x;\n\tsetp.ne.s32 %p1, %r1, 0;\n\t@%p1 bra $L_end;\n\
        \tcvta.to.global.u64 %rd3, %rd2;\n\tld.param.u32 %r2, [%rd1+4];\n\tld.param.u32 %r3, [%rd1+8];\n\
        \tst.global.u32 [%rd3], %r2;\n\tst.global.u32 [%rd3+4], %r3;\n$L_end:\n\tret;\n}\n";
    let program = warpscope_ptx::compile(ptx).unwrap();
    let Arg::Bytes(b) = parse_arg("struct:i32:1,i32:-2,u32:3", 0).unwrap() else {
        panic!()
    };
    let launch = Launch::new(
        [1, 1, 1],
        [32, 1, 1],
        vec![Arg::Bytes(b), Arg::Buffer(vec![0; 8])],
    );
    let r = warpscope_emu::run(&program, "k", &launch, &Limits::default(), |_| ()).unwrap();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let out = r.buffer(1).unwrap();
    assert_eq!(out[0..4], (-2i32).to_le_bytes());
    assert_eq!(out[4..8], 3u32.to_le_bytes());
}
