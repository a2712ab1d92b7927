#!/bin/sh
# bench7 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches); takes about 3 minutes. Run from the
# folder holding the binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from
# calibration/run/bench7): OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench7.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench7
P="reduce histo sort scan conv options walsh interval coop"
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi

