#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench5/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="cgtile warpint halfbf bits atom pipe cxx recurse"
NVCC_EXTRA='-I"$CU/include/cccl"'
. "$HERE/../bench-build.sh"
