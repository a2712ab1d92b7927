#!/bin/sh
# bench5 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches); takes about 1-2 minutes. Run from the
# folder holding the binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from
# calibration/run/bench5): OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench5.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench5
P="cgtile warpint halfbf bits atom pipe cxx recurse"
NCU_TIMEOUT=90 BRANCH_TIMEOUT=60 SASS_LAUNCHES=4 SASS_CUTOFF=330
# halfbf also writes its results' bits to halfbf.bin
run_env() { echo "HALFBF_DUMP=$W/$1.bin"; }
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi

