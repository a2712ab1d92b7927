#!/bin/sh
# warpscope run's engine on the H200 host's Xeon: main's binary at a8dcd40 (base) against the
# branch's (new: the RSQ model's 32 lookups of a row predicted together and inlined, a warp-wide
# shared vector load of one address read once, the 64-bit lane minimum/maximum skipped for it, a
# stride prefetch of an instruction's next whole-warp global run, the bank sink's per-instruction
# pattern ways boxed), the same bench programs (book/: nvcc 13 wheel, -O2 -arch=sm_90 -lineinfo
# -cudart shared).
# 1. scripts/bench-run.sh --no-build --runs 1 for base, then for new (book sizes, 1 and 16 threads,
#    the native GPU rows); exports compared.
# 2. WARPSCOPE_TIMING=1 per-launch lines at 1 thread, base and new alternated twice: nbody 4096,
#    reduce 2^24, transpose 4096, loop 20000 64, summatrix 2^13; then at 16 threads, alternated
#    twice: transpose 4096, nbody 4096; exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 2.5-3 minutes; no GPU work but bench-run's native rows)
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
(nproc; uptime; lscpu | head -24; echo "CUDA root $WARPSCOPE_CUDA_ROOT"; ls -la "$D"; sha256sum "$W"/t-*/release/*) > "$R/machine.txt" 2>&1
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
for a in "1 nbody 4096 1" "1 reduce 24 -" "1 transpose 4096 -" "1 loop 20000 64" "1 summatrix 13 -" "16 transpose 4096 -" "16 nbody 4096 1"; do
  set -- $a
  th=$1; p=$2; x=$3; y=$4
  [ "$y" = - ] && y=
  for v in base new base new; do
    echo "== $v: $p $x $y, $th thread(s)" >> "$R/timing.txt"
    /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$th \
      timeout 40 "$W/t-$v/release/warpscope" run --export "$R/t-$v-$p.json" -- "./$p" $x $y > /dev/null 2>> "$R/timing.txt"
  done
  cmp "$R/t-base-$p.json" "$R/t-new-$p.json" >> "$R/timing.txt" 2>&1 && echo "$p exports base = new at $th thread(s)" >> "$R/timing.txt"
done
uptime >> "$R/machine.txt"
rm -f "$R"/t-*.json "$R"/exports-*/*.warm.json
cd "$OUT" && tar czf "$OUT/results.tgz" r
