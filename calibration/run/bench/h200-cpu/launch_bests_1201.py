#!/usr/bin/env python3
"""Per program and build of a timing file of bench-run-1201b-run.sh (or 1201a): each run's launch
wall seconds (the sum of its WARPSCOPE_TIMING launch lines) and CPU seconds (user + sys), the best
and the median.   python3 launch_bests_1201.py bench-run-1201b-timing.txt"""
import collections
import re
import sys

text = open(sys.argv[1]).read().split("# machine")[0]
runs = collections.defaultdict(list)
for block in re.split(r"^== ", text, flags=re.M)[1:]:
    v, p = re.match(r"(\w+): (\w+)", block).groups()
    threads = re.search(r", (\d+) thread", block).group(1)
    walls = [float(x) for x in re.findall(r" threads: wall ([0-9.]+) s \[", block)]
    u = re.search(r"wall [0-9.]+ s user ([0-9.]+) s sys ([0-9.]+) s", block)
    runs[(p, threads, v)].append((sum(walls), float(u.group(1)) + float(u.group(2))))
for (p, th, v), rs in sorted(runs.items()):
    ws = sorted(r[0] for r in rs)
    print(f"{p:10} {th:>2} thread(s) {v:5} launch wall s: {' '.join(f'{r[0]:.3f}' for r in rs)}"
          f"  best {ws[0]:.3f} median {ws[len(ws) // 2]:.3f}  CPU s: {' '.join(f'{r[1]:.2f}' for r in rs)}")
