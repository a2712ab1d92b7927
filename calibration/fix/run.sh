#!/usr/bin/env bash
# Measures the kernels of manifest.tsv (each original beside the version with the change `warpscope fix`
# suggested) on this machine's GPU, as calibration/kernels/run-ncu.sh does: builds every check program
# (nvcc -O3 -arch=sm_90 -lineinfo -DWARPSCOPE_HOST), runs each once without the profiler (each must print
# PASS: the fixed kernels compute the same results as the originals' CPU reference), then all under one
# ncu session with the wavefront and instruction counters, and writes OUTDIR/measured_h100.tsv (named for the ground truth's GPU; the checked-in runs are measured_h100.tsv and the earlier measured_h200.tsv),
# OUTDIR/ncu.csv, OUTDIR/run.log and OUTDIR/sass.txt (cuobjdump -sass of the device build).
# Usage: calibration/fix/run.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
tail -n +2 "$here/manifest.tsv" | cut -f1,2 >"$build/list"
nvcc --version | tail -2 >"$out/run.log"
: >"$out/sass.txt"
while read -r name file; do
  (cd "$here" && nvcc -O3 -arch=sm_90 -lineinfo -DWARPSCOPE_HOST -o "$build/$name" "$file") >>"$out/run.log" 2>&1
  { echo "### $name"; cuobjdump -sass "$build/$name"; } >>"$out/sass.txt"
done <"$build/list"
while read -r name _; do "$build/$name" >>"$out/run.log" 2>&1; done <"$build/list"
{ echo 'set -e'; while read -r name _; do echo "'$build/$name' >/dev/null"; done <"$build/list"; } >"$build/all.sh"
ncu --clock-control none --csv --target-processes all --metrics "$metrics" bash "$build/all.sh" \
  >"$out/ncu.csv" 2>>"$out/run.log"
python3 - "$here/manifest.tsv" "$out/ncu.csv" "$out/measured_h100.tsv" <<'PY'
import csv, sys
manifest, ncu_csv, dest = sys.argv[1:4]
rows = list(csv.DictReader(open(manifest), delimiter="\t"))
vals = {}
for r in csv.DictReader([l for l in open(ncu_csv) if l.startswith('"')]):
    vals.setdefault(r["Kernel Name"].split("(")[0], {})[r["Metric Name"]] = int(float(r["Metric Value"].replace(",", "")))
m = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"]
with open(dest, "w") as o:
    o.write("kernel\tshared_ld_wavefronts\tshared_st_wavefronts\tshared_ld_instructions\tshared_st_instructions\n")
    for r in rows:
        v = vals.get(r["kernel"], {})
        o.write("\t".join([r["kernel"]] + [str(v.get(x, "missing")) for x in m]) + "\n")
print(open(dest).read())
PY
