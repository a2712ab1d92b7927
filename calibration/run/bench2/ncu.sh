#!/bin/sh
# Runs this folder's programs (built by build.sh) on a GPU under ncu, from the folder holding the
# binaries and libcudart.so.13:   LD_LIBRARY_PATH=$PWD sh ncu.sh OUT
# Writes OUT/results.tar.gz (per program: .stdout, .ncu.csv one row per launch and metric, and for
# a few programs .sass.csv, ncu's source page: executed instructions per SASS instruction) and
# prints a summary.
OUT=${1:?output folder}
W="$OUT/bench2"; mkdir -p "$W"
START=$(date +%s)
# the metric list (M): ncu-metrics.sh beside this script, else calibration/run/ncu-metrics.sh
D=$(dirname "$0"); if [ -f "$D/ncu-metrics.sh" ]; then . "$D/ncu-metrics.sh"; else . "$D/../ncu-metrics.sh"; fi
for p in switch rk4 btree conv pfilter stencil nw kmeans bfs lud; do
  timeout 60 ./$p > "$W/$p.stdout" 2>&1; echo "$p exit $?"
  timeout 200 ncu --clock-control none --csv --metrics "$M" ./$p > "$W/$p.ncu.csv" 2>> "$W/$p.stdout"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - START )) s"
done
# executed warp instructions per SASS instruction (the first launches only), while time remains
for p in switch rk4 btree conv pfilter kmeans; do
  if [ $(( $(date +%s) - START )) -gt 380 ]; then echo "no time for $p source page"; continue; fi
  timeout 60 ncu --clock-control none --launch-count 3 --section SourceCounters --page source --print-source sass --csv ./$p > "$W/$p.sass.csv" 2>> "$W/$p.sass.stderr"
  echo "$p source exit $? lines $(wc -l < "$W/$p.sass.csv") at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
tar czf "$OUT/results.tar.gz" -C "$OUT" bench2 && rm -rf "$W"
echo "total $(( $(date +%s) - START )) s"
