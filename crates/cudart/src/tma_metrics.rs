//! The Nsight Compute counters of a launch's TMA instructions (`warpscope_emu::tma::TmaCounts`):
//! instructions by kind, and the global sectors the loads read, the stores wrote and the reductions
//! updated. How each compares with the GPU is in calibration/tma/README.md.

use warpscope_emu::tma::TmaCounts;

/// The TMA counters: sums over blocks (a cut launch's are scaled to the grid).
pub const TMA_SUMS: &[&str] = &[
    "smsp__sass_inst_executed_op_tma.sum",
    "smsp__sass_inst_executed_op_tma_ld.sum",
    "smsp__sass_inst_executed_op_tma_st.sum",
    "smsp__sass_inst_executed_op_tma_red.sum",
    "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum",
];

/// Puts the counters of `t` (nothing for a launch without TMA instructions).
pub fn put_tma(t: &TmaCounts, put: &mut impl FnMut(&str, f64)) {
    if *t == TmaCounts::default() {
        return;
    }
    let all = t.loads + t.stores + t.reductions + t.prefetches;
    let values = [
        all,
        t.loads,
        t.stores,
        t.reductions,
        t.ld_sectors,
        t.ld_sectors * 32,
        t.st_sectors,
        t.st_sectors * 32,
        t.red_sectors,
        t.red_sectors * 32,
    ];
    for (k, v) in TMA_SUMS.iter().zip(values) {
        put(k, v as f64);
    }
}
