#!/usr/bin/env bash
# Measures branch targets with Nsight Compute for seed 002's kernels and the extra shapes, built with -G
# (debug) and with -O3, and dumps their machine code. Usage: run-ncu.sh [OUTDIR]. Needs a GPU, nvcc, ncu.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/ncu-out"}
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
metrics=smsp__sass_average_branch_targets_threads_uniform.pct,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__inst_executed.sum
: > "$out/ncu.csv"
: > "$out/sass.txt"
for build in G O3; do
  flags=(-O3); [ "$build" = G ] && flags=(-G)
  nvcc -arch=sm_90 "${flags[@]}" -I"$here" "$here/driver.cu" -o "$out/driver_$build" || exit 1
  echo "### build $build" >> "$out/ncu.csv"
  ncu --clock-control none --csv --metrics "$metrics" "$out/driver_$build" >> "$out/ncu.csv" 2>&1
  echo "### build $build: $(nvcc --version | tail -n 1)" >> "$out/sass.txt"
  cuobjdump -sass "$out/driver_$build" >> "$out/sass.txt" 2>&1
done
rm -f "$out"/driver_*
grep -E '"(mathKernel|straight|parity|ifOnly|loop)' "$out/ncu.csv" | awk -F'","' '{print $5, $(NF-2), $(NF)}' | head -n 80
