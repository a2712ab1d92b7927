#!/bin/sh
# warpscope run's engine on the H200 host's Xeon, second round: the first round's same two builds
# (base: main at a8dcd40; new: the branch) alternated five times per program at one thread, pinned
# to one core when taskset exists (the first round's identical runs differed by up to 1.6x), with
# the per-launch wall (WARPSCOPE_TIMING=1): nbody 4096, reduce 2^24, transpose 4096,
# loop 20000 64, summatrix 2^13 (three times); exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 2 minutes; no GPU work)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$D
R=$OUT/r
mkdir -p "$R"
xz -dc bins.tar.xz | tar xf - -C "$W"
mkdir -p "$W/book" && cp book/* "$W/book/" && chmod +x "$W/book/"* "$W"/base/warpscope "$W"/new/warpscope
PIN=""
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 5"
(nproc; uptime; echo "pin: $PIN"; sha256sum "$W"/base/* "$W"/new/*) > "$R/machine.txt" 2>&1
cd "$W/book"
for a in "5 nbody 4096 1" "5 reduce 24 -" "5 transpose 4096 -" "5 loop 20000 64" "3 summatrix 13 -"; do
  set -- $a
  n=$1; p=$2; x=$3; y=$4
  [ "$y" = - ] && y=
  for i in $(seq "$n"); do
    for v in base new; do
      echo "== $v: $p $x $y, 1 thread, round $i" >> "$R/timing.txt"
      /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=1 \
        timeout 40 $PIN "$W/$v/warpscope" run --export "$R/t-$v-$p.json" -- "./$p" $x $y > /dev/null 2>> "$R/timing.txt"
    done
  done
  cmp "$R/t-base-$p.json" "$R/t-new-$p.json" >> "$R/timing.txt" 2>&1 && echo "$p exports base = new at 1 thread" >> "$R/timing.txt"
done
uptime >> "$R/machine.txt"
rm -f "$R"/t-*.json
cd "$OUT" && tar czf "$OUT/results.tgz" r
