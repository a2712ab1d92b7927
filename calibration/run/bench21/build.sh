#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them:
# `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared` (lambdas also with `--extended-lambda`, a
# front-end switch that lets host code name `__device__` lambdas).
#   calibration/run/bench21/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT; PROGRAMS: a subset)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in ${PROGRAMS:-stages waitnote fp8q mdsp cgasync lambdas backoff}; do
  extra=""
  [ "$p" = lambdas ] && extra="--extended-lambda"
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared $extra -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
