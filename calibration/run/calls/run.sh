#!/bin/sh
# calls (calibration/run/calls): three builds of own kernels calling functions ptxas keeps apart,
# plus bench13's rdc and dbg again. Per program: native output, the two branch counters under
# ncu three times (does the GPU repeat its count?), and ncu's SASS source page of every launch.
HERE=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$HERE:$LD_LIBRARY_PATH
command -v ncu >/dev/null 2>&1 || export PATH=$PATH:/usr/local/cuda/bin
W=$(mktemp -d); cd "$W"
START=$(date +%s)
P="calls_rdc calls_grdc calls_g rdc dbg"
for p in $P; do chmod +x "$HERE/$p"; timeout 60 "$HERE/$p" > $p.stdout 2>&1; echo "$p exit $?" >> log.txt; done
for r in 1 2 3; do
  for p in $P; do
    timeout 60 ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed.sum "$HERE/$p" > $p.branch$r.csv 2>> $p.branch.stderr
    echo "$p branch run $r exit $? at $(( $(date +%s) - START )) s" >> log.txt
  done
done
for p in calls_rdc calls_grdc calls_g; do
  timeout 60 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv "$HERE/$p" > $p.sass.csv 2>> $p.sass.stderr
  echo "$p source exit $? at $(( $(date +%s) - START )) s" >> log.txt
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > versions.txt 2>&1
gzip -f *.sass.csv
tar czf "$OUT/results.tgz" *
