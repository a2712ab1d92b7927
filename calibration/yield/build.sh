#!/bin/sh
# Builds yloops as the H200 ran it: nvcc -O2 -arch=sm_90 -lineinfo -cudart shared.
#   calibration/yield/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT)
# On the GPU: copy OUTDIR/yloops, $WARPSCOPE_CUDA_ROOT/lib/libcudart.so.13,
# calibration/run/ncu-metrics.sh and run-h200.sh into one folder and run OUT=DIR sh run-h200.sh.
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/yloops" "$HERE/yloops.cu"
