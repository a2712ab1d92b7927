#!/usr/bin/env bash
# Measures 16-byte cp.async shared wavefronts over destination strides, source strides and offsets.
# Usage: calibration/cpasync/run16.sh OUTDIR   (needs nvcc and ncu); writes OUTDIR/measured16.tsv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
nvcc -O3 -arch=sm_90 -o "$out/cp16" "$here/cp16.cu"
m=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum
ncu --clock-control none --csv --metrics "$m" "$out/cp16" > "$out/ncu16.csv" 2>"$out/ncu16.err" || true
rm -f "$out/cp16"
python3 - "$out/ncu16.csv" "$out/measured16.tsv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader([l for l in open(sys.argv[1]) if l.startswith('"')])]
by = {}
for r in rows:
    v = r["Metric Value"].replace(",", "")
    by.setdefault(int(r["ID"]), {})[r["Metric Name"]] = v
combos = [(ds, ss, off) for ss in (1, 2, 0) for ds in range(13) for off in (0, 1)]
combos += [(ds, 1, 64) for ds in (16, 17, 31, 32, 33, -1, -2)]
names = sorted({k for v in by.values() for k in v})
with open(sys.argv[2], "w") as o:
    o.write("dstride\tsstride\tdoff\t" + "\t".join(names) + "\n")
    for i in sorted(by):
        ds, ss, off = combos[i]
        o.write(f"{ds}\t{ss}\t{off}\t" + "\t".join(by[i].get(n, "") for n in names) + "\n")
print(open(sys.argv[2]).read())
PY
