#!/bin/sh
# Round 5, second part (CPU only). Round one found new's threads waiting on glibc malloc arena
# locks (futex at 0x30 into a 64 MiB-aligned heap: the arena's mutex) at 16 threads: fix/ keeps the
# per-block warp list and the race check's word lists from block to block (no allocation per
# block). A: summatrix 8192^2 at 16 threads, old/new/fix, three rounds alternating. B: offcpu.py
# on fix with its symbol-keeping runtime library (fixsym/, same code) to name any remaining wait.
# C: old/fix/new at 1 and 16 threads, three rounds alternating (summatrix 4096^2, reduce 2^24,
# transpose 4096, loop 1250 x 1024), exports compared. Under 4 minutes.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
for d in old new fix fixsym; do
  for f in $d/*.gz; do [ -f "$f" ] && gunzip -f "$f"; done
  chmod +x $d/warpscope 2>/dev/null
done
mkdir -p "$OUT/a" "$OUT/c"
timeout 80 python3 scale.py "$OUT/a" --bins old,new,fix --threads 16 --rounds 3 --budget 70 --progs summatrix:13 > "$OUT/log.txt" 2>&1
RAYON_NUM_THREADS=16 WARPSCOPE_TIMING=1 WARPSCOPE_CUDART="$PWD/fixsym/libwarpscope_cudart.so" timeout 40 python3 offcpu.py "$OUT/offcpu-fix.txt" -- ./fix/warpscope run --export "$OUT/a/off-fix.json" -- ./summatrix 13 > /dev/null 2> "$OUT/a/off-fix.err"
grep "timing" "$OUT/a/off-fix.err" >> "$OUT/offcpu-fix.txt"
timeout 150 python3 scale.py "$OUT/c" --bins old,fix,new --threads 1,16 --rounds 3 --budget 140 \
  --progs summatrix:12,reduce:24,transpose:4096,loop:1250:1024 >> "$OUT/log.txt" 2>&1
for k in a c; do
  cat "$OUT/$k/bench.txt" "$OUT/$k/launches.txt" "$OUT/$k/same.txt" > "$OUT/r$k.txt" 2>/dev/null
  cp "$OUT/$k/timing.txt" "$OUT/timing-$k.txt" 2>/dev/null
done
rm -rf "$OUT/a" "$OUT/c"
