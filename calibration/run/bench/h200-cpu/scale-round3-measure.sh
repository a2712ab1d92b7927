#!/bin/sh
# warpscope run scaling, 1 -> 16 host threads: main's binary (old/) against the parallel merge in
# parts (new/), alternating, two rounds, WARPSCOPE_TIMING=1 per launch, exports compared byte for
# byte (old/new and 1/16 threads); new at 4 and 8 threads too; loop 1250 x 1024 blocks: a compute-bound
# launch, the machine's own ceiling. Under 4 minutes.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
mkdir -p "$OUT/w"
lscpu | head -20 > "$OUT/cpu.txt"
timeout 225 python3 scale.py "$OUT/w" --threads 1,16 --rounds 2 --budget 185 \
  --progs reduce:24,transpose:4096,nbody:4096:1,loop:1250:1024,summatrix:13 \
  --extra new:summatrix:13:4+new:summatrix:13:8+new:reduce:24:4+new:reduce:24:8 > "$OUT/log.txt" 2>&1
for f in bench.txt timing.txt launches.txt same.txt; do cp "$OUT/w/$f" "$OUT/$f" 2>/dev/null; done
rm -rf "$OUT/w"
