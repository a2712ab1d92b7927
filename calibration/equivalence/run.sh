#!/usr/bin/env bash
# Builds and runs the equivalence host program on a GPU machine (nvcc and a CUDA driver needed).
# Usage: calibration/equivalence/run.sh OUT_DIR
# Writes OUT_DIR/gpu_hashes.tsv, OUT_DIR/gpu_out.tar (NAME.argI.bin of every buffer a kernel changed)
# and OUT_DIR/device.txt (nvidia-smi and nvcc versions).
set -euo pipefail
out=${1:?usage: run.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mkdir -p "$out/bins"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvcc --version | tail -2; } > "$out/device.txt"
nvcc -O3 -arch=sm_90 -o "$out/equiv" "$here/equiv.cpp" -lcuda
"$out/equiv" "$here/manifest.tsv" "$repo" "$out/bins" > "$out/gpu_hashes.tsv"
tar -C "$out/bins" -cf "$out/gpu_out.tar" .
rm -rf "$out/bins" "$out/equiv"
cat "$out/device.txt"
wc -l "$out/gpu_hashes.tsv"
