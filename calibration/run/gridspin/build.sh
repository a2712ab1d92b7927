#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them:
#   calibration/run/gridspin/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?output folder}
CU=${WARPSCOPE_CUDA_ROOT:?the CUDA wheels root}
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in gridbarrier lastblock texwrap rotdump; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
