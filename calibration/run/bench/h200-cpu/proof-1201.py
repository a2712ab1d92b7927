#!/usr/bin/env python3
"""Per launch of >= 1,000 blocks in proof-1201-timing.txt (the H200 host's Xeon): best and median wall
seconds of the rounds at 1 and 16 threads for main (main's runtime library) and new (the branch: the
disjointness proof through bounds guards and grid-stride loops), the blocks' and the shadow's thread
seconds (medians), whether the branch ran the launch without the shadow, and the 1 -> 16 speed-ups:
each variant against its own one-thread runs and against the pooled one-thread runs of both (at one
thread neither runs a shadow or a proof: the same code path).
   python3 proof-1201.py [TIMING]"""
import re, statistics, sys

runs, proven = {}, {}
cur = key = None
for line in open(sys.argv[1] if len(sys.argv) > 1 else "proof-1201-timing.txt"):
    m = re.match(r"== (\w+): (\w+) (\d+), (\d+) threads, round (\w+)", line)
    if m:
        cur, key = m.groups(), None
        continue
    m = re.match(r"warpscope timing: (\S+?)<<<\(([\d,]+)\),\(([\d,]+)\)>>> \d+ blocks, \d+ threads: wall ([\d.]+) s \[(.*?)\]; "
                 r"thread seconds: blocks ([\d.]+) \(shadow ([\d.]+)\)", line)
    if m and cur:
        name, grid, block, wall, _, bl, sh = m.groups()
        n = 1
        for x in grid.split(","):
            n *= int(x)
        key = None
        if n < 1000:
            continue
        short = re.sub(r"^_Z\d+", "", name)
        short = re.match(r"[A-Za-z]+", short[: int(re.match(r"_Z(\d+)", name).group(1))] if name.startswith("_Z") else name).group(0)
        key = (cur[1], short, re.sub(r",1$", "", block).replace(",", "x"), n)
        runs.setdefault(key, {}).setdefault((cur[0], int(cur[3])), []).append((float(wall), float(bl), float(sh)))
        continue
    if key and cur and line.startswith("warpscope shadow: none"):
        proven[(key, cur[0])] = True

print(f"{'launch':<34} {'blocks':>7} {'thr':>4} {'main best/med s':>16} {'th-s blk/sh':>12} {'new best/med s':>16} {'th-s blk/sh':>12}  new proven")
for key, d in runs.items():
    prog, kern, block, n = key
    for t in (1, 16):
        f = lambda v: f"{min(x[0] for x in v):.3f}/{statistics.median(x[0] for x in v):.3f}" if v else "-"
        g = lambda v: f"{statistics.median(x[1] for x in v):.2f}/{statistics.median(x[2] for x in v):.3f}" if v else "-"
        print(f"{prog + ' ' + kern + ' ' + block:<34} {n:>7} {t:>4} {f(d.get(('main', t), [])):>16} {g(d.get(('main', t), [])):>12} "
              f"{f(d.get(('new', t), [])):>16} {g(d.get(('new', t), [])):>12}  {'yes' if proven.get((key, 'new')) else 'no'}")
    pooled = d.get(("main", 1), []) + d.get(("new", 1), [])
    for v in ("main", "new"):
        one, six = d.get((v, 1)), d.get((v, 16))
        if not (one and six):
            continue
        b16, m16 = min(x[0] for x in six), statistics.median(x[0] for x in six)
        b1, m1 = min(x[0] for x in one), statistics.median(x[0] for x in one)
        pb, pm = min(x[0] for x in pooled), statistics.median(x[0] for x in pooled)
        print(f"{'':<34} {v}: 1 -> 16 {b1 / b16:.1f}x (bests), {m1 / m16:.1f}x (medians); "
              f"against the pooled one-thread runs ({pb:.3f}/{pm:.3f} s): {pb / b16:.1f}x, {pm / m16:.1f}x")
