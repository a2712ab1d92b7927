#!/bin/sh
# Builds mbarwait as the tests and the GPU run use it:
#   calibration/mbarwait/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
  -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/mbarwait" "$HERE/mbarwait.cu"
