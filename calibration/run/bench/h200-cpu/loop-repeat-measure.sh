#!/bin/sh
# Loop iterations repeated at once (`Sink::repeat`): main at 9431239 (old) against the branch
# (new), 1 and 16 threads on the bench programs with exports compared; then the book's memloop
# (2^18 elements) at 16 and 2 threads with both, new also at 1 thread, and sum1d 16384^2 at 16.
# Takes about 5 minutes. Command: sh loop-repeat-measure.sh OUT in a folder of old/, new/ (xz'd
# warpscope + libwarpscope_cudart.so), the bench programs built by scripts/bench-run.sh's nvcc
# line (sum1d.cu too), libcudart.so.13 and compare.py.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
mkdir -p "$OUT/json"
lscpu | head -20 > "$OUT/cpu.txt"
timeout 200 python3 compare.py "$OUT/json" --threads 1,16 --budget 170 --progs memloop:65536,sum1d:13:13,reduce:24,transpose:4096,summatrix:13,loop:20000:64,nbody:4096:1 > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt"
{
for a in "new 16 memloop 262144" "old 16 memloop 262144" "new 2 memloop 262144" "old 2 memloop 262144" "new 1 memloop 262144" "new 16 sum1d 14 14" "old 16 sum1d 14 14"; do
  set -- $a; b=$1; t=$2; shift 2
  echo "== $b $* threads=$t"
  RAYON_NUM_THREADS=$t WARPSCOPE_TIMING=1 timeout 170 /usr/bin/time -f "%e wall %U user %S sys %M KB" ./$b/warpscope run --export "$OUT/json/book.$b.$1.$t.json" -- ./"$@" 2>&1 | grep -E "PASSED|FAILED|wrong|wall|Error|error|timing" | cut -c1-400 | head -12
done
echo "== native memloop 262144"; /usr/bin/time -f "%e wall %U user %S sys %M KB" ./memloop 262144 2>&1 | head -3
} > "$OUT/full.txt" 2>&1
( cd "$OUT/json" && for f in old.*.json book.old.*.json; do n=$(echo "$f" | sed 's/old\./new./'); [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFF $f $n"; fi; done
  for p in memloop sum1d; do for t in 1 2 16; do [ -f book.new.$p.$t.json ] && [ -f book.new.$p.16.json ] && { cmp -s book.new.$p.$t.json book.new.$p.16.json && echo "same threads $p $t/16" || echo "DIFF threads $p $t/16"; }; done; done ) > "$OUT/same.txt"
rm -f "$OUT"/json/*.json
