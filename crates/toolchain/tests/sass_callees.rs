//! `sass::with_callees`: a kernel's machine code with the functions it calls laid out after it
//! (nvdisasm's form of a device-linked cubin: each function in its own section, `CALL.ABS.NOINC`
//! by name, return addresses and global symbols as relocated immediates).

use warpscope_toolchain::sass::{parse_disassembly, with_callees};

const LINKED: &str = "\t.section\t.text._Z1kPi,\"ax\",@progbits\n\
_Z1kPi:\n\
\t/*0000*/                   UMOV UR4, 32@lo(g_count) ;\n\
\t/*0010*/                   UMOV UR5, 32@hi(g_count) ;\n\
\t/*0020*/                   MOV R20, 32@lo((_Z1kPi + .L_x_0@srel)) ;\n\
\t/*0030*/                   MOV R21, 32@hi((_Z1kPi + .L_x_0@srel)) ;\n\
\t/*0040*/                   CALL.ABS.NOINC `(_Z3sumi) ;\n\
.L_x_0:\n\
\t/*0050*/                   CALL.ABS.NOINC `(vprintf) ;\n\
\t/*0060*/                   EXIT ;\n\
.L_x_9:\n\
\t/*0070*/                   BRA `(.L_x_9);\n\
\t.section\t.text._Z5otheri,\"ax\",@progbits\n\
\t/*0000*/                   RET.ABS.NODEC R20 0x0 ;\n\
\t.section\t.text._Z3sumi,\"ax\",@progbits\n\
\t/*0000*/                   ISETP.GE.AND P0, PT, R4, 0x1, PT ;\n\
\t/*0010*/              @!P0 BRA `(.L_x_3) ;\n\
\t/*0020*/                   MOV R20, 32@lo((_Z3sumi + .L_x_4@srel)) ;\n\
\t/*0030*/                   CALL.REL.NOINC `(_Z3sumi) ;\n\
.L_x_4:\n\
\t/*0040*/                   IADD3 R4, R4, -0x1, RZ ;\n\
.L_x_3:\n\
\t/*0050*/                   RET.ABS.NODEC R20 0x0 ;\n";

#[test]
fn callees_follow_the_kernel_with_return_addresses_and_symbols_relinked() {
    let ks = parse_disassembly(LINKED).unwrap();
    let l = with_callees(&ks, "_Z1kPi").unwrap();
    // the kernel's 8 instructions end at 0x80: the callee at the next 128-byte boundary; the
    // function not called is left out
    assert_eq!(l.callees, vec![("_Z3sumi".to_string(), 0x80)]);
    assert_eq!(l.unresolved, vec!["vprintf".to_string()]);
    let k = &l.kernel;
    assert_eq!(k.insts.len(), 8 + 6);
    assert_eq!(k.labels["_Z3sumi"], 0x80);
    assert_eq!(k.labels[".L_x_3"], 0xd0);
    assert_eq!(k.labels[".L_x_0"], 0x50);
    let ops = |off: u32| {
        k.insts
            .iter()
            .find(|i| i.code_offset == off)
            .map(|i| i.operands.clone())
            .unwrap()
    };
    // return addresses: the merged offsets, high word 0
    assert_eq!(ops(0x20), "R20, 0x50");
    assert_eq!(ops(0x30), "R21, 0x0");
    assert_eq!(ops(0xa0), "R20, 0xc0");
    // a symbol's address: a word of constant bank 4 past the module's, named by the symbol
    assert_eq!(ops(0x00), "UR4, c[0x4][0x10000]");
    assert_eq!(ops(0x10), "UR5, c[0x4][0x10004]");
    assert_eq!(k.constant4, vec![(0x10000, "g_count".to_string(), 0)]);
    // the callee's branches moved with it
    let bra = k
        .branches
        .iter()
        .find(|b| b.opcode == "BRA" && b.predicate.is_some())
        .unwrap();
    assert_eq!(bra.code_offset, 0x90);
}

#[test]
fn a_call_through_a_register_lays_out_every_function() {
    let text = LINKED.replace("CALL.ABS.NOINC `(_Z3sumi)", "CALL.ABS.NOINC R6");
    let ks = parse_disassembly(&text).unwrap();
    let l = with_callees(&ks, "_Z1kPi").unwrap();
    let names: Vec<&str> = l.callees.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["_Z5otheri", "_Z3sumi"]);
    assert!(with_callees(&ks, "_Z4nonev").is_none());
}
