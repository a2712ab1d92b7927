#!/bin/sh
# Builds the CUTLASS 3 warp-specialised GEMM program as the tests use it:
#   calibration/cutlass/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
# The CUTLASS headers come from the nvidia-cutlass wheel (its cutlass_library/source), which
# scripts/cuda-wheels.sh installs beside the CUDA wheels; WARPSCOPE_CUTLASS_ROOT names another
# copy (a folder holding include/ and tools/util/include/). sm_90a code and PTX only.
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
  -lineinfo -cudart shared -L"$OUT/lib" -I"$CUTLASS/include" -I"$CUTLASS/tools/util/include" \
  -I"$CU/include/cccl" --expt-relaxed-constexpr -o "$OUT/gemm_ws" "$HERE/gemm_ws.cu"
