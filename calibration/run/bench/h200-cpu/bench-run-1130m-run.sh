#!/bin/sh
# warpscope run's engine on the H200 host's Xeon: main's binary at 084acd9 (base) against the
# branch's (new: the RSQ and SQRT models shipped fitted instead of fitted in every process, the
# rsqrt row kernels' 32 lookups at once), the same bench programs (book/: nvcc 13 wheel, -O2
# -arch=sm_90 -lineinfo -cudart shared).
# 1. scripts/bench-run.sh --no-build --runs 1 for base, then for new (book sizes, 1 and 16 threads,
#    the native GPU rows; new columns: the launches' own seconds and the rate over them); exports
#    compared.
# 2. WARPSCOPE_TIMING=1 per-launch lines at 1 thread, base and new alternated twice: nbody 4096,
#    reduce 2^24, transpose 4096, summatrix 2^13; exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 2.5 minutes; no GPU work but bench-run's native rows)
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
(nproc; uptime; lscpu | head -24; echo "CUDA root $WARPSCOPE_CUDA_ROOT"; ls -la "$D") > "$R/machine.txt" 2>&1
cd "$W/repo"
for v in base new; do
  CARGO_TARGET_DIR=$W/t-$v PYTHONUNBUFFERED=1 timeout 110 bash scripts/bench-run.sh --no-build --runs 1 > "$R/bench-run-$v.txt" 2>&1
  echo "exit $?" >> "$R/bench-run-$v.txt"
  mkdir -p "$R/exports-$v"
  cp "$W/t-$v/bench-run/book/"*.json "$R/exports-$v/" 2>/dev/null
done
for f in "$R/exports-base/"*.json; do
  b=$(basename "$f")
  if cmp -s "$f" "$R/exports-new/$b"; then echo "same $b"; else echo "DIFF $b"; fi
done > "$R/same.txt" 2>&1
cd "$W/t-new/bench-run/book"
for a in "nbody 4096 1" "reduce 24 -" "transpose 4096 -" "summatrix 13 -"; do
  set -- $a
  p=$1; x=$2; y=$3
  [ "$y" = - ] && y=
  for v in base new base new; do
    echo "== $v: $p $x $y, 1 thread" >> "$R/timing.txt"
    /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=1 \
      timeout 40 "$W/t-$v/release/warpscope" run --export "$R/t-$v-$p.json" -- "./$p" $x $y > /dev/null 2>> "$R/timing.txt"
  done
  cmp "$R/t-base-$p.json" "$R/t-new-$p.json" >> "$R/timing.txt" 2>&1 && echo "$p exports base = new at 1 thread" >> "$R/timing.txt"
done
uptime >> "$R/machine.txt"
rm -f "$R"/t-*.json "$R"/exports-*/*.warm.json
cd "$OUT" && tar czf "$OUT/results.tgz" r
