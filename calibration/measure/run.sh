#!/usr/bin/env bash
# On the device: calibrate --quick (timed) and analyze --measure over the seed and classic suites.
# Usage (from .dev/measure): bash run.sh WORKDIR
set -u
W=$PWD/warpscope; chmod +x "$W"
R=${1:?workdir}; mkdir -p "$R/analyze" "$R/calib"
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; which ncu; } > "$R/device.txt" 2>&1
cat "$R/device.txt"
: > "$R/analyze/summary.tsv"
tail -n +2 manifest.tsv | while IFS=$'\t' read -r suite name ptx kernel grid block dyn args; do
  a=(); for x in $args; do a+=(--arg "$x"); done
  s0=$(date +%s.%N)
  "$W" analyze "fixtures/$suite/$name.ptx" --kernel "$kernel" --grid "$grid" --block "$block" --dyn-smem "$dyn" "${a[@]}" \
     --sass "fixtures/$suite/$name.sass" --measure --format json > "$R/analyze/$name.json" 2> "$R/analyze/$name.err"
  rc=$?; s1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\n' "$suite" "$name" "$rc" "$(python3 -c "print(f'{$s1-$s0:.1f}')")" | tee -a "$R/analyze/summary.tsv"
done
# CUDA C++ input: NVRTC's CUBIN for the device, widths from the device's ptxas + nvdisasm.
"$W" analyze cu/sqRowCol.cu --grid 1 --block 32,32 --arg buf:4096 --measure --format json > "$R/analyze/cu_sqRowCol.json" 2> "$R/analyze/cu_sqRowCol.err"; echo "cu sqRowCol rc=$?" | tee -a "$R/analyze/summary.tsv"
"$W" analyze cu/matmulTiled.cu --grid 4,4 --block 16,16 --arg buf:16384 --arg buf:16384 --arg buf:16384 --measure --format json > "$R/analyze/cu_matmulTiled.json" 2> "$R/analyze/cu_matmulTiled.err"; echo "cu matmulTiled rc=$?" | tee -a "$R/analyze/summary.tsv"
# The table and CSV views of one kernel.
"$W" analyze fixtures/seeds/sqRowCol.ptx --grid 1 --block 32,32 --arg buf:4096 --sass fixtures/seeds/sqRowCol.sass --measure --no-color > "$R/analyze/sqRowCol.table.txt" 2>&1
"$W" analyze fixtures/seeds/sqRowCol.ptx --grid 1 --block 32,32 --arg buf:4096 --sass fixtures/seeds/sqRowCol.sass --measure --format csv > "$R/analyze/sqRowCol.csv" 2>&1
cat "$R/analyze/"*.err | sort | uniq -c | head
echo done
