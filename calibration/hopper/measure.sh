#!/bin/sh
# Runs hopper_run natively (output hashes and bytes), then under ncu twice (base counters; the
# LDSM/STSM/LDGSTS/gmma/TMA counters), one launch per kernel:
#   sh measure.sh OUT        (from the folder built by build.sh, holding libcudart.so.13)
OUT=${1:?output folder}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=.:$LD_LIBRARY_PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > "$OUT/versions.txt" 2>&1
timeout 120 ./hopper_run . "$OUT/outputs.bin" > "$OUT/run.txt" 2>&1; echo "run exit $?" >> "$OUT/run.txt"
A=smsp__inst_executed.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
B=smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,\
smsp__inst_executed_op_stsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,\
smsp__sass_inst_executed_op_shared_gmma.sum,smsp__sass_data_bytes_mem_shared_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,\
smsp__sass_inst_executed_op_tma.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,\
l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,smsp__sass_inst_executed_op_shared_atom.sum
timeout 200 ncu --clock-control none --csv --page raw --metrics "$A" ./hopper_run . /tmp/hop_a.bin > "$OUT/ncu_a.csv" 2> "$OUT/ncu.err"
echo "ncu a exit $? rows $(grep -c '^"' "$OUT/ncu_a.csv")" >> "$OUT/run.txt"
timeout 150 ncu --clock-control none --csv --page raw --metrics "$B" ./hopper_run . /tmp/hop_b.bin > "$OUT/ncu_b.csv" 2>> "$OUT/ncu.err"
echo "ncu b exit $? rows $(grep -c '^"' "$OUT/ncu_b.csv")" >> "$OUT/run.txt"
