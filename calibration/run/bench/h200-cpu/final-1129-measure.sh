#!/bin/sh
# Final round: main at 253e617 (old) against main with the moving-pointer closed form, the merge in
# parts without per-block allocation and the contiguous global fast path (new), 1 and 16 threads,
# exports compared; then book-size runs with new only (memloop 2^18 at 16 and 2 threads, sum1d
# 16384^2, summatrix 16384^2) and natively.
cd "$(dirname "$0")"
OUT=${1:?out}
PART=${2:-A}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
mkdir -p "$OUT/json"
if [ "$PART" = A ]; then
lscpu | head -20 > "$OUT/cpu.txt"
timeout 330 python3 compare.py "$OUT/json" --threads 1,16 --budget 250 --progs memloop:65536,sum1d:13:13,nbody:4096:1,reduce:24,transpose:4096,summatrix:13,loop:20000:64 > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt"
( cd "$OUT/json" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFF $f $n"; fi; done ) > "$OUT/same.txt"
rm -f "$OUT"/json/*.json
else
{
for a in "16 memloop 262144" "16 sum1d 14 14" "16 summatrix 14" "2 memloop 262144" "2 sum1d 14 14"; do
  set -- $a; t=$1; shift
  echo "== new $* threads=$t"
  RAYON_NUM_THREADS=$t timeout 200 /usr/bin/time -f "%e wall %U user %S sys %M KB" ./new/warpscope run -- ./"$@" 2>&1 | grep -E "PASSED|FAILED|wrong|wall|Error|error" | head -5
done
for a in "memloop 262144" "sum1d 14 14" "summatrix 14"; do
  echo "== native $a"; /usr/bin/time -f "%e wall %U user %S sys %M KB" ./$a 2>&1 | grep -E "PASSED|FAILED|wrong|wall" | head -3
done
} > "$OUT/full.txt" 2>&1
fi
