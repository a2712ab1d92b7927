#!/bin/sh
# Runs the programs built by build.sh on a GPU, under ncu, one CSV row per launch:
#   LD_LIBRARY_PATH=. sh ncu.sh OUTDIR     (from the folder holding the binaries)
OUT=${1:?output folder}
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,\
launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,\
smsp__sass_inst_executed_op_ldsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,\
smsp__sass_inst_executed_op_shared_stsm.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum,\
smsp__sass_inst_executed_op_ldgsts.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,\
smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# one .stdout (the program alone, then ncu's messages) and one .ncu.csv per program; summary on stdout
for p in smem divergence divergence_G api book book2 vars collectives tensor partition atomics loops graphs textures cooperative surfaces; do
  ./$p > "$OUT/$p.stdout" 2>&1; echo "$p exit $?"
  ncu --clock-control none --csv --metrics "$M" ./$p > "$OUT/$p.ncu.csv" 2>> "$OUT/$p.stdout"
  echo "$p ncu exit $? rows $(grep -c '^"' "$OUT/$p.ncu.csv")"
done
nvidia-smi --query-gpu=name,driver_version --format=csv
ncu --version | tail -1
tail -n 3 "$OUT"/*.stdout
