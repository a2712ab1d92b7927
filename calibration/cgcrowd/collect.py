#!/usr/bin/env python3
"""Joins the battery's raw pages (h200/cw_raw0-3.csv.gz, launch order; the launches of part p are
lines p * Q .. of layouts.txt) with layouts.txt -> measured.tsv (per launch: form, name, the lanes
that read, and the counters). `collect.py 3` joins the third round's pages (h200c/cw3_raw0-7.csv.gz,
eight parts) with layouts3.txt instead. Usage: collect.py > measured.tsv; collect.py 3 > measured3.tsv"""
import csv
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COLS = [
    ("inst", "smsp__inst_executed_op_ldgsts.sum"),
    ("wavefronts", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"),
    ("conflicts", "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"),
    ("hw_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
    ("hw_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
    ("ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("bytes", "sm__sass_data_bytes_mem_shared_op_ldgsts.sum"),
]


def raw_rows(path):
    lines = gzip.open(path, "rt").read().splitlines()
    lines = [l for l in lines if l.startswith('"')]
    rows = list(csv.reader(lines))
    h = rows[0]
    return [dict(zip(h, r)) for r in rows[2:]]


def third():
    lay = [l.split() for l in open(os.path.join(HERE, "layouts3.txt"))]
    got = []
    for p in range(8):
        got += raw_rows(os.path.join(HERE, "h200c", f"cw3_raw{p}.csv.gz"))
    assert len(got) == len(lay), (len(got), len(lay))
    cols = [c for c in COLS if c[0] in ("inst", "wavefronts", "conflicts", "ld_requests", "ld_sectors")]
    print("launch\tname\t" + "\t".join(c for c, _ in cols))
    for i, (f, g) in enumerate(zip(lay, got)):
        assert g["Kernel Name"].startswith("void cw<2, 1>"), (i, g["Kernel Name"])
        print(f"{i}\t{f[2]}\t" + "\t".join(g[m].replace(",", "") for _, m in cols))


def main():
    if sys.argv[1:] == ["3"]:
        return third()
    lay = [l.split() for l in open(os.path.join(HERE, "layouts.txt"))]
    got = []
    for p in range(4):
        got += raw_rows(os.path.join(HERE, "h200", f"cw_raw{p}.csv.gz"))
    assert len(got) == len(lay), (len(got), len(lay))
    print("launch\tform\tname\treads\t" + "\t".join(c for c, _ in COLS))
    for i, (f, g) in enumerate(zip(lay, got)):
        form = int(f[0])
        assert g["Kernel Name"].startswith(f"void cw<{form}, 1>"), (i, g["Kernel Name"])
        val = [int(x) for x in f[3 + 64:3 + 96]]
        reads = 0xFFFFFFFF if form == 2 else sum(1 << l for l in range(32) if val[l])
        vals = [g[m].replace(",", "") for _, m in COLS]
        print(f"{i}\t{form}\t{f[2]}\t{reads:08x}\t" + "\t".join(vals))


if __name__ == "__main__":
    main()
