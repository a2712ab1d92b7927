#!/usr/bin/env python3
"""Joins the device round's ncu source page (per SASS instruction) with layouts.txt into measured.tsv:
one row per (launch, copy): the launch (2 * layout line + kernel: 0 plain predicates, 1 negated), the
layout's name, the copy, the LDGSTS's predicate operand as written, the lanes that read (hex), the
instruction's executions, shared wavefronts and ideal wavefronts as the source page gives them.
Usage: collect.py RESULTS_DIR > measured.tsv"""
import csv, gzip, os, sys

here = os.path.dirname(os.path.abspath(__file__))
res = sys.argv[1]
lay = []
for line in open(os.path.join(here, "layouts.txt")):
    f = line.split()
    lay.append((f[0], [int(x) for x in f[65:97]]))
launch, head, blocks = -1, None, []
for row in csv.reader(gzip.open(os.path.join(res, "source.csv.gz"), "rt").read().splitlines()):
    if len(row) >= 2 and row[0] == "Kernel Name":
        launch += 1
        blocks.append((row[1], []))
    elif row and row[0] == "Address":
        head = row
    elif head and len(row) == len(head) and "LDGSTS" in row[1]:
        d = dict(zip(head, row))
        blocks[-1][1].append((" ".join(d["Source"].split()), d["Instructions Executed"],
                              d["L1 Wavefronts Shared"], d["L1 Wavefronts Shared Ideal"]))
# ncu prints each launch's page twice, one after the other: keep one of each pair (checked equal)
assert len(blocks) % 2 == 0
for a, b in zip(blocks[0::2], blocks[1::2]):
    assert a == b, (a, b)
blocks = blocks[0::2]
print("launch\tname\tcopy\tpredicate\treads\texecutions\twavefronts\tideal")
for i, (kname, insts) in enumerate(blocks):
    name, masks = lay[i // 2]
    assert len(insts) == 8, (i, kname, len(insts))
    neg = "<1>" in kname or "ILi1E" in kname
    pos = "<0>" in kname or "ILi0E" in kname
    assert (neg or pos) is False or neg == (i % 2 == 1), (i, kname)
    for c, (sass, n, w, ideal) in enumerate(insts):
        pred = [o.strip() for o in sass.split(",") if o.strip().lstrip("!") in
                ("PT", "P0", "P1", "P2", "P3", "P4", "P5", "P6")][0]
        reads = sum(1 << l for l in range(32) if masks[l] >> c & 1)
        print(f"{i}\t{name}\t{c}\t{pred}\t{reads:08x}\t{n}\t{w}\t{ideal}")
