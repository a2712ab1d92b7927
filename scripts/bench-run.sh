#!/usr/bin/env bash
# Whole programs under `warpscope run`: the programs of calibration/run/ (built by its build.sh with
# nvcc -O2 -cudart shared, and divergence.cu with -G), each run to the end on the emulator with every
# launch's counters on (shared wavefronts, branches, global sectors, occupancy), best of N runs
# (default 3). Prints per program its launches, the wall seconds of the best run and that run's CPU
# seconds (user + sys of warpscope and the program), and the load average before and after, so
# figures from a shared machine can be read. With --check the hazard checker runs on every launch too.
#   usage: scripts/bench-run.sh [N] [--check]    (needs WARPSCOPE_CUDA_ROOT, the CUDA wheels' root)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
check=()
for a in "$@"; do
  case $a in
    --check) check=(--check) ;;
    *) runs=$a ;;
  esac
done
: "${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT (./scripts/cuda-wheels.sh prints it)}"
cargo build --release --quiet -p warpscope --bin warpscope
cargo build --release --quiet -p warpscope-cudart # the runtime library the programs load
bin=target/release/warpscope
out=target/bench-run
mkdir -p "$out"
# rebuild the programs only when their sources are newer
if [ ! -x "$out/warpsync" ] || [ -n "$(find calibration/run -name '*.cu' -newer "$out/warpsync")" ]; then
  calibration/run/build.sh "$out" >/dev/null
fi
echo "machine: $(nproc) CPU cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %8s %10s %10s\n' program launches "wall s" "CPU s"
for p in smem divergence divergence_G api warpsync; do
  best="" cpu="" launches=""
  for _ in $(seq "$runs"); do
    c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    t0=$(date +%s.%N)
    # the program's own exit status is the run's; a failed check or run still gives a time
    "$bin" run "${check[@]}" --export "$out/$p.json" -- "$out/$p" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    wall=$(echo "$t1 - $t0" | bc -l)
    used=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc -l)" = 1 ]; then
      best=$wall
      cpu=$used
    fi
  done
  launches=$(grep -o '"grid":' "$out/$p.json" | wc -l)
  printf '%-14s %8d %10.3f %10.3f\n' "$p" "$launches" "$best" "$cpu"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
