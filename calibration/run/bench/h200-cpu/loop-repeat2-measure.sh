#!/bin/sh
# Second round: main at 9431239 (old) against the branch with the loop tap only in kernels that
# have a qualifying loop (new): summatrix 8192^2 at 1 thread twice alternating, then 1 and 16
# threads on memloop, summatrix, loop, transpose, reduce with exports compared; memloop at 2^18
# with new at 16, 2 and 1 threads. About 3 minutes.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
mkdir -p "$OUT/json"
timeout 260 python3 compare.py "$OUT/json" --threads 1,16 --budget 230 --repeat summatrix:13:1:2 --progs memloop:65536,summatrix:13,loop:20000:64,transpose:4096,reduce:24 > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt"
{
for t in 16 2 1; do
  echo "== new memloop 262144 threads=$t"
  RAYON_NUM_THREADS=$t timeout 60 /usr/bin/time -f "%e wall %U user %S sys %M KB" ./new/warpscope run --export "$OUT/json/book.new.memloop.$t.json" -- ./memloop 262144 2>&1 | grep -E "PASSED|FAILED|wall|rror" | head -4
done
} > "$OUT/full.txt" 2>&1
( cd "$OUT/json" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFF $f $n"; fi; done
  for t in 1 2; do cmp -s book.new.memloop.$t.json book.new.memloop.16.json && echo "same threads memloop $t/16" || echo "DIFF threads memloop $t/16"; done ) > "$OUT/same.txt"
rm -f "$OUT"/json/*.json
