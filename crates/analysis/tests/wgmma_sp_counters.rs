//! What Nsight Compute counts of sparse `wgmma.mma_async.sp` reading shared memory
//! (`warpscope_analysis::banks::GmmaCounts`) against an H200 (calibration/wgmma-sp/h200/ncu_gmma.tsv:
//! one launch of each of the 47 sparse calibration kernels): per warpgroup instruction 64 N bytes
//! of B (K-major rows of 64 bytes) and 2048 of the compressed A when A comes from shared memory.
//! The counts do not depend on the data, so the launches run on zeroed inputs with the rows'
//! descriptors.
//!
//! ptxas adds one dense HGMMA per warp to every calibration kernel (as in calibration/wgmma:
//! `HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0`, the `wgmma.commit_group` after the K loop):
//! it is in `smsp__sass_inst_executed_op_shared_gmma` (4 warp instructions) and in
//! `sm__sass_data_bytes_mem_shared_op_gmma` / `sm__sass_..._op_gmma` (a 64x8x16 f16 product: 2048 +
//! 256 bytes, 18 wavefronts) but not in `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma`; the
//! program has no instruction for it, so the model leaves it out and the test adds it back.

mod gmma_counts;

#[test]
fn sparse_gmma_counters_match_the_gpu() {
    gmma_counts::check(&gmma_counts::Calib {
        dir: "wgmma-sp",
        ptx: "sp_calib.ptx.zst",
        f16_prefix: "s_f16",
        second_buffer: 4096,
        metadata: true,
        kernels: 47,
    });
}
