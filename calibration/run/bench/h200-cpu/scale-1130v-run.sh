#!/bin/sh
# Where the parallel path's thread seconds go on the H200 host's Xeon: summatrix 2^13 (three launches:
# 32x32, 32x16, 16x16 blocks) under the branch's binary (new) and a measurement build of the same code
# (probe) with the determinism shadow switched off by environment variables (results unguarded:
# summatrix's blocks share no written word): "keepoff" = WARPSCOPE_SHADOW_KEEP_OFF=1 (words marked and
# published, no values kept for undo), "off" = WARPSCOPE_SHADOW_OFF=1 (no shadow at all). 1 thread
# (new), 2 and 16 threads (new, keepoff, off), three rounds alternated; exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 1.5 minutes; no GPU work)
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
chmod +x "$W/new/warpscope" "$W/probe/warpscope"
mkdir -p "$W/book"
cp book/* "$W/book/"
chmod +x "$W/book/"*
(nproc; uptime) > "$R/machine.txt" 2>&1
cd "$W/book"
one() { # variant threads round
  case $1 in new) b=new; e=X=1 ;; keepoff) b=probe; e=WARPSCOPE_SHADOW_KEEP_OFF=1 ;; off) b=probe; e=WARPSCOPE_SHADOW_OFF=1 ;; esac
  echo "== $1: summatrix 13, $2 threads, round $3" >> "$R/timing.txt"
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env $e WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$2 \
    timeout 45 "$W/$b/warpscope" run --export "$W/$1.$2.json" -- ./summatrix 13 > /dev/null 2>> "$R/timing.txt"
  echo "exit $?" >> "$R/timing.txt"
}
for round in 1 2 3; do
  [ $(( $(date +%s) - START )) -lt 150 ] && one new 1 $round
  for t in 2 16; do
    for v in new keepoff off; do
      [ $(( $(date +%s) - START )) -lt 170 ] && one $v $t $round
    done
  done
done
for t in 2 16; do
  for v in new keepoff off; do
    cmp "$W/new.1.json" "$W/$v.$t.json" >> "$R/same.txt" 2>&1 && echo "exports $v at $t threads = new at 1" >> "$R/same.txt"
  done
done
(uptime; echo "total $(( $(date +%s) - START )) s") >> "$R/machine.txt"
cd "$OUT" && tar czf "$OUT/results.tgz" r
