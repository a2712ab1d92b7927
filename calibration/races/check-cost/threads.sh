#!/usr/bin/env bash
# `check` (global races on) against `analyze` (every section) on the 512x512 tiled matmul of
# scripts/bench-speed.sh (1024 blocks of 256 threads), at each thread count given
# (RAYON_NUM_THREADS), ROUNDS rounds alternating the commands (analyze, check,
# check --no-global-races), printing each run and then the best and the median of wall and CPU time
# (user + sys, bash's `time`). Both read the checked-in machine code (--sass), so no CUDA toolkit
# is needed and both do the same work on any machine.
#   usage: threads.sh WARPSCOPE_BINARY FIXTURE_DIR [ROUNDS] [THREADS...]
#   e.g.   calibration/races/check-cost/threads.sh target/release/warpscope crates/cli/fixtures/speed 3 1 2
set -euo pipefail
W=$(realpath "$1")
F=$2
rounds=${3:-3}
shift 3 || true
threads=("${@:-1}")
[ ${#threads[@]} -gt 0 ] || threads=(1)
launch=("$F/matmul.ptx" --sass "$F/matmul.sass" --grid 32,32 --block 16,16 --arg buf:1048576 --arg buf:1048576 --arg buf:1048576:zero --arg i32:512)
echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "warpscope: $W"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TIMEFORMAT='%R %U %S'
one() { # NAME THREADS CMD...: appends "wall cpu" to $T/NAME-THREADS
  local name=$1 t=$2
  shift 2
  local line
  line=$( { time RAYON_NUM_THREADS=$t "$@" > "$T/out" 2>&1; } 2>&1 ) || { echo "FAILED: $*"; tail -5 "$T/out"; exit 1; }
  read -r r u s <<<"$line"
  local c
  c=$(awk -v u="$u" -v s="$s" 'BEGIN{print u + s}')
  echo "$r $c" >> "$T/$name-$t"
  printf '  %-8s %2s threads: %6.2f s wall %6.2f s CPU\n' "$name" "$t" "$r" "$c"
}
stat() { # FILE COLUMN: best and median
  local v
  v=$(awk -v c="$2" '{print $c}' "$1" | sort -g)
  local n
  n=$(wc -l <<<"$v")
  printf '%.2f %.2f' "$(head -1 <<<"$v")" "$(sed -n "$(( (n + 1) / 2 ))p" <<<"$v")"
}
"$W" analyze "${launch[@]}" --blocks 1 > /dev/null 2>&1 || true
for t in "${threads[@]}"; do
  echo "== $t threads"
  for r in $(seq "$rounds"); do
    one analyze "$t" "$W" analyze "${launch[@]}"
    one check "$t" "$W" check "${launch[@]}"
    one shared "$t" "$W" check --no-global-races "${launch[@]}"
  done
done
echo "== summary (best / median of $rounds; s)"
printf '%-8s %8s %-22s %-22s %s\n' threads what "wall best/median" "CPU best/median" "check/analyze (best wall, best CPU)"
for t in "${threads[@]}"; do
  for n in analyze check shared; do
    read -r wb wm <<<"$(stat "$T/$n-$t" 1)"
    read -r cb cm <<<"$(stat "$T/$n-$t" 2)"
    eval "${n}_w=$wb ${n}_c=$cb"
    ratio=""
    if [ "$n" != analyze ]; then
      ratio=$(awk -v a="$wb" -v b="$analyze_w" -v c="$cb" -v d="$analyze_c" 'BEGIN{printf "%.2f, %.2f", a / b, c / d}')
    fi
    printf '%-8s %8s %-22s %-22s %s\n' "$t" "$n" "$wb / $wm" "$cb / $cm" "$ratio"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
