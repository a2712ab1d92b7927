#!/bin/sh
# 1 -> 16 threads per launch on the H200 host's Xeon: main's runtime library against the branch's
# (the disjointness proof through clamped reads of a buffer no block writes), one CLI (main's) for
# both through --cudart. clamped 4096 2 (blur3 and heat over 128 x 512 blocks of 32 x 8, both
# refused by main's proof, proven by the branch's); 1 and 16 threads, rounds alternated while time
# allows; then the exports compared: main at 1 thread against the branch at 1 and 16.
# Run from this folder: OUT=DIR sh run.sh   (under 4 minutes; no GPU work)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$D/../common:$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
R=$OUT/r
mkdir -p "$R"
START=$(date +%s)
xz -dc bins.tar.xz | tar xf - -C "$W"
cp clamped "$W/"
chmod +x "$W/main/warpscope" "$W/clamped"
(nproc; grep -m1 'model name' /proc/cpuinfo; uptime) > "$R/machine.txt" 2>&1
cp run.sh "$R/run.sh"
cd "$W"
el() { echo $(( $(date +%s) - START )); }
one() { # variant threads round
  echo "== $1: clamped 4096 2, $2 threads, round $3" >> "$R/timing.txt"
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$2 \
    timeout 100 "$W/main/warpscope" run --cudart "$W/$1/libwarpscope_cudart.so" --export "$W/$1.$2.json" -- ./clamped 4096 2 \
    > "$W/$1.$2.out" 2>> "$R/timing.txt"
  echo "exit $?" >> "$R/timing.txt"
}
for round in 1 2 3 4; do
  [ "$(el)" -lt 110 ] || break
  if [ $((round % 2)) = 1 ]; then order="main new"; else order="new main"; fi
  for v in $order; do one $v 16 $round; done
  for v in $order; do one $v 1 $round; done
done
for v in new.1 new.16 main.16; do
  if cmp -s main.1.json $v.json && cmp -s main.1.out $v.out; then echo "same main.1 $v"; else echo "DIFF main.1 $v"; fi
done > "$R/exports.txt"
cp main.1.out "$R/program-output.txt"
# the 21 programs of calibration/run/bench/same-exports.sh: main at 1 thread against the branch at 16 and 2
mkdir -p p && xz -dc "$D/progs.tar.xz" | tar xf - -C p && cd p
for p in loops divergence book book2 collectives fdiv smem atomics stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2 radix hashq; do
  [ "$(el)" -lt 250 ] || { echo "time: stopped before $p" >> "$R/exports.txt"; break; }
  for vt in main.1 new.16 new.2; do
    v=${vt%.*}; t=${vt#*.}
    RAYON_NUM_THREADS=$t timeout 60 "$W/main/warpscope" run --cudart "$W/$v/libwarpscope_cudart.so" --export "$p.$vt.json" "./$p" > "$p.$vt.out" 2>/dev/null
  done
  for vt in new.16 new.2; do
    if cmp -s "$p.main.1.json" "$p.$vt.json" && cmp -s "$p.main.1.out" "$p.$vt.out"; then echo "same $p main.1 $vt"; else echo "DIFF $p main.1 $vt"; fi
  done >> "$R/exports.txt"
done
cd ..
echo "elapsed $(el) s" >> "$R/exports.txt"
