#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them:
# `nvcc -O2 -arch=sm_90 -lineinfo -cudart shared`; NAME_G is NAME.cu built the same way plus `-G`
# (debug machine code).
#   calibration/run/bench20/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT; PROGRAMS: a subset)
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
for p in ${PROGRAMS:-dslow div64 fbins calls negoff tokens tokens_G div64_G}; do
  case $p in
    *_G) src="$HERE/${p%_G}.cu"; extra="-G" ;;
    *) src="$HERE/$p.cu"; extra="" ;;
  esac
  "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared $extra -L"$OUT/lib" -o "$OUT/$p" $src
done
