#!/bin/sh
# engine4, device round 1 (CPU only, about 4 minutes; hard limit 7 min): old (main at 29d6e5a)
# against new (engine4) release builds, warpscope run at 1 thread, alternating (reduce 2^24 x14
# pairs, transpose 4096 x6), then 1 vs 16 threads with WARPSCOPE_TIMING=1 on reduce 2^24 (a
# 16384-block launch) and summatrix 2^13 (65536..262144 blocks), 3 rounds; exports compared.
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix
(uptime; nproc; lscpu | head -20) > "$R/cpu.txt" 2>&1
timeout 420 python3 bench.py "$R" > "$R/log.txt" 2>&1
rm -f "$R"/*.json
tar czf "$OUT/results.tgz" -C "$R" .
