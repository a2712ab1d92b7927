#!/bin/sh
# sh measure.sh OUT: warpscope run, main's binary (old/) and this branch's (new/), bench programs, 1-16 threads
cd "$(dirname "$0")"
OUT=${1:?out dir}
mkdir -p "$OUT/json"
export LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
python3 measure.py "$OUT/json" > "$OUT/log.txt" 2>&1
cp "$OUT/json/bench.txt" "$OUT/bench.txt" 2>/dev/null
cd "$OUT" && tar czf json.tgz json && rm -rf json
