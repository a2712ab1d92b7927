//! The cubin and fatbin readers on what nvcc 13 wrote (`calibration/run/smem.cu`, sm_90).

#[test]
fn registers_from_a_real_cubin() {
    let cubin = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/smem.sm_90.cubin"
    ))
    .unwrap();
    let regs = warpscope_cudart::fatbin::cubin_registers(&cubin);
    // cuobjdump -res-usage: every kernel of smem.cu has REG:10 (Nsight Compute reports 16 allocated)
    assert_eq!(regs.len(), 8, "{regs:?}");
    assert!(
        regs.iter().any(|(n, r)| n == "_Z13setRowReadRowPi" && *r == 10),
        "{regs:?}"
    );
    assert_eq!(warpscope_cudart::fatbin::allocated_registers(10), 16);
    assert_eq!(warpscope_cudart::fatbin::allocated_registers(17), 17);
}

#[test]
fn registers_of_kernels_with_params_only() {
    let cubin = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/divergence.sm_90.cubin"
    ))
    .unwrap();
    let regs = warpscope_cudart::fatbin::cubin_registers(&cubin);
    assert_eq!(regs.len(), 6, "{regs:?}");
    assert!(
        regs.iter().any(|(n, r)| n == "_Z11mathKernel1Pf" && *r == 8),
        "{regs:?}"
    );
}
