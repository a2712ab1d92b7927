#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them: each with
# `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared` plus its own build variant:
#   dbg     -G (debug machine code)             rdc     -rdc=true, three .cu files device-linked
#   fastm   -use_fast_math                      spill   -maxrregcount=32
#   thrx    --extended-lambda (Thrust)          cxxstd  -std=c++17 --extended-lambda (libcu++)
#   mcrand  the cuRAND device API: curand_kernel.h from $WARPSCOPE_CUDA_ROOT/include or, where
#           the toolkit lacks it (the compiler wheels do), $CURAND_INCLUDE (the nvidia-curand
#           wheel's nvidia/cu13/include)
#   bigsmem, timed: no extra option
#   calibration/run/bench13/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT; PROGRAMS: a subset)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in ${PROGRAMS:-dbg rdc fastm spill mcrand thrx cxxstd bigsmem timed}; do
  src="$HERE/$p.cu"
  case $p in
    dbg) extra="-G" ;;
    rdc) extra="-rdc=true"; src="$HERE/rdc.cu $HERE/rdc_ops.cu $HERE/rdc_state.cu" ;;
    fastm) extra="-use_fast_math" ;;
    spill) extra="-maxrregcount=32" ;;
    thrx) extra="--extended-lambda" ;;
    cxxstd) extra="-std=c++17 --extended-lambda" ;;
    mcrand)
      if [ -f "$CU/include/curand_kernel.h" ]; then extra=""
      else extra="-I${CURAND_INCLUDE:?curand_kernel.h is not in $CU/include: set CURAND_INCLUDE}"; fi ;;
    *) extra="" ;;
  esac
  # shellcheck disable=SC2086
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared $extra -L"$OUT/lib" -o "$OUT/$p" $src
done
