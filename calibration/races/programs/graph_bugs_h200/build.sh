#!/bin/bash
# Builds every variant of ../graph_node_bugs.cu (variants.txt) into folder $1 with the CUDA
# wheels' nvcc (WARPSCOPE_CUDA_ROOT; -rdc=true -lcudadevrt for the CHILD variants, whose graph
# node launches grids) and copies run.sh and variants.txt beside them; then, on the GPU machine,
# `cd $1 && bash run.sh` (results under r/).
set -e
R=${WARPSCOPE_CUDA_ROOT:?name the CUDA wheels root}
P=$(cd "$(dirname "$0")/.." && pwd)
H=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1/lib"
ln -sf "$R/lib/libcudart.so.13" "$1/lib/libcudart.so"
cd "$1"
for v in $(cat "$H/variants.txt"); do
  f=${v%%:*}; d=${v#*:}; name=$f${d:+_${d//,/_}}
  defs=(); rdc=()
  for x in ${d//,/ }; do defs+=("-D$x"); done
  case ",$d," in *,CHILD,*) rdc=(-rdc=true -lcudadevrt);; esac
  "$R/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$1/lib" "${rdc[@]}" "${defs[@]}" -o "$name" "$P/$f.cu" &
done
wait
rm -r lib
cp "$R/lib/libcudart.so.13" "$H/run.sh" "$H/variants.txt" .
