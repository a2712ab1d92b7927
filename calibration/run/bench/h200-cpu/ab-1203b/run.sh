#!/bin/bash
# One-thread A/B of base/ (main at 769c5d9b) and new/ (8-lane f32 row kernels, AVX2 kernels chosen at decode) warpscope on the
# bench programs (ab.py, as calibration/run/bench/h200-cpu/ab-1203/); results in ./r/. About 290 s.
# Both builds: the release profile with line tables (CARGO_PROFILE_RELEASE_DEBUG=line-tables-only), then stripped.
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
chmod +x base/warpscope new/warpscope book/* cpuprobe
(date -u; uptime; nproc; grep -m1 'model name' /proc/cpuinfo; grep -o -w -m1 'avx2' /proc/cpuinfo; grep -o -w -m1 'fma' /proc/cpuinfo) > r/machine.txt 2>&1
# ab.py is ../ab-1203/ab.py (copied into the job folder)
LIMIT=250 timeout 280 python3 ab.py r > r/ab.txt 2>&1; echo "ab rc=$?" >> r/ab.txt
rm -f r/last.json r/warm.json
