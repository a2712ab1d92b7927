#!/usr/bin/env bash
# Regenerates the .ptx fixtures of `check`'s tests from the .cu files with the CUDA wheel's nvcc
# (constStore.ptx is written by hand). The fixtures name their own .cu without a directory, so the
# tests (run from this folder) read the parameter names from it.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=${WARPSCOPE_CUDA_ROOT:-$(../../../../../scripts/cuda-wheels.sh)}
for f in *.cu; do
  PATH="$ROOT/bin:$PATH" nvcc -arch=sm_90 -O3 -lineinfo -ptx "$f" -o "${f%.cu}.ptx"
  sed -i "s|\"$PWD/|\"|" "${f%.cu}.ptx"
done
