#!/bin/sh
# Runs the programs built by build.sh on a GPU, natively and under ncu (one CSV row per launch):
#   LD_LIBRARY_PATH=lib sh measure.sh OUTDIR     (from the folder holding the binaries)
OUT=${1:?output folder}
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,\
smsp__sass_inst_executed_op_generic_ld.sum,smsp__sass_inst_executed_op_generic_st.sum,smsp__sass_inst_executed_op_generic_atom.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum
# the cluster dimensions too where this ncu knows the metric (the run is repeated without it)
C=launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z
for p in dims dsmem sm90a; do
  ./$p > "$OUT/$p.stdout" 2>&1; echo "$p exit $?"
  ncu --clock-control none --csv --metrics "$M,$C" ./$p > "$OUT/$p.ncu.csv" 2> "$OUT/$p.ncu.stderr" ||
    ncu --clock-control none --csv --metrics "$M" ./$p > "$OUT/$p.ncu.csv" 2>> "$OUT/$p.ncu.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$OUT/$p.ncu.csv")"
done
nvidia-smi --query-gpu=name,driver_version --format=csv
ncu --version | tail -1
