#!/bin/sh
# Builds the cluster programs as the tests and the GPU run use them:
#   calibration/cluster/build.sh OUTDIR [PROGRAM...]   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root;
#   every program when none is named)
# sm_90a code and PTX only (-arch=sm_90a would also embed compute_90 PTX, which ptxas refuses
# for setmaxnreg); cooperative groups' cluster API needs the CCCL headers.
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
shift
PROGRAMS=${*:-dims dsmem sm90a occupancy}
for p in $PROGRAMS; do
  "$CU/bin/nvcc" -O2 -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_90a,code=compute_90a \
    -lineinfo -cudart shared -I"$CU/include/cccl" -L"$OUT/lib" -o "$OUT/$p" "$HERE/$p.cu"
done
