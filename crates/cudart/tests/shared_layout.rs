//! Static shared variables laid out where ptxas lays them. calibration/layout/ holds own programs
//! (`layout_a.cu`, `layout_b.cu`) built with `nvcc -O2 -arch=sm_90`: their PTX, cubins and machine
//! code (`cuobjdump -sass`). The offsets below are the addresses the machine code forms for each
//! variable (the block's window starts at 0x400 after the reserved kilobyte): `k1`'s `i` is stored
//! by `STS [R4+0x28]`, `gshared` sits at `0x400 + 0x34`, the dynamic array at `0x400 + 0x50`, and
//! so on. ptxas puts a kernel's own variables first in declaration order (NVVM declares there the
//! module's `__shared__` variables that only this kernel uses) and the module-scope ones several
//! functions share after them; in declaration order the module-scope `gshared` would come first.

use warpscope_cudart::fatbin::cubin_shared_sizes;

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../calibration/layout")
        .join(name)
}

/// Every shared variable of `kernel` in the lowered PTX of `file`, `(name, offset)` in layout order,
/// and the kernel's static shared bytes.
fn layout(file: &str, kernel: &str) -> (Vec<(String, u32)>, u32) {
    let src = std::fs::read_to_string(data(file)).unwrap();
    let p = warpscope_ptx::compile(&src).unwrap();
    assert!(p.failed.is_empty(), "{:?}", p.failed);
    let k = p.kernels.iter().find(|k| k.name == kernel).unwrap();
    let vars = k.shared.iter().map(|v| (v.name.clone(), v.offset)).collect();
    (vars, k.static_smem)
}

/// A PTX file, a kernel in it, and each of its shared variables' offsets in ptxas's layout.
type Case<'a> = (&'a str, &'a str, &'a [(&'a str, u32)]);

fn named(v: &[(&str, u32)]) -> Vec<(String, u32)> {
    v.iter().map(|&(n, o)| (n.to_string(), o)).collect()
}

#[test]
fn static_shared_variables_sit_where_ptxas_put_them() {
    let cases: [Case; 4] = [
        (
            "layout_a.ptx",
            "_Z2k1Pfi",
            &[
                ("_ZZ2k1PfiE1c", 0),
                ("_ZZ2k1PfiE1d", 0x8),
                ("_ZZ2k1PfiE1i", 0x28),
                ("_ZZ2k1PfiE1s", 0x2c),
                ("gshared", 0x34),
                ("dyn", 0x50),
            ],
        ),
        (
            "layout_a.ptx",
            "_Z2k2Pf",
            &[("_ZZ2k2PfE1v", 0), ("gshared", 0x20)],
        ),
        (
            "layout_b.ptx",
            "_Z2k4Pf",
            &[("own1", 0), ("_ZZ2k4PfE3loc", 0x6), ("sh1", 0xc), ("sh2", 0x18)],
        ),
        (
            "layout_b.ptx",
            "_Z2k5Pf",
            &[("own2", 0), ("sh1", 0x8), ("sh2", 0x18)],
        ),
    ];
    for (file, kernel, want) in cases {
        let (got, _) = layout(file, kernel);
        assert_eq!(got, named(want), "{kernel}");
    }
}

/// The cubin's `.nv.shared.<kernel>` section: the reserved kilobyte and the static variables,
/// rounded up to the section's alignment. In declaration order `k4`'s variables would take 44
/// bytes (`sh1` at 0, `sh2` at 16, `own1` at 32, `loc` at 38), 48 rounded to the section's 8:
/// its section holds 0x428 bytes, ptxas's 40.
#[test]
fn the_static_shared_bytes_fill_the_cubins_shared_sections() {
    for (cubin, ptx) in [
        ("layout_a.sm_90.cubin", "layout_a.ptx"),
        ("layout_b.sm_90.cubin", "layout_b.ptx"),
    ] {
        let sizes = cubin_shared_sizes(&std::fs::read(data(cubin)).unwrap());
        assert_eq!(sizes.len(), 2, "{sizes:?}");
        for (kernel, size, align) in sizes {
            let (_, bytes) = layout(ptx, &kernel);
            let rounded = u64::from(bytes).div_ceil(align.max(1)) * align.max(1);
            assert_eq!(size, 0x400 + rounded, "{kernel}: {bytes} static bytes");
        }
    }
}
