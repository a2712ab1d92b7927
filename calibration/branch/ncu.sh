#!/bin/sh
# Runs the branch microbenchmarks under ncu (from the folder holding the binaries and libcudart.so.13):
#   LD_LIBRARY_PATH=$PWD sh ncu.sh OUTDIR
OUT=${1:?output folder}
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum,launch__grid_size,launch__block_size
./branch > "$OUT/branch.stdout" 2>&1; echo "branch exit $?"
ncu --clock-control none --csv --metrics "$M" ./branch > "$OUT/branch.ncu.csv" 2>> "$OUT/branch.stdout"
echo "ncu exit $? rows $(grep -c '^"' "$OUT/branch.ncu.csv")"
# executed warp instructions per SASS instruction, with the source line table
ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./branch > "$OUT/branch.sass.csv" 2>> "$OUT/branch.stdout"
echo "source exit $? lines $(wc -l < "$OUT/branch.sass.csv")"
ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./divergence > "$OUT/divergence.sass.csv" 2> "$OUT/divergence.stderr"
echo "divergence source exit $? lines $(wc -l < "$OUT/divergence.sass.csv")"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; ncu --query-metrics | grep -i branch; } > "$OUT/versions.txt" 2>&1
tail -n 3 "$OUT/branch.stdout"
