#!/bin/sh
# Second round: what makes summatrix's 32x16 and 16x16 launches slower at 16 threads with the
# blocks folded in parts (round one: ~1 voluntary switch per block in the race check's time, sys
# time up to 7 s). Variants of new (each its runtime library, new's warpscope): va parts of 16
# blocks, vb one shared sink pool (as main), vc parts of 256, vd the shadow's written flag stored
# at every block's end (as main). All at 16 threads, two rounds alternating; then old and new at 1
# and 16 threads for the per-launch speed-ups. Under 3 minutes.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
for d in old new va vb vc vd; do
  for f in $d/*.gz; do [ -f "$f" ] && gunzip -f "$f"; done
  chmod +x $d/warpscope 2>/dev/null
done
mkdir -p "$OUT/w1" "$OUT/w2"
timeout 120 python3 scale.py "$OUT/w1" --bins old,new,va,vb,vc,vd --threads 16 --rounds 2 --budget 100 \
  --progs summatrix:13,reduce:24,transpose:4096 > "$OUT/log.txt" 2>&1
timeout 90 python3 scale.py "$OUT/w2" --bins old,new --threads 1,16 --rounds 1 --budget 75 \
  --progs summatrix:13,reduce:24,transpose:4096 >> "$OUT/log.txt" 2>&1
for k in 1 2; do
  cat "$OUT/w$k/bench.txt" "$OUT/w$k/launches.txt" "$OUT/w$k/same.txt" > "$OUT/r$k.txt" 2>/dev/null
  cp "$OUT/w$k/timing.txt" "$OUT/timing$k.txt" 2>/dev/null
done
rm -rf "$OUT/w1" "$OUT/w2"
