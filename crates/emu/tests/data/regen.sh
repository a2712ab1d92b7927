#!/usr/bin/env bash
# Regenerates the .ptx fixtures from the .cu files with the CUDA wheel's nvcc.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(../../../../scripts/cuda-wheels.sh)
for f in *.cu; do
  PATH="$ROOT/bin:$PATH" nvcc -arch=sm_90 -O3 -lineinfo -ptx "$f" -o "${f%.cu}.ptx"
done
PATH="$ROOT/bin:$PATH" nvcc -arch=sm_90 -G -ptx kernels.cu -o kernels_debug.ptx
