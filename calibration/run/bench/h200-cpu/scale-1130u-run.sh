#!/bin/sh
# warpscope run's 1 -> 16 thread scaling on the H200 host's Xeon: main's binary (base) against the
# branch's (new: the shadow's words marked 64 to an entry in a per-thread table, a part's blocks one
# unit published at its end, a 16-wide block's warp told as two halves from the load/store fast
# path), the same programs (book/: nvcc 13 wheel, -O2 -arch=sm_90 -lineinfo -cudart shared):
# summatrix 2^13 (three launches: 32x32, 32x16, 16x16 blocks), reduce 2^24, lastdone 2^20 (a
# last-block-done sum, 4,096 blocks). WARPSCOPE_TIMING=1 per-launch lines at 1 and 16 threads,
# base and new alternated, three rounds; summatrix at 2, 4, 8 threads once each; exports compared
# (base = new at 1 and 16 threads; new at 1 = 2, 4, 8, 16 threads).
# Run from this folder: OUT=DIR sh run.sh   (about 2.5 minutes; no GPU work)
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
chmod +x "$W/base/warpscope" "$W/new/warpscope"
mkdir -p "$W/book"
cp book/* "$W/book/"
chmod +x "$W/book/"*
(nproc; uptime; lscpu | head -24; echo "CUDA root $WARPSCOPE_CUDA_ROOT"; ls -la "$D") > "$R/machine.txt" 2>&1
cd "$W/book"
one() { # v threads prog arg round
  echo "== $1: $3 $4, $2 threads, round $5" >> "$R/timing.txt"
  /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$2 \
    timeout 45 "$W/$1/warpscope" run --export "$W/$1-$3.$2.json" -- "./$3" "$4" > "$W/$1-$3.$2.stdout" 2>> "$R/timing.txt"
  echo "exit $?" >> "$R/timing.txt"
}
for round in 1 2 3; do
  for a in "summatrix 13" "reduce 24" "lastdone 20"; do
    set -- $a
    for t in 1 16; do
      for v in base new; do
        # stop starting rounds past 170 s: the results so far still come back
        [ $(( $(date +%s) - START )) -lt 170 ] && one $v $t $1 $2 $round
      done
    done
  done
done
for t in 2 4 8; do
  for v in base new; do
    [ $(( $(date +%s) - START )) -lt 200 ] && one $v $t summatrix 13 sweep
  done
done
for p in summatrix reduce lastdone; do
  for t in 1 16; do
    cmp "$W/base-$p.$t.json" "$W/new-$p.$t.json" >> "$R/same.txt" 2>&1 && echo "$p exports base = new at $t threads" >> "$R/same.txt"
    cmp "$W/base-$p.$t.stdout" "$W/new-$p.$t.stdout" >> "$R/same.txt" 2>&1 && echo "$p output base = new at $t threads" >> "$R/same.txt"
  done
  cmp "$W/new-$p.1.json" "$W/new-$p.16.json" >> "$R/same.txt" 2>&1 && echo "$p exports new 1 = 16 threads" >> "$R/same.txt"
  cp "$W/new-$p.16.stdout" "$R/" 2>/dev/null
done
for t in 2 4 8; do
  cmp "$W/new-summatrix.1.json" "$W/new-summatrix.$t.json" >> "$R/same.txt" 2>&1 && echo "summatrix exports new 1 = $t threads" >> "$R/same.txt"
  cmp "$W/base-summatrix.$t.json" "$W/new-summatrix.$t.json" >> "$R/same.txt" 2>&1 && echo "summatrix exports base = new at $t threads" >> "$R/same.txt"
done
python3 "$D/scale-1130s.py" "$R/timing.txt" > "$R/table.txt" 2>&1
(uptime; echo "total $(( $(date +%s) - START )) s") >> "$R/machine.txt"
cd "$OUT" && tar czf "$OUT/results.tgz" r
