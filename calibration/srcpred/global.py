#!/usr/bin/env python3
"""Per launch, the global load requests and sectors the raw page gave (h200/raw.csv.gz, launch order):
the kernel's three table loads and its eight copies' sources -> measured_global.tsv.
Usage: global.py > measured_global.tsv"""
import csv, gzip, os

here = os.path.dirname(os.path.abspath(__file__))
raw = gzip.open(os.path.join(here, "h200", "raw.csv.gz"), "rt").read().splitlines()
start = [k for k, l in enumerate(raw) if l.startswith('"ID"')][0]
rows = list(csv.reader(raw[start:]))
h = rows[0]
cols = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
print("launch\t" + "\t".join(cols))
for i, r in enumerate(rows[2:]):
    d = dict(zip(h, r))
    print(f"{i}\t" + "\t".join(d[c].replace(",", "") for c in cols))
