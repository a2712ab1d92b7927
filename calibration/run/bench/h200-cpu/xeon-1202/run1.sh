#!/bin/bash
# (the cpuprobe.c kept here is the second round's, which added clock1; the first round used the same file without it)
# The Xeon's one-thread time on reduce/transpose/nbody/loop: machine facts, the host's own clock,
# fault cost and load latency (cpuprobe), `warpscope run` per run with rusage and steal (probe.py),
# perf stat / perf record where perf exists. In a folder of bins.tar.xz (main/: warpscope and
# libwarpscope_cudart.so of main at 1fae9d9), the bench programs (nvcc as scripts/bench-run.sh builds
# them), cpuprobe (gcc -O2 cpuprobe.c), probe.py; ../common/libcudart.so.13.
cd "$(dirname "$0")"
mkdir -p r
export LD_LIBRARY_PATH="$PWD/../common:$PWD/lib:${LD_LIBRARY_PATH:-}"
PTXAS=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$PTXAS" ] && export WARPSCOPE_CUDA_ROOT=$(dirname "$(dirname "$PTXAS")")
tar xJf bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys,tarfile,io; tarfile.open(fileobj=io.BytesIO(lzma.open("bins.tar.xz").read())).extractall()'
chmod +x main/warpscope reduce transpose nbody loop cpuprobe
mkdir -p lib && ln -sf "$PWD/../common/libcudart.so.13" lib/libcudart.so
{
  date -u; uptime; nproc; uname -a; cat /proc/version
  echo "== cpuinfo"; grep -m1 'model name' /proc/cpuinfo; grep -m1 flags /proc/cpuinfo
  echo "avx2: $(grep -c -w avx2 /proc/cpuinfo) cpus; avx512f: $(grep -c -w avx512f /proc/cpuinfo) cpus"
  grep MHz /proc/cpuinfo | sort | uniq -c
  echo "== lscpu"; lscpu 2>&1
  echo "== cpufreq"; ls /sys/devices/system/cpu/cpu0/cpufreq 2>&1; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_{governor,cur_freq,max_freq} 2>&1
  echo "== THP"; for f in /sys/kernel/mm/transparent_hugepage/* /sys/kernel/mm/transparent_hugepage/khugepaged/defrag; do [ -f "$f" ] && echo "$f: $(cat $f)"; done
  echo "== virt"; command -v systemd-detect-virt >/dev/null && systemd-detect-virt; cat /sys/class/dmi/id/{sys_vendor,product_name} 2>&1
  echo "== dmesg (head)"; dmesg 2>&1 | head -40; echo "== dmesg grep"; dmesg 2>&1 | grep -i -E 'gvisor|hypervisor|kvm|firecracker|cloud|tsc|clocksource' | head -30
  echo "== clocksource"; cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>&1
  echo "== meminfo"; head -20 /proc/meminfo; grep -i huge /proc/meminfo
  echo "== vm"; cat /proc/sys/vm/overcommit_memory /proc/sys/kernel/perf_event_paranoid 2>&1; cat /sys/kernel/mm/ksm/run 2>&1
  echo "== tools"; for t in perf taskset /usr/bin/time python3 gcc numactl; do echo "$t: $(command -v $t || echo absent)"; done
  echo "== /proc/stat"; head -1 /proc/stat
  echo "WARPSCOPE_CUDA_ROOT=$WARPSCOPE_CUDA_ROOT"; sha256sum main/*
} > r/machine.txt 2>&1
{ ./cpuprobe clock; ./cpuprobe fault 2048; ./cpuprobe chase 256; ./cpuprobe chase 16; } > r/cpuprobe.txt 2>&1
LIMIT=260 timeout 290 python3 probe.py r main > r/probe.txt 2>&1; echo "probe rc=$?" >> r/probe.txt
rm -f r/*.json r/err.txt
{ ./cpuprobe clock; ./cpuprobe fault 2048; } > r/cpuprobe-after.txt 2>&1
if command -v perf >/dev/null; then
  export RAYON_NUM_THREADS=1
  for p in "reduce 24" "transpose 4096" "nbody 4096 1"; do
    set -- $p
    timeout 60 perf stat -e task-clock,page-faults,context-switches,cpu-migrations,cycles,instructions,cache-misses -- ./main/warpscope run --cudart ./main/libwarpscope_cudart.so -- ./$p > /dev/null 2> r/perfstat-$1.txt
    timeout 60 perf record -F 1999 -o r/perf-$1.data -- ./main/warpscope run --cudart ./main/libwarpscope_cudart.so -- ./$p > /dev/null 2>> r/perfrec-log.txt
    timeout 60 perf report -i r/perf-$1.data --stdio --no-children --sort dso,symbol 2>/dev/null | grep -v '^#' | grep -v '^$' | head -70 > r/perf-$1.txt
    rm -f r/perf-$1.data
  done
fi
ls -la r > r/ls.txt
