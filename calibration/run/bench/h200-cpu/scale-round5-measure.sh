#!/bin/sh
# Round 5 (CPU only): main (old/) against the merge in parts with main merged (new/).
# A: summatrix 8192^2 at 16 threads, where new's 32x16 / 16x16 launches spent 5-8 s of system time
#    and one voluntary switch per block: offcpu.py samples where every thread waits (/proc wchan,
#    system call, kernel stack) for old and new; then new under variants (no WARPSCOPE_TIMING, no
#    huge pages, glibc malloc never trimming nor mapping apart), two rounds alternating.
# B: old/new at 1 and 16 threads, three rounds alternating (summatrix 4096^2, reduce 2^24,
#    transpose 4096, loop 1250 x 1024), wall/user/sys/faults/switches, exports compared.
# Under 4 minutes.
cd "$(dirname "$0")"
OUT=${1:?out}
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
for d in old new; do
  for f in $d/*.gz; do [ -f "$f" ] && gunzip -f "$f"; done
  chmod +x $d/warpscope 2>/dev/null
done
(lscpu | head -20; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; cat /sys/devices/system/clocksource/clocksource0/current_clocksource; cat /proc/sys/kernel/numa_balancing; id; uname -r; ldd --version | head -1) > "$OUT/cpu.txt" 2>&1
mkdir -p "$OUT/a" "$OUT/b"
for b in old new; do
  RAYON_NUM_THREADS=16 WARPSCOPE_TIMING=1 timeout 40 python3 offcpu.py "$OUT/offcpu-$b.txt" -- ./$b/warpscope run --export "$OUT/a/off-$b.json" -- ./summatrix 13 > /dev/null 2> "$OUT/a/off-$b.err"
  grep "timing" "$OUT/a/off-$b.err" >> "$OUT/offcpu-$b.txt"
done
timeout 70 python3 scale.py "$OUT/a" --bins old,new,nt,nh,nm --threads 16 --rounds 2 --budget 60 --progs summatrix:13 \
  --variants "nt=new:WARPSCOPE_TIMING=0+nh=new:WARPSCOPE_HUGE_PAGES=0+nm=new:MALLOC_TRIM_THRESHOLD_=4000000000:MALLOC_MMAP_THRESHOLD_=2000000000:MALLOC_TOP_PAD_=268435456" > "$OUT/log.txt" 2>&1
timeout 130 python3 scale.py "$OUT/b" --bins old,new --threads 1,16 --rounds 3 --budget 120 \
  --progs summatrix:12,reduce:24,transpose:4096,loop:1250:1024 >> "$OUT/log.txt" 2>&1
for k in a b; do
  cat "$OUT/$k/bench.txt" "$OUT/$k/launches.txt" "$OUT/$k/same.txt" > "$OUT/r$k.txt" 2>/dev/null
  cp "$OUT/$k/timing.txt" "$OUT/timing-$k.txt" 2>/dev/null
done
rm -rf "$OUT/a" "$OUT/b"
