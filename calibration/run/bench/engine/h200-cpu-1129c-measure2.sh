#!/bin/sh
# Round 2: the same binaries as round 1 (old: main at f486d41, new: engine3), bench profile, stripped.
#   1. perf stat -e instructions:u,cycles:u (when perf and the counters are there) of reduce 2^24
#      and summatrix 2^12 at 1 thread, old and new alternating, 3 each
#   2. reduce 2^24 at 1 thread, 20 alternating pairs; transpose 4096 and summatrix 2^12 at 1 thread,
#      9 alternating pairs each (compare.py --repeat); exports compared byte for byte
# Takes about 4 minutes (hard limit 300 s).   sh run.sh   (writes into $OUT)
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix nbody
uptime > "$R/cpu.txt"
T0=$(date +%s)
if command -v perf >/dev/null 2>&1; then
  for i in 1 2 3; do for b in old new; do for p in "reduce 24" "summatrix 12"; do
    set -- $p
    echo "== $i $b $1 $2" >> "$R/perfstat.txt"
    RAYON_NUM_THREADS=1 timeout 30 perf stat -x, -e instructions:u,cycles:u,task-clock -- $b/warpscope run --export "$R/ps.json" -- ./$1 $2 2>&1 >/dev/null | grep -E "instructions|cycles|task-clock" >> "$R/perfstat.txt"
  done; done; done
else
  echo "no perf" > "$R/perfstat.txt"
fi
echo "perf stat done at $(( $(date +%s) - T0 )) s" >> "$R/log.txt"
same() { ( cd "$1" && for f in old.*.json; do n=new.${f#old.}; [ -f "$n" ] || continue; if cmp -s "$f" "$n"; then echo "same $2 $f"; else echo "DIFF $2 $f"; fi; done ) >> "$R/same.txt"; }
for spec in reduce:24:1:20 transpose:4096:1:9 summatrix:12:1:9; do
  [ $(( $(date +%s) - T0 )) -gt 230 ] && { echo "$spec skipped (time)" >> "$R/log.txt"; continue; }
  n=${spec%%:*}; mkdir -p "$R/$n"
  timeout 90 python3 compare.py "$R/$n" --threads 1 --budget 80 --repeat $spec --progs nbody:256:1 >> "$R/log.txt" 2>&1
  same "$R/$n" $n; rm -f "$R/$n"/*.json
done
rm -f "$R/ps.json"
echo "total $(( $(date +%s) - T0 )) s" >> "$R/log.txt"
tar czf "$OUT/results.tgz" -C "$R" .
