#!/bin/sh
# CUTLASS 3 warp-specialised GEMM on the GPU: output of both schedules, then ncu on each launch.
OUT=${1:?out}
B=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed_op_branch.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
smsp__sass_inst_executed_op_tma.sum,smsp__sass_inst_executed_op_tma_ld.sum,smsp__sass_inst_executed_op_tma_st.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld_dest_multicast.sum,\
l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum,\
smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,launch__block_size
for s in cooperative pingpong; do
  echo "== $s" >> "$OUT/run.txt"
  timeout 60 ./gemm_ws $s >> "$OUT/run.txt" 2>&1; echo "exit $?" >> "$OUT/run.txt"
  timeout 150 ncu --clock-control none --csv --metrics "$B" ./gemm_ws $s > "$OUT/$s.ncu.csv" 2> "$OUT/$s.ncu.err"
  echo "ncu $s exit $?" >> "$OUT/run.txt"
  timeout 150 ncu --clock-control none --csv --metrics 'regex:.*gmma.*,regex:.*ldsm.*,regex:.*stsm.*' ./gemm_ws $s > "$OUT/$s.regex.csv" 2>> "$OUT/$s.ncu.err"
  echo "ncu regex $s exit $?" >> "$OUT/run.txt"
done
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$OUT/run.txt"
