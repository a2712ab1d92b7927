#!/bin/sh
# bench19 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches). Run from the folder holding the
# binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from calibration/run/bench19):
# OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench19.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench19
P="varint bignum heaptopk rule30 i8gemm cuckoo varint_G heaptopk_G"
NCU_TIMEOUT=${NCU_TIMEOUT:-60}
BRANCH_TIMEOUT=${BRANCH_TIMEOUT:-40}
SASS_CUTOFF=${SASS_CUTOFF:-170}
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
