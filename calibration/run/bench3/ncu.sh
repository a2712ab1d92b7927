#!/bin/sh
# bench3 on the GPU: each program natively (stdout), then under ncu with bench2's metric list
# (one CSV row per launch and metric), then ncu's source page (executed instructions and divergent
# branches per SASS instruction) for the first launches of a few programs while time remains.
# Takes about 4-6 minutes (gauss's 510 launches under ncu are the longest part; capped at 300 s,
# then gauss 128 (254 launches) as a fallback). Everything is written to $OUT.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
OUT=${OUT:?set OUT}
W="$OUT/bench3"; mkdir -p "$W"
START=$(date +%s)
# the metric list (M): ncu-metrics.sh beside this script, else calibration/run/ncu-metrics.sh
D=$(dirname "$0"); if [ -f "$D/ncu-metrics.sh" ]; then . "$D/ncu-metrics.sh"; else . "$D/../ncu-metrics.sh"; fi
chmod +x gauss pathfind backprop srad hotspot3d lavamd cfd nn sclust
for p in nn hotspot3d pathfind lavamd backprop srad cfd sclust gauss; do
  timeout 60 ./$p > "$W/$p.stdout" 2>&1; echo "$p exit $?"
done
for p in nn hotspot3d pathfind lavamd backprop srad cfd sclust; do
  timeout 60 ncu --clock-control none --csv --metrics "$M" ./$p > "$W/$p.ncu.csv" 2>> "$W/$p.ncu.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - START )) s"
done
LEFT=$(( 400 - ($(date +%s) - START) )); [ $LEFT -gt 300 ] && LEFT=300
timeout $LEFT ncu --clock-control none --csv --metrics "$M" ./gauss > "$W/gauss.ncu.csv" 2>> "$W/gauss.ncu.stderr"
rc=$?; echo "gauss ncu exit $rc rows $(grep -c '^"' "$W/gauss.ncu.csv") at $(( $(date +%s) - START )) s"
if [ $rc -ne 0 ] && [ $(( $(date +%s) - START )) -lt 380 ]; then
  ./gauss 128 > "$W/gauss128.stdout" 2>&1
  timeout 60 ncu --clock-control none --csv --metrics "$M" ./gauss 128 > "$W/gauss128.ncu.csv" 2>> "$W/gauss128.ncu.stderr"
  echo "gauss128 ncu exit $? at $(( $(date +%s) - START )) s"
fi
for p in lavamd srad backprop cfd sclust; do
  if [ $(( $(date +%s) - START )) -gt 420 ]; then echo "no time for $p source page"; continue; fi
  timeout 40 ncu --clock-control none --launch-count 3 --section SourceCounters --page source --print-source sass --csv ./$p > "$W/$p.sass.csv" 2>> "$W/$p.sass.stderr"
  echo "$p source exit $? lines $(wc -l < "$W/$p.sass.csv") at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
gzip -f "$W"/*.sass.csv 2>/dev/null
echo "total $(( $(date +%s) - START )) s"
