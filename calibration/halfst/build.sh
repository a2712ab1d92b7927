#!/bin/sh
# Builds halfst.cu twice, as the tests use it: `halfst` with line info, `halfst_noline` without
# (as CuTe programs are often built, and as calibration/cutlass/build_more.sh builds its own):
#   calibration/halfst/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/halfst" "$HERE/halfst.cu"
"$CU/bin/nvcc" -O2 -arch=sm_90 -cudart shared -L"$OUT/lib" -o "$OUT/halfst_noline" "$HERE/halfst.cu"
