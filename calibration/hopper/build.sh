#!/bin/sh
# Builds the Hopper calibration host program and copies the Triton cubins next to it:
#   calibration/hopper/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT and CUTLASS_INCLUDE: the
#   include folder of PyPI nvidia-cutlass, cutlass_library/source/include)
# The CuTe kernels' PTX is written to cute/gemms.ptx (the tests read it).
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
CUT=${CUTLASS_INCLUDE:?set CUTLASS_INCLUDE}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
FL="-std=c++17 -O2 -I$CUT -I$CU/include/cccl -I$CU/include"
"$CU/bin/nvcc" $FL -arch=sm_90a --ptx -o "$HERE/cute/gemms.ptx" "$HERE/cute/gemms.cu"
"$CU/bin/nvcc" $FL -gencode arch=compute_90a,code=sm_90a -lineinfo -cudart shared -L"$OUT/lib" \
  -o "$OUT/hopper_run" "$HERE/host/hopper_run.cu"
cp "$HERE"/triton/*.cubin "$OUT/"
