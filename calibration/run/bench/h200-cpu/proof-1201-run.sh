#!/bin/sh
# 1 -> 16 threads per launch on the H200 host's Xeon: main's runtime library (main, 84f18fb) against
# the branch's (new: the disjointness proof through bounds guards and grid-stride loops), one CLI
# (main's) for both through --cudart. summatrix 2^13 (32x32, 32x16, 16x16), reduce 2^24, transpose
# 4096 (all proven by main too), guarded 6000 (add2d over an overhanging 2-D grid, scale with an early
# return, saxpy grid-stride over 1024 blocks: proven by the branch only); 1 and 16 threads, rounds
# alternated while time allows. Then every export compared with main's at one thread, and the 21
# programs of ../same-exports.sh: main at 1 thread against the branch at 16 and 2.
# Run from this folder: OUT=DIR sh run.sh   (under 4 minutes; no GPU work)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$D
R=$OUT/r
mkdir -p "$R"
START=$(date +%s)
xz -dc bins.tar.xz | tar xf - -C "$W"
xz -dc progs.tar.xz | tar xf - -C "$W"
chmod +x "$W/main/warpscope" "$W"/summatrix "$W"/reduce "$W"/transpose "$W"/guarded
(nproc; grep -m1 'model name' /proc/cpuinfo; uptime) > "$R/machine.txt" 2>&1
cp run.sh "$R/run.sh"
cd "$W"
el() { echo $(( $(date +%s) - START )); }
one() { # variant program args threads round
  echo "== $1: $2 $3, $4 threads, round $5" >> "$R/timing.txt"
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$4 \
    timeout 60 "$W/main/warpscope" run --cudart "$W/$1/libwarpscope_cudart.so" --export "$W/$1.$2.$4.json" -- "./$2" $3 \
    > "$W/$1.$2.$4.out" 2>> "$R/timing.txt"
  echo "exit $?" >> "$R/timing.txt"
}
args() { case $1 in summatrix) echo 13 ;; reduce) echo 24 ;; transpose) echo 4096 ;; guarded) echo 6000 ;; esac; }
for round in 1 2 3; do
  [ "$(el)" -lt 140 ] || break
  if [ $((round % 2)) = 1 ]; then order="main new"; else order="new main"; fi
  for p in guarded summatrix reduce transpose; do
    a=$(args $p)
    for v in $order; do one $v $p "$a" 1 $round; done
    for v in $order; do one $v $p "$a" 16 $round; done
  done
done
for p in guarded summatrix reduce transpose; do
  for f in main.$p.16 new.$p.1 new.$p.16; do
    if cmp -s "$W/main.$p.1.json" "$W/$f.json"; then echo "same $f = main.$p.1" >> "$R/same.txt"; else echo "DIFF $f main.$p.1" >> "$R/same.txt"; fi
  done
  cp "$W/new.$p.16.out" "$R/$p.new16.out" 2>/dev/null
done
echo "bench done at $(el) s" >> "$R/machine.txt"
for p in loops divergence book book2 collectives fdiv smem atomics stencil bfs lud conv nw btree rk4 kmeans pfilter switch switch2 radix hashq; do
  [ "$(el)" -lt 225 ] || { echo "stopped before $p (time)" >> "$R/same21.txt"; break; }
  chmod +x "$W/$p"
  RAYON_NUM_THREADS=1 timeout 30 "$W/main/warpscope" run --cudart "$W/main/libwarpscope_cudart.so" --export "$W/s.$p.main1.json" -- "./$p" > /dev/null 2>&1 </dev/null
  for t in 16 2; do
    RAYON_NUM_THREADS=$t timeout 30 "$W/main/warpscope" run --cudart "$W/new/libwarpscope_cudart.so" --export "$W/s.$p.new$t.json" -- "./$p" > /dev/null 2>&1 </dev/null
    if [ -s "$W/s.$p.main1.json" ] && cmp -s "$W/s.$p.main1.json" "$W/s.$p.new$t.json"; then echo "same $p new$t = main1" >> "$R/same21.txt"; else echo "DIFF $p new$t main1" >> "$R/same21.txt"; fi
  done
done
(uptime; echo "total $(el) s") >> "$R/machine.txt"
cd "$OUT" && tar czf "$OUT/results.tgz" r
