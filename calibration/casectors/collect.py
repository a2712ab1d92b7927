#!/usr/bin/env python3
"""Per launch, what the raw page gave (RESULTS/raw.csv.gz, launch order, checked against rows.txt)
-> measured.tsv. Usage: collect.py RESULTS > measured.tsv"""
import csv
import gzip
import os
import sys

res = sys.argv[1]
raw = gzip.open(os.path.join(res, "raw.csv.gz"), "rt").read().splitlines()
start = [k for k, l in enumerate(raw) if l.startswith('"ID"')][0]
rows = list(csv.reader(raw[start:]))
h = rows[0]
names = [l.split() for l in open(os.path.join(res, "rows.txt")) if l.strip()]
cols = [
    ("requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("wavefronts", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"),
    ("conflicts", "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"),
    ("instructions", "smsp__inst_executed_op_ldgsts.sum"),
    ("l1tex_shared_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
    ("ldgsts_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"),
]
data = rows[2:]
assert len(data) == len(names), (len(data), len(names))
print("launch\tname\tw\tk\t" + "\t".join(c for c, _ in cols))
for i, (r, n) in enumerate(zip(data, names)):
    d = dict(zip(h, r))
    assert int(n[0]) == i
    kname = d["Kernel Name"]
    k = int(n[3])
    assert ("ro(" in kname) == (k >= 10), (i, kname)
    vals = [d.get(m, "-").replace(",", "") or "-" for _, m in cols]
    print(f"{i}\t{n[1]}\t{n[2]}\t{k}\t" + "\t".join(vals))
