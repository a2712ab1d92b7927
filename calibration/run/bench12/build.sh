#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench12/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="cgtiles fmath half2 bits64 sortnet workq soavec warpvote texsurf pipeline"
. "$HERE/../bench-build.sh"
