#!/usr/bin/env python3
"""The LDSM rule (calibration/ldsm rule 1) over the rows a wmma A/B load reads, beside two
alternatives; prints rows broken of measured.tsv's ldsm_wf (A + B)."""
import sys

def tile_rows(ld, off):
    # 16 memory rows of 16 halves at stride ld (elements), each split into two 16-byte halves;
    # matrix (R0, h) = memory rows R0..R0+7, half h
    base = 2 * off
    return [[base + 2 * ((r0 + r) * ld) + 16 * h for r in range(8)] for r0 in (0, 8) for h in (0, 1)]

def ldsm(mats):  # rule 1: per matrix, max over bank groups of distinct rows; matrices add
    t = 0
    for rows in mats:
        g = {}
        for a in rows:
            g.setdefault((a // 16) % 8, set()).add(a)
        t += max(len(s) for s in g.values())
    return t

def pooled(mats):  # alternative: the four matrices as one request
    g = {}
    for rows in mats:
        for a in rows:
            g.setdefault((a // 16) % 8, set()).add(a)
    return max(len(s) for s in g.values())


rules = {"ldsm": ldsm, "pooled": pooled}
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1] if len(sys.argv) > 1 else "measured.tsv") if not l.startswith("#")]
h, rows = rows[0], rows[1:]
ix = {k: i for i, k in enumerate(h)}
for name, f in rules.items():
    bad = 0
    for r in rows:
        p = f(tile_rows(int(r[ix["lda"]]), int(r[ix["offa"]]))) + f(tile_rows(int(r[ix["ldb"]]), int(r[ix["offb"]])))
        bad += p != int(r[ix["ldsm_wf"]])
    print(f"{name}: {bad} of {len(rows)} rows differ")
