#!/bin/sh
# bench14 on the GPU (../bench-ncu.sh: natively, compute-sanitizer, ncu's metric list, the branch
# counters alone, the source page of the first launches). Run from the folder holding the
# binaries, libcudart.so.13, ncu-metrics.sh and bench-ncu.sh (or from calibration/run/bench14):
# OUT=RESULTS sh ncu.sh; everything is written to $OUT/bench14.
cd "$(dirname "$0")"
HERE=$PWD
NAME=bench14
P="capgraph evstreams managed zerocopy stencil3d constsym warpagg swdiag spmvpow kmeansf"
NCU_TIMEOUT=${NCU_TIMEOUT:-90}
BRANCH_TIMEOUT=${BRANCH_TIMEOUT:-45}
SASS_CUTOFF=${SASS_CUTOFF:-170}
if [ -f ./bench-ncu.sh ]; then . ./bench-ncu.sh; else . ../bench-ncu.sh; fi
