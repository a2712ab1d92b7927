#!/usr/bin/env python3
"""Per launch of >= 1,000 blocks (the 2-core VM) in vm-disjoint-timing.txt: best and median wall seconds of the rounds
at 1 and 2 threads for main (main's runtime library), new (the branch: launches proven disjoint run
without the shadow) and keep (the branch with WARPSCOPE_SHADOW_PROOF=0: the shadow on, its marks one
array), the blocks' thread seconds (median; shadow part) and the 1 -> 2 speed-up of the bests and the
medians (keep's against new's one-thread runs: the same code at one thread), and against the one-thread
runs of main and new together (at one thread neither has a shadow or a proof: the same code path, whose
run-to-run spread on this host is larger than any difference between the two).
   python3 disjoint-1201.py [TIMING]"""
import re, statistics, sys

runs = {}
cur = None
for line in open(sys.argv[1] if len(sys.argv) > 1 else "vm-disjoint-timing.txt"):
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
    for t in (1, 2):
        if not any(d.get((v, t)) for v in V):
            continue
        f = lambda v: f"{min(x[0] for x in v):.3f}/{statistics.median(x[0] for x in v):.3f}" if v else "-"
        g = lambda v: f"{statistics.median(x[1] for x in v):.2f}/{statistics.median(x[2] for x in v):.2f}" if v else "-"
        print(f"{prog + ' ' + block:<30} {n:>7} {t:>4} " + " ".join(f"{f(d.get((v, t), [])):>16} {g(d.get((v, t), [])):>9}" for v in V))
    for v in V:
        one = d.get(("new" if v == "keep" else v, 1))
        two = d.get((v, 2))
        if one and two:
            b1, b2 = min(x[0] for x in one), min(x[0] for x in two)
            m1, m2 = statistics.median(x[0] for x in one), statistics.median(x[0] for x in two)
            print(f"{'':<30} {v}: 1 -> 2 {b1 / b2:.1f}x (bests), {m1 / m2:.1f}x (medians)")
    pooled = d.get(("main", 1), []) + d.get(("new", 1), [])
    if pooled:
        b1 = min(x[0] for x in pooled)
        m1 = statistics.median(x[0] for x in pooled)
        for v in V:
            if d.get((v, 2)):
                b2 = min(x[0] for x in d[(v, 2)])
                m2 = statistics.median(x[0] for x in d[(v, 2)])
                print(f"{'':<30} {v} against the pooled one-thread runs ({b1:.3f}/{m1:.3f} s): {b1 / b2:.1f}x (bests), {m1 / m2:.1f}x (medians)")
