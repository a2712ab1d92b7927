#!/bin/sh
# Builds the TMA program as the tests and the GPU run use it:
#   calibration/tma/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
# sm_90a machine code and PTX (the tensor instructions need sm_90a).
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
  -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/tma" "$HERE/tma.cu"
