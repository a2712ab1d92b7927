#!/bin/sh
# Builds calls in three variants (needs WARPSCOPE_CUDA_ROOT): calls_rdc (-O2 -rdc=true, two units),
# calls_grdc (-G -rdc=true, two units), calls_g (-G, one unit); and switch the same three ways
# and as one unit at -O2: sw_rdc, sw_grdc, sw_g, sw_o2.
#   calibration/run/calls/build.sh OUTDIR
set -e
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OUT=${1:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lib"
ln -sf "$CU/lib/libcudart.so.13" "$OUT/lib/libcudart.so"
N="$CU/bin/nvcc -arch=sm_90 -cudart shared -L$OUT/lib"
$N -O2 -lineinfo -rdc=true -o "$OUT/calls_rdc" "$HERE/calls.cu" "$HERE/calls_lib.cu"
$N -G -rdc=true -o "$OUT/calls_grdc" "$HERE/calls.cu" "$HERE/calls_lib.cu"
$N -G -o "$OUT/calls_g" "$HERE/callsg.cu"
$N -O2 -lineinfo -o "$OUT/sw_o2" "$HERE/switch.cu"
$N -O2 -lineinfo -rdc=true -DSPLIT -o "$OUT/sw_rdc" "$HERE/switch.cu" "$HERE/switch_lib.cu"
$N -G -rdc=true -DSPLIT -o "$OUT/sw_grdc" "$HERE/switch.cu" "$HERE/switch_lib.cu"
$N -G -o "$OUT/sw_g" "$HERE/switch.cu"
