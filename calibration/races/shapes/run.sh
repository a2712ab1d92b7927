#!/bin/bash
# Device round: each program of bin/ plain with REPS=200 (distinct results over 200 launches), then
# under compute-sanitizer racecheck (--racecheck-report all) and synccheck with REPS=1. Plain runs
# are capped at 20 s, sanitizer runs at 60 s (SAN_TIMEOUT). TOOLS="plain racecheck synccheck memcheck
# initcheck" runs more tools. Everything goes into $OUT/results.tgz.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
command -v compute-sanitizer > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
R=$(mktemp -d)
nvidia-smi -L > "$R/device.txt" 2>&1
nvidia-smi --query-gpu=driver_version --format=csv >> "$R/device.txt" 2>&1
compute-sanitizer --version > "$R/version.txt" 2>&1
one() {
  name=$1 tool=$2
  if [ "$tool" = plain ]; then
    REPS=200 timeout 20 "bin/$name" > "$R/$name.plain.txt" 2>&1
  else
    extra=""; [ "$tool" = racecheck ] && extra="--racecheck-report all"
    REPS=1 timeout "${SAN_TIMEOUT:-60}" compute-sanitizer --tool "$tool" $extra --error-exitcode 9 "bin/$name" > "$R/$name.$tool.txt" 2>&1
  fi
  echo "$name $tool rc=$?" >> "$R/rc.txt"
}
export -f one; export R SAN_TIMEOUT
start=$(date +%s)
for b in bin/*; do n=$(basename "$b"); for t in ${TOOLS:-plain racecheck synccheck}; do echo "$n $t"; done; done \
  | xargs -P 8 -n 2 bash -c 'one "$0" "$1"'
echo "seconds: $(( $(date +%s) - start ))" >> "$R/rc.txt"
sort -o "$R/rc.txt" "$R/rc.txt"
# keep each sanitizer log short: its first 60 lines and its summary
for f in "$R"/*.racecheck.txt "$R"/*.synccheck.txt "$R"/*.memcheck.txt "$R"/*.initcheck.txt; do
  [ -f "$f" ] && [ "$(wc -l < "$f")" -gt 80 ] && { head -60 "$f"; echo "[...]"; grep -E 'SUMMARY' "$f"; } > "$f.cut" && mv "$f.cut" "$f"
done
tar czf "$OUT/results.tgz" -C "$R" .
