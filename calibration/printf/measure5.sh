#!/bin/sh
# Device printf's global traffic on this GPU: printf5 (calibration/printf/printf5.cu, ~110 launches),
# the same binary's two one-launch modes (alone in their process), book10's printFormats again and
# the earlier printf.cu (its H100 rows exist) for a comparison of devices.
#   LD_LIBRARY_PATH=. sh measure.sh OUTDIR   (from this folder)
OUT=${1:?output folder}
export LD_LIBRARY_PATH=$(pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,\
launch__grid_size,launch__block_size
START=$(date +%s)
el() { echo "$(( $(date +%s) - START )) s"; }
LOG="$OUT/log.txt"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  ncu --version | tail -1
  for a in "" b10only lanes4only; do echo "== printf5 $a"; ./printf5 $a; echo "exit $?"; done
  echo "== printf"; ./printf; echo "exit $?"
  echo "== book10"; ./book10; echo "exit $?"
} > "$OUT/stdout.txt" 2>&1
echo "native done at $(el)" >> "$LOG"
ncu --clock-control none --csv --metrics "$M" ./printf5 > "$OUT/printf5.ncu.csv" 2>> "$LOG"
echo "printf5 ncu exit $? rows $(grep -c '^"' "$OUT/printf5.ncu.csv") at $(el)" >> "$LOG"
for a in b10only lanes4only; do
  ncu --clock-control none --csv --metrics "$M" ./printf5 $a > "$OUT/printf5.$a.ncu.csv" 2>> "$LOG"
  echo "printf5 $a ncu exit $? rows $(grep -c '^"' "$OUT/printf5.$a.ncu.csv") at $(el)" >> "$LOG"
done
ncu --clock-control none --csv --metrics "$M" -k regex:printFormats ./book10 > "$OUT/book10.ncu.csv" 2>> "$LOG"
echo "book10 ncu exit $? rows $(grep -c '^"' "$OUT/book10.ncu.csv") at $(el)" >> "$LOG"
if [ $(( $(date +%s) - START )) -lt 170 ]; then
  ncu --clock-control none --csv --metrics "$M" ./printf > "$OUT/printf.ncu.csv" 2>> "$LOG"
  echo "printf ncu exit $? rows $(grep -c '^"' "$OUT/printf.ncu.csv") at $(el)" >> "$LOG"
else
  echo "printf skipped (time) at $(el)" >> "$LOG"
fi
echo "all done at $(el)" >> "$LOG"
