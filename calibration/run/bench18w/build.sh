#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them:
# `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared` (no extra option for any of them).
#   calibration/run/bench18w/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT; PROGRAMS: a subset)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in ${PROGRAMS:-nonce csrt noncevar}; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
