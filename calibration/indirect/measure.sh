#!/bin/sh
# Runs the indirect-call program on a GPU, natively and under ncu (one CSV row per launch), and
# the per-SASS-instruction executed counts of its launches:
#   LD_LIBRARY_PATH=$PWD sh measure.sh OUTDIR     (from the folder holding the binary)
OUT=${1:?output folder}
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,\
smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,\
smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,\
launch__registers_per_thread,launch__grid_size,launch__block_size
./indirect > "$OUT/indirect.stdout" 2>&1; echo "indirect exit $?"
ncu --clock-control none --csv --metrics "$M" ./indirect > "$OUT/indirect.ncu.csv" 2> "$OUT/indirect.ncu.stderr"
echo "ncu exit $? rows $(grep -c '^"' "$OUT/indirect.ncu.csv")"
ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./indirect > "$OUT/indirect.sass.csv" 2>> "$OUT/indirect.ncu.stderr"
echo "source exit $? lines $(wc -l < "$OUT/indirect.sass.csv")"
compute-sanitizer --tool memcheck ./indirect > "$OUT/indirect.memcheck.txt" 2>&1; echo "memcheck exit $?"
./badcall > "$OUT/badcall.txt" 2>&1; echo "badcall exit $?" >> "$OUT/badcall.txt"
compute-sanitizer ./badcall >> "$OUT/badcall.txt" 2>&1; echo "sanitizer exit $?" >> "$OUT/badcall.txt"
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$OUT/versions.txt" 2>&1
cat "$OUT/indirect.stdout" "$OUT/badcall.txt"
