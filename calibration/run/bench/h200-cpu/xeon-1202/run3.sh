#!/bin/bash
# Third round on the Xeon: what the one-thread spread follows (probe3.py): the clock, the ALU ports'
# throughput, memset bandwidth and load latency of the CPU measured before each run.
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD/../common:$PWD/lib:${LD_LIBRARY_PATH:-}"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
tar xJf bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys,tarfile,io; tarfile.open(fileobj=io.BytesIO(lzma.open("bins.tar.xz").read())).extractall()'
chmod +x main/warpscope reduce transpose nbody loop cpuprobe
mkdir -p lib && ln -sf "$PWD/../common/libcudart.so.13" lib/libcudart.so
(date -u; uptime; head -1 /proc/stat) > r/machine3.txt 2>&1
LIMIT=150 timeout 180 python3 probe3.py r > r/probe3.txt 2>&1; echo "probe3 rc=$?" >> r/probe3.txt
rm -f r/*.json r/err.txt
