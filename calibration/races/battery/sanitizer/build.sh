#!/bin/bash
# Builds bin/battery: every kernel of the battery in one program (gen.py writes gen/all.cu), run
# as `bin/battery NAME`; bin/, lib/ (libcudart) and run.sh then go to the GPU machine, where run.sh
# runs compute-sanitizer's racecheck and synccheck on each kernel and packs the logs.
set -e
cd "$(dirname "$0")"
C=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT to the CUDA wheels (nvcc under bin/)}
mkdir -p bin lib
cp -L "$C/lib/libcudart.so.13" lib/ && ln -sf libcudart.so.13 lib/libcudart.so
python3 gen.py
"$C/bin/nvcc" -arch=sm_90 -O3 -lineinfo -cudart shared -L lib -o bin/battery gen/all.cu
bin_names() { sed -n 's/^    {"\([a-z0-9_]*\)".*/\1/p' gen/all.cu; }
bin_names > bin/names.txt
