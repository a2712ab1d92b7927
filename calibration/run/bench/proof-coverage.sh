#!/bin/sh
# How many launches the static disjointness proof (crates/emu/src/disjoint.rs) accepts: each program
# run once under WARPSCOPE_TIMING=1 at 2 threads (a launch of one block, a cooperative launch or one
# that polls global memory runs in order, no shadow and no proof). Prints per program: launches,
# launches in parallel with the shadow, launches in parallel proven (no shadow), then the totals.
#   calibration/run/bench/proof-coverage.sh WARPSCOPE_DIR PROGRAM_DIR PROGRAM[:ARGS] ...
# WARPSCOPE_DIR holds warpscope and libwarpscope_cudart.so; PROGRAM_DIR the built programs.
W=${1:?warpscope dir}; B=${2:?program dir}; shift 2
cd "$B" || exit 2
tl=0; ts=0; tp=0
printf '%-24s %8s %8s %8s\n' program launches shadow proven
for pa in "$@"; do
  p=${pa%%:*}; a=; [ "$p" != "$pa" ] && a=$(echo "${pa#*:}" | tr ',' ' ')
  log=$(WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=2 "$W/warpscope" run --cudart "$W/libwarpscope_cudart.so" -- "./$p" $a 2>&1 >/dev/null)
  l=$(echo "$log" | grep -c '^warpscope timing: .*blocks')
  s=$(echo "$log" | grep -c '^warpscope shadow: [0-9]')
  n=$(echo "$log" | grep -c '^warpscope shadow: none')
  printf '%-24s %8s %8s %8s\n' "$pa" "$l" "$s" "$n"
  tl=$((tl + l)); ts=$((ts + s)); tp=$((tp + n))
done
printf '%-24s %8s %8s %8s\n' total "$tl" "$ts" "$tp"
