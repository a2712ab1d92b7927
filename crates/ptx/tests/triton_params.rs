//! Kernel parameter offsets of Triton-style entries: `.param .u64 .ptr .global .align 1 p` is a
//! pointer whose *pointee* is 1-aligned; the parameter itself sits at its natural 8-byte
//! alignment (the driver's layout; a Triton kernel reading its scratch pointer after three `u32`s
//! loads it from offset 48, not 44).

#[test]
fn pointer_parameters_keep_their_natural_alignment_whatever_the_pointee_alignment() {
    let ptx = ".version 8.7\n.target sm_90a\n.address_size 64\n\
        .visible .entry k(\n\
        \t.param .u64 .ptr .global .align 1 k_param_0,\n\
        \t.param .f32 k_param_1,\n\
        \t.param .u32 k_param_2,\n\
        \t.param .u32 k_param_3,\n\
        \t.param .u64 .ptr .global .align 1 k_param_4,\n\
        \t.param .u32 k_param_5,\n\
        \t.param .align 64 .b8 k_param_6[128],\n\
        \t.param .u64 .ptr .align 16 k_param_7\n\
        )\n{\n\tret;\n}\n";
    let program = warpscope_ptx::compile(ptx).unwrap();
    let k = &program.kernels[0];
    let offsets: Vec<u32> = k.params.iter().map(|p| p.offset).collect();
    assert_eq!(offsets, vec![0, 8, 12, 16, 24, 32, 64, 192]);
}
