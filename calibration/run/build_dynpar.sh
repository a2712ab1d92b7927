#!/bin/sh
# Builds the dynamic-parallelism programs of this folder (dp_*.cu: kernels launching kernels) as
# a user builds them, relocatable device code linked with the device runtime (dp_race: races
# between grids, for `run --check`):
#   calibration/run/build_dynpar.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in dp_hello dp_reduce dp_tail dp_streams dp_multi dp_limits dp_race; do
  "$CU/bin/nvcc" -O2 -arch=sm_90 -rdc=true -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu" -lcudadevrt
done
