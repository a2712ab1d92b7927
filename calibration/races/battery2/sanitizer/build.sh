#!/bin/bash
# Builds DIR/bin/battery2 (DIR: $1, default this folder): every kernel of battery2 in one program
# (gen.py writes DIR/gen/all.cu), run as `bin/battery2 NAME`; DIR/bin, DIR/lib (libcudart) and
# run.sh then go to the GPU machine, where run.sh runs compute-sanitizer's racecheck, synccheck
# and memcheck on each kernel and packs the logs.
set -e
here=$(cd "$(dirname "$0")" && pwd)
D=$(mkdir -p "${1:-$here}" && cd "${1:-$here}" && pwd)
C=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT to the CUDA wheels (nvcc under bin/)}
mkdir -p "$D/bin" "$D/lib"
cp -L "$C/lib/libcudart.so.13" "$D/lib/" && ln -sf libcudart.so.13 "$D/lib/libcudart.so"
python3 "$here/gen.py" "$D"
"$C/bin/nvcc" -arch=sm_90 -O3 -lineinfo -cudart shared -L "$D/lib" -o "$D/bin/battery2" "$D/gen/all.cu"
sed -n 's/^    {"\([a-z0-9_]*\)".*/\1/p' "$D/gen/all.cu" > "$D/bin/names.txt"
[ "$D" = "$here" ] || cp "$here/run.sh" "$D/"
