#!/bin/sh
# switch (calibration/run/calls/switch.cu, switch_lib.cu): jump tables inside functions ptxas keeps
# apart, four builds; and floatBins (crates/cli/tests/data/floatBins.cu). Per program: native
# output, the branch counters (and instructions) under ncu three times, ncu's SASS source page of
# the -O2 builds; floatBins: five native runs and one ncu pass with the run counters.
#   build.sh B && nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -LB/lib -o B/floatBins \
#     crates/cli/tests/data/floatBins.cu && cp $CU/lib/libcudart.so.13 switch_run.sh B/
#   OUT=RESULTS sh B/switch_run.sh          # on the GPU, 35 s
HERE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$HERE:$LD_LIBRARY_PATH
command -v ncu >/dev/null 2>&1 || export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d); cd "$W"
START=$(date +%s)
P="sw_o2 sw_rdc sw_g sw_grdc"
for p in $P floatBins; do chmod +x "$HERE/$p"; timeout 60 "$HERE/$p" > $p.stdout 2>&1; echo "$p exit $?" >> log.txt; done
for r in 1 2 3; do
  for p in $P; do
    timeout 60 ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed.sum "$HERE/$p" > $p.branch$r.csv 2>> $p.branch.stderr
    echo "$p branch run $r exit $? at $(( $(date +%s) - START )) s" >> log.txt
  done
done
for p in sw_o2 sw_rdc; do
  timeout 60 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv "$HERE/$p" > $p.sass.csv 2>> $p.sass.stderr
  echo "$p source exit $? at $(( $(date +%s) - START )) s" >> log.txt
done
for r in 2 3 4 5; do timeout 60 "$HERE/floatBins" > floatBins.stdout$r 2>&1; done
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__inst_executed.sum
timeout 60 ncu --clock-control none --csv --metrics "$M" "$HERE/floatBins" > floatBins.ncu.csv 2>> floatBins.ncu.stderr
echo "floatBins ncu exit $? at $(( $(date +%s) - START )) s" >> log.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > versions.txt 2>&1
gzip -f *.sass.csv
tar czf "$OUT/results.tgz" *
