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

#[test]
fn barriers_from_a_real_cubin_limit_the_blocks_of_an_sm() {
    // calibration/run/bench17/namedbar.cu: `plain` syncs with __syncthreads() only; `specialised`
    // names its barriers by registers (`bar.sync %r, 192`), so ptxas reserves all 16
    let cubin = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/namedbar.sm_90.cubin"
    ))
    .unwrap();
    let mut bars = warpscope_cudart::fatbin::cubin_barriers(&cubin);
    bars.sort();
    assert_eq!(
        bars,
        [
            ("_Z11specialisedPKfPfS1_".to_string(), 16),
            ("_Z5plainPKfPf".to_string(), 1)
        ]
    );
    // the H200 ran `specialised` (40 registers, 192 threads) at 37.5 % theoretical occupancy
    // (calibration/run/bench17/h200/namedbar.ncu.csv): 4 blocks, where registers allow 8
    let limits =
        warpscope_model::occupancy::Limits::for_arch(warpscope_model::arch::Arch::parse("sm_90").unwrap())
            .unwrap();
    let mut l = warpscope_model::occupancy::Launch::new(192, 40);
    assert_eq!(
        warpscope_model::occupancy::occupancy(&limits, &l)
            .unwrap()
            .blocks_per_sm,
        8
    );
    l.barriers = 16;
    let o = warpscope_model::occupancy::occupancy(&limits, &l).unwrap();
    assert_eq!((o.blocks_per_sm, 100.0 * o.occupancy()), (4, 37.5));
    // every kernel of smem.cu: one barrier
    let smem = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/smem.sm_90.cubin"
    ))
    .unwrap();
    let bars = warpscope_cudart::fatbin::cubin_barriers(&smem);
    assert_eq!(bars.len(), 8, "{bars:?}");
    assert!(bars.iter().all(|(_, b)| *b == 1), "{bars:?}");
}
