#!/bin/sh
# sh measure.sh OUT: warpscope run, main's binary (old/) against the engine branch's (new/), on the
# bench programs of calibration/run/bench at 1 and 16 threads (RAYON_NUM_THREADS); a table in
# OUT/bench.txt (wall, CPU, peak RSS, thread-instructions and their rate), the exports in OUT/json.tgz.
cd "$(dirname "$0")"
OUT=${1:?out dir}
mkdir -p "$OUT/json"
export LD_LIBRARY_PATH="$PWD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
( nproc; lscpu 2>/dev/null | head -20 ) > "$OUT/cpu.txt"
timeout 190 python3 measure.py "$OUT/json" 1 1,16 "reduce 24;transpose 4096;loop 20000 64;summatrix 13" > "$OUT/bench.txt" 2>&1
# the counters of old and new, export by export (byte-identical expected)
( cd "$OUT/json" && for f in old.*.json; do n=new.${f#old.}; if cmp -s "$f" "$n"; then echo "same $f $n"; else echo "DIFFER $f $n"; fi; done ) > "$OUT/same.txt" 2>&1
cd "$OUT" && tar czf json.tgz json && rm -rf json
