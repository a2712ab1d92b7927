#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench11/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="wmmamix fptr pitch2d tmpl kdtree cellist nwdiag gaussj streams cellrule"
. "$HERE/../bench-build.sh"
