#!/usr/bin/env bash
# Runs the whole equivalence manifest on a GPU machine (nvcc and a CUDA driver needed), as run.sh
# does, but keeps going when a kernel fails: the established rows and the feature rows run in one
# `equiv` process, the two rows that could hang or fault the context (mbarrierBulk, setMaxNReg)
# each in their own under a timeout.
# Usage: calibration/equivalence/run_features.sh OUT_DIR [REPO_ROOT]
# Writes OUT_DIR/gpu_hashes.tsv, OUT_DIR/gpu_out.tar, OUT_DIR/device.txt and OUT_DIR/err_*.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_features.sh OUT_DIR [REPO_ROOT]}
repo=${2:-$(cd "$here/../.." && pwd)}
work=$(mktemp -d)
mkdir -p "$work/bins"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvcc --version | tail -2; } > "$out/device.txt"
nvcc -O3 -arch=sm_90 -o "$work/equiv" "$repo/calibration/equivalence/equiv.cpp" -lcuda || exit 3
man=$repo/calibration/equivalence/manifest.tsv
head -1 "$man" > "$work/m_main"
tail -n +2 "$man" | grep -v -P '\t(setMaxNReg|mbarrierBulk)\t' >> "$work/m_main"
timeout 300 "$work/equiv" "$work/m_main" "$repo" "$work/bins" > "$work/h_main.tsv" 2> "$out/err_main.txt"
echo "main rc=$?"
for k in mbarrierBulk setMaxNReg; do
  head -1 "$man" > "$work/m_$k"; grep -P "\t$k\t" "$man" >> "$work/m_$k"
  timeout 60 "$work/equiv" "$work/m_$k" "$repo" "$work/bins" > "$work/h_$k.tsv" 2> "$out/err_$k.txt"
  echo "$k rc=$?"
done
{ cat "$work/h_main.tsv"; grep -hv -e '^#' -e '^name' "$work/h_mbarrierBulk.tsv" "$work/h_setMaxNReg.tsv"; } > "$out/gpu_hashes.tsv"
tar -C "$work/bins" -cf "$out/gpu_out.tar" .
cat "$out/device.txt" "$out"/err_*.txt
wc -l "$out/gpu_hashes.tsv"
