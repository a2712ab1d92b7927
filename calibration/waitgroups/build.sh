#!/bin/sh
# Builds the waiting-group programs as the H200 run used them (raytrace_am.cu, waitgroups.cu, and
# bench10's raytrace.cu for reference): nvcc -O2 -arch=sm_90 -lineinfo -cudart shared.
#   calibration/waitgroups/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
b() { "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$OUT/lib" -o "$OUT/$1" "$2"; }
b raytrace_am "$HERE/raytrace_am.cu"
b waitgroups "$HERE/waitgroups.cu"
b raytrace "$HERE/../run/bench10/raytrace.cu"
