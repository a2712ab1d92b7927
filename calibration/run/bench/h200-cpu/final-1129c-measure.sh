#!/bin/sh
# Main after this round's merges (new) against main at 9431239 (old) on the Xeon: the bench
# programs at 1 and 16 threads with exports compared (compare.py), then the book-sized stream demo
# (memloop 2^18) and sum1d 16384^2 with new. About 4 minutes. sh measure.sh OUT
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
mkdir -p "$OUT/json"
lscpu | head -20 > "$OUT/cpu.txt"
timeout 250 python3 compare.py "$OUT/json" --threads 1,16 --budget 220 --progs memloop:65536,sum1d:13:13,reduce:24,transpose:4096,summatrix:13,loop:20000:64,nbody:4096:1 > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt" 2>/dev/null
{
for a in "16 memloop 262144" "2 memloop 262144" "16 sum1d 14 14" "2 sum1d 14 14"; do
  set -- $a; t=$1; shift
  echo "== new $* threads=$t"
  RAYON_NUM_THREADS=$t timeout 100 /usr/bin/time -f "%e wall %U user %S sys %M KB" ./new/warpscope run --export "$OUT/json/book.new.$1.$t.json" -- ./"$@" 2>&1 | grep -E "PASSED|FAILED|wrong|wall|rror" | cut -c1-300 | head -6
done
} > "$OUT/full.txt" 2>&1
( cd "$OUT/json" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFF $f $n"; fi; done ) > "$OUT/same.txt"
rm -f "$OUT"/json/*.json
