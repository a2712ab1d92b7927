#!/bin/sh
# warpscope run's engine on the H200 host's Xeon at 701202d (known parameter loads read once a launch,
# their events left out for the default counters; contiguous warps logged by the determinism shadow as one range):
# scripts/bench-run.sh --no-build --runs 2 with that commit's release binaries (new/release/*.xz,
# stripped) and the bench programs (new/bench-run/book/, nvcc 13 wheel, -O2 -arch=sm_90 -lineinfo
# -cudart shared); then WARPSCOPE_TIMING=1 per-launch lines of reduce 2^24 and summatrix 2^13 at 1
# and 16 threads (goal 2: 1 -> 16 per launch), exports compared.
# Run from this folder: OUT=DIR sh run.sh   (about 3 minutes; no GPU work but bench-run's native rows)
set -u
D=$(pwd)
W=$(mktemp -d)
P=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$P")")
export LD_LIBRARY_PATH=$WARPSCOPE_CUDA_ROOT/lib64:$WARPSCOPE_CUDA_ROOT/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
mkdir -p "$W/repo/scripts" "$W/t/release" "$W/t/bench-run/book" "$OUT/r"
cp scripts/bench-run.sh "$W/repo/scripts/"
cp new/bench-run/book/* "$W/t/bench-run/book/"
for f in warpscope libwarpscope_cudart.so; do xz -dc "new/release/$f.xz" > "$W/t/release/$f"; done
chmod +x "$W/t/release/warpscope" "$W/t/bench-run/book/"*
R=$OUT/r
(nproc; uptime; lscpu | head -24; echo "CUDA root $WARPSCOPE_CUDA_ROOT") > "$R/machine.txt" 2>&1
cd "$W/repo"
CARGO_TARGET_DIR=$W/t PYTHONUNBUFFERED=1 timeout 170 bash scripts/bench-run.sh --no-build --runs 2 > "$R/bench-run.txt" 2>&1
echo "exit $?" >> "$R/bench-run.txt"
B=$W/t/bench-run/book
cd "$B"
for a in "reduce 24" "summatrix 13"; do
  for t in 1 16; do
    set -- $a
    echo "== $a, $t threads" >> "$R/timing.txt"
    /usr/bin/time -f "wall %e s user %U s sys %S s maxrss %M KB" env WARPSCOPE_TIMING=1 RAYON_NUM_THREADS=$t \
      timeout 30 "$W/t/release/warpscope" run --export "$R/$1.$t.json" -- "./$1" "$2" > /dev/null 2>> "$R/timing.txt"
  done
done
cmp "$R/reduce.1.json" "$R/reduce.16.json" >> "$R/timing.txt" 2>&1 && echo "reduce exports 1 = 16 threads" >> "$R/timing.txt"
cmp "$R/summatrix.1.json" "$R/summatrix.16.json" >> "$R/timing.txt" 2>&1 && echo "summatrix exports 1 = 16 threads" >> "$R/timing.txt"
cp "$B"/*.json "$R/" 2>/dev/null
cd "$OUT" && tar czf "$OUT/results.tgz" r
