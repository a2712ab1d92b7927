#!/bin/sh
# Measures printf.cu, printf2.cu, printf3.cu and printf4.cu on a GPU: each program's output, two
# ncu runs of every launch's global counters, and the machine code ncu shows for three kernels of
# printf.cu (with per-instruction executions; the printf implementation itself is not shown):
#   LD_LIBRARY_PATH=. sh measure.sh OUTDIR   (from the folder holding the four binaries)
OUT=${1:?output folder}
M=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,\
smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__inst_executed.sum,\
launch__grid_size,launch__block_size
for p in printf printf2 printf3 printf4; do
  ./$p > "$OUT/$p.stdout" 2>&1; echo "$p exit $?"
  ncu --clock-control none --csv --metrics "$M" ./$p > "$OUT/$p.ncu.csv" 2> "$OUT/$p.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$OUT/$p.ncu.csv")"
  ncu --clock-control none --csv --metrics "$M" ./$p > "$OUT/$p.r2.ncu.csv" 2>> "$OUT/$p.stderr"
  echo "$p ncu (second run) exit $? rows $(grep -c '^"' "$OUT/$p.r2.ncu.csv")"
done
for k in p_int12 str20 checkIndexShape; do
  ncu --clock-control none --section SourceCounters -k regex:"^$k\$" --page source --print-source sass --csv ./printf \
    > "$OUT/sass_$k.csv" 2>> "$OUT/sass.stderr"
  echo "sass $k exit $? lines $(wc -l < "$OUT/sass_$k.csv")"
done
nvidia-smi --query-gpu=name,driver_version --format=csv
ncu --version | tail -1
