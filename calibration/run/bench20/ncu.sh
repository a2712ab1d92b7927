#!/bin/sh
# bench20 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches). Run from the folder holding the
# binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from calibration/run/bench20):
# OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench20.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench20
P="dslow div64 fbins calls negoff tokens tokens_G div64_G"
NCU_TIMEOUT=${NCU_TIMEOUT:-60}
BRANCH_TIMEOUT=${BRANCH_TIMEOUT:-40}
SASS_CUTOFF=${SASS_CUTOFF:-170}
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
