#!/bin/sh
# bench9 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches); takes about 4 minutes. Run from the
# folder holding the binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from
# calibration/run/bench9): OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench9.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench9
P="fwarshall radix jacobi life hashq nbody mergep ccl knn intimg"
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
