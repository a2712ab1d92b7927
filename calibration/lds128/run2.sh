#!/usr/bin/env bash
# Second device round (gen2.py; README.md): 336 16-byte loads packed 32 a launch, read from the
# source page. In a folder holding this script, patterns2.txt, libcudart.so.13 and probe (as for
# run.sh): OUT=DIR bash run2.sh -> $OUT/results.tgz. About 20 s.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
command -v ncu > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
R=$(mktemp -d); START=$(date +%s)
t() { echo "$1 exit $2 at $(( $(date +%s) - START )) s" >> $R/log.txt; }
chmod +x probe
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $R/versions.txt 2>&1
./probe patterns2.txt > $R/probe2.stdout 2>&1; t probe2 $?
timeout 120 ncu --clock-control none --section SourceCounters --page source --print-source sass --csv ./probe patterns2.txt > $R/probe2.sass.csv 2> $R/probe2.sass.err; t probe2sass $?
gzip -9 $R/*.csv
t total 0
tar czf "$OUT/results.tgz" -C $R .
