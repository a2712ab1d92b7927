#!/bin/sh
# The H200 host's Xeon, CPU only: main against engine29 (one sink per part), alternating, at 1 and
# 16 threads; then every export of both at 1, 2 and 16 threads compared byte for byte.
cd "$(dirname "$0")"
OUT=${OUT:?OUT}
R=$OUT/r; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD/../common:$PWD/lib:$LD_LIBRARY_PATH"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
(xz -dc bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open("bins.tar.xz").read())') | tar xf -
chmod +x main/warpscope new/warpscope reduce transpose nbody loop
mkdir -p lib && ln -sf "$PWD/../common/libcudart.so.13" lib/libcudart.so 2>/dev/null
(uptime; nproc; lscpu | head -20; echo "WARPSCOPE_CUDA_ROOT=$WARPSCOPE_CUDA_ROOT"; ls -la ../common; sha256sum main/* new/*) > "$R/cpu.txt" 2>&1
LIMIT=230 timeout 265 python3 bench.py "$R" > "$R/log.txt" 2>&1
echo "bench rc=$?" >> "$R/log.txt"
rm -f "$R"/*.json
