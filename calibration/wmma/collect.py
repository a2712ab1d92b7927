#!/usr/bin/env python3
"""Joins ncu's rows (launch order) with ROWS into the measured table. Usage: collect.py NCU.csv[.gz] ROWS.tsv"""
import csv, gzip, sys

path, rows_path = sys.argv[1], sys.argv[2]
op = gzip.open if path.endswith(".gz") else open
with op(path, "rt") as f:
    lines = [l for l in f if l.startswith('"')]
recs = list(csv.DictReader(lines))
recs = [r for r in recs if r["Kernel Name"].startswith("void wmma_ls")]
rows = [l.rstrip("\n").split("\t") for l in open(rows_path) if not l.startswith("#")]
head, rows = rows[0], rows[1:]
if len(rows) != len(recs):
    sys.exit(f"{len(rows)} rows but {len(recs)} ncu records")
cols = [
    ("ldsm_inst", "smsp__sass_inst_executed_op_ldsm.sum"),
    ("ldsm_wf", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"),
    ("ld_inst", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("st_inst", "smsp__sass_inst_executed_op_shared_st.sum"),
    ("ld_wf_sass", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("st_wf_sass", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("ld_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("st_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
]
print("# wmma m16n16k16 f16 A/B + f32 C from/to shared, one warp; H100 counters under ncu (calibration/wmma/raw)")
print("# " + ", ".join(f"{a} = {b}" for a, b in cols))
print("\t".join(head + [a for a, _ in cols]))
for row, r in zip(rows, recs):
    lay = "".join(row[1:4])
    want = "wmma_ls<" + ", ".join("1" if c == "r" else "0" for c in row[1:4]) + ">"
    if want not in r["Kernel Name"]:
        sys.exit(f"row {row[0]}: kernel {r['Kernel Name']} is not {want}")
    print("\t".join(row + [str(int(float(r[m].replace(",", "")))) for _, m in cols]))
