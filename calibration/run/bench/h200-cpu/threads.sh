#!/bin/sh
# sh measure.sh OUT: warpscope run on the bench programs at 1/4/8/16 threads (calibration/run/bench).
cd "$(dirname "$0")"
OUT=${1:?out dir}
mkdir -p "$OUT/json"
export LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
( nproc; lscpu 2>/dev/null | head -25 ) > "$OUT/cpu.txt"
python3 measure.py "$OUT/json" 2>&1 | tee "$OUT/log.txt"
cp "$OUT/json/bench.txt" "$OUT/bench.txt" 2>/dev/null
cd "$OUT" && tar czf json.tgz json && rm -rf json
