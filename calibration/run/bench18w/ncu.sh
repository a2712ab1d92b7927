#!/bin/sh
# bench18w on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches). Run from the folder holding the
# binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from calibration/run/bench18w):
# OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench18w.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench18w
P="${P:-nonce csrt noncevar}"
NCU_TIMEOUT=${NCU_TIMEOUT:-90}
BRANCH_TIMEOUT=${BRANCH_TIMEOUT:-45}
SASS_CUTOFF=${SASS_CUTOFF:-170}
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
