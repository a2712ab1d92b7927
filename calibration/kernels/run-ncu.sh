#!/usr/bin/env bash
# Measures the shared-memory counters of every calibration kernel (manifest.tsv: the 19 seed kernels and
# the classic suite) on the GPU of this machine, the way /work/shared/groundtruth/README.md describes:
#   1. builds one check program per kernel with this machine's nvcc (-O3 -arch=sm_90 -lineinfo
#      -DWARPSCOPE_HOST): deterministic pseudo-random inputs, the manifest's launch, output checked against a
#      CPU reference (the program prints PASS or exits non-zero);
#   2. runs every program once without the profiler (all must pass), then all of them under one ncu session
#      with the four metrics;
#   3. writes measured_h100.tsv (the ground-truth TSV's columns) and, for the seeds, compares with
#      seed_kernels_h100.tsv when that file is given.
# Usage: calibration/kernels/run-ncu.sh OUTDIR [GROUND_TRUTH_TSV]
# OUTDIR receives measured_h100.tsv, ncu.csv, ncu.log, build.log and sass.txt (cuobjdump -sass of every
# program, to compare with the checked-in fixtures built by another nvcc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
gt=${2:-}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum

tail -n +2 "$here/manifest.tsv" | cut -f2,3 >"$build/list"
nvcc --version | tail -2 >"$out/build.log"
# 1. build (in parallel)
xargs -P "$(nproc)" -L 1 sh -c 'cd "'"$here"'/$(dirname "$1")" && nvcc -O3 -arch=sm_90 -lineinfo -DWARPSCOPE_HOST -o "'"$build"'/$0" "$(basename "$1")"' <"$build/list" >>"$out/build.log" 2>&1 \
  || { cat "$out/build.log"; echo "run-ncu: build failed" >&2; exit 1; }
: >"$out/sass.txt"
while read -r name _; do
  { echo "### $name"; cuobjdump -sass "$build/$name"; } >>"$out/sass.txt"
done <"$build/list"
# 2a. correctness, no profiler
fail=0
while read -r name _; do
  "$build/$name" || { echo "run-ncu: $name FAILED its CPU check" >&2; fail=1; }
done <"$build/list"
[ "$fail" = 0 ] || exit 1
# 2b. all programs under one ncu session
{ echo 'set -e'; while read -r name _; do echo "'$build/$name' >/dev/null"; done <"$build/list"; } >"$build/all.sh"
ncu --clock-control none --csv --target-processes all --metrics "$metrics" bash "$build/all.sh" \
  >"$out/ncu.csv" 2>"$out/ncu.log" || { tail -20 "$out/ncu.log"; echo "run-ncu: ncu failed" >&2; exit 1; }
# 3. table
python3 - "$here/manifest.tsv" "$out/ncu.csv" "$out/measured_h100.tsv" "$gt" <<'PY'
import csv, sys
manifest, ncu_csv, dest, gt = sys.argv[1:5]
rows = list(csv.DictReader(open(manifest), delimiter="\t"))
lines = [l for l in open(ncu_csv) if l.startswith('"')]
vals = {}
for r in csv.DictReader(lines):
    k = r["Kernel Name"].split("(")[0]
    vals.setdefault(k, {})[r["Metric Name"]] = int(float(r["Metric Value"].replace(",", "")))
m = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"]
cols = ["kernel", "what", "grid", "block", "dyn_smem_bytes", "shared_ld_wavefronts", "shared_st_wavefronts",
        "shared_ld_instructions", "shared_st_instructions"]
out = open(dest, "w")
out.write("\t".join(cols) + "\n")
missing = []
for r in rows:
    v = vals.get(r["kernel"])
    if v is None or any(x not in v for x in m):
        missing.append(r["kernel"]); continue
    out.write("\t".join([r["kernel"], r["what"], r["grid"], r["block"], r["dyn_smem"]] + [str(v[x]) for x in m]) + "\n")
out.close()
print(open(dest).read())
bad = 0
if gt:
    for g in csv.DictReader(open(gt), delimiter="\t"):
        v = vals.get(g["kernel"])
        got = [v.get(x) for x in m] if v else None
        want = [int(g[c]) for c in cols[5:]]
        if got != want:
            bad += 1; print(f"MISMATCH {g['kernel']}: measured {got}, ground truth {want}")
    print(f"seeds vs ground truth: {bad} mismatches")
if missing:
    print("missing:", missing); sys.exit(1)
sys.exit(1 if bad else 0)
PY
