#!/usr/bin/env bash
# Runs the equivalence manifest on the GPU: the established rows and the new features in one
# equiv process, the two rows that could hang or fault the context (mbarrierBulk, setMaxNReg) each
# in their own, under a timeout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?OUT}
cd "$here"
mkdir -p bins
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvcc --version | tail -2; } > "$out/device.txt"
nvcc -O3 -arch=sm_90 -o equiv repo/calibration/equivalence/equiv.cpp -lcuda || exit 3
man=repo/calibration/equivalence/manifest.tsv
head -1 $man > m_main
tail -n +2 $man | grep -v -P '\t(setMaxNReg|mbarrierBulk)\t' >> m_main
timeout 300 ./equiv m_main repo bins > h_main.tsv 2> "$out/err_main.txt"; echo "main rc=$?"
for k in mbarrierBulk setMaxNReg; do
  head -1 $man > m_$k; grep -P "\t$k\t" $man >> m_$k
  timeout 60 ./equiv m_$k repo bins > h_$k.tsv 2> "$out/err_$k.txt"; echo "$k rc=$?"
done
{ cat h_main.tsv; grep -hv -e '^#' -e '^name' h_mbarrierBulk.tsv h_setMaxNReg.tsv; } > "$out/gpu_hashes.tsv"
tar -C bins -cf "$out/gpu_out.tar" .
cat "$out/device.txt"; cat "$out"/err_*.txt; wc -l "$out/gpu_hashes.tsv"; ls bins | wc -l
