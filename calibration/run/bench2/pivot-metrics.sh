#!/bin/sh
# On the GPU machine, from this folder (lud, libcudart.so.13):  LD_LIBRARY_PATH=$PWD sh measure.sh OUT
# lud's 10 pivot launches' branch targets under ncu with different metric lists: does a metric that
# instruments shared-memory instructions by address (sm__sass_l1tex_..._mem_shared_op_ld) change
# the count?  Writes OUT/pivot_metrics.txt, OUT/pivot_source.csv (ncu's source page once) and OUT/log.txt.
OUT=${1:?output folder}
mkdir -p "$OUT"
START=$(date +%s)
el() { echo $(( $(date +%s) - START )); }
LOG="$OUT/log.txt"; P="$OUT/pivot_metrics.txt"; : > "$P"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$LOG" 2>&1
B=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
SH=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
GL=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_ld.sum
FULL=$B,smsp__sass_branch_targets_threads_uniform.sum,smsp__sass_inst_executed_op_branch.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,$SH,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,launch__registers_per_thread,sm__maximum_warps_per_active_cycle_pct,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum
run() { # name, kernel filter, metrics
  if [ $(el) -gt 220 ]; then echo "no time for $1" >> "$LOG"; return; fi
  echo "== $1" >> "$P"
  timeout 90 ncu --clock-control none --csv $2 --metrics "$3" ./lud 2>> "$LOG" | grep 'branch_targets.sum' | grep pivot | awk -F'","' '{print $1"\"", $NF}' >> "$P"
  echo "$1 at $(el) s" >> "$LOG"
}
for r in 1 2 3; do
  run "branch + shared address metrics, -k pivot, run $r" "-k pivot" "$B,$SH"
  run "branch + global metrics, -k pivot, run $r" "-k pivot" "$B,$GL"
  run "ncu.sh's full list, -k pivot, run $r" "-k pivot" "$FULL"
done
run "ncu.sh's full list, every kernel (as lud.ncu.csv)" "" "$FULL"
run "branch only, every kernel" "" "$B"
if [ $(el) -lt 200 ]; then
  timeout 60 ncu --clock-control none -k pivot --section SourceCounters --page source --print-source sass --csv ./lud > "$OUT/pivot_source.csv" 2>> "$LOG"
  echo "source page at $(el) s" >> "$LOG"
fi
echo "total $(el) s" >> "$LOG"
