#!/bin/bash
# One-thread A/B of base/ and new/ warpscope on the bench programs (ab.py); results in ./r/.
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
chmod +x base/warpscope new/warpscope book/* cpuprobe
(date -u; uptime; nproc; grep -m1 'model name' /proc/cpuinfo) > r/machine.txt 2>&1
LIMIT=250 timeout 280 python3 ab.py r > r/ab.txt 2>&1; echo "ab rc=$?" >> r/ab.txt
rm -f r/last.json r/warm.json
