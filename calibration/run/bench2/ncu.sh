#!/bin/sh
# Runs this folder's programs (built by build.sh) on a GPU under ncu, from the folder holding the
# binaries and libcudart.so.13:   LD_LIBRARY_PATH=$PWD sh ncu.sh OUT
# Writes OUT/results.tar.gz (per program: .stdout, .ncu.csv one row per launch and metric, and for
# a few programs .sass.csv, ncu's source page: executed instructions per SASS instruction) and
# prints a summary.
OUT=${1:?output folder}
W="$OUT/bench2"; mkdir -p "$W"
START=$(date +%s)
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_branch.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,\
launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum
for p in switch rk4 btree conv pfilter stencil nw kmeans bfs lud; do
  timeout 60 ./$p > "$W/$p.stdout" 2>&1; echo "$p exit $?"
  timeout 200 ncu --clock-control none --csv --metrics "$M" ./$p > "$W/$p.ncu.csv" 2>> "$W/$p.stdout"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - START )) s"
done
# executed warp instructions per SASS instruction (the first launches only), while time remains
for p in switch rk4 btree conv pfilter kmeans; do
  if [ $(( $(date +%s) - START )) -gt 380 ]; then echo "no time for $p source page"; continue; fi
  timeout 60 ncu --clock-control none --launch-count 3 --section SourceCounters --page source --print-source sass --csv ./$p > "$W/$p.sass.csv" 2>> "$W/$p.sass.stderr"
  echo "$p source exit $? lines $(wc -l < "$W/$p.sass.csv") at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
tar czf "$OUT/results.tar.gz" -C "$OUT" bench2 && rm -rf "$W"
echo "total $(( $(date +%s) - START )) s"
