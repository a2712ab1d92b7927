#!/usr/bin/env bash
# On a machine with a GPU, ncu and the CUDA toolkit: `warpscope calibrate --quick` (timed) and
# `warpscope analyze --measure` over the seed and classic suites (the launches of
# calibration/equivalence/manifest.tsv, the checked-in PTX and machine-code fixtures), plus two
# CUDA C++ inputs through NVRTC. Run from the repository root:
#   calibration/measure/run.sh path/to/warpscope OUTDIR
# The recorded outputs under calibration/measure/h100/ are this script's (copied into OUTDIR's
# layout: analyze/, calibrate/, device.txt, calibrate.txt, calibrate.time, calibrate.log).
set -u
W=$(realpath "${1:?usage: run.sh WARPSCOPE OUTDIR}")
R=${2:?usage: run.sh WARPSCOPE OUTDIR}; mkdir -p "$R/analyze" "$R/calibrate"
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; which ncu; } > "$R/device.txt" 2>&1
cat "$R/device.txt"
t0=$(date +%s.%N)
"$W" calibrate --quick --out "$R/calibrate" > "$R/calibrate.txt" 2> "$R/calibrate.err"; rc=$?
t1=$(date +%s.%N)
echo "calibrate --quick: rc=$rc, $(python3 -c "print(f'{$t1-$t0:.1f}')") s wall" | tee "$R/calibrate.time"
"$W" calibrate --from "$R/calibrate" --format json > "$R/calibrate_from_on_device.json"
: > "$R/analyze/summary.tsv"
awk -F'\t' '$1=="seeds" || $1=="classic"' calibration/equivalence/manifest.tsv |
while IFS=$'\t' read -r suite name ptx kernel grid block dyn args; do
  a=(); for x in $args; do a+=(--arg "$x"); done
  s0=$(date +%s.%N)
  "$W" analyze "$ptx" --kernel "$kernel" --grid "$grid" --block "$block" --dyn-smem "$dyn" "${a[@]}" \
     --sass "${ptx%.ptx}.sass" --measure --format json > "$R/analyze/$name.json" 2> "$R/analyze/$name.err"
  rc=$?; s1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%s\n' "$suite" "$name" "$rc" "$(python3 -c "print(f'{$s1-$s0:.1f}')")" | tee -a "$R/analyze/summary.tsv"
done
"$W" analyze calibration/kernels/seeds/sqRowCol.cu --grid 1 --block 32,32 --arg buf:4096 --measure --format json > "$R/analyze/cu_sqRowCol.json"; echo "cu sqRowCol rc=$?" | tee -a "$R/analyze/summary.tsv"
"$W" analyze calibration/kernels/classic/matmulTiled.cu --grid 4,4 --block 16,16 --arg buf:16384 --arg buf:16384 --arg buf:16384 --measure --format json > "$R/analyze/cu_matmulTiled.json"; echo "cu matmulTiled rc=$?" | tee -a "$R/analyze/summary.tsv"
f=crates/cli/fixtures/seeds/sqRowCol
"$W" analyze $f.ptx --grid 1 --block 32,32 --arg buf:4096 --sass $f.sass --measure --no-color > "$R/analyze/sqRowCol.table.txt"
"$W" analyze $f.ptx --grid 1 --block 32,32 --arg buf:4096 --sass $f.sass --measure --format csv > "$R/analyze/sqRowCol.csv"
echo done
