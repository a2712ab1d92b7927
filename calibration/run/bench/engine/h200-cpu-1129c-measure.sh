#!/bin/sh
# warpscope run: main at f486d41 built here (old/, bench profile, stripped) against the engine3 branch
# (new/, same) on the bench programs, old and new alternating per row:
#   1. reduce 2^24 at 1 thread, 12 alternating pairs; at 16 threads, 12 pairs (compare.py --repeat)
#   2. up to 9 rounds of reduce 2^24, transpose 4096, summatrix 2^12, nbody 4096 at 1 and 16 threads
#   3. WARPSCOPE_TIMING=1 of reduce 2^24 and summatrix 2^12 at 1 and 16 threads, old and new, twice
#      (per-launch times: the 16x16 launch's scaling)
# exports of old and new compared byte for byte; warp instructions from the export.
# Takes about 5 minutes (hard limit 345 s).   sh run.sh   (writes into $OUT)
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix nbody
lscpu | head -20 > "$R/cpu.txt"; uptime >> "$R/cpu.txt"
T0=$(date +%s)
same() { ( cd "$1" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $2 $f"; else echo "DIFF $2 $f"; fi; done ) >> "$R/same.txt"; }
for t in 1 16; do
  mkdir -p "$R/rep$t"
  timeout 80 python3 compare.py "$R/rep$t" --threads $t --budget 70 --repeat reduce:24:$t:12 --progs nbody:256:1 >> "$R/log.txt" 2>&1
  same "$R/rep$t" rep$t; rm -f "$R/rep$t"/*.json
done
for i in 1 2 3 4 5 6 7 8 9; do
  [ $(( $(date +%s) - T0 )) -gt 250 ] && { echo "round $i skipped (time)" >> "$R/log.txt"; break; }
  mkdir -p "$R/r$i"
  timeout 60 python3 compare.py "$R/r$i" --threads 1,16 --budget 50 --progs reduce:24,transpose:4096,summatrix:12,nbody:4096:1 >> "$R/log.txt" 2>&1
  python3 - "$R/r$i" >> "$R/warp_instructions.txt" <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        l = json.load(open(f))["launches"]
        print(os.path.basename(f), sum(x.get("warp_instructions", 0) for x in l), sum(x.get("thread_instructions", 0) for x in l))
    except Exception as e:
        print(os.path.basename(f), "error", e)
PY
  same "$R/r$i" r$i; rm -f "$R/r$i"/*.json
done
for k in 1 2; do
  [ $(( $(date +%s) - T0 )) -gt 310 ] && break
  for b in old new; do for t in 1 16; do
    for p in "reduce 24" "summatrix 12"; do
      set -- $p
      echo "== $k $b $1 $2 threads $t" >> "$R/timing.txt"
      WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$t timeout 20 $b/warpscope run --export "$R/t.json" -- ./$1 $2 2>&1 >/dev/null | grep -v "^note" | head -40 >> "$R/timing.txt"
    done
  done; done
done
rm -f "$R/t.json"
echo "total $(( $(date +%s) - T0 )) s" >> "$R/log.txt"
tar czf "$OUT/results.tgz" -C "$R" .
