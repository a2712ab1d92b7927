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
