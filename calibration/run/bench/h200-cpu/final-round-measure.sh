#!/bin/sh
# old (main before) against new (machine-flow address-only accesses, step-over, sector range) on the
# bench programs; then memloop at the stream demo's full size with new only.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
mkdir -p "$OUT/json"
lscpu | head -20 > "$OUT/cpu.txt"
{
for n in 65536 262144; do
  echo "== new memloop $n threads=16"
  start=$(date +%s.%N)
  RAYON_NUM_THREADS=16 WARPSCOPE_TIMING=1 /usr/bin/time -f "%e wall %U user %S sys %M KB" ./new/warpscope run --export "$OUT/json/full.$n.json" -- ./memloop $n 2>&1 | grep -E "PASSED|FAILED|wall|launch|warpscope timing" | sed 's/thread seconds.*//'
done
echo "== native memloop 262144"
/usr/bin/time -f "%e wall %U user %S sys %M KB" ./memloop 262144
} > "$OUT/full.txt" 2>&1
timeout 420 python3 compare.py "$OUT/json" --threads 1,16 --budget 330 --progs memloop:16384,nbody:4096:1,reduce:24,transpose:4096,summatrix:13,loop:20000:64 > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt"
cd "$OUT/json" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFF $f $n"; fi; done > "$OUT/same.txt"
rm -f "$OUT"/json/*.json
