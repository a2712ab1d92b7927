#!/usr/bin/env python3
"""Rows of measured.tsv each candidate of predicted.tsv breaks (written before the round).
Usage: rules.py [MEASURED] [PREDICTED]"""
import csv
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
mp = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "measured.tsv")
pp = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "predicted.tsv")
meas = list(csv.DictReader(open(mp), delimiter="\t"))
pred = list(csv.DictReader(open(pp), delimiter="\t"))
assert len(meas) == len(pred)
groups = {
    "ca16": lambda p: p["k"] == "0" and p["w"] == "16",
    "ca16 pred": lambda p: p["k"] == "1",
    "ca4/8": lambda p: p["k"] == "0" and p["w"] != "16",
    "cg16": lambda p: p["k"] == "2",
    "cg16 pred": lambda p: p["k"] == "3",
    "ro": lambda p: int(p["k"]) >= 10,
}
for g, sel in groups.items():
    rows = [(p, m) for p, m in zip(pred, meas) if sel(p)]
    print(f"== {g}: {len(rows)} launches")
    for c in ["sec:src", "sec:bypass", "sec:phase_src", "sec:pairs", "sec:phase_pairs"]:
        bad = [p["name"] for p, m in rows if p[c] != "-" and p[c] != m["sectors"]]
        if rows and rows[0][0][c] != "-":
            print(f"  {c}: {len(bad)} broken {bad[:6]}")
    for c in ["req:one", "req:phases"]:
        bad = [p["name"] for p, m in rows if p[c] != "-" and p[c] != m["requests"]]
        if rows and rows[0][0][c] != "-":
            print(f"  {c}: {len(bad)} broken {bad[:6]}")
    known = [(p, m) for p, m in rows if p["wavefronts"] != "-"]
    bad = [(p["name"], p["wavefronts"], m["wavefronts"]) for p, m in known if p["wavefronts"] != m["wavefronts"]]
    print(f"  wavefronts: {len(bad)} of {len(known)} broken {bad[:8]}")
