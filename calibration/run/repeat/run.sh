#!/bin/sh
# Run-to-run spread of two launches whose counters depend on how the GPU schedules diverged lanes:
# hashq's lookupQuad (global load requests) and raytrace's render (branch targets).
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
. ./ncu-metrics.sh
W=$(mktemp -d)
START=$(date +%s)
chmod +x hashq raytrace
./hashq > $W/hashq.stdout 2>&1; ./raytrace > $W/raytrace.stdout 2>&1
for i in 1 2 3 4 5 6; do
  timeout 40 ncu --clock-control none --csv --kernel-name lookupQuad --metrics "$M" ./hashq > $W/hashq.quad.r$i.csv 2>> $W/stderr.txt
  echo "hashq r$i $? at $(( $(date +%s) - START )) s"
done
for i in 1 2 3 4 5 6; do
  timeout 40 ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum ./raytrace > $W/raytrace.branch.r$i.csv 2>> $W/stderr.txt
  echo "raytrace r$i $? at $(( $(date +%s) - START )) s"
done
for i in 1 2 3; do
  timeout 40 ncu --clock-control none --csv --kernel-name lookupQuad --section SourceCounters --page source --print-source sass ./hashq > $W/hashq.quad.sass.r$i.csv 2>> $W/stderr.txt
  echo "hashq sass r$i $? at $(( $(date +%s) - START )) s"
done
for i in 1 2; do
  timeout 60 ncu --clock-control none --csv --section SourceCounters --page source --print-source sass ./raytrace > $W/raytrace.sass.r$i.csv 2>> $W/stderr.txt
  echo "raytrace sass r$i $? at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > $W/versions.txt 2>&1
gzip -f $W/*.sass.r*.csv
echo "total $(( $(date +%s) - START )) s" | tee $W/total.txt
cd $W && tar czf $OUT/results.tgz *
