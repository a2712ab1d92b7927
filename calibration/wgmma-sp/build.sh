#!/bin/sh
# Builds sp_calib (sm_90a code, and its compute_90a PTX for `warpscope run`) and dumps the
# SASS:  sh build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
  -diag-suppress 177,550 -cudart shared \
  -L"$OUT/lib" -o "$OUT/sp_calib" "$HERE/sp_calib.cu"
"$CU/bin/cuobjdump" -sass "$OUT/sp_calib" > "$OUT/sass.txt"
