#!/usr/bin/env python3
"""Per launch of >= 1,000 blocks in disjoint-1201-timing.txt: best and median wall seconds of the rounds
at 1 and 16 threads for main (main's runtime library), new (the branch: launches proven disjoint run
without the shadow) and keep (the branch with WARPSCOPE_SHADOW_PROOF=0: the shadow on, its marks one
array), the blocks' thread seconds (median; shadow part) and the 1 -> 16 speed-up of the bests and the
medians (keep's against new's one-thread runs: the same code at one thread), and against the one-thread
runs of main and new together (at one thread neither has a shadow or a proof: the same code path, whose
run-to-run spread on this host is larger than any difference between the two).
   python3 disjoint-1201.py [TIMING]"""
import re, statistics, sys

runs = {}
cur = None
for line in open(sys.argv[1] if len(sys.argv) > 1 else "disjoint-1201-timing.txt"):
    m = re.match(r"== (\w+): (\w+) (\d+), (\d+) threads, round (\w+)", line)
    if m:
        cur = m.groups()
        continue
    m = re.match(r"warpscope timing: \S+<<<\(([\d,]+)\),\(([\d,]+)\)>>> \d+ blocks, \d+ threads: wall ([\d.]+) s \[(.*?)\]; "
                 r"thread seconds: blocks ([\d.]+) \(shadow ([\d.]+)\)", line)
    if m and cur:
        grid, block, wall, phases, bl, sh = m.groups()
        n = 1
        for x in grid.split(","):
            n *= int(x)
        if n < 1000:
            continue
        key = (cur[1] + " " + cur[2], re.sub(r",1$", "", block).replace(",", "x"), n)
        runs.setdefault(key, {}).setdefault((cur[0], int(cur[3])), []).append((float(wall), float(bl), float(sh)))

V = ("main", "new", "keep")
print(f"{'launch':<30} {'blocks':>7} {'thr':>4} " + " ".join(f"{v + ' best/med s':>16} {v + ' th-s':>9}" for v in V))
for (prog, block, n), d in runs.items():
    for t in (1, 2, 8, 16):
        if not any(d.get((v, t)) for v in V):
            continue
        f = lambda v: f"{min(x[0] for x in v):.3f}/{statistics.median(x[0] for x in v):.3f}" if v else "-"
        g = lambda v: f"{statistics.median(x[1] for x in v):.2f}/{statistics.median(x[2] for x in v):.2f}" if v else "-"
        print(f"{prog + ' ' + block:<30} {n:>7} {t:>4} " + " ".join(f"{f(d.get((v, t), [])):>16} {g(d.get((v, t), [])):>9}" for v in V))
    for v in V:
        one = d.get(("new" if v == "keep" else v, 1))
        sixteen = d.get((v, 16))
        if one and sixteen:
            b1, b16 = min(x[0] for x in one), min(x[0] for x in sixteen)
            m1, m16 = statistics.median(x[0] for x in one), statistics.median(x[0] for x in sixteen)
            print(f"{'':<30} {v}: 1 -> 16 {b1 / b16:.1f}x (bests), {m1 / m16:.1f}x (medians)")
    pooled = d.get(("main", 1), []) + d.get(("new", 1), [])
    if pooled:
        b1 = min(x[0] for x in pooled)
        m1 = statistics.median(x[0] for x in pooled)
        for v in V:
            if d.get((v, 16)):
                b16 = min(x[0] for x in d[(v, 16)])
                m16 = statistics.median(x[0] for x in d[(v, 16)])
                print(f"{'':<30} {v} against the pooled one-thread runs ({b1:.3f}/{m1:.3f} s): {b1 / b16:.1f}x (bests), {m1 / m16:.1f}x (medians)")
