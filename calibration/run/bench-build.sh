#!/bin/sh
# The build shared by the benchN sets (sourced by each set's build.sh, which sets P, the programs,
# and may set NVCC_EXTRA, further nvcc options): every program as the tests and the GPU run use
# it, `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared` against the wheels' runtime.
#   calibration/run/benchN/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root;
#   PROGRAMS: a subset)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in ${PROGRAMS:-$P}; do
  # NVCC_EXTRA may name $CU (single-quoted by the caller): expanded here
  eval "\"\$CU/bin/nvcc\" -O2 -arch=sm_90 -lineinfo -cudart shared $NVCC_EXTRA -L\"\$OUT/lib\" -o \"\$OUT/\$p\" \"\$HERE/\$p.cu\""
done
