#!/bin/sh
# Builds this folder's programs as the tests and the GPU run use them (../bench-build.sh):
#   calibration/run/bench10/build.sh OUTDIR   (needs WARPSCOPE_CUDA_ROOT: the CUDA wheels' root)
HERE=$(cd "$(dirname "$0")" && pwd)
P="bfsq blelloch dfa cyclic listrank montec crc sieve segred raytrace"
. "$HERE/../bench-build.sh"
