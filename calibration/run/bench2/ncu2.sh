#!/bin/sh
# sh measure.sh OUT (from this folder; LD_LIBRARY_PATH holds libcudart.so.13): BRX jump-table branch counters
OUT=${1:?output folder}
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-$PWD}
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__sass_inst_executed_op_branch.sum,launch__grid_size,launch__block_size
timeout 30 ./switch2 > "$OUT/switch2.stdout" 2>&1; echo "exit $?" >> "$OUT/summary.txt"
timeout 60 ncu --clock-control none --csv --metrics "$M" ./switch2 > "$OUT/switch2.ncu.csv" 2>> "$OUT/switch2.stdout"; echo "ncu exit $?" >> "$OUT/summary.txt"
timeout 70 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./switch2 > "$OUT/switch2.sass.csv" 2>> "$OUT/switch2.stdout"; echo "source exit $?" >> "$OUT/summary.txt"
cat "$OUT/summary.txt"
