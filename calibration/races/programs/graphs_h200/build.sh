#!/bin/bash
# Builds every variant of the graph, pitched-copy, host-function and footprint-cap programs
# (../stream_graph.cu, stream_pitched.cu, stream_hostfn.cu, stream_cut.cu) into folder $1 with the
# CUDA wheels' nvcc (WARPSCOPE_CUDA_ROOT) and copies the wheels' libcudart.so.13 and run.sh beside
# them; then, on the GPU machine, `cd $1 && OUT=<dir> bash run.sh`.
set -e
R=${WARPSCOPE_CUDA_ROOT:?name the CUDA wheels root}
P=$(cd "$(dirname "$0")/.." && pwd)
H=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1/lib"
ln -sf "$R/lib/libcudart.so.13" "$1/lib/libcudart.so"
cd "$1"
for v in $(cat "$H/variants.txt"); do
  f=${v%%:*}; d=${v#*:}; name=$f${d:+_${d//,/_}}
  defs=()
  for x in ${d//,/ }; do defs+=("-D$x"); done
  "$R/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$1/lib" "${defs[@]}" -o "$name" "$P/$f.cu" &
done
wait
rm -r lib
cp "$R/lib/libcudart.so.13" "$H/run.sh" "$H/variants.txt" .
