#!/bin/bash
# Builds bin/NAME for each line NAME|LAUNCH of launches.txt (a kernel of ../kernels and its launch as
# C++) with nvcc; bin/, lib/ (libcudart) and run.sh then go to the GPU machine, where run.sh runs
# compute-sanitizer on each and packs the logs into $OUT/results.tgz.
cd "$(dirname "$0")"
C=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT to the CUDA wheels (nvcc under bin/)}
mkdir -p bin lib gen
cp -L $C/lib/libcudart.so.13 lib/ && ln -sf libcudart.so.13 lib/libcudart.so
while IFS='|' read -r name launch; do
  mkdir -p "gen/$name"
  printf '#include "%s.cu"\n#define KNAME "%s"\n#define LAUNCH %s\n' "$name" "$name" "$launch" > "gen/$name/launch.h"
  $C/bin/nvcc -arch=sm_90 -O3 -lineinfo -cudart shared -L lib -I ../kernels -I "gen/$name" harness.cu -o "bin/$name" \
    || echo "BUILD FAILED $name"
done < launches.txt
