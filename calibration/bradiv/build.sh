#!/bin/sh
# Builds the convergence-check microbenchmarks (bradiv.cu) as the tests and the H200 run used
# them: nvcc -O2 -arch=sm_90 -lineinfo -cudart shared against the wheels' runtime (the H200 run's
# other binaries: ../waitgroups/build.sh).
#   calibration/bradiv/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
b() { "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$1" "$2"; }
b bradiv "$HERE/bradiv.cu"
