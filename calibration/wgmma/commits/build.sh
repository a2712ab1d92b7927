#!/bin/sh
# Builds commits (sm_90a code and its compute_90a PTX) and dumps its SASS:
#   sh build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -lineinfo -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
  -cudart shared -L"$OUT/lib" -o "$OUT/commits" "$HERE/commits.cu"
"$CU/bin/cuobjdump" -sass "$OUT/commits" > "$OUT/sass.txt"
