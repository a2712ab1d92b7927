#!/bin/sh
# The GPU run shared by the benchN sets (sourced by each set's ncu.sh, run from the folder holding
# the binaries, libcudart.so.13 and ncu-metrics.sh; the set's ncu.sh sets NAME and P, the
# programs, and may set NCU_TIMEOUT (200 s), BRANCH_TIMEOUT (90 s), SASS_LAUNCHES (8), SASS_CUTOFF
# (300 s since the start: no source page after it) and define run_env, which prints VAR=VALUE
# words for program $1's native run). Each program natively (stdout), under compute-sanitizer
# (memcheck), under ncu with the metric list of ncu-metrics.sh (one CSV row per launch and metric),
# with the two branch counters alone (no shared-memory instrumentation: `*.branch.csv`), then
# ncu's source page (executed instructions and divergent branches per SASS instruction) of each
# program's first launches. Everything is written to $OUT/$NAME.
export LD_LIBRARY_PATH=$PWD:$LD_LIBRARY_PATH
OUT=${OUT:?set OUT}
if [ -f ./ncu-metrics.sh ]; then . ./ncu-metrics.sh; else . "$HERE/../ncu-metrics.sh"; fi
W="$OUT/$NAME"; mkdir -p "$W"
START=$(date +%s)
P=${PROGRAMS:-$P}
command -v run_env >/dev/null 2>&1 || run_env() { :; }
chmod +x $P
for p in $P; do
  env $(run_env "$p") timeout 60 ./$p > "$W/$p.stdout" 2>&1; echo "$p exit $?"
done
for p in $P; do
  timeout 90 compute-sanitizer --tool memcheck ./$p > "$W/$p.sanitizer.txt" 2>&1
  echo "$p sanitizer exit $? $(tail -1 "$W/$p.sanitizer.txt")"
done
for p in $P; do
  timeout "${NCU_TIMEOUT:-200}" ncu --clock-control none --csv --metrics "$M" ./$p > "$W/$p.ncu.csv" 2>> "$W/$p.ncu.stderr"
  echo "$p ncu exit $? rows $(grep -c '^"' "$W/$p.ncu.csv") at $(( $(date +%s) - START )) s"
done
for p in $P; do
  timeout "${BRANCH_TIMEOUT:-90}" ncu --clock-control none --csv --metrics smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum ./$p > "$W/$p.branch.csv" 2>> "$W/$p.branch.stderr"
  echo "$p branch exit $? at $(( $(date +%s) - START )) s"
done
for p in $P; do
  if [ $(( $(date +%s) - START )) -gt "${SASS_CUTOFF:-300}" ]; then echo "no time for $p source page"; continue; fi
  timeout 60 ncu --clock-control none --launch-count "${SASS_LAUNCHES:-8}" --section SourceCounters --page source --print-source sass --csv ./$p > "$W/$p.sass.csv" 2>> "$W/$p.sass.stderr"
  echo "$p source exit $? lines $(wc -l < "$W/$p.sass.csv") at $(( $(date +%s) - START )) s"
done
{ nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version | tail -1; } > "$W/versions.txt" 2>&1
gzip -f "$W"/*.sass.csv 2>/dev/null
echo "total $(( $(date +%s) - START )) s"
