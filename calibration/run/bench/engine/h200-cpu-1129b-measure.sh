#!/bin/sh
# warpscope run: main at 7e319a2 built here (old/) against the engine branch at 9d19338 (new/) on the bench programs,
# old and new alternating per row, up to 5 rounds at 1 and 16 threads (reduce 2^24, transpose 4096,
# summatrix 2^12, nbody 4096), then summatrix 2^13 at 1 thread (old, then new) and
# reduce 2^24 / summatrix 2^12 with WARPSCOPE_TIMING=1 at 1 and 16 threads (per-launch phases);
# exports of old and new compared byte for byte in every round; warp instructions from the export.
# First reduce 2^24 at 1 thread, old and new alternating 12 times each (--repeat).
# Takes about 4-5 minutes (hard limit 450 s).   sh run.sh   (writes into $OUT)
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix nbody
lscpu | head -20 > "$R/cpu.txt"; uptime >> "$R/cpu.txt"
start=$(date +%s)
mkdir -p "$R/rep"
timeout 90 python3 compare.py "$R/rep" --threads 1 --budget 80 --repeat reduce:24:1:12 --progs nbody:256:1 >> "$R/log.txt" 2>&1
( cd "$R/rep" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same rep $f $n"; else echo "DIFF rep $f $n"; fi; done ) >> "$R/same.txt"
rm -f "$R/rep"/*.json
start=$(date +%s)
for i in 1 2 3 4 5; do
  [ $(( $(date +%s) - start )) -gt 250 ] && { echo "round $i skipped (time)" >> "$R/log.txt"; break; }
  mkdir -p "$R/r$i"
  timeout 100 python3 compare.py "$R/r$i" --threads 1,16 --budget 90 --progs reduce:24,transpose:4096,summatrix:12,nbody:4096:1 >> "$R/log.txt" 2>&1
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
if [ $(( $(date +%s) - start )) -lt 300 ]; then
  mkdir -p "$R/big"
  timeout 100 python3 compare.py "$R/big" --threads 1 --bins old,new --budget 90 --progs summatrix:13 >> "$R/log.txt" 2>&1
  ( cd "$R/big" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same big $f $n"; else echo "DIFF big $f $n"; fi; done ) >> "$R/same.txt"
  rm -f "$R/big"/*.json
fi
if [ $(( $(date +%s) - start )) -lt 390 ]; then
  for b in old new; do for t in 1 16; do
    for p in "reduce 24" "summatrix 12"; do
      set -- $p
      echo "== $b $1 $2 threads $t" >> "$R/timing.txt"
      WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$t timeout 40 $b/warpscope run --export "$R/t.json" -- ./$1 $2 2>&1 >/dev/null | grep -v "^note" | head -40 >> "$R/timing.txt"
    done
  done; done
  rm -f "$R/t.json"
fi
tar czf "$OUT/results.tgz" -C "$R" .
