#!/usr/bin/env python3
"""Per launch of >= 1,000 blocks in scale-1130s-timing.txt (or scale-1130t-timing.txt): best and median wall seconds of the
three rounds at 1 and 16 threads, base and new, the 1 -> 16 speed-up of the bests, the blocks'
thread seconds (median) and the 2/4/8-thread sweep (new's; round t base's too).   python3 scale-1130s.py [TIMING]"""
import re, statistics, sys

runs = {}
cur = None
for line in open(sys.argv[1] if len(sys.argv) > 1 else "scale-1130s-timing.txt"):
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

print(f"{'launch':<28} {'blocks':>7} {'thr':>4} {'base best/med s':>16} {'new best/med s':>16} {'base th-s':>9} {'new th-s':>9}")
for (prog, block, n), d in runs.items():
    for t in (1, 16):
        b, nw = d.get(("base", t), []), d.get(("new", t), [])
        f = lambda v: f"{min(x[0] for x in v):.3f}/{statistics.median(x[0] for x in v):.3f}" if v else "-"
        g = lambda v: f"{statistics.median(x[1] for x in v):.2f}" if v else "-"
        print(f"{prog + ' ' + block:<28} {n:>7} {t:>4} {f(b):>16} {f(nw):>16} {g(b):>9} {g(nw):>9}")
    for v in ("base", "new"):
        if d.get((v, 1)) and d.get((v, 16)):
            best1 = min(x[0] for x in d[(v, 1)])
            best16 = min(x[0] for x in d[(v, 16)])
            med1 = statistics.median(x[0] for x in d[(v, 1)])
            med16 = statistics.median(x[0] for x in d[(v, 16)])
            print(f"{'':<28} {v}: 1 -> 16 {best1 / best16:.1f}x (bests), {med1 / med16:.1f}x (medians)")
    for t in (2, 4, 8):
        for v in ("base", "new"):
            if d.get((v, t)):
                w, bl, sh = d[(v, t)][0]
                print(f"{'':<28} {v} at {t} threads: wall {w:.3f} s, blocks {bl:.2f} thread s (shadow {sh:.2f})")
