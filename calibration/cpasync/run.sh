#!/usr/bin/env bash
# Measures cp.async (LDGSTS) shared wavefronts on this machine's GPU: builds cpasync.cu, runs it under
# ncu with the LDGSTS and shared-store counters, writes OUTDIR/measured.tsv (one row per launch:
# width, stride, counters), OUTDIR/ncu.csv, OUTDIR/sass.txt.
# Usage: calibration/cpasync/run.sh OUTDIR   (needs nvcc, cuobjdump and ncu)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
nvcc -O3 -arch=sm_90 -o "$out/cpasync" "$here/cpasync.cu"
cuobjdump -sass "$out/cpasync" > "$out/sass.txt"
m=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__inst_executed_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
ncu --clock-control none --csv --metrics "$m" "$out/cpasync" > "$out/ncu.csv"
rm -f "$out/cpasync"
python3 - "$out/ncu.csv" "$out/measured.tsv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader([l for l in open(sys.argv[1]) if l.startswith('"')])]
by = {}
for r in rows:
    by.setdefault(int(r["ID"]), {"kernel": r["Kernel Name"]})[r["Metric Name"]] = int(float(r["Metric Value"].replace(",", "")))
strides = [0, 1, 2, 3, 4, 8, 16, 32, 33]
names = ["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "smsp__inst_executed_op_ldgsts.sum",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
         "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"]
with open(sys.argv[2], "w") as o:
    o.write("width\tstride\t" + "\t".join(names) + "\n")
    for i in sorted(by):
        w = [4, 8, 16][i % 3]
        s = strides[i // 3]
        o.write(f"{w}\t{s}\t" + "\t".join(str(by[i].get(n, "missing")) for n in names) + "\n")
print(open(sys.argv[2]).read())
PY
