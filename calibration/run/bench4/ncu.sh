#!/bin/sh
# bench4 on the GPU: each program natively (stdout), then under ncu with bench2's metric list
# (one CSV row per launch and metric), then with the two branch counters alone (no shared-memory
# instrumentation: `*.branch.csv`), then ncu's source page (executed instructions and divergent
# branches per SASS instruction) of each program's first launches. Takes about 2-4 minutes.
# Everything is written to $OUT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
OUT=${OUT:?set OUT}
W="$OUT/bench4"; mkdir -p "$W"
START=$(date +%s)
# the metric list (M): ncu-metrics.sh beside this script, else calibration/run/ncu-metrics.sh
D=$(dirname "$0"); if [ -f "$D/ncu-metrics.sh" ]; then . "$D/ncu-metrics.sh"; else . "$D/../ncu-metrics.sh"; fi
chmod +x dwt hwall vlc hsort leuko mummer myocyte
for p in dwt hwall vlc hsort leuko mummer myocyte; do
  timeout 60 ./$p > "$W/$p.stdout" 2>&1; echo "$p exit $?"
done
for p in dwt hwall vlc hsort leuko mummer myocyte; do
  timeout 90 ncu --clock-control none --csv --metrics "$M" ./$p > "$W/$p.ncu.csv" 2>> "$W/$p.ncu.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - START )) s"
done
for p in dwt hwall vlc hsort leuko mummer myocyte; do
  timeout 60 ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum ./$p > "$W/$p.branch.csv" 2>> "$W/$p.branch.stderr"
  echo "$p branch exit $? at $(( $(date +%s) - START )) s"
done
for p in dwt hwall vlc hsort leuko mummer myocyte; do
  if [ $(( $(date +%s) - START )) -gt 360 ]; then echo "no time for $p source page"; continue; fi
  n=3; [ $p = dwt ] && n=12; [ $p = myocyte ] && n=6; [ $p = hwall ] && n=7; [ $p = hsort ] && n=5
  timeout 60 ncu --clock-control none --launch-count $n --section SourceCounters --page source --print-source sass --csv ./$p > "$W/$p.sass.csv" 2>> "$W/$p.sass.stderr"
  echo "$p source exit $? lines $(wc -l < "$W/$p.sass.csv") at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
gzip -f "$W"/*.sass.csv 2>/dev/null
echo "total $(( $(date +%s) - START )) s"
