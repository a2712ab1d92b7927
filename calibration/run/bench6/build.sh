#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench6/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="sgemm spmv tpacf mriq cutcp lbm fft poly imgproc"
. "$HERE/../bench-build.sh"
