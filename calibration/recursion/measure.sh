#!/bin/sh
# rec.cu on the GPU: natively, under compute-sanitizer, under ncu with the branch and
# global-memory counters (one CSV row per launch and metric). About 30 s. Writes $OUT/recursion/.
#   nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o rec rec.cu   (built beside this script)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
W="${OUT:?set OUT}/recursion"; mkdir -p "$W"
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
launch__registers_per_thread
chmod +x rec
./rec > "$W/rec.stdout" 2>&1; echo "exit $?"
compute-sanitizer --tool memcheck ./rec > "$W/rec.sanitizer.txt" 2>&1; echo "sanitizer $?"
for k in 1 2; do
  ncu --clock-control none --csv --metrics "$M" ./rec > "$W/rec.ncu$k.csv" 2>> "$W/ncu.stderr"
  echo "ncu $k exit $?"
done
ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./rec > "$W/rec.sass.csv" 2>> "$W/ncu.stderr"
gzip -f "$W/rec.sass.csv"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
