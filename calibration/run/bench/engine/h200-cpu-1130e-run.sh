#!/bin/sh
# Device round (the H200 host's Xeon, CPU only; about 4-5 minutes, hard limit 7 min 30 s).
# old = main at e545d49, new = engine6 (the bank sink's in-place pattern check per warp and the
# full-mask worst-request copy), both libwarpscope_cudart.so built with the same profile (bench:
# release code with line tables, stripped), the same warpscope binary (unchanged by the branch).
# 1. bench.py: old/new alternating at 1 and 16 threads, WARPSCOPE_TIMING=1 on every run, the machine
#    flow off (WARPSCOPE_MACHINE_FLOW=off: isolates the engine) and, for reduce, on (as run runs).
# 2. spin: the host's own scaling, 1 copy against 16 at once of a register-only loop and of a
#    64 MB memory pass (each copy's own wall), three times each.
cd "$(dirname "$0")"  # the folder holds bench.py, launches.py, spin (gcc -O2 spin.c), the programs, libcudart.so.13, bins.tar.xz (old/, new/)
OUT=${OUT:?OUT}
R=$OUT/res; mkdir -p "$R"
export LD_LIBRARY_PATH="$PWD"
export WARPSCOPE_CUDA_ROOT=$(dirname $(dirname $(command -v ptxas)))
(xz -dc bins.tar.xz 2>/dev/null || python3 -c 'import lzma,sys; sys.stdout.buffer.write(lzma.open("bins.tar.xz").read())') | tar xf -
mkdir -p new && cp old/warpscope new/warpscope
chmod +x old/warpscope new/warpscope reduce transpose summatrix spin
(uptime; nproc; lscpu | head -20; sha256sum old/* new/*) > "$R/cpu.txt" 2>&1
LIMIT=330 timeout 400 python3 bench.py "$R" > "$R/log.txt" 2>&1
echo "bench rc=$?" >> "$R/log.txt"
python3 launches.py "$R/timing.txt" > "$R/launches.txt" 2>&1
{
  for mode in alu mem; do
    for rep in 1 2 3; do
      echo "== $mode 1 copy, rep $rep"; ./spin $mode
      echo "== $mode 16 copies at once, rep $rep"
      i=0; while [ $i -lt 16 ]; do ./spin $mode > "$R/spin.$i" & i=$((i+1)); done; wait
      cat "$R"/spin.[0-9]* | sort -k2 -n | awk '{s+=$2; if (NR==1) lo=$2; hi=$2} END {printf "16 copies: min %.3f mean %.3f max %.3f\n", lo, s/NR, hi}'
      rm -f "$R"/spin.[0-9]*
    done
  done
} > "$R/spin.txt" 2>&1
rm -f "$R"/*.json
tar czf "$OUT/results.tgz" -C "$R" .
