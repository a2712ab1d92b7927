#!/usr/bin/env bash
# Times `warpscope bank --trace` on a generated JSON Lines file of 1 million warp requests (widths 1-16,
# loads and stores, strided, paired, broadcast and random addresses, some inactive lanes).
# Usage: scripts/bench-trace.sh [LINES]   (goal: 1,000,000 lines in under 2 seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
file=${TMPDIR:-/tmp}/warpscope-trace-$n.jsonl
cargo build -q --release -p warpscope
if [ ! -s "$file" ]; then
  python3 - "$n" "$file" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(1)
widths = [1, 2, 4, 8, 16]
with open(path, "w") as f:
    for i in range(n):
        w = widths[i % 5]
        op = "load" if i % 2 == 0 else "store"
        kind = i % 4
        s = rng.randrange(34)
        if kind == 0:
            a = [l * s * w for l in range(32)]
        elif kind == 1:
            a = [(l // 2) * w for l in range(32)]
        elif kind == 2:
            a = [rng.randrange(1024) * w for _ in range(32)]
        else:
            a = [l * w if rng.random() < 0.8 else None for l in range(32)]
        cells = ",".join("null" if x is None else str(x) for x in a)
        f.write(f'{{"arch":"sm_90","width":{w},"op":"{op}","addrs":[{cells}]}}\n')
PY
fi
echo "$(wc -l < "$file") lines, $(du -h "$file" | cut -f1): $file"
start=$(date +%s.%N)
./target/release/warpscope bank --trace "$file" > /dev/null
end=$(date +%s.%N)
python3 -c "import sys; t=$end-$start; print(f'warpscope bank --trace: {t:.2f} s, {$n/t/1e6:.2f} M lines/s')"
