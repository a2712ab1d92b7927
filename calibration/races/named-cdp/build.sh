#!/bin/bash
# Builds bin/NAME for each named-barrier and dynamic-parallelism kernel of calibration/races/kernels.
set -u
cd "$(dirname "$0")"
C=${WARPSCOPE_CUDA_ROOT:?}
K=${1:?kernels dir}
rm -rf bin gen lib; mkdir -p bin lib gen
cp -L $C/lib/libcudart.so.13 lib/ && ln -sf libcudart.so.13 lib/libcudart.so
for f in $K/*named_barrier*.cu $K/*cdp*.cu; do
  name=$(basename $f .cu)
  launch=$(sed -n 's|^// launch: ||p' $f)
  grid=$(echo "$launch" | sed -n 's/.*--grid \([0-9]*\).*/\1/p')
  block=$(echo "$launch" | sed -n 's/.*--block \([0-9]*\).*/\1/p')
  nbuf=$(echo "$launch" | grep -o -- '--arg buf' | wc -l)
  args="(int *)b0"; [ "$nbuf" = 2 ] && args="(int *)b0, (int *)b1"
  mkdir -p gen/$name
  printf '#include "%s.cu"\n#define KNAME "%s"\n#define LAUNCH %s<<<%s, %s>>>(%s)\n' "$name" "$name" "$name" "$grid" "$block" "$args" > gen/$name/launch.h
  extra=""; case $name in *cdp*) extra="-rdc=true -lcudadevrt";; esac
  $C/bin/nvcc -arch=sm_90 -O3 -lineinfo -cudart shared $extra -L lib -L $C/lib -I $K -I gen/$name harness.cu -o bin/$name || echo "BUILD FAILED $name"
done
rm -rf gen
