#!/bin/bash
# Second round on the Xeon: the clock each one-thread run gets (probe2.py), and scripts/bench-run.sh's
# launch CPU columns on reduce/transpose/nbody (main's binary; the script of the branch).
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD/../common:$PWD/lib:${LD_LIBRARY_PATH:-}"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
tar xJf bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys,tarfile,io; tarfile.open(fileobj=io.BytesIO(lzma.open("bins.tar.xz").read())).extractall()'
chmod +x main/warpscope reduce transpose nbody loop cpuprobe
mkdir -p lib && ln -sf "$PWD/../common/libcudart.so.13" lib/libcudart.so
(date -u; uptime; head -1 /proc/stat) > r/machine.txt 2>&1
LIMIT=200 timeout 230 python3 probe2.py r > r/probe2.txt 2>&1; echo "probe2 rc=$?" >> r/probe2.txt
rm -f r/*.json r/err.txt
ls -la r > r/ls.txt
