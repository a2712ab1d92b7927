#!/bin/sh
# warpscope run: main's binary at 76ca0bd (old/) against the engine branch at e6a717c (new/) on the
# bench programs, alternating old/new per row, 5 rounds at 1 and 16 threads (reduce 2^24, transpose
# 4096, summatrix 2^12, nbody 4096), then one round of summatrix 2^13 at 1 thread; exports of old and
# new compared byte for byte in every round; warp instructions of each program from its export.
# About 3-4 minutes (hard limit 420 s). sh run.sh   (writes into $OUT)
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix nbody
lscpu | head -20 > "$R/cpu.txt"
start=$(date +%s)
for i in 1 2 3 4 5; do
  [ $(( $(date +%s) - start )) -gt 300 ] && { echo "round $i skipped (time)" >> "$R/log.txt"; break; }
  mkdir -p "$R/r$i"
  timeout 120 python3 compare.py "$R/r$i" --threads 1,16 --budget 100 --progs reduce:24,transpose:4096,summatrix:12,nbody:4096:1 >> "$R/log.txt" 2>&1
  python3 - "$R/r$i" >> "$R/warp_instructions.txt" <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        l = json.load(open(f))["launches"]
        print(os.path.basename(f), sum(x.get("warp_instructions", 0) for x in l), sum(x.get("thread_instructions", 0) for x in l))
    except Exception as e:
        print(os.path.basename(f), "error", e)
PY
  ( cd "$R/r$i" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same r$i $f $n"; else echo "DIFF r$i $f $n"; fi; done ) >> "$R/same.txt"
  rm -f "$R/r$i"/*.json
done
if [ $(( $(date +%s) - start )) -lt 330 ]; then
  mkdir -p "$R/big"
  timeout 80 python3 compare.py "$R/big" --threads 1 --budget 70 --progs summatrix:13 >> "$R/log.txt" 2>&1
  ( cd "$R/big" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same big $f $n"; else echo "DIFF big $f $n"; fi; done ) >> "$R/same.txt"
  rm -f "$R/big"/*.json
fi
tar czf "$OUT/results.tgz" -C "$R" .
