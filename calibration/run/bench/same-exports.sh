#!/bin/sh
# Exports of calibration/run's programs (loops divergence book book2 collectives fdiv smem atomics)
# and of calibration/run/bench2's, and of bench9's radix and hashq (launches whose early joins send
# their lines to the machine-code flow), by two builds of warpscope, compared byte for byte:
#   calibration/run/bench/same-exports.sh OLD_DIR NEW_DIR BUILD_DIR
# OLD_DIR and NEW_DIR hold warpscope and libwarpscope_cudart.so (cargo build --release); BUILD_DIR
# gets the programs (built when missing; needs WARPSCOPE_CUDA_ROOT). Prints one line a program.
CU=${WARPSCOPE_CUDA_ROOT:?set WARPSCOPE_CUDA_ROOT}
OLD=${1:?old}; NEW=${2:?new}; B=${3:?build dir}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$B/lib" "$B/out"
ln -sf "$CU/lib/libcudart.so.13" "$B/lib/libcudart.so"
for p in loops divergence book book2 collectives fdiv smem atomics; do
  [ -x "$B/$p" ] || "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$B/lib" -o "$B/$p" "$HERE/../$p.cu"
done
for p in stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2; do
  [ -x "$B/$p" ] || "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$B/lib" -o "$B/$p" "$HERE/../bench2/$p.cu"
done
for p in radix hashq; do
  [ -x "$B/$p" ] || "$CU/bin/nvcc" -O2 -arch=sm_90 -lineinfo -cudart shared -L"$B/lib" -o "$B/$p" "$HERE/../bench9/$p.cu"
done
cd "$B"
for p in loops divergence book book2 collectives fdiv smem atomics stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2 radix hashq; do
  for v in old new; do
    d=$OLD; [ $v = new ] && d=$NEW
    "$d/warpscope" run --cudart "$d/libwarpscope_cudart.so" --export "out/$p.$v.json" "./$p" > "out/$p.$v.txt" 2>&1
  done
  if cmp -s "out/$p.old.json" "out/$p.new.json"; then echo "same $p"; else echo "DIFF $p"; fi
done
