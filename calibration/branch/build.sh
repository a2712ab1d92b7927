#!/bin/sh
# Builds the branch microbenchmarks as the tests and the H100 run use them:
#   calibration/branch/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/branch" "$HERE/branch.cu"
