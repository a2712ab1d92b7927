#!/bin/sh
# TMA calibration, round 6 (round 5 plus the 128B-swizzled store before the tensor moved to the probes):
# runs ./tma natively, under ncu with the shared/global metrics and the TMA counters.
#   LD_LIBRARY_PATH=$PWD sh measure.sh OUT
OUT=${1:?output folder}
mkdir -p "$OUT"
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__sass_inst_executed_op_tma.sum,smsp__sass_inst_executed_op_tma_ld.sum,smsp__sass_inst_executed_op_tma_st.sum,smsp__sass_inst_executed_op_tma_red.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum,l1tex__m_l1tex2xbar_read_requests_mem_global_op_tma_ld_dest_multicast.sum,\
l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum,\
l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_tma_st.sum,l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_tma_st.sum,\
smsp__inst_executed.sum,launch__grid_size,launch__block_size
timeout 120 ./tma > "$OUT/tma.stdout" 2>&1; echo "tma exit $?"
for p in u8_250_oob u8_250_inb f32_20_inb u8_256_off16 u8_2d_oob u8_oob_dim1 u8_32_oob u16_4d u16_4d_inb f32_5d f32_5d_inb store_f32_oob_neg_sw128; do
  echo "== probe $p" >> "$OUT/probes.stdout"
  timeout 30 ./tma probe $p >> "$OUT/probes.stdout" 2>&1; echo "probe $p exit $?"
done
timeout 300 ncu --clock-control none --csv --metrics "$M" ./tma > "$OUT/tma.ncu.csv" 2> "$OUT/tma.ncu.stderr"
echo "ncu exit $? rows $(grep -c '^"' "$OUT/tma.ncu.csv")"
nvidia-smi --query-gpu=name,driver_version --format=csv
ncu --version | tail -1
