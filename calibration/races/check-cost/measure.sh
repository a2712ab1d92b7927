#!/usr/bin/env bash
# What `check` and `warpscope run --check` cost, best of N runs (default 3) by wall time, with that
# run's CPU time (user + sys) and peak resident memory (GNU time):
#   1. the 512x512 tiled matmul of scripts/bench-speed.sh: `check` (global races on) against
#      `analyze` with every section (the goal: at most 1.5x);
#   2. two book-sized programs of calibration/run/bench (reduce 2^22 ints, transpose 2048x2048)
#      and the whole matmul program matmul.cu (512x512, the same kernel as 1.): `run --check`
#      against plain `run`;
#   3. dynamic parallelism: dp_copy.cu (a parent kernel whose blocks launch child grids, launched
#      LAUNCHES times) with 0, 128 and 512 MiB of further device memory: `run --check` copies the
#      program's memory before each launch of a launching kernel, so the extra time per launch
#      and MiB is that copy's cost.
#   WARPSCOPE_CUDA_ROOT=... calibration/races/check-cost/measure.sh [WARPSCOPE_BINARY] [N]
set -euo pipefail
cd "$(dirname "$0")/../../.."
W=$(realpath "${1:-target/release/warpscope}")
runs=${2:-3}
C=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT to the CUDA wheels (nvcc under bin/)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/lib"
ln -sf "$C/lib/libcudart.so.13" "$T/lib/libcudart.so"
nv() { "$C/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$T/lib" "$@"; }
nv -o "$T/reduce" calibration/run/bench/reduce.cu
nv -o "$T/transpose" calibration/run/bench/transpose.cu
nv -o "$T/matmul" calibration/races/check-cost/matmul.cu
nv -rdc=true -o "$T/dp_copy" calibration/races/check-cost/dp_copy.cu -lcudadevrt
echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "warpscope: $W"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# best NAME CMD...: the fastest of N runs: wall s, CPU s, peak resident MiB (last_wall, last_cpu)
best() {
  local name=$1
  shift
  local bw="" bc="" bm=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$T/time" -f '%e %U %S %M' "$@" > "$T/out" 2>&1 || { echo "FAILED: $*"; tail -5 "$T/out"; return 1; }
    read -r e u s m < "$T/time"
    if [ -z "$bw" ] || [ "$(echo "$e < $bw" | bc -l)" = 1 ]; then
      bw=$e; bc=$(echo "$u + $s" | bc -l); bm=$((m / 1024))
    fi
  done
  printf '%-34s %8.2f s wall %8.2f s CPU %7d MiB\n' "$name" "$bw" "$bc" "$bm"
  last_wall=$bw last_cpu=$bc
}

echo "== 1. the 512x512 matmul: check against analyze (every section)"
fixture=crates/cli/fixtures/speed/matmul
launch=("$fixture.ptx" --grid 32,32 --block 16,16 --arg buf:1048576 --arg buf:1048576 --arg buf:1048576:zero --arg i32:512)
"$W" analyze "${launch[@]}" --blocks 1 > /dev/null # fills the tool cache
best "analyze, every section" "$W" analyze "${launch[@]}"
a_cpu=$last_cpu a_wall=$last_wall
best "check (global races on)" "$W" check "${launch[@]}"
printf 'check / analyze: %.2f by CPU, %.2f by wall (goal: at most 1.5)\n' \
  "$(echo "$last_cpu / $a_cpu" | bc -l)" "$(echo "$last_wall / $a_wall" | bc -l)"

echo "== 2. book-sized programs: run --check against run"
for p in "reduce 22" "transpose 2048" "matmul 512"; do
  set -- $p
  best "run $p" "$W" run -- "$T/$1" "$2"
  r_cpu=$last_cpu
  best "run --check $p" "$W" run --check -- "$T/$1" "$2"
  printf '%s: run --check / run: %.2f by CPU\n' "$1" "$(echo "$last_cpu / $r_cpu" | bc -l)"
done

echo "== 3. dynamic parallelism: the copy before each launching launch (4 launches)"
for pad in 0 128 512; do
  best "run dp_copy $pad MiB" "$W" run -- "$T/dp_copy" "$pad" 4
  eval "run_$pad=$last_cpu"
  best "run --check dp_copy $pad MiB" "$W" run --check -- "$T/dp_copy" "$pad" 4
  eval "chk_$pad=$last_cpu"
done
for pad in 128 512; do
  eval "r=\$run_$pad c=\$chk_$pad"
  extra=$(echo "(($c - $chk_0) - ($r - $run_0)) / 4" | bc -l)
  printf 'pad %d MiB: run --check CPU beyond run, per launching launch: %.3f s (%.1f ms per MiB of program memory)\n' \
    "$pad" "$extra" "$(echo "$extra * 1000 / ($pad + 1)" | bc -l)"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
