#!/usr/bin/env bash
# Device round for 16-byte shared-load attribution and shared-store attribution
# (calibration/lds128/README.md). In a folder holding this script, patterns*.txt, libcudart.so.13
# and probe (nvcc -O2 -arch=sm_90 -lineinfo -cudart shared -o probe probe.cu):
# OUT=DIR bash run.sh  -> $OUT/results.tgz. About 2-3 minutes; later steps are skipped when
# time runs short (log.txt).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
R=$(mktemp -d); START=$(date +%s)
t() { echo "$1 exit $2 at $(( $(date +%s) - START )) s" >> $R/log.txt; }
# late LIMIT STEP: skip STEP once LIMIT seconds have passed (the whole round stays under 240 s)
late() { if [ $(( $(date +%s) - START )) -gt $1 ]; then echo "$2 skipped (time)" >> $R/log.txt; return 0; fi; return 1; }
chmod +x probe
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $R/versions.txt 2>&1
./probe patterns.txt > $R/probe.stdout 2>&1; t probe $?
./probe patterns_single.txt single > $R/probe_single.stdout 2>&1; t probesingle $?
M=smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# packed: 32 accesses per one-warp launch, per SASS instruction from the source page; two ncu
# passes (the first 67 launches hold the first-free-second-conflicting families)
timeout 100 ncu --clock-control none --launch-count 67 --section SourceCounters --page source --print-source sass --csv ./probe patterns.txt > $R/probe.sass1.csv 2> $R/probe.sass1.err; t probesass1 $?
late 110 probesass2 || { timeout 100 ncu --clock-control none --launch-skip 67 --section SourceCounters --page source --print-source sass --csv ./probe patterns.txt > $R/probe.sass2.csv 2> $R/probe.sass2.err; t probesass2 $?; }
# single: one pattern per launch (the L1's own count beside the attributed one)
late 170 probesinglemetrics || { timeout 50 ncu --clock-control none --csv --metrics "$M" ./probe patterns_single.txt single > $R/probe_single.metrics.csv 2> $R/probe_single.metrics.err; t probesinglemetrics $?; }
late 200 probemetrics || { timeout 20 ncu --clock-control none --csv --metrics "$M" ./probe patterns.txt > $R/probe.metrics.csv 2> $R/probe.metrics.err; t probemetrics $?; }
cuobjdump -sass probe > $R/probe.cuobjdump.txt 2>&1
gzip -9 $R/*.csv $R/probe.cuobjdump.txt
t total 0
tar czf "$OUT/results.tgz" -C $R .
