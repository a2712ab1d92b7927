//! `wgmma` descriptors, swizzles, fragments and fp8 decoding (crates/emu/src/wgmma.rs) against
//! facts worked out by hand from the PTX ISA's descriptor format and the canonical layouts.

use warpscope_emu::wgmma::{Desc, a_reg_elem, d_elem, fp8_to_f16, operand_addr, swizzle};
use warpscope_ptx::inst::WgTy;

#[test]
fn descriptor_fields() {
    // start 0x1230 bytes, LBO 0x40, SBO 0x400, base offset 5, 128-byte swizzle (mode 1)
    let d: u64 = (0x123) | (0x4 << 16) | (0x40 << 32) | (5 << 49) | (1 << 62);
    assert_eq!(
        Desc::decode(d),
        Desc {
            start: 0x1230,
            lbo: 0x40,
            sbo: 0x400,
            base_offset: 5,
            swizzle: 128
        }
    );
    assert_eq!(Desc::decode(2 << 62).swizzle, 64);
    assert_eq!(Desc::decode(3 << 62).swizzle, 32);
    assert_eq!(Desc::decode(0).swizzle, 0);
    // the 14-bit fields end where they should: bits 14-15 and 30-31 are not part of them
    let d = Desc::decode((0xffff) | (0xffff << 16));
    assert_eq!((d.start, d.lbo), (0x3fff << 4, 0x3fff << 4));
}

#[test]
fn swizzles_xor_the_16_byte_chunk_with_the_row() {
    // 128B: row r (bits 7-9) moves chunk c (bits 4-6) to c ^ r
    assert_eq!(swizzle(0x000, 128), 0x000);
    assert_eq!(swizzle(0x080, 128), 0x090); // row 1, chunk 0 -> chunk 1
    assert_eq!(swizzle(0x3f4, 128), 0x384); // row 7, chunk 7, byte 4 -> chunk 0
    assert_eq!(swizzle(0x400 + 0x100 + 0x20, 128), 0x400 + 0x100); // row 2 (of the next 1 KiB), chunk 2 -> 0
    // 64B: rows 0-3 of 128 bytes... bit 4-5 ^= bits 7-8
    assert_eq!(swizzle(0x180, 64), 0x1b0); // bits 7-8 = 3 -> chunk 0 becomes 3
    assert_eq!(swizzle(0x200, 64), 0x200); // bit 9 not used
    // 32B: bit 4 ^= bit 7
    assert_eq!(swizzle(0x080, 32), 0x090);
    assert_eq!(swizzle(0x100, 32), 0x100);
    assert_eq!(swizzle(0x1234, 0), 0x1234);
}

#[test]
fn k_major_addresses() {
    // no swizzle: core matrices of 8 rows x 16 bytes; LBO steps K, SBO steps 8 rows
    let d = Desc {
        start: 0x100,
        lbo: 128,
        sbo: 256,
        base_offset: 0,
        swizzle: 0,
    };
    assert_eq!(operand_addr(&d, false, 0, 0), 0x100);
    assert_eq!(operand_addr(&d, false, 1, 0), 0x110);
    assert_eq!(operand_addr(&d, false, 9, 20), 0x100 + 256 + 128 + 16 + 4);
    // 128B swizzle: rows of 128 bytes, 8-row groups at SBO, then the XOR
    let d = Desc {
        start: 0,
        lbo: 16,
        sbo: 1024,
        base_offset: 0,
        swizzle: 128,
    };
    assert_eq!(operand_addr(&d, false, 1, 0), 0x90);
    assert_eq!(operand_addr(&d, false, 9, 16), 1024 + 128); // chunk 1 ^ row 1 = chunk 0
    // the start advanced by 32 bytes (the next k16 step of a 64-element f16 row) stays inside
    // the row and is swizzled with it
    let d2 = Desc { start: 32, ..d };
    assert_eq!(operand_addr(&d2, false, 3, 0), 3 * 128 + 16); // chunk 2 ^ row 3 = chunk 1
}

#[test]
fn mn_major_addresses() {
    // no swizzle: 8 contiguous MN elements (16 bytes) per K row, 8 K rows per core matrix;
    // SBO steps 8 MN, LBO steps 8 K
    let d = Desc {
        start: 0,
        lbo: 1024,
        sbo: 128,
        base_offset: 0,
        swizzle: 0,
    };
    assert_eq!(operand_addr(&d, true, 3, 0), 6);
    assert_eq!(operand_addr(&d, true, 3, 1), 16 + 6);
    assert_eq!(operand_addr(&d, true, 11, 9), 128 + 1024 + 16 + 6);
    // 128B swizzle: 64 MN elements per 128-byte K row, LBO steps 64 MN, SBO steps 8 K
    let d = Desc {
        start: 0,
        lbo: 8192,
        sbo: 1024,
        base_offset: 0,
        swizzle: 128,
    };
    assert_eq!(operand_addr(&d, true, 8, 0), 16);
    assert_eq!(operand_addr(&d, true, 8, 1), 128); // chunk 1 ^ row 1 = chunk 0
    assert_eq!(
        operand_addr(&d, true, 64 + 2, 8 + 2),
        8192 + 1024 + 256 + 4 + (2 * 16)
    );
}

#[test]
fn fragments() {
    // D: lane 5 is group 1, thread 1; element 6 is register 6 (f32): rows +8, column block 1
    assert_eq!(d_elem(5, 6), (9, 10));
    assert_eq!(d_elem(0, 0), (0, 0));
    assert_eq!(d_elem(31, 127), (15, 8 * 31 + 7));
    // A (f16): register 2 holds row g, k 8 + 2t (+1)
    assert_eq!(a_reg_elem(WgTy::F16, 6, 4), (1, 12));
    assert_eq!(a_reg_elem(WgTy::F16, 6, 3), (9, 5));
    // tf32: register r: row g + 8 (r % 2), k t + 4 (r / 2)
    assert_eq!(a_reg_elem(WgTy::TF32, 7, 3), (9, 7));
    // 8-bit: byte e of register e / 4: row g + 8 (e/4 % 2), k 4t + e % 4 + 16 (e / 8)
    assert_eq!(a_reg_elem(WgTy::E4M3, 3, 13), (8, 12 + 1 + 16));
}

#[test]
fn fp8_values_as_f16() {
    // e4m3: bias 7; 0x38 = 1.0, 0x7e = 448 (largest), 0x01 = 2^-9 (smallest subnormal),
    // 0x06 = 6 * 2^-9 = 1.5 * 2^-7, 0x7f NaN, 0x80 = -0
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0x38), 0x3c00);
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0x7e), 0x5f00);
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0x01), 0x1800);
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0x06), 0x2200);
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0xb8), 0xbc00);
    assert_eq!(fp8_to_f16(WgTy::E4M3, 0x80), 0x8000);
    assert!(fp8_to_f16(WgTy::E4M3, 0x7f) & 0x7fff > 0x7c00);
    // e5m2 is f16 with the low byte dropped
    assert_eq!(fp8_to_f16(WgTy::E5M2, 0x3c), 0x3c00);
    assert_eq!(fp8_to_f16(WgTy::E5M2, 0x7c), 0x7c00);
    assert_eq!(fp8_to_f16(WgTy::E5M2, 0x01), 0x0100);
}
