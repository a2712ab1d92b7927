#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench9/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="fwarshall radix jacobi life hashq nbody mergep ccl knn intimg"
. "$HERE/../bench-build.sh"
