#!/bin/sh
# Device round (the H200 host's Xeon, CPU only; about 4-5 minutes, hard limit 7 min 30 s):
# old (main at 2a5d044) against new (engine5 at its final code) release builds of warpscope run, alternating, at 1
# and 16 threads on reduce 2^24, transpose 4096, summatrix 2^12 (10-12 rounds) and 2^13 (2);
# every run with WARPSCOPE_TIMING=1; exports compared old/new and 1/16 threads. The folder holds
# old/, new/ (each warpscope and libwarpscope_cudart.so, xz), the bench programs built as
# scripts/bench-run.sh builds them, libcudart.so.13, bench.py and launches.py (the files
# h200-cpu-1130-{bench,launches}.py here).
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
unxz() { xz -dc "$1" 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$1"; }
for v in old new; do for f in warpscope libwarpscope_cudart.so; do [ -f $v/$f ] || unxz $v/$f.xz > $v/$f; done; chmod +x $v/warpscope; done
chmod +x reduce transpose summatrix
(uptime; nproc; lscpu | head -20; sha256sum old/* new/*) > "$R/cpu.txt" 2>&1
timeout 450 python3 bench.py "$R" > "$R/log.txt" 2>&1
python3 launches.py "$R/timing.txt" > "$R/launches.txt" 2>&1
echo "bench rc=$?" >> "$R/log.txt"
rm -f "$R"/*.json
tar czf "$OUT/results.tgz" -C "$R" .
