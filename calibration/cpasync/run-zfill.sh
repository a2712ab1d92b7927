#!/usr/bin/env bash
# Measures zfill.cu's launches on a GPU: shared wavefronts of LDGSTS (and its global requests and
# sectors) per launch, joined with the launch's parameters.
# Usage: calibration/cpasync/run-zfill.sh OUTDIR [BINARY]   (needs ncu; nvcc when BINARY is not given)
# Writes OUTDIR/zfill_h100.tsv (one row per launch) and OUTDIR/zfill_ncu.csv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
bin=${2:-}
if [ -z "$bin" ]; then
  nvcc -O3 -arch=sm_90 -o "$out/zfill" "$here/zfill.cu"
  bin="$out/zfill"
fi
"$bin" > "$out/zfill_rows.txt"
m=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
ncu --clock-control none --csv --metrics "$m" "$bin" > "$out/zfill_ncu.csv" 2> "$out/zfill_ncu.err" || true
python3 - "$out/zfill_rows.txt" "$out/zfill_ncu.csv" "$out/zfill_h100.tsv" <<'PY'
import csv, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in csv.DictReader([l for l in open(sys.argv[2]) if l.startswith('"')]):
    by.setdefault(int(r["ID"]), {})[r["Metric Name"]] = r["Metric Value"].replace(",", "")
names = sorted({k for v in by.values() for k in v})
with open(sys.argv[3], "w") as o:
    o.write("row\twidth\tdstride\tsstride\tdoff\tmode\t" + "\t".join(names) + "\n")
    for r in rows:
        i = int(r[0])
        o.write("\t".join(r) + "\t" + "\t".join(by.get(i, {}).get(n, "") for n in names) + "\n")
print(len(rows), "launches,", len(by), "profiled")
PY
