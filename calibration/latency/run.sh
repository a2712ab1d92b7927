#!/usr/bin/env bash
# Builds and runs the latency microbenchmarks on the GPU of this machine; writes results.tsv (and the
# nvidia-smi readings) into the folder given (default: this folder).
#   calibration/latency/run.sh [OUTDIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
nvcc -arch=sm_90 -O3 -lineinfo -o "$out/chase" "$here/chase.cu"
cuobjdump --dump-sass "$out/chase" > "$out/chase.sass" 2>&1 || true
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,pstate --format=csv > "$out/nvidia-smi.csv" 2>&1 || true
"$out/chase" | tee "$out/results.tsv"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,pstate --format=csv >> "$out/nvidia-smi.csv" 2>&1 || true
cat "$out/nvidia-smi.csv"
rm -f "$out/chase"
