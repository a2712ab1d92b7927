#!/bin/sh
# summatrix 16384^2 at 1 thread, old (253e617) and new (bec53aa) alternating, per-launch breakdown
R=$PWD; B=$R/.dev/br; OUT=${1:?out}
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
export LD_LIBRARY_PATH=$B
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in new old; do for f in warpscope libwarpscope_cudart.so; do unxz $B/$v/release/$f.xz > $B/$v/release/$f; done; chmod +x $B/$v/release/warpscope; done
cd $B/new/bench-run/book
S=$(date +%s)
for v in old new old new; do
  [ $(( $(date +%s) - S )) -gt 300 ] && { echo "$v skipped (time)" >> "$OUT/rep.txt"; continue; }
  echo "== $v" >> "$OUT/rep.txt"
  RAYON_NUM_THREADS=1 WARPSCOPE_TIMING=1 /usr/bin/time -f "%e wall %U user %S sys %M KB %F majfl %R minfl" $B/$v/release/warpscope run -- ./summatrix 14 2>&1 | grep -E "timing|wall|PASSED" | cut -c1-260 >> "$OUT/rep.txt"
done
