#!/usr/bin/env bash
# Device round for thrx's merge-sort shared-load wavefronts (calibration/lds64/README.md).
# In a folder holding this script, patterns*.txt, libcudart.so.13, thrx (calibration/run/bench13/
# build.sh) and probe (nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o probe probe.cu):
# OUT=DIR bash run.sh  -> $OUT/results.tgz. About 2 minutes; a step is skipped once 200 s have
# passed.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
R=$(mktemp -d); START=$(date +%s)
t() { echo "$1 exit $2 at $(( $(date +%s) - START )) s" >> $R/log.txt; }
late() { if [ $(( $(date +%s) - START )) -gt 200 ]; then echo "$1 skipped (time)" >> $R/log.txt; return 0; fi; return 1; }
chmod +x thrx probe
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $R/versions.txt 2>&1
./thrx > $R/thrx.stdout 2>&1; t native $?
./probe patterns.txt > $R/probe.stdout 2>&1; t probe $?
./probe patterns_single.txt single > $R/probe_single.stdout 2>&1; t probesingle $?
K='regex:DeviceMergeSort(BlockSort|Merge)Kernel'
M=smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum
# the merge-sort launches' metric list (three times in all: does the H200 repeat its count?)
timeout 40 ncu --clock-control none --csv -k "$K" --metrics "$M" ./thrx > $R/thrx.metrics1.csv 2> $R/thrx.metrics1.err; t metrics1 $?
# per SASS instruction (L1 Wavefronts Shared) of the 7 merge-sort launches
timeout 60 ncu --clock-control none -k "$K" --section SourceCounters --page source --print-source sass --csv ./thrx > $R/thrx.sass.csv 2> $R/thrx.sass.err; t sass $?
# own probe (calibration/lds64): one pattern per launch (patterns_single.txt: the L1's own count
# per pattern beside the attributed one), then 32 predicated loads per one-warp launch
# (patterns.txt: per SASS instruction from the source page; sums per launch)
late probesinglemetrics || { timeout 70 ncu --clock-control none --csv --metrics "$M" ./probe patterns_single.txt single > $R/probe_single.metrics.csv 2> $R/probe_single.metrics.err; t probesinglemetrics $?; }
late probesass || { timeout 60 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./probe patterns.txt > $R/probe.sass.csv 2> $R/probe.sass.err; t probesass $?; }
for i in 2 3; do
  late metrics$i || { timeout 30 ncu --clock-control none --csv -k "$K" --metrics "$M" ./thrx > $R/thrx.metrics$i.csv 2> $R/thrx.metrics$i.err; t metrics$i $?; }
done
late probemetrics || { timeout 20 ncu --clock-control none --csv --metrics "$M" ./probe patterns.txt > $R/probe.metrics.csv 2> $R/probe.metrics.err; t probemetrics $?; }
cuobjdump -sass probe > $R/probe.cuobjdump.txt 2>&1
gzip -9 $R/*.csv
t total 0
tar czf "$OUT/results.tgz" -C $R .
