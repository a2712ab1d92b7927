#!/bin/sh
# warpscope run's engine on the H200 host's Xeon: main's binary at 84f18fb (base) against the
# branch's (new: the rsqrt rows' values from an f32 square root and reciprocal and one f64 Newton
# step instead of the f64 square root and division, a lane near an f32 rounding point looked up
# from the exact value, positive normal lanes without a branch per lane; the divergence fold's
# add and clear in one pass; a block's mbarrier ring allocated at its first use; fma.f32 rows
# compiled for AVX2), the same bench programs (book/:
# nvcc 13 wheel, -O2 -arch=sm_90 -lineinfo -cudart shared).
# 1. scripts/bench-run.sh --no-build --runs 1 for base, then for new (book sizes, 1 and 16
#    threads, the native GPU rows); exports compared.
# 2. WARPSCOPE_TIMING=1 per-launch lines at 1 thread pinned to one core (taskset when present),
#    base and new alternated three times: nbody 4096, reduce 2^24, transpose 4096, loop 20000 64;
#    twice: summatrix 2^13; then at 16 threads, alternated twice: reduce 2^24, transpose 4096,
#    nbody 4096; exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 3 minutes; no GPU work but bench-run's native rows)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$D
R=$OUT/r
mkdir -p "$W/repo/scripts" "$R"
cp bench-run.sh "$W/repo/scripts/"
xz -dc bins.tar.xz | tar xf - -C "$W"
for v in base new; do
  mkdir -p "$W/t-$v/release" "$W/t-$v/bench-run/book"
  mv "$W/$v/warpscope" "$W/$v/libwarpscope_cudart.so" "$W/t-$v/release/"
  cp book/* "$W/t-$v/bench-run/book/"
  chmod +x "$W/t-$v/release/warpscope" "$W/t-$v/bench-run/book/"*
done
PIN=""
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 5"
(nproc; uptime; lscpu | head -24; echo "CUDA root $WARPSCOPE_CUDA_ROOT"; echo "pin: $PIN"; ls -la "$D"; sha256sum "$W"/t-*/release/*) > "$R/machine.txt" 2>&1
cd "$W/repo"
for v in base new; do
  CARGO_TARGET_DIR=$W/t-$v PYTHONUNBUFFERED=1 timeout 100 bash scripts/bench-run.sh --no-build --runs 1 > "$R/bench-run-$v.txt" 2>&1
  echo "exit $?" >> "$R/bench-run-$v.txt"
  mkdir -p "$R/exports-$v"
  cp "$W/t-$v/bench-run/book/"*.json "$R/exports-$v/" 2>/dev/null
done
for f in "$R/exports-base/"*.json; do
  b=$(basename "$f")
  if cmp -s "$f" "$R/exports-new/$b"; then echo "same $b"; else echo "DIFF $b"; fi
done > "$R/same.txt" 2>&1
cd "$W/t-new/bench-run/book"
for a in "3 1 nbody 4096 1" "3 1 reduce 24 -" "3 1 transpose 4096 -" "3 1 loop 20000 64" "2 1 summatrix 13 -" \
         "2 16 reduce 24 -" "2 16 transpose 4096 -" "2 16 nbody 4096 1"; do
  set -- $a
  n=$1; th=$2; p=$3; x=$4; y=$5
  [ "$y" = - ] && y=
  pin=$PIN
  [ "$th" = 1 ] || pin=""
  for i in $(seq "$n"); do
    for v in base new; do
      echo "== $v: $p $x $y, $th thread(s), round $i" >> "$R/timing.txt"
      /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$th \
        timeout 40 $pin "$W/t-$v/release/warpscope" run --export "$R/t-$v-$p.json" -- "./$p" $x $y > /dev/null 2>> "$R/timing.txt"
    done
  done
  cmp "$R/t-base-$p.json" "$R/t-new-$p.json" >> "$R/timing.txt" 2>&1 && echo "$p exports base = new at $th thread(s)" >> "$R/timing.txt"
done
uptime >> "$R/machine.txt"
rm -f "$R"/t-*.json "$R"/exports-*/*.warm.json
cd "$OUT" && tar czf "$OUT/results.tgz" r
