#!/bin/sh
# Builds cute_tma_more.cu (own CuTe TMA + wgmma GEMMs: 64/32-byte swizzles with a TMA-store
# epilogue, a cluster-multicast GEMM) as the tests use it:
#   calibration/cutlass/build_more.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT; headers as build.sh)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
CUTLASS=${WARPSCOPE_CUTLASS_ROOT:-$CU/../../cutlass_library/source}
if [ ! -f "$CUTLASS/include/cutlass/cutlass.h" ]; then
  echo "no CUTLASS headers at $CUTLASS/include: run scripts/cuda-wheels.sh (it installs the nvidia-cutlass wheel) or set WARPSCOPE_CUTLASS_ROOT" >&2
  exit 2
fi
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
"$CU/bin/nvcc" -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
  -cudart shared -L"$OUT/lib" -I"$CUTLASS/include" -I"$CU/include/cccl" -I"$CU/include" \
  -o "$OUT/cute_tma_more" "$HERE/cute_tma_more.cu"
