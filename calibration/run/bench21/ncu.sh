#!/bin/sh
# bench21 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches). Run from the folder holding the
# binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from calibration/run/bench21):
# OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench21.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench21
P="stages waitnote fp8q mdsp cgasync lambdas backoff"
NCU_TIMEOUT=${NCU_TIMEOUT:-60}
BRANCH_TIMEOUT=${BRANCH_TIMEOUT:-40}
SASS_CUTOFF=${SASS_CUTOFF:-170}
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
