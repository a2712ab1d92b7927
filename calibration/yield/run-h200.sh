#!/bin/sh
# calibration/yield on the GPU: natively twice, ncu's metric list, the branch counters alone,
# the SASS source page of all 18 launches twice. Results in $OUT/results.tgz.
HERE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$HERE:$LD_LIBRARY_PATH
W=$(mktemp -d); cd "$W"
command -v ncu >/dev/null 2>&1 || export PATH=$PATH:/usr/local/cuda/bin
. "$HERE/ncu-metrics.sh"
P="$HERE/yloops"; chmod +x "$P"
START=$(date +%s)
timeout 30 "$P" > yloops.stdout 2>&1; echo "native exit $?" >> summary.txt
timeout 30 "$P" > yloops.stdout2 2>&1; echo "native2 exit $?" >> summary.txt
timeout 80 ncu --clock-control none --csv --metrics "$M" "$P" > yloops.ncu.csv 2> yloops.ncu.stderr
echo "ncu exit $? at $(( $(date +%s) - START )) s" >> summary.txt
timeout 40 ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__inst_executed.sum "$P" > yloops.branch.csv 2> yloops.branch.stderr
echo "branch exit $? at $(( $(date +%s) - START )) s" >> summary.txt
timeout 50 ncu --clock-control none --launch-count 18 --section SourceCounters --page source --print-source sass --csv "$P" > yloops.sass.csv 2> yloops.sass.stderr
echo "source exit $? at $(( $(date +%s) - START )) s" >> summary.txt
if [ $(( $(date +%s) - START )) -lt 170 ]; then
  timeout 50 ncu --clock-control none --launch-count 18 --section SourceCounters --page source --print-source sass --csv "$P" > yloops.sass2.csv 2> yloops.sass2.stderr
  echo "source2 exit $? at $(( $(date +%s) - START )) s" >> summary.txt
fi
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > versions.txt 2>&1
gzip -f *.sass*.csv 2>/dev/null
mkdir -p "$OUT"; tar czf "$OUT/results.tgz" *
