#!/bin/bash
# One-thread A/B of base/ (main at 41460d28) and new/ (branch speed64: MUFU.RSQ rows 8 lanes to a 256-bit
# vector; 744b0494) warpscope on the bench programs (ab.py, as calibration/run/bench/h200-cpu/ab-1203/); results in ./r/.
# Both builds: the release profile (stripped), shipped xz-compressed. About 290 s.
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
for f in base/warpscope base/libwarpscope_cudart.so new/warpscope new/libwarpscope_cudart.so; do
  [ -f "$f" ] || python3 -c 'import lzma,sys; open(sys.argv[1],"wb").write(lzma.open(sys.argv[1]+".xz").read())' "$f"
done
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
chmod +x base/warpscope new/warpscope book/* cpuprobe
(date -u; uptime; nproc; grep -m1 'model name' /proc/cpuinfo; grep -o -w -m1 'avx2' /proc/cpuinfo; grep -o -w -m1 'fma' /proc/cpuinfo; sha256sum base/* new/*) > r/machine.txt 2>&1
LIMIT=250 timeout 275 python3 ab.py r > r/ab.txt 2>&1; echo "ab rc=$?" >> r/ab.txt
python3 pairs.py r/ab.txt > r/pairs.txt 2>&1
rm -f r/last.json r/warm.json
