#!/bin/sh
# On the GPU machine, from the folder holding mbarwait, gemm_ws (calibration/cutlass) and
# libcudart.so.13:   LD_LIBRARY_PATH=$PWD sh measure.sh OUT
# Writes OUT/rcp64h.delta.xz and OUT/rcp64h.list (calibration/rcp64h, when ./rcp64h is there),
# OUT/mbarwait.stdout (the retry counts each launch made), OUT/mbarwait.ncu.csv (branch
# counters per launch), OUT/mbarwait.sass.csv (ncu's source page: executed instructions and
# divergent branches per SASS instruction, every launch), the same for gemm_ws's two schedules
# (OUT/gemm.ncu.csv: each schedule twice; OUT/gemm.sass.csv: one launch each) and OUT/log.txt.
OUT=${1:?output folder}
mkdir -p "$OUT"
START=$(date +%s)
el() { echo $(( $(date +%s) - START )); }
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum
LOG="$OUT/log.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$LOG" 2>&1
# MUFU.RCP64H over one binade (calibration/rcp64h), if carried
if [ -x ./rcp64h ]; then
  mkdir -p "$OUT/r64" && timeout 30 ./rcp64h "$OUT/r64" >> "$LOG" 2>&1; echo "rcp64h exit $? at $(el) s" >> "$LOG"
  python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read()))" "$OUT/r64/rcp64h.delta" "$OUT/rcp64h.delta.xz" >> "$LOG" 2>&1
  mv "$OUT/r64/rcp64h.list" "$OUT/rcp64h.list"; rm -rf "$OUT/r64"
fi
timeout 30 ./mbarwait 3 > "$OUT/mbarwait.stdout" 2>&1; echo "mbarwait exit $? at $(el) s" >> "$LOG"
timeout 60 ncu --clock-control none --csv --metrics "$M" ./mbarwait 3 > "$OUT/mbarwait.ncu.csv" 2>> "$LOG"
echo "mbarwait ncu exit $? at $(el) s" >> "$LOG"
timeout 60 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./mbarwait 1 > "$OUT/mbarwait.sass.csv" 2>> "$LOG"
echo "mbarwait source exit $? at $(el) s" >> "$LOG"
if [ -x ./gemm_ws ]; then
  : > "$OUT/gemm.ncu.csv"; : > "$OUT/gemm.sass.csv"
  for s in cooperative pingpong; do
    for r in 1 2; do
      if [ $(el) -gt 170 ]; then echo "no time for $s $r" >> "$LOG"; continue; fi
      echo "== $s $r" >> "$OUT/gemm.ncu.csv"
      timeout 40 ncu --clock-control none --csv --metrics "$M" ./gemm_ws $s >> "$OUT/gemm.ncu.csv" 2>> "$LOG"
      echo "gemm $s ncu $r exit $? at $(el) s" >> "$LOG"
    done
  done
  for s in cooperative pingpong; do
    if [ $(el) -gt 185 ]; then echo "no time for $s source" >> "$LOG"; continue; fi
    echo "== $s" >> "$OUT/gemm.sass.csv"
    timeout 40 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./gemm_ws $s >> "$OUT/gemm.sass.csv" 2>> "$LOG"
    echo "gemm $s source exit $? at $(el) s" >> "$LOG"
  done
fi
echo "total $(el) s" >> "$LOG"
