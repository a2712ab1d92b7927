//! Module-scope variables: `__managed__` ones parse, and every `.global` variable starts on its own
//! 256-byte boundary in declaration order, as the CUDA driver places them (calibration/run/vars.cu);
//! `.const` variables stay packed.

use warpscope_ptx::lower::{GLOBAL_VAR_ALIGN, GLOBAL_VAR_BASE};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.global .attribute(.managed) .align 4 .u32 mhits;
.global .attribute(.managed) .align 4 .b8 mweights[8] = {0, 0, 0, 63, 0, 0, 128, 63};
.global .align 1 .u8 dflag;
.global .align 4 .b8 dlut[384];
.global .align 16 .b8 dquad[16];
.const .align 4 .b8 c0[4];
.const .align 4 .b8 c1[8];

.visible .entry k()
{
    ret;
}
"#;

#[test]
fn managed_variables_parse_and_globals_start_on_256_byte_boundaries() {
    let p = warpscope_ptx::compile(PTX).unwrap();
    let addr = |n: &str| p.vars.iter().find(|v| v.name == n).unwrap().addr;
    assert_eq!(GLOBAL_VAR_ALIGN, 256);
    assert_eq!(addr("mhits"), GLOBAL_VAR_BASE);
    assert_eq!(addr("mweights"), GLOBAL_VAR_BASE + 256);
    assert_eq!(addr("dflag"), GLOBAL_VAR_BASE + 512);
    assert_eq!(addr("dlut"), GLOBAL_VAR_BASE + 768);
    // after the 384-byte table: the next boundary, not a fixed stride
    assert_eq!(addr("dquad"), GLOBAL_VAR_BASE + 1280);
    // the managed array's initial value is in the window at its place
    assert_eq!(&p.global_init[256..264], &[0, 0, 0, 63, 0, 0, 128, 63]);
    // constant-bank variables are not spread out
    assert_eq!(addr("c0"), 0);
    assert_eq!(addr("c1"), 4);
}

/// Function names in a `.global` initialiser (a function-pointer table, a C++ vtable) and in
/// `mov.u64 %rd, f;` are the functions' addresses: the same value for the same function, a
/// different one for each function, none of them a data address.
#[test]
fn function_names_are_addresses_in_initialisers_and_code() {
    let src = ".version 9.0\n.target sm_90\n.address_size 64\n\
        .func (.param .b32 r) f(.param .b32 a);\n\
        .global .align 8 .u64 tbl[3] = {0, f, g};\n\
        .func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<2>;\nld.param.u32 %r1, [a];\nst.param.b32 [r], %r1;\nret;\n}\n\
        .func (.param .b32 r) g(.param .b32 a)\n{\n.reg .b32 %r<2>;\nld.param.u32 %r1, [a];\nst.param.b32 [r], %r1;\nret;\n}\n\
        .visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [out];\nmov.u64 %rd2, g;\nst.global.u64 [%rd1], %rd2;\nret;\n}\n";
    let p = warpscope_ptx::compile(src).unwrap();
    let v = p.vars.iter().find(|v| v.name == "tbl").unwrap();
    let at = (v.addr - warpscope_ptx::lower::GLOBAL_VAR_BASE) as usize;
    let words: Vec<u64> = p.global_init[at..at + 24]
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let base = warpscope_ptx::lower::FUNC_BASE;
    assert_eq!(words[0], 0);
    assert!(words[1] >= base && words[2] > words[1], "{words:x?}");
    assert!(words[2] < warpscope_ptx::lower::GLOBAL_VAR_BASE);
}

/// `proto: .callprototype ...;` parses; one without its `;` is an error with its position, and
/// an indirect call through something that is not a register is refused with the reason.
#[test]
fn call_prototypes_parse_and_bad_indirect_calls_are_refused() {
    let head = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n";
    let unterminated = format!("{head}p0 : .callprototype (.param .b32 _) _ (.param .b32 _)\n}}\n");
    let e = warpscope_ptx::compile(&unterminated).unwrap_err().join("\n");
    assert!(e.contains("`.callprototype`"), "{e}");
    let not_reg = format!(
        "{head}.param .b32 a;\n.param .b32 r;\np0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n\
         call (r), nothing, (a), p0;\nret;\n}}\n"
    );
    let e = warpscope_ptx::compile(&not_reg).unwrap_err().join("\n");
    assert!(
        e.contains("indirect call through `nothing`, which is not a register"),
        "{e}"
    );
}

/// A kernel's `__shared__` array named by a function kept out of line (the compiler specialised
/// the callee for the one array it is called with): the callee's name resolves to the kernel's
/// offset of the array, as the kernel's own does.
#[test]
fn a_kernels_shared_array_is_seen_by_the_functions_it_calls() {
    let src = ".version 9.0\n.target sm_90\n.address_size 64\n\
        .shared .align 4 .b8 pad[64];\n\
        .shared .align 4 .b8 s[256];\n\
        .func put(.param .b32 a)\n{\n.reg .b32 %r<4>;\nld.param.u32 %r1, [a];\nmov.u32 %r2, s;\nst.shared.u32 [%r2], %r1;\nret;\n}\n\
        .visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n\
        mov.u32 %r1, 7;\n{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\ncall.uni put, (p0);\n}\n\
        mov.u32 %r3, s;\nld.shared.u32 %r2, [%r3];\nld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
    let p = warpscope_ptx::compile(src).unwrap();
    assert!(p.failed.is_empty(), "{:?}", p.failed);
    let k = p.kernels.iter().find(|k| k.name == "k").unwrap();
    // `pad` is not used: `s` is the kernel's only array, at offset 0
    let shared: Vec<(&str, u32)> = k.shared.iter().map(|v| (v.name.as_str(), v.offset)).collect();
    assert_eq!(shared, [("s", 0)]);
}
